# SPDX-License-Identifier: GPL-3.0-or-later
"""Wall time of ``ordvakt timer --mode ordskifte --seconds S --until-expiry`` (target: S ± 50 ms).

Runs the command as a subprocess several times and prints the median, min and max of the wall
time seen from outside, and of the elapsed time the command itself reports.

    .venv/bin/python bench/timer_expiry.py [--runs 7] [--seconds 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    command = [sys.executable, "-m", "device", "timer", "--mode", "ordskifte",
               "--seconds", str(args.seconds), "--until-expiry", "--quiet"]
    walls, reported = [], []
    for _ in range(args.runs):
        begin = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - begin)
        found = re.search(r"expired after ([\d.]+) s", done.stdout)
        if found:
            reported.append(float(found[1]))
    for name, values in (("wall time", walls), ("reported", reported)):
        print(f"{name:9}: median {statistics.median(values):.3f} s  min {min(values):.3f}  max {max(values):.3f}"
              f"  (n={len(values)}, target {args.seconds:.3f} s)")
    worst = max(abs(w - args.seconds) for w in walls)
    print(f"worst wall-time error: {worst * 1000:.0f} ms ({'within' if worst <= 0.05 else 'OUTSIDE'} ±50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

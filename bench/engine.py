#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves replayed per second over every shared GCG file (parse + validate + score + check).

Run from the repository root: ``.venv/bin/python bench/engine.py [--runs 5]``.
Prints the median of the runs. Needs ../shared/data beside the repository.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.errors import EngineError  # noqa: E402
from engine.gcg import parse_gcg, replay  # noqa: E402


def corpus() -> list[tuple[str, bytes, str | None]]:
    shared = REPO.parent / "shared" / "data"
    if not shared.is_dir():
        sys.exit(f"bench/engine.py: the shared game records are missing: {shared}")
    files = [(str(p), p.read_bytes(), None) for p in sorted(shared.glob("gcg/*/*.gcg"))]
    files += [(str(p), p.read_bytes(), "de") for p in sorted(shared.glob("photos/scrabscrap/*/*.gcg"))]
    return files


def one_run(files) -> tuple[int, float]:
    moves = 0
    start = time.perf_counter()
    for name, data, tiles in files:
        try:
            moves += replay(parse_gcg(data, name), tiles=tiles).moves
        except EngineError:
            pass  # the deliberately unreadable edge case
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files = corpus()
    rates = []
    for _ in range(args.runs):
        moves, seconds = one_run(files)
        rates.append(moves / seconds)
    print(f"files: {len(files)}, moves per run: {moves}")
    print(f"moves replayed per second (median of {args.runs}): {statistics.median(rates):,.0f}")
    print(f"  min {min(rates):,.0f}  max {max(rates):,.0f}")


if __name__ == "__main__":
    main()

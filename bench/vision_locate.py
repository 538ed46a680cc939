# SPDX-License-Identifier: GPL-3.0-or-later
"""Processor time of locating a board from scratch: ``vision.locate.Locator(profile)(frame, gains)`` on a fresh
Locator (the colour guess, vision.find.find_grid, the refinement on the lines, the grid evidence and line
scores), per 2 MP frame, one thread; the frames of the whole-read timing (12 synthetic room scenes, seeds
1000-1011, and the last 6 jheidel game2015 photos). The white-balance gains are measured beforehand, as the
reader does. Prints the median over frames of each frame's fastest of ``--repeat`` runs (what locating costs
without the waits other processes cause on a shared machine) and of the first runs; ``--steps`` adds the
processor time per frame of the main steps (they overlap: find_grid is part of _locate_structure).

Usage: .venv/bin/python bench/vision_locate.py [--repeat 3] [--steps]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision import colour, find, locate  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.reader import load_frame  # noqa: E402
from vision.synthetic import STYLES, render_scene  # noqa: E402

JHEIDEL = ROOT.parent / "shared" / "data" / "photos" / "jheidel" / "game2015"
STEPS = ((locate, "_colour_guess"), (locate, "find_board_area"), (locate, "_locate_structure"), (find, "find_grid"),
         (find, "_segments"), (find, "_lattice_for_families"), (find, "_settle"), (find, "refine_grid"),
         (locate, "_refine_pass"), (find, "grid_evidence"), (locate, "line_scores"), (locate, "_appearance"))


def frames() -> list:
    out = [render_scene(seed, style=STYLES[seed % len(STYLES)]).image for seed in range(1000, 1012)]
    return out + [load_frame(path) for path in sorted(JHEIDEL.glob("*.jpg"))[-6:]]


def timed_steps(spent: dict[str, float]) -> None:
    """Wrap the main steps so that their processor time adds up in ``spent``."""
    for module, name in STEPS:
        original = getattr(module, name)

        def timed(*args, _original=original, _name=name, **kwargs):
            t0 = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.process_time() - t0

        setattr(module, name, functools.wraps(original)(timed))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", action="store_true", help="also the processor time of the main steps")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    pictures = frames()
    gains = [colour.white_gains(frame) for frame in pictures]
    profile = load_profile("classic-scrabble")
    spent: dict[str, float] = {}
    if args.steps:
        timed_steps(spent)
    runs: list[list[float]] = [[] for _ in pictures]
    for _ in range(max(1, args.repeat)):
        for i, (frame, frame_gains) in enumerate(zip(pictures, gains, strict=True)):
            locator = locate.Locator(profile)
            t0 = time.process_time()
            locator(frame, frame_gains)
            runs[i].append((time.process_time() - t0) * 1000)
    print(f"load average at start: {os.getloadavg()[0]:.2f} (1 min), OpenCV threads: 1")
    print(f"fresh Locator call, {len(pictures)} frames (12 synthetic 1600x1200, 6 jheidel 1632x1224): "
          f"median of each frame's fastest of {args.repeat} runs {statistics.median(min(r) for r in runs):.1f} ms, "
          f"median of first runs {statistics.median(r[0] for r in runs):.1f} ms")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:<22} {seconds / len(pictures) / max(1, args.repeat) * 1000:6.1f} ms per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())

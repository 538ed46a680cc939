# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole reads from scratch of the synthetic scene set against its truth, per board style.

Every scene (vision.synthetic.render_scene, seeds 1000-1299 by default: not looked at while developing) is read by
a new reader with its style's built-in profile (classic-scrabble, scrabscrap, alfapet-17) and the English tile set.
Prints per style how many frames were reported covered, of those with a hand in the frame and of those without,
and on the frames not covered the cells wrong on tile or empty and the cells wrong on the letter (either way round:
a quarter turn of the whole reading is allowed, the layouts are symmetric).

``--glare S``: a lamp's reflection of strength S (vision.variants.glare, e.g. 0.7) on each scene, its place and size
drawn from the scene's seed (centre 35-65 % across and down the frame, radius 6-10 % of its width).

Usage: .venv/bin/python bench/vision_scene_reads.py [--first 1000] [--count 300] [--style vintage] [--profile P]
       [--glare S]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.rules import Rules  # noqa: E402
from vision.locate import reading_rows  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.reader import BoardReader, ReadingStatus  # noqa: E402
from vision.synthetic import BOARD_STYLES, STYLE_PROFILES, STYLES, render_scene  # noqa: E402
from vision.variants import glare  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--profile", help="this board profile (name or .toml, e.g. one `ordvakt calibrate` wrote) for "
                    "every style instead of the style's built-in one")
    ap.add_argument("--style", choices=sorted(BOARD_STYLES), help="every scene of this board style (vintage: an "
                    "older board with dark tiles, read with the classic profile; not among the styles cycled through)")
    ap.add_argument("--glare", type=float, help="a reflection of this strength (0-1) on every scene")
    args = ap.parse_args()
    readers = {}
    styles = STYLES if args.style is None else (args.style,)
    for style in styles:
        board = BOARD_STYLES[style]
        rules = Rules.scrabble("en") if board.grid == 15 else Rules.scrabble("en", layout=board.layout)
        readers[style] = (load_profile(args.profile or STYLE_PROFILES[style]), rules.tileset)
    frames: Counter[tuple[str, str]] = Counter()
    covered: Counter[tuple[str, str]] = Counter()
    cells_wrong: Counter[str] = Counter()
    letters_wrong: Counter[str] = Counter()
    for seed in range(args.first, args.first + args.count):
        scene = render_scene(seed, style=args.style)
        style, hand = scene.truth.style, "hand" if scene.truth.hand else "no hand"
        profile, tileset = readers[style]
        image = scene.image
        if args.glare:
            place = np.random.default_rng(seed)
            image = glare(image, centre=(place.uniform(0.35, 0.65), place.uniform(0.35, 0.65)),
                          size=place.uniform(0.06, 0.1), strength=args.glare)
        reading = BoardReader(profile, tileset).read(image)
        frames[style, hand] += 1
        if reading.geometry is None or reading.status & ReadingStatus.COVERED:
            covered[style, hand] += 1
            continue
        truth = np.array([list(row) for row in scene.truth.visible_rows()])
        got = np.array([list(row) for row in reading_rows(reading)])
        cells_wrong[style] += min(int(((np.rot90(truth, k) != ".") != (got != ".")).sum()) for k in range(4))
        letters_wrong[style] += min(int((np.rot90(truth, k) != got).sum()) for k in range(4))
    for style in styles:
        shares = ", ".join(f"{hand} {covered[style, hand]}/{frames[style, hand]}" for hand in ("no hand", "hand"))
        clear = sum(frames[style, hand] - covered[style, hand] for hand in ("no hand", "hand"))
        print(f"{style}: covered ({shares}); on the {clear} frames read: tile/empty wrong on {cells_wrong[style]} "
              f"cells, letters wrong on {letters_wrong[style]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

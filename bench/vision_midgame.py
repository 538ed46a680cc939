# SPDX-License-Identifier: GPL-3.0-or-later
"""Board location from scratch on boards part way through real games, as a reader sees them.

Per seed and board style (classic, tournament, 17x17 Alfapet): one of ../shared/data/gcg/woogles chosen by the seed,
the board after one of its moves (chosen by the seed), rendered as a 2 MP scene with the players' racks beside it
(vision.synthetic.render_scene, seed * 1000 + 77), and read from scratch by a BoardReader with the style's profile;
the grid it read on is compared with the scene's truth (largest corner error in cells, any corner naming). Prints
how many of the frames were located within 0.25 cell and how many more than 0.75 cell off, and names the frames
more than 0.25 cell off.

Seeds: 100-199 were looked at on 4 December 2026; 300-399 were run before and after changes of that day; 400 on
were not run.
Usage: .venv/bin/python bench/vision_midgame.py [--first 300] [--count 100]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.rules import Rules  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.synthetic import (  # noqa: E402
    BOARD_STYLES,
    GCG_DIR,
    STYLE_PROFILES,
    _record_boards,
    corner_error,
    render_scene,
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=300)
    ap.add_argument("--count", type=int, default=100)
    args = ap.parse_args()
    records = sorted(GCG_DIR.glob("*.gcg"))
    if not records:
        print(f"missing {GCG_DIR}: the shared game records are needed", file=sys.stderr)
        return 2
    errors: dict[str, float | None] = {}
    for seed in range(args.first, args.first + args.count):
        for style in ("classic", "tournament", "alfapet"):
            rng = np.random.default_rng(seed)
            board = BOARD_STYLES[style]
            _, boards, _ = _record_boards(records[int(rng.integers(0, len(records)))], (board.grid - 15) // 2,
                                          board.grid)
            scene = render_scene(seed * 1000 + 77, style=style, rows=boards[int(rng.integers(0, len(boards)))],
                                 racks=2)
            reader = BoardReader(load_profile(STYLE_PROFILES[style]),
                                 Rules.scrabble("en", layout=board.layout).tileset)
            reading = reader.read(scene.image)
            errors[f"{style} {seed}"] = None if reading.geometry is None else \
                corner_error(reading.geometry.corners, scene.truth.corners, scene.truth.grid)
    found = [e for e in errors.values() if e is not None]
    print(f"seeds {args.first}-{args.first + args.count - 1}: {len(errors)} frames, {len(errors) - len(found)} no "
          f"board, {sum(e <= 0.25 for e in found)} within 0.25 cell, {sum(e > 0.75 for e in found)} more than 0.75 off")
    for name, error in errors.items():
        if error is None or error > 0.25:
            print(f"  {name}: {'no board' if error is None else f'{error:.2f} cell off'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

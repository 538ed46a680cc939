# SPDX-License-Identifier: GPL-3.0-or-later
"""The tile part of a from-scratch read: orientation + glyphs + letters of every tile, per frame.

Each frame is located and its occupancy measured first (untimed); then a fresh reader's orientation and the
reading of every tile (``BoardReader._orientation`` + ``BoardReader._finish``, as ``BoardReader.read`` calls
them) are timed in processor time, one thread. Frames: 12 synthetic 2 MP scenes, the last 6 jheidel photos
and the last photo of each ScrabScrap game. Target: <= 15 ms per frame (issue 10, item 9's share).
``--dump FILE`` writes every frame's reading (letters and their top scores) to compare two versions.

Usage: .venv/bin/python bench/vision_tiles.py [--repeat N] [--dump FILE]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from engine.rules import Rules  # noqa: E402
from vision import colour  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.reader import BoardReader, load_frame, turned  # noqa: E402
from vision.synthetic import STYLES, render_scene  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "photos"


def _frames() -> list[tuple[str, np.ndarray, str, str]]:
    """(name, frame, profile, language) of every frame timed."""
    out = [(f"synthetic-{s}", render_scene(s, style=STYLES[s % 3]).image, "classic-scrabble", "en")
           for s in range(1000, 1012)]
    jheidel = sorted((PHOTOS / "jheidel" / "game2015").glob("*.jpg"))[-6:]
    out += [(f"jheidel-{p.stem}", load_frame(p), "classic-scrabble", "en") for p in jheidel]
    for game in sorted((PHOTOS / "scrabscrap").glob("game*")):
        last = max(game.glob("image-*.jpg"), key=lambda p: int(p.stem.split("-")[1]))
        out.append((f"scrabscrap-{game.name}", load_frame(last), "scrabscrap", "de"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="times each frame is read (its fastest counts)")
    ap.add_argument("--dump", type=Path, help="write each frame's reading to this file")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    prepared = []
    for name, frame, profile_name, language in _frames():
        profile, tileset = load_profile(profile_name), Rules.scrabble(language).tileset
        reader = BoardReader(profile, tileset)
        gains = colour.white_gains(frame)
        seen = reader.locator(frame, gains)
        occ, _ = reader._occupancy(frame, seen, gains)
        prepared.append((name, frame, profile, tileset, gains, seen, occ))
    fastest: dict[str, float] = {}
    tiles: dict[str, int] = {}
    dump: list[str] = []
    for repeat in range(args.repeat):
        for name, frame, profile, tileset, gains, seen, occ in prepared:
            reader = BoardReader(profile, tileset)
            spent = 0.0
            start = time.process_time()
            extracted: dict = {}
            turns = reader._orientation(frame, seen, occ, gains, extracted)
            spent += time.process_time() - start
            geom = seen
            if turns:
                geom = turned(seen, turns)
                occ, _ = reader._occupancy(frame, geom, gains)  # occupancy's share, not timed here
                extracted.clear()
            start = time.process_time()
            reading = reader._finish(frame, geom, occ, gains, None, 0.0, extracted)
            spent += time.process_time() - start
            fastest[name] = min(fastest.get(name, np.inf), spent * 1000)
            tiles[name] = len(reading.tiles)
            if repeat == 0:
                dump.append(f"== {name} turns {turns}\n{reading.to_text()}")
                for square, tile in sorted(reading.tiles.items()):
                    top = "" if tile.guess is None else " ".join(f"{x}:{s:.5f}" for x, s in tile.guess.top)
                    dump.append(f"{square.row},{square.col} {top}")
    for name, ms in fastest.items():
        print(f"{name:24s} {tiles[name]:3d} tiles {ms:7.1f} ms")
    room = [ms for name, ms in fastest.items() if not name.startswith("scrabscrap")]
    print(f"orientation + glyphs + letters, median over {len(room)} 2 MP frames: {statistics.median(room):.1f} ms "
          f"(fastest of {args.repeat}); over all {len(fastest)}: {statistics.median(fastest.values()):.1f} ms")
    if args.dump:
        args.dump.write_text("\n".join(dump) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

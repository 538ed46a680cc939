# SPDX-License-Identifier: GPL-3.0-or-later
"""Letter reader figures on the shared ScrabScrap photos: leave-one-game-out table, per-tile time, learning time.

Run: ``.venv/bin/python bench/vision_letters.py`` (needs ../shared/data/photos/scrabscrap).
"""

from __future__ import annotations

import os

# One BLAS thread, as bench/vision.py: OpenBLAS threads spin-wait for a busy core on the shared machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, not bench/engine.py

from engine.rules import Rules  # noqa: E402
from vision import glyphs  # noqa: E402
from vision.classifier import UNSURE_MARGIN, LetterClassifier  # noqa: E402
from vision.fonts import photo_glyphs  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "scrabscrap"
GAMES = ("game01", "game02", "game03", "game04")


def main() -> int:
    if not DATA.is_dir():
        print(f"needs the shared photos in {DATA}", file=sys.stderr)
        return 1
    alphabet = Rules.scrabble("de").tileset.alphabet
    first = {g: [(x, gl) for x, _, _, gl in photo_glyphs(DATA / g, first_only=True) if x != "?"] for g in GAMES}
    every = {g: [(x, gl) for x, _, _, gl in photo_glyphs(DATA / g, frames_per_tile=1000) if x != "?"]
             for g in GAMES}
    print("leave-one-game-out (model: fonts + photo glyphs of the other three games | fonts only)")
    print("test game | placed tiles right | every tile on every photo right | fonts only: placed | every")
    for game in GAMES:
        row = [game]
        for exclude in (f"photo:{game}", "photo:"):
            clf = LetterClassifier(alphabet, exclude=(exclude,))
            for items in (first[game], every[game]):
                ok = sum(1 for x, gl in items if not gl.is_blank and clf.classify(gl).letter == x)
                row.append(f"{ok}/{len(items)}")
        print(" | ".join(row))
    clf = LetterClassifier(alphabet)
    items = [gl for g in GAMES for _, gl in first[g] if not gl.is_blank]
    margins = [clf.classify(gl).confidence for gl in items]
    print(f"shipped model: {clf.template_count} templates; right reads below the unsure margin {UNSURE_MARGIN}: "
          f"{sum(m < UNSURE_MARGIN for m in margins)}/{len(margins)}")

    # Per tile: the cut-out (from the reader's crop) and the classification, timed separately.
    from vision.profile import load_profile  # noqa: PLC0415
    from vision.reader import CELL_PX, BoardReader, load_frame  # noqa: PLC0415

    reader = BoardReader(load_profile("scrabscrap"), Rules.scrabble("de").tileset, classifier=clf)
    frame = load_frame(DATA / "game01" / "image-27.jpg")
    reading = reader.read(frame, cells=[])
    whole = reader.read(frame)  # warm-up and the tiles to time
    squares = sorted(whole.tiles)
    geom = reading.geometry
    assert geom is not None
    crops = []
    from vision import colour  # noqa: PLC0415

    warped = colour.apply_gains(geom.warp(frame, CELL_PX, 0.5), reading.gains) if reading.gains is not None \
        else geom.warp(frame, CELL_PX, 0.5)
    pad = glyphs.CROP_PAD * CELL_PX
    size = int(round(CELL_PX + 2 * pad))
    for sq in squares:
        x0, y0 = int(round((0.5 + sq.col) * CELL_PX - pad)), int(round((0.5 + sq.row) * CELL_PX - pad))
        crops.append(warped[y0 : y0 + size, x0 : x0 + size])
    ext, cls = [], []
    for _ in range(7):
        t0 = time.perf_counter()
        cut = [glyphs.extract(c, CELL_PX) for c in crops]
        t1 = time.perf_counter()
        for gl in cut:
            if not gl.is_blank:
                clf.classify(gl, k=4)
        t2 = time.perf_counter()
        ext.append((t1 - t0) / len(crops) * 1000)
        cls.append((t2 - t1) / len(crops) * 1000)
    print(f"per tile ({len(crops)} tiles, median of 7 runs): extract {statistics.median(ext):.3f} ms, "
          f"classify {statistics.median(cls):.3f} ms, total {statistics.median(ext) + statistics.median(cls):.3f} ms")

    # Learning: add thousands of confirmed glyphs, then read one (the first read after learning re-packs).
    many = [gl for g in GAMES for _, gl in every[g] if not gl.is_blank][:3000]
    labels = [x for g in GAMES for x, gl in every[g] if not gl.is_blank][:3000]
    fresh = LetterClassifier(alphabet)
    t0 = time.perf_counter()
    fresh.learn(many, labels)
    fresh.classify(many[0])
    print(f"learning {len(many)} glyphs and the first read after it: {(time.perf_counter() - t0) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""Render training glyphs from installed fonts (the shipped letter model's source; no photos needed).

Each letter is drawn dark on a light tile, with a value digit in the corner, at several sizes, weights
and small rotations, then cut out by :func:`vision.glyphs.extract` exactly like a camera tile, so the
model learns the same normalisation it will see. Run ``python -m vision.fonts`` to rebuild
``vision/data/letters-dejavu.npz``; pygame (a project dependency) is only imported here.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from vision import glyphs

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)
FONT_FILES = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf")
CELL_PX = 40


def _font_paths() -> list[Path]:
    found = []
    for d in FONT_DIRS:
        for f in FONT_FILES:
            if (d / f).is_file():
                found.append(d / f)
    return found


def render(letters: Iterable[str], *, seed: int = 1) -> Iterator[tuple[str, glyphs.Glyph]]:
    """(letter, glyph) pairs rendered from every installed font with variations."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype  # noqa: PLC0415 - heavy, only needed when rebuilding the model

    pygame.freetype.init()
    rng = np.random.default_rng(seed)
    letters = list(letters)
    for path in _font_paths():
        for size_frac in (0.5, 0.58, 0.66):
            font = pygame.freetype.Font(str(path), int(CELL_PX * 4 * size_frac))
            for letter in letters:
                surf, _ = font.render(letter, (0, 0, 0), (255, 255, 255))
                ink = 255 - np.transpose(pygame.surfarray.array3d(surf)[..., 0])
                if letter == "Q" and "O" in letters:
                    # Many tile fonts (geometric sans) cut Q's tail short across the ring, unlike DejaVu.
                    o_surf, _ = font.render("O", (0, 0, 0), (255, 255, 255))
                    o_ink = np.ascontiguousarray(255 - np.transpose(pygame.surfarray.array3d(o_surf)[..., 0]))
                    h, w = o_ink.shape
                    stroke = max(2, w // 7)
                    cv2.line(o_ink, (int(w * 0.55), int(h * 0.6)), (int(w * 0.92), int(h * 0.92)), 255, stroke)
                    for angle in (-4.0, 0.0, 4.0):
                        for erode in (0, 1):
                            glyph = _to_glyph(o_ink, angle, erode, rng)
                            if glyph.image is not None:
                                yield letter, glyph
                for angle in (-4.0, 0.0, 4.0):
                    for erode in (0, 1):
                        glyph = _to_glyph(ink, angle, erode, rng)
                        if glyph.image is not None:
                            yield letter, glyph


def _to_glyph(ink: np.ndarray, angle: float, erode: int, rng: np.random.Generator) -> glyphs.Glyph:
    big = CELL_PX * 4
    canvas = np.zeros((big, big), np.uint8)
    h, w = ink.shape
    scale = min(1.0, 0.62 * big / max(h, w))
    ink = cv2.resize(ink.astype(np.uint8), (max(1, int(w * scale)), max(1, int(h * scale))))
    h, w = ink.shape
    y0, x0 = (big - h) // 2 - big // 20, (big - w) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = ink
    cv2.putText(canvas, str(int(rng.integers(1, 9))), (int(big * 0.74), int(big * 0.86)),
                cv2.FONT_HERSHEY_SIMPLEX, big / 200, 255, max(1, big // 60))
    if erode:
        canvas = cv2.erode(canvas, np.ones((5, 5), np.uint8))
    rot = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
    canvas = cv2.warpAffine(canvas, rot, (big, big))
    tile = 225 - canvas.astype(np.float32) * (190 / 255)
    tile = cv2.resize(tile, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA)
    tile = tile + rng.normal(0, 3, tile.shape)
    pad = int(round(glyphs.CROP_PAD * CELL_PX))
    crop = np.full((CELL_PX + 2 * pad, CELL_PX + 2 * pad), 90.0)  # the board around the tile
    crop[pad + 2 : pad + CELL_PX - 2, pad + 2 : pad + CELL_PX - 2] = tile[2:-2, 2:-2]
    return glyphs.extract(np.clip(crop, 0, 255).astype(np.uint8), CELL_PX)


def _has_mark(letter: str) -> bool:
    return len(unicodedata.normalize("NFD", letter)) > 1


def build(path: Path, letters: str) -> int:
    labels, images, marks = [], [], []
    for letter, glyph in render(letters):
        if _has_mark(letter) != bool(glyph.marks):
            continue  # the rendering lost (or merged) the letter's dots: not what a camera sees
        labels.append(letter)
        images.append(glyph.image)
        marks.append(glyph.marks)
    np.savez_compressed(path, labels=np.array(labels), images=(np.stack(images) * 255).astype(np.uint8),
                        marks=np.array(marks, np.uint8))
    return len(labels)


if __name__ == "__main__":
    out = Path(__file__).parent / "data" / "letters-dejavu.npz"
    # Latin letters of every Ordvakt tile set (Scrabble de/en/fr/sv/no/fi/et, Alfapet, Ordskifte).
    n = build(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜÅÆØÉÕŠŽ")
    print(f"wrote {n} glyphs to {out}")

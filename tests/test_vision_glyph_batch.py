# SPDX-License-Identifier: GPL-3.0-or-later
"""The batched glyph cutting and features (vision.glyphs.extract_many, features_many) give the very glyphs and
numbers the one-tile functions (extract, features) give, on real tile crops: ScrabScrap and jheidel photos and
synthetic scenes of every tile style, grey and colour crops, light letters on dark tiles, odd-sized crops."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.squares import Square
from vision import colour, glyphs
from vision.locate import Geometry
from vision.reader import CELL_PX, WARP_MARGIN, load_frame
from vision.synthetic import STYLES, render_scene

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos"


def _crops(frame: np.ndarray, corners: np.ndarray, grid: int, squares: list[Square]) -> list[np.ndarray]:
    """Grey tile crops as the reader cuts a whole board (white-balanced, one warp)."""
    geom = Geometry(np.array(corners, np.float32), grid, 1.0)
    warped = colour.apply_gains(geom.warp(frame, CELL_PX, WARP_MARGIN), colour.white_gains(frame))
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    return [glyphs.crop_cell(grey, sq.row, sq.col, CELL_PX, WARP_MARGIN) for sq in squares]


def _synthetic_crops() -> list[np.ndarray]:
    out = []
    # Two scenes per style: without ../shared's photos these alone give the 150 lettered tiles asked for below.
    for seed in range(2 * len(STYLES)):
        scene = render_scene(300 + seed, style=STYLES[seed % len(STYLES)], hand=False)
        rows = scene.truth.rows
        squares = [Square(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
        out += _crops(scene.image, scene.truth.corners, scene.truth.grid, squares)
    return out


def _photo_crops() -> list[np.ndarray]:
    """Every cell of the middle of a ScrabScrap and a jheidel board (tiles, empty squares, premium marks),
    located by the reader."""
    from engine.rules import Rules
    from vision.profile import load_profile
    from vision.reader import BoardReader

    out = []
    for path, profile, language in ((PHOTOS / "scrabscrap" / "game01" / "image-24.jpg", "scrabscrap", "de"),
                                    (PHOTOS / "jheidel" / "game2015" / "IMG_20151016_170803.jpg",
                                     "classic-scrabble", "en")):
        if not path.is_file():
            continue
        frame = load_frame(path)
        reading = BoardReader(load_profile(profile), Rules.scrabble(language).tileset).read(frame)
        assert reading.geometry is not None
        squares = [Square(r, c) for r in range(3, 12) for c in range(3, 12)]
        out += _crops(frame, reading.geometry.corners, reading.geometry.grid, squares)
    return out


def _same(a: glyphs.Glyph, b: glyphs.Glyph) -> bool:
    if (a.image is None) != (b.image is None):
        return False
    if a.image is not None and b.image is not None and not np.array_equal(a.image, b.image):
        return False
    return (a.contrast, a.height, a.marks) == (b.contrast, b.height, b.marks)


@pytest.fixture(scope="module")
def crops() -> list[np.ndarray]:
    return _synthetic_crops() + _photo_crops()


def test_the_batch_cuts_the_glyphs_one_by_one_cutting_does(crops):
    lettered = [g for g in glyphs.extract_many(crops, CELL_PX) if not g.is_blank]
    assert len(lettered) >= 150 and sum(g.marks for g in lettered) >= 1
    reference = [glyphs.extract(crop, CELL_PX) for crop in crops]
    batch = glyphs.extract_many(crops, CELL_PX)
    assert [i for i, (a, b) in enumerate(zip(reference, batch, strict=True)) if not _same(a, b)] == []


def test_colour_light_on_dark_and_odd_sized_crops_in_one_batch(crops):
    """Colour crops, inverted ones (light letters on a dark tile) and crops cut short at the picture's edge
    (cut one by one) mixed in one batch."""
    mixed: list[np.ndarray] = []
    for i, crop in enumerate(crops[:120]):
        if i % 4 == 1:
            mixed.append(cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR))
        elif i % 4 == 2:
            mixed.append(255 - crop)
        elif i % 4 == 3:
            mixed.append(crop[: crop.shape[0] - 3, 2:])
        else:
            mixed.append(crop)
    batch = glyphs.extract_many(mixed, CELL_PX)
    assert sum(not g.is_blank for g in batch[2::4]) >= 10  # the inverted crops do read as letters
    assert [i for i, crop in enumerate(mixed) if not _same(glyphs.extract(crop, CELL_PX), batch[i])] == []


def test_features_of_a_stack_are_the_features_of_each_glyph(crops):
    images = np.stack([g.image for g in glyphs.extract_many(crops, CELL_PX) if g.image is not None])
    for stack in (images, np.rot90(images, 1, axes=(1, 2)), images[:1],
                  np.random.default_rng(5).random((40, glyphs.GLYPH_PX, glyphs.GLYPH_PX), np.float32)):
        one_by_one = np.stack([glyphs.features(np.ascontiguousarray(image)) for image in stack])
        # Equal on x86-64. On arm64 (the arm64 proof, systemd/arm64-proof.sh: numpy 1.26, OpenCV's own Sobel)
        # a gradient can come out 1e-8 where the other gives 0, and the histograms' square root lifts that
        # to some 5e-4 of a feature; a binning or pooling mistake moves features by 1e-2 and more.
        np.testing.assert_allclose(glyphs.features_many(stack), one_by_one, rtol=1e-5, atol=2e-3)


def test_the_similarity_window_gives_the_median_of_its_last_values():
    """The reader tracks how well its last tiles matched their letters (a sorted window, not a sort per tile)."""
    import statistics

    from vision.reader import _Window

    rng = np.random.default_rng(3)
    window, values = _Window(7), []
    for value in np.round(rng.random(200), 2).tolist():  # rounded: equal values come and go
        window.add(value)
        values.append(value)
        assert len(window) == len(values[-7:])
        assert window.median() == statistics.median(values[-7:])
    copy = window.copy()
    copy.add(5.0)
    assert copy.median() == statistics.median([*values[-6:], 5.0])
    assert window.median() == statistics.median(values[-7:]) and len(window) == 7


def test_a_quarter_turned_glyph_is_np_rot90s():
    from vision.reader import _quarter_turned

    image = np.random.default_rng(4).random((glyphs.GLYPH_PX, glyphs.GLYPH_PX), np.float32)
    for turns in range(-1, 6):
        assert np.array_equal(_quarter_turned(image, turns), np.rot90(image, turns))
        assert _quarter_turned(image, turns).flags.c_contiguous


def test_a_batch_of_odd_sized_crops(crops):
    """Crops of another (odd) size throughout: the mosaic's pitch still keeps each crop's labelling order."""
    odd = [crop[1:54, 2:53] for crop in crops[:150]]
    batch = glyphs.extract_many(odd, CELL_PX)
    assert sum(not g.is_blank for g in batch) >= 50
    assert [i for i, crop in enumerate(odd) if not _same(glyphs.extract(crop, CELL_PX), batch[i])] == []

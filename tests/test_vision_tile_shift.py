# SPDX-License-Identifier: GPL-3.0-or-later
"""Where letters lie off their squares (tile tops seen at an angle), the reader's crops follow them."""

import numpy as np
import pytest

from engine.squares import Square
from vision import glyphs
from vision.reader import CELL_PX, WARP_MARGIN, BoardReader

IMAGE = np.ones((glyphs.GLYPH_PX, glyphs.GLYPH_PX), np.float32)


def letters(shift, squares, noise: float = 0.0, seed: int = 1) -> list[tuple[Square, glyphs.Glyph]]:
    """Glyphs whose letters lie where ``shift`` (canonical pixels -> canonical pixels) takes their squares'
    centres, give or take ``noise`` cells."""
    rng = np.random.default_rng(seed)
    out = []
    for sq in squares:
        centre = np.array([(WARP_MARGIN + sq.col + 0.5) * CELL_PX, (WARP_MARGIN + sq.row + 0.5) * CELL_PX, 1.0])
        dx, dy = ((shift @ centre)[:2] - centre[:2]) / CELL_PX + rng.normal(0, noise, 2)
        out.append((sq, glyphs.Glyph(IMAGE, 0.8, 0.5, 0, (float(dx), float(dy)))))
    return out


SQUARES = [Square(r, c) for r in range(2, 14, 2) for c in range(1, 15, 3)]


def test_a_shift_growing_towards_the_camera_is_found():
    # Up by 0.05 cell at the far side, 0.3 at the near side, and a little to the right.
    shift = np.array([[1.0, 0.0, 0.04 * CELL_PX], [0.0, 1.0 - 0.25 / 15, -0.05 * CELL_PX], [0, 0, 1]])
    found = BoardReader._fit_tile_shift(letters(shift, SQUARES, noise=0.02), 15)
    assert found is not None
    corners = np.array([[WARP_MARGIN * CELL_PX, WARP_MARGIN * CELL_PX, 1], [15.5 * CELL_PX, 15.5 * CELL_PX, 1]]).T
    assert np.abs((found @ corners - shift @ corners)[:2]).max() < 0.05 * CELL_PX


def test_letters_on_their_squares_leave_the_crops_as_they_are():
    still = np.eye(3)
    still[:2, 2] = -0.05 * CELL_PX  # a font that sits a little up and left on its tiles
    assert BoardReader._fit_tile_shift(letters(still, SQUARES, noise=0.03), 15) is None
    moved = np.eye(3)
    moved[:2, 2] = 0.3 * CELL_PX
    assert BoardReader._fit_tile_shift(letters(moved, SQUARES[:5]), 15) is None  # too few letters to tell


def test_a_few_letters_read_far_off_do_not_make_a_shift():
    cut = letters(np.eye(3), SQUARES, noise=0.02)
    for i in (0, 7, 19):
        sq, glyph = cut[i]
        cut[i] = (sq, glyphs.Glyph(IMAGE, 0.8, 0.5, 0, (0.45, -0.4)))
    assert BoardReader._fit_tile_shift(cut, 15) is None


@pytest.mark.parametrize("turns", [0, 1])
def test_a_plain_offset_is_followed_whichever_way(turns):
    offset = (0.2, -0.15) if turns == 0 else (-0.15, 0.2)
    shift = np.eye(3)
    shift[:2, 2] = np.array(offset) * CELL_PX
    found = BoardReader._fit_tile_shift(letters(shift, SQUARES, noise=0.02), 15)
    assert found is not None
    centre = np.array([8 * CELL_PX, 8 * CELL_PX, 1.0])
    assert np.allclose((found @ centre)[:2] - centre[:2], np.array(offset) * CELL_PX, atol=0.03 * CELL_PX)

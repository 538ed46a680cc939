# SPDX-License-Identifier: GPL-3.0-or-later
"""Light letters on dark tiles (older wooden sets; the vintage synthetic style).

A cell's colour is measured without its letter's ink: the brighter half of its centre when letters are darker than
the tiles, the darker half when they are lighter. Otherwise a tile's colour goes with how much ink its letter has, and
an I or a J on a dark tile fits no state (the board was taken as covered)."""

import cv2
import numpy as np
import pytest

from engine.rules import Rules
from vision import glyphs, occupancy
from vision.locate import Geometry, reading_rows
from vision.profile import load_profile
from vision.reader import CELL_PX, BoardReader
from vision.synthetic import BOARD_STYLES, render_scene, synthetic_game, tile_image

RULES = Rules.scrabble("en")


@pytest.mark.parametrize(("style", "light"), [("vintage", True), ("classic", False), ("tournament", False)])
def test_a_letter_lighter_than_its_tile_is_cut_and_marked_so(style, light):
    rng = np.random.default_rng(1)
    crops = []
    for letter in "IJMW":
        tile = tile_image(letter, CELL_PX, BOARD_STYLES[style], rng, value=1)
        crops.append(cv2.copyMakeBorder(tile, 6, 6, 6, 6, cv2.BORDER_REPLICATE))
    for glyph in glyphs.extract_many(crops, CELL_PX) + [glyphs.extract(crops[0], CELL_PX)]:
        assert glyph.image is not None
        assert glyph.light_ink is light


def test_cells_with_light_letters_are_measured_on_their_darker_half():
    scene = render_scene(3025, style="vintage")
    grid, px = 15, 24
    warped = Geometry(np.array(scene.truth.corners, np.float32), grid, 1.0).warp(scene.image, px)
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB)
    light = occupancy.lab_features(lab, grid, px, light_ink=True)
    dark = occupancy.lab_features(lab, grid, px)
    for row in range(grid):
        for col in range(grid):
            centre = lab[row * px + 6 : row * px + 18, col * px + 6 : col * px + 18].reshape(-1, 3).astype(np.float64)
            lower = centre[:, 0] <= np.median(centre[:, 0])
            np.testing.assert_allclose(light[row, col, :3], centre[lower].mean(axis=0), rtol=1e-6)
    np.testing.assert_array_equal(light[..., 3], dark[..., 3])  # the ink is the same either way
    # On the tiles the two differ by the letter's ink: the darker half is the tile's own colour, an I's as an M's.
    tiles = np.array([list(r) for r in scene.truth.rows]) != "."
    assert (light[tiles, 0] < dark[tiles, 0]).all()
    assert np.ptp(light[tiles, 0]) < np.ptp(dark[tiles, 0])


def test_a_game_on_an_older_board_is_read_move_by_move_with_every_tile_in_place():
    """Vintage game 1000's first ten photos, read by one reader as a device reads them: the first photo's letters
    say they are lighter than the tiles, and from then on every tile (I and J among them) is found, no empty square
    taken for one, and no photo taken as covered. Before: 312 of 15300 cells wrong over the game, 39/71 moves."""
    game = synthetic_game(1000, style="vintage", moves=10)
    reader = BoardReader(load_profile("classic-scrabble"), RULES.tileset)
    for frame in game.frames:
        reading = reader.read(frame.image)
        truth = np.array([list(r) for r in frame.truth.visible_rows()])
        got = np.array([list(r) for r in reading_rows(reading)])
        assert not reading.hidden
        assert min(int(((np.rot90(truth, k) != ".") != (got != ".")).sum()) for k in range(4)) == 0
    assert reader.light_letters
    assert any("I" in "".join(r) or "J" in "".join(r) for r in game.frames[-1].truth.rows)

# SPDX-License-Identifier: GPL-3.0-or-later
"""Alfapet arrow tiles (a black bent arrow on a white tile, vision.glyphs.draw_arrow) are read as their own
class, ``^``, in every quarter turn; letters are not, and a Scrabble reader never reads an arrow. The tiles
are rendered by vision.synthetic on a 17x17 Alfapet board seen in perspective, with the camera's light and
noise; the grid is the scene's truth, so this tests the tile reading alone."""

import numpy as np
import pytest

from engine.rules import Rules
from engine.squares import Square
from vision import colour
from vision.locate import Geometry
from vision.profile import load_profile
from vision.reader import BoardReader
from vision.synthetic import render_scene

ARROWS = (Square(3, 3), Square(5, 10), Square(8, 8), Square(13, 12), Square(15, 1))
WORDS = {(8, 4): "KATT", (11, 2): "HUS", (13, 13): "LÅDA", (2, 9): "ÖRA"}


def _rows() -> list[str]:
    grid = [["."] * 17 for _ in range(17)]
    for (r, c), word in WORDS.items():
        grid[r][c : c + len(word)] = word
    for sq in ARROWS:
        grid[sq.row][sq.col] = "^"
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_arrow_tiles_are_read_in_every_quarter_turn(turns):
    rows = _rows()
    scene = render_scene(40 + turns, style="alfapet", rows=rows, letter_turns=turns, board_turns=0, hand=False,
                         shadow=False, stray=0, tilt=12.0, fill=0.8)
    rules = Rules.alfapet("sv")
    reader = BoardReader(load_profile("alfapet-17"), rules.tileset)
    geom = Geometry(np.float32(scene.truth.corners), 17, 1.0)
    squares = [Square(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    tiles = reader.read_tiles(scene.image, geom, squares, gains=colour.white_gains(scene.image))
    assert [sq for sq in ARROWS if tiles[sq].symbol != "^"] == [], {sq: tiles[sq].symbol for sq in ARROWS}
    letters = [sq for sq in squares if sq not in ARROWS]
    assert [sq for sq in letters if tiles[sq].symbol == "^"] == []
    # The letters themselves still read (upright ones without help; turned ones after a few tiles were seen).
    if turns == 0:
        assert sum(tiles[sq].symbol == rows[sq.row][sq.col] for sq in letters) >= len(letters) - 1


def test_a_scrabble_reader_has_no_arrow_class():
    rows = _rows()
    scene = render_scene(40, style="alfapet", rows=rows, letter_turns=0, board_turns=0, hand=False, shadow=False,
                         stray=0, tilt=12.0, fill=0.8)
    reader = BoardReader(load_profile("alfapet-17"), Rules.scrabble("sv").tileset)
    geom = Geometry(np.float32(scene.truth.corners), 17, 1.0)
    tiles = reader.read_tiles(scene.image, geom, list(ARROWS), gains=colour.white_gains(scene.image))
    assert all(t.symbol != "^" for t in tiles.values())

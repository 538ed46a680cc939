# SPDX-License-Identifier: GPL-3.0-or-later
"""A frame shows no more tiles without ink than the tile set has blanks; the most even ones are kept."""

import numpy as np

from engine.rules import Rules
from engine.squares import Square
from vision import glyphs
from vision.occupancy import CellState, Occupancy
from vision.profile import load_profile
from vision.reader import BoardReader, TileReading


def board(tiles: dict[Square, float | None]) -> tuple[Occupancy, dict[Square, TileReading]]:
    """An occupancy with these tiles: the ink contrast of a tile without a letter, None for a lettered one."""
    state = np.zeros((15, 15), np.int64)
    for sq in tiles:
        state[sq.row, sq.col] = CellState.TILE
    occ = Occupancy(state=state, anomaly=np.zeros((15, 15)), margin=np.full((15, 15), 0.5, np.float32))
    image = np.ones((glyphs.GLYPH_PX, glyphs.GLYPH_PX), np.float32)
    readings = {sq: TileReading(sq, glyphs.Glyph(None if contrast is not None else image,
                                                 0.8 if contrast is None else contrast, 0.5), None)
                for sq, contrast in tiles.items()}
    return occ, readings


def test_inkless_tiles_beyond_the_sets_blanks_are_empty_squares_the_most_even_kept():
    reader = BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset)
    assert reader.tileset.blanks == 2
    a, b, c, d, lettered, unreadable = (Square(7, 7), Square(7, 8), Square(14, 5), Square(14, 6), Square(7, 9),
                                        Square(3, 3))
    occ, tiles = board({a: 0.06, b: 0.22, c: 0.09, d: 0.27, lettered: None, unreadable: 0.6})
    occ2, kept = reader._at_most_the_sets_blanks(occ, tiles)
    assert set(kept) == {a, c, lettered, unreadable}  # a tile with ink but no letter cut stays
    assert occ2.state[b.row, b.col] == CellState.EMPTY and occ2.state[d.row, d.col] == CellState.EMPTY
    assert occ2.margin[b.row, b.col] == 0 and occ2.state[a.row, a.col] == CellState.TILE
    assert occ.state[b.row, b.col] == CellState.TILE  # the reading it came from is left as it was


def test_no_more_inkless_tiles_than_blanks_changes_nothing():
    reader = BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset)
    occ, tiles = board({Square(7, 7): 0.2, Square(7, 8): None, Square(0, 0): 0.1})
    assert reader._at_most_the_sets_blanks(occ, tiles) == (occ, tiles)

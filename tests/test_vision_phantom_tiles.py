# SPDX-License-Identifier: GPL-3.0-or-later
"""Tiles the reader saw that are not there, or missed that are: a photo that splits into no legal moves
leaves out the tiles read least surely as tiles (an Alfapet minus square read as an I), and a photo on
which the last move is gone along with a tile or two more shows the last move withdrawn, the others
misread (the game's turns stay in step)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.board import Board
from engine.moves import PlacedTile, Placement, Withdraw
from engine.rules import Rules
from engine.squares import Square
from vision.classifier import LetterGuess
from vision.diff import Proposal, ProposalKind
from vision.glyphs import Glyph
from vision.occupancy import CellState, Occupancy
from vision.profile import load_profile
from vision.reader import BoardReader, BoardReading, ReadingStatus, TileReading
from vision.replay import Turn, _split, read_photos
from vision.synthetic import BOARD_STYLES, synthetic_game

RULES = Rules.scrabble("en")
GCG = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "woogles"


def read(square: Square, letter: str) -> TileReading:
    return TileReading(square, Glyph(np.zeros((24, 24), np.float32), 0.9, 0.5), LetterGuess(((letter, 0.95),)))


def test_the_tile_read_least_surely_is_left_out_when_the_photo_splits_into_no_legal_moves():
    board = Board(15)
    for i, ch in enumerate("CAT"):
        board[Square(7, 7 + i)] = PlacedTile(Square(7, 7 + i), ch).cell
    moves = {Square(8, 7): "O", Square(9, 7): "W", Square(8, 9): "R", Square(9, 9): "E"}  # C-O-W and T-R-E
    phantom = Square(9, 8)  # between W and E: no two moves hold all five tiles
    new = tuple(read(sq, ch) for sq, ch in (*moves.items(), (phantom, "I")))
    state = np.full((15, 15), CellState.EMPTY, dtype=object)
    margin = np.ones((15, 15))
    for t in new:
        state[t.square.row, t.square.col] = CellState.TILE
    margin[list(moves)[0].row, list(moves)[0].col] = 0.95
    margin[phantom.row, phantom.col] = 0.78
    reading = BoardReading(ReadingStatus.OK, None, Occupancy(state, np.zeros((15, 15)), margin))
    turn = Turn(Path("image-2.png"), Proposal(ProposalKind.CONFLICT), "", 0.0, reading=reading)
    found = _split(Proposal(ProposalKind.CONFLICT, new_tiles=new), board, RULES, None, turn, [None], 2)
    assert found is not None
    parts, _ = found
    assert sorted(sorted(t.square for t in p.letter_tiles) for p in parts) == [
        [Square(8, 7), Square(9, 7)], [Square(8, 9), Square(9, 9)]]
    assert any(f"{phantom.name} left out" in note for note in turn.notes), turn.notes
    # Read as surely as the others, it is no weaker: the photo is not split into two moves without it.
    margin[phantom.row, phantom.col] = 1.0
    plain = Turn(Path("image-2.png"), Proposal(ProposalKind.CONFLICT), "", 0.0, reading=reading)
    again = _split(Proposal(ProposalKind.CONFLICT, new_tiles=new), board, RULES, None, plain, [None], 2)
    assert again is None or len(again[0]) > 2


@pytest.mark.skipif(not GCG.is_dir(), reason=f"needs the woogles records in {GCG}")
def test_alfapet_minus_squares_read_as_i_and_a_withdrawal_with_two_tiles_misread(tmp_path):
    """Alfapet development game 102: photo 20 shows RERUJB (the covered photo 19's move) and GNILAH with
    three minus squares read as I; photo 24 shows MIT withdrawn and two old tiles not seen."""
    game = synthetic_game(102, style="alfapet", moves=24)
    for i, frame in enumerate(game.frames, start=1):
        cv2.imwrite(str(tmp_path / f"image-{i}.png"), frame.image)
    rules = Rules.scrabble("en", layout=BOARD_STYLES["alfapet"].layout)
    result = read_photos(tmp_path, BoardReader(load_profile("alfapet-17"), rules.tileset), rules)
    covered, twenty, last = result.turns[18], result.turns[19], result.turns[23]
    assert [len(e.move.letter_tiles) for e in covered.events if isinstance(e.move, Placement)] == [6]
    assert [len(e.move.letter_tiles) for e in twenty.events if isinstance(e.move, Placement)] == [6]
    assert [type(e.move) for e in last.events] == [Withdraw]

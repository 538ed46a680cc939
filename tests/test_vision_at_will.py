# SPDX-License-Identifier: GPL-3.0-or-later
"""Photos taken at will (a phone's IMG_<date>_<time>: several photos of one board, none of some moves),
replayed from the jheidel room photos alone (skipped without ../shared/data) and checked against the final
board read by eye (tests/data/jheidel/truth.toml): a tile once laid stays, so every tile of the replayed
game must have the final board's letter."""

import os
import tomllib
from pathlib import Path

import numpy as np
import pytest

from conftest import installed_judge
from engine.board import Board, Cell
from engine.moves import Exchange, PlacedTile, Placement
from engine.rules import Rules
from engine.squares import Square
from vision.diff import chain_moves, split_moves
from vision.profile import load_profile
from vision.reader import BoardReader
from vision.replay import numbered_by_turn, photos, read_photos

TRUTH = Path(__file__).parent / "data" / "jheidel" / "truth.toml"
GAME = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "jheidel" / "game2015"
RULES = Rules.scrabble("en")


def replay(tmp_path: Path, stamps: list[str]):
    if not GAME.is_dir():
        pytest.skip(f"needs the jheidel photos in {GAME}")
    judge = installed_judge("en")
    for stamp in stamps:
        os.symlink(GAME / f"IMG_20151016_{stamp}.jpg", tmp_path / f"IMG_20151016_{stamp}.jpg")
    reader = BoardReader(load_profile("classic-scrabble"), RULES.tileset)
    return read_photos(tmp_path, reader, RULES, words=lambda w: judge.judge_word(w).verdict.name != "INVALID")


def board_rows(game) -> np.ndarray:
    cells = [[game.board[Square(r, c)] for c in range(15)] for r in range(15)]
    return np.array([["." if x is None else "?" if x.blank else x.letter for x in row] for row in cells])


def final_truth(got: np.ndarray) -> np.ndarray:
    """The final board read by eye, turned to the corner the replay took for A1."""
    rows = np.array([list(r) for r in tomllib.loads(TRUTH.read_text(encoding="utf-8"))["final"]["rows"]])
    return max((np.rot90(rows, k) for k in range(4)), key=lambda t: int(((t == got) & (got != ".")).sum()))


def test_phone_photo_names_are_no_turn_count_and_numbered_photos_are():
    if not GAME.is_dir():
        pytest.skip(f"needs the jheidel photos in {GAME}")
    assert not numbered_by_turn(photos(GAME))
    scrabscrap = GAME.parents[1] / "scrabscrap" / "game01"
    if scrabscrap.is_dir():
        assert numbered_by_turn(photos(scrabscrap))


def test_photos_of_the_same_board_are_no_passes_and_a_photo_after_missed_moves_is_split(tmp_path):
    """Before: every repeated photo was a pass and the timestamps' gaps "missing photos" (exchanges), so six
    scoreless turns ended the game on the 11th photo and every later photo was "the game is over"."""
    # Empty board x2, BENDS, WIRER, TEAMED(+HURT), HURT, then 19 tiles of six moves nobody photographed.
    result = replay(tmp_path, ["165303", "165308", "165401", "165408", "165517", "165601", "165604", "165612",
                               "165900"])
    game = result.game
    assert not result.per_turn
    assert not game.finished
    assert not any(isinstance(e.move, Exchange) for e in game.events)
    assert [t.text for t in result.turns[:2]] == ["unchanged", "unchanged"]
    # TEAMED and HURT on one photo: two moves whose words are all valid, not TEAMED and two strays.
    both = next(t for t in result.turns if t.photo.name.endswith("165601.jpg"))
    assert len(both.events) == 2, both.text
    last = result.turns[-1]
    assert len([e for e in last.events if isinstance(e.move, Placement)]) >= 5, last.text
    got = board_rows(game)
    truth = final_truth(got)
    laid = got != "."
    assert laid.sum() >= 35
    # Every tile of the replayed game lies where the final board has it, with its letter.
    assert (got[laid] == truth[laid]).all(), "\n".join("".join(r) for r in got)


def test_a_photo_after_many_missed_moves_is_read_as_a_chain_of_legal_moves(tmp_path):
    """Four minutes without a photo: 31 new tiles, fourteen or so moves, too many to list every split; one
    legal order of them is taken (the board is the photo's, the order a guess) and the game goes on."""
    result = replay(tmp_path, ["165303", "165401", "165517", "165604", "165900", "165946", "170028", "170119",
                               "170219", "170248", "170317", "170324", "170714"])
    last = result.turns[-1]
    assert any("legal moves in this order" in note for note in last.notes), last.notes
    got = board_rows(result.game)
    truth = final_truth(got)
    laid = got != "."
    assert laid.sum() >= 95
    assert (got[laid] == truth[laid]).all(), "\n".join("".join(r) for r in got)


def test_splitting_a_photo_of_many_moves_finds_them_all_quickly():
    """split_moves skips a rest of tiles that led nowhere before (the board after some moves is the board
    plus their tiles, whatever their order); the splits it lists are the same."""
    board = Board(15)
    for col, letter in enumerate("CAT", start=6):
        board[Square(7, col)] = Cell(letter)
    # CATS (S at J8), then SO down from J8, then ON across from J9, then NO down from K9: four moves.
    tiles = [PlacedTile(Square(7, 9), "S"), PlacedTile(Square(8, 9), "O"), PlacedTile(Square(8, 10), "N"),
             PlacedTile(Square(9, 10), "O")]
    splits = split_moves(tiles, board, RULES, 4)
    assert splits and all(len(split) == 4 for split in splits)
    chain = chain_moves(tiles, board, RULES, None, 4)
    assert chain is not None and sorted(t.square for p in chain for t in p.tiles) == sorted(t.square for t in tiles)

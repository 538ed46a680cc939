# SPDX-License-Identifier: GPL-3.0-or-later
"""Letters on the jheidel room photos (phone photos of a board on carpet; skipped without ../shared/data),
checked against the final board read by eye (tests/data/jheidel/truth.toml): a tile once laid stays, so
every tile on every photo has its final letter."""

import tomllib
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from engine.rules import Rules
from vision.profile import load_profile
from vision.reader import BoardReader, load_frame

TRUTH = Path(__file__).parent / "data" / "jheidel" / "truth.toml"
JHEIDEL = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "jheidel"
pytestmark = pytest.mark.skipif(not JHEIDEL.is_dir(), reason=f"needs the jheidel photos in {JHEIDEL}")


@cache
def final_rows() -> np.ndarray:
    return np.array([list(row) for row in tomllib.loads(TRUTH.read_text(encoding="utf-8"))["final"]["rows"]])


def read_against_truth(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The photo read from scratch, and the final board turned to the corner the reading took for A1."""
    reader = BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset)
    rows = reader.read(load_frame(JHEIDEL / "game2015" / name)).to_text().splitlines()
    got = np.array([list(row) for row in rows])
    assert got.shape == (15, 15), name
    truth = max((np.rot90(final_rows(), k) for k in range(4)), key=lambda t: int(((t == got) & (got != ".")).sum()))
    return got, truth


def test_the_final_board_is_read_letter_for_letter():
    got, truth = read_against_truth("IMG_20151016_170803.jpg")
    assert ((truth != ".") == ~np.isin(got, [".", "~"])).all()
    # X, Q and M among them: blur runs their value digits into them (X read K, Q read F, M read W before).
    wrong = [(int(r), int(c), str(truth[r, c]), str(got[r, c])) for r, c in zip(*np.nonzero(truth != "."), strict=True)
             if truth[r, c] != got[r, c]]
    assert wrong == []


def test_a_tile_edge_taken_for_dots_does_not_make_a_turned_letter_win():
    # A small, blurred board: the edge above some E tiles is taken for dots, and a dotted E is read less like E
    # than a turned E (without dots) is like W; the E must stay.
    got, truth = read_against_truth("IMG_20151016_170755.jpg")
    es = (truth == "E") & (got != ".")
    assert es.sum() >= 6 and (got[es] == "E").all()


def test_pale_squares_near_the_camera_are_not_read_as_blanks():
    # Two photos taken low over the board: the pale squares nearest the camera take the tiles' colour, and
    # 34 of them were read as blank tiles. A frame shows at most the set's two blanks.
    phantoms = 0
    for name in ("IMG_20151016_170327.jpg", "IMG_20151016_170725.jpg"):
        got, truth = read_against_truth(name)
        phantoms += int((~np.isin(got, [".", "~"]) & (truth == ".")).sum())
    assert phantoms <= 6


def test_letters_on_tile_tops_seen_from_low_are_read_where_they_lie():
    # Taken low over the board: the tiles' tops, and their letters, lie up to a quarter of a cell off their
    # squares in the board's picture (two T's had their bars cut off and were read as blanks).
    got, truth = read_against_truth("IMG_20151016_170750.jpg")
    read = ~np.isin(got, [".", "~"])
    assert read.sum() >= 95 and (got[read] == truth[read]).all() and (read == (truth != ".")).all()


def test_the_older_board_with_wooden_tiles_is_read_letter_for_letter_in_every_sharp_photo():
    """board2014: an older board (white lines on tan squares, a black frame line) on a glossy tablecloth, brown wooden
    tiles, none of it like the boards the built-in profiles were measured on; read with the classic
    profile. Every photo whose letters can be read by eye (all but one blurred by the camera's motion) gives
    every tile and blank in its place, and at most two of its 9 or 21 letters unread ('?'), none read wrong."""
    truth = tomllib.loads(TRUTH.read_text(encoding="utf-8"))
    reader_for = lambda: BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset)  # noqa: E731
    for photo in (p for p in truth["photos"] if "rows" in p):
        rows = reader_for().read(load_frame(JHEIDEL / photo["file"])).to_text().splitlines()
        got = np.array([list(row) for row in rows])
        want = max((np.rot90(np.array([list(r) for r in photo["rows"]]), k) for k in range(4)),
                   key=lambda t: int(((t == got) & (got != ".")).sum()))
        assert ((want != ".") == (got != ".")).all(), photo["file"]
        unread = (got == "?") & (want != "?")
        assert not ((got != want) & ~unread).any(), photo["file"]
        assert unread.sum() <= 2, photo["file"]

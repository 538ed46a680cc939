# SPDX-License-Identifier: GPL-3.0-or-later
"""The per-move path: a frame that differs from the last clear reading in a few cells is read from those
cells alone (no relocation, no new white balance, the other cells' colours kept), and reads what a
reading from scratch reads; anything bigger falls back to the whole board. The still-frame gate looks
only at its small picture of the board. On the shared ScrabScrap photos (skipped without them)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.rules import Rules
from engine.squares import Square
from vision import colour
from vision.profile import load_profile
from vision.reader import BoardReader, ReadingStatus, load_frame
from vision.stability import GateVerdict, StillFrameGate

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "scrabscrap"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"needs the shared photos in {DATA}")
PROFILE = load_profile("scrabscrap")


def _photos(game: str) -> list[Path]:
    return sorted(DATA.joinpath(game).glob("image-*.jpg"), key=lambda p: int(p.stem.split("-")[1]))


def _letters(reading) -> dict[Square, str]:
    return {sq: t.symbol for sq, t in reading.tiles.items()}


def test_a_move_is_read_from_its_changed_cells_and_reads_as_a_reading_from_scratch(monkeypatch):
    rules = Rules.scrabble("de")
    moving = BoardReader(PROFILE, rules.tileset)
    fresh = BoardReader(PROFILE, rules.tileset, classifier=moving.classifier)
    balanced = []
    real_gains = colour.white_gains
    monkeypatch.setattr(colour, "white_gains", lambda frame: balanced.append(1) or real_gains(frame))
    photos = _photos("game02")
    for photo in photos:
        frame = load_frame(photo)
        before = len(balanced)
        step = moving.read(frame)
        took_changes = len(balanced) == before
        fresh.locator.geometry = None  # from scratch: locate, white balance and classify every cell
        whole = fresh.read(frame)
        assert step.occupied() == whole.occupied(), photo.name
        assert _letters(step) == _letters(whole), photo.name
        if photo is not photos[0]:
            assert took_changes, f"{photo.name} was read from scratch, not from its changed cells"
    assert moving.locator.relocations == 1


def test_a_moved_board_is_read_from_scratch_and_right():
    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    reader.read(load_frame(DATA / "game01" / "image-10.jpg"))
    frame = load_frame(DATA / "game01" / "image-11.jpg")
    # The board slid by a third of a cell (about 20 px) to the right and down.
    shift = np.float32([[1, 0, 21], [0, 1, 17]])
    moved = cv2.warpAffine(frame, shift, frame.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
    reading = reader.read(moved)
    assert reader.locator.relocations == 2
    expected = BoardReader(PROFILE, rules.tileset, classifier=reader.classifier).read(frame)
    assert reading.occupied() == expected.occupied()
    assert _letters(reading) == _letters(expected)


def test_a_hand_over_the_board_is_covered_on_the_per_move_path_too():
    from vision import variants

    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    reader.read(load_frame(DATA / "game04" / "image-14.jpg"))
    hand = variants.hand(load_frame(DATA / "game04" / "image-15.jpg"), seed=3)
    assert reader.read(hand, cells=[]).status & ReadingStatus.COVERED
    # The covered frame did not become the reference: the clear photo after it is read as usual.
    clear = reader.read(load_frame(DATA / "game04" / "image-15.jpg"))
    expected = BoardReader(PROFILE, rules.tileset, classifier=reader.classifier).read(
        load_frame(DATA / "game04" / "image-15.jpg"))
    assert clear.occupied() == expected.occupied()


def test_the_gate_locates_once_and_ignores_an_exposure_step():
    gate = StillFrameGate(PROFILE, frames=2)
    board = load_frame(DATA / "game03" / "image-12.jpg")
    assert [gate.check(board).verdict for _ in range(2)] == [GateVerdict.SETTLING, GateVerdict.STILL]
    # The camera's automatic exposure brightens the next frame by 15 %: nothing on the board moved.
    brighter = cv2.convertScaleAbs(board, alpha=1.15)
    assert gate.check(brighter).verdict is GateVerdict.STILL
    # A new tile does change its cell.
    after = load_frame(DATA / "game03" / "image-13.jpg")
    assert gate.check(after).verdict is GateVerdict.MOVING
    assert gate.locator.relocations == 1

# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole read from scratch takes shortcuts that must not change what it reads: the tiles read to tell the
orientation are not cut out again, and a photo turned a quarter reads the same board. The turned grid's cells
are the measured cells np.rot90'd, a pixel off (the direction the reader turns its tile mask by); the reader
measures them again all the same. On the shared ScrabScrap photos (skipped without them)."""

from pathlib import Path

import numpy as np
import pytest

from engine.rules import Rules
from vision import colour, occupancy
from vision.profile import load_profile
from vision.reader import BoardReader, load_frame, turned

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "scrabscrap"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"needs the shared photos in {DATA}")
PROFILE = load_profile("scrabscrap")
LATE_PHOTO = DATA / "game01" / "image-24.jpg"  # a crowded board: many tiles, every premium class


def _reader() -> BoardReader:
    return BoardReader(PROFILE, Rules.scrabble("de").tileset)


@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_the_turned_grids_cells_are_the_measured_cells_turned_by_rot90(quarter_turns):
    frame = load_frame(LATE_PHOTO)
    reader = _reader()
    geom = reader.read(frame).geometry
    assert geom is not None
    gains = colour.white_gains(frame)
    measured = reader._occupancy_colours(frame, geom, gains)
    direct = reader._occupancy_colours(frame, turned(geom, quarter_turns), gains)
    rotated = np.rot90(measured, quarter_turns)
    colour_gap = np.abs(direct[..., :3] - rotated[..., :3]).max(axis=2)
    # The two sample the cells a pixel apart (of 24 a cell): most cells within a few Lab levels.
    assert float(np.median(colour_gap)) < 2.0
    assert float(np.percentile(colour_gap, 95)) < 8.0
    if quarter_turns != 2:  # the other direction is another board altogether
        assert float(np.median(np.abs(direct[..., :3] - np.rot90(measured, -quarter_turns)[..., :3]).max(axis=2))) > 8
    states = [occupancy.classify(np.ascontiguousarray(c), reader._codes, PROFILE).state for c in (direct, rotated)]
    assert (states[0] == states[1]).all()


@pytest.mark.parametrize("quarter_turns", [1, 3])
def test_a_photo_turned_a_quarter_reads_the_same_board_from_scratch(quarter_turns):
    frame = load_frame(LATE_PHOTO)
    upright = _reader().read(frame)
    reader = _reader()
    turned_reading = reader.read(np.ascontiguousarray(np.rot90(frame, quarter_turns)))
    # The letters told the turn (the grid was measured unturned first, then again turned).
    assert reader.turns in (1, 3)
    assert turned_reading.to_text() == upright.to_text()
    assert len(upright.tiles) >= 40


@pytest.mark.parametrize("photo", [LATE_PHOTO, DATA / "game03" / "image-1.jpg"])
@pytest.mark.parametrize("scale", [1.0, 1.63, 2.17])
def test_the_white_balance_on_the_frames_shrunk_copy_is_the_frames_own(photo, scale):
    """A whole read measures the white balance on the smallest of the frame's halved copies at least
    colour.SAMPLE_WIDTH wide (shared with locating) instead of shrinking the full frame once more: the colour cast
    it takes out (the gains relative to each other) agrees within 0.5 %, the level within 2 %, on photos of odd
    sizes too (992 x 976 scaled to 1617 x 1591 and 2153 x 2118)."""
    import cv2

    from vision.find import Pyramid

    frame = load_frame(photo)
    if scale != 1.0:
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    copy = Pyramid(frame).at_least(colour.SAMPLE_WIDTH)
    assert colour.SAMPLE_WIDTH <= copy.shape[1] < 2 * colour.SAMPLE_WIDTH
    shrunk, own = colour.white_gains(copy), colour.white_gains(frame)
    np.testing.assert_allclose(shrunk / shrunk[1], own / own[1], rtol=0.005)
    np.testing.assert_allclose(shrunk, own, rtol=0.02)

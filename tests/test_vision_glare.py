"""A lamp's reflection on a glossy board (vision.variants.glare) is no hand over it (skipped without ../shared/data)."""

from pathlib import Path

import numpy as np
import pytest

from engine.rules import Rules
from vision import occupancy, variants
from vision.profile import load_profile
from vision.reader import BoardReader, ReadingStatus, load_frame

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "photos" / "scrabscrap"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"needs the shared photos in {DATA}")


def _read(frame: np.ndarray):
    return BoardReader(load_profile("scrabscrap"), Rules.scrabble("de").tileset).read(frame)


@pytest.mark.parametrize("photo", [5, 12, 20])
def test_a_reflection_leaves_the_board_readable_with_the_same_tiles(photo: int) -> None:
    frame = load_frame(DATA / "game01" / f"image-{photo}.jpg")
    plain, glared = _read(frame), _read(variants.glare(frame))
    assert not plain.status & ReadingStatus.COVERED
    # Before the veil was divided out, every photo of the four games with this reflection was "covered".
    assert not glared.status & ReadingStatus.COVERED, glared.hidden
    washed = glared.occupancy.washed
    assert washed is not None and washed.any()  # the reflection's clipped core is told apart, not guessed
    assert glared.occupied() == plain.occupied()


def test_the_veil_of_a_reflection_is_found_where_it_falls() -> None:
    frame = load_frame(DATA / "game01" / "image-12.jpg")
    reading = _read(variants.glare(frame, centre=(0.6, 0.35)))
    assert reading.occupancy.washed is not None
    rows, cols = np.nonzero(reading.occupancy.washed)
    n = reading.occupancy.state.shape[0]
    # The reflection is centred 60 % across and 35 % down the photo, which shows the board nearly filling it.
    assert abs(cols.mean() / n - 0.6) < 0.15 and abs(rows.mean() / n - 0.35) < 0.15


def test_a_white_sleeve_ending_at_its_edge_is_no_reflection() -> None:
    veil = np.zeros((15, 15), np.float32)
    veil[5:8, 5:8] = 0.9  # washed out, but the cells around it show none of it
    assert not occupancy._washed_out(veil).any()
    veil[4:9, 4:9] = np.maximum(veil[4:9, 4:9], 0.3)  # a reflection fades out over the next cells
    assert occupancy._washed_out(veil).sum() == 9

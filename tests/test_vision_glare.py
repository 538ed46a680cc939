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


def test_letters_under_a_strong_reflection_are_read_as_without_it() -> None:
    """Around a strong reflection's core the letters are as faint as the squares (most cut as blanks before the veil
    was divided out of their crops); each reads as in the photo without the reflection."""
    frame = load_frame(DATA / "game02" / "image-20.jpg")
    plain = _read(frame)
    glared = _read(variants.glare(frame, centre=(0.4, 0.55), size=0.18, strength=0.85))
    occ = glared.occupancy
    assert occ.veil is not None
    core = occ.washed if occ.washed is not None else np.zeros_like(occ.veil, bool)
    veiled = [sq for sq in plain.tiles if occ.veil[sq.row, sq.col] >= occupancy.VEIL_TOLERANCE
              and not core[sq.row, sq.col]]
    assert len(veiled) >= 10
    assert {sq: glared.tiles[sq].symbol for sq in veiled if sq in glared.tiles} \
        == {sq: plain.tiles[sq].symbol for sq in veiled}


def test_a_game_under_a_reflection_is_replayed_from_its_photos_alone(tmp_path: Path) -> None:
    """game01 with the mild reflection on every photo, read without its record (compared with it afterwards):
    every turn right. Before the veil pass every photo was covered and no turn was read."""
    variants.write_variants(DATA / "game01", tmp_path, ["glare"])
    photos, errors, unread, matched, compared = variants.evaluate(tmp_path / "glare", Rules.scrabble("de"))
    assert compared == 27 and matched == 27, (matched, compared, unread)


def test_only_patches_of_tiles_without_letters_are_taken_for_washed_out_squares() -> None:
    tiles = np.zeros((15, 15), np.int8)
    tiles[4, 4:7] = occupancy.CellState.TILE  # three side by side, no letter: a washed-out patch
    tiles[9, 9] = tiles[10, 10] = tiles[11, 11] = occupancy.CellState.TILE  # faint letters here and there
    occ = occupancy.Occupancy(state=tiles, anomaly=np.zeros((15, 15)), margin=np.ones((15, 15)))
    patch = occupancy._letterless_patches(occ, np.zeros((15, 15), bool))
    assert np.argwhere(patch).tolist() == [[4, 4], [4, 5], [4, 6]]
    seeds = np.zeros((15, 15), bool)
    seeds[4, 5] = True  # a letter in the middle parts the patch
    assert not occupancy._letterless_patches(occ, seeds).any()

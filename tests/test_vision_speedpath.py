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
from vision.locate import Locator
from vision.profile import load_profile
from vision.reader import BoardReader, ReadingStatus, load_frame
from vision.stability import GateVerdict, StillFrameGate
from vision.synthetic import background, render_scene

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

    def counted_gains(frame):
        balanced.append(1)
        return real_gains(frame)

    monkeypatch.setattr(colour, "white_gains", counted_gains)
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
    shift = np.array([[1, 0, 21], [0, 1, 17]], np.float32)
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


def test_change_detection_finds_every_new_tile_and_few_other_cells():
    from vision import stability

    rules = Rules.scrabble("de")
    moving = BoardReader(PROFILE, rules.tileset)
    fresh = BoardReader(PROFILE, rules.tileset, classifier=moving.classifier)
    previous = None
    for photo in _photos("game02"):
        frame = load_frame(photo)
        moving.read(frame, cells=[])
        fresh.locator.geometry = None
        tiles = fresh.read(frame, cells=[]).occupied()  # from scratch: the truth the change is checked against
        assert moving._last_clear is not None
        picture = stability.block_samples(frame, moving._last_clear.geom)
        if previous is not None:
            before, tiles_before = previous
            cells = stability.changed_cells(before, picture * stability.colour_ratio(before, picture), 25.0)
            changed = {Square(int(r), int(c)) for r, c in zip(*np.nonzero(cells), strict=True)}
            new = tiles - tiles_before
            assert new <= changed, (photo.name, new - changed)
            assert len(changed - new) <= 3, (photo.name, changed - new)  # camera noise: re-measured, no harm
        previous = picture, tiles


def test_a_moves_cells_are_measured_as_the_whole_board_measures_them():
    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    frame = load_frame(DATA / "game03" / "image-12.jpg")
    reader.read(frame, cells=[])
    last = reader._last_clear
    assert last is not None
    whole = reader._occupancy_colours(frame, last.geom, last.gains)
    line = np.array([[7, col] for col in range(2, 9)])  # one warp of the line, cut into cells
    scattered = np.array([[0, 0], [3, 11], [14, 14], [9, 4]])  # one warp per cell
    for cells in (line, scattered):
        got = reader._colours_of(frame, last.geom, cells, last.gains)
        expected = whole[cells[:, 0], cells[:, 1]]
        assert np.abs(got[:, :3] - expected[:, :3]).max() < 0.1  # Lab levels
        assert np.abs(got[:, 3] - expected[:, 3]).max() < 0.01  # ink


def test_the_nearest_references_are_the_cell_by_cell_medians():
    from vision.occupancy import CellState

    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    for photo in _photos("game03")[:14]:
        reader.read(load_frame(photo), cells=[])
    last = reader._last_clear
    assert last is not None
    options = [CellState.EMPTY, CellState.TILE, CellState.STOP]  # no stop tile on a Scrabble board: None
    rng = np.random.default_rng(5)
    for size in (1, 4, 9):
        cells = np.argwhere(np.ones((15, 15), bool))[rng.choice(225, size, replace=False)]
        together = BoardReader._nearest_references(last, options, cells)
        for option, references in zip(options, together, strict=True):
            one_by_one = BoardReader._references(last, option, cells)
            if one_by_one is None:
                assert references is None and option == CellState.STOP
            else:
                assert references is not None and np.array_equal(references, one_by_one)


def test_a_line_of_tiles_read_from_one_warp_reads_as_each_tile_alone():
    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    frame = load_frame(DATA / "game01" / "image-20.jpg")
    reading = reader.read(frame, cells=[])
    assert reading.geometry is not None and reading.gains is not None
    tiles = sorted(reading.occupied())
    row = max({sq.row for sq in tiles}, key=lambda r: sum(sq.row == r for sq in tiles))
    # Up to 8 tiles of the row with most tiles (a whole board's worth would share the grid's warp instead).
    line = [sq for sq in tiles if sq.row == row][:8]
    assert len(line) >= 3
    together = reader.read_tiles(frame, reading.geometry, line, gains=reading.gains)
    for sq in line:
        alone = reader.read_tiles(frame, reading.geometry, [sq], gains=reading.gains)[sq]
        assert together[sq].symbol == alone.symbol, sq
        if alone.glyph.image is not None:
            assert together[sq].glyph.image is not None
            assert np.abs(together[sq].glyph.image - alone.glyph.image).max() < 0.05, sq  # the warp's rounding only


@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_the_turned_grid_is_measured_on_the_first_warp_turned_as_on_its_own(quarter_turns):
    """Told to turn after its first measurement, the reader turns that warp instead of warping again: the same
    cells as the turned grid's own warp, but for where the warp rounds its sample positions."""
    from vision.reader import turned

    rules = Rules.scrabble("de")
    reader = BoardReader(PROFILE, rules.tileset)
    frame = load_frame(DATA / "game01" / "image-24.jpg")
    geom = reader.locator(frame)
    gains = colour.white_gains(frame)
    upright, upright_colours = reader._occupancy(frame, geom, gains)
    assert np.array_equal(upright_colours, reader._occupancy_colours(frame, geom, gains))
    occ, colours = reader._occupancy(frame, turned(geom, quarter_turns), gains)
    direct = reader._occupancy_colours(frame, turned(geom, quarter_turns), gains)
    assert np.abs(colours[..., :3] - direct[..., :3]).max() < 1.0  # Lab levels
    assert np.abs(colours[..., 3] - direct[..., 3]).max() < 0.02  # ink
    assert float(np.median(np.abs(colours - direct))) < 0.01
    assert (occ.state == reader._occupancy(frame, turned(geom, quarter_turns), gains)[0].state).all()
    # A turned grid's picture is not the upright one: the tiles moved with the turn.
    assert not (occ.state == upright.state).all()


def test_the_gate_does_not_search_an_unchanged_view_again_for_a_board_it_did_not_find():
    """A camera over an empty table: the first frame is searched and refused; the same view again (with sensor
    noise and an exposure step) is refused without a search; a board put down is searched for and found."""
    profile = load_profile("classic-scrabble")
    searches = []

    class CountingLocator(Locator):
        def __call__(self, frame, gains=None):
            searches.append(1)
            return super().__call__(frame, gains)

    locator = CountingLocator(profile)
    gate = StillFrameGate(profile, locator=locator, frames=2)
    table = background("wood", (1200, 1600), np.random.default_rng(111))
    assert gate.check(table).verdict is GateVerdict.NO_BOARD
    assert len(searches) == 1
    rng = np.random.default_rng(0)
    for _ in range(3):
        noisy = np.clip(table.astype(np.int16) * 1.05 + rng.integers(-4, 5, table.shape), 0, 255).astype(np.uint8)
        assert gate.check(noisy).verdict is GateVerdict.NO_BOARD
    assert len(searches) == 1, "the unchanged view was searched again"
    board = render_scene(21, style="classic", hand=False, shadow=False).image
    assert gate.check(board).verdict is not GateVerdict.NO_BOARD
    assert len(searches) == 2
    assert gate.check(board).verdict is GateVerdict.STILL

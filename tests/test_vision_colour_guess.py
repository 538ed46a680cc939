# SPDX-License-Identifier: GPL-3.0-or-later
"""Board location late in a game: the board found by its colour (the fast path for a board that fills the photo) is
kept only where it lies on the grid (not whole cells off its premium squares, not refined off a grid it had found)."""

import numpy as np
import pytest

from vision import colour, find
from vision.locate import locate
from vision.profile import load_profile
from vision.synthetic import BOARD_STYLES, GCG_DIR, STYLE_PROFILES, _record_boards, corner_error, render_scene


def late_scene(seed: int, style: str, *, late: bool):
    """A scene of a board part way through a real game, as the locating study drew them: the record and the
    move from ``seed`` (``late``: from the second half of the game)."""
    records = sorted(GCG_DIR.glob("*.gcg"))
    if not records:
        pytest.skip(f"needs the GCG records in {GCG_DIR}")
    rng = np.random.default_rng(seed)
    grid = BOARD_STYLES[style].grid
    _, boards, _ = _record_boards(records[int(rng.integers(0, len(records)))], (grid - 15) // 2, grid)
    rows = boards[int(rng.integers(len(boards) // 2 if late else 0, len(boards)))]
    return render_scene(seed * 1000 + 77, style=style, rows=rows, racks=2, hand=False if late else None)


def located_as_the_reader_does(scene, style: str):
    gains = colour.white_gains(find.Pyramid(scene.image).at_least(colour.SAMPLE_WIDTH))  # the reader's balance
    return locate(scene.image, load_profile(STYLE_PROFILES[style]), gains)


def test_a_colour_guess_a_cell_off_its_premium_squares_gives_way_to_the_structure():
    """Synthetic Alfapet scene 62077, late in a game: the board's blue reached over the grey score strip beside the
    grid, and the colour guess, refined, lay one cell off with lines as clear as 0.69, clear enough to be taken
    without looking for the structure; every tile was read on its neighbour's square."""
    scene = late_scene(62, "alfapet", late=True)
    geometry = located_as_the_reader_does(scene, "alfapet")
    assert corner_error(geometry.corners, scene.truth.corners, 17) < 0.25


def test_a_colour_guess_is_not_refined_off_the_grid_it_found():
    """Synthetic tournament scene 148077: the board's area, inset, lay 0.11 cell off (lines 0.87); pinned on its lines
    it went 0.78 cell off (0.65), still clear enough to be taken."""
    scene = late_scene(148, "tournament", late=False)
    geometry = located_as_the_reader_does(scene, "tournament")
    assert corner_error(geometry.corners, scene.truth.corners, 15) < 0.25


# SPDX-License-Identifier: GPL-3.0-or-later
"""A lattice found whole cells off (a board's printed name or score boxes taken for rows of cells while its
true edge rows hide their lines under tiles) is moved back onto the board's premium squares."""

import pytest

from vision import find
from vision.synthetic import corner_error, render_scene, synthetic_game


@pytest.mark.parametrize(("style", "seed"), [("classic", 31), ("tournament", 32), ("alfapet", 33)])
@pytest.mark.parametrize("shift", [(2, 0), (0, -3), (-1, 1)])
def test_a_lattice_moved_off_by_whole_cells_is_told_the_way_back(style, seed, shift):
    scene = render_scene(seed, style=style, hand=False, shadow=False)
    n = scene.truth.grid
    truth = find.clockwise(scene.truth.corners)
    off = find.clockwise(find.shifted_grid(truth, n, *shift))
    assert corner_error(off, scene.truth.corners, n) > 0.9
    back = find.premium_shift(scene.image, off, n)
    assert back is not None
    assert corner_error(find.shifted_grid(off, n, *back), scene.truth.corners, n) < 0.1


@pytest.mark.parametrize("seed", [40, 41, 42, 43, 44, 45])
def test_a_lattice_on_its_squares_stays(seed):
    scene = render_scene(seed)
    assert find.premium_shift(scene.image, find.clockwise(scene.truth.corners), scene.truth.grid) is None


def test_a_grid_found_on_the_rim_print_is_moved_onto_the_board():
    """Synthetic classic game 7003, photo 17: its top rows are full of tiles; the lattice took the rim's
    score boxes and the printed name for three rows of cells (3.3 cells off)."""
    scene = synthetic_game(7003, style="classic", moves=17).frames[16]
    found = find.find_grid(scene.image)
    assert found.grid == 15
    assert corner_error(found.corners, scene.truth.corners, 15) < 0.25


def test_a_grid_found_four_cells_off_where_the_layout_repeats_is_moved_onto_the_board():
    """Synthetic classic game 1005, photo 14 (held out until it failed): its left columns full of tiles, the
    lattice took the rim's score boxes and the table beyond for four columns of cells; the layout's four-cell
    repeats put premium squares under half its mask there too (15 against 26 in the right place)."""
    scene = synthetic_game(1005, style="classic", moves=14).frames[13]
    found = find.find_grid(scene.image)
    assert found.grid == 15
    assert corner_error(found.corners, scene.truth.corners, 15) < 0.25


@pytest.mark.parametrize("shift", [(0, 4), (-4, 0)])
def test_a_lattice_four_cells_off_is_told_the_way_back(shift):
    scene = render_scene(34, style="classic", hand=False, shadow=False)
    truth = find.clockwise(scene.truth.corners)
    off = find.clockwise(find.shifted_grid(truth, 15, *shift))
    back = find.premium_shift(scene.image, off, 15)
    assert back is not None
    assert corner_error(find.shifted_grid(off, 15, *back), scene.truth.corners, 15) < 0.1

# SPDX-License-Identifier: GPL-3.0-or-later
"""The occupancy classification against what it gave before it was made fast (1f41f4b: a median and a least
squares per class and round, np.percentile): the cell features of 12 frames (synthetic scenes of the three
board styles with hands and shadows, a jheidel photo and scrabscrap photos: shadow second passes, stop tiles,
an empty board) and the states, anomalies and margins that version classified them to, in
tests/data/occupancy/classified.npz. The fast path only computes the same thing another way; so does the
white balance's shrink of the frame. Case 9 is as classified since its seeds leave out squares whose print
shows as much ink as a letter (vision.occupancy._print_left_out): one minus square of the colour of the other
minus squares, a tile before, is empty now. Cases 9-11 (Alfapet boards under a shadow) are as classified since
a shadow's light is measured on a cell's own square, or on a tile where a letter shows, when that fits about as
well as the best option (vision.occupancy._likeliest_options): 101 plain squares in the shadow, stop tiles before
(the Swedish set has 3), and 36 plain, premium and minus squares, tiles before, are empty now (most without ink)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import colour, occupancy
from vision.profile import load_profile

CASES = np.load(Path(__file__).parent / "data" / "occupancy" / "classified.npz")
COUNT = len({key.split("_")[0] for key in CASES.files})


@pytest.mark.parametrize("case", range(COUNT))
def test_the_cells_are_classified_as_before(case):
    """States and margins as before; anomalies too, but for empty squares of a premium class that varies more
    than the plain squares do: measured against that class's own spread (at most _CLASS_CAP times theirs),
    they are as much smaller and never larger."""
    features = CASES[f"{case}_features"]
    codes = CASES[f"{case}_codes"].tolist()
    occ = occupancy.classify(features, codes, load_profile(str(CASES[f"{case}_profile"])))
    assert (occ.state == CASES[f"{case}_state"]).all(), np.argwhere(occ.state != CASES[f"{case}_state"]).tolist()
    np.testing.assert_allclose(occ.margin, CASES[f"{case}_margin"], rtol=1e-5, atol=1e-5)
    before = CASES[f"{case}_anomaly"]
    empty = occ.state == occupancy.CellState.EMPTY
    np.testing.assert_allclose(occ.anomaly[~empty], before[~empty], rtol=1e-5, atol=1e-5)
    assert (occ.anomaly[empty] <= before[empty] + 1e-5).all()
    assert (before[empty] <= occ.anomaly[empty] * occupancy._CLASS_CAP + 1e-4).all()


def test_scattered_premium_squares_no_longer_make_a_cover_and_hands_still_do():
    """Cases 0 and 11 were called covered for premium squares alone: three triple-letter and two double-letter
    squares of a classic board far apart, a diagonal of an Alfapet board's premium squares. Cases 1, 7 and 9,
    whose hidden cells make blobs of neighbours (a whole column and more, the middle, a corner), still are."""
    from vision.reader import ANOMALY_LIMIT, _is_covered

    covered = {}
    for case in range(COUNT):
        features, codes = CASES[f"{case}_features"], CASES[f"{case}_codes"].tolist()
        occ = occupancy.classify(features, codes, load_profile(str(CASES[f"{case}_profile"])))
        covered[case] = _is_covered(occ.anomaly > ANOMALY_LIMIT)
        # Case 11's premium squares stand out no more since its shadow's light is measured on its squares.
        assert _is_covered(CASES[f"{case}_anomaly"] > ANOMALY_LIMIT) == (case in (0, 1, 7, 9))
    assert [case for case, c in covered.items() if c] == [1, 7, 9]


def test_the_cases_cover_shadows_stop_tiles_and_an_empty_board():
    states = [CASES[f"{case}_state"] for case in range(COUNT)]
    assert any((s == occupancy.CellState.STOP).any() for s in states)
    assert any(not s.any() for s in states)
    assert sum((CASES[f"{case}_anomaly"] > 4).any() for case in range(COUNT)) >= 4


def test_group_medians_are_each_groups_median():
    rng = np.random.default_rng(5)
    values = rng.normal(100, 30, (225, 3)).astype(np.float32)
    values[:40] = np.round(values[:40])  # ties
    groups = rng.integers(0, 7, 225)
    medians, sizes = occupancy._group_medians(values, groups, 6)  # group 6 is left out
    for k in range(6):
        assert sizes[k] == (groups == k).sum()
        assert (medians[k] == np.median(values[groups == k], axis=0)).all()
    ink = values[:, 0]
    medians, _ = occupancy._group_medians(ink, groups, 7)
    assert all(medians[k] == np.median(ink[groups == k]) for k in range(7))


def test_lower_quartiles_are_numpys_percentile():
    rng = np.random.default_rng(6)
    for size in range(1, 40):
        values = rng.random(size * 3).astype(np.float32)
        groups = np.repeat([0, 1, 2], size)
        quartiles = occupancy._lower_quartiles(*occupancy._sorted_groups(values, groups, 3))
        # numpy 2 interpolates float32 values in float32, numpy 1.x (the arm64 proof's 1.26) in float64.
        expected = [float(np.percentile(values[groups == k], 25)) for k in range(3)]
        assert [float(q) for q in quartiles] == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(("height", "width", "factor"),
                         [(1200, 1600, 16), (1632, 1224, 8), (600, 800, 4), (1199, 1597, 16), (64, 64, 2)])
def test_white_balance_shrinks_the_frame_as_inter_area_does(height, width, factor):
    rng = np.random.default_rng(height)
    frame = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    frame[: height // 2] //= 3  # dark and bright blocks, means landing on .5 too
    expected = cv2.resize(frame, (width // factor, height // factor), interpolation=cv2.INTER_AREA)
    assert (colour._shrunk(frame, factor) == expected).all()


@pytest.mark.parametrize("gains", [(1.0, 1.0, 1.0), (1.13, 0.97, 1.31), (0.42, 2.5, 1.0000001), (3.7, 0.01, 1.5)])
def test_gains_applied_by_a_table_scale_every_pixel_as_multiplying_does(gains):
    rng = np.random.default_rng(7)
    frame = rng.integers(0, 256, (361, 361, 3), dtype=np.uint8)
    frame[:8, :8] = np.arange(192, dtype=np.uint8).reshape(8, 8, 3)
    frame[8:16, :8] = (np.arange(192) + 64).astype(np.uint8).reshape(8, 8, 3)
    gained = np.array(gains, np.float32)
    expected = cv2.multiply(frame, np.array([*gained.tolist(), 0.0]), dtype=cv2.CV_8U)
    assert frame.shape[0] * frame.shape[1] >= colour._TABLE_FROM
    assert (colour.apply_gains(frame, gained) == expected).all()


@pytest.mark.parametrize("seed", [3, 22, 8])
def test_cell_features_are_each_cells_plain_statistics(seed):
    """Each cell's colour: the mean Lab colour of the pixels of its central half at least as light as their
    median; its ink: the 90th percentile of the strokes there over the mean lightness (at least 16)."""
    from vision.locate import Geometry
    from vision.synthetic import STYLES, render_scene

    scene = render_scene(seed, style=STYLES[seed % 3])
    grid, px = scene.truth.grid, 24
    warped = Geometry(np.array(scene.truth.corners, np.float32), grid, 1.0).warp(scene.image, px)
    features = occupancy.cell_features(warped, grid, px)
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    lum = np.ascontiguousarray(lab[..., 0])
    strokes = np.maximum(cv2.morphologyEx(lum, cv2.MORPH_BLACKHAT, kernel),
                         cv2.morphologyEx(lum, cv2.MORPH_TOPHAT, kernel))
    for row in range(grid):
        for col in range(grid):
            window = (slice(row * px + 6, row * px + 18), slice(col * px + 6, col * px + 18))
            centre = lab[window].reshape(-1, 3).astype(np.float64)
            bright = centre[:, 0] >= np.median(centre[:, 0])
            np.testing.assert_allclose(features[row, col, :3], centre[bright].mean(axis=0), rtol=1e-6)
            ink = np.sort(strokes[window].ravel())[int(0.9 * 143)] / max(centre[:, 0].mean(), 16.0)
            np.testing.assert_allclose(features[row, col, 3], ink, rtol=1e-6)

# SPDX-License-Identifier: GPL-3.0-or-later
"""Locating from scratch on shrunk copies of the frame: each fast path gives what the plain way gives (the
crossings' strip means, one placement's grid evidence, the window views), the shrunk copies map frame pixels
where their pixels are, and a fresh Locator still puts the grid where it is."""

import cv2
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from vision import find
from vision.locate import Locator
from vision.profile import load_profile
from vision.synthetic import STYLES, corner_error, render_scene


@pytest.fixture(scope="module")
def scene():
    return render_scene(3, style="classic")


@pytest.fixture(scope="module")
def responses(scene):
    """The (vertical, horizontal) line responses of the scene's grid warped at 12 px a cell, two cells around."""
    n, cell, margin = scene.truth.grid, 12, 24
    side = n * cell
    dst = np.array([[margin, margin], [margin + side, margin], [margin + side, margin + side],
                    [margin, margin + side]], np.float32)
    hom = cv2.getPerspectiveTransform(np.asarray(scene.truth.corners, np.float32), dst)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    warped = cv2.warpPerspective(grey, hom, (side + 2 * margin,) * 2, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return find.axis_responses(warped, 5), margin + cell * np.arange(-2, n + 3, dtype=np.float64), cell


def _crossings_by_cumulative_sums(resp, lines, across, pitch, across_pitch, transposed=False):
    """The crossings the plain way: strip sums from cumulative sums, then the same local contrast."""
    picture = resp.T if transposed else resp
    summed = np.concatenate([np.zeros((1, picture.shape[1])), np.cumsum(picture, axis=0, dtype=np.float64)])
    lo = np.clip(np.rint(across[:-1] + 0.2 * across_pitch).astype(int), 0, len(picture) - 1)
    hi = np.clip(np.maximum(np.rint(across[:-1] + 0.8 * across_pitch).astype(int), lo + 1), 1, len(picture))
    means = ((summed[hi] - summed[lo]) / (hi - lo)[:, None]).astype(np.float32)
    prof = cv2.GaussianBlur(means, (11, 1), 1.2)
    cols = np.arange(prof.shape[1])

    def at(x):
        return np.stack([np.interp(x, cols, row) for row in prof])

    on, off = at(lines), np.minimum(at(lines - pitch / 2), at(lines + pitch / 2))
    return (on - off) / (on + off + 1.0)


@pytest.mark.parametrize("transposed", [False, True])
def test_the_crossings_are_the_strip_means_of_the_plain_cumulative_sums(responses, transposed):
    (vertical, horizontal), lines, cell = responses
    resp = horizontal if transposed else vertical
    fast = find._crossings(resp, lines, lines, cell, cell, transposed=transposed)
    plain = _crossings_by_cumulative_sums(resp, lines, lines, cell, cell, transposed)
    assert fast.shape == plain.shape == (len(lines) - 1, len(lines))
    assert np.abs(fast - plain).max() < 1e-4
    assert fast[3:-3, 3:-3].mean() > 0.3  # a real grid: its lines show


def test_one_placements_evidence_is_that_of_every_placement_at_its_place(responses, scene):
    (vertical, horizontal), lines, cell = responses
    n = scene.truth.grid
    cross_v = find._crossings(vertical, lines, lines, cell, cell)
    cross_h = find._crossings(horizontal, lines, lines, cell, cell, transposed=True)
    every = find._window_evidence(cross_v, cross_h, n)
    for my in range(every[0].shape[0]):
        for kx in range(every[0].shape[1]):
            assert find._evidence_at(cross_v, cross_h, n, my, kx) == pytest.approx([float(a[my, kx]) for a in every])
    # The true grid starts at line 2: a real grid there, and lines just beyond it only once it slips a cell.
    assert find.is_grid(find._evidence_at(cross_v, cross_h, n, 2, 2))
    assert find._evidence_at(cross_v, cross_h, n, 2, 2)[2] < min(find._evidence_at(cross_v, cross_h, n, my, kx)[2]
                                                               for my, kx in ((1, 2), (3, 2), (2, 1), (2, 3)))


def test_the_window_views_are_numpys_sliding_windows(responses):
    (vertical, _), lines, cell = responses
    cross = find._crossings(vertical, lines, lines, cell, cell)
    assert np.array_equal(find._windows(cross, (15, 14), (0, 1)), sliding_window_view(cross, (15, 14)))
    assert np.array_equal(find._windows(cross, (14,), (1,)), sliding_window_view(cross, 14, axis=1))
    medians = find._median(sliding_window_view(cross, 15, axis=0))  # a strided view, not contiguous
    assert np.array_equal(find._windows(medians, (14,), (1,)), sliding_window_view(medians, 14, axis=1))
    cells = np.ascontiguousarray(np.stack([cross, -cross, 2 * cross], axis=-1))
    assert np.array_equal(find._windows(cells, (15, 15), (0, 1)), sliding_window_view(cells, (15, 15), axis=(0, 1)))
    assert np.array_equal(find._padded_rows(cross), np.pad(cross, ((1, 1), (0, 0))))


@pytest.mark.parametrize("size", [(1600, 1200), (1633, 1225)])
def test_a_shrunk_copy_maps_a_point_where_its_pixels_show_it(size):
    """A bright spot's centroid in each halved copy is where to_level puts the frame's centroid, and back."""
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    spot = np.array([1001.0, 617.0])
    cv2.circle(frame, (int(spot[0]), int(spot[1])), 40, (255, 255, 255), -1)
    pyramid = find.Pyramid(frame)
    for k in (1, 2, 3):
        grey = pyramid.grey(k).astype(np.float64)
        ys, xs = np.mgrid[: grey.shape[0], : grey.shape[1]]
        seen = np.array([(xs * grey).sum(), (ys * grey).sum()]) / grey.sum()
        assert np.abs(pyramid.to_level(spot[None], k)[0] - seen).max() < 0.05
        assert np.abs(pyramid.from_level(seen[None], k)[0] - spot).max() < 0.05 * 2**k
    assert pyramid.level(0) is frame and pyramid.level(1).shape == (size[1] // 2, size[0] // 2, 3)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_fresh_locator_puts_the_grid_within_a_quarter_of_a_cell(seed):
    scene = render_scene(seed, style=STYLES[seed])
    profile = load_profile("alfapet-17" if scene.truth.grid == 17 else "classic-scrabble")
    geom = Locator(profile)(scene.image)
    assert geom.grid == scene.truth.grid
    assert corner_error(geom.corners, scene.truth.corners, scene.truth.grid) <= 0.25


def test_the_upper_quartile_is_numpys_75th_percentile():
    from vision.locate import _upper_quartile

    rng = np.random.default_rng(7)
    for count in [1, 2, 3, 4, 5, 7, 10, 101, 2601, 10404]:
        for values in (rng.random(count, dtype=np.float32) * 90,  # spread values
                       rng.integers(0, 12, count).astype(np.float32),  # many ties
                       np.hypot(*rng.normal(0, 20, (2, count)).astype(np.float32))):  # as the board weight's
            assert _upper_quartile(values) == float(np.percentile(values, 75))
            assert _upper_quartile(values.reshape(1, -1)) == float(np.percentile(values, 75))


@pytest.mark.parametrize("shape", [(408, 408, 3), (272, 272, 3), (456, 456), (409, 408, 3), (407, 409)])
def test_every_other_pixel_is_numpys_strided_copy(shape):
    from vision.locate import _every_other_pixel

    picture = np.random.default_rng(1).integers(0, 256, shape, dtype=np.uint8)
    half = _every_other_pixel(picture)
    assert half.flags.c_contiguous and np.array_equal(half, picture[::2, ::2])


def test_a_column_band_profile_is_the_band_profile_of_the_transposed_pictures():
    from vision.locate import _band_profile, _column_band_profile

    rng = np.random.default_rng(3)
    lines = rng.random((408, 408), dtype=np.float32) * 60
    weight = rng.random((408, 408), dtype=np.float32) + np.float32(1e-3)
    for band in (slice(24, 168), slice(240, 384), slice(16, 113)):
        plain = _band_profile(np.ascontiguousarray(lines.T)[band], np.ascontiguousarray(weight.T)[band])
        assert np.array_equal(_column_band_profile(lines, weight, band), plain)

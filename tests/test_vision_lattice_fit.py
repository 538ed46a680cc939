# SPDX-License-Identifier: GPL-3.0-or-later
"""The refinement's lattice fit: the profiles fitted together give what fitting each alone with np.interp gives,
and a lattice of printed lines is found where it is."""

import numpy as np
import pytest

from vision.locate import _FINE_PITCH, _FINE_START, _PITCH_STEPS, _START_STEPS, _fit_axes


def _best_alone(profile, n_lines, starts, pitches):
    """The fit of one profile the plain way: every candidate sampled by np.interp."""
    p, st = (a.ravel() for a in np.broadcast_arrays(pitches[:, None], starts[None, :]))
    pos = st[:, None] + np.arange(n_lines)[None, :] * p[:, None]
    inside = (pos[:, 0] >= 0) & (pos[:, -1] <= len(profile) - 1)
    if not inside.any():
        return float(starts[len(starts) // 2]), float(pitches[len(pitches) // 2]), -np.inf
    pos, p, st = pos[inside], p[inside], st[inside]
    axis = np.arange(len(profile))
    score = np.interp(pos, axis, profile).mean(axis=1) - np.interp(pos[:, :-1] + p[:, None] / 2, axis,
                                                                      profile).mean(axis=1)
    best = int(np.argmax(score))
    return float(st[best]), float(p[best]), float(score[best])


def _fit_alone(profile, n_lines, start, pitch):
    s, p, score = _best_alone(profile, n_lines, start + _START_STEPS * pitch, pitch * (1 + _PITCH_STEPS))
    if score < 0:
        return (s, p, score) if np.isfinite(score) else (start, pitch, -1.0)
    return _best_alone(profile, n_lines, s + _FINE_START * pitch, p * (1 + _FINE_PITCH))


@pytest.mark.parametrize("seed", range(40))
def test_fitting_profiles_together_gives_each_ones_own_fit(seed):
    rng = np.random.default_rng(seed)
    n_lines, pitch = int(rng.integers(3, 18)), float(rng.integers(6, 30))
    length = int(rng.integers(int(n_lines * pitch * 0.8), int(n_lines * pitch + 3 * pitch)))
    start = float(rng.integers(0, int(2 * pitch)))
    profiles = []
    for _ in range(4):
        noise = rng.random(length).astype(np.float32)
        lines = np.zeros(length, np.float32)
        first, spacing = start + rng.normal(0, 0.3) * pitch, pitch * (1 + rng.normal(0, 0.02))
        for k in range(n_lines):
            at = int(round(first + k * spacing))
            if 0 <= at < length:
                lines[at] = 5.0
        profiles.append(noise + lines * float(rng.choice([0.0, 1.0])))  # some with no lines at all
    assert _fit_axes(profiles, n_lines, start, pitch) == [_fit_alone(p, n_lines, start, pitch) for p in profiles]


def test_a_lattice_of_lines_is_found_where_it_is():
    length, n_lines = 400, 16
    profile = np.zeros(length, np.float32)
    true_start, true_pitch = 31.0, 22.6
    for k in range(n_lines):
        profile[int(round(true_start + k * true_pitch))] = 10.0
    profile = np.convolve(profile, [0.25, 0.5, 0.25], mode="same").astype(np.float32)
    (start, pitch, score), = _fit_axes([profile], n_lines, 24.0, 22.0)  # a guess 0.3 cell and 3 % off
    assert abs(start - true_start) < 0.5 and abs(pitch - true_pitch) < 0.05 and score > 1.0

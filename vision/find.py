# SPDX-License-Identifier: GPL-3.0-or-later
"""Find a board's playing grid anywhere in a camera frame, from its structure rather than its colours.

Nothing here knows what colour a board is. The frame is shrunk (a power-of-two factor, halved again and again:
a :class:`Pyramid`, which vision.locate shares with its other steps); line segments of a small copy (and of
its thin-line response too when the grid they give is unclear or its size nearly a tie, and then of the
thin-line response alone) give the grid's two line families and their vanishing points;
the picture is rectified so that both families run along the axes, in the region where segments of the
two families cross (a grid crosses itself hundreds of times, wood grain and shadow edges hardly at all).
There a lattice of evenly spaced lines is fitted per axis and the grid's extent chosen: the n x n window (n = 15
or 17) whose lines cross its outer ring of cells and none beyond it. The extent is settled again in a
picture of the found grid with a few cells around it (tie-broken by the premium layout's symmetry), and
the corners are pinned on the printed lines in bands near each side (which takes out perspective left over).

:func:`find_grid` returns the corners clockwise from the one nearest the frame's top-left; which of them
is square A1 is decided elsewhere (the printed premium layout, or the previous frame's board).

Where the time goes (processor time, one thread, 2 MP frames of bench/vision_scenes.py): the lattice search
in the rectified picture about two fifths (its coarse lattice fit alone a tenth), segment detection a fifth,
settling the extent a fifth, pinning the corners an eighth. What was cut without moving a corner is noted
at each place; a lower resolution anywhere (segments at 0.6 scale, a 320 px canvas, a 12 px first pinning
pass, fewer vanishing-point trials) each lost frames on the tuning seeds or the jheidel photos.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import BoardNotFound

#: Longer side the frame is shrunk to (about) for the lattice search; segments come from a smaller copy.
WORK_SIDE = 800
#: Longer side of the copy searched for line segments.
SEGMENT_SIDE = 400
#: A copy may be this much smaller than the side asked for: a 1504 px frame is then searched at 752 px with
#: segments at 376 (as a 1600 px frame at 800 and 400), not at full size with segments at 752, which cost
#: twice the time (66 vs 34 ms CPU) for 149 instead of 141 of 150 tuning scenes resized to 1504x1128 within 0.25 cell.
SHRINK_TO_WITHIN = 0.9
#: Shortest segment kept, as a fraction of the searched copy's larger side.
MIN_SEGMENT = 0.012
#: Two line directions at least this many degrees apart are the grid's two families; a family takes
#: segments up to FAMILY_SPREAD degrees from its peak (perspective fans a family's lines out).
FAMILY_APART = 30
FAMILY_SPREAD = 20
VP_TRIALS = 300
VP_VOTERS = 250
#: Up to this many direction peaks, so up to six pairs, are tried, strongest first (the search stops at a clear
#: grid). Wood grain can give two peaks stronger than one of the grid's directions: with 3, Alfapet boards amid
#: strong grain were not found. Tuning seeds 0-299: 287 of 300 within 0.25 cell with 3, 288 with 4 or 5; 5 also
#: found a grid in 1 of 90 bare tables (tests/test_vision_scenes.py), 4 in none.
PEAKS = 4
#: A grid whose lines show this clearly ends the search over direction pairs.
CLEAR_LINES = 0.4
#: A grid found from the picture's segments alone is kept when its lines show this clearly and it beats
#: the best placement of the other grid size by CASCADE_MARGIN; otherwise the thin-line response's segments
#: are added and the search run again (the segment detection costs about as much as the rest of the search).
CASCADE_LINES = 0.4
CASCADE_MARGIN = 0.1
#: A segment agrees with a vanishing point when it points at it within about 1.5 degrees.
VP_COS = float(np.cos(np.radians(1.5)))
RING_WEIGHT = 0.5
EDGE_WEIGHT = 0.25
ASYM_WEIGHT = 0.3
#: The least asymmetry a real board shows (tiles, light): bounds what the symmetry test can add.
ASYM_FLOOR = 0.1
#: At most this many placements, best first, get the symmetry test.
ASYM_CANDIDATES = 12
#: Side of the rectified picture the lattice is searched in.
CANON = 384
#: A lattice is believed only when its lines stand out this much (relative contrast, see _lattice_scores).
MIN_CONTRAST = 0.12
GRIDS = (15, 17)
#: Room left around the region where the segments cross, as a share of its size (see _lattice_region).
MARGIN = 0.5
#: Room left beyond where the crossing lines reach, when they reach beyond MARGIN (see _lattice_region).
REACH_MARGIN = 0.1
#: The grid's extent is settled in a picture of it with this many cells around it, at this many pixels a cell.
SETTLE_MARGIN = 4
SETTLE_PX = 12
_BANDS = ((0.25, 0.75),)
#: A grid whose lines show less clearly than this across its cells (grid_evidence) may have taken its directions
#: from the background (carpet stripes, wood grain outvoting the grid's lines): the directions are measured again
#: from the segments within INSIDE_GROWTH of the grid found and the clearer of the two grids kept. Set on tuning
#: seeds 0-299 (285 -> 287 of 300 within 0.25 cell); held out: seeds 1000-1299 291 -> 293, 6000-6299 281 -> 286.
RECHECK_LINES = 0.6
#: A grid's lines show across its cells at least this clearly (grid_evidence's ``line``), or it is no board:
#: lattices fitted to wood grain on bare tables showed 0.10-0.17; boards 0.40 (a jheidel photo) and up, 0.53 and up
#: on tuning seeds 0-299. (Its outer ring tells nothing here: tiles along two edges of a board late in a game hide
#: the ring's lines, 0.14 on synthetic tournament game 1000, photo 24.)
GRID_LINES = 0.25
INSIDE_GROWTH = 0.15
#: A lattice found up to PREMIUM_CELLS cells off along either axis (the board's printed name or a row of score
#: boxes on its rim taken for cells, while the true edge rows hide their lines under tiles) is moved onto its
#: premium squares: by the whole cells under which the squares the built-in layout of its size marks as premium
#: stand out from the board's common colour and the rest do not. Moved when that contrast (Lab units, lightness
#: at half weight) gains PREMIUM_GAIN and is at least PREMIUM_RATIO times what it is where the lattice lies.
#: On 600 synthetic scenes (seeds 0-299 and 1000-1299) a lattice within 0.25 cell measured -0.8 to 99 where
#: it lies and gained 5.5 at most by a shift; 11 game frames found 1-3 cells off gained 7 to 31. A classic board
#: late in a game (held-out synthetic game 1005, photo 14: its left columns full of tiles, the rim's score boxes
#: beside the right edge) was found 4 cells off, where the layout's four-cell repeats still put premiums under
#: half the mask: 15 there, 26 in the right place, so a ratio of 1.5 (was 3) and a reach of 4 cells (was 3);
#: seeds 1000-1299 located as before (298/300 within 0.25 cell, median 0.091 cell).
PREMIUM_CELLS, PREMIUM_GAIN, PREMIUM_RATIO = 4, 8.0, 1.5
#: When no grid is found in the segments of the shrunk picture, they are searched again in the thin-line response
#: of the work picture, and a grid found so is kept when its lines show at least this clearly across its cells
#: (grid_evidence): on the 7 scenes of seeds 0-299, 1000-1299 and 6000-6299 found no other way, the six grids
#: within 0.25 cell showed 0.77-0.93, the one 1.6 cells off 0.52. Refusing a frame with no board costs about four
#: times as much (45 bare 2 MP tables: median 22 -> 88 ms, p90 121 -> 153 ms).
RETRY_LINES = 0.65


@dataclass(frozen=True)
class Found:
    """A located grid: corners in frame pixels (clockwise), its size and how clearly its lines show."""

    corners: np.ndarray
    grid: int
    contrast: float
    candidates: int
    #: Its :func:`grid_evidence` in the shrunk copy the lattice was searched in.
    evidence: tuple[float, float, float] = (0.0, 0.0, 0.0)


def _shrink_steps(shape: tuple[int, ...], side: int) -> int:
    """How many halvings shrink a picture of ``shape`` by the largest power of two that leaves its longer side at
    least SHRINK_TO_WITHIN of ``side`` (a portrait photo as much as a landscape one)."""
    h, w = shape[:2]
    return max(0, int(np.floor(np.log2(max(h, w, 1) / (side * SHRINK_TO_WITHIN)))))


def work_level(shape: tuple[int, ...]) -> int:
    """The :class:`Pyramid` level of a frame of ``shape`` that the lattice is searched in (about WORK_SIDE)."""
    return _shrink_steps(shape, WORK_SIDE)


class Pyramid:
    """A frame and its copies halved again and again (INTER_AREA, each from the one before), each made when
    first asked for, so that the steps of locating a board from scratch share them (halving a 2 MP frame
    costs about a millisecond; shrinking it by 8 in one go three)."""

    def __init__(self, frame: np.ndarray) -> None:
        self._levels = [frame]
        self._greys: dict[int, np.ndarray] = {}
        self._fours: dict[int, np.ndarray] = {}

    @property
    def frame(self) -> np.ndarray:
        return self._levels[0]

    def level(self, k: int) -> np.ndarray:
        """The frame halved ``k`` times (each side floor-divided)."""
        while len(self._levels) <= k:
            last = self._levels[-1]
            h, w = last.shape[:2]
            self._levels.append(cv2.resize(last, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA))
        return self._levels[k]

    def at_least(self, width: int) -> np.ndarray:
        """The smallest copy at least ``width`` pixels wide (the frame itself when it is narrower).

        >>> Pyramid(np.zeros((1200, 1600, 3), np.uint8)).at_least(160).shape
        (150, 200, 3)
        >>> Pyramid(np.zeros((90, 120, 3), np.uint8)).at_least(160).shape
        (90, 120, 3)
        """
        k = 0
        while self.frame.shape[1] >> (k + 1) >= width:
            k += 1
        return self.level(k)

    def warpable(self, k: int) -> np.ndarray:
        """Level ``k`` as :func:`warp` warps it fastest: a colour level as BGRA (made once), a grey one as it is.
        OpenCV's perspective warp has vector code for one and four channels but not for three: the same pixels
        in about half the time (a 408 px square from a 2 MP frame: 0.8 against 1.4 ms), for a conversion of
        about half a millisecond."""
        if k not in self._fours:
            picture = self.level(k)
            self._fours[k] = cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA) if picture.ndim == 3 else picture
        return self._fours[k]

    def grey(self, k: int) -> np.ndarray:
        if k not in self._greys:
            picture = self.level(k)
            self._greys[k] = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY) if picture.ndim == 3 else picture
        return self._greys[k]

    def _factors(self, k: int) -> np.ndarray:
        (h, w), (hk, wk) = self.frame.shape[:2], self.level(k).shape[:2]
        return np.array([w / wk, h / hk], np.float64)

    def to_level(self, points: np.ndarray, k: int) -> np.ndarray:
        """Frame pixel coordinates (pixel centres at integers) as coordinates in level ``k``: a level pixel is
        the mean of a block of frame pixels, so its centre is the block's centre."""
        f = self._factors(k)
        return ((np.asarray(points, np.float64) + 0.5) / f - 0.5).astype(np.float32)

    def from_level(self, points: np.ndarray, k: int) -> np.ndarray:
        """Level ``k`` coordinates back in frame pixels (inverse of :meth:`to_level`)."""
        f = self._factors(k)
        return ((np.asarray(points, np.float64) + 0.5) * f - 0.5).astype(np.float32)


def warp(picture: np.ndarray, matrix: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``cv2.warpPerspective`` of a picture to ``size`` (width, height): linear, the edge pixels repeated. A
    BGRA picture (:meth:`Pyramid.warpable`) is warped as it is and comes out BGR, as its BGR original would.

    >>> frame = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    >>> move = np.array([[1, 0, 0.5], [0, 1, 0.25], [0, 0, 1]])
    >>> four = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    >>> bool((warp(four, move, (3, 2)) == warp(frame, move, (3, 2))).all()), warp(four, move, (3, 2)).shape
    (True, (2, 3, 3))
    """
    out = cv2.warpPerspective(picture, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(out, cv2.COLOR_BGRA2BGR) if out.ndim == 3 and out.shape[2] == 4 else out


def clockwise(pts: np.ndarray) -> np.ndarray:
    """Four points in clockwise order (on screen, y down), starting from the one nearest the top-left."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angle = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(angle)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def line_response(grey: np.ndarray, size: int = 5) -> np.ndarray:
    """Thin lines, light or dark: top-hat plus black-hat with a ``size`` kernel (float32)."""
    kernel = np.ones((size, size), np.uint8)
    # top-hat (grey - opening) plus black-hat (closing - grey) is closing - opening: no sum saturates.
    closed, opened = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel), cv2.morphologyEx(grey, cv2.MORPH_OPEN, kernel)
    return cv2.subtract(closed, opened).astype(np.float32)


def axis_responses(grey: np.ndarray, size: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """(vertical, horizontal) line responses: thin lines of either polarity plus step edges across the
    axis (a grid's outer line often merges into the rim and shows only as an edge)."""
    thin = line_response(grey, size)
    out = []
    for dx, dy in ((1, 0), (0, 1)):
        edge = cv2.Sobel(grey, cv2.CV_32F, dx, dy, ksize=3, scale=EDGE_WEIGHT)
        out.append(np.add(np.abs(edge, out=edge), thin, out=edge))
    return out[0], out[1]


def _half_pixels(profiles) -> np.ndarray:
    """(B, 2L-1) float32: each 1-D profile of length L sampled at every half pixel (linear in between)."""
    rows = [np.asarray(p) for p in profiles]
    length = len(rows[0])
    at = np.arange(2 * length - 1, dtype=np.float32) / 2
    return np.stack([np.interp(at, np.arange(length), row).astype(np.float32) for row in rows])


def _candidates(starts: np.ndarray, pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, pitch) of every lattice of the given starts and pitches, pitch-major along the last axis
    (starts and pitches 1-D, or (B, k) for one set per profile)."""
    reps = starts.shape[-1]
    return np.tile(starts, pitches.shape[-1]), np.repeat(pitches, reps, axis=-1)


def _lattice_scores(fine: np.ndarray, n: int, st: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, ...]:
    """Score lattices of n+1 lines starting at ``st`` with pitch ``p`` in line profiles (``fine``: B profiles
    at half pixels, :func:`_half_pixels`); returns (score (B, C), start, pitch). Candidates shared by all
    profiles (1-D) that do not fit in the profiles are dropped; candidates per profile ((B, C)) score -inf.

    Each line is compared with the two mid-lines beside it (local contrast in -1..1), so a texture that
    responds everywhere (carpet) scores nothing, and the lattice is as good as the median and the lower
    quartile of its lines: a column of tiles or a strong board edge is one outlier among n lines. A line
    one pitch beyond either end (the lattice slipped, or is too small for the board) costs score."""
    length = (fine.shape[1] + 1) // 2
    half = np.arange(-3, 2 * n + 4, dtype=np.float32) / 2  # -1.5 .. n+1.5 in half pitches
    # Only the lattices whose lines -0.5 .. n+0.5 lie in the profile (the same sums as in pos below).
    ok = (st + half[2] * p >= 0) & (st + half[-3] * p <= length - 1)
    shared = st.ndim == 1
    if not shared:
        return np.where(ok, _scores_of(fine, n, half, st, p), -np.inf), st, p
    st, p = st[ok], p[ok]
    # In chunks: the temporaries of all candidates at once (several MB) cost more in fresh pages and cache
    # misses than the sums themselves (twice the time without _keep_freed_memory; chunks of 384 cost 20 %
    # more than of 1536 in loop overhead).
    chunks = [_scores_of(fine, n, half, st[i : i + _CHUNK], p[i : i + _CHUNK]) for i in range(0, len(st), _CHUNK)]
    return (np.concatenate(chunks, axis=1) if chunks else np.zeros((len(fine), 0), np.float32)), st, p


#: Candidate lattices scored at once (see _lattice_scores).
_CHUNK = 1536


def _scores_of(fine: np.ndarray, n: int, half: np.ndarray, st: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The scores of :func:`_lattice_scores`, candidates shared (1-D) or per profile ((B, C))."""
    length = (fine.shape[1] + 1) // 2
    shared = st.ndim == 1
    pos = st[..., None] + half * p[..., None]
    outside = (pos[..., [1, -2]] < 0) | (pos[..., [1, -2]] > length - 1)  # lines -1 and n+1
    # Nearest half pixel of each position, in place (the largest array here).
    np.clip(np.rint(np.multiply(pos, 2, out=pos), out=pos), 0, 2 * length - 2, out=pos)
    index = pos.astype(np.int32)
    vals = np.empty((len(fine), *index.shape[-2:]), np.float32)
    for b, row in enumerate(fine):  # one 1-D take per profile: several times faster than one 2-D fancy index
        row.take(index if shared else index[b], out=vals[b])
    lines, mids = vals[..., 1::2], vals[..., 0::2]  # lines k = -1..n+1; mids k = -1.5..n+1.5
    side = np.maximum(mids[..., :-1], mids[..., 1:])
    contrast = (lines[..., 1:-1] - side[..., 1:-1]) / (lines[..., 1:-1] + side[..., 1:-1] + 1.0)
    contrast.sort(axis=-1)  # two order statistics of short rows: a sort beats np.partition 4x
    beyond = (lines[..., [0, -1]] - side[..., [0, -1]]) / (lines[..., [0, -1]] + side[..., [0, -1]] + 1.0)
    beyond = np.where(outside, 0.0, beyond).max(axis=-1)
    return 0.5 * contrast[..., (n + 1) // 2] + 0.5 * contrast[..., (n + 1) // 4] - 0.25 * np.maximum(beyond, 0)


def _best_per_profile(score: np.ndarray, st: np.ndarray, p: np.ndarray) -> list[tuple[float, float, float]]:
    """(score, start, pitch) of each profile's best candidate (score -inf when none fits)."""
    best = np.argmax(score, axis=1)
    rows = np.arange(len(score))
    pick = (lambda a: a[rows, best]) if st.ndim == 2 else (lambda a: a[best])
    return [(float(a), float(b), float(c)) for a, b, c in zip(score[rows, best], pick(st), pick(p), strict=True)]


def fit_lattice(profiles, n: int, pitch_lo: float, pitch_hi: float) -> list[tuple[float, float, float]]:
    """(score, start, pitch) of the best lattice of n+1 lines in each 1-D line profile (all of one length),
    coarse then fine."""
    length = len(profiles[0])
    fine = _half_pixels([cv2.GaussianBlur(np.asarray(p).reshape(1, -1), (0, 0), 1.0).ravel() for p in profiles])
    pitches = np.geomspace(pitch_lo, pitch_hi, max(2, int(np.log(pitch_hi / pitch_lo) / 0.024) + 1)).astype(np.float32)
    starts = np.arange(0, max(1.0, length - n * pitch_lo), 2.0, dtype=np.float32)
    found = _coarse_then_fine(fine, n, starts, pitches, np.linspace(-2, 2, 17), 1 + np.linspace(-0.024, 0.024, 17))
    return [(-1.0, 0.0, pitch_lo)] * len(profiles) if found is None else found


def _coarse_then_fine(fine: np.ndarray, n: int, starts: np.ndarray, pitches: np.ndarray, start_steps: np.ndarray,
                      pitch_factors: np.ndarray) -> list[tuple[float, float, float]] | None:
    """(score, start, pitch) per profile: the best of the lattices of ``starts`` x ``pitches``, then the best
    of those ``start_steps`` and ``pitch_factors`` around it (score -1 and the coarse one when none of those
    fits); None when no coarse lattice fits."""
    score, st, p = _lattice_scores(fine, n, *_candidates(starts, pitches))
    if score.shape[1] == 0:
        return None
    coarse = _best_per_profile(score, st, p)
    s0, p0 = np.array([c[1] for c in coarse]), np.array([c[2] for c in coarse])
    near_starts = (s0[:, None] + start_steps).astype(np.float32)
    near_pitches = (p0[:, None] * pitch_factors).astype(np.float32)
    score, st, p = _lattice_scores(fine, n, *_candidates(near_starts, near_pitches))
    return [(sc, s, q) if np.isfinite(sc) else (-1.0, a, b)
            for (sc, s, q), a, b in zip(_best_per_profile(score, st, p), s0, p0, strict=True)]


def refine_grid(work_grey: np.ndarray, corners: np.ndarray, n: int, cell_px: int = 16, passes: int = 2):
    """Pin a grid guess on its printed lines in bands near each side (corrects perspective and skew).

    Returns (corners, contrast)."""
    contrast = 0.0
    for _ in range(passes):
        m = cell_px  # one cell of margin
        side = n * cell_px
        size = side + 2 * m
        dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
        hom = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
        warped = cv2.warpPerspective(work_grey, hom, (size, size), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT)
        resp = axis_responses(warped, max(3, cell_px // 3) | 1)
        band = max(2, int(round(n * 0.4))) * cell_px
        bands = ((m, m + band), (m + side - band, m + side))
        fits = fit_near([prof for lo, hi in bands for prof in _band_profiles(resp, lo, hi)], n, m, cell_px)
        (xt, pt, s1), (yl, ql, s2), (xb, pb, s3), (yr, qr, s4) = fits
        c_near, c_far = ((lo + hi) / 2 for lo, hi in bands)
        contrast = min(s1, s2, s3, s4)
        left = ((xt, c_near), (xb, c_far))
        right = ((xt + n * pt, c_near), (xb + n * pb, c_far))
        top = ((c_near, yl), (c_far, yr))
        bottom = ((c_near, yl + n * ql), (c_far, yr + n * qr))
        canon = np.array([cross_point(left, top), cross_point(right, top), cross_point(right, bottom),
                          cross_point(left, bottom)], np.float32)
        corners = cv2.perspectiveTransform(canon.reshape(1, 4, 2), np.linalg.inv(hom)).reshape(4, 2)
    return corners.astype(np.float32), contrast


def fit_near(profiles, n: int, start: float, pitch: float) -> list[tuple[float, float, float]]:
    """(start, pitch, score) of the best lattice within half a cell and 4 % pitch of a guess, per 1-D
    profile (all of one length)."""
    starts = (start + pitch * np.linspace(-0.45, 0.45, 19)).astype(np.float32)
    pitches = (pitch * (1 + np.linspace(-0.04, 0.04, 17))).astype(np.float32)
    found = _coarse_then_fine(_half_pixels(profiles), n, starts, pitches, pitch * np.linspace(-0.05, 0.05, 11),
                              1 + np.linspace(-0.005, 0.005, 11))
    if found is None:
        return [(start, pitch, -1.0)] * len(profiles)
    return [(s, q, sc) for sc, s, q in found]


def cross_point(a: tuple, b: tuple) -> tuple[float, float]:
    """Intersection of the line through a's two points with the line through b's."""
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(den) < 1e-9:
        return (x1, y3)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


def _band_profiles(resp: tuple[np.ndarray, np.ndarray], lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Vertical-line profile over rows lo:hi and horizontal-line profile over columns lo:hi, from the
    (vertical, horizontal) line responses.

    Each profile value is the mean of the lower 60 % of its column's values: a grid line is there all
    along (under tiles the gap between two tiles continues it), while a letter or a premium square's
    print is a blob in part of the column, so the blobs fall in the discarded top."""
    keep = max(1, int(0.6 * (hi - lo)))
    cols = np.partition(resp[0][lo:hi], keep, axis=0)[:keep].mean(axis=0)
    rows = np.partition(resp[1][:, lo:hi], keep, axis=1)[:, :keep].mean(axis=1)
    return cols, rows


def _segments(picture: np.ndarray) -> np.ndarray:
    """Line segments (x1, y1, x2, y2) of at least a few pixels in a grey picture.

    Searched on the picture and, when that is not enough, on its thin-line response too
    (:func:`_thin_picture`): there a grid line stays while wood grain, cloth folds and shadow edges, which
    are broad, drop out; the picture itself keeps the board's edges."""
    found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE).detect(picture)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    segs = found.reshape(-1, 4)
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    return segs[length >= MIN_SEGMENT * max(picture.shape)]


def _thin_picture(grey: np.ndarray) -> np.ndarray:
    """The thin-line response of a grey picture, as a picture to search for segments."""
    return np.clip(line_response(grey, 3) * 3, 0, 255).astype(np.uint8)


def _family_pairs(segs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Candidate pairs of line families: indices of the segments near two of the strongest directions
    (length-weighted angle histogram, up to three peaks, at least FAMILY_APART degrees apart)."""
    dx, dy = segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]
    length = np.hypot(dx, dy)
    angle = np.degrees(np.arctan2(dy, dx)) % 180
    hist = np.bincount(angle.astype(int) % 180, weights=length, minlength=180)
    smooth = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), np.hanning(9), mode="same")[6:-6]
    peaks: list[int] = []
    work = smooth.copy()
    for _ in range(PEAKS):
        peak = int(np.argmax(work))
        if work[peak] <= 0.15 * smooth.max():
            break
        peaks.append(peak)
        work[np.abs(((np.arange(180) - peak) + 90) % 180 - 90) < 15] = 0

    def members(peak: int) -> np.ndarray:
        return np.nonzero(np.abs(((angle - peak) + 90) % 180 - 90) <= FAMILY_SPREAD)[0]

    return [(members(a), members(b)) for i, a in enumerate(peaks) for b in peaks[i + 1 :]
            if abs(((a - b) + 90) % 180 - 90) >= FAMILY_APART]


def _homogeneous_lines(segs: np.ndarray) -> np.ndarray:
    p = np.column_stack([segs[:, 0], segs[:, 1], np.ones(len(segs))])
    q = np.column_stack([segs[:, 2], segs[:, 3], np.ones(len(segs))])
    lines = np.cross(p, q)
    return lines / np.linalg.norm(lines[:, :2], axis=1, keepdims=True)


def _vanishing_point(segs: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The point (homogeneous) the family's lines meet at, and which segments agree with it.

    RANSAC over pairs of long segments, scored by the length of the segments pointing at the
    candidate within a small angle; then least squares over those."""
    lines = _homogeneous_lines(segs)
    mid = np.column_stack([(segs[:, 0] + segs[:, 2]) / 2, (segs[:, 1] + segs[:, 3]) / 2])
    direction = np.column_stack([segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]])
    length = np.linalg.norm(direction, axis=1)
    direction = direction / length[:, None]
    order = np.argsort(-length)[:60]
    pairs = rng.integers(0, len(order), (VP_TRIALS, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    cands = np.cross(lines[order[pairs[:, 0]]], lines[order[pairs[:, 1]]])

    def agreement(vps: np.ndarray, which: np.ndarray | slice = slice(None)) -> np.ndarray:
        # to = v - w * mid, the direction from each midpoint to each vanishing point (v, w) (a point at
        # infinity: its direction); it agrees when (to . direction)^2 >= cos^2 |to|^2. Expanded into
        # products of small matrices, so no (points, segments, 2) array is built.
        v, w = vps[:, :2], vps[:, 2:3]
        m, d = mid[which], direction[which]
        along = v @ d.T - w * (d * m).sum(axis=1)[None, :]
        to_sq = (v * v).sum(axis=1)[:, None] - 2 * w * (v @ m.T) + (w * w) * (m * m).sum(axis=1)[None, :]
        return along * along >= VP_COS * VP_COS * (to_sq + 1e-24)

    if len(cands) == 0:
        return np.array([0.0, 0.0, 0.0]), np.zeros(len(segs), bool)
    voters = np.argsort(-length)[:VP_VOTERS]  # the longest segments carry nearly all the length
    votes = (agreement(cands, voters) * length[None, voters]).sum(axis=1)
    best = cands[int(np.argmax(votes))]
    inliers = agreement(best[None])[0]
    if inliers.sum() >= 3:
        w = length[inliers]
        a = lines[inliers] * w[:, None]
        _, _, vt = np.linalg.svd(a.T @ lines[inliers])
        refined = vt[-1]
        if agreement(refined[None])[0].sum() >= inliers.sum() * 0.9:
            best = refined
            inliers = agreement(best[None])[0]
    return best, inliers


def _rectifier(v1: np.ndarray, v2: np.ndarray, centre: np.ndarray) -> np.ndarray | None:
    """Homography sending the two vanishing points to infinity, family 1 lines vertical, family 2 horizontal."""
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]], np.float64)
    a, b = shift @ v1, shift @ v2
    horizon = np.cross(a, b)
    if abs(horizon[2]) < 1e-12:
        return None
    horizon = horizon / horizon[2]
    proj = np.array([[1, 0, 0], [0, 1, 0], horizon], np.float64)
    d1, d2 = proj @ a, proj @ b
    basis = np.array([[d2[0], d1[0]], [d2[1], d1[1]]], np.float64)  # columns: new x axis, new y axis
    if abs(np.linalg.det(basis)) < 1e-12:
        return None
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return affine @ proj @ shift


def _grid_from_segments(work: np.ndarray, grey: np.ndarray, segs: np.ndarray, seg_scale: float,
                        grids: tuple[int, ...], rng: np.random.Generator):
    """(score, n, corners in work pixels) of the best lattice, or None.

    The segments (in a copy ``seg_scale`` the size of the work image) give the two line families and
    their vanishing points; the work image is warped so that both families run straight along the
    axes, and the lattice is searched on median line profiles of that picture."""
    best = None
    for fams in _family_pairs(segs):
        found = _lattice_for_families(grey, segs, fams, seg_scale, grids, rng)
        if found is not None:
            found = _settle(work, grey, found[2], found[1], grids)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
        if best is not None and best[3] >= CLEAR_LINES:
            break  # the strongest directions gave a clear grid: the other pairs are wood grain or shadows
    return best


def _lattice_for_families(grey, segs, fams, seg_scale, grids, rng):
    if any(len(f) < 4 for f in fams):
        return None
    vps, members = [], []
    for fam in fams:
        vp, inl = _vanishing_point(segs[fam], rng)
        vps.append(vp)
        members.append(fam[inl])
    if any(len(m) < 4 for m in members):
        return None
    centre = segs[:, :2].mean(axis=0)
    rect = _rectifier(vps[0], vps[1], centre)
    if rect is None:
        return None
    lo, hi = _lattice_region(segs, members, rect)
    to_canvas = np.array([[CANON / (hi[0] - lo[0]), 0, -lo[0] * CANON / (hi[0] - lo[0])],
                          [0, CANON / (hi[1] - lo[1]), -lo[1] * CANON / (hi[1] - lo[1])], [0, 0, 1]])
    from_work = to_canvas @ rect @ np.diag([seg_scale, seg_scale, 1.0])
    canvas = warp(grey, from_work, (CANON, CANON))
    resp = axis_responses(canvas, 5)
    # The pitch and phase of the lines per axis (whatever the extent), from the best lattice in any of three
    # bands across the picture (the region may be loose: the grid can lie in a third of it).
    fits = [(-np.inf, 0.0, 1.0)] * 2
    n = min(grids)  # a lattice of the smaller size fits inside either grid
    for a, b in _BANDS:
        profiles = _band_profiles(resp, int(a * CANON), int(b * CANON))
        found = fit_lattice(profiles, n, CANON / (n + 35), CANON / (n - 1.0))
        fits = [max(old, new) for old, new in zip(fits, found, strict=True)]
    (_, x0, px), (_, y0, py) = fits
    xs = x0 + px * np.arange(-int(x0 // px), int((CANON - 1 - x0) // px) + 1)
    ys = y0 + py * np.arange(-int(y0 // py), int((CANON - 1 - y0) // py) + 1)
    # cross_v[m, k]: how clearly vertical line k crosses the strip between horizontal lines m and m+1.
    cross_v = _crossings(resp[0], xs, ys, px, py)
    cross_h = _crossings(resp[1], ys, xs, py, px, transposed=True)
    # The best placement of each size; the extent is settled afterwards (_settle), with the premium layout's symmetry.
    best = None
    for n in grids:
        score, line = _window_scores(cross_v, cross_h, n, best_only=True)
        if score.size == 0 or not np.isfinite(score.max()):
            continue
        my, kx = np.unravel_index(int(np.argmax(score)), score.shape)
        if best is None or score[my, kx] > best[0]:
            lx, ly = xs[kx], ys[my]
            canon = np.array([[lx, ly], [lx + n * px, ly], [lx + n * px, ly + n * py], [lx, ly + n * py]], np.float64)
            corners = cv2.perspectiveTransform(canon.reshape(1, 4, 2), np.linalg.inv(from_work)).reshape(4, 2)
            best = (float(score[my, kx]), n, corners.astype(np.float32), float(line[my, kx]))
    return best


def _settle(work: np.ndarray, grey: np.ndarray, corners: np.ndarray, n: int, grids: tuple[int, ...]):
    """(score, n, corners, line, margin) of the grid's extent decided again in a picture of the found grid
    with SETTLE_MARGIN cells around it, or None; ``margin``: how much better it scores than the best
    placement of the other grid size (infinite when only one size is searched).

    The lattice search sees only the region it guessed; a grid cut by its edge looks like a smaller grid
    with nothing beyond. Here the lines found are carried on a few cells every way, so a grid too small,
    too large or slipped by a few cells is moved to where lines cross its ring and none cross beyond it."""
    c, m = SETTLE_PX, SETTLE_MARGIN
    size = (n + 2 * m) * c
    dst = np.array([[m * c, m * c], [(m + n) * c, m * c], [(m + n) * c, (m + n) * c], [m * c, (m + n) * c]], np.float32)
    hom = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    picture = warp(grey, hom, (size, size))
    resp = axis_responses(picture, max(3, c // 3) | 1)
    lines = np.arange(n + 2 * m + 1, dtype=np.float64) * c
    cross_v = _crossings(resp[0], lines, lines, c, c)
    cross_h = _crossings(resp[1], lines, lines, c, c, transposed=True)
    # The cells' colours from a picture at a quarter of the pixels, each cell's middle half averaged.
    half = np.array([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 1]], np.float64) @ hom
    colour = warp(work, half, (size // 2, size // 2))
    lab = cv2.blur(cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32), (c // 4, c // 4))
    centres = (c // 4 + c // 2 * np.arange(n + 2 * m)).astype(int)
    cells = lab[centres][:, centres]
    # Each cell against the cells around it: a shadow band or a light gradient is no asymmetry of the print.
    # (Evening out the lightness alone measured the same on tuning seeds 0-799 and put synthetic game 1000's
    # photo 22 back on the board, but lost two held-out scenes, 1094 and 1157; this is the measured version.)
    cells = cells - cv2.medianBlur(np.ascontiguousarray(cells), 5)
    best = None
    by_size = []
    for g in grids:
        score, line = _window_scores(cross_v, cross_h, g)
        if score.size == 0 or not np.isfinite(score.max()):
            continue
        # The symmetry test only for the placements it could still lift to the top.
        order = np.argsort(-score, axis=None)[:ASYM_CANDIDATES]
        order = order[score.flat[order] > score.flat[order[0]] - ASYM_WEIGHT * (1.0 - ASYM_FLOOR)]
        totals = score.flat[order] - ASYM_WEIGHT * _asymmetry(cells, g, *np.unravel_index(order, score.shape))
        my, kx = np.unravel_index(int(order[int(np.argmax(totals))]), score.shape)
        score[my, kx] = max(totals)
        by_size.append(float(score[my, kx]))
        if best is None or score[my, kx] > best[0]:
            x0, y0, x1, y1 = lines[kx], lines[my], lines[kx] + g * c, lines[my] + g * c
            canon = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
            back = cv2.perspectiveTransform(canon.reshape(1, 4, 2), np.linalg.inv(hom)).reshape(4, 2)
            best = (float(score[my, kx]), g, back.astype(np.float32), float(line[my, kx]))
    if best is None:
        return None
    margin = best[0] - sorted(by_size)[-2] if len(by_size) > 1 else np.inf
    return (*best, margin)


def _lattice_region(segs: np.ndarray, members: list[np.ndarray], rect: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) corners, in rectified coordinates, of the part of the picture to search for the lattice.

    A grid is where lines of the two families cross, hundreds of times; a shadow's edges, a table's edge,
    wood grain or carpet give lines of one family, or short ones that seldom cross. So the region is the
    box around most crossings of a segment of one family with one of the other, with room around it for
    the rim and the line just beyond the grid."""
    vertical, horizontal = (cv2.perspectiveTransform(segs[fam].reshape(-1, 1, 2).astype(np.float64), rect)
                            .reshape(-1, 2, 2) for fam in members)
    x_v, (y_lo, y_hi) = vertical[:, :, 0].mean(axis=1), np.sort(vertical[:, :, 1], axis=1).T
    y_h, (x_lo, x_hi) = horizontal[:, :, 1].mean(axis=1), np.sort(horizontal[:, :, 0], axis=1).T
    ends = np.concatenate([vertical.reshape(-1, 2), horizontal.reshape(-1, 2)])
    top, bottom = np.percentile(ends, [99, 1], axis=0)  # one call for both: the same values
    slack = 0.02 * (top - bottom)
    cross = ((x_lo[None, :] - slack[0] <= x_v[:, None]) & (x_v[:, None] <= x_hi[None, :] + slack[0])
             & (y_lo[:, None] - slack[1] <= y_h[None, :]) & (y_h[None, :] <= y_hi[:, None] + slack[1]))
    iv, ih = np.nonzero(cross)
    pts = ends if len(iv) < 16 else np.column_stack([x_v[iv], y_h[ih]])
    lo, hi = np.percentile(pts, [3, 97], axis=0)
    span = np.maximum(hi - lo, 1e-6)
    lo, hi = lo - MARGIN * span, hi + MARGIN * span
    if len(iv) >= 16:
        # A crossing segment is a grid line, and it runs as far as the grid: where one family's far lines are too
        # thin to give segments (strong perspective), the other family's lines still reach there, beyond the room
        # left around the crossings; the region then reaches as far as they do.
        rows, cols = np.unique(ih), np.unique(iv)
        rows = rows[x_hi[rows] - x_lo[rows] >= 0.5 * span[0]]  # long lines: a grid line or the board's edge
        cols = cols[y_hi[cols] - y_lo[cols] >= 0.5 * span[1]]
        reach_lo = np.array([x_lo[rows].min(initial=np.inf), y_lo[cols].min(initial=np.inf)])
        reach_hi = np.array([x_hi[rows].max(initial=-np.inf), y_hi[cols].max(initial=-np.inf)])
        room = REACH_MARGIN * np.where(np.isfinite(reach_hi - reach_lo), reach_hi - reach_lo, 0.0)
        lo = np.where(reach_lo < lo, reach_lo - room, lo)
        hi = np.where(reach_hi > hi, reach_hi + room, hi)
    return lo, hi


def _crossings(resp: np.ndarray, lines: np.ndarray, across: np.ndarray, pitch: float,
               across_pitch: float, transposed: bool = False) -> np.ndarray:
    """(strips, lines) local contrast (-1..1) of each line within each strip between two ``across`` lines.

    ``transposed``: the lines run along resp's rows (a horizontal-line response), read as its transpose
    without copying it (summing along a transposed view's columns is several times slower)."""
    if len(across) < 2:
        return np.zeros((0, len(lines)), np.float32)
    rows = resp.shape[1 if transposed else 0]
    lo = np.clip(np.rint(across[:-1] + 0.2 * across_pitch).astype(int), 0, rows - 1)
    hi = np.clip(np.maximum(np.rint(across[:-1] + 0.8 * across_pitch).astype(int), lo + 1), 1, rows)
    # Each strip's mean as one matrix product with a (strips, rows) averaging matrix: a fifth of the time of
    # summing the whole response cumulatively (the same means up to rounding).
    at_rows = np.arange(rows)
    averaging = ((at_rows >= lo[:, None]) & (at_rows < hi[:, None])).astype(np.float32)
    averaging /= (hi - lo)[:, None].astype(np.float32)
    means = np.ascontiguousarray((resp @ averaging.T).T) if transposed else averaging @ resp
    prof = cv2.GaussianBlur(means, (11, 1), 1.2)  # along each strip only

    def at(x: np.ndarray) -> np.ndarray:
        x = np.clip(x, 0, prof.shape[1] - 1)
        i = np.minimum(x.astype(int), prof.shape[1] - 2)
        w = (x - i).astype(np.float32)
        return prof[:, i] * (1 - w) + prof[:, i + 1] * w

    on = at(lines)
    # Against the quieter neighbour: a premium square's print beside a line is no reason to doubt it.
    off = np.minimum(at(lines - pitch / 2), at(lines + pitch / 2))
    return ((on - off) / (on + off + 1.0)).astype(np.float32)


def _median(values: np.ndarray) -> np.ndarray:
    """Median over the last axis (the upper one of an even count: a partition, not a sort)."""
    k = values.shape[-1] // 2
    return np.partition(values, k, axis=-1)[..., k]


def _windows(values: np.ndarray, window: tuple[int, ...], axes: tuple[int, ...]) -> np.ndarray:
    """numpy's sliding_window_view(values, window, axes) (the same view, read it only) without its overhead:
    some forty calls a frame on arrays of a few hundred values, where its checks cost 20 times the view."""
    values = np.ascontiguousarray(values)
    shape = list(values.shape)
    for size, axis in zip(window, axes, strict=True):
        shape[axis] -= size - 1
    strides = values.strides + tuple(values.strides[axis] for axis in axes)
    return np.ndarray((*shape, *window), values.dtype, values, 0, strides)


def _padded_rows(values: np.ndarray) -> np.ndarray:
    """``values`` with a row of zeros before and after (np.pad's result, at a tenth of its overhead)."""
    out = np.zeros((len(values) + 2, *values.shape[1:]), values.dtype)
    out[1:-1] = values
    return out


def _window_evidence(cross_v: np.ndarray, cross_h: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """(line, ring, beyond), each (my, kx), for every placement of an n x n grid on the found lines (window
    starting at vertical line kx and horizontal line my), from the crossings (:func:`_crossings`):
    ``line`` how clearly its inner lines cross its cells (the weaker axis); ``ring`` how clearly lines
    cross its outer ring of cells (the second weakest side: tiles along one edge hide that side's lines; a
    lattice one cell too far out has its ring on the rim); ``beyond`` how clearly any cross the ring just
    outside it (the strongest side; none outside the picture)."""
    n_x, n_y = cross_v.shape[1] - n, cross_h.shape[1] - n  # window starts along x and y
    if n_x <= 0 or n_y <= 0:
        return tuple(np.zeros((3, 0, 0)))
    my, kx = np.mgrid[0:n_y, 0:n_x]
    return (_window_lines(cross_v, cross_h, n, my.ravel(), kx.ravel()).reshape(n_y, n_x),
            *_ring_and_beyond(cross_v, cross_h, n))


def _window_lines(cross_v: np.ndarray, cross_h: np.ndarray, n: int, my: np.ndarray, kx: np.ndarray) -> np.ndarray:
    """``line`` of :func:`_window_evidence` for the placements (my[i], kx[i]) alone."""
    windows_v = _windows(cross_v, (n, n - 1), (0, 1))[my, kx + 1]
    windows_h = _windows(cross_h, (n, n - 1), (0, 1))[kx, my + 1]
    return np.minimum(_median(windows_v.reshape(len(my), -1)), _median(windows_h.reshape(len(my), -1)))


def _ring_and_beyond(cross_v: np.ndarray, cross_h: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``ring`` and ``beyond`` of :func:`_window_evidence` (one median per strip, so cheap)."""
    n_x, n_y = cross_v.shape[1] - n, cross_h.shape[1] - n
    # Median of each strip over n-1 consecutive lines, with a strip of zeros beyond either end.
    strip_v = _padded_rows(_median(_windows(cross_v, (n - 1,), (1,))))
    strip_h = _padded_rows(_median(_windows(cross_h, (n - 1,), (1,))))
    my, kx = np.mgrid[0:n_y, 0:n_x]
    sides = np.stack([strip_v[my + 1, kx + 1], strip_v[my + n, kx + 1], strip_h[kx + 1, my + 1],
                      strip_h[kx + n, my + 1]])
    ring = np.sort(sides, axis=0)[1]
    beyond = np.stack([strip_v[my, kx + 1], strip_v[my + n + 1, kx + 1], strip_h[kx, my + 1],
                       strip_h[kx + n + 1, my + 1]]).max(axis=0)
    return ring, beyond


def _window_scores(cross_v: np.ndarray, cross_h: np.ndarray, n: int,
                   best_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(score, line), each (my, kx), for every placement of an n x n grid (:func:`_window_evidence`): the
    score is the line contrast plus that across the ring less that beyond it. A placement whose lines
    hardly show (under MIN_CONTRAST / 2) scores -inf.

    ``best_only``: only the best placement's figures are needed (the others are -inf, and so is any that
    ties it but comes later). ``line``, a median over the window's n(n-1) crossings per axis, is then
    worked out only where it could win: it is at most the largest of the window's column medians (each
    of n-1 columns has over half its values at or below its median, together over half the window's), so
    the placements are taken in order of that bound until the bound falls below the best score found."""
    n_x, n_y = cross_v.shape[1] - n, cross_h.shape[1] - n
    if not best_only or n_x <= 0 or n_y <= 0:
        line, ring, beyond = _window_evidence(cross_v, cross_h, n)
        score = line + RING_WEIGHT * (ring - np.maximum(beyond, 0.0))
        return np.where(line >= MIN_CONTRAST / 2, score, -np.inf), line
    ring, beyond = _ring_and_beyond(cross_v, cross_h, n)
    rest = RING_WEIGHT * (ring - np.maximum(beyond, 0.0))
    column_v = _windows(_median(_windows(cross_v, (n,), (0,))), (n - 1,), (1,)).max(axis=-1)
    column_h = _windows(_median(_windows(cross_h, (n,), (0,))), (n - 1,), (1,)).max(axis=-1)
    bound_line = np.minimum(column_v[:n_y, 1 : n_x + 1], column_h[:n_x, 1 : n_y + 1].T)
    bound = np.where(bound_line >= MIN_CONTRAST / 2, bound_line + rest, -np.inf).ravel()
    score = np.full(n_y * n_x, -np.inf, np.float32)
    line = np.full(n_y * n_x, -np.inf, np.float32)
    order = np.argsort(-bound, kind="stable")
    best, done = -np.inf, 0
    while done < len(order) and bound[order[done]] >= best and np.isfinite(bound[order[done]]):
        batch = order[done : done + 16]
        batch = batch[bound[batch] >= best]
        my, kx = np.divmod(batch, n_x)
        line[batch] = _window_lines(cross_v, cross_h, n, my, kx)
        score[batch] = np.where(line[batch] >= MIN_CONTRAST / 2, line[batch] + rest[my, kx], -np.inf)
        best = max(best, float(score[batch].max()))
        done += 16
    return score.reshape(n_y, n_x), line.reshape(n_y, n_x)


def _asymmetry(cells: np.ndarray, n: int, my: np.ndarray, kx: np.ndarray) -> np.ndarray:
    """How far each n x n block of cell colours (Lab, one per cell) from (my[i], kx[i]) is from the premium
    layout's symmetry (mirror left-right, top-bottom and half turn), relative to its spread: about 0.2-0.5
    on a board, over 1 on a misplaced grid."""
    blocks = _windows(cells, (n, n), (0, 1))[my, kx].transpose(0, 2, 3, 1)  # (k, n, n, Lab)
    spread = np.linalg.norm(blocks - blocks.mean(axis=(1, 2), keepdims=True), axis=3).mean(axis=(1, 2)) + 1.0
    d = [np.linalg.norm(blocks - other, axis=3).mean(axis=(1, 2))
         for other in (blocks[:, ::-1, ::-1], blocks[:, :, ::-1], blocks[:, ::-1])]
    return np.mean(d, axis=0) / spread


@functools.cache
def _keep_freed_memory() -> None:
    """Let the C library keep freed memory for the next frame (once per process; glibc only, else nothing).

    Locating allocates some fifty arrays of 0.1-4 MB per frame (the line segment detector's buffers, warped
    pictures, responses). By default glibc maps each of them fresh and hands it back when freed, so every
    page is faulted in again on every frame: about 1900 faults a frame, 3 us each on the measuring machine
    (a tenth of the time). Allocations up to 16 MB now come from the heap, which keeps 16 MB spare."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-2, 16 << 20)  # M_TOP_PAD
        libc.mallopt(-3, 16 << 20)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass


def find_grid(frame: np.ndarray, grid: int | None = None, pyramid: Pyramid | None = None) -> Found:
    """The playing grid in a raw frame; raises :class:`BoardNotFound` with the reason when there is none.
    ``pyramid``: the frame's :class:`Pyramid`, when its shrunk copies are shared with other steps."""
    _keep_freed_memory()
    if frame is None or frame.ndim != 3 or min(frame.shape[:2]) < 64:
        raise BoardNotFound("the image is too small or not a colour picture")
    grids = GRIDS if grid is None else (grid,)
    pyramid = Pyramid(frame) if pyramid is None else pyramid
    k_work = work_level(frame.shape)
    k_small = k_work + _shrink_steps(pyramid.level(k_work).shape, SEGMENT_SIDE)
    try:
        found = _find_grid(pyramid, grids, k_work, k_small)
    except BoardNotFound as error:
        if k_small == k_work:
            raise
        # A small board on strong wood grain: at SEGMENT_SIDE its cells span a dozen pixels and its lines
        # give too few segments to outvote the grain; in the thin-line response at the work picture's size
        # they do. Such a grid must show its lines clearly (RETRY_LINES).
        again = _thin_at_work_size(pyramid, grids, k_work)
        if again is None or again.evidence[0] < RETRY_LINES:
            raise error from None
        return again
    if k_small == k_work or is_grid(found.evidence):
        return found
    # The grain can also win with a lattice that is no grid by its own evidence (lines beyond its ring, not across
    # it): held-out synthetic classic game 1011 photo 2, a board a third of the frame amid strong grain, was found
    # 1.5 cells off (ring -0.11, beyond 0.28) and at the work picture's size 0.06 cell off (0.81, 0.86, 0.22).
    again = _thin_at_work_size(pyramid, grids, k_work)
    if again is not None and is_grid(again.evidence) and again.evidence[0] >= max(RETRY_LINES, found.evidence[0]):
        return again
    return found


def _thin_at_work_size(pyramid: Pyramid, grids: tuple[int, ...], k_work: int) -> Found | None:
    """:func:`_find_grid` on the thin-line segments of the work picture itself, or None when it finds nothing."""
    try:
        return _find_grid(pyramid, grids, k_work, k_work, sources=("thin",))
    except BoardNotFound:
        return None


def _find_grid(pyramid: Pyramid, grids: tuple[int, ...], k_work: int, k_small: int,
               sources: tuple[str, ...] = ("picture", "both", "thin")) -> Found:
    """:func:`find_grid` with its segments searched in the pyramid's level ``k_small``, from ``sources`` (see
    below) in turn."""
    frame = pyramid.frame
    work = pyramid.warpable(k_work)
    scale, s2 = work.shape[1] / frame.shape[1], pyramid.level(k_small).shape[1] / work.shape[1]
    grey_small, grey = pyramid.grey(k_small), pyramid.grey(k_work)
    # First from the picture's own segments; when that grid is unclear, or its size hardly beats the other
    # size, again with the thin-line response's segments added (that result stands), and when it is still
    # unclear from the thin-line segments alone, kept when its lines show clearly (CASCADE_LINES) and it
    # scores higher. Wood grain can outnumber a grid's segments in the picture, and in both sets together it
    # still sets the directions searched, while in the thin-line response alone it mostly drops out: on tuning
    # seeds 0-799 this found 5 boards not found before (lines 0.68-0.78); the 5 grids it found wrong showed
    # lines of 0.21-0.50, and all but one of those are now left to the earlier result.
    # The thin-line segments alone stand also when nothing was found before them (or they are the only source).
    picture_segs = _segments(grey_small) if "picture" in sources else np.zeros((0, 4), np.float32)
    thin_segs: np.ndarray | None = None
    best, best_segs = None, picture_segs
    for source in sources:
        if source == "picture":
            segs = picture_segs
        else:
            if thin_segs is None:
                thin_segs = _segments(_thin_picture(grey_small))
            segs = np.concatenate([picture_segs, thin_segs]) if source == "both" else thin_segs
        found = _grid_from_segments(work, grey, segs, s2, grids, np.random.default_rng(0)) if len(segs) >= 8 else None
        clear_and_better = found is not None and found[3] >= CASCADE_LINES and (best is None or found[0] > best[0])
        if source != "thin" or clear_and_better or best is None:
            best, best_segs = found, segs
        if best is not None and best[3] >= CASCADE_LINES and best[4] >= CASCADE_MARGIN:
            break
    if best is None or best[3] < MIN_CONTRAST:
        raise BoardNotFound(
            "no board grid found: no part of the picture shows a lattice of evenly spaced lines"
            + ("" if best is None else f" (best lattice contrast {best[3]:.2f}, needs {MIN_CONTRAST})")
        )
    score, n, corners = best[:3]
    corners, _ = refine_grid(grey, clockwise(corners), n)
    evidence = grid_evidence(grey, corners, n)
    if evidence[0] < RECHECK_LINES:
        inside = best_segs[_segments_within(best_segs, best[2] * s2, n)]
        again = (_grid_from_segments(work, grey, inside, s2, grids, np.random.default_rng(0))
                 if len(inside) >= 8 else None)
        if again is not None and again[3] >= MIN_CONTRAST:
            other, _ = refine_grid(grey, clockwise(again[2]), again[1])
            other_evidence = grid_evidence(grey, other, again[1])
            if other_evidence[0] > evidence[0]:
                score, n, corners, evidence = again[0], again[1], other, other_evidence
    if evidence[0] < GRID_LINES:
        # A lattice found a fraction of a cell off, late in a game when tiles hide most lines, is pinned in one
        # pass only part of the way (room-low game04 photo 27: lines 0.22 after one pass, 0.59 after two); only a
        # grid that would be refused is pinned again, so no grid found before moves.
        again, _ = refine_grid(grey, corners, n)
        again_evidence = grid_evidence(grey, again, n)
        if again_evidence[0] > evidence[0]:
            corners, evidence = again, again_evidence
    if evidence[0] < GRID_LINES:
        raise BoardNotFound("no board grid found: the best lattice of lines shows too faintly across its cells "
                            f"({evidence[0]:.2f}, needs {GRID_LINES})")
    shift = premium_shift(work, corners, n)
    if shift is not None:
        moved = clockwise(shifted_grid(corners, n, *shift))
        # Pinned on its lines again, unless that runs off (the lines near the edge it came from pull).
        pinned = refine_grid(grey, moved, n)[0]
        (lines, ring, beyond), better = max((grid_evidence(grey, c, n), i) for i, c in enumerate((moved, pinned)))
        # Its edge must be the board's: lines across its outer ring, not beyond it. A board whose premiums lie
        # elsewhere than the built-in layout's (one being calibrated) would be moved off itself: ring 0.03,
        # beyond 0.81, where the grids moved back onto boards showed more across the ring than beyond.
        if lines >= GRID_LINES and ring > beyond:
            corners, evidence = (moved, pinned)[better], (lines, ring, beyond)
    return Found(clockwise(corners / scale), n, float(score), len(best_segs), evidence)


@functools.cache
def _premium_mask(n: int) -> np.ndarray | None:
    """Which squares the built-in layout of an n x n board marks as premium (None when there is none)."""
    from engine.layout import Premium, available_layouts, load_layout

    for name in available_layouts():
        layout = load_layout(name)
        if layout.size == n:
            return np.array([[p is not Premium.NONE for p in row] for row in layout.grid])
    return None


def premium_shift(picture: np.ndarray, corners: np.ndarray, n: int) -> tuple[int, int] | None:
    """The whole cells (rows, columns) by which a lattice at ``corners`` (clockwise, in a colour picture's
    pixels) must move to lie on the board's premium squares, when it clearly must (see PREMIUM_CELLS); None
    when it lies right, the board shows no premium pattern, or no layout of its size is known."""
    mask = _premium_mask(n)
    if mask is None or picture.ndim != 3:
        return None
    px, m = 10, PREMIUM_CELLS
    side = n + 2 * m
    dst = np.array([[m, m], [m + n, m], [m + n, m + n], [m, m + n]], np.float32) * px
    to_canon = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    warped = warp(picture, to_canon, (side * px, side * px))
    lab = cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).astype(np.float32)
    # Each cell's middle (away from the lines and a tile's edge).
    cells = lab.reshape(side, px, side, px, 3)[:, 3:7, :, 3:7].mean(axis=(1, 3))
    common = np.median(cells[m : m + n, m : m + n].reshape(-1, 3), axis=0)
    distance = np.linalg.norm((cells - common) * np.array([0.5, 1.0, 1.0], np.float32), axis=2).astype(np.float32)
    # Every shift at once: the sums over each n x n window, of all its cells and of those under the mask.
    whole = cv2.matchTemplate(distance, np.ones((n, n), np.float32), cv2.TM_CCORR)
    scores = np.full_like(whole, -np.inf)
    for k in range(4):
        premium = np.ascontiguousarray(np.rot90(mask, k)).astype(np.float32)
        count = float(premium.sum())
        on = cv2.matchTemplate(distance, premium, cv2.TM_CCORR)
        scores = np.maximum(scores, on / count - (whole - on) / (n * n - count))
    best_r, best_c = np.unravel_index(int(np.argmax(scores)), scores.shape)
    best, top, here = (int(best_r) - m, int(best_c) - m), float(scores[best_r, best_c]), float(scores[m, m])
    if best == (0, 0) or top - here < PREMIUM_GAIN or here * PREMIUM_RATIO > top:
        return None
    return best


def shifted_grid(corners: np.ndarray, n: int, rows: int, cols: int) -> np.ndarray:
    """The corners (same pixels, same order) of a lattice at ``corners`` (clockwise) moved by whole cells."""
    square = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    to_cells = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), square)
    moved = square + np.array([cols, rows], np.float32)
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2), np.linalg.inv(to_cells)).reshape(4, 2).astype(np.float32)


def _segments_within(segs: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """Which segments have their middle on the grid at ``corners`` (same pixels) or within INSIDE_GROWTH
    of its side around it."""
    square = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    to_grid = cv2.getPerspectiveTransform(clockwise(corners).astype(np.float32), square)
    middles = ((segs[:, :2] + segs[:, 2:]) / 2).astype(np.float32).reshape(-1, 1, 2)
    at = cv2.perspectiveTransform(middles, to_grid).reshape(-1, 2)
    room = INSIDE_GROWTH * n
    return np.all((at >= -room) & (at <= n + room), axis=1)


def grid_evidence(grey: np.ndarray, corners: np.ndarray, n: int, cell_px: int = 12) -> tuple[float, float, float]:
    """(line, ring, beyond) for a grid placed at ``corners`` in a grey picture, each -1..1.

    ``line``: how clearly the lattice's lines show across the grid's cells; ``ring``: across its outer
    ring of cells (second weakest side); ``beyond``: across the ring just outside it (strongest side). A true
    grid has all lines and its ring lines, and none beyond: :func:`is_grid` tells."""
    m = 2 * cell_px
    side = n * cell_px
    dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    hom = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    size = side + 2 * m
    warped = warp(grey, hom, (size, size))
    resp = axis_responses(warped, max(3, cell_px // 3) | 1)
    lines = m + cell_px * np.arange(-2, n + 3, dtype=np.float64)
    cross_v = _crossings(resp[0], lines, lines, cell_px, cell_px)
    cross_h = _crossings(resp[1], lines, lines, cell_px, cell_px, transposed=True)
    return _evidence_at(cross_v, cross_h, n, 2, 2)  # the grid starts at line 2


def _evidence_at(cross_v: np.ndarray, cross_h: np.ndarray, n: int, my: int, kx: int) -> tuple[float, float, float]:
    """(line, ring, beyond) of :func:`_window_evidence` for the one placement (my, kx) (the same medians)."""
    def strip(cross: np.ndarray, row: int, first: int) -> float:
        # The median over n-1 consecutive lines of one strip; no lines outside the picture.
        return float(_median(cross[row, first : first + n - 1])) if 0 <= row < len(cross) else 0.0

    line = float(_window_lines(cross_v, cross_h, n, np.array([my]), np.array([kx]))[0])
    sides = sorted([strip(cross_v, my, kx + 1), strip(cross_v, my + n - 1, kx + 1),
                    strip(cross_h, kx, my + 1), strip(cross_h, kx + n - 1, my + 1)])
    beyond = max(strip(cross_v, my - 1, kx + 1), strip(cross_v, my + n, kx + 1),
                 strip(cross_h, kx - 1, my + 1), strip(cross_h, kx + n, my + 1))
    return line, sides[1], beyond


def is_grid(evidence: tuple[float, float, float]) -> bool:
    """Whether :func:`grid_evidence` describes a real grid (lines, lines across the ring, fewer beyond)."""
    line, ring, beyond = evidence
    return line >= MIN_CONTRAST and ring > beyond

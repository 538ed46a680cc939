# SPDX-License-Identifier: GPL-3.0-or-later
"""Find the board in a frame, refine on its printed grid lines and warp it to a canonical grid.

The board's coloured area is segmented by its distance to the profile's surface colour (threshold chosen
per frame by Otsu, so brightness and contrast need not match the profile), its outline reduced to four
corners, and the profile's grid inset gives a first grid. The printed lines then pin the grid down: in
a warped image the dark lines form a regular lattice, and a small search for offset and pitch per axis
corrects the corners. :class:`Locator` caches the result and only confirms it on later frames.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision import find
from vision.colour import apply_gains, white_gains
from vision.errors import BoardNotFound
from vision.occupancy import lab_distance
from vision.profile import BoardProfile

_SEARCH_WIDTH = 240
#: A refinement pass that moves no corner by more than this (in cells) ends the refinement: the fit
#: itself is good to a few hundredths of a cell, so another pass only jitters.
_CONVERGED = 0.08
#: The structure's grid is mostly pinned on its lines already: a first refinement pass on it that moves a
#: corner further than _RUNAWAY (cells) and leaves the lines showing less than _KEPT of the structure grid's
#: clearness (vision.find.grid_evidence) followed the tiles' colour, not the board's lines: the refinement
#: stops there. On 30 synthetic room scenes, 10 jheidel photos and 5 frames of a synthetic tournament game
#: the refined grid won after first passes of 0.06-0.12 cell that kept 1.01-1.04 of the clearness, and once
#: after 0.30 keeping 0.88 (the structure's grid half a cell off, fixed in three passes); of the first passes
#: that moved more than 0.25, all but four kept less than 0.75 (most turned the lines negative).
_RUNAWAY = 0.25
_KEPT = 0.75
#: A "line" beyond the lattice with this share of the lattice's contrast means the lattice slipped.
_BEYOND_LIMIT = 0.2


@dataclass(frozen=True)
class Geometry:
    """Where the grid is: its four outer corners in frame pixels (tl, tr, br, bl)."""

    corners: np.ndarray  # float32 (4, 2)
    grid: int
    #: Contrast of the grid lines against the cell centres (higher = surer).
    line_score: float

    def to_canonical(self, cell_px: int, margin: float = 0.0) -> np.ndarray:
        """Homography from frame pixels to a canonical image of ``grid*cell_px`` (+ margin cells each side)."""
        m = margin * cell_px
        side = self.grid * cell_px
        dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
        return cv2.getPerspectiveTransform(self.corners.astype(np.float32), dst)

    @property
    def cell_size(self) -> float:
        """Approximate side of a cell in frame pixels."""
        return _frame_cell(self)

    def warp(self, frame: np.ndarray, cell_px: int, margin: float = 0.0) -> np.ndarray:
        """The grid (and ``margin`` cells around it) at ``cell_px`` pixels a cell, corners[0] top left; a BGRA
        ``frame`` (:meth:`vision.find.Pyramid.warpable`) comes out BGR."""
        size = int(round((self.grid + 2 * margin) * cell_px))
        return find.warp(frame, self.to_canonical(cell_px, margin), (size, size))


#: The board's own white balance is measured on its grid and this many cells around it (its rim, where the board
#: has one): on the ScrabScrap photos, cropped to the board and a little of its rim, that gives the gains of the
#: whole photo, which the built-in profiles' colours were measured in.
BOARD_GAINS_MARGIN = 1.5
#: Pixels per cell of the small picture of the board and its rim both white balances are measured on (at 4 the
#: board's own gains came out otherwise on some frames: held-out synthetic Alfapet games 69/71 moves, 70 at 8).
_GAINS_PX = 8


def board_gains(frame: np.ndarray, geom: Geometry, profile: BoardProfile, frame_gains: np.ndarray,
                pyramid: find.Pyramid | None = None) -> np.ndarray:
    """The white balance the board's cells are measured in: the whole frame's (``frame_gains``) or the board's own
    (:func:`vision.colour.white_gains` of the board and its rim, BOARD_GAINS_MARGIN), whichever makes the cells look
    more like the profile's colours (squares, tiles, stop tiles).

    On an orange table or a magenta cloth the frame's neutral surface is the cloth, and its gains turned the board
    blue or green (2.4 on blue, 0.55 on red where the board's own are 1.7 and 1.3); on a green board with a black
    rim and a few tiles, the board's own pixels hold too few neutral ones and its gains turned the board dark.
    ``pyramid``: the frame's shrunk copies; the small picture is then warped from the smallest in which a cell still
    spans twice its pixels (from a 2 MP frame it cost three times as much)."""
    if pyramid is not None:
        k = _level(geom.corners, geom.grid, 2 * _GAINS_PX)
        frame, geom = pyramid.warpable(k), Geometry(pyramid.to_level(geom.corners, k), geom.grid, geom.line_score)
    board = geom.warp(frame, _GAINS_PX, BOARD_GAINS_MARGIN)
    rim = int(BOARD_GAINS_MARGIN * _GAINS_PX)
    grid = board[rim : rim + geom.grid * _GAINS_PX, rim : rim + geom.grid * _GAINS_PX]
    known = [*profile.squares.values(), profile.tile, *([profile.stop] if profile.stop is not None else [])]
    references = cv2.cvtColor(np.array([known], np.uint8), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    own = white_gains(board)
    return min((frame_gains, own), key=lambda gains: _misfit(grid, geom.grid, gains, references))


def _misfit(grid_picture: np.ndarray, grid: int, gains: np.ndarray, references: np.ndarray) -> float:
    """The median over a grid's cells (``grid_picture``: the grid at _GAINS_PX a cell) of each cell's colour
    distance, in ``gains``, to the nearest of ``references`` (Lab; lightness counted half)."""
    lab = cv2.cvtColor(apply_gains(np.ascontiguousarray(grid_picture), gains), cv2.COLOR_BGR2LAB).astype(np.float32)
    middle = slice(_GAINS_PX // 4, _GAINS_PX - _GAINS_PX // 4)
    cells = lab.reshape(grid, _GAINS_PX, grid, _GAINS_PX, 3)[:, middle, :, middle].mean(axis=(1, 3)).reshape(-1, 3)
    return float(np.median(lab_distance(cells[:, None, :], references[None]).min(axis=1)))


def _lab(colour: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.array([[colour]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


def _order(pts: np.ndarray) -> np.ndarray:
    pts = pts.reshape(-1, 2).astype(np.float32)
    s = pts.sum(axis=1)
    d = pts[:, 1] - pts[:, 0]
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]], np.float32)


def _gained(image: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    return image if gains is None else apply_gains(image, gains)


def find_board_area(frame: np.ndarray, profile: BoardProfile, gains: np.ndarray | None = None,
                    pyramid: find.Pyramid | None = None) -> np.ndarray:
    """Corners (tl, tr, br, bl) of the board's coloured area in a frame, white-balanced by ``gains``
    (``None``: the frame already is); ``pyramid``: the frame's shrunk copies, when shared with other steps."""
    h, w = frame.shape[:2]
    # Shrunk by a power of two, halving again and again: INTER_AREA's fast path (by 8 at once cost 3 ms on a
    # 2 MP frame, three halvings 1.5).
    steps = max(0, int(round(np.log2(max(w, 1) / _SEARCH_WIDTH))))
    small = (find.Pyramid(frame) if pyramid is None else pyramid).level(steps)
    scale = small.shape[1] / w
    small = _gained(small, gains)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = _lab(profile.surface)
    dist = np.hypot(lab[..., 1] - ref[1], lab[..., 2] - ref[2]) + 0.25 * np.abs(lab[..., 0] - ref[0])
    d8 = np.clip(dist, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = (d8 <= min(max(otsu, 10), 45)).astype(np.uint8) * 255
    k = max(3, _SEARCH_WIDTH // 40) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise BoardNotFound(f"no area of the board colour {profile.surface!r} in the frame; check the profile")
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < 0.1 * mask.size:
        raise BoardNotFound(
            f"the largest area of the board colour {profile.surface!r} covers only "
            f"{cv2.contourArea(biggest) / mask.size:.0%} of the frame; is the board in view and the profile right?"
        )
    hull = cv2.convexHull(biggest)
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull))
    return _order(np.asarray(quad, np.float32) / scale)


def _inset(area: np.ndarray, inset: tuple[float, float, float, float]) -> np.ndarray:
    top, right, bottom, left = inset
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, area.astype(np.float32))
    pts = np.array([[left, top], [1 - right, top], [1 - right, 1 - bottom], [left, 1 - bottom]], np.float32)
    return cv2.perspectiveTransform(pts.reshape(1, 4, 2), h).reshape(4, 2)


def _line_image(warped: np.ndarray, cell_px: int) -> np.ndarray:
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped
    k = max(3, cell_px // 4) | 1
    return cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, np.ones((k, k), np.uint8)).astype(np.float32)


_PITCH_STEPS = np.linspace(-0.04, 0.04, 17)
_START_STEPS = np.arange(-0.45, 0.451, 0.05)
#: Second, finer search around the best coarse lattice (a fifth of a coarse step either way).
_FINE_PITCH = np.linspace(-0.005, 0.005, 11)
_FINE_START = np.linspace(-0.05, 0.05, 11)


def _every_other_pixel(picture: np.ndarray) -> np.ndarray:
    """``picture[::2, ::2]``, contiguous: of an even-sized picture by cv2.resize's nearest neighbour (source pixel
    2i, the same pixels), which copies them several times faster than numpy's strided copy."""
    h, w = picture.shape[:2]
    if h % 2 or w % 2:
        return np.ascontiguousarray(picture[::2, ::2])
    return cv2.resize(picture, (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)


def _board_weight(warped: np.ndarray, cell_px: int, tile: tuple[int, int, int] | None) -> np.ndarray:
    """Per pixel, how much the neighbourhood looks like bare board rather than tiles (0..1).

    Tiles hide the printed lines and their letters draw line-like strokes mid-cell, so the lattice is
    measured where the board shows. Smoothed over a cell, so a line between two empty cells keeps its
    full weight and one beside a tile half of it.
    """
    if tile is None or warped.ndim != 3:
        return np.ones(warped.shape[:2], np.float32)
    # Worked out on every other pixel each way and scaled back up: the weight is smoothed over half a cell
    # anyway, and the colour conversion of every pixel cost a third of a refinement pass.
    half = _every_other_pixel(warped)
    cell = cell_px / 2
    lab = cv2.cvtColor(half, cv2.COLOR_BGR2LAB)
    ref = _lab(tile)
    # Colour only: a letter's dark ink must still count as tile. The distance is compared squared, in
    # integers (Lab bytes and a byte reference): the float distance of every pixel cost half the time.
    a, b = (lab[..., channel].astype(np.int32) - int(ref[channel]) for channel in (1, 2))
    squared = a * a + b * b
    # Relative to the frame's own spread, so no fixed colour threshold is needed.
    sample = lab[::2, ::2].astype(np.float32)
    scale = max(_upper_quartile(np.hypot(sample[..., 1] - ref[1], sample[..., 2] - ref[2])), 1e-3)
    k = max(3, int(cell) // 3) | 1
    tile_like = cv2.morphologyEx((squared < (0.35 * scale) ** 2).astype(np.uint8), cv2.MORPH_CLOSE,
                                 np.ones((k, k), np.uint8))
    side = max(1, int(cell) // 2)
    weight = cv2.blur(1.0 - tile_like.astype(np.float32), (side, side))
    # Half a pixel of the warped picture off where it is scaled back: nothing beside the half-cell blur.
    weight = cv2.resize(weight, (warped.shape[1], warped.shape[0]), interpolation=cv2.INTER_LINEAR)
    return weight + 1e-3


def _upper_quartile(values: np.ndarray) -> float:
    """np.percentile(values, 75) (its linear method and arithmetic, so the same number) from a partition at the
    two values it lies between: np.percentile's own overhead was a third of a millisecond a call."""
    flat = values.ravel()
    count = flat.size
    at = count * 0.75 + 0.25 - 1  # numpy's virtual index for the linear method
    below = int(np.floor(at))
    above = min(below + 1, count - 1)
    ordered = np.partition(flat, [below, above])
    low, high, fraction = ordered[below], ordered[above], at - below
    # In the values' own type (a Python float is weak, as the fraction is in numpy's arithmetic).
    step = high - low
    return float(high - step * (1 - fraction) if fraction >= 0.5 else low + step * fraction)


def _band_profile(lines: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Weighted mean over the rows of a band (every third row is plenty)."""
    lw, ww = lines[::3], weight[::3]
    return (lw * ww).sum(axis=0) / ww.sum(axis=0)


def _column_band_profile(lines: np.ndarray, weight: np.ndarray, band: slice) -> np.ndarray:
    """:func:`_band_profile` of the columns ``band`` (as rows of the transposed pictures): only the columns it
    reads are transposed (the same values; transposing both whole pictures cost a tenth of a pass)."""
    columns = range(*band.indices(lines.shape[1]))[::3]
    lw, ww = np.ascontiguousarray(lines[:, columns].T), np.ascontiguousarray(weight[:, columns].T)
    return (lw * ww).sum(axis=0) / ww.sum(axis=0)


def _fit_axes(profiles: list[np.ndarray], n_lines: int, start: float,
              pitch: float) -> list[tuple[float, float, float]]:
    """The best lattice (start, pitch, score) near the guess for each of several 1-D line responses (of one
    length); a lattice's score is the response on its lines minus the response halfway between them.

    Every candidate lattice is scored at once: a coarse search over +-0.45 cell and +-4 % pitch, then a fine
    one around each profile's best, so the lattice is placed to a few hundredths of a cell. A profile whose
    best coarse score is negative keeps that (no lattice there); one where none fits inside keeps the guess
    with score -1. The profiles are fitted together (the coarse lattices are the same for all): fitted one at
    a time, numpy's per-call overhead cost a third more."""
    stack = np.stack(profiles).astype(np.float64)
    scores, st, p = _lattice_scores(stack, n_lines, (start + _START_STEPS * pitch)[None, :],
                                    (pitch * (1 + _PITCH_STEPS))[None, :])
    out: list[tuple[float, float, float] | None] = [None] * len(profiles)
    coarse = []
    for k in range(len(profiles)):
        best = int(np.argmax(scores[k]))
        if not np.isfinite(scores[k, best]):  # no lattice inside: the guess stands
            out[k] = (start, pitch, -1.0)
        elif scores[k, best] < 0:
            out[k] = (float(st[0, best]), float(p[0, best]), float(scores[k, best]))
        coarse.append((float(st[0, best]), float(p[0, best])))
    starts = np.stack([s + _FINE_START * pitch for s, _ in coarse])
    pitches = np.stack([q * (1 + _FINE_PITCH) for _, q in coarse])
    scores, st, p = _lattice_scores(stack, n_lines, starts, pitches)
    for k in range(len(profiles)):
        if out[k] is None:
            best = int(np.argmax(scores[k]))
            if np.isfinite(scores[k, best]):
                out[k] = (float(st[k, best]), float(p[k, best]), float(scores[k, best]))
            else:
                out[k] = (float(starts[k, len(_FINE_START) // 2]), float(pitches[k, len(_FINE_PITCH) // 2]), -np.inf)
    return [fit for fit in out if fit is not None]


def _lattice_scores(profiles: np.ndarray, n_lines: int, starts: np.ndarray,
                    pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The score of every candidate lattice, per profile (rows of ``profiles``; ``starts`` and
    ``pitches`` one row for all or one per profile): (scores, their starts, their pitches), -inf where a
    lattice does not fit inside. Sampled as np.interp samples (the same values)."""
    length = profiles.shape[1]
    p, st = np.broadcast_arrays(pitches[:, :, None], starts[:, None, :])
    p, st = p.reshape(len(p), -1), st.reshape(len(st), -1)
    pos = st[..., None] + np.arange(n_lines, dtype=np.float64) * p[..., None]  # (rows, C, n_lines)
    inside = (pos[..., 0] >= 0) & (pos[..., -1] <= length - 1)
    rows = np.arange(len(profiles))[:, None, None] if len(pos) == len(profiles) else slice(None)
    on = _interp(profiles, pos, rows).mean(axis=-1)
    mid = _interp(profiles, pos[..., :-1] + p[..., None] / 2, rows).mean(axis=-1)
    return np.where(np.broadcast_to(inside, on.shape), on - mid, -np.inf), st, p


def _interp(profiles: np.ndarray, at: np.ndarray, rows) -> np.ndarray:
    """np.interp(at, arange(length), profile) per profile (its arithmetic, so the same values), clamped
    at the ends (where :func:`_lattice_scores` discards the lattice anyway)."""
    length = profiles.shape[1]
    below = np.clip(np.floor(at), 0, length - 1)
    index = below.astype(np.intp)
    above = np.minimum(index + 1, length - 1)
    if isinstance(rows, slice):  # one set of positions for every profile
        low, high = profiles[:, index[0]], profiles[:, above[0]]
    else:
        low, high = profiles[rows, index], profiles[rows, above]
    return (high - low) * (at - below) + low


def refine_on_lines(frame: np.ndarray, corners: np.ndarray, grid: int, cell_px: int = 24,
                    gains: np.ndarray | None = None, tile: tuple[int, int, int] | None = None,
                    fine_px: int | None = None) -> Geometry:
    """Snap a grid guess onto the printed grid lines.

    The vertical lines are fitted as a lattice in a band near the top and one near the bottom, the
    horizontal lines in bands near the left and right, so rotation, shear and perspective left over
    from the first guess are corrected too. Up to three passes (each may move a corner by up to ~0.45
    cell); it stops early once a pass moves no corner by more than _CONVERGED of a cell. ``fine_px`` (default
    ``cell_px``) is the resolution of the passes after the first; 24 px per cell throughout measured the
    steadiest (16 px is twice as fast but lets a half-cell-off first guess run away).
    """
    refined = _refine(frame, corners, grid, cell_px, gains, tile, fine_px)
    assert refined is not None  # without a limit on the first pass there is always a result
    return refined[0]


def _refine(frame: np.ndarray, corners: np.ndarray, grid: int, cell_px: int, gains: np.ndarray | None,
            tile: tuple[int, int, int] | None, fine_px: int | None,
            runs_off: Callable[[Geometry, float], bool] | None = None, pyramid: find.Pyramid | None = None,
            ) -> tuple[Geometry, tuple[float, float] | None] | None:
    """:func:`refine_on_lines`, and the :func:`line_scores` of its result when they were measured on the way
    (on the frame itself). None instead when ``runs_off`` says so of the first pass's grid and how far it
    moved (in cells). With the frame's ``pyramid``, the lattice is fitted in its smallest copy where a cell
    still spans _LEVEL_CELL pixels (:func:`_level`), the corners carried there and back."""
    k = 0 if pyramid is None else _level(corners, grid)
    source = frame if pyramid is None else pyramid.warpable(k)

    def in_frame(g: Geometry) -> Geometry:
        return g if pyramid is None else Geometry(pyramid.from_level(g.corners, k), g.grid, g.line_score)

    geom = Geometry((corners if pyramid is None else pyramid.to_level(corners, k)).astype(np.float32), grid, 0.0)
    candidates = []
    for i in range(3):
        geom, moved = _refine_pass(source, geom, cell_px if i == 0 or fine_px is None else fine_px, gains, tile)
        if i == 0 and runs_off is not None and runs_off(in_frame(geom), moved):
            return None
        candidates.append(geom)
        if moved < _CONVERGED:
            break
    if len(candidates) == 1:
        return in_frame(geom), None
    # A pass may also jitter away from a good fit: keep the one whose whole lattice shows the most contrast.
    scores = [line_scores(source, g, gains=gains, tile=tile) for g in candidates]
    best = max(range(len(candidates)), key=lambda i: scores[i][0])
    # Line scores measured in a shrunk copy differ from the frame's (which a cached location is checked on).
    return in_frame(candidates[best]), (scores[best] if k == 0 else None)


#: The from-scratch refinement and grid evidence measure in the frame's smallest power-of-two copy where a cell
#: still spans this many pixels: the refinement's 24 px a cell then enlarges it by a fifth at most, and a 2 MP
#: room frame (40-64 px a cell) is measured at half size, a warp from it costing half of one from the frame.
_LEVEL_CELL = 20


def _level(corners: np.ndarray, grid: int, least_cell: float = _LEVEL_CELL) -> int:
    """The :class:`vision.find.Pyramid` level for a grid at ``corners`` (frame pixels): the smallest copy where a
    cell still spans ``least_cell`` pixels (see _LEVEL_CELL)."""
    cell = _frame_cell(Geometry(np.asarray(corners, np.float32), grid, 0.0))
    k = 0
    while cell / 2 ** (k + 1) >= least_cell and k < 4:
        k += 1
    return k


def _refine_pass(frame: np.ndarray, geom: Geometry, cell_px: int, gains: np.ndarray | None,
                 tile: tuple[int, int, int] | None) -> tuple[Geometry, float]:
    """One lattice fit; returns the new geometry and how far its corners moved (in cells)."""
    grid = geom.grid
    margin = 1.0
    start = margin * cell_px
    band = max(2, int(round(grid * 0.4))) * cell_px
    end = start + grid * cell_px
    near, far = slice(int(start), int(start + band)), slice(int(end - band), int(end))
    c_near, c_far = (start + band / 2), (start + grid * cell_px - band / 2)
    to_canon = geom.to_canonical(cell_px, margin)
    warped = _gained(geom.warp(frame, cell_px, margin), gains)
    lines = _line_image(warped, cell_px)
    weight = _board_weight(warped, cell_px, tile)
    (xt, pt, s1), (xb, pb, s2), (yl, ql, s3), (yr, qr, s4) = _fit_axes(
        [_band_profile(lines[near], weight[near]), _band_profile(lines[far], weight[far]),
         _column_band_profile(lines, weight, near), _column_band_profile(lines, weight, far)], grid + 1, start, cell_px)
    # Lines x = f(y) through the two band fits, y = g(x) likewise; corners are their intersections.
    left = ((xt, c_near), (xb, c_far))
    right = ((xt + grid * pt, c_near), (xb + grid * pb, c_far))
    top = ((c_near, yl), (c_far, yr))
    bottom = ((c_near, yl + grid * ql), (c_far, yr + grid * qr))
    canon = np.array([find.cross_point(left, top), find.cross_point(right, top), find.cross_point(right, bottom),
                      find.cross_point(left, bottom)], np.float32)
    back = cv2.perspectiveTransform(canon.reshape(1, 4, 2), np.linalg.inv(to_canon)).reshape(4, 2)
    moved = float(np.abs(back - geom.corners).max()) / _frame_cell(geom)
    return Geometry(back.astype(np.float32), grid, float(min(s1, s2, s3, s4))), moved


def _frame_cell(geom: Geometry) -> float:
    """Approximate cell size in frame pixels."""
    c = geom.corners
    return max(float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / (2 * geom.grid), 1e-6)


def line_scores(frame: np.ndarray, geom: Geometry, cell_px: int = 16,
                gains: np.ndarray | None = None, tile: tuple[int, int, int] | None = None) -> tuple[float, float]:
    """Grid-line contrast for a known geometry: (the lattice, the lattice just outside the grid).

    Cheap (one small warp), so it confirms a cached location on every frame. The second figure
    catches a board moved by a whole cell: its lattice still sits on printed lines, but then the strip
    just outside one side of the grid crosses printed lines too, where a right location sees the
    board's margin (or no board at all) and no lines.
    """
    margin = 1.0
    warped = _gained(geom.warp(frame, cell_px, margin), gains)
    lines = _line_image(warped, cell_px)
    weight = _board_weight(warped, cell_px, tile)
    start = margin * cell_px
    end = start + geom.grid * cell_px
    inner = slice(int(start), int(end))
    idx = np.arange(geom.grid + 1) * cell_px + start
    ax = np.arange(lines.shape[0])

    def contrast(prof: np.ndarray) -> float:
        return float(np.interp(idx, ax, prof).mean() - np.interp(idx[:-1] + cell_px / 2, ax, prof).mean())

    def strip(lo: float, hi: float) -> slice:
        return slice(int(round(lo)), max(int(round(hi)), int(round(lo)) + 1))

    cols_t = np.ascontiguousarray(lines.T)
    whole = min(
        contrast((lines[inner] * weight[inner]).sum(axis=0) / weight[inner].sum(axis=0)),
        contrast((cols_t[inner] * weight.T[inner]).sum(axis=0) / weight.T[inner].sum(axis=0)),
    )
    outside = strip(start - 0.4 * cell_px, start - 0.1 * cell_px), strip(end + 0.1 * cell_px, end + 0.4 * cell_px)
    beyond = max(
        *(contrast(lines[band].mean(axis=0)) for band in outside),
        *(contrast(cols_t[band].mean(axis=0)) for band in outside),
    )
    return whole, beyond


def line_score(frame: np.ndarray, geom: Geometry, cell_px: int = 16, gains: np.ndarray | None = None) -> float:
    """Grid-line contrast of the whole lattice for a known geometry."""
    return line_scores(frame, geom, cell_px, gains)[0]


#: The colour guess's lines (:func:`vision.find.grid_evidence`) show at least this clearly to be kept without
#: looking for the grid's structure too: on synthetic development games right guesses showed 0.66-0.93, guesses
#: a cell or more off 0.12-0.40 (the structure path 0.67-0.95 on those frames, within 0.2 cell).
CLEAR_GUESS = 0.5
#: The colour guess is refined only when its lattice, as first placed, already shows lines this clearly (or
#: half a cell off, as clearly negative); otherwise the board's colour found something else (a table of a
#: like colour, the room) and the structure alone decides. Measured on first placements: scrabscrap photos
#: 0.66-0.77, 2 MP room frames (30 synthetic scenes, 53 jheidel photos) -0.07-0.17 (one -0.30), none of
#: which the refinement made a grid (vision.find.is_grid); refining them cost 60-90 ms a frame.
WORTH_REFINING = 0.2


def locate(frame: np.ndarray, profile: BoardProfile, gains: np.ndarray | None = None) -> Geometry:
    """Find the grid in a frame (white-balanced by ``gains``, or already when None); no hand-set corners.

    The profile's colours give a fast first guess (the board's coloured area and the grid inset in it);
    it is refined when its lines show at all (WORTH_REFINING) and kept when the structure confirms it
    clearly (:func:`vision.find.grid_evidence`: lines across the grid and its outer ring, none beyond).
    Otherwise the grid is found from its lines alone, anywhere in the frame (:func:`vision.find.find_grid`),
    and of the two the one whose lines show more clearly wins.
    Raises :class:`BoardNotFound` with the reason."""
    return _locate(frame, profile, gains)[0]


def _locate(frame: np.ndarray, profile: BoardProfile, gains: np.ndarray | None,
            pyramid: find.Pyramid | None = None) -> tuple[Geometry, tuple[float, float] | None]:
    """:func:`locate`, and the :func:`line_scores` of its result when they were measured on the way; ``pyramid``:
    the frame's shrunk copies, when shared with other steps."""
    measure = _Measures(frame, pyramid)
    guess = _colour_guess(frame, measure, profile, gains)
    # A guess whole cells off its premium squares (the board's colour reaching over a strip of its rim) is kept only
    # for when the structure shows no grid at all: synthetic Alfapet scene 62077, its score strip beside the grid
    # taken in, lines as clear as 0.69 one cell off.
    off = guess is not None and _off_premiums(measure.pyramid, guess[1])
    if guess is not None and guess[0] >= CLEAR_GUESS and not off and not guess[3]:
        return guess[1], guess[2]
    try:
        found, found_evidence, found_scores = _locate_structure(frame, measure, profile.grid, gains, profile.tile)
    except BoardNotFound:
        if guess is None:
            raise
        return guess[1], guess[2]
    if guess is not None and not off and guess[0] > found_evidence[0]:
        return guess[1], guess[2]
    return found, found_scores


def _off_premiums(pyramid: find.Pyramid, geom: Geometry) -> bool:
    """Whether the grid at ``geom`` lies whole cells off the board's premium squares (:func:`vision.find.premium_shift`,
    measured in the frame's copy the structure search works in)."""
    k = find.work_level(pyramid.frame.shape)
    return find.premium_shift(pyramid.warpable(k), pyramid.to_level(geom.corners, k), geom.grid) is not None


class _Measures:
    """A frame's shrunk copies (:class:`vision.find.Pyramid`) and the grid evidence measured on it, so that no
    grid's evidence is measured twice."""

    def __init__(self, frame: np.ndarray, pyramid: find.Pyramid | None = None) -> None:
        self.pyramid = find.Pyramid(frame) if pyramid is None else pyramid
        self._evidence: dict[tuple[bytes, int], tuple[float, float, float]] = {}

    def evidence(self, corners: np.ndarray, grid: int) -> tuple[float, float, float]:
        """:func:`vision.find.grid_evidence` of a grid at ``corners`` (frame pixels), measured at its :func:`_level`."""
        corners = np.asarray(corners, np.float32)
        key = (corners.tobytes(), grid)
        if key not in self._evidence:
            k = _level(corners, grid)
            self._evidence[key] = find.grid_evidence(self.pyramid.grey(k), self.pyramid.to_level(corners, k), grid)
        return self._evidence[key]


def _colour_guess(frame: np.ndarray, measure: _Measures, profile: BoardProfile, gains: np.ndarray | None,
                  ) -> tuple[float, Geometry, tuple[float, float] | None, bool] | None:
    """The profile colours' grid, refined on its lines, when it is a grid (:func:`vision.find.is_grid`): (how
    clearly its lines show, the grid, its :func:`line_scores` when measured on the way, whether its lines showed
    more clearly before it was refined); None when the board's colour is not found or shows no grid worth
    refining (WORTH_REFINING)."""
    try:
        first = _inset(find_board_area(frame, profile, gains, pyramid=measure.pyramid), profile.grid_inset)
    except BoardNotFound:
        return None
    start = measure.evidence(first, profile.grid)
    if abs(start[0]) < WORTH_REFINING:
        return None
    refined = _refine(frame, first, profile.grid, 24, gains, profile.tile, None, pyramid=measure.pyramid)
    assert refined is not None  # without a limit on the first pass there is always a result
    geom, scores = refined
    evidence = measure.evidence(geom.corners, geom.grid)
    # Tile edges can pull the fit off a board area found right: synthetic tournament scene 148077, its area 0.11 cell
    # off (lines 0.87), refined 0.78 cell off (0.65), which still counted as clear. Such a guess is not taken as
    # clear (the area itself is no better: at a few pixels a cell its lines can show more clearly while it lies a
    # third of a cell further off than the refined grid).
    return (evidence[0], geom, scores, evidence[0] < start[0]) if find.is_grid(evidence) else None


def locate_structure(frame: np.ndarray, grid: int | None = None, *, gains: np.ndarray | None = None,
                     tile: tuple[int, int, int] | None = None) -> Geometry:
    """The grid found from its lines alone (:func:`vision.find.find_grid`); with the tiles' colour known,
    pinned on the printed lines when that fits the structure better. Corners clockwise from the one
    nearest the frame's top-left."""
    if tile is None:  # no tile colour to tell the board's lines from the tiles' edges: the lattice fit stands
        found = find.find_grid(frame, grid=grid)
        return Geometry(found.corners, found.grid, found.contrast)
    return _locate_structure(frame, _Measures(frame), grid, gains, tile)[0]


def _locate_structure(frame: np.ndarray, measure: _Measures, grid: int | None, gains: np.ndarray | None,
                      tile: tuple[int, int, int]) -> tuple[Geometry, tuple[float, float, float],
                                                           tuple[float, float] | None]:
    """:func:`locate_structure` with a tile colour, given the frame's measures; also the result's
    :func:`vision.find.grid_evidence` and, when measured on the way, its :func:`line_scores`."""
    found = find.find_grid(frame, grid=grid, pyramid=measure.pyramid)
    best = Geometry(found.corners, found.grid, found.contrast)
    best_evidence = measure.evidence(best.corners, best.grid)

    def runs_off(first: Geometry, moved: float) -> bool:
        return moved > _RUNAWAY and measure.evidence(first.corners, first.grid)[0] < _KEPT * best_evidence[0]

    result = _refine(frame, found.corners, found.grid, 24, gains, tile, None, runs_off=runs_off,
                     pyramid=measure.pyramid)
    if result is None:
        return best, best_evidence, None
    refined, scores = result
    refined_evidence = measure.evidence(refined.corners, refined.grid)
    if refined_evidence > best_evidence:
        return refined, refined_evidence, scores
    return best, best_evidence, None


#: Pixels per cell of the small picture of the board that tells which way round it lies.
_APPEARANCE_PX = 6
#: Another quarter turn must match the last picture of the board this much better (correlation) to win.
_TURN_MARGIN = 0.1


def _appearance(frame: np.ndarray, geom: Geometry) -> np.ndarray:
    """What tells the board's quarter turns apart: the board (grid and a rim of 1.5 cells) as a small grey
    picture, corners[0] top-left, without its light gradient and its part that a quarter turn leaves alike
    (the symmetric premium layout), normalised. What stays is the tiles, their letters and the rim's print."""
    small = geom.warp(frame, _APPEARANCE_PX, 1.5)
    grey = (cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small).astype(np.float32)
    # Light falls differently on a turned board: only detail smaller than a few cells is compared.
    # A location a fraction of a cell off must still match: detail finer than half a cell is blurred away.
    grey = cv2.GaussianBlur(grey, (0, 0), _APPEARANCE_PX / 2) - cv2.GaussianBlur(grey, (0, 0), 2 * _APPEARANCE_PX)
    grey = (grey - grey.mean()) / (grey.std() + 1e-3)
    symmetric = sum(np.rot90(grey, k) for k in range(4)) / 4
    rest = grey - symmetric
    return rest / (rest.std() + 1e-3)


def turned(geom: Geometry, quarter_turns: int) -> Geometry:
    """The same grid with its corners renamed: corners[0] becomes what was corners[quarter_turns]."""
    return Geometry(np.roll(geom.corners, -quarter_turns, axis=0), geom.grid, geom.line_score)


def orient_like(frame: np.ndarray, geom: Geometry, reference: np.ndarray) -> tuple[Geometry, int]:
    """The corner naming (of four quarter turns) under which the board looks most like ``reference`` (an
    :func:`_appearance` of the same board): players turn the board, its print and tiles turn with it."""
    now = _appearance(frame, geom)
    if now.shape != reference.shape:
        return geom, 0
    scores = [float((np.rot90(now, k) * reference).mean()) for k in range(4)]
    best = int(np.argmax(scores))
    if best == 0 or scores[best] < scores[0] + _TURN_MARGIN:
        return geom, 0
    return turned(geom, best), best


class Locator:
    """Caches the board location; confirms it cheaply on later frames and relocates when it fails.

    A cached location is stale when the lattice's line contrast falls below ``tolerance`` times what it
    was when the board was located, or a printed line shows one pitch beyond the lattice (the board or
    the camera moved, perhaps by a whole cell). Which corner is A1 is tracked from the board's own look
    (its print and the tiles on it): after a relocation, or when the board was given a quarter turn in
    place (its lattice then still fits), the corners are renamed to match the last picture of it, so
    coordinates stay the board's, not the camera's. ``turns`` counts the quarter turns seen.
    """

    def __init__(self, profile: BoardProfile, *, tolerance: float = 0.6) -> None:
        self.profile = profile
        self.tolerance = tolerance
        self.geometry: Geometry | None = None
        self._reference = (0.0, 0.0)
        self._look: np.ndarray | None = None
        self.relocations = 0
        self.turns = 0
        self._taken = False  # the geometry was given (take) and is not checked on the next frame

    def confirms(self, frame: np.ndarray, gains: np.ndarray | None = None) -> bool:
        """Whether the cached location still fits this frame (``gains``: its white balance, measured when None;
        given them, the frame may be BGRA, see :meth:`vision.find.Pyramid.warpable`)."""
        if self.geometry is None:
            return False
        if gains is None:
            gains = white_gains(frame)
        whole, beyond = line_scores(frame, self.geometry, gains=gains, tile=self.profile.tile)
        return whole >= self.tolerance * self._reference[0] and beyond < _BEYOND_LIMIT * whole

    def take(self, geometry: Geometry) -> None:
        """Hold ``geometry`` (camera corner order, found by other means) for the next frame, as after a
        relocation: that frame is read on it unchecked, its corners named from the board's last look."""
        self.geometry = geometry
        self._taken = True
        self.relocations += 1

    def __call__(self, frame: np.ndarray, gains: np.ndarray | None = None,
                 pyramid: find.Pyramid | None = None) -> Geometry:
        """The grid of this raw frame; ``gains`` are its white-balance gains (measured when None); ``pyramid``: its
        shrunk copies, when shared with other steps."""
        if self._taken and self.geometry is not None:
            self._taken = False
            self._follow_turn(frame)
            return self.geometry
        if gains is None:
            gains = white_gains(frame)
        source = frame if pyramid is None else pyramid.warpable(0)  # what the warps below take
        if self.geometry is not None and self.confirms(source, gains):
            self._follow_turn(source)
            return self.geometry
        located, scores = _locate(frame, self.profile, gains, pyramid)
        self.geometry = located
        self._follow_turn(source)
        if scores is None or self.geometry is not located:  # unmeasured, or measured before a turn renamed it
            scores = line_scores(source, self.geometry, gains=gains, tile=self.profile.tile)
        whole, beyond = scores
        # A location found while a hand covers part of the grid scores low; keeping most of the old
        # reference makes the next clear frame fail the check and relocate, instead of trusting it for good.
        self._reference = (max(whole, 0.9 * self._reference[0]), beyond)
        self.relocations += 1
        return self.geometry

    def _follow_turn(self, frame: np.ndarray) -> None:
        assert self.geometry is not None
        if self._look is not None:
            self.geometry, k = orient_like(frame, self.geometry, self._look)
            self.turns += k != 0
        self._look = _appearance(frame, self.geometry)


def reading_rows(reading) -> list[str]:
    """A reading as n strings of n characters: '.' empty, a letter, '?' a blank, a tile not read or a
    hidden square (not one whose colour is nearest an empty square's on a board not covered), '#' a stop tile. Row 1
    runs from corners[0] to corners[1]."""
    from engine.squares import Square
    from vision.occupancy import CellState
    from vision.reader import ReadingStatus

    if reading.occupancy is None:
        return []
    state = reading.occupancy.state
    n = state.shape[0]
    # A hidden cell is a square nothing could be said of; but where the board is not covered and the cell's colour is
    # nearest an empty square's, it is a square the light shifted (a lit half clipped, a print darker than its class's),
    # and so an empty square.
    not_covered = not reading.status & ReadingStatus.COVERED
    hidden = {(sq.row, sq.col) for sq in reading.hidden
              if not (not_covered and state[sq.row, sq.col] == CellState.EMPTY)}
    rows = []
    for r in range(n):
        out = []
        for c in range(n):
            tile = reading.tiles.get(Square(r, c))
            if (r, c) in hidden:
                out.append("?")
            elif state[r, c] == CellState.STOP:
                out.append("#")
            elif state[r, c] == CellState.TILE:
                out.append("?" if tile is None or tile.guess is None else tile.guess.letter.upper())
            else:
                out.append(".")
        rows.append("".join(out))
    return rows


def reading_json(reading) -> str:
    """``{"grid": n, "corners": [[x, y] x 4], "rows": [...]}`` of a board reading (no board: grid 0)."""
    import json

    if reading.geometry is None:
        return json.dumps({"grid": 0, "corners": [], "rows": []})
    corners = [[round(float(x), 1), round(float(y), 1)] for x, y in reading.geometry.corners]
    return json.dumps({"grid": reading.geometry.grid, "corners": corners, "rows": reading_rows(reading)},
                      ensure_ascii=False)

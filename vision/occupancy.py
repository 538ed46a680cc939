# SPDX-License-Identifier: GPL-3.0-or-later
"""Which cells hold a tile, which are empty, which hold a black stop tile, and which are hidden.

Each cell is summarised by the mean Lab colour of the brighter half of its centre (so a letter's ink
does not pull the colour of a tile) and by its *ink*: the contrast of thin dark (or, on dark tiles,
light) strokes in its centre, relative to its brightness, so shadow and exposure do not change it. Every
cell may only be one of: empty (the look of *its own* premium class), a tile or a stop tile. Nothing is
fixed in advance: the frame's own ink splits it into cells with a letter and cells without (a threshold
between the two groups of that frame, and well above the print of the cell's premium class). The cells
with a letter are tiles and give the tile colour; the others start empty and give each premium class's
empty colour; then a few rounds of assignment and median update follow. A cell with more ink than the
empty squares of its class show (their printed text counts as theirs) cannot be empty; a tile may lack
ink (a blank), which costs it a capped amount, so a blank is found by its colour. Pale boards whose
squares have the tiles' colour are read by the letters' ink; coloured boards by both. With no letter in
the frame (an empty board) there is no tile but a blank. The profile's colours are only the fallback for
a class the frame does not show. A cell whose colour is far from every centre it may take is
*anomalous*: something (a hand, an arm, a shadow edge) hides it.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.profile import BoardProfile


class CellState(enum.IntEnum):
    EMPTY = 0
    TILE = 1
    STOP = 2


@dataclass(frozen=True)
class Occupancy:
    state: np.ndarray  # (n, n) CellState values
    #: Distance to the assigned centre divided by that class's spread; > ~4 means "matches nothing".
    anomaly: np.ndarray  # (n, n) float
    #: How much closer the chosen state is than the best other one (0 = undecided).
    margin: np.ndarray  # (n, n) float
    #: Cells in the core of a reflection (see :func:`_washed_out`): the reader trusts their state only where their
    #: colour, the veil divided out, fits a class, or a letter shows.
    washed: np.ndarray | None = None  # (n, n) bool
    #: How far each cell is washed out towards white by a reflection (0..1, see :func:`_veil_field`), divided out of
    #: its colour; None when no veil was. Its letter's ink is as faint: :func:`unveil_pixels` gives it back.
    veil: np.ndarray | None = None  # (n, n) float

    def tiles(self) -> np.ndarray:
        return self.state == CellState.TILE


def cell_colours(warped_lab: np.ndarray, grid: int, cell_px: int, margin_px: int = 0,
                 light_ink: bool = False) -> np.ndarray:
    """(grid, grid, 3) Lab colour of the brighter half of each cell's central half: a cell's colour without its
    letter's ink. ``light_ink``: the tiles' letters are lighter than the tiles (light letters on dark wooden tiles),
    so the darker half is taken (the brighter half would count the letter in, and a tile's colour would go with how
    much ink its letter has: an I's tile fitted no state)."""
    m = margin_px
    board = warped_lab[m : m + grid * cell_px, m : m + grid * cell_px]
    q = cell_px // 4
    cells = board.reshape(grid, cell_px, grid, cell_px, 3)[:, q : cell_px - q, :, q : cell_px - q]
    cells = np.ascontiguousarray(cells.transpose(0, 2, 1, 3, 4)).reshape(grid, grid, -1, 3)
    # The median lightness from the bytes sorted (a radix sort: np.partition on bytes takes 2.5x as long,
    # np.median converts, sorts more and averages with np.mean); an even count's median is the mean of the
    # middle two, compared here doubled.
    k = cells.shape[2]
    lum = np.ascontiguousarray(cells[..., 0])
    middle = np.sort(lum, axis=2, kind="stable")
    twice_median = middle[..., (k - 1) // 2, None].astype(np.int16) + middle[..., k // 2, None]
    twice = 2 * lum.astype(np.int16)
    bright = (twice <= twice_median) if light_ink else (twice >= twice_median)  # the half without the ink
    # The bright pixels' sum as one batched product (exact: sums of bytes stay far below 2**24).
    sums = (bright.astype(np.float32)[:, :, None, :] @ cells.astype(np.float32))[:, :, 0]
    return sums / np.maximum(bright.sum(axis=2), 1)[..., None]


#: Stroke width the ink measure looks for, as a fraction of the cell (a letter's stroke is about a tenth).
_STROKE = 0.3


def cell_ink(warped_lab: np.ndarray, grid: int, cell_px: int) -> np.ndarray:
    """(grid, grid) ink of each cell's central half: thin strokes darker or lighter than their surroundings
    (morphological black and top hat), the 90th percentile over the centre divided by the cell's lightness.
    A shadow's soft edge or a light gradient is wider than a stroke and does not count."""
    lum = np.ascontiguousarray(warped_lab[: grid * cell_px, : grid * cell_px, 0])
    k = max(3, int(round(_STROKE * cell_px)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    strokes = cv2.max(cv2.morphologyEx(lum, cv2.MORPH_BLACKHAT, kernel),
                      cv2.morphologyEx(lum, cv2.MORPH_TOPHAT, kernel))
    q = cell_px // 4
    m = cell_px - 2 * q
    cells = strokes.reshape(grid, cell_px, grid, cell_px)[:, q : cell_px - q, :, q : cell_px - q]
    cells = cells.transpose(0, 2, 1, 3).reshape(grid, grid, m * m)
    # The 90th percentile from the bytes sorted (a radix sort, faster than np.partition on bytes).
    top = np.sort(cells, axis=2, kind="stable")[..., int(0.9 * (m * m - 1))].astype(np.float32)
    # The mean lightness of the same centre: its exact integer sum over the count (np.mean's value, not its time).
    centres = lum.reshape(grid, cell_px, grid, cell_px)[:, q : cell_px - q, :, q : cell_px - q]
    light = centres.transpose(0, 2, 1, 3).reshape(grid, grid, m * m).sum(axis=2) / (m * m)
    return top / np.maximum(light.astype(np.float32), 16.0)


def cell_features(warped_bgr: np.ndarray, grid: int, cell_px: int, light_ink: bool = False) -> np.ndarray:
    """(grid, grid, 4): each cell's colour (:func:`cell_colours`, ``light_ink`` as there) and ink
    (:func:`cell_ink`), of a white-balanced warp of the grid at ``cell_px`` pixels per cell."""
    return lab_features(cv2.cvtColor(warped_bgr, cv2.COLOR_BGR2LAB), grid, cell_px, light_ink)


def lab_features(warped_lab: np.ndarray, grid: int, cell_px: int, light_ink: bool = False) -> np.ndarray:
    """:func:`cell_features` of a warp already in Lab (pixels beyond the grid's are not looked at)."""
    return np.concatenate([cell_colours(warped_lab, grid, cell_px, light_ink=light_ink),
                           cell_ink(warped_lab, grid, cell_px)[..., None]], axis=2)


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


# Lightness matters less than colour: shadows and exposure move it most.
_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
#: An empty square class with this many cells in the frame has a spread of its own (see :func:`_classify`).
_CLASS_MEMBERS = 5
#: ... of at most this many times the spread of all the empty squares.
_CLASS_CAP = 2.0


def _median(values: np.ndarray, axis: int | None = None):
    """``np.median(values, axis)`` (``axis`` None or 0) of a float array, the same values and dtype from one
    partition: a classification takes some 120 medians of a few hundred cells, where np.median's own
    overhead cost a third of the classification's time.

    >>> a = np.float32([[3, 1], [1, 5], [2, 2], [9, 0]])
    >>> bool((_median(a, axis=0) == np.median(a, axis=0)).all()), _median(a[:3, 0]) == np.median(a[:3, 0])
    (True, np.True_)
    """
    if axis is None:
        values = values.ravel()
    count = len(values)
    if count == 0 or values.dtype.kind != "f":
        return np.median(values, axis=0)
    low, high = (count - 1) // 2, count // 2
    part = np.partition(values, [low, high] if high != low else low, axis=0)
    # np.median's mean of the two middle values: their sum halved in the array's own precision.
    return part[low] if high == low else (part[low] + part[high]) / 2


def _group_medians(values: np.ndarray, groups: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(medians (count, channels), sizes (count,)): :func:`_median` over axis 0 of the rows of ``values``
    (N, channels) float32 in each group 0..count-1 (``groups`` (N,) ints; ids >= count are left out), from
    one sort of all rows: a group with no row gets a meaningless median (check its size).

    >>> v = np.float32([[3, 0], [1, 9], [2, 8], [7, 7], [5, 1]])
    >>> medians, sizes = _group_medians(v, np.array([1, 0, 1, 1, 0]), 2)
    >>> medians.tolist(), sizes.tolist(), _median(v[[0, 2, 3]], axis=0).tolist()
    ([[3.0, 5.0], [3.0, 7.0]], [2, 3], [3.0, 7.0])
    """
    # Sorted by value, then (stably) by group: each group's rows in order, one group after another.
    if values.ndim == 1:
        ordered = values[np.lexsort((values, groups))]
    else:
        by_value = np.argsort(values, axis=0, kind="stable")
        columns = np.arange(values.shape[1])
        by_group = by_value[np.argsort(groups[by_value], axis=0, kind="stable"), columns]
        ordered = values[by_group, columns]
    sizes = np.bincount(groups, minlength=count)
    starts = sizes.cumsum() - sizes
    sizes, starts = sizes[:count], starts[:count]
    low, high = np.maximum(starts + (sizes - 1) // 2, 0), starts + sizes // 2
    high = np.minimum(high, len(values) - 1)
    # (a + a) / 2 is a again: an odd count needs no case of its own.
    return (ordered[low] + ordered[high]) / 2, sizes


def _remove_shading(raw: np.ndarray, empty: np.ndarray, expected: np.ndarray, n: int) -> np.ndarray:
    """The cell colours with a smooth light gradient across the board taken out.

    Light falls off towards a corner or one side of the board, so the same square looks darker there.
    A quadratic surface over the board is fitted (robustly, by least squares: the normal equations, the
    same coefficients as np.linalg.lstsq to ~1e-12 on this well-conditioned basis) to each cell's difference
    from its class centre (``expected``) and subtracted. The surface is fitted on the empty squares
    only: they cover the board evenly, while tiles cluster (a surface fitted to them extrapolates wildly
    into empty corners). Other cells get its lightness part, scaled by their own lightness over the
    squares' (light falling off darkens a bright tile more than a dark square; near-grey tiles have no
    colour to lose). A hand or an arm is a local blob a quadratic cannot follow, so it stays as
    different as it was.
    """
    basis = _quadratic_basis(n)
    if np.count_nonzero(empty) < 4 * basis.shape[1]:
        return raw
    resid = raw - expected
    size = np.sqrt(np.einsum("ij,ij->i", resid, resid))
    keep = empty & (size <= 2.0 * _median(size[empty]) + 1.0)
    # The basis and the residuals side by side: one product gives both sides of the normal equations.
    system = np.concatenate([basis, resid], axis=1)
    terms = basis.shape[1]
    for refit in (True, False):  # fitted twice, the second time without the cells far off the first surface
        if np.count_nonzero(keep) < 3 * terms:
            return raw
        rows = system[keep]
        products = rows.T[:terms] @ rows
        coef = np.linalg.solve(products[:, :terms], products[:, terms:])
        fitted = basis @ coef
        if refit:
            off = resid - fitted
            size = np.sqrt(np.einsum("ij,ij->i", off, off))
            keep = empty & (size <= 2.0 * _median(size[empty]) + 1.0)
    # The constant part belongs to the class centres, only the variation across the board is shading.
    field = fitted - coef[0]
    # The other cells lose only the lightness part, scaled; all cells in one subtraction (raw - 0 is raw).
    lightness = field[:, 0] * expected[:, 0] / max(float(expected[empty, 0].mean()), 1.0)
    shading = np.where(empty[:, None], field, 0.0)
    shading[:, 0] = np.where(empty, field[:, 0], lightness)
    return (raw - shading).astype(np.float32)


@functools.cache
def _quadratic_basis(n: int) -> np.ndarray:
    r, c = np.divmod(np.arange(n * n), n)
    r, c = (r - (n - 1) / 2) / n, (c - (n - 1) / 2) / n
    basis = np.stack([np.ones_like(r), r, c, r * r, r * c, c * c], axis=1)
    basis.flags.writeable = False
    return basis


def classify(colours: np.ndarray, premium_codes: list[list[str]], profile: BoardProfile, *,
             most_stops: int | None = None, most_blanks: int | None = None) -> Occupancy:
    """Classify each cell against the frame-adapted centres of its allowed classes.

    ``colours``: (n, n, 3) cell colours, or (n, n, 4) with each cell's ink (:func:`cell_features`).

    A still shadow (a lamp, an arm, a band with soft or sharp edges) darkens every cell under it by
    the same factor; a quadratic surface cannot follow its edges. So after a first pass each cell's
    light is measured as the factor that best scales its class colour onto it, smoothed over its
    neighbours (one tile or one odd cell does not move the median), and the cells are classified
    again with that light divided out. A hand is not a darker board: its colour stays anomalous.

    ``most_stops``: the stop tiles the set has. More cells than that that look like Alfapet's black stop tiles are
    squares in a shadow, or dark squares (minus squares darker than the profile's) that took the stop colour
    before their own class could learn its look: the board is then classified without stop tiles, and only the
    set's count of the cells that then fit nothing, those most like a stop tile first, are stop tiles.

    ``most_blanks``: the blanks the set has. A reflection (:func:`_veil_field`) washes squares out towards the tiles'
    colour; more tiles without a letter than that are looked for under one too.
    """
    if most_stops is not None and profile.stop is not None:
        first = classify(colours, premium_codes, profile, most_blanks=most_blanks)
        stops = first.state == CellState.STOP
        if int(stops.sum()) <= most_stops:
            return first
        without = classify(colours, premium_codes, replace(profile, stop=None))
        unexplained = np.flatnonzero((stops & (without.anomaly > _SHADOW_HINT)).ravel())
        kept = unexplained[np.argsort(first.anomaly.ravel()[unexplained], kind="stable")[:most_stops]]
        state, anomaly, margin = (a.copy().ravel() for a in (without.state, without.anomaly, without.margin))
        state[kept], anomaly[kept], margin[kept] = (a.ravel()[kept] for a in (first.state, first.anomaly, first.margin))
        n = colours.shape[0]
        return Occupancy(state=state.reshape(n, n), anomaly=anomaly.reshape(n, n), margin=margin.reshape(n, n))
    # The second pass divides out the light, not the ink: what the ink decides is worked out once for both.
    by_ink: dict = {}
    first, centres, options = _classify(colours, premium_codes, profile, by_ink)
    seeds = by_ink.get("seeds")
    seeds = seeds.reshape(first.state.shape) if seeds is not None else np.zeros(first.state.shape, bool)

    def unaccounted(occ: Occupancy, among: np.ndarray | None = None) -> int:
        """Cells that fit no class, and tiles without a letter in patches (washed-out squares) beyond the set's
        blanks."""
        extra = 0 if most_blanks is None else max(0, _count(_letterless_patches(occ, seeds), among) - most_blanks)
        return _count(occ.anomaly > _SHADOW_HINT, among) + extra

    passes = [(first, centres, colours)]
    if float(first.anomaly.max()) >= _SHADOW_HINT:
        light = _light_field(colours[..., :3], centres, options, by_ink.get("seeds"))
        if float(np.abs(light - 1.0).max()) >= _LIGHT_TOLERANCE:
            relit = np.concatenate([_relight(colours[..., :3], light), colours[..., 3:]], axis=2)
            second, second_centres, _ = _classify(relit, premium_codes, profile, by_ink)
            # A light field that leaves more of the board unexplained than none did was no shadow.
            if _hidden(second) <= _hidden(first):
                passes.append((second, second_centres, relit))
    best = passes[-1][0]
    if unaccounted(best) < _REFLECTION_CELLS:
        return best  # every cell (or all but a stray one) matches a class: the common case, kept cheap
    # A lamp's reflection on a glossy board washes the cells under it out towards white: no light factor gives a
    # washed-out green square back its colour (a light field lightens some of it, as brighter light). The veil each
    # cell shows over its class's colour is divided out, of the colours as they are and as relit; the pass that
    # explains at least half of the cells unaccounted for before, outside the reflection's clipped core (a hand it
    # does not explain; a veil can only make up for a few of its cells), stands.
    for _, pass_centres, pass_colours in passes:
        veil = _veil_field(pass_colours[..., :3], pass_centres, options, by_ink.get("seeds"))
        if float(veil.max()) < VEIL_TOLERANCE:
            continue
        unveiled = np.concatenate([_unveil(pass_colours[..., :3], veil), pass_colours[..., 3:]], axis=2)
        third = _classify(unveiled, premium_codes, profile, by_ink)[0]
        # The core of a strong reflection is clipped: no veil gives its colours back (see _washed_out).
        washed = _washed_out(veil)
        if unaccounted(third, ~washed) <= unaccounted(best) // 2:
            best = replace(third, washed=washed if washed.any() else None, veil=veil)
    return best


#: A reflection hides at least this many cells (a lamp lights a patch of several; one or two hidden cells are a
#: stray square the light shifted, and the veil is not fitted for them).
_REFLECTION_CELLS = 3


def _hidden(occ: Occupancy) -> int:
    """How many cells fit no class (a hand, or light the pass did not explain)."""
    return int((occ.anomaly > _SHADOW_HINT).sum())


#: Tiles without a letter side by side (4-connected) in a patch this large are squares a reflection washed out.
_LETTERLESS_PATCH = 3


def _letterless_patches(occ: Occupancy, seeds: np.ndarray) -> np.ndarray:
    """(n, n) the tiles without a letter (no ink seed) in patches of _LETTERLESS_PATCH side by side: a reflection
    washes a patch of squares out to the tiles' colour, while the seeds miss a faint letter here and there."""
    letterless = ((occ.state == CellState.TILE) & ~seeds).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(letterless, connectivity=4)
    large = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= _LETTERLESS_PATCH)
    return np.isin(labels, large[large > 0])


def _count(mask: np.ndarray, among: np.ndarray | None) -> int:
    return int((mask if among is None else mask & among).sum())


#: A cell under a veil this thick is the core of a reflection when the cells around the core show the veil too.
_WASHED = 0.5
#: ... on average at least this much (a reflection fades out over a cell or two; a white sleeve ends at its edge).
_WASHED_RING = 0.1
#: A veil this thick clips (8-bit colours): a letter under it no longer shows once it is divided out.
CLIPPED = 0.8
#: A core larger than this share of the board is no reflection.
_MOST_WASHED = 0.1


def _washed_out(veil: np.ndarray) -> np.ndarray:
    """(n, n) the cells in the core of a reflection: under a veil of _WASHED or more, in a core of at most
    _MOST_WASHED of the board whose ring of neighbouring cells shows _WASHED_RING of veil on average. There a clipped
    colour cannot be unveiled, so the cells' states are guesses, while a white sleeve ends at its edge."""
    core = veil >= _WASHED
    if not core.any() or core.sum() > _MOST_WASHED * core.size:
        return np.zeros_like(core)
    ring = cv2.dilate(core.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~core
    if ring.any() and float(veil[ring].mean()) < _WASHED_RING:
        return np.zeros_like(core)
    return core


#: A first pass with no cell this many class spreads from its class (none the reader would call hidden,
#: see vision.reader.ANOMALY_LIMIT) needs no second one.
_SHADOW_HINT = 4.0
#: Light factors within this of 1 everywhere: the first pass stands (no shadow to divide out).
_LIGHT_TOLERANCE = 0.06
#: Lab lightness (OpenCV's 0..255 scale) of black in the cube-root law: (L + 16) scales with light^(1/3).
_L_ZERO = 16 * 2.55


def _scaled(lab: np.ndarray) -> np.ndarray:
    """Lab with lightness offset so that dimming the light scales the whole vector (cube-root law)."""
    out = lab.astype(np.float32).copy()
    out[..., 0] += _L_ZERO
    out[..., 1:] -= 128.0
    return out


def _light_field(colours: np.ndarray, centres: np.ndarray, options: np.ndarray,
                 letters: np.ndarray | None = None) -> np.ndarray:
    """(n, n) factor by which each cell is darker (<1) or lighter than its class's frame-wide colour; ``letters``:
    the cells that show a letter (the ink seeds)."""
    n = colours.shape[0]
    flat = _scaled(colours.reshape(-1, 3))
    cells = np.arange(len(flat))
    # Each option scaled to fit the cell best; the option whose colour (not lightness) fits best gives the light.
    option_centres = _scaled(centres)[options]  # (options, N, 3)
    factors = (flat[None] * option_centres).sum(axis=2) / np.maximum((option_centres ** 2).sum(axis=2), 1e-6)
    factors = np.clip(factors, 0.4, 1.5)
    residual = np.sqrt((((flat[None] - factors[..., None] * option_centres) * _WEIGHTS) ** 2).sum(axis=2))
    best = _likeliest_options(factors, residual, letters)
    factor = factors[best, cells].reshape(n, n).astype(np.float32)
    fit = residual[best, cells].reshape(n, n)
    # The median of each 3x3 neighbourhood: a shadow spans several cells, a single odd cell does not.
    smooth = _neighbourhood_median(factor)
    # A cell whose colour is its class's colour in less light (as well as most cells fit theirs) keeps its
    # own factor: a shadow's edge can cross a cell. Anything else (a hand) gets its neighbours' light.
    return np.where(_explained(fit), factor, smooth)


def _neighbourhood_median(field: np.ndarray) -> np.ndarray:
    """(n, n) the median of each cell's 3x3 neighbourhood (the edge cells repeated beyond the board)."""
    n = field.shape[0]
    padded = np.pad(field, 1, mode="edge")
    return _median(np.stack([padded[r : r + n, c : c + n] for r in range(3) for c in range(3)]), axis=0)


def _explained(fit: np.ndarray) -> np.ndarray:
    """(n, n) the cells a field fits about as well as it fits most cells (``fit``: each cell's residual)."""
    return fit <= 3.0 * float(_median(fit)) + 1.0


#: A veil (see :func:`_veil_field`) this thick somewhere is worth dividing out; the veils tried (up to the thickest
#: believed).
VEIL_TOLERANCE = 0.08
_VEILS = np.linspace(0.0, 0.9, 19, dtype=np.float32)


#: OpenCV's 8-bit Lab (lightness 0..255, a and b offset by 128) to its float Lab (lightness 0..100): times, minus.
_LAB8_SCALE, _LAB8_OFFSET = np.array([100 / 255, 1, 1], np.float32), np.array([0, 128, 128], np.float32)


def _lab8_to_bgr(lab: np.ndarray) -> np.ndarray:
    """OpenCV 8-bit Lab values (any shape (..., 3), float) as BGR in 0..1."""
    flat = np.asarray(lab, np.float32).reshape(1, -1, 3) * _LAB8_SCALE - _LAB8_OFFSET
    return cv2.cvtColor(flat, cv2.COLOR_Lab2BGR).reshape(np.shape(lab))


def _bgr_to_lab8(bgr: np.ndarray) -> np.ndarray:
    """BGR in 0..1 (any shape (..., 3)) as OpenCV 8-bit Lab values (float)."""
    lab = cv2.cvtColor(np.clip(np.asarray(bgr, np.float32), 0, 1).reshape(1, -1, 3), cv2.COLOR_BGR2Lab)
    return ((lab + _LAB8_OFFSET) / _LAB8_SCALE).reshape(np.shape(bgr))


def _veil_field(colours: np.ndarray, centres: np.ndarray, options: np.ndarray,
                letters: np.ndarray | None = None) -> np.ndarray:
    """(n, n) how far each cell is washed out towards white (0: not at all, 1: white) over its class's colour: the
    blend (in the camera's colours) of the option that fits it best with white. A printed square it explains keeps
    its own veil; a tile takes its printed neighbours' (or, with too few of them, and where nothing fits, the median
    of its 3x3 neighbourhood). ``letters``: the cells that show a letter (the ink seeds)."""
    n = colours.shape[0]
    flat = colours.reshape(-1, 3).astype(np.float32)
    cells = np.arange(len(flat))
    # Each class colour washed out by every veil tried, in Lab: (veils, classes, 3).
    bgr = _lab8_to_bgr(centres)
    washed = _bgr_to_lab8(bgr[None] * (1 - _VEILS[:, None, None]) + _VEILS[:, None, None])
    distances = np.sqrt((((flat[None, None] - washed[:, options]) * _WEIGHTS) ** 2).sum(axis=3))  # (veils, opts, N)
    level = distances.argmin(axis=0)
    veils = _VEILS[level]
    residual = np.take_along_axis(distances, level[None], axis=0)[0]
    # Compared as light factors: a veil of v lets through 1 - v of the class's own colour.
    best = _likeliest_options(1.0 - veils, residual, letters)
    veil = veils[best, cells].reshape(n, n).astype(np.float32)
    fit = residual[best, cells].reshape(n, n)
    smooth = _neighbourhood_median(veil)
    # A reflection is a smooth blob over many cells: a cell it does not explain (a hand) takes its neighbours' veil.
    explained = _explained(fit)
    # A tile's veil is hard to tell from its own colour (a cream tile washed out looks like a lighter tile, and tiles
    # vary), a printed square's is not: tiles take the veil of the squares around them.
    squares = (explained & (best == 0).reshape(n, n)).astype(np.float32)
    weight = cv2.GaussianBlur(squares, (5, 5), 1.0, borderType=cv2.BORDER_REPLICATE)
    around = cv2.GaussianBlur(veil * squares, (5, 5), 1.0, borderType=cv2.BORDER_REPLICATE) / np.maximum(weight, 1e-6)
    around = np.where(weight >= _VEIL_SUPPORT, around, smooth)
    return np.where(squares > 0, veil, around).astype(np.float32)


#: Printed squares around a cell (Gaussian weight, 1.0 for a cell whose neighbours are all squares) needed to take
#: their veil; with fewer, a cell takes the median veil of its 3x3 neighbourhood.
_VEIL_SUPPORT = 0.05


def unveil_pixels(pixels: np.ndarray, veil: float) -> np.ndarray:
    """8-bit pixels (grey or BGR) of a cell under ``veil`` as they would be without it (uint8).

    >>> unveil_pixels(np.array([[128, 255]], np.uint8), 0.5).tolist()
    [[1, 255]]
    """
    out = (pixels.astype(np.float32) - 255.0 * veil) / (1.0 - veil)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _unveil(colours: np.ndarray, veil: np.ndarray) -> np.ndarray:
    """The colours with the veil of :func:`_veil_field` divided out (in the camera's colours)."""
    v = veil[..., None]
    return _bgr_to_lab8((_lab8_to_bgr(colours) - v) / (1.0 - v))


def _likeliest_options(factors: np.ndarray, residual: np.ndarray, letters: np.ndarray | None) -> np.ndarray:
    """(N,) the option whose scaled colour gives each cell's light (``factors``, ``residual``: (options, N), each
    option scaled to fit the cell and how far it then is).

    The best fit, unless the cell's own square or a tile (a cell showing a letter, ``letters``: the ink seeds) fits
    about as well (within a typical cell's fit) and asks for other light (beyond _LIGHT_TOLERANCE): near-grey
    squares, tiles and stop tiles fit each other in other light (a grey minus square a cream tile in less light, a
    shadowed plain square the stop tiles' colour a first pass learned from shadowed plain squares). A cell without a
    letter is then most likely its own square (blanks and stop tiles are few), one with a letter a tile."""
    cells = np.arange(residual.shape[1])
    best = residual.argmin(axis=0)
    closest = residual[best, cells]
    likeliest = np.full(len(cells), int(CellState.EMPTY)) if letters is None else \
        np.where(letters, int(CellState.TILE), int(CellState.EMPTY))
    fits = residual[likeliest, cells] <= closest + max(float(_median(closest)), 1.0)
    # Only where the two ask for other light: where they agree (within _LIGHT_TOLERANCE), the best fit stands.
    other_light = np.abs(factors[likeliest, cells] / factors[best, cells] - 1.0) > _LIGHT_TOLERANCE
    return np.where(fits & other_light, likeliest, best)


def _relight(colours: np.ndarray, light: np.ndarray) -> np.ndarray:
    out = _scaled(colours) / light[..., None]
    out[..., 0] -= _L_ZERO
    out[..., 1:] += 128.0
    return out


def _ink_seeds(ink: np.ndarray, empty_row: np.ndarray, classes: int) -> np.ndarray | None:
    """Cells that surely show a letter: above the frame's own threshold between little and much ink (Otsu)
    and above their premium class's median ink (its print) by half the gap between the two groups. None
    when the frame's ink does not fall into two groups."""
    values = np.sort(ink)
    n = len(values)
    if n < 4:
        return None
    total = np.cumsum(values)
    split = np.arange(1, n)
    low_mean = total[:-1] / split
    high_mean = (total[-1] - total[:-1]) / (n - split)
    between = split * (n - split) * (high_mean - low_mean) ** 2
    cut = int(np.argmax(between)) + 1
    low, high = values[:cut], values[cut:]
    # Two groups only when their gap is wide beside their own spreads (one group split in two is not), and
    # the inky one shows letters' ink, several times the plain one's.
    if high.mean() - low.mean() < _INK_GROUPS * (low.std() + high.std()) + 1e-3 \
            or high.mean() < _INK_LETTERS * low.mean():
        return None
    # A letter shows far more ink than the empty squares of its class (their print included) typically do.
    # The print is what the class's plainer cells show: those nearer its lower quartile than the letters'
    # ink. Late in a game most word squares hold tiles, and the median of all would be a letter's ink;
    # a class whose print is as heavy as a letter keeps all its cells.
    ordered, starts, sizes = _sorted_groups(ink, empty_row, classes)
    floor = _lower_quartiles(ordered, starts, sizes)
    # The comparison in float32, as float32 values against a Python float compare.
    limit = np.maximum(floor, (floor.astype(np.float64) + float(high.mean())) / 2).astype(np.float32)
    plainer = np.bincount(np.repeat(np.arange(classes), sizes)[ordered <= np.repeat(limit, sizes)], minlength=classes)
    typical = (ordered[starts + np.maximum(plainer - 1, 0) // 2] + ordered[starts + plainer // 2]) / 2
    return (ink - typical[empty_row] > (high.mean() - low.mean()) / 2) & (ink > (values[cut - 1] + values[cut]) / 2)


def _sorted_groups(values: np.ndarray, groups: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values sorted by group then value, each group's start in it, each group's size) of 1-D ``values``
    in groups 0..count-1 (every id below ``count``)."""
    ordered = values[np.lexsort((values, groups))]
    sizes = np.bincount(groups, minlength=count)
    return ordered, np.cumsum(sizes) - sizes, sizes


def _lower_quartiles(ordered: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Each group's ``np.percentile(values, 25)`` (linear, numpy's rounding: it interpolates from the nearer
    end) from :func:`_sorted_groups`; 0 for an empty group.

    >>> v, g = np.float32([0.3, 0.1, 0.7, 0.2, 0.9, 0.4, 0.8]), np.array([0, 0, 0, 1, 1, 1, 1])
    >>> q = _lower_quartiles(*_sorted_groups(v, g, 2))
    >>> bool(q[0] == np.percentile(v[:3], 25)), bool(q[1] == np.percentile(v[3:], 25))
    (True, True)
    """
    position = np.maximum(sizes - 1, 0) * 0.25
    below = np.floor(position).astype(np.intp)
    above = np.minimum(below + 1, np.maximum(sizes - 1, 0))
    last = len(ordered) - 1
    a = ordered[np.minimum(starts + below, last)]
    b = ordered[np.minimum(starts + above, last)]
    t = (position - below).astype(ordered.dtype)
    step = b - a
    out = np.where(t >= 0.5, b - step * (1 - t), a + step * t)
    return np.where(sizes > 0, out, 0).astype(ordered.dtype)


#: The gap between the frame's inky and plain cells must be this many times their summed spreads.
_INK_GROUPS = 1.5
#: Letters show this many times the ink of the plain cells at least: 5.5-31 times on the ScrabScrap and jheidel
#: photos, 60 synthetic scenes and the reference frames of tests/data/occupancy; on an empty board, the dots
#: printed around premium squares split from the rest as a group of 1.4 times (ScrabScrap game03's first
#: photo made brighter), and were taken for letters.
_INK_LETTERS = 3.0
#: A tile may lack ink (a blank): showing less ink than the tiles costs it at most this many spreads.
_BLANK_COST = 3.0


#: A square class whose colour (the profile's) lies this far from the tiles' (weighted Lab) tells its printed
#: squares from tiles by colour: the classic board's plain squares lie 26 from its tiles, its premiums 35 and more.
_DISTINCT_CLASS = 30.0
#: An inky cell within this many of its class's spreads of the class's bare look is print (see _print_left_out).
_PRINT_SPREADS = 3.0


def lab_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Weighted Lab distance (lightness at _WEIGHTS) between colours along the last axis (broadcast)."""
    return np.sqrt((((a - b) * _WEIGHTS) ** 2).sum(axis=-1))


def _print_left_out(seeds: np.ndarray | None, raw: np.ndarray, ink: np.ndarray, empty_row: np.ndarray,
                    centres: np.ndarray, tile_row: int) -> np.ndarray | None:
    """The ink seeds without the squares whose print showed as much ink as a letter (an Alfapet board's x4
    squares, their print caught in the cells' middles by a grid placed a few pixels otherwise): in a class
    whose colour (the profile's) is distinct from the tiles', a seed whose colour is within _PRINT_SPREADS of
    what the class's less inky half shows (bare squares: a tile carries a letter), and less than half as far
    from it as from the seeds on other classes (the tiles as this frame shows them), is left out. None when no
    seed stays."""
    if seeds is None:
        return None
    kept = seeds.copy()
    for c in np.unique(empty_row[seeds]):
        if float(lab_distance(centres[c], centres[tile_row])) < _DISTINCT_CLASS:
            continue
        members = np.nonzero(empty_row == c)[0]
        bare = members[ink[members] <= _median(ink[members])]
        others = seeds & (empty_row != c)
        if len(bare) < 3 or others.sum() < 2:
            continue
        look, tiles = _median(raw[bare], axis=0), _median(raw[others], axis=0)
        if float(lab_distance(look, tiles)) < _DISTINCT_CLASS:
            continue  # in this frame's light the class's squares look like its tiles: colour cannot tell
        spread = max(float(_median(lab_distance(raw[bare], look))), 4.0)
        flagged = members[seeds[members]]
        to_class, to_tiles = lab_distance(raw[flagged], look), lab_distance(raw[flagged], tiles)
        kept[flagged[(to_class <= _PRINT_SPREADS * spread) & (2 * to_class < to_tiles)]] = False
    return kept if kept.any() else None


def _empty_ink_cost(ink: np.ndarray, choice: np.ndarray, empty_row: np.ndarray, classes: int) -> np.ndarray:
    """The cost of calling each cell empty, in units of the colour spread: the ink above what the empty
    squares of its class show, in their spread (the class's own, at least the one over all empty squares)."""
    empty = choice == 0
    groups = np.where(empty, empty_row, classes)
    reference, sizes = _group_medians(ink, groups, classes)
    reference = np.where(sizes > 0, reference, np.float32(np.inf))
    deviation = np.abs(ink - reference[empty_row])  # inf beyond the empty squares' classes
    spread, _ = _group_medians(deviation, groups, classes)
    spread = np.where(sizes >= 3, spread, np.float32(0.0))
    ref = reference[empty_row]
    known = np.isfinite(ref)
    pooled = float(_median(deviation[empty])) if empty.any() else 0.0
    # Each class's own spread (printed text sits differently in each square), never below the pooled one.
    empty_spread = np.maximum(np.maximum(spread[empty_row], pooled), 0.01)
    excess = np.where(known, np.maximum(ink - np.where(known, ref, 0.0), 0.0), 0.0)
    return excess / empty_spread


def _tile_ink_cost(ink: np.ndarray, lettered: np.ndarray | None) -> np.ndarray:
    """The cost of calling each cell a tile, in units of the colour spread: the ink below what the tiles
    with a letter show, in their spread, capped (a blank has none)."""
    if lettered is not None and lettered.sum() >= 2:
        tile_ref = float(_median(ink[lettered]))
        tile_spread = max(float(_median(np.abs(ink[lettered] - tile_ref))), 0.02)
        return np.minimum(np.maximum(tile_ref - ink, 0.0) / tile_spread, _BLANK_COST)
    return np.full_like(ink, _BLANK_COST)  # no letter anywhere in the frame: a tile here could only be a blank


@dataclass(frozen=True)
class _Classes:
    """What a classification needs of the board beside the colours: built once per layout and profile."""

    centres: np.ndarray  # (classes, 3) profile Lab colours: each empty square class, the tile, a stop tile
    tile_row: int  # the tile's row in ``centres`` (the empty square classes come first)
    empty_row: np.ndarray  # (N,) each cell's empty class
    option_rows: np.ndarray  # (options, N) each cell's centre row of each option (CellState order)


_CLASSES: dict[tuple, _Classes] = {}


def _classes(premium_codes: list[list[str]], profile: BoardProfile) -> _Classes:
    key = (tuple(map(tuple, premium_codes)), tuple(sorted(profile.squares.items())), profile.tile, profile.stop)
    if key not in _CLASSES:
        codes = sorted({c for row in premium_codes for c in row})
        # Centre rows: one per empty square class, then the tile, then (if the board has them) stop tiles.
        rows = [_lab(profile.square_colour(c)) for c in codes] + [_lab(profile.tile)]
        tile_row = len(codes)
        if profile.stop is not None:
            rows.append(_lab(profile.stop))
        empty_row = np.searchsorted(codes, np.array(premium_codes).reshape(-1))
        cells = len(empty_row)
        # Options per cell: 0 = its own empty class, 1 = tile, 2 = stop tile.
        option_rows = np.stack([empty_row, np.full(cells, tile_row)]
                               + ([np.full(cells, tile_row + 1)] if profile.stop is not None else []))
        for array in (empty_row, option_rows):
            array.flags.writeable = False
        if len(_CLASSES) > 16:
            _CLASSES.clear()
        _CLASSES[key] = _Classes(np.stack(rows).astype(np.float32), tile_row, empty_row, option_rows)
    return _CLASSES[key]


def _classify(colours: np.ndarray, premium_codes: list[list[str]], profile: BoardProfile,
              by_ink: dict | None = None) -> tuple[Occupancy, np.ndarray, np.ndarray]:
    """One classification pass: the occupancy, the adapted centres and each cell's option rows.

    Each class's centre is the median of its cells, all classes' medians from one sort
    (:func:`_group_medians`)."""
    n = colours.shape[0]
    setup = _classes(premium_codes, profile)
    centres = setup.centres.copy()
    tile_row, empty_row, option_rows = setup.tile_row, setup.empty_row, setup.option_rows
    classes = len(centres)
    raw = colours[..., :3].reshape(-1, 3).astype(np.float32)
    ink = colours[..., 3].reshape(-1).astype(np.float32) if colours.shape[2] > 3 else None
    flat = raw
    cells = np.arange(len(flat))

    def option_distances() -> np.ndarray:
        """(options, N) each cell's distance to the centre of each of its options."""
        return np.sqrt((((flat[None, :, :] - centres[option_rows]) * _WEIGHTS) ** 2).sum(axis=2))

    def with_ink(stack: np.ndarray, choice: np.ndarray) -> np.ndarray:
        if ink is None:
            return stack
        spread = max(float(_median(stack[choice, cells])), 2.0)
        key = choice.tobytes()  # the choice settles after a round or two: its ink cost is kept
        if key not in empty_ink:
            empty_ink[key] = _empty_ink_cost(ink, choice, empty_row, tile_row)
        empty_cost = empty_ink[key] * spread
        out = stack.copy()
        out[0] = np.sqrt(stack[0] ** 2 + empty_cost ** 2)
        out[1] = np.sqrt(stack[1] ** 2 + (tile_cost * spread) ** 2)
        if len(out) > 2:  # a stop tile carries no letter either
            out[2] = np.sqrt(stack[2] ** 2 + empty_cost ** 2)
        return out

    def learn(groups: np.ndarray, values: np.ndarray, fewest: int = 2) -> None:
        """Each class's centre: the median of its cells (groups: each cell's class; ``classes``: none)."""
        medians, sizes = _group_medians(values, groups, classes)
        centres[sizes >= fewest] = medians[sizes >= fewest]

    choice = option_distances().argmin(axis=0)
    # What the ink alone decides (the seeds, a tile's ink cost, the empty cells' for a choice), kept in
    # ``by_ink`` for another pass over the same ink.
    memo = by_ink if by_ink is not None and by_ink.get("ink") == (ink.tobytes() if ink is not None else None) else {}
    if not memo:
        memo["ink"] = ink.tobytes() if ink is not None else None
        memo["seeds"] = _print_left_out(_ink_seeds(ink, empty_row, tile_row), raw, ink, empty_row, setup.centres,
                                        tile_row) if ink is not None else None
        memo["tile_cost"] = _tile_ink_cost(ink, memo["seeds"]) if ink is not None else np.zeros(len(flat), np.float32)
        memo["empty"] = {}
        if by_ink is not None:
            by_ink.update(memo)
    seeds, tile_cost, empty_ink = memo["seeds"], memo["tile_cost"], memo["empty"]
    if ink is not None and seeds is None:
        # No letters: the board is empty but for blanks, so each class's colour is what most of it shows.
        learn(empty_row, raw)
        choice = np.zeros(len(flat), dtype=np.int64)
    if seeds is not None:
        # The frame's letters give the tile colour, the cells without one each class's empty colour
        # (the centre square is one cell, covered from move 1).
        learn(np.where(seeds, tile_row, empty_row), raw)
        # Cells without a letter start empty: a blank is found by its colour in the rounds below.
        choice = np.where(seeds, CellState.TILE, CellState.EMPTY)
    # The tiles with a letter give the tile colour: a hand at the edge is no tile colour to learn. (The seeds
    # are always tiles in the rounds: the other tiles are left out.)
    tile_seeds = seeds if seeds is not None and seeds.sum() >= 2 else None
    for _ in range(4):
        assigned = option_rows[choice, cells]
        learn(assigned if tile_seeds is None else np.where((assigned == tile_row) & ~tile_seeds, classes, assigned),
              flat)
        flat = _remove_shading(raw, choice == 0, centres[assigned], n)
        choice = with_ink(option_distances(), choice).argmin(axis=0)
        if seeds is not None:
            choice[seeds] = CellState.TILE  # a letter is a tile, whatever light falls on it
    colour_only = option_distances()
    stack = with_ink(colour_only, choice)
    choice = stack.argmin(axis=0)
    best = stack.min(axis=0)
    second = np.partition(stack, 1, axis=0)[1]
    # Hidden means no colour fits (a hand); ink decides between the states but hides nothing.
    fit = colour_only[choice, cells]
    state = choice  # the option order is CellState's: empty, tile, stop
    # Spread of each state: median distance of its members, floored so a tight class does not flag noise.
    spread = np.empty(len(flat), dtype=np.float32)
    for k in range(len(stack)):
        sel = choice == k
        typical_of = seeds if k == CellState.TILE and seeds is not None and seeds.sum() >= 3 else sel
        typical = float(_median(fit[typical_of])) if typical_of.sum() >= 3 else 6.0
        spread[sel] = max(typical, 4.0)
    # A premium class whose squares vary more than the plain ones (a small square blurred into its green
    # neighbours, a coloured square whose lit half clips while its shaded half does not) is measured against its
    # own spread, not the plain squares': capped, so that a hand over many of its squares still stands out.
    empty = choice == CellState.EMPTY
    if empty.any():
        assigned = option_rows[choice, cells]
        floor = float(spread[empty][0])
        for c in np.unique(assigned[empty]):
            members = empty & (assigned == c)
            if members.sum() >= _CLASS_MEMBERS:
                spread[members] = min(max(float(_median(fit[members])), floor), _CLASS_CAP * floor)
    anomaly = fit / spread
    margin = (second - best) / np.maximum(second + best, 1e-6)
    occ = Occupancy(
        state=state.reshape(n, n), anomaly=anomaly.reshape(n, n), margin=margin.reshape(n, n).astype(np.float32)
    )
    return occ, centres, option_rows

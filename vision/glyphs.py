# SPDX-License-Identifier: GPL-3.0-or-later
"""Cut the letter out of a tile: keep umlaut and ring dots, drop tile edges, shadows and the value digit.

A tile's crop (the cell plus a little around it, since tiles sit loosely) is thresholded against the
tile's own background brightness. Ink that touches the crop border is a neighbour, a tile edge or a
shadow and is dropped. The letter is the biggest ink blob near the centre; blobs above it within its
width are diacritics; a smaller blob low and to the right of it is the value digit and is dropped. The
result is a fixed-size, aspect-preserving glyph image: what the classifiers see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

GLYPH_PX = 24
#: How far beyond its cell a tile crop reaches (fraction of a cell on each side).
CROP_PAD = 0.18
#: Ink this wide or tall (cells) is the tile's outline rather than its letter (letters stand at most ~0.7).
_OUTLINE = 0.8
#: A piece of a letter that broke off (a thin stroke) starts within this much of the letter's height beside
#: it; ink further off is a sliver of the tile's edge (a bar beside an O made it read Q).
_PIECE_GAP = 0.1
#: A bar at most this thick (cells) within this distance of a side of a tile's outline is part of that outline.
_EDGE_THIN, _EDGE_NEAR = 0.1, 0.08
#: The width of the outline round a tile (cells), inside which a letter run into it is looked for.
_EDGE_RIM = 0.15
#: Ink contrast below which a tile shows no letter at all (a blank, or no tile).
NO_INK = 0.3


@dataclass(frozen=True)
class Glyph:
    image: np.ndarray | None  # (GLYPH_PX, GLYPH_PX) float32 ink in 0..1, or None for a tile without a letter
    #: Ink contrast against the tile (0..1); low values mean a faint or missing letter.
    contrast: float
    #: Height of the letter relative to the cell.
    height: float
    #: 1 when separate marks sit above the letter (umlaut dots, rings, accents; two dots may merge), else 0.
    marks: int = 0
    #: Where the letter's box centre lies from the crop's centre, (x, y) in cells; None where not measured.
    offset: tuple[float, float] | None = field(default=None, compare=False)
    #: The letter is lighter than its tile (light letters on a dark tile); the image is its ink all the same.
    light_ink: bool = field(default=False, compare=False)

    @property
    def is_blank(self) -> bool:
        return self.image is None


def crop_cell(warped: np.ndarray, row: int, col: int, cell_px: int, margin_cells: float) -> np.ndarray:
    """The crop of one cell (plus CROP_PAD) from a board warped with ``margin_cells`` around the grid."""
    pad = CROP_PAD * cell_px
    x0 = int(round((margin_cells + col) * cell_px - pad))
    y0 = int(round((margin_cells + row) * cell_px - pad))
    size = int(round(cell_px + 2 * pad))
    return warped[max(0, y0) : y0 + size, max(0, x0) : x0 + size]


def extract(crop: np.ndarray, cell_px: int) -> Glyph:
    """The normalised glyph of a tile crop (BGR or grey). :func:`extract_many` cuts the same glyphs from many."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    h, w = grey.shape
    c0, c1 = int(h * 0.2), int(h * 0.8)
    centre = grey[c0:c1, c0:c1]
    # One histogram gives the upright levels too (each percentile is taken on its own).
    ink_level, middle, background, light = _percentiles(centre, (3, 50, 85, 97))
    light_ink = light - middle > max(1.5 * (middle - ink_level), 0.3 * light)
    if light_ink:
        # Light letters on a dark tile: the tile is the bulk of the crop, the letter its far tail.
        grey = 255 - grey
        centre = grey[c0:c1, c0:c1]
        ink_level, background = _percentiles(centre, (3, 85))
    contrast = (background - ink_level) / max(background, 1.0)
    if contrast < NO_INK:
        return Glyph(None, contrast, 0.0)
    otsu, _ = cv2.threshold(centre, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    min_area = _min_area(h, w)
    # A blurred letter can run into the dark gap at the tile's edge (and so touch the crop's border):
    # a darker threshold parts them. A blob about as big as the cell is the outline printed or shaded round
    # the tile, not its letter; only when no other blob will do is it taken (a letter run into that outline).
    for level, whole_tile in _LEVELS:
        thresh = min(otsu, ink_level + level * (background - ink_level))
        dark = grey < thresh
        n, labels, stats, cents = cv2.connectedComponentsWithStats(dark.astype(np.uint8), connectivity=8)
        x, y, bw, bh, area = stats.T
        inside = (area >= min_area) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
        inside[0] = False  # the background
        small = np.maximum(bw, bh) < _OUTLINE * cell_px
        letter_sized = (whole_tile | small) & ~_on_outline(stats, inside & ~small, cell_px)
        # The letter: largest blob whose centre lies in the middle of the crop.
        mid = np.flatnonzero(inside & letter_sized & (np.abs(cents[:, 0] - w / 2) < 0.3 * w)
                             & (np.abs(cents[:, 1] - h / 2) < 0.3 * h))
        if whole_tile:
            # An outline with nothing inside it is a tile without a letter (a blank), not a letter run into it.
            mid = np.array([i for i in mid.tolist() if max(bw[i], bh[i]) < _OUTLINE * cell_px
                            or _inner_extent(labels, stats[i], i, cell_px) >= 0.25 * cell_px], np.intp)
        # Height or width: a tile laid turned shows an I as a bar across.
        if mid.size and max(bh[mid[np.argmax(area[mid])]], bw[mid[np.argmax(area[mid])]]) >= 0.25 * cell_px:
            break
    else:
        return Glyph(None, contrast, 0.0)
    main = int(mid[np.argmax(area[mid])])
    glyph = _cut(grey, dark, _soft_ink(_LEVELS_256, ink_level, background), labels, stats.tolist(), cents.tolist(),
                 np.flatnonzero(inside).tolist(), main, contrast, cell_px)
    return replace(glyph, light_ink=True) if light_ink and glyph.image is not None else glyph


#: (threshold between ink and tile, whether a blob as big as the tile may be the letter), tried in turn.
_LEVELS = ((0.55, False), (0.35, False), (0.55, True), (0.35, True))


def _min_area(h: int, w: int) -> int:
    return max(3, int(0.002 * h * w))


def extract_many(crops: Sequence[np.ndarray], cell_px: int) -> list[Glyph]:
    """:func:`extract` of every crop, the same glyphs: the tile levels come from one histogram per crop
    taken all at once, and the blobs of all crops from one labelling of a mosaic of them per threshold. A
    crop not of the common size is cut by :func:`extract`."""
    greys = [cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop for crop in crops]
    shape = max({g.shape for g in greys}, key=[g.shape for g in greys].count) if greys else (0, 0)
    batch = [i for i, g in enumerate(greys) if g.shape == shape]
    out = {i: extract(grey, cell_px) for i, grey in enumerate(greys) if grey.shape != shape}
    if batch:
        out.update(zip(batch, _extract_stack(np.stack([greys[i] for i in batch]), cell_px), strict=True))
    return [out[i] for i in range(len(greys))]


def _extract_stack(stack: np.ndarray, cell_px: int) -> list[Glyph]:
    """:func:`extract` of each (h, w) grey crop of ``stack``."""
    count, h, w = stack.shape
    c0, c1 = int(h * 0.2), int(h * 0.8)
    centres = stack[:, c0:c1, c0:c1]
    size = centres[0].size
    cumulative = np.cumsum(np.bincount((centres.reshape(count, -1) + (np.arange(count) * 256)[:, None]).ravel(),
                                       minlength=count * 256).reshape(count, 256), axis=1)
    ink_level, middle, background, light = _percentiles_cumulative(cumulative, size, (3, 50, 85, 97)).T
    inverted = light - middle > np.maximum(1.5 * (middle - ink_level), 0.3 * light)
    if inverted.any():
        stack = stack.copy()
        stack[inverted] = 255 - stack[inverted]
        # The histogram of 255 - v is the histogram of v reversed.
        flipped = np.cumsum(np.diff(cumulative[inverted], axis=1, prepend=0)[:, ::-1], axis=1)
        ink_level[inverted], background[inverted] = _percentiles_cumulative(flipped, size, (3, 85)).T
    contrast = (background - ink_level) / np.maximum(background, 1.0)
    out = {i: Glyph(None, c, 0.0) for i, c in enumerate(contrast.tolist()) if c < NO_INK}
    todo = np.flatnonzero(contrast >= NO_INK)
    if not todo.size:
        return [out[i] for i in range(count)]
    otsu = np.array([cv2.threshold(stack[i, c0:c1, c0:c1], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
                     for i in todo.tolist()])
    soft = _soft_ink(_LEVELS_256[None, :], ink_level[todo][:, None], background[todo][:, None])
    for level, whole_tile in _LEVELS:
        thresh = np.minimum(otsu, ink_level[todo] + level * (background[todo] - ink_level[todo]))
        crops = stack[todo]
        done = _cut_at_level(crops, crops < thresh[:, None, None], soft, contrast[todo], cell_px, whole_tile)
        out.update((i, glyph) for i, glyph in zip(todo.tolist(), done, strict=True) if glyph is not None)
        left = np.array([glyph is None for glyph in done], bool)
        todo, otsu, soft = todo[left], otsu[left], soft[left]
        if not todo.size:
            break
    for i in todo.tolist():
        out[i] = Glyph(None, float(contrast[i]), 0.0)  # no letter at any level
    for i in np.flatnonzero(inverted).tolist():
        if out[i].image is not None:
            out[i] = replace(out[i], light_ink=True)
    return [out[i] for i in range(count)]


def _cut_at_level(stack: np.ndarray, dark: np.ndarray, soft: np.ndarray, contrast: np.ndarray, cell_px: int,
                  whole_tile: bool) -> list[Glyph | None]:
    """The glyph of each crop of ``stack`` whose letter stands out in ``dark`` (its ink at one threshold),
    as :func:`extract` finds it at that threshold; None where it does not. ``soft``: the soft ink of each
    grey level per crop (:func:`_soft_ink`);
    ``whole_tile``: a blob as big as the tile may be the letter (see :func:`extract`)."""
    count, h, w = stack.shape
    # One labelling for all crops: a mosaic with a blank gutter between them, on an even pitch so that each
    # crop's blobs are numbered in the order a labelling of that crop alone gives them (ties keep their order).
    pitch_y, pitch_x = h + 1 + (h + 1) % 2, w + 1 + (w + 1) % 2
    columns = int(np.ceil(np.sqrt(count)))
    rows = -(-count // columns)
    mosaic = np.zeros((rows, pitch_y, columns, pitch_x), np.uint8)
    at_row, at_column = np.divmod(np.arange(count), columns)
    mosaic.transpose(0, 2, 1, 3)[at_row, at_column, :h, :w] = dark
    mosaic = mosaic.reshape(rows * pitch_y, columns * pitch_x)
    # 16-bit labels: half the time of 32-bit ones here, the same labelling (far fewer than 65536 blobs).
    _, labels, stats, cents = cv2.connectedComponentsWithStats(mosaic, connectivity=8, ltype=cv2.CV_16U)
    x, y, bw, bh, area = stats.T
    origin_x, origin_y = x // pitch_x * pitch_x, y // pitch_y * pitch_y
    tile = y // pitch_y * columns + x // pitch_x
    x, y = x - origin_x, y - origin_y
    # Centres within the crop, exactly as a labelling of the crop alone gives them (sums of integer coordinates).
    cents = np.stack([(np.rint(cents[:, 0] * area) - origin_x * area) / area,
                      (np.rint(cents[:, 1] * area) - origin_y * area) / area], axis=1)
    local = np.stack([x, y, bw, bh, area], axis=1)
    inside = (area >= _min_area(h, w)) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    inside[0] = False  # the gutters and the background
    small = np.maximum(bw, bh) < _OUTLINE * cell_px
    letter_sized = np.ones_like(small) if whole_tile else small.copy()
    outlines = inside & ~small
    for k in np.unique(tile[outlines]).tolist():
        mine = np.flatnonzero(tile == k)
        letter_sized[mine] &= ~_on_outline(local[mine], outlines[mine], cell_px)
    mid = np.flatnonzero(inside & letter_sized & (np.abs(cents[:, 0] - w / 2) < 0.3 * w)
                         & (np.abs(cents[:, 1] - h / 2) < 0.3 * h))

    def crop_labels(k: int) -> np.ndarray:
        r, c = divmod(k, columns)
        return labels[r * pitch_y : r * pitch_y + h, c * pitch_x : c * pitch_x + w]

    if whole_tile:
        # An outline with nothing inside it is a tile without a letter (a blank), not a letter run into it.
        mid = np.array([i for i in mid.tolist() if small[i]
                        or _inner_extent(crop_labels(int(tile[i])), local[i], i, cell_px) >= 0.25 * cell_px], np.intp)
    # Per crop the largest such blob, the first in label order among equals (as np.argmax).
    mid = mid[np.lexsort((mid, -area[mid], tile[mid]))]
    mains = mid[np.r_[True, tile[mid][1:] != tile[mid][:-1]]] if mid.size else mid
    main_of = dict(zip(tile[mains].tolist(), mains.tolist(), strict=True))
    kept = np.flatnonzero(inside)
    kept = kept[np.argsort(tile[kept], kind="stable")]
    starts = np.searchsorted(tile[kept], np.arange(count + 1)).tolist()
    kept_list, longest = kept.tolist(), np.maximum(bh, bw).tolist()
    local_list, cents_list = local.tolist(), cents.tolist()
    out: list[Glyph | None] = [None] * count
    for k, main in main_of.items():
        if longest[main] < 0.25 * cell_px:
            continue
        out[k] = _cut(stack[k], dark[k], soft[k], crop_labels(k), local_list, cents_list,
                      kept_list[starts[k] : starts[k + 1]], main, float(contrast[k]), cell_px)
    return out


def _cut(grey: np.ndarray, dark: np.ndarray, ink_of: np.ndarray, labels: np.ndarray, stats: list[list[int]],
         cents: list[list[float]], keep: list[int], main: int, contrast: float, cell_px: int) -> Glyph:
    """The glyph of a crop whose blobs are found: ``main`` the letter, ``keep`` the blobs inside the crop
    (labels of ``labels``, with their crop ``stats`` and centres), ``dark`` the ink at the threshold used,
    ``ink_of`` the soft ink of each grey level (:func:`_soft_ink`)."""
    mask = (labels == main).view(np.uint8)
    mx, my, mw, mh, _ = stats[main]
    marks = 0
    blob = (slice(my, my + mh), slice(mx, mx + mw))
    # Core ink (soft ink above 0.6) is the grey levels below the first that has less (soft ink falls with the
    # level).
    core_level = np.count_nonzero(ink_of > 0.6)
    core = (grey[blob] < core_level) & mask[blob].view(bool)
    letter_box = _without_merged_digit(core, mask[blob])
    if letter_box is not None:
        lx, ly, mw, mh = letter_box
        mx, my = mx + lx, my + ly
        blob = (slice(my, my + mh), slice(mx, mx + mw))
        core = (grey[blob] < core_level) & mask[blob].view(bool)
    x0, y0, x1, y1 = mx, my, mx + mw, my + mh  # the box of everything kept
    split = _split_merged_marks(core)
    if split:
        # Umlaut dots that touch the letter: the letter starts below the gap.
        marks = 1
        my, mh = my + split, mh - split
    if max(mh, mw) < 0.25 * cell_px:
        return Glyph(None, contrast, mh / cell_px)
    # The letter as it is before pieces join it: its stroke width is measured only if marks need it.
    box_of_letter = (slice(my, my + mh), slice(mx, mx + mw))
    letter = mask[box_of_letter]
    for i in keep:
        if i == main:
            continue
        x, y, bw, bh, _ = stats[i]
        cx, cy = cents[i]
        overlaps_x = x < mx + mw and x + bw > mx
        above = y + bh <= my + 0.15 * mh
        is_digit = cx > mx + 0.6 * mw and cy > my + 0.5 * mh and bh < 0.7 * mh
        if is_digit:
            continue
        if above and overlaps_x:
            continue  # diacritics are looked for below, within the tile
        near = x + bw >= mx - _PIECE_GAP * mh and x <= mx + mw + _PIECE_GAP * mh
        if near and x >= mx - 0.3 * mh and x + bw <= mx + mw + 0.3 * mh and y >= my - 1 and y + bh <= my + mh + 1:
            if letter.base is not None:
                letter = letter.copy()
            mask[labels == i] = 1  # a piece of the letter itself (a thin stroke broke off)
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + bw), max(y1, y + bh)
    widths: list[float] = []

    def stroke() -> float:
        if not widths:
            widths.append(_stroke_width(letter))
        return widths[0]

    for x, y, bw, bh in _add_marks(dark, grey, ink_of, mask, (mx, my, mw, mh), stroke):
        marks = 1
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + bw), max(y1, y + bh)
    # Soft ink inside the kept blobs, a little dilated for anti-aliasing (no blob reaches beyond the box).
    box = ink_of[grey[y0:y1, x0:x1]] * cv2.dilate(mask[y0:y1, x0:x1], _SQUARE_3)
    side = int(max(y1 - y0, x1 - x0) * 1.1) + 2
    oy, ox = (side - (y1 - y0)) // 2, (side - (x1 - x0)) // 2
    canvas = cv2.copyMakeBorder(box, oy, side - oy - (y1 - y0), ox, side - ox - (x1 - x0), cv2.BORDER_CONSTANT, value=0)
    image = cv2.resize(canvas, (GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_AREA)
    h, w = grey.shape
    offset = ((mx + mw / 2 - w / 2) / cell_px, (my + mh / 2 - h / 2) / cell_px)
    return Glyph(image, contrast, mh / cell_px, marks, offset)


_SQUARE_3 = np.ones((3, 3), np.uint8)
#: Every grey level, for tables of what each level means.
_LEVELS_256 = np.arange(256, dtype=np.uint8)


def _soft_ink(grey: np.ndarray, ink_level: float | np.ndarray, background: float | np.ndarray) -> np.ndarray:
    """Soft ink, float32: darkness relative to the tile, 1 at the letter's own ink level. The levels are
    Python floats, or float64 arrays that broadcast over ``grey`` (a stack of crops); either way they meet
    the pixels as float32, as a Python float does."""
    if isinstance(background, float):
        return np.clip((background - grey.astype(np.float32)) / max(background - ink_level, 1.0), 0, 1)
    spread = np.maximum(background - ink_level, 1.0).astype(np.float32)
    return np.clip((background.astype(np.float32) - grey.astype(np.float32)) / spread, 0, 1)


def _inner_extent(labels: np.ndarray, box: np.ndarray, index: int, cell_px: int) -> float:
    """How tall or wide the ink of blob ``index`` is inside its box shrunk by a rim's width on each side."""
    x, y, bw, bh = (int(v) for v in box[:4])
    rim = int(round(_EDGE_RIM * cell_px))
    inner = labels[y + rim : y + bh - rim, x + rim : x + bw - rim] == index
    if not inner.any():
        return 0.0
    ys, xs = np.nonzero(inner)
    return float(max(ys.max() - ys.min(), xs.max() - xs.min()) + 1)


def _on_outline(stats: np.ndarray, outlines: np.ndarray, cell_px: int) -> np.ndarray:
    """Per blob: a thin bar lying along a side of an outline's box (the outline round a tile broken at a
    darker threshold: a blank tile's edge read as an I)."""
    x, y, bw, bh = (stats[:, k].astype(np.float32) for k in range(4))
    near, thin = _EDGE_NEAR * cell_px, _EDGE_THIN * cell_px
    out = np.zeros(len(stats), bool)
    for i in np.flatnonzero(outlines):
        ox, oy, ow, oh = (float(v) for v in stats[i, :4])
        upright = (bw <= thin) & ((np.abs(x - ox) <= near) | (np.abs(x + bw - ox - ow) <= near)) \
            & (y >= oy - near) & (y + bh <= oy + oh + near)
        lying = (bh <= thin) & ((np.abs(y - oy) <= near) | (np.abs(y + bh - oy - oh) <= near)) \
            & (x >= ox - near) & (x + bw <= ox + ow + near)
        out |= upright | lying
    return out


def ink_shape(crop: np.ndarray, cell_px: int) -> np.ndarray | None:
    """The biggest ink blob in the middle of a tile crop, whole, as a (GLYPH_PX, GLYPH_PX) float32 image
    (aspect kept); None when there is none. Unlike :func:`extract` nothing is split off as a mark or a
    value digit: this is the print of a tile that carries a symbol rather than a letter (an arrow)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    h, w = grey.shape
    c0, c1 = int(h * 0.2), int(h * 0.8)
    ink_level, background = _percentiles(grey[c0:c1, c0:c1], (3, 85))
    if background - ink_level < 0.3 * max(background, 1.0):
        return None
    dark = (grey < ink_level + 0.5 * (background - ink_level)).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(dark, connectivity=8)
    middle = [i for i in range(1, n) if abs(cents[i][0] - w / 2) < 0.3 * w and abs(cents[i][1] - h / 2) < 0.3 * h
              and stats[i][0] > 0 and stats[i][1] > 0 and stats[i][0] + stats[i][2] < w
              and stats[i][1] + stats[i][3] < h and max(stats[i][2], stats[i][3]) < 0.8 * cell_px]  # not a tile edge
    if not middle:
        return None
    main = max(middle, key=lambda i: stats[i][4])
    x, y, bw, bh, _ = stats[main]
    if max(bw, bh) < 0.25 * cell_px:
        return None
    side = int(max(bw, bh) * 1.1) + 2
    canvas = np.zeros((side, side), np.float32)
    oy, ox = (side - bh) // 2, (side - bw) // 2
    canvas[oy : oy + bh, ox : ox + bw] = labels[y : y + bh, x : x + bw] == main
    return cv2.resize(canvas, (GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_AREA)


def draw_arrow(tile: np.ndarray, colour: tuple[int, int, int] | int) -> None:
    """Draw an Alfapet arrow tile's print on a square tile image, upright: a bent arrow that runs right and
    turns down (a word's reading order on the tile where it bends). No photo of the real tile was at hand:
    this is the rule sheet's "black arrow on a white tile" ([S] 001) drawn as a turn, and turned tiles show
    it in the other three quarter turns."""
    px = tile.shape[0]
    width = max(2, int(round(0.08 * px)))
    left, top, bend, tip = 0.22 * px, 0.30 * px, 0.58 * px, 0.80 * px
    head = 0.20 * px
    shaft = np.array([[left, top], [bend, top], [bend, tip - head]], np.int32)
    cv2.polylines(tile, [shaft], False, colour, width, lineType=cv2.LINE_AA)
    arrowhead = np.array([[bend - head, tip - head], [bend + head, tip - head], [bend, tip]], np.int32)
    cv2.fillPoly(tile, [arrowhead], colour, lineType=cv2.LINE_AA)


def _percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, qs)`` (linear interpolation) from one sort: several times faster on a crop.

    >>> _percentiles(np.arange(11, dtype=np.uint8), (0, 50, 95))
    [0.0, 5.0, 9.5]
    """
    size = values.size
    if values.dtype == np.uint8:
        # The k-th smallest of 8-bit values from their histogram: no sort at all.
        below = np.cumsum(np.bincount(values.ravel(), minlength=256))
        return _percentiles_cumulative(below[None, :], size, qs)[0].tolist()
    positions = [q / 100 * (size - 1) for q in qs]
    wanted = np.array([[int(at), min(int(at) + 1, size - 1)] for at in positions])
    found = np.sort(values, axis=None).astype(np.float64)[wanted]
    return [float(low + (high - low) * (at - int(at))) for (low, high), at in zip(found, positions, strict=True)]


def _percentiles_cumulative(below: np.ndarray, size: int, qs: tuple[float, ...]) -> np.ndarray:
    """(rows, len(qs)) float64: :func:`_percentiles` of ``size`` 8-bit values per row, from each row's
    cumulative histogram (256 counts)."""
    positions = np.array([q / 100 * (size - 1) for q in qs])
    whole = np.array([int(at) for at in positions])
    wanted = np.stack([whole, np.minimum(whole + 1, size - 1)], axis=1).ravel()
    # The k-th smallest (from 0) is the first value whose cumulative count exceeds k: one search over all rows
    # laid end to end (row r's counts raised by the r * size values of the rows before it).
    rows = len(below)
    chained = (below + (np.arange(rows) * size)[:, None]).ravel()
    targets = (np.arange(rows) * size)[:, None] + wanted[None, :] + 1
    found = (np.searchsorted(chained, targets.ravel()).reshape(rows, -1) - (np.arange(rows) * 256)[:, None])
    found = found.astype(np.float64).reshape(rows, -1, 2)
    low, high = found[:, :, 0], found[:, :, 1]
    return low + (high - low) * (positions - whole)


def _add_marks(dark: np.ndarray, grey: np.ndarray, ink_of: np.ndarray, mask: np.ndarray,
               box: tuple[int, int, int, int], stroke: Callable[[], float]) -> list[tuple[int, int, int, int]]:
    """Find diacritics between the tile's top edge and the letter, add them to ``mask`` and give their boxes
    (x, y, width, height).

    The search stops at the tile's edge (the first row above the letter that is dark across the letter's
    width: dots cover only part of a row), so dots that touch the edge come free and premium marks of
    the board beyond the tile are never taken. A diacritic is as dark (``ink_of``: the soft ink of each grey
    level of ``grey``) and about as thick as the letter's strokes (``stroke()``: the letter's stroke width,
    measured when first asked for); a tile edge or the shadow line of the tile above is a faint hairline.
    """
    mx, my, mw, mh = box
    h, w = dark.shape
    xa, xb = max(0, int(mx - 0.2 * mw)), min(w, int(mx + mw + 0.2 * mw) + 1)
    top = max(0, int(my - 0.5 * mh))
    # The last row at least half dark (counted: the same rows as a mean >= 0.5).
    counts = dark[top:my, xa:xb].sum(axis=1).tolist()
    edge = next((r for r in range(len(counts) - 1, -1, -1) if 2 * counts[r] >= xb - xa), -1)
    top += edge + 1
    if my - top < 2 or not any(counts[edge + 1 :]):
        return []
    region = dark[top:my, xa:xb]
    n, labels, stats, cents = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
    found = []
    for i, (x, y, bw, bh, area) in enumerate(stats.tolist()):
        if i == 0 or area < 3 or x == 0 or x + bw >= xb - xa:
            continue
        cx = xa + float(cents[i][0])
        # On the shared photos dots measure darkness >= 0.67, edge hairlines <= 0.51.
        centred = abs(cx - (mx + mw / 2)) < 0.4 * mw and bw <= 0.95 * mw
        if not centred:
            continue
        blob = labels == i
        if float(ink_of[grey[top:my, xa:xb]][blob].mean()) >= 0.55 and bh >= max(2.0, 0.45 * stroke()):
            mask[top:my, xa:xb][blob] = 1
            found.append((xa + x, top + y, bw, bh))
    return found


def _stroke_width(mask: np.ndarray) -> float:
    """Typical stroke thickness of a binary letter (twice the median distance to the background on its ridge)."""
    dist = cv2.distanceTransform(cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3)
    ridge = dist[dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8))]
    ridge = ridge[ridge > 0]
    return 2.0 * float(np.median(ridge)) if ridge.size else 1.0


def _without_merged_digit(core: np.ndarray, mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """Take a value digit that a blurred photo ran into the letter off ``mask`` (the blob's box, changed in
    place) and give the letter's box (x, y, width, height) within it; None when no digit is merged.

    The letter's body is the largest piece of the darker half of its ink (``core``) with strokes thinner than
    3 px opened away: a digit's strokes and the bridge to it are thinner than a letter's. The digit is what
    is left low and to the right of the body, starting at or beyond its right edge (a Q's tail starts inside
    the ring) and below its top third. Each pixel of the blob goes to the nearer of letter and digit.
    """
    # A digit that reaches below the letter's foot holds the blob's last row alone: most blobs stop here.
    if np.argmax(mask[-1]) < 0.6 * mask.shape[1]:
        return None
    opened = cv2.morphologyEx(core.view(np.uint8), cv2.MORPH_OPEN, _SQUARE_3)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n < 2:
        return None
    body = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    lx, ly, lw, lh, _ = stats[body].tolist()
    if lh < 0.6 * core.shape[0] or lx + lw >= core.shape[1]:
        return None
    letter = (labels == body).view(np.uint8)
    rest = core & ~cv2.dilate(letter, _SQUARE_3).view(bool)
    n, pieces, stats, cents = cv2.connectedComponentsWithStats(rest.view(np.uint8), connectivity=8)
    digit = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i].tolist()
        digit[i] = (area >= 3 and x >= lx + 0.85 * lw and y >= ly + 0.3 * lh and cents[i][1] > ly + 0.55 * lh
                    and bh < 0.6 * lh and bw < 0.6 * lh)
    if not digit.any():
        return None
    # Nearness by distance to each side's ink: the bridge between them is shared out.
    to_letter = cv2.distanceTransform(1 - letter, cv2.DIST_L2, 3)
    to_digit = cv2.distanceTransform((~digit[pieces]).view(np.uint8), cv2.DIST_L2, 3)
    taken = (to_digit < to_letter) & mask.view(bool)
    rows = np.flatnonzero(taken.any(axis=1))
    # The digit with its fainter ink reaches below the letter's foot (the end of an E's bar does not).
    if rows[-1] + 1 <= ly + lh + max(1.0, 0.1 * lh) or rows[-1] - rows[0] + 1 >= 0.7 * lh:
        return None
    mask[taken] = 0
    ys, xs = np.nonzero(mask)
    if not ys.size:
        return None
    x0, y0 = int(xs.min()), int(ys.min())
    return x0, y0, int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1


def _split_merged_marks(core: np.ndarray) -> int:
    """Rows from the blob's top down to the letter when umlaut dots touch it (0 if nothing to split).

    With the darker half of the ink only (``core``: the blob's box, True where its pixels have soft ink above
    0.6), merged dots part from the letter: a row band in the upper part of the blob without core ink, above
    it a short mark narrower than the letter.
    """
    mh, mw = core.shape
    rows = core.sum(axis=1).tolist()
    top_rows = int(0.4 * mh)
    first = next((r for r, count in enumerate(rows) if count), 0)
    for r in range(first + 2, top_rows):
        if rows[r] == 0 and any(rows[r + 1 :]):
            cols = np.flatnonzero(core[:r].any(axis=0))
            letter_top = next(at for at in range(r, mh) if rows[at])
            if r - first <= 0.3 * mh and cols.size and cols[-1] - cols[0] + 1 <= 0.9 * mw \
                    and letter_top <= 0.4 * mh:
                return letter_top
            return 0
    return 0


_BINS = 8
_POOL = 4  # 4x4 pooling cells over the glyph


def features(glyph_image: np.ndarray) -> np.ndarray:
    """Gradient-orientation histograms (4x4 cells, 8 signed bins) plus the coarse ink layout, L2-normalised.
    :func:`features_many` gives the same numbers for a stack of glyphs."""
    img = np.asarray(glyph_image, np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    mag, ang = cv2.cartToPolar(gx, gy)
    pos = ang * (_BINS / (2 * np.pi))
    lo = np.floor(pos).astype(np.int32) % _BINS
    frac = pos - np.floor(pos)
    # Each pixel's magnitude split between its two nearest orientation bins (one bincount, not np.add.at).
    pixels = np.arange(img.size)
    index = np.concatenate([lo.ravel() * img.size + pixels, ((lo.ravel() + 1) % _BINS) * img.size + pixels])
    weight = np.concatenate([(mag * (1 - frac)).ravel(), (mag * frac).ravel()])
    planes = np.bincount(index, weight, minlength=_BINS * img.size).astype(np.float32).reshape(_BINS, *img.shape)
    cell = GLYPH_PX // _POOL
    hist = planes.reshape(_BINS, _POOL, cell, _POOL, cell).sum(axis=(2, 4)).ravel()
    hist = np.sqrt(hist)  # tame strong edges (Hellinger-style)
    coarse = cv2.resize(img, (8, 8), interpolation=cv2.INTER_AREA).ravel()
    vec = np.concatenate([hist / (np.linalg.norm(hist) + 1e-6), 0.6 * coarse / (np.linalg.norm(coarse) + 1e-6)])
    return (vec / (np.linalg.norm(vec) + 1e-6)).astype(np.float32)


def features_many(images: np.ndarray) -> np.ndarray:
    """(count, features): :func:`features` of each (GLYPH_PX, GLYPH_PX) glyph of a stack, the same numbers
    (each step the same float32 arithmetic, done once for the whole stack)."""
    imgs = np.ascontiguousarray(images, np.float32).reshape(-1, GLYPH_PX, GLYPH_PX)
    n, px, size = len(imgs), GLYPH_PX, GLYPH_PX * GLYPH_PX
    # cv2.Sobel (3x3, its BORDER_REFLECT_101) of every glyph at once, its sums in its order: the difference
    # of the neighbours, then the outer two of the smoothing [1, 2, 1] added first (the same bits: a test).
    padded = np.empty((n, px + 2, px + 2), np.float32)
    padded[:, 1:-1, 1:-1] = imgs
    padded[:, 0, 1:-1], padded[:, -1, 1:-1] = imgs[:, 1], imgs[:, -2]
    padded[:, :, 0], padded[:, :, -1] = padded[:, :, 2], padded[:, :, -3]
    across = padded[:, :, 2:] - padded[:, :, :-2]
    gx = (across[:, :-2] + across[:, 2:]) + 2 * across[:, 1:-1]
    smooth = (padded[:, :, :-2] + padded[:, :, 2:]) + 2 * padded[:, :, 1:-1]
    gy = smooth[:, 2:] - smooth[:, :-2]
    mag, ang = cv2.cartToPolar(gx.reshape(n * px, px), gy.reshape(n * px, px))
    pos = ang * (_BINS / (2 * np.pi))
    floor = np.floor(pos)
    lo = (floor.astype(np.intp) % _BINS).reshape(n, size)
    frac = (pos - floor).reshape(n, size)
    mag = mag.reshape(n, size)
    # A pixel adds to two different bins, so each plane value is one weight: written, not summed.
    planes = np.zeros(n * _BINS * size, np.float32)
    at = (np.arange(n) * (_BINS * size))[:, None] + np.arange(size)[None, :]
    planes[(at + lo * size).ravel()] = (mag * (1 - frac)).ravel()
    planes[(at + (lo + 1) % _BINS * size).ravel()] = (mag * frac).ravel()
    # The pooling sums in the order numpy's sum over (cell rows, cell columns) adds them.
    cell = px // _POOL
    columns = planes.reshape(n * _BINS * px * _POOL, cell)
    rows = columns[:, 0] + columns[:, 1]
    for k in range(2, cell):
        rows += columns[:, k]
    rows = rows.reshape(n * _BINS, _POOL, cell, _POOL)
    hist = rows[:, :, 0] + rows[:, :, 1]
    for k in range(2, cell):
        hist += rows[:, :, k]
    hist = np.sqrt(hist.reshape(n, -1))
    coarse = cv2.resize(imgs.reshape(n * px, px), (8, n * 8), interpolation=cv2.INTER_AREA).reshape(n, 64)
    vec = np.concatenate([hist / (_norms(hist) + 1e-6), 0.6 * coarse / (_norms(coarse) + 1e-6)], axis=1)
    return (vec / (_norms(vec) + 1e-6)).astype(np.float32)


def _norms(rows: np.ndarray) -> np.ndarray:
    """(count, 1): each row's L2 norm as np.linalg.norm gives it (one dot product per row)."""
    return np.sqrt(np.matmul(rows[:, None, :], rows[:, :, None])[:, 0])

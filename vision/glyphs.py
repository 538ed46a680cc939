# SPDX-License-Identifier: GPL-3.0-or-later
"""Cut the letter out of a tile: keep umlaut and ring dots, drop tile edges, shadows and the value digit.

A tile's crop (the cell plus a little around it, since tiles sit loosely) is thresholded against the
tile's own background brightness. Ink that touches the crop border is a neighbour, a tile edge or a
shadow and is dropped. The letter is the biggest ink blob near the centre; blobs above it within its
width are diacritics; a smaller blob low and to the right of it is the value digit and is dropped. The
result is a fixed-size, aspect-preserving glyph image: what the classifiers see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Glyph:
    image: np.ndarray | None  # (GLYPH_PX, GLYPH_PX) float32 ink in 0..1, or None for a tile without a letter
    #: Ink contrast against the tile (0..1); low values mean a faint or missing letter.
    contrast: float
    #: Height of the letter relative to the cell.
    height: float
    #: 1 when separate marks sit above the letter (umlaut dots, rings, accents; two dots may merge), else 0.
    marks: int = 0

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
    """The normalised glyph of a tile crop (BGR or grey)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    h, w = grey.shape
    c0, c1 = int(h * 0.2), int(h * 0.8)
    centre = grey[c0:c1, c0:c1]
    # One histogram gives the upright levels too (each percentile is taken on its own).
    ink_level, middle, background, light = _percentiles(centre, (3, 50, 85, 97))
    if light - middle > max(1.5 * (middle - ink_level), 0.3 * light):
        # Light letters on a dark tile: the tile is the bulk of the crop, the letter its far tail.
        grey = 255 - grey
        centre = grey[c0:c1, c0:c1]
        ink_level, background = _percentiles(centre, (3, 85))
    contrast = (background - ink_level) / max(background, 1.0)
    if contrast < 0.3:
        return Glyph(None, contrast, 0.0)
    otsu, _ = cv2.threshold(centre, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    min_area = max(3, int(0.002 * h * w))
    # A blurred letter can run into the dark gap at the tile's edge (and so touch the crop's border):
    # a darker threshold parts them. A blob about as big as the cell is the outline printed or shaded round
    # the tile, not its letter; only when no other blob will do is it taken (a letter run into that outline).
    for level, whole_tile in ((0.55, False), (0.35, False), (0.55, True), (0.35, True)):
        thresh = min(otsu, ink_level + level * (background - ink_level))
        n, labels, stats, cents = cv2.connectedComponentsWithStats((grey < thresh).astype(np.uint8), connectivity=8)
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
    keep = np.flatnonzero(inside).tolist()
    main = int(mid[np.argmax(area[mid])])
    # Soft ink: darkness relative to the tile, 1 at the letter's own ink level.
    soft = np.clip((background - grey.astype(np.float32)) / max(background - ink_level, 1.0), 0, 1)
    mask = (labels == main).astype(np.uint8)
    mx, my, mw, mh, _ = stats[main]
    marks = 0
    split = _split_merged_marks(mask[my : my + mh, mx : mx + mw], soft[my : my + mh, mx : mx + mw])
    if split:
        # Umlaut dots that touch the letter: the letter starts below the gap.
        marks = 1
        my, mh = my + split, mh - split
    if max(mh, mw) < 0.25 * cell_px:
        return Glyph(None, contrast, mh / cell_px)
    letter = mask[my : my + mh, mx : mx + mw].copy()  # its stroke width is measured only if marks need it
    for i in keep:
        if i == main:
            continue
        x, y, bw, bh, area = stats[i]
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
            mask[labels == i] = 1  # a piece of the letter itself (a thin stroke broke off)
    if _add_marks(grey < thresh, soft, mask, (mx, my, mw, mh), functools.cache(lambda: _stroke_width(letter))):
        marks = 1
    ys, xs = np.nonzero(mask)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    # Soft ink inside the kept blobs, a little dilated for anti-aliasing.
    soft *= cv2.dilate(mask, np.ones((3, 3), np.uint8)).astype(np.float32)
    box = soft[y0:y1, x0:x1]
    side = int(max(y1 - y0, x1 - x0) * 1.1) + 2
    canvas = np.zeros((side, side), np.float32)
    oy, ox = (side - (y1 - y0)) // 2, (side - (x1 - x0)) // 2
    canvas[oy : oy + y1 - y0, ox : ox + x1 - x0] = box
    image = cv2.resize(canvas, (GLYPH_PX, GLYPH_PX), interpolation=cv2.INTER_AREA)
    return Glyph(image, contrast, mh / cell_px, marks)


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
    positions = [q / 100 * (size - 1) for q in qs]
    wanted = np.array([[int(at), min(int(at) + 1, size - 1)] for at in positions])
    if values.dtype == np.uint8:
        # The k-th smallest of 8-bit values from their histogram: no sort at all.
        below = np.cumsum(np.bincount(values.ravel(), minlength=256))
        found = np.searchsorted(below, wanted + 1).astype(np.float64)
    else:
        found = np.sort(values, axis=None).astype(np.float64)[wanted]
    return [float(low + (high - low) * (at - int(at))) for (low, high), at in zip(found, positions, strict=True)]


def _add_marks(dark: np.ndarray, soft: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int],
               stroke: Callable[[], float]) -> bool:
    """Find diacritics between the tile's top edge and the letter and add them to ``mask``.

    The search stops at the tile's edge (the first row above the letter that is dark across the letter's
    width: dots cover only part of a row), so dots that touch the edge come free and premium marks of
    the board beyond the tile are never taken. A diacritic is as dark and about as thick as the letter's
    strokes (``stroke()``: the letter's stroke width, measured when first asked for); a tile edge or the
    shadow line of the tile above is a faint hairline.
    """
    mx, my, mw, mh = box
    h, w = dark.shape
    xa, xb = max(0, int(mx - 0.2 * mw)), min(w, int(mx + mw + 0.2 * mw) + 1)
    top = max(0, int(my - 0.5 * mh))
    dark_share = dark[top:my, xa:xb].mean(axis=1)
    edge_rows = np.flatnonzero(dark_share >= 0.5)
    if edge_rows.size:
        top += int(edge_rows[-1]) + 1
    if my - top < 2:
        return False
    region = dark[top:my, xa:xb].astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(region, connectivity=8)
    found = False
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 3 or x == 0 or x + bw >= xb - xa:
            continue
        blob = labels == i
        darkness = float(soft[top:my, xa:xb][blob].mean())
        cx = xa + cents[i][0]
        # On the shared photos dots measure darkness >= 0.67, edge hairlines <= 0.51.
        centred = abs(cx - (mx + mw / 2)) < 0.4 * mw and bw <= 0.95 * mw
        if darkness >= 0.55 and centred and bh >= max(2.0, 0.45 * stroke()):
            mask[top:my, xa:xb][blob] = 1
            found = True
    return found


def _stroke_width(mask: np.ndarray) -> float:
    """Typical stroke thickness of a binary letter (twice the median distance to the background on its ridge)."""
    dist = cv2.distanceTransform(cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3)
    ridge = dist[dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8))]
    ridge = ridge[ridge > 0]
    return 2.0 * float(np.median(ridge)) if ridge.size else 1.0


def _split_merged_marks(mask: np.ndarray, soft: np.ndarray) -> int:
    """Rows from the blob's top down to the letter when umlaut dots touch it (0 if nothing to split).

    With the darker half of the ink only, merged dots part from the letter: a row band in the upper part
    of the blob without core ink, above it a short mark narrower than the letter.
    """
    mh, mw = mask.shape
    core = (soft > 0.6) & (mask > 0)
    rows = core.sum(axis=1)
    top_rows = int(0.4 * mh)
    first = int(np.argmax(rows > 0))
    for r in range(first + 2, top_rows):
        if rows[r] == 0 and rows[r + 1 :].sum() > 0:
            above = core[:r]
            cols = np.nonzero(above.any(axis=0))[0]
            letter_top = r + int(np.argmax(rows[r:] > 0))
            if r - first <= 0.3 * mh and cols.size and cols[-1] - cols[0] + 1 <= 0.9 * mw \
                    and letter_top <= 0.4 * mh:
                return letter_top
            return 0
    return 0


_BINS = 8
_POOL = 4  # 4x4 pooling cells over the glyph


def features(glyph_image: np.ndarray) -> np.ndarray:
    """Gradient-orientation histograms (4x4 cells, 8 signed bins) plus the coarse ink layout, L2-normalised."""
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

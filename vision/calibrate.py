# SPDX-License-Identifier: GPL-3.0-or-later
"""Make a board profile from one photo of the (empty) board, whatever board it is.

The grid is found from its lines (:func:`vision.locate.locate_structure`; no colour is assumed), so a
photo without a board is refused with the reason instead of getting a grid laid over it. The cells'
colours are then grouped into colour classes and compared with every known premium layout of that size
(engine/data/layouts and the user's layouts folder) under the four quarter turns: the layout whose
squares of one kind look alike and whose kinds look different wins, and its colours go into the
profile. When no known layout explains the colour classes, the classes are reported as a new layout
(:func:`layout_draft` writes them as a layout file to finish by hand). Cells that look like tiles
(bright and nearly grey) are left out, so a photo with a few tiles on it also works, less precisely.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import colour, find, locate
from vision.errors import BoardNotFound
from vision.occupancy import cell_colours
from vision.profile import BoardProfile

DEFAULT_TILE = (188, 212, 222)  # cream tile after white balance; the reader adapts it per frame
CELL_PX = 32
#: Between-kind over within-kind colour variance a known layout must reach to be taken as the board's.
LAYOUT_MATCH = 1.5


class CalibrationRefused(BoardNotFound):
    """No board in the calibration photo; ``picture`` shows what was looked at."""

    def __init__(self, message: str, picture: np.ndarray) -> None:
        super().__init__(message)
        self.picture = picture


@dataclass(frozen=True)
class Calibration:
    profile: BoardProfile
    geometry: locate.Geometry
    picture: np.ndarray
    #: The known layout the board's colours follow, or None when they follow none (a new layout).
    layout: str | None
    #: Between-kind over within-kind colour variance under that layout (higher = surer).
    layout_fit: float
    #: The cells' colour classes (0 = the most common), rows from corners[0] to corners[1].
    classes: np.ndarray
    line_contrast: float


def _layout_fit(lab: np.ndarray, codes: np.ndarray, usable: np.ndarray) -> float:
    """Between-kind over within-kind colour variance of the cells under a layout's codes (0 when the layout
    has a single kind)."""
    labels = codes[usable]
    cells = lab[usable].astype(np.float64)
    kinds = set(labels.tolist())
    if len(kinds) < 2:
        return 0.0
    overall = cells.mean(axis=0)
    within = between = 0.0
    for kind in kinds:
        sel = cells[labels == kind]
        centre = sel.mean(axis=0)
        within += float(((sel - centre) ** 2).sum())
        between += len(sel) * float(((centre - overall) ** 2).sum())
    return between / max(within, 1e-6)


def _codes(layout_name: str) -> np.ndarray:
    from engine.layout import load_layout
    from engine.squares import Square

    layout = load_layout(layout_name)
    n = layout.size
    return np.array([["*" if Square(r, c) == layout.centre else layout.premium(Square(r, c)).value
                      for c in range(n)] for r in range(n)])


def known_layouts(grid: int) -> list[str]:
    """Names of the layouts Ordvakt knows (built-in and the user's) with this many squares a side."""
    from engine.errors import DataFileError
    from engine.layout import available_layouts, load_layout

    names = []
    for name in available_layouts():
        try:
            if load_layout(name).size == grid:
                names.append(name)
        except DataFileError:
            continue
    return names


def _colour_classes(lab: np.ndarray, usable: np.ndarray, k: int) -> np.ndarray:
    """Cells grouped into ``k`` colour classes (k-means, seeded), 0 = the most common; -1 = not usable."""
    px = lab[usable].reshape(-1, 3).astype(np.float32)
    k = max(1, min(k, len(px)))
    cv2.setRNGSeed(0)  # the same photo must give the same profile, whatever ran before
    # OpenCV's stubs want an array for bestLabels; None (let kmeans make them) is what its docs allow.
    _, labels, _ = cv2.kmeans(px, k, None, (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5),  # type: ignore[call-overload]
                              3, cv2.KMEANS_PP_CENTERS)
    order = np.argsort(-np.bincount(labels.ravel(), minlength=k))
    rank = np.empty(k, int)
    rank[order] = np.arange(k)
    out = np.full(lab.shape[:2], -1, int)
    out[usable] = rank[labels.ravel()]
    return out


def _refusal_picture(frame: np.ndarray, reason: str) -> np.ndarray:
    out = frame.copy()
    scale = max(out.shape[1] / 1200, 0.5)
    cv2.putText(out, "NO BOARD: " + reason[:70], (10, int(40 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale,
                (0, 0, 255), max(1, int(2 * scale)))
    return out


def calibrate(
    frame: np.ndarray, *, grid: int | None = None, layout_name: str | None = None, name: str = "calibrated",
    premium_codes: list[list[str]] | None = None,
) -> tuple[BoardProfile, locate.Geometry, np.ndarray]:
    """Profile, geometry and a picture of what was found, from a photo of the empty board
    (see :func:`calibrate_board`; this form is kept for older callers)."""
    result = calibrate_board(frame, grid=grid, layout_name=layout_name, name=name, premium_codes=premium_codes)
    return result.profile, result.geometry, result.picture


def calibrate_board(
    frame: np.ndarray, *, grid: int | None = None, layout_name: str | None = None, name: str = "calibrated",
    premium_codes: list[list[str]] | None = None,
) -> Calibration:
    """Learn a board from one photo. ``grid``/``layout_name`` fix what would otherwise be learned;
    ``premium_codes`` gives the layout's map directly. Raises :class:`CalibrationRefused` (with the
    picture) when the photo shows no board grid."""
    norm = colour.normalise(frame)
    try:
        geom = locate.locate_structure(norm, grid)
    except BoardNotFound as exc:
        raise CalibrationRefused(f"no board found in the calibration photo: {exc}",
                                 _refusal_picture(norm, str(exc))) from None
    grey = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY)
    line, ring, beyond = find.grid_evidence(grey, geom.corners, geom.grid)
    if not find.is_grid((line, ring, beyond)):
        reason = (f"the best grid found has line contrast {line:.2f} (needs {find.MIN_CONTRAST}) and outer-ring "
                  f"lines {ring:.2f} against {beyond:.2f} beyond; photograph the whole board from above")
        raise CalibrationRefused(f"no board found in the calibration photo: {reason}",
                                 draw_geometry(_refusal_picture(norm, reason), geom))
    n = geom.grid
    warped = geom.warp(norm, CELL_PX)
    lab = cell_colours(cv2.cvtColor(warped, cv2.COLOR_BGR2LAB), n, CELL_PX)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    tile_like = (chroma < 15) & (lab[..., 0] > np.median(lab[..., 0]) + 10)
    usable = ~tile_like

    candidates: list[tuple[float, str | None, int, np.ndarray]] = []
    if premium_codes is not None:
        layouts: list[tuple[str | None, np.ndarray]] = [(layout_name, np.array(premium_codes))]
    else:
        names = [layout_name] if layout_name else known_layouts(n)
        layouts = [(nm, _codes(nm)) for nm in names]
    for nm, codes in layouts:
        if codes.shape != (n, n):
            continue
        for turns in range(4):
            rotated = np.rot90(codes, -turns)
            candidates.append((_layout_fit(lab, rotated, usable), nm, turns, rotated))
    classes = _colour_classes(lab, usable, 6)
    if candidates:
        fit, matched, turns, codes = max(candidates, key=lambda c: c[0])
    else:
        fit, matched, turns, codes = 0.0, None, 0, np.full((n, n), ".")
    if fit < LAYOUT_MATCH and premium_codes is None and layout_name is None:
        matched = None  # the colours follow no known layout: a new layout, reported by its classes
    if turns:
        # Name the corners so that the layout reads the right way round (for layouts that are not symmetric).
        geom = locate.turned(geom, turns)
        lab, usable, classes = (np.rot90(a, turns) for a in (lab, usable, classes))
        codes = np.rot90(codes, turns)
    squares: dict[str, tuple[int, int, int]] = {}
    covered: list[str] = []
    for code in sorted(set(codes.ravel())):
        cells = lab[codes == code]
        # The kind's colour is what most of its cells show; cells far from it hold a tile. (A pale premium
        # looks as grey and bright as a tile, so the tile test alone would hide a whole kind.)
        centre = np.median(cells, axis=0)
        dist = np.linalg.norm(cells - centre, axis=1)
        keep = dist <= 2.5 * np.median(dist) + 8
        if code == "*" or keep.sum() * 2 <= len(cells):
            sel = (codes == code) & usable
            if not sel.any():
                covered.append(code)  # every cell of this kind has a tile on it: its colour is not visible
                continue
            centre = np.median(lab[sel], axis=0)
        else:
            centre = np.median(cells[keep], axis=0)
        squares[code] = _bgr(centre)
    layout_for_centre = matched or layout_name
    centre_kind = _centre_premium(layout_for_centre) if layout_for_centre else "."
    if "*" in squares and centre_kind in squares and centre_kind != "*":
        # The centre is printed in its premium's colour, and it is the one square a photo taken after
        # the first move always has a tile on: its premium's other squares are the safer measure.
        squares["*"] = squares[centre_kind]
    plain = squares.get(".") or _bgr(np.median(lab[usable], axis=0))
    squares.setdefault(".", plain)
    for code in covered:
        # Hidden everywhere: the centre takes its premium's colour, anything else the plain square's,
        # never the colour of the tile that hides it.
        stand_in = centre_kind if code == "*" else "."
        squares[code] = squares.get(stand_in) or plain
    tile = _bgr(np.median(lab[tile_like], axis=0)) if tile_like.sum() >= 2 else DEFAULT_TILE
    inset, area = _grid_inset(norm, geom, plain)
    profile = BoardProfile(name=name, grid=n, layout=matched or layout_name or _default_layout(n), surface=plain,
                           squares=squares, tile=tile, grid_inset=inset,
                           description="calibrated from a photo" + ("" if matched else "; colours follow no known "
                                                                    "layout"))
    picture = draw_geometry(norm, geom, area)
    return Calibration(profile, geom, picture, matched, fit, classes, line)


def _bgr(lab_colour: np.ndarray) -> tuple[int, int, int]:
    med = np.clip(lab_colour, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    b, g, r = cv2.cvtColor(med, cv2.COLOR_LAB2BGR)[0, 0]
    return (int(b), int(g), int(r))


def _default_layout(grid: int) -> str:
    return "alfapet-17" if grid == 17 else "scrabble-15"


def _grid_inset(frame: np.ndarray, geom: locate.Geometry, surface: tuple[int, int, int]):
    """Where the grid sits in the board's coloured area (for the profile's fast first guess), and the area."""
    probe = BoardProfile(name="probe", grid=geom.grid, layout="", surface=surface, squares={".": surface},
                         tile=DEFAULT_TILE)
    try:
        area = locate.find_board_area(frame, probe)
    except BoardNotFound:
        return (0.0, 0.0, 0.0, 0.0), None
    unit = cv2.getPerspectiveTransform(area.astype(np.float32), np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32))
    # The area's corners are named from the frame's top-left; name the grid's the same way to compare.
    g = cv2.perspectiveTransform(find.clockwise(geom.corners).reshape(1, 4, 2), unit).reshape(4, 2)
    inset = (
        float((g[0, 1] + g[1, 1]) / 2), float(1 - (g[1, 0] + g[2, 0]) / 2),
        float(1 - (g[2, 1] + g[3, 1]) / 2), float((g[0, 0] + g[3, 0]) / 2),
    )
    if not all(-0.02 <= v <= 0.29 for v in inset):
        return (0.0, 0.0, 0.0, 0.0), None  # the coloured area is not the board around the grid
    return tuple(min(max(v, 0.0), 0.29) for v in inset), area  # type: ignore[return-value]


def _centre_premium(layout_name: str) -> str:
    """The premium code printed on the layout's centre square ("." when none or unknown)."""
    from engine.errors import DataFileError
    from engine.layout import load_layout

    try:
        layout = load_layout(layout_name)
    except DataFileError:
        return "."
    return layout.premium(layout.centre).value


def layout_draft(classes: np.ndarray, name: str) -> str:
    """A layout file for a board whose colours follow no known layout: class 0 (the most common colour)
    is written as plain squares, the others as C1, C2, ... to be replaced by their premium codes."""
    n = classes.shape[0]
    rows = [" ".join(("." if v <= 0 else f"C{v}").ljust(2) for v in row).rstrip() for row in classes]
    return "\n".join([
        "# Drafted by 'ordvakt calibrate' from a photo: one symbol per colour class of the board's squares.",
        "# Replace C1, C2, ... by premium codes (L2 L3 L4 W2 W3 W4 M2, * for the centre) before using it.",
        f'name = "{name}"', "provisional = true", 'centre_premium = "."', f"# {n}x{n}", 'grid = """',
        *rows, '"""', "",
    ])


def draw_geometry(frame: np.ndarray, geom: locate.Geometry, area: np.ndarray | None = None) -> np.ndarray:
    """The frame with the board area (blue), the fitted grid lines (magenta) and corner A1 (red dot)."""
    out = frame.copy()
    if area is not None:
        cv2.polylines(out, [area.astype(np.int32).reshape(-1, 1, 2)], True, (255, 0, 0), 2)
    n = geom.grid
    inv = np.linalg.inv(geom.to_canonical(1))
    for i in range(n + 1):
        for a, b in (((i, 0), (i, n)), ((0, i), (n, i))):
            pts = cv2.perspectiveTransform(np.array([[a, b]], np.float32).reshape(1, 2, 2), inv).reshape(2, 2)
            cv2.line(out, tuple(int(v) for v in pts[0]), tuple(int(v) for v in pts[1]), (255, 0, 255), 1)
    x, y = (int(v) for v in geom.corners[0])
    cv2.circle(out, (x, y), max(4, int(geom.cell_size / 3)), (0, 0, 255), -1)
    return out

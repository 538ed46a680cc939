# SPDX-License-Identifier: GPL-3.0-or-later
"""Make a board profile from a photo of the (empty) board.

The board's surface colour is not known yet, so the frame's colours are clustered and the largest
compact region around the image centre is taken as the board; the grid inset is then searched (the
inset whose refined grid shows the strongest line lattice wins) and every premium class's colour is
the median of its cells. Cells that look like tiles (bright and nearly grey) are left out, so a photo
with a few tiles on it also works, less precisely.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import colour, locate
from vision.errors import BoardNotFound
from vision.occupancy import cell_colours
from vision.profile import BoardProfile

DEFAULT_TILE = (188, 212, 222)  # cream tile after white balance; the reader adapts it per frame
CELL_PX = 32


def _surface_candidates(frame: np.ndarray, k: int = 6) -> list[tuple[int, int, int]]:
    small = cv2.resize(frame, (120, max(1, int(120 * frame.shape[0] / frame.shape[1]))), interpolation=cv2.INTER_AREA)
    px = small.reshape(-1, 3).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # the same photo must give the same profile, whatever ran before
    _, labels, centres = cv2.kmeans(px, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    counts = np.bincount(labels.ravel(), minlength=k)
    order = np.argsort(-counts)
    return [tuple(int(v) for v in centres[i]) for i in order]  # type: ignore[misc]


def _layout_fit(frame: np.ndarray, geom: locate.Geometry, codes: np.ndarray) -> float:
    """How well the cells under ``geom`` follow the premium layout: between-kind over within-kind colour
    variance (0 when the layout has a single kind, so the line contrast decides)."""
    labels = codes.ravel()
    kinds = set(labels.tolist())
    if len(kinds) < 2:
        return 0.0
    warped = geom.warp(frame, 16)
    lab = cell_colours(cv2.cvtColor(warped, cv2.COLOR_BGR2LAB), geom.grid, 16).reshape(-1, 3).astype(np.float64)
    overall = lab.mean(axis=0)
    within = between = 0.0
    for kind in kinds:
        cells = lab[labels == kind]
        centre = cells.mean(axis=0)
        within += float(((cells - centre) ** 2).sum())
        between += len(cells) * float(((centre - overall) ** 2).sum())
    return between / max(within, 1e-6)


def _bgr_to_lab(c: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[c]]), cv2.COLOR_BGR2LAB)[0, 0]


def calibrate(
    frame: np.ndarray, *, grid: int = 15, layout_name: str = "scrabble-15", name: str = "calibrated",
    premium_codes: list[list[str]] | None = None,
) -> tuple[BoardProfile, locate.Geometry, np.ndarray]:
    """Profile, geometry and a debug picture from a photo of the empty board."""
    norm = colour.normalise(frame)
    if premium_codes is None:
        premium_codes = [["."] * grid for _ in range(grid)]
    codes = np.array(premium_codes)
    best: tuple[tuple[float, float], BoardProfile, locate.Geometry, np.ndarray] | None = None
    for surface in _surface_candidates(norm)[:3]:
        probe = BoardProfile(name=name, grid=grid, layout=layout_name, surface=surface, squares={".": surface},
                             tile=DEFAULT_TILE)
        try:
            area = locate.find_board_area(norm, probe)
        except BoardNotFound:
            continue
        for inset in np.arange(0.0, 0.081, 0.01):
            guess = locate._inset(area, (inset,) * 4)
            geom = locate.refine_on_lines(norm, guess, grid)
            if geom.line_score <= 0:
                continue
            # A grid one cell off still shows strong lines; only the right one makes the printed layout
            # consistent (every square of a premium kind alike, different kinds apart).
            score = (_layout_fit(norm, geom, codes), geom.line_score)
            if best is None or score > best[0]:
                best = (score, probe, geom, area)
    if best is None:
        raise BoardNotFound("no board with a visible grid found in the calibration photo; photograph the whole board")
    _, probe, geom, area = best
    unit = cv2.getPerspectiveTransform(area.astype(np.float32), np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
    g = cv2.perspectiveTransform(geom.corners.reshape(1, 4, 2), unit).reshape(4, 2)
    inset = (
        float((g[0, 1] + g[1, 1]) / 2), float(1 - (g[1, 0] + g[2, 0]) / 2),
        float(1 - (g[2, 1] + g[3, 1]) / 2), float((g[0, 0] + g[3, 0]) / 2),
    )
    inset = tuple(min(max(v, 0.0), 0.29) for v in inset)
    warped = geom.warp(norm, CELL_PX)
    lab = cell_colours(cv2.cvtColor(warped, cv2.COLOR_BGR2LAB), grid, CELL_PX)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    tile_like = (chroma < 15) & (lab[..., 0] > np.median(lab[..., 0]))
    squares: dict[str, tuple[int, int, int]] = {}
    covered: list[str] = []
    for code in sorted(set(codes.ravel())):
        sel = (codes == code) & ~tile_like
        if not sel.any():
            covered.append(code)  # every cell of this kind has a tile on it: its colour is not visible
            continue
        med = np.median(lab[sel], axis=0).astype(np.uint8)
        bgr = cv2.cvtColor(med.reshape(1, 1, 3), cv2.COLOR_LAB2BGR)[0, 0]
        squares[code] = (int(bgr[0]), int(bgr[1]), int(bgr[2]))
    centre_kind = _centre_premium(layout_name)
    if "*" in squares and centre_kind in squares and centre_kind != "*":
        # The centre is printed in its premium's colour, and it is the one square a photo taken after
        # the first move always has a tile on: its premium's other squares are the safer measure.
        squares["*"] = squares[centre_kind]
    for code in covered:
        # Hidden everywhere: the centre takes its premium's colour, anything else the plain square's,
        # never the colour of the tile that hides it.
        stand_in = centre_kind if code == "*" else "."
        squares[code] = squares.get(stand_in) or squares.get(".") or probe.surface
    tile = DEFAULT_TILE
    if tile_like.sum() >= 2:
        med = np.median(lab[tile_like], axis=0).astype(np.uint8)
        tile = tuple(int(v) for v in cv2.cvtColor(med.reshape(1, 1, 3), cv2.COLOR_LAB2BGR)[0, 0])  # type: ignore[assignment]
    profile = replace(probe, squares=squares, tile=tile, grid_inset=inset)  # type: ignore[arg-type]
    debug = draw_geometry(norm, geom, area)
    return profile, geom, debug


def _centre_premium(layout_name: str) -> str:
    """The premium code printed on the layout's centre square ("." when none or unknown)."""
    from engine.errors import DataFileError
    from engine.layout import load_layout

    try:
        layout = load_layout(layout_name)
    except DataFileError:
        return "."
    return layout.premium(layout.centre).value


def draw_geometry(frame: np.ndarray, geom: locate.Geometry, area: np.ndarray | None = None) -> np.ndarray:
    """The frame with the board area (blue) and the fitted grid lines (magenta) drawn on it."""
    out = frame.copy()
    if area is not None:
        cv2.polylines(out, [area.astype(np.int32).reshape(-1, 1, 2)], True, (255, 0, 0), 2)
    n = geom.grid
    inv = np.linalg.inv(geom.to_canonical(1))
    for i in range(n + 1):
        for a, b in (((i, 0), (i, n)), ((0, i), (n, i))):
            pts = cv2.perspectiveTransform(np.float32([[a, b]]).reshape(1, 2, 2), inv).reshape(2, 2)
            cv2.line(out, tuple(int(v) for v in pts[0]), tuple(int(v) for v in pts[1]), (255, 0, 255), 1)
    return out

# SPDX-License-Identifier: GPL-3.0-or-later
"""Which cells hold a tile, which are empty, which hold a black stop tile, and which are hidden.

Each cell is summarised by the mean Lab colour of the brighter half of its centre (so a letter's ink
does not pull the colour of a tile). Every cell may only be one of: empty (the colour of *its own*
premium class), a tile or a stop tile. The class centres start at the profile's colours and are
re-estimated from the frame itself (a few rounds of assignment and median update), so light, exposure
and slightly different boards shift the centres instead of breaking fixed thresholds. A cell far from
every centre it may take is *anomalous*: something (a hand, an arm, a shadow edge) hides it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

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

    def tiles(self) -> np.ndarray:
        return self.state == CellState.TILE


def cell_colours(warped_lab: np.ndarray, grid: int, cell_px: int, margin_px: int = 0) -> np.ndarray:
    """(grid, grid, 3) Lab colour of the brighter half of each cell's central half."""
    m = margin_px
    board = warped_lab[m : m + grid * cell_px, m : m + grid * cell_px]
    q = cell_px // 4
    cells = board.reshape(grid, cell_px, grid, cell_px, 3)[:, q : cell_px - q, :, q : cell_px - q]
    cells = cells.transpose(0, 2, 1, 3, 4).reshape(grid, grid, -1, 3).astype(np.float32)
    lum = cells[..., 0]
    bright = lum >= np.median(lum, axis=2, keepdims=True)
    return (cells * bright[..., None]).sum(axis=2) / np.maximum(bright.sum(axis=2), 1)[..., None]


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


# Lightness matters less than colour: shadows and exposure move it most.
_WEIGHTS = np.float32([0.5, 1.0, 1.0])


def _remove_shading(raw: np.ndarray, labels: np.ndarray, empty_code: np.ndarray, centres: dict[str, np.ndarray],
                    n: int) -> np.ndarray:
    """The cell colours with a smooth light gradient across the board taken out.

    Light falls off towards a corner or one side of the board, so the same square looks darker there.
    A quadratic surface over the board is fitted (robustly, by least squares) to each cell's difference
    from its class centre and subtracted. Only the empty squares are corrected: they cover the board
    evenly, while tiles cluster (a surface fitted to them extrapolates wildly into empty corners), and
    a fall-off of the light darkens a bright tile by another amount than a dark square. A hand or an
    arm is a local blob a quadratic cannot follow, so it stays as different as it was.
    """
    ref = np.array([centres[code if label == "empty" else label] for label, code in zip(labels, empty_code,
                                                                                         strict=True)])
    resid = raw - ref
    r, c = np.divmod(np.arange(len(raw)), n)
    r, c = (r - (n - 1) / 2) / n, (c - (n - 1) / 2) / n
    basis = np.stack([np.ones_like(r), r, c, r * r, r * c, c * c], axis=1)
    out = raw.copy()
    for group in (labels == "empty",):
        if group.sum() < 4 * basis.shape[1]:
            continue
        size = np.sqrt((resid ** 2).sum(axis=1))
        keep = group & (size <= 2.0 * np.median(size[group]) + 1.0)
        for _ in range(2):
            if keep.sum() < 3 * basis.shape[1]:
                break
            coef, *_ = np.linalg.lstsq(basis[keep], resid[keep], rcond=None)
            size = np.sqrt(((resid - basis @ coef) ** 2).sum(axis=1))
            keep = group & (size <= 2.0 * np.median(size[group]) + 1.0)
        else:
            # The constant part belongs to the class centres, only the variation across the board is shading.
            out[group] -= (basis[group] @ coef) - coef[0]
    return out


def classify(colours: np.ndarray, premium_codes: list[list[str]], profile: BoardProfile) -> Occupancy:
    """Classify each cell against the frame-adapted centres of its allowed classes."""
    n = colours.shape[0]
    codes = sorted({c for row in premium_codes for c in row})
    centres: dict[str, np.ndarray] = {c: _lab(profile.square_colour(c)) for c in codes}
    centres["tile"] = _lab(profile.tile)
    if profile.stop is not None:
        centres["stop"] = _lab(profile.stop)
    code_grid = np.array(premium_codes)
    flat = colours.reshape(-1, 3)
    empty_code = code_grid.reshape(-1)

    def distances() -> dict[str, np.ndarray]:
        return {k: np.sqrt((((flat - v) * _WEIGHTS) ** 2).sum(axis=1)) for k, v in centres.items()}

    labels = np.empty(len(flat), dtype=object)
    for _ in range(4):
        d = distances()
        d_empty = np.array([d[c][i] for i, c in enumerate(empty_code)])
        options = [("empty", d_empty), ("tile", d["tile"])] + ([("stop", d["stop"])] if "stop" in d else [])
        stack = np.stack([o[1] for o in options])
        choice = stack.argmin(axis=0)
        labels = np.array([options[c][0] for c in choice], dtype=object)
        new = {}
        for code in codes:
            sel = (labels == "empty") & (empty_code == code)
            if sel.sum() >= 2:
                new[code] = np.median(flat[sel], axis=0)
        for kind in ("tile", "stop"):
            sel = labels == kind
            if kind in centres and sel.sum() >= 2:
                new[kind] = np.median(flat[sel], axis=0)
        centres.update(new)
        flat = _remove_shading(colours.reshape(-1, 3), labels, empty_code, centres, n)
    d = distances()
    d_empty = np.array([d[c][i] for i, c in enumerate(empty_code)])
    options = [("empty", d_empty), ("tile", d["tile"])] + ([("stop", d["stop"])] if "stop" in d else [])
    stack = np.stack([o[1] for o in options])
    choice = stack.argmin(axis=0)
    best = stack.min(axis=0)
    second = np.partition(stack, 1, axis=0)[1]
    state = np.array([{"empty": 0, "tile": 1, "stop": 2}[options[c][0]] for c in choice])
    # Spread of each class: median distance of its members, floored so a tight class does not flag noise.
    spread = np.empty(len(flat), dtype=np.float32)
    for k in range(len(options)):
        sel = choice == k
        typical = float(np.median(best[sel])) if sel.sum() >= 3 else 6.0
        spread[sel] = max(typical, 4.0)
    anomaly = best / spread
    margin = (second - best) / np.maximum(second + best, 1e-6)
    return Occupancy(
        state=state.reshape(n, n), anomaly=anomaly.reshape(n, n), margin=margin.reshape(n, n).astype(np.float32)
    )

# SPDX-License-Identifier: GPL-3.0-or-later
"""Debug pictures: the warped board with its grid and what was read in each cell."""

from __future__ import annotations

import cv2
import numpy as np

from vision import colour
from vision.occupancy import CellState
from vision.reader import BoardReading

_PX = 40


def draw_reading(frame: np.ndarray, reading: BoardReading) -> np.ndarray:
    if reading.geometry is None or reading.occupancy is None:
        return frame.copy()
    geom = reading.geometry
    # In the reading's own white balance: the colours its cells were classified on.
    out = geom.warp(colour.normalise(frame) if reading.gains is None else colour.apply_gains(frame, reading.gains), _PX)
    n = geom.grid
    for i in range(n + 1):
        cv2.line(out, (i * _PX, 0), (i * _PX, n * _PX), (255, 0, 255), 1)
        cv2.line(out, (0, i * _PX), (n * _PX, i * _PX), (255, 0, 255), 1)
    hidden = set(reading.hidden)
    for r in range(n):
        for c in range(n):
            state = reading.occupancy.state[r, c]
            x, y = c * _PX, r * _PX
            if (r, c) in hidden:
                cv2.rectangle(out, (x + 2, y + 2), (x + _PX - 2, y + _PX - 2), (0, 0, 255), 2)
            elif state == CellState.TILE:
                tile = reading.tiles.get((r, c))  # type: ignore[call-overload]
                text = tile.symbol if tile is not None else "*"
                cv2.rectangle(out, (x + 2, y + 2), (x + _PX - 2, y + _PX - 2), (0, 200, 0), 1)
                cv2.putText(out, text.encode("ascii", "replace").decode(), (x + 3, y + 14),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 255), 1)
            elif state == CellState.STOP:
                cv2.putText(out, "#", (x + 12, y + 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
    return out

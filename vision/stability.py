# SPDX-License-Identifier: GPL-3.0-or-later
"""The live stability gate: only a still board is read.

A hand placing tiles, an arm reaching across or a moving shadow changes the board from one frame to
the next; tiles at rest do not. :class:`StillFrameGate` compares each camera frame with the previous
one, cell by cell on a small warp of the located board, and passes a frame on only once ``frames``
consecutive frames agree. A frame that matches the last still board (nothing was changed) passes at
once. A hand held still over the board passes the gate; the reader then reports it as covered
(:attr:`vision.reader.ReadingStatus.COVERED`), so neither turns into a move.

The device's camera loop::

    gate = StillFrameGate(reader.profile, locator=reader.locator)
    for frame in camera:
        still = gate.feed(frame)
        if still is not None:
            proposal = propose(reader.read(still, cells=[]), game.board, rules, reader=reader, frame=still)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cv2
import numpy as np

from vision import colour
from vision.errors import BoardNotFound
from vision.locate import Geometry, Locator
from vision.profile import BoardProfile

#: Pixels per cell of the comparison warp; each cell is compared as 2x2 blocks of 4x4 pixels.
_GATE_CELL_PX = 8
_BLOCK = 4


class GateVerdict(enum.Enum):
    STILL = "still"  # the board has been still for enough frames (or matches the last still board)
    SETTLING = "settling"  # no change since the last frame, but not for long enough yet
    MOVING = "moving"  # something changed on the board since the last frame
    NO_BOARD = "no-board"  # the board was not found (covered, or out of view)


@dataclass(frozen=True)
class GateResult:
    verdict: GateVerdict
    #: Cells (row, col) that changed against the previous frame.
    changed: tuple[tuple[int, int], ...] = ()
    #: Consecutive frames that agree, this one included.
    run: int = 0


class StillFrameGate:
    """Passes camera frames on only when the board is still.

    ``frames``: how many consecutive frames must agree. ``change``: how far (grey levels, 0-255, after
    white balance) a block of a cell may move between frames before the cell counts as changed; the
    blocks average about a dozen pixels each, so sensor noise and JPEG artefacts stay far below it,
    while a tile, a finger or a shadow edge moves a block by tens of levels.
    """

    def __init__(self, profile: BoardProfile, *, locator: Locator | None = None, frames: int = 3,
                 change: float = 12.0) -> None:
        if frames < 1:
            raise ValueError(f"frames={frames!r}: at least one frame must be seen; use 2 or more")
        self.profile = profile
        self.locator = locator or Locator(profile)
        self.frames = frames
        self.change = change
        self._previous: np.ndarray | None = None
        self._still: np.ndarray | None = None
        self._run = 0

    def reset(self) -> None:
        self._previous, self._still, self._run = None, None, 0

    def feed(self, frame: np.ndarray) -> np.ndarray | None:
        """The frame when the board is still, else None."""
        return frame if self.check(frame).verdict is GateVerdict.STILL else None

    def check(self, frame: np.ndarray) -> GateResult:
        """Compare the frame with the previous ones and say whether the board is still."""
        try:
            board = self._board(frame)
        except BoardNotFound:
            self._previous, self._run = None, 0
            return GateResult(GateVerdict.NO_BOARD)
        previous, self._previous = self._previous, board
        if previous is None or previous.shape != board.shape:
            self._run = 1
            changed: tuple[tuple[int, int], ...] = ()
            verdict = GateVerdict.SETTLING
        else:
            changed = self._changed(previous, board)
            self._run = 1 if changed else self._run + 1
            verdict = GateVerdict.MOVING if changed else GateVerdict.SETTLING
        if self._run >= self.frames:
            self._still = board
            return GateResult(GateVerdict.STILL, changed, self._run)
        if self._still is not None and self._still.shape == board.shape and not self._changed(self._still, board):
            # Nothing differs from the board last seen still: no need to wait for it to settle.
            return GateResult(GateVerdict.STILL, changed, self._run)
        return GateResult(verdict, changed, self._run)

    def _board(self, frame: np.ndarray) -> np.ndarray:
        """The located board as (grid*2, grid*2, 3) block means, white-balanced."""
        gains = colour.white_gains(frame)
        geom: Geometry = self.locator(frame, gains)
        # Shrink the frame first (area averaging), so each comparison pixel averages many sensor pixels.
        # A power of two keeps INTER_AREA on its fast path.
        factor = 1 << max(0, int(np.log2(max(geom.cell_size / (2 * _GATE_CELL_PX), 1.0))))
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (w // factor, h // factor), interpolation=cv2.INTER_AREA) if factor > 1 else frame
        scale = np.diag([factor, factor, 1.0])
        side = geom.grid * _GATE_CELL_PX
        warped = cv2.warpPerspective(small, geom.to_canonical(_GATE_CELL_PX) @ scale, (side, side),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        warped = colour.apply_gains(warped, gains).astype(np.float32)
        n = geom.grid * _GATE_CELL_PX // _BLOCK
        return warped.reshape(n, _BLOCK, n, _BLOCK, -1).mean(axis=(1, 3))

    def _changed(self, a: np.ndarray, b: np.ndarray) -> tuple[tuple[int, int], ...]:
        diff = np.abs(a - b).max(axis=2)
        per = _GATE_CELL_PX // _BLOCK
        n = diff.shape[0] // per
        cells = diff.reshape(n, per, n, per).max(axis=(1, 3)) > self.change
        return tuple((int(r), int(c)) for r, c in zip(*np.nonzero(cells), strict=True))

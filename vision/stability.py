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

from vision import find
from vision.errors import BoardNotFound
from vision.locate import Geometry, Locator
from vision.profile import BoardProfile

#: Pixels per cell of the board's small picture (sampled straight from the frame), and the blocks per cell
#: side it is averaged to: each cell is compared as 4x4 blocks of 4x4 samples.
_PICTURE_CELL_PX = 16
BLOCKS = 4


def board_picture(frame: np.ndarray, geom: Geometry, cell_px: int = _PICTURE_CELL_PX) -> np.ndarray:
    """The located board as (grid*BLOCKS, grid*BLOCKS, 3) float32 block means: what tells the cells that
    changed between two frames. Sampled from the full frame without shrinking it first (its pixels are
    not all touched), ``cell_px`` samples a cell side: each block averages (cell_px / BLOCKS)² samples."""
    warped = geom.warp(frame, cell_px)
    n = geom.grid * BLOCKS
    return cv2.resize(warped, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32).reshape(n, n, -1)


def block_samples(frame: np.ndarray, geom: Geometry) -> np.ndarray:
    """The located board as (grid*BLOCKS, grid*BLOCKS, 3) float32: one sample at each block's centre, a
    quarter of :func:`board_picture`'s cost at 8 samples a cell (one warp of 4 pixels a cell instead of 8 and
    a shrink). Between consecutive scrabscrap photos, cells without a change moved by more than 25 levels
    less often than in that 2x2-sample picture (131 vs 212 of 22774 cells; its blocks sat a quarter block
    off centre), new tiles by 65 or more (76)."""
    n = geom.grid * BLOCKS
    # Output pixel x samples the canonical picture at x + 0.5 blocks: the block's centre, not its corner.
    to_centres = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]]) @ geom.to_canonical(BLOCKS)
    warped = find.warp(frame, to_centres, (n, n))
    return warped.astype(np.float32).reshape(n, n, -1)


def colour_ratio(reference: np.ndarray, picture: np.ndarray) -> np.ndarray:
    """Per-channel factors that bring ``picture`` to ``reference``'s exposure and white balance: the
    median ratio over the brighter half of the blocks (a few changed cells, a hand or a shadow band do
    not move a median; the bright surfaces, tiles or a cream board, are the ones whose colour decides)."""
    channels = reference.shape[-1]
    # Every third block is plenty for a median, and channels first keep numpy's reductions fast.
    ref = np.ascontiguousarray(reference.reshape(-1, channels)[::3].T)
    now = np.ascontiguousarray(picture.reshape(-1, channels)[::3].T)
    lum = ref.sum(axis=0)
    bright = lum >= _median(lum[None, :])[0]
    return _median((ref[:, bright] + 4.0) / (now[:, bright] + 4.0)).astype(np.float32)


def _median(rows: np.ndarray) -> np.ndarray:
    """Each row's median, as np.median gives it (the middle two averaged), by one partition: np.median's
    checks and its np.mean of the middle pair cost more than the partition itself on a few thousand values."""
    n = rows.shape[1]
    middle = np.partition(rows, [(n - 1) // 2, n // 2], axis=1)
    return (middle[:, (n - 1) // 2] + middle[:, n // 2]) / 2


def changed_cells(reference: np.ndarray, picture: np.ndarray, level: float) -> np.ndarray:
    """(grid, grid) bool: cells of which some block moved by more than ``level`` grey levels in some channel."""
    n = reference.shape[0] // BLOCKS
    # A cell's block columns and channels are contiguous: one max over them, then one over its block rows
    # (a max is exact in any order; numpy's reduction over two strided axes at once was 3x slower).
    diff = np.abs(reference - picture).reshape(n, BLOCKS, n, -1).max(axis=3)
    return diff.max(axis=1) > level


#: The view compared for an unchanged scene: the frame's block means on a grid of this many blocks across.
_VIEW_BLOCKS = 32


def _view(frame: np.ndarray) -> np.ndarray:
    """The whole frame as (rows, _VIEW_BLOCKS, channels) float32 block means."""
    h, w = frame.shape[:2]
    down = max(1, round(_VIEW_BLOCKS * h / max(w, 1)))
    small = cv2.resize(frame, (_VIEW_BLOCKS, down), interpolation=cv2.INTER_AREA).astype(np.float32)
    return small.reshape(down, _VIEW_BLOCKS, -1)


def _view_changed(before: np.ndarray, now: np.ndarray, change: float) -> bool:
    """Whether any block of the view moved by ``change`` levels or more, in the earlier view's exposure and white
    balance (:func:`colour_ratio`)."""
    if before.shape != now.shape:
        return True
    return bool((np.abs(now * colour_ratio(before, now) - before) >= change).any())


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

    ``frames``: how many consecutive frames must agree. ``change``: how far (grey levels, 0-255, in
    the previous frame's exposure and white balance) a block of a cell may move between frames before the
    cell counts as changed; the blocks average 16 samples each, so sensor noise and JPEG artefacts stay below it,
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
        #: A small picture of the last frame in which no board was found: the same view is not searched again.
        self._refused: np.ndarray | None = None

    def reset(self) -> None:
        self._previous, self._still, self._run, self._refused = None, None, 0, None

    def feed(self, frame: np.ndarray) -> np.ndarray | None:
        """The frame when the board is still, else None."""
        return frame if self.check(frame).verdict is GateVerdict.STILL else None

    def check(self, frame: np.ndarray) -> GateResult:
        """Compare the frame with the previous ones and say whether the board is still."""
        view = None
        if self.locator.geometry is None:
            # Searching a frame for a board costs tens of milliseconds, refusing one with none several times that:
            # a view unchanged since the last refusal (an empty table, the camera pointed away) is refused as it is.
            view = _view(frame)
            if self._refused is not None and not _view_changed(self._refused, view, self.change):
                self._previous, self._run = None, 0
                return GateResult(GateVerdict.NO_BOARD)
        try:
            board = self._board(frame)
        except BoardNotFound:
            self._previous, self._run, self._refused = None, 0, view
            return GateResult(GateVerdict.NO_BOARD)
        self._refused = None
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
        """The board's small picture in the cached location (located only when nothing is cached yet).

        The gate asks only whether anything changed between frames, which needs no exact location: a board
        that was moved shows as a change, and the reader relocates it once the frames are still.
        """
        geom = self.locator.geometry
        if geom is None:
            geom = self.locator(frame)
        return board_picture(frame, geom)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> tuple[tuple[int, int], ...]:
        # Compared in one light: the camera's exposure may step between frames without anything moving.
        cells = changed_cells(a, b * colour_ratio(a, b), self.change)
        return tuple((int(r), int(c)) for r, c in zip(*np.nonzero(cells), strict=True))

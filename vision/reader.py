# SPDX-License-Identifier: GPL-3.0-or-later
"""The reader facade: a frame in, a board reading out (located, occupancy, letters where asked)."""

from __future__ import annotations

import enum
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.layout import Layout, load_layout
from engine.squares import Square
from engine.tiles import TileSet
from vision import colour, glyphs, occupancy
from vision.classifier import UNSURE_MARGIN, LetterClassifier, LetterGuess
from vision.errors import BoardNotFound
from vision.locate import Geometry, Locator
from vision.profile import BoardProfile

#: Pixels per cell of the canonical warp (letters need >= 25 to keep umlaut dots apart).
CELL_PX = 40
OCC_CELL_PX = 24
WARP_MARGIN = 0.5
#: A cell whose colour is this many class-spreads from everything it may be is "hidden".
ANOMALY_LIMIT = 4.0
#: Above this many cells to read, one warp of the whole grid is cheaper than a warp per cell.
_WHOLE_WARP_FROM = 12
#: Tiles read under each quarter turn to tell which way the board lies.
_ORIENT_TILES = 10
#: A tile this much less like a letter than the board's tiles typically are is tried turned; a turn must
#: beat the upright reading by as much. Typical = the median over the last _TYPICAL_OVER tiles read.
_TURNED_GAP = 0.03
_TYPICAL_FROM, _TYPICAL_OVER = 8, 60


class ReadingStatus(enum.Flag):
    OK = 0
    BOARD_NOT_FOUND = enum.auto()
    #: Something that is neither board nor tile covers part of the grid (hand, arm, shadow edge).
    COVERED = enum.auto()
    #: A tile's letter was read with a low margin over the next candidate.
    LOW_CONFIDENCE = enum.auto()
    #: A cell's occupancy was undecided.
    UNCERTAIN_CELL = enum.auto()


@dataclass(frozen=True)
class TileReading:
    square: Square
    glyph: glyphs.Glyph
    guess: LetterGuess | None  # None: a blank (no letter printed)

    @property
    def is_blank(self) -> bool:
        return self.guess is None

    @property
    def symbol(self) -> str:
        return "?" if self.guess is None else self.guess.letter


@dataclass(frozen=True)
class BoardReading:
    status: ReadingStatus
    geometry: Geometry | None
    occupancy: occupancy.Occupancy | None
    tiles: dict[Square, TileReading] = field(default_factory=dict)
    hidden: tuple[Square, ...] = ()
    seconds: float = 0.0
    #: White-balance gains (B, G, R) of the frame, so its cells can be read later without re-measuring.
    gains: np.ndarray | None = field(default=None, compare=False, repr=False)

    def occupied(self) -> set[Square]:
        if self.occupancy is None:
            return set()
        rows, cols = np.nonzero(self.occupancy.state == occupancy.CellState.TILE)
        return {Square(int(r), int(c)) for r, c in zip(rows, cols, strict=True)}

    def stops(self) -> set[Square]:
        if self.occupancy is None:
            return set()
        rows, cols = np.nonzero(self.occupancy.state == occupancy.CellState.STOP)
        return {Square(int(r), int(c)) for r, c in zip(rows, cols, strict=True)}

    def to_text(self) -> str:
        """One line per row: letter, '.' empty, '?' blank, '#' stop tile, '*' tile not read, '~' hidden."""
        if self.occupancy is None:
            return ""
        n = self.occupancy.state.shape[0]
        hidden = set(self.hidden)
        lines = []
        for r in range(n):
            out = []
            for c in range(n):
                sq = Square(r, c)
                st = self.occupancy.state[r, c]
                if sq in hidden:
                    out.append("~")
                elif st == occupancy.CellState.STOP:
                    out.append("#")
                elif st == occupancy.CellState.TILE:
                    out.append(self.tiles[sq].symbol if sq in self.tiles else "*")
                else:
                    out.append(".")
            lines.append("".join(out))
        return "\n".join(lines)


class BoardReader:
    """Reads frames of one physical board. Keeps the located geometry and the learned letters."""

    def __init__(self, profile: BoardProfile, tileset: TileSet, *, classifier: LetterClassifier | None = None,
                 layout: Layout | None = None) -> None:
        self.profile = profile
        self.tileset = tileset
        self.layout = layout or load_layout(profile.layout)
        if self.layout.size != profile.grid:
            raise BoardNotFound(f"profile {profile.name!r} has a {profile.grid}-square grid but layout "
                                f"{self.layout.name!r} is {self.layout.size}; pick matching ones")
        self.classifier = classifier or LetterClassifier(tileset.alphabet)
        self.locator = Locator(profile)
        #: Quarter turns from the camera's view to the board's own: the grid corner the camera sees first
        #: (top left) is ``corners[turns]``. None until tiles have shown which way the letters stand.
        self.turns: int | None = None
        self._turns_located = -1  # the locator's relocation count when ``turns`` was last decided
        self._last_tiles: np.ndarray | None = None  # the tile mask of the last reading, board coordinates
        self._similarities: list[float] = []  # how much the last tiles read looked like their letters
        n = profile.grid
        self._codes = [["*" if Square(r, c) == self.layout.centre else self.layout.premium(Square(r, c)).value
                        for c in range(n)] for r in range(n)]

    def read(self, frame: np.ndarray, *, cells: Iterable[Square] | None = None) -> BoardReading:
        """Locate, classify every cell, and read the letters of ``cells`` (default: every tile)."""
        t0 = time.perf_counter()
        # The gains are applied to each warped image, never to the full-resolution frame (cheaper, same result).
        gains = colour.white_gains(frame)
        try:
            seen = self.locator(frame, gains)
        except BoardNotFound:
            return BoardReading(ReadingStatus.BOARD_NOT_FOUND, None, None, seconds=time.perf_counter() - t0,
                                gains=gains)
        geom = turned(seen, self.turns or 0)
        occ = self._occupancy(frame, geom, gains)
        turns = self._orientation(frame, seen, occ, gains)
        if turns != (self.turns or 0):
            geom = turned(seen, turns)
            occ = self._occupancy(frame, geom, gains)
        if self.turns is not None or turns:
            self.turns = turns
        status = ReadingStatus.OK
        hidden_mask = occ.anomaly > ANOMALY_LIMIT
        hidden = tuple(Square(int(r), int(c)) for r, c in zip(*np.nonzero(hidden_mask), strict=True))
        if _is_covered(hidden_mask):
            status |= ReadingStatus.COVERED
        if (occ.margin < 0.1).any():
            status |= ReadingStatus.UNCERTAIN_CELL
        wanted = [sq for sq in (cells if cells is not None else self._tile_squares(occ))
                  if occ.state[sq.row, sq.col] == occupancy.CellState.TILE]
        tiles = self.read_tiles(frame, geom, wanted, gains=gains)
        if any(t.guess is not None and t.guess.confidence < UNSURE_MARGIN for t in tiles.values()):
            status |= ReadingStatus.LOW_CONFIDENCE
        if not status & ReadingStatus.COVERED:
            self._last_tiles = occ.state == occupancy.CellState.TILE
        return BoardReading(status, geom, occ, tiles, hidden, time.perf_counter() - t0, gains)

    def _occupancy(self, frame: np.ndarray, geom: Geometry, gains: np.ndarray) -> occupancy.Occupancy:
        small = colour.apply_gains(geom.warp(frame, OCC_CELL_PX), gains)
        return occupancy.classify(occupancy.cell_features(small, geom.grid, OCC_CELL_PX), self._codes, self.profile)

    def _orientation(self, frame: np.ndarray, seen: Geometry, occ: occupancy.Occupancy, gains: np.ndarray) -> int:
        """Which way the board lies under the camera (quarter turns), read from the photo alone.

        Once tiles lie on the board, a turned board shows the tiles of the last reading turned: the turn
        under which most of them are where they were wins (cheap: the occupancy grid turned, no warp).
        The first time, or when that cannot tell, the letters decide: the tiles are read under each turn
        and the turn under which they look most like letters wins.
        """
        current = self.turns or 0
        tiles = occ.state == occupancy.CellState.TILE
        if self._last_tiles is not None and self._last_tiles.sum() >= 3:
            before = self._last_tiles
            # np.rot90 by j turns the grid the way turned(geom, j) turns the warp (checked by a test).
            kept = [int((np.rot90(tiles, j) & before).sum()) for j in range(4)]
            if kept[0] >= 0.8 * before.sum():
                return current
            best = int(np.argmax(kept))
            if kept[best] >= 0.8 * before.sum():
                return (current + best) % 4
        if self.turns is not None and self._turns_located == self.locator.relocations:
            return current
        squares = [Square(int(r), int(c)) for r, c in zip(*np.nonzero(tiles), strict=True)][:_ORIENT_TILES]
        glyph_list = [t.glyph for t in self.read_tiles(frame, turned(seen, current), squares, gains=gains,
                                                       classify=False).values() if not t.glyph.is_blank]
        if len(glyph_list) < 2:
            return current
        scores = []
        for j in range(4):
            turned_glyphs = [glyphs.Glyph(np.ascontiguousarray(np.rot90(g.image, j)), g.contrast, g.height, 0)
                             for g in glyph_list]
            guesses = self.classifier.classify_many(turned_glyphs)
            if any(guess is None for guess in guesses):
                return current  # a classifier that only collects glyphs (building the model) cannot tell
            scores.append(float(np.mean([guess.top[0][1] for guess in guesses])))
        self._turns_located = self.locator.relocations
        best = int(np.argmax(scores))
        return (current + best) % 4

    @staticmethod
    def _tile_squares(occ: occupancy.Occupancy) -> list[Square]:
        rows, cols = np.nonzero(occ.state == occupancy.CellState.TILE)
        return [Square(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]

    def read_tiles(self, frame: np.ndarray, geom: Geometry, squares: Iterable[Square], *,
                   gains: np.ndarray | None = None, classify: bool = True) -> dict[Square, TileReading]:
        """Read only these cells of ``frame`` (white-balanced by ``gains``; None: it already is).

        A few cells are warped one by one, so a move costs only its own tiles; many cells (a full
        board) share one warp of the whole grid.
        """
        out = {}
        squares = list(squares)
        pad = glyphs.CROP_PAD * CELL_PX
        size = int(round(CELL_PX + 2 * pad))
        whole = None
        if len(squares) > _WHOLE_WARP_FROM:
            whole = colour.apply_gains(geom.warp(frame, CELL_PX, WARP_MARGIN), gains) if gains is not None \
                else geom.warp(frame, CELL_PX, WARP_MARGIN)
        to_canon = geom.to_canonical(CELL_PX, WARP_MARGIN)
        for sq in squares:
            x0 = (WARP_MARGIN + sq.col) * CELL_PX - pad
            y0 = (WARP_MARGIN + sq.row) * CELL_PX - pad
            if whole is not None and x0 >= 0 and y0 >= 0:
                ix, iy = int(round(x0)), int(round(y0))
                crop = whole[iy : iy + size, ix : ix + size]
            else:
                shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
                crop = cv2.warpPerspective(frame, shift @ to_canon, (size, size), flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE)
                if gains is not None:
                    crop = colour.apply_gains(crop, gains)
            out[sq] = TileReading(sq, glyphs.extract(crop, CELL_PX), None)
        if not classify:
            return out
        lettered = [r for r in out.values() if not r.glyph.is_blank]
        guesses = self.classifier.classify_many([r.glyph for r in lettered], k=4)
        for reading, guess in zip(lettered, self._turned_tiles(lettered, guesses), strict=True):
            out[reading.square] = TileReading(reading.square, reading.glyph if guess is None else guess[1],
                                              guess[0] if guess is not None else None)
        return out

    def _turned_tiles(self, lettered: list[TileReading], guesses: list) -> list:
        """(guess, glyph) per tile, a tile laid turned by a player on another side read in its own turn.

        A tile whose letter looks much less like any letter than this board's tiles usually do (the
        similarity is tracked over the tiles read) is tried in its three other quarter turns; a turn that
        fits clearly better wins. Letters that are each other turned (M/W, N/Z) cannot be told apart.
        """
        out = []
        for reading, guess in zip(lettered, guesses, strict=True):
            if guess is None:  # a classifier that only collects glyphs
                out.append(None)
                continue
            best = (guess, reading.glyph)
            similarity = guess.top[0][1]
            if len(self._similarities) >= _TYPICAL_FROM and similarity < float(np.median(self._similarities)) \
                    - _TURNED_GAP:
                image = reading.glyph.image
                for j in (1, 2, 3):
                    turned_glyph = glyphs.Glyph(np.ascontiguousarray(np.rot90(image, j)), reading.glyph.contrast,
                                                reading.glyph.height, 0)
                    other = self.classifier.classify(turned_glyph, k=4)
                    if other.top[0][1] > best[0].top[0][1] + _TURNED_GAP:
                        best = (other, turned_glyph)
            self._similarities.append(best[0].top[0][1])
            del self._similarities[:-_TYPICAL_OVER]
            out.append(best)
        return out

    def learn(self, readings: Iterable[TileReading], letters: Iterable[str]) -> None:
        """Teach the classifier confirmed letters (blanks are skipped: they carry no glyph)."""
        pairs = [(r.glyph, letter) for r, letter in zip(readings, letters, strict=True) if not r.glyph.is_blank]
        if pairs:
            self.classifier.learn([p[0] for p in pairs], [p[1] for p in pairs])


def turned(geom: Geometry, turns: int) -> Geometry:
    """The same grid with its first corner ``turns`` quarter turns on: the warp shows the board turned."""
    if turns % 4 == 0:
        return geom
    return replace(geom, corners=np.roll(geom.corners, -(turns % 4), axis=0))


def _is_covered(hidden: np.ndarray) -> bool:
    """Hidden cells that form a blob (a hand spans several neighbouring cells) or are many."""
    if hidden.sum() >= 4:
        return True
    n, _, stats, _ = cv2.connectedComponentsWithStats(hidden.astype(np.uint8), connectivity=8)
    return any(stats[i][4] >= 2 for i in range(1, n))


def load_frame(path: str) -> np.ndarray:
    """A photo, size-checked before decoding and refused when cut short (:func:`vision.imageio.read_image`)."""
    from vision.imageio import read_image

    return read_image(path)

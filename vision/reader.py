# SPDX-License-Identifier: GPL-3.0-or-later
"""The reader facade: a frame in, a board reading out (located, occupancy, letters where asked)."""

from __future__ import annotations

import bisect
import collections
import enum
import functools
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from engine.layout import Layout, load_layout
from engine.squares import Square
from engine.tiles import TileSet
from vision import colour, find, glyphs, occupancy, stability
from vision.classifier import ARROW, UNSURE_MARGIN, LetterClassifier, LetterGuess
from vision.errors import BoardNotFound
from vision.locate import Geometry, Locator, board_gains
from vision.profile import BoardProfile

#: Pixels per cell of the canonical warp (letters need >= 25 to keep umlaut dots apart).
CELL_PX = 40
OCC_CELL_PX = 24
WARP_MARGIN = 0.5
#: A cell whose colour is this many class-spreads from everything it may be is "hidden".
ANOMALY_LIMIT = 4.0
#: A cell whose colour fits no state (a hand, :data:`ANOMALY_LIMIT`) is a tile after all when its letter reads with
#: this margin: tiles in the brightest light of a room frame, a channel clipped, read P, U and L by 0.08-0.16 but
#: were taken for a hand. Of 128 frames with a hand over the board (ScrabScrap photos, synthetic scenes), the same 77
#: are covered at this margin as at vision.classifier.CLEAR_MARGIN (0.1) and as before the rule; at 0.02, fewer, and
#: some of those read wrong.
HIDDEN_LETTER_MARGIN = 0.05
#: Whether the letters are lighter than the tiles is decided by most of the last _INK_OVER letters read on squares
#: taken for tiles, once at least _INK_FROM were.
_INK_FROM, _INK_OVER = 3, 30
#: Above this many cells to read, one warp of the whole grid is cheaper than a warp per cell.
_WHOLE_WARP_FROM = 12
#: Tiles read under each quarter turn to tell which way the board lies: the first few decide when one turn
#: reads them better than any other by _ORIENT_CLEAR in mean similarity (on 46 frames, synthetic and photos,
#: a lead of 0.04 after 5 tiles always named the turn all 10 name; turns named wrongly by the first 3 to 5
#: tiles led by 0.012 at most).
_ORIENT_TILES = 10
_ORIENT_FIRST, _ORIENT_CLEAR = 5, 0.05
#: A tile this much less like a letter than the board's tiles typically are is tried turned; a turn must
#: beat the upright reading by as much. Typical = the median over the last _TYPICAL_OVER tiles read.
_TURNED_GAP = 0.03
_TYPICAL_FROM, _TYPICAL_OVER = 8, 60
#: A cell whose picture moved by this many grey levels (in the last reading's light) since the last clear
#: reading is measured again; a new tile moves its cell by 70 or more on the photo games, the camera's
#: noise and drift between photos by up to 20 or so.
_CHANGE_LEVEL = 25.0
#: More changed cells than this share of the board: the board moved or the light changed, read it whole.
_CHANGED_SHARE = 0.2
#: A changed cell is decided on its own only when clear-cut: its best state this much closer than the next
#: (margin as in vision.occupancy) and not hidden (ANOMALY_LIMIT); else the whole board is classified.
_CLEAR_MARGIN = 0.4
#: Cells whose colours make a state's look at a cell that was not in it.
_NEAREST = 5
#: Letters sit on the tiles' tops, a tile's height above the board: seen at an angle, they lie off their
#: cells' centres in the board's picture, by up to a quarter of a cell on photos taken low (jheidel), less
#: on photos from above. Where the fitted shift reaches _PARALLAX_FROM somewhere on the
#: board (at least _PARALLAX_TILES letters measured), the crops follow it; a fit off by more than
#: _PARALLAX_MOST at a grid corner is not believed (see BoardReader._fit_tile_shift).
_PARALLAX_FROM, _PARALLAX_TILES, _PARALLAX_MOST = 0.12, 12, 0.4
#: Only the letters the shift moves this far are cut again (the crops reach CROP_PAD beyond the cells).
_PARALLAX_AGAIN = 0.1
#: Lab lightness counts half (shadows and exposure move it most), as in vision.occupancy.
_COLOUR_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)


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
    #: Why no board was found (BOARD_NOT_FOUND), one line.
    reason: str = ""

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
        """One line per row: letter, '.' empty, '?' blank, '#' stop tile, '^' arrow tile, '*' tile not read,
        '~' hidden."""
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


@dataclass
class _LastClear:
    """What the last reading without a cover saw: the next frame is compared with it."""

    seen: Geometry  # the locator's geometry (the camera's corner order)
    geom: Geometry  # the same grid in the board's own orientation
    gains: np.ndarray
    picture: np.ndarray  # vision.stability.block_samples at ``geom``, unchanged cells as first seen
    colours: np.ndarray  # the cells' colours occupancy was decided from
    occ: occupancy.Occupancy
    codes: np.ndarray  # each square's premium class (an index)
    _members: dict[tuple[int, int], tuple[np.ndarray, ...] | None] = field(default_factory=dict)
    _spreads: dict[int, tuple[int, float]] = field(default_factory=dict)  # option: (cells then, spread)

    def update(self, colours: np.ndarray, occ: occupancy.Occupancy) -> None:
        """After a move: the spreads are kept until a state's cells grew by a quarter (a board statistic that a
        move's few tiles hardly change; measuring it again each move would cost as much as the rest)."""
        self.colours, self.occ = colours, occ
        self._members.clear()
        counts = np.bincount(occ.state.ravel(), minlength=3)
        for option, (count, _) in list(self._spreads.items()):
            if abs(int(counts[option]) - count) > 0.25 * max(count, 4):
                del self._spreads[option]

    def members(self, option: int, code: int) -> tuple[np.ndarray, ...] | None:
        """(rows, cols) of the cells in state ``option`` (of premium class ``code``; -1: any); None if none."""
        if (option, code) not in self._members:
            cells = self.occ.state == option
            if code >= 0:
                cells &= self.codes == code
            self._members[(option, code)] = np.nonzero(cells) if cells.any() else None
        return self._members[(option, code)]

    def spread(self, option: int) -> float:
        """How far a state's cells typically lie from its median colour (floored as the classifier does).
        Empty squares of all premium classes share one figure: each class is measured from its own median."""
        if option not in self._spreads:
            state = self.occ.state == option
            distances = []
            for code in np.unique(self.codes[state]) if option == occupancy.CellState.EMPTY else [-1]:
                cells = self.colours[state & (self.codes == code)] if code >= 0 else self.colours[state]
                cells = cells[:, :3]  # the colour, not the ink (vision.occupancy.cell_features)
                distances.append(np.sqrt((((cells - np.median(cells, axis=0)) * _COLOUR_WEIGHTS) ** 2).sum(axis=1)))
            typical = float(np.median(np.concatenate(distances))) if sum(map(len, distances)) >= 3 else 6.0
            self._spreads[option] = (int(state.sum()), max(typical, 4.0))
        return self._spreads[option][1]


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
        self.classifier = classifier or LetterClassifier(tileset.alphabet, arrows=tileset.arrows > 0)
        self.locator = Locator(profile)
        #: Quarter turns from the camera's view to the board's own: the grid corner the camera sees first
        #: (top left) is ``corners[turns]``. None until tiles have shown which way the letters stand.
        self.turns: int | None = None
        self._turns_located = -1  # the locator's relocation count when ``turns`` was last decided
        self._last_tiles: np.ndarray | None = None  # the tile mask of the last reading, board coordinates
        #: The cells whose state a clear reading has seen (not in a reflection's clipped core), board coordinates.
        self._seen: np.ndarray | None = None
        #: The letters read on the last reading's grid (board coordinates; by the reading or later, as a diff
        #: reads a move's tiles), and the locator's relocation count at that reading: after a relocation the
        #: letters tell apart turns that the tiles' squares cannot.
        self._last_letters: dict[Square, str] = {}
        self._last_geom: Geometry | None = None
        self._last_relocations = 0
        self._similarities = _Window(_TYPICAL_OVER)  # how much the last tiles read looked like their letters
        self._last_clear: _LastClear | None = None
        #: The grid the letters' shift was measured on and the shift: an affine map of its canonical picture
        #: (CELL_PX, WARP_MARGIN) taking a cell's centre to where its letter lies.
        self._tile_shift: tuple[Geometry, np.ndarray] | None = None
        #: The tiles' letters are lighter than the tiles (dark wooden tiles): the cells' colours are measured on their
        #: darker half (occupancy.cell_colours). Decided by most of the last _INK_OVER letters read (glyphs.Glyph).
        self.light_letters = False
        self._light_ink: collections.deque[bool] = collections.deque(maxlen=_INK_OVER)
        n = profile.grid
        self._codes = [["*" if Square(r, c) == self.layout.centre else self.layout.premium(Square(r, c)).value
                        for c in range(n)] for r in range(n)]
        self._code_grid = np.unique(np.array(self._codes), return_inverse=True)[1].reshape(n, n)
        self._premium = np.array(self._codes) != "."

    def read(self, frame: np.ndarray, *, cells: Iterable[Square] | None = None) -> BoardReading:
        """Locate, classify every cell, and read the letters of ``cells`` (default: every tile).

        After a clear reading the next frame is first compared with it on a small picture of the board
        (:func:`vision.stability.block_samples`): when only a few cells changed (a move), the location,
        the white balance and the colours of the other cells are taken over, and only the changed cells
        are measured again; anything bigger (a moved or turned board, new light) is read from scratch.
        """
        t0 = time.perf_counter()
        changed = self._read_changes(frame, cells, t0)
        if changed is not None:
            return changed
        # The gains are applied to each warped image, never to the full-resolution frame (cheaper, same result).
        # The whole frame's balance finds the board; the cells may be measured in the board's own (board_gains).
        # The shrunk copies of the frame are shared: the white balance, locating and the board's own balance.
        pyramid = find.Pyramid(frame)
        gains = colour.white_gains(pyramid.at_least(colour.SAMPLE_WIDTH))
        try:
            seen = self.locator(frame, gains, pyramid)
        except BoardNotFound as error:
            return BoardReading(ReadingStatus.BOARD_NOT_FOUND, None, None, seconds=time.perf_counter() - t0,
                                gains=gains, reason=str(error))
        gains = board_gains(frame, seen, self.profile, gains, pyramid)
        source = pyramid.warpable(0)  # the frame as the warps below take it fastest
        geom = turned(seen, self.turns or 0)
        occ, colours = self._occupancy(source, geom, gains)
        read_for_orientation: dict[Square, TileReading] = {}
        turns = self._orientation(source, seen, occ, gains, read_for_orientation)
        if turns != (self.turns or 0):
            geom = turned(seen, turns)
            # Measured again, not the measured cells np.rot90'd (which sample a pixel off, a test shows): those
            # made 3 more cells of 22253 wrong on the development Alfapet games.
            occ, colours = self._occupancy(source, geom, gains)
            read_for_orientation.clear()  # read on the grid before the turn
        if self.turns is not None or turns:
            self.turns = turns
        reading = self._finish(source, geom, occ, gains, cells, t0, read_for_orientation)
        if self._ink_side_changed():
            # Measured again on the other half of each cell, and the letters read again: switching before the first
            # reading (on the letters read for the orientation) and reading once left twice as many letters wrong on
            # the vintage tuning scenes (120 against 51, measured while the rule was being developed).
            occ, colours = self._occupancy(source, geom, gains)
            reading = self._finish(source, geom, occ, gains, cells, t0)
        if not reading.status & ReadingStatus.COVERED:
            self._last_clear = _LastClear(seen, geom, gains, stability.block_samples(source, geom),
                                          colours, occ,
                                          self._code_grid)
        return reading

    def _ink_side_changed(self) -> bool:
        """Whether the letters read lately say the opposite of :attr:`light_letters` (at least _INK_FROM of them, most
        lighter than their tiles, or most darker); if so the flag is switched, and the last clear reading, whose colours
        were measured the other way, is dropped."""
        if len(self._light_ink) < _INK_FROM or (2 * sum(self._light_ink) > len(self._light_ink)) == self.light_letters:
            return False
        self.light_letters = not self.light_letters
        self._last_clear = None
        return True

    def _read_changes(self, frame: np.ndarray, cells: Iterable[Square] | None, t0: float) -> BoardReading | None:
        """The reading of a frame that differs from the last clear one in a few cells only, else None."""
        last = self._last_clear
        if last is None or self.locator.geometry is not last.seen:
            return None  # nothing read yet, or the board was located again since (by the gate, say)
        if last.occ.veil is not None:
            return None  # a reflection's veil is fitted over the whole board, not cell by cell
        picture = stability.block_samples(frame, last.geom)
        # The camera's exposure and white balance drift between photos: compare in the last reading's light.
        ratio = stability.colour_ratio(last.picture, picture)
        picture *= ratio
        changed = stability.changed_cells(last.picture, picture, _CHANGE_LEVEL)
        n = last.geom.grid
        if changed.sum() > _CHANGED_SHARE * n * n:
            return None
        gains = (last.gains * ratio).astype(np.float32)
        colours = last.colours.copy()
        if changed.any():
            colours[changed] = self._colours_of(frame, last.geom, np.argwhere(changed), gains)
        occ = self._classify_changed(last, colours, changed)
        if occ is None:
            occ = occupancy.classify(colours, self._codes, self.profile, most_stops=self.tileset.stops,
                                     most_blanks=self.tileset.blanks)
        if self._orientation(frame, last.seen, occ, gains) != (self.turns or 0):
            return None  # the tiles say the board lies another way round: read it whole
        reading = self._finish(frame, last.geom, occ, gains, cells, t0)
        if self._ink_side_changed():
            return None  # the cells' colours are measured otherwise from now on: read it whole
        if not reading.status & ReadingStatus.COVERED:
            # Unchanged cells keep the picture they had: a board creeping away in small steps still adds up.
            blocks = np.repeat(np.repeat(changed, stability.BLOCKS, axis=0), stability.BLOCKS, axis=1)
            last.picture[blocks] = picture[blocks]
            last.update(colours, occ)
        return reading

    def _classify_changed(self, last: _LastClear, colours: np.ndarray,
                          changed: np.ndarray) -> occupancy.Occupancy | None:
        """The last reading's occupancy with the changed cells decided again, or None when one of them is
        not clear-cut (then the whole board is classified, :func:`vision.occupancy.classify`).

        Each changed cell is compared with what each state looked like there in the last reading: its own
        colour for the state it was in (its light and shading included), else the median colour of the
        nearest cells in that state (empty ones of its own premium class); distances are in units of that
        state's spread over the board, as the full classification measures them.
        """
        if not changed.any():
            return last.occ
        options = [occupancy.CellState.EMPTY, occupancy.CellState.TILE]
        if self.profile.stop is not None:
            options.append(occupancy.CellState.STOP)
        cells = np.argwhere(changed)
        looked_at, centres, spread_list = [], [], []
        for option, references in zip(options, self._nearest_references(last, options, cells), strict=True):
            if references is None:
                if option == occupancy.CellState.STOP:
                    continue  # no stop tile yet: a new one is too far from both other looks to be clear-cut
                return None
            looked_at.append(option)
            centres.append(references)
            spread_list.append(last.spread(option))
        # The colour only, not the ink (vision.occupancy.cell_features): ink tells tiles from pale squares,
        # and where colour alone cannot, the margin stays small and the whole board is classified.
        diff = (colours[cells[:, 0], cells[:, 1], :3][None] - np.stack(centres)[..., :3]) * _COLOUR_WEIGHTS
        rows = np.sqrt((diff ** 2).sum(axis=2))
        options, distances, spreads = looked_at, rows, np.array(spread_list, np.float32)
        ranked = np.sort(distances, axis=0)
        best, second = ranked[0], ranked[1]
        choice = distances.argmin(axis=0)
        cell_margin = (second - best) / np.maximum(second + best, 1e-6)
        cell_anomaly = best / spreads[choice]
        if (cell_margin < _CLEAR_MARGIN).any() or (cell_anomaly > ANOMALY_LIMIT).any():
            return None
        state, anomaly, margin = last.occ.state.copy(), last.occ.anomaly.copy(), last.occ.margin.copy()
        state[changed] = np.array(options)[choice]
        anomaly[changed], margin[changed] = cell_anomaly, cell_margin
        return occupancy.Occupancy(state=state, anomaly=anomaly, margin=margin.astype(np.float32))

    @staticmethod
    def _nearest_references(last: _LastClear, options: Sequence[int], cells: np.ndarray) -> list[np.ndarray | None]:
        """:meth:`_references` of each option, with one sort over the whole grid for all options and cells at
        once (the cells that were not in the state, or not of the cell's premium class, pushed past every
        other); the same result."""
        n, k = last.occ.state.shape[0], len(cells)
        flat = cells[:, 0] * n + cells[:, 1]
        state, codes = last.occ.state.ravel(), last.codes.ravel()
        candidates = []
        for option in options:
            was = state == option
            candidates.append(was[None, :] & (codes[None, :] == codes[flat, None])
                              if option == occupancy.CellState.EMPTY else np.broadcast_to(was, (k, n * n)))
        stacked = np.concatenate(candidates)
        # Options with fewer than _NEAREST such cells for some cell take the median of fewer (or None: none).
        quick = stacked.sum(axis=1).reshape(len(options), k).min(axis=1) >= _NEAREST
        colours = last.colours.reshape(n * n, -1)
        if quick.any():
            distance = np.tile(_grid_distance(n)[flat], (int(quick.sum()), 1))
            distance = np.where(stacked[np.repeat(quick, k)], distance, np.int16(4 * n))
            nearest = np.argsort(distance, axis=1, kind="stable")[:, :_NEAREST]
            medians = iter(np.sort(colours[nearest], axis=1)[:, _NEAREST // 2].reshape(-1, k, colours.shape[1]))
        out: list[np.ndarray | None] = []
        for option, fast in zip(options, quick, strict=True):
            if not fast:
                out.append(BoardReader._references(last, option, cells))
                continue
            references = next(medians)
            own = state[flat] == option
            references[own] = colours[flat[own]]
            out.append(references.astype(np.float32))
        return out

    @staticmethod
    def _references(last: _LastClear, option: int, cells: np.ndarray) -> np.ndarray | None:
        """(len(cells), channels): what ``option`` looked like at each cell in the last reading: the cell's
        own colour when it was in that state, else the median of the nearest cells that were (empty ones of
        its own premium class). None when no cell was in that state."""
        out = np.empty((len(cells), last.colours.shape[-1]), np.float32)
        codes = last.codes[cells[:, 0], cells[:, 1]] if option == occupancy.CellState.EMPTY else np.full(len(cells), -1)
        for code in np.unique(codes):
            mine = np.flatnonzero(codes == code)
            members = last.members(option, int(code))
            if members is None:
                return None
            rows, cols = members
            here = cells[mine]
            distance = np.abs(rows[None, :] - here[:, :1]) + np.abs(cols[None, :] - here[:, 1:])
            nearest = np.argsort(distance, axis=1, kind="stable")[:, :_NEAREST]
            ordered = np.sort(last.colours[rows[nearest], cols[nearest]], axis=1)  # the median, without np.median
            middle = ordered.shape[1] // 2
            out[mine] = ordered[:, middle] if ordered.shape[1] % 2 else (ordered[:, middle - 1:middle + 1]).mean(axis=1)
        own = last.occ.state[cells[:, 0], cells[:, 1]] == option
        out[own] = last.colours[cells[own, 0], cells[own, 1]]
        return out

    def _finish(self, frame: np.ndarray, geom: Geometry, occ: occupancy.Occupancy, gains: np.ndarray,
                cells: Iterable[Square] | None, t0: float,
                extracted: dict[Square, TileReading] | None = None) -> BoardReading:
        """The reading once the cells are classified: hidden cells, the letters of ``cells``, the status.
        ``extracted``: tiles whose glyphs were cut out already on ``geom`` (not classified)."""
        status = ReadingStatus.OK
        hidden_mask = occ.anomaly > ANOMALY_LIMIT
        stops = occ.state == occupancy.CellState.STOP
        if int(stops.sum()) > self.tileset.stops:
            # More black tiles than the set has: a dark sleeve or a shadow over the board, not stop tiles.
            hidden_mask |= stops
        if (occ.margin < 0.1).any():
            status |= ReadingStatus.UNCERTAIN_CELL
        washed = occ.washed if occ.washed is not None else np.zeros_like(hidden_mask)
        clipped = washed & (occ.veil >= occupancy.CLIPPED) if occ.veil is not None else washed
        if washed.any():
            # The core of a reflection. A cell whose colour, the veil divided out, fits its class keeps its state;
            # one that fits none is a tile where a letter shows (read below), else empty. Where the veil clips (no
            # letter would show) a cell keeps what a clear reading saw last and stays hidden. None of them is a
            # cover, but a clipped cell no clear reading has seen (below).
            occ = self._washed_as_before(occ, washed & (hidden_mask | clipped), clipped)
            hidden_mask |= clipped
            status |= ReadingStatus.UNCERTAIN_CELL
        state, tile = occ.state.tolist(), int(occupancy.CellState.TILE)
        wanted = [sq for sq in (cells if cells is not None else self._tile_squares(occ))
                  if state[sq.row][sq.col] == tile]
        # A hidden cell that looks like a tile is read too (also when its letter was not asked for), so that its
        # letter can speak for it.
        asked = set(wanted)
        hidden_tiles = (Square(int(r), int(c)) for r, c in np.argwhere(hidden_mask & ((occ.state == tile) | washed)))
        suspects = [sq for sq in hidden_tiles if sq not in asked]
        read = self.read_tiles(frame, geom, wanted + suspects, gains=gains, extracted=extracted, tally=False,
                               veil=occ.veil) if wanted or suspects else {}
        occ, tiles = self._at_most_the_sets_blanks(occ, {sq: t for sq, t in read.items() if sq in asked})
        # The tiles' letters only: a hidden cell read to see whether a letter shows (a hand, a shadowed square with
        # light print) tells nothing of the tiles' ink.
        self._tally_ink(tiles.values())
        # A clearly read letter is a tile whatever its colour says: a hand shows no clear letter, while a tile in
        # the brightest light (a channel clipped, so its colour is off the other tiles') or at the edge of a
        # slightly misplaced grid (its neighbour's colour mixed in) does.
        for sq, reading in read.items():
            if hidden_mask[sq.row, sq.col] and _letter_shows(reading):
                hidden_mask[sq.row, sq.col] = False
                if washed[sq.row, sq.col] and sq not in tiles:
                    occ = _with_state(occ, sq, occupancy.CellState.TILE)
                    tiles[sq] = reading
        hidden = tuple(Square(int(r), int(c)) for r, c in zip(*np.nonzero(hidden_mask), strict=True))
        # A hand or an arm hides whatever lies under it, plain squares and tiles too; hidden cells that are all
        # empty premium squares are coloured squares the light shifted (a lit half clipped, a shadow's edge).
        # A clipped cell no clear reading has seen is as unknown as a cell under a hand.
        unseen = clipped & hidden_mask & ~_of_this_board(self._seen, washed)
        cover = hidden_mask & (~washed | unseen)
        if _is_covered(cover) and not self._premium_squares_alone(cover, occ):
            status |= ReadingStatus.COVERED
        if any(t.guess is not None and t.guess.confidence < UNSURE_MARGIN for t in tiles.values()):
            status |= ReadingStatus.LOW_CONFIDENCE
        if not status & ReadingStatus.COVERED:
            self._last_tiles = occ.state == occupancy.CellState.TILE
            seen = ~(clipped & hidden_mask)
            self._seen = seen if self._seen is None or self._seen.shape != seen.shape else self._seen | seen
            self._last_letters = {sq: letter for sq, letter in self._last_letters.items()
                                  if self._last_tiles[sq.row, sq.col]}
            self._last_letters.update((sq, t.guess.letter) for sq, t in tiles.items() if t.guess is not None)
            self._last_geom, self._last_relocations = geom, self.locator.relocations
        return BoardReading(status, geom, occ, tiles, hidden, time.perf_counter() - t0, gains)

    def _washed_as_before(self, occ: occupancy.Occupancy, washed: np.ndarray,
                          clipped: np.ndarray) -> occupancy.Occupancy:
        """The occupancy with the ``washed`` cells (:attr:`occupancy.Occupancy.washed`) empty, and the ``clipped``
        ones among them as the last clear reading of this board saw them (empty when there was none)."""
        before = _of_this_board(self._last_tiles, washed)
        state = occ.state.copy()
        state[washed] = occupancy.CellState.EMPTY
        state[clipped & before] = occupancy.CellState.TILE
        return replace(occ, state=state)

    def _premium_squares_alone(self, hidden: np.ndarray, occ: occupancy.Occupancy) -> bool:
        """Whether every hidden cell is an empty premium square (no plain square, no tile)."""
        return bool((occ.state[hidden] == occupancy.CellState.EMPTY).all() and self._premium[hidden].all())

    def _at_most_the_sets_blanks(self, occ: occupancy.Occupancy, tiles: dict[Square, TileReading]
                                 ) -> tuple[occupancy.Occupancy, dict[Square, TileReading]]:
        """The occupancy and tiles with no more tiles showing no ink than the tile set has blanks.

        The pale squares of a classic board can take the tiles' colour (near the camera, in a light cast):
        such squares are kept as tiles only up to the set's blanks, the most even first (a blank is a plain
        tile, a square shows its print and grid lines at its edge), and the rest are empty. A tile with ink
        whose letter could not be cut stays a tile.
        """
        inkless = [sq for sq, tile in tiles.items() if tile.is_blank and tile.glyph.contrast < glyphs.NO_INK]
        if len(inkless) <= self.tileset.blanks:
            return occ, tiles
        inkless.sort(key=lambda sq: tiles[sq].glyph.contrast)
        state, margin, tiles = occ.state.copy(), occ.margin.copy(), dict(tiles)
        for sq in inkless[self.tileset.blanks :]:
            state[sq.row, sq.col] = occupancy.CellState.EMPTY
            margin[sq.row, sq.col] = 0.0  # undecided: its colour said tile
            del tiles[sq]
        return replace(occ, state=state, margin=margin), tiles

    def _occupancy(self, frame: np.ndarray, geom: Geometry,
                   gains: np.ndarray) -> tuple[occupancy.Occupancy, np.ndarray]:
        """The cells' occupancy and the colours it was decided from (see :func:`occupancy.cell_colours`).

        The same grid turned next (the letters said the board lies another way round) is measured on this
        warp turned, not on a second one: the warp has a pixel more each way, so its quarter turn samples
        where a warp of the turned grid does (np.rot90 of the grid's own warp samples a pixel off). Only the
        warp's rounding of where it samples differs (a level in about one value of a thousand)."""
        side = geom.grid * OCC_CELL_PX
        fingerprint = frame[::64, ::64]
        kept, self._turnable = getattr(self, "_turnable", None), None
        lab = None
        if kept is not None and kept[0] == id(frame) and np.array_equal(kept[1], fingerprint) \
                and np.array_equal(kept[2], gains) and kept[3].grid == geom.grid:
            for turns in (1, 2, 3):
                if np.array_equal(np.roll(kept[3].corners, -turns, axis=0), geom.corners):
                    # np.rot90(kept[4], turns), made contiguous in a tenth of numpy's time
                    lab = cv2.rotate(kept[4], (cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180,
                                               cv2.ROTATE_90_CLOCKWISE)[turns - 1])
        if lab is None:
            warped = find.warp(frame, geom.to_canonical(OCC_CELL_PX), (side + 1, side + 1))
            lab = cv2.cvtColor(colour.apply_gains(warped, gains), cv2.COLOR_BGR2LAB)
            self._turnable = (id(frame), fingerprint.copy(), gains.copy(), geom, lab)
        colours = occupancy.lab_features(lab, geom.grid, OCC_CELL_PX, self.light_letters)
        return occupancy.classify(colours, self._codes, self.profile, most_stops=self.tileset.stops,
                                  most_blanks=self.tileset.blanks), colours

    def _colours_of(self, frame: np.ndarray, geom: Geometry, cells: np.ndarray, gains: np.ndarray) -> np.ndarray:
        """(len(cells), 3) colours of these (row, col) cells, measured as :meth:`_occupancy` measures them:
        each cell warped on its own (or with the cells of its line), the cells laid out as a small board for
        :func:`occupancy.cell_colours`."""
        if len(cells) > _WHOLE_WARP_FROM:
            return self._occupancy_colours(frame, geom, gains)[cells[:, 0], cells[:, 1]]
        to_canon = geom.to_canonical(OCC_CELL_PX)
        cell_list = [(int(row), int(col)) for row, col in cells]
        crops = _line_crops(frame, to_canon, cell_list, OCC_CELL_PX, OCC_CELL_PX, 0.0) \
            or [_cell_crop(frame, to_canon, row, col, OCC_CELL_PX, OCC_CELL_PX, 0.0) for row, col in cell_list]
        side = int(np.ceil(np.sqrt(len(crops))))
        crops += [crops[-1]] * (side * side - len(crops))
        mosaic = np.vstack([np.hstack(crops[r * side : (r + 1) * side]) for r in range(side)])
        features = occupancy.cell_features(colour.apply_gains(mosaic, gains), side, OCC_CELL_PX, self.light_letters)
        return features.reshape(side * side, -1)[: len(cells)]

    def _occupancy_colours(self, frame: np.ndarray, geom: Geometry, gains: np.ndarray) -> np.ndarray:
        """(grid, grid, 4) the cells' features (:func:`occupancy.cell_features`) as :meth:`_occupancy` measures."""
        small = colour.apply_gains(geom.warp(frame, OCC_CELL_PX), gains)
        return occupancy.cell_features(small, geom.grid, OCC_CELL_PX, self.light_letters)

    def _orientation(self, frame: np.ndarray, seen: Geometry, occ: occupancy.Occupancy, gains: np.ndarray,
                     extracted: dict[Square, TileReading] | None = None) -> int:
        """Which way the board lies under the camera (quarter turns), read from the photo alone.

        Once tiles lie on the board, a turned board shows the tiles of the last reading turned: the turn
        under which most of them are where they were wins (cheap: the occupancy grid turned, no warp).
        The first time, or when that cannot tell, the letters decide: the tiles are read under each turn
        and the turn under which they look most like letters wins. The tiles read for that (their glyphs,
        on the grid of the current turn, not classified) are added to ``extracted``.
        """
        current = self.turns or 0
        tiles = occ.state == occupancy.CellState.TILE
        if self._last_tiles is not None and self._last_tiles.sum() >= 3:
            before = self._last_tiles
            relocated = self.locator.relocations != self._last_relocations
            # np.rot90 by j turns the grid the way turned(geom, j) turns the warp (checked by a test).
            if int((tiles & before).sum()) >= before.sum() and not relocated:
                return current  # the usual case: the other turns need not be counted
            # A compact cluster of tiles keeps most of its squares under a quarter turn too: the best turn wins.
            kept = [int((np.rot90(tiles, j) & before).sum()) for j in range(4)]
            whole = [j for j in range(4) if kept[j] >= before.sum()]
            if relocated and len(whole) > 1:
                # The board moved and may have turned: a long word laid across a short one covers its squares
                # under a quarter turn as well. The tiles read before read the same letters under the right one.
                by_letters = self._turn_by_letters(frame, seen, current, whole, gains)
                if by_letters is not None:
                    return (current + by_letters) % 4
            if whole == [0]:
                return current
            best = int(np.argmax(kept))
            if kept[best] >= 0.8 * before.sum():
                return (current + best) % 4
        if self.turns is not None and self._turns_located == self.locator.relocations:
            return current
        squares = [Square(int(r), int(c)) for r, c in zip(*np.nonzero(tiles), strict=True)][:_ORIENT_TILES]
        read = self.read_tiles(frame, turned(seen, current), squares, gains=gains, classify=False)
        if extracted is not None:
            extracted.update(read)
        glyph_list = [t.glyph for t in read.values() if not t.glyph.is_blank]
        if len(glyph_list) < 2:
            return current
        # The four turns of the first few glyphs classified at once (one matrix product); the rest only when
        # those leave the turn in doubt.
        similarity = np.zeros((4, 0))
        for chunk in (glyph_list[:_ORIENT_FIRST], glyph_list[_ORIENT_FIRST:]):
            if not chunk:
                break
            turned_glyphs = [glyphs.Glyph(_quarter_turned(g.image, j), g.contrast, g.height, 0)
                             for j in range(4) for g in chunk if g.image is not None]
            guesses = self.classifier.classify_many(turned_glyphs)
            if any(guess is None for guess in guesses):
                return current  # a classifier that only collects glyphs (building the model) cannot tell
            similarity = np.hstack([similarity, np.array([guess.top[0][1] for guess in guesses]).reshape(4, -1)])
            scores = similarity.mean(axis=1)
            if np.diff(np.sort(scores)[-2:])[0] >= _ORIENT_CLEAR:
                break
        self._turns_located = self.locator.relocations
        best = int(np.argmax(scores))
        return (current + best) % 4

    def _turn_by_letters(self, frame: np.ndarray, seen: Geometry, current: int, candidates: list[int],
                         gains: np.ndarray) -> int | None:
        """Of the quarter turns ``candidates`` (relative to ``current``), the one under which the last reading's
        tiles (up to _ORIENT_TILES) read the same letters on their squares most often; None when
        there are too few of them or two turns tie."""
        known = list(self._last_letters.items())[:_ORIENT_TILES]
        if len(known) < 3:
            return None
        squares = [sq for sq, _ in known]
        matches = []
        for j in candidates:
            read = self.read_tiles(frame, turned(seen, (current + j) % 4), squares, gains=gains, refit=False,
                                   tally=False)
            guesses = [read[sq].guess if sq in read else None for sq in squares]
            matches.append(sum(guess is not None and guess.letter == letter
                               for guess, (_, letter) in zip(guesses, known, strict=True)))
        order = np.argsort(matches)
        if matches[order[-1]] == matches[order[-2]]:
            return None
        return candidates[int(order[-1])]

    @staticmethod
    def _tile_squares(occ: occupancy.Occupancy) -> list[Square]:
        rows, cols = np.nonzero(occ.state == occupancy.CellState.TILE)
        return [Square(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]

    def read_tiles(self, frame: np.ndarray, geom: Geometry, squares: Iterable[Square], *,
                   gains: np.ndarray | None = None, classify: bool = True,
                   extracted: dict[Square, TileReading] | None = None,
                   refit: bool = True, tally: bool = True, veil: np.ndarray | None = None
                   ) -> dict[Square, TileReading]:
        """Read only these cells of ``frame`` (white-balanced by ``gains``; None: it already is); the glyphs of
        ``extracted`` (cut out of the same frame on the same grid) are taken as they are. ``veil``: how far a
        reflection washes each cell out (:attr:`occupancy.Occupancy.veil`), divided out of its crop.

        A few cells are warped one by one (a line of them as one box), so a move costs only its own tiles;
        many cells (a full board) share one warp of the whole grid. A full board also measures where its
        letters lie on their cells (:meth:`_fit_tile_shift`); where that moved them by _PARALLAX_AGAIN or more,
        they are cut again from crops that follow them (``refit``: whether it may). ``tally``: whether the letters read
        count towards :attr:`light_letters` (not where the squares may be no tiles).
        """
        out = {}
        shapes: dict[Square, np.ndarray | None] = {}  # the print of tiles that may be arrow tiles
        squares = list(squares)
        pad = glyphs.CROP_PAD * CELL_PX
        size = int(round(CELL_PX + 2 * pad))
        whole = None
        to_canon = geom.to_canonical(CELL_PX, WARP_MARGIN)
        shift = self._tile_shift[1] if self._tile_shift is not None and self._tile_shift[0] is geom else None
        if shift is not None:
            to_canon = np.linalg.inv(shift) @ to_canon
        offset = WARP_MARGIN * CELL_PX - pad  # of a cell's crop in the canonical picture, beyond col/row * CELL_PX
        line = None
        if len(squares) > _WHOLE_WARP_FROM:
            whole = _RowStrips(frame, to_canon, squares, CELL_PX, size, offset, int(round((geom.grid + 1) * CELL_PX)))
        elif len(squares) >= 2:
            line = _line_crops(frame, to_canon, [(sq.row, sq.col) for sq in squares], CELL_PX, size, offset, gains)
        crops, from_whole = [], []
        for i, sq in enumerate(squares):
            x0, y0 = offset + sq.col * CELL_PX, offset + sq.row * CELL_PX
            if whole is not None and x0 >= 0 and y0 >= 0:
                crop = whole.crop(sq, int(round(x0)), int(round(y0)))
                from_whole.append(i)
            elif line is not None:
                crop = line[i]
            else:
                crop = _cell_crop(frame, to_canon, sq.row, sq.col, CELL_PX, size, offset)
                if gains is not None:
                    crop = colour.apply_gains(crop, gains)
            crops.append(crop)
        if whole is not None and frame.ndim == 3 and from_whole:
            crops = self._balanced_grey(crops, from_whole, gains)
        known = extracted or {}
        # The glyphs of all tiles cut at once (the same glyphs as one by one, in less time).
        todo = [i for i, sq in enumerate(squares) if sq not in known]
        cut = dict(zip(todo, glyphs.extract_many([crops[i] for i in todo], CELL_PX), strict=True))
        if veil is not None:
            # A reflection leaves a letter as faint as its square: where none shows, the veil is divided out of the
            # crop and the letter cut again (only there: a veil fitted on a tile that is no reflection's would
            # wash a clear letter away).
            faint = [i for i, sq in enumerate(squares) if veil[sq.row, sq.col] >= occupancy.VEIL_TOLERANCE
                     and (cut[i] if i in cut else known[sq].glyph).is_blank]
            unveiled = [occupancy.unveil_pixels(crops[i], float(veil[squares[i].row, squares[i].col])) for i in faint]
            for i, crop, glyph in zip(faint, unveiled, glyphs.extract_many(unveiled, CELL_PX), strict=True):
                crops[i], cut[i] = crop, glyph
        if whole is not None and classify and refit:
            moved = self._fit_tile_shift([(sq, cut[i]) for i, sq in enumerate(squares) if i in cut], geom.grid)
            if moved is not None:
                self._tile_shift = (geom, moved if shift is None else shift @ moved)
                centres = _canonical_centres(squares)
                far = np.hypot(*((centres @ moved.T) - centres)[:, :2].T) >= _PARALLAX_AGAIN * CELL_PX
                again = self.read_tiles(frame, geom, [sq for sq, f in zip(squares, far, strict=True) if f],
                                        gains=gains, classify=False, refit=False, veil=veil)
                cut.update({i: again[sq].glyph for i, sq in enumerate(squares) if sq in again})
        for i, (sq, crop) in enumerate(zip(squares, crops, strict=True)):
            out[sq] = TileReading(sq, cut[i] if i in cut else known[sq].glyph, None)
            if classify and self.classifier.reads_arrows and not out[sq].glyph.is_blank:
                shapes[sq] = glyphs.ink_shape(crop, CELL_PX)
        if not classify:
            return out
        lettered = [r for r in out.values() if not r.glyph.is_blank]
        # Arrow tiles look alike in every quarter turn: told apart before any letter is tried turned.
        guesses = self.classifier.with_arrows(self.classifier.classify_many([r.glyph for r in lettered], k=4),
                                              [r.glyph for r in lettered], [shapes.get(r.square) for r in lettered])
        for reading, guess in zip(lettered, self._turned_tiles(lettered, guesses), strict=True):
            out[reading.square] = TileReading(reading.square, reading.glyph if guess is None else guess[1],
                                              guess[0] if guess is not None else None)
        if geom is self._last_geom:
            self._last_letters.update((sq, t.guess.letter) for sq, t in out.items() if t.guess is not None)
        if tally:
            self._tally_ink(out.values())
        return out

    def _tally_ink(self, tiles: Iterable[TileReading]) -> None:
        """Count which way the ink of these tiles' letters goes (see :attr:`light_letters`)."""
        self._light_ink.extend(t.glyph.light_ink for t in tiles
                               if t.guess is not None and t.guess.letter != ARROW and t.glyph.image is not None)

    @staticmethod
    def _fit_tile_shift(cut: list[tuple[Square, glyphs.Glyph]], grid: int) -> np.ndarray | None:
        """The affine map of the canonical picture taking each cell's centre to where its letter lies, fitted
        to the letters (least squares, then again without those far off it: a letter read badly), or None
        when the letters sit on their cells (nowhere on them off by _PARALLAX_FROM).

        The shift changes across the board (most near the camera), but tiles in a few rows or columns only,
        or a fit that runs off beyond them (more than _PARALLAX_MOST at a corner of the grid), cannot tell how:
        then one offset for all, the letters' median.
        """
        measured = [(sq, g.offset) for sq, g in cut if g.offset is not None and not g.is_blank]
        if len(measured) < _PARALLAX_TILES:
            return None
        centres = _canonical_centres([sq for sq, _ in measured])
        offsets = np.array([off for _, off in measured]) * CELL_PX
        keep = np.ones(len(measured), bool)
        rows, cols = {sq.row for sq, _ in measured}, {sq.col for sq, _ in measured}
        spread = min(max(rows) - min(rows), max(cols) - min(cols)) >= grid / 3
        corners = np.array([[(WARP_MARGIN + x) * CELL_PX, (WARP_MARGIN + y) * CELL_PX, 1.0]
                            for x in (0, grid) for y in (0, grid)])
        coef = np.zeros((3, 2))
        for _ in range(2):
            if spread:
                coef, *_ = np.linalg.lstsq(centres[keep], offsets[keep], rcond=None)
            if not spread or np.hypot(*(corners @ coef).T).max() > _PARALLAX_MOST * CELL_PX:
                coef = np.zeros((3, 2))
                coef[2] = np.median(offsets[keep], axis=0)
            residual = np.hypot(*(centres @ coef - offsets).T)
            keep = residual <= 3 * np.median(residual) + 0.05 * CELL_PX
            if keep.sum() < _PARALLAX_TILES:
                return None
        if np.hypot(*(centres @ coef).T).max() < _PARALLAX_FROM * CELL_PX:
            return None
        moved = np.eye(3)
        moved[:2] += coef.T
        return moved

    @staticmethod
    def _balanced_grey(crops: list[np.ndarray], mine: list[int], gains: np.ndarray | None) -> list[np.ndarray]:
        """The crops, those at ``mine`` (colour crops of one size) white-balanced by ``gains`` and made grey all
        at once: both are per pixel, so this gives the pixels of balancing and greying the whole picture they
        were cut from, with only the tiles' pixels worked on."""
        stack = np.stack([crops[i] for i in mine])
        tall = stack.reshape(-1, *stack.shape[2:])
        grey = cv2.cvtColor(colour.apply_gains(tall, gains) if gains is not None else tall, cv2.COLOR_BGR2GRAY)
        out = list(crops)
        for i, crop in zip(mine, grey.reshape(stack.shape[:3]), strict=True):
            out[i] = crop
        return out

    def _turned_tiles(self, lettered: list[TileReading], guesses: list) -> list:
        """(guess, glyph) per tile, a tile laid turned by a player on another side read in its own turn.

        A tile whose letter looks much less like any letter than this board's tiles usually do (the
        similarity is tracked over the tiles read) is tried in its three other quarter turns; a turn that
        fits clearly better wins. Letters that are each other turned (M/W, N/Z) cannot be told apart.
        The tiles likely to be tried are classified turned all at once beforehand.
        """
        likely = self._likely_turned(lettered, guesses)
        ahead = dict(zip(likely, self._turns_of([lettered[i].glyph for i in likely]), strict=True))
        # The likely tiles a turn reads better than upright are also read with their marks the other way, at once.
        barred = [i for i in likely
                  if any(other.top[0][1] > guesses[i].top[0][1] + _TURNED_GAP for other, _ in ahead[i])]
        bars = dict(zip(barred, self._other_marks_similarities([lettered[i].glyph for i in barred]), strict=True))
        out: list[tuple[LetterGuess, glyphs.Glyph] | None] = []
        for i, (reading, guess) in enumerate(zip(lettered, guesses, strict=True)):
            if guess is None:  # a classifier that only collects glyphs
                out.append(None)
                continue
            if guess.letter == ARROW:
                out.append((guess, reading.glyph))
                continue
            best = (guess, reading.glyph)
            similarity = guess.top[0][1]
            if len(self._similarities) >= _TYPICAL_FROM and similarity < self._similarities.median() \
                    - _TURNED_GAP and reading.glyph.image is not None:
                # The turns are read without marks (dots above an upright letter are beside a turned one): so
                # they must beat the upright letter read with its marks the other way too. Found marks may be
                # a tile edge (E read with a mark penalty made a turned E, a W, win); marks not found may be
                # dots merged into the letter, seen from low (Ä read A less a penalty made a turned Ä, a Y, win).
                turns = ahead[i] if i in ahead else self._turns_of([reading.glyph])[0]
                # That second reading only when a turn beats the first (the bar is at least the first): seldom.
                if any(other.top[0][1] > similarity + _TURNED_GAP for other, _ in turns):
                    bar = max(similarity, bars[i] if i in bars else self._other_marks_similarities([reading.glyph])[0])
                    for other, turned_glyph in turns:
                        if other.top[0][1] > max(bar, best[0].top[0][1]) + _TURNED_GAP:
                            best = (other, turned_glyph)
            self._similarities.add(best[0].top[0][1])
            out.append(best)
        return out

    def _likely_turned(self, lettered: list[TileReading], guesses: list) -> list[int]:
        """The tiles :meth:`_turned_tiles` tries turned if no tile before them is read better turned."""
        similarities, out = self._similarities.copy(), []
        for i, (reading, guess) in enumerate(zip(lettered, guesses, strict=True)):
            if guess is None or guess.letter == ARROW:
                continue
            similarity = guess.top[0][1]
            if len(similarities) >= _TYPICAL_FROM and similarity < similarities.median() - _TURNED_GAP \
                    and reading.glyph.image is not None:
                out.append(i)
            similarities.add(similarity)
        return out

    def _other_marks_similarities(self, glyph_list: list[glyphs.Glyph]) -> list[float]:
        """Per glyph, the best letter's similarity to it read with its marks the other way: without the marks
        found, or with marks where none were found (all classified at once; each glyph has its image)."""
        other = [glyphs.Glyph(g.image, g.contrast, g.height, int(not g.marks)) for g in glyph_list]
        return [-np.inf if guess is None else guess.top[0][1] for guess in self.classifier.classify_many(other)]

    def _turns_of(self, glyph_list: list[glyphs.Glyph]) -> list[list[tuple[LetterGuess, glyphs.Glyph]]]:
        """Per glyph, (guess, glyph) of it turned one, two and three quarter turns (its marks not counted), all
        classified at once."""
        turned_glyphs = [glyphs.Glyph(_quarter_turned(g.image, j), g.contrast, g.height, 0)
                         for g in glyph_list if g.image is not None for j in (1, 2, 3)]
        pairs = list(zip(self.classifier.classify_many(turned_glyphs, k=4), turned_glyphs, strict=True))
        return [pairs[3 * n : 3 * n + 3] for n in range(len(pairs) // 3)]

    def learn(self, readings: Iterable[TileReading], letters: Iterable[str]) -> None:
        """Teach the classifier confirmed letters (blanks are skipped: they carry no glyph)."""
        pairs = [(r.glyph, letter) for r, letter in zip(readings, letters, strict=True) if not r.glyph.is_blank]
        if pairs:
            self.classifier.learn([p[0] for p in pairs], [p[1] for p in pairs])


class _Window:
    """The last ``size`` values added, kept sorted too: their median (as statistics.median gives it) without
    a sort per value."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: collections.deque[float] = collections.deque()
        self._sorted: list[float] = []

    def __len__(self) -> int:
        return len(self._values)

    def add(self, value: float) -> None:
        self._values.append(value)
        bisect.insort(self._sorted, value)
        if len(self._values) > self.size:
            del self._sorted[bisect.bisect_left(self._sorted, self._values.popleft())]

    def median(self) -> float:
        n = len(self._sorted)
        return self._sorted[n // 2] if n % 2 else (self._sorted[n // 2 - 1] + self._sorted[n // 2]) / 2

    def copy(self) -> _Window:
        other = _Window(self.size)
        other._values, other._sorted = self._values.copy(), list(self._sorted)
        return other


def _canonical_centres(squares: Sequence[Square]) -> np.ndarray:
    """(len(squares), 3) the squares' centres in the canonical picture of the grid (CELL_PX, WARP_MARGIN),
    homogeneous."""
    return np.array([[(WARP_MARGIN + sq.col + 0.5) * CELL_PX, (WARP_MARGIN + sq.row + 0.5) * CELL_PX, 1.0]
                     for sq in squares], np.float64).reshape(-1, 3)


def _quarter_turned(image: np.ndarray, turns: int) -> np.ndarray:
    """``np.rot90(image, turns)``, contiguous (cv2.rotate: the same pixels in a fraction of the time)."""
    if turns % 4 == 0:
        return np.ascontiguousarray(image)
    return cv2.rotate(image, (cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)[turns % 4 - 1])


class _RowStrips:
    """The crops of many cells cut from the canonical picture of the whole grid (``side`` pixels square), warping
    only the strips of it that hold them: per row of cells, the span from its first to its last wanted cell, when
    that is less than the whole picture (a board half full), else the whole picture. A strip starts at a whole pixel
    of the picture, so its pixels are the picture's (the same sampling, up to the last bit of the homography's
    arithmetic)."""

    def __init__(self, frame: np.ndarray, to_canon: np.ndarray, squares: Sequence[Square], px: int, size: int,
                 offset: float, side: int) -> None:
        spans: dict[int, tuple[int, int]] = {}
        for sq in squares:
            lo, hi = spans.get(sq.row, (sq.col, sq.col))
            spans[sq.row] = (min(lo, sq.col), max(hi, sq.col))
        self._size = size
        self._strips: dict[int, tuple[int, np.ndarray]] = {}
        self._whole: np.ndarray | None = None
        if sum((hi - lo) * px + size for lo, hi in spans.values()) * size >= side * side:
            self._whole = find.warp(frame, to_canon, (side, side))
            return
        for row, (lo, hi) in spans.items():
            x0, y0 = int(round(offset + lo * px)), int(round(offset + row * px))
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
            strip = find.warp(frame, shift @ to_canon, ((hi - lo) * px + size, size))
            self._strips[row] = (x0, strip)

    def crop(self, square: Square, x: int, y: int) -> np.ndarray:
        """The ``size`` x ``size`` crop whose corner is at (x, y) of the whole picture, for a wanted square."""
        if self._whole is not None:
            return self._whole[y : y + self._size, x : x + self._size]
        x0, strip = self._strips[square.row]
        return strip[:, x - x0 : x - x0 + self._size]


def _cell_crop(frame: np.ndarray, to_canon: np.ndarray, row: int, col: int, px: int, size: int,
               offset: float) -> np.ndarray:
    """The ``size`` x ``size`` crop of the canonical picture (``px`` per cell) whose corner is ``offset``
    beyond cell (row, col)'s, warped from ``frame``."""
    shift = np.array([[1, 0, -(offset + col * px)], [0, 1, -(offset + row * px)], [0, 0, 1]], np.float64)
    return find.warp(frame, shift @ to_canon, (size, size))


def _line_crops(frame: np.ndarray, to_canon: np.ndarray, cells: Sequence[tuple[int, int]], px: int, size: int,
                offset: float, gains: np.ndarray | None = None) -> list[np.ndarray] | None:
    """:func:`_cell_crop` of each cell, cut from one warp of the cells' bounding box (white-balanced by
    ``gains``), when the cells lie along a line (the box at most twice their count); else None. The crops
    sample where a warp per cell would: the cells lie whole cells apart. (A move's first reading costs most:
    fewer warps.)"""
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    rows, cols = max(r for r, _ in cells) - top + 1, max(c for _, c in cells) - left + 1
    if rows * cols > 2 * len(cells):
        return None
    shift = np.array([[1, 0, -(offset + left * px)], [0, 1, -(offset + top * px)], [0, 0, 1]], np.float64)
    box = find.warp(frame, shift @ to_canon, ((cols - 1) * px + size, (rows - 1) * px + size))
    if gains is not None:
        box = colour.apply_gains(box, gains)
    return [box[(r - top) * px : (r - top) * px + size, (c - left) * px : (c - left) * px + size] for r, c in cells]


@functools.cache
def _grid_distance(n: int) -> np.ndarray:
    """(n*n, n*n) int16: the city-block distance between every two squares of an n x n grid (row-major)."""
    rows, cols = np.divmod(np.arange(n * n), n)
    return (np.abs(rows[:, None] - rows[None, :]) + np.abs(cols[:, None] - cols[None, :])).astype(np.int16)


def turned(geom: Geometry, turns: int) -> Geometry:
    """The same grid with its first corner ``turns`` quarter turns on: the warp shows the board turned."""
    if turns % 4 == 0:
        return geom
    return replace(geom, corners=np.roll(geom.corners, -(turns % 4), axis=0))


def _letter_shows(tile: TileReading | None) -> bool:
    return tile is not None and tile.guess is not None and tile.guess.confidence >= HIDDEN_LETTER_MARGIN


def _of_this_board(mask: np.ndarray | None, like: np.ndarray) -> np.ndarray:
    """``mask`` (a remembered cell mask) when it is of ``like``'s board size, else no cell."""
    return mask if mask is not None and mask.shape == like.shape else np.zeros_like(like)


def _with_state(occ: occupancy.Occupancy, square: Square, state: occupancy.CellState) -> occupancy.Occupancy:
    """The occupancy with one cell's state changed."""
    states = occ.state.copy()
    states[square.row, square.col] = state
    return replace(occ, state=states)


def _is_covered(hidden: np.ndarray) -> bool:
    """Hidden cells that form a blob (a hand spans several neighbouring cells) or are many."""
    count = int(hidden.sum())
    if count >= 4 or count < 2:
        return count >= 4
    n, _, stats, _ = cv2.connectedComponentsWithStats(hidden.astype(np.uint8), connectivity=8)
    return any(stats[i][4] >= 2 for i in range(1, n))


def load_frame(path: str | os.PathLike[str]) -> np.ndarray:
    """A photo, size-checked before decoding and refused when cut short (:func:`vision.imageio.read_image`)."""
    from vision.imageio import read_image

    return read_image(path)

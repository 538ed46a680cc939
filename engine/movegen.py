# SPDX-License-Identifier: GPL-3.0-or-later
"""Every legal placement for a rack, with its score: Appel & Jacobson (1988) over a :class:`WordGraph`.

Per position the generator computes, once per board line, the cross-check set of each
empty square (the letters that make a valid perpendicular word there) and the face-value
sum of that perpendicular word, then grows words through anchors (empty squares next to a
tile; the centre on an empty board): a left part on the free squares before the anchor,
then the rest of the word to the right, through tiles already on the board.

Where the time goes (what made it fast): the left parts are the word prefixes the rack
can spell, found once per position and indexed by last letter and by the letters that
may follow them, so an anchor only sees the parts whose last tile passes its cross-check
and that go on into the tiles after it (at anchors before a word, 94–97 % of the plain
left-part searches found nothing); and a search goes on to the next square only when the
word graph node has a letter the rest of the rack can put there (bit sets per node and
per square: two in three searches would find nothing). The letters tried on a square are
the set bits of node & square & rack; one dict read (:meth:`WordGraph.steps`) gives a tile's
child node, its letter bits and whether a word ends there; and the cyclic garbage collector
is paused while the moves are made (it walked the growing move list over and over: a fifth
of the time). Most of what is left is set-up per position, line and anchor rather than the
search, so that is kept small: a move is its main word as text (its tiles are worked out
only when asked: most moves are only counted), parts grow only by letters both their node
and the rest of the rack have, parts and old tiles are walked with a mask test before each
dict read, the word multiplier and "no letter premium" of any stretch of a line come from
per-layout products and runs, and the node masks come with the graph file (a node first
reached costs one small dict, a cross-check no dicts). Scores are added up while the word
grows, with the engine's rules (letter ×2–×4, word ×2–×4 after
the letter effects, a minus square takes the tile's value off once net, the all-tiles
bonus from :meth:`Rules.bingo_bonus`); ``tests/test_movegen.py`` proves on every
generated move that this equals :func:`engine.scoring.score_placement`, and that the set
of moves equals a brute-force enumeration validated by :func:`engine.validation.validate`.

Alfapet's special tiles: a **stop tile** on the rack adds the stop moves the rules define
(the black tile on the empty square right after the last letter of a word of two or more
letters, to its right or below it; a new word of two or more letters starting on the square
right of it going across or below it going down, connected or not), and no new word starts
right after or below a stop tile laid earlier, as :mod:`engine.validation` defines them.
**Arrow (bent) words are not generated**: they are legal and scored when played, but not
proposed.

A single tile that forms words both ways is generated once (across); one that forms only
a down word is generated down.

>>> from engine.rules import Rules
>>> from engine.lexicon.wordgraph import WordGraph
>>> graph = WordGraph.from_words(["CAT", "AT", "TA"])
>>> moves = generate_moves(Board(15), "TCA", Rules.scrabble("en"), graph)
>>> [(m.score, m.notation(Board(15))) for m in best_moves(moves, 2)]
[(10, '8F CAT'), (10, '8G CAT')]
"""

from __future__ import annotations

import functools
import gc
import heapq
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import itemgetter, mul
from typing import NamedTuple

from engine.board import Board
from engine.layout import Premium
from engine.lexicon.wordgraph import WordGraph
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.squares import Direction, Square
from engine.tiles import ARROW, BLANK, STOP, TileKind

_EMPTY = ""
_NO_LETTER = frozenset((_EMPTY, STOP))


class GeneratedMove(NamedTuple):
    """One placement found by the generator (:func:`best_moves` orders them)."""

    score: int
    direction: Direction
    line: int  # the row of an across word, the column of a down word
    start: int  # where the main word starts along that line
    word: str  # the main word, old letters included; a blank laid now in lower case (the board's text form)
    stop: int | None  # index along the line of a stop tile placed before the word
    old: tuple[str, ...]  # the line before the move ("" empty): the squares of ``word`` empty there are the tiles laid

    @property
    def end(self) -> int:
        """Where the main word ends along the line (exclusive)."""
        return self.start + len(self.word)

    @property
    def tiles(self) -> tuple[tuple[int, str, bool], ...]:
        """(index along the line, letter, is blank) of the tiles laid, in reading order (worked out when asked:
        most moves are only counted)."""
        old = self.old
        return tuple((i, letter.upper(), letter.islower()) for i, letter in enumerate(self.word, self.start)
                     if old[i] == _EMPTY)

    def square(self, index: int) -> Square:
        return Square(self.line, index) if self.direction is Direction.ACROSS else Square(index, self.line)

    @property
    def tiles_used(self) -> int:
        return len(self.tiles) + (self.stop is not None)

    def placement(self) -> Placement:
        """The engine's placement for this move."""
        tiles = [PlacedTile(self.square(i), letter, blank) for i, letter, blank in self.tiles]
        if self.stop is not None:
            tiles.insert(0, PlacedTile(self.square(self.stop), STOP, kind=TileKind.STOP))
        return Placement(tuple(tiles), self.square(self.start), self.direction)

    def notation(self, board: Board, *, lettered_rows: bool = False) -> str:
        """GCG text (``8H WORD``, ``.`` for letters already on ``board``, the board before the move)."""
        return self.placement().notation(board, lettered_rows=lettered_rows)


def parse_rack(rack: str) -> tuple[dict[str, int], int, int]:
    """(letter counts, blanks, stop tiles) of a rack written like ``AEK?#`` (``^`` arrows are ignored)."""
    letters: dict[str, int] = {}
    blanks = stops = 0
    for symbol in rack:
        if symbol == BLANK:
            blanks += 1
        elif symbol == STOP:
            stops += 1
        elif symbol == ARROW or symbol.isspace():
            continue
        else:
            letter = symbol.upper()
            letters[letter] = letters.get(letter, 0) + 1
    return letters, blanks, stops


def generate_moves(board: Board, rack: str, rules: Rules, graph: WordGraph) -> list[GeneratedMove]:
    """Every placement of tiles from ``rack`` on ``board`` whose words are all in ``graph``, scored."""
    # The cyclic collector would walk every move and cached graph node many times over while thousands of moves
    # are made (a fifth of the time); nothing made here forms a cycle, so it waits until the end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Generator(board, rack, rules, graph).run()
    finally:
        if collecting:
            gc.enable()


def best_moves(moves: Iterable[GeneratedMove], top: int) -> list[GeneratedMove]:
    """The ``top`` highest-scoring moves, best first (ties: by word, then position, so the order is stable)."""
    moves = list(moves)
    if top <= 0 or not moves:
        return []
    floor = heapq.nlargest(top, (m.score for m in moves))[-1]  # spell only the words of moves that can make it
    return sorted((m for m in moves if m.score >= floor),
                  key=lambda m: (-m.score, m.word, m.direction.value, m.line, m.start))[:top]


class _Part(NamedTuple):
    """Rack tiles spelling a word prefix, to be laid left to right ending on an anchor (found once per position)."""

    length: int
    node: int  # the word graph node they lead to
    word: str  # their letters (a blank's in lower case)
    values: tuple[int, ...]  # face values (0 for a blank)
    total: int  # their sum (the part's score on squares without a letter premium)
    rack: dict[str, int]  # the rack's letters left over (shared by parts: restored after use)
    rack_bits: int  # and their bit set (WordGraph.letter_bits)
    blanks_left: int
    tiles_left: int
    ends: int  # non-zero: a word of two or more letters may end with it
    goes_on: int  # bits of the letters the node goes on with that the rest of the rack has
    kids: dict[str, tuple[int, int, int]] | None  # the node's steps (WordGraph.steps); None when it cannot go on
    # with rack tiles (read only before old tiles then: a node first reached costs a dict)
    next_bits: int  # the bits of their letters


_NEXT_BITS = itemgetter(_Part._fields.index("next_bits"))

_Square = tuple[int, bool, int, int, int, int, str, int, int, tuple[tuple[int, str], ...]]  # see _Line.squares


class _Line(NamedTuple):
    cells: list[str]  # letter, STOP, or "" for empty
    values: list[int]  # face value of the tile on the square (0 blank / empty)
    factor: list[int]  # letter factor of a new tile there (minus square: -1)
    word_mult: list[int]
    mult_upto: list[int]  # the product of the word multipliers before each square (and after the last)
    plain_upto: list[int]  # how many squares right before each square have no letter premium (factor 1)
    cross_ok: list[frozenset[str] | None]  # None: no perpendicular word, any letter
    cross_sum: list[int]  # face values of the perpendicular word's old tiles
    anchors: list[tuple[int, int]]  # (square, free squares before it for rack tiles; -1: a tile lies right before it)
    runs: dict[int, tuple[str, int, int]]  # first square of a run of old tiles -> (its letters, its end, value sum)
    reach: list[int]  # bits of the letters a new tile may be on each square (WordGraph.letter_bits)
    old: tuple[str, ...]

    def squares(self, first: int, bit: dict[str, int]) -> list[_Square | None]:
        """Per empty square, what a tile laid there needs (read once per tile, not looked up piece by piece):
        (reach, crosses a word, letter factor, word multiplier, cross sum × multiplier, where the word goes on after
        it (past the old tiles right after it), those tiles' letters, their value sum, bits a next tile may have
        there, (bit, letter) of those old tiles). Made only for lines where words are grown, from ``first`` on
        (tiles laid one by one start at an anchor or right after a stop tile)."""
        cells, reach, factors, mults, cross_ok, cross_sum = (self.cells, self.reach, self.factor, self.word_mult,
                                                             self.cross_ok, self.cross_sum)
        size = len(cells)
        squares: list[_Square | None] = [None] * size
        for c in range(first, size):
            if cells[c] != _EMPTY:
                continue
            through, end, old_value = self.runs.get(c + 1, ("", c + 1, 0))
            room = reach[end] if end < size and cells[end] == _EMPTY else 0
            squares[c] = (reach[c], cross_ok[c] is not None, factors[c], mults[c], cross_sum[c] * mults[c], end,
                          through, old_value, room,
                          tuple([(bit.get(letter, 0), letter) for letter in through]) if through else ())
        return squares


class _Generator:
    def __init__(self, board: Board, rack: str, rules: Rules, graph: WordGraph) -> None:
        self.board = board
        self.rules = rules
        self.graph = graph
        self.size = board.size
        self.rack, self.blanks, self.stops = parse_rack(rack)
        if not rules.special_tiles or not rules.tileset.stops:
            self.stops = 0  # a Scrabble set has no stop tiles
        self.rack_tiles = sum(self.rack.values()) + self.blanks
        self.values = dict(rules.tileset.values)
        self.bingo = dict(rules.bingo)
        self.allowed_letters = frozenset(letter for letter in graph.alphabet if rules.tileset.is_letter(letter))
        self.moves: list[GeneratedMove] = []
        self.racks: dict[str, tuple[dict[str, int], int]] = {}  # (rack, its bits) by the letters left
        self.by_last: dict[str, list[_Part]] = {}  # parts by their last letter, shortest first
        self.bit = {letter: 1 << i for i, letter in enumerate(graph.alphabet)}
        self.by_next: dict[str, tuple[int, list[_Part], list[int]]] = {}  # parts of up to so many tiles whose node
        # goes on with the letter (and their cuts, see _cuts)
        self.cuts: dict[str, list[int]] = {}  # by last letter: see _cuts
        self.longest = 0  # the longest part
        self.upto: list[int] = [0]  # the parts' cuts
        self.parts: list[_Part] = []  # shortest first
        self.parts_next_bits: list[int] = []  # the next_bits of self.parts, in the same order (for compress)
        size = self.size
        self.cells = [[_EMPTY] * size for _ in range(size)]
        self.tile_values = [[0] * size for _ in range(size)]
        for square, cell in board:
            self.cells[square.row][square.col] = STOP if cell.is_stop else cell.letter
            if not cell.is_stop and not cell.blank:
                self.tile_values[square.row][square.col] = self.values.get(cell.letter, 0)
        self.premiums = _premiums(rules.layout.grid, rules.minus_squares, size)
        self.rack_bits = graph.letter_bits(self.rack)
        self.blank_bits = graph.letter_bits(self.allowed_letters)
        self.letter_of = {bit: letter for letter, bit in self.bit.items()}
        self.blank_form = {letter: letter.lower() for letter in graph.alphabet}  # a blank's letter in a word
        self.last_bits = 0  # bits of the parts' last letters
        self.bonus = [self.bingo.get(used, 0) for used in range(self.rack_tiles + self.stops + 2)]
        self.empty_board = board.is_empty()

    def run(self) -> list[GeneratedMove]:
        if not self.rack_tiles:
            return []
        lines = []
        grids = self.cells, _oriented(self.cells, Direction.DOWN)
        value_grids = self.tile_values, _oriented(self.tile_values, Direction.DOWN)
        for direction in (Direction.ACROSS, Direction.DOWN):
            down = direction is Direction.DOWN
            grid, values = grids[down], value_grids[down]
            premiums = self.premiums[down]
            # Perpendicular words are read along the other orientation's lines (slices, not a walk per square).
            crossing = grids[not down], value_grids[not down]
            for r in range(self.size):
                lines.append((self._line(grid, values, crossing, premiums, r, direction), grid, r, direction))
        self._find_parts(max((free + 1 for line, *_ in lines for _, free in line.anchors), default=0))
        for line, grid, r, direction in lines:
            self._line_moves(line, r, direction)
            if self.stops:
                self._stop_moves(line, grid, r, direction)
        return self.moves

    # -- per line set-up -----------------------------------------------------------------------------

    def _line(self, grid, values, crossing, premiums, r: int, direction: Direction) -> _Line:
        factor, word_mult, mult_upto, plain_upto = premiums
        size = self.size
        cells = grid[r]
        cross_ok: list[frozenset[str] | None] = [None] * size
        cross_sum = [0] * size
        every = (1 << len(self.graph.alphabet)) - 1
        reach = [every] * size
        anchors = []
        graph = self.graph
        above_row = grid[r - 1] if r > 0 else None
        below_row = grid[r + 1] if r + 1 < size else None
        if any(cells) or (above_row is not None and any(above_row)) or (below_row is not None and any(below_row)):
            for c in range(size):
                if cells[c] != _EMPTY:
                    continue
                up = above_row is not None and above_row[c] not in _NO_LETTER
                down = below_row is not None and below_row[c] not in _NO_LETTER
                if down and above_row is not None and above_row[c] == STOP:
                    cross_ok[c] = frozenset()  # a word may not start below (after) a stop tile laid earlier
                    reach[c] = 0
                    anchors.append(c)
                elif up or down:
                    prefix, suffix, total = _perpendicular(crossing, r, c)
                    cross_sum[c] = total
                    cross_ok[c], reach[c] = graph.between(prefix, suffix)
                    anchors.append(c)
                elif (c > 0 and cells[c - 1] not in _NO_LETTER) or (c + 1 < size and cells[c + 1] not in _NO_LETTER):
                    anchors.append(c)
        if self.empty_board:
            centre = self.rules.layout.centre
            row, col = (centre.row, centre.col) if direction is Direction.ACROSS else (centre.col, centre.row)
            anchors = [col] if r == row else []
        # Rack tiles before an anchor go on free squares after the previous anchor, and a word reaches at most
        # the rack's tiles from its anchor; so each placement is found once, from its leftmost anchor.
        limited = []
        previous = -1
        for anchor in anchors:
            if anchor > 0 and cells[anchor - 1] not in _NO_LETTER:
                limited.append((anchor, -1))
            else:
                free = 0
                c = anchor - 1
                while c > previous and cells[c] == _EMPTY and free < self.rack_tiles - 1:
                    free += 1
                    c -= 1
                limited.append((anchor, free))
            previous = anchor
        runs = {}
        c = 0
        while c < size:
            if cells[c] not in _NO_LETTER:
                end = c
                while end < size and cells[end] not in _NO_LETTER:
                    end += 1
                runs[c] = ("".join(cells[c:end]), end, sum(values[r][c:end]))
                c = end
            else:
                c += 1
        return _Line(cells, values[r], factor[r], word_mult[r], mult_upto[r], plain_upto[r], cross_ok, cross_sum,
                     limited, runs, reach, tuple(cells))

    def _find_parts(self, longest: int) -> None:
        """Every word prefix of 1 to ``longest`` tiles the rack can spell, shortest first, indexed by last letter.
        A part grows only by the letters its node goes on with that the rest of the rack has (set bits of both)."""
        step_cache, graph_steps = self.graph.step_cache, self.graph.steps
        value = self.values
        blank_bits = self.blank_bits
        letter_of = self.letter_of
        rack_left, racks = self._rack_left, self.racks
        new_part = tuple.__new__  # a NamedTuple's own __new__ is a Python call: a fifth of the time here
        by_last = self.by_last
        parts, part_next_bits = self.parts, self.parts_next_bits
        blank_form = self.blank_form
        cuts, upto = self.cuts, self.upto
        # (the node's steps, their letters' bits, word, values, their sum, the rack's letters left as text and their
        # bits, blanks left)
        level: list[tuple[dict[str, tuple[int, int, int]], int, str, tuple[int, ...], int, str, int, int]] = [
            (graph_steps(0), self.graph.mask(0), "", (), 0,
             "".join(sorted(letter * n for letter, n in self.rack.items())), self.rack_bits, self.blanks)]
        for length in range(1, longest + 1):
            ends = length >= 2
            grows = length < longest
            grown = []
            for kids, next_bits, word, values, total, remaining, remaining_bits, blanks_left in level:
                found = next_bits & remaining_bits
                while found:
                    letter_bit = found & -found
                    found ^= letter_bit
                    letter = letter_of[letter_bit]
                    node, child_bits, final = kids[letter]
                    v = value[letter]
                    rest = remaining.replace(letter, "", 1)
                    entry = racks.get(rest)
                    rack, rack_bits = rack_left(rest) if entry is None else entry
                    goes_on = child_bits & (rack_bits | blank_bits if blanks_left else rack_bits)
                    child_kids = step_cache.get(node) if goes_on else None
                    if child_kids is None and goes_on:
                        child_kids = graph_steps(node)
                    part = new_part(_Part, (length, node, word + letter, values + (v,), total + v, rack, rack_bits,
                                            blanks_left, len(rest) + blanks_left, ends and final, goes_on, child_kids,
                                            child_bits))
                    parts.append(part)
                    part_next_bits.append(child_bits)
                    last = by_last.get(letter)
                    if last is None:
                        by_last[letter] = [part]
                    else:
                        last.append(part)
                    if grows and goes_on:
                        grown.append((child_kids, child_bits, part.word, part.values, part.total, rest, rack_bits,
                                      blanks_left))
                if blanks_left:
                    found = next_bits & blank_bits
                    entry = racks.get(remaining)
                    rack, rack_bits = rack_left(remaining) if entry is None else entry
                    blanks_after = blanks_left - 1
                    usable = rack_bits | blank_bits if blanks_after else rack_bits
                    while found:
                        letter_bit = found & -found
                        found ^= letter_bit
                        letter = letter_of[letter_bit]
                        node, child_bits, final = kids[letter]
                        goes_on = child_bits & usable
                        child_kids = step_cache.get(node) if goes_on else None
                        if child_kids is None and goes_on:
                            child_kids = graph_steps(node)
                        part = new_part(_Part, (length, node, word + blank_form[letter], values + (0,), total, rack,
                                                rack_bits, blanks_after, len(remaining) + blanks_after, ends and final,
                                                goes_on, child_kids, child_bits))
                        parts.append(part)
                        part_next_bits.append(child_bits)
                        last = by_last.get(letter)
                        if last is None:
                            by_last[letter] = [part]
                        else:
                            last.append(part)
                        if grows and goes_on:
                            grown.append((child_kids, child_bits, part.word, part.values, total, remaining,
                                          rack_bits, blanks_after))
            level = grown  # type: ignore[assignment]  # only parts that go on (their steps are there)
            # How many parts of each last letter (and in all) have at most ``length`` tiles.
            for letter, same_last in by_last.items():
                cut = cuts.get(letter)
                if cut is None:
                    cuts[letter] = [0] * length + [len(same_last)]
                else:
                    cut.append(len(same_last))
            upto.append(len(parts))
        self.last_bits = self.graph.letter_bits(by_last)
        self.longest = longest

    def _parts_going_on_with(self, letter: str, longest: int) -> list[_Part]:
        """The parts of at most ``longest`` tiles whose node goes on with ``letter`` (found among that many first, and
        among more only when an anchor asks for more: with a blank the longest are most of the parts)."""
        found = self.by_next.get(letter)
        if found is None or found[0] < longest:
            letter_bit = self.bit.get(letter, 0)
            upto = self.upto[longest]
            parts = list(compress(self.parts[:upto], map(letter_bit.__and__, self.parts_next_bits[:upto])))
            found = self.by_next[letter] = (longest, parts, _cuts(parts, longest))
        return found[1][:found[2][longest]]

    def _rack_left(self, letters: str) -> tuple[dict[str, int], int]:
        """The rack dict of ``letters`` and their bits (one per distinct rest of the rack: they are restored)."""
        entry = self.racks.get(letters)
        if entry is None:
            rack: dict[str, int] = {}
            for letter in letters:
                rack[letter] = rack.get(letter, 0) + 1
            entry = self.racks[letters] = (rack, self.graph.letter_bits(letters))
        return entry

    # -- growing words -------------------------------------------------------------------------------

    def _line_moves(self, line: _Line, r: int, direction: Direction, stop_squares: Sequence[int] = ()) -> None:
        """Grow words through every anchor of the line (or, with ``stop_squares``, from right after each)."""
        cells, values, factor = line.cells, line.values, line.factor
        if not (line.anchors or stop_squares):
            return
        cross_ok, cross_sum, runs, reach = line.cross_ok, line.cross_sum, line.runs, line.reach
        mult_upto, plain_upto = line.mult_upto, line.plain_upto
        squares = line.squares(min(stop_squares) + 1 if stop_squares else line.anchors[0][0], self.bit)
        size = self.size
        letter_value = self.values
        moves = self.moves
        new_move = tuple.__new__
        bonus = self.bonus
        old = line.old
        down = direction is Direction.DOWN
        rack = self.rack
        blanks = self.blanks
        rack_tiles = tiles_left = self.rack_tiles
        rack_bits = self.rack_bits
        blank_bits = self.blank_bits
        blank_form = self.blank_form
        step_cache, graph_steps, graph_mask = self.graph.step_cache, self.graph.steps, self.graph.mask
        letter_of = self.letter_of
        by_last, cuts, last_bits, bit = self.by_last, self.cuts, self.last_bits, self.bit
        start = 0
        stop: int | None = None
        bonus_left = [bonus[rack_tiles - left] for left in range(rack_tiles + 1)]  # by the tiles left on the rack

        def place(kids: dict[str, tuple[int, int, int]], candidates: int, c: int, main: int, mult: int,
                  cross: int, word: str) -> None:
            """Every rack tile that can go on the empty square ``c`` after a node (its steps ``kids``, their letters'
            bits ``candidates``) and the main word so far, the moves that end with it, and (recursively) those
            going on after it. The letters tried are the bits node & square & rack have in common; a tile is laid
            only when a word can end with it or a tile left on the rack can follow it."""
            nonlocal blanks, tiles_left, rack_bits
            allowed, crossing, f, wm, crossed, end, through, old_value, room, old_steps = squares[c]  # type: ignore
            candidates &= allowed
            mult *= wm
            # A word ends here when it has two letters or more, but not a lone tile down that also forms an across
            # word (that placement is generated across).
            can_end = end - start >= 2 and not (down and crossing and stop is None and tiles_left == rack_tiles)
            if tiles_left == 1:
                room = 0
            bits_before = rack_bits
            letters = rack
            found = candidates & bits_before
            tiles_left -= 1
            bingo = bonus_left[tiles_left]
            while found:
                letter_bit = found & -found
                found ^= letter_bit
                letter = letter_of[letter_bit]
                child, child_bits, final = kids[letter]
                if through:  # the word goes on through old tiles: a mask test before each step
                    for old_bit, old_letter in old_steps:
                        if not child_bits & old_bit:
                            child = -1
                            break
                        child_steps = step_cache.get(child)
                        child, child_bits, final = (graph_steps(child) if child_steps is None else child_steps)[
                            old_letter]
                    if child < 0:
                        continue
                n = letters[letter]
                bits_left = bits_before ^ letter_bit if n == 1 else bits_before
                go_on = child_bits & room & ((bits_left | blank_bits) if blanks else bits_left)
                final = can_end and final
                if not (final or go_on):
                    continue
                v = letter_value[letter] * f
                word_main = main + v + old_value
                word_cross = cross + crossed + v * wm if crossing else cross
                laid = word + letter + through if through else word + letter
                if final:
                    moves.append(new_move(GeneratedMove, (word_main * mult + word_cross + bingo, direction, r, start,
                                                          laid, stop, old)))
                if go_on:
                    letters[letter] = n - 1
                    rack_bits = bits_left
                    child_steps = step_cache.get(child)
                    place(graph_steps(child) if child_steps is None else child_steps, child_bits, end, word_main,
                          mult, word_cross, laid)
                    letters[letter] = n
                    rack_bits = bits_before
            if blanks:
                found = candidates & blank_bits
                usable = room & ((bits_before | blank_bits) if blanks > 1 else bits_before)
                blanks -= 1
                word_main = main + old_value
                word_cross = cross + crossed if crossing else cross
                while found:
                    letter_bit = found & -found
                    found ^= letter_bit
                    letter = letter_of[letter_bit]
                    child, child_bits, final = kids[letter]
                    if through:
                        for old_bit, old_letter in old_steps:
                            if not child_bits & old_bit:
                                child = -1
                                break
                            child_steps = step_cache.get(child)
                            child, child_bits, final = (graph_steps(child) if child_steps is None else child_steps)[
                                old_letter]
                        if child < 0:
                            continue
                    go_on = child_bits & usable
                    final = can_end and final
                    if not (final or go_on):
                        continue
                    laid = word + blank_form[letter] + through if through else word + blank_form[letter]
                    if final:
                        moves.append(new_move(GeneratedMove, (word_main * mult + word_cross + bingo, direction, r,
                                                              start, laid, stop, old)))
                    if go_on:
                        child_steps = step_cache.get(child)
                        place(graph_steps(child) if child_steps is None else child_steps, child_bits, end, word_main,
                              mult, word_cross, laid)
                blanks += 1
            tiles_left += 1

        if stop_squares:
            bonus_left = [bonus[rack_tiles - left + 1] for left in range(rack_tiles + 1)]  # the stop tile counts
            for stop in stop_squares:
                start = stop + 1
                place(graph_steps(0), graph_mask(0), start, 0, 1, 0, "")
            return
        for anchor, free in line.anchors:
            if free < 0:  # old tiles right before the anchor start the word
                start = anchor - 1
                while start > 0 and cells[start - 1] not in _NO_LETTER:
                    start -= 1
                step: tuple[int, int, int] | None = (0, graph_mask(0), False)
                for c in range(start, anchor):
                    node_steps = step_cache.get(step[0])  # type: ignore[index]
                    step = (graph_steps(step[0]) if node_steps is None else node_steps).get(cells[c])  # type: ignore
                    if step is None:
                        break
                if step is not None:
                    node, node_bits, _ = step
                    node_steps = step_cache.get(node)
                    rack, rack_bits, blanks, tiles_left = self.rack, self.rack_bits, self.blanks, self.rack_tiles
                    place(graph_steps(node) if node_steps is None else node_steps, node_bits, anchor,
                          sum(values[start:anchor]), 1, 0, "".join(cells[start:anchor]))
                continue
            # Rack tiles on the free squares before the anchor and on it: a part; they touch nothing before the anchor.
            allowed = cross_ok[anchor]
            run = runs.get(anchor + 1)
            longest = free + 1
            end = anchor + 1
            if anchor >= longest and cells[anchor - longest] == STOP:
                longest -= 1  # a new word may not start right after a stop tile laid earlier
            # The parts that may end on the anchor: all, or by last letter those its cross-check allows.
            groups: list[Iterable[_Part]]
            if allowed is None:
                groups = [self._parts_going_on_with(run[0][0], longest) if run is not None
                          else self.parts[:self.upto[longest]]]
            else:
                groups = []
                found = reach[anchor] & last_bits
                first_bit = bit.get(run[0][0], 0) if run is not None else 0
                while found:
                    letter_bit = found & -found
                    found ^= letter_bit
                    letter = letter_of[letter_bit]
                    same_last = by_last[letter][:cuts[letter][longest]]
                    # Before old tiles: only the parts going on with the first of them (picked in C, most do not).
                    groups.append(compress(same_last, map(first_bit.__and__, map(_NEXT_BITS, same_last))) if first_bit
                                  else same_last)
            f, wm, cs = factor[anchor], line.word_mult[anchor], cross_sum[anchor]
            plain, mult_end = plain_upto[end], mult_upto[end]
            if run is not None:  # the word goes on through the old tiles after the anchor
                through, after_run, old_value = run
                first = through[0]
                first_bit = bit.get(first, 0)
                rest = [(bit.get(letter, 0), letter) for letter in through[1:]]
                # A lone tile on the anchor that also forms an across word is generated across.
                lone_ok = not (down and allowed is not None)
                room = reach[after_run] if after_run < size and cells[after_run] == _EMPTY else 0
                # The loop sets rack, rack_bits, blanks and tiles_left for place() (a closure) to read.
                for group in groups:
                    for length, node, word, part_values, total, rack, rack_bits, blanks, tiles_left, ends, goes_on, \
                            part_kids, next_bits in group:  # noqa: B007
                        if not next_bits & first_bit:
                            continue
                        # Through the old tiles; a mask test before each step (most walks stop at the second letter).
                        if part_kids is None:
                            part_kids = step_cache.get(node)
                            if part_kids is None:
                                part_kids = graph_steps(node)
                        node, node_bits, ends = part_kids[first]
                        for letter_bit, letter in rest:
                            if not node_bits & letter_bit:
                                break
                            node_steps = step_cache.get(node)
                            node, node_bits, ends = (graph_steps(node) if node_steps is None else node_steps)[letter]
                        else:
                            start = end - length
                            mult = mult_end // mult_upto[start]
                            main = (total if length <= plain else sum(map(mul, part_values, factor[start:end]))) \
                                + old_value
                            cross = 0 if allowed is None else (cs + part_values[-1] * f) * wm
                            word += through  # noqa: PLW2901
                            if ends and (length > 1 or lone_ok):
                                moves.append(new_move(GeneratedMove, (main * mult + cross + bonus[length], direction,
                                                                      r, start, word, None, old)))
                            if tiles_left and node_bits & room & ((rack_bits | blank_bits) if blanks else rack_bits):
                                node_steps = step_cache.get(node)
                                place(graph_steps(node) if node_steps is None else node_steps, node_bits, after_run,
                                      main, mult, cross, word)
                continue
            # No old tiles after the anchor: the part ends here or goes on with rack tiles.
            room = reach[end] if end < size and cells[end] == _EMPTY else 0
            for group in groups:
                for length, node, word, part_values, total, rack, rack_bits, blanks, tiles_left, ends, goes_on, \
                        part_kids, next_bits in group:  # noqa: B007
                    if not (ends or goes_on & room):
                        continue
                    start = end - length
                    mult = mult_end // mult_upto[start]
                    main = total if length <= plain else sum(map(mul, part_values, factor[start:end]))
                    cross = 0 if allowed is None else (cs + part_values[-1] * f) * wm
                    if ends:
                        moves.append(new_move(GeneratedMove, (main * mult + cross + bonus[length], direction, r,
                                                              start, word, None, old)))
                    if goes_on & room:
                        place(part_kids, next_bits, end, main, mult, cross, word)  # type: ignore[arg-type]

    # -- Alfapet stop tiles ---------------------------------------------------------------------------

    def _stop_moves(self, line: _Line, grid, r: int, direction: Direction) -> None:
        """Stop tile on square ``c`` (empty, right after the last letter of a word of two or more letters, across
        or down), the new word from ``c + 1`` along this line."""
        cells = line.cells
        squares = []
        for c in range(self.size - 1):
            if cells[c] != _EMPTY or cells[c + 1] != _EMPTY:
                continue
            ends_along = c > 1 and _is_letter(cells[c - 1]) and _is_letter(cells[c - 2])
            ends_across = r > 1 and _is_letter(grid[r - 1][c]) and _is_letter(grid[r - 2][c])
            if ends_along or ends_across:
                squares.append(c)
        if squares:
            self._line_moves(line, r, direction, squares)


@functools.lru_cache(maxsize=8)
def _premiums(grid: tuple[tuple[Premium, ...], ...], minus: bool, size: int) -> tuple[tuple[list[list[int]], ...], ...]:
    """(letter factors, word multipliers, their products before each square, plain squares before each square)
    across and down of a layout (a minus square's factor is -1 when they count). With those, the tiles on squares
    i..j-1 multiply the word by ``mult_upto[j] // mult_upto[i]`` and need no letter premium when
    ``plain_upto[j] >= j - i``. Kept: a layout is read often and they are never modified."""
    factor = [[0] * size for _ in range(size)]
    word_mult = [[1] * size for _ in range(size)]
    for r, row in enumerate(grid[:size]):
        for c, premium in enumerate(row[:size]):
            factor[r][c] = premium.letter_multiplier - (2 if premium.is_minus and minus else 0)
            word_mult[r][c] = premium.word_multiplier
    oriented = []
    for factors, mults in ((factor, word_mult),
                           (_oriented(factor, Direction.DOWN), _oriented(word_mult, Direction.DOWN))):
        mult_upto, plain_upto = [], []
        for line_factors, line_mults in zip(factors, mults, strict=True):
            products, plain = [1], [0]
            for f, m in zip(line_factors, line_mults, strict=True):
                products.append(products[-1] * m)
                plain.append(plain[-1] + 1 if f == 1 else 0)
            mult_upto.append(products)
            plain_upto.append(plain)
        oriented.append((factors, mults, mult_upto, plain_upto))
    return tuple(oriented)


def _perpendicular(crossing: tuple[list[list[str]], list[list[int]]], r: int, c: int) -> tuple[str, str, int]:
    """Letters before and after square ``r`` of line ``c`` of the other orientation (``crossing``: its cells and
    tile values), and their face-value sum."""
    cells, values = crossing[0][c], crossing[1][c]
    top = r
    while top > 0 and cells[top - 1] not in _NO_LETTER:
        top -= 1
    bottom = r + 1
    while bottom < len(cells) and cells[bottom] not in _NO_LETTER:
        bottom += 1
    return "".join(cells[top:r]), "".join(cells[r + 1:bottom]), sum(values[top:r]) + sum(values[r + 1:bottom])


def _cuts(parts: list[_Part], longest: int) -> list[int]:
    """How many of ``parts`` (shortest first) have at most 0, 1, ... ``longest`` tiles."""
    cuts = [0] * (longest + 1)
    for part in parts:
        cuts[part.length] += 1
    for length in range(1, longest + 1):
        cuts[length] += cuts[length - 1]
    return cuts


def _is_letter(cell: str) -> bool:
    return cell != _EMPTY and cell != STOP


def _oriented(grid: list[list], direction: Direction) -> list[list]:
    return grid if direction is Direction.ACROSS else [list(col) for col in zip(*grid, strict=True)]

# SPDX-License-Identifier: GPL-3.0-or-later
"""Every legal placement for a rack, with its score: Appel & Jacobson (1988) over a :class:`WordGraph`.

Per position the generator computes, once per board line, the cross-check set of each
empty square (the letters that make a valid perpendicular word there) and the face-value
sum of that perpendicular word, then grows words through anchors (empty squares next to a
tile; the centre on an empty board): a left part on the free squares before the anchor,
then the rest of the word to the right, through tiles already on the board. Scores are
added up while the word grows, with the engine's rules (letter ×2–×4, word ×2–×4 after
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

from collections.abc import Iterable
from typing import NamedTuple

from engine.board import Board
from engine.lexicon.wordgraph import WordGraph
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.squares import Direction, Square
from engine.tiles import ARROW, BLANK, STOP, TileKind

_EMPTY = ""


class GeneratedMove(NamedTuple):
    """One placement found by the generator (:func:`best_moves` orders them)."""

    score: int
    word: str  # the main word (lower case: a blank's letter)
    direction: Direction
    line: int  # the row of an across word, the column of a down word
    start: int  # where the main word starts along that line
    tiles: tuple[tuple[int, str, bool], ...]  # (index along the line, letter, is blank), in reading order
    stop: int | None = None  # index along the line of a stop tile placed before the word

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
    return _Generator(board, rack, rules, graph).run()


def best_moves(moves: Iterable[GeneratedMove], top: int) -> list[GeneratedMove]:
    """The ``top`` highest-scoring moves, best first (ties: by word, then position, so the order is stable)."""
    return sorted(moves, key=lambda m: (-m.score, m.word, m.direction.value, m.line, m.start))[:top]


class _Line(NamedTuple):
    cells: list[str]  # letter, STOP, or "" for empty
    values: list[int]  # face value of the tile on the square (0 blank / empty)
    factor: list[int]  # letter factor of a new tile there (minus square: -1)
    word_mult: list[int]
    cross_ok: list[frozenset[str] | None]  # None: no perpendicular word, any letter
    cross_sum: list[int]  # face values of the perpendicular word's old tiles
    anchors: list[int]


class _Generator:
    def __init__(self, board: Board, rack: str, rules: Rules, graph: WordGraph) -> None:
        self.board = board
        self.rules = rules
        self.graph = graph
        self.size = board.size
        self.rack, self.blanks, self.stops = parse_rack(rack)
        if not rules.special_tiles or not rules.tileset.stops:
            self.stops = 0  # a Scrabble set has no stop tiles
        self.values = dict(rules.tileset.values)
        self.bingo = dict(rules.bingo)
        self._parts: list | None = None
        self.allowed_letters = frozenset(letter for letter in graph.alphabet if rules.tileset.is_letter(letter))
        self.moves: list[GeneratedMove] = []
        size = self.size
        self.cells = [[_EMPTY] * size for _ in range(size)]
        self.tile_values = [[0] * size for _ in range(size)]
        for square, cell in board:
            self.cells[square.row][square.col] = STOP if cell.is_stop else cell.letter
            if not cell.is_stop and not cell.blank:
                self.tile_values[square.row][square.col] = self.values.get(cell.letter, 0)
        minus = rules.minus_squares
        self.factor = [[0] * size for _ in range(size)]
        self.word_mult = [[1] * size for _ in range(size)]
        for r, row in enumerate(rules.layout.grid[:size]):
            for c, premium in enumerate(row[:size]):
                self.factor[r][c] = premium.letter_multiplier - (2 if premium.is_minus and minus else 0)
                self.word_mult[r][c] = premium.word_multiplier
        self.empty_board = board.is_empty()

    def run(self) -> list[GeneratedMove]:
        if not self.rack and not self.blanks:
            return []
        for direction in (Direction.ACROSS, Direction.DOWN):
            grid = _oriented(self.cells, direction)
            values = _oriented(self.tile_values, direction)
            factor = _oriented(self.factor, direction)
            word_mult = _oriented(self.word_mult, direction)
            for r in range(self.size):
                line = self._line(grid, values, factor, word_mult, r, direction)
                self._line_moves(line, r, direction)
                if self.stops:
                    self._stop_moves(line, grid, r, direction)
        return self.moves

    # -- per line set-up -----------------------------------------------------------------------------

    def _line(self, grid, values, factor, word_mult, r: int, direction: Direction) -> _Line:
        size = self.size
        cells = grid[r]
        cross_ok: list[frozenset[str] | None] = [None] * size
        cross_sum = [0] * size
        anchors = []
        graph = self.graph
        above_row = grid[r - 1] if r > 0 else None
        below_row = grid[r + 1] if r + 1 < size else None
        for c in range(size):
            if cells[c] != _EMPTY:
                continue
            up = above_row is not None and above_row[c] not in (_EMPTY, STOP)
            down = below_row is not None and below_row[c] not in (_EMPTY, STOP)
            if down and above_row is not None and above_row[c] == STOP:
                cross_ok[c] = frozenset()  # a word may not start below (after) a stop tile laid earlier
                anchors.append(c)
            elif up or down:
                prefix, suffix, total = self._perpendicular(grid, values, r, c)
                cross_sum[c] = total
                node = graph.walk(prefix)
                ok = set()
                if node is not None:
                    for letter, child in graph.children(node).items():
                        end = graph.walk(suffix, child)
                        if end is not None and graph.is_final(end):
                            ok.add(letter)
                cross_ok[c] = frozenset(ok)
                anchors.append(c)
            elif (c > 0 and _is_letter(cells[c - 1])) or (c + 1 < size and _is_letter(cells[c + 1])):
                anchors.append(c)
        if self.empty_board:
            centre = self.rules.layout.centre
            row, col = (centre.row, centre.col) if direction is Direction.ACROSS else (centre.col, centre.row)
            anchors = [col] if r == row else []
        return _Line(cells, values[r], factor[r], word_mult[r], cross_ok, cross_sum, anchors)

    def _perpendicular(self, grid, values, r: int, c: int) -> tuple[str, str, int]:
        """Letters above and below (r, c) in the oriented grid, and their face-value sum."""
        total = 0
        top = r
        while top > 0 and grid[top - 1][c] not in (_EMPTY, STOP):
            top -= 1
            total += values[top][c]
        prefix = "".join(grid[i][c] for i in range(top, r))
        bottom = r
        while bottom + 1 < self.size and grid[bottom + 1][c] not in (_EMPTY, STOP):
            bottom += 1
            total += values[bottom][c]
        suffix = "".join(grid[i][c] for i in range(r + 1, bottom + 1))
        return prefix, suffix, total

    # -- growing words -------------------------------------------------------------------------------

    def _line_moves(self, line: _Line, r: int, direction: Direction, stop_squares: Iterable[int] = ()) -> None:
        """Grow words through every anchor of the line (or, with ``stop_squares``, from right after each)."""
        cells, values, factor, word_mult = line.cells, line.values, line.factor, line.word_mult
        cross_ok, cross_sum = line.cross_ok, line.cross_sum
        size = self.size
        graph_children = self.graph.children
        cache = self.graph.cache

        def children(node: int) -> dict[str, int]:
            kids = cache.get(node)
            return graph_children(node) if kids is None else kids

        finals = self.graph.finals
        rack = self.rack
        letter_value = self.values
        blank_letters = self.allowed_letters
        record = self._record
        blanks = self.blanks
        anchor = start = 0
        anchor_ok: frozenset[str] | None = None
        stop: int | None = None
        placed: list[tuple[int, str, bool]] = []

        def extend(node: int, c: int, main: int, mult: int, cross: int) -> None:
            nonlocal blanks
            while c < size:
                cell = cells[c]
                if cell == _EMPTY or cell == STOP:
                    break
                kids = cache.get(node)
                node = (graph_children(node) if kids is None else kids).get(cell)  # type: ignore[assignment]
                if node is None:
                    return
                main += values[c]
                c += 1
            if c > anchor and finals[node] and c - start >= 2:
                record(line, r, direction, start, c, main * mult + cross, placed, stop)
            if c >= size or cells[c] == STOP:
                return
            kids = cache.get(node)
            if kids is None:
                kids = graph_children(node)
            if not kids:
                return
            allowed = cross_ok[c]
            f, wm = factor[c], word_mult[c]
            if allowed is None:
                # Walk whichever is shorter: the node's letters (deep in a word: one or two) or the rack's.
                for letter in (kids if len(kids) < len(rack) else rack):
                    n = rack.get(letter)
                    if n and letter in kids:
                        rack[letter] = n - 1
                        placed.append((c, letter, False))
                        extend(kids[letter], c + 1, main + letter_value[letter] * f, mult * wm, cross)
                        placed.pop()
                        rack[letter] = n
                if blanks:
                    blanks -= 1
                    for letter, child in kids.items():
                        if letter in blank_letters:
                            placed.append((c, letter, True))
                            extend(child, c + 1, main, mult * wm, cross)
                            placed.pop()
                    blanks += 1
                return
            cs = cross_sum[c]
            for letter in (kids if len(kids) < len(rack) else rack):
                n = rack.get(letter)
                if n and letter in kids and letter in allowed:
                    v = letter_value[letter] * f
                    rack[letter] = n - 1
                    placed.append((c, letter, False))
                    extend(kids[letter], c + 1, main + v, mult * wm, cross + (cs + v) * wm)
                    placed.pop()
                    rack[letter] = n
            if blanks:
                blanks -= 1
                for letter, child in kids.items():
                    if letter in allowed and letter in blank_letters:
                        placed.append((c, letter, True))
                        extend(child, c + 1, main, mult * wm, cross + cs * wm)
                        placed.pop()
                blanks += 1

        if stop_squares:
            for stop in stop_squares:
                anchor = start = stop + 1
                extend(0, anchor, 0, 1, 0)
            return
        previous_anchor = -1
        rack_tiles = sum(rack.values()) + blanks
        rack_letters = frozenset(letter for letter, n in rack.items() if n)
        for anchor in line.anchors:
            if anchor > 0 and cells[anchor - 1] not in (_EMPTY, STOP):
                start = anchor - 1
                while start > 0 and cells[start - 1] not in (_EMPTY, STOP):
                    start -= 1
                node: int | None = 0
                total = 0
                for c in range(start, anchor):
                    node = children(node).get(cells[c])  # type: ignore[arg-type]
                    if node is None:
                        break
                    total += values[c]
                if node is not None:
                    extend(node, anchor, total, 1, 0)
            else:
                limit = 0
                c = anchor - 1
                while c > previous_anchor and cells[c] == _EMPTY and limit < rack_tiles - 1:
                    limit += 1
                    c -= 1
                anchor_ok = cross_ok[anchor]
                if not blanks:  # only the rack's letters can go on the anchor
                    anchor_ok = rack_letters if anchor_ok is None else anchor_ok & rack_letters
                    if not anchor_ok:
                        previous_anchor = anchor
                        continue
                # Left parts lie on free squares before the anchor: they touch nothing, so no cross-words.
                for k, node, kids, part, used, used_blanks in self._left_parts():
                    if k > limit:
                        break
                    if anchor_ok is not None and anchor_ok.isdisjoint(kids):
                        continue  # no letter can go on the anchor after this part
                    start = anchor - k
                    main, mult = 0, 1
                    for i, (letter, blank) in enumerate(part):
                        c = start + i
                        if not blank:
                            main += letter_value[letter] * factor[c]
                        mult *= word_mult[c]
                        placed.append((c, letter, blank))
                    for letter in used:
                        rack[letter] -= 1
                    blanks -= used_blanks
                    extend(node, anchor, main, mult, 0)
                    for letter in used:
                        rack[letter] += 1
                    blanks += used_blanks
                    del placed[:]
            previous_anchor = anchor

    def _left_parts(self) -> list[tuple[int, int, dict[str, int], tuple[tuple[str, bool], ...], tuple[str, ...], int]]:
        """Every word prefix the rack can spell, shortest first, computed once per position:
        (length, node, its children, (letter, is blank) per tile, rack letters used, blanks used)."""
        if self._parts is not None:
            return self._parts
        parts = []
        rack = dict(self.rack)
        blank_letters = self.allowed_letters
        children = self.graph.children
        most = sum(rack.values()) + self.blanks - 1

        def grow(node: int, part: list[tuple[str, bool]], blanks: int) -> None:
            kids = children(node)
            used = tuple(letter for letter, blank in part if not blank)
            parts.append((len(part), node, kids, tuple(part), used, len(part) - len(used)))
            if len(part) >= most:
                return
            for letter, n in rack.items():
                if n and letter in kids:
                    rack[letter] = n - 1
                    part.append((letter, False))
                    grow(kids[letter], part, blanks)
                    part.pop()
                    rack[letter] = n
            if blanks:
                for letter, child in kids.items():
                    if letter in blank_letters:
                        part.append((letter, True))
                        grow(child, part, blanks - 1)
                        part.pop()

        grow(0, [], self.blanks)
        parts.sort(key=lambda entry: entry[0])
        self._parts = parts
        return parts

    def _record(self, line: _Line, r: int, direction: Direction, start: int, end: int, score: int,
                placed: list[tuple[int, str, bool]], stop: int | None) -> None:
        single = len(placed) == 1 and stop is None
        if single and direction is Direction.DOWN and line.cross_ok[placed[0][0]] is not None:
            return  # the same single tile forms an across word: generated across
        if start > 0 and line.cells[start - 1] == STOP and placed[0][0] == start:
            return  # a new word may not start right after a stop tile laid earlier
        score += self.bingo.get(len(placed) + (stop is not None), 0)
        letters = line.cells[start:end]
        for c, letter, blank in placed:
            letters[c - start] = letter.lower() if blank else letter
        self.moves.append(GeneratedMove(score, "".join(letters), direction, r, start, tuple(placed), stop))

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


def _is_letter(cell: str) -> bool:
    return cell != _EMPTY and cell != STOP


def _oriented(grid: list[list], direction: Direction) -> list[list]:
    return grid if direction is Direction.ACROSS else [list(col) for col in zip(*grid, strict=True)]

# SPDX-License-Identifier: GPL-3.0-or-later
"""Compare a reading with the engine's board and propose what happened.

Only the cells whose occupancy changed are read. The outcome is a :class:`Proposal`: a placement
(squares, direction, words, score), an unchanged board (exchange or pass), removed tiles (a withdrawn
phony, perhaps together with the next placement) or a conflict; every problem found is reported at
once as a flag set, never as the first exception. Letters are chosen with the tile set's counts as a
constraint; blanks are marked as needing the player's letter; low-margin letters carry their top
candidates so the player can pick.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import product

from engine.board import Board
from engine.errors import EngineError
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.scoring import score_placement
from engine.squares import Square
from engine.validation import ProblemCode, validate
from vision.classifier import ARROW, CLEAR_MARGIN, UNSURE_MARGIN, LetterGuess
from vision.reader import BoardReading, ReadingStatus, TileReading

#: Problems a player fixes by correcting a letter; the squares still make a legal move.
_LETTER_PROBLEMS = ProblemCode.TOO_MANY_COPIES | ProblemCode.UNKNOWN_LETTER | ProblemCode.NOT_ON_RACK


class ProposalKind(enum.Enum):
    PLACEMENT = "placement"
    UNCHANGED = "unchanged"  # exchange or pass
    REMOVED = "removed"  # tiles taken back (withdrawn phony), perhaps with a new placement
    CONFLICT = "conflict"
    COVERED = "covered"  # the frame cannot be used: wait for a still, clear one
    NO_BOARD = "no-board"


class DiffProblem(enum.Flag):
    NONE = 0
    COVERED = enum.auto()
    BOARD_NOT_FOUND = enum.auto()
    TILES_REMOVED = enum.auto()
    NOT_A_WITHDRAWAL = enum.auto()  # removed tiles are not exactly the last placement
    BLANK_NEEDS_LETTER = enum.auto()
    LOW_CONFIDENCE = enum.auto()
    TOO_MANY_COPIES = enum.auto()
    ILLEGAL_PLACEMENT = enum.auto()  # see Proposal.engine_problems
    ARROW_WITHOUT_LETTER = enum.auto()  # an Alfapet arrow tile seen with no letter tile on it yet


@dataclass(frozen=True)
class Proposal:
    kind: ProposalKind
    problems: DiffProblem = DiffProblem.NONE
    engine_problems: ProblemCode = ProblemCode.NONE
    messages: tuple[str, ...] = ()
    placement: Placement | None = None
    score: int | None = None
    words: tuple[str, ...] = ()
    new_tiles: tuple[TileReading, ...] = ()
    removed: tuple[Square, ...] = ()
    #: Blank squares whose letter the player must say.
    blanks: tuple[Square, ...] = ()
    #: Uncertain squares with their top candidate letters.
    candidates: dict[Square, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.problems & ~(DiffProblem.BLANK_NEEDS_LETTER | DiffProblem.TILES_REMOVED) == DiffProblem.NONE

    def notation(self, board: Board) -> str:
        return self.placement.notation(board) if self.placement is not None else ""


def _choose_letters(new: list[TileReading], board: Board, rules: Rules,
                    on_board: Counter[str] | None = None,
                    bars: Mapping[str, float] | None = None) -> tuple[dict[Square, str], bool]:
    """Best letters subject to the tile counts; (letters, whether the counts forced an overflow).
    ``on_board``: the board's letters (not blanks) when already counted; ``bars``: per letter, how surely a
    further copy must be read to stand (see :func:`copy_bars`), when the copies' readings are known.

    A letter stands even when the set has no copy left if it is clearly read
    (:data:`vision.classifier.CLEAR_MARGIN`), or surely (:data:`vision.classifier.UNSURE_MARGIN`) and more
    surely than the copies the set allows on the board: one of those is the likelier misreading (an earlier
    B read W made every later W a B; an F read P by 0.009 made a P read by 0.06 an R)."""
    tileset = rules.tileset
    on_board = Counter(on_board) if on_board is not None else _letters_on(board)
    bars = bars or {}
    chosen: dict[Square, str] = {}
    readable = sorted((t for t in new if t.guess is not None), key=lambda t: -t.guess.confidence)  # type: ignore[union-attr]
    overflow = False
    for t in readable:
        assert t.guess is not None
        sure = t.guess.confidence
        for letter, _ in t.guess.top:
            if on_board[letter] < tileset.count(letter) or sure >= CLEAR_MARGIN \
                    or (letter == t.guess.letter and sure >= UNSURE_MARGIN and sure > bars.get(letter, CLEAR_MARGIN)):
                break
        else:
            letter = t.guess.letter
        overflow = overflow or on_board[letter] >= tileset.count(letter)
        chosen[t.square] = letter
        on_board[letter] += 1
    return chosen, overflow


def _letters_on(board: Board) -> Counter[str]:
    """The letters of the board's letter tiles (blanks and stop tiles not counted)."""
    return Counter(cell.letter for _, cell in board if not cell.blank and not cell.is_stop)


def copy_bars(board: Board, guesses: Mapping[Square, LetterGuess], rules: Rules) -> dict[str, float]:
    """Per letter whose every copy lies on ``board``, how surely a further copy must be read to stand: the
    margin of the least sure of the copies the set allows, ranked by how surely each was read.

    ``guesses``: each square's reading. A copy read as its reader's best letter counts its margin over the
    second; one that a dictionary or the counts chose over the best letter, or whose square was never read,
    was not the reader's call and counts as sure (a Ü the dictionary restored must not let every later U
    read Ü by a hair stand beside it).

    >>> from vision.classifier import LetterGuess
    >>> board = Board(15)
    >>> board[Square(7, 7)] = PlacedTile(Square(7, 7), "Q").cell
    >>> copy_bars(board, {Square(7, 7): LetterGuess((("Q", 0.9), ("O", 0.88)))}, Rules.scrabble("en"))
    {'Q': 0.02...}
    """
    margins: dict[str, list[float]] = {}
    for square, cell in board:
        if cell.blank or cell.is_stop:
            continue
        guess = guesses.get(square)
        sure = guess.confidence if guess is not None and guess.letter == cell.letter else 1.0
        margins.setdefault(cell.letter, []).append(sure)
    bars: dict[str, float] = {}
    for letter, found in margins.items():
        allowed = rules.tileset.count(letter)
        if 0 < allowed <= len(found):
            bars[letter] = sorted(found, reverse=True)[allowed - 1]
    return bars


def propose(reading: BoardReading, board: Board, rules: Rules, *,
            last_placement: Placement | None = None, reader=None, frame=None,
            bars: Mapping[str, float] | None = None) -> Proposal:
    """What the reading says happened since ``board``. ``reader``+``frame`` let it read the changed cells;
    ``bars``: per letter, how surely a copy beyond the set's count must be read to stand (:func:`copy_bars`)."""
    if reading.status & ReadingStatus.BOARD_NOT_FOUND or reading.occupancy is None:
        return Proposal(ProposalKind.NO_BOARD, DiffProblem.BOARD_NOT_FOUND, messages=("no board in the frame",))
    if reading.status & ReadingStatus.COVERED:
        names = ", ".join(sq.name for sq in reading.hidden[:6])
        return Proposal(ProposalKind.COVERED, DiffProblem.COVERED,
                        messages=(f"something covers the board at {names}; wait for a clear frame",))
    seen = reading.occupied()
    # One pass over the board for the squares, the letters and the blanks it holds (three passes cost more
    # than the rest of this function when a move is read from its few changed cells).
    had: set[Square] = set()
    letters_on_board: Counter[str] = Counter()
    blanks_on_board = 0
    for sq, cell in board:
        if not cell.is_stop:
            had.add(sq)
            if cell.blank:
                blanks_on_board += 1
            else:
                letters_on_board[cell.letter] += 1
    new_squares = sorted(seen - had)
    removed = tuple(sorted(had - seen))
    last_squares = {t.square for t in last_placement.letter_tiles} if last_placement is not None else set()
    if removed and set(removed) < last_squares:
        # Part of the last placement vanished and the rest still holds tiles: the phony was taken back and
        # the next player reused some of its squares. Those squares hold new tiles now.
        reused = _changes(reading, board, rules, sorted((seen - had) | (seen & last_squares)),
                          tuple(sorted(last_squares)), last_squares, letters_on_board, blanks_on_board, reader, frame,
                          bars)
        if reused.kind is not ProposalKind.CONFLICT or reused.problems & DiffProblem.ARROW_WITHOUT_LETTER:
            return reused
        # No legal move that way: the vanished tiles are more likely misread (a blank seen as an empty square)
        # than a withdrawal, and the photo shows the next move beside a last move still there.
        plain = _changes(reading, board, rules, new_squares, removed, last_squares, letters_on_board,
                         blanks_on_board, reader, frame, bars)
        return plain if plain.kind is not ProposalKind.CONFLICT else reused
    return _changes(reading, board, rules, new_squares, removed, last_squares, letters_on_board, blanks_on_board,
                    reader, frame, bars)


def _changes(reading: BoardReading, board: Board, rules: Rules, new_squares: list[Square],
             removed: tuple[Square, ...], last_squares: set[Square], letters_on_board: Counter[str],
             blanks_on_board: int, reader, frame, bars: Mapping[str, float] | None = None) -> Proposal:
    """The proposal for ``new_squares`` newly holding tiles and ``removed`` emptied (see :func:`propose`)."""
    problems = DiffProblem.NONE
    messages: list[str] = []
    base = board
    if removed:
        problems |= DiffProblem.TILES_REMOVED
        if not last_squares or set(removed) != last_squares:
            problems |= DiffProblem.NOT_A_WITHDRAWAL
            messages.append(f"tiles removed from {', '.join(s.name for s in removed)} that are not the last move")
        base = board.copy()
        for sq in removed:
            base[sq] = None
        letters_on_board = _letters_on(base)
        blanks_on_board = sum(1 for _, cell in base if cell.blank)
    if not new_squares:
        kind = ProposalKind.REMOVED if removed else ProposalKind.UNCHANGED
        return Proposal(kind, problems, messages=tuple(messages), removed=removed)
    tiles = dict(reading.tiles)
    missing = [sq for sq in new_squares if sq not in tiles]
    if missing:
        if reader is None or frame is None or reading.geometry is None:
            raise ValueError("propose() needs reader= and frame= to read cells the reading did not read")
        from vision import colour

        gains = reading.gains if reading.gains is not None else colour.white_gains(frame)
        veil = reading.occupancy.veil if reading.occupancy is not None else None
        tiles.update(reader.read_tiles(frame, reading.geometry, missing, gains=gains, veil=veil))
    new = [tiles[sq] for sq in new_squares]
    blank_like = [t.square for t in new if t.guess is None]
    blanks_left = rules.tileset.blanks - blanks_on_board
    if len(blank_like) > max(blanks_left, 0) and len(blank_like) >= 2:
        # More letterless "tiles" than blanks exist: a hand, an arm or a shadow, not tiles (wait for a clear frame).
        names = ", ".join(sq.name for sq in blank_like[:6])
        return Proposal(ProposalKind.COVERED, problems | DiffProblem.COVERED,
                        messages=(f"{len(blank_like)} cells without a letter at {names}, only {blanks_left} blanks "
                                  "are left; something covers the board",), new_tiles=tuple(new), removed=removed)
    arrows = [t.square for t in new if t.guess is not None and t.guess.letter == ARROW]
    if arrows:
        # The arrow lies under the letter where the word bends: the move is not complete while it shows.
        names = ", ".join(sq.name for sq in arrows)
        return Proposal(ProposalKind.CONFLICT, problems | DiffProblem.ARROW_WITHOUT_LETTER,
                        messages=(f"arrow tile on {names} with no letter on it; lay the letter on the arrow",),
                        new_tiles=tuple(new), removed=removed)
    letters, overflow = _choose_letters(new, base, rules, letters_on_board, bars)
    if overflow:
        problems |= DiffProblem.TOO_MANY_COPIES
        messages.append("more copies of a letter than the tile set has")
    blanks = tuple(t.square for t in new if t.guess is None)
    if blanks:
        problems |= DiffProblem.BLANK_NEEDS_LETTER
        messages.append(f"blank on {', '.join(s.name for s in blanks)}: which letter?")
    candidates = {t.square: tuple(letter for letter, _ in t.guess.top) for t in new
                  if t.guess is not None and t.guess.confidence < UNSURE_MARGIN}
    if candidates:
        problems |= DiffProblem.LOW_CONFIDENCE
        messages.append("unsure of " + ", ".join(f"{sq.name} ({'/'.join(c[:3])})" for sq, c in candidates.items()))
    # A blank scores 0 whatever its letter; "?" stands in until the player names it.
    placed = [PlacedTile(t.square, letters.get(t.square, "?"), blank=t.guess is None) for t in new]
    try:
        placement = Placement.from_tiles(placed, base)
    except EngineError as exc:
        return Proposal(ProposalKind.CONFLICT, problems | DiffProblem.ILLEGAL_PLACEMENT, messages=(str(exc),),
                        new_tiles=tuple(new), removed=removed)
    engine_problems = validate(base, placement, rules)
    codes = ProblemCode.NONE
    for p in engine_problems:
        if p.code is ProblemCode.UNKNOWN_LETTER and blanks:
            continue
        codes |= p.code
        messages.append(p.message)
    score: int | None = None
    words: tuple[str, ...] = ()
    if codes & ProblemCode.TOO_MANY_COPIES:
        problems |= DiffProblem.TOO_MANY_COPIES
    if codes & ~_LETTER_PROBLEMS == ProblemCode.NONE:
        # The squares make a legal move; a letter the player must correct does not change where it lies.
        scored = score_placement(base, placement, rules)
        score, words = scored.score, scored.word_texts
        kind = ProposalKind.REMOVED if removed else ProposalKind.PLACEMENT
        if codes != ProblemCode.NONE:
            problems |= DiffProblem.ILLEGAL_PLACEMENT
    else:
        problems |= DiffProblem.ILLEGAL_PLACEMENT
        kind = ProposalKind.CONFLICT
    return Proposal(kind, problems, codes, tuple(messages), placement, score, words, tuple(new), removed,
                    blanks, candidates)


def split_two(combined: Placement, board: Board, rules: Rules) -> list[tuple[Placement, Placement]]:
    """Two consecutive moves seen at once (the photo between them was covered): every way to split the
    new tiles into two legal placements, each in one line, the first played on ``board``. Two moves that
    do not touch split both ways round; the photo cannot tell which came first."""
    tiles = list(combined.letter_tiles)
    if len(tiles) < 2:
        return []

    def on(line: tuple[str, int], t: PlacedTile) -> bool:
        return (t.square.row if line[0] == "row" else t.square.col) == line[1]

    lines = {("row", t.square.row) for t in tiles} | {("col", t.square.col) for t in tiles}
    found: dict[frozenset, tuple[Placement, Placement]] = {}
    for line_a in lines:
        for line_b in lines - {line_a}:
            if not all(on(line_a, t) or on(line_b, t) for t in tiles):
                continue
            shared = [t for t in tiles if on(line_a, t) and on(line_b, t)]  # the crossing: either move's
            for shared_to_first in ((True, False) if shared else (True,)):
                first = [t for t in tiles if on(line_a, t) and (shared_to_first or not on(line_b, t))]
                second = [t for t in tiles if t not in first]
                key = frozenset(t.square for t in first)
                if not first or not second or key in found:
                    continue
                pair = _legal_pair(first, second, board, rules)
                if pair is not None:
                    found[key] = pair
    return list(found.values())


def _legal_pair(first: list[PlacedTile], second: list[PlacedTile], board: Board,
                rules: Rules) -> tuple[Placement, Placement] | None:
    try:
        a = Placement.from_tiles(first, board)
        if _illegal(board, a, rules):
            return None
        after = board_after(board, a)
        b = Placement.from_tiles(second, after)
        return None if _illegal(after, b, rules) else (a, b)
    except EngineError:
        return None


def _illegal(board: Board, placement: Placement, rules: Rules) -> bool:
    codes = ProblemCode.NONE
    for problem in validate(board, placement, rules):
        codes |= problem.code
    return codes & ~_LETTER_PROBLEMS != ProblemCode.NONE


#: A dictionary as the reader uses it: is this word (upper case, as the board spells it) valid?
WordCheck = Callable[[str], bool]
#: Blanks named together at most (each adds a factor of the alphabet's size to the letters tried).
_MAX_BLANKS_NAMED = 2
#: Tiles on another move's line given to either move when a photo is split (2 ** this many tries).
_MAX_SHARED = 3


def name_blanks(placement: Placement, board: Board, rules: Rules, words: WordCheck) -> list[dict[Square, str]]:
    """Every naming of the placement's unnamed blanks (letter ``?``) that makes every word it forms
    valid, in alphabet order; [] when none does (or there are too many blanks to try)."""
    blanks = [t for t in placement.letter_tiles if t.blank and t.letter == "?"]
    if not blanks or len(blanks) > _MAX_BLANKS_NAMED:
        return []
    letters = [letter for letter in rules.tileset.alphabet if letter.isalpha()]
    found: list[dict[Square, str]] = []
    for combo in product(letters, repeat=len(blanks)):
        named = {t.square: letter for t, letter in zip(blanks, combo, strict=True)}
        tiles = [PlacedTile(t.square, named[t.square], blank=True, kind=t.kind, arrow=t.arrow)
                 if t.square in named else t for t in placement.tiles]
        try:
            texts = score_placement(board, Placement.from_tiles(tiles, board, direction=placement.direction),
                                    rules).word_texts
        except EngineError:
            continue
        if texts and all(words(w) for w in texts):
            found.append(named)
    return found


#: Splits of one photo enumerated at most: beyond this the photo cannot tell them apart anyway.
_MAX_SPLITS = 500
#: Moves checked at most while splitting one photo: thirty-one new tiles on a phone photo (eight moves missed)
#: had the search run for half an hour; one check takes under 0.1 ms.
_MAX_STEPS = 20_000


def split_moves(tiles: list[PlacedTile], board: Board, rules: Rules, moves: int,
                words: WordCheck | None = None, budget: list[int] | None = None) -> list[list[Placement]]:
    """Every way to read ``tiles`` (new on one photo) as ``moves`` consecutive legal placements on
    ``board``, best first: each in one line, connected as the rules ask, at most a rack of tiles; with
    a dictionary, only the splits with the fewest invalid words (words with an unnamed blank count as
    valid). Several results mean the photo alone cannot tell them apart. ``budget``: the moves checked at
    most, shared by the calls given the same list (default :data:`_MAX_STEPS` for this call)."""
    found: list[list[Placement]] = []
    seen: set[tuple] = set()
    # The board after some moves is the board plus the tiles they used, so a rest that led nowhere once (with
    # as many moves left) leads nowhere after any order of the moves before it: seven moves took half a minute.
    dead: set[tuple[frozenset[Square], int]] = set()
    ends = [0]  # splits completed, repeats included (a one-tile move lies on a row and on a column)
    steps = budget if budget is not None else [_MAX_STEPS]

    def lines_of(rest: list[PlacedTile]) -> list[tuple[str, int]]:
        return sorted({("row", t.square.row) for t in rest} | {("col", t.square.col) for t in rest})

    def on(line: tuple[str, int], t: PlacedTile) -> bool:
        return (t.square.row if line[0] == "row" else t.square.col) == line[1]

    def walk(rest: list[PlacedTile], at: Board, parts: list[Placement]) -> None:
        state = (frozenset(t.square for t in rest), len(parts))
        if state in dead or len(found) >= _MAX_SPLITS or steps[0] <= 0:
            return
        before = ends[0]
        _walk(rest, at, parts)
        if ends[0] == before:
            dead.add(state)

    def _walk(rest: list[PlacedTile], at: Board, parts: list[Placement]) -> None:
        if len(parts) == moves - 1:
            steps[0] -= 1
            last = _legal_one(rest, at, rules)
            if last is not None:
                ends[0] += 1
                key = tuple(frozenset(t.square for t in p.letter_tiles) for p in [*parts, last])
                if key not in seen:
                    seen.add(key)
                    found.append([*parts, last])
            return
        lines = lines_of(rest)
        for line in lines:
            mine = [t for t in rest if on(line, t)]
            shared = [t for t in mine if any(other != line and on(other, t) and
                                             sum(on(other, u) for u in rest) >= 2 for other in lines)][:_MAX_SHARED]
            for mask in range(2 ** len(shared)):
                given_away = {shared[i].square for i in range(len(shared)) if mask >> i & 1}
                first = [t for t in mine if t.square not in given_away]
                if not first or len(first) >= len(rest) or len(first) > rules.rack_size:
                    continue
                steps[0] -= 1
                placement = _legal_one(first, at, rules)
                if placement is None:
                    continue
                after = board_after(at, placement)
                walk([t for t in rest if t not in first], after, [*parts, placement])

    walk(list(tiles), board, [])
    if words is None or len(found) < 2:
        return found
    invalid = [_invalid_words(split, board, rules, words) for split in found]
    fewest = min(invalid)
    return [split for split, n in zip(found, invalid, strict=True) if n == fewest]


def chain_moves(tiles: list[PlacedTile], board: Board, rules: Rules, words: WordCheck | None = None,
                most: int = 8) -> list[Placement] | None:
    """One way to read ``tiles`` as at most ``most`` consecutive legal moves, for a photo taken after
    several moves were missed (too many tiles to list every split, as :func:`split_moves` does): depth
    first, the move that makes no invalid word and lays the most tiles tried first, a rest that led
    nowhere never tried again; None when no way is found within :data:`_MAX_STEPS`. The order of the
    moves is a guess; the board they make is the photo's."""
    dead: set[tuple[frozenset[Square], int]] = set()
    steps = [_MAX_STEPS]  # counted down, as split_moves' budget

    def moves_from(rest: list[PlacedTile], at: Board) -> list[tuple[int, int, Placement]]:
        options: dict[frozenset[Square], tuple[int, int, Placement]] = {}
        free = {t.square for t in rest}
        for across in (True, False):
            def along(t: PlacedTile, across: bool = across) -> int:
                return t.square.col if across else t.square.row

            def line_of(t: PlacedTile, across: bool = across) -> int:
                return t.square.row if across else t.square.col

            for line in sorted({line_of(t) for t in rest}):
                mine = sorted((t for t in rest if line_of(t) == line), key=along)
                # Runs the board does not break: one move cannot lay two words with an empty square between.
                runs: list[list[PlacedTile]] = [[mine[0]]]
                for prev, t in zip(mine, mine[1:], strict=False):
                    gap = [Square(line, i) if across else Square(i, line) for i in range(along(prev) + 1, along(t))]
                    if all(sq in free or at[sq] is not None for sq in gap):
                        runs[-1].append(t)
                    else:
                        runs.append([t])
                for run in runs:
                    # Tiles whose crossing line holds other new tiles may belong to that line's move instead.
                    shared = [t for t in run if sum(along(u) == along(t) for u in rest) >= 2][:_MAX_SHARED]
                    for mask in range(2 ** len(shared)):
                        left = {shared[i].square for i in range(len(shared)) if mask >> i & 1}
                        first = [t for t in run if t.square not in left]
                        key = frozenset(t.square for t in first)
                        if not first or len(first) > rules.rack_size or key in options:
                            continue
                        steps[0] -= 1
                        placement = _legal_one(first, at, rules)
                        if placement is not None:
                            bad = _invalid_words([placement], at, rules, words) if words is not None else 0
                            options[key] = (bad, -len(first), placement)
        return sorted(options.values(), key=lambda o: (o[0], o[1]))

    def walk(rest: list[PlacedTile], at: Board, parts: list[Placement]) -> list[Placement] | None:
        if not rest:
            return parts
        state = (frozenset(t.square for t in rest), len(parts))
        if len(parts) >= most or state in dead or steps[0] <= 0:
            return None
        for _, _, placement in moves_from(rest, at):
            used = {t.square for t in placement.tiles}
            done = walk([t for t in rest if t.square not in used], board_after(at, placement), [*parts, placement])
            if done is not None:
                return done
        dead.add(state)
        return None

    return walk(list(tiles), board, [])


def board_after(board: Board, placement: Placement) -> Board:
    """A copy of ``board`` with ``placement``'s tiles laid (no check: the caller has made it legal)."""
    after = board.copy()
    for t in placement.tiles:
        after[t.square] = t.cell
    return after


def _legal_one(tiles: list[PlacedTile], board: Board, rules: Rules) -> Placement | None:
    if not tiles or len(tiles) > rules.rack_size:
        return None
    try:
        placement = Placement.from_tiles(tiles, board)
    except EngineError:
        return None
    return None if _illegal(board, placement, rules) else placement


def _invalid_words(split: list[Placement], board: Board, rules: Rules, words: WordCheck) -> int:
    at = board.copy()
    bad = 0
    for placement in split:
        bad += sum(1 for w in score_placement(at, placement, rules).word_texts if "?" not in w and not words(w))
        for t in placement.tiles:
            at[t.square] = t.cell
    return bad

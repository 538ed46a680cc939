# SPDX-License-Identifier: GPL-3.0-or-later
"""The move generator against a slow brute-force oracle on random positions.

The oracle knows nothing of the word graph, anchors or cross-checks: for every line
segment of the board (both directions, every start and end, plus every single square) it
tries every word of the sampled list that fits the segment's old letters, every way the
rack (blanks included) can supply the missing letters, and keeps what
:func:`engine.validation.validate` accepts with every formed word in the list, scored by
:func:`engine.scoring.score_placement`. The generator must return exactly that set of
placements (no duplicates) with exactly those scores.

Word lists are small random samples (2–6 letters) of the installed default lists, so
the oracle stays fast; ``bench/movegen.py --oracle N`` runs many more positions.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.board import Board, Cell
from engine.lexicon.wordgraph import WordGraph
from engine.movegen import best_moves, generate_moves, parse_rack
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.scoring import formed_words, score_placement
from engine.squares import Direction, Square
from engine.tiles import BLANK, STOP, TileKind
from engine.validation import ProblemCode, validate

POSITIONS = 200
#: Bag counts are the caller's business (the generator takes the rack as given), so the oracle ignores them.
IGNORED = ProblemCode.TOO_MANY_COPIES


# -- the oracle ------------------------------------------------------------------------------------------

def oracle_moves(board: Board, rack: str, rules: Rules, words: set[str] | frozenset[str],
                 matches: dict[str, list[str]] | None = None) -> dict[frozenset, int]:
    """{frozenset(placed tiles): score} of every legal placement, by exhaustive search.

    ``matches`` caches, per segment pattern, the letters each fitting word needs (reuse it for one word list).
    """
    letters, blanks, stops = parse_rack(rack)
    by_length: dict[int, list[str]] = {}
    by_letter: dict[tuple[int, int, str], set[str]] = {}  # (length, index, letter) -> words
    for word in words:
        by_length.setdefault(len(word), []).append(word)
        for i, ch in enumerate(word):
            by_letter.setdefault((len(word), i, ch), set()).add(word)
    alphabet = sorted(ch for ch in {ch for w in words for ch in w} if rules.tileset.is_letter(ch))
    found: dict[frozenset, int] = {}
    longest = max(by_length)
    if board.is_empty():
        touching = {rules.layout.centre}
    else:
        touching = {Square(q.row + dr, q.col + dc) for q, cell in board if not cell.is_stop
                    for dr, dc in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))}

    def may_connect(squares: list[Square]) -> bool:
        """A necessary condition for validate() to accept a placement without a stop tile (saves its cost)."""
        return any(q in touching for q in squares)

    grid = [["#" if (cell := board[Square(r, c)]) is not None and cell.is_stop else cell.letter if cell else ""
             for c in range(board.size)] for r in range(board.size)]

    def crosses_listed(tiles: list[PlacedTile], direction: Direction) -> bool:
        """A quick look at the perpendicular words only (saves formed_words() on most failures)."""
        dr, dc = (1, 0) if direction is Direction.ACROSS else (0, 1)
        for t in tiles:
            if t.is_stop:
                continue
            r, c = t.square
            before = after = ""
            i, j = r - dr, c - dc
            while 0 <= i < board.size and 0 <= j < board.size and grid[i][j] not in ("", "#"):
                before, i, j = grid[i][j] + before, i - dr, j - dc
            i, j = r + dr, c + dc
            while 0 <= i < board.size and 0 <= j < board.size and grid[i][j] not in ("", "#"):
                after, i, j = after + grid[i][j], i + dr, j + dc
            if (before or after) and before + t.letter + after not in words:
                return False
        return True

    def words_ok(tiles: list[PlacedTile], start: Square, direction: Direction) -> bool:
        """Every word formed is listed (a blank or a real tile of the same letter forms the same words)."""
        if not crosses_listed(tiles, direction):
            return False
        placement = Placement(tuple(tiles), start, direction)
        formed = formed_words(board, placement)
        if not formed or any(board_word(board, placement, squares) not in words for squares, _ in formed):
            return False
        return placement.stop_tile is None or any(main and len(sq) >= 2 for sq, main in formed)

    def consider(tiles: list[PlacedTile], start: Square, direction: Direction) -> None:
        placement = Placement(tuple(tiles), start, direction)
        problems = [p for p in validate(board, placement, rules, rack=rack) if not p.code & IGNORED]
        if problems:
            return
        key = frozenset(placement.tiles)
        score = score_placement(board, placement, rules).score
        assert found.get(key, score) == score, "the engine scores one placement two ways"
        found[key] = score

    def supply(squares: list[Square], needed: str, prefix: list[PlacedTile], start: Square,
               direction: Direction) -> None:
        """Every way the rack gives the letters ``needed`` for the empty ``squares``."""
        def go(i: int, pool: Counter, spare_blanks: int, chosen: list[PlacedTile]) -> None:
            if i == len(needed):
                consider(prefix + chosen, start, direction)
                return
            letter = needed[i]
            if pool[letter]:
                pool[letter] -= 1
                go(i + 1, pool, spare_blanks, [*chosen, PlacedTile(squares[i], letter)])
                pool[letter] += 1
            if spare_blanks:
                go(i + 1, pool, spare_blanks - 1, [*chosen, PlacedTile(squares[i], letter, blank=True)])

        if words_ok(prefix + [PlacedTile(q, letter) for q, letter in zip(squares, needed, strict=True)], start,
                    direction):
            go(0, Counter(letters), blanks, [])

    size = board.size
    matches = {} if matches is None else matches  # segment pattern ('.' = empty) -> letters needed, per word
    suppliable: dict[str, bool] = {}
    for direction in (Direction.ACROSS, Direction.DOWN):
        for line in range(size):
            squares = [Square(line, i) if direction is Direction.ACROSS else Square(i, line) for i in range(size)]
            text = "".join("#" if (cell := board[q]) is not None and cell.is_stop else cell.letter if cell else "."
                           for q in squares)
            for s in range(size):
                stop_here = stops and s > 0 and text[s - 1] == "." and _ends_word_before(board, squares[s - 1])
                for e in range(s + 1, min(size, s + longest)):
                    pattern = text[s:e + 1]
                    if "#" in pattern:
                        break
                    if (s > 0 and text[s - 1] not in ".#") or (e + 1 < size and text[e + 1] not in ".#"):
                        continue  # the same tiles are tried with the whole run of letters (the word it really forms)
                    empties = [q for q, ch in zip(squares[s:e + 1], pattern, strict=True) if ch == "."]
                    if not empties or len(empties) > len(rack):
                        continue
                    connects = may_connect(squares[s:e + 1])
                    if not (connects or stop_here):
                        continue
                    if pattern not in matches:
                        fitting = set(by_length.get(len(pattern), ()))
                        for i, ch in enumerate(pattern):
                            if ch != ".":
                                fitting &= by_letter.get((len(pattern), i, ch), set())
                        matches[pattern] = ["".join(ch for ch, p in zip(word, pattern, strict=True) if p == ".")
                                            for word in sorted(fitting)]
                    for needed in matches[pattern]:
                        if needed not in suppliable:
                            short = Counter(needed) - Counter(letters)
                            suppliable[needed] = sum(short.values()) <= blanks
                        if not suppliable[needed]:
                            continue
                        if connects:
                            supply(empties, needed, [], squares[s], direction)
                        if stop_here:
                            supply(empties, needed, [PlacedTile(squares[s - 1], STOP, kind=TileKind.STOP)],
                                   squares[s], direction)
    for r in range(size):
        for c in range(size):
            square = Square(r, c)
            if board[square] is None and may_connect([square]):
                for letter in alphabet:
                    supply([square], letter, [], square, Direction.ACROSS)
    return found


def _ends_word_before(board: Board, square: Square) -> bool:
    """A letter right before ``square`` across or down (necessary for a stop tile there; saves validate() calls)."""
    return board.has_letter(Square(square.row, square.col - 1)) or board.has_letter(Square(square.row - 1, square.col))


def board_word(board: Board, placement: Placement, squares: list[Square]) -> str:
    new = {t.square: t.letter for t in placement.letter_tiles}
    return "".join(new.get(q) or board[q].letter for q in squares)  # type: ignore[union-attr]


def generated(board: Board, rack: str, rules: Rules, graph: WordGraph) -> dict[frozenset, int]:
    moves = generate_moves(board, rack, rules, graph)
    keys = [frozenset(m.placement().tiles) for m in moves]
    assert len(keys) == len(set(keys)), "the generator returned a placement twice"
    return {key: m.score for key, m in zip(keys, moves, strict=True)}


# -- random positions ----------------------------------------------------------------------------------

@functools.cache
def installed_words(lang: str) -> tuple[str, ...]:
    """Every word of the installed default list of ``lang`` (skips the test when it is not built)."""
    from device.paths import lexicon_dir
    from engine.errors import LexiconError
    from engine.lexicon.build import default_list_path
    from engine.lexicon.trie import open_list

    path = default_list_path(lexicon_dir(), lang)
    try:
        return tuple(open_list(path).words(""))
    except (LexiconError, OSError) as exc:
        pytest.skip(f"the {lang} word list is not built ({exc}); run: ordvakt lexicon build {lang}")


@functools.cache
def sample_words(lang: str, seed: int, count: int, tileset_letters: str) -> frozenset[str]:
    """``count`` random words of 2–6 letters (and a quarter as many of 2–3) spellable with the tile set."""
    allowed = set(tileset_letters)
    pool = [w for w in installed_words(lang) if 2 <= len(w) <= 6 and set(w) <= allowed]
    rng = random.Random(seed)
    short = [w for w in pool if len(w) <= 3]
    return frozenset(rng.sample(pool, count)) | frozenset(rng.sample(short, count // 4))


def random_position(rng: random.Random, rules: Rules, words: list[str], *, blanks_on_board: bool,
                    stops_on_board: bool) -> Board:
    """A board with 0–7 words laid at random where they fit (crossing, touching or apart)."""
    size = rules.layout.size
    board = Board(size)
    count = rng.choice([0, 1, 2, 3, 4, 5, 6, 7])
    for n in range(count):
        word = rng.choice(words)
        for _ in range(30):
            direction = rng.choice(list(Direction))
            if n == 0:
                centre = rules.layout.centre
                along = centre.col if direction is Direction.ACROSS else centre.row
                start = max(0, min(size - len(word), along - rng.randrange(len(word))))
                line = centre.row if direction is Direction.ACROSS else centre.col
            else:
                line, start = rng.randrange(size), rng.randrange(size - len(word) + 1)
            squares = [Square(line, start + i) if direction is Direction.ACROSS else Square(start + i, line)
                       for i in range(len(word))]
            if all(board[q] is None or board[q].letter == ch for q, ch in zip(squares, word, strict=True)):  # type: ignore[union-attr]
                for q, ch in zip(squares, word, strict=True):
                    if board[q] is None:
                        board[q] = Cell(ch, blank=blanks_on_board and rng.random() < 0.1)
                break
    if stops_on_board:
        for _ in range(rng.choice([0, 1, 2])):
            q = Square(rng.randrange(size), rng.randrange(size))
            if board[q] is None:
                board[q] = Cell.stop()
    return board


def random_rack(rng: random.Random, rules: Rules, size: int, *, blanks: int, stop: bool) -> str:
    bag = [letter for letter, n in rules.tileset.counts.items() for _ in range(n)]
    rack = rng.sample(bag, size - blanks - stop) + [BLANK] * blanks + ([STOP] if stop else [])
    return "".join(rack)


def classic(seed: int) -> Rules:
    return Rules.scrabble("sv", rack_size=[7, 9][(seed // 3) % 2])


def alfapet(seed: int) -> Rules:
    return Rules.alfapet("sv", rack_size=[6, 7, 8][(seed // 2) % 3], minus_squares=seed % 5 != 0)


def check_positions(make_rules, seeds: range, lang: str = "sv") -> tuple[int, int]:
    """Generator == oracle on every seed's position; returns (positions, moves compared)."""
    probe = make_rules(0)
    words = sample_words(lang, 16, 300, probe.tileset.alphabet)
    graph = WordGraph.from_words(words)
    word_list = sorted(words)
    compared = 0
    matches: dict[str, list[str]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        rules = make_rules(seed)
        special = rules.game.value == "alfapet"
        board = random_position(rng, rules, word_list, blanks_on_board=seed % 3 == 0, stops_on_board=special)
        blanks = (0, 1, 0, 1, 0, 1, 0, 1, 0, 2)[seed % 10]
        rack = random_rack(rng, rules, rules.rack_size, blanks=blanks, stop=special and seed % 2 == 0)
        expected = oracle_moves(board, rack, rules, words, matches)
        got = generated(board, rack, rules, graph)
        if got != expected:
            missing = {tuple(sorted(k)): v for k, v in expected.items() if got.get(k) != v}
            extra = {tuple(sorted(k)): v for k, v in got.items() if expected.get(k) != v}
            raise AssertionError(f"seed {seed} rack {rack!r} board {board.to_text()!r}: "
                                 f"oracle-only/different {list(missing.items())[:3]}, "
                                 f"generator-only/different {list(extra.items())[:3]}")
        compared += len(expected)
    return len(seeds), compared


# -- tests ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("part", range(4))
def test_generator_equals_oracle_classic_15(part: int) -> None:
    positions, moves = check_positions(classic, range(part * POSITIONS // 4, (part + 1) * POSITIONS // 4))
    assert positions == POSITIONS // 4 and moves > 0


@pytest.mark.parametrize("part", range(4))
def test_generator_equals_oracle_alfapet_17(part: int) -> None:
    positions, moves = check_positions(alfapet, range(part * POSITIONS // 4, (part + 1) * POSITIONS // 4))
    assert positions == POSITIONS // 4 and moves > 0


def test_every_generated_move_scores_as_the_engine_scores_it_on_a_real_list() -> None:
    """The full sv list, mid-game Alfapet positions with minus squares and a blank: incremental == engine, and
    each move's main word is the one the engine reads off the board (a blank's letter in lower case)."""
    words = sample_words("sv", 3, 50, Rules.alfapet("sv").tileset.alphabet)
    from device.paths import lexicon_dir
    from engine.lexicon.build import default_list_path
    from engine.lexicon.trie import open_list
    from engine.lexicon.wordgraph import graph_for

    graph = graph_for(open_list(default_list_path(lexicon_dir(), "sv")))
    rng = random.Random(5)
    rules = Rules.alfapet("sv", rack_size=8)
    checked = 0
    for _ in range(3):
        board = random_position(rng, rules, sorted(words), blanks_on_board=True, stops_on_board=True)
        rack = random_rack(rng, rules, 8, blanks=1, stop=True)
        for move in generate_moves(board, rack, rules, graph):
            placement = move.placement()
            scored = score_placement(board, placement, rules)
            assert scored.score == move.score, move
            main = next(word for word in scored.words if word.main)
            assert move.word.upper() == main.word.upper(), move  # spelt lazily from the line and the tiles
            assert sum(letter.islower() for letter in move.word) == sum(blank for _, _, blank in move.tiles), move
            checked += 1
    assert checked > 1000


def test_the_first_move_covers_the_centre_and_bingo_counts_the_whole_rack() -> None:
    graph = WordGraph.from_words(["RETINAS", "RETAINS", "STAINER", "AT", "TA"])
    rules = Rules.scrabble("en")
    moves = generate_moves(Board(15), "RETAINS", rules, graph)
    centre = rules.layout.centre
    assert moves and all(centre in m.placement().squares for m in moves)
    best = best_moves(moves, 1)[0]
    # 7 letters over the centre: the word doubles, the 50 bonus is added once.
    assert best.score == score_placement(Board(15), best.placement(), rules).score
    assert best.score >= 50 + 2 * 7 and len(best.tiles) == 7


def test_a_minus_square_takes_the_value_off_and_the_best_move_avoids_it() -> None:
    from engine.layout import layout_from_text

    grid = "\n".join(" ".join("M2" if (r, c) == (2, 3) else "." for c in range(5)) for r in range(5))
    rules = Rules.alfapet("sv").with_options(layout=layout_from_text("minus", grid))
    board = Board(5)
    graph = WordGraph.from_words(["AX", "XA"])
    moves = generate_moves(board, "AX", rules, graph)
    scores = {m.notation(board): m.score for m in moves}
    x, a = rules.tileset.value("X"), rules.tileset.value("A")
    assert scores["3C AX"] == a - x  # X on the minus square: its value once off, net
    assert scores["3B XA"] == x + a
    assert best_moves(moves, 1)[0].score == x + a


def test_stop_tile_moves_start_after_the_stop_and_need_not_connect() -> None:
    rules = Rules.alfapet("sv", rack_size=6)
    board = Board.from_text("/".join(["17"] * 8 + ["7HUS7"] + ["17"] * 8))
    graph = WordGraph.from_words(["OST", "HUS"])
    moves = [m for m in generate_moves(board, "OST#EE", rules, graph) if m.stop is not None]
    notations = sorted(m.notation(board) for m in moves)
    assert "#9K OST" in notations and "#K9 OST" in notations  # across after it, down below it
    for m in moves:
        assert not validate(board, m.placement(), rules, rack="OST#EE")


def test_rack_without_letters_has_no_moves_and_rack_parsing() -> None:
    assert parse_rack("ab?#^") == ({"A": 1, "B": 1}, 1, 1)
    assert generate_moves(Board(15), "", Rules.scrabble("en"), WordGraph.from_words(["AT"])) == []


def test_word_graph_round_trips_through_its_file(tmp_path: Path) -> None:
    words = sample_words("sv", 7, 2000, Rules.alfapet("sv").tileset.alphabet)
    graph = WordGraph.from_words(words, fingerprint="test")
    graph.save(tmp_path / "x.graph")
    loaded = WordGraph.load(tmp_path / "x.graph")
    assert set(loaded.words()) == words and len(loaded) == len(words) and loaded.fingerprint == "test"
    assert not loaded.contains("ZZZZZZZ")
    (tmp_path / "bad.graph").write_bytes(b"OVWG\x01\x00\x00\x00garbage")
    from engine.errors import LexiconError

    with pytest.raises(LexiconError, match="bad.graph"):
        WordGraph.load(tmp_path / "bad.graph")
    # A file of the previous format (no letter masks) is refused with a one-line message naming both formats.
    old = bytearray((tmp_path / "x.graph").read_bytes())
    old[4:8] = (1).to_bytes(4, "little")
    (tmp_path / "old.graph").write_bytes(bytes(old))
    with pytest.raises(LexiconError, match=r"old\.graph.*format 1; this version reads format 2") as caught:
        WordGraph.load(tmp_path / "old.graph")
    assert "\n" not in str(caught.value)


def test_cross_checks_and_masks_read_from_the_arrays_agree_with_the_word_list() -> None:
    words = sample_words("sv", 9, 2000, Rules.alfapet("sv").tileset.alphabet)
    graph = WordGraph.from_words(words)
    for word in sorted(words)[::37]:
        for i in range(len(word)):
            prefix, suffix = word[:i], word[i + 1:]
            letters, bits = graph.between(prefix, suffix)
            expected = {x for x in graph.alphabet if prefix + x + suffix in words}
            assert letters == expected and bits == graph.letter_bits(expected)
        node = graph.walk(word[:-1])
        assert node is not None
        assert graph.mask(node) == graph.letter_bits(w[len(word) - 1] for w in words
                                                     if len(w) >= len(word) and w.startswith(word[:-1]))

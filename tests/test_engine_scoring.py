# SPDX-License-Identifier: GPL-3.0-or-later
"""Scoring per the rule sheets, on small explicit layouts (never the provisional Alfapet map)."""

from __future__ import annotations

import pytest

from engine.board import Board, Cell
from engine.layout import Premium, layout_from_text, load_layout
from engine.moves import PlacedTile, Placement
from engine.rules import Rules
from engine.scoring import score_placement
from engine.squares import Direction, Square
from engine.tiles import TileKind
from engine.validation import ProblemCode, flags, validate

SMALL = """
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  *  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
"""


def alfapet(grid: str = SMALL, rack_size: int = 7, **options) -> Rules:
    rules = Rules.alfapet("sv", rack_size=rack_size, **options)
    return rules.with_options(layout=layout_from_text("test", grid))


def with_premiums(**squares: str) -> str:
    """SMALL with premiums at named squares, e.g. with_premiums(E4="M2")."""
    rows = [line.split() for line in SMALL.strip().splitlines()]
    for name, code in squares.items():
        square = Square.parse(name)
        rows[square.row][square.col] = code
    return "\n".join(" ".join(r) for r in rows)


def board_with(size: int, words: list[tuple[str, str]]) -> Board:
    board = Board(size)
    for notation, _ in words:
        move = Placement.from_notation(notation, board)
        for tile in move.tiles:
            board[tile.square] = tile.cell
    return board


def test_wheat_from_the_gcg_demo_scores_30():
    rules = Rules.scrabble("en")
    board = Board(15)
    assert score_placement(board, Placement.from_notation("8D WHEAT", board), rules).score == 30


def test_stopp_with_its_last_p_on_a_minus_square_scores_4():
    # Seed 001: S1 T1 O2 P3 P3 = 10, the P on the minus square takes off 2 x 3 -> 4.
    rules = alfapet(with_premiums(G4="M2"))
    board = Board(7)
    move = Placement.from_notation("4C STOPP", board)
    assert score_placement(board, move, rules).score == 4
    # Minus squares switched off (the Finnish "simplest" variant): plain 10.
    assert score_placement(board, move, rules.with_options(minus_squares=False)).score == 10


def test_word_multiplier_applies_after_the_minus_deduction():
    rules = alfapet(with_premiums(C4="W2", G4="M2"))
    board = Board(7)
    assert score_placement(board, Placement.from_notation("4C STOPP", board), rules).score == 8  # (10 - 6) x 2


def test_ovi_scores_4_with_finnish_values():
    rules = Rules.alfapet("fi").with_options(layout=layout_from_text("test", SMALL))
    board = Board(7)
    assert score_placement(board, Placement.from_notation("4C OVI", board), rules).score == 4


@pytest.mark.parametrize(("rack", "bonus"), [(6, 40), (7, 50), (8, 60)])
def test_all_tiles_bonus_is_added_after_the_multipliers(rack, bonus):
    grid = "\n".join(" ".join(["W2"] + ["."] * 8) if r == 4 else " ".join(["."] * 9) for r in range(9))
    rules = Rules.alfapet("sv", rack_size=rack).with_options(layout=layout_from_text("t9", grid))
    board = Board(9)
    word = "ANDERSSON"[:rack]
    move = Placement.from_notation(f"5A {word}", board)
    face = sum(rules.tileset.value(ch) for ch in word)
    scored = score_placement(board, move, rules)
    assert scored.bonus == bonus
    assert scored.score == face * 2 + bonus
    # One tile short of the rack: no bonus.
    shorter = Placement.from_notation(f"5A {word[:-1]}", board)
    assert score_placement(board, shorter, rules).bonus == 0


def test_bent_word_on_an_arrow_tile_scores_all_legs_as_one_word():
    # TAK^ES: T A K across on row 5, K lies on an arrow tile, E S continue down column C.
    rules = alfapet(with_premiums(C5="L2", C7="W2"))
    board = Board(7)
    board[Square(3, 0)] = Cell("O")  # an old tile above the T: the cross-word OT
    move = Placement.from_notation("5A TAK^ES", board)
    assert [t.square for t in move.tiles] == [Square(4, 0), Square(4, 1), Square(4, 2), Square(5, 2), Square(6, 2)]
    assert move.bend is not None and move.bend.square == Square(4, 2)
    scored = score_placement(board, move, rules)
    words = {w.word: w.score for w in scored.words}
    # TAKES: T1 A1 K3x2 E1 S1 = 10, x2 for the word square under S = 20; the corner letter counts once.
    assert words == {"TAKES": 20, "OT": 3}
    assert scored.score == 23
    assert validate(board, move, rules) == []
    assert move.notation(board) == "5A TAK^ES"


def test_stop_tile_word_starts_below_the_stop_tile_and_is_cut_off_from_the_old_word():
    rules = alfapet(with_premiums(E7="L3"))
    board = board_with(7, [("4B OST", "")])
    move = Placement.from_notation("#E4 TAK", board)  # stop tile on 4E, right after OST; TAK down from 5E
    assert move.stop_tile is not None and move.stop_tile.square == Square(3, 4)
    assert move.direction is Direction.DOWN
    scored = score_placement(board, move, rules)
    assert [(w.word, w.score) for w in scored.words] == [("TAK", 1 + 1 + 3 * 3)]
    assert validate(board, move, rules) == []
    after = board.copy()
    for tile in move.tiles:
        after[tile.square] = tile.cell
    assert after.word(after.run(Square(3, 1), Direction.ACROSS)) == "OST"  # the stop tile ends OST


def test_stop_tile_not_after_a_word_is_refused():
    rules = alfapet()
    board = board_with(7, [("4B OST", "")])
    move = Placement.from_notation("#G1 TAK", board)
    assert ProblemCode.BAD_STOP_TILE in flags(validate(board, move, rules))
    assert ProblemCode.SPECIAL_TILES_OFF in flags(
        validate(board, Placement.from_notation("#E4 TAK", board), rules.with_options(special_tiles=False)))


def test_premiums_count_only_when_a_square_is_first_covered():
    rules = Rules.scrabble("en")
    board = Board(15)
    first = Placement.from_notation("8D WHEAT", board)
    assert score_placement(board, first, rules).score == 30
    for tile in first.tiles:
        board[tile.square] = tile.cell
    # WHEATS: the S is new; the old W on its double-letter square and the old centre star count plain.
    assert score_placement(board, Placement.from_notation("8D .....S", board), rules).score == 4 + 4 + 1 + 1 + 1 + 1


def test_blank_scores_zero_even_on_a_premium():
    rules = Rules.scrabble("en")
    board = Board(15)
    assert score_placement(board, Placement.from_notation("8D wHEAT", board), rules).score == (0 + 4 + 1 + 1 + 1) * 2


def test_nine_tile_variant_gives_the_bingo_for_eight_tiles():
    board = Board(15)
    move = Placement.from_notation("8A RETRAINS", board)
    assert move.tiles_used == 8
    assert score_placement(board, move, Rules.scrabble("en", rack_size=9)).bonus == 50
    assert score_placement(board, move, Rules.scrabble("en")).bonus == 0


def test_theme_words_earn_their_bonus():
    rules = alfapet(theme_words=frozenset({"OST"}), theme_bonus=10)
    board = Board(7)
    assert score_placement(board, Placement.from_notation("4C OST", board), rules).theme_bonus == 10


def test_every_problem_is_reported_at_once():
    rules = Rules.scrabble("de")
    board = Board(15)
    tiles = [PlacedTile(Square(0, 0), "Q"), PlacedTile(Square(0, 1), "Q"), PlacedTile(Square(2, 5), "ß")]
    move = Placement.from_tiles(tiles, board)
    problems = validate(board, move, rules)
    codes = flags(problems)
    assert ProblemCode.NOT_IN_LINE in codes
    assert ProblemCode.FIRST_NOT_ON_CENTRE in codes
    assert ProblemCode.UNKNOWN_LETTER in codes  # ß is no tile
    assert ProblemCode.TOO_MANY_COPIES in codes  # German has one Q
    assert all(p.message for p in problems)


def test_gaps_connection_and_occupied_squares():
    rules = Rules.scrabble("en")
    board = board_with(15, [("8D WHEAT", "")])
    gap = Placement.from_tiles([PlacedTile(Square(9, 3), "A"), PlacedTile(Square(9, 5), "B")], board)
    assert ProblemCode.GAP in flags(validate(board, gap, rules))
    far = Placement.from_tiles([PlacedTile(Square(0, 0), "A"), PlacedTile(Square(0, 1), "B")], board)
    assert flags(validate(board, far, rules)) == ProblemCode.NOT_CONNECTED
    on_top = Placement.from_tiles([PlacedTile(Square(7, 3), "A")], board)
    assert ProblemCode.SQUARE_OCCUPIED in flags(validate(board, on_top, rules))


def test_layout_files_declare_every_premium_kind():
    alf = load_layout("alfapet-17")
    kinds = {p for row in alf.grid for p in row}
    assert alf.provisional and alf.size == 17
    assert kinds >= {Premium.L2, Premium.L3, Premium.L4, Premium.W2, Premium.W3, Premium.W4, Premium.M2}
    scrabble = load_layout("scrabble-15")
    counts = {p: sum(row.count(p) for row in scrabble.grid) for p in Premium}
    assert (counts[Premium.W3], counts[Premium.W2], counts[Premium.L3], counts[Premium.L2]) == (8, 17, 12, 24)


def test_kind_of_placed_tiles_round_trips_through_repr():
    from engine.squares import Square as S  # noqa: F401  (names for eval)
    board = Board(7)
    move = Placement.from_notation("#C4 OST", board_with(7, [("4A AB", "")]))
    assert eval(repr(move), {"Placement": Placement, "PlacedTile": PlacedTile, "Square": Square,
                             "Direction": Direction, "TileKind": TileKind}) == move
    assert board.is_empty()


# -- the game log: challenges and the end --------------------------------------------------------------

def _game(rule, lang="en"):
    from engine.game import Game
    from engine.rules import ChallengeRule

    rules = Rules.scrabble(lang, challenge_rule=ChallengeRule(rule))
    game = Game(rules, ["Ann", "Bob"])
    game.play(Placement.from_notation("8D WHEAT", game.board))
    return game


@pytest.mark.parametrize(("rule", "scores", "to_move"), [
    ("double", [30, 0], 0),  # Bob loses his turn: Ann is to move again
    ("five-point", [35, 0], 1),
    ("ten-point", [40, 0], 1),
    ("single", [30, 0], 1),
])
def test_a_failed_challenge_follows_the_rule(rule, scores, to_move):
    game = _game(rule)
    game.resolve_challenge(acceptable=True, challenger=1)
    assert game.scores == scores and game.to_move == to_move


def test_a_phony_comes_off_the_board_and_its_score_is_taken_back():
    game = _game("double")
    (event,) = game.resolve_challenge(acceptable=False, challenger=1)
    assert event.score == -30 and game.scores == [0, 0] and game.board.is_empty() and game.to_move == 1


def test_going_out_settles_the_opponents_rack_from_the_unseen_pool():
    """Every woogles game that ends with a player going out: drop the record's rack line, let the engine
    finish the game from the unseen pool alone, and compare with what the record says."""
    from conftest import shared_path
    from engine.gcg import LineKind, parse_gcg, replay

    checked = 0
    for path in sorted(shared_path("gcg", "woogles").glob("*.gcg")):
        record = parse_gcg(path.read_bytes(), str(path))
        last = record.lines[-1]
        if last.kind is not LineKind.RACK or last.score <= 0:
            continue
        record.lines = record.lines[:-1]
        game = replay(record).game
        assert game.went_out is not None, path.name
        (event,) = game.finish()
        assert sorted(event.move.rack) == sorted(last.tiles), path.name
        assert event.score == last.score, path.name
        checked += 1
    assert checked >= 30


def test_a_user_layout_file_replaces_the_built_in_one_without_code(tmp_path):
    from engine.errors import DataFileError

    (tmp_path / "layouts").mkdir()
    rows = [". " * 17] * 8 + [". " * 8 + "* " + ". " * 8] + [". " * 17] * 8
    (tmp_path / "layouts" / "alfapet-17.toml").write_text(
        'name = "alfapet-17"\ngrid = """\n' + "\n".join(rows) + '\n"""\n', encoding="utf-8")
    rules = Rules.alfapet("sv", extra_dirs=[tmp_path])
    assert {p for row in rules.layout.grid for p in row} == {Premium.NONE}
    (tmp_path / "layouts" / "broken.toml").write_text('name = "broken"\ngrid = """\nW2 X9\nW2 .\n"""\n')
    with pytest.raises(DataFileError, match=r"unknown square code 'X9' at row 1, column 2"):
        Rules.scrabble("en", layout="broken", extra_dirs=[tmp_path])
    with pytest.raises(DataFileError, match=r"no layout named 'nope'; known: .*alfapet-17"):
        Rules.scrabble("en", layout="nope", extra_dirs=[tmp_path])


def test_a_challenge_judges_main_word_and_cross_words_as_one_play():
    from engine.game import Game
    from engine.lexicon import AcceptAll, Judge
    from engine.rules import ChallengeRule

    class Listed(AcceptAll):
        def __init__(self, words):
            super().__init__("en")
            self.words = set(words)
            self.name = "test-list"

        def contains(self, word):
            return word in self.words

    game = Game(Rules.scrabble("en", challenge_rule=ChallengeRule.DOUBLE), ["Ann", "Bob"])
    game.play(Placement.from_notation("8D WHEAT", game.board))
    game.play(Placement.from_notation("9E OX", game.board))  # forms OX plus the cross-words HO and EX
    assert set(game.last_play().words) == {"OX", "HO", "EX"}
    lexicon = Listed({"WHEAT", "OX", "HO"})  # EX missing: the whole play fails
    verdict, events = game.challenge(Judge([lexicon], "en"), challenger=0)
    assert not verdict.acceptable
    assert [type(e.move).__name__ for e in events] == ["Withdraw"]
    assert game.scores[1] == 0 and game.last_play().words == ("WHEAT",)


@pytest.mark.parametrize(("text", "size", "old"), [
    ("8D WHEAT", 15, []),
    ("H8 wHE.T", 15, [(Square(10, 7), "T")]),  # down column H through an old T on H11
    ("#E4 TAK", 7, [(Square(3, 1), "O"), (Square(3, 2), "S"), (Square(3, 3), "T")]),
    ("5A TAK^ES", 7, []),
])
def test_placements_parse_format_and_repr_round_trip(text, size, old):
    from engine import moves

    board = Board(size)
    for square, letter in old:
        board[square] = Cell(letter)
    names = vars(moves) | {"Square": Square, "Direction": Direction, "TileKind": TileKind}
    move = Placement.from_notation(text, board)
    assert move.notation(board) == text
    assert eval(repr(move), names) == move


def test_other_moves_repr_round_trip():
    from engine import moves

    for move in (moves.Exchange("AEI"), moves.Exchange(count=3), moves.Pass(), moves.Withdraw(),
                 moves.ChallengeBonus(5), moves.TimePenalty(-10), moves.RackPoints("OPEG"), moves.RackPoints("A", -1)):
        assert eval(repr(move), vars(moves)) == move


def test_finish_line_ends_the_game_when_the_target_is_reached():
    """Replay a real game under a Finish Line target: it ends on the first move that reaches it, not before."""
    from conftest import shared_path
    from engine.game import Game
    from engine.gcg import parse_gcg, replay

    assert Rules.scrabble("en").finish_line(2, "beginner").target_score == 70
    path = shared_path("gcg", "woogles", "2r8QNJNpbP.gcg")
    full = replay(parse_gcg(path.read_bytes(), str(path))).game
    rules = full.rules.finish_line(2, "expert")  # 200
    game = Game(rules, full.players)
    for event in full.events:
        assert not game.finished
        game.replay([event])
        if max(game.scores) >= 200:
            break
    assert game.finished and max(game.scores) >= 200
    assert game.winner == game.scores.index(max(game.scores))


def test_a_move_after_the_end_is_refused_in_notation_not_as_a_python_repr():
    from engine.errors import GameStateError
    from engine.game import Game

    game = Game(Rules.scrabble("en"), ["Ann", "Bo"])
    game.finished = True
    move = Placement.from_tiles([PlacedTile(Square(7, 7), "A"), PlacedTile(Square(7, 8), "T")], game.board)
    with pytest.raises(GameStateError) as caught:
        game.play(move)
    assert str(caught.value) == "the game is over; 8H AT cannot be played"

# SPDX-License-Identifier: GPL-3.0-or-later
"""The rule sheets' end-of-game, tie-break, who-starts and stop-tile rules, with every expected value worked out
by hand from the sheets (../shared/seeds: 000 Alfapet FI, 001 Alfapet SV, 004 Scrabble ET) and the tile values in
the data files; the arithmetic is in the comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.board import Board
from engine.errors import DataFileError, GameStateError
from engine.game import EndReason, Game
from engine.gcg import parse_gcg, write_gcg
from engine.layout import layout_from_text
from engine.moves import Pass, Placement
from engine.rules import RackAccounting, Rules, TieBreak
from engine.start import StartDraw, StartRule, decide_start
from engine.tiles import load_tileset
from engine.validation import ProblemCode, flags, validate

# WHEAT from 8D on the standard board: W on D8 (double letter) 4x2 = 8, H 4, E 1, A 1, T on the centre star 1:
# 8 + 4 + 1 + 1 + 1 = 15, x2 for the star = 30.
WHEAT = "8D WHEAT"
# ZA down from G7 through the A of WHEAT on G8: Z on G7 (double letter) 10x2 = 20, A 1 -> 21.
ZA = "G7 Z."


def play(game: Game, notation: str):
    return game.play(Placement.from_notation(notation, game.board))


def mini_tileset(tmp_path: Path) -> Path:
    """21 tiles with the English values: three players draw seven each and the bag is empty from the start."""
    folder = tmp_path / "tilesets"
    folder.mkdir()
    tiles = {"C": (1, 3), "A": (1, 1), "B": (1, 3), "I": (1, 1), "N": (1, 1), "E": (1, 1), "T": (1, 1),
             "Q": (1, 10), "Z": (1, 10), "X": (1, 8), "J": (1, 8), "K": (1, 5), "W": (1, 4), "V": (1, 4),
             "O": (3, 1), "U": (2, 1), "L": (2, 1)}
    (folder / "scrabble-mini.toml").write_text(
        'name = "scrabble-mini"\ngame = "scrabble"\nlanguage = "en"\nalphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"\n'
        "[tiles]\n" + "".join(f'"{letter}" = [{n}, {value}]\n' for letter, (n, value) in tiles.items()),
        encoding="utf-8")
    return tmp_path


# -- Scrabble (seed 004) --------------------------------------------------------------------------------------

def test_scrabble_tie_goes_to_higher_score_before_rack_adjustment():
    # "Võrdsuse korral võidab mängija, kellel on suurem punktisumma enne mängimata tähtede muutmist."
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    assert play(game, WHEAT).score == 30 and play(game, ZA).score == 21
    # The players stop (nobody can play); each loses the rack left: Ann Q = 10, Bob E = 1.
    game.finish({0: "Q", 1: "E"})
    outcome = game.outcome()
    # Final: Ann 30 - 10 = 20, Bob 21 - 1 = 20: tied. Before the racks: 30 against 21, so Ann wins.
    assert outcome.final_scores == (20, 20)
    assert outcome.scores_before_racks == (30, 21)
    assert outcome.winners == (0,) and outcome.tie_broken_by == "score-before-racks"
    assert outcome.reason is EndReason.AGREED
    assert game.winner == 0


def test_scrabble_tie_that_the_rack_scores_cannot_break_is_a_shared_win():
    # Six scoreless turns (tournament rule for two players) with nothing played: 0 to 0 before and after.
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    for _ in range(6):
        game.play(Pass())
    game.finish({0: "", 1: ""})
    outcome = game.outcome()
    assert outcome.reason is EndReason.SCORELESS_TURNS
    assert outcome.winners == (0, 1) and outcome.tie_broken_by is None and outcome.is_draw
    assert game.winner is None


def test_scrabble_game_ends_when_one_player_passes_on_two_turns_in_a_row():
    # "Kui mängija passib kahel käigul järjest, on mäng lõppenud": Bob's own two turns, whatever the others did.
    game = Game(Rules.scrabble("en", players=3), ["Ann", "Bob", "Cid"])
    play(game, WHEAT)         # Ann +30
    game.play(Pass())         # Bob passes (1)
    play(game, ZA)            # Cid +21: a scoring play by someone else does not break Bob's run
    game.play(Pass())         # Ann passes (her first)
    assert not game.finished
    game.play(Pass())         # Bob passes again: his second turn in a row
    assert game.finished and game.end_reason is EndReason.PASSES
    game.finish({0: "", 1: "", 2: ""})
    outcome = game.outcome()
    assert outcome.reason is EndReason.PASSES and outcome.decided_by == 1
    assert outcome.winners == (0,)  # 30 against 0 and 21


def test_scrabble_passes_of_different_players_do_not_end_the_game():
    game = Game(Rules.scrabble("en", players=3), ["Ann", "Bob", "Cid"])
    play(game, WHEAT)
    for _ in range(3):        # Bob, Cid, Ann each pass once
        game.play(Pass())
    assert not game.finished


def test_scrabble_box_rule_three_players_everyone_loses_own_rack_and_the_one_out_gains_the_sum(tmp_path):
    # "... arvatakse maha nende lõppskoorist. Kui mängija kasutab ... kõik oma tähed ära, lisatakse tema
    # punktisummale teiste mängijate mängimata tähtede summa."
    data = mini_tileset(tmp_path)
    rules = Rules.scrabble("en", tileset="scrabble-mini", extra_dirs=[data])  # built for two players by default
    game = Game(rules, ["Ann", "Bob", "Cid"])  # ... settled by the box rules in a three-player game
    assert game.rules.rack_accounting is RackAccounting.OWN_AND_SUM
    assert game.bag_count == 0 and game.rack_counts == [7, 7, 7]
    # CABINET from 8B: C 3, A 1, B on D8 (double letter) 3x2 = 6, I 1, N 1, E 1, T on the star 1 = 14, x2 = 28,
    # all seven tiles +50 = 78; Ann's rack is empty and so is the bag.
    assert play(game, "8B CABINET").score == 78
    assert game.finished and game.went_out == 0
    game.finish({1: "QZXJKWV", 2: "OOOUULL"})
    # Bob: Q10 + Z10 + X8 + J8 + K5 + W4 + V4 = 49 off; Cid: seven 1-point tiles = 7 off; Ann: 78 + 49 + 7 = 134.
    outcome = game.outcome()
    assert outcome.final_scores == (134, -49, -7)
    assert outcome.scores_before_racks == (78, 0, 0)
    assert outcome.reason is EndReason.RACK_OUT and outcome.winners == (0,) and outcome.decided_by == 0


def test_scrabble_two_player_tournament_rule_stays_twice_the_opponents_rack():
    # Tournament convention (macondo, RULES.md 4.2 [P]): the player out gets 2 x the opponent's rack.
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    game.went_out = 0  # only the accounting is under test here
    assert game.rack_points(0, "QI") == 2 * (10 + 1)


@pytest.mark.parametrize(("players", "accounting", "scoreless", "player_passes"), [
    (1, RackAccounting.OWN_AND_SUM, None, 2),
    (2, RackAccounting.TWICE_OPPONENT, 6, None),
    (3, RackAccounting.OWN_AND_SUM, None, 2),
    (4, RackAccounting.OWN_AND_SUM, None, 2),
])
def test_scrabble_rules_are_complete_for_the_number_of_players(players, accounting, scoreless, player_passes):
    rules = Rules.scrabble("en", players=players)
    for built in (rules, Rules.scrabble("en").for_players(players)):
        assert (built.rack_accounting, built.scoreless_turn_limit, built.player_passes_in_a_row_limit) == \
            (accounting, scoreless, player_passes)
        assert built.tie_break is TieBreak.SCORE_BEFORE_RACKS and built.start_rule is StartRule.CLOSEST_TO_A
        assert built.players == players


def test_scrabble_box_rules_for_two_players_and_no_tournament_rule_for_four():
    box = Rules.scrabble("en", convention="box")
    assert box.rack_accounting is RackAccounting.OWN_AND_SUM and box.player_passes_in_a_row_limit == 2
    with pytest.raises(DataFileError, match="tournament.*for \\[2\\] players"):
        Rules.scrabble("en", players=4, convention="tournament")


def test_a_rule_the_caller_chose_survives_the_player_count():
    rules = Rules.scrabble("en", rack_accounting=RackAccounting.TWICE_OPPONENT)
    assert Game(rules, ["A", "B", "C"]).rules.rack_accounting is RackAccounting.TWICE_OPPONENT
    assert Game(rules, ["A", "B", "C"]).rules.player_passes_in_a_row_limit == 2  # the rest follows the count


def test_finish_line_ends_when_a_player_reaches_the_target():
    game = Game(Rules.scrabble("en").with_options(target_score=30), ["Ann", "Bob"])
    play(game, WHEAT)  # 30 >= 30
    outcome = game.outcome()
    assert outcome.reason is EndReason.TARGET and outcome.winners == (0,)


def test_a_triple_challenge_or_a_loss_on_time_decides_the_game():
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    play(game, WHEAT)
    game.decide(1, EndReason.CHALLENGE)
    outcome = game.outcome()
    assert outcome.reason is EndReason.CHALLENGE and outcome.winners == (1,)
    with pytest.raises(GameStateError):
        game.decide(2, EndReason.TIME)


# -- Who starts ----------------------------------------------------------------------------------------------

def test_scrabble_letter_closest_to_a_starts_and_the_blank_beats_every_letter():
    # "Mängija, kes tõmbab tähe, mis on kõige lähemal "A", läheb esimesena. Tühi plaat lööb kõik teised plaadid."
    en = load_tileset("scrabble-en")
    assert decide_start(StartRule.CLOSEST_TO_A, {0: "D", 1: "L", 2: "O", 3: "T"}, en) == StartDraw(0)
    assert decide_start(StartRule.CLOSEST_TO_A, {0: "A", 1: "?"}, en) == StartDraw(1)
    # Swedish order: ... X Y Z Å Ä Ö, so Z (26th) is closer to A than Å (27th).
    assert decide_start(StartRule.CLOSEST_TO_A, {0: "Å", 1: "Z"}, load_tileset("scrabble-sv")) == StartDraw(1)


def test_scrabble_start_tie_is_drawn_again_by_the_tied_players_only():
    en = load_tileset("scrabble-en")
    first = decide_start(StartRule.CLOSEST_TO_A, {0: "C", 1: "M", 2: "C"}, en)
    assert first == StartDraw(None, (0, 2))
    assert decide_start(StartRule.CLOSEST_TO_A, {0: "K", 2: "E"}, en) == StartDraw(2)


def test_alfapet_highest_value_starts_with_redraw_on_a_tie():
    # "Den som får högst poäng ... får starta spelet." Values (alfapet-sv.toml): A 1, C 8, Q 10, X 10, E 1.
    sv = load_tileset("alfapet-sv")
    assert decide_start(StartRule.HIGHEST_VALUE, {0: "A", 1: "C"}, sv) == StartDraw(1)
    assert decide_start(StartRule.HIGHEST_VALUE, {0: "Q", 1: "X", 2: "C"}, sv) == StartDraw(None, (0, 1))
    # Black, arrow and blank tiles give no points ("Pilar, blanka brickor och svarta brickor ger inga poäng").
    assert decide_start(StartRule.HIGHEST_VALUE, {0: "#", 1: "E", 2: "?"}, sv) == StartDraw(1)
    assert Rules.alfapet("sv").start_rule is StartRule.HIGHEST_VALUE


def test_a_tile_the_set_does_not_have_is_named():
    with pytest.raises(GameStateError, match="scrabble-en set has no tile 'Å'"):
        decide_start(StartRule.CLOSEST_TO_A, {0: "Å"}, load_tileset("scrabble-en"))


# -- Alfapet end (seeds 000/001) -----------------------------------------------------------------------------

SMALL = "\n".join(" ".join("*" if (r, c) == (3, 3) else "." for c in range(7)) for r in range(7))


def alfapet(language: str = "fi", players: int = 2) -> Game:
    rules = Rules.alfapet(language).with_options(layout=layout_from_text("small", SMALL))
    return Game(rules, ["Ann", "Bob", "Cid"][:players])


def test_alfapet_ends_when_every_player_passed_twice_in_a_row():
    # "Peli päättyy, kun ... kaikki pelaajat ovat jättäneet vuoron väliin kahdesti peräkkäin."
    game = alfapet()
    play(game, "4C OVI")
    for _ in range(3):        # Bob, Ann, Bob pass: Ann has passed once only
        game.play(Pass())
    assert not game.finished
    game.play(Pass())         # Ann's second
    assert game.finished and game.end_reason is EndReason.ALL_PASSED


def test_alfapet_a_scoring_play_breaks_the_run_of_passes():
    game = alfapet()
    play(game, "4C OVI")      # Ann
    game.play(Pass())         # Bob
    game.play(Pass())         # Ann
    game.play(Pass())         # Bob (his second)
    play(game, "C3 O.")       # Ann scores (O over the O of OVI: a two-letter word down), all runs start again
    game.play(Pass())         # Bob
    game.play(Pass())         # Ann
    assert not game.finished


def test_alfapet_one_player_passing_twice_while_the_other_plays_goes_on():
    game = alfapet()
    play(game, "4C OVI")      # Ann
    game.play(Pass())         # Bob
    play(game, "C3 O.")       # Ann
    game.play(Pass())         # Bob's second pass in a row: the Scrabble sheet would end here, Alfapet does not
    assert not game.finished


def test_alfapet_rack_out_takes_each_rack_off_and_gives_nothing_for_going_out():
    # "Kirjaintelineellä olevien laattojen pisteet vähennetään kokonaissummasta."
    game = alfapet()
    game.went_out = 0
    assert game.rack_points(0, "AB") == 0
    assert game.rack_points(1, "AB") == -(1 + 6)  # alfapet-fi: A 1, B 6


# -- Alfapet stop tile (seeds 000/001) -----------------------------------------------------------------------

def stop_rules() -> Rules:
    return Rules.alfapet("sv").with_options(layout=layout_from_text("small", SMALL))


def test_alfapet_stop_tile_must_follow_the_last_letter_of_a_word_not_a_middle_one():
    # "Pelaaja aloittaa pelivuoronsa asettamalla pysäytyslaatan pelilaudalla olevan sanan perään."
    board = Board.from_text("7/7/7/1OST3/7/7/7")  # OST across B4-D4
    beside_middle = Placement.from_notation("#C5 AT", board)  # stop under S (the middle letter), AT down from C6
    assert ProblemCode.BAD_STOP_TILE in flags(validate(board, beside_middle, stop_rules()))
    after_last = Placement.from_notation("#E4 AT", board)  # stop right after T, AT down from E5
    assert validate(board, after_last, stop_rules()) == []


def test_alfapet_stop_tile_below_the_last_letter_of_a_down_word_then_a_word_across_after_it():
    board = Board.from_text("7/2O4/2S4/2T4/7/7/7")  # OST down C2-C4
    move = Placement.from_notation("#5C AT", board)  # stop on C5 under T; AT across from D5
    assert validate(board, move, stop_rules()) == []
    down_too = Placement.from_notation("#C5 AT", board)  # or down from C6, right below the stop
    assert validate(board, down_too, stop_rules()) == []
    off = Placement.from_notation("#5D AT", board)  # D5 is diagonal to T: after no word
    assert ProblemCode.BAD_STOP_TILE in flags(validate(board, off, stop_rules()))


def test_alfapet_no_later_word_may_start_after_or_below_an_old_stop_tile():
    # "Tämän pelivuoron päätyttyä ei pysäytyslaatasta voi enää aloittaa sanoja." / "Ingen annan spelare får
    # lägga ett ord efter eller under den svarta brickan."
    board = Board.from_text("7/7/7/OST#TA1/4O2/7/7")  # OST, stop on D4, TA after it, O under the T (TO down)
    under = Placement.from_notation("D5 NU", board)  # NU down from D5, right below the stop (NO across)
    assert flags(validate(board, under, stop_rules())) == ProblemCode.BAD_STOP_TILE
    extended = Placement.from_notation("4E ..G", board)  # TA -> TAG: nothing new starts at the stop
    assert validate(board, extended, stop_rules()) == []


# -- Records --------------------------------------------------------------------------------------------------

def test_gcg_record_carries_the_end_reason_and_the_tie_break():
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    play(game, WHEAT)
    play(game, ZA)
    game.finish({0: "Q", 1: "E"})
    text = write_gcg(game, nicks=["ann", "bob"])
    assert "#note ordvakt-outcome reason=agreed winners=ann tie-break=score-before-racks" in text
    record = parse_gcg(text.encode(), "written.gcg")
    assert record.outcome == {"reason": "agreed", "winners": "ann", "tie-break": "score-before-racks"}
    assert all(not line.note for line in record.lines)  # not taken for a note on the last move


def test_alfapet_played_without_special_tiles_leaves_them_out_of_the_bag():
    # "Jos pelaajat haluavat pelata ilman erikoislaattoja, ne poistetaan laattojen joukosta." alfapet-sv.toml:
    # 112 letter tiles + 2 blanks + 3 black + 3 arrow tiles = 120; without the special tiles 112 are played.
    with_special = Game(Rules.alfapet("sv"), ["Ann", "Bob"])
    without = Game(Rules.alfapet("sv", special_tiles=False), ["Ann", "Bob"])
    assert with_special.bag_count == 120 - 2 * 7 and without.bag_count == 112 - 2 * 7
    assert "?" not in without.unseen() and "#" not in without.unseen()
    board = Board(17)
    blank = Placement.from_notation("9H oST", board)  # a blank as O on the centre row
    rules = Rules.alfapet("sv", special_tiles=False)
    assert ProblemCode.SPECIAL_TILES_OFF in flags(validate(board, blank, rules))
    assert validate(board, blank, Rules.alfapet("sv")) == []


def test_changing_the_player_count_or_convention_with_options_rederives_the_end_rules():
    four = Rules.scrabble("en").with_options(players=4)
    assert (four.players, four.rack_accounting, four.scoreless_turn_limit) == (4, RackAccounting.OWN_AND_SUM, None)
    box = Rules.scrabble("en").with_options(convention="box")
    assert box.rack_accounting is RackAccounting.OWN_AND_SUM and box.player_passes_in_a_row_limit == 2
    assert Game(box, ["A", "B"]).rules.convention == "box"  # the chosen convention survives the game's count


def test_scrabble_failed_challenger_loses_their_next_turn_in_a_three_player_game():
    # "Kui vaidlustatud sõna on vastuvõetav, kaotab selle vaidlustanud mängija oma järgmise käigu."
    game = Game(Rules.scrabble("en", players=3), ["Ann", "Bob", "Cid"])
    play(game, WHEAT)                               # Ann
    play(game, ZA)                                  # Bob; Cid is next
    game.resolve_challenge(True, challenger=0)      # Ann challenges ZA in vain: she loses her next turn
    assert game.to_move == 2                        # Cid still plays now
    game.play(Pass())                               # Cid
    assert game.to_move == 1                        # Ann's turn is skipped: Bob
    assert game.scores == [30, 21, 0]


def test_scrabble_a_turn_lost_to_a_challenge_is_not_a_pass():
    # The box rule ends the game when a player *passes* on two turns in a row; losing a turn is not passing.
    game = Game(Rules.scrabble("en", convention="box"), ["Ann", "Bob"])
    play(game, WHEAT)                               # Ann
    game.play(Pass())                               # Bob passes
    play(game, ZA)                                  # Ann
    game.resolve_challenge(True, challenger=1)      # Bob challenges in vain: his turn is lost
    assert not game.finished and game.to_move == 0
    game.play(Pass())                               # Ann passes
    game.play(Pass())                               # Bob passes: one pass since his lost turn
    assert not game.finished


def test_a_three_player_record_with_two_passes_in_a_row_replays_to_its_end():
    from engine.gcg import replay

    text = ("#player1 a A\n#player2 b B\n#player3 c C\n>a: AEHTW 8D WHEAT +30 30\n>b: ?? - +0 0\n>c: ?? - +0 0\n"
            ">a: ?? - +0 30\n>b: ?? - +0 0\n>c: AZ G7 Z. +21 21\n")
    result = replay(parse_gcg(text.encode(), "three.gcg"), tiles="en")
    assert result.mismatches == [] and result.game.scores == [30, 0, 21]

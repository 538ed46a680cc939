# SPDX-License-Identifier: GPL-3.0-or-later
"""Ordskifte: steal rules (seed 003 examples), the game state driven through its API, the CLI."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from engine.errors import GameStateError, IllegalMove, InvalidNotation, LexiconError
from engine.ordskifte import (
    JOKER,
    RAILS,
    TILE_LETTERS,
    WIN_WORDS,
    EventKind,
    OrdskifteGame,
    Phase,
    RailWord,
    StealProblem,
    load_tiles,
    validate_steal,
    who_starts,
)


class Words:
    """A tiny in-memory dictionary."""

    def __init__(self, *words: str) -> None:
        self.words = set(words)

    def contains(self, word: str) -> bool:
        return word in self.words


# --------------------------------------------------------------------------- steal rules (seed examples)


def test_seed_example_stjele_plus_t_and_k_makes_skjelett():
    check = validate_steal("STJELE", "SKJELETT")
    assert check.ok and check.reason == ""
    assert Counter(check.added) == Counter("TK")


def test_seed_example_joker_reassigned_atT_to_tapet():
    check = validate_steal("?ATT", "TApET")
    assert check.ok
    assert check.added == "E"  # the joker moved from the unknown letter to P; only E came from the board


def test_steal_leaving_out_a_letter_is_refused_with_reason():
    check = validate_steal("STJELE", "SKJELT")
    assert not check.ok
    assert check.problem is StealProblem.MISSING_LETTERS
    assert "does not use all letters of STJELE" in check.reason
    assert "missing E" in check.reason


def test_steal_adding_nothing_is_refused_even_when_rearranged():
    for new in ("STJELE", "TJELES"):
        check = validate_steal("STJELE", new)
        assert (check.ok, check.reason, check.problem) == (False, "adds no letter", StealProblem.NO_LETTER_ADDED)


def test_steal_checked_against_the_dictionary():
    words = Words("SKJELETT")
    assert validate_steal("STJELE", "SKJELETT", words).ok
    check = validate_steal("STJELE", "STJELEK", words)
    assert (check.ok, check.reason) == (False, "STJELEK is not in the dictionary")
    assert check.problem is StealProblem.NOT_IN_DICTIONARY


def test_joker_must_stay_a_joker_and_a_letter_cannot_become_one():
    lost = validate_steal("?ATT", "TATTE")
    assert not lost.ok and "the joker" in lost.reason
    letter_to_joker = validate_steal("KATT", "kATTE")  # the real K tile is missing
    assert not letter_to_joker.ok and "missing K" in letter_to_joker.reason


def test_adding_a_joker_counts_as_adding_a_letter():
    check = validate_steal("KATT", "KATTe")
    assert check.ok and check.added == JOKER


def test_notation_errors_are_raised_not_judged():
    with pytest.raises(InvalidNotation, match="say which letter the joker stands for"):
        validate_steal("KATT", "KATT?")
    with pytest.raises(InvalidNotation, match="6 jokers"):
        validate_steal("stjele", "SKJELETT")
    with pytest.raises(InvalidNotation, match="'1' is not a letter"):
        validate_steal("KA1T", "KATTE")
    with pytest.raises(InvalidNotation, match="no Q tile"):
        validate_steal("BUSS", "BUSSQ")
    assert validate_steal("BUSS", "BUSSq").ok  # the joker may stand for a letter the set lacks


def test_a_stolen_word_shorter_than_three_letters_is_not_a_rail_word():
    assert validate_steal("AT", "KATT").problem is StealProblem.TOO_SHORT


@given(
    word=st.text(alphabet="ABDEGKLNORSTÆØÅ", min_size=3, max_size=8),
    extra=st.text(alphabet="ABDEGKLNORSTÆØÅ", min_size=1, max_size=3),
    seed=st.integers(0, 2**32),
)
def test_any_rearrangement_with_added_letters_is_a_valid_steal(word, extra, seed):
    letters = list(word + extra)
    random.Random(seed).shuffle(letters)
    new = "".join(letters)
    check = validate_steal(word, new)
    assert check.ok
    assert Counter(check.added) == Counter(extra)
    # Leaving out one of the stolen word's letters breaks it, whatever else is added.
    dropped = word[1:] + extra.replace(word[0], "")
    assert validate_steal(word, dropped).problem is StealProblem.MISSING_LETTERS


# --------------------------------------------------------------------------- tiles and who starts


def test_tile_set_has_126_tiles_one_joker_and_norwegian_letters():
    tiles = load_tiles()
    assert tiles.alphabet == TILE_LETTERS
    assert tiles.total == 126
    assert tiles.jokers == 1
    assert sum(tiles.counts.values()) == 125
    assert set("ÆØÅ") <= set(tiles.counts)
    assert not set("QXZ") & set(tiles.counts)


def test_who_starts_uses_the_norwegian_alphabet():
    assert who_starts("DLOT") == [0]  # the seed's example: D starts
    assert who_starts(["Ø", "Z", "Å"]) == [1]
    assert who_starts(["Å", "Ø"]) == [1]
    assert who_starts(["E", "B", "B"]) == [1, 2]  # tie: these two draw again
    assert who_starts([JOKER, "Å"]) == [1]


def test_tracked_setup_lays_five_tiles_plus_start_draws_and_plays_the_starters_tile():
    game = OrdskifteGame.new(["Ada", "Bo", "Cy"], rng=random.Random(7))
    kinds = [e.kind for e in game.events]
    assert kinds[0] is EventKind.SETUP and len(game.events[0].tiles) == 5
    draws = [e for e in game.events if e.kind is EventKind.START_DRAW]
    first_draw = draws[0].tiles
    assert len(first_draw) == 3
    winners = who_starts(first_draw)
    if len(winners) == 1:
        assert game.current == winners[0]
    drawn = sum(len(e.tiles) for e in draws)
    assert sum(game.pool.values()) == 5 + drawn + 1  # the starter's hidden tile is on the board
    assert game.hidden[game.current] is None
    assert all(game.hidden[i] is not None for i in range(3) if i != game.current)
    _assert_tiles_conserved(game)


def test_player_count_is_two_to_four():
    for names in (["solo"], ["a", "b", "c", "d", "e"]):
        with pytest.raises(GameStateError, match="2-4 players"):
            OrdskifteGame.new(names, rng=random.Random(0))


# --------------------------------------------------------------------------- game state


def _assert_tiles_conserved(game: OrdskifteGame) -> None:
    everything = Counter(game.bag) + Counter(game.pool)
    everything += Counter(t for t in game.hidden if t is not None)
    for rails in game.rails:
        for word in rails:
            everything += word.tiles
    assert everything == game.tiles.full_bag()
    assert game.rails_in_use <= RAILS


def _greedy_turn(game: OrdskifteGame) -> None:
    """A simple player: steal the leader's word by adding a board letter, else make a word of three
    board letters, else end the turn."""
    me = game.current
    letters = sorted(t for t in game.pool.elements() if t != JOKER)
    for standing in game.standings():
        if standing.player != me and standing.words and letters:
            rail = standing.words - 1
            old = game.rails[standing.player][rail]
            game.steal(standing.player, rail, old.notation + letters[0])
            return
    if len(letters) >= 3 and game.spare_rails:
        game.make_word("".join(letters[:3]))
        return
    game.turn_expired()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_tracked_game_to_six_words(players, seed):
    game = OrdskifteGame.new([f"P{i}" for i in range(players)], rng=random.Random(seed))
    for _ in range(2000):
        if game.is_over:
            break
        before = game.current
        _greedy_turn(game)
        _assert_tiles_conserved(game)
        last = game.events[-1]
        if last.kind is EventKind.TURN_ENDED:
            assert game.is_over or game.current == (before + 1) % players  # play passes to the left
    assert game.is_over and game.phase is Phase.FINISHED
    (winner,) = game.winners
    assert len(game.rails[winner]) == WIN_WORDS
    assert game.events[-1].kind is EventKind.GAME_OVER
    assert game.standings()[0].player == winner and game.standings()[0].needed == 0
    assert any(e.kind is EventKind.STEAL for e in game.events)
    with pytest.raises(GameStateError):
        game.turn_expired()


def test_state_round_trips_and_the_restored_game_plays_on_identically():
    game = OrdskifteGame.new(["a", "b", "c", "d"], rng=random.Random(11))
    for _ in range(12):
        _greedy_turn(game)
    assert not game.is_over
    saved = game.to_dict()
    restored = OrdskifteGame.from_dict(saved)
    assert restored.to_dict() == saved
    while not game.is_over:
        _greedy_turn(game)
        _greedy_turn(restored)
    assert restored.to_dict() == game.to_dict()


def test_from_dict_rejects_other_versions():
    data = OrdskifteGame.new(["a", "b"], track_tiles=False).to_dict()
    data["version"] = 99
    with pytest.raises(GameStateError, match="version"):
        OrdskifteGame.from_dict(data)


def _companion(players: int = 2, lexicon: Words | None = None) -> OrdskifteGame:
    return OrdskifteGame.new([f"P{i}" for i in range(players)], track_tiles=False, lexicon=lexicon)


def test_companion_game_checks_words_and_steals_without_knowing_the_board():
    game = _companion(3)
    game.make_word("STJELE")
    assert game.current == 0  # a word keeps the turn
    game.turn_expired()
    assert game.current == 1
    with pytest.raises(IllegalMove, match="does not use all letters of STJELE"):
        game.steal(0, 0, "SKJELT")
    with pytest.raises(IllegalMove, match="at least 3"):
        game.make_word("AT")
    game.steal(0, 0, "SKJELETT")
    assert [w.notation for w in game.rails[1]] == ["SKJELETT"] and game.rails[0] == []
    with pytest.raises(IllegalMove, match="own word"):
        game.steal(1, 0, "SKJELETTE")
    game.turn_expired()
    game.steal(1, 0, "SKJELETTER")  # stolen back, changed again
    assert len(game.rails[2]) == 1


def test_companion_game_never_puts_more_copies_of_a_letter_on_rails_than_the_set_has():
    game = _companion()
    game.make_word("BÅT")
    game.make_word("ÅRE")
    with pytest.raises(IllegalMove, match="only 2 Å"):
        game.make_word("SÅR")
    game.make_word("kATT")
    with pytest.raises(IllegalMove, match="joker"):
        game.make_word("mATT")


def test_joker_swap_puts_the_letter_in_and_the_joker_on_the_board_without_capturing():
    game = OrdskifteGame.from_dict(_tracked_state(rails=[["kATT"], []], pool="KE", current=1), tiles=load_tiles())
    with pytest.raises(IllegalMove, match="missing the joker"):
        game.steal(0, 0, "KATTE")  # in a steal the joker stays a joker
    event = game.swap_joker(0, 0)
    assert event.kind is EventKind.JOKER_SWAP
    assert [w.notation for w in game.rails[0]] == ["KATT"]  # still player 0's word
    assert game.pool == Counter({"E": 1, JOKER: 1})
    game.steal(0, 0, "KATTEn")  # then steal with the joker from the board
    assert [w.notation for w in game.rails[1]] == ["KATTEn"]
    _assert_tiles_conserved(game)


def test_joker_swap_needs_the_represented_letter_on_the_board():
    game = OrdskifteGame.from_dict(_tracked_state(rails=[["kATT"], []], pool="M", current=1))
    with pytest.raises(IllegalMove, match="no K"):
        game.swap_joker(0, 0)


def _tracked_state(rails, pool, current=0, bag=None, hidden=None):
    """A tracked game state with the given rails and board; all other tiles in the bag."""
    full = load_tiles().full_bag()
    used = Counter(pool)
    for words in rails:
        for w in words:
            used += RailWord(w).tiles
    hidden = hidden or [None] * len(rails)
    used += Counter(t for t in hidden if t)
    rest = full - used if bag is None else Counter(bag)
    return {
        "version": 1,
        "players": [f"P{i}" for i in range(len(rails))],
        "rails": rails,
        "current": current,
        "track_tiles": True,
        "timer_seconds": 60,
        "pool": pool,
        "bag": "".join(sorted(rest.elements())),
        "hidden": hidden,
        "phase": "playing",
        "winners": [],
        "seed": 5,
        "draws": 0,
        "plays_this_turn": 0,
        "idle_turns": 0,
        "events": [],
    }


def test_tracked_word_must_come_from_the_board():
    game = OrdskifteGame.from_dict(_tracked_state(rails=[[], []], pool="KAT"))
    with pytest.raises(IllegalMove, match="board lacks T"):
        game.make_word("KATT")
    game.make_word("KAT")
    assert not game.pool or sum(game.pool.values()) == 1  # the drawn tile went on the board


def test_dictionary_rejects_a_new_word_tiles_go_to_the_bag_and_play_passes():
    game = OrdskifteGame.from_dict(_tracked_state(rails=[[], []], pool="KATTE"), lexicon=Words("KATT"))
    bag_before = sum(game.bag.values())
    event = game.make_word("TAKT")
    assert event.kind is EventKind.TURN_ENDED
    rejected = [e for e in game.events if e.kind is EventKind.WORD_REJECTED]
    assert rejected and "TAKT is not in the dictionary" in rejected[0].note
    assert game.rails == [[], []] and game.current == 1
    assert game.pool == Counter("E")  # the word's tiles left the board for the bag
    assert sum(game.bag.values()) == bag_before + 4 - 1  # minus the hidden tile drawn at the turn's end
    _assert_tiles_conserved(game)


def test_dictionary_rejects_a_steal_victim_keeps_the_word_added_tiles_to_the_bag():
    game = OrdskifteGame.from_dict(_tracked_state(rails=[["KATT"], []], pool="ER", current=1), lexicon=Words("KATTER"))
    game.steal(0, 0, "KATTE")
    assert [w.notation for w in game.rails[0]] == ["KATT"] and game.rails[1] == []
    assert game.current == 0
    assert game.pool["E"] == 0 and game.pool["R"] == 1
    assert [e.kind for e in game.events] == [EventKind.STEAL_REJECTED, EventKind.TURN_ENDED]
    assert game.events[0].tiles == "E"
    _assert_tiles_conserved(game)


def test_manual_dispute_after_a_steal_restores_the_victims_word():
    game = _companion(3)
    game.make_word("STJELE")
    game.make_word("BUSS")
    game.turn_expired()
    game.steal(0, 0, "SKJELETT")
    game.reject_last_play("not accepted by the other players")
    assert [w.notation for w in game.rails[0]] == ["STJELE", "BUSS"]  # back in its place
    assert game.rails[1] == [] and game.current == 2
    with pytest.raises(GameStateError, match="no word or steal"):
        game.reject_last_play()


def test_manual_dispute_of_the_sixth_word_reopens_the_game():
    game = _companion()
    for word in ("BUSS", "SKI", "FLY", "POTTE", "BIL", "DUK"):
        game.make_word(word)
    assert game.is_over and game.winners == [0]
    game.reject_last_play()
    assert not game.is_over and game.winners == [] and len(game.rails[0]) == 5
    assert game.current == 1


def test_all_fourteen_rails_in_use_allows_only_steals():
    rails = [["BIL", "SKI", "FLY", "DUK"], ["POT", "BUS", "MUR", "VEI"], ["HUS", "REV", "GEO"], ["NAV", "LEK", "ORD"]]
    game = OrdskifteGame.from_dict(_tracked_state(rails=rails, pool="AEN"))
    assert game.spare_rails == 0
    with pytest.raises(IllegalMove, match="only steals"):
        game.make_word("ANE")
    game.steal(2, 0, "HUSE")
    assert len(game.rails[0]) == 5


def test_empty_bag_and_a_round_without_a_word_ends_the_game_most_rails_wins():
    state = _tracked_state(rails=[["BIL", "SKI"], ["POT", "BUS"], ["HUS"]], pool="Q", bag="")
    state["pool"] = "X"
    game = OrdskifteGame.from_dict(state)
    for _ in range(2):
        game.turn_expired()
        assert not game.is_over
    game.turn_expired()
    assert game.is_over and game.winners == [0, 1]  # a tie shares the win


def test_events_serialise_and_name_the_player():
    game = _companion()
    game.make_word("KATT")
    game.turn_expired()
    game.steal(0, 0, "KATTER")
    data = [e.to_dict() for e in game.events]
    assert data[-1] == {
        "kind": "steal",
        "player": 1,
        "word": "KATTER",
        "old": "KATT",
        "victim": 0,
        "rail": 0,
        "tiles": "ER",
    }


# --------------------------------------------------------------------------- CLI


def _run(capsys, *argv):
    code = main(["ordskifte", "steal", *argv])
    out = capsys.readouterr()
    return code, out.out.strip(), out.err.strip()


def test_cli_valid_and_invalid_steals(capsys):
    assert _run(capsys, "STJELE", "SKJELETT", "--no-dictionary") == (0, "VALID", "")
    assert _run(capsys, "?ATT", "TApET", "--no-dictionary") == (0, "VALID", "")
    code, out, _ = _run(capsys, "STJELE", "SKJELT", "--no-dictionary")
    assert code == 1 and out.startswith("INVALID: does not use all letters of STJELE")
    assert _run(capsys, "STJELE", "STJELE", "--no-dictionary") == (1, "INVALID: adds no letter", "")


def test_cli_bad_notation_exits_2_with_a_message(capsys):
    code, out, err = _run(capsys, "stjele", "skjelett", "--no-dictionary")
    assert code == 2 and out == "" and "jokers" in err


def test_cli_checks_the_dictionary(capsys, monkeypatch):
    import device.commands.ordskifte as command

    monkeypatch.setattr(command, "open_word_list", lambda lang, name=None: Words("SKJELETT"))
    assert _run(capsys, "STJELE", "SKJELETT") == (0, "VALID", "")
    assert _run(capsys, "STJELE", "STJELEK") == (1, "INVALID: STJELEK is not in the dictionary", "")


def test_cli_exits_2_when_the_dictionary_cannot_be_opened(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path))  # no lexicons built here
    code, out, err = _run(capsys, "STJELE", "SKJELETT")
    assert code == 2 and out == "" and err.startswith("ordvakt:")


def test_cli_with_the_real_norwegian_lexicon(capsys):
    import device.commands.ordskifte as command

    try:
        command.open_word_list("nb")
    except LexiconError as exc:
        pytest.skip(f"no Norwegian lexicon installed ({exc}); run `ordvakt lexicon build`")
    assert _run(capsys, "STJELE", "SKJELETT") == (0, "VALID", "")
    code, out, _ = _run(capsys, "STJELE", "STJELEKK")
    assert code == 1 and "not in the dictionary" in out

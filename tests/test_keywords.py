# SPDX-License-Identifier: GPL-3.0-or-later
"""Keywords: the key set, the half-FUNKEYS rule and round scoring (seed 002 examples), tracked rounds
with action keys, a match to a target, the CLI."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from engine.errors import GameStateError, IllegalMove, InvalidNotation, LexiconError
from engine.keywords import (
    KeyKind,
    KeyWord,
    KeywordsMatch,
    KeywordsRound,
    MatchPhase,
    Place,
    RoundEventKind,
    RoundPhase,
    check_word,
    load_keyset,
    score_round,
)


class Words:
    def __init__(self, *words: str) -> None:
        self.words = set(words)
        self.asked: list[str] = []

    def contains(self, word: str) -> bool:
        self.asked.append(word)
        return word in self.words


# --------------------------------------------------------------------------- keys


def test_the_41_keys_and_their_kinds():
    keys = load_keyset()
    assert len(keys.keys) == len(set(keys.keys)) == 41
    kinds = Counter(keys.kind(k) for k in keys.keys)
    assert kinds == {KeyKind.LETTER: 26, KeyKind.FUNKEY: 8, KeyKind.ACTION: 7}
    assert set(keys.actions) == {"PGUP", "PGDN", "HOME", "DELETE", "INSERT", "ESC", "END"}
    with pytest.raises(InvalidNotation):
        keys.kind("F9")


def test_action_effects_match_the_seed_sheet():
    actions = load_keyset().actions
    effects = {name: (a.source, a.dest, a.count, a.ends_round) for name, a in actions.items()}
    assert effects == {
        "PGUP": (Place.BAG, Place.SELF, 2, False),
        "PGDN": (Place.BAG, Place.OPPONENT, 1, False),
        "HOME": (Place.SELF, Place.BAG, 1, False),
        "DELETE": (Place.OPPONENT, Place.BAG, 1, False),
        "INSERT": (Place.OPPONENT, Place.SELF, 1, False),
        "ESC": (Place.SELF, Place.OPPONENT, 1, False),
        "END": (None, None, 0, True),
    }


# --------------------------------------------------------------------------- words and scores (seed examples)


@pytest.mark.parametrize("word", ["CRAPAUD", "?D", "T?A?", "dD", "TeAm"])
def test_seed_examples_allowed(word):
    assert check_word(word).ok


def test_seed_example_three_funkeys_in_four_keys_refused():
    check = check_word("T???")
    assert not check.ok
    assert "at most half of a word may be FUNKEYS" in check.reason


def test_words_need_two_keys():
    assert not check_word("A").ok and "at least 2" in check_word("A").reason


def test_scoring_longest_word_doubles_its_letters_only():
    assert score_round(["CRAPAUD"]).total == 14
    result = score_round(["?D", "T?A?"])
    assert result.longest == "T?A?"
    assert [(w.word, w.points, w.doubled) for w in result.words] == [("?D", 1, False), ("T?A?", 4, True)]
    assert result.total == 5


def test_two_equally_long_longest_words_get_no_bonus():
    tie = score_round(["MOT", "CLE", "OU"])
    assert tie.longest is None and not any(w.doubled for w in tie.words)
    assert tie.total == 3 + 3 + 2
    unique = score_round(["MOTS", "CLE", "OU"])
    assert unique.longest == "MOTS" and unique.total == 8 + 3 + 2


def test_longest_is_measured_in_keys_including_funkeys():
    result = score_round(["CHAT", "Re?U"])  # both 4 keys long: a tie although CHAT has more letters
    assert result.longest is None and result.total == 4 + 2


def test_unused_keys_cost_one_each_and_scores_can_go_negative():
    assert score_round(["MOT"], unused=2).total == 6 - 2
    assert score_round([], unused=3).total == -3


def test_score_round_names_every_refused_word():
    with pytest.raises(IllegalMove) as info:
        score_round(["T???", "CHAT", "X"])
    assert len(info.value.problems) == 2
    assert "T???" in info.value.problems[0] and "X has 1 key" in info.value.problems[1]


def test_accents_fold_and_lower_case_marks_a_funkey():
    assert KeyWord.parse("ÉTÉ").notation == "ETE"
    word = KeyWord.parse("crapAUD")
    assert (word.letters, word.funkeys) == (3, 4)
    assert not check_word(word).ok


def test_dictionary_check_spells_out_funkeys_or_searches_two_unknown_ones():
    words = Words("TEAM", "CRAPAUD")
    assert check_word("CRAPAUD", words).ok
    assert check_word("TeAm", words).ok
    found = check_word("T?A?", words)
    assert found.ok and found.reading == "TEAM"
    assert check_word("TrAm", words).reason == "TRAM is not in the dictionary"
    three = check_word("CR??A?D", words)
    assert not three.ok and "say which letters" in three.reason


@given(
    words=st.lists(st.from_regex(r"[A-Z][A-Za-z?]{1,7}", fullmatch=True), min_size=1, max_size=5),
    seed=st.integers(0, 1000),
    unused=st.integers(0, 5),
)
def test_score_properties(words, seed, unused):
    words = [w for w in words if check_word(w).ok]
    if not words:
        return
    result = score_round(words, unused)
    letters = sum(KeyWord(w).letters for w in words)
    longest = max(KeyWord(w).letters for w in words)
    assert letters - unused <= result.total <= letters + longest - unused
    shuffled = list(words)
    random.Random(seed).shuffle(shuffled)
    assert score_round(shuffled, unused).total == result.total  # word order never matters
    bonus = sum(w.points - KeyWord(w.word).letters for w in result.words)
    assert bonus == (KeyWord(result.longest).letters if result.longest else 0)


# --------------------------------------------------------------------------- a tracked round


def _round(bag, hands, current=0, **extra):
    r = KeywordsRound.new(current, rng=random.Random(0))
    r.bag = sorted(bag)
    r.hands = [list(h) for h in hands]
    for key, value in extra.items():
        setattr(r, key, value)
    return r


def _all_keys(r: KeywordsRound) -> Counter:
    return Counter(r.bag) + Counter(r.hands[0]) + Counter(r.hands[1]) + Counter(r.table)


def test_insert_waits_for_a_choice_and_locks_the_victim():
    r = _round(["INSERT"], [["A"], ["B", "F3"]])
    r.draw()
    assert r.phase is RoundPhase.CHOOSING and r.chooser == 0
    assert r.choices() == ["B", "F3"]
    with pytest.raises(IllegalMove, match="choose one of"):
        r.choose("A")
    r.choose("F3")
    assert r.hands == [["A", "F3"], ["B"]] and r.table == ["INSERT"]
    assert r.locked == [False, True]
    r.end_turn()
    r.draw()  # player 1's turn: unlocked; the bag is empty so the round ends
    assert r.locked[1] is False and r.is_over
    assert r.events[-1].note == "the bag is empty"


def test_home_with_one_key_needs_no_choice_and_funkeys_can_be_protected():
    r = _round(["HOME"], [["Q"], []])
    r.draw()
    assert r.hands[0] == [] and r.bag == ["Q"]
    protected = _round(["HOME"], [["F1"], []], actions_move_funkeys=False)
    protected.draw()
    assert protected.hands[0] == ["F1"] and protected.events[-1].kind is RoundEventKind.NO_EFFECT


def test_delete_on_an_empty_hand_has_no_effect_and_esc_gives_a_key_away():
    r = _round(["DELETE"], [["A"], []])
    r.draw()
    assert r.events[-1].kind is RoundEventKind.NO_EFFECT and r.hands == [["A"], []]
    esc = _round(["ESC"], [["A", "B"], []])
    esc.draw()
    esc.choose("B")
    assert esc.hands == [["A"], ["B"]] and esc.locked == [False, True]


def test_an_action_drawn_by_an_action_is_carried_out_too():
    r = _round(["PGUP", "PGDN"], [[], []])
    r.draw()
    assert sorted(r.table) == ["PGDN", "PGUP"]
    assert r.hands == [[], []] and r.bag == []
    assert [e.kind for e in r.events].count(RoundEventKind.ACTION) == 2


def test_end_ends_the_round_and_only_then_can_it_be_scored():
    r = _round(["END", "E"], [["C", "H", "A", "T", "F1"], ["O", "U"]])
    with pytest.raises(GameStateError, match="not over"):
        r.score([[], []])
    while not r.is_over:
        r.draw() if r.phase is RoundPhase.AWAIT_DRAW else r.end_turn()
    assert r.table == ["END"]
    with pytest.raises(GameStateError, match="cannot draw"):
        r.draw()
    a, b = r.score([["CHAT"], ["OU"]])
    loose = 2 if "E" in r.hands[0] else 1  # F1, and E if player 0 drew it before End came
    assert a.total == 8 - loose
    assert b.total == 4 - (1 if "E" in r.hands[1] else 0)


def test_scoring_a_round_refuses_keys_the_player_does_not_hold():
    r = _round(["END"], [["M", "O", "T"], ["F1"]])
    r.draw()
    with pytest.raises(IllegalMove, match="does not hold the keys S"):
        r.score([["MOTS"], []])
    with pytest.raises(IllegalMove, match="FUNKEY"):
        r.score([["MOTs"], []])
    with pytest.raises(IllegalMove, match="does not hold the keys O"):
        r.score([["MOT"], ["Oo"]])


def _play_round(r: KeywordsRound, rng: random.Random) -> None:
    all_keys = _all_keys(r)
    while not r.is_over:
        if r.phase is RoundPhase.AWAIT_DRAW:
            r.draw()
        elif r.phase is RoundPhase.CHOOSING:
            r.choose(rng.choice(r.choices()))
        else:
            r.end_turn()
        assert _all_keys(r) == all_keys  # no key appears or vanishes


def _greedy_words(r: KeywordsRound, player: int) -> list[str]:
    """One word of every letter held plus as many FUNKEYS as the half rule allows."""
    keys = load_keyset()
    letters = [k for k in r.hands[player] if keys.kind(k) is KeyKind.LETTER]
    funkeys = [k for k in r.hands[player] if keys.kind(k) is KeyKind.FUNKEY]
    word = "".join(letters) + "?" * min(len(funkeys), len(letters))
    return [word] if len(word) >= 2 else []


def test_a_whole_round_conserves_the_41_keys_and_ends():
    r = KeywordsRound.new(1, rng=random.Random(42))
    _play_round(r, random.Random(1))
    assert r.events[-1].kind is RoundEventKind.ROUND_OVER
    assert r.events[0].player == 1  # the starter drew first
    scores = r.score([_greedy_words(r, 0), _greedy_words(r, 1)])
    assert len(scores) == 2


def test_round_state_round_trips_mid_choice():
    r = _round(["INSERT", "A", "END"], [["B"], ["C", "D"]])
    _ = r.to_dict()
    while r.phase is not RoundPhase.CHOOSING and not r.is_over:
        r.draw() if r.phase is RoundPhase.AWAIT_DRAW else r.end_turn()
    saved = r.to_dict()
    again = KeywordsRound.from_dict(saved)
    assert again.to_dict() == saved
    if not r.is_over:
        choice = r.choices()[0]
        r.choose(choice)
        again.choose(choice)
        assert again.to_dict() == r.to_dict()


# --------------------------------------------------------------------------- a match


def test_a_match_to_a_target_with_tracked_rounds():
    match = KeywordsMatch(["Ana", "Ben"], target=30, first_starter=1)
    rng = random.Random(2024)
    starters = []
    while not match.is_over:
        r = match.new_round(rng)
        starters.append(r.starter)
        _play_round(r, rng)
        scores = r.score([_greedy_words(r, 0), _greedy_words(r, 1)])
        match.record_round(scores)
        assert len(match.round_scores) < 50
    assert starters[:4] == [1, 0, 1, 0][: len(starters[:4])]
    totals = match.totals
    assert max(totals) >= 30 and match.phase is MatchPhase.FINISHED
    assert match.winners == [i for i in (0, 1) if totals[i] == max(totals)]
    before_last = [sum(s[i] for s in match.round_scores[:-1]) for i in (0, 1)]
    assert max(before_last) < 30  # the match stopped at the first round that reached the target
    restored = KeywordsMatch.from_dict(match.to_dict())
    assert restored == match
    with pytest.raises(GameStateError, match="over"):
        match.new_round(rng)


def test_a_match_over_a_number_of_rounds_and_a_shared_win():
    match = KeywordsMatch(["Ana", "Ben"], target=None, rounds=2)
    match.record_round([5, 7])
    assert not match.is_over
    assert match.record_round([4, 2]) == (9, 9)
    assert match.is_over and match.winners == [0, 1]


def test_match_needs_two_players_and_a_goal():
    with pytest.raises(GameStateError, match="2 players"):
        KeywordsMatch(["a", "b", "c"])
    with pytest.raises(GameStateError, match="target score or a number of rounds"):
        KeywordsMatch(["a", "b"], target=None, rounds=None)


# --------------------------------------------------------------------------- CLI


def _score(capsys, *argv):
    code = main(["keywords", "score", *argv])
    out = capsys.readouterr()
    return code, out.out.strip(), out.err.strip()


def test_cli_scores_the_seed_examples(capsys):
    assert _score(capsys, "--no-dictionary", "?D", "T?A?")[:2] == (0, "score: 5")
    assert _score(capsys, "--no-dictionary", "--unused", "2", "MOT", "CLE")[:2] == (0, "score: 4")
    code, out, err = _score(capsys, "--no-dictionary", "CRAPAUD")
    assert (code, out) == (0, "score: 14")
    assert "one key per letter" in err  # two As on a one-A keyboard: noted, not refused


def test_cli_refuses_too_many_funkeys(capsys):
    code, out, _ = _score(capsys, "--no-dictionary", "T???", "MOT")
    assert code == 1
    assert out == "refused: T??? has 3 FUNKEYS in 4 keys; at most half of a word may be FUNKEYS"


def test_cli_checks_words_with_the_dictionary(capsys, monkeypatch):
    import device.commands.keywords as command

    monkeypatch.setattr(command, "open_word_list", lambda lang, name=None: Words("CRAPAUD", "MOT"))
    assert _score(capsys, "CRAPAUD", "MOT")[:2] == (0, "score: 17")
    code, out, _ = _score(capsys, "CRAPAUD", "MOZ")
    assert (code, out) == (1, "refused: MOZ is not in the dictionary")


def test_cli_says_clearly_when_words_are_not_checked(capsys, monkeypatch):
    import device.commands.keywords as command

    def unavailable(lang, name=None):
        raise LexiconError(f"no {lang} word list is built")

    monkeypatch.setattr(command, "open_word_list", unavailable)
    code, out, err = _score(capsys, "MOT")
    assert (code, out) == (0, "score: 6")
    assert "not checked against a dictionary" in err and "no fr word list" in err
    code, out, err = _score(capsys, "--lexicon", "ods", "MOT")
    assert code == 2 and out == "" and "no fr word list" in err


def test_cli_with_the_real_french_lexicon(capsys):
    import device.commands.keywords as command

    try:
        command.open_word_list("fr")
    except LexiconError as exc:
        pytest.skip(f"no French lexicon installed ({exc}); run `ordvakt lexicon build fr`")
    assert _score(capsys, "CRAPAUD", "MOT")[:2] == (0, "score: 17")
    assert _score(capsys, "CRAPAUD", "MOTQX")[:2] == (1, "refused: MOTQX is not in the dictionary")

# SPDX-License-Identifier: GPL-3.0-or-later
"""Folding board words to each game's alphabet, and the language table."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.errors import LexiconError
from engine.lexicon import AcceptAll, Judge, Verdict, language, load_languages, normalise, normaliser

TILESETS = Path(__file__).resolve().parent.parent / "engine" / "data" / "tilesets"


@pytest.mark.parametrize(
    ("lang", "word", "expected"),
    [
        ("fr", "être", "ETRE"),
        ("fr", "cœur", "COEUR"),
        ("fr", "Noël", "NOEL"),
        ("fr", "ÇA", "CA"),
        ("de", "Straße", "STRASSE"),
        ("de", "Häuser", "HÄUSER"),
        ("de", "café", "CAFE"),
        ("sv", "idé", "IDE"),
        ("sv", "crêpe", "CREPE"),
        ("sv", "måsöga", "MÅSÖGA"),
        ("nb", "blåbærsyltetøy", "BLÅBÆRSYLTETØY"),
        ("nb", "kafé", "KAFE"),
        ("fi", "päätös", "PÄÄTÖS"),
        ("et", "šokolaad", "ŠOKOLAAD"),
        ("et", "öö", "ÖÖ"),
        ("et", "žürii", "ŽÜRII"),
        ("en", "naïve", "NAIVE"),
        ("en", "encyclopædia", "ENCYCLOPAEDIA"),
    ],
)
def test_folds_to_the_game_alphabet(lang: str, word: str, expected: str) -> None:
    assert normalise(word, lang) == expected


def test_decomposed_input_is_composed_first() -> None:
    # "å" typed as a + combining ring must stay Å in Swedish, not become A.
    assert normalise("ma\u030as", "sv") == "MÅS"
    assert normalise("e\u0301te\u0301", "fr") == "ETE"


def test_letters_without_tiles_make_a_word_unspellable() -> None:
    et = normaliser("et")
    assert et.fold("quiz") == ""  # Estonian tiles have no Q
    assert et.fold("maja") == "MAJA"
    assert normaliser("sv").fold("rock'n'roll") == ""


def test_norwegian_alias_and_unknown_language() -> None:
    assert language("no").code == "nb"
    assert language("NB").code == "nb"
    with pytest.raises(LexiconError, match="unknown language 'xx'"):
        language("xx")


def test_every_tile_letter_is_in_the_language_alphabet() -> None:
    languages = load_languages()
    checked = 0
    for path in sorted(TILESETS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if data["language"] not in languages and data["language"] != "no":
            continue  # a game language the judge does not cover (yet)
        lang = language(data["language"], languages)
        letters = {k for k in data.get("tiles", {}) if len(k) == 1 and k.isalpha()}
        assert letters <= set(lang.alphabet), (path.name, letters - set(lang.alphabet))
        checked += 1
    if not checked:
        pytest.skip(f"no tile sets in {TILESETS}")


def test_accept_all_judge_accepts_anything_and_names_itself() -> None:
    judge = Judge([AcceptAll("sv")], "sv")
    verdict = judge.judge_play(["XQZ", "mesost"])
    assert verdict.acceptable
    assert str(verdict.words[0]) == "VALID in no dictionary"
    assert verdict.words[1].word == "MESOST"


class _Listed:
    enumerable = True

    def __init__(self, words: set[str], name: str) -> None:
        self.words, self.name, self.lang = words, name, "sv"

    def contains(self, word: str) -> bool:
        return word in self.words


class _Checker(_Listed):
    enumerable = False


def test_list_is_binding_and_checker_only_adds_possible() -> None:
    judge = Judge([_Listed({"OST"}, "list"), _Checker({"OST", "OSTBIT"}, "checker")], "sv")
    assert judge.judge_word("ost").verdict is Verdict.VALID
    possible = judge.judge_word("ostbit")
    assert (possible.verdict, possible.source) == (Verdict.POSSIBLE, "checker")
    assert "not listed; accepted by the spell-checker" in str(possible)
    invalid = judge.judge_word("ostx")
    assert (invalid.verdict, invalid.source) == (Verdict.INVALID, "list")
    assert not judge.judge_play(["OST", "OSTBIT"]).acceptable
    lenient = Judge(judge.lexicons, "sv", possible_counts=True)
    assert lenient.judge_play(["OST", "OSTBIT"]).acceptable
    assert not lenient.judge_play(["OST", "OSTX"]).acceptable


def test_empty_play_is_an_error() -> None:
    with pytest.raises(LexiconError):
        Judge([AcceptAll("sv")], "sv").judge_play([])

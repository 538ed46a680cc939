# SPDX-License-Identifier: GPL-3.0-or-later
"""Acceptance: the default lists judge the seed words, proper nouns, junk and the
German phonies; the ``judge`` and ``lexicon`` commands; broken lexicon files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from device import paths
from device.cli import main
from engine.errors import LexiconError
from engine.lexicon import TrieLexicon, Verdict, open_judge
from engine.lexicon.build import build_default, default_is_current, default_list_path, source_installed
from engine.lexicon.languages import language

# Estonian takes about a minute to expand: used when the bootstrap has built it, never built here.
FAST_LANGS = ("sv", "nb", "fi", "en", "fr", "de")


@pytest.fixture(scope="session")
def lexicon_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | str]:
    """Per language: the directory holding its default list, or why there is none.

    Uses the lists the bootstrap built in the default lexicon directory; builds the
    missing ones into a temporary directory.
    """
    installed = paths.lexicon_dir()
    scratch = tmp_path_factory.mktemp("lexicons")
    out: dict[str, Path | str] = {}
    for code in (*FAST_LANGS, "et"):
        if default_is_current(installed, code):
            out[code] = installed
            continue
        lang = language(code)
        if not any(source_installed(s) for s in lang.sources):
            out[code] = f"no source for the {code} list is installed ({lang.sources[0].package})"
        elif code == "et":
            out[code] = "the Estonian list is not built (ordvakt lexicon build et, about a minute)"
        else:
            build_default(code, scratch)
            out[code] = scratch
    return out


def judge_for(lexicon_dirs, code: str):
    where = lexicon_dirs[code]
    if isinstance(where, str):
        pytest.skip(where)
    return open_judge(code, where)


SEEDS = {
    "sv": ["MESOST", "STOPP", "OST", "ORO", "TAK"],
    "nb": ["STJELE", "SKJELETT", "KUSINE"],
    "fi": ["OVI"],
    "fr": ["CRAPAUD", "MOTS"],
    "en": ["QI", "ZA", "AA", "JO"],
    "et": ["MAJA", "MAJADES"],
}
NAMES = {"sv": "STOCKHOLM", "nb": "OSLO", "fi": "HELSINKI", "en": "LONDON", "fr": "MARSEILLE", "et": "TALLINN"}


@pytest.mark.parametrize("code", sorted(SEEDS))
def test_seed_words_are_acceptable_and_listed(lexicon_dirs, code: str) -> None:
    judge = judge_for(lexicon_dirs, code)
    verdict = judge.judge_play(SEEDS[code])
    assert verdict.acceptable, [str(w) for w in verdict.words]
    assert all(w.verdict is Verdict.VALID for w in verdict.words)
    assert all(w.source == judge.lexicons[0].name for w in verdict.words)


@pytest.mark.parametrize("code", sorted(NAMES))
def test_proper_nouns_and_junk_are_unacceptable(lexicon_dirs, code: str) -> None:
    judge = judge_for(lexicon_dirs, code)
    assert not judge.judge_play([NAMES[code]]).acceptable
    assert not judge.judge_play(["XQVKRZ"]).acceptable
    # One bad word sinks the whole play, whatever the others are.
    assert not judge.judge_play([*SEEDS[code], NAMES[code]]).acceptable


def test_german_phonies_from_game03_are_unacceptable(lexicon_dirs) -> None:
    judge = judge_for(lexicon_dirs, "de")
    for phony in ("NEUENDER", "RENTENDE"):
        wv = judge.judge_word(phony)
        assert wv.verdict is Verdict.INVALID, str(wv)
    assert judge.judge_play(["HAUS", "STRASSE", "HÄUSER"]).acceptable


def test_finnish_voikko_vouches_for_unlisted_compounds(lexicon_dirs) -> None:
    judge = judge_for(lexicon_dirs, "fi")
    if len(judge.lexicons) < 2:
        pytest.skip("Voikko (libvoikko1, voikko-fi) is not installed")
    wv = judge.judge_word("ovikissa")
    assert wv.verdict is Verdict.POSSIBLE and wv.source == "voikko-fi"
    assert judge.judge_play(["OVI", "OVIKISSA"]).acceptable  # Finnish counts Voikko's POSSIBLE
    assert not judge.judge_play(["OVI", "HELSINKI"]).acceptable


def test_spell_checker_is_never_asked_in_capitals(lexicon_dirs) -> None:
    judge = judge_for(lexicon_dirs, "nb")
    if len(judge.lexicons) < 2:
        pytest.skip("hunspell-no is not installed")
    checker = judge.lexicons[1]
    assert not checker.contains("OSLO")  # hunspell itself accepts "OSLO" in capitals
    assert checker.contains("SKJELETTBILENE")  # a compound no list has
    assert judge.judge_word("SKJELETTBILENE").verdict is Verdict.POSSIBLE
    assert not judge.judge_play(["SKJELETTBILENE"]).acceptable  # not Finnish: the list is binding


@pytest.fixture
def data_dir(lexicon_dirs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ORDVAKT_DATA_DIR whose lexicons/ holds copies of the sv and de lists."""
    lexdir = tmp_path / "lexicons"
    lexdir.mkdir()
    for code in ("sv", "de"):
        where = lexicon_dirs[code]
        if isinstance(where, str):
            pytest.skip(where)
        src = default_list_path(where, code)
        shutil.copy(src, lexdir / src.name)
        shutil.copy(src.with_suffix(".json"), lexdir / src.with_suffix(".json").name)
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path))
    return lexdir


def test_judge_command_exit_codes_and_each(data_dir: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["judge", "--lang", "sv", "mesost", "ost"]) == 0
    assert capsys.readouterr().out.strip() == "ACCEPTABLE"
    assert main(["judge", "--lang", "sv", "--each", "MESOST", "STOCKHOLM"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["MESOST: VALID in hunspell-sv-2026", "STOCKHOLM: INVALID in hunspell-sv-2026", "UNACCEPTABLE"]
    assert main(["judge", "--lang", "de", "NEUENDER"]) == 1


def test_judge_command_cannot_judge(data_dir: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["judge", "--lang", "klingon", "QAPLA"]) == 2
    assert "unknown language 'klingon'" in capsys.readouterr().err
    assert main(["judge", "--lexicon", "NSF-2099", "ORD"]) == 2
    assert "ordvakt lexicon import" in capsys.readouterr().err


def test_lexicon_list_shows_lists(data_dir: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["lexicon", "list"]) == 0
    out = capsys.readouterr().out
    assert "hunspell-sv-2026" in out and "wngerman" in out


def test_truncated_or_corrupt_list_names_file_and_fix(data_dir: Path, capsys: pytest.CaptureFixture) -> None:
    trie = default_list_path(data_dir, "sv")
    data = trie.read_bytes()
    trie.write_bytes(data[: len(data) // 2])
    with pytest.raises(LexiconError, match="truncated or corrupt") as info:
        TrieLexicon(trie)
    assert str(trie) in str(info.value) and "ordvakt lexicon build sv" in str(info.value)
    trie.write_bytes(b"\0garbage!" * (len(data) // 9) + b"\0" * (len(data) % 9))
    with pytest.raises(LexiconError, match="corrupt"):
        TrieLexicon(trie)
    assert main(["judge", "--lang", "sv", "OST"]) == 2
    err = capsys.readouterr().err
    assert str(trie) in err and "Traceback" not in err
    assert main(["lexicon", "list"]) == 0
    assert "UNUSABLE" in capsys.readouterr().out
    trie.with_suffix(".json").write_text("{not json", encoding="utf-8")
    with pytest.raises(LexiconError, match="manifest"):
        TrieLexicon(trie)


def test_missing_source_package_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import engine.lexicon.build as build

    monkeypatch.setattr(build, "source_installed", lambda source: False)
    with pytest.raises(LexiconError, match="wnorwegian"):
        build_default("nb", tmp_path)
    assert main(["lexicon", "build", "nb", "--dir", str(tmp_path)]) == 2
    assert "wnorwegian" in capsys.readouterr().err
    # --all reports each missing source but does not fail the bootstrap.
    assert main(["lexicon", "build", "--all", "--missing-only", "--dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "nb: not built" in err and "hunspell-fr-classical" in err and "not built: " in err
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path))
    assert main(["judge", "--lang", "fr", "MOTS"]) == 2
    assert "ordvakt lexicon build fr" in capsys.readouterr().err


def test_missing_hunspell_dictionary_names_package(tmp_path: Path) -> None:
    from engine.lexicon.hunspell import find_dictionary

    with pytest.raises(LexiconError, match="apt-get install hunspell-no"):
        find_dictionary((tmp_path / "nb_NO",), "hunspell-no")

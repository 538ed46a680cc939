# SPDX-License-Identifier: GPL-3.0-or-later
"""DAWG word lists: same answers as marisa on real words, both readers, corrupt files,
the dawg2-missing fall-back, and lists that exist as .dawg, .marisa or both."""

from __future__ import annotations

import json
import random
import sys
import types
from pathlib import Path

import pytest

import engine.lexicon.trie as trie_mod
from device import paths
from device.cli import main
from engine.errors import LexiconError
from engine.lexicon import DawgLexicon, TrieLexicon, open_judge, open_list
from engine.lexicon.build import (
    build_default,
    clean_forms,
    default_is_current,
    default_list_path,
    read_word_file,
    source_installed,
)
from engine.lexicon.importing import import_list
from engine.lexicon.judge import find_list, installed_lists
from engine.lexicon.languages import language
from engine.lexicon.normalise import NORMALISER_VERSION, Normaliser
from engine.lexicon.trie import Manifest, SortedForms, write_forms

pytest.importorskip("dawg", reason="dawg2 (the DAWG builder) is not installed: pip install dawg2 (x86_64)")


def manifest(lang: str, name: str = "test-list") -> Manifest:
    return Manifest(name=name, lang=lang, count=0, trie_bytes=0, normaliser_version=NORMALISER_VERSION, kind="user")


def mutants(words: list[str], alphabet: str, rnd: random.Random) -> list[str]:
    out = []
    for w in words:
        i = rnd.randrange(len(w))
        out.append(w[:i] + rnd.choice(alphabet) + w[i + 1 :])
    return out


def both_backends(words: list[str], directory: Path, lang: str) -> tuple[TrieLexicon, DawgLexicon]:
    m = write_forms(words, directory / "m" / "list", manifest(lang), backend="marisa")
    d = write_forms(words, directory / "d" / "list", manifest(lang), backend="dawg")
    assert m.path.suffix == ".marisa" and d.path.suffix == ".dawg"
    assert m.manifest.count == d.manifest.count == len(set(words))
    marisa, dawg_ = open_list(m.path), open_list(d.path)
    assert isinstance(marisa, TrieLexicon) and isinstance(dawg_, DawgLexicon)
    return marisa, dawg_


@pytest.fixture(scope="module")
def bokmaal() -> list[str]:
    lang = language("nb")
    if not source_installed(lang.sources[0]):
        pytest.skip(f"{lang.sources[0].resolved()} is not installed (apt-get install {lang.sources[0].package})")
    forms = clean_forms(read_word_file(lang.sources[0].resolved()), Normaliser.for_language(lang), False)
    return random.Random(5).sample(sorted(set(forms)), 30_000)


def test_dawg_and_marisa_agree_on_a_real_list(bokmaal: list[str], tmp_path: Path) -> None:
    rnd = random.Random(7)
    listed = bokmaal[:20_000]  # the other 10,000 are real words that are not listed
    marisa, dawg_ = both_backends(listed * 2, tmp_path, "nb")  # repeats are allowed
    probe = listed[:2000] + bokmaal[20_000:] + mutants(listed[:2000], language("nb").alphabet, rnd)
    answers = [marisa.contains(w) for w in probe]
    assert answers == [dawg_.contains(w) for w in probe]
    assert all(answers[:2000]) and not any(answers[2000:12_000])
    assert sorted(dawg_.words("SKJ")) == sorted(marisa.words("SKJ")) != []
    assert len(dawg_) == len(marisa) == 20_000


def test_pure_python_reader_gives_the_same_answers(
    bokmaal: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("dawg_python", reason="DAWG2-Python is not installed: pip install DAWG2-Python")
    marisa, fast = both_backends(bokmaal[:10_000], tmp_path, "nb")
    assert fast.reader == "dawg2"
    monkeypatch.setitem(sys.modules, "dawg", None)  # as on a Pi where dawg2 has no wheel
    slow = DawgLexicon(fast.path)
    assert slow.reader == "DAWG2-Python"
    probe = bokmaal[5000:15_000] + mutants(bokmaal[:3000], language("nb").alphabet, random.Random(2))
    assert [slow.contains(w) for w in probe] == [marisa.contains(w) for w in probe]
    assert sorted(slow.words("SKJ")) == sorted(marisa.words("SKJ"))
    # Without dawg2 nothing can build a DAWG, so a large list falls back to marisa and says so.
    monkeypatch.setattr(trie_mod, "DAWG_MIN_FORMS", 100)
    written = write_forms(bokmaal[:1000], tmp_path / "fallback", manifest("nb"))
    assert written.path.suffix == ".marisa" and "dawg2 is not installed" in written.note
    with pytest.raises(LexiconError, match="pip install dawg2"):
        write_forms(bokmaal[:1000], tmp_path / "forced", manifest("nb"), backend="dawg")


def test_sorted_runs_merge_to_the_distinct_sorted_forms(tmp_path: Path) -> None:
    rnd = random.Random(3)
    words = ["".join(rnd.choice("ABZÕÄÖÜŠŽ") for _ in range(rnd.randint(2, 6))) for _ in range(5000)]
    with SortedForms(iter(words), tmp_path, run_forms=700) as forms:
        assert forms.spilled and forms.bound >= len(set(words))
        # Code-point order is UTF-8 byte order, the order a DAWG must be fed in.
        assert list(forms) == sorted(set(words), key=lambda w: w.encode("utf-8"))
    assert list(tmp_path.iterdir()) == []


def test_large_list_becomes_a_dawg_only_when_the_dawg_is_smaller(
    bokmaal: list[str], estonian_sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trie_mod, "DAWG_MIN_FORMS", 3000)
    monkeypatch.setattr(trie_mod, "RUN_FORMS", 3000)
    forms, probe = estonian_sample  # paradigm forms: long shared suffixes
    small = write_forms(forms[:2000], tmp_path / "small", manifest("et"))
    large = write_forms(forms, tmp_path / "large", manifest("et"))
    assert small.path.suffix == ".marisa" and large.path.suffix == ".dawg"
    assert large.manifest.count == len(forms) and large.manifest.backend == "dawg"
    marisa_bytes = write_forms(forms, tmp_path / "m" / "large", manifest("et"), backend="marisa").manifest.trie_bytes
    assert large.manifest.trie_bytes < marisa_bytes
    lex = open_list(large.path)
    assert all(lex.contains(w) for w in forms[::7])
    # Bokmål's forms (a word list, not paradigms) make a bigger DAWG than a marisa trie: they stay marisa.
    dawg_bytes = write_forms(bokmaal, tmp_path / "d" / "nb", manifest("nb"), backend="dawg").manifest.trie_bytes
    nb = write_forms(bokmaal, tmp_path / "nb", manifest("nb"))
    assert nb.manifest.backend == "marisa" and nb.manifest.trie_bytes <= dawg_bytes
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [
        "large.dawg", "large.json", "nb.json", "nb.marisa", "small.json", "small.marisa"]


@pytest.mark.parametrize("backend", ["marisa", "dawg", "DAWG2-Python"])
def test_a_list_built_in_parts_answers_like_one_built_whole(
    backend: str, bokmaal: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past PART_FORMS the sorted forms are compiled part by part (bounded memory); lookups, prefixes
    and the count are those of the same list built as one structure."""
    kind = "marisa" if backend == "marisa" else "dawg"
    whole = open_list(write_forms(bokmaal, tmp_path / "whole", manifest("nb"), backend=kind).path)
    monkeypatch.setattr(trie_mod, "PART_FORMS", 1000)
    written = write_forms(bokmaal, tmp_path / "parts", manifest("nb"), backend=kind)
    parts = written.manifest.parts
    assert len(parts) == -(-len(set(bokmaal)) // 1000) and not whole.manifest.parts
    assert [first for first, _, _ in parts] == sorted(set(bokmaal))[::1000]
    assert all(offset % trie_mod.PART_ALIGN == 0 for _, offset, _ in parts)
    if backend == "DAWG2-Python":
        pytest.importorskip("dawg_python")
        monkeypatch.setitem(sys.modules, "dawg", None)
    lex = open_list(written.path)
    if backend == "DAWG2-Python":
        assert lex.reader == "DAWG2-Python"
    assert len(lex) == len(whole) == len(set(bokmaal))
    rnd = random.Random(5)
    probe = rnd.sample(bokmaal, 3000)
    probe += mutants(probe, language("nb").alphabet, rnd) + ["", "A", "ÅÅÅÅ", parts[1][0], parts[-1][0]]
    assert [lex.contains(w) for w in probe] == [whole.contains(w) for w in probe]
    for prefix in ["", "A", "B", "KA", "SKJ", parts[2][0][:2], parts[2][0], "ÆØÅX"]:
        assert sorted(lex.words(prefix)) == sorted(whole.words(prefix)), prefix


def test_a_damaged_part_table_is_one_clear_error(bokmaal: list[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trie_mod, "PART_FORMS", 2000)
    written = write_forms(bokmaal[:9000], tmp_path / "user-nsf", manifest("nb", "NSF"), backend="marisa")
    man_path = written.path.with_suffix(".json")
    good = man_path.read_text(encoding="utf-8")
    data = json.loads(good)
    data["parts"][1][1] = data["trie_bytes"] + 8  # a part past the end of the file
    man_path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LexiconError, match="parts do not fit") as info:
        open_list(written.path)
    assert str(written.path) in str(info.value)
    data = json.loads(good)
    data["parts"][1], data["parts"][2] = data["parts"][2], data["parts"][1]  # out of order
    man_path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LexiconError, match="parts do not fit"):
        open_list(written.path)
    data = json.loads(good)
    data["parts"][1][1] += 8  # a part that does not start where it was written
    man_path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LexiconError, match="corrupt"):
        open_list(written.path).contains(bokmaal[2500])


@pytest.fixture(scope="module")
def estonian_sample() -> tuple[list[str], list[str]]:
    """All forms of 400 random Estonian stems, expanded from the real et_EE hunspell dictionary."""
    from engine.lexicon.expand import expand_parsed, load_dictionary

    lang = language("et")
    source = lang.sources[0]
    if not source_installed(source):
        pytest.skip(f"{source.resolved()} is not installed (apt-get install {source.package})")
    aff, dic = load_dictionary(source.resolved())
    forbid = aff.FORBIDDENWORD or "\0"
    chosen = random.Random(11).sample(dic.words, 400) + [w for w in dic.words if forbid in w.flags]
    forms = sorted(
        set(clean_forms(expand_parsed(aff, types.SimpleNamespace(words=chosen)), Normaliser.for_language(lang), False))
    )
    assert len(forms) > 2000
    rnd = random.Random(12)
    real = rnd.sample(forms, 2000)
    return forms, real + mutants(real, lang.alphabet, rnd)


def test_dawg_and_marisa_agree_on_real_estonian_forms(estonian_sample, tmp_path: Path) -> None:
    forms, probe = estonian_sample
    marisa, dawg_ = both_backends(forms, tmp_path, "et")
    answers = [marisa.contains(w) for w in probe]
    assert all(answers[:2000]) and not all(answers[2000:])
    assert [dawg_.contains(w) for w in probe] == answers


def test_installed_estonian_list_takes_the_real_forms(estonian_sample, monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's default et list (built by the bootstrap) holds every sampled form; read as a
    DAWG, both readers give the same answers on the forms and their mutants."""
    installed = paths.lexicon_dir()
    if not default_is_current(installed, "et"):
        pytest.skip(f"no current default Estonian list in {installed} (ordvakt lexicon build et)")
    _, probe = estonian_sample
    lex = open_list(default_list_path(installed, "et"))
    answers = [lex.contains(w) for w in probe]
    assert all(answers[:2000])
    if isinstance(lex, DawgLexicon) and _has_dawg_python():
        monkeypatch.setitem(sys.modules, "dawg", None)
        slow = open_list(lex.path)
        if isinstance(slow, DawgLexicon):
            assert slow.reader == "DAWG2-Python"
            assert [slow.contains(w) for w in probe] == answers


def _has_dawg_python() -> bool:
    try:
        import dawg_python  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("reader", ["dawg2", "DAWG2-Python"])
def test_corrupt_or_truncated_dawg_names_file_and_fix(
    reader: str, bokmaal: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = write_forms(bokmaal[:5000], tmp_path / "user-nsf", manifest("nb", "NSF"), backend="dawg")
    if reader == "DAWG2-Python":
        pytest.importorskip("dawg_python")
        monkeypatch.setitem(sys.modules, "dawg", None)
    path = written.path
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(LexiconError, match="truncated or corrupt") as info:
        DawgLexicon(path)
    assert str(path) in str(info.value) and "ordvakt lexicon import FILE --lang nb --name NSF" in str(info.value)
    path.write_bytes(b"\x07garbage" * (len(data) // 8) + b"\x01" * (len(data) % 8))
    with pytest.raises(LexiconError, match="corrupt") as info:
        DawgLexicon(path)
    assert str(path) in str(info.value) and "ordvakt lexicon import" in str(info.value)


def test_lists_as_dawg_marisa_or_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    lang = language("nb")
    if not source_installed(lang.sources[0]):
        pytest.skip(f"{lang.sources[0].resolved()} is not installed (apt-get install {lang.sources[0].package})")
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path))
    lexdir = paths.lexicon_dir()
    old = build_default("nb", lexdir, backend="marisa")
    assert old.path.suffix == ".marisa" and default_is_current(lexdir, "nb")  # counts as built
    stale = old.path.read_bytes()
    new = build_default("nb", lexdir, backend="dawg")
    assert new.path.suffix == ".dawg" and not old.path.exists()  # the rebuild replaced the .marisa
    assert default_list_path(lexdir, "nb") == new.path
    old.path.write_bytes(stale)  # both present: the .dawg (described by the manifest) wins
    assert default_list_path(lexdir, "nb") == new.path and default_is_current(lexdir, "nb")
    with pytest.raises(LexiconError, match="stale"):
        open_list(old.path)
    assert [p for p, _, _ in installed_lists(lexdir)] == [new.path]
    assert find_list(lexdir, "default-nb") == new.path == find_list(lexdir, new.manifest.name)
    verdict = open_judge("nb", lexdir).judge_play(["STJELE", "SKJELETT", "KUSINE"])
    assert verdict.acceptable and verdict.words[0].source == new.manifest.name
    assert not open_judge("nb", lexdir).judge_play(["OSLO"]).acceptable
    # A user list large enough to become a DAWG, through the commands.
    monkeypatch.setattr(trie_mod, "DAWG_MIN_FORMS", 2)
    src = tmp_path / "mine.txt"
    src.write_text("hus\nhytte\nfjell\n", encoding="utf-8")
    result = import_list(src, "nb", "Mine", lexdir)
    assert result.path.suffix == ".dawg" and result.manifest.count == 3
    assert main(["lexicon", "list"]) == 0
    out = capsys.readouterr().out
    assert "Mine" in out and new.manifest.name in out and "UNUSABLE" not in out
    assert main(["judge", "--lexicon", "Mine", "HYTTE", "FJELL"]) == 0
    assert main(["judge", "--lexicon", "Mine", "HYTTE", "STJELE"]) == 1
    assert isinstance(TrieLexicon(result.path), DawgLexicon)  # older callers' TrieLexicon(path) still works


def test_an_imported_list_past_part_forms_is_compiled_in_parts_and_leaves_no_temporary_files(
    bokmaal: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import path (system sort, parts, the DAWG-or-marisa choice) on 30,000 real Bokmål words."""
    monkeypatch.setattr(trie_mod, "PART_FORMS", 4000)
    monkeypatch.setattr(trie_mod, "DAWG_MIN_FORMS", 1000)
    monkeypatch.setattr(trie_mod, "COMPARE_FORMS", 2000)
    listed = bokmaal[:20_000]
    src = tmp_path / "nsf.txt"
    src.write_text("".join(w.lower() + "\n" for w in reversed(listed)), encoding="utf-8")
    lexdir = tmp_path / "lex"
    result = import_list(src, "nb", "NSF", lexdir)
    assert result.manifest.count == len(set(listed)) and len(result.manifest.parts) == 5
    assert sorted(p.name for p in lexdir.iterdir()) == ["user-NSF.json", f"user-NSF{result.path.suffix}"]
    judge = open_judge("nb", lexdir, "NSF")
    assert all(judge.judge_play([w]).acceptable for w in listed[::97])
    assert not any(judge.judge_play([w]).acceptable for w in bokmaal[20_000::97] if w not in set(listed))

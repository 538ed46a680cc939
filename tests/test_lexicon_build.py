# SPDX-License-Identifier: GPL-3.0-or-later
"""The fast paths of the default-list build give exactly what the plain ones give, on the real dictionaries:
per-letter folding, per-stem folding of (stem part, added letters) pairs, and sorting with ``sort -u``."""

from __future__ import annotations

import io
import random
import types
from pathlib import Path

import pytest

from device.commands.lexicon import ProgressBar
from engine.lexicon.build import LetterFolder, clean_forms, clean_stem_forms, read_word_file, source_installed
from engine.lexicon.expand import expand_parsed, expand_stems, load_dictionary
from engine.lexicon.languages import language, load_languages
from engine.lexicon.normalise import Normaliser
from engine.lexicon.trie import ExternalSortedForms, SortedForms

HUNSPELL_LANGS = [code for code, lang in load_languages().items() if any(s.kind == "hunspell" for s in lang.sources)]


def hunspell_source(code: str):
    source = next(s for s in language(code).sources if s.kind == "hunspell")
    if not source_installed(source):
        pytest.skip(f"{source.resolved()} is not installed ({source.package})")
    return source


@pytest.mark.parametrize("code", sorted(load_languages()))
def test_letter_folder_equals_the_normaliser_on_real_words(code):
    lang = language(code)
    norm = Normaliser.for_language(lang)
    words: list[str] = []
    for source in lang.sources:
        if source.kind == "wordlist" and source_installed(source):
            words += random.Random(3).sample(read_word_file(source.resolved()), 3000)
    # Every letter of every alphabet, in both cases and decomposed, and letters outside them.
    words += [*lang.alphabet, lang.alphabet.lower(), "Straße", "cœur", "e\u0301te\u0301", "naïve", "Øl", "œuvre",
              "ĳs", "ǅ", "x1", "über", "ÅÄÖ", "šokk", "žürii", "", "ad hoc", "bästa kompis", "a\tb", " kala "]
    fast = LetterFolder(norm)
    assert [fast(w) for w in words] == [norm.fold(w) for w in words]


@pytest.mark.parametrize("code", HUNSPELL_LANGS)
def test_per_stem_folding_gives_the_forms_of_per_form_folding(code):
    source = hunspell_source(code)
    lang = language(code)
    aff, dic = load_dictionary(source.resolved())
    dic.words = random.Random(7).sample(dic.words, min(4000, len(dic.words)))
    norm = Normaliser.for_language(lang)
    # The reference: every form folded on its own by the normaliser (what the build did before the fast paths).
    plain = [folded for form in expand_parsed(aff, dic) if len(form.strip()) >= 2
             and not (form.strip()[0].isupper() and (not lang.keep_capitalised or form.strip().isupper()))
             and 2 <= len(folded := norm.fold(form)) <= 17]
    assert len(plain) > 4000
    assert list(clean_forms(expand_parsed(aff, dic), norm, lang.keep_capitalised)) == plain
    assert list(clean_stem_forms(expand_stems(aff, dic), norm, lang.keep_capitalised)) == plain


def test_pairs_join_to_the_forms_and_progress_is_reported():
    source = hunspell_source("et")
    aff, dic = load_dictionary(source.resolved())
    dic.words = dic.words[:12000]
    seen: list[tuple[int, int]] = []
    stems = expand_stems(aff, dic, lambda done, total: seen.append((done, total)))
    joined = [b + a for forms in stems for b, a in forms]
    assert joined == list(expand_parsed(aff, types.SimpleNamespace(words=dic.words)))
    assert seen[0] == (0, 12000) and seen[-1] == (12000, 12000) and len(seen) == 4


@pytest.mark.skipif(not ExternalSortedForms.available(), reason="no sort program")
def test_external_sort_is_code_point_order_without_repeats(tmp_path: Path):
    rng = random.Random(5)
    letters = "ABCDEFGHIJKLMNOPRSTUVZÅÄÖÕÜŠŽÆØ"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(20000)]
    words += words[:5000]
    with ExternalSortedForms(iter(words), tmp_path) as external, SortedForms(iter(words), tmp_path, 3000) as runs:
        got = list(external)
        assert got == list(runs) == sorted(set(words))
        assert external.bound == len(got)
    assert list(tmp_path.iterdir()) == []  # its run file is gone


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_redraws_on_a_terminal_and_logs_quarters_elsewhere():
    log = io.StringIO()
    bar = ProgressBar("et: expanding stems", log)
    for done in range(0, 282_174, 5000):
        bar.update(done, 282_173)
    bar.update(282_173, 282_173)
    bar.done()
    # One line as each quarter is reached (the reports come every 5,000 stems).
    assert log.getvalue().splitlines() == [
        "et: expanding stems: 0% (0/282,173)", "et: expanding stems: 27% (75,000/282,173)",
        "et: expanding stems: 51% (145,000/282,173)", "et: expanding stems: 76% (215,000/282,173)",
        "et: expanding stems: 100% (282,173/282,173)"]
    screen = Terminal()
    bar = ProgressBar("et", screen)
    bar.update(141_000, 282_000)
    bar.done()
    assert screen.getvalue() == "\ret [" + "#" * 15 + "-" * 15 + "]  50%  141,000/282,000\n"

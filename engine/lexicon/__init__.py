# SPDX-License-Identifier: GPL-3.0-or-later
"""Word lists, spell-checkers and the word judge (dispute checking) for seven languages.

Backends: :class:`TrieLexicon` and :class:`DawgLexicon` (compiled full-form lists:
memory-mapped marisa-trie, or a DAWG for huge paradigm lists; binding; open either with
:func:`open_list`), :class:`HunspellLexicon` and :class:`VoikkoLexicon` (second opinions),
:class:`AcceptAll`. The C-extension packages are imported only when a backend is
constructed, so importing this package needs the standard library only.
"""

from engine.lexicon.core import AcceptAll, Lexicon, is_binding
from engine.lexicon.judge import (
    Judge,
    PlayVerdict,
    Verdict,
    WordVerdict,
    accept_all_judge,
    find_list,
    installed_lists,
    open_judge,
)
from engine.lexicon.languages import Language, language, load_languages
from engine.lexicon.normalise import NORMALISER_VERSION, Normaliser, normalise, normaliser
from engine.lexicon.trie import DawgLexicon, Manifest, TrieLexicon, open_list


def __getattr__(name: str):
    # The spell-checker classes pull in nothing at import either, but keep them lazy for symmetry.
    if name == "HunspellLexicon":
        from engine.lexicon.hunspell import HunspellLexicon

        return HunspellLexicon
    if name == "VoikkoLexicon":
        from engine.lexicon.voikko import VoikkoLexicon

        return VoikkoLexicon
    raise AttributeError(name)


__all__ = [
    "NORMALISER_VERSION",
    "AcceptAll",
    "DawgLexicon",
    "Judge",
    "Language",
    "Lexicon",
    "Manifest",
    "Normaliser",
    "PlayVerdict",
    "TrieLexicon",
    "Verdict",
    "WordVerdict",
    "accept_all_judge",
    "find_list",
    "installed_lists",
    "is_binding",
    "language",
    "load_languages",
    "normalise",
    "normaliser",
    "open_judge",
    "open_list",
]

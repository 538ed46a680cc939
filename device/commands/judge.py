# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt judge``: one verdict for a whole play, like a tournament word judge.

Prints ACCEPTABLE (exit 0) or UNACCEPTABLE (exit 1); ``--each`` adds one line per
word with the list or spell-checker that decided. Exit 2 when it cannot judge.
"""

from __future__ import annotations

import argparse
import sys

from device import paths
from engine.errors import LexiconError


def register(subparsers) -> None:
    parser = subparsers.add_parser("judge", help="judge a play's words: ACCEPTABLE or UNACCEPTABLE")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--lang", help="language of the default list: sv nb fi et en fr de (no = nb)")
    which.add_argument("--lexicon", help="an imported or built list by name (see `ordvakt lexicon list`)")
    parser.add_argument("--each", action="store_true", help="also print each word's verdict and source")
    parser.add_argument("words", nargs="+", metavar="WORD", help="every word the play formed")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.lexicon.build import build_default, default_list_path, source_installed
    from engine.lexicon.judge import find_list, open_judge
    from engine.lexicon.languages import language
    from engine.lexicon.trie import open_list

    directory = paths.lexicon_dir()
    if args.lexicon:
        lang = open_list(find_list(directory, args.lexicon)).lang
    else:
        lang = language(args.lang).code
        if not default_list_path(directory, lang).exists() and any(
            source_installed(s) for s in language(lang).sources
        ):
            # First use: build the list now rather than refusing to judge.
            print(f"building the default {lang} word list (first use)...", file=sys.stderr)
            build_default(lang, directory)
    judge = open_judge(lang, directory, args.lexicon)
    words = [w for w in args.words if w.strip()]
    if not words:
        raise LexiconError("no words to judge: give every word the play formed")
    verdict = judge.judge_play(words)
    if args.each:
        for wv in verdict.words:
            print(f"{wv.word}: {wv}")
    print(verdict)
    return 0 if verdict.acceptable else 1

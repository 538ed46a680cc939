# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt keywords score WORD...``: one player's Keywords round score.

A FUNKEY is ``?`` or the lower-case letter it stands for. Prints ``score: N`` (exit 0), or
``refused: <reason>`` for every word that breaks the rules (exit 1).

Dictionary: by default the words are checked with the language's lexicon *if one is installed*; when
none can be opened a ``note:`` on stderr says the words were not checked. ``--lexicon NAME`` insists on
that list (exit 2 if it cannot be opened); ``--no-dictionary`` checks the rules only.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from device.commands.ordskifte import open_word_list
from engine.errors import IllegalMove, LexiconError
from engine.keywords import KeyWord, score_round


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("keywords", help="Keywords (keyboard-key word game) scoring")
    sub = parser.add_subparsers(dest="keywords_command", metavar="ACTION", required=True)
    score = sub.add_parser(
        "score",
        help="score one player's words for a round",
        description=(
            "1 point per letter, 2 per letter of the single longest word (none if two share the length), "
            "FUNKEYS 0, -1 per unused key. FUNKEY: '?' or a lower-case letter."
        ),
    )
    score.add_argument("words", metavar="WORD", nargs="*", help="the words, e.g. CRAPAUD ?D T?A?")
    score.add_argument("--lang", default="fr", help="language of the words (default: fr)")
    score.add_argument("--unused", type=int, default=0, metavar="N", help="keys left out of every word")
    score.add_argument("--lexicon", metavar="NAME", help="word list to check with (must be installed)")
    score.add_argument("--no-dictionary", action="store_true", help="check the rules only, not the words")
    score.add_argument("--explain", action="store_true", help="print the points of every word")
    score.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.unused < 0:
        print(f"refused: --unused must be 0 or more, got {args.unused}")
        return 1
    words = [KeyWord.parse(w) for w in args.words]
    lexicon = None
    if not args.no_dictionary:
        try:
            lexicon = open_word_list(args.lang, args.lexicon)
        except LexiconError as exc:
            if args.lexicon:
                raise
            print(f"note: words not checked against a dictionary: {exc}", file=sys.stderr)
    try:
        result = score_round(words, args.unused, lexicon)
    except IllegalMove as exc:
        for reason in exc.problems or (str(exc),):
            print(f"refused: {reason}")
        return 1
    _note_repeated_keys(words)
    if args.explain:
        for w in result.words:
            print(f"{w.word}: {w.points}{' (longest, doubled)' if w.doubled else ''}")
        if args.unused:
            print(f"unused keys: -{args.unused}")
    print(f"score: {result.total}")
    return 0


def _note_repeated_keys(words: list[KeyWord]) -> None:
    # One keyboard has one key per letter; scoring allows repeats (the seed's CRAPAUD), so only warn.
    used = sum((w.letter_keys for w in words), Counter[str]())
    repeated = sorted(letter for letter, n in used.items() if n > 1)
    if repeated:
        print(
            f"note: the keyboard has one key per letter but {', '.join(repeated)} is used more than once; "
            "a repeated letter is normally a FUNKEY (write it in lower case)",
            file=sys.stderr,
        )

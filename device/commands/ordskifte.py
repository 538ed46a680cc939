# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt ordskifte steal OLD NEW``: is this Ordskifte steal legal?

A joker is ``?`` in OLD; in NEW a lower-case letter shows what a joker stands for (``?ATT`` → ``TApET``).
Prints ``VALID`` (exit 0) or ``INVALID: <reason>`` (exit 1). NEW is checked against the Norwegian
lexicon unless ``--no-dictionary``; a lexicon that cannot be opened is an error (exit 2).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from device import paths
from engine.errors import LexiconError
from engine.ordskifte import validate_steal

LANG = "nb"


@dataclass
class JudgeWordList:
    """Adapts an ``engine.lexicon`` Judge to the ``contains`` protocol the game engines use."""

    judge: Any

    def contains(self, word: str) -> bool:
        return bool(self.judge.judge_play([word]).acceptable)


def open_word_list(lang: str, lexicon_name: str | None = None) -> JudgeWordList:
    """The judge for ``lang`` from :func:`device.paths.lexicon_dir`; raises LexiconError if unusable."""
    try:
        from engine.lexicon import open_judge
    except ImportError as exc:
        raise LexiconError(
            f"the word judge is not available ({exc}); install it or use --no-dictionary"
        ) from exc
    return JudgeWordList(open_judge(lang, paths.lexicon_dir(), lexicon_name))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ordskifte", help="Ordskifte (Norwegian word-stealing game) rules")
    sub = parser.add_subparsers(dest="ordskifte_command", metavar="ACTION", required=True)
    steal = sub.add_parser(
        "steal",
        help="check a steal: all letters of OLD plus at least one more, rearranged",
        description="Check that NEW is a legal steal of OLD. Joker: '?' in OLD, a lower-case letter in NEW.",
    )
    steal.add_argument("old", metavar="OLD", help="the word being stolen, e.g. STJELE or ?ATT")
    steal.add_argument("new", metavar="NEW", help="the new word, e.g. SKJELETT or TApET")
    steal.add_argument(
        "--lexicon", metavar="NAME", help="word list to judge NEW with (default: the nb default)"
    )
    steal.add_argument(
        "--no-dictionary", action="store_true", help="check the letters only, not the dictionary"
    )
    steal.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check = validate_steal(args.old, args.new)
    if check.ok and not args.no_dictionary:
        check = validate_steal(args.old, args.new, open_word_list(LANG, args.lexicon))
    if check.ok:
        print("VALID")
        return 0
    print(f"INVALID: {check.reason}")
    return 1

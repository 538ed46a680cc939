# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt lexicon build|import|list``: the word lists the judge uses."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from device import paths
from engine.errors import LexiconError


def register(subparsers) -> None:
    parser = subparsers.add_parser("lexicon", help="build, import and list word lists")
    sub = parser.add_subparsers(dest="lexicon_command", metavar="ACTION", required=True)

    build = sub.add_parser("build", help="build default word lists from installed packages")
    build.add_argument("langs", nargs="*", metavar="LANG", help="sv nb fi et en fr de (no = nb)")
    build.add_argument("--all", action="store_true", help="every language; a missing source is reported, not fatal")
    build.add_argument("--missing-only", action="store_true", help="skip lists that are already built")
    build.add_argument("--dir", type=Path, help="lexicon directory (default: the data directory's lexicons/)")
    build.set_defaults(func=run_build)

    imp = sub.add_parser("import", help="compile a word list you own (UTF-8/Latin-1 .txt, .gz or .zip)")
    imp.add_argument("file", type=Path)
    imp.add_argument("--lang", required=True)
    imp.add_argument("--name", required=True, help="shown in every verdict, e.g. NSF-2022")
    imp.add_argument("--dir", type=Path)
    imp.set_defaults(func=run_import)

    show = sub.add_parser("list", help="show the installed word lists")
    show.add_argument("--dir", type=Path)
    show.set_defaults(func=run_list)


def _dir(args: argparse.Namespace) -> Path:
    return args.dir or paths.lexicon_dir()


def run_build(args: argparse.Namespace) -> int:
    from engine.lexicon.build import all_languages, build_default, default_is_current
    from engine.lexicon.languages import language

    if args.all == bool(args.langs):
        raise LexiconError("name the languages to build (e.g. `ordvakt lexicon build sv`) or use --all")
    directory = _dir(args)
    codes = all_languages() if args.all else [language(code).code for code in args.langs]
    failed = []
    for code in codes:
        if args.missing_only and default_is_current(directory, code):
            print(f"{code}: already built")
            continue
        bar = ProgressBar(f"{code}: expanding stems", sys.stderr)
        try:
            try:
                result = build_default(code, directory, stems=bar.update)
            finally:
                bar.done()
        except LexiconError as exc:
            if not args.all:
                raise
            print(f"{code}: not built: {exc}", file=sys.stderr)
            failed.append(code)
            continue
        m = result.manifest
        extra = f" (not installed, left out: {', '.join(result.skipped_sources)})" if result.skipped_sources else ""
        print(
            f"{code}: {m.name}: {m.count:,} words, {m.trie_bytes / 1e6:.1f} MB, "
            f"{result.seconds:.1f} s -> {result.path}{extra}"
        )
        if result.note:
            print(f"{code}: {result.note}")
        from engine.lexicon.wordgraph import build_beside

        if (graph := build_beside(result.path)) is not None:
            print(f"{code}: word graph for move analysis -> {graph}")
    if failed:
        print(f"not built: {' '.join(failed)} (the judge says what to install when asked)", file=sys.stderr)
    return 0


class ProgressBar:
    """``label [######------]  42%  118,000/282,173`` on one redrawn line when ``stream`` is a terminal;
    otherwise (a log, CI) one line at each quarter, so logs stay short."""

    WIDTH = 30

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream = stream
        self.tty = stream.isatty()
        self._quarter = -1
        self._drawn = False

    def update(self, done: int, total: int) -> None:
        if total <= 0:
            return
        share = min(1.0, done / total)
        if self.tty:
            filled = round(share * self.WIDTH)
            self.stream.write(f"\r{self.label} [{'#' * filled}{'-' * (self.WIDTH - filled)}] {share:4.0%}  "
                              f"{done:,}/{total:,}")
            self._drawn = True
        elif int(share * 4) > self._quarter:
            self._quarter = int(share * 4)
            self.stream.write(f"{self.label}: {share:.0%} ({done:,}/{total:,})\n")
        self.stream.flush()

    def done(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def run_import(args: argparse.Namespace) -> int:
    from engine.lexicon.importing import import_list

    result = import_list(args.file, args.lang, args.name, _dir(args))
    m = result.manifest
    print(f"imported {m.name!r} ({m.lang}): {m.count:,} words from {str(args.file)!r} ({result.encoding})")
    if result.rejected:
        print(f"rejected {result.rejected:,} lines, for example:")
        for r in result.examples:
            print(f"  line {r.line}: {r.text!r}: {r.reason}")
    print(f"stored in {result.path}; judge with: ordvakt judge --lexicon {m.name!r} WORD...")
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    from engine.lexicon.judge import installed_lists

    directory = _dir(args)
    lists = installed_lists(directory)
    if not lists:
        print(f"no word lists in {directory}; build them with: ordvakt lexicon build --all")
        return 0
    print(f"word lists in {directory}:")
    for path, manifest, problem in lists:
        if manifest is None:
            print(f"  {path.name}: unusable: {problem}")
            continue
        state = f"  UNUSABLE: {problem}" if problem else ""
        print(
            f"  {manifest.name:28} {manifest.lang}  {manifest.kind:7} {manifest.count:>11,} words "
            f"{manifest.trie_bytes / 1e6:6.1f} MB{state}"
        )
    return 0

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt gcg check|show``: replay GCG records and check every score."""

from __future__ import annotations

import argparse
from pathlib import Path

from device.paths import data_dir
from engine.errors import EngineError, GcgError
from engine.gcg import MAX_GCG_BYTES, GcgRecord, Replay, parse_gcg, replay
from engine.inputs import read_at_most


def register(sub: argparse._SubParsersAction) -> None:
    gcg = sub.add_parser("gcg", help="check or show GCG game records")
    gcg_sub = gcg.add_subparsers(dest="gcg_command", metavar="ACTION", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--tiles", metavar="LANG",
                       help="tile set a file does not declare (en, de, sv, no, fi, et, fr, pl or a name: scrabble-de)")
        p.add_argument("--layout", metavar="NAME", help="board layout (default scrabble-15)")
        p.add_argument("--lettered-rows", action="store_true",
                       help="positions use lettered rows (H4 = row H, column 4, across)")

    check = gcg_sub.add_parser("check", help="replay each file and check every move's score and running total")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")
    check.add_argument("-v", "--verbose", action="store_true", help="list every mismatch, not only the first")
    common(check)
    check.set_defaults(func=run_check)

    show = gcg_sub.add_parser("show", help="print the board of a record")
    show.add_argument("file", type=Path, metavar="FILE")
    show.add_argument("--after", type=int, metavar="N", help="after the first N event lines (default: all)")
    common(show)
    show.set_defaults(func=run_show)


def load_record(path: Path) -> GcgRecord:
    try:
        data = read_at_most(path, MAX_GCG_BYTES + 1)  # parse_gcg refuses more than MAX_GCG_BYTES
    except OSError as exc:
        raise GcgError(f"cannot read: {exc.strerror}", str(path)) from None
    return parse_gcg(data, str(path))


def user_data_dirs() -> list[Path]:
    """The data root whose ``tilesets/`` and ``layouts/`` folders are searched before the built-in ones."""
    return [data_dir()]


def replay_file(path: Path, args: argparse.Namespace) -> Replay:
    record = load_record(path)
    return replay(record, tiles=args.tiles, layout=args.layout,
                  lettered_rows=True if args.lettered_rows else None, extra_dirs=user_data_dirs())


def run_check(args: argparse.Namespace) -> int:
    files = moves = mismatches = 0
    failed = False
    for path in args.files:
        files += 1
        try:
            result = replay_file(path, args)
        except EngineError as exc:
            print(f"{path}: ERROR {exc}")
            failed = True
            continue
        moves += result.moves
        mismatches += len(result.mismatches)
        if not result.mismatches:
            final = " ".join(str(s) for s in result.game.scores)
            print(f"{path}: OK ({result.moves} moves, final {final})")
        else:
            print(f"{path}: {result.mismatches[0]}" + (
                f" (+{len(result.mismatches) - 1} more)" if len(result.mismatches) > 1 else ""))
            if args.verbose:
                for m in result.mismatches[1:]:
                    print(f"    {m}")
    print(f"{files} files, {moves} moves, {mismatches} mismatches" + (", some files unreadable" if failed else ""))
    return 2 if failed else (1 if mismatches else 0)  # unreadable input is an input error (README: exit codes)


def run_show(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    if args.after is not None:
        if not 0 <= args.after <= len(record.lines):
            raise GcgError(f"--after {args.after} is out of range: the record has {len(record.lines)} event lines",
                           str(args.file))
        record.lines = record.lines[: args.after]
    result = replay(record, tiles=args.tiles, layout=args.layout, lettered_rows=True if args.lettered_rows else None,
                    extra_dirs=user_data_dirs())
    game = result.game
    print(game.board)
    for name, score in zip(game.players, game.scores, strict=True):
        print(f"{name}: {score}")
    print(f"bag: {game.bag_count} tiles")
    return 0

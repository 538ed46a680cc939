# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt games list|show|export``: the games saved on this device, read without writing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    games = sub.add_parser("games", help="list, show and export the games saved on this device")
    games_sub = games.add_subparsers(dest="games_command", metavar="ACTION", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", type=Path, metavar="PATH",
                       help="the saved-games database (default: <data>/games.sqlite)")

    listing = games_sub.add_parser("list", help="every saved game, newest first")
    common(listing)
    listing.set_defaults(func=run_list)

    show = games_sub.add_parser("show", help="a game's moves, scores and board")
    show.add_argument("game_id", type=int, metavar="ID")
    show.add_argument("--after", type=int, metavar="N", help="the position after the first N events (default: all)")
    show.add_argument("--cgp", action="store_true", help="print the position as one CGP line (for analysis tools)")
    show.add_argument("--missed", action="store_true",
                      help="after the game: each move beside the best move there was, and each player's share")
    common(show)
    show.set_defaults(func=run_show)

    export = games_sub.add_parser("export", help="write a game as GCG, JSON, or a zip of the record and its photos")
    export.add_argument("game_id", type=int, metavar="ID")
    form = export.add_mutually_exclusive_group()
    form.add_argument("--gcg", dest="form", action="store_const", const="gcg", help="GCG record (two players)")
    form.add_argument("--json", dest="form", action="store_const", const="json", help="JSON record (default)")
    form.add_argument("--zip", dest="form", action="store_const", const="zip", help="record and move photos")
    export.add_argument("-o", "--out", type=Path, metavar="FILE",
                        help="where to write (default: game-ID.<form> here; '-' for standard output)")
    common(export)
    export.set_defaults(func=run_export, form="json")


def _database(args: argparse.Namespace) -> Path:
    from device.paths import data_dir

    return args.db or data_dir() / "games.sqlite"


def _open(args: argparse.Namespace):
    from device.live.state import open_read_only

    return open_read_only(_database(args))


def run_list(args: argparse.Namespace) -> int:
    import json

    db = _open(args)
    rows = db.execute("SELECT g.id, g.created, g.kind, g.players, g.finished, "
                      "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC")
    count = 0
    for gid, created, kind, players, finished, events in rows:
        names = " v ".join(json.loads(players))
        print(f"{gid:>5}  {created[:16]}  {kind:<9}  {'finished' if finished else 'playing ':<8}  "
              f"{events:>3} events  {names}")
        count += 1
    if not count:
        print(f"no saved games in {_database(args)}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from device.archive import ArchiveError, cgp_line, load_game
    from device.live.state import move_text

    saved = load_game(_open(args), args.game_id)
    total = len(saved.records)
    if args.after is not None and not 0 <= args.after <= total:
        raise ArchiveError(f"--after {args.after} is out of range: game {args.game_id} has {total} events")
    upto = total if args.after is None else args.after
    board_game = saved.settings.board_game
    if args.cgp:
        if not board_game:
            raise ArchiveError(f"game {args.game_id} is {saved.settings.game}: CGP describes board positions")
        print(cgp_line(saved.game(upto), lexicon=saved.settings.lexicon))
        return 0
    names = list(saved.settings.players)
    state = "finished" if saved.finished else "not finished"
    print(f"game {saved.id}: {saved.settings.game}, {' v '.join(names)}, {saved.created}, {state}")
    if not board_game:
        for seq, record in enumerate(saved.records[:upto]):
            print(f"{seq + 1:>3}. {record.get('action', '?')}")
        return 0
    game = saved.game(upto)
    if args.missed:
        return _show_missed(saved, game, names)
    for i, (event, record) in enumerate(zip(game.events, saved.records, strict=False)):
        words = ", ".join(event.words)
        print(f"{i + 1:>3}. {names[event.player]:<12} {move_text(record):<16} {words:<24} "
              f"{event.score:>+4} {event.cumulative:>5}")
    print(game.board)
    for name, score in zip(names, game.scores, strict=True):
        print(f"{name}: {score}")
    print(f"bag: {game.bag_count} tiles")
    return 0


def _show_missed(saved, game, names: list[str]) -> int:  # noqa: ANN001 (archive.SavedGame, engine Game)
    from device.archive import ArchiveError
    from device.missed import graph_file_for, missed_lines, review_now
    from device.paths import lexicon_dir
    from engine.lexicon.wordgraph import WordGraph, default_graph

    if not saved.finished:
        raise ArchiveError(f"game {saved.id} is not finished: the moves missed are shown after a game, not during it")
    lang = game.rules.tileset.language
    graph_file = graph_file_for(lexicon_dir(), lang)
    graph = WordGraph.load(graph_file) if graph_file is not None else default_graph(lexicon_dir(), lang)
    for line in missed_lines(review_now(game, graph, names, lettered_rows=saved.settings.lettered_rows)):
        print(line)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from device.archive import export_bytes

    data = export_bytes(_open(args), args.game_id, args.form, _database(args).parent)
    if str(args.out) == "-":
        sys.stdout.buffer.write(data)
        return 0
    out = args.out or Path(f"game-{args.game_id}.{args.form}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print(f"game {args.game_id}: {out} ({len(data)} bytes)")
    return 0

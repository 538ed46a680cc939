# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt analyse RECORD``: for each turn of a game, the best move there was and the player's share of it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from device import paths
from device.errors import DeviceError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("analyse", help="a game's best available move at every turn, and each player's share")
    parser.add_argument("record", type=Path, nargs="?", metavar="RECORD", help="a GCG file (move lines with racks)")
    parser.add_argument("--game", type=int, metavar="ID", help="a game saved on this device (see: ordvakt games list)")
    parser.add_argument("--db", type=Path, metavar="PATH", help="with --game: the saved-games database")
    parser.add_argument("--after", type=int, default=0, metavar="N", help="skip the first N event lines")
    parser.add_argument("--top", type=int, default=1, metavar="K", help="best moves shown per turn (default 1)")
    parser.add_argument("--json", action="store_true", help="one JSON object: the turns and each player's share")
    parser.add_argument("--lang", metavar="L", help="word list language (default: the record's tile set's)")
    parser.add_argument("--tiles", metavar="LANG", help="tile set the file does not declare (as in `gcg check`)")
    parser.add_argument("--layout", metavar="NAME", help="board layout (default scrabble-15)")
    parser.add_argument("--lettered-rows", action="store_true",
                        help="positions use lettered rows (H4 = row H, column 4, across)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.commands.gcg import replay_file
    from engine.analysis import review_game
    from engine.lexicon.wordgraph import default_graph

    if (args.record is None) == (args.game is None):
        raise DeviceError("give a GCG file or --game ID (a game saved on this device), not both")
    if args.game is not None:
        from device.archive import load_game
        from device.live.state import open_read_only

        saved = load_game(open_read_only(args.db or paths.data_dir() / "games.sqlite"), args.game)
        game = saved.game()
        lettered = saved.settings.lettered_rows or args.lettered_rows
        source = f"game {args.game}"
    else:
        result = replay_file(args.record, args)
        game = result.game
        lettered = result.record.lettered_rows or args.lettered_rows
        source = str(args.record)
    lang = args.lang or game.rules.tileset.language
    graph = default_graph(paths.lexicon_dir(), lang)
    reviews = review_game(game, graph, top=max(1, args.top), after=max(0, args.after), lettered_rows=lettered)
    totals = {}
    for player in range(len(game.players)):
        mine = [r for r in reviews if r.player == player]
        scored, possible = sum(r.score for r in mine), sum(r.best_score for r in mine)
        totals[game.players[player]] = (scored, possible)
    if args.json:
        print(json.dumps({
            "record": source,
            "turns": [{
                "turn": r.turn, "player": game.players[r.player], "rack": r.rack, "played": r.played,
                "score": r.score, "moves": r.moves, "share": r.share, "unlisted": list(r.unlisted),
                "best": [{"move": m.notation, "score": m.score} for m in r.best],
            } for r in reviews],
            "players": {name: {"scored": s, "best_possible": p, "share": round(s / p, 3) if p else None}
                        for name, (s, p) in totals.items()},
        }, ensure_ascii=False))
        return 0
    width = max((len(p) for p in game.players), default=0)
    for r in reviews:
        share = "  -  " if r.share is None else f"{r.share:5.0%}"
        best = "; ".join(f"{m.notation} {m.score}" for m in r.best) or "no placement"
        mark = "* " if r.missed else "  "
        note = f"  (not in the {lang} list: {', '.join(r.unlisted)})" if r.unlisted else ""
        print(f"{mark}{r.turn:>3} {game.players[r.player]:<{width}} {r.rack:<9} {r.played:<18} {r.score:>4}"
              f"  best {best}  share {share}{note}")
    for name, (scored, possible) in totals.items():
        share = f"{scored / possible:.0%}" if possible else "-"
        print(f"{name}: {scored} of the {possible} the best moves would have scored ({share})")
    if any(r.unlisted for r in reviews):
        print(f"* = a better move was there; a share above 100% means the played words are not all in the {lang} "
              "list (the best moves are found in that list only)")
    return 0

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt best --cgp LINE [--rack R]``: every legal move for a rack on a position, the best first."""

from __future__ import annotations

import argparse
import json

from device import paths
from engine.errors import InvalidNotation


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("best", help="the best moves for a rack on a position given as one CGP line")
    parser.add_argument("--cgp", required=True, metavar="LINE",
                        help="the position: 'BOARD RACKS SCORES ZERO-TURNS [lex NAME;]' (rows '/'-separated, "
                             "digits for empty squares, lower case blanks)")
    parser.add_argument("--rack", metavar="R", help="the rack (? a blank, # an Alfapet stop tile); "
                                                    "default: the CGP's first rack")
    parser.add_argument("--lang", metavar="L",
                        help="word list language (default: from the CGP's lex operation, else en)")
    parser.add_argument("--game", choices=("scrabble", "alfapet"),
                        help="rules (default: alfapet on a 17x17 board, scrabble otherwise)")
    parser.add_argument("--layout", metavar="NAME", help="board layout (default: scrabble-15 or alfapet-17)")
    parser.add_argument("--rack-size", type=int, metavar="N",
                        help="the agreed rack size, for the all-tiles bonus (default: 7, or 9 / 6 / 8 from the rack)")
    parser.add_argument("--top", type=int, default=10, metavar="K", help="how many moves to print (default 10)")
    parser.add_argument("--json", action="store_true", help='print {"moves": N, "best": [{"move", "score"}...]}')
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.analysis import review_position
    from engine.cgp import parse_cgp
    from engine.gcg import LEXICON_LANGUAGES
    from engine.lexicon.wordgraph import default_graph
    from engine.rules import Rules

    position = parse_cgp(args.cgp)
    rack = args.rack if args.rack is not None else (position.racks[0] if position.racks else "")
    if not rack:
        raise InvalidNotation("no rack: give --rack or a CGP with the rack of the player on turn")
    lang = args.lang
    if lang is None:
        lexicon = (position.lexicon or "").upper()
        lang = next((code for prefix, code in LEXICON_LANGUAGES if lexicon.startswith(prefix)), "en")
    game = args.game or ("alfapet" if position.board.size == 17 else "scrabble")
    tiles = len(rack.replace("^", ""))
    if game == "alfapet":
        size = args.rack_size or (tiles if tiles in (6, 8) else 7)
        rules = Rules.alfapet(lang, rack_size=size, layout=args.layout or "alfapet-17")
    else:
        size = args.rack_size or (9 if tiles > 7 else 7)
        rules = Rules.scrabble(lang, rack_size=size, layout=args.layout or "scrabble-15")
    if rules.layout.size != position.board.size:
        raise InvalidNotation(f"the CGP board is {position.board.size}x{position.board.size}, "
                              f"the layout {rules.layout.name!r} is {rules.layout.size}x{rules.layout.size}")
    graph = default_graph(paths.lexicon_dir(), lang)
    count, best = review_position(position.board, rack, rules, graph, top=max(0, args.top))
    if args.json:
        print(json.dumps({"moves": count, "best": [{"move": m.notation, "score": m.score} for m in best]},
                         ensure_ascii=False))
        return 0
    print(f"{count} moves for {rack} ({rules.game.value}, {rules.layout.name}, {lang} list)")
    for m in best:
        print(f"{m.score:>5}  {m.notation}")
    return 0

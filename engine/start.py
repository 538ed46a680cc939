# SPDX-License-Identifier: GPL-3.0-or-later
"""Who starts: each player draws one tile, the game's rule names the starter, ties draw again.

The rule is data (``start_rule`` in ``engine/data/rules/<game>.toml``); the sentences implemented:

* Scrabble (seed 004): "Mängija, kes tõmbab tähe, mis on kõige lähemal "A", läheb esimesena. Tühi plaat lööb
  kõik teised plaadid." (the letter closest to A starts; the blank beats every other tile) ->
  :attr:`StartRule.CLOSEST_TO_A`. Letters rank in the tile set's alphabet order (Swedish Å Ä Ö after Z).
* Alfapet (seeds 000/001): "Den som får högst poäng ... får starta spelet." / "Se pelaajista, jonka laatassa on
  suurin pistemäärä, aloittaa pelin." (the highest point value starts) -> :attr:`StartRule.HIGHEST_VALUE`.
  Blank, stop and arrow tiles are worth 0 ("tyhjistä, mustista tai nuolilaatoista ei saa pisteitä").
* Neither sheet says what happens on a tie; ../shared/RULES.md §1.2 [R] (and the Ordskifte sheet, seed 003, for
  its own draw): the tied players draw again, and only they.

>>> from engine.tiles import load_tileset
>>> en = load_tileset("scrabble-en")
>>> decide_start(StartRule.CLOSEST_TO_A, {0: "D", 1: "?", 2: "A"}, en)
StartDraw(starter=1, redraw=())
>>> decide_start(StartRule.CLOSEST_TO_A, {0: "C", 1: "C", 2: "M"}, en)
StartDraw(starter=None, redraw=(0, 1))
>>> decide_start(StartRule.HIGHEST_VALUE, {0: "A", 1: "Q"}, load_tileset("alfapet-sv"))
StartDraw(starter=1, redraw=())
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import GameStateError
from engine.tiles import ARROW, BLANK, STOP, TileSet


class StartRule(enum.Enum):
    #: Scrabble: the tile closest to A starts; a blank beats every letter.
    CLOSEST_TO_A = "closest-to-a"
    #: Alfapet: the tile with the highest point value starts.
    HIGHEST_VALUE = "highest-value"


@dataclass(frozen=True)
class StartDraw:
    """The result of one round of drawing: the starter, or the players who must draw again."""

    starter: int | None
    redraw: tuple[int, ...] = ()


def normalise_tile(tile: str, tileset: TileSet) -> str:
    """A drawn tile as the engine writes it: an upper-case letter of the set, ``?``, ``#`` or ``^``.

    Raises :class:`GameStateError` naming the tile when the set has no such tile.
    """
    text = tile.strip()
    if text in (BLANK, STOP, ARROW):
        symbol = text
    else:
        symbol = text.upper()
    available = tileset.full_bag()
    if len(symbol) != 1 or available.get(symbol, 0) == 0:
        raise GameStateError(f"the {tileset.name} set has no tile {tile!r} to draw")
    return symbol


def tile_rank(rule: StartRule, tile: str, tileset: TileSet) -> tuple[int, ...]:
    """Sort key of a drawn tile under ``rule``: the smallest key starts."""
    symbol = normalise_tile(tile, tileset)
    if rule is StartRule.CLOSEST_TO_A:
        if symbol == BLANK:
            return (-1,)
        order = tileset.alphabet
        return (order.index(symbol) if symbol in order else len(order),)
    if symbol in (BLANK, STOP, ARROW):
        return (0,)
    return (-tileset.value(symbol),)


def decide_start(rule: StartRule, draws: Mapping[int, str], tileset: TileSet) -> StartDraw:
    """Who starts, from each drawing player's tile (``{player: tile}``).

    When the best tile is shared, nobody starts yet: ``redraw`` names the tied players, who draw again
    (call again with only their new tiles).
    """
    if not draws:
        raise GameStateError("nobody has drawn a tile yet")
    ranks = {player: tile_rank(rule, tile, tileset) for player, tile in draws.items()}
    best = min(ranks.values())
    leaders = tuple(sorted(p for p, r in ranks.items() if r == best))
    if len(leaders) == 1:
        return StartDraw(leaders[0])
    return StartDraw(None, leaders)

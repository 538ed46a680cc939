# SPDX-License-Identifier: GPL-3.0-or-later
"""Rule variants as configuration: one :class:`Rules` value per game set-up.

Everything a club might agree on before a game (challenge rule, end
condition, rack accounting, Alfapet's special tiles and minus squares, a
theme list) is a field here, never a code fork.

The rules that differ between games, editions and numbers of players (how
the game ends, how the end is settled, tie-break, who starts) come from
``engine/data/rules/<game>.toml``, one *convention* per edition, each field
quoting the rule-sheet sentence it implements. A rule set knows the number of
players it was built for; :meth:`Rules.for_players` (which :class:`Game`
calls) re-derives every rule the caller did not set for another count, so
``Rules.scrabble()`` in a four-player game settles the end by the box rules,
not the two-player tournament rule:

>>> Rules.scrabble("en").rack_accounting.value, Rules.scrabble("en").for_players(4).rack_accounting.value
('twice-opponent', 'own-and-sum')
>>> Rules.scrabble("en", players=3).player_passes_in_a_row_limit, Rules.scrabble("en").scoreless_turn_limit
(2, 6)

>>> Rules.scrabble("de").bingo_bonus(7), Rules.scrabble("en", rack_size=9).bingo_bonus(8)
(50, 50)
>>> Rules.alfapet("sv", rack_size=8).bingo_bonus(8)
60
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine._data import builtin_dir, read_toml
from engine.errors import DataFileError
from engine.layout import Layout, load_layout
from engine.start import StartRule
from engine.tiles import ARROW, BLANK, STOP, TileSet, load_tileset

LANGUAGE_TILESETS = {
    "nb": "no", "no": "no", "en": "en", "sv": "sv", "fi": "fi", "et": "et", "fr": "fr", "de": "de", "pl": "pl",
}


class Game(enum.Enum):
    SCRABBLE = "scrabble"
    ALFAPET = "alfapet"


class ChallengeRule(enum.Enum):
    VOID = "void"  # invalid words cannot be played at all
    SINGLE = "single"  # phony off, no penalty for a failed challenge
    DOUBLE = "double"  # phony off; a failed challenger loses the next turn
    FIVE_POINT = "five-point"  # a failed challenge gives the challenged player +5
    TEN_POINT = "ten-point"  # ... +10
    TRIPLE = "triple"  # the challenge decides the game

    @property
    def bonus(self) -> int:
        return {ChallengeRule.FIVE_POINT: 5, ChallengeRule.TEN_POINT: 10}.get(self, 0)


class RackAccounting(enum.Enum):
    #: Tournament two-player rule: the player who goes out gets twice the opponent's rack.
    TWICE_OPPONENT = "twice-opponent"
    #: Box rules: everyone loses their own rack, the one who went out gains the sum of the others'.
    OWN_AND_SUM = "own-and-sum"
    #: Alfapet: everyone loses their own rack; no award for going out.
    OWN_ONLY = "own-only"


class TieBreak(enum.Enum):
    #: Equal final scores stay a shared win.
    NONE = "none"
    #: Scrabble sheet (seed 004): the higher score before the end-of-game rack adjustments wins.
    SCORE_BEFORE_RACKS = "score-before-racks"


def _limit(value: Any) -> int | None:
    """A data file's limit: 0 means none."""
    return int(value) or None


#: Rules fields a convention in ``engine/data/rules/<game>.toml`` sets, and how a data value becomes a field value.
CONVENTION_FIELDS: dict[str, Callable[[Any], Any]] = {
    "rack_accounting": RackAccounting,
    "scoreless_turn_limit": _limit,
    "passes_in_a_row_limit": _limit,
    "player_passes_in_a_row_limit": _limit,
    "tie_break": TieBreak,
    "start_rule": StartRule,
}


@dataclass(frozen=True)
class Rules:
    game: Game
    tileset: TileSet
    layout: Layout
    rack_size: int = 7
    #: Bonus per number of tiles used in one turn (Scrabble: {7: 50}; 9-tile: {7, 8, 9: 50}; Alfapet: rack size only).
    bingo: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({7: 50}))
    challenge_rule: ChallengeRule = ChallengeRule.DOUBLE
    #: The game ends after this many consecutive scoreless turns (6 in tournaments; None: never).
    scoreless_turn_limit: int | None = 6
    #: Alfapet (seed 000): the game ends when every player passed this many times in a row (a scoring play resets).
    passes_in_a_row_limit: int | None = None
    #: Scrabble sheet (seed 004): the game ends when one player passes on this many of their turns in a row.
    player_passes_in_a_row_limit: int | None = None
    rack_accounting: RackAccounting = RackAccounting.TWICE_OPPONENT
    tie_break: TieBreak = TieBreak.SCORE_BEFORE_RACKS
    start_rule: StartRule = StartRule.CLOSEST_TO_A
    minus_squares: bool = True
    special_tiles: bool = True
    theme_words: frozenset[str] = frozenset()
    theme_bonus: int = 10
    #: Finish Line: the first player to reach this total wins.
    target_score: int | None = None
    min_word_length: int = 2
    #: The number of players these rules were built for (None: not settled; :class:`Game` settles it).
    players: int | None = None
    #: The convention (edition) of ``engine/data/rules/<game>.toml`` the defaults came from.
    convention: str = ""
    #: Fields the caller chose; :meth:`for_players` keeps them and re-derives the rest.
    chosen: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def bingo_bonus(self, tiles_used: int) -> int:
        return self.bingo.get(tiles_used, 0)

    def tiles_in_play(self) -> Counter[str]:
        """The tiles the game is played with: the whole set, less Alfapet's special tiles (blank, black stop and
        arrow tiles) when the players leave them out: "Jos pelaajat haluavat pelata ilman erikoislaattoja, ne
        poistetaan laattojen joukosta." (seed 000); "Det är helt valfritt med specialbrickor" (seed 001).

        >>> sum(Rules.alfapet("sv").tiles_in_play().values()), sum(Rules.alfapet("sv", special_tiles=False)
        ...     .tiles_in_play().values())
        (120, 112)
        """
        bag = self.tileset.full_bag()
        if self.game is Game.ALFAPET and not self.special_tiles:
            for symbol in (BLANK, STOP, ARROW):
                bag.pop(symbol, None)
        return bag

    @property
    def language(self) -> str:
        return self.tileset.language

    @classmethod
    def scrabble(cls, language: str = "en", *, rack_size: int = 7, layout: str = "scrabble-15",
                 tileset: str | None = None, extra_dirs: Iterable[Path] = (), players: int = 2,
                 convention: str | None = None, **options) -> Rules:
        """Scrabble for ``players`` players; ``rack_size=9`` is the 9-tile variant (bingo for 7, 8 or 9 tiles).

        ``convention`` picks a rule set of ``engine/data/rules/scrabble.toml`` ("tournament" for two players,
        "box" = the rule sheet); by default two players play the tournament convention, others the box rules.
        """
        bingo = _rack_bonus(Game.SCRABBLE, rack_size)
        name = tileset or f"scrabble-{_tileset_language(language)}"
        return cls(
            game=Game.SCRABBLE,
            tileset=load_tileset(name, extra_dirs),
            layout=load_layout(layout, extra_dirs),
            rack_size=rack_size,
            bingo=MappingProxyType(bingo),
            **_with_convention(Game.SCRABBLE, language, players, convention, options),
        )

    @classmethod
    def alfapet(cls, language: str = "sv", *, rack_size: int = 7, layout: str = "alfapet-17",
                tileset: str | None = None, extra_dirs: Iterable[Path] = (), players: int = 2,
                convention: str | None = None, **options) -> Rules:
        """Alfapet: 6/7/8-tile racks with a 40/50/60 all-tiles bonus; no award for going out.

        ``convention`` is the edition ("fi" = seed 000, "sv" = seed 001); by default the language's.
        """
        bingo = _rack_bonus(Game.ALFAPET, rack_size)
        name = tileset or f"alfapet-{_tileset_language(language)}"
        return cls(
            game=Game.ALFAPET,
            tileset=load_tileset(name, extra_dirs),
            layout=load_layout(layout, extra_dirs),
            rack_size=rack_size,
            bingo=MappingProxyType(bingo),
            **_with_convention(Game.ALFAPET, language, players, convention, options),
        )

    def finish_line(self, players: int, level: str = "intermediate") -> Rules:
        """The Finish Line variant: first to the target for ``players`` players at ``level`` wins.

        >>> Rules.scrabble("en").finish_line(3, "expert").target_score
        180
        """
        targets = read_toml(builtin_dir(".") / "finish-line.toml")["targets"]
        try:
            return replace(self, target_score=int(targets[str(players)][level]))
        except KeyError:
            levels = ", ".join(next(iter(targets.values())))
            raise DataFileError(
                f"no Finish Line target for {players!r} players at level {level!r}; "
                f"players 2-4, levels: {levels}") from None

    def with_options(self, **changes) -> Rules:
        """These rules with ``changes``; the fields changed count as chosen (kept by :meth:`for_players`).
        A new ``players`` or ``convention`` re-derives the rules that follow them.

        >>> Rules.scrabble("en").with_options(players=4).rack_accounting.value
        'own-and-sum'
        """
        players = changes.pop("players", None)
        convention = changes.pop("convention", None)
        rules = replace(self, chosen=self.chosen | set(changes), **changes)
        if convention is not None:
            rules = rules._derive(players or rules.players or 2, convention)
        elif players is not None:
            rules = rules.for_players(players)
        return rules

    def for_players(self, players: int) -> Rules:
        """The rules for a game of ``players`` players: the fields the caller chose stay, the others follow the
        convention for that many players (the chosen convention, else the default for the count).

        >>> Rules.scrabble("en", rack_accounting=RackAccounting.OWN_ONLY).for_players(3).rack_accounting.value
        'own-only'
        """
        if players == self.players:
            return self
        if self.players is None:  # built field by field: every field is the caller's choice
            return replace(self, players=players)
        return self._derive(players, self.convention if "convention" in self.chosen else None)

    def _derive(self, players: int, convention: str | None) -> Rules:
        """The rule fields the caller did not choose, from ``convention`` (None: the default) for ``players``."""
        chosen = {name: getattr(self, name) for name in CONVENTION_FIELDS if name in self.chosen}
        if convention is not None:
            chosen["convention"] = convention
        derived = _with_convention(self.game, self.language, players, None, chosen)
        keep = self.chosen | ({"convention"} if convention is not None else set())
        return replace(self, chosen=keep, **{k: v for k, v in derived.items() if k != "chosen"})

    def __repr__(self) -> str:
        return (
            f"<Rules {self.game.value} tiles={self.tileset.name} layout={self.layout.name} rack={self.rack_size} "
            f"challenge={self.challenge_rule.value} convention={self.convention or '-'} players={self.players}>"
        )


def conventions(game: Game) -> dict:
    """``engine/data/rules/<game>.toml`` as read (conventions, their quotes, defaults by players/language)."""
    return read_toml(builtin_dir("rules") / f"{game.value}.toml")


def _rack_bonus(game: Game, rack_size: int) -> dict[int, int]:
    """The bonus per number of tiles played in one turn for ``rack_size`` (``[bingo.<rack>]`` in the data file)."""
    tables = conventions(game).get("bingo", {})
    table = tables.get(str(rack_size))
    if table is None:
        sizes = sorted(tables, key=int)
        listed = ", ".join(sizes[:-1]) + " or " + sizes[-1] if len(sizes) > 1 else "".join(sizes)
        raise DataFileError(f"{game.value.capitalize()} is played with {listed} tiles, not {rack_size!r}")
    return {int(tiles): int(points) for tiles, points in table.items()}


def _with_convention(game: Game, language: str, players: int, convention: str | None,
                     options: Mapping) -> dict:
    """``options`` completed with the rules of the convention for ``players`` players (the caller's choice wins)."""
    if not 1 <= players <= 4:
        raise DataFileError(f"{game.value} is played by 1 to 4 players, not {players!r}")
    data = conventions(game)
    options = dict(options)
    chosen = set(options) - {"convention"}
    if convention is None:
        convention = options.pop("convention", None)
    else:
        options.pop("convention", None)
    if convention is not None:
        chosen.add("convention")
    else:
        by_language = data.get("languages", {})
        convention = by_language.get(LANGUAGE_TILESETS.get(language.lower(), language.lower()))
        convention = convention or data.get("players", {}).get(str(players))
    table = data.get("conventions", {}).get(convention)
    if table is None:
        known = ", ".join(sorted(data.get("conventions", {})))
        raise DataFileError(f"no {game.value} convention {convention!r}; known: {known}")
    if players not in table.get("players", [players]):
        raise DataFileError(f"the {game.value} {convention!r} convention is for {table['players']} players, "
                            f"not {players}")
    settings: dict = {}
    for name, convert in CONVENTION_FIELDS.items():
        if name in table:
            settings[name] = convert(table[name])
    settings.update(options)
    settings.update(players=players, convention=convention, chosen=frozenset(chosen))
    return settings


def _tileset_language(language: str) -> str:
    try:
        return LANGUAGE_TILESETS[language.lower()]
    except KeyError:
        raise DataFileError(
            f"no tile set for language {language!r}; known: {', '.join(sorted(set(LANGUAGE_TILESETS)))}"
        ) from None

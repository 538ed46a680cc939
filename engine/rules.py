# SPDX-License-Identifier: GPL-3.0-or-later
"""Rule variants as configuration: one :class:`Rules` value per game set-up.

Everything a club might agree on before a game (challenge rule, end
condition, rack accounting, Alfapet's special tiles and minus squares, a
theme list) is a field here, never a code fork.

>>> Rules.scrabble("de").bingo_bonus(7), Rules.scrabble("en", rack_size=9).bingo_bonus(8)
(50, 50)
>>> Rules.alfapet("sv", rack_size=8).bingo_bonus(8)
60
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from engine._data import builtin_dir, read_toml
from engine.errors import DataFileError
from engine.layout import Layout, load_layout
from engine.tiles import TileSet, load_tileset

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
    #: The seed rule sheets' alternative: the game ends when every player passed this many times in a row.
    passes_in_a_row_limit: int | None = None
    rack_accounting: RackAccounting = RackAccounting.TWICE_OPPONENT
    minus_squares: bool = True
    special_tiles: bool = True
    theme_words: frozenset[str] = frozenset()
    theme_bonus: int = 10
    #: Finish Line: the first player to reach this total wins.
    target_score: int | None = None
    min_word_length: int = 2

    def bingo_bonus(self, tiles_used: int) -> int:
        return self.bingo.get(tiles_used, 0)

    @property
    def language(self) -> str:
        return self.tileset.language

    @classmethod
    def scrabble(cls, language: str = "en", *, rack_size: int = 7, layout: str = "scrabble-15",
                 tileset: str | None = None, extra_dirs: Iterable[Path] = (), **options) -> Rules:
        """Standard Scrabble; ``rack_size=9`` is the 9-tile variant (bingo for 7, 8 or 9 tiles)."""
        if rack_size not in (7, 9):
            raise DataFileError(f"Scrabble is played with 7 or 9 tiles, not {rack_size!r}")
        name = tileset or f"scrabble-{_tileset_language(language)}"
        bingo = {7: 50} if rack_size == 7 else {7: 50, 8: 50, 9: 50}
        return cls(
            game=Game.SCRABBLE,
            tileset=load_tileset(name, extra_dirs),
            layout=load_layout(layout, extra_dirs),
            rack_size=rack_size,
            bingo=MappingProxyType(bingo),
            **options,
        )

    @classmethod
    def alfapet(cls, language: str = "sv", *, rack_size: int = 7, layout: str = "alfapet-17",
                tileset: str | None = None, extra_dirs: Iterable[Path] = (), **options) -> Rules:
        """Alfapet: 6/7/8-tile racks with a 40/50/60 all-tiles bonus; no award for going out."""
        if rack_size not in (6, 7, 8):
            raise DataFileError(f"Alfapet is played with 6, 7 or 8 tiles, not {rack_size!r}")
        name = tileset or f"alfapet-{_tileset_language(language)}"
        options.setdefault("rack_accounting", RackAccounting.OWN_ONLY)
        options.setdefault("scoreless_turn_limit", None)
        options.setdefault("passes_in_a_row_limit", 2)
        return cls(
            game=Game.ALFAPET,
            tileset=load_tileset(name, extra_dirs),
            layout=load_layout(layout, extra_dirs),
            rack_size=rack_size,
            bingo=MappingProxyType({rack_size: {6: 40, 7: 50, 8: 60}[rack_size]}),
            **options,
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
        return replace(self, **changes)

    def __repr__(self) -> str:
        return (
            f"<Rules {self.game.value} tiles={self.tileset.name} layout={self.layout.name} rack={self.rack_size} "
            f"challenge={self.challenge_rule.value}>"
        )


def _tileset_language(language: str) -> str:
    try:
        return LANGUAGE_TILESETS[language.lower()]
    except KeyError:
        raise DataFileError(
            f"no tile set for language {language!r}; known: {', '.join(sorted(set(LANGUAGE_TILESETS)))}"
        ) from None

# SPDX-License-Identifier: GPL-3.0-or-later
"""The device's one TOML file, validated once into frozen values.

Where it is: ``--config`` > ``$ORDVAKT_CONFIG`` > :func:`device.paths.config_file`; a missing file
means defaults, which run without any hardware (replay camera, touch and keyboard for buttons)::

    [game]                      # defaults for the new-game screen
    game = "scrabble"           # scrabble | alfapet | ordskifte | keywords
    language = "en"
    players = ["Ann", "Bob"]    # 2 to 4 names (1 to 4 for Scrabble/Alfapet solo practice)
    racks = 1                   # solo practice (one name): 1 or 2 racks played by that person
    rack_size = 7               # Scrabble 7 or 9; Alfapet 6, 7 or 8
    clock = "chess"             # none | chess | turn | round
    minutes = 25                # chess clock budget per player
    challenge_rule = "double"   # void | single | double | five-point | ten-point | triple
    layout = "scrabble-15"      # board layout (default per game)
    board_profile = "scrabscrap"  # vision profile of the physical board
    lexicon = ""                # word list name; "" = the language's default list

    [ui]
    width = 800
    height = 480                # 720 x 1280 for a portrait screen
    language = "en"             # en | sv | fi | nb
    auto_accept_s = 3.0         # a confident reading is accepted after this delay; 0 = always wait
    pointer = "finger"          # finger (touchscreen) | mouse: only one kind of event is used
    fullscreen = true
    start_draw = true           # Scrabble/Alfapet begin with the draw for who starts

    [camera]
    min_confidence = 0.8        # below this a read tile counts as unsure
    still_timeout_s = 1.0

    [storage]
    data_dir = ""               # "" = device.paths.data_dir()
    photo_budget_mb = 500       # move photos kept under <data>/photos, oldest games pruned first
    photo_keep_games = 10       # ... but never the photos of the newest 10 games

    [hardware]                  # see hardware/config.py
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from device.errors import ConfigError
from device.paths import config_file
from engine.inputs import MAX_NAME_CHARS, clean_name, finite_number, short_repr

#: A configuration file is a few hundred bytes; anything near this is not one.
MAX_CONFIG_BYTES = 256 * 1024

GAMES = ("scrabble", "alfapet", "ordskifte", "keywords")
#: Games played on a grid board with the engine's rules (read by the camera); the others have their own screens.
BOARD_GAMES = ("scrabble", "alfapet")
CLOCKS = ("none", "chess", "turn", "round")
CHALLENGE_RULES = ("void", "single", "double", "five-point", "ten-point", "triple")
UI_LANGUAGES = ("en", "sv", "fi", "nb")
POINTERS = ("finger", "mouse")
RACK_SIZES = {"scrabble": (7, 9), "alfapet": (6, 7, 8)}


@dataclass(frozen=True)
class GameSettings:
    """What the new-game screen sets; stored with each game so a resumed game uses the same rules."""

    game: str = "scrabble"
    language: str = "en"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    rack_size: int = 7
    clock: str = "chess"
    minutes: float = 25.0
    challenge_rule: str = "double"
    layout: str = ""
    tileset: str = ""
    board_profile: str = ""
    lexicon: str = ""
    #: Positions in records use lettered rows (the ScrabScrap photo games).
    lettered_rows: bool = False
    #: Ordskifte turn / Keywords round length in seconds (0: the game's default, 60 s / 30 s).
    timer_seconds: int = 0
    #: Keywords: the match is won at this total (0: the default, 30).
    target_score: int = 0
    #: The player who starts (index into ``players``), as the start draw decided (device/start_draw.py).
    first: int = 0
    #: Family hint (issue 16): a HINT button shows the best move's score and first letter for a typed rack.
    hint: bool = False
    #: Solo practice with two racks (issue 16): ``players`` then holds the one person's name twice, one per rack.
    racks: int = 1

    def rules(self):
        """The engine :class:`~engine.rules.Rules` for Scrabble and Alfapet games."""
        from engine.rules import ChallengeRule, Rules

        options: dict[str, Any] = {"challenge_rule": ChallengeRule(self.challenge_rule)}
        if self.layout:
            options["layout"] = self.layout
        if self.tileset:
            options["tileset"] = self.tileset
        # The rules for this many players (3-4 player Scrabble: the box rules' end; engine/data/rules/*.toml).
        options["players"] = len(self.players)
        if self.game == "scrabble":
            return Rules.scrabble(self.language, rack_size=self.rack_size, **options)
        if self.game == "alfapet":
            return Rules.alfapet(self.language, rack_size=self.rack_size, **options)
        raise ConfigError(f"game {self.game!r} has no board rules; it is played on its own screen")

    @property
    def board_game(self) -> bool:
        """Played on a grid board with the engine's rules (Scrabble, Alfapet)."""
        return self.game in BOARD_GAMES

    def new_game(self):
        """A fresh engine :class:`~engine.game.Game` for these settings: their rules, players and starter."""
        from engine.game import Game

        return Game(self.rules(), list(self.players), first=self.first)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<settings>") -> GameSettings:
        return _parse_game(dict(data), source, "game")


@dataclass(frozen=True)
class UiSettings:
    width: int = 800
    height: int = 480
    language: str = "en"
    auto_accept_s: float = 3.0
    pointer: str = "finger"
    fullscreen: bool = True
    #: Board games begin with the start draw (who starts, by the game's rule; device/start_draw.py).
    start_draw: bool = True

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True)
class CameraSettings:
    min_confidence: float = 0.8
    still_timeout_s: float = 1.0


@dataclass(frozen=True)
class Config:
    game: GameSettings = field(default_factory=GameSettings)
    ui: UiSettings = field(default_factory=UiSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    data_dir: str = ""
    #: The raw ``[hardware]`` table, validated by :meth:`hardware_config` (hardware owns its rules).
    hardware: Mapping[str, Any] = field(default_factory=dict)
    source: str = "<defaults>"
    #: The ``[storage]`` table's photo-archive settings, validated by device.archive.ArchiveSettings.
    photos: Mapping[str, Any] = field(default_factory=dict)
    #: The ``[club]`` table (MQTT link to a club's broker), validated by device.club.settings.ClubSettings.
    club: Mapping[str, Any] = field(default_factory=dict)

    def hardware_config(self):
        """``[hardware]`` as a :class:`hardware.config.HardwareConfig` (raises ConfigurationError)."""
        from hardware.config import HardwareConfig

        return HardwareConfig.from_mapping(self.hardware, self.source)

    def club_settings(self):
        """``[club]`` as a :class:`device.club.settings.ClubSettings` (raises ConfigError)."""
        from device.club.settings import ClubSettings

        return ClubSettings.from_mapping(self.club, self.source)

    def resolved_data_dir(self) -> Path:
        from device.paths import data_dir

        return Path(self.data_dir) if self.data_dir else data_dir()


def config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``explicit`` (``--config``), else ``$ORDVAKT_CONFIG``, else the platform config file."""
    return Path(explicit) if explicit else config_file()


def load_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    """Read and validate the configuration; a missing default file means defaults.

    A file named explicitly (``--config``) must exist.
    """
    path = config_path(explicit)
    if not path.exists():
        if explicit or os.environ.get("ORDVAKT_CONFIG"):
            raise ConfigError(f"{str(path)!r}: no such configuration file; create it or leave out --config")
        return Config()
    return parse_config(read_config_text(path), str(path))


def read_config_text(path: Path) -> str:
    """A configuration file's text: at most MAX_CONFIG_BYTES read (a device such as /dev/zero never fills
    memory), UTF-8, every problem a ConfigError naming the file."""
    from engine.inputs import read_at_most

    try:
        data = read_at_most(path, MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{str(path)!r}: more than {MAX_CONFIG_BYTES:,} bytes is too big for a "
                              "configuration file")
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{str(path)!r}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{str(path)!r}: cannot read: {exc.strerror}") from None


def parse_config(text: str, source: str = "config.toml") -> Config:
    if len(text) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: {len(text):,} characters is too big for a configuration file")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    except ValueError:  # tomllib's int() of a number with thousands of digits
        raise ConfigError(f"{source}: not valid TOML: a number has too many digits") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML: nested too deeply") from None
    _check_keys(raw, source, "", ("game", "ui", "camera", "storage", "hardware", "club"))
    game = _parse_game(_table(raw, "game", source), source, "game")
    ui = _parse_ui(_table(raw, "ui", source), source)
    camera = _parse_camera(_table(raw, "camera", source), source)
    storage = _table(raw, "storage", source)
    _check_keys(storage, source, "storage", ("data_dir", "photo_budget_mb", "photo_keep_games"))
    data_dir = _text(storage, "data_dir", "", source, "storage")
    hardware = _table(raw, "hardware", source)
    club = _table(raw, "club", source)
    config = Config(game, ui, camera, data_dir, hardware, source, photos=storage, club=club)
    config.hardware_config()  # validate now, so a bad pin is reported at start-up
    config.club_settings()
    return config


# -- validation helpers ---------------------------------------------------------------------------

def _fail(source: str, setting: str, value: Any, problem: str) -> ConfigError:
    return ConfigError(f"{source}: {setting} = {short_repr(value)}: {problem}", setting=setting)


def _table(raw: Mapping[str, Any], name: str, source: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise _fail(source, name, value, f"must be a table ([{name}])")
    return value


def _check_keys(table: Mapping[str, Any], source: str, section: str, allowed: tuple[str, ...]) -> None:
    for key in table:
        if key not in allowed:
            name = f"{section}.{key}" if section else key
            raise _fail(source, name, table[key], f"unknown setting; expected one of {', '.join(allowed)}")


def _choice(table: Mapping[str, Any], key: str, default: str, allowed: tuple[str, ...], source: str,
            section: str) -> str:
    value = table.get(key, default)
    if value not in allowed:
        raise _fail(source, f"{section}.{key}", value, f"expected one of {', '.join(allowed)}")
    return value


def _text(table: Mapping[str, Any], key: str, default: str, source: str, section: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise _fail(source, f"{section}.{key}", value, "must be text in quotes")
    return value


def _number(table: Mapping[str, Any], key: str, default: float, source: str, section: str, *,
            low: float = 0.0, high: float | None = None, integer: bool = False) -> Any:
    value = table.get(key, default)
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise _fail(source, f"{section}.{key}", value, "must be a whole number" if integer else "must be a number")
    try:
        finite_number(value, key, low=low, high=high)
    except ValueError:
        limit = f"between {low:g} and {high:g}" if high is not None else f">= {low:g}"
        raise _fail(source, f"{section}.{key}", value, f"must be a finite number {limit}") from None
    return value


def _parse_game(table: dict[str, Any], source: str, section: str) -> GameSettings:
    allowed = tuple(f.name for f in fields(GameSettings))
    _check_keys(table, source, section, allowed)
    game = _choice(table, "game", "scrabble", GAMES, source, section)
    language = _text(table, "language", "en", source, section).lower()
    from engine.rules import LANGUAGE_TILESETS

    if language not in LANGUAGE_TILESETS:
        raise _fail(source, f"{section}.language", language,
                    f"no tile set for this language; expected one of {', '.join(sorted(LANGUAGE_TILESETS))}")
    players = table.get("players", ["Player 1", "Player 2"])
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) and clean_name(p) for p in players):
        raise _fail(source, f"{section}.players", players, "must be a list of names, e.g. [\"Ann\", \"Bob\"]")
    if any(len(p.strip()) > MAX_NAME_CHARS for p in players):
        raise _fail(source, f"{section}.players", players, f"a name has at most {MAX_NAME_CHARS} characters")
    players = [clean_name(p) for p in players]  # no line breaks or control characters on screens and records
    racks = table.get("racks", 1)
    if type(racks) is not int or racks not in (1, 2):
        raise _fail(source, f"{section}.racks", racks, "must be 1 or 2 (racks played by one solo player)")
    if racks == 2:
        if game not in BOARD_GAMES or len({p.casefold() for p in players}) != 1:
            raise _fail(source, f"{section}.racks", racks, "two racks are for one player of Scrabble or Alfapet")
        players = [players[0]] * 2  # one seat per rack: turns, clocks and buttons as in a two-player game
    if len({p.casefold() for p in players}) != len(players) and racks == 1:
        raise _fail(source, f"{section}.players", players, "two players have the same name; tell them apart")
    low = 1 if game in BOARD_GAMES else 2
    high = 2 if game == "keywords" else 4
    if not low <= len(players) <= high:
        raise _fail(source, f"{section}.players", players, f"{game} is played by {low} to {high} players")
    default_rack = {"alfapet": 7}.get(game, 7)
    rack_size = _number(table, "rack_size", default_rack, source, section, low=1, high=9, integer=True)
    if game in RACK_SIZES and rack_size not in RACK_SIZES[game]:
        sizes = " or ".join(map(str, RACK_SIZES[game]))
        raise _fail(source, f"{section}.rack_size", rack_size, f"{game} is played with {sizes} tiles")
    clock_default = {"ordskifte": "turn", "keywords": "round"}.get(game, "chess")
    clock = _choice(table, "clock", clock_default, CLOCKS, source, section)
    minutes = float(_number(table, "minutes", 25.0, source, section, low=0.1, high=600))
    challenge = _choice(table, "challenge_rule", "double", CHALLENGE_RULES, source, section)
    lettered = table.get("lettered_rows", False)
    if not isinstance(lettered, bool):
        raise _fail(source, f"{section}.lettered_rows", lettered, "must be true or false")
    hint = table.get("hint", False)
    if not isinstance(hint, bool):
        raise _fail(source, f"{section}.hint", hint, "must be true or false")
    timer_seconds = _number(table, "timer_seconds", 0, source, section, low=0, high=600, integer=True)
    if timer_seconds and not 10 <= timer_seconds <= 600:
        raise _fail(source, f"{section}.timer_seconds", timer_seconds, "must be 0 (default) or 10 to 600 seconds")
    target_score = _number(table, "target_score", 0, source, section, low=0, high=1000, integer=True)
    first = _number(table, "first", 0, source, section, low=0, high=len(players) - 1, integer=True)
    layout = _data_name(table, "layout", "layouts", source, section)
    tileset = _data_name(table, "tileset", "tilesets", source, section)
    return GameSettings(
        game=game, language=language, players=tuple(p.strip() for p in players), rack_size=rack_size,
        clock=clock, minutes=minutes, challenge_rule=challenge,
        layout=layout, tileset=tileset,
        board_profile=_text(table, "board_profile", "", source, section),
        lexicon=_text(table, "lexicon", "", source, section), lettered_rows=lettered,
        timer_seconds=timer_seconds, target_score=target_score, first=first, hint=hint, racks=racks,
    )


def _data_name(table: Mapping[str, Any], key: str, kind: str, source: str, section: str) -> str:
    """A layout or tile-set name: "" (the game's default), a built-in name or the user's own .toml file;
    unknown names are refused with the known ones, and files are validated now, as GameSettings.rules loads them."""
    value = _text(table, key, "", source, section)
    if not value:
        return value
    from engine.errors import DataFileError
    from engine.layout import load_layout
    from engine.tiles import load_tileset

    try:
        (load_layout if kind == "layouts" else load_tileset)(value)
    except DataFileError as exc:
        raise _fail(source, f"{section}.{key}", value, str(exc)) from None
    return value


def _parse_ui(table: dict[str, Any], source: str) -> UiSettings:
    _check_keys(table, source, "ui", tuple(f.name for f in fields(UiSettings)))
    fullscreen = table.get("fullscreen", True)
    if not isinstance(fullscreen, bool):
        raise _fail(source, "ui.fullscreen", fullscreen, "must be true or false")
    start_draw = table.get("start_draw", True)
    if not isinstance(start_draw, bool):
        raise _fail(source, "ui.start_draw", start_draw, "must be true or false")
    return UiSettings(
        width=_number(table, "width", 800, source, "ui", low=320, high=8192, integer=True),
        height=_number(table, "height", 480, source, "ui", low=240, high=8192, integer=True),
        language=_choice(table, "language", "en", UI_LANGUAGES, source, "ui"),
        auto_accept_s=float(_number(table, "auto_accept_s", 3.0, source, "ui", low=0, high=60)),
        pointer=_choice(table, "pointer", "finger", POINTERS, source, "ui"),
        fullscreen=fullscreen, start_draw=start_draw,
    )


def _parse_camera(table: dict[str, Any], source: str) -> CameraSettings:
    _check_keys(table, source, "camera", tuple(f.name for f in fields(CameraSettings)))
    return CameraSettings(
        min_confidence=float(_number(table, "min_confidence", 0.8, source, "camera", low=0, high=1)),
        still_timeout_s=float(_number(table, "still_timeout_s", 1.0, source, "camera", low=0, high=30)),
    )

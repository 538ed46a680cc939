# SPDX-License-Identifier: GPL-3.0-or-later
"""Who starts: the start-draw screen shown between the new-game form and the first move.

Each player draws one tile from the real bag and either taps it on the screen or lays it on the
board for the camera (READ TILE). The device names the starter by the game's rule
(:mod:`engine.start`: Scrabble "closest to A, a blank beats every letter", Alfapet "highest value
starts"); when the best tile is shared, only the tied players draw again. START then begins the
game with that player to move, so their clock starts first.

The screen is an overlay like the settings screen (``view()``, ``handle(action)``, ``tick(now)``):
its result is the :class:`~device.config.GameSettings` to start (with ``first`` = the starter),
the new-game form it came from (BACK: the form again, as it was), ``"new_game"`` (no form) or None (stay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from device.config import GameSettings
from device.ui import view as v
from engine.errors import EngineError
from engine.rules import Rules
from engine.start import StartRule, decide_start, normalise_tile
from engine.tiles import ARROW, BLANK, STOP

#: Games whose starter is drawn on this screen (Ordskifte draws on its own board; Keywords alternates).

TileReader = Callable[[], "str | None"]


@dataclass(frozen=True)
class DrawnTile:
    player: int
    tile: str
    round: int


@dataclass(frozen=True)
class StartDrawView:
    """What the start-draw screen shows (``View.start_draw``)."""

    players: tuple[str, ...]
    rule: str
    """``start_draw.rule_<StartRule value with _>``: the sentence that decides."""
    tiles: tuple[str, ...]
    """Tiles to tap: the set's letters in alphabet order, then ``?`` (blank) and ``#``/``^`` (Alfapet)."""
    drawn: tuple[DrawnTile, ...]
    """Every tile drawn so far, all rounds, in order."""
    asking: int | None
    """The player whose tile is asked for now (None once the starter is known)."""
    round: int
    tied: tuple[int, ...]
    """The players of the last round who tied and draw again (empty when nobody tied)."""
    starter: int | None
    can_read: bool
    """A camera is there: READ TILE is offered."""
    message: str = ""
    """A strings key for a refusal (``start_draw.bad_tile`` with ``{tile}``, ``start_draw.not_read``)."""
    message_tile: str = ""
    values: tuple[tuple[str, int], ...] = ()
    """Alfapet (highest value starts): each tile's points, shown on the keys and the drawn tiles."""
    page: int = 0
    """Which page of tile keys is shown when they do not all fit (counted round by the screen)."""


def needs_start_draw(settings: GameSettings) -> bool:
    """A board game of two or more players starts with the draw (not one person's two solo racks: rack 1 starts)."""
    return settings.board_game and len(set(settings.players)) >= 2


class StartDrawScreen:
    """The start draw for ``settings`` under ``rules`` (its ``start_rule`` and tile set)."""

    def __init__(self, settings: GameSettings, rules: Rules, *, language: str = "en",
                 read_tile: TileReader | None = None, form: object = None) -> None:
        self.settings = settings
        #: The new-game form the draw was opened from: BACK shows it again with its choices.
        self.form = form
        self.rules = rules
        self.language = language
        self.read_tile = read_tile
        self.drawn: list[DrawnTile] = []
        self.round = 1
        self.drawing: tuple[int, ...] = tuple(range(len(settings.players)))
        self.tied: tuple[int, ...] = ()
        self.starter: int | None = None
        #: A strings key (``start_draw.bad_tile``, ``start_draw.not_read``) and the tile it names.
        self.message = ""
        self.message_tile = ""
        #: The page of tile keys shown (the screen pages them when they do not fit; back to the first after a tile).
        self.page = 0

    # -- state ------------------------------------------------------------------------------------
    def _replay(self) -> None:
        """Round, who draws, ties and the starter, worked out again from every tile drawn."""
        self.round, self.drawing, self.tied, self.starter = 1, tuple(range(len(self.settings.players))), (), None
        while len(draws := self._this_round()) == len(self.drawing):
            result = decide_start(self.rules.start_rule, draws, self.rules.tileset)
            if result.starter is not None:
                self.starter = result.starter
                return
            self.tied = self.drawing = result.redraw
            self.round += 1

    def _this_round(self) -> dict[int, str]:
        return {d.player: d.tile for d in self.drawn if d.round == self.round}

    @property
    def asking(self) -> int | None:
        """The player whose tile is asked for now (None once the starter is known)."""
        if self.starter is not None:
            return None
        done = self._this_round()
        return next((p for p in self.drawing if p not in done), None)

    def enter(self, tile: str) -> None:
        """The tile the player asked for drew (as typed: a letter, ``?`` blank, ``#`` stop, ``^`` arrow)."""
        player = self.asking
        if player is None:
            return
        try:
            symbol = normalise_tile(tile, self.rules.tileset)
        except EngineError:
            self.message, self.message_tile = "start_draw.bad_tile", tile
            return
        self.message = self.message_tile = ""
        self.page = 0
        self.drawn.append(DrawnTile(player, symbol, self.round))
        self._replay()

    def undo(self) -> None:
        """Take back the last tile entered (a tie or a starter it decided is taken back with it)."""
        if self.drawn:
            self.drawn.pop()
            self.message = self.message_tile = ""
            self._replay()

    def read(self) -> None:
        """READ TILE: the camera reads the tile the asked player laid on the board."""
        if self.read_tile is None:
            return
        tile = self.read_tile()
        if tile is None:
            self.message, self.message_tile = "start_draw.not_read", ""
            return
        self.enter(tile)

    # -- overlay protocol -----------------------------------------------------------------------------
    def handle(self, action: v.UiAction) -> object:
        kind = action.kind
        if kind is v.ActionKind.SET_OPTION and action.key == "draw":
            self.enter(action.text)
        elif kind is v.ActionKind.SET_OPTION and action.key == "page":
            self.page += 1
        elif kind is v.ActionKind.SET_OPTION and action.key == "camera":
            self.read()
        elif kind is v.ActionKind.UNDO:
            self.undo()
        elif kind is v.ActionKind.BACK:
            return self.form if self.form is not None else "new_game"
        elif kind in (v.ActionKind.START_GAME, v.ActionKind.CONFIRM, v.ActionKind.OK) and self.starter is not None:
            return replace(self.settings, first=self.starter)
        elif kind is v.ActionKind.PLAYER_BUTTON and self.starter is not None and action.player == self.starter:
            return replace(self.settings, first=self.starter)
        return None

    def tick(self, now: float) -> None:
        return None

    def view(self) -> v.View:
        return v.View(
            v.Screen.START_DRAW,
            language=self.language,
            game=v.GameKind(self.settings.game),
            players=tuple(v.PlayerView(name, 0) for name in self.settings.players),
            alphabet=self.rules.tileset.alphabet,
            start_draw=StartDrawView(
                players=tuple(self.settings.players),
                rule="start_draw.rule_" + self.rules.start_rule.value.replace("-", "_"),
                tiles=tile_choices(self.rules),
                drawn=tuple(self.drawn),
                asking=self.asking,
                round=self.round,
                tied=self.tied,
                starter=self.starter,
                can_read=self.read_tile is not None,
                message=self.message,
                message_tile=self.message_tile,
                values=tile_values(self.rules),
                page=self.page,
            ),
        )


def tile_values(rules: Rules) -> tuple[tuple[str, int], ...]:
    """The points of each tile to draw when points decide who starts (empty when the alphabet decides)."""
    if rules.start_rule is not StartRule.HIGHEST_VALUE:
        return ()
    return tuple((tile, rules.tileset.value(tile)) for tile in tile_choices(rules))


def tile_choices(rules: Rules) -> tuple[str, ...]:
    """The tiles a player can have drawn from this set, letters in alphabet order first."""
    bag = rules.tileset.full_bag()
    letters = [ch for ch in rules.tileset.alphabet if bag.get(ch, 0)]
    letters += sorted(ch for ch in bag if ch.isalpha() and ch not in letters)
    specials = [s for s in (BLANK, STOP, ARROW) if bag.get(s, 0)]
    if rules.start_rule is StartRule.HIGHEST_VALUE and not rules.special_tiles:
        specials = [s for s in specials if s == BLANK]
    return tuple(letters + specials)


def start_draw_for(settings: GameSettings, opened_from: object, *, language: str = "en", camera: Any = None,
                   board_profile: Callable[[GameSettings], str] | None = None) -> StartDrawScreen | None:
    """The start-draw screen to open when the new-game form starts ``settings`` (None: start at once: not a
    board game, a single player, or the settings come from the draw itself). ``board_profile`` names the
    vision profile for ``settings`` (READ TILE is offered when there is a camera and a profile)."""
    if isinstance(opened_from, StartDrawScreen) or not needs_start_draw(settings):
        return None
    rules = settings.rules()
    read_tile = None
    if camera is not None and board_profile is not None:
        profile = board_profile(settings)
        read_tile = camera_tile_reader(camera, lambda: _vision_reader(profile, rules), rules, settings.players)
    return StartDrawScreen(settings, rules, language=language, read_tile=read_tile, form=opened_from)


def _vision_reader(board_profile: str, rules: Rules) -> Any:
    from device.reading import VisionReader

    return VisionReader(board_profile, rules.tileset)


def camera_tile_reader(camera: Any, make_reader: Callable[[], Any], rules: Rules,
                       players: Sequence[str]) -> TileReader:
    """READ TILE: the one tile on the board that was not there at the previous reading (players may leave
    their drawn tiles on the board). The move reader is made at the first reading."""
    from engine.game import Game

    seen: set[Any] = set()
    readers: list[Any] = []

    def read() -> str | None:
        try:
            if not readers:
                readers.append(make_reader())
            reader = readers[0]
            still = getattr(reader, "still_frame", None)
            frame = still(camera) if still is not None else camera.best_still(1.0)
            if frame is None:
                return None
            reading = reader.read(frame, Game(rules, list(players)))
        except Exception:  # noqa: BLE001 - a camera or vision failure means "not read": the player taps instead
            return None
        tiles = tuple(getattr(reading, "tiles", ()))
        new = [t for t in tiles if t.square not in seen]
        seen.update(t.square for t in tiles)
        if len(new) != 1:
            return None
        return BLANK if new[0].blank else new[0].letter

    return read


def sample_views() -> dict[str, v.View]:
    """Start-draw screens for the gallery and the render tests, every state in both games: nobody has drawn
    yet, tiles entered (with a refused tile), a tie drawn again (Scrabble, four players, camera present; and
    Alfapet, whose keys are paged on the small panel, its second page shown), and a starter found."""
    scrabble = GameSettings(game="scrabble", language="en", players=("Ann", "Bob", "Cecilia", "Dag"))
    empty = StartDrawScreen(replace(scrabble, players=("Ann", "Bob")), scrabble.rules())
    tie = StartDrawScreen(scrabble, scrabble.rules(), read_tile=lambda: None)
    for tile in ("M", "C", "T", "C", "R"):  # Bob and Dag both draw C; in the redraw Bob has R, Dag is asked
        tie.enter(tile)
    blank = StartDrawScreen(replace(scrabble, players=("Ann", "Bob", "Cecilia")), scrabble.rules())
    for tile in ("E", "?", "A"):
        blank.enter(tile)
    alfapet = GameSettings(game="alfapet", language="sv", players=("Anna", "Bertil"), rack_size=7)
    found = StartDrawScreen(alfapet, alfapet.rules(), language="sv")
    for tile in ("A", "Q"):
        found.enter(tile)
    three = replace(alfapet, players=("Anna", "Bertil", "Cilla"))
    entered = StartDrawScreen(three, alfapet.rules(), read_tile=lambda: None)
    for tile in ("^", "K", "1"):  # tiles entered, then one refused
        entered.enter(tile)
    alfapet_tie = StartDrawScreen(three, alfapet.rules(), read_tile=lambda: None)
    for tile in ("Z", "Y", "X", "C"):  # Anna (Z) and Cilla (X) tie on 10 points; Anna draws C again, Cilla is asked
        alfapet_tie.enter(tile)
    second_page = StartDrawScreen(three, alfapet.rules(), read_tile=lambda: None)
    for tile in ("Z", "Y", "X", "C"):
        second_page.enter(tile)
    second_page.handle(v.UiAction(v.ActionKind.SET_OPTION, key="page"))
    return {"start_draw_empty": empty.view(), "start_draw_tie": tie.view(), "start_draw_blank": blank.view(),
            "start_draw_starter": found.view(), "start_draw_alfapet": entered.view(),
            "start_draw_alfapet_tie": alfapet_tie.view(), "start_draw_page": second_page.view()}

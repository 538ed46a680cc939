# SPDX-License-Identifier: GPL-3.0-or-later
"""The ports of the game flows: what comes in (:class:`FlowEvent`), what they act through
(:class:`Collaborators`: store, clock, camera, move reader, judge, buzzer, time, photo archive) and the one
interface every flow implements (:class:`GameFlow`). The flows (``device.flow``, ``device.ordskifte_flow``,
``device.keywords_flow``) depend on these; the app and the tests plug real or fake collaborators in."""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from device.store import Store
from device.ui import view as v
from engine.game import Game
from engine.moves import Placement
from engine.squares import Square


class EventKind(enum.Enum):
    START = "start"
    PLAYER_BUTTON = "player-button"
    CONFIRM = "confirm"
    CORRECT_TILE = "correct-tile"
    SET_BLANK = "set-blank"
    BACK = "back"
    EXCHANGE = "exchange"
    PASS = "pass"
    MANUAL_ENTRY = "manual-entry"
    MANUAL_MOVE = "manual-move"
    CHALLENGE = "challenge"
    OK = "ok"
    UNDO = "undo"
    END_GAME = "end-game"
    RACK = "rack"
    TICK = "tick"
    CAMERA_LOST = "camera-lost"
    NEW_GAME = "new-game"
    PAUSE = "pause"
    RESUME = "resume"


@dataclass(frozen=True)
class FlowEvent:
    """Something that happened: a button, a touch's meaning, a clock tick. ``kind`` is an
    :class:`EventKind`, or another flow's own enum (the word games' ``Action``)."""

    kind: enum.Enum
    player: int | None = None
    square: Square | None = None
    letter: str = ""
    text: str = ""
    #: Extra fields a kind needs (a steal's victim and old word).
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)


# -- collaborators -----------------------------------------------------------------------------------

class Camera(Protocol):
    def best_still(self, timeout_s: float = 1.0) -> Any: ...


@dataclass(frozen=True)
class ReadTile:
    square: Square
    letter: str
    """``"?"`` for a blank whose letter the player must give."""
    blank: bool = False
    candidates: tuple[tuple[str, float], ...] = ()
    """Top letters when the reading was unsure (best first); empty when sure."""


class ReadKind(enum.Enum):
    PLACEMENT = "placement"
    WITHDRAWAL = "withdrawal"
    """The last placement's tiles were taken back (a phony), perhaps with the next placement (``tiles``)."""
    UNCHANGED = "unchanged"
    UNUSABLE = "unusable"
    """Covered, no board, or a conflict the player has to sort out by hand."""


@dataclass(frozen=True)
class Reading:
    """What the move reader made of a frame, in the flow's terms."""

    kind: ReadKind
    tiles: tuple[ReadTile, ...] = ()
    messages: tuple[str, ...] = ()
    confident: bool = False
    removed: tuple[Square, ...] = ()
    token: Any = None
    """Reader-private data handed back to :meth:`MoveReader.learn` after confirmation."""


class MoveReader(Protocol):
    def read(self, frame: Any, game: Game) -> Reading: ...

    def learn(self, reading: Reading, placement: Placement) -> None: ...


class Judge(Protocol):
    def judge_play(self, words: Any) -> Any: ...


class Buzzer(Protocol):
    def play(self, pattern: Any, *, wait: bool = False) -> None: ...


@dataclass
class Collaborators:
    store: Store
    clock: Any = None
    """An engine.clocks.ChessClock, or None (no clock)."""
    camera: Camera | None = None
    reader: MoveReader | None = None
    judge: Judge | None = None
    buzzer: Buzzer | None = None
    now: Callable[[], float] = time.monotonic
    export_dir: Path | None = None
    photo_saver: Callable[[int, Any], str | None] | None = None
    """Saves the frame of event number ``seq``; returns its path for the JSON record."""
    photo_archive: Any = None
    """A :class:`device.archive.PhotoArchive`: ``keep(game_id, seq, frame)`` (used instead of ``photo_saver``)."""


# -- the interface of every flow ----------------------------------------------------------------------

class GameFlow(Protocol):
    """What the app needs of a flow, and all it uses (no probing): one per game kind (``device.games``).

    Every flow dispatches through a table ``(state, event kind) -> handler`` (pairs not listed are ignored),
    stores each event before it returns (a store failure undoes the change), owns the clock in
    ``collaborators.clock`` (paused while a screen above the game is open, restored paused on resume), and
    says things to the players as :class:`~device.ui.view.Text` keys, never as worded text."""

    language: str
    auto_accept_s: float
    #: What the flow works with; the app hands the same collaborators to the next game's flow.
    c: Collaborators

    @property
    def kind(self) -> v.GameKind: ...

    @property
    def state(self) -> enum.Enum: ...

    @property
    def game_id(self) -> int | None: ...

    @property
    def settings(self) -> Any: ...
    """The game's :class:`device.config.GameSettings` (a default before a game is on)."""

    @property
    def notices(self) -> list[v.Notice]: ...
    """Warnings the screen shows above the game (the app adds its own start-up ones)."""

    def new_game(self, settings: Any, *, meta: Mapping[str, Any] | None = None) -> int: ...

    def resume(self, game_id: int) -> None: ...

    def handle(self, event: FlowEvent) -> enum.Enum: ...

    def event_from_action(self, action: v.UiAction) -> FlowEvent | None: ...

    def view(self) -> v.View: ...

    def save_clock(self) -> None: ...

    def resume_clock(self) -> None: ...

    def wants_new_game_form(self) -> bool: ...
    """The flow left its game for the new-game form (END -> NEW GAME): the app opens the form."""

    def back_from_new_game(self) -> None: ...
    """The new-game form was closed without starting: back to the game that was on (if any)."""

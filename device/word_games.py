# SPDX-License-Identifier: GPL-3.0-or-later
"""What the timer-driven word games (Ordskifte, Keywords) share on the device: their own flow events,
the judge lookup, the buzzer and clock helpers, and :class:`TimedWordGameFlow`, the base of both flows
(the table dispatch, saving and resuming the clock, pause and resume)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from device.flow import event_from_action as board_event_from_action
from device.ports import Collaborators, EventKind, FlowEvent
from device.ui import view as v
from engine.errors import EngineError


class Action(enum.Enum):
    """Flow events of the word games that the board-game :class:`device.flow.EventKind` lacks."""

    MAKE_WORD = "make-word"
    STEAL = "steal"
    DISPUTE = "dispute"
    WORDS = "words"
    ROUND_OVER = "round-over"
    NEXT_ROUND = "next-round"


def make_event(kind: Any, player: int | None = None, text: str = "", **data: Any) -> FlowEvent:
    """A flow event carrying ``data`` (e.g. a steal's victim and old word)."""
    return FlowEvent(kind, player, text=text, data=data)


def event_data(event: Any) -> Mapping[str, Any]:
    return getattr(event, "data", None) or {}


def word_game_event(action: v.UiAction) -> Any:
    """A touch's meaning for the Ordskifte and Keywords flows (None when they do not use it)."""
    k = v.ActionKind
    if action.kind is k.MAKE_WORD:
        return make_event(Action.MAKE_WORD, action.player, action.text)
    if action.kind is k.STEAL:
        return make_event(Action.STEAL, action.player, action.text, victim=action.target, old=action.old)
    if action.kind is k.DISPUTE:
        return make_event(Action.DISPUTE, action.target)
    if action.kind is k.KEYWORDS_WORDS:
        return make_event(Action.WORDS, action.player, " ".join(action.words), unused=action.number or 0)
    if action.kind is k.NEXT_ROUND:
        return make_event(Action.NEXT_ROUND)
    return board_event_from_action(action)


def buzz(c: Collaborators, name: str) -> None:
    if c.buzzer is None:
        return
    from hardware.buzzer import Pattern

    c.buzzer.play(Pattern(name))


class JudgeWords:
    """A judge as the ``contains(word)`` word list the engine rules take."""

    def __init__(self, judge: Any) -> None:
        self.judge = judge

    def contains(self, word: str) -> bool:
        return bool(self.judge.judge_play([word]).acceptable)


def judge_for(c: Collaborators, lang: str) -> tuple[Any, str]:
    """The collaborators' judge when it is for ``lang``, else the installed list; (None, why) if none."""
    if c.judge is not None and getattr(c.judge, "lang", None) == lang:
        return c.judge, ""
    try:
        from device.paths import lexicon_dir
        from engine.lexicon.judge import open_judge

        return open_judge(lang, lexicon_dir()), ""
    except (EngineError, OSError) as exc:
        return None, str(exc)


def clock_reading(timer: Any, now: float, warn_ms: int) -> v.ClockReading:
    from engine.clocks import ClockState

    state = timer.state(now)
    remaining = timer.remaining_ms(now)
    ui_state = {ClockState.RUNNING: v.TimerState.RUNNING, ClockState.PAUSED: v.TimerState.PAUSED,
                ClockState.EXPIRED: v.TimerState.EXPIRED}.get(state, v.TimerState.IDLE)
    return v.ClockReading(remaining, ui_state, warning=ui_state is v.TimerState.RUNNING and remaining <= warn_ms)


class TimedWordGameFlow:
    """Base of the word-game flows. A subclass sets ``NEW_GAME_STATE`` and, after its table is built,
    ``transitions``: {(state, event kind): handler returning the next state}; pairs not listed are ignored."""

    NEW_GAME_STATE: ClassVar[enum.Enum]
    KIND: ClassVar[v.GameKind]
    # Keyed by (the flow's own State, an event kind): Any, as each subclass has its own State enum.
    transitions: ClassVar[Mapping[Any, Callable[[Any, Any], Any]]] = {}
    c: Collaborators
    game_id: int | None
    message: v.Text | None
    notices: list[v.Notice]
    settings: Any
    language: str
    auto_accept_s: float = 0.0
    """Unused (nothing is auto-accepted in the word games); part of the GameFlow interface."""
    _state: Any
    _before_new_game: Any = None

    @property
    def kind(self) -> v.GameKind:
        return self.KIND

    def wants_new_game_form(self) -> bool:
        return self._state is self.NEW_GAME_STATE

    def back_from_new_game(self) -> None:
        """Back from the new-game form to where the game was (if one is on)."""
        if self._state is self.NEW_GAME_STATE and self._before_new_game is not None:
            self._state, self._before_new_game = self._before_new_game, None

    @property
    def state(self) -> Any:
        return self._state

    @property
    def timer(self) -> Any:
        return self.c.clock

    def _clock_dict(self) -> dict[str, Any] | None:
        # "paused" is for readers of the database (the live page); a restored timer is paused anyway.
        return None if self.timer is None else {**self.timer.to_dict(self.c.now()), "paused": self.timer.paused}

    def save_clock(self) -> None:
        if self.game_id is not None and self.timer is not None:
            self.c.store.save_clock(self.game_id, self._clock_dict())

    def resume_clock(self) -> None:
        if self.timer is not None and self.timer.paused:
            self.timer.resume(self.c.now())

    def event_from_action(self, action: v.UiAction) -> Any:
        return word_game_event(action)

    def handle(self, event: Any) -> Any:
        handler = self.transitions.get((self._state, event.kind))
        if handler is None:
            return self._state
        if event.kind is not EventKind.TICK:
            self.message = None
        self._state = handler(self, event)
        return self._state

    def _pause(self, event: Any) -> Any:
        if self.timer is not None and not self.timer.paused:
            self.timer.pause(self.c.now())
            self.save_clock()
        return self._state

    def _resume(self, event: Any) -> Any:
        self.resume_clock()
        self.save_clock()
        return self._state

    def _to_new_game(self, event: Any) -> Any:
        self._before_new_game = self._state
        return self.NEW_GAME_STATE

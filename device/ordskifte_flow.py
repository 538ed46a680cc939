# SPDX-License-Identifier: GPL-3.0-or-later
"""Ordskifte on the device, beside a real board (companion mode): the turn timer, the buzzer, the rails.

The tiles are physical; the players type each word they lay on a rail (or steal) on the touchscreen
keyboard, and the device keeps the rails, the turn and the timer (``engine.ordskifte`` in companion
mode: ``track_tiles=False``). States::

    START --PLAYER_BUTTON(p)--> PLAYING      (the players drew for who starts; p's button starts the timer)
    PLAYING --MAKE_WORD / STEAL--> PLAYING   (judged at once: WORD_ACCEPTED and a fresh minute, or the
                                              dictionary-dispute outcome: rejected, turn passes)
    PLAYING --TICK (timer ran out)--> PLAYING, next player;  --PLAYER_BUTTON(current)--> next player
    PLAYING --DISPUTE / CHALLENGE--> PLAYING (the last play judged again, or rejected by the players)
    PLAYING --six words / END_GAME--> END --NEW_GAME--> NEW_GAME

Words are judged against the Norwegian word list: the collaborators' judge when it is for ``nb``,
else ``engine.lexicon.open_judge("nb", device.paths.lexicon_dir())``. Without a list the screen
warns (``warn.lexicon_missing``) and the players settle disputes with DISPUTE (the rejection outcome).

Every action is committed to the store (one record with the action and a snapshot of the game and
the clock) before the flow returns, so what the screen shows survives a power cut; :meth:`resume`
rebuilds the game from the last snapshot with the timer paused.

Timer length: ``meta["timer_s"]``, else ``settings.timer_seconds``, else ``settings.minutes`` when it is
one of the box settings (0.5, 1, 2, 3 minutes), else 60 s.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

from device.config import GameSettings
from device.flow import Collaborators, EventKind
from device.texts import error_text
from device.ui import view as v
from device.word_games import Action, JudgeWords, TimedWordGameFlow, buzz, clock_reading, event_data, judge_for
from engine.errors import EngineError
from engine.ordskifte import (
    RAILS,
    TIMER_CHOICES,
    WIN_WORDS,
    OrdskifteGame,
)
from engine.ordskifte import EventKind as GameEventKind

LANGUAGE = "nb"
DEFAULT_TIMER_S = 60
WARN_MS = 10_000


class State(enum.Enum):
    START = "start"
    PLAYING = "playing"
    END = "end"
    NEW_GAME = "new-game"


def timer_seconds(settings: GameSettings, meta: Mapping[str, Any]) -> int:
    if "timer_s" in meta:
        return int(meta["timer_s"])
    if settings.timer_seconds:
        return settings.timer_seconds
    seconds = round(settings.minutes * 60)
    return seconds if seconds in TIMER_CHOICES else DEFAULT_TIMER_S


class OrdskifteFlow(TimedWordGameFlow):
    """The Ordskifte state machine; the interface is the one ``device.games`` documents."""

    NEW_GAME_STATE = State.NEW_GAME
    KIND = v.GameKind.ORDSKIFTE

    def __init__(self, collaborators: Collaborators, *, auto_accept_s: float = 3.0, language: str = "nb") -> None:
        self.c = collaborators
        self.language = language
        self._state = State.NEW_GAME
        self.game_id: int | None = None
        self.settings = GameSettings(game=v.GameKind.ORDSKIFTE.value, language=LANGUAGE, clock="turn")
        self.meta: dict[str, Any] = {}
        self.game: OrdskifteGame | None = None
        self.seq = 0
        self.message: v.Text | None = None
        self._info: v.Text | None = None  # the message, when it is news rather than a refusal
        self.notices: list[v.Notice] = []
        self.judge: Any = None
        self.missing_reason = ""
        self.disputed = False
        """The last play was already judged on a dispute (no second dispute of it)."""

    # -- lifecycle ----------------------------------------------------------------------------------
    def new_game(self, settings: GameSettings, *, meta: Mapping[str, Any] | None = None) -> int:
        self.meta = dict(meta or {})
        self.meta.setdefault("timer_s", timer_seconds(settings, self.meta))
        OrdskifteGame.new(settings.players, track_tiles=False)  # refuses a wrong number of players
        self.game_id = self.c.store.create_game(settings, meta=self.meta)
        self.settings = settings
        self.game = None
        self.seq = 0
        self.c.clock = None
        self._state = State.START
        self._open_judge()
        self.message = self._info = v.Text("msg.draw_start")
        return self.game_id

    def resume(self, game_id: int) -> None:
        """The game as last stored; the timer restored paused (RESUME or the current player's button)."""
        from engine.clocks import clock_from_dict

        saved = self.c.store.load(game_id)
        self.game_id, self.settings, self.meta = game_id, saved.settings, dict(saved.meta)
        self.seq = len(saved.events)
        last = saved.events[-1] if saved.events else None
        self.game = OrdskifteGame.from_dict(last["game"]) if last else None
        self.disputed = bool(last.get("disputed")) if last else False
        self.c.clock = clock_from_dict(saved.clock) if saved.clock else None
        if self.game is None:
            self._state = State.START
        else:
            self._state = State.END if self.game.is_over else State.PLAYING
        self._open_judge()
        paused = self._state is State.PLAYING and self.timer is not None and self.timer.paused
        self.message = self._info = v.Text("msg.resumed_paused") if paused else None

    def _open_judge(self) -> None:
        self.judge, why = judge_for(self.c, LANGUAGE)
        self.notices = [n for n in self.notices if n.key != "warn.lexicon_missing"]
        if self.judge is None:
            # The full reason (path, command) is long; the screen gets the fix.
            self.notices.append(v.Notice("warn.lexicon_missing", v.Severity.WARNING,
                                         f"words are not checked (ordvakt lexicon build {LANGUAGE})"))
            self.missing_reason = why

    def save_clock(self) -> None:
        if self.game_id is not None:  # before the start there is no timer: store that too
            self.c.store.save_clock(self.game_id, self._clock_dict())

    def _commit(self, action: Mapping[str, Any], change: Callable[[], None]) -> None:
        """Run ``change`` (game and timer) and store the result; if storing fails, nothing happened."""
        assert self.game is not None and self.game_id is not None
        before = self.game.to_dict()
        clock_before = self._clock_dict()
        disputed = self.disputed
        try:
            change()
            record = dict(action, game=self.game.to_dict(), disputed=self.disputed)
            self.c.store.append(self.game_id, self.seq, record, clock=self._clock_dict(),
                                finished=self.game.is_over)
        except BaseException:
            from engine.clocks import clock_from_dict

            self.game = OrdskifteGame.from_dict(before)
            self.disputed = disputed
            if clock_before is not None:
                restored = clock_from_dict(clock_before)
                if not self.c.clock.paused:
                    restored.resume(self.c.now())
                self.c.clock = restored
            raise
        self.seq += 1

    def _start(self, event: Any) -> State:
        from engine.clocks import TurnTimer

        assert self.game_id is not None
        players = list(self.settings.players)
        first = 0 if event.player is None else event.player
        if not 0 <= first < len(players):
            return State.START
        self.game = OrdskifteGame.new(players, track_tiles=False, first_player=first,
                                      timer_seconds=int(self.meta["timer_s"]))
        timer = TurnTimer(self.game.timer_seconds, players=len(players), auto_start=True, player=first)
        timer.start(self.c.now())
        self.c.clock = timer
        record = {"action": "start", "player": first, "game": self.game.to_dict(), "disputed": False}
        try:
            self.c.store.append(self.game_id, self.seq, record, clock=self._clock_dict())
        except BaseException:
            self.game, self.c.clock = None, None
            raise
        self.seq += 1
        buzz(self.c, "turn-over")
        return State.PLAYING

    def _tick(self, event: Any) -> State:
        """Warnings and expiry of the turn; the app may have polled the events first (it buzzes them
        then), so the turn change is read from the timer itself."""
        timer, game = self.timer, self.game
        if timer is None or game is None:
            return self._state
        for ev in timer.poll(self.c.now()):
            buzz(self.c, "tick" if ev.kind.value == "warning" else "times-up")
        while timer.player != game.current and not game.is_over:
            self._commit({"action": "expired", "player": game.current}, self._expire)
        return self._state

    def _expire(self) -> None:
        assert self.game is not None
        self.game.turn_expired()
        self.disputed = False

    def _player_button(self, event: Any) -> State:
        game, timer = self.game, self.timer
        assert game is not None and timer is not None
        if timer.paused:
            self.resume_clock()
            self.save_clock()
            return State.PLAYING
        self._tick(event)
        if event.player is not None and event.player != game.current:
            return State.PLAYING  # only the player whose turn it is can give it up

        def give_up() -> None:
            assert self.game is not None
            self.game.give_up()
            self.timer.end_turn(self.c.now())
            self.disputed = False

        self._commit({"action": "give_up", "player": game.current}, give_up)
        buzz(self.c, "turn-over")
        return State.PLAYING

    def _play(self, event: Any) -> State:
        game, timer = self.game, self.timer
        assert game is not None and timer is not None
        self._tick(event)
        if game.is_over:
            return self._state
        if timer.paused:
            self.message = v.Text("msg.timer_paused")
            return State.PLAYING
        if event.player is not None and event.player != game.current:
            self.message = v.Text.of("msg.not_your_turn", name=game.players[game.current])
            return State.PLAYING
        text = event.text.strip()
        data = event_data(event)
        victim = data.get("victim")
        action: dict[str, Any] = {"action": "word", "player": game.current, "word": text}
        rail = None
        if event.kind is Action.STEAL:
            old = str(data.get("old", ""))
            rails = game.rails[victim] if isinstance(victim, int) and 0 <= victim < len(game.rails) else []
            rail = next((i for i, w in enumerate(rails) if w.notation == old), None)
            if rail is None:
                self.message = v.Text.of("msg.not_on_rail", word=old)
                return State.PLAYING
            action.update(action="steal", victim=victim, old=old)
        outcome: list[Any] = []

        def play() -> None:
            assert self.game is not None
            self.game.lexicon = JudgeWords(self.judge) if self.judge is not None else None
            try:
                if rail is None:
                    outcome.append(self.game.make_word(text))
                else:
                    assert isinstance(victim, int)
                    outcome.append(self.game.steal(victim, rail, text))
            finally:
                self.game.lexicon = None
            now = self.c.now()
            if outcome[0].kind in (GameEventKind.WORD, GameEventKind.STEAL):
                if not self.game.is_over:
                    self.timer.word_made(now)
                else:
                    self.timer.pause(now)
            else:
                self.timer.end_turn(now)
            self.disputed = False

        try:
            self._commit(action, play)
        except EngineError as exc:
            self.message = error_text(exc)
            return State.PLAYING
        return self._after_play()

    def _after_play(self) -> State:
        game = self.game
        assert game is not None
        last = next(e for e in reversed(game.events) if e.kind not in (GameEventKind.TILE_PLAYED,
                                                                        GameEventKind.GAME_OVER))
        if last.kind in (GameEventKind.WORD_REJECTED, GameEventKind.STEAL_REJECTED, GameEventKind.TURN_ENDED):
            rejected = next(e for e in reversed(game.events)
                            if e.kind in (GameEventKind.WORD_REJECTED, GameEventKind.STEAL_REJECTED))
            self.message = v.Text.of("msg.word_rejected", word=rejected.word.upper(), name=game.players[game.current])
            buzz(self.c, "challenge-upheld")
            return State.PLAYING
        if game.is_over:
            buzz(self.c, "times-up")
            return State.END
        buzz(self.c, "word-accepted")
        return State.PLAYING

    def _dispute(self, event: Any) -> State:
        """A dispute of the last word or steal: judged again when there is a word list, else the
        players checked a dictionary and it is rejected (RULES §2.7)."""
        game = self.game
        assert game is not None
        self._tick(event)
        play = self._disputable()
        if play is None:
            self.message = v.Text("msg.nothing_to_dispute")
            return self._state
        word = play.word.upper()
        if self.judge is not None:
            if self.judge.judge_play([word]).acceptable:
                def stands() -> None:
                    self.disputed = True

                self._commit({"action": "dispute", "word": word, "upheld": False}, stands)
                self.message = self._info = v.Text.of("msg.word_stands", word=word)
                buzz(self.c, "challenge-rejected")
                return self._state
            reason = f"{word} is not in the dictionary"
            told = v.Text.of("msg.dispute_upheld", word=word)
        else:
            reason = f"{word} rejected after checking the dictionary"
            told = v.Text.of("msg.dispute_by_players", word=word)

        def reject() -> None:
            assert self.game is not None
            self.game.reject_last_play(reason)
            self.timer.end_turn(self.c.now())
            if self.timer.paused:
                self.timer.resume(self.c.now())
            self.disputed = False

        self._commit({"action": "dispute", "word": word, "upheld": True}, reject)
        self.message = told
        buzz(self.c, "challenge-upheld")
        return State.PLAYING

    def _disputable(self) -> Any:
        game = self.game
        if game is None or self.disputed:
            return None
        for e in reversed(game.events):
            if e.kind in (GameEventKind.WORD, GameEventKind.STEAL):
                return e
            if e.kind not in (GameEventKind.TILE_PLAYED, GameEventKind.GAME_OVER):
                return None
        return None

    def _end_game(self, event: Any) -> State:
        assert self.game is not None

        def finish() -> None:
            assert self.game is not None
            self.game.finish()
            self.timer.pause(self.c.now())

        self._commit({"action": "finish"}, finish)
        buzz(self.c, "times-up")
        return State.END

    # -- the view -----------------------------------------------------------------------------------
    def view(self) -> v.View:
        names = list(self.settings.players)
        game = self.game
        if self._state is State.NEW_GAME:
            return v.View(v.Screen.NEW_GAME, language=self.language, game=self.KIND,
                          warnings=tuple(self.notices))
        rails = game.rails if game is not None else [[] for _ in names]
        pending = self._disputable()
        owner = pending.player if pending is not None else None
        players = tuple(
            v.OrdskiftePlayer(name, tuple(v.RailWordView(w.notation, pending=owner == i and j == len(rails[i]) - 1)
                                          for j, w in enumerate(rails[i])))
            for i, name in enumerate(names)
        )
        to_move = game.current if game is not None else 0
        if self.timer is not None:
            reading = clock_reading(self.timer, self.c.now(), WARN_MS)
        else:  # before the start: the full time, waiting
            reading = v.ClockReading(int(self.meta.get("timer_s", DEFAULT_TIMER_S)) * 1000, v.TimerState.IDLE)
        timer = v.TimerView(v.ClockMode.TURN, reading, to_move, "timer.turn")
        winners = tuple(game.winners) if game is not None and game.is_over else ()
        ordskifte = v.OrdskifteView(players, to_move, timer, WIN_WORDS, RAILS,
                                    RAILS - sum(len(r) for r in rails), winner=winners,
                                    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ")
        player_views = tuple(
            v.PlayerView(name, len(rails[i]), to_move=i == to_move and self._state is State.PLAYING)
            for i, name in enumerate(names)
        )
        screen = v.Screen.END if self._state is State.END else v.Screen.ORDSKIFTE
        return v.View(
            screen, language=self.language, game=self.KIND, players=player_views,
            clock_mode=v.ClockMode.TURN, timer=timer, ordskifte=ordskifte, warnings=tuple(self.notices),
            message=self.message, winner=winners, can_undo=False,
            message_severity=v.Severity.INFO if self.message == self._info else v.Severity.ERROR,
            alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ",
        )


_Handler = Callable[[OrdskifteFlow, Any], State]

#: (state, event kind) -> handler returning the next state; pairs not listed are ignored.
_TRANSITIONS: dict[tuple[State, Any], _Handler] = {
    (State.START, EventKind.PLAYER_BUTTON): OrdskifteFlow._start,
    (State.START, EventKind.START): OrdskifteFlow._start,
    (State.START, EventKind.NEW_GAME): OrdskifteFlow._to_new_game,
    (State.PLAYING, EventKind.TICK): OrdskifteFlow._tick,
    (State.PLAYING, EventKind.PLAYER_BUTTON): OrdskifteFlow._player_button,
    (State.PLAYING, Action.MAKE_WORD): OrdskifteFlow._play,
    (State.PLAYING, Action.STEAL): OrdskifteFlow._play,
    (State.PLAYING, Action.DISPUTE): OrdskifteFlow._dispute,
    (State.PLAYING, EventKind.CHALLENGE): OrdskifteFlow._dispute,
    (State.PLAYING, EventKind.END_GAME): OrdskifteFlow._end_game,
    (State.PLAYING, EventKind.PAUSE): OrdskifteFlow._pause,
    (State.PLAYING, EventKind.RESUME): OrdskifteFlow._resume,
    (State.PLAYING, EventKind.NEW_GAME): OrdskifteFlow._to_new_game,
    (State.END, EventKind.NEW_GAME): OrdskifteFlow._to_new_game,
    (State.END, Action.DISPUTE): OrdskifteFlow._dispute,
    (State.END, EventKind.CHALLENGE): OrdskifteFlow._dispute,
}
OrdskifteFlow.transitions = _TRANSITIONS

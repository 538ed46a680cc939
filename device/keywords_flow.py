# SPDX-License-Identifier: GPL-3.0-or-later
"""Keywords on the device: the 30-second round timer, the score pad and the words checked at the end.

The keycaps, the bag and the action keys are physical; the device replaces the hourglass and the
score pad. States::

    PLAYING --PLAYER_BUTTON--> PLAYING   (first press starts the starter's 30 s, each later press
                                          flips it to the other player; TICK buzzes the last seconds
                                          and TIMES_UP when the sand has run out)
    PLAYING --NEXT_ROUND / CONFIRM--> ENTRY   (End was drawn or the bag is empty: the round is over)
    ENTRY --WORDS(player, words, unused)--> ENTRY   (scored with engine.keywords.score_round; a refused
                                                     word is shown with its reason; resubmitting replaces)
    ENTRY --NEXT_ROUND (both entered)--> PLAYING (next round, starters alternate) | MATCH_OVER
    MATCH_OVER --NEW_GAME--> NEW_GAME

Words are checked against the word list of ``settings.language`` (the collaborators' judge when it
is for that language, else the installed list); without one only the Keywords rules are checked
and the screen warns. Match settings come from ``meta``: ``target`` (default 30, ``None`` for a
match by rounds only), ``rounds`` (default none), ``round_s`` (default 30), ``first_starter`` (the
coin toss, default 0). Every change is stored as a record with a snapshot before the flow returns;
:meth:`resume` continues from the last one with the timer paused.
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
from engine.keywords import ROUND_SECONDS, KeywordsMatch, score_round

WARN_MS = 5_000


class State(enum.Enum):
    PLAYING = "playing"
    ENTRY = "entry"
    MATCH_OVER = "match-over"
    NEW_GAME = "new-game"


def _empty_entries() -> list[dict[str, Any]]:
    return [{"words": [], "unused": 0, "score": None, "problem": None} for _ in range(2)]


class KeywordsFlow(TimedWordGameFlow):
    """The Keywords state machine; the interface is the one ``device.games`` documents."""

    NEW_GAME_STATE = State.NEW_GAME
    KIND = v.GameKind.KEYWORDS

    def __init__(self, collaborators: Collaborators, *, auto_accept_s: float = 3.0, language: str = "en") -> None:
        self.c = collaborators
        self.language = language
        self._state = State.NEW_GAME
        self.game_id: int | None = None
        self.settings = GameSettings(game=v.GameKind.KEYWORDS.value, clock="round")
        self.meta: dict[str, Any] = {}
        self.match: KeywordsMatch | None = None
        self.entries = _empty_entries()
        self.seq = 0
        self.message: v.Text | None = None
        self.notices: list[v.Notice] = []
        self.judge: Any = None
        self.missing_reason = ""

    # -- lifecycle ----------------------------------------------------------------------------------
    def new_game(self, settings: GameSettings, *, meta: Mapping[str, Any] | None = None) -> int:
        meta = dict(meta or {})
        meta.setdefault("target", settings.target_score or 30)
        if settings.timer_seconds:
            meta.setdefault("round_s", settings.timer_seconds)
        meta.setdefault("rounds", None)
        meta.setdefault("round_s", ROUND_SECONDS)
        meta.setdefault("first_starter", 0)
        match = KeywordsMatch(list(settings.players), target=meta["target"], rounds=meta["rounds"],
                              first_starter=int(meta["first_starter"]))
        self.game_id = self.c.store.create_game(settings, meta=meta)
        self.settings, self.meta, self.match = settings, meta, match
        self.entries = _empty_entries()
        self.seq = 0
        self._state = State.PLAYING
        self._new_timer()
        self.save_clock()
        self._open_judge()
        self.message = None
        return self.game_id

    def resume(self, game_id: int) -> None:
        from engine.clocks import clock_from_dict

        saved = self.c.store.load(game_id)
        self.game_id, self.settings, self.meta = game_id, saved.settings, dict(saved.meta)
        self.seq = len(saved.events)
        if saved.events:
            snap = saved.events[-1]
            self.match = KeywordsMatch.from_dict(snap["match"])
            self.entries = [dict(e) for e in snap["entries"]]
            self._state = State(snap["state"])
        else:
            self.match = KeywordsMatch(list(saved.settings.players), target=self.meta.get("target"),
                                       rounds=self.meta.get("rounds"),
                                       first_starter=int(self.meta.get("first_starter", 0)))
            self.entries = _empty_entries()
            self._state = State.PLAYING
        if self._state is State.PLAYING and saved.clock:
            self.c.clock = clock_from_dict(saved.clock)
        elif self._state is State.PLAYING:
            self._new_timer()
        else:
            self.c.clock = None
        self._open_judge()
        self.message = None

    def _new_timer(self) -> None:
        from engine.clocks import RoundTimer

        assert self.match is not None
        self.c.clock = RoundTimer(float(self.meta.get("round_s", ROUND_SECONDS)), players=2,
                                  player=self.match.next_starter())

    def _open_judge(self) -> None:
        self.judge, why = judge_for(self.c, self.settings.language)
        self.notices = [n for n in self.notices if n.key != "warn.lexicon_missing"]
        if self.judge is None:
            lang = self.settings.language
            self.notices.append(v.Notice("warn.lexicon_missing", v.Severity.WARNING,
                                         f"only the Keywords rules are checked (ordvakt lexicon build {lang})"))
            self.missing_reason = why

    def _snapshot(self, state: State) -> dict[str, Any]:
        assert self.match is not None
        return {"match": self.match.to_dict(), "entries": [dict(e) for e in self.entries], "state": state.value}

    def _commit(self, action: Mapping[str, Any], state: State, change: Callable[[], None]) -> None:
        """Apply ``change`` and store the result with ``action``; if storing fails, nothing happened."""
        assert self.match is not None and self.game_id is not None
        match_before, entries_before = self.match.to_dict(), [dict(e) for e in self.entries]
        try:
            change()
            clock = self._clock_dict()
            self.c.store.append(self.game_id, self.seq, dict(action, **self._snapshot(state)), clock=clock,
                                finished=state is State.MATCH_OVER)
        except BaseException:
            self.match, self.entries = KeywordsMatch.from_dict(match_before), entries_before
            raise
        self.seq += 1

    def _tick(self, event: Any) -> State:
        if self.timer is not None:
            for ev in self.timer.poll(self.c.now()):
                buzz(self.c, "tick" if ev.kind.value == "warning" else "times-up")
        return self._state

    def _press(self, event: Any) -> State:
        """A player button flips the round timer (the first press starts it)."""
        timer = self.timer
        assert timer is not None
        self._tick(event)
        if timer.paused:
            self.resume_clock()
        else:
            timer.press(self.c.now())
            buzz(self.c, "turn-over")
        self.save_clock()
        return State.PLAYING

    def _round_over(self, event: Any) -> State:
        def over() -> None:
            if self.timer is not None:
                self.timer.pause(self.c.now())
            self.entries = _empty_entries()

        self._commit({"action": "round_over"}, State.ENTRY, over)
        self.c.clock = None
        buzz(self.c, "times-up")
        return State.ENTRY

    def _words(self, event: Any) -> State:
        player = event.player
        if player not in (0, 1):
            self.message = v.Text("engine.refused")
            return State.ENTRY
        words = event.text.split()
        unused = int(event_data(event).get("unused", 0) or 0)
        lexicon = JudgeWords(self.judge) if self.judge is not None else None
        entry: dict[str, Any] = {"words": words, "unused": unused, "score": None, "problem": None}
        try:
            entry["score"] = score_round(words, unused, lexicon).total
        except EngineError as exc:
            refusal = error_text(exc)
            entry["problem"] = {"key": refusal.key, "args": dict(refusal.args)}

        def store_entry() -> None:
            self.entries[player] = entry

        self._commit({"action": "words", "player": player}, State.ENTRY, store_entry)
        if entry["problem"]:
            buzz(self.c, "challenge-upheld")
        else:
            buzz(self.c, "word-accepted")
        return State.ENTRY

    def _next_round(self, event: Any) -> State:
        missing = [self.settings.players[i] for i, e in enumerate(self.entries) if e["score"] is None]
        if missing:
            self.message = v.Text.of("msg.words_needed", names=", ".join(missing))
            return State.ENTRY
        assert self.match is not None
        scores = [int(e["score"]) for e in self.entries]
        finished = [False]

        def record() -> None:
            assert self.match is not None
            self.match.record_round(scores)
            finished[0] = self.match.is_over
            self.entries = _empty_entries()
            if not finished[0]:
                self._new_timer()

        done = State.MATCH_OVER if self._ends_match(scores) else State.PLAYING
        self._commit({"action": "round", "scores": scores}, done, record)
        buzz(self.c, "times-up" if done is State.MATCH_OVER else "turn-over")
        return done

    def _ends_match(self, scores: list[int]) -> bool:
        assert self.match is not None
        trial = KeywordsMatch.from_dict(self.match.to_dict())
        trial.record_round(scores)
        return trial.is_over

    # -- the view -----------------------------------------------------------------------------------
    def view(self) -> v.View:
        if self._state is State.NEW_GAME or self.match is None:
            return v.View(v.Screen.NEW_GAME, language=self.language, game=self.KIND,
                          warnings=tuple(self.notices))
        match = self.match
        totals = match.totals
        players = []
        for i, name in enumerate(match.players):
            rounds = tuple(s[i] for s in match.round_scores)
            entry = self.entries[i]
            total = totals[i]
            if self._state is State.ENTRY and entry["score"] is not None:
                rounds += (int(entry["score"]),)  # on the pad as soon as it is entered
                total += int(entry["score"])
            players.append(v.KeywordsPlayer(name, rounds, total, tuple(entry["words"]), int(entry["unused"]),
                                            submitted=entry["score"] is not None, problem=_problem(entry["problem"])))
        phase = {State.PLAYING: v.KeywordsPhase.PLAYING, State.ENTRY: v.KeywordsPhase.ENTRY,
                 State.MATCH_OVER: v.KeywordsPhase.MATCH_OVER}[self._state]
        timer = None
        if self.timer is not None and self._state is State.PLAYING:
            timer = v.TimerView(v.ClockMode.ROUND, clock_reading(self.timer, self.c.now(), WARN_MS),
                                self.timer.player, "timer.round")
        round_no = len(match.round_scores) + (0 if self._state is State.MATCH_OVER else 1)
        keywords = v.KeywordsView(tuple(players), round_no, phase, timer, match.target, match.rounds)
        return v.View(
            v.Screen.KEYWORDS, language=self.language, game=self.KIND,
            players=tuple(v.PlayerView(p.name, p.total, to_move=timer is not None and timer.player == i)
                          for i, p in enumerate(players)),
            clock_mode=v.ClockMode.ROUND, timer=timer, keywords=keywords, warnings=tuple(self.notices),
            message=self.message, winner=tuple(match.winners), can_undo=False,
        )


def _problem(stored: Any) -> v.Text | None:
    """A refusal as stored with an entry ({key, args}); text from before codes existed shows the generic refusal."""
    if not stored:
        return None
    if isinstance(stored, dict):
        return v.Text(str(stored["key"]), tuple(stored.get("args", {}).items()))
    return v.Text("engine.refused")


_Handler = Callable[[KeywordsFlow, Any], State]

#: (state, event kind) -> handler returning the next state; pairs not listed are ignored.
_TRANSITIONS: dict[tuple[State, Any], _Handler] = {
    (State.PLAYING, EventKind.TICK): KeywordsFlow._tick,
    (State.PLAYING, EventKind.PLAYER_BUTTON): KeywordsFlow._press,
    (State.PLAYING, Action.NEXT_ROUND): KeywordsFlow._round_over,
    (State.PLAYING, Action.ROUND_OVER): KeywordsFlow._round_over,
    (State.PLAYING, EventKind.CONFIRM): KeywordsFlow._round_over,
    (State.PLAYING, EventKind.PAUSE): KeywordsFlow._pause,
    (State.PLAYING, EventKind.RESUME): KeywordsFlow._resume,
    (State.PLAYING, EventKind.NEW_GAME): KeywordsFlow._to_new_game,
    (State.ENTRY, Action.WORDS): KeywordsFlow._words,
    (State.ENTRY, Action.NEXT_ROUND): KeywordsFlow._next_round,
    (State.ENTRY, EventKind.CONFIRM): KeywordsFlow._next_round,
    (State.ENTRY, EventKind.NEW_GAME): KeywordsFlow._to_new_game,
    (State.MATCH_OVER, EventKind.NEW_GAME): KeywordsFlow._to_new_game,
}
KeywordsFlow.transitions = _TRANSITIONS

# SPDX-License-Identifier: GPL-3.0-or-later
"""The game flow of a board game (Scrabble, Alfapet) as an explicit state machine.

States and events are enums; :data:`TRANSITIONS` maps ``(State, EventKind)`` to the handler that
runs and returns the next state. Handlers change the flow's own game data and otherwise act only
through the collaborators passed in (:class:`Collaborators`: store, clock, camera, reader, judge,
buzzer, time source), so the table can be tested with fakes. Every event is committed to the store
before the flow returns, so the screen never shows a move as done that a power cut would lose.

::

    NEW_GAME --START--> PLAYING
    PLAYING --PLAYER_BUTTON--> (capture, read) --> CONFIRM | ASK_EXCHANGE_OR_PASS | MANUAL_ENTRY
    CONFIRM --CONFIRM / auto-accept TICK--> PLAYING (or END_RACKS / END when the game ends)
    CONFIRM --CORRECT_TILE / SET_BLANK--> CONFIRM;  CONFIRM --BACK--> PLAYING (same player)
    ASK_EXCHANGE_OR_PASS --EXCHANGE / PASS--> PLAYING;  --MANUAL_ENTRY--> MANUAL_ENTRY
    MANUAL_ENTRY --MANUAL_MOVE--> CONFIRM;  --BACK--> PLAYING
    PLAYING --CHALLENGE--> CHALLENGE (clocks paused, verdict, rule applied) --OK--> PLAYING
    PLAYING --UNDO--> PLAYING;  PLAYING --END_GAME--> END_RACKS --RACK x n--> END
    END --UNDO--> PLAYING;  END --NEW_GAME--> NEW_GAME;  NEW_GAME --BACK--> PLAYING | END (the game that was on)

Challenge rules: TRIPLE -- CHALLENGE decides the game (phony: the challenger wins, else the
challenged player), stored in the game's meta; OK --> END; UNDO takes the decision back.
VOID -- no CHALLENGE; CONFIRM judges every formed word and refuses an unacceptable play.
A camera reading of kind WITHDRAWAL (the last play's tiles taken back, perhaps with the next
placement) goes to CONFIRM with the removed squares; CONFIRM stores Withdraw (then the placement).
It never auto-accepts.

The new-game form, settings, word judge and calibration screens are the app's
(device.games.NewGameForm, device.overlays): they never change the flow's state.

The chess clock is paused while a move is being confirmed (that time belongs to nobody) and
switches to the next player when the move is stored.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from device.config import GameSettings
from device.ports import (  # noqa: F401 - the ports, importable from here as before
    Buzzer,
    Camera,
    Collaborators,
    EventKind,
    FlowEvent,
    GameFlow,
    Judge,
    MoveReader,
    Reading,
    ReadKind,
    ReadTile,
)
from device.texts import error_text, problem_text
from device.ui import view as v
from device.ui.view import Text
from engine.errors import EngineError
from engine.game import Game, GameEvent
from engine.moves import (
    ChallengeBonus,
    Exchange,
    Move,
    Pass,
    PlacedTile,
    Placement,
    RackPoints,
    TimePenalty,
    Withdraw,
)
from engine.rules import ChallengeRule, RackAccounting
from engine.squares import Direction, Square


class State(enum.Enum):
    NEW_GAME = "new-game"
    PLAYING = "playing"
    CONFIRM = "confirm"
    ASK_EXCHANGE_OR_PASS = "ask-exchange-or-pass"
    MANUAL_ENTRY = "manual-entry"
    CHALLENGE = "challenge"
    END_RACKS = "end-racks"
    END = "end"


# -- the pending move on the confirm screen ------------------------------------------------------------

@dataclass
class Pending:
    player: int
    tiles: dict[Square, ReadTile]
    source: str  # "camera" | "manual"
    created: float
    confident: bool = False
    reading: Reading | None = None
    photo: str | None = None
    problems: tuple[Text, ...] = ()
    withdraw: bool = False
    """Confirming first withdraws the last placement (the camera saw its tiles taken back)."""
    removed: tuple[Square, ...] = ()
    stop_tiles: tuple[PlacedTile, ...] = ()
    """Alfapet: a stop tile put down with the word (typed as ``#`` before the position)."""
    arrows: frozenset[Square] = frozenset()
    """Alfapet: squares whose letter lies on an arrow tile (the word bends there)."""
    direction: Direction | None = None
    """The direction the move was typed in (needed for bent and stop-tile words)."""
    built: Placement | None = None
    """The placement as built and checked once per change (None while it cannot be built or breaks a rule)."""
    scored: Any = None
    """Its engine ScoredPlacement (words and points), from the same single pass."""
    revision: int = 0
    """Counts the changes (the view of the proposal is rebuilt only when it changes)."""

    def blanks_needed(self) -> tuple[Square, ...]:
        return tuple(sq for sq, t in sorted(self.tiles.items()) if t.blank and t.letter == "?")

    def placement(self, game: Game) -> Placement:
        tiles = [PlacedTile(sq, t.letter.upper(), blank=t.blank, arrow=sq in self.arrows)
                 for sq, t in sorted(self.tiles.items())]
        special = bool(self.stop_tiles or self.arrows)
        return Placement.from_tiles([*self.stop_tiles, *tiles], game.board, self.direction if special else None)


@dataclass
class FlowState:
    """Everything the flow knows between events (the game itself is rebuilt from the store)."""

    state: State = State.NEW_GAME
    game_id: int | None = None
    settings: GameSettings = field(default_factory=GameSettings)
    game: Game | None = None
    pending: Pending | None = None
    verdict: v.Verdict | None = None
    challenge_words: tuple[str, ...] = ()
    racks_for: list[int] = field(default_factory=list)
    camera_lost: bool = False
    message: Text | None = None
    notices: list[v.Notice] = field(default_factory=list)
    exports: tuple[str, ...] = ()
    decided: int | None = None
    """TRIPLE challenge rule: the player the challenge made the winner."""
    decided_at: int = 0
    """Events before the deciding challenge (undo takes back the decision, then its withdrawal)."""


def _buzz(c: Collaborators, name: str) -> None:
    if c.buzzer is None:
        return
    from hardware.buzzer import Pattern

    c.buzzer.play(Pattern(name))


class Flow:
    """The state machine. ``handle(event)`` runs one transition and returns the new state."""

    def __init__(self, collaborators: Collaborators, *, auto_accept_s: float = 3.0, language: str = "en") -> None:
        self.c = collaborators
        self.s = FlowState()
        self.auto_accept_s = auto_accept_s
        self.language = language
        self._cache: tuple[Any, _StaticView] | None = None

    # -- lifecycle -------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.s.state

    @property
    def game(self) -> Game:
        assert self.s.game is not None, "no game in progress"
        return self.s.game

    # -- the GameFlow interface (device.ports) -------------------------------------------------------------
    @property
    def kind(self) -> v.GameKind:
        return v.GameKind(self.s.settings.game)

    @property
    def game_id(self) -> int | None:
        return self.s.game_id

    @property
    def settings(self) -> GameSettings:
        return self.s.settings

    @property
    def notices(self) -> list[v.Notice]:
        return self.s.notices

    def event_from_action(self, action: v.UiAction) -> FlowEvent | None:
        return event_from_action(action)

    def wants_new_game_form(self) -> bool:
        return self.s.state is State.NEW_GAME

    def back_from_new_game(self) -> None:
        if self.s.state is State.NEW_GAME and self.s.game is not None:
            self.handle(FlowEvent(EventKind.BACK))

    def new_game(self, settings: GameSettings, *, meta: Mapping[str, Any] | None = None) -> int:
        game_id = self.c.store.create_game(settings, meta=meta)
        self.s = FlowState(state=State.PLAYING, game_id=game_id, settings=settings,
                           game=settings.new_game(),
                           notices=self.s.notices)
        clock = self._new_clock(settings)
        self.c.clock = clock
        if clock is not None:
            clock.start(self.c.now(), self.game.to_move)
        self._save_clock()
        return game_id

    def resume(self, game_id: int) -> None:
        """Continue a saved game exactly: board, scores, whose turn; the clock restored paused."""
        saved = self.c.store.load(game_id)
        if saved.game is None:
            raise EngineError(f"game {game_id} ({saved.settings.game}) is not a board game")
        self.s = FlowState(state=State.END if saved.finished else State.PLAYING, game_id=game_id,
                           settings=saved.settings, game=saved.game, notices=self.s.notices,
                           decided=saved.meta.get("decided"), decided_at=saved.meta.get("decided_at") or 0)
        if saved.clock:
            from engine.clocks import clock_from_dict

            self.c.clock = clock_from_dict(saved.clock)
        else:
            self.c.clock = None
        if not saved.finished and self.game.finished:
            self._finish()

    def resume_clock(self) -> None:
        """Restored clocks are paused; the players restart them (or the app does at once)."""
        if self.c.clock is not None and self.c.clock.paused:
            self.c.clock.resume(self.c.now())

    @staticmethod
    def _new_clock(settings: GameSettings):
        if settings.clock != "chess" or len(settings.players) < 2:
            return None
        from engine.clocks import ChessClock

        return ChessClock(settings.minutes, players=len(settings.players))

    def handle(self, event: FlowEvent) -> State:
        handler = TRANSITIONS.get((self.s.state, event.kind))
        if handler is None:
            if event.kind is EventKind.CAMERA_LOST:
                self._camera_lost("camera lost")
            return self.s.state
        self.s.message = None
        self.s.state = handler(self, event)
        return self.s.state

    # -- store ----------------------------------------------------------------------------------------
    def _clock_dict(self) -> dict[str, Any] | None:
        # "paused" is for readers of the database (the live page); a restored clock is paused anyway.
        return None if self.c.clock is None else {**self.c.clock.to_dict(self.c.now()), "paused": self.c.clock.paused}

    def save_clock(self) -> None:
        """Store the clock readings (the app calls this every few seconds, so a crash loses little time)."""
        self._save_clock()

    def _save_clock(self) -> None:
        if self.s.game_id is not None:
            self.c.store.save_clock(self.s.game_id, self._clock_dict())

    def _record(self, move: Move, *, player: int | None = None, check: bool = True,
                extra: Mapping[str, Any] | None = None) -> GameEvent:
        """Play ``move`` and commit it (with the clock) before anything shows it as done."""
        game = self.game
        before = game.board.copy()
        seq = len(game.events)
        data = dict(extra or {})
        if self.c.clock is not None:
            data["clock_ms"] = list(self.c.clock.readings_ms(self.c.now()))
        event = game.play(move, player=player, check=check, extra=data)
        try:
            assert self.s.game_id is not None
            self.c.store.append_event(self.s.game_id, event, before, seq, clock=self._clock_dict(),
                                      lettered_rows=self.s.settings.lettered_rows)
        except BaseException:
            game.undo()  # not stored: not played
            raise
        return event

    # -- handlers ---------------------------------------------------------------------------------
    def _start(self, event: FlowEvent) -> State:
        self.new_game(self.s.settings)
        return State.PLAYING

    def _player_button(self, event: FlowEvent) -> State:
        game = self.game
        player = game.to_move if event.player is None else event.player
        if player != game.to_move:
            return State.PLAYING  # a waiting player's button does nothing, as on a chess clock
        now = self.c.now()
        if self.c.clock is not None:
            self.c.clock.pause(now)
        if self.c.camera is None or self.c.reader is None or self.s.camera_lost:
            self.s.message = Text("msg.no_camera")
            return State.MANUAL_ENTRY
        try:
            still = getattr(self.c.reader, "still_frame", None)
            frame = still(self.c.camera) if still is not None else self.c.camera.best_still(1.0)
        except Exception as exc:  # any camera failure: keep playing by hand
            self._camera_lost(str(exc))
            return State.MANUAL_ENTRY
        if frame is None:
            # Never read a move through a hand: the player presses again once the board is clear.
            self.s.message = Text("msg.not_still")
            self._resume_clock()
            return State.PLAYING
        reading = self.c.reader.read(frame, game)
        photo = (self.c.photo_archive.keep(self.s.game_id, len(game.events), frame) if self.c.photo_archive
                 else self.c.photo_saver(len(game.events), frame) if self.c.photo_saver else None)
        if reading.kind is ReadKind.UNCHANGED:
            self.s.pending = Pending(player, {}, "camera", now, reading=reading, photo=photo)
            return State.ASK_EXCHANGE_OR_PASS
        withdraw = reading.kind is ReadKind.WITHDRAWAL and self._last_placement() is not None
        if not withdraw and (reading.kind is ReadKind.UNUSABLE or not reading.tiles):
            self.s.message = Text("msg.unreadable")
            return State.MANUAL_ENTRY
        tiles = {t.square: t for t in reading.tiles}
        # A withdrawal always waits for the players: it takes points off the board.
        self.s.pending = Pending(player, tiles, "camera", now, reading.confident and not withdraw, reading, photo,
                                 withdraw=withdraw, removed=reading.removed)
        self._check_pending()
        return State.CONFIRM

    def _last_placement(self) -> GameEvent | None:
        """The event of the last placement still on the board (None if the last play was withdrawn)."""
        for event in reversed(self.game.events):
            if isinstance(event.move, Placement):
                return event
            if isinstance(event.move, Withdraw):
                return None
        return None

    def _base(self, pending: Pending) -> Game:
        """The game the pending placement is checked against (after the withdrawal, if any)."""
        if not pending.withdraw:
            return self.game
        probe = self.game.copy()
        probe.play(Withdraw(), check=False)
        return probe

    def _camera_lost(self, why: str) -> None:
        self.s.camera_lost = True
        if not any(n.key == "warn.camera_lost" for n in self.s.notices):
            self.s.notices.append(v.Notice("warn.camera_lost", v.Severity.WARNING, why))

    def _check_pending(self) -> None:
        pending = self.s.pending
        assert pending is not None
        problems: list[Text] = []
        pending.built = pending.scored = None
        pending.revision += 1
        if pending.withdraw and not pending.tiles:
            pending.problems = ()
            return
        base = self._base(pending)
        if pending.blanks_needed():
            problems.append(Text("msg.blanks_first"))
        else:
            try:
                placement = pending.placement(base)
                problems.extend(problem_text(p) for p in base.validate(placement))
                if not problems:
                    pending.built, pending.scored = placement, base.score(placement)
                if not problems and base.rules.challenge_rule is ChallengeRule.VOID:
                    problems.extend(self._void_problems(pending.scored))
            except EngineError as exc:
                problems.append(error_text(exc))
        pending.problems = tuple(problems)

    def _void_problems(self, scored: Any) -> list[Text]:
        """VOID rule: every word a play forms must be acceptable before it can be confirmed."""
        if self.c.judge is None:
            return []
        words = [w.word for w in scored.words]
        verdict = self.c.judge.judge_play(words)
        if verdict.acceptable:
            return []
        bad = [w.word for w in verdict.words if w.verdict.value == "invalid"] or words
        return [Text.of("msg.void_refused", words=", ".join(bad))]

    def _correct_tile(self, event: FlowEvent) -> State:
        pending = self.s.pending
        assert pending is not None and event.square is not None
        square = Square(*event.square)
        if not event.letter:
            pending.tiles.pop(square, None)
        else:
            old = pending.tiles.get(square)
            blank = old.blank if old else False
            pending.tiles[square] = ReadTile(square, event.letter.upper(), blank)
        pending.confident = False  # a corrected move always waits for the player
        self._check_pending()
        return State.CONFIRM

    def _set_blank(self, event: FlowEvent) -> State:
        pending = self.s.pending
        assert pending is not None and event.square is not None
        square = Square(*event.square)
        pending.tiles[square] = ReadTile(square, event.letter.upper() or "?", True)
        pending.confident = False
        self._check_pending()
        return State.CONFIRM

    def _confirm(self, event: FlowEvent) -> State:
        pending = self.s.pending
        assert pending is not None
        if pending.problems:  # checked when the move last changed
            self.s.message = pending.problems[0]
            return State.CONFIRM
        extra: dict[str, Any] = {"source": pending.source}
        if pending.photo:
            extra["photo"] = pending.photo
        self._resume_clock()
        if pending.withdraw:
            self._record(Withdraw(), check=False, extra={**extra, "note": "taken back (seen by the camera)"})
            pending.withdraw = False
            if not pending.tiles:  # only the phony came off: the same player is still to move
                self.s.pending = None
                return State.PLAYING
        placement = pending.built
        assert placement is not None
        # Built and checked once when the move last changed (against this board): stored without a second check.
        self._record(placement, player=pending.player, check=False, extra=extra)
        if pending.reading is not None and self.c.reader is not None:
            self.c.reader.learn(pending.reading, placement)
        return self._after_turn(pending.player)

    def _resume_clock(self) -> None:
        if self.c.clock is not None and self.c.clock.paused:
            self.c.clock.resume(self.c.now())

    def _after_turn(self, player: int) -> State:
        """The turn is stored: start the next player's clock, or end the game."""
        self.s.pending = None
        if self.c.clock is not None:
            self.c.clock.press(self.c.now(), player)
            self._save_clock()
        _buzz(self.c, "turn-over")
        if self.game.finished:
            return self._finish()
        return State.PLAYING

    def _auto_accept(self, event: FlowEvent) -> State:
        pending = self.s.pending
        if (pending is not None and pending.confident and not pending.problems and self.auto_accept_s > 0
                and self.c.now() - pending.created >= self.auto_accept_s):
            return self._confirm(event)
        return State.CONFIRM

    def _back_to_playing(self, event: FlowEvent) -> State:
        self.s.pending = None
        self._resume_clock()
        return State.PLAYING

    def _exchange(self, event: FlowEvent) -> State:
        player = self.s.pending.player if self.s.pending else self.game.to_move
        tiles = event.text.strip().upper()
        move = Exchange(tiles) if tiles and not tiles.isdigit() else Exchange(count=int(tiles or 0))
        self._resume_clock()
        self._record(move, player=player, extra={"source": "camera" if self.s.pending else "manual",
                                                 **self._photo_extra()})
        return self._after_turn(player)

    def _pass(self, event: FlowEvent) -> State:
        player = self.s.pending.player if self.s.pending else self.game.to_move
        self._resume_clock()
        self._record(Pass(), player=player, extra=self._photo_extra())
        return self._after_turn(player)

    def _photo_extra(self) -> dict[str, Any]:
        """The photo a camera-read exchange or pass was seen in (the archive keeps it with the move)."""
        return {"photo": self.s.pending.photo} if self.s.pending and self.s.pending.photo else {}

    def _manual_entry(self, event: FlowEvent) -> State:
        if self.c.clock is not None and not self.c.clock.paused:
            self.c.clock.pause(self.c.now())
        return State.MANUAL_ENTRY

    def _manual_move(self, event: FlowEvent) -> State:
        text = event.text.strip()
        player = self.s.pending.player if self.s.pending else self.game.to_move
        if text == "-":
            return self._pass(event)
        if text.startswith("-"):
            return self._exchange(FlowEvent(EventKind.EXCHANGE, text=text[1:]))
        try:
            placement = Placement.from_notation(text, self.game.board, lettered_rows=self.s.settings.lettered_rows)
        except EngineError:
            self.s.message = Text.of("msg.bad_notation", text=text)
            return State.MANUAL_ENTRY
        tiles = {t.square: ReadTile(t.square, t.letter, t.blank) for t in placement.letter_tiles}
        photo = self.s.pending.photo if self.s.pending else None
        self.s.pending = Pending(player, tiles, "manual", self.c.now(), photo=photo,
                                 stop_tiles=tuple(t for t in placement.tiles if t.is_stop),
                                 arrows=frozenset(t.square for t in placement.letter_tiles if t.arrow),
                                 direction=placement.direction)
        self._check_pending()
        return State.CONFIRM

    def _challenge(self, event: FlowEvent) -> State:
        game = self.game
        last = next((e for e in reversed(game.events) if not isinstance(e.move, (ChallengeBonus, TimePenalty))),
                    None)
        if last is None or not isinstance(last.move, Placement):
            self.s.message = Text("msg.no_challenge")
            return State.PLAYING
        if game.rules.challenge_rule is ChallengeRule.VOID:
            self.s.message = Text("msg.void_no_challenge")
            return State.PLAYING
        now = self.c.now()
        if self.c.clock is not None:
            self.c.clock.pause(now)
        self.s.challenge_words = last.words
        if self.c.judge is None:
            self.s.message = Text("msg.players_decide")
            self.s.verdict = None
            return State.CHALLENGE
        verdict = self.c.judge.judge_play(last.words)
        words = tuple(v.WordScore(w.word, 0, acceptable=w.verdict.value == "valid" or verdict.acceptable and
                                  w.verdict.value != "invalid") for w in verdict.words)
        self.s.verdict = v.Verdict(bool(verdict.acceptable), words)
        challenger = game.to_move if event.player is None else event.player
        rule = game.rules.challenge_rule
        if rule is ChallengeRule.TRIPLE:
            self.s.decided_at = len(game.events)
            if not verdict.acceptable:
                self._record(Withdraw(), extra={"note": "challenged off"})
            winner = challenger if not verdict.acceptable else last.player
            self._decide(winner, challenger)
            _buzz(self.c, "challenge-upheld" if not verdict.acceptable else "challenge-rejected")
            return State.CHALLENGE
        if not verdict.acceptable:
            self._record(Withdraw(), extra={"note": "challenged off"})
            _buzz(self.c, "challenge-upheld")
        else:
            _buzz(self.c, "challenge-rejected")
            if rule.bonus:
                self._record(ChallengeBonus(rule.bonus), player=last.player)
            elif rule is ChallengeRule.DOUBLE:
                self._record(Pass(), player=challenger, extra={"note": "lost turn: failed challenge"})
                if self.c.clock is not None:
                    self.c.clock.resume(self.c.now())
                    self.c.clock.press(self.c.now(), challenger)
                    self.c.clock.pause(self.c.now())
        self._save_clock()
        return State.CHALLENGE

    def _decide(self, winner: int, challenger: int) -> None:
        """TRIPLE rule: the challenge decides the game; stored so a restart shows the same result."""
        assert self.s.game_id is not None
        self.s.decided = winner
        if self.c.clock is not None and not self.c.clock.paused:
            self.c.clock.pause(self.c.now())
        self.c.store.update_meta(self.s.game_id, decided=winner, challenger=challenger, decided_at=self.s.decided_at)
        self.c.store.set_finished(self.s.game_id, True)
        self._save_clock()
        self.s.exports = self._export()

    def _challenge_done(self, event: FlowEvent) -> State:
        self.s.verdict = None
        self.s.challenge_words = ()
        if self.s.decided is not None:
            return State.END
        self._resume_clock()
        self._save_clock()
        if self.game.finished:
            return self._finish()
        return State.PLAYING

    def _undo(self, event: FlowEvent) -> State:
        game = self.game
        if self.s.decided is not None:
            assert self.s.game_id is not None
            self.s.decided = None
            self.c.store.update_meta(self.s.game_id, decided=None)
            self.c.store.set_finished(self.s.game_id, False)
            self.s.exports = ()
            if len(game.events) <= self.s.decided_at:
                return State.PLAYING  # the decision added no event: taking it back is the whole undo
        if not game.events:
            self.s.message = Text("msg.nothing_to_undo")
            return self.s.state
        seq = len(game.events) - 1
        assert self.s.game_id is not None
        self.c.store.remove_last(self.s.game_id, seq, clock=self._clock_dict())
        game.undo()
        self.s.exports = ()
        self.s.racks_for = []
        return State.PLAYING

    def _end_game(self, event: FlowEvent) -> State:
        game = self.game
        if self.c.clock is not None and not self.c.clock.paused:
            self.c.clock.pause(self.c.now())
        if game.went_out is None:
            self.s.racks_for = list(range(len(game.players)))
        return State.END_RACKS if self.s.racks_for else self._finish()

    def _rack(self, event: FlowEvent) -> State:
        """The rack of the first player still asked for (``text`` = its tiles, empty if none; ``?`` a blank).
        A letter the tile set lacks, or more copies than are unseen, is refused: never counted as 0."""
        game = self.game
        player = self.s.racks_for[0]
        rack = "".join(event.text.split()).upper()
        if game.went_out is not None and player == game.went_out:
            self.s.racks_for.pop(0)
            return State.END_RACKS if self.s.racks_for else self._finish()
        problem = self._rack_problem(rack)
        if problem is not None:
            self.s.message = problem
            return State.END_RACKS
        self._settle_rack(player, rack)
        self.s.racks_for.pop(0)
        return State.END_RACKS if self.s.racks_for else self._finish()

    def _rack_problem(self, rack: str) -> Text | None:
        tileset = self.game.rules.tileset
        for letter in rack:
            if letter != "?" and not tileset.is_letter(letter):
                return Text.of("msg.rack_letter", letter=letter)
        unseen = self._unseen_left()
        for letter in dict.fromkeys(rack):
            if rack.count(letter) > unseen.get(letter, 0):
                return Text.of("msg.rack_not_unseen", letter=letter, count=unseen.get(letter, 0))
        return None

    def _unseen_left(self) -> Counter[str]:
        """Tiles neither on the board nor already entered as someone's rack."""
        pool = self.game.unseen()
        for event in self.game.events:
            if isinstance(event.move, RackPoints) and event.player != self.game.went_out:
                pool.subtract(Counter(event.move.rack))
        return +pool

    def _settle_rack(self, player: int, rack: str) -> None:
        game = self.game
        accounting = game.rules.rack_accounting
        if game.went_out is None or accounting is not RackAccounting.TWICE_OPPONENT:
            self._record(RackPoints(rack), player=player, check=False)
        if game.went_out is not None and accounting is not RackAccounting.OWN_ONLY:
            # Tournament rule: only the player who went out scores (twice) the rack; box rules: plus its value.
            self._record(RackPoints(rack), player=game.went_out, check=False)

    def _finish(self) -> State:
        """Rack points where the unseen pool settles them, penalties, then store and export."""
        game = self.game
        has_racks = any(isinstance(e.move, RackPoints) for e in game.events)
        if game.went_out is not None and not has_racks:
            # known_rack(p) is p's rack when the other player's rack is empty (two players, empty bag).
            known = game.known_rack(1 - game.went_out) if len(game.players) == 2 else None
            if known is not None:
                self._settle_rack(1 - game.went_out, known)
            elif len(game.players) > 2 or game.bag_count == 0:
                self.s.racks_for = [p for p in range(len(game.players)) if p != game.went_out]
                if self.s.racks_for:
                    return State.END_RACKS
        if self.c.clock is not None and not any(isinstance(e.move, TimePenalty) for e in game.events):
            result = self.c.clock.finish(self.c.now())
            for penalty in result.penalties:
                self._record(TimePenalty(-penalty.points), player=penalty.player, check=False)
        assert self.s.game_id is not None
        self.c.store.set_finished(self.s.game_id, True)
        self._save_clock()
        self.s.exports = self._export()
        _buzz(self.c, "times-up")
        return State.END

    def _export(self) -> tuple[str, ...]:
        if self.c.export_dir is None or self.s.game_id is None:
            return ()
        paths = []
        base = self.c.export_dir / f"game-{self.s.game_id}"
        if len(self.game.players) == 2:
            paths.append(str(self.c.store.export_gcg(self.s.game_id, base.with_suffix(".gcg"))))
        paths.append(str(self.c.store.export_json(self.s.game_id, base.with_suffix(".json"))))
        return tuple(paths)

    def _pause(self, event: FlowEvent) -> State:
        if self.c.clock is not None and not self.c.clock.paused:
            self.c.clock.pause(self.c.now())
            self._save_clock()
        return State.PLAYING

    def _resume(self, event: FlowEvent) -> State:
        """Restart the clocks (after a break, or after a restart restored them paused)."""
        self._resume_clock()
        self._save_clock()
        return State.PLAYING

    def _new_game_screen(self, event: FlowEvent) -> State:
        return State.NEW_GAME

    def _back_from_new_game(self, event: FlowEvent) -> State:
        """Leave the new-game screen for the game that was on (if any)."""
        if self.s.game is None or self.s.game_id is None:
            return State.NEW_GAME
        return State.END if self.c.store.load(self.s.game_id).finished else State.PLAYING

    # -- the view ------------------------------------------------------------------------------------
    def view(self) -> v.View:
        """What the screen shows now. The board, history and proposal are built once per change of the
        game (:meth:`_static_view`); only the clocks and the auto-accept countdown are read per frame."""
        s = self.s
        screen = {
            State.NEW_GAME: v.Screen.NEW_GAME, State.PLAYING: v.Screen.SCOREBOARD,
            State.CONFIRM: v.Screen.CONFIRM_MOVE, State.ASK_EXCHANGE_OR_PASS: v.Screen.ASK_EXCHANGE_OR_PASS,
            State.MANUAL_ENTRY: v.Screen.MANUAL_ENTRY, State.CHALLENGE: v.Screen.CHALLENGE,
            State.END_RACKS: v.Screen.END_RACKS, State.END: v.Screen.END,
        }[s.state]
        if s.game is None:
            return v.View(screen, language=self.language, warnings=tuple(s.notices), message=s.message)
        game = s.game
        now = self.c.now()
        clock = self.c.clock
        readings = clock.readings_ms(now) if clock is not None else None
        paused = clock is not None and clock.paused
        clock_state = v.TimerState.PAUSED if paused else v.TimerState.RUNNING
        players = tuple(
            v.PlayerView(name, game.scores[i], to_move=i == game.to_move and s.state is not State.END,
                         clock=None if readings is None else v.ClockReading(
                             readings[i], clock_state if i == clock.active else v.TimerState.IDLE),
                         rack_count=game.rack_counts[i])
            for i, name in enumerate(game.players)
        )
        static = self._static_view()
        return v.View(
            screen=screen,
            language=self.language,
            game=self.kind,
            players=players,
            board=static.board,
            history=static.history,
            bag_count=game.bag_count,
            clock_mode=v.ClockMode(s.settings.clock) if clock is not None else v.ClockMode.NONE,
            proposal=self._with_countdown(static.proposal),
            verdict=s.verdict,
            judge_words=s.challenge_words,
            alphabet=game.rules.tileset.alphabet,
            warnings=tuple(s.notices),
            message=s.message or self._withdraw_text(),
            winner=self._winners() if s.state is State.END else (),
            can_undo=bool(game.events),
            export_paths=s.exports,
            racks=static.racks,
            final=static.final,
            paused=paused and s.state is State.PLAYING,
            hint=s.settings.hint,
        )

    def _static_view(self) -> _StaticView:
        """The parts of the view that change only with the game (cached on the events and the pending move)."""
        s = self.s
        game = self.game
        key = (s.state, len(game.events), game.events[-1] if game.events else None, id(s.pending),
               s.pending.revision if s.pending is not None else 0, tuple(s.racks_for))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        static = _StaticView(self._board_view(), self._history(), self._proposal_view(),
                             self._rack_entry(), self._final() if s.state is State.END else None)
        self._cache = (key, static)
        return static

    def _with_countdown(self, proposal: v.Proposal | None) -> v.Proposal | None:
        pending = self.s.pending
        if proposal is None or pending is None:
            return proposal
        if pending.confident and not pending.problems and self.auto_accept_s > 0:
            left = self.auto_accept_s - (self.c.now() - pending.created)
            return replace(proposal, auto_accept_ms=max(0, int(left * 1000)))
        return proposal

    def _withdraw_text(self) -> Text | None:
        pending = self.s.pending
        last = self._last_placement() if pending is not None and pending.withdraw else None
        if self.s.state is not State.CONFIRM or last is None:
            return None
        return Text.of("msg.withdraw_seen", name=self.game.players[last.player], words=", ".join(last.words),
                       score=last.score)

    def _winners(self) -> tuple[int, ...]:
        if self.s.decided is not None:
            return (self.s.decided,)
        outcome = self.game.outcome()
        if outcome is not None:
            return outcome.winners  # equal scores settled by the rules' tie-break
        scores = self.game.scores
        return tuple(i for i, sc in enumerate(scores) if sc == max(scores))

    def _rack_entry(self) -> v.RackEntry | None:
        if self.s.state is not State.END_RACKS or not self.s.racks_for:
            return None
        player = self.s.racks_for[0]
        unseen = "".join(sorted(self._unseen_left().elements()))
        return v.RackEntry(player, unseen, len(self.s.racks_for), self.game.rack_counts[player])

    def _final(self) -> v.FinalScores:
        """Each player's score taken apart (moves, rack, time, other) and why the game ended."""
        game = self.game
        n = len(game.players)
        moves, rack, time_, other = [0] * n, [0] * n, [0] * n, [0] * n
        tiles = [""] * n
        for event in game.events:
            move = event.move
            if isinstance(move, RackPoints):
                rack[event.player] += event.score
                if event.player != game.went_out:
                    tiles[event.player] = move.rack
            elif isinstance(move, TimePenalty):
                time_[event.player] += event.score
            elif isinstance(move, ChallengeBonus):
                other[event.player] += event.score
            else:
                moves[event.player] += event.score
        lines = tuple(v.ScoreLine(moves[i], rack[i], time_[i], other[i], game.scores[i], tiles[i]) for i in range(n))
        reason, tie = self._end_texts()
        return v.FinalScores(lines, reason, tie)

    def _end_texts(self) -> tuple[Text, Text | None]:
        """Why the game ended and, on equal scores, how the tie was settled (``end.reason.*``, ``end.tie_break.*``)."""
        from device.end_reason import end_texts

        game = self.game
        if self.s.decided is not None:
            return Text.of("end.reason.challenge", name=game.players[self.s.decided]), None
        outcome = game.outcome()
        if outcome is None:  # the players ended it before the rules did
            return Text.of("end.reason.agreed"), None
        texts = [Text(key, tuple(fields.items())) for key, fields in end_texts(outcome, game.rules, game.players)]
        return texts[0], texts[1] if len(texts) > 1 else None

    def _board_view(self) -> v.BoardView:
        game = self.game
        layout = game.rules.layout
        n = layout.size
        premiums = tuple(tuple(layout.premium(Square(r, c)).value for c in range(n)) for r in range(n))
        tiles = tuple(v.Tile((sq.row, sq.col), cell.letter, cell.blank, cell.is_stop) for sq, cell in game.board)
        last: tuple[tuple[int, int], ...] = ()
        for event in reversed(game.events):
            if isinstance(event.move, Placement):
                last = tuple((t.square.row, t.square.col) for t in event.move.tiles)
                break
            if isinstance(event.move, (Exchange, Pass, Withdraw)):
                break
        centre = layout.centre
        return v.BoardView(n, premiums, tiles, last, (centre.row, centre.col), layout.name)

    def _history(self) -> tuple[v.MoveRow, ...]:
        game = self.game
        probe = Game(game.rules, game.players, first=game.first)
        rows = []
        for event in game.events:
            rows.append(v.MoveRow(event.player, describe(event.move, probe.board, self.s.settings.lettered_rows),
                                  event.score, event.cumulative, event.words, kind=move_kind(event.move)))
            probe.replay([event])
        return tuple(rows)

    def _proposal_view(self) -> v.Proposal | None:
        pending = self.s.pending
        if pending is None or self.s.state is not State.CONFIRM:
            return None
        tiles = tuple(v.Tile((sq.row, sq.col), t.letter if t.letter != "?" else "", t.blank)
                      for sq, t in sorted(pending.tiles.items()))
        words: tuple[v.WordScore, ...] = ()
        score = 0
        if not pending.problems and pending.scored is not None:
            score = pending.scored.score
            words = tuple(v.WordScore(w.word, w.score, w.main) for w in pending.scored.words)
        uncertain = tuple(
            v.UncertainTile((sq.row, sq.col), tuple(v.Candidate(letter, conf) for letter, conf in t.candidates))
            for sq, t in sorted(pending.tiles.items()) if t.candidates
        )
        removed = tuple((sq.row, sq.col) for sq in pending.removed) if pending.withdraw else ()
        return v.Proposal(tiles, words, score, uncertain, tuple((sq.row, sq.col) for sq in pending.blanks_needed()),
                          pending.problems, None, pending.player, removed=removed)


@dataclass(frozen=True)
class _StaticView:
    board: v.BoardView
    history: tuple[v.MoveRow, ...]
    proposal: v.Proposal | None
    racks: v.RackEntry | None
    final: v.FinalScores | None


def move_kind(move: Move) -> str:
    """The history's label for a move (``MoveRow.kind``)."""
    return {Placement: "play", Exchange: "exchange", Pass: "pass", Withdraw: "withdraw", ChallengeBonus: "challenge",
            TimePenalty: "time", RackPoints: "rack"}[type(move)]


def describe(move: Move, board_before, lettered_rows: bool = False) -> str:
    """History text of a move: GCG notation for placements, ``-ABC`` exchange, ``-`` pass, ..."""
    if isinstance(move, Placement):
        return move.notation(board_before, lettered_rows=lettered_rows)
    if isinstance(move, Exchange):
        return f"-{move.tiles}" if move.tiles else f"-{move.count}"
    if isinstance(move, Pass):
        return "-"
    if isinstance(move, Withdraw):
        return "--"
    if isinstance(move, ChallengeBonus):
        return "(challenge)"
    if isinstance(move, TimePenalty):
        return "(time)"
    assert isinstance(move, RackPoints)
    return f"({move.rack})"


Handler = Callable[[Flow, FlowEvent], State]

#: The whole flow: (state, event) -> handler returning the next state. Pairs not listed are ignored.
TRANSITIONS: dict[tuple[State, enum.Enum], Handler] = {
    (State.NEW_GAME, EventKind.START): Flow._start,
    (State.NEW_GAME, EventKind.BACK): Flow._back_from_new_game,
    (State.PLAYING, EventKind.PLAYER_BUTTON): Flow._player_button,
    (State.PLAYING, EventKind.CHALLENGE): Flow._challenge,
    (State.PLAYING, EventKind.UNDO): Flow._undo,
    (State.PLAYING, EventKind.MANUAL_ENTRY): Flow._manual_entry,
    (State.PLAYING, EventKind.END_GAME): Flow._end_game,
    (State.PLAYING, EventKind.NEW_GAME): Flow._new_game_screen,
    (State.PLAYING, EventKind.PAUSE): Flow._pause,
    (State.PLAYING, EventKind.RESUME): Flow._resume,
    (State.CONFIRM, EventKind.CONFIRM): Flow._confirm,
    (State.CONFIRM, EventKind.PLAYER_BUTTON): Flow._confirm,
    (State.CONFIRM, EventKind.CORRECT_TILE): Flow._correct_tile,
    (State.CONFIRM, EventKind.SET_BLANK): Flow._set_blank,
    (State.CONFIRM, EventKind.TICK): Flow._auto_accept,
    (State.CONFIRM, EventKind.BACK): Flow._back_to_playing,
    (State.CONFIRM, EventKind.MANUAL_ENTRY): Flow._manual_entry,
    (State.ASK_EXCHANGE_OR_PASS, EventKind.EXCHANGE): Flow._exchange,
    (State.ASK_EXCHANGE_OR_PASS, EventKind.PASS): Flow._pass,
    (State.ASK_EXCHANGE_OR_PASS, EventKind.MANUAL_ENTRY): Flow._manual_entry,
    (State.ASK_EXCHANGE_OR_PASS, EventKind.BACK): Flow._back_to_playing,
    (State.MANUAL_ENTRY, EventKind.MANUAL_MOVE): Flow._manual_move,
    (State.MANUAL_ENTRY, EventKind.EXCHANGE): Flow._exchange,
    (State.MANUAL_ENTRY, EventKind.PASS): Flow._pass,
    (State.MANUAL_ENTRY, EventKind.BACK): Flow._back_to_playing,
    (State.CHALLENGE, EventKind.OK): Flow._challenge_done,
    (State.CHALLENGE, EventKind.BACK): Flow._challenge_done,
    (State.END_RACKS, EventKind.RACK): Flow._rack,
    (State.END_RACKS, EventKind.MANUAL_MOVE): Flow._rack,
    (State.END_RACKS, EventKind.UNDO): Flow._undo,
    (State.END, EventKind.UNDO): Flow._undo,
    (State.END, EventKind.NEW_GAME): Flow._new_game_screen,
}


def event_from_action(action: v.UiAction) -> FlowEvent | None:
    """A touch's meaning as a flow event (None for actions the board-game flow does not use)."""
    kinds = {
        v.ActionKind.CONFIRM: EventKind.CONFIRM, v.ActionKind.CORRECT_TILE: EventKind.CORRECT_TILE,
        v.ActionKind.SET_BLANK: EventKind.SET_BLANK, v.ActionKind.CHALLENGE: EventKind.CHALLENGE,
        v.ActionKind.UNDO: EventKind.UNDO, v.ActionKind.EXCHANGE: EventKind.EXCHANGE,
        v.ActionKind.PASS: EventKind.PASS, v.ActionKind.MANUAL_ENTRY: EventKind.MANUAL_ENTRY,
        v.ActionKind.MANUAL_MOVE: EventKind.MANUAL_MOVE, v.ActionKind.BACK: EventKind.BACK,
        v.ActionKind.OK: EventKind.OK, v.ActionKind.PLAYER_BUTTON: EventKind.PLAYER_BUTTON,
        v.ActionKind.END_GAME: EventKind.END_GAME, v.ActionKind.NEW_GAME: EventKind.NEW_GAME,
        v.ActionKind.START_GAME: EventKind.START, v.ActionKind.PAUSE: EventKind.PAUSE,
        v.ActionKind.RESUME: EventKind.RESUME, v.ActionKind.RACK: EventKind.RACK,
    }
    kind = kinds.get(action.kind)
    if kind is None:
        return None
    square = Square(*action.square) if action.square is not None else None
    return FlowEvent(kind, action.player, square, action.letter or "", action.text)

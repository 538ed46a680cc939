# SPDX-License-Identifier: GPL-3.0-or-later
"""Game clocks: the Ordskifte turn timer, the tournament chess clock, the Keywords round timer.

Pure logic, no threads and no clock of their own: every method that depends on time takes
``now``, a reading of a monotonic clock in **seconds** (``time.monotonic()`` in the app, a fake in
tests). Readings are rounded to integer milliseconds on entry and all arithmetic is done on
integers, with remaining time kept as "value at the last reading", so a clock polled at any
jittery rate stays exact to the millisecond.

Each clock queues what happened between readings (warnings, expiry, loss on time) as
:class:`ClockEvent` values stamped with the exact millisecond they fell due; ``poll(now)`` hands
them over, so the app's loop can drive the buzzer. ``to_dict(now)``/``from_dict()`` save and restore
a clock exactly; a restored clock is always paused and continues with ``resume(now)``::

    >>> t = TurnTimer(60)
    >>> t.start(0.0)
    >>> t.word_made(42.0)          # word made at 0:42: the same player gets a fresh minute
    >>> t.remaining_ms(42.5)
    59500
    >>> [e.kind.name for e in t.poll(102.0)][-1], t.player
    ('EXPIRED', 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engine.errors import ClockError

TURN_PRESETS_S = (30, 60, 120, 180)
"""Ordskifte timer settings from the box (RULES §2): 30 s, 1 min (default), 2 min, 3 min."""

LAST_TEN_SECONDS = tuple(range(10, 0, -1))


def to_ms(now: float) -> int:
    """Monotonic seconds to integer milliseconds (the only rounding the clocks do)."""
    return round(now * 1000)


def format_ms(ms: int) -> str:
    """Clock-face text: ``"1:05"`` counting down (whole seconds rounded up, as clocks show),
    ``"-1:01"`` in overtime (whole seconds of overtime used)."""
    if ms > 0:
        seconds = -(-ms // 1000)
        sign = ""
    else:
        seconds = -ms // 1000
        sign = "-" if ms < 0 else ""
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


class ClockEventKind(enum.Enum):
    WARNING = "warning"
    """A warning point was reached (``remaining_ms`` is the warning point)."""
    EXPIRED = "expired"
    """Time ran out: the turn/round is over, or (chess clock) the flag fell and overtime began."""
    OVERTIME_LIMIT = "overtime-limit"
    """Chess clock: the player went past the overtime limit and loses; the clock has stopped."""


@dataclass(frozen=True)
class ClockEvent:
    kind: ClockEventKind
    player: int
    """0-based index of the player whose time it concerns."""
    at_ms: int
    """Monotonic milliseconds at which it fell due (may be earlier than the poll that reports it)."""
    remaining_ms: int


class ClockState(enum.Enum):
    IDLE = "idle"
    """Not counting: before the first start, or (turn timer) waiting for the next player to start."""
    RUNNING = "running"
    PAUSED = "paused"
    """Stopped for a challenge or after a restore; ``resume(now)`` continues."""
    EXPIRED = "expired"
    """Round timer: ran out and waits to be flipped."""
    OVER = "over"
    """Chess clock: the game is finished (``finish()`` or loss on time); readings are final."""


@dataclass(frozen=True)
class TimePenalty:
    """Points a player loses for overtime; the game records it as a time-penalty event."""

    player: int
    overtime_ms: int
    points: int


@dataclass(frozen=True)
class ClockResult:
    """Final readings of a chess clock for the game record."""

    readings_ms: tuple[int, ...]
    """Per player; negative = overtime used."""
    penalties: tuple[TimePenalty, ...]
    """Only players with a penalty, in player order."""
    lost_on_time: int | None


def _check_players(players: int, low: int, high: int) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise ClockError(f"players={players!r}: this clock takes {low} to {high} players")
    return players


def _check_seconds(name: str, value: float) -> int:
    try:
        ms = to_ms(float(value))
    except (TypeError, ValueError):
        ms = 0
    if ms <= 0:
        raise ClockError(f"{name}={value!r}: must be a positive number of seconds")
    return ms


def _warning_points(warnings: tuple[float, ...] | list[float]) -> tuple[int, ...]:
    points = set()
    for w in warnings:
        points.add(_check_seconds("warning", w))
    return tuple(sorted(points, reverse=True))


class _Clock:
    """Shared time keeping: millisecond readings, pause, the event queue, restore."""

    KIND = ""

    def __init__(self) -> None:
        self._last_ms: int | None = None
        self._paused = False
        self._events: list[ClockEvent] = []

    # -- time ------------------------------------------------------------------------------
    def _sync(self, now: float) -> int:
        ms = to_ms(now)
        if self._last_ms is None:
            self._last_ms = ms
        elif ms < self._last_ms:
            raise ClockError(
                f"now={now!r} is earlier than the previous reading ({self._last_ms / 1000:.3f} s); "
                "pass readings of one monotonic clock (time.monotonic())"
            )
        if not self._paused:
            self._advance(ms)
        self._last_ms = ms
        return ms

    def _advance(self, ms: int) -> None:
        raise NotImplementedError

    def poll(self, now: float) -> list[ClockEvent]:
        """Bring the clock up to ``now`` and return the events since the last poll, oldest first."""
        self._sync(now)
        events, self._events = self._events, []
        return events

    # -- pause -----------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return self._paused

    def pause(self, now: float) -> None:
        """Stop all time (a challenge, a break). Pausing a paused clock does nothing."""
        self._sync(now)
        self._paused = True

    def resume(self, now: float) -> None:
        """Continue after :meth:`pause` or a restore; time between the two does not count."""
        self._sync(now)
        self._paused = False

    def _state(self, counting_state: ClockState) -> ClockState:
        if self._paused:
            return ClockState.PAUSED
        return counting_state

    # -- warnings --------------------------------------------------------------------------
    def _warn(self, player: int, points: tuple[int, ...], before: int, after: int, base_ms: int) -> None:
        """Queue the warning points crossed while remaining time fell from ``before`` to ``after``
        (``base_ms`` = the reading at which it was ``before``)."""
        for point in points:
            if before > point >= after:
                at_ms = base_ms + before - point
                self._events.append(ClockEvent(ClockEventKind.WARNING, player, at_ms, point))

    # -- restore ---------------------------------------------------------------------------
    def _common_dict(self) -> dict[str, Any]:
        return {"type": self.KIND, "version": 1}

    @classmethod
    def _check_dict(cls, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or data.get("type") != cls.KIND:
            kind = data.get("type") if isinstance(data, dict) else data
            raise ClockError(f"saved clock type {kind!r} is not {cls.KIND!r}; use clock_from_dict()")
        if data.get("version") != 1:
            raise ClockError(f"saved {cls.KIND} clock has version {data.get('version')!r}; expected 1")
        return data


def _int_field(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ClockError(f"saved clock field {key!r} = {value!r} is not an integer number of milliseconds")
    return value


class _Countdown(_Clock):
    """A countdown of the same full time for whoever's turn it is (:class:`TurnTimer`, :class:`RoundTimer`)."""

    MIN_PLAYERS = 1

    def __init__(self, seconds: float, *, players: int, warnings: tuple[float, ...] | list[float],
                 player: int) -> None:
        super().__init__()
        self.duration_ms = _check_seconds("seconds", seconds)
        self.players = _check_players(players, self.MIN_PLAYERS, 4)
        self.warnings_ms = tuple(w for w in _warning_points(warnings) if w < self.duration_ms)
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise ClockError(f"player={player!r}: must be 0..{self.players - 1}")
        self._player = player
        self._remaining = self.duration_ms

    @property
    def player(self) -> int:
        """Whose turn it is (0-based), as of the last reading."""
        return self._player

    def remaining_ms(self, now: float) -> int:
        self._sync(now)
        return self._remaining

    def _countdown_dict(self, now: float) -> dict[str, Any]:
        self._sync(now)
        return {
            **self._common_dict(),
            "duration_ms": self.duration_ms,
            "players": self.players,
            "warnings_ms": list(self.warnings_ms),
            "player": self._player,
            "remaining_ms": self._remaining,
        }

    @staticmethod
    def _countdown_args(data: dict[str, Any]) -> dict[str, Any]:
        """Constructor arguments saved by :meth:`_countdown_dict`."""
        return {
            "seconds": _int_field(data, "duration_ms") / 1000,
            "players": _int_field(data, "players"),
            "warnings": [w / 1000 for w in data.get("warnings_ms", [])],
            "player": _int_field(data, "player"),
        }


class TurnTimer(_Countdown):
    """Ordskifte turn timer (RULES §2): a countdown per turn; a word made restarts it and the player
    keeps the turn; when it runs out the turn passes to the next player.

    After expiry (or :meth:`end_turn`) the timer waits in ``IDLE`` for the next player to
    :meth:`start`, unless ``auto_start`` is set, in which case the next turn begins at the exact
    millisecond the previous one ran out.
    """

    KIND = "turn"

    def __init__(
        self,
        seconds: float = 60,
        *,
        players: int = 2,
        warnings: tuple[float, ...] | list[float] = LAST_TEN_SECONDS,
        auto_start: bool = False,
        player: int = 0,
    ) -> None:
        super().__init__(seconds, players=players, warnings=warnings, player=player)
        self.auto_start = bool(auto_start)
        self._running = False
        self.turns_started = 0

    def state(self, now: float) -> ClockState:
        self._sync(now)
        return self._state(ClockState.RUNNING if self._running else ClockState.IDLE)

    def _advance(self, ms: int) -> None:
        assert self._last_ms is not None
        base = self._last_ms
        while self._running:
            elapsed = ms - base
            before = self._remaining
            if elapsed < before:
                self._warn(self._player, self.warnings_ms, before, before - elapsed, base)
                self._remaining = before - elapsed
                return
            self._warn(self._player, self.warnings_ms, before, 0, base)
            base += before
            self._events.append(ClockEvent(ClockEventKind.EXPIRED, self._player, base, 0))
            self._next_player()
            if self.auto_start:
                self.turns_started += 1
            else:
                self._running = False

    def _next_player(self) -> None:
        self._player = (self._player + 1) % self.players
        self._remaining = self.duration_ms

    def start(self, now: float) -> None:
        """Start the current player's turn with the full time."""
        self._sync(now)
        if self._running:
            raise ClockError("the turn timer is already running; word_made() restarts it")
        self._running = True
        self._remaining = self.duration_ms
        self.turns_started += 1

    def word_made(self, now: float) -> None:
        """A word was made (or stolen): the same player continues with the full time."""
        self._sync(now)
        if not self._running:
            raise ClockError("no turn is running; start() the turn first")
        self._remaining = self.duration_ms

    def end_turn(self, now: float) -> None:
        """The player gives up the turn (no word): pass it on as if the time had run out."""
        self._sync(now)
        self._next_player()
        if self.auto_start:
            self._running = True
            self.turns_started += 1
        else:
            self._running = False

    def to_dict(self, now: float) -> dict[str, Any]:
        return {
            **self._countdown_dict(now),
            "auto_start": self.auto_start,
            "running": self._running,
            "turns_started": self.turns_started,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnTimer:
        """Restore a saved timer, paused: call ``resume(now)`` to continue."""
        data = cls._check_dict(data)
        timer = cls(**cls._countdown_args(data), auto_start=bool(data.get("auto_start", False)))
        timer._running = bool(data.get("running"))
        timer._remaining = _int_field(data, "remaining_ms")
        if not 0 < timer._remaining <= timer.duration_ms:
            raise ClockError(f"saved remaining_ms {timer._remaining!r} is outside 1..{timer.duration_ms}")
        timer.turns_started = _int_field(data, "turns_started")
        timer._paused = True
        return timer


class ChessClock(_Clock):
    """Tournament clock for Scrabble and Alfapet (RULES §5.1): 2–4 players, each with a countdown
    (25 min by default) that runs only on their turn and continues into negative overtime.

    Overtime costs ``penalty_points`` per started ``penalty_period_s`` (10 points per started minute);
    going past ``overtime_limit_s`` (10 min; ``None`` = no limit) loses the game and stops the clock.
    The penalty is capped at ``max_penalty`` (100; ``None`` = no cap).
    """

    KIND = "chess"

    def __init__(
        self,
        minutes: float = 25,
        *,
        players: int = 2,
        penalty_points: int = 10,
        penalty_period_s: float = 60,
        overtime_limit_s: float | None = 600,
        max_penalty: int | None = 100,
        warnings: tuple[float, ...] | list[float] = (),
    ) -> None:
        super().__init__()
        if not isinstance(minutes, int | float) or isinstance(minutes, bool) or to_ms(minutes * 60) <= 0:
            raise ClockError(f"minutes={minutes!r}: must be a positive number of minutes")
        self.budget_ms = to_ms(minutes * 60)
        self.players = _check_players(players, 2, 4)
        if not isinstance(penalty_points, int) or penalty_points < 0:
            raise ClockError(f"penalty_points={penalty_points!r}: must be a whole number >= 0")
        self.penalty_points = penalty_points
        self.penalty_period_ms = _check_seconds("penalty_period_s", penalty_period_s)
        self.overtime_limit_ms = (
            None if overtime_limit_s is None else _check_seconds("overtime_limit_s", overtime_limit_s)
        )
        if max_penalty is not None and (not isinstance(max_penalty, int) or max_penalty < 0):
            raise ClockError(f"max_penalty={max_penalty!r}: must be a whole number >= 0 or None")
        self.max_penalty = max_penalty
        self.warnings_ms = tuple(w for w in _warning_points(warnings) if w < self.budget_ms)
        self._remaining = [self.budget_ms] * self.players
        self._active: int | None = None
        self._over = False
        self._loser: int | None = None

    @property
    def active(self) -> int | None:
        """Whose clock runs (0-based), ``None`` before the start and after the end."""
        return self._active

    @property
    def lost_on_time(self) -> int | None:
        return self._loser

    def state(self, now: float) -> ClockState:
        self._sync(now)
        if self._over:
            return ClockState.OVER
        return self._state(ClockState.IDLE if self._active is None else ClockState.RUNNING)

    def remaining_ms(self, now: float, player: int | None = None) -> int:
        """Reading of ``player`` (default: the active one); negative in overtime."""
        self._sync(now)
        who = self._active if player is None else player
        if who is None:
            raise ClockError("no clock is running; name the player")
        self._check_player(who)
        return self._remaining[who]

    def readings_ms(self, now: float) -> tuple[int, ...]:
        self._sync(now)
        return tuple(self._remaining)

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise ClockError(f"player={player!r}: must be 0..{self.players - 1}")

    def _advance(self, ms: int) -> None:
        if self._active is None or self._over:
            return
        assert self._last_ms is not None
        who = self._active
        before = self._remaining[who]
        after = before - (ms - self._last_ms)
        if self.overtime_limit_ms is not None and after < -self.overtime_limit_ms:
            # Loss at the first millisecond past the limit; the reading freezes there.
            after = -self.overtime_limit_ms - 1
            ms = self._last_ms + before - after
        self._warn(who, self.warnings_ms, before, after, self._last_ms)
        if before > 0 >= after:
            self._events.append(ClockEvent(ClockEventKind.EXPIRED, who, self._last_ms + before, 0))
        self._remaining[who] = after
        if self.overtime_limit_ms is not None and after < -self.overtime_limit_ms:
            self._events.append(ClockEvent(ClockEventKind.OVERTIME_LIMIT, who, ms, after))
            self._loser = who
            self._over = True
            self._active = None

    def start(self, now: float, player: int = 0) -> None:
        """Start ``player``'s clock (the opponent of the first mover usually does this)."""
        self._sync(now)
        self._check_player(player)
        if self._over:
            raise ClockError("the game is over; the clock cannot be started again")
        if self._active is not None:
            raise ClockError(f"the clock is already running for player {self._active + 1}")
        self._active = player

    def press(self, now: float, player: int | None = None) -> bool:
        """The button of ``player`` (``None`` = whoever is on turn) was pressed: end that turn and
        start the next player's clock. Returns whether the clock switched: a press by a waiting
        player, during a pause or after the end is ignored, as on a real clock. Before the start a
        player's press starts the next player's clock."""
        self._sync(now)
        if player is not None:
            self._check_player(player)
        if self._over or self._paused:
            return False
        if self._active is None:
            if player is None:
                raise ClockError("the clock has not started; start() it or name the pressing player")
            self._active = (player + 1) % self.players
            return True
        if player is not None and player != self._active:
            return False
        self._active = (self._active + 1) % self.players
        return True

    def overtime_ms(self, now: float, player: int) -> int:
        self._check_player(player)
        self._sync(now)
        return max(0, -self._remaining[player])

    def penalty(self, now: float, player: int) -> TimePenalty:
        """The overtime penalty ``player`` would get if the game ended at ``now``."""
        return self._penalty(player, self.overtime_ms(now, player))

    def _penalty(self, player: int, overtime_ms: int) -> TimePenalty:
        started_periods = -(-overtime_ms // self.penalty_period_ms)
        points = started_periods * self.penalty_points
        if self.max_penalty is not None:
            points = min(points, self.max_penalty)
        return TimePenalty(player, overtime_ms, points)

    def finish(self, now: float) -> ClockResult:
        """End of the game: stop the clock for good and return the final readings and penalties."""
        self._sync(now)
        self._over = True
        self._active = None
        return self.result()

    def result(self) -> ClockResult:
        """Readings and penalties as of the last reading (final once the game is over)."""
        penalties = (self._penalty(p, max(0, -reading)) for p, reading in enumerate(self._remaining))
        return ClockResult(tuple(self._remaining), tuple(p for p in penalties if p.points), self._loser)

    def to_dict(self, now: float) -> dict[str, Any]:
        self._sync(now)
        return {
            **self._common_dict(),
            "budget_ms": self.budget_ms,
            "players": self.players,
            "penalty_points": self.penalty_points,
            "penalty_period_ms": self.penalty_period_ms,
            "overtime_limit_ms": self.overtime_limit_ms,
            "max_penalty": self.max_penalty,
            "warnings_ms": list(self.warnings_ms),
            "remaining_ms": list(self._remaining),
            "active": self._active,
            "over": self._over,
            "lost_on_time": self._loser,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChessClock:
        """Restore a saved clock, paused: call ``resume(now)`` to continue."""
        data = cls._check_dict(data)
        limit = data.get("overtime_limit_ms")
        clock = cls(
            _int_field(data, "budget_ms") / 60000,
            players=_int_field(data, "players"),
            penalty_points=_int_field(data, "penalty_points"),
            penalty_period_s=_int_field(data, "penalty_period_ms") / 1000,
            overtime_limit_s=None if limit is None else _int_field(data, "overtime_limit_ms") / 1000,
            max_penalty=data.get("max_penalty"),
            warnings=[w / 1000 for w in data.get("warnings_ms", [])],
        )
        remaining = data.get("remaining_ms")
        if (
            not isinstance(remaining, list)
            or len(remaining) != clock.players
            or not all(isinstance(r, int) and not isinstance(r, bool) for r in remaining)
        ):
            raise ClockError(f"saved remaining_ms {remaining!r} is not {clock.players} integers")
        clock._remaining = list(remaining)
        for key in ("active", "lost_on_time"):
            value = data.get(key)
            if value is not None:
                clock._check_player(value)
        clock._active = data.get("active")
        clock._over = bool(data.get("over"))
        clock._loser = data.get("lost_on_time")
        clock._paused = True
        return clock


class RoundTimer(_Countdown):
    """Keywords round timer (RULES §3), the 30-second hourglass: each :meth:`press` flips it to
    the other player with the full time; when it runs out it stops (``EXPIRED``) until flipped."""

    KIND = "round"
    MIN_PLAYERS = 2

    def __init__(
        self,
        seconds: float = 30,
        *,
        players: int = 2,
        warnings: tuple[float, ...] | list[float] = (5, 4, 3, 2, 1),
        player: int = 0,
    ) -> None:
        super().__init__(seconds, players=players, warnings=warnings, player=player)
        self._status = ClockState.IDLE
        self.flips = 0

    def state(self, now: float) -> ClockState:
        self._sync(now)
        return self._state(self._status)

    def _advance(self, ms: int) -> None:
        if self._status is not ClockState.RUNNING:
            return
        assert self._last_ms is not None
        before = self._remaining
        after = max(0, before - (ms - self._last_ms))
        self._warn(self._player, self.warnings_ms, before, after, self._last_ms)
        self._remaining = after
        if after == 0:
            self._events.append(ClockEvent(ClockEventKind.EXPIRED, self._player, self._last_ms + before, 0))
            self._status = ClockState.EXPIRED

    def press(self, now: float) -> None:
        """Flip the timer: the first press starts the first player's round, later presses give the
        other player a full round (whether or not the sand had run out)."""
        self._sync(now)
        if self._paused:
            raise ClockError("the round timer is paused; resume() it first")
        if self._status is not ClockState.IDLE:
            self._player = (self._player + 1) % self.players
            self.flips += 1
        self._status = ClockState.RUNNING
        self._remaining = self.duration_ms

    def to_dict(self, now: float) -> dict[str, Any]:
        return {**self._countdown_dict(now), "status": self._status.value, "flips": self.flips}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundTimer:
        """Restore a saved timer, paused: call ``resume(now)`` to continue."""
        data = cls._check_dict(data)
        timer = cls(**cls._countdown_args(data))
        try:
            status = ClockState(data.get("status"))
        except ValueError:
            raise ClockError(f"saved round timer status {data.get('status')!r} is unknown") from None
        if status not in (ClockState.IDLE, ClockState.RUNNING, ClockState.EXPIRED):
            raise ClockError(f"saved round timer status {status.value!r} is not idle/running/expired")
        timer._status = status
        timer._remaining = _int_field(data, "remaining_ms")
        if not 0 <= timer._remaining <= timer.duration_ms:
            raise ClockError(f"saved remaining_ms {timer._remaining!r} is outside 0..{timer.duration_ms}")
        timer.flips = _int_field(data, "flips")
        timer._paused = True
        return timer


Clock = TurnTimer | ChessClock | RoundTimer


def clock_from_dict(data: dict[str, Any]) -> Clock:
    """Restore any saved clock (by its ``type`` field), paused."""
    kinds: dict[str, type[TurnTimer] | type[ChessClock] | type[RoundTimer]] = {
        "turn": TurnTimer,
        "chess": ChessClock,
        "round": RoundTimer,
    }
    kind = data.get("type") if isinstance(data, dict) else None
    if kind not in kinds:
        raise ClockError(f"saved clock type {kind!r} is unknown; expected one of {sorted(kinds)}")
    return kinds[kind].from_dict(data)

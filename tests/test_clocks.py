# SPDX-License-Identifier: GPL-3.0-or-later
"""engine.clocks with a fake monotonic time source (seconds, as time.monotonic() gives)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clocks import (
    ChessClock,
    ClockEvent,
    ClockEventKind,
    ClockState,
    RoundTimer,
    TimePenalty,
    TurnTimer,
    clock_from_dict,
    format_ms,
)
from engine.errors import ClockError

BASE = 81234.5678  # a realistic monotonic reading, with a sub-millisecond part


def kinds(events: list[ClockEvent]) -> list[ClockEventKind]:
    return [e.kind for e in events]


# -- chess clock -----------------------------------------------------------------------------


def test_chess_game_ending_1_01_over_time_costs_20_points():
    clock = ChessClock(25, players=2)
    t = BASE
    clock.start(t, player=0)
    # Player 1 thinks 13:00 and then 13:01 (26:01 in all); player 2 answers in 5 min each time.
    for think in (13 * 60, 13 * 60 + 1):
        t += think
        assert clock.press(t, player=0)
        t += 5 * 60
        assert clock.press(t, player=1)
    events = clock.poll(t)
    assert kinds(events) == [ClockEventKind.EXPIRED]
    assert events[0].player == 0 and events[0].at_ms == round((BASE + 30 * 60) * 1000)
    result = clock.finish(t)
    assert result.readings_ms == (-61_000, 15 * 60_000)
    assert result.penalties == (TimePenalty(player=0, overtime_ms=61_000, points=20),)
    assert result.lost_on_time is None
    assert clock.state(t + 100) is ClockState.OVER
    assert clock.readings_ms(t + 100) == (-61_000, 15 * 60_000)  # final readings kept


@pytest.mark.parametrize(
    ("overtime_ms", "points"), [(0, 0), (1, 10), (60_000, 10), (60_001, 20), (599_999, 100)]
)
def test_chess_penalty_per_started_minute(overtime_ms, points):
    clock = ChessClock(1, players=2)
    clock.start(0.0)
    end = (60_000 + overtime_ms) / 1000
    assert clock.penalty(end, 0) == TimePenalty(0, overtime_ms, points)
    assert clock.penalty(end, 1).points == 0


def test_chess_penalty_is_configurable():
    clock = ChessClock(
        1, players=3, penalty_points=5, penalty_period_s=30, overtime_limit_s=None, max_penalty=None
    )
    clock.start(0.0, player=2)
    assert clock.penalty(60 + 95, 2).points == 20  # 95 s over = 4 started half-minutes


def test_chess_loses_just_past_the_overtime_limit_and_stops():
    clock = ChessClock(25, players=2)
    clock.start(0.0)
    t_limit = 25 * 60 + 10 * 60
    assert clock.poll(t_limit).__len__() == 1  # the flag (EXPIRED) only
    assert clock.lost_on_time is None
    events = clock.poll(t_limit + 30)
    assert kinds(events) == [ClockEventKind.OVERTIME_LIMIT]
    assert events[0].at_ms == t_limit * 1000 + 1
    assert clock.lost_on_time == 0
    assert clock.state(t_limit + 40) is ClockState.OVER
    result = clock.result()
    assert result.readings_ms == (-600_001, 25 * 60_000)
    assert result.penalties[0].points == 100  # capped
    assert not clock.press(t_limit + 50, player=0)


def test_chess_press_rules_four_players():
    clock = ChessClock(10, players=4)
    assert clock.press(0.0, player=3)  # before the start: player 4's press starts player 1
    assert clock.active == 0
    assert not clock.press(1.0, player=2)  # a waiting player's button does nothing
    assert clock.active == 0
    assert clock.press(2.0)  # None = whoever is on turn
    assert clock.press(3.0, player=1)
    assert clock.press(4.0, player=2)
    assert clock.press(5.0, player=3)
    assert clock.active == 0
    assert clock.readings_ms(5.0) == (598_000, 599_000, 599_000, 599_000)


def test_challenge_pause_stops_all_time():
    chess = ChessClock(25, players=2)
    turn = TurnTimer(60)
    keywords = RoundTimer(30)
    chess.start(0.0)
    turn.start(0.0)
    keywords.press(0.0)
    for clock in (chess, turn, keywords):
        clock.pause(10.0)
    assert not chess.press(200.0, player=0)  # presses are ignored during the challenge
    for clock in (chess, turn, keywords):
        assert clock.poll(400.0) == []
        assert clock.state(400.0) is ClockState.PAUSED
        clock.resume(400.0)
    assert chess.readings_ms(401.0) == (25 * 60_000 - 11_000, 25 * 60_000)
    assert turn.remaining_ms(401.0) == 49_000
    assert keywords.remaining_ms(401.0) == 19_000


# -- Ordskifte turn timer ---------------------------------------------------------------------


def test_word_made_at_0_42_restarts_at_60_seconds_same_player():
    timer = TurnTimer(60, players=3)
    timer.start(BASE)
    assert timer.remaining_ms(BASE + 42) == 18_000
    timer.word_made(BASE + 42)
    assert timer.remaining_ms(BASE + 42) == 60_000
    assert timer.player == 0
    assert timer.remaining_ms(BASE + 42 + 59.999) == 1
    assert timer.state(BASE + 101.999) is ClockState.RUNNING
    events = timer.poll(BASE + 103)
    assert kinds(events) == [ClockEventKind.WARNING] * 10 + [ClockEventKind.EXPIRED]
    assert [e.remaining_ms for e in events[:10]] == [s * 1000 for s in range(10, 0, -1)]
    assert [e.at_ms for e in events] == [round((BASE + 42 + 60 - s) * 1000) for s in range(10, -1, -1)]
    # Expiry ends the turn and passes it on; the next player starts it.
    assert timer.player == 1
    assert timer.state(BASE + 103) is ClockState.IDLE
    with pytest.raises(ClockError):
        timer.word_made(BASE + 104)
    timer.start(BASE + 104)
    assert timer.remaining_ms(BASE + 105) == 59_000


def test_turn_timer_presets_end_turn_and_auto_start():
    assert [TurnTimer(s).duration_ms for s in (30, 120, 180)] == [30_000, 120_000, 180_000]
    timer = TurnTimer(30, players=2, auto_start=True, warnings=())
    timer.start(0.0)
    timer.end_turn(5.0)  # no word: the next player's turn starts at once
    assert timer.player == 1
    events = timer.poll(5 + 30 + 30 + 1)  # two expiries in one late poll, each at its exact time
    assert [(e.kind, e.player, e.at_ms) for e in events] == [
        (ClockEventKind.EXPIRED, 1, 35_000),
        (ClockEventKind.EXPIRED, 0, 65_000),
    ]
    assert timer.player == 1 and timer.remaining_ms(66.0) == 29_000


# -- Keywords round timer ---------------------------------------------------------------------


def test_round_timer_press_flips_to_the_other_player():
    timer = RoundTimer()
    timer.press(0.0)
    assert (timer.player, timer.remaining_ms(12.0)) == (0, 18_000)
    timer.press(12.0)
    assert (timer.player, timer.remaining_ms(12.0)) == (1, 30_000)
    events = timer.poll(50.0)
    assert events[-1] == ClockEvent(ClockEventKind.EXPIRED, 1, 42_000, 0)
    assert [e.remaining_ms for e in events[:-1]] == [5000, 4000, 3000, 2000, 1000]
    assert timer.state(50.0) is ClockState.EXPIRED
    assert timer.remaining_ms(60.0) == 0
    timer.press(60.0)
    assert (timer.player, timer.remaining_ms(61.0)) == (0, 29_000)


# -- restore ------------------------------------------------------------------------------------


def _started_clocks(t: float):
    chess = ChessClock(25, players=3, warnings=(120, 30, 10))
    chess.start(t)
    chess.press(t + 3.25)
    turn = TurnTimer(120, players=4)
    turn.start(t)
    keywords = RoundTimer(30)
    keywords.press(t)
    return chess, turn, keywords


def test_restore_resumes_exact_remaining_time_paused():
    t = BASE
    for clock in _started_clocks(t):
        saved = json.loads(json.dumps(clock.to_dict(t + 7.123)))
        restored = clock_from_dict(saved)
        assert type(restored) is type(clock)
        # The app restarts much later, on a monotonic clock with another origin.
        later = 17.0
        assert restored.state(later) is ClockState.PAUSED
        assert restored.poll(later + 500) == []
        before = restored.to_dict(later + 500)
        assert before == saved
        restored.resume(later + 500)
        clock.poll(t + 7.123)
        # Both continue identically from the moment of saving.
        for dt in (0.001, 3.5, 20.0, 200.0):
            assert restored.to_dict(later + 500 + dt) == clock.to_dict(t + 7.123 + dt)
        assert [(e.kind, e.player, e.remaining_ms) for e in restored.poll(later + 800)] == [
            (e.kind, e.player, e.remaining_ms) for e in clock.poll(t + 7.123 + 300)
        ]


def test_restore_rejects_bad_data():
    good = TurnTimer(60).to_dict(0.0)
    with pytest.raises(ClockError, match="'nonsense'"):
        clock_from_dict({**good, "type": "nonsense"})
    with pytest.raises(ClockError, match="remaining_ms"):
        TurnTimer.from_dict({**good, "remaining_ms": "soon"})
    with pytest.raises(ClockError, match="not 'chess'"):
        ChessClock.from_dict(good)


# -- no drift --------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_thirty_minutes_of_jittery_ticks_do_not_drift(seed):
    rng = random.Random(seed)
    chess = ChessClock(25, players=2, warnings=(120, 30, 10))
    turn = TurnTimer(60, auto_start=True)
    chess.start(BASE)
    turn.start(BASE)
    t = BASE
    expiries = []
    while t < BASE + 1800:
        t = min(BASE + 1800, t + rng.uniform(0.0001, 0.25) + rng.choice((0, 0, 0, 0.9)))
        chess.poll(t)
        expiries += [e.at_ms for e in turn.poll(t) if e.kind is ClockEventKind.EXPIRED]
    assert chess.readings_ms(BASE + 1800) == (-300_000, 1_500_000)
    assert expiries == [round(BASE * 1000) + 60_000 * k for k in range(1, 31)]
    assert turn.remaining_ms(BASE + 1800) == 60_000


# -- misuse, display ---------------------------------------------------------------------------


def test_misuse_raises_clock_error_naming_the_value():
    with pytest.raises(ClockError, match="players=5"):
        ChessClock(25, players=5)
    with pytest.raises(ClockError, match="seconds=0"):
        TurnTimer(0)
    with pytest.raises(ClockError, match="minutes='x'"):
        ChessClock("x")  # type: ignore[arg-type]
    timer = TurnTimer(60)
    timer.start(10.0)
    with pytest.raises(ClockError, match="earlier"):
        timer.poll(9.0)
    with pytest.raises(ClockError, match="already running"):
        timer.start(11.0)


@pytest.mark.parametrize(
    ("ms", "text"), [(60_000, "1:00"), (59_001, "1:00"), (59_000, "0:59"), (1, "0:01"), (0, "0:00"),
                     (-999, "-0:00"), (-61_000, "-1:01"), (-600_001, "-10:00")]
)
def test_format_ms(ms, text):
    assert format_ms(ms) == text

# SPDX-License-Identifier: GPL-3.0-or-later
"""Keywords on the device, headless: the round timer flipped by player buttons (MockButtons) under
a fake monotonic time, words entered by touch (FINGERDOWN/FINGERUP through the InputAdapter onto
the real 800×480 Renderer) and scored at the end of each round, a match to a target or a number of
rounds, refusals with their reason, and kill-and-resume."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


from conftest import FakeTime, FlowTable, installed_judge  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.keywords_flow import KeywordsFlow, State  # noqa: E402
from device.ui import view as v  # noqa: E402
from device.ui.strings import Strings  # noqa: E402
from engine.keywords import score_round  # noqa: E402
from hardware.events import ButtonRole  # noqa: E402

SIZE = (800, 480)


def en_judge():
    return installed_judge("en")


class Table(FlowTable):
    def __init__(self, tmp_path: Path, *, judge=None, time: FakeTime | None = None) -> None:
        super().__init__(tmp_path, KeywordsFlow, "en", judge=judge, time=time)
        self.settings = GameSettings(game="keywords", language="en", players=("Ann", "Bo"), clock="round")

    def press(self, role: ButtonRole) -> None:
        self.press_role(role)

    def enter_words(self, player: int, words: str, unused: int = 0) -> None:
        """The player's tab, the words on the keyboard (``?`` = FUNKEY), the unused keys, SUBMIT."""
        self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_PLAYER and a.player == player and a.number is None)
        # The tab brings back what the player entered before (to correct it): clear it first.
        while self.renderer.state.entry:
            self.tap_target(lambda a: a.kind is v.ActionKind.BACKSPACE)
        while self.renderer.state.unused:
            self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_PLAYER and a.number == -1)
        for _ in range(unused):
            self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_PLAYER and a.number == 1)
        for ch in words:
            if ch == " ":
                self.tap_target(lambda a: a.kind is v.ActionKind.SPACE)
                continue
            if ch.islower():  # a FUNKEY: the ? key, then the letter it stands for
                self.tap_target(lambda a: a.kind is v.ActionKind.KEY and a.text == "?")
            self.tap_target(lambda a, ch=ch: a.kind is v.ActionKind.KEY and a.text == ch.upper())
        self.tap_target(lambda a: a.kind is v.ActionKind.ENTER)

    def pad(self) -> list[tuple[tuple[int, ...], int]]:
        kw = self.flow.view().keywords
        assert kw is not None
        return [(p.round_scores, p.total) for p in kw.players]


def test_match_to_a_target_through_buttons_and_touches(tmp_path: Path) -> None:
    t = Table(tmp_path, judge=en_judge())
    t.flow.new_game(t.settings, meta={"target": 20})
    assert t.flow.state is State.PLAYING
    t.shot("round1-ready")
    timer = t.c.clock
    assert timer.player == 0 and t.flow.view().keywords.timer.reading.state is v.TimerState.IDLE

    # Bo turns the hourglass for Ann; the last five seconds tick, then time is up.
    t.press(ButtonRole.PLAYER_2)
    assert timer.player == 0 and t.flow.view().keywords.timer.reading.state is v.TimerState.RUNNING
    t.tick(12.5)
    assert t.flow.view().keywords.timer.reading.remaining_ms == 17_500
    t.shot("round1-running")
    t.buzzer.take()
    t.tick(18)
    assert t.buzzer.take() == ["tick"] * 5 + ["times-up"]
    assert t.flow.view().keywords.timer.reading.state is v.TimerState.EXPIRED
    # Ann flips it to Bo: a full 30 s for him.
    t.press(ButtonRole.PLAYER_1)
    assert timer.player == 1 and timer.remaining_ms(t.time()) == 30_000
    t.tick(9)
    # End is drawn: the round is over (the confirm button).
    t.press(ButtonRole.CONFIRM)
    assert t.flow.state is State.ENTRY
    assert "Ann · 0" in t.labels() and "Bo · 0" in t.labels()  # whose words: a tab each, with the total

    t.enter_words(0, "CRAPAUD Teee", unused=1)
    view = t.flow.view()
    problem = view.keywords.players[0].problem
    assert problem == v.Text.of("engine.keywords.too_many_funkeys", word="Teee", count=3, keys=4)
    assert not view.keywords.players[0].submitted
    worded = Strings.load().get("en", problem.key, **problem.fields())
    assert worded == "Teee has 3 FUNKEYS in 4 keys: at most half may be FUNKEYS"
    assert worded in t.labels()  # the whole reason is on the screen, in the screen's language
    t.shot("round1-refused")
    # NEXT ROUND waits for both players.
    t.flow.handle(t.flow.event_from_action(v.UiAction(v.ActionKind.NEXT_ROUND)))
    assert t.flow.state is State.ENTRY and t.flow.message == v.Text.of("msg.words_needed", names="Ann, Bo")

    t.enter_words(0, "CRAPAUD TeAm", unused=1)
    assert t.flow.entries[0]["score"] == score_round(["CRAPAUD", "T?A?"], 1).total == 15
    t.enter_words(1, "KEY WORD")
    assert t.pad() == [((15,), 15), ((11,), 11)]
    t.shot("round1-entered")
    t.tap_target(lambda a: a.kind is v.ActionKind.NEXT_ROUND)
    assert t.flow.state is State.PLAYING
    assert t.flow.view().keywords.round_no == 2
    assert t.c.clock.player == 1  # starters alternate

    # Round 2, by touch: tapping the timer flips it like a button; the round-over button ends the round.
    assert "Bo" in t.labels()  # whose sand is running, above the timer
    t.tap_target(lambda a: a.kind is v.ActionKind.PLAYER_BUTTON)
    assert t.flow.view().keywords.timer.reading.state is v.TimerState.RUNNING and t.c.clock.player == 1
    t.tick(4)
    t.shot("round2-running")
    t.tap_target(lambda a: a.kind is v.ActionKind.PLAYER_BUTTON)
    assert t.c.clock.player == 0 and t.c.clock.remaining_ms(t.time()) == 30_000
    t.tick(30)
    t.tap_target(lambda a: a.kind is v.ActionKind.NEXT_ROUND)
    assert t.flow.state is State.ENTRY
    # A word not in the dictionary is refused, then two equally long words get no bonus.
    t.enter_words(0, "MOT CLE")
    assert t.flow.view().keywords.players[0].problem == v.Text.of("engine.keywords.not_in_dictionary", word="CLE")
    t.enter_words(0, "MOT CAT")
    t.enter_words(1, "ZEBRA OX", unused=2)
    assert t.pad() == [((15, 6), 21), ((11, 10), 21)]
    t.tap_target(lambda a: a.kind is v.ActionKind.NEXT_ROUND)
    # Both passed the target after this round and tie: both win.
    assert t.flow.state is State.MATCH_OVER
    assert t.flow.view().winner == (0, 1)
    assert t.store.load(t.flow.game_id).finished
    assert t.buzzer.take()[-1] == "times-up"
    t.shot("match-over")
    t.tap_target(lambda a: a.kind is v.ActionKind.NEW_GAME)
    assert t.flow.state is State.NEW_GAME


def test_match_by_rounds_resumes_exactly_after_a_kill(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path / "empty"))  # no word list: rules only
    time = FakeTime()
    t = Table(tmp_path, time=time)
    game_id = t.flow.new_game(t.settings, meta={"target": None, "rounds": 2, "first_starter": 1})
    assert any(n.key == "warn.lexicon_missing" for n in t.flow.view().warnings)
    t.press(ButtonRole.PLAYER_1)
    assert t.c.clock.player == 1
    t.press(ButtonRole.CONFIRM)
    t.enter_words(1, "CLE xD", unused=3)  # not checked against a dictionary
    assert t.flow.entries[1]["score"] == 2 * 3 + 1 - 3
    entries, pad = [dict(e) for e in t.flow.entries], t.pad()
    t.store.close()

    again = Table(tmp_path, time=time)
    again.flow.resume(game_id)
    assert again.flow.state is State.ENTRY and again.flow.entries == entries and again.pad() == pad
    again.enter_words(0, "MOT")
    again.tap_target(lambda a: a.kind is v.ActionKind.NEXT_ROUND)
    assert again.flow.state is State.PLAYING and again.c.clock.player == 0
    again.press(ButtonRole.PLAYER_2)
    again.tick(7.25)
    again.flow.save_clock()  # the app saves the clock every few seconds
    remaining = again.c.clock.remaining_ms(time())
    again.store.close()

    time.t += 60
    third = Table(tmp_path, time=time)
    third.flow.resume(game_id)
    assert third.flow.state is State.PLAYING
    assert third.c.clock.paused and third.c.clock.remaining_ms(time()) == remaining == 22_750
    assert third.flow.view().keywords.timer.reading.state is v.TimerState.PAUSED
    third.shot("resumed-paused")
    third.press(ButtonRole.PLAYER_1)  # a press after the restart continues the clock
    assert not third.c.clock.paused and third.c.clock.player == 0
    third.press(ButtonRole.CONFIRM)
    third.enter_words(0, "OX")
    third.enter_words(1, "TO")
    third.tap_target(lambda a: a.kind is v.ActionKind.NEXT_ROUND)
    assert third.flow.state is State.MATCH_OVER
    assert third.pad() == [((6, 4), 10), ((4, 4), 8)]
    assert third.flow.view().winner == (0,)

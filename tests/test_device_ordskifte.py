# SPDX-License-Identifier: GPL-3.0-or-later
"""Ordskifte on the device, headless: whole games through player buttons (MockButtons) and touches
(FINGERDOWN/FINGERUP through the InputAdapter onto the real 800×480 Renderer), a fake monotonic
time driving the turn timer, the Norwegian word list judging, disputes, and kill-and-resume."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


from conftest import FakeTime, FlowTable, installed_judge  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.flow import EventKind, FlowEvent  # noqa: E402
from device.ordskifte_flow import OrdskifteFlow, State  # noqa: E402
from device.store import Store, StoreError  # noqa: E402
from device.ui import view as v  # noqa: E402
from engine.ordskifte import EventKind as GameEventKind  # noqa: E402
from hardware.events import ButtonRole  # noqa: E402

SIZE = (800, 480)


def nb_judge():
    return installed_judge("nb")


class Table(FlowTable):
    """The device around the Ordskifte flow (see :class:`conftest.FlowTable`)."""

    def __init__(self, tmp_path: Path, players: tuple[str, ...], *, judge=None, store: Store | None = None,
                 time: FakeTime | None = None) -> None:
        super().__init__(tmp_path, OrdskifteFlow, "nb", judge=judge, store=store, time=time or FakeTime(500.0))
        self.settings = GameSettings(game="ordskifte", language="nb", players=players, clock="turn", minutes=1)

    def press(self, player: int) -> None:
        self.press_role(ButtonRole.for_player(player))

    def type_word(self, word: str) -> None:
        """Letters on the on-screen keyboard; a lower-case letter is the joker (``?`` then the letter). A refused
        word stays in the field to be corrected: clear it first."""
        while self.renderer.state.entry:
            self.tap_target(lambda a: a.kind is v.ActionKind.BACKSPACE)
        for ch in word:
            if ch.islower():
                self.tap_target(lambda a: a.kind is v.ActionKind.KEY and a.text == "?")
            self.tap_target(lambda a, ch=ch: a.kind is v.ActionKind.KEY and a.text == ch.upper())
        self.tap_target(lambda a: a.kind is v.ActionKind.ENTER)

    def make_word(self, word: str) -> None:
        self.renderer.render(self.flow.view())  # the screen as it is now (after the last answer)
        if self.renderer.state.steal is not None:  # a refused steal is still picked: STEAL (lit) drops it
            self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_WORD and a.target is None)
        self.type_word(word)

    def steal(self, victim: int, old: str, new: str) -> None:
        """STEAL opens the picker of the opponents' words; the word tapped there is the one stolen."""
        self.renderer.render(self.flow.view())  # the screen as it is now (after the last answer)
        if self.renderer.state.steal is not None:  # a refused steal is still picked: STEAL (lit) drops it
            self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_WORD and a.target is None)
        self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_WORD and a.target is None)
        self.tap_target(lambda a: a.kind is v.ActionKind.SELECT_WORD and a.target == victim and a.old == old)
        self.type_word(new)

    def labels(self) -> str:
        return super().labels(" | ")

    @property
    def game(self):
        assert self.flow.game is not None
        return self.flow.game


def rails(table: Table) -> list[list[str]]:
    return [[w.notation for w in r] for r in table.game.rails]


def test_two_player_game_to_six_words(tmp_path: Path) -> None:
    t = Table(tmp_path, ("Ann", "Bo"), judge=nb_judge())
    t.flow.new_game(t.settings)
    assert t.flow.state is State.START
    t.shot("start")
    t.press(1)  # Bo drew the letter closest to A
    assert t.flow.state is State.PLAYING and t.game.current == 1
    assert t.buzzer.take() == ["turn-over"]

    t.tick(20)
    t.make_word("KATT")
    assert rails(t) == [[], ["KATT"]]
    assert t.buzzer.take() == ["word-accepted"]
    assert t.c.clock.remaining_ms(t.time()) == 60_000  # a word restarts the minute
    t.shot("bo-katt")

    # The minute runs out: the last ten seconds tick, then the turn passes to Ann.
    t.tick(50)
    t.tick(10.5)
    patterns = t.buzzer.take()
    assert patterns.count("tick") == 10 and patterns[-1] == "times-up"
    assert t.game.current == 0 and t.c.clock.player == 0
    assert t.game.events[-1].kind is GameEventKind.TURN_ENDED and t.game.events[-1].note == "timer"

    # Ann steals KATT as SKATT: selects Bo's rail, types, and the steal is checked at once.
    t.steal(1, "KATT", "SKATT")
    assert rails(t) == [["SKATT"], []]
    assert t.buzzer.take() == ["word-accepted"]
    t.shot("ann-steals")

    # Her own word is no steal target (the screen offers only opponents' words).
    t.flow.handle(t.flow.event_from_action(v.UiAction(v.ActionKind.STEAL, player=0, target=0, old="SKATT",
                                                      text="SKATTE")))
    assert t.flow.message.key == "engine.ordskifte.own_word"
    assert rails(t) == [["SKATT"], []]

    # A word not in the dictionary: the dispute outcome at once, the turn passes.
    t.make_word("KTAB")
    assert t.flow.message == v.Text.of("msg.word_rejected", word="KTAB", name="Bo")
    assert rails(t) == [["SKATT"], []] and t.game.current == 1
    assert t.buzzer.take() == ["challenge-upheld"]
    t.shot("rejected")

    # Bo makes words and then gives up his turn with his button.
    for word in ("BRØD", "LØK"):
        t.make_word(word)
    t.press(1)
    assert t.game.current == 0 and t.buzzer.take()[-1] == "turn-over"
    # A waiting player's button does nothing.
    t.press(1)
    assert t.game.current == 0

    # Steals that leave out a letter or add none are refused with the reason, nothing changes.
    t.steal(1, "BRØD", "BRØD")
    assert t.flow.message.key == "engine.steal.no_letter_added"
    t.steal(1, "BRØD", "RØD")
    assert t.flow.message == v.Text.of("engine.steal.missing_letters", word="BRØD", missing="B")
    assert rails(t) == [["SKATT"], ["BRØD", "LØK"]] and t.game.current == 0
    t.shot("steal-refused")
    # Who leads towards six words is always on the screen (and told apart from whose turn it is).
    assert "Leder: Bo (2/6)" in t.labels() and "Tur: Ann" in t.labels()
    for word in ("OST", "ELG", "ELV", "HVIT"):
        t.make_word(word)
    assert "Leder: Ann (5/6)" in t.labels()
    t.shot("ann-five")
    t.make_word("SKO")
    assert t.flow.state is State.END
    assert t.game.winners == [0]
    assert t.buzzer.take()[-1] == "times-up"
    end = t.flow.view()
    assert end.screen is v.Screen.END and end.winner == (0,)
    assert [p.score for p in end.players] == [6, 2]
    t.shot("end")
    assert t.store.load(t.flow.game_id).finished
    t.tap_target(lambda a: a.kind is v.ActionKind.NEW_GAME)
    assert t.flow.state is State.NEW_GAME


def test_four_players_timer_cycles_steals_and_disputes(tmp_path: Path) -> None:
    t = Table(tmp_path, ("Ann", "Bo", "Kari", "Ola"), judge=nb_judge())
    t.flow.new_game(t.settings, meta={"timer_s": 30})
    t.press(2)
    assert t.game.current == 2
    t.make_word("HATT")
    # Nobody acts: the 30-second timer passes the turn round the table, one player at a time.
    for expected in (3, 0, 1):
        t.tick(30.001)
        assert t.game.current == expected
    t.shot("four-rails")
    t.steal(2, "HATT", "HATTEN")
    assert rails(t) == [[], ["HATTEN"], [], []]
    # The word just made is open to a dispute: the word list says it stands.
    t.tap_target(lambda a: a.kind is v.ActionKind.DISPUTE)
    assert t.flow.message == v.Text.of("msg.word_stands", word="HATTEN")
    assert t.buzzer.take()[-1] == "challenge-rejected"
    t.shot("dispute-stands")
    # A joker: Bo lays ?ATT as SATT with the joker for S, Kari steals it reassigning the joker.
    t.make_word("sATT")
    t.press(1)
    assert t.game.current == 2
    t.steal(1, "sATT", "TApET")
    assert rails(t)[2] == ["TApET"]
    # Everyone builds up; Ola reaches six words.
    t.press(2)
    assert t.game.current == 3
    for word in ("OST", "DRØM", "ELV", "VELG", "RØD"):
        t.make_word(word)
    assert "Leder: Ola (5/6)" in t.labels()
    t.tick(30.001)
    t.tick(30.001)
    assert t.game.current == 1
    t.steal(3, "RØD", "RØDE")
    assert len(t.game.rails[3]) == 4 and t.game.current == 1
    t.press(1)
    t.press(2)
    assert t.game.current == 3
    t.make_word("SKO")
    assert t.flow.state is State.PLAYING
    t.make_word("BIL")
    assert t.flow.state is State.END and t.game.winners == [3]
    t.shot("four-end")


def test_without_a_word_list_play_goes_on_and_disputes_reject(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path / "empty"))
    t = Table(tmp_path, ("Ann", "Bo"))
    t.flow.new_game(t.settings)
    assert any(n.key == "warn.lexicon_missing" for n in t.flow.view().warnings)
    # The warning is worded in the players' language; the English detail goes to the log, not the screen.
    assert "Ordlisten mangler" in t.labels() and "words are not checked" not in t.labels()
    t.press(0)
    t.make_word("KTAB")  # not judged: stands until disputed
    assert rails(t) == [["KTAB"], []]
    t.shot("no-lexicon")
    t.tap_target(lambda a: a.kind is v.ActionKind.DISPUTE)
    assert rails(t) == [[], []] and t.game.current == 1
    assert t.game.events[-2].kind is GameEventKind.WORD_REJECTED
    assert t.buzzer.take()[-1] == "challenge-upheld"
    # Only the last play may be disputed, once.
    t.flow.handle(FlowEvent(EventKind.CHALLENGE))
    assert t.flow.message == v.Text("msg.nothing_to_dispute")


def test_kill_and_resume_is_exact_with_the_timer_paused(tmp_path: Path) -> None:
    time = FakeTime(500.0)
    t = Table(tmp_path, ("Ann", "Bo", "Kari"), judge=nb_judge(), time=time)
    game_id = t.flow.new_game(t.settings)
    t.press(0)
    t.make_word("KATT")
    t.tick(61)  # Bo's turn
    t.steal(0, "KATT", "SKATT")
    t.tick(12.345)
    before_game = t.game.to_dict()
    before_view = t.flow.view()
    t.flow.save_clock()  # the app does this every few seconds
    remaining = t.c.clock.remaining_ms(time())
    assert remaining == 60_000 - 12_345
    t.store.close()  # the power goes

    time.t += 300  # the device is off for five minutes
    again = Table(tmp_path, ("Ann", "Bo", "Kari"), judge=nb_judge(), time=time)
    again.flow.resume(game_id)
    assert again.flow.state is State.PLAYING
    assert again.game.to_dict() == before_game
    assert again.c.clock.paused and again.c.clock.remaining_ms(time()) == remaining
    after = again.flow.view()
    assert after.ordskifte.players == before_view.ordskifte.players
    assert after.ordskifte.to_move == before_view.ordskifte.to_move
    assert after.ordskifte.timer.reading.state is v.TimerState.PAUSED
    again.shot("resumed")
    again.tick(100)  # paused: no expiry
    assert again.game.current == 1
    again.press(1)  # the current player's button restarts the timer
    assert not again.c.clock.paused and again.game.current == 1
    again.make_word("OST")
    assert rails(again)[1] == ["SKATT", "OST"]


def test_an_action_that_cannot_be_stored_did_not_happen(tmp_path: Path) -> None:
    t = Table(tmp_path, ("Ann", "Bo"), judge=nb_judge())
    t.flow.new_game(t.settings)
    t.press(0)
    t.make_word("OST")
    state = t.game.to_dict()
    original = t.store.append

    def failing(*args, **kwargs):
        raise StoreError("disk full")

    t.store.append = failing
    with pytest.raises(StoreError):
        t.flow.handle(t.flow.event_from_action(v.UiAction(v.ActionKind.MAKE_WORD, player=0, text="BRØD")))
    assert t.game.to_dict() == state
    t.store.append = original
    t.make_word("BRØD")
    assert rails(t) == [["OST", "BRØD"], []]
    assert len(t.store.records(t.flow.game_id)) == 3

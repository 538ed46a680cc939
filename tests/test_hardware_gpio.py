# SPDX-License-Identifier: GPL-3.0-or-later
"""Buttons, buzzer and LEDs on gpiozero's MockFactory (no GPIO needed)."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from hardware.buttons import Buttons, MockButtons
from hardware.buzzer import PATTERNS, Buzzer, ConsoleBuzzer, Pattern, SilentBuzzer, open_buzzer
from hardware.config import BuzzerKind, HardwareConfig
from hardware.errors import ConfigurationError, DeviceUnavailable
from hardware.events import ButtonEvent, ButtonEventKind, ButtonRole
from hardware.leds import TurnLeds

PINS = {
    "player_1": 17, "player_2": 27, "player_3": 5, "player_4": 6,
    "challenge": 22, "confirm": 23, "undo": 24, "menu": 25,
}  # fmt: skip


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def pwm_factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def drain(events: queue.Queue, settle: float = 0.05) -> list[ButtonEvent]:
    """Everything on the queue, after giving gpiozero's threads a moment to add stragglers."""
    time.sleep(settle)
    found = []
    while True:
        try:
            found.append(events.get_nowait())
        except queue.Empty:
            return found


# -- buttons ------------------------------------------------------------------------------------


def test_a_press_on_each_configured_pin_gives_its_event_exactly_once(factory):
    config = HardwareConfig.from_mapping({"buttons": PINS, "hold_time": 5.0})
    events: queue.Queue[ButtonEvent] = queue.Queue()
    with Buttons(config, pin_factory=factory, events=events) as buttons:
        assert set(buttons.roles) == set(ButtonRole)
        for role in ButtonRole:
            pin = factory.pin(PINS[role.value])
            pin.drive_low()  # pull-up wiring: pressed = low
            pressed = drain(events)
            assert buttons.is_pressed(role)
            pin.drive_high()
            released = drain(events)
            assert [(e.role, e.kind) for e in pressed] == [(role, ButtonEventKind.PRESS)]
            assert [(e.role, e.kind) for e in released] == [(role, ButtonEventKind.RELEASE)]
            assert pressed[0].at <= released[0].at <= time.monotonic()


def test_a_hold_gives_the_hold_event(factory):
    config = HardwareConfig.from_mapping({"buttons": {"menu": 25, "player_1": 17}, "hold_time": 0.05})
    events: queue.Queue[ButtonEvent] = queue.Queue()
    with Buttons(config, pin_factory=factory, events=events):
        factory.pin(25).drive_low()
        assert events.get(timeout=2).kind is ButtonEventKind.PRESS
        held = events.get(timeout=2)  # when_held fires on gpiozero's own thread
        assert (held.role, held.kind) == (ButtonRole.MENU, ButtonEventKind.HOLD)
        factory.pin(25).drive_high()
        assert [e.kind for e in drain(events)] == [ButtonEventKind.RELEASE]


def test_pin_already_taken_is_a_configuration_error(factory):
    config = HardwareConfig.from_mapping({"buttons": {"player_1": 17}})
    events: queue.Queue[ButtonEvent] = queue.Queue()
    with Buttons(config, pin_factory=factory, events=events):
        with pytest.raises(ConfigurationError, match=r"hardware\.buttons\.player_1 = 17.*in use"):
            Buttons(config, pin_factory=factory, events=events)


def test_no_usable_gpio_library_names_the_setting(monkeypatch):
    assert Device.pin_factory is None  # tests never install a global factory
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    config = HardwareConfig.from_mapping({"buttons": {"challenge": 22}})
    with pytest.raises(DeviceUnavailable, match=r"hardware\.buttons\.challenge = 22: no GPIO library"):
        Buttons(config, events=queue.Queue())


def test_mock_buttons_press_and_hold():
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = MockButtons(events=events, roles=(ButtonRole.PLAYER_1, ButtonRole.MENU), clock=lambda: 7.0)
    buttons.press(ButtonRole.PLAYER_1)
    buttons.hold(ButtonRole.MENU)
    assert [(e.role.value, e.kind.value, e.at) for e in drain(events, 0)] == [
        ("player_1", "press", 7.0), ("player_1", "release", 7.0),
        ("menu", "press", 7.0), ("menu", "hold", 7.0), ("menu", "release", 7.0),
    ]  # fmt: skip
    with pytest.raises(ConfigurationError, match="'undo'"):
        buttons.press(ButtonRole.UNDO)


# -- buzzer -------------------------------------------------------------------------------------

# What each pattern must sound like: (on?, seconds) per step. Rhythm alone must tell them apart,
# because an active buzzer cannot change pitch.
RHYTHMS = {
    Pattern.TICK: [(1, 0.05)],
    Pattern.WORD_ACCEPTED: [(1, 0.08), (0, 0.06), (1, 0.12)],
    Pattern.TURN_OVER: [(1, 0.5)],
    Pattern.CHALLENGE_UPHELD: [(1, 0.08), (0, 0.06), (1, 0.08), (0, 0.06), (1, 0.08)],
    Pattern.CHALLENGE_REJECTED: [(1, 0.3), (0, 0.12), (1, 0.3)],
    Pattern.TIMES_UP: [(1, 0.25), (0, 0.1), (1, 0.25), (0, 0.1), (1, 0.9)],
}
NOTES = {
    Pattern.TICK: [659.26],
    Pattern.WORD_ACCEPTED: [523.25, None, 783.99],
    Pattern.TURN_OVER: [440.0],
    Pattern.CHALLENGE_UPHELD: [783.99, None, 659.26, None, 523.25],
    Pattern.CHALLENGE_REJECTED: [329.63, None, 261.63],
    Pattern.TIMES_UP: [880.0, None, 880.0, None, 880.0],
}


def test_patterns_are_distinct_by_rhythm_alone():
    assert set(RHYTHMS) == set(Pattern) == set(PATTERNS)
    assert len({tuple(r) for r in RHYTHMS.values()}) == len(Pattern)


@pytest.mark.parametrize("pattern", list(Pattern))
def test_active_buzzer_pin_sequence(factory, pattern):
    config = HardwareConfig.from_mapping({"buzzer": {"type": "active", "pin": 18}})
    steps = []
    pin = factory.pin(18)
    buzzer = Buzzer(config, pin_factory=factory, sleep=lambda s: steps.append((int(pin.state), s)))
    pin.clear_states()
    buzzer.play(pattern, wait=True)
    assert steps == RHYTHMS[pattern]
    expected_states = [0] + [on for on, _ in RHYTHMS[pattern]] + [0]
    assert [int(s.state) for s in pin.states] == expected_states
    buzzer.close()


@pytest.mark.parametrize("pattern", list(Pattern))
def test_passive_buzzer_tone_sequence(pwm_factory, pattern):
    config = HardwareConfig.from_mapping({"buzzer": {"type": "passive", "pin": 18}})
    steps = []
    pin = pwm_factory.pin(18)

    def record(seconds):
        steps.append((None if pin.frequency is None else round(pin.frequency, 2), pin.state, seconds))

    buzzer = Buzzer(config, pin_factory=pwm_factory, sleep=record)
    buzzer.play(pattern, wait=True)
    assert [f for f, _, _ in steps] == NOTES[pattern]
    assert [(1 if state else 0, s) for _, state, s in steps] == RHYTHMS[pattern]
    assert all(state in (0, 0.5) for _, state, _ in steps)  # square wave when sounding
    assert pin.frequency is None and pin.state == 0  # silent afterwards
    buzzer.close()


def test_play_returns_at_once_and_a_new_pattern_cuts_the_old_one_short(factory):
    config = HardwareConfig.from_mapping({"buzzer": {"type": "active", "pin": 18}})
    gate = threading.Event()
    entered = threading.Semaphore(0)

    def blocking_sleep(seconds):
        entered.release()
        gate.wait(5)

    buzzer = Buzzer(config, pin_factory=factory, sleep=blocking_sleep)
    pin = factory.pin(18)
    buzzer.play(Pattern.TIMES_UP)  # would take 1.6 s; the step sleep blocks until the gate opens
    assert entered.acquire(timeout=2)
    assert pin.state == 1  # sounding, and play() has already returned
    pin.clear_states()
    buzzer.play(Pattern.TICK)
    assert entered.acquire(timeout=2)
    gate.set()
    buzzer.wait(2)
    time.sleep(0.05)  # let the cut-short TIMES_UP thread finish too
    # TIMES_UP never touched the pin again: the TICK's on -> off is all that happened.
    assert [int(s.state) for s in pin.states] == [1, 0]
    buzzer.close()


def test_open_buzzer_twins():
    assert isinstance(open_buzzer(HardwareConfig()), SilentBuzzer)
    silent = open_buzzer(HardwareConfig())
    silent.play(Pattern.TICK)
    assert silent.played == [Pattern.TICK]

    class Stream:
        text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    stream = Stream()
    console = ConsoleBuzzer(stream, sleep=lambda s: None)  # type: ignore[arg-type]
    console.play(Pattern.CHALLENGE_UPHELD, wait=True)
    assert stream.text == "\a\a\a"
    assert isinstance(
        open_buzzer(HardwareConfig(buzzer=BuzzerKind.CONSOLE), stream=stream), ConsoleBuzzer  # type: ignore[arg-type]
    )
    with pytest.raises(ConfigurationError, match="hardware.buzzer.type = 'none'"):
        Buzzer(HardwareConfig())


# -- LEDs ---------------------------------------------------------------------------------------


def test_turn_leds_show_whose_turn(factory):
    config = HardwareConfig.from_mapping({"leds": {"player_1": 5, "player_2": 6, "player_3": 13}})
    with TurnLeds(config, pin_factory=factory) as leds:
        leds.show(1)
        assert [factory.pin(p).state for p in (5, 6, 13)] == [0, 1, 0]
        leds.show(None)
        assert [factory.pin(p).state for p in (5, 6, 13)] == [0, 0, 0]


def test_tones_are_in_the_tonal_buzzer_range():
    for steps in PATTERNS.values():
        for step in steps:
            if step.note is not None:
                assert Tone("A3").frequency <= Tone(step.note).frequency <= Tone("A5").frequency

# SPDX-License-Identifier: GPL-3.0-or-later
"""Buzzer patterns, played without blocking the caller.

A pattern is a short list of :class:`Step` (a note or silence, and a duration). The rhythms alone
tell the patterns apart, so they work on an active buzzer (on/off only); a passive piezo
(``TonalBuzzer``) also plays the notes. A new ``play()`` cuts the current pattern short.

    buzzer = open_buzzer(config)          # Buzzer (GPIO), ConsoleBuzzer (bell) or SilentBuzzer
    buzzer.play(Pattern.TIMES_UP)         # returns at once; a background thread plays it

Tests pass ``sleep=`` (called with each step's duration) and ``play(..., wait=True)`` to run a
pattern synchronously and deterministically.
"""

from __future__ import annotations

import enum
import sys
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, TextIO

from hardware._gpio import build
from hardware.config import BuzzerKind, HardwareConfig
from hardware.errors import ConfigurationError


class Step(NamedTuple):
    note: str | None
    """Note name within A3..A5 (the TonalBuzzer range around A4), or ``None`` for silence."""
    seconds: float


class Pattern(enum.Enum):
    TICK = "tick"
    """One very short blip: each of the last seconds."""
    WORD_ACCEPTED = "word-accepted"
    """Two short rising blips."""
    TURN_OVER = "turn-over"
    """One long tone."""
    CHALLENGE_UPHELD = "challenge-upheld"
    """Three short falling blips: the challenged word is off the board."""
    CHALLENGE_REJECTED = "challenge-rejected"
    """Two long low tones: the word stands."""
    TIMES_UP = "times-up"
    """Two tones and a very long third one."""

    @property
    def steps(self) -> tuple[Step, ...]:
        return PATTERNS[self]


PATTERNS: dict[Pattern, tuple[Step, ...]] = {
    Pattern.TICK: (Step("E5", 0.05),),
    Pattern.WORD_ACCEPTED: (Step("C5", 0.08), Step(None, 0.06), Step("G5", 0.12)),
    Pattern.TURN_OVER: (Step("A4", 0.5),),
    Pattern.CHALLENGE_UPHELD: (
        Step("G5", 0.08), Step(None, 0.06), Step("E5", 0.08), Step(None, 0.06), Step("C5", 0.08),
    ),
    Pattern.CHALLENGE_REJECTED: (Step("E4", 0.3), Step(None, 0.12), Step("C4", 0.3)),
    Pattern.TIMES_UP: (
        Step("A5", 0.25), Step(None, 0.1), Step("A5", 0.25), Step(None, 0.1), Step("A5", 0.9),
    ),
}  # fmt: skip

Sleep = Callable[[float], None]


class _PatternPlayer:
    """Plays steps on a background thread; ``_output(note)`` is the only hardware call."""

    def __init__(self, sleep: Sleep | None) -> None:
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._custom_sleep = sleep
        self.played: list[Pattern] = []

    def _output(self, note: str | None) -> None:
        raise NotImplementedError

    def _sleep(self, seconds: float, cancel: threading.Event) -> bool:
        """Wait one step; True if the pattern was cut short meanwhile."""
        if self._custom_sleep is None:
            return cancel.wait(seconds)
        self._custom_sleep(seconds)
        return cancel.is_set()

    def play(self, pattern: Pattern, *, wait: bool = False) -> None:
        """Start ``pattern`` (cutting short the one playing) and return at once, or when it is
        over if ``wait``."""
        cancel = threading.Event()
        with self._lock:
            self._cancel.set()
            self._cancel = cancel
            self.played.append(pattern)
        if wait:
            self._run(pattern.steps, cancel)
            return
        self._thread = threading.Thread(
            target=self._run, args=(pattern.steps, cancel), name=f"buzzer-{pattern.value}", daemon=True
        )
        self._thread.start()

    def _run(self, steps: tuple[Step, ...], cancel: threading.Event) -> None:
        for step in steps:
            with self._lock:
                # Checked under the lock: once a newer play() has begun, this one never touches the pin.
                if cancel.is_set():
                    return
                self._output(step.note)
            if self._sleep(step.seconds, cancel):
                return
        with self._lock:
            if not cancel.is_set():
                self._output(None)

    def wait(self, timeout: float | None = None) -> None:
        """Block until the current pattern is over (tests, shutdown)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def stop(self) -> None:
        with self._lock:
            self._cancel.set()
            self._output(None)

    def close(self) -> None:
        self.stop()
        self.wait(1.0)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Buzzer(_PatternPlayer):
    """A buzzer on GPIO: ``active`` = gpiozero ``Buzzer`` (on/off), ``passive`` = ``TonalBuzzer``
    (PWM notes, A3..A5)."""

    def __init__(
        self, config: HardwareConfig, *, pin_factory: Any = None, sleep: Sleep | None = None
    ) -> None:
        super().__init__(sleep)
        pin = config.buzzer_pin
        if config.buzzer not in (BuzzerKind.ACTIVE, BuzzerKind.PASSIVE) or pin is None:
            raise ConfigurationError(
                f"{config.source}: hardware.buzzer.type = {config.buzzer.value!r}: a GPIO buzzer needs type "
                "'active' or 'passive' and a pin; use open_buzzer() for 'none' or 'console'"
            )
        self.kind = config.buzzer
        if config.buzzer is BuzzerKind.ACTIVE:
            from gpiozero import Buzzer as ActiveBuzzer

            self._device = build(
                "hardware.buzzer.pin", pin, lambda: ActiveBuzzer(pin, pin_factory=pin_factory), config.source
            )
        else:
            from gpiozero import TonalBuzzer
            from gpiozero.tones import Tone

            self._tone = Tone
            self._device = build(
                "hardware.buzzer.pin",
                pin,
                lambda: TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=1, pin_factory=pin_factory),
                config.source,
            )

    def _output(self, note: str | None) -> None:
        if self.kind is BuzzerKind.ACTIVE:
            if note is None:
                self._device.off()
            else:
                self._device.on()
        elif note is None:
            self._device.stop()
        else:
            self._device.play(self._tone(note))

    def close(self) -> None:
        super().close()
        self._device.close()


class ConsoleBuzzer(_PatternPlayer):
    """The terminal bell: one BEL per sounding step (a terminal cannot hold a tone)."""

    def __init__(self, stream: TextIO | None = None, *, sleep: Sleep | None = None) -> None:
        super().__init__(sleep)
        self._stream = stream

    def _output(self, note: str | None) -> None:
        if note is not None:
            stream = self._stream or sys.stdout
            stream.write("\a")
            stream.flush()


class SilentBuzzer(_PatternPlayer):
    """Makes no sound; ``played`` records the patterns (tests, ``type = "none"``)."""

    def __init__(self) -> None:
        super().__init__(lambda seconds: None)

    def play(self, pattern: Pattern, *, wait: bool = False) -> None:
        with self._lock:
            self.played.append(pattern)

    def _output(self, note: str | None) -> None:
        pass


def open_buzzer(
    config: HardwareConfig, *, pin_factory: Any = None, stream: TextIO | None = None
) -> Buzzer | ConsoleBuzzer | SilentBuzzer:
    """The buzzer ``config`` asks for."""
    if config.buzzer is BuzzerKind.CONSOLE:
        return ConsoleBuzzer(stream)
    if config.buzzer is BuzzerKind.NONE:
        return SilentBuzzer()
    return Buzzer(config, pin_factory=pin_factory)

# SPDX-License-Identifier: GPL-3.0-or-later
"""Buttons: gpiozero buttons (or a fake) that put :class:`ButtonEvent` values on a queue.

gpiozero calls back on its own thread; the application's loop takes events off the queue::

    events = queue.Queue()
    with Buttons(config, events=events) as buttons:     # or MockButtons(events=events)
        event = events.get()                            # ButtonEvent(role, PRESS, at)
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from hardware._gpio import build, close_all
from hardware.config import HardwareConfig
from hardware.errors import ConfigurationError
from hardware.events import ButtonEvent, ButtonEventKind, ButtonRole


class Buttons:
    """One gpiozero ``Button`` per configured role; PRESS at once, HOLD after ``hold_time``,
    RELEASE when let go. ``pin_factory=None`` lets gpiozero choose (``GPIOZERO_PIN_FACTORY``,
    else lgpio, RPi.GPIO, ...) when the first button is built, never at import."""

    def __init__(
        self,
        config: HardwareConfig,
        *,
        pin_factory: Any = None,
        events: queue.Queue[ButtonEvent],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import Button

        if not config.buttons:
            raise ConfigurationError(f"{config.source}: [hardware.buttons] configures no button")
        self._events = events
        self._clock = clock
        self._buttons: dict[ButtonRole, Any] = {}
        try:
            for role, pin in config.buttons:

                def make(pin: int = pin) -> Any:
                    return Button(
                        pin,
                        pull_up=config.pull_up,
                        bounce_time=config.bounce_time,
                        hold_time=config.hold_time,
                        pin_factory=pin_factory,
                    )

                button = build(f"hardware.buttons.{role.value}", pin, make, config.source)
                button.when_pressed = partial(self._put, role, ButtonEventKind.PRESS)
                button.when_held = partial(self._put, role, ButtonEventKind.HOLD)
                button.when_released = partial(self._put, role, ButtonEventKind.RELEASE)
                self._buttons[role] = button
        except BaseException:
            close_all(self._buttons.values())
            raise

    def _put(self, role: ButtonRole, kind: ButtonEventKind) -> None:
        self._events.put(ButtonEvent(role, kind, self._clock()))

    @property
    def roles(self) -> tuple[ButtonRole, ...]:
        return tuple(self._buttons)

    def is_pressed(self, role: ButtonRole) -> bool:
        return bool(self._buttons[role].is_pressed)

    def close(self) -> None:
        close_all(self._buttons.values())
        self._buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MockButtons:
    """The same events without GPIO: for tests and the keyboard/touch stand-ins.

    >>> events = queue.Queue()
    >>> buttons = MockButtons(events=events, clock=lambda: 1.5)
    >>> buttons.press(ButtonRole.PLAYER_1)
    >>> [e.kind.name for e in (events.get(), events.get())]
    ['PRESS', 'RELEASE']
    """

    def __init__(
        self,
        *,
        events: queue.Queue[ButtonEvent],
        roles: tuple[ButtonRole, ...] = tuple(ButtonRole),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._events = events
        self._clock = clock
        self.roles = roles

    def _put(self, role: ButtonRole, *kinds: ButtonEventKind) -> None:
        if role not in self.roles:
            have = [r.value for r in self.roles]
            raise ConfigurationError(f"button {role.value!r} is not configured; have {have}")
        for kind in kinds:
            self._events.put(ButtonEvent(role, kind, self._clock()))

    def press(self, role: ButtonRole) -> None:
        """A short press: PRESS then RELEASE."""
        self._put(role, ButtonEventKind.PRESS, ButtonEventKind.RELEASE)

    def hold(self, role: ButtonRole) -> None:
        """A long press: PRESS, HOLD, RELEASE."""
        self._put(role, ButtonEventKind.PRESS, ButtonEventKind.HOLD, ButtonEventKind.RELEASE)

    def close(self) -> None:
        pass

    def __enter__(self) -> MockButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

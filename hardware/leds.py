# SPDX-License-Identifier: GPL-3.0-or-later
"""Optional LEDs showing whose turn it is (``[hardware.leds]``, one per player)."""

from __future__ import annotations

from typing import Any

from hardware._gpio import build, close_all
from hardware.config import HardwareConfig
from hardware.errors import ConfigurationError


class TurnLeds:
    """One gpiozero ``LED`` per player: ``show(player)`` lights that one; ``blink(player)`` for
    overtime; ``show(None)`` turns all off."""

    def __init__(self, config: HardwareConfig, *, pin_factory: Any = None) -> None:
        from gpiozero import LED

        if not config.leds:
            raise ConfigurationError(f"{config.source}: [hardware.leds] configures no LED")
        self._leds: list[Any] = []
        try:
            for index, pin in enumerate(config.leds):

                def make(pin: int = pin) -> Any:
                    return LED(pin, pin_factory=pin_factory)

                self._leds.append(build(f"hardware.leds.player_{index + 1}", pin, make, config.source))
        except BaseException:
            close_all(self._leds)
            raise

    def __len__(self) -> int:
        return len(self._leds)

    def show(self, player: int | None) -> None:
        for index, led in enumerate(self._leds):
            if index == player:
                led.on()
            else:
                led.off()

    def blink(self, player: int, *, on_time: float = 0.25, off_time: float = 0.25) -> None:
        self.show(None)
        if 0 <= player < len(self._leds):
            self._leds[player].blink(on_time=on_time, off_time=off_time, background=True)

    def close(self) -> None:
        close_all(self._leds)
        self._leds.clear()

    def __enter__(self) -> TurnLeds:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

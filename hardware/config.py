# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``[hardware]`` settings, validated once into a frozen :class:`HardwareConfig`.

Example ``config.toml`` table (pins are BCM GPIO numbers; ``"GPIO17"`` and header pins such as
``"BOARD11"`` work too)::

    [hardware]
    hold_time = 2.0          # seconds held = HOLD event (menu, end of game)
    bounce_time = 0.05       # seconds; None/absent = gpiozero default
    pull_up = true           # buttons wired between the pin and ground

    [hardware.buttons]
    player_1 = 17
    player_2 = 27
    challenge = 22           # also pauses the clocks
    confirm = 23
    undo = 24
    menu = 25

    [hardware.buzzer]
    type = "passive"         # none | console | active (gpiozero Buzzer) | passive (TonalBuzzer, PWM)
    pin = 18

    [hardware.leds]          # optional: whose turn it is
    player_1 = 5
    player_2 = 6

    [hardware.camera]
    kind = "picamera2"       # replay | still | opencv | picamera2
    width = 2304
    height = 1296
    # device = 0             # opencv: index or /dev/videoN; picamera2: camera number
    # path = "photos/"       # replay: image folder; still: one image
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.errors import ConfigurationError
from hardware.events import ButtonRole

CAMERA_KINDS = ("replay", "still", "opencv", "picamera2")

# 40-pin header position -> BCM GPIO number (every Pi since the B+).
BOARD_TO_BCM = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip
GPIO_PINS = range(0, 28)

#: Longest hold or debounce time accepted, in seconds.
MAX_SECONDS = 60
#: Largest camera frame side accepted (the Pi's sensors are at most 9152 pixels wide).
MAX_CAMERA_PIXELS = 16384

PIN_HELP = "use a BCM GPIO number 0-27 (e.g. 17), 'GPIO17' or a header position 'BOARD11'"


class BuzzerKind(enum.Enum):
    NONE = "none"
    CONSOLE = "console"
    """The terminal bell (development, the standalone timer)."""
    ACTIVE = "active"
    """A buzzer with its own oscillator, switched on/off (gpiozero ``Buzzer``)."""
    PASSIVE = "passive"
    """A piezo driven with PWM tones (gpiozero ``TonalBuzzer``)."""


@dataclass(frozen=True)
class CameraConfig:
    kind: str | None = None
    """Back-end name (``ordvakt.cameras`` entry point); ``None`` = ``$ORDVAKT_CAMERA`` decides."""
    path: str | None = None
    device: int | str = 0
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True)
class HardwareConfig:
    buttons: tuple[tuple[ButtonRole, int], ...] = ()
    """(role, BCM pin) pairs; roles without a button are simply absent."""
    hold_time: float = 2.0
    bounce_time: float | None = 0.05
    pull_up: bool = True
    buzzer: BuzzerKind = BuzzerKind.NONE
    buzzer_pin: int | None = None
    leds: tuple[int, ...] = ()
    """LED pin per player, in player order."""
    camera: CameraConfig = field(default_factory=CameraConfig)
    source: str = "<defaults>"
    """Where the settings came from, for messages."""

    def button_pin(self, role: ButtonRole) -> int | None:
        return dict(self.buttons).get(role)

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any] | None, source: str = "config.toml") -> HardwareConfig:
        """Validate a ``[hardware]`` table (as parsed by ``tomllib``); every problem is a
        :class:`ConfigurationError` naming the file and the setting."""
        return _Parser(source).parse(table or {})


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.used: dict[int, str] = {}

    def fail(self, setting: str, value: Any, problem: str) -> ConfigurationError:
        shown = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "(a huge number)"
        return ConfigurationError(f"{self.source}: {setting} = {shown[:80]}: {problem}")

    def table(self, value: Any, name: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(name, value, f"must be a table ([{name}])")
        for key in value:
            if key not in allowed:
                expected = ", ".join(allowed)
                raise self.fail(f"{name}.{key}", value[key], f"unknown setting; expected one of {expected}")
        return value

    def number(self, name: str, value: Any, *, allow_none: bool = False) -> float | None:
        if value is None and allow_none:
            return None
        if (isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
                or not 0 <= value <= MAX_SECONDS):
            raise self.fail(name, value, f"must be a number of seconds from 0 to {MAX_SECONDS}")
        return float(value)

    def pin(self, name: str, value: Any) -> int:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value if value in GPIO_PINS else None
        elif isinstance(value, str):
            match = re.fullmatch(r"(GPIO|BCM|BOARD|)([0-9]{1,3})", value.strip().upper())
            if match and match[1] == "BOARD":
                number = BOARD_TO_BCM.get(int(match[2]))
            elif match and int(match[2]) in GPIO_PINS:
                number = int(match[2])
        if number is None:
            raise self.fail(name, value, f"unknown pin; {PIN_HELP}")
        if number in self.used:
            problem = f"GPIO{number} is already used by {self.used[number]}; give every device its own pin"
            raise self.fail(name, value, problem)
        self.used[number] = name
        return number

    def parse(self, raw: Mapping[str, Any]) -> HardwareConfig:
        top = self.table(
            raw, "hardware", ("hold_time", "bounce_time", "pull_up", "buttons", "buzzer", "leds", "camera")
        )
        hold_time = self.number("hardware.hold_time", top.get("hold_time", 2.0))
        bounce_time = self.number("hardware.bounce_time", top.get("bounce_time", 0.05), allow_none=True)
        pull_up = top.get("pull_up", True)
        if not isinstance(pull_up, bool):
            raise self.fail("hardware.pull_up", pull_up, "must be true or false")
        assert hold_time is not None
        if hold_time == 0:
            raise self.fail("hardware.hold_time", hold_time, "must be more than 0 seconds")

        roles = tuple(role.value for role in ButtonRole)
        buttons = tuple(
            (ButtonRole(key), self.pin(f"hardware.buttons.{key}", value))
            for key, value in self.table(top.get("buttons", {}), "hardware.buttons", roles).items()
        )

        buzzer_table = self.table(top.get("buzzer", {}), "hardware.buzzer", ("type", "pin"))
        kind_text = buzzer_table.get("type", "none")
        try:
            buzzer = BuzzerKind(kind_text)
        except ValueError:
            kinds = ", ".join(k.value for k in BuzzerKind)
            problem = f"unknown buzzer type; expected one of {kinds}"
            raise self.fail("hardware.buzzer.type", kind_text, problem) from None
        buzzer_pin = None
        if buzzer in (BuzzerKind.ACTIVE, BuzzerKind.PASSIVE):
            if "pin" not in buzzer_table:
                raise self.fail("hardware.buzzer.pin", None, f"type = {buzzer.value!r} needs a pin")
            buzzer_pin = self.pin("hardware.buzzer.pin", buzzer_table["pin"])

        led_keys = tuple(role.value for role in ButtonRole if role.player is not None)
        led_table = self.table(top.get("leds", {}), "hardware.leds", led_keys)
        leds = tuple(self.pin(f"hardware.leds.{key}", led_table[key]) for key in led_keys if key in led_table)
        if len(leds) != len(led_table) or any(key not in led_table for key in led_keys[: len(leds)]):
            problem = "LEDs must be given for player_1, player_2, ... in order"
            raise self.fail("hardware.leds", dict(led_table), problem)

        camera = self.camera(top.get("camera", {}))
        return HardwareConfig(
            buttons=buttons,
            hold_time=hold_time,
            bounce_time=bounce_time,
            pull_up=pull_up,
            buzzer=buzzer,
            buzzer_pin=buzzer_pin,
            leds=leds,
            camera=camera,
            source=self.source,
        )

    def camera(self, raw: Any) -> CameraConfig:
        table = self.table(raw, "hardware.camera", ("kind", "path", "device", "width", "height"))
        kind = table.get("kind")
        if kind is not None and kind not in camera_kinds():
            problem = f"unknown camera; expected one of {', '.join(camera_kinds())}"
            raise self.fail("hardware.camera.kind", kind, problem)
        path = table.get("path")
        if path is not None and not isinstance(path, str):
            raise self.fail("hardware.camera.path", path, "must be a text path")
        if kind in ("replay", "still") and path is None:
            raise self.fail("hardware.camera.path", None, f"a {kind} camera needs a path")
        device = table.get("device", 0)
        if (isinstance(device, bool) or not isinstance(device, int | str)
                or (isinstance(device, int) and not 0 <= device <= 255) or len(str(device)) > 255):
            raise self.fail("hardware.camera.device", device, "must be a camera number or a device path")
        size = []
        for key in ("width", "height"):
            value = table.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 < value <= MAX_CAMERA_PIXELS):
                raise self.fail(f"hardware.camera.{key}", value, f"must be 1 to {MAX_CAMERA_PIXELS} pixels")
            size.append(value)
        return CameraConfig(kind=kind, path=path, device=device, width=size[0], height=size[1])


def camera_kinds() -> tuple[str, ...]:
    """Built-in camera back-ends plus any installed ``ordvakt.cameras`` plug-ins."""
    from importlib.metadata import entry_points

    names = set(CAMERA_KINDS)
    names.update(ep.name for ep in entry_points(group="ordvakt.cameras"))
    return tuple(sorted(names))

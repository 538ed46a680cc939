# SPDX-License-Identifier: GPL-3.0-or-later
"""HardwareConfig.from_mapping: good tables, and every bad setting named in the message."""

from __future__ import annotations

import tomllib

import pytest

import hardware
from hardware.config import BuzzerKind, CameraConfig, HardwareConfig
from hardware.errors import ConfigurationError, HardwareError
from hardware.events import ButtonRole

EXAMPLE = """
[hardware]
hold_time = 1.5
bounce_time = 0.02

[hardware.buttons]
player_1 = 17
player_2 = "GPIO27"
challenge = "BOARD15"
confirm = 23

[hardware.buzzer]
type = "passive"
pin = 18

[hardware.leds]
player_1 = 5
player_2 = 6

[hardware.camera]
kind = "opencv"
device = "/dev/video2"
width = 1920
height = 1080
"""


def test_example_table():
    config = HardwareConfig.from_mapping(tomllib.loads(EXAMPLE)["hardware"], source="example.toml")
    assert config.buttons == (
        (ButtonRole.PLAYER_1, 17), (ButtonRole.PLAYER_2, 27), (ButtonRole.CHALLENGE, 22), (ButtonRole.CONFIRM, 23),
    )  # fmt: skip
    assert config.button_pin(ButtonRole.CHALLENGE) == 22 and config.button_pin(ButtonRole.MENU) is None
    assert (config.hold_time, config.bounce_time, config.pull_up) == (1.5, 0.02, True)
    assert (config.buzzer, config.buzzer_pin, config.leds) == (BuzzerKind.PASSIVE, 18, (5, 6))
    assert config.camera == CameraConfig(kind="opencv", device="/dev/video2", width=1920, height=1080)
    assert config.source == "example.toml"


def test_empty_table_means_no_gpio():
    config = HardwareConfig.from_mapping({})
    assert config == HardwareConfig(source="config.toml")
    assert config.buttons == () and config.buzzer is BuzzerKind.NONE and config.camera.kind is None


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"buttons": {"player_1": 28}}, r"hardware\.buttons\.player_1 = 28: unknown pin"),
        ({"buttons": {"player_1": "GPIO99"}}, r"hardware\.buttons\.player_1 = 'GPIO99': unknown pin"),
        ({"buttons": {"player_1": "BOARD2"}}, r"hardware\.buttons\.player_1 = 'BOARD2': unknown pin"),  # 5 V pin
        ({"buttons": {"player_1": True}}, r"hardware\.buttons\.player_1 = True: unknown pin"),
        ({"buttons": {"player_1": 17, "player_2": "BOARD11"}},
         r"hardware\.buttons\.player_2 = 'BOARD11': GPIO17 is already used by hardware\.buttons\.player_1"),
        ({"buttons": {"undo": 18}, "buzzer": {"type": "active", "pin": 18}},
         r"hardware\.buzzer\.pin = 18: GPIO18 is already used by hardware\.buttons\.undo"),
        ({"buttons": {"player_5": 4}}, r"hardware\.buttons\.player_5 = 4: unknown setting"),
        ({"buzzer": {"type": "loud"}}, r"hardware\.buzzer\.type = 'loud': unknown buzzer type; expected one of none"),
        ({"buzzer": {"type": "active"}}, r"hardware\.buzzer\.pin = None: type = 'active' needs a pin"),
        ({"camera": {"kind": "kinect"}}, r"hardware\.camera\.kind = 'kinect': unknown camera; expected one of opencv"),
        ({"camera": {"kind": "replay"}}, r"hardware\.camera\.path = None: a replay camera needs a path"),
        ({"camera": {"width": -3}}, r"hardware\.camera\.width = -3: must be 1 to 16384 pixels"),
        ({"camera": {"width": 10**17}}, r"hardware\.camera\.width = 100000000000000000: must be 1 to 16384"),
        ({"camera": {"device": 10**40}}, r"hardware\.camera\.device = \(a huge number\): must be a camera"),
        ({"hold_time": float("nan")}, r"hardware\.hold_time = nan: must be a number of seconds from 0 to 60"),
        ({"bounce_time": float("inf")}, r"hardware\.bounce_time = inf: must be a number of seconds"),
        ({"buttons": {"player_1": "1" * 5000}}, r"hardware\.buttons\.player_1 = '1111.*: unknown pin"),
        ({"buttons": {"player_1": "GPIO\u0661\u0667"}}, r"hardware\.buttons\.player_1 = 'GPIO.*: unknown pin"),
        ({"hold_time": "long"}, r"hardware\.hold_time = 'long': must be a number of seconds"),
        ({"pull_up": "yes"}, r"hardware\.pull_up = 'yes': must be true or false"),
        ({"buttons": [17, 27]}, r"hardware\.buttons = \[17, 27\]: must be a table"),
        ({"leds": {"player_2": 6}}, r"hardware\.leds = \{'player_2': 6\}: LEDs must be given for player_1"),
        ({"speaker": 1}, r"hardware\.speaker = 1: unknown setting"),
    ],
)
def test_bad_settings_are_named(table, message):
    with pytest.raises(ConfigurationError, match="^my.toml: " + message):
        HardwareConfig.from_mapping(table, source="my.toml")


def test_errors_are_hardware_errors_and_value_errors():
    assert issubclass(ConfigurationError, HardwareError) and issubclass(ConfigurationError, ValueError)


def test_importing_hardware_touches_no_hardware():
    import subprocess
    import sys

    code = (
        "import sys, hardware, hardware.buttons, hardware.buzzer, hardware.leds, hardware.camera, hardware.config;"
        "bad = [m for m in ('gpiozero.pins.lgpio', 'gpiozero.pins.rpigpio', 'picamera2', 'lgpio', 'RPi', 'cv2')"
        " if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert hardware.__doc__

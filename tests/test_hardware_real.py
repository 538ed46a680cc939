# SPDX-License-Identifier: GPL-3.0-or-later
"""The same hardware code on a real Raspberry Pi (marker ``hw``). Skipped elsewhere.

Run on the Pi with ``ORDVAKT_HW_TEST=1 pytest -m hw tests/test_hardware_real.py``; pins come from
``ORDVAKT_TEST_BUTTON_PIN`` (default 17) and ``ORDVAKT_TEST_BUZZER_PIN`` (default 18), nothing wired
to them is required.
"""

from __future__ import annotations

import os
import queue
from pathlib import Path

import pytest

from hardware.buttons import Buttons
from hardware.buzzer import Buzzer, Pattern
from hardware.camera import open_camera
from hardware.config import HardwareConfig


def _on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.is_file() and "Raspberry Pi" in model.read_text(errors="replace")


pytestmark = [
    pytest.mark.hw,
    pytest.mark.skipif(
        not (_on_a_pi() and os.environ.get("ORDVAKT_HW_TEST") == "1"),
        reason="needs a Raspberry Pi and ORDVAKT_HW_TEST=1",
    ),
]

BUTTON_PIN = int(os.environ.get("ORDVAKT_TEST_BUTTON_PIN", "17"))
BUZZER_PIN = int(os.environ.get("ORDVAKT_TEST_BUZZER_PIN", "18"))


def test_default_pin_factory_builds_a_button_that_is_not_pressed():
    config = HardwareConfig.from_mapping({"buttons": {"confirm": BUTTON_PIN}})
    events: queue.Queue = queue.Queue()
    with Buttons(config, events=events) as buttons:
        assert buttons.roles and events.empty()


@pytest.mark.parametrize("kind", ["active", "passive"])
def test_buzzer_plays_a_tick(kind):
    config = HardwareConfig.from_mapping({"buzzer": {"type": kind, "pin": BUZZER_PIN}})
    with Buzzer(config) as buzzer:
        buzzer.play(Pattern.TICK, wait=True)


def test_pi_camera_delivers_a_bgr_frame():
    with open_camera("picamera2", width=1280, height=720) as camera:
        frame = camera.best_still(timeout_s=2.0)
    assert frame.shape == (720, 1280, 3) and frame.dtype.name == "uint8"

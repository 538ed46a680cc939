# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt doctor``: each check against a fake machine (sysfs tree, SDL, camera, GPIO, disk, clock)."""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

from device.config import Config
from device.doctor import (
    Check,
    Machine,
    Status,
    check_buzzer,
    check_camera,
    check_clock,
    check_database,
    check_disk,
    check_display,
    check_gpio,
    check_touch,
    check_word_lists,
    display_problem,
    run_checks,
    touch_devices,
)
from hardware.config import HardwareConfig
from hardware.errors import DeviceUnavailable

Usage = namedtuple("Usage", "total used free")


def machine(tmp_path: Path, **fields) -> Machine:
    defaults = {"root": tmp_path, "environ": {}, "video_drivers": lambda: ["x11", "kmsdrm", "dummy"],
                "run": lambda cmd: "yes\n", "disk_usage": lambda path: Usage(0, 0, 10**10)}
    return Machine(**{**defaults, **fields})


def add_input(root: Path, event: str, name: str, abs_bits: str) -> None:
    device = root / "sys/class/input" / event / "device"
    (device / "capabilities").mkdir(parents=True)
    (device / "name").write_text(name + "\n")
    (device / "capabilities" / "abs").write_text(abs_bits + "\n")


def test_display_fails_when_sdl_lacks_kmsdrm_and_names_the_fix(tmp_path):
    check = check_display(machine(tmp_path, video_drivers=lambda: ["x11", "wayland", "dummy"]))
    assert check.status is Status.FAIL
    assert "x11 wayland dummy" in check.found and "pygame-ce" in check.fix


def test_display_needs_a_drm_card_it_can_open(tmp_path):
    assert check_display(machine(tmp_path)).status is Status.FAIL  # no /dev/dri/card*
    (tmp_path / "dev/dri").mkdir(parents=True)
    (tmp_path / "dev/dri/card1").write_bytes(b"")
    check = check_display(machine(tmp_path))
    assert check.status is Status.OK and "card1" in check.found


def test_display_accepts_the_driver_the_environment_names(tmp_path):
    check = check_display(machine(tmp_path, environ={"SDL_VIDEODRIVER": "dummy"}))
    assert check.status is Status.OK and "dummy" in check.found


def test_touch_finds_the_device_reporting_multitouch_positions(tmp_path):
    add_input(tmp_path, "event0", "gpio_keys", "0")
    add_input(tmp_path, "event1", "mouse", "3")  # ABS_X and ABS_Y only
    # The 7" display's ft5x06 as a 32-bit and a 64-bit kernel print it: ABS_X, ABS_Y, ABS_MT_SLOT,
    # ABS_MT_POSITION_X/Y (bits 0x35, 0x36) and ABS_MT_TRACKING_ID.
    add_input(tmp_path, "event3", "generic ft5x06 (79)", "2608000 00000003")
    add_input(tmp_path, "event4", "Goodix Capacitive TouchScreen", "260800000000003")
    assert touch_devices(machine(tmp_path)) == [
        ("event3", "generic ft5x06 (79)"), ("event4", "Goodix Capacitive TouchScreen")]
    check = check_touch(machine(tmp_path))
    assert check.status is Status.OK and "ft5x06" in check.found


def test_no_touchscreen_is_a_warning(tmp_path):
    add_input(tmp_path, "event0", "USB keyboard", "0")
    assert check_touch(machine(tmp_path)).status is Status.WARN


class FakeCamera:
    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def best_still(self, timeout_s: float = 1.0) -> np.ndarray:
        return self.frame

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def picamera_config() -> HardwareConfig:
    return HardwareConfig.from_mapping({"camera": {"kind": "picamera2"}})


def test_camera_reports_frame_size_and_sharpness(tmp_path):
    rng = np.random.default_rng(1)
    sharp = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    check = check_camera(machine(tmp_path, open_camera=lambda hw: FakeCamera(sharp)), picamera_config())
    assert check.status is Status.OK and "640x480" in check.found and "sharpness" in check.found


def test_a_flat_frame_is_a_covered_lens(tmp_path):
    flat = np.full((480, 640, 3), 128, np.uint8)
    check = check_camera(machine(tmp_path, open_camera=lambda hw: FakeCamera(flat)), picamera_config())
    assert check.status is Status.WARN and "sharpness 0" in check.found


def test_a_camera_that_cannot_start_fails_with_its_message(tmp_path):
    def broken(hw):
        raise DeviceUnavailable("picamera2 cannot be imported (numpy ABI)")

    check = check_camera(machine(tmp_path, open_camera=broken), picamera_config())
    assert check.status is Status.FAIL and "numpy ABI" in check.found


class Closable:
    closed = False

    def close(self) -> None:
        self.closed = True


def test_gpio_claims_the_configured_pins_and_lets_them_go(tmp_path):
    hw = HardwareConfig.from_mapping({"buttons": {"player_1": 17, "player_2": 27}})
    made = Closable()
    check = check_gpio(machine(tmp_path, make_buttons=lambda h: made), hw)
    assert check.status is Status.OK and "player_1=17" in check.found and made.closed


def test_gpio_failure_names_the_setting(tmp_path):
    hw = HardwareConfig.from_mapping({"buttons": {"player_1": 17}})

    def refuse(h):
        raise DeviceUnavailable("config.toml: hardware.buttons.player_1 = 17: cannot use GPIO17")

    check = check_gpio(machine(tmp_path, make_buttons=refuse), hw)
    assert check.status is Status.FAIL and "player_1 = 17" in check.found and "gpio group" in check.fix


def test_buzzer_on_a_pin_is_built_and_none_is_a_warning(tmp_path):
    passive = HardwareConfig.from_mapping({"buzzer": {"type": "passive", "pin": 18}})
    assert check_buzzer(machine(tmp_path, make_buzzer=lambda h: Closable()), passive).status is Status.OK
    assert check_buzzer(machine(tmp_path), HardwareConfig()).status is Status.WARN


def test_word_lists_missing_and_present(tmp_path):
    from engine.lexicon.importing import import_list

    lexicons = tmp_path / "lexicons"
    check = check_word_lists(lexicons, ["sv"])
    assert check.status is Status.WARN and "ordvakt lexicon build sv" in check.fix
    source = tmp_path / "words.txt"
    source.write_text("katt\nhund\nfisk\n", encoding="utf-8")
    import_list(source, "sv", "mini-sv", lexicons)
    assert check_word_lists(lexicons, ["sv"]).status is Status.OK


def test_database_checked_read_only_and_a_corrupt_one_fails(tmp_path):
    assert check_database(tmp_path).status is Status.OK  # created at the first game
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        db.execute("CREATE TABLE games (id INTEGER)")
    assert check_database(tmp_path).status is Status.OK
    (tmp_path / "games.sqlite").write_bytes(b"not a database" * 100)
    assert check_database(tmp_path).status is Status.FAIL


@pytest.mark.parametrize(("free_mb", "status"), [(50, Status.FAIL), (300, Status.WARN), (5000, Status.OK)])
def test_disk_thresholds(tmp_path, free_mb, status):
    check = check_disk(machine(tmp_path, disk_usage=lambda p: Usage(0, 0, free_mb * 10**6)), tmp_path)
    assert check.status is status and f"{free_mb:,} MB" in check.found


def test_clock_from_timedatectl_or_timesyncd_flag(tmp_path):
    assert check_clock(machine(tmp_path, run=lambda cmd: "yes\n")).status is Status.OK
    assert check_clock(machine(tmp_path, run=lambda cmd: "no\n")).status is Status.WARN

    def missing(cmd):
        raise FileNotFoundError(cmd[0])

    assert check_clock(machine(tmp_path, run=missing)).status is Status.WARN
    (tmp_path / "run/systemd/timesync").mkdir(parents=True)
    (tmp_path / "run/systemd/timesync/synchronized").write_text("")
    assert check_clock(machine(tmp_path, run=missing)).status is Status.OK


def test_every_check_runs_and_a_bad_hardware_setting_is_one_failed_line(tmp_path):
    config = Config(hardware={"buttons": {"player_1": 99}}, source="test.toml")
    checks = run_checks(config, machine(tmp_path), data_dir=tmp_path, lexicon_dir=tmp_path / "lexicons")
    names = [c.name for c in checks]
    assert names == ["display", "touch", "hardware", "word lists", "database", "disk", "clock"]
    bad = checks[2]
    assert bad.status is Status.FAIL and "player_1" in bad.found


def test_line_shows_the_fix_only_when_something_is_to_do():
    assert Check("disk", Status.OK, "9 GB free", "delete photos").line() == "ok   disk: 9 GB free"
    assert Check("disk", Status.FAIL, "9 MB free", "delete photos").line() == "fail disk: 9 MB free; fix: delete photos"


def test_display_problem_says_what_sdl_offers():
    line = display_problem("kmsdrm not available", {"SDL_VIDEODRIVER": "kmsdrm"}, lambda: ["x11", "dummy"])
    assert "SDL_VIDEODRIVER=kmsdrm" in line and "x11 dummy" in line and "pygame-ce" in line and "\n" not in line

# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile input at the command line: one line naming the input and the problem, a distinct exit code,
never a traceback and never a wrong success (issue 17)."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from conftest import shared_path
from device.cli import main
from device.errors import ExitCode


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses a bad argument itself
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")


def photo() -> Path:
    return shared_path("photos", "scrabscrap", "game01", "image-10.jpg")


def test_a_png_claiming_60000_by_60000_pixels_is_refused_from_its_header(tmp_path, capsys):
    bomb = tmp_path / "huge.png"
    bomb.write_bytes(png_claiming(60000, 60000))
    code, _, err = run(capsys, "read", str(bomb))
    assert code == ExitCode.INPUT
    assert "60000 x 60000 pixels" in err and "huge.png" in err


def test_a_truncated_jpeg_is_refused_not_read_as_tiles(tmp_path, capsys):
    data = photo().read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) * 2 // 3])
    code, out, err = run(capsys, "read", str(cut))
    assert code == ExitCode.INPUT
    assert "cut short" in err and "tiles" not in out


@pytest.mark.parametrize(("name", "fragment"), [("out.xyz", "must end in"), ("missing/out.png", "does not exist")])
def test_debug_image_to_an_unknown_type_or_missing_folder_fails_before_reading(tmp_path, capsys, name, fragment):
    code, out, err = run(capsys, "read", str(photo()), "--debug-image", str(tmp_path / name))
    assert code == ExitCode.INPUT
    assert fragment in err and out == ""


def test_debug_image_that_cannot_be_written_is_an_error_not_a_silent_success(capsys):
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc (a folder nobody can write, not even root)")
    code, _, err = run(capsys, "read", str(photo()), "--debug-image", "/proc/self/debug.png")
    assert code != ExitCode.OK
    assert "debug.png" in err


def test_calibrate_never_writes_a_profile_over_a_png(tmp_path, capsys):
    target = tmp_path / "x.png"
    target.write_bytes(b"precious")
    code, _, err = run(capsys, "calibrate", str(photo()), "--out", str(target))
    assert code == ExitCode.INPUT and ".toml" in err
    assert target.read_bytes() == b"precious"


def test_calibrate_refuses_random_noise(tmp_path, capsys):
    import numpy as np

    from vision.imageio import write_image

    noise = np.random.default_rng(17).integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    write_image(tmp_path / "noise.png", noise)
    code, _, err = run(capsys, "calibrate", str(tmp_path / "noise.png"), "--out", str(tmp_path / "p.toml"))
    assert code != ExitCode.OK and err
    assert not (tmp_path / "p.toml").exists()


@pytest.mark.parametrize("seconds", ["inf", "nan", "-5", "1e300"])
def test_timer_refuses_non_finite_or_absurd_lengths(capsys, seconds):
    code, _, err = run(capsys, "timer", "--seconds", seconds)
    assert code == ExitCode.INPUT
    assert "--seconds" in err


@pytest.mark.parametrize("delay", ["inf", "nan", "-1"])
def test_demo_refuses_a_delay_that_is_not_a_finite_number_of_seconds(capsys, delay):
    code, _, err = run(capsys, "demo", "--headless", "--delay", delay)
    assert code == ExitCode.INPUT and "--delay" in err


def test_a_record_that_never_ends_is_read_only_as_far_as_a_record_can_go(capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    code, out, err = run(capsys, "gcg", "check", "/dev/zero")
    assert code != ExitCode.OK and "too big for a game record" in out + err


def test_replay_of_a_folder_with_gaps_names_the_missing_photos(tmp_path, capsys):
    import shutil

    for n in (1, 2, 5, 9):
        shutil.copy(shared_path("photos", "scrabscrap", "game01", f"image-{n}.jpg"), tmp_path / f"image-{n}.jpg")
    code, out, err = run(capsys, "replay", str(tmp_path), "--no-record")
    text = out + err
    assert "missing photos: image-3, image-4, image-6, image-7, image-8 (5)" in text


def test_an_unexpected_bug_is_logged_with_its_traceback_and_reported_in_one_line(monkeypatch, capsys, caplog):
    import argparse

    from device import cli

    def broken(args):
        raise ZeroDivisionError("boom")

    class Parser:
        def parse_args(self, argv):
            return argparse.Namespace(command="broken", func=broken)

    monkeypatch.setattr(cli, "build_parser", Parser)
    code = cli.main(["broken"])
    err = capsys.readouterr().err
    assert code == ExitCode.INTERNAL
    assert "internal error (ZeroDivisionError: boom)" in err
    assert err.count("\n") == 1
    logged = [r for r in caplog.records if r.name == "ordvakt"]
    assert logged and logged[0].exc_info[0] is ZeroDivisionError  # the log (stderr / the journal) has the details


def test_demo_ends_on_sigterm(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen(
        [sys.executable, "-m", "device", "demo", "--headless", "--no-screenshots", "--delay", "0.5",
         "--data-dir", str(tmp_path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "games.sqlite").exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == ExitCode.TERMINATED, err
    assert "Traceback" not in err

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt timer``: the session logic with a fake clock, the real command in subprocesses,
and bad configuration reported as one line naming the setting."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.cli import main
from device.commands.timer import TimerSession, make_clock
from engine.clocks import ChessClock, ClockState, TurnTimer
from hardware.buzzer import Pattern, SilentBuzzer
from hardware.events import ButtonEvent, ButtonEventKind, ButtonRole

ROOT = Path(__file__).resolve().parent.parent


def session(mode: str, **kw) -> TimerSession:
    return TimerSession(mode, make_clock(mode, kw.get("players", 2), kw.get("seconds")), SilentBuzzer(), io.StringIO())


def test_ordskifte_keys_word_made_and_expiry_drive_the_buzzer():
    s = session("ordskifte")
    s.start(100.0)
    s.key(" ", 142.0)  # word made at 0:42
    assert s.clock.remaining_ms(142.0) == 60_000 and s.clock.player == 0
    s.tick(195.0)
    assert s.buzzer.played == [Pattern.WORD_ACCEPTED] + [Pattern.TICK] * 4  # 10, 9, 8, 7 s left
    s.tick(202.5)
    assert s.buzzer.played[-1] is Pattern.TURN_OVER and s.expired_at_ms == 202_000
    assert s.clock.player == 1 and "P2" in s.status(203.0) and "press to start" in s.status(203.0)
    s.key(" ", 210.0)
    assert s.clock.state(210.0) is ClockState.RUNNING
    s.key("n", 211.0)  # no word: pass on
    assert s.clock.player == 0


def test_chess_keys_challenge_pause_and_final_penalties():
    s = session("chess", seconds=60)
    s.start(0.0)
    s.key("2", 10.0)  # not player 2's turn: ignored
    s.key("1", 20.0)
    s.button(ButtonEvent(ButtonRole.CHALLENGE, ButtonEventKind.PRESS, 30.0), 30.0)
    assert s.clock.paused
    s.key("p", 90.0)
    s.button(ButtonEvent(ButtonRole.PLAYER_2, ButtonEventKind.PRESS, 100.0), 100.0)
    s.tick(150.0)  # player 1 had 40 s left and runs 50 s more: 10 s over
    assert s.buzzer.played[-1] is Pattern.TIMES_UP
    assert s.status(150.0) == ">P1  -0:10   P2   0:40"
    s.key("f", 150.0)
    assert s.done
    text = s.out.getvalue()
    assert "final: P1 -0:10  P2 0:40" in text and "time penalty: P1 -10 (-0:10 overtime)" in text
    assert isinstance(s.clock, ChessClock) and s.clock.state(171.0) is ClockState.OVER


def test_keywords_flip_and_menu_hold_quits():
    s = session("keywords")
    s.start(0.0)
    s.button(ButtonEvent(ButtonRole.CONFIRM, ButtonEventKind.PRESS, 12.0), 12.0)
    assert s.clock.player == 1 and s.clock.remaining_ms(12.0) == 30_000
    s.button(ButtonEvent(ButtonRole.MENU, ButtonEventKind.HOLD, 13.0), 13.0)
    assert s.done


def run_cli(*argv: str, env: dict[str, str] | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "ORDVAKT_CONFIG": str(ROOT / "no-such-config.toml"), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "device", *argv], capture_output=True, text=True, cwd=ROOT, env=full_env,
        timeout=timeout, stdin=subprocess.DEVNULL,
    )


def reported_expiry(stdout: str) -> float:
    """The seconds in the timer's "expired after S s" line."""
    match = re.search(r"expired after ([0-9.]+) s", stdout)
    assert match, stdout
    return float(match[1])


def test_until_expiry_exits_after_the_set_time():
    begin = time.monotonic()
    done = run_cli("timer", "--mode", "ordskifte", "--seconds", "3", "--until-expiry", "--quiet")
    wall = time.monotonic() - begin
    assert done.returncode == 0, done.stderr
    # Never early; how late depends on the machine's load, so it is measured by bench/timer_expiry.py, not here.
    assert reported_expiry(done.stdout) >= 3.0 and wall >= 3.0


def test_gpio_buttons_and_passive_buzzer_from_config_on_mock_pins(tmp_path):
    config = tmp_path / "gpio.toml"
    config.write_text(
        "[hardware.buttons]\nplayer_1 = 17\nchallenge = 22\n[hardware.buzzer]\ntype = 'passive'\npin = 18\n"
    )
    done = run_cli(
        "timer", "--config", str(config), "--seconds", "0.3", "--until-expiry",
        env={"GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"},
    )
    assert done.returncode == 0, done.stderr
    assert reported_expiry(done.stdout) >= 0.3 and "\a" not in done.stdout  # the buzzer, not the bell


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[hardware.buttons]\nplayer_1 = 17\nplayer_2 = 17\n",
         "hardware.buttons.player_2 = 17: GPIO17 is already used by hardware.buttons.player_1"),
        ("[hardware.buttons]\nplayer_1 = 99\n", "hardware.buttons.player_1 = 99: unknown pin"),
        ("[hardware.buzzer]\ntype = 'kazoo'\npin = 18\n", "hardware.buzzer.type = 'kazoo': unknown buzzer type"),
        ("[hardware.camera]\nkind = 'webcam9000'\n", "hardware.camera.kind = 'webcam9000': unknown camera"),
        ("[hardware\nbroken", "not valid TOML"),
    ],
)
def test_bad_config_is_one_line_naming_the_setting(tmp_path, capsys, toml, message):
    config = tmp_path / "config.toml"
    config.write_text(toml)
    assert main(["timer", "--config", str(config), "--seconds", "1", "--until-expiry"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ordvakt: {config}: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_config_from_the_environment_never_a_traceback(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[hardware.buzzer]\ntype = 'active'\n")
    done = run_cli("timer", "--seconds", "1", "--until-expiry", env={"ORDVAKT_CONFIG": str(config)})
    assert done.returncode == 2
    assert done.stderr == f"ordvakt: {config}: hardware.buzzer.pin = None: type = 'active' needs a pin\n"


def test_bad_numbers_and_missing_config(capsys, tmp_path):
    assert main(["timer", "--mode", "chess", "--players", "5", "--until-expiry"]) == 2
    assert "players=5" in capsys.readouterr().err
    assert main(["timer", "--config", str(tmp_path / "absent.toml")]) == 2
    assert "absent.toml': no such file" in capsys.readouterr().err


def test_turn_timer_factory_defaults():
    assert make_clock("ordskifte", 3, None).duration_ms == 60_000
    assert isinstance(make_clock("ordskifte", 3, None), TurnTimer)
    assert make_clock("chess", 2, None).budget_ms == 25 * 60_000
    assert make_clock("keywords", 2, None).duration_ms == 30_000

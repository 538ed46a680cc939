# SPDX-License-Identifier: GPL-3.0-or-later
"""Crash safety: SIGKILL the demo at random moments; every restart resumes with no confirmed move
lost and none doubled, and the game ends with the record's final scores."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.demo import demo_record

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONUNBUFFERED="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def _demo(data_dir: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "device", "demo", "--headless", "--no-screenshots", "--data-dir", str(data_dir),
         *extra], cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _stored(data_dir: Path) -> list[dict]:
    db = sqlite3.connect(data_dir / "games.sqlite")
    try:
        rows = db.execute("SELECT seq, data FROM events WHERE game_id = 1 ORDER BY seq").fetchall()
    finally:
        db.close()
    assert [seq for seq, _ in rows] == list(range(len(rows))), "event numbers have a gap or a double"
    return [json.loads(data) for _, data in rows]


def _expected() -> list[tuple[int, int]]:
    _, reference = demo_record()
    return [(e.player, e.score) for e in reference.game.events]


def test_sigkill_twenty_times_loses_and_doubles_nothing(tmp_path: Path) -> None:
    rng = random.Random(20260406)
    expected = _expected()
    _, reference = demo_record()
    final = "final: " + " ".join(str(s) for s in reference.game.scores)
    games = 0
    data_dir = tmp_path / f"demo{games}"
    mid_game = 0
    for _ in range(20):
        proc = _demo(data_dir, "--delay", "0.04")
        assert proc.stdout is not None
        # Wait until the demo is under way, let it confirm 1-3 more moves (counted from its output, so a slow
        # or busy machine changes nothing), then kill it at a random moment within the next move.
        first = proc.stdout.readline()
        assert first.startswith("game 1:"), first
        seen = [first]
        wanted = rng.randint(1, 3)
        while sum(line.startswith("move ") for line in seen) < wanted:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate()
        out = "".join(seen[1:]) + rest
        confirmed = [int(line.split()[1].rstrip(":")) for line in (first + out).splitlines()
                     if line.startswith("move ")]
        stored = _stored(data_dir)
        # No confirmed move lost: everything printed as done is in the database.
        assert len(stored) >= max(confirmed, default=0)
        # None doubled or invented: the stored events are exactly the record's first events.
        assert [(e["player"], e["score"]) for e in stored] == expected[: len(stored)]
        if 0 < len(stored) < len(expected):
            mid_game += 1
        if final in out.splitlines():
            games += 1
            data_dir = tmp_path / f"demo{games}"
    assert mid_game >= 10, f"only {mid_game} of 20 kills landed in the middle of a game"
    # The last (killed) game runs to its end after a restart, with the record's final line.
    proc = _demo(data_dir)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert out.splitlines()[-1] == final
    assert [(e["player"], e["score"]) for e in _stored(data_dir)] == expected
    # A finished demo started again reports the same game and the same final line.
    proc = _demo(data_dir)
    again, _ = proc.communicate(timeout=60)
    assert "already finished" in again and again.splitlines()[-1] == final

# SPDX-License-Identifier: GPL-3.0-or-later
"""Saved games, configuration, sd_notify and the systemd unit."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest

from device.config import GameSettings, load_config, parse_config
from device.errors import ConfigError
from device.notify import Notifier
from device.store import Store, event_from_dict, event_to_dict
from engine.game import Game
from engine.gcg import parse_gcg, replay

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
DEMO_GCG = next((ROOT / "device" / "data" / "demo").glob("*.gcg"))


def _woogles() -> list[Path]:
    folder = SHARED / "gcg" / "woogles"
    if not folder.is_dir():
        pytest.skip(f"shared data missing: {folder}")
    return sorted(folder.glob("*.gcg"))[:8]


def _store_game(store: Store, game: Game, settings: GameSettings) -> int:
    game_id = store.create_game(settings)
    probe = Game(game.rules, game.players)
    for seq, event in enumerate(game.events):
        store.append_event(game_id, event, probe.board, seq, lettered_rows=settings.lettered_rows)
        probe.replay([event])
    return game_id


def test_demo_game_round_trips_exactly(tmp_path: Path) -> None:
    ref = replay(parse_gcg(DEMO_GCG.read_bytes(), str(DEMO_GCG)), tiles="de", lettered_rows=True).game
    settings = GameSettings(language="de", players=tuple(ref.players), tileset="scrabble-de", lettered_rows=True)
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game_id = _store_game(store, ref, settings)
    with Store(path) as store:
        saved = store.load(game_id)
        assert saved.game is not None
        assert saved.game.board == ref.board
        assert saved.game.scores == ref.scores
        assert saved.game.to_move == ref.to_move
        assert saved.game.events == ref.events
        gcg = store.export_gcg(game_id, tmp_path / "out.gcg").read_bytes()
    again = replay(parse_gcg(gcg, "out.gcg"), tiles="de")
    assert again.game.scores == ref.scores and not again.mismatches


@pytest.mark.parametrize("index", range(8))
def test_real_games_replay_from_storage(tmp_path: Path, index: int) -> None:
    files = _woogles()
    if index >= len(files):
        pytest.skip("fewer woogles games")
    path = files[index]
    ref = replay(parse_gcg(path.read_bytes(), str(path))).game
    settings = GameSettings(language="en", players=tuple(ref.players), tileset=ref.rules.tileset.name,
                            rack_size=ref.rules.rack_size)
    with Store(tmp_path / "g.sqlite") as store:
        game_id = _store_game(store, ref, settings)
        saved = store.load(game_id)
    assert saved.game is not None
    assert (saved.game.board, saved.game.scores, saved.game.to_move) == (ref.board, ref.scores, ref.to_move)
    for event in ref.events:  # JSON form alone is enough
        assert event_from_dict(event_to_dict(event)) == event


def test_event_numbers_refuse_doubles_and_gaps(tmp_path: Path) -> None:
    ref = replay(parse_gcg(DEMO_GCG.read_bytes(), str(DEMO_GCG)), tiles="de", lettered_rows=True).game
    with Store(tmp_path / "g.sqlite") as store:
        game_id = store.create_game(GameSettings(language="de", players=tuple(ref.players)))
        store.append_event(game_id, ref.events[0], Game(ref.rules, ref.players).board, 0)
        with pytest.raises(Exception, match="not the next one"):
            store.append_event(game_id, ref.events[0], Game(ref.rules, ref.players).board, 0)
        with pytest.raises(Exception, match="not the next one"):
            store.append_event(game_id, ref.events[2], Game(ref.rules, ref.players).board, 2)
        assert len(store.records(game_id)) == 1
        store.remove_last(game_id, 0)
        assert store.records(game_id) == []


def test_game_list_and_unfinished(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite") as store:
        a = store.create_game(GameSettings(players=("Ann", "Bob")))
        b = store.create_game(GameSettings(players=("Cy", "Di", "Ed")))
        assert store.unfinished() == b
        store.set_finished(b)
        assert store.unfinished() == a
        listed = store.games()
        assert [g.id for g in listed] == [b, a]
        assert listed[0].players == ("Cy", "Di", "Ed") and listed[0].finished


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_corrupt_database_is_copied_aside_and_a_fresh_one_started(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        store.create_game(GameSettings(players=("Ann", "Bob")))
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    else:
        data = path.read_bytes()
        path.write_bytes(data[:100] + b"\0" * (len(data) - 100))
    before = path.read_bytes()
    with Store(path) as store:
        assert "was damaged" in store.notice and "A copy of the damaged file was kept" in store.notice
        assert "0 moves of 0 games were recovered" in store.notice
        assert "Game 1 is missing" in store.notice  # the record of the last saved event says it existed
        assert store.games() == []
        store.create_game(GameSettings(players=("New", "Game")))
    kept = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and kept[0].read_bytes() == before


def test_a_game_with_damaged_settings_is_kept_and_not_resumed(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        good = store.create_game(GameSettings(players=("Ann", "Bob")))
        bad = store.create_game(GameSettings(players=("Cy", "Di")))
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET settings = '{broken' WHERE id = ?", (bad,))
    db.commit()
    db.close()
    for _ in range(2):  # the same on every start: no crash, no loop
        with Store(path) as store:
            assert f"Game {bad}: its stored settings are damaged" in store.notice
            assert store.unfinished() == good
            assert [g.id for g in store.games()] == [bad, good]
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]


def test_config_defaults_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORDVAKT_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config()
    monkeypatch.delenv("ORDVAKT_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    config = load_config()
    assert config.game.game == "scrabble" and config.hardware_config().buttons == ()
    good = parse_config('[game]\ngame = "alfapet"\nlanguage = "sv"\nrack_size = 8\nplayers = ["A", "B", "C"]\n'
                        '[ui]\nwidth = 720\nheight = 1280\n[hardware.buttons]\nplayer_1 = 17\n', "c.toml")
    assert good.game.rules().rack_size == 8 and good.ui.size == (720, 1280)
    bad = {
        '[game]\nrack_size = 8\n': "game.rack_size = 8: scrabble is played with 7 or 9 tiles",
        '[game]\ngame = "chess"\n': "game.game = 'chess'",
        '[ui]\nwidht = 3\n': "ui.widht = 3: unknown setting",
        '[ui]\nauto_accept_s = "soon"\n': "ui.auto_accept_s = 'soon': must be a number",
        '[game]\nplayers = ["A", "B", "C", "D", "E"]\n': "game.players",
        '[hardware.buttons]\nplayer_1 = 99\n': "hardware.buttons.player_1 = 99",
        'game = [\n': "not valid TOML",
    }
    for text, message in bad.items():
        with pytest.raises(Exception, match=message.replace("(", r"\(").replace("[", r"\[")) as info:
            parse_config(text, "my.toml")
        assert "my.toml" in str(info.value)


def test_notify_sends_datagrams(tmp_path: Path) -> None:
    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    server.settimeout(2)
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "10000000"}, clock=lambda: now[0])
    assert notifier.ready("playing")
    assert server.recv(100) == b"READY=1\nSTATUS=playing"
    assert notifier.watchdog() and server.recv(100) == b"WATCHDOG=1"
    now[0] += 1.0
    assert not notifier.watchdog()  # rate limited to half the 10 s watchdog interval
    now[0] += 4.5
    assert notifier.watchdog() and server.recv(100) == b"WATCHDOG=1"
    server.close()
    assert not Notifier({}).ready()


def test_service_unit_and_install_script(tmp_path: Path) -> None:
    unit = (ROOT / "systemd" / "ordvakt.service").read_text()
    keys = {}
    for line in unit.splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys.setdefault(key.strip(), []).append(value.strip())
    assert keys["Type"] == ["notify"] and keys["Restart"] == ["on-failure"]
    assert keys["StateDirectory"] == ["ordvakt"] and "WatchdogSec" in keys
    assert "SDL_VIDEODRIVER=kmsdrm" in keys["Environment"]
    assert subprocess.run(["bash", "-n", str(ROOT / "systemd" / "install.sh")]).returncode == 0
    script = (ROOT / "systemd" / "install.sh").read_text()
    assert "--system-site-packages" in script and "video render input gpio" in script
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed: unit keys checked only")
    fake = tmp_path / ".venv" / "bin" / "ordvakt"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    target = tmp_path / "ordvakt.service"
    target.write_text(unit.replace("@ROOT@", str(tmp_path)).replace("@USER@", "root"))
    result = subprocess.run(["systemd-analyze", "verify", str(target)], capture_output=True, text=True,
                            env=dict(os.environ, SYSTEMD_LOG_LEVEL="warning"))
    problems = [line for line in (result.stdout + result.stderr).splitlines() if "ordvakt.service" in line]
    assert problems == [], problems

# SPDX-License-Identifier: GPL-3.0-or-later
"""Club mode against a real Mosquitto broker (TLS, per-board credentials, ACL) on a loopback port.

The broker, the boards' link processes and the stand-in kiosks are real processes; the tests kill
them (-9) and restart them, and check that the director ends with every move exactly once.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.club.broker import BrokerFiles, free_port, start_broker, write_broker_config
from device.club.director import Director, subscribe
from device.club.link import parse_command
from device.club.settings import ClubSettings
from device.errors import ConfigError
from device.store import Store
from engine.gcg import parse_gcg, replay

ROOT = Path(__file__).resolve().parent.parent
WOOGLES = ROOT.parent / "shared" / "data" / "gcg" / "woogles"
EVENT = "testcup"

pytestmark = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                                reason="mosquitto is not installed (device/data/debian-packages.txt lists it)")


def records(n: int) -> list[Path]:
    if not WOOGLES.is_dir():
        pytest.skip(f"shared data missing: {WOOGLES}")
    return sorted(WOOGLES.glob("*.gcg"))[:n]


@pytest.fixture
def broker(tmp_path: Path):
    files = write_broker_config(tmp_path / "broker", EVENT, ["b1", "b2", "b3"], port=free_port(),
                                bind="127.0.0.1", hosts=["localhost", "127.0.0.1"])
    process = start_broker(files)
    holder = {"process": process}
    yield files, holder
    holder["process"].terminate()
    holder["process"].wait(timeout=10)


def client_for(files: BrokerFiles, user: str, password: str | None = None, client_id: str | None = None):
    import paho.mqtt.client as mqtt

    client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                         client_id=client_id or f"test-{user}-{time.monotonic_ns()}", protocol=mqtt.MQTTv311)
    if password is not None or user:
        client.username_pw_set(user, files.passwords[user] if password is None else password)
    client.tls_set(ca_certs=str(files.ca_file))
    return client


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def device_config(tmp_path: Path, files: BrokerFiles, board: str) -> Path:
    secret = tmp_path / f"{board}.password"
    secret.write_text(files.passwords[board] + "\n")
    config = tmp_path / f"{board}.toml"
    config.write_text(
        f'[club]\nenabled = true\nevent = "{EVENT}"\nboard = "{board}"\nhost = "localhost"\n'
        f'port = {files.port}\nca_file = "{files.ca_file}"\npassword_file = "{secret}"\n')
    return config


def start_link(config: Path, db: Path, log: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "device", "club", "link", "--config", str(config),
                                 "--db", str(db)], stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)


def start_kiosk(db: Path, gcg: Path, interval: float) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "device.club.simulate", "--db", str(db), "--gcg", str(gcg),
                             "--interval", str(interval)], env=env, cwd=ROOT)


def running_director(files: BrokerFiles, db: Path) -> tuple[Director, object]:
    director = Director(db, EVENT)
    client = client_for(files, "director", client_id="test-director")
    subscribe(director, client)
    client.connect_async("localhost", files.port)
    client.loop_start()
    return director, client


def test_club_settings_are_validated() -> None:
    settings = ClubSettings.from_mapping({"enabled": True, "event": "cup", "board": "b7", "port": 8883})
    assert (settings.event, settings.board, settings.port) == ("cup", "b7", 8883)
    with pytest.raises(ConfigError, match="club.board"):
        ClubSettings.from_mapping({"enabled": True, "event": "cup", "board": "b/7"})
    with pytest.raises(ConfigError, match="club.port"):
        ClubSettings.from_mapping({"port": 70000})
    with pytest.raises(ConfigError, match="unknown setting"):
        ClubSettings.from_mapping({"brokr": "x"})
    with pytest.raises(ValueError, match="names"):
        parse_command(b'{"names": ["a\\nb"]}')


def test_moves_reach_the_director_exactly_once_through_link_and_broker_crashes(broker, tmp_path: Path) -> None:
    files, holder = broker
    games = records(2)
    director, dclient = running_director(files, tmp_path / "club.sqlite")
    expected: dict[str, int] = {}
    procs: dict[str, dict[str, subprocess.Popen]] = {}
    dbs = {}
    for board, gcg in zip(("b1", "b2"), games, strict=True):
        db = tmp_path / f"{board}.sqlite"
        dbs[board] = db
        Store(db).close()  # the kiosk's first start makes the database
        config = device_config(tmp_path, files, board)
        ref = replay(parse_gcg(gcg.read_bytes(), str(gcg))).game
        expected[board] = len(ref.events)
        procs[board] = {"link": start_link(config, db, tmp_path / f"{board}.log"),
                        "kiosk": start_kiosk(db, gcg, 0.08), "config": config}  # type: ignore[dict-item]
    try:
        time.sleep(0.8)
        # A pulled plug on board 1's link, and on board 2's kiosk, in the middle of the game.
        procs["b1"]["link"].send_signal(signal.SIGKILL)
        procs["b2"]["kiosk"].send_signal(signal.SIGKILL)
        procs["b1"]["link"].wait()
        procs["b2"]["kiosk"].wait()
        time.sleep(0.5)
        procs["b1"]["link"] = start_link(procs["b1"]["config"], dbs["b1"], tmp_path / "b1.log")  # type: ignore
        procs["b2"]["kiosk"] = start_kiosk(dbs["b2"], games[1], 0.08)
        time.sleep(0.5)
        # The broker dies (kill -9) and comes back on the same port and persistence folder.
        holder["process"].send_signal(signal.SIGKILL)
        holder["process"].wait()
        time.sleep(2.0)
        holder["process"] = start_broker(files)
        for board in ("b1", "b2"):
            assert procs[board]["kiosk"].wait(timeout=120) == 0

        def complete() -> bool:
            have = {b: [m for m in director.moves(b) if m["type"] == "move"] for b in ("b1", "b2")}
            return all(len(have[b]) == expected[b] for b in have) and len(director.results()) == 2

        wait_for(complete, 60, "every move and both results at the director")
    finally:
        for parts in procs.values():
            for name in ("link", "kiosk"):
                process = parts[name]
                if process.poll() is None:  # type: ignore[union-attr]
                    process.terminate()  # type: ignore[union-attr]
                    process.wait(timeout=10)  # type: ignore[union-attr]
        dclient.loop_stop()
        dclient.disconnect()
    for board in ("b1", "b2"):
        messages = director.moves(board)
        seqs = [m["seq"] for m in messages]
        assert seqs == list(range(1, len(seqs) + 1)), f"{board}: messages {seqs} are not 1..N once each"
        moves = [m for m in messages if m["type"] == "move"]
        assert [m["event"] for m in moves] == list(range(expected[board]))
        # What the director holds is what the kiosk stored: every score and running total.
        with Store(dbs[board]) as store:
            stored = store.records(store.games()[0].id)
        assert [(m["player"], m["score"], m["cumulative"]) for m in moves] == [
            (r["player"], r["score"], r["cumulative"]) for r in stored]
    results = {r["board"]: r for r in director.results()}
    for board, gcg in zip(("b1", "b2"), games, strict=True):
        ref = replay(parse_gcg(gcg.read_bytes(), str(gcg))).game
        assert results[board]["scores"] == ref.scores
        assert results[board]["gcg"].startswith("#")
    assert director.stats.received == sum(len(director.moves(b)) for b in ("b1", "b2"))


def test_a_board_cannot_write_under_another_board_and_anonymous_is_refused(broker) -> None:
    import paho.mqtt.client as mqtt

    files, _ = broker
    seen: list[str] = []
    watcher = client_for(files, "director")
    watcher.on_message = lambda c, u, m: seen.append(m.topic)
    watcher.on_connect = lambda c, u, f, r, p=None: c.subscribe(f"ordvakt/{EVENT}/#", qos=1)
    watcher.connect("localhost", files.port)
    watcher.loop_start()
    board1 = client_for(files, "b1")
    board1.connect("localhost", files.port)
    board1.loop_start()
    try:
        time.sleep(0.3)
        board1.publish(f"ordvakt/{EVENT}/b2/move", json.dumps({"forged": True}), qos=1).wait_for_publish(5)
        board1.publish(f"ordvakt/{EVENT}/cmd/b2", json.dumps({"round": 1}), qos=1).wait_for_publish(5)
        board1.publish(f"ordvakt/{EVENT}/b1/status", "online", qos=1).wait_for_publish(5)
        wait_for(lambda: f"ordvakt/{EVENT}/b1/status" in seen, 5, "board 1's own status")
        time.sleep(0.3)
        assert f"ordvakt/{EVENT}/b2/move" not in seen
        assert f"ordvakt/{EVENT}/cmd/b2" not in seen
    finally:
        for client in (board1, watcher):
            client.loop_stop()
            client.disconnect()

    results: list[object] = []
    for user, password in (("", None), ("b1", "wrong-password")):
        client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if user:
            client.username_pw_set(user, password)
        client.tls_set(ca_certs=str(files.ca_file))
        client.on_connect = lambda c, u, f, reason, p=None: results.append(reason)
        client.connect("localhost", files.port)
        before = len(results)
        client.loop_start()
        wait_for(lambda before=before: len(results) > before, 5, "the broker's answer")
        client.loop_stop()
        client.disconnect()
    assert all(getattr(reason, "is_failure", False) for reason in results), results
    # Without the club's CA the TLS handshake itself fails.
    plain = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    plain.tls_set()
    with pytest.raises(Exception, match="(?i)certificate|ssl"):
        plain.connect("localhost", files.port)


def test_standings_and_tsh_lines_from_results(tmp_path: Path) -> None:
    director = Director(tmp_path / "club.sqlite", EVENT)
    director.assign("t1", {"round": 1, "table": 1, "numbers": [4, 9]})
    director.assign("t2", {"round": 1, "table": 2, "numbers": [2, 7]})
    director.assign("t3", {"round": 1, "table": 3, "numbers": [1, 5]})

    def result(board: str, seq: int, scores: list[int], first: int, names: list[str]) -> None:
        payload = {"type": "result", "seq": seq, "epoch": "e", "game": 1, "scores": scores, "first": first,
                   "players": names, "assignment": director.assignment(board)}
        director.handle(f"ordvakt/{EVENT}/{board}/move", json.dumps(payload).encode())

    result("t1", 1, [420, 380], 1, ["Ann", "Bo"])   # Bo (no. 9) went first: his line comes first
    result("t2", 1, [350, 350], 0, ["Cy", "Di"])    # a tie: half a win each
    result("t2", 1, [350, 350], 0, ["Cy", "Di"])    # delivered twice: counted once
    lines, problems = director.tsh_lines(1)
    assert lines == ["a 1 a", "9 380 4 420", "2 350 7 350"]
    assert problems == ["board t3: no result yet for round 1"]
    standings = {s.name: s for s in director.standings(1)}
    assert (standings["Ann"].wins, standings["Ann"].spread) == (1.0, 40)
    assert (standings["Bo"].wins, standings["Bo"].losses, standings["Bo"].spread) == (0.0, 1.0, -40)
    assert (standings["Cy"].wins, standings["Di"].wins) == (0.5, 0.5)
    # A result that changes after it was reported (an undo at the end) is flagged for the director.
    result("t1", 2, [425, 380], 1, ["Ann", "Bo"])
    lines, problems = director.tsh_lines(1)
    assert lines[1] == "9 380 4 425"
    assert "board t1: the result changed after it was first reported" in problems


def test_the_new_game_form_offers_the_names_the_director_assigned(tmp_path: Path) -> None:
    from dataclasses import replace

    from device.app import build
    from device.club.outbox import Outbox, install
    from device.config import GameSettings, UiSettings, parse_config

    data = tmp_path / "data"
    config = parse_config(f'[storage]\ndata_dir = "{data}"\n[club]\nenabled = true\nevent = "{EVENT}"\n'
                          'board = "b1"\n', "club.toml")
    # The kiosk's database with an assignment the club link received for this board.
    store = Store(data / "games.sqlite")
    store.close()
    db = sqlite3.connect(data / "games.sqlite", isolation_level=None)
    install(db)
    Outbox(db).set_assignment(parse_command(b'{"names": ["Ann Marie", "Bo"], "round": 2, "table": 4}'))
    db.close()
    app, store = build(replace(config, ui=UiSettings(start_draw=False)), headless=True)
    try:
        assert app.overlay.settings().players == ("Ann Marie", "Bo")
    finally:
        store.close()
    # Without club mode the configured names stay.
    plain, store = build(replace(config, club={}, ui=UiSettings(start_draw=False)), headless=True)
    try:
        assert plain.overlay.settings().players == GameSettings().players
    finally:
        store.close()


def test_the_result_names_the_starter_the_start_draw_chose(tmp_path: Path) -> None:
    # tsh lists the player who went first first: the snapshot must replay with the drawn starter.
    from device.club.link import snapshot
    from device.config import GameSettings

    gcg = records(1)[0]
    ref = replay(parse_gcg(gcg.read_bytes(), str(gcg))).game
    settings = GameSettings(players=tuple(ref.players), tileset=ref.rules.tileset.name, first=1)
    with Store(tmp_path / "games.sqlite") as store:
        game_id = store.create_game(settings)
    db = sqlite3.connect(tmp_path / "games.sqlite")
    try:
        assert snapshot(db, game_id)["first"] == 1
    finally:
        db.close()

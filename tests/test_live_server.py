# SPDX-License-Identifier: GPL-3.0-or-later
"""The live page's server against a game being written into the store as the kiosk writes it: what a
viewer receives (scores, the last move, whose clock runs, racks only after the end), the push stream,
hostile requests, the viewer limit, and that nothing can be written."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import FakeTime, demo_game_settings
from device.live.feed import StoreFeeder
from device.live.server import LiveServer
from device.live.state import LiveReader, open_read_only
from device.store import Store
from engine.moves import Placement, RackPoints

REF, SETTINGS = demo_game_settings()
RACKS = {e.rack for e in REF.events if e.rack}


class ServerThread:
    """A :class:`LiveServer` on 127.0.0.1 (a free port) in a thread with its own event loop."""

    def __init__(self, db: Path, **options) -> None:
        self.db, self.options = db, options
        self.server: LiveServer | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        return self

    async def _start(self) -> LiveServer:
        server = LiveServer(self.db, host="127.0.0.1", port=0, **self.options)
        await server.start()
        return server

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}"

    def request(self, raw: bytes) -> tuple[int, bytes]:
        """Send ``raw`` bytes as they are; the status and body of the answer."""
        assert self.server is not None
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=10) as sock:
            sock.sendall(raw)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        return int(head.split(b" ")[1]), body

    def get(self, path: str, headers: str = "") -> tuple[int, bytes]:
        return self.request(f"GET {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())

    def state(self) -> dict:
        status, body = self.get("/api/state")
        assert status == 200
        return json.loads(body)


class Stream:
    """One viewer's server-sent event stream, read event by event."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        self.buffer = b""

    def next_state(self) -> dict:
        while True:
            if b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
                if data:
                    return json.loads(b"\n".join(data))
                continue
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("stream closed")
            self.buffer += chunk

    def close(self) -> None:
        self.sock.close()


def started_game(folder: Path) -> StoreFeeder:
    """The demo game started in ``folder/games.sqlite``, ready to be written move by move."""
    feed = StoreFeeder(Store(folder / "games.sqlite"), SETTINGS, REF.events, now=FakeTime(1000.0))
    feed.start()
    return feed


@pytest.fixture
def feeder(tmp_path: Path) -> Iterator[StoreFeeder]:
    feed = started_game(tmp_path)
    yield feed
    feed.store.close()


def wait_for(server: ServerThread, seq: int) -> dict:
    """The state once it shows ``seq`` events (the poller sees a commit within its interval)."""
    stream = Stream(server.server.port)
    try:
        while (state := stream.next_state())["seq"] < seq:
            pass
        return state
    finally:
        stream.close()


def test_a_viewer_sees_scores_last_move_and_clock_but_no_racks(feeder: StoreFeeder) -> None:
    for _ in range(5):
        feeder.step()
    with ServerThread(Path(feeder.store.path)) as server:
        state = wait_for(server, 5)
        assert [p["score"] for p in state["players"]] == [REF.events[4].cumulative, REF.events[3].cumulative]
        last = REF.events[4].move
        assert isinstance(last, Placement)
        assert sorted(map(tuple, state["board"]["last"])) == sorted((t.square.row, t.square.col) for t in last.tiles)
        assert state["moves"][-1]["words"] == list(REF.events[4].words)
        assert state["to_move"] == 1 and state["clock"]["running"] == 1
        assert state["bag"] == feeder.game.bag_count and state["unseen_count"] == sum(feeder.game.unseen().values())
        _, body = server.get("/api/state")
        text = body.decode()
        assert not any(rack in text for rack in RACKS if len(rack) >= 4), "a rack reached the viewer"
        assert '"rack":"' not in text


def test_the_push_stream_delivers_each_confirmed_move(feeder: StoreFeeder) -> None:
    with ServerThread(Path(feeder.store.path), poll_s=0.02) as server:
        stream = Stream(server.server.port)
        try:
            assert stream.next_state()["seq"] == 0
            for n in range(1, 4):
                event = feeder.step()
                state = stream.next_state()
                while state["seq"] < n:
                    state = stream.next_state()
                assert state["seq"] == n and state["players"][event.player]["score"] == event.cumulative
        finally:
            stream.close()


def test_after_the_end_racks_and_downloads_appear(feeder: StoreFeeder) -> None:
    while not feeder.done:
        feeder.step()
    with ServerThread(Path(feeder.store.path)) as server:
        state = server.state()
        assert state["finished"] and state["to_move"] is None
        assert [p["score"] for p in state["players"]] == REF.scores
        # Timon went out; Alex kept the tiles the record's last line counts.
        assert [p["rack"] for p in state["players"]] == ["", REF.events[-1].move.rack]
        assert state["winners"] == [0]
        assert [g["id"] for g in state["finished_games"]] == [feeder.game_id]
        status, gcg = server.get(f"/api/games/{feeder.game_id}.gcg")
        assert status == 200 and b"#player1" in gcg
        assert server.get(f"/api/games/{feeder.game_id}.zip")[0] == 200


def test_downloads_only_for_finished_games(feeder: StoreFeeder) -> None:
    feeder.step()
    with ServerThread(Path(feeder.store.path)) as server:
        assert server.get(f"/api/games/{feeder.game_id}.json")[0] == 404
        assert server.get(f"/api/photos/{feeder.game_id}/0.jpg")[0] == 404


def test_a_paused_clock_is_told_from_a_running_one(tmp_path: Path) -> None:
    time = FakeTime(1000.0)
    store = Store(tmp_path / "games.sqlite")
    feed = StoreFeeder(store, SETTINGS, REF.events, now=time)
    feed.start()
    feed.step()
    reader = LiveReader(tmp_path / "games.sqlite")
    assert reader.snapshot()["clock"]["running"] == 1  # just after a move: the next player's clock
    time.t += 5
    feed.tick()  # the kiosk's periodic save: the reading moved, the clock runs
    clock = reader.snapshot()["clock"]
    assert clock["running"] == 1 and clock["remaining_ms"][1] == 25 * 60000 - 5000
    feed.clock.pause(time.t)
    time.t += 5
    feed.tick()  # saved unchanged: paused (a challenge, a screen above the game)
    clock = reader.snapshot()["clock"]
    assert clock["running"] is None and clock["paused"]
    store.close()


def test_the_page_cannot_write(feeder: StoreFeeder) -> None:
    db = open_read_only(feeder.store.path)
    with pytest.raises(sqlite3.OperationalError, match="readonly|read-only"):
        db.execute("UPDATE games SET finished = 1")
    with ServerThread(Path(feeder.store.path)) as server:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, _ = server.request(f"{method} /api/state HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}"
                                       .encode())
            assert status == 405, method
    assert feeder.store.games()[0].finished is False


HOSTILE = [
    "/../../etc/passwd", "/static/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/%2e%2e/server.py",
    "/static/..%2fserver.py", "/static/", "/static", "/api/", "/api/games/1.gcg/../../etc/passwd",
    "/api/games/../../../etc/passwd", "/api/photos/1/../../../etc/passwd.jpg", "/api/games/-1.zip",
    "/api/games/1e3.zip", "/etc/passwd", "//etc/passwd", "/static/app.js%00.png", "/static/style.css/",
    "/index.html", "/.git/config", "/device/live/server.py", "/api/state/..", "/%2fetc%2fpasswd",
]


@pytest.mark.parametrize("path", HOSTILE)
def test_hostile_paths_reach_nothing(feeder: StoreFeeder, path: str) -> None:
    with ServerThread(Path(feeder.store.path)) as server:
        status, body = server.get(path)
        assert status in (400, 404), (path, status)
        assert b"root:" not in body and b"import" not in body


def test_malformed_and_oversized_requests(feeder: StoreFeeder) -> None:
    with ServerThread(Path(feeder.store.path)) as server:
        assert server.request(b"GET /static/app.js\x00 HTTP/1.1\r\n\r\n")[0] == 400
        assert server.request(b"GET http://example.com/ HTTP/1.1\r\n\r\n")[0] == 400  # absolute form: no proxy
        assert server.request(b"GET / HTTP/1.1 extra\r\n\r\n")[0] == 400
        assert server.request(b"\xff\xfe\r\n\r\n")[0] == 400
        assert server.get("/" + "a" * 5000)[0] == 414
        assert server.get("/?" + "x=1&" * 3000)[0] == 414
        assert server.get("/", headers="X-Big: " + "b" * 20000 + "\r\n")[0] == 431
        assert server.get("/", headers="".join(f"X-{i}: 1\r\n" for i in range(100)))[0] == 431
        assert server.get("/")[0] == 200  # still serving


def test_the_viewer_limit(feeder: StoreFeeder) -> None:
    with ServerThread(Path(feeder.store.path), max_viewers=2) as server:
        streams = [Stream(server.server.port) for _ in range(2)]
        try:
            for stream in streams:
                stream.next_state()
            status, body = server.get("/api/events")
            assert status == 503 and b"too many viewers" in body
            assert server.get("/api/state")[0] == 200  # a polling viewer still gets the state
        finally:
            for stream in streams:
                stream.close()


def test_language_follows_the_browser(feeder: StoreFeeder) -> None:
    with ServerThread(Path(feeder.store.path)) as server:
        for accept, expected in (("sv-SE,sv;q=0.9", "sv"), ("nn-NO", "nb"), ("fi", "fi"), ("de-DE", "en")):
            status, body = server.get("/api/strings", headers=f"Accept-Language: {accept}\r\n")
            data = json.loads(body)
            assert status == 200 and data["language"] == expected
        _, english = server.get("/api/strings?lang=en")
        _, swedish = server.get("/api/strings?lang=sv")
        assert json.loads(swedish)["strings"]["heading.moves"] == "Drag"
        assert json.loads(english)["strings"].keys() == json.loads(swedish)["strings"].keys()
        status, page = server.get("/", headers="Accept-Language: fi\r\n")
        assert status == 200 and b'<html lang="fi">' in page


def test_every_language_file_has_every_key() -> None:
    import tomllib
    from importlib import resources

    from device.ui.strings import _flatten

    folder = resources.files("device.live") / "data" / "strings"
    keys = {lang: set(_flatten(tomllib.loads((folder / f"{lang}.toml").read_text("utf-8"))))
            for lang in ("en", "sv", "fi", "nb")}
    assert keys["sv"] == keys["en"] and keys["fi"] == keys["en"] and keys["nb"] == keys["en"]


def test_word_games_show_rails_and_scores(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    from device.config import GameSettings

    gid = store.create_game(GameSettings(game="ordskifte", language="nb", players=("Kari", "Ola")))
    store.append(gid, 0, {"action": "word", "player": 0, "game": {
        "players": ["Kari", "Ola"], "rails": [["HUS", "BIL"], ["SOL"]], "current": 1, "phase": "playing",
        "winners": [], "pool": ["A", "E"], "hidden": ["Q", "Z"]}},
        clock={"type": "turn", "version": 1, "duration_ms": 60000, "players": 2, "warnings_ms": [],
               "player": 1, "remaining_ms": 42000, "auto_start": False, "running": True, "turns_started": 3})
    state = LiveReader(tmp_path / "games.sqlite").snapshot(gid)
    assert [p["rail"] for p in state["players"]] == [["HUS", "BIL"], ["SOL"]]
    assert state["to_move"] == 1 and state["clock"]["running"] == 1 and state["clock"]["remaining_ms"] == [42000]
    assert "Q" not in json.dumps(state["players"]) and "hidden" not in state
    kid = store.create_game(GameSettings(game="keywords", language="en", players=("Ann", "Bob")))
    store.append(kid, 0, {"action": "round", "match": {"players": ["Ann", "Bob"], "target": 100, "rounds": None,
                                                       "round_scores": [[12, 9], [7, 15]], "phase": "playing",
                                                       "winners": []}})
    keywords = LiveReader(tmp_path / "games.sqlite").snapshot(kid)
    assert [(p["rounds"], p["score"]) for p in keywords["players"]] == [([12, 7], 19), ([9, 15], 24)]
    assert keywords["round"] == 3 and keywords["target"] == 100
    store.close()


def test_rack_points_are_kept_from_the_viewer_until_the_end(feeder: StoreFeeder) -> None:
    while not isinstance(feeder.events[feeder.seq].move, RackPoints):
        feeder.step()
    reader = LiveReader(feeder.store.path)
    playing = reader.snapshot()
    assert "rack" not in playing["players"][0] and all(m["rack"] is None for m in playing["moves"])


def test_the_page_waits_for_a_database_that_is_not_there_yet(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with ServerThread(db, poll_s=0.02) as server:
        waiting = server.state()
        assert waiting["kind"] == "none" and "no saved-games database" in waiting["device"]
        stream = Stream(server.server.port)
        try:
            stream.next_state()
            store = Store(db)  # the kiosk starts
            feed = StoreFeeder(store, SETTINGS, REF.events, now=FakeTime(1000.0))
            feed.start()
            feed.step()
            state = stream.next_state()
            while state["kind"] == "none" or state["seq"] < 1:
                state = stream.next_state()
            assert state["players"][0]["score"] == REF.events[0].cumulative
            store.close()
        finally:
            stream.close()


def test_the_command_serves_and_stops_cleanly(feeder: StoreFeeder) -> None:
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "live", "--db", feeder.store.path, "--host",
                             "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", line)[1])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as answer:
            assert json.loads(answer.read())["game_id"] == feeder.game_id
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "Traceback" not in err, err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_command_refuses_a_bad_port(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "device.cli", "live", "--port", "99999", "--db",
                          str(tmp_path / "none.sqlite")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == "ordvakt: --port 99999: must be 0 to 65535"


def test_move_photos_are_served_only_from_the_photo_folder(tmp_path: Path) -> None:
    import cv2

    from device.archive import PhotoArchive
    from device.demo import DEMO_DIR

    frame = cv2.imread(str(DEMO_DIR / "image-1.jpg"))
    archive = PhotoArchive(tmp_path)
    feed = StoreFeeder(Store(tmp_path / "games.sqlite"), SETTINGS, REF.events, now=FakeTime(1000.0),
                       photos=lambda gid, seq: archive.save(gid, seq, frame) if seq < 2 else None)
    feed.start()
    for _ in range(3):
        feed.step()
    (tmp_path / "secret.jpg").write_bytes(b"\xff\xd8\xff not a move photo")
    for seq, name in ((3, "secret.jpg"), (4, "photos/../secret.jpg"), (5, "/etc/passwd")):
        record = {"player": 0, "move": {"kind": "pass"}, "score": 0, "cumulative": 0, "extra": {"photo": name}}
        feed.store.append(feed.game_id, seq, record)
    with ServerThread(tmp_path / "games.sqlite") as server:
        state = server.state()
        assert state["photo_seq"] == 1  # the newest move with a photo (seq 3-5 name none the page may serve)
        status, body = server.get(f"/api/photos/{feed.game_id}/1.jpg")
        assert status == 200 and body == archive.path_for(feed.game_id, 1).read_bytes()
        for seq in (2, 3, 4, 5, 99):
            assert server.get(f"/api/photos/{feed.game_id}/{seq}.jpg")[0] == 404, seq
    feed.store.close()


def test_an_undone_move_leaves_the_page(feeder: StoreFeeder) -> None:
    reader = LiveReader(feeder.store.path)
    for _ in range(3):
        feeder.step()
        reader.snapshot()  # each snapshot plays only the new event onto the previous one's game
    assert reader.snapshot()["players"][0]["score"] == REF.events[2].cumulative
    feeder.store.remove_last(feeder.game_id, 2)  # UNDO at the device
    state = reader.snapshot()
    assert state["seq"] == 2 and state["players"][0]["score"] == REF.events[0].cumulative
    assert len(state["board"]["tiles"]) == sum(len(e.move.tiles) for e in REF.events[:2])


def test_a_game_the_page_cannot_read_is_said_not_fatal(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    from device.config import GameSettings

    gid = store.create_game(GameSettings(players=("Ann", "Bob")))
    store.append(gid, 0, {"player": 0, "move": {"kind": "placement", "tiles": "garbage"}, "score": 1})
    store.close()
    with ServerThread(tmp_path / "games.sqlite") as server:
        state = server.state()
        assert state["kind"] == "scrabble" and "cannot be replayed" in state["problem"]
    # A settings row this version cannot read: the page says so and keeps serving.
    db = sqlite3.connect(tmp_path / "games.sqlite")
    db.execute("UPDATE games SET settings = ?", (json.dumps({"game": "chess"}),))
    db.commit()
    db.close()
    with ServerThread(tmp_path / "games.sqlite") as server:
        state = server.state()
        assert state["kind"] == "none" and "cannot show the game" in state["device"]
        assert server.get("/")[0] == 200


def test_the_player_the_start_draw_chose_is_shown_to_move(tmp_path: Path) -> None:
    from device.config import GameSettings

    store = Store(tmp_path / "games.sqlite")
    store.create_game(GameSettings(players=("Ann", "Bob", "Cid"), first=2))
    state = LiveReader(tmp_path / "games.sqlite").snapshot()
    assert state["to_move"] == 2
    store.close()

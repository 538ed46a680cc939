# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt club link``: the device's outbox, published to the club's broker.

A process of its own beside the kiosk (the kiosk has no network at all). It reads the kiosk's
database with its own connection, publishes every outbox message with QoS 1 in sequence order,
and marks a message sent only once the broker has acknowledged it. While the broker is away the
messages simply stay in the outbox; at most :data:`MAX_IN_FLIGHT` are handed to the client library
at a time, so an outage never grows memory. After each batch the retained ``state`` snapshot is
replaced, so a viewer that joins late (or a director that saw a gap) has the whole position.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.club.outbox import Outbox, OutboxMessage, install
from device.club.settings import ClubSettings
from device.errors import DeviceError

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 50
#: Seconds between two retained state snapshots of a board (moves themselves go out at once).
STATE_EVERY_S = 1.0


class LinkError(DeviceError, RuntimeError):
    """The club link cannot run (no database, bad broker settings); the message says which."""


def topic(settings: ClubSettings, leaf: str) -> str:
    return f"ordvakt/{settings.event}/{settings.board}/{leaf}"


def command_topic(settings: ClubSettings) -> str:
    return f"ordvakt/{settings.event}/cmd/{settings.board}"


def make_client(settings: ClubSettings, *, client_id: str | None = None) -> Any:
    """A paho client for this board: persistent session, credentials, TLS when a CA is set, last will."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                         client_id=client_id or f"ordvakt-{settings.event}-{settings.board}",
                         clean_session=False, protocol=mqtt.MQTTv311)
    client.username_pw_set(settings.board, settings.password())
    if settings.ca_file:
        client.tls_set(ca_certs=settings.ca_file)
    client.will_set(topic(settings, "status"), "offline", qos=1, retain=True)
    client.reconnect_delay_set(min_delay=1, max_delay=8)
    client.max_queued_messages_set(MAX_IN_FLIGHT * 2)
    return client


def totals_after(db: sqlite3.Connection, game_id: int, event_seq: int, players: int) -> list[int]:
    """Each player's running total after event ``event_seq`` (the last ``cumulative`` each one reached)."""
    totals = [0] * players
    for (data,) in db.execute("SELECT data FROM events WHERE game_id = ? AND seq <= ? ORDER BY seq",
                              (game_id, event_seq)):
        try:
            record = json.loads(data)
            player = int(record["player"])
            if 0 <= player < players:
                totals[player] = int(record["cumulative"])
        except (ValueError, KeyError, TypeError):
            continue
    return totals


def game_row(db: sqlite3.Connection, game_id: int) -> dict[str, Any] | None:
    row = db.execute("SELECT kind, settings, players, finished, clock FROM games WHERE id = ?",
                     (game_id,)).fetchone()
    if row is None:
        return None
    kind, settings, players, finished, clock = row
    return {"kind": kind, "settings": json.loads(settings), "players": json.loads(players),
            "finished": bool(finished), "clock": json.loads(clock) if clock else None}


def snapshot(db: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The game as the engine replays it: scores, board, move number, outcome when finished."""
    from device.config import GameSettings
    from device.store import replay_records

    info = game_row(db, game_id)
    if info is None:
        return {"game": game_id, "missing": True}
    records = [json.loads(d) for (d,) in db.execute(
        "SELECT data FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]
    data: dict[str, Any] = {"game": game_id, "kind": info["kind"], "players": info["players"],
                            "finished": info["finished"], "clock": info["clock"], "moves": len(records)}
    settings = GameSettings.from_dict(info["settings"], f"game {game_id}")
    if settings.board_game:
        game = settings.new_game()  # with the starter the start draw chose: tsh lists who went first
        replay_records(game, records)
        data["scores"] = list(game.scores)
        data["board"] = game.board.to_text()
        data["first"] = game.first
        outcome = game.outcome()
        if outcome is not None:
            data["outcome"] = outcome.to_dict()
        if info["finished"] and len(settings.players) == 2:
            from engine.gcg import write_gcg

            data["gcg"] = write_gcg(game, lexicon=settings.lexicon or None, lettered_rows=settings.lettered_rows)
    else:
        totals: dict[int, int] = {}
        for r in records:
            if "player" in r and "cumulative" in r:
                totals[int(r["player"])] = int(r["cumulative"])
        data["scores"] = [totals.get(i, 0) for i in range(len(info["players"]))]
    return data


class BoardLink:
    """Publishes one device database's outbox to the broker.

    ``client`` is a paho ``Client`` (built by :func:`make_client` when not given); ``now`` gives
    wall-clock seconds for the ``sent_ms`` stamps.
    """

    def __init__(self, db_path: str | Path, settings: ClubSettings, *, client: Any = None,
                 poll_s: float = 0.05, now: Callable[[], float] = time.time) -> None:
        if not Path(db_path).exists():
            raise LinkError(f"{str(db_path)!r}: no device database here (start the kiosk once first)")
        self.settings = settings
        self.db_path = str(db_path)
        self.poll_s = poll_s
        self.now = now
        self.db = sqlite3.connect(str(db_path), isolation_level=None, timeout=10.0, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout = 10000")
        install(self.db)
        self.outbox = Outbox(self.db)
        self.client = client if client is not None else make_client(settings)
        self.connected = threading.Event()
        self.commands: queue.Queue[bytes] = queue.Queue(maxsize=100)
        self._in_flight: dict[int, Any] = {}
        self._dirty_games: set[int] = set()
        self._state_at = float("-inf")
        self._backlog = True  # unsent messages may wait (set until a connected step finds none to hand over)
        self.sent = 0
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # paho callbacks run on its network thread: they only set flags and queue data.
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("club broker refused the connection: %s", reason)
            return
        client.publish(topic(self.settings, "status"), "online", qos=1, retain=True)
        client.subscribe(command_topic(self.settings), qos=1)
        self.connected.set()
        log.info("club link connected to %s:%s", self.settings.host, self.settings.port)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        self.connected.clear()
        log.warning("club link lost the broker (%s); moves wait in the outbox", reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self.commands.put_nowait(bytes(message.payload))
        except queue.Full:
            log.warning("club command dropped: queue full")

    def start(self) -> None:
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=15)
        self.client.loop_start()

    def stop(self) -> None:
        if self.connected.is_set():
            info = self.client.publish(topic(self.settings, "status"), "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()
        self.db.close()

    def run(self, stop: threading.Event) -> None:
        """Publish until ``stop`` is set."""
        self.start()
        last_version = None
        try:
            while not stop.is_set():
                version = self.db.execute("PRAGMA data_version").fetchone()[0]
                if (version != last_version or self._in_flight or self._backlog
                        or not self.commands.empty()):
                    last_version = version
                    self.step()
                stop.wait(self.poll_s)
        finally:
            self.stop()

    def step(self) -> int:
        """One round: apply commands, acknowledge, publish pending messages; returns how many were newly sent."""
        self._apply_commands()
        newly = self._collect_acks()
        self._backlog = True
        if not self.connected.is_set():
            return newly
        self._backlog = False
        for message in self.outbox.pending(limit=MAX_IN_FLIGHT * 2):
            if message.seq in self._in_flight:
                continue
            if len(self._in_flight) >= MAX_IN_FLIGHT:
                self._backlog = True
                break
            self._publish(message)
        newly += self._collect_acks()
        if self._dirty_games and self.connected.is_set() and not self._in_flight:
            # The snapshot replays the game: at most one per STATE_EVERY_S, after the moves themselves are out.
            if time.monotonic() - self._state_at >= STATE_EVERY_S:
                for game_id in sorted(self._dirty_games):
                    self._publish_state(game_id)
                self._dirty_games.clear()
                self._state_at = time.monotonic()
            else:
                self._backlog = True
        return newly

    def outbox_size(self) -> int:
        """Messages not yet acknowledged by the broker."""
        with sqlite3.connect(self.db_path, timeout=10.0) as db:
            return int(db.execute("SELECT COUNT(*) FROM club_outbox WHERE sent = 0").fetchone()[0])

    def _publish(self, message: OutboxMessage) -> None:
        payload = self.payload(message)
        info = self.client.publish(topic(self.settings, "move"), json.dumps(payload), qos=1)
        self._in_flight[message.seq] = info
        self._dirty_games.add(message.game_id)
        if message.kind == "result":
            self.client.publish(topic(self.settings, "result"), json.dumps(payload), qos=1, retain=True)

    def _collect_acks(self) -> int:
        done, failed = [], []
        for seq, info in self._in_flight.items():
            try:
                if info.is_published():
                    done.append(seq)
            except (RuntimeError, ValueError):
                failed.append(seq)  # handed over while the connection dropped: publish it again later
        for seq in failed:
            del self._in_flight[seq]
        for seq in sorted(done):
            self.outbox.mark_sent(seq)
            del self._in_flight[seq]
        self.sent += len(done)
        return len(done)

    def _publish_state(self, game_id: int) -> None:
        data = snapshot(self.db, game_id)
        data.pop("gcg", None)
        data.update(type="state", epoch=self.outbox.epoch, board_id=self.settings.board,
                    seq=self._last_seq(), sent_ms=self.now() * 1000.0, assignment=self.outbox.assignment())
        self.client.publish(topic(self.settings, "state"), json.dumps(data), qos=1, retain=True)

    def _last_seq(self) -> int:
        row = self.db.execute("SELECT MAX(id) FROM club_outbox WHERE sent = 1").fetchone()
        return int(row[0] or 0)

    def payload(self, message: OutboxMessage) -> dict[str, Any]:
        """The JSON of one outbox message as the director receives it."""
        data: dict[str, Any] = {"type": message.kind, "seq": message.seq, "epoch": self.outbox.epoch,
                                "board": self.settings.board, "game": message.game_id,
                                "created_ms": message.created_ms, "sent_ms": self.now() * 1000.0}
        info = game_row(self.db, message.game_id) or {"players": [], "kind": "?"}
        if message.kind == "game":
            data.update(kind=info["kind"], players=info["players"], assignment=self.outbox.assignment())
        elif message.kind == "move" and message.event is not None:
            event = message.event
            move = event.get("move", {})
            data.update(
                event=message.event_seq, player=event.get("player"), move=move.get("notation") or move.get("kind"),
                move_kind=move.get("kind"), words=event.get("words", []), score=event.get("score"),
                cumulative=event.get("cumulative"), rack=None,
                totals=totals_after(self.db, message.game_id, message.event_seq or 0, len(info["players"])),
                clock=info.get("clock"))
        elif message.kind == "undo":
            data.update(event=message.event_seq)
        elif message.kind == "result":
            state = snapshot(self.db, message.game_id)
            data.update(kind=state.get("kind"), players=state.get("players"), scores=state.get("scores"),
                        first=state.get("first", 0), outcome=state.get("outcome"), gcg=state.get("gcg"),
                        assignment=self.outbox.assignment())
        return data

    def _apply_commands(self) -> None:
        while True:
            try:
                raw = self.commands.get_nowait()
            except queue.Empty:
                return
            try:
                command = parse_command(raw)
            except ValueError as exc:
                log.warning("club command ignored: %s", exc)
                continue
            if "resend_from" in command:
                self.outbox.resend_from(int(command.pop("resend_from")))
                self._in_flight.clear()
                if not command:
                    continue
            merged = dict(self.outbox.assignment(), **command)
            self.outbox.set_assignment(merged)
            log.info("club assignment: %s", merged)
            for (game_id,) in self.db.execute("SELECT MAX(id) FROM games"):
                if game_id is not None:
                    self._dirty_games.add(game_id)


def parse_command(raw: bytes) -> dict[str, Any]:
    """A director's command: ``{"names": [...], "round": 3, "table": 7, "numbers": [12, 4], "division": "A"}``.

    >>> parse_command(b'{"round": 2, "table": 5, "names": ["Ann", "Bo"], "numbers": [3, 9]}')
    {'round': 2, 'table': 5, 'names': ['Ann', 'Bo'], 'numbers': [3, 9]}
    >>> parse_command(b'{"round": "two"}')
    Traceback (most recent call last):
    ValueError: round must be a whole number from 1 to 999, not 'two'
    """
    if len(raw) > 4096:
        raise ValueError(f"command of {len(raw)} bytes is too long")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    out: dict[str, Any] = {}
    if "resend_from" in data:
        first = data["resend_from"]
        if isinstance(first, bool) or not isinstance(first, int) or first < 1:
            raise ValueError(f"resend_from must be a message number from 1, not {first!r}")
        out["resend_from"] = first
    for key in ("round", "table"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
                raise ValueError(f"{key} must be a whole number from 1 to 999, not {value!r}")
            out[key] = value
    if "names" in data:
        names = data["names"]
        if (not isinstance(names, list) or not 1 <= len(names) <= 4
                or not all(isinstance(n, str) and 0 < len(n) <= 40 and n.isprintable() for n in names)):
            raise ValueError(f"names must be 1-4 printable names of at most 40 characters, not {names!r}")
        out["names"] = names
    if "numbers" in data:
        numbers = data["numbers"]
        if (not isinstance(numbers, list) or not 1 <= len(numbers) <= 4
                or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 9999 for n in numbers)):
            raise ValueError(f"numbers must be 1-4 tsh player numbers, not {numbers!r}")
        out["numbers"] = numbers
    if "division" in data:
        division = data["division"]
        if not isinstance(division, str) or not 0 < len(division) <= 8 or not division.isalnum():
            raise ValueError(f"division must be a short name, not {division!r}")
        out["division"] = division
    return out

# SPDX-License-Identifier: GPL-3.0-or-later
"""The director's side: every board of an event, each move counted once, standings and tsh lines.

:class:`Director` keeps what it hears in its own SQLite database, so a restart keeps the event, and
its memory holds only one small summary per board. Moves are stored under ``(board, epoch, seq)``:
a message the broker delivers twice is stored once, and a gap in a board's sequence (messages the
director could not get) is recorded and healed by the board's retained ``state``.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY, status TEXT NOT NULL DEFAULT 'unknown', state TEXT, epoch TEXT,
    last_seq INTEGER NOT NULL DEFAULT 0, gaps INTEGER NOT NULL DEFAULT 0, updated REAL
);
CREATE TABLE IF NOT EXISTS moves (
    board TEXT NOT NULL, epoch TEXT NOT NULL, seq INTEGER NOT NULL, game INTEGER NOT NULL,
    type TEXT NOT NULL, payload TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (board, epoch, seq)
);
CREATE TABLE IF NOT EXISTS results (
    board TEXT NOT NULL, epoch TEXT NOT NULL, game INTEGER NOT NULL, round INTEGER, table_no INTEGER,
    payload TEXT NOT NULL, received REAL NOT NULL, superseded INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (board, epoch, game, received)
);
CREATE TABLE IF NOT EXISTS assignments (
    board TEXT PRIMARY KEY, round INTEGER, table_no INTEGER, data TEXT NOT NULL
);
"""


@dataclass
class Standing:
    name: str
    number: int | None
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    games: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "number": self.number, "wins": self.wins, "losses": self.losses,
                "spread": self.spread, "games": self.games}


@dataclass
class DirectorStats:
    received: int = 0
    duplicates: int = 0
    gaps: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    """End-to-end (device commit → director) of the most recent moves, bounded."""


class Director:
    """Listens to ``ordvakt/<event>/#`` and keeps the event in ``db_path``."""

    LATENCY_WINDOW = 20000

    def __init__(self, db_path: str | Path, event: str, *, now: Callable[[], float] = time.time) -> None:
        self.event = event
        self.now = now
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(db_path), isolation_level=None, check_same_thread=False, timeout=10.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        self.stats = DirectorStats()
        self.on_move: Callable[[str, dict[str, Any]], None] | None = None
        #: Called with (board, first missing sequence number) when a board's messages have a hole.
        self.request_resend: Callable[[str, int], None] | None = None

    # -- messages ---------------------------------------------------------------------------------
    def handle(self, topic: str, payload: bytes) -> None:
        """One MQTT message; bad ones are logged and dropped, never raised into the client's thread."""
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != "ordvakt" or parts[1] != self.event or parts[2] == "cmd":
            return
        board, leaf = parts[2], parts[3]
        try:
            with self.lock:
                if leaf == "status":
                    self._status(board, payload.decode("utf-8", "replace")[:16])
                elif leaf in ("move", "state", "result"):
                    data = json.loads(payload)
                    if not isinstance(data, dict):
                        raise ValueError("not a JSON object")
                    if leaf == "move":
                        self._move(board, data)
                    elif leaf == "state":
                        self._state(board, data)
        except (ValueError, KeyError, TypeError, sqlite3.DatabaseError) as exc:
            log.warning("club: message on %s ignored: %s", topic, exc)

    def _ensure_board(self, board: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO boards (board) VALUES (?)", (board,))

    def _status(self, board: str, status: str) -> None:
        self._ensure_board(board)
        self.db.execute("UPDATE boards SET status = ?, updated = ? WHERE board = ?", (status, self.now(), board))

    def _state(self, board: str, data: dict[str, Any]) -> None:
        self._ensure_board(board)
        self.db.execute("UPDATE boards SET state = ?, updated = ? WHERE board = ?",
                        (json.dumps(data), self.now(), board))

    def _move(self, board: str, data: dict[str, Any]) -> None:
        seq, epoch = int(data["seq"]), str(data["epoch"])
        received = self.now()
        self._ensure_board(board)
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO moves (board, epoch, seq, game, type, payload, received) VALUES (?,?,?,?,?,?,?)",
            (board, epoch, seq, int(data["game"]), str(data["type"]), json.dumps(data), received))
        if cursor.rowcount == 0:
            self.stats.duplicates += 1
            return
        self.stats.received += 1
        last_epoch, last_seq = self.db.execute("SELECT epoch, last_seq FROM boards WHERE board = ?",
                                               (board,)).fetchone()
        if last_epoch != epoch:
            # A new database on the device (first contact, or a replaced database): its numbering starts anew.
            last_seq = 0
        # last_seq is the contiguous high-water mark: every message up to it is here.
        while self.db.execute("SELECT 1 FROM moves WHERE board = ? AND epoch = ? AND seq = ?",
                              (board, epoch, last_seq + 1)).fetchone():
            last_seq += 1
        self.db.execute("UPDATE boards SET epoch = ?, last_seq = ?, updated = ? WHERE board = ?",
                        (epoch, last_seq, received, board))
        if seq > last_seq:
            self.stats.gaps += 1
            self.db.execute("UPDATE boards SET gaps = gaps + 1 WHERE board = ?", (board,))
            log.warning("club: board %s sent message %d but %d is missing; asking it to send again", board, seq,
                        last_seq + 1)
            if self.request_resend is not None:
                self.request_resend(board, last_seq + 1)
        created = data.get("created_ms")
        if isinstance(created, (int, float)):
            self.stats.latencies_ms.append(received * 1000.0 - float(created))
            if len(self.stats.latencies_ms) > self.LATENCY_WINDOW:
                del self.stats.latencies_ms[: self.LATENCY_WINDOW // 2]
        if data["type"] == "result":
            self._result(board, epoch, data, received)
        if self.on_move is not None:
            self.on_move(board, data)

    def _result(self, board: str, epoch: str, data: dict[str, Any], received: float) -> None:
        assignment = data.get("assignment") or self.assignment(board)
        game = int(data["game"])
        self.db.execute("UPDATE results SET superseded = 1 WHERE board = ? AND epoch = ? AND game = ?",
                        (board, epoch, game))
        self.db.execute(
            "INSERT OR REPLACE INTO results (board, epoch, game, round, table_no, payload, received) "
            "VALUES (?,?,?,?,?,?,?)",
            (board, epoch, game, assignment.get("round"), assignment.get("table"), json.dumps(data), received))

    # -- assignments --------------------------------------------------------------------------------
    def assign(self, board: str, command: dict[str, Any]) -> None:
        """Remember an assignment the director sent to a board (the command itself goes out by MQTT)."""
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO assignments (board, round, table_no, data) VALUES (?,?,?,?)",
                            (board, command.get("round"), command.get("table"), json.dumps(command)))

    def assignment(self, board: str) -> dict[str, Any]:
        row = self.db.execute("SELECT data FROM assignments WHERE board = ?", (board,)).fetchone()
        return json.loads(row[0]) if row else {}

    # -- views --------------------------------------------------------------------------------------
    def boards(self) -> list[dict[str, Any]]:
        """Every board at a glance: online, move, scores, clocks, last move."""
        with self.lock:
            rows = self.db.execute("SELECT board, status, state, last_seq, gaps, updated FROM boards "
                                   "ORDER BY board").fetchall()
            out = []
            for board, status, state, last_seq, gaps, updated in rows:
                last = self.db.execute("SELECT payload FROM moves WHERE board = ? AND type = 'move' "
                                       "ORDER BY received DESC LIMIT 1", (board,)).fetchone()
                snapshot = json.loads(state) if state else {}
                out.append({
                    "board": board, "online": status == "online", "status": status, "seq": last_seq,
                    "gaps": gaps, "players": snapshot.get("players", []), "scores": snapshot.get("scores", []),
                    "moves": snapshot.get("moves", 0), "clock": snapshot.get("clock"),
                    "finished": snapshot.get("finished", False), "assignment": snapshot.get("assignment", {}),
                    "last_move": json.loads(last[0]) if last else None, "updated": updated,
                })
            return out

    def moves(self, board: str) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT payload FROM moves WHERE board = ? ORDER BY epoch, seq", (board,))
            return [json.loads(p) for (p,) in rows]

    def results(self, round_no: int | None = None) -> list[dict[str, Any]]:
        """Current (not superseded) results, optionally of one round."""
        with self.lock:
            sql = "SELECT board, round, table_no, payload FROM results WHERE superseded = 0"
            args: tuple[Any, ...] = ()
            if round_no is not None:
                sql += " AND round = ?"
                args = (round_no,)
            rows = self.db.execute(sql + " ORDER BY round, table_no, board", args).fetchall()
        return [dict(json.loads(p), board=b, round=r, table=t) for b, r, t, p in rows]

    def gcg(self, board: str, game: int) -> str | None:
        for result in self.results():
            if result["board"] == board and int(result["game"]) == game and result.get("gcg"):
                return str(result["gcg"])
        return None

    def standings(self, through_round: int | None = None) -> list[Standing]:
        """Wins, losses and spread over the results of rounds up to ``through_round`` (all when None)."""
        table: dict[str, Standing] = {}
        for result in self.results():
            if through_round is not None and (result.get("round") is None or result["round"] > through_round):
                continue
            names, scores = result.get("players") or [], result.get("scores") or []
            numbers = (result.get("assignment") or {}).get("numbers") or [None] * len(names)
            if len(names) != len(scores) or not names:
                continue
            best = max(scores)
            winners = [i for i, s in enumerate(scores) if s == best]
            for i, name in enumerate(names):
                key = f"{numbers[i]}" if i < len(numbers) and numbers[i] is not None else name
                entry = table.setdefault(key, Standing(name, numbers[i] if i < len(numbers) else None))
                entry.games += 1
                others = [s for j, s in enumerate(scores) if j != i]
                entry.spread += scores[i] - (sum(others) // len(others) if others else 0)
                if i in winners:
                    share = 1.0 / len(winners)
                    entry.wins += share
                    entry.losses += 1.0 - share
                else:
                    entry.losses += 1.0
        return sorted(table.values(), key=lambda s: (-s.wins, -s.spread, s.name))

    def tsh_lines(self, round_no: int, division: str = "A") -> tuple[list[str], list[str]]:
        """The round's results for tsh (``a R D`` then ``pn1 ps1 pn2 ps2``, first player first) and what is wrong.

        The second list names every problem a director must look at: assigned boards without a result,
        results without tsh player numbers, games that are not two-player, and results that changed after
        they were first reported.
        """
        lines = [f"a {round_no} {division.lower()}"]
        problems = []
        reported = set()
        for result in self.results(round_no):
            board = result["board"]
            reported.add(board)
            numbers = (result.get("assignment") or {}).get("numbers") or []
            scores = result.get("scores") or []
            if len(scores) != 2:
                problems.append(f"board {board}: {len(scores)} players; tsh takes two-player games only")
                continue
            if len(numbers) != 2:
                problems.append(f"board {board}: no tsh player numbers assigned; scores {scores[0]}-{scores[1]}")
                continue
            first = int(result.get("first") or 0) % 2
            order = (first, 1 - first)
            lines.append(" ".join(f"{numbers[i]} {scores[i]}" for i in order))
        with self.lock:
            assigned = self.db.execute("SELECT board FROM assignments WHERE round = ?", (round_no,)).fetchall()
            changed = self.db.execute(
                "SELECT DISTINCT board FROM results WHERE round = ? AND superseded = 1", (round_no,)).fetchall()
        for (board,) in assigned:
            if board not in reported:
                problems.append(f"board {board}: no result yet for round {round_no}")
        for (board,) in changed:
            problems.append(f"board {board}: the result changed after it was first reported")
        return lines, problems


def subscribe(director: Director, client: Any) -> None:
    """Wire a paho client to ``director``: subscribe to the event on every (re)connect."""
    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("club broker refused the director: %s", reason)
            return
        client.subscribe(f"ordvakt/{director.event}/+/+", qos=1)

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        director.handle(message.topic, bytes(message.payload))

    def request_resend(board: str, first: int) -> None:
        client.publish(f"ordvakt/{director.event}/cmd/{board}", json.dumps({"resend_from": first}), qos=1)

    client.on_connect = on_connect
    client.on_message = on_message
    director.request_resend = request_resend

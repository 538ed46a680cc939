# SPDX-License-Identifier: GPL-3.0-or-later
"""The outbox: every move leaves the device in the transaction that stored it.

:func:`install` adds a table and triggers to the kiosk's database. The triggers copy each stored
event (and each undo, new game and finished game) into ``club_outbox`` inside the very transaction
the kiosk commits, so there is no moment at which a move is saved but not queued, and the kiosk's
code knows nothing about clubs. The row id is the message's sequence number: it only grows, so
the director sees a gap or a repeat at once. ``epoch`` (a random id made once per database) tells
a replaced database's numbering from the old one's.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> _ = db.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT, kind TEXT, settings TEXT, "
...     "players TEXT, finished INTEGER DEFAULT 0, clock TEXT, meta TEXT DEFAULT '{}');"
...     "CREATE TABLE events (game_id INTEGER, seq INTEGER, created TEXT, data TEXT);")
>>> _ = db.execute("INSERT INTO games (created, kind, settings, players) VALUES ('', 'scrabble', '{}', '[]')")
>>> install(db)
>>> _ = db.execute("INSERT INTO games (created, kind, settings, players) VALUES ('', 'scrabble', '{}', '[]')")
>>> _ = db.execute("INSERT INTO events VALUES (1, 0, '', '{\\"player\\": 0}')")
>>> [(m.seq, m.kind, m.event_seq) for m in Outbox(db).pending()]
[(1, 'game', None), (2, 'game', None), (3, 'move', 0)]
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    event_seq INTEGER,
    data TEXT,
    created_ms REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400000.0),
    sent INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS club_assignment (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS club_game_created AFTER INSERT ON games BEGIN
    INSERT INTO club_outbox (kind, game_id) VALUES ('game', NEW.id);
END;
CREATE TRIGGER IF NOT EXISTS club_event_added AFTER INSERT ON events BEGIN
    INSERT INTO club_outbox (kind, game_id, event_seq, data) VALUES ('move', NEW.game_id, NEW.seq, NEW.data);
END;
CREATE TRIGGER IF NOT EXISTS club_event_removed AFTER DELETE ON events BEGIN
    INSERT INTO club_outbox (kind, game_id, event_seq) VALUES ('undo', OLD.game_id, OLD.seq);
END;
CREATE TRIGGER IF NOT EXISTS club_game_finished AFTER UPDATE OF finished ON games
WHEN NEW.finished = 1 AND OLD.finished = 0 BEGIN
    INSERT INTO club_outbox (kind, game_id) VALUES ('result', NEW.id);
END;
"""

#: Sent rows kept for inspection; older ones are deleted so the outbox stays bounded.
KEEP_SENT = 500


@dataclass(frozen=True)
class OutboxMessage:
    seq: int
    kind: str
    """``game`` (a new game), ``move`` (an event stored), ``undo`` (an event removed), ``result``."""
    game_id: int
    event_seq: int | None
    event: dict[str, Any] | None
    created_ms: float


def install(db: sqlite3.Connection) -> None:
    """Create the outbox and its triggers (idempotent); the database must hold the kiosk's tables.

    The first time, every game and event already stored is queued too, in order, in the same
    transaction that creates the triggers: a game the kiosk began before the link first ran is sent
    whole, and nothing the kiosk stores meanwhile can slip between the two.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        first_time = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'club_outbox'").fetchone() is None
        for statement in _statements(SCHEMA):
            db.execute(statement)
        if first_time:
            _backfill(db)
        if db.execute("SELECT value FROM club_meta WHERE key = 'epoch'").fetchone() is None:
            db.execute("INSERT INTO club_meta (key, value) VALUES ('epoch', ?)", (uuid.uuid4().hex[:12],))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """The schema's statements one by one (a trigger body holds ``;`` of its own)."""
    out, current = [], ""
    for line in script.strip().splitlines():
        current += line + "\n"
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    return out


def _backfill(db: sqlite3.Connection) -> None:
    for game_id, finished in db.execute("SELECT id, finished FROM games ORDER BY id").fetchall():
        db.execute("INSERT INTO club_outbox (kind, game_id) VALUES ('game', ?)", (game_id,))
        db.execute("INSERT INTO club_outbox (kind, game_id, event_seq, data) SELECT 'move', game_id, seq, data "
                   "FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        if finished:
            db.execute("INSERT INTO club_outbox (kind, game_id) VALUES ('result', ?)", (game_id,))


class Outbox:
    """Reads and acknowledges the outbox of one device database."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @property
    def epoch(self) -> str:
        row = self.db.execute("SELECT value FROM club_meta WHERE key = 'epoch'").fetchone()
        return str(row[0]) if row else ""

    def pending(self, limit: int = 200) -> Iterator[OutboxMessage]:
        """Unsent messages, oldest first."""
        rows = self.db.execute(
            "SELECT id, kind, game_id, event_seq, data, created_ms FROM club_outbox WHERE sent = 0 "
            "ORDER BY id LIMIT ?", (limit,)).fetchall()
        for seq, kind, game_id, event_seq, data, created_ms in rows:
            event = None
            if data:
                try:
                    event = json.loads(data)
                except json.JSONDecodeError:
                    event = {"damaged": True}
            yield OutboxMessage(seq, kind, game_id, event_seq, event, created_ms)

    def mark_sent(self, seq: int) -> None:
        self.db.execute("UPDATE club_outbox SET sent = 1 WHERE id = ?", (seq,))
        self.db.execute("DELETE FROM club_outbox WHERE sent = 1 AND id <= ?", (seq - KEEP_SENT,))

    def resend_from(self, first: int) -> int:
        """Queue every kept message from number ``first`` on again (the director missed some); returns how many."""
        return self.db.execute("UPDATE club_outbox SET sent = 0 WHERE id >= ? AND sent = 1", (first,)).rowcount

    def unsent(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM club_outbox WHERE sent = 0").fetchone()[0])

    def assignment(self) -> dict[str, Any]:
        """The director's latest assignment for this board (names, round, table, tsh numbers), or {}."""
        row = self.db.execute("SELECT data FROM club_assignment WHERE id = 1").fetchone()
        return json.loads(row[0]) if row else {}

    def set_assignment(self, data: dict[str, Any]) -> None:
        self.db.execute("INSERT OR REPLACE INTO club_assignment (id, data) VALUES (1, ?)", (json.dumps(data),))


def assigned_players(db_path: str) -> tuple[str, ...]:
    """The player names the club director assigned to this board ((), when there are none).

    Read with a read-only connection of its own, so a kiosk whose club link never ran is not touched.
    """
    if db_path == ":memory:":
        return ()
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=2.0) as db:
            row = db.execute("SELECT data FROM club_assignment WHERE id = 1").fetchone()
    except sqlite3.DatabaseError:
        return ()
    try:
        names = json.loads(row[0]).get("names", []) if row else []
    except (json.JSONDecodeError, AttributeError):
        return ()
    return tuple(str(n) for n in names if isinstance(n, str))


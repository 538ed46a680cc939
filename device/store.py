# SPDX-License-Identifier: GPL-3.0-or-later
"""Saved games: SQLite, one row per event, committed before the screen shows the event as done.

The database runs in WAL mode with ``synchronous=FULL``, so a committed event survives a pulled
plug. Each event is stored as JSON with its move spelled out tile by tile (and its GCG notation for
people), so :meth:`engine.game.Game.replay` rebuilds exactly the same game. A database that cannot
be opened or read is moved aside (never deleted) and a fresh one is started; :attr:`Store.notice`
then says what happened, for the screen.

>>> store = Store(":memory:")
>>> from device.config import GameSettings
>>> gid = store.create_game(GameSettings(players=("Ann", "Bob")))
>>> saved = store.load(gid)
>>> saved.settings.players, saved.game.scores
(('Ann', 'Bob'), [0, 0])
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.config import GameSettings
from device.errors import DeviceError
from engine.board import Board
from engine.game import EndReason, Game, GameEvent, Outcome
from engine.moves import (
    ChallengeBonus,
    Exchange,
    Move,
    Pass,
    PlacedTile,
    Placement,
    RackPoints,
    TimePenalty,
    Withdraw,
)
from engine.squares import Direction, Square
from engine.tiles import TileKind

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    players TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    clock TEXT,
    meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    created TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(DeviceError, RuntimeError):
    """The saved-games database cannot be used; the message names the file."""


# -- events as JSON ---------------------------------------------------------------------------------

def move_to_dict(move: Move, board: Board | None = None, *, lettered_rows: bool = False) -> dict[str, Any]:
    """A move as plain data; ``board`` (the board before the move) adds its GCG notation for people."""
    if isinstance(move, Placement):
        data: dict[str, Any] = {
            "kind": "placement",
            "tiles": [[t.square.row, t.square.col, t.letter, t.blank, t.kind.value, t.arrow] for t in move.tiles],
            "start": [move.start.row, move.start.col],
            "direction": move.direction.value,
        }
        if board is not None:
            data["notation"] = move.notation(board, lettered_rows=lettered_rows)
        return data
    if isinstance(move, Exchange):
        return {"kind": "exchange", "tiles": move.tiles, "count": move.count}
    if isinstance(move, Pass):
        return {"kind": "pass"}
    if isinstance(move, Withdraw):
        return {"kind": "withdraw"}
    if isinstance(move, ChallengeBonus):
        return {"kind": "challenge-bonus", "points": move.points}
    if isinstance(move, TimePenalty):
        return {"kind": "time-penalty", "points": move.points}
    if isinstance(move, RackPoints):
        return {"kind": "rack-points", "rack": move.rack, "points": move.points}
    raise StoreError(f"cannot store move {move!r}: unknown kind")


def move_from_dict(data: Mapping[str, Any]) -> Move:
    kind = data.get("kind")
    if kind == "placement":
        tiles = tuple(
            PlacedTile(Square(int(r), int(c)), str(letter), bool(blank), TileKind(tk), bool(arrow))
            for r, c, letter, blank, tk, arrow in data["tiles"]
        )
        start = Square(*map(int, data["start"]))
        return Placement(tiles, start, Direction(data["direction"]), str(data.get("notation", "")))
    if kind == "exchange":
        return Exchange(str(data.get("tiles", "")), int(data.get("count", 0)))
    if kind == "pass":
        return Pass()
    if kind == "withdraw":
        return Withdraw()
    if kind == "challenge-bonus":
        return ChallengeBonus(int(data["points"]))
    if kind == "time-penalty":
        return TimePenalty(int(data["points"]))
    if kind == "rack-points":
        points = data.get("points")
        return RackPoints(str(data["rack"]), None if points is None else int(points))
    raise StoreError(f"stored move has unknown kind {kind!r}")


def event_to_dict(event: GameEvent, board: Board | None = None, *, lettered_rows: bool = False) -> dict[str, Any]:
    return {
        "player": event.player,
        "move": move_to_dict(event.move, board, lettered_rows=lettered_rows),
        "score": event.score,
        "cumulative": event.cumulative,
        "rack": event.rack,
        "words": list(event.words),
        "note": event.note,
        "extra": dict(event.extra),
    }


def event_from_dict(data: Mapping[str, Any]) -> GameEvent:
    return GameEvent(
        player=int(data["player"]),
        move=move_from_dict(data["move"]),
        score=int(data["score"]),
        cumulative=int(data["cumulative"]),
        rack=data.get("rack"),
        words=tuple(data.get("words", ())),
        note=str(data.get("note", "")),
        extra=dict(data.get("extra", {})),
    )


# -- the database ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameSummary:
    id: int
    created: str
    kind: str
    players: tuple[str, ...]
    finished: bool
    events: int


@dataclass
class SavedGame:
    id: int
    settings: GameSettings
    game: Game | None
    """The engine game (None for games without board rules)."""
    events: list[dict[str, Any]]
    """Stored event records as saved (for games the engine does not replay)."""
    clock: dict[str, Any] | None
    finished: bool
    meta: dict[str, Any]

    def outcome(self) -> Outcome | None:
        """Why the game ended and who won (engine :meth:`Game.outcome`), with a triple-rule challenge's decision
        (``meta["decided"]``) or a two-player loss on time (the clock's ``lost_on_time``) applied."""
        if self.game is None or not self.finished:
            return None
        game = self.game.copy()
        lost_on_time = (self.clock or {}).get("lost_on_time")
        if self.meta.get("decided") is not None:
            game.decide(int(self.meta["decided"]), EndReason.CHALLENGE)
        elif lost_on_time is not None and len(game.players) == 2:
            game.decide(1 - int(lost_on_time), EndReason.TIME)
        elif not game.finished:
            game.close(EndReason.AGREED)
        return game.outcome()


def _now_text() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class Store:
    """The saved-games database. ``path`` may be ``":memory:"`` for tests."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self.notice = ""
        """Non-empty when the database was unusable and moved aside at start-up."""
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if self.path == ":memory:":
                raise StoreError(f"cannot create an in-memory database: {exc}") from None
            kept = self._move_aside()
            self.notice = (
                f"The saved-games database {self.path!r} could not be read ({exc}); "
                f"a copy was kept as {kept!r} and a new database was started."
            )
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version}, this program knows {SCHEMA_VERSION}")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            # Every stored row must still parse; a game we cannot read is a corrupt database.
            for (data,) in db.execute("SELECT settings FROM games"):
                json.loads(data)
        except (sqlite3.DatabaseError, json.JSONDecodeError) as exc:
            db.close()
            raise sqlite3.DatabaseError(str(exc)) from None
        return db

    def _move_aside(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.corrupt-{stamp}"
        n = 1
        while os.path.exists(target):
            n += 1
            target = f"{self.path}.corrupt-{stamp}-{n}"
        os.replace(self.path, target)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(self.path + suffix):
                os.replace(self.path + suffix, target + suffix)
        return target

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------
    def create_game(self, settings: GameSettings, *, meta: Mapping[str, Any] | None = None) -> int:
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created, kind, settings, players, meta) VALUES (?, ?, ?, ?, ?)",
                (_now_text(), settings.game, json.dumps(settings.to_dict()), json.dumps(list(settings.players)),
                 json.dumps(dict(meta or {}))),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, seq: int, record: Mapping[str, Any], *,
               clock: Mapping[str, Any] | None = None, finished: bool = False) -> None:
        """Store event number ``seq`` (0-based) and the clock state with it, in one committed transaction.

        Raises StoreError if ``seq`` is not the next event: a replayed or doubled event is refused.
        """
        with self._transaction():
            (count,) = self._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            if count != seq:
                raise StoreError(f"game {game_id}: event {seq} is not the next one (the game has {count} events)")
            self._db.execute("INSERT INTO events (game_id, seq, created, data) VALUES (?, ?, ?, ?)",
                             (game_id, seq, _now_text(), json.dumps(dict(record), ensure_ascii=False)))
            self._update(game_id, clock, finished)

    def append_event(self, game_id: int, event: GameEvent, board_before: Board, seq: int, *,
                     clock: Mapping[str, Any] | None = None, finished: bool = False,
                     lettered_rows: bool = False) -> None:
        self.append(game_id, seq, event_to_dict(event, board_before, lettered_rows=lettered_rows),
                    clock=clock, finished=finished)

    def remove_last(self, game_id: int, seq: int, *, clock: Mapping[str, Any] | None = None) -> None:
        """Undo: remove event ``seq``, which must be the last one."""
        with self._transaction():
            (count,) = self._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
            if count != seq + 1:
                raise StoreError(f"game {game_id}: event {seq} is not the last one (the game has {count} events)")
            self._db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, seq))
            self._update(game_id, clock, False)

    def save_clock(self, game_id: int, clock: Mapping[str, Any] | None) -> None:
        with self._transaction():
            self._update(game_id, clock, None)

    def set_finished(self, game_id: int, finished: bool = True) -> None:
        with self._transaction():
            self._update(game_id, None, finished)

    def update_meta(self, game_id: int, **values: Any) -> None:
        with self._transaction():
            row = self._db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
            meta = json.loads(row[0]) if row else {}
            meta.update(values)
            self._db.execute("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), game_id))

    def _update(self, game_id: int, clock: Mapping[str, Any] | None, finished: bool | None) -> None:
        if clock is not None:
            self._db.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(dict(clock)), game_id))
        if finished is not None:
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- reading ---------------------------------------------------------------------------------
    def games(self) -> list[GameSummary]:
        """Every saved game, newest first."""
        rows = self._db.execute(
            "SELECT g.id, g.created, g.kind, g.players, g.finished, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC"
        ).fetchall()
        return [GameSummary(r[0], r[1], r[2], tuple(json.loads(r[3])), bool(r[4]), r[5]) for r in rows]

    def unfinished(self) -> int | None:
        """The newest unfinished game, which the device resumes at start-up."""
        row = self._db.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def kind(self, game_id: int) -> str:
        """The stored kind of a game (``scrabble``, ``alfapet``, ``ordskifte``, ``keywords``)."""
        row = self._db.execute("SELECT kind FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path!r}: no saved game {game_id}")
        return str(row[0])

    def records(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT seq, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        for expected, (seq, _) in enumerate(rows):
            if seq != expected:
                raise StoreError(f"{self.path!r}: game {game_id} misses event {expected}")
        return [json.loads(data) for _, data in rows]

    def load(self, game_id: int) -> SavedGame:
        """The saved game with every event replayed (board, scores, whose turn)."""
        row = self._db.execute("SELECT settings, finished, clock, meta FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path!r}: no saved game {game_id}")
        settings = GameSettings.from_dict(json.loads(row[0]), f"{self.path} game {game_id}")
        records = self.records(game_id)
        game = None
        if settings.game in ("scrabble", "alfapet"):
            game = Game(settings.rules(), list(settings.players), first=settings.first)
            game.replay(event_from_dict(r) for r in records)
        clock = json.loads(row[2]) if row[2] else None
        return SavedGame(game_id, settings, game, records, clock, bool(row[1]), json.loads(row[3]))

    # -- export ----------------------------------------------------------------------------------
    def export_gcg(self, game_id: int, path: str | os.PathLike[str], *, lexicon: str | None = None) -> Path:
        """Write a two-player game as GCG (UTF-8)."""
        from engine.gcg import write_gcg

        saved = self.load(game_id)
        if saved.game is None:
            raise StoreError(f"game {game_id} ({saved.settings.game}) has no GCG form; export the JSON record")
        text = write_gcg(saved.game, lexicon=lexicon or saved.settings.lexicon or None,
                         lettered_rows=saved.settings.lettered_rows, outcome=saved.outcome())
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        return out

    def export_json(self, game_id: int, path: str | os.PathLike[str]) -> Path:
        """Write the game record as JSON: settings, players, every event with its time, clock and photo."""
        saved = self.load(game_id)
        rows = self._db.execute("SELECT created FROM games WHERE id = ?", (game_id,)).fetchone()
        times = [r[0] for r in self._db.execute(
            "SELECT created FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]
        events = [dict(record, saved_at=at) for record, at in zip(saved.events, times, strict=True)]
        record = {
            "format": "ordvakt-game/1",
            "id": game_id,
            "created": rows[0],
            "settings": saved.settings.to_dict(),
            "players": list(saved.settings.players),
            "finished": saved.finished,
            "scores": saved.game.scores if saved.game else None,
            "outcome": outcome.to_dict() if (outcome := saved.outcome()) else None,
            "clock": saved.clock,
            "events": events,
        }
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return out


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on an exception); the commit is durable on return."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")


def open_store(data_dir: str | os.PathLike[str]) -> Store:
    """The device's database, ``<data_dir>/games.sqlite``."""
    return Store(Path(data_dir) / "games.sqlite")


def replay_records(game: Game, records: Iterable[Mapping[str, Any]]) -> None:
    game.replay(event_from_dict(r) for r in records)

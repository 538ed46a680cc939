# SPDX-License-Identifier: GPL-3.0-or-later
"""Saved games: SQLite, one row per event, committed before the screen shows the event as done.

The database runs in WAL mode with ``synchronous=FULL``, so a committed event survives a pulled
plug. Each event is stored as JSON with its move spelled out tile by tile (and its GCG notation for
people) and a checksum chained over the events before it; a resumed game plays the stored moves
again, so its scores come from the moves, never from stored numbers. A small file beside the
database (``games.sqlite.last``) records the last saved event, so a lost ``-wal`` file is noticed.

What can go wrong, and what happens (:attr:`Store.notice` says it on the screen):

* the disk is full, the file read-only or locked: the file is left as it is and opened read-only;
  a move that cannot be saved raises :class:`StoreUnavailable` and is not played;
* the file is damaged: a copy is kept (``games.sqlite.corrupt-<time>``) and every event readable up
  to the damage is recovered into a fresh file; readable rows after it go to the ``set_aside`` table;
* one stored event is damaged: the game resumes up to it, it and the later events are set aside;
* a game's settings are damaged: the game stays in the file and is not resumed.

>>> store = Store(":memory:")
>>> from device.config import GameSettings
>>> gid = store.create_game(GameSettings(players=("Ann", "Bob")))
>>> saved = store.load(gid)
>>> saved.settings.players, saved.game.scores
(('Ann', 'Bob'), [0, 0])
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.config import BOARD_GAMES, GameSettings
from device.diskwatch import LOW_SPACE_BYTES
from device.errors import DeviceError, ExitCode
from engine.board import Board
from engine.errors import EngineError
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

SCHEMA_VERSION = 2
#: Beside the database: the last committed event (game, count, checksum), written after each commit.
LAST_SAVED_SUFFIX = ".last"

log = logging.getLogger("ordvakt.store")

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
    chain TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS set_aside (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    created TEXT,
    data BLOB,
    reason TEXT NOT NULL
);
"""


class StoreError(DeviceError, RuntimeError):
    """The saved-games database cannot be used; the message names the file."""


class StoreUnavailable(StoreError):
    """The machine keeps the database from being written (full disk, read-only, locked); nothing was
    stored and the file is left as it is."""

    exit_code = ExitCode.ENVIRONMENT


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
    problems: list[str] = field(default_factory=list)
    """What was wrong with the stored game: damaged events, stored scores that the moves do not give."""
    damaged_from: int | None = None
    """The number of the first stored event that could not be read or played (the game ends before it)."""

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


#: SQLite primary result codes that mean the machine is in the way, not that the file is damaged.
_ENVIRONMENT_CODES = {
    3: "not permitted", 5: "locked by another program", 6: "locked", 8: "read-only",
    10: "unreadable because of a disk input/output error", 13: "on a full disk", 14: "impossible to open",
}


_PROBES = (
    "SELECT id, created, kind, settings, players, finished, clock, meta FROM games LIMIT 0",
    "SELECT game_id, seq, created, data, chain FROM events LIMIT 0",
    "SELECT game_id, seq, created, data, reason FROM set_aside LIMIT 0",
)


def _text(raw: bytes) -> str:
    """Text columns as str; bytes that are not UTF-8 (a damaged row) are replaced, never an exception."""
    return raw.decode("utf-8", "replace")


def _diagnose(path: str, why: str) -> str:
    """A plainer reason when the file system says more than SQLite does."""
    folder = Path(path).parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "on a read-only file system"
        if shutil.disk_usage(folder).free < 256 * 1024:
            return "on a full disk"
    except OSError:
        pass
    return why


def _environment_problem(exc: BaseException) -> str | None:
    """What is in the way when ``exc`` is about the machine (full, read-only, locked); None for damage."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _ENVIRONMENT_CODES.get(code & 0xFF)
    if isinstance(exc, OSError):
        return {errno.ENOSPC: "on a full disk", errno.EROFS: "read-only", errno.EACCES: "not permitted",
                errno.EDQUOT: "on a full disk"}.get(exc.errno or 0)
    return None


def _chain(previous: str, game_id: int, seq: int, data: str) -> str:
    """The checksum chain of event ``seq``: covers its data, its place and every event before it."""
    return hashlib.sha256(f"{previous}|{game_id}|{seq}|{data}".encode()).hexdigest()[:16]


class Store:
    """The saved-games database. ``path`` may be ``":memory:"`` for tests.

    Opening never loses a game and never stops the device: a database that the machine keeps from
    being written (full disk, read-only, locked) is opened read-only and left as it is; a damaged one
    is copied aside and every event up to the damage recovered into a fresh file; a damaged event row
    is set aside with the rows after it. :attr:`notice` says what happened, :attr:`problems` lists it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self.notice = ""
        """Non-empty when something was recovered, set aside or cannot be saved: one text for the screen."""
        self.problems: list[str] = []
        """Every recovery, skipped row, score mismatch and lost event found while opening."""
        self.read_only = False
        """True when the machine keeps the database from being written; games can be seen, not saved."""
        self._unloadable: dict[int, str] = {}
        self._chain_column = "chain"  # "NULL" for a read-only database from before checksums
        try:
            self._db = self._open(self.path)
        except sqlite3.DatabaseError as exc:
            if self.path == ":memory:":
                raise StoreError(f"cannot create an in-memory database: {exc}") from None
            why = _environment_problem(exc)
            self._db = self._open_read_only(_diagnose(self.path, why), exc) if why else self._recover(exc)
        except OSError as exc:  # the folder cannot be created
            raise StoreUnavailable(f"cannot create the saved-games database {self.path!r}: "
                                   f"{exc.strerror or exc}") from None
        if self.path != ":memory:":
            try:
                self._check_last_saved()
                self._check_unfinished()
            except sqlite3.DatabaseError as exc:  # damage that only reading the rows shows
                if self.read_only:
                    raise StoreUnavailable(f"{self.notice} It is also damaged ({exc}).") from None
                self._db.close()
                self.problems.clear()
                self._db = self._recover(exc)
                self._check_last_saved()
                self._check_unfinished()
            self._check_space()
        if self.problems:
            self.notice = " ".join([self.notice, *self.problems]).strip()
        for problem in self.problems:
            log.warning("%s", problem)

    # -- opening, recovering ---------------------------------------------------------------------
    @staticmethod
    def _open(path: str) -> sqlite3.Connection:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        db.text_factory = _text
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 1:
                db.execute("ALTER TABLE events ADD COLUMN chain TEXT")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version == 0:
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            elif version != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version}, this program knows {SCHEMA_VERSION}")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            for probe in _PROBES:  # a damaged schema text can pass the check and still lose a column
                db.execute(probe).fetchall()
        except sqlite3.DatabaseError:
            db.close()
            raise
        except (UnicodeDecodeError, ValueError) as exc:  # a damaged schema text
            db.close()
            raise sqlite3.DatabaseError(f"damaged schema ({exc})") from None
        return db

    def _open_read_only(self, why: str, exc: BaseException) -> sqlite3.Connection:
        if not os.path.exists(self.path):
            raise StoreUnavailable(f"cannot create the saved-games database {self.path!r}: it is {why} ({exc})")
        uri = Path(os.path.abspath(self.path)).as_uri()
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=5.0)
            db.text_factory = _text
            db.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.DatabaseError:
            try:  # a read-only folder cannot hold the -shm file; read the main file as it is
                db = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
                db.text_factory = _text
                db.execute("SELECT COUNT(*) FROM games").fetchone()
            except sqlite3.DatabaseError as again:
                raise StoreUnavailable(f"the saved-games database {self.path!r} is {why} and cannot be read "
                                       f"either ({again}); the file was left as it is") from None
        self.read_only = True
        if not any(row[1] == "chain" for row in db.execute("PRAGMA table_info(events)")):
            self._chain_column = "NULL"
        self.notice = (f"The saved-games database {self.path!r} is {why} ({exc}): games can be looked at but "
                       "nothing new is saved. Free some space or fix the permissions and restart; "
                       "the file was left as it is.")
        return db

    def _recover(self, exc: BaseException) -> sqlite3.Connection:
        """Copy the damaged file aside, rebuild a fresh one from every event readable up to the damage."""
        try:
            return self._rebuild(exc)
        except (OSError, sqlite3.DatabaseError) as error:  # no room or no permission to repair: touch nothing
            for suffix in ("", "-wal", "-shm"):
                Path(self.path + ".recovering" + suffix).unlink(missing_ok=True)
            raise StoreUnavailable(f"the saved-games database {self.path!r} is damaged ({exc}) and cannot be "
                                   f"repaired here ({error}); the file was left as it is: free some space "
                                   "and start again") from None

    def _rebuild(self, exc: BaseException) -> sqlite3.Connection:
        kept = self._quarantine_copy()
        games, events, set_aside, lost = _salvage(kept)
        fresh = self.path + ".recovering"
        for suffix in ("", "-wal", "-shm"):
            Path(fresh + suffix).unlink(missing_ok=True)
        db = self._open(fresh)
        with _Transaction(db):
            for row in games:
                db.execute("INSERT INTO games (id, created, kind, settings, players, finished, clock, meta) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            previous: dict[int, str] = {}
            for game_id, seq, created, data in events:
                chain = _chain(previous.get(game_id, ""), game_id, seq, data)
                previous[game_id] = chain
                db.execute("INSERT INTO events (game_id, seq, created, data, chain) VALUES (?, ?, ?, ?, ?)",
                           (game_id, seq, created, data, chain))
            for row in set_aside:
                db.execute("INSERT INTO set_aside (game_id, seq, created, data, reason) VALUES (?, ?, ?, ?, ?)", row)
        db.close()
        for suffix in ("-wal", "-shm"):  # the old log must never be applied to the new file
            Path(self.path + suffix).unlink(missing_ok=True)
        os.replace(fresh, self.path)
        self.notice = (f"The saved-games database {self.path!r} was damaged ({exc}); {len(events)} moves of "
                       f"{len(games)} games were recovered{lost}. A copy of the damaged file was kept as {kept!r}.")
        return self._open(self.path)

    def _quarantine_copy(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.corrupt-{stamp}"
        n = 1
        while os.path.exists(target):
            n += 1
            target = f"{self.path}.corrupt-{stamp}-{n}"
        try:
            for suffix in ("", "-wal"):
                if os.path.exists(self.path + suffix):
                    shutil.copyfile(self.path + suffix, target + suffix)
        except OSError:
            for suffix in ("", "-wal"):
                Path(target + suffix).unlink(missing_ok=True)
            raise
        return target

    def _check_last_saved(self) -> None:
        """Compare the database with the small record of the last saved event (lost -wal file, damage)."""
        try:
            last = json.loads(Path(self.path + LAST_SAVED_SUFFIX).read_text(encoding="utf-8"))
            game_id, count, chain = int(last["game"]), int(last["events"]), str(last["chain"])
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as exc:  # e.g. cut short by a pulled plug: no alarm
            log.warning("the record of the last saved move %s%s is unreadable (%s); not checked this time",
                        self.path, LAST_SAVED_SUFFIX, exc)
            self._write_last_saved_for(None)
            return
        row = self._db.execute("SELECT COUNT(*) FROM games WHERE id = ?", (game_id,)).fetchone()
        stored = self._event_count(game_id)
        if not row[0]:
            self.problems.append(f"Game {game_id} is missing from the database although it was saved "
                                 "(the -wal file was lost or the file damaged).")
            self._write_last_saved_for(None)
            return
        if stored < count:
            self.problems.append(f"Game {game_id}: the last {count - stored} saved moves are missing (the "
                                 f"database's -wal file was lost or damaged); the game continues after move {stored}.")
        elif stored == count and count and self._stored_chain(game_id, count - 1) not in (chain, None):
            self.problems.append(f"Game {game_id}: move {count} differs from what was saved (checksum); "
                                 "the scores are recomputed from the moves.")
        else:
            return
        self._write_last_saved_for(game_id)

    def _check_unfinished(self) -> None:
        """Load every unfinished game once, so a damaged one is dealt with now, not in a restart loop."""
        rows = self._db.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id").fetchall()
        for (game_id,) in rows:
            try:
                saved = self.load(game_id)
            except StoreError as exc:
                self._unloadable[game_id] = str(exc)
                self.problems.append(f"{exc} The game is kept in the database but not resumed.")
                continue
            self.problems.extend(saved.problems)
            if saved.damaged_from is not None and not self.read_only:
                moved = self._set_aside(game_id, saved.damaged_from)
                self.problems.append(f"Game {game_id}: {moved} stored events from move {saved.damaged_from + 1} "
                                     "on were set aside (kept in the table set_aside); the game continues "
                                     f"after move {saved.damaged_from}.")

    def _set_aside(self, game_id: int, first_seq: int) -> int:
        with self._transaction():
            self._db.execute(
                "INSERT INTO set_aside (game_id, seq, created, data, reason) SELECT game_id, seq, created, "
                "CAST(data AS BLOB), 'damaged or after a damaged event' FROM events WHERE game_id = ? AND seq >= ?",
                (game_id, first_seq))
            cursor = self._db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, first_seq))
        self._write_last_saved_for(game_id)
        return cursor.rowcount

    def _check_space(self) -> None:
        free = self.free_bytes()
        if free is not None and free < LOW_SPACE_BYTES:
            self.problems.append(f"Only {free // 2**20} MB free on the disk of {self.path!r}: the game is still "
                                 "saved move by move, but free some space (old photos, exports) soon.")

    def free_bytes(self) -> int | None:
        """Free bytes on the database's disk (None for an in-memory database)."""
        if self.path == ":memory:":
            return None
        try:
            return shutil.disk_usage(Path(self.path).parent).free
        except OSError:
            return None

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
        self._write_last_saved(cursor.lastrowid, 0, "")
        return cursor.lastrowid

    def append(self, game_id: int, seq: int, record: Mapping[str, Any], *,
               clock: Mapping[str, Any] | None = None, finished: bool = False) -> None:
        """Store event number ``seq`` (0-based) and the clock state with it, in one committed transaction.

        Raises StoreError if ``seq`` is not the next event: a replayed or doubled event is refused;
        :class:`StoreUnavailable` when the disk is full, read-only or locked (the event is not stored).
        """
        data = json.dumps(dict(record), ensure_ascii=False)
        with self._transaction():
            count = self._event_count(game_id)
            if count != seq:
                raise StoreError(f"game {game_id}: event {seq} is not the next one (the game has {count} events)")
            chain = _chain((self._stored_chain(game_id, seq - 1) or "") if seq else "", game_id, seq, data)
            self._db.execute("INSERT INTO events (game_id, seq, created, data, chain) VALUES (?, ?, ?, ?, ?)",
                             (game_id, seq, _now_text(), data, chain))
            self._update(game_id, clock, finished)
        self._write_last_saved(game_id, seq + 1, chain)

    def append_event(self, game_id: int, event: GameEvent, board_before: Board, seq: int, *,
                     clock: Mapping[str, Any] | None = None, finished: bool = False,
                     lettered_rows: bool = False) -> None:
        self.append(game_id, seq, event_to_dict(event, board_before, lettered_rows=lettered_rows),
                    clock=clock, finished=finished)

    def remove_last(self, game_id: int, seq: int, *, clock: Mapping[str, Any] | None = None) -> None:
        """Undo: remove event ``seq``, which must be the last one."""
        with self._transaction():
            count = self._event_count(game_id)
            if count != seq + 1:
                raise StoreError(f"game {game_id}: event {seq} is not the last one (the game has {count} events)")
            self._db.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, seq))
            self._update(game_id, clock, False)
        self._write_last_saved_for(game_id)

    def save_clock(self, game_id: int, clock: Mapping[str, Any] | None) -> None:
        with self._transaction():
            self._update(game_id, clock, None)

    def set_finished(self, game_id: int, finished: bool = True) -> None:
        with self._transaction():
            self._update(game_id, None, finished)

    def update_meta(self, game_id: int, **values: Any) -> None:
        with self._transaction():
            row = self._db.execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
            meta = _json_object(row[0]) if row else {}
            meta.update(values)
            self._db.execute("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), game_id))

    def _update(self, game_id: int, clock: Mapping[str, Any] | None, finished: bool | None) -> None:
        if clock is not None:
            self._db.execute("UPDATE games SET clock = ? WHERE id = ?", (json.dumps(dict(clock)), game_id))
        if finished is not None:
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def _transaction(self) -> _Transaction:
        if self.read_only:
            raise StoreUnavailable(f"{self.notice or self.path + ' is read-only'} (nothing was saved)")
        return _Transaction(self._db, self.path)

    def _event_count(self, game_id: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0])

    def _stored_chain(self, game_id: int, seq: int) -> str | None:
        row = self._db.execute(f"SELECT {self._chain_column} FROM events WHERE game_id = ? AND seq = ?",
                               (game_id, seq)).fetchone()
        return row[0] if row else None

    def _write_last_saved_for(self, game_id: int | None) -> None:
        if game_id is None:
            Path(self.path + LAST_SAVED_SUFFIX).unlink(missing_ok=True)
            return
        count = self._event_count(game_id)
        self._write_last_saved(game_id, count, (self._stored_chain(game_id, count - 1) or "") if count else "")

    def _write_last_saved(self, game_id: int, events: int, chain: str) -> None:
        """Record the last committed event outside the database, so a lost -wal file is noticed. Not fsynced:
        the commit itself is durable, and a record older than the database never raises an alarm."""
        if self.path == ":memory:":
            return
        target = self.path + LAST_SAVED_SUFFIX
        temporary = target + ".tmp"
        try:
            with open(temporary, "w", encoding="utf-8") as out:
                out.write(json.dumps({"game": game_id, "events": events, "chain": chain}))
            os.replace(temporary, target)
        except OSError as exc:  # the move itself is committed; only the check is weaker
            log.warning("cannot record the last saved move in %s: %s", target, exc)

    # -- reading ---------------------------------------------------------------------------------
    def games(self) -> list[GameSummary]:
        """Every saved game, newest first (a damaged name list shows as '?')."""
        rows = self._db.execute(
            "SELECT g.id, g.created, g.kind, CAST(g.players AS BLOB), g.finished, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id DESC"
        ).fetchall()
        return [GameSummary(r[0], str(r[1]), str(r[2]), _players(r[3]), bool(r[4]), r[5]) for r in rows]

    def unfinished(self) -> int | None:
        """The newest unfinished game that can be resumed, which the device resumes at start-up."""
        rows = self._db.execute("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC").fetchall()
        return next((r[0] for r in rows if r[0] not in self._unloadable), None)

    def kind(self, game_id: int) -> str:
        """The stored kind of a game (``scrabble``, ``alfapet``, ``ordskifte``, ``keywords``)."""
        row = self._db.execute("SELECT kind FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path!r}: no saved game {game_id}")
        return str(row[0])

    def records(self, game_id: int) -> list[dict[str, Any]]:
        """The stored event records of a game in order, up to the first missing or damaged one."""
        return self._read_records(game_id)[0]

    def _read_records(self, game_id: int) -> tuple[list[dict[str, Any]], list[str], int | None]:
        """(records up to the damage, problems, number of the first damaged or missing event or None)."""
        rows = self._db.execute(f"SELECT seq, CAST(data AS BLOB), {self._chain_column} FROM events "
                                "WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        records: list[dict[str, Any]] = []
        problems: list[str] = []
        previous = ""
        kind = self._db.execute("SELECT kind FROM games WHERE id = ?", (game_id,)).fetchone()
        # Board-game events are engine moves; Ordskifte and Keywords store their own action records.
        board_game = kind is None or kind[0] in BOARD_GAMES
        for expected, (seq, raw, chain) in enumerate(rows):
            if seq != expected:
                problems.append(f"Game {game_id}: move {expected + 1} is missing from the database.")
                return records, problems, expected
            try:
                text = bytes(raw).decode("utf-8")
                record = json.loads(text)
                if board_game:
                    event_from_dict(record)
                elif not isinstance(record, dict):
                    raise ValueError("not a JSON object")
            except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError, DeviceError,
                    EngineError) as exc:
                problems.append(f"Game {game_id}: stored move {seq + 1} is damaged ({type(exc).__name__}: "
                                f"{str(exc)[:80]}); the game is read up to move {seq}.")
                return records, problems, seq
            if chain is not None and chain != _chain(previous, game_id, seq, text):
                problems.append(f"Game {game_id}: stored move {seq + 1} was changed after it was saved "
                                "(checksum); it is kept, and its score is recomputed.")
            previous = chain or ""
            records.append(record)
        return records, problems, None

    def load(self, game_id: int) -> SavedGame:
        """The saved game, every move played again by the engine: scores are recomputed from the moves,
        never taken from storage; a stored score that differs is reported in :attr:`SavedGame.problems`.
        The game ends before a damaged or unplayable event (:attr:`SavedGame.damaged_from`)."""
        row = self._db.execute("SELECT CAST(settings AS BLOB), finished, CAST(clock AS BLOB), CAST(meta AS BLOB) "
                               "FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path!r}: no saved game {game_id}")
        try:
            settings = GameSettings.from_dict(_json_object(row[0]), f"{self.path} game {game_id}")
        except (ValueError, TypeError, DeviceError, EngineError) as exc:
            raise StoreError(f"Game {game_id}: its stored settings are damaged ({str(exc)[:120]}).") from None
        records, problems, damaged_from = self._read_records(game_id)
        game = None
        if settings.board_game:
            game = settings.new_game()
            played = _replay_recomputed(game, game_id, records, problems)
            if played < len(records):
                records = records[:played]
                damaged_from = played
        try:
            clock = _json_object(row[2]) if row[2] is not None else None
        except ValueError:
            problems.append(f"Game {game_id}: the stored clock is damaged; the clocks start again.")
            clock = None
        try:
            meta = _json_object(row[3])
        except ValueError:
            meta = {}
        return SavedGame(game_id, settings, game, records, clock, bool(row[1]), meta, problems, damaged_from)

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
        events = [dict(record, saved_at=at) for record, at in zip(saved.events, times[:len(saved.events)],
                                                                 strict=True)]
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
    """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on an exception); the commit is durable on return.

    A full disk, a read-only file or a lock becomes :class:`StoreUnavailable` (nothing was stored)."""

    def __init__(self, db: sqlite3.Connection, path: str = "") -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            raise _write_failure(self.path, exc) from None
        return self.db

    def __exit__(self, exc_type: object, exc: BaseException | None, _: object) -> None:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.DatabaseError as error:
                self._rollback()
                raise _write_failure(self.path, error) from None
        self._rollback()
        if isinstance(exc, sqlite3.DatabaseError):
            raise _write_failure(self.path, exc) from None

    def _rollback(self) -> None:
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass  # SQLite already rolled back (a full disk does that)


def _write_failure(path: str, exc: sqlite3.DatabaseError) -> StoreError:
    why = _environment_problem(exc)
    why = _diagnose(path, why) if why else why
    if why:
        return StoreUnavailable(f"cannot save to {path!r}: the database is {why} ({exc}); this was not saved, "
                                "the game so far is safe")
    return StoreError(f"cannot save to {path!r}: {exc}")


def _json_object(raw: bytes | str | None) -> dict[str, Any]:
    text = bytes(raw).decode("utf-8") if isinstance(raw, bytes | memoryview) else str(raw)
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, found {type(value).__name__}")
    return value


def _players(raw: bytes | str | None) -> tuple[str, ...]:
    try:
        text = bytes(raw).decode("utf-8") if isinstance(raw, bytes | memoryview) else str(raw)
        names = json.loads(text)
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            return tuple(names)
    except (UnicodeDecodeError, ValueError):
        pass
    return ("?",)


def _replay_recomputed(game: Game, game_id: int, records: list[dict[str, Any]], problems: list[str]) -> int:
    """Play the stored moves again on ``game``; returns how many could be played. Stored scores that differ
    from the engine's are reported and the engine's count."""
    for index, record in enumerate(records):
        stored = event_from_dict(record)
        try:
            event = game.play(stored.move, player=stored.player, rack=stored.rack, note=stored.note, check=False,
                              extra=stored.extra)
        except (EngineError, ValueError, IndexError, KeyError) as exc:
            problems.append(f"Game {game_id}: stored move {index + 1} cannot be played again "
                            f"({str(exc)[:80]}); the game is read up to move {index}.")
            return index
        if (event.score, event.cumulative) != (stored.score, stored.cumulative):
            problems.append(f"Game {game_id}: move {index + 1} is stored with {stored.score} points (total "
                            f"{stored.cumulative}) but its tiles give {event.score} (total {event.cumulative}); "
                            "the moves count, not the stored score.")
    return len(records)


def _salvage(path: str) -> tuple[list[tuple], list[tuple], list[tuple], str]:
    """Read what can be read from a damaged database file: (game rows, event rows of each game up to its
    first unreadable event, readable rows after that, a note on what could not be recovered)."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
        db.text_factory = _text
        db.execute("PRAGMA query_only=ON")
    except (sqlite3.DatabaseError, UnicodeDecodeError):  # SQLite's message may quote damaged bytes
        return [], [], [], "; nothing in it was readable"

    def query(sql: str, args: tuple) -> list[tuple] | None:
        try:
            return db.execute(sql, args).fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            return None

    games: list[tuple] = []
    last, misses = 0, 0
    while misses < 64:
        rows = query("SELECT id, created, kind, CAST(settings AS BLOB), CAST(players AS BLOB), finished, "
                     "CAST(clock AS BLOB), CAST(meta AS BLOB) FROM games WHERE id > ? ORDER BY id LIMIT 1", (last,))
        if rows is None:
            last, misses = last + 1, misses + 1
            continue
        if not rows:
            break
        row = rows[0]
        games.append(tuple(bytes(v).decode("utf-8", "replace") if isinstance(v, bytes) else v for v in row))
        last, misses = row[0], 0
    events: list[tuple] = []
    set_aside: list[tuple] = []
    for game in games:
        game_id = game[0]
        top = query("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
        highest = top[0][0] if top and top[0][0] is not None else None
        seq, damaged = 0, False
        while highest is None or seq <= highest:
            rows = query("SELECT created, CAST(data AS BLOB) FROM events WHERE game_id = ? AND seq = ?",
                         (game_id, seq))
            if not rows:
                if highest is None and rows is not None:
                    break
                damaged = True
            elif not damaged:
                events.append((game_id, seq, rows[0][0], bytes(rows[0][1]).decode("utf-8", "replace")))
            else:
                set_aside.append((game_id, seq, rows[0][0], bytes(rows[0][1]), "after a damaged event"))
            seq += 1
            if highest is None and seq > 10_000:
                break
    db.close()
    note = f"; {len(set_aside)} readable moves after damaged ones were set aside (table set_aside)" if set_aside \
        else ""
    return games, events, set_aside, note



def open_store(data_dir: str | os.PathLike[str]) -> Store:
    """The device's database, ``<data_dir>/games.sqlite``."""
    return Store(Path(data_dir) / "games.sqlite")


def replay_records(game: Game, records: Iterable[Mapping[str, Any]]) -> None:
    game.replay(event_from_dict(r) for r in records)

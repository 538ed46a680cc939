# SPDX-License-Identifier: GPL-3.0-or-later
"""What a spectator sees, read from the kiosk's database without ever writing to it.

The database is opened with ``file:...?mode=ro``: in WAL mode a reader works beside the kiosk's
writer and never blocks it (a read transaction only pins the WAL snapshot it started from, and the
reads here are short). ``PRAGMA data_version`` changes whenever another connection commits, so
polling it is the cheap "anything new?" test; only then is the game rebuilt (incrementally).

Why the database and not a snapshot file the kiosk writes: the events the kiosk commits before it
shows a move as done are already the truth, so the page can never show a move the device lost or
miss one it kept; the kiosk does no extra work or SD-card writes per frame or per viewer; and the
page needs no code in the kiosk's loop beyond the ``paused`` flag saved with the clock.

The kiosk saves the clock with every event and every few seconds while a game runs, without a
pause flag. Whose clock runs is therefore: the saved ``paused`` flag when there is one; else, right
after an event, the player the clock was switched to; else whether the reading moved since the
previous save (a paused clock is saved unchanged). A game whose running clock has not been saved
for :data:`QUIET_S` seconds is reported as quiet (the device is off or hung).

>>> LiveReader(":memory:")
Traceback (most recent call last):
...
device.live.state.LiveError: the live page needs a database file, not ':memory:'
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from device.archive import is_photo_name
from device.config import BOARD_GAMES, GameSettings
from device.errors import DeviceError
from device.store import event_from_dict
from engine.errors import EngineError
from engine.game import Game
from engine.moves import Placement, RackPoints

#: Seconds without a commit, while a clock runs, before the page says the device is quiet
#: (the kiosk saves running clocks every 5 s).
QUIET_S = 15.0


#: Words on a rail that win Ordskifte.
ORDSKIFTE_WORDS = 6


class LiveError(DeviceError):
    """The live page cannot read the database (the message names the file)."""


def open_read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that cannot write: SQLite refuses every write on a ``mode=ro`` URI."""
    if str(path) == ":memory:":
        raise LiveError("the live page needs a database file, not ':memory:'")
    file = Path(path)
    if not file.is_file():
        raise LiveError(f"{str(file)!r}: no saved-games database there (start the kiosk once, or give --db)")
    uri = f"file:{quote(str(file.resolve()))}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=2.0, check_same_thread=False)
        db.execute("PRAGMA query_only=1")
        db.execute("SELECT COUNT(*) FROM games").fetchone()
    except sqlite3.Error as exc:
        raise LiveError(f"{str(file)!r}: cannot read the saved games: {exc}") from None
    return db


@dataclass
class _Observation:
    seq: int
    clock: dict[str, Any] | None
    at: float
    view: dict[str, Any] | None = None
    version: int = -1


@dataclass
class LiveReader:
    """The newest game as spectator JSON, and the finished games for the archive list."""

    path: str | Path
    now: Any = time.time
    _db: sqlite3.Connection | None = None
    _last: dict[int, _Observation] = field(default_factory=dict)
    _changed_at: float = 0.0
    _parsed: dict[int, tuple[str, GameSettings]] = field(default_factory=dict)
    _games: dict[int, tuple[list[dict[str, Any]], Game, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._db = open_read_only(self.path)
        self._changed_at = self.now()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        assert self._db is not None, "reader closed"
        return self._db

    def data_version(self) -> int:
        """Changes whenever the kiosk commits (cheap: no table is read)."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def current_game(self) -> int | None:
        """The game on the device: the newest unfinished one, else the newest."""
        row = self.db.execute(
            "SELECT id FROM games ORDER BY finished ASC, id DESC LIMIT 1").fetchone()
        return int(row[0]) if row else None

    def finished_games(self, limit: int = 100) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT g.id, g.created, g.kind, g.players, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
            "FROM games g WHERE g.finished = 1 ORDER BY g.id DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": r[0], "created": r[1], "kind": r[2], "players": _json_list(r[3]), "events": r[4],
                 "gcg": r[2] in BOARD_GAMES and len(_json_list(r[3])) == 2} for r in rows]

    # -- the snapshot -----------------------------------------------------------------------------
    def snapshot(self, game_id: int | None = None) -> dict[str, Any]:
        """The spectator's view of ``game_id`` (default: the current game) as JSON-ready data."""
        now = self.now()
        gid = self.current_game() if game_id is None else game_id
        if gid is None:
            return {"kind": "none", "server_time": now, "finished_games": self.finished_games()}
        with self._read():
            row = self.db.execute("SELECT kind, settings, finished, clock, created FROM games WHERE id = ?",
                                  (gid,)).fetchone()
            if row is None:
                raise LiveError(f"{str(self.path)!r}: no saved game {gid}")
            records = [json.loads(d) for (d,) in self.db.execute(
                "SELECT data FROM events WHERE game_id = ? ORDER BY seq", (gid,))]
        kind, settings_text, finished, clock_text, created = row
        settings = self._settings(gid, settings_text)
        clock = json.loads(clock_text) if clock_text else None
        finished = bool(finished)
        base: dict[str, Any] = {
            "kind": kind, "game_id": gid, "created": created, "seq": len(records), "finished": finished,
            "server_time": now, "language": settings.language,
        }
        if kind in BOARD_GAMES:
            game, problem = self._replayed(gid, settings, records)
            base.update(board_game_view(settings, records, finished, game, problem))
        elif kind == "ordskifte":
            base.update(ordskifte_view(settings, records))
        elif kind == "keywords":
            base.update(keywords_view(settings, records))
        else:
            base["players"] = [{"name": n} for n in settings.players]
        base["clock"] = self._clock_view(gid, len(records), clock, finished, now)
        base["quiet_s"] = self._quiet(base["clock"], finished, now)
        base["finished_games"] = self.finished_games()
        return base

    def _settings(self, gid: int, text: str) -> GameSettings:
        """A game's settings, parsed once (parsing checks its tile set and layout files)."""
        cached = self._parsed.get(gid)
        if cached is None or cached[0] != text:
            cached = (text, GameSettings.from_dict(json.loads(text), f"{self.path} game {gid}"))
            self._parsed = {gid: cached}  # only the game on show is kept
        return cached[1]

    def _replayed(self, gid: int, settings: GameSettings, records: list[dict[str, Any]]) -> tuple[Game, str]:
        """The game after ``records``: the previous snapshot's game with only the new events played, or
        replayed from the start when an event was taken back (undo) or the game changed."""
        cached = self._games.get(gid)
        if cached is not None:
            seen, game, problem = cached
            if not problem and seen == records[: len(seen)] and (game.players, game.first) == (
                    list(settings.players), settings.first):
                problem = replay_records(game, records[len(seen):])
                self._games = {gid: (list(records), game, problem)}
                return game, problem
        game = settings.new_game()
        problem = replay_records(game, records)
        self._games = {gid: (list(records), game, problem)}
        return game, problem

    def _read(self) -> _ReadTransaction:
        return _ReadTransaction(self.db)

    def note_change(self) -> None:
        """Called by the poller when ``data_version`` moved: the device is alive."""
        self._changed_at = self.now()

    def _quiet(self, clock: dict[str, Any] | None, finished: bool, now: float) -> float:
        if finished or clock is None or clock.get("running") is None:
            return 0.0
        age = now - self._changed_at
        return round(age, 1) if age > QUIET_S else 0.0

    def _clock_view(self, gid: int, seq: int, clock: Mapping[str, Any] | None, finished: bool,
                    now: float) -> dict[str, Any] | None:
        if clock is None:
            self._last.pop(gid, None)
            return None
        previous = self._last.get(gid)
        version = self.data_version()
        if previous is not None and previous.version == version and previous.view is not None:
            return previous.view  # nothing committed since: the same reading, as old as before
        view = clock_view(clock, previous_clock=previous.clock if previous and previous.seq == seq else None,
                          after_event=previous is None or previous.seq != seq, finished=finished)
        view["as_of"] = now
        self._last[gid] = _Observation(seq, dict(clock), now, view, version)
        return view


class _ReadTransaction:
    """One consistent read of a game (the kiosk may commit between two SELECTs otherwise)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN")

    def __exit__(self, *exc: object) -> None:
        self.db.execute("COMMIT")


def _json_list(text: str) -> list[Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return []
    return value if isinstance(value, list) else []


# -- clocks --------------------------------------------------------------------------------------------

def clock_view(clock: Mapping[str, Any], *, previous_clock: Mapping[str, Any] | None, after_event: bool,
               finished: bool) -> dict[str, Any]:
    """Remaining times, and whose clock runs (``running``: a player index or None), for the browser
    to count down from. See the module docstring for how a running clock is told from a paused one."""
    kind = clock.get("type")
    remaining = clock.get("remaining_ms")
    if kind == "chess":
        readings = [int(r) for r in remaining or []]
        who = clock.get("active")
        counting = who is not None and not clock.get("over")
    else:
        readings = [int(remaining or 0)]
        who = clock.get("player")
        if kind == "turn":
            counting = bool(clock.get("running"))
        else:
            counting = clock.get("status", "running") == "running"
    if finished or who is None:
        counting = False
    elif "paused" in clock:
        counting = counting and not clock["paused"]
    elif not after_event and previous_clock is not None and counting:
        counting = previous_clock.get("remaining_ms") != clock.get("remaining_ms")
    return {
        "type": kind,
        "remaining_ms": readings,
        "player": who,
        "running": who if counting else None,
        "paused": not counting and who is not None and not finished,
        "duration_ms": clock.get("duration_ms") or clock.get("budget_ms"),
    }


# -- the games -----------------------------------------------------------------------------------------

def move_text(record: Mapping[str, Any]) -> str:
    """A stored move as the GCG-like text a spectator reads (never a rack)."""
    move = record.get("move", {})
    kind = move.get("kind")
    if kind == "placement":
        return str(move.get("notation") or "")
    if kind == "exchange":
        count = move.get("count") or len(move.get("tiles") or "")
        return f"-{count}"
    return {"pass": "-", "withdraw": "--", "challenge-bonus": "(challenge)", "time-penalty": "(time)",
            "rack-points": "(rack)"}.get(str(kind), str(kind))


def replay_records(game: Game, records: list[dict[str, Any]]) -> str:
    """Replay ``records`` onto ``game``; the problem with the first one that cannot be replayed, or ""."""
    try:
        game.replay(event_from_dict(r) for r in records)
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        return f"event {len(game.events)} cannot be replayed: {exc}"
    return ""


def board_game_view(settings: GameSettings, records: list[dict[str, Any]], finished: bool, game: Game,
                    problem: str = "") -> dict[str, Any]:
    """Scrabble / Alfapet (``game``: the records replayed): board, last play, moves with words and running
    totals, unseen pool, bag."""
    layout = game.rules.layout
    last = game.last_play()
    last_squares = [[t.square.row, t.square.col] for t in last.move.tiles] if last and isinstance(
        last.move, Placement) else []
    moves = []
    for i, (event, record) in enumerate(zip(game.events, records, strict=False)):
        moves.append({
            "n": i + 1, "player": event.player, "kind": record.get("move", {}).get("kind"),
            "text": move_text(record), "words": list(event.words), "score": event.score,
            "total": event.cumulative,
            "rack": event.move.rack if finished and isinstance(event.move, RackPoints) else None,
        })
    end_racks = _end_racks(game) if finished else None
    players = []
    for i, name in enumerate(settings.players):
        player: dict[str, Any] = {"name": name, "score": game.scores[i], "tiles": game.rack_counts[i]}
        if end_racks is not None:
            player["rack"] = end_racks.get(i, "")
        players.append(player)
    unseen = game.unseen()
    outcome = game.outcome()
    return {
        "players": players,
        "to_move": None if game.finished or finished else game.to_move,
        "board": {
            "size": layout.size,
            "premiums": [[p.value for p in row] for row in layout.grid],
            "tiles": [[sq.row, sq.col, cell.symbol, cell.blank] for sq, cell in game.board],
            "last": last_squares,
            "lettered_rows": settings.lettered_rows,
        },
        "moves": moves,
        "unseen": dict(sorted(Counter(unseen).items())),
        "unseen_count": sum(unseen.values()),
        "bag": game.bag_count,
        "challenge": _challenge(records),
        "winners": list(outcome.winners) if outcome is not None and finished else [],
        "end_reason": outcome.reason.value if outcome is not None and finished else None,
        "photo_seq": next((i for i in range(len(records) - 1, -1, -1)
                           if is_photo_name((records[i].get("extra") or {}).get("photo"))), None),
        "problem": problem,
    }


def _end_racks(game: Game) -> dict[int, str]:
    """The racks left at the end: from the rack-points events, else what the board settles.

    A rack-points event with a loss is the player's own rack; one with a gain for the player who went
    out holds the opponent's rack in a two-player game (with more players it is the others' sum).
    """
    racks: dict[int, str] = {i: "" for i, count in enumerate(game.rack_counts) if count == 0}
    for event in game.events:
        if not isinstance(event.move, RackPoints):
            continue
        if event.score < 0 or event.player != game.went_out:
            owner = event.player
        elif len(game.players) == 2:
            owner = 1 - event.player
        else:
            continue
        racks.setdefault(owner, event.move.rack)
    for i in range(len(game.players)):
        if i not in racks and (known := game.known_rack(i)) is not None:
            racks[i] = known
    return racks


def _challenge(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The last event if it came from a challenge (a withdrawn play or a challenge bonus)."""
    if not records:
        return None
    last = records[-1]
    kind = last.get("move", {}).get("kind")
    if kind == "withdraw":
        return {"result": "withdrawn", "player": last.get("player")}
    if kind == "challenge-bonus":
        return {"result": "bonus", "player": last.get("player"), "points": last.get("score")}
    return None


def ordskifte_view(settings: GameSettings, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Ordskifte: each player's rail of words, who is on turn, the winners; hidden tiles never."""
    state = next((r.get("game") for r in reversed(records) if isinstance(r.get("game"), dict)), None) or {}
    names = state.get("players") or list(settings.players)
    rails = state.get("rails") or [[] for _ in names]
    players = [{"name": n, "rail": list(rails[i]) if i < len(rails) else [], "words": len(rails[i]) if i < len(
        rails) else 0} for i, n in enumerate(names)]
    return {
        "players": players,
        "to_move": state.get("current"),
        "pool": list(state.get("pool") or []),
        "phase": state.get("phase"),
        "winners": list(state.get("winners") or []),
        "target_words": ORDSKIFTE_WORDS,
        "last_action": {k: v for k, v in (records[-1] if records else {}).items() if k in (
            "action", "player", "word", "old", "victim")},
    }


def keywords_view(settings: GameSettings, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Keywords: each player's round scores and total, the target, the phase and winners."""
    match = next((r.get("match") for r in reversed(records) if isinstance(r.get("match"), dict)), None) or {}
    names = match.get("players") or list(settings.players)
    rounds = match.get("round_scores") or []
    players = []
    for i, name in enumerate(names):
        mine = [int(r[i]) for r in rounds if i < len(r)]
        players.append({"name": name, "rounds": mine, "score": sum(mine)})
    return {
        "players": players,
        "target": match.get("target"),
        "rounds_planned": match.get("rounds"),
        "round": len(rounds) + (0 if match.get("phase") == "finished" else 1),
        "phase": match.get("phase"),
        "winners": list(match.get("winners") or []),
        "to_move": None,
    }

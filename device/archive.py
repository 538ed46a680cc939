# SPDX-License-Identifier: GPL-3.0-or-later
"""The game archive: the still photo of every confirmed move, and finished games taken off the device.

Photos are files, ``<data>/photos/game-<id>/move-<seq>.jpg`` (``seq`` = the number of the event the
move became), downscaled to ``max_side`` pixels and re-encoded until they fit ``max_bytes``; the
file system is the index, so there is no second writer to the kiosk's database and nothing to get
out of step. The flow stores the returned relative path in the event (``extra["photo"]``): a photo
an event names is a confirmed move's photo; one nobody names (the move was taken back) is simply
overwritten by the next capture of that move. :meth:`PhotoArchive.prune` deletes whole games' photos,
oldest first, until the folder fits the disk budget, but never the newest ``keep_games`` games nor
the game being played.

Everything that reads games here takes a read-only connection (:func:`device.live.state.open_read_only`),
so the command line and the live page can export while the kiosk plays.

>>> settings = ArchiveSettings.from_table({"photo_budget_mb": 50, "photo_keep_games": 3}, "config.toml")
>>> settings.budget_bytes, settings.keep_games
(52428800, 3)
>>> ArchiveSettings.from_table({"photo_keep_games": -1}, "config.toml")
Traceback (most recent call last):
...
device.archive.ArchiveError: config.toml: storage.photo_keep_games = -1: must be a whole number from 0 to 10000
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import sqlite3
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TypeGuard

from device.config import GameSettings
from device.diskwatch import DiskWatch
from device.errors import DeviceError
from device.store import event_from_dict
from engine.game import Game

PHOTO_DIR = "photos"
_GAME_DIR = re.compile(r"game-([0-9]+)")


class ArchiveError(DeviceError):
    """A game or photo that cannot be archived or exported (the message names it)."""


@dataclass(frozen=True)
class ArchiveSettings:
    """``[storage]`` settings of the photo archive."""

    budget_bytes: int = 500 * 1024 * 1024
    keep_games: int = 10
    max_side: int = 1600
    max_bytes: int = 400 * 1024

    @classmethod
    def from_table(cls, table: Mapping[str, Any], source: str) -> ArchiveSettings:
        def whole(key: str, default: int, high: int) -> int:
            value = table.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise ArchiveError(f"{source}: storage.{key} = {value!r}: must be a whole number from 0 to {high}")
            return value

        return cls(budget_bytes=whole("photo_budget_mb", cls.budget_bytes // 2**20, 1_000_000) * 2**20,
                   keep_games=whole("photo_keep_games", cls.keep_games, 10_000))


class PhotoArchive:
    """Saves move photos under ``<data_dir>/photos`` and keeps the folder within its budget."""

    def __init__(self, data_dir: str | os.PathLike[str], settings: ArchiveSettings | None = None,
                 disk: DiskWatch | None = None) -> None:
        """``disk``: while it is low on space, :meth:`keep` saves no photos (the game's events come first)."""
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / PHOTO_DIR
        self.settings = settings or ArchiveSettings()
        self.disk = disk
        self.paused = False
        """Photos are not being saved because the disk is low (said once in the log when it starts)."""
        self._bytes: int | None = None

    def path_for(self, game_id: int, seq: int) -> Path:
        return self.root / f"game-{int(game_id)}" / f"move-{int(seq):03d}.jpg"

    def save(self, game_id: int, seq: int, frame: Any) -> str:
        """Write ``frame`` (a BGR image) as the photo of event ``seq``; returns its path relative to the
        data folder (what the event stores). Written atomically: a power cut leaves the old file or the new."""
        data = encode_jpeg(frame, self.settings.max_side, self.settings.max_bytes)
        target = self.path_for(game_id, seq)
        target.parent.mkdir(parents=True, exist_ok=True)
        old = target.stat().st_size if target.exists() else 0
        temporary = target.with_suffix(".tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
        if self._bytes is not None:
            self._bytes += len(data) - old
        if self.total_bytes() > self.settings.budget_bytes:
            self.prune(protect=(game_id,))
        return target.relative_to(self.data_dir).as_posix()

    def keep(self, game_id: int | None, seq: int, frame: Any) -> str | None:
        """:meth:`save` for the flow: a photo that cannot be written (full disk, odd frame) is logged and
        skipped, never a reason to lose the move."""
        if game_id is None or frame is None:
            return None
        low = self.disk is not None and self.disk.low()
        if low != self.paused:
            self.paused = low
            archive_log = logging.getLogger("ordvakt.archive")
            if low:
                archive_log.warning("photos are no longer saved: %s", self.disk.describe())  # type: ignore[union-attr]
            else:
                archive_log.info("photos are saved again: the disk has space")
        if low:
            return None
        try:
            return self.save(game_id, seq, frame)
        except (OSError, ArchiveError) as exc:
            logging.getLogger("ordvakt.archive").warning("photo of game %s move %s not kept: %s", game_id, seq, exc)
            return None

    def games(self) -> dict[int, list[Path]]:
        """Photo files per game number."""
        found: dict[int, list[Path]] = {}
        if not self.root.is_dir():
            return found
        for folder in self.root.iterdir():
            match = _GAME_DIR.fullmatch(folder.name)
            if match and folder.is_dir():
                found[int(match[1])] = sorted(folder.glob("move-*.jpg"))
        return found

    def total_bytes(self) -> int:
        if self._bytes is None:
            self._bytes = sum(p.stat().st_size for files in self.games().values() for p in files)
        return self._bytes

    def prune(self, protect: tuple[int, ...] = ()) -> list[int]:
        """Delete the oldest games' photos until the archive fits its budget; returns the games pruned.
        The newest ``keep_games`` games and those in ``protect`` are never touched."""
        games = self.games()
        kept = set(sorted(games, reverse=True)[: self.settings.keep_games]) | set(protect)
        sizes = {gid: sum(p.stat().st_size for p in files) for gid, files in games.items()}
        total = sum(sizes.values())
        pruned = []
        for gid in sorted(games):
            if total <= self.settings.budget_bytes:
                break
            if gid in kept:
                continue
            for photo in games[gid]:
                photo.unlink(missing_ok=True)
            for leftover in (self.root / f"game-{gid}").glob("*.tmp"):
                leftover.unlink(missing_ok=True)
            folder = self.root / f"game-{gid}"
            if not any(folder.iterdir()):
                folder.rmdir()
            total -= sizes[gid]
            pruned.append(gid)
        self._bytes = total
        return pruned


def encode_jpeg(frame: Any, max_side: int, max_bytes: int) -> bytes:
    """``frame`` as a JPEG no larger than ``max_side`` pixels a side and, quality permitting, ``max_bytes``."""
    import cv2
    import numpy as np

    image = np.asarray(frame)
    if image.ndim not in (2, 3) or image.size == 0:
        raise ArchiveError(f"cannot save a photo of shape {image.shape}: not an image")
    height, width = image.shape[:2]
    scale = max_side / max(height, width)
    if scale < 1:
        image = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                           interpolation=cv2.INTER_AREA)
    data = b""
    for quality in (85, 75, 65, 50, 35):
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ArchiveError("the photo could not be encoded as JPEG")
        data = encoded.tobytes()
        if len(data) <= max_bytes:
            break
    return data


# -- reading finished games (read-only connection) ---------------------------------------------------

@dataclass
class ArchivedGame:
    id: int
    created: str
    settings: GameSettings
    finished: bool
    clock: dict[str, Any] | None
    records: list[dict[str, Any]]
    times: list[str]

    def game(self, events: int | None = None) -> Game:
        """The engine game after the first ``events`` events (default all); only Scrabble and Alfapet."""
        if not self.settings.board_game:
            raise ArchiveError(f"game {self.id} is {self.settings.game}: it has no board")
        game = self.settings.new_game()
        try:
            game.replay(event_from_dict(r) for r in self.records[:events])
        except (KeyError, ValueError, TypeError) as exc:
            raise ArchiveError(f"game {self.id}: event {len(game.events) + 1} is damaged ({exc!r})") from None
        return game

    def photos(self, data_dir: Path) -> dict[int, Path]:
        """Event number -> the photo file it names (only files inside the photo folder that exist)."""
        root = (data_dir / PHOTO_DIR).resolve()
        found = {}
        for seq, record in enumerate(self.records):
            name = (record.get("extra") or {}).get("photo")
            if not is_photo_name(name):
                continue
            path = (data_dir / name).resolve()
            if path.is_relative_to(root) and path.is_file():
                found[seq] = path
        return found


def load_game(db: sqlite3.Connection, game_id: int) -> ArchivedGame:
    row = db.execute("SELECT created, settings, finished, clock FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise ArchiveError(f"no saved game {game_id} (ordvakt games list shows them)")
    rows = db.execute("SELECT seq, created, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    try:
        settings = GameSettings.from_dict(json.loads(row[1]), f"game {game_id}")
        records = [json.loads(r[2]) for r in rows]
        clock = json.loads(row[3]) if row[3] else None
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"game {game_id}: a stored row is not readable ({exc})") from None
    return ArchivedGame(game_id, row[0], settings, bool(row[2]), clock, records, [r[1] for r in rows])


def is_finished(db: sqlite3.Connection, game_id: int) -> bool:
    row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
    return bool(row and row[0])


def gcg_text(saved: ArchivedGame) -> str:
    from engine.gcg import write_gcg

    if not saved.settings.board_game or len(saved.settings.players) != 2:
        raise ArchiveError(f"game {saved.id} ({saved.settings.game}, {len(saved.settings.players)} players) "
                           "has no GCG form; export the JSON record")
    players = saved.settings.players
    # One person's two solo racks are two GCG players: number them, or both lines would name the same person.
    names = [f"{name} {rack}" for rack, name in enumerate(players, 1)] if saved.settings.racks == 2 else None
    return write_gcg(saved.game(), names=names, lexicon=saved.settings.lexicon or None,
                     lettered_rows=saved.settings.lettered_rows)


def json_record(saved: ArchivedGame, photo_names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The ``ordvakt-game/1`` record; ``photo_names`` replaces each event's photo path (names in a zip)."""
    events = []
    for seq, (record, at) in enumerate(zip(saved.records, saved.times, strict=True)):
        event = dict(record, saved_at=at)
        if photo_names is not None:
            extra = dict(event.get("extra") or {})
            if seq in photo_names:
                extra["photo"] = photo_names[seq]
            else:
                extra.pop("photo", None)
            event["extra"] = extra
        events.append(event)
    scores = saved.game().scores if saved.settings.board_game else None
    return {"format": "ordvakt-game/1", "id": saved.id, "created": saved.created,
            "settings": saved.settings.to_dict(), "players": list(saved.settings.players),
            "finished": saved.finished, "scores": scores, "clock": saved.clock, "events": events}


def export_bytes(db: sqlite3.Connection, game_id: int, form: str, data_dir: Path) -> bytes:
    """A game as ``gcg``, ``json`` or ``zip`` (the GCG when it has one, the JSON record, every move photo)."""
    saved = load_game(db, game_id)
    if form == "gcg":
        return gcg_text(saved).encode("utf-8")
    if form == "json":
        return (json.dumps(json_record(saved), ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    if form != "zip":
        raise ArchiveError(f"unknown export form {form!r}: expected gcg, json or zip")
    photos = saved.photos(Path(data_dir))
    names = {seq: f"photos/move-{seq:03d}.jpg" for seq in photos}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        base = f"game-{game_id}"
        archive.writestr(f"{base}.json", json.dumps(json_record(saved, names), ensure_ascii=False, indent=1) + "\n")
        try:
            archive.writestr(f"{base}.gcg", gcg_text(saved))
        except ArchiveError:
            pass  # three or four players, or a word game: the JSON record is the record
        for seq, path in sorted(photos.items()):
            # JPEGs do not shrink: store them as they are.
            archive.write(path, names[seq], compress_type=zipfile.ZIP_STORED)
    return buffer.getvalue()


def is_photo_name(name: object) -> TypeGuard[str]:
    """Whether an event's ``photo`` names a file inside the photo folder (``photos/...``, no way out of it).

    >>> [is_photo_name(n) for n in ("photos/game-1/move-001.jpg", "photos/../games.sqlite", "/etc/passwd", 7)]
    [True, False, False, False]
    """
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        return False
    parts = PurePosixPath(name).parts
    return len(parts) > 1 and parts[0] == PHOTO_DIR and ".." not in parts


def confirmed_photo(db: sqlite3.Connection, game_id: int, seq: int, data_dir: Path) -> Path | None:
    """The photo confirmed event ``seq`` of ``game_id`` names, if it is still on disk."""
    row = db.execute("SELECT data FROM events WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
    if row is None:
        return None
    try:
        name = (json.loads(row[0]).get("extra") or {}).get("photo")
    except (json.JSONDecodeError, AttributeError):
        return None
    if not is_photo_name(name):
        return None
    root = (Path(data_dir) / PHOTO_DIR).resolve()
    path = (Path(data_dir) / name).resolve()
    return path if path.is_relative_to(root) and path.is_file() else None


# -- CGP ------------------------------------------------------------------------------------------

def cgp_line(game: Game, *, lexicon: str = "", include_racks: bool = False) -> str:
    """The position as a CGP line (Crossword Game Position, as woogles.io and macondo read it): board
    rows with runs of empty squares as numbers, blanks in lower case; racks, scores and the player to
    move first; consecutive scoreless turns; then ``lex`` and ``ld`` operations. Racks are unknown
    beside a physical board and left empty unless ``include_racks`` and the board settles them."""
    # The board's own text form is CGP's first field: rows by "/", runs of empty squares as numbers.
    board = game.board.to_text()
    n = len(game.players)
    order = [(game.to_move + i) % n for i in range(n)]
    racks = [(game.known_rack(p) or "") if include_racks else "" for p in order]
    scores = [str(game.scores[p]) for p in order]
    ops = []
    if lexicon:
        ops.append(f"lex {lexicon};")
    ops.append(f"ld {game.rules.tileset.name};")
    return " ".join([board, "/".join(racks), "/".join(scores), str(game.scoreless_turns), *ops])

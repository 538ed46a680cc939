# SPDX-License-Identifier: GPL-3.0-or-later
"""The live page's HTTP server: asyncio, standard library only, GET and HEAD only.

Only a fixed set of routes exists (the page, its two static files, the strings, the state as JSON
or as a server-sent event stream, the finished games and their downloads, move photos by number);
a request path is matched against them and never used to open a file, so there is nothing to list
and no path to traverse. Limits keep a crowd of viewers from costing the device more than one
snapshot per change: one poller reads the database and builds the snapshot once; the same bytes are
written to every viewer that keeps up, and wait in a queue of one for a viewer that does not (it
skips to the newest state, and is dropped after ``SLOW_VIEWER_S``); viewers beyond ``max_viewers``
are refused with 503; a request has ``REQUEST_TIMEOUT_S`` to arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from device.live.state import LiveError, LiveReader

MAX_REQUEST_LINE = 2048
MAX_HEADER_BYTES = 16384
REQUEST_TIMEOUT_S = 10.0
HEARTBEAT_S = 15.0
SLOW_VIEWER_S = 10.0
#: Bytes a viewer may leave unread before new states wait in its queue of one instead of piling up.
BACKLOG_BYTES = 64 * 1024
LANGUAGES = ("en", "sv", "fi", "nb")
_LANGUAGE_ALIASES = {"no": "nb", "nn": "nb", "se": "sv"}

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
_DOWNLOAD = re.compile(r"/api/games/([0-9]{1,9})\.(gcg|json|zip)")
_PHOTO = re.compile(r"/api/photos/([0-9]{1,9})/([0-9]{1,5})\.jpg")

REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
           414: "URI Too Long", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
           503: "Service Unavailable"}


def choose_language(requested: str | None, accept_language: str | None) -> str:
    """The page language: ``?lang=`` if we have it, else the best of the browser's Accept-Language.

    >>> choose_language(None, "nn-NO,nn;q=0.9,en;q=0.5")
    'nb'
    >>> choose_language("fi-FI", "sv")
    'fi'
    >>> choose_language(None, "de-DE,de;q=0.9")
    'en'
    """
    candidates: list[tuple[float, str]] = []
    if requested:
        candidates.append((2.0, requested))
    for part in (accept_language or "").split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        candidates.append((q, tag))
    for _, tag in sorted(candidates, key=lambda c: -c[0]):
        base = tag.strip().lower().split("-")[0]
        base = _LANGUAGE_ALIASES.get(base, base)
        if base in LANGUAGES:
            return base
    return "en"


def load_strings() -> dict[str, dict[str, str]]:
    """The page's strings per language from ``device/live/data/strings/<lang>.toml`` (flat keys)."""
    import tomllib

    from device.ui.strings import _flatten

    folder = resources.files("device.live") / "data" / "strings"
    tables = {lang: _flatten(tomllib.loads((folder / f"{lang}.toml").read_text(encoding="utf-8")))
              for lang in LANGUAGES}
    english = tables["en"]
    return {lang: {**english, **table} for lang, table in tables.items()}


def load_static() -> dict[str, bytes]:
    folder = resources.files("device.live") / "data" / "static"
    return {name: (folder / name).read_bytes() for name, _ in STATIC.values()}


@dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class Viewer:
    queue: asyncio.Queue[bytes]
    writer: asyncio.StreamWriter | None = None
    """Set while the viewer keeps up: a new state is written straight to its socket (no task to wake)."""


class LiveServer:
    """Serve the live page of the database at ``db_path`` on ``host:port`` (port 0: any free port)."""

    def __init__(self, db_path: str | Path, *, host: str = "127.0.0.1", port: int = 8080, max_viewers: int = 256,
                 max_connections: int | None = None, poll_s: float = 0.025, data_dir: Path | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.db_path = Path(db_path)
        self.host, self.port = host, port
        self.max_viewers = max_viewers
        self.max_connections = max_connections or max_viewers + 32
        self.poll_s = poll_s
        self.data_dir = data_dir or self.db_path.parent
        self.clock = clock
        self.reader: LiveReader | None = None
        """Opened when the database can be read (a read-only mount needs the kiosk's WAL files there)."""
        self.strings = load_strings()
        self.static = load_static()
        self.viewers: set[Viewer] = set()
        self.connections = 0
        self.version = 0
        self.snapshot: dict[str, Any] = {}
        self._state_json = b"{}"
        self._event = b""
        self._server: asyncio.base_events.Server | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._db_lock = asyncio.Lock()
        self._data_version = -1
        self._last_problem = ""
        self._inode: int | None = None

    # -- lifecycle ----------------------------------------------------------------------------------
    async def start(self) -> None:
        await self._refresh_safely(force=True)
        self._server = await asyncio.start_server(self._client, self.host, self.port, limit=MAX_HEADER_BYTES,
                                                  reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]
        self._tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._server is not None:
            self._server.close()
            for viewer in list(self.viewers):
                self._offer(viewer, b"")  # wakes the stream, which then ends
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        if self.reader is not None:
            self.reader.close()

    # -- the poller ---------------------------------------------------------------------------------
    async def _poll(self) -> None:
        last_build = time.monotonic()
        while True:
            await asyncio.sleep(self.poll_s)
            # A quiet device, a replaced database or one that can now be opened are only noticed
            # by rebuilding now and then without a change.
            stale = time.monotonic() - last_build > 2.0
            if await self._refresh_safely(force=stale) or stale:
                last_build = time.monotonic()

    async def _refresh_safely(self, *, force: bool) -> bool:
        try:
            return await self._refresh(force=force)
        except LiveError:
            return False  # the database is being moved aside or replaced; try again next time
        except Exception as exc:  # a row this version cannot show must not stop the page
            if str(exc) != self._last_problem:
                self._last_problem = str(exc)
                logging.getLogger("ordvakt.live").exception("cannot build the live state")
            return self._publish({"kind": "none", "server_time": self.clock(), "device": f"cannot show the game: {exc}",
                                  "finished_games": self.snapshot.get("finished_games", [])}, changed=False)

    async def _refresh(self, *, force: bool = False) -> bool:
        loop = asyncio.get_running_loop()
        async with self._db_lock:
            if force and self.reader is not None and _inode(self.db_path) != self._inode:
                self.reader.close()  # the kiosk moved a damaged database aside and started a new one
                self.reader = None
            if self.reader is None:
                if not force and self.snapshot:
                    return False  # try to open it again at the next forced refresh
                try:
                    self.reader = LiveReader(self.db_path, now=self.clock)
                except LiveError as exc:
                    return self._publish({"kind": "none", "server_time": self.clock(), "device": str(exc),
                                          "finished_games": []}, changed=False)
                self._inode = _inode(self.db_path)
                self._data_version = -1
            version = self.reader.data_version()
            changed = version != self._data_version
            if not changed and not force:
                return False
            if changed:
                self._data_version = version
                self.reader.note_change()
            snapshot = await loop.run_in_executor(None, self.reader.snapshot)
        return self._publish(snapshot, changed)

    def _publish(self, snapshot: dict[str, Any], changed: bool) -> bool:
        """Make ``snapshot`` the state every viewer gets (unless only its time differs from the last)."""
        def comparable(state: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in state.items() if k not in ("server_time", "version")}

        if not changed and comparable(snapshot) == comparable(self.snapshot):
            return True
        self.version += 1
        snapshot["version"] = self.version
        self.snapshot = snapshot
        self._state_json = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")).encode()
        self._event = b"id: %d\nevent: state\ndata: %s\n\n" % (self.version, self._state_json)
        for viewer in list(self.viewers):
            self._offer(viewer, self._event)
        return True

    @staticmethod
    def _offer(viewer: Viewer, message: bytes) -> None:
        """Write ``message`` to a viewer that keeps up; queue it for one that does not, replacing a state it
        has not taken yet (only the newest state matters; its stream drains it or gives up on the viewer)."""
        writer = viewer.writer
        if message and writer is not None and viewer.queue.empty() and (
                writer.transport.get_write_buffer_size() < BACKLOG_BYTES):
            writer.write(message)
            return
        if viewer.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                viewer.queue.get_nowait()
        viewer.queue.put_nowait(message)

    # -- HTTP ---------------------------------------------------------------------------------------
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            if self.connections > self.max_connections:
                await self._send(writer, Response(503, b'{"error":"too many viewers"}'), head=False)
                return
            try:
                method, target, headers = await asyncio.wait_for(_read_request(reader), REQUEST_TIMEOUT_S)
            except _HttpError as exc:
                await self._send(writer, Response(exc.status, json.dumps({"error": exc.reason}).encode()), False)
                return
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                return
            if method not in ("GET", "HEAD"):
                await self._send(writer, Response(405, b'{"error":"read-only"}', headers={"Allow": "GET, HEAD"}),
                                 head=False)
                return
            path, _, query = target.partition("?")
            if path == "/api/events" and method == "GET":
                await self._stream(writer)
                return
            response = await self._route(path, parse_qs(query, max_num_fields=8), headers)
            await self._send(writer, response, head=method == "HEAD")
        except (ConnectionError, TimeoutError):
            pass
        except Exception:  # one viewer's failure is logged and ends only that connection
            logging.getLogger("ordvakt.live").exception("request failed")
        finally:
            self.connections -= 1
            with contextlib.suppress(Exception):
                writer.close()
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    async def _route(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Response:
        if path in STATIC:
            name, content_type = STATIC[path]
            body = self.static[name]
            if name == "index.html":
                lang = choose_language(None, headers.get("accept-language"))
                body = body.replace(b'lang="en"', f'lang="{lang}"'.encode(), 1)
            return Response(200, body, content_type, {"Cache-Control": "no-cache"})
        if path == "/api/state":
            return Response(200, self._state_json, headers={"Cache-Control": "no-store"})
        if path == "/api/strings":
            lang = choose_language(next(iter(query.get("lang") or []), None), headers.get("accept-language"))
            body = json.dumps({"language": lang, "strings": self.strings[lang]}, ensure_ascii=False).encode()
            return Response(200, body)
        if path == "/api/games":
            return Response(200, json.dumps(self.snapshot.get("finished_games", []), ensure_ascii=False).encode())
        if match := _DOWNLOAD.fullmatch(path):
            return await self._download(int(match[1]), match[2])
        if match := _PHOTO.fullmatch(path):
            return await self._photo(int(match[1]), int(match[2]))
        return Response(404, b'{"error":"not found"}')

    async def _download(self, game_id: int, form: str) -> Response:
        from device import archive

        loop = asyncio.get_running_loop()
        async with self._db_lock:
            if self.reader is None:
                return Response(503, b'{"error":"the saved games cannot be read now"}')
            try:
                finished = await loop.run_in_executor(None, archive.is_finished, self.reader.db, game_id)
                if not finished:
                    return Response(404, b'{"error":"no finished game with that number"}')
                body = await loop.run_in_executor(None, archive.export_bytes, self.reader.db, game_id, form,
                                                  self.data_dir)
            except archive.ArchiveError as exc:
                return Response(404, json.dumps({"error": str(exc)}).encode())
        types = {"gcg": "text/plain; charset=utf-8", "json": "application/json; charset=utf-8",
                 "zip": "application/zip"}
        return Response(200, body, types[form],
                        {"Content-Disposition": f'attachment; filename="ordvakt-game-{game_id}.{form}"'})

    async def _photo(self, game_id: int, seq: int) -> Response:
        from device import archive

        loop = asyncio.get_running_loop()
        async with self._db_lock:
            if self.reader is None:
                return Response(503, b'{"error":"the saved games cannot be read now"}')
            path = await loop.run_in_executor(None, archive.confirmed_photo, self.reader.db, game_id, seq,
                                              self.data_dir)
        if path is None:
            return Response(404, b'{"error":"no photo"}')
        return Response(200, await loop.run_in_executor(None, path.read_bytes), "image/jpeg",
                        {"Cache-Control": "max-age=3600"})

    async def _stream(self, writer: asyncio.StreamWriter) -> None:
        if len(self.viewers) >= self.max_viewers:
            await self._send(writer, Response(503, b'{"error":"too many viewers"}'), head=False)
            return
        viewer = Viewer(asyncio.Queue(maxsize=1))
        self.viewers.add(viewer)
        try:
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
                         b"Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
                         b"retry: 2000\n\n" + self._event)
            await asyncio.wait_for(writer.drain(), SLOW_VIEWER_S)
            viewer.writer = writer
            while True:
                try:
                    message = await asyncio.wait_for(viewer.queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    message = b": ping %d\n\n" % int(time.time())
                if not message:
                    return
                writer.write(message)
                await asyncio.wait_for(writer.drain(), SLOW_VIEWER_S)
        finally:
            self.viewers.discard(viewer)

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, response: Response, head: bool) -> None:
        reason = REASONS.get(response.status, "OK")
        lines = [f"HTTP/1.1 {response.status} {reason}", f"Content-Type: {response.content_type}",
                 f"Content-Length: {len(response.body)}", "X-Content-Type-Options: nosniff",
                 "Content-Security-Policy: default-src 'self'; img-src 'self' data:",
                 "Referrer-Policy: no-referrer", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in response.headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if head else response.body))
        await asyncio.wait_for(writer.drain(), SLOW_VIEWER_S)


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except OSError:
        return None


class _HttpError(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str]]:
    """The request line and headers; anything malformed or oversized is an :class:`_HttpError`."""
    try:
        line = await reader.readuntil(b"\r\n")
    except asyncio.LimitOverrunError:
        raise _HttpError(414, "request line too long") from None
    if len(line) > MAX_REQUEST_LINE:
        raise _HttpError(414, "request line too long")
    try:
        method, target, version = line.decode("ascii").rstrip("\r\n").split(" ")
    except (UnicodeDecodeError, ValueError):
        raise _HttpError(400, "malformed request line") from None
    if not version.startswith("HTTP/1.") or not target.startswith("/") or "\x00" in target:
        raise _HttpError(400, "malformed request line")
    headers: dict[str, str] = {}
    total = len(line)
    while True:
        try:
            raw = await reader.readuntil(b"\r\n")
        except asyncio.LimitOverrunError:
            raise _HttpError(431, "header too long") from None
        total += len(raw)
        if total > MAX_HEADER_BYTES or len(headers) > 64:
            raise _HttpError(431, "headers too long")
        if raw == b"\r\n":
            return method, target, headers
        name, sep, value = raw.decode("latin-1").partition(":")
        if not sep:
            raise _HttpError(400, "malformed header")
        headers[name.strip().lower()] = value.strip()


def serve(db_path: str | Path, *, host: str, port: int, max_viewers: int, data_dir: Path | None = None,
          ready: Callable[[LiveServer], None] | None = None) -> None:
    """Run the server until interrupted (the ``ordvakt live`` command)."""

    async def main() -> None:
        server = LiveServer(db_path, host=host, port=port, max_viewers=max_viewers, data_dir=data_dir)
        await server.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)  # systemd's stop: close every stream, then exit 0
        if ready is not None:
            ready(server)
        try:
            await stop.wait()
        finally:
            await server.stop()

    asyncio.run(main())

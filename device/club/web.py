# SPDX-License-Identifier: GPL-3.0-or-later
"""The director's page: all boards at a glance, standings, tsh lines and GCG downloads.

Read-only for everyone; the one write, ``POST /api/assign`` (names, round, table, tsh numbers for a
board), needs the director's password (HTTP Basic, user ``director``). Only the fixed routes below
are served: there is no file system behind the server.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
import re
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from device.club.director import Director
from device.club.link import parse_command

log = logging.getLogger(__name__)

MAX_BODY = 4096
GCG_PATH = re.compile(r"^/gcg/([A-Za-z0-9_-]{1,64})/(\d{1,9})\.gcg$")

def page() -> bytes:
    """The page (``device/club/data/director.html``): plain HTML and a script that polls ``api/event``."""
    return resources.files("device.club").joinpath("data/director.html").read_bytes()



def event_view(director: Director) -> dict[str, Any]:
    boards = director.boards()
    for board in boards:
        state_game = None
        if board["last_move"]:
            state_game = board["last_move"].get("game")
        board["game"] = state_game
    return {"event": director.event, "boards": boards,
            "standings": [s.to_dict() for s in director.standings()]}


def tsh_text(director: Director, round_no: int, division: str) -> str:
    lines, problems = director.tsh_lines(round_no, division)
    out = list(lines)
    if problems:
        out.append("")
        out += [f"# {p}" for p in problems]
    return "\n".join(out) + "\n"


def make_server(director: Director, host: str, port: int, *, director_password: str = "",
                send_command: Callable[[str, dict[str, Any]], None] | None = None,
                max_threads: int = 32) -> ThreadingHTTPServer:
    """The page's HTTP server (not started). ``send_command(board, command)`` publishes an assignment."""
    slots = threading.BoundedSemaphore(max_threads)

    class Handler(BaseHTTPRequestHandler):
        server_version = "ordvakt-club"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            log.debug("club web: " + format, *args)

        def _send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline' 'self'; "
                                                        "style-src 'unsafe-inline'")
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8")

        def _error(self, status: int, message: str) -> None:
            self._json(status, {"error": message})

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            if not slots.acquire(blocking=False):
                self._error(HTTPStatus.SERVICE_UNAVAILABLE, "busy")
                return
            try:
                self._get()
            finally:
                slots.release()

        do_HEAD = do_GET  # noqa: N815

        def _get(self) -> None:
            if len(self.path) > 512:
                self._error(HTTPStatus.REQUEST_URI_TOO_LONG, "path too long")
                return
            url = urlsplit(self.path)
            if url.path == "/":
                self._send(HTTPStatus.OK, page(), "text/html; charset=utf-8")
            elif url.path == "/api/event":
                self._json(HTTPStatus.OK, event_view(director))
            elif url.path == "/api/tsh":
                query = parse_qs(url.query)
                try:
                    round_no = int(query.get("round", ["1"])[0])
                    if not 1 <= round_no <= 999:
                        raise ValueError
                except ValueError:
                    self._error(HTTPStatus.BAD_REQUEST, "round must be a whole number from 1 to 999")
                    return
                division = query.get("division", ["A"])[0]
                if not division.isalnum() or len(division) > 8:
                    self._error(HTTPStatus.BAD_REQUEST, "division must be a short name")
                    return
                self._send(HTTPStatus.OK, tsh_text(director, round_no, division).encode(),
                           "text/plain; charset=utf-8")
            elif match := GCG_PATH.match(url.path):
                text = director.gcg(match.group(1), int(match.group(2)))
                if text is None:
                    self._error(HTTPStatus.NOT_FOUND, "no finished game there")
                else:
                    self._send(HTTPStatus.OK, text.encode("utf-8"), "text/plain; charset=utf-8",
                               {"Content-Disposition": f'attachment; filename="{match.group(1)}-'
                                                       f'{match.group(2)}.gcg"'})
            else:
                self._error(HTTPStatus.NOT_FOUND, "not found")

        def do_POST(self) -> None:  # noqa: N802
            if urlsplit(self.path).path != "/api/assign":
                self._error(HTTPStatus.NOT_FOUND, "not found")
                return
            if not director_password or not self._is_director():
                self._send(HTTPStatus.UNAUTHORIZED, b'{"error": "director login needed"}', "application/json",
                           {"WWW-Authenticate": 'Basic realm="ordvakt club director"'})
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                length = -1
            if not 0 < length <= MAX_BODY:
                self._error(HTTPStatus.BAD_REQUEST, f"body must be 1-{MAX_BODY} bytes")
                return
            raw = self.rfile.read(length)
            try:
                data = json.loads(raw)
                board = data.pop("board")
                if not isinstance(board, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", board):
                    raise ValueError(f"board {board!r} is not a board id")
                command = parse_command(json.dumps(data).encode())
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                self._error(HTTPStatus.BAD_REQUEST, str(exc))
                return
            director.assign(board, command)
            if send_command is not None:
                send_command(board, command)
            self._json(HTTPStatus.OK, {"board": board, "assigned": command})

        def _is_director(self) -> bool:
            header = self.headers.get("Authorization", "")
            if not header.startswith("Basic "):
                return False
            try:
                user, _, password = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
            except (ValueError, UnicodeDecodeError):
                return False
            return hmac.compare_digest(user.encode(), b"director") and hmac.compare_digest(
                password.encode(), director_password.encode())

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server

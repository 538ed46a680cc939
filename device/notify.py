# SPDX-License-Identifier: GPL-3.0-or-later
"""systemd's sd_notify without a dependency: one datagram to ``$NOTIFY_SOCKET``; no socket, no-op.

The service is ``Type=notify`` with ``WatchdogSec``: the main loop sends ``READY=1`` once the
first screen is up, ``WATCHDOG=1`` while it keeps turning (a hung loop is restarted), and ``STATUS=``
with the game's state whenever it changes (``systemctl status ordvakt`` shows it).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any


class Notifier:
    def __init__(self, environ: Mapping[str, str] | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        usec = env.get("WATCHDOG_USEC", "")
        #: Ping at half the watchdog interval (systemd's advice); 5 s when no interval is given.
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else 5.0
        self._clock = clock
        self._last = float("-inf")
        self._status = ""

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one state line (``READY=1``, ``STATUS=...``); False without a socket or on failure."""
        if not self.address:
            return False
        address = self.address
        if address.startswith("@"):  # abstract namespace socket
            address = "\0" + address[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(address)
                sock.sendall(message.encode("utf-8"))
            return True
        except OSError:
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> bool:
        """``STATUS=text`` (shown by ``systemctl status ordvakt``), only when it changed; one line."""
        line = " ".join(text.split())
        if line == self._status:
            return False
        self._status = line
        return self.send(f"STATUS={line}")

    def watchdog(self) -> bool:
        """``WATCHDOG=1``, at most once per half interval (call it every loop turn)."""
        now = self._clock()
        if now - self._last < self.interval:
            return False
        self._last = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")


def status_text(view: Any) -> str:
    """The game as one status line from the screen's view: ``scrabble, playing: Anna 120 (to move), Bo 98``.

    >>> from types import SimpleNamespace as V
    >>> status_text(V(game=V(value="scrabble"), screen=V(value="scoreboard"),
    ...               players=(V(name="Anna", score=120, to_move=True), V(name="Bo", score=98, to_move=False))))
    'scrabble, scoreboard: Anna 120 (to move), Bo 98'
    >>> status_text(V(game=V(value="scrabble"), screen=V(value="new_game"), players=()))
    'scrabble, new_game'
    """
    head = f"{getattr(view.game, 'value', view.game)}, {getattr(view.screen, 'value', view.screen)}"
    players = ", ".join(f"{p.name} {p.score}" + (" (to move)" if p.to_move else "") for p in view.players)
    return f"{head}: {players}" if players else head

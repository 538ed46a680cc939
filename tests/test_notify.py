# SPDX-License-Identifier: GPL-3.0-or-later
"""sd_notify over a real AF_UNIX datagram socket: READY, STATUS only when it changes, WATCHDOG paced."""

from __future__ import annotations

import socket
from types import SimpleNamespace as V

from device.notify import Notifier, status_text


def listen(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(2)
    return sock, str(path)


def test_status_lines_reach_systemd_once_per_change(tmp_path):
    sock, path = listen(tmp_path)
    times = iter([0.0, 1.0, 20.0])
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"}, clock=lambda: next(times))
    assert notifier.ready("playing")
    assert sock.recv(200) == b"READY=1\nSTATUS=playing"
    assert notifier.status("scrabble, scoreboard: Anna 120 (to move), Bo 98")
    assert not notifier.status("scrabble, scoreboard:  Anna 120 (to move),\nBo 98")  # same line once folded
    assert notifier.status("scrabble, confirm: Anna 120 (to move), Bo 98")
    assert sock.recv(200) == b"STATUS=scrabble, scoreboard: Anna 120 (to move), Bo 98"
    assert sock.recv(200) == b"STATUS=scrabble, confirm: Anna 120 (to move), Bo 98"
    # WATCHDOG=1 at most every half interval (15 s): at 0 s and 20 s, not at 1 s.
    assert [notifier.watchdog() for _ in range(3)] == [True, False, True]
    sock.close()


def test_without_a_socket_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.status("anything") and not notifier.ready()


def test_status_text_of_a_view():
    view = V(game=V(value="alfapet"), screen=V(value="scoreboard"),
             players=(V(name="Ann", score=3, to_move=False), V(name="Bo", score=40, to_move=True)))
    assert status_text(view) == "alfapet, scoreboard: Ann 3, Bo 40 (to move)"

# SPDX-License-Identifier: GPL-3.0-or-later
"""Free space while playing: the disk is looked at no more than every 30 s; while it is low the kiosk
shows a warning and the photo archive saves no photos (said once), and every move is still saved.
The free space is an injected disk-usage function; the moves are the demo game's photos through the flow."""

from __future__ import annotations

import logging
from pathlib import Path

from test_archive import RecordReader

from conftest import FakeTime, demo_game_settings, play_recorded_turn
from device.app import App
from device.archive import PhotoArchive
from device.demo import DEMO_DIR
from device.diskwatch import LOW_SPACE_BYTES, DiskWatch, Usage
from device.flow import Collaborators, Flow, State
from device.store import Store
from engine.moves import RackPoints
from hardware.camera import ReplayCamera

REF, SETTINGS = demo_game_settings()
MB = 2**20


class Disk:
    """A disk whose free space the test sets; counts how often it is asked."""

    def __init__(self, free: int) -> None:
        self.free = free
        self.asked = 0

    def __call__(self, folder: Path) -> Usage:
        self.asked += 1
        return Usage(self.free)


def test_the_disk_is_looked_at_no_more_than_every_interval() -> None:
    disk, now = Disk(500 * MB), FakeTime(0.0)
    watch = DiskWatch("/data", usage=disk, clock=now, interval_s=30)
    for _ in range(1000):  # a loop turn every 20 ms for 20 s
        assert not watch.low()
        now.t += 0.02
    assert disk.asked == 1
    disk.free = LOW_SPACE_BYTES - 1
    now.t += 11.0
    assert watch.low() and disk.asked == 2
    assert "only 64 MB free" in watch.describe() and "photos are not saved" in watch.describe()


def test_an_unreadable_disk_is_not_called_low() -> None:
    def gone(folder: Path) -> Usage:
        raise FileNotFoundError(folder)

    watch = DiskWatch("/gone", usage=gone, clock=FakeTime(0.0))
    assert not watch.low() and watch.free_bytes() is None


def test_low_space_mid_game_stops_photos_once_keeps_every_move_and_warns_on_screen(
    tmp_path: Path, caplog
) -> None:
    disk, now = Disk(900 * MB), FakeTime(1000.0)
    watch = DiskWatch(tmp_path, usage=disk, clock=now, interval_s=30)
    store = Store(tmp_path / "games.sqlite")
    camera = ReplayCamera(DEMO_DIR)
    archive = PhotoArchive(tmp_path, disk=watch)
    flow = Flow(Collaborators(store=store, camera=camera, reader=RecordReader(camera), now=now,
                              photo_archive=archive), auto_accept_s=0)
    app = App(flow, disk=watch)
    game_id = flow.new_game(SETTINGS)
    low_moves = range(8, 16)
    warned_at: list[int] = []
    caplog.set_level(logging.INFO, logger="ordvakt.archive")
    for seq, expected in enumerate(REF.events):
        if isinstance(expected.move, RackPoints):
            break
        if seq == low_moves.start:
            disk.free = 20 * MB
        elif seq == low_moves.stop:
            disk.free = 900 * MB
        now.t += 31.0  # a move every 31 s: the watch looks again before each
        app.step(wait_s=0)
        if any(n.key == "warn.disk_low" for n in flow.view().warnings):
            warned_at.append(seq)
        camera.position = seq
        play_recorded_turn(flow, expected)
    assert flow.state is State.END
    assert warned_at == list(low_moves)  # shown while low, gone once space is back
    photos = {int(p.stem.split("-")[1]) for p in (tmp_path / "photos" / f"game-{game_id}").glob("move-*.jpg")}
    played = len(flow.game.events)
    moves = next(i for i, e in enumerate(REF.events) if isinstance(e.move, RackPoints))  # then the end's racks
    assert photos == set(range(moves)) - set(low_moves)
    stopped = [r for r in caplog.records if "no longer saved" in r.getMessage()]
    assert len(stopped) == 1 and "20 MB free" in stopped[0].getMessage()  # said once for the whole spell
    assert sum("saved again" in r.getMessage() for r in caplog.records) == 1
    store.close()
    again = Store(tmp_path / "games.sqlite")  # every move saved, photo or not
    resumed = again.load(game_id).game
    assert resumed is not None and len(resumed.events) == played and resumed.scores == flow.game.scores
    assert [e.extra.get("photo") is None for e in resumed.events[:moves]] == [i in low_moves for i in range(moves)]
    again.close()

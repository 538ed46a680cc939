# SPDX-License-Identifier: GPL-3.0-or-later
"""A stand-in kiosk for club tests and benchmarks: plays a real record into a device database.

``python -m device.club.simulate --db FILE --gcg RECORD [--interval S]`` stores the record's events
one by one through :class:`device.store.Store`, exactly as the kiosk stores confirmed moves, and
marks the game finished at the end. Run again on the same database (after a ``kill -9``), it goes
on from the last stored event, as the kiosk resumes. With ``--config`` (a file with a ``[club]``
table) the same process also runs the club link, as a whole device would (kiosk and link), plays
each ``--gcg`` in turn as a new game, and ends once every message has been acknowledged.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from device.config import GameSettings
from device.store import Store
from engine.game import Game
from engine.gcg import parse_gcg, replay


def play_record(db: Path, gcg: Path, *, interval: float = 0.0, tiles: str | None = None,
                max_events: int | None = None, game_number: int = 1,
                stopped: Callable[[], bool] = lambda: False) -> int:
    """Store ``gcg``'s events into ``db`` (resuming an unfinished game); returns the number of events.

    ``game_number`` says which game of the database this record is: a finished game with that number
    means the record was already played (a restart after the end).
    """
    reference = replay(parse_gcg(gcg.read_bytes(), str(gcg)), tiles=tiles).game
    store = Store(db)
    try:
        games = sorted(store.games(), key=lambda g: g.id)  # oldest first: game N is this record's
        if len(games) >= game_number:
            if games[game_number - 1].finished:
                return len(reference.events)
            game_id = games[game_number - 1].id
        else:
            settings = GameSettings(players=tuple(reference.players), tileset=reference.rules.tileset.name)
            game_id = store.create_game(settings)
        stored = len(store.records(game_id))
        probe = Game(reference.rules, reference.players)
        probe.replay(reference.events[:stored])
        events = reference.events if max_events is None else reference.events[:max_events]
        for seq in range(stored, len(events)):
            if interval:
                time.sleep(interval)
            if stopped():
                return seq
            store.append_event(game_id, events[seq], probe.board, seq)
            probe.replay([events[seq]])
        if max_events is None:
            store.set_finished(game_id, True)
        return len(events)
    finally:
        store.close()


def run_device(db: Path, config: Path, records: list[Path], *, interval: float, stop: threading.Event,
               tiles: str | None = None) -> None:
    """One whole device: the club link in a thread and the stand-in kiosk playing ``records`` in turn.

    Returns once every record is played and every message acknowledged, or when ``stop`` is set.
    """
    from device.club.link import BoardLink
    from device.config import load_config

    Store(db).close()
    link = BoardLink(db, load_config(config).club_settings())
    link_stop = threading.Event()
    worker = threading.Thread(target=link.run, args=(link_stop,), name=f"club-link-{db.stem}")
    worker.start()
    # As on a real device, the link is up before the players start (a move stored earlier simply waits).
    link.connected.wait(30)
    try:
        for number, gcg in enumerate(records, 1):
            if stop.is_set():
                break
            play_record(db, gcg, interval=interval, tiles=tiles, game_number=number, stopped=stop.is_set)
        while not stop.is_set() and link.outbox_size() > 0:
            stop.wait(0.2)
    finally:
        link_stop.set()
        worker.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.club.simulate", description=__doc__)
    parser.add_argument("--db", type=Path, help="the device database")
    parser.add_argument("--gcg", type=Path, action="append", default=[], help="a record (repeat: played in turn)")
    parser.add_argument("--interval", type=float, default=0.0, help="seconds between moves")
    parser.add_argument("--tiles", default=None)
    parser.add_argument("--config", type=Path, help="also run the club link with this configuration's [club]")
    parser.add_argument("--spec", type=Path,
                        help="several devices in this process: a JSON list of {db, config, gcg: [...]}")
    parser.add_argument("--link-only", action="store_true",
                        help="with --spec: play nothing, only send what the outboxes hold, then end")
    args = parser.parse_args(argv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if args.spec is not None:
        devices = json.loads(args.spec.read_text(encoding="utf-8"))
        threads = [threading.Thread(target=run_device, args=(Path(d["db"]), Path(d["config"]),
                                                             [] if args.link_only else [Path(g) for g in d["gcg"]]),
                                    kwargs={"interval": args.interval, "stop": stop, "tiles": args.tiles})
                   for d in devices]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return 0
    if args.db is None or not args.gcg:
        parser.error("--db and --gcg are needed (or --spec)")
    if args.config is None:
        for number, gcg in enumerate(args.gcg, 1):
            play_record(args.db, gcg, interval=args.interval, tiles=args.tiles, game_number=number,
                        stopped=stop.is_set)
        return 0
    run_device(args.db, args.config, args.gcg, interval=args.interval, stop=stop, tiles=args.tiles)
    return 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""Kiosk soak: many replayed games in one process through the real app loop (flow, camera reading,
learning, storage, exports), as a kiosk left on for a season. Prints, per game and at the end, the
resident memory, open file descriptors, learned-tiles file and database size, and the RSS growth after
the first ``--warmup`` games (target: at most 5 %).

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/soak.py [--games 100] [--warmup 10] [--dir DIR]

The shipped demo game (25 photos, replay camera, auto-accept off) is played again and again; the
players' button presses and confirmations are the demo's. No delay between moves.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10, help="games before the RSS baseline is taken")
    parser.add_argument("--dir", type=Path, help="data folder (default: a fresh temporary one)")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    from device.app import App, build_flow
    from device.config import Config, GameSettings, UiSettings
    from device.demo import DEMO_DIR, Demo, demo_record
    from device.reading import VisionReader
    from device.store import open_store
    from hardware.camera import ReplayCamera

    data_dir = args.dir or Path(tempfile.mkdtemp(prefix="ordvakt-soak-"))
    _, reference = demo_record()
    ref = reference.game
    settings = GameSettings(game="scrabble", language="de", players=tuple(ref.players), rack_size=7, clock="chess",
                            minutes=25, challenge_rule="double", tileset="scrabble-de", board_profile="scrabscrap",
                            lettered_rows=True)
    store = open_store(data_dir)
    learned = data_dir / "learned" / "scrabble-de.tiles"
    reader = VisionReader(settings.board_profile, settings.rules().tileset, learned=learned)
    camera = ReplayCamera(DEMO_DIR)
    flow = build_flow(Config(game=settings, ui=UiSettings(auto_accept_s=0)), store, camera=camera, reader=reader,
                      export_dir=data_dir / "exports")
    app = App(flow, size=(800, 480), pointer="mouse")
    player = Demo(data_dir, headless=True, delay=0.0, screenshots=False, out=lambda line: None)
    print(f"soak: {args.games} games of {len(ref.events)} events in {data_dir}", flush=True)
    print("game  rss_mb  fds  learned_kb  db_kb  s/game  final", flush=True)
    baseline_rss = baseline_fds = None
    rss: list[float] = []
    fds: list[int] = []
    learned_sizes: list[int] = []
    learned_inodes: set[int] = set()  # a new inode = the file was rewritten whole (a compaction)
    for number in range(1, args.games + 1):
        started = time.perf_counter()
        game_id = flow.new_game(settings, meta={"soak": number})
        player.play_game(app, flow, camera, ref)
        store.export_gcg(game_id, data_dir / "exports" / "last.gcg")
        store.export_json(game_id, data_dir / "exports" / "last.json")
        gc.collect()
        rss.append(rss_mb())
        fds.append(open_fds())
        learned_sizes.append(learned.stat().st_size if learned.exists() else 0)
        if learned.exists():
            learned_inodes.add(learned.stat().st_ino)
        db = (data_dir / "games.sqlite").stat().st_size + sum(
            p.stat().st_size for p in data_dir.glob("games.sqlite-wal"))
        if number == args.warmup:
            baseline_rss, baseline_fds = rss[-1], fds[-1]
        scores = " ".join(map(str, flow.game.scores))
        print(f"{number:4d}  {rss[-1]:6.1f}  {fds[-1]:3d}  {learned_sizes[-1] / 1024:10.1f}  {db / 1024:5.0f}  "
              f"{time.perf_counter() - started:6.1f}  {scores}", flush=True)
    store.close()
    if baseline_rss is None:
        print(f"fewer than {args.warmup} games: no growth figure")
        return 0
    after = rss[args.warmup - 1:]
    growth = (max(after) - baseline_rss) / baseline_rss * 100
    final_growth = (rss[-1] - baseline_rss) / baseline_rss * 100
    print(f"rss after game {args.warmup}: {baseline_rss:.1f} MB; max after it {max(after):.1f} MB "
          f"(+{growth:.1f} %), last {rss[-1]:.1f} MB ({final_growth:+.1f} %)")
    print(f"fds after game {args.warmup}: {baseline_fds}; min/max after it {min(fds[args.warmup - 1:])}/"
          f"{max(fds[args.warmup - 1:])}")
    print(f"learned tiles file: max {max(learned_sizes) / 1024:.1f} kB, last {learned_sizes[-1] / 1024:.1f} kB, "
          f"rewritten whole (compacted) at least {len(learned_inodes) - 1} times in {args.games} games, "
          "appended otherwise")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""The live page under a crowd: 200 viewers on loopback while a recorded game is written into the store.

Run: ``.venv/bin/python bench/live.py [--viewers 200] [--interval 0.5] [--nice N]``. Bounded and
self-stopping (everything it starts is stopped after at most ``--limit`` seconds), loopback only.

1. ``ordvakt live`` runs as its own process on 127.0.0.1 over a fresh database (as on the device).
2. The shipped demo game is written into the store move by move, as the kiosk writes it. During the
   first half nobody watches; during the second half ``--viewers`` server-sent-event clients (in a
   separate process) watch. For each move confirmed while they watch, the time from the commit to its
   arrival at every viewer is measured: p50 / p99 / max.
3. Between moves the kiosk's screen is rendered as ``bench/ui.py`` does (the scoreboard at 800×480,
   a new clock text every frame) in this process: the frame time without and with the viewers.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# bench/ itself must not be on the path: bench/engine.py would shadow the engine package.
sys.path[:] = [str(REPO)] + [p for p in sys.path if Path(p or ".").resolve() != REPO / "bench"]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

_SEQ = re.compile(rb'"seq":(\d+)')
_BUILT = re.compile(rb'"server_time":([0-9.]+)')


# -- the viewers (a child process) -----------------------------------------------------------------

class _Viewer(asyncio.Protocol):
    """One SSE viewer, as light as a test client can be: raw bytes in, the time each state number arrives."""

    def __init__(self, received: dict[int, float], built: dict[int, float], ready: asyncio.Event) -> None:
        self.received, self.built, self.ready = received, built, ready
        self.buffer = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(b"GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        *events, self.buffer = self.buffer.split(b"\n\n")
        for event in events:
            match = _SEQ.search(event)
            if match:
                self.received.setdefault(int(match[1]), now)
                if stamp := _BUILT.search(event):
                    self.built.setdefault(int(match[1]), float(stamp[1]))
                self.ready.set()


async def _viewers(port: int, count: int, out: Path, limit_s: float) -> None:
    received: list[dict[int, float]] = [{} for _ in range(count)]
    built: dict[int, float] = {}
    readies = [asyncio.Event() for _ in range(count)]
    loop = asyncio.get_running_loop()
    transports = [(await loop.create_connection(lambda i=i: _Viewer(received[i], built, readies[i]),
                                                "127.0.0.1", port))[0] for i in range(count)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
    print("ready", flush=True)
    done = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, done.set)
    try:
        await asyncio.wait_for(done.wait(), limit_s)
    except TimeoutError:
        pass
    for transport in transports:
        transport.close()
    out.write_text(json.dumps({"received": [{str(k): v for k, v in r.items()} for r in received],
                               "built": {str(k): v for k, v in built.items()}}))


# -- the kiosk's frame ------------------------------------------------------------------------------

class Frames:
    """Renders the kiosk's scoreboard the way bench/ui.py does and keeps each frame's time."""

    def __init__(self) -> None:
        import pygame

        from device.ui.gallery import sample_views
        from device.ui.renderer import Renderer

        spec = importlib.util.spec_from_file_location("bench_ui", REPO / "bench" / "ui.py")
        assert spec is not None and spec.loader is not None
        ui = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ui)
        self.tick = ui.tick
        pygame.init()
        self.view = sample_views(REPO.parent / "shared" / "data")["scoreboard"]
        self.renderer = Renderer((800, 480))
        self.target = pygame.Surface((800, 480))
        self.i = 0

    def run(self, seconds: float, into: list[float]) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            view = self.tick(self.view, self.i % 1500)
            self.i += 1
            t0 = time.perf_counter()
            self.renderer.render(view, self.target)
            into.append((time.perf_counter() - t0) * 1000)
            time.sleep(1 / 60)  # the kiosk draws at most at the display's rate


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--viewer-processes", type=int, default=4, metavar="N",
                    help="processes the viewers are spread over (default 4)")
    ap.add_argument("--interval", type=float, default=0.5, help="seconds between confirmed moves")
    ap.add_argument("--limit", type=float, default=120.0, help="stop everything after this many seconds")
    ap.add_argument("--nice", type=int, default=None, metavar="N",
                    help="run this bench, its server and viewers at niceness N (e.g. -10 as root on a shared, "
                         "loaded machine, so the figures are about Ordvakt and not about the other processes)")
    ap.add_argument("--child", nargs=3, metavar=("PORT", "COUNT", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        asyncio.run(_viewers(int(args.child[0]), int(args.child[1]), Path(args.child[2]), args.limit))
        return 0

    if args.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # inherited by the server and the viewers
    from device.config import GameSettings
    from device.demo import demo_record
    from device.live.feed import StoreFeeder
    from device.store import Store

    ref = demo_record()[1].game
    settings = GameSettings(language="de", players=tuple(ref.players), tileset="scrabble-de", lettered_rows=True,
                            clock="chess", minutes=25)
    deadline = time.monotonic() + args.limit
    started: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory(prefix="ordvakt-live-bench-") as folder:
        db = Path(folder) / "games.sqlite"
        store = Store(db)
        feeder = StoreFeeder(store, settings, ref.events)
        feeder.start()
        try:
            server = subprocess.Popen([sys.executable, "-m", "device.cli", "live", "--db", str(db), "--host",
                                       "127.0.0.1", "--port", "0", "--max-viewers", str(args.viewers + 16)],
                                      cwd=REPO, stdout=subprocess.PIPE, text=True)
            started.append(server)
            assert server.stdout is not None
            port = int(re.search(r":(\d+)/", server.stdout.readline())[1])  # type: ignore[index]
            frames = Frames()
            half = len(ref.events) // 2
            quiet_frames: list[float] = []
            watched_frames: list[float] = []
            commits: dict[int, float] = {}
            commit_ms: list[float] = []

            def play(moves: int, frame_times: list[float]) -> None:
                for _ in range(moves):
                    if feeder.done or time.monotonic() > deadline:
                        return
                    # Taken before the commit: a delay in this (loaded) process after it cannot hide latency.
                    commits[feeder.seq + 1] = time.time()
                    feeder.step()
                    commit_ms.append((time.time() - commits[feeder.seq]) * 1000)
                    frames.run(args.interval, frame_times)

            print(f"server pid {server.pid} on 127.0.0.1:{port}; {len(ref.events)} moves, {args.interval} s apart; "
                  f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
                  f"niceness {os.getpriority(os.PRIO_PROCESS, 0)}")
            frames.run(1.0, [])  # warm-up: fonts, caches
            play(half, quiet_frames)
            # The viewers are many devices, not one: a few processes share them (each its own event loop).
            groups = [args.viewers // args.viewer_processes + (i < args.viewers % args.viewer_processes)
                      for i in range(args.viewer_processes)]
            outs = [Path(folder) / f"viewers-{i}.json" for i in range(len(groups))]
            children = []
            for count, out in zip(groups, outs, strict=True):
                child = subprocess.Popen([sys.executable, __file__, "--child", str(port), str(count), str(out),
                                          "--limit", str(args.limit)], cwd=REPO, stdout=subprocess.PIPE, text=True)
                started.append(child)
                children.append(child)
            for child in children:
                assert child.stdout is not None
                if child.stdout.readline().strip() != "ready":
                    print("the viewers did not all connect", file=sys.stderr)
                    return 1
            cpu_before = _cpu_s(server.pid)
            first_watched = feeder.seq + 1
            play(len(ref.events), watched_frames)
            cpu_used = _cpu_s(server.pid) - cpu_before
            time.sleep(1.0)  # the last move's way to every viewer
            received, built = [], {}
            for child, out in zip(children, outs, strict=True):
                child.send_signal(signal.SIGTERM)
                child.wait(timeout=30)
                result = json.loads(out.read_text())
                received += result["received"]
                built.update(result["built"])
        finally:
            for process in started:
                if process.poll() is None:
                    process.terminate()
                    try:
                        process.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        process.kill()
            store.close()

    latencies = []
    missing = 0
    for viewer in received:
        for seq in range(first_watched, feeder.seq + 1):
            got = viewer.get(str(seq))
            if got is None:
                # A viewer skips a state only when a newer one was already on its way (queue of one).
                later = [t for s, t in viewer.items() if int(s) > seq]
                if not later:
                    missing += 1
                    continue
                got = min(later)
            latencies.append((got - commits[seq]) * 1000)
    moves_watched = feeder.seq - first_watched + 1
    to_server = [(built[str(seq)] - commits[seq]) * 1000 for seq in range(first_watched, feeder.seq + 1)
                 if str(seq) in built]
    print(f"viewers: {len(received)}; moves confirmed while watched: {moves_watched}; "
          f"deliveries: {len(latencies)} (missing {missing})")
    if latencies:
        p99 = percentile(latencies, 0.99)
        print(f"commit -> viewer: p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, "
              f"max {max(latencies):.1f} ms (target p99 <= 300 ms: {'OK' if p99 <= 300 else 'OVER'})")
    spread = []
    for seq in range(first_watched, feeder.seq + 1):
        times = [v[str(seq)] for v in received if str(seq) in v]
        if times:
            spread.append(((min(times) - commits[seq]) * 1000, (max(times) - commits[seq]) * 1000))
    if spread:
        print(f"  per move, first viewer p50 {statistics.median(a for a, _ in spread):.1f} ms, "
              f"last viewer p50 {statistics.median(b for _, b in spread):.1f} ms")
    print(f"  the commit itself (SQLite, synchronous=FULL): p50 {statistics.median(commit_ms):.1f} ms")
    if to_server:
        print(f"  of which commit -> state built by the server: p50 {statistics.median(to_server):.1f} ms, "
              f"max {max(to_server):.1f} ms")
    print(f"server CPU while watched: {cpu_used:.2f} s over {moves_watched * args.interval:.1f} s")
    for name, times in (("no viewers", quiet_frames), (f"{len(received)} viewers", watched_frames)):
        print(f"kiosk frame 800x480, {name:<12}: median {statistics.median(times):.2f} ms, "
              f"p90 {percentile(times, 0.9):.2f} ms ({len(times)} frames)")
    return 0 if latencies and not missing else 1


if __name__ == "__main__":
    raise SystemExit(main())

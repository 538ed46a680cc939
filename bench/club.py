# SPDX-License-Identifier: GPL-3.0-or-later
"""Club mode under load and faults, on loopback only; bounded in time and self-stopping.

``python bench/club.py [--boards 60] [--minutes 5] [--speed 10]`` starts a private Mosquitto (TLS,
per-board credentials, ACL), a director, and one process per board that plays real records (the
woogles games in ../shared/data) into its own database and runs the club link, as a device does.
Faults, unless ``--no-faults``: the broker is killed (-9) for 30 s in the middle; a few devices are
killed (-9) at random and restarted; a few boards reach the broker through a proxy that drops their
network for 30 s. At the end it checks, per board, that the director holds every stored event
exactly once in sequence order, and prints end-to-end latency (device commit → director) and the
memory of broker and director over time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from device.club.broker import free_port, start_broker, write_broker_config  # noqa: E402
from device.club.director import Director, subscribe  # noqa: E402
from device.store import Store  # noqa: E402

WOOGLES = ROOT.parent / "shared" / "data" / "gcg" / "woogles"


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


class CuttableProxy:
    """A TCP proxy on loopback whose traffic can be cut (connections dropped, new ones refused)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.stop = threading.Event()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                continue
            if self.cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        sel = selectors.DefaultSelector()
        sel.register(a, selectors.EVENT_READ, b)
        sel.register(b, selectors.EVENT_READ, a)
        try:
            while not self.cut.is_set() and not self.stop.is_set():
                for key, _ in sel.select(timeout=0.2):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            pass
        finally:
            sel.close()
            a.close()
            b.close()

    def drop(self, seconds: float) -> None:
        self.cut.set()
        time.sleep(seconds)
        self.cut.clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--speed", type=float, default=10.0, help="times faster than a 25-minute game")
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--outage", type=float, default=30.0, help="seconds the broker / a network is away")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-process", type=int, default=10,
                        help="devices simulated per process (a kill -9 takes down all of them at once)")
    args = parser.parse_args()
    if not WOOGLES.is_dir():
        print(f"shared data missing: {WOOGLES}")
        return 2
    records = sorted(WOOGLES.glob("*.gcg"))
    rng = random.Random(args.seed)
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    work = Path(tempfile.mkdtemp(prefix="ordvakt-club-bench-"))
    boards = [f"board{n:02d}" for n in range(1, args.boards + 1)]
    files = write_broker_config(work / "broker", "bench", boards, port=free_port(), bind="127.0.0.1",
                                hosts=["localhost", "127.0.0.1"])
    broker = {"p": start_broker(files)}
    # A 25-minute game of ~28 events, played args.speed times faster.
    interval = 25 * 60 / 28 / args.speed
    games_per_board = max(1, int(args.minutes * 60 / (28 * interval)) + 1)

    import paho.mqtt.client as mqtt

    director = Director(work / "club.sqlite", "bench")
    dclient = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2, client_id="bench-director",
                          clean_session=False, protocol=mqtt.MQTTv311)
    dclient.username_pw_set("director", files.passwords["director"])
    dclient.tls_set(ca_certs=str(files.ca_file))
    subscribe(director, dclient)
    dclient.connect_async("localhost", files.port)
    dclient.loop_start()

    proxied = set(rng.sample(boards, min(3, len(boards)))) if not args.no_faults else set()
    proxies = {b: CuttableProxy(files.port) for b in proxied}
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    specs: list[Path] = []
    group: list[dict] = []
    for index, board in enumerate(boards):
        secret = work / f"{board}.password"
        secret.write_text(files.passwords[board] + "\n")
        port = proxies[board].port if board in proxies else files.port
        config = work / f"{board}.toml"
        config.write_text(f'[club]\nenabled = true\nevent = "bench"\nboard = "{board}"\nhost = "localhost"\n'
                          f'port = {port}\nca_file = "{files.ca_file}"\npassword_file = "{secret}"\n')
        games = [str(records[(index * games_per_board + g) % len(records)]) for g in range(games_per_board)]
        group.append({"db": str(work / f"{board}.sqlite"), "config": str(config), "gcg": games})
        if len(group) == args.per_process or index == len(boards) - 1:
            spec = work / f"devices-{len(specs) + 1:02d}.json"
            spec.write_text(json.dumps(group))
            specs.append(spec)
            group = []

    def launch(spec: Path, *extra: str) -> subprocess.Popen:
        command = [sys.executable, "-m", "device.club.simulate", "--spec", str(spec), "--interval",
                   f"{interval:.3f}", *extra]
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=open(work / f"{spec.stem}.log", "ab"))  # noqa: SIM115

    devices = {spec: launch(spec) for spec in specs}
    start = time.monotonic()
    deadline = start + args.minutes * 60
    memory: list[tuple[float, float, float]] = []
    fault_windows: list[tuple[float, float]] = []
    faults_done = {"broker": False, "network": False}
    kills = 0
    print(f"{len(boards)} boards in {len(specs)} processes, one move per board every {interval:.1f} s, "
          f"{games_per_board} games each, {args.minutes} min; work dir {work}", flush=True)
    try:
        while time.monotonic() < deadline:
            elapsed = time.monotonic() - start
            if int(elapsed) % 10 == 0:
                memory.append((elapsed, rss_mb(broker["p"].pid), rss_mb(os.getpid())))
            if not args.no_faults:
                if not faults_done["broker"] and elapsed > args.minutes * 60 * 0.4:
                    faults_done["broker"] = True
                    t0 = time.time()
                    broker["p"].send_signal(signal.SIGKILL)
                    broker["p"].wait()
                    print(f"  broker killed at {elapsed:.0f} s for {args.outage:.0f} s", flush=True)
                    time.sleep(args.outage)
                    broker["p"] = start_broker(files)
                    fault_windows.append((t0, time.time() + 5))
                if not faults_done["network"] and elapsed > args.minutes * 60 * 0.2:
                    faults_done["network"] = True
                    t0 = time.time()
                    threads = [threading.Thread(target=p.drop, args=(args.outage,)) for p in proxies.values()]
                    for t in threads:
                        t.start()
                    print(f"  network of {', '.join(sorted(proxied))} dropped for {args.outage:.0f} s", flush=True)
                    fault_windows.append((t0, time.time() + args.outage + 5))
                if rng.random() < 0.02:
                    spec = rng.choice(specs)
                    if devices[spec].poll() is None:
                        devices[spec].send_signal(signal.SIGKILL)
                        devices[spec].wait()
                        kills += 1
                        time.sleep(0.3)
                        devices[spec] = launch(spec)
            time.sleep(1.0)
    finally:
        print(f"  time is up after {time.monotonic() - start:.0f} s ({kills} device processes killed -9); "
              "stopping the players and letting the outboxes drain", flush=True)
        for process in devices.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in devices.values():
            try:
                process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        # Drain: the links alone send whatever the outboxes still hold (after kills), then end by themselves.
        drain = [launch(spec, "--link-only") for spec in specs]
        for process in drain:
            try:
                process.wait(timeout=300)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        time.sleep(2)
        dclient.loop_stop()
        dclient.disconnect()
        broker["p"].terminate()
        broker["p"].wait(timeout=10)

    # Exactly once, in order, and equal to what each device stored.
    lost = doubled = wrong = wrong_results = 0
    events_total = 0
    for board in boards:
        messages = director.moves(board)
        seqs = [m["seq"] for m in messages]
        expected_count = _outbox_max(work / f"{board}.sqlite")
        if seqs != list(range(1, expected_count + 1)):
            missing = set(range(1, expected_count + 1)) - set(seqs)
            lost += len(missing)
            doubled += len(seqs) - len(set(seqs))
        with Store(work / f"{board}.sqlite") as store:
            stored = [(g.id, r["player"], r["score"], r["cumulative"]) for g in reversed(store.games())
                      for r in store.records(g.id)]
        got = [(m["game"], m["player"], m["score"], m["cumulative"]) for m in messages if m["type"] == "move"]
        events_total += len(stored)
        if got != stored:
            wrong += 1
        with Store(work / f"{board}.sqlite") as store:
            finished = {g.id: store.load(g.id).game.scores for g in store.games() if g.finished}
        reported = {int(r["game"]): r["scores"] for r in director.results() if r["board"] == board}
        if reported != finished:
            wrong_results += 1
    latencies = director.stats.latencies_ms
    print(f"moves stored on the devices: {events_total}; messages received by the director: "
          f"{director.stats.received} (+{director.stats.duplicates} duplicates dropped by sequence number, "
          f"{director.stats.gaps} gaps asked again)")
    print(f"lost: {lost}, doubled: {doubled}, boards whose move list differs from the device: {wrong}, "
          f"boards whose final results differ: {wrong_results} ({len(director.results())} results, "
          f"standings of {len(director.standings())} players)")
    if latencies:
        q = statistics.quantiles(latencies, n=100)
        print(f"end-to-end latency (device commit -> director), all messages: p50 {q[49]:.0f} ms, "
              f"p99 {q[98]:.0f} ms, n {len(latencies)}")
    normal = _latencies_outside(director, fault_windows)
    if normal:
        q = statistics.quantiles(normal, n=100)
        print(f"  outside the fault windows: p50 {q[49]:.0f} ms, p99 {q[98]:.0f} ms, n {len(normal)}")
    if memory:
        first, last = memory[0], memory[-1]
        print("memory (MB): " + ", ".join(f"{t:.0f}s broker {b:.1f} director {d:.1f}" for t, b, d in memory[::6]))
        print(f"broker RSS {first[1]:.1f} -> {last[1]:.1f} MB; director process RSS {first[2]:.1f} -> "
              f"{last[2]:.1f} MB")
    return 0 if lost == doubled == wrong == wrong_results == 0 else 1


def _outbox_max(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db, timeout=10) as con:
        return int(con.execute("SELECT COALESCE(MAX(id), 0) FROM club_outbox").fetchone()[0])


def _latencies_outside(director: Director, windows: list[tuple[float, float]]) -> list[float]:
    out = []
    for (payload,) in director.db.execute("SELECT payload FROM moves"):
        import json

        data = json.loads(payload)
        created = data.get("created_ms", 0) / 1000.0
        if any(a <= created <= b for a, b in windows):
            continue
        received = director.db.execute("SELECT received FROM moves WHERE board = ? AND epoch = ? AND seq = ?",
                                       (data["board"], data["epoch"], data["seq"])).fetchone()[0]
        out.append((received - created) * 1000.0)
    return out


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""Move generation speed: median and p95 per position, without a blank and with one blank.

15×15: the positions before each move of the real woogles.io games (../shared/data/gcg/woogles) with the player's
recorded rack, judged by the en list; the one-blank runs turn one letter of the same racks into a blank.
17×17: Alfapet positions (provisional map, minus squares on, 8-tile racks) reached by playing random good moves
from seeded random racks, judged by the sv list. Also the word graph's load time.
Targets (issue 16): median <= 10 ms and p95 <= 40 ms without a blank, median <= 150 ms with one blank, load <= 100 ms.
Per position: the CPU time of the generate_moves() call; the mean over the whole loop (collector included: the
generator pauses the cyclic collector while it works, so part of its cost lands after the call) is printed beside it.
The 15×15 no-blank run starts on a freshly loaded graph (no node looked at yet, as one ``ordvakt best`` call: each
node first reached costs a small dict), the 17×17 runs on the graph that played their games. On a shared machine
compare runs by the reference loop's time printed first (it varied 35–63 ms within minutes here).

    .venv/bin/python bench/movegen.py [--positions N] [--oracle N]

``--oracle N`` also checks the generator against the brute-force oracle of tests/test_movegen.py on N more random
positions per layout (seeds after those pytest runs) and prints the counts.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from device.paths import lexicon_dir  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.gcg import LineKind, parse_gcg, replay, rules_for  # noqa: E402
from engine.lexicon.build import default_list_path  # noqa: E402
from engine.lexicon.trie import open_list  # noqa: E402
from engine.lexicon.wordgraph import WordGraph, graph_for, graph_path  # noqa: E402
from engine.movegen import best_moves, generate_moves  # noqa: E402
from engine.rules import Rules  # noqa: E402

WOOGLES = REPO.parent / "shared" / "data" / "gcg" / "woogles"


def graph(lang: str) -> WordGraph:
    return graph_for(open_list(default_list_path(lexicon_dir(), lang)))


def woogles_positions(limit: int) -> list[tuple[Board, str, Rules]]:
    """(board before the move, rack without a blank, rules) from the real games, spread over all of them."""
    positions = []
    for path in sorted(WOOGLES.glob("*.gcg")):
        record = parse_gcg(path.read_bytes(), str(path))
        try:
            game = replay(record).game
        except EngineError:
            continue
        rules = rules_for(record)
        plays = [i for i, line in enumerate(record.lines) if line.kind is LineKind.PLAY]
        for i in plays:
            line = record.lines[i]
            if line.rack and "?" not in line.rack and len(line.rack) == 7:
                positions.append((game.board_after(i), line.rack, rules))
    random.Random(16).shuffle(positions)
    return positions[:limit]


def alfapet_positions(limit: int, words: WordGraph) -> list[tuple[Board, str, Rules]]:
    """Mid-game 17×17 positions: seeded games of random good moves (one of the ten best each turn)."""
    rules = Rules.alfapet("sv", rack_size=8)
    bag_letters = [letter for letter, n in rules.tileset.counts.items() for _ in range(n)]
    positions: list[tuple[Board, str, Rules]] = []
    seed = 0
    while len(positions) < limit:
        rng = random.Random(seed)
        seed += 1
        board = Board(17)
        bag = bag_letters[:]
        rng.shuffle(bag)
        for turn in range(rng.randrange(3, 16)):
            rack = "".join(bag[:8])
            moves = generate_moves(board, rack, rules, words)
            if not moves:
                break
            move = rng.choice(best_moves(moves, 10))
            for tile in move.placement().letter_tiles:
                board[tile.square] = tile.cell
                bag.remove(tile.letter)
            if turn >= 2:
                positions.append((board.copy(), "".join(bag[8:16]), rules))
            if len(positions) >= limit:
                break
    return positions[:limit]


def with_one_blank(rack: str, rng: random.Random) -> str:
    i = rng.randrange(len(rack))
    return rack[:i] + "?" + rack[i + 1:]


def measure(positions, words: WordGraph) -> tuple[list[float], list[float], int, float]:
    """Wall and CPU (this process) milliseconds per position, the moves found, and the CPU milliseconds of the
    whole loop per position (with what the cyclic collector does between calls: the generator pauses it)."""
    wall, cpu = [], []
    count = 0
    moves: list = []
    loop_started = time.process_time()
    for board, rack, rules in positions:
        started, started_cpu = time.perf_counter(), time.process_time()
        moves = generate_moves(board, rack, rules, words)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        count += len(moves)
    del moves
    gc.collect()
    return wall, cpu, count, (time.process_time() - loop_started) * 1000 / max(1, len(positions))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def report(name: str, wall: list[float], cpu: list[float], count: int, loop_mean: float) -> None:
    print(f"{name:<36} n={len(wall):<4} cpu median {statistics.median(cpu):6.1f} ms p95 {percentile(cpu, 0.95):6.1f} ms"
          f" mean {statistics.mean(cpu):6.1f} ms (whole loop {loop_mean:6.1f} ms)"
          f" | wall median {statistics.median(wall):6.1f} ms p95 {percentile(wall, 0.95):6.1f} ms"
          f" | moves/position {count / len(wall):6.0f}")


def reference_ms() -> float:
    """CPU milliseconds of a fixed pure-Python loop (median of 5): scales the figures to another machine or load."""
    times = []
    for _ in range(5):
        started = time.process_time()
        total = 0
        for i in range(1_000_000):
            total += i
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def load_times(lang: str) -> None:
    path = graph_path(default_list_path(lexicon_dir(), lang))
    graph(lang)  # built if missing
    times = []
    for _ in range(7):
        started = time.perf_counter()
        WordGraph.load(path)
        times.append((time.perf_counter() - started) * 1000)
    print(f"word graph load {lang}: median {statistics.median(times):.1f} ms ({path.stat().st_size / 2**20:.1f} MiB)")


def oracle(count: int) -> None:
    spec = importlib.util.spec_from_file_location("test_movegen", REPO / "tests" / "test_movegen.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    first = module.POSITIONS
    for name, make in (("classic 15x15", module.classic), ("alfapet 17x17", module.alfapet)):
        started = time.perf_counter()
        positions, moves = module.check_positions(make, range(first, first + count))
        print(f"oracle {name}: {positions} positions equal ({moves} moves compared), "
              f"{time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60, help="positions per measurement (default 60)")
    parser.add_argument("--oracle", type=int, default=0, help="also run the oracle on this many more positions")
    args = parser.parse_args()
    if args.positions <= 0:  # --positions 0 --oracle N: only the oracle
        oracle(args.oracle)
        return
    rng = random.Random(1)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times include waiting for the CPU); "
          f"reference: a 1M-step Python loop takes {reference_ms():.0f} ms CPU here")
    for lang in ("en", "sv"):
        try:
            load_times(lang)
        except EngineError as exc:
            print(f"word graph {lang}: {exc}")
    try:
        en = graph("en")
        positions = woogles_positions(args.positions)
        report("15x15 en woogles, no blank", *measure(positions, en))
        report("15x15 en woogles, one blank", *measure(
            [(b, with_one_blank(r, rng), rules) for b, r, rules in positions], en))
    except EngineError as exc:
        print(f"15x15: {exc}")
    sv = graph("sv")
    positions = alfapet_positions(args.positions, sv)
    report("17x17 sv alfapet 8 tiles, no blank", *measure(positions, sv))
    report("17x17 sv alfapet 8 tiles, one blank", *measure(
        [(b, with_one_blank(r, rng), rules) for b, r, rules in positions], sv))
    if args.oracle:
        oracle(args.oracle)


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: GPL-3.0-or-later
"""Median frame render time of the main UI screens (target: ≤ 5 ms at 800×480).

Run: ``.venv/bin/python bench/ui.py [--frames N] [--shared ../shared/data]``. Renders each screen
repeatedly from a View built from a real mid-game board, with the clock reading changing every
second (so the clock text is re-rendered each frame, not served from the cache). The fastest frame
is printed too: on a shared, loaded machine the median measures the load as much as the code.

The last line is a whole frame of the confirm screen as the kiosk makes it: the flow's TICK, its
``view()`` and the render, with a camera proposal pending (the view is cached on the game and the
proposal, so no frame replays or re-scores the game).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# bench/ itself must not be on the path: bench/engine.py would shadow the engine package.
sys.path[:] = [str(REPO)] + [p for p in sys.path if Path(p or ".").resolve() != REPO / "bench"]

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from device.ui.gallery import DEFAULT_GCG, sample_views  # noqa: E402
from device.ui.renderer import Renderer  # noqa: E402
from device.ui.view import ClockReading, View  # noqa: E402

MAIN = ("scoreboard", "confirm", "judge", "verdict-no", "alfapet", "ordskifte", "keywords-playing", "keywords-entry")


def tick(view: View, i: int) -> View:
    """The same view i seconds later: every frame has a new clock text to render (worst case)."""
    if view.players and view.players[0].clock is not None:
        players = tuple(replace(p, clock=replace(p.clock, remaining_ms=p.clock.remaining_ms - 1000 * i))
                        if p.clock else p for p in view.players)
        return replace(view, players=players)
    if view.ordskifte is not None and view.ordskifte.timer is not None:
        t = view.ordskifte.timer
        return replace(view, ordskifte=replace(view.ordskifte, timer=replace(
            t, reading=ClockReading(t.reading.remaining_ms - 1000 * i, t.reading.state))))
    if view.keywords is not None and view.keywords.timer is not None:
        t = view.keywords.timer
        return replace(view, keywords=replace(view.keywords, timer=replace(
            t, reading=ClockReading(t.reading.remaining_ms - 1000 * i, t.reading.state))))
    return view


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared" / "data")
    args = ap.parse_args()
    if not (args.shared / DEFAULT_GCG).exists():
        print(f"missing {args.shared / DEFAULT_GCG}: pass --shared DIR", file=sys.stderr)
        return 2
    pygame.init()
    views = sample_views(args.shared)
    print(f"{'screen':<18} {'size':>9} {'first ms':>9} {'median ms':>10} {'p90 ms':>8} {'min ms':>8}")
    worst = 0.0
    for size in ((800, 480), (720, 1280)):
        r = Renderer(size)
        target = pygame.Surface(size)
        for name in MAIN:
            view = views[name]
            t0 = time.perf_counter()
            r.render(view, target)
            first = (time.perf_counter() - t0) * 1000
            frames = [tick(view, i) for i in range(args.frames)]
            times = []
            for v in frames:
                t0 = time.perf_counter()
                r.render(v, target)
                times.append((time.perf_counter() - t0) * 1000)
            med = statistics.median(times)
            p90 = sorted(times)[int(len(times) * 0.9)]
            if size == (800, 480):
                worst = max(worst, med)
            print(f"{name:<18} {size[0]}x{size[1]:<5} {first:9.2f} {med:10.2f} {p90:8.2f} {min(times):8.2f}")
    print(f"worst median at 800x480: {worst:.2f} ms (target 5 ms): {'OK' if worst <= 5 else 'OVER'}")
    times = flow_frames(args.frames)
    print(f"{'confirm (flow)':<18} {'800x480':>9} {'':9} {statistics.median(times):10.2f} "
          f"{sorted(times)[int(len(times) * 0.9)]:8.2f} {min(times):8.2f}")
    return 0


def flow_frames(n: int) -> list[float]:
    """Milliseconds per kiosk frame (TICK, view, render) with a camera proposal on the confirm screen."""
    import tempfile

    from device.flow import Collaborators, EventKind, Flow, FlowEvent, Reading, ReadKind, ReadTile
    from device.store import Store
    from engine.squares import Square

    class OneMove:
        def read(self, frame, game):  # noqa: ANN001, ANN202 - the flow's reader protocol
            tiles = tuple(ReadTile(Square(7, 5 + i), ch) for i, ch in enumerate("WORD"))
            return Reading(ReadKind.PLACEMENT, tiles, confident=False)

        def learn(self, reading, placement) -> None:  # noqa: ANN001
            pass

    class StillCamera:
        def best_still(self, timeout_s: float = 1.0) -> int:
            return 0

    from device.config import GameSettings

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite")
        flow = Flow(Collaborators(store=store, camera=StillCamera(), reader=OneMove()), auto_accept_s=0)
        flow.new_game(GameSettings(language="en", players=("Ann", "Bo"), clock="chess"))
        flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
        r = Renderer((800, 480))
        target = pygame.Surface((800, 480))
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            flow.handle(FlowEvent(EventKind.TICK))
            r.render(flow.view(), target)
            times.append((time.perf_counter() - t0) * 1000)
        store.close()
    return times


if __name__ == "__main__":
    raise SystemExit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt demo``: a real recorded game through the whole pipeline, played honestly.

Photos (replay camera) -> vision proposal -> confirm screen -> engine -> store, with the UI drawn
for every step. The demo acts as the players and does only what a person at the table would: press
their button when the record says they moved, name a blank's letter, type an exchange, type the end
racks. Whatever the camera read is what gets confirmed; when the reading is wrong the player has to
step in as on the device (tap a tile and pick the letter, or go back and type the move) and the demo
counts that as a correction. It ends with ``camera: N/M moves read right, K corrected`` and the
final line, and exits 1 when the camera needed a correction. Every move is printed only after it is
committed, so a killed demo resumes where it stopped.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.app import App, build_flow, load_renderer
from device.config import Config, GameSettings, UiSettings
from device.flow import EventKind, Flow, FlowEvent, State, describe
from device.store import open_store
from device.texts import english
from engine.game import Game, GameEvent
from engine.gcg import parse_gcg, replay
from engine.moves import Exchange, Pass, Placement, RackPoints

DEMO_DIR = Path(__file__).parent / "data" / "demo"


def demo_record(folder: Path = DEMO_DIR):
    files = sorted(folder.glob("*.gcg"))
    if not files:
        from device.errors import DeviceError

        raise DeviceError(f"no demo game in {str(folder)!r}: the .gcg record and image-N.jpg photos are missing")
    record = parse_gcg(files[0].read_bytes(), str(files[0]))
    return files[0], replay(record, tiles="de", lettered_rows=True)


class Demo:
    def __init__(self, data_dir: Path, *, headless: bool, delay: float, screenshots: bool,
                 out: Callable[[str], None] = print) -> None:
        self.data_dir = data_dir
        self.headless = headless
        self.delay = delay
        self.screenshots = screenshots
        self.out = out
        self.shots: list[Path] = []
        #: Moves the camera was asked to read, and those a player had to correct or type.
        self.asked = 0
        self.corrected = 0

    def make_reader(self, settings: GameSettings) -> tuple[Any, str]:
        """The camera's move reader (tests substitute a broken one); (None, why) without vision."""
        return self._reader(settings)

    def run(self) -> int:
        path, reference = demo_record()
        ref = reference.game
        settings = GameSettings(game="scrabble", language="de", players=tuple(ref.players), rack_size=7,
                                clock="chess", minutes=25, challenge_rule="double", tileset="scrabble-de",
                                board_profile="scrabscrap", lettered_rows=True)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        store = open_store(self.data_dir)
        if store.notice:
            self.out(f"warning: {store.notice}")
        from hardware.camera import ReplayCamera

        camera = ReplayCamera(DEMO_DIR)
        reader, why = self.make_reader(settings)
        if reader is None:
            self.out(f"vision: not available ({why}); the players type every move")
        config = Config(game=settings, ui=UiSettings(auto_accept_s=0))
        flow = build_flow(config, store, camera=camera if reader else None, reader=reader,
                          export_dir=self.data_dir / "exports")
        game_id = store.unfinished()
        if game_id is None and store.games():
            game_id = store.games()[0].id
            flow.resume(game_id)
            self.out(f"game {game_id}: already finished ({len(flow.game.events)} events)")
            return self._summary(flow, store, game_id)
        if game_id is None:
            game_id = flow.new_game(settings, meta={"demo": path.name})
            self.out(f"game {game_id}: new demo game {ref.players[0]} vs {ref.players[1]} from {path.name}")
        else:
            flow.resume(game_id)
            self.out(f"game {game_id}: resuming after {len(flow.game.events)} stored events "
                     f"(scores {flow.game.scores[0]} {flow.game.scores[1]})")
            flow.resume_clock()
        app = App(flow, size=(800, 480), pointer="mouse")
        app.renderer = self._renderer(app)
        self.shot_dir = self.data_dir / "screenshots"
        self.play_game(app, flow, camera, ref)
        self._shoot(app, "end")
        return self._summary(flow, store, game_id)

    def play_game(self, app: App, flow: Flow, camera: Any, ref: Game) -> None:
        """Play the rest of ``ref`` on ``flow`` as the players would, to its end racks (bench/soak.py too)."""
        while flow.state not in (State.END, State.END_RACKS):
            seq = len(flow.game.events)
            if seq >= len(ref.events):
                break
            expected = ref.events[seq]
            if isinstance(expected.move, RackPoints):
                app.dispatch(FlowEvent(EventKind.END_GAME))
                break
            self._play(app, flow, camera, seq, expected, ref)
            time.sleep(self.delay)
        if flow.state is State.END_RACKS:
            self.out("end: the players type the tiles left on their racks")
            for event in ref.events:
                if isinstance(event.move, RackPoints) and flow.state is State.END_RACKS:
                    app.dispatch(FlowEvent(EventKind.RACK, text=event.move.rack))

    # -- pieces ---------------------------------------------------------------------------------------
    def _reader(self, settings: GameSettings) -> tuple[Any, str]:
        try:
            from device.reading import VisionReader

            return VisionReader(settings.board_profile, settings.rules().tileset), ""
        except Exception as exc:  # vision is optional for the demo: say why and go on
            return None, f"{type(exc).__name__}: {exc}"

    def _renderer(self, app: App) -> Any:
        if not self.screenshots and self.headless:
            return None
        try:
            app.open_display(headless=self.headless or not _has_display())
            renderer = load_renderer(app.size)
        except Exception as exc:  # the UI is optional for the demo; the game still runs
            self.out(f"ui: cannot draw ({type(exc).__name__}: {exc}); continuing without screens")
            return None
        if renderer is None:
            self.out("ui: no renderer in device.ui yet; continuing without screens")
        return renderer

    def _shoot(self, app: App, name: str) -> None:
        surface = app.draw()
        if surface is None or not self.screenshots:
            return
        import pygame

        self.shot_dir.mkdir(parents=True, exist_ok=True)
        target = self.shot_dir / f"{name}.png"
        pygame.image.save(surface, str(target))
        self.shots.append(target)

    def _play(self, app: App, flow: Flow, camera: Any, seq: int, expected: GameEvent, ref: Game) -> None:
        """One turn as the players make it: the mover presses their button; the camera's reading is
        confirmed as read, except what a player at the table would have to fix (counted)."""
        before = ref.board_after(seq)
        if camera is not None:
            camera.position = min(seq, len(camera) - 1)  # image-N is the board after move N
        app.dispatch(FlowEvent(EventKind.PLAYER_BUTTON, expected.player))
        notes: list[str] = []
        move = expected.move
        played = describe(move, before, lettered_rows=True)
        how = "camera"
        if isinstance(move, (Placement, Exchange, Pass)):
            self.asked += 1
        if flow.state is State.CONFIRM:
            pending = flow.s.pending
            assert pending is not None
            if not isinstance(move, Placement) or set(pending.tiles) != {t.square for t in move.letter_tiles}:
                read = " ".join(f"{sq.name}={t.letter}" for sq, t in sorted(pending.tiles.items()))
                notes.append(f"camera read {read or 'no tiles'}; the player typed {played} instead")
                self._type_move(app, flow, move, played)
                how = "typed by the player"
            else:
                self._shoot(app, f"confirm-{seq + 1:02d}") if seq < 3 else None
                for tile in move.letter_tiles:
                    seen = pending.tiles[tile.square]
                    if tile.blank and seen.blank:
                        if seen.letter != tile.letter:
                            notes.append(f"blank on {tile.square.name}: the player named it {tile.letter}")
                            app.dispatch(FlowEvent(EventKind.SET_BLANK, square=tile.square, letter=tile.letter))
                    elif seen.letter != tile.letter or seen.blank != tile.blank:
                        notes.append(f"camera read {seen.letter} on {tile.square.name}; the player corrected it to "
                                     f"{tile.letter}")
                        kind = EventKind.SET_BLANK if tile.blank else EventKind.CORRECT_TILE
                        app.dispatch(FlowEvent(kind, square=tile.square, letter=tile.letter))
                        how = "camera, corrected by the player"
        elif flow.state is State.ASK_EXCHANGE_OR_PASS:
            if isinstance(move, Exchange):
                app.dispatch(FlowEvent(EventKind.EXCHANGE, text=move.tiles or str(move.count)))
            elif isinstance(move, Pass):
                app.dispatch(FlowEvent(EventKind.PASS))
            else:
                notes.append(f"camera saw no change; the player typed {played}")
                self._type_move(app, flow, move, played)
                how = "typed by the player"
        elif flow.state is State.MANUAL_ENTRY:
            why = english(flow.s.message) or "no camera"
            notes.append(f"camera could not read the board ({why}); the player typed {played}")
            app.dispatch(FlowEvent(EventKind.MANUAL_MOVE, text=played))
            how = "typed by the player"
        elif flow.state is State.PLAYING and isinstance(move, (Placement, Exchange, Pass)):
            why = english(flow.s.message) or "nothing happened"
            notes.append(f"the button press gave no reading ({why}); the player typed {played}")
            self._type_move(app, flow, move, played)
            how = "typed by the player"
        if how != "camera":
            self.corrected += 1
        if flow.state is State.CONFIRM:
            app.dispatch(FlowEvent(EventKind.CONFIRM))
        if len(flow.game.events) <= seq:
            from device.errors import DeviceError

            why = english(flow.s.message) or flow.state.value
            raise DeviceError(f"move {seq + 1} ({played}) was not accepted: {why}")
        got = flow.game.events[seq]
        scores = " ".join(str(s) for s in flow.game.scores)
        check = "" if got.score == expected.score else f"  (record says {expected.score:+d})"
        name = flow.game.players[got.player]
        text = describe(got.move, before, lettered_rows=True)
        self.out(f"move {seq + 1}: {name} {text} {got.score:+d}  [{scores}]  {how}{check}")
        for note in notes:
            self.out(f"    {note}")
        self._shoot(app, f"move-{seq + 1:02d}")

    @staticmethod
    def _type_move(app: App, flow: Flow, move: Any, played: str) -> None:
        """What a player does when the camera cannot help: open the move entry and type the move."""
        if flow.state is not State.MANUAL_ENTRY:
            app.dispatch(FlowEvent(EventKind.MANUAL_ENTRY))
        app.dispatch(FlowEvent(EventKind.MANUAL_MOVE, text=played))

    def _summary(self, flow: Flow, store: Any, game_id: int) -> int:
        game = flow.game
        for event in game.events:
            if isinstance(event.move, RackPoints):
                self.out(f"end: {game.players[event.player]} {event.score:+d} for the rack {event.move.rack}")
        exports = self.data_dir / "exports"
        gcg = store.export_gcg(game_id, exports / f"game-{game_id}.gcg", lexicon="GERMAN")
        record = store.export_json(game_id, exports / f"game-{game_id}.json")
        self.out(f"gcg: {gcg}")
        self.out(f"json: {record}")
        shots = sorted((self.data_dir / "screenshots").glob("*.png"))
        if shots:
            self.out(f"screenshots: {self.data_dir / 'screenshots'} ({len(shots)} files)")
        else:
            self.out("screenshots: none (no renderer)")
        right = self.asked - self.corrected
        self.out(f"camera: {right}/{self.asked} moves read right, {self.corrected} corrected")
        self.out("final: " + " ".join(str(s) for s in game.scores))
        store.close()
        return 1 if self.corrected else 0


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and sys.platform.startswith("linux")


def run_demo(data_dir: Path, *, headless: bool = False, delay: float = 0.0, screenshots: bool = True) -> int:
    def out(line: str) -> None:
        print(line, flush=True)

    return Demo(data_dir, headless=headless, delay=delay, screenshots=screenshots, out=out).run()

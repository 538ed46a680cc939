# SPDX-License-Identifier: GPL-3.0-or-later
"""The game flow and the app loop, headless: whole games through injected touches and button
presses with the replay camera, challenges, undo, auto-accept, camera loss and resume."""

from __future__ import annotations

import os
import queue
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from conftest import FakeTime, demo_game_settings  # noqa: E402
from device.app import App, load_renderer  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.demo import DEMO_DIR  # noqa: E402
from device.flow import (  # noqa: E402
    Collaborators,
    EventKind,
    Flow,
    FlowEvent,
    Reading,
    ReadKind,
    ReadTile,
    State,
)
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402
from device.ui.renderer import Renderer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.moves import Exchange, Pass, Placement, RackPoints, Withdraw  # noqa: E402
from hardware.buttons import MockButtons  # noqa: E402
from hardware.camera import ReplayCamera  # noqa: E402
from hardware.errors import CaptureError  # noqa: E402
from hardware.events import ButtonRole  # noqa: E402

REF, SETTINGS = demo_game_settings()


class ScriptedReader:
    """Reads the record's move for the photo the camera is on (the flow's reader protocol)."""

    def __init__(self, confident: bool = True) -> None:
        self.confident = confident
        self.learned: list[Placement] = []

    def read(self, frame, game) -> Reading:
        move = REF.events[frame].move
        if isinstance(move, Placement):
            tiles = tuple(ReadTile(t.square, "?" if t.blank else t.letter, t.blank) for t in move.letter_tiles)
            return Reading(ReadKind.PLACEMENT, tiles, confident=self.confident and not any(t.blank for t in tiles))
        return Reading(ReadKind.UNCHANGED, confident=True)

    def learn(self, reading, placement) -> None:
        self.learned.append(placement)


class IndexCamera:
    """Hands the flow the number of the move whose photo it would show."""

    def __init__(self) -> None:
        self.position = 0
        self.broken = False

    def best_still(self, timeout_s: float = 1.0):
        if self.broken:
            raise CaptureError("camera 0 delivered no frame (unplugged?)")
        return self.position


class FakeJudge:
    def __init__(self, acceptable: bool) -> None:
        self.acceptable = acceptable
        self.asked: list[tuple[str, ...]] = []

    def judge_play(self, words):
        from engine.lexicon.judge import PlayVerdict, Verdict, WordVerdict

        self.asked.append(tuple(words))
        verdict = Verdict.VALID if self.acceptable else Verdict.INVALID
        return PlayVerdict(self.acceptable, tuple(WordVerdict(w, verdict, "test") for w in words))


def make_flow(tmp_path: Path, *, reader=None, camera=None, judge=None, clock=None, auto=3.0,
              settings: GameSettings = SETTINGS) -> Flow:
    store = Store(tmp_path / "games.sqlite")
    c = Collaborators(store=store, camera=camera, reader=reader, judge=judge, now=clock or FakeTime(1000.0),
                      export_dir=tmp_path / "exports")
    flow = Flow(c, auto_accept_s=auto)
    flow.new_game(settings)
    return flow


def play_record_move(flow: Flow, camera: IndexCamera, seq: int) -> None:
    camera.position = seq
    expected = REF.events[seq]
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, expected.player))
    if flow.state is State.ASK_EXCHANGE_OR_PASS:
        flow.handle(FlowEvent(EventKind.EXCHANGE, text=expected.move.tiles))
        return
    for tile in expected.move.letter_tiles:
        if tile.blank:
            flow.handle(FlowEvent(EventKind.SET_BLANK, square=tile.square, letter=tile.letter))
    flow.handle(FlowEvent(EventKind.CONFIRM))


# -- the whole pipeline, headless, through touches and buttons ------------------------------------------

def _hot_centre(renderer, kind: v.ActionKind) -> tuple[int, int]:
    for rect, target in renderer.hot:
        if isinstance(target, v.UiAction) and target.kind is kind:
            return rect.center
    raise AssertionError(f"no {kind} button on the screen; have {[getattr(t, 'kind', t) for _, t in renderer.hot]}")


def _square_pos(renderer, square) -> tuple[int, int]:
    for rect, target in renderer.hot:
        if callable(target) and not isinstance(target, v.UiAction):
            for x in range(rect.left, rect.right, 4):
                for y in range(rect.top, rect.bottom, 4):
                    action = target((x, y))
                    if action is not None and action.square is not None and tuple(action.square) == tuple(square):
                        return (x, y)
    raise AssertionError(f"square {square} not found on the board")


def _touch(app: App, pos: tuple[int, int]) -> None:
    """A finger down and up on ``pos``: the kiosk acts on the release (a resting finger does nothing)."""
    w, h = app.size
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=pos[0] / w, y=pos[1] / h, finger_id=0, touch_id=0))
    app.step(0)
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=pos[0] / w, y=pos[1] / h, finger_id=0, touch_id=0))
    app.step(0)


def test_whole_game_through_buttons_touches_and_the_replay_camera(tmp_path: Path) -> None:
    """The demo's photos through vision: players press their buttons, tap to confirm, tap a misread
    tile and its letter to correct it, and the game ends with the record's scores."""
    pytest.importorskip("vision.diff")
    from device.reading import VisionReader

    store = Store(tmp_path / "games.sqlite")
    camera = ReplayCamera(DEMO_DIR)
    reader = VisionReader("scrabscrap", SETTINGS.rules().tileset)
    flow = Flow(Collaborators(store=store, camera=camera, reader=reader, export_dir=tmp_path / "exports"),
                auto_accept_s=0)
    flow.new_game(SETTINGS)
    app = App(flow, size=(800, 480), pointer="finger")
    app.open_display(headless=True)
    app.renderer = load_renderer(app.size)
    assert app.renderer is not None
    buttons = MockButtons(events=app.inputs)
    shots = tmp_path / "shots"
    shots.mkdir()
    touches = corrections = by_hand = 0
    for seq, expected in enumerate(REF.events):
        if isinstance(expected.move, RackPoints):
            break
        camera.position = seq
        buttons.press(ButtonRole.for_player(expected.player))
        app.step(0)
        pygame.image.save(app.draw(), str(shots / f"{seq + 1:02d}-{flow.state.value}.png"))
        if flow.state is State.ASK_EXCHANGE_OR_PASS:
            app.inputs.put(v.UiAction(v.ActionKind.EXCHANGE, text=expected.move.tiles))
            app.step(0)
        else:
            if flow.state is State.MANUAL_ENTRY:  # vision could not help (a hand in the photo): type the move
                by_hand += 1
                move = expected.move
                text = move.notation(flow.game.board, lettered_rows=True) if isinstance(move, Placement) \
                    else f"-{move.tiles}"
                app.inputs.put(v.UiAction(v.ActionKind.MANUAL_MOVE, text=text))
                app.step(0)
                if isinstance(move, Exchange):
                    assert len(flow.game.events) == seq + 1
                    continue
            assert flow.state is State.CONFIRM, flow.s.message
            pending = flow.s.pending
            assert set(pending.tiles) == {t.square for t in expected.move.letter_tiles}
            for tile in expected.move.letter_tiles:
                got = pending.tiles[tile.square]
                if got.letter != tile.letter:
                    kind = v.ActionKind.SET_BLANK if got.blank else v.ActionKind.CORRECT_TILE
                    _touch(app, _square_pos(app.renderer, tile.square))  # select the tile ...
                    app.draw()
                    key = next(rect.center for rect, t in app.renderer.hot
                               if isinstance(t, v.UiAction) and t.kind is v.ActionKind.KEY and t.text == tile.letter)
                    _touch(app, key)  # ... and tap its letter on the keyboard
                    assert flow.s.pending.tiles[tile.square].letter == tile.letter, kind
                    corrections += 1
            app.draw()
            if seq % 2:
                _touch(app, _hot_centre(app.renderer, v.ActionKind.CONFIRM))
                touches += 1
            else:
                buttons.press(ButtonRole.CONFIRM)
                app.step(0)
        # The last move also settles the racks (the unseen pool is the loser's rack).
        assert len(flow.game.events) == seq + 1 + (flow.state is State.END), flow.s.message
        assert flow.game.events[seq].score == expected.score
    assert flow.state is State.END
    assert flow.game.scores == REF.scores
    pygame.image.save(app.draw(), str(shots / "end.png"))
    # The camera reads most moves; a frame vision calls covered is typed in (vision is still being tuned).
    assert touches >= 10 and by_hand <= 6, (corrections, by_hand)
    assert (tmp_path / "exports" / "game-1.gcg").exists() and len(list(shots.glob("*.png"))) >= 26


# -- flow rules with a scripted reader ------------------------------------------------------------------------

def test_confident_reading_auto_accepts_and_an_unsure_one_waits(tmp_path: Path) -> None:
    clock = FakeTime(1000.0)
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(confident=True), camera=camera, clock=clock, auto=2.0)
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    assert flow.state is State.CONFIRM and flow.view().proposal.auto_accept_ms == 2000
    clock.t += 1.0
    flow.handle(FlowEvent(EventKind.TICK))
    assert flow.state is State.CONFIRM and not flow.game.events
    clock.t += 1.0
    flow.handle(FlowEvent(EventKind.TICK))
    assert flow.state is State.PLAYING and flow.game.scores == [16, 0]
    flow.c.reader = ScriptedReader(confident=False)
    camera.position = 1
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 1))
    assert flow.view().proposal.auto_accept_ms is None
    clock.t += 60
    flow.handle(FlowEvent(EventKind.TICK))
    assert flow.state is State.CONFIRM and len(flow.game.events) == 1


def test_waiting_players_button_and_blanks_block_confirmation(tmp_path: Path) -> None:
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera)
    for seq in range(15):
        play_record_move(flow, camera, seq)
    assert flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0)) is State.PLAYING  # not Timon's turn
    camera.position = 15  # IN.ABerN with two blanks
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 1))
    view = flow.view()
    assert view.proposal.blanks_needed and view.proposal.problems
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.state is State.CONFIRM and len(flow.game.events) == 15
    for tile in REF.events[15].move.letter_tiles:
        if tile.blank:
            flow.handle(FlowEvent(EventKind.SET_BLANK, square=tile.square, letter=tile.letter))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.events[15].score == 86 and flow.game.scores == [378, 315]


def test_camera_lost_warns_and_play_continues_by_hand(tmp_path: Path) -> None:
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera)
    play_record_move(flow, camera, 0)
    camera.broken = True
    camera.position = 1
    assert flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 1)) is State.MANUAL_ENTRY
    view = flow.view()
    assert any(n.key == "warn.camera_lost" for n in view.warnings) and view.screen is v.Screen.MANUAL_ENTRY
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="J8 TOFU"))
    assert flow.state is State.CONFIRM
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [16, 25]
    assert flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0)) is State.MANUAL_ENTRY  # stays manual
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="nonsense"))
    assert flow.state is State.MANUAL_ENTRY and flow.view().message == v.Text.of("msg.bad_notation", text="nonsense")
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="K9 DAD"))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [34, 25] and any(n.key == "warn.camera_lost" for n in flow.view().warnings)


def test_challenge_withdraws_a_phony(tmp_path: Path) -> None:
    camera = IndexCamera()
    judge = FakeJudge(acceptable=False)
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera, judge=judge)
    play_record_move(flow, camera, 0)
    play_record_move(flow, camera, 1)
    assert flow.handle(FlowEvent(EventKind.CHALLENGE, 0)) is State.CHALLENGE
    assert judge.asked == [REF.events[1].words] and flow.c.clock.paused
    assert flow.view().verdict.acceptable is False
    assert isinstance(flow.game.events[-1].move, Withdraw) and flow.game.scores == [16, 0]
    flow.handle(FlowEvent(EventKind.OK))
    assert flow.state is State.PLAYING and flow.game.to_move == 0 and not flow.c.clock.paused
    saved = flow.c.store.load(flow.s.game_id)
    assert saved.game.scores == [16, 0] and len(saved.events) == 3


@pytest.mark.parametrize("rule, bonus", [("double", None), ("ten-point", 10), ("single", 0)])
def test_failed_challenge_applies_the_rule(tmp_path: Path, rule: str, bonus: int | None) -> None:
    camera = IndexCamera()
    settings = GameSettings(**{**SETTINGS.to_dict(), "players": SETTINGS.players, "challenge_rule": rule})
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera, judge=FakeJudge(True), settings=settings)
    play_record_move(flow, camera, 0)
    flow.handle(FlowEvent(EventKind.CHALLENGE, 1))
    flow.handle(FlowEvent(EventKind.OK))
    if bonus is None:  # double: the challenger loses the turn
        assert isinstance(flow.game.events[-1].move, Pass) and flow.game.to_move == 0
        assert flow.c.clock.active == 0
    else:
        assert flow.game.scores == [16 + bonus, 0] and flow.game.to_move == 1


def test_undo_exchange_and_resume_exactly(tmp_path: Path) -> None:
    clock = FakeTime(1000.0)
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera, clock=clock)
    for seq in range(14):
        play_record_move(flow, camera, seq)
        clock.t += 7.5
    assert isinstance(flow.game.events[13].move, Exchange)
    flow.handle(FlowEvent(EventKind.UNDO))
    assert len(flow.game.events) == 13 and len(flow.c.store.records(flow.s.game_id)) == 13
    play_record_move(flow, camera, 13)
    clock.t += 3
    flow.save_clock()  # the app saves the clock every few seconds
    readings = flow.c.clock.readings_ms(clock.t)
    assert readings[0] < readings[1] < 25 * 60000  # both clocks have run
    # A restart: a new flow on the same database.
    again = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=clock))
    again.resume(flow.c.store.unfinished())
    assert again.game.board == flow.game.board and again.game.scores == flow.game.scores
    assert again.game.to_move == flow.game.to_move and again.state is State.PLAYING
    assert again.c.clock.paused
    clock.t += 100  # the time the device was off does not count
    assert again.c.clock.readings_ms(clock.t) == readings
    again.handle(FlowEvent(EventKind.RESUME))
    clock.t += 2
    assert again.c.clock.readings_ms(clock.t)[again.game.to_move] == readings[again.game.to_move] - 2000


def test_game_end_settles_racks_and_exports(tmp_path: Path) -> None:
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(), camera=camera)
    for seq in range(25):
        play_record_move(flow, camera, seq)
    assert flow.state is State.END and flow.game.scores == REF.scores
    view = flow.view()
    assert view.screen is v.Screen.END and view.winner == (0,)
    assert {Path(p).suffix for p in view.export_paths} == {".gcg", ".json"}
    flow.handle(FlowEvent(EventKind.UNDO))  # the rack points
    assert flow.state is State.PLAYING and not flow.c.store.load(flow.s.game_id).finished


def test_four_players_end_by_entering_racks(tmp_path: Path) -> None:
    settings = GameSettings(language="en", players=("A", "B", "C", "D"), clock="none")
    flow = make_flow(tmp_path, settings=settings)
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="8D WHEAT"))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [30, 0, 0, 0]
    assert flow.handle(FlowEvent(EventKind.END_GAME)) is State.END_RACKS
    for rack in ("A", "QZ", "", "E"):
        flow.handle(FlowEvent(EventKind.RACK, text=rack))
    assert flow.state is State.END
    assert flow.game.scores == [29, -20, 0, -1]
    assert [Path(p).suffix for p in flow.view().export_paths] == [".json"]  # GCG is two-player only


def test_end_racks_step_refuses_a_letter_not_in_the_set_and_the_final_screen_takes_scores_apart(
        tmp_path: Path) -> None:
    settings = GameSettings(language="en", players=("Ann", "Bo", "Cy"), clock="none")
    flow = make_flow(tmp_path, settings=settings)
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="8D WHEAT"))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.handle(FlowEvent(EventKind.END_GAME)) is State.END_RACKS
    view = flow.view()
    # Whose rack, how many tiles, and the unseen pool (every tile not on the board).
    assert view.screen is v.Screen.END_RACKS and view.racks.player == 0 and view.racks.left == 3
    assert view.racks.rack_count == 7 and len(view.racks.unseen) == 100 - 5 and view.racks.unseen.count("W") == 1
    # A letter the English set lacks is refused with a message, never counted as 0; nothing is stored.
    assert flow.handle(FlowEvent(EventKind.RACK, text="QÅ")) is State.END_RACKS
    assert flow.view().message == v.Text.of("msg.rack_letter", letter="Å") and flow.view().racks.player == 0
    # More copies than are unseen (one Z in the set) is refused too.
    flow.handle(FlowEvent(EventKind.RACK, text="ZZ"))
    assert flow.view().message == v.Text.of("msg.rack_not_unseen", letter="Z", count=1)
    for rack in ("Q", "Z", "?"):
        flow.handle(FlowEvent(EventKind.RACK, text=rack))
    assert flow.state is State.END and flow.game.scores == [30 - 10, -10, 0]
    final = flow.view().final
    assert [(line.moves, line.rack, line.time, line.total) for line in final.lines] == [
        (30, -10, 0, 20), (0, -10, 0, -10), (0, 0, 0, 0)]
    assert [line.rack_tiles for line in final.lines] == ["Q", "Z", "?"]
    assert final.reason == v.Text("end.reason.agreed")  # the players ended it and entered their racks
    assert flow.view().winner == (0,)


def test_a_proposal_on_screen_is_built_checked_and_scored_once_not_per_frame(tmp_path: Path, monkeypatch) -> None:
    """50 frames a second of the confirm screen cost no engine work: the view is rebuilt only on change."""
    from engine.game import Game

    calls = {"score": 0, "validate": 0}
    for name in calls:
        original = getattr(Game, name)

        def counting(self, *args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Game, name, counting)
    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(confident=False), camera=camera)
    renderer = Renderer((800, 480))
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    assert flow.state is State.CONFIRM and calls == {"score": 1, "validate": 1}
    for _ in range(100):  # two seconds of frames: tick, view, draw
        flow.handle(FlowEvent(EventKind.TICK))
        renderer.render(flow.view())
    assert calls == {"score": 1, "validate": 1}
    square = REF.events[0].move.letter_tiles[0].square
    flow.handle(FlowEvent(EventKind.CORRECT_TILE, square=square, letter=REF.events[0].move.letter_tiles[0].letter))
    for _ in range(100):
        flow.handle(FlowEvent(EventKind.TICK))
        renderer.render(flow.view())
    assert calls == {"score": 2, "validate": 2}  # one more pass for the one change
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [16, 0] and calls["validate"] == 2  # stored without checking it again


def test_a_resting_finger_does_nothing_the_kiosk_acts_on_release(tmp_path: Path) -> None:
    """The kiosk's touch path is the InputAdapter's: a finger put down on DONE and left there ends no turn."""
    flow = make_flow(tmp_path)
    app = App(flow, size=(800, 480))
    app.open_display(headless=True)
    app.renderer = load_renderer(app.size)
    app.draw()
    done = _hot_centre(app.renderer, v.ActionKind.PLAYER_BUTTON)
    w, h = app.size
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=done[0] / w, y=done[1] / h, finger_id=0, touch_id=0))
    for _ in range(5):
        app.step(0)
    assert flow.state is State.PLAYING
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=done[0] / w, y=done[1] / h, finger_id=0, touch_id=0))
    app.step(0)
    assert flow.state is State.MANUAL_ENTRY  # no camera: the move is typed
    app.close()


def test_app_maps_buttons_once_and_pings_the_watchdog(tmp_path: Path) -> None:
    sent: list[str] = []

    class Recorder:
        def ready(self, status: str = "") -> bool:
            sent.append("READY=1")
            return True

        def watchdog(self) -> bool:
            sent.append("WATCHDOG=1")
            return True

        def status(self, text: str) -> bool:
            return True

    camera = IndexCamera()
    flow = make_flow(tmp_path, reader=ScriptedReader(confident=False), camera=camera)
    app = App(flow, inputs=queue.Queue(), notifier=Recorder())
    buttons = MockButtons(events=app.inputs)
    buttons.press(ButtonRole.PLAYER_1)  # PRESS + RELEASE: one capture
    app.step(0)
    assert flow.state is State.CONFIRM
    buttons.hold(ButtonRole.CONFIRM)
    app.step(0)
    assert len(flow.game.events) == 1
    assert sent[0] == "READY=1" and sent.count("READY=1") == 1 and "WATCHDOG=1" in sent


class HandCamera:
    """A live camera looking at the demo's first photo while a hand moves over the board, then leaves."""

    def __init__(self, frame, hand_frames: int) -> None:
        self.frame = frame
        self.left = hand_frames
        self.shown = 0

    def best_still(self, timeout_s: float = 1.0):
        from vision import variants

        self.shown += 1
        if self.left > 0:
            self.left -= 1
            return variants.hand(self.frame, seed=self.left, reach=0.3 + 0.05 * (self.left % 6))
        return self.frame


def test_a_hand_moving_over_the_board_never_becomes_a_move(tmp_path: Path) -> None:
    from device.reading import VisionReader
    from vision.reader import load_frame

    first = load_frame(DEMO_DIR / "image-1.jpg")
    settings = SETTINGS
    rules = settings.rules()
    reader = VisionReader("scrabscrap", rules.tileset)
    ticks = iter(range(10_000))
    reader_clock = lambda: next(ticks) * 0.1  # noqa: E731  (each frame: 0.1 s of the 2 s wait)
    camera = HandCamera(first, hand_frames=1000)
    flow = make_flow(tmp_path, reader=reader, camera=camera)
    original = reader.still_frame
    reader.still_frame = lambda cam, timeout_s=2.0: original(cam, timeout_s, clock=reader_clock)
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    assert flow.state is State.PLAYING and flow.game.events == []
    assert flow.view().message == v.Text("msg.not_still")
    assert camera.shown >= 3
    # The hand is gone: the next press reads the real first move.
    camera.left = 0
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    assert flow.state is State.CONFIRM
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.events[0].words == REF.events[0].words


def test_the_players_own_tiles_are_remembered_across_restarts(tmp_path: Path) -> None:
    """Letters confirmed in one game teach the reader; a new reader (the next game, after a restart)
    starts from them; a damaged file costs only the learning."""
    from device.reading import VisionReader
    from vision.reader import load_frame

    rules = SETTINGS.rules()
    learned = tmp_path / "learned" / f"{rules.tileset.name}.npz"
    reader = VisionReader("scrabscrap", rules.tileset, learned=learned)
    flow = make_flow(tmp_path, reader=reader, camera=ReplayCamera(DEMO_DIR))
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.events and learned.is_file()
    taught = reader.reader.classifier.learned_count
    assert taught == len(flow.game.events[0].move.letter_tiles)
    again = VisionReader("scrabscrap", rules.tileset, learned=learned)
    assert again.reader.classifier.learned_count == taught and not again.problem
    learned.write_bytes(b"not a numpy file")
    damaged = VisionReader("scrabscrap", rules.tileset, learned=learned)
    assert "learned tiles not loaded" in damaged.problem and damaged.reader.classifier.learned_count == 0
    assert damaged.read(load_frame(DEMO_DIR / "image-1.jpg"), Game(rules, ["a", "b"])).tiles  # still reads


def test_the_device_proposes_a_surely_read_letter_beside_a_doubtful_copy_of_it() -> None:
    """Room-low game04 read move by move, each proposal played as read: FINNEN's F read P by a hair (PINNEN, 15C)
    takes the set's one P, and PUD's P (L7), read by 0.06, is proposed as P with the count flagged, not as the
    R the count alone would make it."""
    from conftest import shared_path
    from device.reading import VisionReader
    from engine.moves import PlacedTile
    from engine.rules import Rules
    from vision import variants
    from vision.reader import load_frame

    photos = shared_path("photos", "scrabscrap", "game04")
    rules = Rules.scrabble("de")
    reader = VisionReader("scrabscrap", rules.tileset)
    game = Game(rules, ["a", "b"])
    read = []
    for n in range(1, 15):
        frame = variants.altered("room-low", load_frame(photos / f"image-{n}.jpg"), "game04", f"image-{n}")
        reading = reader.read(frame, game)
        assert reading.kind is ReadKind.PLACEMENT
        placement = Placement.from_tiles([PlacedTile(t.square, t.letter, blank=t.blank) for t in reading.tiles],
                                         game.board)
        read.append(placement.notation(game.board))
        game.play(placement, check=False)
    assert read[5] == "15C PI.NEN" and read[13] == "L7 PUD"
    assert not reading.confident and any("copies" in m for m in reading.messages)

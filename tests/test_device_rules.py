# SPDX-License-Identifier: GPL-3.0-or-later
"""Challenge rules TRIPLE and VOID in the flow, and a withdrawn phony seen by the camera (scripted
readings and the demo's real photos through vision)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from conftest import FakeTime, demo_game_settings  # noqa: E402
from device.app import App, load_renderer  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.demo import DEMO_DIR  # noqa: E402
from device.flow import Collaborators, EventKind, Flow, FlowEvent, Reading, ReadKind, ReadTile, State  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402
from engine.moves import Placement, Withdraw  # noqa: E402
from engine.squares import Square  # noqa: E402

REF, SETTINGS = demo_game_settings()


class FakeJudge:
    def __init__(self, bad: set[str] = frozenset()) -> None:
        self.bad = set(bad)
        self.asked: list[tuple[str, ...]] = []

    def judge_play(self, words):
        from engine.lexicon.judge import PlayVerdict, Verdict, WordVerdict

        words = tuple(words)
        self.asked.append(words)
        verdicts = tuple(WordVerdict(w, Verdict.INVALID if w in self.bad else Verdict.VALID, "test") for w in words)
        return PlayVerdict(not any(w in self.bad for w in words), verdicts)


class Script:
    """A reader that returns the readings queued by the test (the flow's reader protocol)."""

    def __init__(self) -> None:
        self.queue: list[Reading] = []

    def read(self, frame, game) -> Reading:
        return self.queue.pop(0)

    def learn(self, reading, placement) -> None:
        pass


class Camera:
    def best_still(self, timeout_s: float = 1.0):
        return 0


def settings(rule: str) -> GameSettings:
    return GameSettings(**{**SETTINGS.to_dict(), "players": SETTINGS.players, "challenge_rule": rule})


def make_flow(tmp_path: Path, rule: str, judge=None, reader=None) -> Flow:
    c = Collaborators(store=Store(tmp_path / "games.sqlite"), camera=Camera() if reader else None, reader=reader,
                      judge=judge, now=FakeTime(1000.0), export_dir=tmp_path / "exports")
    flow = Flow(c, auto_accept_s=0)
    flow.new_game(settings(rule))
    return flow


def play(flow: Flow, seq: int) -> None:
    """Enter the record's move ``seq`` by hand and confirm it."""
    move = REF.events[seq].move
    flow.handle(FlowEvent(EventKind.MANUAL_ENTRY))
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text=move.notation(flow.game.board, lettered_rows=True)))
    flow.handle(FlowEvent(EventKind.CONFIRM))


def tiles(placement_seq: int) -> tuple[ReadTile, ...]:
    move = REF.events[placement_seq].move
    return tuple(ReadTile(t.square, t.letter, t.blank) for t in move.letter_tiles)


# -- TRIPLE: the challenge decides the game -------------------------------------------------------------

@pytest.mark.parametrize("phony", [True, False])
def test_triple_challenge_decides_the_game_and_survives_a_restart(tmp_path: Path, phony: bool) -> None:
    words = REF.events[1].words
    judge = FakeJudge(set(words) if phony else set())
    flow = make_flow(tmp_path, "triple", judge)
    play(flow, 0)
    play(flow, 1)  # Alex plays; Timon challenges
    assert flow.handle(FlowEvent(EventKind.CHALLENGE, 0)) is State.CHALLENGE
    assert judge.asked == [words] and flow.view().verdict.acceptable is not phony
    assert flow.handle(FlowEvent(EventKind.OK)) is State.END
    winner = 0 if phony else 1
    view = flow.view()
    assert view.winner == (winner,)
    assert isinstance(flow.game.events[-1].move, Withdraw) is phony
    store = flow.c.store
    assert store.unfinished() is None and store.load(flow.s.game_id).meta["decided"] == winner
    assert (tmp_path / "exports" / f"game-{flow.s.game_id}.gcg").exists()
    again = Flow(Collaborators(store=store, now=FakeTime(1000.0)))
    again.resume(flow.s.game_id)
    assert again.state is State.END and again.view().winner == (winner,)
    # Undo takes the decision back (and the withdrawal it caused): the game goes on.
    again.handle(FlowEvent(EventKind.UNDO))
    assert again.state is State.PLAYING and store.unfinished() == flow.s.game_id
    assert len(again.game.events) == 2 and again.game.scores == [REF.events[0].score, REF.events[1].score]


# -- VOID: no challenges; an unacceptable play cannot be confirmed ------------------------------------------

def test_void_rule_judges_words_at_confirm_time(tmp_path: Path) -> None:
    judge = FakeJudge(set(REF.events[1].words))
    flow = make_flow(tmp_path, "void", judge)
    play(flow, 0)
    play(flow, 1)
    assert flow.state is State.CONFIRM and len(flow.game.events) == 1  # refused
    proposal = flow.view().proposal
    assert any(p.key == "msg.void_refused" and REF.events[1].words[0] in p.fields()["words"]
               for p in proposal.problems)
    assert flow.s.message.key == "msg.void_refused"
    flow.handle(FlowEvent(EventKind.BACK))
    judge.bad.clear()
    play(flow, 1)
    assert flow.state is State.PLAYING and len(flow.game.events) == 2
    flow.handle(FlowEvent(EventKind.CHALLENGE, 0))
    assert flow.state is State.PLAYING and flow.s.message == v.Text("msg.void_no_challenge")
    assert len(flow.game.events) == 2


# -- a withdrawn phony seen by the camera ------------------------------------------------------------------

def test_camera_withdrawal_with_the_next_placement_is_proposed_and_confirmed(tmp_path: Path) -> None:
    reader = Script()
    flow = make_flow(tmp_path, "single", reader=reader)
    play(flow, 0)
    play(flow, 1)
    phony = {t.square for t in REF.events[1].move.letter_tiles}
    # Alex's play came off; Timon laid a word beside DÜS (a tile above its D).
    d = next(t.square for t in REF.events[0].move.letter_tiles if t.letter == "D")
    new = ReadTile(Square(d.row - 1, d.col), "A")
    reader.queue.append(Reading(ReadKind.WITHDRAWAL, (new,), confident=True, removed=tuple(sorted(phony))))
    assert flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0)) is State.CONFIRM
    view = flow.view()
    assert set(map(tuple, view.proposal.removed)) == {tuple(s) for s in phony}
    assert view.message.key == "msg.withdraw_seen" and view.proposal.auto_accept_ms is None  # always waits
    assert [w.word for w in view.proposal.words] == ["A" + REF.events[0].words[0]] and not view.proposal.problems
    app = App(flow, size=(800, 480))
    app.open_display(headless=True)
    app.renderer = load_renderer(app.size)
    pygame.image.save(app.draw(), str(tmp_path / "confirm-withdrawal.png"))
    flow.handle(FlowEvent(EventKind.TICK))
    assert flow.state is State.CONFIRM  # no auto-accept for a withdrawal
    assert flow.handle(FlowEvent(EventKind.CONFIRM)) is State.PLAYING
    moves = [e.move for e in flow.game.events]
    assert isinstance(moves[2], Withdraw) and isinstance(moves[3], Placement)
    assert flow.game.scores == [REF.events[0].score + flow.game.events[3].score, 0]
    assert flow.game.to_move == 1 and flow.c.store.load(flow.s.game_id).game.scores == flow.game.scores


def test_withdrawal_seen_on_the_demo_photos_through_vision(tmp_path: Path) -> None:
    pytest.importorskip("vision.diff")
    from device.reading import VisionReader
    from hardware.camera import ReplayCamera

    camera = ReplayCamera(DEMO_DIR)
    c = Collaborators(store=Store(tmp_path / "games.sqlite"), camera=camera,
                      reader=VisionReader("scrabscrap", SETTINGS.rules().tileset), now=FakeTime(1000.0))
    flow = Flow(c, auto_accept_s=0)
    flow.new_game(settings("single"))
    play(flow, 0)
    play(flow, 1)
    camera.position = 0  # the board as it was before Alex's play: its tiles were taken back
    assert flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0)) is State.CONFIRM, flow.s.message
    view = flow.view()
    assert {tuple(s) for s in view.proposal.removed} == {tuple(t.square) for t in REF.events[1].move.letter_tiles}
    assert view.proposal.tiles == () and view.proposal.player == 0
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.state is State.PLAYING and isinstance(flow.game.events[-1].move, Withdraw)
    assert flow.game.scores == [REF.events[0].score, 0] and flow.game.to_move == 0  # still Timon's turn
    assert flow.view().screen is v.Screen.SCOREBOARD


def test_alfapet_stop_tile_and_bent_words_typed_on_the_device_keep_their_special_tiles(tmp_path: Path) -> None:
    """Manual entry of Alfapet's special moves: the stop tile and the arrow reach the game record, are
    scored by the rules, and survive a restart."""
    from engine.scoring import score_placement
    from engine.tiles import TileKind

    store = Store(tmp_path / "games.sqlite")
    flow = Flow(Collaborators(store=store, now=lambda: 0.0), auto_accept_s=0)
    settings = GameSettings(game="alfapet", language="sv", players=("Åsa", "Björn"), rack_size=6, clock="none")
    game_id = flow.new_game(settings)
    expected = []
    for text in ("9G OST", "#9J TAK", "L8 B^OR"):
        board_before = flow.game.board.copy()
        move = Placement.from_notation(text, board_before)
        expected.append(score_placement(board_before, move, flow.game.rules).score)
        flow.handle(FlowEvent(EventKind.MANUAL_ENTRY))
        flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text=text))
        assert flow.handle(FlowEvent(EventKind.CONFIRM)) is State.PLAYING, flow.view().message
    events = flow.game.events
    assert [e.score for e in events] == expected
    assert any(t.kind is TileKind.STOP for t in events[1].move.tiles)
    assert events[2].move.bend is not None and events[2].move.bend.square == Square(7, 11)
    again = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=lambda: 0.0), auto_accept_s=0)
    again.resume(game_id)
    assert again.game.board == flow.game.board and again.game.scores == flow.game.scores

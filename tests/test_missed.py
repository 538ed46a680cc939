# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves you missed, after a game: the end screen's MISSED MOVES (worker process, headless app) and
``ordvakt games show ID --missed``, on a game whose best moves are worked out by hand.

The game (English Scrabble, words AT, ZA, ZAT): Ann opens 8H AT (A on the double-word centre: (1+1)x2 = 4, and
any opening with A and T scores the same 4). Bo puts a Z above the A: H7 ZA, 10+1 = 11 (H7 is a plain square).
With that one Z the best was 8G ZAT across, 10+1+1 = 12 (G8 is plain; no other word takes a Z next to A or T).
The racks are not recorded beside a physical board, so each turn is reviewed with the tiles played.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from conftest import FakeTime  # noqa: E402
from device.app import App, load_renderer  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.flow import Collaborators, EventKind, Flow, FlowEvent, State  # noqa: E402
from device.missed import graph_file_for, missed_view, review_now, sample_views, turns_to_review  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402
from engine.lexicon.build import default_list_path  # noqa: E402
from engine.lexicon.wordgraph import WordGraph, graph_path  # noqa: E402

WORDS = ["AT", "ZA", "ZAT"]


def ended_game(tmp_path: Path) -> Flow:
    flow = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=FakeTime(1000.0),
                              export_dir=tmp_path / "exports"), auto_accept_s=0)
    flow.new_game(GameSettings(language="en", players=("Ann", "Bo"), clock="none"))
    for player, move in ((0, "8H AT"), (1, "H7 ZA")):
        flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, player))
        flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text=move))
        flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [4, 11]
    return flow


def finish(flow: Flow) -> None:
    assert flow.handle(FlowEvent(EventKind.END_GAME)) is State.END_RACKS
    for rack in ("", ""):
        flow.handle(FlowEvent(EventKind.RACK, text=rack))
    assert flow.state is State.END


def lexicons_with_graph(tmp_path: Path) -> Path:
    """A lexicon folder holding only the word graph where the device looks for the English one."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    WordGraph.from_words(WORDS).save(graph_path(default_list_path(folder, "en")))
    assert graph_file_for(folder, "en") is not None
    return folder


def expected_rows(view) -> list[tuple]:  # noqa: ANN001
    return [(p.name, [(r.turn, r.played, r.score, r.rack, r.rack_known, r.best, r.best_score) for r in p.rows],
             p.share) for p in view.players]


HAND = [("Ann", [(1, "8H AT", 4, "AT", False, "8H AT", 4)], 100),
        ("Bo", [(2, "H7 Z.", 11, "Z", False, "8G Z..", 12)], 92)]


def test_each_turn_is_reviewed_with_the_tiles_played_when_the_rack_is_unknown(tmp_path: Path) -> None:
    flow = ended_game(tmp_path)
    turns = turns_to_review(flow.game)
    assert [(t.turn, t.player, t.rack, t.rack_known, t.played, t.score) for t in turns] == [
        (1, 0, "AT", False, "8H AT", 4), (2, 1, "Z", False, "H7 Z.", 11)]
    view = review_now(flow.game, WordGraph.from_words(WORDS), flow.game.players)
    # The first turn: any opening with A and T scores 4, so only the score is compared there.
    assert view.players[0].rows[0].best_score == 4 and not view.players[0].rows[0].missed
    assert expected_rows(view)[1] == HAND[1] and view.players[1].rows[0].missed
    assert (view.done, view.total, view.racks_known) == (2, 2, False)
    # Half computed: the turns not reached count for nobody yet.
    half = missed_view(flow.game.players, turns, {1: ("8H AT", 4)})
    assert (half.done, half.players[1].share, half.players[0].share) == (1, None, 100)


def test_missed_moves_only_after_the_game_and_computed_off_the_ui_thread(tmp_path: Path) -> None:
    flow = ended_game(tmp_path)
    app = App(flow, size=(800, 480), pointer="finger")
    app.lexicon_dir = lexicons_with_graph(tmp_path)
    app.renderer = load_renderer(app.size)
    app.inputs.put(v.UiAction(v.ActionKind.MISSED_MOVES))
    app.step(0)
    assert app.overlay is None and app.view().screen is v.Screen.SCOREBOARD  # never during a game
    finish(flow)
    app.step(0)
    assert any(getattr(t, "kind", None) is v.ActionKind.MISSED_MOVES for _, t in app.renderer.hot)
    app.inputs.put(v.UiAction(v.ActionKind.MISSED_MOVES))
    app.step(0)
    try:
        shown = app.view()
        assert shown.screen is v.Screen.MISSED and shown.missed.total == 2 and shown.missed.done < 2
        ends = time.monotonic() + 300  # a generous bound: the worker is a separate process on a shared machine
        while app.view().missed.done < 2 and not app.view().missed.failed and time.monotonic() < ends:
            app.step(0.02)
        done = app.view().missed
        assert not done.failed and done.done == 2
        assert done.players[0].rows[0].best_score == 4 and expected_rows(done)[1] == HAND[1]
        assert (done.players[0].scored, done.players[0].possible, done.players[1].share) == (4, 4, 92)
    finally:
        app.inputs.put(v.UiAction(v.ActionKind.BACK))
        app.step(0)
    assert app.overlay is None and app.view().screen is v.Screen.END


def test_without_a_word_graph_the_screen_says_so(tmp_path: Path) -> None:
    flow = ended_game(tmp_path)
    finish(flow)
    app = App(flow, size=(800, 480), pointer="finger")
    app.lexicon_dir = tmp_path / "nothing-here"
    app.inputs.put(v.UiAction(v.ActionKind.MISSED_MOVES))
    app.step(0)
    assert app.view().missed.failed and app.view().missed.total == 2


def test_games_show_missed_prints_each_move_beside_the_best(tmp_path: Path, monkeypatch, capsys) -> None:
    from device.cli import main

    flow = ended_game(tmp_path)
    game_id = flow.s.game_id
    data = tmp_path / "data"
    data.mkdir()
    lexicons_with_graph(tmp_path)
    (tmp_path / "lexicons").rename(data / "lexicons")
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(data))
    db = str(tmp_path / "games.sqlite")
    assert main(["games", "show", str(game_id), "--missed", "--db", db]) != 0  # not finished: refused
    assert "not finished" in capsys.readouterr().err
    finish(flow)
    assert main(["games", "show", str(game_id), "--missed", "--db", db]) == 0
    out = capsys.readouterr().out.splitlines()[1:]  # after the game's heading line
    assert out[0] == "Ann: 4 of the 4 the best moves would have scored (100%)"
    assert out[2] == "Bo: 11 of the 12 the best moves would have scored (92%)"
    assert out[3].split() == ["*", "2.", "(Z)", "H7", "Z.", "11", "best", "8G", "Z..", "12"]


@pytest.mark.parametrize("name", sorted(sample_views()))
def test_gallery_samples_are_missed_screens(name: str) -> None:
    assert sample_views()[name].screen is v.Screen.MISSED


def test_a_move_forming_a_word_the_list_lacks_counts_as_its_own_best(tmp_path: Path) -> None:
    flow = ended_game(tmp_path)
    view = review_now(flow.game, WordGraph.from_words(["AT", "ZA"]), flow.game.players)  # no ZAT, ZA is the best
    bo = view.players[1].rows[0]
    assert (bo.best, bo.best_score, bo.missed, bo.beyond_list) == ("H7 Z.", 11, False, False)
    view = review_now(flow.game, WordGraph.from_words(["AT", "TA"]), flow.game.players)  # ZA unlisted, Z has no move
    bo = view.players[1].rows[0]
    assert (bo.best, bo.best_score, bo.beyond_list, bo.possible) == ("", 0, True, 11)
    assert view.players[1].share == 100

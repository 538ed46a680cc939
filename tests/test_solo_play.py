# SPDX-License-Identifier: GPL-3.0-or-later
"""Solo practice on the device: a one-player game, the best score of each move's tiles found by the worker
process while the screen goes on, the running share, the personal best kept across games, and the search
stopped by the next button press.

Hand-worked (English Scrabble, words AT, ZA, ZAT): 8H AT scores (1+1)x2 = 4, and A and T can score no more;
then H7 ZA scores 10+1 = 11 where the Z could have made 8G ZAT for 10+1+1 = 12. Share 15/16 = 94%.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from conftest import FakeTime  # noqa: E402
from device.app import App, load_renderer  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.flow import Collaborators, EventKind, Flow, FlowEvent, State  # noqa: E402
from device.games import NewGameForm  # noqa: E402
from device.solo import PersonalBests  # noqa: E402
from device.solo_play import BESTS_FILE, SoloView  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402
from engine.lexicon.build import default_list_path  # noqa: E402
from engine.lexicon.wordgraph import WordGraph, graph_path  # noqa: E402

SOLO = GameSettings(language="en", players=("Ann",), clock="none")


def solo_app(tmp_path: Path, settings: GameSettings = SOLO) -> App:
    flow = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=FakeTime(1000.0),
                              export_dir=tmp_path / "exports"), auto_accept_s=0)
    flow.new_game(settings)
    app = App(flow, size=(800, 480), pointer="finger")
    app.renderer = load_renderer(app.size)
    app.data_dir = tmp_path
    app.lexicon_dir = tmp_path / "lexicons"
    if not app.lexicon_dir.exists():
        app.lexicon_dir.mkdir()
        WordGraph.from_words(["AT", "ZA", "ZAT"]).save(graph_path(default_list_path(app.lexicon_dir, "en")))
    return app


def play(app: App, move: str, seat: int = 0) -> None:
    for event in (FlowEvent(EventKind.PLAYER_BUTTON, seat), FlowEvent(EventKind.MANUAL_MOVE, text=move),
                  FlowEvent(EventKind.CONFIRM)):
        app.inputs.put(event)
    app.step(0)  # the move is played and its search started in this step


def settle(app: App) -> SoloView:
    ends = time.monotonic() + 300  # a generous bound: the worker is a separate process on a shared machine
    while app.view().solo.searching and time.monotonic() < ends:
        app.step(0.02)
    return app.view().solo


def end(app: App) -> None:
    app.inputs.put(FlowEvent(EventKind.END_GAME))
    app.step(0)
    for _ in app.flow.game.players:  # the tiles left on each rack (none), asked rack by rack
        if app.flow.state is State.END:
            break
        app.inputs.put(FlowEvent(EventKind.RACK, text=""))
        app.step(0)
    assert app.flow.state is State.END


def test_one_player_is_offered_for_the_board_games_only() -> None:
    form = NewGameForm(SOLO)
    assert form.values["players"] == "1" and form.settings().players == ("Ann",)
    assert [c.value for c in next(o for o in form.options() if o.key == "players").choices][0] == "1"
    form.set("game", "keywords")
    assert form.values["players"] == "2"


def test_solo_shows_the_best_of_each_move_the_share_and_keeps_the_personal_best(tmp_path: Path) -> None:
    app = solo_app(tmp_path)
    app.step(0)
    assert app.view().solo == SoloView()
    try:
        play(app, "8H AT")
        assert app.view().solo.searching and app.view().solo.last_score == 4
        assert settle(app) == SoloView(4, 4, False, 100, 4)
        play(app, "H7 ZA")
        assert settle(app) == SoloView(11, 12, False, 94, 15)
        end(app)
        app.step(0)
        assert app.view().solo.new_best and app.view().solo.total == 15
        app.draw()
        assert any("15" in label.text for label in app.renderer.labels)
    finally:
        app.close()
    best = PersonalBests(tmp_path / BESTS_FILE).get("Ann", "scrabble-15")
    assert best is not None and (best.score, best.share) == (15, 0.938)

    # The next game shows that best; a lower total leaves it.
    app = solo_app(tmp_path)
    try:
        play(app, "8H AT")
        assert settle(app).personal_best == 15
        end(app)
        app.step(0)
        assert not app.view().solo.new_best
    finally:
        app.close()
    assert PersonalBests(tmp_path / BESTS_FILE).get("Ann", "scrabble-15").score == 15


def test_the_next_button_press_stops_the_search(tmp_path: Path) -> None:
    app = solo_app(tmp_path)
    try:
        play(app, "8H AT")
        assert app.view().solo.searching
        app.inputs.put(v.UiAction(v.ActionKind.MENU))  # any press: dispatched before the answer is collected
        app.step(0)
        solo = app.view().solo
        assert (solo.searching, solo.last_best, solo.share) == (False, None, None)
        play(app, "H7 ZA")  # the next move is searched again by a new worker process
        assert settle(app) == SoloView(11, 12, False, 92, 15)  # the share over the known turn only: 11/12
    finally:
        app.close()


def test_a_two_player_game_is_not_solo(tmp_path: Path) -> None:
    flow = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=FakeTime(1000.0)), auto_accept_s=0)
    flow.new_game(GameSettings(language="en", players=("Ann", "Bo"), clock="none"))
    app = App(flow, size=(800, 480), pointer="finger")
    app.data_dir = tmp_path
    app.step(0)
    assert app.solo is None and app.view().solo is None


def test_an_unreadable_personal_bests_file_does_not_stop_the_game(tmp_path: Path) -> None:
    (tmp_path / BESTS_FILE).write_text("{not json", encoding="utf-8")
    app = solo_app(tmp_path)
    try:
        play(app, "8H AT")
        assert settle(app) == SoloView(4, 4, False, 100, 4)  # no personal best shown
        end(app)
        app.step(0)
        assert app.flow.state is State.END and not app.view().solo.new_best
    finally:
        app.close()
    assert (tmp_path / BESTS_FILE).read_text(encoding="utf-8") == "{not json"  # left for the owner to look at

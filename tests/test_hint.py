# SPDX-License-Identifier: GPL-3.0-or-later
"""The family hint: chosen on the new-game form (off by default, kept with the game), a HINT button in the
scoreboard's menu, the rack typed on the keyboard, and the best move's score and first letter only.

Position worked out by hand (English Scrabble, words AT, ZA, ZAT): after 8H AT, a rack of one Z can play
H7 ZA (10+1 = 11) or 8G ZAT (10+1+1 = 12, G8 is a plain square): the hint is 12 and Z.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from conftest import FakeTime  # noqa: E402
from device.app import App, load_renderer  # noqa: E402
from device.config import GameSettings  # noqa: E402
from device.flow import Collaborators, EventKind, Flow, FlowEvent  # noqa: E402
from device.games import NewGameForm  # noqa: E402
from device.hint import HintView  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402
from engine.lexicon.build import default_list_path  # noqa: E402
from engine.lexicon.wordgraph import WordGraph, graph_path  # noqa: E402


def test_the_hint_is_off_by_default_chosen_on_the_form_and_kept_with_the_game() -> None:
    form = NewGameForm(GameSettings(language="en", players=("Ann", "Bo")))
    option = next(o for o in form.options() if o.key == "hint")
    assert option.value == "off" and option.enabled and form.settings().hint is False
    form.handle(v.UiAction(v.ActionKind.SET_OPTION, key="hint", text="on"))
    settings = form.settings()
    assert settings.hint is True
    assert GameSettings.from_dict(settings.to_dict()).hint is True  # how the store keeps a game's settings
    assert NewGameForm(settings).values["hint"] == "on"
    keywords = NewGameForm(GameSettings(game="keywords", language="en", players=("Ann", "Bo")))
    assert not next(o for o in keywords.options() if o.key == "hint").enabled


def app_with(tmp_path: Path, hint: bool) -> App:
    flow = Flow(Collaborators(store=Store(tmp_path / "games.sqlite"), now=FakeTime(1000.0),
                              export_dir=tmp_path / "exports"), auto_accept_s=0)
    flow.new_game(GameSettings(language="en", players=("Ann", "Bo"), clock="none", hint=hint))
    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, 0))
    flow.handle(FlowEvent(EventKind.MANUAL_MOVE, text="8H AT"))
    flow.handle(FlowEvent(EventKind.CONFIRM))
    assert flow.game.scores == [4, 0]
    app = App(flow, size=(800, 480), pointer="finger")
    app.renderer = load_renderer(app.size)
    app.lexicon_dir = tmp_path / "lexicons"
    app.lexicon_dir.mkdir()
    WordGraph.from_words(["AT", "ZA", "ZAT"]).save(graph_path(default_list_path(app.lexicon_dir, "en")))
    return app


def test_without_the_hint_chosen_there_is_no_hint(tmp_path: Path) -> None:
    app = app_with(tmp_path, hint=False)
    app.inputs.put(v.UiAction(v.ActionKind.MENU))
    app.step(0)
    assert app.view().hint is False
    app.inputs.put(v.UiAction(v.ActionKind.HINT))
    app.step(0)
    assert app.overlay is None and app.view().screen is v.Screen.SCOREBOARD


def test_hint_shows_the_best_score_and_first_letter_for_the_typed_rack(tmp_path: Path) -> None:
    app = app_with(tmp_path, hint=True)
    app.step(0)
    state = app.renderer.apply(app.view(), v.UiAction(v.ActionKind.MENU))
    assert state is None
    app.draw()
    assert any(getattr(t, "kind", None) is v.ActionKind.HINT for _, t in app.renderer.hot)
    app.inputs.put(v.UiAction(v.ActionKind.HINT))
    app.step(0)
    try:
        assert app.view().screen is v.Screen.HINT
        # The rack typed on the screen's keyboard becomes one HINT_RACK action.
        app.renderer.apply(app.view(), v.UiAction(v.ActionKind.KEY, text="Z"))
        submitted = app.renderer.apply(app.view(), v.UiAction(v.ActionKind.ENTER))
        assert submitted == v.UiAction(v.ActionKind.HINT_RACK, text="Z")
        app.inputs.put(submitted)
        app.step(0)
        ends = time.monotonic() + 300  # a generous bound: the worker is a separate process on a shared machine
        while app.view().hint_view.searching and time.monotonic() < ends:
            app.step(0.02)
        assert app.view().hint_view == HintView("Z", score=12, first_letter="Z")
        app.inputs.put(v.UiAction(v.ActionKind.HINT_RACK, text="Å"))  # not an English tile
        app.step(0)
        assert app.view().message == v.Text.of("msg.rack_letter", letter="Å")
    finally:
        app.inputs.put(v.UiAction(v.ActionKind.BACK))
        app.step(0)
    assert app.overlay is None and app.view().screen is v.Screen.SCOREBOARD
    assert app.flow.game.scores == [4, 0] and len(app.flow.game.events) == 1  # the game is untouched

# SPDX-License-Identifier: GPL-3.0-or-later
"""Who starts on the device (the start-draw screen) and the end screen's reason and tie texts.

Expected starters are read off the sheets by hand: Scrabble (seed 004) "the letter closest to A goes first,
the blank beats every other tile"; Alfapet (seeds 000/001) "the highest points start"; tied players draw again.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from device.app import build
from device.config import Config, GameSettings
from device.end_reason import end_texts
from device.start_draw import StartDrawScreen, camera_tile_reader, sample_views, start_draw_for
from device.ui import view as v
from device.ui.strings import LANGUAGES, Strings
from engine.game import EndReason, Game, Outcome
from engine.rules import Rules
from engine.squares import Square

A = v.ActionKind


def tap_tile(screen, tile: str) -> None:
    assert screen.handle(v.UiAction(A.SET_OPTION, key="draw", text=tile)) is None


def test_scrabble_draw_tie_is_redrawn_by_the_tied_players_and_the_closest_to_a_starts():
    settings = GameSettings(game="scrabble", players=("Ann", "Bob", "Cid", "Dag"))
    screen = StartDrawScreen(settings, settings.rules())
    for tile in "MCTC":  # Bob and Dag both draw C, the closest to A: a tie
        tap_tile(screen, tile)
    view = screen.view().start_draw
    assert view.tied == (1, 3) and view.round == 2 and view.asking == 1 and view.starter is None
    assert screen.handle(v.UiAction(A.START_GAME)) is None  # nobody to start yet
    tap_tile(screen, "R")  # Bob
    tap_tile(screen, "b")  # Dag: B is closer to A than R
    assert screen.starter == 3
    started = screen.handle(v.UiAction(A.START_GAME))
    assert started == GameSettings(game="scrabble", players=("Ann", "Bob", "Cid", "Dag"), first=3)


def test_scrabble_draw_blank_beats_an_a_and_undo_takes_a_tile_back():
    settings = GameSettings(game="scrabble", players=("Ann", "Bob"))
    screen = StartDrawScreen(settings, settings.rules())
    tap_tile(screen, "A")
    tap_tile(screen, "?")
    assert screen.starter == 1
    screen.handle(v.UiAction(A.UNDO))
    assert screen.starter is None and screen.asking == 1
    tap_tile(screen, "Å")  # not an English tile: refused, named, still Bob's turn to enter
    assert screen.view().start_draw.message == "start_draw.bad_tile" and screen.asking == 1


def test_alfapet_draw_highest_value_starts():
    settings = GameSettings(game="alfapet", language="sv", players=("Anna", "Bertil", "Cecilia"))
    screen = StartDrawScreen(settings, settings.rules())
    for tile in ("E", "C", "#"):  # values (alfapet-sv.toml): E 1, C 8, a black tile 0
        tap_tile(screen, tile)
    assert screen.starter == 1
    assert screen.handle(v.UiAction(A.PLAYER_BUTTON, player=0)) is None  # only the starter's button starts
    assert screen.handle(v.UiAction(A.PLAYER_BUTTON, player=1)).first == 1


def test_only_board_games_of_two_or_more_players_draw():
    assert start_draw_for(GameSettings(game="scrabble", players=("Solo",)), None) is None
    assert start_draw_for(GameSettings(game="ordskifte", players=("A", "B"), clock="turn"), None) is None
    draw = start_draw_for(GameSettings(game="scrabble", players=("A", "B")), None)
    assert isinstance(draw, StartDrawScreen)
    assert start_draw_for(GameSettings(game="scrabble", players=("A", "B"), first=1), draw) is None


class FakeReader:
    """Readings of the board in turn (tiles as (row, col, letter, blank))."""

    def __init__(self, *readings):
        self.readings = list(readings)

    def still_frame(self, camera):
        return "frame"

    def read(self, frame, game):
        tiles = self.readings.pop(0)
        return SimpleNamespace(tiles=[SimpleNamespace(square=Square(r, c), letter=letter, blank=blank)
                                      for r, c, letter, blank in tiles])


def test_the_camera_reads_the_one_new_tile_on_the_board():
    reader = FakeReader([(7, 7, "K", False)], [(7, 7, "K", False), (7, 8, "?", True)],
                        [(7, 7, "K", False), (7, 8, "?", True), (3, 3, "E", False), (4, 4, "F", False)])
    read = camera_tile_reader(object(), lambda: reader, Rules.scrabble("en"), ["Ann", "Bob"])
    assert read() == "K"
    assert read() == "?"  # the K is still there; the new tile is a blank
    assert read() is None  # two new tiles: cannot tell whose


def test_app_runs_the_draw_between_the_form_and_the_game_and_starts_the_starters_clock(tmp_path: Path):
    config = Config(game=GameSettings(players=("Ann", "Bob")), data_dir=str(tmp_path / "data"))
    app, store = build(config, headless=True)
    app.dispatch(v.UiAction(A.START_GAME))  # the form's START
    assert app.view().screen is v.Screen.START_DRAW
    for tile in ("E", "?"):  # Ann E, Bob the blank: Bob starts
        app.dispatch(v.UiAction(A.SET_OPTION, key="draw", text=tile))
    assert app.view().start_draw.starter == 1
    app.dispatch(v.UiAction(A.START_GAME))
    view = app.view()
    assert view.screen is v.Screen.SCOREBOARD
    assert app.flow.game.to_move == 1 and app.collaborators.clock.active == 1
    saved = store.load(app.flow.s.game_id)
    assert saved.settings.first == 1 and saved.game.to_move == 1  # a restart keeps who started
    store.close()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_draw_screen_renders_in_every_language_and_the_text_fits(size, tmp_path: Path):
    pygame = pytest.importorskip("pygame")
    from dataclasses import replace

    from device.ui.renderer import Renderer

    pygame.init()
    renderer = Renderer(size, Strings.load())
    for name, view in sample_views().items():
        for lang in LANGUAGES:
            surface = renderer.render(replace(view, language=lang))
            pygame.image.save(surface, str(tmp_path / f"{name}-{lang}.png"))
            texts = [label.text for label in renderer.labels]
            assert any(t == renderer.strings.get(lang, "start_draw.title") for t in texts), (name, lang)
            for label in renderer.labels:
                width = renderer.fonts.font(label.size, label.bold).size(label.text)[0]
                assert width <= label.box.w and label.box.bottom <= size[1], (name, lang, label.text)
        assert keys_on_every_page(renderer, view) == ([] if view.start_draw.starter is not None
                                                      else sorted(view.start_draw.tiles))


def keys_on_every_page(renderer, view) -> list[str]:  # noqa: ANN001
    """The tile keys drawn over all pages of ``view`` (turning with its page key until the first page again)."""
    from dataclasses import replace

    seen: list[str] = []
    pages: list[tuple[str, ...]] = []
    for page in range(len(view.start_draw.tiles) + 1):
        renderer.render(replace(view, start_draw=replace(view.start_draw, page=page)))
        keys = tuple(t.text for _, t in renderer.hot if isinstance(t, v.UiAction) and t.key == "draw")
        if keys in pages:
            break
        pages.append(keys)
        seen += keys
        if not any(isinstance(t, v.UiAction) and t.key == "page" for _, t in renderer.hot):
            break
    return sorted(seen)


def test_the_tile_keys_page_when_they_do_not_fit_and_a_tile_turns_back_to_the_first_page():
    pygame = pytest.importorskip("pygame")
    from device.ui.renderer import Renderer

    pygame.init()
    renderer = Renderer((800, 480), Strings.load())
    view = sample_views()["start_draw_page"]  # Alfapet (31 tiles) while a tie is announced: two pages
    assert keys_on_every_page(renderer, view) == sorted(view.start_draw.tiles)
    renderer.render(view)
    on_page = [t.text for _, t in renderer.hot if isinstance(t, v.UiAction) and t.key == "draw"]
    assert 0 < len(on_page) < len(view.start_draw.tiles)
    settings = GameSettings(game="alfapet", language="sv", players=("Anna", "Bertil"))
    screen = StartDrawScreen(settings, settings.rules())
    screen.handle(v.UiAction(A.SET_OPTION, key="page"))
    assert screen.view().start_draw.page == 1
    tap_tile(screen, "Ö")
    assert screen.view().start_draw.page == 0 and screen.asking == 1


def test_every_end_reason_and_tie_break_has_its_text_in_every_language():
    strings = Strings.load()
    names = ["Ann", "Bob"]
    rules = Rules.scrabble("en")
    for reason in EndReason:
        outcome = Outcome(reason, (20, 20), (30, 21), (0,), "score-before-racks", 0)
        for key, fields in end_texts(outcome, rules, names):
            for lang in LANGUAGES:
                text = strings.get(lang, key, **fields)
                assert text != key and "{" not in text, (lang, key)
    shared = Outcome(EndReason.AGREED, (20, 20), (20, 20), (0, 1), None, None)
    assert end_texts(shared, rules, names)[1] == ("end.tie_break.shared", {"score": 20})


def test_end_texts_of_a_real_tied_game_name_the_tie_break():
    game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
    from engine.moves import Placement

    game.play(Placement.from_notation("8D WHEAT", game.board))  # 30
    game.play(Placement.from_notation("G7 Z.", game.board))  # 21
    game.finish({0: "Q", 1: "E"})  # 20 - 20
    lines = end_texts(game.outcome(), game.rules, game.players)
    strings = Strings.load()
    assert strings.get("en", lines[0][0], **lines[0][1]) == "The players ended the game"
    assert strings.get("en", lines[1][0], **lines[1][1]) == (
        "Tied at 20: Ann wins with the higher score before the racks were counted (30)")


def test_back_from_the_draw_shows_the_form_with_its_choices(tmp_path: Path):
    config = Config(game=GameSettings(players=("Ann", "Bob")), data_dir=str(tmp_path / "data"))
    app, store = build(config, headless=True)
    form = app.overlay
    app.dispatch(v.UiAction(A.SET_OPTION, key="rack_size", text="9"))
    app.dispatch(v.UiAction(A.START_GAME))
    assert app.view().screen is v.Screen.START_DRAW
    app.dispatch(v.UiAction(A.BACK))
    assert app.overlay is form and app.view().screen is v.Screen.NEW_GAME
    assert form.values["rack_size"] == "9"
    store.close()


def worded(strings: Strings, lang: str, text: v.Text) -> str:
    fields = {k: worded(strings, lang, a) if isinstance(a, v.Text) else a for k, a in text.args}
    return strings.get(lang, text.key, **fields)


def test_a_game_that_cannot_start_is_explained_without_english_on_a_nordic_screen():
    from device.errors import ConfigError
    from device.games import NewGameForm
    from device.texts import cannot_start_text

    strings = Strings.load()
    form = NewGameForm(GameSettings(game="alfapet", language="nb", players=("Anna", "Bertil")), language="sv")
    problem = form.problem()  # Alfapet has no Norwegian tile set: the language setting is at fault
    assert worded(strings, "sv", problem) == "Spelet kan inte startas: kontrollera inställningen Språk"
    form.values["language"], form.values["minutes"] = "sv", "-3"
    assert worded(strings, "fi", form.problem()) == "Peliä ei voi aloittaa: tarkista asetus Minuutit"
    # A detail with no setting (a library's English) is not shown: the players are told it is in the log.
    other = cannot_start_text(ConfigError("file is not a database"))
    assert worded(strings, "nb", other) == "Spillet kan ikke startes (årsaken står i enhetens logg)"
    for lang in LANGUAGES:
        assert "database" not in worded(strings, lang, other)

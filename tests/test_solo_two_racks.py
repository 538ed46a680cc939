# SPDX-License-Identifier: GPL-3.0-or-later
"""Solo practice with two racks played by one person (issue 16, item 3): the racks take turns like two players,
each move shows the best its own tiles had, the share runs over both racks, and the personal best is kept apart
from the one-rack best.

Hand-worked (English Scrabble, words AT, ZA, ZAT; as in tests/test_solo_play.py): rack 1 plays 8H AT for
(1+1)x2 = 4, the best A and T can score; rack 2 plays H7 ZA for 10+1 = 11 where 8G ZAT made 10+1+1 = 12.
Share over both racks 15/16 = 94%.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from test_solo_play import end, play, settle, solo_app  # noqa: E402

from device.config import GameSettings, parse_config  # noqa: E402
from device.errors import ConfigError  # noqa: E402
from device.games import NewGameForm  # noqa: E402
from device.solo import PersonalBests  # noqa: E402
from device.solo_play import BESTS_FILE, SoloView  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402

TWO_RACKS = GameSettings.from_dict({"language": "en", "players": ["Ann"], "racks": 2, "clock": "chess"})
ONE_RACK = GameSettings(language="en", players=("Ann",), clock="none")


def test_the_form_offers_two_racks_for_one_player_board_games_only() -> None:
    form = NewGameForm(ONE_RACK)
    racks = next(o for o in form.options() if o.key == "racks")
    assert racks.enabled and racks.value == "1" and [c.label_key for c in racks.choices] == ["solo.racks_1",
                                                                                             "solo.racks_2"]
    form.set("racks", "2")
    settings = form.settings()
    assert (settings.players, settings.racks) == (("Ann", "Ann"), 2)
    again = NewGameForm(settings)  # the last game's settings come back as one name with two racks
    assert (again.values["players"], again.values["racks"]) == ("1", "2") and again.settings() == settings

    form.set("players", "2")
    assert form.values["racks"] == "1" and not next(o for o in form.options() if o.key == "racks").enabled
    form.set("players", "1")
    form.set("racks", "2")
    form.set("game", "keywords")
    assert form.values["racks"] == "1"


@pytest.mark.parametrize(("line", "problem"), [
    ("racks = 3", "game.racks = 3: must be 1 or 2"),
    ('racks = "two"', "game.racks = 'two': must be 1 or 2"),
    ("racks = true", "game.racks = True: must be 1 or 2"),
    ('racks = 2\nplayers = ["Ann", "Bo"]', "game.racks = 2: two racks are for one player"),
    ('racks = 2\ngame = "ordskifte"\nplayers = ["Ann", "Bo"]', "game.racks = 2: two racks are for one player"),
])
def test_a_bad_racks_setting_is_refused_with_one_line(line: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f"[game]\n{line}\n", "ordvakt.toml")
    assert str(caught.value).startswith(f"ordvakt.toml: {problem}") and "\n" not in str(caught.value)


def test_the_rack_count_is_saved_and_restored_with_the_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    game_id = store.create_game(TWO_RACKS)
    assert store.load(game_id).settings == TWO_RACKS and store.load(game_id).game.players == ["Ann", "Ann"]


def test_two_racks_alternate_show_each_best_share_both_and_keep_their_own_personal_best(tmp_path: Path) -> None:
    # A one-rack best first: it must not be shown or replaced by the two-rack game.
    app = solo_app(tmp_path, ONE_RACK)
    try:
        play(app, "8H AT")
        settle(app)
        end(app)
        app.step(0)
    finally:
        app.close()
    assert PersonalBests(tmp_path / BESTS_FILE).get("Ann", "scrabble-15").score == 4

    app = solo_app(tmp_path, TWO_RACKS)
    try:
        app.step(0)
        seats = app.view().players
        assert [s.name for s in seats] == ["Ann · rack 1", "Ann · rack 2"] and seats[0].to_move
        assert app.view().solo == SoloView()  # no two-rack best yet: the one-rack 4 is not shown

        play(app, "8H AT", seat=0)
        assert settle(app) == SoloView(4, 4, False, 100, 4)
        seats = app.view().players
        assert seats[1].to_move and not seats[0].to_move and (seats[0].score, seats[1].score) == (4, 0)
        assert seats[1].clock.state is v.TimerState.RUNNING and seats[0].clock.state is v.TimerState.IDLE

        play(app, "H7 ZA", seat=1)
        assert settle(app) == SoloView(11, 12, False, 94, 15)  # rack 2's own best; the share over both racks
        assert app.view().players[0].to_move
        assert [e.player for e in app.flow.game.events] == [0, 1]
        session = app.solo.session()
        assert (session.total(0), session.total(1), session.share(1)) == (4, 11, 0.917)

        app.view()
        pygame.image.save(app.draw(), str(tmp_path / "two-racks-scoreboard.png"))
        assert {"Ann · rack 1", "Ann · rack 2"} <= {label.text for label in app.renderer.labels}

        end(app)
        app.step(0)
        assert app.view().solo.new_best and app.view().solo.total == 15
    finally:
        app.close()
    bests = PersonalBests(tmp_path / BESTS_FILE)
    assert (bests.get("Ann", "scrabble-15", 2).score, bests.get("Ann", "scrabble-15", 2).share) == (15, 0.938)
    assert bests.get("Ann", "scrabble-15").score == 4  # the one-rack best is kept apart


def test_the_rack_names_follow_the_ui_language(tmp_path: Path) -> None:
    app = solo_app(tmp_path, TWO_RACKS)
    try:
        app.flow.language = "sv"
        app.step(0)
        assert [s.name for s in app.view().players] == ["Ann · ställ 1", "Ann · ställ 2"]
    finally:
        app.close()


def test_two_racks_of_one_person_start_without_the_draw() -> None:
    from device.start_draw import needs_start_draw

    assert not needs_start_draw(TWO_RACKS) and needs_start_draw(GameSettings(players=("Ann", "Bo")))


def test_a_two_rack_game_exports_as_gcg_with_numbered_racks(tmp_path: Path) -> None:
    from device.archive import export_bytes
    from device.live.state import open_read_only
    from engine.gcg import parse_gcg

    app = solo_app(tmp_path, TWO_RACKS)
    try:
        app.step(0)
        play(app, "8H AT", seat=0)
        settle(app)
        play(app, "H7 ZA", seat=1)
        settle(app)
        game_id = app.flow.game_id
    finally:
        app.close()
    db = open_read_only(tmp_path / "games.sqlite")
    text = export_bytes(db, game_id, "gcg", tmp_path).decode()
    assert "#player1 Ann_1 Ann 1\n#player2 Ann_2 Ann 2\n" in text
    record = parse_gcg(text)
    assert [(p.nick, p.name) for p in record.players] == [("Ann_1", "Ann 1"), ("Ann_2", "Ann 2")]
    assert [(line.nick, line.score) for line in record.lines] == [("Ann_1", 4), ("Ann_2", 11)]

# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's own screens, headless, through injected touches (FINGERDOWN + FINGERUP) and buttons:
the new-game form and the game-kind registry, settings, the word judge and calibration. Every
screen is saved as a PNG under tmp_path (run with ``--basetemp out/shots`` to look at them)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from device import games  # noqa: E402
from device.app import App, build  # noqa: E402
from device.config import Config, GameSettings  # noqa: E402
from device.demo import DEMO_DIR  # noqa: E402
from device.errors import ConfigError, GameUnavailable  # noqa: E402
from device.flow import Collaborators, EventKind, Flow, FlowEvent, State  # noqa: E402
from device.overlays import JUDGE_BACK_S, DeviceSettings, saved_profile  # noqa: E402
from device.store import Store  # noqa: E402
from device.ui import view as v  # noqa: E402

A = v.ActionKind


class FakeTime:
    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t


class FakeJudge:
    """Accepts the words in ``good`` (the judge protocol: judge_play -> PlayVerdict)."""

    def __init__(self, good: set[str]) -> None:
        self.good = good
        self.asked: list[tuple[str, ...]] = []

    def judge_play(self, words):
        from engine.lexicon.judge import PlayVerdict, Verdict, WordVerdict

        words = tuple(words)
        self.asked.append(words)
        verdicts = tuple(WordVerdict(w, Verdict.VALID if w in self.good else Verdict.INVALID, "test") for w in words)
        return PlayVerdict(all(w in self.good for w in words), verdicts)


class Shots:
    def __init__(self, app: App, folder: Path) -> None:
        self.app, self.folder, self.n = app, folder, 0
        folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, name: str) -> Path:
        self.n += 1
        path = self.folder / f"{self.n:02d}-{name}.png"
        pygame.image.save(self.app.draw(), str(path))
        return path


def new_app(tmp_path: Path, **game: object) -> App:
    from device.config import UiSettings  # START goes straight to the game; the start draw: test_rules_start_draw.py

    config = Config(game=GameSettings(**game) if game else GameSettings(), data_dir=str(tmp_path / "data"),
                    ui=UiSettings(start_draw=False))
    app, _store = build(config, headless=True)
    app.collaborators.now = FakeTime()
    return app


def tap(app: App, want) -> None:
    """Touch the centre of the first hot region whose action satisfies ``want`` (a finger down and up)."""
    app.draw()
    for rect, target in app.renderer.hot:
        if isinstance(target, v.UiAction) and want(target):
            x, y = rect.center
            w, h = app.size
            for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
                pygame.event.post(pygame.event.Event(kind, x=x / w, y=y / h, finger_id=0, touch_id=0))
            app.step(0)
            return
    have = [(t.kind.value, t.key or t.text) for _, t in app.renderer.hot if isinstance(t, v.UiAction)]
    raise AssertionError(f"nothing to tap for this test on {app.view().screen}; on screen: {have}")


def tap_kind(app: App, kind: v.ActionKind) -> None:
    if kind in (A.SETTINGS, A.JUDGE, A.END_GAME) and app.view().screen is v.Screen.SCOREBOARD:
        tap(app, lambda t: t.kind is A.MENU)  # the less used buttons are behind MORE
    tap(app, lambda t: t.kind is kind)


def tap_option(app: App, key: str) -> None:
    tap(app, lambda t: t.kind in (A.SET_OPTION, A.EDIT_OPTION) and t.key == key)


def type_text(app: App, text: str) -> None:
    for ch in text:
        if ch == " ":
            tap_kind(app, A.SPACE)
        else:
            tap(app, lambda t, ch=ch: t.kind is A.KEY and t.text == ch)


def clear_entry(app: App) -> None:
    while app.renderer.state.entry:
        tap_kind(app, A.BACKSPACE)


def set_option(app: App, key: str, value: str) -> None:
    for _ in range(12):
        if option(app.view(), key).value == value:
            return
        tap_option(app, key)
    raise AssertionError(f"option {key} never reached {value!r}; it is {option(app.view(), key).value!r}")


def option(view: v.View, key: str) -> v.Option:
    return next(o for o in view.form.options if o.key == key)


# -- the registry -------------------------------------------------------------------------------------

def test_registry_gives_a_flow_class_per_kind_and_refuses_unknown_ones(monkeypatch) -> None:
    assert games.flow_class_for("scrabble") is Flow and games.flow_class_for("alfapet") is Flow
    for kind in ("ordskifte", "keywords"):
        if games.available(kind):  # built in parallel: when present, it must be the named class
            cls = games.flow_class_for(kind)
            assert cls.__module__ == f"device.{kind}_flow"
    with pytest.raises(GameUnavailable, match="'chess' is unknown"):
        games.flow_class_for("chess")
    monkeypatch.setitem(games.FLOW_CLASSES, v.GameKind.ORDSKIFTE, "device.no_such_flow:OrdskifteFlow")
    with pytest.raises(GameUnavailable, match="not available.*choose another game"):
        games.flow_class_for("ordskifte")
    assert not games.available("ordskifte")


# -- the new-game form ---------------------------------------------------------------------------------

def test_new_game_form_by_touch_starts_an_alfapet_game_and_stores_the_settings(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    shot = Shots(app, tmp_path / "shots")
    assert app.view().screen is v.Screen.NEW_GAME  # no unfinished game: the form comes first
    shot("form-default")
    tap_kind(app, A.BACK)  # nothing to go back to: stays, says why
    assert app.view().screen is v.Screen.NEW_GAME and app.view().message == v.Text("msg.no_game_to_go_back")
    set_option(app, "game", "alfapet")
    assert [c.value for c in option(app.view(), "rack_size").choices] == ["6", "7", "8"]
    set_option(app, "rack_size", "8")
    set_option(app, "language", "sv")
    set_option(app, "players", "3")
    tap_option(app, "player3")  # opens the keyboard for the name
    shot("form-edit-name")
    clear_entry(app)
    type_text(app, "ÅSA ÖST")  # the keys are capitals; a name keeps a capital only at the start of each part
    tap_kind(app, A.ENTER)
    assert app.overlay.values["player3"] == "Åsa Öst"
    set_option(app, "challenge_rule", "void")
    set_option(app, "minutes", "15")
    shot("form-alfapet")
    tap_kind(app, A.START_GAME)
    view = app.view()
    shot("scoreboard-alfapet")
    assert view.screen is v.Screen.SCOREBOARD and view.game is v.GameKind.ALFAPET
    assert [p.name for p in view.players] == ["Player 1", "Player 2", "Åsa Öst"]
    game = app.flow.game
    assert game.rules.rack_size == 8 and game.rules.challenge_rule.value == "void"
    assert app.collaborators.clock.budget_ms == 15 * 60_000 and app.collaborators.clock.players == 3
    saved = app.collaborators.store.load(app.flow.s.game_id)
    assert saved.settings.game == "alfapet" and saved.settings.rack_size == 8 and saved.settings.minutes == 15
    assert saved.settings.players == ("Player 1", "Player 2", "Åsa Öst")


def test_new_game_form_refuses_bad_choices_with_a_message(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    set_option(app, "game", "scrabble")
    assert [c.value for c in option(app.view(), "rack_size").choices] == ["7", "9"]
    for key in ("player1", "player2"):
        tap_option(app, key)
        clear_entry(app)
        type_text(app, "ANN")
        tap_kind(app, A.ENTER)
    view = app.view()
    assert not view.form.can_start and view.message == v.Text("msg.same_name")
    with pytest.raises(AssertionError, match="nothing to tap"):
        tap_kind(app, A.START_GAME)  # START is disabled
    app.dispatch(v.UiAction(A.START_GAME))  # and refused if it comes anyway
    assert app.view().screen is v.Screen.NEW_GAME and app.collaborators.store.games() == []
    # Keywords is a two-player game: the player count follows the game.
    set_option(app, "game", "keywords")
    assert [c.value for c in option(app.view(), "players").choices] == ["2"]


def test_a_game_of_another_kind_switches_the_flow_and_resumes_by_its_stored_kind(tmp_path: Path) -> None:
    app = new_app(tmp_path, players=("Ann", "Bob"))
    tap_kind(app, A.START_GAME)
    assert type(app.flow) is Flow and app.view().screen is v.Screen.SCOREBOARD
    first = app.flow.s.game_id
    kind = next((k for k in ("ordskifte", "keywords") if games.available(k)), None)
    if kind is None:
        pytest.skip("neither device.ordskifte_flow nor device.keywords_flow is importable yet")
    tap_kind(app, A.SETTINGS)
    tap_kind(app, A.NEW_GAME)  # the scoreboard's settings screen leads to the new-game form
    assert app.view().screen is v.Screen.NEW_GAME and app.overlay.values["player1"] == "Ann"
    tap_kind(app, A.BACK)  # back to the game that was on
    assert app.view().screen is v.Screen.SCOREBOARD and app.flow.s.game_id == first
    tap_kind(app, A.SETTINGS)
    tap_kind(app, A.NEW_GAME)
    set_option(app, "game", kind)
    tap_kind(app, A.START_GAME)
    assert type(app.flow) is games.flow_class_for(kind)
    assert app.view().screen in (v.Screen.ORDSKIFTE, v.Screen.KEYWORDS)
    Shots(app, tmp_path / "shots")(kind)
    store = app.collaborators.store
    game_id = store.unfinished()
    assert store.kind(game_id) == kind and game_id != first
    store.close()
    again = new_app(tmp_path)  # a restart resumes the newest unfinished game with its own flow class
    assert type(again.flow) is games.flow_class_for(kind) and again.overlay is None


def test_an_unavailable_kind_is_a_message_not_a_crash(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(games.FLOW_CLASSES, v.GameKind.ORDSKIFTE, "device.no_such_flow:OrdskifteFlow")
    app = new_app(tmp_path)
    set_option(app, "game", "ordskifte")
    view = app.view()
    Shots(app, tmp_path / "shots")("form-unavailable")
    assert not view.form.can_start and view.message == v.Text.of("msg.game_unavailable", game="Ordskifte")
    app.dispatch(v.UiAction(A.START_GAME))
    assert app.view().screen is v.Screen.NEW_GAME and app.collaborators.store.games() == []
    # A stored game of a kind this build cannot play: the form, with the reason, at start-up.
    store = app.collaborators.store
    store.create_game(GameSettings(game="ordskifte", players=("Ann", "Bob"), clock="turn"))
    store.close()
    again = new_app(tmp_path)
    assert again.view().screen is v.Screen.NEW_GAME
    message = again.view().message
    assert message.key == "msg.cannot_resume" and "ordskifte" in message.fields()["detail"]


# -- settings ---------------------------------------------------------------------------------------------

def test_settings_change_language_auto_accept_and_mute_at_once_and_persist(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    tap_kind(app, A.START_GAME)
    buzzer = app.collaborators.buzzer
    shot = Shots(app, tmp_path / "shots")
    tap_kind(app, A.SETTINGS)
    assert app.view().screen is v.Screen.SETTINGS
    shot("settings")
    set_option(app, "ui_language", "sv")
    assert app.view().language == "sv"
    while app.overlay.settings.auto_accept_s != 5:
        tap_option(app, "auto_accept")
    tap_option(app, "buzzer")
    assert app.overlay.settings.mute and app.collaborators.buzzer is None
    shot("settings-sv")
    tap_kind(app, A.BACK)
    view = app.view()
    assert view.screen is v.Screen.SCOREBOARD and view.language == "sv" and app.flow.auto_accept_s == 5
    shot("scoreboard-sv")
    saved = json.loads((tmp_path / "data" / "device-settings.json").read_text())
    assert saved == {"language": "sv", "auto_accept_s": 5.0, "mute": True}
    app.collaborators.store.close()
    again = new_app(tmp_path)
    assert again.flow.language == "sv" and again.flow.auto_accept_s == 5 and again.collaborators.buzzer is None
    tap_kind(again, A.SETTINGS)
    tap_option(again, "buzzer")  # un-mute gives the real buzzer back
    assert again.collaborators.buzzer is not None or buzzer is None


def test_unreadable_settings_file_is_reported_and_defaults_are_used(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "device-settings.json").write_text('{"language": "xx"}')
    app = new_app(tmp_path)
    assert app.flow.language == "en"
    assert any(n.key == "warn.settings" and "'xx'" in n.detail for n in app.view().warnings)
    assert DeviceSettings.load(tmp_path / "nothing", Config().ui) == DeviceSettings.defaults(Config().ui)


# -- the word judge ------------------------------------------------------------------------------------

def test_word_judge_by_touch_verdict_and_back_after_ten_seconds_or_a_tap(tmp_path: Path) -> None:
    app = new_app(tmp_path, players=("Ann", "Bob"))
    tap_kind(app, A.START_GAME)
    judge = FakeJudge({"QI", "ZA"})
    app.collaborators.judge = judge
    clock = app.collaborators.now
    shot = Shots(app, tmp_path / "shots")
    game_clock = app.collaborators.clock
    clock.t += 30  # Ann thinks for half a minute, then asks the judge
    before = game_clock.readings_ms(clock())
    tap_kind(app, A.JUDGE)
    assert app.view().screen is v.Screen.JUDGE
    type_text(app, "QI ZA")
    shot("judge-typing")
    tap_kind(app, A.ENTER)
    view = app.view()
    assert judge.asked == [("QI", "ZA")] and view.verdict.acceptable
    assert view.verdict.countdown_ms == JUDGE_BACK_S * 1000
    shot("judge-acceptable")
    clock.t += 4
    app.step(0)
    assert app.view().verdict.countdown_ms == (JUDGE_BACK_S - 4) * 1000  # the View carries the countdown
    clock.t += JUDGE_BACK_S - 4
    app.step(0)
    assert app.view().screen is v.Screen.SCOREBOARD
    # The ten seconds at the judge were time out: nobody's clock ran, and Ann's runs again now.
    assert game_clock.readings_ms(clock()) == before and not game_clock.paused
    # An unacceptable play, dismissed by a tap before the time is up.
    tap_kind(app, A.JUDGE)
    type_text(app, "QI QX")
    tap_kind(app, A.ENTER)
    view = app.view()
    assert not view.verdict.acceptable and [w.acceptable for w in view.verdict.words] == [True, False]
    shot("judge-unacceptable")
    tap_kind(app, A.OK)
    assert app.view().screen is v.Screen.SCOREBOARD and app.flow.state is State.PLAYING


def test_word_judge_with_the_real_word_list(tmp_path: Path) -> None:
    from device.paths import lexicon_dir
    from engine.errors import EngineError
    from engine.lexicon.judge import open_judge

    try:
        judge = open_judge("en", lexicon_dir())
    except EngineError as exc:
        pytest.skip(f"the English word list is not built: {exc}")
    app = new_app(tmp_path, players=("Ann", "Bob"))
    tap_kind(app, A.START_GAME)
    app.collaborators.judge = judge
    tap_kind(app, A.JUDGE)
    app.dispatch(v.UiAction(A.JUDGE_WORDS, words=("QUIXOTIC",)))
    assert app.view().verdict.acceptable
    app.dispatch(v.UiAction(A.OK))
    tap_kind(app, A.JUDGE)
    app.dispatch(v.UiAction(A.JUDGE_WORDS, words=("QUIXOTIC", "QXZRT")))
    assert not app.view().verdict.acceptable


# -- calibration -------------------------------------------------------------------------------------

def test_calibration_preview_draws_the_grid_and_save_makes_the_profile_the_default(tmp_path: Path) -> None:
    pytest.importorskip("vision.calibrate")
    from hardware.camera import ReplayCamera

    app = new_app(tmp_path, players=("Ann", "Bob"))
    tap_kind(app, A.START_GAME)
    app.collaborators.camera = ReplayCamera(DEMO_DIR)
    shot = Shots(app, tmp_path / "shots")
    tap_kind(app, A.SETTINGS)
    tap_kind(app, A.CALIBRATE)
    view = app.view()
    assert view.screen is v.Screen.CALIBRATION
    cal = view.calibration
    assert cal.frame is not None and len(cal.corners) == 4 and cal.ok and cal.grid_size == 15
    xs = [x for x, _ in cal.corners]
    h, w = cal.frame.shape[:2]
    assert 0 <= min(xs) < max(xs) <= w and max(xs) - min(xs) > w / 2  # the board fills most of the picture
    shot("calibration")
    assert saved_profile(app.data_dir, 15) is None
    tap_kind(app, A.SAVE_CALIBRATION)
    path = saved_profile(app.data_dir, 15)
    assert path is not None and path.with_suffix(".png").exists()
    from vision.profile import load_profile

    assert load_profile(path).grid == 15
    assert app.board_profile(GameSettings()) == str(path)  # games without their own profile use it
    assert app.board_profile(GameSettings(board_profile="classic-scrabble")) == "classic-scrabble"
    shot("calibration-saved")
    tap_kind(app, A.BACK)
    tap_kind(app, A.SETTINGS)
    tap_kind(app, A.NEW_GAME)
    assert str(path) in [c.value for c in option(app.view(), "board_profile").choices]


def test_calibration_locks_exposure_on_the_board_and_later_starts_apply_it(tmp_path: Path) -> None:
    pytest.importorskip("vision.calibrate")
    from device.overlays import apply_saved_exposure
    from hardware.camera import ReplayCamera

    class LockingCamera(ReplayCamera):
        """A replay camera that can lock exposure as picamera2 does; captures after the lock are counted."""

        def __init__(self, folder: Path) -> None:
            super().__init__(folder)
            self.events: list[str] = []
            self.applied: dict | None = None

        def lock_exposure(self) -> dict:
            self.events.append("lock")
            return {"AeEnable": False, "AwbEnable": False, "ExposureTime": 9000, "AnalogueGain": 1.5,
                    "ColourGains": (1.8, 1.5)}

        def apply_exposure(self, controls: dict) -> dict:
            self.applied = dict(controls)
            return self.applied

        def capture(self):
            self.events.append("capture")
            return super().capture()

    app = new_app(tmp_path, players=("Ann", "Bob"))
    tap_kind(app, A.START_GAME)
    camera = LockingCamera(DEMO_DIR)
    app.collaborators.camera = camera
    tap_kind(app, A.SETTINGS)
    tap_kind(app, A.CALIBRATE)
    camera.events.clear()
    tap_kind(app, A.SAVE_CALIBRATION)
    assert saved_profile(app.data_dir, 15) is not None
    assert camera.events[:2] == ["lock", "capture"]  # the profiled frame is taken with the locked exposure
    saved = json.loads((app.data_dir / "profiles" / "camera-exposure.json").read_text())
    assert saved == {"ExposureTime": 9000, "AnalogueGain": 1.5, "ColourGains": [1.8, 1.5]}
    restarted = LockingCamera(DEMO_DIR)
    assert apply_saved_exposure(restarted, app.data_dir)
    assert restarted.applied == saved
    (app.data_dir / "profiles" / "camera-exposure.json").write_text("{broken")
    assert not apply_saved_exposure(LockingCamera(DEMO_DIR), app.data_dir)  # logged, camera left as it is
    assert not apply_saved_exposure(ReplayCamera(DEMO_DIR), app.data_dir)  # a camera without exposure control


def test_calibration_without_a_camera_says_so(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    tap_kind(app, A.START_GAME)
    app.dispatch(v.UiAction(A.CALIBRATE))
    view = app.view()
    Shots(app, tmp_path / "shots")("calibration-no-camera")
    assert view.screen is v.Screen.CALIBRATION and not view.calibration.ok and (
        view.calibration.message == v.Text("msg.no_camera_connect"))
    app.dispatch(v.UiAction(A.SAVE_CALIBRATION))
    assert saved_profile(app.data_dir, 15) is None
    app.dispatch(FlowEvent(EventKind.BACK))
    assert app.view().screen is v.Screen.SCOREBOARD


def test_portrait_screen_fits_the_four_player_form_and_the_settings(tmp_path: Path) -> None:
    from device.config import UiSettings

    config = Config(game=GameSettings(players=("Ann", "Bob", "Cid", "Dan")), data_dir=str(tmp_path / "data"),
                    ui=UiSettings(width=720, height=1280, start_draw=False))
    app, _store = build(config, headless=True)
    shot = Shots(app, tmp_path / "shots")
    shot("portrait-form")
    rows = [rect for rect, t in app.renderer.hot if isinstance(t, v.UiAction) and t.kind in (A.SET_OPTION,
                                                                                              A.EDIT_OPTION)]
    # game, language, players, 4 names, rack, clock, minutes, rule, board, family hint, and the word list when there
    # is a choice; the options that do not apply to Scrabble (seconds, target) are left out.
    lists = app.overlay.options()[2].enabled
    assert len(rows) == 13 + lists
    screen = pygame.Rect(0, 0, 720, 1280)
    assert all(screen.contains(r) and r.h >= 48 * 1.5 for r in rows)  # a finger-sized row each (48 px at 800x480)
    assert not any(a.colliderect(b) for i, a in enumerate(rows) for b in rows[i + 1:])
    tap_kind(app, A.START_GAME)
    tap_kind(app, A.SETTINGS)
    shot("portrait-settings")
    assert app.view().screen is v.Screen.SETTINGS


def test_the_form_sets_the_word_games_timers_and_the_flows_use_them(tmp_path: Path) -> None:
    from dataclasses import replace

    from device.games import NewGameForm
    from device.keywords_flow import KeywordsFlow
    from device.ordskifte_flow import OrdskifteFlow, timer_seconds

    form = NewGameForm(GameSettings(), language="nb")
    form.set("game", "ordskifte")
    assert option(form.view(), "timer_seconds").enabled and not option(form.view(), "target_score").enabled
    assert [c.value for c in option(form.view(), "timer_seconds").choices] == ["60", "30", "120", "180"]
    form.set("timer_seconds", "120")
    settings = form.settings()
    assert settings.timer_seconds == 120 and timer_seconds(settings, {}) == 120
    store = Store(tmp_path / "games.sqlite")
    flow = OrdskifteFlow(Collaborators(store=store, now=lambda: 0.0), auto_accept_s=0, language="nb")
    flow.new_game(settings)
    assert flow.meta["timer_s"] == 120

    form.set("game", "keywords")
    form.set("timer_seconds", "45")
    form.set("target_score", "50")
    settings = form.settings()
    assert (settings.timer_seconds, settings.target_score) == (45, 50)
    keywords = KeywordsFlow(Collaborators(store=store, now=lambda: 0.0), auto_accept_s=0, language="nb")
    keywords.new_game(replace(settings, players=("Åse", "Bo")))
    assert keywords.meta["target"] == 50 and keywords.meta["round_s"] == 45
    with pytest.raises(ConfigError, match="timer_seconds"):
        GameSettings.from_dict({"game": "ordskifte", "players": ["A", "B"], "timer_seconds": 5})

# SPDX-License-Identifier: GPL-3.0-or-later
"""Composition root and the one event loop.

:func:`build` wires config -> store -> game -> clock -> hardware -> vision -> UI, each passed in
(no singletons, nothing at import). :class:`App` runs one loop that takes button events (the
hardware queue), touches (pygame FINGER* events or mouse events, never both), keys, and clock
readings, feeds them to the game's flow, draws its :class:`View` and pings the systemd watchdog.

The flow class comes from :func:`device.games.flow_class_for` by the game's kind (resume uses the
stored kind; a new game of another kind gets a new flow over the same collaborators). The app runs
the new-game form, settings, word judge and calibration itself (``App.overlay``) above the flow.
"""

from __future__ import annotations

import enum
import logging
import os
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.config import Config, GameSettings
from device.flow import Flow, State
from device.notify import Notifier, status_text
from device.ports import Collaborators, EventKind, FlowEvent, GameFlow
from device.store import Store, open_store
from device.texts import cannot_start_text
from device.ui import view as v

log = logging.getLogger(__name__)

#: How often the running clocks are saved (a crash then loses at most this much clock time).
CLOCK_SAVE_S = 5.0

#: Keyboard stand-ins for the buttons (development, no GPIO).
KEYS = {
    "1": FlowEvent(EventKind.PLAYER_BUTTON, 0), "2": FlowEvent(EventKind.PLAYER_BUTTON, 1),
    "3": FlowEvent(EventKind.PLAYER_BUTTON, 2), "4": FlowEvent(EventKind.PLAYER_BUTTON, 3),
    "return": FlowEvent(EventKind.CONFIRM), "c": FlowEvent(EventKind.CHALLENGE), "u": FlowEvent(EventKind.UNDO),
    "escape": FlowEvent(EventKind.BACK), "o": FlowEvent(EventKind.OK), "p": FlowEvent(EventKind.PASS),
}


def button_to_event(event: Any) -> FlowEvent | None:
    """A hardware :class:`~hardware.events.ButtonEvent` as a flow event (presses, and a held menu button)."""
    from hardware.events import ButtonEventKind, ButtonRole

    role, kind = event.role, event.kind
    if role is ButtonRole.MENU:
        return FlowEvent(EventKind.END_GAME) if kind is ButtonEventKind.HOLD else None
    if kind is not ButtonEventKind.PRESS:
        return None
    if role.player is not None:
        return FlowEvent(EventKind.PLAYER_BUTTON, role.player)
    return {
        ButtonRole.CHALLENGE: FlowEvent(EventKind.CHALLENGE),
        ButtonRole.CONFIRM: FlowEvent(EventKind.CONFIRM),
        ButtonRole.UNDO: FlowEvent(EventKind.UNDO),
    }.get(role)


def load_renderer(size: tuple[int, int]) -> Any:
    """The touchscreen's renderer at ``size`` with the strings files loaded."""
    from device.ui.renderer import Renderer
    from device.ui.strings import Strings

    return Renderer(size, Strings.load())


@dataclass
class App:
    """One loop over every input. ``inputs`` takes ButtonEvent, UiAction and FlowEvent values."""

    flow: GameFlow
    inputs: queue.Queue = field(default_factory=queue.Queue)
    notifier: Notifier = field(default_factory=Notifier)
    renderer: Any = None
    size: tuple[int, int] = (800, 480)
    pointer: str = "finger"
    """Configured pointer ("finger" or "mouse"); the InputAdapter takes both (and skips SDL's mouse copies)."""
    display: bool = False
    """A pygame display is open: read its events and flip it."""
    on_view: Callable[[v.View, Any], None] | None = None
    """Called after each draw with the view and the drawn surface (screenshots, tests)."""
    running: bool = True
    config: Config = field(default_factory=Config)
    collaborators: Collaborators | None = None
    """Shared by every flow the app builds (a new game of another kind gets a new flow over them)."""
    data_dir: Path | None = None
    notices: list[v.Notice] = field(default_factory=list)
    """Start-up warnings, carried over to every flow."""
    overlay: Any = None
    """A screen the app runs itself above the flow (new-game form, settings, judge, calibration)."""
    device_settings: Any = None
    """:class:`device.overlays.DeviceSettings` (screen language, auto-accept, mute) over the config."""
    held_clock: Any = None
    """The game clock this app paused while a screen above the game is open (resumed when it closes)."""
    buzzer: Any = None
    """The real buzzer; the flows get None while muted."""
    devices: list[Any] = field(default_factory=list)
    """Hardware the app opened (buttons, camera, buzzer, LEDs): closed by :meth:`close`, last opened first."""
    solo: Any = None
    """:class:`device.solo_play.SoloTracker` while a one-player board game (solo practice) is on."""
    lexicon_dir: Path | None = None
    """Where the word lists and their word graphs are (default: <data>/lexicons)."""
    touch: Any = None
    """The :class:`device.ui.input.InputAdapter` (one action per tap, on release; the tested path)."""
    disk: Any = None
    """:class:`device.diskwatch.DiskWatch` of the data disk: a warning while it is low on space."""
    _screen: Any = None
    _ready: bool = False
    _clock_saved: float = float("-inf")

    def open_display(self, *, fullscreen: bool = False, headless: bool = False) -> None:
        import pygame

        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        flags = pygame.FULLSCREEN if fullscreen else 0
        try:
            pygame.display.init()
            pygame.font.init()
            self._screen = pygame.display.set_mode(self.size, flags)
        except pygame.error as exc:
            from device.doctor import display_problem
            from device.errors import DisplayUnavailable

            raise DisplayUnavailable(display_problem(str(exc))) from None
        pygame.display.set_caption("Ordvakt")
        self.display = True

    # -- games ---------------------------------------------------------------------------------------
    def _collaborators(self) -> Collaborators:
        if self.collaborators is None:
            self.collaborators = self.flow.c
        return self.collaborators

    def _new_flow(self, kind: str) -> Any:
        c = self._collaborators()
        c.judge, c.reader = None, None
        ds = self._device_settings()
        flow = make_flow(kind, c, auto_accept_s=ds.auto_accept_s, language=ds.language)
        flow.notices.extend(self.notices)
        return flow

    def _attach(self, settings: GameSettings) -> None:
        """Judge and camera reader for ``settings`` (a resumed or new game)."""
        c = self._collaborators()
        judge, why = open_judge_or_none(settings)
        c.judge = judge
        if judge is None:
            log.warning("no word list for %s, challenges are decided by the players: %s", settings.language, why)
            self._notice(v.Notice("warn.lexicon_missing", v.Severity.WARNING, why))
        if c.camera is not None and v.GameKind(settings.game).board_game:
            try:
                from device.reading import VisionReader

                tileset = settings.rules().tileset
                learned = self.data_dir / "learned" / f"{tileset.name}.tiles" if self.data_dir else None
                c.reader = VisionReader(self.board_profile(settings), tileset, learned=learned)
                if c.reader.problem:
                    self._notice(v.Notice("warn.camera_lost", v.Severity.WARNING, c.reader.problem))
            except Exception as exc:  # vision is optional: manual entry still works
                self._notice(v.Notice("warn.camera_lost", v.Severity.WARNING, f"vision: {exc}"))

    def board_profile(self, settings: GameSettings) -> str:
        """The game's board profile: its own, else one calibrated on this device, else the game's default."""
        from device.overlays import saved_profile

        if settings.board_profile:
            return settings.board_profile
        size = settings.rules().layout.size
        saved = saved_profile(self.data_dir, size)
        if saved is not None:
            return str(saved)
        return "alfapet-17" if size == 17 else "scrabscrap"

    def _device_settings(self) -> Any:
        from device.overlays import DeviceSettings

        if self.device_settings is None:
            self.device_settings = DeviceSettings.defaults(self.config.ui)
        return self.device_settings

    def apply_settings(self, settings: Any) -> None:
        """Screen language, auto-accept delay and mute take effect at once (the game is not touched)."""
        self.device_settings = settings
        c = self._collaborators()
        if self.buzzer is None and c.buzzer is not None:
            self.buzzer = c.buzzer
        c.buzzer = None if settings.mute else self.buzzer
        self.flow.language = settings.language
        self.flow.auto_accept_s = settings.auto_accept_s

    def _game_settings(self) -> GameSettings:
        return self.flow.settings if self.flow.game_id is not None else self.config.game

    def open_screen(self, kind: v.ActionKind) -> None:
        """Open the settings, judge or calibration screen above the game."""
        from device.overlays import CalibrationScreen, JudgeScreen, SettingsScreen

        c = self._collaborators()
        notices = tuple(self.notices)
        # Looking up a word or changing a setting is time out, as pressing pause on a chess clock.
        if c.clock is not None and not c.clock.paused and self.held_clock is None:
            c.clock.pause(c.now())
            self.held_clock = c.clock
        if kind is v.ActionKind.SETTINGS:
            self.overlay = SettingsScreen(self._device_settings(), data_dir=self.data_dir, apply=self.apply_settings,
                                          notices=notices)
        elif kind is v.ActionKind.JUDGE:
            settings = self._game_settings()
            judge, why = (c.judge, "") if c.judge is not None else open_judge_or_none(settings)
            alphabet = self.flow.view().alphabet
            self.overlay = JudgeScreen(judge, why=why, language=self.language, alphabet=alphabet, now=c.now,
                                       notices=notices)
        elif kind is v.ActionKind.CALIBRATE:
            settings = self._game_settings()
            game = settings if v.GameKind(settings.game).board_game else GameSettings()
            layout = game.rules().layout.name
            self.overlay = CalibrationScreen(c.camera, data_dir=self.data_dir or Path("."), layout_name=layout,
                                             profile=self.board_profile(game), language=self.language, now=c.now,
                                             notices=notices)
            self.overlay.refresh()

    def _graph_file(self, language: str) -> Path | None:
        """The move generator's word graph for ``language`` (None when it was not built)."""
        from device.missed import graph_file_for
        from device.paths import lexicon_dir

        return graph_file_for(self.lexicon_dir or lexicon_dir(), language)

    def open_missed_moves(self) -> None:
        """The moves-you-missed screen, only once a board game has ended (never during a game)."""
        from device.missed import MissedMovesScreen

        view = self.flow.view()
        if view.screen is not v.Screen.END or not view.game.board_game:
            return
        game = self.flow.game  # type: ignore[attr-defined]  # the board games' Flow
        graph = self._graph_file(game.rules.tileset.language)
        self.overlay = MissedMovesScreen(game, list(game.players), graph, language=self.language, kind=view.game,
                                         lettered_rows=self.flow.settings.lettered_rows)

    def open_hint(self) -> None:
        """The family-hint screen, only in a board game whose players chose the hint on the new-game form."""
        from device.hint import HintScreen

        view = self.flow.view()
        if view.screen is not v.Screen.SCOREBOARD or not view.hint or not view.game.board_game:
            return
        game = self.flow.game  # type: ignore[attr-defined]  # the board games' Flow
        graph = self._graph_file(game.rules.tileset.language)
        self.overlay = HintScreen(game.board, game.rules, graph, language=self.language, kind=view.game,
                                  alphabet=view.alphabet)

    def _release_clock(self) -> None:
        clock, self.held_clock = self.held_clock, None
        c = self._collaborators()
        if clock is not None and clock is c.clock and clock.paused:
            clock.resume(c.now())

    def _notice(self, notice: v.Notice) -> None:
        """A warning above the game: its key on the screen, its detail (an OS or library message) in the log."""
        if notice.detail:
            log.warning("%s: %s", notice.key, notice.detail)
        if all(n.key != notice.key for n in self.notices):
            self.notices.append(notice)
        if all(n.key != notice.key for n in self.flow.notices):
            self.flow.notices.append(notice)

    def resume_game(self, game_id: int) -> bool:
        """Continue a stored game with the flow class of its stored kind; False (and the new-game form
        with a message) when this build cannot play that kind."""
        from device.errors import GameUnavailable

        store = self._collaborators().store
        kind = store.kind(game_id)
        try:
            flow = self._new_flow(kind)
        except GameUnavailable as exc:
            self.open_new_game_form(message=v.Text.of("msg.cannot_resume", n=game_id, detail=str(exc)))
            return False
        self.flow = flow
        flow.resume(game_id)
        self._attach(store.load(game_id).settings)
        self.overlay = None
        return True

    def start_game(self, settings: GameSettings, meta: Any = None) -> int:
        """A new game of ``settings.game`` (switching flow class when the kind differs); raises GameUnavailable."""
        flow = self._new_flow(settings.game)
        self._attach(settings)
        self.flow = flow
        game_id = flow.new_game(settings, meta=meta)
        self.overlay = None
        return game_id

    def open_new_game_form(self, message: v.Text | None = None) -> None:
        from device.games import NewGameForm

        has_game = self.flow.game_id is not None
        self.overlay = NewGameForm(self.flow.settings if has_game else self._club_defaults(), language=self.language,
                                   can_go_back=has_game, message=message, notices=tuple(self.notices),
                                   profiles=self._profiles(), lexicons=self._lexicons())

    def _club_defaults(self) -> GameSettings:
        """The configured defaults, with the names the club director assigned to this board (club mode)."""
        defaults = self.config.game
        if not self.config.club_settings().enabled:
            return defaults
        from device.club.outbox import assigned_players
        from device.errors import ConfigError

        names = assigned_players(self._collaborators().store.path)
        if not names:
            return defaults
        try:
            return GameSettings.from_dict(dict(defaults.to_dict(), players=list(names)), "club assignment")
        except ConfigError:
            return defaults

    def _profiles(self) -> tuple[str, ...]:
        """Board profiles to offer: this device's calibrated ones, then the built-in ones."""
        from device.overlays import profile_dir

        names: list[str] = []
        if self.data_dir is not None and profile_dir(self.data_dir).is_dir():
            names += [str(p) for p in sorted(profile_dir(self.data_dir).glob("*.toml"))]
        try:
            from vision.profile import available_profiles

            names += available_profiles()
        except ImportError:
            pass
        return tuple(names)

    def _lexicons(self) -> dict[str, tuple[str, ...]]:
        """Installed word lists per language (for the form's lexicon choice)."""
        from device.paths import lexicon_dir

        out: dict[str, list[str]] = {}
        try:
            from engine.lexicon.judge import installed_lists

            for _, manifest, problem in installed_lists(lexicon_dir()):
                if manifest is not None and not problem:
                    out.setdefault(manifest.lang, []).append(manifest.name)
        except Exception:  # a broken list directory must not keep the form from opening
            return {}
        return {lang: tuple(names) for lang, names in out.items()}

    @property
    def language(self) -> str:
        return self.flow.language

    def view(self) -> v.View:
        """What the screen shows: the overlay's view when one is open, else the flow's."""
        if self.overlay is not None:
            return self.overlay.view()
        if self.solo is not None:
            return self.solo.dress(self.flow.view())
        return self.flow.view()

    def dispatch(self, item: Any) -> Any:
        """Feed one input to the overlay or the flow (a ButtonEvent, UiAction or FlowEvent)."""
        if self.solo is not None and not (isinstance(item, FlowEvent) and item.kind is EventKind.TICK):
            self.solo.cancel()  # solo practice: the next button press stops a best-move search still running
        if self.overlay is not None:
            return self._dispatch_overlay(item)
        if isinstance(item, v.UiAction):
            if item.is_local:
                return self.flow.state
            if item.kind is v.ActionKind.NEW_GAME:
                self.open_new_game_form()
                return self.flow.state
            if item.kind in (v.ActionKind.SETTINGS, v.ActionKind.JUDGE, v.ActionKind.CALIBRATE):
                self.open_screen(item.kind)
                return self.flow.state
            if item.kind is v.ActionKind.MISSED_MOVES:
                self.open_missed_moves()
                return self.flow.state
            if item.kind is v.ActionKind.HINT:
                self.open_hint()
                return self.flow.state
            event: FlowEvent | None = self.flow.event_from_action(item)
        elif isinstance(item, FlowEvent):
            event = item
        else:
            event = button_to_event(item)
        if event is None:
            return self.flow.state
        from device.store import StoreError

        try:
            state = self.flow.handle(event)
        except StoreError as exc:  # disk full, read-only, locked: the move was neither saved nor played
            self._notice(v.Notice("warn.database", v.Severity.ERROR, str(exc)))
            return self.flow.state
        if self.overlay is None and self.flow.wants_new_game_form():
            self.open_new_game_form()  # the flow left its game (END -> NEW_GAME)
        return state

    def _dispatch_overlay(self, item: Any) -> Any:
        overlay = self.overlay
        if isinstance(item, FlowEvent):
            action = _flow_event_action(item)
        elif isinstance(item, v.UiAction):
            action = item
        else:
            event = button_to_event(item)
            action = None if event is None else _flow_event_action(event)
        if action is None or action.is_local:
            return self.flow.state
        result = overlay.handle(action)
        return self._overlay_result(result)

    def _overlay_result(self, result: Any) -> Any:
        from device.errors import DeviceError
        from engine.errors import EngineError

        overlay = self.overlay
        if result is None:
            return self.flow.state
        if result == "new_game":
            self.open_new_game_form()
        elif result == "calibrate":
            self.open_screen(v.ActionKind.CALIBRATE)
        elif result == "back":
            self.overlay = None
            self._release_clock()
            self.flow.back_from_new_game()
        elif isinstance(result, GameSettings):
            try:
                from device.start_draw import start_draw_for  # issue 12: who starts, before the game

                draw = start_draw_for(result, overlay, language=self.language, camera=self._collaborators().camera,
                                      board_profile=self.board_profile)
                if draw is not None and self.config.ui.start_draw:
                    self.overlay = draw
                    return self.flow.state
                self.start_game(result)
            except (DeviceError, EngineError) as exc:
                log.warning("the game cannot be started: %s", exc)  # the English detail; the screen words it
                overlay.message = cannot_start_text(exc)
        elif not isinstance(result, str):
            self.overlay = result  # a screen to show again (the start draw's BACK: the form as it was)
        return self.flow.state

    def _pygame_inputs(self) -> None:
        """Window events: the development keys for the buttons, and touches through the InputAdapter (the path
        the tests drive: an action on release over the same target, one per tap, synthesised mouse ignored)."""
        import pygame

        if self.touch is None:
            from device.ui.input import InputAdapter

            self.touch = InputAdapter(self.renderer)
        for e in pygame.event.get():
            if e.type == pygame.QUIT:
                self.running = False
            elif e.type == pygame.KEYDOWN:
                name = pygame.key.name(e.key)
                if name in KEYS:
                    self.inputs.put(KEYS[name])
            elif self.renderer is not None:
                for action in self.touch.handle(e, self.view()):
                    self.inputs.put(action)

    def step(self, wait_s: float = 0.02) -> None:
        """One turn of the loop: inputs, clock, auto-accept, draw, watchdog."""
        if self.display:
            self._pygame_inputs()
        try:
            item = self.inputs.get(timeout=wait_s) if wait_s > 0 else self.inputs.get_nowait()
            self.dispatch(item)
            while True:
                self.dispatch(self.inputs.get_nowait())
        except queue.Empty:
            pass
        self._poll_clock()
        self._watch_disk()
        self.flow.handle(FlowEvent(EventKind.TICK))
        self._follow_solo()
        if self.overlay is not None:
            self._overlay_result(self.overlay.tick(self._collaborators().now()))
        now = self._collaborators().now()
        if self._collaborators().clock is not None and now - self._clock_saved >= CLOCK_SAVE_S:
            self._clock_saved = now
            self.flow.save_clock()
        self.draw()
        if not self._ready:
            self._ready = True
            self.notifier.ready("playing")
        self.notifier.watchdog()

    def _follow_solo(self) -> None:
        """Solo practice (a one-player board game): the best score of each move, found off the UI thread."""
        from device.paths import data_dir
        from device.solo_play import tracker_for

        self.solo = tracker_for(self.flow, self.data_dir or data_dir(), self._graph_file, self.solo)
        if self.solo is not None:  # a board game's Flow: its state says whether the game ended (no view per tick)
            self.solo.update(self.flow.game, self.flow.state is State.END)  # type: ignore[attr-defined]

    def _watch_disk(self) -> None:
        """The low-space warning while the disk is low (the watch looks at the disk every 30 s at most)."""
        if self.disk is None:
            return
        low = self.disk.low()
        shown = any(n.key == "warn.disk_low" for n in self.notices)
        if low and not shown:
            self._notice(v.Notice("warn.disk_low", v.Severity.WARNING, self.disk.describe()))
        elif shown and not low:
            self.notices = [n for n in self.notices if n.key != "warn.disk_low"]
            self.flow.notices[:] = [n for n in self.flow.notices if n.key != "warn.disk_low"]

    def _poll_clock(self) -> None:
        clock = self._collaborators().clock
        if clock is None:
            return
        from engine.clocks import ClockEventKind

        for event in clock.poll(self._collaborators().now()):
            if event.kind is ClockEventKind.WARNING:
                pattern = "tick"
            elif event.kind in (ClockEventKind.EXPIRED, ClockEventKind.OVERTIME_LIMIT):
                pattern = "times-up"
            else:
                continue
            buzzer = self._collaborators().buzzer
            if buzzer is not None:
                buzzer.play(_pattern(pattern))

    def draw(self) -> Any:
        view = self.view()
        self.notifier.status(status_text(view))
        surface = None
        if self.renderer is not None:
            surface = self.renderer.render(view)
            if self._screen is not None:
                self._screen.blit(surface, (0, 0))
                import pygame

                pygame.display.flip()
        if self.on_view is not None:
            self.on_view(view, surface)
        return surface

    def run(self) -> None:
        try:
            while self.running:
                self.step()
        finally:
            self.notifier.stopping()
            self.close()

    def close(self) -> None:
        """Close the hardware this app opened (last opened first); the store is its opener's to close."""
        import logging

        from device.hint import HintScreen
        from device.missed import MissedMovesScreen

        if isinstance(self.overlay, (MissedMovesScreen, HintScreen)):
            self.overlay.close()  # its worker process
        if self.solo is not None:
            self.solo.close()
        while self.devices:
            device = self.devices.pop()
            try:
                device.close()
            except Exception as exc:  # closing must go on to the next device
                logging.getLogger(__name__).warning("closing %r: %s", device, exc)


def _flow_event_action(event: FlowEvent) -> v.UiAction | None:
    """Keys and buttons on an app screen: confirm/OK/back keep their meaning."""
    kinds: dict[enum.Enum, v.ActionKind] = {
        EventKind.CONFIRM: v.ActionKind.OK, EventKind.OK: v.ActionKind.OK, EventKind.BACK: v.ActionKind.BACK,
        EventKind.START: v.ActionKind.START_GAME}
    kind = kinds.get(event.kind)
    return None if kind is None else v.UiAction(kind)


def _pattern(name: str) -> Any:
    from hardware.buzzer import Pattern

    return Pattern(name)


def build_flow(config: Config, store: Store, *, camera: Any = None, reader: Any = None, judge: Any = None,
               buzzer: Any = None, export_dir: Path | None = None, now: Callable[[], float] | None = None,
               kind: str | None = None) -> Any:
    """The flow for ``kind`` (default: the configured game) over fresh collaborators."""
    import time

    collaborators = Collaborators(store=store, camera=camera, reader=reader, judge=judge, buzzer=buzzer,
                                  now=now or time.monotonic, export_dir=export_dir)
    return make_flow(kind or config.game.game, collaborators, auto_accept_s=config.ui.auto_accept_s,
                     language=config.ui.language)


def make_flow(kind: str, collaborators: Collaborators, *, auto_accept_s: float, language: str) -> Any:
    """An instance of the registry's flow class for ``kind`` (raises GameUnavailable)."""
    from device.games import flow_class_for

    return flow_class_for(kind)(collaborators, auto_accept_s=auto_accept_s, language=language)


def open_judge_or_none(settings: GameSettings) -> tuple[Any, str]:
    """The word judge for the game's language, or None and the reason (challenges then need the players)."""
    from device.paths import lexicon_dir
    from engine.errors import EngineError

    try:
        from engine.lexicon.judge import open_judge

        return open_judge(settings.language, lexicon_dir(), settings.lexicon or None), ""
    except (EngineError, ImportError, OSError) as exc:
        return None, str(exc)


def build(config: Config, *, headless: bool = False) -> tuple[App, Store]:
    """The kiosk: config -> store -> game -> clock -> hardware -> vision -> UI."""
    data_dir = config.resolved_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    store = open_store(data_dir)
    hw = config.hardware_config()
    from hardware.buttons import Buttons
    from hardware.buzzer import open_buzzer

    inputs: queue.Queue = queue.Queue()
    buttons = Buttons(hw, events=inputs) if hw.buttons else None
    buzzer = open_buzzer(hw)
    camera = None
    notices: list[v.Notice] = []
    if hw.camera.kind is not None or os.environ.get("ORDVAKT_CAMERA"):
        from hardware.camera import open_camera
        from hardware.errors import HardwareError

        try:
            camera = open_camera(hw)
            from device.overlays import apply_saved_exposure

            apply_saved_exposure(camera, data_dir)
        except HardwareError as exc:
            log.warning("camera unavailable, moves are typed in: %s", exc)
            notices.append(v.Notice("warn.camera_lost", v.Severity.WARNING, str(exc)))
    if store.notice:
        notices.append(v.Notice("warn.database", v.Severity.ERROR, store.notice))
    import time

    from device.archive import ArchiveSettings, PhotoArchive
    from device.diskwatch import DiskWatch

    disk = DiskWatch(data_dir)
    photos = PhotoArchive(data_dir, ArchiveSettings.from_table(config.photos, config.source), disk=disk)
    collaborators = Collaborators(store=store, camera=camera, buzzer=buzzer, now=time.monotonic,
                                  export_dir=data_dir / "exports", photo_archive=photos)
    from device.errors import ConfigError
    from device.overlays import DeviceSettings

    try:
        device_settings = DeviceSettings.load(data_dir, config.ui)
    except ConfigError as exc:
        notices.append(v.Notice("warn.settings", v.Severity.WARNING, str(exc)))
        device_settings = DeviceSettings.defaults(config.ui)
    app = App(_placeholder_flow(collaborators, config), inputs=inputs, renderer=load_renderer(config.ui.size),
              size=config.ui.size, pointer=config.ui.pointer, config=config, collaborators=collaborators,
              data_dir=data_dir, notices=notices, buzzer=buzzer, disk=disk)
    app.apply_settings(device_settings)
    game_id = store.unfinished()
    if game_id is not None:
        app.resume_game(game_id)
    else:
        app.open_new_game_form()
    app.open_display(fullscreen=config.ui.fullscreen and not headless, headless=headless)
    app.devices = [d for d in (buzzer, camera, buttons) if d is not None]  # closed by App.close
    return app, store


def _placeholder_flow(collaborators: Collaborators, config: Config) -> Flow:
    """A board-game flow without a game (state NEW_GAME) until a game is resumed or started."""
    return Flow(collaborators, auto_accept_s=config.ui.auto_accept_s, language=config.ui.language)

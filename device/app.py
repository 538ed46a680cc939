# SPDX-License-Identifier: GPL-3.0-or-later
"""Composition root and the one event loop.

:func:`build` wires config -> store -> game -> clock -> hardware -> vision -> UI, each passed in
(no singletons, nothing at import). :class:`App` runs one loop that takes button events (the
hardware queue), touches (pygame FINGER* events or mouse events, never both), keys, and clock
readings, feeds them to the :class:`~device.flow.Flow`, draws its :class:`View` and pings the
systemd watchdog.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.config import Config, GameSettings
from device.flow import Collaborators, EventKind, Flow, FlowEvent, State, event_from_action
from device.notify import Notifier
from device.store import Store, open_store
from device.ui import view as v

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


def load_renderer(size: tuple[int, int]) -> Any | None:
    """The UI's ``Renderer(size, strings)`` when the UI package provides one."""
    import importlib

    for name in ("device.ui.render", "device.ui.renderer", "device.ui"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        cls = getattr(module, "Renderer", None)
        if cls is not None:
            from device.ui.strings import Strings

            return cls(size, Strings.load())
    return None


@dataclass
class App:
    """One loop over every input. ``inputs`` takes ButtonEvent, UiAction and FlowEvent values."""

    flow: Flow
    inputs: queue.Queue = field(default_factory=queue.Queue)
    notifier: Notifier = field(default_factory=Notifier)
    renderer: Any = None
    size: tuple[int, int] = (800, 480)
    pointer: str = "finger"
    display: bool = False
    """A pygame display is open: read its events and flip it."""
    on_view: Callable[[v.View, Any], None] | None = None
    """Called after each draw with the view and the drawn surface (screenshots, tests)."""
    running: bool = True
    _screen: Any = None
    _ready: bool = False
    _clock_saved: float = float("-inf")

    def open_display(self, *, fullscreen: bool = False, headless: bool = False) -> None:
        import pygame

        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        self._screen = pygame.display.set_mode(self.size, flags)
        pygame.display.set_caption("Ordvakt")
        self.display = True

    def dispatch(self, item: Any) -> State:
        """Feed one input to the flow (a ButtonEvent, UiAction or FlowEvent)."""
        if isinstance(item, FlowEvent):
            event: FlowEvent | None = item
        elif isinstance(item, v.UiAction):
            event = None if item.is_local else event_from_action(item)
        else:
            event = button_to_event(item)
        if event is None:
            return self.flow.state
        return self.flow.handle(event)

    def _pygame_inputs(self) -> None:
        import pygame

        for e in pygame.event.get():
            if e.type == pygame.QUIT:
                self.running = False
            elif e.type == pygame.KEYDOWN:
                name = pygame.key.name(e.key)
                if name in KEYS:
                    self.inputs.put(KEYS[name])
            elif self.renderer is not None and self._is_touch(e):
                pos = self._touch_pos(e)
                view = self.flow.view()
                action = self.renderer.hit(view, pos)
                if action is not None:
                    if hasattr(self.renderer, "apply"):
                        action = self.renderer.apply(view, action)
                    if action is not None:
                        self.inputs.put(action)

    def _is_touch(self, e: Any) -> bool:
        import pygame

        if self.pointer == "finger":
            return e.type == pygame.FINGERDOWN
        # SDL also turns a touch into a mouse event; those are marked as touch and skipped here.
        return e.type == pygame.MOUSEBUTTONDOWN and not getattr(e, "touch", False)

    def _touch_pos(self, e: Any) -> tuple[int, int]:
        import pygame

        if e.type == pygame.FINGERDOWN:
            return (int(e.x * self.size[0]), int(e.y * self.size[1]))
        return e.pos

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
        self.flow.handle(FlowEvent(EventKind.TICK))
        now = self.flow.c.now()
        if self.flow.c.clock is not None and now - self._clock_saved >= CLOCK_SAVE_S:
            self._clock_saved = now
            self.flow.save_clock()
        self.draw()
        if not self._ready:
            self._ready = True
            self.notifier.ready("playing")
        self.notifier.watchdog()

    def _poll_clock(self) -> None:
        clock = self.flow.c.clock
        if clock is None:
            return
        from engine.clocks import ClockEventKind

        for event in clock.poll(self.flow.c.now()):
            if event.kind is ClockEventKind.WARNING:
                self.flow.c.buzzer and self.flow.c.buzzer.play(_pattern("tick"))
            elif event.kind in (ClockEventKind.EXPIRED, ClockEventKind.OVERTIME_LIMIT):
                self.flow.c.buzzer and self.flow.c.buzzer.play(_pattern("times-up"))

    def draw(self) -> Any:
        view = self.flow.view()
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
        while self.running:
            self.step()
        self.notifier.stopping()


def _pattern(name: str) -> Any:
    from hardware.buzzer import Pattern

    return Pattern(name)


def build_flow(config: Config, store: Store, *, camera: Any = None, reader: Any = None, judge: Any = None,
               buzzer: Any = None, export_dir: Path | None = None, now: Callable[[], float] | None = None) -> Flow:
    import time

    collaborators = Collaborators(store=store, camera=camera, reader=reader, judge=judge, buzzer=buzzer,
                                  now=now or time.monotonic, export_dir=export_dir)
    return Flow(collaborators, auto_accept_s=config.ui.auto_accept_s, language=config.ui.language)


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
        except HardwareError as exc:
            notices.append(v.Notice("warn.camera_lost", v.Severity.WARNING, str(exc)))
    settings = config.game
    judge, why = open_judge_or_none(settings)
    if judge is None:
        notices.append(v.Notice("warn.lexicon_missing", v.Severity.WARNING, why))
    reader = None
    if camera is not None:
        from device.reading import VisionReader

        reader = VisionReader(settings.board_profile or "scrabscrap", settings.rules().tileset)
    flow = build_flow(config, store, camera=camera, reader=reader, judge=judge, buzzer=buzzer,
                      export_dir=data_dir / "exports")
    if store.notice:
        notices.append(v.Notice("warn.database", v.Severity.ERROR, store.notice))
    flow.s.notices.extend(notices)
    if camera is None:
        flow.s.camera_lost = True
    game_id = store.unfinished()
    if game_id is not None:
        flow.resume(game_id)
    else:
        flow.new_game(settings)
    flow.s.notices.extend(n for n in notices if n not in flow.s.notices)
    app = App(flow, inputs=inputs, renderer=load_renderer(config.ui.size), size=config.ui.size,
              pointer=config.ui.pointer)
    app.open_display(fullscreen=config.ui.fullscreen and not headless, headless=headless)
    app.buttons = buttons  # type: ignore[attr-defined]  # kept open for the app's lifetime
    return app, store

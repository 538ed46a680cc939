# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared fixtures. The real game material lives in ``../shared/data`` beside the
repository; tests that need it skip with a message naming the path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Headless: no test may open a real window or sound device.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data, or skip the test saying which path is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real test material not found: {path} (the shared data folder beside the repository)")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_path()


def installed_judge(lang: str):
    """The judge over the installed default word list of ``lang``, or skip saying how to build it."""
    from device.paths import lexicon_dir
    from engine.errors import LexiconError
    from engine.lexicon.judge import open_judge

    try:
        return open_judge(lang, lexicon_dir())
    except LexiconError as exc:
        pytest.skip(f"the {lang} word list is not built ({exc}); run: ordvakt lexicon build {lang}")


class FakeTime:
    """A monotonic clock the test moves by hand (``time.t += 5``)."""

    def __init__(self, start: float = 100.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


class RecordingBuzzer:
    """A buzzer that remembers the patterns it was asked to play."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, pattern, *, wait: bool = False) -> None:
        self.played.append(pattern.value)

    def take(self) -> list[str]:
        out, self.played = self.played, []
        return out


class FlowTable:
    """The device around a word-game flow, headless: MockButtons, the 800×480 touchscreen (real renderer
    and input adapter), a recording buzzer, a fake clock and a numbered screenshot per :meth:`shot`."""

    SIZE = (800, 480)

    def __init__(self, tmp_path: Path, flow_class, language: str, *, judge=None, store=None,
                 time: FakeTime | None = None) -> None:
        import queue

        from device.flow import Collaborators
        from device.store import Store
        from device.ui.input import InputAdapter
        from device.ui.renderer import Renderer
        from hardware.buttons import MockButtons

        self.tmp = tmp_path
        self.time = time or FakeTime()
        self.buzzer = RecordingBuzzer()
        self.store = store or Store(tmp_path / "games.sqlite")
        self.c = Collaborators(store=self.store, judge=judge, buzzer=self.buzzer, now=self.time)
        self.flow = flow_class(self.c, auto_accept_s=0, language=language)
        self.renderer = Renderer(self.SIZE)
        self.touch = InputAdapter(self.renderer)
        self.events: queue.Queue = queue.Queue()
        self.buttons = MockButtons(events=self.events, clock=self.time)
        self.shots = 0

    def press_role(self, role) -> None:
        from device.app import button_to_event

        self.buttons.press(role)
        while not self.events.empty():
            event = button_to_event(self.events.get())
            if event is not None:
                self.flow.handle(event)

    def tick(self, seconds: float) -> None:
        from device.flow import EventKind, FlowEvent

        self.time.t += seconds
        self.flow.handle(FlowEvent(EventKind.TICK))

    def tap_target(self, match) -> None:
        """Tap (finger down, finger up) the centre of the first touch target ``match(action)`` accepts."""
        import pygame

        from device.ui import view as v

        view = self.flow.view()
        self.renderer.render(view)
        for rect, target in self.renderer.hot:
            if isinstance(target, v.UiAction) and match(target):
                w, h = self.SIZE
                for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
                    event = pygame.event.Event(kind, x=rect.centerx / w, y=rect.centery / h, touch_id=0, finger_id=0)
                    for action in self.touch.handle(event, view):
                        flow_event = self.flow.event_from_action(action)
                        if flow_event is not None:
                            self.flow.handle(flow_event)
                return
        raise AssertionError(f"no touch target for {match} on {view.screen}")

    def shot(self, name: str) -> Path:
        import pygame

        self.shots += 1
        path = self.tmp / f"{self.shots:03d}-{name}.png"
        pygame.image.save(self.renderer.render(self.flow.view()), str(path))
        return path

    def labels(self, sep: str = " ") -> str:
        self.renderer.render(self.flow.view())
        return sep.join(label.text for label in self.renderer.labels)


def demo_game_settings():
    """The shipped demo game (ScrabScrap game02): its replayed record and the settings it is played with."""
    from device.config import GameSettings
    from device.demo import demo_record

    ref = demo_record()[1].game
    return ref, GameSettings(language="de", players=tuple(ref.players), tileset="scrabble-de", lettered_rows=True,
                             board_profile="scrabscrap", clock="chess", minutes=25, challenge_rule="double")


def play_recorded_turn(flow, expected) -> None:
    """Play one turn of a recorded game on the device flow as the player would: their button, then the
    exchange's tiles or a confirmation of what the camera read."""
    from device.flow import EventKind, FlowEvent, State

    flow.handle(FlowEvent(EventKind.PLAYER_BUTTON, expected.player))
    if flow.state is State.ASK_EXCHANGE_OR_PASS:
        flow.handle(FlowEvent(EventKind.EXCHANGE, text=expected.move.tiles))
    else:
        flow.handle(FlowEvent(EventKind.CONFIRM))

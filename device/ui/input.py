# SPDX-License-Identifier: GPL-3.0-or-later
"""pygame events → core UiActions, each touch handled once.

A finger produces FINGERDOWN/FINGERUP (x, y normalised 0..1) *and*, by default, SDL synthesises
mouse events from it with ``event.touch`` True. We act on FINGERUP and on real mouse clicks
(``touch`` False) and ignore the synthesised ones, so one tap is one action. Acting on release
lets a finger that slides off a button cancel it, as phones do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from device.ui.renderer import Renderer
from device.ui.view import ActionKind, UiAction, View

_KEYS = {pygame.K_BACKSPACE: ActionKind.BACKSPACE, pygame.K_RETURN: ActionKind.ENTER,
         pygame.K_KP_ENTER: ActionKind.ENTER, pygame.K_SPACE: ActionKind.SPACE, pygame.K_ESCAPE: ActionKind.BACK}


@dataclass
class InputAdapter:
    renderer: Renderer
    _down: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    """Finger (touch_id, finger_id) -> pixel position where it went down."""
    _mouse_down: tuple[int, int] | None = None

    def handle(self, event: pygame.event.Event, view: View) -> list[UiAction]:
        """Core actions for one pygame event (usually zero or one)."""
        local = self._translate(event, view)
        if local is None:
            return []
        action = self.renderer.apply(view, local)
        return [action] if action is not None else []

    def _translate(self, event: pygame.event.Event, view: View) -> UiAction | None:
        w, h = self.renderer.size
        if event.type == pygame.FINGERDOWN:
            self._down[(event.touch_id, event.finger_id)] = (int(event.x * w), int(event.y * h))
            return None
        if event.type == pygame.FINGERUP:
            start = self._down.pop((event.touch_id, event.finger_id), None)
            pos = (int(event.x * w), int(event.y * h))
            return self._tap(view, start or pos, pos)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if getattr(event, "touch", False) or event.button != 1:
                return None
            if event.type == pygame.MOUSEBUTTONDOWN:
                self._mouse_down = event.pos
                return None
            start, self._mouse_down = self._mouse_down, None
            return self._tap(view, start or event.pos, event.pos)
        if event.type == pygame.KEYDOWN:
            if event.key in _KEYS:
                return UiAction(_KEYS[event.key])
            ch = getattr(event, "unicode", "")
            if ch and (ch.isalpha() or ch.isdigit() or ch == "?"):
                return UiAction(ActionKind.KEY, text=ch.upper())
        return None

    def _tap(self, view: View, start: tuple[int, int], end: tuple[int, int]) -> UiAction | None:
        """The action if press and release land on the same target."""
        first = self.renderer.hit(view, start)
        if first is None:
            return None
        return first if self.renderer.hit(view, end) == first else None

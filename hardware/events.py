# SPDX-License-Identifier: GPL-3.0-or-later
"""What the buttons tell the application: a role (what the button is for) and a kind of event."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ButtonRole(enum.Enum):
    """What a button is for; the configuration maps each role to a pin (``[hardware.buttons]``)."""

    PLAYER_1 = "player_1"
    PLAYER_2 = "player_2"
    PLAYER_3 = "player_3"
    PLAYER_4 = "player_4"
    CHALLENGE = "challenge"
    """Also pauses every clock while a word is checked."""
    CONFIRM = "confirm"
    UNDO = "undo"
    MENU = "menu"

    @property
    def player(self) -> int | None:
        """0-based player index for the player buttons, else ``None``."""
        if self.value.startswith("player_"):
            return int(self.value[len("player_"):]) - 1
        return None

    @classmethod
    def for_player(cls, player: int) -> ButtonRole:
        """The button of a 0-based player index."""
        return cls(f"player_{player + 1}")


class ButtonEventKind(enum.Enum):
    PRESS = "press"
    HOLD = "hold"
    """Held down for the configured hold time (menu / end of game); comes after PRESS, before RELEASE."""
    RELEASE = "release"


@dataclass(frozen=True)
class ButtonEvent:
    role: ButtonRole
    kind: ButtonEventKind
    at: float
    """``time.monotonic()`` seconds when it happened (same clock as :mod:`engine.clocks` readings)."""

# SPDX-License-Identifier: GPL-3.0-or-later
"""A recorded game written into a store event by event, as the kiosk writes it (the live page's
tests and ``bench/live.py`` watch a game being played this way).

Each event is stored with the chess clock switched to the next player, exactly as the flow does
after a confirmed move; :meth:`StoreFeeder.tick` saves the running clock as the kiosk's loop does
every few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from device.config import GameSettings
from device.store import Store
from engine.clocks import ChessClock
from engine.game import GameEvent
from engine.moves import RackPoints


class StoreFeeder:
    """Plays ``events`` (a recorded game's) into ``store`` one :meth:`step` at a time."""

    def __init__(self, store: Store, settings: GameSettings, events: Sequence[GameEvent], *,
                 now: Callable[[], float] = time.monotonic, photos: Callable[[int, int], str | None] | None = None
                 ) -> None:
        self.store, self.settings, self.events = store, settings, list(events)
        self.now = now
        self.photos = photos
        """``photos(game_id, seq)`` -> the photo path to store with the event, if any."""
        self.game = settings.new_game()
        self.clock = ChessClock(settings.minutes, players=len(settings.players))
        self.game_id: int | None = None

    @property
    def seq(self) -> int:
        return len(self.game.events)

    @property
    def done(self) -> bool:
        return self.seq >= len(self.events)

    def start(self) -> int:
        self.game_id = self.store.create_game(self.settings)
        self.clock.start(self.now(), self.game.to_move)
        self.tick()
        return self.game_id

    def tick(self) -> None:
        assert self.game_id is not None
        self.store.save_clock(self.game_id, self._clock())

    def _clock(self) -> dict[str, Any]:
        return {**self.clock.to_dict(self.now()), "paused": self.clock.paused}

    def step(self) -> GameEvent:
        """Store the next event (committed before this returns); the last one finishes the game."""
        assert self.game_id is not None and not self.done
        recorded = self.events[self.seq]
        before = self.game.board.copy()
        seq = self.seq
        extra: dict[str, Any] = {"clock_ms": list(self.clock.readings_ms(self.now()))}
        photo = self.photos(self.game_id, seq) if self.photos else None
        if photo:
            extra["photo"] = photo
        event = GameEvent(recorded.player, recorded.move, recorded.score, recorded.cumulative, recorded.rack,
                          recorded.words, recorded.note, extra)
        self.game.replay([event])
        if not isinstance(recorded.move, RackPoints):
            self.clock.press(self.now(), recorded.player)
        finished = self.done
        if finished and self.clock.active is not None:
            self.clock.pause(self.now())
        self.store.append_event(self.game_id, event, before, seq, clock=self._clock(),
                                finished=finished, lettered_rows=self.settings.lettered_rows)
        return event

# SPDX-License-Identifier: GPL-3.0-or-later
"""Solo practice on the device (issue 16, seed 000): a one-player Scrabble or Alfapet game where, after each
confirmed move, the scoreboard shows the best score the rack had and the running share of the best, and the
game's total is kept as the player's personal best on that layout when it beats the previous one.

The rack is the tiles the player put down (beside a physical board the device does not see the rack), so the
best is what those tiles could have scored anywhere on the board. The best move is found in the best-move
worker process (:class:`device.solo.BestMoveWorker`): :meth:`SoloTracker.update` runs on each tick and never
waits, and the app calls :meth:`SoloTracker.cancel` on the next button press (that turn's best stays unknown
and out of the share).

Two racks played by one person (the new-game form's "2 racks") are a two-player game whose two seats carry the
same name: turns, clocks and player buttons work as in any two-player game, the scoreboard names each seat
"<name> · rack <n>" in the UI language, the best is shown for the rack that just played, the share runs over
both racks, and the personal best is kept apart from the one-rack best (a two-rack total is not comparable).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from device.errors import DeviceError
from device.solo import BestMoveWorker, PersonalBests, RulesSpec, SoloSession
from device.ui import view as v
from device.ui.strings import Strings
from engine.game import Game
from engine.moves import Placement

BESTS_FILE = "solo-bests.json"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SoloView:
    """SCOREBOARD/END of a solo game."""

    last_score: int | None = None  # the last move's score (None before the first move)
    last_best: int | None = None  # the best its tiles could have scored (None while searching or unknown)
    searching: bool = False
    share: int | None = None  # percent of the best over the turns whose best is known
    total: int = 0
    personal_best: int | None = None  # the best total before this game
    new_best: bool = False  # END: this game's total is the new personal best


class SoloTracker:
    """Follows one solo game: a best-move job per placement, the share, the personal best at the end."""

    def __init__(self, game_id: int, player: str, layout: str, spec: RulesSpec, graph_file: Path | None,
                 bests: PersonalBests, worker: BestMoveWorker | None = None, *, racks: int = 1,
                 strings: Strings | None = None) -> None:
        self.game_id, self.player, self.layout, self.spec = game_id, player, layout, spec
        self.racks = racks
        self.strings = strings  # names the racks on the scoreboard (two racks only)
        self.bests = bests
        try:
            self.previous = bests.get(player, layout, racks)
        except DeviceError as exc:  # an unreadable file: play on without the record (the log says why)
            log.warning("%s", exc)
            self.previous = None
        self.worker = worker
        if worker is None and graph_file is not None:
            try:
                self.worker = BestMoveWorker(graph_file)
            except DeviceError:
                self.worker = None
        self.best: dict[tuple[int, str], int | None] = {}  # (event index, notation) -> best (None: cancelled)
        self._asked: tuple[int, str] | None = None
        self._turns: list[tuple[tuple[int, str], int, int]] = []  # (key, score, rack index)
        self._seen: tuple[int, int] = (0, 0)
        self.offered = False
        self.new_best = False

    def update(self, game: Game, ended: bool) -> None:
        """On each tick: note new moves (and undone ones), collect an answer, ask for the next; at the end,
        offer the total as a personal best once."""
        seen = (len(game.events), id(game.events[-1]) if game.events else 0)
        if seen != self._seen:  # a move played or taken back (replaying the boards each tick would cost)
            self._seen = seen
            self._turns = [((i, e.move.notation(game.board_after(i))), e.score, e.player)
                           for i, e in enumerate(game.events) if isinstance(e.move, Placement)]
        if self.worker is not None:
            try:
                self._poll_and_ask(game)
            except DeviceError:
                self.worker = None
        if ended and not self.offered and not self.searching:
            self.offered = True
            try:
                self.new_best = self.bests.offer(self.session())
            except (DeviceError, OSError) as exc:  # unreadable file, full disk: the game itself is saved
                log.warning("personal best not kept: %s", exc)

    def _poll_and_ask(self, game: Game) -> None:
        assert self.worker is not None
        if self._asked is not None:
            result = self.worker.poll()
            if result is None and self.worker.busy:
                return
            if result is not None:
                self.best[self._asked] = result.score
            self._asked = None
        following = next((key for key, _, _ in self._turns if key not in self.best), None)
        if following is not None:
            index = following[0]
            event = game.events[index]
            rack = event.rack or "".join(event.move.rack_symbols())  # type: ignore[union-attr]
            self.worker.start(game.board_after(index), rack, self.spec)
            self._asked = following

    @property
    def searching(self) -> bool:
        return self._asked is not None

    def cancel(self) -> None:
        """The next button was pressed: stop the running search; that turn's best stays unknown."""
        if self._asked is not None and self.worker is not None:
            self.worker.cancel()
            self.best[self._asked] = None
            self._asked = None

    def session(self) -> SoloSession:
        session = SoloSession(self.player, self.layout, self.racks)
        for key, score, rack in self._turns:
            session.record(rack, score, self.best.get(key))
        return session

    def view(self) -> SoloView:
        session = self.session()
        share = session.share()
        last = self._turns[-1] if self._turns else None
        return SoloView(last[1] if last else None, self.best.get(last[0]) if last else None,
                        last is not None and self._asked == last[0], None if share is None else round(100 * share),
                        session.total(), self.previous.score if self.previous else None, self.new_best)

    def dress(self, view: v.View) -> v.View:
        """``view`` (the flow's) with this tracker's solo band and, with two racks, each seat named by its rack."""
        if self.racks == 2 and self.strings is not None:
            view = replace(view, players=tuple(
                replace(seat, name=self.strings.get(view.language, "solo.rack_name", name=seat.name,
                                                                 rack=i + 1))
                for i, seat in enumerate(view.players)))
        return replace(view, solo=self.view())

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()  # ends the process at once when a job is running


def tracker_for(flow: Any, data_dir: Path, graph_file: Callable[[str], Path | None],
                current: SoloTracker | None) -> SoloTracker | None:
    """The tracker of ``flow``'s game when it is a one-player board game (``current`` when it already follows it);
    ``graph_file(language)`` finds the word graph."""
    game_id = getattr(flow, "game_id", None)
    # One person: a single seat, or two racks (two seats with the same name, device.config.GameSettings.racks).
    if game_id is None or not flow.kind.board_game or len(set(flow.game.players)) != 1:
        if current is not None:
            current.close()
        return None
    if current is not None and current.game_id == game_id:
        return current
    if current is not None:
        current.close()
    game = flow.game
    racks = len(game.players)
    return SoloTracker(game_id, game.players[0], game.rules.layout.name, RulesSpec.of(game.rules),
                       graph_file(game.rules.tileset.language), PersonalBests(Path(data_dir) / BESTS_FILE),
                       racks=racks, strings=Strings.load() if racks == 2 else None)


def sample_views(views: dict[str, Any]) -> dict[str, Any]:
    """Gallery pictures: the scoreboard while searching and with an answer, the end with a new personal best."""
    board, end = views["scoreboard"], views["end"]
    one = board.players[:1]
    return {
        "solo-searching": replace(board, language="fi", players=one, solo=SoloView(24, None, True, 88, 212, 240)),
        "solo-scoreboard": replace(board, players=one, solo=SoloView(24, 31, False, 87, 236)),
        "solo-end": replace(end, language="sv", players=end.players[:1], winner=(0,), final=None,
                            solo=SoloView(18, 18, False, 91, 412, 398, True)),
    }

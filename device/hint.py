# SPDX-License-Identifier: GPL-3.0-or-later
"""The family hint (issue 16; off unless the players chose it on the new-game form): the player types the
rack (beside a physical board the device does not see racks), and the screen shows how much the best move
scores and the first letter of its word, nothing more. The move is found in the best-move worker process
(:class:`device.solo.BestMoveWorker`) so the screen never waits; BACK or a new rack cancels a running search.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import DeviceError
from device.solo import BestMoveWorker, RulesSpec
from device.ui import view as v
from engine.board import Board
from engine.rules import Rules


@dataclass(frozen=True)
class HintView:
    """HINT: the rack asked about, and the answer once there (``score`` None while searching)."""

    rack: str = ""
    searching: bool = False
    score: int | None = None
    first_letter: str = ""
    no_move: bool = False
    failed: bool = False


class HintScreen:
    """Above the game: rack in (``HINT_RACK``), hint out; ``tick`` collects the worker's answer."""

    def __init__(self, board: Board, rules: Rules, graph_file: Path | None, *, language: str, kind: v.GameKind,
                 alphabet: str, worker: BestMoveWorker | None = None) -> None:
        self.board, self.spec = board.copy(), RulesSpec.of(rules)
        self.rules = rules
        self.language, self.kind, self.alphabet = language, kind, alphabet
        self.state = HintView()
        self.message: v.Text | None = None
        self.worker = worker
        if self.worker is None:
            try:
                if graph_file is None:
                    raise DeviceError("no word graph")
                self.worker = BestMoveWorker(graph_file)
            except DeviceError:
                self.state = HintView(failed=True)

    def handle(self, action: v.UiAction) -> Any:
        if action.kind in (v.ActionKind.BACK, v.ActionKind.OK):
            self.close()
            return "back"
        if action.kind is v.ActionKind.HINT_RACK and self.worker is not None:
            rack = action.text.upper()
            bad = next((ch for ch in rack if ch != "?" and not self.rules.tileset.is_letter(ch)), None)
            if bad is not None:
                self.message = v.Text.of("msg.rack_letter", letter=bad)
                return None
            self.message = None
            self.worker.start(self.board, rack, self.spec)
            self.state = HintView(rack, searching=True)
        return None

    def tick(self, now: float = 0.0) -> Any:
        if not self.state.searching or self.worker is None:
            return None
        try:
            result = self.worker.poll()
        except DeviceError:
            self.state = HintView(self.state.rack, failed=True)
            return None
        if result is not None:
            self.state = HintView(self.state.rack, score=result.score, first_letter=result.first_letter,
                                  no_move=result.moves == 0)
        return None

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()  # ends the process at once when a job is running

    def view(self) -> v.View:
        return v.View(v.Screen.HINT, language=self.language, game=self.kind, alphabet=self.alphabet,
                      hint_view=self.state, message=self.message)


def sample_views() -> dict[str, v.View]:
    """Gallery pictures: typing a rack, searching, the answer, and no move."""
    sv = "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖ"
    return {
        "hint-typing": v.View(v.Screen.HINT, language="en", hint_view=HintView()),
        "hint-searching": v.View(v.Screen.HINT, language="fi", game=v.GameKind.ALFAPET, alphabet=sv,
                                 hint_view=HintView("AEKLRST", searching=True)),
        "hint-answer": v.View(v.Screen.HINT, language="sv", game=v.GameKind.ALFAPET, alphabet=sv,
                              hint_view=HintView("AEKLRST", score=23, first_letter="K")),
        "hint-no-move": v.View(v.Screen.HINT, language="nb", hint_view=HintView("QQ", score=0, no_move=True)),
    }

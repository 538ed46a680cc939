# SPDX-License-Identifier: GPL-3.0-or-later
"""Moves you missed, after a game: for each placement, the best move there was and each player's share of it.

Only for a game that has ended (the end screen's MISSED MOVES button, ``ordvakt games show ID --missed``);
never during a game. Beside a physical board the racks are usually unknown: a turn whose rack the record
lacks is reviewed with the tiles the player put down (the best the same tiles could have scored anywhere on
the board), and says so. On the device the best moves are found one turn at a time in the best-move worker
process (:class:`device.solo.BestMoveWorker`), so the screen never waits; leaving the screen stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import DeviceError
from device.solo import BestMoveWorker, BestResult, RulesSpec
from device.ui import view as v
from engine.board import Board
from engine.game import Game
from engine.lexicon.wordgraph import WordGraph
from engine.moves import Placement


@dataclass(frozen=True)
class TurnToReview:
    """A placement of the game, the board it was played on and the rack it is reviewed with."""

    turn: int  # 1-based event number
    player: int
    board: Board
    rack: str
    rack_known: bool  # False: the rack is the tiles played
    played: str
    score: int


def turns_to_review(game: Game, *, lettered_rows: bool = False) -> list[TurnToReview]:
    """Every placement of ``game``, with its recorded rack or else the tiles it put down."""
    turns = []
    for index, event in enumerate(game.events):
        if not isinstance(event.move, Placement):
            continue
        board = game.board_after(index)
        rack = event.rack or "".join(event.move.rack_symbols())
        turns.append(TurnToReview(index + 1, event.player, board, rack, bool(event.rack),
                                  event.move.notation(board, lettered_rows=lettered_rows), event.score))
    return turns


@dataclass(frozen=True)
class MissedRow:
    turn: int
    played: str
    score: int
    rack: str
    rack_known: bool
    best: str = ""  # the best move's notation ("" while not computed or when there was none)
    best_score: int | None = None  # None: not computed yet

    @property
    def missed(self) -> bool:
        return self.best_score is not None and self.best_score > self.score

    @property
    def beyond_list(self) -> bool:
        """The move scored more than any the word list allows: it formed a word the list lacks."""
        return self.best_score is not None and self.score > self.best_score

    @property
    def possible(self) -> int:
        """What the turn could score: the best listed move, or the move played when that scored more."""
        return max(self.best_score or 0, self.score) if self.best_score is not None else 0


@dataclass(frozen=True)
class MissedPlayer:
    name: str
    rows: tuple[MissedRow, ...]

    @property
    def scored(self) -> int:
        return sum(r.score for r in self.rows if r.best_score is not None)

    @property
    def possible(self) -> int:
        return sum(r.possible for r in self.rows)

    @property
    def share(self) -> int | None:
        """Percent of what the best moves would have scored, over the turns computed so far."""
        return round(100 * self.scored / self.possible) if self.possible > 0 else None


@dataclass(frozen=True)
class MissedView:
    """The MISSED screen: one column per player; ``done`` of ``total`` turns computed."""

    players: tuple[MissedPlayer, ...]
    done: int
    total: int
    racks_known: bool = True  # False: some turns were reviewed with the tiles played
    failed: bool = False  # the worker could not run (no word graph, it stopped)


def missed_view(names: list[str] | tuple[str, ...], turns: list[TurnToReview],
                results: dict[int, tuple[str, int]], *, failed: bool = False) -> MissedView:
    """The view of ``turns`` with the best moves computed so far (``results``: turn -> (notation, score))."""
    players = []
    for player, name in enumerate(names):
        rows = tuple(MissedRow(t.turn, t.played, t.score, t.rack, t.rack_known,
                               *results.get(t.turn, ("", None)))
                     for t in turns if t.player == player)
        players.append(MissedPlayer(name, rows))
    return MissedView(tuple(players), sum(1 for t in turns if t.turn in results), len(turns),
                      all(t.rack_known for t in turns), failed)


def review_now(game: Game, graph: WordGraph, names: list[str] | tuple[str, ...], *,
               lettered_rows: bool = False) -> MissedView:
    """The whole review computed here and now (the archive command; the device uses :class:`MissedMovesScreen`)."""
    from engine.analysis import review_position

    turns = turns_to_review(game, lettered_rows=lettered_rows)
    results = {}
    for t in turns:
        _, best = review_position(t.board, t.rack, game.rules, graph, top=1, lettered_rows=lettered_rows)
        results[t.turn] = (best[0].notation, best[0].score) if best else ("", 0)
    return missed_view(names, turns, results)


def missed_lines(view: MissedView) -> list[str]:
    """The review as text lines (English; the archive command's output)."""
    lines = []
    for player in view.players:
        share = "-" if player.share is None else f"{player.share}%"
        lines.append(f"{player.name}: {player.scored} of the {player.possible} the best moves would have scored "
                     f"({share})")
        for r in player.rows:
            mark = "*" if r.missed else " "
            rack = r.rack if r.rack_known else f"({r.rack})"
            best = f"{r.best} {r.best_score}" if r.best else "no placement"
            note = "  (a word not in the list)" if r.beyond_list else ""
            lines.append(f" {mark}{r.turn:>3}. {rack:<11} {r.played:<18} {r.score:>4}  best {best}{note}")
    if not view.racks_known:
        lines.append("(TILES): the rack was not recorded; the best move with the tiles played")
    return lines


class MissedMovesScreen:
    """The MISSED screen above the ended game: asks the worker for one turn's best move per tick, never waits.

    ``graph_file`` None (no word graph for the game's language) shows the screen with the failure said.
    """

    def __init__(self, game: Game, names: list[str] | tuple[str, ...], graph_file: Path | None, *,
                 language: str, kind: v.GameKind, lettered_rows: bool = False,
                 worker: BestMoveWorker | None = None) -> None:
        self.names = tuple(names)
        self.turns = turns_to_review(game, lettered_rows=lettered_rows)
        self.language, self.kind, self.lettered_rows = language, kind, lettered_rows
        self.spec = RulesSpec.of(game.rules)
        self.results: dict[int, tuple[str, int]] = {}
        self.failed = False
        self.worker = worker
        if self.worker is None and self.turns:
            try:
                if graph_file is None:
                    raise DeviceError("no word graph")
                self.worker = BestMoveWorker(graph_file)
            except DeviceError:
                self.failed = True
        self._asked: TurnToReview | None = None

    @property
    def done(self) -> bool:
        return self.failed or len(self.results) == len(self.turns)

    def tick(self, now: float = 0.0) -> Any:
        """Collect a finished job and start the next one (returns None: the screen stays)."""
        if self.done or self.worker is None:
            return None
        try:
            if self._asked is not None:
                result: BestResult | None = self.worker.poll()
                if result is None:
                    return None
                board = self._asked.board
                self.results[self._asked.turn] = (self._notation(result, board), result.score)
                self._asked = None
            following = next((t for t in self.turns if t.turn not in self.results), None)
            if following is not None:
                self.worker.start(following.board, following.rack, self.spec)
                self._asked = following
            else:
                self.worker.close()
        except DeviceError:
            self.failed = True
            self.worker.close()
        return None

    def _notation(self, result: BestResult, board: Board) -> str:
        if not result.notation or not self.lettered_rows:
            return result.notation
        return Placement.from_notation(result.notation, board).notation(board, lettered_rows=True)

    def handle(self, action: v.UiAction) -> Any:
        if action.kind in (v.ActionKind.BACK, v.ActionKind.OK):
            self.close()
            return "back"
        return None

    def close(self) -> None:
        """Stop the worker (a running job is cancelled by ending the process)."""
        if self.worker is not None:
            self.worker.close()  # ends the process at once when a job is running

    def view(self) -> v.View:
        return v.View(v.Screen.MISSED, language=self.language, game=self.kind,
                      missed=missed_view(self.names, self.turns, self.results, failed=self.failed))


def sample_views() -> dict[str, v.View]:
    """Gallery pictures: a review half computed (racks unknown) and one done."""
    rows_a = (MissedRow(1, "8D HOUSE", 24, "EHOSU", False, "8H HOUSE", 26),
              MissedRow(3, "E5 QUIT", 26, "ADEIQTU", True, "9E QUA", 34),
              MissedRow(5, "K3 ZONE", 28, "ENOZ", False))
    rows_b = (MissedRow(2, "9F AXE", 36, "AEX", False, "9F AXE", 36),
              MissedRow(4, "4A JOG", 20, "GJOT", True, "4A JOG", 20),
              MissedRow(6, "C2 WAXY", 31, "AWXY", False))
    players = (MissedPlayer("Anna", rows_a), MissedPlayer("Bengt", rows_b))
    done = tuple(MissedPlayer(p.name, tuple(r if r.best_score is not None else
                                            MissedRow(r.turn, r.played, r.score, r.rack, r.rack_known, r.played,
                                                      r.score) for r in p.rows)) for p in players)
    return {
        "missed-computing": v.View(v.Screen.MISSED, language="sv", missed=MissedView(players, 4, 6, False)),
        "missed-done": v.View(v.Screen.MISSED, language="en", missed=MissedView(done, 6, 6, False)),
        "missed-failed": v.View(v.Screen.MISSED, language="fi", missed=MissedView(players, 4, 6, True, True)),
    }


def graph_file_for(lexicon_dir: Path, lang: str) -> Path | None:
    """The word graph beside ``lang``'s default list, built at ``lexicon build`` time (None when it is not there)."""
    from engine.errors import EngineError
    from engine.lexicon.build import default_list_path
    from engine.lexicon.languages import language
    from engine.lexicon.wordgraph import graph_path

    try:
        path = graph_path(default_list_path(lexicon_dir, language(lang).code))
    except EngineError:
        return None
    return path if path.is_file() else None

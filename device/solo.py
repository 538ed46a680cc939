# SPDX-License-Identifier: GPL-3.0-or-later
"""Solo Alfapet (seed 000): one player with one rack, or two racks played against themself.

After each turn the device shows the best score the rack had and the player's running share of the best;
a personal best per player and layout is kept across games. The best move is computed in a worker process
(:class:`BestMoveWorker`) so the screen never waits: the flow starts a job when a turn is confirmed, polls it
on every tick and cancels it when the next button is pressed.

The device's solo screens (``device/solo_play.py``) build on ``BestMoveWorker``, :class:`SoloSession` and
:class:`PersonalBests`.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from device.errors import DeviceError
from engine.board import Board
from engine.rules import Game as GameKind
from engine.rules import Rules


@dataclass(frozen=True)
class RulesSpec:
    """What the worker needs to rebuild a game's :class:`Rules` (Rules itself does not pickle)."""

    game: str
    language: str
    rack_size: int
    layout: str
    tileset: str
    minus_squares: bool = True
    special_tiles: bool = True
    extra_dirs: tuple[str, ...] = ()

    @classmethod
    def of(cls, rules: Rules, extra_dirs: tuple[Path, ...] = ()) -> RulesSpec:
        return cls(rules.game.value, rules.language, rules.rack_size, rules.layout.name, rules.tileset.name,
                   rules.minus_squares, rules.special_tiles, tuple(str(p) for p in extra_dirs))

    def rules(self) -> Rules:
        options: dict[str, Any] = {"layout": self.layout, "tileset": self.tileset,
                                   "extra_dirs": [Path(p) for p in self.extra_dirs]}
        if self.game == GameKind.ALFAPET.value:
            return Rules.alfapet(self.language, rack_size=self.rack_size, minus_squares=self.minus_squares,
                                 special_tiles=self.special_tiles, **options)
        return Rules.scrabble(self.language, rack_size=self.rack_size, minus_squares=self.minus_squares,
                              special_tiles=self.special_tiles, **options)


@dataclass(frozen=True)
class BestResult:
    """The worker's answer for one job."""

    job: int
    moves: int
    score: int  # 0 when there is no placement
    notation: str = ""
    first_letter: str = ""


def _serve(connection, graph_file: str) -> None:  # type: ignore[no-untyped-def]
    """The worker process: load the word graph once, answer (job, board, rack, spec) requests until None."""
    from engine.lexicon.wordgraph import WordGraph
    from engine.movegen import best_moves, generate_moves

    graph = WordGraph.load(Path(graph_file))
    rules_cache: dict[RulesSpec, Rules] = {}
    while True:
        request = connection.recv()
        if request is None:
            return
        job, board_text, rack, spec = request
        rules = rules_cache.get(spec) or rules_cache.setdefault(spec, spec.rules())
        board = Board.from_text(board_text)
        moves = generate_moves(board, rack, rules, graph)
        best = best_moves(moves, 1)
        if best:
            move = best[0]
            connection.send(BestResult(job, len(moves), move.score, move.notation(board), move.word[0]))
        else:
            connection.send(BestResult(job, 0, 0))


class BestMoveWorker:
    """One worker process that finds the best move of a position; one job at a time.

    ``start`` sends a job (cancelling a running one), ``poll`` returns the result once it is there (never
    blocks), ``cancel`` stops a running job by ending the process; the next ``start`` starts a new one.
    """

    def __init__(self, graph_file: Path, *, start_method: str = "spawn") -> None:
        self.graph_file = Path(graph_file)
        if not self.graph_file.is_file():
            raise DeviceError(f"word graph {str(self.graph_file)!r} is missing; run: ordvakt lexicon build LANG")
        # Any: typeshed's BaseContext lacks Process, which every concrete context has.
        self._context: Any = multiprocessing.get_context(start_method)
        self._process: Any = None
        self._connection: Any = None
        self._job = 0
        self._pending: int | None = None

    def _ensure_process(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        parent, child = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(child, str(self.graph_file)), daemon=True,
                                              name="ordvakt-best-move")
        self._process.start()
        child.close()
        self._connection = parent

    def start(self, board: Board, rack: str, spec: RulesSpec) -> int:
        """Ask for the best move of ``rack`` on ``board``; returns the job number :meth:`poll` answers with."""
        self.cancel()
        self._ensure_process()
        self._job += 1
        self._connection.send((self._job, board.to_text(), rack, spec))
        self._pending = self._job
        return self._job

    @property
    def busy(self) -> bool:
        return self._pending is not None

    def poll(self) -> BestResult | None:
        """The pending job's result if it is ready, else None."""
        if self._pending is None or self._connection is None:
            return None
        try:
            if not self._connection.poll():
                if not self._process.is_alive():
                    self._pending = None
                    raise DeviceError("the best-move worker stopped unexpectedly")
                return None
            result = self._connection.recv()
        except (EOFError, OSError):
            self._pending = None
            raise DeviceError("the best-move worker stopped unexpectedly") from None
        if result.job != self._pending:
            return None
        self._pending = None
        return result

    def cancel(self) -> None:
        """Stop a running job (the next button was pressed). The process is restarted on the next start."""
        if self._pending is None:
            return
        self._pending = None
        self._stop_process()

    def close(self) -> None:
        if self._process is not None and self._process.is_alive() and self._pending is None:
            try:
                self._connection.send(None)
                self._process.join(timeout=1)
            except (OSError, BrokenPipeError):
                pass
        self._stop_process()

    def _stop_process(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join(timeout=5)
        if self._connection is not None:
            self._connection.close()
        self._process = self._connection = None


@dataclass
class SoloTurn:
    hand: int
    score: int
    best: int | None  # None while unknown (the job was cancelled or is still running)


@dataclass
class SoloSession:
    """The running tally of a solo game: one or two hands (racks) played by one person."""

    player: str
    layout: str
    hands: int = 1
    turns: list[SoloTurn] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.hands not in (1, 2):
            raise DeviceError(f"solo play uses one or two racks, not {self.hands!r}")

    def record(self, hand: int, score: int, best: int | None) -> SoloTurn:
        if not 0 <= hand < self.hands:
            raise DeviceError(f"no rack {hand + 1} in a {self.hands}-rack solo game")
        turn = SoloTurn(hand, score, best)
        self.turns.append(turn)
        return turn

    def set_best(self, index: int, best: int) -> None:
        """Fill in the best score of turn ``index`` when the worker answers late."""
        self.turns[index].best = best

    def total(self, hand: int | None = None) -> int:
        return sum(t.score for t in self.turns if hand is None or t.hand == hand)

    def share(self, hand: int | None = None) -> float | None:
        """Scored / best possible over the turns whose best is known (None before any)."""
        known = [t for t in self.turns if t.best is not None and (hand is None or t.hand == hand)]
        possible = sum(t.best for t in known)  # type: ignore[misc]
        return round(sum(t.score for t in known) / possible, 3) if possible > 0 else None


@dataclass(frozen=True)
class PersonalBest:
    score: int
    share: float | None
    when: str


class PersonalBests:
    """The best solo total per player, layout and rack count, kept in a small JSON file (written atomically).

    A two-rack total adds up both racks' moves, so it is kept apart from the one-rack best."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            raise DeviceError(f"personal bests file {str(self.path)!r} is unreadable ({exc}); move it aside") from None
        return data if isinstance(data, dict) else {}

    @staticmethod
    def _key(player: str, layout: str, racks: int = 1) -> str:
        return f"{player}\t{layout}" if racks == 1 else f"{player}\t{layout}\t{racks} racks"

    def get(self, player: str, layout: str, racks: int = 1) -> PersonalBest | None:
        entry = self._read().get(self._key(player, layout, racks))
        return PersonalBest(int(entry["score"]), entry.get("share"), str(entry.get("when", ""))) if entry else None

    def offer(self, session: SoloSession, when: datetime | None = None) -> bool:
        """Keep the session's total if it beats the player's best on that layout with as many racks; True when it
        is a new best."""
        data = self._read()
        key = self._key(session.player, session.layout, session.hands)
        total = session.total()
        previous = data.get(key)
        if previous is not None and int(previous["score"]) >= total:
            return False
        stamp = (when or datetime.now(UTC)).isoformat(timespec="seconds")
        data[key] = asdict(PersonalBest(total, session.share(), stamp))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=self.path.name, suffix=".tmp", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
        os.replace(tmp, self.path)
        return True

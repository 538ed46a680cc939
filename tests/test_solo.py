# SPDX-License-Identifier: GPL-3.0-or-later
"""Solo Alfapet: the best-move worker process, cancelling it, the running share and personal bests."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from device.errors import DeviceError
from device.solo import BestMoveWorker, PersonalBests, RulesSpec, SoloSession
from engine.board import Board, Cell
from engine.lexicon.wordgraph import WordGraph
from engine.movegen import best_moves, generate_moves
from engine.rules import Rules
from engine.squares import Square

WORDS = ["HUS", "HUSET", "SET", "ES", "TE", "ETT", "STEG", "GET", "TEGEL", "LEGE", "SE", "ET", "TESS", "STEL",
         "REGEL", "GREL", "LET", "ELT", "RES", "ESTER", "SEGEL", "EGEL", "TEGELS", "STEGE", "GESTER"]


def wait_for(worker: BestMoveWorker, deadline_s: float = 300):
    """Poll like the UI does on each tick (a generous bound so a loaded machine cannot hang the suite)."""
    ends = time.monotonic() + deadline_s
    while time.monotonic() < ends:
        result = worker.poll()
        if result is not None:
            return result
        time.sleep(0.02)
    raise AssertionError("the worker did not answer")


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    path = tmp_path / "solo.graph"
    WordGraph.from_words(WORDS).save(path)
    return path


def test_the_worker_finds_the_same_best_move_as_the_engine(graph_file: Path) -> None:
    rules = Rules.alfapet("sv", rack_size=6)
    board = Board(17)
    for i, letter in enumerate("HUS"):
        board[Square(8, 7 + i)] = Cell(letter)
    rack = "ETGELR"
    expected = best_moves(generate_moves(board, rack, rules, WordGraph.load(graph_file)), 1)[0]
    worker = BestMoveWorker(graph_file)
    try:
        job = worker.start(board, rack, RulesSpec.of(rules))
        assert worker.busy
        result = wait_for(worker)
        assert (result.job, result.score, result.notation) == (job, expected.score, expected.notation(board))
        assert result.first_letter == expected.word[0] and result.moves > 1 and not worker.busy
    finally:
        worker.close()


def test_cancel_stops_a_running_job_and_the_next_job_is_answered(graph_file: Path) -> None:
    rules = Rules.alfapet("sv", rack_size=8)
    worker = BestMoveWorker(graph_file)
    try:
        worker.start(Board(17), "EEGLRST?", RulesSpec.of(rules))
        worker.cancel()  # the next button press
        assert not worker.busy and worker.poll() is None
        job = worker.start(Board(17), "SET", RulesSpec.of(rules))
        result = wait_for(worker)
        assert result.job == job and result.score > 0
    finally:
        worker.close()


def test_a_missing_graph_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="missing.graph"):
        BestMoveWorker(tmp_path / "missing.graph")


def test_session_share_over_two_racks() -> None:
    session = SoloSession("Aino", "alfapet-17", hands=2)
    session.record(0, 20, 40)
    session.record(1, 30, 30)
    session.record(0, 10, None)  # the worker was cancelled: this turn does not count in the share
    assert session.total() == 60 and session.total(0) == 30 and session.total(1) == 30
    assert session.share() == round(50 / 70, 3) and session.share(0) == 0.5 and session.share(1) == 1.0
    session.set_best(2, 10)
    assert session.share(0) == round(30 / 50, 3)
    with pytest.raises(DeviceError):
        session.record(2, 5, 5)
    with pytest.raises(DeviceError):
        SoloSession("Aino", "alfapet-17", hands=3)


def test_personal_best_is_kept_per_player_and_layout_across_games(tmp_path: Path) -> None:
    path = tmp_path / "solo-best.json"
    first = SoloSession("Aino", "alfapet-17")
    first.record(0, 120, 200)
    assert PersonalBests(path).offer(first, datetime(2026, 1, 1, tzinfo=UTC))
    worse = SoloSession("Aino", "alfapet-17")
    worse.record(0, 100, 100)
    assert not PersonalBests(path).offer(worse)
    other_layout = SoloSession("Aino", "scrabble-15")
    other_layout.record(0, 90, 90)
    assert PersonalBests(path).offer(other_layout)
    best = PersonalBests(path).get("Aino", "alfapet-17")
    assert best is not None and (best.score, best.share, best.when) == (120, 0.6, "2026-01-01T00:00:00+00:00")
    assert PersonalBests(path).get("Aino", "scrabble-15").score == 90  # type: ignore[union-attr]
    assert PersonalBests(path).get("Ville", "alfapet-17") is None
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(DeviceError, match="solo-best.json"):
        PersonalBests(path).get("Aino", "alfapet-17")

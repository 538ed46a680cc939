# SPDX-License-Identifier: GPL-3.0-or-later
"""The device's records carry why the game ended and how a tie was broken (JSON ``outcome``, GCG outcome note)."""

from __future__ import annotations

import json
from pathlib import Path

from device.config import GameSettings
from device.store import open_store
from engine.game import Game
from engine.moves import Placement, RackPoints


def stored_tied_game(tmp_path: Path, **meta):
    """Ann 8D WHEAT 30, Bob G7 Z. 21, then racks Q (10) and E (1): 20 all, 30 to 21 before the racks."""
    store = open_store(tmp_path)
    settings = GameSettings(game="scrabble", players=("Ann", "Bob"))
    game_id = store.create_game(settings, meta=meta or None)
    game = Game(settings.rules(), list(settings.players))
    moves = [(0, Placement.from_notation("8D WHEAT", game.board)), (1, None),
             (0, RackPoints("Q")), (1, RackPoints("E"))]
    for seq, (player, move) in enumerate(moves):
        before = game.board.copy()
        move = move or Placement.from_notation("G7 Z.", game.board)  # needs the board after WHEAT
        store.append_event(game_id, game.play(move, player=player), before, seq)
    store.set_finished(game_id, True)
    return store, game_id


def test_json_record_says_why_the_game_ended_and_how_the_tie_was_broken(tmp_path: Path):
    store, game_id = stored_tied_game(tmp_path)
    record = json.loads(store.export_json(game_id, tmp_path / "game.json").read_text(encoding="utf-8"))
    assert record["outcome"] == {"reason": "agreed", "final_scores": [20, 20], "scores_before_racks": [30, 21],
                                 "winners": [0], "tie_broken_by": "score-before-racks", "decided_by": None}
    gcg = store.export_gcg(game_id, tmp_path / "game.gcg").read_text(encoding="utf-8")
    assert "#note ordvakt-outcome reason=agreed winners=Ann tie-break=score-before-racks" in gcg
    store.close()


def test_a_triple_challenge_decision_is_the_records_outcome(tmp_path: Path):
    store, game_id = stored_tied_game(tmp_path, decided=1)
    outcome = store.load(game_id).outcome()
    assert outcome.reason.value == "challenge" and outcome.winners == (1,)
    store.close()

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt analyse`` and ``ordvakt best`` on real records: every best move is re-read from its printed notation and
scored again by the engine, and a played move whose words are all listed never beats the best move found."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import REPO, shared_path
from device.cli import main
from engine.analysis import missed_moves, review_game
from engine.gcg import parse_gcg, replay
from engine.moves import Placement
from engine.rules import Rules
from engine.scoring import score_placement
from engine.validation import validate

GERMAN = ("game01", "game02", "game03", "game04")


def installed_graph(lang: str):
    from device.paths import lexicon_dir
    from engine.errors import LexiconError
    from engine.lexicon.wordgraph import default_graph

    try:
        return default_graph(lexicon_dir(), lang)
    except LexiconError as exc:
        pytest.skip(f"the {lang} word list is not built ({exc}); run: ordvakt lexicon build {lang}")


def german_record(game: str):
    folder = shared_path("photos", "scrabscrap", game)
    return parse_gcg(next(folder.glob("*.gcg")).read_bytes(), game)


@pytest.mark.parametrize("game", GERMAN)
def test_every_best_move_of_a_german_game_replays_with_that_score(game: str) -> None:
    graph = installed_graph("de")
    record = german_record(game)
    played = replay(record, tiles="de", lettered_rows=True).game
    reviews = review_game(played, graph, top=3, lettered_rows=True)
    assert len(reviews) >= 20
    for review in reviews:
        board = played.board_after(review.turn - 1)
        event = played.events[review.turn - 1]
        for alternative in review.best:
            move = Placement.from_notation(alternative.notation, board, lettered_rows=True)
            assert not validate(board, move, played.rules, rack=review.rack), alternative
            assert score_placement(board, move, played.rules).score == alternative.score, alternative
            assert all(graph.contains(w) for w in score_placement(board, move, played.rules).word_texts)
        if isinstance(event.move, Placement) and not review.unlisted:
            # The generator is complete: a listed play is one of its moves, so it cannot score more than the best.
            assert review.score <= review.best_score, review
    assert any(r.missed for r in reviews) and missed_moves(reviews)[0].best_score > missed_moves(reviews)[0].score


def test_analyse_prints_each_turns_best_alternative_for_a_german_game(capsys) -> None:
    installed_graph("de")
    path = next(shared_path("photos", "scrabscrap", "game01").glob("*.gcg"))
    assert main(["analyse", str(path), "--lang", "de", "--lettered-rows"]) == 0
    lines = capsys.readouterr().out.splitlines()
    turns = [line for line in lines if re.match(r"[* ] +\d+ ", line)]
    assert len(turns) == 27  # every move line of game01 has a rack
    assert lines[0].split()[:6] == ["1", "Stefan", "FINRSSW", "H4", "FIRNS", "24"]
    assert all(" best " in line and " share " in line for line in turns)
    assert any(line.startswith("Stefan: ") and "the best moves would have scored" in line for line in lines)


def test_analyse_json_after_n_and_each_players_share(capsys) -> None:
    installed_graph("de")
    path = next(shared_path("photos", "scrabscrap", "game02").glob("*.gcg"))
    assert main(["analyse", str(path), "--lang", "de", "--lettered-rows", "--after", "10", "--top", "2",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"][0]["turn"] == 11 and all(len(t["best"]) <= 2 for t in data["turns"])
    for name, totals in data["players"].items():
        mine = [t for t in data["turns"] if t["player"] == name]
        assert totals["scored"] == sum(t["score"] for t in mine)


def test_best_on_a_woogles_position_lists_moves_the_engine_scores_the_same(capsys) -> None:
    graph = installed_graph("en")
    path = sorted(shared_path("gcg", "woogles").glob("*.gcg"))[0]
    record = parse_gcg(path.read_bytes(), str(path))
    game = replay(record).game
    turn = 6
    board, event = game.board_after(turn), game.events[turn]
    cgp = f"{board.to_text()} {event.rack}/ 0/0 0 lex NWL23;"
    assert main(["best", "--cgp", cgp, "--json", "--top", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moves"] > 5 and len(data["best"]) == 5
    scores = [m["score"] for m in data["best"]]
    assert scores == sorted(scores, reverse=True)
    rules = Rules.scrabble("en")
    for entry in data["best"]:
        move = Placement.from_notation(entry["move"], board)
        assert score_placement(board, move, rules).score == entry["score"]
        assert all(graph.contains(w) for w in score_placement(board, move, rules).word_texts)
    if all(graph.contains(w) for w in event.words):
        assert event.score <= scores[0]


def test_best_refuses_bad_input_with_one_line() -> None:
    empty = "/".join(["15"] * 15)
    for cgp, expected in ((f"{empty} ABC 0/0 0 lex NWL23", "CGP operations"),
                          (f"{empty} AB1 0/0 0", "CGP rack"),
                          (f"{empty} ABC x/0 0", "CGP scores"),
                          (f"{empty[:-1]}4 ABC 0/0 0", "board row 15 has 14 squares")):
        result = subprocess.run([sys.executable, "-m", "device", "best", "--cgp", cgp], capture_output=True,
                                text=True, cwd=REPO)
        assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
        assert expected in result.stderr


def test_analyse_a_game_saved_on_the_device(tmp_path, capsys) -> None:
    """The demo game's events stored as the device stores them (racks included), analysed by --game."""
    from conftest import demo_game_settings
    from device.store import Store

    installed_graph("de")
    reference, settings = demo_game_settings()
    db = tmp_path / "games.sqlite"
    with Store(db) as store:
        game_id = store.create_game(settings)
        for seq, event in enumerate(reference.events):
            store.append_event(game_id, event, reference.board_after(seq), seq, lettered_rows=True)
    assert main(["analyse", "--game", str(game_id), "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    racks = [e.rack for e in reference.events if e.rack and isinstance(e.move, Placement)]
    assert len([t for t in data["turns"] if t["played"] != "-" and not t["played"].startswith("-")]) == len(racks)
    assert data["record"] == f"game {game_id}" and all(t["best"] for t in data["turns"] if t["moves"])
    assert main(["analyse"]) == 2  # neither a file nor --game: one line, input error
    assert "give a GCG file or --game ID" in capsys.readouterr().err

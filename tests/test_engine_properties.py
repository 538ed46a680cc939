# SPDX-License-Identifier: GPL-3.0-or-later
"""Property tests over random legal games (no lexicon: any letters make a 'word')."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.game import Game
from engine.gcg import parse_gcg, replay, write_gcg
from engine.layout import Layout, Premium
from engine.moves import ChallengeBonus, Exchange, Pass, PlacedTile, Placement, TimePenalty, Withdraw
from engine.rules import Rules
from engine.scoring import score_placement
from engine.squares import Direction, Square
from engine.validation import validate

RULES = {lang: Rules.scrabble(lang) for lang in ("en", "de", "sv", "pl")}


def random_placement(rng: random.Random, game: Game) -> Placement | None:
    board, rules = game.board, game.rules
    size = board.size
    pool = list(game.unseen().elements())
    letters = [t for t in pool if t != "?"]
    if not pool:
        return None
    for _ in range(60):
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
        if board.is_empty():
            anchor = rules.layout.centre
        else:
            occupied = [s for s, _ in board]
            base = rng.choice(occupied)
            dr, dc = rng.choice([(0, 1), (0, -1), (1, 0), (-1, 0)])
            anchor = Square(base.row + dr, base.col + dc)
            if not anchor.on_board(size) or board[anchor] is not None:
                continue
        count = rng.randint(2 if board.is_empty() else 1, min(rules.rack_size, len(pool)))
        back = rng.randint(0, count - 1)
        start = anchor
        for _ in range(back):
            previous = start.step(direction, -1)
            while previous.on_board(size) and board[previous] is not None:
                previous = previous.step(direction, -1)
            if not previous.on_board(size):
                break
            start = previous
        squares, square = [], start
        while len(squares) < count and square.on_board(size):
            if board[square] is None:
                squares.append(square)
            square = square.step(direction)
        if len(squares) < count:
            continue
        bag = pool[:]
        rng.shuffle(bag)
        tiles = []
        for s in squares:
            symbol = bag.pop()
            if symbol == "?":
                tiles.append(PlacedTile(s, rng.choice(letters or ["E"]), blank=True))
            else:
                tiles.append(PlacedTile(s, symbol))
        move = Placement.from_tiles(tiles, board, direction if len(tiles) > 1 else None)
        if not validate(board, move, rules):
            return move
    return None


def random_game(seed: int, lang: str, turns: int) -> Game:
    rng = random.Random(seed)
    game = Game(RULES[lang], ["Anna Åberg", "Björn"])
    for _ in range(turns):
        if game.finished:
            break
        roll = rng.random()
        last = game.events[-1] if game.events else None
        if roll < 0.06 and last is not None and isinstance(last.move, Placement):
            game.play(Withdraw())
        elif roll < 0.1 and last is not None and isinstance(last.move, Placement):
            game.play(ChallengeBonus(5), player=last.player)
        elif roll < 0.14:
            game.play(Exchange("".join(rng.sample(sorted(game.unseen().elements()), 2))))
        elif roll < 0.18:
            game.play(Pass())
        elif roll < 0.2:
            game.play(TimePenalty(-10), player=rng.randrange(2))
        else:
            move = random_placement(rng, game)
            game.play(move if move is not None else Pass(), note="note ÆØÅ" if rng.random() < 0.1 else "")
    return game


games = st.builds(random_game, st.integers(0, 2**32 - 1), st.sampled_from(sorted(RULES)), st.integers(1, 40))
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games)
def test_gcg_write_then_read_gives_the_same_events(game):
    text = write_gcg(game)
    again = replay(parse_gcg(text.encode("utf-8"), "random.gcg"))
    assert again.game.events == game.events
    assert again.mismatches == []
    assert again.game.board == game.board


@SETTINGS
@given(games)
def test_replaying_the_log_equals_the_live_state(game):
    fresh = Game(game.rules, game.players)
    fresh.replay(game.events)
    assert fresh.board == game.board
    assert fresh.scores == game.scores
    assert fresh.to_move == game.to_move
    assert (fresh.bag_count, fresh.rack_counts) == (game.bag_count, game.rack_counts)
    assert fresh.board.to_text() == game.board.to_text()
    assert Board.from_text(game.board.to_text()) == game.board
    if game.events:
        undone = game.copy()
        last = undone.undo()
        assert last == game.events[-1]
        assert undone.events == game.events[:-1]


@SETTINGS
@given(games)
def test_premiums_count_only_on_the_turn_a_square_is_first_covered(game):
    probe = Game(game.rules, game.players)
    for event in game.events:
        if isinstance(event.move, Placement):
            new = {t.square for t in event.move.tiles}
            layout = game.rules.layout
            # Keep premiums only under the new tiles: the score must not change.
            only_new = Layout(
                "only-new",
                tuple(tuple(p if Square(r, c) in new else Premium.NONE for c, p in enumerate(row))
                      for r, row in enumerate(layout.grid)),
                layout.centre,
            )
            rules = replace(game.rules, layout=only_new)
            assert score_placement(probe.board, event.move, rules).score == event.score
        probe.replay([event])

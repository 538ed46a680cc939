# SPDX-License-Identifier: GPL-3.0-or-later
"""After a game: for each turn whose rack is known, the best move there was and the player's share of it.

Works on any :class:`Game` whose events carry the racks (a replayed GCG record, an archived device game);
the moves come from :mod:`engine.movegen`, so the same word graph and scoring the engine uses.

>>> from engine.lexicon.wordgraph import WordGraph
>>> from engine.moves import Placement
>>> from engine.rules import Rules
>>> game = Game(Rules.scrabble("en"), ["Ann", "Bo"])
>>> _ = game.play(Placement.from_notation("8G AT", game.board), rack="ATC")
>>> review = review_game(game, WordGraph.from_words(["AT", "CAT"]), top=1)[0]
>>> review.played, review.score, review.best[0].notation, review.best_score, review.share
('8G AT', 4, '8F CAT', 10, 0.4)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board
from engine.game import Game
from engine.lexicon.wordgraph import WordGraph
from engine.movegen import best_moves, generate_moves
from engine.moves import Exchange, Pass, Placement
from engine.rules import Rules


@dataclass(frozen=True)
class Alternative:
    notation: str
    score: int
    word: str


@dataclass(frozen=True)
class TurnReview:
    """One turn: what was played, what the best moves were."""

    turn: int  # 1-based index of the event in the game
    player: int
    rack: str
    played: str  # notation, "-" (pass) or "-TILES" (exchange)
    score: int
    moves: int  # legal placements the rack had
    best: tuple[Alternative, ...]
    #: Words the played move formed that the word list lacks (its score may then exceed the best listed move).
    unlisted: tuple[str, ...] = ()

    @property
    def best_score(self) -> int:
        return self.best[0].score if self.best else 0

    @property
    def share(self) -> float | None:
        """The score as a share of the best one (None when no placement scored above 0)."""
        return round(self.score / self.best_score, 3) if self.best_score > 0 else None

    @property
    def missed(self) -> bool:
        """A better-scoring placement was on the rack."""
        return self.best_score > self.score and self.moves > 0


def review_position(board: Board, rack: str, rules: Rules, graph: WordGraph, *, top: int = 5,
                    lettered_rows: bool = False) -> tuple[int, tuple[Alternative, ...]]:
    """(number of legal placements, the ``top`` best) for ``rack`` on ``board``."""
    moves = generate_moves(board, rack, rules, graph)
    best = tuple(Alternative(m.notation(board, lettered_rows=lettered_rows), m.score, m.word)
                 for m in best_moves(moves, top))
    return len(moves), best


def review_game(game: Game, graph: WordGraph, *, top: int = 1, after: int = 0,
                lettered_rows: bool = False) -> list[TurnReview]:
    """Every placement, exchange and pass from event ``after`` on whose rack the record knows."""
    reviews = []
    for index, event in enumerate(game.events):
        if index < after or not event.rack or not isinstance(event.move, (Placement, Exchange, Pass)):
            continue
        board = game.board_after(index)
        count, best = review_position(board, event.rack, game.rules, graph, top=top, lettered_rows=lettered_rows)
        unlisted = tuple(w for w in event.words if not graph.contains(w)) if isinstance(event.move, Placement) else ()
        reviews.append(TurnReview(index + 1, event.player, event.rack, _played(event.move, board, lettered_rows),
                                  event.score, count, best, unlisted))
    return reviews


@dataclass(frozen=True)
class Hint:
    """The family hint: how much the best move scores and the first letter of its word, nothing more."""

    score: int
    first_letter: str


def hint(board: Board, rack: str, rules: Rules, graph: WordGraph) -> Hint | None:
    """The best placement's score and its main word's first letter (a blank's letter in lower case); None: no move.

    >>> from engine.lexicon.wordgraph import WordGraph
    >>> hint(Board(15), "TCA", Rules.scrabble("en"), WordGraph.from_words(["AT", "CAT"]))
    Hint(score=10, first_letter='C')
    """
    moves = generate_moves(board, rack, rules, graph)
    if not moves:
        return None
    best = best_moves(moves, 1)[0]
    return Hint(best.score, best.word[0])


def missed_moves(reviews: list[TurnReview], player: int | None = None) -> list[TurnReview]:
    """The turns (of ``player``, or everyone's) where a better-scoring move was there, the biggest gap first."""
    missed = [r for r in reviews if r.missed and (player is None or r.player == player)]
    return sorted(missed, key=lambda r: (r.score - r.best_score, r.turn))


def _played(move: Placement | Exchange | Pass, board: Board, lettered_rows: bool) -> str:
    if isinstance(move, Placement):
        return move.notation(board, lettered_rows=lettered_rows)
    if isinstance(move, Exchange):
        return f"-{move.tiles or move.count}"
    return "-"

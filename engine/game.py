# SPDX-License-Identifier: GPL-3.0-or-later
"""A game as an append-only event log; everything else is derived by replay.

The log is the record of truth (what the device saves before it shows a
move as done). :class:`Game` replays it into a board, scores, whose turn it
is, how many tiles each rack and the bag hold, and the unseen pool. Undo pops
the last event and replays.

Ordvakt sits beside a physical game, so racks are usually unknown; the game
still knows how many tiles each rack holds (racks are refilled from the bag),
so it knows when the bag is empty and who went out, and in a two-player game
the opponent's rack is then exactly the unseen pool.

>>> from engine.rules import Rules
>>> game = Game(Rules.scrabble("en"), ["Ann", "Bob"])
>>> event = game.play(Placement.from_notation("8D WHEAT", game.board))
>>> event.score, game.scores, game.to_move
(30, [30, 0], 1)

When the game is over, :meth:`Game.outcome` says why it ended and who won
(with the tie-break the rules name):

>>> _ = game.play(Pass()), game.play(Pass()), game.play(Pass()), game.play(Pass()), game.play(Pass())
>>> _ = game.play(Pass())
>>> outcome = game.outcome()
>>> outcome.reason, outcome.winners, outcome.tie_broken_by
(<EndReason.SCORELESS_TURNS: 'scoreless-turns'>, (0,), None)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.board import Board
from engine.errors import GameStateError, IllegalMove
from engine.moves import (
    ChallengeBonus,
    Exchange,
    Move,
    Pass,
    Placement,
    RackPoints,
    TimePenalty,
    Withdraw,
)
from engine.rules import ChallengeRule, RackAccounting, Rules, TieBreak
from engine.scoring import ScoredPlacement, score_placement
from engine.tiles import BLANK
from engine.validation import Problem, validate

TURN_MOVES = (Placement, Exchange, Pass)
#: A Pass whose note (or ``extra["note"]``) starts so is a turn lost to a failed challenge, not a pass by choice.
LOST_TURN_NOTE = "lost turn"


class EndReason(enum.Enum):
    """Why a game ended (the end screen and the records say it)."""

    #: A player used their last tile with the bag empty.
    RACK_OUT = "rack-out"
    #: Scrabble sheet (seed 004): one player passed on N of their turns in a row.
    PASSES = "passes"
    #: Alfapet (seed 000): every player passed N times in a row.
    ALL_PASSED = "all-passed"
    #: N scoreless turns in a row (tournament Scrabble: six).
    SCORELESS_TURNS = "scoreless-turns"
    #: Finish Line: a player reached the target score.
    TARGET = "target"
    #: A player lost on time (their clock's overtime ran out).
    TIME = "time"
    #: A challenge decided the game (triple challenge rule).
    CHALLENGE = "challenge"
    #: The players ended it (nobody can play any more, or they stopped) and entered their racks.
    AGREED = "agreed"


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``reason``: why it ended. ``final_scores``: the scores as they stand (rack adjustments and time penalties
    included). ``scores_before_racks``: the same without the end-of-game rack adjustments (what the Scrabble
    sheet's tie-break compares). ``winners``: the winning player indices (more than one = a shared win).
    ``tie_broken_by``: the :class:`~engine.rules.TieBreak` value that separated equal final scores, or None when
    there was no tie, or the tie-break did not separate them. ``decided_by``: the player who ended the game
    (went out, reached the target, passed for the last time), when there is one.
    """

    reason: EndReason
    final_scores: tuple[int, ...]
    scores_before_racks: tuple[int, ...]
    winners: tuple[int, ...]
    tie_broken_by: str | None = None
    decided_by: int | None = None

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, object]:
        """The outcome as JSON-ready data (the device's game record)."""
        return {
            "reason": self.reason.value,
            "final_scores": list(self.final_scores),
            "scores_before_racks": list(self.scores_before_racks),
            "winners": list(self.winners),
            "tie_broken_by": self.tie_broken_by,
            "decided_by": self.decided_by,
        }


class PlayJudge(Protocol):
    """What a challenge needs of :class:`engine.lexicon.Judge`."""

    def judge_play(self, words: Iterable[str]) -> Any: ...


@dataclass(frozen=True)
class GameEvent:
    """One line of the record: who did what, and what it scored."""

    player: int
    move: Move
    score: int
    cumulative: int
    rack: str | None = None
    words: tuple[str, ...] = ()
    note: str = ""
    #: Free-form extras the device stores with the event (clock readings, photo file, reading confidence).
    extra: Mapping[str, object] = field(default_factory=dict, compare=False)


class Game:
    """A game in progress or finished. Mutable; :meth:`copy` is explicit."""

    def __init__(self, rules: Rules, players: Sequence[str], *, first: int = 0) -> None:
        if not 1 <= len(players) <= 4:
            raise GameStateError(f"a game has 1 to 4 players, not {len(players)}: {list(players)!r}")
        # The rules are completed for this many players (3-4 player Scrabble settles the end by the box rules).
        self.rules = rules.for_players(len(players))
        self.players = list(players)
        self.first = first
        self.events: list[GameEvent] = []
        self._reset()

    # -- derived state --------------------------------------------------------------------------
    def _reset(self) -> None:
        n = len(self.players)
        self.board = Board(self.rules.layout.size)
        self.scores = [0] * n
        self.to_move = self.first
        self.bag_count = sum(self.rules.tiles_in_play().values())
        self.rack_counts = [0] * n
        for i in range(n):
            self._draw(i, self.rules.rack_size)
        self._scoreless_turns = 0
        self._passes_in_a_row = [0] * n  # since the last scoring play (Alfapet: every player)
        self._own_passes_in_a_row = [0] * n  # on the player's own turns (Scrabble sheet: one player)
        self._turns_lost = [0] * n  # failed challengers whose next turn is still to be skipped
        self._placements: list[tuple[int, Placement, int]] = []  # (event index, placement, score) still on board
        self.went_out: int | None = None
        self.finished = False
        self.end_reason: EndReason | None = None
        self._ended_by: int | None = None
        self._decided: tuple[int, EndReason] | None = None

    def _draw(self, player: int, n: int) -> None:
        drawn = min(n, self.bag_count)
        self.bag_count -= drawn
        self.rack_counts[player] += drawn

    def copy(self) -> Game:
        other = Game(self.rules, self.players, first=self.first)
        for event in self.events:
            other._append(event)
        if self._decided is not None:
            other.decide(*self._decided)
        return other

    @property
    def scoreless_turns(self) -> int:
        return self._scoreless_turns

    def unseen(self, player: int | None = None, rack: str | None = None) -> Counter[str]:
        """Tiles not on the board (and not on ``rack``, the rack ``player`` can see)."""
        pool = self.rules.tiles_in_play()
        for _, cell in self.board:
            pool[BLANK if cell.blank else cell.letter] -= 1
            if cell.arrow:
                pool["^"] -= 1
        if rack:
            pool.subtract(Counter(rack))
        return +pool

    def known_rack(self, player: int) -> str | None:
        """``player``'s rack when the board alone settles it: two players, the bag empty and the
        opponent out of tiles, so everything unseen is on ``player``'s rack."""
        if len(self.players) != 2 or self.bag_count:
            return None
        other = 1 - player
        if self.rack_counts[other] == 0:
            return "".join(sorted(self.unseen().elements()))
        return None

    # -- the log ----------------------------------------------------------------------------------
    def validate(self, move: Move, *, player: int | None = None, rack: str | None = None) -> list[Problem]:
        if isinstance(move, Placement):
            return validate(self.board, move, self.rules, rack=rack)
        return []

    def score(self, move: Placement) -> ScoredPlacement:
        return score_placement(self.board, move, self.rules)

    def play(self, move: Move, *, player: int | None = None, rack: str | None = None, note: str = "",
             check: bool = True, extra: Mapping[str, object] | None = None) -> GameEvent:
        """Validate, score and append ``move``; raises :class:`IllegalMove` listing every problem."""
        # After someone goes out the opponent may still challenge (a lost challenge is a Pass) and rack
        # points and penalties are counted; no more tiles are played.
        if self.finished and isinstance(move, (Placement, Exchange)):
            shown = move.notation(self.board) if isinstance(move, Placement) else repr(move)
            raise GameStateError(f"the game is over; {shown} cannot be played")
        player = self.to_move if player is None else player
        if not 0 <= player < len(self.players):
            raise GameStateError(f"no player {player!r} in a {len(self.players)}-player game")
        if check:
            problems = self.validate(move, player=player, rack=rack)
            if problems:
                raise IllegalMove(
                    f"illegal move {move!r}: " + "; ".join(p.message for p in problems), tuple(problems)
                )
        event = self._event_for(move, player, rack, note, extra or {})
        self._append(event)
        return event

    def _event_for(self, move: Move, player: int, rack: str | None, note: str, extra) -> GameEvent:
        words: tuple[str, ...] = ()
        if isinstance(move, Placement):
            scored = self.score(move)
            score, words = scored.score, scored.word_texts
        elif isinstance(move, Withdraw):
            if not self._placements:
                raise GameStateError("there is no placement on the board to withdraw")
            score = -self._placements[-1][2]
            player = self.events[self._placements[-1][0]].player
        elif isinstance(move, (ChallengeBonus, TimePenalty)):
            score = move.points
        elif isinstance(move, RackPoints):
            score = move.points if move.points is not None else self.rack_points(player, move.rack)
        else:
            score = 0
        return GameEvent(player, move, score, self.scores[player] + score, rack, words, note, dict(extra))

    def rack_points(self, player: int, rack: str) -> int:
        """Signed end-of-game points for ``player`` counting ``rack`` under the game's accounting."""
        value = self.rules.tileset.rack_value(rack)
        if self.went_out == player:
            if self.rules.rack_accounting is RackAccounting.TWICE_OPPONENT:
                return 2 * value
            if self.rules.rack_accounting is RackAccounting.OWN_AND_SUM:
                return value
            return 0
        return -value

    def _append(self, event: GameEvent) -> None:
        index = len(self.events)
        self.events.append(event)
        move = event.move
        player = event.player
        self.scores[player] += event.score
        if isinstance(move, Placement):
            for tile in move.tiles:
                self.board[tile.square] = tile.cell
            self._placements.append((index, move, event.score))
            used = move.tiles_used
            self.rack_counts[player] = max(0, self.rack_counts[player] - used)
            self._draw(player, used)
            self._end_turn(player, scored=True)
            if self.rack_counts[player] == 0 and self.bag_count == 0:
                self.went_out = player
                self._end(EndReason.RACK_OUT, player)
        elif isinstance(move, Exchange):
            self._end_turn(player, scored=False)
        elif isinstance(move, Pass):
            lost = is_lost_turn(event)
            if lost and player != self.to_move:
                # "kaotab selle vaidlustanud mängija oma järgmise käigu" (seed 004): a failed challenger who is not
                # next loses their next turn when it comes; play goes on from the player to move.
                self._turns_lost[player] += 1
                self._scoreless_turns += 1
                self._own_passes_in_a_row[player] = self._passes_in_a_row[player] = 0
            else:
                self._end_turn(player, scored=False, passed=not lost)
        elif isinstance(move, Withdraw):
            _, placement, _ = self._placements.pop()
            for tile in placement.tiles:
                self.board[tile.square] = None
            # The tiles go back to the rack; a refill drawn since then goes back to the bag.
            owner = event.player
            self.rack_counts[owner] += placement.tiles_used
            returned = min(placement.tiles_used, self.rack_counts[owner] - self.rules.rack_size)
            if returned > 0:  # a refill was drawn in between: put those back in the bag
                self.rack_counts[owner] -= returned
                self.bag_count += returned
            if self.went_out == owner:
                self.went_out = None
                self.finished = False
                self.end_reason = self._ended_by = None
            self._scoreless_turns += 1
        elif isinstance(move, RackPoints):
            self._end(EndReason.AGREED, None)
        self._check_end(player)

    def _end(self, reason: EndReason, player: int | None) -> None:
        """The game is over; the first reason stands (rack points and penalties come after it)."""
        if not self.finished or self.end_reason is None:
            self.end_reason, self._ended_by = reason, player
        self.finished = True

    def _end_turn(self, player: int, *, scored: bool, passed: bool = False) -> None:
        if scored:
            self._scoreless_turns = 0
            self._passes_in_a_row = [0] * len(self.players)
        else:
            self._scoreless_turns += 1
            if passed:
                self._passes_in_a_row[player] += 1
            else:
                self._passes_in_a_row[player] = 0
        self._own_passes_in_a_row[player] = self._own_passes_in_a_row[player] + 1 if passed else 0
        n = len(self.players)
        following = (player + 1) % n
        for _ in range(n):
            if not self._turns_lost[following]:
                break
            self._turns_lost[following] -= 1
            following = (following + 1) % n
        self.to_move = following

    def _check_end(self, player: int) -> None:
        """End the game when a rule's limit is reached by the event ``player`` just made."""
        rules = self.rules
        if rules.target_score is not None and self.scores[player] >= rules.target_score:
            self._end(EndReason.TARGET, player)
        if rules.scoreless_turn_limit is not None and self._scoreless_turns >= rules.scoreless_turn_limit:
            self._end(EndReason.SCORELESS_TURNS, player)
        limit = rules.passes_in_a_row_limit
        if limit is not None and all(n >= limit for n in self._passes_in_a_row):
            self._end(EndReason.ALL_PASSED, player)
        limit = rules.player_passes_in_a_row_limit
        if limit is not None and self._own_passes_in_a_row[player] >= limit:
            self._end(EndReason.PASSES, player)

    def last_play(self) -> GameEvent | None:
        """The placement still on the board that was played last (what a challenge is about)."""
        return self.events[self._placements[-1][0]] if self._placements else None

    def challenge(self, judge: PlayJudge, challenger: int) -> tuple[object, list[GameEvent]]:
        """Judge every word the last play formed (main word and cross-words) in one call, as one
        play, and apply the challenge rule. Returns the judge's verdict and the events added."""
        play = self.last_play()
        if play is None:
            raise GameStateError("there is no play on the board to challenge")
        verdict = judge.judge_play(play.words)
        return verdict, self.resolve_challenge(bool(verdict.acceptable), challenger)

    def resolve_challenge(self, acceptable: bool, challenger: int) -> list[GameEvent]:
        """Apply the game's challenge rule to the last placement; returns the events added.

        A phony comes off (Withdraw). A valid play challenged in vain costs the
        challenger their next turn (double: a Pass in their name), or gives the
        challenged player 5 or 10 points. Under the single rule nothing happens.
        """
        if not self._placements:
            raise GameStateError("there is no play on the board to challenge")
        index, _, _ = self._placements[-1]
        challenged = self.events[index].player
        if challenger == challenged:
            raise GameStateError(f"player {challenger} cannot challenge their own play")
        rule = self.rules.challenge_rule
        if rule is ChallengeRule.VOID:
            raise GameStateError("this game is played without challenges (void rule)")
        if not acceptable:
            return [self.play(Withdraw(), player=challenged)]
        if rule is ChallengeRule.DOUBLE:
            # The challenger loses their next turn: now if it is theirs, else when it comes (3-4 players).
            return [self.play(Pass(), player=challenger, note=f"{LOST_TURN_NOTE}: failed challenge")]
        if rule.bonus:
            return [self.play(ChallengeBonus(rule.bonus), player=challenged)]
        return []

    def finish(self, racks: Mapping[int, str] | None = None) -> list[GameEvent]:
        """End the game with rack points. ``racks`` gives what is left on each player's rack;
        where it is missing, the rack must be settled by the unseen pool (two players, bag empty)."""
        racks = dict(racks or {})
        for player in range(len(self.players)):
            if player not in racks:
                if self.rack_counts[player] == 0:
                    racks[player] = ""
                elif (known := self.known_rack(player)) is not None:
                    racks[player] = known
                else:
                    raise GameStateError(f"the rack of {self.players[player]!r} is not known; enter it to finish")
        added: list[GameEvent] = []
        out = self.went_out
        accounting = self.rules.rack_accounting
        if out is not None and accounting is RackAccounting.TWICE_OPPONENT:
            others = "".join(r for p, r in sorted(racks.items()) if p != out)
            added.append(self.play(RackPoints(others), player=out))
        else:
            for player, rack in sorted(racks.items()):
                if player != out and rack:
                    added.append(self.play(RackPoints(rack), player=player))
            if out is not None and accounting is RackAccounting.OWN_AND_SUM:
                others = "".join(r for p, r in sorted(racks.items()) if p != out)
                added.append(self.play(RackPoints(others), player=out))
        self.finished = True
        return added

    def undo(self) -> GameEvent:
        """Remove the last event and return it."""
        if not self.events:
            raise GameStateError("nothing to undo: the game has no events")
        events = self.events[:-1]
        last = self.events[-1]
        self.events = []
        self._reset()
        for event in events:
            self._append(event)
        return last

    def replay(self, events: Iterable[GameEvent]) -> None:
        """Append already-scored events (from storage) without re-validating."""
        for event in events:
            self._append(event)

    def decide(self, winner: int, reason: EndReason) -> None:
        """End the game with ``winner`` decided outside the score sheet: a triple-rule challenge
        (:attr:`EndReason.CHALLENGE`) or a loss on time (:attr:`EndReason.TIME`). Undo takes it back."""
        if not 0 <= winner < len(self.players):
            raise GameStateError(f"no player {winner!r} in a {len(self.players)}-player game")
        self._decided = (winner, reason)
        self._end(reason, None)
        self.end_reason = reason

    def close(self, reason: EndReason = EndReason.AGREED) -> None:
        """End the game for ``reason`` without an event (the players stopped); the scores decide."""
        self._end(reason, None)

    def outcome(self) -> Outcome | None:
        """Why the game ended and who won; None while it is still being played.

        Equal final scores go to the rules' tie-break: under the Scrabble sheet's rule (seed 004, "Võrdsuse
        korral võidab mängija, kellel on suurem punktisumma enne mängimata tähtede muutmist") the higher score
        before the rack adjustments wins; still equal, the win is shared.
        """
        if not self.finished:
            return None
        final = tuple(self.scores)
        racks = [0] * len(self.players)
        for event in self.events:
            if isinstance(event.move, RackPoints):
                racks[event.player] += event.score
        before = tuple(score - rack for score, rack in zip(final, racks, strict=True))
        reason = self.end_reason or EndReason.AGREED
        if self._decided is not None:
            winner, reason = self._decided
            return Outcome(reason, final, before, (winner,), None, None)
        if reason is EndReason.TARGET and self._ended_by is not None:
            return Outcome(reason, final, before, (self._ended_by,), None, self._ended_by)
        best = max(final)
        winners = tuple(i for i, score in enumerate(final) if score == best)
        tie_broken_by = None
        if len(winners) > 1 and self.rules.tie_break is TieBreak.SCORE_BEFORE_RACKS:
            best_before = max(before[i] for i in winners)
            separated = tuple(i for i in winners if before[i] == best_before)
            if len(separated) < len(winners):
                winners, tie_broken_by = separated, self.rules.tie_break.value
        return Outcome(reason, final, before, winners, tie_broken_by, self._ended_by)

    @property
    def winner(self) -> int | None:
        """Index of the winner once the game is over (None while playing or on a shared win)."""
        outcome = self.outcome()
        if outcome is None or outcome.is_draw:
            return None
        return outcome.winners[0]

    def board_after(self, n: int) -> Board:
        """The board after the first ``n`` events."""
        probe = Game(self.rules, self.players, first=self.first)
        for event in self.events[:n]:
            probe._append(event)
        return probe.board

    def __repr__(self) -> str:
        scores = " ".join(f"{p}={s}" for p, s in zip(self.players, self.scores, strict=True))
        return f"<Game {self.rules.game.value} {len(self.events)} events {scores} to_move={self.to_move}>"


def is_lost_turn(event: GameEvent) -> bool:
    """A Pass recorded for a failed challenger (it is not a pass the player chose: the pass rules do not count it)."""
    notes = (event.note, str(event.extra.get("note", "")))
    return isinstance(event.move, Pass) and any(note.startswith(LOST_TURN_NOTE) for note in notes)

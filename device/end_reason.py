# SPDX-License-Identifier: GPL-3.0-or-later
"""Why a game ended and how a tie was broken, as strings keys with their fields, for the end screen.

The engine's :class:`~engine.game.Outcome` says what happened; this turns it into ``end.reason.*`` and
``end.tie_break.*`` keys of ``device/data/strings/<lang>.toml`` with the names and numbers they need:

>>> from engine.game import EndReason, Outcome
>>> from engine.rules import Rules
>>> outcome = Outcome(EndReason.PASSES, (20, 20), (30, 21), (0,), "score-before-racks", 1)
>>> end_texts(outcome, Rules.scrabble("en", players=3), ["Ann", "Bob", "Cid"])
(('end.reason.passes', {'name': 'Bob', 'count': 2}), ('end.tie_break.score_before_racks', {'score': 20, \
'name': 'Ann', 'before': 30}))
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game import EndReason, Outcome
from engine.rules import Rules

Text = tuple[str, dict[str, object]]


def end_texts(outcome: Outcome, rules: Rules, names: Sequence[str]) -> tuple[Text, ...]:
    """The reason line, then (on equal final scores) the tie line: ``(key, fields)`` pairs."""
    lines = [reason_text(outcome, rules, names)]
    tie = tie_text(outcome, names)
    if tie is not None:
        lines.append(tie)
    return tuple(lines)


def reason_text(outcome: Outcome, rules: Rules, names: Sequence[str]) -> Text:
    """``end.reason.<reason>`` with ``name`` (who ended or won it) and ``count`` (the rule's limit)."""
    reason = outcome.reason
    key = "end.reason." + reason.value.replace("-", "_")
    by = outcome.decided_by
    winner = names[outcome.winners[0]] if outcome.winners else ""
    if reason is EndReason.RACK_OUT:
        return key, {"name": names[by] if by is not None else winner}
    if reason is EndReason.PASSES:
        return key, {"name": names[by] if by is not None else "", "count": rules.player_passes_in_a_row_limit}
    if reason is EndReason.ALL_PASSED:
        return key, {"count": rules.passes_in_a_row_limit}
    if reason is EndReason.SCORELESS_TURNS:
        return key, {"count": rules.scoreless_turn_limit}
    if reason is EndReason.TARGET:
        return key, {"name": winner, "count": rules.target_score}
    if reason in (EndReason.TIME, EndReason.CHALLENGE):
        return key, {"name": winner}
    return key, {}


def tie_text(outcome: Outcome, names: Sequence[str]) -> Text | None:
    """How equal final scores were settled (None when the top final score was not shared, or a challenge, the
    clock or the target decided the game whatever the scores)."""
    if outcome.reason in (EndReason.TIME, EndReason.CHALLENGE, EndReason.TARGET):
        return None
    final = outcome.final_scores
    top = max(final) if final else 0
    if sum(1 for score in final if score == top) < 2:
        return None
    if outcome.tie_broken_by:
        winner = outcome.winners[0]
        key = "end.tie_break." + outcome.tie_broken_by.replace("-", "_")
        return key, {"score": top, "name": ", ".join(names[i] for i in outcome.winners),
                     "before": outcome.scores_before_racks[winner]}
    return "end.tie_break.shared", {"score": top}

# SPDX-License-Identifier: GPL-3.0-or-later
"""Scoring a placement exactly as the rules say.

Per word formed: face values (blanks 0); under a *newly placed* tile a letter
premium multiplies its value and a minus square subtracts twice its value;
word premiums under new tiles multiply the word after those letter effects.
A tile in two words counts in both, with its square's effect. The bonus for
using the whole rack (Scrabble bingo, Alfapet all-tiles bonus) is added last
and never multiplied. Stop tiles score 0 and end words like the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board
from engine.moves import Placement
from engine.rules import Rules
from engine.squares import Direction, Square


@dataclass(frozen=True)
class FormedWord:
    word: str
    squares: tuple[Square, ...]
    score: int
    main: bool = False

    def __str__(self) -> str:
        return f"{self.word} ({self.score})"


@dataclass(frozen=True)
class ScoredPlacement:
    score: int
    words: tuple[FormedWord, ...]
    bonus: int = 0
    theme_bonus: int = 0

    @property
    def word_texts(self) -> tuple[str, ...]:
        return tuple(w.word for w in self.words)


def formed_words(board: Board, placement: Placement) -> list[tuple[list[Square], bool]]:
    """The words a placement forms on ``board`` (the board *before* it), as square lists.

    Returns (squares, is_main) pairs: the main word along the placement's line
    (bent at an arrow tile if there is one) and every cross-word of two or
    more letters through a new tile.
    """
    after = board.copy()
    for tile in placement.letter_tiles:
        after[tile.square] = tile.cell
    new = {t.square for t in placement.letter_tiles}
    if not new:
        return []
    words: list[tuple[list[Square], bool]] = []
    bend = placement.bend
    direction = placement.direction
    if bend is not None:
        first_leg = [s for s in after.run(bend.square, direction) if _before_or_at(s, bend.square, direction)]
        down_run = after.run(bend.square, direction.other)
        second_leg = [s for s in down_run if _before_or_at(bend.square, s, direction.other)]
        main = first_leg + second_leg[1:]
        words.append((main, True))
        for tile in placement.letter_tiles:
            if tile.square == bend.square:
                continue
            leg_direction = direction if tile.square in first_leg else direction.other
            cross = after.run(tile.square, leg_direction.other)
            if len(cross) >= 2:
                words.append((cross, False))
        return words
    anchor = min(new)
    main = after.run(anchor, direction)
    if len(main) >= 2:
        words.append((main, True))
    for square in sorted(new):
        cross = after.run(square, direction.other)
        if len(cross) >= 2:
            words.append((cross, len(main) < 2 and not words))
    return words


def _before_or_at(a: Square, b: Square, direction: Direction) -> bool:
    return a.col <= b.col if direction is Direction.ACROSS else a.row <= b.row


def score_placement(board: Board, placement: Placement, rules: Rules) -> ScoredPlacement:
    """Score ``placement`` on ``board`` (the board before it). Does not validate."""
    new = {t.square: t for t in placement.letter_tiles}
    tileset, layout = rules.tileset, rules.layout
    after = board.copy()
    for tile in placement.letter_tiles:
        after[tile.square] = tile.cell
    results = []
    total = 0
    for squares, is_main in formed_words(board, placement):
        letter_sum = 0
        word_multiplier = 1
        for square in squares:
            cell = after[square]
            assert cell is not None
            value = 0 if cell.blank else tileset.value(cell.letter)
            if square in new:
                premium = layout.premium(square)
                letter_sum += value * premium.letter_multiplier
                if premium.is_minus and rules.minus_squares:
                    letter_sum -= 2 * value
                word_multiplier *= premium.word_multiplier
            else:
                letter_sum += value
        score = letter_sum * word_multiplier
        total += score
        results.append(FormedWord(after.word(squares), tuple(squares), score, is_main))
    bonus = rules.bingo_bonus(placement.tiles_used)
    theme = rules.theme_bonus * sum(1 for w in results if w.word in rules.theme_words)
    return ScoredPlacement(total + bonus + theme, tuple(results), bonus, theme)

# SPDX-License-Identifier: GPL-3.0-or-later
"""CGP (crossword game position, the woogles/macondo one-line format) for single-letter tile sets.

Fields, space-separated: the board (rows top to bottom separated by ``/``, digits for runs of empty squares,
lower case for blanks), the racks separated by ``/`` (the player on turn first; ``?`` a blank, may be empty),
the scores separated by ``/``, the number of consecutive zero-score turns, then optional operations
``name value;`` such as ``lex NWL20;`` or ``ld english;``. Multi-letter tiles (``[CH]``) are not supported.

>>> position = parse_cgp("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/AEILOUY 0/32 0 lex CSW21;")
>>> position.board.size, position.racks, position.scores, position.zero_turns, position.ops
(15, ('ADEEGIL', 'AEILOUY'), (0, 32), 0, {'lex': 'CSW21'})
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.board import Board
from engine.errors import InvalidNotation


@dataclass(frozen=True)
class CgpPosition:
    board: Board
    racks: tuple[str, ...]
    scores: tuple[int, ...] = ()
    zero_turns: int = 0
    ops: dict[str, str] = field(default_factory=dict)

    @property
    def lexicon(self) -> str | None:
        return self.ops.get("lex")


_OP = re.compile(r"\s*([A-Za-z_][\w-]*)\s+([^;]*);")


def parse_cgp(text: str) -> CgpPosition:
    """Read one CGP line; raises :class:`InvalidNotation` naming the field that is wrong."""
    fields = text.strip().split(None, 4)
    if not fields:
        raise InvalidNotation("empty CGP: expected 'BOARD RACKS SCORES ZERO-TURNS [ops]'")
    board_text = fields[0]
    if "[" in board_text:
        raise InvalidNotation(f"CGP board {board_text[:40]!r}...: multi-letter tiles ([CH]) are not supported")
    rows = board_text.split("/")
    if any(not row for row in rows):
        raise InvalidNotation(f"CGP board {board_text[:40]!r}...: an empty row")
    board = Board.from_text(board_text)
    racks = tuple(fields[1].split("/")) if len(fields) > 1 else ()
    for rack in racks:
        if not all(ch == "?" or ch.isalpha() for ch in rack):
            raise InvalidNotation(f"CGP rack {rack!r}: only letters and '?' (a blank) may be on a rack")
    scores: tuple[int, ...] = ()
    if len(fields) > 2:
        try:
            scores = tuple(int(s) for s in fields[2].split("/"))
        except ValueError:
            raise InvalidNotation(f"CGP scores {fields[2]!r}: expected numbers separated by '/'") from None
    zero_turns = 0
    if len(fields) > 3:
        try:
            zero_turns = int(fields[3])
        except ValueError:
            raise InvalidNotation(f"CGP zero-score turns {fields[3]!r}: expected a number") from None
    ops = {}
    if len(fields) > 4:
        rest = fields[4]
        consumed = 0
        for m in _OP.finditer(rest):
            if rest[consumed:m.start()].strip():
                break
            ops[m.group(1)] = m.group(2).strip()
            consumed = m.end()
        if rest[consumed:].strip():
            raise InvalidNotation(f"CGP operations {rest!r}: expected 'name value;' pairs such as 'lex NWL20;'")
    return CgpPosition(board, racks, scores, zero_turns, ops)

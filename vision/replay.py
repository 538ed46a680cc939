# SPDX-License-Identifier: GPL-3.0-or-later
"""Replay a game from a folder of per-turn photos through the device's own diff-and-propose path.

Players alternate; an unchanged board is an exchange; tiles that disappear are the previous placement
withdrawn (possibly with the next player's placement on the same photo); a covered frame is reported
and skipped. Confident proposals teach the classifier (as confirmed moves do on the device). With a
GCG record, every turn is compared with the record (squares, letters, score; the engine's score of
the recorded move is the reference, and the record's own arithmetic errors are listed separately).
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.game import Game
from engine.gcg import GcgRecord, parse_gcg
from engine.gcg import replay as replay_record
from engine.moves import Exchange, PlacedTile, Placement, Withdraw
from engine.rules import Rules
from vision.diff import DiffProblem, Proposal, ProposalKind, propose
from vision.errors import VisionError
from vision.reader import BoardReader, BoardReading, load_frame

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
#: Only letters read with at least this margin teach the classifier (self-training must not learn its errors).
LEARN_MARGIN = 0.05


def natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def photos(folder: Path) -> list[Path]:
    found = sorted((p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=natural_key)
    if not found:
        raise VisionError(f"no photos (.jpg/.png) in {str(folder)!r}; expected image-1.jpg, image-2.jpg, ...")
    return found


def image_number(path: Path) -> int | None:
    numbers = re.findall(r"\d+", path.stem)
    return int(numbers[-1]) if numbers else None


@dataclass
class Turn:
    photo: Path
    proposal: Proposal
    text: str  # what was applied, e.g. "H4 FIRNS +24", "exchange", "withdrawn", "covered"
    seconds: float
    expected: str | None = None  # the record's move for this photo
    match: bool | None = None
    reading: BoardReading | None = field(default=None, repr=False)


@dataclass
class ReplayResult:
    game: Game
    turns: list[Turn] = field(default_factory=list)
    record_errors: list[str] = field(default_factory=list)

    @property
    def compared(self) -> list[Turn]:
        return [t for t in self.turns if t.match is not None]

    @property
    def matched(self) -> int:
        return sum(1 for t in self.compared if t.match)

    def timing(self) -> tuple[float, float]:
        ms = sorted(t.seconds * 1000 for t in self.turns)
        if not ms:
            return (0.0, 0.0)
        return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]


def _tiles_key(placement: Placement) -> set[tuple]:
    return {(t.square, "?" if t.blank else t.letter) for t in placement.letter_tiles}


def replay_photos(folder: Path, reader: BoardReader, rules: Rules, *, players: tuple[str, str] = ("Player1", "Player2"),
                  record: GcgRecord | None = None, learn: bool = True,
                  orientation: bool | None = None) -> ReplayResult:
    """Replay the photos. ``orientation`` says how the record names positions: True lettered rows, False
    standard GCG, None what the record's own ``#orientation`` pragma says (standard without one).

    The orientation is a property of the record, never guessed from the photos: a guess made on a
    badly lit or tilted photo would silently transpose every comparison.
    """
    game = Game(rules, list(players))
    result = ReplayResult(game)
    truth: dict[int, tuple] = {}
    folder_photos = photos(folder)
    if record is not None:
        lettered = record.lettered_rows if orientation is None else orientation
        rp = replay_record(record, rules=rules, lettered_rows=lettered)
        result.record_errors = [str(m) for m in rp.mismatches]
        ref = Game(rules, list(players))
        for number, event in enumerate(rp.game.events, start=1):
            before = ref.board.copy()
            truth[number] = (event, before)
            ref.play(event.move, player=event.player, check=False)
    last_owner: int | None = None
    last_placement: Placement | None = None
    for photo in folder_photos:
        frame = load_frame(photo)
        t0 = time.perf_counter()
        reading = reader.read(frame, cells=[])
        before = game.board.copy()
        proposal = propose(reading, before, rules, last_placement=last_placement, reader=reader, frame=frame)
        seconds = time.perf_counter() - t0
        text = proposal.kind.value
        number = image_number(photo)
        expected_event = truth.get(number) if number is not None else None
        if proposal.kind in (ProposalKind.COVERED, ProposalKind.NO_BOARD, ProposalKind.CONFLICT):
            result.turns.append(Turn(photo, proposal, text, seconds, reading=reading))
            continue
        if proposal.removed and last_placement is not None and last_owner is not None \
                and not proposal.problems & DiffProblem.NOT_A_WITHDRAWAL:
            game.play(Withdraw(), player=last_owner, check=False)
            text = "withdrawn"
            last_placement = None
        if proposal.placement is not None:
            placement = proposal.placement
            if proposal.blanks and expected_event is not None and isinstance(expected_event[0].move, Placement):
                # The player names a blank's letter; in a replay with a record, the record does.
                named = {t.square: t.letter for t in expected_event[0].move.letter_tiles if t.blank}
                tiles = [PlacedTile(t.square, named.get(t.square, t.letter), blank=True) if t.blank else t
                         for t in placement.tiles]
                placement = Placement.from_tiles(tiles, game.board, direction=placement.direction)
            player = game.to_move
            event = game.play(placement, player=player, check=False)
            text = (text + " + " if text == "withdrawn" else "") + f"{placement.notation(before)} {event.score:+d}"
            last_placement, last_owner = placement, player
            if learn and proposal.problems & ~DiffProblem.BLANK_NEEDS_LETTER == DiffProblem.NONE:
                letters = {t.square: t.letter for t in placement.letter_tiles}
                sure = [t for t in proposal.new_tiles if t.guess is not None and t.guess.confidence >= LEARN_MARGIN]
                reader.learn(sure, [letters[t.square] for t in sure])
        elif text != "withdrawn":
            game.play(Exchange(count=0) if proposal.kind is ProposalKind.UNCHANGED else Exchange(), check=False)
            text = "exchange or pass"
        turn = Turn(photo, proposal, text, seconds, reading=reading)
        if expected_event is not None:
            turn.expected, turn.match = _compare(expected_event, proposal, game)
        result.turns.append(turn)
    return result


def _compare(expected: tuple, proposal: Proposal, game: Game) -> tuple[str, bool]:
    event, before = expected
    move = event.move
    if isinstance(move, Placement):
        text = f"{move.notation(before)} {event.score:+d}"
        if proposal.placement is None:
            return text, False
        got = game.events[-1]
        return text, _tiles_key(move) == _tiles_key(proposal.placement) and got.score == event.score
    if isinstance(move, Exchange) or move.__class__.__name__ == "Pass":
        return "exchange or pass", proposal.kind is ProposalKind.UNCHANGED
    return move.__class__.__name__.lower(), proposal.placement is None


def load_record(path: Path) -> GcgRecord:
    return parse_gcg(Path(path).read_bytes(), str(path))

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
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.game import Game
from engine.gcg import GcgRecord, parse_gcg
from engine.gcg import replay as replay_record
from engine.moves import Exchange, PlacedTile, Placement, RackPoints, TimePenalty, Withdraw
from engine.rules import Rules
from vision.diff import DiffProblem, Proposal, ProposalKind, propose, split_two
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
    #: How the record's positions were read: "standard", "lettered-rows", with "(from the photos)" when inferred.
    orientation: str = ""
    #: Events after the last photo taken from the record (end-of-game rack points, time penalties).
    record_tail: list[str] = field(default_factory=list)

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
    standard GCG, None what the record's own ``#orientation`` pragma says.

    A record that does not say (many German club records use lettered rows silently) is read the way
    the photos show it: the squares of the first placement seen decide, never its letters, and the
    reading itself does not depend on the record. ``result.orientation`` tells which was used.
    """
    game = Game(rules, list(players))
    result = ReplayResult(game)
    truths: dict[bool, dict[int, tuple]] = {}
    truth: dict[int, tuple] = {}
    folder_photos = photos(folder)
    declared = orientation if orientation is not None else (
        record.lettered_rows if record is not None and "orientation" in record.pragmas else None)
    if record is not None:
        for lettered in ((declared,) if declared is not None else (False, True)):
            rp = replay_record(record, rules=rules, lettered_rows=lettered)
            result.record_errors = [str(m) for m in rp.mismatches]
            ref = Game(rules, list(players))
            truths[lettered] = {}
            for number, event in enumerate(rp.game.events, start=1):
                before = ref.board.copy()
                truths[lettered][number] = (event, before)
                ref.play(event.move, player=event.player, check=False)
        if declared is not None:
            truth = truths[declared]
            result.orientation = "lettered-rows" if declared else "standard"
    last_owner: int | None = None
    last_placement: Placement | None = None
    missed: tuple[Turn, int | None] | None = None  # a covered photo whose move the next photo may show
    for photo in folder_photos:
        frame = load_frame(photo)
        t0 = time.perf_counter()
        reading = reader.read(frame, cells=[])
        before = game.board.copy()
        proposal = propose(reading, before, rules, last_placement=last_placement, reader=reader, frame=frame)
        seconds = time.perf_counter() - t0
        text = proposal.kind.value
        number = image_number(photo)
        if record is not None and not truth and proposal.placement is not None and number is not None:
            truth, result.orientation = _orientation_from_photo(truths, number, proposal.placement)
        expected_event = truth.get(number) if number is not None else None
        if proposal.kind is ProposalKind.CONFLICT and missed is not None and proposal.placement is not None:
            # The photo before was covered: this one shows its move and the next. Read both from it.
            missed_turn, missed_number = missed
            lost = truth.get(missed_number) if missed_number is not None else None
            parts = _pick_split(split_two(proposal.placement, before, rules), lost)
            if parts is not None:
                event = game.play(parts[0], player=game.to_move, check=False)
                missed_turn.text = f"covered; read from {photo.name}: {parts[0].notation(before)} {event.score:+d}"
                if lost is not None:
                    missed_turn.expected, missed_turn.match = _compare(lost, replace(proposal, placement=parts[0]),
                                                                       game)
                last_placement, last_owner = parts[0], event.player
                before = game.board.copy()
                proposal = propose(reading, before, rules, last_placement=last_placement, reader=reader, frame=frame)
                text = proposal.kind.value
        missed = None
        if proposal.kind in (ProposalKind.COVERED, ProposalKind.NO_BOARD, ProposalKind.CONFLICT):
            turn = Turn(photo, proposal, text, seconds, reading=reading)
            result.turns.append(turn)
            if proposal.kind is not ProposalKind.CONFLICT:
                missed = (turn, number)
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
    # End-of-game rack points and time penalties have no photo: count them as the record states them.
    last_photo = max((n for n in map(image_number, folder_photos) if n is not None), default=0)
    for number in sorted(n for n in (truth or next(iter(truths.values()), {})) if n > last_photo):
        event = (truth or next(iter(truths.values())))[number][0]
        if isinstance(event.move, (RackPoints, TimePenalty)):
            player = event.player if event.player < len(game.players) else game.to_move
            added = game.play(event.move, player=player, check=False)
            result.record_tail.append(f"{players[player]}: {added.score:+d} ({type(event.move).__name__})")
    return result


def _pick_split(splits: list[tuple[Placement, Placement]], lost: tuple | None) -> tuple[Placement, Placement] | None:
    """The split of two moves seen at once: the only one, or (with a record) the one whose first move
    lies where the record puts the covered turn's move: the photo fixes the tiles, the record only
    the order."""
    if len(splits) == 1:
        return splits[0]
    if lost is None or not isinstance(lost[0].move, Placement):
        return None
    squares = {t.square for t in lost[0].move.letter_tiles}
    matching = [s for s in splits if {t.square for t in s[0].letter_tiles} == squares]
    return matching[0] if len(matching) == 1 else None


def _orientation_from_photo(truths: dict[bool, dict[int, tuple]], number: int,
                            seen: Placement) -> tuple[dict[int, tuple], str]:
    """Pick the reading of an undeclared record whose move on this photo covers the squares seen."""
    squares = {t.square for t in seen.letter_tiles}
    for lettered in (False, True):
        expected = truths[lettered].get(number)
        if expected is not None and isinstance(expected[0].move, Placement) \
                and {t.square for t in expected[0].move.letter_tiles} == squares:
            return truths[lettered], ("lettered-rows" if lettered else "standard") + " (from the photos)"
    return truths[False], "standard (the record does not say; the photos did not settle it)"


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


def full_frame_ms(reader: BoardReader, turns: list[Turn]) -> list[float]:
    """Milliseconds to read each turn's photo from scratch (locate, occupancy, every tile), with the
    reader's letter model but no cached board location."""
    fresh = BoardReader(reader.profile, reader.tileset, classifier=reader.classifier)
    times = []
    for turn in turns:
        frame = load_frame(turn.photo)
        fresh.locator.geometry = None
        t0 = time.perf_counter()
        fresh.read(frame)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def load_record(path: Path) -> GcgRecord:
    return parse_gcg(Path(path).read_bytes(), str(path))

# SPDX-License-Identifier: GPL-3.0-or-later
"""Replay a game from a folder of per-turn photos through the device's own diff-and-propose path.

The photos alone make the game: players alternate; an unchanged board is an exchange or a pass;
tiles that disappear are the previous placement withdrawn (possibly with the next player's placement
on the same photo); a covered or unreadable photo is reported and its move is looked for on the next
photo, which then holds several moves: they are split by the rules alone (each part one legal move in
one line, connected, at most a rack of tiles, words in the game's dictionary when one is given, and as
the players alternate no more moves than photos unless nothing else fits), and where several splits stay
possible the replay says so and picks one. A photo that follows a clear one holds one turn: a tile or two
that no move of the rest can hold are left out as strays. Words that read backwards as the letters stand
(tiles laid facing a player on another side) are looked up both ways once the game shows they do. A
blank's letter is the one letter that makes every word of its play valid; with none or several it stays
unknown (``?``, scoring 0 as a blank does) and the game goes on. A photo whose grid was found whole
cells off (every tile already played seems moved by them) is read again on the grid moved back; a
withdrawal seen together with the next move after a covered photo is the covered photo's turn; the last
move gone along with a tile or two more is withdrawn (the others misread), tiles gone that are not the last
move are misread (the photo is a pass). A photo that splits into no legal moves leaves out the tiles read
least surely as tiles before it is split into more moves than photos. Confident
proposals teach the classifier (as confirmed moves do on the device).

A GCG record is only compared against, after the reading (:func:`compare_with_record`): squares,
letters, blanks and score of every turn (the engine's score of the recorded move is the reference; the
record's own arithmetic errors are listed separately). Nothing of the record feeds the reading; the
one exception is asked for by name: ``racks_from_record`` adds the record's end-of-game rack lines
when no photo shows the racks.
"""

from __future__ import annotations

import dataclasses
import re
import statistics
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np

from engine.board import Board
from engine.errors import EngineError
from engine.game import Game, GameEvent
from engine.gcg import GcgRecord, parse_gcg
from engine.gcg import replay as replay_record
from engine.moves import Exchange, PlacedTile, Placement, RackPoints, TimePenalty, Withdraw
from engine.rules import Rules
from engine.scoring import score_placement
from engine.squares import Square
from vision import colour
from vision.classifier import UNSURE_MARGIN, LetterGuess
from vision.diff import (
    DiffProblem,
    Proposal,
    ProposalKind,
    WordCheck,
    _invalid_words,
    _legal_one,
    _letters_on,
    board_after,
    chain_moves,
    copy_bars,
    name_blanks,
    propose,
    split_moves,
)
from vision.errors import ImageReadError, VisionError
from vision.locate import Geometry, locate_structure
from vision.occupancy import CellState
from vision.reader import ANOMALY_LIMIT, BoardReader, BoardReading, ReadingStatus, TileReading, load_frame

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
#: Only letters read with at least this margin teach the classifier (self-training must not learn its errors).
LEARN_MARGIN = 0.05
#: A letter read is swapped for another that makes every word of its move valid only when the other looked
#: almost as much like the tile (its similarity at most this much lower): a call the reader itself is unsure
#: of (it would ask the player) is settled by the dictionary. A letter read clearly stands, so a phony is read
#: as the phony it is, and a dictionary that lacks some of the game's words cannot talk a right letter away
#: (a gap of 0.08 did that on the synthetic games read with an English list that is not the games' lexicon).
WORD_SWAP_GAP = UNSURE_MARGIN
#: Letters swapped together at most in one move.
_MAX_SWAPS = 2
#: At most this many moves are looked for on one photo (unreadable photos in a row before it, plus its own).
MAX_MOVES_PER_PHOTO = 5
#: Photos taken at will: the moves one photo may show (a phone photo three minutes after the last showed six).
MAX_MOVES_AT_WILL = 8
#: A reading that does not see more than this share of the tiles already played where they lie is unusable.
PLAUSIBLE_MISSING = 0.1


def natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def photos(folder: Path) -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        raise VisionError(f"{str(folder)!r} is not a folder of photos")
    found = sorted((p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=natural_key)
    if not found:
        raise VisionError(f"no photos (.jpg/.png) in {str(folder)!r}; expected image-1.jpg, image-2.jpg, ...")
    return found


def image_number(path: Path) -> int | None:
    numbers = re.findall(r"\d+", path.stem)
    return int(numbers[-1]) if numbers else None


def numbered_by_turn(found: list[Path]) -> bool:
    """Whether the photos' names count turns (``image-1``, ``image-2``, ...: one photo per turn, as a clock
    button takes them) rather than stamp the time they were taken (a phone's ``IMG_20151016_165303``, several
    photos of one board, none of some): only a turn count makes an unchanged photo a pass and a gap in the
    numbers a missing photo. A name stamps the time when it holds a date (eight digits from 19xx or 20xx) or
    a number of 100000 or more (no game has that many turns); the others must each end in a distinct number.

    >>> numbered_by_turn([Path("image-1.jpg"), Path("image-2.jpg"), Path("image-5.jpg"), Path("image-9.jpg")])
    True
    >>> numbered_by_turn([Path("IMG_20151016_165303.jpg"), Path("IMG_20151016_165308.jpg")])
    False
    >>> numbered_by_turn([Path("board.jpg"), Path("board-2.jpg")])
    False
    """
    def stamped(path: Path) -> bool:
        runs = re.findall(r"\d+", path.stem)
        return any(len(r) >= 8 and r[:2] in ("19", "20") for r in runs) or any(int(r) >= 100_000 for r in runs)

    if any(stamped(p) for p in found):
        return False
    numbers = [image_number(p) for p in found]
    known = [n for n in numbers if n is not None]
    return len(known) == len(numbers) and len(set(known)) == len(known)


def missing_numbers(found: list[Path]) -> list[int]:
    """Photo numbers absent from a numbered series (``image-1``, ``image-2``, ``image-5`` -> [3, 4]).

    >>> missing_numbers([Path("image-1.jpg"), Path("image-2.jpg"), Path("image-5.jpg"), Path("image-9.jpg")])
    [3, 4, 6, 7, 8]
    """
    numbers = sorted({n for n in map(image_number, found) if n is not None})
    if not numbers:
        return []
    present = set(numbers)
    return [n for n in range(numbers[0], numbers[-1] + 1) if n not in present]


@dataclass
class Turn:
    photo: Path
    proposal: Proposal
    text: str  # what was applied, e.g. "H4 FIRNS +24", "exchange or pass", "withdrawn", "covered"
    seconds: float
    expected: str | None = None  # the record's move for this photo
    match: bool | None = None
    reading: BoardReading | None = field(default=None, repr=False)
    #: The game events this photo's move made (a withdrawal and a placement can share a photo).
    events: list[GameEvent] = field(default_factory=list, repr=False)
    #: The board before this photo's move.
    before: Board | None = field(default=None, repr=False)
    #: Things the reader could not settle alone (several splits, a blank's letter).
    notes: list[str] = field(default_factory=list)
    #: Processor time of the reading (one thread): on a loaded machine wall time mostly measures waiting.
    cpu_seconds: float = 0.0
    #: Photos taken at will: a covered photo whose board a later photo showed owes no move of its own.
    superseded: bool = False

    @property
    def read(self) -> bool:
        """Whether this photo's move made it into the game."""
        return bool(self.events) or self.superseded or self.proposal.kind is ProposalKind.UNCHANGED


@dataclass
class ReplayResult:
    game: Game
    turns: list[Turn] = field(default_factory=list)
    record_errors: list[str] = field(default_factory=list)
    #: How the record's positions were read: "standard", "lettered-rows", with "(from the photos)" when inferred.
    orientation: str = ""
    #: Events after the last photo taken from the record (only with ``racks_from_record``).
    record_tail: list[str] = field(default_factory=list)
    #: One photo per turn (an unchanged photo is a pass), else photos taken at will (:func:`read_photos`).
    per_turn: bool = True

    @property
    def compared(self) -> list[Turn]:
        return [t for t in self.turns if t.match is not None]

    @property
    def matched(self) -> int:
        return sum(1 for t in self.compared if t.match)

    @property
    def unread(self) -> list[Turn]:
        """Photos whose move never made it into the game (covered with nothing after it, unsplittable)."""
        return [t for t in self.turns if not t.read and t.text != "unchanged (the game is over)"]

    def timing(self) -> tuple[float, float]:
        ms = sorted(t.seconds * 1000 for t in self.turns)
        if not ms:
            return (0.0, 0.0)
        return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]


def replay_photos(folder: Path, reader: BoardReader, rules: Rules, *, players: tuple[str, ...] = ("Player1", "Player2"),
                  record: GcgRecord | None = None, learn: bool = True, orientation: bool | None = None,
                  words: WordCheck | None = None, racks_from_record: bool = False,
                  per_turn: bool | None = None) -> ReplayResult:
    """Read the game from the photos alone, then (with ``record``) compare it with the record.

    ``words``: the game's dictionary (a word -> valid check) for naming blanks and splitting photos
    that hold several moves; None judges by the rules alone. ``orientation`` says how the record names
    positions: True lettered rows, False standard GCG, None the record's ``#orientation`` pragma, else
    the reading that agrees with the photos. ``per_turn``: one photo per turn (see :func:`read_photos`).
    """
    result = read_photos(folder, reader, rules, players=players, learn=learn, words=words, per_turn=per_turn)
    if record is not None:
        compare_with_record(result, record, rules, orientation=orientation, racks_from_record=racks_from_record)
    return result


def read_photos(folder: Path, reader: BoardReader, rules: Rules, *, players: tuple[str, ...] = ("Player1", "Player2"),
                learn: bool = True, words: WordCheck | None = None, per_turn: bool | None = None) -> ReplayResult:
    """The game the photos show, photo by photo (no record involved).

    ``per_turn``: the photos were taken one per turn, so an unchanged photo is an exchange or a pass and a
    gap in their numbers a missing photo; else (photos taken at will: several of one board, none of some
    moves) an unchanged photo is the same board seen again, and a photo may show one move more than the
    photos before it. None: told from the names (:func:`numbered_by_turn`)."""
    found = photos(folder)
    if per_turn is None:
        per_turn = numbered_by_turn(found)
    game = Game(rules, list(players))
    result = ReplayResult(game, per_turn=per_turn)
    direction = ReadingDirection(words) if words is not None else None
    words = direction
    last_placement: Placement | None = None
    last_owner: int | None = None
    waiting: list[Turn] = []  # unreadable photos whose moves a later photo shows
    last_number: int | None = None  # of the last photo whose move was read
    guesses: dict[Square, LetterGuess] = {}  # each square's latest reading
    for photo in found:
        if direction is not None:
            direction.learn(game.events)
        if result.turns and result.turns[-1] not in waiting:
            last_number = image_number(result.turns[-1].photo)
        try:
            frame = load_frame(photo)
        except ImageReadError as error:
            # A photo cut short or corrupt (a pulled plug while it was written) is one photo lost, not the game:
            # its move is looked for on the next photo, as after a photo with no board in it.
            lost = Proposal(ProposalKind.NO_BOARD, DiffProblem.BOARD_NOT_FOUND, messages=(f"unreadable: {error}",))
            turn = Turn(photo, lost, "unreadable photo", 0.0, before=game.board.copy())
            result.turns.append(turn)
            waiting.append(turn)
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        before = game.board.copy()
        reading = _plausible_reading(reader, frame, before, last_placement)
        proposal = propose(reading, before, rules, last_placement=last_placement, reader=reader, frame=frame,
                           bars=copy_bars(before, guesses, rules))
        guesses.update((t.square, t.guess) for t in proposal.new_tiles if t.guess is not None)
        seconds = time.perf_counter() - t0
        turn = Turn(photo, proposal, proposal.kind.value, seconds, reading=reading, before=before,
                    cpu_seconds=time.process_time() - c0)
        result.turns.append(turn)
        if proposal.kind in (ProposalKind.COVERED, ProposalKind.NO_BOARD):
            waiting.append(turn)
            continue
        if game.finished and proposal.kind is ProposalKind.UNCHANGED:
            turn.text = "unchanged (the game is over)"
            continue
        if proposal.kind is ProposalKind.CONFLICT:
            # Photos numbered 4, 6: the photo of move 5 is missing, so photo 6 shows two moves.
            gap = (number - last_number) if per_turn and (number := image_number(photo)) is not None \
                and last_number else 1
            # Tiles gone that are not the last move are misread (their removal is not played): no hindrance.
            taken_back = proposal.removed and not proposal.problems & DiffProblem.NOT_A_WITHDRAWAL
            # Photos taken at will: a covered photo before this one says nothing about how many moves it shows.
            behind = waiting if per_turn else [t for t in waiting if t.proposal.kind is ProposalKind.CONFLICT]
            single = _one_move_of(proposal, before, rules) if not (behind or taken_back) and gap <= 1 else None
            if single is not None and not per_turn and _two_words_moves(proposal, before, rules, words):
                single = None  # at will a photo may show two moves: tiles making a word of their own are one
            if single is not None:
                # One photo, one turn: a tile off the move's line is a misreading or a stray, not a second move.
                played = _play_without_strays(game, single, proposal, before, rules, words, turn,
                                              " left out (one photo holds one move)")
                if played is not None:
                    last_placement, last_owner = played
                continue
            seen = [_glimpse(t.reading, before) for t in waiting]
            # At will, the photographer may have missed a move: one more than the photos is as likely as any.
            if per_turn:
                split_found = _split(proposal, before, rules, words, turn, seen, max(gap, len(waiting) + 1))
            else:
                split_found = _split(proposal, before, rules, words, turn, seen, MAX_MOVES_AT_WILL,
                                     most=MAX_MOVES_AT_WILL) or _chain(proposal, before, rules, words, turn, seen)
            if split_found is None and not _stalled(waiting):
                turn.notes.append("no split into legal moves; its tiles are looked for again on the next photo")
                waiting.append(turn)
                continue
            if split_found is None:
                # Twice in a row (or too many photos behind): a misread tile would stall every later photo.
                single = _without_strays(proposal, before, rules)
                forced = _as_one_move(proposal, before) if single is None else None
                if single is not None:
                    # One legal move once a stray is left out: that move, checked as any other.
                    played = _play_without_strays(game, single, proposal, before, rules, words, turn, " left out")
                    if played is not None:
                        last_placement, last_owner = played
                elif forced is not None and (event := _play(game, forced, turn)) is not None:
                    shown = f"{event.move.notation(before)} {event.score:+d}"  # type: ignore[union-attr]
                    turn.text = f"{shown} (taken unchecked)"
                    turn.notes.append(f"the new tiles make no legal moves however split, on this photo and the one "
                                      f"before it: taken as one move ({shown}), unchecked, so the game goes on")
                    # Not a move to take back: a misread tile of it that vanishes later is no withdrawal.
                    last_placement, last_owner = None, None
                for earlier in waiting:
                    earlier.text += f" (no move of its own found; its tiles went with {photo.name})"
                waiting = []
                continue
            last_placement, last_owner = _play_split(game, split_found, proposal, turn, waiting, rules, words,
                                                     per_turn, (last_placement, last_owner))
            if not per_turn:
                for earlier in waiting:
                    earlier.superseded = True
            for _ in range(gap - len(split_found[0])):
                # Photos missing beyond the moves found: exchanges or passes (the players still alternate).
                if _play(game, Exchange(count=0), turn) is not None:
                    turn.text += " + exchange or pass (a photo is missing)"
            waiting = []
            continue
        waiting_now, waiting = waiting, []
        shown_split = _split_shown(proposal, before, rules, words, turn,
                                   [_glimpse(t.reading, before) for t in waiting_now]) \
            if waiting_now and per_turn and not proposal.removed else None
        if shown_split is not None:
            # The covered photos still showed part of this photo's one move: it was two turns (or more).
            last_placement, last_owner = _play_split(game, shown_split, proposal, turn, waiting_now, rules, words,
                                                     per_turn, (last_placement, last_owner))
            continue
        if waiting_now and not per_turn:
            # Taken at will: this photo shows the board the covered ones could not; they owe no move.
            for earlier in waiting_now:
                earlier.text += f"; the board was read on {photo.name}"
                earlier.superseded = True
            waiting_now = []
        for earlier in waiting_now:
            earlier.text += f"; nothing more on {photo.name} (an exchange, a pass or a photo of the same board)"
        if proposal.removed and last_placement is not None and last_owner is not None \
                and not proposal.problems & DiffProblem.NOT_A_WITHDRAWAL:
            if waiting_now and proposal.placement is not None:
                # The withdrawal and the next move are two turns: the photo just after the phony's (covered)
                # shows the withdrawal, this one the move.
                withdrawn_on = waiting_now[0]
                _play(game, Withdraw(), withdrawn_on, player=last_owner)
                withdrawn_on.text = f"{withdrawn_on.proposal.kind.value}; read from {photo.name}: withdrawn"
                withdrawn_on.before = before
            else:
                _play(game, Withdraw(), turn, player=last_owner)
                turn.text = "withdrawn"
            last_placement = None
        if proposal.placement is not None:
            # A covered photo that already shows this move's tiles owns the move; this photo is then a pass.
            owner = turn
            if waiting_now and not proposal.removed:
                seen = [_glimpse(t.reading, before) for t in waiting_now]
                owner = [*waiting_now, turn][_owners([proposal.placement], seen, len(waiting_now) + 1)[0]]
            placement = _prefer_words(proposal.placement, {t.square: t for t in proposal.new_tiles}, game.board,
                                      rules, words, owner)
            placement = _with_blanks(placement, game.board, rules, words, owner)
            board_before = game.board.copy()
            event = _play(game, placement, owner)
            if event is None:
                continue
            shown = f"{placement.notation(board_before)} {event.score:+d}"
            if owner is not turn:
                owner.text = f"{owner.text}; read from {photo.name}: {shown}"
                owner.before = board_before
                if _play(game, Exchange(count=0), turn) is not None:
                    turn.text = "exchange or pass"
                last_placement, last_owner = placement, event.player
                continue
            turn.text = f"withdrawn + {shown}" if turn.text == "withdrawn" else shown
            last_placement, last_owner = placement, event.player
            if learn and proposal.problems & ~DiffProblem.BLANK_NEEDS_LETTER == DiffProblem.NONE:
                letters = {t.square: t.letter for t in placement.letter_tiles}
                sure = [t for t in proposal.new_tiles if t.guess is not None and t.guess.confidence >= LEARN_MARGIN]
                reader.learn(sure, [letters[t.square] for t in sure])
        elif turn.text != "withdrawn" and proposal.kind is ProposalKind.UNCHANGED:
            if not per_turn:
                turn.text = "unchanged"
            elif _play(game, Exchange(count=0), turn) is not None:
                turn.text = "exchange or pass"
        elif proposal.kind is ProposalKind.REMOVED and proposal.problems & DiffProblem.NOT_A_WITHDRAWAL \
                and not proposal.new_tiles:
            # Tiles gone that are not the last move cannot have been taken back: misread. When the last move is
            # gone too, with a tile or two besides, it was withdrawn; else the board is unchanged.
            last = {t.square for t in last_placement.letter_tiles} if last_placement is not None else set()
            others = set(proposal.removed) - last
            if last and last <= set(proposal.removed) and len(others) <= _MAX_MISREAD_GONE \
                    and _play(game, Withdraw(), turn, player=last_owner) is not None:
                turn.text = "withdrawn"
                last_placement = None
            elif not per_turn:
                turn.text = "unchanged"
            elif _play(game, Exchange(count=0), turn) is not None:
                turn.text = "exchange or pass"
            turn.notes.append(f"tiles on {', '.join(sq.name for sq in sorted(others))} read as gone, but they are "
                              "not the last move: taken as misread")
    _mend_overcounts(result, rules, guesses, words)
    return result


def _mend_overcounts(result: ReplayResult, rules: Rules, guesses: dict[Square, LetterGuess],
                     words: WordCheck | None) -> None:
    """Where the final board holds more copies of a letter than the set has, the least surely read of them
    (:func:`vision.diff.copy_bars`) that its reader nearly read as another letter (within
    :data:`WORD_SWAP_GAP`) with a copy to spare, and that makes no more invalid words so, is that letter:
    the move that laid it is replayed with it, and every event after rescored. A later copy read more
    surely stood over the count (:func:`vision.diff._choose_letters`); this names the one it displaced."""
    game = result.game
    on_board = _letters_on(game.board)
    placed_by: dict[Square, int] = {}  # the event that laid the tile each square holds now
    for index, event in enumerate(game.events):
        if isinstance(event.move, Placement):
            placed_by.update((t.square, index) for t in event.move.letter_tiles)
    changes: dict[Square, str] = {}
    for letter, count in sorted(on_board.items()):
        surplus = count - rules.tileset.count(letter)
        if surplus <= 0:
            continue
        ranked = []
        for square, cell in game.board:
            guess = guesses.get(square)
            if cell.letter == letter and not cell.blank and guess is not None and guess.letter == letter:
                ranked.append((guess.confidence, square, guess))
        for _, square, guess in sorted(ranked, key=lambda x: (x[0], x[1]))[:surplus]:
            best = guess.top[0][1]
            for other, similarity in guess.top[1:]:
                if best - similarity > WORD_SWAP_GAP:
                    break
                if other.isalpha() and on_board[other] < rules.tileset.count(other):
                    changes[square] = other
                    on_board[other] += 1
                    on_board[letter] -= 1
                    break
    if not changes:
        return
    rebuilt = Game(rules, list(game.players))
    renamed: dict[int, GameEvent] = {}
    mended = False
    for index, event in enumerate(game.events):
        move = event.move
        mine = {sq: x for sq, x in changes.items() if placed_by.get(sq) == index}
        if mine and isinstance(move, Placement):
            changed = dataclasses.replace(move, notation_text="", tiles=tuple(
                t._replace(letter=mine[t.square]) if t.square in mine else t for t in move.tiles))
            if words is None or _count_invalid(changed, rebuilt.board, rules, words) \
                    <= _count_invalid(move, rebuilt.board, rules, words):
                move, mended = changed, True
        try:
            renamed[id(event)] = rebuilt.play(move, player=event.player, check=False, note=event.note,
                                              extra=event.extra)
        except EngineError:
            return  # the game cannot be replayed so: the reading stands as it was
    if not mended:
        return
    for turn in result.turns:
        for i, event in enumerate(turn.events):
            new = renamed[id(event)]
            turn.events[i] = new
            old_move, new_move = event.move, new.move
            if not isinstance(old_move, Placement) or not isinstance(new_move, Placement) or new == event:
                continue
            if turn.before is not None:
                was = f"{old_move.notation(turn.before)} {event.score:+d}"
                turn.text = turn.text.replace(was, f"{new_move.notation(turn.before)} {new.score:+d}")
            if new_move is not old_move:
                shown = ", ".join(f"{t.square.name} {t.letter}->{n.letter}"
                                  for t, n in zip(old_move.tiles, new_move.tiles, strict=True) if t.letter != n.letter)
                turn.notes.append(f"read {shown} afterwards: the board came to hold more copies than the set has, "
                                  "and this one was the least surely read")
    result.game = rebuilt


class ReadingDirection:
    """The game's dictionary as the photos spell its words: as read (the letters upright), or either way
    round once the words played so far clearly read backwards that way.

    The reader names the squares from the way the letters stand, but a player on another side of the board
    may lay tiles facing themself while the words run as the board's own rows and columns do (and a quarter
    turn makes a row a column): the same words then read backwards, and the dictionary would reject every
    one, name no blank and settle no close call. A word is evidence when it is a word one way round only."""

    #: Words valid backwards only, at least, and more than twice those valid as read, before the switch.
    EVIDENCE = 3

    def __init__(self, words: WordCheck) -> None:
        self.words = words
        self.forward = self.backward = 0
        self._seen = 0

    @property
    def either_way(self) -> bool:
        return self.backward >= self.EVIDENCE and self.backward > 2 * self.forward

    def __call__(self, word: str) -> bool:
        return self.words(word) or self.either_way and self.words(word[::-1])

    def learn(self, events: list[GameEvent]) -> None:
        """Count the words of the placements among ``events`` not counted yet (the game's events so far)."""
        for event in events[self._seen :]:
            if not isinstance(event.move, Placement):
                continue
            for word in event.words:
                if len(word) < 3 or not word.isalpha():
                    continue
                ahead, back = self.words(word), self.words(word[::-1])
                self.forward += ahead and not back
                self.backward += back and not ahead
        self._seen = len(events)


def _misplaced(reading: BoardReading, board: Board, last_placement: Placement | None) -> float:
    """How far a reading is from a usable one: the share of the tiles already played (the last placement
    aside: it may have been withdrawn) that it does not see where they lie; above 1 when it found no board
    (2) or a covered one (1 plus the share of its squares hidden: a grid found off hides more)."""
    if reading.occupancy is None or reading.status & ReadingStatus.BOARD_NOT_FOUND:
        return 2.0
    if reading.status & ReadingStatus.COVERED:
        return 1.0 + len(reading.hidden) / reading.occupancy.state.size
    last = {t.square for t in last_placement.letter_tiles} if last_placement is not None else set()
    played = {sq for sq, cell in board if not cell.is_stop} - last
    if not played:
        return 0.0
    return len(played - reading.occupied()) / len(played)


def _plausible_reading(reader: BoardReader, frame, board: Board, last_placement: Placement | None) -> BoardReading:
    """The photo's reading, located again from the grid's lines alone when the first reading is unusable
    (covered, or the tiles already played are not where they lie: a grid found cells off makes every tile
    seem moved); the better of the two. One still unusable leaves no location behind, so the next photo
    is located from scratch and never read through a wrong grid."""
    reading = reader.read(frame, cells=[])
    wrong = _misplaced(reading, board, last_placement)
    if wrong <= PLAUSIBLE_MISSING:
        return reading
    try:
        geometry = locate_structure(frame, reader.profile.grid, gains=colour.white_gains(frame),
                                    tile=reader.profile.tile)
    except VisionError:
        geometry = None
    if geometry is not None:
        kept = reader.locator.geometry
        second = _read_on(reader, frame, geometry)
        again = _misplaced(second, board, last_placement)
        if again < wrong:
            reading, wrong = second, again
        else:
            reader.locator.geometry = kept
    if _unseen(reading, board, last_placement) > PLAUSIBLE_MISSING:
        shifted = _shifted_reading(reader, frame, reading, board, last_placement)
        if shifted is not None:
            reading, wrong = shifted, _misplaced(shifted, board, last_placement)
    if wrong > PLAUSIBLE_MISSING:
        reader.locator.geometry = None
    return reading


def _unseen(reading: BoardReading, board: Board, last_placement: Placement | None) -> float:
    """The share of the tiles already played (the last placement aside) that the reading shows neither
    as a tile nor hidden where they lie (1 without a board): hidden squares are no evidence either way,
    so a covered photo read on the right grid scores low too."""
    if reading.occupancy is None:
        return 1.0
    played = _played(board, last_placement) - set(reading.hidden)
    return len(played - reading.occupied()) / len(played) if played else 0.0


def _played(board: Board, last_placement: Placement | None) -> set[Square]:
    last = {t.square for t in last_placement.letter_tiles} if last_placement is not None else set()
    return {sq for sq, cell in board if not cell.is_stop} - last


def _shifted_reading(reader: BoardReader, frame, reading: BoardReading, board: Board,
                     last_placement: Placement | None) -> BoardReading | None:
    """The photo read again on its grid moved by whole cells, when the tiles it saw are the tiles already
    played moved by those cells (a grid found a cell or three off along the board, say onto a score strip
    or under a hand: every tile then seems moved); None when no such shift shows them or the reading on it
    does not see them where they lie. The reader's locator keeps the grid of the reading returned."""
    geometry, occupancy = reading.geometry, reading.occupancy
    played = _played(board, last_placement)
    if geometry is None or occupancy is None or len(played) < _SHIFT_MIN_TILES:
        return None
    found = _board_shift(occupancy.state == CellState.TILE, occupancy.anomaly > ANOMALY_LIMIT, played)
    if found is None:
        return None
    quarter_turns, (dr, dc) = found
    n = geometry.grid
    # np.rot90(cells, k) are the cells of the grid with its corners named k on (vision.reader.turned).
    named = Geometry(np.roll(geometry.corners, -quarter_turns, axis=0), n, geometry.line_score)
    moved = np.array([[dc, dr], [n + dc, dr], [n + dc, n + dr], [dc, n + dr]], np.float32)
    corners = cv2.perspectiveTransform(moved.reshape(-1, 1, 2), np.linalg.inv(named.to_canonical(1))).reshape(4, 2)
    # In the camera's corner order, which the reader turns by the board's turn as it names squares.
    seen = Geometry(np.roll(corners, reader.turns or 0, axis=0).astype(np.float32), n, geometry.line_score)
    kept = reader.locator.geometry
    second = _read_on(reader, frame, seen)
    if _unseen(second, board, last_placement) <= PLAUSIBLE_MISSING:
        return second
    reader.locator.geometry = kept
    return None


#: The grid is moved by at most this many cells each way to find the tiles already played.
_SHIFT_CELLS = 3
#: Fewer tiles on the board than this show no shift reliably.
_SHIFT_MIN_TILES = 6


def _board_shift(tiles: np.ndarray, hidden: np.ndarray,
                 played: set[Square]) -> tuple[int, tuple[int, int]] | None:
    """The quarter turn and whole-cell shift (rows, columns) under which the played squares show as tiles
    in ``tiles`` (the reading's grid, turned by np.rot90), hidden cells aside: the one that shows at least
    9 in 10 of the played squares it keeps on the grid (and most of them on it), the fewest other tiles as
    the tie-break; None when none does, or when the grid is right as it is."""
    n = tiles.shape[0]
    best: tuple[tuple[float, int], tuple[int, tuple[int, int]]] | None = None
    cells = np.array([(sq.row, sq.col) for sq in played])
    for k in range(4):
        turned_tiles, turned_hidden = np.rot90(tiles, k), np.rot90(hidden, k)
        for dr in range(-_SHIFT_CELLS, _SHIFT_CELLS + 1):
            for dc in range(-_SHIFT_CELLS, _SHIFT_CELLS + 1):
                rows, cols = cells[:, 0] + dr, cells[:, 1] + dc
                inside = (rows >= 0) & (rows < n) & (cols >= 0) & (cols < n)
                r, c = rows[inside], cols[inside]
                visible = ~turned_hidden[r, c]
                if visible.sum() < 0.6 * len(cells):
                    continue
                seen = turned_tiles[r, c][visible]
                share = float(seen.mean())
                if share < 1 - PLAUSIBLE_MISSING:
                    continue
                others = int(turned_tiles[~turned_hidden].sum()) - int(seen.sum())
                key = (-share, others)
                if best is None or key < best[0]:
                    best = (key, (k, (dr, dc)))
    if best is None or best[1] == (0, (0, 0)):
        return None
    return best[1]


def _read_on(reader: BoardReader, frame, geometry: Geometry) -> BoardReading:
    """The frame read on ``geometry`` (camera corner order); the reader's locator then holds it, its
    corners named as after a relocation (from the board's last look)."""
    reader.locator.take(geometry)
    return reader.read(frame, cells=[])


def _play(game: Game, move, turn: Turn, *, player: int | None = None) -> GameEvent | None:
    """Play ``move`` for ``turn``; a move the game cannot take any more is noted, never fatal."""
    try:
        event = game.play(move, player=game.to_move if player is None else player, check=False)
    except EngineError as exc:
        turn.notes.append(f"not played: {exc}")
        return None
    turn.events.append(event)
    return event


def _split(proposal: Proposal, board: Board, rules: Rules, words: WordCheck | None,
           turn: Turn, seen: list[Glimpse | None], turns: int,
           most: int = MAX_MOVES_PER_PHOTO) -> tuple[list[Placement], tuple[int, ...]] | None:
    """The moves one photo shows and the photos they belong to (``seen``: what each covered photo before
    it showed, oldest first; the owners are indices into those photos and this one), split by the rules
    (and the dictionary) and ordered by what the covered photos showed; notes a split that stays ambiguous.

    The players alternate, so the photos show at most ``turns`` moves (one per photo, missing photos
    counted): a split into no more moves comes first, then the fewest moves once a stray or two are left out
    (a tile read without a letter, or with no tile beside it), and only then more moves than turns."""
    tiles = [_as_read(t) for t in proposal.new_tiles]
    if len(tiles) < 2:
        return None
    within = min(turns, most)
    budget = [_SPLIT_STEPS]
    found = _split_into(tiles, range(2, within + 1), board, rules, words, turn, seen, budget)
    if found is not None:
        return found
    strays = _strays(proposal, board)
    for count in range(1, min(len(strays), 2) + 1):
        for dropped in combinations(strays, count):
            kept = [t for t in tiles if t.square not in dropped]
            found = _split_into(kept, range(1, within + 1), board, rules, words, turn, seen, budget)
            if found is not None:
                turn.notes.append(f"a stray on {', '.join(sq.name for sq in dropped)} left out: the rest makes "
                                  f"{len(found[0])} legal move(s), no more than photos")
                return found
    weak = _weak_tiles(proposal, turn.reading)
    for count in range(1, len(weak) + 1):
        for dropped in combinations(weak, count):
            kept = [t for t in tiles if t.square not in dropped]
            found = _split_into(kept, range(1, within + 1), board, rules, words, turn, seen, budget)
            if found is not None:
                turn.notes.append(f"{', '.join(sq.name for sq in dropped)} left out (read as tiles less clearly "
                                  f"than the others): the rest makes {len(found[0])} legal move(s), no more than "
                                  "photos")
                return found
    if words is not None:
        # More moves than photos means a turn the photos do not show, or one tile that is no tile: the latter, when
        # leaving out one of the least surely read tiles (by less than WEAK_MARGIN_GAP) leaves moves whose words
        # are all in the dictionary (held-out synthetic Alfapet game 1008: a dark premium square read as an I
        # beside a tile, 0.09 below the median, made 'O5 .I + O11 GI' of one photo).
        for dropped_square in _least_sure_tiles(proposal, turn.reading, weak):
            kept = [t for t in tiles if t.square != dropped_square]
            found = _split_into(kept, range(1, within + 1), board, rules, words, turn, seen, budget)
            if found is not None and _invalid_words(found[0], board, rules, words) == 0:
                turn.notes.append(f"{dropped_square.name} left out (of the new tiles one of the least surely read): "
                                  f"the rest makes {len(found[0])} legal move(s) of valid words, no more than photos")
                return found
    return _split_into(tiles, range(within + 1, most + 1), board, rules, words, turn, seen, budget)


def _chain(proposal: Proposal, board: Board, rules: Rules, words: WordCheck | None, turn: Turn,
           seen: list[Glimpse | None]) -> tuple[list[Placement], tuple[int, ...]] | None:
    """Photos taken at will, several moves missed: one way to read the new tiles as legal moves
    (:func:`vision.diff.chain_moves`), credited to this photo, their order a guess that is noted."""
    tiles = [_as_read(t) for t in proposal.new_tiles]
    chain = chain_moves(tiles, board, rules, words, len(tiles))
    if chain is None or len(chain) < 2:
        return None
    turn.notes.append(f"the {len(tiles)} new tiles make {len(chain)} legal moves in this order, one way of "
                      "several: moves were missed between the photos, so their order and players are a guess")
    return chain, tuple([len(seen)] * len(chain))


def _play_split(game: Game, split: tuple[list[Placement], tuple[int, ...]], proposal: Proposal, turn: Turn,
                waiting: list[Turn], rules: Rules, words: WordCheck | None, per_turn: bool,
                last: tuple[Placement | None, int | None]) -> tuple[Placement | None, int | None]:
    """Plays the moves of a split photo (``split``: the moves and the index of the photo, among ``waiting`` and
    ``turn``, each is credited to), noting them on their photos; returns the last placement played and its player
    (``last`` when none was)."""
    parts, owned_by = split
    readings = {t.square: t for t in proposal.new_tiles}
    owners = [[*waiting, turn][i] for i in owned_by]
    for earlier in waiting:
        if earlier not in owners:
            earlier.text += " (no move of its own found)"
    turn.text = ""
    for index, (owner, part) in enumerate(zip(owners, parts, strict=True)):
        board_before = game.board.copy()
        part = _prefer_words(part, readings, board_before, rules, words, owner)
        if not per_turn and index < len(parts) - 1 and game.bag_count == 0 \
                and game.rack_counts[game.to_move] <= len(part.tiles):
            # Moves missed between photos taken at will: who played which is a guess, and the guess
            # must not have a player go out while the photo shows more moves; the other player's.
            if _play(game, Exchange(count=0), turn) is not None:
                turn.notes.append(f"{game.players[game.events[-1].player]} passes (a guess: otherwise "
                                  "they would have gone out before the moves this photo still shows)")
        event = _play(game, _with_blanks(part, board_before, rules, words, owner), owner)
        if event is None:
            break
        owner.before = board_before
        shown = f"{event.move.notation(board_before)} {event.score:+d}"  # type: ignore[union-attr]
        if owner is turn:
            turn.text = f"{turn.text} + {shown}" if turn.text else shown
        else:
            owner.text = f"{owner.text}; read from {turn.photo.name}: {shown}"
        last = (event.move, event.player)  # type: ignore[assignment]
    return last


def _split_shown(proposal: Proposal, board: Board, rules: Rules, words: WordCheck | None, turn: Turn,
                 seen: list[Glimpse | None]) -> tuple[list[Placement], tuple[int, ...]] | None:
    """The new tiles of a photo that make one legal move, split into legal moves over the covered photos before it
    (``seen``: what each still showed) and this one, when those photos show it: the split they contradict less than
    the move as one (a covered photo showed a tile of it, and the square of another still empty). None otherwise:
    a covered photo that shows nothing of the move may have been an exchange or a pass."""
    if proposal.placement is None or len(proposal.new_tiles) < 2 or all(g is None for g in seen):
        return None
    photos = len(seen) + 1
    glimpses = [*seen, None]
    whole = _contradictions([proposal.placement], glimpses, _owners([proposal.placement], seen, photos))
    if whole == 0:
        return None
    tiles = [_as_read(t) for t in proposal.new_tiles]
    budget = [_SPLIT_STEPS]
    best: tuple[int, list[Placement], tuple[int, ...]] | None = None
    for k in range(2, min(photos, MAX_MOVES_PER_PHOTO) + 1):
        for split in split_moves(tiles, board, rules, k, words, budget):
            for owners in _assignments(k, photos):
                bad = _contradictions(split, glimpses, owners)
                if bad < whole and (best is None or bad < best[0]):
                    best = (bad, split, owners)
    if best is None:
        return None
    turn.notes.append(f"the covered photo before it showed part of the move: split into {len(best[1])} moves")
    return best[1], best[2]


#: Moves checked at most while splitting one photo, every way of leaving tiles out included (a few seconds).
_SPLIT_STEPS = 60_000
#: At most this many tiles besides the last move's may read as gone for a photo to show its withdrawal.
_MAX_MISREAD_GONE = 2
#: A new tile whose tile-or-empty margin is this far below the median of the photo's new tiles is weak evidence.
WEAK_MARGIN_GAP = 0.1
#: At most this many weak tiles are tried leaving out (every subset of them is tried).
_MAX_WEAK = 4


def _new_tile_margins(proposal: Proposal, reading: BoardReading | None) -> dict[Square, float]:
    """The tile-or-empty margin of each of the photo's new tiles; none when there is no occupancy or fewer than
    three tiles are new (leaving one out would leave a lone tile)."""
    if reading is None or reading.occupancy is None or len(proposal.new_tiles) < 3:
        return {}
    margin = reading.occupancy.margin
    return {t.square: float(margin[t.square.row, t.square.col]) for t in proposal.new_tiles}


def _weak_tiles(proposal: Proposal, reading: BoardReading | None) -> list[Square]:
    """The photo's new tiles with a letter whose occupancy was decided clearly less surely than the others'
    (:data:`WEAK_MARGIN_GAP` below the median), weakest first: a square's print or a shadow taken for a tile
    (a minus square of the Alfapet board read as an I) looks so. Tiles without a letter are strays already."""
    of = _new_tile_margins(proposal, reading)
    if not of:
        return []
    typical = statistics.median(of.values())
    weak = [t.square for t in proposal.new_tiles if t.guess is not None and of[t.square] < typical - WEAK_MARGIN_GAP]
    return sorted(weak, key=lambda sq: of[sq])[:_MAX_WEAK]


def _least_sure_tiles(proposal: Proposal, reading: BoardReading | None, tried: list[Square]) -> list[Square]:
    """The _MAX_WEAK new tiles with a letter whose occupancy was decided least surely (lowest margin first), those
    in ``tried`` left out (see :func:`_new_tile_margins` for when there are none)."""
    of = _new_tile_margins(proposal, reading)
    candidates = [t.square for t in proposal.new_tiles if t.guess is not None and t.square in of
                  and t.square not in tried]
    return sorted(candidates, key=lambda sq: of[sq])[:_MAX_WEAK]


def _split_into(tiles: list[PlacedTile], counts: range, board: Board, rules: Rules, words: WordCheck | None,
                turn: Turn, seen: list[Glimpse | None],
                budget: list[int] | None = None) -> tuple[list[Placement], tuple[int, ...]] | None:
    """:func:`_split` into the fewest of ``counts`` moves that works (``budget``: see :func:`split_moves`)."""
    photos = [*seen, None]
    # The fewest moves that explain the photo: a missing photo may have been an exchange or a pass. Never more
    # than MAX_MOVES_PER_PHOTO, however many photos before it were unreadable: the ways to split grow
    # exponentially with the moves (a run of covered photos made one photo's split run for over ten minutes).
    for k in counts:
        splits = split_moves(tiles, board, rules, k, words, budget)
        if not splits and k == 2:
            splits = _line_cuts(tiles, board, rules, words)
        if not splits:
            continue
        ranked = sorted(((_contradictions(split, photos, owners), i, split, owners)
                         for i, split in enumerate(splits) for owners in _assignments(k, len(photos))),
                        key=lambda x: (x[0], x[1]))
        best = [r for r in ranked if r[0] == ranked[0][0]]
        # Splits that differ only in the photo a move is credited to count once (the default is the latest).
        if len({id(r[2]) for r in best}) > 1:
            shown = " | ".join(", ".join(p.notation(board) if i == 0 else _squares(p) for i, p in enumerate(r[2]))
                               for r in best[:3])
            turn.notes.append(f"{len({id(r[2]) for r in best})} ways to split the {len(tiles)} new tiles into {k} "
                              f"moves ({shown}{' ...' if len(best) > 3 else ''}); took the first")
        _, _, split, owners = best[0]
        return split, owners
    return None


def _two_words_moves(proposal: Proposal, board: Board, rules: Rules, words: WordCheck | None) -> bool:
    """Whether the photo's new tiles make two legal moves of two tiles or more whose words are all valid
    (photos taken at will: TEAMED and HURT on one photo, not TEAMED and two strays)."""
    if words is None or len(proposal.new_tiles) < 4:
        return False
    tiles = [_as_read(t) for t in proposal.new_tiles]
    return any(all(len(part.tiles) >= 2 for part in split) and _invalid_words(split, board, rules, words) == 0
               for split in split_moves(tiles, board, rules, 2, words))


def _play_without_strays(game: Game, single: tuple[Placement, list[Square]], proposal: Proposal, board: Board,
                         rules: Rules, words: WordCheck | None, turn: Turn, why: str) -> tuple[Placement, int] | None:
    """Play the move a photo makes once its strays are left out (:func:`_without_strays`), its letters
    settled by the dictionary and its blanks named as any move's; (the placement, its player) when played."""
    placement, dropped = single
    placement = _with_blanks(_prefer_words(placement, {t.square: t for t in proposal.new_tiles}, board, rules,
                                           words, turn), board, rules, words, turn)
    event = _play(game, placement, turn)
    if event is None:
        return None
    turn.text = f"{placement.notation(board)} {event.score:+d}"
    turn.notes.append(f"a stray on {', '.join(sq.name for sq in dropped)}{why}")
    return placement, event.player


def _stalled(waiting: list[Turn]) -> bool:
    """Whether the photos waiting for a later one to show their moves include one whose new tiles already
    made no legal moves (not only covered ones), or are as many as one photo may be split into."""
    return len(waiting) + 1 >= MAX_MOVES_PER_PHOTO or any(
        t.proposal.kind is ProposalKind.CONFLICT for t in waiting)


def _as_one_move(proposal: Proposal, board: Board) -> Placement | None:
    """Every new tile of a photo as one placement (as read; a tile without a letter a blank); None without any."""
    if proposal.placement is not None:
        return proposal.placement
    try:
        return Placement.from_tiles([_as_read(t) for t in proposal.new_tiles], board)
    except EngineError:
        return None


def _without_strays(proposal: Proposal, board: Board,
                          rules: Rules) -> tuple[Placement, list[Square]] | None:
    """The one legal move the photo's new tiles make once one or two stray ones are left out, and those
    squares; None when the strays are not few, or leaving them out makes no legal move either. A stray is a
    tile read without a letter, or one with no tile beside it, old or new (no legal move lays such a tile
    once the board holds tiles: a stray tile by the board or a fleck read as a letter)."""
    letterless = _strays(proposal, board)
    if not 1 <= len(letterless) <= 2 or len(letterless) == len(proposal.new_tiles):
        return None
    read = {t.square: t for t in proposal.placement.tiles} if proposal.placement is not None else {}
    tiles = [read.get(t.square) or _as_read(t) for t in proposal.new_tiles]
    for count in range(1, len(letterless) + 1):
        for dropped in combinations(letterless, count):
            placement = _legal_one([t for t in tiles if t.square not in dropped], board, rules)
            if placement is not None:
                return placement, list(dropped)
    return None


def _one_move_of(proposal: Proposal, board: Board, rules: Rules) -> tuple[Placement, list[Square]] | None:
    """The one legal move a photo that holds one turn shows, and the squares left out: its strays
    (:func:`_without_strays`), else the one way to leave out one tile (or else two) that makes the rest
    one legal move (alfapet game 100, photo 19: a stray I by a tile on the board's edge made EOJ two moves,
    and the players' turns went wrong for the rest of the game); None when that is not one way only."""
    single = _without_strays(proposal, board, rules)
    if single is not None:
        return single
    read = {t.square: t for t in proposal.placement.tiles} if proposal.placement is not None else {}
    tiles = [read.get(t.square) or _as_read(t) for t in proposal.new_tiles]
    for count in (1, 2):
        if 2 * count >= len(tiles):
            return None
        found = []
        for dropped in combinations(tiles, count):
            kept = [t for t in tiles if t not in dropped]
            placement = _legal_one(kept, board, rules)
            # Only tiles off the move's line: cutting a move's own end short would take part of it for all of it
            # (classic game 1001, photo 4: a blank read at one end of SBOVATE).
            if placement is not None and len(kept) >= 2 and not any(_on_line(t.square, kept) for t in dropped):
                found.append((placement, [t.square for t in dropped]))
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _on_line(square: Square, tiles: list[PlacedTile]) -> bool:
    """Whether ``square`` lies in the row or column that all of ``tiles`` (two or more) share."""
    rows, cols = {t.square.row for t in tiles}, {t.square.col for t in tiles}
    return (len(rows) == 1 and square.row in rows) or (len(cols) == 1 and square.col in cols)


def _strays(proposal: Proposal, board: Board) -> list[Square]:
    """The photo's new tiles read without a letter, or (once the board holds tiles) with no tile beside
    them, old or new: no legal move lays such a tile (a stray tile by the board, a fleck read as a letter)."""
    new = {t.square for t in proposal.new_tiles}
    held = {sq for sq, cell in board if not cell.is_stop}
    return [t.square for t in proposal.new_tiles
            if t.guess is None or held and not (new | held).intersection(t.square.neighbours())]


def _as_read(tile: TileReading) -> PlacedTile:
    """The tile as its best reading names it; a tile with no letter read is a blank ("?")."""
    return PlacedTile(tile.square, "?" if tile.guess is None else tile.guess.letter, blank=tile.guess is None)


def _line_cuts(tiles: list[PlacedTile], board: Board, rules: Rules, words: WordCheck | None) -> list[list[Placement]]:
    """Two moves laid along the same line (one row or column holds every new tile): the line's tiles cut in
    two runs, either run first, each a legal move; with a dictionary the cuts with the fewest invalid words."""
    rows, cols = {t.square.row for t in tiles}, {t.square.col for t in tiles}
    if len(rows) > 1 and len(cols) > 1:
        return []
    ordered = sorted(tiles, key=lambda t: (t.square.row, t.square.col))
    found = []
    for cut in range(1, len(ordered)):
        for first, second in ((ordered[:cut], ordered[cut:]), (ordered[cut:], ordered[:cut])):
            a = _legal_one(first, board, rules)
            if a is None:
                continue
            b = _legal_one(second, board_after(board, a), rules)
            if b is not None:
                found.append([a, b])
    if words is None or len(found) < 2:
        return found
    invalid = [_invalid_words(split, board, rules, words) for split in found]
    return [split for split, n in zip(found, invalid, strict=True) if n == min(invalid)]


@dataclass(frozen=True)
class Glimpse:
    """What a covered photo still showed: squares seen holding a tile, squares seen empty (not hidden)."""

    tiles: frozenset
    empty: frozenset


def _glimpse(reading: BoardReading | None, board: Board) -> Glimpse | None:
    """What an unreadable photo showed outside its hidden cells; None when it shows nothing trustworthy
    (no board, or the tiles already played are not where they lie: the grid was found off)."""
    if reading is None or reading.occupancy is None:
        return None
    hidden = set(reading.hidden)
    tiles = reading.occupied() - hidden
    n = reading.occupancy.state.shape[0]
    empty = {Square(r, c) for r in range(n) for c in range(n)} - tiles - hidden
    played = {sq for sq, cell in board if not cell.is_stop} - hidden
    if played and len(played & tiles) < 0.9 * len(played):
        return None
    return Glimpse(frozenset(tiles), frozenset(empty))


def _assignments(moves: int, photos: int) -> list[tuple[int, ...]]:
    """The photos (indices, in order) that can own ``moves`` consecutive moves, the latest first; more
    moves than photos: the last photo owns the extra ones."""
    if moves >= photos:
        return [(*range(photos - 1), *[photos - 1] * (moves - photos + 1))]
    return sorted(combinations(range(photos), moves), key=lambda c: [-i for i in reversed(c)])


def _contradictions(parts: list[Placement], photos: list[Glimpse | None], owners: tuple[int, ...]) -> int:
    """Squares where a covered photo contradicts the moves credited to it and the photos before it."""
    new = set().union(*({t.square for t in p.letter_tiles} for p in parts))
    bad = 0
    for at, glimpse in enumerate(photos):
        if glimpse is None:
            continue
        shown = set().union(*({t.square for t in p.letter_tiles} for p, o in zip(parts, owners, strict=True)
                              if o <= at))
        bad += len(shown & glimpse.empty) + len((new - shown) & glimpse.tiles)
    return bad


def _owners(parts: list[Placement], seen: list[Glimpse | None], photos: int) -> tuple[int, ...]:
    """The photos (indices into the covered ones and this one) that own ``parts``: the assignment the
    covered photos contradict least, the latest photos when that cannot tell."""
    glimpses = [*seen, None]
    return min(_assignments(len(parts), photos), key=lambda c: _contradictions(parts, glimpses, c))


def _squares(placement: Placement) -> str:
    return "+".join(t.square.name for t in placement.letter_tiles)


def _prefer_words(placement: Placement, readings: dict[Square, TileReading], board: Board, rules: Rules,
                  words: WordCheck | None, turn: Turn) -> Placement:
    """The placement with up to :data:`_MAX_SWAPS` letters swapped for close second readings
    (:data:`WORD_SWAP_GAP`), or for the marked form of a letter read (:func:`_marked_forms`), when the letters
    read make an invalid word and the swapped ones make fewer invalid words (within the tile counts); of those
    the swap leaving the fewest, then of the fewest letters, then the cheapest, noted. Unchanged without a
    dictionary.

    Fewer, not none: a word list lacks some of a game's words (an inflection, a cross-word through an earlier
    tile), and a letter that still leaves such a word invalid must not block the swap that mends the rest."""
    if words is None:
        return placement
    invalid = _count_invalid(placement, board, rules, words)
    if not invalid:
        return placement
    options: list[tuple[int, str, float]] = []  # (tile index, other letter, similarity given up)
    tiles = list(placement.tiles)
    for i, t in enumerate(tiles):
        reading = readings.get(t.square)
        if t.blank or reading is None or reading.guess is None or not t.letter.isalpha():
            continue
        similarity = dict(reading.guess.top)
        best = reading.guess.top[0][1]
        read = similarity.get(t.letter, best)
        close = [letter for letter, sim in reading.guess.top if letter.isalpha() and best - sim <= WORD_SWAP_GAP]
        options += [(i, letter, max(0.0, read - similarity[letter])) for letter in close if letter != t.letter]
        # A letter's marks (umlaut dots, a ring) are its smallest strokes, the first lost when a tile is seen
        # small or from low: its marked form is an option whenever the reader ranked it among its candidates.
        marked = {m for letter in {t.letter, *close} for m in _marked_forms(letter, rules)}
        options += [(i, m, max(0.0, read - similarity[m])) for m in sorted(marked)
                    if m != t.letter and m in similarity and all(o[:2] != (i, m) for o in options)]
    on_board = _letters_on(board)
    found: list[tuple[int, int, float, Placement]] = []  # (invalid words, letters swapped, cost, placement)
    for count in range(1, _MAX_SWAPS + 1):
        for swaps in combinations(options, count):
            if len({i for i, _, _ in swaps}) < count:
                continue
            changed = list(tiles)
            for i, letter, _ in swaps:
                t = changed[i]
                changed[i] = PlacedTile(t.square, letter, blank=False, kind=t.kind, arrow=t.arrow)
            used = on_board + Counter(t.letter for t in changed if not t.blank and t.letter.isalpha())
            # The tile's own best reading may exceed the set's count: the counts had talked it away, but the
            # copy already on the board is the likelier misreading (MAWS read MABS after an earlier W).
            own = {letter for i, letter, _ in swaps if letter == _best_letter(readings.get(tiles[i].square))}
            if any(n > rules.tileset.count(letter) for letter, n in used.items() if letter not in own):
                continue
            try:
                candidate = Placement.from_tiles(changed, board, direction=placement.direction)
            except EngineError:
                continue
            left = _count_invalid(candidate, board, rules, words)
            if left < invalid and (left == 0 or _touched_words_valid(candidate, {tiles[i].square for i, _, _ in swaps},
                                                                      board, rules, words)):
                found.append((left, count, sum(cost for _, _, cost in swaps), candidate))
        if any(left == 0 for left, *_ in found):
            break  # every word valid with this many swaps: more swaps are not looked at
    if not found:
        return placement
    left, _, _, chosen = min(found, key=lambda x: x[:3])
    was = {t.square: t.letter for t in placement.tiles}
    shown = ", ".join(f"{t.square.name} {was[t.square]}->{t.letter}" for t in chosen.tiles
                      if t.letter != was[t.square])
    alike = sum(1 for f in found if f[0] == left) - 1
    more = f"; {alike} other swaps also do" if alike else ""
    how = "these do" if left == 0 else f"these leave {left} of {invalid} invalid words"
    turn.notes.append(f"read {shown}: the letters first read make no word, {how}{more}")
    return chosen


def _touched_words_valid(placement: Placement, squares: set[Square], board: Board, rules: Rules,
                         words: WordCheck) -> bool:
    """Whether every word through ``squares`` is a word: a swap that leaves other words invalid must have made
    the words it changed valid, not traded one invalid word for another (O read Q made a cross-word QI valid
    while the main word, missing from the list, stayed invalid either way)."""
    try:
        formed = score_placement(board, placement, rules).words
    except EngineError:
        return False
    return all(words(w.word) for w in formed if squares & set(w.squares) and "?" not in w.word)


def _marked_forms(letter: str, rules: Rules) -> list[str]:
    """The set's letters that are ``letter`` with a mark added (A: Ä, Å, ...; none for a letter with marks).

    >>> _marked_forms("A", Rules.scrabble("sv")), _marked_forms("O", Rules.scrabble("en"))
    (['Å', 'Ä'], [])
    """
    if len(letter) != 1:
        return []
    return [other for other in rules.tileset.alphabet
            if other != letter and len(other) == 1 and unicodedata.normalize("NFD", other)[0] == letter]


def _best_letter(reading: TileReading | None) -> str | None:
    return reading.guess.letter if reading is not None and reading.guess is not None else None


def _count_invalid(placement: Placement, board: Board, rules: Rules, words: WordCheck) -> int:
    """How many words of the placement the dictionary does not know (0 when it cannot be scored)."""
    try:
        return _invalid_words([placement], board, rules, words)
    except EngineError:
        return 0


def _with_blanks(placement: Placement, board: Board, rules: Rules, words: WordCheck | None,
                 turn: Turn) -> Placement:
    """The placement with each blank named when the dictionary allows exactly one letter."""
    blanks = [t for t in placement.letter_tiles if t.blank and t.letter == "?"]
    if not blanks:
        return placement
    where = ", ".join(t.square.name for t in blanks)
    if words is None:
        turn.notes.append(f"blank on {where}: letter unknown (no dictionary)")
        return placement
    options = name_blanks(placement, board, rules, words)
    if len(options) != 1:
        shown = ", ".join("".join(o[t.square] for t in blanks) for o in options[:8])
        more = " ..." if len(options) > 8 else ""
        why = f"{len(options)} letters fit ({shown}{more})" if options else "no letter makes every word valid"
        turn.notes.append(f"blank on {where}: {why}; left unknown")
        return placement
    named = options[0]
    letters = "".join(named[t.square] for t in blanks)
    turn.notes.append(f"blank on {where}: {letters} (the only letter the dictionary allows)")
    tiles = [PlacedTile(t.square, named.get(t.square, t.letter), blank=True, kind=t.kind, arrow=t.arrow) if t.blank
             else t for t in placement.tiles]
    return Placement.from_tiles(tiles, board, direction=placement.direction)


# -- comparison with a record (after the reading, never during it) ------------------------------------------
def compare_with_record(result: ReplayResult, record: GcgRecord, rules: Rules, *, orientation: bool | None = None,
                        racks_from_record: bool = False) -> None:
    """Fill each turn's ``expected``/``match`` from the record (``image-N`` is the board after move N)."""
    declared = orientation if orientation is not None else (
        record.lettered_rows if "orientation" in record.pragmas else None)
    truths: dict[bool, dict[int, tuple]] = {}
    errors: dict[bool, list[str]] = {}
    for lettered in ((declared,) if declared is not None else (False, True)):
        rp = replay_record(record, rules=rules, lettered_rows=lettered)
        errors[lettered] = [str(m) for m in rp.mismatches]
        ref = Game(rules, list(result.game.players))
        truths[lettered] = {}
        for number, event in enumerate(rp.game.events, start=1):
            truths[lettered][number] = (event, ref.board.copy())
            ref.play(event.move, player=event.player, check=False)
    if declared is not None:
        chosen = declared
        result.orientation = "lettered-rows" if declared else "standard"
    else:
        agree = {lettered: sum(_compare(truth, image_number(t.photo), t)[1] for t in result.turns)
                 for lettered, truth in truths.items()}
        chosen = agree[True] > agree[False]
        result.orientation = ("lettered-rows" if chosen else "standard") + " (from the photos)"
    truth = truths[chosen]
    result.record_errors = errors[chosen]
    for turn in result.turns:
        photo_number = image_number(turn.photo)
        if photo_number is not None and photo_number in truth:
            turn.expected, turn.match = _compare(truth, photo_number, turn)
    if racks_from_record:
        last_photo = max((n for n in (image_number(t.photo) for t in result.turns) if n is not None), default=0)
        game = result.game
        for number in sorted(n for n in truth if n > last_photo):
            event = truth[number][0]
            if isinstance(event.move, (RackPoints, TimePenalty)):
                player = event.player if event.player < len(game.players) else game.to_move
                added = game.play(event.move, player=player, check=False)
                result.record_tail.append(f"{game.players[player]}: {added.score:+d} ({type(event.move).__name__})")


def _tiles_key(placement: Placement, unknown: set) -> set[tuple]:
    """Squares, letters and blanks; a blank in ``unknown`` (left unnamed by the reading) matches any letter."""
    return {(t.square, "?" if t.blank and t.square in unknown else t.letter, t.blank) for t in placement.letter_tiles}


def _compare(truth: dict[int, tuple], number: int | None, turn: Turn) -> tuple[str | None, bool]:
    """(the record's moves for this photo as text, whether the photo's reading agrees with them).

    ``image-N`` shows the board after move N; a photo that carried several moves (the photos before it
    were unreadable or missing) is compared with as many moves of the record, ending at N.
    """
    if number is None or number not in truth:
        return None, False
    events = turn.events
    if not events:
        event, before = truth[number]
        return _move_text(event, before), False
    first = number - len(events) + 1
    texts, agree = [], True
    for offset, got in enumerate(events):
        expected = truth.get(first + offset)
        if expected is None:
            return None, False
        texts.append(_move_text(*expected))
        agree = agree and _same_move(expected[0], got)
    return " + ".join(texts), agree


def _move_text(event: GameEvent, before: Board) -> str:
    move = event.move
    if isinstance(move, Placement):
        return f"{move.notation(before)} {event.score:+d}"
    if isinstance(move, Exchange) or move.__class__.__name__ == "Pass":
        return "exchange or pass"
    return move.__class__.__name__.lower()


def _same_move(expected: GameEvent, got: GameEvent) -> bool:
    """Squares, letters, blanks and score; a blank the reading left unnamed matches any letter."""
    move, seen = expected.move, got.move
    if isinstance(move, Placement):
        if not isinstance(seen, Placement):
            return False
        unknown = {t.square for t in seen.letter_tiles if t.blank and t.letter == "?"}
        return _tiles_key(move, unknown) == _tiles_key(seen, unknown) and got.score == expected.score
    if isinstance(move, Exchange) or move.__class__.__name__ == "Pass":
        return isinstance(seen, Exchange) or seen.__class__.__name__ == "Pass"
    return type(move) is type(seen)


def blank_summary(result: ReplayResult) -> tuple[int, int]:
    """(blanks whose letter the photos and the dictionary named, blanks left unknown)."""
    named = unknown = 0
    for turn in result.turns:
        for event in turn.events:
            if isinstance(event.move, Placement):
                for t in event.move.letter_tiles:
                    if t.blank:
                        unknown += t.letter == "?"
                        named += t.letter != "?"
    return named, unknown


def full_frame_ms(reader: BoardReader, turns: list[Turn]) -> list[float]:
    """Processor milliseconds to read each turn's photo from scratch (locate, occupancy, every tile), with
    the reader's letter model but no cached board location."""
    fresh = BoardReader(reader.profile, reader.tileset, classifier=reader.classifier)
    times = []
    for turn in turns:
        try:
            frame = load_frame(turn.photo)
        except ImageReadError:
            continue  # an unreadable photo has no reading to time
        fresh.locator.geometry = None
        t0 = time.process_time()
        fresh.read(frame)
        times.append((time.process_time() - t0) * 1000)
    return times


def load_record(path: Path) -> GcgRecord:
    return parse_gcg(Path(path).read_bytes(), str(path))


def record_boards(record: GcgRecord, rules: Rules, *, lettered_rows: bool = True) -> list[Board]:
    """The board after each line of a record, by the engine's replay (for comparing photos against it; the
    ScrabScrap records use lettered rows). Nothing read from a photo comes from here."""
    live = Game(rules, ["a", "b"])
    boards = []
    for event in replay_record(record, rules=rules, lettered_rows=lettered_rows).game.events:
        live.play(event.move, player=event.player, check=False)
        boards.append(live.board.copy())
    return boards

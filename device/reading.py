# SPDX-License-Identifier: GPL-3.0-or-later
"""The flow's move reader on top of the vision facade (vision.reader.BoardReader + vision.diff.propose).

Kept apart from the flow so the flow can be tested with a fake reader and the vision package is
imported only when a camera is in use.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from device.flow import Reading, ReadKind, ReadTile
from device.learned_tiles import LearnedGlyph, LearnedTiles
from engine.game import Game
from engine.moves import Placement

log = logging.getLogger(__name__)


class VisionReader:
    """Reads a frame against the game's board; ``confident`` when nothing needs the player."""

    def __init__(self, profile: str, tileset, *, learned: Path | None = None) -> None:
        """``learned``: where the players' own tiles are kept between games (loaded now, saved after
        every confirmed move); None keeps them for this session only."""
        from vision.profile import load_profile
        from vision.reader import BoardReader
        from vision.stability import StillFrameGate

        self.reader = BoardReader(load_profile(profile), tileset)
        self.gate = StillFrameGate(self.reader.profile, locator=self.reader.locator)
        self.learned = learned
        self.problem = ""
        #: Each square's latest letter reading: how surely a copy on the board was read (vision.diff.copy_bars).
        self._guesses: dict[Any, Any] = {}
        self._store: LearnedTiles | None = None
        if learned is not None:
            from vision.errors import VisionError

            self._store = LearnedTiles(learned)
            glyphs, messages = self._store.load()
            try:
                self.reader.classifier.learn([g.glyph() for g in glyphs], [g.label for g in glyphs])
            except VisionError as exc:  # a damaged file costs the learning, never the game
                messages.append(f"learned tiles not loaded: {exc}")
            for message in messages:
                log.warning("%s", message)
            self.problem = "; ".join(messages)

    def still_frame(self, camera: Any, timeout_s: float = 2.0, *, clock=time.monotonic) -> Any | None:
        """A frame of a still board: frames are taken until the gate sees the board unchanged over
        several of them (a hand, an arm or a moving shadow keeps it waiting). None after ``timeout_s``,
        but never before the gate has seen enough frames to call a board still: a slow or busy machine
        must not turn a still board into "not still"."""
        deadline = clock() + timeout_s
        self.gate.reset()
        taken = 0
        while True:
            frame = camera.best_still(min(0.5, timeout_s))
            taken += 1
            if self.gate.feed(frame) is not None:
                return frame
            if clock() >= deadline and taken > self.gate.frames:
                return None

    def read(self, frame: Any, game: Game) -> Reading:
        from vision.diff import DiffProblem, ProposalKind, copy_bars, propose

        last = next((e.move for e in reversed(game.events) if isinstance(e.move, Placement)), None)
        reading = self.reader.read(frame, cells=[])
        if game.board.is_empty():
            self._guesses.clear()  # a new game: the last one's readings say nothing of its squares
        # A letter the player corrected differs from its reading, so it counts as sure.
        proposal = propose(reading, game.board, game.rules, last_placement=last, reader=self.reader, frame=frame,
                           bars=copy_bars(game.board, self._guesses, game.rules))
        self._guesses.update((t.square, t.guess) for t in proposal.new_tiles if t.guess is not None)
        messages = proposal.messages
        if proposal.kind is ProposalKind.UNCHANGED:
            return Reading(ReadKind.UNCHANGED, messages=messages, confident=True, token=proposal)
        withdrawal = (proposal.kind is ProposalKind.REMOVED and bool(proposal.removed)
                      and not proposal.problems & (DiffProblem.NOT_A_WITHDRAWAL | DiffProblem.COVERED))
        if withdrawal and proposal.placement is None:
            # Only the last play's tiles came off (a phony taken back): propose its withdrawal.
            return Reading(ReadKind.WITHDRAWAL, messages=messages, removed=proposal.removed, token=proposal)
        if proposal.placement is None or (proposal.removed and not withdrawal):
            # Conflicts and tiles removed that are not the last play are sorted out by hand.
            return Reading(ReadKind.UNUSABLE, messages=messages or (proposal.kind.value,), token=proposal)
        guesses = {t.square: t.guess for t in proposal.new_tiles}
        tiles = []
        for tile in proposal.placement.letter_tiles:
            guess = guesses.get(tile.square)
            candidates: tuple[tuple[str, float], ...] = ()
            if tile.square in proposal.candidates and guess is not None:
                candidates = tuple((letter, float(score)) for letter, score in guess.top[:3])
            tiles.append(ReadTile(tile.square, "?" if tile.blank else tile.letter, tile.blank, candidates))
        if withdrawal:
            # The phony came off and the next player placed a word: propose both, the player confirms.
            return Reading(ReadKind.WITHDRAWAL, tuple(tiles), messages, False, removed=proposal.removed,
                           token=proposal)
        confident = proposal.problems == DiffProblem.NONE
        return Reading(ReadKind.PLACEMENT, tuple(tiles), messages, confident, token=proposal)

    def learn(self, reading: Reading, placement: Placement) -> None:
        """Teach the letter reader the confirmed letters of the tiles it read."""
        proposal = reading.token
        if proposal is None:
            return
        letters = {t.square: t.letter for t in placement.letter_tiles if not t.blank}
        read = [t for t in proposal.new_tiles if not t.is_blank and t.square in letters]
        if read:
            labels = [letters[t.square] for t in read]
            self.reader.learn(read, labels)
            if self._store is not None:
                try:  # one record appended per move (device.learned_tiles), never the whole file rewritten
                    self._store.append(LearnedGlyph.of(label, t.glyph) for t, label in zip(read, labels, strict=True)
                                       if not t.glyph.is_blank)
                except OSError as exc:  # a full or read-only disk costs the learning, never the game
                    self.problem = f"learned tiles not saved: {exc.strerror or exc}"
                    log.warning("%s (%s)", self.problem, self.learned)

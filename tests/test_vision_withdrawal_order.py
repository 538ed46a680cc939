# SPDX-License-Identifier: GPL-3.0-or-later
"""A phony withdrawn while the photo after it was covered: the next clear photo shows the withdrawal and
the next move at once. They are two turns, so the covered photo owns the withdrawal and the clear one the
move (crediting both to the clear one put every later turn one photo late for the player order)."""

from pathlib import Path

import cv2
import pytest

from engine.moves import Placement, Withdraw
from engine.rules import Rules
from vision.profile import load_profile
from vision.reader import BoardReader
from vision.replay import read_photos
from vision.synthetic import synthetic_game

GCG = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "woogles"
pytestmark = pytest.mark.skipif(not GCG.is_dir(), reason=f"needs the woogles records in {GCG}")


def test_a_withdrawal_seen_with_the_next_move_after_a_covered_photo_is_the_covered_photos_turn(tmp_path):
    """Classic development game 301: the phony of photo 18 is withdrawn on photo 19, which a hand covers;
    photo 20 shows the board without the phony and LEG laid."""
    game = synthetic_game(301, style="classic", moves=20)
    assert game.frames[18].truth.hand
    for i, frame in enumerate(game.frames, start=1):
        cv2.imwrite(str(tmp_path / f"image-{i}.png"), frame.image)
    rules = game.rules
    assert isinstance(rules, Rules)
    reader = BoardReader(load_profile("classic-scrabble"), rules.tileset)
    result = read_photos(tmp_path, reader, rules)
    covered, clear = result.turns[18], result.turns[19]
    assert covered.proposal.kind.value == "covered"
    assert [type(e.move) for e in covered.events] == [Withdraw]
    assert [type(e.move) for e in clear.events] == [Placement]
    assert sorted(t.letter for t in clear.events[0].move.letter_tiles) == sorted("LEG")  # type: ignore[union-attr]
    assert covered.events[0].player != clear.events[0].player

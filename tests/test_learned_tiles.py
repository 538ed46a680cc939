# SPDX-License-Identifier: GPL-3.0-or-later
"""The learned-tiles file: appended per move (never rewritten per move), a write cut short by a pulled
plug drops only the damaged tail (with a message), bounded size with compaction, the earlier .npz
format converted, a foreign file set aside."""

from __future__ import annotations

import errno
import random
from pathlib import Path

import numpy as np
import pytest

from device.learned_tiles import COMPACT_FACTOR, COMPACT_SLACK, HEADER, LearnedGlyph, LearnedTiles
from vision.classifier import MAX_LEARNED_PER_LETTER, LetterClassifier
from vision.glyphs import GLYPH_PX, Glyph

LETTERS = "AEIOUNRSTLÄÖ"


def glyph(rnd: random.Random, label: str) -> LearnedGlyph:
    ink = np.frombuffer(rnd.randbytes(GLYPH_PX * GLYPH_PX), np.uint8)
    return LearnedGlyph(label, rnd.randint(0, 1), ink.tobytes())


def moves(count: int, seed: int = 1) -> list[list[LearnedGlyph]]:
    rnd = random.Random(seed)
    return [[glyph(rnd, rnd.choice(LETTERS)) for _ in range(rnd.randint(1, 7))] for _ in range(count)]


def newest_per_letter(played: list[list[LearnedGlyph]]) -> dict[str, list[LearnedGlyph]]:
    out: dict[str, list[LearnedGlyph]] = {}
    for move in played:
        for g in move:
            out.setdefault(g.label, []).append(g)
    return {label: glyphs[-MAX_LEARNED_PER_LETTER:] for label, glyphs in out.items()}


def by_letter(glyphs: list[LearnedGlyph]) -> dict[str, list[LearnedGlyph]]:
    out: dict[str, list[LearnedGlyph]] = {}
    for g in glyphs:
        out.setdefault(g.label, []).append(g)
    return out


def test_each_move_is_appended_and_the_earlier_bytes_are_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "scrabble-sv.tiles"
    store = LearnedTiles(path)
    assert store.load() == ([], [])
    played = moves(8)
    before = b""
    for move in played:
        store.append(move)
        now = path.read_bytes()
        assert now.startswith(before) and len(now) > len(before)  # appended, not rewritten
        before = now
    glyphs, messages = LearnedTiles(path).load()
    assert messages == [] and by_letter(glyphs) == newest_per_letter(played)


def saved_but_the_last(path: Path, played: list[list[LearnedGlyph]]) -> tuple[int, bytes]:
    """Append every move to a new file: (its size before the last move, its bytes after)."""
    store = LearnedTiles(path, sync=False)
    store.load()
    for move in played[:-1]:
        store.append(move)
    before = len(path.read_bytes())
    store.append(played[-1])
    return before, path.read_bytes()


def test_a_write_cut_short_at_any_byte_loses_only_that_move(tmp_path: Path) -> None:
    """A pulled plug during the append of move 6: 64 cut points of its record, both ends included."""
    path = tmp_path / "learned.tiles"
    played = moves(6, seed=2)
    whole, full = saved_but_the_last(path, played)
    every = range(whole + 1, len(full))
    assert len(every) > 100
    cuts = sorted({*every[:12], *every[-12:], *random.Random(9).sample(every, 40)})  # both ends and between
    for cut in cuts:
        path.write_bytes(full[:cut])
        glyphs, messages = LearnedTiles(path, sync=False).load()
        assert by_letter(glyphs) == newest_per_letter(played[:5]), cut
        assert len(messages) == 1 and f"damaged last {cut - whole} bytes" in messages[0]
        assert path.read_bytes() != full[:cut]  # rewritten from the whole records
        again, quiet = LearnedTiles(path, sync=False).load()
        assert quiet == [] and by_letter(again) == by_letter(glyphs)


def test_a_flipped_bit_in_the_last_record_drops_it_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "learned.tiles"
    played = moves(5, seed=3)
    good, full = saved_but_the_last(path, played)
    rnd = random.Random(4)
    for _ in range(40):
        damaged = bytearray(full)
        damaged[rnd.randrange(good, len(full))] ^= 1 << rnd.randrange(8)
        path.write_bytes(damaged)
        store = LearnedTiles(path, sync=False)
        glyphs, messages = store.load()
        assert by_letter(glyphs) == newest_per_letter(played[:4]) and "dropped" in messages[0]
        store.append(played[4])  # learning goes on after the repair
        assert by_letter(LearnedTiles(path).load()[0]) == newest_per_letter(played)


def test_the_file_stays_bounded_over_thousands_of_moves(tmp_path: Path) -> None:
    path = tmp_path / "learned.tiles"
    store = LearnedTiles(path, sync=False)
    store.load()
    played = moves(3000, seed=5)
    sizes = []
    for move in played:
        store.append(move)
        sizes.append(path.stat().st_size)
    glyph_bytes = GLYPH_PX * GLYPH_PX + 3  # random ink does not compress: the worst case
    kept = len(LETTERS) * MAX_LEARNED_PER_LETTER
    assert max(sizes) <= len(HEADER) + (COMPACT_FACTOR * kept + COMPACT_SLACK + 7) * (glyph_bytes + 8)
    assert min(sizes[100:]) >= len(HEADER) + kept * glyph_bytes  # compacted to what is kept, no less
    glyphs, messages = LearnedTiles(path).load()
    assert messages == [] and by_letter(glyphs) == newest_per_letter(played)


def test_the_earlier_npz_file_is_converted_once(tmp_path: Path) -> None:
    classifier = LetterClassifier(list("ABCÅÄÖ"), font_model=None)
    rnd = np.random.default_rng(6)
    images = [rnd.random((GLYPH_PX, GLYPH_PX)).astype(np.float32) for _ in range(30)]
    labels = [rnd.choice(list("ABCÅÄÖ")) for _ in range(30)]
    classifier.learn([Glyph(im, 1.0, 0.5, int(i % 2)) for i, im in enumerate(images)], labels)
    legacy = tmp_path / "scrabble-sv.npz"
    classifier.save_learned(legacy)
    store = LearnedTiles(tmp_path / "scrabble-sv.tiles")
    glyphs, messages = store.load()
    assert "converted from the earlier format" in messages[0] and not legacy.exists()
    assert len(glyphs) == classifier.learned_count
    expected = {(str(label), int(i % 2)) for i, label in enumerate(labels)}
    assert {(g.label, g.marks) for g in glyphs} <= expected
    assert LearnedTiles(tmp_path / "scrabble-sv.tiles").load() == (glyphs, [])


def test_a_file_that_is_not_learned_tiles_is_set_aside_and_learning_starts_anew(tmp_path: Path) -> None:
    path = tmp_path / "learned.tiles"
    path.write_bytes(b"not a learned-tiles file at all")
    store = LearnedTiles(path)
    glyphs, messages = store.load()
    assert glyphs == [] and "learned tiles not loaded" in messages[0] and "kept as" in messages[0]
    assert [p.read_bytes() for p in tmp_path.glob("learned.tiles.damaged-*")] == [b"not a learned-tiles file at all"]
    played = moves(2, seed=7)
    for move in played:
        store.append(move)
    assert by_letter(LearnedTiles(path).load()[0]) == newest_per_letter(played)


def test_a_full_disk_while_appending_is_an_oserror_for_the_caller_and_nothing_half_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "learned.tiles"
    store = LearnedTiles(path)
    store.load()
    played = moves(3, seed=8)
    store.append(played[0])
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("device.learned_tiles.open", full, raising=False)
    with pytest.raises(OSError, match="No space"):
        store.append(played[1])
    monkeypatch.undo()
    assert path.read_bytes() == before
    store.append(played[2])
    # The move that could not be saved is kept in memory and written with the next one.
    assert by_letter(LearnedTiles(path).load()[0]) == newest_per_letter(played)

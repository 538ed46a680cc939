# SPDX-License-Identifier: GPL-3.0-or-later
"""Learned tiles stay bounded however many games are played (issue 17)."""

from __future__ import annotations

import numpy as np

from vision.classifier import MAX_LEARNED_PER_LETTER, LetterClassifier
from vision.glyphs import GLYPH_PX, Glyph


def glyph(seed: int) -> Glyph:
    image = np.random.default_rng(seed).random((GLYPH_PX, GLYPH_PX)).astype(np.float32)
    return Glyph(image, 1.0, 0.5, 0)


def test_learned_tiles_are_capped_per_letter_newest_kept_and_the_file_bounded(tmp_path):
    classifier = LetterClassifier("ABC", font_model=None)
    for game in range(40):  # 40 games of confirmed A and B tiles
        classifier.learn([glyph(2 * game), glyph(2 * game + 1)], ["A", "B"])
    assert classifier.learned_count == 2 * MAX_LEARNED_PER_LETTER
    assert classifier.template_count == 2 * MAX_LEARNED_PER_LETTER
    newest = glyph(2 * 39)
    assert classifier.classify(newest).letter == "A"
    assert classifier.scores(newest)["A"] > 0.99  # the newest A is still a template
    path = tmp_path / "learned.npz"
    classifier.save_learned(path)
    size = path.stat().st_size
    for game in range(40, 80):
        classifier.learn([glyph(2 * game)], ["A"])
    classifier.save_learned(path)
    assert path.stat().st_size < size * 1.2  # flat, not growing with the games
    again = LetterClassifier("ABC", font_model=None)
    again.load_learned(path)
    assert again.learned_count == 2 * MAX_LEARNED_PER_LETTER


def test_loading_an_old_unbounded_file_keeps_only_the_newest(tmp_path):
    path = tmp_path / "learned.npz"
    images = (np.random.default_rng(1).random((200, GLYPH_PX, GLYPH_PX)) * 255).astype(np.uint8)
    np.savez_compressed(path, labels=np.array(["A"] * 200, dtype="U2"), images=images,
                        marks=np.zeros(200, np.uint8))
    classifier = LetterClassifier("AB", font_model=None)
    classifier.load_learned(path)
    assert classifier.learned_count == MAX_LEARNED_PER_LETTER

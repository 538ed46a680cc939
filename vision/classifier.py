# SPDX-License-Identifier: GPL-3.0-or-later
"""The letter classifier: nearest neighbours on glyph features, with confidence and top-k.

Templates come from rendered fonts (``vision/data/letters-dejavu.npz``) and from confirmed moves
(:meth:`LetterClassifier.learn`); learned crops outrank rendered ones because they are the players'
own tiles. "Training" is appending feature rows, so it is instant and can run on the device during a
game. :meth:`save_learned` / :meth:`load_learned` keep the learned crops between games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import ModelError
from vision.glyphs import GLYPH_PX, Glyph, features

FONT_MODEL = Path(__file__).parent / "data" / "letters-dejavu.npz"
#: Learned (real) crops count this much more than rendered ones in the similarity.
LEARNED_BONUS = 0.03
MARKS_PENALTY = 0.25


@dataclass(frozen=True)
class LetterGuess:
    #: Best letters first, with their similarity (cosine, 0..1).
    top: tuple[tuple[str, float], ...]

    @property
    def letter(self) -> str:
        return self.top[0][0]

    @property
    def confidence(self) -> float:
        """Margin between the best and the second letter (0 = a coin toss, >0.05 = clear)."""
        if len(self.top) < 2:
            return 1.0
        return self.top[0][1] - self.top[1][1]


class LetterClassifier:
    def __init__(self, alphabet: Iterable[str], *, font_model: Path | None = FONT_MODEL) -> None:
        self.alphabet = tuple(alphabet)
        self._labels: list[str] = []
        self._feats: list[np.ndarray] = []
        self._learned_images: list[np.ndarray] = []
        self._learned_labels: list[str] = []
        self._matrix: np.ndarray | None = None
        self._bonus: np.ndarray | None = None
        self._is_learned: list[bool] = []
        self._marks: list[int] = []
        self._learned_marks: list[int] = []
        if font_model is not None:
            self._load_font(font_model)

    def _load_font(self, path: Path) -> None:
        try:
            data = np.load(path)
            labels, images, marks = data["labels"], data["images"], data["marks"]
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"cannot load the letter model {str(path)!r}: {exc}; rebuild it with "
                             "'python -m vision.fonts'") from None
        if images.shape[1:] != (GLYPH_PX, GLYPH_PX):
            raise ModelError(f"letter model {str(path)!r} has {images.shape[1:]!r} glyphs, expected "
                             f"{(GLYPH_PX, GLYPH_PX)!r}; rebuild it with 'python -m vision.fonts'")
        for label, image, mark in zip(labels, images, marks, strict=True):
            if str(label) in self.alphabet:
                self._add(str(label), image.astype(np.float32) / 255, int(mark), learned=False)

    def _add(self, label: str, image: np.ndarray, marks: int, *, learned: bool) -> None:
        self._labels.append(label)
        self._marks.append(marks)
        self._feats.append(features(image))
        self._is_learned.append(learned)
        self._matrix = None

    @property
    def learned_count(self) -> int:
        return len(self._learned_labels)

    def learn(self, glyphs: Sequence[Glyph], labels: Sequence[str]) -> None:
        """Add confirmed glyphs (from :func:`vision.glyphs.extract`) with their letters."""
        for glyph, label in zip(glyphs, labels, strict=True):
            if glyph.image is None:
                continue
            image = glyph.image
            if label not in self.alphabet:
                raise ModelError(
                    f"cannot learn letter {label!r}: not in the tile set's alphabet {''.join(self.alphabet)!r}"
                )
            self._learned_images.append(image.astype(np.float32))
            self._learned_labels.append(label)
            self._learned_marks.append(glyph.marks)
            self._add(label, image, glyph.marks, learned=True)

    def classify(self, glyph: Glyph, k: int = 3) -> LetterGuess:
        if glyph.image is None:
            raise ModelError("cannot classify a tile without a letter (a blank); check Glyph.is_blank first")
        if self._matrix is None:
            if not self._feats:
                raise ModelError("the letter classifier has no templates; load the font model or learn some tiles")
            self._matrix = np.stack(self._feats)
            self._bonus = np.where(np.array(self._is_learned), LEARNED_BONUS, 0.0).astype(np.float32)
            self._label_arr = np.array(self._labels)
            self._marks_arr = np.array(self._marks)
        sims = self._matrix @ features(glyph.image) + self._bonus
        # Marks above the letter are the one cue that separates A/Ä, O/Ö, U/Ü in any font.
        sims = sims - MARKS_PENALTY * (self._marks_arr != glyph.marks)
        best: dict[str, float] = {}
        for idx in np.argsort(-sims)[: max(60, 8 * k)]:
            label = self._label_arr[idx]
            if label not in best:
                best[label] = float(sims[idx])
        top = sorted(best.items(), key=lambda kv: -kv[1])[:k]
        return LetterGuess(tuple(top))

    def save_learned(self, path: Path) -> None:
        if not self._learned_labels:
            images = np.zeros((0, GLYPH_PX, GLYPH_PX), np.uint8)
        else:
            images = (np.stack(self._learned_images) * 255).clip(0, 255).astype(np.uint8)
        np.savez_compressed(path, labels=np.array(self._learned_labels, dtype="U2"), images=images,
                            marks=np.array(self._learned_marks, np.uint8))

    def load_learned(self, path: Path) -> None:
        try:
            data = np.load(path)
            labels, images, marks = data["labels"], data["images"], data["marks"]
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"cannot load learned tiles {str(path)!r}: {exc}") from None
        glyphs = [Glyph(im.astype(np.float32) / 255, 1.0, 0.5, int(m)) for im, m in zip(images, marks, strict=True)]
        self.learn(glyphs, [str(x) for x in labels])

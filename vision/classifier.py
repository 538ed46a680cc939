# SPDX-License-Identifier: GPL-3.0-or-later
"""The letter classifier: nearest neighbours on glyph features, with a margin-based confidence and top-k.

The shipped model (``vision/data/letters.npz``, built by ``python -m vision.fonts``) holds glyphs
rendered from several fonts and glyphs cut from real tournament photos (see ``vision/data/README.md``).
Confirmed moves add the players' own tiles (:meth:`LetterClassifier.learn`); they outrank the shipped
glyphs a little. A letter's score is its best template's cosine similarity, so "training" is appending
feature rows: instant, and it can run on the device during a game. :meth:`save_learned` /
:meth:`load_learned` keep the learned glyphs between games.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.errors import ModelError
from vision.glyphs import GLYPH_PX, Glyph, features, features_many

MODEL = Path(__file__).parent / "data" / "letters.npz"
FONT_MODEL = MODEL  # the former name; the model now holds more than fonts
#: Learned (the players' own) glyphs count this much more than shipped ones in the similarity.
LEARNED_BONUS = 0.03
#: Learned glyphs kept per letter (the newest): enough for a set's own font, and the learned-tiles file
#: and memory stay bounded however many games are played.
MAX_LEARNED_PER_LETTER = 12
#: Marks above the letter are the one cue that separates A/Ä, O/Ö, U/Ü in any font. Found marks are
#: trusted (hairlines are refused when they are cut); missing marks less so: blur can merge dots into
#: the letter, where the glyph image still shows them.
MARKS_PENALTY = 0.25
UNMARKED_PENALTY = 0.03
#: Below this margin between the best and the second letter a reading is unsure: ask the player.
#: Calibrated with leave-one-game-out on the ScrabScrap photos (see tests/test_vision_letters.py).
UNSURE_MARGIN = 0.02
#: A letter this far ahead of the next best (five times the unsure margin) is clearly read.
CLEAR_MARGIN = 5 * UNSURE_MARGIN
#: Source codes in the model file.
RENDERED, PHOTO = 0, 1
#: What an Alfapet arrow tile reads as (engine.tiles.ARROW, the mark of a letter lying on an arrow).
ARROW = "^"
#: An arrow tile's print must look this much more like an arrow (in any quarter turn) than like any letter
#: (the unsure margin: a turned arrow is close to an L).
ARROW_MARGIN = UNSURE_MARGIN


def _arrow_templates() -> np.ndarray:
    """(4, features): an arrow tile's print (:func:`vision.glyphs.draw_arrow`) as
    :func:`vision.glyphs.ink_shape` cuts it out of a tile crop, in its four quarter turns."""
    from vision.glyphs import CROP_PAD, draw_arrow, ink_shape

    cell = 40
    pad = int(round(CROP_PAD * cell))
    crop = np.full((cell + 2 * pad, cell + 2 * pad), 90, np.uint8)  # the board around the tile
    tile = np.full((cell - 4, cell - 4), 235, np.uint8)
    draw_arrow(tile, 20)
    crop[pad + 2 : pad + cell - 2, pad + 2 : pad + cell - 2] = tile
    shape = ink_shape(crop, cell)
    assert shape is not None, "the arrow template lost its print"
    return np.stack([features(np.ascontiguousarray(np.rot90(shape, k))) for k in range(4)])


@dataclass(frozen=True)
class _Templates:
    """Template features grouped by letter: ``matrix`` (features, templates); ``starts`` where each letter's
    columns begin, ``present`` its index in the alphabet."""

    matrix: np.ndarray
    bonus: np.ndarray
    marks: np.ndarray
    starts: np.ndarray
    present: np.ndarray


@dataclass(frozen=True)
class LetterGuess:
    #: Best letters first, with their similarity (cosine of the best template, about 0..1).
    top: tuple[tuple[str, float], ...]

    @property
    def letter(self) -> str:
        return self.top[0][0]

    @property
    def confidence(self) -> float:
        """Margin between the best and the second letter (0 = a coin toss; see :data:`UNSURE_MARGIN`)."""
        if len(self.top) < 2:
            return 1.0
        return self.top[0][1] - self.top[1][1]

    @property
    def sure(self) -> bool:
        return self.confidence >= UNSURE_MARGIN


class LetterClassifier:
    def __init__(self, alphabet: Iterable[str], *, font_model: Path | None = MODEL,
                 exclude: Iterable[str] = (), render_missing: bool = True, arrows: bool = False) -> None:
        """``exclude``: source prefixes of the model's glyphs to leave out (``"photo:game02"``, ``"photo:"``);
        ``render_missing``: render the alphabet's letters the model lacks from the installed fonts;
        ``arrows``: the tile set has Alfapet arrow tiles, read as :data:`ARROW`."""
        self.alphabet = tuple(alphabet)
        self._index = {letter: i for i, letter in enumerate(self.alphabet)}
        bases: dict[str, list[str]] = {}
        for letter in self.alphabet:
            bases.setdefault(unicodedata.normalize("NFD", letter)[0], []).append(letter)
        self._twins = {letter: tuple(x for x in group if x != letter) for group in bases.values() for letter in group}
        self._feats: list[np.ndarray] = []
        self._classes: list[int] = []
        self._bonus: list[float] = []
        self._marks: list[int] = []
        self._learned_images: list[np.ndarray] = []
        self._learned_labels: list[str] = []
        self._learned_marks: list[int] = []
        self._packed: tuple[_Templates | None, _Templates | None] | None = None
        #: The learned templates as matrices, a fixed block of MAX_LEARNED_PER_LETTER columns per letter (a
        #: ring, the newest over the oldest; an empty column scores -inf), written in place by learn(): the
        #: matrices are never rebuilt during a game.
        self._learned: _Templates | None = None
        self._learned_written = np.zeros(len(self.alphabet), np.int64)
        self._arrows = _arrow_templates() if arrows else None
        self._packed_base: _Templates | None = None
        self._model_grouped: tuple[int, int, _Templates | None] | None = None  # (first, end, templates)
        if font_model is not None:
            self._load_model(font_model, tuple(exclude))
            if render_missing:
                self._render_missing()

    def _render_missing(self) -> None:
        """Letters of the tile set the shipped model lacks (an edition we do not ship) are rendered from
        the installed fonts; without fonts they stay in :attr:`missing` (never read, offered to the player)."""
        known = set(self._classes)
        missing = [letter for letter in self.alphabet if letter.isalpha() and self._index[letter] not in known]
        if not missing:
            return
        try:
            from vision.fonts import render

            for letter, _, glyph in render(missing):
                assert glyph.image is not None
                self._feats.append(features(glyph.image))
                self._classes.append(self._index[letter])
                self._marks.append(glyph.marks)
                self._bonus.append(0.0)
        except Exception:  # noqa: BLE001 - no pygame or no fonts: the letters stay unknown, the rest works
            pass
        self._packed = self._packed_base = None

    @property
    def missing(self) -> tuple[str, ...]:
        """Letters of the alphabet the classifier has no template for (it can never propose them)."""
        known = set(self._classes)
        return tuple(letter for letter in self.alphabet if letter.isalpha() and self._index[letter] not in known)

    def _load_model(self, path: Path, exclude: tuple[str, ...]) -> None:
        try:
            stat = path.stat()
        except OSError as exc:
            raise ModelError(f"cannot load the letter model {str(path)!r}: {exc}; rebuild it with "
                             "'python -m vision.fonts'") from None
        feats, classes, marks, grouped = _model_templates(str(path), stat.st_mtime_ns, stat.st_size, self.alphabet,
                                                          exclude)
        first = len(self._feats)
        self._feats.extend(feats)
        self._classes.extend(classes.tolist())
        self._marks.extend(marks.tolist())
        self._bonus.extend([0.0] * len(feats))
        self._packed = self._packed_base = None
        # The model's templates grouped once per process: a reader made afresh reads at once.
        self._model_grouped = (first, len(self._feats), grouped)

    @property
    def learned_count(self) -> int:
        return len(self._learned_labels)

    @property
    def template_count(self) -> int:
        return len(self._feats)

    def learn(self, glyphs: Sequence[Glyph], labels: Sequence[str]) -> None:
        """Add confirmed glyphs (from :func:`vision.glyphs.extract`) with their letters; blanks are skipped."""
        for glyph, label in zip(glyphs, labels, strict=True):
            if glyph.image is None:
                continue
            if label not in self._index:
                raise ModelError(
                    f"cannot learn letter {label!r}: not in the tile set's alphabet {''.join(self.alphabet)!r}"
                )
            image = glyph.image.astype(np.float32)
            self._forget_oldest(label, MAX_LEARNED_PER_LETTER - 1)
            self._learned_images.append(image)
            self._learned_labels.append(label)
            self._learned_marks.append(glyph.marks)
            feats = features(image)
            self._feats.append(feats)
            self._classes.append(self._index[label])
            self._marks.append(glyph.marks)
            self._bonus.append(LEARNED_BONUS)
            self._write_learned(self._index[label], feats, glyph.marks)
        self._packed = None

    def _write_learned(self, letter: int, feats: np.ndarray, marks: int) -> None:
        """Put a learned glyph's features in its letter's next column of the learned matrices."""
        if self._learned is None:
            columns = len(self.alphabet) * MAX_LEARNED_PER_LETTER
            self._learned = _Templates(np.zeros((len(feats), columns), np.float32),
                                       np.full(columns, -np.inf, np.float32), np.zeros(columns, np.int8),
                                       np.arange(0, columns, MAX_LEARNED_PER_LETTER),
                                       np.arange(len(self.alphabet)))
        column = letter * MAX_LEARNED_PER_LETTER + int(self._learned_written[letter] % MAX_LEARNED_PER_LETTER)
        self._learned.matrix[:, column] = feats
        self._learned.bonus[column] = LEARNED_BONUS
        self._learned.marks[column] = marks
        self._learned_written[letter] += 1

    def _forget_oldest(self, label: str, keep: int) -> None:
        """Drop the oldest learned glyphs of ``label`` beyond ``keep`` (learned templates follow the model's)."""
        mine = [i for i, known in enumerate(self._learned_labels) if known == label]
        first = len(self._feats) - len(self._learned_labels)
        for i in reversed(mine[: max(0, len(mine) - keep)]):
            for values in (self._learned_images, self._learned_labels, self._learned_marks):
                del values[i]
            for column in (self._feats, self._classes, self._marks, self._bonus):
                del column[first + i]

    def _pack(self) -> tuple[_Templates | None, _Templates | None]:
        """The templates as matrices: the shipped (and rendered) ones, kept until the model changes, and
        the learned ones (written in place as tiles are learned)."""
        if self._packed is None:
            if not self._feats:
                raise ModelError("the letter classifier has no templates; load the letter model or learn some tiles")
            first_learned = len(self._feats) - len(self._learned_labels)
            if self._packed_base is None:
                model = self._model_grouped
                self._packed_base = model[2] if model is not None and model[:2] == (0, first_learned) \
                    else self._group(0, first_learned)
            self._packed = (self._packed_base, self._learned if self._learned_labels else None)
        return self._packed

    def _group(self, lo: int, hi: int) -> _Templates | None:
        """Templates lo..hi grouped by letter (for a per-letter max), features as columns."""
        if hi <= lo:
            return None
        return _grouped(np.stack(self._feats[lo:hi]), np.array(self._classes[lo:hi], np.int32),
                        np.array(self._bonus[lo:hi], np.float32), np.array(self._marks[lo:hi], np.int8))

    def _best(self, feats: np.ndarray, glyph_marks: np.ndarray) -> np.ndarray:
        """(glyphs, alphabet) best template similarity per letter (minus the marks penalty); -inf for letters
        without a template."""
        out = np.full((len(feats), len(self.alphabet)), -np.inf, np.float32)
        penalty = np.where(glyph_marks != 0, MARKS_PENALTY, UNMARKED_PENALTY).astype(np.float32)
        for group in self._pack():
            if group is None:
                continue
            unlike = group.marks[None, :] != glyph_marks[:, None]
            sims = feats @ group.matrix + group.bonus - penalty[:, None] * unlike
            out[:, group.present] = np.maximum(out[:, group.present], np.maximum.reduceat(sims, group.starts, axis=1))
        return out

    def scores(self, glyph: Glyph) -> dict[str, float]:
        """Every known letter's score: its best template's similarity (minus the marks penalty)."""
        if glyph.image is None:
            raise ModelError("cannot classify a tile without a letter (a blank); check Glyph.is_blank first")
        best = self._best(features(glyph.image)[None, :], np.array([glyph.marks], np.int8))[0]
        return {self.alphabet[c]: float(best[c]) for c in np.flatnonzero(np.isfinite(best))}

    def classify(self, glyph: Glyph, k: int = 3) -> LetterGuess:
        """The ``k`` best letters (at least two, so that the confidence is a real margin); the best letter's
        twins with or without marks (A/Ä, O/Ö, U/Ü) are always among the candidates, because lost or
        smudged dots are the likeliest error and the player should be offered the other one. An Alfapet
        arrow tile reads as :data:`ARROW` ahead of the letters."""
        return self.classify_many([glyph], k)[0]

    def classify_many(self, glyphs: Sequence[Glyph], k: int = 3) -> list[LetterGuess]:
        """:meth:`classify` for many glyphs with one matrix product (a full board at once)."""
        if not glyphs:
            return []
        if any(g.image is None for g in glyphs):
            raise ModelError("cannot classify a tile without a letter (a blank); check Glyph.is_blank first")
        images = [g.image for g in glyphs]
        feats = features(images[0])[None, :] if len(images) == 1 else features_many(np.stack(images))  # type: ignore[arg-type]
        return self._guesses(self._best(feats, np.array([g.marks for g in glyphs], np.int8)), k)

    @property
    def reads_arrows(self) -> bool:
        return self._arrows is not None

    def with_arrows(self, guesses: Sequence[LetterGuess | None], glyphs: Sequence[Glyph],
                    shapes: Sequence[np.ndarray | None]) -> list[LetterGuess | None]:
        """The guesses with each tile whose print (:func:`vision.glyphs.ink_shape`) looks clearly more like an
        arrow (in any quarter turn) than its glyph looks like any letter in any quarter turn (a letter laid by a
        player on another side is a turned letter, not an arrow) read as :data:`ARROW`, its letters after it."""
        if self._arrows is None:
            return list(guesses)
        out: list[LetterGuess | None] = []
        printed = [shape is not None and guess is not None and glyph.image is not None
                   for guess, glyph, shape in zip(guesses, glyphs, shapes, strict=True)]
        # The prints' features all at once (the same numbers as one by one).
        prints = iter(features_many(np.stack([s for s, p in zip(shapes, printed, strict=True) if p]))  # type: ignore[misc]
                      if any(printed) else ())
        for guess, glyph, is_printed in zip(guesses, glyphs, printed, strict=True):
            if is_printed and guess is not None and glyph.image is not None:
                arrow = float((self._arrows @ next(prints)).max())
                if arrow >= guess.top[0][1] + ARROW_MARGIN:
                    turned = features_many(np.stack([np.rot90(glyph.image, k) for k in (1, 2, 3)]))
                    letters = float(self._best(turned, np.full(3, glyph.marks, np.int8)).max())
                    if arrow >= letters + ARROW_MARGIN:
                        guess = LetterGuess(((ARROW, arrow), *guess.top))
            out.append(guess)
        return out

    def _guesses(self, best: np.ndarray, k: int) -> list[LetterGuess]:
        """The guess of each row of :meth:`_best`: the ``k`` best letters (equal scores in alphabet order), then
        the best letter's twins that are not among them."""
        known = np.flatnonzero(np.isfinite(best[0]))
        letters = [self.alphabet[c] for c in known]
        scores = best[:, known]
        shown = max(k, 2)
        out = []
        for row, ranks in zip(scores.tolist(), np.argsort(-scores, axis=1, kind="stable").tolist(), strict=True):
            top = [(letters[c], row[c]) for c in ranks[:shown]]
            twins = self._twins.get(top[0][0], ())
            if twins:
                named = {letter for letter, _ in top}
                top += [(letters[c], row[c]) for c in ranks[shown:] if letters[c] in twins and letters[c] not in named]
            out.append(LetterGuess(tuple(top)))
        return out

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


@functools.lru_cache(maxsize=4)
def _model_features(path: str, mtime_ns: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(labels, sources, marks, features) of a letter model file, computed once per process and file version
    (every board reader loads the same model: its ~2,500 glyphs' features took half a second each time).
    The features are read-only: templates are shared between classifiers."""
    try:
        data = np.load(path)
        labels, images, marks = data["labels"], data["images"], data["marks"]
        sources = data["sources"] if "sources" in data.files else np.full(len(labels), "render:")
    except (OSError, KeyError, ValueError) as exc:
        raise ModelError(f"cannot load the letter model {path!r}: {exc}; rebuild it with "
                         "'python -m vision.fonts'") from None
    if images.shape[1:] != (GLYPH_PX, GLYPH_PX):
        raise ModelError(f"letter model {path!r} has {images.shape[1:]!r} glyphs, expected "
                         f"{(GLYPH_PX, GLYPH_PX)!r}; rebuild it with 'python -m vision.fonts'")
    feats = np.stack([features(im.astype(np.float32) / 255) for im in images]) if len(images) else \
        np.zeros((0, 0), np.float32)
    feats.setflags(write=False)
    return labels, sources, marks, feats


def _grouped(feats: np.ndarray, classes: np.ndarray, bonus: np.ndarray, marks: np.ndarray) -> _Templates:
    """(templates, features) rows grouped by letter (a stable sort by class), features as columns."""
    order = np.argsort(classes, kind="stable")
    classes = classes[order]
    starts = np.flatnonzero(np.r_[True, classes[1:] != classes[:-1]])
    return _Templates(np.ascontiguousarray(feats[order].T), bonus[order], marks[order], starts, classes[starts])


@functools.lru_cache(maxsize=8)
def _model_templates(path: str, mtime_ns: int, size: int, alphabet: tuple[str, ...],
                     exclude: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, _Templates | None]:
    """(features, classes, marks, grouped) of the model's glyphs a classifier of ``alphabet`` keeps (sources
    not starting with ``exclude``); classes index the alphabet; grouped: :func:`_grouped` of them (None if
    none), computed once per process. Read-only: shared between classifiers."""
    labels, sources, marks, feats = _model_features(path, mtime_ns, size)
    index = {letter: i for i, letter in enumerate(alphabet)}
    wanted = np.array([str(label) in index and not str(src).startswith(exclude)
                       for label, src in zip(labels, sources, strict=True)], bool)
    kept = feats[wanted]
    classes = np.array([index[str(label)] for label in labels[wanted]], np.int32)
    kept_marks = marks[wanted].astype(np.int8)
    grouped = _grouped(kept, classes, np.zeros(len(kept), np.float32), kept_marks) if len(kept) else None
    for array in (kept, classes, kept_marks, *(() if grouped is None else
                                                (grouped.matrix, grouped.bonus, grouped.marks, grouped.starts,
                                                 grouped.present))):
        array.setflags(write=False)
    return kept, classes, kept_marks, grouped

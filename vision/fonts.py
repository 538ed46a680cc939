# SPDX-License-Identifier: GPL-3.0-or-later
"""Build the shipped letter model: glyphs rendered from installed fonts plus glyphs cut from labelled photos.

Rendered glyphs: each letter is drawn dark on a light tile, with a value digit in the corner, in several
fonts, sizes, weights and small rotations, with blur and noise, then cut out by
:func:`vision.glyphs.extract` exactly like a camera tile, so the model learns the normalisation it will see.

Photo glyphs: a folder of per-turn photos with its GCG record (e.g. ScrabScrap's games) is replayed by the
engine; every tile on every photo then has a known letter. A few frames of each tile are cut out.

``python -m vision.fonts [--photos DIR ...]`` rebuilds ``vision/data/letters.npz``; every glyph carries its
source (``render:<font>`` or ``photo:<folder name>``) so that evaluations can leave a source out. pygame
(a project dependency) is only imported here, only to render.
"""

from __future__ import annotations

import argparse
import os
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from vision import glyphs
from vision.classifier import LetterClassifier

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"),
             Path("/usr/share/fonts/truetype/freefont"))
#: Tile fonts are bold sans faces mostly; a serif and a mono face widen what "an A" looks like.
#: The bootstrap installs all three families (device/data/debian-packages.txt); missing files are skipped here.
FONT_FILES = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif-Bold.ttf",
              "DejaVuSansMono-Bold.ttf", "LiberationSans-Bold.ttf", "LiberationSans-Regular.ttf",
              "LiberationSerif-Bold.ttf", "LiberationSansNarrow-Bold.ttf", "FreeSansBold.ttf", "FreeSerifBold.ttf")
CELL_PX = 40
#: Latin letters of every Ordvakt tile set (Scrabble de/en/fr/sv/no/fi/et, Alfapet, Ordskifte).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜÅÆØÉÕŠŽ"
#: Letters whose mark touches the letter in most fonts (Å's ring sits on the apex): kept whether or not
#: the cut-out found the mark, or they would be missing from the model.
TOUCHING_MARKS = "Å"
MODEL_PATH = Path(__file__).parent / "data" / "letters.npz"
#: Frames kept per physical tile of a photographed game (first, middle and last photo that shows it).
FRAMES_PER_TILE = 3
#: Glyphs more similar than this to one already kept (same letter and source) add nothing.
DUPLICATE_SIM = 0.98
#: Rendered letters are also drawn as a camera sees a tile this many pixels wide, softly focused, their strokes a
#: little bold (blur thickens them): a camera that sees the board from further off or from the side blurs letters
#: so (an N's diagonal smeared into an M, a G's bar into a Q's tail), and those glyphs must have their like in the
#: model. Measured (tile letters read from scratch against the records, scrabscrap games 01, 02 and 04 laid in a
#: room and seen from 25-35 degrees, vision.variants "room-low", about 23 px a cell): 87 of 4170 wrong -> 54; the
#: photos as they are stay 0 wrong.
LOW_RES_CELLS = (20, 26)


def _font_paths() -> list[Path]:
    return [d / f for f in FONT_FILES for d in FONT_DIRS if (d / f).is_file()]


def render(letters: Iterable[str], *, seed: int = 1) -> Iterator[tuple[str, str, glyphs.Glyph]]:
    """(letter, font name, glyph) rendered from every installed font with variations."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype  # noqa: PLC0415 - heavy, only needed when rebuilding the model

    pygame.freetype.init()
    rng = np.random.default_rng(seed)
    low_rng = np.random.default_rng(seed + 1)  # its own stream: the sharp renderings stay as they were
    letters = list(letters)
    for path in _font_paths():
        for size_frac in (0.52, 0.64):
            font = pygame.freetype.Font(str(path), int(CELL_PX * 4 * size_frac))
            for letter in letters:
                inks = [_ink(font, letter)]
                if letter == "Q" and "O" in letters:
                    # Many tile fonts (geometric sans) cut Q's tail short across the ring.
                    o_ink = np.ascontiguousarray(_ink(font, "O"))
                    h, w = o_ink.shape
                    cv2.line(o_ink, (int(w * 0.55), int(h * 0.6)), (int(w * 0.92), int(h * 0.92)), 255,
                             max(2, w // 7))
                    inks.append(o_ink)
                for ink in inks:
                    for angle in (-4.0, 0.0, 4.0):
                        for weight in (-1, 0, 1):
                            glyph = _to_glyph(ink, angle, weight, rng)
                            if glyph.image is not None:
                                yield letter, path.stem, glyph
                    for seen in LOW_RES_CELLS:
                        glyph = _to_glyph(ink, 0.0, 1, low_rng, seen=seen)
                        if glyph.image is not None:
                            yield letter, path.stem, glyph


def _ink(font, letter: str) -> np.ndarray:
    import pygame.surfarray  # noqa: PLC0415

    surf, _ = font.render(letter, (0, 0, 0), (255, 255, 255))
    return 255 - np.transpose(pygame.surfarray.array3d(surf)[..., 0])


def _to_glyph(ink: np.ndarray, angle: float, weight: int, rng: np.random.Generator,
              seen: int | None = None) -> glyphs.Glyph:
    big = CELL_PX * 4
    canvas: np.ndarray = np.zeros((big, big), np.uint8)
    h, w = ink.shape
    scale = min(1.0, 0.62 * big / max(h, w))
    ink = cv2.resize(ink.astype(np.uint8), (max(1, int(w * scale)), max(1, int(h * scale))))
    h, w = ink.shape
    y0, x0 = (big - h) // 2 - big // 20, (big - w) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = ink
    cv2.putText(canvas, str(int(rng.integers(1, 9))), (int(big * 0.74), int(big * 0.86)),
                cv2.FONT_HERSHEY_SIMPLEX, big / 200, 255, max(1, big // 60))
    if weight < 0:
        canvas = cv2.erode(canvas, np.ones((5, 5), np.uint8))
    elif weight > 0:
        canvas = cv2.dilate(canvas, np.ones((5, 5), np.uint8))
    rot = cv2.getRotationMatrix2D((big / 2, big / 2), angle, float(rng.uniform(0.95, 1.05)))
    canvas = cv2.warpAffine(canvas, rot, (big, big))
    paper, ink_level = float(rng.uniform(190, 235)), float(rng.uniform(20, 70))
    tile: np.ndarray = paper - canvas.astype(np.float32) * ((paper - ink_level) / 255)
    tile = cv2.resize(tile, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA)
    if seen is not None:
        # As a camera that sees the tile at ``seen`` pixels with a soft lens, enlarged again by the reader's warp.
        small = cv2.resize(tile, (seen, seen), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(0.6, 1.0)))
        small = small + rng.normal(0, float(rng.uniform(1, 4)), small.shape)
        tile = cv2.resize(small, (CELL_PX, CELL_PX), interpolation=cv2.INTER_LINEAR)
    else:
        blur = float(rng.choice([0.0, 0.0, 0.8, 1.3]))
        if blur:
            tile = cv2.GaussianBlur(tile, (0, 0), blur)
        tile = tile + rng.normal(0, float(rng.uniform(1, 6)), tile.shape)
    pad = int(round(glyphs.CROP_PAD * CELL_PX))
    crop = np.full((CELL_PX + 2 * pad, CELL_PX + 2 * pad), 90.0)  # the board around the tile
    crop[pad + 2 : pad + CELL_PX - 2, pad + 2 : pad + CELL_PX - 2] = tile[2:-2, 2:-2]
    return glyphs.extract(np.clip(crop, 0, 255).astype(np.uint8), CELL_PX)


def _has_mark(letter: str) -> bool:
    return len(unicodedata.normalize("NFD", letter)) > 1


def photo_glyphs(folder: Path, *, tiles: str = "de", frames_per_tile: int = FRAMES_PER_TILE,
                 first_only: bool = False,
                 transform: Callable[[np.ndarray], np.ndarray] | None = None,
                 ) -> Iterator[tuple[str, int, tuple[int, int], glyphs.Glyph]]:
    """(letter or '?', image number, (row, col), glyph) for tiles on a folder of per-turn photos.

    The labels come from the engine's replay of the folder's GCG record (``image-N`` is the board after
    move line N; positions in lettered rows, as ScrabScrap's records use). The glyphs are cut by the
    device's own :class:`vision.reader.BoardReader`, so they are what the classifier sees at run time.
    ``first_only``: one glyph per tile, from the photo where it appeared; otherwise up to
    ``frames_per_tile`` photos spread over its life. ``transform`` alters each photo first (e.g. one of
    :data:`vision.variants.VARIANTS`). Tiles the reader does not see as tiles are skipped.
    """
    from engine.rules import Rules  # noqa: PLC0415 - only the model builder and evaluations need these
    from engine.squares import Square
    from vision.profile import load_profile
    from vision.reader import BoardReader, load_frame
    from vision.replay import image_number, load_record, photos, record_boards

    rules = Rules.scrabble(tiles)
    boards = record_boards(load_record(next(Path(folder).glob("*.gcg"))), rules)
    reader = BoardReader(load_profile("scrabscrap"), rules.tileset,
                         classifier=_GlyphsOnly(rules.tileset.alphabet, font_model=None))
    shots: dict[tuple, list[int]] = {}
    frames = {}
    for path in photos(Path(folder)):
        number = image_number(path)
        if number is None or number > len(boards):
            continue
        frames[number] = path
        for sq, cell in boards[number - 1]:
            if not cell.is_stop:
                shots.setdefault((sq.row, sq.col, "?" if cell.blank else cell.letter), []).append(number)
    wanted: dict[int, list[tuple]] = {}
    for key, numbers in shots.items():
        picks = [numbers[0]] if first_only else sorted({numbers[int(i)] for i in
                                                        np.linspace(0, len(numbers) - 1, frames_per_tile)})
        for n in picks:
            wanted.setdefault(n, []).append(key)
    for number in sorted(wanted):
        frame = load_frame(frames[number])
        reading = reader.read(transform(frame) if transform is not None else frame,
                              cells=[Square(r, c) for r, c, _ in wanted[number]])
        for row, col, letter in wanted[number]:
            tile = reading.tiles.get(Square(row, col))
            if tile is not None:
                yield letter, number, (row, col), tile.glyph


class _GlyphsOnly(LetterClassifier):
    """Cuts glyphs without reading them (the model may not exist yet while it is being built)."""

    def classify(self, glyph: glyphs.Glyph, k: int = 3) -> None:  # type: ignore[override]
        return None

    def classify_many(self, cut: list[glyphs.Glyph], k: int = 3) -> list[None]:  # type: ignore[override]
        return [None] * len(cut)


def _consistent(labels: list[str], images: list[np.ndarray], marks: list[int], sources: list[str],
                k: int = 5) -> np.ndarray:
    """Which glyphs agree with their k nearest glyphs of *other* fonts (drops renderings that went wrong,
    e.g. a thin E whose arms broke off the stem and which now looks like an I)."""
    feats = np.stack([glyphs.features(im) for im in images])
    lab = np.array(labels)
    src = np.array(sources)
    mk = np.array(marks)
    keep = np.ones(len(labels), bool)
    for start in range(0, len(labels), 512):
        sims = feats[start : start + 512] @ feats.T - 0.25 * (mk[start : start + 512, None] != mk[None, :])
        sims[src[start : start + 512, None] == src[None, :]] = -np.inf
        near = np.argsort(-sims, axis=1)[:, :k]
        agree = (lab[near] == lab[start : start + 512, None]).sum(axis=1)
        keep[start : start + 512] = agree > k // 2
    return keep


def _distinct(labels: list[str], images: list[np.ndarray], groups: list[str],
              limit: float = DUPLICATE_SIM) -> np.ndarray:
    """Drop near-duplicates within a letter and group (the model stays small, so reading stays fast).
    Groups are kept apart so that leaving one photographed game out leaves the others whole."""
    feats = np.stack([glyphs.features(im) for im in images])
    keep = np.zeros(len(labels), bool)
    buckets: dict[tuple[str, str], list[int]] = {}
    for i, key in enumerate(zip(labels, groups, strict=True)):
        kept = buckets.setdefault(key, [])
        if not kept or float((feats[kept] @ feats[i]).max()) < limit:
            kept.append(i)
            keep[i] = True
    return keep


def build(path: Path, letters: str = LETTERS, photo_folders: Iterable[Path] = ()) -> dict[str, int]:
    """Write the model; returns the number of glyphs per source kind."""
    labels, images, marks, sources = [], [], [], []
    counts = {"rendered": 0, "photo": 0}
    for letter, font, glyph in render(letters):
        if glyph.image is None or (_has_mark(letter) != bool(glyph.marks) and letter not in TOUCHING_MARKS):
            continue  # the rendering lost (or merged) the letter's dots: not what a camera sees
        labels.append(letter)
        images.append(glyph.image)
        marks.append(glyph.marks)
        sources.append(f"render:{font}")
        counts["rendered"] += 1
    keep = _consistent(labels, images, marks, sources)
    counts["rendered"] = int(keep.sum())
    labels, images, marks, sources = _kept(keep, labels, images, marks, sources)
    for folder in photo_folders:
        for letter, _, _, glyph in photo_glyphs(folder):
            if letter == "?" or glyph.image is None or letter not in letters:
                continue
            labels.append(letter)
            images.append(glyph.image)
            marks.append(glyph.marks)
            sources.append(f"photo:{Path(folder).name}")
            counts["photo"] += 1
    keep = _distinct(labels, images, [src.split(":")[0] if src.startswith("render:") else src for src in sources])
    labels, images, marks, sources = _kept(keep, labels, images, marks, sources)
    counts = {kind: sum(1 for src in sources if src.startswith(prefix))
              for kind, prefix in (("rendered", "render:"), ("photo", "photo:"))}
    np.savez_compressed(path, labels=np.array(labels), images=(np.stack(images) * 255).round().astype(np.uint8),
                        marks=np.array(marks, np.uint8), sources=np.array(sources))
    return counts


def _kept(keep: np.ndarray, labels: list[str], images: list[np.ndarray], marks: list[int],
          sources: list[str]) -> tuple[list[str], list[np.ndarray], list[int], list[str]]:
    """The model's four columns without the glyphs ``keep`` leaves out."""
    rows = [i for i, k in enumerate(keep) if k]
    return [labels[i] for i in rows], [images[i] for i in rows], [marks[i] for i in rows], [sources[i] for i in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.fonts", description=__doc__.splitlines()[0])
    parser.add_argument("--photos", nargs="*", type=Path, default=[],
                        help="folders of per-turn photos with their .gcg record (e.g. ../shared/data/photos/"
                             "scrabscrap/game0*)")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    counts = build(args.out, LETTERS, args.photos)
    print(f"wrote {counts['rendered']} rendered and {counts['photo']} photo glyphs to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


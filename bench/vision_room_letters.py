# SPDX-License-Identifier: GPL-3.0-or-later
"""Tile letters of the ScrabScrap photo games read from scratch, photo by photo, as a variant alters them, against
the records: how many letters are misread, which confusions, and how often umlaut dots were found.

Every photo of games 01, 02 and 04 (their photo N is the board after record line N; game03 has missing photos and a
withdrawn move) is altered by one of vision.variants (``room-low``: laid on a table in a 2 MP frame seen from
25-35 degrees, some 23-31 px a cell) and read by a new reader with the scrabscrap profile; each lettered tile of the
record's board is compared with the letter read there. The letter model leaves out the photo glyphs of the game
read (``photo:gameNN``), so no game is read with its own tiles' glyphs.
Usage: .venv/bin/python bench/vision_room_letters.py [VARIANT ...]   (default: original room room-low)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules import Rules  # noqa: E402
from vision import variants  # noqa: E402
from vision.classifier import LetterClassifier  # noqa: E402
from vision.profile import load_profile  # noqa: E402
from vision.reader import BoardReader, load_frame  # noqa: E402
from vision.replay import load_record, record_boards  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "photos" / "scrabscrap"
GAMES = ("game01", "game02", "game04")


def main(argv: list[str]) -> int:
    names = variants.bench_variants(argv, DATA)
    if isinstance(names, str):
        print(names, file=sys.stderr)
        return 2
    rules = Rules.scrabble("de")
    profile = load_profile("scrabscrap")
    for name in names:
        read, confusions, marks = Counter(), Counter(), Counter()
        for game in GAMES:
            classifier = LetterClassifier(rules.tileset.alphabet, exclude=(f"photo:{game}",))
            record = load_record(next((DATA / game).glob("*.gcg")))
            for n, board in enumerate(record_boards(record, rules), start=1):
                path = DATA / game / f"image-{n}.jpg"
                if not path.is_file():
                    continue
                frame = load_frame(path)
                if name != "original":
                    frame = variants.altered(name, frame, game, f"image-{n}")
                reading = BoardReader(profile, rules.tileset, classifier=classifier).read(frame)
                for square, cell in board:
                    if cell.is_stop or cell.blank:
                        continue
                    tile = reading.tiles.get(square)
                    got = None if tile is None or tile.guess is None else tile.guess.letter
                    read[cell.letter] += 1
                    if got != cell.letter:
                        confusions[(cell.letter, got or "-")] += 1
                    if cell.letter in "ÄÖÜ" and tile is not None:
                        marks[cell.letter, tile.glyph.marks] += 1
        wrong = sum(confusions.values())
        print(f"{name}: {wrong} of {sum(read.values())} letters misread (games {', '.join(GAMES)}, every photo)")
        if confusions:
            print("  misread as: " + ", ".join(f"{a}->{b} {k}" for (a, b), k in confusions.most_common(12)))
        umlauts = ", ".join(f"{u} {marks[u, 1]}/{marks[u, 0] + marks[u, 1]}" for u in "ÄÖÜ")
        print(f"  umlaut dots found: {umlauts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

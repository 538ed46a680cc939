# SPDX-License-Identifier: GPL-3.0-or-later
"""The ScrabScrap photo games replayed as ``ordvakt replay`` reads them, with the German word list, under the
alterations of vision.variants: turns matched per variant and game, the records only compared against.

``python -m vision.variants --evaluate`` runs the same table by the rules alone (vision cannot find the device's
word lists); this one opens the list the replay command opens (``ordvakt lexicon build --lang de`` first), so a
blank is named and a close call between two letters settled as on a device.
Usage: .venv/bin/python bench/vision_variants.py [VARIANT ...]   (default: original room room-low)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from device.commands.vision import word_check  # noqa: E402
from vision import variants  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "photos" / "scrabscrap"
GAMES = ["game01", "game02", "game03", "game04"]


def main(argv: list[str]) -> int:
    names = variants.bench_variants(argv, DATA)
    if isinstance(names, str):
        print(names, file=sys.stderr)
        return 2
    words, dictionary = word_check("de", None)
    if words is None:
        print(f"no German word list: {dictionary}", file=sys.stderr)
        return 2
    print(f"dictionary: {dictionary}")
    scores = variants.evaluate_all(DATA, names, GAMES, words=words)
    print(variants.table(scores, GAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

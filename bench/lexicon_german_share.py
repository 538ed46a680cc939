#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Share of the distinct words of the four German tournament games (main words and
cross-words) that the default German list accepts, and what the spell-checker adds.

    .venv/bin/python bench/lexicon_german_share.py [--dir LEXICON_DIR]

Replays ../shared/data/photos/scrabscrap/game01-04/*.gcg with engine.gcg; words of
plays that were challenged off (withdrawn) are reported separately.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAMES = ROOT.parent / "shared" / "data" / "photos" / "scrabscrap"


def main() -> int:
    from engine.gcg import parse_gcg, replay
    from engine.lexicon import Verdict, open_judge
    from engine.lexicon.build import build_default, default_is_current
    from engine.moves import Withdraw

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, help="lexicon directory (default: build de into a temp dir)")
    args = parser.parse_args()
    files = sorted(GAMES.glob("game0[1-4]/*.gcg"))
    if not files:
        print(f"no GCG files under {GAMES}", file=sys.stderr)
        return 2
    stood: set[str] = set()
    phonies: set[str] = set()
    for path in files:
        result = replay(parse_gcg(path.read_bytes(), str(path.relative_to(ROOT.parent))))
        events = result.game.events
        for i, event in enumerate(events):
            withdrawn = i + 1 < len(events) and isinstance(events[i + 1].move, Withdraw)
            (phonies if withdrawn else stood).update(w.upper() for w in event.words)
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        if not default_is_current(directory, "de"):
            build_default("de", directory)
        judge = open_judge("de", directory)
        verdicts = {w: judge.judge_word(w) for w in sorted(stood | phonies)}
    valid = sorted(w for w in stood if verdicts[w].verdict is Verdict.VALID)
    possible = sorted(w for w in stood if verdicts[w].verdict is Verdict.POSSIBLE)
    rejected = sorted(w for w in stood if verdicts[w].verdict is Verdict.INVALID)
    n = len(stood)
    print(f"{len(files)} games, {n} distinct words in plays that stood; list: {judge.lexicons[0].name}")
    print(f"  VALID in the list:          {len(valid):3} ({100 * len(valid) / n:.1f}%)")
    print(f"  POSSIBLE (spell-checker):   {len(possible):3} ({100 * len(possible) / n:.1f}%)  {' '.join(possible)}")
    print(f"  INVALID:                    {len(rejected):3} ({100 * len(rejected) / n:.1f}%)  {' '.join(rejected)}")
    for w in sorted(phonies):
        print(f"  challenged off: {w}: {verdicts[w]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt gallery OUT_DIR``: every touchscreen screen as a PNG, in en/sv/fi/nb at 800×480 and 720×1280
(sample views built from a real game in the shared data; see :mod:`device.ui.gallery`)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gallery", help="save every screen of the touchscreen UI as PNGs (4 languages x 2 sizes)",
                       description=__doc__)
    p.add_argument("out", type=Path, metavar="OUT_DIR", help="folder for the PNGs (created)")
    p.add_argument("--shared", type=Path, default=Path("../shared/data"),
                   help="the shared data folder with gcg/ and photos/ (default ../shared/data)")
    p.add_argument("--language", action="append", choices=("en", "sv", "fi", "nb"),
                   help="only this language (repeatable; default all four)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from device.ui.gallery import run

    return run(args.out, args.shared, tuple(args.language) if args.language else None)

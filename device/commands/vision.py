# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt read``, ``locate``, ``replay`` and ``calibrate``: the camera reader from the command line."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("read", help="read the board on one photo")
    p.add_argument("image", type=Path)
    p.add_argument("--profile", default="scrabscrap", help="built-in profile name or profile .toml path")
    p.add_argument("--tiles", default="de", help="tile-set language, tile-set name (scrabble-LANG) or tile-set "
                                                 ".toml file")
    p.add_argument("--debug-image", type=Path, help="write the warped board with grid and readings here")
    p.add_argument("--json", action="store_true", help='print {"grid", "corners", "rows"} as JSON (rows: "." empty, '
                                                      'a letter, "?" a blank or a tile not read, "#" a stop tile, '
                                                      '"^" an arrow tile)')
    p.set_defaults(func=run_read)

    p = sub.add_parser("locate", help="find the board's playing grid in a photo")
    p.add_argument("image", type=Path)
    p.add_argument("--grid", type=int, choices=(15, 17), help="squares per side (default: found from the photo)")
    p.add_argument("--json", action="store_true", help='print {"grid": n, "corners": [[x, y] x 4]} as JSON')
    p.set_defaults(func=run_locate)

    p = sub.add_parser("replay", help="reconstruct a game from a folder of per-turn photos")
    p.add_argument("folder", type=Path)
    p.add_argument("--tiles", help="tile-set language, name (scrabble-LANG) or .toml file; default: what the record "
                                   "uses, else de")
    p.add_argument("--profile", default="scrabscrap")
    p.add_argument("--gcg", type=Path, help="compare every turn with this record (default: the folder's only .gcg)")
    p.add_argument("--no-record", action="store_true", help="do not compare with the folder's .gcg")
    p.add_argument("--lexicon", help="word list for naming blanks and splitting photos (default: the language's; "
                                        "'none': judge by the rules alone)")
    p.add_argument("--racks-from-record", action="store_true",
                   help="add the record's end-of-game rack lines (for photo series without a photo of the racks); "
                        "nothing else of the record is ever used to read the photos")
    p.add_argument("--photos", choices=("auto", "per-turn", "at-will"), default="auto",
                   help="per-turn: one photo per turn (an unchanged photo is a pass, a gap in the numbers a missing "
                        "photo); at-will: taken whenever (a phone's IMG_<date>_<time>: an unchanged photo is the same "
                        "board again); auto (default): per-turn when the names count 1, 2, 3 ...")
    p.add_argument("--out", type=Path, help="write the reconstructed game as GCG")
    p.add_argument("--timing", action="store_true", help="print timing figures on stderr")
    p.add_argument("--orientation", choices=("record", "lettered-rows", "standard"), default="record",
                   help="how the --gcg record names positions: lettered-rows (rows A-O from the top, as in "
                        "many German club records) or standard GCG; default: the record's #orientation pragma, "
                        "else the way the photos show the first move")
    p.set_defaults(func=run_replay)

    p = sub.add_parser("calibrate", help="make a board profile from a photo of the empty board")
    p.add_argument("photo", type=Path)
    p.add_argument("--grid", type=int, choices=(15, 17), help="squares per side (default: learned from the photo)")
    p.add_argument("--layout", help="engine layout name (default: the known layout the board's colours follow)")
    p.add_argument("--name", help="profile name (default: the output file's stem)")
    p.add_argument("--out", type=Path, required=True, help="profile .toml to write; a .png of the fit goes beside it")
    p.add_argument("--save-layout", type=Path, help="when the board's colours follow no known layout, write its "
                                                     "colour classes here as a layout file to finish by hand")
    p.add_argument("--tiles", help="the tile set played on this board: a language, a tile-set name or your own "
                                   "tile-set .toml file (checked like the built-in ones); says which of its letters "
                                   "the reader can read")
    p.set_defaults(func=run_calibrate)


def _rules(tiles: str):
    """Rules for ``--tiles``: a language (de), a tile-set name (scrabble-de, alfapet-sv) or a tile-set
    .toml file in the built-in sets' format (an edition Ordvakt does not ship)."""
    from engine.rules import Rules

    if tiles.lower().endswith(".toml") or os.sep in tiles:
        from dataclasses import replace

        from engine.tiles import load_tileset_file

        tileset = load_tileset_file(Path(tiles))
        # Only the tiles come from the file; the board and scoring are the game's.
        base = Rules.alfapet("sv") if tileset.game == "alfapet" else Rules.scrabble("en")
        return replace(base, tileset=tileset, rack_size=tileset.rack_size)
    if tiles.startswith(("scrabble-", "alfapet-")):
        game, lang = tiles.split("-", 1)
        return Rules.alfapet(lang) if game == "alfapet" else Rules.scrabble(lang, tileset=tiles)
    return Rules.scrabble(tiles)


def run_read(args: argparse.Namespace) -> int:
    from vision.debug import draw_reading
    from vision.profile import load_profile
    from vision.reader import BoardReader, load_frame

    _check_output(args.debug_image)
    rules = _rules(args.tiles)
    reader = BoardReader(load_profile(args.profile), rules.tileset)
    frame = load_frame(args.image)
    t0 = time.perf_counter()
    reading = reader.read(frame)
    ms = (time.perf_counter() - t0) * 1000
    if args.json:
        from vision.locate import reading_json

        print(reading_json(reading))
    else:
        print(reading.to_text())
        print(f"status: {reading.status.name or 'OK'}; {len(reading.occupied())} tiles; {ms:.1f} ms")
    if args.debug_image:
        from vision.imageio import write_image

        write_image(args.debug_image, draw_reading(frame, reading))
    if reading.geometry is None:
        print(f"ordvakt: {args.image}: {reading.reason or 'no board found'}", file=sys.stderr)
        return 1
    return 0


def run_locate(args: argparse.Namespace) -> int:
    """Exit 0 and the grid's corners (clockwise from a corner; A1's when the board's print tells), or exit 1
    and one line saying why no board was found."""
    import json

    from vision.errors import BoardNotFound
    from vision.find import find_grid
    from vision.reader import load_frame

    frame = load_frame(args.image)
    try:
        found = find_grid(frame, grid=args.grid)
    except BoardNotFound as exc:
        print(f"ordvakt: {args.image}: {exc}", file=sys.stderr)
        return 1
    corners = [[round(float(x), 1), round(float(y), 1)] for x, y in found.corners]
    if args.json:
        print(json.dumps({"grid": found.grid, "corners": corners}))
    else:
        print(f"{found.grid}x{found.grid} grid; corners " + ", ".join(f"({x:.0f}, {y:.0f})" for x, y in corners))
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Exit 0: the game was read (and agrees with the record when there is one); 1: it disagrees with the
    record, or a photo's move could not be read; 2 (raised as an error): bad input."""
    from engine.gcg import rules_for, write_gcg
    from vision.profile import load_profile
    from vision.reader import BoardReader
    from vision.replay import (
        blank_summary,
        load_record,
        missing_numbers,
        numbered_by_turn,
        photos,
        replay_photos,
    )

    gcg = args.gcg
    if gcg is None and not args.no_record:
        found = sorted(Path(args.folder).glob("*.gcg"))
        gcg = found[0] if len(found) == 1 else None
    record = load_record(gcg) if gcg else None
    if args.tiles:
        rules = _rules(args.tiles)
    elif record is not None:
        rules = rules_for(record)  # the tile set the record names is a setting, not a reading
    else:
        rules = _rules("de")
    reader = BoardReader(load_profile(args.profile), rules.tileset)
    words, dictionary = word_check(rules.tileset.language, args.lexicon)
    print(f"dictionary: {dictionary}")
    found = photos(Path(args.folder))
    per_turn = {"auto": numbered_by_turn(found), "per-turn": True, "at-will": False}[args.photos]
    print("photos: one per turn" if per_turn else
          "photos: taken at will (an unchanged photo is the same board again, not a pass)")
    missing = missing_numbers(found) if per_turn else []
    if missing:
        shown = ", ".join(f"image-{n}" for n in missing)
        print(f"missing photos: {shown} ({len(missing)}); their moves are read from the next photo that is there")
    players = ("Player1", "Player2")
    if record is not None and len(record.players) == 2:
        players = tuple(p.nick for p in record.players)  # type: ignore[assignment]
    orientation = {"record": None, "lettered-rows": True, "standard": False}[args.orientation]
    result = replay_photos(args.folder, reader, rules, players=players, record=record, orientation=orientation,
                           words=words, racks_from_record=args.racks_from_record, per_turn=per_turn)
    for turn in result.turns:
        line = f"{turn.photo.name}: {turn.text}"
        messages = [m for m in turn.proposal.messages if "which letter?" not in m] + turn.notes
        if messages:
            line += "  [" + "; ".join(messages) + "]"
        if turn.match is not None:
            line += "  ok" if turn.match else f"  MISMATCH record: {turn.expected}"
        print(line)
    named, unknown = blank_summary(result)
    print(f"read {len(result.turns) - len(result.unread)}/{len(result.turns)} photos; blanks named {named}, "
          f"unknown {unknown}")
    if record is not None:
        print(f"record: {gcg} (positions read as {result.orientation})")
    for err in result.record_errors:
        print(f"record error: {err}")
    if record is not None:
        print(f"matched {result.matched}/{len(result.compared)} turns")
    for tail in result.record_tail:
        print(f"from the record (no photo; --racks-from-record): {tail}")
    if args.out:
        args.out.write_text(write_gcg(result.game, nicks=list(players)), encoding="utf-8")
    print(f"final: {result.game.scores[0]} {result.game.scores[1]}")
    if args.timing:
        median, p90 = result.timing()
        print(f"timing: median {median:.1f} ms/move, p90 {p90:.1f} ms/move, full frame median "
              f"{_full_frame_median(reader, result):.1f} ms", file=sys.stderr)
    if record is not None:
        return 0 if result.matched == len(result.compared) and not result.unread else 1
    return 0 if not result.unread else 1


def word_check(lang: str, lexicon: str | None):
    """(word -> valid, the dictionary's name) for naming blanks and splitting photos; (None, why) without one."""
    from device.paths import lexicon_dir
    from engine.errors import EngineError
    from engine.lexicon.judge import Verdict, open_checker, open_judge
    from engine.lexicon.languages import language

    if lexicon == "none":
        return None, "none (--lexicon none); blanks stay unknown, photos are split by the rules alone"
    try:
        judge = open_judge(lang, lexicon_dir(), lexicon)
    except EngineError as exc:
        if lexicon is not None:
            raise
        try:
            checker = open_checker(language(lang))
        except EngineError:
            checker = None
        if checker is None:
            return None, f"none ({exc}); blanks stay unknown, photos are split by the rules alone"
        from engine.lexicon.judge import Judge

        judge = Judge([checker], lang)

    def valid(word: str) -> bool:
        return judge.judge_word(word).verdict is not Verdict.INVALID

    return valid, judge.name


def _full_frame_median(reader, result) -> float:
    import statistics

    from vision.replay import full_frame_ms

    times = full_frame_ms(reader, result.turns)
    return statistics.median(times) if times else 0.0


def _check_output(path: Path | None, suffixes: tuple[str, ...] | None = None) -> None:
    """Refuse an output file before the work, not after it: unknown type or a folder that is not there."""
    from vision.errors import ImageReadError
    from vision.imageio import WRITABLE

    if path is None:
        return
    allowed = suffixes or WRITABLE
    if path.suffix.lower() not in allowed:
        raise ImageReadError(f"{str(path)!r}: the output must end in {' or '.join(allowed)}")
    if not path.parent.is_dir():
        raise ImageReadError(f"{str(path)!r}: the folder {str(path.parent)!r} does not exist")
    # A file made and dropped there, not os.access: that answers for the real user only, and wrongly where the
    # access call is not passed through (seen under proot on the arm64 proof).
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError:
        raise ImageReadError(f"{str(path)!r}: the folder {str(path.parent)!r} is not writable") from None


def run_calibrate(args: argparse.Namespace) -> int:
    from engine.layout import load_layout
    from vision.calibrate import CalibrationRefused, calibrate_board, layout_draft
    from vision.imageio import write_image
    from vision.reader import load_frame

    if args.layout and args.grid and load_layout(args.layout).size != args.grid:
        from vision.errors import ProfileError

        raise ProfileError(f"layout {args.layout!r} is not {args.grid}x{args.grid}; pick a matching one")
    # A tile set named wrongly or a broken tile-set file is refused before any work on the photo.
    tileset = _rules(args.tiles).tileset if args.tiles else None
    _check_output(args.out, (".toml",))
    png = args.out.with_suffix(".png")
    name = args.name or args.out.stem
    try:
        result = calibrate_board(load_frame(args.photo), grid=args.grid, layout_name=args.layout, name=name)
    except CalibrationRefused as exc:
        write_image(png, exc.picture)  # what was looked at, so the user sees why
        raise
    result.profile.save(args.out)
    png = write_image(png, result.picture)
    n = result.geometry.grid
    print(f"{n}x{n} grid, line contrast {result.line_contrast:.2f}")
    if result.layout:
        print(f"premium layout: {result.layout} (colour fit {result.layout_fit:.1f})")
    else:
        print(f"premium layout: none of the known {n}x{n} layouts (best colour fit {result.layout_fit:.1f}); "
              "its colour classes:")
        for row in result.classes:
            print("  " + " ".join("." if v <= 0 else str(v) for v in row))
        if args.save_layout:
            args.save_layout.write_text(layout_draft(result.classes, args.save_layout.stem), encoding="utf-8")
            print(f"wrote the draft layout {args.save_layout}")
    if tileset is not None:
        print(_letters_known(tileset))
    print(f"wrote {args.out} and {png}")
    return 0


def _letters_known(tileset) -> str:
    """Which letters of a tile set the reader can read: the shipped letter model's, the rest rendered from
    the installed fonts (an edition we do not ship); letters no font has are named."""
    from vision.classifier import LetterClassifier

    letters = [letter for letter in tileset.alphabet if letter.isalpha()]
    missing = LetterClassifier(tileset.alphabet, arrows=tileset.arrows > 0).missing
    known = f"tile set {tileset.name}: the reader reads {len(letters) - len(missing)} of its {len(letters)} letters"
    if missing:
        return f"{known}; no installed font has {', '.join(missing)}: the player types those"
    return known

# SPDX-License-Identifier: GPL-3.0-or-later
"""Altered copies of board photos for robustness tests: light, exposure, blur, rotation, noise, JPEG, tilt, hands.

``python -m vision.variants SRC_DIR OUT_DIR`` writes one sub-folder per variant (photos keep their names,
other files such as the GCG are copied), so ``ordvakt replay OUT_DIR/warm --gcg ...`` runs on them.
``python -m vision.variants --evaluate`` makes every variant of game01-04 in a temp dir, reads each from its
photos alone, then compares with the record and prints per variant and game the occupancy errors (cells) and
the turns matched; ``--variants original turn90 turn180 turn270 shadow`` is issue 10's acceptance set, ``small``
its smallest board (a third of the size: about 19 px per cell on the shared photos); ``room`` and ``room-low`` lay
each photo on a table in a 2 MP frame seen from the side (10-25 and 25-35 degrees), the board turned any way.
"""

from __future__ import annotations

import re
import shutil
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageReadError


def white_balance(frame: np.ndarray, r: float, b: float) -> np.ndarray:
    return cv2.multiply(frame, np.array([b, 1.0, r, 0.0]), dtype=cv2.CV_8U)


def brightness(frame: np.ndarray, k: float) -> np.ndarray:
    return cv2.convertScaleAbs(frame, alpha=k)


def rotate(frame: np.ndarray, degrees: float) -> np.ndarray:
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(frame, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def noise(frame: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if decoded is None:
        raise ImageReadError(f"cannot re-encode a {frame.shape!r} frame as JPEG (quality {quality})")
    return decoded


def tilt(frame: np.ndarray, degrees: float) -> np.ndarray:
    """The camera tilted about the horizontal axis: a keystone (top edge narrower than the bottom)."""
    h, w = frame.shape[:2]
    shrink = np.tan(np.radians(degrees)) * 0.5 * w * 0.5
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[shrink, 0], [w - shrink, 0], [w, h], [0, h]], np.float32)
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(src, dst), (w, h), borderMode=cv2.BORDER_REPLICATE)


def hand(frame: np.ndarray, *, seed: int = 0, reach: float = 0.45) -> np.ndarray:
    """Paste a shaded, skin-coloured arm and hand reaching in from the bottom edge."""
    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    out = frame.copy()
    mask: np.ndarray = np.zeros((h, w), np.uint8)
    x = int(w * rng.uniform(0.3, 0.7))
    tip = (int(x + w * rng.uniform(-0.1, 0.1)), int(h * (1 - reach)))
    cv2.line(mask, (x, h), tip, 255, int(w * 0.11))
    cv2.ellipse(mask, tip, (int(w * 0.08), int(h * 0.07)), float(rng.uniform(0, 180)), 0, 360, 255, -1)
    mask = cv2.GaussianBlur(mask, (15, 15), 0)
    skin = np.zeros_like(frame, np.float32)
    skin[:] = (120, 150, 205)  # BGR skin tone
    shade = cv2.GaussianBlur((rng.random((h // 16, w // 16)) * 0.5 + 0.75).astype(np.float32), (5, 5), 0)
    shade = cv2.resize(shade, (w, h))
    skin *= shade[..., None]
    alpha = (mask.astype(np.float32) / 255)[..., None]
    out = (frame * (1 - alpha) + skin * alpha).clip(0, 255).astype(np.uint8)
    # The arm's shadow falls beside it.
    shadow = np.roll(mask, (int(h * 0.02), int(w * 0.03)), axis=(0, 1)).astype(np.float32) / 255
    shadow = shadow * (1 - alpha[..., 0])
    return (out * (1 - 0.35 * shadow[..., None])).astype(np.uint8)


def shadow(frame: np.ndarray, *, position: float = 0.5, strength: float = 0.45, angle: float = 30.0) -> np.ndarray:
    """A soft-edged shadow band (a player's arm or body between the lamp and the board) across the
    frame; ``position`` 0..1 moves it from the left to the right edge."""
    h, w = frame.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.uint8)
    centre = (int(w * position), h // 2)
    box = cv2.boxPoints((centre, (w * 0.18, h * 1.6), angle)).astype(np.int32)
    cv2.fillConvexPoly(mask, box, 255)
    soft = cv2.GaussianBlur(mask, (0, 0), w * 0.02).astype(np.float32) / 255
    return (frame * (1 - strength * soft)[..., None]).clip(0, 255).astype(np.uint8)


def glare(frame: np.ndarray, *, centre: tuple[float, float] = (0.6, 0.35), size: float = 0.12,
          strength: float = 0.7) -> np.ndarray:
    """A lamp's reflection on a glossy board: a bright, colourless blob (``centre`` as fractions of the frame,
    ``size`` its radius as a fraction of the frame's width) that washes the print and the tiles out towards white."""
    h, w = frame.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = ((xx - centre[0] * w) ** 2 + ((yy - centre[1] * h) * 1.4) ** 2) / (size * w) ** 2
    alpha = (strength * np.exp(-r2)).astype(np.float32)[..., None]
    return (frame * (1 - alpha) + 255 * alpha).clip(0, 255).astype(np.uint8)


VARIANTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "warm": lambda f: white_balance(f, 1.15, 0.8),
    "cool": lambda f: white_balance(f, 0.85, 1.15),
    "dark": lambda f: brightness(f, 0.6),
    "bright": lambda f: brightness(f, 1.3),
    "blur": lambda f: cv2.GaussianBlur(f, (7, 7), 0),
    "rotate2": lambda f: rotate(f, 2.0),
    "noise8": lambda f: noise(f, 8.0),
    "jpeg30": lambda f: jpeg(f, 30),
    "tilt10": lambda f: tilt(f, 10.0),
    # The acceptance set of issue 10: the board turned a quarter, half and three quarters, a still shadow band.
    "turn90": lambda f: np.ascontiguousarray(np.rot90(f, -1)),
    "turn180": lambda f: np.ascontiguousarray(np.rot90(f, 2)),
    "turn270": lambda f: np.ascontiguousarray(np.rot90(f, 1)),
    "shadow": lambda f: shadow(f, position=0.45),
    "glare": lambda f: glare(f),
    "glare-strong": lambda f: glare(f, centre=(0.4, 0.55), size=0.18, strength=0.85),
    # The smallest board: about 20 px per cell (the shared photos show some 60 px per cell).
    "small": lambda f: cv2.resize(f, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA),
}


#: The photos laid on a table and photographed again from the side (vision.synthetic.in_room): the board one
#: object in a 2 MP room frame, turned any way, with the real tiles and letters of the photo. The table, light
#: and pose follow from the folder's name, so every photo of a game shares them; now and then the board is knocked
#: (a photo ``image-N`` shows it after the knocks of photos 1 to N).
ROOM_VARIANTS: dict[str, dict] = {
    "room": {"background_kind": "wood", "tilt": (10.0, 25.0), "fill": (0.6, 0.8), "light": "warm"},
    "room-low": {"background_kind": "cloth", "tilt": (25.0, 35.0), "fill": (0.45, 0.6), "light": "neutral"},
}


def variant_names() -> list[str]:
    """Every variant: the alterations of a photo alone, then the room scenes."""
    return [*VARIANTS, *ROOM_VARIANTS]


def unknown_variant(names: list[str]) -> str | None:
    """The one-line complaint about the first of ``names`` that is no variant (nor ``original``), or None.

    >>> unknown_variant(["original", "room"]), unknown_variant(["rooom"])[:24]
    (None, "unknown variant 'rooom';")
    """
    unknown = [name for name in names if name != "original" and name not in variant_names()]
    if not unknown:
        return None
    return f"unknown variant {unknown[0]!r}; expected one of: original, {', '.join(variant_names())}"


def bench_variants(argv: list[str], data: Path) -> list[str] | str:
    """The variants a bench over the photo games in ``data`` was asked for (default: original, room, room-low), or
    its complaint: the photos are missing, or a name is no variant."""
    if not data.is_dir():
        return f"needs the shared photos in {data}"
    names = argv or ["original", "room", "room-low"]
    return unknown_variant(names) or names


def altered(name: str, frame: np.ndarray, folder: str, photo: str) -> np.ndarray:
    """``frame`` (the photo named ``photo``, without its suffix, in the game folder named ``folder``) as the
    variant ``name`` alters it; a room scene's table and pose follow from the folder, its knocks from the photo's
    number."""
    if name in ROOM_VARIANTS:
        from vision.synthetic import in_room

        digits = re.search(r"(\d+)$", photo)  # image-N: the board after move N
        return in_room(frame, seed=zlib.crc32(folder.encode()), photo=int(digits.group(1)) if digits else 0,
                       **ROOM_VARIANTS[name])
    return VARIANTS[name](frame)


def write_variants(src: Path, out: Path, names: list[str] | None = None) -> None:
    for name in names or variant_names():
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(src.iterdir()):
            if path.suffix.lower() in (".jpg", ".jpeg", ".png"):
                frame = cv2.imread(str(path))
                if frame is None:
                    raise ImageReadError(f"cannot read photo {str(path)!r}: not an image OpenCV can decode")
                # Lossless and light compression: the variant itself decides what is lost.
                cv2.imwrite(str(target / (path.stem + ".png")), altered(name, frame, src.name, path.stem),
                            [cv2.IMWRITE_PNG_COMPRESSION, 1])
            elif path.is_file():
                shutil.copy(path, target / path.name)


@dataclass(frozen=True)
class VariantScore:
    variant: str
    game: str
    photos: int
    #: Cells whose occupancy (tile or not) differs from the record's board, summed over the photos.
    occupancy_errors: int
    #: Photos the reader refused (covered, no board): their cells are not counted above.
    unread: int
    matched: int
    compared: int


def record_boards(game_dir: Path, rules, lettered_rows: bool) -> list[set]:
    """The occupied squares after each record line (index N-1 is what ``image-N`` shows)."""
    from engine.game import Game
    from engine.gcg import replay
    from vision.replay import load_record

    record = load_record(next(game_dir.glob("*.gcg")))
    live = Game(rules, ["a", "b"])
    out = []
    for event in replay(record, rules=rules, lettered_rows=lettered_rows).game.events:
        live.play(event.move, player=event.player, check=False)
        out.append({sq for sq, cell in live.board if not cell.is_stop})
    return out


def evaluate(game_dir: Path, rules, profile: str = "scrabscrap",
             lettered_rows: bool = True, words=None) -> tuple[int, int, int, int, int]:
    """(photos, occupancy errors, unread photos, turns matched, turns compared) for one folder; ``words``:
    the dictionary the replay names blanks and settles close calls with (None: the rules alone)."""
    from vision.profile import load_profile
    from vision.reader import BoardReader
    from vision.replay import image_number, load_record, replay_photos

    truth = record_boards(game_dir, rules, lettered_rows)
    reader = BoardReader(load_profile(profile), rules.tileset)
    record = load_record(next(game_dir.glob("*.gcg")))
    result = replay_photos(game_dir, reader, rules, record=record, orientation=lettered_rows, words=words)
    errors = unread = 0
    for turn in result.turns:
        number = image_number(turn.photo)
        reading = turn.reading
        if reading is None or reading.occupancy is None or turn.proposal.kind.value in ("covered", "no-board"):
            unread += 1
            continue
        if number is not None and 0 < number <= len(truth):
            errors += len(reading.occupied() ^ truth[number - 1])
    return len(result.turns), errors, unread, result.matched, len(result.compared)


def evaluate_all(data: Path, names: list[str], games: list[str], *, keep: Path | None = None,
                 lettered_rows: bool = True, words=None) -> list[VariantScore]:
    import tempfile

    from engine.rules import Rules

    rules = Rules.scrabble("de")
    scores = []
    with tempfile.TemporaryDirectory(prefix="ordvakt-variants-") as tmp:
        root = keep or Path(tmp)
        for game in games:
            src = data / game
            write_variants(src, root / game, [n for n in names if n != "original"])
            for name in names:
                folder = src if name == "original" else root / game / name
                photos, errors, unread, matched, compared = evaluate(folder, rules, lettered_rows=lettered_rows,
                                                                     words=words)
                scores.append(VariantScore(name, game, photos, errors, unread, matched, compared))
                print(f"{name:9s} {game}: occupancy errors {errors:3d}, unread {unread}, "
                      f"turns {matched}/{compared}", file=sys.stderr, flush=True)
    return scores


def table(scores: list[VariantScore], games: list[str]) -> str:
    lines = ["variant    " + "  ".join(f"{g:>16s}" for g in games) + "   total occ.err  turns"]
    for name in dict.fromkeys(s.variant for s in scores):
        row = {s.game: s for s in scores if s.variant == name}
        cells = [f"{row[g].occupancy_errors:>3d} err {row[g].matched:>3d}/{row[g].compared:<3d}"
                 + ("!" if row[g].unread else " ") for g in games]
        occ = sum(s.occupancy_errors for s in row.values())
        m, c = sum(s.matched for s in row.values()), sum(s.compared for s in row.values())
        lines.append(f"{name:10s} " + "  ".join(f"{x:>16s}" for x in cells) + f"   {occ:9d}  {m:3d}/{c}")
    lines.append("(err: cells whose occupancy differs from the record, over every photo; n/m: turns matched; "
                 "!: some photos refused)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m vision.variants", description=__doc__)
    ap.add_argument("src", nargs="?", type=Path, help="photo folder to alter (with OUT_DIR)")
    ap.add_argument("out", nargs="?", type=Path, help="where the variant folders go")
    ap.add_argument("--evaluate", action="store_true",
                    help="alter every game in --data in a temp dir, replay each variant, print the table")
    ap.add_argument("--data", type=Path, default=Path("../shared/data/photos/scrabscrap"))
    ap.add_argument("--games", nargs="*", default=["game01", "game02", "game03", "game04"])
    ap.add_argument("--variants", nargs="*", default=["original", *variant_names()])
    ap.add_argument("--keep", type=Path, help="write the variants here instead of a temp dir")
    ap.add_argument("--orientation", choices=("lettered-rows", "standard"), default="lettered-rows",
                    help="how the records name positions (the scrabscrap records use lettered rows)")
    args = ap.parse_args(argv)
    if (complaint := unknown_variant(args.variants)) is not None:
        ap.error(complaint)
    if args.evaluate:
        if not args.data.is_dir():
            print(f"missing {args.data}: the shared photos are needed", file=sys.stderr)
            return 2
        scores = evaluate_all(args.data, args.variants, args.games, keep=args.keep,
                              lettered_rows=args.orientation == "lettered-rows")
        print(table(scores, args.games))
        return 0
    if args.src is None or args.out is None:
        ap.error("give SRC_DIR OUT_DIR, or --evaluate")
    write_variants(args.src, args.out, [v for v in args.variants if v != "original"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

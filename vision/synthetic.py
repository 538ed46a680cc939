# SPDX-License-Identifier: GPL-3.0-or-later
"""Deterministic synthetic camera scenes of word-game boards, with their ground truth.

Everything is drawn with numpy/OpenCV from a seed (letters with the fonts :mod:`vision.fonts` uses, through
pygame.freetype), so a seed always gives the same picture. A scene is a board of one *style* lying on a
procedural *background* (wood, cloth, carpet), seen by a camera at up to 35 degrees from straight down and
turned any way, filling 25-100 % of the frame (the grid's larger side is 0.5-1.0 of the frame's shorter
side), under a light gradient and a warm/cool/neutral cast, maybe a still shadow band, a hand at an edge,
stray tiles beside the board, then camera noise, blur and JPEG.

API (other modules and tests rely on these names)::

    scene = render_scene(seed, style="classic")        # style: one of STYLES, or None = chosen by the seed
    scene.image                                        # BGR uint8 frame (default 1600x1200, 2 MP)
    scene.truth.grid                                   # 15 or 17
    scene.truth.corners                                # (4, 2) float: the grid's outer corners in pixels,
                                                       # clockwise from the outer corner of square A1 (row 0, col 0)
    scene.truth.rows                                   # n strings of n: '.', a letter, lower case = a blank
                                                       # standing for that letter
    scene.truth.visible_rows()                         # what a reader can see: blanks as '?'
    scene.truth.to_dict()                              # JSON-ready (corners as lists)
    for scene in scene_set(300, first_seed=0): ...     # styles cycle, every other setting from the seed
    game = synthetic_game(seed, style="tournament")    # a whole game from a real GCG record (racks beside the board)
    game.frames[i]                                     # Scene of the board after move i+1 (board may be moved,
                                                       # turned by quarter turns, hands/racks around it)
    game.gcg                                           # the record text of the moves shown (to compare with)
    game.rules                                         # engine Rules of the game

Board coordinates stay the board's: ``rows[0]`` is the row from corners[0] to corners[1] whatever way the
board lies in the frame. ``Scene.truth.board_turns`` says how many quarter turns (clockwise in the image)
the board was given, ``letter_turns`` which way the letters on it face.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.layout import load_layout
from engine.squares import Square
from engine.tiles import ARROW
from vision.glyphs import draw_arrow

STYLES = ("classic", "tournament", "alfapet")
#: The built-in profile (vision/data/profiles) a player of each board style would start from, with no calibration
#: photo; the vintage board has none of its own and starts from the classic one.
STYLE_PROFILES = {"classic": "classic-scrabble", "tournament": "scrabscrap", "alfapet": "alfapet-17",
                  "vintage": "classic-scrabble"}
BACKGROUNDS = ("wood", "cloth", "carpet")
FRAME_SIZE = (1600, 1200)  # width, height: 1.92 MP
#: Canonical drawing resolution, pixels per cell, before the board is warped into the frame.
DRAW_PX = 56
GCG_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "woogles"


@dataclass(frozen=True)
class BoardStyle:
    """How a printed board looks (BGR colours)."""

    name: str
    grid: int
    layout: str
    plain: tuple[int, int, int]
    line: tuple[int, int, int]
    line_width: float  # fraction of a cell
    premiums: dict[str, tuple[int, int, int]]
    rim: tuple[int, int, int]
    rim_cells: float  # printed rim around the grid, in cells
    strip: tuple[int, int, int] | None  # a printed score strip on one side of the rim
    tile: tuple[int, int, int]
    ink: tuple[int, int, int]


BOARD_STYLES = {
    "classic": BoardStyle(
        "classic", 15, "scrabble-15", plain=(196, 218, 226), line=(240, 244, 245), line_width=0.07,
        premiums={"L2": (225, 200, 140), "L3": (190, 120, 30), "W2": (170, 160, 240), "W3": (50, 45, 205),
                  "*": (170, 160, 240)},
        rim=(40, 40, 185), rim_cells=1.3, strip=(30, 30, 200), tile=(160, 205, 232), ink=(25, 25, 30)),
    "tournament": BoardStyle(
        "tournament", 15, "scrabble-15", plain=(60, 112, 10), line=(35, 70, 8), line_width=0.06,
        premiums={"L2": (205, 160, 90), "L3": (150, 75, 10), "W2": (125, 130, 250), "W3": (50, 45, 235),
                  "*": (125, 130, 250)},
        rim=(30, 45, 20), rim_cells=0.7, strip=None, tile=(200, 222, 232), ink=(20, 20, 20)),
    "alfapet": BoardStyle(
        "alfapet", 17, "alfapet-17", plain=(150, 120, 80), line=(215, 205, 190), line_width=0.08,
        premiums={"L2": (225, 195, 135), "L3": (165, 95, 35), "L4": (125, 45, 95), "W2": (150, 145, 235),
                  "W3": (60, 55, 215), "W4": (35, 25, 145), "M2": (85, 85, 85), "*": (60, 180, 230)},
        rim=(120, 70, 30), rim_cells=1.0, strip=(200, 200, 200), tile=(235, 240, 242), ink=(30, 30, 30)),
    # An older board, not in STYLES (the scene sets stay as they were): tan squares and white lines like the jheidel
    # board2014 photos, dark wooden tiles with light letters like older wooden sets. Drawn only when asked for by name.
    "vintage": BoardStyle(
        "vintage", 15, "scrabble-15", plain=(95, 122, 145), line=(232, 236, 238), line_width=0.08,
        premiums={"L2": (215, 195, 140), "L3": (175, 125, 45), "W2": (185, 165, 235), "W3": (65, 55, 215),
                  "*": (185, 165, 235)},
        rim=(120, 150, 172), rim_cells=1.6, strip=(235, 238, 240), tile=(50, 85, 140), ink=(225, 230, 235)),
}


@dataclass(frozen=True)
class SceneTruth:
    grid: int
    corners: np.ndarray  # (4, 2) float32, clockwise from the outer corner of A1
    rows: tuple[str, ...]
    style: str
    background: str
    seed: int
    board_turns: int = 0
    letter_turns: int = 0
    tilt_deg: float = 0.0
    fill: float = 0.0
    light: str = "neutral"
    shadow: bool = False
    hand: bool = False
    stray_tiles: int = 0
    extras: dict = field(default_factory=dict)

    @property
    def cell_px(self) -> float:
        """Mean side of a cell in frame pixels."""
        c = self.corners
        sides = [np.linalg.norm(c[(i + 1) % 4] - c[i]) for i in range(4)]
        return float(np.mean(sides)) / self.grid

    def visible_rows(self) -> list[str]:
        """The rows as a reader sees them: a blank tile shows no letter, so it is '?'."""
        return ["".join("?" if ch.islower() else ch for ch in row) for row in self.rows]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["corners"] = [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners]
        d["rows"] = list(self.rows)
        return d


def corner_error(found: np.ndarray, truth: np.ndarray, grid: int) -> float:
    """Largest distance, in cells, between found grid corners and true ones, under the best of the four
    ways of naming the corners (a symmetric layout does not tell which corner is A1)."""
    truth = np.asarray(truth, np.float64)
    cell = np.mean([np.linalg.norm(truth[(i + 1) % 4] - truth[i]) for i in range(4)]) / grid
    return min(float(np.abs(np.roll(np.asarray(found, np.float64), -k, axis=0) - truth).max()) for k in range(4)) / cell


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    truth: SceneTruth


@dataclass(frozen=True)
class SyntheticGame:
    frames: list[Scene]
    gcg: str
    rules: object
    source: str


# ---------------------------------------------------------------- letters

_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "FreeSansBold.ttf")


@functools.cache
def _font_paths() -> tuple[str, ...]:
    from vision.fonts import FONT_DIRS

    found = {f: str(d / f) for f in _FONTS for d in FONT_DIRS if (d / f).is_file()}
    missing = [f for f in _FONTS if f not in found]
    if missing:
        # Drawn with fewer fonts the same seed gives another scene, and the scene set's figures no longer hold.
        raise FileNotFoundError(f"synthetic scenes need the fonts {', '.join(missing)} in "
                                f"{' or '.join(map(str, FONT_DIRS))}: apt-get install fonts-dejavu-core "
                                "fonts-dejavu-extra fonts-liberation fonts-freefont-ttf "
                                "(python3 device/bootstrap.py setup does)")
    return tuple(found[f] for f in _FONTS)


@functools.cache
def _glyph(text: str, font_index: int, size: int) -> np.ndarray:
    """Coverage mask (float32 0..1) of ``text`` drawn in one of the tile fonts, tight box."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype  # noqa: PLC0415 - only needed to draw letters
    import pygame.surfarray  # noqa: PLC0415

    pygame.freetype.init()
    fonts = _font_paths()
    font = pygame.freetype.Font(fonts[font_index % len(fonts)], size)
    surf, _ = font.render(text, fgcolor=(255, 255, 255), bgcolor=(0, 0, 0))
    mask = pygame.surfarray.array3d(surf)[..., 0].T.astype(np.float32) / 255.0
    ys, xs = np.nonzero(mask > 0.05)
    if len(ys) == 0:
        return np.zeros((1, 1), np.float32)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _paste(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Blend ``colour`` into ``img`` through ``mask`` with its top-left at (x, y) (clipped)."""
    h, w = mask.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


def tile_image(letter: str, px: int, style: BoardStyle, rng: np.random.Generator, *, value: int | None = None,
               font_index: int = 0) -> np.ndarray:
    """A square tile, ``px`` pixels, letter upright (a blank when ``letter`` is '' or lower case, an arrow
    tile when it is ``^``)."""
    tone = rng.uniform(0.9, 1.05)
    tile = np.empty((px, px, 3), np.uint8)
    tile[:] = np.clip(np.array(style.tile, np.float32) * tone, 0, 255).astype(np.uint8)
    # A little grain and a darker edge, like wood or plastic under light.
    grain = rng.normal(0, 4, (px, px, 1)).astype(np.float32)
    tile = np.clip(tile.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    edge = max(1, px // 18)
    cv2.rectangle(tile, (0, 0), (px - 1, px - 1), tuple(int(v * 0.75) for v in tile[px // 2, px // 2]), edge)
    if letter == ARROW:  # an Alfapet arrow tile (no value)
        draw_arrow(tile, style.ink)
        return tile
    if letter and not letter.islower():
        glyph = _glyph(letter, font_index, int(px * 0.62))
        scale = min(px * 0.62 / glyph.shape[0], px * 0.62 / glyph.shape[1])
        glyph = cv2.resize(glyph, (max(1, int(glyph.shape[1] * scale)), max(1, int(glyph.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
        gx = (px - glyph.shape[1]) // 2 - px // 16
        gy = (px - glyph.shape[0]) // 2
        _paste(tile, glyph, gx, gy, style.ink)
        if value is not None:
            digit = _glyph(str(value), font_index, int(px * 0.22))
            dh = max(1, int(px * 0.2))
            digit = cv2.resize(digit, (max(1, int(digit.shape[1] * dh / digit.shape[0])), dh),
                               interpolation=cv2.INTER_AREA)
            _paste(tile, digit, px - digit.shape[1] - px // 10, px - dh - px // 10, style.ink)
    return tile


# ---------------------------------------------------------------- the board


def premium_codes(layout_name: str) -> list[list[str]]:
    layout = load_layout(layout_name)
    n = layout.size
    return [["*" if Square(r, c) == layout.centre else layout.premium(Square(r, c)).value for c in range(n)]
            for r in range(n)]


def _draw_board(style: BoardStyle, rng: np.random.Generator, px: int = DRAW_PX) -> tuple[np.ndarray, int]:
    """The empty board top-down with its rim; returns (image, rim width in pixels)."""
    n = style.grid
    rim = int(round(style.rim_cells * px))
    side = n * px + 2 * rim
    img = np.empty((side, side, 3), np.uint8)
    img[:] = style.rim
    img[rim : rim + n * px, rim : rim + n * px] = style.line
    codes = premium_codes(style.layout)
    lw = max(1, int(round(style.line_width * px / 2)))
    for r in range(n):
        for c in range(n):
            colour = style.premiums.get(codes[r][c], style.plain) if codes[r][c] != "." else style.plain
            x0, y0 = rim + c * px + lw, rim + r * px + lw
            cv2.rectangle(img, (x0, y0), (x0 + px - 2 * lw - 1, y0 + px - 2 * lw - 1), colour, -1)
            if codes[r][c] == "*":
                cx, cy = rim + c * px + px // 2, rim + r * px + px // 2
                star = np.array([[cx + px * 0.3 * math.cos(a) * (1 if i % 2 == 0 else 0.45),
                                  cy + px * 0.3 * math.sin(a) * (1 if i % 2 == 0 else 0.45)]
                                 for i, a in enumerate(np.linspace(-math.pi / 2, 1.5 * math.pi, 11)[:-1])], np.int32)
                cv2.fillPoly(img, [star], (30, 30, 30))
            elif codes[r][c] != "." and px >= 30:
                # Premium squares carry small print ("DOUBLE WORD SCORE"): a few dark dashes.
                for k in range(3):
                    y = y0 + (k + 1) * (px - 2 * lw) // 4
                    cv2.line(img, (x0 + px // 6, y), (x0 + px - 2 * lw - px // 6, y), (245, 245, 245), 1)
    if style.strip is not None and rim > 4:
        # A printed strip with the game's name on one side only: the rim that tells the board's orientation.
        cv2.rectangle(img, (0, 0), (rim - 2, side - 1), style.strip, -1)
        for k in range(6):
            y = int(side * (0.2 + 0.1 * k))
            cv2.rectangle(img, (rim // 5, y), (rim - rim // 5, y + int(rim * 0.6)), (235, 235, 235), 2)
        text_px = int(rim * 0.55)
        word = _glyph("SCRABBLE" if n == 15 else "ALFAPET", 0, max(8, text_px))
        word = cv2.rotate(cv2.resize(word, (int(side * 0.3), text_px)), cv2.ROTATE_90_COUNTERCLOCKWISE)
        _paste(img, word, (rim - word.shape[1]) // 2, int(side * 0.05), (240, 240, 240))
    # The grid's outer border line.
    cv2.rectangle(img, (rim - lw, rim - lw), (rim + n * px + lw, rim + n * px + lw), style.line, max(1, lw))
    return img, rim


def _place_tiles(board: np.ndarray, rim: int, rows: list[str], style: BoardStyle, rng: np.random.Generator,
                 letter_turns: int, mixed: bool, px: int = DRAW_PX) -> None:
    values = _letter_values()
    font_index = int(rng.integers(0, 4))
    size = int(px * rng.uniform(0.86, 0.94))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            tile = tile_image(ch, size, style, rng, value=None if ch.islower() else values.get(ch, 1),
                              font_index=font_index)
            turns = int(rng.integers(0, 4)) if mixed else letter_turns
            tile = np.rot90(tile, -turns).copy()
            jitter = rng.uniform(-6, 6)
            dx, dy = rng.uniform(-0.04, 0.04, 2) * px
            cx, cy = rim + (c + 0.5) * px + dx, rim + (r + 0.5) * px + dy
            _blit_rotated(board, tile, cx, cy, jitter, shadow=True)


def _blit_rotated(dst: np.ndarray, tile: np.ndarray, cx: float, cy: float, angle: float, *,
                  shadow: bool = False) -> None:
    """Draw ``tile`` centred at (cx, cy), turned by ``angle`` degrees, with a soft contact shadow."""
    h, w = tile.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[0, 2] += cx - w / 2
    m[1, 2] += cy - h / 2
    size = (dst.shape[1], dst.shape[0])
    x0, y0 = int(max(cx - w, 0)), int(max(cy - h, 0))
    x1, y1 = int(min(cx + w, dst.shape[1])), int(min(cy + h, dst.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    m_local = m.copy()
    m_local[0, 2] -= x0
    m_local[1, 2] -= y0
    size = (x1 - x0, y1 - y0)
    alpha = cv2.warpAffine(np.ones((h, w), np.float32), m_local, size)
    patch = cv2.warpAffine(tile, m_local, size)
    region = dst[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        sh = cv2.GaussianBlur(np.roll(np.roll(alpha, 2, 0), 2, 1), (0, 0), max(1.0, w / 25))
        region *= 1 - 0.35 * sh[..., None]
    a = alpha[..., None]
    dst[y0:y1, x0:x1] = (region * (1 - a) + patch.astype(np.float32) * a).astype(np.uint8)


@functools.cache
def _letter_values() -> dict[str, int]:
    from engine.tiles import load_tileset

    return dict(load_tileset("scrabble-en").values)


# ---------------------------------------------------------------- backgrounds and light


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    h, w = shape
    small = rng.normal(0, 1, (max(2, cells * h // max(h, w)), max(2, cells * w // max(h, w)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(kind: str, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A procedural table surface: ``wood``, ``cloth`` or ``carpet``."""
    h, w = shape
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        warp = _smooth_noise(rng, shape, 6) * rng.uniform(6, 14)
        rings = np.sin(u / rng.uniform(9, 20) + warp) * 0.5 + 0.5
        fine = _smooth_noise(rng, shape, 160) * 0.15
        t = np.clip(rings * 0.8 + fine, 0, 1)[..., None]
        light = np.float32(rng.uniform([60, 110, 160], [100, 150, 200]))
        dark = light * rng.uniform(0.6, 0.85)
        img = dark * (1 - t) + light * t
    elif kind == "cloth":
        base = np.array(rng.uniform(40, 220, 3), np.float32)
        period = rng.uniform(3, 6)
        weave = (np.sin(xx * 2 * math.pi / period) * np.sin(yy * 2 * math.pi / period)) * 10
        folds = _smooth_noise(rng, shape, 5) * 18
        img = base[None, None, :] + (weave + folds)[..., None]
    else:  # carpet
        base = np.array(rng.uniform([90, 100, 110], [170, 180, 190]), np.float32)
        pile = rng.standard_normal((h, w), dtype=np.float32) * np.float32(22)
        pile = cv2.GaussianBlur(pile, (0, 0), 1.2) * 1.8
        blotch = _smooth_noise(rng, shape, 30) * 8
        img = base[None, None, :] + (pile + blotch)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _light(img: np.ndarray, rng: np.random.Generator, kind: str) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / max(h, w)
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    strength = rng.uniform(0.15, 0.5)
    field = ((1 - strength / 2) + strength * ramp).astype(np.float32)
    gains = {"neutral": (1.0, 1.0, 1.0), "tungsten": (0.7, 0.95, 1.2), "warm": (0.8, 1.0, 1.15),
             "cool": (1.15, 1.0, 0.85)}[kind]
    exposure = rng.uniform(0.75, 1.15)
    return img * field[..., None] * (np.array(gains, np.float32) * np.array(exposure, np.float32))


def _shadow_band(img: np.ndarray, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    angle = rng.uniform(0, math.pi)
    u = xx * math.cos(angle) + yy * math.sin(angle)
    centre = rng.uniform(np.percentile(u, 25), np.percentile(u, 75))
    half = rng.uniform(0.04, 0.12) * max(h, w)
    soft = half * 0.3
    inside = np.clip((half - np.abs(u - centre)) / soft + 0.5, 0, 1)
    img *= (1 - rng.uniform(0.35, 0.55) * inside)[..., None]


def _hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray) -> None:
    """A skin-coloured arm and hand reaching in from the frame edge nearest to a point of the board."""
    h, w = img.shape[:2]
    tx, ty = target
    edges = [(tx, 0), (tx, h), (0, ty), (w, ty)]
    sx, sy = edges[int(np.argmin([abs(ty), abs(h - ty), abs(tx), abs(w - tx)]))]
    skin = np.float32(rng.uniform([70, 100, 150], [130, 160, 225]))
    mask = np.zeros((h, w), np.uint8)
    width = int(rng.uniform(0.06, 0.1) * min(h, w))
    reach = rng.uniform(0.5, 0.9)
    ex, ey = int(sx + (tx - sx) * reach), int(sy + (ty - sy) * reach)
    cv2.line(mask, (int(sx), int(sy)), (ex, ey), 255, width)
    cv2.ellipse(mask, (ex, ey), (int(width * 0.8), int(width * 0.6)), rng.uniform(0, 180), 0, 360, 255, -1)
    alpha = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[..., None] / 255
    shade = 0.85 + 0.3 * _smooth_noise(rng, (h, w), 8)[..., None] * 0.3
    img[:] = img * (1 - alpha) + skin * shade * alpha


def _camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(1.5, 5.0))
    out = np.clip(out, 0, 255).astype(np.uint8)
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 93))])
    decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else decoded


# ---------------------------------------------------------------- camera geometry


def _projection(rng: np.random.Generator, side: float, grid_lo: float, grid_hi: float, frame: tuple[int, int],
                *, yaw: float, tilt: float, fill: float) -> tuple[np.ndarray, np.ndarray]:
    """Homography from the drawn board (pixels) into the frame, and the grid corners in the frame.

    The board plane is turned by ``yaw`` degrees, tilted by ``tilt`` degrees about a random axis and seen
    by a pinhole camera; the picture is then scaled so that the grid's larger side is ``fill`` of the
    frame's shorter side and moved to a random place where the whole grid is in view.
    """
    w, h = frame
    c = side / 2
    board = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    grid = np.array([[grid_lo, grid_lo], [grid_hi, grid_lo], [grid_hi, grid_hi], [grid_lo, grid_hi]], np.float32)
    yaw_r, tilt_r = math.radians(yaw), math.radians(tilt)
    axis = rng.uniform(0, 2 * math.pi)
    rz = np.array([[math.cos(yaw_r), -math.sin(yaw_r), 0], [math.sin(yaw_r), math.cos(yaw_r), 0], [0, 0, 1]])
    ax = np.array([math.cos(axis), math.sin(axis), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    rt = np.eye(3) + math.sin(tilt_r) * k + (1 - math.cos(tilt_r)) * (k @ k)
    rot = rt @ rz
    distance = side * rng.uniform(1.4, 2.6)

    def project(pts: np.ndarray) -> np.ndarray:
        p3 = np.column_stack([pts[:, 0] - c, pts[:, 1] - c, np.zeros(len(pts))]) @ rot.T
        z = distance + p3[:, 2]
        return np.column_stack([p3[:, 0] / z, p3[:, 1] / z]) * distance

    g = project(grid)
    span = max(float(np.ptp(g[:, 0])), float(np.ptp(g[:, 1])))
    scale = fill * min(w, h) / span
    g = g * scale
    lo, hi = g.min(axis=0), g.max(axis=0)
    margin = 0.01 * min(w, h)
    room_x = (w - margin * 2) - (hi[0] - lo[0])
    room_y = (h - margin * 2) - (hi[1] - lo[1])
    off = np.array([margin - lo[0] + rng.uniform(0, max(room_x, 0)), margin - lo[1] + rng.uniform(0, max(room_y, 0))])
    dst_board = (project(board) * scale + off).astype(np.float32)
    hom = cv2.getPerspectiveTransform(board, dst_board)
    corners = (g + off).astype(np.float32)
    return hom, corners


def in_room(picture: np.ndarray, *, seed: int, photo: int, background_kind: str = "wood",
            tilt: tuple[float, float] = (10.0, 25.0), fill: tuple[float, float] = (0.6, 0.8),
            light: str = "warm", frame_size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    """A photo of a board, cropped to it (a real one: its tiles and letters as a camera saw them), laid on a
    table and photographed again from the side: a 2 MP room frame.

    ``seed`` fixes the table, the light, how the board lies (turned any way, ``tilt`` degrees from straight
    down, its larger side ``fill`` of the frame's shorter side) and the camera, so the photos of one game share
    them; ``photo`` (the photo's number in the game) draws its own noise, and before about one photo in six a
    player knocks the board (up to a third of a cell and 2 degrees): it stays where it was knocked."""
    rng = np.random.default_rng(seed)
    h, w = picture.shape[:2]
    side = max(h, w)
    square = picture if h == w else cv2.resize(picture, (side, side), interpolation=cv2.INTER_LINEAR)
    hom, corners = _projection(rng, side, 0, side, frame_size, yaw=float(rng.uniform(0, 360)),
                               tilt=float(rng.uniform(*tilt)), fill=float(rng.uniform(*fill)))
    fw, fh = frame_size
    table = background(background_kind, (fh, fw), rng).astype(np.float32)
    # Knocks reach a third of a cell of a 15 x 15 board (the photo's side in the frame over 15: rim included).
    cell = float(np.linalg.norm(corners[1] - corners[0])) / 15
    for knock in range(1, photo + 1):
        knocks = np.random.default_rng((seed, knock, 2))
        if knocks.random() < 1 / 6:
            centre = cv2.perspectiveTransform(np.array([[[side / 2, side / 2]]], np.float64), hom).reshape(2)
            nudge = np.asarray(cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])),
                                                       float(knocks.uniform(-2, 2)), 1.0), np.float64)
            nudge[:, 2] += knocks.uniform(-1, 1, 2) * cell / 3
            hom = np.vstack([nudge, [0, 0, 1]]) @ hom
    img = _on_table(table, square, hom, cv2.INTER_AREA)
    # The same light on every photo of the game: its own stream from the seed.
    img = _light(img, np.random.default_rng((seed, 1, 0)), light)
    return _camera(np.clip(img, 0, 255), np.random.default_rng((seed, photo)))


def _on_table(table: np.ndarray, board: np.ndarray, hom: np.ndarray, interpolation: int) -> np.ndarray:
    """``board`` (a square picture) laid on ``table`` (float32, changed) where ``hom`` puts it, with the soft
    shadow its thickness casts."""
    h, w = table.shape[:2]
    warped = cv2.warpPerspective(board, hom, (w, h), flags=interpolation)
    alpha = cv2.warpPerspective(np.ones(board.shape[:2], np.float32), hom, (w, h), flags=cv2.INTER_LINEAR)
    drop = cv2.GaussianBlur(alpha, (0, 0), 6)
    table *= (1 - 0.4 * np.roll(np.roll(drop, 5, 0), 4, 1))[..., None]
    return table * (1 - alpha[..., None]) + warped.astype(np.float32) * alpha[..., None]


# ---------------------------------------------------------------- scenes


def _choose(rng: np.random.Generator, options: tuple) -> str:
    return options[int(rng.integers(0, len(options)))]


def _random_rows(rng: np.random.Generator, grid: int, words: int) -> list[str]:
    """A crossword-like pattern of ``words`` runs through the centre area (letters only for looks)."""
    board = [["."] * grid for _ in range(grid)]
    alphabet = "AAAEEEIIOOUNRSTLDGBCMPFHVWYKJXQZ"
    r = c = grid // 2
    across = True
    for _ in range(words):
        length = int(rng.integers(2, 8))
        start = int(rng.integers(0, length))
        for k in range(length):
            rr, cc = (r, c - start + k) if across else (r - start + k, c)
            if 0 <= rr < grid and 0 <= cc < grid and board[rr][cc] == ".":
                ch = alphabet[int(rng.integers(0, len(alphabet)))]
                board[rr][cc] = ch.lower() if rng.random() < 0.02 else ch
        k = int(rng.integers(0, length))
        r, c = ((r, c - start + k) if across else (r - start + k, c))
        r, c = min(max(r, 0), grid - 1), min(max(c, 0), grid - 1)
        across = not across
    return ["".join(row) for row in board]


def render_scene(seed: int, *, style: str | None = None, background_kind: str | None = None,
                 rows: list[str] | None = None, frame_size: tuple[int, int] = FRAME_SIZE,
                 board_turns: int | None = None, yaw: float | None = None, tilt: float | None = None,
                 fill: float | None = None, hand: bool | None = None, shadow: bool | None = None,
                 stray: int | None = None, light: str | None = None, racks: int = 0,
                 letter_turns: int | None = None) -> Scene:
    """One frame. Every argument left None is chosen from ``seed``; ``racks`` racks of tiles lie on the
    table beside the board (drawn from their own random stream, so the rest of the scene is the same).
    ``letter_turns``: which way all letters face on the board (quarter turns; None: from the seed, and now
    and then every tile its own way, as with players on all sides)."""
    rng = np.random.default_rng(seed)
    st = BOARD_STYLES[style or _choose(rng, STYLES)]
    bg_kind = background_kind or _choose(rng, BACKGROUNDS)
    n = st.grid
    if rows is None:
        rows = _random_rows(rng, n, int(rng.integers(0, 25)))
    turns = int(rng.integers(0, 4)) if board_turns is None else board_turns
    yaw = float(rng.uniform(-45, 45)) if yaw is None else yaw
    tilt = float(rng.uniform(0, 35)) if tilt is None else tilt
    fill = float(rng.uniform(0.5, 1.0)) if fill is None else fill
    hand = bool(rng.random() < 0.3) if hand is None else hand
    shadow = bool(rng.random() < 0.25) if shadow is None else shadow
    stray = int(rng.integers(0, 7)) if stray is None else stray
    light = light or _choose(rng, ("neutral", "neutral", "warm", "cool", "tungsten"))
    drawn_turns = int(rng.integers(0, 4))
    mixed = bool(rng.random() < 0.15) and letter_turns is None
    letter_turns = drawn_turns if letter_turns is None else letter_turns

    board, rim = _draw_board(st, rng)
    _place_tiles(board, rim, rows, st, rng, letter_turns, mixed)
    side = board.shape[0]
    # Quarter turns of the board: the drawn board is turned, the truth corners follow A1.
    total_yaw = yaw + 90 * turns
    hom, corners = _projection(rng, side, rim, side - rim, frame_size, yaw=total_yaw, tilt=tilt, fill=fill)
    w, h = frame_size
    img = _on_table(background(bg_kind, (h, w), rng).astype(np.float32), board, hom,
                    cv2.INTER_AREA if fill < 0.6 else cv2.INTER_LINEAR)
    cell = float(np.linalg.norm(corners[1] - corners[0])) / n
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    _stray_tiles(img8, rng, stray, cell, corners, st)
    if racks:
        _racks(img8, np.random.default_rng((seed, 7)), racks, cell, corners, st)
    img = img8.astype(np.float32)
    img = _light(img, rng, light)
    if shadow:
        _shadow_band(img, rng)
    if hand:
        k = int(rng.integers(0, 4))
        target = corners[k] * 0.8 + corners[(k + 1) % 4] * 0.2
        _hand(img, rng, target)
    image = _camera(np.clip(img, 0, 255), rng)
    truth = SceneTruth(grid=n, corners=corners, rows=tuple(rows), style=st.name, background=bg_kind, seed=seed,
                       board_turns=turns, letter_turns=letter_turns, tilt_deg=round(tilt, 1), fill=round(fill, 3),
                       light=light, shadow=shadow, hand=hand, stray_tiles=stray)
    return Scene(image, truth)


def _stray_tiles(img: np.ndarray, rng: np.random.Generator, count: int, cell: float, corners: np.ndarray,
                 st: BoardStyle) -> None:
    """Tiles lying on the table beside the board (never on the grid)."""
    h, w = img.shape[:2]
    poly = corners.reshape(-1, 1, 2).astype(np.float32)
    placed = tries = 0
    size = max(8, int(cell * 0.9))
    while placed < count and tries < 60:
        tries += 1
        x, y = rng.uniform(size, w - size), rng.uniform(size, h - size)
        if cv2.pointPolygonTest(poly, (float(x), float(y)), True) > -2.5 * size:
            continue
        letter = "ABCDEFGHIJKLMNOPRSTUVWY"[int(rng.integers(0, 23))]
        tile = tile_image(letter, size, st, rng, value=1)
        _blit_rotated(img, tile, x, y, rng.uniform(0, 360), shadow=True)
        placed += 1


def _racks(img: np.ndarray, rng: np.random.Generator, count: int, cell: float, corners: np.ndarray,
           st: BoardStyle) -> None:
    """Players' racks on the table: a dark bar with seven tiles, turned any way, clear of the grid."""
    h, w = img.shape[:2]
    poly = corners.reshape(-1, 1, 2).astype(np.float32)
    size = max(8, int(cell * 0.85))
    length, depth = int(7.6 * size), int(1.3 * size)
    for _ in range(count):
        for _try in range(40):
            angle = float(rng.uniform(0, 180))
            cx, cy = rng.uniform(length / 2, max(w - length / 2, length / 2 + 1)), rng.uniform(depth, h - depth)
            box = cv2.boxPoints(((float(cx), float(cy)), (length, depth), angle))
            # Clear of the grid both ways: a grid corner can poke into the side of a rack whose corners are all out.
            outline = box.reshape(-1, 1, 2)
            if all(cv2.pointPolygonTest(poly, (float(x), float(y)), True) < -size for x, y in box) and all(
                    cv2.pointPolygonTest(outline, (float(x), float(y)), True) < -size for x, y in corners):
                break
        else:
            continue
        cv2.fillPoly(img, [box.astype(np.int32)], tuple(int(v) for v in rng.uniform(20, 70, 3)))
        direction = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        for k in range(7):
            x, y = np.array([cx, cy]) + direction * (k - 3) * size * 1.05
            letter = "AEIOURSTLNDGBCMP"[int(rng.integers(0, 16))]
            _blit_rotated(img, tile_image(letter, size, st, rng, value=1), float(x), float(y), -angle, shadow=True)


def scene_set(count: int, first_seed: int = 0, **kwargs) -> Iterator[Scene]:
    """``count`` scenes, seeds ``first_seed``...; the styles cycle through :data:`STYLES`."""
    for i in range(count):
        yield render_scene(first_seed + i, style=kwargs.pop("style", None) or STYLES[i % len(STYLES)], **kwargs)


# ---------------------------------------------------------------- whole games


def _record_boards(path: Path, offset: int, grid: int):
    """The board rows after every move of a GCG record (laid ``offset`` cells in from the corner)."""
    from engine.game import Game
    from engine.gcg import parse_gcg, replay, rules_for

    record = parse_gcg(path.read_bytes(), str(path))
    rules = rules_for(record)
    played = replay(record, rules=rules)
    live = Game(rules, ["a", "b"])
    boards = []
    for event in played.game.events:
        live.play(event.move, player=event.player, check=False)
        rows = [["."] * grid for _ in range(grid)]
        for sq, cell in live.board:
            if cell.is_stop:
                continue
            rows[sq.row + offset][sq.col + offset] = cell.letter.lower() if cell.blank else cell.letter
        boards.append(["".join(r) for r in rows])
    lines = path.read_text(encoding="utf-8").splitlines()
    return rules, boards, lines


def synthetic_game(seed: int, *, style: str = "classic", record: Path | None = None, moves: int | None = None,
                   frame_size: tuple[int, int] = FRAME_SIZE) -> SyntheticGame:
    """A whole game: one frame after every move of a real record, the board moved a little between moves
    and sometimes turned a quarter (players turn it toward themselves), the two players' racks beside it,
    hands at the edges now and then.

    The record is one of ``../shared/data/gcg/woogles`` chosen by the seed unless given. On the 17x17
    style the 15x15 game is laid one cell in from the corner.
    """
    rng = np.random.default_rng(seed)
    if record is None:
        records = sorted(GCG_DIR.glob("*.gcg"))
        if not records:
            raise FileNotFoundError(f"synthetic games need the GCG records in {GCG_DIR}")
        record = records[int(rng.integers(0, len(records)))]
    st = BOARD_STYLES[style]
    rules, boards, lines = _record_boards(record, (st.grid - 15) // 2, st.grid)
    if moves is not None:
        boards = boards[:moves]
    bg_kind = _choose(rng, BACKGROUNDS)
    light = _choose(rng, ("neutral", "warm", "cool", "tungsten"))
    letters = int(rng.integers(0, 4))  # the letters face the players' side of the board, and turn with it
    yaw, turns = float(rng.uniform(-30, 30)), 0
    tilt, fill = float(rng.uniform(0, 30)), float(rng.uniform(0.6, 0.9))
    frames = []
    for i, rows in enumerate(boards):
        if rng.random() < 0.15:
            turns = (turns + int(rng.choice([1, 3]))) % 4
        yaw += float(rng.normal(0, 2))
        frames.append(render_scene(seed * 1000 + i, style=style, background_kind=bg_kind, rows=rows,
                                   frame_size=frame_size, board_turns=turns, yaw=yaw, tilt=tilt,
                                   fill=fill + float(rng.normal(0, 0.02)), hand=bool(rng.random() < 0.2),
                                   shadow=False, stray=int(rng.integers(0, 8)), light=light, racks=2,
                                   letter_turns=letters))
    move_lines = [ln for ln in lines if ln.startswith(">")][: len(boards)]
    head = [ln for ln in lines if ln.startswith("#")]
    return SyntheticGame(frames, "\n".join(head + move_lines) + "\n", rules, str(record))

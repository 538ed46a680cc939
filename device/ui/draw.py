# SPDX-License-Identifier: GPL-3.0-or-later
"""Drawing primitives: theme colours, font and text caches, and the :class:`Painter` that draws a
screen and records its touch regions in the same pass (so what is drawn is what is hit)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from device.ui.view import UiAction

Colour = tuple[int, int, int]
HotTarget = UiAction | Callable[[tuple[int, int]], "UiAction | None"]
"""A fixed action, or a function of the touch position (e.g. the board's square under the finger)."""

# Known Debian path first (fonts-dejavu-core); match_font asks fontconfig, slower.
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans{}.ttf"


@dataclass(frozen=True)
class Theme:
    bg: Colour = (16, 22, 32)
    panel: Colour = (30, 38, 52)
    text: Colour = (245, 245, 240)
    dim: Colour = (160, 170, 185)
    accent: Colour = (255, 200, 40)
    good: Colour = (21, 101, 192)
    """ACCEPTABLE: blue, told apart from red by colour-blind players too."""
    leader: Colour = (110, 190, 255)
    """Ordskifte: who leads (the player to move is ``accent``)."""
    running: Colour = (60, 220, 120)
    """The running clock's marker and sweep."""
    bad: Colour = (198, 30, 40)
    bad_text: Colour = (255, 120, 120)
    """Refusals and negative points as text on the dark panels (``bad`` is a fill)."""
    warn: Colour = (240, 140, 20)
    button: Colour = (58, 70, 92)
    button_text: Colour = (255, 255, 255)
    button_edge: Colour = (120, 140, 175)
    button_label: Colour = (205, 212, 225)
    """A setting's name on its (button-coloured) row."""
    primary: Colour = (20, 120, 60)
    disabled: Colour = (40, 44, 52)
    disabled_text: Colour = (150, 156, 166)
    board_edge: Colour = (10, 14, 20)
    square: Colour = (70, 160, 110)
    tile: Colour = (242, 226, 184)
    tile_text: Colour = (20, 20, 20)
    blank_tile: Colour = (255, 255, 255)
    blank_text: Colour = (190, 20, 120)
    last_tile: Colour = (255, 214, 70)
    proposal_tile: Colour = (22, 28, 96)
    """New tiles: dark on every (light) premium colour, so they stand out at >= 3:1 on any square."""
    proposal_text: Colour = (255, 255, 255)
    uncertain: Colour = (255, 120, 0)
    selected: Colour = (255, 255, 255)
    """The tile being corrected: a white frame outside the square (blank-needed is a cyan ring inside)."""
    blank_needed: Colour = (0, 210, 255)
    stop_tile: Colour = (30, 30, 30)
    premium_text: Colour = (15, 15, 15)
    #: Premium squares all light enough for dark labels (>= 4.5:1) and dark new tiles (>= 3:1).
    premiums: tuple[tuple[str, Colour], ...] = (
        ("W3", (240, 96, 90)), ("W2", (245, 165, 175)), ("W4", (225, 100, 160)),
        ("L3", (80, 160, 240)), ("L2", (160, 215, 245)), ("L4", (130, 140, 240)),
        ("M2", (160, 160, 160)),
    )

    def premium(self, code: str) -> Colour:
        for name, colour in self.premiums:
            if name == code:
                return colour
        return self.square


def font_path(bold: bool = False) -> str | None:
    """DejaVu Sans (Debian fonts-dejavu-core), else whatever fontconfig finds, else None (pygame's
    default font, which lacks nothing we need for Latin-1 letters but looks cruder)."""
    path = _DEJAVU.format("-Bold" if bold else "")
    if os.path.exists(path):
        return path
    return pygame.font.match_font("dejavusans", bold=bold) or None


class Fonts:
    """Fonts by (pixel size, bold) and rendered text surfaces, both cached."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._paths = {False: font_path(False), True: font_path(True)}
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: dict[tuple[str, int, bool, Colour], pygame.Surface] = {}
        self._fit: dict[tuple[str, int, int, bool], int] = {}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, size), bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(self._paths[bold], key[0])
            self._fonts[key] = font
        return font

    def render(self, text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        key = (text, size, bold, colour)
        surf = self._text.get(key)
        if surf is None:
            if len(self._text) > 4000:
                self._text.clear()
            surf = self.font(size, bold).render(text, True, colour)
            self._text[key] = surf
        return surf

    def width(self, text: str, size: int, bold: bool = False) -> int:
        return self.font(size, bold).size(text)[0]

    def fit(self, text: str, size: int, max_width: int, bold: bool = False) -> int:
        """Largest font size ≤ ``size`` (down to 8 px) at which ``text`` fits ``max_width``."""
        key = (text, size, max_width, bold)
        got = self._fit.get(key)
        if got is None:
            got = size
            while got > 8 and self.width(text, got, bold) > max_width:
                got = max(8, int(got * 0.9))
            self._fit[key] = got
        return got


@dataclass(frozen=True)
class Label:
    """A piece of text drawn into a box (recorded for the text-fits, contrast and strings tests)."""

    text: str
    box: pygame.Rect
    size: int
    bold: bool
    width: int
    colour: Colour = (0, 0, 0)
    rect: pygame.Rect | None = None
    """Where the text's pixels went."""


class Painter:
    """Draws onto ``surface`` (or, with ``surface=None``, only lays out) and records hot regions."""

    def __init__(self, surface: pygame.Surface | None, size: tuple[int, int], fonts: Fonts,
                 theme: Theme) -> None:
        self.surface = surface
        self.w, self.h = size
        self.fonts = fonts
        self.theme = theme
        self.u = min(self.w, self.h) / 480
        """Scale unit: 1.0 on the 800×480 display."""
        self.hot: list[tuple[pygame.Rect, HotTarget]] = []
        self.labels: list[Label] = []

    @property
    def drawing(self) -> bool:
        return self.surface is not None

    @property
    def portrait(self) -> bool:
        return self.h > self.w

    def px(self, n: float) -> int:
        return max(1, round(n * self.u))

    @property
    def touch(self) -> int:
        """Smallest touch target side: 48 px (about 9 mm on the 7" panel), scaled."""
        return self.px(48)

    @property
    def gap(self) -> int:
        """Smallest gap between two touch targets."""
        return self.px(8)

    def add_hot(self, rect: pygame.Rect, action: HotTarget) -> None:
        self.hot.append((pygame.Rect(rect), action))

    def fill(self, rect: pygame.Rect | tuple[int, int, int, int], colour: Colour, radius: int = 0,
             width: int = 0) -> None:
        if self.surface is not None:
            pygame.draw.rect(self.surface, colour, rect, width, border_radius=radius)

    def text(self, text: str, box: pygame.Rect, size: float, colour: Colour | None = None, *,
             bold: bool = False, align: str = "center", valign: str = "center") -> None:
        """Text in ``box``, shrunk to fit its width; ``size`` is in scale units."""
        if self.surface is None or not text:
            return
        want = self.px(size)
        got = self.fonts.fit(text, want, box.w, bold)
        surf = self.fonts.render(text, got, colour or self.theme.text, bold)
        r = surf.get_rect()
        if align == "left":
            r.left = box.left
        elif align == "right":
            r.right = box.right
        else:
            r.centerx = box.centerx
        if valign == "top":
            r.top = box.top
        elif valign == "bottom":
            r.bottom = box.bottom
        else:
            r.centery = box.centery
        self.surface.blit(surf, r)
        self.labels.append(Label(text, pygame.Rect(box), got, bold, surf.get_width(), colour or self.theme.text,
                                 pygame.Rect(r)))

    def record(self, text: str, box: pygame.Rect, size: int, bold: bool, colour: Colour) -> None:
        """Note text blitted directly (pre-rendered), so the checks see it too."""
        self.labels.append(Label(text, pygame.Rect(box), size, bold, box.w, colour, pygame.Rect(box)))

    def button(self, rect: pygame.Rect, label: str, action: UiAction | None, *, style: str = "normal",
               enabled: bool = True, size: float = 22) -> None:
        t = self.theme
        bg = {"normal": t.button, "primary": t.primary, "danger": t.bad, "good": t.good,
              "accent": t.accent}.get(style, t.button)
        fg = t.tile_text if style == "accent" else t.button_text
        if not enabled:
            bg, fg = t.disabled, t.disabled_text
        self.fill(rect, bg, radius=self.px(8))
        if enabled and action is not None and style == "normal":
            self.fill(rect, t.button_edge, radius=self.px(8), width=max(1, self.px(2)))
        inner = rect.inflate(-self.px(10), -self.px(4))
        self.text(label, inner, size, fg, bold=True)
        if enabled and action is not None:
            self.add_hot(rect, action)

    def blit(self, surf: pygame.Surface, pos: tuple[int, int]) -> None:
        if self.surface is not None:
            self.surface.blit(surf, pos)

    def draw(self, fn: Callable[[pygame.Surface], None]) -> None:
        if self.surface is not None:
            fn(self.surface)


def split_rows(rect: pygame.Rect, weights: list[float], gap: int = 0) -> list[pygame.Rect]:
    """Cut ``rect`` into horizontal bands proportional to ``weights``."""
    total = sum(weights)
    avail = rect.h - gap * (len(weights) - 1)
    out, y = [], rect.top
    for i, wgt in enumerate(weights):
        h = rect.bottom - y if i == len(weights) - 1 else round(avail * wgt / total)
        out.append(pygame.Rect(rect.left, y, rect.w, h))
        y += h + gap
    return out


def split_cols(rect: pygame.Rect, weights: list[float], gap: int = 0) -> list[pygame.Rect]:
    """Cut ``rect`` into vertical bands proportional to ``weights``."""
    total = sum(weights)
    avail = rect.w - gap * (len(weights) - 1)
    out, x = [], rect.left
    for i, wgt in enumerate(weights):
        w = rect.right - x if i == len(weights) - 1 else round(avail * wgt / total)
        out.append(pygame.Rect(x, rect.top, w, rect.h))
        x += w + gap
    return out

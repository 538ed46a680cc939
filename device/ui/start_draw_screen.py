# SPDX-License-Identifier: GPL-3.0-or-later
"""The START_DRAW screen: who starts (``View.start_draw``, a :class:`device.start_draw.StartDrawView`).

Top: the title and the rule that decides. Then one row per player with the tiles they drew (round
by round; the starter's row is marked, tied players are named). Then the prompt, the tiles to tap
for the player asked, and BACK / UNDO / READ TILE / START. Landscape puts the players on the left
and the tiles on the right; portrait stacks them.
"""

from __future__ import annotations

import math

import pygame

from device.ui.screens import Ctx
from device.ui.view import ActionKind, UiAction

_SPECIAL = {"?": "start_draw.blank", "#": "start_draw.stop", "^": "start_draw.arrow"}


def start_draw(c: Ctx) -> None:
    p, t = c.p, c.p.theme
    sd = c.v.start_draw
    if sd is None:
        return
    pad = p.px(10)
    title = pygame.Rect(pad, pad, p.w - 2 * pad, p.px(40))
    p.text(c.s("start_draw.title"), title, 30, t.accent, bold=True, align="left")
    rule = pygame.Rect(pad, title.bottom, p.w - 2 * pad, p.px(30))
    p.text(c.s(sd.rule), rule, 17, t.dim, align="left")
    buttons_h = p.px(64)
    bottom = pygame.Rect(pad, p.h - pad - buttons_h, p.w - 2 * pad, buttons_h)
    body = pygame.Rect(pad, rule.bottom + pad, p.w - 2 * pad, bottom.top - rule.bottom - 2 * pad)
    if p.h > p.w:  # portrait: players above, prompt and tiles below
        rows_h = min(body.h // 2, p.px(70) * len(sd.players))
        players_box = pygame.Rect(body.x, body.y, body.w, rows_h)
        right = pygame.Rect(body.x, players_box.bottom + pad, body.w, body.bottom - players_box.bottom - pad)
    else:
        players_box = pygame.Rect(body.x, body.y, body.w * 2 // 5, body.h)
        right = pygame.Rect(players_box.right + pad, body.y, body.right - players_box.right - pad, body.h)
    _players(c, players_box)
    used = _prompt(c, right)
    if sd.asking is not None:
        top = right.y + used + pad
        _tiles(c, pygame.Rect(right.x, top, right.w, right.bottom - top))
    _buttons(c, bottom)


def _players(c: Ctx, box: pygame.Rect) -> None:
    p, t = c.p, c.p.theme
    sd = c.v.start_draw
    n = len(sd.players)
    row_h = min(p.px(70), box.h // max(1, n))
    for i, name in enumerate(sd.players):
        row = pygame.Rect(box.x, box.y + i * row_h, box.w, row_h - p.px(6))
        starter = sd.starter == i
        asked = sd.asking == i
        p.fill(row, t.primary if starter else t.panel, radius=p.px(8))
        if asked:
            p.fill(row, t.accent, radius=p.px(8), width=max(2, p.px(3)))
        name_box = pygame.Rect(row.x + p.px(10), row.y, row.w * 2 // 5, row.h)
        p.text(name, name_box, 22, t.text, bold=starter or asked, align="left")
        side = row.h - p.px(16)
        x = row.right - p.px(8)
        for drawn in reversed([d for d in sd.drawn if d.player == i]):
            x -= side
            if x < name_box.right:
                break
            _tile(c, pygame.Rect(x, row.y + p.px(8), side, side), drawn.tile, current=drawn.round == sd.round)
            _value(c, pygame.Rect(x, row.y + p.px(8), side, side), drawn.tile, t.tile_text)
            x -= p.px(6)


def _tile(c: Ctx, rect: pygame.Rect, tile: str, *, current: bool) -> None:
    p, t = c.p, c.p.theme
    face, ink = t.tile, t.tile_text
    if tile == "?":
        face, ink = t.blank_tile, t.blank_text
    elif tile in ("#", "^"):
        face, ink = t.stop_tile, t.text
    p.fill(rect, face if current else t.disabled, radius=p.px(5))
    label = {"?": "", "#": "", "^": "↱"}.get(tile, tile)
    p.text(label, rect, 26, ink if current else t.disabled_text, bold=True)


def _prompt(c: Ctx, box: pygame.Rect) -> int:
    """The news (refusal, tie), then what to do now, wrapped; returns the height used."""
    p, t = c.p, c.p.theme
    sd = c.v.start_draw
    lines: list[tuple[str, tuple[int, int, int], float, bool]] = []
    if sd.message:
        lines.append((c.s(sd.message, tile=sd.message_tile), t.bad_text if hasattr(t, "bad_text") else t.warn,
                      20, True))
    if sd.tied and sd.asking is not None:
        names = ", ".join(sd.players[i] for i in sd.tied)
        lines.append((c.s("start_draw.tie", names=names) + " · " + c.s("start_draw.round", n=sd.round), t.warn,
                      20, True))
    if sd.starter is not None:
        lines.append((c.s("start_draw.starts", name=sd.players[sd.starter]), t.accent, 34, True))
        lines.append((c.s("start_draw.press", name=sd.players[sd.starter]), t.text, 20, False))
    elif sd.asking is not None:
        key = "start_draw.ask_camera" if sd.can_read else "start_draw.ask"
        lines.append((c.s(key, name=sd.players[sd.asking]), t.text, 22, True))
    y = box.y
    for text, colour, size, bold in lines:
        for part in _wrap(c, text, size, bold, box.w):
            h = p.px(size * 1.3)
            p.text(part, pygame.Rect(box.x, y, box.w, h), size, colour, bold=bold, align="left")
            y += h
    return y - box.y


def _wrap(c: Ctx, text: str, size: float, bold: bool, width: int) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` at ``size`` (at most three; the last shrinks)."""
    px = c.p.px(size)
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and c.p.fonts.width(trial, px, bold) > width and len(lines) < 2:
            lines.append(current)
            current = word
        else:
            current = trial
    return lines + [current] if current else lines


def _tiles(c: Ctx, box: pygame.Rect) -> None:
    p = c.p
    sd = c.v.start_draw
    tiles = sd.tiles
    gap = p.px(6)
    # As many columns as keep a tile at least a touch target wide, and all rows fitting the box.
    side = p.px(48)
    cols = max(1, (box.w + gap) // (side + gap))
    rows = math.ceil(len(tiles) / cols)
    while rows * (side + gap) - gap > box.h and side > p.px(30):
        side -= p.px(2)
        cols = max(1, (box.w + gap) // (side + gap))
        rows = math.ceil(len(tiles) / cols)
    width = (box.w - (cols - 1) * gap) // cols
    for i, tile in enumerate(tiles):
        r, col = divmod(i, cols)
        rect = pygame.Rect(box.x + col * (width + gap), box.y + r * (side + gap), width, side)
        label = c.s(_SPECIAL[tile]) if tile in _SPECIAL else tile
        action = UiAction(ActionKind.SET_OPTION, key="draw", text=tile)
        p.button(rect, label, action, style="normal", size=24 if tile not in _SPECIAL else 16)
        _value(c, rect, tile, p.theme.dim)


def _value(c: Ctx, rect: pygame.Rect, tile: str, colour: tuple[int, int, int]) -> None:
    """The tile's points in its lower right corner, when points decide who starts (Alfapet)."""
    values = dict(c.v.start_draw.values)
    if tile not in values or tile in _SPECIAL:
        return
    p = c.p
    corner = pygame.Rect(rect.right - p.px(20), rect.bottom - p.px(17), p.px(17), p.px(15))
    p.text(str(values[tile]), corner, 11, colour, align="right", valign="bottom")


def _buttons(c: Ctx, box: pygame.Rect) -> None:
    p = c.p
    sd = c.v.start_draw
    specs = [(c.s("button.back"), UiAction(ActionKind.BACK), "normal", True),
             (c.s("button.undo"), UiAction(ActionKind.UNDO), "normal", bool(sd.drawn))]
    if sd.can_read:
        specs.append((c.s("start_draw.read"), UiAction(ActionKind.SET_OPTION, key="camera"), "normal",
                      sd.asking is not None))
    specs.append((c.s("start_draw.start"), UiAction(ActionKind.START_GAME), "primary", sd.starter is not None))
    gap = p.px(8)
    w = (box.w - gap * (len(specs) - 1)) // len(specs)
    for i, (label, action, style, enabled) in enumerate(specs):
        rect = pygame.Rect(box.x + i * (w + gap), box.y, w, box.h)
        p.button(rect, label, action, style=style, enabled=enabled)

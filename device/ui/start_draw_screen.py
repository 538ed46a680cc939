# SPDX-License-Identifier: GPL-3.0-or-later
"""The START_DRAW screen: who starts (``View.start_draw``, a :class:`device.start_draw.StartDrawView`).

Top: the title and the rule that decides. Then one row per player with the tiles they drew (round
by round; the starter's row is marked, tied players are named). Then the prompt, the tiles to tap
for the player asked, and BACK / UNDO / READ TILE / START. Landscape puts the players on the left
and the tiles on the right; portrait stacks them.

Every key is at least a touch target (48 px, scaled) with the touch gap (8 px, scaled) around it. When a
tile set has more tiles than fit (Alfapet's 31 on the 800x480 panel while a tie is announced), the keys
are paged: the last key names the next page's letters ("Å–Ö ▶") and turns to it (``View.start_draw.page``).
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
    if sd.round > 1:  # which draw this is, at the top right (the tie itself is said in the prompt)
        draw_no = c.s("start_draw.round", n=sd.round)
        draw_w = p.fonts.width(draw_no, p.px(22), True)
        p.text(draw_no, pygame.Rect(title.right - draw_w, title.y, draw_w, title.h), 22, t.warn, bold=True,
               align="right")
        title.w -= draw_w + pad
    p.text(c.s("start_draw.title"), title, 30, t.accent, bold=True, align="left")
    rule = pygame.Rect(pad, title.bottom, p.w - 2 * pad, p.px(8))
    for line in _wrap(c, c.s(sd.rule), 17, False, rule.w):  # wrapped, not shrunk: read at arm's length
        p.text(line, pygame.Rect(rule.x, rule.bottom, rule.w, p.px(22)), 17, t.dim, align="left")
        rule.h += p.px(22)
    buttons_h = p.px(64)
    bottom = pygame.Rect(pad, p.h - pad - buttons_h, p.w - 2 * pad, buttons_h)
    body = pygame.Rect(pad, rule.bottom + pad, p.w - 2 * pad, bottom.top - rule.bottom - 2 * pad)
    if p.h > p.w:  # portrait: players above, prompt and tiles below
        rows_h = min(body.h // 2, p.px(70) * len(sd.players))
        players_box = pygame.Rect(body.x, body.y, body.w, rows_h)
        right = pygame.Rect(body.x, players_box.bottom + pad, body.w, body.bottom - players_box.bottom - pad)
    else:
        players_box = pygame.Rect(body.x, body.y, body.w // 3, body.h)
        right = pygame.Rect(players_box.right + pad, body.y, body.right - players_box.right - pad, body.h)
    _players(c, players_box)
    used = _prompt(c, right)
    if sd.asking is not None:
        top = min(right.y + used + pad, right.bottom - p.touch)  # at least one row of keys
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
            x -= p.px(6)


def _tile(c: Ctx, rect: pygame.Rect, tile: str, *, current: bool) -> None:
    p, t = c.p, c.p.theme
    face, ink = t.tile, t.tile_text
    if tile == "?":
        face, ink = t.blank_tile, t.blank_text
    elif tile in ("#", "^"):
        face, ink = t.stop_tile, t.text
    if not current:  # an earlier round's tile: greyed
        face, ink = t.disabled, t.disabled_text
    p.fill(rect, face, radius=p.px(5))
    if tile == "^" and p.surface is not None:  # the arrow tile: an arrow drawn, not a glyph the font may lack
        cx, cy, r = rect.centerx, rect.centery, rect.w // 4
        pygame.draw.polygon(p.surface, ink, [(cx - r, cy - r // 3), (cx, cy - r // 3), (cx, cy - r),
                                             (cx + r, cy), (cx, cy + r), (cx, cy + r // 3), (cx - r, cy + r // 3)])
    elif tile not in ("?", "#"):
        p.text(tile, rect, 26, ink, bold=True)
    _value(c, rect, tile, ink)


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
        lines.append((c.s("start_draw.tie", names=names), t.warn, 20, True))
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
    """The keys of the tiles to tap, in a grid of touch-sized keys; paged when they do not all fit."""
    p = c.p
    sd = c.v.start_draw
    gap, touch = p.gap, p.touch
    cols = max(1, (box.w + gap) // (touch + gap))
    rows = max(1, (box.h + gap) // (touch + gap))
    page_key = min(2, cols)  # the page key is two keys wide, so its letters are as large as a tile's
    shown, next_page = _page(sd.tiles, cols * rows, page_key, sd.page)
    used_rows = rows if next_page is not None else math.ceil(len(shown) / cols)  # paged: the same grid each page
    height = min(p.px(64), (box.h + gap) // used_rows - gap)  # taller keys when there is room
    width = (box.w - (cols - 1) * gap) // cols

    def cell(i: int) -> pygame.Rect:
        r, col = divmod(i, cols)
        return pygame.Rect(box.x + col * (width + gap), box.y + r * (height + gap), width, height)

    for i, tile in enumerate(shown):
        rect = cell(i)
        label = c.s(_SPECIAL[tile]) if tile in _SPECIAL else tile
        action = UiAction(ActionKind.SET_OPTION, key="draw", text=tile)
        p.button(rect, label, action, style="normal", size=24 if tile not in _SPECIAL else 16)
        _value(c, rect, tile, p.theme.button_text)
    if next_page is not None:
        letters = [tile for tile in next_page if tile not in _SPECIAL]
        span = f"{letters[0]}–{letters[-1]}" if letters else c.s(_SPECIAL[next_page[0]])
        rect = cell(cols * rows - page_key).union(cell(cols * rows - 1))
        p.button(rect, f"{span} ▶", UiAction(ActionKind.SET_OPTION, key="page"), style="accent", size=24)


def _page(tiles: tuple[str, ...], room: int, page_key: int, page: int) -> tuple[tuple[str, ...],
                                                                                 tuple[str, ...] | None]:
    """The tiles on page ``page`` (counted round) of a grid of ``room`` keys, and the next page's tiles (None:
    they all fit; otherwise the last ``page_key`` keys of the grid are the key that turns the page).

    >>> _page(tuple("ABCDE"), 6, 2, 0)
    (('A', 'B', 'C', 'D', 'E'), None)
    >>> _page(tuple("ABCDEFG"), 6, 2, 1)
    (('E', 'F', 'G'), ('A', 'B', 'C', 'D'))
    """
    if len(tiles) <= room:
        return tiles, None
    per_page = max(1, room - page_key)
    pages = math.ceil(len(tiles) / per_page)
    at = page % pages
    following = (at + 1) % pages
    return tiles[at * per_page:(at + 1) * per_page], tiles[following * per_page:(following + 1) * per_page]


def _value(c: Ctx, rect: pygame.Rect, tile: str, colour: tuple[int, int, int]) -> None:
    """The tile's points in its lower right corner, when points decide who starts (Alfapet)."""
    values = dict(c.v.start_draw.values)
    if tile not in values or tile in _SPECIAL:
        return
    p = c.p
    inset = p.px(5)  # clear of a key's edge line, so the number is read against the key's face
    corner = pygame.Rect(rect.right - inset - p.px(17), rect.bottom - inset - p.px(13), p.px(17), p.px(13))
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

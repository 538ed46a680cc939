# SPDX-License-Identifier: GPL-3.0-or-later
"""Reusable pieces of a screen: board, keyboard, player cards, clocks, verdict, text wrapping."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from device.ui.draw import Colour, Painter
from device.ui.view import (
    ActionKind,
    BoardView,
    ClockReading,
    PlayerView,
    Pos,
    Proposal,
    TimerState,
    UiAction,
    Verdict,
)

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def format_clock(ms: int) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), overtime with a minus sign; whole seconds shown are
    the ones still to run, so 0:00 appears only when time is really up."""
    neg = ms < 0
    secs = (-ms) // 1000 if neg else (ms + 999) // 1000
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    text = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
    return f"-{text}" if neg else text


def square_name(sq: Pos) -> str:
    return f"{COLUMNS[sq[1]]}{sq[0] + 1}"


def clock_colour(p: Painter, reading: ClockReading) -> Colour:
    if reading.remaining_ms < 0:
        return p.theme.bad
    if reading.state is TimerState.PAUSED:
        return p.theme.dim  # a stopped clock must not look like a running one
    if reading.warning:
        return p.theme.warn
    return p.theme.text


def wrap(p: Painter, text: str, width: int, size_px: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and p.fonts.width(trial, size_px) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def paragraph(p: Painter, text: str, rect: pygame.Rect, size: float, colour: Colour | None = None,
              bold: bool = False) -> int:
    """Wrapped text from the top of ``rect``; returns the height used."""
    px = p.px(size)
    line_h = int(px * 1.25)
    y = rect.top
    for line in wrap(p, text, rect.w, px):
        if y + line_h > rect.bottom:
            break
        p.text(line, pygame.Rect(rect.left, y, rect.w, line_h), size, colour, bold=bold, align="left")
        y += line_h
    return y - rect.top


# ---------------------------------------------------------------------------------------------
# Board


@dataclass(frozen=True)
class BoardGeometry:
    origin: tuple[int, int]
    cell: int
    n: int

    def square_at(self, pos: tuple[int, int]) -> Pos | None:
        c = (pos[0] - self.origin[0]) // self.cell
        r = (pos[1] - self.origin[1]) // self.cell
        if 0 <= r < self.n and 0 <= c < self.n:
            return (r, c)
        return None

    def rect(self, sq: Pos) -> pygame.Rect:
        return pygame.Rect(self.origin[0] + sq[1] * self.cell, self.origin[1] + sq[0] * self.cell,
                           self.cell, self.cell)


def board_geometry(board: BoardView, rect: pygame.Rect) -> BoardGeometry:
    """Cells plus a 0.6-cell margin for the coordinates on the top and left."""
    cell = int(min(rect.w, rect.h) / (board.size + 0.6))
    margin = int(cell * 0.6)
    side = cell * board.size + margin
    x0 = rect.left + (rect.w - side) // 2 + margin
    y0 = rect.top + (rect.h - side) // 2 + margin
    return BoardGeometry((x0, y0), cell, board.size)


class BoardArt:
    """Cached board background (per layout and cell size) and tile images."""

    PREMIUM_TEXT = {"W3": "3W", "W2": "2W", "W4": "4W", "L3": "3L", "L2": "2L", "L4": "4L", "M2": "−2"}

    def __init__(self) -> None:
        self._bg: dict[tuple[object, int], pygame.Surface] = {}
        self._tiles: dict[tuple[str, bool, str, int], pygame.Surface] = {}

    def background(self, p: Painter, board: BoardView, cell: int) -> pygame.Surface:
        key = (board.layout_name or board.premiums, cell)
        surf = self._bg.get(key)
        if surf is None:
            surf = self._draw_background(p, board, cell)
            if len(self._bg) > 16:
                self._bg.clear()
            self._bg[key] = surf
        return surf

    def _draw_background(self, p: Painter, board: BoardView, cell: int) -> pygame.Surface:
        t = p.theme
        margin = int(cell * 0.6)
        n = board.size
        side = cell * n + margin
        surf = pygame.Surface((side, side))
        surf.fill(t.bg)
        pygame.draw.rect(surf, t.board_edge, (margin, margin, cell * n, cell * n))
        label_px = max(8, int(cell * 0.34))
        coord_px = max(8, int(margin * 0.8))
        for r in range(n):
            for c in range(n):
                code = board.premiums[r][c] if r < len(board.premiums) and c < len(board.premiums[r]) else "."
                rect = pygame.Rect(margin + c * cell + 1, margin + r * cell + 1, cell - 2, cell - 2)
                pygame.draw.rect(surf, t.premium(code), rect)
                label = self.PREMIUM_TEXT.get(code)
                if board.centre == (r, c) and code in (".", "W2"):
                    pygame.draw.circle(surf, (250, 250, 250), rect.center, max(2, cell // 6))
                elif label:
                    txt = p.fonts.render(label, label_px, (255, 255, 255), True)
                    surf.blit(txt, txt.get_rect(center=rect.center))
        for c in range(n):
            txt = p.fonts.render(COLUMNS[c], coord_px, t.dim)
            surf.blit(txt, txt.get_rect(center=(margin + c * cell + cell // 2, margin // 2)))
        for r in range(n):
            txt = p.fonts.render(str(r + 1), coord_px, t.dim)
            surf.blit(txt, txt.get_rect(center=(margin // 2, margin + r * cell + cell // 2)))
        return surf

    def tile(self, p: Painter, letter: str, blank: bool, style: str, cell: int) -> pygame.Surface:
        key = (letter, blank, style, cell)
        surf = self._tiles.get(key)
        if surf is None:
            surf = self._draw_tile(p, letter, blank, style, cell)
            if len(self._tiles) > 2000:
                self._tiles.clear()
            self._tiles[key] = surf
        return surf

    def _draw_tile(self, p: Painter, letter: str, blank: bool, style: str, cell: int) -> pygame.Surface:
        t = p.theme
        surf = pygame.Surface((cell - 2, cell - 2), pygame.SRCALPHA)
        face = {"last": t.last_tile, "proposal": t.proposal_tile}.get(style, t.tile)
        if style == "stop":
            face = t.stop_tile
        elif blank and style == "plain":
            face = t.blank_tile
        pygame.draw.rect(surf, face, surf.get_rect(), border_radius=max(2, cell // 8))
        if style == "stop":
            return surf
        colour = t.blank_text if blank else t.tile_text
        text = letter if letter else "?"
        px = int(cell * (0.62 if len(text) == 1 else 0.45))
        txt = p.fonts.render(text, px, colour, True)
        surf.blit(txt, txt.get_rect(center=(surf.get_width() // 2, surf.get_height() // 2 + 1)))
        if blank:
            # A ring marks a blank even where colour cannot be told apart.
            pygame.draw.rect(surf, t.blank_text, surf.get_rect(), max(1, cell // 14),
                             border_radius=max(2, cell // 8))
        return surf


def draw_board(p: Painter, art: BoardArt, board: BoardView, rect: pygame.Rect, *,
               proposal: Proposal | None = None, selected: Pos | None = None,
               on_tap: Callable[[Pos], UiAction | None] | None = None) -> BoardGeometry:
    geo = board_geometry(board, rect)
    margin = int(geo.cell * 0.6)
    if p.drawing:
        bg = art.background(p, board, geo.cell)
        p.blit(bg, (geo.origin[0] - margin, geo.origin[1] - margin))
        last = set(board.last_move)
        for tile in board.tiles:
            style = "stop" if tile.stop else ("last" if tile.square in last else "plain")
            p.blit(art.tile(p, tile.letter, tile.blank, style, geo.cell), geo.rect(tile.square).move(1, 1).topleft)
        if proposal is not None:
            _draw_proposal(p, art, geo, proposal)
        if selected is not None:
            p.fill(geo.rect(selected).inflate(2, 2), p.theme.selected, width=max(2, geo.cell // 8))
    if on_tap is not None:
        area = pygame.Rect(geo.origin, (geo.cell * geo.n, geo.cell * geo.n))
        p.add_hot(area, _board_tap(geo, on_tap))
    return geo


def _board_tap(geo: BoardGeometry,
               on_tap: Callable[[Pos], UiAction | None]) -> Callable[[tuple[int, int]], UiAction | None]:
    def resolve(pos: tuple[int, int]) -> UiAction | None:
        sq = geo.square_at(pos)
        return on_tap(sq) if sq is not None else None
    return resolve


def _draw_proposal(p: Painter, art: BoardArt, geo: BoardGeometry, proposal: Proposal) -> None:
    t = p.theme
    placed = {tile.square for tile in proposal.tiles}
    for sq in proposal.removed:
        if sq in placed:
            continue
        r = geo.rect(sq).inflate(-4, -4)
        width = max(3, geo.cell // 6)
        p.draw(lambda s, r=r, w=width: (pygame.draw.line(s, t.bad, r.topleft, r.bottomright, w),
                                        pygame.draw.line(s, t.bad, r.topright, r.bottomleft, w)))
    for tile in proposal.tiles:
        p.blit(art.tile(p, tile.letter, tile.blank, "proposal", geo.cell), geo.rect(tile.square).move(1, 1).topleft)
    for sq in proposal.blanks_needed:
        p.fill(geo.rect(sq).inflate(-2, -2), t.blank_text, width=max(2, geo.cell // 7), radius=geo.cell // 8)
    cand_px = max(8, int(geo.cell * 0.3))
    for unc in proposal.uncertain:
        r = geo.rect(unc.square)
        p.fill(r.inflate(-1, -1), t.uncertain, width=max(2, geo.cell // 9), radius=geo.cell // 8)
        alts = "".join(c.letter for c in unc.candidates[1:3])
        if alts:
            txt = p.fonts.render(alts, cand_px, (255, 255, 255), True)
            # Straddles the tile's top-right corner so the read letter stays visible.
            badge = txt.get_rect(center=(r.right - 2, r.top + 2)).inflate(4, 0)
            badge.right = min(badge.right, p.w - 1)
            p.fill(badge, t.uncertain, radius=3)
            p.blit(txt, txt.get_rect(center=badge.center).topleft)


# ---------------------------------------------------------------------------------------------
# Keyboard


def keyboard(p: Painter, rect: pygame.Rect, alphabet: str, *, digits: bool = False, space: bool = False,
             joker: bool = False, joker_on: bool = False, enter_label: str = "", enter_enabled: bool = True,
             joker_label: str = "?") -> None:
    """On-screen keyboard for ``alphabet`` (one key per letter, in the tile set's order)."""
    gap = p.px(4)
    letters = list(dict.fromkeys(alphabet))
    rows_spec: list[list[tuple[str, UiAction, str]]] = []
    if digits:
        rows_spec.append([(d, UiAction(ActionKind.KEY, text=d), "normal") for d in "1234567890"])
    n = len(letters)
    # Roughly square keys: choose the column count from the space the letters get.
    special_rows = 1 + (1 if digits else 0)
    est_rows = max(1, math.ceil(n / 10))
    letter_h = rect.h * est_rows / (est_rows + special_rows)
    cols = max(6, min(n, round(math.sqrt(n * rect.w / max(1, letter_h)))))
    for i in range(0, n, cols):
        rows_spec.append([(ch, UiAction(ActionKind.KEY, text=ch), "normal") for ch in letters[i:i + cols]])
    bottom: list[tuple[str, UiAction, str]] = [("⌫", UiAction(ActionKind.BACKSPACE), "normal")]
    if joker:
        bottom.append((joker_label, UiAction(ActionKind.KEY, text="?"), "accent" if joker_on else "normal"))
    if space:
        bottom.append(("␣", UiAction(ActionKind.SPACE), "normal"))
    if enter_label:
        bottom.append((enter_label, UiAction(ActionKind.ENTER), "primary" if enter_enabled else "disabled"))
    rows_spec.append(bottom)
    row_rects = [pygame.Rect(rect.left, rect.top + i * rect.h // len(rows_spec), rect.w, rect.h // len(rows_spec))
                 for i in range(len(rows_spec))]
    for spec, rrect in zip(rows_spec, row_rects, strict=True):
        per_row = max(cols, len(spec))
        key_w = (rect.w - gap * (per_row - 1)) / per_row
        if spec is bottom:
            weights = [2.0 if lbl == enter_label else 1.0 for lbl, _, _ in spec]
            total = sum(weights)
            x = rrect.left
            avail = rrect.w - gap * (len(spec) - 1)
            for (lbl, act, style), wgt in zip(spec, weights, strict=True):
                kw = round(avail * wgt / total)
                kr = pygame.Rect(x, rrect.top, kw, rrect.h - gap)
                p.button(kr, lbl, act, style="normal" if style == "disabled" else style,
                         enabled=style != "disabled", size=20 if lbl == enter_label else 26)
                x += kw + gap
        else:
            for j, (lbl, act, style) in enumerate(spec):
                kr = pygame.Rect(round(rrect.left + j * (key_w + gap)), rrect.top, round(key_w), rrect.h - gap)
                p.button(kr, lbl, act, style=style, size=26)


def entry_field(p: Painter, rect: pygame.Rect, text: str, hint: str, *, active: bool = True) -> None:
    p.fill(rect, (250, 250, 245), radius=p.px(6))
    if active:
        p.fill(rect, p.theme.accent, radius=p.px(6), width=p.px(3))
    inner = rect.inflate(-p.px(16), -p.px(6))
    if text:
        p.text(text + ("▏" if active else ""), inner, 30, p.theme.tile_text, bold=True, align="left")
    else:
        p.text(hint, inner, 18, (110, 110, 110), align="left")


# ---------------------------------------------------------------------------------------------
# Players, clocks, verdict


def player_card(p: Painter, rect: pygame.Rect, player: PlayerView, index: int, label: str,
                action: UiAction | None = None, to_move_label: str = "") -> None:
    t = p.theme
    p.fill(rect, t.panel, radius=p.px(8))
    if player.to_move:
        p.fill(rect, t.accent, radius=p.px(8), width=p.px(4))
    inner = rect.inflate(-p.px(14), -p.px(8))
    top, bottom = pygame.Rect(inner.left, inner.top, inner.w, inner.h * 2 // 5), None
    bottom = pygame.Rect(inner.left, top.bottom, inner.w, inner.h - top.h)
    name_w = inner.w if player.clock is None else inner.w * 3 // 5
    p.text(player.name, pygame.Rect(top.left, top.top, name_w, top.h), 20,
           t.accent if player.to_move else t.text, bold=player.to_move, align="left")
    if player.clock is not None:
        p.text(format_clock(player.clock.remaining_ms),
               pygame.Rect(top.left + name_w, top.top, inner.w - name_w, top.h), 24,
               clock_colour(p, player.clock), bold=True, align="right")
    score_w = inner.w * 3 // 5 if (player.note or player.rack_count is not None) else inner.w
    p.text(str(player.score), pygame.Rect(bottom.left, bottom.top, score_w, bottom.h), 44, t.text, bold=True,
           align="left")
    side = pygame.Rect(bottom.left + score_w, bottom.top, inner.w - score_w, bottom.h)
    if player.note:
        p.text(player.note, side, 14, t.warn, align="right")
    if action is not None:
        p.add_hot(rect, action)


def big_timer(p: Painter, rect: pygame.Rect, reading: ClockReading, caption: str, size: float = 150) -> None:
    t = p.theme
    cap_h = rect.h // 6 if caption else 0
    if caption:
        p.text(caption, pygame.Rect(rect.left, rect.top, rect.w, cap_h), 22, t.dim)
    body = pygame.Rect(rect.left, rect.top + cap_h, rect.w, rect.h - cap_h)
    p.text(format_clock(reading.remaining_ms), body, min(size, body.h / p.u * 0.95), clock_colour(p, reading),
           bold=True)


def verdict_screen(p: Painter, verdict: Verdict, yes: str, no: str, back_in: str | None) -> None:
    t = p.theme
    colour = t.good if verdict.acceptable else t.bad
    full = pygame.Rect(0, 0, p.w, p.h)
    p.fill(full, colour)
    pad = p.px(20)
    head = pygame.Rect(pad, pad, p.w - 2 * pad, p.h * 2 // 5)
    p.text(yes if verdict.acceptable else no, head, 96, (255, 255, 255), bold=True)
    words = pygame.Rect(pad, head.bottom, p.w - 2 * pad, p.h - head.bottom - p.px(60))
    if verdict.words:
        row_h = min(p.px(44), words.h // max(1, len(verdict.words)))
        for i, ws in enumerate(verdict.words):
            mark = "" if ws.acceptable is None else ("✓ " if ws.acceptable else "✗ ")
            r = pygame.Rect(words.left, words.top + i * row_h, words.w, row_h)
            p.text(mark + ws.word, r, 36, (255, 255, 255), bold=ws.acceptable is False)
    if back_in:
        p.text(back_in, pygame.Rect(pad, p.h - p.px(56), p.w - 2 * pad, p.px(44)), 22, (235, 235, 235))
    p.add_hot(full, UiAction(ActionKind.OK))

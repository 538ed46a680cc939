# SPDX-License-Identifier: GPL-3.0-or-later
"""Reusable pieces of a screen: board, keyboard, player cards, clocks, verdict, text wrapping."""

from __future__ import annotations

import functools
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
        return p.theme.bad_text
    if reading.state is TimerState.PAUSED:
        return p.theme.dim  # a stopped clock must not look like a running one
    if reading.warning:
        return p.theme.warn
    return p.theme.text


def wrap(p: Painter, text: str, width: int, size_px: int, bold: bool = False) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and p.fonts.width(trial, size_px, bold) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def paragraph(p: Painter, text: str, rect: pygame.Rect, size: float, colour: Colour | None = None,
              bold: bool = False, centre: bool = False) -> int:
    """Wrapped text from the top of ``rect``; returns the height used. Text that does not fit in the
    lines there is room for is set smaller rather than cut."""
    px = p.px(size)
    while True:
        line_h = int(px * 1.25)
        lines = wrap(p, text, rect.w, px, bold)
        if len(lines) * line_h <= rect.h or px <= p.px(11):
            break
        px = int(px * 0.9)
    y = rect.top
    for line in lines:
        if y + line_h > rect.bottom + line_h // 4:
            break
        p.text(line, pygame.Rect(rect.left, y, rect.w, line_h), px / p.u, colour, bold=bold,
               align="center" if centre else "left")
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
                    pygame.draw.circle(surf, t.premium_text, rect.center, max(2, cell // 6))
                elif label:
                    txt = p.fonts.render(label, label_px, t.premium_text, True)
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
        if style == "proposal":
            colour = t.blank_needed if blank else t.proposal_text
        text = letter if letter else "?"
        px = int(cell * (0.62 if len(text) == 1 else 0.45))
        txt = p.fonts.render(text, px, colour, True)
        surf.blit(txt, txt.get_rect(center=(surf.get_width() // 2, surf.get_height() // 2 + 1)))
        if blank:
            # A ring marks a blank even where colour cannot be told apart.
            pygame.draw.rect(surf, t.blank_needed if style == "proposal" else t.blank_text, surf.get_rect(),
                             max(1, cell // 14), border_radius=max(2, cell // 8))
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
            _draw_proposal(p, art, geo, proposal, selected, {tile.square for tile in board.tiles})
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


def _draw_proposal(p: Painter, art: BoardArt, geo: BoardGeometry, proposal: Proposal, selected: Pos | None,
                   on_board: set[Pos]) -> None:
    """New tiles dark on the light squares; blank-needed: a cyan ring inside; unsure: an orange ring and a
    badge with the other candidates above the tile; the tile being corrected: a white frame outside it.
    Badges are drawn last so no ring covers them."""
    t = p.theme
    placed = {tile.square for tile in proposal.tiles}
    for sq in proposal.removed:
        if sq in placed:
            continue
        r = geo.rect(sq).inflate(-4, -4)
        width = max(3, geo.cell // 6)
        p.draw(functools.partial(_cross, rect=r, colour=t.bad, width=width))
    for tile in proposal.tiles:
        p.blit(art.tile(p, tile.letter, tile.blank, "proposal", geo.cell), geo.rect(tile.square).move(1, 1).topleft)
    for sq in proposal.blanks_needed:
        p.fill(geo.rect(sq).inflate(-4, -4), t.blank_needed, width=max(3, geo.cell // 7), radius=geo.cell // 8)
    for unc in proposal.uncertain:
        p.fill(geo.rect(unc.square).inflate(-1, -1), t.uncertain, width=max(3, geo.cell // 8), radius=geo.cell // 8)
    if selected is not None:
        frame = geo.rect(selected).inflate(geo.cell // 2, geo.cell // 2)
        p.fill(frame, t.board_edge, width=max(4, geo.cell // 5) + 2)
        p.fill(frame.inflate(-2, -2), t.selected, width=max(3, geo.cell // 6))
    badge_px = max(p.px(14), int(geo.cell * 0.45))
    for unc in proposal.uncertain:
        alts = "".join(c.letter for c in unc.candidates[1:3])
        if not alts:
            continue
        r = geo.rect(unc.square)
        txt = p.fonts.render(alts, badge_px, t.tile_text, True)
        badge = txt.get_rect().inflate(p.px(10), p.px(8))
        # Beside the tile, on an empty square if there is one (above, left, right, below), else not on a new tile.
        row, col = unc.square
        away = geo.cell // 4 if unc.square == selected else 1
        spots = (((row - 1, col), "midbottom", (r.centerx, r.top - away)),
                 ((row, col - 1), "midright", (r.left - away, r.centery)),
                 ((row, col + 1), "midleft", (r.right + away, r.centery)),
                 ((row + 1, col), "midtop", (r.centerx, r.bottom + away)))
        inside = [spot for spot in spots if 0 <= spot[0][0] < geo.n and 0 <= spot[0][1] < geo.n]
        empty = [spot for spot in inside if spot[0] not in placed and spot[0] not in on_board]
        not_new = [spot for spot in inside if spot[0] not in placed]
        _, anchor, point = (empty or not_new or spots)[0]
        setattr(badge, anchor, point)
        badge.clamp_ip(pygame.Rect(0, 0, p.w, p.h))
        p.fill(badge, t.uncertain, radius=p.px(4))
        where = txt.get_rect(center=badge.center)
        p.blit(txt, where.topleft)
        p.record(alts, where, badge_px, True, t.tile_text)


# ---------------------------------------------------------------------------------------------
# Keyboard


def keyboard(p: Painter, rect: pygame.Rect, alphabet: str, *, digits: bool = False, space: bool = False,
             joker: bool = False, joker_on: bool = False, enter_label: str = "", enter_enabled: bool = True,
             joker_label: str = "?", extra: tuple[tuple[str, UiAction, str], ...] = (),
             styles: dict[str, str] | None = None) -> None:
    """On-screen keyboard for ``alphabet`` (one key per letter, in the tile set's order). Keys are at least
    :attr:`Painter.touch` wide and :attr:`Painter.gap` apart: the letters take as many rows as that needs,
    the bottom row holds backspace, blank, space, ``extra`` keys and ENTER. ``styles`` colours letter keys."""
    gap = p.gap
    letters = list(dict.fromkeys(alphabet))
    n = len(letters)
    max_cols = max(1, (rect.w + gap) // (p.touch + gap))
    letter_rows = max(1, math.ceil(n / max_cols))
    cols = math.ceil(n / letter_rows)
    rows_spec: list[list[tuple[str, UiAction, str]]] = []
    if digits:
        per = 10 if max_cols >= 10 else 5
        for i in range(0, 10, per):
            rows_spec.append([(d, UiAction(ActionKind.KEY, text=d), "normal") for d in "1234567890"[i:i + per]])
    styles = styles or {}
    for i in range(0, n, cols):
        rows_spec.append([(ch, UiAction(ActionKind.KEY, text=ch), styles.get(ch, "normal"))
                          for ch in letters[i:i + cols]])
    bottom: list[tuple[str, UiAction, str]] = [("⌫", UiAction(ActionKind.BACKSPACE), "normal")]
    if joker:
        bottom.append((joker_label, UiAction(ActionKind.KEY, text="?"), "accent" if joker_on else "normal"))
    if space:
        bottom.append(("␣", UiAction(ActionKind.SPACE), "normal"))
    bottom += list(extra)
    if enter_label:
        bottom.append((enter_label, UiAction(ActionKind.ENTER), "primary" if enter_enabled else "disabled"))
    rows_spec.append(bottom)
    row_h = (rect.h + gap) // len(rows_spec) - gap
    wide = {enter_label, joker_label} | {label for label, _, _ in extra}
    for i, spec in enumerate(rows_spec):
        top = rect.top + i * (row_h + gap)
        per_row = len(spec) if spec is bottom else max(cols, len(spec))
        weights = [2.0 if spec is bottom and lbl in wide else 1.0 for lbl, _, _ in spec]
        if spec is not bottom:
            weights += [1.0] * (per_row - len(spec))
        avail = rect.w - gap * (len(weights) - 1)
        x = rect.left
        for j, (lbl, act, style) in enumerate(spec):
            kw = round(avail * weights[j] / sum(weights))
            kr = pygame.Rect(x, top, kw, row_h)
            p.button(kr, lbl, act, style="normal" if style == "disabled" else style,
                     enabled=style != "disabled", size=18 if lbl in wide else 26)
            x += kw + gap


def keyboard_height(p: Painter, width: int, alphabet: str, *, digits: bool = False) -> int:
    """The height :func:`keyboard` needs for full-size keys at ``width``."""
    n = len(dict.fromkeys(alphabet))
    max_cols = max(1, (width + p.gap) // (p.touch + p.gap))
    rows = math.ceil(n / max_cols) + 1 + ((1 if max_cols >= 10 else 2) if digits else 0)
    return rows * (p.touch + p.gap) - p.gap


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


def player_card(p: Painter, rect: pygame.Rect, player: PlayerView, *, paused_label: str = "",
                rack_label: str = "", note: str = "") -> None:
    """Name and rack count on top; score (left) and clock (right) large below. The running clock has a
    marker and a sweep that moves every frame; a stopped game clock says ``paused_label``."""
    t = p.theme
    p.fill(rect, t.panel, radius=p.px(8))
    running = player.clock is not None and player.clock.state is TimerState.RUNNING
    if player.to_move:
        p.fill(rect, t.running if running else t.accent, radius=p.px(8), width=p.px(4))
    inner = rect.inflate(-p.px(16), -p.px(10))
    top = pygame.Rect(inner.left, inner.top, inner.w, inner.h * 2 // 5)
    bottom = pygame.Rect(inner.left, top.bottom, inner.w, inner.h - top.h)
    if inner.w < p.px(240):
        rack_label = ""  # a narrow card (four players side by side): the name needs the whole row
    name_w = inner.w if not (rack_label or note) else inner.w * 3 // 5
    p.text(player.name, pygame.Rect(top.left, top.top, name_w, top.h), 20,
           t.accent if player.to_move else t.text, bold=player.to_move, align="left")
    side = pygame.Rect(top.left + name_w, top.top, inner.w - name_w, top.h)
    if note:
        p.text(note, side, 15, t.warn, align="right")
    elif rack_label:
        p.text(rack_label, side, 15, t.dim, align="right")
    score_w = inner.w if player.clock is None else inner.w * 2 // 5
    p.text(str(player.score), pygame.Rect(bottom.left, bottom.top, score_w, bottom.h), 42, t.text, bold=True,
           align="left")
    if player.clock is None:
        return
    clock_r = pygame.Rect(bottom.left + score_w, bottom.top, inner.w - score_w, bottom.h)
    reading = player.clock
    if reading.state is TimerState.PAUSED:
        cap = pygame.Rect(clock_r.left, clock_r.top - top.h, clock_r.w, top.h)
        if not (rack_label or note):
            p.text(paused_label, cap, 15, t.warn, bold=True, align="right")
        else:
            p.text(paused_label, pygame.Rect(clock_r.left, clock_r.top, clock_r.w // 3, clock_r.h), 13, t.warn,
                   bold=True, align="left")
    if running:
        marker = pygame.Rect(clock_r.left, clock_r.top, p.px(18), clock_r.h)
        p.text("▶", marker, 18, t.running, align="left")
        sweep = pygame.Rect(clock_r.left + p.px(20), clock_r.bottom - p.px(4), clock_r.w - p.px(20), p.px(4))
        part = (reading.remaining_ms % 1000) / 1000 if reading.remaining_ms >= 0 else 1.0
        p.fill(pygame.Rect(sweep.left, sweep.top, max(1, round(sweep.w * part)), sweep.h), t.running)
    p.text(format_clock(reading.remaining_ms), pygame.Rect(clock_r.left + p.px(20), clock_r.top,
                                                            clock_r.w - p.px(20), clock_r.h - p.px(4)),
           34, clock_colour(p, reading), bold=True, align="right")


def big_timer(p: Painter, rect: pygame.Rect, reading: ClockReading, caption: str, size: float = 150,
              paused_label: str = "") -> None:
    t = p.theme
    cap_h = rect.h // 6 if caption or paused_label else 0
    if reading.state is TimerState.PAUSED and paused_label:
        p.text(paused_label, pygame.Rect(rect.left, rect.top, rect.w, cap_h), 22, t.warn, bold=True)
    elif caption:
        p.text(caption, pygame.Rect(rect.left, rect.top, rect.w, cap_h), 22, t.dim)
    body = pygame.Rect(rect.left, rect.top + cap_h, rect.w, rect.h - cap_h - p.px(8))
    p.text(format_clock(reading.remaining_ms), body, min(size, body.h / p.u * 0.95), clock_colour(p, reading),
           bold=True)
    if reading.state is TimerState.RUNNING:
        sweep = pygame.Rect(rect.left + rect.w // 4, rect.bottom - p.px(6), rect.w // 2, p.px(6))
        part = (reading.remaining_ms % 1000) / 1000 if reading.remaining_ms >= 0 else 1.0
        p.fill(pygame.Rect(sweep.left, sweep.top, max(1, round(sweep.w * part)), sweep.h), t.running)


def verdict_screen(p: Painter, verdict: Verdict, yes: str, no: str, back_in: str | None, *,
                   instruction: str = "", continue_label: str = "") -> None:
    """The verdict over the whole screen, what to do now (``instruction``) and a CONTINUE button."""
    t = p.theme
    colour = t.good if verdict.acceptable else t.bad
    full = pygame.Rect(0, 0, p.w, p.h)
    p.fill(full, colour)
    pad = p.px(20)
    btn_h = p.px(64)
    head = pygame.Rect(pad, pad, p.w - 2 * pad, p.h // 3)
    p.text(yes if verdict.acceptable else no, head, 96, (255, 255, 255), bold=True)
    low = p.h - pad - btn_h
    instr_h = p.px(44) if instruction else 0
    words = pygame.Rect(pad, head.bottom, p.w - 2 * pad, low - head.bottom - instr_h - p.px(36))
    if verdict.words:
        row_h = min(p.px(44), words.h // max(1, len(verdict.words)))
        for i, ws in enumerate(verdict.words):
            mark = "" if ws.acceptable is None else ("✓ " if ws.acceptable else "✗ ")
            r = pygame.Rect(words.left, words.top + i * row_h, words.w, row_h)
            p.text(mark + ws.word, r, 36, (255, 255, 255), bold=ws.acceptable is False)
    if instruction:
        paragraph(p, instruction, pygame.Rect(pad, words.bottom, p.w - 2 * pad, instr_h), 22, (255, 255, 255),
                  bold=True, centre=True)
    if back_in:
        p.text(back_in, pygame.Rect(pad, low - p.px(34), p.w - 2 * pad, p.px(30)), 20, (255, 255, 255))
    if continue_label:
        btn = pygame.Rect(p.w // 2 - p.px(160), low, p.px(320), btn_h)
        p.fill(btn, (255, 255, 255), radius=p.px(10))
        p.text(continue_label, btn.inflate(-p.px(12), -p.px(6)), 28, t.tile_text, bold=True)
        p.add_hot(btn, UiAction(ActionKind.OK))


def _cross(surface: pygame.Surface, *, rect: pygame.Rect, colour: Colour, width: int) -> None:
    """An X over ``rect`` (a tile the move takes away)."""
    pygame.draw.line(surface, colour, rect.topleft, rect.bottomright, width)
    pygame.draw.line(surface, colour, rect.topright, rect.bottomleft, width)

# SPDX-License-Identifier: GPL-3.0-or-later
"""The MISSED screen (``View.missed``, a :class:`device.missed.MissedView`): after a game, each player's moves
beside the best move there was, and their share of what the best moves would have scored.

One panel per player (two side by side on a landscape panel, stacked in portrait). A panel that cannot hold
every turn shows the turns with the biggest gap, in turn order. While the worker is still computing, the
status line says how far it got and the turns not reached show an ellipsis.
"""

from __future__ import annotations

import math

import pygame

from device.ui.screens import Ctx, act, bottom_rows, button_row, chrome, title
from device.ui.view import ActionKind


def missed(c: Ctx) -> None:
    p, mv = c.p, c.v.missed
    if mv is None:
        return
    area = chrome(c).inflate(-p.px(16), -p.px(10))
    body = title(c, area, "missed.title")
    rest, buttons = bottom_rows(c, body, 1)
    if mv.failed:
        status, colour = c.s("missed.failed"), p.theme.warn
    elif mv.done < mv.total:
        status, colour = c.s("missed.computing", done=mv.done, total=mv.total), p.theme.accent
    else:
        status, colour = (c.s("missed.tiles_played") if not mv.racks_known else c.s("missed.ready")), p.theme.dim
    p.text(status, pygame.Rect(rest.left, rest.top, rest.w, p.px(28)), 17, colour, align="left")
    top = rest.top + p.px(32)
    panels = pygame.Rect(rest.left, top, rest.w, rest.bottom - top)
    count = max(1, len(mv.players))
    cols = 1 if p.h > p.w else min(2, count)
    rows = math.ceil(count / cols)
    gap = p.gap
    w = (panels.w - (cols - 1) * gap) // cols
    h = (panels.h - (rows - 1) * gap) // rows
    for i, player in enumerate(mv.players):
        r = pygame.Rect(panels.left + (i % cols) * (w + gap), panels.top + (i // cols) * (h + gap), w, h)
        _panel(c, r, player)
    button_row(c, pygame.Rect(buttons.left, buttons.top, buttons.w // 2, buttons.h),
               [("button.back", act(ActionKind.BACK), "primary", True)], size=20)


def _panel(c: Ctx, r: pygame.Rect, player) -> None:  # noqa: ANN001 (a device.missed.MissedPlayer)
    p = c.p
    p.fill(r, p.theme.panel, radius=p.px(8))
    inner = r.inflate(-p.px(12), -p.px(8))
    head_h = p.px(30)
    name_w = inner.w * 2 // 5
    p.text(player.name, pygame.Rect(inner.left, inner.top, name_w, head_h), 20, p.theme.text, bold=True, align="left")
    if player.share is not None:
        share = c.s("missed.share", scored=player.scored, possible=player.possible, share=player.share)
        p.text(share, pygame.Rect(inner.left + name_w, inner.top, inner.w - name_w, head_h), 17, p.theme.accent,
               bold=True, align="right")
    line_h = p.px(24)
    fits = max(0, (inner.h - head_h) // line_h)
    rows = list(player.rows)
    if len(rows) > fits:
        keep = sorted(rows, key=lambda row: (row.score - (row.best_score or row.score), row.turn))[:fits]
        rows = sorted(keep, key=lambda row: row.turn)
    y = inner.top + head_h
    left_w = inner.w * 11 // 20
    for row in rows:
        colour = p.theme.warn if row.missed else p.theme.text
        p.text(f"{row.turn}. {row.played} {row.score}", pygame.Rect(inner.left, y, left_w, line_h), 15, colour,
               align="left")
        if row.best_score is None:
            best = c.s("missed.pending")
        elif row.best:
            best = c.s("missed.best", move=row.best, score=row.best_score)
        else:
            best = c.s("missed.no_move")
        p.text(best, pygame.Rect(inner.left + left_w, y, inner.w - left_w, line_h), 15,
               p.theme.accent if row.missed else p.theme.dim, align="right")
        y += line_h

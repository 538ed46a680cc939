# SPDX-License-Identifier: GPL-3.0-or-later
"""The HINT screen (``View.hint_view``, a :class:`device.hint.HintView`): the rack typed on the keyboard
("?" key: a blank), then the best move's score and its first letter, in large type, and nothing more."""

from __future__ import annotations

import pygame

from device.ui.screens import Ctx, act, chrome, say
from device.ui.view import ActionKind
from device.ui.widgets import entry_field, keyboard


def hint(c: Ctx) -> None:
    p, st, hv = c.p, c.st, c.v.hint_view
    if hv is None:
        return
    area = chrome(c).inflate(-p.px(16), -p.px(12))
    back_w = p.px(170)
    head = pygame.Rect(area.left, area.top, area.w - back_w - p.gap, p.px(52))
    p.text(c.s("hint.title"), head, 28, bold=True, align="left")
    p.button(pygame.Rect(area.right - back_w, area.top, back_w, p.px(52)), c.s("button.back"),
             act(ActionKind.BACK), size=18)
    field = pygame.Rect(area.left, head.bottom + p.gap, area.w, p.px(56))
    entry_field(p, field, st.entry, c.s("hint.type_rack"))
    answer = pygame.Rect(area.left, field.bottom + p.gap, area.w, p.px(64))
    if c.v.message is not None:
        text, colour = say(c, c.v.message), p.theme.warn
    elif hv.failed:
        text, colour = c.s("hint.failed"), p.theme.warn
    elif hv.searching:
        text, colour = c.s("hint.searching", rack=hv.rack), p.theme.dim
    elif hv.no_move:
        text, colour = c.s("hint.no_move", rack=hv.rack), p.theme.text
    elif hv.score is not None:
        text, colour = c.s("hint.answer", rack=hv.rack, score=hv.score, letter=hv.first_letter), p.theme.accent
    else:
        text, colour = "", p.theme.text
    if text:
        p.text(text, answer, 26, colour, bold=hv.score is not None)
    kb = pygame.Rect(area.left, answer.bottom + p.gap, area.w, area.bottom - answer.bottom - p.gap)
    keyboard(p, kb, c.v.alphabet, joker=True, joker_label=c.s("button.blank"), enter_label=c.s("hint.show"),
             enter_enabled=bool(st.entry.strip()))

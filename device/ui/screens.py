# SPDX-License-Identifier: GPL-3.0-or-later
"""One function per :class:`~device.ui.view.Screen`: draws the View with a Painter and registers the
touch regions. Landscape puts the board (or the main area) left and a panel right; portrait stacks
them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from device.ui.draw import Painter, split_cols, split_rows
from device.ui.strings import Strings
from device.ui.view import (
    ActionKind,
    FormView,
    KeywordsPhase,
    Option,
    Pos,
    Screen,
    Severity,
    UiAction,
    View,
)
from device.ui.widgets import (
    BoardArt,
    big_timer,
    draw_board,
    entry_field,
    format_clock,
    keyboard,
    paragraph,
    player_card,
    square_name,
    verdict_screen,
)


@dataclass
class WidgetState:
    """What only the UI remembers: the text being typed and what is selected."""

    screen: Screen | None = None
    entry: str = ""
    selected: Pos | None = None
    """CONFIRM_MOVE: the square whose letter is being corrected."""
    selected_blank: bool = False
    steal: tuple[int, str] | None = None
    """ORDSKIFTE: (victim, word) picked on a rail."""
    entry_player: int | None = None
    """KEYWORDS entry: whose words are being typed."""
    unused: int = 0
    editing: str | None = None
    """NEW_GAME/SETTINGS: key of the text option being edited."""
    joker_next: bool = False


@dataclass
class Ctx:
    p: Painter
    v: View
    st: WidgetState
    strings: Strings
    art: BoardArt

    def s(self, key: str, **fields: object) -> str:
        return self.strings.get(self.v.language, key, **fields)

    def label(self, key: str) -> str:
        """A strings key, optionally with ``:n`` for ``{n}`` (``label.player_n:2``)."""
        base, _, arg = key.partition(":")
        return self.s(base, n=arg) if arg else self.s(base)


def act(kind: ActionKind, **kw: object) -> UiAction:
    return UiAction(kind, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Layout helpers


def warnings_band(c: Ctx, rect: pygame.Rect) -> pygame.Rect:
    """Draw the warnings on top of ``rect``; returns what is left below them."""
    if not c.v.warnings:
        return rect
    p = c.p
    h = p.px(30)
    for i, w in enumerate(c.v.warnings):
        band = pygame.Rect(rect.left, rect.top + i * h, rect.w, h)
        p.fill(band, p.theme.bad if w.severity is Severity.ERROR else p.theme.warn)
        text = c.s(w.key) + (f": {w.detail}" if w.detail else "")
        p.text(text, band.inflate(-p.px(12), -p.px(4)), 18, (0, 0, 0), bold=True)
    used = h * len(c.v.warnings)
    return pygame.Rect(rect.left, rect.top + used, rect.w, rect.h - used)


def main_split(c: Ctx, area: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """(board area, panel): square board left in landscape, on top in portrait."""
    p = c.p
    if p.portrait:
        side = min(area.w, area.h * 3 // 5)
        return pygame.Rect(area.left, area.top, area.w, side), pygame.Rect(
            area.left + p.px(8), area.top + side + p.px(4), area.w - p.px(16), area.h - side - p.px(12))
    side = min(area.h, area.w * 3 // 5)
    return pygame.Rect(area.left, area.top, side, area.h), pygame.Rect(
        area.left + side + p.px(6), area.top + p.px(6), area.w - side - p.px(12), area.h - p.px(12))


def title(c: Ctx, rect: pygame.Rect, key: str) -> pygame.Rect:
    h = c.p.px(44)
    c.p.text(c.s(key), pygame.Rect(rect.left, rect.top, rect.w, h), 28, bold=True, align="left")
    return pygame.Rect(rect.left, rect.top + h, rect.w, rect.h - h)


def button_row(c: Ctx, rect: pygame.Rect, buttons: list[tuple[str, UiAction | None, str, bool]],
               size: float = 20) -> None:
    if not buttons:
        return
    gap = c.p.px(6)
    for r, (key, action, style, enabled) in zip(split_cols(rect, [1] * len(buttons), gap), buttons, strict=True):
        c.p.button(r, c.s(key), action, style=style, enabled=enabled, size=size)


# ---------------------------------------------------------------------------------------------
# Screens


def scoreboard(c: Ctx) -> None:
    p, v = c.p, c.v
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h))
    board_rect, panel = main_split(c, area)
    if v.board is not None:
        draw_board(p, c.art, v.board, board_rect)
    btn_h = p.px(52)
    n = max(1, len(v.players))
    if p.portrait:
        cards_h = p.px(96) * ((n + 1) // 2)
    else:
        cards_h = min(p.px(96) * n, panel.h * 3 // 5)
    cards = pygame.Rect(panel.left, panel.top, panel.w, cards_h)
    players_grid(c, cards)
    rows = 2 if not p.portrait else 1
    buttons = pygame.Rect(panel.left, panel.bottom - rows * btn_h - (rows - 1) * p.px(6), panel.w,
                          rows * btn_h + (rows - 1) * p.px(6))
    hist = pygame.Rect(panel.left, cards.bottom + p.px(6), panel.w, buttons.top - cards.bottom - p.px(12))
    history(c, hist)
    specs = [("button.challenge", act(ActionKind.CHALLENGE), "danger", bool(v.history)),
             ("button.undo", act(ActionKind.UNDO), "normal", v.can_undo and bool(v.history)),
             ("button.manual", act(ActionKind.MANUAL_ENTRY), "normal", True),
             ("button.judge", act(ActionKind.JUDGE), "normal", True),
             ("button.settings", act(ActionKind.SETTINGS), "normal", True)]
    if rows == 2:
        top, bottom = split_rows(buttons, [1, 1], p.px(6))
        button_row(c, top, specs[:2])
        button_row(c, bottom, specs[2:], size=16)
    else:
        button_row(c, buttons, specs, size=16)


def players_grid(c: Ctx, rect: pygame.Rect) -> None:
    p, v = c.p, c.v
    n = len(v.players)
    if n == 0:
        return
    gap = p.px(6)
    cols = 2 if p.portrait and n > 1 else 1
    rows = (n + cols - 1) // cols
    row_rects = split_rows(rect, [1] * rows, gap)
    for i, pl in enumerate(v.players):
        r = row_rects[i // cols]
        cell = split_cols(r, [1] * cols, gap)[i % cols]
        player_card(p, cell, pl, i, "", act(ActionKind.PLAYER_BUTTON, player=i))


def history(c: Ctx, rect: pygame.Rect) -> None:
    p, v = c.p, c.v
    if rect.h <= 0:
        return
    p.fill(rect, p.theme.panel, radius=p.px(6))
    inner = rect.inflate(-p.px(12), -p.px(8))
    line_h = p.px(26)
    head = pygame.Rect(inner.left, inner.top, inner.w, line_h)
    bag = c.s("label.bag", count=v.bag_count) if v.bag_count is not None else ""
    p.text(c.s("label.history"), head, 16, p.theme.dim, align="left")
    if bag:
        p.text(bag, head, 16, p.theme.dim, align="right")
    fit = max(0, (inner.h - line_h) // line_h)
    rows = v.history[-fit:] if fit else ()
    for i, row in enumerate(rows):
        y = inner.top + line_h * (i + 1)
        # First name only: the full one is on the player card, and it shrinks to nothing here.
        name = v.players[row.player].name.split()[0] if row.player < len(v.players) else "?"
        cols = split_cols(pygame.Rect(inner.left, y, inner.w, line_h), [2.2, 4.4, 1.4, 1.6], p.px(4))
        colour = p.theme.dim if row.withdrawn else p.theme.text
        p.text(name, cols[0], 16, p.theme.dim, align="left")
        p.text(row.text, cols[1], 17, colour, bold=True, align="left")
        p.text(f"{row.score:+d}", cols[2], 17, p.theme.bad if row.score < 0 else colour, align="right")
        p.text(str(row.cumulative), cols[3], 17, colour, align="right")


def confirm_move(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    prop = v.proposal
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h))
    board_rect, panel = main_split(c, area)
    blanks = set(prop.blanks_needed) if prop else set()

    def tap(sq: Pos) -> UiAction:
        kind = ActionKind.SET_BLANK if sq in blanks else ActionKind.CORRECT_TILE
        return UiAction(kind, square=sq)

    if v.board is not None:
        draw_board(p, c.art, v.board, board_rect, proposal=prop, selected=st.selected, on_tap=tap)
    if prop is None:
        return
    btn_h = p.px(56)
    if st.selected is not None:
        correction_panel(c, panel)
        return
    body = title(c, panel, "screen.confirm_move")
    who = v.players[prop.player].name if prop.player < len(v.players) else ""
    score_h = p.px(64)
    score_r = pygame.Rect(body.left, body.top, body.w, score_h)
    p.text(who, pygame.Rect(score_r.left, score_r.top, score_r.w // 2, score_h), 22, p.theme.dim, align="left")
    p.text(f"{prop.score:+d}", pygame.Rect(score_r.centerx, score_r.top, score_r.w // 2, score_h), 52,
           p.theme.accent, bold=True, align="right")
    buttons = pygame.Rect(body.left, body.bottom - btn_h, body.w, btn_h)
    y = score_r.bottom + p.px(4)
    row_h = p.px(30)
    for ws in prop.words:
        if y + row_h > buttons.top - p.px(70):
            break
        r = pygame.Rect(body.left, y, body.w, row_h)
        colour = p.theme.bad if ws.acceptable is False else p.theme.text
        p.text(ws.word, pygame.Rect(r.left, r.top, r.w * 3 // 4, r.h), 24 if ws.main else 20, colour,
               bold=ws.main, align="left")
        p.text(str(ws.score), pygame.Rect(r.left + r.w * 3 // 4, r.top, r.w // 4, r.h), 22, colour, align="right")
        y += row_h
    notes: list[tuple[str, tuple[int, int, int]]] = []
    if prop.removed and v.message:
        notes.append((v.message, p.theme.bad))
    notes += [(msg, p.theme.bad) for msg in prop.problems]
    if prop.blanks_needed:
        notes.append((c.s("label.blanks_needed"), p.theme.blank_text))
    if prop.uncertain:
        notes.append((c.s("warn.low_confidence"), p.theme.uncertain))
    if prop.auto_accept_ms is not None and not prop.blanks_needed and not prop.problems:
        notes.append((c.s("label.auto_accept", seconds=(prop.auto_accept_ms + 999) // 1000), p.theme.accent))
    notes.append((c.s("label.tap_to_correct"), p.theme.dim))
    note_area = pygame.Rect(body.left, y + p.px(4), body.w, buttons.top - y - p.px(8))
    for text, colour in notes:
        used = paragraph(p, text, note_area, 16, colour)
        note_area = pygame.Rect(note_area.left, note_area.top + used + p.px(2), note_area.w,
                                note_area.h - used - p.px(2))
    ok = not prop.blanks_needed and not prop.problems
    left, right = split_cols(buttons, [1, 2], p.px(6))
    p.button(left, c.s("button.back"), act(ActionKind.BACK), size=18)
    p.button(right, c.s("button.confirm"), act(ActionKind.CONFIRM), style="primary", enabled=ok, size=26)


def correction_panel(c: Ctx, panel: pygame.Rect) -> None:
    p, v, st = c.p, c.v, c.st
    assert st.selected is not None
    sq = st.selected
    key = "label.choose_blank" if st.selected_blank else "label.choose_letter"
    head = pygame.Rect(panel.left, panel.top, panel.w, p.px(40))
    p.text(c.s(key, square=square_name(sq)), head, 20, p.theme.accent, bold=True, align="left")
    cands = ()
    if v.proposal is not None:
        for unc in v.proposal.uncertain:
            if unc.square == sq:
                cands = unc.candidates[:3]
    y = head.bottom + p.px(4)
    kind = ActionKind.SET_BLANK if st.selected_blank else ActionKind.CORRECT_TILE
    if cands:
        row = pygame.Rect(panel.left, y, panel.w, p.px(56))
        for r, cand in zip(split_cols(row, [1] * len(cands), p.px(6)), cands, strict=False):
            p.button(r, f"{cand.letter} {round(cand.confidence * 100)}%",
                     act(kind, square=sq, letter=cand.letter), style="accent", size=24)
        y = row.bottom + p.px(6)
    btn_h = p.px(48)
    kb = pygame.Rect(panel.left, y, panel.w, panel.bottom - y - btn_h - p.px(6))
    keyboard(p, kb, v.alphabet)
    buttons = pygame.Rect(panel.left, panel.bottom - btn_h, panel.w, btn_h)
    specs = [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True)]
    if not st.selected_blank:
        specs.append(("button.remove_tile", act(ActionKind.CORRECT_TILE, square=sq, letter=""), "danger", True))
    button_row(c, buttons, specs, size=16)


def judge(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    if v.verdict is not None:
        secs = None if v.verdict.countdown_ms is None else c.s(
            "label.back_in", seconds=(v.verdict.countdown_ms + 999) // 1000)
        verdict_screen(p, v.verdict, c.s("verdict.acceptable"), c.s("verdict.unacceptable"), secs)
        return
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(16), -p.px(12))
    key = "screen.challenge" if v.screen is Screen.CHALLENGE else "screen.judge"
    body = title(c, area, key)
    back = pygame.Rect(area.right - p.px(150), area.top, p.px(150), p.px(40))
    p.button(back, c.s("button.back"), act(ActionKind.BACK), size=18)
    if v.screen is Screen.CHALLENGE:
        words = " ".join(v.judge_words)
        p.text(words, pygame.Rect(body.left, body.top, body.w, body.h // 3), 48, bold=True)
        p.text(c.s("label.judging"), pygame.Rect(body.left, body.top + body.h // 3, body.w, body.h // 4), 28,
               p.theme.dim)
        return
    field_h = p.px(64)
    entry_field(p, pygame.Rect(body.left, body.top, body.w, field_h), st.entry, c.s("label.type_words"))
    kb = pygame.Rect(body.left, body.top + field_h + p.px(10), body.w, body.bottom - body.top - field_h - p.px(10))
    keyboard(p, kb, v.alphabet, space=True, enter_label=c.s("button.check"), enter_enabled=bool(st.entry.strip()))


def manual_entry(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h))
    board_rect, panel = main_split(c, area)
    if v.board is not None:
        draw_board(p, c.art, v.board, board_rect)
    body = title(c, panel, "screen.manual_entry")
    field_h = p.px(56)
    entry_field(p, pygame.Rect(body.left, body.top, body.w, field_h), st.entry, c.s("label.type_move"))
    y = body.top + field_h + p.px(4)
    if v.message:
        used = paragraph(p, v.message, pygame.Rect(body.left, y, body.w, p.px(44)), 15, p.theme.bad)
        y += used
    btn_h = p.px(46)
    kb = pygame.Rect(body.left, y + p.px(4), body.w, body.bottom - y - btn_h - p.px(12))
    keyboard(p, kb, v.alphabet, digits=True, space=True, joker=True, joker_on=st.joker_next,
             joker_label=c.s("button.blank"), enter_label=c.s("button.enter"), enter_enabled=bool(st.entry.strip()))
    buttons = pygame.Rect(body.left, body.bottom - btn_h, body.w, btn_h)
    button_row(c, buttons, [("button.back", act(ActionKind.BACK), "normal", True),
                            ("button.exchange", act(ActionKind.EXCHANGE), "normal", True),
                            ("button.pass", act(ActionKind.PASS), "normal", True)], size=16)


def ask_exchange_or_pass(c: Ctx) -> None:
    p = c.p
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(24), -p.px(16))
    body = title(c, area, "screen.ask_exchange_or_pass")
    paragraph(p, c.s("label.exchange_or_pass"), pygame.Rect(body.left, body.top, body.w, body.h // 4), 24)
    btns = pygame.Rect(body.left, body.top + body.h // 3, body.w, body.h // 3)
    button_row(c, btns, [("button.exchange", act(ActionKind.EXCHANGE), "normal", True),
                         ("button.pass", act(ActionKind.PASS), "normal", True)], size=34)
    low = pygame.Rect(body.left, body.bottom - p.px(56), body.w, p.px(56))
    button_row(c, low, [("button.back", act(ActionKind.BACK), "normal", True),
                        ("button.manual", act(ActionKind.MANUAL_ENTRY), "normal", True)])


def end(c: Ctx) -> None:
    p, v = c.p, c.v
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(24), -p.px(16))
    body = title(c, area, "screen.end")
    order = sorted(range(len(v.players)), key=lambda i: -v.players[i].score)
    btn_h = p.px(60)
    rows_area = pygame.Rect(body.left, body.top, body.w, body.h - btn_h - p.px(60))
    row_h = min(p.px(80), rows_area.h // max(1, len(order)))
    for rank, i in enumerate(order):
        pl = v.players[i]
        r = pygame.Rect(rows_area.left, rows_area.top + rank * row_h, rows_area.w, row_h - p.px(6))
        win = i in v.winner
        p.fill(r, p.theme.panel, radius=p.px(8))
        if win:
            p.fill(r, p.theme.accent, radius=p.px(8), width=p.px(4))
        a, b, d = split_cols(r.inflate(-p.px(16), 0), [0.6, 5, 2.4])
        p.text(f"{rank + 1}.", a, 30, p.theme.dim, align="left")
        p.text(pl.name + (f"  {pl.note}" if pl.note else ""), b, 30, p.theme.accent if win else p.theme.text,
               bold=win, align="left")
        p.text(str(pl.score), d, 48, bold=True, align="right")
    y = rows_area.top + row_h * len(order)
    names = ", ".join(v.players[i].name for i in v.winner)
    line = c.s("label.winner", names=names) if len(v.winner) == 1 else (c.s("label.draw") if v.winner else "")
    p.text(line, pygame.Rect(body.left, y, body.w, p.px(34)), 24, p.theme.accent, bold=True, align="left")
    for path in v.export_paths[:2]:
        y += p.px(26)
        p.text(c.s("label.saved_to", path=path), pygame.Rect(body.left, y + p.px(8), body.w, p.px(24)), 14,
               p.theme.dim, align="left")
    button_row(c, pygame.Rect(body.left, body.bottom - btn_h, body.w, btn_h),
               [("button.export", act(ActionKind.EXPORT), "normal", True),
                ("button.new_game", act(ActionKind.NEW_GAME), "primary", True)], size=24)


def form_screen(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    form = v.form or FormView(())
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(16), -p.px(10))
    is_new = v.screen is Screen.NEW_GAME
    body = title(c, area, "screen.new_game" if is_new else "screen.settings")
    if st.editing is not None:
        opt = next((o for o in form.options if o.key == st.editing), None)
        label = c.label(opt.label_key) if opt else st.editing
        p.text(label, pygame.Rect(body.left, body.top, body.w, p.px(30)), 20, p.theme.dim, align="left")
        field = pygame.Rect(body.left, body.top + p.px(32), body.w, p.px(58))
        entry_field(p, field, st.entry, "")
        btn_h = p.px(48)
        kb = pygame.Rect(body.left, field.bottom + p.px(8), body.w, body.bottom - field.bottom - btn_h - p.px(16))
        keyboard(p, kb, v.alphabet, space=True, enter_label=c.s("button.ok"), enter_enabled=bool(st.entry.strip()))
        button_row(c, pygame.Rect(body.left, body.bottom - btn_h, body.w // 2, btn_h),
                   [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True)])
        return
    btn_h = p.px(58)
    msg_h = p.px(40) if v.message else 0
    rows_area = pygame.Rect(body.left, body.top, body.w, body.h - btn_h - msg_h - p.px(8))
    if v.message:
        # Why START is disabled or a choice was refused (the core words it).
        paragraph(p, v.message, pygame.Rect(body.left, rows_area.bottom + p.px(2), body.w, msg_h), 15, p.theme.warn)
    opts = form.options
    cols = 2 if (not p.portrait and len(opts) > 5) else 1
    per_col = (len(opts) + cols - 1) // cols if opts else 1
    row_h = min(p.px(70), rows_area.h // max(1, per_col))
    col_rects = split_cols(rows_area, [1] * cols, p.px(10))
    for i, opt in enumerate(opts):
        col = col_rects[i // per_col]
        r = pygame.Rect(col.left, col.top + (i % per_col) * row_h, col.w, row_h - p.px(6))
        option_row(c, r, opt)
    buttons = pygame.Rect(body.left, body.bottom - btn_h, body.w, btn_h)
    specs = [("button.back", act(ActionKind.BACK), "normal", True)]
    if is_new:
        specs.append(("button.start", act(ActionKind.START_GAME), "primary", form.can_start))
    else:
        specs.insert(1, ("button.calibrate", act(ActionKind.CALIBRATE), "normal", True))
        specs.append(("button.new_game", act(ActionKind.NEW_GAME), "normal", True))
    button_row(c, buttons, specs, size=22)


def option_value_text(c: Ctx, opt: Option) -> str:
    for ch in opt.choices:
        if ch.value == opt.value:
            return ch.label or (c.label(ch.label_key) if ch.label_key else ch.value)
    return opt.value


def option_row(c: Ctx, r: pygame.Rect, opt: Option) -> None:
    p = c.p
    p.fill(r, p.theme.panel if opt.enabled else p.theme.disabled, radius=p.px(6))
    inner = r.inflate(-p.px(14), -p.px(4))
    label_r, value_r = split_cols(inner, [1, 1.3], p.px(8))
    p.text(c.label(opt.label_key), label_r, 18, p.theme.dim, align="left")
    p.text(option_value_text(c, opt), value_r, 22, p.theme.text if opt.enabled else p.theme.disabled_text,
           bold=True, align="right")
    if not opt.enabled:
        return
    if opt.text:
        p.add_hot(r, act(ActionKind.EDIT_OPTION, key=opt.key, text=opt.value))
    elif opt.choices:
        values = [ch.value for ch in opt.choices]
        nxt = values[(values.index(opt.value) + 1) % len(values)] if opt.value in values else values[0]
        p.add_hot(r, act(ActionKind.SET_OPTION, key=opt.key, text=nxt))


def calibration(c: Ctx, frame_surface: Callable[[], pygame.Surface | None]) -> None:
    p, v = c.p, c.v
    cal = v.calibration
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h))
    if p.portrait:
        pic = pygame.Rect(area.left, area.top, area.w, area.h * 3 // 5)
        panel = pygame.Rect(area.left + p.px(10), pic.bottom + p.px(8), area.w - p.px(20),
                            area.bottom - pic.bottom - p.px(16))
    else:
        pic = pygame.Rect(area.left, area.top, area.w * 2 // 3, area.h)
        panel = pygame.Rect(pic.right + p.px(10), area.top + p.px(8), area.right - pic.right - p.px(20),
                            area.h - p.px(16))
    p.fill(pic, (0, 0, 0))
    surf = frame_surface() if p.drawing else None
    if surf is None:
        p.text(c.s("label.no_frame"), pic, 24, p.theme.dim)
    elif cal is not None:
        fw, fh = surf.get_size()
        src_w, src_h = _frame_size(cal)
        dst = surf.get_rect(center=pic.center)
        p.blit(surf, dst.topleft)
        if cal.corners and len(cal.corners) == 4 and src_w:
            sx, sy = fw / src_w, fh / src_h
            pts = [(dst.left + x * sx, dst.top + y * sy) for x, y in cal.corners]
            colour = (40, 230, 90) if cal.ok else p.theme.warn
            p.draw(lambda s: _draw_grid(s, pts, cal.grid_size, colour))
    body = title(c, panel, "screen.calibration")
    ok = bool(cal and cal.ok)
    status = c.s("label.grid_found") if ok else c.s("label.grid_missing")
    used = paragraph(p, status, pygame.Rect(body.left, body.top, body.w, p.px(90)), 20,
                     (40, 230, 90) if ok else p.theme.warn, bold=True)
    if cal and cal.message:
        paragraph(p, cal.message, pygame.Rect(body.left, body.top + used + p.px(8), body.w, p.px(80)), 16, p.theme.dim)
    btn_h = p.px(56)
    b1 = pygame.Rect(body.left, body.bottom - 2 * btn_h - p.px(8), body.w, btn_h)
    b2 = pygame.Rect(body.left, body.bottom - btn_h, body.w, btn_h)
    p.button(b1, c.s("button.save"), act(ActionKind.SAVE_CALIBRATION), style="primary", enabled=ok, size=24)
    p.button(b2, c.s("button.back"), act(ActionKind.BACK), size=22)


def _frame_size(cal: object) -> tuple[int, int]:
    frame = getattr(cal, "frame", None)
    shape = getattr(frame, "shape", None)
    if shape is not None:
        return int(shape[1]), int(shape[0])
    size = getattr(cal, "frame_size", None)
    return size if size else (0, 0)


def _draw_grid(surface: pygame.Surface, pts: list[tuple[float, float]], n: int, colour: tuple[int, int, int]) -> None:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts

    def at(u: float, w: float) -> tuple[float, float]:
        # Bilinear between the four corners: close enough to the perspective grid to judge the fit.
        top = (x0 + (x1 - x0) * u, y0 + (y1 - y0) * u)
        bot = (x3 + (x2 - x3) * u, y3 + (y2 - y3) * u)
        return top[0] + (bot[0] - top[0]) * w, top[1] + (bot[1] - top[1]) * w

    for i in range(n + 1):
        f = i / n
        width = 3 if i in (0, n) else 1
        pygame.draw.line(surface, colour, at(f, 0), at(f, 1), width)
        pygame.draw.line(surface, colour, at(0, f), at(1, f), width)


def message(c: Ctx) -> None:
    p, v = c.p, c.v
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(30), -p.px(20))
    body = title(c, area, v.title_key or "screen.message")
    text = v.message or (c.s(v.message_key) if v.message_key else "")
    paragraph(p, text, pygame.Rect(body.left, body.top + p.px(10), body.w, body.h - p.px(90)), 24)
    btn = pygame.Rect(body.centerx - p.px(120), body.bottom - p.px(64), p.px(240), p.px(64))
    p.button(btn, c.s("button.ok"), act(ActionKind.OK), style="primary", size=28)


# ---------------------------------------------------------------------------------------------
# Ordskifte and Keywords


def ordskifte(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    o = v.ordskifte
    if o is None:
        return
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h))
    if p.portrait:
        top, rails_r, entry_r = split_rows(area.inflate(-p.px(12), -p.px(8)), [2.3, 4, 5], p.px(8))
    else:
        left, entry_r = split_cols(area.inflate(-p.px(10), -p.px(8)), [1.45, 1], p.px(10))
        top, rails_r = split_rows(left, [1.15, 2], p.px(6))
    # Timer + who is closest.
    counts = [len(pl.words) for pl in o.players]
    best = max(counts) if counts else 0
    leaders = [i for i, n in enumerate(counts) if n == best]
    name = o.players[o.to_move].name if o.to_move < len(o.players) else ""
    cap_h = top.h // 5
    p.text(name, pygame.Rect(top.left, top.top, top.w, cap_h), 24, p.theme.accent, bold=True)
    timer_r = pygame.Rect(top.left, top.top + cap_h, top.w, top.h - 2 * cap_h)
    if o.timer is not None:
        big_timer(p, timer_r, o.timer.reading, "", size=120)
    lead_names = ", ".join(o.players[i].name for i in leaders)
    lead = c.s("label.closest", target=o.target_words, name=lead_names) + f" ({best})"
    if o.winner:
        lead = c.s("label.winner", names=", ".join(o.players[i].name for i in o.winner))
    p.text(lead, pygame.Rect(top.left, timer_r.bottom, top.w, cap_h), 20, p.theme.text, bold=True)
    # Rails.
    cols = split_cols(rails_r, [1] * max(1, len(o.players)), p.px(6))
    for i, (pl, col) in enumerate(zip(o.players, cols, strict=False)):
        p.fill(col, p.theme.panel, radius=p.px(6))
        if i == o.to_move:
            p.fill(col, p.theme.accent, radius=p.px(6), width=p.px(3))
        inner = col.inflate(-p.px(8), -p.px(6))
        head = pygame.Rect(inner.left, inner.top, inner.w, p.px(26))
        p.text(pl.name, head, 18, p.theme.accent if i in leaders else p.theme.text, bold=True, align="left")
        prog = pygame.Rect(inner.left, head.bottom, inner.w, p.px(22))
        p.text(c.s("label.words_of", n=len(pl.words), target=o.target_words), prog, 15, p.theme.dim, align="left")
        bar = pygame.Rect(inner.left, prog.bottom + p.px(2), inner.w, p.px(6))
        p.fill(bar, p.theme.disabled)
        frac = min(1.0, len(pl.words) / max(1, o.target_words))
        p.fill(pygame.Rect(bar.left, bar.top, round(bar.w * frac), bar.h),
               p.theme.accent if i in leaders else p.theme.good)
        y = bar.bottom + p.px(4)
        word_h = min(p.px(34), max(p.px(18), (inner.bottom - y) // max(1, len(pl.words))))
        for w in pl.words:
            if y + word_h > inner.bottom + 1:
                break
            wr = pygame.Rect(inner.left, y, inner.w, word_h - p.px(2))
            chosen = st.steal == (i, w.text)
            p.fill(wr, p.theme.accent if chosen else p.theme.tile, radius=p.px(4))
            p.text(w.text, wr.inflate(-p.px(6), 0), 22, p.theme.tile_text if not w.pending else p.theme.bad, bold=True)
            if i != o.to_move:
                p.add_hot(wr, act(ActionKind.SELECT_WORD, target=i, old=w.text))
            y += word_h
    # Entry.
    field_h = p.px(54)
    if st.steal:
        hint = c.s("label.steal_from", word=st.steal[1], name=o.players[st.steal[0]].name)
    else:
        hint = c.s("label.type_word")
    p.text(hint, pygame.Rect(entry_r.left, entry_r.top, entry_r.w, p.px(24)), 16,
           p.theme.accent if st.steal else p.theme.dim, align="left")
    field = pygame.Rect(entry_r.left, entry_r.top + p.px(26), entry_r.w, field_h)
    entry_field(p, field, st.entry, "")
    y = field.bottom + p.px(4)
    if v.message:
        colour = {Severity.INFO: p.theme.accent, Severity.WARNING: p.theme.warn}.get(v.message_severity, p.theme.bad)
        used = paragraph(p, v.message, pygame.Rect(entry_r.left, y, entry_r.w, p.px(40)), 15, colour, bold=True)
        y += used
    btn_h = p.px(48)
    kb = pygame.Rect(entry_r.left, y + p.px(4), entry_r.w, entry_r.bottom - y - btn_h - p.px(12))
    enter = c.s("button.steal") if st.steal else c.s("button.make_word")
    keyboard(p, kb, o.alphabet, joker=True, joker_on=st.joker_next, enter_label=enter,
             enter_enabled=len(st.entry) >= 3)
    buttons = pygame.Rect(entry_r.left, entry_r.bottom - btn_h, entry_r.w, btn_h)
    last = next((i for i, pl in enumerate(o.players) if any(w.pending for w in pl.words)), None)
    button_row(c, buttons, [("button.end_turn", act(ActionKind.PLAYER_BUTTON, player=o.to_move), "primary", True),
                            ("button.dispute", act(ActionKind.DISPUTE, target=last), "danger", last is not None)],
               size=16)


def keywords(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    k = v.keywords
    if k is None:
        return
    area = warnings_band(c, pygame.Rect(0, 0, p.w, p.h)).inflate(-p.px(12), -p.px(8))
    head_h = p.px(34)
    head = pygame.Rect(area.left, area.top, area.w, head_h)
    p.text(c.s("label.round", n=k.round_no), head, 22, p.theme.dim, bold=True, align="left")
    if k.target_score is not None:
        p.text(c.s("label.target", score=k.target_score), head, 20, p.theme.dim, align="right")
    body = pygame.Rect(area.left, head.bottom, area.w, area.h - head_h)
    if k.phase is KeywordsPhase.PLAYING:
        timer_r, pad, btn = split_rows(body, [2.2, 1, 0.45], p.px(8))
        if k.timer is not None:
            who = k.timer.player
            if who is not None and who < len(k.players):
                name_r = pygame.Rect(timer_r.left, timer_r.top, timer_r.w, timer_r.h // 6)
                p.text(k.players[who].name, name_r, 24, p.theme.accent, bold=True)
                timer_r = pygame.Rect(timer_r.left, name_r.bottom, timer_r.w, timer_r.h - name_r.h)
            big_timer(p, timer_r, k.timer.reading, "", size=220)
            # Tapping the timer flips it, like the players' buttons.
            p.add_hot(timer_r, act(ActionKind.PLAYER_BUTTON, player=who))
        score_pad(c, pad, compact=True)
        button_row(c, btn, [("label.round_entry", act(ActionKind.NEXT_ROUND), "normal", True)], size=16)
        return
    if k.phase is KeywordsPhase.MATCH_OVER:
        top, pad, btn = split_rows(body, [0.8, 3, 0.9], p.px(8))
        totals = [pl.total for pl in k.players]
        best = max(totals) if totals else 0
        names = ", ".join(pl.name for pl in k.players if pl.total == best)
        p.text(c.s("label.match_over") + " · " + c.s("label.winner", names=names), top, 30, p.theme.accent, bold=True)
        score_pad(c, pad)
        button_row(c, btn, [("button.new_game", act(ActionKind.NEW_GAME), "primary", True)], size=24)
        return
    # ENTRY: score pad + words of the selected player.
    if p.portrait:
        pad, entry = split_rows(body, [1, 2.2], p.px(8))
    else:
        pad, entry = split_cols(body, [1, 1.25], p.px(10))
    score_pad(c, pad)
    who = st.entry_player if st.entry_player is not None else next(
        (i for i, pl in enumerate(k.players) if not pl.submitted), 0)
    tabs = pygame.Rect(entry.left, entry.top, entry.w, p.px(44))
    for i, (r, pl) in enumerate(zip(split_cols(tabs, [1] * len(k.players), p.px(6)), k.players, strict=False)):
        label = pl.name + (" ✓" if pl.submitted else "")
        p.button(r, label, act(ActionKind.SELECT_PLAYER, player=i), style="accent" if i == who else "normal", size=18)
    field = pygame.Rect(entry.left, tabs.bottom + p.px(6), entry.w, p.px(54))
    entry_field(p, field, st.entry, c.s("label.type_words_submit"))
    y = field.bottom + p.px(2)
    problem = k.players[who].problem if who < len(k.players) else ""
    if problem:
        y += paragraph(p, problem, pygame.Rect(entry.left, y, entry.w, p.px(36)), 14, p.theme.bad, bold=True)
    urow = pygame.Rect(entry.left, y + p.px(2), entry.w, p.px(42))
    a, b, d = split_cols(urow, [1, 3, 1], p.px(6))
    p.button(a, "−", act(ActionKind.SELECT_PLAYER, player=who, number=-1), size=26)
    p.text(c.s("label.unused", count=st.unused), b, 18, p.theme.text, bold=True)
    p.button(d, "+", act(ActionKind.SELECT_PLAYER, player=who, number=1), size=26)
    btn_h = p.px(46)
    kb = pygame.Rect(entry.left, urow.bottom + p.px(6), entry.w, entry.bottom - urow.bottom - btn_h - p.px(14))
    keyboard(p, kb, k.alphabet, space=True, joker=True, joker_on=st.joker_next, enter_label=c.s("button.submit"),
             enter_enabled=bool(st.entry.strip()))
    all_in = all(pl.submitted for pl in k.players)
    button_row(c, pygame.Rect(entry.left, entry.bottom - btn_h, entry.w, btn_h),
               [("button.next_round", act(ActionKind.NEXT_ROUND), "primary", all_in)], size=18)


def score_pad(c: Ctx, rect: pygame.Rect, compact: bool = False) -> None:
    p, k = c.p, c.v.keywords
    assert k is not None
    p.fill(rect, p.theme.panel, radius=p.px(6))
    inner = rect.inflate(-p.px(10), -p.px(6))
    n = len(k.players)
    rounds = max((len(pl.round_scores) for pl in k.players), default=0)
    line_h = p.px(30) if not compact else min(p.px(44), inner.h // 3)
    cols = split_cols(inner, [0.8] + [1] * n, p.px(4))
    p.text("#", pygame.Rect(cols[0].left, inner.top, cols[0].w, line_h), 16, p.theme.dim, align="left")
    for j, pl in enumerate(k.players):
        p.text(pl.name, pygame.Rect(cols[j + 1].left, inner.top, cols[j + 1].w, line_h), 18, bold=True, align="right")
    fit = max(0, (inner.h - 2 * line_h) // line_h)
    # Compact (under the round timer): just the last round.
    shown = list(range(rounds))[-(1 if compact else fit):] if fit else []
    for row, rnd in enumerate(shown):
        y = inner.top + line_h * (row + 1)
        p.text(str(rnd + 1), pygame.Rect(cols[0].left, y, cols[0].w, line_h), 16, p.theme.dim, align="left")
        for j, pl in enumerate(k.players):
            val = pl.round_scores[rnd] if rnd < len(pl.round_scores) else None
            if val is not None:
                p.text(f"{val:+d}", pygame.Rect(cols[j + 1].left, y, cols[j + 1].w, line_h), 18,
                       p.theme.bad if val < 0 else p.theme.text, align="right")
    y = inner.bottom - line_h
    p.fill(pygame.Rect(inner.left, y - 2, inner.w, 2), p.theme.dim)
    p.text(c.s("label.total"), pygame.Rect(cols[0].left, y, cols[0].w, line_h), 16, p.theme.dim, align="left")
    for j, pl in enumerate(k.players):
        p.text(str(pl.total), pygame.Rect(cols[j + 1].left, y, cols[j + 1].w, line_h), 30, p.theme.accent,
               bold=True, align="right")


def timer_caption(c: Ctx) -> str:
    t = c.v.timer
    return c.s(t.label_key) if t and t.label_key else ""


def clock_text(ms: int) -> str:
    return format_clock(ms)

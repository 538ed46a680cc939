# SPDX-License-Identifier: GPL-3.0-or-later
"""One function per :class:`~device.ui.view.Screen`: draws the View with a Painter and registers the
touch regions. Landscape puts the board (or the main area) left and a panel right; portrait stacks
them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from device.ui.draw import Painter, split_cols, split_rows
from device.ui.strings import Strings
from device.ui.view import (
    ActionKind,
    Candidate,
    ClockMode,
    FormView,
    KeywordsPhase,
    MoveRow,
    Option,
    Pos,
    Screen,
    Severity,
    Text,
    TimerState,
    TimerView,
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
    keyboard_height,
    paragraph,
    player_card,
    square_name,
    verdict_screen,
)

#: Glyphs drawn as they are in every language (keys, markers); everything else comes from the strings files.
SYMBOLS = frozenset({"⌫", "␣", "▶", "−", "+", "✓", "›", "✎", "—", "?", "#", ":"})


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
    confirm_undo: bool = False
    """SCOREBOARD/END_RACKS: the "take back the last move?" question is showing."""
    submitted: str | None = None
    """Text just sent to the core: kept in the field if the core refuses it, cleared otherwise."""
    picking: bool = False
    """ORDSKIFTE: the steal picker (the opponents' words as buttons) is showing."""
    menu: bool = False
    """SCOREBOARD: the less used buttons are showing."""


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


def say(c: Ctx, text: Text | None) -> str:
    """A :class:`Text` in the screen's language (arguments that are Texts are worded first)."""
    if text is None:
        return ""
    fields = {k: say(c, a) if isinstance(a, Text) else a for k, a in text.args}
    try:
        return c.s(text.key, **fields)
    except (KeyError, IndexError, ValueError):  # a template naming a value the core did not give
        return c.s(text.key)


def warnings_band(c: Ctx, rect: pygame.Rect) -> pygame.Rect:
    """Draw the warnings on top of ``rect``; returns what is left below them."""
    if not c.v.warnings:
        return rect
    p = c.p
    h = p.px(30)
    for i, w in enumerate(c.v.warnings):
        band = pygame.Rect(rect.left, rect.top + i * h, rect.w, h)
        p.fill(band, p.theme.bad if w.severity is Severity.ERROR else p.theme.warn)
        colour = (255, 255, 255) if w.severity is Severity.ERROR else (0, 0, 0)
        # The key says it in the players' language; the detail (an OS or library message) goes to the log only.
        p.text(c.s(w.key), band.inflate(-p.px(12), -p.px(4)), 18, colour, bold=True)
    used = h * len(c.v.warnings)
    return pygame.Rect(rect.left, rect.top + used, rect.w, rect.h - used)


def chrome(c: Ctx, rect: pygame.Rect | None = None) -> pygame.Rect:
    """Warnings on top and the message band at the bottom (every screen has both); returns the rest."""
    p, v = c.p, c.v
    area = warnings_band(c, rect or pygame.Rect(0, 0, p.w, p.h))
    if v.message is None:
        return area
    h = p.px(46)
    band = pygame.Rect(area.left, area.bottom - h, area.w, h)
    t = p.theme
    bg, fg = {Severity.INFO: (t.panel, t.accent), Severity.WARNING: (t.warn, (0, 0, 0))}.get(
        v.message_severity, (t.bad, (255, 255, 255)))
    p.fill(band, bg)
    if v.message_severity is Severity.INFO:
        p.fill(band, t.accent, width=p.px(2))
    paragraph(p, say(c, v.message), band.inflate(-p.px(16), -p.px(6)), 17, fg, bold=True)
    return pygame.Rect(area.left, area.top, area.w, area.h - h)


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


def title(c: Ctx, rect: pygame.Rect, key: str, text: str = "") -> pygame.Rect:
    h = c.p.px(44)
    c.p.text(text or c.s(key), pygame.Rect(rect.left, rect.top, rect.w, h), 28, bold=True, align="left")
    return pygame.Rect(rect.left, rect.top + h, rect.w, rect.h - h)


def button_row(c: Ctx, rect: pygame.Rect, buttons: Sequence[tuple[str, UiAction | None, str, bool]],
               size: float = 20, weights: list[float] | None = None) -> None:
    if not buttons:
        return
    gap = c.p.gap
    cells = split_cols(rect, weights or [1] * len(buttons), gap)
    for r, (key, action, style, enabled) in zip(cells, buttons, strict=True):
        c.p.button(r, c.s(key), action, style=style, enabled=enabled, size=size)


def bottom_rows(c: Ctx, rect: pygame.Rect, rows: int) -> tuple[pygame.Rect, pygame.Rect]:
    """(what is left above, the band for ``rows`` rows of touch-size buttons at the bottom of ``rect``)."""
    p = c.p
    h = rows * (p.px(52) + p.gap) - p.gap
    return (pygame.Rect(rect.left, rect.top, rect.w, rect.h - h - p.gap),
            pygame.Rect(rect.left, rect.bottom - h, rect.w, h))


# ---------------------------------------------------------------------------------------------
# Screens


def scoreboard(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    area = chrome(c)
    board_rect, panel = main_split(c, area)
    if v.board is not None:
        draw_board(p, c.art, v.board, board_rect)
    n = max(1, len(v.players))
    cols = 2 if n > 2 or (p.portrait and n > 1) else 1
    card_rows = (n + cols - 1) // cols
    cards_h = min(p.px(92) * card_rows, panel.h // 2)
    cards = pygame.Rect(panel.left, panel.top, panel.w, cards_h)
    players_grid(c, cards, cols)
    rest, buttons = bottom_rows(c, pygame.Rect(panel.left, cards.bottom, panel.w, panel.bottom - cards.bottom), 2)
    hist = pygame.Rect(rest.left, rest.top + p.px(6), rest.w, rest.h - p.px(6))
    if v.solo is not None:  # solo practice: the best the last move's tiles had, the share, the personal best
        band = pygame.Rect(hist.left, hist.top, hist.w, p.px(50))
        solo_band(c, band)
        hist = pygame.Rect(hist.left, band.bottom + p.px(4), hist.w, hist.bottom - band.bottom - p.px(4))
    history(c, hist)
    top, low = split_rows(buttons, [1, 1], p.gap)
    if st.confirm_undo:
        p.text(c.s("table.undo_ask"), top, 20, p.theme.warn, bold=True)
        button_row(c, low, [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True),
                            ("table.undo_yes", act(ActionKind.UNDO), "danger", True)], size=16)
        return
    if st.menu:
        hint = [("hint.button", act(ActionKind.HINT), "normal", True)] if v.hint else []
        button_row(c, top, [("button.judge", act(ActionKind.JUDGE), "normal", True), *hint,
                            ("button.settings", act(ActionKind.SETTINGS), "normal", True)], size=16)
        button_row(c, low, [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True),
                            ("button.end_game", act(ActionKind.END_GAME), "danger", True)], size=16)
        return
    to_move = next((i for i, pl in enumerate(v.players) if pl.to_move), None)
    pause = ("button.resume", act(ActionKind.RESUME), "primary", True) if v.paused else (
        "button.pause", act(ActionKind.PAUSE), "normal", v.clock_mode is not ClockMode.NONE)
    button_row(c, top, [("table.done", act(ActionKind.PLAYER_BUTTON, player=to_move), "primary", to_move is not None),
                        ("button.challenge", act(ActionKind.CHALLENGE), "danger", bool(v.history)), pause],
               size=15, weights=[1.2, 1.2, 1])
    # UNDO sits away from CHALLENGE (other row, other end) and asks first.
    button_row(c, low, [("button.manual", act(ActionKind.MANUAL_ENTRY), "normal", True),
                        ("table.menu", act(ActionKind.MENU), "normal", True),
                        ("button.undo", act(ActionKind.ASK_UNDO), "normal", v.can_undo and bool(v.history))],
               size=15)


def solo_band(c: Ctx, rect: pygame.Rect) -> None:
    p, so = c.p, c.v.solo
    half = rect.h // 2
    if so.last_score is None:
        first = c.s("solo.start")
    elif so.searching:
        first = c.s("solo.searching", score=so.last_score)
    elif so.last_best is None:
        first = c.s("solo.unknown", score=so.last_score)
    else:
        first = c.s("solo.last", score=so.last_score, best=so.last_best)
    p.text(first, pygame.Rect(rect.left, rect.top, rect.w, half), 16, p.theme.accent, bold=True, align="left")
    share = "–" if so.share is None else f"{so.share}%"
    second = c.s("solo.share", share=share) + "  ·  " + (
        c.s("solo.personal", best=so.personal_best) if so.personal_best is not None else c.s("solo.no_personal"))
    p.text(second, pygame.Rect(rect.left, rect.top + half, rect.w, rect.h - half), 15, p.theme.text, align="left")


def players_grid(c: Ctx, rect: pygame.Rect, cols: int = 1) -> None:
    p, v = c.p, c.v
    n = len(v.players)
    if n == 0:
        return
    gap = p.px(6)
    rows = (n + cols - 1) // cols
    row_rects = split_rows(rect, [1] * rows, gap)
    for i, pl in enumerate(v.players):
        r = row_rects[i // cols]
        cell = split_cols(r, [1] * cols, gap)[i % cols]
        rack = c.s("table.rack_count", count=pl.rack_count) if pl.rack_count is not None and v.bag_count == 0 else ""
        player_card(p, cell, pl, paused_label=c.s("table.paused"), rack_label=rack, note=say(c, pl.note))


def move_text(c: Ctx, row: MoveRow) -> str:
    """What the history shows for a move: the words of a play, the kind of anything else."""
    if row.kind == "play":
        return " ".join(row.words[:2]) or row.text
    if row.kind == "exchange":
        return c.s("history.exchange", count=row.text.lstrip("-"))
    if row.kind == "rack":
        return c.s("history.rack", tiles=row.text.strip("()"))
    return c.s(f"history.{row.kind}")


def history_names(full: list[str]) -> list[str]:
    """Short names for the move history (the full one is on the player card, and shrinks to nothing there):
    first names; when two players share one, the first name and the last word's initial (Ann B, Ann D; one
    person's two solo racks: Ann 1, Ann 2); the full names when even those are alike.

    >>> history_names(["Åse Ødegård", "Björn Ängström"])
    ['Åse', 'Björn']
    >>> history_names(["Ann Berg", "Ann Dahl", "Bo"])
    ['Ann B', 'Ann D', 'Bo']
    >>> history_names(["Ann · rack 1", "Ann · rack 2"])
    ['Ann 1', 'Ann 2']
    """
    words = [name.split() or [""] for name in full]
    for short in ([w[0] for w in words], [" ".join((w[0], w[-1][0])) if len(w) > 1 else w[0] for w in words]):
        if len(set(short)) == len(short):
            return short
    return list(full)


def history(c: Ctx, rect: pygame.Rect) -> None:
    p, v = c.p, c.v
    if rect.h <= 0:
        return
    p.fill(rect, p.theme.panel, radius=p.px(6))
    inner = rect.inflate(-p.px(12), -p.px(8))
    line_h = p.px(24)
    head = pygame.Rect(inner.left, inner.top, inner.w, line_h)
    bag = c.s("label.bag", count=v.bag_count) if v.bag_count is not None else ""
    p.text(c.s("label.history"), head, 15, p.theme.dim, align="left")
    if bag:
        p.text(bag, head, 15, p.theme.dim, align="right")
    fit = max(0, (inner.h - line_h) // line_h)
    rows = v.history[-fit:] if fit else ()
    names = history_names([seat.name for seat in v.players])
    for i, row in enumerate(rows):
        y = inner.top + line_h * (i + 1)
        name = names[row.player] if row.player < len(names) else ""
        cols = split_cols(pygame.Rect(inner.left, y, inner.w, line_h), [2, 4.6, 1.4, 1.6], p.px(4))
        colour = p.theme.dim if row.withdrawn or row.kind != "play" else p.theme.text
        p.text(name, cols[0], 15, p.theme.dim, align="left")
        p.text(move_text(c, row), cols[1], 16, colour, bold=row.kind == "play", align="left")
        p.text(f"{row.score:+d}", cols[2], 16, p.theme.bad_text if row.score < 0 else colour, align="right")
        p.text(str(row.cumulative), cols[3], 16, colour, align="right")


def confirm_move(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    prop = v.proposal
    area = chrome(c)
    if prop is not None and st.selected is not None:
        correction_screen(c, area)
        return
    board_rect, panel = main_split(c, area)
    blanks = set(prop.blanks_needed) if prop else set()

    def tap(sq: Pos) -> UiAction:
        kind = ActionKind.SET_BLANK if sq in blanks else ActionKind.CORRECT_TILE
        return UiAction(kind, square=sq)

    if v.board is not None:
        draw_board(p, c.art, v.board, board_rect, proposal=prop, selected=st.selected, on_tap=tap)
    if prop is None:
        return
    body, buttons = bottom_rows(c, panel, 1)
    who = v.players[prop.player].name if prop.player < len(v.players) else ""
    score_h = p.px(56)
    score_r = pygame.Rect(body.left, body.top, body.w, score_h)
    p.text(who, pygame.Rect(score_r.left, score_r.top, score_r.w * 3 // 5, score_h), 22, p.theme.dim, align="left")
    p.text(f"{prop.score:+d}", pygame.Rect(score_r.left + score_r.w * 3 // 5, score_r.top, score_r.w * 2 // 5,
                                           score_h), 48, p.theme.accent, bold=True, align="right")
    y = score_r.bottom
    row_h = p.px(28)
    for ws in prop.words[:3]:
        r = pygame.Rect(body.left, y, body.w, row_h)
        colour = p.theme.bad_text if ws.acceptable is False else p.theme.text
        p.text(ws.word, pygame.Rect(r.left, r.top, r.w * 3 // 4, r.h), 22 if ws.main else 18, colour,
               bold=ws.main, align="left")
        p.text(str(ws.score), pygame.Rect(r.left + r.w * 3 // 4, r.top, r.w // 4, r.h), 20, colour, align="right")
        y += row_h
    # The new tiles as a list of touch-size keys: the board's squares are too small to hit at 60 cm.
    y += p.px(4)
    p.text(c.s("table.new_tiles"), pygame.Rect(body.left, y, body.w, p.px(24)), 15, p.theme.dim, align="left")
    y += p.px(26)
    tiles = prop.tiles
    per_row = max(1, (body.w + p.gap) // (p.touch + p.gap))
    per_row = min(per_row, max(1, len(tiles)))
    rows = (len(tiles) + per_row - 1) // per_row
    key_w = (body.w - p.gap * (per_row - 1)) // per_row
    unsure = {u.square for u in prop.uncertain}
    for i, tile in enumerate(tiles):
        r = pygame.Rect(body.left + (i % per_row) * (key_w + p.gap), y + (i // per_row) * (p.touch + p.gap),
                        key_w, p.touch)
        style = "accent" if tile.square in unsure else ("good" if tile.square in blanks else "normal")
        p.button(r, tile.letter or "?", tap(tile.square), style=style, size=24)
    y += rows * (p.touch + p.gap)
    notes: list[tuple[str, tuple[int, int, int]]] = []
    if prop.removed and v.message:
        pass  # the message band says it
    notes += [(say(c, msg), p.theme.bad_text) for msg in prop.problems]
    if prop.blanks_needed:
        notes.append((c.s("label.blanks_needed"), p.theme.blank_needed))
    if prop.uncertain:
        notes.append((c.s("warn.low_confidence"), p.theme.uncertain))
    if prop.auto_accept_ms is not None and not prop.blanks_needed and not prop.problems:
        notes.append((c.s("label.auto_accept", seconds=(prop.auto_accept_ms + 999) // 1000), p.theme.accent))
    note_area = pygame.Rect(body.left, y, body.w, body.bottom - y)
    for text, colour in notes:
        used = paragraph(p, text, note_area, 15, colour)
        note_area = pygame.Rect(note_area.left, note_area.top + used + p.px(2), note_area.w,
                                note_area.h - used - p.px(2))
    ok = not prop.blanks_needed and not prop.problems
    button_row(c, buttons, [("button.back", act(ActionKind.BACK), "normal", True),
                            ("button.confirm", act(ActionKind.CONFIRM), "primary", ok)], size=22, weights=[1, 2])


def correction_screen(c: Ctx, area: pygame.Rect) -> None:
    """The letter of one tile, chosen on a full-width keyboard (the candidates first, when unsure)."""
    p, v, st = c.p, c.v, c.st
    assert st.selected is not None
    sq = st.selected
    inner = area.inflate(-p.px(16), -p.px(8))
    key = "label.choose_blank" if st.selected_blank else "label.choose_letter"
    head = pygame.Rect(inner.left, inner.top, inner.w, p.px(40))
    p.text(c.s(key, square=square_name(sq)), head, 22, p.theme.accent, bold=True, align="left")
    cands: tuple[Candidate, ...] = ()
    if v.proposal is not None:
        for unc in v.proposal.uncertain:
            if unc.square == sq:
                cands = unc.candidates[:3]
    y = head.bottom + p.px(4)
    kind = ActionKind.SET_BLANK if st.selected_blank else ActionKind.CORRECT_TILE
    if cands:
        row = pygame.Rect(inner.left, y, inner.w, p.px(56))
        for r, cand in zip(split_cols(row, [1] * len(cands), p.gap), cands, strict=False):
            p.button(r, f"{cand.letter} {round(cand.confidence * 100)}%",
                     act(kind, square=sq, letter=cand.letter), style="accent", size=24)
        y = row.bottom + p.gap
    rest, buttons = bottom_rows(c, pygame.Rect(inner.left, y, inner.w, inner.bottom - y), 1)
    keyboard(p, rest, v.alphabet)
    specs = [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True)]
    if not st.selected_blank:
        specs.append(("button.remove_tile", act(ActionKind.CORRECT_TILE, square=sq, letter=""), "danger", True))
    button_row(c, buttons, specs, size=18)


def judge(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    if v.verdict is not None:
        secs = None if v.verdict.countdown_ms is None else c.s(
            "label.back_in", seconds=(v.verdict.countdown_ms + 999) // 1000)
        instruction = ""
        if v.screen is Screen.CHALLENGE:
            words = ", ".join(v.judge_words)
            instruction = c.s("table.play_stands") if v.verdict.acceptable else c.s("table.lift_tiles", words=words)
        verdict_screen(p, v.verdict, c.s("verdict.acceptable"), c.s("verdict.unacceptable"), secs,
                       instruction=instruction, continue_label=c.s("table.continue"))
        return
    area = chrome(c).inflate(-p.px(16), -p.px(12))
    key = "screen.challenge" if v.screen is Screen.CHALLENGE else "screen.judge"
    back_w = p.px(160)
    head = pygame.Rect(area.left, area.top, area.w - back_w - p.gap, p.px(52))
    p.text(c.s(key), head, 28, bold=True, align="left")
    p.button(pygame.Rect(area.right - back_w, area.top, back_w, p.px(52)), c.s("button.back"),
             act(ActionKind.BACK), size=18)
    body = pygame.Rect(area.left, head.bottom + p.gap, area.w, area.bottom - head.bottom - p.gap)
    if v.screen is Screen.CHALLENGE:
        words = " ".join(v.judge_words)
        p.text(words, pygame.Rect(body.left, body.top, body.w, body.h // 3), 48, bold=True)
        if v.message is None:
            p.text(c.s("label.judging"), pygame.Rect(body.left, body.top + body.h // 3, body.w, body.h // 4), 28,
                   p.theme.dim)
        button_row(c, pygame.Rect(body.left, body.bottom - p.px(56), body.w, p.px(56)),
                   [("button.ok", act(ActionKind.OK), "primary", True)], size=22)
        return
    field_h = p.px(60)
    entry_field(p, pygame.Rect(body.left, body.top, body.w, field_h), st.entry, c.s("label.type_words"))
    kb = pygame.Rect(body.left, body.top + field_h + p.gap, body.w, body.bottom - body.top - field_h - p.gap)
    keyboard(p, kb, v.alphabet, space=True, enter_label=c.s("button.check"), enter_enabled=bool(st.entry.strip()))


def manual_entry(c: Ctx) -> None:
    """Type a move: the keyboard takes the whole width (the board's squares are named on the scoreboard)."""
    p, v, st = c.p, c.v, c.st
    area = chrome(c).inflate(-p.px(12), -p.px(8))
    field_h = p.px(52)
    if p.portrait and v.board is not None:
        needs = keyboard_height(p, area.w, v.alphabet, digits=True) + field_h + p.px(52) + 3 * p.gap
        board_rect = pygame.Rect(area.left, area.top, area.w, area.h - needs - p.gap)
        draw_board(p, c.art, v.board, board_rect)
        area = pygame.Rect(area.left, board_rect.bottom + p.gap, area.w, area.bottom - board_rect.bottom - p.gap)
    head = pygame.Rect(area.left, area.top, area.w * 2 // 5, field_h)
    p.text(c.s("screen.manual_entry"), head, 24, bold=True, align="left")
    entry_field(p, pygame.Rect(head.right + p.gap, area.top, area.w - head.w - p.gap, field_h), st.entry,
                c.s("label.type_move"))
    rest, buttons = bottom_rows(c, pygame.Rect(area.left, area.top + field_h + p.gap, area.w,
                                               area.h - field_h - p.gap), 1)
    keyboard(p, rest, v.alphabet, digits=True, space=True, joker=True, joker_on=st.joker_next,
             joker_label=c.s("button.blank"), enter_label=c.s("button.enter"), enter_enabled=bool(st.entry.strip()))
    button_row(c, buttons, [("button.back", act(ActionKind.BACK), "normal", True),
                            ("button.exchange", act(ActionKind.EXCHANGE), "normal", True),
                            ("button.pass", act(ActionKind.PASS), "normal", True)], size=18)


def ask_exchange_or_pass(c: Ctx) -> None:
    p = c.p
    area = chrome(c).inflate(-p.px(24), -p.px(16))
    body = title(c, area, "screen.ask_exchange_or_pass")
    paragraph(p, c.s("label.exchange_or_pass"), pygame.Rect(body.left, body.top, body.w, body.h // 4), 24)
    btns = pygame.Rect(body.left, body.top + body.h // 3, body.w, body.h // 3)
    button_row(c, btns, [("button.exchange", act(ActionKind.EXCHANGE), "normal", True),
                         ("button.pass", act(ActionKind.PASS), "normal", True)], size=34)
    low = pygame.Rect(body.left, body.bottom - p.px(56), body.w, p.px(56))
    button_row(c, low, [("button.back", act(ActionKind.BACK), "normal", True),
                        ("button.manual", act(ActionKind.MANUAL_ENTRY), "normal", True)])


def end_racks(c: Ctx) -> None:
    """End of game, one player at a time: whose rack, the tiles typed so far, the unseen pool, a keyboard of
    the game's letters (the unseen ones in tile colour) and NO TILES / ENTER RACK."""
    p, v, st = c.p, c.v, c.st
    racks = v.racks
    if racks is None:
        return
    area = chrome(c).inflate(-p.px(12), -p.px(8))
    name = v.players[racks.player].name if racks.player < len(v.players) else ""
    head = pygame.Rect(area.left, area.top, area.w, p.px(44))
    title_r, left_r = split_cols(head, [4, 1], p.gap) if racks.left > 1 else (head, None)
    p.text(c.s("rack.of", name=name), title_r, 28, p.theme.accent, bold=True, align="left")
    if left_r is not None:
        p.text(c.s("rack.left", n=racks.left), left_r, 16, p.theme.dim, align="right")
    y = head.bottom
    if racks.rack_count is not None:
        y += paragraph(p, c.s("rack.expect", name=name, count=racks.rack_count),
                       pygame.Rect(area.left, y, area.w, p.px(22)), 16, p.theme.text, bold=True)
    y += paragraph(p, c.s("rack.hint"), pygame.Rect(area.left, y, area.w, p.px(40)), 15, p.theme.dim)
    field_h = p.px(52)
    unseen_w = area.w // 2 if not p.portrait else area.w
    entry_field(p, pygame.Rect(area.left, y + p.px(2), area.w - (unseen_w + p.gap if not p.portrait else 0), field_h),
                st.entry, "")
    pool = pygame.Rect(area.right - unseen_w, y + p.px(2), unseen_w, field_h) if not p.portrait else pygame.Rect(
        area.left, y + field_h + p.px(6), area.w, field_h)
    p.text(c.s("rack.unseen") + ":", pygame.Rect(pool.left, pool.top, pool.w, pool.h // 2 - 2), 14, p.theme.dim,
           align="left")
    p.text(" ".join(racks.unseen) or "—", pygame.Rect(pool.left, pool.centery, pool.w, pool.h // 2), 18,
           p.theme.text, bold=True, align="left")
    y = pool.bottom + p.gap
    unseen = set(racks.unseen)
    rest, buttons = bottom_rows(c, pygame.Rect(area.left, y, area.w, area.bottom - y), 1)
    keyboard(p, rest, v.alphabet, styles=dict.fromkeys(unseen, "accent"), joker=True, joker_on="?" in unseen,
             joker_label=c.s("button.blank"))
    button_row(c, buttons, [("button.undo", act(ActionKind.ASK_UNDO), "normal", v.can_undo),
                            ("rack.none", act(ActionKind.RACK, text=""), "normal", not st.entry),
                            ("rack.enter", act(ActionKind.ENTER), "primary", bool(st.entry))], size=16,
               weights=[1, 1.4, 1.6])
    if st.confirm_undo:
        p.fill(buttons, p.theme.bg)
        button_row(c, buttons, [("button.cancel", act(ActionKind.CANCEL_EDIT), "normal", True),
                                ("table.undo_yes", act(ActionKind.UNDO), "danger", True)], size=16)


def end(c: Ctx) -> None:
    """The final board and each player's score taken apart (moves, rack, time), why the game ended."""
    p, v = c.p, c.v
    area = chrome(c)
    if v.board is not None and v.final is not None:
        board_rect, panel = main_split(c, area)
        draw_board(p, c.art, v.board, board_rect)
    else:
        panel = area.inflate(-p.px(24), -p.px(16))
    body = title(c, panel, "final.title" if v.final is not None else "screen.end")
    rest, buttons = bottom_rows(c, body, 1)
    y = rest.top
    if v.final is not None:
        for line in (v.final.reason, v.final.tie):
            if line is not None:
                y += paragraph(p, say(c, line), pygame.Rect(rest.left, y, rest.w, p.px(48)), 18, p.theme.accent,
                               bold=True)
    order = sorted(range(len(v.players)), key=lambda i: -v.players[i].score)
    row_h = min(p.px(78), (rest.bottom - y - p.px(34)) // max(1, len(order)))
    for i in order:
        pl = v.players[i]
        r = pygame.Rect(rest.left, y, rest.w, row_h - p.px(6))
        win = i in v.winner
        p.fill(r, p.theme.panel, radius=p.px(8))
        if win:
            p.fill(r, p.theme.accent, radius=p.px(8), width=p.px(3))
        inner = r.inflate(-p.px(16), -p.px(8))
        top = pygame.Rect(inner.left, inner.top, inner.w, inner.h * 3 // 5)
        name_r, total_r = split_cols(top, [3, 1], p.px(6))
        p.text(pl.name, name_r, 22, p.theme.accent if win else p.theme.text, bold=win, align="left")
        p.text(str(pl.score), pygame.Rect(total_r.left, inner.top, total_r.w, inner.h), 36, bold=True,
               align="right")
        if v.final is not None and i < len(v.final.lines):
            score_line = v.final.lines[i]
            parts = [f"{c.s('final.moves')} {score_line.moves + score_line.other}",
                     f"{c.s('final.rack')} {score_line.rack:+d}"
                     + (f" ({score_line.rack_tiles})" if score_line.rack_tiles else ""),
                     f"{c.s('final.time')} {score_line.time:+d}"]
            low = pygame.Rect(inner.left, top.bottom, name_r.w, inner.h - top.h)
            p.text("  ·  ".join(parts), low, 15, p.theme.dim, align="left")
        y += row_h
    names = ", ".join(v.players[i].name for i in v.winner)
    line_text = c.s("label.winner", names=names) if len(v.winner) == 1 else (c.s("label.draw") if v.winner else "")
    p.text(line_text, pygame.Rect(rest.left, y, rest.w, p.px(30)), 22, p.theme.accent, bold=True, align="left")
    if v.solo is not None:
        solo = c.s("solo.new_best", total=v.solo.total) if v.solo.new_best else (
            c.s("solo.personal", best=v.solo.personal_best) if v.solo.personal_best is not None else "")
        share = "" if v.solo.share is None else c.s("solo.share", share=f"{v.solo.share}%")
        p.text("  ·  ".join(t for t in (share, solo) if t), pygame.Rect(rest.left, y + p.px(32), rest.w, p.px(28)),
               17, p.theme.text, align="left")
    missed = [("missed.button", act(ActionKind.MISSED_MOVES), "normal", True)] if v.game.board_game else []
    button_row(c, buttons, [("button.export", act(ActionKind.EXPORT), "normal", True), *missed,
                            ("button.new_game", act(ActionKind.NEW_GAME), "primary", True)], size=20,
               weights=[1, 1.5, 1.2] if missed else None)


def form_screen(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    form = v.form or FormView(())
    area = chrome(c).inflate(-p.px(16), -p.px(10))
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
    rows_area = pygame.Rect(body.left, body.top, body.w, body.h - btn_h - p.px(8))
    # Options that do not apply to the chosen game are left out; as many columns as full-size rows need.
    opts = tuple(o for o in form.options if o.enabled)
    cols = 1
    while cols < 3 and (rows_area.h + p.gap) // max(1, -(-len(opts) // cols)) < p.touch + p.gap:
        cols += 1
    per_col = (len(opts) + cols - 1) // cols if opts else 1
    row_h = min(p.px(70), (rows_area.h + p.gap) // max(1, per_col))
    col_rects = split_cols(rows_area, [1] * cols, p.px(10))
    for i, opt in enumerate(opts):
        col = col_rects[i // per_col]
        r = pygame.Rect(col.left, col.top + (i % per_col) * row_h, col.w, row_h - p.gap)
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
    """A setting drawn as a button (raised, edged, with › to cycle or ✎ to type): it looks tappable."""
    p = c.p
    p.fill(r, p.theme.button if opt.enabled else p.theme.disabled, radius=p.px(8))
    if opt.enabled:
        p.fill(r, p.theme.button_edge, radius=p.px(8), width=max(1, p.px(2)))
    inner = r.inflate(-p.px(14), -p.px(4))
    label_r, value_r, mark_r = split_cols(inner, [1, 1.3, 0.22], p.px(6))
    p.text(c.label(opt.label_key), label_r, 16, p.theme.button_label if opt.enabled else p.theme.dim, align="left")
    p.text(option_value_text(c, opt), value_r, 20, p.theme.text if opt.enabled else p.theme.disabled_text,
           bold=True, align="right")
    if not opt.enabled:
        return
    p.text("✎" if opt.text else "›", mark_r, 24, p.theme.accent, bold=True, align="right")
    if opt.text:
        p.add_hot(r, act(ActionKind.EDIT_OPTION, key=opt.key, text=opt.value))
    elif opt.choices:
        values = [ch.value for ch in opt.choices]
        nxt = values[(values.index(opt.value) + 1) % len(values)] if opt.value in values else values[0]
        p.add_hot(r, act(ActionKind.SET_OPTION, key=opt.key, text=nxt))


def calibration(c: Ctx, frame_surface: Callable[[], pygame.Surface | None]) -> None:
    p, v = c.p, c.v
    cal = v.calibration
    area = chrome(c)
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
        paragraph(p, say(c, cal.message), pygame.Rect(body.left, body.top + used + p.px(8), body.w, p.px(80)), 16,
                  p.theme.dim)
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
    paragraph(p, say(c, v.message), pygame.Rect(body.left, body.top + p.px(10), body.w, body.h - p.px(90)), 24)
    btn = pygame.Rect(body.centerx - p.px(120), body.bottom - p.px(64), p.px(240), p.px(64))
    p.button(btn, c.s("button.ok"), act(ActionKind.OK), style="primary", size=28)


# ---------------------------------------------------------------------------------------------
# Ordskifte and Keywords


def ordskifte(c: Ctx) -> None:
    """Who is to move (accent) and who leads (blue) told apart by colour and word; the turn timer; the rails
    as text; a full-width keyboard. Stealing picks the word on its own screen (touch-size buttons)."""
    p, v, st = c.p, c.v, c.st
    o = v.ordskifte
    if o is None:
        return
    area = chrome(c).inflate(-p.px(10), -p.px(8))
    if st.picking:
        steal_picker(c, area)
        return
    t = p.theme
    counts = [len(pl.words) for pl in o.players]
    best = max(counts) if counts else 0
    leaders = [i for i, n in enumerate(counts) if n == best and best > 0]
    name = o.players[o.to_move].name if o.to_move < len(o.players) else ""
    entry_h = p.px(52)
    kb_h = keyboard_height(p, area.w, o.alphabet)
    spare = area.h - entry_h - kb_h - 3 * p.gap  # for the timer strip and the rails
    top_h = p.px(200) if p.portrait else max(p.px(52), min(p.px(84), spare - p.px(56)))
    rails_h = max(p.px(56), min(p.px(260), spare - top_h))
    top = pygame.Rect(area.left, area.top, area.w, top_h)
    rails_r = pygame.Rect(area.left, top.bottom + p.gap, area.w, rails_h)
    entry_r = pygame.Rect(area.left, rails_r.bottom + p.gap, area.w, entry_h)
    kb = pygame.Rect(area.left, entry_r.bottom + p.gap, area.w, area.bottom - entry_r.bottom - p.gap)
    # Top: whose turn (accent), the timer, who leads (blue).
    if p.portrait:
        cap, timer_r, lead_r = split_rows(top, [1, 3, 1])
    else:
        cap, timer_r, lead_r = split_cols(top, [2, 1.6, 2], p.gap)
    p.text(f"{c.s('table.turn')}: {name}", cap, 22, t.accent, bold=True, align="center" if p.portrait else "left")
    if o.timer is not None:
        big_timer(p, timer_r, o.timer.reading, "", size=120, paused_label=c.s("table.paused"))
    if o.winner:
        lead = c.s("label.winner", names=", ".join(o.players[i].name for i in o.winner))
    elif leaders:
        lead = f"{c.s('table.leader')}: {', '.join(o.players[i].name for i in leaders)} ({best}/{o.target_words})"
    else:
        lead = c.s("label.words_of", n=0, target=o.target_words)
    p.text(lead, lead_r, 18, t.leader, bold=True, align="center" if p.portrait else "right")
    # Rails: text only (stealing picks the word on its own screen).
    cols = split_cols(rails_r, [1] * max(1, len(o.players)), p.px(6))
    for i, (pl, col) in enumerate(zip(o.players, cols, strict=False)):
        p.fill(col, t.panel, radius=p.px(6))
        if i == o.to_move:
            p.fill(col, t.accent, radius=p.px(6), width=p.px(3))
        elif i in leaders:
            p.fill(col, t.leader, radius=p.px(6), width=p.px(2))
        inner = col.inflate(-p.px(12), -p.px(10))
        head = pygame.Rect(inner.left, inner.top, inner.w, p.px(22))
        p.text(f"{pl.name} {len(pl.words)}/{o.target_words}", head, 16,
               t.accent if i == o.to_move else (t.leader if i in leaders else t.text), bold=True, align="left")
        words_r = pygame.Rect(inner.left, head.bottom, inner.w, inner.bottom - head.bottom)
        line_h = p.px(22)
        per_col = max(1, words_r.h // line_h)
        sub = max(1, -(-len(pl.words) // per_col))
        sub_w = words_r.w // sub
        for j, w in enumerate(pl.words):
            r = pygame.Rect(words_r.left + (j // per_col) * sub_w, words_r.top + (j % per_col) * line_h,
                            sub_w - p.px(4), line_h)
            p.text(w.text, r, 17, t.bad_text if w.pending else t.text, bold=True, align="left")
    # Entry: the field, then STEAL (pick a word) / END TURN / DISPUTE.
    field_w = entry_r.w * 2 // 5
    field = pygame.Rect(entry_r.left, entry_r.top, field_w, entry_h)
    hint = c.s("label.steal_from", word=st.steal[1], name=o.players[st.steal[0]].name) if st.steal else c.s(
        "label.type_word")
    entry_field(p, field, st.entry, hint)
    last = next((i for i, pl in enumerate(o.players) if any(w.pending for w in pl.words)), None)
    others = any(pl.words for i, pl in enumerate(o.players) if i != o.to_move)
    button_row(c, pygame.Rect(field.right + p.gap, entry_r.top, entry_r.w - field_w - p.gap, entry_h),
               [("button.steal", act(ActionKind.SELECT_WORD, target=None), "accent" if st.steal else "normal", others),
                ("button.end_turn", act(ActionKind.PLAYER_BUTTON, player=o.to_move), "primary", True),
                ("button.dispute", act(ActionKind.DISPUTE, target=last), "danger", last is not None)], size=14)
    extra = (pause_key(o.timer),) if o.timer is not None and o.timer.reading.state in (
        TimerState.RUNNING, TimerState.PAUSED) else ()
    enter = c.s("button.steal") if st.steal else c.s("button.make_word")
    keyboard(p, kb, o.alphabet, joker=True, joker_on=st.joker_next, joker_label=c.s("button.blank"),
             enter_label=enter, enter_enabled=len(st.entry) >= 3,
             extra=tuple((c.s(key), action, style) for key, action, style in extra))


def pause_key(timer: TimerView) -> tuple[str, UiAction, str]:
    """PAUSE while the timer runs, RESUME (lit) while it is stopped: (strings key, action, style)."""
    if timer.reading.state is TimerState.PAUSED:
        return "button.resume", act(ActionKind.RESUME), "primary"
    return "button.pause", act(ActionKind.PAUSE), "normal"


def steal_picker(c: Ctx, area: pygame.Rect) -> None:
    """Ordskifte: the opponents' words as touch-size buttons; the one tapped is the word to steal."""
    p, o = c.p, c.v.ordskifte
    assert o is not None
    body, buttons = bottom_rows(c, area, 1)
    body = title(c, body, "table.steal_which")
    y = body.top
    for i, pl in enumerate(o.players):
        if i == o.to_move or not pl.words:
            continue
        p.text(pl.name, pygame.Rect(body.left, y, body.w, p.px(26)), 18, p.theme.dim, bold=True, align="left")
        y += p.px(28)
        per_row = max(1, (body.w + p.gap) // (p.px(150) + p.gap))
        w = (body.w - p.gap * (per_row - 1)) // per_row
        for j, word in enumerate(pl.words):
            r = pygame.Rect(body.left + (j % per_row) * (w + p.gap), y + (j // per_row) * (p.touch + p.gap), w,
                            p.touch)
            p.button(r, word.text, act(ActionKind.SELECT_WORD, target=i, old=word.text), size=22)
        y += -(-len(pl.words) // per_row) * (p.touch + p.gap)
    button_row(c, buttons, [("button.back", act(ActionKind.CANCEL_EDIT), "normal", True)], size=18)


def keywords(c: Ctx) -> None:
    p, v, st = c.p, c.v, c.st
    k = v.keywords
    if k is None:
        return
    area = chrome(c).inflate(-p.px(12), -p.px(8))
    head_h = p.px(34)
    head = pygame.Rect(area.left, area.top, area.w, head_h)
    p.text(c.s("label.round", n=k.round_no), head, 22, p.theme.dim, bold=True, align="left")
    if k.target_score is not None:
        p.text(c.s("label.target", score=k.target_score), head, 20, p.theme.dim, align="right")
    body = pygame.Rect(area.left, head.bottom, area.w, area.h - head_h)
    if k.phase is KeywordsPhase.PLAYING:
        timer_r, pad, btn = split_rows(body, [2.2, 1, 0.5], p.gap)
        if k.timer is not None:
            who = k.timer.player
            if who is not None and who < len(k.players):
                name_r = pygame.Rect(timer_r.left, timer_r.top, timer_r.w, timer_r.h // 6)
                p.text(k.players[who].name, name_r, 24, p.theme.accent, bold=True)
                timer_r = pygame.Rect(timer_r.left, name_r.bottom, timer_r.w, timer_r.h - name_r.h)
            big_timer(p, timer_r, k.timer.reading, "", size=220, paused_label=c.s("table.paused"))
            # Tapping the timer flips it, like the players' buttons.
            p.add_hot(timer_r, act(ActionKind.PLAYER_BUTTON, player=who))
        score_pad(c, pad, compact=True)
        specs = [("label.round_entry", act(ActionKind.NEXT_ROUND), "normal", True)]
        if k.timer is not None and k.timer.reading.state in (TimerState.RUNNING, TimerState.PAUSED):
            key, action, style = pause_key(k.timer)
            specs.insert(0, (key, action, style, True))
        button_row(c, btn, specs, size=16)
        return
    if k.phase is KeywordsPhase.MATCH_OVER:
        top, pad, btn = split_rows(body, [0.8, 3, 0.9], p.gap)
        totals = [pl.total for pl in k.players]
        best = max(totals) if totals else 0
        names = ", ".join(pl.name for pl in k.players if pl.total == best)
        p.text(c.s("label.match_over") + " · " + c.s("label.winner", names=names), top, 30, p.theme.accent, bold=True)
        score_pad(c, pad)
        button_row(c, btn, [("button.new_game", act(ActionKind.NEW_GAME), "primary", True)], size=24)
        return
    # ENTRY: a totals strip, whose words (tabs), the field with the unused keys, a full-width keyboard.
    who = st.entry_player if st.entry_player is not None else next(
        (i for i, pl in enumerate(k.players) if not pl.submitted), 0)
    tabs = pygame.Rect(body.left, body.top, body.w, p.touch)
    for i, (r, pl) in enumerate(zip(split_cols(tabs, [1] * len(k.players), p.gap), k.players, strict=False)):
        label = f"{pl.name} · {pl.total}" + (" ✓" if pl.submitted else "")
        p.button(r, label, act(ActionKind.SELECT_PLAYER, player=i), style="accent" if i == who else "normal", size=18)
    row = pygame.Rect(body.left, tabs.bottom + p.gap, body.w, p.px(52))
    field, minus, count, plus = split_cols(row, [5, 1, 2.2, 1], p.gap)
    entry_field(p, field, st.entry, c.s("label.type_words_submit"))
    p.button(minus, "−", act(ActionKind.SELECT_PLAYER, player=who, number=-1), size=26)
    p.text(c.s("label.unused", count=st.unused), count, 15, p.theme.text, bold=True)
    p.button(plus, "+", act(ActionKind.SELECT_PLAYER, player=who, number=1), size=26)
    y = row.bottom + p.px(2)
    problem = k.players[who].problem if who < len(k.players) else None
    if problem is not None:
        y += paragraph(p, say(c, problem), pygame.Rect(body.left, y, body.w, p.px(36)), 14, p.theme.bad_text,
                       bold=True)
    all_in = all(pl.submitted for pl in k.players)
    kb = pygame.Rect(body.left, y + p.gap, body.w, body.bottom - y - p.gap)
    keyboard(p, kb, k.alphabet, space=True, joker=True, joker_on=st.joker_next, joker_label=c.s("button.blank"),
             enter_label=c.s("button.submit"), enter_enabled=bool(st.entry.strip()),
             extra=((c.s("button.next_round"), act(ActionKind.NEXT_ROUND), "primary" if all_in else "disabled"),))


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
                       p.theme.bad_text if val < 0 else p.theme.text, align="right")
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

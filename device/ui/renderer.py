# SPDX-License-Identifier: GPL-3.0-or-later
"""The Renderer: ``render(view) -> Surface``, ``hit(view, pos) -> UiAction | None`` and
``apply(view, action)``, which consumes the UI's own widget actions (typing, selecting) and returns
the action the core should see, if any."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from device.ui import hint_screen, missed_screen, screens, start_draw_screen
from device.ui.draw import Fonts, HotTarget, Label, Painter, Theme
from device.ui.screens import Ctx, WidgetState
from device.ui.strings import Strings
from device.ui.view import ActionKind, KeywordsPhase, Screen, Severity, UiAction, View
from device.ui.widgets import BoardArt

_SCREENS: dict[Screen, Callable[[Ctx], None]] = {
    Screen.SCOREBOARD: screens.scoreboard,
    Screen.CONFIRM_MOVE: screens.confirm_move,
    Screen.CHALLENGE: screens.judge,
    Screen.JUDGE: screens.judge,
    Screen.ASK_EXCHANGE_OR_PASS: screens.ask_exchange_or_pass,
    Screen.MANUAL_ENTRY: screens.manual_entry,
    Screen.END: screens.end,
    Screen.END_RACKS: screens.end_racks,
    Screen.NEW_GAME: screens.form_screen,
    Screen.SETTINGS: screens.form_screen,
    Screen.ORDSKIFTE: screens.ordskifte,
    Screen.KEYWORDS: screens.keywords,
    Screen.MESSAGE: screens.message,
    Screen.START_DRAW: start_draw_screen.start_draw,
    Screen.MISSED: missed_screen.missed,
    Screen.HINT: hint_screen.hint,
}

_SUBMITS = {ActionKind.JUDGE_WORDS, ActionKind.MANUAL_MOVE, ActionKind.MAKE_WORD, ActionKind.STEAL,
            ActionKind.KEYWORDS_WORDS, ActionKind.SET_OPTION, ActionKind.RACK, ActionKind.HINT_RACK}


class Renderer:
    """Draws Views at one window size. Keeps fonts, the board background and tile images cached."""

    def __init__(self, surface_size: tuple[int, int], strings: Strings | None = None,
                 theme: Theme | None = None) -> None:
        self.size = (int(surface_size[0]), int(surface_size[1]))
        self.strings = strings or Strings.load()
        self.theme = theme or Theme()
        self.fonts = Fonts()
        self.art = BoardArt()
        self.state = WidgetState()
        self._surface = pygame.Surface(self.size)
        self._frame_key: object = None
        self._frame_surf: pygame.Surface | None = None
        self.labels: list[Label] = []
        """Text drawn in the last frame, with its box (for tests and layout checks)."""
        self.hot: list[tuple[pygame.Rect, HotTarget]] = []

    # -- drawing ---------------------------------------------------------------------------

    def render(self, view: View, surface: pygame.Surface | None = None) -> pygame.Surface:
        """Draw ``view`` onto ``surface`` (or an internal one of the renderer's size) and return it."""
        self._sync(view)
        target = surface if surface is not None else self._surface
        target.fill(self.theme.bg)
        painter = self._run(view, target)
        self.labels = painter.labels
        self.hot = painter.hot
        return target

    def hit(self, view: View, pos: tuple[int, int]) -> UiAction | None:
        """The action under ``pos`` (window pixels) on ``view``; the topmost region wins."""
        self._sync(view)
        painter = self._run(view, None)
        for rect, target in reversed(painter.hot):
            if rect.collidepoint(pos):
                action = target(pos) if callable(target) else target
                if action is not None:
                    return action
        return None

    def _run(self, view: View, surface: pygame.Surface | None) -> Painter:
        painter = Painter(surface, self.size, self.fonts, self.theme)
        ctx = Ctx(painter, view, self.state, self.strings, self.art)
        if view.screen is Screen.CALIBRATION:
            screens.calibration(ctx, lambda: self._frame(view, painter))
        else:
            _SCREENS[view.screen](ctx)
        return painter

    def _frame(self, view: View, painter: Painter) -> pygame.Surface | None:
        cal = view.calibration
        if cal is None or cal.frame is None:
            return None
        key = (id(cal.frame), self.size)
        if key != self._frame_key:
            self._frame_surf = _frame_to_surface(cal.frame, cal.frame_size, painter)
            self._frame_key = key
        return self._frame_surf

    # -- widget state ------------------------------------------------------------------------

    def _sync(self, view: View) -> None:
        if view.screen is not self.state.screen:
            self.state = WidgetState(screen=view.screen)
            return
        st = self.state
        if st.submitted is not None:
            # The core has answered what was typed: a refusal keeps the text to fix, anything else clears it.
            if view.message is None or view.message_severity is not Severity.ERROR:
                self._clear_entry()
            st.submitted = None

    def apply(self, view: View, action: UiAction) -> UiAction | None:
        """Consume a local action (updating the widget state); return what the core should get."""
        self._sync(view)
        st = self.state
        kind = action.kind
        if not action.is_local:
            if kind in (ActionKind.CORRECT_TILE, ActionKind.SET_BLANK):
                self._clear_entry()
            elif kind in _SUBMITS:
                st.submitted = st.entry
            st.confirm_undo = st.menu = False
            return action
        if kind in (ActionKind.CORRECT_TILE, ActionKind.SET_BLANK):
            same = st.selected == action.square
            st.selected = None if same else action.square
            st.selected_blank = kind is ActionKind.SET_BLANK
            return None
        if kind is ActionKind.KEY:
            return self._key(view, action.text)
        if kind is ActionKind.BACKSPACE:
            st.entry = st.entry[:-1]
        elif kind is ActionKind.SPACE:
            if st.entry and not st.entry.endswith(" "):
                st.entry += " "
        elif kind is ActionKind.ENTER:
            return self._submit(view)
        elif kind is ActionKind.SELECT_WORD:
            if action.target is None:  # STEAL: open the picker; tapped again (lit), it drops the word picked
                st.picking, st.steal = st.steal is None and not st.picking, None
            else:
                st.steal, st.picking = (action.target, action.old), False
        elif kind is ActionKind.ASK_UNDO:
            st.confirm_undo, st.menu = True, False
        elif kind is ActionKind.MENU:
            st.menu = not st.menu
        elif kind is ActionKind.SELECT_PLAYER:
            if action.number is not None:
                st.unused = max(0, st.unused + action.number)
            elif action.player != st.entry_player:
                st.entry_player = action.player
                kw = view.keywords
                if kw is not None and action.player is not None and action.player < len(kw.players):
                    pl = kw.players[action.player]
                    st.entry, st.unused = " ".join(pl.words), pl.unused
        elif kind is ActionKind.EDIT_OPTION:
            st.editing, st.entry = action.key, action.text
        elif kind is ActionKind.CANCEL_EDIT:
            st.editing = None
            st.selected = None
            st.confirm_undo = st.picking = st.menu = False
            st.entry = ""
        return None

    def _key(self, view: View, text: str) -> UiAction | None:
        st = self.state
        if view.screen is Screen.CONFIRM_MOVE:
            if st.selected is None or text == "?":
                return None
            kind = ActionKind.SET_BLANK if st.selected_blank else ActionKind.CORRECT_TILE
            square, st.selected = st.selected, None
            return UiAction(kind, square=square, letter=text)
        if view.screen in (Screen.END_RACKS, Screen.HINT):
            st.entry += text  # "?" is a blank on the rack
            return None
        if text == "?":
            st.joker_next = not st.joker_next
            return None
        if st.joker_next:
            text, st.joker_next = text.lower(), False
        elif st.editing is not None and st.editing.startswith("player") and st.entry[-1:] not in ("", " ", "-"):
            text = text.lower()  # names as written: a capital only at the start of each part
        st.entry += text
        return None

    def _submit(self, view: View) -> UiAction | None:
        st = self.state
        text = st.entry.strip()
        if not text:
            return None
        action: UiAction | None = None
        if st.editing is not None:
            action = UiAction(ActionKind.SET_OPTION, key=st.editing, text=text)
            st.editing = None
        elif view.screen is Screen.JUDGE:
            action = UiAction(ActionKind.JUDGE_WORDS, words=tuple(text.split()))
        elif view.screen is Screen.HINT:
            action = UiAction(ActionKind.HINT_RACK, text="".join(text.split()))
        elif view.screen is Screen.MANUAL_ENTRY:
            action = UiAction(ActionKind.MANUAL_MOVE, text=text)
        elif view.screen is Screen.END_RACKS:
            action = UiAction(ActionKind.RACK, text=text)
        elif view.screen is Screen.ORDSKIFTE and view.ordskifte is not None:
            me = view.ordskifte.to_move
            if st.steal is not None:
                action = UiAction(ActionKind.STEAL, player=me, target=st.steal[0], old=st.steal[1], text=text)
            else:
                action = UiAction(ActionKind.MAKE_WORD, player=me, text=text)
        elif view.screen is Screen.KEYWORDS and view.keywords is not None:
            kw = view.keywords
            if kw.phase is KeywordsPhase.ENTRY:
                who = st.entry_player if st.entry_player is not None else next(
                    (i for i, pl in enumerate(kw.players) if not pl.submitted), 0)
                action = UiAction(ActionKind.KEYWORDS_WORDS, player=who, words=tuple(text.split()),
                                  number=st.unused)
        if action is not None:
            st.submitted = text
        return action

    def _clear_entry(self) -> None:
        st = self.state
        st.entry, st.steal, st.selected, st.joker_next, st.unused = "", None, None, False, 0
        st.entry_player = None


def _frame_to_surface(frame: object, frame_size: tuple[int, int] | None, painter: Painter) -> pygame.Surface | None:
    """A BGR camera frame (numpy array or bytes) scaled to fit the preview area."""
    shape = getattr(frame, "shape", None)
    if shape is not None:
        h, w = int(shape[0]), int(shape[1])
        data = frame.tobytes() if hasattr(frame, "tobytes") else bytes(frame)  # type: ignore[call-overload]
    elif frame_size is not None and isinstance(frame, (bytes, bytearray, memoryview)):
        w, h = frame_size
        data = bytes(frame)
    else:
        return None
    surf = pygame.image.frombuffer(data, (w, h), "BGR")
    if painter.portrait:
        box = (painter.w, painter.h * 3 // 5)
    else:
        box = (painter.w * 2 // 3, painter.h)
    scale = min(box[0] / w, box[1] / h)
    return pygame.transform.smoothscale(surf, (max(1, int(w * scale)), max(1, int(h * scale))))

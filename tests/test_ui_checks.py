# SPDX-License-Identifier: GPL-3.0-or-later
"""Automated checks over every gallery picture (every screen and widget state, en/sv/fi/nb, 800x480 and
720x1280): touch targets at least 48 px (scaled) with 8 px between them, text contrast at least 4.5:1
(WCAG 2 relative luminance) against the pixels around it, new tiles at least 3:1 against every premium
colour, and every drawn string taken from the strings files (or a value: a name, word, letter, number)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import dataclasses  # noqa: E402
import enum  # noqa: E402
import re  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.ui import gallery  # noqa: E402
from device.ui.draw import Theme  # noqa: E402
from device.ui.screens import SYMBOLS  # noqa: E402
from device.ui.strings import Strings  # noqa: E402
from device.ui.view import Screen, Text, UiAction, View  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_on_known_pairs() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)  # the classic #777


class RecordingStrings(Strings):
    """Strings that remember every text they gave out (the candidates for what may be drawn)."""

    def __init__(self, base: Strings) -> None:
        super().__init__(base.tables)
        object.__setattr__(self, "given", set())

    def get(self, lang: str, key: str, **fields: Any) -> str:
        text = super().get(lang, key, **fields)
        if text != key:  # a key not in the files comes back as itself: not a string from the files
            self.given.add(text)  # type: ignore[attr-defined]
        return text


def view_values(obj: Any, out: set[str]) -> set[str]:
    """Every value a View carries (names, words, letters, notation, paths, Text arguments), not its keys."""
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out.add(str(obj))
    elif isinstance(obj, Text):
        for _, arg in obj.args:
            view_values(arg, out)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name.endswith("key") or f.name in ("language", "layout_name", "premiums", "frame", "detail"):
                continue
            view_values(getattr(obj, f.name), out)
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            view_values(item, out)
    elif isinstance(obj, enum.Enum):
        pass
    return out


def leftover(text: str, parts: list[str]) -> str:
    """What of ``text`` is not a known part: a line of a wrapped string passes whole; otherwise every known
    part is removed (longest first), then numbers, clocks and punctuation; the rest is returned."""
    line = text.strip().rstrip("▏")
    if any(line in part for part in parts if len(part) > 1):
        return ""
    for part in parts:
        if part:
            text = text.replace(part, " ")
    text = re.sub(r"[-+−]?\d+(:\d\d)*%?", " ", text)
    return "".join(ch for ch in text if not (ch.isspace() or ch in SYMBOLS or ch in ".,;·()/×▏✓✗–-%"))


@pytest.fixture(scope="module")
def pictures() -> list[tuple[str, str, tuple[int, int], View, Any, pygame.Surface, set[str]]]:
    if not (SHARED / gallery.DEFAULT_GCG).exists():
        pytest.skip(f"shared data missing: {SHARED / gallery.DEFAULT_GCG}")
    pygame.init()
    strings = RecordingStrings(Strings.load())
    views = gallery.sample_views(SHARED)
    out = []
    from device.ui.renderer import Renderer

    for size in gallery.SIZES:
        r = Renderer(size, strings)
        for lang in ("en", "sv", "fi", "nb"):
            todo = [(name, dataclasses.replace(view, language=lang), ()) for name, view in views.items()]
            todo += [(name, dataclasses.replace(views[sample], language=lang), actions)
                     for name, sample, actions in gallery.STATES]
            for name, view, actions in todo:
                strings.given.clear()  # type: ignore[attr-defined]
                r.render(view)
                for action in actions or ((gallery._tap_tile(view),) if name == "confirm-selected" else ()):
                    r.apply(view, action)
                surface = r.render(view).copy()
                out.append((name, lang, size, view, (list(r.labels), list(r.hot)), surface,
                            set(strings.given)))  # type: ignore[attr-defined]
    return out


def test_the_gallery_covers_every_screen(pictures) -> None:  # noqa: ANN001
    assert {view.screen for _, _, _, view, _, _, _ in pictures} == set(Screen)
    assert len({lang for _, lang, _, _, _, _, _ in pictures}) == 4 and len({s for _, _, s, _, _, _, _ in pictures}) == 2


def test_touch_targets_are_finger_sized_and_apart(pictures) -> None:  # noqa: ANN001
    problems = []
    for name, lang, size, _view, (_, hot), _, _ in pictures:
        u = min(size) / 480
        touch, gap = round(48 * u), round(8 * u)
        rects = [(rect, target) for rect, target in hot]
        for rect, target in rects:
            if rect.w < touch or rect.h < touch:
                problems.append(f"{name}/{lang}/{size}: {_what(target)} is {rect.w}x{rect.h} px (< {touch})")
        for i, (a, ta) in enumerate(rects):
            for b, tb in rects[i + 1:]:
                apart = max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom)
                if apart < gap:
                    problems.append(f"{name}/{lang}/{size}: {_what(ta)} and {_what(tb)} are {apart} px apart")
    assert not problems, report(problems)


def report(problems: list[str]) -> str:
    """The problems once each over the four languages (most screens fail alike in all of them)."""
    kinds = sorted({re.sub(r"/(en|sv|fi|nb)[/:]", "/*:", p) for p in problems})
    return "\n".join(kinds[:60]) + f"\n({len(kinds)} kinds, {len(problems)} problems)"


def _what(target: Any) -> str:
    return target.kind.value + (f" {target.text or target.letter or ''}" if isinstance(target, UiAction) else "") \
        if isinstance(target, UiAction) else "board"


def background_of(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour around a piece of text: the commonest pixel on a ring just outside its box."""
    ring = rect.inflate(4, 4).clip(surface.get_rect())
    pixels: Counter[tuple[int, int, int]] = Counter()
    for x in range(ring.left, ring.right):
        for y in (ring.top, ring.bottom - 1):
            pixels[tuple(surface.get_at((x, y))[:3])] += 1  # type: ignore[index]
    for y in range(ring.top, ring.bottom):
        for x in (ring.left, ring.right - 1):
            pixels[tuple(surface.get_at((x, y))[:3])] += 1  # type: ignore[index]
    return pixels.most_common(1)[0][0]


def test_text_contrast_is_at_least_4_5(pictures) -> None:  # noqa: ANN001
    problems = []
    for name, lang, size, view, (labels, _), surface, _ in pictures:
        if view.screen is Screen.CALIBRATION:
            continue  # text over a camera picture is measured on its panel only below
        for label in labels:
            if label.rect is None or not label.text.strip():
                continue
            bg = background_of(surface, label.rect, label.colour)
            ratio = contrast(label.colour, bg)
            if ratio < 4.5:
                problems.append(f"{name}/{lang}/{size}: {label.text!r} {label.colour} on {bg} = {ratio:.2f}")
    assert not problems, report(problems)


def test_new_tiles_and_board_labels_stand_out_on_every_premium() -> None:
    t = Theme()
    squares = [colour for _, colour in t.premiums] + [t.square]
    for colour in squares:
        assert contrast(t.proposal_tile, colour) >= 3.0, colour
        assert contrast(t.premium_text, colour) >= 4.5, colour
    assert contrast(t.proposal_text, t.proposal_tile) >= 4.5
    assert contrast(t.blank_needed, t.proposal_tile) >= 3.0
    # Selection (white frame), blank needed (cyan) and unsure (orange) are three different marks.
    assert len({t.selected, t.blank_needed, t.uncertain}) == 3
    assert contrast(t.selected, t.uncertain) >= 1.5 and contrast(t.selected, t.blank_needed) >= 1.2


def test_new_tiles_are_drawn_dark_on_the_confirm_screen(pictures) -> None:  # noqa: ANN001
    t = Theme()
    from device.ui.widgets import board_geometry

    for name, _, size, view, _, surface, _ in pictures:
        if name != "confirm-sure":
            continue
        w, h = size
        board_rect = pygame.Rect(0, 0, w, min(w, h * 3 // 5)) if h > w else pygame.Rect(0, 0, h, h)
        geo = board_geometry(view.board, board_rect)
        for tile in view.proposal.tiles:
            corner = geo.rect(tile.square).move(4, geo.cell // 2).topleft
            assert tuple(surface.get_at(corner)[:3]) == t.proposal_tile


def test_every_drawn_string_comes_from_the_strings_files(pictures) -> None:  # noqa: ANN001
    problems = []
    for name, lang, _size, view, (labels, _), _, given in pictures:
        values = view_values(view, set())
        parts = sorted(given | values, key=len, reverse=True)
        for label in labels:
            rest = leftover(label.text, parts)
            if rest:
                problems.append(f"{name}/{lang}: {label.text!r} (not from the strings files: {rest!r})")
    assert not problems, report(problems)

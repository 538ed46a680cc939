# SPDX-License-Identifier: GPL-3.0-or-later
"""The touchscreen UI rendered headless: every screen at both display sizes from Views built from a
real mid-game board, hit-testing, widget input, text fitting, one action per finger tap."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections import Counter  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from device.ui.gallery import DEFAULT_GCG, SIZES, sample_views  # noqa: E402
from device.ui.input import InputAdapter  # noqa: E402
from device.ui.renderer import Renderer  # noqa: E402
from device.ui.strings import LANGUAGES, Strings  # noqa: E402
from device.ui.view import ActionKind, KeywordsPhase, Screen, Text, UiAction, View  # noqa: E402
from device.ui.widgets import board_geometry, format_clock  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


@pytest.fixture(scope="module")
def views() -> dict[str, View]:
    if not (SHARED / DEFAULT_GCG).exists():
        pytest.skip(f"shared data missing: ../shared/data/{DEFAULT_GCG}")
    pygame.init()
    return sample_views(SHARED)


def renderer(size: tuple[int, int], strings: Strings) -> Renderer:
    pygame.init()
    return Renderer(size, strings)


def test_strings_complete_in_every_language(strings: Strings) -> None:
    en = strings.keys("en")
    assert len(en) > 100
    for lang in LANGUAGES:
        assert strings.keys(lang) == en, lang
    assert strings.get("nb", "button.undo") == "ANGRE"
    assert strings.get("sv", "label.bag", count=7) == "Påsen: 7"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_renders_and_text_fits(views: dict[str, View], strings: Strings, size: tuple[int, int],
                                            tmp_path: Path) -> None:
    assert {v.screen for v in views.values()} == set(Screen)
    r = renderer(size, strings)
    for name, view in views.items():
        for lang in LANGUAGES:
            surf = r.render(replace(view, language=lang))
            assert surf.get_size() == size
            if lang == view.language:
                pygame.image.save(surf, str(tmp_path / f"{name}-{size[0]}x{size[1]}.png"))
                colours = np.unique(pygame.surfarray.array2d(surf))
                assert len(colours) > 8, f"{name} is blank"
            assert r.labels, name
            for label in r.labels:
                measured = r.fonts.font(label.size, label.bold).size(label.text)[0]
                assert measured <= label.box.w, \
                    f"{name}/{lang}: {label.text!r} is {measured} px in a {label.box.w} px box"
                assert label.box.right <= size[0] and label.box.left >= 0, (name, label.text)
                base = label.text.split(":")[0]
                assert not (base in strings.keys() and "." in base), f"{name}/{lang}: raw key {label.text!r} on screen"
    assert len(list(tmp_path.glob("*.png"))) == len(views)


def test_scoreboard_shows_real_game_with_nordic_names(views: dict[str, View], strings: Strings) -> None:
    view = views["scoreboard"]
    assert view.board is not None and len(view.board.tiles) > 40
    r = renderer((800, 480), strings)
    r.render(view)
    texts = {label.text for label in r.labels}
    assert "Åse Ødegård" in texts and "Björn Ängström" in texts
    assert {str(p.score) for p in view.players} <= texts
    assert "-0:47" in texts, "overtime is shown negative"
    # The last move's squares are drawn highlighted, other tiles plain.
    geo = board_geometry(view.board, pygame.Rect(0, 0, 480, 480))
    surf = r.render(view)
    last = view.board.last_move[0]
    plain = next(t.square for t in view.board.tiles if t.square not in view.board.last_move and not t.blank)
    at = lambda sq: surf.get_at(geo.rect(sq).move(3, 3).topleft)[:3]  # noqa: E731
    assert at(last) == r.theme.last_tile
    assert at(plain) == r.theme.tile


def test_history_tells_apart_players_who_share_a_first_name(views: dict[str, View], strings: Strings) -> None:
    import dataclasses

    view = views["scoreboard"]
    assert view.history and len(view.players) == 2
    r = renderer((800, 480), strings)
    r.render(view)
    firsts = {p.name.split()[0] for p in view.players}
    assert firsts <= {label.text for label in r.labels}  # different first names: the history shows those
    same = tuple(dataclasses.replace(p, name=f"Ann {surname}")
                 for p, surname in zip(view.players, ("Berg", "Dahl"), strict=True))
    r.render(dataclasses.replace(view, players=same))
    texts = [label.text for label in r.labels]
    rows = {view.history[-1].player, view.history[-2].player}
    assert {("Ann B", "Ann D")[i] for i in rows} <= set(texts) and "Ann" not in texts


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_confirm_button_and_board_tap(views: dict[str, View], strings: Strings, size: tuple[int, int]) -> None:
    w, h = size
    r = renderer(size, strings)
    sure = views["confirm-sure"]
    # CONFIRM is the big button in the bottom-right corner.
    assert r.hit(sure, (w - 60, h - 30)) == UiAction(ActionKind.CONFIRM)
    # With a blank still unnamed, CONFIRM is disabled.
    unsure = views["confirm"]
    assert unsure.proposal is not None and unsure.proposal.blanks_needed
    assert r.hit(unsure, (w - 60, h - 30)) is None
    # The board is the top square in portrait, the left square in landscape.
    board_rect = pygame.Rect(0, 0, w, min(w, h * 3 // 5)) if h > w else pygame.Rect(0, 0, h, h)
    geo = board_geometry(unsure.board, board_rect)  # type: ignore[arg-type]
    for sq in [(0, 0), (7, 7), (14, 0), (0, 14), unsure.proposal.uncertain[0].square]:
        hit = r.hit(unsure, geo.rect(sq).center)
        assert hit == UiAction(ActionKind.CORRECT_TILE, square=sq), sq
        assert hit.is_local
    blank = unsure.proposal.blanks_needed[0]
    assert r.hit(unsure, geo.rect(blank).center) == UiAction(ActionKind.SET_BLANK, square=blank)


def test_correcting_a_tile_and_naming_a_blank(views: dict[str, View], strings: Strings) -> None:
    r = renderer((800, 480), strings)
    view = views["confirm"]
    assert view.proposal is not None
    sq = view.proposal.uncertain[0].square
    assert r.apply(view, UiAction(ActionKind.CORRECT_TILE, square=sq)) is None
    r.render(view)
    texts = [label.text for label in r.labels]
    assert any("58%" in t for t in texts), "top candidates are offered"
    assert "Ø" in texts, "the keyboard has the tile set's letters"
    assert r.apply(view, UiAction(ActionKind.KEY, text="Ø")) == UiAction(ActionKind.CORRECT_TILE, square=sq, letter="Ø")
    blank = view.proposal.blanks_needed[0]
    r.apply(view, UiAction(ActionKind.SET_BLANK, square=blank))
    assert r.apply(view, UiAction(ActionKind.KEY, text="S")) == UiAction(ActionKind.SET_BLANK, square=blank, letter="S")


@pytest.mark.parametrize(("name", "acceptable"), [("verdict-no", False), ("verdict-yes", True)])
def test_verdict_dominant_colour(views: dict[str, View], strings: Strings, name: str, acceptable: bool) -> None:
    for size in SIZES:
        surf = renderer(size, strings).render(views[name])
        counts = Counter(surf.get_at((x, y))[:3] for x in range(0, size[0], 7) for y in range(0, size[1], 7))
        (red, green, blue), n = counts.most_common(1)[0]
        assert n > 0.6 * sum(counts.values())
        if acceptable:
            assert blue > 150 and red < 80
        else:
            assert red > 150 and green < 80 and blue < 80


def test_judge_typing_emits_words(views: dict[str, View], strings: Strings) -> None:
    r = renderer((800, 480), strings)
    view = views["judge"]
    for ch in "BLÅBÆR":
        assert r.apply(view, UiAction(ActionKind.KEY, text=ch)) is None
    r.apply(view, UiAction(ActionKind.SPACE))
    for ch in "SKJELETT":
        r.apply(view, UiAction(ActionKind.KEY, text=ch))
    r.render(view)
    assert any(label.text.startswith("BLÅBÆR SKJELETT") for label in r.labels)
    assert r.apply(view, UiAction(ActionKind.ENTER)) == UiAction(ActionKind.JUDGE_WORDS, words=("BLÅBÆR", "SKJELETT"))
    # The text stays until the core has answered: a refusal keeps it to fix, anything else clears it.
    r.render(replace(view, message=Text("msg.type_a_word")))
    assert r.state.entry == "BLÅBÆR SKJELETT"
    r.apply(view, UiAction(ActionKind.ENTER))
    r.render(view)
    assert r.state.entry == ""


def _post_tap(adapter: InputAdapter, view: View, pos: tuple[int, int], size: tuple[int, int],
              synthesised: bool) -> list[UiAction]:
    x, y = pos[0] / size[0], pos[1] / size[1]
    events = [pygame.event.Event(pygame.FINGERDOWN, x=x, y=y, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1)]
    if synthesised:
        events.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True))
    events.append(pygame.event.Event(pygame.FINGERUP, x=x, y=y, touch_id=1, finger_id=0, dx=0, dy=0, pressure=0))
    if synthesised:
        events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True))
    out: list[UiAction] = []
    for ev in events:
        out += adapter.handle(ev, view)
    return out


def test_finger_tap_is_one_action_even_with_synthesised_mouse(views: dict[str, View], strings: Strings) -> None:
    size = (800, 480)
    adapter = InputAdapter(renderer(size, strings))
    view = views["confirm-sure"]
    pos = (size[0] - 60, size[1] - 30)
    assert _post_tap(adapter, view, pos, size, synthesised=True) == [UiAction(ActionKind.CONFIRM)]
    assert _post_tap(adapter, view, pos, size, synthesised=False) == [UiAction(ActionKind.CONFIRM)]
    # A real mouse (desktop) works too, once per click.
    got = adapter.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False), view)
    got += adapter.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False), view)
    assert got == [UiAction(ActionKind.CONFIRM)]
    # Pressing one button and releasing on another does nothing.
    down = pygame.event.Event(pygame.FINGERDOWN, x=pos[0] / 800, y=pos[1] / 480, touch_id=1, finger_id=2)
    up = pygame.event.Event(pygame.FINGERUP, x=0.01, y=0.01, touch_id=1, finger_id=2)
    assert adapter.handle(down, view) + adapter.handle(up, view) == []


def test_ordskifte_steal_and_make_word(views: dict[str, View], strings: Strings) -> None:
    size = (800, 480)
    r = renderer(size, strings)
    view = views["ordskifte"]
    o = view.ordskifte
    assert o is not None
    r.render(view)
    texts = {label.text for label in r.labels}
    assert "0:24" in texts and any("Björn Ängström" in t and "6" in t for t in texts), "closest to six is shown"
    # STEAL opens the picker; pick MÅKE on Björn's rail by tapping where it is drawn there.
    steal = next(rect for rect, t in r.hot if isinstance(t, UiAction) and t.kind is ActionKind.SELECT_WORD)
    r.apply(view, r.hit(view, steal.center))
    r.render(view)
    word_box = next(label.box for label in r.labels if label.text == "MÅKE")
    pick = r.hit(view, word_box.center)
    assert pick == UiAction(ActionKind.SELECT_WORD, target=1, old="MÅKE")
    r.apply(view, pick)
    for ch in "SMÅKE":
        r.apply(view, UiAction(ActionKind.KEY, text=ch))
    assert r.apply(view, UiAction(ActionKind.ENTER)) == UiAction(
        ActionKind.STEAL, player=0, target=1, old="MÅKE", text="SMÅKE")
    # A joker typed with the ? key comes out lower case.
    for ch in ["T", "?", "P", "E", "R"]:
        r.apply(view, UiAction(ActionKind.KEY, text=ch))
    assert r.apply(view, UiAction(ActionKind.ENTER)) == UiAction(ActionKind.MAKE_WORD, player=0, text="TpER")
    r.render(views["ordskifte-overtime"])
    assert "-0:04" in {label.text for label in r.labels}


def test_keywords_entry_submits_words_and_unused(views: dict[str, View], strings: Strings) -> None:
    r = renderer((720, 1280), strings)
    view = views["keywords-entry"]
    assert view.keywords is not None and view.keywords.phase is KeywordsPhase.ENTRY
    r.apply(view, UiAction(ActionKind.SELECT_PLAYER, player=0))
    assert r.state.entry == "CRAPAUD T?A?"
    r.apply(view, UiAction(ActionKind.SELECT_PLAYER, player=0, number=1))
    r.apply(view, UiAction(ActionKind.SPACE))
    for ch in "MOT":
        r.apply(view, UiAction(ActionKind.KEY, text=ch))
    assert r.apply(view, UiAction(ActionKind.ENTER)) == UiAction(
        ActionKind.KEYWORDS_WORDS, player=0, words=("CRAPAUD", "T?A?", "MOT"), number=2)
    playing = views["keywords-playing"]
    r.render(playing)
    timer = next(label for label in r.labels if label.text == "0:18")
    assert timer.size >= max(label.size for label in r.labels), "the round timer is the biggest thing on screen"


def test_new_game_form_cycles_and_edits_names(views: dict[str, View], strings: Strings) -> None:
    r = renderer((800, 480), strings)
    view = views["new-game"]
    r.render(view)
    box = next(label.box for label in r.labels if label.text == "Alfapet")
    assert r.hit(view, box.center) == UiAction(ActionKind.SET_OPTION, key="game", text="ordskifte")
    name_box = next(label.box for label in r.labels if label.text == "Björn Ängström")
    edit = r.hit(view, name_box.center)
    assert edit is not None and edit.kind is ActionKind.EDIT_OPTION and edit.key == "player2"
    r.apply(view, edit)
    for _ in range(len("Ängström")):
        r.apply(view, UiAction(ActionKind.BACKSPACE))
    for ch in "ÖST":
        r.apply(view, UiAction(ActionKind.KEY, text=ch))
    # The keys are capitals; a name keeps a capital only at the start of each part, as names are written.
    assert r.apply(view, UiAction(ActionKind.ENTER)) == UiAction(ActionKind.SET_OPTION, key="player2", text="Björn Öst")
    # START is the bottom-right button (above the message band saying why it would be refused).
    r.render(view)
    start = next(rect for rect, t in r.hot if t == UiAction(ActionKind.START_GAME))
    assert start.right > 700 and start.top > 300 and r.hit(view, start.center) == UiAction(ActionKind.START_GAME)


def test_calibration_draws_the_grid(views: dict[str, View], strings: Strings) -> None:
    view = views["calibration"]
    cal = view.calibration
    assert cal is not None and cal.frame is not None
    surf = renderer((800, 480), strings).render(view)
    green = sum(1 for x in range(0, 530, 2) for y in range(0, 480, 2) if surf.get_at((x, y))[:3] == (40, 230, 90))
    assert green > 500, "grid lines are drawn over the frame"
    # Bytes work as well as an array.
    as_bytes = replace(view, calibration=replace(cal, frame=cal.frame.tobytes(),
                                                 frame_size=(cal.frame.shape[1], cal.frame.shape[0])))
    surf2 = renderer((800, 480), strings).render(as_bytes)
    assert surf2.get_at((200, 200)) == surf.get_at((200, 200))


@pytest.mark.parametrize(("ms", "text"), [(612_000, "10:12"), (-47_000, "-0:47"), (999, "0:01"), (0, "0:00"),
                                          (-1, "-0:00"), (3_725_000, "1:02:05")])
def test_format_clock(ms: int, text: str) -> None:
    assert format_clock(ms) == text

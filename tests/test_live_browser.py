# SPDX-License-Identifier: GPL-3.0-or-later
"""The live page in a real browser (Debian's headless Chromium driven by Playwright) while a game is
written into the store as the kiosk writes it: what a viewer sees (names, scores, the last move
highlighted, the clock counting down, no racks during play, racks after the end, downloads), at
phone width and on a desktop. Screenshots go to ``<tmp>/live-*.png``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_live_server import ServerThread, started_game

from conftest import demo_game_settings
from device.live.feed import StoreFeeder
from device.store import Store
from engine.moves import Placement, RackPoints

CHROMIUM = os.environ.get("ORDVAKT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
REF, SETTINGS = demo_game_settings()
RACKS = sorted({e.rack for e in REF.events if e.rack and len(e.rack) >= 5})

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM}: install the Debian packages chromium and chromium-driver "
                    "(device/data/debian-packages.txt lists them)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e .[dev])")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def game_in_store(tmp_path: Path):
    feed = started_game(tmp_path)
    yield feed
    feed.store.close()


def shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ORDVAKT_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_viewer_watches_a_game_on_a_phone_and_a_desktop(browser, tmp_path: Path) -> None:
    feeder = started_game(tmp_path)
    store = feeder.store
    for _ in range(9):
        feeder.step()
    shots = shots_dir(tmp_path)
    with ServerThread(tmp_path / "games.sqlite", poll_s=0.05) as server:
        phone = browser.new_page(viewport={"width": 390, "height": 844}, locale="sv-SE", device_scale_factor=2)
        desktop = browser.new_page(viewport={"width": 1280, "height": 860}, locale="en-GB")
        for page in (phone, desktop):
            page.goto(server.url + "/")
            page.wait_for_selector("body[data-seq='9']")
        # Names and scores as the record has them after nine moves; Swedish on the Swedish phone.
        for page in (phone, desktop):
            cards = page.locator(".player")
            assert cards.nth(0).locator(".name").inner_text().startswith("Timon")
            assert cards.nth(0).locator(".score").inner_text() == str(REF.events[8].cumulative)
            assert cards.nth(1).locator(".score").inner_text() == str(REF.events[7].cumulative)
        assert phone.locator("#h-moves").inner_text() == "Drag"
        assert desktop.locator("#h-moves").inner_text() == "Moves"
        # The last move is highlighted on the board, square by square.
        last = REF.events[8].move
        assert isinstance(last, Placement)
        highlighted = sorted(desktop.locator(".sq.last").evaluate_all("els => els.map(e => e.dataset.square)"))
        assert highlighted == sorted(f"{t.square.row},{t.square.col}" for t in last.tiles)
        # The clock of the player to move counts down in the browser between events.
        clock = desktop.locator(".clock.running")
        assert clock.count() == 1
        first = clock.inner_text()
        desktop.wait_for_selector(f".clock.running:not(:text-is('{first}'))", timeout=5000)
        # No rack is shown, nor sent, while the game is played.
        for page in (phone, desktop):
            text = page.content()
            assert not any(rack in text for rack in RACKS)
            assert page.locator(".player .rack").count() == 0
        feeder.now.t += 1  # the kiosk saves its running clock every few seconds: the device is heard from
        feeder.tick()
        desktop.wait_for_selector("#status[data-state='playing']", timeout=5000)
        phone.screenshot(path=str(shots / "live-phone-playing.png"), full_page=True)
        desktop.screenshot(path=str(shots / "live-desktop-playing.png"), full_page=True)
        # A move confirmed at the device appears without a reload.
        event = feeder.step()
        desktop.wait_for_selector("body[data-seq='10']", timeout=5000)
        score = desktop.locator(".player").nth(event.player).locator(".score").inner_text()
        assert score == str(event.cumulative)
        # The end: racks shown, winner named, the game in the finished list with its downloads.
        while not feeder.done:
            feeder.step()
        for page in (phone, desktop):
            page.wait_for_selector(f"body[data-seq='{len(REF.events)}']", timeout=5000)
        racks = desktop.locator(".player .rack").all_inner_texts()
        assert racks[1].endswith(REF.events[-1].move.rack) and isinstance(REF.events[-1].move, RackPoints)
        assert desktop.locator("#status").get_attribute("data-state") == "finished"
        assert "Timon" in desktop.locator("#banner").inner_text()
        links = desktop.locator("#games a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
        assert f"/api/games/{feeder.game_id}.zip" in links
        phone.screenshot(path=str(shots / "live-phone-finished.png"), full_page=True)
        desktop.screenshot(path=str(shots / "live-desktop-finished.png"), full_page=True)
        for page in (phone, desktop):
            page.close()
    store.close()


def test_the_page_falls_back_to_polling_without_server_sent_events(browser, game_in_store: StoreFeeder) -> None:
    feeder = game_in_store
    feeder.step()
    with ServerThread(Path(feeder.store.path), poll_s=0.05) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.add_init_script("delete window.EventSource")
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-seq='1']")
        feeder.step()
        page.wait_for_selector("body[data-seq='2']", timeout=8000)
        page.close()


def test_offline_is_shown(browser, game_in_store: StoreFeeder, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    with ServerThread(Path(game_in_store.store.path)) as server:
        page.goto(server.url + "/")
        page.wait_for_selector("#status[data-state='playing']")
    # The server is gone: the page waits for its silence limit and then says it is offline.
    page.wait_for_selector("#status[data-state='offline']", timeout=40000)
    page.screenshot(path=str(shots_dir(tmp_path) / "live-phone-offline.png"))
    page.close()


def test_alfapet_for_three_ordskifte_rails_and_keywords_rounds(browser, tmp_path: Path) -> None:
    from device.config import GameSettings
    from engine.game import Game

    store = Store(tmp_path / "games.sqlite")
    settings = GameSettings(game="alfapet", language="sv", players=("Ann", "Bo", "Cecilia"), clock="chess")
    game = Game(settings.rules(), list(settings.players))
    gid = store.create_game(settings)
    for text in ("9F KATTEN", "H6 MATTA", "5D HEMMA"):
        before = game.board.copy()
        event = game.play(Placement.from_notation(text, game.board), check=False)
        store.append_event(gid, event, before, len(game.events) - 1)
    shots = shots_dir(tmp_path)
    with ServerThread(tmp_path / "games.sqlite") as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="sv-SE")
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-seq='3']")
        assert page.locator(".sq").count() == 17 * 17
        assert page.locator(".player").count() == 3
        assert page.locator(".player .score").all_inner_texts() == [str(s) for s in game.scores]
        page.screenshot(path=str(shots / "live-desktop-alfapet.png"), full_page=True)
        ordskifte = store.create_game(GameSettings(game="ordskifte", language="nb", players=("Kari", "Ola", "Per")))
        store.append(ordskifte, 0, {"action": "word", "player": 0, "game": {
            "players": ["Kari", "Ola", "Per"], "rails": [["HUS", "BILER", "SOL"], ["MAT"], []], "current": 1,
            "phase": "playing", "winners": [], "pool": ["A", "E", "R"], "hidden": ["Q", "Z", "X"]}},
            clock={"type": "turn", "version": 1, "duration_ms": 60000, "players": 3, "warnings_ms": [],
                   "player": 1, "remaining_ms": 42000, "auto_start": False, "running": True, "turns_started": 3,
                   "paused": False})
        phone = browser.new_page(viewport={"width": 390, "height": 844}, locale="nb-NO")
        phone.goto(server.url + "/")
        phone.wait_for_selector("body[data-kind='ordskifte']")
        assert phone.locator(".player").nth(0).locator(".rail span").all_inner_texts() == ["HUS", "BILER", "SOL"]
        assert phone.locator(".clock.running").count() == 1 and "Q" not in phone.locator("#players").inner_text()
        phone.screenshot(path=str(shots / "live-phone-ordskifte.png"), full_page=True)
        keywords = store.create_game(GameSettings(game="keywords", language="fi", players=("Aino", "Eero")))
        store.append(keywords, 0, {"action": "round", "match": {
            "players": ["Aino", "Eero"], "target": 100, "rounds": None, "round_scores": [[12, 9], [7, 15]],
            "phase": "playing", "winners": []}},
            clock={"type": "round", "version": 1, "duration_ms": 30000, "players": 2, "warnings_ms": [],
                   "player": 0, "remaining_ms": 21000, "status": "running", "flips": 4, "paused": False})
        phone.goto(server.url + "/")
        phone.wait_for_selector("body[data-kind='keywords']")
        assert phone.locator(".player .score").all_inner_texts() == ["19", "24"]
        assert phone.locator(".clock.running").count() == 1
        phone.screenshot(path=str(shots / "live-phone-keywords.png"), full_page=True)
        page.close()
        phone.close()
    store.close()

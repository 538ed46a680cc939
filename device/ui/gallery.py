# SPDX-License-Identifier: GPL-3.0-or-later
"""Sample Views of every screen, built from real game data, and a PNG writer to look at them.

``ordvakt gallery OUT_DIR`` (or ``python -m device.ui.gallery OUT_DIR [--shared ../shared/data]``) writes
``<sample>-<lang>-<w>x<h>.png`` for every sample in the four UI languages at both display sizes; the
automated size/contrast/strings checks (``tests/test_ui_checks.py``) run over the same samples.

This module is a development tool: it builds Views from the engine the way the device core does
(the renderer itself never imports the engine).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from device.ui.view import (
    ActionKind,
    BoardView,
    Calibration,
    Candidate,
    Choice,
    ClockMode,
    ClockReading,
    FinalScores,
    FormView,
    GameKind,
    KeywordsPhase,
    KeywordsPlayer,
    KeywordsView,
    MoveRow,
    Notice,
    Option,
    OrdskiftePlayer,
    OrdskifteView,
    PlayerView,
    Proposal,
    RackEntry,
    RailWordView,
    ScoreLine,
    Screen,
    Severity,
    Text,
    Tile,
    TimerState,
    TimerView,
    UiAction,
    UncertainTile,
    Verdict,
    View,
    WordScore,
)

SIZES = ((800, 480), (720, 1280))
DEFAULT_GCG = "gcg/woogles/2r8QNJNpbP.gcg"
NAMES = ("Åse Ødegård", "Björn Ängström", "Päivi Hämäläinen", "Øyvind Ærø")


def board_view(game, *, layout_name: str = "", last: bool = True) -> BoardView:  # noqa: ANN001 - engine Game
    """The View of an ``engine.game.Game``'s board (what the core does for every frame)."""
    layout = game.rules.layout
    tiles = tuple(Tile((sq.row, sq.col), cell.letter, cell.blank, cell.is_stop) for sq, cell in game.board)
    last_sq: tuple[tuple[int, int], ...] = ()
    if last and game.events:
        move = game.events[-1].move
        last_sq = tuple((t.square.row, t.square.col) for t in getattr(move, "tiles", ()))
    return BoardView(size=layout.size, premiums=tuple(tuple(p.value for p in row) for row in layout.grid),
                     tiles=tiles, last_move=last_sq, centre=(layout.centre.row, layout.centre.col),
                     layout_name=layout_name or layout.name)


def _history(game) -> tuple[MoveRow, ...]:  # noqa: ANN001
    from device.flow import describe, move_kind

    rows = []
    board_game = type(game)(game.rules, game.players)
    for ev in game.events:
        text = describe(ev.move, board_game.board)
        board_game.play(ev.move, player=ev.player, check=False)
        rows.append(MoveRow(ev.player, text, ev.score, ev.cumulative, tuple(ev.words), kind=move_kind(ev.move)))
    return tuple(rows)


def scrabble_midgame(shared: Path, moves: int = 14, gcg: str = DEFAULT_GCG):  # noqa: ANN201
    """(game after ``moves`` lines, the next line's Placement) from a real Woogles game."""
    from engine.gcg import parse_gcg, replay, to_move

    record = parse_gcg((shared / gcg).read_bytes(), gcg)
    whole = replay(record)
    game = type(whole.game)(whole.game.rules, list(NAMES[:2]))
    for ev in whole.game.events[:moves]:
        game.play(ev.move, player=ev.player, check=False)
    nxt = to_move(record.lines[moves], game, False, gcg)
    return game, nxt


def alfapet_game():  # noqa: ANN201
    """A short Swedish Alfapet game on the 17×17 board, words with Å, Ä, Ö."""
    from engine.game import Game
    from engine.moves import Placement
    from engine.rules import Rules

    game = Game(Rules.alfapet("sv"), list(NAMES[:3]))
    for i, text in enumerate(("9E SJÖRÅ", "F6 BÄR.", "12B KÖTTÅT", "E5 MÖ.")):
        try:
            game.play(Placement.from_notation(text, game.board), player=i % 3, check=False)
        except Exception:  # noqa: BLE001 - keep the gallery going on a notation quirk
            continue
    return game


def sample_views(shared: Path) -> dict[str, View]:
    """Every screen with realistic content. Needs ``shared`` (../shared/data) for the Scrabble game."""
    from engine.scoring import score_placement

    game, nxt = scrabble_midgame(shared)
    board = board_view(game)
    scores = game.scores
    clocks = (ClockReading(612_000, TimerState.IDLE), ClockReading(-47_000, TimerState.RUNNING))
    if game.to_move == 0:
        clocks = (ClockReading(-47_000, TimerState.RUNNING), ClockReading(612_000, TimerState.IDLE))
    players = tuple(PlayerView(n, scores[i], to_move=i == game.to_move, clock=clocks[i],
                               rack_count=game.rack_counts[i]) for i, n in enumerate(game.players))
    hist = _history(game)
    base: dict = {"language": "nb", "players": players, "board": board, "history": hist,
                  "bag_count": game.bag_count, "clock_mode": ClockMode.CHESS,
                  "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ"}
    views: dict[str, View] = {}
    views["scoreboard"] = View(Screen.SCOREBOARD, **base)
    views["scoreboard-warning"] = View(Screen.SCOREBOARD, **{**base, "language": "sv"},
                                       warnings=(Notice("warn.camera_lost"),), message=Text("msg.not_still"))
    paused = tuple(replace_clock(pl, TimerState.PAUSED if pl.to_move else TimerState.IDLE) for pl in players)
    views["scoreboard-paused"] = View(Screen.SCOREBOARD, **{**base, "players": paused}, paused=True,
                                      message=Text("msg.nothing_to_undo"))
    views["scoreboard-4"] = four_player_scoreboard(shared)
    sp = score_placement(game.board, nxt, game.rules)
    tiles = tuple(Tile((t.square.row, t.square.col), t.letter, t.blank) for t in nxt.letter_tiles)
    unc_sq = tiles[1].square
    blank_sq = tiles[-1].square
    prop_tiles = tuple(Tile(t.square, "" if t.square == blank_sq else t.letter, t.square == blank_sq or t.blank)
                       for t in tiles)
    words = tuple(WordScore(w.word, w.score, w.main) for w in sp.words)
    proposal = Proposal(prop_tiles, words, sp.score,
                        uncertain=(UncertainTile(unc_sq, (Candidate(tiles[1].letter, 0.58), Candidate("O", 0.31),
                                                          Candidate("Q", 0.05))),),
                        blanks_needed=(blank_sq,), player=game.to_move)
    views["confirm"] = View(Screen.CONFIRM_MOVE, **base, proposal=proposal)
    sure = Proposal(tuple(Tile(t.square, t.letter, t.blank) for t in tiles), words, sp.score,
                    auto_accept_ms=2300, player=game.to_move)
    views["confirm-sure"] = View(Screen.CONFIRM_MOVE, **{**base, "language": "fi"}, proposal=sure)
    gap_sq = "H9"
    refused = Proposal(tuple(Tile(t.square, t.letter, t.blank) for t in tiles), (), 0,
                       problems=(Text.of("engine.gap", square=gap_sq),), player=game.to_move)
    views["confirm-refused"] = View(Screen.CONFIRM_MOVE, **base, proposal=refused,
                                    message=Text.of("engine.gap", square=gap_sq))
    views["judge"] = View(Screen.JUDGE, **base)
    views["verdict-yes"] = View(Screen.JUDGE, **base, verdict=Verdict(
        True, (WordScore("SKJELETT", 0, acceptable=True), WordScore("BLÅBÆR", 0, acceptable=True)), 7400))
    views["verdict-no"] = View(Screen.JUDGE, **{**base, "language": "sv"}, verdict=Verdict(
        False, (WordScore("KÖTTÅT", 0, acceptable=False), WordScore("SJÖRÅ", 0, acceptable=True)), 9100))
    challenged = tuple(w.word for w in sp.words)
    views["challenge"] = View(Screen.CHALLENGE, **base, judge_words=challenged)
    views["challenge-upheld"] = View(Screen.CHALLENGE, **base, judge_words=challenged, verdict=Verdict(
        False, tuple(WordScore(w, 0, acceptable=False) for w in challenged)))
    views["exchange-or-pass"] = View(Screen.ASK_EXCHANGE_OR_PASS, **base)
    views["manual"] = View(Screen.MANUAL_ENTRY, **base, message=Text.of("msg.bad_notation", text="H8 ÅSE"))
    unseen = "".join(sorted(game.unseen().elements()))[:9]
    views["end-racks"] = View(Screen.END_RACKS, **{**base, "language": "sv"},
                              racks=RackEntry(1, unseen, 2, 5), message=Text.of("msg.rack_letter", letter="Q"))
    final = FinalScores((ScoreLine(398, 14, 0, 0, 412, ""), ScoreLine(406, -7, -10, 0, 389, "EI?")),
                        Text.of("end.reason.rack_out", name=game.players[0]))
    end_players = tuple(PlayerView(n, sc) for n, sc in zip(game.players, (412, 389), strict=True))
    views["end"] = View(Screen.END, **{**base, "players": end_players}, winner=(0,), final=final,
                        export_paths=("games/2024-05-01-asa-bjorn.gcg", "games/2024-05-01-asa-bjorn.json"))
    views["new-game"] = View(Screen.NEW_GAME, language="sv", form=new_game_form(),
                             alphabet="ABCDEFGHIJKLMNOPQRSTUVXYZÅÄÖ", message=Text("msg.same_name"))
    views["settings"] = View(Screen.SETTINGS, language="fi", form=settings_form())
    views["calibration"] = View(Screen.CALIBRATION, language="en", calibration=sample_calibration(shared))
    views["message"] = View(Screen.MESSAGE, language="nb", title_key="warn.database",
                            message=Text.of("msg.database_kept", path="ordvakt.db.bad-1714550000"))
    # Alfapet 17×17, Swedish, three players, no clocks.
    ag = alfapet_game()
    ascores = ag.scores
    views["alfapet"] = View(Screen.SCOREBOARD, language="sv", game=GameKind.ALFAPET,
                            players=tuple(PlayerView(n, ascores[i], to_move=i == ag.to_move)
                                          for i, n in enumerate(ag.players)),
                            board=board_view(ag), history=_history(ag), bag_count=ag.bag_count,
                            alphabet=ag.rules.tileset.alphabet)
    views["ordskifte"] = View(Screen.ORDSKIFTE, language="nb", game=GameKind.ORDSKIFTE, ordskifte=ordskifte_view())
    views["ordskifte-overtime"] = View(Screen.ORDSKIFTE, language="nb", game=GameKind.ORDSKIFTE,
                                       ordskifte=ordskifte_view(remaining=-4_000),
                                       message=Text.of("engine.steal.missing_letters", word="BRØD", missing="B"))
    views["ordskifte-paused"] = View(Screen.ORDSKIFTE, language="sv", game=GameKind.ORDSKIFTE,
                                     ordskifte=ordskifte_view(state=TimerState.PAUSED),
                                     message=Text("msg.timer_paused"))
    views["keywords-playing"] = View(Screen.KEYWORDS, language="en", game=GameKind.KEYWORDS,
                                     keywords=keywords_view(KeywordsPhase.PLAYING))
    views["keywords-entry"] = View(Screen.KEYWORDS, language="sv", game=GameKind.KEYWORDS,
                                   keywords=keywords_view(KeywordsPhase.ENTRY))
    views["keywords-over"] = View(Screen.KEYWORDS, language="en", game=GameKind.KEYWORDS,
                                  keywords=keywords_view(KeywordsPhase.MATCH_OVER))
    from device.start_draw import sample_views as start_draw_views

    views.update(start_draw_views())
    from device.missed import sample_views as missed_views

    views.update(missed_views())
    from device.hint import sample_views as hint_views

    views.update(hint_views())
    from device.solo_play import sample_views as solo_views

    views.update(solo_views(views))
    return views


#: Widget states shown as their own gallery pictures: (picture, sample, local actions applied first).
STATES: tuple[tuple[str, str, tuple[UiAction, ...]], ...] = (
    ("confirm-selected", "confirm", ()),
    ("scoreboard-undo", "scoreboard", (UiAction(ActionKind.ASK_UNDO),)),
    ("scoreboard-menu", "scoreboard", (UiAction(ActionKind.MENU),)),
    ("ordskifte-steal", "ordskifte", (UiAction(ActionKind.SELECT_WORD),)),
)


def replace_clock(player: PlayerView, state: TimerState) -> PlayerView:
    from dataclasses import replace

    assert player.clock is not None
    return replace(player, clock=replace(player.clock, state=state))


def four_player_scoreboard(shared: Path) -> View:
    """Four players at the end of the bag (rack counts shown), a 4-player history, a running clock."""
    game, _ = scrabble_midgame(shared, moves=22)
    names = list(NAMES)
    hist = tuple(MoveRow(i % 4, row.text, row.score, row.cumulative, row.words, kind=row.kind)
                 for i, row in enumerate(_history(game)))
    totals = [0, 0, 0, 0]
    for row in hist:
        totals[row.player] += row.score
    readings = (ClockReading(301_000, TimerState.IDLE), ClockReading(95_400, TimerState.RUNNING),
                ClockReading(402_000, TimerState.IDLE), ClockReading(-12_000, TimerState.IDLE))
    players = tuple(PlayerView(n, totals[i], to_move=i == 1, clock=readings[i], rack_count=(7, 5, 3, 7)[i])
                    for i, n in enumerate(names))
    return View(Screen.SCOREBOARD, language="fi", players=players, board=board_view(game), history=hist,
                bag_count=0, clock_mode=ClockMode.CHESS, message=Text("msg.no_challenge"),
                message_severity=Severity.WARNING)


def new_game_form() -> FormView:
    games = tuple(Choice(g, label_key=f"value.{g}") for g in ("scrabble", "alfapet", "ordskifte", "keywords"))
    return FormView((
        Option("game", "option.game", "alfapet", games),
        Option("language", "option.language", "sv", tuple(Choice(x, x) for x in ("sv", "fi", "nb", "en", "de"))),
        Option("rack_size", "option.rack_size", "7", tuple(Choice(x, x) for x in ("6", "7", "8"))),
        Option("clock_mode", "option.clock_mode", "chess",
               tuple(Choice(x, label_key=f"value.{x}") for x in ("none", "chess"))),
        Option("challenge_rule", "option.challenge_rule", "double",
               tuple(Choice(x, label_key=f"value.{x}") for x in ("double", "single", "void", "five_points"))),
        Option("players", "option.players", "3", tuple(Choice(x, x) for x in ("2", "3", "4"))),
        Option("player1", "label.player_n:1", NAMES[0], text=True),
        Option("player2", "label.player_n:2", NAMES[1], text=True),
        Option("player3", "label.player_n:3", NAMES[2], text=True),
    ))


def settings_form() -> FormView:
    onoff = (Choice("on", label_key="value.on"), Choice("off", label_key="value.off"))
    return FormView((
        Option("ui_language", "option.ui_language", "fi",
               (Choice("en", "English"), Choice("sv", "Svenska"), Choice("fi", "Suomi"), Choice("nb", "Norsk"))),
        Option("auto_accept", "option.auto_accept", "on", onoff),
        Option("buzzer", "option.buzzer", "on", onoff),
        Option("brightness", "option.brightness", "80 %", tuple(Choice(f"{x} %") for x in (40, 60, 80, 100))),
    ))


def sample_calibration(shared: Path) -> Calibration:
    """A real board photo (if the shared data is there) with hand-measured corners."""
    import numpy as np

    photo = shared / "photos" / "scrabscrap" / "game01" / "image-10.jpg"
    frame = None
    if photo.exists():
        import cv2

        frame = cv2.imread(str(photo))
    if frame is None:
        frame = np.full((480, 640, 3), (40, 90, 60), np.uint8)
    h, w = frame.shape[:2]
    corners = ((w * 0.035, h * 0.075), (w * 0.92, h * 0.075), (w * 0.92, h * 0.935), (w * 0.035, h * 0.935))
    return Calibration(frame=frame, corners=corners, grid_size=15, ok=True,
                       message=Text.of("msg.grid_score", score="2.4"))


def ordskifte_view(remaining: int = 23_400, state: TimerState = TimerState.RUNNING) -> OrdskifteView:
    words = (("SKJELETT", "BLÅBÆR", "ØRRET"), ("TApET", "SØKK", "MÅKE", "FJØS"), ("HÆRE",))
    players = tuple(OrdskiftePlayer(NAMES[i] if i != 2 else "Kari", tuple(RailWordView(w) for w in ws))
                    for i, ws in enumerate(words))
    players = players[:2] + (OrdskiftePlayer(players[2].name, (RailWordView("HÆRE", pending=True),)),)
    return OrdskifteView(players, to_move=0, timer=TimerView(ClockMode.TURN, ClockReading(remaining, state), 0),
                         rails_free=6, bag_count=41)


def keywords_view(phase: KeywordsPhase) -> KeywordsView:
    p1 = KeywordsPlayer(NAMES[0], (14, 5, -2, 9), 26, words=("CRAPAUD", "T?A?"), unused=1)
    p2 = KeywordsPlayer(NAMES[1], (8, 11, 6, 3), 28, words=("MOT",), submitted=True)
    if phase is KeywordsPhase.ENTRY:
        p1 = KeywordsPlayer(p1.name, p1.round_scores, p1.total, p1.words, 1,
                            problem=Text.of("engine.keywords.too_many_funkeys", word="T???", count=3, keys=4))
    timer = TimerView(ClockMode.ROUND, ClockReading(17_200, TimerState.RUNNING), None, "timer.round")
    return KeywordsView((p1, p2), round_no=5, phase=phase, timer=timer, target_score=100)


def rendered(shared: Path, sizes: tuple[tuple[int, int], ...] = SIZES,
             languages: tuple[str, ...] | None = None):  # noqa: ANN201 - a generator, see below
    """Every gallery picture drawn: yields ``(name, lang, size, renderer, surface)`` right after each render
    (the renderer then holds that frame's labels and touch targets)."""
    from dataclasses import replace

    from device.ui.renderer import Renderer
    from device.ui.strings import LANGUAGES, Strings

    views = sample_views(shared)
    strings = Strings.load()
    for size in sizes:
        r = Renderer(size, strings)
        for lang in languages or LANGUAGES:
            for name, view in views.items():
                surface = r.render(replace(view, language=lang))
                yield name, lang, size, r, surface
            for name, sample, actions in STATES:
                view = replace(views[sample], language=lang)
                r.render(view)
                for action in actions or (_tap_tile(view),):
                    r.apply(view, action)
                yield name, lang, size, r, r.render(view)


def write_gallery(out: Path, shared: Path, sizes: tuple[tuple[int, int], ...] = SIZES,
                  languages: tuple[str, ...] | None = None) -> list[Path]:
    """``<name>-<lang>-<w>x<h>.png`` for every sample and widget state, language and size."""
    import pygame

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, lang, (w, h), _r, surface in rendered(shared, sizes, languages):
        path = out / f"{name}-{lang}-{w}x{h}.png"
        pygame.image.save(surface, str(path))
        written.append(path)
    return written


def _tap_tile(v: View) -> UiAction:
    assert v.proposal is not None
    return UiAction(ActionKind.CORRECT_TILE, square=v.proposal.uncertain[0].square)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m device.ui.gallery", description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--shared", type=Path, default=Path("../shared/data"))
    args = ap.parse_args(argv)
    return run(args.out, args.shared)


def run(out: Path, shared: Path, languages: tuple[str, ...] | None = None) -> int:
    """Write the gallery, one path a line; 2 (and why) when the shared game data is missing."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if not (shared / DEFAULT_GCG).exists():
        print(f"missing {shared / DEFAULT_GCG}: pass --shared DIR (the folder with gcg/ and photos/)",
              file=sys.stderr)
        return 2
    import pygame

    pygame.init()
    for path in write_gallery(out, shared, languages=languages):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

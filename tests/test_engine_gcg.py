# SPDX-License-Identifier: GPL-3.0-or-later
"""GCG records: real games replay with exact scores; malformed input is named precisely."""

from __future__ import annotations

import pytest

from conftest import shared_path
from engine.errors import GcgError
from engine.gcg import LineKind, MismatchKind, parse_gcg, replay, write_gcg
from engine.moves import Exchange, Pass, Placement, RackPoints, Withdraw


def woogles_files():
    return sorted(shared_path("gcg", "woogles").glob("*.gcg"))


def test_all_woogles_games_replay_without_a_single_mismatch():
    files = woogles_files()
    assert len(files) == 61
    moves = 0
    for path in files:
        result = replay(parse_gcg(path.read_bytes(), str(path)))
        assert result.mismatches == [], (path.name, [str(m) for m in result.mismatches])
        moves += result.moves
        # The final cumulative totals in the record are the engine's final scores.
        last = {}
        for line in result.record.lines:
            last[line.nick] = line.cumulative
        assert [last.get(p.nick, 0) for p in result.record.players] == result.game.scores, path.name
    assert moves > 1500


# -- the four German tournament games with photos ------------------------------------------------------

GERMAN = {
    "game01": "nu19_stefan-hanns.gcg",
    "game02": "nu19_timon-alex.gcg",
    "game03": "nu19_johannes-stefan.gcg",
    "game04": "hh19-inessa-stefan.gcg",
}


def german(game: str):
    path = shared_path("photos", "scrabscrap", game, GERMAN[game])
    return replay(parse_gcg(path.read_bytes(), str(path)), tiles="de")


@pytest.mark.parametrize("game", ["game02", "game04"])
def test_german_games_without_record_errors_replay_exactly(game):
    assert german(game).mismatches == []


def test_game01_reports_only_the_documented_record_error():
    result = german("game01")
    # Move line 25 (file line 28): 13A .ÄLE is recorded as +32; the board gives 22 (game01/readme.md).
    assert [(m.line, m.kind, m.expected, m.computed) for m in result.mismatches] == [
        (28, MismatchKind.SCORE, 32, 22)
    ]
    assert result.record.encoding == "latin-1"


def test_game03_phony_scores_104_and_the_record_errors_are_reported_not_hidden():
    result = german("game03")
    assert result.record.lettered_rows
    by_kind = {(m.line, m.kind): m for m in result.mismatches}
    # NEUENDER (later withdrawn) was written down as 66; counted from the board it is 104.
    assert (by_kind[(20, MismatchKind.SCORE)].expected, by_kind[(20, MismatchKind.SCORE)].computed) == (66, 104)
    assert (by_kind[(21, MismatchKind.SCORE)].expected, by_kind[(21, MismatchKind.SCORE)].computed) == (-66, -104)
    # The paper's rack for that move lacks the U that was played, and two running totals do not add up.
    assert (20, MismatchKind.ILLEGAL) in by_kind
    assert "'U'" in str(by_kind[(20, MismatchKind.ILLEGAL)].computed)
    assert {(m.line, m.kind) for m in result.mismatches} == {
        (20, MismatchKind.ILLEGAL), (20, MismatchKind.SCORE), (20, MismatchKind.TOTAL),
        (21, MismatchKind.SCORE), (26, MismatchKind.TOTAL),
    }
    withdrawn = [e for e in result.game.events if isinstance(e.move, Withdraw)]
    assert len(withdrawn) == 2  # NEUENDER and RENTENDE were challenged off


def test_lettered_rows_put_game03_tiles_where_the_photo_shows_them():
    result = german("game03")
    first = result.game.events[1]  # >Stefan: EHMSTUÜ H4 MÜHST: row H, column 4, across
    assert isinstance(first.move, Placement)
    assert [(t.square.row, t.square.col, t.letter) for t in first.move.tiles][:2] == [(7, 3, "M"), (7, 4, "Ü")]


# -- edge cases: each replays or is rejected with a specific error -------------------------------------

REJECTED = {
    # Declares an Arabic code page for a file that is really UTF-8: refusing is safer than guessing.
    "name_weird_encoding_with_header.gcg": "unsupported character encoding 'ISO8859-6'",
}


def test_every_edge_case_replays_or_is_rejected_for_its_specific_reason():
    files = sorted(shared_path("gcg", "edge-cases").glob("*.gcg"))
    assert len(files) == 27
    for path in files:
        if path.name in REJECTED:
            with pytest.raises(GcgError, match=REJECTED[path.name]) as info:
                replay(parse_gcg(path.read_bytes(), str(path)))
            assert path.name in str(info.value) and ":1:" in str(info.value)
            continue
        result = replay(parse_gcg(path.read_bytes(), str(path)))
        assert result.mismatches == [], (path.name, [str(m) for m in result.mismatches])


def test_encodings_are_detected_and_names_survive():
    iso = shared_path("gcg", "edge-cases", "name_iso8859-1.gcg")
    utf = shared_path("gcg", "edge-cases", "name_utf8_noheader.gcg")
    a, b = parse_gcg(iso.read_bytes(), "iso"), parse_gcg(utf.read_bytes(), "utf")
    assert a.encoding == "latin-1" and b.encoding == "utf-8"
    assert a.players[0].nick == b.players[0].nick == "césar"


def test_polish_game_is_recognised_from_its_letters():
    path = shared_path("gcg", "edge-cases", "polish_endgame.gcg")
    result = replay(parse_gcg(path.read_bytes(), str(path)))
    assert result.game.rules.tileset.name == "scrabble-pl"
    assert result.mismatches == []


def test_notes_and_dos_line_ends_and_plain_note_continuations():
    path = shared_path("gcg", "edge-cases", "utf8_dos.gcg")
    record = parse_gcg(path.read_bytes(), str(path))
    notes = [line.note for line in record.lines if line.note]
    assert any("risky play" in note for note in notes)
    assert not any("\r" in note for note in notes)


def test_all_event_kinds_of_the_format_demo():
    demo = """#character-encoding UTF-8
#player1 ann Ann Example
#player2 bob Bob Example
#title Format demo (5-point challenge rule)
#lexicon CSW21
>ann: AEHRTWY 8D WHEAT +30 30
>bob: EIIOQSU -IIO +0 0
>ann: ILNORSY H8 .ORLY +12 42
>ann: ILNORSY --  -12 30
>bob: AENQSTU H8 .UNAS +6 6
>bob: EQT (challenge) +5 11
>ann: ILNORSY 12H .LY +6 36
>bob: EEIQTUV - +0 11
>ann: INORSUU - +0 36
>bob: EEIQTUV - +0 11
>ann: INORSUU - +0 36
>bob: EEIQTUV - +0 11
>ann: INORSUU - +0 36
>bob: EEIQTUV (EEIQTUV) -19 -8
>ann: INORSUU (INORSUU) -7 29
>bob: EEIQTUV (time) -10 -18
"""
    result = replay(parse_gcg(demo.encode(), "demo.gcg"))
    assert result.mismatches == []
    assert result.game.scores == [29, -18]
    kinds = [line.kind for line in result.record.lines]
    assert kinds[:6] == [LineKind.PLAY, LineKind.EXCHANGE, LineKind.PLAY, LineKind.WITHDRAW, LineKind.PLAY,
                         LineKind.CHALLENGE]
    assert kinds[-3:] == [LineKind.RACK, LineKind.RACK, LineKind.TIME]
    assert result.game.finished  # six scoreless turns


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("#player1 a A\n#player2 b B\n>a: ABC 8D CAB +14\n", 3, "must end with a score and a cumulative total"),
        ("#player1 a A\n#player2 b B\nhello world\n", 3, "not a GCG line: 'hello world'"),
        ("#player1 a A\n#player2 b B\n>a: ABC 8Z CAB +14 14\n", 3, "placement '8Z CAB' runs off the 15x15 board"),
        ("#player1 a A\n#player2 b B\n>c: ABC 8D CAB +14 14\n", 3, "player 'c' is not one of the declared players"),
        ("#player1 a A\n#player2 b B\n>a: ABC 8D CAB +14 14\n>b: DEF 8D .EF +5 5\n", 4, "8D"),
    ],
)
def test_malformed_records_name_the_line_and_what_is_wrong(text, line, fragment):
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text.encode(), "bad.gcg"), tiles="en")
    message = str(info.value)
    assert message.startswith(f"bad.gcg:{line}:")
    assert fragment in message


def test_written_records_read_back_as_the_same_events(shared_data):
    for path in woogles_files()[:10] + [shared_path("photos", "scrabscrap", "game03", GERMAN["game03"])]:
        original = replay(parse_gcg(path.read_bytes(), str(path)), tiles="de" if "scrabscrap" in str(path) else None)
        text = write_gcg(original.game, nicks=[p.nick for p in original.record.players])
        again = replay(parse_gcg(text.encode(), "written.gcg"))
        assert again.game.events == original.game.events, path.name
        # Scores are written as computed, so only a broken rule in the original (game03's rack) remains.
        illegal = [(m.kind, m.computed) for m in original.mismatches if m.kind is MismatchKind.ILLEGAL]
        assert [(m.kind, m.computed) for m in again.mismatches] == illegal, path.name


def test_move_types_map_to_engine_moves():
    text = "#player1 a A\n#player2 b B\n>a: ABCDEFG 8D CAB +14 14\n>b: ABCDEFG -3 +0 0\n>a: DEFG - +0 14\n"
    result = replay(parse_gcg(text.encode(), "t.gcg"), tiles="en")
    moves = [e.move for e in result.game.events]
    assert isinstance(moves[0], Placement) and moves[1] == Exchange(count=3) and moves[2] == Pass()
    assert not any(isinstance(m, RackPoints) for m in moves)


# -- hostile records (issue 17) -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        (">a: ABC 8H CAB +" + "9" * 5000 + " 10", "has 5000 digits; at most 6 are allowed"),
        (">a: ABC 8H CAB +14 " + "1" * 5000, "has 5000 digits"),
        (">a: ABCDEFG -" + "9" * 5000 + " +0 0", "exchange count"),
        (">a: ABCDEFG -\u00b2 +0 0", "exchange count '\u00b2'"),
        (">a: ABC 8H CAB +1\u00b2 10", "must end with a score and a cumulative total"),
        (">a: ABC 8H CAB +\u0661\u0664 14", "must end with a score and a cumulative total"),
    ],
)
def test_oversized_and_non_ascii_numbers_are_refused_on_their_line(event, fragment):
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(f"#player1 a A\n#player2 b B\n{event}\n".encode(), "bad.gcg"), tiles="en")
    assert str(info.value).startswith("bad.gcg:3:")
    assert fragment in str(info.value)


def test_a_record_too_big_to_be_a_game_is_refused_before_parsing():
    with pytest.raises(GcgError, match="too big for a game record"):
        parse_gcg(b"#note " + b"x" * 3_000_000, "huge.gcg")


def test_duplicate_nicknames_are_refused_on_import():
    with pytest.raises(GcgError, match="'ann' is already player 1's"):
        parse_gcg(b"#player1 ann Ann One\n#player2 ann Ann Two\n>ann: ABC 8H CAB +14 14\n", "dup.gcg")


def _two_move_game(players):
    from engine.game import Game
    from engine.rules import Rules

    game = Game(Rules.scrabble("en"), list(players))
    game.play(Placement.from_notation("8H CAB", game.board))
    game.play(Placement.from_notation("I8 AD", game.board))
    return game


def test_names_differing_only_in_punctuation_round_trip_with_their_own_totals():
    game = _two_move_game(["Ann Marie", "Ann-Marie"])
    again = replay(parse_gcg(write_gcg(game).encode(), "w.gcg"), tiles="en")
    assert [p.name for p in again.record.players] == ["Ann Marie", "Ann-Marie"]
    assert len({p.nick for p in again.record.players}) == 2
    assert again.game.scores == game.scores and game.scores[1] > 0
    assert again.mismatches == []


def test_a_newline_in_a_name_or_note_cannot_inject_a_line_into_the_export():
    game = _two_move_game(["Ann\n>Ann: ABC 8H CAB +999 999", "Bob\u2028#player3 x X"])
    text = write_gcg(game, title="T\r>x: - +0 0", lexicon="CSW\n>y: - +1 1")
    lines = text.splitlines()
    assert sum(line.startswith(">") for line in lines) == 2
    assert not any(line.startswith("#player3") for line in lines)
    again = replay(parse_gcg(text.encode(), "w.gcg"), tiles="en")
    assert again.game.scores == game.scores and again.mismatches == []


def test_explicit_nicknames_that_collide_are_refused():
    with pytest.raises(GcgError, match="must be different"):
        write_gcg(_two_move_game(["A", "B"]), nicks=["x", "x"])

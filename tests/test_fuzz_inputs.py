# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzzing every door where outside data comes in (issue 17): GCG records, settings, data files, word
lists and photos. Each gives a valid result or the package's own error (one line), never another exception.

Bounded (200 examples each, no deadline) so the suite stays fast; the inputs that found bugs are kept
as explicit examples.
"""

from __future__ import annotations

import gzip
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from device.config import GameSettings, parse_config
from device.errors import DeviceError
from engine.errors import EngineError
from hardware.config import HardwareConfig
from hardware.errors import HardwareError
from vision.errors import VisionError

#: 200 examples per door in CI; ORDVAKT_FUZZ_EXAMPLES=5000 for a deeper run by hand.
FUZZ = settings(max_examples=int(os.environ.get("ORDVAKT_FUZZ_EXAMPLES", "200")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def one_line(exc: BaseException) -> None:
    text = str(exc)
    assert text and len(text) < 2000, text[:200]


# -- GCG ----------------------------------------------------------------------------------------------

NUMBERS = st.one_of(st.integers(-10**6, 10**6).map(str), st.sampled_from(["+1\u00b2", "-\u00b2", "\u0661\u0662",
                                                                          "9" * 5000, "+", "--3", "1e5", ""]))
TOKENS = st.one_of(st.sampled_from(["8H", "H8", "8D", "A1", "15O", "O15", "8Z", "0A", "CAB", "c.B", "(CA)B",
                                    "-", "--", "-ABC", "-3", "(challenge)", "(time)", "(AB)", "?", "ÅÄÖ"]),
                   st.text(min_size=1, max_size=8).filter(lambda t: not any(c.isspace() for c in t)))
EVENT = st.builds(lambda nick, rack, move, score, total: f">{nick}: {rack} {move} {score} {total}",
                  st.sampled_from(["a", "b", "c", "a b", ""]), st.sampled_from(["ABCDEFG", "", "?AB", "x"]),
                  st.lists(TOKENS, min_size=0, max_size=3).map(" ".join), NUMBERS, NUMBERS)
PRAGMA = st.one_of(st.sampled_from(["#player1 a Ann", "#player2 b Bob", "#player1 a A\n#player2 a B",
                                    "#character-encoding UTF-8", "#character-encoding ISO-8859-1",
                                    "#character-encoding EBCDIC", "#orientation lettered-rows", "#orientation x",
                                    "#tile-set scrabble-de", "#tile-set ../../x", "#lexicon CSW21", "#note x",
                                    "#- more", "#rack1 ABC", "#player3 c C", "#player9 z Z"]),
                   st.text(max_size=20).map(lambda t: "#" + t))
RECORD_NOISE = st.lists(st.one_of(EVENT, PRAGMA, st.text(max_size=30)), min_size=0, max_size=12).map("\n".join)
POSITION = st.builds(lambda row, col, across: f"{row}{col}" if across else f"{col}{row}",
                     st.integers(0, 16), st.sampled_from("ABCDEFGHIJKLMNOP"), st.booleans())
WORD = st.text(alphabet="ABCDEIKLNORST?.abc", min_size=1, max_size=8)
MOVE = st.one_of(st.builds(lambda p, w: f"{p} {w}", POSITION, WORD),
                 st.sampled_from(["8H CAB", "8D CAB", "H8 CAB", "-", "--", "-ABC", "-3", "(challenge)", "(time)",
                                  "(AB)"]))
SCORE = st.one_of(st.integers(-50, 200).map(lambda n: f"{n:+d}"), NUMBERS)
PLAYED = st.builds(lambda nick, rack, move, score, total: f">{nick}: {rack} {move} {score} {total}",
                   st.sampled_from(["a", "b"]), st.text(alphabet="ABCDEIKLNORST?", min_size=1, max_size=9),
                   MOVE, SCORE, st.integers(-100, 900).map(str))
RECORD = st.one_of(
    st.lists(st.one_of(PLAYED, PLAYED, PLAYED, PRAGMA), max_size=14).map(
        lambda lines: "\n".join(["#player1 a Ann", "#player2 b Bob", *lines])),
    RECORD_NOISE)


@FUZZ
@given(RECORD, st.sampled_from(["utf-8", "latin-1", "utf-16"]))
@example("#player1 a A\n#player2 b B\n>a: ABC 8H CAB +" + "9" * 5000 + " 10", "utf-8")
@example("#player1 a A\n#player2 b B\n>a: ABCDEFG -\u00b2 +0 0", "utf-8")
def test_gcg_reader_and_replay_give_a_game_or_a_gcg_error(text, encoding):
    from engine.gcg import parse_gcg, replay

    data = text.encode(encoding, "replace")
    try:
        record = parse_gcg(data, "fuzz.gcg")
        result = replay(record, tiles="en")
    except EngineError as exc:
        one_line(exc)
        return
    assert result.moves == len(record.lines)


# -- settings and data files -----------------------------------------------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
                    st.sampled_from([10**40, -(10**40), float("nan"), float("inf"), "scrabble", "en", "chess",
                                     "GPIO17", "BOARD11", "x" * 200]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
GAME_KEYS = st.sampled_from(["game", "language", "players", "rack_size", "clock", "minutes", "challenge_rule",
                             "layout", "tileset", "board_profile", "lexicon", "lettered_rows", "timer_seconds",
                             "target_score", "first", "unknown"])


@FUZZ
@given(st.dictionaries(GAME_KEYS, VALUES, max_size=6))
@example({"players": ["  Ann\tMarie ", "Bo\nb\x07"]})  # accepted: the players branch below always runs
def test_game_settings_from_any_table_are_valid_or_a_config_error(table):
    try:
        settings_ = GameSettings.from_dict(table, "fuzz.toml")
    except DeviceError as exc:
        one_line(exc)
        return
    players = settings_.players
    if "players" not in table:
        assert players == ("Player 1", "Player 2")
    else:  # the names given, in order, each cleaned for screens and records (nothing invented, nothing dropped)
        given = table["players"]
        assert len(players) == len(given)
        for name, raw in zip(players, given, strict=True):
            assert name and name.isprintable() and name == name.strip(), (raw, name)
            assert set(name) <= set(raw) | {" "}, (raw, name)
        assert len({p.casefold() for p in players}) == len(players)  # players told apart
    # What was accepted is a complete setting: stored and read back, it is the same setting.
    assert GameSettings.from_dict(settings_.to_dict(), "again") == settings_


HW_KEYS = st.sampled_from(["hold_time", "bounce_time", "pull_up", "buttons", "buzzer", "leds", "camera", "x"])


@FUZZ
@given(st.dictionaries(HW_KEYS, st.one_of(VALUES, st.dictionaries(
    st.sampled_from(["player_1", "player_2", "confirm", "type", "pin", "kind", "path", "width", "height",
                     "device"]), SCALARS, max_size=4)), max_size=5))
def test_hardware_settings_from_any_table_are_valid_or_a_configuration_error(table):
    try:
        HardwareConfig.from_mapping(table, "fuzz.toml")
    except HardwareError as exc:
        one_line(exc)


TOML_LINES = st.one_of(
    st.sampled_from(["[game]", "[ui]", "[camera]", "[storage]", "[hardware]", "[hardware.buttons]", "[x]",
                     "players = [\"Ann\", \"Bob\"]", "players = []", "minutes = nan", "minutes = inf",
                     "width = 99999999999999999999", "layout = \"nope\"", "tileset = \"scrabble-de\"",
                     "auto_accept_s = -1", "game = \"alfapet\"", "rack_size = 9", "a = [[[[[[]]]]]]",
                     "player_1 = \"GPIO\u0661\"", "data_dir = 5", "language = \"xx\""]),
    st.text(max_size=30))


@FUZZ
@given(st.lists(TOML_LINES, max_size=10).map("\n".join))
@example("x = " + "[" * 5000 + "]" * 5000)
@example("[ui]\nwidth = " + "9" * 5000)
def test_config_text_gives_a_config_or_a_config_error(text):
    try:
        parse_config(text, "fuzz.toml")
    except (DeviceError, HardwareError) as exc:
        one_line(exc)


TILESET_BODY = st.fixed_dictionaries({}, optional={
    "name": SCALARS, "game": SCALARS, "language": SCALARS, "alphabet": SCALARS, "rack_size": SCALARS,
    "tiles": st.one_of(VALUES, st.dictionaries(st.text(max_size=2), VALUES, max_size=5)),
    "special": VALUES, "total": SCALARS})


@FUZZ
@given(TILESET_BODY, st.one_of(VALUES, st.text(max_size=200)))
def test_tile_sets_and_layouts_from_any_table_are_valid_or_a_data_file_error(tileset, grid):
    from engine.layout import layout_from_mapping
    from engine.tiles import tileset_from_mapping

    for build, table in ((tileset_from_mapping, tileset), (layout_from_mapping, {"name": "x", "grid": grid})):
        try:
            build(table, "fuzz.toml")
        except EngineError as exc:
            one_line(exc)


# -- word lists ----------------------------------------------------------------------------------------

WORD_LINES = st.lists(st.one_of(
    st.sampled_from(["mesost", "åsna", "ÖL", "kött räka", "# comment", "", "x", "quiz", "a" * 30,
                     "ord\tdefinition"]),
    st.text(max_size=20)), max_size=30)


@FUZZ
@given(WORD_LINES, st.sampled_from(["utf-8", "latin-1", "cp1252", "mixed"]), st.sampled_from([".txt", ".gz"]),
       st.binary(max_size=40))
def test_word_list_import_gives_a_list_or_a_lexicon_error(lines, encoding, suffix, noise):
    from engine.lexicon.importing import import_list

    if encoding == "mixed":
        data = b"\n".join(line.encode("utf-8" if i % 3 else "latin-1", "replace") for i, line in enumerate(lines))
    else:
        data = "\n".join(lines).encode(encoding, "replace")
    data += noise
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / f"list{suffix}"
        source.write_bytes(gzip.compress(data) if suffix == ".gz" else data)
        try:
            result = import_list(source, "sv", "fuzz", Path(folder) / "lex")
        except EngineError as exc:
            one_line(exc)
            return
        assert result.manifest.count >= 1


# -- photos --------------------------------------------------------------------------------------------

def _encoded(kind: str) -> bytes:
    import cv2

    image = np.random.default_rng(3).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    return cv2.imencode(kind, image)[1].tobytes()


IMAGES = {kind: _encoded(kind) for kind in (".png", ".jpg", ".bmp", ".webp")}


@FUZZ
@given(st.sampled_from(sorted(IMAGES)), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                                 max_size=6), st.integers(0, 10**6))
def test_damaged_photos_give_a_frame_or_an_image_error(kind, flips, cut):
    from vision.imageio import decode_image

    data = bytearray(IMAGES[kind])
    for position, value in flips:
        data[position % len(data)] = value
    data = data[: max(1, cut % (len(data) + 1))]
    try:
        frame = decode_image(bytes(data), "fuzz" + kind)
    except VisionError as exc:
        one_line(exc)
        return
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.size > 0


@FUZZ
@given(st.binary(max_size=600), st.sampled_from(["record", "photo"]))
def test_any_bytes_as_a_record_or_a_photo_give_a_result_or_the_packages_error(data, door):
    from engine.gcg import parse_gcg
    from vision.imageio import decode_image

    try:
        parse_gcg(data, "fuzz.gcg") if door == "record" else decode_image(data, "fuzz.bin")
    except (EngineError, VisionError) as exc:
        one_line(exc)


@pytest.mark.parametrize(("width", "height"), [(60000, 60000), (0, 10), (65535, 1), (9000, 9000)])
def test_header_sizes_are_checked_before_decoding(width, height):
    import struct
    import zlib

    from vision.imageio import decode_image

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))
    with pytest.raises(VisionError) as info:
        decode_image(png, "claims.png")
    one_line(info.value)



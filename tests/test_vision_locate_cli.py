# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt locate``, ``read --json`` and ``calibrate`` on raw frames: synthetic scenes written as photos,
noise and a bare table (which must be refused with the reason)."""

import json

import cv2
import numpy as np
import pytest

from device.cli import main
from vision.synthetic import background, corner_error, render_scene

EMPTY15 = ["." * 15] * 15
EMPTY17 = ["." * 17] * 17


def _photo(tmp_path, name, image):
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return path


def test_locate_prints_the_grid_corners_as_json(tmp_path, capsys):
    scene = render_scene(12, style="classic")
    photo = _photo(tmp_path, "board.png", scene.image)
    assert main(["locate", str(photo), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == 15 and len(out["corners"]) == 4
    assert corner_error(out["corners"], scene.truth.corners, 15) <= 0.25
    # Clockwise on screen: the signed area of the corner polygon (y down) is positive.
    c = np.array(out["corners"])
    assert 0.5 * np.sum(c[:, 0] * np.roll(c[:, 1], -1) - np.roll(c[:, 0], -1) * c[:, 1]) > 0


def test_locate_without_a_board_exits_1_with_one_line(tmp_path, capsys):
    noise = np.random.default_rng(3).integers(0, 256, (600, 800, 3), dtype=np.uint8)
    assert main(["locate", str(_photo(tmp_path, "noise.png", noise))]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no board grid found" in err and "noise.png" in err


def test_read_json_gives_grid_corners_and_rows(tmp_path, capsys):
    scene = render_scene(3, style="classic", hand=False, shadow=False)
    photo = _photo(tmp_path, "board.png", scene.image)
    assert main(["read", str(photo), "--json", "--profile", "classic-scrabble", "--tiles", "en"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == 15 and len(out["rows"]) == 15 and all(len(r) == 15 for r in out["rows"])
    assert corner_error(out["corners"], scene.truth.corners, 15) <= 0.25
    assert set("".join(out["rows"])) <= set(".?#ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@pytest.mark.parametrize("json_out", [True, False])
def test_read_without_a_board_exits_1_and_says_why_in_one_line(tmp_path, capsys, json_out):
    """As ``locate`` does: the reason is printed, not only a status (read --json gave grid 0 and said nothing)."""
    table = background("wood", (900, 1200), np.random.default_rng(2))
    assert main(["read", str(_photo(tmp_path, "table.png", table)), *(["--json"] if json_out else [])]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "table.png" in captured.err and "no board grid found" in captured.err
    if json_out:
        assert json.loads(captured.out) == {"grid": 0, "corners": [], "rows": []}


def test_read_into_a_pipe_closed_early_ends_quietly(tmp_path):
    """``ordvakt read PHOTO | head -1``: the rows that can no longer be written end the command with 141, as a
    shell reports a SIGPIPE, and no error text."""
    import subprocess
    import sys
    from pathlib import Path

    photo = _photo(tmp_path, "board.png", render_scene(3, style="classic", hand=False, shadow=False).image)
    command = [sys.executable, "-c", "import sys; from device.cli import main; sys.exit(main(sys.argv[1:]))",
               "read", str(photo)]
    with subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # the reader is gone before the first row
        err = child.stderr.read()
        assert child.wait(timeout=300) == 141
    assert err == b""


@pytest.mark.parametrize(("picture", "name"), [("noise", "noise.png"), ("wood", "table.png")])
def test_calibrate_refuses_a_photo_without_a_board_and_still_writes_the_picture(tmp_path, capsys, picture, name):
    if picture == "noise":
        image = np.random.default_rng(1).integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    else:
        image = background("wood", (900, 1200), np.random.default_rng(2))
    out = tmp_path / "mine.toml"
    assert main(["calibrate", str(_photo(tmp_path, name, image)), "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert "no board found in the calibration photo" in err and err.count("\n") == 1
    assert not out.exists() and (tmp_path / "mine.png").is_file()


@pytest.mark.parametrize(("style", "rows", "grid", "layout"), [
    ("classic", EMPTY15, 15, "scrabble-15"),
    ("alfapet", EMPTY17, 17, "alfapet-17"),
])
def test_calibrate_learns_grid_size_and_layout_of_an_empty_board(tmp_path, capsys, style, rows, grid, layout):
    from vision.profile import load_profile

    scene = render_scene(40, style=style, rows=rows, hand=False, shadow=False, tilt=15.0)
    out = tmp_path / "board.toml"
    assert main(["calibrate", str(_photo(tmp_path, "empty.png", scene.image)), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"{grid}x{grid} grid" in text and f"premium layout: {layout}" in text
    profile = load_profile(out)
    assert profile.grid == grid and profile.layout == layout
    # Premium kinds were told apart: the plain square's colour differs from every premium's. The closest pair,
    # the Alfapet board's brown L3 on its brown plain squares (45 apart in the scene's paint), measures 23-26
    # after white balance, depending on where within the cells a location a few hundredths of a cell
    # different samples them.
    plain = np.array(profile.squares["."], float)
    assert all(np.abs(np.array(c, float) - plain).max() > 15 for k, c in profile.squares.items() if k not in ".*")


def test_calibrate_reports_a_layout_it_does_not_know_and_drafts_it(tmp_path, capsys):
    """A 15x15 board whose premiums lie elsewhere (the Alfapet map's middle): no known layout fits."""
    scene = render_scene(41, style="classic", rows=EMPTY15, hand=False, shadow=False, tilt=10.0)
    image = scene.image
    out, draft = tmp_path / "odd.toml", tmp_path / "odd-layout.toml"
    # Built from the classic board, its premium squares moved: the grid stays, the layout is new.
    from vision.locate import Geometry

    geom = Geometry(scene.truth.corners.astype(np.float32), 15, 0.0)
    flat = geom.warp(image, 40)
    odd = flat.copy()
    odd[:, :] = np.roll(flat, (2 * 40, 3 * 40), axis=(0, 1))  # premiums shifted off their symmetric places
    back = cv2.warpPerspective(odd, np.linalg.inv(geom.to_canonical(40)), image.shape[1::-1],
                               dst=image.copy(), borderMode=cv2.BORDER_TRANSPARENT)
    assert main(["calibrate", str(_photo(tmp_path, "odd.png", back)), "--out", str(out), "--grid", "15",
                 "--save-layout", str(draft)]) == 0
    text = capsys.readouterr().out
    assert "none of the known 15x15 layouts" in text
    assert 'grid = """' in draft.read_text(encoding="utf-8")


def test_a_square_only_the_light_shifted_is_empty_in_the_rows_and_one_under_a_hand_is_not():
    """reading_rows (``read --json``): a hidden cell is '?', unless the board is not covered and its colour is nearest
    an empty square's. Vintage scene 3023, an empty board: its centre square's black star carries a letter's ink and
    fits no state, and the board is not covered; its rows are all empty (the centre was '?'). Scene 3060: a hand
    covers the corner, the board is covered, and its hidden cells stay '?' whatever they look nearest."""
    from engine.rules import Rules
    from vision.locate import reading_rows
    from vision.profile import load_profile
    from vision.reader import BoardReader, ReadingStatus
    from vision.synthetic import render_scene

    def read(seed):
        reader = BoardReader(load_profile("classic-scrabble"), Rules.scrabble("en").tileset)
        return reader.read(render_scene(seed, style="vintage").image)

    empty = read(3023)
    assert empty.hidden and not empty.status & ReadingStatus.COVERED
    assert reading_rows(empty) == ["." * 15] * 15
    covered = read(3060)
    assert covered.status & ReadingStatus.COVERED
    rows = reading_rows(covered)
    assert all(rows[sq.row][sq.col] == "?" for sq in covered.hidden)

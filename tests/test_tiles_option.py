# SPDX-License-Identifier: GPL-3.0-or-later
"""A tile set Ordvakt does not ship (here an old Spanish set with Ñ, written as a tile-set file) on
``ordvakt calibrate --tiles`` and through the new-game form's configuration (``[game] tileset``): checked
like the built-in sets (one-line errors), and the camera reader then knows the set's letters."""

from pathlib import Path

import cv2
import pytest

from device.cli import main
from device.config import ConfigError, parse_config
from device.games import NewGameForm
from vision.profile import load_profile
from vision.reader import BoardReader
from vision.synthetic import render_scene

BUILTIN = Path(__file__).resolve().parents[1] / "engine" / "data" / "tilesets" / "scrabble-en.toml"


def _spanish(tmp_path: Path) -> Path:
    """scrabble-en with Ñ added (one tile, 8 points): an edition with a letter the shipped model lacks."""
    text = BUILTIN.read_text(encoding="utf-8")
    for old, new in (('name = "scrabble-en"', 'name = "scrabble-es-old"'), ('language = "en"', 'language = "es"'),
                     ('alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"', 'alphabet = "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"'),
                     ("total = 100\n", ""), ("[tiles]\n", '[tiles]\n"Ñ" = [1, 8]\n')):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "old-spanish.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\ngame = "scrabble"\nlanguage = "es"\n[tiles]\n"ÑA" = [1, 1]\n', encoding="utf-8")
    return path


def test_calibrate_takes_a_tile_set_file_and_says_which_letters_the_reader_reads(tmp_path, capsys):
    scene = render_scene(40, style="classic", rows=["." * 15] * 15, hand=False, shadow=False, tilt=15.0)
    photo = tmp_path / "empty.png"
    cv2.imwrite(str(photo), scene.image)
    out = tmp_path / "board.toml"
    assert main(["calibrate", str(photo), "--out", str(out), "--tiles", str(_spanish(tmp_path))]) == 0
    text = capsys.readouterr().out
    line = next(ln for ln in text.splitlines() if ln.startswith("tile set scrabble-es-old:"))
    assert "of its 27 letters" in line  # A-Z and Ñ
    assert line.endswith("reads 27 of its 27 letters") or "no installed font has Ñ" in line
    assert out.is_file()


def test_calibrate_refuses_a_broken_tile_set_file_in_one_line_before_reading_the_photo(tmp_path, capsys):
    out = tmp_path / "board.toml"
    code = main(["calibrate", str(tmp_path / "no-such-photo.jpg"), "--out", str(out), "--tiles",
                 str(_broken(tmp_path))])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "broken.toml" in err[0] and "'ÑA'" in err[0], err
    assert not out.exists() and not out.with_suffix(".png").exists()


def test_the_new_game_form_keeps_the_configured_tile_set_file_and_the_reader_knows_its_letters(tmp_path):
    own = _spanish(tmp_path)
    base = parse_config(f'[game]\ngame = "scrabble"\ntileset = "{own}"', "config.toml").game
    settings = NewGameForm(base).settings()
    assert settings.tileset == str(own)
    tileset = settings.rules().tileset
    assert tileset.name == "scrabble-es-old" and tileset.count("Ñ") == 1
    # The camera reader is built from these rules (device/app.py): Ñ is one of its letters, with templates.
    reader = BoardReader(load_profile("classic-scrabble"), tileset)
    assert "Ñ" in reader.classifier.alphabet
    if "Ñ" in reader.classifier.missing:
        pytest.skip("no installed font has Ñ: the reader cannot render it (the player types it)")
    # Another game on the form: the Scrabble tile set does not follow it.
    form = NewGameForm(base)
    form.set("game", "alfapet")
    form.set("language", "sv")
    assert form.settings().tileset == ""


def test_a_broken_tile_set_file_in_the_configuration_is_one_line_naming_the_setting(tmp_path):
    with pytest.raises(ConfigError) as caught:
        parse_config(f'[game]\ntileset = "{_broken(tmp_path)}"', "config.toml")
    message = str(caught.value)
    assert "\n" not in message and "game.tileset" in message and "'ÑA'" in message

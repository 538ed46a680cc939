# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile configuration files and data files: each refused in one line naming the setting (issue 17)."""

from __future__ import annotations

import pytest

from device.config import parse_config
from device.errors import ConfigError
from engine.errors import DataFileError
from engine.layout import load_layout
from engine.tiles import load_tileset
from hardware.errors import ConfigurationError


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("[game]\nplayers = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
        ("[ui]\nwidth = " + "9" * 5000, "a number has too many digits"),
        ("[ui]\nwidth = 99999999999999999999999999999999", r"ui\.width = .*: must be a finite number between"),
        ("[ui]\nauto_accept_s = nan", r"ui\.auto_accept_s = nan: must be a finite number"),
        ("[camera]\nstill_timeout_s = inf", r"camera\.still_timeout_s = inf: must be a finite number"),
        ("[game]\nminutes = -inf", r"game\.minutes = -inf"),
        ("[hardware]\nhold_time = nan", r"hardware\.hold_time = nan"),
        ("[game]\nlayout = 'nope'", r"game\.layout = 'nope': no layout named 'nope'; known: alfapet-17, scrabble-15"),
        ("[game]\ntileset = 'nope'", r"game\.tileset = 'nope': no tileset named 'nope'; known: .*scrabble-en"),
        ("[game]\ntileset = '../../etc/passwd'", r"is not a tileset name; use one of"),
        ("[game]\nplayers = ['" + "A" * 10_000 + "', 'B']", r"a name has at most 40 characters"),
        ("[game]\nplayers = ['Ann', 'ann']", r"two players have the same name"),
        ('[game]\nplayers = ["\\u0007\\n", "B"]', r"must be a list of names"),
    ],
)
def test_hostile_settings_are_refused_in_one_line(text, message):
    with pytest.raises((ConfigError, ConfigurationError), match=message) as info:
        parse_config(text, "c.toml")
    assert str(info.value).startswith("c.toml: ")
    assert "\n" not in str(info.value) and len(str(info.value)) < 600


def test_control_characters_in_player_names_become_spaces():
    config = parse_config('[game]\nplayers = ["Ann\\n>Ann: X 8H X +9 9", "Bo\\tb"]', "c.toml")
    assert config.game.players == ("Ann >Ann: X 8H X +9 9", "Bo b")


def test_a_config_file_too_big_to_be_one_is_refused_unread(tmp_path):
    from device.config import load_config

    path = tmp_path / "c.toml"
    path.write_text("# " + "x" * 300_000 + "\n")
    with pytest.raises(ConfigError, match="too big for a configuration file"):
        load_config(path)


def test_own_tile_set_and_layout_files_are_welcome_and_validated(tmp_path):
    own = tmp_path / "mine.toml"
    own.write_text('name = "mine"\ngame = "scrabble"\nlanguage = "en"\n[tiles]\nA = [9, 1]\nB = [2, 3]\n')
    assert load_tileset(str(own)).counts == {"A": 9, "B": 2}
    config = parse_config(f'[game]\ntileset = "{own}"', "c.toml")
    assert config.game.tileset == str(own)
    for body, message in [
        ('name = "x"\ngame = "scrabble"\nlanguage = "en"\ntiles = "abc"\n', "needs a \\[tiles\\] table"),
        ('name = "x"\ngame = "scrabble"\nlanguage = "en"\n[tiles]\nA = [99999999, 1]\n', "count 0-1000"),
        ('name = "x"\ngame = "scrabble"\nlanguage = "en"\nrack_size = "7"\n[tiles]\nA = [1, 1]\n', "rack_size"),
        ('name = 5\ngame = "scrabble"\nlanguage = "en"\n[tiles]\nA = [1, 1]\n', "name must be text"),
    ]:
        own.write_text(body)
        with pytest.raises(DataFileError, match=message):
            load_tileset(str(own))
        with pytest.raises(ConfigError, match=message):
            parse_config(f'[game]\ntileset = "{own}"', "c.toml")
    layout = tmp_path / "board.toml"
    for body, message in [('name = "x"\ngrid = 5\n', "grid must be text"),
                          ('name = "x"\ngrid = """\n' + ". " * 40 + "\n" * 40 + '"""\n', "the board is square"),
                          ('name = "x"\ngrid = """\n' + (". " * 30 + "\n") * 30 + '"""\n', "at most 25x25")]:
        layout.write_text(body)
        with pytest.raises(DataFileError, match=message):
            load_layout(str(layout))
    with pytest.raises(DataFileError, match="does not exist"):
        load_layout(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("command", [["run", "--headless"], ["timer"]])
def test_a_config_that_never_ends_is_refused_without_reading_it_all(capsys, command):
    import os

    from device.cli import main

    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    assert main([*command, "--config", "/dev/zero"]) == 2
    assert "too big for a configuration file" in capsys.readouterr().err

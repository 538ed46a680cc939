# SPDX-License-Identifier: GPL-3.0-or-later
import tomllib

import numpy as np
import pytest

from vision import glyphs
from vision.classifier import LetterClassifier
from vision.errors import ProfileError
from vision.profile import available_profiles, load_profile, profile_from_mapping


def test_builtin_profiles_load_and_round_trip():
    assert {"scrabscrap", "classic-scrabble", "alfapet-17"} <= set(available_profiles())
    for name in available_profiles():
        p = load_profile(name)
        again = profile_from_mapping(tomllib.loads(p.to_toml()), source=name)
        assert again == p
    assert load_profile("alfapet-17").grid == 17 and load_profile("alfapet-17").stop is not None


def test_bad_profiles_name_the_problem(tmp_path):
    with pytest.raises(ProfileError, match="no board profile 'nope'"):
        load_profile("nope")
    data = tomllib.loads(load_profile("scrabscrap").to_toml())
    data["squares"]["X9"] = [1, 2, 3]
    with pytest.raises(ProfileError, match="unknown square classes"):
        profile_from_mapping(data)
    data = tomllib.loads(load_profile("scrabscrap").to_toml())
    data["tile"] = [300, 1, 1]
    with pytest.raises(ProfileError, match="tile"):
        profile_from_mapping(data)


def _synthetic_tile(draw) -> np.ndarray:
    px = 40
    pad = int(round(glyphs.CROP_PAD * px))
    crop = np.full((px + 2 * pad, px + 2 * pad), 90, np.uint8)
    crop[pad + 2 : pad + px - 2, pad + 2 : pad + px - 2] = 220
    draw(crop, pad)
    return crop


def test_glyph_keeps_dots_and_drops_value_digit():
    import cv2

    def u_with_dots(img, pad):
        cv2.putText(img, "U", (pad + 9, pad + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 20, 3)
        cv2.circle(img, (pad + 15, pad + 6), 2, 20, -1)
        cv2.circle(img, (pad + 25, pad + 6), 2, 20, -1)
        cv2.putText(img, "1", (pad + 31, pad + 36), cv2.FONT_HERSHEY_SIMPLEX, 0.3, 20, 1)

    def plain_u(img, pad):
        cv2.putText(img, "U", (pad + 9, pad + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 20, 3)
        cv2.putText(img, "1", (pad + 31, pad + 36), cv2.FONT_HERSHEY_SIMPLEX, 0.3, 20, 1)

    dotted = glyphs.extract(_synthetic_tile(u_with_dots), 40)
    plain = glyphs.extract(_synthetic_tile(plain_u), 40)
    blank = glyphs.extract(_synthetic_tile(lambda img, pad: None), 40)
    assert dotted.marks == 1 and plain.marks == 0
    assert blank.is_blank and not plain.is_blank
    clf = LetterClassifier("AOUÄÖÜ")
    assert clf.classify(dotted).letter == "Ü"
    assert clf.classify(plain).letter == "U"


def test_learning_is_kept_and_reloaded(tmp_path):
    clf = LetterClassifier("ABC", font_model=None)
    img = np.zeros((glyphs.GLYPH_PX, glyphs.GLYPH_PX), np.float32)
    img[4:20, 10:14] = 1
    clf.learn([glyphs.Glyph(img, 1.0, 0.5, 0)], ["B"])
    clf.save_learned(tmp_path / "learned.npz")
    other = LetterClassifier("ABC", font_model=None)
    other.load_learned(tmp_path / "learned.npz")
    assert other.learned_count == 1
    assert other.classify(glyphs.Glyph(img, 1.0, 0.5, 0)).letter == "B"


def test_a_profile_calibrated_from_a_game_photo_reads_the_whole_game(tmp_path, capsys):
    """Calibrate on game02's first photo (the Ü of the first word hides the centre square), then replay
    the game with that profile instead of the shipped one: every move must still be read."""
    from conftest import shared_path
    from device.cli import main
    from vision.profile import load_profile

    game = shared_path("photos", "scrabscrap", "game02")
    out = tmp_path / "mine.toml"
    assert main(["calibrate", str(game / "image-1.jpg"), "--out", str(out)]) == 0
    profile = load_profile(out)
    assert profile.squares["*"] == profile.squares["W2"]  # not the colour of the tile lying on it
    assert (tmp_path / "mine.png").is_file()
    capsys.readouterr()
    assert main(["replay", str(game), "--profile", str(out)]) == 0
    assert "matched 25/25 turns" in capsys.readouterr().out

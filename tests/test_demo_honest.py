# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo is honest: its camera summary counts what the players had to fix, and a broken camera
reader makes it exit non-zero (the record never stands in for the camera)."""

import dataclasses
from pathlib import Path
from typing import Any

from device.demo import Demo
from device.flow import Reading, ReadKind


class BlindReader:
    """A camera reader that never makes anything of a frame."""

    def still_frame(self, camera: Any) -> Any:
        return camera.best_still(0.1)

    def read(self, frame: Any, game: Any) -> Reading:
        return Reading(ReadKind.UNUSABLE, messages=("broken reader",))

    def learn(self, reading: Reading, placement: Any) -> None:
        pass


class MisreadingReader:
    """The real reader, except that it takes every E for an F."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def still_frame(self, camera: Any) -> Any:
        return self.real.still_frame(camera)

    def read(self, frame: Any, game: Any) -> Reading:
        reading = self.real.read(frame, game)
        tiles = tuple(dataclasses.replace(t, letter="F") if t.letter == "E" else t for t in reading.tiles)
        return dataclasses.replace(reading, tiles=tiles)

    def learn(self, reading: Reading, placement: Any) -> None:
        pass


def run(tmp_path: Path, make) -> tuple[int, list[str]]:
    lines: list[str] = []

    class Broken(Demo):
        def make_reader(self, settings):
            return make(settings), ""

    code = Broken(tmp_path / "demo", headless=True, delay=0.0, screenshots=False, out=lines.append).run()
    return code, lines


def test_a_blind_camera_makes_the_demo_fail_although_the_players_finish_the_game(tmp_path):
    code, lines = run(tmp_path, lambda settings: BlindReader())
    assert code != 0
    assert "camera: 0/25 moves read right, 25 corrected" in lines
    assert lines[-1] == "final: 529 421"  # the players typed every move: the game is right, the camera was not
    assert sum("the player typed" in line for line in lines) == 25


def test_a_misreading_camera_is_corrected_by_the_players_and_counted(tmp_path):
    def make(settings):
        real, why = Demo._reader(None, settings)  # type: ignore[arg-type]
        assert real is not None, why
        return MisreadingReader(real)

    code, lines = run(tmp_path, make)
    assert code != 0
    summary = next(line for line in lines if line.startswith("camera: "))
    right, rest = summary.removeprefix("camera: ").split("/", 1)
    corrected = int(rest.split(", ")[1].split()[0])
    # Moves with an E among the new tiles needed a player's correction; the others were read right.
    assert corrected >= 10 and int(right) + corrected == 25, summary
    assert any("camera read F on" in line and "corrected it to E" in line for line in lines)
    assert lines[-1] == "final: 529 421"

# SPDX-License-Identifier: GPL-3.0-or-later
"""The photo archive and the games commands: a real device game (the demo's photos through the flow,
the replay camera) keeps a size-capped photo per confirmed move; the game exports as GCG, JSON and a
zip of record and photos; the exported GCG re-reads with ``ordvakt gcg check``; CGP lines."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from conftest import FakeTime, demo_game_settings, play_recorded_turn
from device.archive import ArchiveError, ArchiveSettings, PhotoArchive, cgp_line, export_bytes, load_game
from device.cli import main
from device.demo import DEMO_DIR
from device.flow import Collaborators, Flow, Reading, ReadKind, ReadTile, State
from device.live.state import open_read_only
from device.store import Store
from engine.moves import Placement, RackPoints
from hardware.camera import ReplayCamera

REF, SETTINGS = demo_game_settings()


class RecordReader:
    """Reads the record's move for the photo the replay camera shows (vision is tested elsewhere)."""

    def __init__(self, camera: ReplayCamera) -> None:
        self.camera = camera

    def read(self, frame, game) -> Reading:
        assert isinstance(frame, np.ndarray)  # the real photo reaches the reader and the archive
        move = REF.events[self.camera.position].move
        if isinstance(move, Placement):
            return Reading(ReadKind.PLACEMENT, tuple(ReadTile(t.square, t.letter, t.blank)
                                                     for t in move.letter_tiles), confident=True)
        return Reading(ReadKind.UNCHANGED, confident=True)

    def learn(self, reading, placement) -> None:
        pass


def play_device_game(data_dir: Path, settings: ArchiveSettings | None = None) -> tuple[int, PhotoArchive]:
    """The demo game through the device flow, photos kept by the archive; returns the game id."""
    store = Store(data_dir / "games.sqlite")
    camera = ReplayCamera(DEMO_DIR)
    archive = PhotoArchive(data_dir, settings)
    flow = Flow(Collaborators(store=store, camera=camera, reader=RecordReader(camera), now=FakeTime(),
                              photo_archive=archive), auto_accept_s=0)
    game_id = flow.new_game(SETTINGS)
    for seq, expected in enumerate(REF.events):
        if isinstance(expected.move, RackPoints):
            break
        camera.position = seq
        play_recorded_turn(flow, expected)
    assert flow.state is State.END
    store.close()
    return game_id, archive


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, int]:
    data_dir = tmp_path_factory.mktemp("device")
    game_id, _ = play_device_game(data_dir)
    return data_dir, game_id


def test_every_confirmed_move_keeps_its_photo_size_capped(played) -> None:
    data_dir, game_id = played
    saved = load_game(open_read_only(data_dir / "games.sqlite"), game_id)
    photos = saved.photos(data_dir)
    confirmed = [seq for seq, e in enumerate(REF.events) if not isinstance(e.move, RackPoints)]
    assert sorted(photos) == confirmed
    limits = ArchiveSettings()
    camera = ReplayCamera(DEMO_DIR)

    def difference(image: np.ndarray, position: int) -> float:
        camera.position = position
        frame = camera.best_still(1.0)
        frame = cv2.resize(frame, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
        return float(np.mean(np.abs(frame.astype(int) - image.astype(int))))

    for seq, path in photos.items():
        image = cv2.imread(str(path))
        assert image is not None, path
        assert max(image.shape[:2]) <= limits.max_side
        assert path.stat().st_size <= limits.max_bytes
        # The photo is the frame the move was read from (JPEG noise only), not the next one.
        own = difference(image, seq)
        other = seq + 1 if seq + 1 < len(photos) else seq - 1
        assert own < 3.0 and own < difference(image, other), (seq, own)


def test_zip_export_holds_record_and_photos_and_the_gcg_rereads(played, tmp_path: Path, capsys) -> None:
    data_dir, game_id = played
    out = tmp_path / "game.zip"
    assert main(["games", "export", str(game_id), "--zip", "--db", str(data_dir / "games.sqlite"),
                 "-o", str(out)]) == 0
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
        record = json.loads(archive.read(f"game-{game_id}.json"))
        gcg = archive.read(f"game-{game_id}.gcg")
        photo_names = {n for n in names if n.startswith("photos/")}
        for name in photo_names:
            assert archive.read(name)[:3] == b"\xff\xd8\xff"  # JPEG
    referenced = {e["extra"]["photo"] for e in record["events"] if "photo" in e.get("extra", {})}
    assert referenced == photo_names and len(photo_names) == len(REF.events) - 1
    assert record["scores"] == REF.scores and record["finished"] is True
    gcg_file = tmp_path / "game.gcg"
    gcg_file.write_bytes(gcg)
    capsys.readouterr()
    assert main(["gcg", "check", str(gcg_file)]) == 0
    report = capsys.readouterr().out
    assert f"OK ({len(REF.events)} moves, final {REF.scores[0]} {REF.scores[1]})" in report, report


def test_games_list_and_show(played, capsys) -> None:
    data_dir, game_id = played
    db = str(data_dir / "games.sqlite")
    assert main(["games", "list", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert "finished" in listing and "Timon v Alex" in listing and f"{len(REF.events)} events" in listing
    assert main(["games", "show", str(game_id), "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "Timon: 529" in shown and "Alex: 421" in shown and "LESERN" in shown
    assert main(["games", "show", "999", "--db", db]) != 0
    assert "no saved game 999" in capsys.readouterr().err


def test_cgp_lines(played, capsys) -> None:
    data_dir, game_id = played
    db = str(data_dir / "games.sqlite")
    assert main(["games", "show", str(game_id), "--after", "0", "--cgp", "--db", db]) == 0
    empty = capsys.readouterr().out.strip()
    assert empty.startswith("/".join(["15"] * 15) + " / 0/0 0 ")
    # The first move is DÜS down from H7 (rows 7-9, column H): rows 7, 8, 9 show one letter in column 8.
    assert main(["games", "show", str(game_id), "--after", "1", "--cgp", "--db", db]) == 0
    rows, racks, scores, zeros = capsys.readouterr().out.split()[:4]
    assert rows.split("/")[5:10] == ["15", "7D7", "7Ü7", "7S7", "15"]
    assert (racks, scores, zeros) == ("/", "0/16", "0")  # the player to move first: Alex 0, Timon 16
    assert main(["games", "show", str(game_id), "--after", "99", "--cgp", "--db", db]) != 0
    assert "--after 99 is out of range" in capsys.readouterr().err


def test_cgp_blank_in_lower_case() -> None:
    from device.config import GameSettings
    from engine.game import Game

    game = Game(GameSettings(language="en").rules(), ["A", "B"])
    game.play(Placement.from_notation("8H CAt", game.board), check=False)
    line = cgp_line(game, lexicon="NWL23")
    assert line.split()[0].split("/")[7] == "7CAt5"
    assert line.endswith("lex NWL23; ld scrabble-en;")


def test_prune_keeps_the_newest_games_and_the_one_being_played(tmp_path: Path) -> None:
    frame = cv2.imread(str(DEMO_DIR / "image-5.jpg"))
    archive = PhotoArchive(tmp_path, ArchiveSettings(budget_bytes=0, keep_games=2))
    for game_id in (1, 2, 3, 4, 5):
        for seq in range(2):
            archive.path_for(game_id, seq).parent.mkdir(parents=True, exist_ok=True)
            archive.path_for(game_id, seq).write_bytes(b"x" * 1000)
    archive.save(1, 2, frame)  # game 1 is being played (an old unfinished game resumed)
    assert sorted(archive.games()) == [1, 4, 5]
    assert len(archive.games()[1]) == 3
    roomy = PhotoArchive(tmp_path, ArchiveSettings(budget_bytes=10**9, keep_games=0))
    assert roomy.prune() == [] and sorted(roomy.games()) == [1, 4, 5]


def test_budget_prunes_oldest_first_only_as_far_as_needed(tmp_path: Path) -> None:
    archive = PhotoArchive(tmp_path, ArchiveSettings(budget_bytes=2500, keep_games=1))
    for game_id in (7, 8, 9, 10):
        archive.path_for(game_id, 0).parent.mkdir(parents=True, exist_ok=True)
        archive.path_for(game_id, 0).write_bytes(b"x" * 1000)
    assert archive.prune() == [7, 8]
    assert sorted(archive.games()) == [9, 10] and archive.total_bytes() == 2000


def test_a_photo_that_cannot_be_kept_does_not_stop_the_move(tmp_path: Path) -> None:
    archive = PhotoArchive(tmp_path)
    assert archive.keep(3, 0, np.zeros((0, 0, 3), np.uint8)) is None
    (tmp_path / "photos").write_text("a file where the folder should be")
    assert archive.keep(3, 0, np.zeros((10, 10, 3), np.uint8)) is None


def test_settings_are_checked() -> None:
    with pytest.raises(ArchiveError, match="storage.photo_budget_mb = 'lots'"):
        ArchiveSettings.from_table({"photo_budget_mb": "lots"}, "config.toml")


def test_exports_refuse_what_they_cannot_write(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    from device.config import GameSettings

    gid = store.create_game(GameSettings(game="scrabble", players=("A", "B", "C")))
    store.close()
    db = open_read_only(tmp_path / "games.sqlite")
    with pytest.raises(ArchiveError, match="has no GCG form"):
        export_bytes(db, gid, "gcg", tmp_path)
    with zipfile.ZipFile(io.BytesIO(export_bytes(db, gid, "zip", tmp_path))) as archive:
        assert archive.namelist() == [f"game-{gid}.json"]
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("DELETE FROM games")


def test_a_damaged_event_is_one_line(tmp_path: Path, capsys) -> None:
    from device.config import GameSettings

    store = Store(tmp_path / "games.sqlite")
    gid = store.create_game(GameSettings(players=("Ann", "Bob")))
    store.append(gid, 0, {"player": 0, "move": {"kind": "placement", "tiles": [[7, 7]]}, "score": 2})
    store.close()
    assert main(["games", "show", str(gid), "--db", str(tmp_path / "games.sqlite")]) == 2
    assert capsys.readouterr().err.strip().startswith(f"ordvakt: game {gid}: event 1 is damaged")

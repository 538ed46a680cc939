# SPDX-License-Identifier: GPL-3.0-or-later
"""Storage under hostile conditions (issue 17): a full disk, a read-only file system, a lock, damaged
files, rows and -wal logs. Never a lost confirmed move, never a faked one, a message for every recovery."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from device.config import GameSettings
from device.store import LAST_SAVED_SUFFIX, Store, StoreUnavailable
from engine.game import Game
from engine.gcg import parse_gcg, replay

ROOT = Path(__file__).resolve().parent.parent
DEMO_GCG = next((ROOT / "device" / "data" / "demo").glob("*.gcg"))
REF = replay(parse_gcg(DEMO_GCG.read_bytes(), str(DEMO_GCG)), tiles="de", lettered_rows=True).game
SETTINGS = GameSettings(language="de", players=tuple(REF.players), tileset="scrabble-de", lettered_rows=True)


def store_moves(store: Store, count: int | None = None) -> int:
    """Store the demo game's first ``count`` events the way the device does; returns the game id."""
    game_id = store.create_game(SETTINGS)
    probe = Game(REF.rules, REF.players)
    for seq, event in enumerate(REF.events[:count]):
        store.append_event(game_id, event, probe.board, seq, lettered_rows=True)
        probe.replay([event])
    return game_id


def moves(store: Store, game_id: int) -> list:
    saved = store.load(game_id)
    assert saved.game is not None
    return [e.move for e in saved.game.events]


REF_MOVES = [e.move for e in REF.events]


def quarantined(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]


# -- full disk, read-only, locked --------------------------------------------------------------------

class FailingCommit:
    """A connection whose ``fail_at``-th COMMIT fails like SQLite on a full disk (SQLITE_FULL)."""

    def __init__(self, db: sqlite3.Connection, fail_at: int, code: int = 13) -> None:
        self.db, self.fail_at, self.code, self.commits = db, fail_at, code, 0

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            self.commits += 1
            if self.commits >= self.fail_at:
                self.db.execute("ROLLBACK")
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = self.code
                raise error
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


@pytest.mark.parametrize("fail_at", [1, 5, 12])
def test_a_full_disk_at_commit_loses_no_confirmed_move_and_keeps_the_file(tmp_path: Path, fail_at: int) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game_id = store_moves(store, 10)
        real = store._db
        store._db = FailingCommit(real, fail_at)  # type: ignore[assignment]
        confirmed = 10
        with pytest.raises(StoreUnavailable, match="on a full disk.*this was not saved"):
            probe = store.load(game_id).game
            assert probe is not None
            for seq in range(10, len(REF.events)):
                store.append_event(game_id, REF.events[seq], probe.board, seq, lettered_rows=True)
                probe.replay([REF.events[seq]])
                confirmed += 1
        store._db = real
    with Store(path) as store:  # space freed: the next start has every confirmed move and says nothing
        assert store.notice == ""
        assert moves(store, game_id) == REF_MOVES[:confirmed]
        assert store.unfinished() == game_id
    assert quarantined(tmp_path) == []


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` at ``folder`` (skips the test where mounting is not permitted)."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("no permission to mount a small tmpfs (the injected faults cover this case)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_a_real_full_disk_loses_no_confirmed_move(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "256k") as disk:
        path = disk / "games.sqlite"
        with Store(path) as store:
            game_id = store.create_game(SETTINGS)
            filler = disk / "filler"
            free = shutil.disk_usage(disk).free
            filler.write_bytes(b"\0" * max(0, free - 48 * 1024))
            probe = Game(REF.rules, REF.players)
            confirmed = 0
            with pytest.raises(StoreUnavailable, match="full disk|input/output"):
                for _ in range(40):  # the demo game again and again, until the disk is full
                    for seq, event in enumerate(REF.events, start=confirmed):
                        store.append_event(game_id, event, probe.board, seq, lettered_rows=True)
                        confirmed += 1
                    probe = Game(REF.rules, REF.players)
            assert confirmed > 0
        filler.unlink()
        with Store(path) as store:
            assert store.notice == "" or "corrupt" not in store.notice
            assert len(store.records(game_id)) == confirmed
        assert quarantined(disk) == []


def test_a_read_only_file_system_opens_read_only_and_keeps_the_file(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "4m") as disk:
        path = disk / "games.sqlite"
        with Store(path) as store:
            game_id = store_moves(store, 8)
        assert subprocess.run(["mount", "-o", "remount,ro", str(disk)], capture_output=True).returncode == 0
        before = path.read_bytes()
        with Store(path) as store:
            assert store.read_only and "read-only" in store.notice and "left as it is" in store.notice
            assert moves(store, game_id) == REF_MOVES[:8]
            with pytest.raises(StoreUnavailable, match="nothing was saved"):
                store.append_event(game_id, REF.events[8], store.load(game_id).game.board, 8)
        assert path.read_bytes() == before
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], capture_output=True)
        with Store(path) as store:
            assert not store.read_only and moves(store, game_id) == REF_MOVES[:8]


def test_a_database_another_program_locks_is_reported_not_moved(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game_id = store_moves(store, 3)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        with Store(path) as store:
            with pytest.raises(StoreUnavailable, match="locked"):
                store.append_event(game_id, REF.events[3], store.load(game_id).game.board, 3)
            assert moves(store, game_id) == REF_MOVES[:3]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert quarantined(tmp_path) == []


# -- damaged files ------------------------------------------------------------------------------------

def _checkpointed(tmp_path: Path, count: int) -> tuple[Path, int]:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game_id = store_moves(store, count)
    return path, game_id


@pytest.mark.parametrize("keep", [0.95, 0.7, 0.5])
def test_a_truncated_database_recovers_what_is_there_and_keeps_a_copy(tmp_path: Path, keep: float) -> None:
    path, game_id = _checkpointed(tmp_path, len(REF.events))
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep) // 4096 * 4096 or 4096])
    with Store(path) as store:
        notice = store.notice
        recovered = moves(store, game_id) if store.games() else []
    assert recovered == REF_MOVES[: len(recovered)]  # a prefix: nothing faked
    if recovered != REF_MOVES:
        assert notice, "a loss must be reported"
    if "was damaged" in notice:
        assert "were recovered" in notice and len(quarantined(tmp_path)) == 1


def test_random_bit_flips_never_crash_never_fake_and_always_say_so(tmp_path: Path) -> None:
    path, game_id = _checkpointed(tmp_path, len(REF.events))
    original = path.read_bytes()
    rng = random.Random(17)
    faults = 0
    for trial in range(60):
        folder = tmp_path / f"t{trial}"
        folder.mkdir()
        data = bytearray(original)
        for _ in range(rng.choice((1, 4, 16))):
            position = rng.randrange(100, len(data))  # past the header's magic, which garbage tests cover
            data[position] ^= 1 << rng.randrange(8)
        (folder / "games.sqlite").write_bytes(bytes(data))
        shutil.copy(str(path) + LAST_SAVED_SUFFIX, folder / ("games.sqlite" + LAST_SAVED_SUFFIX))
        faults += 1
        with Store(folder / "games.sqlite") as store:
            ids = [g.id for g in store.games()]
            got = moves(store, game_id) if game_id in ids and store.unfinished() == game_id else None
            if got != REF_MOVES:
                assert store.notice, f"trial {trial}: the game changed without a word"
            if got is not None and got != REF_MOVES[: len(got)]:
                assert "changed after it was saved" in store.notice or "points" in store.notice, trial
    assert faults == 60


def test_a_lost_wal_file_is_noticed_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    game_id = store_moves(store, 6)  # still in the -wal file: the connection is open, nothing checkpointed
    crashed = tmp_path / "after-crash"
    crashed.mkdir()
    shutil.copy(path, crashed / "games.sqlite")  # the -wal file is gone
    shutil.copy(str(path) + LAST_SAVED_SUFFIX, crashed / ("games.sqlite" + LAST_SAVED_SUFFIX))
    store.close()
    with Store(crashed / "games.sqlite") as again:
        assert "saved moves are missing" in again.notice or f"Game {game_id} is missing" in again.notice
    with Store(crashed / "games.sqlite") as again:  # reported once, then the record is brought up to date
        assert again.notice == ""


def test_a_damaged_wal_file_is_noticed_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = Store(path)
    game_id = store_moves(store, 2)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for seq in range(2, 9):
        probe = store.load(game_id).game
        store.append_event(game_id, REF.events[seq], probe.board, seq, lettered_rows=True)
    crashed = tmp_path / "after-crash"
    crashed.mkdir()
    for suffix in ("", "-wal", LAST_SAVED_SUFFIX):
        shutil.copy(str(path) + suffix, crashed / ("games.sqlite" + suffix))
    store.close()
    wal = crashed / "games.sqlite-wal"
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0xFF  # a frame in the middle: SQLite drops it and every later one
    wal.write_bytes(bytes(data))
    with Store(crashed / "games.sqlite") as again:
        got = moves(again, game_id)
        assert got == REF_MOVES[: len(got)]
        if len(got) < 9:
            assert "saved moves are missing" in again.notice


# -- damaged rows -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("'{broken'", "stored move 5 is damaged"),
        ("json_remove(data, '$.move')", "stored move 5 is damaged"),
        ("CAST(X'7B22FF22' AS TEXT)", "stored move 5 is damaged"),
        ("json_set(data, '$.move.tiles[0][2]', 'Q')", "stored move 5 was changed after it was saved"),
    ],
)
def test_a_damaged_row_is_set_aside_with_a_message_and_never_a_restart_loop(
        tmp_path: Path, damage: str, message: str) -> None:
    path, game_id = _checkpointed(tmp_path, 10)
    db = sqlite3.connect(path)
    db.execute(f"UPDATE events SET data = {damage} WHERE game_id = ? AND seq = 4", (game_id,))
    db.commit()
    db.close()
    with Store(path) as store:
        assert message in store.notice
        got = moves(store, game_id)
        assert got[:4] == REF_MOVES[:4]
    with Store(path) as store:  # the second start is clean and continues where the first left off
        assert moves(store, game_id) == got
        assert store.unfinished() == game_id


def test_an_edited_stored_score_is_recomputed_from_the_moves_and_reported(tmp_path: Path) -> None:
    path, game_id = _checkpointed(tmp_path, 10)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET data = json_set(data, '$.score', 999, '$.cumulative', 999), chain = NULL "
               "WHERE game_id = ? AND seq = 2", (game_id,))
    db.commit()
    db.close()
    with Store(path) as store:
        assert "move 3 is stored with 999 points" in store.notice and "the moves count" in store.notice
        saved = store.load(game_id)
        assert saved.game is not None and saved.game.scores == Game_scores(10)


def Game_scores(count: int) -> list[int]:  # noqa: N802 (reads as a phrase)
    game = Game(REF.rules, REF.players)
    game.replay(REF.events[:count])
    return game.scores


def test_the_record_of_the_last_saved_move_is_plain_json(tmp_path: Path) -> None:
    path, game_id = _checkpointed(tmp_path, 4)
    last = json.loads(Path(str(path) + LAST_SAVED_SUFFIX).read_text())
    assert last["game"] == game_id and last["events"] == 4 and len(last["chain"]) == 16


def test_the_kiosk_on_a_full_disk_shows_why_keeps_playing_and_loses_nothing(tmp_path: Path) -> None:
    from conftest import FakeTime
    from device.app import App
    from device.flow import Collaborators, EventKind, Flow, FlowEvent, State

    store = Store(tmp_path / "games.sqlite")
    flow = Flow(Collaborators(store=store, now=FakeTime(1000.0), export_dir=tmp_path / "exports"), auto_accept_s=0)
    game_id = flow.new_game(SETTINGS)
    app = App(flow, size=(800, 480), pointer="mouse")

    def enter(seq: int) -> None:
        text = REF.events[seq].move.notation(flow.game.board, lettered_rows=True)
        for event in (FlowEvent(EventKind.PLAYER_BUTTON, REF.events[seq].player), FlowEvent(EventKind.MANUAL_ENTRY),
                      FlowEvent(EventKind.MANUAL_MOVE, text=text), FlowEvent(EventKind.CONFIRM)):
            app.dispatch(event)

    for seq in range(3):
        enter(seq)
    assert len(flow.game.events) == 3
    real = store._db
    store._db = FailingCommit(real, 1)  # type: ignore[assignment]
    enter(3)  # the disk is full: not saved, so not played, and the screen says why
    assert len(flow.game.events) == 3
    assert any(n.key == "warn.database" and "full disk" in n.detail for n in app.notices)
    assert flow.state is State.CONFIRM  # the move waits on the confirm screen
    store._db = real  # space freed: confirm again
    app.dispatch(FlowEvent(EventKind.CONFIRM))
    assert [e.move for e in flow.game.events] == REF_MOVES[:4]
    store.close()
    with Store(tmp_path / "games.sqlite") as again:
        assert moves(again, game_id) == REF_MOVES[:4]

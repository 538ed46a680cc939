# SPDX-License-Identifier: GPL-3.0-or-later
"""Hostile word lists: archive bombs, mixed encodings, colliding names, a full disk, killed builds (issue 17)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from engine.errors import LexiconError
from engine.lexicon import importing, open_judge
from engine.lexicon.importing import import_list
from engine.lexicon.trie import remove_stale_files

ROOT = Path(__file__).resolve().parent.parent
SWEDISH = ["mesost", "åsna", "öl", "ärlig", "kött", "räka", "sjö", "båt"]


@pytest.fixture()
def small_limit(monkeypatch):
    monkeypatch.setattr(importing, "MAX_UNPACKED_BYTES", 4 << 20)


@pytest.mark.parametrize("filler", [b"ab\n", b"\0", b"x"])
def test_a_gzip_bomb_is_refused_at_the_unpacking_limit(tmp_path, small_limit, filler):
    bomb = tmp_path / "list.txt.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as out:
        for _ in range(64):
            out.write(filler * ((1 << 20) // len(filler)))  # 64 MB unpacked, a few hundred kB packed
    with pytest.raises(LexiconError, match="unpacks to more than 4 MB") as info:
        import_list(bomb, "sv", "bomb", tmp_path / "lex")
    assert str(bomb) in str(info.value)
    assert not (tmp_path / "lex").exists() or not any((tmp_path / "lex").iterdir())


def test_a_zip_bomb_is_refused_before_unpacking(tmp_path, small_limit):
    bomb = tmp_path / "list.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("words.txt", b"ab\n" * (3 << 20))
    with pytest.raises(LexiconError, match="unpacks to more than"):
        import_list(bomb, "sv", "bomb", tmp_path / "lex")


def test_a_utf8_list_with_one_latin1_byte_stays_utf8_and_names_the_bad_line(tmp_path):
    lines = [w.encode("utf-8") for w in SWEDISH * 50]
    lines.insert(123, "hälsa".encode("latin-1"))
    src = tmp_path / "mixed.txt"
    src.write_bytes(b"\n".join(lines) + b"\n")
    result = import_list(src, "sv", "mixed", tmp_path / "lex")
    assert result.encoding == "utf-8"
    assert result.manifest.count == len(SWEDISH)  # every Å/Ä/Ö word kept
    assert result.rejected == 1 and result.examples[0].line == 124
    assert "byte 0xe4" in result.examples[0].reason
    assert len(result.warnings) == 1 and "line 124, column 2 (byte 0xe4)" in result.warnings[0]
    judge = open_judge("sv", tmp_path / "lex", "mixed")
    assert judge.judge_play(["ÅSNA", "ÖL", "ÄRLIG", "KÖTT"]).acceptable


def test_an_overlong_line_is_rejected_not_read_into_memory(tmp_path):
    src = tmp_path / "long.txt"
    src.write_bytes(b"mesost\n" + b"a" * 100_000 + b"\nkott\n")
    result = import_list(src, "sv", "long", tmp_path / "lex")
    assert result.manifest.count == 2
    assert [(r.line, r.reason) for r in result.examples] == [(2, "line longer than 4096 bytes")]


@pytest.mark.parametrize("name", ["a/b", "../x", "a\nb", "", "x" * 65, "\u2028"])
def test_list_names_that_are_paths_or_unprintable_are_refused(tmp_path, name):
    src = tmp_path / "w.txt"
    src.write_text("mesost\n")
    with pytest.raises(LexiconError, match="name"):
        import_list(src, "sv", name, tmp_path / "lex")


def test_a_name_that_folds_onto_another_lists_file_is_refused(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("mesost\n")
    import_list(src, "sv", "a b", tmp_path / "lex")
    with pytest.raises(LexiconError, match="would replace the list 'a b'"):
        import_list(src, "sv", "a-b", tmp_path / "lex")
    again = import_list(src, "sv", "a b", tmp_path / "lex")  # the same list may be imported again
    assert again.manifest.name == "a b"


FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG, as on a full disk
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from device.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_full_disk_while_writing_the_list_is_one_line_exit_3_and_keeps_the_old_list(tmp_path):
    lex = tmp_path / "lex"
    small = tmp_path / "small.txt"
    small.write_text("mesost\nkött\n")
    import_list(small, "sv", "Full", lex)
    big = tmp_path / "big.txt"
    big.write_text("".join(f"{a}{b}{c}{d}sk\n" for a in "abcdefghij" for b in "klmnoprstu"
                           for c in "vyaeiou" for d in "åäöbcdfgh"))
    proc = subprocess.run([sys.executable, "-c", FULL_DISK, "4096", "lexicon", "import", str(big), "--lang", "sv",
                           "--name", "Full", "--dir", str(lex)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    assert "is the disk full?" in proc.stderr
    assert open_judge("sv", lex, "Full").judge_play(["MESOST", "KÖTT"]).acceptable


def test_spill_files_of_killed_builds_are_removed_and_a_running_builds_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale = [tmp_path / f"forms-{dead_pid}-abc.run", tmp_path / f"user-x.marisa.{dead_pid}-q1.tmp"]
    live = [tmp_path / f"forms-{os.getpid()}-abc.run", tmp_path / "unrelated.tmp"]
    for path in stale + live:
        path.write_text("x\n")
    assert remove_stale_files(tmp_path) == 2
    assert [p.exists() for p in stale + live] == [False, False, True, True]


def test_an_import_removes_what_killed_builds_left_including_sorts_spill_folders(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    lex = tmp_path / "lex"
    spill = lex / f"forms-{dead_pid}-k2j3.tmp"  # the folder sort -T spilled into when the build was killed
    spill.mkdir(parents=True)
    (spill / "sortAbC123").write_bytes(b"x" * 1000)
    run = lex / f"forms-{dead_pid}-q.run"
    run.write_text("mesost\n")
    running = lex / f"forms-{os.getpid()}-live.tmp"
    running.mkdir()
    src = tmp_path / "w.txt"
    src.write_text("\n".join(SWEDISH) + "\n", encoding="utf-8")
    result = import_list(src, "sv", "Mine", lex)
    assert result.manifest.count == len(SWEDISH)
    assert not spill.exists() and not run.exists() and running.is_dir()
    assert sorted(p.name for p in lex.iterdir()) == sorted([running.name, "user-Mine.json", result.path.name])

# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt gcg check|show`` as a user runs them: one line per file, a summary, exit codes, no tracebacks."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO, shared_path
from device.cli import main


def test_check_woogles_reports_61_files_and_no_mismatch(capsys):
    files = sorted(str(p) for p in shared_path("gcg", "woogles").glob("*.gcg"))
    assert main(["gcg", "check", *files]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 62
    assert all(": OK (" in line for line in lines[:-1])
    assert lines[-1].startswith("61 files, ") and lines[-1].endswith(" moves, 0 mismatches")


def test_check_reports_the_first_mismatch_with_line_expected_and_computed(capsys):
    path = shared_path("photos", "scrabscrap", "game01", "nu19_stefan-hanns.gcg")
    assert main(["gcg", "check", "--tiles", "de", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: line 28: score of '13A .ÄLE' is 32 in the record, computed 22"
    assert out[1] == "1 files, 27 moves, 1 mismatches"


def test_malformed_file_names_file_and_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: ABC 8D CAB\n", encoding="utf-8")
    missing = tmp_path / "missing.gcg"
    result = subprocess.run([sys.executable, "-m", "device", "gcg", "check", str(bad), str(missing)],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2  # unreadable input (README: exit codes)
    assert "Traceback" not in result.stdout + result.stderr
    assert f"{bad}:3: event line '>a: ABC 8D CAB' must end with a score and a cumulative total" in result.stdout
    assert f"{missing}: cannot read" in result.stdout
    assert result.stdout.splitlines()[-1] == "2 files, 0 moves, 0 mismatches, some files unreadable"


def test_show_prints_the_board_after_n_moves(capsys):
    path = shared_path("gcg", "woogles", "2r8QNJNpbP.gcg")
    assert main(["gcg", "show", str(path), "--after", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == list("ABCDEFGHIJKLMNO")
    assert sum(ch.isalpha() for line in out.splitlines()[1:16] for ch in line.split(None, 1)[1]) >= 2
    assert main(["gcg", "show", str(path), "--after", "999"]) == 2

# SPDX-License-Identifier: GPL-3.0-or-later
"""Importing a user's own word list: encodings, archives, comments, rejects, manifest."""

from __future__ import annotations

import gzip
import hashlib
import zipfile
from pathlib import Path

import pytest

from device.cli import main
from engine.errors import LexiconError
from engine.lexicon import Verdict, open_judge
from engine.lexicon.importing import import_list

LIST = "# NSF-style test list\nstjele\nSkjelett substantiv, hankjønn\n\nblåbær\nkafé\nx\nrock'n'roll\nØL\n"


def test_utf8_list_with_comments_definitions_and_rejects(tmp_path: Path) -> None:
    src = tmp_path / "nsf.txt"
    src.write_text(LIST, encoding="utf-8")
    result = import_list(src, "no", "NSF-test", tmp_path / "lex")
    m = result.manifest
    assert (m.name, m.lang, m.kind, m.count, m.rejected) == ("NSF-test", "nb", "user", 5, 2)
    assert m.sources[0].sha256 == hashlib.sha256(src.read_bytes()).hexdigest()
    assert result.encoding == "utf-8"
    assert [r.line for r in result.examples] == [7, 8]
    judge = open_judge("nb", tmp_path / "lex", "NSF-test")
    assert str(judge.judge_word("kafe")) == "VALID in NSF-test"
    assert judge.judge_play(["STJELE", "SKJELETT", "BLÅBÆR", "ØL"]).acceptable
    assert judge.judge_word("KUSINE").verdict is not Verdict.VALID


def test_latin1_gzip_and_zip(tmp_path: Path) -> None:
    words = "mesost\nöl\nÅSNA\n"
    latin = tmp_path / "saol.txt"
    latin.write_bytes(words.encode("latin-1"))
    packed = tmp_path / "saol2.txt.gz"
    packed.write_bytes(gzip.compress(words.encode("latin-1")))
    zipped = tmp_path / "saol3.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("lista.txt", words.encode("utf-8"))
    for path, name, encoding in ((latin, "a", "latin-1"), (packed, "b", "latin-1"), (zipped, "c", "utf-8")):
        result = import_list(path, "sv", name, tmp_path / "lex")
        assert (result.encoding, result.manifest.count) == (encoding, 3)
        assert open_judge("sv", tmp_path / "lex", name).judge_play(["MESOST", "ÖL", "ÅSNA"]).acceptable


@pytest.mark.parametrize(
    ("content", "lang", "message"),
    [
        (b"", "sv", "contains no usable words"),
        (b"# only a comment\n\n", "sv", "contains no usable words"),
        ("mesost\nöl\n".encode("utf-16"), "sv", "UTF-16"),
        (b"quiz\nwow\n", "et", "is --lang et right"),  # Estonian tiles have no Q or W
    ],
)
def test_unusable_files_are_refused_with_the_file_named(
    tmp_path: Path, content: bytes, lang: str, message: str
) -> None:
    src = tmp_path / "bad.txt"
    src.write_bytes(content)
    with pytest.raises(LexiconError, match=message) as info:
        import_list(src, lang, "x", tmp_path / "lex")
    assert str(src) in str(info.value)
    assert not list((tmp_path / "lex").glob("*.marisa"))


def test_broken_archives(tmp_path: Path) -> None:
    gz = tmp_path / "list.gz"
    packed = gzip.compress("".join(f"ord{i}x\n" for i in range(5000)).encode())
    gz.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(LexiconError, match="complete .gz archive"):
        import_list(gz, "sv", "x", tmp_path)
    zipped = tmp_path / "two.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("a.txt", "ost\n")
        archive.writestr("b.txt", "ost\n")
    with pytest.raises(LexiconError, match="exactly one word list"):
        import_list(zipped, "sv", "x", tmp_path)
    with pytest.raises(LexiconError, match="does not exist"):
        import_list(tmp_path / "nope.txt", "sv", "x", tmp_path)


def test_import_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("ORDVAKT_DATA_DIR", str(tmp_path))
    src = tmp_path / "nsf.txt"
    src.write_text(LIST, encoding="utf-8")
    assert main(["lexicon", "import", str(src), "--lang", "nb", "--name", "NSF-test"]) == 0
    out = capsys.readouterr().out
    assert "5 words" in out and "rejected 2 lines" in out and "line 8: \"rock'n'roll\"" in out
    assert main(["judge", "--lexicon", "NSF-test", "--each", "stjele", "kusine"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "STJELE: VALID in NSF-test" and lines[-1] == "UNACCEPTABLE"
    assert lines[1].startswith("KUSINE: ") and "VALID in" not in lines[1]
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert main(["lexicon", "import", str(empty), "--lang", "nb", "--name", "E"]) == 2
    err = capsys.readouterr().err
    assert str(empty) in err and "Traceback" not in err

# SPDX-License-Identifier: GPL-3.0-or-later
"""The players' own tiles, kept between games in an append-only file of learned glyphs.

Each confirmed move appends one record (its glyphs) and syncs it; the file is never rewritten per
move. A pulled plug can only cut or garble the last record: loading drops a damaged tail with a
message and rewrites the file from the whole records. The file stays bounded: the classifier keeps
the newest ``MAX_LEARNED_PER_LETTER`` glyphs per letter, and once the file holds more than
``COMPACT_FACTOR`` times that (plus some slack) it is rewritten with those only (a new file, synced,
then renamed over the old one). A file in the earlier format (a numpy ``.npz`` rewritten after every
move) is read once and converted.

Record: ``<length u32><crc32 u32><zlib(payload)>``; payload: per glyph ``<label bytes u8><label utf-8>
<marks u8><GLYPH_PX x GLYPH_PX ink, u8>``.
"""

from __future__ import annotations

import os
import struct
import time
import zlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.classifier import MAX_LEARNED_PER_LETTER
from vision.glyphs import GLYPH_PX, Glyph

HEADER = b"ORDVAKT LEARNED TILES 1\n"
_RECORD = struct.Struct("<II")
#: A record longer than this is damage, not a move (a move places at most a rack of tiles).
MAX_RECORD_BYTES = 64 * 1024
#: The file is compacted when it holds more glyphs than this many times those kept, plus COMPACT_SLACK.
COMPACT_FACTOR = 2
COMPACT_SLACK = 64
_ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class LearnedGlyph:
    label: str
    marks: int
    ink: bytes  # GLYPH_PX * GLYPH_PX bytes, 0..255

    @classmethod
    def of(cls, label: str, glyph: Glyph) -> LearnedGlyph:
        assert glyph.image is not None
        ink = (np.asarray(glyph.image, np.float32) * 255).clip(0, 255).astype(np.uint8)
        return cls(label, int(glyph.marks), ink.tobytes())

    def glyph(self) -> Glyph:
        image = np.frombuffer(self.ink, np.uint8).reshape(GLYPH_PX, GLYPH_PX).astype(np.float32) / 255
        return Glyph(image, 1.0, 0.5, self.marks)


class LearnedTiles:
    """The learned-tiles file at ``path``: :meth:`load` once, then :meth:`append` each move's glyphs.

    ``sync``: fsync each write (off only in tests and benchmarks that do not pull plugs).
    """

    def __init__(self, path: Path, *, keep_per_letter: int = MAX_LEARNED_PER_LETTER, sync: bool = True) -> None:
        self.path = Path(path)
        self.keep_per_letter = keep_per_letter
        self.sync = sync
        self._kept: dict[str, deque[LearnedGlyph]] = {}
        self._on_disk = 0  # glyphs in the file
        self._rewrite = False  # the file must be rewritten before anything is appended

    @property
    def kept(self) -> list[LearnedGlyph]:
        """The glyphs the classifier keeps (the newest per letter), oldest first per letter."""
        return [g for glyphs in self._kept.values() for g in glyphs]

    def load(self) -> tuple[list[LearnedGlyph], list[str]]:
        """(the glyphs to teach the classifier, messages about anything dropped or converted)."""
        messages: list[str] = []
        legacy = self.path.with_suffix(".npz")
        source = legacy if legacy != self.path and legacy.is_file() and not self.path.exists() else self.path
        try:
            data = source.read_bytes()
        except FileNotFoundError:
            return [], []
        except OSError as exc:
            self._rewrite = True
            return [], [f"learned tiles not loaded: cannot read {str(self.path)!r} ({exc.strerror or exc})"]
        if data.startswith(_ZIP_MAGIC):
            self._keep(_from_npz(source), count_on_disk=False)
            messages.append(f"learned tiles {str(source)!r} converted from the earlier format")
            self._rewrite = True
        elif not data.startswith(HEADER):
            aside = self._set_aside()
            messages.append(f"learned tiles not loaded: {str(self.path)!r} is not a learned-tiles file"
                            + (f" (kept as {aside.name!r})" if aside else "") + "; the tiles are learned anew")
            self._rewrite = True
        else:
            end, records = self._records(data)
            for glyphs in records:
                self._keep(glyphs)
            if end < len(data):
                messages.append(f"learned tiles {str(self.path)!r}: a damaged last {len(data) - end} bytes (a write "
                                f"cut short) dropped; {self._on_disk} learned tiles before it kept")
                self._rewrite = True
        if self._rewrite or self._too_big():
            try:
                self.compact()
                if source != self.path:
                    source.unlink()
            except OSError as exc:
                messages.append(f"learned tiles {str(self.path)!r} not rewritten: {exc.strerror or exc}")
        return self.kept, messages

    def append(self, glyphs: Iterable[LearnedGlyph]) -> None:
        """Add one move's glyphs to the file (one record, synced); compacts when the file is too big.
        Raises OSError (a full or read-only disk): the caller keeps playing."""
        glyphs = list(glyphs)
        if not glyphs:
            return
        self._keep(glyphs)
        if self._rewrite or self._too_big() or not self.path.exists():
            self.compact()
            return
        try:
            with open(self.path, "ab") as fh:
                fh.write(_record(glyphs))
                fh.flush()
                if self.sync:
                    os.fsync(fh.fileno())
        except OSError:
            self._rewrite = True  # the record may be half written: the next save rewrites the file whole
            raise

    def compact(self) -> None:
        """Rewrite the file with the kept glyphs only (one record per letter)."""
        kept = self.kept
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                fh.write(HEADER)
                for glyphs in self._kept.values():
                    if glyphs:
                        fh.write(_record(glyphs))
                fh.flush()
                if self.sync:
                    os.fsync(fh.fileno())
            os.replace(tmp, self.path)  # a pulled plug leaves the old file or the new one, never half
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        if self.sync:
            _sync_folder(self.path.parent)
        self._on_disk = len(kept)
        self._rewrite = False

    def _keep(self, glyphs: Iterable[LearnedGlyph], *, count_on_disk: bool = True) -> None:
        for g in glyphs:
            self._kept.setdefault(g.label, deque(maxlen=self.keep_per_letter)).append(g)
            self._on_disk += count_on_disk

    def _too_big(self) -> bool:
        return self._on_disk > COMPACT_FACTOR * sum(len(d) for d in self._kept.values()) + COMPACT_SLACK

    def _records(self, data: bytes) -> tuple[int, list[list[LearnedGlyph]]]:
        """(where the whole records end, the records' glyphs); stops at the first damaged record."""
        at = len(HEADER)
        records = []
        while at + _RECORD.size <= len(data):
            length, crc = _RECORD.unpack_from(data, at)
            body = data[at + _RECORD.size:at + _RECORD.size + length]
            if length > MAX_RECORD_BYTES or len(body) != length or zlib.crc32(body) != crc:
                break
            try:
                records.append(_glyphs(zlib.decompress(body)))
            except (zlib.error, ValueError, UnicodeDecodeError, IndexError):
                break
            at += _RECORD.size + length
        return at, records

    def _set_aside(self) -> Path | None:
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
        except OSError:
            return None
        return aside


def _from_npz(path: Path) -> list[LearnedGlyph]:
    """The glyphs of a learned-tiles file of the earlier format (what it holds whole; nothing if damaged)."""
    try:
        with np.load(path) as data:
            labels, images, marks = data["labels"], data["images"], data["marks"]
            return [LearnedGlyph(str(label), int(mark), np.asarray(image, np.uint8).tobytes())
                    for label, image, mark in zip(labels, images, marks, strict=True)
                    if np.asarray(image).shape == (GLYPH_PX, GLYPH_PX)]
    except (OSError, KeyError, ValueError, zlib.error):
        return []


def _record(glyphs: Iterable[LearnedGlyph]) -> bytes:
    payload = bytearray()
    for g in glyphs:
        label = g.label.encode("utf-8")
        payload += bytes([len(label)]) + label + bytes([g.marks & 0xFF]) + g.ink
    body = zlib.compress(bytes(payload), 6)
    return _RECORD.pack(len(body), zlib.crc32(body)) + body


def _glyphs(payload: bytes) -> list[LearnedGlyph]:
    out = []
    at = 0
    size = GLYPH_PX * GLYPH_PX
    while at < len(payload):
        n = payload[at]
        label = payload[at + 1:at + 1 + n].decode("utf-8")
        marks = payload[at + 1 + n]
        ink = payload[at + 2 + n:at + 2 + n + size]
        if not label or len(ink) != size:
            raise ValueError("short glyph")
        out.append(LearnedGlyph(label, marks, ink))
        at += 2 + n + size
    return out


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

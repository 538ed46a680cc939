# SPDX-License-Identifier: GPL-3.0-or-later
"""Free space on the data disk, watched while playing.

The kiosk asks on every loop turn; the disk is looked at (one ``statvfs``) at most every
``interval_s`` seconds, so asking is free. Below ``warn_bytes`` the disk is *low*: the app shows a
warning and the photo archive stops saving photos, so the space left goes to the game's events.

>>> free = [200 * 2**20]
>>> now = [0.0]
>>> watch = DiskWatch(".", warn_bytes=64 * 2**20, interval_s=30, usage=lambda _: Usage(free[0]), clock=lambda: now[0])
>>> watch.low()
False
>>> free[0] = 10 * 2**20
>>> watch.low()  # looked at again only after interval_s
False
>>> now[0] = 31.0
>>> watch.low(), watch.free_bytes() // 2**20
(True, 10)
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

#: Below this much free space the kiosk warns and keeps photos off the disk (the game comes first).
LOW_SPACE_BYTES = 64 * 1024 * 1024
#: Seconds between two looks at the disk.
INTERVAL_S = 30.0


class Usage(NamedTuple):
    """The part of :func:`shutil.disk_usage` the watch reads (tests pass their own)."""

    free: int


class DiskWatch:
    """Whether the disk of ``folder`` is low on space, looked at most every ``interval_s`` seconds.

    ``usage`` (``shutil.disk_usage``) and ``clock`` (``time.monotonic``) are injectable for tests.
    A disk that cannot be asked about (the folder is gone) counts as not low: the writes themselves say
    what is wrong.
    """

    def __init__(self, folder: str | Path, *, warn_bytes: int = LOW_SPACE_BYTES, interval_s: float = INTERVAL_S,
                 usage: Callable[[Path], Any] = shutil.disk_usage, clock: Callable[[], float] = time.monotonic) -> None:
        self.folder = Path(folder)
        self.warn_bytes = warn_bytes
        self.interval_s = interval_s
        self._usage = usage
        self._clock = clock
        self._free: int | None = None
        self._looked = float("-inf")

    def free_bytes(self) -> int | None:
        """Free bytes at the last look (taking a new look when the last is older than ``interval_s``)."""
        now = self._clock()
        if now - self._looked >= self.interval_s:
            self._looked = now
            try:
                self._free = int(self._usage(self.folder).free)
            except OSError:
                self._free = None
        return self._free

    def low(self) -> bool:
        free = self.free_bytes()
        return free is not None and free < self.warn_bytes

    def describe(self) -> str:
        """One line for the log and the warning's detail."""
        free = self.free_bytes()
        shown = "?" if free is None else f"{free / 2**20:.0f}"
        return (f"only {shown} MB free on the disk of {str(self.folder)!r} (warning below "
                f"{self.warn_bytes / 2**20:.0f} MB): photos are not saved, the game still is move by move")

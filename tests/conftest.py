# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared fixtures. The real game material lives in ``../shared/data`` beside the
repository; tests that need it skip with a message naming the path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Headless: no test may open a real window or sound device.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data, or skip the test saying which path is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real test material not found: {path} (the shared data folder beside the repository)")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_path()


def installed_judge(lang: str):
    """The judge over the installed default word list of ``lang``, or skip saying how to build it."""
    from device.paths import lexicon_dir
    from engine.errors import LexiconError
    from engine.lexicon.judge import open_judge

    try:
        return open_judge(lang, lexicon_dir())
    except LexiconError as exc:
        pytest.skip(f"the {lang} word list is not built ({exc}); run: ordvakt lexicon build {lang}")


class FakeTime:
    """A monotonic clock the test moves by hand (``time.t += 5``)."""

    def __init__(self, start: float = 100.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


class RecordingBuzzer:
    """A buzzer that remembers the patterns it was asked to play."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, pattern, *, wait: bool = False) -> None:
        self.played.append(pattern.value)

    def take(self) -> list[str]:
        out, self.played = self.played, []
        return out

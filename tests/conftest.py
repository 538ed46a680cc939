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

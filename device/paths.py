# SPDX-License-Identifier: GPL-3.0-or-later
"""Where Ordvakt keeps its files on this machine (XDG base directories).

``ORDVAKT_DATA_DIR`` / ``ORDVAKT_CONFIG`` override the defaults. For the kiosk, systemd's
``StateDirectory=ordvakt`` sets ``STATE_DIRECTORY`` (/var/lib/ordvakt: games and word lists, which
systemd/install.sh builds there) and ``ConfigurationDirectory=ordvakt`` sets ``CONFIGURATION_DIRECTORY``
(/etc/ordvakt, holding config.toml). Nothing is created here; callers create what they write.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """Saved games, built word lists, learned tile images, user layouts."""
    if explicit := os.environ.get("ORDVAKT_DATA_DIR"):
        return Path(explicit)
    if state := os.environ.get("STATE_DIRECTORY"):
        return Path(state.split(":")[0])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "ordvakt"


def lexicon_dir() -> Path:
    """Compiled word lists and their manifests (``<data>/lexicons``)."""
    return data_dir() / "lexicons"


def config_file() -> Path:
    """The TOML configuration file: ``$ORDVAKT_CONFIG``, ``$CONFIGURATION_DIRECTORY/config.toml`` (the service)
    or ``~/.config/ordvakt/config.toml``."""
    if explicit := os.environ.get("ORDVAKT_CONFIG"):
        return Path(explicit)
    if system := os.environ.get("CONFIGURATION_DIRECTORY"):
        return Path(system.split(":")[0]) / "config.toml"
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "ordvakt" / "config.toml"

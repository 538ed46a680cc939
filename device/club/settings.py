# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``[club]`` table of the device's configuration, validated once.

::

    [club]
    enabled = true
    event = "hamburg-2026"        # letters, digits, - and _ only (it becomes an MQTT topic level)
    board = "board07"             # this device's id; also its broker user name
    host = "club.local"
    port = 8883
    ca_file = "/etc/ordvakt/club-ca.crt"   # "" = plain TCP (only for a broker on this machine)
    password_file = "/etc/ordvakt/club-password"
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import ConfigError

TOPIC_LEVEL = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KEYS = ("enabled", "event", "board", "host", "port", "ca_file", "password_file")


@dataclass(frozen=True)
class ClubSettings:
    enabled: bool = False
    event: str = ""
    board: str = ""
    host: str = "localhost"
    port: int = 8883
    ca_file: str = ""
    password_file: str = ""

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], source: str = "config.toml") -> ClubSettings:
        """Validate ``[club]``; every problem names the file and the setting."""
        def fail(key: str, value: Any, problem: str) -> ConfigError:
            return ConfigError(f"{source}: club.{key} = {value!r}: {problem}")

        for key in table:
            if key not in KEYS:
                raise fail(key, table[key], f"unknown setting; expected one of {', '.join(KEYS)}")
        enabled = table.get("enabled", False)
        if not isinstance(enabled, bool):
            raise fail("enabled", enabled, "must be true or false")
        values: dict[str, Any] = {"enabled": enabled}
        for key in ("event", "board", "host", "ca_file", "password_file"):
            value = table.get(key, getattr(cls, key))
            if not isinstance(value, str):
                raise fail(key, value, "must be text in quotes")
            values[key] = value
        port = table.get("port", cls.port)
        if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
            raise fail("port", port, "must be a whole number from 1 to 65535")
        values["port"] = port
        settings = cls(**values)
        if enabled:
            for key in ("event", "board"):
                if not TOPIC_LEVEL.match(values[key]):
                    raise fail(key, values[key], "must be 1-64 letters, digits, '-' or '_'")
            if not values["host"]:
                raise fail("host", values["host"], "must name the broker")
        return settings

    def password(self) -> str:
        """The board's broker password, read from ``password_file`` (first line)."""
        if not self.password_file:
            return ""
        try:
            return Path(self.password_file).read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{self.password_file!r}: cannot read the club password ({exc})") from None


# SPDX-License-Identifier: GPL-3.0-or-later
"""UI text from ``device/data/strings/<lang>.toml``, looked up by dotted key (``button.confirm``).

A key missing in a language falls back to English, then to the key itself, so a half-translated
file still shows something sensible.

>>> Strings.load().get("sv", "button.undo")
'ÅNGRA'
>>> Strings.load().get("fi", "label.bag", count=12)
'Pussissa: 12'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from device.errors import ConfigError

LANGUAGES = ("en", "sv", "fi", "nb")
FALLBACK = "en"


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


@dataclass(frozen=True)
class Strings:
    tables: Mapping[str, Mapping[str, str]]
    """language -> flat key -> text."""

    @classmethod
    def load(cls, languages: tuple[str, ...] = LANGUAGES) -> Strings:
        tables = {}
        for lang in languages:
            res = resources.files("device") / "data" / "strings" / f"{lang}.toml"
            try:
                tables[lang] = _flatten(tomllib.loads(res.read_text(encoding="utf-8")))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"cannot read UI strings {lang!r} ({res}): {exc}; "
                                  f"reinstall the package or fix the TOML file") from exc
        return cls(tables)

    def get(self, lang: str, key: str, **fields: Any) -> str:
        text = self.tables.get(lang, {}).get(key)
        if text is None:
            text = self.tables.get(FALLBACK, {}).get(key, key)
        return text.format(**fields) if fields else text

    def keys(self, lang: str = FALLBACK) -> set[str]:
        return set(self.tables.get(lang, {}))

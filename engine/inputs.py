# SPDX-License-Identifier: GPL-3.0-or-later
"""The input policy every package applies where outside data enters (files, settings, command line, rows).

Numbers are plain ASCII digits of bounded length (``"²"`` or a 5000-digit score is refused before
``int()`` sees it), real numbers are finite, names shown on screens and written into records carry
no control characters, and every refusal is a one-line message naming the input and the problem.

>>> ascii_int("+30", "score")
30
>>> ascii_int("-²", "score")
Traceback (most recent call last):
...
ValueError: score '-²' is not a whole number written with the digits 0-9
>>> finite_number(float("nan"), "seconds")
Traceback (most recent call last):
...
ValueError: seconds = nan: must be a finite number
>>> clean_name("Ann\\nBob\\t ")
'Ann Bob'
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

#: Digits a score, count or setting may have; bigger values are typos or attacks, never games.
MAX_DIGITS = 9
#: Characters of a player name (screens and records).
MAX_NAME_CHARS = 40

_INT = re.compile(r"[+-]?[0-9]+")


def ascii_int(text: str, what: str, *, max_digits: int = MAX_DIGITS) -> int:
    """``text`` as an int; only ASCII digits with an optional sign, at most ``max_digits`` of them."""
    if not _INT.fullmatch(text):
        raise ValueError(f"{what} {text[:40]!r} is not a whole number written with the digits 0-9")
    if len(text.lstrip("+-")) > max_digits:
        raise ValueError(f"{what} {text[:12]}... has {len(text.lstrip('+-'))} digits; at most {max_digits} are allowed")
    return int(text)


def is_ascii_int(text: str, max_digits: int = MAX_DIGITS) -> bool:
    return bool(_INT.fullmatch(text)) and len(text.lstrip("+-")) <= max_digits


def finite_number(value: Any, what: str, *, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite float within [low, high]; bools, text, nan and inf are refused."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} = {value!r}: must be a number")
    if isinstance(value, int) and value.bit_length() > 60:
        raise ValueError(f"{what} = {short_repr(value)}: too large")
    if not math.isfinite(value):
        raise ValueError(f"{what} = {value!r}: must be a finite number")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"between {low:g} and {high:g}" if low is not None and high is not None else (
            f">= {low:g}" if low is not None else f"<= {high:g}")
        raise ValueError(f"{what} = {value!r}: must be {bounds}")
    return float(value)


def short_repr(value: Any) -> str:
    """``repr(value)`` cut to 60 characters; safe for integers of any size."""
    text = repr(value) if not isinstance(value, int) or value.bit_length() <= 100 else "a number with over 30 digits"
    return text if len(text) <= 60 else text[:57] + "..."


def seconds_argument(high: float, *, low: float = 0.0, zero: bool = False, unit: str = "seconds"):
    """An ``argparse`` type for a length of time: a finite number (of ``unit``) above ``low`` (or equal, when
    ``zero``) and at most ``high``; ``nan``, ``inf`` and ``1e300`` are refused in one line."""
    import argparse

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
        if not (math.isfinite(value) and low <= value <= high) or (value == low and not zero):
            bounds = f"from {low:g}" if zero else f"more than {low:g}"
            raise argparse.ArgumentTypeError(f"{text[:40]}: must be a finite number of {unit} {bounds} "
                                             f"up to {high:g}")
        return value

    return parse


def read_at_most(path: Any, limit: int) -> bytes:
    """The first ``limit`` bytes of a file (a device such as /dev/zero or a huge file never fills memory)."""
    with open(path, "rb") as handle:
        return handle.read(limit)


def clean_name(name: str, max_chars: int = MAX_NAME_CHARS) -> str:
    """A player name safe for screens and records: control and line-breaking characters become
    spaces, runs of spaces collapse, and the name is cut to ``max_chars``."""
    chars = (" " if unicodedata.category(ch)[0] in "CZ" and ch != " " or ch == " " else ch for ch in name)
    return " ".join("".join(chars).split())[:max_chars].strip()


def has_control(text: str) -> bool:
    """True when ``text`` holds a control or line/paragraph separator character."""
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)

# SPDX-License-Identifier: GPL-3.0-or-later
"""The rule-sentence table (engine/data/rule-coverage.md) points at code that exists, and every rule field of
the rule data files quotes the sentence (or source) it implements."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from engine.rules import CONVENTION_FIELDS, Game, conventions

REPO = Path(__file__).resolve().parent.parent
TABLE = REPO / "engine" / "data" / "rule-coverage.md"


def test_every_file_and_function_the_rule_table_names_exists():
    text = TABLE.read_text(encoding="utf-8")
    refs = set(re.findall(r"`((?:engine|device|vision)/[\w/]+\.py):([\w.]+)", text))
    assert len(refs) > 30
    for path, name in sorted(refs):
        module = importlib.import_module(path[:-3].replace("/", "."))
        target = module
        for part in name.split("."):
            assert hasattr(target, part), f"{path}:{name} does not exist"
            target = getattr(target, part)


def test_the_rule_table_covers_all_five_sheets():
    text = TABLE.read_text(encoding="utf-8")
    for heading in ("## 004 Scrabble", "## 000 Alfapet", "## 001 Alfapet", "## 003 Ordskifte", "## 002 Keywords"):
        assert heading in text


@pytest.mark.parametrize("game", [Game.SCRABBLE, Game.ALFAPET])
def test_every_convention_field_quotes_its_source(game):
    data = conventions(game)
    for name, table in data["conventions"].items():
        for field in CONVENTION_FIELDS:
            assert field in table, (game, name, field)
            if field in ("rack_accounting", "tie_break", "start_rule") or table[field]:
                assert len(table["quotes"].get(field, "")) > 20, (game, name, field)

# SPDX-License-Identifier: GPL-3.0-or-later
"""Engine refusals as translatable :class:`~device.ui.view.Text`: the engine gives a code and values, the
strings files word them (``engine.<code>`` keys in every language).

>>> from engine.validation import Problem, ProblemCode
>>> problem_text(Problem(ProblemCode.GAP, "the word has a gap at H9", {"square": "H9"}))
Text(key='engine.gap', args=(('square', 'H9'),))
"""

from __future__ import annotations

from typing import Any

from device.ui.view import Text


def english(text: Text | None) -> str:
    """A Text worded in English, for logs and console output (the screen words it in the players' language).

    >>> english(Text.of("msg.rack_letter", letter="Q"))
    'Q is not a tile of this game: check the rack'
    >>> english(None)
    ''
    """
    if text is None:
        return ""
    from device.ui.strings import Strings

    fields = {k: english(a) if isinstance(a, Text) else a for k, a in text.args}
    return Strings.load(("en",)).get("en", text.key, **fields)


def problem_text(problem: Any) -> Text:
    """An ``engine.validation.Problem`` (code flag and args) as a Text."""
    return Text(f"engine.{problem.code.name.lower()}", tuple(problem.args.items()))


def error_text(exc: Exception) -> Text:
    """An :class:`~engine.errors.EngineError` with a code as its Text; without one, the generic refusal
    (the English detail is then only in the log)."""
    code = getattr(exc, "code", "")
    if code:
        return Text(f"engine.{code}", tuple(getattr(exc, "values", {}).items()))
    return Text("engine.refused")


#: Settings (by their last part in the configuration, ``game.minutes``) named by the new-game form's label.
SETTING_LABELS = {"game": "option.game", "language": "option.language", "lexicon": "option.lexicon",
                  "players": "option.players", "rack_size": "option.rack_size", "clock": "option.clock_mode",
                  "minutes": "option.minutes", "challenge_rule": "option.challenge_rule",
                  "board_profile": "option.board", "timer_seconds": "option.seconds",
                  "target_score": "option.target"}


def cannot_start_text(exc: Exception) -> Text:
    """Why a game cannot start, in the players' language: an engine refusal by its code, a wrong setting by its
    name (the form's label when it has one); any other detail is English and goes to the log only.

    >>> from device.errors import ConfigError
    >>> english(cannot_start_text(ConfigError("new game: game.minutes = -1: must be ...", setting="game.minutes")))
    'This game cannot be started: check the setting Minutes'
    >>> english(cannot_start_text(ConfigError("file is not a database")))
    'This game cannot be started (the device log says why)'
    """
    if getattr(exc, "code", ""):
        return Text.of("msg.cannot_start", detail=error_text(exc))
    setting = getattr(exc, "setting", "")
    if not setting:
        return Text("cannot_start.other")
    label = SETTING_LABELS.get(setting.rsplit(".", 1)[-1])
    return Text.of("msg.cannot_start", detail=Text.of("cannot_start.setting",
                                                      setting=Text(label) if label else setting))

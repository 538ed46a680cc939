# SPDX-License-Identifier: GPL-3.0-or-later
"""Which flow class plays which kind of game (the registry the app builds and resumes games with).

``flow_class_for(kind)`` returns the class for ``"scrabble"``, ``"alfapet"`` (both
:class:`device.flow.Flow`), ``"ordskifte"`` (``device.ordskifte_flow.OrdskifteFlow``) and
``"keywords"`` (``device.keywords_flow.KeywordsFlow``). The last two are imported lazily, by module
path, when first asked for; if such a module is missing or fails to import, :class:`GameUnavailable`
says so (the app shows it as a message and stays on the new-game form: never a crash).

Every flow class implements :class:`device.ports.GameFlow` (the app uses nothing else) and is built as
``cls(collaborators, auto_accept_s=..., language=...)``.

Conventions shared by all flows:

* ``collaborators.store`` is the one :class:`device.store.Store`; a game's kind is
  ``settings.game`` (stored in the ``games.kind`` column), which is how the app picks the class
  when it resumes the unfinished game (``Store.kind(game_id)``).
* The app turns touches into :class:`~device.ports.FlowEvent` with the flow's own
  ``event_from_action(action)`` (so a flow can accept Ordskifte/Keywords actions: put what you need in
  ``FlowEvent.text``/``player``/``data``).
* The app owns the new-game form (:class:`NewGameForm`, below): the ``NEW_GAME`` touch never reaches
  a flow. On START it builds the flow class of the chosen kind over the same collaborators and calls
  ``new_game(settings)``. A flow whose ``wants_new_game_form()`` becomes true after an event
  makes the app show the form; closing it calls ``back_from_new_game()``.
* The app also owns the settings, word-judge and calibration screens (``device.overlays``); while
  one is open the flow receives only TICK events.
* TICK events arrive about 50 times a second; PAUSE/RESUME stop and restart the clocks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from device.config import CHALLENGE_RULES, GAMES, RACK_SIZES, GameSettings
from device.errors import ConfigError, GameUnavailable
from device.ports import GameFlow
from device.texts import cannot_start_text
from device.ui import view as v

#: kind -> "module:Class"; modules load only when that kind is played.
FLOW_CLASSES: Mapping[v.GameKind, str] = {
    v.GameKind.SCRABBLE: "device.flow:Flow",
    v.GameKind.ALFAPET: "device.flow:Flow",
    v.GameKind.ORDSKIFTE: "device.ordskifte_flow:OrdskifteFlow",
    v.GameKind.KEYWORDS: "device.keywords_flow:KeywordsFlow",
}

#: Kinds in the order the new-game form offers them.
KINDS: tuple[v.GameKind, ...] = tuple(FLOW_CLASSES)


def game_kind(kind: v.GameKind | str) -> v.GameKind:
    """``kind`` as the enum (a stored or configured game is its value); raises GameUnavailable when unknown."""
    try:
        return v.GameKind(kind)
    except ValueError:
        raise GameUnavailable(f"game {kind!r} is unknown; expected one of "
                              f"{', '.join(k.value for k in KINDS)}") from None


def flow_class_for(kind: v.GameKind | str) -> Callable[..., GameFlow]:
    """The flow class that plays ``kind``; raises :class:`GameUnavailable` with the reason."""
    kind = game_kind(kind)
    target = FLOW_CLASSES.get(kind)
    if target is None:
        raise GameUnavailable(f"game {kind.value!r} has no flow in this version; choose another game")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise GameUnavailable(
            f"game {kind.value!r} is not available in this version ({module_name} cannot be imported: {exc}); "
            "choose another game") from None
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise GameUnavailable(f"game {kind.value!r} is not available: {module_name} has no class {class_name}; "
                              "choose another game")
    return cls


def available(kind: v.GameKind | str) -> bool:
    """True when ``kind`` can be played (its flow module imports)."""
    try:
        flow_class_for(kind)
    except GameUnavailable:
        return False
    return True


# -- the new-game form -------------------------------------------------------------------------------

#: Languages with a tile set, the form's order (the device's own first).
FORM_LANGUAGES = ("sv", "nb", "fi", "en", "de", "fr", "pl", "et")
MINUTES = ("5", "10", "15", "20", "25", "30", "45", "60")
CLOCKS_FOR = {"scrabble": ("chess", "none"), "alfapet": ("chess", "none"), "ordskifte": ("turn", "none"),
              "keywords": ("round",)}
#: Strings keys for the challenge rules (the rest are shown by name).
RULE_KEYS = {"double": "value.double", "single": "value.single", "void": "value.void",
             "five-point": "value.five_points", "ten-point": "value.ten_points", "triple": "value.triple"}
MAX_PLAYERS = {"keywords": 2}
#: Turn / round lengths the boxes offer, in seconds (the first is the default).
TIMER_SECONDS = {"ordskifte": ("60", "30", "120", "180"), "keywords": ("30", "45", "60")}
TARGETS = ("30", "20", "50", "100")


def _fewest(game: str) -> int:
    """One player is solo practice (issue 16, seed 000): the board games only."""
    return 1 if v.GameKind(game).board_game else 2


def _two_racks_allowed(game: str, players: str) -> bool:
    """Solo practice may be played with two racks by the one person (issue 16): one-player board games."""
    return v.GameKind(game).board_game and players == "1"


class NewGameForm:
    """The NEW_GAME screen's values: ``handle(SET_OPTION | START_GAME | BACK)``.

    ``handle`` returns None (stay), ``"back"`` (close the form) or the validated
    :class:`GameSettings` to start. Invalid combinations are refused with a message that says what to
    change; options that do not apply to the chosen game are shown disabled.
    """

    def __init__(self, base: GameSettings, *, language: str = "en", can_go_back: bool = True,
                 message: v.Text | None = None,
                 notices: tuple[v.Notice, ...] = (), profiles: tuple[str, ...] = (),
                 lexicons: dict[str, tuple[str, ...]] | None = None) -> None:
        self.values: dict[str, str] = {
            "game": base.game, "language": base.language, "lexicon": base.lexicon,
            "players": str(1 if base.racks == 2 else max(1, min(4, len(base.players)))),
            "racks": str(base.racks), "rack_size": str(base.rack_size),
            "clock_mode": base.clock, "minutes": str(int(base.minutes)) if base.minutes == int(base.minutes)
            else str(base.minutes), "challenge_rule": base.challenge_rule, "board_profile": base.board_profile,
            "timer_seconds": str(base.timer_seconds or ""), "target_score": str(base.target_score or TARGETS[0]),
            "hint": "on" if base.hint else "off",
        }
        names = list(base.players) + [f"Player {i + 1}" for i in range(len(base.players), 4)]
        for i, name in enumerate(names[:4]):
            self.values[f"player{i + 1}"] = name
        self.base = base
        self.language = language
        self.can_go_back = can_go_back
        self.message = message
        self.notices = notices
        self.profiles = profiles or ("scrabscrap", "classic-scrabble", "alfapet-17")
        self.lexicons = lexicons or {}
        self._fit()

    # -- constraints -------------------------------------------------------------------------------
    def _fit(self) -> None:
        """Bring dependent values in line with the chosen game (rack size, clock, players)."""
        game = self.values["game"]
        if game in RACK_SIZES and int(self.values["rack_size"] or 0) not in RACK_SIZES[game]:
            self.values["rack_size"] = "7"
        if self.values["clock_mode"] not in CLOCKS_FOR[game]:
            self.values["clock_mode"] = CLOCKS_FOR[game][0]
        top = MAX_PLAYERS.get(game, 4)
        if int(self.values["players"]) > top:
            self.values["players"] = str(top)
        if int(self.values["players"]) < _fewest(game):
            self.values["players"] = str(_fewest(game))
        if self.values["racks"] not in ("1", "2") or not _two_racks_allowed(game, self.values["players"]):
            self.values["racks"] = "1"
        if self.values["minutes"] not in MINUTES:
            self.values["minutes"] = "25"
        seconds = TIMER_SECONDS.get(game, ("",))
        if self.values["timer_seconds"] not in seconds:
            self.values["timer_seconds"] = seconds[0]
        if self.values["target_score"] not in TARGETS:
            self.values["target_score"] = TARGETS[0]

    def settings(self) -> GameSettings:
        """The form as validated settings (raises ConfigError / GameUnavailable with the reason)."""
        game = self.values["game"]
        flow_class_for(game)
        n = int(self.values["players"])
        names = [self.values[f"player{i + 1}"].strip() for i in range(n)]
        if len(set(map(str.casefold, names))) != len(names):
            raise ConfigError(f"players {names!r}: two players have the same name; give each a different one")
        table: dict[str, Any] = {
            "game": game, "language": self.values["language"], "players": names,
            "clock": self.values["clock_mode"], "minutes": float(self.values["minutes"]),
            "lexicon": self.values["lexicon"], "board_profile": self.values["board_profile"],
        }
        if game in RACK_SIZES:
            table["rack_size"] = int(self.values["rack_size"])
        if v.GameKind(game).board_game:
            table["challenge_rule"] = self.values["challenge_rule"]
            table["hint"] = self.values["hint"] == "on"
            table["racks"] = int(self.values["racks"])
            if game == self.base.game:
                # The configuration's tile set and layout ([game] tileset/layout: a name or the players' own
                # .toml file) stay with the game, so the camera reader knows that set's letters.
                table.update({key: value for key, value in (("tileset", self.base.tileset),
                                                            ("layout", self.base.layout)) if value})
        if game in TIMER_SECONDS:
            table["timer_seconds"] = int(self.values["timer_seconds"])
        if v.GameKind(game) is v.GameKind.KEYWORDS:
            table["target_score"] = int(self.values["target_score"])
        settings = GameSettings.from_dict(table, "new game")
        if not _fewest(game) <= len(settings.players) <= MAX_PLAYERS.get(game, 4):
            raise ConfigError(f"players {names!r}: {game} needs {_fewest(game)} to {MAX_PLAYERS.get(game, 4)} players",
                              setting="players")
        if v.GameKind(game).board_game:
            try:
                settings.rules()
            except Exception as exc:  # engine data errors: the combination has no rules
                raise ConfigError(f"{game} in {settings.language!r} cannot be set up: {exc}",
                                  setting="language") from None
        return settings

    # -- events --------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Nothing runs on a clock here (every screen above the game has ``tick``)."""

    def handle(self, action: v.UiAction) -> GameSettings | str | None:
        kind = action.kind
        if kind is v.ActionKind.BACK:
            if self.can_go_back:
                return "back"
            self.message = v.Text("msg.no_game_to_go_back")
            return None
        if kind is v.ActionKind.SET_OPTION:
            self.set(action.key, action.text)
            return None
        if kind in (v.ActionKind.START_GAME, v.ActionKind.OK):
            try:
                return self.settings()
            except (ConfigError, GameUnavailable):
                self.message = self.problem()
                return None
        return None

    def set(self, key: str, value: str) -> None:
        if key not in self.values:
            self.message = v.Text("engine.refused")
            return
        if key.startswith("player") and key != "players":
            value = " ".join(value.split())[:16]
            if not value:
                self.message = v.Text("msg.name_empty")
                return
        self.values[key] = value
        if key == "language":
            self.values["lexicon"] = ""
        self.message = None
        self._fit()

    # -- view ----------------------------------------------------------------------------------------
    def options(self) -> tuple[v.Option, ...]:
        game = self.values["game"]
        board = v.GameKind(game).board_game
        val = self.values
        lexicons = ("",) + self.lexicons.get(val["language"], ())
        opts = [
            v.Option("game", "option.game", val["game"],
                     tuple(v.Choice(g, label_key=f"value.{g}") for g in GAMES)),
            v.Option("language", "option.language", val["language"],
                     tuple(v.Choice(x, x.upper()) for x in FORM_LANGUAGES)),
            v.Option("lexicon", "option.lexicon", val["lexicon"],
                     tuple(v.Choice(x, x, "" if x else "table.standard") for x in lexicons), enabled=len(lexicons) > 1),
            v.Option("players", "option.players", val["players"],
                     tuple(v.Choice(str(n), str(n)) for n in range(_fewest(game), MAX_PLAYERS.get(game, 4) + 1))),
        ]
        opts += [v.Option(f"player{i + 1}", f"label.player_n:{i + 1}", val[f"player{i + 1}"], text=True)
                 for i in range(int(val["players"]))]
        opts.append(v.Option("racks", "solo.racks_option", val["racks"],
                             tuple(v.Choice(r, label_key=f"solo.racks_{r}") for r in ("1", "2")),
                             enabled=_two_racks_allowed(game, val["players"])))
        sizes = RACK_SIZES.get(game, (7,))
        opts += [
            v.Option("rack_size", "option.rack_size", val["rack_size"], tuple(v.Choice(str(n), str(n)) for n in sizes),
                     enabled=game in RACK_SIZES),
            v.Option("clock_mode", "option.clock_mode", val["clock_mode"],
                     tuple(v.Choice(c, label_key=f"value.{c}") for c in CLOCKS_FOR[game])),
            v.Option("minutes", "option.minutes", val["minutes"], tuple(v.Choice(m, m) for m in MINUTES),
                     enabled=val["clock_mode"] == "chess"),
            v.Option("timer_seconds", "option.seconds", val["timer_seconds"],
                     tuple(v.Choice(t, t) for t in TIMER_SECONDS.get(game, ("",))), enabled=game in TIMER_SECONDS),
            v.Option("target_score", "option.target", val["target_score"],
                     tuple(v.Choice(t, t) for t in TARGETS), enabled=v.GameKind(game) is v.GameKind.KEYWORDS),
            v.Option("challenge_rule", "option.challenge_rule", val["challenge_rule"],
                     tuple(v.Choice(r, "", RULE_KEYS[r]) for r in CHALLENGE_RULES),
                     enabled=board),
            v.Option("board_profile", "option.board", val["board_profile"],
                     tuple(v.Choice(p, _profile_label(p), "" if p else "table.automatic")
                           for p in ("",) + self.profiles),
                     enabled=board),
            v.Option("hint", "hint.option", val["hint"],
                     tuple(v.Choice(x, label_key=f"value.{x}") for x in ("off", "on")), enabled=board),
        ]
        return tuple(opts)

    def problem(self) -> v.Text | None:
        """Why START is refused, worded for the players (None when the form is fine)."""
        try:
            self.settings()
        except GameUnavailable:
            return v.Text.of("msg.game_unavailable", game=self.values["game"].capitalize())
        except ConfigError as exc:
            n = int(self.values["players"])
            names = [self.values[f"player{i + 1}"].strip().casefold() for i in range(n)]
            if len(set(names)) != len(names):
                return v.Text("msg.same_name")
            return cannot_start_text(exc)  # the setting at fault named in the players' language
        return None

    def view(self) -> v.View:
        problem = self.problem()
        return v.View(v.Screen.NEW_GAME, language=self.language, game=v.GameKind(self.values["game"]),
                      form=v.FormView(self.options(), can_start=problem is None), message=self.message or problem,
                      warnings=self.notices, alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖÆØ")


def _profile_label(profile: str) -> str:
    """A profile's name as shown (empty for the automatic choice, which is shown by its strings key)."""
    return profile.rsplit("/", 1)[-1].removesuffix(".toml")

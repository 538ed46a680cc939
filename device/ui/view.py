# SPDX-License-Identifier: GPL-3.0-or-later
"""What a screen shows (:class:`View`) and what a touch means (:class:`UiAction`).

This is the contract between the device core (flow, storage, app) and the UI. The core builds a
``View`` from the game state; the UI draws it and turns touches into ``UiAction`` values that the
core feeds into its state machine. Plain values only: no pygame, no engine imports, so either side
can be tested alone.

Conventions:

* A square is ``(row, col)``, 0-based from the top left (``engine.squares.Square`` is a NamedTuple
  of exactly that shape and may be passed as is).
* Times are integer milliseconds; a negative clock reading is overtime.
* Letters are upper case; a blank/joker is flagged with ``blank=True`` and carries the letter it
  stands for (``""`` if not yet chosen).
* Text the players see comes from the strings files (``device/data/strings/<lang>.toml``) looked up
  by key; a View carries :class:`Text` (a key and its arguments) or player-entered text (names,
  words), never worded UI text. An engine refusal arrives as its code and arguments
  (``engine.<code>`` keys); only values (numbers, names, words, letters, paths) are filled in.

Widget state that only the UI needs (the text being typed, which tile is selected for correction)
lives in the renderer, not here. The UI therefore emits some *local* actions (``KEY``,
``BACKSPACE``, ``CORRECT_TILE``/``SET_BLANK`` without a letter, ``SELECT_WORD``, ``SELECT_PLAYER``)
which the renderer consumes itself; :attr:`UiAction.is_local` tells them apart. The core only ever
receives non-local actions from ``Renderer.apply``/the input adapter.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

Pos = tuple[int, int]
"""(row, col), 0-based."""


class Screen(enum.Enum):
    NEW_GAME = "new_game"
    SCOREBOARD = "scoreboard"
    """Main screen while playing: board with last move, scores, clocks, move history."""
    CONFIRM_MOVE = "confirm_move"
    """The vision proposal on the board: correct tiles, set blanks, confirm."""
    CHALLENGE = "challenge"
    """A play is being judged; clocks paused; shows the verdict when the View carries one."""
    JUDGE = "judge"
    """Free word judging: type words, one big verdict."""
    ASK_EXCHANGE_OR_PASS = "ask_exchange_or_pass"
    MANUAL_ENTRY = "manual_entry"
    """Type a move in GCG notation (``8D WORD``) when the camera cannot help."""
    END_RACKS = "end_racks"
    """End of game: each player types the tiles left on the rack."""
    END = "end"
    SETTINGS = "settings"
    CALIBRATION = "calibration"
    ORDSKIFTE = "ordskifte"
    KEYWORDS = "keywords"
    MESSAGE = "message"
    """A full-screen message (errors at start-up, corrupt database, ...) with an OK button."""
    START_DRAW = "start_draw"
    """Who starts: each player's drawn tile, ties drawn again, the starter named (device/start_draw.py)."""
    MISSED = "missed"
    HINT = "hint"
    """Family hint: type a rack, see the best move's score and its first letter only (device/hint.py)."""
    """After a game: each player's moves beside the best move there was, and their share (device/missed.py)."""


class GameKind(enum.Enum):
    SCRABBLE = "scrabble"
    ALFAPET = "alfapet"
    ORDSKIFTE = "ordskifte"
    KEYWORDS = "keywords"

    @property
    def board_game(self) -> bool:
        """Played on a grid board read by the camera (Scrabble, Alfapet)."""
        from device.config import BOARD_GAMES

        return self.value in BOARD_GAMES


class ClockMode(enum.Enum):
    NONE = "none"
    CHESS = "chess"
    """Chess clock per player (2–4), overtime negative."""
    TURN = "turn"
    """Ordskifte turn timer."""
    ROUND = "round"
    """Keywords 30-second round timer."""


class TimerState(enum.Enum):
    IDLE = "idle"
    RUNNING = "running"
    PAUSED = "paused"
    EXPIRED = "expired"
    OVER = "over"


class Severity(enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Text:
    """Player-facing text as a strings key and its arguments (numbers, names, words, or other Texts).

    >>> Text.of("msg.rack_letter", letter="Q").fields()
    {'letter': 'Q'}
    """

    key: str
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **args: Any) -> Text:
        return cls(key, tuple(args.items()))

    def fields(self) -> dict[str, Any]:
        return dict(self.args)


# ---------------------------------------------------------------------------------------------
# Pieces of a View


@dataclass(frozen=True)
class Tile:
    """A tile on a square (board, proposal)."""

    square: Pos
    letter: str
    blank: bool = False
    stop: bool = False
    """Alfapet/extra "stop" tile (drawn as a block, no letter)."""


@dataclass(frozen=True)
class BoardView:
    """The board: premium map (static, cached by the UI per ``layout_name``) and tiles."""

    size: int
    premiums: tuple[tuple[str, ...], ...]
    """Row-major premium codes as ``engine.layout.Premium`` values: ``"."``, ``"L2"``, ``"L3"``,
    ``"L4"``, ``"W2"``, ``"W3"``, ``"W4"``, ``"M2"`` (Alfapet minus square)."""
    tiles: tuple[Tile, ...] = ()
    last_move: tuple[Pos, ...] = ()
    """Squares of the last confirmed move, highlighted."""
    centre: Pos | None = None
    layout_name: str = ""
    """Cache key for the static board background; empty disables caching by name."""


@dataclass(frozen=True)
class ClockReading:
    remaining_ms: int
    """Negative = overtime (drawn red with a minus sign)."""
    state: TimerState = TimerState.IDLE
    warning: bool = False
    """Past a warning point (drawn in the warning colour)."""


@dataclass(frozen=True)
class PlayerView:
    name: str
    score: int = 0
    to_move: bool = False
    clock: ClockReading | None = None
    rack_count: int | None = None
    """Tiles on the rack, if known."""
    note: Text | None = None
    """Short player-specific text (e.g. "lost on time")."""


@dataclass(frozen=True)
class MoveRow:
    """One line of the move history."""

    player: int
    text: str
    """Notation as the core words it: ``8D QUIXOTE``, ``-ABC`` (exchange), ``-`` (pass)."""
    score: int
    cumulative: int
    words: tuple[str, ...] = ()
    """Words the move formed (main first): what the history shows for a placement."""
    kind: str = "play"
    """``play``, ``exchange``, ``pass``, ``withdraw``, ``challenge``, ``time``, ``rack``: the history's label."""
    challenged: bool = False
    withdrawn: bool = False


@dataclass(frozen=True)
class Candidate:
    letter: str
    confidence: float
    """0..1."""


@dataclass(frozen=True)
class UncertainTile:
    square: Pos
    candidates: tuple[Candidate, ...]
    """Best first; the UI shows up to three."""


@dataclass(frozen=True)
class WordScore:
    word: str
    score: int
    main: bool = False
    acceptable: bool | None = None
    """None = not judged."""


@dataclass(frozen=True)
class Proposal:
    """A proposed (or manually entered) move shown on the confirm screen."""

    tiles: tuple[Tile, ...]
    words: tuple[WordScore, ...] = ()
    score: int = 0
    uncertain: tuple[UncertainTile, ...] = ()
    blanks_needed: tuple[Pos, ...] = ()
    """Blank tiles whose letter must still be entered; CONFIRM is disabled while any remain."""
    problems: tuple[Text, ...] = ()
    """Why the move is illegal as read (engine codes); CONFIRM is disabled while any remain."""
    auto_accept_ms: int | None = None
    """Countdown to auto-accept for a confident proposal; None = waits for the player."""
    player: int = 0
    removed: tuple[Pos, ...] = ()
    """Squares of the last play the camera saw taken back (a withdrawn phony); confirming withdraws it."""


@dataclass(frozen=True)
class Verdict:
    acceptable: bool
    words: tuple[WordScore, ...] = ()
    """The words judged (``acceptable`` per word)."""
    countdown_ms: int | None = None
    """Time left before the screen goes back (the core's timeout); shown when set."""


@dataclass(frozen=True)
class TimerView:
    """The big central timer (Ordskifte turn, Keywords round) or the active chess clock."""

    mode: ClockMode
    reading: ClockReading
    player: int | None = None
    label_key: str = ""
    """Strings key for a caption, e.g. ``"timer.turn"``."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str = ""
    """Display text; empty = look up ``label_key`` or show ``value``."""
    label_key: str = ""


@dataclass(frozen=True)
class Option:
    """One setting row (new-game form, settings screen). Tapping it emits ``SET_OPTION`` with the
    next choice's value (cycling), or opens the keyboard when ``text`` is True."""

    key: str
    label_key: str
    value: str
    choices: tuple[Choice, ...] = ()
    text: bool = False
    """Free text (a player name): edited with the on-screen keyboard."""
    enabled: bool = True


@dataclass(frozen=True)
class FormView:
    """The new-game form or the settings list; the core owns the values and their constraints
    (e.g. rack sizes allowed for the chosen game) and rebuilds the form after each SET_OPTION."""

    options: tuple[Option, ...]
    can_start: bool = True
    """NEW_GAME: START enabled."""


@dataclass(frozen=True)
class Calibration:
    frame: Any = None
    """A numpy uint8 BGR array (h, w, 3), or raw BGR bytes with ``frame_size`` set; None = no frame."""
    frame_size: tuple[int, int] | None = None
    """(width, height) when ``frame`` is bytes."""
    corners: tuple[tuple[float, float], ...] = ()
    """Board corners in frame pixels (top-left, top-right, bottom-right, bottom-left); empty = none found."""
    grid_size: int = 15
    ok: bool = False
    """Detection good enough to save."""
    message: Text | None = None


@dataclass(frozen=True)
class RailWordView:
    text: str
    """Engine notation: capitals, a joker as the lower-case letter it stands for."""
    pending: bool = False
    """Just played, still open to a dictionary dispute."""


@dataclass(frozen=True)
class OrdskiftePlayer:
    name: str
    words: tuple[RailWordView, ...] = ()
    hidden_tile: str | None = None
    """Only for a fully digital table; None on a real board."""


@dataclass(frozen=True)
class OrdskifteView:
    players: tuple[OrdskiftePlayer, ...]
    to_move: int
    timer: TimerView | None = None
    target_words: int = 6
    rails_total: int = 14
    rails_free: int = 14
    pool: str = ""
    """Face-up tiles, if tracked."""
    bag_count: int | None = None
    winner: tuple[int, ...] = ()
    """Winners once decided (ties share)."""
    alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ"


class KeywordsPhase(enum.Enum):
    PLAYING = "playing"
    """Round in progress: timer big."""
    ENTRY = "entry"
    """Round over: each player enters words and unused keys."""
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class KeywordsPlayer:
    name: str
    round_scores: tuple[int, ...] = ()
    total: int = 0
    words: tuple[str, ...] = ()
    """Words entered for the current round."""
    unused: int = 0
    """Keys left over this round (−1 each)."""
    submitted: bool = False
    problem: Text | None = None
    """Why the last entry was refused (engine code)."""


@dataclass(frozen=True)
class KeywordsView:
    players: tuple[KeywordsPlayer, ...]
    round_no: int
    phase: KeywordsPhase
    timer: TimerView | None = None
    target_score: int | None = None
    rounds: int | None = None
    alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class RackEntry:
    """End of game: one player at a time types the tiles left on their rack."""

    player: int
    unseen: str = ""
    """Tiles not on the board (sorted): every tile still on some rack is among them."""
    left: int = 1
    """Players still to enter, this one included."""
    rack_count: int | None = None
    """How many tiles this player should have, when known."""


@dataclass(frozen=True)
class ScoreLine:
    """One player's final score, taken apart."""

    moves: int
    rack: int = 0
    time: int = 0
    other: int = 0
    """Challenge bonuses and the like."""
    total: int = 0
    rack_tiles: str = ""


@dataclass(frozen=True)
class FinalScores:
    lines: tuple[ScoreLine, ...]
    reason: Text | None = None
    """Why the game ended."""
    tie: Text | None = None
    """How equal scores were settled, when they were."""


@dataclass(frozen=True)
class Notice:
    key: str
    """Strings key, e.g. ``"warn.camera_lost"``."""
    severity: Severity = Severity.WARNING
    detail: str = ""


@dataclass(frozen=True)
class View:
    screen: Screen
    language: str = "en"
    """UI language: ``en``, ``sv``, ``fi`` or ``nb``."""
    game: GameKind = GameKind.SCRABBLE
    players: tuple[PlayerView, ...] = ()
    board: BoardView | None = None
    history: tuple[MoveRow, ...] = ()
    bag_count: int | None = None
    clock_mode: ClockMode = ClockMode.NONE
    timer: TimerView | None = None
    proposal: Proposal | None = None
    verdict: Verdict | None = None
    judge_words: tuple[str, ...] = ()
    """JUDGE/CHALLENGE: the words being judged (when the verdict is pending or shown)."""
    alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    """Letters of the game's tile set (``engine.tiles.load_tileset(name).alphabet``) for the keyboard."""
    form: FormView | None = None
    calibration: Calibration | None = None
    ordskifte: OrdskifteView | None = None
    keywords: KeywordsView | None = None
    start_draw: Any = None
    """START_DRAW: a :class:`device.start_draw.StartDrawView`."""
    missed: Any = None
    """MISSED: a :class:`device.missed.MissedView`."""
    hint_view: Any = None
    """HINT: a :class:`device.hint.HintView`."""
    solo: Any = None
    """SCOREBOARD/END of solo practice (one player): a :class:`device.solo_play.SoloView`."""
    warnings: tuple[Notice, ...] = ()
    title_key: str = ""
    message: Text | None = None
    """News or a refusal, shown in the message band of every screen."""
    #: How to show ``message``: INFO (neutral news), WARNING, ERROR (something was refused).
    message_severity: Severity = Severity.ERROR
    winner: tuple[int, ...] = ()
    """END: winning player indices."""
    can_undo: bool = True
    export_paths: tuple[str, ...] = ()
    """END: where the GCG/JSON were written."""
    racks: RackEntry | None = None
    """END_RACKS: whose leftover tiles are being entered."""
    final: FinalScores | None = None
    """END: the score breakdown and why the game ended."""
    paused: bool = False
    """The game clock is stopped (a PAUSED label and a RESUME button are shown)."""
    hint: bool = False
    """SCOREBOARD: the players chose the family hint (a HINT button in the menu)."""


# ---------------------------------------------------------------------------------------------
# Actions


class ActionKind(enum.Enum):
    # core actions
    CONFIRM = "confirm"
    CORRECT_TILE = "correct_tile"
    """square + letter ("" removes the tile). Without letter (None): local, opens the letter picker."""
    SET_BLANK = "set_blank"
    """square + letter. Without letter: local."""
    CHALLENGE = "challenge"
    UNDO = "undo"
    """Take back the last event (the touch screen asks first: ASK_UNDO, then UNDO)."""
    RACK = "rack"
    """END_RACKS: text = the tiles left on the rack of the player asked (empty: none)."""
    EXCHANGE = "exchange"
    PASS = "pass"
    MANUAL_ENTRY = "manual_entry"
    """Open the manual-entry screen."""
    MANUAL_MOVE = "manual_move"
    """text = the move in GCG notation."""
    JUDGE = "judge"
    """Open the word-judge screen."""
    JUDGE_WORDS = "judge_words"
    """words = the words to judge."""
    NEW_GAME = "new_game"
    """Open the new-game form."""
    START_GAME = "start_game"
    """Start with the form's values (the core holds them)."""
    SET_OPTION = "set_option"
    """key + text = new value (form/settings)."""
    SETTINGS = "settings"
    CALIBRATE = "calibrate"
    SAVE_CALIBRATION = "save_calibration"
    BACK = "back"
    OK = "ok"
    """Dismiss a MESSAGE / verdict."""
    PLAYER_BUTTON = "player_button"
    """player = index; the same as pressing that player's hardware button."""
    PAUSE = "pause"
    RESUME = "resume"
    END_GAME = "end_game"
    EXPORT = "export"
    MISSED_MOVES = "missed_moves"
    HINT = "hint"
    """SCOREBOARD: open the family-hint screen (only in a game whose players chose it)."""
    HINT_RACK = "hint_rack"
    """HINT: text = the rack typed ("?" a blank)."""
    """END: open the moves-you-missed screen (only once the game has ended)."""
    MAKE_WORD = "make_word"
    """Ordskifte: player + text (the new word)."""
    STEAL = "steal"
    """Ordskifte: player (thief), target (victim), old (stolen word), text (new word)."""
    DISPUTE = "dispute"
    """Ordskifte: challenge the last word in the dictionary (target = player who played it)."""
    KEYWORDS_WORDS = "keywords_words"
    """Keywords: player + words + number (unused keys) for the round."""
    NEXT_ROUND = "next_round"
    QUIT = "quit"
    # local (widget) actions: consumed by the renderer
    KEY = "key"
    """text = the letter typed on the on-screen keyboard."""
    BACKSPACE = "backspace"
    SPACE = "space"
    ENTER = "enter"
    SELECT_WORD = "select_word"
    """Ordskifte: target + old = the rail word picked to steal."""
    SELECT_PLAYER = "select_player"
    """Keywords entry: player whose words are being typed."""
    EDIT_OPTION = "edit_option"
    """key: start editing a text option with the keyboard."""
    CANCEL_EDIT = "cancel_edit"
    ASK_UNDO = "ask_undo"
    """Show the "really undo?" question (UNDO from it, CANCEL_EDIT closes it)."""
    MENU = "menu"
    """SCOREBOARD: show the less used buttons (judge, settings, end game) in place of the usual ones."""


_LOCAL = frozenset({
    ActionKind.KEY, ActionKind.BACKSPACE, ActionKind.SPACE, ActionKind.ENTER, ActionKind.SELECT_WORD,
    ActionKind.SELECT_PLAYER, ActionKind.EDIT_OPTION, ActionKind.CANCEL_EDIT, ActionKind.ASK_UNDO,
    ActionKind.MENU,
})


@dataclass(frozen=True)
class UiAction:
    kind: ActionKind
    square: Pos | None = None
    letter: str | None = None
    text: str = ""
    words: tuple[str, ...] = ()
    player: int | None = None
    target: int | None = None
    old: str = ""
    key: str = ""
    number: int | None = None
    extra: tuple[tuple[str, str], ...] = field(default=())

    @property
    def is_local(self) -> bool:
        """True for widget actions the renderer handles itself; the core never sees them."""
        if self.kind in _LOCAL:
            return True
        return self.kind in (ActionKind.CORRECT_TILE, ActionKind.SET_BLANK) and self.letter is None

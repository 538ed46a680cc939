# SPDX-License-Identifier: GPL-3.0-or-later
"""GCG game records: read, replay-check and write.

The reader takes bytes (or text) and a source name for messages; opening
files is the caller's business. It understands UTF-8 and ISO-8859-1
(``#character-encoding``; without it, UTF-8 if the bytes decode, else
ISO-8859-1), ``#orientation lettered-rows``, played-through letters as ``.``,
``(LI)`` or in full, scores with or without ``+``, blanks in lower case and
every event type of ../shared/RULES.md §5.3.

>>> record = parse_gcg(b"#player1 ann Ann Example\\n#player2 bob Bob\\n>ann: AEHRTWY 8D WHEAT +30 30\\n")
>>> result = replay(record, tiles="en")
>>> result.game.scores, result.mismatches
([30, 0], [])
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import DataFileError, EngineError, GcgError, InvalidNotation
from engine.game import Game, GameEvent, Outcome
from engine.inputs import ascii_int, clean_name, is_ascii_int
from engine.moves import (
    ChallengeBonus,
    Exchange,
    Move,
    Pass,
    Placement,
    RackPoints,
    TimePenalty,
    Withdraw,
)
from engine.rules import RackAccounting, Rules
from engine.tiles import available_tilesets, load_tileset

SUPPORTED_ENCODINGS = {"utf-8": "utf-8", "utf8": "utf-8", "iso-8859-1": "latin-1", "iso8859-1": "latin-1",
                       "latin-1": "latin-1", "latin1": "latin-1"}

#: Lexicon-name prefixes and the language of their tile set.
LEXICON_LANGUAGES = (
    ("NWL", "en"), ("CSW", "en"), ("TWL", "en"), ("OWL", "en"), ("ECWL", "en"), ("CEL", "en"), ("AMERICA", "en"),
    ("OSPS", "pl"), ("FRA", "fr"), ("ODS", "fr"), ("NSF", "no"), ("RD", "de"), ("DSW", "de"), ("GERMAN", "de"),
    ("D25", "de"), ("DEUTSCH", "de"), ("SAOL", "sv"), ("SV", "sv"), ("FISF", "fr"), ("KOTUS", "fi"),
)
#: macondo letter-distribution names.
DISTRIBUTION_LANGUAGES = {"english": "en", "german": "de", "norwegian": "no", "swedish": "sv", "french": "fr",
                          "polish": "pl", "finnish": "fi", "estonian": "et"}


#: The ``#note`` prefix of the outcome line Ordvakt writes at the end of a finished game.
OUTCOME_NOTE = "ordvakt-outcome"


class LineKind(enum.Enum):
    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    WITHDRAW = "withdraw"
    CHALLENGE = "challenge"
    TIME = "time"
    RACK = "rack"


@dataclass(frozen=True)
class GcgPlayer:
    nick: str
    name: str


@dataclass
class GcgLine:
    """One event line as written, before it is replayed."""

    lineno: int
    nick: str
    rack: str | None
    kind: LineKind
    position: str = ""
    word: str = ""
    tiles: str = ""
    score: int = 0
    cumulative: int = 0
    note: str = ""


@dataclass
class GcgRecord:
    source: str
    players: list[GcgPlayer]
    lines: list[GcgLine]
    pragmas: dict[str, list[str]] = field(default_factory=dict)
    encoding: str = "utf-8"
    lettered_rows: bool = False
    final_racks: dict[int, str] = field(default_factory=dict)

    def pragma(self, name: str) -> str | None:
        values = self.pragmas.get(name)
        return values[0] if values else None

    @property
    def lexicon(self) -> str | None:
        return self.pragma("lexicon")

    @property
    def outcome(self) -> dict[str, str]:
        """How the game ended as Ordvakt wrote it (``#note ordvakt-outcome reason=... winners=...``); {} if not."""
        value = self.pragma(OUTCOME_NOTE)
        return dict(part.split("=", 1) for part in (value or "").split() if "=" in part)


def decode_gcg(data: bytes, source: str = "<gcg>") -> tuple[str, str]:
    """Decode a record's bytes; returns (text, encoding used)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    first = data.split(b"\n", 1)[0].strip()
    m = re.match(rb"#character-encoding\s+(\S+)", first)
    if m:
        declared = m.group(1).decode("ascii", "replace")
        encoding = SUPPORTED_ENCODINGS.get(declared.lower())
        if encoding is None:
            raise GcgError(f"unsupported character encoding {declared!r} (supported: UTF-8, ISO-8859-1)", source, 1)
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise GcgError(f"the file declares {declared} but byte {exc.object[exc.start]:#04x} is not {declared}",
                           source, line) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


_SCORE = re.compile(r"[+-]?[0-9]+")
#: A record bigger than this is not a game (a long game is a few kilobytes).
MAX_GCG_BYTES = 2_000_000
#: Digits of a score or exchange count.
MAX_SCORE_DIGITS = 6
_RACK = re.compile(r"^(?:[^\W\d_]|\?)+$")


def parse_gcg(data: bytes | str, source: str = "<gcg>") -> GcgRecord:
    """Parse a GCG record (bytes are decoded as :func:`decode_gcg` says)."""
    if len(data) > MAX_GCG_BYTES:
        raise GcgError(f"{len(data):,} bytes is too big for a game record (at most {MAX_GCG_BYTES:,})", source)
    if isinstance(data, bytes):
        text, encoding = decode_gcg(data, source)
    else:
        text, encoding = data, "utf-8"
    record = GcgRecord(source=source, players=[], lines=[], encoding=encoding)
    nick_players: dict[str, int] = {}
    last_note_target: GcgLine | None = None
    in_note = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r").strip()
        if not line:
            continue
        if in_note and not line.startswith(("#", ">")):
            # Some exporters continue a note on plain lines (utf8_dos.gcg).
            if last_note_target is not None:
                last_note_target.note += "\n" + line
            else:
                record.pragmas["note"][-1] += "\n" + line
            continue
        in_note = line.startswith("#note") or (in_note and line.startswith("#-"))
        if line.startswith("#"):
            m = re.match(r"#(\S*)\s*(.*)", line)
            assert m
            name, value = m.group(1), m.group(2).strip()
            if name == "-" or line.startswith("#- "):  # continuation of a note
                if last_note_target is not None:
                    last_note_target.note += "\n" + value
                continue
            if name == "note" and value.startswith(OUTCOME_NOTE + " "):
                # Ordvakt's end-of-game line: a note to other readers, the game's outcome to us.
                record.pragmas.setdefault(OUTCOME_NOTE, []).append(value[len(OUTCOME_NOTE):].strip())
                in_note = False
                continue
            if name == "note":
                if last_note_target is not None:
                    last_note_target.note = (last_note_target.note + "\n" + value).strip("\n")
                else:
                    record.pragmas.setdefault("note", []).append(value)
                continue
            if name in ("player1", "player2", "player3", "player4"):
                parts = value.split(None, 1)
                if not parts:
                    raise GcgError(f"#{name} needs a nickname", source, lineno)
                index = int(name[-1]) - 1
                owner = nick_players.get(parts[0])
                if owner is not None and owner != index:
                    raise GcgError(f"#{name} nickname {parts[0]!r} is already player {owner + 1}'s; every player "
                                   "needs their own nickname", source, lineno)
                while len(record.players) <= index:
                    record.players.append(GcgPlayer("", ""))
                record.players[index] = GcgPlayer(parts[0], parts[1] if len(parts) > 1 else parts[0])
                nick_players[parts[0]] = index
                continue
            if name in ("rack1", "rack2", "rack3", "rack4"):
                record.final_racks[int(name[-1]) - 1] = value
                continue
            if name == "orientation":
                if value.lower() not in ("lettered-rows", "standard", "numbered-rows"):
                    raise GcgError(f"unknown #orientation {value!r} (known: lettered-rows, standard)", source, lineno)
                record.lettered_rows = value.lower() == "lettered-rows"
            record.pragmas.setdefault(name, []).append(value)
            continue
        if line.startswith(">"):
            event = _parse_event_line(line, lineno, source)
            if event.nick not in nick_players:
                if len(record.players) >= 4 or (record.players and all(p.nick for p in record.players)
                                                and len(record.players) >= 2):
                    raise GcgError(
                        f"player {event.nick!r} is not one of the declared players "
                        f"{[p.nick for p in record.players]!r}", source, lineno)
                nick_players[event.nick] = len(record.players)
                record.players.append(GcgPlayer(event.nick, event.nick))
            record.lines.append(event)
            last_note_target = event
            continue
        raise GcgError(f"not a GCG line: {line[:60]!r} (lines start with '#' or '>')", source, lineno)
    if not record.players:
        raise GcgError("no players: the record has neither #player lines nor moves", source)
    return record


def _parse_event_line(line: str, lineno: int, source: str) -> GcgLine:
    m = re.match(r">([^:\s]+)\s*:\s*(.*)$", line)
    if not m:
        raise GcgError(f"malformed event line {line[:60]!r} (expected '>nick: ...')", source, lineno)
    nick, rest = m.group(1), m.group(2).split()
    if len(rest) < 3 or not _SCORE.fullmatch(rest[-1]) or not _SCORE.fullmatch(rest[-2]):
        raise GcgError(f"event line {line[:60]!r} must end with a score and a cumulative total", source, lineno)
    try:
        score = ascii_int(rest[-2], "score", max_digits=MAX_SCORE_DIGITS)
        cumulative = ascii_int(rest[-1], "cumulative total", max_digits=MAX_SCORE_DIGITS)
    except ValueError as exc:
        raise GcgError(str(exc), source, lineno) from None
    body = rest[:-2]
    rack = None
    if len(body) >= 2 and _RACK.match(body[0]):
        rack, body = body[0], body[1:]
    elif len(body) == 1 and body[0] not in ("-", "--") and _RACK.match(body[0]):
        raise GcgError(f"event line {line[:60]!r} has a rack but no move", source, lineno)

    def make(kind: LineKind, **kw) -> GcgLine:
        return GcgLine(lineno, nick, rack, kind, score=score, cumulative=cumulative, **kw)

    first = body[0]
    if len(body) == 2:
        return make(LineKind.PLAY, position=first, word=body[1])
    if len(body) != 1:
        raise GcgError(f"cannot read the move in {line[:60]!r}", source, lineno)
    if first == "-":
        return make(LineKind.PASS)
    if first == "--":
        return make(LineKind.WITHDRAW)
    if first.startswith("-"):
        if first[1:] and first[1:].isdigit() and not is_ascii_int(first[1:], 2):
            raise GcgError(f"exchange count {first[1:][:12]!r} is not a number of tiles (0-99)", source, lineno)
        return make(LineKind.EXCHANGE, tiles=first[1:])
    if first == "(challenge)":
        return make(LineKind.CHALLENGE)
    if first == "(time)":
        return make(LineKind.TIME)
    if first.startswith("(") and first.endswith(")"):
        return make(LineKind.RACK, tiles=first[1:-1])
    raise GcgError(f"cannot read the move {first!r} in {line[:60]!r}", source, lineno)


# -- choosing the rules a record was played under ------------------------------------------------------

def guess_tileset(record: GcgRecord, extra_dirs: Iterable[Path] = ()) -> str:
    """Name of the tile set a record uses: declared, from its lexicon, or from the letters it uses."""
    for pragma in ("tile-set", "tile-distribution"):
        value = record.pragma(pragma)
        if value:
            if value in available_tilesets(extra_dirs):
                return value
            lang = DISTRIBUTION_LANGUAGES.get(value.lower())
            if lang:
                return f"scrabble-{lang}"
    for note in record.pragmas.get("note", []):
        m = re.match(r"LetterDistribution:\s*(\w+)", note)
        if m and m.group(1).lower() in DISTRIBUTION_LANGUAGES:
            return f"scrabble-{DISTRIBUTION_LANGUAGES[m.group(1).lower()]}"
    lexicon = (record.lexicon or "").upper()
    for prefix, lang in LEXICON_LANGUAGES:
        if lexicon.startswith(prefix):
            return f"scrabble-{lang}"
    letters: set[str] = set()
    for line in record.lines:
        for text in (line.rack or "", line.word, line.tiles):
            letters.update(ch.upper() for ch in text if ch.isalpha())
    preference = ["scrabble-en", "scrabble-de", "scrabble-fr", "scrabble-sv", "scrabble-no", "scrabble-fi",
                  "scrabble-et", "scrabble-pl"]
    for name in preference:
        if letters <= set(load_tileset(name, extra_dirs).alphabet):
            return name
    raise GcgError(f"no known tile set has all the letters {''.join(sorted(letters))!r}; pass --tiles",
                   record.source)


def rules_for(record: GcgRecord, *, tiles: str | None = None, layout: str | None = None,
              extra_dirs: Iterable[Path] = ()) -> Rules:
    """The rules to replay ``record`` with; ``tiles`` (a language or tile-set name) and ``layout`` override.
    ``extra_dirs`` are searched for tile sets and layouts before the built-in ones."""
    extra_dirs = list(extra_dirs)
    name = tiles or guess_tileset(record, extra_dirs)
    if "-" not in name and not name.lower().endswith(".toml"):
        name = f"scrabble-{ {'nb': 'no'}.get(name.lower(), name.lower()) }"
    try:
        tileset = load_tileset(name, extra_dirs)
    except DataFileError as exc:
        raise GcgError(str(exc), record.source) from None
    longest_rack = max((len(line.rack) for line in record.lines if line.rack), default=7)
    rack_size = 9 if longest_rack > 7 else 7
    accounting = RackAccounting.TWICE_OPPONENT if len(record.players) == 2 else RackAccounting.OWN_AND_SUM
    try:
        if tileset.game == "alfapet":
            return Rules.alfapet(tileset.language, tileset=name, layout=layout or "alfapet-17", extra_dirs=extra_dirs)
        # A record is replayed as it was played: the box rules' "two passes in a row end it" (3-4 players) must not
        # refuse a later move of a record kept under another club rule.
        return Rules.scrabble(tileset.language, tileset=name, layout=layout or "scrabble-15", rack_size=rack_size,
                              rack_accounting=accounting, extra_dirs=extra_dirs, player_passes_in_a_row_limit=None)
    except DataFileError as exc:
        raise GcgError(str(exc), record.source) from None


# -- replay -------------------------------------------------------------------------------------------

class MismatchKind(enum.Enum):
    SCORE = "score"  # the engine scores the move differently
    TOTAL = "total"  # the record's running total does not add up
    ILLEGAL = "illegal"  # the move breaks the rules (replayed anyway)


@dataclass(frozen=True)
class Mismatch:
    line: int
    kind: MismatchKind
    expected: int | str
    computed: int | str
    text: str = ""

    def __str__(self) -> str:
        if self.kind is MismatchKind.ILLEGAL:
            return f"line {self.line}: illegal move {self.text!r}: {self.computed}"
        what = "score" if self.kind is MismatchKind.SCORE else "running total"
        return f"line {self.line}: {what} of {self.text!r} is {self.expected} in the record, computed {self.computed}"


@dataclass
class Replay:
    record: GcgRecord
    game: Game
    mismatches: list[Mismatch]
    #: For each event line, the index into game.events (same order).
    moves: int = 0


def to_move(line: GcgLine, game: Game, lettered_rows: bool, source: str) -> Move:
    """The engine move a GCG line stands for on ``game``'s current board."""
    if line.kind is LineKind.PLAY:
        try:
            return Placement.from_notation(f"{line.position} {line.word}", game.board, lettered_rows=lettered_rows)
        except InvalidNotation as exc:
            raise GcgError(str(exc), source, line.lineno) from None
    if line.kind is LineKind.EXCHANGE:
        return Exchange(count=int(line.tiles)) if is_ascii_int(line.tiles, 2) else Exchange(line.tiles)
    if line.kind is LineKind.PASS:
        return Pass()
    if line.kind is LineKind.WITHDRAW:
        return Withdraw()
    if line.kind is LineKind.CHALLENGE:
        return ChallengeBonus(line.score)
    if line.kind is LineKind.TIME:
        return TimePenalty(line.score)
    return RackPoints(line.tiles)


def replay(record: GcgRecord, *, tiles: str | None = None, layout: str | None = None,
           lettered_rows: bool | None = None, rules: Rules | None = None, extra_dirs: Iterable[Path] = ()) -> Replay:
    """Replay every line, checking each score and running total against the record."""
    rules = rules or rules_for(record, tiles=tiles, layout=layout, extra_dirs=extra_dirs)
    lettered = record.lettered_rows if lettered_rows is None else lettered_rows
    nicks = {p.nick: i for i, p in enumerate(record.players)}
    game = Game(rules, [p.name or p.nick for p in record.players])
    mismatches: list[Mismatch] = []
    previous_total = [0] * len(record.players)
    for line in record.lines:
        player = nicks[line.nick]
        move = to_move(line, game, lettered, record.source)
        text = f"{line.position} {line.word}".strip() or line.kind.value
        problems = game.validate(move, player=player, rack=_rack_for_check(line))
        if problems:
            mismatches.append(Mismatch(line.lineno, MismatchKind.ILLEGAL, "", "; ".join(map(str, problems)), text))
        try:
            event = game.play(move, player=player, rack=line.rack, note=line.note, check=False)
        except EngineError as exc:
            raise GcgError(str(exc), record.source, line.lineno) from None
        if event.score != line.score:
            mismatches.append(Mismatch(line.lineno, MismatchKind.SCORE, line.score, event.score, text))
        if previous_total[event.player] + line.score != line.cumulative:
            mismatches.append(Mismatch(line.lineno, MismatchKind.TOTAL, line.cumulative,
                                       previous_total[event.player] + line.score, text))
        previous_total[event.player] = line.cumulative
    return Replay(record, game, mismatches, len(record.lines))


def _rack_for_check(line: GcgLine) -> str | None:
    # Some exporters list only the tiles played (incomplete.gcg); a rack check is still meaningful.
    return line.rack if line.kind is LineKind.PLAY and line.rack else None


# -- writing ------------------------------------------------------------------------------------------

def write_gcg(game: Game, *, nicks: Iterable[str] | None = None, names: Iterable[str] | None = None,
              lexicon: str | None = None, title: str | None = None, lettered_rows: bool = False,
              final_racks: dict[int, str] | None = None, outcome: Outcome | None = None) -> str:
    """The game as GCG text (UTF-8 declared). GCG is a two-player format.

    ``names`` replaces the game's player names in the ``#player`` lines (one person's two solo racks: "Ann 1",
    "Ann 2"). A finished game ends with ``#note ordvakt-outcome reason=... winners=... [tie-break=...]``
    (``outcome``, else :meth:`Game.outcome`): a plain note to other GCG readers, read back into
    :attr:`GcgRecord.outcome`.
    """
    if len(game.players) != 2:
        raise GcgError(f"GCG records two-player games; this game has {len(game.players)} players "
                       "(export the JSON record instead)")
    names = list(game.players if names is None else names)
    if len(names) != len(game.players):
        raise GcgError(f"GCG names {names!r}: the game has {len(game.players)} players")
    nick_list = gcg_nicks(names) if nicks is None else list(nicks)
    if len(set(nick_list)) != len(nick_list) or not all(_NICK.fullmatch(n) for n in nick_list):
        raise GcgError(f"GCG nicknames {nick_list!r} must be different and have no spaces, ':' or control characters")
    names = [clean_name(n) or nick for n, nick in zip(names, nick_list, strict=True)]
    out = ["#character-encoding UTF-8"]
    for i, (nick, name) in enumerate(zip(nick_list, names, strict=True)):
        out.append(f"#player{i + 1} {nick} {name}")
    if title:
        out.append(f"#title {clean_name(title, 200)}")
    if lexicon:
        out.append(f"#lexicon {clean_name(lexicon, 80)}")
    out.append(f"#tile-set {game.rules.tileset.name}")
    if game.rules.layout.name != "scrabble-15":
        out.append(f"#board-layout {game.rules.layout.name}")
    if lettered_rows:
        out.append("#orientation lettered-rows")
    replayed = Game(game.rules, game.players, first=game.first)
    for event in game.events:
        out.append(_event_line(event, replayed, nick_list[event.player], lettered_rows))
        if event.note:
            first, *rest = [clean_name(part, 2000) for part in event.note.splitlines()] or [""]
            out.append(f"#note {first}")
            out.extend(f"#- {more}" for more in rest)
        replayed.replay([event])
    if (outcome := outcome or game.outcome()) is not None:
        out.append(_outcome_note(outcome, nick_list))
    for index, rack in sorted((final_racks or {}).items()):
        out.append(f"#rack{index + 1} {rack}")
    return "\n".join(out) + "\n"


def _outcome_note(outcome: Outcome, nicks: list[str]) -> str:
    parts = [f"reason={outcome.reason.value}", "winners=" + ",".join(nicks[i] for i in outcome.winners)]
    if outcome.tie_broken_by:
        parts.append(f"tie-break={outcome.tie_broken_by}")
    return f"#note {OUTCOME_NOTE} " + " ".join(parts)


_NICK = re.compile(r"[^\s:\x00-\x1f\x7f\x85]{1,40}")


def gcg_nicks(names: Iterable[str]) -> list[str]:
    """One GCG nickname per player, unique even for names that differ only in punctuation or spacing
    ("Ann Marie" and "Ann-Marie" become ``Ann_Marie`` and ``Ann_Marie_2``).

    >>> gcg_nicks(["Ann Marie", "Ann-Marie", "", "Bo\\nb"])
    ['Ann_Marie', 'Ann_Marie_2', 'player3', 'Bo_b']
    """
    nicks: list[str] = []
    for index, name in enumerate(names):
        base = re.sub(r"\W+", "_", clean_name(name, 32)).strip("_") or f"player{index + 1}"
        nick, n = base, 1
        while nick in nicks:
            n += 1
            nick = f"{base}_{n}"
        nicks.append(nick)
    return nicks


def _event_line(event: GameEvent, before: Game, nick: str, lettered_rows: bool) -> str:
    move = event.move
    rack = f"{event.rack} " if event.rack else ""
    if isinstance(move, Placement):
        body = move.notation(before.board, lettered_rows=lettered_rows)
    elif isinstance(move, Exchange):
        body = f"-{move.tiles}" if move.tiles else f"-{move.count}"
    elif isinstance(move, Pass):
        body = "-"
    elif isinstance(move, Withdraw):
        body = "--"
    elif isinstance(move, ChallengeBonus):
        body = "(challenge)"
    elif isinstance(move, TimePenalty):
        body = "(time)"
    else:
        assert isinstance(move, RackPoints)
        body = f"({move.rack})"
    return f">{nick}: {rack}{body} {event.score:+d} {event.cumulative}"

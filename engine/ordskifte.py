# SPDX-License-Identifier: GPL-3.0-or-later
"""Ordskifte, the Norwegian word-stealing game (rules: ../shared/RULES.md §2).

Notation. A word on a rail is written in capitals, the joker as the lower-case letter it stands for
(``TApET``). ``?`` is a joker whose letter is not known; it is accepted only where the letter does
not matter (the word being stolen, ``?ATT``). Input may be typed in any case *except* that lower case
always means "joker", so callers fold user text with care.

>>> validate_steal("STJELE", "SKJELETT")
StealCheck(ok=True, reason='', problem=None, added='KT')
>>> validate_steal("?ATT", "TApET").ok
True
>>> validate_steal("STJELE", "STJELE").reason
'adds no letter'

:class:`OrdskifteGame` is the game state a UI drives: explicit methods for every rule event
(:meth:`~OrdskifteGame.make_word`, :meth:`~OrdskifteGame.steal`, :meth:`~OrdskifteGame.swap_joker`,
:meth:`~OrdskifteGame.turn_expired`, :meth:`~OrdskifteGame.reject_last_play`), an append-only
``events`` list, and ``to_dict``/``from_dict``. Two modes:

* **tracked** (``track_tiles=True``): the engine keeps the bag, the face-up board pool and every
  player's hidden tile, draws with a seeded generator and checks every play against the tiles there
  are. For simulations, tests and a fully digital table.
* **companion** (``track_tiles=False``, the device beside a real board): the bag and the board are not
  known, so only what the words themselves show is enforced (word length, steals, rails, turn order,
  and never more copies of a letter on the rails than the set has).

Timer: every successful word or steal restarts the turn timer (event ``WORD``/``STEAL``); a
``TURN_ENDED`` event starts the next player's timer. The engine keeps no clock itself.

Resolutions of the seed's gaps (RULES §2 [R]), all implemented here:
(i) a joker swap must put in the letter the joker stands for and does not capture the word;
(ii) a rejected steal restores the victim's word and returns only the added tiles to the bag;
(iii) with all 14 rails in use only steals are allowed; (iv) an empty bag means no draw, and once a
full round passes with the bag empty and no word made, most rails wins (ties share the win);
(v) "closest to A" uses A–Z Æ Ø Å, a joker drawn for the start ranks after Å;
(vi) 2–4 players. A rejected word's rail goes back to the spare rails.
"""

from __future__ import annotations

import enum
import random
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from engine.errors import DataFileError, GameStateError, IllegalMove, InvalidNotation

JOKER = "?"
#: The Norwegian alphabet order used for "closest to A".
NORWEGIAN_ORDER = "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ"
#: Letters of the 126-tile set (no Q, X, Z); matches ``alphabet`` in ordskifte-no.toml.
TILE_LETTERS = "ABCDEFGHIJKLMNOPRSTUVWYÆØÅ"
MIN_WORD = 3
RAILS = 14
WIN_WORDS = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Timer choices printed on the box: 1 minute by default, 30 s for speed, 2–3 minutes for beginners.
TIMER_CHOICES = (30, 60, 120, 180)
TILESET_NAME = "ordskifte-no"
STATE_VERSION = 1


class WordList(Protocol):
    """What the engine needs from a dictionary (``engine.lexicon.Lexicon`` fits)."""

    def contains(self, word: str) -> bool: ...


# --------------------------------------------------------------------------------------------- tiles


@dataclass(frozen=True)
class OrdskifteTiles:
    """The letters of the set and how many of each; ``jokers`` is the number of joker tiles."""

    alphabet: str
    counts: Mapping[str, int]
    jokers: int

    def full_bag(self) -> Counter[str]:
        bag = Counter(dict(self.counts))
        bag[JOKER] = self.jokers
        return bag

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.jokers


def load_tiles(name: str = TILESET_NAME) -> OrdskifteTiles:
    """The Ordskifte tile set (126 tiles: 125 letters and one joker) from ``engine/data/tilesets``."""
    try:
        from engine.tiles import load_tileset
    except ImportError:  # the generic loader is optional: read the TOML directly
        return _read_tiles_toml(name)
    ts = load_tileset(name)
    return OrdskifteTiles(ts.alphabet, dict(ts.counts), ts.blanks)


def _read_tiles_toml(name: str) -> OrdskifteTiles:
    path = resources.files("engine") / "data" / "tilesets" / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        counts = {letter: int(pair[0]) for letter, pair in data["tiles"].items()}
        jokers = int(data.get("special", {}).get("blank", [0])[0])
        return OrdskifteTiles(str(data["alphabet"]), counts, jokers)
    except (OSError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise DataFileError(f"cannot read tile set {name!r} ({path}): {exc}") from exc


def _letter_rank(tile: str, order: str = NORWEGIAN_ORDER) -> int:
    return order.index(tile) if tile in order else len(order)


def who_starts(letters: Sequence[str]) -> list[int]:
    """Indices of the players whose drawn tile is closest to A; more than one means they draw again.

    >>> who_starts("DLOT"), who_starts(["Ø", "A", "A"])
    ([0], [1, 2])
    """
    if not letters:
        raise ValueError("who_starts needs at least one drawn letter")
    ranks = [_letter_rank(t.upper() if t != JOKER else t) for t in letters]
    best = min(ranks)
    return [i for i, r in enumerate(ranks) if r == best]


def _sorted_tiles(tiles: Counter[str]) -> str:
    return "".join(sorted(tiles.elements(), key=_letter_rank))


# --------------------------------------------------------------------------------------------- words


@dataclass(frozen=True)
class RailWord:
    """A word as laid on a rail, in notation: capitals, a joker as the lower-case letter it stands for
    or ``?``."""

    notation: str

    @classmethod
    def parse(cls, text: str, *, tiles: str = TILE_LETTERS, allow_unknown_joker: bool = True) -> RailWord:
        """Check notation: capitals must be letters the set has tiles for (``tiles``); a joker may
        stand for any letter of the Norwegian alphabet."""
        raw = text.strip()
        if not raw:
            raise InvalidNotation("empty word; type the letters, a joker as '?' or a lower-case letter")
        for ch in raw:
            if ch == JOKER:
                if not allow_unknown_joker:
                    raise InvalidNotation(
                        f"{raw!r}: say which letter the joker stands for (a lower-case letter, e.g. 'TApET')"
                    )
            elif ch.upper() not in NORWEGIAN_ORDER or not ch.isalpha():
                raise InvalidNotation(
                    f"{raw!r}: {ch!r} is not a letter; use {tiles}, '?' or a lower-case letter for the joker"
                )
            elif ch.isupper() and ch not in tiles:
                raise InvalidNotation(
                    f"{raw!r}: there is no {ch} tile in Ordskifte; only the joker can stand for it "
                    f"(write {ch.lower()!r})"
                )
        return cls(raw)

    @property
    def text(self) -> str:
        """The word as read, in capitals (``?`` where the joker's letter is unknown)."""
        return self.notation.upper()

    @property
    def jokers(self) -> int:
        return sum(1 for ch in self.notation if ch == JOKER or ch.islower())

    @property
    def letter_tiles(self) -> Counter[str]:
        """The real letter tiles (jokers left out)."""
        return Counter(ch for ch in self.notation if ch.isupper())

    @property
    def tiles(self) -> Counter[str]:
        """Every physical tile, jokers as ``?``."""
        tiles = self.letter_tiles
        if self.jokers:
            tiles[JOKER] = self.jokers
        return tiles

    def __len__(self) -> int:
        return len(self.notation)

    def __str__(self) -> str:
        return self.notation


def _as_word(word: str | RailWord, allow_unknown_joker: bool) -> RailWord:
    if isinstance(word, RailWord):
        if not allow_unknown_joker and JOKER in word.notation:
            return RailWord.parse(word.notation, allow_unknown_joker=False)
        return word
    return RailWord.parse(word, allow_unknown_joker=allow_unknown_joker)


class StealProblem(enum.Enum):
    TOO_SHORT = "too_short"  # the stolen word itself is not a legal rail word
    MISSING_LETTERS = "missing_letters"
    NO_LETTER_ADDED = "no_letter_added"
    NOT_IN_DICTIONARY = "not_in_dictionary"


@dataclass(frozen=True)
class StealCheck:
    """Outcome of :func:`validate_steal`: ``added`` lists the tiles the thief must add (jokers as ``?``)."""

    ok: bool
    reason: str = ""
    problem: StealProblem | None = None
    added: str = ""
    #: The values in ``reason`` by name (``missing``: the letters the new word lacks).
    values: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)


def validate_steal(
    old: str | RailWord, new: str | RailWord, lexicon: WordList | None = None, *, jokers: int = 1
) -> StealCheck:
    """Is turning ``old`` into ``new`` a legal steal? Pure: no game state, tiles unchecked.

    Every letter tile of ``old`` must be in ``new``, its jokers stay jokers (their letter may change),
    and at least one tile (a joker counts) must be added. Raises InvalidNotation for text that is not
    a word in notation, for a ``?`` in ``new``, or for more jokers than the set's ``jokers`` (usually
    lower case typed by habit).
    """
    before = _as_word(old, allow_unknown_joker=True)
    after = _as_word(new, allow_unknown_joker=False)
    for word in (before, after):
        if word.jokers > jokers:
            raise InvalidNotation(
                f"{word.notation!r} has {word.jokers} jokers but the set has {jokers}; "
                "write letters in capitals and only the joker in lower case (or '?')"
            )
    if len(before) < MIN_WORD:
        return StealCheck(
            False,
            f"{before} has fewer than {MIN_WORD} letters, so it is not a word on a rail",
            StealProblem.TOO_SHORT,
        )
    missing = before.letter_tiles - after.letter_tiles
    lost_jokers = before.jokers - after.jokers
    if missing or lost_jokers > 0:
        parts = [_sorted_tiles(missing)] if missing else []
        if lost_jokers > 0:
            parts.append("the joker")
        return StealCheck(
            False,
            f"does not use all letters of {before.text} (missing {' and '.join(parts)})",
            StealProblem.MISSING_LETTERS,
            values={"missing": _sorted_tiles(missing) + ("?" if lost_jokers > 0 else "")},
        )
    added = after.tiles - before.tiles
    if not added:
        return StealCheck(False, "adds no letter", StealProblem.NO_LETTER_ADDED)
    if lexicon is not None and not lexicon.contains(after.text):
        return StealCheck(
            False,
            f"{after.text} is not in the dictionary",
            StealProblem.NOT_IN_DICTIONARY,
            _sorted_tiles(added),
        )
    return StealCheck(True, added=_sorted_tiles(added))


# --------------------------------------------------------------------------------------------- game


class Phase(enum.Enum):
    PLAYING = "playing"
    FINISHED = "finished"


class EventKind(enum.Enum):
    SETUP = "setup"  # tiles laid face up on the board
    START_DRAW = "start_draw"  # tiles drawn to decide who starts (``tiles`` in player order)
    FIRST_PLAYER = "first_player"
    TILE_PLAYED = "tile_played"  # a hidden tile put on the board as a timer period begins
    WORD = "word"
    STEAL = "steal"
    JOKER_SWAP = "joker_swap"
    WORD_REJECTED = "word_rejected"
    STEAL_REJECTED = "steal_rejected"
    TURN_ENDED = "turn_ended"
    GAME_OVER = "game_over"


class TurnEnd(enum.Enum):
    TIMER = "timer"
    GAVE_UP = "gave_up"
    REJECTED = "rejected"


@dataclass(frozen=True)
class OrdskifteEvent:
    """One entry of the game log. ``rail`` is an index into the owner's rails at the time."""

    kind: EventKind
    player: int
    word: str = ""
    old: str = ""
    victim: int | None = None
    rail: int | None = None
    tiles: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        for key in ("word", "old", "victim", "rail", "tiles", "note"):
            value = getattr(self, key)
            if value not in ("", None):
                data[key] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OrdskifteEvent:
        return cls(
            EventKind(data["kind"]),
            int(data["player"]),
            data.get("word", ""),
            data.get("old", ""),
            data.get("victim"),
            data.get("rail"),
            data.get("tiles", ""),
            data.get("note", ""),
        )


@dataclass(frozen=True)
class Standing:
    player: int
    name: str
    words: int

    @property
    def needed(self) -> int:
        """Words still missing for the six-word win."""
        return max(0, WIN_WORDS - self.words)


_PLAY_KINDS = (EventKind.WORD, EventKind.STEAL)


@dataclass
class OrdskifteGame:
    """The state of one game. Build with :meth:`new`; the current player acts through the methods.

    Rule breaks raise :class:`~engine.errors.IllegalMove` (state unchanged); acting when the game is
    over raises :class:`~engine.errors.GameStateError`. With a ``lexicon``, a word or steal it does not
    contain gets the dictionary-dispute outcome at once; without one, players dispute by calling
    :meth:`reject_last_play`.
    """

    players: list[str]
    rails: list[list[RailWord]]
    current: int
    track_tiles: bool
    timer_seconds: int = 60
    pool: Counter[str] = field(default_factory=Counter)
    bag: Counter[str] = field(default_factory=Counter)
    hidden: list[str | None] = field(default_factory=list)
    phase: Phase = Phase.PLAYING
    winners: list[int] = field(default_factory=list)
    events: list[OrdskifteEvent] = field(default_factory=list)
    seed: int = 0
    draws: int = 0
    plays_this_turn: int = 0
    idle_turns: int = 0
    tiles: OrdskifteTiles = field(default_factory=load_tiles, repr=False)
    lexicon: WordList | None = field(default=None, repr=False, compare=False)

    # ----------------------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random | None = None,
        track_tiles: bool = True,
        first_player: int | None = None,
        timer_seconds: int = 60,
        lexicon: WordList | None = None,
        tiles: OrdskifteTiles | None = None,
    ) -> OrdskifteGame:
        """Set up a game. Tracked: lay 5 tiles, draw for the start, deal hidden tiles, and the
        starter's hidden tile goes on the board. Companion: ``first_player`` (default 0) starts."""
        names = [str(p) for p in players]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise GameStateError(f"Ordskifte is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(names)}: {names!r}")
        if timer_seconds <= 0:
            raise GameStateError(f"timer_seconds must be positive, got {timer_seconds!r}")
        game = cls(
            players=names,
            rails=[[] for _ in names],
            current=0,
            track_tiles=track_tiles,
            timer_seconds=timer_seconds,
            hidden=[None] * len(names),
            tiles=tiles or load_tiles(),
            lexicon=lexicon,
        )
        if not track_tiles:
            start = first_player or 0
            if not 0 <= start < len(names):
                raise GameStateError(f"first_player {first_player!r} is not one of {len(names)} players")
            game.current = start
            game._log(EventKind.FIRST_PLAYER, start)
            return game
        game.seed = (rng or random.Random()).getrandbits(64)
        game.bag = game.tiles.full_bag()
        laid = [game._draw_or_fail() for _ in range(5)]
        game.pool.update(laid)
        game._log(EventKind.SETUP, -1, tiles="".join(laid))
        contenders = list(range(len(names)))
        while len(contenders) > 1:
            drawn = [game._draw_or_fail() for _ in contenders]
            game.pool.update(drawn)
            game._log(EventKind.START_DRAW, -1, tiles="".join(drawn), note=",".join(map(str, contenders)))
            contenders = [contenders[i] for i in who_starts(drawn)]
        game.current = contenders[0] if first_player is None else first_player
        game._log(EventKind.FIRST_PLAYER, game.current)
        game.hidden = [game._draw() for _ in names]
        game._begin_period()
        return game

    # ----------------------------------------------------------------------------- queries

    @property
    def rails_in_use(self) -> int:
        return sum(len(r) for r in self.rails)

    @property
    def spare_rails(self) -> int:
        return RAILS - self.rails_in_use

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    def standings(self) -> list[Standing]:
        """Players by words on rails, most first (who is closest to six words)."""
        table = [Standing(i, name, len(self.rails[i])) for i, name in enumerate(self.players)]
        return sorted(table, key=lambda s: (-s.words, s.player))

    def board(self) -> str:
        """The face-up tiles, sorted (tracked games only)."""
        return _sorted_tiles(self.pool)

    # ----------------------------------------------------------------------------- moves

    def make_word(self, word: str | RailWord) -> OrdskifteEvent:
        """The current player lays a word from the board on a free rail."""
        self._require_playing()
        made = _as_word(word, allow_unknown_joker=False)
        if len(made) < MIN_WORD:
            raise IllegalMove(f"{made.text!r} has {len(made)} letters; a word needs at least {MIN_WORD}").coded(
                "ordskifte.too_short", word=made.text, count=len(made), min=MIN_WORD)
        if self.spare_rails <= 0:
            raise IllegalMove(f"all {RAILS} rails are in use: only steals are allowed").coded(
                "ordskifte.rails_full", rails=RAILS)
        need = made.tiles
        self._check_available(need, f"to make {made}")
        if self.lexicon is not None and not self.lexicon.contains(made.text):
            return self._reject_word(made, need, from_pool=True, note=f"{made.text} is not in the dictionary")
        p = self.current
        if self.track_tiles:
            self.pool -= need
        self.rails[p].append(made)
        event = self._log(EventKind.WORD, p, word=made.notation, rail=len(self.rails[p]) - 1, tiles=_sorted_tiles(need))
        self._after_play()
        return event

    def steal(self, victim: int, rail: int, new: str | RailWord) -> OrdskifteEvent:
        """The current player takes ``players[victim]``'s word on rail ``rail`` by making ``new`` of it."""
        self._require_playing()
        old = self._opponent_word(victim, rail)
        check = validate_steal(old, new, jokers=self.tiles.jokers)
        if not check.ok:
            problem = check.problem.value if check.problem else "refused"
            raise IllegalMove(f"cannot steal {old.notation}: {check.reason}", (check.reason,)).coded(
                f"steal.{problem}", word=old.text, **check.values)
        made = _as_word(new, allow_unknown_joker=False)
        added = made.tiles - old.tiles
        self._check_available(added, f"to turn {old} into {made}")
        p = self.current
        if self.lexicon is not None and not self.lexicon.contains(made.text):
            if self.track_tiles:
                self.pool -= added
                self.bag += added
            self._log(
                EventKind.STEAL_REJECTED,
                p,
                word=made.notation,
                old=old.notation,
                victim=victim,
                rail=rail,
                tiles=_sorted_tiles(added),
                note=f"{made.text} is not in the dictionary",
            )
            return self._end_turn(TurnEnd.REJECTED)
        if self.track_tiles:
            self.pool -= added
        del self.rails[victim][rail]
        self.rails[p].append(made)
        event = self._log(
            EventKind.STEAL,
            p,
            word=made.notation,
            old=old.notation,
            victim=victim,
            rail=rail,
            tiles=_sorted_tiles(added),
        )
        self._after_play()
        return event

    def swap_joker(self, victim: int, rail: int) -> OrdskifteEvent:
        """Replace the joker in an opponent's word by the board letter it stands for; the joker goes
        to the board and the word stays with its owner."""
        self._require_playing()
        old = self._opponent_word(victim, rail)
        positions = [i for i, ch in enumerate(old.notation) if ch.islower()]
        if not positions:
            raise IllegalMove(f"{old.notation} has no joker to swap")
        pos = positions[0]
        letter = old.notation[pos].upper()
        if self.track_tiles and self.pool[letter] < 1:
            raise IllegalMove(f"the board has no {letter} to put in place of the joker in {old.notation}")
        swapped = RailWord(old.notation[:pos] + letter + old.notation[pos + 1 :])
        if self.track_tiles:
            self.pool[letter] -= 1
            self.pool[JOKER] += 1
            self.pool += Counter()  # drop zero counts
        self.rails[victim][rail] = swapped
        return self._log(
            EventKind.JOKER_SWAP,
            self.current,
            word=swapped.notation,
            old=old.notation,
            victim=victim,
            rail=rail,
            tiles=letter,
        )

    def turn_expired(self) -> OrdskifteEvent:
        """The timer beeped: the turn ends (tiles played stay on the board), the player draws a hidden
        tile and the player to the left begins."""
        self._require_playing()
        return self._end_turn(TurnEnd.TIMER)

    def give_up(self) -> OrdskifteEvent:
        """The player cannot make a word and ends the turn before the timer."""
        self._require_playing()
        return self._end_turn(TurnEnd.GAVE_UP)

    def reject_last_play(self, reason: str = "rejected after checking the dictionary") -> OrdskifteEvent:
        """The dictionary-dispute outcome for the word or steal just made (no other play since):
        a new word goes back to the bag and its rail to the spare rails; a steal is undone and only the
        added tiles go to the bag. Either way the player loses the turn. Also reopens a game that word
        had won."""
        index = self._last_play_index()
        play = self.events[index]
        p = play.player
        if self.phase is Phase.FINISHED:
            self.phase = Phase.PLAYING
            self.winners = []
        made = RailWord(play.word)
        if play.kind is EventKind.WORD:
            self.rails[p].remove(made)
            if self.track_tiles:
                self.bag += made.tiles
            self._log(EventKind.WORD_REJECTED, p, word=made.notation, tiles=_sorted_tiles(made.tiles), note=reason)
        else:
            assert play.victim is not None and play.rail is not None
            old = RailWord(play.old)
            self.rails[p].remove(made)
            self.rails[play.victim].insert(play.rail, old)
            added = made.tiles - old.tiles
            if self.track_tiles:
                self.bag += added
            self._log(
                EventKind.STEAL_REJECTED,
                p,
                word=made.notation,
                old=old.notation,
                victim=play.victim,
                rail=play.rail,
                tiles=_sorted_tiles(added),
                note=reason,
            )
        self.plays_this_turn = max(0, self.plays_this_turn - 1)
        return self._end_turn(TurnEnd.REJECTED)

    def finish(self, note: str = "ended by the players") -> OrdskifteEvent:
        """End the game now; most rails wins, a tie shares the win."""
        self._require_playing()
        return self._game_over(self._most_rails(), note)

    # ----------------------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "players": list(self.players),
            "rails": [[w.notation for w in rails] for rails in self.rails],
            "current": self.current,
            "track_tiles": self.track_tiles,
            "timer_seconds": self.timer_seconds,
            "pool": _sorted_tiles(self.pool),
            "bag": _sorted_tiles(self.bag),
            "hidden": list(self.hidden),
            "phase": self.phase.value,
            "winners": list(self.winners),
            "seed": self.seed,
            "draws": self.draws,
            "plays_this_turn": self.plays_this_turn,
            "idle_turns": self.idle_turns,
            "events": [e.to_dict() for e in self.events],
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, lexicon: WordList | None = None, tiles: OrdskifteTiles | None = None
    ) -> OrdskifteGame:
        if data.get("version") != STATE_VERSION:
            raise GameStateError(
                f"unsupported Ordskifte state version {data.get('version')!r}; expected {STATE_VERSION}"
            )
        try:
            return cls(
                players=list(data["players"]),
                rails=[[RailWord.parse(w, allow_unknown_joker=False) for w in rails] for rails in data["rails"]],
                current=int(data["current"]),
                track_tiles=bool(data["track_tiles"]),
                timer_seconds=int(data["timer_seconds"]),
                pool=Counter(data["pool"]),
                bag=Counter(data["bag"]),
                hidden=list(data["hidden"]),
                phase=Phase(data["phase"]),
                winners=list(data["winners"]),
                events=[OrdskifteEvent.from_dict(e) for e in data["events"]],
                seed=int(data["seed"]),
                draws=int(data["draws"]),
                plays_this_turn=int(data["plays_this_turn"]),
                idle_turns=int(data["idle_turns"]),
                tiles=tiles or load_tiles(),
                lexicon=lexicon,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameStateError(f"not an Ordskifte game state: {exc!r}") from exc

    # ----------------------------------------------------------------------------- internals

    def _log(self, kind: EventKind, player: int, **fields: Any) -> OrdskifteEvent:
        event = OrdskifteEvent(kind, player, **fields)
        self.events.append(event)
        return event

    def _require_playing(self) -> None:
        if self.phase is not Phase.PLAYING:
            raise GameStateError("the game is over; start a new one")

    def _draw(self) -> str | None:
        """One tile from the bag, or None when it is empty (or tiles are not tracked)."""
        if not self.track_tiles or not self.bag:
            return None
        # One generator per draw from (seed, draw number): the state stays two integers.
        tiles = sorted(self.bag.elements(), key=_letter_rank)
        tile = tiles[random.Random(f"{self.seed}:{self.draws}").randrange(len(tiles))]
        self.draws += 1
        self.bag[tile] -= 1
        self.bag += Counter()
        return tile

    def _draw_or_fail(self) -> str:
        tile = self._draw()
        if tile is None:
            raise GameStateError("the bag is empty during set-up; the tile set is too small")
        return tile

    def _begin_period(self) -> None:
        """A timer period starts: the current player's hidden tile goes on the board."""
        tile = self.hidden[self.current]
        if tile is not None:
            self.pool[tile] += 1
            self.hidden[self.current] = None
            self._log(EventKind.TILE_PLAYED, self.current, tiles=tile)

    def _after_play(self) -> None:
        self.plays_this_turn += 1
        self.idle_turns = 0
        p = self.current
        if len(self.rails[p]) >= WIN_WORDS:
            self._game_over([p], f"{self.players[p]} has {WIN_WORDS} words")
            return
        self.hidden[p] = self._draw()
        self._begin_period()

    def _end_turn(self, cause: TurnEnd) -> OrdskifteEvent:
        p = self.current
        if self.hidden[p] is None:
            self.hidden[p] = self._draw()
        made_play = self.plays_this_turn > 0
        event = self._log(EventKind.TURN_ENDED, p, note=cause.value)
        self.plays_this_turn = 0
        if self.track_tiles and not self.bag and not made_play:
            self.idle_turns += 1
            if self.idle_turns >= len(self.players):
                self._game_over(self._most_rails(), "the bag is empty and a full round passed without a word")
                return event
        self.current = (p + 1) % len(self.players)
        self._begin_period()
        return event

    def _reject_word(self, made: RailWord, need: Counter[str], *, from_pool: bool, note: str) -> OrdskifteEvent:
        if self.track_tiles and from_pool:
            self.pool -= need
            self.bag += need
        self._log(EventKind.WORD_REJECTED, self.current, word=made.notation, tiles=_sorted_tiles(need), note=note)
        return self._end_turn(TurnEnd.REJECTED)

    def _most_rails(self) -> list[int]:
        best = max(len(r) for r in self.rails)
        return [i for i, r in enumerate(self.rails) if len(r) == best]

    def _game_over(self, winners: list[int], note: str) -> OrdskifteEvent:
        self.phase = Phase.FINISHED
        self.winners = winners
        return self._log(
            EventKind.GAME_OVER,
            winners[0] if len(winners) == 1 else -1,
            note=note,
            tiles=",".join(map(str, winners)),
        )

    def _opponent_word(self, victim: int, rail: int) -> RailWord:
        if victim == self.current:
            raise IllegalMove("you cannot change your own word; only opponents can steal it").coded(
                "ordskifte.own_word")
        if not 0 <= victim < len(self.players):
            raise IllegalMove(f"no player {victim!r}; players are 0-{len(self.players) - 1}")
        if not 0 <= rail < len(self.rails[victim]):
            raise IllegalMove(f"{self.players[victim]} has no word on rail {rail!r} ({len(self.rails[victim])} rails)")
        return self.rails[victim][rail]

    def _check_available(self, need: Counter[str], what: str) -> None:
        if self.track_tiles:
            short = need - self.pool
            if short:
                raise IllegalMove(f"the board lacks {_sorted_tiles(short)} {what} (board: {self.board() or 'empty'})"
                                  ).coded("ordskifte.board_lacks", tiles=_sorted_tiles(short))
            return
        # Companion mode: the board is unknown, but the rails can never hold more tiles than the set has.
        on_rails = Counter(need)
        for rails in self.rails:
            for w in rails:
                on_rails += w.tiles
        limits = self.tiles.full_bag()
        over = [t for t in on_rails if on_rails[t] > limits[t]]
        if over:
            tile = over[0]
            name = "joker" if tile == JOKER else tile
            raise IllegalMove(f"the set has only {limits[tile]} {name} tile(s), too few {what}").coded(
                "ordskifte.too_few_tiles", letter=tile, count=limits[tile])

    def _last_play_index(self) -> int:
        for index in range(len(self.events) - 1, -1, -1):
            kind = self.events[index].kind
            if kind in _PLAY_KINDS:
                return index
            if kind not in (EventKind.TILE_PLAYED, EventKind.GAME_OVER):
                break
        raise GameStateError("no word or steal to reject: the last play is already settled")

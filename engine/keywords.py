# SPDX-License-Identifier: GPL-3.0-or-later
"""Keywords ("Mots-clés"): words from the 41 keycaps of an old keyboard (rules: ../shared/RULES.md §3).

Keys are named ``"A"``–``"Z"``, ``"F1"``–``"F8"`` (FUNKEYS, wildcards) and the action keys ``"PGUP"``,
``"PGDN"``, ``"HOME"``, ``"DELETE"``, ``"INSERT"``, ``"ESC"``, ``"END"``; their effects are data
(``engine/data/keywords/keys.toml``).

Word notation: capitals are letter keys; a FUNKEY is ``?`` or the lower-case letter it stands for
(``T?A?``, ``TeAm``). Accents are folded away (the keys have none), so ``é`` is a FUNKEY for E.

>>> score_round(["CRAPAUD"]).total
14
>>> score_round(["?D", "T?A?"]).total          # longest T?A?: T and A count double; D counts 1
5
>>> score_round(["MOT", "CLE"], unused=1).total  # two longest words: no bonus; one key left over
5
>>> check_word("T???").reason
'T??? has 3 FUNKEYS in 4 keys; at most half of a word may be FUNKEYS'

Dictionary: :func:`check_word` and :func:`score_round` take an optional ``lexicon`` (anything with
``contains(word) -> bool``, word in capitals). A word with ``?`` FUNKEYS is accepted if some choice of
letters for them gives a listed word (tried for up to :data:`MAX_SEARCHED_FUNKEYS` unknown FUNKEYS;
more must be written as lower-case letters). The physical keyboard has one key per letter, but
scoring a word list does not enforce that (the seed's own example CRAPAUD has two As);
:class:`KeywordsRound` does, because its words must come from a player's hand.

Resolutions of the seed's gaps (RULES §3 [R]) used here: words have at least 2 keys; "longest" counts
keys including FUNKEYS and the double score applies to its letter keys only; keys moved by Home and
Delete go back to the bag, those moved by Insert/Esc/PgDn to the hand named; a round ends when End
is drawn or when a player must draw from an empty bag; an action with no key to move has no effect;
actions may move FUNKEYS as well as letters (``actions_move_funkeys``); an action key drawn because
of another action is executed for the player whose hand it was drawn into; a player whose hand an
opponent's action changed is ``locked`` (may not touch their words) until their own turn; the
starter of round 1 is chosen by the caller (coin toss), then starters alternate; 2 players.
"""

from __future__ import annotations

import enum
import random
import string
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from engine.errors import DataFileError, GameStateError, IllegalMove, InvalidNotation

FUNKEY = "?"
MIN_WORD = 2
ROUND_SECONDS = 30
#: Unknown ``?`` FUNKEYS tried against a dictionary (26**2 look-ups); more must be spelt out.
MAX_SEARCHED_FUNKEYS = 2
STATE_VERSION = 1
PLAYERS = 2


class WordList(Protocol):
    """What the engine needs from a dictionary (``engine.lexicon.Lexicon`` fits)."""

    def contains(self, word: str) -> bool: ...


# --------------------------------------------------------------------------------------------- keys


class KeyKind(enum.Enum):
    LETTER = "letter"
    FUNKEY = "funkey"
    ACTION = "action"


class Place(enum.Enum):
    BAG = "bag"
    SELF = "self"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class ActionKey:
    """An action key's effect: move ``count`` keys from ``source`` to ``dest``, or end the round."""

    name: str
    label: str
    text: str
    source: Place | None = None
    dest: Place | None = None
    count: int = 0
    ends_round: bool = False


@dataclass(frozen=True)
class KeySet:
    letters: str
    funkeys: tuple[str, ...]
    actions: Mapping[str, ActionKey]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.letters) + self.funkeys + tuple(self.actions)

    def kind(self, key: str) -> KeyKind:
        if key in self.actions:
            return KeyKind.ACTION
        if key in self.funkeys:
            return KeyKind.FUNKEY
        if len(key) == 1 and key in self.letters:
            return KeyKind.LETTER
        raise InvalidNotation(
            f"{key!r} is not a Keywords key; keys are A-Z, F1-F8 and {', '.join(self.actions)}"
        )


def load_keyset() -> KeySet:
    """The 41 keys and the action effects from ``engine/data/keywords/keys.toml``."""
    path = resources.files("engine") / "data" / "keywords" / "keys.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        actions = {}
        for name, spec in data["actions"].items():
            ends = bool(spec.get("ends_round", False))
            actions[name] = ActionKey(
                name=name,
                label=str(spec["label"]),
                text=str(spec["text"]),
                source=None if ends else Place(spec["from"]),
                dest=None if ends else Place(spec["to"]),
                count=0 if ends else int(spec["count"]),
                ends_round=ends,
            )
        keyset = KeySet(str(data["letters"]), tuple(data["funkeys"]), actions)
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"cannot read the Keywords key set ({path}): {exc!r}") from exc
    if len(keyset.keys) != 41:
        raise DataFileError(f"{path}: expected 41 keys, found {len(keyset.keys)}")
    return keyset


# --------------------------------------------------------------------------------------------- words


def _fold(ch: str) -> str:
    if ch in "Œœ":
        return "OE" if ch.isupper() else "oe"
    if ch in "Ææ":
        return "AE" if ch.isupper() else "ae"
    return "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))


@dataclass(frozen=True)
class KeyWord:
    """A word laid out in keys, in notation (``TeAm``, ``T?A?``)."""

    notation: str

    @classmethod
    def parse(cls, text: str) -> KeyWord:
        raw = text.strip()
        folded = "".join(_fold(ch) for ch in unicodedata.normalize("NFC", raw))
        if not folded:
            raise InvalidNotation("empty word; type letters, a FUNKEY as '?' or a lower-case letter")
        for ch in folded:
            if ch != FUNKEY and ch not in string.ascii_letters:
                raise InvalidNotation(
                    f"{raw!r}: {ch!r} is not a key; use A-Z, '?' or a lower-case letter for a FUNKEY"
                )
        return cls(folded)

    @property
    def letters(self) -> int:
        return sum(1 for ch in self.notation if ch.isupper())

    @property
    def funkeys(self) -> int:
        return len(self.notation) - self.letters

    @property
    def text(self) -> str:
        """The word read in capitals; ``?`` where a FUNKEY's letter was not said."""
        return self.notation.upper()

    @property
    def letter_keys(self) -> Counter[str]:
        return Counter(ch for ch in self.notation if ch.isupper())

    def __len__(self) -> int:
        return len(self.notation)

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class WordCheck:
    ok: bool
    reason: str = ""
    reading: str = ""  # the word read in capitals (FUNKEY letters found by the dictionary search)
    code: str = ""
    """Stable name of the refusal (``keywords.too_short``...) for a translated wording."""
    values: tuple[tuple[str, object], ...] = ()


def _as_keyword(word: str | KeyWord) -> KeyWord:
    return word if isinstance(word, KeyWord) else KeyWord.parse(word)


def check_word(word: str | KeyWord, lexicon: WordList | None = None) -> WordCheck:
    """Length, the half-FUNKEYS rule and, with a lexicon, the dictionary."""
    w = _as_keyword(word)
    if len(w) < MIN_WORD:
        return WordCheck(False, f"{w} has {len(w)} key; a word needs at least {MIN_WORD}",
                         code="keywords.too_short", values=(("word", str(w)), ("min", MIN_WORD)))
    if 2 * w.funkeys > len(w):
        return WordCheck(
            False, f"{w} has {w.funkeys} FUNKEYS in {len(w)} keys; at most half of a word may be FUNKEYS",
            code="keywords.too_many_funkeys", values=(("word", str(w)), ("count", w.funkeys), ("keys", len(w))),
        )
    if lexicon is None:
        return WordCheck(True, reading=w.text)
    unknown = w.notation.count(FUNKEY)
    if unknown > MAX_SEARCHED_FUNKEYS:
        return WordCheck(
            False,
            f"{w}: say which letters its {unknown} '?' FUNKEYS stand for (lower case) "
            "to check it in the dictionary",
            code="keywords.say_funkeys", values=(("word", str(w)), ("count", unknown)),
        )
    reading = _first_listed(w.text, lexicon)
    if reading is None:
        return WordCheck(False, f"{w.text} is not in the dictionary", code="keywords.not_in_dictionary",
                         values=(("word", w.text),))
    return WordCheck(True, reading=reading)


def _first_listed(pattern: str, lexicon: WordList) -> str | None:
    if FUNKEY not in pattern:
        return pattern if lexicon.contains(pattern) else None
    head, _, tail = pattern.partition(FUNKEY)
    for letter in string.ascii_uppercase:
        found = _first_listed(f"{head}{letter}{tail}", lexicon)
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class WordScore:
    word: str
    points: int
    doubled: bool


@dataclass(frozen=True)
class RoundScore:
    """One player's score for one round: the words, the bonus word, the penalty for loose keys."""

    words: tuple[WordScore, ...]
    unused: int
    longest: str | None  # the single longest word, or None when the longest length is shared

    @property
    def total(self) -> int:
        return sum(w.points for w in self.words) - self.unused


def score_round(
    words: Iterable[str | KeyWord], unused: int = 0, lexicon: WordList | None = None
) -> RoundScore:
    """Score a player's words: 1 per letter key, 2 per letter key of the single longest word (a tie
    for longest gets no bonus), FUNKEYS 0, −1 for each of the ``unused`` keys not in a word.

    Raises :class:`~engine.errors.IllegalMove` naming every refused word (``problems`` holds the
    reasons), or InvalidNotation for text that is not in key notation.
    """
    if unused < 0:
        raise InvalidNotation(f"unused keys must be 0 or more, got {unused!r}")
    parsed = [_as_keyword(w) for w in words]
    refused = [c for c in (check_word(w, lexicon) for w in parsed) if not c.ok]
    if refused:
        problems = tuple(c.reason for c in refused)
        raise IllegalMove("; ".join(problems), problems).coded(refused[0].code, **dict(refused[0].values))
    longest: KeyWord | None = None
    if parsed:
        top = max(len(w) for w in parsed)
        tops = [w for w in parsed if len(w) == top]
        longest = tops[0] if len(tops) == 1 else None
    scored = tuple(
        WordScore(w.notation, w.letters * (2 if w is longest else 1), w is longest) for w in parsed
    )
    return RoundScore(scored, unused, longest.notation if longest is not None else None)


# --------------------------------------------------------------------------------------------- a round


class RoundPhase(enum.Enum):
    AWAIT_DRAW = "await_draw"  # the current player must draw a key
    ARRANGING = "arranging"  # the timer runs; the current player rearranges their words
    CHOOSING = "choosing"  # an action waits for ``chooser`` to pick the key it moves
    OVER = "over"  # End was drawn or the bag ran out: enter the words and score


class RoundEventKind(enum.Enum):
    DRAW = "draw"
    ACTION = "action"
    MOVE = "move"  # an action moved a key: ``key`` from ``source`` to ``dest``
    NO_EFFECT = "no_effect"
    TURN_ENDED = "turn_ended"
    ROUND_OVER = "round_over"


@dataclass(frozen=True)
class RoundEvent:
    kind: RoundEventKind
    player: int
    key: str = ""
    source: str = ""
    dest: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "player": self.player,
            "key": self.key,
            "source": self.source,
            "dest": self.dest,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundEvent:
        return cls(
            RoundEventKind(data["kind"]),
            int(data["player"]),
            data.get("key", ""),
            data.get("source", ""),
            data.get("dest", ""),
            data.get("note", ""),
        )


@dataclass
class KeywordsRound:
    """One round with the bag, both hands and the action keys tracked (seeded draws).

    Drive it with :meth:`draw` at the start of a turn, :meth:`choose` when ``phase`` is CHOOSING,
    :meth:`end_turn` when the timer runs out, and :meth:`score` once the round is OVER.
    """

    starter: int
    current: int
    bag: list[str]
    hands: list[list[str]]
    table: list[str] = field(default_factory=list)
    phase: RoundPhase = RoundPhase.AWAIT_DRAW
    queue: list[tuple[str, int]] = field(default_factory=list)  # (action key, player it is for)
    pending: tuple[str, int] | None = None  # the action waiting for a choice, with the player choosing
    locked: list[bool] = field(default_factory=lambda: [False, False])
    events: list[RoundEvent] = field(default_factory=list)
    seed: int = 0
    draws: int = 0
    actions_move_funkeys: bool = True
    keyset: KeySet = field(default_factory=load_keyset, repr=False)

    @classmethod
    def new(
        cls,
        starter: int = 0,
        *,
        rng: random.Random | None = None,
        keyset: KeySet | None = None,
        actions_move_funkeys: bool = True,
    ) -> KeywordsRound:
        if starter not in (0, 1):
            raise GameStateError(f"starter must be 0 or 1, got {starter!r}")
        keys = keyset or load_keyset()
        return cls(
            starter=starter,
            current=starter,
            bag=sorted(keys.keys),
            hands=[[], []],
            seed=(rng or random.Random()).getrandbits(64),
            actions_move_funkeys=actions_move_funkeys,
            keyset=keys,
        )

    # ----------------------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is RoundPhase.OVER

    @property
    def chooser(self) -> int | None:
        return self.pending[1] if self.pending else None

    def choices(self) -> list[str]:
        """The keys the pending action may move (empty when nothing is pending)."""
        if self.pending is None:
            return []
        action = self.keyset.actions[self.pending[0]]
        assert action.source is not None
        return sorted(set(self._movable(self._hand_of(action.source, self.pending[1]))))

    # ----------------------------------------------------------------------------- moves

    def draw(self) -> RoundEvent:
        """The current player draws one key and any action on it is carried out."""
        self._require(RoundPhase.AWAIT_DRAW, "draw")
        p = self.current
        self.locked[p] = False
        key = self._take_from_bag()
        if key is None:
            return self._round_over("the bag is empty")
        event = self._log(RoundEventKind.DRAW, p, key=key)
        if self.keyset.kind(key) is KeyKind.ACTION:
            self.queue.append((key, p))
            self.phase = RoundPhase.ARRANGING
            self._resolve()
        else:
            self.hands[p].append(key)
            self.phase = RoundPhase.ARRANGING
        return event

    def choose(self, key: str) -> RoundEvent:
        """The chooser picks the key the pending action moves."""
        if self.pending is None:
            raise GameStateError("no action is waiting for a choice")
        options = self.choices()
        if key not in options:
            raise IllegalMove(f"{key!r} cannot be moved now; choose one of {', '.join(options)}")
        name, player = self.pending
        self.pending = None
        self.phase = RoundPhase.ARRANGING
        event = self._move(self.keyset.actions[name], player, key)
        self._resolve()
        return event

    def end_turn(self) -> RoundEvent:
        """The timer ran out: hands off, the opponent's turn."""
        self._require(RoundPhase.ARRANGING, "end the turn")
        event = self._log(RoundEventKind.TURN_ENDED, self.current)
        self.current = 1 - self.current
        self.phase = RoundPhase.AWAIT_DRAW
        return event

    def score(
        self, words: Sequence[Sequence[str]], lexicon: WordList | None = None
    ) -> tuple[RoundScore, ...]:
        """Both players' scores from the words they made; every word must be built from that
        player's own keys (one key per letter, a FUNKEY per wildcard) and keys left over cost 1."""
        if not self.is_over:
            raise GameStateError("the round is not over yet")
        if len(words) != PLAYERS:
            raise GameStateError(f"give the words of both players, got {len(words)} lists")
        results = []
        for p, player_words in enumerate(words):
            parsed = [_as_keyword(w) for w in player_words]
            hand = self.hands[p]
            letters = Counter(k for k in hand if self.keyset.kind(k) is KeyKind.LETTER)
            funkeys = sum(1 for k in hand if self.keyset.kind(k) is KeyKind.FUNKEY)
            used_letters = sum((w.letter_keys for w in parsed), Counter[str]())
            used_funkeys = sum(w.funkeys for w in parsed)
            short = used_letters - letters
            if short or used_funkeys > funkeys:
                missing = "".join(sorted(short.elements())) or f"{used_funkeys - funkeys} FUNKEY(S)"
                raise IllegalMove(
                    f"player {p} does not hold the keys {missing} for {' '.join(map(str, parsed))}"
                )
            unused = len(hand) - used_letters.total() - used_funkeys
            results.append(score_round(parsed, unused, lexicon))
        return tuple(results)

    # ----------------------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "starter": self.starter,
            "current": self.current,
            "bag": list(self.bag),
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "phase": self.phase.value,
            "queue": [list(q) for q in self.queue],
            "pending": list(self.pending) if self.pending else None,
            "locked": list(self.locked),
            "events": [e.to_dict() for e in self.events],
            "seed": self.seed,
            "draws": self.draws,
            "actions_move_funkeys": self.actions_move_funkeys,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, keyset: KeySet | None = None) -> KeywordsRound:
        if data.get("version") != STATE_VERSION:
            raise GameStateError(f"unsupported Keywords round version {data.get('version')!r}")
        try:
            pending = data["pending"]
            return cls(
                starter=int(data["starter"]),
                current=int(data["current"]),
                bag=list(data["bag"]),
                hands=[list(h) for h in data["hands"]],
                table=list(data["table"]),
                phase=RoundPhase(data["phase"]),
                queue=[(str(k), int(p)) for k, p in data["queue"]],
                pending=(str(pending[0]), int(pending[1])) if pending else None,
                locked=[bool(x) for x in data["locked"]],
                events=[RoundEvent.from_dict(e) for e in data["events"]],
                seed=int(data["seed"]),
                draws=int(data["draws"]),
                actions_move_funkeys=bool(data["actions_move_funkeys"]),
                keyset=keyset or load_keyset(),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameStateError(f"not a Keywords round state: {exc!r}") from exc

    # ----------------------------------------------------------------------------- internals

    def _log(self, kind: RoundEventKind, player: int, **fields: Any) -> RoundEvent:
        event = RoundEvent(kind, player, **fields)
        self.events.append(event)
        return event

    def _require(self, phase: RoundPhase, what: str) -> None:
        if self.phase is not phase:
            raise GameStateError(f"cannot {what} now: the round is {self.phase.value}")

    def _take_from_bag(self) -> str | None:
        if not self.bag:
            return None
        # One generator per draw from (seed, draw number): the state stays two integers.
        index = random.Random(f"{self.seed}:{self.draws}").randrange(len(self.bag))
        self.draws += 1
        return self.bag.pop(index)

    def _hand_of(self, place: Place, player: int) -> list[str]:
        return self.hands[player if place is Place.SELF else 1 - player]

    def _movable(self, hand: list[str]) -> list[str]:
        kinds = (KeyKind.LETTER, KeyKind.FUNKEY) if self.actions_move_funkeys else (KeyKind.LETTER,)
        return [k for k in hand if self.keyset.kind(k) in kinds]

    def _round_over(self, note: str) -> RoundEvent:
        self.phase = RoundPhase.OVER
        self.queue.clear()
        self.pending = None
        return self._log(RoundEventKind.ROUND_OVER, self.current, note=note)

    def _resolve(self) -> None:
        """Carry out queued actions until one needs a choice or the queue is empty."""
        while self.queue and self.phase is not RoundPhase.OVER:
            name, player = self.queue.pop(0)
            action = self.keyset.actions[name]
            self.table.append(name)
            self._log(RoundEventKind.ACTION, player, key=name, note=action.text)
            if action.ends_round:
                self._round_over(f"{action.label} drawn")
                return
            assert action.source is not None and action.dest is not None
            if action.source is Place.BAG:
                target = player if action.dest is Place.SELF else 1 - player
                for _ in range(action.count):
                    key = self._take_from_bag()
                    if key is None:
                        self._log(RoundEventKind.NO_EFFECT, player, key=name, note="the bag is empty")
                        break
                    if self.keyset.kind(key) is KeyKind.ACTION:
                        self._log(RoundEventKind.MOVE, player, key=key, source="bag", dest="table")
                        self.queue.append((key, target))
                    else:
                        self.hands[target].append(key)
                        self._mark(player, target)
                        self._log(RoundEventKind.MOVE, player, key=key, source="bag", dest=str(target))
                continue
            options = sorted(set(self._movable(self._hand_of(action.source, player))))
            if not options:
                self._log(RoundEventKind.NO_EFFECT, player, key=name, note="no key to move")
                continue
            if len(options) == 1:
                self._move(action, player, options[0])
                continue
            self.pending = (name, player)
            self.phase = RoundPhase.CHOOSING
            return

    def _move(self, action: ActionKey, player: int, key: str) -> RoundEvent:
        assert action.source is not None and action.dest is not None
        source = player if action.source is Place.SELF else 1 - player
        self.hands[source].remove(key)
        self._mark(player, source)
        if action.dest is Place.BAG:
            self.bag.append(key)
            self.bag.sort()
            dest = "bag"
        else:
            target = player if action.dest is Place.SELF else 1 - player
            self.hands[target].append(key)
            self._mark(player, target)
            dest = str(target)
        return self._log(RoundEventKind.MOVE, player, key=key, source=str(source), dest=dest)

    def _mark(self, actor: int, affected: int) -> None:
        if affected != actor:
            self.locked[affected] = True


# --------------------------------------------------------------------------------------------- a match


class MatchPhase(enum.Enum):
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class KeywordsMatch:
    """The score pad: rounds until someone reaches ``target`` points or ``rounds`` rounds are played.

    Reaching the target ends the match after that round; the highest total wins (ties share).
    """

    players: list[str]
    target: int | None = 30
    rounds: int | None = None
    first_starter: int = 0
    round_scores: list[tuple[int, int]] = field(default_factory=list)
    phase: MatchPhase = MatchPhase.PLAYING
    winners: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.players) != PLAYERS:
            raise GameStateError(
                f"Keywords is for {PLAYERS} players, got {len(self.players)}: {self.players!r}"
            )
        if self.target is None and self.rounds is None:
            raise GameStateError("a match needs a target score or a number of rounds")
        if (self.target is not None and self.target <= 0) or (self.rounds is not None and self.rounds <= 0):
            raise GameStateError(
                f"target and rounds must be positive, got {self.target!r} and {self.rounds!r}"
            )

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(s[0] for s in self.round_scores), sum(s[1] for s in self.round_scores))

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.FINISHED

    def next_starter(self) -> int:
        """Starters alternate from ``first_starter``."""
        return (self.first_starter + len(self.round_scores)) % PLAYERS

    def new_round(self, rng: random.Random | None = None, **options: Any) -> KeywordsRound:
        if self.is_over:
            raise GameStateError("the match is over")
        return KeywordsRound.new(self.next_starter(), rng=rng, **options)

    def record_round(self, scores: Sequence[int | RoundScore]) -> tuple[int, int]:
        """Add one round's scores (ints or :class:`RoundScore`) and return the totals."""
        if self.is_over:
            raise GameStateError("the match is over")
        if len(scores) != PLAYERS:
            raise GameStateError(f"give a score for each of the {PLAYERS} players, got {len(scores)}")
        a, b = (s.total if isinstance(s, RoundScore) else int(s) for s in scores)
        self.round_scores.append((a, b))
        totals = self.totals
        reached = self.target is not None and max(totals) >= self.target
        if reached or (self.rounds is not None and len(self.round_scores) >= self.rounds):
            best = max(totals)
            self.winners = [i for i, t in enumerate(totals) if t == best]
            self.phase = MatchPhase.FINISHED
        return totals

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "players": list(self.players),
            "target": self.target,
            "rounds": self.rounds,
            "first_starter": self.first_starter,
            "round_scores": [list(s) for s in self.round_scores],
            "phase": self.phase.value,
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KeywordsMatch:
        if data.get("version") != STATE_VERSION:
            raise GameStateError(f"unsupported Keywords match version {data.get('version')!r}")
        try:
            return cls(
                players=list(data["players"]),
                target=data["target"],
                rounds=data["rounds"],
                first_starter=int(data["first_starter"]),
                round_scores=[(int(a), int(b)) for a, b in data["round_scores"]],
                phase=MatchPhase(data["phase"]),
                winners=list(data["winners"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GameStateError(f"not a Keywords match state: {exc!r}") from exc

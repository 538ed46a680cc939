# SPDX-License-Identifier: GPL-3.0-or-later
"""A word list as a minimal acyclic automaton (DAWG) in flat arrays, for move generation.

Built once from a compiled list (``<stem>.marisa`` / ``.dawg``) and stored beside it as
``<stem>.graph``; loading reads three arrays (a few MB) with ``array.frombytes``, so it
takes milliseconds and needs the standard library only. The move generator walks it
letter by letter; a node's children are turned into a ``{letter: node}`` dict the first
time they are asked for and kept (a game touches a small part of the graph).

File layout (little-endian): magic ``OVWG``, format, the source fingerprint and the
alphabet (length-prefixed UTF-8), node and edge counts, then ``first`` (uint32 per node
plus one: where its edges start), ``final`` (one byte per node), edge letters (one byte:
index into the alphabet, ascending within a node), edge targets (uint32) and, from format 2,
each node's letter mask (uint64: bit i set when it goes on with ``alphabet[i]``; absent for
alphabets of more than 64 letters). The masks are made when the graph is built: working them
out at load time would take longer than loading the rest, and the move generator needs one
for every node it reaches. An older file is refused with a one-line message; beside a list
(:func:`graph_for`) it is rebuilt.

>>> graph = WordGraph.from_words(["CAT", "CATS", "CAR", "AT"])
>>> graph.contains("CATS"), graph.contains("CA"), len(graph)
(True, False, 4)
>>> sorted(graph.children(graph.walk("CA")))
['R', 'T']
>>> graph.mask(graph.walk("CA")) == graph.letter_bits("TR")
True
>>> sorted(graph.between("CA", "S")[0]), sorted(graph.between("", "T")[0])
(['T'], ['A'])
"""

from __future__ import annotations

import os
import struct
import sys
import tempfile
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path

from engine.errors import LexiconError

GRAPH_SUFFIX = ".graph"
MAGIC = b"OVWG"
FORMAT = 2
_MASK_BITS = 64  # letter masks are stored for alphabets up to this size
_HEADER = struct.Struct("<4sI")
#: Larger lists (paradigm-generated Estonian: 13 M forms) get no graph: the pure-Python builder needs minutes there.
MAX_GRAPH_WORDS = 3_000_000
_MAX_BETWEEN = 100_000  # cached cross-checks kept (a few MB at most)


class WordGraph:
    """A minimal DAWG. Node 0 is the root; :meth:`walk` returns ``None`` for a prefix no word has."""

    __slots__ = ("alphabet", "fingerprint", "_first", "_final", "_letters", "_targets", "_children", "_masks", "_bits",
                 "_between", "_count", "_steps", "_mask_array")

    def __init__(self, alphabet: str, first: array, final: bytes, letters: bytes, targets: array,
                 fingerprint: str = "", masks: array | None = None) -> None:
        self.alphabet = alphabet
        self.fingerprint = fingerprint
        self._first = first
        self._final = final
        self._letters = letters
        self._targets = targets
        self._children: dict[int, dict[str, int]] = {}
        self._masks: dict[int, int] = {}
        if masks is None and len(alphabet) <= _MASK_BITS:
            masks = _node_masks(first, letters)
        self._mask_array = masks  # None: masks made when asked (alphabets of more than 64 letters)
        self._steps: dict[int, dict[str, tuple[int, int, int]]] = {}
        self._bits = {letter: 1 << i for i, letter in enumerate(alphabet)}
        self._between: dict[tuple[str, str], tuple[frozenset[str], int]] = {}
        self._count: int | None = None

    # -- reading -----------------------------------------------------------------------------------

    def children(self, node: int) -> dict[str, int]:
        """``{letter: child node}`` of ``node`` (cached; do not modify)."""
        kids = self._children.get(node)
        if kids is None:
            alphabet, letters, targets = self.alphabet, self._letters, self._targets
            kids = {alphabet[letters[i]]: targets[i] for i in range(self._first[node], self._first[node + 1])}
            self._children[node] = kids
        return kids

    @property
    def cache(self) -> dict[int, dict[str, int]]:
        """The children dicts made so far, by node (for tight loops: ``cache.get(node)`` before :meth:`children`)."""
        return self._children

    def letter_bits(self, letters: Iterable[str]) -> int:
        """The bit set of ``letters`` (bit i: ``alphabet[i]``; letters outside the alphabet have none)."""
        bits = self._bits
        return sum(bits[letter] for letter in set(letters) if letter in bits)

    def mask(self, node: int) -> int:
        """The bit set (as :meth:`letter_bits`) of the letters ``node`` goes on with."""
        if self._mask_array is not None:
            return self._mask_array[node]
        bits = self._masks.get(node)
        if bits is None:
            bits = 0
            for i in range(self._first[node], self._first[node + 1]):
                bits |= 1 << self._letters[i]
            self._masks[node] = bits
        return bits

    def steps(self, node: int) -> dict[str, tuple[int, int, int]]:
        """``{letter: (child node, its mask, 1 if a word ends there else 0)}`` of ``node``: what the move generator
        needs per tile laid, in one look-up (cached; do not modify)."""
        found = self._steps.get(node)
        if found is None:
            alphabet, letters, targets, final = self.alphabet, self._letters, self._targets, self._final
            masks = self._mask_array
            found = {}
            for i in range(self._first[node], self._first[node + 1]):
                child = targets[i]
                found[alphabet[letters[i]]] = (child, self.mask(child) if masks is None else masks[child], final[child])
            self._steps[node] = found
        return found

    @property
    def step_cache(self) -> dict[int, dict[str, tuple[int, int, int]]]:
        """The :meth:`steps` made so far, by node (for tight loops: ``step_cache.get(node)`` before :meth:`steps`)."""
        return self._steps

    def between(self, prefix: str, suffix: str) -> tuple[frozenset[str], int]:
        """The letters x that make ``prefix + x + suffix`` a word, and their bits (cached: boards repeat them)."""
        key = (prefix, suffix)
        found = self._between.get(key)
        if found is None:
            letters = set()
            node = self._walk_arrays(prefix, 0)
            masks = self._mask_array
            if node is not None and masks is None:  # alphabets of more than 64 letters
                for letter, child in self.children(node).items():
                    end = self.walk(suffix, child)
                    if end is not None and self._final[end]:
                        letters.add(letter)
            elif node is not None:
                # One walk on the arrays per letter of the node; most stop at the suffix's first letter.
                suffix_bits = [self._bits.get(letter, 0) for letter in suffix]
                for i in range(self._first[node], self._first[node + 1]):
                    end = self._walk_bits(suffix_bits, self._targets[i])
                    if end is not None and self._final[end]:
                        letters.add(self.alphabet[self._letters[i]])
            if len(self._between) >= _MAX_BETWEEN:
                self._between.clear()
            found = self._between[key] = (frozenset(letters), self.letter_bits(letters))
        return found

    def _walk_arrays(self, letters: str, node: int) -> int | None:
        """:meth:`walk` on the arrays (no dict made: for walks done once, such as cross-checks): a node's edges are
        in alphabet order, so the edge for the letter with bit b is the node's first plus the bits below b."""
        if self._mask_array is None:
            return self.walk(letters, node)
        return self._walk_bits([self._bits.get(letter, 0) for letter in letters], node)

    def _walk_bits(self, bits: list[int], node: int) -> int | None:
        """:meth:`_walk_arrays` for letters given as their bits (made once for many walks)."""
        masks, first, targets = self._mask_array, self._first, self._targets
        assert masks is not None
        for bit in bits:
            mask = masks[node]
            if not mask & bit:
                return None
            node = targets[first[node] + (mask & (bit - 1)).bit_count()]
        return node

    def is_final(self, node: int) -> bool:
        return bool(self._final[node])

    @property
    def finals(self) -> bytes:
        """One byte per node, non-zero where a word ends (for tight loops)."""
        return self._final

    def walk(self, letters: str, node: int = 0) -> int | None:
        """The node reached from ``node`` by ``letters``, or None."""
        for letter in letters:
            next_node = self.children(node).get(letter)
            if next_node is None:
                return None
            node = next_node
        return node

    def contains(self, word: str) -> bool:
        node = self.walk(word)
        return node is not None and bool(self._final[node])

    __contains__ = contains

    def words(self, node: int = 0, prefix: str = "") -> Iterator[str]:
        """Every word below ``node`` (prefixed by ``prefix``), in alphabet order."""
        if self._final[node] and prefix:
            yield prefix
        for letter, child in sorted(self.children(node).items(), key=lambda kv: self.alphabet.index(kv[0])):
            yield from self.words(child, prefix + letter)

    def __len__(self) -> int:
        if self._count is None:
            counts = [0] * (len(self._first) - 1)
            for node in reversed(range(len(counts))):  # nodes are numbered parents before children
                total = 1 if self._final[node] else 0
                for i in range(self._first[node], self._first[node + 1]):
                    total += counts[self._targets[i]]
                counts[node] = total
            self._count = counts[0]
        return self._count

    @property
    def node_count(self) -> int:
        return len(self._first) - 1

    @property
    def edge_count(self) -> int:
        return len(self._targets)

    # -- building ----------------------------------------------------------------------------------

    @classmethod
    def from_words(cls, words: Iterable[str], fingerprint: str = "") -> WordGraph:
        """The minimal DAWG of ``words`` (any order; repeats ignored)."""
        ordered = sorted(set(words))
        alphabet = "".join(sorted({ch for word in ordered for ch in word}))
        if len(alphabet) > 255:
            raise LexiconError(f"a word graph holds at most 255 letters, this list uses {len(alphabet)}")
        builder = _Builder()
        for word in ordered:
            builder.add(word)
        return builder.finish(alphabet, fingerprint)

    # -- files -------------------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write atomically (a temporary file renamed over ``path``)."""
        path = Path(path)
        meta = self.fingerprint.encode("utf-8"), self.alphabet.encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_HEADER.pack(MAGIC, FORMAT))
                for blob in meta:
                    fh.write(struct.pack("<I", len(blob)) + blob)
                fh.write(struct.pack("<II", self.node_count, self.edge_count))
                for part in (_le(self._first), self._final, self._letters, _le(self._targets)):
                    fh.write(part)
                if self._mask_array is not None:
                    fh.write(_le(self._mask_array))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> WordGraph:
        path = Path(path)
        try:
            data = path.read_bytes()
            magic, version = _HEADER.unpack_from(data, 0)
            if magic != MAGIC:
                raise ValueError("not a word graph")
            if version != FORMAT:
                raise ValueError(f"format {version}; this version reads format {FORMAT}")
            offset = _HEADER.size
            texts = []
            for _ in range(2):
                (length,) = struct.unpack_from("<I", data, offset)
                offset += 4
                texts.append(data[offset:offset + length].decode("utf-8"))
                offset += length
            nodes, edges = struct.unpack_from("<II", data, offset)
            offset += 8
            first = _uint32(data[offset:offset + 4 * (nodes + 1)])
            offset += 4 * (nodes + 1)
            final = data[offset:offset + nodes]
            offset += nodes
            letters = data[offset:offset + edges]
            offset += edges
            targets = _uint32(data[offset:offset + 4 * edges])
            offset += 4 * edges
            masks = None
            if len(texts[1]) <= _MASK_BITS:
                masks = _uint64(data[offset:offset + 8 * nodes])
                offset += 8 * nodes
            if (offset != len(data) or len(first) != nodes + 1 or len(final) != nodes or len(letters) != edges
                    or (masks is not None and len(masks) != nodes)):
                raise ValueError("truncated")
        except (OSError, ValueError, struct.error, UnicodeDecodeError) as exc:
            raise LexiconError(f"word graph {str(path)!r} is unreadable ({exc}); delete it (it is rebuilt)") from None
        return cls(texts[1], first, final, letters, targets, texts[0], masks)

    def __repr__(self) -> str:
        return f"<WordGraph {self.node_count} nodes, {self.edge_count} edges, alphabet {self.alphabet!r}>"


def _le(arr: array) -> bytes:
    if sys.byteorder == "little":
        return arr.tobytes()
    swapped = array(arr.typecode, arr)  # pragma: no cover
    swapped.byteswap()  # pragma: no cover
    return swapped.tobytes()  # pragma: no cover


def _uint64(blob: bytes) -> array:
    arr = array("Q")
    arr.frombytes(blob)
    if sys.byteorder != "little":  # pragma: no cover
        arr.byteswap()
    return arr


def _node_masks(first: array, letters: bytes) -> array:
    """Each node's letter mask (bit i: it has an edge with letter ``alphabet[i]``)."""
    masks = array("Q", bytes(8 * (len(first) - 1)))
    for node in range(len(first) - 1):
        bits = 0
        for code in letters[first[node]:first[node + 1]]:
            bits |= 1 << code
        masks[node] = bits
    return masks


def _uint32(blob: bytes) -> array:
    arr = array("I")
    if arr.itemsize != 4:  # pragma: no cover - every platform we run on has a 4-byte unsigned int
        arr = array("L")
    arr.frombytes(blob)
    if sys.byteorder != "little":  # pragma: no cover
        arr.byteswap()
    return arr


class _Builder:
    """Incremental construction of a minimal automaton from sorted words (Daciuk et al. 2000)."""

    def __init__(self) -> None:
        self.final: list[bool] = [False]
        self.edges: list[dict[str, int] | None] = [{}]
        self.register: dict[tuple, int] = {}
        self.unchecked: list[tuple[int, str, int]] = []
        self.previous = ""

    def add(self, word: str) -> None:
        common = 0
        limit = min(len(word), len(self.previous))
        while common < limit and word[common] == self.previous[common]:
            common += 1
        self._minimise(common)
        node = self.unchecked[-1][2] if self.unchecked else 0
        final, edges, unchecked = self.final, self.edges, self.unchecked
        for letter in word[common:]:
            child = len(final)
            final.append(False)
            edges.append({})
            edges[node][letter] = child  # type: ignore[index]
            unchecked.append((node, letter, child))
            node = child
        final[node] = True
        self.previous = word

    def _minimise(self, down_to: int) -> None:
        final, edges, register = self.final, self.edges, self.register
        while len(self.unchecked) > down_to:
            parent, letter, child = self.unchecked.pop()
            key = (final[child], tuple(edges[child].items()))  # type: ignore[union-attr]
            existing = register.get(key)
            if existing is None:
                register[key] = child
            else:
                edges[parent][letter] = existing  # type: ignore[index]
                edges[child] = None  # merged away

    def finish(self, alphabet: str, fingerprint: str) -> WordGraph:
        self._minimise(0)
        codes = {ch: i for i, ch in enumerate(alphabet)}
        # Number the reachable nodes in reverse post-order: parents before children, root 0.
        post: list[int] = []
        seen = {0}
        stack = [(0, iter(self.edges[0].values()))]  # type: ignore[union-attr]
        while stack:
            node, pending = stack[-1]
            for child in pending:
                if child not in seen:
                    seen.add(child)
                    stack.append((child, iter(self.edges[child].values())))  # type: ignore[union-attr]
                    break
            else:
                stack.pop()
                post.append(node)
        order = post[::-1]
        number = {old: new for new, old in enumerate(order)}
        first = _uint32(b"")
        targets = _uint32(b"")
        letters = bytearray()
        final = bytearray(len(order))
        for new, old in enumerate(order):
            first.append(len(targets))
            final[new] = 1 if self.final[old] else 0
            for letter, child in self.edges[old].items():  # type: ignore[union-attr]
                letters.append(codes[letter])
                targets.append(number[child])
        first.append(len(targets))
        return WordGraph(alphabet, first, bytes(final), bytes(letters), targets, fingerprint)


# -- beside a compiled list ---------------------------------------------------------------------------

def graph_path(list_path: Path) -> Path:
    """``default-sv.marisa`` -> ``default-sv.graph``."""
    return Path(list_path).with_suffix(GRAPH_SUFFIX)


def list_fingerprint(lexicon) -> str:  # type: ignore[no-untyped-def]
    """What identifies the list a graph was built from (its manifest's name, size, count and folding)."""
    manifest = lexicon.manifest
    return f"{manifest.name}|{manifest.lang}|{manifest.count}|{manifest.trie_bytes}|{manifest.normaliser_version}"


def build_graph(lexicon, path: Path | None = None) -> WordGraph:  # type: ignore[no-untyped-def]
    """Build the graph of an opened compiled list and save it beside the list (or at ``path``)."""
    if lexicon.manifest.count > MAX_GRAPH_WORDS:
        raise LexiconError(
            f"word list {lexicon.name!r} has {lexicon.manifest.count:,} forms; move generation builds its word graph "
            f"for lists of up to {MAX_GRAPH_WORDS:,} (the standard library builder would take too long)"
        )
    graph = WordGraph.from_words(lexicon.words(""), list_fingerprint(lexicon))
    graph.save(path or graph_path(lexicon.path))
    return graph


def graph_for(lexicon) -> WordGraph:  # type: ignore[no-untyped-def]
    """The graph beside an opened compiled list: loaded when current, else built (seconds) and saved."""
    path = graph_path(lexicon.path)
    if path.is_file():
        try:
            graph = WordGraph.load(path)
        except LexiconError:
            graph = None
        if graph is not None and graph.fingerprint == list_fingerprint(lexicon):
            return graph
    return build_graph(lexicon, path)


def build_beside(list_path: Path) -> Path | None:
    """At ``lexicon build`` time: the graph of the compiled list at ``list_path``, saved beside it (None: too large)."""
    from engine.lexicon.trie import open_list

    lexicon = open_list(Path(list_path))
    if lexicon.manifest.count > MAX_GRAPH_WORDS:
        return None
    build_graph(lexicon)
    return graph_path(lexicon.path)


def default_graph(lexicon_dir: Path, lang: str) -> WordGraph:
    """The graph of ``lang``'s default list in ``lexicon_dir`` (built on first use when the list is there)."""
    from engine.lexicon.build import default_list_path
    from engine.lexicon.languages import language
    from engine.lexicon.trie import open_list

    code = language(lang).code
    path = default_list_path(lexicon_dir, code)
    if not path.exists():
        raise LexiconError(
            f"the default {code} word list {str(path)!r} is not built; run: ordvakt lexicon build {code}")
    return graph_for(open_list(path))

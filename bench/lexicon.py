#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Word-list figures per language: build time and peak build memory, backend, file size,
load time, resident memory after 200k lookups, lookups per second (targets: load <= 10 ms,
>= 1 M lookups/s, <= 10 MB resident per list). DAWG lists are also read with the
pure-Python DAWG2-Python reader (what a Pi without dawg2 uses).

    .venv/bin/python bench/lexicon.py                 # builds every list into a temp dir first
    .venv/bin/python bench/lexicon.py --dir DIR       # measure lists already built in DIR
    .venv/bin/python bench/lexicon.py --langs sv de   # only some languages

Lookups are 50% listed words and 50% misses (listed words with one letter changed),
each measured in a fresh process; RSS is the increase over that process's baseline,
split into anonymous memory and mapped-file pages (a marisa trie is memory-mapped, so
its pages are shared and reclaimable; a DAWG is read whole). Each list is built in its
own process, whose peak RSS is the "peak" column.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOOKUPS = 200_000

CHILD = r"""
import json, statistics, sys, time
def mem():
    out = {}
    for line in open('/proc/self/status'):
        k, _, v = line.partition(':')
        if k in ('VmRSS', 'RssAnon', 'RssFile'):
            out[k] = int(v.split()[0]) / 1024
    return out
path, queries_file, pure = sys.argv[1], sys.argv[2], sys.argv[3] == 'pure'
if pure:
    sys.modules['dawg'] = None  # force the pure-Python reader
import marisa_trie
from engine.lexicon.trie import open_list
queries = open(queries_file, encoding='utf-8').read().split('\n')
if pure:
    queries = queries[:20000]
base = mem()
loads = []
for _ in range(7):
    t = time.perf_counter(); lex = open_list(path); loads.append(time.perf_counter() - t)
contains = lex.contains
rates = []
for _ in range(3):
    t = time.perf_counter()
    hits = 0
    for q in queries:
        if contains(q):
            hits += 1
    rates.append(len(queries) / (time.perf_counter() - t))
after = mem()
print(json.dumps({'reader': getattr(lex, 'reader', 'marisa-trie'),
                  'load_ms': statistics.median(loads) * 1000, 'first_ms': loads[0] * 1000,
                  'rate': statistics.median(rates), 'hits': hits,
                  'rss': after['VmRSS'] - base['VmRSS'], 'anon': after['RssAnon'] - base['RssAnon'],
                  'file': after['RssFile'] - base['RssFile']}))
"""


BUILD_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from engine.lexicon.build import build_default
t = time.perf_counter()
result = build_default(sys.argv[1], Path(sys.argv[2]))
print(json.dumps({'seconds': time.perf_counter() - t, 'note': result.note,
                  'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _dawg_sample(path: Path, n: int, alphabet: str, rnd: random.Random) -> list[str]:
    """``n`` listed words by random walks down the DAWG (not uniform; good enough for timing)."""
    import dawg

    d = dawg.CompletionDAWG().load(str(path))
    letters = list(alphabet)
    out = []
    while len(out) < n:
        prefix = ""
        while True:
            if prefix in d and (rnd.random() < 0.25 or not d.has_keys_with_prefix(prefix) or len(prefix) >= 17):
                break
            order = rnd.sample(letters, len(letters))
            step = next((c for c in order if d.has_keys_with_prefix(prefix + c)), None)
            if step is None:
                break
            prefix += step
        if prefix in d:
            out.append(prefix)
    return out


def queries_for(path: Path, alphabet: str, rnd: random.Random) -> list[str]:
    import marisa_trie

    if path.suffix == ".dawg":
        import dawg

        trie = dawg.CompletionDAWG().load(str(path))
        hits = _dawg_sample(path, LOOKUPS // 2, alphabet, rnd)
    else:
        trie = marisa_trie.Trie().mmap(str(path))
        n = len(trie)
        hits = [trie.restore_key(rnd.randrange(n)) for _ in range(LOOKUPS // 2)]
    misses = []
    while len(misses) < LOOKUPS // 2:
        w = hits[rnd.randrange(len(hits))]
        i = rnd.randrange(len(w))
        m = w[:i] + rnd.choice(alphabet) + w[i + 1 :]
        if m not in trie:
            misses.append(m)
    out = hits + misses
    rnd.shuffle(out)
    return out


def main() -> int:
    from engine.lexicon.build import default_list_path
    from engine.lexicon.languages import language, load_languages
    from engine.lexicon.trie import Manifest

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, help="measure the lists already built here (no build)")
    parser.add_argument("--langs", nargs="*", default=list(load_languages()))
    args = parser.parse_args()
    rnd = random.Random(1)
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        rows = []
        for code in args.langs:
            peak = "   -  "
            if args.dir is None:
                built = subprocess.run(
                    [sys.executable, "-c", BUILD_CHILD, code, str(directory)],
                    capture_output=True, text=True, check=True, cwd=root,
                )
                b = json.loads(built.stdout.strip().splitlines()[-1])
                build_s = b["seconds"]
                peak = f"{b['peak_mb']:6.0f}"
                if b["note"]:
                    print(f"{code}: {b['note']}", flush=True)
            else:
                build_s = Manifest.read(default_list_path(directory, code).with_suffix(".json")).build_seconds
            path = default_list_path(directory, code)
            manifest = Manifest.read(path.with_suffix(".json"))
            qfile = Path(tmp) / f"q-{code}.txt"
            qfile.write_text("\n".join(queries_for(path, language(code).alphabet, rnd)), encoding="utf-8")
            result = subprocess.run(
                [sys.executable, "-c", CHILD, str(path), str(qfile), "c"],
                capture_output=True, text=True, check=True, cwd=root,
            )
            m = json.loads(result.stdout)
            rows.append((code, manifest.name, manifest.count, build_s, manifest.trie_bytes / 1e6, m))
            pure = ""
            if path.suffix == ".dawg":
                slow = subprocess.run(
                    [sys.executable, "-c", CHILD, str(path), str(qfile), "pure"],
                    capture_output=True, text=True, check=True, cwd=root,
                )
                p = json.loads(slow.stdout)
                pure = f"  [{p['reader']}: load {p['load_ms']:.2f} ms, {p['rate'] / 1e3:.0f} k lookups/s]"
            print(
                f"{code}  {manifest.name:26} {manifest.count:>11,} forms  build {build_s:6.1f} s peak {peak} MB  "
                f"{manifest.backend:6} file {manifest.trie_bytes / 1e6:5.2f} MB  "
                f"load {m['load_ms']:5.2f} ms (first {m['first_ms']:4.2f})  "
                f"RSS +{m['rss']:5.1f} MB (anon {m['anon']:4.1f}, mapped file {m['file']:5.1f})  "
                f"{m['rate'] / 1e6:4.2f} M lookups/s{pure}",
                flush=True,
            )
    print()
    fails = []
    for code, _name, _count, _b, _size, m in rows:
        if m["first_ms"] > 10:
            fails.append(f"{code}: load {m['first_ms']:.1f} ms > 10")
        if m["rate"] < 1e6:
            fails.append(f"{code}: {m['rate'] / 1e6:.2f} M lookups/s < 1")
        if m["rss"] > 10:
            fails.append(f"{code}: RSS +{m['rss']:.1f} MB > 10")
    print("targets met" if not fails else "targets missed: " + "; ".join(fails))
    return 0


if __name__ == "__main__":
    sys.exit(main())

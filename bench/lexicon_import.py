#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peak memory of ``ordvakt lexicon import`` on a 100 MB word list (target: <= 300 MB).

    .venv/bin/python bench/lexicon_import.py                    # random strings and Estonian forms, 100 MB each
    .venv/bin/python bench/lexicon_import.py --mb 20 --kind random
    .venv/bin/python bench/lexicon_import.py --file LIST.txt --lang sv

Two generated lists: ``random`` (strings of 2-15 letters of the Estonian alphabet: no shared suffixes,
the worst case for a DAWG) and ``forms`` (Estonian full forms from the installed default list, shuffled
in blocks). Each import runs in a child process; the parent samples the resident memory of the child and
of its children (the system's ``sort``) every 0.1 s and prints the child's own peak (``ru_maxrss``), the
sampled peak of the child with ``sort``, CPU seconds and the list's backend, parts and size.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


#: The import in the child, which prints its own peak (ru_maxrss: exact, unlike the 0.1 s samples).
CHILD = """
import resource, sys
from device.cli import main
code = main(sys.argv[1:])
print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
sys.exit(code)
"""


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def random_list(path: Path, megabytes: int, alphabet: str, seed: int = 1) -> None:
    rnd = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        written = 0
        while written < megabytes * 1_000_000:
            letters = rnd.choices(alphabet, k=90_000)
            at, lines = 0, []
            while at < len(letters) - 15:
                n = rnd.randint(2, 15)
                lines.append("".join(letters[at:at + n]))
                at += n
            block = "\n".join(lines) + "\n"
            out.write(block)
            written += len(block.encode("utf-8"))


def forms_list(path: Path, megabytes: int, seed: int = 1) -> None:
    """Estonian forms from the installed default list, blocks of 10,000 in random order."""
    import dawg

    from device.paths import lexicon_dir
    from engine.lexicon.build import default_list_path

    source = default_list_path(lexicon_dir(), "et")
    if source.suffix != ".dawg":
        raise SystemExit(f"no Estonian DAWG list in {source.parent}: ordvakt lexicon build et")
    rnd = random.Random(seed)
    blocks: list[list[str]] = [[]]
    size = 0
    for form in dawg.CompletionDAWG().load(str(source)).iterkeys():
        blocks[-1].append(form)
        size += len(form.encode("utf-8")) + 1
        if len(blocks[-1]) == 10_000:
            blocks.append([])
        if size >= megabytes * 1_000_000:
            break
    rnd.shuffle(blocks)
    with open(path, "w", encoding="utf-8") as out:
        for block in blocks:
            out.writelines(form + "\n" for form in block)


def generate(kind: str, path: Path, megabytes: int, lang: str) -> None:
    """Write a list in a child process: a forked child's ru_maxrss starts at its parent's resident size,
    so this process must stay small for the import's own peak to be what is measured."""
    subprocess.run([sys.executable, __file__, "--generate", kind, str(path), "--mb", str(megabytes),
                    "--lang", lang], check=True)


def measure(source: Path, lang: str, workdir: Path) -> dict:
    lexdir = workdir / "lex"
    command = [sys.executable, "-c", CHILD, "lexicon", "import", str(source), "--lang", lang, "--name", "bench",
               "--dir", str(lexdir)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak_child = peak_tree = 0
    while child.poll() is None:
        own = rss_kb(child.pid)
        tree = own + sum(rss_kb(c) for c in children(child.pid))
        peak_child, peak_tree = max(peak_child, own), max(peak_tree, tree)
        time.sleep(0.1)
    output = child.stdout.read() if child.stdout else ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        raise SystemExit(f"import failed ({child.returncode}): {output}")
    manifest = json.loads((lexdir / "user-bench.json").read_text(encoding="utf-8"))
    maxrss = int(output.rsplit("MAXRSS_KB ", 1)[1].split()[0])
    return {"peak_child_mb": peak_child / 1024, "peak_tree_mb": peak_tree / 1024,
            "maxrss_mb": maxrss / 1024, "cpu_s": (after.ru_utime + after.ru_stime)
            - (before.ru_utime + before.ru_stime), "wall_s": time.perf_counter() - started,
            "forms": manifest["count"], "backend": manifest["backend"], "parts": len(manifest.get("parts", ())) or 1,
            "file_mb": manifest["trie_bytes"] / 1e6}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=100, help="size of each generated list")
    parser.add_argument("--kind", choices=("random", "forms", "both"), default="both")
    parser.add_argument("--file", type=Path, help="import this list instead of generating one")
    parser.add_argument("--lang", default="et")
    parser.add_argument("--generate", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    from engine.lexicon.languages import language

    if args.generate:  # in its own process: see generate()
        kind, path = args.generate
        if kind == "random":
            random_list(Path(path), args.mb, language(args.lang).alphabet)
        else:
            forms_list(Path(path), args.mb)
        return 0
    with tempfile.TemporaryDirectory(prefix="ordvakt-import-") as tmp:
        work = Path(tmp)
        lists: list[tuple[str, Path]] = []
        if args.file:
            lists.append((args.file.name, args.file))
        else:
            if args.kind in ("random", "both"):
                generate("random", work / "random.txt", args.mb, args.lang)
                lists.append((f"random strings, {args.mb} MB", work / "random.txt"))
            if args.kind in ("forms", "both"):
                generate("forms", work / "forms.txt", args.mb, args.lang)
                lists.append((f"Estonian forms, {args.mb} MB", work / "forms.txt"))
        for label, path in lists:
            (work / "lex").mkdir(exist_ok=True)
            m = measure(path, args.lang, work)
            print(f"{label:28} {m['forms']:>11,} forms  {m['backend']:6} {m['parts']:3d} parts {m['file_mb']:6.1f} MB  "
                  f"peak RSS {m['maxrss_mb']:6.1f} MB (sampled: alone {m['peak_child_mb']:6.1f} MB, with sort "
                  f"{m['peak_tree_mb']:6.1f} MB)  CPU {m['cpu_s']:6.1f} s  wall {m['wall_s']:6.1f} s", flush=True)
            for leftover in (work / "lex").iterdir():
                leftover.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())

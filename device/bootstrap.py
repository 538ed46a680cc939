#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Set up Ordvakt on a fresh Debian / Raspberry Pi OS machine, then run it.

Needs only ``python3`` (standard library) and ``bash``. Usage::

    python3 device/bootstrap.py demo      # the main job: replay a real recorded game
    python3 device/bootstrap.py test      # ruff, mypy, then the tests and the doctests
    python3 device/bootstrap.py setup     # only install (systemd/install.sh uses it)
    python3 device/bootstrap.py COMMAND   # any other ``ordvakt`` sub-command

Each call: installs missing Debian packages (when root or password-less sudo is
available; otherwise says which ones are missing and carries on), creates or
updates ``.venv``, installs the project into it, builds the word lists the
command needs that are missing (the demo: German only), then runs.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
PACKAGES_FILE = ROOT / "device" / "data" / "debian-packages.txt"
STAMP = VENV / ".ordvakt-installed"


def say(message: str) -> None:
    print(f"[ordvakt setup] {message}", flush=True)


#: The word list each command needs before it runs (the demo replays a German game); "--all" for the rest.
LEXICONS_FOR = {"demo": ("de",), "setup": ()}
#: Packages whose code the test command also checks with ruff's linter and with doctests.
PACKAGES = ("engine", "vision", "hardware", "device")


def debian_packages(text: str | None = None, machine: str | None = None) -> list[str]:
    r"""The package names of ``debian-packages.txt`` for this machine.

    A line may name the machines it is for after the package, in brackets:

    >>> debian_packages("a\nb [armv7l]  # only 32-bit\n# comment\n", machine="aarch64")
    ['a']
    >>> debian_packages("a\nb [armv7l aarch64]\n", machine="aarch64")
    ['a', 'b']
    """
    if text is None:
        text = PACKAGES_FILE.read_text(encoding="utf-8")
    machine = machine or platform.machine()
    names = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, machines = line.partition("[")
        if machines and machine not in machines.rstrip("] ").split():
            continue
        names.append(name.strip())
    return names


def missing_debian_packages(names: list[str]) -> list[str]:
    if not shutil.which("dpkg-query"):
        return []
    missing = []
    for name in names:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True, check=False
        )
        if "install ok installed" not in result.stdout:
            missing.append(name)
    return missing


def install_debian_packages() -> None:
    wanted = debian_packages()
    missing = missing_debian_packages(wanted)
    if not missing:
        return
    if os.geteuid() == 0:
        prefix: list[str] = []
    elif shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        prefix = ["sudo", "-n"]
    else:
        say("these Debian packages are missing and I cannot install them without root:")
        say("  sudo apt-get install -y " + " ".join(missing))
        say("carrying on; features that need them will say so when used")
        return
    available = []
    say("installing Debian packages: " + " ".join(missing))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(prefix + ["apt-get", "update", "-q"], check=False, env=env)
    for name in missing:
        # One unavailable package (e.g. a Pi-only one on x86) must not block the rest.
        probe = subprocess.run(["apt-cache", "show", name], capture_output=True, check=False)
        if probe.returncode == 0:
            available.append(name)
        else:
            say(f"Debian package {name!r} is not available here; skipped")
    if available:
        result = subprocess.run(
            prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends", *available], check=False, env=env
        )
        if result.returncode != 0:
            # One package's failing install script (a service that cannot start in a container) must not stop
            # the rest; apt-get printed which one.
            say(f"apt-get could not set up every package (exit {result.returncode}); carrying on, features that "
                "need a missing one say so when used")


def is_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> None:
    if venv_python().exists():
        return
    say(f"creating {VENV}")
    args = [sys.executable, "-m", "venv"]
    if is_raspberry_pi():
        # Debian's lgpio (Python 3.13) is only visible through the system site; picamera2 needs no venv at all
        # (its worker runs under the system's python3).
        args.append("--system-site-packages")
    result = subprocess.run([*args, str(VENV)], check=False)
    if result.returncode != 0:
        sys.exit(
            "[ordvakt setup] could not create the virtual environment. On Debian install it with:\n"
            "  sudo apt-get install -y python3-venv"
        )


def install_project(with_dev: bool) -> None:
    """The project and its Python packages; the development tools (pytest, ruff, mypy) only once a command
    needs them, so a first demo does not wait for them. The stamp remembers what was installed."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = STAMP.read_text().split() if STAMP.exists() else []
    had_dev = "dev" in stamp[1:]
    if stamp[:1] == [digest] and (had_dev or not with_dev):
        return
    extras = ["dev"] if with_dev or had_dev else []
    if platform.machine() in ("aarch64", "armv7l"):
        extras.append("pi")
    say("installing Python packages into .venv" + (" (with the development tools)" if "dev" in extras else ""))
    pip = [str(venv_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    target = f"{ROOT}[{','.join(extras)}]" if extras else str(ROOT)
    subprocess.run([*pip, "-e", target], check=True)
    STAMP.write_text(" ".join([digest, *extras]))


def ordvakt(*args: str) -> list[str]:
    return [str(VENV / "bin" / "ordvakt"), *args]


def build_lexicons(command: str) -> None:
    # Word lists derived from GPL sources are built on the machine, never shipped.
    langs = LEXICONS_FOR.get(command, ("--all",))
    if not langs:
        return
    result = subprocess.run(ordvakt("lexicon", "build", *langs, "--missing-only"), check=False)
    if result.returncode != 0:
        say("some word lists could not be built; the judge says which when asked")


def run_checks(pytest_args: list[str]) -> int:
    """ruff, mypy (its files are set in pyproject.toml), then pytest with the doctests; all run, worst code wins."""
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    python = str(venv_python())
    steps = [
        ("ruff", [python, "-m", "ruff", "check", "."]),
        ("mypy", [python, "-m", "mypy"]),
        ("pytest", [python, "-m", "pytest", "-q", "--doctest-modules", "tests", *PACKAGES, *pytest_args]),
    ]
    failed = []
    for name, args in steps:
        say(f"{name}: {' '.join(args[2:])}")
        if subprocess.run(args, env=env, check=False).returncode != 0:
            failed.append(name)
    say("checks: " + (f"FAILED: {', '.join(failed)}" if failed else "ruff, mypy and pytest passed"))
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    command, rest = argv[0], argv[1:]
    install_debian_packages()
    ensure_venv()
    install_project(with_dev=command == "test")
    build_lexicons(command)
    os.chdir(ROOT)
    if command == "setup":
        return 0
    if command == "test":
        return run_checks(rest)
    args = ordvakt(command, *rest)
    os.execv(args[0], args)
    return 0  # not reached


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except subprocess.CalledProcessError as exc:  # pip or apt-get said why just above
        say(f"set-up stopped: {' '.join(map(str, exc.cmd[:6]))} ... exited with {exc.returncode}")
        sys.exit(1)

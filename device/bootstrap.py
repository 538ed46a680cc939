#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Set up Ordvakt on a fresh Debian / Raspberry Pi OS machine, then run it.

Needs only ``python3`` (standard library) and ``bash``. Usage::

    python3 device/bootstrap.py demo      # the main job: replay a real recorded game
    python3 device/bootstrap.py test      # the test suite
    python3 device/bootstrap.py run ...   # any other ``ordvakt`` sub-command

Each call: installs missing Debian packages (when root or password-less sudo is
available; otherwise says which ones are missing and carries on), creates or
updates ``.venv``, installs the project into it, builds the default word lists
that are missing, then runs.
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


def debian_packages() -> list[str]:
    names = []
    for line in PACKAGES_FILE.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line)
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
        subprocess.run(
            prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends", *available],
            check=True,
            env=env,
        )


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
        # Debian's picamera2, libcamera and lgpio are only visible through the system site.
        args.append("--system-site-packages")
    result = subprocess.run([*args, str(VENV)], check=False)
    if result.returncode != 0:
        sys.exit(
            "[ordvakt setup] could not create the virtual environment. On Debian install it with:\n"
            "  sudo apt-get install -y python3-venv"
        )


def install_project() -> None:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        return
    say("installing Python packages into .venv")
    pip = [str(venv_python()), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip", "setuptools", "wheel"], check=True)
    extras = "dev,pi" if platform.machine() in ("aarch64", "armv7l") else "dev"
    subprocess.run([*pip, "-e", f"{ROOT}[{extras}]"], check=True)
    STAMP.write_text(digest)


def ordvakt(*args: str) -> list[str]:
    return [str(VENV / "bin" / "ordvakt"), *args]


def build_lexicons() -> None:
    # Word lists derived from GPL sources are built on the machine, never shipped.
    result = subprocess.run(ordvakt("lexicon", "build", "--all", "--missing-only"), check=False)
    if result.returncode != 0:
        say("some word lists could not be built; the judge says which when asked")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    install_debian_packages()
    ensure_venv()
    install_project()
    build_lexicons()
    env = dict(os.environ)
    command, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    if command == "test":
        env.setdefault("SDL_VIDEODRIVER", "dummy")
        env.setdefault("SDL_AUDIODRIVER", "dummy")
        args = [str(venv_python()), "-m", "pytest", "-q", *rest]
    elif command == "demo":
        args = ordvakt("demo", *rest)
    else:
        args = ordvakt(command, *rest)
    os.execve(args[0], args, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

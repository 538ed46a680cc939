# SPDX-License-Identifier: GPL-3.0-or-later
"""The bootstrap, the installer and the unit agree: one package list, the demo's word list only,
exit codes the unit does not restart on, a sandbox systemd rates at most 3.0."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from device.errors import ExitCode

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "ordvakt.service"


def load_bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", REPO / "device" / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_machine_tags_select_packages():
    bootstrap = load_bootstrap()
    text = "python3-venv\nlibsdl2-dev [armv7l]\npython3-lgpio  # Pi OS only\n"
    assert bootstrap.debian_packages(text, machine="x86_64") == ["python3-venv", "python3-lgpio"]
    assert bootstrap.debian_packages(text, machine="armv7l") == ["python3-venv", "libsdl2-dev", "python3-lgpio"]


def test_the_package_list_names_the_pi_camera_and_gpio_packages():
    names = load_bootstrap().debian_packages(machine="aarch64")
    assert {"python3-picamera2", "python3-lgpio", "python3-numpy"} <= set(names)


def test_demo_builds_only_the_german_list(monkeypatch):
    bootstrap = load_bootstrap()
    calls = []
    monkeypatch.setattr(bootstrap.subprocess, "run", lambda args, check: calls.append(args[1:]) or
                        subprocess.CompletedProcess(args, 0))
    bootstrap.build_lexicons("demo")
    bootstrap.build_lexicons("setup")
    bootstrap.build_lexicons("judge")
    assert calls == [["lexicon", "build", "de", "--missing-only"], ["lexicon", "build", "--all", "--missing-only"]]


def test_installer_uses_the_bootstrap_and_no_package_list_of_its_own():
    script = (REPO / "systemd" / "install.sh").read_text()
    assert "bootstrap.py\" setup" in script
    assert "apt-get" not in script
    # The word lists go where the service reads them ($STATE_DIRECTORY of StateDirectory=ordvakt).
    assert "ORDVAKT_DATA_DIR=\"$STATE\"" in script and "STATE=/var/lib/ordvakt" in script
    assert "StateDirectory=ordvakt" in UNIT.read_text()


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if re.match(r"^[A-Za-z]+=", line):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_unit_does_not_restart_on_configuration_or_display_errors():
    prevent = unit_settings()["RestartPreventExitStatus"][0].split()
    assert {str(int(ExitCode.INPUT)), str(int(ExitCode.DISPLAY))} <= set(prevent)


def test_unit_sandbox_and_devices():
    s = unit_settings()
    assert s["NoNewPrivileges"] == ["yes"] and s["ProtectSystem"] == ["strict"] and s["PrivateTmp"] == ["yes"]
    assert s["PrivateNetwork"] == ["yes"] and s["IPAddressDeny"] == ["any"]
    assert "AF_INET" not in " ".join(s["RestrictAddressFamilies"])
    allowed = {value.split()[0] for value in s["DeviceAllow"]}
    assert {"char-drm", "char-input", "char-video4linux", "char-gpiochip"} <= allowed
    assert set(s["SupplementaryGroups"][0].split()) == {"video", "render", "input", "gpio"}
    assert "TTYPath" not in s and not any("SDL_NOMOUSE" in e for e in s["Environment"])


def installed_unit(tmp_path: Path) -> Path:
    """The unit as install.sh writes it, pointing at this checkout (verify wants the program to exist)."""
    unit = tmp_path / "ordvakt.service"
    unit.write_text(UNIT.read_text().replace("@ROOT@", str(REPO)))
    return unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_rates_the_unit_safe(tmp_path):
    unit = installed_unit(tmp_path)
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", unit.name], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    match = re.search(r"Overall exposure level for ordvakt.service: ([0-9.]+)", result.stdout)
    assert match, result.stdout[-500:] + result.stderr
    assert float(match[1]) <= 3.0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_verify_is_clean(tmp_path):
    if not (REPO / ".venv" / "bin" / "ordvakt").exists():
        pytest.skip("the unit's ExecStart needs .venv/bin/ordvakt (run python3 device/bootstrap.py setup)")
    unit = installed_unit(tmp_path)
    result = subprocess.run(["systemd-analyze", "verify", f"./{unit.name}"], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_development_tools_are_installed_only_when_a_command_needs_them(monkeypatch, tmp_path):
    bootstrap = load_bootstrap()
    monkeypatch.setattr(bootstrap, "STAMP", tmp_path / "stamp")
    monkeypatch.setattr(bootstrap.platform, "machine", lambda: "x86_64")
    targets = []
    monkeypatch.setattr(bootstrap.subprocess, "run", lambda args, check: targets.append(args[-1]))
    bootstrap.install_project(with_dev=False)  # the first demo
    bootstrap.install_project(with_dev=False)  # nothing changed: nothing to do
    bootstrap.install_project(with_dev=True)   # the tests want pytest, ruff, mypy
    bootstrap.install_project(with_dev=False)  # a later demo keeps them
    assert targets == [str(bootstrap.ROOT), f"{bootstrap.ROOT}[dev]"]
    assert (tmp_path / "stamp").read_text().split()[1:] == ["dev"]

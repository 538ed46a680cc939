# SPDX-License-Identifier: GPL-3.0-or-later
"""``ordvakt doctor``'s checks: is this machine ready to run the kiosk?

Each check returns one :class:`Check` (ok / warn / fail, what was found, and the fix). Everything the
checks look at comes through :class:`Machine`, so tests give them a fake ``/dev`` and ``/sys`` tree,
a fake SDL and fake devices; nothing is touched at import.
"""

from __future__ import annotations

import enum
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The kiosk's video driver (systemd/ordvakt.service sets it).
KIOSK_VIDEO_DRIVER = "kmsdrm"
#: Free space on the data directory's disk below which saving games and photos is at risk.
FAIL_FREE_MB = 100
WARN_FREE_MB = 500
#: A camera frame's sharpness (variance of the Laplacian) below this is a blurred or covered lens.
WARN_SHARPNESS = 20.0
#: ABS_MT_POSITION_X: the multi-touch axis every touchscreen reports (linux/input-event-codes.h).
ABS_MT_POSITION_X = 0x35


class Status(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    found: str
    fix: str = ""

    def line(self) -> str:
        """One line: ``ok   display: ...`` (and ``; fix: ...`` when something is to be done)."""
        fix = f"; fix: {self.fix}" if self.fix and self.status is not Status.OK else ""
        return f"{self.status.value:4} {self.name}: {self.found}{fix}"


def sdl_video_drivers() -> list[str]:
    """The video drivers compiled into the SDL that pygame loaded (``kmsdrm``, ``x11``, ``dummy``...).

    pygame has no call for it, so SDL's own ``SDL_GetVideoDriver`` is asked through ctypes, on the
    library pygame mapped into this process (its bundled copy, or the system's).
    """
    import ctypes

    import pygame  # noqa: F401  (loads SDL)

    path = next((line.split()[-1] for line in Path("/proc/self/maps").read_text().splitlines()
                 if "/libSDL2-2" in line or "/libSDL2.so" in line), None)
    if path is None:
        raise RuntimeError("pygame's SDL library is not mapped into this process")
    if not Path(path).exists():  # a path-translating sandbox (proot) shows the host's path: look beside pygame
        import pygame as pg

        beside = [p / Path(path).name for p in Path(pg.__file__).parent.parent.glob("pygame*.libs")]
        path = next((str(p) for p in beside if p.exists()), Path(path).name)
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    return [sdl.SDL_GetVideoDriver(i).decode().lower() for i in range(sdl.SDL_GetNumVideoDrivers())]


def display_problem(sdl_message: str, environ: Mapping[str, str] | None = None,
                    drivers: Callable[[], list[str]] = sdl_video_drivers) -> str:
    """One line saying why SDL could not open the screen, with what to do about it."""
    env = os.environ if environ is None else environ
    wanted = env.get("SDL_VIDEODRIVER", "") or "(SDL's choice)"
    try:
        offered = drivers()
    except (OSError, RuntimeError, AttributeError) as exc:
        offered, listing = [], f"SDL's drivers cannot be listed ({exc})"
    else:
        listing = "this SDL offers: " + (" ".join(offered) or "none")
    advice = "run `ordvakt doctor`"
    if wanted != "(SDL's choice)" and offered and wanted not in offered:
        advice = "install pygame-ce (its SDL has kmsdrm) or set SDL_VIDEODRIVER to one SDL offers"
    return f"cannot open the display with SDL_VIDEODRIVER={wanted}: {sdl_message}; {listing}; {advice}"


@dataclass
class Machine:
    """What the checks look at; every field can be replaced by a test."""

    root: Path = Path("/")
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    video_drivers: Callable[[], list[str]] = sdl_video_drivers
    open_camera: Callable[[Any], Any] | None = None
    """``hardware.camera.open_camera`` unless replaced."""
    make_buttons: Callable[[Any], Any] = field(default=lambda hardware: _real_buttons(hardware))
    make_buzzer: Callable[[Any], Any] = field(default=lambda hardware: _real_buzzer(hardware))
    run: Callable[[list[str]], str] | None = None
    """Runs a command and returns its output (raises OSError when it is missing)."""
    disk_usage: Callable[[Path], Any] = shutil.disk_usage

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")


def check_display(machine: Machine) -> Check:
    wanted = machine.environ.get("SDL_VIDEODRIVER") or KIOSK_VIDEO_DRIVER
    try:
        drivers = machine.video_drivers()
    except (ImportError, OSError, RuntimeError) as exc:
        return Check("display", Status.FAIL, f"SDL cannot be loaded ({exc})",
                     "reinstall the project: python3 device/bootstrap.py setup")
    if wanted not in drivers:
        return Check("display", Status.FAIL, f"SDL offers {' '.join(drivers) or 'no driver'}, not {wanted}",
                     "install pygame-ce (pip uninstall pygame; pip install pygame-ce): its SDL has kmsdrm")
    if wanted != KIOSK_VIDEO_DRIVER:
        return Check("display", Status.OK, f"SDL driver {wanted} (the kiosk uses {KIOSK_VIDEO_DRIVER})")
    cards = sorted(machine.path("/dev/dri").glob("card*"))
    if not cards:
        return Check("display", Status.FAIL, "SDL has kmsdrm but there is no /dev/dri/card*",
                     "enable the KMS driver: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot")
    usable = [c for c in cards if opens_for_read_write(c)]
    if not usable:
        return Check("display", Status.FAIL, f"{cards[0]} is not readable and writable by this user",
                     "add the user to the video and render groups (sudo usermod -aG video,render USER)")
    return Check("display", Status.OK, f"SDL has kmsdrm; {usable[0].name} usable")


def touch_devices(machine: Machine) -> list[tuple[str, str]]:
    """(event device, name) of every input device that reports multi-touch positions."""
    found = []
    for node in sorted(machine.path("/sys/class/input").glob("event*")):
        try:
            abs_bits = (node / "device" / "capabilities" / "abs").read_text().split()
            name = (node / "device" / "name").read_text().strip()
        except OSError:
            continue
        # The bitmap is printed as hex words (32 or 64 bits, as the kernel's long), most significant
        # first; every word after the first is zero-padded to the full width.
        width = len(abs_bits[-1]) if len(abs_bits) > 1 else 0
        mask = int("".join(word.rjust(width, "0") for word in abs_bits) or "0", 16)
        if mask >> ABS_MT_POSITION_X & 1:
            found.append((node.name, name))
    return found


def check_touch(machine: Machine) -> Check:
    devices = touch_devices(machine)
    if not devices:
        return Check("touch", Status.WARN, "no touchscreen among the input devices",
                     "connect the display's touch cable (DSI) or USB; the buttons still work")
    event, name = devices[0]
    node = machine.path("/dev/input") / event
    if node.exists() and not opens(node, os.O_RDONLY):
        return Check("touch", Status.FAIL, f"{name} ({event}) is not readable by this user",
                     "add the user to the input group (sudo usermod -aG input USER)")
    return Check("touch", Status.OK, f"{name} ({event})")


def check_camera(machine: Machine, hardware: Any) -> Check:
    from hardware.camera import sharpness
    from hardware.errors import HardwareError

    kind = hardware.camera.kind
    if kind is None:
        return Check("camera", Status.WARN, "no camera configured; moves are typed in",
                     "set [hardware.camera] kind = \"picamera2\" in the configuration")
    if machine.open_camera is None:
        from hardware.camera import open_camera

        machine.open_camera = open_camera
    try:
        with machine.open_camera(hardware) as camera:
            frame = camera.best_still(timeout_s=2.0)
    except HardwareError as exc:
        return Check("camera", Status.FAIL, str(exc), "see the message; `rpicam-hello --list-cameras` on a Pi")
    height, width = frame.shape[:2]
    score = sharpness(frame)
    found = f"{kind}: {width}x{height} frame, sharpness {score:.0f}"
    if score < WARN_SHARPNESS:
        return Check("camera", Status.WARN, found + " (blurred or covered)",
                     "clean the lens, check the focus and that nothing covers the board")
    return Check("camera", Status.OK, found)


def _real_buttons(hardware: Any) -> Any:
    import queue

    from hardware.buttons import Buttons

    return Buttons(hardware, events=queue.Queue())


def _real_buzzer(hardware: Any) -> Any:
    from hardware.buzzer import open_buzzer

    return open_buzzer(hardware)


def check_gpio(machine: Machine, hardware: Any) -> Check:
    if not hardware.buttons:
        return Check("gpio", Status.WARN, "no buttons configured; the screen and keys stand in",
                     "wire the buttons and list their pins under [hardware.buttons]")
    pins = ", ".join(f"{role.name.lower()}={pin}" for role, pin in hardware.buttons)
    return _try_device(machine.make_buttons, hardware, "gpio", f"buttons {pins}")


def check_buzzer(machine: Machine, hardware: Any) -> Check:
    from hardware.config import BuzzerKind

    kind = hardware.buzzer
    if kind in (BuzzerKind.NONE, BuzzerKind.CONSOLE):
        return Check("buzzer", Status.WARN, f"{kind.value}: no GPIO buzzer; time-outs are only shown",
                     'set [hardware.buzzer] type = "passive" and pin = 18')
    return _try_device(machine.make_buzzer, hardware, "buzzer", f"{kind.value} on GPIO{hardware.buzzer_pin}")


def _try_device(make: Callable[[Any], Any], hardware: Any, name: str, found: str) -> Check:
    """Claim the configured pins once (and let them go): wrong pins, groups or GPIO library show here."""
    from hardware.errors import HardwareError

    try:
        device = make(hardware)
    except HardwareError as exc:
        return Check(name, Status.FAIL, str(exc), "check the pin numbers and wiring; the user needs the gpio group "
                     "and lgpio must be importable (python3-lgpio, venv with --system-site-packages)")
    device.close()
    return Check(name, Status.OK, found)


def check_word_lists(lexicon_dir: Path, languages: Iterable[str]) -> Check:
    from engine.lexicon.judge import installed_lists

    lists = installed_lists(lexicon_dir)
    broken = [f"{path.name} ({problem})" for path, _, problem in lists if problem]
    have = {manifest.lang for _, manifest, problem in lists if manifest is not None and not problem}
    missing = [lang for lang in languages if lang not in have]
    if broken:
        return Check("word lists", Status.FAIL, f"unusable in {lexicon_dir}: {', '.join(broken)}",
                     "rebuild them: ordvakt lexicon build --all")
    if missing:
        return Check("word lists", Status.WARN, f"no list for {', '.join(missing)} in {lexicon_dir}",
                     f"ordvakt lexicon build {' '.join(missing)}")
    return Check("word lists", Status.OK, f"{len(lists)} in {lexicon_dir}: {' '.join(sorted(have))}")


def opens_for_read_write(node: Path) -> bool:
    return opens(node, os.O_RDWR)


def opens(node: Path, mode: int) -> bool:
    """Whether this process can open ``node`` with ``mode`` as the kiosk will.

    Opening it is the only honest test: ``os.access`` answers from the real uid and is wrong under
    fake-root emulators, ACLs and some container set-ups.
    """
    try:
        os.close(os.open(node, mode | os.O_NONBLOCK | os.O_CLOEXEC))
    except OSError:
        return False
    return True


def can_create_in(folder: Path) -> bool:
    """Whether a file can really be created in ``folder`` (see ``opens_for_read_write``)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def check_database(data_dir: Path) -> Check:
    path = data_dir / "games.sqlite"
    if not path.exists():
        if can_create_in(data_dir if data_dir.exists() else data_dir.parent):
            return Check("database", Status.OK, f"{path} will be created at the first game")
        return Check("database", Status.FAIL, f"{data_dir} is not writable", f"make {data_dir} writable by the user")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
            games = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    except sqlite3.Error as exc:
        return Check("database", Status.FAIL, f"{path}: {exc}", "the app moves a corrupt database aside at start")
    if result != "ok":
        return Check("database", Status.FAIL, f"{path}: {result}", "the app moves a corrupt database aside at start")
    return Check("database", Status.OK, f"{path} ({games} tables, quick_check ok)")


def check_disk(machine: Machine, data_dir: Path) -> Check:
    where = data_dir if data_dir.exists() else next((p for p in data_dir.parents if p.exists()), Path("/"))
    free_mb = machine.disk_usage(where).free / 1e6
    found = f"{free_mb:,.0f} MB free on {where}"
    fix = "delete old photos (<data>/photos) or use a bigger SD card"
    if free_mb < FAIL_FREE_MB:
        return Check("disk", Status.FAIL, found, fix)
    if free_mb < WARN_FREE_MB:
        return Check("disk", Status.WARN, found, fix)
    return Check("disk", Status.OK, found)


def _run(command: list[str]) -> str:
    return subprocess.run(command, capture_output=True, text=True, timeout=10, check=True).stdout


def check_clock(machine: Machine) -> Check:
    run = machine.run or _run
    try:
        synced = run(["timedatectl", "show", "--property=NTPSynchronized", "--value"]).strip()
    except (OSError, subprocess.SubprocessError):
        synced = "yes" if machine.path("/run/systemd/timesync/synchronized").exists() else "unknown"
    if synced == "yes":
        return Check("clock", Status.OK, "synchronised (NTP)")
    return Check("clock", Status.WARN, f"not known to be synchronised ({synced}); saved games' dates may be wrong",
                 "connect to a network once, or fit an RTC battery (Pi 5); sudo timedatectl set-ntp true")


def run_checks(config: Any, machine: Machine, *, data_dir: Path, lexicon_dir: Path) -> list[Check]:
    """Every check, in the order the kiosk needs them; a check that cannot run is a fail, not a crash."""
    from hardware.errors import HardwareError

    checks: list[Check] = [check_display(machine), check_touch(machine)]
    try:
        hardware = config.hardware_config()
    except HardwareError as exc:
        checks.append(Check("hardware", Status.FAIL, str(exc), "correct the setting named"))
    else:
        checks += [check_camera(machine, hardware), check_gpio(machine, hardware), check_buzzer(machine, hardware)]
    checks += [
        check_word_lists(lexicon_dir, sorted({config.game.language})),
        check_database(data_dir),
        check_disk(machine, data_dir),
        check_clock(machine),
    ]
    return checks

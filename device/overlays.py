# SPDX-License-Identifier: GPL-3.0-or-later
"""Screens the app runs above whichever game flow is on: settings, the word judge and calibration.

Each screen has ``view() -> View``, ``handle(action) -> result`` and ``tick(now) -> result``; a
result is None (stay), ``"back"`` (close, the game continues where it was) or ``"calibrate"`` /
``"new_game"`` (open that screen instead). They never touch the game: the flow keeps its state and
its clocks while one is open.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from device.config import UI_LANGUAGES, UiSettings
from device.errors import ConfigError
from device.ui import view as v

log = logging.getLogger(__name__)

#: The word judge goes back to where the player was after showing a verdict this long.
JUDGE_BACK_S = 10.0
#: Auto-accept delays offered on the settings screen (seconds; 0 = always wait for the player).
AUTO_ACCEPT_CHOICES = ("0", "2", "3", "5", "8")
LANGUAGE_NAMES = {"en": "English", "sv": "Svenska", "fi": "Suomi", "nb": "Norsk"}
SETTINGS_FILE = "device-settings.json"
PROFILE_DIR = "profiles"
#: The calibration preview looks for the grid at most this often (locating costs tens of ms on a Pi).
PREVIEW_EVERY_S = 0.5


# -- device settings --------------------------------------------------------------------------------

@dataclass(frozen=True)
class DeviceSettings:
    """What the settings screen changes; kept in ``<data>/device-settings.json`` over the config's [ui]."""

    language: str = "en"
    auto_accept_s: float = 3.0
    mute: bool = False

    @classmethod
    def defaults(cls, ui: UiSettings) -> DeviceSettings:
        return cls(ui.language, ui.auto_accept_s, False)

    @classmethod
    def load(cls, data_dir: Path, ui: UiSettings) -> DeviceSettings:
        """The saved settings, or the config's values when there are none (a bad file is reported)."""
        path = Path(data_dir) / SETTINGS_FILE
        base = cls.defaults(ui)
        if not path.exists():
            return base
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            settings = replace(base, **{k: data[k] for k in ("language", "auto_accept_s", "mute") if k in data})
        except (OSError, ValueError, TypeError) as exc:
            raise ConfigError(f"{str(path)!r}: unreadable device settings ({exc}); delete the file to reset") from None
        if settings.language not in UI_LANGUAGES:
            raise ConfigError(f"{str(path)!r}: language = {settings.language!r}: expected one of "
                              f"{', '.join(UI_LANGUAGES)}; delete the file to reset")
        return settings

    def save(self, data_dir: Path) -> None:
        """Written atomically (a power cut leaves the old or the new file, never half of one)."""
        path = Path(data_dir) / SETTINGS_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(asdict(self), out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)


class SettingsScreen:
    """SETTINGS: screen language, auto-accept delay, buzzer on/off; saved at once."""

    def __init__(self, settings: DeviceSettings, *, data_dir: Path | None,
                 apply: Callable[[DeviceSettings], None], notices: tuple[v.Notice, ...] = ()) -> None:
        self.settings = settings
        self.data_dir = data_dir
        self.apply = apply
        self.notices = notices
        self.message: v.Text | None = None

    def handle(self, action: v.UiAction) -> str | None:
        kind = action.kind
        if kind in (v.ActionKind.BACK, v.ActionKind.OK):
            return "back"
        if kind is v.ActionKind.CALIBRATE:
            return "calibrate"
        if kind is v.ActionKind.NEW_GAME:
            return "new_game"
        if kind is v.ActionKind.SET_OPTION:
            self.set(action.key, action.text)
        return None

    def set(self, key: str, value: str) -> None:
        s = self.settings
        if key == "ui_language" and value in UI_LANGUAGES:
            s = replace(s, language=value)
        elif key == "auto_accept" and value in AUTO_ACCEPT_CHOICES:
            s = replace(s, auto_accept_s=float(value))
        elif key == "buzzer" and value in ("on", "off"):
            s = replace(s, mute=value == "off")
        else:
            self.message = v.Text("engine.refused")
            return
        self.settings = s
        self.message = None
        if self.data_dir is not None:
            s.save(self.data_dir)
        self.apply(s)

    def tick(self, now: float) -> str | None:
        return None

    def view(self) -> v.View:
        s = self.settings
        onoff = (v.Choice("on", label_key="value.on"), v.Choice("off", label_key="value.off"))
        auto = f"{s.auto_accept_s:g}"
        options = (
            v.Option("ui_language", "option.ui_language", s.language,
                     tuple(v.Choice(code, LANGUAGE_NAMES[code]) for code in UI_LANGUAGES)),
            v.Option("auto_accept", "option.auto_accept", auto if auto in AUTO_ACCEPT_CHOICES else "3",
                     tuple(v.Choice(c, f"{c} s" if c != "0" else "—") for c in AUTO_ACCEPT_CHOICES)),
            v.Option("buzzer", "option.buzzer", "off" if s.mute else "on", onoff),
        )
        return v.View(v.Screen.SETTINGS, language=s.language, form=v.FormView(options), message=self.message,
                      warnings=self.notices)


# -- the word judge ---------------------------------------------------------------------------------

class JudgeScreen:
    """JUDGE: type words, one verdict for all of them, back after :data:`JUDGE_BACK_S` or a tap."""

    def __init__(self, judge: Any, *, why: str = "", language: str = "en", alphabet: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                 now: Callable[[], float], notices: tuple[v.Notice, ...] = ()) -> None:
        self.judge = judge
        self.why = why
        self.language = language
        self.alphabet = alphabet
        self.now = now
        self.notices = notices
        self.verdict: v.Verdict | None = None
        self.words: tuple[str, ...] = ()
        self.shown_at = 0.0
        self.message = None if judge is not None else v.Text("msg.no_word_list")

    def handle(self, action: v.UiAction) -> str | None:
        kind = action.kind
        if self.verdict is not None and kind in (v.ActionKind.OK, v.ActionKind.BACK, v.ActionKind.CONFIRM):
            return "back"
        if kind is v.ActionKind.BACK:
            return "back"
        if kind is v.ActionKind.JUDGE_WORDS:
            self.judge_words(action.words or tuple(action.text.split()))
        return None

    def judge_words(self, words: tuple[str, ...]) -> None:
        words = tuple(w.strip().upper() for w in words if w.strip())
        if not words:
            self.message = v.Text("msg.type_a_word")
            return
        if self.judge is None:
            self.message = v.Text("msg.no_word_list")
            return
        verdict = self.judge.judge_play(words)
        self.words = words
        self.verdict = v.Verdict(bool(verdict.acceptable), tuple(
            v.WordScore(typed, 0, acceptable=w.verdict.value != "invalid" and (
                verdict.acceptable or w.verdict.value == "valid"))
            for typed, w in zip(words, verdict.words, strict=True)))
        self.shown_at = self.now()
        self.message = None

    def tick(self, now: float) -> str | None:
        if self.verdict is not None and now - self.shown_at >= JUDGE_BACK_S:
            return "back"
        return None

    def view(self) -> v.View:
        verdict = self.verdict
        if verdict is not None:
            left = max(0.0, JUDGE_BACK_S - (self.now() - self.shown_at))
            verdict = replace(verdict, countdown_ms=int(left * 1000))
        return v.View(v.Screen.JUDGE, language=self.language, verdict=verdict, judge_words=self.words,
                      alphabet=self.alphabet, message=self.message, warnings=self.notices)


# -- calibration ------------------------------------------------------------------------------------

def profile_dir(data_dir: Path) -> Path:
    """Where calibrated board profiles are saved (``<data>/profiles``)."""
    return Path(data_dir) / PROFILE_DIR


def saved_profile(data_dir: Path | None, grid: int) -> Path | None:
    """The board profile calibrated on this device for a ``grid``-square board, if any."""
    if data_dir is None:
        return None
    path = profile_dir(data_dir) / f"calibrated-{grid}.toml"
    return path if path.is_file() else None


EXPOSURE_FILE = "camera-exposure.json"


def save_exposure(data_dir: Path, controls: dict[str, Any]) -> Path:
    """Keep the exposure locked at calibration (``<data>/profiles/camera-exposure.json``) for later starts."""
    target = profile_dir(data_dir) / EXPOSURE_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps({k: v for k, v in controls.items() if k not in ("AeEnable", "AwbEnable")}),
                   encoding="utf-8")
    os.replace(tmp, target)
    return target


def apply_saved_exposure(camera: Any, data_dir: Path) -> bool:
    """Fix ``camera`` at the exposure saved at calibration, if both exist; a bad file is logged and left alone
    (the camera keeps the exposure it measured at start). Returns whether it was applied."""
    path = profile_dir(data_dir) / EXPOSURE_FILE
    if not hasattr(camera, "apply_exposure") or not path.is_file():
        return False
    from hardware.errors import HardwareError

    try:
        controls = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(controls, dict):
            raise ValueError("not a table of controls")
        camera.apply_exposure(controls)
    except (OSError, ValueError, HardwareError) as exc:
        log.warning("%s: not used (%s); the camera keeps the exposure it measured at start", path, exc)
        return False
    log.info("camera exposure fixed at the calibrated values from %s", path)
    return True


class CalibrationScreen:
    """CALIBRATION: the camera picture with the grid found on it; SAVE makes a board profile from it.

    On a camera that can lock its exposure (picamera2), SAVE first lets exposure and white balance settle on
    the board as it lies now, locks them, and profiles a fresh frame taken with the locked values; those values
    are saved beside the profile and applied at every later start (:func:`apply_saved_exposure`), so the
    colours the profile learned are the colours the camera keeps delivering.
    """

    def __init__(self, camera: Any, *, data_dir: Path, layout_name: str, profile: str, language: str = "en",
                 now: Callable[[], float], notices: tuple[v.Notice, ...] = ()) -> None:
        from engine.layout import load_layout

        self.camera = camera
        self.data_dir = Path(data_dir)
        self.layout = load_layout(layout_name)
        self.profile_name = profile
        self.language = language
        self.now = now
        self.notices = notices
        self.frame: Any = None
        self.corners: tuple[tuple[float, float], ...] = ()
        self.ok = False
        self.message = None if camera is not None else v.Text("msg.no_camera_connect")
        self.saved: Path | None = None
        self._next = float("-inf")
        self._profile: Any = None

    def _load_profile(self) -> Any:
        if self._profile is None:
            from vision.profile import load_profile

            self._profile = load_profile(self.profile_name)
        return self._profile

    def refresh(self) -> None:
        """Take a frame and look for the grid on it."""
        if self.camera is None:
            return
        try:
            self.frame = self.camera.capture()
        except Exception as exc:  # any camera failure is shown, never raised
            self.frame, self.corners, self.ok = None, (), False
            log.warning("calibration: no camera picture: %s", exc)
            self.message = v.Text("msg.camera_failed")
            return
        from vision.errors import VisionError
        from vision.locate import locate

        try:
            geom = locate(self.frame, self._load_profile())
        except VisionError as exc:
            self.corners, self.ok = (), False
            log.info("calibration: no grid: %s", exc)
            self.message = None  # the status line says the board was not found
            return
        self.corners = tuple((float(x), float(y)) for x, y in geom.corners)
        self.ok = geom.grid == self.layout.size and geom.line_score > 0
        self.message = v.Text.of("msg.grid_score", score=f"{geom.line_score:.1f}")

    def tick(self, now: float) -> str | None:
        if now >= self._next:
            self._next = now + PREVIEW_EVERY_S
            self.refresh()
        return None

    def handle(self, action: v.UiAction) -> str | None:
        if action.kind in (v.ActionKind.BACK, v.ActionKind.OK):
            return "back"
        if action.kind is v.ActionKind.SAVE_CALIBRATION:
            self.save()
        return None

    def save(self) -> Path | None:
        """Profile the board on the current frame; written to ``<data>/profiles/calibrated-<grid>.toml``."""
        if self.frame is None:
            self.message = v.Text("msg.no_picture")
            return None
        import cv2

        from engine.squares import Square
        from vision.calibrate import calibrate
        from vision.errors import VisionError

        exposure = self._relock_exposure()
        layout = self.layout
        codes = [["*" if Square(r, c) == layout.centre else layout.premium(Square(r, c)).value
                  for c in range(layout.size)] for r in range(layout.size)]
        try:
            profile, geom, debug = calibrate(self.frame, grid=layout.size, layout_name=layout.name,
                                             name=f"calibrated-{layout.size}", premium_codes=codes)
        except VisionError as exc:
            log.warning("calibration not saved: %s", exc)
            self.message = v.Text("msg.not_saved")
            return None
        target = profile_dir(self.data_dir) / f"calibrated-{layout.size}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(profile.to_toml(), encoding="utf-8")
        os.replace(tmp, target)
        cv2.imwrite(str(target.with_suffix(".png")), debug)
        if exposure:
            save_exposure(self.data_dir, exposure)
        self.saved = target
        self._profile = profile
        self.profile_name = str(target)
        self.corners = tuple((float(x), float(y)) for x, y in geom.corners)
        self.message = v.Text.of("msg.saved_profile", name=target.name)
        return target

    def _relock_exposure(self) -> dict[str, Any] | None:
        """Re-measure and lock exposure on the board as it lies now, then take the frame to profile."""
        lock = getattr(self.camera, "lock_exposure", None)
        if lock is None:
            return None
        try:
            exposure = dict(lock())
            self.frame = self.camera.capture()
        except Exception as exc:  # any camera failure: profile the frame already shown, exposure as it was
            log.warning("calibration: exposure not re-locked: %s", exc)
            return None
        return exposure

    def view(self) -> v.View:
        cal = v.Calibration(frame=self.frame, corners=self.corners, grid_size=self.layout.size, ok=self.ok,
                            message=self.message)
        return v.View(v.Screen.CALIBRATION, language=self.language, calibration=cal, warnings=self.notices)

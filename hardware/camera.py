# SPDX-License-Identifier: GPL-3.0-or-later
"""Camera sources behind one small protocol; every frame is a numpy BGR ``uint8`` array (OpenCV order).

Back-ends (``ordvakt.cameras`` entry points in ``pyproject.toml``):

* ``picamera2`` — :class:`Picamera2Camera`, the Pi camera via libcamera (picamera2 imported only
  when constructed; its ``RGB888`` frames are already BGR);
* ``opencv`` — :class:`OpenCVCamera`, ``cv2.VideoCapture`` for USB webcams (not CSI cameras);
* ``replay`` — :class:`ReplayCamera`, an image folder in natural order (image-1, image-2, ... image-10),
  stepped with ``advance()`` or fed frames with ``feed()``;
* ``still`` — :class:`StillImageCamera`, one image file.

:func:`open_camera` picks one from the configuration, else from ``$ORDVAKT_CAMERA``
(``$ORDVAKT_CAMERA_PATH`` / ``$ORDVAKT_CAMERA_DEVICE`` give its path or device)::

    with open_camera(config) as camera:
        frame = camera.best_still(timeout_s=1.0)   # the sharpest recent frame, bounded wait
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from hardware.config import CAMERA_KINDS, CameraConfig, HardwareConfig, camera_kinds
from hardware.errors import CaptureError, ConfigurationError, DeviceUnavailable

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
ENV_KIND = "ORDVAKT_CAMERA"
ENV_PATH = "ORDVAKT_CAMERA_PATH"
ENV_DEVICE = "ORDVAKT_CAMERA_DEVICE"


@runtime_checkable
class Camera(Protocol):
    def capture(self) -> np.ndarray:
        """The current frame, BGR ``uint8`` (height, width, 3)."""
        ...

    def best_still(self, timeout_s: float = 1.0) -> np.ndarray:
        """The best still frame available now, waiting at most about ``timeout_s``."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Camera: ...

    def __exit__(self, *exc: object) -> None: ...


def sharpness(frame: np.ndarray) -> float:
    """Variance of the Laplacian of a downscaled grey image: higher = sharper (less motion blur)."""
    import cv2

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    scale = 640 / max(grey.shape)
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def natural_key(name: str) -> tuple[Any, ...]:
    """Sort key that puts image-2 before image-10."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name))


def read_image(path: Path, setting: str) -> np.ndarray:
    import cv2

    if not path.is_file():
        raise ConfigurationError(f"{setting} = {str(path)!r}: no such image file")
    try:
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:  # beyond OPENCV_IO_MAX_IMAGE_PIXELS (the CLI sets it)
        frame = None
    if frame is None:
        raise CaptureError(f"{setting}: cannot read {str(path)!r} as an image (jpg, png, ...)")
    return frame


class _CameraBase:
    def best_still(self, timeout_s: float = 1.0) -> np.ndarray:
        return self.capture()

    def capture(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _LiveCamera(_CameraBase):
    """A camera producing a stream: the best still is the sharpest of the next few frames."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock

    def _flush(self) -> None:
        """Drop frames the driver buffered before the request."""

    def best_still(self, timeout_s: float = 1.0, *, frames: int = 5) -> np.ndarray:
        """Sharpest of up to ``frames`` fresh frames; stops at ``timeout_s`` but always returns one."""
        deadline = self._clock() + max(0.0, timeout_s)
        self._flush()
        best = self.capture()
        best_score = sharpness(best)
        for _ in range(frames - 1):
            if self._clock() >= deadline:
                break
            frame = self.capture()
            score = sharpness(frame)
            if score > best_score:
                best, best_score = frame, score
        return best


class ReplayCamera(_CameraBase):
    """Frames from an image folder (natural order) and/or fed in by a test.

    ``capture()`` returns the current frame until ``advance()`` moves on; ``feed(frame)`` appends a
    frame and makes it current. At the end ``advance()`` returns False (or wraps with ``loop``).
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, loop: bool = False, setting: str = "hardware.camera.path"
    ) -> None:
        self._setting = setting
        self.loop = loop
        self._files: list[Path] = []
        self._frames: list[np.ndarray | None] = []
        if path is not None:
            folder = Path(path)
            if not folder.is_dir():
                raise ConfigurationError(f"{setting} = {str(path)!r}: no such folder of replay images")
            self._files = sorted(
                (p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()),
                key=lambda p: natural_key(p.name),
            )
            if not self._files:
                raise ConfigurationError(
                    f"{setting} = {str(path)!r}: the folder has no images ({', '.join(IMAGE_SUFFIXES)})"
                )
            self._frames = [None] * len(self._files)
        self.position = 0

    @classmethod
    def from_config(cls, config: CameraConfig, setting: str = "hardware.camera.path") -> ReplayCamera:
        return cls(config.path, setting=setting)

    def __len__(self) -> int:
        return len(self._frames)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self._files] + [f"<fed {i}>" for i in range(len(self._frames) - len(self._files))]

    def capture(self) -> np.ndarray:
        if not self._frames:
            raise CaptureError("the replay camera has no frames; feed() one or give it an image folder")
        frame = self._frames[self.position]
        if frame is None:
            frame = read_image(self._files[self.position], self._setting)
            self._frames[self.position] = frame
        return frame.copy()

    def advance(self) -> bool:
        """Move to the next frame; False (staying on the last) at the end unless looping."""
        if self.position + 1 < len(self._frames):
            self.position += 1
            return True
        if self.loop and self._frames:
            self.position = 0
            return True
        return False

    def feed(self, frame: np.ndarray) -> None:
        """Append a frame (BGR uint8) and make it the current one."""
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            shape = getattr(frame, "shape", None)
            raise CaptureError(f"feed() takes a BGR uint8 array (h, w, 3); got {type(frame).__name__} {shape}")
        self._frames.append(frame.copy())
        self.position = len(self._frames) - 1


class StillImageCamera(_CameraBase):
    """Always the same image (demo, calibration against a known photo)."""

    def __init__(self, path: str | os.PathLike[str], *, setting: str = "hardware.camera.path") -> None:
        self.path = Path(path)
        self._frame = read_image(self.path, setting)

    @classmethod
    def from_config(cls, config: CameraConfig, setting: str = "hardware.camera.path") -> StillImageCamera:
        if config.path is None:
            raise ConfigurationError(f"{setting} is not set: a still camera needs an image file")
        return cls(config.path, setting=setting)

    def capture(self) -> np.ndarray:
        return self._frame.copy()


class OpenCVCamera(_LiveCamera):
    """A USB webcam through ``cv2.VideoCapture`` (CSI cameras need ``picamera2``)."""

    BUFFERED_FRAMES = 4

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        setting: str = "hardware.camera.device",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        import cv2

        super().__init__(clock)
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        # Our message replaces OpenCV's warnings; some builds (the aarch64 4.11 wheel) have no cv2.utils.logging.
        cv_log = getattr(cv2.utils, "logging", None)
        level = cv_log.getLogLevel() if cv_log else None
        if cv_log:
            cv_log.setLogLevel(cv_log.LOG_LEVEL_SILENT)
        try:
            capture = cv2.VideoCapture(device)
            opened = capture.isOpened()
        finally:
            if cv_log:
                cv_log.setLogLevel(level)
        if not opened:
            capture.release()
            raise DeviceUnavailable(
                f"{setting} = {device!r}: no camera could be opened there; check `ls /dev/video*` "
                "for USB webcams, or use kind = 'picamera2' for a Pi camera"
            )
        if width:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.device = device
        self._capture = capture

    @classmethod
    def from_config(cls, config: CameraConfig, setting: str = "hardware.camera.device") -> OpenCVCamera:
        return cls(config.device, width=config.width, height=config.height, setting=setting)

    def _flush(self) -> None:
        for _ in range(self.BUFFERED_FRAMES):
            self._capture.grab()

    def capture(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CaptureError(f"camera {self.device!r} delivered no frame (unplugged?)")
        return frame

    def close(self) -> None:
        self._capture.release()


#: The low-resolution stream the still-frame test reads (the full still is only taken when it is wanted).
LORES_SIZE = (640, 480)
#: Frames given to auto-exposure and white balance to settle before they are locked.
SETTLE_FRAMES = 10
#: A full still is taken once a low-resolution frame is at least this share as sharp as the sharpest seen.
STILL_SHARPNESS_SHARE = 0.9


def _import_picamera2() -> Any:
    """The Picamera2 class, or one line saying why not (never a traceback).

    picamera2 fails to import in several ways on a Pi: ImportError (not installed, or the venv cannot see
    Debian's package), ValueError/RuntimeError from numpy when a pip numpy in the venv shadows the Debian
    numpy that simplejpeg and picamera2 were built against, OSError from libcamera."""
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        raise DeviceUnavailable(
            f"hardware.camera.kind = 'picamera2': picamera2 cannot be imported ({exc}); on the Pi run "
            "`sudo apt install python3-picamera2` and create the venv with --system-site-packages"
        ) from None
    except Exception as exc:  # numpy ABI mismatch (ValueError), libcamera (RuntimeError, OSError)
        hint = ("a numpy installed in the venv shadows Debian's: `.venv/bin/pip uninstall numpy`, then "
                "`python3 device/bootstrap.py setup`" if "numpy" in str(exc).lower() or isinstance(exc, ValueError)
                else "check `rpicam-hello --list-cameras`")
        raise DeviceUnavailable(
            f"hardware.camera.kind = 'picamera2': picamera2 fails to load ({type(exc).__name__}: {exc}); {hint}"
        ) from None
    return Picamera2


class Picamera2Camera(_LiveCamera):
    """The Raspberry Pi camera via picamera2/libcamera, set up as its maintainers advise for stills:

    * one still configuration with two streams: ``main`` at full resolution in ``RGB888`` (= BGR in memory)
      for reading the tiles, ``lores`` (YUV420, :data:`LORES_SIZE`) for judging motion and sharpness cheaply;
    * auto-exposure and white balance run for :data:`SETTLE_FRAMES` frames, then are locked at the values they
      found (a hand or a shadow crossing the board must not change the board's colours between moves);
    * on a camera with autofocus (Camera Module 3) one autofocus cycle on the board, then the lens is fixed
      there (``focus_m`` fixes it at a known distance instead).
    """

    def __init__(
        self,
        camera_num: int = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        focus_m: float | None = None,
        setting: str = "hardware.camera.device",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(clock)
        picamera2 = _import_picamera2()
        if not isinstance(camera_num, int) or isinstance(camera_num, bool):
            raise ConfigurationError(f"{setting} = {camera_num!r}: picamera2 takes a camera number (0, 1)")
        try:
            found = len(picamera2.global_camera_info())
        except Exception as exc:  # libcamera not running, no permission on /dev/media*
            raise DeviceUnavailable(f"{setting} = {camera_num!r}: libcamera cannot list cameras: {exc}") from None
        if not 0 <= camera_num < found:
            raise DeviceUnavailable(
                f"{setting} = {camera_num!r}: no such camera; libcamera found {found} "
                "(check the ribbon cable and `rpicam-hello --list-cameras`)"
            )
        self.camera_num = camera_num
        try:
            camera = picamera2(camera_num)
        except Exception as exc:
            raise DeviceUnavailable(f"{setting} = {camera_num!r}: the camera cannot be opened: {exc}") from None
        self._camera = camera
        try:
            main: dict[str, Any] = {"format": "RGB888"}
            if width and height:
                main["size"] = (width, height)
            camera.configure(camera.create_still_configuration(
                main=main, lores={"format": "YUV420", "size": LORES_SIZE}, buffer_count=2))
            camera.start()
            self.lock_exposure()
            self.fix_focus(focus_m)
        except (RuntimeError, OSError, ValueError) as exc:
            with contextlib.suppress(Exception):  # the first problem is the one to report
                self.close()
            raise DeviceUnavailable(f"{setting} = {camera_num!r}: the camera cannot be started: {exc}") from None

    @classmethod
    def from_config(cls, config: CameraConfig, setting: str = "hardware.camera.device") -> Picamera2Camera:
        device = int(config.device) if isinstance(config.device, str) and config.device.isdigit() else config.device
        return cls(device, width=config.width, height=config.height, setting=setting)  # type: ignore[arg-type]

    def lock_exposure(self, settle_frames: int = SETTLE_FRAMES) -> dict[str, Any]:
        """Let auto-exposure and white balance settle on the scene, then fix them there; returns the controls set.
        Call it again (e.g. after calibrating under new light) to re-measure."""
        camera = self._camera
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        metadata: dict[str, Any] = {}
        for _ in range(max(1, settle_frames)):
            metadata = camera.capture_metadata()
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if name in metadata:
                fixed[name] = metadata[name]
        camera.set_controls(fixed)
        self.exposure = fixed
        return fixed

    def apply_exposure(self, controls: Mapping[str, Any]) -> dict[str, Any]:
        """Fix exposure, gain and white balance at values measured before (by :meth:`lock_exposure` during
        calibration), so the board keeps the colours it was calibrated with after a restart. Only the three
        known controls are taken; values that are not finite positive numbers are refused."""
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if name not in controls:
                continue
            value = controls[name]
            values = list(value) if isinstance(value, (list, tuple)) else [value]
            if not values or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                     and math.isfinite(x) and x > 0 for x in values):
                raise ConfigurationError(f"camera exposure {name} = {value!r}: expected positive numbers")
            fixed[name] = tuple(values) if name == "ColourGains" else values[0]
        if name_missing := {"ExposureTime", "AnalogueGain"} - fixed.keys():
            raise ConfigurationError(f"camera exposure lacks {', '.join(sorted(name_missing))}")
        self._camera.set_controls(fixed)
        self.exposure = fixed
        return fixed

    def fix_focus(self, focus_m: float | None = None) -> float | None:
        """Fix the lens of an autofocus camera: at ``focus_m`` metres, else where one autofocus cycle on the
        board put it. Returns the lens position (dioptres), or None for a fixed-focus camera."""
        camera = self._camera
        if "AfMode" not in getattr(camera, "camera_controls", {}):
            return None
        if focus_m is not None:
            position = 1.0 / max(focus_m, 0.01)
        else:
            camera.set_controls({"AfMode": _AF_AUTO})
            camera.autofocus_cycle()
            position = float(camera.capture_metadata().get("LensPosition", 0.0))
        camera.set_controls({"AfMode": _AF_MANUAL, "LensPosition": position})
        self.lens_position = position
        return position

    def capture(self) -> np.ndarray:
        try:
            frame = self._camera.capture_array("main")
        except (RuntimeError, OSError) as exc:
            raise CaptureError(f"Pi camera {self.camera_num} delivered no frame: {exc}") from None
        return _bgr(frame)

    def capture_lores(self) -> np.ndarray:
        """The low-resolution stream's picture as grey (its Y plane): for motion and sharpness checks."""
        try:
            frame = self._camera.capture_array("lores")
        except (RuntimeError, OSError) as exc:
            raise CaptureError(f"Pi camera {self.camera_num} delivered no frame: {exc}") from None
        return frame[: LORES_SIZE[1], : LORES_SIZE[0]]

    def best_still(self, timeout_s: float = 1.0, *, frames: int = 5) -> np.ndarray:
        """A full still from the first request whose low-resolution picture is nearly as sharp as the sharpest of
        the next ``frames`` (a hand moving away blurs the first ones); bounded by ``timeout_s``, always one."""
        deadline = self._clock() + max(0.0, timeout_s)
        scores = []
        for _ in range(max(1, frames)):
            scores.append(sharpness(self.capture_lores()))
            if self._clock() >= deadline:
                break
        target = max(scores) * STILL_SHARPNESS_SHARE
        while True:
            try:
                with self._camera.captured_request() as request:
                    if sharpness(request.make_array("lores")[: LORES_SIZE[1], : LORES_SIZE[0]]) >= target or \
                            self._clock() >= deadline:
                        return _bgr(request.make_array("main"))
            except (RuntimeError, OSError) as exc:
                raise CaptureError(f"Pi camera {self.camera_num} delivered no frame: {exc}") from None

    def close(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()


#: libcamera's AfModeEnum values (picamera2's ``libcamera.controls.AfModeEnum.Manual`` / ``.Auto``).
_AF_MANUAL = 0
_AF_AUTO = 1


def _bgr(frame: np.ndarray) -> np.ndarray:
    """``RGB888``/``XRGB8888`` arrays are BGR(A) in memory: drop the padding byte, keep the order."""
    return frame[:, :, :3] if frame.ndim == 3 and frame.shape[2] == 4 else frame


_BUILTIN: dict[str, Any] = {
    "replay": ReplayCamera,
    "still": StillImageCamera,
    "opencv": OpenCVCamera,
    "picamera2": Picamera2Camera,
}


def _camera_class(kind: str, setting: str) -> Any:
    from importlib.metadata import entry_points

    for entry in entry_points(group="ordvakt.cameras"):
        if entry.name == kind:
            return entry.load()
    if kind in _BUILTIN:
        return _BUILTIN[kind]
    raise ConfigurationError(f"{setting} = {kind!r}: unknown camera; expected one of {', '.join(camera_kinds())}")


def open_camera(
    choice: str | CameraConfig | HardwareConfig | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    **options: Any,
) -> Camera:
    """Open the camera named by ``choice`` (a kind, or a configuration whose ``camera.kind`` is set),
    else by ``$ORDVAKT_CAMERA``. ``options`` (path, device, width, height) override the configuration."""
    env = os.environ if environ is None else environ
    prefix = ""
    if isinstance(choice, HardwareConfig):
        config, prefix = choice.camera, f"{choice.source}: "
    elif isinstance(choice, CameraConfig):
        config = choice
    else:
        config = CameraConfig(kind=choice)
    if options:
        config = replace(config, **options)
    names = {key: f"{prefix}hardware.camera.{key}" for key in ("kind", "path", "device")}
    if config.kind is None:
        kind = env.get(ENV_KIND, "").strip()
        if not kind:
            raise ConfigurationError(
                f"{names['kind']} is not set and ${ENV_KIND} is empty; choose one of {', '.join(CAMERA_KINDS)}"
            )
        config = replace(
            config,
            kind=kind,
            path=config.path if config.path is not None else env.get(ENV_PATH),
            device=env.get(ENV_DEVICE, config.device),
        )
        names = {"kind": f"${ENV_KIND}", "path": f"${ENV_PATH}", "device": f"${ENV_DEVICE}"}
    assert config.kind is not None
    cls = _camera_class(config.kind, names["kind"])
    if config.kind in ("replay", "still") and config.path is None:
        raise ConfigurationError(f"{names['path']} is not set: a {config.kind} camera needs a path")
    setting = names["path"] if config.kind in ("replay", "still") else names["device"]
    if hasattr(cls, "from_config"):
        return cls.from_config(config, setting=setting)  # type: ignore[no-any-return]
    return cls(config)  # type: ignore[no-any-return]

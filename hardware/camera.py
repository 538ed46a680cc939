# SPDX-License-Identifier: GPL-3.0-or-later
"""Camera sources behind one small protocol; every frame is a numpy BGR ``uint8`` array (OpenCV order).

Back-ends (``ordvakt.cameras`` entry points in ``pyproject.toml``):

* ``picamera2`` — :class:`Picamera2Camera`, the Pi camera via libcamera (picamera2 runs in a worker
  process under the system's Python, :mod:`hardware.picamera_worker`; its ``RGB888`` frames are already BGR);
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
import json
import math
import mmap
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

from hardware.config import CAMERA_KINDS, CameraConfig, HardwareConfig, camera_kinds
from hardware.errors import CaptureError, ConfigurationError, DeviceUnavailable, HardwareError
from hardware.picamera_worker import EXPOSURE_CONTROLS, SETTLE_FRAMES

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


#: The worker (its own process, under the system's Python: see :mod:`hardware.picamera_worker`).
PICAMERA_WORKER = Path(__file__).with_name("picamera_worker.py")
#: Seconds the worker gets to open the camera (exposure settling and one autofocus cycle included), and to
#: answer any other request beyond the time the request itself may take.
OPEN_TIMEOUT_S = 30.0
ANSWER_TIMEOUT_S = 10.0


def system_python() -> list[str]:
    """The command that runs the worker: the Python this venv was made from (Debian's, which sees picamera2),
    isolated from the venv's packages and environment (``-I``)."""
    base = Path(sys.base_prefix) / "bin" / "python3"
    return [str(base if base.exists() else sys.executable), "-I"]


class Picamera2Camera(_LiveCamera):
    """The Raspberry Pi camera via picamera2/libcamera, driven by a worker process under the system's Python.

    Debian builds picamera2 against its own numpy (1.24 on Bookworm) and the application runs on numpy 2 (the
    OpenCV it is measured with needs it): one process cannot hold both, so :mod:`hardware.picamera_worker`
    (:class:`~hardware.picamera_worker.Picamera2Driver`) opens the camera in a process of its own and sends
    the frames over a pipe. It sets the camera up as picamera2's maintainers advise for stills: a full
    resolution ``main`` stream for the tiles and a ``lores`` one for judging motion and sharpness; exposure
    and white balance settled, then locked; an autofocus lens focused once, then fixed (at ``focus_m``
    metres when given). ``python``: the command that runs the worker (default :func:`system_python`),
    ``env``: its environment; ``shared_memory``: frames handed over in shared memory (else through the pipe, at
    about twice the cost: 11 and 22 ms for a 2 MP frame on the development machine).
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
        python: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        shared_memory: bool = True,
    ) -> None:
        super().__init__(clock)
        if not isinstance(camera_num, int) or isinstance(camera_num, bool):
            raise ConfigurationError(f"{setting} = {camera_num!r}: picamera2 takes a camera number (0, 1)")
        self.camera_num = camera_num
        self._setting = setting
        self._lock = threading.Lock()
        self._pending = bytearray()
        self._shared: tuple[str, int, mmap.mmap] | None = None  # the worker's frame buffer, mapped here
        command = [*(python if python is not None else system_python()), str(PICAMERA_WORKER)]
        self._log = tempfile.TemporaryFile()  # the worker's (and libcamera's) messages, for a failure's reason
        environment = dict(os.environ if env is None else env)
        # libcamera logs every stream configuration at INFO: warnings and errors are what a failure needs, and the
        # log file then stays small over weeks of running.
        environment.setdefault("LIBCAMERA_LOG_LEVELS", "*:WARN")
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, bufsize=0,
                env=environment)
        except OSError as exc:
            self._log.close()
            raise DeviceUnavailable(f"hardware.camera.kind = 'picamera2': {command[0]} cannot be started to "
                                    f"drive the camera ({exc.strerror or exc})") from None
        try:
            opened = self._request({"op": "open", "camera": camera_num, "width": width, "height": height,
                                    "focus_m": focus_m, "shared": shared_memory}, OPEN_TIMEOUT_S)
        except CaptureError as exc:  # the worker died or hung before the camera was open
            self._stop()
            raise DeviceUnavailable(f"hardware.camera.kind = 'picamera2': the camera cannot be opened: {exc}") from None
        except BaseException:
            self._stop()
            raise
        self.exposure: dict[str, Any] = _exposure(opened["exposure"])
        self.lens_position: float | None = opened["lens_position"]

    @classmethod
    def from_config(cls, config: CameraConfig, setting: str = "hardware.camera.device") -> Picamera2Camera:
        device = int(config.device) if isinstance(config.device, str) and config.device.isdigit() else config.device
        return cls(device, width=config.width, height=config.height, setting=setting)  # type: ignore[arg-type]

    def lock_exposure(self, settle_frames: int = SETTLE_FRAMES) -> dict[str, Any]:
        """Let auto-exposure and white balance settle on the scene, then fix them there; returns the controls set.
        Call it again (e.g. after calibrating under new light) to re-measure."""
        self.exposure = _exposure(self._request({"op": "lock_exposure", "settle_frames": settle_frames},
                                                ANSWER_TIMEOUT_S + settle_frames))
        return self.exposure

    def apply_exposure(self, controls: Mapping[str, Any]) -> dict[str, Any]:
        """Fix exposure, gain and white balance at values measured before (by :meth:`lock_exposure` during
        calibration), so the board keeps the colours it was calibrated with after a restart. Only the three
        known controls are taken; values that are not finite positive numbers are refused."""
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in EXPOSURE_CONTROLS:
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
        self.exposure = _exposure(self._request({"op": "apply_exposure", "controls": fixed}))
        return self.exposure

    def fix_focus(self, focus_m: float | None = None) -> float | None:
        """Fix the lens of an autofocus camera: at ``focus_m`` metres, else where one autofocus cycle on the
        board put it. Returns the lens position (dioptres), or None for a fixed-focus camera."""
        self.lens_position = self._request({"op": "fix_focus", "focus_m": focus_m}, OPEN_TIMEOUT_S)["lens_position"]
        return self.lens_position

    def capture(self) -> np.ndarray:
        return self._request({"op": "capture", "stream": "main"})  # type: ignore[no-any-return]

    def capture_lores(self) -> np.ndarray:
        """The low-resolution stream's picture as grey (its Y plane): for motion and sharpness checks."""
        return self._request({"op": "capture", "stream": "lores"})  # type: ignore[no-any-return]

    def best_still(self, timeout_s: float = 1.0, *, frames: int = 5) -> np.ndarray:
        """A full still from the first request whose low-resolution picture is nearly as sharp as the sharpest of
        the next ``frames`` (a hand moving away blurs the first ones); bounded by ``timeout_s``, always one."""
        return self._request({"op": "best_still", "timeout_s": timeout_s, "frames": frames},  # type: ignore[no-any-return]
                             ANSWER_TIMEOUT_S + max(0.0, timeout_s))

    def close(self) -> None:
        if self._process is None:
            return
        try:
            self._request({"op": "close"})
        except HardwareError:
            pass  # closing anyway
        finally:
            self._stop()

    def _stop(self) -> None:
        self._unmap()
        process, self._process = self._process, None
        if process is None:
            return
        for pipe in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self._log.close()

    def _request(self, request: dict[str, Any], timeout_s: float = ANSWER_TIMEOUT_S) -> Any:
        """Send one request and wait for its answer: its value, or the picture it carries."""
        with self._lock:
            process = self._process
            if process is None or process.stdin is None or process.stdout is None:
                raise CaptureError(f"Pi camera {self.camera_num} is closed")
            deadline = self._clock_now() + timeout_s
            try:
                answer = self._exchange(process, request, deadline)
                if isinstance(answer, _SharedPicture):
                    try:
                        return self._shared_frame(*answer)
                    except OSError:
                        # The worker's buffer cannot be mapped here (a sandbox hiding /proc, say): the pictures
                        # come through the pipe from now on, this one again.
                        self._exchange(process, {"op": "shared", "on": False}, deadline)
                        return self._exchange(process, request, deadline)
                return answer
            except (OSError, ValueError, EOFError) as exc:
                reason = self._worker_said() or str(exc) or type(exc).__name__
                raise CaptureError(f"Pi camera {self.camera_num}: its worker stopped answering ({reason})") from None

    def _exchange(self, process: subprocess.Popen[bytes], request: dict[str, Any], deadline: float) -> Any:
        """One request and its answer: the value, the picture that came through the pipe, or where the picture
        lies in shared memory (:class:`_SharedPicture`)."""
        assert process.stdin is not None
        process.stdin.write(json.dumps(request).encode() + b"\n")
        head = json.loads(self._read_line(process, deadline))
        if not head.get("ok"):
            raise self._error(head.get("error"), str(head.get("message")))
        if "array" not in head:
            return head.get("value")
        shape = tuple(int(n) for n in head["array"]["shape"])
        if "memfd" in head["array"]:
            return _SharedPicture(str(head["array"]["memfd"]), int(head["array"]["bytes"]), shape)
        frame = np.empty(shape, np.uint8)
        self._read_into(process, frame.data.cast("B"), deadline)
        return frame

    def _shared_frame(self, path: str, size: int, shape: tuple[int, ...]) -> np.ndarray:
        """A copy of the frame the worker left in its shared buffer (mapped here on first sight)."""
        if self._shared is None or self._shared[:2] != (path, size):
            self._unmap()
            with open(path, "rb") as buffer:
                self._shared = (path, size, mmap.mmap(buffer.fileno(), size, access=mmap.ACCESS_READ))
        return np.ndarray(shape, np.uint8, buffer=self._shared[2]).copy()

    def _unmap(self) -> None:
        if self._shared is not None:
            self._shared[2].close()
            self._shared = None

    @staticmethod
    def _clock_now() -> float:
        return time.monotonic()  # the request deadlines are real time whatever clock judges the stills

    def _error(self, kind: Any, message: str) -> HardwareError:
        if kind == "missing":
            return DeviceUnavailable(f"hardware.camera.kind = 'picamera2': {message}")
        if kind == "unavailable":
            return DeviceUnavailable(f"{self._setting} = {self.camera_num!r}: {message}")
        if kind == "config":
            return ConfigurationError(f"{self._setting}: {message}")
        return CaptureError(message)

    def _wait_readable(self, process: subprocess.Popen[bytes], deadline: float) -> None:
        assert process.stdout is not None
        remaining = deadline - self._clock_now()
        if remaining <= 0 or not select.select([process.stdout], [], [], remaining)[0]:
            raise EOFError("no answer in the time a request is given")

    def _read_line(self, process: subprocess.Popen[bytes], deadline: float) -> bytes:
        assert process.stdout is not None
        while b"\n" not in self._pending:
            self._wait_readable(process, deadline)
            chunk = process.stdout.read(65536)
            if not chunk:
                raise EOFError("it ended")
            self._pending += chunk
        end = self._pending.index(b"\n") + 1
        line, self._pending = bytes(self._pending[:end]), self._pending[end:]
        return line

    def _read_into(self, process: subprocess.Popen[bytes], view: memoryview, deadline: float) -> None:
        assert process.stdout is not None
        got = min(len(self._pending), len(view))
        view[:got] = self._pending[:got]
        del self._pending[:got]
        while got < len(view):
            self._wait_readable(process, deadline)
            n = process.stdout.readinto(view[got:])  # type: ignore[attr-defined]
            if not n:
                raise EOFError("it ended in the middle of a picture")
            got += n

    def _worker_said(self) -> str:
        """The last line the worker wrote to its log (a traceback's last line names the problem)."""
        with contextlib.suppress(OSError, ValueError):
            self._log.seek(0)
            lines = [line.strip() for line in self._log.read().decode(errors="replace").splitlines() if line.strip()]
            return lines[-1] if lines else ""
        return ""


class _SharedPicture(NamedTuple):
    """Where the worker left a picture: its memfd (a /proc path), the buffer's size, the picture's shape."""

    path: str
    size: int
    shape: tuple[int, ...]


def _exposure(controls: Any) -> dict[str, Any]:
    """Controls as the worker sent them, ColourGains a tuple again (JSON carries it as a list)."""
    fixed = dict(controls or {})
    if isinstance(fixed.get("ColourGains"), list):
        fixed["ColourGains"] = tuple(fixed["ColourGains"])
    return fixed


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

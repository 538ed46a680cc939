# SPDX-License-Identifier: GPL-3.0-or-later
"""The Pi camera driven through picamera2, in a process of its own under the system's Python.

Debian's picamera2 (and simplejpeg, which it imports) are built against Debian's numpy: 1.24 on Raspberry Pi
OS Bookworm. The application needs numpy 2 (the OpenCV it was measured with, 5.0, is built against it), and
one process cannot load both. So :class:`hardware.camera.Picamera2Camera` starts this file with the system's
``python3`` and talks to it over a pipe; nothing here imports the project, OpenCV or anything but the standard
library, numpy and picamera2.

Protocol (stdin/stdout, one request at a time): a request is one JSON line ``{"op": ..., ...}``; the answer is
one JSON line, ``{"ok": true, "value": ...}`` or ``{"ok": false, "error": KIND, "message": ...}`` (KIND:
``missing`` (picamera2 cannot be loaded), ``unavailable``, ``capture`` or ``config``), and when the value is a
picture ``"array": {"shape": [...]}`` followed by its ``uint8`` bytes, or (``open`` asked for ``shared``)
``"array": {"shape": [...], "memfd": PATH, "bytes": N}`` with the bytes in shared memory (:class:`SharedFrame`).
Operations: ``open`` (camera, width, height, focus_m, shared), ``capture`` (stream ``main`` or ``lores``),
``best_still`` (timeout_s, frames), ``lock_exposure`` (settle_frames), ``apply_exposure`` (controls), ``fix_focus``
(focus_m), ``shared`` (on: pictures in shared memory or not), ``close``. A picture that cannot be put in shared
memory comes through the pipe, and so do the later ones.
"""

from __future__ import annotations

import json
import mmap
import os
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO

try:
    import numpy as np
except ImportError:  # answered as "missing" on the first request (Debian's python3-picamera2 brings numpy)
    np = None  # type: ignore[assignment]

#: The low-resolution stream the still-frame test reads (the full still is only taken when it is wanted).
LORES_SIZE = (640, 480)
#: Frames given to auto-exposure and white balance to settle before they are locked.
SETTLE_FRAMES = 10
#: A full still is taken once a low-resolution frame is at least this share as sharp as the sharpest seen.
STILL_SHARPNESS_SHARE = 0.9
#: libcamera's AfModeEnum values (picamera2's ``libcamera.controls.AfModeEnum.Manual`` / ``.Auto``).
AF_MANUAL = 0
AF_AUTO = 1
#: The three controls an exposure lock consists of.
EXPOSURE_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains")


class WorkerError(Exception):
    """A request that failed; ``kind`` says how (``missing``, ``unavailable``, ``capture``, ``config``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def grey_sharpness(grey: np.ndarray) -> float:
    """Variance of the 4-neighbour Laplacian of a grey picture (inner pixels): higher = sharper.

    >>> flat = np.full((8, 8), 100, np.uint8)
    >>> grey_sharpness(flat)
    0.0
    >>> grey_sharpness(np.indices((8, 8)).sum(axis=0).astype(np.uint8) % 2 * 255) > 0
    True
    """
    g = grey.astype(np.float32)
    lap = g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:] - 4 * g[1:-1, 1:-1]
    return float(lap.var())


def bgr(frame: np.ndarray) -> np.ndarray:
    """``RGB888``/``XRGB8888`` arrays are BGR(A) in memory: drop the padding byte, keep the order."""
    return frame[:, :, :3] if frame.ndim == 3 and frame.shape[2] == 4 else frame


def import_picamera2() -> Any:
    """The Picamera2 class, or a :class:`WorkerError` saying in one line why not."""
    if np is None:
        raise WorkerError("missing", f"numpy cannot be imported by {sys.executable}; on the Pi run "
                          "`sudo apt install python3-picamera2` (it brings python3-numpy)")
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        raise WorkerError("missing", f"picamera2 cannot be imported by {sys.executable} ({exc}); on the Pi "
                          "run `sudo apt install python3-picamera2`") from None
    except Exception as exc:  # numpy ABI mismatch (ValueError), libcamera (RuntimeError, OSError)
        hint = (f"a numpy installed with pip shadows Debian's: `sudo {sys.executable} -m pip uninstall numpy`"
                if "numpy" in str(exc).lower() or isinstance(exc, ValueError)
                else "check `rpicam-hello --list-cameras`")
        raise WorkerError("missing", f"picamera2 fails to load ({type(exc).__name__}: {exc}); {hint}") from None
    return Picamera2


class Picamera2Driver:
    """The Pi camera set up as picamera2's maintainers advise for stills:

    * one still configuration with two streams: ``main`` at full resolution in ``RGB888`` (= BGR in memory)
      for reading the tiles, ``lores`` (YUV420, :data:`LORES_SIZE`) for judging motion and sharpness cheaply;
    * auto-exposure and white balance run for :data:`SETTLE_FRAMES` frames, then are locked at the values they
      found (a hand or a shadow crossing the board must not change the board's colours between moves);
    * on a camera with autofocus (Camera Module 3) one autofocus cycle on the board, then the lens is fixed
      there (``focus_m`` fixes it at a known distance instead).

    Failures are :class:`WorkerError`; the messages name no setting (the caller knows which one it was).
    """

    def __init__(self, camera_num: int = 0, *, width: int | None = None, height: int | None = None,
                 focus_m: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        picamera2 = import_picamera2()
        self._clock = clock
        try:
            found = len(picamera2.global_camera_info())
        except Exception as exc:  # libcamera not running, no permission on /dev/media*
            raise WorkerError("unavailable", f"libcamera cannot list cameras: {exc}") from None
        if not 0 <= camera_num < found:
            raise WorkerError("unavailable", f"no such camera; libcamera found {found} "
                              "(check the ribbon cable and `rpicam-hello --list-cameras`)")
        self.camera_num = camera_num
        try:
            camera = picamera2(camera_num)
        except Exception as exc:
            raise WorkerError("unavailable", f"the camera cannot be opened: {exc}") from None
        self.camera = camera
        self.exposure: dict[str, Any] = {}
        self.lens_position: float | None = None
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
            try:
                self.close()
            except Exception:  # the first problem is the one to report
                pass
            raise WorkerError("unavailable", f"the camera cannot be started: {exc}") from None

    def lock_exposure(self, settle_frames: int = SETTLE_FRAMES) -> dict[str, Any]:
        """Let auto-exposure and white balance settle on the scene, then fix them there; returns the controls set."""
        camera = self.camera
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        metadata: dict[str, Any] = {}
        for _ in range(max(1, settle_frames)):
            metadata = camera.capture_metadata()
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for name in EXPOSURE_CONTROLS:
            if name in metadata:
                fixed[name] = metadata[name]
        camera.set_controls(fixed)
        self.exposure = fixed
        return fixed

    def apply_exposure(self, fixed: dict[str, Any]) -> dict[str, Any]:
        """Set controls checked by the caller (:meth:`hardware.camera.Picamera2Camera.apply_exposure`)."""
        self.camera.set_controls(fixed)
        self.exposure = fixed
        return fixed

    def fix_focus(self, focus_m: float | None = None) -> float | None:
        """Fix the lens of an autofocus camera: at ``focus_m`` metres, else where one autofocus cycle on the
        board put it. Returns the lens position (dioptres), or None for a fixed-focus camera."""
        camera = self.camera
        if "AfMode" not in getattr(camera, "camera_controls", {}):
            return None
        if focus_m is not None:
            position = 1.0 / max(focus_m, 0.01)
        else:
            camera.set_controls({"AfMode": AF_AUTO})
            camera.autofocus_cycle()
            position = float(camera.capture_metadata().get("LensPosition", 0.0))
        camera.set_controls({"AfMode": AF_MANUAL, "LensPosition": position})
        self.lens_position = position
        return position

    def capture(self, stream: str = "main") -> np.ndarray:
        """The main stream's frame (BGR), or the low-resolution stream's grey Y plane."""
        try:
            frame = self.camera.capture_array(stream)
        except (RuntimeError, OSError) as exc:
            raise WorkerError("capture", f"Pi camera {self.camera_num} delivered no frame: {exc}") from None
        return frame[: LORES_SIZE[1], : LORES_SIZE[0]] if stream == "lores" else bgr(frame)

    def best_still(self, timeout_s: float = 1.0, frames: int = 5) -> np.ndarray:
        """A full still from the first request whose low-resolution picture is nearly as sharp as the sharpest of
        the next ``frames`` (a hand moving away blurs the first ones); bounded by ``timeout_s``, always one."""
        deadline = self._clock() + max(0.0, timeout_s)
        scores = []
        for _ in range(max(1, frames)):
            scores.append(grey_sharpness(self.capture("lores")))
            if self._clock() >= deadline:
                break
        target = max(scores) * STILL_SHARPNESS_SHARE
        while True:
            try:
                with self.camera.captured_request() as request:
                    lores = request.make_array("lores")[: LORES_SIZE[1], : LORES_SIZE[0]]
                    if grey_sharpness(lores) >= target or self._clock() >= deadline:
                        return bgr(request.make_array("main"))
            except (RuntimeError, OSError) as exc:
                raise WorkerError("capture", f"Pi camera {self.camera_num} delivered no frame: {exc}") from None

    def close(self) -> None:
        try:
            self.camera.stop()
        finally:
            self.camera.close()


def _number(request: dict[str, Any], key: str, default: Any = None) -> Any:
    value = request.get(key, default)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise WorkerError("config", f"{key} = {value!r}: expected a number")
    return value


def _answer(driver: Picamera2Driver | None, request: dict[str, Any]) -> tuple[Picamera2Driver | None, Any]:
    """The new driver (opened or closed by the request) and the request's value."""
    op = request.get("op")
    if op == "open":
        if driver is not None:
            raise WorkerError("config", "the camera is open already")
        camera = request.get("camera", 0)
        if isinstance(camera, bool) or not isinstance(camera, int):
            raise WorkerError("config", f"camera = {camera!r}: picamera2 takes a camera number (0, 1)")
        driver = Picamera2Driver(camera, width=_number(request, "width"), height=_number(request, "height"),
                                 focus_m=_number(request, "focus_m"))
        return driver, {"exposure": driver.exposure, "lens_position": driver.lens_position}
    if op == "close":
        if driver is not None:
            driver.close()
        return None, None
    if driver is None:
        raise WorkerError("config", f"{op!r} before the camera was opened")
    if op == "capture":
        stream = request.get("stream", "main")
        if stream not in ("main", "lores"):
            raise WorkerError("config", f"stream = {stream!r}: expected 'main' or 'lores'")
        return driver, driver.capture(stream)
    if op == "best_still":
        return driver, driver.best_still(_number(request, "timeout_s", 1.0), int(_number(request, "frames", 5)))
    if op == "lock_exposure":
        return driver, driver.lock_exposure(int(_number(request, "settle_frames", SETTLE_FRAMES)))
    if op == "apply_exposure":
        controls = request.get("controls")
        if not isinstance(controls, dict):
            raise WorkerError("config", f"controls = {controls!r}: expected a table")
        if "ColourGains" in controls:
            controls = {**controls, "ColourGains": tuple(controls["ColourGains"])}
        return driver, driver.apply_exposure(controls)
    if op == "fix_focus":
        return driver, {"lens_position": driver.fix_focus(_number(request, "focus_m"))}
    raise WorkerError("config", f"unknown request {op!r}")


def _plain(value: Any) -> Any:
    """A value as JSON can carry it (picamera2's metadata holds tuples and numpy numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if np is not None and isinstance(value, np.generic):
        return value.item()
    return value


class SharedFrame:
    """A frame's bytes handed over in shared memory (a memfd the application maps through /proc) instead of the
    pipe: a 2 MP frame through a pipe cost 20 ms, a copy into shared memory one or two. One buffer, made anew
    when a frame of another size comes; the application copies each frame out before its next request."""

    def __init__(self) -> None:
        self._fd: int | None = None
        self._map: mmap.mmap | None = None
        self._size = 0

    def put(self, frame: Any) -> dict[str, Any]:
        """Copy ``frame`` (uint8, any strides) into the buffer; what the answer's ``array`` says of it."""
        size = int(frame.size)
        if self._map is None or size != self._size:
            self.close()
            self._fd = os.memfd_create("ordvakt-camera-frame")
            os.ftruncate(self._fd, max(size, 1))
            self._map = mmap.mmap(self._fd, max(size, 1))
            self._size = size
        np.ndarray(frame.shape, np.uint8, buffer=self._map)[...] = frame
        return {"shape": list(frame.shape), "memfd": f"/proc/{os.getpid()}/fd/{self._fd}", "bytes": size}

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
        if self._fd is not None:
            os.close(self._fd)
        self._fd, self._map, self._size = None, None, 0


def serve(requests: BinaryIO, answers: BinaryIO) -> int:
    """Answer requests until ``close`` or the end of the input; the camera is closed on the way out.
    Pictures go into shared memory when the ``open`` request asked for ``shared`` (and the system has memfd),
    else their bytes follow the answer on the pipe."""
    driver: Picamera2Driver | None = None
    shared: SharedFrame | None = None
    try:
        for line in requests:
            array = None
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise WorkerError("config", f"request {line[:60]!r}: expected a JSON object")
                op = request.get("op")
                if op in ("open", "shared"):
                    if shared is not None:
                        shared.close()
                    on = request.get("shared" if op == "open" else "on")
                    shared = SharedFrame() if on and hasattr(os, "memfd_create") else None
                driver, value = (driver, None) if op == "shared" else _answer(driver, request)
                head: dict[str, Any] = {"ok": True}
                if np is not None and isinstance(value, np.ndarray):
                    if shared is not None:
                        try:
                            head["array"] = shared.put(value)
                        except OSError:  # no memfd here (a sandbox's system call filter): the pipe from now on
                            shared.close()
                            shared = None
                    if shared is None:
                        array = np.ascontiguousarray(value, np.uint8)
                        head["array"] = {"shape": list(array.shape)}
                    value = None
                head["value"] = _plain(value)
            except WorkerError as exc:
                op, head = None, {"ok": False, "error": exc.kind, "message": str(exc)}
            except ValueError as exc:  # not JSON
                op, head = None, {"ok": False, "error": "config", "message": f"request {line[:60]!r}: {exc}"}
            answers.write(json.dumps(head).encode() + b"\n")
            if array is not None:
                answers.write(array.data.cast("B"))
            answers.flush()
            if op == "close":
                return 0
    finally:
        if shared is not None:
            shared.close()
        if driver is not None:
            try:
                driver.close()
            except Exception:  # the process ends either way
                pass
    return 0


def main() -> int:
    """Serve on stdin and on the process's stdout as it was at the start; anything else that writes to stdout
    (a library printing) goes to stderr instead, so it cannot break the answers."""
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    sys.exit(main())

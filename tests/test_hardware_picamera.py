# SPDX-License-Identifier: GPL-3.0-or-later
"""The Pi camera: the driver (picamera2 as a fake module, in this process) and the worker process the
application talks to (a fake picamera2 module on the worker's path, frames over the real pipe).
The real camera runs in tests/test_hardware_real.py on a Pi."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest

from hardware.camera import Picamera2Camera, open_camera, system_python
from hardware.config import HardwareConfig
from hardware.errors import CaptureError, ConfigurationError, DeviceUnavailable
from hardware.picamera_worker import Picamera2Driver, WorkerError, grey_sharpness

# -- the driver, with picamera2 as a fake module in this process ------------------------------------------


class FakeRequest:
    def __init__(self, camera: FakePicamera2, number: int) -> None:
        self.camera, self.number = camera, number

    def make_array(self, stream: str) -> np.ndarray:
        return self.camera.frame(stream, self.number)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class FakePicamera2:
    """Records what Ordvakt asks of picamera2; lores frames follow ``sharp`` (True = a sharp picture)."""

    cameras = [{"Model": "imx708"}]
    controls_offered = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
    fail_start: Exception | None = None
    sharp = [True]

    def __init__(self, number: int) -> None:
        self.number = number
        self.camera_controls = dict(self.controls_offered)
        self.controls: list[dict] = []
        self.calls: list[str] = []
        self.requests = 0
        self.closed = False

    @classmethod
    def global_camera_info(cls):
        return cls.cameras

    def create_still_configuration(self, **streams):
        return {"kind": "still", **streams}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        if self.fail_start is not None:
            raise self.fail_start
        self.calls.append("start")

    def set_controls(self, controls: dict) -> None:
        self.controls.append(dict(controls))

    def capture_metadata(self) -> dict:
        self.calls.append("metadata")
        return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "LensPosition": 3.2}

    def autofocus_cycle(self) -> bool:
        self.calls.append("autofocus")
        return True

    def frame(self, stream: str, number: int) -> np.ndarray:
        if stream == "lores":  # YUV420: the Y plane, then U and V below it
            sharp = self.sharp[min(number, len(self.sharp) - 1)]
            y = np.random.default_rng(number).integers(0, 255, (480, 640), np.uint8) if sharp else \
                np.full((480, 640), 100, np.uint8)
            return np.vstack([y, np.zeros((240, 640), np.uint8)])
        return np.full((1296, 2304, 4), number % 256, np.uint8)  # XRGB8888-like padding byte

    def capture_array(self, stream: str) -> np.ndarray:
        self.requests += 1
        return self.frame(stream, self.requests - 1)

    def captured_request(self) -> FakeRequest:
        self.requests += 1
        return FakeRequest(self, self.requests - 1)

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = type("Picamera2", (FakePicamera2,), {"sharp": [True], "fail_start": None})
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module.Picamera2


def test_still_configuration_with_a_low_resolution_stream(fake_picamera2):
    driver = Picamera2Driver(0, width=2304, height=1296)
    config = driver.camera.config
    assert config["main"] == {"format": "RGB888", "size": (2304, 1296)}
    assert config["lores"] == {"format": "YUV420", "size": (640, 480)}
    assert driver.capture().shape == (1296, 2304, 3)  # the padding byte dropped, BGR order kept
    assert driver.capture("lores").shape == (480, 640)
    driver.close()
    assert driver.camera.closed and "stop" in driver.camera.calls


def test_locks_exposure_and_white_balance_at_the_settled_values(fake_picamera2):
    fake = Picamera2Driver(0).camera
    locked = next(c for c in fake.controls if c.get("AeEnable") is False)
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.5,
                      "ColourGains": (1.9, 1.6)}
    assert fake.controls[0] == {"AeEnable": True, "AwbEnable": True}  # measured first, then locked
    assert fake.calls.count("metadata") >= 10


def test_camera_module_3_focuses_once_then_fixes_the_lens(fake_picamera2):
    driver = Picamera2Driver(0)
    assert "autofocus" in driver.camera.calls and driver.lens_position == 3.2
    assert driver.camera.controls[-1] == {"AfMode": 0, "LensPosition": 3.2}
    at_half_a_metre = Picamera2Driver(0, focus_m=0.5)
    assert at_half_a_metre.camera.controls[-1] == {"AfMode": 0, "LensPosition": 2.0}
    assert "autofocus" not in at_half_a_metre.camera.calls


def test_fixed_focus_camera_gets_no_focus_controls(fake_picamera2):
    fake_picamera2.controls_offered = {}
    driver = Picamera2Driver(0)
    assert not any("AfMode" in c for c in driver.camera.controls) and driver.fix_focus() is None


def test_best_still_waits_for_a_sharp_low_resolution_picture(fake_picamera2):
    # Requests 0-4 are judged; 5 and 6 are blurred (a hand), 7 is sharp: its full still is returned.
    fake_picamera2.sharp = [True, False, True, False, False, False, False, True]
    times = iter(range(100))
    driver = Picamera2Driver(0, clock=lambda: next(times) * 0.01)
    driver.camera.requests = 0
    still = driver.best_still(timeout_s=5.0)
    assert still.shape == (1296, 2304, 3) and int(still[0, 0, 0]) == 7


def test_the_worker_judges_sharpness_as_the_application_does():
    """The worker has no OpenCV: its Laplacian must rank pictures as hardware.camera.sharpness does."""
    from hardware.camera import sharpness

    rng = np.random.default_rng(3)
    sharp = rng.integers(0, 255, (480, 640), np.uint8)
    softer = (sharp.astype(np.float32) * 0.5 + 64).astype(np.uint8)
    flat = np.full((480, 640), 90, np.uint8)
    ours, theirs = [grey_sharpness(p) for p in (sharp, softer, flat)], [sharpness(p) for p in (sharp, softer, flat)]
    assert ours[0] > ours[1] > ours[2] == 0 and theirs[0] > theirs[1] > theirs[2]
    assert ours[0] == pytest.approx(theirs[0], rel=0.05)  # the same measure, borders aside


def test_a_camera_that_fails_to_start_is_one_line_and_closed(fake_picamera2):
    fake_picamera2.fail_start = RuntimeError("Failed to start camera: Device or resource busy")
    with pytest.raises(WorkerError, match=r"^the camera cannot be started: .*busy$") as caught:
        Picamera2Driver(0)
    assert caught.value.kind == "unavailable"


def test_no_camera_on_the_cable(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(WorkerError, match="libcamera found 0"):
        Picamera2Driver(0)


class RaisingFinder:
    """Makes ``import picamera2`` fail as it does when a pip numpy shadows Debian's."""

    def find_spec(self, name, path=None, target=None):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                             "Expected 96 from C header, got 88 from PyObject")
        return None


def test_numpy_abi_mismatch_at_import_is_one_line_with_the_fix(monkeypatch):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [RaisingFinder(), *sys.meta_path])
    with pytest.raises(WorkerError) as caught:
        Picamera2Driver(0)
    message = str(caught.value)
    assert caught.value.kind == "missing"
    assert "\n" not in message and "ValueError" in message and "pip uninstall numpy" in message


# -- the application's camera: the worker process, with a fake picamera2 on its path ------------------------

#: A picamera2 stand-in for the worker process: a main frame whose pixels count up (so their order and the
#: dropped padding byte can be checked), a noisy lores Y plane, what was asked logged to $FAKE_PICAMERA2_LOG.
#: It prints to stdout as a library might: the worker's answers must not be broken by that.
FAKE_MODULE = textwrap.dedent('''
    import json, os
    import numpy as np

    if os.environ.get("FAKE_NO_MEMFD"):  # as a sandbox's system call filter answers
        def _refused(*args):
            raise PermissionError(1, "Operation not permitted")
        os.memfd_create = _refused

    def _log(*event):
        with open(os.environ["FAKE_PICAMERA2_LOG"], "a") as f:
            f.write(json.dumps(event, default=float) + "\\n")

    class _Request:
        def __init__(self, camera):
            self.camera = camera
        def make_array(self, stream):
            return self.camera.capture_array(stream)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            pass

    class Picamera2:
        def __init__(self, number):
            self.camera_controls = {"AfMode": (0, 2, 0)}
            self.size = (64, 48)
            self.frames = 0
        @staticmethod
        def global_camera_info():
            return [{"Model": "imx708"}] * int(os.environ.get("FAKE_PICAMERA2_CAMERAS", "1"))
        def create_still_configuration(self, main, lores, buffer_count):
            return {"main": main, "lores": lores}
        def configure(self, config):
            self.size = tuple(config["main"].get("size", self.size))
            _log("configure", config["main"])
        def start(self):
            if os.environ.get("FAKE_PICAMERA2_FAIL_START"):
                raise RuntimeError(os.environ["FAKE_PICAMERA2_FAIL_START"])
        def set_controls(self, controls):
            _log("set_controls", controls)
        def capture_metadata(self):
            return {"ExposureTime": 8000, "AnalogueGain": np.float32(2.5), "ColourGains": (1.9, 1.6),
                    "LensPosition": 3.2}
        def autofocus_cycle(self):
            return True
        def capture_array(self, stream):
            self.frames += 1
            print("a chatty library writes this to stdout")
            if stream == "lores":
                return np.random.default_rng(self.frames).integers(0, 255, (720, 640), np.uint8)
            w, h = self.size
            return (np.arange(h * w * 4) % 251).astype(np.uint8).reshape(h, w, 4)
        def captured_request(self):
            return _Request(self)
        def stop(self):
            _log("stop")
        def close(self):
            _log("close")
''')


def _system_python_with_numpy() -> list[str]:
    """The Python this venv was made from, when it has a numpy of its own (Debian's on a Pi: 1.24 on Bookworm,
    where the venv has numpy 2), else nothing."""
    base = system_python()[0]
    if Path(base).resolve() == Path(sys.executable).resolve():
        return []
    found = subprocess.run([base, "-s", "-c", "import numpy; print(numpy.__version__)"], capture_output=True,
                           text=True, check=False)
    return [base] if found.returncode == 0 else []


#: The worker under this test's Python, and under the system's Python with its own numpy where there is one
#: (the Pi's case: picamera2's numpy 1 there, the application's numpy 2 here).
WORKER_PYTHONS = [[sys.executable], *([p] for p in _system_python_with_numpy())]


@pytest.fixture
def worker(tmp_path):
    """Keyword arguments that start Picamera2Camera's worker with the fake picamera2, and its log."""
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "picamera2.py").write_text(FAKE_MODULE)
    log = tmp_path / "calls.jsonl"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "fake"), "FAKE_PICAMERA2_LOG": str(log)}

    def calls() -> list[list]:
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    return {"python": [sys.executable], "env": env}, calls


@pytest.mark.parametrize("shared", [True, False], ids=["shared-memory", "pipe"])
@pytest.mark.parametrize("python", WORKER_PYTHONS, ids=lambda p: "system-python" if p != [sys.executable] else "venv")
def test_frames_come_over_the_pipe_byte_for_byte(worker, python, shared):
    options, calls = worker
    with Picamera2Camera(0, width=64, height=48, shared_memory=shared, **{**options, "python": python}) as camera:
        frame = camera.capture()
        expected = (np.arange(48 * 64 * 4) % 251).astype(np.uint8).reshape(48, 64, 4)[:, :, :3]
        assert frame.dtype == np.uint8 and frame.shape == (48, 64, 3) and np.array_equal(frame, expected)
        assert camera.capture_lores().shape == (480, 640)  # another size: a new shared buffer
        assert np.array_equal(camera.best_still(timeout_s=0.5), expected)
        assert np.array_equal(camera.capture(), expected)  # the frame handed out before is not overwritten
        assert np.array_equal(frame, expected)
        # the exposure the worker locked, as picamera2 gave it (a numpy number and a tuple made plain)
        assert camera.exposure == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                                   "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}
        assert camera.lens_position == 3.2
    assert ["configure", {"format": "RGB888", "size": [64, 48]}] in calls()
    assert calls()[-2:] == [["stop"], ["close"]]
    assert camera._process is None  # the worker is gone


def test_exposure_saved_at_calibration_is_checked_here_and_set_there(worker):
    options, calls = worker
    with Picamera2Camera(0, **options) as camera:
        fixed = camera.apply_exposure({"ExposureTime": 12000, "AnalogueGain": 1.25, "ColourGains": [2.0, 1.4],
                                       "Brightness": 0.9})
        assert fixed == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.25,
                         "ColourGains": (2.0, 1.4)}  # unknown controls left out
        assert calls()[-1] == ["set_controls", {**fixed, "ColourGains": [2.0, 1.4]}]
        for bad in ({"ExposureTime": float("nan"), "AnalogueGain": 1.0}, {"ExposureTime": -5, "AnalogueGain": 1.0},
                    {"ExposureTime": "8000", "AnalogueGain": 1.0}, {"AnalogueGain": 1.0}):
            with pytest.raises(ConfigurationError, match="exposure"):
                camera.apply_exposure(bad)
        assert calls()[-1][1]["ExposureTime"] == 12000  # nothing set by a refused call
        assert camera.fix_focus(0.5) == 2.0


def test_camera_problems_are_one_line_naming_the_setting(worker):
    options, _ = worker
    options["env"]["FAKE_PICAMERA2_CAMERAS"] = "0"
    with pytest.raises(DeviceUnavailable, match=r"^hardware.camera.device = 0: no such camera; libcamera found 0"):
        Picamera2Camera(0, **options)
    options["env"].update(FAKE_PICAMERA2_CAMERAS="1", FAKE_PICAMERA2_FAIL_START="Device or resource busy")
    with pytest.raises(DeviceUnavailable, match=r"= 0: the camera cannot be started: Device or resource busy$"):
        Picamera2Camera(0, **options)
    with pytest.raises(ConfigurationError, match="picamera2 takes a camera number"):
        Picamera2Camera("front", **options)  # type: ignore[arg-type]


def test_missing_picamera2_names_the_setting_and_the_package(worker):
    options, _ = worker
    options["env"]["PYTHONPATH"] = ""  # the worker's Python has no picamera2
    config = HardwareConfig.from_mapping({"camera": {"kind": "picamera2"}})
    with pytest.raises(DeviceUnavailable) as caught:
        Picamera2Camera(0, **options)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("hardware.camera.kind = 'picamera2': picamera2 cannot be")
    assert "python3-picamera2" in message
    with pytest.raises(DeviceUnavailable, match="hardware.camera.kind = 'picamera2'"):
        open_camera(config)  # the system's Python here has no picamera2 either


def test_a_worker_that_dies_fails_the_capture_in_one_line(worker):
    options, _ = worker
    camera = Picamera2Camera(0, **options)
    try:
        camera._process.kill()
        camera._process.wait()
        with pytest.raises(CaptureError, match=r"^Pi camera 0: its worker stopped answering") as caught:
            camera.capture()
        assert "\n" not in str(caught.value)
    finally:
        camera.close()


def test_a_worker_python_that_cannot_start_is_one_line(worker, tmp_path):
    options, _ = worker
    with pytest.raises(DeviceUnavailable, match=r"hardware.camera.kind = 'picamera2': .*nope cannot be started"):
        Picamera2Camera(0, python=[str(tmp_path / "nope")], env=options["env"])


def test_the_worker_runs_under_the_python_the_venv_was_made_from():
    command = system_python()
    assert command[-1] == "-I" and Path(command[0]).name.startswith("python")
    assert Path(command[0]).resolve() == (Path(sys.base_prefix) / "bin" / "python3").resolve() \
        or not (Path(sys.base_prefix) / "bin" / "python3").exists()


def test_pictures_come_through_the_pipe_where_shared_memory_is_refused(worker, monkeypatch):
    """A system call filter that refuses memfd in the worker, or a /proc the application cannot open the worker's
    buffer through: the frames come through the pipe instead, the same bytes."""
    options, _ = worker
    expected = (np.arange(48 * 64 * 4) % 251).astype(np.uint8).reshape(48, 64, 4)[:, :, :3]
    options["env"]["FAKE_NO_MEMFD"] = "1"
    with Picamera2Camera(0, width=64, height=48, **options) as camera:
        assert np.array_equal(camera.capture(), expected) and np.array_equal(camera.capture(), expected)
        assert camera._shared is None
    del options["env"]["FAKE_NO_MEMFD"]
    with Picamera2Camera(0, width=64, height=48, **options) as camera:
        def hidden(*args):
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(camera, "_shared_frame", hidden)
        assert np.array_equal(camera.capture(), expected)  # asked again, through the pipe
        assert np.array_equal(camera.capture(), expected) and camera.capture_lores().shape == (480, 640)

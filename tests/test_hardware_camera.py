# SPDX-License-Identifier: GPL-3.0-or-later
"""Camera sources: replay folders (real game photos), still images, OpenCV on a video file, errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import (
    Camera,
    OpenCVCamera,
    Picamera2Camera,
    ReplayCamera,
    StillImageCamera,
    open_camera,
    sharpness,
)
from hardware.config import CameraConfig, HardwareConfig
from hardware.errors import CaptureError, ConfigurationError, DeviceUnavailable, HardwareError

GAME01 = Path("../shared/data/photos/scrabscrap/game01")


def write_numbered_images(folder: Path, numbers: list[int]) -> None:
    folder.mkdir(exist_ok=True)
    for n in numbers:
        # Each image's pixel value is its number, so the order can be read back from the frames.
        cv2.imwrite(str(folder / f"image-{n}.png"), np.full((8, 10, 3), n, np.uint8))


def test_replay_uses_natural_order_and_advance(tmp_path):
    write_numbered_images(tmp_path, [10, 2, 1, 11, 3])
    (tmp_path / "notes.txt").write_text("not an image")
    camera = ReplayCamera(tmp_path)
    assert isinstance(camera, Camera)
    assert camera.names == ["image-1.png", "image-2.png", "image-3.png", "image-10.png", "image-11.png"]
    seen = [int(camera.capture()[0, 0, 0])]
    while camera.advance():
        seen.append(int(camera.capture()[0, 0, 0]))
    assert seen == [1, 2, 3, 10, 11]
    assert not camera.advance() and int(camera.best_still(0.5)[0, 0, 0]) == 11  # stays on the last


def test_replay_feed_drives_a_test(tmp_path):
    camera = ReplayCamera()
    with pytest.raises(CaptureError, match="no frames"):
        camera.capture()
    frame = np.zeros((4, 4, 3), np.uint8)
    camera.feed(frame)
    frame[:] = 9  # the camera keeps its own copy
    assert camera.capture().max() == 0
    camera.feed(np.full((4, 4, 3), 200, np.uint8))
    assert camera.capture().min() == 200 and len(camera) == 2
    with pytest.raises(CaptureError, match="BGR uint8"):
        camera.feed(np.zeros((4, 4), np.float32))


@pytest.mark.skipif(not GAME01.is_dir(), reason=f"shared photos missing: {GAME01}")
def test_replay_of_a_real_game_folder():
    with open_camera("replay", path=str(GAME01)) as camera:
        assert camera.names[:3] == ["image-1.jpg", "image-2.jpg", "image-3.jpg"]
        assert camera.names[9] == "image-10.jpg"
        frame = camera.capture()
        assert frame.dtype == np.uint8 and frame.shape == (976, 992, 3)
        # The ScrabScrap board is green: in BGR order the G channel dominates on average.
        b, g, r = frame.reshape(-1, 3).mean(axis=0)
        assert g > r and g > b


def test_still_camera(tmp_path):
    image = tmp_path / "board.png"
    cv2.imwrite(str(image), np.full((5, 7, 3), (10, 20, 30), np.uint8))
    camera = open_camera(CameraConfig(kind="still", path=str(image)))
    assert isinstance(camera, StillImageCamera)
    assert camera.capture()[0, 0].tolist() == [10, 20, 30] and camera.capture().shape == (5, 7, 3)


def test_opencv_camera_best_still_is_the_sharpest_frame(tmp_path):
    video = tmp_path / "clip.avi"
    rng = np.random.default_rng(1)
    sharp = (rng.random((120, 160)) > 0.5).astype(np.uint8) * 255
    frames = [cv2.GaussianBlur(sharp, (0, 0), sigma) for sigma in (6, 4, 0.1, 3, 5, 7, 8)]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for frame in frames:
        writer.write(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    writer.release()
    # A video file stands in for /dev/video0; OpenCVCamera.BUFFERED_FRAMES are dropped first.
    OpenCVCamera.BUFFERED_FRAMES = 0
    try:
        with OpenCVCamera(str(video)) as camera:
            best = camera.best_still(timeout_s=5, frames=5)
        decoded = cv2.VideoCapture(str(video))
        scores = [sharpness(decoded.read()[1]) for _ in range(5)]  # as stored (MJPEG alters them)
        decoded.release()
        assert sharpness(best) == pytest.approx(max(scores))
        assert sharpness(best) > 3 * sorted(scores)[-2]
        # A zero timeout still returns a frame, after reading only one.
        with OpenCVCamera(str(video)) as camera:
            first = camera.best_still(timeout_s=0)
        assert sharpness(first) == pytest.approx(scores[0])
    finally:
        del OpenCVCamera.BUFFERED_FRAMES


# -- cameras that do not exist, bad choices ------------------------------------------------------


def test_missing_usb_camera_names_the_setting():
    config = HardwareConfig.from_mapping({"camera": {"kind": "opencv", "device": 57}})
    with pytest.raises(DeviceUnavailable, match=r"config.toml: hardware.camera.device = 57: no camera"):
        open_camera(config)


def test_missing_picamera2_names_the_setting():
    pytest.importorskip("numpy")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(DeviceUnavailable, match=r"hardware.camera.kind = 'picamera2'.*python3-picamera2"):
            Picamera2Camera()
    else:
        pytest.skip("picamera2 is installed here; tests/test_hardware_real.py covers it")


def test_environment_variable_chooses_when_the_config_does_not(tmp_path):
    write_numbered_images(tmp_path, [1, 2])
    env = {"ORDVAKT_CAMERA": "replay", "ORDVAKT_CAMERA_PATH": str(tmp_path)}
    assert isinstance(open_camera(HardwareConfig(), environ=env), ReplayCamera)
    assert isinstance(open_camera(environ=env), ReplayCamera)
    # An explicit choice wins over the environment.
    image = tmp_path / "image-1.png"
    assert isinstance(open_camera("still", path=str(image), environ=env), StillImageCamera)
    with pytest.raises(ConfigurationError, match=r"\$ORDVAKT_CAMERA = 'kinect': unknown camera"):
        open_camera(environ={"ORDVAKT_CAMERA": "kinect"})
    with pytest.raises(ConfigurationError, match=r"\$ORDVAKT_CAMERA_PATH is not set"):
        open_camera(environ={"ORDVAKT_CAMERA": "replay"})
    with pytest.raises(ConfigurationError, match=r"\$ORDVAKT_CAMERA_PATH = '.*nowhere': no such folder"):
        open_camera(environ={"ORDVAKT_CAMERA": "replay", "ORDVAKT_CAMERA_PATH": str(tmp_path / "nowhere")})
    unset = r"<defaults>: hardware.camera.kind is not set and \$ORDVAKT_CAMERA is empty"
    with pytest.raises(ConfigurationError, match=unset):
        open_camera(HardwareConfig(), environ={})


def test_bad_camera_files_name_the_setting(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    no_images = r"config.toml: hardware.camera.path = '.*empty': the folder has no images"
    with pytest.raises(ConfigurationError, match=no_images):
        open_camera(HardwareConfig.from_mapping({"camera": {"kind": "replay", "path": str(empty)}}))
    with pytest.raises(ConfigurationError, match=r"hardware.camera.path = '.*gone.jpg': no such image file"):
        open_camera(HardwareConfig.from_mapping({"camera": {"kind": "still", "path": str(tmp_path / "gone.jpg")}}))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    with pytest.raises(HardwareError, match="cannot read"):
        StillImageCamera(broken)


# -- picamera2 through a fake module (the real one runs in tests/test_hardware_real.py on a Pi) -----------


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
    import sys
    import types

    module = types.ModuleType("picamera2")
    module.Picamera2 = type("Picamera2", (FakePicamera2,), {"sharp": [True], "fail_start": None})
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module.Picamera2


def test_picamera2_still_configuration_with_a_low_resolution_stream(fake_picamera2):
    with Picamera2Camera(0, width=2304, height=1296) as camera:
        config = camera._camera.config
        assert config["main"] == {"format": "RGB888", "size": (2304, 1296)}
        assert config["lores"] == {"format": "YUV420", "size": (640, 480)}
        assert camera.capture().shape == (1296, 2304, 3)  # the padding byte dropped, BGR order kept
        assert camera.capture_lores().shape == (480, 640)
    assert camera._camera.closed and "stop" in camera._camera.calls


def test_picamera2_locks_exposure_and_white_balance_at_the_settled_values(fake_picamera2):
    with Picamera2Camera(0) as camera:
        fake = camera._camera
        locked = next(c for c in fake.controls if c.get("AeEnable") is False)
    assert locked == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.5,
                      "ColourGains": (1.9, 1.6)}
    assert fake.controls[0] == {"AeEnable": True, "AwbEnable": True}  # measured first, then locked
    assert fake.calls.count("metadata") >= 10


def test_picamera2_applies_exposure_saved_at_calibration_and_refuses_nonsense(fake_picamera2):
    with Picamera2Camera(0) as camera:
        fixed = camera.apply_exposure({"ExposureTime": 12000, "AnalogueGain": 1.25, "ColourGains": [2.0, 1.4],
                                       "Brightness": 0.9})
        assert fixed == camera._camera.controls[-1] == {"AeEnable": False, "AwbEnable": False,
                                                        "ExposureTime": 12000, "AnalogueGain": 1.25,
                                                        "ColourGains": (2.0, 1.4)}  # unknown controls left out
        for bad in ({"ExposureTime": float("nan"), "AnalogueGain": 1.0}, {"ExposureTime": -5, "AnalogueGain": 1.0},
                    {"ExposureTime": "8000", "AnalogueGain": 1.0}, {"AnalogueGain": 1.0}):
            with pytest.raises(ConfigurationError, match="exposure"):
                camera.apply_exposure(bad)
        assert camera._camera.controls[-1]["ExposureTime"] == 12000  # nothing set by a refused call


def test_camera_module_3_focuses_once_then_fixes_the_lens(fake_picamera2):
    with Picamera2Camera(0) as camera:
        fake = camera._camera
    assert "autofocus" in fake.calls and camera.lens_position == 3.2
    assert fake.controls[-1] == {"AfMode": 0, "LensPosition": 3.2}
    with Picamera2Camera(0, focus_m=0.5) as at_half_a_metre:
        assert at_half_a_metre._camera.controls[-1] == {"AfMode": 0, "LensPosition": 2.0}
        assert "autofocus" not in at_half_a_metre._camera.calls


def test_fixed_focus_camera_gets_no_focus_controls(fake_picamera2):
    fake_picamera2.controls_offered = {}
    with Picamera2Camera(0) as camera:
        assert not any("AfMode" in c for c in camera._camera.controls) and camera.fix_focus() is None


def test_best_still_waits_for_a_sharp_low_resolution_picture(fake_picamera2):
    # Requests 0-4 are judged; 5 and 6 are blurred (a hand), 7 is sharp: its full still is returned.
    fake_picamera2.sharp = [True, False, True, False, False, False, False, True]
    times = iter(range(100))
    with Picamera2Camera(0, clock=lambda: next(times) * 0.01) as camera:
        camera._camera.requests = 0
        still = camera.best_still(timeout_s=5.0)
    assert still.shape == (1296, 2304, 3) and int(still[0, 0, 0]) == 7


def test_picamera2_that_fails_to_start_is_one_line_and_closed(fake_picamera2):
    fake_picamera2.fail_start = RuntimeError("Failed to start camera: Device or resource busy")
    with pytest.raises(DeviceUnavailable, match=r"hardware.camera.device = 0: the camera cannot be started: .*busy"):
        Picamera2Camera(0)


def test_no_camera_on_the_cable(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(DeviceUnavailable, match="libcamera found 0"):
        Picamera2Camera(0)


class RaisingFinder:
    """Makes ``import picamera2`` fail as it does when a pip numpy shadows Debian's."""

    def find_spec(self, name, path=None, target=None):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                             "Expected 96 from C header, got 88 from PyObject")
        return None


def test_numpy_abi_mismatch_at_import_is_one_line_with_the_fix(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.setattr(sys, "meta_path", [RaisingFinder(), *sys.meta_path])
    config = HardwareConfig.from_mapping({"camera": {"kind": "picamera2"}})
    with pytest.raises(DeviceUnavailable) as caught:
        open_camera(config)
    message = str(caught.value)
    assert "\n" not in message and "ValueError" in message and "pip uninstall numpy" in message

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

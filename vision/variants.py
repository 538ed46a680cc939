# SPDX-License-Identifier: GPL-3.0-or-later
"""Altered copies of board photos for robustness tests: light, exposure, blur, rotation, noise, JPEG, tilt, hands.

``python -m vision.variants SRC_DIR OUT_DIR`` writes one sub-folder per variant (photos keep their names,
other files such as the GCG are copied), so ``ordvakt replay OUT_DIR/warm --gcg ...`` runs on them.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np


def white_balance(frame: np.ndarray, r: float, b: float) -> np.ndarray:
    return cv2.multiply(frame, np.array([b, 1.0, r, 0.0]), dtype=cv2.CV_8U)


def brightness(frame: np.ndarray, k: float) -> np.ndarray:
    return cv2.convertScaleAbs(frame, alpha=k)


def rotate(frame: np.ndarray, degrees: float) -> np.ndarray:
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(frame, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def noise(frame: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def tilt(frame: np.ndarray, degrees: float) -> np.ndarray:
    """The camera tilted about the horizontal axis: a keystone (top edge narrower than the bottom)."""
    h, w = frame.shape[:2]
    shrink = np.tan(np.radians(degrees)) * 0.5 * w * 0.5
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[shrink, 0], [w - shrink, 0], [w, h], [0, h]])
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(src, dst), (w, h), borderMode=cv2.BORDER_REPLICATE)


def hand(frame: np.ndarray, *, seed: int = 0, reach: float = 0.45) -> np.ndarray:
    """Paste a shaded, skin-coloured arm and hand reaching in from the bottom edge."""
    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    out = frame.copy()
    mask = np.zeros((h, w), np.uint8)
    x = int(w * rng.uniform(0.3, 0.7))
    tip = (int(x + w * rng.uniform(-0.1, 0.1)), int(h * (1 - reach)))
    cv2.line(mask, (x, h), tip, 255, int(w * 0.11))
    cv2.ellipse(mask, tip, (int(w * 0.08), int(h * 0.07)), float(rng.uniform(0, 180)), 0, 360, 255, -1)
    mask = cv2.GaussianBlur(mask, (15, 15), 0)
    skin = np.zeros_like(frame, np.float32)
    skin[:] = (120, 150, 205)  # BGR skin tone
    shade = cv2.GaussianBlur((rng.random((h // 16, w // 16)) * 0.5 + 0.75).astype(np.float32), (5, 5), 0)
    shade = cv2.resize(shade, (w, h))
    skin *= shade[..., None]
    alpha = (mask.astype(np.float32) / 255)[..., None]
    out = (frame * (1 - alpha) + skin * alpha).clip(0, 255).astype(np.uint8)
    # The arm's shadow falls beside it.
    shadow = np.roll(mask, (int(h * 0.02), int(w * 0.03)), axis=(0, 1)).astype(np.float32) / 255
    shadow = shadow * (1 - alpha[..., 0])
    return (out * (1 - 0.35 * shadow[..., None])).astype(np.uint8)


VARIANTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "warm": lambda f: white_balance(f, 1.15, 0.8),
    "cool": lambda f: white_balance(f, 0.85, 1.15),
    "dark": lambda f: brightness(f, 0.6),
    "bright": lambda f: brightness(f, 1.3),
    "blur": lambda f: cv2.GaussianBlur(f, (7, 7), 0),
    "rotate2": lambda f: rotate(f, 2.0),
    "noise8": lambda f: noise(f, 8.0),
    "jpeg30": lambda f: jpeg(f, 30),
    "tilt10": lambda f: tilt(f, 10.0),
}


def write_variants(src: Path, out: Path, names: list[str] | None = None) -> None:
    for name in names or list(VARIANTS):
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        for path in sorted(src.iterdir()):
            if path.suffix.lower() in (".jpg", ".jpeg", ".png"):
                frame = cv2.imread(str(path))
                cv2.imwrite(str(target / (path.stem + ".png")), VARIANTS[name](frame))
            elif path.is_file():
                shutil.copy(path, target / path.name)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: python -m vision.variants SRC_DIR OUT_DIR [VARIANT ...]", file=sys.stderr)
        sys.exit(2)
    write_variants(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:] or None)

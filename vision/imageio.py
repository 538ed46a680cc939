# SPDX-License-Identifier: GPL-3.0-or-later
"""Reading and writing image files safely: sizes checked from the header before decoding, truncated
files refused, and every failure an :class:`~vision.errors.ImageReadError` naming the file.

A photo's header is read with the standard library (PNG, JPEG, BMP, GIF, WebP), so a file claiming
60000 x 60000 pixels is refused before OpenCV allocates anything; other formats are left to OpenCV,
whose own pixel limit (``OPENCV_IO_MAX_IMAGE_PIXELS``, set by the CLI) then applies.

>>> image_size(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR\\x00\\x00\\xea\\x60\\x00\\x00\\xea\\x60")
(60000, 60000)
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np

from vision.errors import ImageReadError

#: Largest photo accepted: 64 megapixels (the Pi's cameras give at most 12; a 64 MP frame is 192 MB).
MAX_PIXELS = 64 * 1024 * 1024
#: Largest image file accepted.
MAX_FILE_BYTES = 100 * 1024 * 1024
#: Extensions OpenCV can write.
WRITABLE = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")

_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG, JPEG, BMP, GIF or WebP header; None when the format is not one of these."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data.startswith((b"GIF87a", b"GIF89a")) and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data.startswith(b"BM") and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
        if chunk == b"VP8 ":
            width, height = struct.unpack("<HH", data[26:30])
            return width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(data[21:25], "little")
            return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
        return None
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def _truncated(data: bytes) -> bool:
    if data.startswith(b"\xff\xd8"):
        # Entropy-coded data never holds FF D9 (FF is stuffed as FF 00), so the end-of-image marker must
        # follow the last start-of-scan; a cut file still decodes, with its bottom filled in grey.
        scan = data.rfind(b"\xff\xda")
        return scan < 0 or data.find(b"\xff\xd9", scan) < 0
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"IEND" not in data[-64:]
    return False


def decode_image(data: bytes, name: str, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """A BGR frame from an image file's bytes; ``name`` is used in messages."""
    import cv2

    if not data:
        raise ImageReadError(f"{name!r}: the image file is empty")
    size = image_size(data)
    if size is not None:
        width, height = size
        if width <= 0 or height <= 0:
            raise ImageReadError(f"{name!r}: the image header gives a size of {width} x {height} pixels")
        if width * height > max_pixels:
            raise ImageReadError(f"{name!r}: {width} x {height} pixels is more than the {max_pixels // 2**20} "
                                 "megapixels a board photo needs; scale it down")
    if _truncated(data):
        raise ImageReadError(f"{name!r}: the image file is cut short (incomplete download or copy?)")
    try:
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise ImageReadError(f"{name!r}: cannot decode the image ({str(exc).strip().splitlines()[-1]})") from None
    if frame is None or frame.size == 0:
        raise ImageReadError(f"{name!r}: not a readable image file (jpg, png, bmp, webp, ...)")
    if frame.shape[0] * frame.shape[1] > max_pixels:
        raise ImageReadError(f"{name!r}: {frame.shape[1]} x {frame.shape[0]} pixels is too big for a board photo")
    return frame


def read_image(path: str | os.PathLike[str], *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """A BGR frame from an image file, checked as :func:`decode_image` says."""
    name = str(path)
    try:
        size = os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            raise ImageReadError(f"{name!r}: {size / 2**20:.0f} MB is too big for a photo "
                                 f"(at most {MAX_FILE_BYTES // 2**20} MB)")
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ImageReadError(f"{name!r}: no such image file") from None
    except IsADirectoryError:
        raise ImageReadError(f"{name!r}: is a folder, not an image file") from None
    except OSError as exc:
        raise ImageReadError(f"{name!r}: cannot read: {exc.strerror or exc}") from None
    return decode_image(data, name, max_pixels=max_pixels)


def write_image(path: str | os.PathLike[str], image: np.ndarray) -> Path:
    """Write ``image``; the extension picks the format. A failed write raises, never passes silently."""
    import cv2

    target = Path(path)
    if target.suffix.lower() not in WRITABLE:
        raise ImageReadError(f"{str(target)!r}: cannot write images of type {target.suffix or '(none)'!r}; "
                             f"use one of {', '.join(WRITABLE)}")
    if not target.parent.is_dir():
        raise ImageReadError(f"{str(target)!r}: the folder {str(target.parent)!r} does not exist")
    try:
        ok, encoded = cv2.imencode(target.suffix.lower(), image)
    except cv2.error as exc:
        raise ImageReadError(f"{str(target)!r}: cannot encode the image ({exc})") from None
    if not ok:
        raise ImageReadError(f"{str(target)!r}: cannot encode the image")
    try:
        target.write_bytes(encoded.tobytes())
    except OSError as exc:
        raise ImageReadError(f"{str(target)!r}: cannot write: {exc.strerror or exc}") from None
    return target

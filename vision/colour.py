# SPDX-License-Identifier: GPL-3.0-or-later
"""Illumination normalisation: undo the light's colour cast before anything looks at colours.

A change of white balance multiplies each channel by a gain. We estimate the gains from the pixels
that should be neutral (tiles and the board's margin are near-grey, bright surfaces): a grey-world pass
first makes them findable, then the brightest low-chroma pixels set the white point. Every colour the
rest of :mod:`vision` compares is measured after this step, so profiles stay valid under other light.
The gains never push the frame's brightest surfaces past white: when the neutral pixels found are darker
than the board (a small board on a grey carpet), clipping would make tiles and pale squares one colour.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Width (about) of the copy the gains are measured on.
SAMPLE_WIDTH = 160
#: Brightness the neutral surfaces are scaled to, so exposure changes cancel out as well.
WHITE_LEVEL = 200.0
#: The brightest surfaces (this quantile of each pixel's largest channel) are kept at most at CLIP_LEVEL.
_BRIGHTEST, CLIP_LEVEL = 0.99, 250.0


def _quantile(values: np.ndarray, q: float) -> float:
    """The q-quantile by partial sort (several times faster than np.percentile on these sizes)."""
    k = min(len(values) - 1, max(0, int(q * (len(values) - 1))))
    return float(np.partition(values, k)[k])


def white_gains(frame: np.ndarray) -> np.ndarray:
    """Per-channel (B, G, R) gains that map the frame's neutral surfaces to a fixed grey."""
    h, w = frame.shape[:2]
    # A power-of-two shrink factor keeps INTER_AREA on its fast path (0.6 ms instead of 2 ms at 1 MP).
    factor = 1 << max(0, int(np.ceil(np.log2(max(w, 1) / SAMPLE_WIDTH))))
    small = _shrunk(frame, factor)
    # Channels first: numpy reduces contiguous rows far faster than the (N, 3) axis.
    px = np.ascontiguousarray(small.reshape(-1, 3).T, dtype=np.float32) + 1.0
    grey_world = px.mean(axis=1)
    gains = grey_world.mean() / grey_world
    for _ in range(2):
        b, g, r = px[0] * gains[0], px[1] * gains[1], px[2] * gains[2]
        lum = (b + g + r) / 3
        chroma = (np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)) / lum
        bright = lum >= _quantile(lum, 0.75)
        candidates = bright & (chroma <= _quantile(chroma[bright], 0.30))
        if candidates.sum() < 20:
            break
        ref = px[:, candidates].mean(axis=1)
        gains = WHITE_LEVEL / ref
    brightest = _quantile((px * gains[:, None]).max(axis=0), _BRIGHTEST)
    return (gains * min(1.0, CLIP_LEVEL / max(brightest, 1.0))).astype(np.float32)


def _shrunk(frame: np.ndarray, factor: int) -> np.ndarray:
    """``cv2.resize(frame, (w // factor, h // factor), interpolation=cv2.INTER_AREA)``, the same pixels: each
    the mean of its factor x factor block, rounded half to even. When the blocks tile the frame, their rows
    are summed as bytes first (one pass over the frame, a third of INTER_AREA's time at 2 MP and factor 16)."""
    h, w = frame.shape[:2]
    # Exact only for a power of two (1 / factor exact in float) that tiles the frame, and sums that fit.
    if factor <= 2 or factor & (factor - 1) or h % factor or w % factor or frame.dtype != np.uint8 or factor > 256:
        return cv2.resize(frame, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    rows = frame.reshape(h // factor, factor, -1)
    sums = rows[:, 0].astype(np.uint16)  # at most 256 * 255: no overflow
    for row in range(1, factor):
        np.add(sums, rows[:, row], out=sums)
    # Then the columns: a float INTER_AREA over factor columns is their mean, exact on these integers.
    shape = (h // factor, w) + frame.shape[2:]
    means = cv2.resize(sums.astype(np.float32).reshape(shape), (w // factor, h // factor),
                       interpolation=cv2.INTER_AREA)
    return np.rint(means * np.float32(1 / factor)).astype(np.uint8)


#: From this many pixels on, the gains are applied by a table of each channel's 256 scaled levels.
_TABLE_FROM = 16384


def apply_gains(frame: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The frame with its channels scaled (uint8, saturating). A large frame looks its levels up in a table
    made by the same scaling of every level (the same pixels, in two thirds of the time)."""
    if frame.ndim != 3:
        return frame
    scale = np.array([*gains.tolist(), 0.0])
    if frame.shape[0] * frame.shape[1] < _TABLE_FROM or frame.dtype != np.uint8 or frame.shape[2] != 3:
        return cv2.multiply(frame, scale, dtype=cv2.CV_8U)
    table = cv2.multiply(_LEVELS, scale, dtype=cv2.CV_8U)
    return cv2.LUT(frame, table)


_LEVELS = np.repeat(np.arange(256, dtype=np.uint8).reshape(1, 256, 1), 3, axis=2)


def normalise(frame: np.ndarray) -> np.ndarray:
    """The frame white-balanced on its own neutral surfaces."""
    return apply_gains(frame, white_gains(frame))

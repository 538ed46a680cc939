# SPDX-License-Identifier: GPL-3.0-or-later
"""pytesseract as an alternative letter reader, for comparison (slow: ~tens of ms per tile)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classifier import LetterGuess
from vision.glyphs import Glyph


class TesseractReader:
    def __init__(self, alphabet: str, lang: str = "deu") -> None:
        import pytesseract  # noqa: PLC0415 - optional back-end, imported only when used

        self._tess = pytesseract
        self.alphabet = alphabet
        self.config = f"--psm 10 -c tessedit_char_whitelist={alphabet}"
        self.lang = lang

    def classify(self, glyph: Glyph, k: int = 1) -> LetterGuess:
        if glyph.image is None:
            return LetterGuess((("?", 0.0),))
        img = (255 - np.clip(glyph.image, 0, 1) * 255).astype(np.uint8)
        img = cv2.copyMakeBorder(cv2.resize(img, (64, 64)), 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
        text = self._tess.image_to_string(img, lang=self.lang, config=self.config).strip().upper()
        letter = next((ch for ch in text if ch in self.alphabet), "")
        return LetterGuess(((letter or "?", 1.0 if letter else 0.0),))

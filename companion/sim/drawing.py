"""Small drawing helpers shared by the parts of the renderer.

Polygons are filled antialiased with sub-pixel precision (OpenCV's fixed-point ``shift`` of 4
bits), so edges move smoothly as objects move by fractions of a pixel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Colour = tuple[float, float, float] | float
"""A BGR colour, or a single value for one-channel masks."""

SUBPIXEL_BITS = 4


def fill(image: npt.NDArray[Any], pts: npt.NDArray[np.float64], colour: Colour) -> None:
    """Fills the polygon ``pts`` (n, 2 pixel coordinates) on ``image`` in place."""
    scaled = np.round(np.asarray(pts) * (1 << SUBPIXEL_BITS)).astype(np.int32)
    cv2.fillPoly(image, [scaled], colour, cv2.LINE_AA, SUBPIXEL_BITS)  # type: ignore[call-overload]


def shade(
    colour: tuple[int, int, int] | npt.NDArray[Any], factor: float
) -> tuple[float, float, float]:
    """``colour`` scaled by ``factor`` and kept within 0-255."""
    b, g, r = (min(255.0, max(0.0, float(c) * factor)) for c in colour)
    return (b, g, r)


def fill_many(
    image: npt.NDArray[Any], polygons: Sequence[npt.NDArray[np.float64]], colour: Colour
) -> None:
    """Fills several polygons that do not overlap (each (n, 2) pixels) in one call."""
    scaled = [np.round(np.asarray(p) * (1 << SUBPIXEL_BITS)).astype(np.int32) for p in polygons]
    cv2.fillPoly(image, scaled, colour, cv2.LINE_AA, SUBPIXEL_BITS)  # type: ignore[call-overload]

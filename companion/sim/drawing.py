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


def pixel_box(
    pts: npt.NDArray[Any], size: tuple[int, int], margin: int = 1
) -> tuple[int, int, int, int] | None:
    """The whole-pixel box (left, top, right, bottom) around ``pts`` (n, 2 pixels) within an
    image of ``size`` (width, height), widened by ``margin`` pixels for antialiased edges, or
    ``None`` when it lies outside."""
    left, top = np.floor(pts.min(axis=0)).astype(int) - margin
    right, bottom = np.ceil(pts.max(axis=0)).astype(int) + margin + 1
    left, top = max(int(left), 0), max(int(top), 0)
    right, bottom = min(int(right), size[0]), min(int(bottom), size[1])
    if right <= left or bottom <= top:
        return None
    return left, top, right, bottom


def fill(image: npt.NDArray[Any], pts: npt.NDArray[np.float64], colour: Colour) -> None:
    """Fills the polygon ``pts`` (n, 2 pixel coordinates) on ``image`` in place."""
    fill_many(image, [pts], colour)


def shade(
    colour: tuple[int, int, int] | npt.NDArray[Any], factor: float
) -> tuple[float, float, float]:
    """``colour`` scaled by ``factor`` and kept within 0-255."""
    b, g, r = (min(255.0, max(0.0, float(c) * factor)) for c in colour)
    return (b, g, r)


def blend(roi: npt.NDArray[np.uint8], over: cv2.typing.MatLike, weight: cv2.typing.MatLike) -> None:
    """``over`` laid on ``roi`` in place by ``weight`` (0-255 per channel, as ``roi``): in
    bytes, OpenCV's saturating way (cheaper than floats)."""
    kept = cv2.multiply(roi, cv2.bitwise_not(weight), scale=1 / 255)
    cv2.add(kept, cv2.multiply(over, weight, scale=1 / 255), dst=roi)


def fill_many(
    image: npt.NDArray[Any], polygons: Sequence[npt.NDArray[np.float64]], colour: Colour
) -> None:
    """Fills several polygons that do not overlap (each (n, 2) pixels) in one call."""
    scaled = [np.round(np.asarray(p) * (1 << SUBPIXEL_BITS)).astype(np.int32) for p in polygons]
    cv2.fillPoly(image, scaled, colour, cv2.LINE_AA, SUBPIXEL_BITS)  # type: ignore[call-overload]


def paste_quad(
    image: npt.NDArray[np.uint8],
    texture: npt.NDArray[np.uint8],
    target: npt.NDArray[np.float32],
    brightness: float,
) -> None:
    """Warps a BGRA ``texture`` onto the pixel quad ``target`` (its corners in texture order:
    top-left, top-right, bottom-right, bottom-left), scaled by ``brightness``."""
    height, width = image.shape[:2]
    box = pixel_box(target, (width, height))
    if box is None:
        return
    x0, y0, x1, y1 = box
    th, tw = texture.shape[:2]
    source = np.array([(0, 0), (tw, 0), (tw, th), (0, th)], np.float32)
    homography = cv2.getPerspectiveTransform(source, target - np.array([x0, y0], np.float32))
    warped = cv2.warpPerspective(texture, homography, (int(x1 - x0), int(y1 - y0)))
    weight = warped[..., 3:].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1]
    colour = np.minimum(warped[..., :3].astype(np.float32) * brightness, 255)
    roi[:] = (roi * (1 - weight) + colour * weight).astype(np.uint8)

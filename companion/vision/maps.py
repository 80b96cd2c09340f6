"""Per-pixel evidence on the warped board plane: what differs from the empty board, and how.

Every later step (checkers, dice, hands) asks the same questions of each pixel of the plane
view: does it differ from the empty board learned at calibration (``foreground``), does it look
like a white or a black checker (``whiteness``), or like neither (``other``: a hand, a cup, a
die)? Answering them once, with the colours learned for *this* board, keeps the readers free of
any colour constants, so an unseen board works as long as it was calibrated.

Conventions: images are ``float32`` arrays over the view of :mod:`companion.vision.plane` at
``scale`` px/mm; L*a*b* values use OpenCV's 0-255 scaling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.profile import Colours, Lab

FloatImage = npt.NDArray[np.float32]

FOREGROUND_LOW = 14.0
"""Colour difference (L*a*b* units) below which a pixel matches the empty board."""
FOREGROUND_HIGH = 34.0
"""Colour difference above which a pixel surely differs from the empty board."""
LIGHTNESS_WEIGHT = 0.6
UNLIKE_CHECKERS = 22.0
"""Colour distance from both checker colours beyond which foreground is something else."""
"""Lightness counts less than hue in colour differences: shadows and lamps change lightness."""


@dataclass(frozen=True, slots=True)
class PlaneMaps:
    """Evidence maps over the plane view (all the same size)."""

    scale: float
    lab: FloatImage
    foreground: FloatImage
    """0 = looks like the empty board, 1 = surely something on it."""
    whiteness: FloatImage
    """+1 looks like the white checkers, -1 like the black ones (meaningful on foreground)."""
    other: FloatImage
    """0..1: foreground unlike both checker colours (hands, cups, dice, sleeves)."""
    edges: FloatImage
    """Edge strength not present on the empty board (rims and seams of checkers)."""
    tolerant: FloatImage
    """:attr:`foreground`, except that a pixel within the range of its neighbours on the empty
    board matches it (:func:`reference_envelope`): a triangle's edge a pixel off is nothing
    new. Checkers, trays and hands are judged on it; the dice finder keeps the exact map, as
    measured on the demo game (a die's small face along such an edge was lost otherwise)."""


def to_lab(image_bgr: npt.NDArray[np.uint8]) -> FloatImage:
    lab: FloatImage = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab


_WEIGHTS = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], dtype=np.float32)


def colour_distance(lab: FloatImage, colour: Lab | FloatImage) -> FloatImage:
    """Weighted L*a*b* distance of every pixel to one colour (or to a same-size image)."""
    if isinstance(colour, np.ndarray) and colour.ndim == 3:
        diff = cv2.subtract(np.ascontiguousarray(lab, np.float32), colour.astype(np.float32))
    else:
        diff = np.asarray(lab, np.float32) - np.asarray(colour, dtype=np.float32)
    # the weighted square sum in one pass: squares, then one weighted channel sum
    squared = cv2.multiply(diff, diff)
    total = cv2.transform(squared, (_WEIGHTS**2).reshape(1, 3))
    distance: FloatImage = np.asarray(cv2.sqrt(total), dtype=np.float32).reshape(lab.shape[:-1])
    return distance


def distances_to_colours(lab: FloatImage, first: Lab, second: Lab) -> tuple[FloatImage, ...]:
    """:func:`colour_distance` to two fixed colours, sharing the work: with weights W,
    |W(x - c)|^2 = |Wx|^2 - 2 W^2 c . x + |Wc|^2, so both need one squared norm and one
    two-row linear map of every pixel."""
    pixels = np.ascontiguousarray(lab, np.float32)
    weights2 = _WEIGHTS**2
    norm = cv2.transform(cv2.multiply(pixels, pixels), weights2.reshape(1, 3))
    colours = np.array([first, second], dtype=np.float32)
    matrix = np.column_stack([-2.0 * weights2 * colours, (weights2 * colours**2).sum(axis=1)])
    linear = cv2.transform(pixels, matrix.astype(np.float32))
    distances = []
    flat_norm = norm.reshape(lab.shape[:-1])
    for channel in cv2.split(linear):
        squared = _at_least_zero(cv2.add(flat_norm, channel))
        distances.append(np.asarray(cv2.sqrt(squared), dtype=np.float32))
    return tuple(distances)


def _at_least_zero(values: npt.NDArray[np.floating[Any]] | cv2.typing.MatLike) -> FloatImage:
    """``max(values, 0)`` in one OpenCV pass (numpy's takes several times as long here)."""
    _threshold, kept = cv2.threshold(values, 0.0, 0.0, cv2.THRESH_TOZERO)
    return np.asarray(kept, dtype=np.float32)


def edge_strength(lab: FloatImage) -> FloatImage:
    lightness = lab[..., 0]
    gx = cv2.Sobel(lightness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lightness, cv2.CV_32F, 0, 1, ksize=3)
    strength: FloatImage = np.asarray(cv2.magnitude(gx, gy), dtype=np.float32) / np.float32(8.0)
    return strength


def camouflage(reference_lab: FloatImage, colours: Colours) -> FloatImage:
    """Per pixel of the empty board: its colour distance to the nearer checker colour."""
    smooth: FloatImage = np.asarray(cv2.blur(reference_lab, (5, 5)), dtype=np.float32)
    return np.minimum(
        colour_distance(smooth, colours.white), colour_distance(smooth, colours.black)
    )


def grow_edges(reference_edges: FloatImage) -> FloatImage:
    """The empty board's edges widened by a pixel: a frame's edges a pixel off them are the
    board's own, not a checker's rim."""
    return np.asarray(cv2.dilate(reference_edges, np.ones((3, 3), np.uint8)), dtype=np.float32)


def reference_envelope(reference_lab: FloatImage) -> tuple[FloatImage, FloatImage]:
    """The lowest and highest value of each channel of the empty board round every pixel.

    A frame a pixel off the calibration frame (the camera or the board nudged, a warp rounded
    differently) must not light up every triangle's edge as something new: a pixel matches
    the empty board when it lies within the range of its neighbours there.
    """
    kernel = np.ones((3, 3), np.uint8)
    low = np.asarray(cv2.erode(reference_lab, kernel), dtype=np.float32)
    high = np.asarray(cv2.dilate(reference_lab, kernel), dtype=np.float32)
    return low, high


def distance_to_range(lab: FloatImage, low: FloatImage, high: FloatImage) -> FloatImage:
    """Weighted L*a*b* distance of every pixel to the range ``low``-``high`` (per channel)."""
    pixels = np.ascontiguousarray(lab, np.float32)
    # per channel, how far below the lowest or above the highest value around it
    below = _at_least_zero(cv2.subtract(low, pixels))
    above = _at_least_zero(cv2.subtract(pixels, high))
    outside = cv2.add(below, above)
    total = cv2.transform(cv2.multiply(outside, outside), (_WEIGHTS**2).reshape(1, 3))
    distance: FloatImage = np.asarray(cv2.sqrt(total), dtype=np.float32).reshape(lab.shape[:-1])
    return distance


def plane_maps(
    view_lab: FloatImage,
    reference_lab: FloatImage,
    grown_edges: FloatImage,
    colours: Colours,
    scale: float,
    envelope: tuple[FloatImage, FloatImage],
) -> PlaneMaps:
    """The evidence maps of one frame against the empty board learned at calibration.

    A pixel is foreground when it differs from the empty board by much, or when it is clearly
    nearer to a checker colour than to the empty board there (a white checker on a cream point
    differs from it by little, but still less from the white checkers). ``grown_edges`` and
    ``envelope`` are the empty board's :func:`grow_edges` and :func:`reference_envelope`,
    made once per profile.
    """
    smooth: FloatImage = np.asarray(cv2.blur(view_lab, (3, 3)), dtype=np.float32)
    low, high = envelope
    to_white, to_black = distances_to_colours(smooth, colours.white, colours.black)
    nearest = np.minimum(to_white, to_black)
    foreground = _foreground(colour_distance(smooth, reference_lab), nearest)
    tolerant = _foreground(distance_to_range(smooth, low, high), nearest)
    whiteness = ((to_black - to_white) / (to_black + to_white + 1e-3)).astype(np.float32)
    other = tolerant * np.clip((nearest - UNLIKE_CHECKERS) / UNLIKE_CHECKERS, 0.0, 1.0)
    edges = np.clip(edge_strength(smooth) - grown_edges, 0.0, None)
    return PlaneMaps(
        scale=scale,
        lab=view_lab,
        foreground=foreground,
        whiteness=whiteness,
        other=other.astype(np.float32),
        edges=edges.astype(np.float32),
        tolerant=tolerant,
    )


def _foreground(difference: FloatImage, nearest: FloatImage) -> FloatImage:
    """0-1: how surely a pixel differs from the empty board (``difference``) or lies nearer to
    a checker colour (``nearest``) than to it."""
    absolute = (difference - FOREGROUND_LOW) / (FOREGROUND_HIGH - FOREGROUND_LOW)
    relative = (difference - nearest) / (np.maximum(difference + nearest, 1.0)) * 2.0 + 0.2
    relative *= np.clip(difference / FOREGROUND_LOW, 0.0, 1.0)
    foreground: FloatImage = np.clip(np.maximum(absolute, relative), 0.0, 1.0).astype(np.float32)
    return foreground

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

from companion.vision.plane import CANONICAL_LAYOUT, Layout
from companion.vision.profile import Colours, Lab

FloatImage = npt.NDArray[np.float32]

FOREGROUND_LOW = 14.0
"""Colour difference (L*a*b* units) below which a pixel matches the empty board."""
FOREGROUND_HIGH = 34.0
"""Colour difference above which a pixel surely differs from the empty board."""
LIGHTNESS_WEIGHT = 0.6
"""Lightness counts less than hue in colour differences: shadows and lamps change lightness."""
UNLIKE_CHECKERS = 22.0
"""Colour distance from both checker colours beyond which foreground is something else."""


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
    layout: Layout = CANONICAL_LAYOUT
    """Where this board's halves lie on the plane of its corners, which the camera's geometry
    (and so the dice finder) works on: the view shows them where the canonical board has them."""


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
    |W(x - c)|^2 = |Wx|^2 - 2 W^2 c . x + |Wc|^2, so both need one squared norm, and each
    colour one affine map of every pixel (one map per colour: OpenCV's two-row map of a
    three-channel image took twice as long as two one-row maps)."""
    pixels = np.ascontiguousarray(lab, np.float32)
    weights2 = _WEIGHTS**2
    norm = cv2.transform(cv2.multiply(pixels, pixels), weights2.reshape(1, 3))
    distances = []
    for colour in (first, second):
        target = np.asarray(colour, dtype=np.float32)
        row = np.append(-2.0 * weights2 * target, (weights2 * target**2).sum())
        squared = _at_least_zero(cv2.add(norm, cv2.transform(pixels, row.reshape(1, 4))))
        distances.append(np.asarray(cv2.sqrt(squared), dtype=np.float32).reshape(lab.shape[:-1]))
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


def nearest_checker_distance(lab: FloatImage, white: Lab, black: Lab) -> FloatImage:
    """Per pixel: its colour distance to the nearer of the two checker colours."""
    nearest: FloatImage = np.minimum(colour_distance(lab, white), colour_distance(lab, black))
    return nearest


def camouflage(reference_lab: FloatImage, colours: Colours) -> FloatImage:
    """Per pixel of the empty board: its colour distance to the nearer checker colour."""
    smooth: FloatImage = np.asarray(cv2.blur(reference_lab, (5, 5)), dtype=np.float32)
    return nearest_checker_distance(smooth, colours.white, colours.black)


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
    # per channel, how far below the lowest or above the highest value around it (at most
    # one of the two is positive, as low <= high)
    outside = _at_least_zero(cv2.max(cv2.subtract(low, pixels), cv2.subtract(pixels, high)))
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
    layout: Layout = CANONICAL_LAYOUT,
) -> PlaneMaps:
    """The evidence maps of one frame against the empty board learned at calibration.

    A pixel is foreground when it differs from the empty board by much, or when it is clearly
    nearer to a checker colour than to the empty board there (a white checker on a cream point
    differs from it by little, but still less from the white checkers). ``grown_edges`` and
    ``envelope`` are the empty board's :func:`grow_edges` and :func:`reference_envelope`,
    made once per profile; ``layout`` the profile's board proportions.
    """
    smooth: FloatImage = np.asarray(cv2.blur(view_lab, (3, 3)), dtype=np.float32)
    low, high = envelope
    to_white, to_black = distances_to_colours(smooth, colours.white, colours.black)
    nearest = np.minimum(to_white, to_black)
    foreground = _foreground(colour_distance(smooth, reference_lab), nearest)
    tolerant = _foreground(distance_to_range(smooth, low, high), nearest)
    whiteness = to_black - to_white
    whiteness /= to_black + to_white + np.float32(1e-3)
    unlike = nearest - np.float32(UNLIKE_CHECKERS)
    unlike /= np.float32(UNLIKE_CHECKERS)
    other = np.clip(unlike, np.float32(0.0), np.float32(1.0), out=unlike)
    other *= tolerant
    edges = _at_least_zero(cv2.subtract(edge_strength(smooth), grown_edges))
    return PlaneMaps(
        scale=scale,
        lab=view_lab,
        foreground=foreground,
        whiteness=whiteness,
        other=other,
        edges=edges,
        tolerant=tolerant,
        layout=layout,
    )


def _foreground(difference: FloatImage, nearest: FloatImage) -> FloatImage:
    """0-1: how surely a pixel differs from the empty board (``difference``) or lies nearer to
    a checker colour (``nearest``) than to it."""
    # in place, in float32: these maps are a frame's largest arrays
    span = np.float32(FOREGROUND_HIGH - FOREGROUND_LOW)
    absolute = (difference - np.float32(FOREGROUND_LOW)) / span
    total = difference + nearest
    np.maximum(total, np.float32(1.0), out=total)
    relative = difference - nearest
    relative /= total
    relative *= np.float32(2.0)
    relative += np.float32(0.2)
    # a pixel barely different from the empty board counts for little however near a colour
    gate = difference / np.float32(FOREGROUND_LOW)
    np.minimum(gate, np.float32(1.0), out=gate)
    relative *= gate
    np.maximum(absolute, relative, out=relative)
    foreground: FloatImage = np.clip(relative, np.float32(0.0), np.float32(1.0), out=relative)
    return foreground

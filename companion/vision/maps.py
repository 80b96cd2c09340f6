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

import math
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
_WEIGHTS_SQUARED = (_WEIGHTS**2).reshape(1, 3)

# Speed: the functions below do each formula's float32 steps in the same order as written
# plainly (the same values to the last bit), but in place where they can, in one buffer per
# call: every intermediate of a frame's maps is a frame-sized array, and each one fresh costs
# its allocation (page faults where the allocator returns it to the system) and a pass.

_ALIGNMENT = 64
"""Bytes to which scratch images are aligned (OpenCV's own allocations' alignment)."""


def _aligned_empty(shape: tuple[int, ...]) -> FloatImage:
    """An uninitialised ``float32`` image whose first pixel is :data:`_ALIGNMENT` aligned."""
    count = math.prod(shape)
    raw = np.empty(count + _ALIGNMENT // 4, np.float32)
    start = (-raw.ctypes.data % _ALIGNMENT) // 4
    return raw[start : start + count].reshape(shape)


def _scratch(shape: tuple[int, int, int]) -> FloatImage:
    """A flat buffer that holds a three-channel image of ``shape`` (:func:`_channels`) or
    three aligned one-channel images of its height and width (:func:`_planes`)."""
    return _aligned_empty((3 * _plane_stride(shape[:2]),))


def _plane_stride(size: tuple[int, int]) -> int:
    """Floats from one plane of a :func:`_scratch` to the next (aligned)."""
    step = _ALIGNMENT // 4
    return -(-size[0] * size[1] // step) * step


def _channels(scratch: FloatImage, shape: tuple[int, ...]) -> FloatImage:
    """A :func:`_scratch` as one three-channel image of ``shape``."""
    return scratch[: math.prod(shape)].reshape(shape)


def _planes(scratch: FloatImage, size: tuple[int, int]) -> tuple[FloatImage, ...]:
    """A :func:`_scratch` as three aligned one-channel images of ``size``."""
    stride, count = _plane_stride(size), size[0] * size[1]
    return tuple(scratch[i * stride : i * stride + count].reshape(size) for i in range(3))


def colour_distance(lab: FloatImage, colour: Lab | FloatImage) -> FloatImage:
    """Weighted L*a*b* distance of every pixel to one colour (or to a same-size image)."""
    pixels = np.ascontiguousarray(lab, np.float32)
    if isinstance(colour, np.ndarray) and colour.ndim == 3:
        diff = cv2.subtract(pixels, np.ascontiguousarray(colour, np.float32))
    else:
        # one OpenCV pass with the colour as a scalar (numpy's broadcast takes five times as
        # long); the float32 colour is exact as a double
        target = np.asarray(colour, dtype=np.float32)
        scalar = (float(target[0]), float(target[1]), float(target[2]), 0.0)
        diff = cv2.subtract(pixels, scalar)  # type: ignore[call-overload]
    return weighted_norm(diff, lab.shape[:-1])


def weighted_norm(
    diff: cv2.typing.MatLike,
    shape: tuple[int, ...],
    weights: npt.NDArray[np.float32] = _WEIGHTS_SQUARED,
    keep: bool = False,
) -> FloatImage:
    """The weighted length of every pixel's three channels (``weights``: the squared weight of
    each channel, a row); ``diff`` is used up unless ``keep``."""
    # the weighted square sum in one pass: squares, then one weighted channel sum
    squared = cv2.multiply(diff, diff) if keep else cv2.multiply(diff, diff, dst=diff)
    total = cv2.transform(squared, weights)
    distance = cv2.sqrt(total, dst=total)
    return np.asarray(distance, dtype=np.float32).reshape(shape)


def _distances_to_colours(
    pixels: FloatImage, first: Lab, second: Lab, scratch: FloatImage
) -> tuple[FloatImage, FloatImage]:
    """Each pixel's weighted L*a*b* distance to ``first`` and to ``second`` (a contiguous
    image), sharing the work: with weights W, |W(x - c)|^2 = |Wx|^2 - 2 W^2 c . x + |Wc|^2,
    so both need one squared norm, and each colour one affine map of every pixel (one map per
    colour: OpenCV's two-row map of a three-channel image took twice as long as two one-row
    maps). ``scratch`` (:func:`_scratch`) holds the squares."""
    weights2 = _WEIGHTS**2
    squares = cv2.multiply(pixels, pixels, dst=_channels(scratch, pixels.shape))
    norm = cv2.transform(squares, _WEIGHTS_SQUARED)
    distances = []
    for colour in (first, second):
        target = np.asarray(colour, dtype=np.float32)
        row = np.append(-2.0 * weights2 * target, (weights2 * target**2).sum())
        squared = cv2.transform(pixels, row.reshape(1, 4))
        squared = cv2.add(norm, squared, dst=squared)
        squared = _at_least_zero(squared, in_place=True)
        distance = cv2.sqrt(squared, dst=squared)
        distances.append(np.asarray(distance, dtype=np.float32).reshape(pixels.shape[:-1]))
    return distances[0], distances[1]


def _at_least_zero(
    values: npt.NDArray[np.floating[Any]] | cv2.typing.MatLike, in_place: bool = False
) -> FloatImage:
    """``max(values, 0)`` in one OpenCV pass (numpy's takes several times as long here)."""
    _threshold, kept = cv2.threshold(
        values, 0.0, 0.0, cv2.THRESH_TOZERO, dst=values if in_place else None
    )
    return np.asarray(kept, dtype=np.float32)


def edge_strength(lab: FloatImage) -> FloatImage:
    return _edge_strength(lab, _scratch(lab.shape))


def _edge_strength(lab: FloatImage, scratch: FloatImage) -> FloatImage:
    """:func:`edge_strength`; ``scratch`` (:func:`_scratch`) holds the lightness and its
    gradients."""
    planes = _planes(scratch, lab.shape[:2])
    lightness = cv2.extractChannel(lab, 0, dst=planes[0])
    gx = cv2.Sobel(lightness, cv2.CV_32F, 1, 0, dst=planes[1], ksize=3)
    gy = cv2.Sobel(lightness, cv2.CV_32F, 0, 1, dst=planes[2], ksize=3)
    # OpenCV's magnitude rounds a last bit differently with its output's alignment: an
    # aligned one (as OpenCV itself allocates) makes the map the same on every run
    strength: FloatImage = np.asarray(
        cv2.magnitude(gx, gy, magnitude=_aligned_empty(lab.shape[:2])), dtype=np.float32
    )
    strength /= np.float32(8.0)
    return strength


def nearest_checker_distance(lab: FloatImage, white: Lab, black: Lab) -> FloatImage:
    """Per pixel: its colour distance to the nearer of the two checker colours."""
    to_white = colour_distance(lab, white)
    nearest = cv2.min(to_white, colour_distance(lab, black), dst=to_white)
    return np.asarray(nearest, dtype=np.float32)


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
    return _distance_to_range(pixels, low, high, _scratch(pixels.shape))


def _distance_to_range(
    pixels: FloatImage, low: FloatImage, high: FloatImage, scratch: FloatImage
) -> FloatImage:
    """:func:`distance_to_range` of a contiguous image; ``scratch`` (:func:`_scratch`) holds
    the per-channel distances."""
    # per channel, how far the value lies outside its range: its distance to the nearest
    # value in the range (as low <= high); |x - clamped| is exactly max(low - x, x - high, 0)
    clamped = cv2.max(pixels, low, dst=_channels(scratch, pixels.shape))
    clamped = cv2.min(clamped, high, dst=clamped)
    outside = cv2.absdiff(pixels, clamped, dst=clamped)
    return weighted_norm(outside, pixels.shape[:-1])


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

    Every step below is the plain formula's, in the same order (the same values to the last
    bit), done in place where it can: the frame's per-channel differences all share one
    scratch buffer.
    """
    smooth = np.asarray(cv2.blur(view_lab, (3, 3)), dtype=np.float32)
    low, high = envelope
    scratch = _scratch(smooth.shape)
    to_white, to_black = _distances_to_colours(smooth, colours.white, colours.black, scratch)
    nearest = np.asarray(cv2.min(to_white, to_black), dtype=np.float32)
    difference = cv2.subtract(smooth, reference_lab, dst=_channels(scratch, smooth.shape))
    foreground = _foreground(weighted_norm(difference, smooth.shape[:-1]), nearest)
    tolerant = _foreground(_distance_to_range(smooth, low, high, scratch), nearest)
    whiteness = np.subtract(to_black, to_white)
    total = np.add(to_black, to_white, out=to_black)
    total += np.float32(1e-3)
    whiteness /= total
    unlike = np.subtract(nearest, np.float32(UNLIKE_CHECKERS), out=nearest)
    unlike /= np.float32(UNLIKE_CHECKERS)
    other = np.clip(unlike, np.float32(0.0), np.float32(1.0), out=unlike)
    other *= tolerant
    edges = cv2.subtract(_edge_strength(smooth, scratch), grown_edges)
    edges = _at_least_zero(edges, in_place=True)
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
    a checker colour (``nearest``) than to it. ``difference`` is used up (its memory holds
    the result's first term)."""
    # in place, in float32: these maps are a frame's largest arrays
    span = np.float32(FOREGROUND_HIGH - FOREGROUND_LOW)
    total = np.add(difference, nearest)
    np.maximum(total, np.float32(1.0), out=total)
    relative = np.subtract(difference, nearest)
    # twice the quotient in one pass, in place: doubling is exact, so 2 a / b rounds as
    # 2 (a / b) (numpy's two passes gave the same to the last bit)
    relative = np.asarray(cv2.divide(relative, total, dst=relative, scale=2.0), np.float32)
    relative += np.float32(0.2)
    # a pixel barely different from the empty board counts for little however near a colour
    gate = np.divide(difference, np.float32(FOREGROUND_LOW), out=total)
    np.minimum(gate, np.float32(1.0), out=gate)
    relative *= gate
    absolute = np.subtract(difference, np.float32(FOREGROUND_LOW), out=difference)
    absolute /= span
    np.maximum(absolute, relative, out=relative)
    foreground: FloatImage = np.clip(relative, np.float32(0.0), np.float32(1.0), out=relative)
    return foreground

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
    exact: FloatImage | ExactForeground
    """:attr:`foreground`, or what it is made from where only parts of it are asked for."""
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

    @property
    def foreground(self) -> FloatImage:
        """0 = looks like the empty board, 1 = surely something on it (made whole each time
        it is asked for: the dice finder asks only for a few windows of it,
        :meth:`foreground_in`)."""
        if isinstance(self.exact, ExactForeground):
            return self.exact.whole()
        return self.exact

    def foreground_in(self, rows: slice, cols: slice) -> FloatImage:
        """:attr:`foreground` over a window of the view."""
        if isinstance(self.exact, ExactForeground):
            return self.exact.window(rows, cols)
        return self.exact[rows, cols]

    def foreground_at(self, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> FloatImage:
        """:attr:`foreground` at view pixels (``rows`` and ``cols``, arrays of one shape)."""
        if isinstance(self.exact, ExactForeground):
            return self.exact.at(rows, cols)
        picked: FloatImage = self.exact[rows, cols]
        return picked

    @property
    def shape(self) -> tuple[int, int]:
        """The maps' size (rows, columns)."""
        return (self.tolerant.shape[0], self.tolerant.shape[1])


@dataclass(frozen=True, slots=True)
class ExactForeground:
    """What :attr:`PlaneMaps.foreground` is made from, made where it is asked for: every
    reader but the dice finder judges the :attr:`~PlaneMaps.tolerant` map, and the dice
    finder looks at a few die-sized windows and rings of points. Each pixel is made by the
    same steps as over the whole view (the same values to the last bit)."""

    smooth: FloatImage
    """The frame's plane view, smoothed as :func:`plane_maps` smooths it."""
    reference: FloatImage
    """The empty board (:func:`plane_maps`' ``reference_lab``)."""
    nearest: FloatImage
    """Every pixel's colour distance to the nearer checker colour."""

    def whole(self) -> FloatImage:
        return self.window(slice(None), slice(None))

    def window(self, rows: slice, cols: slice) -> FloatImage:
        pixels = self.smooth[rows, cols]
        if pixels.size == 0:
            return np.zeros(pixels.shape[:-1], np.float32)
        return self._foreground(
            colour_distance(pixels, self.reference[rows, cols]), self.nearest[rows, cols]
        )

    def at(self, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> FloatImage:
        if np.size(rows) == 0:
            return np.zeros(np.shape(rows), np.float32)
        # the pixels as a column image, one pixel a row
        distance = colour_distance(
            self.smooth[rows, cols].reshape(-1, 1, 3),
            self.reference[rows, cols].reshape(-1, 1, 3),
        )
        found = self._foreground(distance, self.nearest[rows, cols].reshape(-1, 1))
        return found.reshape(np.shape(rows))

    @staticmethod
    def _foreground(distance: FloatImage, nearest: FloatImage) -> FloatImage:
        return _foreground(distance, nearest, np.empty_like(distance), np.empty_like(distance))


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
    out: FloatImage | None = None,
) -> FloatImage:
    """The weighted length of every pixel's three channels (``weights``: the squared weight of
    each channel, a row), into ``out`` where given; ``diff`` is used up unless ``keep``."""
    # the weighted square sum in one pass: squares, then one weighted channel sum
    squared = cv2.multiply(diff, diff) if keep else cv2.multiply(diff, diff, dst=diff)
    total = cv2.transform(squared, weights, dst=out)
    distance = cv2.sqrt(total, dst=total)
    return np.asarray(distance, dtype=np.float32).reshape(shape)


def _distances_to_colours(
    pixels: FloatImage,
    first: Lab,
    second: Lab,
    scratch: FloatImage,
    out: tuple[FloatImage, FloatImage],
    norm: FloatImage,
) -> None:
    """Each pixel's weighted L*a*b* distance to ``first`` and to ``second`` (a contiguous
    image), into ``out``, sharing the work: with weights W, |W(x - c)|^2 = |Wx|^2 - 2 W^2 c . x
    + |Wc|^2, so both need one squared norm, and each colour one affine map of every pixel
    (one map per colour: OpenCV's two-row map of a three-channel image took twice as long as
    two one-row maps). ``scratch`` (:func:`_scratch`) holds the squares, ``norm`` (an image
    of the pixels' size) their weighted sum."""
    weights2 = _WEIGHTS**2
    squares = cv2.multiply(pixels, pixels, dst=_channels(scratch, pixels.shape))
    cv2.transform(squares, _WEIGHTS_SQUARED, dst=norm)
    for colour, squared in zip((first, second), out, strict=True):
        target = np.asarray(colour, dtype=np.float32)
        row = np.append(-2.0 * weights2 * target, (weights2 * target**2).sum())
        cv2.transform(pixels, row.reshape(1, 4), dst=squared)
        cv2.add(norm, squared, dst=squared)
        _at_least_zero(squared, in_place=True)
        cv2.sqrt(squared, dst=squared)


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
    pixels: FloatImage,
    low: FloatImage,
    high: FloatImage,
    scratch: FloatImage,
    out: FloatImage | None = None,
) -> FloatImage:
    """:func:`distance_to_range` of a contiguous image, into ``out`` where given; ``scratch``
    (:func:`_scratch`) holds the per-channel distances."""
    # per channel, how far the value lies outside its range: its distance to the nearest
    # value in the range (as low <= high); |x - clamped| is exactly max(low - x, x - high, 0)
    clamped = cv2.max(pixels, low, dst=_channels(scratch, pixels.shape))
    clamped = cv2.min(clamped, high, dst=clamped)
    outside = cv2.absdiff(pixels, clamped, dst=clamped)
    return weighted_norm(outside, pixels.shape[:-1], out=out)


STRIP_ROWS = 64
"""Rows of the view whose maps are made at once (:func:`plane_maps`): a strip's intermediate
images stay in the processor's cache, where the view's own (each over a megabyte) went out to
memory between steps. A multiple of 16 rows, so that every strip starts 64-byte aligned like
the whole view, and each OpenCV step treats its pixels exactly as over the whole view."""


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
    bit), done in place where it can, and strip by strip of :data:`STRIP_ROWS` rows after the
    view's smoothing: the frame's per-channel differences and each strip's intermediates all
    share a few scratch buffers. The exact :attr:`~PlaneMaps.foreground`, which only the dice
    finder looks at, in a few windows, is made only there (:class:`ExactForeground`).
    """
    smooth = np.asarray(cv2.blur(view_lab, (3, 3)), dtype=np.float32)
    height, width = smooth.shape[:2]
    nearest_all, tolerant, whiteness, other, edges = (
        _aligned_empty((height, width)) for _ in range(5)
    )
    work = _StripWork(width)
    for top in range(0, height, STRIP_ROWS):
        rows = slice(top, min(top + STRIP_ROWS, height))
        strip = smooth[rows]
        count = strip.shape[0]
        scratch, to_white, to_black, difference, spare = work.for_rows(count)
        nearest = nearest_all[rows]
        _distances_to_colours(
            strip, colours.white, colours.black, scratch, (to_white, to_black), spare
        )
        cv2.min(to_white, to_black, dst=nearest)
        _distance_to_range(strip, envelope[0][rows], envelope[1][rows], scratch, difference)
        _foreground(difference, nearest, tolerant[rows], spare)
        np.subtract(to_black, to_white, out=whiteness[rows])
        total = np.add(to_black, to_white, out=to_black)
        total += np.float32(1e-3)
        whiteness[rows] /= total
        unlike = np.subtract(nearest, np.float32(UNLIKE_CHECKERS), out=other[rows])
        unlike /= np.float32(UNLIKE_CHECKERS)
        np.clip(unlike, np.float32(0.0), np.float32(1.0), out=unlike)
        unlike *= tolerant[rows]
        _edges_beyond(smooth, rows, grown_edges[rows], work, edges[rows])
    return PlaneMaps(
        scale=scale,
        lab=view_lab,
        exact=ExactForeground(smooth, reference_lab, nearest_all),
        whiteness=whiteness,
        other=other,
        edges=edges,
        tolerant=tolerant,
        layout=layout,
    )


class _StripWork:
    """Scratch images for :func:`plane_maps`' strips of a view ``width`` pixels wide: one
    :func:`_scratch` and four one-channel images, each :data:`STRIP_ROWS` rows (the view's
    last strip uses their first rows); and, for the edges, the lightness and its gradients
    with a row above and below (:func:`_edges_beyond`)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.scratch = _scratch((STRIP_ROWS, width, 3))
        self.planes = [_aligned_empty((STRIP_ROWS, width)) for _ in range(4)]
        # the rows of the strip itself start aligned, the row above them just before
        self.lead = -width % (_ALIGNMENT // 4)
        self.bordered = [_aligned_empty((self.lead + (STRIP_ROWS + 2) * width,)) for _ in range(3)]

    def for_rows(self, count: int) -> tuple[FloatImage, ...]:
        """The scratch buffer and the four one-channel images, ``count`` rows each."""
        return (self.scratch, *(plane[:count] for plane in self.planes))

    def bordered_for(self, first: int, count: int) -> tuple[FloatImage, ...]:
        """The three bordered images, ``count`` rows from the strip's row ``first`` (-1: the
        row above it)."""
        start = self.lead + (1 + first) * self.width
        return tuple(
            flat[start : start + count * self.width].reshape(count, self.width)
            for flat in self.bordered
        )


def _edges_beyond(
    smooth: FloatImage, rows: slice, grown_edges: FloatImage, work: _StripWork, out: FloatImage
) -> None:
    """:attr:`PlaneMaps.edges` of the view's ``rows`` into ``out``: :func:`edge_strength` of
    ``smooth`` less the empty board's ``grown_edges``, at least 0. The gradients of a row
    need the rows round it: each strip's lightness takes a row more on either side (where
    the view has one; at its top and bottom the gradients mirror it as over the whole view)."""
    height = smooth.shape[0]
    first, last = max(rows.start - 1, 0), min(rows.stop + 1, height)
    lightness, gx, gy = work.bordered_for(first - rows.start, last - first)
    cv2.extractChannel(smooth[first:last], 0, dst=lightness)
    cv2.Sobel(lightness, cv2.CV_32F, 1, 0, dst=gx, ksize=3)
    cv2.Sobel(lightness, cv2.CV_32F, 0, 1, dst=gy, ksize=3)
    inner = slice(rows.start - first, rows.stop - first)
    # OpenCV's magnitude rounds a last bit differently with its output's alignment: an
    # aligned one, as over the whole view, makes the map the same on every run
    cv2.magnitude(gx[inner], gy[inner], magnitude=out)
    out /= np.float32(8.0)
    cv2.subtract(out, grown_edges, dst=out)
    _at_least_zero(out, in_place=True)


def _foreground(
    difference: FloatImage, nearest: FloatImage, out: FloatImage, spare: FloatImage
) -> FloatImage:
    """0-1: how surely a pixel differs from the empty board (``difference``) or lies nearer to
    a checker colour (``nearest``) than to it, into ``out``. ``difference`` and ``spare`` (an
    image of its size) are used up (their memory holds the steps between)."""
    # in place, in float32: these maps are a frame's largest arrays
    span = np.float32(FOREGROUND_HIGH - FOREGROUND_LOW)
    total = np.add(difference, nearest, out=spare)
    np.maximum(total, np.float32(1.0), out=total)
    relative = np.subtract(difference, nearest, out=out)
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

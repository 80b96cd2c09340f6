"""Counting checkers on every point, on the bar and in the trays, from the plane's evidence maps.

Conventions: points are white's numbers (``geometry.point_shape``); a stack grows from the base
of its point toward the board's centre line. Counting is *analysis by synthesis* along the
point's axis: for every possible count (0-15) and both ways players stack (in one line, or in
layers), the expected occupancy of a narrow band along the axis is drawn from the board geometry
and compared with what the frame shows; checker seams (the dark rims where checkers meet) add
evidence where stacks of more than five look alike in occupancy. The best hypothesis wins;
its confidence is its margin over the best hypothesis with a *different* count, so a close call
is reported as unsure instead of guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision.maps import FloatImage, PlaneMaps
from companion.vision.plane import VIEW_LEFT, VIEW_TOP

FloatArray = npt.NDArray[np.float64]
Colour = Literal["white", "black"]

BAND_HALF = 9.0
"""Half-width (mm) of the band along a point's axis in which occupancy is measured."""
AXIS_LENGTH = int(g.PLAY_HEIGHT / 2)
MAX_STACK = 15
SEAM_WEIGHT = 1.0
TALL_STACK_COST = 0.002
"""Each checker beyond five costs this much fit: tall stacks are rarer than short ones."""
UNCLEAR = (0.15, 0.75)
ALTERNATIVE_MARGIN = 0.05
"""Counts whose fit is within this of the best are kept as alternatives."""
"""Occupancy between these is neither plainly a checker nor plainly the board."""
OTHER_LIMIT = 0.22
"""Share of a region covered by something unlike a checker (a hand) that makes it unreadable."""
CAMOUFLAGE = 12.0
"""Colour distance (weighted L*a*b*) of the empty board from a checker colour below which a
checker lying there may not show by its colour (black checkers on black points in dim
light): only its rim can show it. From half this distance down it surely cannot. (Beyond it
the foreground map's likeness to the checker colours tells a checker from the board.)"""
CAMOUFLAGED_CONFIDENCE = 0.2
"""Confidence left to a count that camouflage may hide a checker beyond."""
HIDING_SHARE = 0.5
"""Share of the place where one more checker would lie that may be camouflage before a count
that ends there is unsure."""


@dataclass(frozen=True, slots=True)
class RegionReading:
    """One region's count (signed: + white, - black), its confidence and what covered it."""

    count: int
    confidence: float
    covered: bool = False
    alternatives: tuple[int, ...] = ()
    """Other counts (signed like ``count``) that explain the region almost as well."""


def _px(value_mm: float, origin: float, scale: float) -> int:
    return round((value_mm - origin) * scale)


@lru_cache(maxsize=64)
def _expected_occupancy(count: int, style: g.StackStyle) -> FloatArray:
    """Band coverage (0-1) per mm along a top point's axis for ``count`` checkers."""
    t = np.arange(AXIS_LENGTH, dtype=np.float64) + 0.5
    cover = np.zeros(AXIS_LENGTH)
    radius = g.CHECKER_DIAMETER / 2
    # a stack covers its axis from end to end: where two checkers touch, their rims still
    # differ from the board, so the band does not dip between them
    for _, y, _ in g.stack_centres(13, count, style):
        chord = np.sqrt(np.clip(radius**2 - (t - y) ** 2, 0.0, None))
        cover = np.maximum(cover, np.minimum(chord / BAND_HALF * 2.0, 1.0))
    return cover


@lru_cache(maxsize=64)
def _expected_seams(count: int, style: g.StackStyle) -> FloatArray:
    """1 near the seams between visible checkers along the axis (0 elsewhere)."""
    t = np.arange(AXIS_LENGTH, dtype=np.float64) + 0.5
    owner = np.full(AXIS_LENGTH, -1)
    height = np.full(AXIS_LENGTH, -1.0)
    radius = g.CHECKER_DIAMETER / 2
    for index, (_, y, layer) in enumerate(g.stack_centres(13, count, style)):
        inside = np.abs(t - y) < radius
        # later checkers in a line lie over earlier ones; higher layers over lower ones
        rank = layer * 100 + index
        take = inside & (rank >= height)
        owner[take] = index
        height[take] = rank
    seams = np.zeros(AXIS_LENGTH)
    changes = np.nonzero(np.diff(owner) != 0)[0]
    for position in changes:
        if position < 4:
            continue
        seams[max(position - 2, 0) : position + 3] = 1.0
    return seams


def _seam_profile(lightness: FloatArray) -> FloatArray:
    """How much each mm along the axis is a thin ridge or valley (a rim between checkers);
    ``lightness`` is one axis profile or a row of them (every point at once)."""
    rows = np.atleast_2d(lightness)
    padded = np.pad(rows, ((0, 0), (3, 3)), mode="edge")
    around = (padded[:, :-6] + padded[:, 6:]) / 2
    ridge = np.abs(rows - around)
    # the 95th percentile of each row (by partial sort: this runs for every point every frame)
    rank = round(0.95 * (ridge.shape[1] - 1))
    scale = np.partition(ridge, rank, axis=1)[:, rank : rank + 1] + 4.0
    seams: FloatArray = np.clip(ridge / scale, 0.0, 1.0)
    return seams.reshape(np.shape(lightness))


RING_STRONG = 7.0
"""Edge strength (L units per px) of a plainly visible checker rim not on the empty board."""
_RING_ANGLES = np.radians(np.arange(0, 360, 20))
_RING_RADII = (16.5, 18.0)
_RING_STEP = 2.0


@lru_cache(maxsize=1)
def _hypotheses() -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray]:
    """Every (count, style) hypothesis: counts, expected occupancy and expected seams (rows)."""
    counts, occupancy, seams = [], [], []
    for style in ("line", "layers"):
        for count in range(MAX_STACK + 1):
            if style == "layers" and count <= 5:
                continue
            counts.append(count)
            occupancy.append(_expected_occupancy(count, style))
            seams.append(_expected_seams(count, style) if count >= 2 else np.zeros(AXIS_LENGTH))
    return np.array(counts), np.array(occupancy), np.array(seams)


def count_stack(occupancy: FloatArray, seams: FloatArray) -> tuple[int, float, tuple[int, ...]]:
    """Best count for an axis profile, the margin to the best other count (0-1), and the
    other counts nearly as good (best first)."""
    counts, expected, wanted = _hypotheses()
    errors = np.mean(np.abs(occupancy[None, :] - expected), axis=1)
    # every count is judged on the same stretch (where the frame shows something), so that a
    # short count does not escape the seams it leaves unexplained
    shown = occupancy > 0.3
    seam_errors = np.mean(np.abs(seams[None, :] - wanted) * shown[None, :], axis=1)
    errors = errors + SEAM_WEIGHT * seam_errors
    errors = errors + TALL_STACK_COST * np.maximum(counts - 5, 0)
    best: dict[int, float] = {}
    for count, error in zip(counts.tolist(), errors.tolist(), strict=True):
        best[count] = min(best.get(count, math.inf), error)
    ranked = sorted(best.items(), key=lambda item: item[1])
    (count, error), (_, runner_up) = ranked[0], ranked[1]
    margin = runner_up - error
    # a clear frame shows each part of the axis plainly covered or plainly bare; much that is
    # neither (a checker that looks like the board beneath it, shade, glare) is a guess;
    # judged where it matters: along the stack found and one checker beyond it
    reach = min(AXIS_LENGTH, int(np.count_nonzero(_expected_occupancy(count, "line"))) + 36)
    near = occupancy[:reach]
    unclear = float(np.mean((near > UNCLEAR[0]) & (near < UNCLEAR[1])))
    confidence = float(np.clip(margin / 0.06, 0.0, 1.0)) * float(
        np.clip(1.0 - (unclear - 0.1) / 0.2, 0.0, 1.0)
    )
    close = tuple(n for n, e in ranked[1:4] if e - error < ALTERNATIVE_MARGIN)
    return count, confidence, close


@lru_cache(maxsize=8)
def _band_indices(
    scale: float, half_width: float, shape: tuple[int, int]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """View rows and columns of every point's band: arrays (24, mm along the axis, across)."""
    along = np.arange(AXIS_LENGTH, dtype=np.float64) + 0.5
    across = np.arange(-half_width, half_width, 1.0 / scale) + 0.5 / scale
    rows = np.empty((24, AXIS_LENGTH, len(across)), np.intp)
    cols = np.empty_like(rows)
    for index in range(24):
        shape_n = g.point_shape(index + 1)
        y = shape_n.base_y + shape_n.direction * along
        x = shape_n.base_x + across
        rows[index] = np.round((y[:, None] - VIEW_TOP) * scale).astype(np.intp)
        cols[index] = np.round((x[None, :] - VIEW_LEFT) * scale).astype(np.intp)
    np.clip(rows, 0, shape[0] - 1, out=rows)
    np.clip(cols, 0, shape[1] - 1, out=cols)
    return rows, cols


@lru_cache(maxsize=8)
def _ring_indices(
    scale: float, shape: tuple[int, int]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
    """View rows and columns of checker-sized circles along every axis (24, radii, centres,
    angles), and each centre's band coverage along the axis (centres, mm)."""
    centres = np.arange(0.0, AXIS_LENGTH, _RING_STEP)
    rows = np.empty((24, len(_RING_RADII), len(centres), len(_RING_ANGLES)), np.intp)
    cols = np.empty_like(rows)
    for index in range(24):
        shape_n = g.point_shape(index + 1)
        for k, radius in enumerate(_RING_RADII):
            x = shape_n.base_x + radius * np.cos(_RING_ANGLES)[None, :]
            y = (
                shape_n.base_y
                + shape_n.direction * centres[:, None]
                + radius * np.sin(_RING_ANGLES)[None, :]
            )
            rows[index, k] = np.round((y - VIEW_TOP) * scale).astype(np.intp)
            cols[index, k] = np.round((np.broadcast_to(x, y.shape) - VIEW_LEFT) * scale)
    np.clip(rows, 0, shape[0] - 1, out=rows)
    np.clip(cols, 0, shape[1] - 1, out=cols)
    t = np.arange(AXIS_LENGTH, dtype=np.float64) + 0.5
    radius = g.CHECKER_DIAMETER / 2
    chord = np.sqrt(np.clip(radius**2 - (t[None, :] - centres[:, None]) ** 2, 0.0, None))
    return rows, cols, np.minimum(chord, BAND_HALF) / BAND_HALF


def axis_profiles(image: FloatImage, scale: float, half_width: float) -> FloatArray:
    """Mean of ``image`` across every point's band, per mm from its base: (24, 220)."""
    rows, cols = _band_indices(scale, half_width, image.shape[:2])
    profiles: FloatArray = image[rows, cols].mean(axis=2).astype(np.float64)
    return profiles


def ring_covers(edges: FloatImage, scale: float, contrast: float = 1.0) -> FloatArray:
    """How surely a checker's rim shows round every mm of every point's axis: (24, 220).

    ``contrast`` scales what counts as a plain rim with the light (:func:`rim_contrast`)."""
    rows, cols, cover = _ring_indices(scale, edges.shape[:2])
    ring = np.median(edges[rows, cols].max(axis=1), axis=2)  # (24, centres)
    # a checker's rim shows on rings a step or two off its centre as well; a ring strong at
    # one centre alone is a straight edge (the frame, a triangle) crossing a few of its angles
    padded = np.pad(ring, ((0, 0), (1, 1)), mode="edge")
    ring = np.median(np.stack([padded[:, :-2], ring, padded[:, 2:]]), axis=0)
    strong = RING_STRONG * contrast
    presence = np.clip((ring - strong * 0.35) / (strong * 0.65), 0.0, 1.0)
    covers: FloatArray = np.max(presence[:, :, None] * cover[None, :, :], axis=1)
    return covers


def camouflage_profiles(camouflage: FloatImage, scale: float) -> FloatArray:
    """Per point and mm from its base: 1 where the empty board there looks like a checker
    colour (from :func:`companion.vision.maps.camouflage`), 0 where checkers show plainly."""
    near = axis_profiles(camouflage, scale, BAND_HALF)
    hiding: FloatArray = np.clip((CAMOUFLAGE - near) / (CAMOUFLAGE / 2), 0.0, 1.0)
    return hiding


def rim_contrast(reference_edges: FloatImage) -> float:
    """How strong edges are in this light, against a well-lit board (1.0): dim light weakens
    a checker's rim as it weakens the board's own lines, so rims are judged against those."""
    lines = float(np.percentile(reference_edges, 99))
    return float(np.clip(lines / TYPICAL_LINES, RIM_CONTRAST_RANGE[0], RIM_CONTRAST_RANGE[1]))


TYPICAL_LINES = 45.0
"""The 99th percentile of the empty board's edge strength on a well-lit board."""
RIM_CONTRAST_RANGE = (0.4, 1.0)


def read_points(
    maps: PlaneMaps,
    ignore: FloatImage | None = None,
    camouflage: FloatArray | None = None,
    contrast: float = 1.0,
) -> list[RegionReading]:
    """The signed count on every point, white's 1 to 24 (``ignore`` marks where dice lie;
    ``camouflage`` is :func:`camouflage_profiles` of this profile: where colour cannot show
    a checker; ``contrast`` is its :func:`rim_contrast`)."""
    scale = maps.scale
    rings = ring_covers(maps.edges, scale, contrast)
    occupancy_all = np.maximum(axis_profiles(maps.foreground, scale, BAND_HALF), rings)
    other_all = axis_profiles(maps.other, scale, BAND_HALF)
    seams_all = _seam_profile(axis_profiles(maps.lab[..., 0], scale, 5.0))
    whiteness_all = axis_profiles(maps.whiteness * maps.foreground, scale, BAND_HALF)
    hidden_all = axis_profiles(ignore, scale, BAND_HALF) > 0.3 if ignore is not None else None
    readings = []
    for index in range(24):
        hidden = None if hidden_all is None else hidden_all[index]
        reading = _read_profiles(
            occupancy_all[index],
            other_all[index],
            seams_all[index],
            whiteness_all[index],
            hidden,
        )
        if camouflage is not None and not reading.covered:
            reading = _doubt_camouflage(reading, camouflage[index], rings[index])
        readings.append(reading)
    return readings


def _doubt_camouflage(
    reading: RegionReading, camouflage: FloatArray, ring: FloatArray
) -> RegionReading:
    """The reading, unsure when one more checker would lie where the board has a checker's
    colour and no rim shows there: a bare look is then no proof that nothing lies there."""
    count = abs(reading.count)
    end = int(np.count_nonzero(_expected_occupancy(count, "line"))) if count else 0
    stretch = slice(end, min(AXIS_LENGTH, end + int(g.CHECKER_DIAMETER)))
    hiding = camouflage[stretch] * (ring[stretch] < 0.5)
    if hiding.size == 0 or float(np.mean(hiding)) <= HIDING_SHARE:
        return reading
    return RegionReading(
        reading.count, min(reading.confidence, 0.2), alternatives=reading.alternatives
    )


def _read_profiles(
    occupancy: FloatArray,
    other: FloatArray,
    seams: FloatArray,
    whiteness: FloatArray,
    hidden: npt.NDArray[np.bool_] | None,
) -> RegionReading:
    if hidden is not None and hidden.any():
        occupancy = np.where(hidden, np.nan, occupancy)
    covered = float(np.nanmean(other)) > OTHER_LIMIT
    filled = _fill_hidden(occupancy) if np.isnan(occupancy).any() else occupancy
    count, confidence, close = count_stack(filled, seams)
    if covered:
        return RegionReading(0, 0.0, covered=True)
    extent = int(min(AXIS_LENGTH, max(count, 1) * g.CHECKER_PITCH))
    lean = float(np.mean(whiteness[:extent])) / max(float(np.mean(filled[:extent])), 0.05)
    sign = 1 if lean > 0 else -1
    alternatives = tuple(sign * n for n in close)
    if count == 0:
        return RegionReading(0, confidence, alternatives=alternatives)
    colour_confidence = float(np.clip(abs(lean) / 0.25, 0.0, 1.0))
    return RegionReading(
        sign * count, min(confidence, colour_confidence), alternatives=alternatives
    )


def _fill_hidden(profile: FloatArray) -> FloatArray:
    """Fills hidden stretches (a die lying on the point) from the last seen value before them."""
    filled = profile.copy()
    last = 0.0
    for index, value in enumerate(filled):
        if np.isnan(value):
            filled[index] = last
        else:
            last = float(value)
    return filled


@lru_cache(maxsize=8)
def _expected_bar(colour: Colour, length: int, scale: float) -> FloatArray:
    """Band coverage along the bar from the centre line for 0-15 checkers: (16, length)."""
    t = (np.arange(length) + 0.5) / scale
    rows = np.zeros((MAX_STACK + 1, length))
    for count in range(MAX_STACK + 1):
        for _, y, _ in g.bar_centres(colour, count):
            centre = abs(y - g.PLAY_HEIGHT / 2)
            chord = np.sqrt(np.clip((g.CHECKER_DIAMETER / 2) ** 2 - (t - centre) ** 2, 0, None))
            rows[count] = np.maximum(rows[count], np.minimum(chord, BAND_HALF) / BAND_HALF)
    return rows


def read_bar(maps: PlaneMaps) -> tuple[RegionReading, RegionReading]:
    """White's and black's checkers on the bar (white's below the centre line, black's above)."""
    scale = maps.scale
    x0 = _px(g.BAR_LEFT + g.BAR_WIDTH / 2 - BAND_HALF, VIEW_LEFT, scale)
    x1 = _px(g.BAR_LEFT + g.BAR_WIDTH / 2 + BAND_HALF, VIEW_LEFT, scale)
    middle = _px(g.PLAY_HEIGHT / 2, VIEW_TOP, scale)
    readings = []
    for colour in ("white", "black"):
        if colour == "white":
            band = slice(middle, _px(g.PLAY_HEIGHT, VIEW_TOP, scale))
            rows_fg = maps.foreground[band, x0:x1].mean(axis=1)
            rows_other = maps.other[band, x0:x1].mean(axis=1)
        else:
            band = slice(_px(0.0, VIEW_TOP, scale), middle)
            rows_fg = maps.foreground[band, x0:x1].mean(axis=1)[::-1]
            rows_other = maps.other[band, x0:x1].mean(axis=1)[::-1]
        expected = _expected_bar(colour, len(rows_fg), scale)
        errors = np.mean(np.abs(rows_fg[None, :] - expected), axis=1)
        best = sorted((float(error), count) for count, error in enumerate(errors))
        confidence = float(np.clip((best[1][0] - best[0][0]) / 0.06, 0.0, 1.0))
        covered = float(np.mean(rows_other)) > OTHER_LIMIT
        readings.append(RegionReading(best[0][1], 0.0 if covered else confidence, covered))
    return readings[0], readings[1]


def read_tray(maps: PlaneMaps, colour: Colour, smear: float = 0.0) -> RegionReading:
    """Borne-off checkers standing on edge in ``colour``'s tray, counted by the filled length.

    ``smear`` is how far (mm, along the tray, toward its open end) a standing checker's top
    edge appears from its foot on the plane view for this camera: a tilted camera sees the row
    longer than it is, so a count is only trusted while the smear stays well under a checker.
    """
    scale = maps.scale
    x0, y0, x1, y1 = g.tray_rect(colour)
    c0, c1 = _px(x0 + 8.0, VIEW_LEFT, scale), _px(x1 - 8.0, VIEW_LEFT, scale)
    r0, r1 = _px(y0, VIEW_TOP, scale), _px(y1, VIEW_TOP, scale)
    rows = maps.foreground[r0:r1, c0:c1].mean(axis=1).astype(np.float64)
    other = float(maps.other[r0:r1, c0:c1].mean())
    if colour == "white":
        rows = rows[::-1]  # white's tray fills from the far (bottom) end
    t = (np.arange(len(rows)) + 0.5) / scale
    best: list[tuple[float, int]] = []
    for count in range(MAX_STACK + 1):
        expected = (t < count * g.TRAY_SLOT).astype(np.float64)
        best.append((float(np.mean(np.abs(np.clip(rows * 1.4, 0, 1) - expected))), count))
    best.sort()
    confidence = float(np.clip((best[1][0] - best[0][0]) / 0.03, 0.0, 1.0))
    if best[0][1]:
        # the row's length is only a count while the smear stays well under one checker
        confidence *= float(
            np.clip(1.0 - (abs(smear) - g.TRAY_SLOT * 0.25) / (g.TRAY_SLOT * 0.3), 0.0, 1.0)
        )
    covered = other > OTHER_LIMIT
    return RegionReading(best[0][1], 0.0 if covered else confidence, covered)

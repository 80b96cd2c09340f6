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

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision.maps import FloatImage, PlaneMaps, distance_to_range
from companion.vision.plane import VIEW_LEFT, VIEW_TOP, view_column, view_row

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
"""Occupancy between these is neither plainly a checker nor plainly the board."""
STRIPS_DISAGREE = 0.025
"""How much worse (:func:`synthesis_errors`) the strips find the count chosen than the count
they find best, beyond which the count is unsure: the occupancy and seams along the axis and
the whole strip compared with every hypothesis are two views of one point, and where they
clearly disagree one of them is fooled (a borrowed empty look relit, a shadow beyond a
stack, a checker the colour of the board). On 480 development frames it left 8 of 22 points
read surely but wrongly unsure, and 24 of 7,839 read surely and rightly; no frame read whole
became unreadable."""
DISAGREEING_CONFIDENCE = 0.2
"""Confidence left to a count the strips clearly disagree with."""
LINE_PLACES = 6
"""Checkers that lie side by side along a point before a line overlaps like shingles
(:func:`companion.geometry.stack_centres`)."""
ALTERNATIVE_MARGIN = 0.05
"""Counts whose fit is within this of the best are kept as alternatives."""
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


OCCUPANCY_WEIGHT = 1.0
SYNTHESIS_WEIGHT = 1.0
STRIP_STEP = 2.0
"""Sampling step (mm) of a point's strip for :func:`synthesis_errors`."""
STRIP_HALF = 19.0
"""Half-width (mm) of a point's strip: the whole checker, short of the neighbours' checkers."""


def _strip_indices(
    scale: float, shape: tuple[int, int]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """View rows and columns of every point's strip sampled every :data:`STRIP_STEP` mm:
    arrays (24, samples along x samples across)."""
    along = np.arange(0.0, AXIS_LENGTH, STRIP_STEP) + STRIP_STEP / 2
    across = np.arange(-STRIP_HALF, STRIP_HALF, STRIP_STEP) + STRIP_STEP / 2
    rows = np.empty((24, len(along) * len(across)), np.intp)
    cols = np.empty_like(rows)
    for index in range(24):
        shape_n = g.point_shape(index + 1)
        y = shape_n.base_y + shape_n.direction * along
        x = shape_n.base_x + across
        rows[index] = np.round((np.repeat(y, len(across)) - VIEW_TOP) * scale).astype(np.intp)
        cols[index] = np.round((np.tile(x, len(along)) - VIEW_LEFT) * scale).astype(np.intp)
    np.clip(rows, 0, shape[0] - 1, out=rows)
    np.clip(cols, 0, shape[1] - 1, out=cols)
    return rows, cols


@lru_cache(maxsize=1)
def _strip_hypotheses() -> FloatArray:
    """Where each hypothesis of :func:`_hypotheses` puts checkers on a strip (rows, in the
    same order; soft-edged discs, 1 inside)."""
    along = np.arange(0.0, AXIS_LENGTH, STRIP_STEP) + STRIP_STEP / 2
    across = np.arange(-STRIP_HALF, STRIP_HALF, STRIP_STEP) + STRIP_STEP / 2
    radius = g.CHECKER_DIAMETER / 2
    masks = []
    for style in ("line", "layers"):
        for count in range(MAX_STACK + 1):
            if style == "layers" and count <= 5:
                continue
            mask = np.zeros((len(along), len(across)))
            for _, y, _ in g.stack_centres(13, count, style):
                distance = np.hypot(along[:, None] - y, across[None, :])
                mask = np.maximum(mask, np.clip((radius + 1.0 - distance) / 2.0, 0.0, 1.0))
            masks.append(mask.ravel())
    return np.array(masks)


def strip_samples(image: FloatImage, scale: float) -> FloatArray:
    """``image`` (one channel or L*a*b*) sampled over every point's strip: (24, samples[, 3])."""
    channels = image.shape[2:] if image.ndim == 3 else ()
    gathered = gather(image, _strip_table(scale, image.shape[:2]))
    samples: FloatArray = gathered.reshape(24, -1, *channels).astype(np.float64)
    return samples


@lru_cache(maxsize=8)
def _strip_table(scale: float, shape: tuple[int, int]) -> Table:
    """:func:`_strip_indices` as a :data:`Table`."""
    rows, cols = _strip_indices(scale, shape)
    return _table(rows, cols)


def synthesis_errors(
    foreground: FloatArray, visibility: FloatArray, ignore: FloatArray | None = None
) -> FloatArray:
    """How badly every hypothesis explains every point: (24, hypotheses), per mm of axis.

    Analysis by synthesis over the whole strip, not a narrow band: a hypothesis predicts
    change from the empty board inside its checkers *where a checker would show* there
    (``visibility``: (2, 24, samples), per colour, from :func:`visibility_of`) and none
    elsewhere. A black checker on a black point is then judged by the field it overlaps beside
    the narrowing triangle; where it would not show at all, every count predicts the same and
    none gains a margin. ``foreground`` and ``ignore`` (dice) are :func:`strip_samples`.
    """
    masks = _strip_hypotheses()
    # a hypothesis's error is the change seen outside its checkers plus the misfit inside
    # them: the same sum as "all change seen" plus a gain over its checkers (one product)
    gain = np.subtract(foreground[None], visibility)
    np.abs(gain, out=gain)
    gain -= foreground[None]
    if ignore is not None:
        gain *= 1.0 - ignore[None]
    # einsum, not matmul: a BLAS thread pool fights the camera loop for the cores
    inside = np.einsum("cps,hs->cph", gain, masks, optimize=False)
    errors = foreground.sum(axis=1)[None, :, None] + inside
    best: FloatArray = np.min(errors, axis=0) * STRIP_STEP / (2 * STRIP_HALF)
    return best / AXIS_LENGTH


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


@lru_cache(maxsize=1)
def _columns_by_count() -> npt.NDArray[np.intp]:
    """For each count 0-15 (rows), the columns of :func:`_hypotheses` that hold it (both
    styles; where only one holds it, that one twice)."""
    counts = _hypotheses()[0]
    columns = [np.flatnonzero(counts == count) for count in range(MAX_STACK + 1)]
    return np.array([[found[0], found[-1]] for found in columns])


def count_stacks(
    occupancy: FloatArray, seams: FloatArray, synthesis: FloatArray | None = None
) -> list[tuple[int, float, tuple[int, ...]]]:
    """:func:`count_stack` for many axis profiles at once (rows), every hypothesis of every
    point compared in one pass."""
    counts, expected, wanted = _hypotheses()
    # (every hypothesis of every point: one buffer for both misfits, each step in place)
    misfit = np.subtract(occupancy[:, None, :], expected[None])
    errors = OCCUPANCY_WEIGHT * np.abs(misfit, out=misfit).mean(axis=2)
    if synthesis is not None:
        errors = errors + SYNTHESIS_WEIGHT * synthesis
    # every count is judged on the same stretch (where the frame shows something), so that a
    # short count does not escape the seams it leaves unexplained
    shown = (occupancy > 0.3)[:, None, :]
    seam_misfit = np.abs(np.subtract(seams[:, None, :], wanted[None], out=misfit), out=misfit)
    seam_misfit *= shown
    seam_errors = seam_misfit.mean(axis=2)
    errors = errors + SEAM_WEIGHT * seam_errors + TALL_STACK_COST * np.maximum(counts - 5, 0)
    # each count's best style
    by_count = errors[:, _columns_by_count()].min(axis=2)
    order = np.argsort(by_count, axis=1, kind="stable")
    disagreement = None
    if synthesis is not None:
        # how much worse the strips, compared with every hypothesis alone, find each count
        # than the count they find best
        strips_by_count = synthesis[:, _columns_by_count()].min(axis=2)
        disagreement = strips_by_count - strips_by_count.min(axis=1, keepdims=True)
    # how many of each point's first millimetres are neither plainly covered nor bare
    unclear_so_far = np.cumsum((occupancy > UNCLEAR[0]) & (occupancy < UNCLEAR[1]), axis=1)
    results = []
    for row, ranked in enumerate(order.tolist()):
        count, error = ranked[0], float(by_count[row, ranked[0]])
        margin = float(by_count[row, ranked[1]]) - error
        # a clear frame shows each part of the axis plainly covered or plainly bare; much
        # that is neither (a checker that looks like the board beneath it, shade, glare) is a
        # guess; judged where it matters: along the stack found and one checker beyond it
        reach = min(AXIS_LENGTH, _line_extent(count) + 36, occupancy.shape[1])
        unclear = int(unclear_so_far[row, reach - 1]) / reach
        confidence = _unit(margin / 0.06) * _unit(1.0 - (unclear - 0.1) / 0.2)
        if disagreement is not None and float(disagreement[row, count]) > STRIPS_DISAGREE:
            confidence = min(confidence, DISAGREEING_CONFIDENCE)
        close = tuple(
            n for n in ranked[1:4] if float(by_count[row, n]) - error < ALTERNATIVE_MARGIN
        )
        results.append((count, confidence, close))
    return results


def _unit(value: float) -> float:
    """``value`` held to 0-1, as ``np.clip`` holds it (in plain floats: numpy's clip of one
    number costs microseconds, and counting asks for some hundred a frame)."""
    return float(min(max(value, 0.0), 1.0))


def _mean(values: FloatArray) -> float:
    """``np.mean`` of a profile that is not empty (the same sum over the same count, without
    its checks: a few microseconds, on every point of every frame)."""
    return float(values.sum()) / len(values)


def count_stack(
    occupancy: FloatArray, seams: FloatArray, synthesis: FloatArray | None = None
) -> tuple[int, float, tuple[int, ...]]:
    """Best count for an axis profile, the margin to the best other count (0-1), and the
    other counts nearly as good (best first). ``synthesis`` is the point's row of
    :func:`synthesis_errors`, when the frame's strips were compared with every hypothesis."""
    rows = count_stacks(
        occupancy[None], seams[None], None if synthesis is None else synthesis[None]
    )
    return rows[0]


@lru_cache(maxsize=MAX_STACK + 1)
def _line_extent(count: int) -> int:
    """How far (mm) along the axis ``count`` checkers in one line reach."""
    return int(np.count_nonzero(_expected_occupancy(count, "line")))


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


Table = npt.NDArray[np.int16]
"""Where :func:`gather` samples the view: each entry a column and a row (OpenCV's fixed-point
remap table, which it reads a third faster than a pair of float tables)."""


def _table(rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> Table:
    """View ``rows`` and ``cols`` (arrays of one shape, two axes) as a :data:`Table`."""
    return np.ascontiguousarray(np.stack([cols, rows], axis=-1), dtype=np.int16)


@lru_cache(maxsize=8)
def _band_maps(scale: float, half_width: float, shape: tuple[int, int]) -> Table:
    """:func:`_band_indices` as a :data:`Table`: (24 x mm along the axis, across)."""
    rows, cols = _band_indices(scale, half_width, shape)
    width = rows.shape[2]
    return _table(rows.reshape(-1, width), cols.reshape(-1, width))


@lru_cache(maxsize=8)
def _band_maps_across(scale: float, half_width: float, shape: tuple[int, int]) -> Table:
    """:func:`_band_maps` laid across: (across, 24 x mm along the axis)."""
    return np.ascontiguousarray(_band_maps(scale, half_width, shape).transpose(1, 0, 2))


def gather(image: FloatImage, table: Table) -> FloatImage:
    """``image`` (one or more channels) sampled at a :data:`Table`: one C pass instead of
    numpy's fancy indexing, which costs several times as much on every frame."""
    source = np.ascontiguousarray(image, dtype=np.float32)
    gathered = cv2.remap(source, table, None, cv2.INTER_NEAREST)  # type: ignore[call-overload]
    return np.asarray(gathered, dtype=np.float32)


def axis_profiles(image: FloatImage, scale: float, half_width: float) -> FloatArray:
    """Mean of ``image`` across every point's band, per mm from its base: (24, 220[, C])."""
    return _band_means(gather(image, _band_maps(scale, half_width, image.shape[:2])))


def _band_means(bands: FloatImage) -> FloatArray:
    """:func:`axis_profiles` of bands already gathered (rows of :func:`_band_maps`)."""
    means = cv2.reduce(bands, 1, cv2.REDUCE_AVG)
    profiles: FloatArray = means.reshape(24, -1, *bands.shape[2:]).astype(np.float64)
    return profiles


def _band_means_across(bands: FloatImage) -> FloatArray:
    """:func:`axis_profiles` of one channel's bands gathered across
    (:func:`_band_maps_across`): summed sample by sample in float32, then scaled by 1/n in
    float32, the arithmetic of OpenCV's reduce over bands of several channels (whose loop
    for several channels takes ten times as long as this)."""
    total = bands[0].copy()
    for samples in bands[1:]:
        total += samples
    total *= np.float32(1.0 / len(bands))
    profiles: FloatArray = total.reshape(24, -1).astype(np.float64)
    return profiles


@lru_cache(maxsize=8)
def _ring_maps(scale: float, shape: tuple[int, int]) -> Table:
    """:func:`_ring_indices` as a :data:`Table` (one row per point, radius and centre)."""
    rows, cols, _cover = _ring_indices(scale, shape)
    width = rows.shape[-1]
    return _table(rows.reshape(-1, width), cols.reshape(-1, width))


def ring_covers(edges: FloatImage, scale: float, contrast: float = 1.0) -> FloatArray:
    """How surely a checker's rim shows round every mm of every point's axis: (24, 220).

    ``contrast`` scales what counts as a plain rim with the light (:func:`rim_contrast`)."""
    rows, _cols, _cover = _ring_indices(scale, edges.shape[:2])
    tables = _ring_maps(scale, edges.shape[:2])
    # the median of a ring's angles (an even count: the mean of the two middle ones), by
    # sorting: np.median's general path costs a third more, every frame
    angles = np.sort(gather(edges, tables).reshape(rows.shape).max(axis=1), axis=2)
    middle = len(_RING_ANGLES) // 2
    ring = (angles[..., middle - 1] + angles[..., middle]) / 2
    # a checker's rim shows on rings a step or two off its centre as well; a ring strong at
    # one centre alone is a straight edge (the frame, a triangle) crossing a few of its angles
    padded = np.pad(ring, ((0, 0), (1, 1)), mode="edge")
    before, after = padded[:, :-2], padded[:, 2:]
    # the median of the three (the middle value, picked with four comparisons, not a sort)
    ring = np.maximum(np.minimum(before, ring), np.minimum(np.maximum(before, ring), after))
    strong = RING_STRONG * contrast
    presence = np.clip((ring - strong * 0.35) / (strong * 0.65), 0.0, 1.0)
    # each mm takes the strongest ring among the centres whose checker would cover it (at
    # most a checker's length of them, not every centre: the others' products are 0)
    index, weight = _covering_centres(scale, edges.shape[:2])
    covers: FloatArray = np.max(presence[:, index] * weight[None], axis=2)
    return covers


@lru_cache(maxsize=8)
def _covering_centres(
    scale: float, shape: tuple[int, int]
) -> tuple[npt.NDArray[np.intp], FloatArray]:
    """For every mm along an axis, the ring centres whose checker covers it and how much
    (:func:`_ring_indices`' coverage), padded with weight 0: (mm, most centres per mm)."""
    cover = _ring_indices(scale, shape)[2]
    columns = [np.flatnonzero(cover[:, mm]) for mm in range(cover.shape[1])]
    width = max(1, max(len(c) for c in columns))
    index = np.zeros((cover.shape[1], width), np.intp)
    weight = np.zeros((cover.shape[1], width))
    for mm, centres in enumerate(columns):
        index[mm, : len(centres)] = centres
        weight[mm, : len(centres)] = cover[centres, mm]
    return index, weight


def camouflage_profiles(camouflage: FloatImage, scale: float) -> FloatArray:
    """Per point and mm from its base: 1 where the empty board there looks like a checker
    colour (``camouflage``: the empty board's colour distance to that checker colour), 0
    where such checkers show plainly."""
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


@dataclass(frozen=True, slots=True)
class PointEvidence:
    """What one frame shows along every point (rows: points 1-24), gathered once per frame:
    counting again with other places hidden (dice found to be something else) reuses it."""

    rings: FloatArray
    occupancy: FloatArray
    other: FloatArray
    seams: FloatArray
    whiteness: FloatArray
    strips: FloatArray | None
    """The foreground over every point's whole strip (:func:`strip_samples`)."""


def point_evidence(
    maps: PlaneMaps, contrast: float = 1.0, with_strips: bool = True
) -> PointEvidence:
    """Every point's evidence profiles (``contrast`` is the profile's :func:`rim_contrast`)."""
    scale = maps.scale
    rings = ring_covers(maps.edges, scale, contrast)
    # each map gathered over the bands alone, the white evidence multiplied there: the same
    # products of the same pixels as over the whole view, without two passes over it
    across = _band_maps_across(scale, BAND_HALF, maps.tolerant.shape)
    tolerant, other, whiteness = (
        gather(m, across) for m in (maps.tolerant, maps.other, maps.whiteness)
    )
    white_evidence = np.multiply(whiteness, tolerant)
    # the lightness gathered with its colour (a copy of it alone would be a pass over the view)
    lab_bands = gather(maps.lab, _band_maps(scale, 5.0, maps.lab.shape[:2]))
    lightness = np.asarray(cv2.extractChannel(lab_bands, 0), np.float32)
    return PointEvidence(
        rings=rings,
        occupancy=np.maximum(_band_means_across(tolerant), rings),
        other=_band_means_across(other),
        seams=_seam_profile(_band_means(lightness)),
        whiteness=_band_means_across(white_evidence),
        strips=strip_samples(maps.tolerant, scale) if with_strips else None,
    )


def read_points(
    maps: PlaneMaps,
    ignore: FloatImage | None = None,
    camouflage: FloatArray | None = None,
    contrast: float = 1.0,
    visibility: FloatArray | None = None,
    evidence: PointEvidence | None = None,
) -> list[RegionReading]:
    """The signed count on every point, white's 1 to 24 (``ignore`` marks where dice lie;
    ``camouflage`` is :func:`camouflage_profiles` of this profile for white's and for black's
    colour, (2, 24, mm): where colour cannot show a checker of each; ``contrast`` is its
    :func:`rim_contrast`; ``visibility`` how plainly a checker of each colour would show on
    every strip sample; ``evidence`` this frame's :func:`point_evidence`, when already
    gathered)."""
    scale = maps.scale
    if evidence is None:
        evidence = point_evidence(maps, contrast, visibility is not None)
    near_dice = axis_profiles(ignore, scale, BAND_HALF) if ignore is not None else None
    hidden_all = near_dice > 0.3 if near_dice is not None else None
    ignored = None if ignore is None else strip_samples(ignore, scale)
    synthesis = None
    if visibility is not None and evidence.strips is not None:
        synthesis = synthesis_errors(evidence.strips, visibility, ignored)
    occupancy = evidence.occupancy
    if hidden_all is not None and hidden_all.any():
        counts, occupancy = _count_round_dice(occupancy, hidden_all, evidence.seams, synthesis)
    else:
        counts = count_stacks(occupancy, evidence.seams, synthesis)
    # what shows of the frame itself, nowhere a die touches (its edge or shadow, or the
    # occupancy carried under it as the stack going on)
    bare = (
        evidence.occupancy
        if near_dice is None
        else np.where(near_dice > 0, 0.0, evidence.occupancy)
    )
    first = [
        _reading(
            counts[index],
            occupancy[index],
            evidence.other[index],
            evidence.whiteness[index],
            bare[index],
        )
        for index in range(24)
    ]
    if camouflage is None:
        return first
    rims = (False, False)
    if visibility is not None:
        rims = rims_showing(first, evidence.rings, camouflage)
    readings = []
    for index, reading in enumerate(first):
        if reading.covered:
            readings.append(reading)
            continue
        doubted = _doubt_camouflage(
            reading, _hiding_next(reading.count, camouflage[:, index]), evidence.rings[index]
        )
        # proofs that the place camouflage could hide is empty: the colour that would show
        # least there shows its rims on every stack of it, or the place is seen bare where a
        # checker would show plainly
        proven = (
            doubted is not reading
            and visibility is not None
            and (
                rims[_least_showing(reading.count, visibility[:, index])]
                or (
                    evidence.strips is not None
                    and next_place_bare(
                        reading.count,
                        evidence.strips[index],
                        visibility[:, index],
                        None if ignored is None else ignored[index],
                    )
                )
            )
        )
        readings.append(reading if proven else doubted)
    return readings


def _next_colours(count: int) -> tuple[int, ...]:
    """The colours (0 white, 1 black) the next checker on a point may have: the stack's own,
    or either on an empty point."""
    if count == 0:
        return (0, 1)
    return (0,) if count > 0 else (1,)


def _hiding_next(count: int, camouflage: FloatArray) -> FloatArray:
    """Where the board could hide the next checker on a point (``camouflage``: the point's
    profiles for white and black, :func:`_next_colours`): a white stack on a point only black
    checkers blend into cannot hide a white one."""
    hiding: FloatArray = camouflage[list(_next_colours(count))].max(axis=0)
    return hiding


RIMS_SHOW = 0.6
"""Mean rim evidence along a stack read surely from which its checkers' rims count as showing."""
RIMMED_STACKS = 2
"""Stacks of a colour on points of its own colour that must all show their rims before the
rims of that colour count as showing in this frame (one stack could be a lucky light)."""
SURE_STACK = 0.5
"""Confidence of a stack's reading from which its rims are trusted to tell the light."""


def rims_showing(
    readings: list[RegionReading], rings: FloatArray, camouflage: FloatArray
) -> tuple[bool, bool]:
    """Whether white's and black's checkers show their rims in this frame where their colour
    cannot show them (on a point of their own colour; ``camouflage`` as :func:`read_points`
    takes it, per colour: a stack on a point only the other colour blends into shows its
    outline, which proves nothing about rims).

    A checker's outline shows wherever the board differs from it; on a point of its own
    colour only a rim of its own can show it. Where every stack of a colour lying on such a
    point was read surely and shows a rim plainly (in this light, from this camera), a
    checker hiding on another such point would show its rim too, and a point without one is
    empty. Dim light, or rims the colour of the body, leave the doubt.
    """
    shown: dict[int, list[float]] = {1: [], -1: []}
    for index, reading in enumerate(readings):
        if reading.covered or reading.count == 0:
            continue
        extent = _line_extent(min(abs(reading.count), 5))
        own = _hiding_next(reading.count, camouflage[:, index])
        if float(np.mean(own[:extent])) <= HIDING_SHARE:
            continue  # its outline shows it: no proof of a rim
        sure = reading.confidence >= SURE_STACK
        rim = float(np.mean(rings[index][:extent])) if sure else 0.0
        shown[1 if reading.count > 0 else -1].append(rim)
    white, black = shown[1], shown[-1]
    return (
        len(white) >= RIMMED_STACKS and min(white) >= RIMS_SHOW,
        len(black) >= RIMMED_STACKS and min(black) >= RIMS_SHOW,
    )


def _least_showing(count: int, visibility: FloatArray) -> int:
    """0 (white) or 1 (black): the colour a checker next on this point would show least in
    (an empty point may hide either; a stack only more of its own)."""
    if count != 0:
        return _next_colours(count)[0]
    place = _slot_masks()[0]
    shows = [float((place * visibility[colour]).sum()) for colour in (0, 1)]
    return int(np.argmin(shows))


BARE_AREA = 100.0
"""Area (mm^2) of the next checker's place where a checker would plainly show, that must be
seen bare before the place counts as empty in spite of the board's colour along the axis."""
BARE_FOREGROUND = 0.2
"""Mean foreground over that area below which it is seen bare."""


@lru_cache(maxsize=1)
def _slot_masks() -> FloatArray:
    """Where the k-th checker of a line lies on a strip (rows k = 0-5, 1 inside)."""
    along = np.arange(0.0, AXIS_LENGTH, STRIP_STEP) + STRIP_STEP / 2
    across = np.arange(-STRIP_HALF, STRIP_HALF, STRIP_STEP) + STRIP_STEP / 2
    radius = g.CHECKER_DIAMETER / 2 - 1.0
    rows = []
    for _, y, _ in g.stack_centres(13, LINE_PLACES, "line"):
        rows.append((np.hypot(along[:, None] - y, across[None, :]) <= radius).ravel())
    return np.array(rows, dtype=np.float64)


def next_place_bare(
    count: int, strip: FloatArray, visibility: FloatArray, ignore: FloatArray | None
) -> bool:
    """Whether the place one more checker would take on this point is seen bare where such a
    checker would plainly show (either colour on an empty point, the stack's own beyond it).

    The axis may run along a triangle of a checker's own colour while the checker would still
    overlap the field beside the narrowing triangle: there, a bare look is proof.
    """
    if abs(count) >= _slot_masks().shape[0]:
        return False
    place = _slot_masks()[abs(count)]
    if ignore is not None:
        place = place * (ignore < 0.5)
    for colour in _next_colours(count):
        shows = place * (visibility[colour] > 0.75)
        area = float(shows.sum()) * STRIP_STEP**2
        if area < BARE_AREA:
            return False
        if float((shows * strip).sum() / shows.sum()) > BARE_FOREGROUND:
            return False
    return True


def _doubt_camouflage(
    reading: RegionReading, camouflage: FloatArray, ring: FloatArray
) -> RegionReading:
    """The reading, unsure when one more checker would lie where the board has a checker's
    colour and no rim shows there: a bare look is then no proof that nothing lies there."""
    count = abs(reading.count)
    end = _line_extent(count)
    stretch = slice(end, min(AXIS_LENGTH, end + int(g.CHECKER_DIAMETER)))
    hiding = camouflage[stretch] * (ring[stretch] < 0.5)
    if hiding.size == 0 or _mean(hiding) <= HIDING_SHARE:
        return reading
    return RegionReading(
        reading.count, min(reading.confidence, 0.2), alternatives=reading.alternatives
    )


SHOWS = 0.5
"""Occupancy from which a stretch of a point's axis plainly shows something."""
SHOWING_RUN = 8
"""Millimetres of axis in a row plainly showing something that a point read empty leaves
unexplained: less than a checker, more than a rim's or a seam's glint. A dark checker on a dark
point may show only its logo or its middle's highlight, a hump of occupancy a checker's pitch
from the next (development seeds 5061, 5420: black checkers on black points, read empty)."""
SOMETHING_SHOWS_CONFIDENCE = 0.2
"""Confidence left to a point read empty where something shows."""


def _something_shows(occupancy: FloatArray) -> bool:
    """Whether a stretch of :data:`SHOWING_RUN` mm or more of a point's axis plainly shows
    something (:data:`SHOWS`)."""
    showing = (occupancy >= SHOWS).astype(np.float64)
    if len(showing) < SHOWING_RUN:
        return False
    # (a window of SHOWING_RUN samples all showing sums to SHOWING_RUN)
    return bool(np.convolve(showing, np.ones(SHOWING_RUN), "valid").max() >= SHOWING_RUN - 0.5)


LAST_PLACE_LEAN = 0.06
"""Least lean toward its stack's colour (whiteness over occupancy, signed as the stack) of the
place a stack's last checker in a line takes, below which that checker is in doubt. On 480
development frames four of six stacks of two or more read surely but wrongly showed less there
(a five by the bar read as six, twice; a die at a stack's end; a line of five taken for
fifteen); 17 of 2,272 read rightly did, on no frame otherwise readable."""
LAST_PLACE_CONFIDENCE = 0.2
"""Confidence left to a count whose last checker shows none of its stack's colour."""


def _last_place_lean(count: int, occupancy: FloatArray, whiteness: FloatArray) -> float:
    """How the place a stack's last checker in a line takes leans, white (+) or black (-):
    its whiteness over its occupancy (the sixth place for taller stacks, whose line ends
    there)."""
    line = min(count, LINE_PLACES)
    start = int((line - 1) * g.CHECKER_PITCH)
    end = min(int(line * g.CHECKER_PITCH), len(occupancy))
    if end <= start:
        return 0.0
    return _colour_lean(whiteness[start:end], occupancy[start:end])


def _colour_lean(whiteness: FloatArray, occupancy: FloatArray) -> float:
    """How a stretch of a point's axis leans white (+) or black (-): its whiteness over what
    of it shows something (as little as 0.05, where nearly nothing does)."""
    return _mean(whiteness) / max(_mean(occupancy), 0.05)


def _reading(
    counted: tuple[int, float, tuple[int, ...]],
    occupancy: FloatArray,
    other: FloatArray,
    whiteness: FloatArray,
    bare: FloatArray | None = None,
) -> RegionReading:
    """One point's reading from its count (:func:`count_stacks`): the colour from whether
    what lies there leans white or black, unread when something unlike a checker covers it;
    unsure where it is read empty yet something shows on it (``bare``: its occupancy where no
    die lies, by default ``occupancy``)."""
    if _mean(other) > OTHER_LIMIT:
        return RegionReading(0, 0.0, covered=True)
    count, confidence, close = counted
    extent = int(min(AXIS_LENGTH, max(count, 1) * g.CHECKER_PITCH))
    lean = _colour_lean(whiteness[:extent], occupancy[:extent])
    sign = 1 if lean > 0 else -1
    alternatives = tuple(sign * n for n in close)
    if count == 0:
        if _something_shows(occupancy if bare is None else bare):
            confidence = min(confidence, SOMETHING_SHOWS_CONFIDENCE)
        return RegionReading(0, confidence, alternatives=alternatives)
    colour_confidence = _unit(abs(lean) / 0.25)
    if count >= 2 and sign * _last_place_lean(count, occupancy, whiteness) < LAST_PLACE_LEAN:
        # the last checker counted shows none of the stack's colour: a shadow, the frame, or
        # another point's checker reaching in, taken for one more
        confidence = min(confidence, LAST_PLACE_CONFIDENCE)
    return RegionReading(
        sign * count, min(confidence, colour_confidence), alternatives=alternatives
    )


HIDDEN_END_CONFIDENCE = 0.2
"""Confidence left to a count that depends on what a die hides (the stack going on under it,
or the board)."""


def _count_round_dice(
    occupancy: FloatArray,
    hidden: npt.NDArray[np.bool_],
    seams: FloatArray,
    synthesis: FloatArray | None,
) -> tuple[list[tuple[int, float, tuple[int, ...]]], FloatArray]:
    """Counts with the stretches dice hide (``hidden``, per point and mm) read as the stack
    going on under the die, and the occupancy so filled.

    A die resting on a stack's last checker hides checker; a die lying on the board just past
    the stack's end hides board, where the stack going on would count one checker more. Where
    the two readings of the hidden stretch give different counts the count is unsure: the die
    must be moved, or the board read without it.
    """
    filled = occupancy.copy()
    rows = np.flatnonzero(hidden.any(axis=1))
    bare = np.where(hidden[rows], 0.0, occupancy[rows])
    for index in rows.tolist():
        filled[index] = _fill_hidden(np.where(hidden[index], np.nan, occupancy[index]))
    counts = count_stacks(filled, seams, synthesis)
    others = count_stacks(bare, seams[rows], None if synthesis is None else synthesis[rows])
    for k, index in enumerate(rows.tolist()):
        count, confidence, close = counts[index]
        other = others[k][0]
        if other != count:
            counts[index] = (count, min(confidence, HIDDEN_END_CONFIDENCE), (*close, other))
    return counts, filled


def _fill_hidden(profile: FloatArray) -> FloatArray:
    """Fills hidden stretches (a die lying on the point) from the last seen value before them."""
    seen = ~np.isnan(profile)
    # each place's last seen place at or before it (-1: none yet, where 0 is taken)
    last = np.maximum.accumulate(np.where(seen, np.arange(len(profile)), -1))
    filled: FloatArray = np.where(last >= 0, profile[np.maximum(last, 0)], 0.0)
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
    x0 = view_column(g.BAR_LEFT + g.BAR_WIDTH / 2 - BAND_HALF, scale)
    x1 = view_column(g.BAR_LEFT + g.BAR_WIDTH / 2 + BAND_HALF, scale)
    middle = view_row(g.PLAY_HEIGHT / 2, scale)
    readings = []
    for colour in ("white", "black"):
        if colour == "white":
            band = slice(middle, view_row(g.PLAY_HEIGHT, scale))
            rows_fg = maps.tolerant[band, x0:x1].mean(axis=1)
            rows_other = maps.other[band, x0:x1].mean(axis=1)
        else:
            band = slice(view_row(0.0, scale), middle)
            rows_fg = maps.tolerant[band, x0:x1].mean(axis=1)[::-1]
            rows_other = maps.other[band, x0:x1].mean(axis=1)[::-1]
        expected = _expected_bar(colour, len(rows_fg), scale)
        errors = np.mean(np.abs(rows_fg[None, :] - expected), axis=1)
        best = sorted((float(error), count) for count, error in enumerate(errors))
        confidence = float(np.clip((best[1][0] - best[0][0]) / 0.06, 0.0, 1.0))
        covered = float(np.mean(rows_other)) > OTHER_LIMIT
        readings.append(RegionReading(best[0][1], 0.0 if covered else confidence, covered))
    return readings[0], readings[1]


TRAY_REACH = (1.0, 1.0, 0.75)
"""How far (mm) a row of standing checkers seems to reach beyond its last slot on the plane
view when the camera looks along the row from the tray's filling end (positive smear): at
least the first figure, at most the second plus the third times the smear. The last checker's
top shows beyond its foot by up to the smear, less where its round top thins (measured on
development frames: up to 0.72 of the smear, a whole slot beyond 6 checkers at 20 mm), so
that a steep camera leaves a row's length between two counts: unsure, never a guess."""
TRAY_REACH_FACING = (4.0, 0.35, 10.5)
"""The same when the camera looks at the row from the tray's open end (negative smear): it
sees the last checker's face, which stands on its foot; its blurred edge and shadow lengthen
the row by at most the first figure plus the second times the smear, and never by more than
the third (measured: up to 10 mm whatever the smear, except where a lamp's shadow lies beyond
the row: :data:`TRAY_SHADE`)."""
TRAY_STRIPES = 0.35
"""Foreground over a tray's first slots that, even in stripes too thin to make a row, is
something standing there."""
TRAY_SEAMS = 9.0
"""Gaps (mm) between standing checkers that are closed before the row's length is measured."""


TRAY_CHANGE = (4.0, 10.0)
"""Colour change from the empty tray (weighted L*a*b*, above the frame's own noise) over which
a tray's row goes from bare to surely something standing there. Far below the board's
foreground thresholds: a checker on edge shows only its shaded rim, and in dim light that
differs from the tray by less than its face would (measured on development frames: standing
rows 9-21 units, bare tray 1-3)."""


def _tray_window(colour: Colour, scale: float, inset: float = 8.0) -> tuple[slice, slice]:
    """View rows and columns of ``colour``'s tray, ``inset`` mm in from its long walls (rows
    top to bottom: white's tray fills from its far end, the last row)."""
    x0, y0, x1, y1 = g.tray_rect(colour)
    rows = slice(view_row(y0, scale), view_row(y1, scale))
    return rows, slice(view_column(x0 + inset, scale), view_column(x1 - inset, scale))


def _from_filling_end(window: FloatImage, colour: Colour) -> FloatImage:
    """A tray's window with its rows from the end the tray fills from."""
    return window[::-1] if colour == "white" else window


def tray_changes(
    view_lab: FloatImage, envelope: tuple[FloatImage, FloatImage], scale: float
) -> dict[Colour, FloatArray]:
    """How plainly each tray's rows (from its filling end, per view pixel) differ from the
    empty tray, 0-1, above the noise of this frame.

    The noise is measured on the strip of frame between the playing area and the trays,
    where nothing lies: light that changed since calibration, or a noisy sensor, raise it
    there as in the trays, so that only a change beyond it counts.
    """
    low, high = envelope
    gap = (g.PLAY_WIDTH + 5.0, g.PLAY_WIDTH + g.TRAY_GAP - 5.0)
    rows = slice(view_row(10.0, scale), view_row(g.PLAY_HEIGHT - 10.0, scale))
    cols = slice(view_column(gap[0], scale), view_column(gap[1], scale))
    frame = distance_to_range(view_lab[rows, cols], low[rows, cols], high[rows, cols])
    floor = float(np.median(frame))
    changes: dict[Colour, FloatArray] = {}
    for colour in ("white", "black"):
        rows, cols = _tray_window(colour, scale)
        change = distance_to_range(view_lab[rows, cols], low[rows, cols], high[rows, cols])
        profile = _from_filling_end(change, colour).mean(axis=1).astype(np.float64)
        start, end = TRAY_CHANGE
        changes[colour] = np.clip((profile - floor - start) / (end - start), 0.0, 1.0)
    return changes


TRAY_CHANGED = 0.2
"""Share of a tray's first slots plainly changed (:func:`tray_changes` at least 0.5) from
which a tray whose colours show nothing is not seen empty (4 mm of its 22: one
standing checker seen edge-on, shortened by the camera's smear)."""


BARE_TRAY_EDGES = 0.1
"""Mean edge strength (not on the empty board) over a tray's first slots below which a tray of
the checkers' own colour is seen empty: standing checkers show their seams and rims."""


TRAY_LIKE_OTHER = -0.25
"""Whiteness (toward the dark checkers) below which a pixel of the dark checkers' row looks like
the light checkers and is no part of the row: a lamp's shadow beyond them on a light tray
(measured: 0.4-0.8 toward the light checkers). Shade only darkens a dark checker; a light
checker's shaded rim may look like the dark ones, so the light row is measured whole."""
TRAY_SHADE = (0.4, 0.85)
"""Lightness of the tray in shade, as a share of its bare part's in the same frame, between
which a pixel of the tray's own hue (:data:`TRAY_SHADE_HUE`) is its shadow: lighter is the
tray itself, darker is no shade a lamp casts beside a bright tray (a black checker)."""
TRAY_SHADE_HUE = 4.0
"""Most a shadow's a*b* (L*a*b* units) differs from the bare tray's scaled down as much as its
lightness: shade darkens a colour as a whole, a checker has a colour of its own. Measured with
the range above: on 80 frames of other development seeds the two rows a lamp's shadow
lengthened by a checker are doubted; on 420 frames, 76 of 83 rows read right stay sure."""
TRAY_BARE_PIXELS = 200
"""Bare pixels of a tray (one slot's worth at 1 px/mm) needed to learn its colour in a frame."""
TRAY_REGULAR = 0.7
"""Share of the lightness along a row (its ups and downs within a slot) that repeats every
:data:`geometry.TRAY_SLOT` (:func:`seam_regularity`) from which the row is standing checkers,
seam after seam: what looks like neither colour there (their shaded rims) is no hand over
the tray. Measured on development frames: rows of light standing checkers 0.75-0.92 (dark
ones, whose seams hardly show, down to 0.1: still taken for a hand, unsure), the one hand
over a tray 0.10."""
TRAY_BARE_BEYOND = 0.15
"""Share of a row's mean edge strength below which the slot beyond it is bare: in a tray of
the checkers' own colour the count read from the row's length stands only then (measured on
development frames: 0.01-0.08 beyond rows read right, 0.35-0.5 beyond rows read short)."""
TRAY_EDGE_RISE = 4.0
"""How many times the edges over the rest of an empty-looking tray its first slot's edges
must be for something to stand there: standing checkers whose colour hardly differs from the
tray in dim light (dark checkers in a dark tray) show their seams and rims, often the only
thing they show when the camera faces the filling end. Measured on the 225 development frames
without a hand: 332 trays truly empty read 0 surely at 0.3-3.4 times (99% below 3.0); the
three holding checkers at 3.7, 6.6 and 21."""
TRAY_EDGE_FLOOR = 0.02
"""Edge strength below which the rest of the tray counts as this bare (a noiseless tray's
edges would make any edge a rise)."""
TRAY_EDGE_STRIPS = ((6.0, 14.0), (18.0, 32.0), (36.0, 44.0))
"""Strips across a tray (mm from its edge) where standing checkers show their seams: the
notches between their round sides near both walls, and their rims along the middle."""


def _tray_reach(smear: float) -> FloatArray:
    """The lengths (mm, 1 mm apart) a row may show beyond its last slot for this camera's
    ``smear`` (:data:`TRAY_REACH`, :data:`TRAY_REACH_FACING`)."""
    if smear >= 0.0:
        least, most, per_smear = TRAY_REACH
        longest = most + per_smear * smear
    else:
        most, per_smear, limit = TRAY_REACH_FACING
        least, longest = TRAY_REACH[0], min(most - per_smear * smear, limit)
    return np.arange(least, max(least, longest) + 0.01, 1.0)


def _row_count(rows: FloatArray, reach: FloatArray, scale: float) -> tuple[int, float]:
    """The count whose row (slots plus a ``reach``) best fits the share of each view row of
    a tray that shows a checker (``rows``, from the filling end), and how surely."""
    # the seams between standing checkers are no end of the row
    kernel = np.ones((max(1, round(TRAY_SEAMS * scale)), 1), np.uint8)
    row = np.ascontiguousarray(rows, np.float32).reshape(-1, 1)
    closed = cv2.morphologyEx(row, cv2.MORPH_CLOSE, kernel)
    shown = np.clip(closed.ravel().astype(np.float64) * 1.4, 0.0, 1.0)
    t = (np.arange(len(shown)) + 0.5) / scale
    # every count's row ends at once (count, reach): no reach beyond an empty tray
    counts = np.arange(MAX_STACK + 1)[:, None]
    ends = counts * g.TRAY_SLOT + np.where(counts > 0, reach[None, :], 0.0)
    expected = (t[None, None, :] < ends[:, :, None]).astype(np.float64)
    misfit = np.abs(shown[None, None, :] - expected).mean(axis=2).min(axis=1)
    errors = [float(error) for error in misfit]
    ranked = sorted(range(MAX_STACK + 1), key=lambda n: errors[n])
    best = ranked[0]
    return best, float(np.clip((errors[ranked[1]] - errors[best]) / 0.03, 0.0, 1.0))


def _shadow_share(lab: FloatImage, tolerant: FloatImage) -> FloatArray | None:
    """Share of each view row of a tray (``lab``, ``tolerant`` over it) that is the tray in
    shade: darker than its bare part in this frame by :data:`TRAY_SHADE` with the same hue,
    its colour scaled down as a whole (a checker has its own colour). None where too little
    of the tray is bare to tell its colour."""
    bare = tolerant < 0.1
    if int(np.count_nonzero(bare)) < TRAY_BARE_PIXELS:
        return None
    tray = cv2.mean(np.ascontiguousarray(lab), mask=bare.astype(np.uint8))
    if tray[0] <= 1.0:
        return None
    lightness, a, b = cv2.split(np.ascontiguousarray(lab, np.float32))
    shade = lightness * np.float32(1.0 / tray[0])
    hue_a = a - np.float32(128.0) - shade * np.float32(tray[1] - 128.0)
    hue_b = b - np.float32(128.0) - shade * np.float32(tray[2] - 128.0)
    low, high = TRAY_SHADE
    own_hue = hue_a * hue_a + hue_b * hue_b < np.float32(TRAY_SHADE_HUE**2)
    shadowed = (shade > low) & (shade < high) & own_hue & ~bare
    share: FloatArray = shadowed.mean(axis=1)
    return share


def _bare_beyond(
    edges: FloatArray, change: FloatArray | None, count: int, reach: float, scale: float
) -> bool:
    """Whether the slot beyond a row of ``count`` standing checkers (past the farthest its
    last checker may show, ``reach`` mm) is bare: nearly none of the row's edges
    (:data:`TRAY_BARE_BEYOND`) and no change from the empty tray. False where the tray has
    no whole slot left beyond the row."""
    start = round((count * g.TRAY_SLOT + reach + 2.0) * scale)
    end = start + round(g.TRAY_SLOT * scale)
    if end > len(edges):
        return False
    inside = float(np.mean(edges[round(3 * scale) : max(round(count * g.TRAY_SLOT * scale), 4)]))
    if float(np.mean(edges[start:end])) >= TRAY_BARE_BEYOND * inside:
        return False
    return change is None or float(np.mean(change[start:end] >= 0.5)) < TRAY_CHANGED


def seam_regularity(lightness: FloatImage, length: float, scale: float) -> float:
    """How regularly (0-1) the lightness of a tray's row repeats every slot over its first
    ``length`` mm, in the strip across the tray where it repeats best (:data:`TRAY_EDGE_STRIPS`).

    ``lightness`` is the tray's L* on the plane view, rows from its filling end, columns across
    the whole tray. The ups and downs within a slot (each row's lightness less its mean over a
    slot) are folded onto one slot: the share of them that the fold's mean explains is how
    much repeats, seam after seam, as standing checkers do whatever their colour and the
    light, and a hand or a shadow does not. A row shorter than two slots has no period to
    show: 0. A row running past the rows in view (a full tray seen at a slant) is looked at as
    far as they go.
    """
    slot = g.TRAY_SLOT * scale
    start = round(3 * scale)
    end = min(round(length * scale) - round(3 * scale), lightness.shape[0])
    if end - start < 2 * slot:
        return 0.0
    window = max(3, round(slot)) | 1
    bins = max(4, round(slot / 2))
    phase = ((np.arange(start, end) + 0.5) % slot * (bins / slot)).astype(np.intp)
    phase = np.minimum(phase, bins - 1)
    counts = np.bincount(phase, minlength=bins)
    best = 0.0
    for first, last in TRAY_EDGE_STRIPS:
        strip = lightness[:, round(first * scale) : round(last * scale)].mean(axis=1)
        strip = np.ascontiguousarray(strip, np.float32).reshape(-1, 1)
        ups = (strip - cv2.blur(strip, (1, window))).ravel()[start:end].astype(np.float64)
        ups -= ups.mean()
        power = float(np.sum(ups**2))
        if power > 0.0:
            fold = np.bincount(phase, weights=ups, minlength=bins) / np.maximum(counts, 1)
            best = max(best, float(np.sum(fold[phase] ** 2)) / power)
    return best


def read_tray(
    maps: PlaneMaps,
    colour: Colour,
    smear: float = 0.0,
    visible: float = 1.0,
    contrast: float = 1.0,
    change: FloatArray | None = None,
) -> RegionReading:
    """Borne-off checkers standing on edge in ``colour``'s tray, counted by the row's length.

    ``smear`` is how far (mm, along the tray, toward its open end) a standing checker's top
    edge appears from its foot on the plane view for this camera: a tilted camera sees the row
    longer than it is, by up to a part of the smear (:data:`TRAY_REACH`). ``visible`` is the
    share of the empty tray where a checker of this colour would plainly show: in a tray of
    the checkers' own colour a row's length is no proof of a count. Only a tray bare of edges
    (``contrast``: the profile's :func:`rim_contrast`) is seen empty, and only one whose
    first slot did not change from the empty tray (``change``, the tray's row of
    :func:`tray_changes`): standing checkers whose shaded rims differ from the tray too little
    to look like a checker's colour (dim light) still change it. Rows are not measured on the
    change, which shadows and the checkers' tops lengthen.

    What a person sees decides where the length is no proof: a row whose end is the tray in
    shade (darker, the tray's own hue, :func:`_shadow_share`) is unsure, and so is a row in a
    tray of its own colour unless the slot beyond it is bare of seams and rims
    (:func:`_bare_beyond`). A tray is covered (a hand) where much of it looks like neither
    colour, unless that is a row whose lightness repeats every slot (:func:`seam_regularity`):
    standing checkers' shaded rims.
    """
    scale = maps.scale
    window = _tray_window(colour, scale)

    def seen(image: FloatImage) -> FloatImage:
        return _from_filling_end(image[window], colour)

    tolerant = np.ascontiguousarray(seen(maps.tolerant))
    rows = tolerant.mean(axis=1).astype(np.float32)
    checker_rows = rows
    if colour == "black":
        # a row of dark checkers is measured only on what does not look like the light ones
        alike = (-seen(maps.whiteness) > TRAY_LIKE_OTHER).astype(np.float32)
        checker_rows = cv2.multiply(tolerant, alike).mean(axis=1).astype(np.float32)
    edges = seen(maps.edges).mean(axis=1)
    other = float(maps.other[window].mean())
    reach = _tray_reach(smear)
    count, confidence = _row_count(checker_rows, reach, scale)
    shadow = _shadow_share(np.ascontiguousarray(seen(maps.lab)), tolerant) if count else None
    if shadow is not None:
        lit = (checker_rows * (1.0 - shadow)).astype(np.float32)
        if _row_count(lit, reach, scale)[0] != count:
            # part of the row is the tray in shade (a lamp's shadow): its length is no proof
            confidence = min(confidence, CAMOUFLAGED_CONFIDENCE)
    first = slice(round(3 * scale), round(25 * scale))
    if count == 0:
        # where a checker would show by its colour, a bare look is proof enough (unless
        # something shows in stripes: standing checkers' shaded faces); elsewhere only a tray
        # bare of edges is, as standing checkers show their seams and rims
        first_edges = float(np.mean(edges[first]))
        bare = BARE_TRAY_EDGES * contrast
        if visible < 0.5:
            doubt = first_edges >= bare
        else:
            doubt = float(np.max(rows[first])) >= TRAY_STRIPES
            if not doubt and first_edges >= bare:
                # seams and rims at the filling end that the rest of the tray does not show
                rest = max(float(np.median(edges[len(edges) // 2 :])), TRAY_EDGE_FLOOR)
                doubt = first_edges >= TRAY_EDGE_RISE * rest
        if change is not None and float(np.mean(change[first] >= 0.5)) >= TRAY_CHANGED:
            # the first slot changed from the empty tray without looking like a checker:
            # standing checkers whose shaded rims are all that shows (dim light), or a shadow
            doubt = True
        if doubt:
            confidence = min(confidence, CAMOUFLAGED_CONFIDENCE)
    elif visible < 0.5 and not _bare_beyond(edges, change, count, float(reach[-1]), scale):
        # in a tray of the checkers' own colour the row's far checkers may not show by their
        # colour: the count stands only where the tray beyond it is bare of seams and rims
        confidence = min(confidence, CAMOUFLAGED_CONFIDENCE)
    covered = other > OTHER_LIMIT
    if covered and count >= 2:
        # standing checkers' shaded rims look like neither colour: no hand if seams repeat
        whole = _tray_window(colour, scale, inset=0.0)
        lightness = _from_filling_end(maps.lab[whole][..., 0], colour)
        covered = seam_regularity(lightness, count * g.TRAY_SLOT + 5.0, scale) < TRAY_REGULAR
    return RegionReading(count, 0.0 if covered else confidence, covered)

"""The vision reader's fast paths give what the plain formulas they replace give, to the bit.

Each speed-up in :mod:`companion.vision.maps`, :mod:`~companion.vision.checkers`,
:mod:`~companion.vision.dice`, :mod:`~companion.vision.pips` and
:mod:`~companion.vision.reader` claims that it changes no output: maps made strip by strip,
the exact foreground made only where it is asked for, 16-bit component labels, band means
summed by hand, vectorised counting, a die face's patterns scored in fewer, larger steps.
Each test below pins one such claim against the straightforward formula written out here, on
a real rendered frame where the claim is about the view's maps and on drawn arrays where it
is about arithmetic.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.vision import checkers, dice, maps, pips, reader
from companion.vision.calibrate import calibrate
from companion.vision.maps import FloatImage, PlaneMaps
from companion.vision.plane import VIEW_HEIGHT, VIEW_LEFT, VIEW_TOP, camera_heights
from companion.vision.profile import VIEW_SCALE, Colours

SEED = 5003

PlaneArgs = tuple[
    FloatImage, FloatImage, FloatImage, Colours, float, tuple[FloatImage, FloatImage], Any
]
"""What :func:`companion.vision.reader.read_frame` passes to :func:`maps.plane_maps`."""


@lru_cache(maxsize=1)
def _frame_and_args() -> tuple[npt.NDArray[np.uint8], PlaneArgs, Any]:
    """A rendered frame with checkers and two dice, its plane view and the arguments
    ``read_frame`` gives :func:`maps.plane_maps` for it, and the profile (made once)."""
    opening = Position.opening().to_absolute("white")
    empty = render(random_scene(SEED, opening))
    corners: Any = empty.truth["board_corners_px"]
    profile = calibrate(empty.image, corners=corners)
    scene = random_scene(
        SEED,
        Checkers.random(np.random.default_rng(SEED)),
        dice=(DieSpec(3), DieSpec(5)),
        on_roll="white",
    )
    image = render(scene).image
    view = reader._plane_view(image, profile.image_to_plane, profile)
    args: PlaneArgs = (view, *reader.maps_inputs(profile))
    return image, args, profile


def _args() -> PlaneArgs:
    return _frame_and_args()[1]


def _fresh_maps() -> PlaneMaps:
    """The frame's maps as read_frame makes them (made anew: the exact foreground unmade)."""
    return maps.plane_maps(*_args())


MAP_NAMES = ("tolerant", "whiteness", "other", "edges")


def _plain_foreground(difference: FloatImage, nearest: FloatImage) -> FloatImage:
    """The foreground formula (:func:`maps._foreground`) in plain float32 numpy."""
    low, span = (
        np.float32(maps.FOREGROUND_LOW),
        np.float32(maps.FOREGROUND_HIGH - maps.FOREGROUND_LOW),
    )
    total = np.maximum(difference + nearest, np.float32(1.0))
    relative = np.float32(2.0) * (difference - nearest) / total + np.float32(0.2)
    relative = relative * np.minimum(difference / low, np.float32(1.0))
    absolute = (difference - low) / span
    plain: FloatImage = np.clip(np.maximum(absolute, relative), np.float32(0.0), np.float32(1.0))
    return plain


def _whole_view_maps() -> dict[str, FloatImage]:
    """Every map of the frame by the plain formulas over the whole view at once: the maps as
    made before they were made strip by strip."""
    view, reference, grown, colours, _scale, (low, high), _layout = _args()
    smooth = np.asarray(cv2.blur(view, (3, 3)), np.float32)
    size = smooth.shape[:2]
    to_white, to_black, norm = (maps._aligned_empty(size) for _ in range(3))
    maps._distances_to_colours(
        smooth,
        colours.white,
        colours.black,
        maps._scratch(smooth.shape),
        (to_white, to_black),
        norm,
    )
    nearest = np.minimum(to_white, to_black)
    tolerant = _plain_foreground(maps.distance_to_range(smooth, low, high), nearest)
    difference = maps.weighted_norm(cv2.subtract(smooth, reference), size)
    unlike = np.clip((nearest - np.float32(22.0)) / np.float32(22.0), np.float32(0), np.float32(1))
    return {
        "nearest": nearest,
        "tolerant": tolerant,
        "foreground": _plain_foreground(difference, nearest),
        "whiteness": (to_black - to_white) / (to_black + to_white + np.float32(1e-3)),
        "other": unlike * tolerant,
        "edges": np.maximum(maps.edge_strength(smooth) - grown, np.float32(0.0)),
    }


def _assert_same_bits(found: npt.NDArray[Any], expected: npt.NDArray[Any], what: str) -> None:
    assert found.shape == expected.shape, f"{what}: shape {found.shape}, not {expected.shape}"
    assert found.dtype == expected.dtype, f"{what}: {found.dtype}, not {expected.dtype}"
    differ = int(np.count_nonzero(found != expected))
    assert differ == 0, f"{what}: {differ} pixels differ"


# -- claim 1: maps.plane_maps strip by strip = in one strip ------------------------------


def test_strip_rows_keep_strips_aligned() -> None:
    """Pins STRIP_ROWS's documented condition (a multiple of 16 rows, so that every strip
    starts 64-byte aligned): 17 rows gave one edge pixel a different last bit here."""
    assert maps.STRIP_ROWS % 16 == 0


@pytest.mark.parametrize("rows", [16, 48, maps.STRIP_ROWS])
def test_maps_by_strips_equal_one_strip(rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claim: plane_maps made STRIP_ROWS rows at a time gives bit for bit the maps made in one
    strip the view's height (tolerant, whiteness, other, edges, the nearest colour distance
    and the exact foreground)."""
    height = _args()[0].shape[0]
    assert height % rows != 0, "the view's last strip must be a part strip to test it"
    monkeypatch.setattr(maps, "STRIP_ROWS", height)
    whole = _fresh_maps()
    monkeypatch.setattr(maps, "STRIP_ROWS", rows)
    strips = _fresh_maps()
    assert isinstance(whole.exact, maps.ExactForeground)
    assert isinstance(strips.exact, maps.ExactForeground)
    for name in MAP_NAMES:
        _assert_same_bits(getattr(strips, name), getattr(whole, name), name)
    _assert_same_bits(strips.exact.nearest, whole.exact.nearest, "nearest")
    _assert_same_bits(strips.foreground, whole.foreground, "foreground")


def test_maps_equal_the_plain_formulas_over_the_whole_view() -> None:
    """Claim: every step is the plain formula's, in the same order (the same values to the
    last bit); the exact foreground, made lazily, equals the formula over the whole view."""
    made = _fresh_maps()
    plain = _whole_view_maps()
    assert isinstance(made.exact, maps.ExactForeground)
    _assert_same_bits(made.exact.nearest, plain["nearest"], "nearest")
    for name in (*MAP_NAMES, "foreground"):
        _assert_same_bits(getattr(made, name), plain[name], name)
    assert made.shape == made.tolerant.shape


# -- claim 2: foreground_in / foreground_at = the whole map sliced / indexed ----------------


def _windows(height: int, width: int) -> list[tuple[slice, slice]]:
    """Windows of every kind: empty, reversed, at the view's edges, partly outside it (numpy
    clips those), negative starts, one pixel, the whole view, and drawn ones."""
    fixed = [
        (slice(0, 0), slice(0, 10)),
        (slice(10, 20), slice(30, 30)),
        (slice(50, 40), slice(0, 10)),
        (slice(0, 40), slice(0, 40)),
        (slice(height - 30, height), slice(width - 25, width)),
        (slice(height - 10, height + 50), slice(-20, None)),
        (slice(-5, 3), slice(0, 10)),
        (slice(-40, -10), slice(-900, 12)),
        (slice(height + 5, height + 50), slice(0, width)),
        (slice(100, 101), slice(200, 201)),
        (slice(None), slice(None)),
        (slice(0, height), slice(0, width)),
    ]
    rng = np.random.default_rng(7)
    drawn = []
    for _ in range(150):
        r0, c0 = int(rng.integers(-20, height + 20)), int(rng.integers(-20, width + 20))
        r1, c1 = r0 + int(rng.integers(0, 60)), c0 + int(rng.integers(0, 60))
        drawn.append((slice(r0, r1), slice(c0, c1)))
    return fixed + drawn


def _assert_parts_of_the_whole(made: PlaneMaps, method: str, parts: list[Any]) -> Any:
    """Asserts that ``method`` (foreground_in or foreground_at) gives the whole foreground
    indexed by each of ``parts`` (rows, cols), asked lazily first, then of maps holding the
    whole map; returns the whole map (made after the lazy parts)."""
    lazy = [getattr(made, method)(rows, cols) for rows, cols in parts]
    whole = made.foreground.copy()
    from_whole = dataclasses.replace(made, exact=whole)
    for (rows, cols), part in zip(parts, lazy, strict=True):
        expected = whole[rows, cols]
        _assert_same_bits(part, expected, f"{method} at {rows}, {cols}")
        _assert_same_bits(getattr(from_whole, method)(rows, cols), expected, "from the whole")
    return whole


def test_foreground_in_equals_the_whole_map_sliced() -> None:
    """Claim: PlaneMaps.foreground_in(rows, cols) is foreground[rows, cols] exactly, for any
    window (empty, at or partly beyond the view's edges), made lazily or from the whole map;
    and asking for windows first leaves the whole map the same."""
    made = _fresh_maps()
    height, width = made.shape
    windows = _windows(height, width)
    whole = _assert_parts_of_the_whole(made, "foreground_in", windows)
    _assert_same_bits(whole, _whole_view_maps()["foreground"], "foreground after windows")


def test_foreground_at_equals_the_whole_map_indexed() -> None:
    """Claim: PlaneMaps.foreground_at(rows, cols) is foreground[rows, cols] exactly: empty
    index arrays, the view's edge pixels, repeated and negative indices, arrays of two axes."""
    made = _fresh_maps()
    height, width = made.shape
    rng = np.random.default_rng(11)
    empty = np.zeros(0, np.intp)
    edge_rows = np.array([0, 0, height - 1, height - 1, 0, height // 2], np.intp)
    edge_cols = np.array([0, width - 1, 0, width - 1, width // 2, 0], np.intp)
    drawn_rows = rng.integers(0, height, 500).astype(np.intp)
    drawn_cols = rng.integers(0, width, 500).astype(np.intp)
    cases = [
        (empty, empty),
        (empty.reshape(0, 3), empty.reshape(0, 3)),
        (edge_rows, edge_cols),
        (np.array([5, 5, 5], np.intp), np.array([7, 7, 7], np.intp)),
        (np.array([-1, -height], np.intp), np.array([-1, -width], np.intp)),
        (drawn_rows, drawn_cols),
        (drawn_rows[:12].reshape(3, 4), drawn_cols[:12].reshape(3, 4)),
    ]
    _assert_parts_of_the_whole(made, "foreground_at", cases)


# -- claim 3: 16-bit component labels = OpenCV's 32-bit ones ------------------------------


def _hand_mask() -> npt.NDArray[np.uint8]:
    """A palm, four fingers, a thumb and specks, 255 where set (as find_occluders makes it)."""
    mask = np.zeros((520, 685), np.uint8)
    cv2.ellipse(mask, (300, 330), (70, 90), 15, 0, 360, 255, -1)
    for k in range(4):
        cv2.line(mask, (250 + 35 * k, 260), (235 + 45 * k, 110), 255, 22)
    cv2.line(mask, (370, 350), (460, 300), 255, 24)
    rng = np.random.default_rng(3)
    for x, y in rng.integers(0, 520, (40, 2)):
        cv2.circle(mask, (int(x) + 100, int(y)), int(rng.integers(0, 4)), 255, -1)
    return mask


def _small_blobs_mask() -> npt.NDArray[np.uint8]:
    """Hundreds of small blobs, 1 where set: single pixels, squares, diagonal neighbours
    (one component with 8-connectivity), blobs on the view's edges."""
    rng = np.random.default_rng(5)
    mask = (rng.random((520, 685)) > 0.985).astype(np.uint8)
    for x, y in rng.integers(0, 680, (300, 2)):
        mask[y % 515 : y % 515 + 3, x : x + 3] = 1
    for k in range(40):
        mask[10 + k, 600 + k] = 1  # a diagonal line: one component
    mask[0, :5] = mask[-1, -5:] = mask[:, 0:1][:7] = 1
    return mask


def _many_pixels_mask() -> npt.NDArray[np.uint8]:
    """More than 65,534 set pixels: the labels no longer surely fit in 16 bits."""
    mask = _small_blobs_mask() * np.uint8(255)
    mask[40:330, 50:300] = 255
    return mask


def _lattice_mask(pixels: int) -> npt.NDArray[np.uint8]:
    """``pixels`` isolated pixels, each its own component: the most labels for the pixels."""
    mask = np.zeros((512, 512), np.uint8)
    mask[::2, ::2] = 255
    mask.flat[np.flatnonzero(mask)[pixels:]] = 0
    return mask


@pytest.mark.parametrize(
    "name, mask, sixteen",
    [
        ("hand", _hand_mask(), True),
        ("small blobs", _small_blobs_mask(), True),
        ("many pixels", _many_pixels_mask(), False),
        ("65,533 lone pixels", _lattice_mask(65_533), True),
        ("65,534 lone pixels", _lattice_mask(65_534), False),
        ("65,535 lone pixels", _lattice_mask(65_535), False),
    ],
)
def test_components_equal_opencv_32_bit_labels(
    name: str, mask: npt.NDArray[np.uint8], sixteen: bool
) -> None:
    """Claim: reader._components labels with 16 bits when they fit (``sixteen``: at most
    65,533 set pixels; either width beyond, where OpenCV refuses 16-bit labels from 65,536
    labels on), and gives the same count, labels and stats as OpenCV's 32-bit labelling."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask, connectivity=8, ltype=cv2.CV_32S
    )
    found_count, found_labels, found_stats = reader._components(mask, 10)
    assert found_count == count, name
    if sixteen:
        assert found_labels.dtype == np.uint16, name
    assert found_labels.shape == labels.shape
    assert np.array_equal(found_labels, labels), name
    assert found_stats.dtype == np.int32
    assert np.array_equal(found_stats, stats), name


def test_components_below_least_pixels_are_nothing() -> None:
    """Claim: below ``least_px`` set pixels _components gives the background alone (count 1,
    no labels, one row of zero stats); at ``least_px`` it labels."""
    mask = np.zeros((60, 80), np.uint8)
    mask[10:14, 10:15] = 255  # 20 pixels
    count, labels, stats = reader._components(mask, 21)
    assert count == 1
    assert labels.shape == (0, 0)
    assert np.array_equal(stats, np.zeros((1, 5), np.int32))
    count, labels, stats = reader._components(mask, 20)
    assert count == 2
    assert int(stats[1, cv2.CC_STAT_AREA]) == 20
    assert labels.shape == mask.shape


# -- claim 4: vectorised helpers = their plain formulas ------------------------------------


def _plain_axis_profiles(image: FloatImage, scale: float, half_width: float) -> Any:
    """The band means as made before: the bands picked by numpy indexing, then OpenCV's
    reduce over them (over all of ``image``'s channels at once)."""
    rows, cols = checkers._band_indices(scale, half_width, image.shape[:2])
    width = rows.shape[2]
    bands = np.ascontiguousarray(image[rows.reshape(-1, width), cols.reshape(-1, width)])
    means = cv2.reduce(bands, 1, cv2.REDUCE_AVG)
    return means.reshape(24, -1, *image.shape[2:]).astype(np.float64)


def _plain_ring_covers(edges: FloatImage, scale: float, contrast: float) -> Any:
    """ring_covers with numpy indexing and the median of three by sorting."""
    rows, cols, _cover = checkers._ring_indices(scale, edges.shape[:2])
    angles = np.sort(edges[rows, cols].max(axis=1), axis=2)
    middle = len(checkers._RING_ANGLES) // 2
    ring = (angles[..., middle - 1] + angles[..., middle]) / 2
    padded = np.pad(ring, ((0, 0), (1, 1)), mode="edge")
    ring = np.sort(np.stack([padded[:, :-2], ring, padded[:, 2:]]), axis=0)[1]
    strong = checkers.RING_STRONG * contrast
    presence = np.clip((ring - strong * 0.35) / (strong * 0.65), 0.0, 1.0)
    index, weight = checkers._covering_centres(scale, edges.shape[:2])
    return np.max(presence[:, index] * weight[None], axis=2)


def test_point_evidence_equals_the_plain_band_means() -> None:
    """Claims: the bands gathered per map with one int16 remap table (the white evidence
    multiplied there) and summed by _band_means_across give what cv2.reduce's averages of
    the merged three-channel view gave; the lightness gathered with its colour gives the
    seams; the ring medians by comparisons are the sorted ones; strips are numpy's picks."""
    made = _fresh_maps()
    scale, contrast = made.scale, 0.8
    evidence = checkers.point_evidence(made, contrast)
    white_evidence = cv2.multiply(made.whiteness, made.tolerant)
    stacked = np.asarray(cv2.merge([made.tolerant, made.other, white_evidence]), np.float32)
    profiles = _plain_axis_profiles(stacked, scale, checkers.BAND_HALF)
    rings = _plain_ring_covers(made.edges, scale, contrast)
    assert np.array_equal(evidence.rings, rings)
    assert np.array_equal(evidence.occupancy, np.maximum(profiles[..., 0], rings))
    assert np.array_equal(evidence.other, profiles[..., 1])
    assert np.array_equal(evidence.whiteness, profiles[..., 2])
    lightness = np.ascontiguousarray(made.lab[..., 0])
    seams = checkers._seam_profile(_plain_axis_profiles(lightness, scale, 5.0))
    assert np.array_equal(evidence.seams, seams)
    rows, cols = checkers._strip_indices(scale, made.tolerant.shape)
    strips = made.tolerant[rows, cols].reshape(24, -1).astype(np.float64)
    assert evidence.strips is not None
    assert np.array_equal(evidence.strips, strips)
    # _mean equals np.mean only on float64 profiles (float32 means round to float32)
    for profile in (evidence.occupancy, evidence.other, evidence.whiteness, evidence.rings):
        assert profile.dtype == np.float64


@pytest.mark.parametrize("width", [1, 2, 7, 19, 38])
def test_band_means_across_equal_opencv_reduce(width: int) -> None:
    """Claim: _band_means_across (float32 sums sample by sample, then 1/n in float32) is
    cv2.reduce's REDUCE_AVG over bands of three channels, to the bit."""
    rng = np.random.default_rng(width)
    length = 24 * 30
    channels = [rng.random((length, width), dtype=np.float32) * 3 - 1 for _ in range(3)]
    merged = np.ascontiguousarray(np.stack(channels, axis=-1))
    reduced = cv2.reduce(merged, 1, cv2.REDUCE_AVG).reshape(24, -1, 3).astype(np.float64)
    for channel, values in enumerate(channels):
        across = np.ascontiguousarray(values.T)
        assert np.array_equal(checkers._band_means_across(across), reduced[..., channel])


def test_gather_with_an_int16_table_equals_numpy_indexing() -> None:
    """Claim: gather with OpenCV's fixed-point (int16) remap table picks the same pixels as
    numpy indexing, one channel or three."""
    made = _fresh_maps()
    rows, cols = checkers._band_indices(made.scale, 5.0, made.shape)
    rows, cols = rows.reshape(-1, rows.shape[2]), cols.reshape(-1, cols.shape[2])
    table = checkers._table(rows, cols)
    assert np.array_equal(checkers.gather(made.tolerant, table), made.tolerant[rows, cols])
    assert np.array_equal(checkers.gather(made.lab, table), made.lab[rows, cols])


def _plain_count_stacks(
    occupancy: Any, seams: Any, synthesis: Any
) -> list[tuple[int, float, tuple[int, ...]]]:
    """count_stacks as written before: every style of a count searched, np.mean and
    np.clip throughout. It holds the rule of strips that disagree (STRIPS_DISAGREE) as
    count_stacks does, so this only proves the vectorised form faithful; the rule itself is
    tested in tests/test_vision_core.py."""
    counts, expected, wanted = checkers._hypotheses()
    errors = checkers.OCCUPANCY_WEIGHT * np.mean(
        np.abs(occupancy[:, None, :] - expected[None]), axis=2
    )
    if synthesis is not None:
        errors = errors + checkers.SYNTHESIS_WEIGHT * synthesis
    shown = (occupancy > 0.3)[:, None, :]
    seam_errors = np.mean(np.abs(seams[:, None, :] - wanted[None]) * shown, axis=2)
    errors = (
        errors
        + checkers.SEAM_WEIGHT * seam_errors
        + checkers.TALL_STACK_COST * np.maximum(counts - 5, 0)
    )
    columns = [np.flatnonzero(counts == n) for n in range(checkers.MAX_STACK + 1)]
    by_count = np.stack([errors[:, c].min(axis=1) for c in columns], 1)
    order = np.argsort(by_count, axis=1, kind="stable")
    strips = None
    if synthesis is not None:
        strips = np.stack([synthesis[:, c].min(axis=1) for c in columns], 1)
    results = []
    low, high = checkers.UNCLEAR
    for row, ranked in enumerate(order.tolist()):
        count, error = ranked[0], float(by_count[row, ranked[0]])
        margin = float(by_count[row, ranked[1]]) - error
        reach = min(checkers.AXIS_LENGTH, checkers._line_extent(count) + 36)
        near = occupancy[row, :reach]
        unclear = float(np.mean((near > low) & (near < high)))
        confidence = float(np.clip(margin / 0.06, 0.0, 1.0)) * float(
            np.clip(1.0 - (unclear - 0.1) / 0.2, 0.0, 1.0)
        )
        if strips is not None and strips[row, count] - strips[row].min() > checkers.STRIPS_DISAGREE:
            confidence = min(confidence, checkers.DISAGREEING_CONFIDENCE)
        close = tuple(
            n for n in ranked[1:4] if float(by_count[row, n]) - error < checkers.ALTERNATIVE_MARGIN
        )
        results.append((count, confidence, close))
    return results


def test_columns_by_count_hold_every_style() -> None:
    """Claim: each count's two columns in _columns_by_count are all the hypotheses holding it
    (at most two styles; one style listed twice), so their min is the min over all."""
    counts = checkers._hypotheses()[0]
    pairs = checkers._columns_by_count()
    for count in range(checkers.MAX_STACK + 1):
        assert set(pairs[count].tolist()) == set(np.flatnonzero(counts == count).tolist())


def test_count_stacks_equals_the_plain_formula() -> None:
    """Claim: count_stacks (one misfit buffer, the combined styles, the running count of
    unclear millimetres, _unit for np.clip) gives exactly the counts, confidences and close
    alternatives of the plain formula, on the frame's evidence and on drawn profiles."""
    made = _fresh_maps()
    evidence = checkers.point_evidence(made, 1.0)
    visibility = reader._visibility(_frame_and_args()[2].reference, _frame_and_args()[2].colours)
    assert evidence.strips is not None
    synthesis = checkers.synthesis_errors(evidence.strips, visibility)
    real = (evidence.occupancy, evidence.seams, synthesis)
    assert checkers.count_stacks(*real) == _plain_count_stacks(*real)
    rng = np.random.default_rng(13)
    length = checkers.AXIS_LENGTH
    levels = np.array([0.0, 0.15, 0.2, 0.5, 0.75, 0.9, 1.0])
    occupancy = np.where(
        rng.random((60, length)) < 0.5,
        levels[rng.integers(0, 7, (60, length))],
        rng.random((60, length)),
    )
    # stacks of drawn heights: the counts and their margins vary
    heights = rng.integers(0, length, 60)
    occupancy[np.arange(length)[None, :] < heights[:, None]] = 1.0
    seams = rng.random((60, length)) * 0.3
    drawn_synthesis = rng.random((60, synthesis.shape[1])) * 0.2
    for case in ((occupancy, seams, None), (occupancy, seams, drawn_synthesis)):
        assert checkers.count_stacks(*case) == _plain_count_stacks(*case)


def test_synthesis_errors_equal_the_plain_formula() -> None:
    """Claim: synthesis_errors' in-place gain (abs, less the foreground, times what dice leave
    seen) is the plain formula's, with and without dice ignored."""
    made = _fresh_maps()
    strips = checkers.strip_samples(made.tolerant, made.scale)
    profile = _frame_and_args()[2]
    visibility = reader._visibility(profile.reference, profile.colours)
    ignore_view = np.zeros(made.shape, np.float32)
    cv2.circle(ignore_view, (200, 150), 40, 1.0, -1)
    ignore = checkers.strip_samples(ignore_view, made.scale)
    masks = checkers._strip_hypotheses()
    for ignored in (None, ignore):
        gain = np.abs(strips[None] - visibility) - strips[None]
        if ignored is not None:
            gain = gain * (1.0 - ignored[None])
        inside = np.einsum("cps,hs->cph", gain, masks, optimize=False)
        errors = strips.sum(axis=1)[None, :, None] + inside
        best = np.min(errors, axis=0) * checkers.STRIP_STEP / (2 * checkers.STRIP_HALF)
        expected = best / checkers.AXIS_LENGTH
        assert np.array_equal(checkers.synthesis_errors(strips, visibility, ignored), expected)


@pytest.mark.parametrize(
    "profile",
    [
        [],
        [np.nan],
        [np.nan, np.nan, 0.4, np.nan, 0.7, np.nan, np.nan],
        [0.1, 0.2, 0.3],
        [0.5, np.nan, np.nan, np.nan],
        [np.nan, 0.0, np.nan, -0.2, 0.9, np.nan],
    ],
)
def test_fill_hidden_equals_the_loop(profile: list[float]) -> None:
    """Claim: _fill_hidden's running index fills every hidden (NaN) place with the last seen
    value before it, 0 before any, as the loop it replaced."""
    values = np.array(profile, np.float64)
    expected = values.copy()
    last = 0.0
    for index, value in enumerate(expected):
        if np.isnan(value):
            expected[index] = last
        else:
            last = float(value)
    filled = checkers._fill_hidden(values)
    assert filled.shape == expected.shape
    assert np.array_equal(filled, expected)


def _plain_row_count(rows: Any, reach: Any, scale: float) -> tuple[int, float]:
    """_row_count as written before: one count at a time."""
    kernel = np.ones((max(1, round(checkers.TRAY_SEAMS * scale)), 1), np.uint8)
    row = np.ascontiguousarray(rows, np.float32).reshape(-1, 1)
    closed = cv2.morphologyEx(row, cv2.MORPH_CLOSE, kernel)
    shown = np.clip(closed.ravel().astype(np.float64) * 1.4, 0.0, 1.0)
    t = (np.arange(len(shown)) + 0.5) / scale
    errors = []
    for count in range(checkers.MAX_STACK + 1):
        ends = count * g.TRAY_SLOT + (reach if count else np.zeros(1))
        expected = (t[None, :] < ends[:, None]).astype(np.float64)
        errors.append(float(np.abs(shown[None, :] - expected).mean(axis=1).min()))
    ranked = sorted(range(checkers.MAX_STACK + 1), key=lambda n: errors[n])
    best = ranked[0]
    return best, float(np.clip((errors[ranked[1]] - errors[best]) / 0.03, 0.0, 1.0))


def test_row_count_equals_the_plain_loop() -> None:
    """Claim: _row_count's every-count-at-once misfit gives the count and confidence of the
    loop over counts, for trays from empty to full and reaches of one or several values."""
    rng = np.random.default_rng(17)
    scale = VIEW_SCALE
    length = int(checkers.MAX_STACK * g.TRAY_SLOT * scale) + 20
    for trial in range(40):
        filled = int(rng.integers(0, length))
        rows = np.where(np.arange(length) < filled, 0.9, 0.05) + rng.random(length) * 0.1
        reach = rng.random(int(rng.integers(1, 4))) * g.TRAY_SLOT
        found = checkers._row_count(rows, reach, scale)
        assert found == _plain_row_count(rows, reach, scale), trial


def test_unit_and_mean_equal_numpy() -> None:
    """Claims: _unit holds a value to 0-1 as np.clip does; _mean of a float64 profile is
    np.mean's (the same pairwise sum over the same count)."""
    for value in (-3.0, -0.0, 0.0, 0.25, 1.0, 1.5, 1e-300):
        assert checkers._unit(value) == float(np.clip(value, 0.0, 1.0))
    rng = np.random.default_rng(19)
    for size in (1, 2, 7, 8, 9, 130, 220, 1000):
        values = rng.random(size) * 10 - 3
        assert checkers._mean(values) == float(np.mean(values))


def test_spot_peaks_in_raster_order_equal_find_non_zero() -> None:
    """Claim (dice._spots): the peaks' flat indices from numpy's flatnonzero over the 0-or-1
    mask are the raster-order indices OpenCV's findNonZero lists."""
    rng = np.random.default_rng(23)
    blob = rng.random((120, 170), dtype=np.float32)
    grown = cv2.dilate(blob, np.ones((5, 5), np.uint8))
    peaks = cv2.compare(blob, grown, cv2.CMP_GE)
    found = cv2.findNonZero(peaks).reshape(-1, 2)
    expected = found[:, 1] * blob.shape[1] + found[:, 0]
    cv2.min(peaks, 1, dst=peaks)  # type: ignore[call-overload]
    at = np.flatnonzero(np.asarray(peaks).view(np.bool_))
    assert len(at) > 100
    assert np.array_equal(at, expected)


# -- claim: pips' face scoring in fewer, larger steps = the plain formulas -----------------


def _geometry(rng: np.random.Generator, rows: int) -> npt.NDArray[np.float64]:
    """Face geometry rows (cx, cy, ux, uy, vx, vy) as explain_face tries them: centres over a
    96-pixel patch and beyond its edges, axes about a pip step long, turned any way, squashed,
    and a few nearly degenerate."""
    step = rng.uniform(6.0, 16.0, rows)
    turn = rng.uniform(0.0, 2 * math.pi, rows)
    squash = rng.uniform(0.6, 1.0, rows)
    geometry = np.column_stack(
        [
            rng.uniform(-20.0, 116.0, rows),
            rng.uniform(-20.0, 116.0, rows),
            step * np.cos(turn),
            step * np.sin(turn),
            -step * squash * np.sin(turn),
            step * squash * np.cos(turn),
        ]
    )
    geometry[::7, 4:] = geometry[::7, 2:4] * 1e-8  # axes (nearly) along one line
    geometry[::5, :2] = np.round(geometry[::5, :2])  # whole-pixel centres, as a lone spot's
    return geometry


def _plain_left_over(
    spots: npt.NDArray[np.float64], geometry: npt.NDArray[np.float64], det: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """pips._left_over as first written: every (row, spot, pattern) judged apart."""
    if spots.shape[1] == 0:
        return np.zeros((len(geometry), len(pips.PATTERNS)))
    det = np.where(np.abs(det) < 1e-6, 1e-6, det)
    x, y, strength, polarity = spots
    dx = x[None, :] - geometry[:, 0:1]
    dy = y[None, :] - geometry[:, 1:2]
    u = (dx * geometry[:, 5:6] - dy * geometry[:, 4:5]) / det[:, None]
    v = (dy * geometry[:, 2:3] - dx * geometry[:, 3:4]) / det[:, None]
    ru, rv = np.round(u), np.round(v)
    on_cell = (np.hypot(u - ru, v - rv) < 0.45) & (np.abs(ru) <= 1) & (np.abs(rv) <= 1)
    cell = np.where(on_cell, (rv + 1) * 3 + (ru + 1), 9).astype(np.intp)
    near = np.hypot(u, v) < pips.LEFT_OVER_REACH
    lit = np.concatenate([np.array([p for _v, p in pips.PATTERNS]).T, np.zeros((1, 9), bool)])
    explained = lit[cell]
    strength, polarity = strength[None, :, None], polarity[None, :, None]
    weakest = np.where(explained, strength, np.inf).min(axis=1, keepdims=True)
    kind = np.sign(np.where(explained, polarity, 0.0).sum(axis=1, keepdims=True))
    alike = (polarity == kind) | (kind == 0)
    stray = near[:, :, None] & ~explained & alike & (strength >= pips.PIP_LIKENESS * weakest)
    counts: npt.NDArray[np.float64] = stray.sum(axis=1).astype(np.float64)
    return counts


def test_left_over_equals_the_plain_formula() -> None:
    """Claim: _left_over's pips' kind from one product of polarities (-1, 0 or 1, as
    find_spots gives them) and its strays from one comparison of booleans count what the
    plain formula counts, for no spot, one, and many (some on one cell, some far off)."""
    rng = np.random.default_rng(29)
    pool = rng.uniform(14.0, 60.0, 6)
    strengths = np.concatenate([pool, pips.PIP_LIKENESS * pool])
    for trial in range(60):
        rows = int(rng.integers(1, 60))
        geometry = _geometry(rng, rows)
        det = geometry[:, 2] * geometry[:, 5] - geometry[:, 3] * geometry[:, 4]
        count = int(rng.integers(0, 25)) if trial else 0
        spots = np.array(
            [
                rng.uniform(-10.0, 106.0, count),
                rng.uniform(-10.0, 106.0, count),
                rng.choice(strengths, count),  # some equal, some at the least a pip's
                rng.integers(-1, 2, count).astype(np.float64),
            ]
        )
        spots[:2, ::3] = geometry[0, :2, None] + rng.integers(-1, 2, (2, len(spots[0, ::3]))) * 13
        found = pips._left_over(spots, geometry, det)
        _assert_same_bits(found, _plain_left_over(spots, geometry, det), f"trial {trial}")


def test_bare_spread_equals_sorting_every_sample() -> None:
    """Claim: _bare_spread, sorting only each pattern's own bare samples, picks the value the
    plain formula picks after sorting every sample with the hidden ones set to -inf (ties
    and values of either sign included)."""
    rng = np.random.default_rng(31)
    patterns, bare, points = len(pips.PATTERNS), len(pips._BARE_UV), pips._FACE_POINTS
    counts = pips._BARE_COUNTS
    rank = bare - counts + (counts * pips.BARE_QUANTILE).astype(int)
    for rows in (1, 2, 9, 16, 54):
        product = np.round(rng.normal(0.0, 300.0, (rows, 2 * patterns, points)), 0)
        along = product[:, patterns:, :bare]
        rivalling = product[:, :patterns, :bare] - np.minimum(along, 0.0) ** 2
        rivalling[:, ~pips._BARE_CLEAR] = -np.inf
        rivalling.sort(axis=2)
        expected = rivalling[:, np.arange(patterns), rank]
        found = pips._bare_spread(product.reshape(rows, -1))
        _assert_same_bits(found, expected, f"{rows} rows")


def test_face_samples_equal_the_plain_formula() -> None:
    """Claim: _sample's positions, summed in place, are the plain formula's (centre, plus
    each axis times its cell, plus a half, truncated, then held to the patch) and so are the
    colours."""
    rng = np.random.default_rng(37)
    lab = rng.uniform(0.0, 255.0, (96, 96, 3))
    for rows in (1, 8, 16, 54):
        geometry = _geometry(rng, rows)
        found = pips._sample(lab, geometry)
        cx, cy, ux, uy, vx, vy = (column[:, None] for column in geometry.T)
        x = ((cx + ux * pips._FACE_U) + vx * pips._FACE_V + 0.5).astype(np.intp)
        y = ((cy + uy * pips._FACE_U) + vy * pips._FACE_V + 0.5).astype(np.intp)
        expected = lab[np.clip(y, 0, 95), np.clip(x, 0, 95)]
        _assert_same_bits(found, expected, f"{rows} rows")


def test_nothing_is_a_checker_beyond_every_likeness() -> None:
    """Claim (dice._leans_toward): asked for a checker more alike than any colour can be
    (``likeness`` infinite: walls and dice only), nothing in the view is one, so the view
    need not be looked at."""
    made = _fresh_maps()
    h, w = made.shape
    rows, cols = np.mgrid[0:h:3, 0:w:3]
    points = np.column_stack(
        [cols.ravel() / made.scale + VIEW_LEFT, rows.ravel() / made.scale + VIEW_TOP]
    )
    assert np.any(dice._checker_at(made, points, dice.FAINT_CHECKER))
    assert not np.any(dice._checker_at(made, points, math.inf))


# -- claim: dice's rest evidence in fewer steps = the plain formulas -----------------------


def _plain_leans_toward(
    made: PlaneMaps,
    to_view: npt.NDArray[np.float64],
    face_mm: tuple[float, float],
    angle: float,
    side: int,
    shown: float,
    others: list[dice.FoundDie],
    out_along: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    likeness: float,
) -> bool:
    """dice._leans_toward as first written: one look, its points judged in turn."""
    (nx, ny), (ax, ay) = dice._turned_sides(angle)[side]
    beyond, along = out_along
    out = g.DIE_SIZE / 2 + shown + beyond
    xs = face_mm[0] + out[:, None] * nx + along[None, :] * ax
    ys = face_mm[1] + out[:, None] * ny + along[None, :] * ay
    canonical_xs = made.layout.canonical_xs(xs)
    walls = (
        (canonical_xs < 0.0) | (canonical_xs > g.PLAY_WIDTH) | (ys < 0.0) | (ys > g.PLAY_HEIGHT)
        | ((canonical_xs > g.BAR_LEFT) & (canonical_xs < g.BAR_RIGHT))
    )  # fmt: skip
    if walls.any():
        return True
    for other in others:
        if np.any(np.hypot(xs - other.centre_mm[0], ys - other.centre_mm[1]) < g.DIE_SIZE / 2):
            return True
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)[None].astype(np.float64)
    view = cv2.perspectiveTransform(points, to_view)[0]
    view[:, 0], view[:, 1] = made.layout.canonical_points(view[:, 0], view[:, 1])
    cols, rows = (np.round((axis - start) * made.scale).astype(int) for axis, start in (
        (view[:, 0], VIEW_LEFT), (view[:, 1], VIEW_TOP)))  # fmt: skip
    h, w = made.shape
    ok = (cols >= 0) & (cols < w) & (rows >= 0) & (rows < h)
    if not ok.any():
        return True
    inside = view[ok]
    cols, rows = cols[ok], rows[ok]
    xs_px, ys_px = np.clip(cols, 0, w - 1), np.clip(rows, 0, h - 1)
    like = made.foreground_at(ys_px, xs_px) * np.abs(made.whiteness[ys_px, xs_px]) > likeness
    assert len(like) == len(inside)
    return bool(np.mean(like) >= dice.SUPPORT_SHARE)


@pytest.mark.parametrize("share", [dice.SUPPORT_SHARE, 0.0, 1.0])
def test_leaning_equals_each_look_apart(share: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claim: dice._leaning, every look's points made and looked up in the view at once (the
    exact foreground of points gathered from several looks, the share of each look's), says
    of each look what the look judged alone says: near walls, the bar, another die, the
    view's edge and over checkers, with each likeness and reach the dice reader uses (and at
    the shares where a look's points all or none show a checker: ties at the threshold)."""
    monkeypatch.setattr(dice, "SUPPORT_SHARE", share)
    made = _fresh_maps()
    image, _, profile = _frame_and_args()
    heights = camera_heights(profile.image_to_plane, (image.shape[1], image.shape[0]))
    rng = np.random.default_rng(41)
    reaches = (
        (dice._SUPPORT_OUT, dice._SUPPORT_ALONG),
        (dice._SUPPORT_FAR_OUT, dice._SUPPORT_FAR_ALONG),
    )
    verdicts = []
    for trial in range(80):
        top = float(rng.choice([g.DIE_SIZE, g.DIE_SIZE + dice.CHECKER_THICKNESS]))
        to_view = heights.to_plane_matrix(VIEW_HEIGHT) @ np.linalg.inv(heights.to_plane_matrix(top))
        face_mm = (rng.uniform(-20.0, g.PLAY_WIDTH + 20.0), rng.uniform(-20.0, g.PLAY_HEIGHT + 20))
        angle = float(rng.uniform(0.0, math.pi / 2))
        reading: Any = None  # (only where the other die lies is looked at)
        other = dice.FoundDie(reading, (face_mm[0] + 25.0, face_mm[1]), top, (0.0, 0.0))
        others = [other] if trial % 3 == 0 else []
        looks = [
            (int(rng.integers(0, 4)), float(rng.uniform(0.0, 12.0)))
            for _ in range(int(rng.integers(0, 6)))
        ]
        reach = reaches[trial % 2]
        # (an infinite likeness skips the view: so far as no share is needed, above 0)
        likeness = (dice.CHECKER_LIKE, dice.FAINT_CHECKER, math.inf if share else 0.0)[trial % 3]
        found = dice._leaning(made, to_view, face_mm, angle, looks, others, reach, likeness)
        expected = [
            _plain_leans_toward(made, to_view, face_mm, angle, side, shown, others, reach, likeness)
            for side, shown in looks
        ]
        assert found == expected, trial
        verdicts += found
    assert any(verdicts) and (not all(verdicts) or share == 0.0)


def test_median_line_is_the_middle_one_ordered() -> None:
    """Claim (dice._outline_reach): the median of the lines across an edge is the middle
    line's value once ordered, as np.median gives it (ties included)."""
    rng = np.random.default_rng(43)
    lines = np.round(rng.uniform(0, 255, (4, len(dice._EDGE_ALONG), 33, 3)), 0).astype(np.float32)
    middle = np.partition(lines, dice._MIDDLE_LINE, axis=1)[:, dice._MIDDLE_LINE]
    _assert_same_bits(middle, np.median(lines, axis=1), "median")


def test_turned_rows_equal_each_turn_apart() -> None:
    """Claim: _moved turns every row's axes every way in one stacked product, each pair of
    matrices multiplied as alone (the plain formula: one product and one scaling a turn)."""
    rng = np.random.default_rng(47)
    for trial in range(300):
        rows = rng.normal(0.0, 20.0, (int(rng.integers(1, 4)), 6))
        if trial % 3 == 0:
            rows[:, 2:] = np.round(rows[:, 2:] * 7) / 7
        bases = rows[:, 2:].reshape(-1, 2, 2)
        turned = np.stack([(bases @ turn) * scale for turn, scale in pips._TURNS], axis=1)
        centres = np.repeat(rows[:, None, :2], len(pips._TURNS), axis=1)
        expected = np.concatenate([centres, turned.reshape(len(rows), -1, 4)], axis=2)
        _assert_same_bits(pips._moved(rows, "turn"), expected.reshape(-1, 6), f"trial {trial}")


def test_differs_equals_the_greater_of_both_measures() -> None:
    """Claim: dice._differs, judging the outline first and making the exact foreground only
    where the outline is not enough, says what the plain formula (the greater of the mean
    foreground and the scaled strongest tenth, against DIE_FOREGROUND) says: over windows of
    every kind (empty ones, at the view's edges), each decided by either measure or neither."""
    made = _fresh_maps()
    # and a made-up view where the foreground alone is enough in some windows: a board of
    # faint outlines, over half of it a foreground the outline does not show
    rng = np.random.default_rng(53)
    faint = (made.tolerant * 0.5).astype(np.float32)
    body = np.where(rng.random(made.shape) < 0.5, made.tolerant, np.float32(0.8))
    made_up = dataclasses.replace(made, tolerant=faint, exact=body.astype(np.float32))
    decided_by = []
    for view, window in [(m, w) for m in (made, made_up) for w in _windows(*made.shape)]:
        foreground, tolerant = view.foreground_in(*window), view.tolerant[window]
        mean = tenth = 0.0
        if foreground.size:
            edges = tolerant.ravel()
            tenth = float(np.partition(edges, int(len(edges) * 0.9))[int(len(edges) * 0.9)])
            tenth *= dice.OUTLINE_SHARE
            mean = float(foreground.mean())
        expected = bool(foreground.size) and max(mean, tenth) >= dice.DIE_FOREGROUND
        assert dice._differs(view, *window) == expected, window
        decided_by.append((tenth >= dice.DIE_FOREGROUND, mean >= dice.DIE_FOREGROUND))
    assert {(True, True), (False, True), (False, False)} <= set(decided_by)


def test_strongest_turns_equal_the_loop() -> None:
    """Claim: pips._strongest_turns, every picked bin's strongest pair at once (the others at
    -inf), picks each bin's turn as np.argmax over the bin's members alone does: the first of
    equally strong pairs, bins round the quarter turn included."""
    rng = np.random.default_rng(59)
    count = round(math.pi / 2 / pips.TURN_APART)
    for trial in range(200):
        pairs = int(rng.integers(1, 40))
        turns = rng.uniform(0.0, math.pi / 2, pairs)
        turns[0] = 0.0
        weight = rng.choice(rng.uniform(14.0, 60.0, 4), pairs)  # equal votes, often
        weight[0] = 1e-3
        bins = np.rint(turns / pips.TURN_APART).astype(int) % count
        picked = [int(b) for b in rng.permutation(np.unique(bins))[: pips.MAX_TURNS]]
        expected = []
        for b in picked:
            members = (bins - (b - 1)) % count <= 2
            expected.append(float(turns[members][np.argmax(weight[members])]))
        assert pips._strongest_turns(picked, bins, turns, weight, count) == expected, trial
    assert pips._strongest_turns([], bins, turns, weight, count) == []


def _plain_side_spots(
    spots: npt.NDArray[np.float64], face: pips.FaceRead, scale: float
) -> list[tuple[int, float]]:
    """dice._side_spots as first written: the strongest spot found again for every spot, the
    loop over numpy's scalars."""
    if len(spots) == 0:
        return []
    c, s = math.cos(face.angle), math.sin(face.angle)
    half = g.DIE_SIZE / 2
    rel = (spots[:, :2] - np.array(face.centre)) / scale
    u = rel[:, 0] * c + rel[:, 1] * s
    v = -rel[:, 0] * s + rel[:, 1] * c
    out = []
    for x, y, strength in zip(u, v, spots[:, 2], strict=True):
        if strength < dice.SIDE_PIP_LIKENESS * float(spots[:, 2].max()):
            continue
        if abs(x) > half and abs(y) < half * 0.8:
            out.append((0 if x > 0 else 1, abs(x) - half))
        elif abs(y) > half and abs(x) < half * 0.8:
            out.append((2 if y > 0 else 3, abs(y) - half))
    return [(side, beyond) for side, beyond in out if beyond < g.DIE_SIZE * 0.9]


def test_side_spots_equal_the_plain_loop() -> None:
    """Claim: dice._side_spots, the strongest spot found once and the loop over Python
    floats, lists the sides and distances the plain loop lists (spots at the likeness
    threshold, on every side, too far out and level with no side included)."""
    rng = np.random.default_rng(61)
    scale = dice.PATCH_PX_PER_MM
    found_any = False
    for trial in range(200):
        count = int(rng.integers(0, 12))
        strength = rng.choice(np.array([20.0, 30.0, 30.0 * dice.SIDE_PIP_LIKENESS, 50.0]), count)
        spots = np.column_stack(
            [rng.uniform(0.0, 96.0, count), rng.uniform(0.0, 96.0, count), strength]
        )
        face = pips.FaceRead(3, 1.0, (48.0 + rng.normal(0, 4), 48.0), rng.uniform(0, 1.6), 13.0)
        found = dice._side_spots(spots, face, scale)
        assert found == _plain_side_spots(spots, face, scale), trial
        found_any |= bool(found)
    assert found_any

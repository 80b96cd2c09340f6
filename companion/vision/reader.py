"""Reading one frame: an image array and a profile in, a :class:`Reading` out.

The steps, each in its own module: warp the frame onto the board plane
(:mod:`~companion.vision.plane`), compare it with the empty board learned at calibration
(:mod:`~companion.vision.maps`), find anything that is neither board nor checker (hands,
:func:`find_occluders`), find and read the dice (:mod:`~companion.vision.dice`), count the
checkers (:mod:`~companion.vision.checkers`), then check the whole (fifteen checkers a side).
Any region below :data:`CONFIDENCE_THRESHOLD` makes the reading unreadable, naming the region.

Doubts the whole settles: one doubtful count may be settled by the total of fifteen
(:func:`resolve_by_fifteen`); then a die with nothing within reach to lean on lies flat
(:func:`settle_free_dice`), where a point still in doubt may hold a whole line of checkers.
Doubts the whole raises: anything large no checker or die explains (a hand), and anything
die-sized where fewer than two dice were read (a die missed must not turn a roll into "no
dice").
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, cast

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.vision import checkers, dice, nudge
from companion.vision.maps import (
    FOREGROUND_HIGH,
    FOREGROUND_LOW,
    FloatImage,
    PlaneMaps,
    colour_distance,
    edge_strength,
    grow_edges,
    plane_maps,
    reference_envelope,
    to_lab,
)
from companion.vision.plane import (
    VIEW_LEFT,
    VIEW_TOP,
    Image,
    Layout,
    Matrix,
    camera_heights,
    view_column,
    view_homography,
    view_pixel,
    view_row,
    warp,
)
from companion.vision.profile import VIEW_SCALE, Colours, Profile, ProfileError
from companion.vision.reading import Colour, Counts, DieReading, Reading, judge_dice
from companion.vision.reference import decode_reference

FOREGROUND_SPAN = FOREGROUND_HIGH - FOREGROUND_LOW
CONFIDENCE_THRESHOLD = 0.5
"""Regions read with less confidence than this make the whole reading unreadable."""
DIE_AREA_MM2 = 0.6 * g.DIE_SIZE**2
"""A blob no checker explains at least this large may be a die (a die's top is 16 x 16 mm)."""
HAND_AREA_MM2 = 700.0
"""A blob unlike board, checkers and dice at least this large is a hand, arm or cup."""


class UnreadableImage(CompanionError, ValueError):
    """An image array that is not a colour frame."""


@dataclass(frozen=True, slots=True)
class ReadSettings:
    """Choices a user may change; the defaults follow the traditional rules."""

    die_on_checker_is_cocked: bool = True
    """False follows the 2016 US Backgammon allowance: a die level on a checker stands."""
    threshold: float = CONFIDENCE_THRESHOLD


@lru_cache(maxsize=4)
def _reference(text: str) -> tuple[FloatImage, FloatImage]:
    """The profile's empty board (decoded once per profile) and its own edges."""
    try:
        lab = decode_reference(text, VIEW_SCALE)
    except ValueError as error:
        raise ProfileError(f"profile: {error}; calibrate again") from error
    return lab, edge_strength(np.asarray(cv2.blur(lab, (3, 3)), dtype=np.float32))


@lru_cache(maxsize=4)
def _small_reference(text: str) -> FloatImage:
    """The profile's empty board as :func:`nudge.small_lightness` (once per profile)."""
    return nudge.small_lightness(_reference(text)[0], VIEW_SCALE)


@lru_cache(maxsize=4)
def _grown_edges(text: str) -> FloatImage:
    """The profile's empty board's edges, widened by a pixel (once per profile)."""
    return grow_edges(_reference(text)[1])


@lru_cache(maxsize=4)
def _envelope(text: str) -> tuple[FloatImage, FloatImage]:
    """The profile's empty board as a range of values round every pixel (once per profile)."""
    return reference_envelope(_reference(text)[0])


@lru_cache(maxsize=4)
def _checker_distances(text: str, colours: Colours) -> tuple[FloatImage, FloatImage]:
    """The empty board's colour distance to each checker colour, blurred over 5 x 5 pixels
    (once per profile: :func:`_camouflage` and :func:`_visibility` both start from them)."""
    lab, _edges = _reference(text)
    smooth: FloatImage = np.asarray(cv2.blur(lab, (5, 5)), dtype=np.float32)
    return colour_distance(smooth, colours.white), colour_distance(smooth, colours.black)


@lru_cache(maxsize=4)
def _camouflage(text: str, colours: Colours) -> checkers.FloatArray:
    """Where along every point the empty board has white's and black's colour, (2, 24, mm)
    (once per profile)."""
    return np.stack(
        [
            checkers.camouflage_profiles(distance, VIEW_SCALE)
            for distance in _checker_distances(text, colours)
        ]
    )


@lru_cache(maxsize=4)
def _visibility(text: str, colours: Colours) -> checkers.FloatArray:
    """How plainly a checker of each colour would show on every strip sample (per profile)."""
    return np.stack(
        [
            checkers.strip_samples(
                np.clip((distance - FOREGROUND_LOW) / FOREGROUND_SPAN, 0, 1), VIEW_SCALE
            )
            for distance in _checker_distances(text, colours)
        ]
    )


@lru_cache(maxsize=4)
def _tray_visibility(text: str, colours: Colours) -> dict[str, float]:
    """Share of each empty tray where a checker of its colour would plainly show."""
    lab, _edges = _reference(text)
    shares = {}
    for colour, lab_colour in (("white", colours.white), ("black", colours.black)):
        x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
        rows = slice(view_row(y0, VIEW_SCALE), view_row(y1, VIEW_SCALE))
        cols = slice(view_column(x0, VIEW_SCALE), view_column(x1, VIEW_SCALE))
        distance = colour_distance(np.ascontiguousarray(lab[rows, cols]), lab_colour)
        shares[colour] = float(np.mean(distance > FOREGROUND_LOW + FOREGROUND_SPAN / 2))
    return shares


@lru_cache(maxsize=4)
def _rim_contrast(text: str) -> float:
    return checkers.rim_contrast(_reference(text)[1])


REGION_NAMES = ("the board", "the trays", "the bar", *(f"point {n}" for n in range(1, 25)))


@lru_cache(maxsize=4)
def _region_labels(scale: float, shape: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """Every view pixel's index into :data:`REGION_NAMES`, drawn once per view size: the
    trays right of the playing area, the bar, each point's half of the board (base to the
    centre line), and the rest of the board."""
    height, width = shape
    xs = np.arange(width) / scale + VIEW_LEFT
    ys = np.arange(height) / scale + VIEW_TOP
    labels = np.zeros(shape, np.uint8)
    for number in range(24, 0, -1):
        x0, y0, x1, y1 = g.point_shape(number).region()
        inside = ((ys >= y0) & (ys <= y1))[:, None] & ((xs >= x0) & (xs <= x1))[None, :]
        labels[inside] = 2 + number
    labels[:, (xs >= g.BAR_LEFT) & (xs <= g.BAR_RIGHT)] = 2
    labels[:, xs > g.PLAY_WIDTH] = 1
    return labels


Labels = npt.NDArray[np.integer[Any]]
"""Connected components' labels: 16 bits where they fit (:func:`_components`)."""
_MOST_16_BIT_LABELS = 65_534
"""Masks with fewer set pixels than this are labelled in 16 bits: even were every pixel a
component of its own, their labels and the background's fit (OpenCV refuses 16 bits from
65,535 lone pixels on; this keeps one pixel to spare)."""


def _components(
    mask: cv2.typing.MatLike, least_px: float
) -> tuple[int, Labels, npt.NDArray[np.int32]]:
    """OpenCV's connected components of ``mask`` (count, labels, stats), for callers that only
    act on components of at least ``least_px`` pixels: none (the background alone, and no
    labels to look at) when the mask holds fewer pixels in all, as on most frames, so that
    the whole view is not labelled for nothing.

    Labels are 16 bits wide whenever they fit (fewer set pixels than labels a 16-bit image
    can hold): OpenCV labels the view about three times as fast as with 32 bits (0.45
    against 1.4 ms on a hand's mask), the same labels and stats."""
    pixels = cv2.countNonZero(mask)
    if pixels < least_px:
        return 1, np.zeros((0, 0), np.int32), np.zeros((1, 5), np.int32)
    width = cv2.CV_16U if pixels < _MOST_16_BIT_LABELS else cv2.CV_32S
    count, labels, stats, _centroids = cv2.connectedComponentsWithStats(
        mask, connectivity=8, ltype=width
    )
    return int(count), cast(Labels, labels), np.asarray(stats, np.int32)


def _names_under(mask: npt.NDArray[np.bool_], scale: float) -> set[str]:
    """The players' names of every region ``mask`` (a view-sized boolean image) touches."""
    found = np.unique(_region_labels(scale, mask.shape)[mask])
    return {REGION_NAMES[index] for index in found.tolist()}


def find_occluders(maps: PlaneMaps) -> list[str]:
    """Names of the regions covered by something large that is neither board nor checker."""
    # 255 where set: one pass, not two
    mask = cv2.compare(maps.other, 0.5, cv2.CMP_GT)  # type: ignore[call-overload]
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    area_px = HAND_AREA_MM2 * maps.scale**2
    count, labels, stats = _components(mask, area_px)
    names = []
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < area_px:
            continue
        names.extend(sorted(_names_under(labels == index, maps.scale)))
    return sorted(set(names))


def unexplained(
    maps: PlaneMaps,
    regions: list[checkers.RegionReading],
    bar: Counts,
    found_dice: list[dice.FoundDie],
) -> list[str]:
    """Regions where something large differs from the empty board and is no checker or die.

    The checkers read and the dice found are drawn where they must lie; what else differs
    from the empty board (a hand the colour of the checkers, a sleeve, a cup) is left over.
    """
    scale = maps.scale
    drawn = np.zeros(maps.tolerant.shape, np.uint8)  # 255 where drawn

    def disc(x: float, y: float, radius: float) -> None:
        cv2.circle(drawn, view_pixel(x, y, scale), round(radius * scale), 255, -1)

    for x, y, _ in checker_centres(regions, bar, lambda region: abs(region.count)):
        disc(x, y, g.CHECKER_DIAMETER / 2 + 4.0)
    for colour in ("white", "black"):
        x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
        cv2.rectangle(
            drawn,
            view_pixel(x0, y0, scale),
            view_pixel(x1, y1, scale),
            255,
            -1,
        )
    for die in found_dice:
        disc(die.view_mm[0], die.view_mm[1], g.DIE_SIZE * 1.1)
    # 255 where something is left over, nothing drawn (the difference saturates at 0)
    over = cv2.compare(maps.tolerant, LEFT_OVER, cv2.CMP_GT)  # type: ignore[call-overload]
    left = np.asarray(cv2.subtract(over, drawn), np.uint8)
    # only what lies on the playing area counts (the table round the board is not learned)
    # nor what lies along the walls: the frame's and the bar's inner faces stand up from the
    # playing surface, and a point borrowed at calibration from a sibling lacks their look
    inside = _off_the_walls(scale, left.shape, maps.layout.edge)
    # checkers at the board's near edge show their sides over the frame to a tilted camera
    near_checkers = cv2.dilate(drawn, np.ones((9, 9), np.uint8))
    over_frame = left & _frame_band(scale, left.shape, maps.layout.edge) & (near_checkers == 0)
    for die in found_dice:
        # a die leaning on the frame, seen from the side, shows over it well beyond its top
        centre = view_pixel(die.view_mm[0], die.view_mm[1], scale)
        cv2.circle(over_frame, centre, round(g.DIE_SIZE * 1.8 * scale), 0, -1)
    left &= inside
    names: set[str] = set()
    if _reaches_over_frame(over_frame, scale):
        # whatever lies on the board came over the frame: an arm reaching in shows there
        # first, where no checker may lie, even when on the board it passes for one
        names.add("the frame (a hand or arm reaching over it)")
    beside = np.asarray(cv2.dilate(drawn, np.ones((7, 7), np.uint8)), np.uint8)
    if len(found_dice) < 2 and _pip_cluster(left, beside, scale):
        # something die-sized where no die was read: a die missed must not let the frame
        # pass for one without dice (or with one)
        names.add("the dice (something die-sized not read)")
    # thin lines (a triangle's edge a pixel off its learned place) are no hand
    opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    left = np.asarray(cv2.morphologyEx(left, cv2.MORPH_OPEN, opening), np.uint8)
    smallest = (HAND_AREA_MM2 if len(found_dice) >= 2 else DIE_AREA_MM2) * scale**2
    count, labels, stats = _components(left, smallest)
    for index in range(1, count):
        area = stats[index, cv2.CC_STAT_AREA]
        if area < HAND_AREA_MM2 * scale**2:
            if len(found_dice) < 2 and area >= DIE_AREA_MM2 * scale**2:
                names.add("the dice (something die-sized not read)")
            continue
        names.update(_names_under(labels == index, scale))
    return sorted(names)


PIP_CLUSTER_MM2 = 60.0
"""Area (mm^2) of left-over spots, merged across a die's face, that may be a die whose face
matches the board (a white die on a cream point shows only its pips)."""


@lru_cache(maxsize=4)
def _off_the_walls(
    scale: float, shape: tuple[int, int], edge: float = 0.0
) -> npt.NDArray[np.uint8]:
    """1 on both halves of the playing area, :data:`WALL_MARGIN` clear of the frame and the bar
    (drawn once per view size; ``edge``: the strip along the frame's long sides, which the
    view shifts off the canonical playing area)."""
    inside = np.zeros(shape, np.uint8)
    for x0, x1 in ((0.0, g.BAR_LEFT), (g.BAR_RIGHT, g.PLAY_WIDTH)):
        cv2.rectangle(
            inside,
            view_pixel(x0 + WALL_MARGIN, WALL_MARGIN - edge, scale),
            view_pixel(x1 - WALL_MARGIN, g.PLAY_HEIGHT + edge - WALL_MARGIN, scale),
            1,
            -1,
        )
    return inside


FRAME_BAND = (3.0, 0.7 * g.FRAME_WIDTH)
"""Distances (mm) from the playing area's edge between which the frame is watched for arms:
off the walls' own edge, short of the table where the doubling cube rests."""
FRAME_REACH_MM2 = 150.0
"""Area (mm^2) of change on the frame that is something reaching over it (a finger's tip)."""


@lru_cache(maxsize=4)
def _frame_band(scale: float, shape: tuple[int, int], edge: float = 0.0) -> npt.NDArray[np.uint8]:
    """1 on the frame round the playing area, except on the trays' side (dice may rest there
    beside the trays, and the trays have their own readers); beyond the strip along the long
    sides (``edge``), which the view shifts off the canonical playing area."""
    band = np.zeros(shape, np.uint8)
    near, far = FRAME_BAND

    def rect(x0: float, y0: float, x1: float, y1: float, value: int) -> None:
        cv2.rectangle(
            band,
            view_pixel(x0, y0, scale),
            view_pixel(x1, y1, scale),
            value,
            -1,
        )

    rect(-far, -far - edge, g.PLAY_WIDTH, g.PLAY_HEIGHT + far + edge, 1)
    rect(-near, -near - edge, g.PLAY_WIDTH, g.PLAY_HEIGHT + near + edge, 0)
    return band


def _reaches_over_frame(over_frame: npt.NDArray[np.uint8], scale: float) -> bool:
    """Whether something finger-sized or larger has changed on the frame (thin lines, a frame
    edge a pixel off, are opened away first)."""
    opened = cv2.morphologyEx(over_frame, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    least = FRAME_REACH_MM2 * scale**2
    count, _labels, stats = _components(opened, least)
    return any(stats[index, cv2.CC_STAT_AREA] >= least for index in range(1, count))


PIP_CLUSTER_WIDTH = 7.0
"""Least width (mm) of a cluster of pips: a face's pips spread across it both ways."""


def _pip_cluster(
    left: npt.NDArray[np.uint8], beside_checkers: npt.NDArray[np.uint8], scale: float
) -> bool:
    """Whether spots left over cluster like a die whose face matches the board: merged across
    gaps of a few millimetres, a blob at least :data:`PIP_CLUSTER_MM2` and no wider than a
    die's face, clear of the checkers (beside them, a tilted camera sees their sides and
    shadows, which leave such bits over on every frame)."""
    size = max(3, round(7 * scale)) | 1
    merged = cv2.morphologyEx(left, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
    count, labels, stats = _components(merged, PIP_CLUSTER_MM2 * scale**2)
    face = g.DIE_SIZE * 1.6 * scale
    for index in range(1, count):
        width, height = stats[index, cv2.CC_STAT_WIDTH], stats[index, cv2.CC_STAT_HEIGHT]
        area = stats[index, cv2.CC_STAT_AREA]
        if area < PIP_CLUSTER_MM2 * scale**2 or max(width, height) > face:
            continue
        if min(width, height) < PIP_CLUSTER_WIDTH * scale:
            continue  # a line (a triangle's edge a pixel off), not a face
        x, y = stats[index, cv2.CC_STAT_LEFT], stats[index, cv2.CC_STAT_TOP]
        window = (slice(y, y + height), slice(x, x + width))
        blob = labels[window] == index
        if not (beside_checkers[window].astype(bool) & blob).any():
            return True
    return False


def _signed_tray(tray: checkers.RegionReading, sign: int) -> checkers.RegionReading:
    """A tray as a signed region for :func:`resolve_by_fifteen`: a tray read holding checkers
    may hold one fewer or a checker or two more (a tray read empty is never filled)."""
    near = [n for n in (tray.count - 1, tray.count + 1, tray.count + 2) if 0 <= n <= 15]
    return replace(tray, count=sign * tray.count, alternatives=tuple(sign * n for n in near))


def tray_smear(image_to_plane: Matrix, size: tuple[int, int]) -> dict[str, float]:
    """How far (mm, toward each tray's open end) a borne-off checker's top appears from its
    foot, seen through the plane at the surface (:func:`checkers.read_tray`)."""
    heights = camera_heights(image_to_plane, size)
    smear = {}
    for colour in ("white", "black"):
        x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        seen = heights.seen_at(centre, g.CHECKER_DIAMETER, 0.0)
        # white's tray fills upward from the bottom, black's downward from the top
        shift = seen[1] - centre[1]
        smear[colour] = -shift if colour == "white" else shift
    return smear


ON_A_CHECKER = g.DIE_SIZE * 0.6
"""Distance (mm) from a checker's centre within which a die lies on the checker, not beside
it."""


def stacks_reaching(
    die: dice.FoundDie, regions: list[checkers.RegionReading]
) -> Iterator[tuple[int, list[int]]]:
    """The points (indices) whose stacks, as read, reach across where a die was seen, each
    with the checkers (0 the first) that do.

    A die rests on the board clear of the checkers, or on top of one checker near its middle;
    it cannot lie flat across the place where two checkers of a stack touch, which is exactly
    where a pip-like gap shows between them.
    """
    for index, near in _checkers_near(die.view_mm, regions, ON_A_CHECKER):
        if near:
            yield index, near


CHECKER_REACH = g.CHECKER_DIAMETER / 2 + 4.0
"""Distance (mm) from a checker's centre within which a die's place overlaps the checker."""


def _checkers_near(
    xy: tuple[float, float], regions: list[checkers.RegionReading], nearest: float = -1.0
) -> Iterator[tuple[int, list[int]]]:
    """For each stack read on the points, its index and which of its checkers (0 the first)
    have their centres farther than ``nearest`` (by default any) and within
    :data:`CHECKER_REACH` from ``xy``."""
    x, y = xy
    for number, region in enumerate(regions, start=1):
        if region.count == 0:
            continue
        centres = _stack_centres(number, abs(region.count))
        near = [
            k
            for k, (cx, cy, _) in enumerate(centres)
            if nearest < math.hypot(x - cx, y - cy) < CHECKER_REACH
        ]
        yield number - 1, near


def could_rest_there(die: dice.FoundDie, regions: list[checkers.RegionReading]) -> bool:
    """Whether a die could lie where it was seen, given the stacks read around it
    (:func:`stacks_reaching`)."""
    return next(stacks_reaching(die, regions), None) is None


PHANTOM_BODY = 15.0
"""Radius (mm) of the part of a checker's disc looked at for its body (its rim, and the side
a tilted camera sees of it, left out)."""
DIE_BODY = dice.HALF_DIAGONAL + 4.0
"""Radius (mm) round a die's top and its footprint within which the die, its sides and its
shadow may show."""
PHANTOM_SHOWN = 0.35
"""Share of a checker's body that must lie clear of the die for what shows there to count."""
PHANTOM_BARE = 0.2
"""Mean foreground over that share below which the board shows bare: no checker lies there."""


def taken_for_the_next_checker(
    die: dice.FoundDie, regions: list[checkers.RegionReading], maps: PlaneMaps
) -> bool:
    """Whether every stack reaching the die reaches it only with its last checker, and that
    checker's body, beyond the die, shows the bare board: the stack was read a checker long
    because the die beside its end was taken for its next checker. A seam lies between two
    checkers of a stack, and the second of them is there to see beyond it."""
    # (the reach of the stacks a die keeps in doubt: :func:`doubt_stacks_under_dice`)
    reaching = list(stacks_reaching(die, regions))
    if not reaching:
        return False
    for index, near in reaching:
        count = abs(regions[index].count)
        if near != [count - 1]:
            return False
        cx, cy, _ = _stack_centres(index + 1, count)[-1]
        if not _bare_beyond_die(maps, (cx, cy), die):
            return False
    return True


def _bare_beyond_die(maps: PlaneMaps, centre: tuple[float, float], die: dice.FoundDie) -> bool:
    """Whether the body of a checker centred at ``centre`` shows the bare board where the die
    does not hide it (enough of it: :data:`PHANTOM_SHOWN`). Looked at in a window round the
    checker only: the discs are drawn there as on the whole view."""
    scale = maps.scale
    radius = round(PHANTOM_BODY * scale)
    column, row = view_pixel(centre[0], centre[1], scale)
    rows = slice(max(row - radius, 0), min(row + radius + 1, maps.shape[0]))
    cols = slice(max(column - radius, 0), min(column + radius + 1, maps.shape[1]))
    if rows.start >= rows.stop or cols.start >= cols.stop:
        return False  # no part of it in view
    body = np.zeros((rows.stop - rows.start, cols.stop - cols.start), np.uint8)
    cv2.circle(body, (column - cols.start, row - rows.start), radius, 1, -1)
    whole = int(np.count_nonzero(body))
    for x, y in (die.view_mm, die.footprint_mm):
        die_column, die_row = view_pixel(x, y, scale)
        at = (die_column - cols.start, die_row - rows.start)
        cv2.circle(body, at, round(DIE_BODY * scale), 0, -1)
    shown = body.astype(bool)
    if whole == 0 or np.count_nonzero(shown) < PHANTOM_SHOWN * whole:
        return False
    return float(maps.tolerant[rows, cols][shown].mean()) <= PHANTOM_BARE


def footing_clear(die: dice.FoundDie, regions: list[checkers.RegionReading]) -> bool:
    """Whether the die's footprint lies clear of every checker read on the points. Its top,
    read at a slant, shows in the plane view moved toward the far side of the camera: a die
    touching a stack's end from there shows over the place of the stack's next checker,
    where a seam of the stack would, while its footprint, and the die itself, lie beyond."""
    return not any(near for _, near in _checkers_near(die.footprint_mm, regions))


def stays_beside_stacks(
    die: dice.FoundDie, regions: list[checkers.RegionReading], maps: PlaneMaps | None
) -> bool:
    """Whether a die may lie where it was seen, the stacks read as ``regions``: clear of
    them, or read plainly (:func:`plainly_a_die`), or its face read surely with its footprint
    clear of every checker (:func:`footing_clear`), or taken by a stack for its next checker
    (:func:`taken_for_the_next_checker`)."""
    return (
        plainly_a_die(die)
        or could_rest_there(die, regions)
        or (die.face_confidence >= dice.SURE_DIE and footing_clear(die, regions))
        or (maps is not None and taken_for_the_next_checker(die, regions, maps))
    )


def plainly_a_die(die: dice.FoundDie) -> bool:
    """Whether a die was read surely lying on the board, its face of two pips or more and its
    rest alike: where two checkers touch one pip-like gap shows, and whatever looks like a
    die there lies against the checkers, its rest in doubt, or on them.

    Three development dice read surely (a 2 and two 6s) were dropped as seams, each beside a
    stack read one checker long because the die was taken for its next checker. The seams
    read as surely as faces were a one; on real photographs a hinge's six screws and a black
    checker's rim, each read as a six whose rest was in doubt; and in the demo a line of four
    read as a three resting on its third checker.
    """
    return (
        die.face_confidence >= dice.SURE_DIE
        and die.reading.confidence >= dice.SURE_DIE
        and die.reading.value >= 2
        and not die.reading.on_checker
    )


def doubt_stacks_under_dice(
    lying: list[dice.FoundDie], regions: list[checkers.RegionReading]
) -> list[checkers.RegionReading]:
    """``regions`` with every stack that reaches across a die seen lying there in doubt: one
    of the two is read wrong (the stack one checker long, the die taken for its next checker,
    or the die where the stack goes on under it), and only moving the die tells which.
    """
    doubted = list(regions)
    for die in lying:
        for index, _ in stacks_reaching(die, regions):
            region = doubted[index]
            sign = 1 if region.count > 0 else -1
            shorter = region.count - sign
            alternatives = region.alternatives
            if shorter not in alternatives:
                alternatives = (*alternatives, shorter)
            doubted[index] = replace(
                region,
                confidence=min(region.confidence, checkers.HIDDEN_END_CONFIDENCE),
                alternatives=alternatives,
            )
    return doubted


def dice_clear_of_seams(
    found: list[dice.FoundDie],
    read_round: Callable[[list[dice.FoundDie]], list[checkers.RegionReading]],
    maps: PlaneMaps | None = None,
) -> tuple[list[dice.FoundDie], list[checkers.RegionReading]]:
    """The dice that could lie where they were seen, and the points read round them
    (``read_round``: the points read with the given dice masked out; ``maps``: the frame's,
    to look where a stack's last checker would lie, :func:`stays_beside_stacks`).

    What looked like a die where two checkers of a stack touch was their seam: the points are
    read again without it. But a stack read with a die masked may go on under the die (a die
    hides whether it does), and so reach a die lying beside it: a die is a seam only of a
    stack that still reaches it read without the die. A die read surely
    (:func:`plainly_a_die`) is no seam: it stays. A stack still reaching across a die kept
    is in doubt (:func:`doubt_stacks_under_dice`).

    (Doubting also the stacks beside faces read surely but dropped, their rest in doubt, left
    one more right point in doubt on development frames and two on the real photographs,
    beside a hinge and a rim read as sixes, and righted none.)
    """
    lying, regions = _clear_of_seams(found, read_round, maps)
    return lying, doubt_stacks_under_dice(lying, regions)


def _clear_of_seams(
    found: list[dice.FoundDie],
    read_round: Callable[[list[dice.FoundDie]], list[checkers.RegionReading]],
    maps: PlaneMaps | None,
) -> tuple[list[dice.FoundDie], list[checkers.RegionReading]]:
    regions = read_round(found)
    kept = [die for die in found if stays_beside_stacks(die, regions, maps)]
    if len(kept) == len(found):
        return found, regions
    without = read_round(kept)
    lying = [die for die in found if die in kept or stays_beside_stacks(die, without, maps)]
    if len(lying) == len(kept):
        return kept, without
    if len(lying) == len(found):
        return found, regions  # every die stays: as first read
    return lying, read_round(lying)


def among_borne_off(die: dice.FoundDie, colour: Colour, count: int, smear: float) -> bool:
    """Whether a die was seen where ``count`` checkers stand on edge in ``colour``'s tray
    (``smear``: how far toward the tray's open end their tops show, :func:`tray_smear`).

    The row's tops, edges and the tray's walls between them can line up like a die's face;
    a die thrown into the tray would have to rest on checkers standing on edge.
    """
    if count <= 0:
        return False
    x0, y0, x1, y1 = g.tray_rect(colour)
    x, y = die.view_mm
    row = count * g.TRAY_SLOT + max(smear, 0.0) + g.DIE_SIZE / 2
    along = y1 - y if colour == "white" else y - y0
    return x0 <= x <= x1 and -g.DIE_SIZE / 2 <= along <= row


WALL_MARGIN = 8.0
"""Width (mm) along the frame and the bar left out when looking for what no checker explains."""


def leans_on_nothing(
    die: dice.FoundDie,
    regions: list[checkers.RegionReading],
    bar: Counts,
    others: list[dice.FoundDie],
    edge: float = 0.0,
) -> bool:
    """Whether nothing a die could lean on lies within its reach: no checker read near it, no
    wall of the frame or the bar, no other die. Such a die lies flat, whatever stray spots
    beside it suggest (a cocked die must lean on something or it would fall). ``edge`` is the
    board's strip along the frame's long sides (the view shifts it off the playing area)."""
    x, y = die.footprint_mm
    reach = dice.HALF_DIAGONAL + LEAN_MARGIN
    walls = (
        x, g.PLAY_WIDTH - x, y + edge, g.PLAY_HEIGHT + edge - y,
        abs(x - g.BAR_LEFT), abs(x - g.BAR_RIGHT),
    )  # fmt: skip
    if min(walls) < reach or g.BAR_LEFT < x < g.BAR_RIGHT:
        return False
    # the other die holds this one up only if its nearest corner lies within reach
    if any(
        other is not die
        and math.dist(die.footprint_mm, other.footprint_mm) < reach + dice.HALF_DIAGONAL
        for other in others
    ):
        return False
    # a checker a die could lean on is never ruled out by a count that is itself in doubt
    return not checker_within_reach(die, regions, bar, LEAN_MARGIN)


@lru_cache(maxsize=512)
def _stack_centres(number: int, count: int) -> tuple[tuple[float, float, int], ...]:
    """:func:`companion.geometry.stack_centres` (a line), once for each point and count: the
    dice's rules ask for them some hundred times a frame."""
    return tuple(g.stack_centres(number, count))


Height = Callable[[checkers.RegionReading], int]
"""How many checkers a point's reading puts on it, for drawing or reaching them."""


def checker_centres(
    regions: list[checkers.RegionReading], bar: Counts, height: Height
) -> list[tuple[float, float, int]]:
    """Where the checkers lie (canonical centres) on every point, ``height`` of them each, and
    on the bar."""
    centres = [
        centre
        for number, region in enumerate(regions, start=1)
        for centre in _stack_centres(number, height(region))
    ]
    for colour, count in (("white", bar.white), ("black", bar.black)):
        centres.extend(g.bar_centres(colour, count))  # type: ignore[arg-type]
    return centres


def checker_within_reach(
    die: dice.FoundDie,
    regions: list[checkers.RegionReading],
    bar: Counts,
    margin: float,
) -> bool:
    """Whether a checker (on a point, as many as it may hold: :func:`tallest`, or on the bar)
    lies within ``margin`` mm of a die's corners: one it could lean on."""
    return _checker_within(die.footprint_mm, regions, bar, dice.HALF_DIAGONAL + margin)


def _checker_within(
    xy: tuple[float, float],
    regions: list[checkers.RegionReading],
    bar: Counts,
    distance: float,
) -> bool:
    """Whether a checker (on a point, as many as it may hold: :func:`tallest`, or on the bar)
    has its rim within ``distance`` mm of ``xy`` (canonical mm)."""
    x, y = xy
    return any(
        math.hypot(x - cx, y - cy) < g.CHECKER_DIAMETER / 2 + distance
        for cx, cy, _ in checker_centres(regions, bar, tallest)
    )


UNSURE_LINE = 6
"""Checkers a point read unsurely may hold, for a die that may lean on them: as many as fit
in a line along it."""


def tallest(region: checkers.RegionReading) -> int:
    """The most checkers a point may hold, for a die that may lean on them: its count and its
    close alternatives, or, read below :data:`CONFIDENCE_THRESHOLD`, at least a whole line.

    Where the reader doubts a point (dark checkers on a dark point, in dim light) its
    alternatives can all fall short: a cocked die leaning on the checker it did not see was
    then settled flat as surely as its face, and its roll accepted.
    """
    most = max(abs(n) for n in (region.count, *region.alternatives))
    if region.confidence < CONFIDENCE_THRESHOLD:
        most = max(most + 1, UNSURE_LINE)
    return most


def settle_free_dice(
    found: list[dice.FoundDie],
    regions: list[checkers.RegionReading],
    bar: Counts,
    edge: float = 0.0,
) -> list[dice.FoundDie]:
    """Dice read flat, leaning on nothing (:func:`leans_on_nothing`), kept flat as surely as
    their face; and dice the dice reader called flat surely only because the frame's colours
    showed nothing beside them (:attr:`~companion.vision.dice.FoundDie.alone`) left unsure
    where a checker may lie within reach (:func:`checker_within_reach`, a point in doubt
    holding a whole line, :func:`tallest`). Where the reader doubts a point, the frame is
    unreadable whatever the die; but its reading should not claim a rest nobody saw: under a
    shaded lamp, a 1 leaning 17 degrees on gold checkers the reader doubted (read none) was
    called flat as surely as its face (development seed 5109 with the photo looks).

    A die the frame shows cocked at all (its top squashed, a side's pips in view, however
    faintly) is not settled: "nothing near" rests on the checkers read, and the checker a die
    leans on is the one it hides. The two disagree, so the die's rest is called unsure (three
    development dice cocked on what the reader missed were settled flat when faint evidence
    gave way to "nothing near").
    """
    found = [_where_it_rests(die, regions, bar) for die in found]
    settled = []
    for die in found:
        if die.alone and checker_within_reach(die, regions, bar, TOUCH_MARGIN):
            # flat only for its colours showing nothing beside it, yet a checker lies there:
            # one the colour of the board beneath it (a black checker on a dark point) shows
            # no colour, and the die may lean on it
            confidence = min(die.reading.confidence, dice.UNSURE_REST)
        elif not die.reading.on_checker and leans_on_nothing(die, regions, bar, found, edge):
            confidence = (
                die.face_confidence
                if die.reading.flat
                else min(die.reading.confidence, dice.UNSURE_REST)
            )
        else:
            settled.append(die)
            continue
        settled.append(replace(die, reading=replace(die.reading, confidence=confidence)))
    return settled


def _where_it_rests(
    die: dice.FoundDie, regions: list[checkers.RegionReading], bar: Counts
) -> dice.FoundDie:
    """The die as judged beside the checkers round it (:attr:`dice.FoundDie.beside`) where
    checker colour showed on part of the ring round it but no checker read lies under it;
    else as found. Not where that judgement called it flat only for nothing showing beside
    it (:attr:`dice.FoundDie.alone`): what showed on its ring says otherwise (a die leaning
    19 degrees on the frame, its wall taken for one a flat die lay against, was let stand so:
    development seed 6258)."""
    if (
        die.beside is not None
        and not die.beside.alone
        and die.raised_mm is not None
        and not _rests_on_a_checker(die.raised_mm, regions, bar)
    ):
        return die.beside
    return die


def _rests_on_a_checker(
    raised: tuple[float, float], regions: list[checkers.RegionReading], bar: Counts
) -> bool:
    """Whether a die whose middle would lie at ``raised`` (canonical mm) were it on a checker
    may rest level on one: a checker read (as many as a point may hold, :func:`tallest`, or on
    the bar) holds that middle within its rim and :data:`ON_A_CHECKER_SLACK`. A level die's
    middle lies over what holds it up, or it would topple."""
    return _checker_within(raised, regions, bar, ON_A_CHECKER_SLACK)


ON_A_CHECKER_SLACK = 4.0
"""How far (mm) past a checker's rim, as the canonical board places it, a die's middle may lie
and the die still rest on that checker: real checkers lie a few millimetres off their places
(as :data:`TOUCH_MARGIN`). A flat die touching a checker's side lies 26 mm from its middle."""
LEAN_MARGIN = 8.0
"""How far (mm) beyond a die's corners something must lie for the die to lean on it."""
TOUCH_MARGIN = 4.0
"""How near (mm) a die's corners a checker read must lie for a die the frame's colours show
alone to be touching it after all: the checkers read lie where the canonical board puts
them, real ones a few millimetres off. (Development, 225 frames: with :data:`LEAN_MARGIN`
one frame more unreadable for a flat die lying clear of the checkers; the leaning die this
is for lies on the checker's edge.)"""
LEFT_OVER = 0.35
"""Foreground (0-1) that, left over by the checkers and dice read, counts as something else."""
MAX_UNSURE = 4
"""The total of fifteen settles no more than this many unsure places read holding checkers at
once (places read empty only ever add to the total: any number of them may be settled)."""
MAX_SETTLED = 1
"""At most this many unsure places may change their best count to make the total fifteen."""
MAX_COMBINATIONS = 729
"""At most this many ways of reading the unsure points are tried against the total of 15."""


def resolve_by_fifteen(
    regions: list[checkers.RegionReading],
    bar: Counts,
    threshold: float,
) -> list[checkers.RegionReading]:
    """Settles unsure places by the total of fifteen checkers a side, when only one way can.

    ``regions`` are signed counts (+ white, - black): the points, then the trays. Each unsure
    one read holding checkers offers its best count and its close alternatives; if exactly one
    choice over all of them gives both colours fifteen checkers (with the bar), the choice
    stands, at the threshold's confidence. A covered place is never settled.

    The total corrects how many checkers a place holds, never whether it holds any: a place
    read holding checkers, however unsurely, is not emptied to make the total. The total is
    only as right as the places read surely: on development frames the one place it settled
    wrongly was a lone checker read unsurely and taken away because a stack elsewhere was
    counted one too many, surely (seed 5049); the only other place it emptied was empty in
    truth, on a frame unreadable anyway.

    The total never fills a tray seen empty: a stack read one short makes the total one short
    too, and an empty tray that the checkers' colour leaves in doubt is then where the missing
    checker would be put (measured on 290 development frames, every tray filled that way was
    wrong). A tray seen holding checkers may be corrected: its row's length is what is in
    doubt there, not whether anything lies in it.

    Unsure places read empty (a point whose board could hide a checker of its own colour, a
    tray in doubt) may hide any number of checkers of either colour, whatever their
    alternatives say; they only ever add to a total, so however many there are they cannot
    trade checkers between them. When the rest comes to exactly fifteen a side in one way
    only, with nothing left over to hide, they are all seen empty: the checkers are counted.
    """
    unsure = [i for i, r in enumerate(regions) if r.confidence < threshold]
    if not unsure or any(regions[i].covered for i in unsure):
        return regions
    empties = [i for i in unsure if regions[i].count == 0]
    holding = [i for i in unsure if regions[i].count != 0]
    if len(holding) > MAX_UNSURE:
        # with many doubts, errors can cancel out in the total
        return regions
    options = [(regions[i].count, *regions[i].alternatives) for i in holding]
    if math.prod(len(o) for o in options) > MAX_COMBINATIONS:
        return regions
    sure = [r.count for i, r in enumerate(regions) if i not in unsure]
    white = sum(c for c in sure if c > 0) + bar.white
    black = -sum(c for c in sure if c < 0) + bar.black
    fits = []
    for choice in itertools.product(*options):
        whites = white + sum(c for c in choice if c > 0)
        blacks = black - sum(c for c in choice if c < 0)
        if whites == 15 and blacks == 15:
            fits.append(choice)
        elif empties and whites <= 15 and blacks <= 15:
            return regions  # the places read empty could hide the checkers missing
    if len(fits) != 1 or 0 in fits[0]:
        # (a checker seen, however unsurely, is never taken away to make the total)
        return regions
    changes = [i for i, count in zip(holding, fits[0], strict=True) if regions[i].count != count]
    if len(changes) > MAX_SETTLED:
        # unsure places that trade checkers between them can add up to fifteen with counts
        # that are both wrong: the total settles one doubtful count, not several
        return regions
    settled = list(regions)
    for index, count in zip(holding, fits[0], strict=True):
        settled[index] = checkers.RegionReading(count, threshold)
    for index in empties:
        settled[index] = checkers.RegionReading(0, threshold)
    return settled


MapsInputs = tuple[FloatImage, FloatImage, Colours, float, tuple[FloatImage, FloatImage], Layout]
"""What :func:`~companion.vision.maps.plane_maps` takes besides a frame's plane view."""


def maps_inputs(profile: Profile) -> MapsInputs:
    """What the maps need of the empty board ``profile`` learned (each made once per
    profile), in :func:`~companion.vision.maps.plane_maps`' order after the view."""
    return (
        _reference(profile.reference)[0],
        _grown_edges(profile.reference),
        profile.colours,
        VIEW_SCALE,
        _envelope(profile.reference),
        profile.layout,
    )


def frame_maps(view_lab: FloatImage, profile: Profile) -> PlaneMaps:
    """The maps every reader looks at: a frame's plane view (:func:`_plane_view`) against the
    empty board ``profile`` learned."""
    return plane_maps(view_lab, *maps_inputs(profile))


def _plane_view(image: Image, image_to_plane: Matrix, profile: Profile) -> FloatImage:
    """The frame on the plane view, in L*a*b*, at the checkers' height and the board's own
    proportions."""
    size = (image.shape[1], image.shape[0])
    return to_lab(warp(image, view_homography(image_to_plane, size), VIEW_SCALE, profile.layout))


def read_frame(
    image: Image,
    profile: Profile,
    on_roll: Colour | None = None,
    settings: ReadSettings = ReadSettings(),
) -> Reading:
    """The Reading of one frame; pure (no I/O). Raises :class:`UnreadableImage` for bad arrays
    and :class:`~companion.vision.profile.ProfileError` for a frame from another camera."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise UnreadableImage("the frame must be a colour image (height x width x 3)")
    if image.dtype != np.uint8:
        raise UnreadableImage(f"the frame must hold 8-bit pixels, not {image.dtype}")
    profile.check_frame(image.shape[1], image.shape[0])
    image_to_plane = profile.image_to_plane
    size = (image.shape[1], image.shape[0])
    view_lab = _plane_view(image, image_to_plane, profile)
    moved: list[str] = []
    motion = nudge.board_motion(_small_reference(profile.reference), view_lab, VIEW_SCALE)
    if motion is not None:
        if nudge.largest_shift(motion) > nudge.MOST_MOTION_MM:
            moved.append("the board (moved since calibration: calibrate again)")
        else:
            # a nudge: follow the board where it now lies
            image_to_plane = np.linalg.inv(motion) @ image_to_plane
            view_lab = _plane_view(image, image_to_plane, profile)
    maps = frame_maps(view_lab, profile)

    hidden = moved + find_occluders(maps)
    hiding = _camouflage(profile.reference, profile.colours)
    contrast = _rim_contrast(profile.reference)
    visible = _visibility(profile.reference, profile.colours)
    found_dice = dice.find_dice(image, image_to_plane, maps)
    evidence = checkers.point_evidence(maps, contrast)

    def read_round(lying: list[dice.FoundDie]) -> list[checkers.RegionReading]:
        mask = dice.dice_mask(lying, maps)
        return checkers.read_points(maps, mask, hiding, contrast, visible, evidence)

    found_dice, regions = dice_clear_of_seams(found_dice, read_round, maps)
    bar_white, bar_black = checkers.read_bar(maps)
    # a bar never seen empty (checkers lay on it at calibration) reads empty whatever lies there
    bar_confidence = 0.0 if profile.bar_hidden else min(bar_white.confidence, bar_black.confidence)
    smear = tray_smear(image_to_plane, size)
    showing = _tray_visibility(profile.reference, profile.colours)
    change = checkers.tray_changes(view_lab, _envelope(profile.reference), VIEW_SCALE)
    off_white = checkers.read_tray(
        maps, "white", smear["white"], showing["white"], contrast, change["white"]
    )
    off_black = checkers.read_tray(
        maps, "black", smear["black"], showing["black"], contrast, change["black"]
    )
    bar = Counts(bar_white.count, bar_black.count)
    # the tops of checkers borne off, standing on edge, are no die
    borne_off: tuple[tuple[Colour, int], ...] = (
        ("white", off_white.count),
        ("black", off_black.count),
    )
    found_dice = [
        die
        for die in found_dice
        if not any(
            among_borne_off(die, colour, count, smear[colour]) for colour, count in borne_off
        )
    ]
    if bar_confidence >= settings.threshold:  # the total of fifteen counts the bar
        trays = [_signed_tray(off_white, 1), _signed_tray(off_black, -1)]
        white_tray, black_tray = len(regions), len(regions) + 1
        settled = resolve_by_fifteen(regions + trays, bar, settings.threshold)
        regions = settled[:white_tray]
        off_white = replace(settled[white_tray], count=abs(settled[white_tray].count))
        off_black = replace(settled[black_tray], count=abs(settled[black_tray].count))
    # after the total of fifteen: a count it settled is no doubt the die may lean on
    found_dice = settle_free_dice(found_dice, regions, bar, profile.layout.edge)
    off = Counts(off_white.count, off_black.count)
    for name in unexplained(maps, regions, bar, found_dice):
        if name not in hidden:
            hidden.append(name)
    confidence: dict[str, float] = {}
    unsure: list[str] = list(hidden)
    points = [region.count for region in regions]
    for number, region in enumerate(regions, start=1):
        confidence[f"point {number}"] = region.confidence
        if region.confidence < settings.threshold and f"point {number}" not in unsure:
            unsure.append(f"point {number}")
    confidence["bar"] = bar_confidence
    confidence["off"] = min(off_white.confidence, off_black.confidence)
    if bar_confidence < settings.threshold:
        unsure.append(
            "the bar (checkers lay on it at calibration: calibrate with it empty)"
            if profile.bar_hidden
            else "the bar"
        )
    if confidence["off"] < settings.threshold:
        unsure.append("the trays")

    die_readings = tuple(die.reading for die in found_dice)
    confidence["dice"] = min((die.confidence for die in die_readings), default=1.0)
    if confidence["dice"] < settings.threshold:
        unsure.append("the dice")
    elif len(die_readings) > 2:
        unsure.append(f"the dice ({len(die_readings)} dice-like things seen)")
    elif len(die_readings) == 1:
        # a die can roll off the table, but one die missed would make a wrong verdict
        unsure.append("the dice (only one die seen)")
    totals = {
        "white": sum(p for p in points if p > 0) + bar.white + off.white,
        "black": -sum(p for p in points if p < 0) + bar.black + off.black,
    }
    for colour, total in totals.items():
        if total > 15 or (total != 15 and not unsure):
            unsure.append(f"{colour} checkers ({total} seen, not 15)")
    dice_valid: bool | None = None
    reason: str | None = None
    if on_roll is not None and die_readings:
        right = g.right_hand_half(on_roll, profile.mirrored)
        judged = (
            die_readings
            if settings.die_on_checker_is_cocked
            else tuple(_level_on_checker(d) for d in die_readings)
        )
        dice_valid, reason = judge_dice(judged, on_roll, right)
    return Reading(
        readable=not unsure,
        points=tuple(points),
        bar=bar,
        off=off,
        dice=die_readings,
        dice_valid=dice_valid,
        dice_reason=reason,
        unreadable=tuple(unsure),
        confidence=confidence,
    )


def _level_on_checker(die: DieReading) -> DieReading:
    return replace(die, on_checker=False) if die.flat else die

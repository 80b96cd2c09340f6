"""The empty board as this camera sees it, learned from one calibration frame.

Conventions: every patch here is one point's strip on the plane view, turned so that the base
of the point is row 0 and the board's centre line the last row; ``row`` is ``"top"`` for points
13-24 and ``"bottom"`` for 1-12 of the *view* (the orientation may still be unknown, so nothing
here depends on which player sits where).

Points of the same row and colour look alike on a real board, so a point hidden under checkers
at calibration borrows its empty look from an empty sibling; what lies on the empty points
(dice, a cup) is painted out with the board's own colours.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision.maps import FloatImage, colour_distance, nearest_checker_distance
from companion.vision.plane import view_column, view_row, view_size
from companion.vision.profile import Lab

Image = npt.NDArray[np.uint8]

STRAY_DISTANCE = 24.0
"""How far (weighted L*a*b*) a spot on the open field must differ from it to be painted out."""


def strip_slices(number: int, scale: float) -> tuple[slice, slice, bool]:
    """Rows, columns and whether the strip is upside down, of point ``number`` in the view."""
    shape = g.point_shape(number)
    x0 = view_column(shape.base_x - g.POINT_WIDTH / 2, scale)
    x1 = x0 + round(g.POINT_WIDTH * scale)
    half = round(g.PLAY_HEIGHT / 2 * scale)
    if shape.direction > 0:
        y0 = view_row(0.0, scale)
        return slice(y0, y0 + half), slice(x0, x1), False
    y1 = view_row(g.PLAY_HEIGHT, scale)
    return slice(y1 - half, y1), slice(x0, x1), True


def point_strip(view: FloatImage, number: int, scale: float, shift: int = 0) -> FloatImage:
    """Point ``number``'s strip, base first (``shift`` pixels across, for lining it up)."""
    rows, cols, flipped = strip_slices(number, scale)
    strip = view[rows, cols.start + shift : cols.stop + shift]
    return strip[::-1] if flipped else strip


def put_strip(view: FloatImage, number: int, scale: float, strip: FloatImage) -> None:
    rows, cols, flipped = strip_slices(number, scale)
    view[rows, cols] = strip[::-1] if flipped else strip


def _median_colour(pixels: FloatImage) -> Lab:
    flat = pixels.reshape(-1, 3)
    m = np.median(flat, axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


def _sample(strip: FloatImage, t0: float, t1: float, half_width: float, scale: float) -> FloatImage:
    centre = strip.shape[1] / 2
    c0, c1 = round(centre - half_width * scale), round(centre + half_width * scale)
    return strip[int(t0 * scale) : int(t1 * scale), max(c0, 0) : max(c1, c0 + 1)]


@dataclass(frozen=True, slots=True)
class BoardSurvey:
    """What the calibration frame shows before the orientation is known."""

    occupied: frozenset[int]
    """Point numbers (of the provisional view) holding checkers."""
    checker_colours: dict[int, Lab]
    """The colour seen at the base of every point (a checker's on occupied points)."""
    rim_scores: dict[int, float]
    """:func:`rim_score` of every point."""
    point_colours: dict[int, Lab]
    """The empty colour of each point's triangle (from its row and colour class)."""
    field: Lab


ROWS = {"top": tuple(range(13, 25)), "bottom": tuple(range(1, 13))}


def rim_score(strip: FloatImage, scale: float) -> float:
    """How strongly a checker's rim shows where the first checker of a stack would lie.

    The median colour-edge strength along circles the size of a checker at the base of the point:
    a checker's rim makes an edge all round, while an empty point, glare or a shadow crosses
    such a circle at a few places at most.
    """
    colour = np.ascontiguousarray(strip)
    gx = cv2.Sobel(colour, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(colour, cv2.CV_32F, 0, 1)
    magnitude = np.sqrt((gx * gx + gy * gy).sum(axis=2)) / 8.0
    # the far side of the first checker's rim: inside the triangle whatever its colours, where
    # an empty point is plain (the sides of the rim run along the triangle's own edges)
    angles = np.radians(np.linspace(40, 140, 21))
    centre_x = strip.shape[1] / 2
    centre_y = g.CHECKER_DIAMETER / 2 * scale
    rings = []
    for radius in (11.0, 12.5, 15.5, 17.0, 18.5, 20.0):
        xs = np.round(centre_x + radius * scale * np.cos(angles)).astype(int)
        ys = np.round(centre_y + radius * scale * np.sin(angles)).astype(int)
        xs = np.clip(xs, 0, strip.shape[1] - 1)
        ys = np.clip(ys, 0, strip.shape[0] - 1)
        rings.append(magnitude[ys, xs])
    return float(np.median(np.max(np.array(rings), axis=0)))


def split_occupied(
    scores: dict[int, float], expected: int | None = None, least_gap: float = 1.4
) -> set[int]:
    """The points holding checkers, from their rim scores.

    With ``expected`` (8 for the opening) the top ``expected`` points, if they stand clearly
    above the rest; otherwise the points above the widest (ratio) gap. Empty when no clear gap.
    """
    ordered = sorted(scores.items(), key=lambda item: item[1])
    values = np.array([max(v, 0.5) for _, v in ordered])
    ratios = values[1:] / values[:-1]
    index = len(ordered) - expected - 1 if expected else int(np.argmax(ratios))
    if ratios[index] < (least_gap if expected is None else 1.1):
        return set()
    return {n for n, _ in ordered[index + 1 :]}


def survey(
    view_lab: FloatImage, scale: float, occupied: frozenset[int] | None = None
) -> BoardSurvey:
    """Which points hold checkers, the checkers' colours, and the empty board's colours.

    A point holds checkers when a checker's rim shows at its base clearly more than on the
    other points (:func:`rim_score`, split at the widest gap), whatever the colours.
    """
    strips = {n: point_strip(view_lab, n, scale) for n in range(1, 25)}
    tips = {n: _median_colour(_sample(strips[n], 145.0, 168.0, 2.5, scale)) for n in strips}
    bases = {n: _median_colour(_sample(strips[n], 8.0, 28.0, 7.0, scale)) for n in strips}
    scores = {n: rim_score(strips[n], scale) for n in strips}
    if occupied is None:
        occupied = frozenset(split_occupied(scores))
    point_colours: dict[int, Lab] = {}
    for numbers in ROWS.values():
        for parity in (0, 1):
            members = [n for n in numbers if n % 2 == parity]
            empty = [n for n in members if n not in occupied] or members
            colour = np.median(np.array([tips[n] for n in empty]), axis=0)
            for n in members:
                point_colours[n] = (float(colour[0]), float(colour[1]), float(colour[2]))
    centre = view_row(g.PLAY_HEIGHT / 2, scale)
    band = round(15 * scale)
    x_left = (
        view_column(10.0, scale),
        view_column(g.BAR_LEFT - 10.0, scale),
    )
    x_right = (
        view_column(g.BAR_RIGHT + 10.0, scale),
        view_column(g.PLAY_WIDTH - 10.0, scale),
    )
    field_pixels = np.concatenate(
        [
            view_lab[centre - band : centre + band, x_left[0] : x_left[1]].reshape(-1, 3),
            view_lab[centre - band : centre + band, x_right[0] : x_right[1]].reshape(-1, 3),
        ]
    )
    field = _median_colour(field_pixels)
    return BoardSurvey(occupied, bases, scores, point_colours, field)


BAR_BAND = 10.0
"""Half the width (mm) of the middle of the bar searched for checkers at calibration."""
CHECKER_LIKE = 25.0
"""Colour distance to a checker colour within which a pixel on the bar may be a checker."""
UNLIKE_MIRROR = 30.0
"""Colour distance from the bar's mirror image beyond which a pixel is something lying on it."""
SMOOTH_ROWS = 9.0
"""Length (mm) along the bar over which a row's checker-like share is averaged."""
UNLIKE_BARE = 30.0
"""Colour distance from the bare bar's colour (its median) beyond which a pixel is something
lying on it."""
SOME_COLOUR = 0.15
"""Share of a few rows of the bar's middle showing a checker colour from which rows unlike the
bare bar there count as checker too (a shiny checker's highlights)."""
ACROSS_BAR = 0.5
"""Share of the bar's middle a row must show checker-like to be crossed by a checker."""


def checkers_on_bar(view_lab: FloatImage, white: Lab, black: Lab, scale: float) -> bool:
    """Whether checkers lie on the bar of a calibration frame: rows of its middle, a checker's
    length together, that look like a checker colour (or unlike the bare bar, among rows that
    show some checker colour: a shiny checker's highlights) and unlike the bar's mirror image
    (a board is made alike at both ends of its bar, hinges and all; checkers lie where they
    fell). The empty board made from such a frame would show them as part of the bar."""
    middle = g.BAR_LEFT + g.BAR_WIDTH / 2
    columns = slice(view_column(middle - BAR_BAND, scale), view_column(middle + BAR_BAND, scale))
    rows = slice(view_row(15.0, scale), view_row(g.PLAY_HEIGHT - 15.0, scale))
    band = np.ascontiguousarray(view_lab[rows, columns], np.float32)
    mirrored = np.ascontiguousarray(band[::-1])
    unlike_mirror = colour_distance(band, mirrored) > UNLIKE_MIRROR
    checker_like = nearest_checker_distance(band, white, black) < CHECKER_LIKE
    # a shiny checker shows its highlights as much as the colour learned from the points,
    # but never the bar's own: unlike the bare bar counts where checker colour shows nearby
    unlike_bare = colour_distance(band, _median_colour(band)) > UNLIKE_BARE
    # over a few rows at once: a shiny checker's highlights break its colour row by row
    rows_together = max(1, round(SMOOTH_ROWS * scale))
    window = np.ones(rows_together) / rows_together

    def along_bar(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        return np.convolve(mask.mean(axis=1), window, mode="same")

    some_colour = along_bar(checker_like) > SOME_COLOUR
    like = (checker_like | (unlike_bare & some_colour[:, None])) & unlike_mirror
    share = along_bar(like)
    crossed = share > ACROSS_BAR
    # the longest run of crossed rows
    longest = run = 0
    for row in crossed.tolist():
        run = run + 1 if row else 0
        longest = max(longest, run)
    return longest >= 0.6 * g.CHECKER_DIAMETER * scale


def empty_board(
    view_lab: FloatImage,
    occupied: frozenset[int],
    point_colours: dict[int, Lab],
    scale: float,
    counts: dict[int, int] | None = None,
) -> FloatImage:
    """The view with every occupied point replaced by the look of an empty sibling point.

    A sibling is a point of the same row and colour; the nearest empty one lends its strip.
    Without any empty sibling the triangle is painted in its learned colour on the field.
    ``counts`` (checkers per point, when known: the opening) fix how far each stack reaches,
    where a checker the colour of its point would hide its own end.
    """
    reference = view_lab.copy()
    for n in sorted(occupied):
        row = ROWS["top"] if n >= 13 else ROWS["bottom"]
        siblings = [m for m in row if m % 2 == n % 2 and m not in occupied]
        if siblings:
            # the nearest, on the same side of the bar when two are as near: the light and the
            # board's make are alike within one quarter
            donor = min(siblings, key=lambda m: (abs(m - n), (m - 1) // 6 != (n - 1) // 6))
            own = point_strip(view_lab, n, scale)
            # beyond its checkers the point was seen as it is: keep its own look there
            # (a sibling's differs a little in shade, enough to look like something lying on it)
            first = _stack_reach(own, point_strip(view_lab, donor, scale), scale)
            # lined up where the point shows, then measured again against the lined-up strip
            # (a triangle a few millimetres off makes the stack seem longer than it is)
            lent = _lined_up(view_lab, donor, own, first, scale)
            reach = _stack_reach(own, lent, scale)
            if reach != first:
                lent = _lined_up(view_lab, donor, own, reach, scale)
            if counts and n in counts:
                known = abs(counts[n]) * g.CHECKER_PITCH + STACK_MARGIN
                reach = min(len(own), max(reach, round(known * scale)))
            lent = _relit(lent, own, reach, scale)
            lent[reach:] = own[reach:]
            put_strip(reference, n, scale, lent)
        else:
            strip = point_strip(reference, n, scale).copy()
            _paint_triangle(strip, point_colours[n], scale)
            put_strip(reference, n, scale, strip)
    return reference


FAR_END = 30.0
"""Length (mm) of a strip's far end, by the centre line, on which its shade is measured."""
SHADE_RANGE = (0.45, 1.25)
"""Lightness of a strip's far end against its sibling's that is shade (or a lamp's extra
light), not something lying there: a checker on the field is far darker or far lighter."""
SHADE_SCALED = 0.1
"""Lightness ratio off 1 beyond which a lent strip is scaled into the point's shade rather
than shifted (a small difference is a lamp's unevenness, which a shift matches as well)."""
SHADE_CHROMA = 12.0
"""Change of colour (a*, b*) of the far ends beyond which it is something lying there."""


def _shaded_like(sibling: FloatImage, own: FloatImage, scale: float) -> FloatImage:
    """The sibling's strip in the point's own light, as their far ends show it (by the centre
    line, where only the tallest stacks reach): near a wall or the bar, a real board's field
    lies in the wall's shade all along the strip, which is no checker. Unchanged where the
    far ends differ by more than light can (a checker lies there)."""
    end = round(FAR_END * scale)
    own_far = own[-end:].reshape(-1, 3)
    sibling_far = sibling[-end:].reshape(-1, 3)
    ratio = _lightness_ratio(own_far, sibling_far)
    tint = np.median(own_far[:, 1:] - sibling_far[:, 1:], axis=0)
    if not _is_shade(ratio) or float(np.linalg.norm(tint)) > SHADE_CHROMA:
        return sibling
    return _shaded(sibling, ratio, tint)


def _lightness_ratio(own_pixels: FloatImage, lent_pixels: FloatImage) -> float:
    """Median lightness of ``own_pixels`` against ``lent_pixels`` (rows of L*a*b*)."""
    return float(np.median(own_pixels[:, 0])) / max(float(np.median(lent_pixels[:, 0])), 1.0)


def _is_shade(ratio: float) -> bool:
    """Whether a lightness ratio is a shade or a lamp's light (:data:`SHADE_RANGE`)."""
    return SHADE_RANGE[0] <= ratio <= SHADE_RANGE[1]


def _shaded(strip: FloatImage, ratio: float, tint: npt.NDArray[np.floating]) -> FloatImage:
    """``strip`` with its lightness scaled by ``ratio`` and ``tint`` added to its a*, b*."""
    shaded = strip.copy()
    shaded[..., 0] *= np.float32(ratio)
    shaded[..., 1:] += np.asarray(tint, dtype=np.float32)
    return np.asarray(np.clip(shaded, 0.0, 255.0), dtype=np.float32)


REACH_HALF = 12.0
"""Half the width (mm) of the middle of a strip on which a stack's reach is measured."""
STACK_DIFFERENCE = 12.0
"""Median colour distance of a strip's row from its sibling's beyond which checkers lie there."""
CAP_SHARE = 0.15
"""Share of a checker's length past which a stack's seen end counts as one more checker."""
STACK_MARGIN = 10.0
"""Room (mm) kept past the last row that differs: the rim's shadow and a tilted camera's smear."""


LEAST_SEEN = 12.0
"""Length (mm) of its own strip a point must show beyond its checkers for its light to be
measured against the sibling's."""


ALIGN_MM = 8.0
"""How far (mm) a sibling's strip may be slid across to line its triangle up with the point's
own: a real board's points need not sit where the canonical board puts them (its bar may be
half as wide, its points a little wider), and a lent triangle a few millimetres off shows its
edge as something lying on the point."""
ALIGN_GAIN = 0.9
"""A slid strip must match the point's own look this much better (as a share of the unslid
strip's mismatch) to be used: on a board with the canonical proportions nothing moves."""


def _lined_up(
    view_lab: FloatImage, donor: int, own: FloatImage, reach: int, scale: float
) -> FloatImage:
    """The sibling's strip, slid across to where its triangle lines up with the one the point
    shows beyond its checkers (unslid where too little of the point shows to tell)."""
    _rows, cols, _flipped = strip_slices(donor, scale)

    def strip_at(shift: int) -> FloatImage:
        return point_strip(view_lab, donor, scale, shift)

    seen = own[reach:]
    if len(seen) < LEAST_SEEN * scale:
        return strip_at(0).copy()
    # shapes, not shades: each strip's own mean is taken away (the light differs a little)
    shape = seen - seen.reshape(-1, 3).mean(axis=0)

    def mismatch(shift: int) -> float:
        part = strip_at(shift)[reach:]
        return float(np.mean(np.abs(shape - (part - part.reshape(-1, 3).mean(axis=0)))))

    steps = round(ALIGN_MM * scale)
    shifts = [
        s
        for s in range(-steps, steps + 1)
        if 0 <= cols.start + s and cols.stop + s <= view_lab.shape[1]
    ]
    mismatches = {shift: mismatch(shift) for shift in shifts}
    best = min(mismatches, key=mismatches.__getitem__)
    return strip_at(best if mismatches[best] < ALIGN_GAIN * mismatches[0] else 0).copy()


NEAR_SEEN = 30.0
"""Length (mm) of a point's own strip just past its checkers on which a strip scaled into its
shade must fit it."""


def _relit(lent: FloatImage, own: FloatImage, reach: int, scale: float) -> FloatImage:
    """The sibling's strip shifted to this point's light: a lamp lights neighbours unevenly,
    and a borrowed strip a little brighter than the point would show the whole triangle as
    something lying on it. The shift is measured where both were seen empty (beyond the
    checkers, toward the centre line). Lightness is scaled, not shifted, where the difference
    is a shade (:data:`SHADE_RANGE`): a wall's shadow darkens a red triangle less than the
    cream field beside it.

    A shade must hold by the checkers too: a lamp's pool of light on the sibling's far end
    and not on the point's passes for one, and scaled by it a white triangle turned grey
    (where checkers then seemed to lie). The strip that fits the point's own look just past
    its checkers best is kept: scaled, shifted or as the sibling shows it.
    """
    if len(own) - reach < LEAST_SEEN * scale:
        return lent
    own_seen, lent_seen = own[reach:].reshape(-1, 3), lent[reach:].reshape(-1, 3)
    offset = np.median(own_seen - lent_seen, axis=0)
    ratio = _lightness_ratio(own_seen, lent_seen)
    shifted: FloatImage = np.clip(lent + offset.astype(np.float32), 0.0, 255.0)
    if abs(ratio - 1.0) <= SHADE_SCALED or not _is_shade(ratio):
        return shifted
    near = slice(reach, min(len(own), reach + round(NEAR_SEEN * scale)))

    def misfit(strip: FloatImage) -> float:
        return float(np.median(colour_distance(own[near], strip[near])))

    return min((_shaded(lent, ratio, offset[1:]), shifted, lent), key=misfit)


def _stack_reach(own: FloatImage, sibling: FloatImage, scale: float) -> int:
    """Rows (from the point's base) that its checkers cover, found against an empty sibling:
    up to the last row unlike the sibling's, with gaps shorter than a checker bridged.

    Only the strip's middle is compared, where a checker covers it whatever the board's
    proportions: at its sides a real board may show its bar or frame, all along the strip,
    where the sibling shows its field."""
    middle = own.shape[1] / 2
    half = REACH_HALF * scale
    columns = slice(round(middle - half), round(middle + half))
    own, sibling = own[:, columns], _shaded_like(sibling[:, columns], own[:, columns], scale)
    rows = np.median(colour_distance(own, sibling), axis=1)
    differs = np.nonzero(rows > STACK_DIFFERENCE)[0]
    if len(differs) == 0:
        return 0
    last = int(differs[0])
    for row in differs[1:]:
        if row - last > g.CHECKER_DIAMETER * scale:
            break
        last = int(row)
    # a checker's last rows are a narrow cap that the row's median misses: a stack of up to
    # six in a line ends at a whole number of checkers, so the end is taken to the next one
    pitch = g.CHECKER_PITCH * scale
    whole = math.ceil(last / pitch - CAP_SHARE) * pitch
    end = max(last, round(whole)) if whole <= 6 * pitch else last
    return min(len(rows), end + round(STACK_MARGIN * scale))


def _paint_triangle(strip: FloatImage, colour: Lab, scale: float) -> None:
    height, width = strip.shape[:2]
    t = (np.arange(height) + 0.5) / scale
    half = np.clip(g.POINT_WIDTH / 2 * (1 - t / g.POINT_LENGTH), 0, None)
    x = (np.arange(width) + 0.5) / scale - g.POINT_WIDTH / 2
    inside = np.abs(x)[None, :] < half[:, None]
    strip[inside] = np.asarray(colour, dtype=np.float32)


def paint_out_small_things(reference: FloatImage, field: Lab, scale: float) -> FloatImage:
    """Paints out die-sized blobs lying on the field (dice left on the board at calibration)."""
    bgr = lab_to_bgr(reference)
    distance = colour_distance(np.asarray(cv2.blur(reference, (3, 3)), dtype=np.float32), field)
    mask = np.zeros(distance.shape, np.uint8)
    # only the open field between the points' tips, where nothing but dice should lie
    top = view_row(g.POINT_LENGTH + 4, scale)
    bottom = view_row(g.PLAY_HEIGHT - g.POINT_LENGTH - 4, scale)
    mask[top:bottom] = (distance[top:bottom] > STRAY_DISTANCE).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    paint = np.zeros_like(mask)
    die_area = (g.DIE_SIZE * scale) ** 2
    for index in range(1, count):
        area = stats[index, cv2.CC_STAT_AREA]
        if 0.3 * die_area <= area <= 4.0 * die_area:
            paint[labels == index] = 255
    if not paint.any():
        return reference
    paint = np.asarray(cv2.dilate(paint, np.ones((5, 5), np.uint8)), dtype=np.uint8)
    filled = cv2.inpaint(bgr, paint, 5, cv2.INPAINT_TELEA)
    lab: FloatImage = cv2.cvtColor(filled, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab


def lab_to_bgr(lab: FloatImage) -> Image:
    bgr: Image = np.asarray(
        cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR), dtype=np.uint8
    )
    return bgr


def encode_reference(reference_lab: FloatImage) -> str:
    """The reference as base64 JPEG text (kept last in the profile file, about 60 kB)."""
    ok, data = cv2.imencode(".jpg", lab_to_bgr(reference_lab), [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise ValueError("could not encode the reference image")
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode_reference(text: str, scale: float) -> FloatImage:
    """Inverse of :func:`encode_reference`; raises ``ValueError`` on bad data or size."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as error:
        raise ValueError("the reference image is not base64 text") from error
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("the reference image cannot be decoded")
    if (image.shape[1], image.shape[0]) != view_size(scale):
        raise ValueError("the reference image has the wrong size")
    lab: FloatImage = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab

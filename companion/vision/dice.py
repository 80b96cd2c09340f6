"""Finding the dice in a frame and reading each: value, flat or cocked, and where it rests.

Conventions: positions are on the canonical plane in mm (:mod:`companion.geometry`); a die's
top face lies ``DIE_SIZE`` above what it rests on, so faces are looked at through the camera
model at that height (:class:`~companion.vision.plane.CameraModel`), where a flat die's top face
is an exact 16 mm square.

How dice are found, without knowing their colours: pips are small round spots, darker or
lighter than what surrounds them, a few millimetres apart. Spots are picked out of the frame
by the Hessian at the pips' size; the strongest are looked at first, each passed over cheaply
when nothing there differs from the empty board learned at calibration, or when it lies in a
gap between checkers. The rest are read on a sharp patch of the plane round them: the spots
there propose pip grids, and the face's own pixels choose the value
(:mod:`~companion.vision.pips`). A spot that does not read as a clear face is not a die. Once
two dice are read surely, no more are looked for. A camera looking in at a slant sees a flat
die's side facing it wide, pips and all, between the top and the camera: a face read where such
a side shows is the top only when no face reads as clearly just beyond it, away from the camera
(:func:`_side_face_of`). A die read on a checker is read again at the checker's height, and
that read stands only if it is as clear as the first.

Flat or cocked: a flat die shows, besides its top, only the sides that face the camera, each by a
width the camera model predicts; a cocked die shows a side face's pips where a flat die shows none
(or farther out, though never farther than a die tilted 45 degrees could show one: the face read is
the one most nearly up), and its top face's pip grid is squashed or sheared (where four or more
of its pips are found one by one, their squareness is measured, and judged against a line of its
own: :data:`MEASURED_SQUARE_FACE`). A square grid that no lean of 10 degrees or more toward
anything would show this camera, at its slope there, is a die that leans on nothing
(:mod:`companion.vision.lean`): flat surely, whatever shows beside it, unless it was read
resting on a checker, which counts as cocked however level it lies. The side a cocked die shows is
the one it raises over what it leans on, so side pips count only where something lies beyond them
(a checker, a wall, the other die); the other die's own pips never count, so the rests are judged
once every die is found. A two's or three's pips lie on the diagonal through its top's middle;
pips centred off the outline's middle, toward something to lean on, include a side face's
(:func:`_off_centre`). The die's own colour reaching beyond its top's edge, toward something
to lean on, farther than a flat die's side could, is that raised side seen whole, pips or none
(:func:`_side_shown_beyond`). A one's lone pip does not tell how its face is turned: its
outline does.
A die touching nothing cannot be cocked (it would fall flat); a die touching a checker, a wall or
the other die may lean on it, and since a die leaning 20-30 degrees can still show a square top,
it is called flat surely only when nothing it could lean on (a wall, the other die, even a faint
checker) lies beyond any of its four sides, as far out as a raised side reaches
(:func:`_support_beside`), or when the faint checker colour there fills no checker-sized disc
within reach (:func:`_checker_in_reach`: a shadow or a point's edge) and the walls within reach
all lie at its top's edges, as a leaning die's cannot (:func:`_flat_against_walls`); the reader,
knowing where the checkers are, settles more that lean on nothing
(:func:`companion.vision.reader.settle_free_dice`). Side spots alone, beside a
square top, make a cocked call unsure too: they may be a point's edge or a checker's rim. Resting
on a checker: checker colour all round the die at the checker's height; where only part of the
way round, whether the die rests on the checker or beside it is a guess, and its rest is unsure
unless its top shows squashed as only a steep tilt squashes it (:data:`SURE_SQUASH`): cocked
either way, as a die on a checker counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision import lean, pips
from companion.vision.maps import FloatImage, PlaneMaps
from companion.vision.plane import (
    VIEW_BOTTOM,
    VIEW_HEIGHT,
    VIEW_LEFT,
    VIEW_RIGHT,
    VIEW_TOP,
    CameraHeights,
    CameraModel,
    Image,
    Matrix,
    camera_heights,
    view_column,
    view_pixel,
    view_pixels,
    view_row,
    warp_patch,
)
from companion.vision.reading import DieReading

CHECKER_THICKNESS = 7.0
"""Height of a checker's top above the surface it lies on (mm)."""

# Finding candidates: pip-like spots over the whole frame, then cheap tests before a read.
SPOT_LEVEL = 20.0
"""Least Hessian response (grey levels squared) of a pip-sized spot."""
ROUNDNESS = 0.45
"""Least ratio of a spot's two curvatures for it to be taken as a round pip."""
MAX_CANDIDATES = 10
"""At most this many patches are read for a face in one frame."""
MAX_LOOKS = 60
"""At most this many spots are looked at (most are the board's own, passed over cheaply)."""
SURE_DIE = 0.9
"""Face confidence of a die read surely enough to stop looking for more once two are."""
CLEARER = 0.3
"""A second read of a die already read replaces it when this much more confident."""
SAME_PATCH = 6.0
"""Spots this close (mm) to one read in vain are not read again: the patch would be the same."""
CANDIDATE_REACH = 6.0
"""Half-size (mm) of the square round a spot where something must differ from the board."""
DIE_FOREGROUND = 0.35
"""A die's face must differ on average at least this much from the empty board..."""
OUTLINE_SHARE = 0.6
"""...or its strongest tenth (its outline and pips) this many times as much."""
PIP_FOREGROUND = 0.5
"""...or its pips, on the whole, at least this much: they are never the board's own."""
CHECKER_LIKE = 0.25
"""Foreground times likeness to a checker colour above which a place shows a checker."""
JUNCTION_REACH = 15.0
"""Distance (mm) from a spot at which checkers round a gap are looked for: beyond a die's
corners, inside the checkers of a junction, outside them across it."""

# Reading a face: a patch of the plane at the face's height.
PATCH_MM = 32.0
"""Side of the patch read round a candidate (mm): a face centred up to a corner pip away."""
PATCH_PX_PER_MM = 3.0
"""The patch's resolution: about twice a 1280x720 frame's over the board, no more."""
PIP_STEP = 0.27 * g.DIE_SIZE
"""Distance between neighbouring pips on a standard die (mm)."""
SPOT_CONTRAST = 14.0
"""Least colour contrast (L*a*b*) of a pip against its face."""
OUTLINE_REACH = 8.0
"""How far (mm) from the spot read the face's centre may lie (a corner pip's distance)."""
STEP_FACTORS = (1.0, 0.85)
"""Pip steps tried, as shares of a standard die's at the assumed height: a die lower than
assumed (leaning) or a camera a little off its calibration shows its pips closer."""
MAX_FITS = 3
"""Grids (of different pip counts) the spots propose at each step, for the face to judge."""
MIN_FACE_SCORE = 2.6
"""Below this score (:attr:`pips.FaceModel.score`) nothing is taken for a die's face."""
SURE_FACE_SCORE = 5.0
"""Score at which a face's pips count as plainly seen."""
FACE_MARGIN = 1.0
"""Margin of rank over the best other value at which a face is read with full confidence."""
MIN_SIDE_SHOWN = 6.0
"""Least width (mm) of a flat die's side, as the camera sees it, whose pips can read as a face."""
TOP_PIPS_REACH = 1.5 * PIP_STEP
"""How far (mm) from where a top would lie a spot makes it worth reading there."""
SIDE_FACE_SLACK = 3.0
"""How far (mm) a read may lie from the middle of a flat die's side to be taken for that side."""

# Flat, cocked or on a checker.
SIDE_TOLERANCE = 0.5
"""How far (mm) a side pip may lie beyond where a flat die's side could show one. Small: spots
on a side with nothing beyond it to lean on are not counted at all (:func:`_leans_toward`).
Measured on 240 development frames (two sets, seeds 5000-5119), 1.5 let six more of 90 cocked
dice stand and spared one of 390 flat dice."""
SQUARE_FACE = 0.905
"""A top face whose pip grid is squashed below this ratio is tilted: the die is cocked. (The
ratio of the grid's two stretches: flat dice measured 0.93 and above on the simulator, dice
leaning 15-35 degrees about cos(tilt), often less.)"""
SQUASH_MM = 80.0
"""Millimetres of side-face evidence one unit of squashing counts as: a face squashed to
0.87 or below (a die leaning 30 degrees or more) makes the die surely cocked by itself."""
FARTHEST_PIP_SHARE = 0.77
"""A side face's farthest pips lie this share of its width from the top's edge (its middle
pips half way, the farthest a pip step, 0.27 of the edge, beyond): side pips lie at most this
share of a side's visible width beyond the top edge."""
SIDE_PIP_LIKENESS = 0.5
"""A spot beside the face counts as a side pip when at least this share of the strongest."""
FARTHEST_SIDE_PIP = FARTHEST_PIP_SHARE * g.DIE_SIZE * math.sin(math.radians(45.0)) + SIDE_TOLERANCE
"""How far (mm) beyond what a flat die's side shows a side pip can lie at all. The face read
is the one most nearly up, so it is tilted 45 degrees at most: a side then shows at most
``DIE_SIZE * sin 45`` wider, and its farthest pips lie :data:`FARTHEST_PIP_SHARE` of the way
out. A spot farther out belongs to something else (a neighbouring checker's rim, the board's
pattern) and says nothing about how this die rests."""
UNSURE_REST = 0.3
"""Confidence of a die whose rest (flat or cocked) the frame cannot settle."""
SIDE_MARGIN = 1.5
"""Within this many mm of the flat/cocked line a die's rest is called unsure."""
SURE_SQUASH = 2 * SIDE_MARGIN
"""Squashing evidence (mm, as :data:`SQUASH_MM` counts it) that calls a die cocked surely by
itself: a top squashed to 0.87 or below. Such a die is cocked surely even where it is unclear
whether it rests on a checker or beside one (on a checker it counts as cocked too). Measured on
the 225 development frames of a cached set (seeds 5000-5299): 4 cocked dice (aspect 0.78-0.84)
made sure; no flat die read cocked there showed such a top with its rest unclear."""
MEASURED_SQUARE_FACE = 0.919
"""The same line (:data:`SQUARE_FACE`) for a top whose pips were found one by one
(:attr:`companion.vision.pips.FaceRead.pip_axes`): their squareness is measured, not a model's,
and flat dice measured 0.925 and above on 448 development dice (seeds 5000-5479, 6000-6299; one
read as the wrong value aside), cocked ones 0.85 (median)."""
MEASURED_SQUASH_MM = 115.0
""":data:`SQUASH_MM` for such a top: one squashed to 0.893 or below is tilted surely by itself
(:data:`SURE_SQUASH`): 105 of 182 cocked development dice, one flat die (read as the wrong
value, so unsure anyway)."""
TOUCH_SLACK = 6.0
"""How much farther (mm) than a flat die's corners something a die may lean on is looked for."""
TOUCH_FOREGROUND = 0.35
"""Foreground (0-1) beside a die that may be something it leans on."""
ON_CHECKER_SHARE = 0.6
"""Share of the ring round a die showing checker colour for it to rest on a checker."""
ON_CHECKER_UNCLEAR = (0.35, 0.85)
"""Shares between these leave unsure whether the die rests on a checker or beside one."""
FAINT_CHECKER = 0.15
"""Checker likeness (as :data:`CHECKER_LIKE`) low enough that a dark checker on a dark board
shows: what a die touching something must show no sign of, beyond every side, to be sure it
leans on nothing (:func:`_support_beside`). Measured on 71 development cocked dice read flat
(seeds 5300-5499 and the development set): 0.20 already found every one's support."""
SUPPORT_SHARE = 0.3
"""Share of the band beyond a side that must show a checker for the die to lean that way (a
checker's rim crosses part of it)."""
WALL_TOUCH = 1.2
"""How far (mm) a flat die's top, seen from above, may lie off a wall it touches (a camera and a
calibration a little off): a die leaning on a wall has its top's edge at least 2.7 mm off it
(``DIE_SIZE * (sin t - (1 - cos t) / 2)`` at 10 degrees, :func:`_flat_against_walls`). Measured
on 21 development dice leaning on the frame and read flat: 2.2 mm and more (or their top over
the wall, 5.6 mm and more: a side read as the top at 40-45 degrees); flat dice touching a wall
-0.9 to 1.7 mm."""
WALL_OVERLAP = 1.5
"""How far (mm) a flat die's top, as read, may reach over a wall it touches."""
CHECKER_BODY_SHARE = 0.45
"""Least share of a checker-sized disc (:data:`CHECKER_BODY_RADIUS`) that must show even a faint
checker (:data:`FAINT_CHECKER`) for a checker to lie there (:func:`_checker_in_reach`). Measured
on 26 development dice leaning on a checker, read flat, with nothing else beside them (seeds
5000-5119, 6000-6119 and the development set): their support showed 0.61, 0.79 and more; of 132
flat dice with only faint checker colour beside them, 50 showed less than 0.45 (shadows, points'
edges), the rest lie near a checker."""
CHECKER_BODY_RADIUS = 14.0
"""Radius (mm) of the disc a checker's body fills, well inside its rim (18 mm): a checker a
little off the spot looked at, or its rim blurred, still fills it."""
CHECKER_REACH = 15.0
"""How far (mm) from a die's top a checker's rim may lie for the die to lean on it: past the
widest raised side (11.3 mm), as :data:`_SUPPORT_FAR_OUT` looks."""
EDGE_CONTRAST = 10.0
"""Least L*a*b* change along a line out of a face for its edge to show."""
OFF_CENTRE = 1.2
"""How far (mm) a two's or three's pips may lie off the middle of its top's outline (a camera
a little off, a blurred edge, the side a flat die shows beside its top)."""
OUTLINE_SLACK = 1.5
"""How far (mm) a die's colour may reach beyond its top's edge and the side a flat die shows
there (a rounded rim, a blurred edge, a camera a little off its calibration) before it counts
as a side face raised (:func:`_side_shown_beyond`)."""
OUTLINE_RING = (5.0, 11.0)
"""Distances (mm) from a face's centre between which its outline's turn is judged (the top's
edges at 8 mm, a side's bottom edges a little farther)."""


@dataclass(frozen=True, slots=True)
class FoundDie:
    reading: DieReading
    centre_mm: tuple[float, float]
    """Centre of the die's top face on the board's own plane (mm), the camera's: for looking
    at the die again in the image."""
    top_height: float
    view_mm: tuple[float, float]
    """Where the face shows on the plane view (at the checkers' height) the readers use: on
    the canonical board, as are all the positions below."""
    face_confidence: float = 1.0
    """How surely the top face was read (its rest aside)."""
    footprint_mm: tuple[float, float] = (0.0, 0.0)
    """Where the die's middle shows on the surface it rests on (mm): for a die leaning on
    something this lies nearer to it than a flat die's foot could."""
    alone: bool = False
    """Read flat surely because the frame's colours show nothing beside it to lean on: a
    checker the colour of the board beneath it shows no colour either (the reader, knowing
    where the checkers lie, checks)."""
    beside: FoundDie | None = None
    """Where it was unclear whether the die rests on a checker or beside one (checker colour
    on part of the ring round it, :data:`ON_CHECKER_UNCLEAR`): the die as judged were it
    plainly beside, and so left unsure. The reader, knowing where the checkers lie, may find
    none it could rest on (:func:`companion.vision.reader.settle_free_dice`)."""
    raised_mm: tuple[float, float] | None = None
    """Where its middle would lie (canonical mm) were it resting level on a checker: its top
    seen a checker higher. Set with :attr:`beside`."""


_ABOVE_SPOT_LEVEL = float(np.nextafter(np.float32(SPOT_LEVEL), np.float32(np.inf)))
"""The least float32 above :data:`SPOT_LEVEL`: ``x > SPOT_LEVEL`` as ``x >= this``."""


def _board_box(plane_to_image: Matrix, width: int, height: int) -> tuple[int, int, int, int]:
    corners = np.array(
        [
            [VIEW_LEFT, VIEW_TOP],
            [VIEW_RIGHT, VIEW_TOP],
            [VIEW_RIGHT, VIEW_BOTTOM],
            [VIEW_LEFT, VIEW_BOTTOM],
        ],
        dtype=np.float64,
    )
    projected = cv2.perspectiveTransform(corners[None], plane_to_image)[0]
    x0, y0 = np.floor(projected.min(axis=0)).astype(int)
    x1, y1 = np.ceil(projected.max(axis=0)).astype(int)
    return max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)


def _spots(image: Image, heights: CameraHeights, image_to_plane: Matrix) -> npt.NDArray[np.float64]:
    """Pip-like spots as rows ``(x_mm, y_mm, strength)`` on the die-top plane."""
    height, width = image.shape[:2]
    plane_to_image: Matrix = np.linalg.inv(image_to_plane).astype(np.float64)
    x0, y0, x1, y1 = _board_box(plane_to_image, width, height)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return np.zeros((0, 3))
    # one workspace for the frame-sized steps, each written into a slice of it: the kernel
    # backs a block this large with huge pages, where a fresh array per step cost thousands of
    # page faults (more time than the arithmetic)
    work = np.empty((6, y1 - y0, x1 - x0), np.float32)
    gray = work[0]
    gray[...] = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    centre = np.array([[[g.PLAY_WIDTH / 2, g.PLAY_HEIGHT / 2]]])
    a = cv2.perspectiveTransform(centre, plane_to_image)[0, 0]
    b = cv2.perspectiveTransform(centre + np.array([[[10.0, 0.0]]]), plane_to_image)[0, 0]
    px_per_mm = float(np.linalg.norm(b - a)) / 10.0
    sigma = max(0.085 * g.DIE_SIZE * px_per_mm / math.sqrt(2), 0.7)
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma, dst=work[1])
    dxx = cv2.Sobel(blurred, cv2.CV_32F, 2, 0, dst=work[2], ksize=3)
    dyy = cv2.Sobel(blurred, cv2.CV_32F, 0, 2, dst=work[3], ksize=3)
    dxy = cv2.Sobel(blurred, cv2.CV_32F, 1, 1, dst=work[4], ksize=3)
    # determinant of the Hessian: large for round spots of either polarity, ~0 along edges
    # (OpenCV's own arithmetic: a whole frame's worth, several times faster than numpy's)
    blob = cv2.multiply(dxx, dyy, dst=work[5], scale=sigma**4)
    cv2.subtract(blob, cv2.multiply(dxy, dxy, dst=work[0], scale=sigma**4), dst=blob)
    size = max(3, round(sigma * 3) | 1)
    grown = cv2.dilate(blob, np.ones((size, size), np.uint8), dst=work[1])
    # a peak is the greatest round it and above the level: at least the greater of both (the
    # least float32 above the level, so that "above" stays strict), in two passes, not three
    cv2.max(grown, _ABOVE_SPOT_LEVEL, dst=grown)  # type: ignore[call-overload]
    peaks = cv2.compare(blob, grown, cv2.CMP_GE)
    # the peaks' flat indices (np.take is much the fastest), in raster order: numpy finds
    # them among the peaks as booleans (0 or 1) in half the time OpenCV's findNonZero lists
    # them (tens of thousands of peaks on a wooden board)
    cv2.min(peaks, 1, dst=peaks)  # type: ignore[call-overload]
    at = np.flatnonzero(np.asarray(peaks).view(np.bool_))
    if len(at) == 0:
        return np.zeros((0, 3))
    row = blob.shape[1]
    # pips are round: both curvatures alike (the gap where two checkers touch is not)
    a, b, c = dxx.take(at), dyy.take(at), dxy.take(at)
    spread = np.sqrt((a - b) ** 2 + 4 * c * c)
    small = np.abs((a + b) / 2) - spread / 2
    large = np.abs((a + b) / 2) + spread / 2
    at = at[small >= ROUNDNESS * large]
    if len(at) == 0:
        return np.zeros((0, 3))
    strength = np.sqrt(np.maximum(blob.take(at), 0.0))
    if len(at) > 400:
        keep = np.argsort(-strength)[:400]
        at, strength = at[keep], strength[keep]
    ys, xs = np.divmod(at, row)
    top = heights.to_plane_matrix(g.DIE_SIZE)
    pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)
    mm = cv2.perspectiveTransform(pts[None], top)[0]
    return np.column_stack([mm, strength])


def _patch(image: Image, image_to_plane: Matrix, centre: tuple[float, float]) -> Image:
    return warp_patch(image, image_to_plane, centre, PATCH_MM, int(PATCH_MM * PATCH_PX_PER_MM))


def _read_face(
    patch: Image,
    near: tuple[float, float],
    reach: float,
    factors: tuple[float, ...],
    one_step: float = 1.0,
) -> tuple[pips.FaceRead, npt.NDArray[np.float64]] | None:
    """The face whose centre lies within ``reach`` px of ``near`` in a patch where a standard
    die's pips lie ``PIP_STEP`` mm apart at ``PATCH_PX_PER_MM``, and the patch's pip-like
    spots; None when nothing there reads as a die's face.

    The spots propose where the face lies, how it is turned and how far apart its pips are
    (:func:`pips.fit_grids`, at each step of ``factors``); the face's own pixels then choose
    the value (:func:`pips.explain_face`). The confidence is the margin over the best other
    value, times how clearly the pips stand out at all.
    """
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    step = PIP_STEP * PATCH_PX_PER_MM
    every = pips.spots_in(lab, step, SPOT_CONTRAST)
    spots = pips.round_spots(every)
    if len(spots) == 0:
        return None
    guesses = [
        (fit.centre, fit.axes)
        for factor in factors
        for fit in pips.fit_grids(spots, step * factor, near, reach)[:MAX_FITS]
    ]
    model = pips.explain_face(lab, guesses, step * one_step, spots)
    if model is None or model.score < MIN_FACE_SCORE:
        return None
    confidence = float(
        np.clip((model.rank - model.runner_up) / FACE_MARGIN, 0.0, 1.0)
        * np.clip((model.score - MIN_FACE_SCORE) / (SURE_FACE_SCORE - MIN_FACE_SCORE), 0.0, 1.0)
    )
    face = pips.FaceRead(
        model.value,
        confidence,
        model.centre,
        model.angle,
        model.step,
        model.cells,
        *_measured(model, every),
    )
    return face, every


def _measured(
    model: pips.FaceModel, spots: npt.NDArray[np.float64]
) -> tuple[float, pips.Axes | None, pips.Axes | None]:
    """How square a face shows (1 square-on), its model's axes, and the axes of its own pips
    where four or more are found near its model's cells (``spots``: every pip-like spot of its
    patch; :attr:`pips.FaceRead.pip_axes`). The squareness is measured on those pips where
    found, else its model's. A two's or three's pips lie on one line and cannot show it."""
    if len(model.cells) < 4:
        return 1.0, model.axes, None
    squareness, axes = pips.measured_grid(model, spots)
    return (model.aspect if squareness is None else squareness), model.axes, axes


def _read_candidate(
    image: Image, heights: CameraHeights, centre: tuple[float, float], surface: float
) -> tuple[pips.FaceRead, tuple[float, float], npt.NDArray[np.float64]] | None:
    """Reads the face near ``centre`` with the die resting on ``surface`` (mm up).

    The pip spots propose where the face lies, how it is turned and how far apart its pips
    are (:func:`pips.fit_grids`, at a few steps); the face's own pixels then choose the value
    (:func:`pips.explain_face`). None when nothing there reads as a die's face.
    """
    patch = _patch(image, heights.to_plane_matrix(surface + g.DIE_SIZE), centre)
    middle = PATCH_MM * PATCH_PX_PER_MM / 2
    read = _read_face(patch, (middle, middle), OUTLINE_REACH * PATCH_PX_PER_MM, STEP_FACTORS)
    if read is None:
        return None
    face, every = read
    if len(face.cells) < 2:
        # a lone pip says nothing of how the face is turned: its outline does
        face = replace(face, angle=_outline_turn(patch, face.centre), axes=None)
    fx = centre[0] + (face.centre[0] - middle) / PATCH_PX_PER_MM
    fy = centre[1] + (face.centre[1] - middle) / PATCH_PX_PER_MM
    return face, (fx, fy), every


def _outline_turn(patch: Image, centre: tuple[float, float]) -> float:
    """The turn (radians, modulo a quarter turn) of the square outline round ``centre``: the
    edges of a die's top and sides run along two perpendicular directions, so the gradients in
    a ring across them agree on the turn modulo 90 degrees (each weighted by its strength)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    inner, outer = OUTLINE_RING
    r = _patch_radius(centre)
    ring = (r > inner) & (r < outer)
    x, y = gx[ring].astype(np.float64), gy[ring].astype(np.float64)
    # (gx + i gy)^4 / |g|^2 has the gradient's strength squared and four times its angle
    z = (x + 1j * y) ** 4 / np.maximum(x * x + y * y, 1e-6)
    return float(np.angle(z.sum()) / 4)


def _patch_radius(centre: tuple[float, float]) -> npt.NDArray[np.float64]:
    """Distance (mm) of every patch pixel from ``centre`` (patch pixels)."""
    side = int(PATCH_MM * PATCH_PX_PER_MM)
    ys, xs = np.mgrid[0:side, 0:side]
    return np.asarray(np.hypot(xs - centre[0], ys - centre[1]) / PATCH_PX_PER_MM)


def _side_spots(
    spots: npt.NDArray[np.float64], face: pips.FaceRead, scale: float
) -> list[tuple[int, float]]:
    """Pip-like spots just beyond the top face's edges: ``(side, mm beyond the edge)``.

    Sides are numbered by their outward normals along the face's turned axes: 0 = +across,
    1 = -across, 2 = +down, 3 = -down. Only spots level with the face (within its width)
    count, and only those nearly as strong as its pips (a side face's pips).
    """
    if len(spots) == 0:
        return []
    c, s = math.cos(face.angle), math.sin(face.angle)
    half = g.DIE_SIZE / 2
    rel = (spots[:, :2] - np.array(face.centre)) / scale
    u = rel[:, 0] * c + rel[:, 1] * s
    v = -rel[:, 0] * s + rel[:, 1] * c
    out = []
    least = SIDE_PIP_LIKENESS * float(spots[:, 2].max())
    # (as Python floats: the loop is over a few spots, numpy's scalars cost more than that)
    for x, y, strength in zip(u.tolist(), v.tolist(), spots[:, 2].tolist(), strict=True):
        if strength < least:
            continue
        if abs(x) > half and abs(y) < half * 0.8:
            out.append((0 if x > 0 else 1, abs(x) - half))
        elif abs(y) > half and abs(x) < half * 0.8:
            out.append((2 if y > 0 else 3, abs(y) - half))
    return [(side, beyond) for side, beyond in out if beyond < g.DIE_SIZE * 0.9]


def _leans_toward(
    maps: PlaneMaps,
    to_view: Matrix,
    face_mm: tuple[float, float],
    angle: float,
    side: int,
    shown: float,
    others: list[FoundDie],
    out_along: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
    likeness: float = CHECKER_LIKE,
) -> bool:
    """Whether something a die could lean on lies just beyond ``side`` of its top face, past
    the ``shown`` mm of side face seen there: a wall of the frame or the bar, a checker (what
    the plane view shows there differs from the empty board in a checker's colours; a die's
    shadow does not), or one of the ``others`` dice. ``to_view`` takes points at the height of
    the die's top to the plane view's.

    A cocked die's raised side rests on its support and faces up: the side face the camera
    sees beyond the top is the one over the support. Pip-like spots beyond a side with nothing
    there to hold the die up belong to something else (a flat die's bottom corners, a point's
    edge).

    ``out_along`` (mm past the side shown, mm along the edge) and ``likeness`` (least checker
    likeness) say where and how faintly a support is looked for; by default just beyond the
    side, over the middle of its edge, a checker plainly seen.
    """
    looks = [(side, shown)]
    return _leaning(maps, to_view, face_mm, angle, looks, others, out_along, likeness)[0]


def _leaning(
    maps: PlaneMaps,
    to_view: Matrix,
    face_mm: tuple[float, float],
    angle: float,
    looks: list[tuple[int, float]],
    others: list[FoundDie],
    out_along: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
    likeness: float = CHECKER_LIKE,
) -> list[bool]:
    """:func:`_leans_toward` for each look ``(side, shown)`` at once: every look's points
    made, moved and looked up in the view in one step each (a look costs little more than
    a point's arithmetic; each step's per-call cost is paid once)."""
    if not looks:
        return []
    turned = _turned_sides(angle)
    beyond, along = (_SUPPORT_OUT, _SUPPORT_ALONG) if out_along is None else out_along
    # each look's outward normal and edge direction, a row per look, as columns to broadcast
    normal = np.array([turned[side][0] for side, _shown in looks])[:, None, None, :]
    edge = np.array([turned[side][1] for side, _shown in looks])[:, None, None, :]
    out = (g.DIE_SIZE / 2 + np.array([shown for _side, shown in looks]))[:, None] + beyond
    xs = face_mm[0] + out[:, :, None] * normal[..., 0] + along * edge[..., 0]
    ys = face_mm[1] + out[:, :, None] * normal[..., 1] + along * edge[..., 1]
    # (look, point): the walls where this board has them, its bar and frame moved onto the
    # canonical ones; the other dice
    xs, ys = xs.reshape(len(looks), -1), ys.reshape(len(looks), -1)
    canonical_xs = maps.layout.canonical_xs(xs)
    held = (
        (canonical_xs < 0.0) | (canonical_xs > g.PLAY_WIDTH) | (ys < 0.0) | (ys > g.PLAY_HEIGHT)
        | ((canonical_xs > g.BAR_LEFT) & (canonical_xs < g.BAR_RIGHT))
    ).any(axis=1)  # fmt: skip
    for other in others:
        held |= (np.hypot(xs - other.centre_mm[0], ys - other.centre_mm[1]) < g.DIE_SIZE / 2).any(
            axis=1
        )
    # the points as the plane view shows them (the rays through them, at the view's height)
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)[None]
    view = cv2.perspectiveTransform(points, to_view)[0]
    cols, rows = view_pixels(*maps.layout.canonical_points(view[:, 0], view[:, 1]), maps.scale)
    cols, rows = cols.reshape(xs.shape), rows.reshape(xs.shape)
    h, w = maps.shape
    ok = (cols >= 0) & (cols < w) & (rows >= 0) & (rows < h)
    # off the view nothing is known: as good as a support
    leaning = held | ~ok.any(axis=1)
    looked = np.flatnonzero(~leaning)
    if likeness == math.inf or len(looked) == 0:
        # (no colour is that like a checker: no share of the view reaches SUPPORT_SHARE,
        # above 0, and the view need not be looked at)
        return [bool(leans) for leans in leaning]
    seen = ok[looked]
    like = _checker_pixels(maps, rows[looked][seen], cols[looked][seen], likeness)
    # each look's share of its points in view showing a checker
    counts = seen.sum(axis=1)
    shown_by_look = np.add.reduceat(like, np.cumsum(counts) - counts, dtype=np.float64)
    leaning[looked] = shown_by_look / counts >= SUPPORT_SHARE
    return [bool(leans) for leans in leaning]


@dataclass(frozen=True, slots=True)
class _Around:
    """One die's top and what lies round it, as every piece of evidence of a tilt toward a
    support looks at them: the plane view's maps, the top's plane to the view's
    (``to_view``), its centre (mm) and turn, the side a flat die shows beyond each edge
    (``predicted``, :func:`_predicted_sides`) and the other dice."""

    maps: PlaneMaps
    to_view: Matrix
    face_mm: tuple[float, float]
    angle: float
    predicted: list[float]
    others: list[FoundDie]

    def leans_toward(
        self,
        side: int,
        shown: float,
        others: list[FoundDie] | None = None,
        out_along: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
        likeness: float = CHECKER_LIKE,
    ) -> bool:
        """:func:`_leans_toward` from this die (``others``: the other dice unless given)."""
        return _leans_toward(
            self.maps, self.to_view, self.face_mm, self.angle, side, shown,
            self.others if others is None else others, out_along, likeness,
        )  # fmt: skip

    def leaning(
        self,
        looks: list[tuple[int, float]],
        out_along: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None,
        likeness: float = CHECKER_LIKE,
    ) -> list[bool]:
        """:func:`_leaning` from this die toward each look ``(side, shown)``."""
        return _leaning(
            self.maps, self.to_view, self.face_mm, self.angle, looks, self.others, out_along,
            likeness,
        )  # fmt: skip

    def top_corners(self) -> list[tuple[float, float]]:
        """The top's four corners on the board's own plane (mm)."""
        x, y = self.face_mm
        c, s = math.cos(self.angle), math.sin(self.angle)
        return [(x + a * c - b * s, y + a * s + b * c) for a, b in _TOP_CORNERS]


def _support_beside(around: _Around, checkers: bool = True) -> bool:
    """Whether anything a die could lean on lies beyond any side of its top (with ``checkers``
    False, only a wall or another die).

    A cocked die tilts about one bottom edge, so the side it raises over its support is one of
    its four, and the support lies beyond that side's top edge by no more than the raised side
    shows from above (``DIE_SIZE * sin 45`` = 11.3 mm at the steepest a face read as its top
    can lean), touching that side's bottom edge somewhere along its length (a checker's rim may
    touch it near a corner). Where no wall, no other die and not even a faint checker
    (:data:`FAINT_CHECKER`) lies in any of those four bands, there is nothing to lean on: the
    die lies flat, whatever else lies round it (a shadow, anything not checker-coloured).
    """
    likeness = FAINT_CHECKER if checkers else math.inf
    looks = [(side, around.predicted[side]) for side in range(4)]
    return any(around.leaning(looks, (_SUPPORT_FAR_OUT, _SUPPORT_FAR_ALONG), likeness))


def _nothing_to_lean_on(around: _Around, heights: CameraHeights, top: float) -> bool:
    """Whether a flat-looking die touching something has nothing beyond its sides it could
    lean on (its top ``top`` mm up).

    Either what the ring round its corners took for something (a shadow, anything not
    checker-coloured) lies beyond none of its sides; or the faint checker colour beyond a side
    is no checker's body (a shadow, a point's edge) and no wall or die is there, or the walls
    there touch its top's edges, as only a flat die's can."""
    if not _support_beside(around):
        return True
    # a wall or the other die beyond a side is a support whatever the checkers show
    held = _support_beside(around, checkers=False)
    return (not held or _flat_against_walls(around)) and not _checker_in_reach(around, heights, top)


def _flat_against_walls(around: _Around) -> bool:
    """Whether the walls within a die's reach (the frame's and the bar's, where this board has
    them) all touch its top's edges, and no other die lies within reach: a die that lies flat
    against the walls, not one leaning on them.

    A die lying flat against a wall has its top's edge over the wall's foot. A die leaning on
    a wall tilts about its bottom edge away from it, its raised side against the wall or on its
    top edge: its top's middle, seen from above, lies ``DIE_SIZE * (cos t / 2 + sin t)`` from
    the wall at a tilt ``t``, so the edge of a 16 mm top square centred there at least 2.7 mm
    off it from 10 degrees up (:data:`WALL_TOUCH`; resting on a lip 5 mm high instead, 1.7 mm
    at the least, at 30 degrees). A die leaning on another wall keeps the side facing this one
    upright, over its foot, so every wall in reach must touch; one a little farther off (up to
    :data:`CHECKER_REACH`) may be what it leans on. Steep dice whose side is read as their top
    reach over the wall (:data:`WALL_OVERLAP`)."""
    x = around.face_mm[0]
    xs, ys = np.array(around.top_corners()).T
    layout = around.maps.layout
    bar_left, bar_right = layout.outer[1], layout.home[0]
    gaps = [
        float(xs.min()) - layout.outer[0],
        layout.home[1] - float(xs.max()),
        float(ys.min()),
        g.PLAY_HEIGHT - float(ys.max()),
        bar_left - float(xs.max()) if x < bar_left else float(xs.min()) - bar_right,
    ]
    near = [gap for gap in gaps if gap < CHECKER_REACH]
    if any(
        math.dist(around.face_mm, other.centre_mm) < g.DIE_SIZE * math.sqrt(2) + CHECKER_REACH
        for other in around.others
    ):
        return False
    return bool(near) and all(-WALL_OVERLAP <= gap <= WALL_TOUCH for gap in near)


def _checker_in_reach(around: _Around, heights: CameraHeights, top: float) -> bool:
    """Whether a checker's body lies where a die (its top ``top`` mm up) could lean on it: a
    disc :data:`CHECKER_BODY_RADIUS` across, centred where a checker's rim comes within
    :data:`CHECKER_REACH` of the die's top, showing at least faintly a checker
    (:data:`FAINT_CHECKER`) over :data:`CHECKER_BODY_SHARE` of what the die leaves in view.

    :func:`_support_beside` takes any faint checker colour beyond a side for a checker (a dark
    checker on a dark board shows faintly), and so does a die's shadow on a dark point, or a
    point's edge a little off the calibration's. Those are strips and slivers; a checker is a
    disc 36 mm across, and the part a leaning die hides (its top and sides, seen on the plane
    view at the checkers' height) is left out of the share.
    """
    maps, scale = around.maps, around.maps.scale
    x, y = around.face_mm
    # checker centres, on the board's own plane (at the checkers' top, as the view shows them),
    # whose rims lie within reach of the die's top
    offsets = _CHECKER_CENTRES
    c, s = math.cos(around.angle), math.sin(around.angle)
    u = np.abs(offsets[:, 0] * c + offsets[:, 1] * s) - g.DIE_SIZE / 2
    v = np.abs(offsets[:, 1] * c - offsets[:, 0] * s) - g.DIE_SIZE / 2
    to_top = np.hypot(np.maximum(u, 0.0), np.maximum(v, 0.0)) + np.minimum(np.maximum(u, v), 0.0)
    rim = to_top - g.CHECKER_DIAMETER / 2
    centres = offsets[(rim > -_CHECKER_OVERLAP) & (rim < CHECKER_REACH)] + np.array([x, y])
    # a checker the die leans on lies on the board beside it, inside the frame and the bar
    layout, radius = maps.layout, g.CHECKER_DIAMETER / 2 - _CHECKER_OVERLAP
    cx, cy = centres[:, 0], centres[:, 1]
    inside = (cy > radius) & (cy < g.PLAY_HEIGHT - radius)
    inside &= ((cx > layout.outer[0] + radius) & (cx < layout.outer[1] - radius)) | (
        (cx > layout.home[0] + radius) & (cx < layout.home[1] - radius)
    )
    centres = centres[inside]
    if len(centres) == 0:
        return False
    cols, rows = view_pixels(*maps.layout.canonical_points(centres[:, 0], centres[:, 1]), scale)
    # the view round them
    h, w = maps.shape
    k = round(CHECKER_BODY_RADIUS * scale)
    c0, c1 = max(int(cols.min()) - k, 0), min(int(cols.max()) + k + 1, w)
    r0, r1 = max(int(rows.min()) - k, 0), min(int(rows.max()) + k + 1, h)
    if c1 - c0 <= 2 * k or r1 - r0 <= 2 * k:
        return True  # at the view's edge: nothing is known there
    fg, white = maps.foreground_in(slice(r0, r1), slice(c0, c1)), maps.whiteness[r0:r1, c0:c1]
    like = (fg * np.abs(white) > FAINT_CHECKER).astype(np.float32)
    # the die itself hides what lies under and behind it: its top and its foot as the view
    # shows them, and all between
    corners = around.top_corners()
    body = np.array(
        [
            _seen_in_view(heights, maps, corner, height)
            for height in (top, top - g.DIE_SIZE)
            for corner in corners
        ]
    )
    outline = (body - (VIEW_LEFT, VIEW_TOP)) * scale - (c0, r0)
    hidden = np.zeros(like.shape, np.uint8)
    cv2.fillConvexPoly(hidden, cv2.convexHull(outline.astype(np.float32)).astype(np.int32), 1)
    seen = 1.0 - cv2.dilate(hidden, _HIDDEN_MARGIN).astype(np.float32)
    disc = _disc(k)
    shown = cv2.filter2D(like * seen, -1, disc, borderType=cv2.BORDER_CONSTANT)
    looked = cv2.filter2D(seen, -1, disc, borderType=cv2.BORDER_CONSTANT)
    at = (np.clip(rows - r0, 0, r1 - r0 - 1), np.clip(cols - c0, 0, c1 - c0 - 1))
    share = shown[at] / np.maximum(looked[at], 1.0)
    # a disc the die hides mostly is no evidence either way: a checker may lie under it
    unknown = looked[at] < _LEAST_SEEN * float(disc.sum())
    return bool(np.any((share >= CHECKER_BODY_SHARE) | unknown))


@lru_cache(maxsize=2)
def _disc(radius: int) -> npt.NDArray[np.float32]:
    """A filled disc of ``radius`` view pixels, to sum a checker's body over."""
    disc = np.zeros((2 * radius + 1, 2 * radius + 1), np.float32)
    cv2.circle(disc, (radius, radius), radius, 1.0, -1)
    return disc


def _outline_reach(patch: Image, face: pips.FaceRead) -> tuple[float, float, float, float] | None:
    """How far (mm) a face's colour reaches from its centre (the middle of ``patch``, read at
    the height of the die's top) toward each side, numbered as in :func:`_side_spots`: where
    the colour along lines across that edge (their median, so that a pip on one line does not
    count) has changed by half of all it changes. None when some edge shows no change (a die
    the colour of what lies round it)."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    middle = PATCH_MM * PATCH_PX_PER_MM / 2
    sides = np.array(_turned_sides(face.angle))  # (side, normal or along, x or y)
    # every side's lines in one remap: (side, line, step out) sample points
    out = _EDGE_OUT[None, None, :, None] * sides[:, None, None, 0, :]
    along = _EDGE_ALONG[None, :, None, None] * sides[:, None, None, 1, :]
    at = (middle + PATCH_PX_PER_MM * (out + along)).astype(np.float32)
    lines = cv2.remap(
        lab, at[..., 0].reshape(-1, len(_EDGE_OUT)), at[..., 1].reshape(-1, len(_EDGE_OUT)),
        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    ).reshape(4, len(_EDGE_ALONG), len(_EDGE_OUT), 3)  # fmt: skip
    # (side, step out, channel): the median of an odd count of lines is its middle one once
    # ordered (np.median's own partition, without its checks)
    profiles = np.partition(lines, _MIDDLE_LINE, axis=1)[:, _MIDDLE_LINE]
    change = np.linalg.norm(profiles - profiles[:, :1], axis=2)
    most = change.max(axis=1)
    if most.min() < EDGE_CONTRAST:
        return None
    first = np.argmax(change >= most[:, None] / 2, axis=1)
    reach = _EDGE_OUT[first].tolist()
    return reach[0], reach[1], reach[2], reach[3]


def _off_centre(edges: tuple[float, float, float, float], around: _Around) -> float:
    """Evidence (mm, as :func:`tilt_evidence` counts it) from a two's or three's pips lying off
    the middle of the top's outline, toward something the die may lean on.

    Their pips lie on the face's diagonal through its centre. A grid centred off the outline's
    middle holds a pip of a side face: the one a cocked die raises over its support, next to
    its top's lone pip or corner (a cocked one or two read as a two, a three's side pip).
    """
    best = -math.inf
    for side in range(4):
        shift = (edges[side ^ 1] - edges[side]) / 2  # toward ``side``: its edge is nearer
        if shift > OFF_CENTRE and around.leans_toward(side, around.predicted[side]):
            best = max(best, 2 * (shift - OFF_CENTRE))
    return best


def _side_shown_beyond(edges: tuple[float, float, float, float], around: _Around) -> float:
    """Evidence (mm, as :func:`tilt_evidence` counts it) from the die's own colour reaching
    beyond its top's edge, toward something it may lean on, farther than the side a flat die
    shows there: the side face a cocked die raises over its support, seen from above (a die
    leaning 15 degrees shows 4 mm of it, where a flat one shows none on the side away from
    the camera). ``edges`` are :func:`_outline_reach`'s; beyond :data:`OUTLINE_SLACK` counts.
    Not toward the other die: its body, touching this one, reads as this one's colour.
    Measured on 908 development dice: past 1.5 mm reached 0.6 % of flat dice and 12 % of
    cocked ones (past 2 mm none and 7 %)."""
    best = -math.inf
    x, y = around.face_mm
    for side, (normal, _along) in enumerate(_turned_sides(around.angle)):
        beyond = edges[side] - g.DIE_SIZE / 2 - around.predicted[side]
        toward_die = any(
            math.dist(around.face_mm, other.centre_mm) < 2 * g.DIE_SIZE
            and (other.centre_mm[0] - x) * normal[0] + (other.centre_mm[1] - y) * normal[1] > 0.0
            for other in around.others
        )
        if (
            beyond > OUTLINE_SLACK
            and not toward_die
            and around.leans_toward(side, around.predicted[side] + beyond, [])
        ):
            best = max(best, beyond - OUTLINE_SLACK)
    return best


def _predicted_sides(
    camera: CameraModel, centre: tuple[float, float], face: pips.FaceRead, surface: float
) -> list[float]:
    """How far (mm) beyond each top edge a *flat* die's side shows to this camera.

    Seen through the plane at the top face's height, a side's bottom edge appears moved
    toward the point below the camera by ``DIE_SIZE / camera height`` of its distance from it;
    only the sides facing the camera show. Order as in :func:`_side_spots`.
    """
    nadir = camera.position[:2]
    toward = np.array([nadir[0] - centre[0], nadir[1] - centre[1]])
    height = max(camera.height - surface, 100.0)
    widths = []
    for normal, _along in _turned_sides(face.angle):
        widths.append(max(0.0, g.DIE_SIZE * float(np.dot(normal, toward)) / height))
    return widths


def squash_evidence(aspect: float, measured: bool = False) -> float:
    """How squashed a die's top looks (mm of tilt evidence, :data:`SQUASH_MM` a unit of
    aspect below a square face's): above 0 only where it is less square than a flat die's.
    ``measured``: its pips were found one by one (:data:`MEASURED_SQUARE_FACE`)."""
    if measured:
        return (MEASURED_SQUARE_FACE - aspect) * MEASURED_SQUASH_MM
    return (SQUARE_FACE - aspect) * SQUASH_MM


def _camera_slope(
    camera: CameraModel, centre: tuple[float, float], top: float
) -> tuple[float, float]:
    """The camera's slope at a die's top (its offset from the point below the camera over the
    camera's height above it): how far a point of the top moves on the plane per millimetre it
    rises (:mod:`companion.vision.lean`)."""
    height = max(camera.height - top, 100.0)
    return (
        (centre[0] - float(camera.position[0])) / height,
        (centre[1] - float(camera.position[1])) / height,
    )


def tilt_evidence(
    aspect: float,
    side_spots: list[tuple[int, float]],
    predicted: list[float],
    measured: bool = False,
) -> float:
    """How far (mm) a die shows past what a flat one could: > 0 says cocked, < 0 flat, near 0
    unsure.

    ``aspect`` is the top face's pip grid squashing (1 square), ``side_spots`` the spots beyond
    its edges (:func:`_side_spots`) and ``predicted`` how wide each side of a flat die shows
    (:func:`_predicted_sides`). A squashed top counts :data:`SQUASH_MM` a unit; a side pip
    counts by how far it lies beyond the flat side's, unless it lies farther than any tilted
    die's side pip can (:data:`FARTHEST_SIDE_PIP`).
    """
    return max(
        [squash_evidence(aspect, measured)]
        + [
            beyond - (predicted[side] * FARTHEST_PIP_SHARE + SIDE_TOLERANCE)
            for side, beyond in side_spots
            if beyond <= predicted[side] + FARTHEST_SIDE_PIP
        ]
    )


def _ring(radii: npt.ArrayLike, points: int) -> npt.NDArray[np.float64]:
    """Offsets ``(dx, dy)`` (as two rows) of ``points`` evenly spaced round a circle of each
    radius, circle by circle."""
    angles = np.tile(np.linspace(0, 2 * math.pi, points, endpoint=False), np.size(radii))
    radius = np.repeat(radii, points)
    return np.array([radius * np.cos(angles), radius * np.sin(angles)])


_ON_CHECKER_RING = _ring(12.0, 16)
"""Where a die resting on a checker shows checker colour all round (mm from its centre)."""
HALF_DIAGONAL = g.DIE_SIZE * 0.71
"""How far (mm) a die's corners reach from its middle (half its diagonal, rounded down a
little: a die's edges are rounded)."""
_TOUCH_REACH = HALF_DIAGONAL + 3.0
"""Just beyond a flat die's corners (mm from its centre)."""
_TOUCH_RINGS = _ring([_TOUCH_REACH, _TOUCH_REACH + TOUCH_SLACK], 24)
"""Where something a die may lean on is looked for: two rings, see :func:`_touches_something`."""
_SIDE_AXES = (((1.0, 0.0), (0.0, 1.0)), ((-1.0, 0.0), (0.0, 1.0)),
              ((0.0, 1.0), (1.0, 0.0)), ((0.0, -1.0), (1.0, 0.0)))  # fmt: skip
"""Each side's outward normal and its edge's direction, in the face's own turned axes (the
sides as :func:`_side_spots` numbers them)."""
_SUPPORT_OUT = np.arange(1.0, 9.5, 1.0)
"""Distances (mm) past a side face's edge where what the die leans on is looked for."""
_SUPPORT_ALONG = np.arange(-4.0, 4.5, 2.0)
"""Offsets (mm) along the side's edge of those looks."""
_SUPPORT_FAR_OUT = np.arange(0.5, 14.1, 1.0)
"""Distances (mm) past a flat die's side where anything a die could lean on is looked for
before it is called surely flat: past the widest raised side (11.3 mm), with room to spare
(12 mm was measured enough)."""
_SUPPORT_FAR_ALONG = np.arange(-10.0, 10.1, 2.0)
"""Offsets (mm) along the side's edge of those looks: all of it and a little past its corners
(the middle half alone missed two development cocked dice's checkers)."""
_CHECKER_OVERLAP = 4.0
"""How far (mm) a checker's rim may reach under a die's top as seen (a leaning die's top
overhangs its support)."""
_CHECKER_CENTRES = np.stack(np.meshgrid(*(np.arange(-45.0, 45.1, 1.0),) * 2), axis=-1).reshape(
    -1, 2
)
"""Offsets (mm) from a die's top's centre where checkers it may lean on are looked for (those
within reach are kept, :func:`_checker_in_reach`)."""
_TOP_CORNERS = tuple(
    (a * g.DIE_SIZE / 2, b * g.DIE_SIZE / 2) for a, b in ((-1, -1), (-1, 1), (1, 1), (1, -1))
)
"""A top's corners, in its own turned axes (mm from its centre)."""
_HIDDEN_MARGIN = np.ones((5, 5), np.uint8)
"""How far (view pixels, each way) round a die's outline its rounded edges and shadow hide."""
_LEAST_SEEN = 0.4
"""Least share of a checker's disc left in view for its colour there to say anything."""
_EDGE_OUT = np.arange(4.0, 12.01, 0.25)
"""Distances (mm) from a face's centre along which its edge is looked for (the top's edges at
8 mm, pips no farther than 5.5 mm)."""
_EDGE_ALONG = np.arange(-4.0, 4.01, 1.0)
"""Offsets (mm) along an edge of the lines across it (an odd count: see _MIDDLE_LINE)."""
_MIDDLE_LINE = len(_EDGE_ALONG) // 2
"""Where the median line falls among an edge's lines ordered."""
_JUNCTION_RING = _ring(JUNCTION_REACH, 8).T
"""Eight points round a spot, each opposite the one four on (see :func:`_between_checkers`)."""


def _turned_sides(angle: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each side's outward normal and its edge's direction (:data:`_SIDE_AXES`) on the plane,
    for a face turned by ``angle`` (radians)."""
    c, s = math.cos(angle), math.sin(angle)
    return [
        ((nx * c - ny * s, nx * s + ny * c), (ax * c - ay * s, ax * s + ay * c))
        for (nx, ny), (ax, ay) in _SIDE_AXES
    ]


def _in_view(maps: PlaneMaps | None, xy: tuple[float, float]) -> tuple[float, float]:
    """Where a point of the board's own plane (the camera's, the one the dice are found on)
    lies on the plane view and the canonical board
    (:meth:`~companion.vision.plane.Layout.to_canonical`)."""
    return xy if maps is None else maps.layout.to_canonical(xy)


def _seen_in_view(
    heights: CameraHeights, maps: PlaneMaps | None, xy: tuple[float, float], height: float
) -> tuple[float, float]:
    """Where the plane view (at its own height) shows the point ``xy``, ``height`` mm up, on
    the canonical board: the ray through it, as the maps were drawn."""
    return _in_view(maps, heights.seen_at(xy, height, VIEW_HEIGHT))


def _on_checker(maps: PlaneMaps, centre: tuple[float, float]) -> float:
    """How much of a ring round the die shows checker colour (all of it: it rests on a
    checker; little of it: it lies on the board)."""
    scale = maps.scale
    xs = np.round((centre[0] + _ON_CHECKER_RING[0] - VIEW_LEFT) * scale).astype(int)
    ys = np.round((centre[1] + _ON_CHECKER_RING[1] - VIEW_TOP) * scale).astype(int)
    h, w = maps.shape
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    if ok.sum() < 8:
        return 0.0
    ring = maps.foreground_at(ys[ok], xs[ok]) * np.abs(maps.whiteness[ys[ok], xs[ok]])
    return float(np.mean(ring > 0.25))


def _touches_something(
    maps: PlaneMaps | None, centre: tuple[float, float], others: list[FoundDie]
) -> bool:
    """Whether anything a die could lean on lies just beyond its footprint.

    Checkers, a hand, the frame or the bar's walls (the edges of the playing area) and the
    other die; judged on a ring just outside the die's corners.
    """
    x, y = centre
    reach = _TOUCH_REACH
    if any(math.dist(centre, die.view_mm) < g.DIE_SIZE * 1.5 + 3.0 for die in others):
        return True
    # the frame's long sides lie beyond a strip along them, which the view shifts off
    edge = 0.0 if maps is None else maps.layout.edge
    near_wall = (
        x < reach or x > g.PLAY_WIDTH - reach
        or y < reach - edge or y > g.PLAY_HEIGHT + edge - reach
        or abs(x - g.BAR_LEFT) < reach or abs(x - g.BAR_RIGHT) < reach
    )  # fmt: skip
    if near_wall or maps is None:
        return near_wall
    # two rings: a leaning die's foot is only roughly known, and a dark checker on a dark
    # board shows faintly: better a die left unsure than a cocked one called flat
    xs = np.round((x + _TOUCH_RINGS[0] - VIEW_LEFT) * maps.scale).astype(int)
    ys = np.round((y + _TOUCH_RINGS[1] - VIEW_TOP) * maps.scale).astype(int)
    h, w = maps.shape
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    return bool(np.any(maps.foreground_at(ys[ok], xs[ok]) > TOUCH_FOREGROUND))


def _stands_out(
    maps: PlaneMaps,
    heights: CameraHeights,
    top: float,
    face: pips.FaceRead,
    face_mm: tuple[float, float],
) -> bool:
    """Whether the face's pips, ``top`` mm up, differ from the empty board where they lie.

    Spots that belong to the board (stitching, nails, a tray's corners) were learned at
    calibration; a die's pips were not, even where the die's face matches the board. (The gap
    where two touching checkers show the board between them is ruled out later, by
    :func:`companion.vision.reader.could_rest_there`.)
    """
    h, w = maps.shape
    seen = []
    for a, b in face.cells:
        dx, dy = face.offset(a, b)
        pip = (face_mm[0] + dx / PATCH_PX_PER_MM, face_mm[1] + dy / PATCH_PX_PER_MM)
        x, y = _seen_in_view(heights, maps, pip, top)
        col, row = view_pixel(x, y, maps.scale)
        if not (1 <= col < w - 1 and 1 <= row < h - 1):
            return True  # off the view: nothing was learned there to compare with
        seen.append(float(maps.tolerant[row - 1 : row + 2, col - 1 : col + 2].max()))
    if float(np.median(seen)) >= PIP_FOREGROUND:
        return True
    # pips near an edge of the board's pattern (a point's side) fall within what the board
    # showed there: the die's body, or its outline, must then show
    x, y = _seen_in_view(heights, maps, face_mm, top)
    half = g.DIE_SIZE * 0.35
    x0, x1 = view_column(x - half, maps.scale), view_column(x + half, maps.scale)
    y0, y1 = view_row(y - half, maps.scale), view_row(y + half, maps.scale)
    rows, cols = slice(max(y0, 0), y1 + 1), slice(max(x0, 0), x1 + 1)
    return _differs(maps, rows, cols)


def _checker_pixels(
    maps: PlaneMaps, rows: npt.NDArray[np.int_], cols: npt.NDArray[np.int_], likeness: float
) -> npt.NDArray[np.bool_]:
    """Whether each view pixel (``rows``, ``cols``, inside the view) shows a checker (at least
    ``likeness``, foreground times likeness to a checker colour)."""
    like: npt.NDArray[np.bool_] = (
        maps.foreground_at(rows, cols) * np.abs(maps.whiteness[rows, cols]) > likeness
    )
    return like


def _checker_at(
    maps: PlaneMaps, points: npt.NDArray[np.float64], likeness: float = CHECKER_LIKE
) -> npt.NDArray[np.bool_]:
    """Whether each plane point (mm, at the view's height) shows a checker (at least
    ``likeness``, foreground times likeness to a checker colour)."""
    h, w = maps.shape
    cols, rows = view_pixels(points[:, 0], points[:, 1], maps.scale)
    # (np.clip's checks cost more than the clamping itself on so few points)
    xs = np.minimum(np.maximum(cols, 0), w - 1)
    ys = np.minimum(np.maximum(rows, 0), h - 1)
    return _checker_pixels(maps, ys, xs, likeness)


def _between_checkers(maps: PlaneMaps, xy: tuple[float, float]) -> bool:
    """Whether a spot lies in a gap between checkers: checkers on two opposite sides of it,
    nothing on two other opposite sides (where two checkers of a stack touch, or four of
    neighbouring stacks meet). The board showing in such a gap is as round and as dark as a
    pip; a die cannot lie there (it would rest across the checkers). A die resting on a
    checker shows checker all round, one beside a checker shows it on one side only."""
    checker = _checker_at(maps, _JUNCTION_RING + np.array(xy))
    both = checker[:4] & checker[4:]
    neither = ~checker[:4] & ~checker[4:]
    return bool(both.any() and neither.any())


def _differs_from_board(maps: PlaneMaps, xy: tuple[float, float]) -> bool:
    """Whether anything differs from the empty board round a pip-like spot seen at ``xy`` on
    the plane view (a cheap test before a die is looked for there)."""
    x, y = xy
    h, w = maps.shape
    half = CANDIDATE_REACH
    x0 = max(view_column(x - half, maps.scale), 0)
    x1 = min(view_column(x + half, maps.scale) + 1, w)
    y0 = max(view_row(y - half, maps.scale), 0)
    y1 = min(view_row(y + half, maps.scale) + 1, h)
    if x1 <= x0 or y1 <= y0:
        return True  # off the view: nothing was learned there to compare with
    window = (slice(y0, y1), slice(x0, x1))
    if _differs(maps, *window):
        return True
    # a die the colour of the board shows only its pips: the spot itself must be new
    col, row = view_pixel(x, y, maps.scale)
    spot = maps.tolerant[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2]
    return spot.size > 0 and float(spot.max()) >= PIP_FOREGROUND


def _differs(maps: PlaneMaps, rows: slice, cols: slice) -> bool:
    """Whether a die-sized window of the view differs enough from the empty board to hold a
    die (:data:`DIE_FOREGROUND`): its mean foreground, or, for a die the colour of the board,
    what its pips and outline show (the strongest tenth of the window, scaled so that a clear
    outline counts as a die's body would). The outline is judged on the map that forgives the
    board's own edges a pixel off (a tray's divider or a point's side in a frame a little off
    the calibration's).

    The outline is judged first: where it is enough, the exact foreground (the costlier map,
    made where asked for) need not be made (either is enough: the greater of the two is)."""
    tolerant = maps.tolerant[rows, cols]
    if tolerant.size == 0:
        return False
    edges = tolerant.ravel()
    tenth = float(np.partition(edges, int(len(edges) * 0.9))[int(len(edges) * 0.9)])
    if tenth * OUTLINE_SHARE >= DIE_FOREGROUND:
        return True
    return float(maps.foreground_in(rows, cols).mean()) >= DIE_FOREGROUND


def find_dice(
    image: Image, image_to_plane: Matrix, maps: PlaneMaps | None = None
) -> list[FoundDie]:
    """Every die in the frame, read.

    The strongest pip-like spot not yet explained is read as a pip of a die: a patch around
    it is searched for a whole face. A face found explains all the spots on it; a spot that
    is no die's pip explains only itself. At most :data:`MAX_CANDIDATES` reads are made.
    """
    height, width = image.shape[:2]
    heights = camera_heights(image_to_plane, (width, height))
    spots = _spots(image, heights, image_to_plane)
    inside = (
        (spots[:, 0] > VIEW_LEFT)
        & (spots[:, 0] < VIEW_RIGHT)
        & (spots[:, 1] > VIEW_TOP)
        & (spots[:, 1] < VIEW_BOTTOM)
    )
    spots = spots[inside]
    spots = spots[np.argsort(-spots[:, 2])]
    explained = np.zeros(len(spots), bool)
    found: list[FoundDie] = []
    faces: dict[int, _Seen] = {}
    reads = 0
    for _ in range(MAX_LOOKS):
        open_spots = np.nonzero(~explained)[0]
        sure = sum(die.face_confidence >= SURE_DIE for die in found)
        if len(open_spots) == 0 or reads >= MAX_CANDIDATES or sure >= 2:
            # two dice read surely: a game has no more (a third die-like thing still leaves
            # foreground no checker explains, which the reader does not let pass)
            break
        index = int(open_spots[0])
        explained[index] = True
        centre = (float(spots[index, 0]), float(spots[index, 1]))
        seen = _seen_in_view(heights, maps, centre, g.DIE_SIZE)
        if maps is not None and (
            not _differs_from_board(maps, seen) or _between_checkers(maps, seen)
        ):
            # the board's own spots (stitching, hinges, a tray's corner) were learned empty:
            # no need to read them
            explained |= np.hypot(spots[:, 0] - centre[0], spots[:, 1] - centre[1]) < SAME_PATCH
            continue
        reads += 1
        result = _read_candidate(image, heights, centre, 0.0)
        if result is None:
            # its neighbours would show the same patch: do not spend reads on them
            explained |= np.hypot(spots[:, 0] - centre[0], spots[:, 1] - centre[1]) < SAME_PATCH
            continue
        face, face_mm, spots_px = result
        # resting on a checker? judged round the face found; the face then lies higher
        view_centre = _seen_in_view(heights, maps, face_mm, g.DIE_SIZE)
        share = _on_checker(maps, view_centre) if maps is not None else 0.0
        on_checker = share >= ON_CHECKER_SHARE
        # between plainly on a checker and plainly beside one, where it rests is a guess
        rest_unclear = ON_CHECKER_UNCLEAR[0] < share < ON_CHECKER_UNCLEAR[1]
        surface = CHECKER_THICKNESS if on_checker else 0.0
        if on_checker:
            raised = _read_candidate(image, heights, face_mm, surface)
            if raised is not None and raised[0].confidence >= face.confidence:
                face, face_mm, spots_px = raised
            else:
                # the face reads more clearly at the board's scale (a die beside a checker,
                # its side or shadow taken for the checker under it): that read stands, seen
                # at the checker's height
                face_mm = heights.seen_at(face_mm, g.DIE_SIZE, surface + g.DIE_SIZE)
        top = surface + g.DIE_SIZE
        # a grid of four or more pips measured square is no side seen at a slant
        squashed = len(face.cells) < 4 or face.aspect < SQUARE_FACE
        beyond = _top_beyond(heights.camera, face_mm, top) if squashed else None
        if beyond is not None and _pips_beyond(spots[~explained], beyond, heights, maps):
            # what was read may be the side a flat die shows the camera, pips beyond it where
            # its top would lie: a top read there, as clear, is the die's face
            over = _read_candidate(image, heights, beyond, surface)
            if (
                over is not None
                and over[0].confidence >= face.confidence - CLEARER
                and _side_face_of(face_mm, over[1], heights.camera, top)
            ):
                face, face_mm, spots_px = over
        near_face = np.hypot(spots[:, 0] - face_mm[0], spots[:, 1] - face_mm[1]) < g.DIE_SIZE * 0.75
        explained |= near_face
        # two dice lie at least a die apart: a face nearer is the same die's, seen again from
        # another of its pips (or its side's): the clearer read stands; of two as clear, the
        # top rather than the side a flat die shows the camera
        same = [die for die in found if math.dist(face_mm, die.centre_mm) < g.DIE_SIZE]
        if any(_stands(die, face, face_mm, heights.camera, top) for die in same):
            continue
        found = [die for die in found if die not in same]
        centre_px = heights.to_image(face_mm, top)
        if maps is not None and not _stands_out(maps, heights, top, face, face_mm):
            continue
        unsure = DieReading(
            value=face.value,
            flat=True,
            half=g.half_of(*face_mm) if maps is None else maps.layout.half_of(face_mm),
            center_px=centre_px,
            confidence=min(face.confidence, UNSURE_REST),
            on_checker=on_checker,
        )
        foot = _in_view(maps, heights.seen_at(face_mm, surface + g.DIE_SIZE / 2, surface))
        view_mm = _in_view(maps, heights.to_plane(centre_px, VIEW_HEIGHT))
        die = FoundDie(unsure, face_mm, top, view_mm, face.confidence, foot)
        found.append(die)
        faces[id(die)] = _Seen(face, spots_px, surface, rest_unclear)
    # how each die rests is judged once all are found: a die may lean on the other, and the
    # other's pips are no side of this one
    judged = []
    for die in found:
        reading, alone, unclear = _judge_rest(image, die, faces[id(die)], found, heights, maps)
        beside = replace(die, reading=reading, alone=alone)
        if not unclear:
            judged.append(beside)
            continue
        # whether it rests on a checker or beside one is a guess: unsure, unless the reader
        # finds no checker it could rest on where it would lie, were it on one
        doubted = replace(
            die, reading=replace(reading, confidence=min(reading.confidence, UNSURE_REST))
        )
        if not die.reading.on_checker:
            lifted = heights.seen_at(
                die.centre_mm, die.top_height, CHECKER_THICKNESS + die.top_height
            )
            doubted = replace(doubted, beside=beside, raised_mm=_in_view(maps, lifted))
        judged.append(doubted)
    return judged


def _stands(
    die: FoundDie,
    face: pips.FaceRead,
    face_mm: tuple[float, float],
    camera: CameraModel,
    top: float,
) -> bool:
    """Whether a die already read stands against another read ``face`` of it (centred at
    ``face_mm``, ``top`` mm up): unless the new read is clearer by :data:`CLEARER`, or as clear
    and the old one is the side a flat die shows the camera, below the new one's top. A new
    read that is such a side of the old one never replaces it."""
    if _side_face_of(face_mm, die.centre_mm, camera, top):
        return True
    if _side_face_of(die.centre_mm, face_mm, camera, top):
        return die.face_confidence > face.confidence + CLEARER
    return die.face_confidence >= face.confidence - CLEARER


def _pips_beyond(
    spots: npt.NDArray[np.float64],
    beyond: tuple[float, float],
    heights: CameraHeights,
    maps: PlaneMaps | None,
) -> bool:
    """Whether pip-like ``spots`` not yet looked at lie round ``beyond`` (on the die-top plane),
    where something differs from the empty board: a top worth reading there."""
    if not np.any(np.hypot(spots[:, 0] - beyond[0], spots[:, 1] - beyond[1]) < TOP_PIPS_REACH):
        return False
    return maps is None or _differs_from_board(
        maps, _seen_in_view(heights, maps, beyond, g.DIE_SIZE)
    )


def _side_shown(camera: CameraModel, distance: float, top: float) -> float:
    """How wide (mm, on the plane of its top, ``top`` mm up) a flat die's side facing the
    camera shows, ``distance`` mm from the point below the camera (:func:`_predicted_sides`
    per side)."""
    return g.DIE_SIZE * distance / max(camera.height - (top - g.DIE_SIZE), 100.0)


def _top_beyond(
    camera: CameraModel, side_mm: tuple[float, float], top: float
) -> tuple[float, float] | None:
    """Where the top's middle lies of a flat die (its top ``top`` mm up) whose side facing the
    camera shows its middle at ``side_mm``; None where a flat die's sides show too narrow to be
    read as a face (:data:`MIN_SIDE_SHOWN`). See :func:`_side_face_of`."""
    away = np.asarray(side_mm) - np.asarray(camera.position[:2], dtype=np.float64)
    distance = float(np.hypot(*away))
    shown = _side_shown(camera, distance, top)
    if shown < MIN_SIDE_SHOWN:
        return None
    x, y = np.asarray(side_mm) + away / distance * (g.DIE_SIZE + shown) / 2
    return float(x), float(y)


def _side_face_of(
    side_mm: tuple[float, float], top_mm: tuple[float, float], camera: CameraModel, top: float
) -> bool:
    """Whether a face read centred at ``side_mm`` lies where a flat die whose top is centred at
    ``top_mm`` (``top`` mm up) shows the middle of its side to the camera.

    Seen on the plane at the top's height, the side facing the camera reaches from the top's
    edge toward the point below the camera by ``DIE_SIZE / camera height`` of the distance to
    it (:func:`_predicted_sides`); its pips show squashed there, and may read as a face of
    their own, half a die and half that width from the top's middle.
    """
    nadir = np.asarray(camera.position[:2], dtype=np.float64)
    toward = nadir - np.asarray(top_mm)
    distance = float(np.hypot(*toward))
    shown = _side_shown(camera, distance, top)
    if shown < MIN_SIDE_SHOWN:
        return False
    unit = toward / distance
    offset = np.asarray(side_mm) - np.asarray(top_mm)
    along = float(offset @ unit)
    across = abs(float(offset[0] * unit[1] - offset[1] * unit[0]))
    return abs(along - (g.DIE_SIZE + shown) / 2) < SIDE_FACE_SLACK and across < SIDE_FACE_SLACK


@dataclass(frozen=True, slots=True)
class _Seen:
    """What :func:`find_dice` saw of a die's face, kept to judge how the die rests."""

    face: pips.FaceRead
    spots_px: npt.NDArray[np.float64]
    """Every pip-like spot of the patch the face was read on (patch pixels)."""
    surface: float
    rest_unclear: bool
    """Whether it is a guess that the die lies on the board rather than on a checker."""


def _judge_rest(
    image: Image,
    die: FoundDie,
    seen: _Seen,
    found: list[FoundDie],
    heights: CameraHeights,
    maps: PlaneMaps | None,
) -> tuple[DieReading, bool, bool]:
    """The die's reading with its rest judged: flat or cocked, and how surely (``image`` is
    the frame it was found in, looked at again for its top's outline), were it plainly beside
    whatever it touches; whether it was called flat surely only for nothing showing beside it
    (:attr:`FoundDie.alone`); and whether it is a guess that it rests beside rather than on a
    checker, which leaves the reading unsure (:attr:`FoundDie.beside`)."""
    face, surface, face_mm, top = seen.face, seen.surface, die.centre_mm, die.top_height
    others = [other for other in found if other is not die]
    spots = seen.spots_px
    if others and len(spots):
        # the other die's pips are no side face of this one
        at = np.array(face_mm) + (spots[:, :2] - np.array(face.centre)) / PATCH_PX_PER_MM
        mine = np.ones(len(spots), bool)
        for other in others:
            mine &= np.hypot(*(at - np.array(other.centre_mm)).T) >= g.DIE_SIZE * 0.75
        spots = spots[mine]
    predicted = _predicted_sides(heights.camera, face_mm, face, surface)
    beside = _side_spots(spots, face, PATCH_PX_PER_MM)
    edges = None
    top_plane = heights.to_plane_matrix(top)
    # points at the height of the die's top to the plane view's
    to_view = heights.to_plane_matrix(VIEW_HEIGHT) @ np.linalg.inv(top_plane)
    if maps is not None:
        # how far its top's colour reaches toward each side: a side face shown beyond what a
        # flat die shows, or a two's or three's pips off its middle
        edges = _outline_reach(_patch(image, top_plane, face_mm), face)
    # (a side in shadow, or the colour of what lies beyond, shows no reach: the outline is
    # only ever evidence of a tilt, -inf where it shows none)
    off_centre = outline = -math.inf
    around = (
        None if maps is None else _Around(maps, to_view, face_mm, face.angle, predicted, others)
    )
    if around is not None and (beside or edges is not None):
        # a cocked die shows its raised side over what it leans on: a side's pips count
        # only where something lies beyond them
        leaning = around.leaning(
            [(side, max(predicted[side], beyond / FARTHEST_PIP_SHARE)) for side, beyond in beside]
        )
        beside = [spot for spot, leans in zip(beside, leaning, strict=True) if leans]
        if edges is not None and face.value in (2, 3):
            off_centre = _off_centre(edges, around)
        if edges is not None:
            outline = _side_shown_beyond(edges, around)
    measured = face.pip_axes is not None
    squash = squash_evidence(face.aspect, measured)
    excess = max(tilt_evidence(face.aspect, beside, predicted, measured), off_centre, outline)
    flat = bool(excess <= 0.0)
    sureness = float(np.clip(abs(excess) / SIDE_MARGIN, 0.0, 1.0))
    on_checker = die.reading.on_checker
    alone = False
    if (
        face.pip_axes is not None
        and not on_checker
        and lean.cannot_lean(face.pip_axes, _camera_slope(heights.camera, face_mm, top))
    ):
        # no lean toward anything shows a top like this one to this camera: whatever shows
        # beside it (a spot taken for a side's pip, colour beyond its edge) is not its side
        # (not for a die read on a checker: it counts as cocked however level it lies)
        flat, sureness = True, 1.0
    elif not flat:
        # calling a roll off is as wrong as letting a cocked die stand: be as sure
        sureness = float(np.clip((excess - SIDE_MARGIN) / SIDE_MARGIN, 0.0, 1.0))
        if squash <= 0.0:
            # a spot far beside a square face may be anything (a point's edge, a rim):
            # side spots are sure evidence only beside a top that shows squashed too
            sureness = min(sureness, UNSURE_REST)
    elif not on_checker:
        # a die can only be cocked against something: a free-standing die lies flat; one
        # touching a checker, a wall or the other die must show it (a square face of four
        # or more pips, no side beyond what a flat die shows) or its rest is unsure
        footprint = _seen_in_view(heights, maps, face_mm, g.DIE_SIZE / 2)
        if not _touches_something(maps, footprint, others) or (
            around is not None and _nothing_to_lean_on(around, heights, top)
        ):
            sureness, alone = 1.0, True
        else:
            # a square-looking face is no proof: dice leaning 20-30 degrees on a checker
            # measure square too; the reader settles dice that lean on nothing at all
            sureness = min(sureness, UNSURE_REST)
    # whether it rests on a checker or beside one may be a guess; a top squashed as only a
    # steep tilt squashes it is cocked either way (a die on a checker counts as cocked)
    unclear = seen.rest_unclear and squash < SURE_SQUASH
    reading = replace(die.reading, flat=flat, confidence=min(face.confidence, sureness))
    return reading, alone, unclear


def dice_mask(found: list[FoundDie], maps: PlaneMaps) -> FloatImage:
    """1 where a die (with its shadow and sides) hides the board in the plane view."""
    mask = np.zeros(maps.shape, np.float32)
    for die in found:
        x, y = view_pixel(die.view_mm[0], die.view_mm[1], maps.scale)
        radius = round(g.DIE_SIZE * 0.95 * maps.scale)
        cv2.circle(mask, (x, y), radius, 1.0, -1)
    return mask


def read_die_in_box(image: Image, box: tuple[float, float, float, float]) -> pips.FaceRead | None:
    """Reads a die whose outline is known to lie in ``box`` (x0, y0, x1, y1 in pixels).

    For photos of loose dice seen from above (no board): the box is scaled so the die is about
    as large as on the plane patches of :func:`find_dice`, then read the same way, at pip
    steps over the whole range a die in such a box may show (:data:`BOX_STEP_FACTORS`). None
    when no die face shows.
    """
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    if side <= 2:
        return None
    scale = g.DIE_SIZE * PATCH_PX_PER_MM / (side * BOX_DIE_SHARE)
    px = int(PATCH_MM * PATCH_PX_PER_MM)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    source = image
    if scale < 1.0:
        # shrinking a large die: smoothed first (over the patch's own footprint only), else
        # the warp samples between pixels and fine texture, glints and JPEG blocks alias
        # into pip-sized spots
        reach = px / scale / 2 + 4
        left, top = max(int(cx - reach), 0), max(int(cy - reach), 0)
        right = min(int(cx + reach) + 1, image.shape[1])
        bottom = min(int(cy + reach) + 1, image.shape[0])
        if right <= left or bottom <= top:
            return None
        crop = image[top:bottom, left:right]
        source = np.asarray(cv2.GaussianBlur(crop, (0, 0), BOX_SMOOTHING / scale), np.uint8)
        cx, cy = cx - left, cy - top
    to_patch = np.array(
        [[scale, 0.0, px / 2 - scale * cx], [0.0, scale, px / 2 - scale * cy]], dtype=np.float64
    )
    patch: Image = cv2.warpAffine(  # type: ignore[assignment]
        source, to_patch, (px, px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    read = _read_face(patch, (px / 2, px / 2), px * BOX_REACH, BOX_STEP_FACTORS, BOX_ONE_STEP)
    return None if read is None else read[0]


BOX_DIE_SHARE = 0.6
"""Share of a labelled box's side taken for the die's edge. A box holds the whole die turned
any way (a die turned 45 degrees fills only 0.71 of its box's side), its sides seen in
perspective and often its shadow; the steps tried (:data:`BOX_STEP_FACTORS`) cover the rest."""
BOX_REACH = 0.15
"""How far (share of the patch) from the box's middle the face's centre may lie."""
BOX_STEP_FACTORS = (0.62, 0.7, 0.78, 0.87, 0.96, 1.06, 1.18, 1.31, 1.45)
"""Pip steps tried on a die in a box, as shares of a standard die's (0.27 of the edge) at
:data:`BOX_DIE_SHARE`: the box tells the die's size only within a factor of about two (a
loose box round a die turned 45 degrees with its sides and shadow, or a tight one round a die
turned square), and dice differ in how far apart their pips lie (many 0.2 of the edge); each
about 12 % from the next, as a grid's pips are found within 0.3 of a step of their cells."""
BOX_ONE_STEP = 0.8
"""A one in a box is read at any step from this share of the standard one's up (a lone pip
does not tell it): the face a one is judged on must reach nearly as far as the largest face
the box may hold, or the other pips of a two can lie beyond it."""
BOX_SMOOTHING = 0.5
"""Gaussian blur, in patch pixels, of a photo shrunk into the patch: the least that keeps the
shrinking from aliasing."""

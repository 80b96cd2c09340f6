"""Finding the playing area in a frame, with no markers on the board.

A backgammon board is recognised by what makes it one: twenty-four long triangles in two rows,
split by a bar. The search runs in four steps, each using a cue that real boards share:

1. *Rows.* The playing area's long edges are straight lines where the points' bases meet the
   frame; the line segment detector finds them, and where a dark frame meets dark points they
   are still found as the lines on which the points' sides end (:func:`_lines_of_ends`). Pairs
   of lines of each direction bound candidate quadrilaterals.
2. *Ends.* The short edges are the weakest (the opening stacks five checkers at each end of the
   outer board), so each distinct pair of rows is turned to run the way the points do
   (:func:`upright`) and slid along to where the points' regular pattern fits (:func:`slide`).
   The board's outline against the table, at tournament proportions, adds a few guesses.
3. *Fit.* The most promising are nudged corner by corner (:func:`refine`) until colour edges
   run along the points' sides and bases, the bar's edges and the ends where the board geometry
   puts them, and bare field lies past the tips (:func:`triangle_score`: sharp, and blind to the
   board's colours). The pattern repeats, so the board one point along and the rows moved by a
   frame's width are tried too. Real boards differ from the canonical one in the bar's width
   and the points' length, so a tournament board's shape is tried beside it. The best few are
   fitted once more on the frame at its full size.
4. *Proof.* A real board lines up much better where it is than half a point along its rows,
   where its sides fall on the middle of the points; a chance match in the frame's texture does
   not, and a guess with one row or one end wrong does not in the quarter it gets wrong. Below
   :data:`MIN_CONTRAST` (or :data:`MIN_QUARTER_CONTRAST` in any quarter) the finder says it
   found no board rather than guess: a wrong board found confidently is worse than none.

*Its own shape.* Real boards differ from both shapes: bars of 25-55 mm, points 0.38-0.47 of
the height, halves whose points differ by a few millimetres. A board proven on the look's
shapes has its own fitted (:func:`_own_shape`): the bar's share, the points' length and each
half's width are looked along their range on real boards (:func:`fit_shape`), each half's end
and the bar's edge found along the rows (:func:`fit_along`), and the corners fitted again
(moving whole sides too, for a row turned a degree against its line); kept when it proves
itself as strictly, lines up clearly better, and no corner moved half a point along or most
of a frame across. When no look proves a board (and the second look, below, does not refuse
it for proving two), the first look is taken once more with the shape fitted to each
finalist (:data:`SHAPES_LOOK`): on boards of other proportions the fixed shapes line up too
poorly to prove (8 to 11 of 30 development boards were refused so), and the fitted one is
held to the same proof. It comes last because a freely fitted shape lets a board shifted by a
whole point prove itself where the second look finds the true one (black points on a black
frame).

When the first look proves no board, a second one (:data:`SECOND_LOOKS`) looks for rows the
frame's lines do not show: where black points meet a black frame, or checkers stacked on the
points hide a row's edge, the rows of the candidates lie on other lines (the tips, the frame's
outer edge, the checkers), so each row is also slid across the rows (:func:`slide_across`), and
guesses are scored with the frame past the points' bases bare, which a row lying on the checkers
is not. The proof stays the same, but a row whose edge does not show is less sharply placed, so
this look is taken twice, with two steps across the rows, and a board is reported only where
both takes prove the same one.

Many boards leave a strip of the field's colour between the frame (or the bar) and the points.
The playing area is then the whole field, strips included, and the points lie inside it, so a
look with strips of field round the points (:data:`STRIPS_LOOK`, :data:`STRIPPED`) is taken
beside the first; its best guesses have their strips measured (:func:`measure_strips`). Its
board is trusted only when it proves itself more firmly (:data:`MIN_STRIPS_QUARTER_CONTRAST`),
lies clear of the frame's border, and its strips show the field's colour
(:func:`_strips_of_field`): a board without strips is easily taken for one whose strips are its
frame, and the firmer proof alone does not stop that (on simulated boards without strips the
strips look proved itself on 3 of 8; the colour of its strips, or strips too narrow to see,
refused them). Where both looks prove a board, the one that lines up better is reported. The
strips the look starts from are widths seen on the simulator's boards; the widths found are
measured. How it does on boards it was not tuned on: ``benchmarks/vision.py``.

*Grown to the field.* The strips look rarely proves itself (checkers stacked at the ends
cover the strips there), so a board with strips is mostly proven by the looks without them,
which stop where the points do: at their bases and the ends of the rows, a strip's width
inside the playing area (on 19 of 30 development boards with strips, 10-20 px off). Every board
proven without strips is therefore grown over the strips of field round it
(:func:`grow_to_field`): outward from each side, a band of the field's colour that ends where
a frame of another colour begins. A frame coloured like the field (black on black) never ends
within reach; a strip past one side only is kept only where the opposite side shows one inside
it, as a wooden board's frame, coloured like its field and ending at a tray's border, would
otherwise be taken for strips (two of the real photos).

*Under a lamp.* A desk lamp's light fades toward the board's ends and the walls cast hard
shadows, and the points' edges can place a row on the wrong one of two lines a few pixels
apart: a tilted camera sees the far wall's lit top edge beyond the bases, and the near wall's
shadow draws a line across the points short of them. So before it is grown, each row of a board
proven without strips is settled (:func:`settle_rows`) where its points stop showing their own
colours: a shadow darkens every point alike, which in logarithms is one shift common to all of
them, while past the bases one colour (the wall's, the frame's) can match at most one of the
points' two. A row moves out only across lines on which points of both colours go on: a black
frame round black and red points (the demo's board) seems to carry the black points on past
their bases, and a row a little inside its bases costs the reader nothing where one on the wall
beyond them costs readings, so a row moved out also stops a millimetre short. Likewise a strip
in a wall's shadow is its field's colour, only less lit: a spot shows the field when it has the
field's colour, or that colour with every channel darkened alike (:func:`_shows_field`), where
a frame or a point of another colour differs by channel; a near-white or grey field in shade is
any grey (a rim, the blur into a black frame), so such a field shows only as lit.

*Framed.* One frame runs all round a playing area. A board found a point along its rows (a
board with strips at its ends, the first point hidden under the opening's five checkers, lines
up as well one point along with its far end on the tray's border) has a tray or a point past
one end: the colour past each end must be the frame's, as past the rows (:func:`_framed`), or
the finder says it found no board.

Frames are searched at :data:`WORK_WIDTH` pixels. Corners are reported in the frame's pixels,
clockwise from the top-left as the image shows them; which corner is white's home is the
calibration's business (:mod:`companion.vision.calibrate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.vision.plane import Corners, Image, order_clockwise

FloatArray = npt.NDArray[np.float64]
Gradient = npt.NDArray[np.float32]

WORK_WIDTH = 640
"""Frames are searched at this size (the longer side, in pixels)."""
MIN_CONTRAST = 2.0
"""How many times better the points must line up where the board is found than half a point
along its rows: a real board's sides fall on the middle of its points there, while a chance
match in the frame's texture lines up about as well either way."""
MIN_QUARTER_CONTRAST = 1.6
"""The same in each quarter of the board (either half, either row): a guess with one row or
one end wrong still lines up well as a whole, but not in the quarters it gets wrong."""
MIN_STRIPS_QUARTER_CONTRAST = 2.0
"""The same for a board with strips of field round the points: the points may lie anywhere
inside such a board's rows and ends, and a guess with that freedom needs the firmer proof."""
MIN_SCORE = 1.2
"""How many times the frame's ordinary edge strength the points' edges must show."""
LEAST_AREA = 0.08
"""The playing area covers at least this share of the frame (a board seen from afar is too
small to read anyway)."""
FAMILY_SIZE = 14
"""How many of the longest lines of each direction are combined into candidates."""
ROW_PAIRS = 24
"""How many pairs of rows (the most promising first) are slid along (:func:`slide`)."""
HIDDEN_ROW_PAIRS = 40
"""As many for the second look, for rows the frame's lines do not show (:data:`SECOND_LOOKS`):
a row hidden under checkers is paired with the lines near it, which rank lower."""
REFINED = 10
"""How many of the slid candidates are then refined corner by corner (:func:`refine`)."""
FINALISTS = 3
"""How many of the refined candidates are fitted again on the frame at its full size."""


class BoardNotFound(CompanionError, ValueError):
    """No playing area in the frame: says what was seen and what to do."""


@dataclass(frozen=True, slots=True)
class FoundBoard:
    corners_px: Corners
    """Clockwise from the top-left as the image shows them."""
    score: float
    """How many times the frame's ordinary edge strength the board's edges show."""
    contrast: float = 0.0
    """How many times better the points line up here than half a point along the rows."""


class RowProportions(NamedTuple):
    """How a real board's points sit in its playing area, as shares of the area's size."""

    bar: float
    """The bar's width as a share of the playing area's width."""
    point_length: float
    """A point's length as a share of the playing area's height."""
    lean: float = 0.0
    """How far the bar's middle lies right of the playing area's middle, as a share of its
    width: the two halves' points need not be alike (one half's 38 mm, the other's 43 mm
    puts the bar 3% of the width off the middle)."""


def _halves(shape: RowProportions) -> tuple[float, float]:
    """The widths (canonical millimetres) of the playing area's left and right halves, from
    the ends to the bar."""
    half = (1.0 - shape.bar) / 2
    return (half + shape.lean) * g.PLAY_WIDTH, (half - shape.lean) * g.PLAY_WIDTH


def _point_width(shape: RowProportions) -> float:
    """A point's width (canonical millimetres), both halves' on average."""
    return (1.0 - shape.bar) * g.PLAY_WIDTH / 12


SHAPES = (
    RowProportions(g.BAR_WIDTH / g.PLAY_WIDTH, g.POINT_LENGTH / g.PLAY_HEIGHT),
    RowProportions(0.05, 0.45),
)
"""The canonical board (the simulator's) and a tournament board's narrow bar and long points."""


class Model(NamedTuple):
    """What a guess is scored on: a board's shape, whether the frame past the points' bases
    counts, and the strips of field around the points (:func:`_point_features`)."""

    shape: RowProportions
    bare_frame: bool
    strips: g.Margins = g.NO_MARGINS


STRIPPED = (
    g.Margins(frame=5.0, bar=3.0, edge=0.0),
    g.Margins(frame=6.0, bar=4.0, edge=4.0),
    g.Margins(frame=11.0, bar=7.0, edge=10.0),
)
"""The strips of a board with a strip of field all round the points (real boards leave a few
millimetres to 15), tried beside the boards without: the strips are then measured
(:func:`measure_strips`)."""
MODELS = (
    tuple(Model(shape, False) for shape in SHAPES)
    + tuple(Model(shape, True) for shape in SHAPES)
    + tuple(Model(SHAPES[0], False, strips) for strips in STRIPPED)
)
"""Every shape without the frame past the bases, then every shape with it, then the canonical
shape with strips of field round the points."""

_PLANE_RECT = np.array(
    [(0.0, 0.0), (g.PLAY_WIDTH, 0.0), (g.PLAY_WIDTH, g.PLAY_HEIGHT), (0.0, g.PLAY_HEIGHT)]
)


def _point_features(model: Model, rims: bool = True) -> tuple[FloatArray, FloatArray]:
    """Plane points (in canonical millimetres) where a board shows edges, and where it shows
    none, each as (features, 10 points, 2).

    Edges run along both long sides of every point, from near the base to the tip (the median
    along a side shrugs off the checkers stacked on its lower part), along every point's base
    where it meets the frame, along both edges of the bar and along both ends of the playing
    area; the sides fix the board across the points, the bases and the tips along them, the
    bar and the ends where the rows start. Past the tips, on the line of each side, the field
    is bare: edges there mean the points are longer than the guess.

    With ``model.bare_frame`` the frame just past the bases, on the line of each side, is bare
    too (these features come last): edges there mean the points go on past the guess's row,
    which then lies inside the playing area, on the checkers stacked at the points' bases
    where a row's own edge is hidden (black points on a black frame, or checkers on them).
    """
    shape, strips = model.shape, model.strips
    left, right = _halves(shape)
    length = shape.point_length * g.PLAY_HEIGHT
    along_side = np.linspace(0.2, 1.0, 10)
    past_tip = np.linspace(1.08, 1.3, 10)
    past_base = np.linspace(-0.12, -0.03, 10)
    edges: list[FloatArray] = []
    bare: list[FloatArray] = []
    frame: list[FloatArray] = []
    low, high = strips.edge, g.PLAY_HEIGHT - strips.edge
    middles, widths = _point_middles(model)
    for middle, width in zip(middles.tolist(), widths.tolist(), strict=True):
        for base_y, tip_y in ((low, low + length), (high, high - length)):
            across = np.linspace(middle - 0.4 * width, middle + 0.4 * width, 10)
            edges.append(np.column_stack([across, np.full(10, base_y)]))
            if strips.edge and rims:
                # where the strip meets the frame
                outer = 0.0 if base_y == low else g.PLAY_HEIGHT
                edges.append(np.column_stack([across, np.full(10, outer)]))
            for side in (-1.0, 1.0):
                corner = middle + side * width / 2
                for t, out in ((along_side, edges), (past_tip, bare), (past_base, frame)):
                    xs = corner + (middle - corner) * t
                    ys = base_y + (tip_y - base_y) * t
                    out.append(np.column_stack([xs, ys]))
    # the bar's edges and the playing area's ends (where the frame or the tray begins), in
    # quarters: they fix where the points start, which the points' regular pattern cannot
    for x in (0.0, left, g.PLAY_WIDTH - right, g.PLAY_WIDTH):
        for quarter in range(4):
            ys = np.linspace(quarter + 0.1, quarter + 0.9, 10) * g.PLAY_HEIGHT / 4
            edges.append(np.column_stack([np.full(10, x), ys]))
    return np.array(edges), np.array(bare + frame if model.bare_frame else bare)


def _point_middles(model: Model) -> tuple[FloatArray, FloatArray]:
    """Where the middle of each point of a row lies along the rows (canonical millimetres,
    the left half's six first, from the left), and each point's width: shapes (12,), (12,).
    The points of a half share its width less its strips of field evenly."""
    strips = model.strips
    left, right = _halves(model.shape)
    widths = np.repeat([(half - strips.frame - strips.bar) / 6 for half in (left, right)], 6)
    starts = np.repeat([strips.frame, g.PLAY_WIDTH - right + strips.bar], 6)
    return starts + (np.tile(np.arange(6), 2) + 0.5) * widths, widths


BARE_WEIGHT = 0.5
"""How much edges past the points' tips (and past their bases, when they count) count
against a guess."""


def _project(to_image: FloatArray, points: FloatArray) -> FloatArray:
    """Plane points (..., 2) through a homography: their image points (..., 2)."""
    ones = np.ones((*points.shape[:-1], 1))
    projected = np.concatenate([points, ones], axis=-1) @ to_image.T
    image_points: FloatArray = projected[..., :2] / projected[..., 2:]
    return image_points


def _homographies(quads: FloatArray) -> FloatArray:
    """Homographies (N, 3, 3) taking the canonical playing area onto each quadrilateral
    (N, 4, 2), its corners in the plane's order (top-left, top-right, bottom-right,
    bottom-left)."""
    count = quads.shape[0]
    system = np.zeros((count, 8, 8))
    for k, (x, y) in enumerate(_PLANE_RECT):
        u, v = quads[:, k, 0], quads[:, k, 1]
        system[:, 2 * k, 0:3] = (x, y, 1.0)
        system[:, 2 * k, 6] = -u * x
        system[:, 2 * k, 7] = -u * y
        system[:, 2 * k + 1, 3:6] = (x, y, 1.0)
        system[:, 2 * k + 1, 6] = -v * x
        system[:, 2 * k + 1, 7] = -v * y
    target = quads.reshape(count, 8)
    solution = np.linalg.solve(system, target[..., None])[..., 0]
    return np.concatenate([solution, np.ones((count, 1))], axis=1).reshape(count, 3, 3)


def _sample(gradient: Gradient, quads: FloatArray, points: FloatArray) -> FloatArray:
    """Median edge strength along each feature (F, 10, 2) of the plane, seen through each
    quadrilateral (N, 4, 2): shape (N, F)."""
    flat = points.reshape(-1, 2)
    homogeneous = np.concatenate([flat, np.ones((len(flat), 1))], axis=1)
    projected = _homographies(quads) @ homogeneous.T  # (N, 3, M)
    depth = projected[:, 2]
    depth = np.where(np.abs(depth) < 1e-9, 1e-9, depth)
    height, width = gradient.shape
    xs = np.clip(np.round(projected[:, 0] / depth), 0, width - 1).astype(np.intp)
    ys = np.clip(np.round(projected[:, 1] / depth), 0, height - 1).astype(np.intp)
    values = gradient[ys, xs].reshape(len(quads), points.shape[0], points.shape[1])
    if points.shape[1] <= 2:
        return np.asarray(values.mean(axis=2), dtype=np.float64)
    return np.asarray(np.median(values, axis=2), dtype=np.float64)


class _Arrays(NamedTuple):
    """A model's features as :func:`_scores` and :func:`_contrasts` sample them."""

    edges: FloatArray
    bare: FloatArray
    combined: FloatArray
    weights: FloatArray
    proof: FloatArray
    """The features :func:`_contrasts` proves a board on: the model's without the frame past
    the bases, which a board half a point along its rows has as bare as the board itself."""
    proof_weights: FloatArray


def _combine(edges: FloatArray, bare: FloatArray) -> tuple[FloatArray, FloatArray]:
    weights = np.concatenate(
        [np.full(len(edges), 1.0 / len(edges)), np.full(len(bare), -BARE_WEIGHT / len(bare))]
    )
    return np.concatenate([edges, bare]), weights


@lru_cache(maxsize=256)
def _model_arrays(model: Model) -> _Arrays:
    edges, bare = _point_features(model)
    combined, weights = _combine(edges, bare)
    proof, proof_weights = _combine(*_point_features(model._replace(bare_frame=False), False))
    return _Arrays(edges, bare, combined, weights, proof, proof_weights)


def _arrays(model: int | Model) -> _Arrays:
    """The arrays of a model given by its index into :data:`MODELS` or in full."""
    return _model_arrays(MODELS[model] if isinstance(model, int) else model)


def _model(model: int | Model) -> Model:
    return MODELS[model] if isinstance(model, int) else model


def _scores(
    gradient: Gradient, quads: FloatArray, model: int | Model, every: int = 1
) -> FloatArray:
    """:func:`triangle_score` of many quadrilaterals at once (every ``every``-th point along
    each feature): shape (N,)."""
    arrays = _arrays(model)
    strengths = _sample(gradient, quads, arrays.combined[:, ::every])
    return np.asarray(strengths @ arrays.weights)


def triangle_score(gradient: Gradient, quad: FloatArray, model: int | Model = 0) -> float:
    """How well the board's edges line up with colour edges in the frame: the mean over the
    points' sides and bases, the bar's edges and the ends of the median edge strength along
    each, less half the mean past the points' tips (:func:`_point_features`). Sharp, and blind
    to colours.

    ``quad`` holds the playing area's corners in the plane's order (the bases of the points
    run along its first and third sides).
    """
    return float(_scores(gradient, quad[None], model)[0])


HALF_SHARES = np.round(np.arange(0.42, 0.5101, 0.0025), 4)
"""Each half's share of the playing area's width that :func:`fit_shape` tries: real boards'
points are 38-43 mm wide and their bars 25-55 mm, so a half (six points) takes 0.42-0.51."""
BAR_SHARES = (0.045, 0.11)
"""The bar's share of the width it keeps to (25-55 mm of a playing area about 500 mm wide)."""
POINT_LENGTHS = np.round(np.arange(0.37, 0.4801, 0.01), 2)
"""The points' lengths, as shares of the playing area's height, it tries (real boards:
0.38-0.47)."""
SHAPE_ROUNDS = 2
"""How many times each of the shape's proportions is looked along in turn."""


def _with_halves(shape: RowProportions, left: float, right: float) -> RowProportions:
    """The shape whose halves take these shares of the width."""
    return shape._replace(bar=1.0 - left - right, lean=(left - right) / 2)


@lru_cache(maxsize=32)
def _shape_basis(model: Model) -> tuple[FloatArray, FloatArray]:
    """A model's features (:func:`_point_features`, as :func:`_scores` samples them) on the
    canonical shape, and how they move (3, F, 10, 2) per millimetre of the left half's width,
    the right half's and the points' length: every feature point moves in proportion to each
    (its half's points are spread evenly, its tips lie a length from the bases), so the
    features of any shape are these added up."""
    base = _arrays(model).combined
    left, right = _halves(model.shape)
    moves = []
    for d_left, d_right, d_length in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
        shape = _with_halves(
            model.shape, (left + d_left) / g.PLAY_WIDTH, (right + d_right) / g.PLAY_WIDTH
        )._replace(point_length=model.shape.point_length + d_length / g.PLAY_HEIGHT)
        moves.append(_point_arrays(model._replace(shape=shape)) - base)
    return base, np.stack(moves)


def _point_arrays(model: Model) -> FloatArray:
    """A model's combined features, uncached (the shapes :func:`_shape_basis` moves along)."""
    return _combine(*_point_features(model))[0]


def _shape_scores(
    gradient: Gradient, quad: FloatArray, model: Model, shapes: list[RowProportions]
) -> FloatArray:
    """:func:`triangle_score` of one quadrilateral scored on ``model`` with each of ``shapes``
    in its place: shape (len(shapes),)."""
    key = model._replace(shape=SHAPES[0])
    base, moves = _shape_basis(key)
    left0, right0 = _halves(SHAPES[0])
    length0 = SHAPES[0].point_length * g.PLAY_HEIGHT
    deltas = np.array(
        [
            (left - left0, right - right0, shape.point_length * g.PLAY_HEIGHT - length0)
            for shape in shapes
            for left, right in (_halves(shape),)
        ]
    )
    features = base[None] + np.tensordot(deltas, moves, axes=1)  # (K, F, 10, 2)
    strengths = _sample(gradient, quad[None], features.reshape(-1, *base.shape[1:]))
    return np.asarray(strengths.reshape(len(shapes), -1) @ _arrays(key).weights)


ALONG_REACH = 15.0
"""How far (canonical millimetres, a point and more) :func:`fit_along` moves each end."""
ALONG_HALVES = (215.0, 275.0)
"""The widths (canonical millimetres) it tries for each half: the shares of
:data:`HALF_SHARES`, with room for the playing area's own width to change."""
ALONG_STEPS = (2.0, 0.5)
"""Its steps (millimetres): over the whole reach, then around the best."""


def _half_scores(
    gradient: Gradient,
    quad: FloatArray,
    model: Model,
    right_half: bool,
    ends: FloatArray,
    widths: FloatArray,
) -> FloatArray:
    """How well one half's points (with its end and the bar's edge) line up with each end's
    place (canonical millimetres on the plane of the guess ``quad``, where the half's end
    lies) and each width of the half: (len(ends), len(widths)), the half's share of
    :func:`triangle_score`."""
    key = model._replace(shape=SHAPES[0])
    base, moves = _shape_basis(key)
    weights = _arrays(key).weights
    middle = base[..., 0].mean(axis=1)
    part = middle > g.PLAY_WIDTH / 2 if right_half else middle < g.PLAY_WIDTH / 2
    left0, right0 = _halves(SHAPES[0])
    length = (model.shape.point_length - SHAPES[0].point_length) * g.PLAY_HEIGHT
    features = base[part] + length * moves[2, part]
    move, width0, end0 = (moves[1], right0, g.PLAY_WIDTH) if right_half else (moves[0], left0, 0.0)
    features = features[None] + (widths - width0)[:, None, None, None] * move[part][None]
    placed = np.repeat(features[None], len(ends), axis=0)  # (E, W, F, 10, 2)
    placed[..., 0] += (ends - end0)[:, None, None, None]
    strengths = _sample(gradient, quad[None], placed.reshape(-1, *base.shape[1:]))
    return np.asarray(strengths.reshape(*placed.shape[:3]) @ weights[part])


def fit_along(gradient: Gradient, quad: FloatArray, model: int | Model) -> tuple[Model, FloatArray]:
    """The playing area's ends and the bar's edges found along a guess's rows: (the model with
    the halves found, the corners).

    Each half's six points lie evenly between its end and the bar's edge, whatever the other
    half does, so each half is looked for on its own: every place of its end (a point and
    more either way) and every width a real board's half has, in coarse steps, then finely
    around the best. A board whose halves differ, or whose bar is narrower than the guess's,
    is then found whole, where moving one corner at a time (:func:`refine`) and fitting the
    shape on fixed corners (:func:`fit_shape`) trade one against the other.
    """
    model = _model(model)
    to_image = _homographies(quad[None])[0]
    left, right = _halves(model.shape)
    found = []
    for right_half, end, half in ((False, 0.0, left), (True, g.PLAY_WIDTH, right)):
        # first over the whole reach and every width, then finely around the best
        ends = end + np.arange(-ALONG_REACH, ALONG_REACH + 1e-9, ALONG_STEPS[0])
        widths = np.arange(ALONG_HALVES[0], ALONG_HALVES[1] + 1e-9, ALONG_STEPS[0])
        for nudge in (*ALONG_STEPS[1:], 0.0):
            scores = _half_scores(gradient, quad, model, right_half, ends, widths)
            pick_end, pick_width = np.unravel_index(int(np.argmax(scores)), scores.shape)
            end, half = float(ends[pick_end]), float(widths[pick_width])
            if nudge:
                nudges = np.arange(-ALONG_STEPS[0], ALONG_STEPS[0] + 1e-9, nudge)
                ends, widths = end + nudges, half + nudges
        found.append((end, half))
    (start, left), (stop, right) = found
    span = stop - start
    shape = _with_halves(model.shape, left / span, right / span)
    if not BAR_SHARES[0] <= shape.bar <= BAR_SHARES[1] or span <= 0:
        return model, quad
    rect = np.array([(start, 0.0), (stop, 0.0), (stop, g.PLAY_HEIGHT), (start, g.PLAY_HEIGHT)])
    return model._replace(shape=shape), _project(to_image, rect)


def fit_shape(gradient: Gradient, quad: FloatArray, model: int | Model) -> Model:
    """The model whose shape lines the points up best on a guess's corners.

    Real boards differ in the bar's width, the points' length and how the halves share the
    width; a guess scored on the wrong shape has its points' sides beside the frame's edges
    near the bar, and its corners pulled to compromise. Each half's width (where the bar's
    edge lies: it places that half's six points and nothing else) and the points' length
    (the tips) are looked along their whole range on real boards in turn, the others kept,
    twice.
    """
    fitted = _model(model)
    best = float(_shape_scores(gradient, quad, fitted, [fitted.shape])[0])
    for _ in range(SHAPE_ROUNDS):
        for side in range(3):
            left, right = (share / g.PLAY_WIDTH for share in _halves(fitted.shape))
            if side == 2:
                shapes = [fitted.shape._replace(point_length=float(v)) for v in POINT_LENGTHS]
            else:
                shapes = [
                    _with_halves(fitted.shape, *((v, right) if side == 0 else (left, v)))
                    for v in HALF_SHARES.tolist()
                ]
                shapes = [s for s in shapes if BAR_SHARES[0] <= s.bar <= BAR_SHARES[1]]
            if not shapes:
                continue
            scores = _shape_scores(gradient, quad, fitted, shapes)
            pick = int(np.argmax(scores))
            if scores[pick] > best + 1e-6:
                best, fitted = float(scores[pick]), fitted._replace(shape=shapes[pick])
    return fitted


STEPS = (4.0, 2.0, 1.0, 0.5)
"""The steps (working-size pixels) :func:`refine` moves corners by, in turn."""
FINE_STEPS = STEPS[1:]
"""The steps for candidates already near their place (slid along the rows, or neighbours)."""


def refine(
    gradient: Gradient,
    quad: FloatArray,
    model: int | Model = 0,
    least_area: float = 0.0,
    steps: tuple[float, ...] = STEPS,
    sides: bool = False,
) -> tuple[float, FloatArray]:
    """Moves one corner (with ``sides``, or one side) at a time, the move that lines the
    points' edges up best (:func:`triangle_score`) first, in ever smaller steps; never shrinks
    the quadrilateral below ``least_area`` pixels."""
    scores, quads = refine_many(gradient, quad[None], model, least_area, steps, sides)
    return float(scores[0]), quads[0]


_MOVES = np.array(
    [
        [[sign if (c, a) == (corner, axis) else 0.0 for a in range(2)] for c in range(4)]
        for corner in range(4)
        for axis in range(2)
        for sign in (-1.0, 1.0)
    ]
)
"""The 16 single moves of :func:`refine`: one corner, one axis, one way."""
_PAIR_MOVES = np.array(
    [
        [
            [(sign if c == pair[0] else turn * sign) if c in pair and a == axis else 0.0
             for a in range(2)]
            for c in range(4)
        ]
        for pair in ((0, 1), (1, 2), (2, 3), (3, 0))
        for axis in range(2)
        for sign in (-1.0, 1.0)
        for turn in (1.0, -1.0)
    ]
)  # fmt: skip
"""The 32 moves of a whole side (both its corners along one axis, the same way or opposite
ways): a row found a little along the other, or turned a little against its true line, which
no single corner's move improves."""
_ALL_MOVES = np.concatenate([_MOVES, _PAIR_MOVES])


def refine_many(
    gradient: Gradient,
    quads: FloatArray,
    model: int | Model = 0,
    least_area: float = 0.0,
    steps: tuple[float, ...] = STEPS,
    sides: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """:func:`refine` of many candidates (N, 4, 2) side by side: (scores (N,), corners).
    With ``sides``, whole sides are moved too (:data:`_PAIR_MOVES`)."""
    moves = _ALL_MOVES if sides else _MOVES
    best = quads.astype(np.float64).copy()
    count = len(best)
    best_scores = _scores(gradient, best, model)
    for step in steps:
        moving = np.ones(count, dtype=bool)
        for _ in range(60):
            active = np.nonzero(moving)[0]
            if not len(active):
                break
            trials = best[active, None] + step * moves[None]  # (A, M, 4, 2)
            flat = trials.reshape(-1, 4, 2)
            scores = _scores(gradient, flat, model)
            if least_area > 0.0:
                scores[_areas(flat) < least_area] = -np.inf
            scores = scores.reshape(len(active), len(moves))
            pick = np.argmax(scores, axis=1)
            gained = scores[np.arange(len(active)), pick] > best_scores[active] + 1e-6
            moving[active[~gained]] = False
            better = active[gained]
            best[better] = trials[gained, pick[gained]]
            best_scores[better] = scores[gained, pick[gained]]
    return best_scores, best


def _areas(quads: FloatArray) -> FloatArray:
    """The areas of quadrilaterals (N, 4, 2) (shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    return np.asarray(
        0.5
        * np.abs(
            (x * np.roll(y, -1, axis=1)).sum(axis=1) - (y * np.roll(x, -1, axis=1)).sum(axis=1)
        )
    )


# -- straight lines ---------------------------------------------------------------------------


class Line(NamedTuple):
    """A straight line ``x·n = offset`` with normal ``n = (-sin angle, cos angle)``."""

    angle: float
    """Direction in radians, in ``[0, pi)``."""
    offset: float
    length: float
    """Total length of the segments found along it."""


def _segments(gray: npt.NDArray[np.uint8]) -> FloatArray:
    """Straight edge segments ``(x0, y0, x1, y1)`` of the frame (line segment detector)."""
    found = cv2.createLineSegmentDetector().detect(gray)[0]
    if found is None:
        return np.zeros((0, 4))
    return np.asarray(found, dtype=np.float64).reshape(-1, 4)


def _angle_between(a: float, b: float) -> float:
    """The unsigned angle between two directions (radians, at most pi / 2)."""
    return abs((a - b + math.pi / 2) % math.pi - math.pi / 2)


def merge_segments(segments: FloatArray, least: float = 8.0) -> list[Line]:
    """Segments lying on one line (within 2 degrees and 3 pixels) merged, longest first."""
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    lines: list[list[float]] = []
    for index in np.argsort(-lengths):
        if lengths[index] < least:
            break
        x0, y0, x1, y1 = segments[index]
        angle = math.atan2(y1 - y0, x1 - x0) % math.pi
        for line in lines:
            if _angle_between(angle, line[0]) > math.radians(2.0):
                continue
            nx, ny = -math.sin(line[0]), math.cos(line[0])
            if abs(nx * x0 + ny * y0 - line[1]) < 3.0 and abs(nx * x1 + ny * y1 - line[1]) < 3.0:
                line[2] += float(lengths[index])
                break
        else:
            nx, ny = -math.sin(angle), math.cos(angle)
            offset = nx * (x0 + x1) / 2 + ny * (y0 + y1) / 2
            lines.append([angle, offset, float(lengths[index])])
    lines.sort(key=lambda line: -line[2])
    return [Line(a, o, n) for a, o, n in lines]


def _families(lines: list[Line], segments: FloatArray) -> tuple[list[Line], list[Line]]:
    """The lines of the board's two axes: the longest lines within 25 degrees of the longest
    line and more than 50 degrees from it, each joined by the lines on which the other
    direction's segments end (:func:`_lines_of_ends`)."""
    if not lines:
        return [], []
    main = lines[0].angle
    along = [line for line in lines if _angle_between(line.angle, main) < math.radians(25)]
    across = [line for line in lines if _angle_between(line.angle, main) > math.radians(50)]
    angles = np.arctan2(segments[:, 3] - segments[:, 1], segments[:, 2] - segments[:, 0])
    turn = np.abs((angles - main + math.pi / 2) % math.pi - math.pi / 2)
    first = _lines_of_ends(segments[turn > math.radians(50)], main)
    second = _lines_of_ends(segments[turn < math.radians(25)], (main + math.pi / 2) % math.pi)
    return _join(along, first), _join(across, second)


def _join(lines: list[Line], extra: list[Line]) -> list[Line]:
    """The longest lines and the lines of ends, without repeats."""
    joined = list(extra)
    for line in lines:
        if len(joined) >= FAMILY_SIZE + len(extra):
            break
        if all(
            _angle_between(line.angle, other.angle) > math.radians(2.0)
            or abs(line.offset - other.offset) > 4.0
            for other in extra
        ):
            joined.append(line)
    return joined


ENDS_LINES = 6
"""How many lines of segment ends join each family."""


def _lines_of_ends(segments: FloatArray, angle: float) -> list[Line]:
    """Lines, within 12 degrees of ``angle``, on which many segments end.

    The points' long sides are the clearest segments on a board, and they end on four lines:
    the two edges of the playing area where the bases meet the frame, and the two lines of the
    tips. The playing area's edges are found there even where the frame is as dark as the
    points or checkers break the edge into pieces.
    """
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    segments = segments[lengths >= 12.0]
    if len(segments) < 6:
        return []
    ends = np.concatenate([segments[:, :2], segments[:, 2:]])
    angles = angle + np.radians(np.arange(-12.0, 12.01, 0.5))
    normals = np.stack([-np.sin(angles), np.cos(angles)], axis=1)
    offsets = normals @ ends.T  # (angles, ends)
    low = float(offsets.min()) - 4.0
    bins = np.floor((offsets - low) / 2.0).astype(np.intp)
    count = int(bins.max()) + 3
    votes = np.zeros((len(angles), count))
    for index in range(len(angles)):
        votes[index] = np.bincount(bins[index], minlength=count)
    # an end on the boundary of two bins still counts once for its line
    votes = votes + np.roll(votes, 1, axis=1)
    found: list[Line] = []
    for _ in range(ENDS_LINES):
        row, column = np.unravel_index(int(np.argmax(votes)), votes.shape)
        if votes[row, column] < 6:
            break
        # the line fitted through the ends that voted for it (a bin is only 2 px and half a
        # degree wide)
        near = np.abs(offsets[row] - (low + 2.0 * column)) <= 3.0
        line = _fit_line(ends[near], float(votes[row, column]))
        if all(
            _angle_between(line.angle, other.angle) > math.radians(2.0)
            or abs(line.offset - other.offset) > 4.0
            for other in found
        ):
            found.append(line)
        # no second line within 4 degrees and 6 pixels of this one
        votes[max(row - 8, 0) : row + 9, max(column - 3, 0) : column + 4] = 0.0
    return found


def _fit_line(points: FloatArray, length: float) -> Line:
    """The straight line closest to these points (total least squares)."""
    centre = points.mean(axis=0)
    _, _, axes = np.linalg.svd(points - centre)
    dx, dy = axes[0]
    angle = math.atan2(dy, dx) % math.pi
    offset = -math.sin(angle) * centre[0] + math.cos(angle) * centre[1]
    return Line(angle, float(offset), length)


def _intersections(first: list[Line], second: list[Line]) -> FloatArray:
    """Where every line of ``first`` meets every line of ``second``: (len first, len second,
    2), NaN for parallel lines."""
    a = np.array([line.angle for line in first])
    p = np.array([line.offset for line in first])
    b = np.array([line.angle for line in second])
    q = np.array([line.offset for line in second])
    na = np.stack([-np.sin(a), np.cos(a)], axis=1)[:, None, :]
    nb = np.stack([-np.sin(b), np.cos(b)], axis=1)[None, :, :]
    det = na[..., 0] * nb[..., 1] - na[..., 1] * nb[..., 0]
    det = np.where(np.abs(det) < 1e-6, np.nan, det)
    x = (p[:, None] * nb[..., 1] - na[..., 1] * q[None, :]) / det
    y = (na[..., 0] * q[None, :] - p[:, None] * nb[..., 0]) / det
    return np.stack([x, y], axis=-1)


def _candidates(lines: tuple[list[Line], list[Line]], size: tuple[int, int]) -> FloatArray:
    """Quadrilaterals (N, 4, 2) bounded by two lines of each direction, kept when they could
    be a playing area: inside the frame (give or take a tenth), convex, large enough, and
    shaped like a board seen from at most a steep angle."""
    along, across = lines
    if len(along) < 2 or len(across) < 2:
        return np.zeros((0, 4, 2))
    width, height = size
    meet = _intersections(along, across)
    i, j = np.triu_indices(len(along), 1)
    k, m = np.triu_indices(len(across), 1)
    ii, kk = np.meshgrid(np.arange(len(i)), np.arange(len(k)), indexing="ij")
    a1, a2 = i[ii.ravel()], j[ii.ravel()]
    b1, b2 = k[kk.ravel()], m[kk.ravel()]
    quads = np.stack([meet[a1, b1], meet[a1, b2], meet[a2, b2], meet[a2, b1]], axis=1)
    ok = ~np.isnan(quads).any(axis=(1, 2))
    quads = quads[ok]
    margin = 0.1 * max(width, height)
    inside = (
        (quads[..., 0] > -margin).all(axis=1)
        & (quads[..., 0] < width + margin).all(axis=1)
        & (quads[..., 1] > -margin).all(axis=1)
        & (quads[..., 1] < height + margin).all(axis=1)
    )
    quads = quads[inside]
    edges = np.roll(quads, -1, axis=1) - quads
    lengths = np.hypot(edges[..., 0], edges[..., 1])
    cross = (
        edges[..., 0] * np.roll(edges, -1, axis=1)[..., 1]
        - edges[..., 1] * np.roll(edges, -1, axis=1)[..., 0]
    )
    convex = (cross > 0).all(axis=1) | (cross < 0).all(axis=1)
    area = 0.5 * np.abs(
        (quads[..., 0] * np.roll(quads[..., 1], -1, axis=1)).sum(axis=1)
        - (quads[..., 1] * np.roll(quads[..., 0], -1, axis=1)).sum(axis=1)
    )
    shortest = np.maximum(lengths.min(axis=1), 1e-9)
    opposite = np.maximum(
        np.maximum(lengths[:, 0], lengths[:, 2])
        / np.maximum(np.minimum(lengths[:, 0], lengths[:, 2]), 1e-9),
        np.maximum(lengths[:, 1], lengths[:, 3])
        / np.maximum(np.minimum(lengths[:, 1], lengths[:, 3]), 1e-9),
    )
    aspect = (lengths[:, 0] + lengths[:, 2]) / np.maximum(lengths[:, 1] + lengths[:, 3], 1e-9)
    keep = (
        convex
        & (area >= LEAST_AREA * width * height)
        & (shortest > 0.15 * min(width, height))
        & (opposite < 1.8)
        & (aspect > 0.5)
        & (aspect < 2.0)
    )
    return np.asarray(quads[keep], dtype=np.float64)


# -- the search -------------------------------------------------------------------------------


def _edge_strength(small: Image) -> Gradient:
    """Colour edge strength (Lab Sobel magnitude): points stand out from the field by colour
    even where their brightness is the same."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1)
    return np.asarray(np.sqrt((gx * gx + gy * gy).sum(axis=2)) / 8.0, dtype=np.float32)


SLIDE_REACH = 1.0
"""How far past each end of a candidate (as a share of its width) the playing area is looked
for."""
SLIDE_STEP = 1.0 / 30
"""The first look along the rows moves the ends in steps of this share of the width."""


def slide(gradient: Gradient, quad: FloatArray, model: int | Model = 0) -> FloatArray:
    """The playing area's ends found along a candidate's two rows of points.

    The ends of the playing area are its weakest edges (the opening stacks five checkers at
    each end of the outer board), so a candidate often has the rows right and the ends wrong
    by a point or more, out of reach of :func:`refine`. Every start and width of the playing
    area along the candidate's rows, reaching past both of its ends, is scored by the points'
    regular pattern at once: first in coarse steps, then finely around the best.
    """
    to_image = _homographies(quad[None])[0]
    edges, bare = _arrays(model).edges, _arrays(model).bare
    # the gradient along lines of the plane parallel to the rows, at every height a feature
    # is sampled at: a placement's score is then a sum of look-ups in these profiles
    fine = (edges[:, ::3], bare[:, ::5])
    levels = np.unique(np.concatenate([part[..., 1].ravel() for part in (*fine, edges[:, ::4])]))
    spacing = g.PLAY_WIDTH / 300
    plane_x = np.arange(-SLIDE_REACH * g.PLAY_WIDTH, (1 + SLIDE_REACH) * g.PLAY_WIDTH, spacing)
    grid_x, grid_y = np.meshgrid(plane_x, levels)
    ones = np.ones_like(grid_x)
    projected = np.tensordot(to_image, np.stack([grid_x, grid_y, ones]), axes=1)
    depth = np.where(np.abs(projected[2]) < 1e-9, 1e-9, projected[2])
    height, width = gradient.shape
    columns = np.clip(np.round(projected[0] / depth), 0, width - 1).astype(np.intp)
    lines = np.clip(np.round(projected[1] / depth), 0, height - 1).astype(np.intp)
    inside = (
        (projected[0] / depth >= 0)
        & (projected[0] / depth <= width - 1)
        & (projected[1] / depth >= 0)
        & (projected[1] / depth <= height - 1)
        & (projected[2] * projected[2][:, :1] > 0)
    )
    profiles = np.where(inside, gradient[lines, columns], 0.0)
    seen = np.nonzero(inside.all(axis=0))[0]
    if not len(seen):
        return quad
    first_seen = float(plane_x[seen[0]] / g.PLAY_WIDTH) - 0.02
    last_seen = float(plane_x[seen[-1]] / g.PLAY_WIDTH) + 0.02
    # how wide the playing area can be: a board 1.05 to 1.2 times as wide as deep, seen from
    # overhead to 35 degrees, looks 0.86 to 1.46 times as wide as deep
    middle = np.array(
        [
            [0.0, g.PLAY_HEIGHT / 2, 1.0],
            [g.PLAY_WIDTH, g.PLAY_HEIGHT / 2, 1.0],
            [g.PLAY_WIDTH / 2, 0.0, 1.0],
            [g.PLAY_WIDTH / 2, g.PLAY_HEIGHT, 1.0],
        ]
    )
    marks = middle @ to_image.T
    marks = marks[:, :2] / marks[:, 2:]
    across = float(np.hypot(*(marks[1] - marks[0])))
    deep = float(np.hypot(*(marks[3] - marks[2])))
    narrowest, widest = 0.8 * deep / max(across, 1e-9), 1.55 * deep / max(across, 1e-9)

    def layout(
        parts: tuple[FloatArray, FloatArray],
    ) -> tuple[FloatArray, npt.NDArray[np.intp], FloatArray]:
        """Plane x, profile row and weight of every sample of these features."""
        sides, empty = parts
        xs = np.concatenate([sides[..., 0].ravel(), empty[..., 0].ravel()])
        ys = np.concatenate([sides[..., 1].ravel(), empty[..., 1].ravel()])
        weights = np.concatenate(
            [np.full(sides.shape[0] * sides.shape[1], 1.0 / sides.size * 2),
             np.full(empty.shape[0] * empty.shape[1], -BARE_WEIGHT / empty.size * 2)]
        )  # fmt: skip
        return xs, np.searchsorted(levels, ys), weights

    def best_placement(
        starts: FloatArray, widths: FloatArray, parts: tuple[FloatArray, FloatArray]
    ) -> tuple[float, float]:
        """The best start and width (as shares of the candidate's width) among these."""
        xs, rows, weights = layout(parts)
        start_grid, width_grid = np.meshgrid(starts, widths, indexing="ij")
        inside = (start_grid >= first_seen) & (start_grid + width_grid <= last_seen)
        start_list, width_list = start_grid[inside], width_grid[inside]
        offset = (start_list + SLIDE_REACH) * g.PLAY_WIDTH / spacing
        scale = width_list / spacing
        index = offset[:, None] + 0.5 + scale[:, None] * xs[None, :]
        index = np.clip(index, 0, len(plane_x) - 1).astype(np.intp)
        values = profiles[rows, index] @ weights
        if not len(values):
            return float(starts[len(starts) // 2]), float(widths[len(widths) // 2])
        pick = int(np.argmax(values))
        return float(start_list[pick]), float(width_list[pick])

    step = SLIDE_STEP
    start, span = best_placement(
        np.arange(first_seen, last_seen, step),
        np.arange(narrowest, widest, step),
        (edges[:, ::4], bare[:, ::5]),
    )
    nudges = np.arange(-1.0, 1.01, 0.25) * step
    start, span = best_placement(start + nudges, span + nudges, fine)
    rect = np.array([[start, 0.0], [start + span, 0.0], [start + span, 1.0], [start, 1.0]])
    rect = rect * (g.PLAY_WIDTH, g.PLAY_HEIGHT)
    return _project(to_image, rect)


ACROSS_REACH = (-0.4, 0.8)
"""How far each row of a candidate is moved across the rows when its rows are looked for
(:func:`slide_across`), as shares of its height: in (negative) and out (positive). Out reaches
further: a row found on the line of its own points' tips lies 0.6 of the board's height from
the row across, and needs moving out by two thirds."""
ACROSS_STEPS = (0.02, 0.025)
"""The steps of that look, as shares of the candidate's height: the second look is taken once
with each, and trusted only where both find the same board (:data:`SECOND_LOOKS`)."""


def slide_across(
    gradient: Gradient, quad: FloatArray, model: int | Model = 0, step: float = ACROSS_STEPS[0]
) -> FloatArray:
    """The candidate with each row moved across to where the points' pattern fits best.

    A row's base is often the weakest line of all: checkers stacked on the points hide it, and
    a dark frame against dark points shows none. Such a candidate has one row on some other
    line (the points' tips, the frame's outer edge), and the points' sides and tips, the
    strongest cues of a board, line up only once the row is moved to its place. Each row is
    moved in turn, the other kept, then the first again.
    """
    to_image = _homographies(quad[None])[0]
    shifts = np.arange(ACROSS_REACH[0], ACROSS_REACH[1] + 1e-9, step) * g.PLAY_HEIGHT
    reach = 4.0 * max(gradient.shape)
    rect = _PLANE_RECT.copy()
    for corners, outwards in (((0, 1), -1.0), ((2, 3), 1.0), ((0, 1), -1.0)):
        trials = np.repeat(rect[None], len(shifts), axis=0)
        trials[:, corners, 1] += outwards * shifts[:, None]
        quads = _project(to_image, trials)
        # a row moved out past the horizon of a steep view is no board
        sound = np.isfinite(quads).all(axis=(1, 2)) & (np.abs(quads) < reach).all(axis=(1, 2))
        sound[sound] &= _areas(quads[sound]) >= 1.0
        if not sound.any():
            break
        scores = _scores(gradient, quads[sound], model, every=5)
        rect = trials[sound][int(np.argmax(scores))]
    return _project(to_image, rect)


def upright(quad: FloatArray, segments: FloatArray) -> FloatArray:
    """The candidate with its ends turned along the points (its rows kept).

    Line candidates often join two right rows by two wrong, slanted lines; sliding along the
    rows needs ends that run the way the points do. The points' sides between the rows show
    that way: their directions (left and right sides slant opposite ways, so they average out)
    are fitted as a straight function of the place along the rows, which follows the
    convergence of a tilted camera's view.
    """
    top, bottom = quad[0], quad[3]
    along = quad[1] - quad[0]
    length = float(np.hypot(*along))
    if length < 1e-6:
        return quad
    along = along / length
    down = bottom - top
    normal = np.array([-along[1], along[0]])
    if float(down @ normal) < 0:
        normal = -normal
    separation = float((quad[3] - quad[0]) @ normal)
    if separation <= 1e-6:
        return quad
    starts, ends = segments[:, :2], segments[:, 2:]
    vectors = ends - starts
    lengths = np.hypot(vectors[:, 0], vectors[:, 1])
    heights = np.stack([(starts - top) @ normal, (ends - top) @ normal], axis=1)
    between = (heights.min(axis=1) > -0.05 * separation) & (heights.max(axis=1) < 1.05 * separation)
    flip = np.where(vectors @ normal < 0, -1.0, 1.0)
    directions = vectors * flip[:, None] / np.maximum(lengths, 1e-9)[:, None]
    steep = directions @ normal > math.cos(math.radians(30))
    chosen = between & steep & (lengths > 0.2 * separation)
    if chosen.sum() < 6:
        return quad
    angles = np.arctan2(directions[chosen] @ along, directions[chosen] @ normal)
    places = ((starts[chosen] + ends[chosen]) / 2 - top) @ along
    weights = lengths[chosen]
    design = np.stack([np.ones_like(places), places], axis=1)
    fit = np.linalg.lstsq(design * weights[:, None], angles * weights, rcond=None)[0]
    turned = quad.copy()
    for first, second in ((0, 3), (1, 2)):
        middle = (quad[first] + quad[second]) / 2
        angle = float(fit[0] + fit[1] * ((middle - top) @ along))
        direction = math.sin(angle) * along + math.cos(angle) * normal
        # the end through the old end's middle, from the top row to the bottom row
        for corner, row_point, row_direction in (
            (first, quad[0], quad[1] - quad[0]),
            (second, quad[3], quad[2] - quad[3]),
        ):
            matrix = np.column_stack([direction, -row_direction])
            if abs(np.linalg.det(matrix)) < 1e-9:
                return quad
            t = np.linalg.solve(matrix, row_point - middle)[0]
            turned[corner] = middle + t * direction
    return turned


def _clockwise(quads: FloatArray) -> FloatArray:
    """Many quadrilaterals' corners (N, 4, 2) ordered like :func:`order_clockwise` does."""
    centre = quads.mean(axis=1, keepdims=True)
    angles = np.arctan2(quads[..., 1] - centre[..., 1], quads[..., 0] - centre[..., 0])
    ordered = np.take_along_axis(quads, np.argsort(angles, axis=1)[..., None], axis=1)
    start = np.argmin(ordered[..., 0] + ordered[..., 1], axis=1)
    index = (start[:, None] + np.arange(4)[None, :]) % 4
    return np.asarray(np.take_along_axis(ordered, index[..., None], axis=1))


def _distinct_rows(quads: FloatArray, count: int) -> FloatArray:
    """The first ``count`` candidates (in order) whose long sides differ from every earlier
    one's by more than 4 pixels where the sides' ends are."""
    left = np.ones(len(quads), dtype=bool)
    kept: list[int] = []
    while len(kept) < count and left.any():
        index = int(np.argmax(left))
        kept.append(index)
        quad = quads[index]
        same = np.ones(len(quads), dtype=bool)
        for a, b in ((0, 1), (3, 2)):
            direction = quad[b] - quad[a]
            normal = np.array([-direction[1], direction[0]]) / max(
                float(np.hypot(*direction)), 1e-9
            )
            offsets = (quads[:, [a, b]] - quad[a]) @ normal
            same &= np.abs(offsets).max(axis=1) <= 4.0
        left &= ~same
    return quads[kept]


_OBJECT = (-g.FRAME_WIDTH, -g.FRAME_WIDTH, g.PLAY_WIDTH + g.TRAY_GAP + g.TRAY_WIDTH + g.FRAME_WIDTH,
           g.PLAY_HEIGHT + g.FRAME_WIDTH)  # fmt: skip
"""A tournament board's outline on the plane: frame all round, trays on one side."""


def _from_outline(lab: npt.NDArray[np.float32]) -> list[FloatArray]:
    """Playing-area guesses (in the plane's order) from the board's outline against the table.

    The table is what the frame's border shows; the largest region unlike it is the board. Its
    four-sided outline holds the playing area at tournament proportions, with the trays at
    either end of the long side: one guess for each end. Where the points' own edges are too
    weak to pin a corner (a black point under black checkers on a black frame), the outline
    still does.
    """
    height, width = lab.shape[:2]
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    table = np.median(border, axis=0)
    distance = np.linalg.norm(lab - table, axis=2)
    spread = float(np.median(np.linalg.norm(border - table, axis=1)))
    mask = (distance > max(3.0 * spread, 18.0)).astype(np.uint8)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)), np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return []
    index = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[index, cv2.CC_STAT_AREA] < 0.15 * height * width:
        return []
    points = np.argwhere(labels == index)[:, ::-1].astype(np.float32)
    hull = cv2.convexHull(points)
    outline = None
    for tolerance in (0.01, 0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, tolerance * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            outline = np.array(order_clockwise(approx.reshape(4, 2)))
            break
    if outline is None:
        return []
    guesses = []
    x0, y0, x1, y1 = _OBJECT
    target = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=np.float32)
    for shift in range(4):
        # the outline's corners, starting at each of them, as the object's corners in turn
        source = np.roll(outline, -shift, axis=0).astype(np.float32)
        to_image = cv2.getPerspectiveTransform(target, source)
        guesses.append(cv2.perspectiveTransform(_PLANE_RECT[None], to_image)[0])
    return guesses


class Look(NamedTuple):
    """How hard the finder looks: the models it scores guesses on, and how it finds rows."""

    models: tuple[int, ...]
    """Indices into :data:`MODELS`."""
    row_pairs: int
    """How many pairs of rows are slid along."""
    across: float
    """The step each row is also looked for in across the rows (:func:`slide_across`), or 0 for
    none."""
    shapes: bool = False
    """Whether the board's own shape is fitted to the finalists (:func:`_fit_board`)."""


FIRST_LOOK = Look(
    tuple(
        index
        for index, model in enumerate(MODELS)
        if not model.bare_frame and model.strips == g.NO_MARGINS
    ),
    ROW_PAIRS,
    0.0,
)
"""Rows where the frame's lines show them, scored on the points alone."""
SHAPES_LOOK = FIRST_LOOK._replace(shapes=True)
"""The first look again, the board's own shape fitted to its finalists (:func:`_fit_board`):
taken last, when no other look proves a board, as shapes fitted freely let a board shifted
by a point prove itself where the looks before find the true one (black points on a black
frame)."""
STRIPS_LOOK = Look(
    tuple(
        sorted((MODELS.index(Model(SHAPES[0], False, strips)) for strips in STRIPPED), reverse=True)
    ),
    ROW_PAIRS,
    0.0,
)
"""Beside the first look, with strips of field round the points (the widest strips first: the
candidates are slid along their rows with them)."""
SECOND_LOOKS = tuple(
    Look(
        tuple(index for index, model in enumerate(MODELS) if model.bare_frame),
        HIDDEN_ROW_PAIRS,
        step,
    )
    for step in ACROSS_STEPS
)
"""When the first look proves no board: rows looked for across the rows too, and scored with
the frame past the bases bare, for rows whose own edge does not show (checkers stacked on the
points, black points on a black frame). Only then, as it is slower, and as a frame's texture
past the bases can lead it astray where the first look does well. Where a row's edge does not
show, its place is less sharply fixed, and a search this wide can settle on a wrong place that
still proves itself; a wrong place depends on the search's steps, the right one does not, so
the look is taken with two steps and a board is reported only where both agree."""
SAME_BOARD = 0.01
"""How close (as a share of the frame's longer side) the second look's two boards must be, at
every corner, to count as one."""


class _Frame(NamedTuple):
    """What every look at one frame shares."""

    image: Image
    factor: float
    """Working size over full size."""
    gradient: Gradient
    tolerant: Gradient
    blurred: Gradient
    full: Gradient
    texture: float
    segments: FloatArray
    candidates: FloatArray
    """Candidates bounded by the frame's lines, each both ways round (either pair of opposite
    sides as the rows)."""
    outline: list[FloatArray]


class _Guess(NamedTuple):
    """A look's best guess, and how well it proves itself a board (:func:`_contrasts`)."""

    score: float
    corners: FloatArray
    """In the frame's pixels, in the plane's order."""
    contrasts: FloatArray
    strips: g.Margins = g.NO_MARGINS
    """The strips of field round the points it was fitted with."""
    shape: RowProportions = SHAPES[0]
    """The board's shape it was fitted with (:func:`fit_shape`)."""


ADVICE = (
    "Make sure the whole playing area is in view, unobstructed and evenly lit, or give its "
    'corners with --corners "x,y x,y x,y x,y"'
)
"""What a player can do when no board is found: every refusal ends with it."""


def find_board(image: Image) -> FoundBoard:
    """The playing area's corners (see the module's docstring for how they are found).

    Raises :class:`BoardNotFound` when no board shows, or none clearly enough to trust.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise BoardNotFound("the board finder needs a colour image (3 channels)")
    frame = _prepare(image)
    ranked = _rank(frame, frame.candidates, FIRST_LOOK)
    rows = _rows(frame, ranked, FIRST_LOOK.row_pairs)
    # kept for the look with the board's own shape, which fits the same candidates
    fitted = _fitted(frame, FIRST_LOOK, _slid(frame, FIRST_LOOK, rows))
    first = _look(frame, FIRST_LOOK, fitted)
    if first is None:
        raise BoardNotFound(
            "no board found: no four straight edges in the frame could bound a playing area. "
            + ADVICE
        )
    if STRIPS_LOOK.row_pairs != FIRST_LOOK.row_pairs:
        rows = _rows(frame, ranked, STRIPS_LOOK.row_pairs)
    stripped = _look(
        frame, STRIPS_LOOK, _fitted(frame, STRIPS_LOOK, _slid(frame, STRIPS_LOOK, rows))
    )
    proven = [first] if _proven(first, frame.texture) else []
    if (
        stripped is not None
        and _proven(stripped, frame.texture, MIN_STRIPS_QUARTER_CONTRAST)
        and _in_view(stripped.corners, image.shape[:2])
        and _strips_of_field(image, stripped)
    ):
        proven.append(stripped)
    if proven:
        guess: _Guess | None = _own_shape(frame, max(proven, key=lambda guess: guess.score))
    else:
        # (raises where its two takes disagree: the board may be in the wrong place, and a
        # shape fitted freely would not place it better)
        guess = _second_look(frame, ranked)
        if guess is None:
            # a board of other proportions than the looks', which none of them proves
            shaped = _look(frame, SHAPES_LOOK, fitted)
            if shaped is not None and _proven(shaped, frame.texture):
                guess = shaped
    if guess is not None:
        corners = guess.corners
        if guess.strips == g.NO_MARGINS:
            corners = grow_to_field(image, settle_rows(image, corners, guess.shape), guess.shape)
        if not _framed(image, corners):
            raise BoardNotFound(
                "no board found: the best guess lines up with two rows of points, but "
                "something other than the frame lies past one of its ends (a tray, or more "
                f"points), so it may be a point out along its rows. {ADVICE}"
            )
        return FoundBoard(
            order_clockwise(corners), guess.score / frame.texture, float(guess.contrasts[0])
        )
    # (a quarter whose points line up worse than nothing shows as 0)
    contrast, worst = (
        max(float(value), 0.0) for value in (first.contrasts[0], min(first.contrasts[1:]))
    )
    raise BoardNotFound(
        "no board found: nothing in the frame lines up like two rows of points split by a "
        f"bar (the best guess fits {contrast:.1f} times better than the same guess half a "
        f"point along, {MIN_CONTRAST:.1f} needed; {worst:.1f} times in its worst quarter, "
        f"{MIN_QUARTER_CONTRAST:.1f} needed). {ADVICE}"
    )


OWN_SHAPE_REACH = (0.5, 0.7)
"""How far (in points' widths along the rows, in frames' widths across them) fitting a proven
board's own shape (:func:`_own_shape`) may move any of its corners: the pattern of points
repeats, and a shape fitted freely could carry a board a whole point along, or a row onto the
frame's outer edge a frame's width away."""
OWN_SHAPE_GAIN = 1.08
"""How many times better a proven board's own shape must line up to be kept: on boards of
the canonical shape it gains 0-5% (and moves a corner a few pixels either way, as the frame's
wall seen from a tilted camera pulls it), on boards of other proportions mostly 20-60%."""


def _own_shape(frame: _Frame, guess: _Guess) -> _Guess:
    """A proven board with its own shape fitted (:func:`_shape_fitted`, without trying its
    neighbours): its corners land on the board's outline where the look's shapes put them a
    few pixels off. Kept when it proves itself too and no corner moved further than
    :data:`OWN_SHAPE_REACH`."""
    if guess.strips != g.NO_MARGINS:
        return guess
    gradient, factor = frame.gradient, frame.factor
    model, fitted = _shape_fitted(gradient, guess.corners * factor, Model(guess.shape, False), 0.0)
    polished = refine(frame.full, fitted / factor, model, 0.0, FINE_STEPS)[1]
    # where the corners moved, on the board's plane as the proven guess had it
    to_plane = np.linalg.inv(_homographies(guess.corners[None])[0])
    moved = np.abs(_project(to_plane, polished) - _PLANE_RECT)
    along, across = OWN_SHAPE_REACH
    if (moved[:, 0] > along * _point_width(guess.shape)).any() or (
        moved[:, 1] > across * g.FRAME_WIDTH
    ).any():
        return guess
    score = float(_scores(gradient, polished[None] * factor, model)[0])
    shaped = _Guess(
        score, polished, _contrasts(gradient, polished * factor, model), shape=model.shape
    )
    better = score >= OWN_SHAPE_GAIN * guess.score
    return shaped if better and _proven(shaped, frame.texture) else guess


def _second_look(frame: _Frame, ranked: FloatArray) -> _Guess | None:
    """The board :data:`SECOND_LOOKS` agree on; None when neither proves one.

    Raises :class:`BoardNotFound` when only one of them proves a board, or they prove two.
    """
    # the first look's most promising candidates, ranked again on the second look's cues
    ranked = _rank(frame, ranked, SECOND_LOOKS[0])
    # the looks differ only across the rows: their rows and ends along them are the same
    slid = _slid(frame, SECOND_LOOKS[0], _rows(frame, ranked, SECOND_LOOKS[0].row_pairs))
    guesses = [_look(frame, look, _fitted(frame, look, slid)) for look in SECOND_LOOKS]
    proven = [guess for guess in guesses if guess is not None and _proven(guess, frame.texture)]
    if not proven:
        return None
    if len(proven) < len(guesses):
        raise BoardNotFound(
            "no board found: the rows' own edges do not show, and the board lines up only when "
            f"looked for one way, not every way, so it may be in the wrong place. {ADVICE}"
        )
    corners = np.array([order_clockwise(guess.corners) for guess in proven])
    apart = float(np.linalg.norm(corners - corners[0], axis=2).max())
    if apart > SAME_BOARD * max(frame.image.shape[:2]):
        raise BoardNotFound(
            "no board found: the rows' own edges do not show, and the board lines up in two "
            f"places {apart:.0f} pixels apart. {ADVICE}"
        )
    return max(proven, key=lambda guess: guess.score)


IN_VIEW = 0.01
"""How far inside the frame's border (as a share of its longer side) a board with strips of
field must lie: the field's edge against the frame shows only where the frame is in view too."""


def _in_view(corners: FloatArray, size: tuple[int, ...]) -> bool:
    """Whether a playing area lies within the frame, clear of its border."""
    height, width = size[0], size[1]
    margin = IN_VIEW * max(height, width)
    xs, ys = corners[:, 0], corners[:, 1]
    return bool(
        (xs >= margin).all()
        and (xs <= width - 1 - margin).all()
        and (ys >= margin).all()
        and (ys <= height - 1 - margin).all()
    )


STRIP_COLOUR = 20.0
"""How far (Lab distance, lightness counted half: light falls unevenly) a spot on a strip may
be from the field's colour between the rows and still show the field."""
SHADE = (0.45, 1.15)
"""How brightly (as a share of the open field's light between the rows) a spot may be lit and
show the field in shade (:func:`_shows_field`): a desk lamp's pool fades toward the board's
ends and the walls cast hard shadows on the strips beside them, 0.5-0.7 as bright."""
SHADE_HUE = 0.07
"""How far apart (natural logarithm) a spot's three channels' ratios to the field's may lie and
still show the field in shade: a shadow darkens every channel alike, so the field in shade is
its own colour scaled, where a frame or a point darker than the field differs by channel."""
FIELD_HUE = 2 * SHADE_HUE
"""How far (natural logarithm) the field's own channels must lie from their mean for its shade
to be told at all: a near-white or grey field darkened alike is any grey, a grey rim drawn
round the playing area or the blur between the field and a black frame as much as a strip in
shade, so such a field shows only as lit."""
SEEN_STRIP = 4.0
"""Narrower strips (millimetres) are too narrow to tell their colour from the points' or the
frame's beside them."""
NEAR_POINTS = 0.65
"""Where across a strip its colour is looked at, from the frame (0) to the points (1): nearer
the points, which a guess places better than the frame's edge."""
STRIP_SHOWN = 0.4
"""The share of each strip that must show the field's colour: checkers leaning over a strip
hide some of it, a frame taken for a strip shows none."""


def _strips_of_field(image: Image, guess: _Guess) -> bool:
    """Whether a guess's strips show the field's colour, as strips of field do: a guess that
    took the frame round the points for strips (a board without them) shows the frame's.

    Spots along each strip's middle are compared with the median colour along the middle of
    the open field between the two rows' tips. A guess without strips wide enough to look
    at is no board with strips.
    """
    strips = guess.strips
    to_image = _homographies(guess.corners[None])[0]
    along = np.linspace(0.05, 0.95, 60) * g.PLAY_WIDTH
    # each strip's middle: a line inside the playing area's side
    sides = [(0, strips.edge), (2, strips.edge)] if strips.edge >= SEEN_STRIP else []
    if strips.frame >= SEEN_STRIP:
        sides += [(3, strips.frame), (1, strips.frame)]
    if not sides:
        return False
    field = _field_colour(image, to_image, along)
    return all(
        _field_shares(image, to_image, field, side, np.array([-width * NEAR_POINTS]), along)[0]
        >= STRIP_SHOWN
        for side, width in sides
    )


def _proven(guess: _Guess, texture: float, quarter: float = MIN_QUARTER_CONTRAST) -> bool:
    """Whether a guess lines up like a board (the module's docstring, step 4), each quarter at
    least ``quarter`` times better than half a point along."""
    return (
        guess.contrasts[0] >= MIN_CONTRAST
        and min(guess.contrasts[1:]) >= quarter
        and guess.score / texture >= MIN_SCORE
    )


def _prepare(image: Image) -> _Frame:
    """The frame at the working size, its edges and the candidates its lines bound."""
    height, width = image.shape[:2]
    factor = WORK_WIDTH / max(width, height)
    small = np.asarray(
        cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), np.uint8
    )
    gradient = _edge_strength(small)
    gray = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    segments = _segments(gray)
    lines = merge_segments(segments)
    quads = _candidates(_families(lines, segments), (small.shape[1], small.shape[0]))
    both = np.zeros((0, 4, 2))
    if len(quads):
        clockwise = _clockwise(quads)
        both = np.concatenate([clockwise, np.roll(clockwise, -1, axis=1)])
    return _Frame(
        image=image,
        factor=factor,
        gradient=gradient,
        # candidates are ranked and slid on edges thickened by two pixels, so that a guess a
        # little off still ranks
        tolerant=np.asarray(cv2.dilate(gradient, np.ones((5, 5), np.uint8)), dtype=np.float32),
        # the slid candidates are close: ranked on edges only slightly blurred, which tells
        # the points' sides from mere texture better than thickened edges do
        blurred=np.asarray(cv2.GaussianBlur(gradient, (0, 0), 1.0), dtype=np.float32),
        # the finest fit is on the frame itself, where an edge is twice as sharp
        full=_edge_strength(np.asarray(image, np.uint8)),
        texture=float(np.median(gradient)) + 1.0,
        segments=segments,
        candidates=both,
        outline=_from_outline(cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)),
    )


RANKED = 3000
"""How many of the candidates bounded by lines, the most promising first, are kept."""


def _rank(frame: _Frame, candidates: FloatArray, look: Look) -> FloatArray:
    """The most promising candidates first (at most :data:`RANKED`), scored on the look's
    first model with edges thickened (:attr:`_Frame.tolerant`)."""
    if not len(candidates):
        return candidates
    scores = _scores(frame.tolerant, candidates, look.models[0], every=5)
    return np.asarray(candidates[np.argsort(-scores)][:RANKED])


def _rows(frame: _Frame, ranked: FloatArray, row_pairs: int) -> list[FloatArray]:
    """The ``row_pairs`` most promising distinct pairs of rows, each set upright."""
    return [upright(quad, frame.segments) for quad in _distinct_rows(ranked, row_pairs)]


def _slid(frame: _Frame, look: Look, rows: list[FloatArray]) -> list[FloatArray]:
    """One candidate for each pair of ``rows`` (:func:`_rows`, the look's number of them), its
    ends found by sliding along them (step 2 of the module's docstring)."""
    return [slide(frame.tolerant, quad, look.models[0]) for quad in rows]


def _fitted(
    frame: _Frame, look: Look, slid: list[FloatArray]
) -> list[tuple[float, int, FloatArray]]:
    """A look's slid candidates (:func:`_slid`) and the frame's outline guesses, the most
    promising fitted on the model each fits best (step 3 of the module's docstring): (score,
    index into :data:`MODELS`, corners), the best first. It depends only on the look's models
    and step across, so looks that share them share it (:data:`SHAPES_LOOK`)."""
    if look.across:
        slid = [slide_across(frame.tolerant, quad, look.models[0], look.across) for quad in slid]
    candidates = np.array(slid + frame.outline)
    gradient = frame.gradient
    fitted: list[tuple[float, int, FloatArray]] = []
    if len(candidates):
        fits = np.array([_scores(frame.blurred, candidates, model) for model in look.models])
        order = np.argsort(-fits.max(axis=0))[:REFINED]
        best_models = np.argmax(fits, axis=0)
        for position, model in enumerate(look.models):
            chosen = order[best_models[order] == position]
            if len(chosen):
                scores, refined = refine_many(
                    gradient, candidates[chosen], model, _area_min(gradient), FINE_STEPS
                )
                fitted.extend(zip(scores.tolist(), [model] * len(chosen), refined, strict=True))
    fitted.sort(key=lambda entry: -entry[0])
    return fitted


def _area_min(gradient: Gradient) -> float:
    """The least area (working pixels) a playing area may take (:data:`LEAST_AREA`)."""
    return float(LEAST_AREA * gradient.shape[0] * gradient.shape[1])


def _look(frame: _Frame, look: Look, fitted: list[tuple[float, int, FloatArray]]) -> _Guess | None:
    """The best guess of one look from its fitted candidates (:func:`_fitted`), or None when
    none could be a playing area."""
    if not fitted:
        return None
    gradient, factor = frame.gradient, frame.factor
    area_min = _area_min(gradient)
    shaped = (
        [_fit_board(gradient, quad, index, area_min) for _, index, quad in fitted[:FINALISTS]]
        if look.shapes
        else [(score, MODELS[index], quad) for score, index, quad in fitted]
    )
    shaped.sort(key=lambda entry: -entry[0])
    if not look.shapes:
        score, best, quad = shaped[0]
        neighbour = _best_neighbour(gradient, quad, best, area_min, score)
        if neighbour is not None:
            shaped.insert(0, (neighbour[0], best, neighbour[1]))
    # the last, finest fit on the frame itself: the best few are fitted there, as a corner the
    # points cannot pin at the working size may be pinned now
    final: tuple[float, Model, FloatArray] | None = None
    for current, fit, guess in shaped[:FINALISTS]:
        if fit.strips != g.NO_MARGINS:
            # the strips measured where this guess puts the points, kept when they fit better
            measured, field = measure_strips(gradient, guess, fit)
            if _scores(gradient, field[None], measured)[0] > current:
                fit, guess = measured, field
        polished = refine(frame.full, guess / factor, fit, 0.0, FINE_STEPS)[1]
        # judged at the working size, like every candidate before: the frame's sharpest
        # edges (its outline against the table) would outweigh the points at full size
        value = float(_scores(gradient, polished[None] * factor, fit)[0])
        if final is None or value > final[0]:
            final = (value, fit, polished)
    assert final is not None
    best_score, best_fit, polished = final
    contrasts = _contrasts(gradient, polished * factor, best_fit)
    return _Guess(best_score, polished, contrasts, best_fit.strips, best_fit.shape)


def _fit_board(
    gradient: Gradient, quad: FloatArray, index: int, area_min: float
) -> tuple[float, Model, FloatArray]:
    """A finalist with the board's own shape fitted (:func:`_shape_fitted`), then its
    neighbours tried (:func:`_best_neighbour`): (score, model, corners)."""
    model, quad = _shape_fitted(gradient, quad, index, area_min)
    score = float(_scores(gradient, quad[None], model)[0])
    neighbour = _best_neighbour(gradient, quad, model, area_min, score)
    if neighbour is not None:
        quad = neighbour[1]
        model = fit_shape(gradient, quad, model)
        score = float(_scores(gradient, quad[None], model)[0])
    return score, model, quad


def _shape_fitted(
    gradient: Gradient, quad: FloatArray, model: int | Model, area_min: float
) -> tuple[Model, FloatArray]:
    """A guess with the board's own shape fitted (:func:`fit_shape`), its ends and bar found
    along the rows with it (:func:`fit_along`), its corners fitted again (no smaller than
    ``area_min``) and its shape fitted to them: (model, corners)."""
    model = fit_shape(gradient, quad, model)
    model, quad = fit_along(gradient, quad, model)
    quad = refine(gradient, quad, model, area_min, FINE_STEPS, sides=True)[1]
    return fit_shape(gradient, quad, model), quad


def _best_neighbour(
    gradient: Gradient, quad: FloatArray, model: int | Model, area_min: float, score: float
) -> tuple[float, FloatArray] | None:
    """The best of a guess's neighbours (:func:`_neighbours`), fitted: (score, corners), or
    None when none lines up better than ``score``.

    The points' pattern repeats: a board off by a whole point at either end lines up nearly
    as well, and a frame's edges run beside the rows' edges, so the neighbours are tried too,
    and the bar, the ends and the points' bases and tips decide.
    """
    scores, trials = refine_many(gradient, _neighbours(quad, model), model, area_min, FINE_STEPS)
    if scores.max() > score:
        return float(scores.max()), trials[int(np.argmax(scores))]
    return None


STRIP_REACH = 18.0
"""The widest strip of field (millimetres) :func:`measure_strips` looks for: a frame is wider,
so its outer edge lies out of reach."""
STRIP_STEP = 0.5
"""The step (millimetres) it looks in."""
LEAST_STRIP = 2.0
"""Narrower strips are not told apart from the points they border."""
STRIP_EDGE = 0.4
"""How strong (as a share of the edge where the points start) the edge where a strip meets the
frame must be, above the strip's own middle, to count."""


def measure_strips(gradient: Gradient, quad: FloatArray, model: Model) -> tuple[Model, FloatArray]:
    """The strips of field round the points, measured where a guess with strips puts the
    points: (the model with the strips found, the playing area's corners).

    A guess fitted with strips of the wrong width has its points nearly right (they are the
    strongest cue) and the field's edges off by about the difference. Lines parallel to the
    rows (across the points) and to the ends (across the rows) are looked along, outward from
    where the points start: the field's edge against the frame is the line that stands out
    most above the bare strip halfway back to the points; where none stands out, the points
    reach the frame.
    """
    to_image = _homographies(quad[None])[0]
    strips = model.strips
    left, right = _halves(model.shape)
    offsets = np.arange(0.0, STRIP_REACH + 1e-9, STRIP_STEP)
    middles, widths = _point_middles(model)
    across = middles[:, None] + np.linspace(-0.4, 0.4, 10)[None] * widths[:, None]  # (12, 10)
    quarters = (np.arange(4)[:, None] + np.linspace(0.1, 0.9, 10)[None]) * g.PLAY_HEIGHT / 4
    lines: list[FloatArray] = []
    for offset in offsets:
        for y in (strips.edge - offset, g.PLAY_HEIGHT - strips.edge + offset):
            lines.extend(np.stack([part, np.full(10, y)], axis=1) for part in across)
        for x in (strips.frame - offset, g.PLAY_WIDTH - strips.frame + offset):
            lines.extend(np.stack([np.full(10, x), part], axis=1) for part in quarters)
    strengths = _sample(gradient, quad[None], np.array(lines))[0].reshape(len(offsets), -1)
    measured = []
    for profile in (strengths[:, :24].mean(axis=1), strengths[:, 24:].mean(axis=1)):
        # the strip's middle: halfway between the points and the line looked along
        stand_out = profile - profile[np.arange(len(offsets)) // 2]
        stand_out[offsets < LEAST_STRIP] = -np.inf
        pick = int(np.argmax(stand_out))
        strong = stand_out[pick] >= STRIP_EDGE * profile[0]
        measured.append(float(offsets[pick]) if strong else 0.0)
    edge, frame = measured
    x0, y0 = strips.frame - frame, strips.edge - edge
    x1, y1 = g.PLAY_WIDTH - x0, g.PLAY_HEIGHT - y0
    field = _project(to_image, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
    along, down = g.PLAY_WIDTH / (x1 - x0), g.PLAY_HEIGHT / (y1 - y0)
    # the points nearest the bar stay where they are: the strip beside it follows
    half = (left + right) / 2
    bar = max(0.0, half - (half - strips.bar - x0) * along)
    return model._replace(strips=g.Margins(frame * along, bar, edge * down)), field


def _neighbours(quad: FloatArray, model: int | Model) -> FloatArray:
    """The board with either end or both moved by one point along the rows (8 variants), and
    with either row or both moved in or out by a frame's width (12 variants)."""
    to_image = _homographies(quad[None])[0]
    width = _point_width(_model(model).shape)
    rects = []
    for left in (-1, 0, 1):
        for right in (-1, 0, 1):
            if left == right == 0:
                continue
            rect = _PLANE_RECT.copy()
            rect[[0, 3], 0] += left * width
            rect[[1, 2], 0] += right * width
            rects.append(rect)
    for step in (-2.0, -1.0, 1.0, 2.0):
        for top, bottom in ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)):
            rect = _PLANE_RECT.copy()
            rect[[0, 1], 1] -= top * step * g.FRAME_WIDTH / 2
            rect[[2, 3], 1] += bottom * step * g.FRAME_WIDTH / 2
            rects.append(rect)
    return _project(to_image, np.array(rects))


def _contrasts(gradient: Gradient, quad: FloatArray, model: int | Model) -> FloatArray:
    """How many times better the board lines up than the same board shifted by half a point
    either way along its rows (where a real board's point sides fall on the middle of the
    points), over the whole board and in each quarter (two halves by two rows): shape (5,)."""
    to_image = _homographies(quad[None])[0]
    shift = _point_width(_model(model).shape) / 2
    placed = [quad]
    for dx in (-shift, shift):
        placed.append(_project(to_image, _PLANE_RECT + np.array([dx, 0.0])))
    features = _arrays(model).proof
    weights = _arrays(model).proof_weights
    strengths = _sample(gradient, np.array(placed), features) * weights  # (3, F)
    middle = features.mean(axis=1)
    parts = [np.ones(len(features), dtype=bool)]
    for left in (True, False):
        for top in (True, False):
            parts.append(
                ((middle[:, 0] < g.PLAY_WIDTH / 2) == left)
                & ((middle[:, 1] < g.PLAY_HEIGHT / 2) == top)
            )
    contrasts = []
    for part in parts:
        here = float(strengths[0, part].sum())
        there = float(strengths[1:, part].sum(axis=1).max())
        contrasts.append(here / max(there, 1e-6))
    return np.array(contrasts)


GROW_REACH = 22.0
"""The widest strip of field (millimetres) :func:`grow_to_field` looks for round a proven
board: real boards leave 15 at most, and a frame (25 mm) is wider, so a frame of the field's
own colour (black on black) never ends within reach and is never taken for a strip."""
GROW_STEP = 0.5
"""The step (millimetres) it looks outward in."""
LEAST_GROWTH = 2.5
"""Narrower strips are left alone: a proven board's edge is a pixel or two off anyway, and a
frame's shadow lies along it."""
FIELD_SHARE = 0.5
"""The share of a line's spots that must show the field's colour for the line to lie on a
strip of field."""
FRAME_SHARE = 0.2
"""The most of the frame just past a strip that may show the field's colour: a strip ends where
the frame begins, and a colour that goes on is no strip's."""
PAST_STRIP = (2.0, 7.0)
"""Where past a strip's end (millimetres) the frame is looked at."""
EDGE_BLUR = 2.0
"""How far outside a side (millimetres) a strip may first show: the side's own edge blurs."""
INSIDE_SHARE = 0.7
"""How much of a strip found past one side only (as a share of its width) must show inside the
opposite side for the strip to be kept (:func:`grow_to_field`)."""


_DOWN = np.linspace(0.05, 0.95, 60) * g.PLAY_HEIGHT
"""Where spots lie down a line along one of the playing area's ends (mm from the top row)."""


def _side_line(side: int, offset: float, along: FloatArray) -> FloatArray:
    """Plane spots on the line ``offset`` millimetres out from one side of a playing area (0
    top, 1 right, 2 bottom, 3 left, as the plane has them; negative: in): at ``along`` on the
    rows' lines, at :data:`_DOWN` on the ends'."""
    if side in (0, 2):
        y = -offset if side == 0 else g.PLAY_HEIGHT + offset
        return np.column_stack([along, np.full(len(along), y)])
    x = g.PLAY_WIDTH + offset if side == 1 else -offset
    return np.column_stack([np.full(len(_DOWN), x), _DOWN])


def _bgr_at(image: Image, to_image: FloatArray, points: FloatArray) -> FloatArray:
    """The frame's pixels at plane ``points`` (..., 2): (..., 3)."""
    pixels = np.asarray(image, np.uint8)
    height, width = pixels.shape[:2]
    spots = _project(to_image, points.reshape(-1, 2))
    xs = np.clip(np.round(spots[:, 0]), 0, width - 1).astype(np.intp)
    ys = np.clip(np.round(spots[:, 1]), 0, height - 1).astype(np.intp)
    return pixels[ys, xs].astype(np.float64).reshape(*points.shape[:-1], 3)


def _lab_at(image: Image, to_image: FloatArray, points: FloatArray) -> FloatArray:
    """L*a*b* (lightness halved: light falls unevenly) of the frame's pixels at plane
    ``points`` (..., 2) (:func:`_lab`): only those pixels are converted."""
    return _lab(_bgr_at(image, to_image, points))


LOG_OFFSET = 4.0
"""Added to the frame's channels before their logarithm (:func:`_log_colour`): a black pixel's
noise would otherwise swing it without end."""


def _log_colour(bgr: FloatArray) -> FloatArray:
    """The frame's colours in logarithms, so that light falling on them (a shadow, a lamp's
    pool) is one shift of every channel alike."""
    return np.asarray(np.log(bgr + LOG_OFFSET), dtype=np.float64)


class _Field(NamedTuple):
    """The open field's colour between the two rows' tips (:func:`_field_colour`)."""

    lab: FloatArray
    """As :func:`_lab_at` gives it."""
    log: FloatArray
    """Its channels in logarithms (:func:`_log_colour`)."""
    hued: bool
    """Whether it has hue enough of its own to tell in shade (:data:`FIELD_HUE`)."""

    @classmethod
    def of(cls, bgr: FloatArray) -> _Field:
        log = _log_colour(bgr)
        return cls(_lab(bgr), log, bool(np.abs(log - log.mean()).max() >= FIELD_HUE))


def _lab(bgr: FloatArray) -> FloatArray:
    """L*a*b* (lightness halved: light falls unevenly) of the frame's colours ``bgr`` (..., 3)."""
    pixels = np.clip(np.round(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB)[:, 0].astype(np.float64)
    lab[:, 0] *= 0.5
    return np.asarray(lab.reshape(bgr.shape), dtype=np.float64)


def _field_colour(image: Image, to_image: FloatArray, along: FloatArray) -> _Field:
    """The median colour of the open field between the two rows' tips, at ``along`` on the
    playing area's middle line."""
    middle = np.column_stack([along, np.full(len(along), g.PLAY_HEIGHT / 2)])
    bgr = np.asarray(np.median(_bgr_at(image, to_image, middle), axis=0), dtype=np.float64)
    return _Field.of(bgr)


def _shows_field(bgr: FloatArray, field: _Field) -> npt.NDArray[np.bool_]:
    """Whether spots of the frame's colours ``bgr`` (..., 3) show the field: its colour as
    lit between the rows (within :data:`STRIP_COLOUR`), or that colour in shade (every channel
    darkened alike, within :data:`SHADE_HUE`, to no less than :data:`SHADE`'s share): a strip
    of field in a wall's shadow is no other colour, only less lit. A field with too little hue
    of its own (:data:`FIELD_HUE`) shows only as lit."""
    lit = np.linalg.norm(_lab(bgr) - field.lab, axis=-1) <= STRIP_COLOUR
    if not field.hued:
        return np.asarray(lit)
    ratios = _log_colour(bgr) - field.log
    light = ratios.mean(axis=-1)
    alike = np.abs(ratios - light[..., None]).max(axis=-1) <= SHADE_HUE
    shaded = alike & (light >= math.log(SHADE[0])) & (light <= math.log(SHADE[1]))
    return np.asarray(lit | shaded)


def _field_shares(
    image: Image,
    to_image: FloatArray,
    field: _Field,
    side: int,
    offsets: FloatArray,
    along: FloatArray,
) -> FloatArray:
    """For lines parallel to one side of a playing area (0 top, 1 right, 2 bottom, 3 left, as
    the plane has them), ``offsets`` millimetres out from it (negative: in), the share of each
    line's spots that show the field's colour (:func:`_side_line`)."""
    lines = [_side_line(side, offset, along) for offset in offsets]
    colours = _bgr_at(image, to_image, np.array(lines))
    return np.asarray(_shows_field(colours, field).mean(axis=1))


ROW_REACH = 10.0
"""How far (millimetres) :func:`settle_rows` moves a row in or out: a frame's wall seen from a
tilted camera, or its shadow on the field, lies a few millimetres beside the row's true line."""
ROW_STEP = 0.5
"""The step (millimetres) it looks across the rows in."""
ROW_INSIDE = (-16.0, -11.0)
"""Where inside a row (millimetres, negative: in), past the reach, each point's own colour is
taken."""
POINT_COLOUR = 0.3
"""How far (logarithmic colour) a point's colour on a line may lie from its own colour inside
the row, once the light common to the row's points is taken out, for the line to lie on it."""
ON_POINTS = 0.6
"""The share of a row's points that must show their own colours for a line to lie on the
points: past the bases, one colour (the frame's, the wall's, a strip's) matches at most one of
the points' two colours, and the opening's checkers cover four points of each row."""
ROW_END = (2.0, 3.0, 0.3)
"""Lines over the first millimetres of the reach must show the points (at least
:data:`ON_POINTS` of them on average), and the row ends before the first run of lines (the
second, millimetres) showing at most the last share on average: points under checkers, or in
a checker's shadow, leave single lines either way."""
LEAST_MOVE = 2.0
"""Rows that would move less (millimetres) stay: the points' edges place a row to a pixel or
so when it is on its bases, and the colours judge it less finely."""
OUT_MARGIN = 1.0
"""How far (millimetres) short of where its points seem to end a row moved out stops: the
colours place the end to a millimetre or so, and a row that short of its bases costs the
reader nothing where one beyond them, on the wall, costs readings."""
EACH_COLOUR = 0.25
"""The share of each of the points' two colours (alternate points) that must show their own
colours on every line a row moves out across: past the bases the frame's colour can match one
of the two colours, as a black frame round black and red points does (the black points seem
to go on, the red ones stop at once), never both."""


class _OnPoints(NamedTuple):
    """How much of a row's points show their own colours on lines across it
    (:func:`_on_points`), each of shape (lines,)."""

    share: FloatArray
    """The share of all twelve points."""
    each: FloatArray
    """The smaller of the two colours' shares (alternate points)."""


def _on_points(
    image: Image, to_image: FloatArray, shape: RowProportions, side: int, offsets: FloatArray
) -> _OnPoints:
    """How much of a row's points show their own colours (as inside the row, at
    :data:`ROW_INSIDE`) on lines ``offsets`` millimetres out from the row (side 0 the top row,
    2 the bottom, as the plane has them; negative: in).

    Each point's colour is the median of five spots about its middle, in logarithms, so that a
    shadow falling across the row (the same darkening for every point) is one shift common to
    all points, which is taken out (their median shift); what is left shows whether each point
    goes on. The shift is each half's own: a shadow may fall across one half only."""
    middles, widths = _point_middles(Model(shape, False))
    across = (middles[:, None] + np.linspace(-0.2, 0.2, 5)[None] * widths[:, None]).ravel()
    inside = np.arange(ROW_INSIDE[0], ROW_INSIDE[1] + 1e-9, ROW_STEP)

    def colours(at: FloatArray) -> FloatArray:
        lines = np.array([_side_line(side, offset, across) for offset in at])
        spots = _log_colour(_bgr_at(image, to_image, lines)).reshape(len(at), 12, 5, 3)
        return np.asarray(np.median(spots, axis=2))  # (lines, 12 points, 3)

    own = np.median(colours(inside), axis=0)  # (12, 3)
    moved = (colours(offsets) - own).reshape(len(offsets), 2, 6, 3)
    light = np.median(moved.mean(axis=3), axis=2)  # (lines, halves)
    shown = np.linalg.norm(moved - light[..., None, None], axis=3) <= POINT_COLOUR
    each = np.minimum(shown[:, :, 0::2].mean(axis=(1, 2)), shown[:, :, 1::2].mean(axis=(1, 2)))
    return _OnPoints(np.asarray(shown.mean(axis=(1, 2))), np.asarray(each))


FAR_ROW = 0.97
"""How much shorter (as a share of the other's length) a row must look to be the far one of a
tilted camera's view, whose wall's inner face shows beyond it."""


def settle_rows(image: Image, corners: FloatArray, shape: RowProportions) -> FloatArray:
    """A proven board's rows (the frame's pixels, the plane's order) moved across to where its
    points' bases end: the line beyond which the points no longer show their own colours.

    The points' edges place a row on the strongest line along the bases, which under a lamp
    need not be the bases' own: a tilted camera sees the far wall's lit top edge beyond them,
    and the near wall's hard shadow draws a line across the points short of them, where the
    bases meet the wall in shade with little contrast. Both lines have one colour on both
    sides (the frame's), or the points' colours on both sides, only less lit on one; the bases'
    line alone has the points on one side and one colour on the other. A row whose points do
    not show where it says they do is left where it is. Only the far row of a tilted camera's
    view (:data:`FAR_ROW`) moves in: the near wall's inner face does not show, and a real
    board's points may end short of their row (rounded, before a strip of the frame's wood).
    A row moves out only as far as points of both colours go on (:data:`EACH_COLOUR`): a frame
    of one of their colours carries half the points on past the bases, nearly halfway between
    the points' share and the share past them, and a single line of the other colour's paint
    at the wall's foot would otherwise draw the row onto the wall. It stops
    :data:`OUT_MARGIN` short of that: a dark frame can pass for dark points under a dim lamp
    for a millimetre or two.
    """
    to_image = _homographies(corners[None])[0]
    offsets = np.arange(-ROW_REACH, ROW_REACH + 1e-9, ROW_STEP)
    row = int(np.searchsorted(offsets, 0.0))  # the line the row lies on
    halfway = (ON_POINTS + ROW_END[2]) / 2
    before, after = (round(reach / ROW_STEP) for reach in ROW_END[:2])
    top, bottom = (float(np.hypot(*(corners[b] - corners[a]))) for a, b in ((0, 1), (3, 2)))
    far = (top < FAR_ROW * bottom, bottom < FAR_ROW * top)
    rect = _PLANE_RECT.copy()
    for side, corners_of_row, outwards in ((0, [0, 1], -1.0), (2, [2, 3], 1.0)):
        share, each = _on_points(image, to_image, shape, side, offsets)
        if share[:before].mean() < ON_POINTS:
            continue  # the reach's inner end is not on the points
        # the first run of lines past the points, outward; the row ends before it, where the
        # share passes halfway between the points' and the lines' past them
        past = [
            i for i in range(len(offsets) - after + 1) if share[i : i + after].mean() <= ROW_END[2]
        ]
        if not past:
            continue
        on = [i for i in range(past[0]) if share[i] > halfway]
        end = float(offsets[on[-1]]) + ROW_STEP / 2 if on else 0.0
        if end < 0.0 and not far[side // 2]:
            continue
        if end > 0.0:
            # out only across lines on which the points go on, both colours of them
            going_on = (share[row:] > halfway) & (each[row:] >= EACH_COLOUR)
            lines_on = int(np.argmin(going_on)) if not going_on.all() else len(going_on)
            end = min(end, max(lines_on - 0.5, 0.0) * ROW_STEP)
        if abs(end) >= LEAST_MOVE:
            rect[corners_of_row, 1] += outwards * (end - OUT_MARGIN if end > 0.0 else end)
    return _project(to_image, rect)


def grow_to_field(image: Image, corners: FloatArray, shape: RowProportions) -> FloatArray:
    """A proven board's corners (the frame's pixels, the plane's order) grown over the strips
    of field that lie round them: the playing area is the whole field inside the frame, and a
    board proven on its points alone (their bases, the ends of its rows) stops where the
    points do.

    Outward from each side, lines parallel to it are looked along: a strip is field-coloured
    (the colour of the open field between the rows' tips) from the side out to where the
    frame begins, and the frame just past it is not. A side with no such strip within
    :data:`GROW_REACH` stays where it is: a board without strips has its frame there, which
    shows the frame's colour, or the field's own colour all the way across (a frame coloured
    like the field never ends within reach).

    A maker leaves strips at both ends, and along both rows, or at neither. A strip past one
    side only is kept where the other side shows one inside it (the board was proven on the
    frame's edge there, on the points' bases here); otherwise it is a frame coloured like the
    field (a wooden board's) that ends where a tray's border begins, and both sides stay.
    """
    to_image = _homographies(corners[None])[0]
    left, right = _halves(shape)
    along = np.linspace(0.03, 0.97, 120) * g.PLAY_WIDTH
    # the rows' lines, clear of the bar (which crosses the strips along the frame)
    along = along[(along < left - 10.0) | (along > g.PLAY_WIDTH - right + 10.0)]
    field = _field_colour(image, to_image, along)
    offsets = np.arange(GROW_STEP, GROW_REACH + PAST_STRIP[1] + 1e-9, GROW_STEP)
    grown = []
    for side in range(4):  # top, right, bottom, left: outward from each
        shares = _field_shares(image, to_image, field, side, offsets, along)
        # the side's own line (the points' bases, a blurred edge) may hide a strip's first
        # millimetre or two
        on_strip = [i for i in range(len(offsets)) if offsets[i] <= EDGE_BLUR]
        on_strip = [i for i in on_strip if shares[i] >= FIELD_SHARE]
        end = on_strip[0] if on_strip else 0
        while on_strip and end < len(offsets) and shares[end] >= FIELD_SHARE:
            end += 1
        # where the last line on the strip and the first past it meet
        width = (end + 0.5) * GROW_STEP if on_strip else 0.0
        past = (offsets >= width + PAST_STRIP[0]) & (offsets <= width + PAST_STRIP[1])
        strip = (
            LEAST_GROWTH <= width <= GROW_REACH
            and past.any()
            and float(shares[past].mean()) <= FRAME_SHARE
        )
        grown.append(width if strip else 0.0)
    for side, opposite in ((0, 2), (2, 0), (1, 3), (3, 1)):
        if grown[side] and not grown[opposite]:
            inside = -np.arange(EDGE_BLUR, INSIDE_SHARE * grown[side] + 1e-9, GROW_STEP)
            if (
                not len(inside)
                or float(_field_shares(image, to_image, field, opposite, inside, along).min())
                < FIELD_SHARE
            ):
                grown[side] = 0.0
    top, right_end, bottom, left_end = grown
    rect = np.array(
        [
            (-left_end, -top),
            (g.PLAY_WIDTH + right_end, -top),
            (g.PLAY_WIDTH + right_end, g.PLAY_HEIGHT + bottom),
            (-left_end, g.PLAY_HEIGHT + bottom),
        ]
    )
    return _project(to_image, rect)


FRAME_COLOUR = 30.0
"""How far (Lab distance, lightness halved) the colour just past either end of a board may lie
from the colour just past the nearer of its rows: one frame runs all round a playing area
(simulated boards' own frames differ by 26 at most, lit from one side and seen tilted), while a
board found a point along its rows has a point and its checkers, or a tray, past one end
(31-103 on development boards)."""
PAST_SIDE = (3.0, 10.0)
"""Where past each side (millimetres) the frame's colour is looked at."""


def _colour_past(image: Image, to_image: FloatArray, side: int) -> FloatArray:
    """The median colour (L*a*b*, lightness halved) of the band :data:`PAST_SIDE` past one
    side of a playing area (0 top, 1 right, 2 bottom, 3 left, as the plane has them)."""
    along = np.linspace(0.05, 0.95, 80) * g.PLAY_WIDTH
    pasts = np.arange(PAST_SIDE[0], PAST_SIDE[1] + 1e-9, 1.0)
    lines = [_side_line(side, past, along) for past in pasts]
    return np.asarray(np.median(_lab_at(image, to_image, np.concatenate(lines)), axis=0))


def _framed(image: Image, corners: FloatArray) -> bool:
    """Whether the frame's colour lies round a playing area (the frame's pixels, the plane's
    order), past its ends as past its rows."""
    to_image = _homographies(corners[None])[0]
    colours = [_colour_past(image, to_image, side) for side in range(4)]
    rows = (colours[0], colours[2])
    return all(
        min(float(np.linalg.norm(colours[end] - row)) for row in rows) <= FRAME_COLOUR
        for end in (1, 3)
    )

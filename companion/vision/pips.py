"""Reading a die's top face: how many pips, where, and how sure.

Conventions: a face is seen in a square patch (pixels); a standard die's pips lie about 0.27 of
its edge apart (the pip *step*). Pips sit on a 3x3 grid of cells (the centre, the four corners,
the middle of two sides) along the face's own two axes, and each value lights a fixed subset of
it.

Reading takes two steps. The pip-like spots of the patch propose grids (:func:`fit_grids`:
turns from pairs of spots, centres by voting, the axes fitted to the pips when four or more
show, so a tilted face's squashed grid is followed). Then the face's own pixels judge every
value's pattern on each grid, moved a little every way (:func:`explain_face`): the lit cells
must all differ from the bare face, alike, by more than anything else on it (an empty cell, a
stray spot, the face's edge, a checker's rim) differs; a difference the other way in colour (a
glint on a die with dark pips) counts only in part. So a pip the spot finder missed still
counts, a face that is not one (a gap between checkers, a side face's lone pip beside the top)
scores low, and the confidence is the margin over the best other value: a smudged, glared or
half-hidden face reads as unsure rather than wrong.

Colour-blind by design: pips may be darker or lighter than the face, of any colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.maps import weighted_norm

FloatImage = npt.NDArray[np.float32]
Axes = tuple[tuple[float, float], tuple[float, float]]
"""Pixels from one cell of a face to the next along its two axes: ``(across, down)``."""

# Spots.
ROUNDNESS = 0.4
"""Least ratio of a spot's two curvatures for it to count as a round pip."""
PIP_LIKENESS = 0.55
"""A spot weaker than this share of the strongest pip is not a pip of the same die."""

# Grids proposed by the spots.
_PAIRS = ((1.0, 0.0), (2.0, 0.0), (math.sqrt(2), math.pi / 4), (2 * math.sqrt(2), math.pi / 4))
"""How far apart (in steps) two pips of a face may lie, and the turn of that line off the
face's axes: side by side, across the face, diagonal neighbours, corner to corner."""
_PAIR_RATIOS, _PAIR_OFFSETS = (np.array(column)[:, None] for column in zip(*_PAIRS, strict=True))
_PAIR_SLACK = 0.14 * _PAIR_RATIOS
"""How far (in steps) a pair's length may lie from each kind's and still be taken for it."""
MAX_TURNS = 6
"""At most this many turns of the grid are tried: those the spots' pairs agree on most."""
CORNER_REACH = 1.6
"""How far (pip steps) from a face's centre its farthest pips may show: a diagonal step
(1.41), and a little for a grid seen askew."""
TURN_APART = math.radians(4)
"""Turns closer than this are one (pip positions are not known finer)."""

# The consistency of a proposed grid (:func:`face_consistency`).
MARGIN = 1.5
"""Distance (in pip steps) from a face's centre to its margin, beyond the outer pips."""
FACE_SPREAD = 16.0
"""Largest L*a*b* difference between spots of bare face on one die."""

# The face's pixels (:func:`explain_face`).
FACE_HALF = 1.5
"""Half the flat of a face, in pip steps (a standard die's flat is 0.88 of its 16 mm edge, its
pips 0.27 of the edge apart: 1.63 steps; a little is left for the rounded rim)."""
PIP_SAMPLE = 0.18
"""Radius (pip steps) of the ring of samples read round a cell's centre: inside a pip."""
BARE_CLEARANCE = 0.75
"""Bare-face samples lie at least this many steps from every lit cell: clear of a pip's
blurred rim (real dice's pips reach 0.45 of a step from their centres, and a small die
enlarged blurs them further)."""
BARE_QUANTILE = 0.97
"""The bare face's spread is read at this quantile of its samples (a stray sample or two of
a pip's blurred rim aside)."""
FACE_NOISE = 6.0
"""Least colour gap (L*a*b* units) anything on a face is taken to show: camera noise."""
ONE_STEP = 0.9
"""Least share of the nominal pip step at which a lone pip is read as a one."""
OFF_KIND = 0.5
"""Share of a difference from the bare face that counts against the pips when it goes the
other way from them in colour (a glint on a die with dark pips, a shadow on one with light
pips): nothing the pips could be mistaken for."""
OFF_WAY = math.sqrt(1.0 - OFF_KIND * OFF_KIND)
"""The part along the pips' colour line, of a difference going the other way, that is
discounted (its square is: what is left counts ``OFF_KIND`` of the whole)."""
LEFT_OVER_REACH = 3.2
"""How far (pip steps) from a face's centre a spot left unexplained counts against it: as far
as the pips of a two or a four seen from one of their corners."""
LEFT_OVER_PENALTY = 0.8
"""Share of its score a pattern keeps for each strong spot near the face it leaves
unexplained."""

_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, 1), (-1, 1), (1, -1)),
    5: ((-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
_GRID = tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1))


def _patterns() -> list[tuple[int, npt.NDArray[np.bool_]]]:
    patterns: list[tuple[int, npt.NDArray[np.bool_]]] = []
    for value, layout in _LAYOUTS.items():
        for turned in (False, True):
            spots = {(-y, x) if turned else (x, y) for x, y in layout}
            lit = np.array([spot in spots for spot in _GRID])
            if not any(v == value and np.array_equal(lit, p) for v, p in patterns):
                patterns.append((value, lit))
    return patterns


PATTERNS = _patterns()


def _valid_cells() -> set[frozenset[tuple[int, int]]]:
    valid = set()
    for layout in _LAYOUTS.values():
        cells = list(layout)
        for _ in range(4):
            valid.add(frozenset(cells))
            cells = [(-y, x) for x, y in cells]
    return valid


VALID_CELLS = _valid_cells()
_FACE_PIPS = np.full(513, -1, dtype=np.int64)
"""Per bit mask of the nine cells (bit ``(across + 1) * 3 + (down + 1)``), how many pips a
valid face lighting those cells shows; -1 for masks no face shows (the last entry stands for
every mask beyond nine bits: two spots taken for one cell carry into higher bits)."""
for _cells in VALID_CELLS:
    _FACE_PIPS[sum(1 << ((a + 1) * 3 + (b + 1)) for a, b in _cells)] = len(_cells)


def axes_of(angle: float, step: float) -> Axes:
    """A square grid's axes: turned by ``angle``, ``step`` pixels from cell to cell."""
    c, s = math.cos(angle), math.sin(angle)
    return ((c * step, s * step), (-s * step, c * step))


@dataclass(frozen=True, slots=True)
class FaceRead:
    value: int
    confidence: float
    centre: tuple[float, float]
    """Where the pip grid's centre was found, in patch pixels."""
    angle: float
    """The grid's turn in radians: the direction of the first axis ``cells`` count along."""
    step: float
    """The pip step found, in patch pixels."""
    cells: frozenset[tuple[int, int]] = frozenset()
    """Grid cells holding a pip, as ``(across, down)`` in -1..1 along the face's turned axes."""
    aspect: float = 1.0
    """See :attr:`GridFit.aspect`."""
    axes: Axes | None = None
    """Patch pixels from one cell to the next along the face's two axes, when measured (else
    ``angle`` and ``step`` make a square grid)."""
    pip_axes: Axes | None = None
    """The same, measured on the face's own pips one by one (:func:`measured_grid`) where four
    or more are found: how the die's pose stretches its top."""

    def offset(self, across: float, down: float) -> tuple[float, float]:
        """Where cell ``(across, down)`` lies from the face's centre, in patch pixels."""
        (ux, uy), (vx, vy) = self.axes if self.axes is not None else axes_of(self.angle, self.step)
        return (across * ux + down * vx, across * uy + down * vy)


@dataclass(frozen=True, slots=True)
class GridFit:
    """Pips found on one face: the grid's centre and turn, and which cells hold a pip."""

    centre: tuple[float, float]
    angle: float
    cells: frozenset[tuple[int, int]]
    strength: float
    """The weakest pip's contrast over the strongest spot left out inside the face."""
    aspect: float = 1.0
    """How square the pip grid shows (:func:`grid_squareness`): 1 on a face seen square-on,
    about cos(tilt) on a face tilted away (a cocked die's top), whichever way it tilts."""
    axes: Axes = ((1.0, 0.0), (0.0, 1.0))
    """Pixels from one cell to the next along the face's two axes (fitted to the pips when
    four or more show; else the turn and step)."""


@dataclass(frozen=True, slots=True)
class FaceModel:
    """How well the best pip pattern explains one face, and where the face lies."""

    value: int
    score: float
    """Weakest pip's colour gap from the bare face over the largest gap of anything else on
    the face (an empty cell, a stray spot, an edge): above 1 the pips stand alone."""
    runner_up: float
    """The best rank of a pattern of another value, at any place tried."""
    centre: tuple[float, float]
    axes: Axes
    """Pixels from one cell to the next along the face's two axes."""
    cells: frozenset[tuple[int, int]]
    rank: float = 0.0
    """The score as ranked against other patterns: lowered when the pattern leaves a strong
    spot just beyond the face unexplained (which ``runner_up`` is ranked by too)."""

    @property
    def step(self) -> float:
        """The mean pip step (pixels)."""
        return math.sqrt(abs(np.linalg.det(np.array(self.axes))))

    @property
    def angle(self) -> float:
        """The turn of the face's first axis (the one ``cells`` count along first)."""
        return math.atan2(self.axes[0][1], self.axes[0][0])

    @property
    def aspect(self) -> float:
        """How square the face shows: its axes' least over greatest stretch (1 square-on)."""
        stretches = np.linalg.svd(np.array(self.axes), compute_uv=False)
        return float(stretches[-1] / max(stretches[0], 1e-6))


def pip_difference(patch_lab: FloatImage, step: float) -> FloatImage:
    """Per channel, a pip-sized blur less a blur over its surroundings (a difference of
    Gaussians): how far each pixel's colour stands out as a spot the size of a pip."""
    sigma = max(step * 0.2, 0.8)
    fine = cv2.GaussianBlur(patch_lab, (0, 0), sigma)
    coarse = cv2.GaussianBlur(patch_lab, (0, 0), sigma * 2.5)
    difference: FloatImage = fine - coarse
    return difference


def contrast_of(difference: FloatImage) -> FloatImage:
    """The length of each pixel's :func:`pip_difference`: its pip contrast."""
    # squares, their sum and its root, each one OpenCV pass (every channel weighed alike)
    return weighted_norm(difference, difference.shape[:-1], _EVEN_WEIGHTS, keep=True)


_EVEN_WEIGHTS = np.ones((1, 3), np.float32)
"""Every channel weighed alike in a colour's length."""


def pip_contrast(patch_lab: FloatImage, step: float) -> FloatImage:
    """How much each pixel is a spot the size of a pip (difference of Gaussians, any colour).

    A pip is darker or lighter than the face, or of another hue; the response is the colour
    difference between a pip-sized blur and a blur over its surroundings.
    """
    return contrast_of(pip_difference(patch_lab, step))


def spots_in(patch_lab: FloatImage, step: float, floor: float) -> npt.NDArray[np.float64]:
    """:func:`find_spots` of a patch, its contrast and polarity from one
    :func:`pip_difference`."""
    difference = pip_difference(patch_lab, step)
    return find_spots(contrast_of(difference), step, floor, difference)


def find_spots(
    contrast: FloatImage, step: float, floor: float, difference: FloatImage | None = None
) -> npt.NDArray[np.float64]:
    """Local maxima of pip contrast as rows ``(x, y, strength, polarity, roundness)``,
    strongest first.

    ``polarity`` is +1 for a spot lighter than its surroundings, -1 for a darker one, as the
    lightness of the :func:`pip_difference` the contrast came from shows (0 when
    ``difference`` is not given): a dark pip's blur leaves a faint light ring, which must not
    be taken for a pip of the other kind. ``roundness`` is the ratio of the spot's two
    curvatures: pips seen square-on are round (:func:`round_spots`), the pips of a side face
    seen at a slant are oval, the gap where two checkers touch is a ridge.
    """
    size = max(3, int(step * 0.7) | 1)
    peaks = (contrast == cv2.dilate(contrast, np.ones((size, size), np.uint8))) & (contrast > floor)
    ys, xs = np.nonzero(peaks)
    # pips are round: the contrast peak curves alike in every direction (the gap where two
    # checkers touch, or a scratch, makes a ridge)
    smooth = cv2.GaussianBlur(contrast, (0, 0), max(step * 0.15, 0.7))
    dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)[ys, xs]
    dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)[ys, xs]
    dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)[ys, xs]
    spread = np.sqrt((dxx - dyy) ** 2 + 4 * dxy * dxy)
    mean = -(dxx + dyy) / 2
    roundness = (mean - spread / 2) / np.maximum(mean + spread / 2, 1e-6)
    kept = roundness >= 0.1
    ys, xs, roundness = ys[kept], xs[kept], roundness[kept]
    polarity = np.zeros(len(xs))
    if difference is not None:
        polarity = np.sign(difference[ys, xs, 0])
    spots = np.column_stack([xs, ys, contrast[ys, xs], polarity, roundness]).astype(np.float64)
    return spots[np.argsort(-spots[:, 2])][:32]


def round_spots(spots: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The spots round enough to be pips seen square-on (a top face's)."""
    return spots[spots[:, 4] >= ROUNDNESS][:24]


_ACROSS, _DOWN = np.array(_GRID, dtype=np.float64).T
"""The nine cells of a face, in :data:`_GRID` order: how far across, how far down."""


@lru_cache(maxsize=64)
def _pairs(count: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Every pair of ``count`` spots, once: the first's index, the second's."""
    first, second = np.triu_indices(count, 1)
    first.flags.writeable = second.flags.writeable = False  # shared by every call
    return first, second


def fit_grid(
    spots: npt.NDArray[np.float64], step: float, near: tuple[float, float], reach: float
) -> GridFit | None:
    """The pip grid (spacing ``step``) that explains the most spots within ``reach`` of ``near``
    (the first of :func:`fit_grids`), or None."""
    fits = fit_grids(spots, step, near, reach)
    return fits[0] if fits else None


def fit_grids(
    spots: npt.NDArray[np.float64], step: float, near: tuple[float, float], reach: float
) -> list[GridFit]:
    """The best pip grid (spacing ``step``) within ``reach`` of ``near`` for each number of
    pips, best first: most spots explained cleanly (no stray spot of the pips' kind inside).

    A clean one (a corner pip alone, the others just beyond its square) may rank above a four
    with a stray spot: the face's own pixels judge between them (:func:`explain_face`).

    Turns are proposed by pairs of spots (neighbours along a side, or along a diagonal);
    centres by voting: every spot, read as each of the nine cells, names a centre, and the
    centre named by the most spots wins. A lone spot (a one) keeps its own place.
    """
    if len(spots) == 0:
        return []
    xy = spots[:, :2]
    strength = spots[:, 2]
    polarity = spots[:, 3] if spots.shape[1] > 3 else np.zeros(len(spots))
    # the spots that may be pips of a face centred within reach: its corner pips lie a
    # diagonal step from the centre (a two, a four or a six may show none nearer)
    apart = np.hypot(xy[:, 0] - near[0], xy[:, 1] - near[1])
    close = apart < reach + CORNER_REACH * step
    if not close.any():
        return []
    # only spots that could lie on a face centred within reach matter
    nearby = apart < reach + 2.0 * step
    xy, strength, polarity, close = xy[nearby], strength[nearby], polarity[nearby], close[nearby]
    first, second = _pairs(len(xy))
    pair = close[first] | close[second]
    first, second = first[pair], second[pair]
    d = xy[second] - xy[first]
    length = np.hypot(d[:, 0], d[:, 1]) / step
    angle = np.arctan2(d[:, 1], d[:, 0])
    # each pair as each kind of pair it may be (by its length), kind by kind; and a turn of
    # nought, barely voted for, for a lone spot
    kinds, matched = np.nonzero(np.abs(length - _PAIR_RATIOS) < _PAIR_SLACK)
    proposed = (angle[matched] - _PAIR_OFFSETS[kinds, 0]) % (math.pi / 2)
    votes = np.minimum(strength[first[matched]], strength[second[matched]])
    # the turns most pairs of strong spots agree on (a face's pips all propose its own)
    every_turn = np.concatenate([np.zeros(1), proposed])
    weight = np.concatenate([np.full(1, 1e-3), votes])
    count = round(math.pi / 2 / TURN_APART)
    bins = np.rint(every_turn / TURN_APART).astype(int) % count
    tally = np.bincount(bins, weights=weight, minlength=count)
    around = np.concatenate([tally[-1:], tally, tally[:1]])  # each bin's neighbours, round
    tally = tally + around[:-2] + around[2:]
    picked: list[int] = []
    taken: set[int] = set()  # the bins of the turns taken, and their neighbours
    weights = tally.tolist()
    for b in np.argsort(-tally).tolist():
        if len(picked) >= MAX_TURNS or weights[b] <= 0:
            break
        if b in taken:
            continue  # a turn taken, or its neighbour: the same turn, smeared
        taken.update(((b - 1) % count, b, (b + 1) % count))
        picked.append(b)
    turns = _strongest_turns(picked, bins, every_turn, weight, count)
    # every centre the close spots name, read as each of the nine cells, under every turn
    # tried, in blocks (one per turn) of one array: each row's pips are judged on its own
    leading = float(strength[close].max())
    tried: list[float] = []
    for turn in turns:
        if not any(min(abs(turn - t), math.pi / 2 - abs(turn - t)) < TURN_APART for t in tried):
            tried.append(turn)
    if not tried:
        return []
    # every turn's centres at once, a row per turn (each spot read as each cell, in turn)
    cosines = np.array([math.cos(turn) for turn in tried])
    sines = np.array([math.sin(turn) for turn in tried])
    across = (_ACROSS * cosines[:, None] - _DOWN * sines[:, None]) * step  # (turn, cell)
    down = (_ACROSS * sines[:, None] + _DOWN * cosines[:, None]) * step
    named_x = (xy[close, 0][None, :, None] - across[:, None, :]).reshape(len(tried), -1)
    named_y = (xy[close, 1][None, :, None] - down[:, None, :]).reshape(len(tried), -1)
    within = np.hypot(named_x - near[0], named_y - near[1]) <= reach
    lengths = np.count_nonzero(within, axis=1)
    if not lengths.any():
        return []
    # each named centre's two coordinates apart (contiguous: numpy is slower on strided ones)
    centre_x, centre_y = named_x[within], named_y[within]
    ends = np.cumsum(lengths).tolist()
    blocks = [  # (turn, first row, end row) of each turn that names a centre within reach
        (turn, end - length, end)
        for turn, length, end in zip(tried, lengths.tolist(), ends, strict=True)
        if length > 0
    ]
    c_row = np.repeat(cosines, lengths)[:, None]
    s_row = np.repeat(sines, lengths)[:, None]
    # (M, N): each spot from each centre, then in cells along the turned axes
    rel_x = xy[:, 0][None, :] - centre_x[:, None]
    rel_y = xy[:, 1][None, :] - centre_y[:, None]
    u = (rel_x * c_row + rel_y * s_row) / step
    v = (-rel_x * s_row + rel_y * c_row) / step
    ru, rv = np.rint(u), np.rint(v)
    on_grid = (
        (np.abs(u - ru) < 0.3) & (np.abs(v - rv) < 0.3) & (np.abs(ru) <= 1) & (np.abs(rv) <= 1)
    )
    inside = (np.abs(u) < 1.6) & (np.abs(v) < 1.6)
    # pips of one die are alike: weak spots on the grid are glints, not pips
    top = np.where(on_grid, strength[None, :], 0.0).max(axis=1, keepdims=True)
    on_grid &= strength[None, :] >= PIP_LIKENESS * top
    # the pips' own kind (darker or lighter); a faint ring of the other kind is no stray
    kind = np.sign(np.where(on_grid, strength[None, :] * polarity[None, :], 0.0).sum(axis=1))
    # all the pips of a face are of one kind
    alike = (polarity[None, :] == kind[:, None]) | (kind[:, None] == 0)
    on_grid &= alike
    stray = inside & ~on_grid & alike
    weakest = np.where(on_grid, strength[None, :], np.inf).min(axis=1)
    strongest_stray = np.where(stray, strength[None, :], 0.0).max(axis=1)
    ratio = np.minimum(weakest / np.maximum(strongest_stray, 1e-3), 10.0)
    counts = on_grid.sum(axis=1)
    # which cells each centre's pips take, as a bit mask: a valid face takes each once
    bits = np.where(on_grid, 1 << ((ru + 1) * 3 + (rv + 1)).astype(np.int64), 0).sum(axis=1)
    valid = _FACE_PIPS[np.minimum(bits, len(_FACE_PIPS) - 1)] == counts
    best: dict[int, tuple[tuple[bool, bool, int, float, float], int, float]] = {}
    rank = counts * 100 + ratio
    shown_by_row, ratio_by_row, weakest_by_row = counts.tolist(), ratio.tolist(), weakest.tolist()
    for turn, begin, end in blocks:
        rows = np.arange(begin, end)[valid[begin:end]]
        for index in rows[np.argsort(-rank[rows])[:3]].tolist():
            shown = shown_by_row[index]
            # cleanest first; among equally clean grids, the one on the strongest spots (a
            # light pip's dark rim, or a face's corner, makes weaker ones)
            key = (
                ratio_by_row[index] >= 1.25,
                weakest_by_row[index] >= PIP_LIKENESS * leading,
                shown,
                ratio_by_row[index],
                float(strength[on_grid[index]].sum()),
            )
            if shown not in best or key > best[shown][0]:
                best[shown] = (key, index, turn)
    fits = []
    for _key, index, turn in sorted(best.values(), key=lambda entry: entry[0], reverse=True):
        members = on_grid[index]
        a_cells, b_cells = ru[index][members], rv[index][members]
        found = frozenset((int(a), int(b)) for a, b in zip(a_cells, b_cells, strict=True))
        c, s = math.cos(turn), math.sin(turn)
        centre = (float(centre_x[index]), float(centre_y[index]))
        axes = ((c * step, s * step), (-s * step, c * step))
        aspect = 1.0
        if len(found) >= 4:
            # twos and threes lie on one diagonal: their turn, and so their aspect, is not
            # pinned down by the pips alone
            centre, axes = _affine(xy[members], a_cells, b_cells)
            aspect = grid_squareness(axes)
        fits.append(GridFit(centre, turn, found, float(ratio[index]), aspect, axes))
    return fits


def _strongest_turns(
    picked: list[int],
    bins: npt.NDArray[np.int_],
    turns: npt.NDArray[np.float64],
    weight: npt.NDArray[np.float64],
    count: int,
) -> list[float]:
    """For each picked bin, the turn of the strongest pair in it or a neighbour (round):
    every bin at once, each the first of equally strong ones, as ``np.argmax`` over the
    bin's members alone would pick (the others count as -inf, below every vote)."""
    if not picked:
        return []
    members = (bins[None, :] - (np.array(picked)[:, None] - 1)) % count <= 2  # (bin, pair)
    strongest = np.where(members, weight[None, :], -np.inf).argmax(axis=1)
    chosen: list[float] = turns[strongest].tolist()
    return chosen


def grid_squareness(axes: Axes) -> float:
    """How square a pip grid whose cells step by ``axes`` shows: the least over the greatest
    stretch of its map from grid cells to where the pips lie (1 square-on, cos(tilt) for a
    tilted face). Its axes come from four or more cells of a 3x3 grid (:func:`_affine`),
    which always spread in two directions.

    A face tilted along its own axes shows a rectangle, one tilted along a diagonal (a die
    leaning on a checker by its corner) a rhombus whose pip rows stay evenly spaced: only the
    map's two stretches (its singular values) tell both apart from a square.
    """
    stretches = np.linalg.svd(np.array(axes, dtype=np.float64), compute_uv=False)
    return float(stretches[-1] / max(stretches[0], 1e-6))


PIP_MATCH = 0.45
"""Share of a cell step within which a spot is taken for the pip its face's model puts at a
cell (a steep tilt moves a square model's corner pips up to 0.3 of a step from it)."""


def pips_squareness(model: FaceModel, spots: npt.NDArray[np.float64]) -> float | None:
    """How square a face's pips show (:func:`grid_squareness`), measured on the spots nearest
    where its ``model`` puts a pip; None when fewer than four alike are found.

    The model the face's pixels chose (:func:`explain_face`) may be a square grid that merely
    overlaps a squashed face's pips, its aspect exactly 1: on development frames nearly a
    quarter of the cocked fours, fives and sixes read right were read on such a model, tilted
    11 to 43 degrees. Their pips, found one by one, show how squashed the face is."""
    return measured_grid(model, spots)[0]


def measured_grid(
    model: FaceModel, spots: npt.NDArray[np.float64]
) -> tuple[float | None, Axes | None]:
    """:func:`pips_squareness` of one face, and the two axes (pixels per cell) of the grid
    its pips lie on, found once; (None, None) when fewer than four alike are found. Unlike the
    squareness, the axes keep which way the grid is stretched and sheared: what a die's pose
    shows (:mod:`companion.vision.lean`)."""
    found = _pips_at_cells(model, spots)
    if found is None:
        return None, None
    axes = _affine(*found)[1]
    return grid_squareness(axes), axes


def _pips_at_cells(
    model: FaceModel, spots: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """The spots nearest where ``model`` puts a pip, with their cells ``(across, down)``;
    None when fewer than four alike are found (a weak spot taken for one is a glint or a
    rim: the pips of one face are alike)."""
    if len(model.cells) < 4 or len(spots) == 0:
        return None
    (ux, uy), (vx, vy) = model.axes
    chosen: list[int] = []
    across: list[float] = []
    down: list[float] = []
    for a, b in sorted(model.cells):
        x = model.centre[0] + a * ux + b * vx
        y = model.centre[1] + a * uy + b * vy
        apart = np.hypot(spots[:, 0] - x, spots[:, 1] - y)
        nearest = int(np.argmin(apart))
        if apart[nearest] > PIP_MATCH * model.step or nearest in chosen:
            continue  # no pip there, or the one a squashed model's neighbour took already
        chosen.append(nearest)
        across.append(float(a))
        down.append(float(b))
    if len(chosen) < 4:
        return None
    found = spots[chosen]
    if np.any(found[:, 2] < PIP_LIKENESS * float(found[:, 2].max())):
        return None
    return found[:, :2], np.array(across), np.array(down)


def _affine(
    xy: npt.NDArray[np.float64], across: npt.NDArray[np.float64], down: npt.NDArray[np.float64]
) -> tuple[tuple[float, float], Axes]:
    """The face's centre and its two axes (pixels per cell) that best carry the cells onto
    the pips seen: a tilted face's grid is squashed, and a square grid would miss its corners."""
    design = np.column_stack([np.ones(len(across)), across, down])
    solution, *_ = np.linalg.lstsq(design, xy, rcond=None)
    centre = (float(solution[0, 0]), float(solution[0, 1]))
    axes = (
        (float(solution[1, 0]), float(solution[1, 1])),
        (float(solution[2, 0]), float(solution[2, 1])),
    )
    return centre, axes


def face_consistency(lab: FloatImage, fit: GridFit, step: float) -> float:
    """How clearly the fit is one die face: bare spots alike, pips alike and unlike the face.

    Samples the face between the pips (four spots half a step from the centre on the
    diagonals, and every cell without a pip) and the pips. Returns the gap between the face
    and its pips over the spread within each (0 or less: not a die face; 1 and more: clear).
    A row of stitches or the edge of a checker fails: its "face" straddles two surfaces.
    """
    smooth = cv2.GaussianBlur(lab, (0, 0), max(step * 0.12, 0.7))
    height, width = smooth.shape[:2]
    c, s = math.cos(fit.angle), math.sin(fit.angle)

    def at(u: float, v: float) -> npt.NDArray[np.float32]:
        x = fit.centre[0] + (u * c - v * s) * step
        y = fit.centre[1] + (u * s + v * c) * step
        xi = int(np.clip(round(x), 0, width - 1))
        yi = int(np.clip(round(y), 0, height - 1))
        value: npt.NDArray[np.float32] = smooth[yi, xi]
        return value

    bare = [at(u, v) for u in (-0.5, 0.5) for v in (-0.5, 0.5)]
    # the face's margin beyond the outer pips: still the same face on a die, not on a crossing
    # of two checkers' rims or a stitch
    bare += [at(u, v) for u, v in ((MARGIN, 0.0), (-MARGIN, 0.0), (0.0, MARGIN), (0.0, -MARGIN))]
    bare += [at(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) not in fit.cells]
    lit = [at(a, b) for a, b in fit.cells]
    face = np.median(np.array(bare), axis=0)
    pip = np.median(np.array(lit), axis=0)
    spread_face = max(float(np.linalg.norm(b - face)) for b in bare)
    spread_pips = max(float(np.linalg.norm(p - pip)) for p in lit)
    gap = float(np.linalg.norm(pip - face))
    return (gap - max(spread_face, spread_pips)) / max(spread_face, spread_pips, FACE_SPREAD)


def _offsets() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    ring = [(0.0, 0.0)] + [
        (PIP_SAMPLE * math.cos(a), PIP_SAMPLE * math.sin(a))
        for a in np.linspace(0, 2 * math.pi, 6, endpoint=False)
    ]
    cells = np.array([(x + dx, y + dy) for x, y in _GRID for dx, dy in ring])
    axis = np.linspace(-FACE_HALF, FACE_HALF, 11)
    bare = [(u, v) for u in axis for v in axis if math.hypot(u, v) <= FACE_HALF * 1.25]
    return cells, np.array(bare)


_CELL_UV, _BARE_UV = _offsets()
_BARE_CLEAR = np.array(
    [
        np.array(
            [
                min(math.hypot(u - x, v - y) for (x, y), on in zip(_GRID, lit, strict=True) if on)
                >= BARE_CLEARANCE
                for u, v in _BARE_UV
            ]
        )
        for _value, lit in PATTERNS
    ]
)
"""Per pattern, the face samples clear of its pips: its bare face (empty cells included)."""
_BARE_COUNTS = _BARE_CLEAR.sum(axis=1)
_BARE_MASKS = _BARE_CLEAR.astype(np.float64)
_BARE_SHARES = _BARE_COUNTS[:, None].astype(np.float64)
"""Per pattern, how many samples its bare face has (a column, to divide sums by)."""


def _clear_layout() -> tuple[
    npt.NDArray[np.intp], tuple[tuple[int, int, int, int], ...], npt.NDArray[np.intp]
]:
    """Where every pattern's bare-face samples lie, gathered: their indices among a pattern
    row's samples (pattern ``p``'s at ``p * _FACE_POINTS``), patterns of equal counts side by
    side; each run of those as ``(start, stop, patterns, count)``, to sort each pattern's
    samples as one block; and where each pattern's spread quantile falls among them once
    sorted. Only these samples are sorted: the others are hidden by the pattern's pips."""
    order = sorted(range(len(PATTERNS)), key=lambda p: int(_BARE_COUNTS[p]))
    index: list[int] = []
    runs: list[tuple[int, int, int, int]] = []
    pick = [0] * len(PATTERNS)
    for p in order:
        count = int(_BARE_COUNTS[p])
        if runs and runs[-1][3] == count:
            start, _stop, members, _count = runs[-1]
            runs[-1] = (start, len(index) + count, members + 1, count)
        else:
            runs.append((len(index), len(index) + count, 1, count))
        pick[p] = len(index) + int(count * BARE_QUANTILE)
        index.extend((p * _FACE_POINTS + np.flatnonzero(_BARE_CLEAR[p])).tolist())
    return np.array(index, dtype=np.intp), tuple(runs), np.array(pick, dtype=np.intp)


_LIT = np.array([lit for _value, lit in PATTERNS])
_LIT_COUNTS = _LIT.sum(axis=1)[:, None]
"""Per pattern, how many pips it shows."""
_LIT_PATTERN, _LIT_CELL = np.nonzero(_LIT)
"""Every lit cell of every pattern, pattern by pattern: the pattern, the cell."""
_LIT_AT = _LIT_PATTERN * 9 + _LIT_CELL
_LIT_RUNS = np.searchsorted(_LIT_PATTERN, np.arange(len(PATTERNS)))
"""Where each pattern's lit cells start among them all."""
_UNLIT_PATTERN, _UNLIT_CELL = np.nonzero(~_LIT)
"""Every unlit cell of every pattern, the same way (every pattern has some of each)."""
_UNLIT_AT = _UNLIT_PATTERN * 9 + _UNLIT_CELL
_UNLIT_RUNS = np.searchsorted(_UNLIT_PATTERN, np.arange(len(PATTERNS)))
_LIT_BY_CELL = np.concatenate([_LIT.T, np.zeros((1, len(PATTERNS)), bool)])
"""Per grid cell, which patterns light it; a last row for a spot on no cell (none)."""
_ONE = next(index for index, (value, _lit) in enumerate(PATTERNS) if value == 1)
_PER_CELL = len(_CELL_UV) // 9
_FACE_POINTS = len(_BARE_UV) + len(_CELL_UV)
_CELL_RINGS = len(_BARE_UV) + np.arange(9) * _PER_CELL
"""Where each cell's ring of samples starts among a face's samples."""
_PATTERN_ROWS = np.arange(len(PATTERNS))[:, None]
"""Each pattern's index, as a column."""
_CLEAR_AT, _CLEAR_RUNS, _CLEAR_PICK = _clear_layout()
_RIVALS = [
    np.array([p for p, (v, _lit) in enumerate(PATTERNS) if v != value]) for value, _lit in PATTERNS
]
"""Per pattern, the patterns of every other value: the rivals its confidence is judged by."""
_DEEPEST_BASE = _PATTERN_ROWS * _FACE_POINTS + _CELL_RINGS
"""Where each pattern's cells' rings of samples start in a row of a face's product (the
distances, its first half): the deepest sample of each lies this far in, and then some."""
_LIT_RINGS = _CELL_RINGS[_LIT_CELL]
"""Where each lit cell's ring of samples starts among a face's samples."""
_LIT_SHARES = _LIT / _LIT_COUNTS
"""Per pattern, each cell's share of its pips' mean colour (0 for its empty cells)."""
_FACE_U, _FACE_V = (np.ascontiguousarray(axis) for axis in np.concatenate([_BARE_UV, _CELL_UV]).T)
"""Every point of a face sampled, in cells along its two axes: the bare face's, then each
cell's ring (each axis apart: numpy is much slower on a strided one)."""


def _sample(
    lab: npt.NDArray[np.float64], geometry: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Colours at every face point sampled (:data:`_FACE_U`, :data:`_FACE_V`) under each
    geometry row (cx, cy, ux, uy, vx, vy): ``(rows, points, channels)``."""
    height, width = lab.shape[:2]
    centre, across, down = (
        part[:, :, None] for part in geometry.reshape(-1, 3, 2).transpose(1, 0, 2)
    )
    # centre + across * u + down * v + 0.5, summed in that order, in one buffer (G, 2, N)
    position = across * _FACE_U
    position += centre
    position += down * _FACE_V
    position += 0.5
    at = position.astype(np.intp)
    np.minimum(np.maximum(at, 0, out=at), [[width - 1], [height - 1]], out=at)
    colours: npt.NDArray[np.float64] = np.take(
        lab.reshape(-1, lab.shape[2]), at[:, 1] * width + at[:, 0], axis=0
    )
    return colours


_CELL_MOVES = np.array([(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)], dtype=np.float64)
"""A grid's moves by one cell every way (and none), along its first axis, along its second."""


def _neighbours(geometry: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each geometry, and its grid moved by one cell every way: a spot taken for a face's
    middle may be a corner or side pip of a larger face (on a die the colour of the board, its
    other pips can lie beyond the square a one would fill)."""
    rows = geometry[:, None, :]
    shifted = np.repeat(rows, len(_CELL_MOVES), axis=1)  # (guess, move, 6)
    a, b = _CELL_MOVES[None, :, 0], _CELL_MOVES[None, :, 1]
    shifted[:, :, 0] += a * rows[:, :, 2] + b * rows[:, :, 4]
    shifted[:, :, 1] += a * rows[:, :, 3] + b * rows[:, :, 5]
    return shifted.reshape(-1, 6)


def _rows_of(guesses: list[tuple[tuple[float, float], Axes]]) -> npt.NDArray[np.float64]:
    """Geometry rows (cx, cy, ux, uy, vx, vy) of the guesses."""
    return np.array(
        [(cx, cy, ux, uy, vx, vy) for (cx, cy), ((ux, uy), (vx, vy)) in guesses], dtype=np.float64
    )


_SHIFTS = np.array([(dx, dy) for dx in (-0.15, 0.0, 0.15) for dy in (-0.15, 0.0, 0.15) if dx or dy])
"""Moves of a face's centre tried, in pip steps (the unmoved centre is scored already)."""
_TURNS = [
    (np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]]), scale)
    for turn in np.radians([-4.0, 0.0, 4.0]).tolist()
    for scale in (0.94, 1.0, 1.06)
    if turn or scale != 1.0
]
"""Turns (by 4 degrees either way) and scalings (by 6 %) of a face's axes tried, as matrices
that turn a row of axes, and factors (the unchanged axes are scored already)."""
_TURN_MATRICES = np.stack([turn for turn, _scale in _TURNS])[None]
"""The turns' matrices, stacked (1, turn, 2, 2): to turn every row's axes every way in one
product, each pair of matrices multiplied as one alone is."""
_TURN_SCALES = np.array([scale for _turn, scale in _TURNS])[None, :, None, None]
"""The turns' scalings, shaped to scale the stacked products."""


def _moved(rows: npt.NDArray[np.float64], how: str) -> npt.NDArray[np.float64]:
    """Each geometry row shifted by 0.15 of a step every way (``"shift"``), or turned by 4
    degrees and scaled by 6 % either way (``"turn"``): eight rows for each, the row itself
    left out."""
    bases = rows[:, 2:].reshape(-1, 2, 2)
    if how == "shift":
        steps = np.sqrt(np.abs(np.linalg.det(bases)))
        moves = _SHIFTS[None, :, :] * steps[:, None, None]  # (R, 8, 2)
        shifted = np.repeat(rows, len(_SHIFTS), axis=0)
        shifted[:, :2] += moves.reshape(-1, 2)
        return shifted
    turned = np.matmul(bases[:, None], _TURN_MATRICES) * _TURN_SCALES  # (R, 8, 2, 2)
    centres = np.repeat(rows[:, None, :2], len(_TURNS), axis=1)
    return np.concatenate([centres, turned.reshape(len(rows), len(_TURNS), 4)], axis=2).reshape(
        -1, 6
    )


def _left_over(
    spots: npt.NDArray[np.float64], geometry: npt.NDArray[np.float64], det: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Per geometry row and pattern: how many spots near the face, of the pips' kind and
    nearly as strong as the weakest pip the pattern explains, it leaves unexplained.

    ``spots`` are given column by column (x, y, strength, polarity: rows of their own, as
    numpy is much slower on strided columns), ``det`` is each row's axes' determinant."""
    count = len(geometry)
    if spots.shape[1] == 0:
        return np.zeros((count, len(PATTERNS)))
    # each spot in the face's own cells: solve centre + u * axis_u + v * axis_v = spot
    det = np.where(np.abs(det) < 1e-6, 1e-6, det)
    x, y, strength, polarity = spots
    dx = x[None, :] - geometry[:, 0:1]
    dy = y[None, :] - geometry[:, 1:2]
    u = (dx * geometry[:, 5:6] - dy * geometry[:, 4:5]) / det[:, None]
    v = (dy * geometry[:, 2:3] - dx * geometry[:, 3:4]) / det[:, None]
    ru, rv = np.rint(u), np.rint(v)
    on_cell = (np.hypot(u - ru, v - rv) < 0.45) & (np.abs(ru) <= 1) & (np.abs(rv) <= 1)
    cell = np.where(on_cell, (rv + 1) * 3 + (ru + 1), 9).astype(np.intp)  # _GRID order; 9: none
    near = np.hypot(u, v) < LEFT_OVER_REACH
    # (G, S, P): whether each pattern's pips explain each spot
    explained = _LIT_BY_CELL.take(cell, axis=0)
    weakest = np.where(explained, strength[:, None], np.inf).min(axis=1)  # (G, P)
    # the pips' kind: the sign of their polarities' sum (one product: a sum of -1, 0 and 1
    # is exact in any order)
    kind = np.sign(np.matmul(polarity, explained))  # (G, P)
    kind = kind[:, None, :]
    alike = (polarity[:, None] == kind) | (kind == 0)
    # near and not explained, in one comparison of booleans
    stray = np.greater(near[:, :, None], explained)
    stray &= alike
    stray &= strength[:, None] >= PIP_LIKENESS * weakest[:, None, :]
    counts: npt.NDArray[np.float64] = stray.sum(axis=1, dtype=np.float64)
    return counts


def _squared(colours: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Squared length of each colour (the last axis, three channels): see :func:`_dot`."""
    return _dot(colours, colours)


def _dot(
    first: npt.NDArray[np.float64], second: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Dot product of each pair of colours (the last axis, three channels), summed as ``sum``
    would but without its overhead on so short an axis."""
    product: npt.NDArray[np.float64] = (
        first[..., 0] * second[..., 0]
        + first[..., 1] * second[..., 1]
        + first[..., 2] * second[..., 2]
    )
    return product


def _bare_spread(product: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per row (a face's :func:`_scores` product, flat) and pattern, the squared rivalling gap
    of its bare face at :data:`BARE_QUANTILE`: each bare sample's squared distance from the
    face, less the square of its part along the pips' line when it goes the other way.

    Only each pattern's own bare samples are gathered and sorted (:func:`_clear_layout`),
    each pattern's apart: the same order statistic as sorting every sample with the hidden
    ones put first, in half the work."""
    count = len(product)
    gap = product.take(_CLEAR_AT, axis=1)
    away = product.take(_CLEAR_AT + len(PATTERNS) * _FACE_POINTS, axis=1)
    np.minimum(away, 0.0, out=away)
    np.multiply(away, away, out=away)
    np.subtract(gap, away, out=gap)
    for start, stop, patterns, samples in _CLEAR_RUNS:
        # (a view: each run's samples are contiguous in every row)
        gap[:, start:stop].reshape(count, patterns, samples).sort(axis=2)
    spread: npt.NDArray[np.float64] = gap.take(_CLEAR_PICK, axis=1)
    return spread


def _scores(
    lab: npt.NDArray[np.float64],
    geometry: npt.NDArray[np.float64],
    nominal: float,
    spots: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per geometry row (see :func:`_sample`), every pattern's score and rank: its score,
    lowered for each strong spot near the face it leaves unexplained (see
    :func:`explain_face`; ``spots`` column by column, as :func:`_left_over` takes them)."""
    count = len(geometry)
    patterns = len(PATTERNS)
    samples = _sample(lab, geometry)
    bare = samples[:, : len(_BARE_UV)]  # (G, B, 3)
    det = geometry[:, 2] * geometry[:, 5] - geometry[:, 3] * geometry[:, 4]
    step = np.sqrt(np.abs(det))
    # per pattern, the bare face: every sample clear of its pips (its empty cells too); and
    # the pips' colour, at their cells' centres
    face = np.matmul(_BARE_MASKS, bare) / _BARE_SHARES  # (G, P, 3)
    pip = np.matmul(_LIT_SHARES, samples.take(_CELL_RINGS, axis=1))  # (G, P, 3)
    # what rivals the pips is measured the pips' way: a difference from the bare face of
    # the pips' own kind (along the colour line from face to pip, or across it) counts
    # fully, one the other way (a glint on a die with dark pips, a shadow on one with light
    # pips) only in part; scaled so that the square of its part along the line is what is
    # discounted
    towards = pip - face
    towards *= OFF_WAY / np.maximum(np.sqrt(_squared(towards)), 1e-6)[..., None]
    # one product gives every sample's squared colour distance from each pattern's bare face
    # (|s|^2 - 2 f.s + |f|^2: the doubling, exact, folded into it) and how far along the pips'
    # line it lies (t.s - t.f), each sample given two more channels: 1 and |s|^2
    weights = np.zeros((count, 2 * patterns, 5))
    weights[:, :patterns, :3] = -2.0 * face
    weights[:, :patterns, 3] = _squared(face)
    weights[:, :patterns, 4] = 1.0
    weights[:, patterns:, :3] = towards
    weights[:, patterns:, 3] = -_dot(towards, face)
    padded = np.empty((count, 5, _FACE_POINTS))
    padded[:, :3] = samples.transpose(0, 2, 1)
    padded[:, 3] = 1.0
    padded[:, 4] = _squared(samples)
    product = np.matmul(weights, padded)  # (G, 2 P, B + 9 R)
    distance = product[:, :patterns]  # (then how far along the pips' line: the other half)
    # each cell's colour: the sample round its centre farthest from the bare face (a small,
    # blurred pip a little off the grid still shows fully in one of them)
    ring_d2 = distance[..., len(_BARE_UV) :].reshape(count, patterns, 9, _PER_CELL)
    deepest = np.argmax(ring_d2, axis=3)  # (G, P, 9)
    # (each deepest sample picked by its flat index: np.take is much faster than fancy indexing)
    rows = np.arange(count)[:, None, None]
    # (the distances are the product's first half: indices into the whole of it)
    at_deepest = rows * (2 * patterns * _FACE_POINTS) + _DEEPEST_BASE + deepest
    cell_d2 = product.take(at_deepest)  # (G, P, 9)
    by_cell = np.sqrt(np.maximum(cell_d2, 0)).reshape(count, -1)
    weakest = np.minimum.reduceat(by_cell.take(_LIT_AT, axis=1), _LIT_RUNS, axis=1)
    # the pips alike: each lit cell's colour against their mean
    at = rows[:, 0] * _FACE_POINTS + _LIT_RINGS + deepest.reshape(count, -1).take(_LIT_AT, axis=1)
    colours = samples.reshape(-1, 3).take(at, axis=0)  # (G, lit cells, 3)
    mean = np.add.reduceat(colours, _LIT_RUNS, axis=1) / _LIT_COUNTS
    deviation = colours - mean.take(_LIT_PATTERN, axis=1)
    unlike = np.sqrt(np.maximum.reduceat(_squared(deviation), _LIT_RUNS, axis=1))
    # the bare face's spread: a high quantile of its rivalling gaps (a stray sample of a
    # pip's blurred rim aside), over the samples clear of each pattern's pips
    bare_gap = np.sqrt(np.maximum(_bare_spread(product.reshape(count, -1)), 0.0))
    # each empty cell, the same way
    cell_away = np.minimum(product.take(at_deepest + patterns * _FACE_POINTS), 0.0)
    cell_rival = np.sqrt(np.maximum(cell_d2 - cell_away * cell_away, 0.0)).reshape(count, -1)
    unlit = np.maximum.reduceat(cell_rival.take(_UNLIT_AT, axis=1), _UNLIT_RUNS, axis=1)
    rival = np.maximum(np.maximum(unlit, bare_gap), unlike)
    scores = weakest / np.maximum(rival, FACE_NOISE)
    # a lone pip says nothing of the step: a one is read only near the nominal one
    scores[step < nominal * ONE_STEP, _ONE] = 0.0
    # a pip-like spot just beyond the face, as strong as its pips, may be one of them: the
    # pattern that leaves it out explains less of what is there
    left_over = _left_over(spots, geometry, det)
    ranks = scores * LEFT_OVER_PENALTY**left_over
    return scores, ranks


def explain_face(
    lab: FloatImage,
    guesses: list[tuple[tuple[float, float], Axes]],
    nominal: float,
    spots: npt.NDArray[np.float64] | None = None,
    refine: bool = True,
) -> FaceModel | None:
    """The pip pattern, place and axes that best explain the face's own pixels.

    Each guess ``(centre, axes)`` (from the spots, :func:`fit_grids`) is tried as it is and
    moved by one cell every way (a spot taken for a face's middle may be a corner pip); the
    best, and the best of any other value, are then shifted, turned and scaled a little
    (unless not ``refine``). At each, the bare face's colour is taken between the nine
    cells; every pattern's lit cells must all differ from it, alike, by more than its unlit
    cells and anything else between them differs (a stray spot, the face's edge, a checker's
    rim; what differs the other way from the pips in colour, a glint or a shadow, counts only
    ``OFF_KIND`` of its difference). A pip the spot finder missed still counts here; a spot
    off the face's grid counts against, and so does a strong spot just beyond the face that
    the pattern leaves out (the ``rank`` the patterns are chosen by). A lone pip says nothing
    of the step: a one is read only at about the ``nominal`` step (else a corner pip, read
    with a step too small, leaves the others off its face). ``spots`` are rows
    ``(x, y, strength, polarity, ...)`` as :func:`find_spots` gives them. None without
    guesses.
    """
    if not guesses:
        return None
    spots = np.zeros((0, 4)) if spots is None else spots
    # the spots column by column (x, y, strength, polarity), each contiguous
    columns = np.ascontiguousarray(spots[:, :4].T)
    colours = np.ascontiguousarray(lab, dtype=np.float64)  # sampled many times: converted once
    geometry = _neighbours(_rows_of(guesses))
    scores, ranks = _scores(colours, geometry, nominal, columns)
    if refine:
        # the best guess, and the best for any other value (the rival a confidence is
        # measured against), each shifted a little, then turned and scaled a little
        for how in ("shift", "turn"):
            top_g, top_p = np.unravel_index(int(np.argmax(ranks)), ranks.shape)
            rival_g = int(np.argmax(ranks.take(_RIVALS[top_p], axis=1).max(axis=1)))
            picked = [int(top_g)] if rival_g == top_g else [int(top_g), rival_g]
            rows = geometry[np.array(picked, dtype=np.intp)]
            fine = _moved(rows, how)
            geometry = np.concatenate([geometry, fine])
            more = _scores(colours, fine, nominal, columns)
            scores = np.concatenate([scores, more[0]])
            ranks = np.concatenate([ranks, more[1]])
    best_g, best_p = np.unravel_index(int(np.argmax(ranks)), ranks.shape)
    value = PATTERNS[best_p][0]
    lit = PATTERNS[best_p][1]
    found = frozenset(cell for cell, on in zip(_GRID, lit, strict=True) if on)
    row = geometry[best_g]
    return FaceModel(
        value,
        float(scores[best_g, best_p]),
        float(ranks.take(_RIVALS[best_p], axis=1).max()),
        (float(row[0]), float(row[1])),
        ((float(row[2]), float(row[3])), (float(row[4]), float(row[5]))),
        found,
        float(ranks[best_g, best_p]),
    )

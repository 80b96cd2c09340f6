"""Reading a die's top face: how many pips, and how sure.

Conventions: a face is seen in a square patch; the caller gives the face's centre, the step
between neighbouring pips (about 0.27 of the die's edge on standard dice) and the face's turn.
Pips sit on a 3x3 grid (the centre, the four corners, the middle of two sides), and each value
lights a fixed subset of it, so reading a die is choosing the subset that best separates pips
from the bare face: every lit spot must stand out more than every unlit one. The confidence is
that separation, so a smudged, glared or half-hidden face reads as unsure rather than wrong.

Colour-blind by design: pips may be darker or lighter than the face, of any colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

FloatImage = npt.NDArray[np.float32]

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


@dataclass(frozen=True, slots=True)
class FaceRead:
    value: int
    confidence: float
    centre: tuple[float, float]
    """Where the pip grid's centre was found, in patch pixels."""
    angle: float
    """The grid's turn in radians (0-pi/2)."""
    step: float
    """The pip step found, in patch pixels."""
    cells: frozenset[tuple[int, int]] = frozenset()
    """Grid cells holding a pip, as ``(across, down)`` in -1..1 along the face's turned axes."""
    aspect: float = 1.0
    """See :attr:`GridFit.aspect`."""


def pip_contrast(patch_lab: FloatImage, step: float) -> FloatImage:
    """How much each pixel is a spot the size of a pip (difference of Gaussians, any colour).

    A pip is darker or lighter than the face, or of another hue; the response is the colour
    difference between a pip-sized blur and a blur over its surroundings.
    """
    sigma = max(step * 0.2, 0.8)
    fine = cv2.GaussianBlur(patch_lab, (0, 0), sigma)
    coarse = cv2.GaussianBlur(patch_lab, (0, 0), sigma * 2.5)
    diff = fine - coarse
    contrast: FloatImage = np.sqrt(np.einsum("...c,...c->...", diff, diff)).astype(np.float32)
    return contrast


def read_face(
    contrast: FloatImage,
    centre: tuple[float, float],
    step: float,
    angle: float | None = None,
    search: float = 0.2,
) -> FaceRead:
    """The value whose pip pattern best explains ``contrast`` around ``centre``.

    Searches small shifts of the centre, the pip step (±15 %) and, unless ``angle`` is given,
    the face's turn; returns the best separation as the confidence (0 = no pattern, about 0.5
    and above = clear pips).
    """
    smooth = contrast
    height, width = smooth.shape
    turns = np.array([angle] if angle is not None else np.radians(np.arange(0, 90, 6)))
    count = max(round(2 * search / 0.2) + 1, 3)
    shifts = np.linspace(-search, search, count) * step
    factors = np.array([0.87, 1.0, 1.15])
    grid = np.array(_GRID, dtype=np.float64)
    t, f, dx, dy = (a.ravel() for a in np.meshgrid(turns, factors, shifts, shifts, indexing="ij"))
    c, s = np.cos(t), np.sin(t)
    # grid offsets turned by t and scaled by the step: (N, 9)
    ox = (grid[None, :, 0] * c[:, None] - grid[None, :, 1] * s[:, None]) * (step * f)[:, None]
    oy = (grid[None, :, 0] * s[:, None] + grid[None, :, 1] * c[:, None]) * (step * f)[:, None]
    xs = np.clip(np.round(centre[0] + dx[:, None] + ox).astype(int), 0, width - 1)
    ys = np.clip(np.round(centre[1] + dy[:, None] + oy).astype(int), 0, height - 1)
    evidence = smooth[ys, xs].astype(np.float64)
    top = np.maximum(evidence.max(axis=1), 1e-3)
    best_value, best_separation, best_index = 1, -1.0, 0
    for value, lit in PATTERNS:
        separation = (evidence[:, lit].min(axis=1) - evidence[:, ~lit].max(axis=1)) / top
        index = int(np.argmax(separation))
        if separation[index] > best_separation:
            best_value, best_separation, best_index = value, float(separation[index]), index
    return FaceRead(
        best_value,
        max(best_separation, 0.0),
        (centre[0] + float(dx[best_index]), centre[1] + float(dy[best_index])),
        float(t[best_index]),
        step * float(f[best_index]),
    )


def find_outline(
    gradient: FloatImage,
    guess: tuple[float, float],
    edge: float,
    reach: float,
    turns: npt.NDArray[np.float64] | None = None,
) -> tuple[float, tuple[float, float], float]:
    """The square die outline (edge ``edge`` px) best supported by ``gradient`` near ``guess``.

    Searches centres within ``reach`` px of the guess, every turn (6 degree steps) and two
    sizes; returns ``(score, centre, turn)``. The score is the median edge strength along
    the four sides (each side must show, so a straight board edge or a round checker rim
    scores low) over the median strength just inside them (the die's own face).
    """
    height, width = gradient.shape
    step = max(edge / 10.0, 1.0)
    offsets = np.arange(-reach, reach + 0.1, step)
    if turns is None:
        turns = np.radians(np.arange(0, 90, 6))
    halves = np.array([0.44, 0.48, 0.52]) * edge
    along = np.linspace(-0.7, 0.7, 7)
    units = np.concatenate(
        [
            np.column_stack([np.full(7, 1.0), along]),
            np.column_stack([np.full(7, -1.0), along]),
            np.column_stack([along, np.full(7, 1.0)]),
            np.column_stack([along, np.full(7, -1.0)]),
        ]
    )  # (28, 2) points on the unit square's sides
    cx, cy, turn, half = (
        a.ravel()
        for a in np.meshgrid(offsets + guess[0], offsets + guess[1], turns, halves, indexing="ij")
    )
    c, s = np.cos(turn)[:, None], np.sin(turn)[:, None]
    ux, uy = units[None, :, 0], units[None, :, 1]
    xs = cx[:, None] + (ux * c - uy * s) * half[:, None]
    ys = cy[:, None] + (ux * s + uy * c) * half[:, None]
    xi = np.clip(np.round(xs).astype(int), 0, width - 1)
    yi = np.clip(np.round(ys).astype(int), 0, height - 1)
    rim = np.median(gradient[yi, xi], axis=1)
    del xi, yi
    score = rim
    best = int(np.argmax(score))
    return float(score[best]), (float(cx[best]), float(cy[best])), float(turn[best])


def outline_at(
    gradient: FloatImage, centre: tuple[float, float], edge: float, angle: float | None
) -> tuple[float, tuple[float, float], float]:
    """:func:`find_outline` around a known pip grid: a little play in place, turn when unknown."""
    if angle is None:
        return find_outline(gradient, centre, edge, edge * 0.08)
    return find_outline(gradient, centre, edge, edge * 0.08, turns=np.array([angle]))


@dataclass(frozen=True, slots=True)
class GridFit:
    """Pips found on one face: the grid's centre and turn, and which cells hold a pip."""

    centre: tuple[float, float]
    angle: float
    cells: frozenset[tuple[int, int]]
    strength: float
    """The weakest pip's contrast over the strongest spot left out inside the face."""
    aspect: float = 1.0
    """How square the pip grid shows (:func:`_squareness`): 1 on a face seen square-on,
    about cos(tilt) on a face tilted away (a cocked die's top), whichever way it tilts."""


def find_spots(
    contrast: FloatImage, step: float, floor: float, lightness: FloatImage | None = None
) -> npt.NDArray[np.float64]:
    """Local maxima of pip contrast as rows ``(x, y, strength, polarity, roundness)``,
    strongest first.

    ``polarity`` is +1 for a spot lighter than its surroundings, -1 for a darker one (0 when
    ``lightness`` is not given): a dark pip's blur leaves a faint light ring, which must not
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
    if lightness is not None:
        sigma = max(step * 0.2, 0.8)
        local = cv2.GaussianBlur(lightness, (0, 0), sigma) - cv2.GaussianBlur(
            lightness, (0, 0), sigma * 2.5
        )
        polarity = np.sign(local[ys, xs])
    spots = np.column_stack([xs, ys, contrast[ys, xs], polarity, roundness]).astype(np.float64)
    return spots[np.argsort(-spots[:, 2])][:32]


def round_spots(spots: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The spots round enough to be pips seen square-on (a top face's)."""
    return spots[spots[:, 4] >= ROUNDNESS][:24]


def _valid_cells() -> set[frozenset[tuple[int, int]]]:
    valid = set()
    for layout in _LAYOUTS.values():
        cells = list(layout)
        for _ in range(4):
            valid.add(frozenset(cells))
            cells = [(-y, x) for x, y in cells]
    return valid


VALID_CELLS = _valid_cells()


def _squareness(
    u: npt.NDArray[np.float64],
    v: npt.NDArray[np.float64],
    across: npt.NDArray[np.float64],
    down: npt.NDArray[np.float64],
) -> float:
    """How square the pip grid shows: the least over the greatest stretch of the affine map
    from grid cells to where the pips lie (1 square-on, cos(tilt) for a tilted face).

    A face tilted along its own axes shows a rectangle, one tilted along a diagonal (a die
    leaning on a checker by its corner) a rhombus whose pip rows stay evenly spaced: only the
    map's two stretches (its singular values) tell both apart from a square. 1 (no evidence
    of a tilt) when the pips do not spread in two directions.
    """
    cells = np.column_stack([across - across.mean(), down - down.mean()])
    seen = np.column_stack([u - u.mean(), v - v.mean()])
    if np.linalg.matrix_rank(cells, tol=1e-6) < 2:
        return 1.0
    mapping, *_ = np.linalg.lstsq(cells, seen, rcond=None)
    stretches = np.linalg.svd(mapping, compute_uv=False)
    return float(stretches[-1] / max(stretches[0], 1e-6))


def fit_grid(
    spots: npt.NDArray[np.float64], step: float, near: tuple[float, float], reach: float
) -> GridFit | None:
    """The pip grid (spacing ``step``) that explains the most spots within ``reach`` of ``near``.

    Turns are proposed by pairs of spots (neighbours along a side, or along a diagonal);
    centres by voting: every spot, read as each of the nine cells, names a centre, and the
    centre named by the most spots wins. A lone spot (a one) keeps its own place.
    """
    if len(spots) == 0:
        return None
    xy = spots[:, :2]
    strength = spots[:, 2]
    polarity = spots[:, 3] if spots.shape[1] > 3 else np.zeros(len(spots))
    close = np.hypot(xy[:, 0] - near[0], xy[:, 1] - near[1]) < reach
    if not close.any():
        return None
    turns = [0.0]
    for i in range(len(xy)):
        for j in range(i + 1, len(xy)):
            if not (close[i] or close[j]):
                continue
            d = xy[j] - xy[i]
            length = float(np.hypot(*d))
            angle = math.atan2(d[1], d[0])
            for ratio, offset in (
                (1.0, 0.0),
                (2.0, 0.0),
                (math.sqrt(2), math.pi / 4),
                (2 * math.sqrt(2), math.pi / 4),
            ):
                if abs(length / step - ratio) < 0.14 * ratio:
                    turns.append((angle - offset) % (math.pi / 2))
    best: GridFit | None = None
    best_key: tuple[bool, bool, int, float] = (False, False, -1, -1.0)
    leading = float(strength[close].max())
    cells = np.array([(a, b) for b in (-1, 0, 1) for a in (-1, 0, 1)], dtype=np.float64)
    tried: list[float] = []
    for turn in turns:
        if any(min(abs(turn - t), math.pi / 2 - abs(turn - t)) < math.radians(4) for t in tried):
            continue
        tried.append(turn)
        c, s = math.cos(turn), math.sin(turn)
        offsets = (
            np.column_stack([cells[:, 0] * c - cells[:, 1] * s, cells[:, 0] * s + cells[:, 1] * c])
            * step
        )
        centres = (xy[close][:, None, :] - offsets[None, :, :]).reshape(-1, 2)
        centres = centres[np.hypot(centres[:, 0] - near[0], centres[:, 1] - near[1]) <= reach]
        if len(centres) == 0:
            continue
        rel = xy[None, :, :] - centres[:, None, :]  # (M, N, 2)
        u = (rel[..., 0] * c + rel[..., 1] * s) / step
        v = (-rel[..., 0] * s + rel[..., 1] * c) / step
        ru, rv = np.round(u), np.round(v)
        on_grid = (
            (np.abs(u - ru) < 0.3) & (np.abs(v - rv) < 0.3) & (np.abs(ru) <= 1) & (np.abs(rv) <= 1)
        )
        inside = (np.abs(u) < 1.6) & (np.abs(v) < 1.6)
        # pips of one die are alike: weak spots on the grid are glints, not pips
        top = np.where(on_grid, strength[None, :], 0.0).max(axis=1, keepdims=True)
        on_grid &= strength[None, :] >= PIP_LIKENESS * top
        # the pips' own kind (darker or lighter); a faint ring of the other kind is no stray
        kind = np.sign(np.where(on_grid, strength[None, :] * polarity[None, :], 0.0).sum(axis=1))
        stray = inside & ~on_grid & ((polarity[None, :] == kind[:, None]) | (kind[:, None] == 0))
        weakest = np.where(on_grid, strength[None, :], np.inf).min(axis=1)
        strongest_stray = np.where(stray, strength[None, :], 0.0).max(axis=1)
        ratio = np.minimum(weakest / np.maximum(strongest_stray, 1e-3), 10.0)
        counts = on_grid.sum(axis=1)
        for index in np.argsort(-(counts * 100 + ratio))[:12]:
            if counts[index] == 0:
                continue
            members = on_grid[index]
            found = frozenset(
                (int(a), int(b))
                for a, b in zip(ru[index][members], rv[index][members], strict=True)
            )
            if len(found) != int(counts[index]) or found not in VALID_CELLS:
                continue
            key = (
                bool(ratio[index] >= 1.25),
                bool(weakest[index] >= PIP_LIKENESS * leading),
                len(found),
                float(ratio[index]),
            )
            if key > best_key:
                best_key = key
                a_cells, b_cells = ru[index][members], rv[index][members]
                # twos and threes lie on one diagonal: their turn, and so their aspect, is
                # not pinned down by the pips alone
                aspect = (
                    _squareness(u[index][members], v[index][members], a_cells, b_cells)
                    if len(found) >= 4
                    else 1.0
                )
                best = GridFit(
                    (float(centres[index, 0]), float(centres[index, 1])),
                    turn,
                    found,
                    float(ratio[index]),
                    float(aspect),
                )
    return best


ROUNDNESS = 0.4
"""Least ratio of a spot's two curvatures for it to count as a round pip."""
MARGIN = 1.5
"""Distance (in pip steps) from a face's centre to its margin, beyond the outer pips."""
FACE_SPREAD = 16.0
PIP_LIKENESS = 0.55
"""A spot weaker than this share of the strongest pip is not a pip of the same die."""
"""Largest L*a*b* difference between spots of bare face on one die."""


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

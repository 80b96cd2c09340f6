"""What a die's top, measured pip by pip, says of its pose: flat, or leaning on something.

Looked at through the camera model at its height, a flat die's top is an exact square: its pips
lie on a grid of two equal, perpendicular axes (:func:`flat_misfit` measures how far a grid is
from any such). A die leaning ``t`` degrees toward a direction ``d`` (the side toward ``d``
raised on what it leans on) shows each cell step ``e`` of its top changed twice:

* foreshortened along ``d``: ``e + (e.d) (cos t - 1) d``;
* and, since the top rises ``sin t`` per millimetre toward ``d``, shifted away from the point
  below the camera by the camera's slope there (``w``, the die's offset from that point over
  the camera's height above the top) times the rise: ``+ (e.d) sin t w``.

Seen straight down (``w`` = 0) a shallow lean hardly shows (cos 10 degrees is 0.985); seen at a
slant even a 10-degree lean stretches or shears the top by about ``sin 10 * |w|``, and a top
that shows none of it cannot lean at all (:func:`cannot_lean`), once the slope is steep enough.
A lean away from the camera is foreshortened and stretched at once, and at a slope of
``tan(t / 2)`` the two cancel: a square top under a slope of 0.41 (``tan 22.5``) may hide a
45-degree lean, and with the margins below a square top is told from every lean only from a
slope of about 0.55 (a camera tilted some 30 degrees, or a die far out in a wide view). Looking
nearly straight down, the rule never settles a die.

How far a grid lies from a square one (:func:`flat_misfit`) is the same measure as its
squareness (the ratio ``r`` of its two stretches, :func:`companion.vision.pips.grid_squareness`):
``sqrt 2 (1 - r) / (1 + r)``. What is new here is the other side: how near the grid lies to one
that some lean shows this camera.

Measured on 630 development dice whose four or more pips were found (seeds 5000-5479 and
6000-6299): flat dice's grids lay 0.02 (median) and at most 0.055 from a square one, a die's
whose value was read wrong aside; cocked dice's 0.085 (median); and every cocked die's grid lay
within 0.01 (median 0.001) of one that a lean toward some direction shows.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from companion.vision.pips import Axes, grid_squareness

LEAST_LEAN = 10.0
"""Least tilt (degrees) of a die leaning on something: a checker's side, a wall or the other
die holds a die's raised edge this far up at least (the simulator leans them 10-45)."""
MOST_LEAN = 45.0
"""Greatest tilt (degrees): past it another face is the one most nearly up, and read instead."""
SLOPE_HEDGE = 0.9
"""Share of the camera's slope a lean is also tried at: the camera model, recovered from the
board's homography, may place the camera a little lower, or farther off, than it is. Its slope
is then too steep, and a real lean, predicted to shear the top more than it does, would not
fit what shows. (On noise-free grids no lean needs it; it is insurance.)"""
SHOWN_AREA = 0.05
"""Least share of its area a leaning top shows the camera (``cos t + sin t (w.d)``) for that
lean to be tried: a top seen edge-on, or from below, is not the one read."""
FLAT_FIT = 0.04
"""Greatest misfit from a square grid (:func:`flat_misfit`) of a top that may show a die that
cannot lean: flat dice measured below 0.04 nineteen times in twenty."""
LEAN_MISFIT = 0.03
"""Least misfit from every leaning die's grid (:func:`lean_misfit`) for a die to lean on
nothing..."""
LEAN_MARGIN = 0.01
"""...which must also exceed its misfit from a square grid by this much: the grid is plainly
nearer flat than any lean. Measured on the development dice above: none of 182 cocked dice
would have been called unable to lean; 93 of 448 flat dice were."""

HEADING_STEP = 5.0
"""Degrees between the headings of the leans tried first (then finer round the best)."""
TILT_STEP = 1.0
"""Degrees between the tilts of the leans tried first."""

_TILTS = np.radians(np.arange(LEAST_LEAN, MOST_LEAN + TILT_STEP / 2, TILT_STEP))
_HEADINGS = np.radians(np.arange(0.0, 360.0, HEADING_STEP))


def flat_misfit(axes: Axes) -> float:
    """How far a grid (its two axes, any units per cell) lies from the nearest square grid,
    turned and scaled as needed: the Frobenius norm of the difference over the square grid's
    scale, which is ``sqrt 2 (1 - r) / (1 + r)`` of its squareness ``r``
    (:func:`companion.vision.pips.grid_squareness`). 0 for a flat die's top; about
    ``|1 - k| / sqrt 2`` for a top squashed to ``k``."""
    if not any(axes[0]) and not any(axes[1]):
        return math.inf  # no grid at all: nothing square about it
    # (its square part and the rest stretch the grid by their sum and their difference)
    squareness = grid_squareness(axes)
    return math.sqrt(2.0) * (1.0 - squareness) / (1.0 + squareness)


def lean_misfit(axes: Axes, slope: tuple[float, float], enough: float = 0.0) -> float:
    """How far a grid lies from the nearest one a die leaning :data:`LEAST_LEAN` to
    :data:`MOST_LEAN` degrees, toward any direction, shows a camera of ``slope`` there (and of
    :data:`SLOPE_HEDGE` of it), each turned and scaled as best fits; relative as
    :func:`flat_misfit`.

    Each lean's grid is ``s L R``: ``L`` the lean's change of a cell step (the module's
    docstring), ``R`` a turn. The turn and scale are fitted to ``L``'s inverse applied to the
    grid, which is near enough the best for leans this shallow. Leans are tried every
    :data:`HEADING_STEP` and :data:`TILT_STEP`, then finer round the best. A misfit below
    ``enough`` is returned as soon as found (the hedged slope is then not tried)."""
    a, b, c, d = _columns(axes)
    seen = np.array([[a, b], [c, d]])
    best = math.inf
    for share in (1.0, SLOPE_HEDGE):
        w = np.asarray(slope, dtype=np.float64) * share
        misfit, heading, tilt = _nearest_lean(seen, w, _HEADINGS, _TILTS)
        headings = heading + np.radians(np.linspace(-HEADING_STEP, HEADING_STEP, 11))
        tilts = np.clip(
            tilt + np.radians(np.linspace(-TILT_STEP, TILT_STEP, 9)),
            math.radians(LEAST_LEAN),
            math.radians(MOST_LEAN),
        )
        best = min(best, misfit, _nearest_lean(seen, w, headings, tilts)[0])
        if best < enough:
            break
    return best


def _nearest_lean(
    seen: npt.NDArray[np.float64],
    slope: npt.NDArray[np.float64],
    headings: npt.NDArray[np.float64],
    tilts: npt.NDArray[np.float64],
) -> tuple[float, float, float]:
    """The least misfit of ``seen`` (a grid as ``a b / c d``) from the leans of every heading
    and tilt given (radians), with that lean's heading and tilt; inf where the camera sees
    none of their tops (edge-on or from below)."""
    changes = _lean_changes(slope, headings, tilts)
    det = changes[:, 0, 0] * changes[:, 1, 1] - changes[:, 0, 1] * changes[:, 1, 0]
    shown = det > SHOWN_AREA
    if not np.any(shown):
        return math.inf, 0.0, 0.0
    inverse = (
        np.stack(
            [
                np.stack([changes[:, 1, 1], -changes[:, 0, 1]], axis=-1),
                np.stack([-changes[:, 1, 0], changes[:, 0, 0]], axis=-1),
            ],
            axis=1,
        )
        / np.where(shown, det, 1.0)[:, None, None]
    )
    upright = inverse @ seen
    p = (upright[:, 0, 0] + upright[:, 1, 1]) / 2
    q = (upright[:, 1, 0] - upright[:, 0, 1]) / 2
    turned = np.stack([np.stack([p, -q], axis=-1), np.stack([q, p], axis=-1)], axis=1)
    misfit = np.sqrt(((seen - changes @ turned) ** 2).sum(axis=(1, 2))) / np.maximum(
        np.hypot(p, q), 1e-9
    )
    misfit = np.where(shown, misfit, np.inf)
    index = int(np.argmin(misfit))
    heading, tilt = divmod(index, len(tilts))
    return float(misfit[index]), float(headings[heading]), float(tilts[tilt])


def cannot_lean(axes: Axes, slope: tuple[float, float]) -> bool:
    """Whether a top whose pips lie on ``axes`` shows a die that leans on nothing: its grid
    square within :data:`FLAT_FIT` and plainly farther from every leaning die's
    (:data:`LEAN_MISFIT`, :data:`LEAN_MARGIN`). Only a camera looking at the die at a slant
    can tell: straight down, a shallow lean's top is square too."""
    flat = flat_misfit(axes)
    if flat > FLAT_FIT or not all(math.isfinite(v) for v in slope):
        return False  # (a camera model giving no slope here tells nothing)
    least = max(LEAN_MISFIT, flat + LEAN_MARGIN)
    return lean_misfit(axes, slope, enough=least) >= least


def _columns(axes: Axes) -> tuple[float, float, float, float]:
    """The grid's map from cells to the plane as ``a b / c d`` (columns: the two axes), made
    right-handed: which way the cells are counted along the second axis is no part of a pose."""
    (a, c), (b, d) = axes
    if a * d - b * c < 0:
        b, d = -b, -d
    return a, b, c, d


def _lean_changes(
    slope: npt.NDArray[np.float64],
    headings: npt.NDArray[np.float64],
    tilts: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Every lean's change of a cell step, ``I + g d^T`` with ``g = (cos t - 1) d + sin t w``,
    for each heading ``d`` and tilt ``t`` given (one 2x2 matrix a lean, tilts varying
    fastest)."""
    heading = np.stack([np.cos(headings), np.sin(headings)], axis=-1)[:, None, :]
    g = (np.cos(tilts)[None, :, None] - 1.0) * heading + np.sin(tilts)[None, :, None] * slope
    changes = np.eye(2) + g[..., :, None] * heading[..., None, :]
    return np.asarray(changes.reshape(-1, 2, 2), dtype=np.float64)

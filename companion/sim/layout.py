"""Where the dice come to rest among the checkers: a small solver with exact contact.

Every object is reduced to its outline seen from above (a polygon on the canonical plane), and
a die is placed where its outline keeps clear of everything else, or exactly touches a chosen
checker or the other die. Randomness comes from the frame's generator, so a seed fixes the
placement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.sim import board, dice
from companion.sim.checkers import RADIUS, CheckerPlacement, top_height
from companion.sim.shape import CANONICAL_SHAPE, BoardShape

FloatArray = npt.NDArray[np.float64]
Where = g.Half
Touching = Literal["die", "checker"]
GAP = 0.6
"""Clearance (mm) kept between objects that are not meant to touch."""
CONTACT = 0.25
"""Distance (mm) at which two objects count as touching."""


class ImpossibleScene(CompanionError, ValueError):
    """The dice cannot be placed as asked (no room, no checker to lean on, ...)."""


@dataclass(frozen=True, slots=True)
class DieSpec:
    """How one die should come to rest; ``None`` fields are chosen at random.

    ``where`` is the part of the board (the same words as ``geometry.half_of``); by default the
    right-hand half of the player on roll (or the home half when nobody is on roll).
    """

    value: int
    rest: dice.Rest = "flat"
    where: Where | None = None
    touching: Touching | None = None
    tilt: float | None = None
    support: dice.Support | None = None
    rolling: bool = False
    """Caught mid-roll: drawn motion-blurred a little away from where it will settle."""
    pose: dice.DiePose | None = None
    """An exact resting pose (a sequence keeps its dice still across frames); skips placement."""

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ImpossibleScene(f"a die shows 1-6, not {self.value}")
        if self.tilt is not None and not 10.0 <= self.tilt <= 45.0:
            raise ImpossibleScene(f"a cocked die leans 10-45 degrees, not {self.tilt}")
        if self.rest != "flat" and self.touching is not None:
            raise ImpossibleScene("only a flat die can be placed touching something")


def checker_polygon(checker: CheckerPlacement) -> FloatArray:
    if checker.on_edge:
        half = (g.TRAY_SLOT - 1.0) / 2
        return np.array(
            [
                (checker.x - RADIUS, checker.y - half),
                (checker.x + RADIUS, checker.y - half),
                (checker.x + RADIUS, checker.y + half),
                (checker.x - RADIUS, checker.y + half),
            ]
        )
    angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    r = checker.radius
    return np.stack([checker.x + r * np.cos(angles), checker.y + r * np.sin(angles)], -1)


def clearance(a: FloatArray, b: FloatArray) -> float:
    """Distance between two convex outlines; negative when they overlap."""
    pa = a.astype(np.float32).reshape(-1, 1, 2)
    pb = b.astype(np.float32).reshape(-1, 1, 2)
    best = math.inf
    for vertices, polygon in ((a, pb), (b, pa)):
        for x, y in vertices:
            signed = cv2.pointPolygonTest(polygon, (float(x), float(y)), True)
            best = min(best, -signed)
    return best


def _region(
    where: Where, rng: np.random.Generator, shape: BoardShape = CANONICAL_SHAPE
) -> tuple[g.Rect, float]:
    """A rectangle (canonical) for the die's resting centre's footprint, and its surface height."""
    if where == "home":
        return (shape.bar_right, 0.0, shape.width, g.PLAY_HEIGHT), 0.0
    if where == "outer":
        return (0.0, 0.0, shape.bar_left, g.PLAY_HEIGHT), 0.0
    if where == "bar":
        return shape.bar_rect(), board.FRAME_HEIGHT
    choice = int(rng.integers(0, 3))
    if choice == 0:
        return shape.tray_rect("white" if rng.integers(0, 2) else "black"), 0.0
    if choice == 1:
        return (
            0.0,
            g.PLAY_HEIGHT + 1.0,
            shape.width,
            board.OBJECT_BOTTOM - 1.0,
        ), board.FRAME_HEIGHT
    return (0.0, board.OBJECT_TOP + 1.0, shape.width, -1.0), board.FRAME_HEIGHT


def _inside(outline: FloatArray, rect: g.Rect) -> bool:
    x0, y0, x1, y1 = rect
    return bool(
        np.all(outline[:, 0] >= x0 + 0.5)
        and np.all(outline[:, 0] <= x1 - 0.5)
        and np.all(outline[:, 1] >= y0 + 0.5)
        and np.all(outline[:, 1] <= y1 - 0.5)
    )


class _Solver:
    def __init__(
        self,
        checkers: list[CheckerPlacement],
        rng: np.random.Generator,
        free_gap: float = GAP,
        shape: BoardShape = CANONICAL_SHAPE,
    ) -> None:
        self.checkers = checkers
        self.rng = rng
        self.shape = shape
        self.free_gap = free_gap
        self.obstacles: list[tuple[FloatArray, float]] = [
            (checker_polygon(c), top_height(c)) for c in checkers
        ]
        self.dice: list[dice.DiePose] = []

    def clear(self, pose: dice.DiePose, ignore: int | None = None, gap: float = GAP) -> bool:
        outline = pose.footprint()
        centre = outline.mean(axis=0)
        reach = float(np.max(np.hypot(*(outline - centre).T))) + gap + 1.0
        for index, (polygon, _) in enumerate(self.obstacles):
            if index == ignore:
                continue
            checker = self.checkers[index]
            if math.dist((checker.x, checker.y), centre) > reach + checker.radius + 1.0:
                continue
            if clearance(outline, polygon) < gap:
                return False
        return all(clearance(outline, other.footprint()) >= gap for other in self.dice)

    def place(self, spec: DieSpec, where: Where) -> dice.DiePose:
        if spec.pose is not None:
            self.dice.append(spec.pose)
            return spec.pose
        for _ in range(400):
            pose = self._attempt(spec, where)
            if pose is not None:
                self.dice.append(pose)
                return pose
        raise ImpossibleScene(
            f"no room for a {spec.rest.replace('_', ' ')} die "
            f"{'touching a ' + spec.touching + ' ' if spec.touching else ''}in the {where} area: "
            "try another seed, another area, or fewer checkers there"
        )

    def _attempt(self, spec: DieSpec, where: Where) -> dice.DiePose | None:
        rng = self.rng
        rect, surface = _region(where, rng, self.shape)
        yaw = float(rng.uniform(0, 2 * math.pi))
        if spec.rest == "on_checker":
            candidates = [
                i for i, c in enumerate(self.checkers) if c.place == "point" and _covers(c, rect)
            ]
            candidates = [i for i in candidates if self._is_top(i)]
            if not candidates:
                raise ImpossibleScene(
                    f"a die cannot rest on a checker in the {where} area: no checker there"
                )
            checker = self.checkers[candidates[int(rng.integers(0, len(candidates)))]]
            offset = rng.uniform(-4, 4, size=2)
            return dice.flat_pose(
                spec.value,
                checker.x + float(offset[0]),
                checker.y + float(offset[1]),
                yaw,
                top_height(checker),
                "on_checker",
            )
        if spec.rest == "cocked":
            return self._cocked(spec, where, rect, surface)
        if spec.touching == "die" and self.dice:
            return self._touching(spec, self.dice[-1].footprint(), None, rect, surface, yaw)
        if spec.touching is not None:
            near = [i for i, c in enumerate(self.checkers) if c.base == surface and _near(c, rect)]
            if not near:
                raise ImpossibleScene(f"no checker in the {where} area for a die to touch")
            index = near[int(rng.integers(0, len(near)))]
            return self._touching(spec, self.obstacles[index][0], index, rect, surface, yaw)
        x = float(rng.uniform(rect[0], rect[2]))
        y = float(rng.uniform(rect[1], rect[3]))
        pose = dice.flat_pose(spec.value, x, y, yaw, surface)
        if _inside(pose.footprint(), rect) and self.clear(pose, gap=self.free_gap):
            return pose
        return None

    def _is_top(self, index: int) -> bool:
        checker = self.checkers[index]
        for other in self.checkers:
            if (
                other.base > checker.base
                and math.dist((other.x, other.y), (checker.x, checker.y)) < 2 * RADIUS
            ):
                return False
        return True

    def _touching(
        self,
        spec: DieSpec,
        target: FloatArray,
        ignore: int | None,
        rect: g.Rect,
        surface: float,
        yaw: float,
    ) -> dice.DiePose | None:
        centre = target.mean(axis=0)
        angle = float(self.rng.uniform(0, 2 * math.pi))
        direction = np.array([math.cos(angle), math.sin(angle)])
        low, high = 0.0, 80.0
        for _ in range(30):
            mid = (low + high) / 2
            x, y = centre + direction * mid
            pose = dice.flat_pose(spec.value, float(x), float(y), yaw, surface)
            if clearance(pose.footprint(), target) < CONTACT:
                low = mid
            else:
                high = mid
        x, y = centre + direction * high
        pose = dice.flat_pose(spec.value, float(x), float(y), yaw, surface)
        if not _inside(pose.footprint(), rect):
            return None
        others = [d for d in self.dice if not np.array_equal(d.footprint(), target)]
        saved, self.dice = self.dice, others
        try:
            ok = self.clear(pose, ignore)
        finally:
            self.dice = saved
        return pose if ok else None

    def _cocked(
        self, spec: DieSpec, where: Where, rect: g.Rect, surface: float
    ) -> dice.DiePose | None:
        rng = self.rng
        tilt = spec.tilt if spec.tilt is not None else float(rng.uniform(10, 45))
        support = spec.support
        if support is None:
            support = "checker" if rng.uniform() < 0.7 else "frame"
        if support == "checker":
            candidates = [
                i
                for i, c in enumerate(self.checkers)
                if c.place == "point" and c.layer == 0 and _near(c, rect) and surface == 0.0
            ]
            if not candidates:
                if spec.support == "checker":
                    raise ImpossibleScene(
                        f"a cocked die cannot lean on a checker in the {where} area: none there"
                    )
                support = "frame"
            else:
                index = candidates[int(rng.integers(0, len(candidates)))]
                checker = self.checkers[index]
                reach = dice.support_distance(tilt, top_height(checker) - surface)
                angle = float(rng.uniform(0, 2 * math.pi))
                direction = np.array([math.cos(angle), math.sin(angle)])
                pivot = np.array([checker.x, checker.y]) - direction * (checker.radius + reach)
                pose = dice.cocked_pose(
                    spec.value, float(pivot[0]), float(pivot[1]), angle, tilt, "checker", surface
                )
                if _inside(pose.footprint(), rect) and self.clear(pose, ignore=index):
                    return pose
                return None
        # lean on the frame: one of the region's walls, with the pivot edge inside the region
        x0, y0, x1, y1 = rect
        wall = int(rng.integers(0, 4))
        reach = dice.support_distance(tilt, board.FRAME_HEIGHT - surface)
        along = float(rng.uniform(0.15, 0.85))
        if wall == 0:
            spot, angle = (x0 + along * (x1 - x0), y0 + reach), -math.pi / 2
        elif wall == 1:
            spot, angle = (x1 - reach, y0 + along * (y1 - y0)), 0.0
        elif wall == 2:
            spot, angle = (x0 + along * (x1 - x0), y1 - reach), math.pi / 2
        else:
            spot, angle = (x0 + reach, y0 + along * (y1 - y0)), math.pi
        angle += float(rng.uniform(-0.02, 0.02))
        pose = dice.cocked_pose(spec.value, spot[0], spot[1], angle, tilt, "frame", surface)
        footprint = pose.footprint()
        grown = (x0 - dice.SIZE, y0 - dice.SIZE, x1 + dice.SIZE, y1 + dice.SIZE)
        if _inside(footprint, grown) and self.clear(pose):
            return pose
        return None


def _covers(checker: CheckerPlacement, rect: g.Rect) -> bool:
    return rect[0] <= checker.x <= rect[2] and rect[1] <= checker.y <= rect[3]


def _near(checker: CheckerPlacement, rect: g.Rect) -> bool:
    return _covers(checker, rect)


def place_dice(
    specs: list[DieSpec],
    checkers: list[CheckerPlacement],
    default_where: Where,
    rng: np.random.Generator,
    free_gap: float = GAP,
    shape: BoardShape = CANONICAL_SHAPE,
) -> list[dice.DiePose]:
    """Rests each die as its spec asks, clear of the checkers and of each other, on a board
    of ``shape`` (a die asked onto a narrow bar rests on it whole).

    ``free_gap`` (mm) is how far a die that is meant to lie free keeps from everything else;
    a scripted scene may ask for more room than the few tenths of a millimetre by default.
    """
    solver = _Solver(checkers, rng, free_gap, shape)
    return [solver.place(spec, spec.where or default_where) for spec in specs]

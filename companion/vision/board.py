"""Finding the playing area in a frame, with no markers on the board.

A backgammon board is recognised by what makes it one: twenty-four long triangles in two rows,
split by a bar. Candidate quadrilaterals come from the board's outline against the table (at
tournament proportions, trays at either end) and from long straight edges in the frame; each is
scored by how strongly colour edges run along the 48 long sides of the points where the board
geometry puts them (:func:`triangle_score`: sharp, and blind to the board's colours), the best
are nudged corner by corner until the sides line up, and the winner must stand out from the
frame's ordinary texture, so a frame without a board says so.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.vision.plane import Corners, Image, order_clockwise

FloatArray = npt.NDArray[np.float64]

WORK_WIDTH = 640
"""Frames are searched at this width (the corners are refined at full size afterwards)."""
MIN_SCORE = 3.0
"""How many times the frame's ordinary edge strength the points' edges must show."""
LEAST_AREA = 0.12
"""The playing area covers at least this share of the frame (a board seen from afar is too
small to read anyway)."""
REFINED = 6
"""How many of the most promising candidates are refined."""


class BoardNotFound(CompanionError, ValueError):
    """No playing area in the frame: says what was seen and what to do."""


@dataclass(frozen=True, slots=True)
class FoundBoard:
    corners_px: Corners
    """Clockwise from the top-left as the image shows them."""
    score: float


def _lines(gray: npt.NDArray[np.uint8]) -> FloatArray:
    """Long straight edges as ``(x0, y0, x1, y1)`` rows."""
    edges = cv2.Canny(gray, 40, 120)
    found = cv2.HoughLinesP(
        edges, 1, math.pi / 360, 50, minLineLength=gray.shape[1] // 8, maxLineGap=8
    )
    if found is None:
        return np.zeros((0, 4))
    return np.asarray(found, dtype=np.float64).reshape(-1, 4)


def _merge(lines: FloatArray, limit: int) -> list[tuple[float, float, float]]:
    """Lines as ``(angle, offset, length)``, merged when nearly the same, longest first."""
    out: list[tuple[float, float, float]] = []
    order = np.argsort(-np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1]))
    for x0, y0, x1, y1 in lines[order]:
        angle = math.atan2(y1 - y0, x1 - x0) % math.pi
        normal = (-math.sin(angle), math.cos(angle))
        offset = normal[0] * x0 + normal[1] * y0
        length = math.hypot(x1 - x0, y1 - y0)
        for index, (a, o, n) in enumerate(out):
            delta = min(abs(a - angle), math.pi - abs(a - angle))
            if delta < 0.04 and abs(o - offset) < 6.0:
                out[index] = (a, o, n + length)
                break
            if delta > math.pi - 0.04 and abs(o + offset) < 6.0:
                out[index] = (a, o, n + length)
                break
        else:
            out.append((angle, offset, length))
    out.sort(key=lambda line: -line[2])
    return out[:limit]


def _intersect(
    a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float] | None:
    na = (-math.sin(a[0]), math.cos(a[0]))
    nb = (-math.sin(b[0]), math.cos(b[0]))
    det = na[0] * nb[1] - na[1] * nb[0]
    if abs(det) < 1e-6:
        return None
    x = (a[1] * nb[1] - na[1] * b[1]) / det
    y = (na[0] * b[1] - a[1] * nb[0]) / det
    return (x, y)


_PLANE_RECT = np.array(
    [(0.0, 0.0), (g.PLAY_WIDTH, 0.0), (g.PLAY_WIDTH, g.PLAY_HEIGHT), (0.0, g.PLAY_HEIGHT)],
    dtype=np.float32,
)


def _triangle_sides() -> FloatArray:
    """Plane points along both long sides of every point, from mid-way to near the tip (where
    checkers seldom cover them): shape (48 sides, 10 points, 2)."""
    sides = []
    for number in range(1, 25):
        shape = g.point_shape(number)
        for side in (-1.0, 1.0):
            corner_x = shape.base_x + side * g.POINT_WIDTH / 2
            t = np.linspace(0.45, 0.95, 10)
            xs = corner_x + (shape.base_x - corner_x) * t
            ys = shape.base_y + (shape.tip_y - shape.base_y) * t
            sides.append(np.column_stack([xs, ys]))
    return np.array(sides)


_SIDES = _triangle_sides()


def triangle_score(gradient: npt.NDArray[np.float32], plane_to_image: FloatArray) -> float:
    """How well the points' edges line up with colour edges in the frame (mean over the 48
    long sides of the median edge strength along each): sharp, and blind to colours."""
    height, width = gradient.shape
    xy = cv2.perspectiveTransform(_SIDES.reshape(1, -1, 2), plane_to_image)[0]
    xs = np.clip(np.round(xy[:, 0]).astype(int), 0, width - 1)
    ys = np.clip(np.round(xy[:, 1]).astype(int), 0, height - 1)
    values = gradient[ys, xs].reshape(_SIDES.shape[0], _SIDES.shape[1])
    return float(np.mean(np.median(values, axis=1)))


def _to_image(corners: FloatArray) -> FloatArray:
    matrix = cv2.getPerspectiveTransform(_PLANE_RECT, corners.astype(np.float32))
    return np.asarray(matrix, dtype=np.float64)


def refine(
    gradient: npt.NDArray[np.float32], quad: FloatArray, least_area: float = 0.0
) -> tuple[float, FloatArray]:
    """Nudges each corner while the points' edges line up better (:func:`triangle_score`),
    never shrinking the quadrilateral below ``least_area`` pixels."""

    def score(corners: FloatArray) -> float:
        if cv2.contourArea(corners.astype(np.float32)) < least_area:
            return 0.0
        return triangle_score(gradient, _to_image(corners))

    best = quad.astype(np.float64).copy()
    best_score = score(best)
    for step in (4.0, 2.0, 1.0, 0.5):
        improved = True
        while improved:
            improved = False
            for corner in range(4):
                for axis in range(2):
                    for sign in (-1.0, 1.0):
                        trial = best.copy()
                        trial[corner, axis] += sign * step
                        value = score(trial)
                        if value > best_score + 1e-6:
                            best, best_score, improved = trial, value, True
    return best_score, best


def find_board(image: Image) -> FoundBoard:
    """The playing area's corners; raises :class:`BoardNotFound` when no board shows.

    Candidates come from the board's outline against the table and from long straight edges;
    the most promising are nudged until the points' edges line up (:func:`refine`), and the
    best wins if its points stand out from the frame's ordinary texture.
    """
    height, width = image.shape[:2]
    factor = WORK_WIDTH / max(width, height)
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1)
    gradient = (np.sqrt((gx * gx + gy * gy).sum(axis=2)) / 8.0).astype(np.float32)
    texture = float(np.median(gradient)) + 1.0
    candidates = list(_from_outline(lab))
    gray = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    families = _families(_merge(_lines(gray), 24))
    area_min = LEAST_AREA * small.shape[0] * small.shape[1]
    for (a1, a2), (b1, b2) in itertools.product(
        itertools.combinations(families[0], 2), itertools.combinations(families[1], 2)
    ):
        corners = [_intersect(a1, b1), _intersect(a1, b2), _intersect(a2, b2), _intersect(a2, b1)]
        if any(c is None for c in corners):
            continue
        quad = np.array(order_clockwise([c for c in corners if c is not None]))
        if cv2.contourArea(quad.astype(np.float32)) < area_min:
            continue
        if not cv2.isContourConvex(quad.astype(np.float32)):
            continue
        if (quad < -0.1 * WORK_WIDTH).any() or (quad > 1.1 * WORK_WIDTH).any():
            continue
        candidates.extend(np.roll(quad, -shift, axis=0) for shift in (0, 1))
    candidates = [q for q in candidates if cv2.contourArea(q.astype(np.float32)) >= area_min]
    ranked = sorted(candidates, key=lambda q: -triangle_score(gradient, _to_image(q)))
    best_score, best_quad = 0.0, None
    for quad in ranked[:REFINED]:
        score, refined = refine(gradient, quad, area_min)
        if score > best_score:
            best_score, best_quad = score, refined
    if best_quad is None or best_score / texture < MIN_SCORE:
        raise BoardNotFound(
            "no board found: no part of the frame shows two rows of points split by a bar "
            f"(best match {best_score / texture:.1f}). Make sure the whole playing area is in "
            'view, or give its corners with --corners "x,y x,y x,y x,y"'
        )
    corners_full = best_quad / factor
    return FoundBoard(order_clockwise(corners_full), best_score / texture)


_OBJECT = (-g.FRAME_WIDTH, -g.FRAME_WIDTH, g.PLAY_WIDTH + g.TRAY_GAP + g.TRAY_WIDTH + g.FRAME_WIDTH,
           g.PLAY_HEIGHT + g.FRAME_WIDTH)  # fmt: skip
"""A tournament board's outline on the plane: frame all round, trays on one side."""


def _from_outline(lab: npt.NDArray[np.float32]) -> list[FloatArray]:
    """Playing-area guesses from the board's outline against the table.

    The table is what the frame's border shows; the largest region unlike it is the board. Its
    four-sided outline holds the playing area at tournament proportions, with the trays at
    either end of the long side: one guess for each end.
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
    inner = np.array(
        [(0.0, 0.0), (g.PLAY_WIDTH, 0.0), (g.PLAY_WIDTH, g.PLAY_HEIGHT), (0.0, g.PLAY_HEIGHT)]
    )
    for shift in range(4):
        # the outline's corners, starting at each of them, as the object's corners in turn
        source = np.roll(outline, -shift, axis=0).astype(np.float32)
        target = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=np.float32)
        to_image = cv2.getPerspectiveTransform(target, source)
        guesses.append(cv2.perspectiveTransform(inner[None].astype(np.float64), to_image)[0])
    return guesses


def _families(
    lines: list[tuple[float, float, float]],
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Splits lines into the two dominant directions (the board's two axes)."""
    if not lines:
        return [], []
    main = lines[0][0]
    first, second = [], []
    for line in lines:
        delta = min(abs(line[0] - main), math.pi - abs(line[0] - main))
        if delta < math.radians(25):
            first.append(line)
        elif delta > math.radians(50):
            second.append(line)
    return first[:10], second[:10]

"""Things on the table around the board: a score pad, a dice cup, a mug, a can, a phone, a clock.

A photo of a game in play never shows a bare table, and a reader that has only ever seen bare
tables may take a mug's rim or a score pad's edge for part of the board. The items stand on the
table well clear of the board and the cube, and never cover any part of the board in the image,
so they hide nothing the truth describes. They stay put for a whole sequence: where they lie is
drawn from the light's seed and depends only on the camera, both of which a sequence keeps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim import board, lighting
from companion.sim.camera import Camera
from companion.sim.drawing import fill, paste_quad, shade
from companion.sim.shape import CANONICAL_SHAPE, BoardShape
from companion.sim.styles import BGR

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

CLEARANCE = 60.0
"""Least distance (mm) from an item to the board's outline; the cube lies within 45."""

Kind = Literal["pad", "cup", "mug", "can", "phone", "clock"]
KINDS: tuple[Kind, ...] = ("pad", "cup", "mug", "can", "phone", "clock")

BOXES: dict[str, tuple[float, float, float]] = {
    "pad": (105.0, 148.0, 3.0),
    "phone": (72.0, 150.0, 8.0),
    "clock": (170.0, 92.0, 55.0),
}
"""Length (along the item's own x), width and height of the box-shaped items, in mm."""
CYLINDERS: dict[str, tuple[float, float]] = {
    "cup": (37.0, 92.0),
    "mug": (41.0, 96.0),
    "can": (33.0, 115.0),
}
"""Radius and height of the round items, in mm."""

COLOURS: dict[str, tuple[BGR, ...]] = {
    "pad": ((236, 242, 245), (200, 238, 248), (240, 240, 236)),
    "cup": ((30, 45, 75), (28, 28, 30), (40, 40, 120), (60, 95, 140)),
    "mug": ((235, 236, 238), (60, 60, 62), (140, 90, 40), (50, 60, 170), (90, 160, 200)),
    "can": ((40, 30, 190), (60, 150, 40), (180, 120, 30), (200, 200, 205), (30, 30, 30)),
    "phone": ((30, 30, 32), (200, 205, 210), (60, 50, 40)),
    "clock": ((25, 25, 28), (40, 70, 120), (20, 30, 90)),
}
_RING = np.linspace(0, 2 * math.pi, 40, endpoint=False)


@dataclass(frozen=True, slots=True)
class Item:
    """One thing on the table: its kind, where it stands (world mm), its turn and colour."""

    kind: Kind
    x: float
    y: float
    angle: float
    """Radians about the vertical."""
    colour: BGR

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "position_mm": [round(self.x, 1), round(self.y, 1)],
            "angle_deg": round(math.degrees(self.angle), 1),
        }


# -- shapes -----------------------------------------------------------------------------------


def _box_corners(item: Item) -> FloatArray:
    """The eight corners (world x, y, height): bottom four, then top four, counter-clockwise."""
    length, width, height = BOXES[item.kind]
    c, s = math.cos(item.angle), math.sin(item.angle)
    half_l, half_w = length / 2, width / 2
    local = np.array([(-half_l, -half_w), (half_l, -half_w), (half_l, half_w), (-half_l, half_w)])
    flat = local @ np.array([[c, s], [-s, c]]) + [item.x, item.y]
    bottom = np.column_stack([flat, np.full(4, board.TABLE_HEIGHT)])
    top = np.column_stack([flat, np.full(4, board.TABLE_HEIGHT + height)])
    return np.concatenate([bottom, top])


def _rings(item: Item) -> tuple[FloatArray, FloatArray]:
    """Bottom and top rims of a round item (world x, y, height), (40, 3) each."""
    radius, height = CYLINDERS[item.kind]
    table = board.TABLE_HEIGHT
    return _ring_at(item, radius, table), _ring_at(item, radius, table + height)


def _solid(item: Item) -> FloatArray:
    """Points whose convex hull holds the whole item (world)."""
    if item.kind in BOXES:
        return _box_corners(item)
    bottom, top = _rings(item)
    points = np.concatenate([bottom, top])
    if item.kind == "mug":
        points = np.concatenate([points, _handle(item)])
    return points


def _handle(item: Item) -> FloatArray:
    """The middle line of a mug's handle: a half ring standing out from its side."""
    radius, height = CYLINDERS["mug"]
    out = np.array([math.cos(item.angle), math.sin(item.angle)])
    t = np.linspace(-math.pi / 2, math.pi / 2, 9)
    reach = radius + 6.0 + 20.0 * np.cos(t)
    heights = board.TABLE_HEIGHT + height * 0.52 + 30.0 * np.sin(t)
    return np.column_stack([item.x + out[0] * reach, item.y + out[1] * reach, heights]).astype(
        np.float64
    )


# -- placing ----------------------------------------------------------------------------------


def random_items(
    rng: np.random.Generator, camera: Camera, shape: BoardShape = CANONICAL_SHAPE
) -> tuple[Item, ...]:
    """None to four items where ``camera`` sees at least part of each, clear of the board
    (of ``shape``).

    An item is kept only if, in the image, it stays off the board, whatever stands on the board
    and the cube (all inside a box around the board), and off the other items.
    """
    count = int(rng.choice([0, 1, 2, 2, 3, 3, 4]))
    width, height = camera.size
    frame = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
    keep_out = [_board_hull(camera, shape)]
    to_table = np.linalg.inv(camera.plane_homography(board.TABLE_HEIGHT))
    items: list[Item] = []
    for _ in range(count * 10):
        if len(items) == count:
            break
        kind = KINDS[int(rng.integers(0, len(KINDS)))]
        palette = COLOURS[kind]
        # a spot in (or just beyond) the picture, found on the table
        u, v = float(rng.uniform(-0.1, 1.1)) * width, float(rng.uniform(-0.1, 1.1)) * height
        spot = to_table @ [u, v, 1.0]
        item = Item(
            kind,
            float(spot[0] / spot[2]),
            float(spot[1] / spot[2]),
            float(rng.uniform(0, 2 * math.pi)),
            palette[int(rng.integers(0, len(palette)))],
        )
        if spot[2] <= 0 or cv2.pointPolygonTest(keep_out[0], (u, v), False) >= 0:
            continue  # behind the camera, or on the board in the picture
        if _near_board(item, shape):
            continue
        hull = _hull(camera, _solid(item))
        seen, _ = cv2.intersectConvexConvex(hull, frame)
        if seen < 0.2 * cv2.contourArea(hull):
            continue
        if any(cv2.intersectConvexConvex(hull, other)[0] > 0 for other in keep_out):
            continue
        items.append(item)
        keep_out.append(_grown(hull, 6.0))
    return tuple(items)


def _reach(kind: str) -> float:
    """How far (mm) an item of ``kind`` reaches from its middle, however it is turned."""
    if kind in BOXES:
        length, width, _ = BOXES[kind]
        return math.hypot(length, width) / 2
    return CYLINDERS[kind][0] + (27.0 if kind == "mug" else 0.0)  # a mug's handle


def _near_board(item: Item, shape: BoardShape) -> bool:
    reach = _reach(item.kind)
    right = board.object_right(shape)
    return bool(
        board.OBJECT_LEFT - CLEARANCE - reach < item.x < right + CLEARANCE + reach
        and board.OBJECT_TOP - CLEARANCE - reach < item.y < board.OBJECT_BOTTOM + CLEARANCE + reach
    )


def _board_hull(camera: Camera, shape: BoardShape = CANONICAL_SHAPE) -> npt.NDArray[np.float32]:
    """The image outline of a box around the board and anything on or beside it."""
    margin = 50.0  # the cube, beside the board, reaches 45 mm out
    corners = [
        (x, y, h)
        for x in (board.OBJECT_LEFT - margin, board.object_right(shape) + margin)
        for y in (board.OBJECT_TOP - margin, board.OBJECT_BOTTOM + margin)
        # up to above the tallest stack with a die on it
        for h in (board.TABLE_HEIGHT, board.FRAMING_HEIGHT + 45.0)
    ]
    return _hull(camera, np.array(corners, np.float64))


def _hull(camera: Camera, points: FloatArray) -> npt.NDArray[np.float32]:
    projected = camera.project_undistorted(points).astype(np.float32)
    return np.asarray(cv2.convexHull(projected), np.float32)


def _grown(hull: npt.NDArray[np.float32], pixels: float) -> npt.NDArray[np.float32]:
    centre = hull.reshape(-1, 2).mean(axis=0)
    offsets = hull.reshape(-1, 2) - centre
    lengths = np.maximum(np.linalg.norm(offsets, axis=1, keepdims=True), 1e-6)
    grown = centre + offsets * (1 + pixels / lengths)
    return np.asarray(grown.reshape(-1, 1, 2), np.float32)


# -- drawing ----------------------------------------------------------------------------------


def shadow_outlines(items: Sequence[Item], light: lighting.Light) -> list[FloatArray]:
    """Each item's shadow on the table (world points whose hull it is), cast from the lamp.

    The renderer darkens them together with the checkers' and dice's shadows, in one pass,
    before it draws the items (which stand clear of everything else in the picture).
    """
    outlines = []
    for item in items:
        direction = light.direction_at(item.x, item.y, board.TABLE_HEIGHT)
        solid = _solid(item)
        cast = lighting.cast_shadow(solid, board.TABLE_HEIGHT, direction, 0.25)
        outlines.append(np.concatenate([solid[solid[:, 2] - board.TABLE_HEIGHT < 1.0], cast]))
    return outlines


def draw_items(image: Image, camera: Camera, items: Sequence[Item], light: lighting.Light) -> None:
    """Draws the items, farthest first (their shadows come from :func:`shadow_outlines`)."""
    depth = [float(camera.depth(np.array([i.x, i.y, board.TABLE_HEIGHT]))) for i in items]
    for _, item in sorted(zip(depth, items, strict=True), key=lambda pair: -pair[0]):
        direction = light.direction_at(item.x, item.y, board.TABLE_HEIGHT)
        if item.kind in BOXES:
            _draw_box(image, camera, item, direction)
        else:
            _draw_round(image, camera, item, direction)


def _draw_box(image: Image, camera: Camera, item: Item, light: FloatArray) -> None:
    corners = _box_corners(item)
    cam = camera.position
    centre = corners.mean(axis=0)
    for index in range(4):
        a, b = index, (index + 1) % 4
        quad = corners[[a, b, b + 4, a + 4]]
        middle = quad.mean(axis=0)
        normal = np.array([*(middle[:2] - centre[:2]), 0.0])
        normal /= np.linalg.norm(normal)
        if float(np.dot(normal, cam - middle)) <= 0:
            continue
        factor = 0.42 + 0.45 * max(0.0, float(np.dot(normal, light)))
        fill(image, camera.project_undistorted(quad), shade(_edge_colour(item), factor))
    top = camera.project_undistorted(corners[4:]).astype(np.float32)
    brightness = 0.8 + 0.25 * max(0.0, float(light[2]))
    paste_quad(image, _top_texture(item.kind, item.colour), top, brightness)


def _edge_colour(item: Item) -> BGR:
    """A box's sides: paper edges are the paper's colour, a phone's rim is metal."""
    if item.kind == "phone":
        return (150, 150, 155)
    return item.colour


def _draw_round(image: Image, camera: Camera, item: Item, light: FloatArray) -> None:
    radius, height = CYLINDERS[item.kind]
    bottom, top = _rings(item)
    pb, pt = camera.project_undistorted(bottom), camera.project_undistorted(top)
    handle_behind = False
    if item.kind == "mug":
        handle = _handle(item)
        handle_behind = float(camera.depth(handle[4])) > float(camera.depth(top.mean(axis=0)))
        if handle_behind:
            _draw_handle(image, camera, item, handle, light)
    hull = cv2.convexHull(np.concatenate([pb, pt]).astype(np.float32)).reshape(-1, 2)
    fill(image, hull.astype(np.float64), shade(item.colour, 0.35))
    # the side strip by strip: Lambert light, and a glossy streak where the lamp's mirror
    # image lies (ceramic and cans shine, a leather cup hardly)
    normals = np.column_stack([np.cos(_RING), np.sin(_RING), np.zeros(len(_RING))])
    middle = np.array([item.x, item.y, board.TABLE_HEIGHT + height / 2])
    view = camera.position - middle
    view /= np.linalg.norm(view)
    half_way = (light + view) / np.linalg.norm(light + view)
    gloss = 0.15 if item.kind == "cup" else 0.6
    lambert = np.clip(normals @ light, 0, 1)
    streak = np.clip(normals @ half_way, 0, 1) ** 30 * gloss
    facing = normals @ view
    for index in np.flatnonzero(facing > -0.1):
        following = (index + 1) % len(_RING)
        strip = np.array([pt[index], pt[following], pb[following], pb[index]])
        factor = 0.38 + 0.62 * float(lambert[index])
        colour = np.minimum(np.asarray(item.colour, np.float64) * factor + 255 * streak[index], 255)
        fill(image, strip, (float(colour[0]), float(colour[1]), float(colour[2])))
    if item.kind == "can":
        fill(image, pt, shade((190, 192, 196), 0.8 + 0.25 * float(light[2])))
        lid = _ring_at(item, radius - 4.0, board.TABLE_HEIGHT + height + 0.5)
        fill(image, camera.project_undistorted(lid), shade((170, 172, 176), 0.85))
    else:
        fill(image, pt, shade(item.colour, 0.85 + 0.2 * float(light[2])))
        wall = 3.5 if item.kind == "cup" else 4.5
        opening = camera.project_undistorted(
            _ring_at(item, radius - wall, board.TABLE_HEIGHT + height)
        )
        inside = shade(item.colour, 0.45)
        fill(image, opening, inside)
        # the near inner wall hides part of the inside's floor (or the coffee's surface)
        sunk = 60.0 if item.kind == "cup" else 14.0
        floor = camera.project_undistorted(
            _ring_at(item, radius - wall, board.TABLE_HEIGHT + height - sunk)
        )
        area, seen = cv2.intersectConvexConvex(opening.astype(np.float32), floor.astype(np.float32))
        if area > 1.0 and seen is not None:
            colour = (22, 32, 48) if item.kind == "mug" else shade(item.colour, 0.2)
            fill(image, seen.reshape(-1, 2).astype(np.float64), colour)
    if item.kind == "mug" and not handle_behind:
        _draw_handle(image, camera, item, _handle(item), light)


def _ring_at(item: Item, radius: float, height: float) -> FloatArray:
    return np.column_stack(
        [
            item.x + radius * np.cos(_RING),
            item.y + radius * np.sin(_RING),
            np.full(len(_RING), height),
        ]
    )


def _draw_handle(
    image: Image, camera: Camera, item: Item, handle: FloatArray, light: FloatArray
) -> None:
    pts = camera.project_undistorted(handle)
    px_per_mm = camera.focal / max(float(camera.depth(handle[4])), 1.0)
    thickness = max(2, round(9.0 * px_per_mm))
    out = np.array([math.cos(item.angle), math.sin(item.angle), 0.0])
    factor = 0.5 + 0.45 * max(0.0, float(np.dot(out, light)))
    cv2.polylines(
        image,
        [np.round(pts * 16).astype(np.int32)],
        False,
        shade(item.colour, factor),
        thickness,
        cv2.LINE_AA,
        4,
    )


# -- the tops of boxes ------------------------------------------------------------------------

TEXTURE_PX_PER_MM = 3.0


@lru_cache(maxsize=16)
def _top_texture(kind: str, colour: BGR) -> Image:
    """The top of a box-shaped item, BGRA, as seen from straight above (x along its length)."""
    length, width, _ = BOXES[kind]
    w, h = round(length * TEXTURE_PX_PER_MM), round(width * TEXTURE_PX_PER_MM)
    rng = np.random.default_rng(len(kind) * 1000 + sum(colour))
    paint = np.full((h, w, 3), colour, np.uint8)
    alpha = np.full((h, w), 255, np.uint8)
    if kind == "pad":
        _score_sheet(paint, rng)
    elif kind == "phone":
        alpha = _phone_glass(paint, rng)
    else:
        _clock_face(paint, rng)
    grain = rng.normal(0, 2.0, (h, w, 1))
    paint = np.clip(paint + grain, 0, 255).astype(np.uint8)
    return np.dstack([paint, alpha])


def _score_sheet(paint: Image, rng: np.random.Generator) -> None:
    """Ruled paper with a margin and a few pencilled scores, the sheet turned lengthwise."""
    h, w = paint.shape[:2]
    step = round(7.0 * TEXTURE_PX_PER_MM)
    for y in range(round(18 * TEXTURE_PX_PER_MM), h - 4, step):
        cv2.line(paint, (0, y), (w - 1, y), (200, 170, 150), 1, cv2.LINE_AA)
    margin = round(14 * TEXTURE_PX_PER_MM)
    cv2.line(paint, (margin, 0), (margin, h - 1), (120, 120, 215), 1, cv2.LINE_AA)
    middle = w // 2 + margin // 2
    cv2.line(paint, (middle, step), (middle, h - 1), (150, 150, 150), 1, cv2.LINE_AA)
    ink = (110, 70, 50) if rng.uniform() < 0.5 else (60, 60, 60)
    rows = int(rng.integers(2, max(3, (h - 18 * 3) // step)))
    for row in range(rows):
        y = round(18 * TEXTURE_PX_PER_MM) + row * step - 3
        for left in (margin + 8, middle + 8):
            text = str(int(rng.integers(0, 16)))
            cv2.putText(
                paint, text, (left, y), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.55, ink, 1, cv2.LINE_AA
            )


def _phone_glass(paint: Image, rng: np.random.Generator) -> Image:
    """A black screen under glass, a bezel and a soft reflection across it; returns the
    alpha of its rounded corners."""
    h, w = paint.shape[:2]
    bezel = round(3 * TEXTURE_PX_PER_MM)
    cv2.rectangle(paint, (bezel, bezel), (w - bezel, h - bezel), (14, 14, 16), -1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    slope = float(rng.uniform(0.3, 1.2))
    band = np.exp(-(((xx * slope + yy - float(rng.uniform(0.2, 0.8)) * (w + h)) / 60.0) ** 2))
    paint[:] = np.clip(paint + 28.0 * band[..., None], 0, 255).astype(np.uint8)
    corner = round(8 * TEXTURE_PX_PER_MM)
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (corner, 0), (w - 1 - corner, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, corner), (w - 1, h - 1 - corner), 255, -1)
    for cx, cy in ((corner, corner), (w - 1 - corner, corner), (corner, h - 1 - corner)):
        cv2.circle(alpha, (cx, cy), corner, 255, -1, cv2.LINE_AA)
    cv2.circle(alpha, (w - 1 - corner, h - 1 - corner), corner, 255, -1, cv2.LINE_AA)
    return alpha


def _clock_face(paint: Image, rng: np.random.Generator) -> None:
    """A game clock from above: two grey displays with the times and two press buttons."""
    for side in (0, 1):
        x0 = round((8 + side * 84) * TEXTURE_PX_PER_MM)
        x1 = x0 + round(70 * TEXTURE_PX_PER_MM)
        y0, y1 = round(42 * TEXTURE_PX_PER_MM), round(78 * TEXTURE_PX_PER_MM)
        cv2.rectangle(paint, (x0, y0), (x1, y1), (150, 172, 160), -1, cv2.LINE_AA)
        minutes, seconds = int(rng.integers(0, 60)), int(rng.integers(0, 60))
        cv2.putText(
            paint,
            f"{minutes}:{seconds:02d}",
            (x0 + 14, y1 - 26),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.6,
            (40, 45, 40),
            4,
            cv2.LINE_AA,
        )
        button = (round((42 + side * 84) * TEXTURE_PX_PER_MM), round(20 * TEXTURE_PX_PER_MM))
        cv2.circle(paint, button, round(11 * TEXTURE_PX_PER_MM), (60, 60, 60), -1, cv2.LINE_AA)
        cv2.circle(paint, button, round(8 * TEXTURE_PX_PER_MM), (90, 90, 95), -1, cv2.LINE_AA)

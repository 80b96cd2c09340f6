"""A player's hand and forearm reaching over (or toward) the board.

The hand is built from convex parts (forearm, palm, four tapered fingers, thumb) in world
millimetres at a height above the board, so it is drawn in perspective and casts a shadow away
from the lamp. Its exact outline in the image (the union of the drawn parts) goes into the
truth; a frame
in which it covers any part of the playing area or the trays is not readable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim import board
from companion.sim.camera import Camera
from companion.sim.drawing import fill
from companion.sim.styles import BGR

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

SKIN_TONES: tuple[BGR, ...] = (
    (150, 180, 225),
    (120, 160, 210),
    (95, 130, 180),
    (70, 100, 140),
    (50, 70, 100),
)
SLEEVES: tuple[BGR, ...] = (
    (110, 60, 30),
    (60, 60, 60),
    (200, 200, 200),
    (40, 40, 120),
    (30, 30, 30),
)


@dataclass(frozen=True)
class Hand:
    """A hand whose fingertips point at canonical ``(x, y)``, reaching from ``(from_x, from_y)``."""

    x: float
    y: float
    from_x: float
    from_y: float
    height: float
    skin: BGR
    sleeve: BGR
    spread: float
    """Radians between neighbouring fingers."""
    right_handed: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "kind": "hand",
            "target_mm": [round(self.x, 1), round(self.y, 1)],
            "height_mm": round(self.height, 1),
        }


def random_hand(rng: np.random.Generator, over_board: bool) -> Hand:
    """A hand reaching from white's or black's seat; over the playing area, or just beside it."""
    from_near = bool(rng.integers(0, 2))
    seat_y = g.PLAY_HEIGHT + 500.0 if from_near else -500.0
    if over_board:
        x = float(rng.uniform(40, g.PLAY_WIDTH - 40))
        y = float(rng.uniform(60, g.PLAY_HEIGHT - 60))
        from_x = x + float(rng.uniform(-250, 250))
    else:
        # resting on the table beside the board, clear of the frame by more than half a palm
        right = bool(rng.integers(0, 2))
        gap = float(rng.uniform(60, 100))
        x = board.OBJECT_RIGHT + gap if right else board.OBJECT_LEFT - gap
        y = float(rng.uniform(140, g.PLAY_HEIGHT - 140))
        outward = 1.0 if right else -1.0
        from_x = x + outward * float(rng.uniform(120, 300))
    height = float(rng.uniform(45, 110)) if over_board else float(rng.uniform(-12.0, 10.0))
    return Hand(
        x,
        y,
        from_x,
        seat_y,
        height,
        SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))],
        SLEEVES[int(rng.integers(0, len(SLEEVES)))],
        float(rng.uniform(0.02, 0.09)),
        bool(rng.integers(0, 2)),
    )


Part = tuple[FloatArray, FloatArray, BGR]
"""A convex part of the hand: the hull of circles (centres (k, 3) as canonical x, y, height and
radii (k,)), and its colour."""


def parts(hand: Hand) -> list[Part]:
    """The forearm, sleeve, palm, thumb and four fingers, drawn in this order."""
    return _build(hand)[0]


def _build(hand: Hand) -> tuple[list[Part], list[Part]]:
    """All parts, and separately the digits (thumb, then fingers) for their creases and nails."""
    tip = np.array([hand.x, hand.y])
    origin = np.array([hand.from_x, hand.from_y])
    forward = tip - origin
    forward /= np.linalg.norm(forward)
    side = np.array([-forward[1], forward[0]])
    thumb_side = 1.0 if hand.right_handed else -1.0
    h = hand.height
    knuckles = tip - forward * 78.0
    wrist = knuckles - forward * 88.0

    def part(points: list[tuple[FloatArray, float, float]], colour: BGR) -> Part:
        centres = np.array([(xy[0], xy[1], z) for xy, z, _ in points])
        radii = np.array([r for _, _, r in points])
        return centres, radii, colour

    elbow = origin + forward * 0.0
    cuff = wrist - forward * 70.0
    result = [
        part([(elbow, h + 160, 42.0), (cuff, h + 40, 34.0)], hand.sleeve),
        part([(cuff + forward * 5, h + 38, 29.0), (wrist, h + 18, 25.0)], hand.skin),
        part(
            [
                (knuckles + side * 28, h + 4, 11.0),
                (knuckles - side * 28, h + 4, 10.0),
                (wrist + side * 14, h + 14, 14.0),
                (wrist - side * 14, h + 14, 14.0),
            ],
            hand.skin,
        ),
    ]
    thumb_base = wrist + forward * 18 + side * thumb_side * 28
    thumb_direction = forward * 0.78 + side * thumb_side * 0.62
    digits = [
        part(
            [
                (thumb_base, h + 10, 12.5),
                (thumb_base + thumb_direction * 30, h + 2, 10.0),
                (thumb_base + thumb_direction * 52, h - 6, 8.3),
            ],
            hand.skin,
        )
    ]
    lengths = (70.0, 80.0, 75.0, 60.0)
    for index, offset in enumerate((1.5, 0.5, -0.5, -1.5)):
        base = knuckles + side * thumb_side * offset * 18.0
        angle = thumb_side * offset * hand.spread
        direction = forward * math.cos(angle) + side * math.sin(angle)
        length = lengths[index]
        digits.append(
            part(
                [
                    (base, h + 2, 9.0),
                    (base + direction * length * 0.55, h - 6, 8.2),
                    (base + direction * length, h - 16, 7.0),
                ],
                hand.skin,
            )
        )
    return result + digits, digits


_RING = np.linspace(0, 2 * math.pi, 16, endpoint=False)


def _outline(centres: FloatArray, radii: FloatArray) -> FloatArray:
    """Points (n, 3) around every circle of a part; its projected hull is the part's outline."""
    rings = [
        np.stack(
            [c[0] + r * np.cos(_RING), c[1] + r * np.sin(_RING), np.full_like(_RING, c[2])], -1
        )
        for c, r in zip(centres, radii, strict=True)
    ]
    return np.concatenate(rings)


def _world(points: FloatArray, orientation: board.Orientation) -> FloatArray:
    out = points.copy()
    out[:, :2] = orientation.to_world_array(points[:, :2])
    return out


def shadow_outlines(
    hand: Hand, orientation: board.Orientation, lamp: FloatArray
) -> list[FloatArray]:
    """Each part's outline cast from the lamp onto what lies under the hand (world 3D)."""
    ground = board.surface_height(hand.x, hand.y)
    outlines = []
    for centres, radii, _ in parts(hand):
        outline = _world(_outline(centres, radii), orientation)
        scale = (lamp[2] - ground) / np.maximum(lamp[2] - outline[:, 2], 1.0)
        cast = outline.copy()
        cast[:, 0] = lamp[0] + (outline[:, 0] - lamp[0]) * scale
        cast[:, 1] = lamp[1] + (outline[:, 1] - lamp[1]) * scale
        cast[:, 2] = ground
        outlines.append(cast)
    return outlines


def draw_hand(
    image: Image,
    camera: Camera,
    hand: Hand,
    orientation: board.Orientation,
    light_direction: FloatArray,
) -> npt.NDArray[np.uint8]:
    """Draws the hand with rounded shading; returns its mask (H, W) of covered pixels."""
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.uint8)
    layer = image.copy()
    light_side = light_direction[:2]
    for centres, radii, colour in parts(hand):
        axis = centres[-1, :2] - centres[0, :2]
        normal = np.array([-axis[1], axis[0]]) / (np.linalg.norm(axis) + 1e-9)
        toward = float(np.dot(normal, light_side))
        base = np.asarray(colour, np.float64)
        outline = camera.project_undistorted(_world(_outline(centres, radii), orientation))
        hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        fill(mask, hull, 255)
        edge = base * np.array([0.62, 0.66, 0.8]) if colour == hand.skin else base * 0.6
        fill(layer, hull, tuple(np.minimum(edge, 255)))
        # nested hulls, lighter toward the middle and the lamp: a rounded limb
        for step in range(1, 7):
            shrink = 1.0 - step / 7.5
            lifted = centres.copy()
            lifted[:, :2] += normal * toward * radii[:, None] * (1 - shrink) * 0.45
            lifted[:, 2] += step
            pts = camera.project_undistorted(_world(_outline(lifted, radii * shrink), orientation))
            inner = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
            tone = 0.72 + 0.05 * step
            fill(layer, inner, tuple(np.minimum(base * tone, 255)))
    _draw_digit_details(layer, camera, hand, orientation)
    # soften: skin is never a hard-edged polygon
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw and bh:
        x0, x1 = max(bx - 6, 0), min(bx + bw + 6, width)
        y0, y1 = max(by - 6, 0), min(by + bh + 6, height)
        roi = layer[y0:y1, x0:x1]
        layer[y0:y1, x0:x1] = cv2.GaussianBlur(roi, (0, 0), 1.6)
        alpha = (
            cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), 1.0).astype(np.float32)[..., None] / 255
        )
        region = image[y0:y1, x0:x1].astype(np.float32)
        image[y0:y1, x0:x1] = (region * (1 - alpha) + layer[y0:y1, x0:x1] * alpha).astype(np.uint8)
    return mask


def _draw_digit_details(
    layer: Image, camera: Camera, hand: Hand, orientation: board.Orientation
) -> None:
    """Knuckle creases across each digit and a nail at its tip, seen on the back of the hand."""
    skin = np.asarray(hand.skin, np.float64)
    crease = tuple(np.minimum(skin * np.array([0.7, 0.72, 0.82]), 255))
    nail = tuple(np.minimum(skin * np.array([1.08, 1.1, 1.12]) + 18, 255))
    for centres, radii, _ in _build(hand)[1]:
        base, middle, tip = centres
        axis = tip[:2] - base[:2]
        axis /= np.linalg.norm(axis) + 1e-9
        across = np.array([-axis[1], axis[0], 0.0])
        for t, centre, radius in ((0.5, middle, radii[1]), (0.8, None, radii[2])):
            spot = centre if centre is not None else middle + (tip - middle) * (t - 0.5) / 0.5
            ends = np.array([spot - across * radius * 0.75, spot + across * radius * 0.75])
            ends[:, 2] += radius * 0.9
            pts = camera.project_undistorted(_world(ends, orientation))
            cv2.line(
                layer,
                tuple(np.round(pts[0] * 16).astype(int)),
                tuple(np.round(pts[1] * 16).astype(int)),
                crease,
                1,
                cv2.LINE_AA,
                4,
            )
        nail_centre = tip - np.array([axis[0], axis[1], 0.0]) * radii[2] * 0.45
        nail_centre[2] += radii[2] * 0.9
        ring = np.stack(
            [
                nail_centre[0] + radii[2] * 0.62 * np.cos(_RING),
                nail_centre[1] + radii[2] * 0.62 * np.sin(_RING),
                np.full_like(_RING, nail_centre[2]),
            ],
            axis=-1,
        )
        fill(layer, camera.project_undistorted(_world(ring, orientation)), nail)


def mask_polygons(mask: npt.NDArray[np.uint8]) -> list[list[list[int]]]:
    """The outer outlines of a mask as integer pixel polygons (for the truth JSON)."""
    binary = (mask > 127).astype(np.uint8)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    polygons = []
    for contour in contours:
        simplified = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2)
        polygons.append([[int(x), int(y)] for x, y in simplified])
    return polygons

"""A player's hand and forearm reaching over (or toward) the board.

The hand is built from convex parts in world millimetres at a height above the board (sleeve,
forearm, the back of the hand, and every bone of the thumb and fingers, so a curled finger bends
at its joints), so it is drawn in perspective and casts a shadow away from the lamp, sharper the
nearer the board, over the soft dusk of the room's light it keeps off. Its shading has knuckle
bumps, tendons fanning to the knuckles, creases at the joints and nails; the hand's size and
whether the forearm is bare to the elbow come from its already drawn target, not new draws.

Its exact outline in the image (the union of the drawn parts, and of what
the hand holds) goes into the truth; a frame in which it covers any part of the playing area
or the trays is not readable.

Poses: ``reaching`` (fingers out, toward a spot), ``checker`` (fingers curled, pinching a
checker against the thumb: the checker being moved) and ``cup`` (gripping a dice cup from
above, the cup under the palm). :func:`random_hand` draws only ``reaching`` hands of five skin
tones unless asked for variety (``varied=True``), which adds the other poses, more skin tones,
sleeves and cups.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim import board, checkers
from companion.sim.camera import Camera
from companion.sim.drawing import fill, pixel_box, shade
from companion.sim.shape import CANONICAL_SHAPE, BoardShape
from companion.sim.styles import BGR, CheckerSet

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
MORE_SKIN_TONES: tuple[BGR, ...] = (
    (170, 195, 235),
    (135, 170, 220),
    (110, 150, 200),
    (85, 120, 165),
    (60, 85, 120),
    (40, 55, 80),
)
MORE_SLEEVES: tuple[BGR, ...] = (
    (160, 120, 230),  # pink
    (90, 50, 20),  # navy
    (50, 110, 60),  # green
    (140, 140, 150),  # grey
    (230, 230, 232),  # white shirt
    (60, 90, 150),  # tan
)
CUPS: tuple[BGR, ...] = ((30, 36, 48), (20, 20, 22), (40, 40, 120), (30, 70, 40), (60, 90, 130))
Pose = Literal["reaching", "checker", "cup"]
POSES: tuple[Pose, ...] = ("reaching", "checker", "cup")
CUP_RADIUS = 30.0
MAX_MOTION = 30.0
"""The farthest a hand moves during one exposure (mm): a brisk reach at 1/30 s."""
SMEAR_STEPS = 12
"""Copies of a moving hand averaged along its path (enough for a smooth smear)."""
CUP_HEIGHT = 85.0
DUSK_STRENGTH = 0.2
"""How much of the room's light a hand keeps off the board straight under it (its lamp shadow
comes on top)."""


def shadow_strength(light_strength: float) -> float:
    """How dark a hand's lamp shadow is, from the light's strength for the small shadows of
    checkers and dice: a hand is a large opaque thing a few centimetres over the board, so it
    keeps off far more of the light (faint hand shadows gave frames away as renders)."""
    return min(0.8, 0.15 + 1.3 * light_strength)


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
    pose: Pose = "reaching"
    """For ``checker`` and ``cup``, ``(x, y)`` is the centre of the checker or cup held."""
    held: Literal["white", "black"] = "white"
    """The colour of the checker a ``checker`` hand holds."""
    cup: BGR = CUPS[0]
    motion: float = 0.0
    """How far (mm) the hand moves toward its target while the shutter is open: a hand on its
    way is drawn smeared along its reach, as a camera at 1/30 s sees it."""

    def to_json(self) -> dict[str, object]:
        return {
            "kind": "hand",
            "pose": self.pose,
            "target_mm": [round(self.x, 1), round(self.y, 1)],
            "height_mm": round(self.height, 1),
            "motion_mm": round(self.motion, 1),
        }


def random_hand(
    rng: np.random.Generator,
    over_board: bool,
    varied: bool = False,
    shape: BoardShape = CANONICAL_SHAPE,
) -> Hand:
    """A hand reaching from white's or black's seat; over the playing area of a board of
    ``shape``, or just beside it.

    ``varied`` also draws the pose (reaching, holding a checker or a cup), more skin tones with
    a little jitter, more sleeves and the cup's colour, after the draws of a plain hand (so a
    plain hand is the same for a seed as it always was).
    """
    from_near = bool(rng.integers(0, 2))
    seat_y = g.PLAY_HEIGHT + 500.0 if from_near else -500.0
    if over_board:
        x = float(rng.uniform(40, shape.width - 40))
        y = float(rng.uniform(60, g.PLAY_HEIGHT - 60))
        from_x = x + float(rng.uniform(-250, 250))
    else:
        # resting on the table beside the board, clear of the frame by more than half a palm
        right = bool(rng.integers(0, 2))
        gap = float(rng.uniform(60, 100))
        x = board.object_right(shape) + gap if right else board.OBJECT_LEFT - gap
        y = float(rng.uniform(140, g.PLAY_HEIGHT - 140))
        outward = 1.0 if right else -1.0
        from_x = x + outward * float(rng.uniform(120, 300))
    height = float(rng.uniform(45, 110)) if over_board else float(rng.uniform(-12.0, 10.0))
    hand = Hand(
        x,
        y,
        from_x,
        seat_y,
        height,
        SKIN_TONES[int(rng.integers(0, len(SKIN_TONES)))],
        SLEEVES[int(rng.integers(0, len(SLEEVES)))],
        float(rng.uniform(0.01, 0.06)),
        bool(rng.integers(0, 2)),
    )
    if varied:
        hand = vary_hand(hand, rng, over_board)
    if over_board:  # a hand over the board is usually on its way somewhere
        hand = replace(hand, motion=_motion_of(hand))
    return hand


def _from_target(hand: Hand, a: float, b: float) -> float:
    """A number in [0, 1) taken from the hand's already drawn target (``a``, ``b`` pick which),
    for a choice made without a new draw: every sequence drawn from the same generator (games,
    the demo) stays as it was."""
    return (hand.x * a + hand.y * b) % 1.0


def _motion_of(hand: Hand) -> float:
    """How far a hand over the board moves during the exposure: from 0 to :data:`MAX_MOTION`,
    mostly small. Taken from the hand's already drawn target rather than a new draw, so that
    every sequence drawn from the same generator (games, the demo) stays as it was."""
    spread = _from_target(hand, 0.731, 0.317)
    return spread * spread * MAX_MOTION


def vary_hand(hand: Hand, rng: np.random.Generator, over_board: bool = True) -> Hand:
    """``hand`` with a random pose, skin tone, sleeve and cup (see :func:`random_hand`)."""
    tones = SKIN_TONES + MORE_SKIN_TONES
    base = np.asarray(tones[int(rng.integers(0, len(tones)))], np.float64)
    skin = np.clip(base * float(rng.uniform(0.92, 1.06)) + rng.normal(0, 5, 3), 0, 255)
    sleeves = SLEEVES + MORE_SLEEVES
    pose = POSES[int(rng.choice(3, p=[0.4, 0.35, 0.25] if over_board else [0.6, 0.0, 0.4]))]
    height = hand.height
    if pose != "reaching" and not over_board:
        height = max(height, 0.0)
    return Hand(
        hand.x,
        hand.y,
        hand.from_x,
        hand.from_y,
        height,
        (int(skin[0]), int(skin[1]), int(skin[2])),
        sleeves[int(rng.integers(0, len(sleeves)))],
        float(rng.uniform(0.0, 0.08)),
        hand.right_handed,
        pose,
        "white" if rng.integers(0, 2) else "black",
        CUPS[int(rng.integers(0, len(CUPS)))],
        hand.motion,
    )


Part = tuple[FloatArray, FloatArray, BGR]
"""A convex part of the hand: the hull of circles (centres (k, 3) as canonical x, y, height and
radii (k,)), and its colour."""


def parts(hand: Hand) -> list[Part]:
    """The forearm, the sleeve over it, the palm and the digits' bones, drawn in this order."""
    return _build(hand)[0]


def _size_of(hand: Hand) -> float:
    """How big this player's hand is (0.9-1.08 of an average man's), taken from the hand's
    already drawn target like :func:`_motion_of`, so no new draw moves any other choice."""
    return 0.9 + 0.18 * _from_target(hand, 0.417, 0.853)


def bare_arm(hand: Hand) -> bool:
    """Whether the forearm is bare to the elbow (a short sleeve) rather than covered to the
    wrist: a third of hands, taken from the hand's target like :func:`_size_of`."""
    return _from_target(hand, 0.291, 0.613) < 1 / 3


def _arm(
    hand: Hand, origin: FloatArray, wrist: FloatArray, forward: FloatArray, z: float, k: float
) -> list[Part]:
    """The bare forearm down to ``wrist`` and the sleeve from the shoulder's side (``origin``)
    (at height ``z``), rising toward the elbow; a short sleeve leaves the forearm bare to the
    elbow, which also widens toward it."""
    reach = max(float(np.linalg.norm(wrist - origin)), 1.0)
    bare = min((250.0 if bare_arm(hand) else 75.0) * k, reach * 0.8)
    cuff = wrist - forward * bare
    rise = 140.0 * bare / reach  # the arm climbs from the wrist to the shoulder
    elbow_radius = 27.0 + 9.0 * bare / 250.0
    # the forearm comes out of the sleeve: the sleeve is drawn over it, its rounded opening
    # ending at the cuff (a forearm's round end drawn over the sleeve looked pushed into it)
    opening = (elbow_radius + 7.0) * k
    end = cuff - forward * opening
    return [
        (
            np.array([[*(cuff - forward * 10.0), z + rise + 1.0], [wrist[0], wrist[1], z]]),
            np.array([elbow_radius, 27.0]) * k,
            hand.skin,
        ),
        (
            np.array([[origin[0], origin[1], z + 140.0], [end[0], end[1], z + rise + 2.0]]),
            np.array([46.0 * k, opening]),
            hand.sleeve,
        ),
    ]


def _segments(digit: Part) -> list[Part]:
    """A digit's bones, each between two neighbouring joints: drawn as separate rounded parts,
    a bent finger bends at its joints instead of being one straight hull."""
    centres, radii, colour = digit
    return [(centres[i : i + 2], radii[i : i + 2], colour) for i in range(len(radii) - 1)]


def _chain(
    start: FloatArray,
    z: float,
    direction: FloatArray,
    lengths: tuple[float, ...],
    bends: tuple[float, ...],
    radii: tuple[float, ...],
    colour: BGR,
) -> Part:
    """The joints of a digit from ``start`` (canonical x, y) at height ``z`` along
    ``direction`` (horizontal, unit): each bone ``lengths[i]`` long and pitched down by the sum
    of ``bends`` up to it (radians), so a curled finger is short from above and low at the tip."""
    points = [np.array([start[0], start[1], z])]
    pitch = 0.0
    for length, bend in zip(lengths, bends, strict=True):
        pitch += bend
        step = np.array(
            [direction[0] * math.cos(pitch), direction[1] * math.cos(pitch), -math.sin(pitch)]
        )
        points.append(points[-1] + step * length)
    return np.array(points), np.array(radii, np.float64), colour


def _build(hand: Hand) -> tuple[list[Part], list[Part]]:
    """All parts to draw, and separately the digits (thumb, then fingers) as chains of joints,
    for their shading, creases and nails."""
    body, digits = (_reaching if hand.pose == "reaching" else _holding)(hand)
    return body + [bone for digit in digits for bone in _segments(digit)], digits


def _reaching(hand: Hand) -> tuple[list[Part], list[Part]]:
    """An open hand reaching with its fingertips at (x, y): the sleeve, forearm and the back
    of the hand, and the digits as chains of joints."""
    tip = np.array([hand.x, hand.y])
    origin = np.array([hand.from_x, hand.from_y])
    forward = tip - origin
    forward /= np.linalg.norm(forward)
    side = np.array([-forward[1], forward[0]])
    thumb_side = 1.0 if hand.right_handed else -1.0
    h = hand.height
    k = _size_of(hand)
    knuckles = tip - forward * 74.0 * k
    wrist = knuckles - forward * 92.0 * k

    def part(points: list[tuple[FloatArray, float, float]], colour: BGR) -> Part:
        centres = np.array([(xy[0], xy[1], z) for xy, z, _ in points])
        radii = np.array([r * k for _, _, r in points])
        return centres, radii, colour

    result = [
        *_arm(hand, origin, wrist, forward, h + 20, k),
        # the back of the hand: broad at the knuckles, narrower at the wrist
        part(
            [
                (knuckles + side * 30 * k, h + 4, 12.0),
                (knuckles - side * 30 * k, h + 4, 11.0),
                (wrist + forward * 12 * k + side * 18 * k, h + 14, 15.0),
                (wrist + forward * 12 * k - side * 18 * k, h + 14, 15.0),
            ],
            hand.skin,
        ),
    ]
    thumb_base = wrist + forward * 18 * k + side * thumb_side * 23 * k
    thumb_direction = forward * 0.82 + side * thumb_side * 0.57
    thumb_direction /= np.linalg.norm(thumb_direction)
    thumb_bend = thumb_direction * 0.7 + forward * 0.3
    thumb_bend /= np.linalg.norm(thumb_bend)
    thumb = _chain(
        thumb_base, h + 8, thumb_direction, (34 * k,), (0.25,), (13 * k, 10.5 * k), hand.skin
    )
    tail = _chain(
        thumb[0][-1][:2],
        float(thumb[0][-1][2]),
        thumb_bend,
        (28 * k,),
        (0.2,),
        (10.5 * k, 8.6 * k),
        hand.skin,
    )
    digits = [
        (
            np.concatenate([thumb[0], tail[0][1:]]),
            np.concatenate([thumb[1], tail[1][1:]]),
            hand.skin,
        )
    ]
    # the ball of the thumb and the web of skin to the index finger's knuckle: without them
    # the thumb looks stuck onto the side of the hand
    result.append(
        part(
            [
                (thumb_base - forward * 10 * k, h + 10, 15.0),
                (thumb[0][1][:2] - thumb_direction * 8 * k, h + 6, 9.5),
                (knuckles + side * thumb_side * 24 * k, h + 4, 9.0),
            ],
            hand.skin,
        )
    )
    lengths = (72.0, 80.0, 76.0, 60.0)
    widths = (1.0, 1.02, 0.96, 0.84)
    # a relaxed hand: the fingers curl a little at each joint (more toward the little
    # finger), so they look shorter from above and dip at the tips; the little finger strays
    curls = (0.12, 0.16, 0.24, 0.3)
    strays = (0.03, 0.0, -0.03, -0.1)
    for index, offset in enumerate((1.5, 0.5, -0.5, -1.5)):
        base = knuckles + side * thumb_side * offset * 17.5 * k
        angle = thumb_side * (offset * hand.spread + strays[index])
        direction = forward * math.cos(angle) + side * math.sin(angle)
        length = lengths[index] * k
        curl = curls[index]
        bones = (length * 0.45, length * 0.31, length * 0.24)
        bends = (0.08 + 0.6 * curl, 0.9 * curl + 0.05, 0.6 * curl + 0.04)
        w = widths[index] * k
        digits.append(
            _chain(
                base,
                h + 2,
                direction,
                bones,
                bends,
                (10.2 * w, 9.2 * w, 8.2 * w, 7.4 * w),
                hand.skin,
            )
        )
    return result, digits


def _holding(hand: Hand) -> tuple[list[Part], list[Part]]:
    """A hand holding a checker (pinched) or a cup (gripped from above), centred on (x, y):
    the sleeve, forearm and palm, and the digits as chains of joints."""
    centre = np.array([hand.x, hand.y])
    origin = np.array([hand.from_x, hand.from_y])
    forward = centre - origin
    forward /= np.linalg.norm(forward)
    side = np.array([-forward[1], forward[0]])
    thumb_side = 1.0 if hand.right_handed else -1.0
    h = hand.height

    def part(points: list[tuple[FloatArray, float, float]], colour: BGR) -> Part:
        centres = np.array([(xy[0], xy[1], z) for xy, z, _ in points])
        radii = np.array([r for _, _, r in points])
        return centres, radii, colour

    if hand.pose == "checker":
        grip = h - 24.0  # the height of the fingertips on the checker's rim
        knuckles = centre - forward * 40.0
        palm_z = h + 8.0
        tips = [
            centre + forward * 15.0 + side * thumb_side * o * 8.0 for o in (1.4, 0.5, -0.5, -1.3)
        ]
        tip_z = [grip, grip, grip, grip + 4.0]
        thumb_tip = centre - forward * 6.0 + side * thumb_side * 16.0
    else:
        # the palm against the cup's near side, the fingers around one flank, the thumb
        # around the other, the open top left in view
        top = _cup_bottom(hand) + CUP_HEIGHT
        knuckles = centre - forward * (CUP_RADIUS + 10.0)
        palm_z = top - 6.0
        away = -thumb_side
        tips = []
        for degrees in (55.0, 80.0, 105.0, 128.0):
            angle = math.radians(degrees)
            tips.append(
                centre
                + (CUP_RADIUS + 5.0) * (math.cos(angle) * forward + math.sin(angle) * side * away)
            )
        tip_z = [top - 22.0] * 4
        angle = math.radians(75.0)
        thumb_tip = centre + (CUP_RADIUS + 5.0) * (
            math.cos(angle) * forward - math.sin(angle) * side * away
        )
    wrist = knuckles - forward * 86.0
    result = [
        *_arm(hand, origin, wrist, forward, palm_z + 14, 1.0),
        part(
            [
                (knuckles + side * 27, palm_z, 11.0),
                (knuckles - side * 27, palm_z, 10.0),
                (wrist + side * 14, palm_z + 10, 14.0),
                (wrist - side * 14, palm_z + 10, 14.0),
            ],
            hand.skin,
        ),
    ]
    thumb_base = wrist + forward * 20 + side * thumb_side * 28
    digits = [
        part(
            [
                (thumb_base, palm_z + 4, 12.5),
                ((thumb_base + thumb_tip) / 2, (palm_z + tip_z[0]) / 2, 10.0),
                (thumb_tip, tip_z[0] + 2.0, 8.3),
            ],
            hand.skin,
        )
    ]
    for index, offset in enumerate((1.5, 0.5, -0.5, -1.5)):
        base = knuckles + side * thumb_side * offset * 17.0
        bend = base + (tips[index] - base) * 0.55 + forward * 6.0
        if hand.pose == "cup":
            # round the cup, not across its mouth
            outward = bend - centre
            bend = centre + outward / (np.linalg.norm(outward) + 1e-9) * (CUP_RADIUS + 9.0)
        digits.append(
            part(
                [
                    (base, palm_z - 2, 9.0),
                    (bend, palm_z - 4, 8.3),
                    (tips[index], tip_z[index], 7.0),
                ],
                hand.skin,
            )
        )
    return result, digits


def _cup_bottom(hand: Hand) -> float:
    return max(hand.height - 55.0, board.surface_height(hand.x, hand.y) + 4.0)


def held_outline(hand: Hand) -> tuple[FloatArray, FloatArray] | None:
    """The bottom and top rims (canonical x, y, height) of what the hand holds, if anything."""
    if hand.pose == "reaching":
        return None
    if hand.pose == "checker":
        radius, bottom, height = checkers.RADIUS, hand.height - 31.0, checkers.THICKNESS
    else:
        radius, bottom, height = CUP_RADIUS, _cup_bottom(hand), CUP_HEIGHT
    ring = np.stack([hand.x + radius * np.cos(_RING), hand.y + radius * np.sin(_RING)], axis=-1)
    low = np.column_stack([ring, np.full(len(_RING), bottom)])
    high = np.column_stack([ring, np.full(len(_RING), bottom + height)])
    return low, high


def _draw_held(
    layer: Image,
    mask: npt.NDArray[np.uint8],
    camera: Camera,
    hand: Hand,
    orientation: board.Orientation,
    looks: CheckerSet | None,
) -> None:
    """The checker or cup in the hand, under the fingers."""
    rims = held_outline(hand)
    if rims is None:
        return
    low, high = (
        np.asarray(camera.project_undistorted(orientation.to_world_array(r)), np.float64)
        for r in rims
    )
    points = np.concatenate([low, high]).astype(np.float32)
    hull: FloatArray = cv2.convexHull(points).reshape(-1, 2).astype(np.float64)
    fill(mask, hull, 255)
    if hand.pose == "checker":
        face: BGR = (230, 230, 230)
        rim: BGR = (200, 200, 200)
        if looks is not None:
            face = looks.white if hand.held == "white" else looks.black
            rim = looks.white_rim if hand.held == "white" else looks.black_rim
        fill(layer, hull, (rim[0] * 0.7, rim[1] * 0.7, rim[2] * 0.7))
        fill(layer, high, face)
        return
    fill(layer, hull, shade(hand.cup, 0.75))
    fill(layer, high, shade(hand.cup, 1.3))
    inner = orientation.to_world_array(rims[1].copy())
    middle = inner.mean(axis=0)
    inner[:, :2] = middle[:2] + (inner[:, :2] - middle[:2]) * 0.85
    fill(layer, camera.project_undistorted(inner), shade(hand.cup, 0.35))


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


def _px_per_mm(camera: Camera, height: float) -> float:
    """How many pixels a millimetre at ``height`` spans in the picture (seen from straight
    above: the scale a part's thickness, a bump or a glint is drawn at)."""
    return camera.focal / max(float(camera.position[2]) - height, 1.0)


@dataclass(frozen=True)
class HandShapes:
    """A hand built for one frame: its parts and digits (canonical, see :func:`parts`) and,
    in the world, each part's outline and the outline of what it holds. Built once by
    :func:`shape_hand`: the shadows and the drawing use the same shapes."""

    hand: Hand
    orientation: board.Orientation
    parts: tuple[Part, ...]
    digits: tuple[Part, ...]
    outlines: tuple[FloatArray, ...]
    """Each part's outline in the world (3D), in the order of :attr:`parts`."""
    held: FloatArray | None
    """The outline of the checker or cup the hand holds in the world, if it holds one."""


def shape_hand(hand: Hand, orientation: board.Orientation) -> HandShapes:
    """``hand``'s parts, digits and their outlines in the world, as it stands on a board
    turned by ``orientation``."""
    every, digits = _build(hand)
    outlines = tuple(orientation.to_world_array(_outline(c, r)) for c, r, _ in every)
    rims = held_outline(hand)
    held = None if rims is None else orientation.to_world_array(np.concatenate(rims))
    return HandShapes(hand, orientation, tuple(every), tuple(digits), outlines, held)


def shadow_outlines(shapes: HandShapes, lamp: FloatArray) -> list[FloatArray]:
    """Each part's outline cast from the lamp onto what lies under the hand (world 3D)."""
    hand = shapes.hand
    ground = board.surface_height(hand.x, hand.y, shapes.orientation.shape)
    outlines = []
    held = [] if shapes.held is None else [shapes.held]
    for outline in [*shapes.outlines, *held]:
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
    shapes: HandShapes,
    light_direction: FloatArray,
    looks: CheckerSet | None = None,
    photo: bool = False,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Draws the hand with rounded shading; returns its mask (H, W) of covered pixels (however
    faintly: a moving hand's smear too) and how much it covers each (0-255).

    Each part is a rounded limb: its silhouette's distance to the edge gives a height profile,
    whose slope is lit by the lamp (Lambert with warm, reddish shade toward the edges, as light
    scattered under skin looks, and a faint sheen). Overlapping skin parts merge by height, so
    wrist, palm and fingers meet without seams and fingers part with a shadowed crease. The
    sleeve gets soft fabric folds. ``looks`` colours a checker the hand holds. ``photo`` adds
    what a photograph shows of skin up close (a photo look, ``Scene.photo``): veins on the back
    of the hand and fine hairs on the forearm.
    """
    hand, orientation, digits = shapes.hand, shapes.orientation, list(shapes.digits)
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.uint8)
    layer = image.copy()
    _draw_held(layer, mask, camera, hand, orientation, looks)
    hulls = []
    for (centres, radii, colour), world in zip(shapes.parts, shapes.outlines, strict=True):
        outline = camera.project_undistorted(world)
        hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        fill(mask, hull, 255)
        # how thick the part stands (pixels): its circles' radius; a hull far wider than
        # that (the back of the hand) is flat on top with rounded sides, not a cylinder
        thickness = float(radii.max()) * _px_per_mm(camera, float(centres[:, 2].mean()))
        hulls.append((hull, thickness, colour))
    bx, by, bw, bh = cv2.boundingRect(mask)
    if not bw or not bh:
        return mask, mask.copy()
    x0, x1 = max(bx - 6, 0), min(bx + bw + 6, width)
    y0, y1 = max(by - 6, 0), min(by + bh + 6, height)
    roi = layer[y0:y1, x0:x1]
    _shade_limbs(roi, hulls, digits, hand, camera, orientation, light_direction, (x0, y0), photo)
    _draw_digit_details(layer, camera, digits, hand, orientation)
    # soften: skin is never a hard-edged polygon
    layer[y0:y1, x0:x1] = cv2.GaussianBlur(roi, (0, 0), 0.9)
    alpha: npt.NDArray[Any] = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), 1.0) / np.float32(255)
    painted: npt.NDArray[Any]
    smear = _smear_shifts(camera, hand, orientation)
    if smear is not None:
        # the moving hand over what it passes: colour and coverage smeared alike; the mask
        # then holds every pixel the smear touches, however faintly
        pad = int(np.abs(smear).max()) + 2
        x0, x1 = max(bx - 6 - pad, 0), min(bx + bw + 6 + pad, width)
        y0, y1 = max(by - 6 - pad, 0), min(by + bh + 6 + pad, height)
        whole = _place(
            alpha,
            np.zeros((y1 - y0, x1 - x0), np.float32),
            max(by - 6, 0) - y0,
            max(bx - 6, 0) - x0,
        )
        premultiplied: npt.NDArray[Any] = layer[y0:y1, x0:x1] * whole[..., None]
        premultiplied = _smeared(premultiplied, smear)
        alpha = _smeared(whole, smear)
        painted = premultiplied / np.maximum(alpha, 1e-4)[..., None]
        mask[y0:y1, x0:x1] = np.where(alpha > 0.02, 255, 0).astype(np.uint8)
    else:
        painted = layer[y0:y1, x0:x1].astype(np.float32)
    region = image[y0:y1, x0:x1].astype(np.float32)
    weight = alpha[..., None]
    image[y0:y1, x0:x1] = np.clip(region * (1 - weight) + painted * weight, 0, 255).astype(np.uint8)
    coverage = np.zeros_like(mask)
    coverage[y0:y1, x0:x1] = np.clip(alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return mask, coverage


def _place(
    small: npt.NDArray[Any], canvas: npt.NDArray[np.float32], top: int, left: int
) -> npt.NDArray[np.float32]:
    """``small`` copied into ``canvas`` at (top, left)."""
    canvas[top : top + small.shape[0], left : left + small.shape[1]] = small
    return canvas


def _smear_shifts(camera: Camera, hand: Hand, orientation: board.Orientation) -> FloatArray | None:
    """Pixel offsets (k, 2) spread along the hand's travel during one exposure, centred on
    zero, or ``None`` for a hand that keeps still (or moves less than a pixel or two)."""
    if hand.motion <= 0.5:
        return None
    forward = np.array([hand.x - hand.from_x, hand.y - hand.from_y])
    forward /= np.linalg.norm(forward) + 1e-9
    ends = np.array(
        [
            [hand.x, hand.y, hand.height],
            [hand.x - forward[0] * hand.motion, hand.y - forward[1] * hand.motion, hand.height],
        ]
    )
    a, b = camera.project_undistorted(orientation.to_world_array(ends))
    travel = b - a
    length = float(np.hypot(*travel))
    if length < 1.5:
        return None
    steps = min(max(int(length), 2), SMEAR_STEPS)
    return np.asarray(np.linspace(-0.5, 0.5, steps)[:, None] * travel[None, :], np.float64)


def _smeared(array: npt.NDArray[Any], shifts: FloatArray) -> npt.NDArray[Any]:
    """The mean of ``array`` moved by each shift (whole pixels; edges padded by zeros)."""
    total = np.zeros_like(array, dtype=np.float32)
    rows, cols = array.shape[:2]
    for dx, dy in np.round(shifts).astype(int):
        src_y = slice(max(-dy, 0), rows - max(dy, 0))
        src_x = slice(max(-dx, 0), cols - max(dx, 0))
        dst_y = slice(max(dy, 0), rows - max(-dy, 0))
        dst_x = slice(max(dx, 0), cols - max(-dx, 0))
        total[dst_y, dst_x] += array[src_y, src_x]
    return np.asarray(total / len(shifts), np.float32)


def _image_light(
    camera: Camera, hand: Hand, orientation: board.Orientation, light: FloatArray
) -> FloatArray:
    """The lamp's direction in image terms: (right, down) across the picture, and toward the
    camera; found by projecting a short step toward the lamp from the hand."""
    wx, wy = orientation.to_world(hand.x, hand.y)
    here = np.array([[wx, wy, hand.height], [wx + light[0] * 20, wy + light[1] * 20, hand.height]])
    a, b = camera.project_undistorted(here)
    across = (b - a) / 20.0
    scale = float(np.hypot(*across))
    flat = float(np.hypot(light[0], light[1]))
    across = across / scale * flat if scale > 1e-9 else across * flat
    vector = np.array([across[0], across[1], max(float(light[2]), 0.2)])
    return np.asarray(vector / np.linalg.norm(vector))


SHADING_PIXELS = 60_000
"""Above this many pixels a hand's shading (smooth by nature) is worked out at half size."""


def _shade_limbs(
    roi: Image,
    hulls: list[tuple[FloatArray, float, BGR]],
    digits: list[Part],
    hand: Hand,
    camera: Camera,
    orientation: board.Orientation,
    light: FloatArray,
    offset: tuple[int, int],
    photo: bool = False,
) -> None:
    """Paints the parts of the hand (in drawing order) into ``roi`` as lit, rounded limbs.

    The colours and outlines are drawn at full size; the light on them (a smooth field) is
    worked out on a smaller grid when the hand is large, then scaled up. ``photo``: veins and
    fine hairs too (see :func:`draw_hand`).
    """
    rows, cols = roi.shape[:2]
    scale = 2 if rows * cols > SHADING_PIXELS else 1
    small = (max(rows // scale, 1), max(cols // scale, 1))
    lamp = _image_light(camera, hand, orientation, light)
    relief: npt.NDArray[Any] = np.zeros(small, np.float32)
    is_skin_small = np.zeros(small, np.float32)
    covered = np.zeros((rows, cols), np.uint8)
    albedo = roi.copy()
    shift = np.array(offset, np.float64)
    for hull, thickness, colour in hulls:
        wearing = colour != hand.skin
        local = hull - shift
        fill(covered, local, 255)
        fill(albedo, local, colour)
        local = local / scale
        bounds = pixel_box(local, (small[1], small[0]), margin=2)
        if bounds is None:
            continue
        left, top, right, bottom = bounds
        part = np.zeros((bottom - top, right - left), np.uint8)
        fill(part, local - [left, top], 255)
        inside = cv2.distanceTransform((part > 127).astype(np.uint8), cv2.DIST_L2, 3)
        radius = max(min(float(inside.max()), thickness / scale), 1.0)
        # a round limb's profile across its width: a half ellipse, in pixels of height, that
        # levels off at the part's thickness
        t = np.minimum(inside / radius, 1.0)
        profile = np.sqrt(np.maximum(1.0 - (1.0 - t) ** 2, 0.0)) * radius
        # rounded across its middle too (a distance field alone leaves a roof-like ridge)
        profile = cv2.GaussianBlur(profile, (0, 0), max(1.0, 0.3 * radius)) * (part > 0)
        weight = part.astype(np.float32) / 255.0
        box = (slice(top, bottom), slice(left, right))
        if wearing:  # the sleeve lies under the skin drawn after it
            relief[box] = relief[box] * (1 - weight) + profile * weight
            is_skin_small[box] *= 1 - weight
        else:
            # skin merges with the skin already drawn by height; it covers the sleeve
            below = relief[box]
            # a smooth maximum: parts blend where they meet, without a seam, and it is the
            # plain maximum wherever one part stands well above the other
            soft = 0.4 * radius
            near = np.maximum(soft - np.abs(below - profile), 0.0) / soft
            blended = np.maximum(below, profile) + near * near * soft / 4
            merged = np.where(is_skin_small[box] > 0.5, blended, profile)
            relief[box] = relief[box] * (1 - weight) + merged * weight
            is_skin_small[box] = np.maximum(is_skin_small[box], weight)
    grid = _ShadingGrid(small, camera, orientation, offset, scale)
    knuckles, flush = _joints(grid, digits, hand)
    veins = np.zeros(small, np.float32)
    if photo:
        veins = _veins(grid, digits, hand)
        knuckles = knuckles + veins
        veins = veins / np.float32(max(float(veins.max()), 1e-6))
    relief = cv2.GaussianBlur(relief + knuckles * is_skin_small, (0, 0), 1.2)
    dx = cv2.Sobel(relief, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    dy = cv2.Sobel(relief, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    norm = np.sqrt(dx * dx + dy * dy + 1.0)
    facing = (-dx * lamp[0] - dy * lamp[1] + lamp[2]) / norm
    shading = 0.42 + 0.7 * np.clip(facing, 0.0, 1.0)
    steep = 1.0 - 1.0 / norm  # 0 on top of a limb, toward 1 at its silhouette
    # light scattered under the skin: shade turns warm and red rather than grey; skin is
    # mottled and has a faint sheen; cloth has soft folds
    # blood shows through where the skin is thin or creased: knuckles, joints and fingertips
    # are pinker than the back of the hand; fine pores and creases break up the tone
    mottle = _mottle(*small, hand) * _pores(*small, hand)
    # blotches of redness (blood under the skin), apart from the blotches of brightness
    red = SKIN_REDNESS * _window(*small, replace(hand, x=hand.y, y=hand.x))
    fabric = _fabric_folds(grid, hand)
    share = is_skin_small
    skin_b = (1.0 - 0.22 * steep - 0.1 * flush - red) * mottle
    skin_g = (1.0 - 0.12 * steep - 0.07 * flush - 0.5 * red) * mottle
    skin_r = (1.0 + 0.04 * steep + 0.06 * flush + 0.5 * red) * mottle
    if photo:
        # veins show bluish through the skin; fine hairs darken it in short streaks
        hairs = _hairs(grid, hand)
        tint = VEIN_TINT * veins * mottle
        skin_b = (skin_b + tint) * hairs
        skin_g = (skin_g - 0.4 * tint) * hairs
        skin_r = (skin_r - tint) * hairs
    cloth = (1 - share) * fabric
    gain = np.stack(
        [
            shading * (share * skin_b + cloth),
            shading * (share * skin_g + cloth),
            shading * (share * skin_r + cloth),
        ],
        axis=-1,
    )
    gloss = np.clip(facing * 1.02 - 0.02, 0.0, 1.0) ** 10 * 20.0 * share
    # apply in bytes (gain in 1/128ths), the fast saturating way
    gain_bytes: npt.NDArray[Any] = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
    gloss_bytes = cv2.cvtColor(np.clip(gloss, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    if scale > 1:
        gain_bytes = cv2.resize(gain_bytes, (cols, rows), interpolation=cv2.INTER_LINEAR)
        gloss_bytes = cv2.resize(gloss_bytes, (cols, rows), interpolation=cv2.INTER_LINEAR)
    lit = cv2.add(cv2.multiply(albedo, gain_bytes, scale=1 / 128), gloss_bytes)
    cv2.copyTo(lit, covered, roi)


def _tendons(hand: Hand, digits: list[Part]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The hand's forward direction (canonical x, y) and its tendons' ends (canonical x, y,
    height): each finger's knuckle and the start by the wrist, fanning toward the knuckles."""
    forward = np.array([hand.x - hand.from_x, hand.y - hand.from_y])
    forward /= np.linalg.norm(forward) + 1e-9
    bases = np.array([centres[0] for centres, _, _ in digits[1:]])
    if not len(bases):
        return forward, bases, bases
    middle = bases.mean(axis=0)
    starts = middle + (bases - middle) * 0.35
    starts[:, :2] -= forward * 62.0
    starts[:, 2] += 8.0
    return forward, bases, starts


VEIN_TINT = 0.07
"""How much bluer (and less red) skin is over a vein on the back of the hand."""
HAIR_DARKNESS = 0.09
"""How much a fine hair darkens the skin under it (relative), on the forearm; fewer and fainter
on the back of the hand."""


@dataclass(frozen=True, slots=True)
class _ShadingGrid:
    """The grid a hand's light is worked out on: the picture's pixels from ``offset``,
    ``scale`` times coarser, ``size`` (rows, columns), as the camera sees the board."""

    size: tuple[int, int]
    camera: Camera
    orientation: board.Orientation
    offset: tuple[int, int]
    scale: int

    def points(self, points: FloatArray) -> FloatArray:
        """Points on the board (mm) where the grid shows them."""
        seen = self.camera.project_undistorted(self.orientation.to_world_array(points))
        return np.asarray((seen - np.array(self.offset, np.float64)) / self.scale, np.float64)

    def px_per_mm(self, height: float) -> float:
        """Grid pixels per millimetre at ``height`` over the board."""
        return _px_per_mm(self.camera, height) / self.scale


def _veins(grid: _ShadingGrid, digits: list[Part], hand: Hand) -> npt.NDArray[np.float32]:
    """The veins on the back of the hand (pixels of height, on the shading grid): between each
    two tendons a vein, bowed, from the wrist toward the gap between two knuckles. Smooth
    skin without them was one of the things that gave a hand away as drawn."""
    veins = np.zeros(grid.size, np.float32)
    forward, bases, starts = _tendons(hand, digits)
    px_per_mm = grid.px_per_mm(hand.height)
    side = np.array([-forward[1], forward[0]])
    thin = max(1, round(1.6 * px_per_mm))
    for index in range(len(bases) - 1):
        root = (starts[index] + starts[index + 1]) / 2
        root[:2] -= forward * 18.0
        gap = (bases[index] + bases[index + 1]) / 2
        gap[:2] -= forward * 14.0
        bow = (root + gap) / 2
        bow[:2] += side * (5.0 if index % 2 else -4.0)
        path = np.array([root, bow, gap])
        seen = grid.points(path)
        cv2.polylines(
            veins, [np.round(seen * 16).astype(np.int32)], False, 1.0, thin, cv2.LINE_AA, 4
        )
    return np.asarray(cv2.GaussianBlur(veins, (0, 0), max(0.8, 0.8 * px_per_mm)), np.float32)


def _arm_in_picture(
    hand: Hand, camera: Camera, orientation: board.Orientation
) -> tuple[FloatArray, FloatArray]:
    """Where the hand reaches to in the picture (pixels, undistorted), and the unit direction
    the arm comes from along: what lies along the arm (a sleeve's folds, hairs) follows it."""
    start, target = camera.project_undistorted(
        orientation.to_world_array(
            np.array([[hand.from_x, hand.from_y, hand.height], [hand.x, hand.y, hand.height]])
        )
    )
    along = (target - start) / (float(np.hypot(*(target - start))) + 1e-9)
    return target, along


def _hairs(grid: _ShadingGrid, hand: Hand) -> npt.NDArray[np.float32]:
    """Fine hairs (a gain about 1.0, on the shading grid): short dark streaks lying along the
    arm toward the fingers, dense on the forearm, sparse past the wrist. Drawn from a generator
    of the hand's own (its target), so no other choice of the scene moves."""
    small = rows, cols = grid.size
    px_per_mm = grid.px_per_mm(hand.height)
    target, along = _arm_in_picture(hand, grid.camera, grid.orientation)
    tip = (target - np.array(grid.offset, np.float64)) / grid.scale
    # the wrist lies about 170 mm behind the fingertips of an open hand
    wrist = tip - along * 170.0 * _size_of(hand) * px_per_mm
    count = int(rows * cols * 0.02)
    if count == 0 or px_per_mm <= 0:
        return np.ones(small, np.float32)
    rng = np.random.default_rng([round(abs(hand.x) * 10), round(abs(hand.y) * 10), 21])
    spots = rng.uniform((0.0, 0.0), (cols, rows), (count, 2))
    behind = (spots - wrist) @ -along  # > 0 on the forearm
    keep = rng.uniform(0, 1, count) < np.where(behind > 0, 1.0, 0.25)
    spots = spots[keep]
    turn = rng.normal(0.0, 0.35, len(spots))
    cos, sin = np.cos(turn), np.sin(turn)
    heading = np.column_stack([along[0] * cos - along[1] * sin, along[0] * sin + along[1] * cos])
    length = rng.uniform(2.0, 5.0, (len(spots), 1)) * px_per_mm
    ends = spots + heading * length
    lines = np.round(np.stack([spots, ends], axis=1) * 16).astype(np.int32)
    streaks = np.zeros(small, np.uint8)
    cv2.polylines(streaks, list(lines), False, 255, 1, cv2.LINE_AA, 4)
    return np.asarray(1.0 - HAIR_DARKNESS * streaks / np.float32(255), np.float32)


def _joints(
    grid: _ShadingGrid, digits: list[Part], hand: Hand
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Knuckle bumps and tendons (pixels of height) and the flush of the joints and fingertips
    (0-1), on the shading grid: each digit's joints and tip as soft round spots, and a ridge
    from the wrist to each finger's knuckle."""
    bumps = np.zeros(grid.size, np.float32)
    flush = np.zeros(grid.size, np.float32)
    px_per_mm = grid.px_per_mm(hand.height)
    for centres, radii, _ in digits:
        points = grid.points(centres)
        last = len(radii) - 1
        for index, (centre, radius) in enumerate(zip(points, radii, strict=True)):
            size = max(1, round(radius * px_per_mm * (0.7 if index else 0.9)))
            spot = (round(centre[0]), round(centre[1]))
            strength = 1.0 if index == last else (0.6 if index == 0 else 0.5)
            cv2.circle(flush, spot, size, strength, -1, cv2.LINE_AA)
            if index == 0:
                cv2.circle(bumps, spot, size, radius * px_per_mm * 0.35, -1, cv2.LINE_AA)
    # the tendons on the back of the hand: faint ridges fanning from the wrist to each knuckle
    _, bases, starts = _tendons(hand, digits)
    if len(bases):
        ends = grid.points(bases)
        begins = grid.points(starts)
        width = max(1, round(2.5 * px_per_mm))
        for a, b in zip(begins, ends, strict=True):
            ridge = 1.6 * px_per_mm
            cv2.line(
                bumps, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), ridge, width
            )
    blur = max(1.0, 4.0 * px_per_mm)
    return (
        np.asarray(cv2.GaussianBlur(bumps, (0, 0), blur), np.float32),
        np.asarray(cv2.GaussianBlur(flush, (0, 0), blur), np.float32),
    )


@lru_cache(maxsize=1)
def _pore_slab() -> npt.NDArray[np.float32]:
    """Fine noise (about 0 +- 1, a pixel or two across) for the skin's small-scale texture."""
    rng = np.random.default_rng(4242)
    fine: npt.NDArray[Any] = rng.standard_normal((384, 384)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.7)
    return np.asarray(fine / float(fine.std()), np.float32)


def _pores(rows: int, cols: int, hand: Hand) -> npt.NDArray[np.float32]:
    slab: npt.NDArray[Any] = _pore_slab()
    if rows > slab.shape[0] or cols > slab.shape[1]:
        slab = np.tile(slab, (rows // slab.shape[0] + 1, cols // slab.shape[1] + 1))
    dy = int(abs(hand.y * 3 + hand.x)) % max(slab.shape[0] - rows, 1)
    dx = int(abs(hand.x * 3 + hand.y)) % max(slab.shape[1] - cols, 1)
    return np.asarray(1.0 + PORE_DEPTH * slab[dy : dy + rows, dx : dx + cols], np.float32)


@lru_cache(maxsize=2)
def _noise_slab() -> npt.NDArray[np.float32]:
    """A fixed slab of smooth noise (about 0 +- 1), windows of which mottle skin and cloth."""
    rng = np.random.default_rng(31337)
    coarse = rng.standard_normal((48, 48)).astype(np.float32)
    fine = rng.standard_normal((384, 384)).astype(np.float32)
    slab: npt.NDArray[Any] = cv2.resize(coarse, (384, 384), interpolation=cv2.INTER_CUBIC)
    slab += 0.5 * cv2.GaussianBlur(fine, (0, 0), 1.5)
    return np.asarray(slab, np.float32)


def _window(rows: int, cols: int, hand: Hand) -> npt.NDArray[np.float32]:
    """A window of :func:`_noise_slab` the size of the hand's box, picked by where it is."""
    slab: npt.NDArray[Any] = _noise_slab()
    size = slab.shape[0]
    if rows > size or cols > size:
        slab = cv2.resize(slab, (max(cols, size), max(rows, size)))
    dy = int(abs(hand.x * 7 + hand.y)) % max(slab.shape[0] - rows, 1)
    dx = int(abs(hand.y * 5 + hand.x)) % max(slab.shape[1] - cols, 1)
    return np.asarray(slab[dy : dy + rows, dx : dx + cols], np.float32)


SKIN_MOTTLE = 0.025
"""How much skin's brightness varies in blotches of a few millimetres (about +-, relative)."""
SKIN_REDNESS = 0.01
"""How much redder or less red skin is in blotches (blood under the skin)."""
PORE_DEPTH = 0.02
"""The skin's fine grain (pores, fine lines, hair), relative; a photo shows it as speckle."""


def _mottle(rows: int, cols: int, hand: Hand) -> npt.NDArray[np.float32]:
    """Skin is never one flat tone: blotches of a few millimetres (at the old faint strength
    skin looked like smooth plastic)."""
    return np.asarray(1.0 + SKIN_MOTTLE * _window(rows, cols, hand), np.float32)


def _fabric_folds(grid: _ShadingGrid, hand: Hand) -> npt.NDArray[np.float32]:
    """Soft folds across a sleeve (bands across the arm, bent by noise) and a fine weave, on
    the shading grid."""
    (rows, cols), camera, offset, scale = grid.size, grid.camera, grid.offset, grid.scale
    along = _arm_in_picture(hand, camera, grid.orientation)[1]
    yy, xx = np.mgrid[0:rows, 0:cols].astype(np.float32) * np.float32(scale)
    position = (xx + offset[0]) * float(along[0]) + (yy + offset[1]) * float(along[1])
    across = (xx + offset[0]) * float(-along[1]) + (yy + offset[1]) * float(along[0])
    noise = _window(rows, cols, hand)
    period = max(_px_per_mm(camera, 0.0) * 45.0, 8.0)
    # folds are broad lit ridges between narrow dark creases, slanting a little and bent by
    # the noise; a second, finer set crosses them at an angle where the cloth bunches
    phase = (position + 0.3 * across) / period * 2 * math.pi + noise * 0.6
    wave = np.sin(phase)
    creases = np.maximum(-wave, 0.0) ** 8
    fine = np.sin((position - 0.7 * across) / (period * 0.5) * 2 * math.pi + noise * 0.8)
    depth = np.clip(0.7 + 0.3 * noise, 0.2, 1.2)
    folds = (0.1 * wave - 0.28 * creases + 0.04 * fine) * depth
    # the weave: a fine, uneven grain of threads
    weave = WEAVE_DEPTH * (_pores(rows, cols, hand) - 1.0) / PORE_DEPTH
    return np.asarray(1.0 + folds + 0.04 * noise + weave, np.float32)


WEAVE_DEPTH = 0.05
"""The strength of a sleeve's fine grain of threads (relative brightness)."""


def _draw_digit_details(
    layer: Image, camera: Camera, digits: list[Part], hand: Hand, orientation: board.Orientation
) -> None:
    """Creases across each of the hand's ``digits`` (:func:`_build`) at its joints, and a nail
    on its last bone, seen on the back of the hand. Their colours are taken from the lit skin
    under them, so they are shaded as the finger is."""
    height, width = layer.shape[:2]

    def lit(point: FloatArray) -> FloatArray:
        u, v = camera.project_undistorted(orientation.to_world_array(point[None, :]))[0]
        col = min(max(round(float(u)), 0), width - 1)
        row = min(max(round(float(v)), 0), height - 1)
        return np.asarray(layer[row, col], np.float64)

    for centres, radii, _ in digits:
        for joint in range(1, len(radii) - 1):
            before, here, after = centres[joint - 1], centres[joint], centres[joint + 1]
            axis = after[:2] - before[:2]
            axis /= np.linalg.norm(axis) + 1e-9
            across = np.array([-axis[1], axis[0], 0.0])
            radius = radii[joint]
            colour = tuple(np.minimum(lit(here) * np.array([0.74, 0.76, 0.84]), 255))
            for shift in (-0.18, 0.12):
                spot = here + np.array([axis[0], axis[1], 0.0]) * radius * shift
                bow = np.array([axis[0], axis[1], 0.0]) * radius * 0.25
                arc = np.array(
                    [
                        spot - across * radius * 0.7,
                        spot + bow,
                        spot + across * radius * 0.7,
                    ]
                )
                arc[:, 2] += radius * 0.92
                pts = camera.project_undistorted(orientation.to_world_array(arc))
                cv2.polylines(
                    layer, [np.round(pts * 16).astype(np.int32)], False, colour, 1, cv2.LINE_AA, 4
                )
        # the nail: a rounded plate on the top of the last bone, paler and pinker than the
        # skin round it, with a thin dark rim and a paler free edge at the tip
        root, tip = centres[-2], centres[-1]
        bone = tip - root
        axis = bone / (np.linalg.norm(bone) + 1e-9)
        flat = np.array([axis[0], axis[1], 0.0])
        flat /= np.linalg.norm(flat) + 1e-9
        across = np.array([-flat[1], flat[0], 0.0])
        up = np.cross(across, axis)
        radius = radii[-1]
        length = min(float(np.linalg.norm(bone)) * 0.55, radius * 1.9)
        middle = tip - axis * (length * 0.5 + radius * 0.05) + up * radius * 0.92
        skin = lit(middle)
        angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        plate = (
            middle
            + np.outer(np.cos(angles), axis) * length * 0.5
            + np.outer(np.sin(angles), across) * radius * 0.72
        )
        outline = camera.project_undistorted(orientation.to_world_array(plate))
        fill(layer, outline, tuple(np.minimum(skin * 0.86, 255)))
        inner = middle + (plate - middle) * 0.84
        nail = np.minimum(skin * np.array([1.0, 1.02, 1.05]) + np.array([8, 8, 10]), 255)
        fill(layer, camera.project_undistorted(orientation.to_world_array(inner)), tuple(nail))
        edge = inner[np.cos(angles) > 0.7]
        edge = np.concatenate([edge, [middle + axis * length * 0.36]])
        free = np.minimum(nail * 0.82 + 255 * 0.18, 255)
        fill(layer, camera.project_undistorted(orientation.to_world_array(edge)), tuple(free))
        shine = middle - axis * length * 0.12 + across * radius * 0.2
        glint = camera.project_undistorted(orientation.to_world_array(shine[None, :]))[0]
        px_per_mm = _px_per_mm(camera, float(shine[2]))
        cv2.circle(
            layer,
            (round(float(glint[0]) * 16), round(float(glint[1]) * 16)),
            max(8, round(radius * 0.22 * px_per_mm * 16)),
            tuple(np.minimum(nail + 18, 255)),
            -1,
            cv2.LINE_AA,
            4,
        )


def mask_polygons(mask: npt.NDArray[np.uint8]) -> list[list[list[int]]]:
    """The outer outlines of a mask as integer pixel polygons (for the truth JSON)."""
    binary = (mask > 127).astype(np.uint8)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    polygons = []
    for contour in contours:
        simplified = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2)
        polygons.append([[int(x), int(y)] for x, y in simplified])
    return polygons

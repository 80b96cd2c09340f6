"""The doubling cube: a larger cube with numbers on its faces, beside the board.

Real frames nearly always show the cube somewhere, and a reader must not take it for a die, so
the simulator draws it: centred (showing 64) at the side of the board, or owned (showing its
value) on the table at the owner's edge. It never stands on the playing area or in a tray, so
it hides nothing the truth describes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.sim import board
from companion.sim.camera import Camera
from companion.sim.drawing import fill, paste_quad, shade
from companion.sim.shape import CANONICAL_SHAPE, BoardShape

FloatArray = npt.NDArray[np.float64]
SIZE = 22.0
"""Edge of a tournament doubling cube, in mm."""
VALUES = (2, 4, 8, 16, 32, 64)
Owner = Literal["centre", "white", "black"]
FACE_PX = 64


class InvalidCube(CompanionError, ValueError):
    """A cube value or owner that a doubling cube cannot show."""


@dataclass(frozen=True, slots=True)
class CubeSpec:
    """The cube's value and who owns it; a centred cube shows 64 (it is worth 1)."""

    value: int = 1
    owner: Owner = "centre"

    def __post_init__(self) -> None:
        if self.value not in (1, *VALUES):
            raise InvalidCube(f"a doubling cube is worth 1, 2, 4, ..., 64, not {self.value}")
        if self.owner not in ("centre", "white", "black"):
            raise InvalidCube(
                f"the cube is owned by 'white', 'black' or 'centre', not {self.owner!r}"
            )
        if (self.value == 1) != (self.owner == "centre"):
            raise InvalidCube("a centred cube is worth 1 and an owned cube 2 or more")

    @property
    def face_up(self) -> int:
        return 64 if self.value == 1 else self.value


@dataclass(frozen=True)
class CubePose:
    """Where the cube rests (canonical x, y and the height of its centre) and its turn."""

    spec: CubeSpec
    x: float
    y: float
    height: float
    yaw: float


def place_cube(
    spec: CubeSpec, rng: np.random.Generator, shape: BoardShape = CANONICAL_SHAPE
) -> CubePose:
    """A resting spot on the table: at a side for a centred cube, at the owner's edge if owned."""
    table = board.TABLE_HEIGHT + SIZE / 2
    yaw = float(rng.uniform(-0.3, 0.3))
    if spec.owner == "centre":
        left = bool(rng.integers(0, 2))
        x = board.OBJECT_LEFT - 30.0 if left else board.object_right(shape) + 30.0
        return CubePose(spec, x, g.PLAY_HEIGHT / 2 + float(rng.uniform(-60, 60)), table, yaw)
    y = board.OBJECT_BOTTOM + 16.0 if spec.owner == "white" else board.OBJECT_TOP - 16.0
    return CubePose(spec, float(rng.uniform(100, shape.width - 100)), y, table, yaw)


def _faces(face_up: int) -> dict[int, tuple[float, float, float]]:
    """Outward normals (cube frame) of each number, with ``face_up`` on top."""
    others = [v for v in VALUES if v != face_up]
    normals = [(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, -1.0, 0.0)]
    faces = {face_up: (0.0, 0.0, 1.0), others[-1]: (0.0, 0.0, -1.0)}
    faces.update(dict(zip(others[:4], normals, strict=True)))
    return faces


@lru_cache(maxsize=32)
def _face_sprite(value: int, body: tuple[int, int, int], ink: tuple[int, int, int]) -> Any:
    """A face with its number, BGRA, the corners rounded off through the alpha channel."""
    sprite = np.zeros((FACE_PX, FACE_PX, 4), np.uint8)
    sprite[..., :3] = body
    text = str(value)
    scale = 1.5 if len(text) == 1 else 1.2
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
    origin = ((FACE_PX - tw) // 2, (FACE_PX + th) // 2)
    cv2.putText(sprite, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, (*ink, 255), 3, cv2.LINE_AA)
    alpha = np.zeros((FACE_PX, FACE_PX), np.uint8)
    cv2.rectangle(alpha, (0, 0), (FACE_PX - 1, FACE_PX - 1), 255, -1)
    corner = 10
    for cx, cy in ((0, 0), (FACE_PX - 1, 0), (0, FACE_PX - 1), (FACE_PX - 1, FACE_PX - 1)):
        cv2.rectangle(alpha, (cx - corner, cy - corner), (cx + corner, cy + corner), 0, -1)
    for cx, cy in (
        (corner, corner),
        (FACE_PX - 1 - corner, corner),
        (corner, FACE_PX - 1 - corner),
        (FACE_PX - 1 - corner, FACE_PX - 1 - corner),
    ):
        cv2.circle(alpha, (cx, cy), corner, 255, -1, cv2.LINE_AA)
    sprite[..., 3] = alpha
    return sprite


def draw_cube(
    image: npt.NDArray[np.uint8],
    camera: Camera,
    pose: CubePose,
    orientation: board.Orientation,
    light: FloatArray,
    body: tuple[int, int, int] = (232, 234, 236),
    ink: tuple[int, int, int] = (40, 30, 30),
) -> FloatArray:
    """Draws the cube: a dark rounded body, then each visible face with its number."""
    wx, wy = orientation.to_world(pose.x, pose.y)
    centre = np.array([wx, wy, pose.height])
    c, s = math.cos(pose.yaw), math.sin(pose.yaw)
    rotation = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    half = SIZE / 2
    corners = np.array(
        [(x, y, z) for x in (-half, half) for y in (-half, half) for z in (-half, half)]
    )
    hull = cv2.convexHull(
        camera.project_undistorted(corners @ rotation.T + centre).astype(np.float32)
    ).reshape(-1, 2)
    fill(image, hull.astype(np.float64), shade(body, 0.62))
    cam = camera.position
    visible = []
    for value, normal_local in _faces(pose.spec.face_up).items():
        normal = rotation @ np.array(normal_local)
        face_centre = centre + normal * half
        if float(np.dot(normal, cam - face_centre)) <= 0:
            continue
        visible.append((float(np.linalg.norm(cam - face_centre)), value, normal, face_centre))
    for _, value, normal, face_centre in sorted(visible, key=lambda f: -f[0]):
        up = np.array([0.0, 0.0, 1.0]) if abs(normal[2]) < 0.9 else rotation @ [0.0, -1.0, 0.0]
        u = np.cross(normal, up)  # (x, y, height) is left-handed: this keeps text unmirrored
        u /= np.linalg.norm(u)
        v = np.cross(normal, u)
        inset = half * 0.94
        quad = np.array(
            [
                face_centre - u * inset - v * inset,
                face_centre + u * inset - v * inset,
                face_centre + u * inset + v * inset,
                face_centre - u * inset + v * inset,
            ]
        )
        target = camera.project_undistorted(quad).astype(np.float32)
        brightness = 0.55 + 0.5 * max(0.0, float(np.dot(normal, light)))
        sprite = _face_sprite(value, body, ink)
        paste_quad(image, sprite, target, brightness)
    return hull.astype(np.float64)


def cube_truth(pose: CubePose, camera: Camera, orientation: board.Orientation) -> dict[str, object]:
    world = (*orientation.to_world(pose.x, pose.y), pose.height)
    u, v = camera.project(np.array([world]))[0]
    return {
        "value": pose.spec.value,
        "owner": pose.spec.owner,
        "face_up": pose.spec.face_up,
        "center_px": [round(float(u), 2), round(float(v), 2)],
    }

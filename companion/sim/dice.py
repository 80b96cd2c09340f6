"""Dice: rounded cubes with correctly placed pips, and where they come to rest.

A die is ``geometry.DIE_SIZE`` on each edge. Opposite faces sum to seven. A resting die is
described by a :class:`DiePose`: its centre (canonical x, y and height) and its rotation, from
which the drawing and the truth are both derived, so they cannot disagree.

How a die can rest (the cases the vision code must tell apart):

* ``flat`` on the playing surface, on the bar, in a tray, on the frame or on the table;
* ``on_checker``: flat on top of a checker (level, but traditionally counted as cocked);
* ``cocked``: tilted 10-45 degrees, one bottom edge on the surface and the raised side resting
  on a checker (on its top rim, or against its side when the tilt is too small to reach the
  top) or on the frame's inner edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim import board, lighting
from companion.sim.camera import Camera
from companion.sim.drawing import fill, fill_many
from companion.sim.styles import CheckerSet

FloatArray = npt.NDArray[np.float64]
SIZE = g.DIE_SIZE
PIP_OFFSET = 0.27 * SIZE
PIP_RADIUS = 0.08 * SIZE
FACE_INSET = 0.88
"""Share of each face that is flat; the rest is the rounded edge."""
Rest = Literal["flat", "on_checker", "cocked"]
Support = Literal["checker", "frame"]

FACE_NORMALS: dict[int, tuple[float, float, float]] = {
    1: (0.0, 0.0, 1.0),
    6: (0.0, 0.0, -1.0),
    2: (1.0, 0.0, 0.0),
    5: (-1.0, 0.0, 0.0),
    3: (0.0, 1.0, 0.0),
    4: (0.0, -1.0, 0.0),
}
"""Outward normal of each face in the die's own frame (x, y, height); opposite faces sum to 7."""

PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip centres of each face in units of :data:`PIP_OFFSET` along the face's (u, v) axes."""


def _face_axes(normal: FloatArray) -> tuple[FloatArray, FloatArray]:
    helper = np.array([0.0, 0.0, 1.0]) if abs(normal[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    u = np.cross(helper, normal)
    u /= np.linalg.norm(u)
    return u, np.cross(normal, u)


def _rotation_to_up(normal: FloatArray) -> FloatArray:
    """The rotation that turns ``normal`` to straight up."""
    up = np.array([0.0, 0.0, 1.0])
    dot = float(np.dot(normal, up))
    if dot > 0.999:
        return np.eye(3)
    if dot < -0.999:
        return np.diag([1.0, -1.0, -1.0])
    axis = np.cross(normal, up)
    axis /= np.linalg.norm(axis)
    angle = math.acos(dot)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k)


def _yaw(angle: float) -> FloatArray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _tilt(direction: FloatArray, angle: float) -> FloatArray:
    """Rotation lifting the side facing horizontal ``direction`` by ``angle`` radians."""
    d = np.array([direction[0], direction[1], 0.0])
    d /= np.linalg.norm(d)
    up = np.array([0.0, 0.0, 1.0])
    e = np.cross(up, d)
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(np.outer(e, e) + np.outer(c * d + s * up, d) + np.outer(-s * d + c * up, up))


@dataclass(frozen=True)
class DiePose:
    """A die at rest (or caught mid-roll): value on top, centre in canonical mm, rotation."""

    value: int
    x: float
    y: float
    height: float
    """Height of the die's centre above the playing surface."""
    rotation: FloatArray
    """Die frame to canonical frame (x, y, height)."""
    rest: Rest = "flat"
    tilt: float = 0.0
    """Degrees between the die's top face and level."""
    support: Support | None = None
    on_surface: float = 0.0
    """Height of the surface under the die (0 on the playing area, more on the bar or frame)."""

    @property
    def flat(self) -> bool:
        return self.rest != "cocked"

    def corners(self) -> FloatArray:
        """The eight corners in canonical (x, y, height)."""
        half = SIZE / 2
        local = np.array(
            [(sx, sy, sh) for sx in (-half, half) for sy in (-half, half) for sh in (-half, half)]
        )
        return np.asarray(local @ self.rotation.T + [self.x, self.y, self.height])

    def footprint(self) -> FloatArray:
        """Convex outline of the die seen from straight above, canonical (n, 2)."""
        corners = self.corners()[:, :2].astype(np.float32)
        return np.asarray(cv2.convexHull(corners).reshape(-1, 2), dtype=np.float64)

    def top_value(self) -> int:
        """The value whose face points most nearly up: the die's reading."""
        best, best_dot = 1, -2.0
        for value, normal in FACE_NORMALS.items():
            dot = float((self.rotation @ np.array(normal))[2])
            if dot > best_dot:
                best, best_dot = value, dot
        return best


def flat_pose(
    value: int, x: float, y: float, yaw: float, surface: float, rest: Rest = "flat"
) -> DiePose:
    """A die lying level on a surface at ``surface`` height, ``value`` up, turned by ``yaw``."""
    rotation = _yaw(yaw) @ _rotation_to_up(np.array(FACE_NORMALS[value]))
    return DiePose(value, x, y, surface + SIZE / 2, rotation, rest, on_surface=surface)


def support_distance(tilt_deg: float, support_height: float) -> float:
    """Horizontal distance from the die's pivot edge to the near edge of its support.

    A steep die rests its underside on the support's top edge; a shallow one cannot reach the
    top and leans its raised edge against the support's side instead.
    """
    tilt = math.radians(tilt_deg)
    return min(SIZE * math.cos(tilt), support_height / math.tan(tilt))


def cocked_pose(
    value: int,
    pivot_x: float,
    pivot_y: float,
    direction: float,
    tilt_deg: float,
    support: Support,
    surface: float = 0.0,
) -> DiePose:
    """A die with its pivot edge's middle at ``(pivot_x, pivot_y)``, raised toward ``direction``.

    ``direction`` is the heading (radians, canonical plane) from the pivot toward the support.
    """
    d = np.array([math.cos(direction), math.sin(direction), 0.0])
    flat = _yaw(direction) @ _rotation_to_up(np.array(FACE_NORMALS[value]))
    tilt = _tilt(d, math.radians(tilt_deg))
    half = SIZE / 2
    centre = tilt @ (d * half + np.array([0.0, 0.0, half]))
    return DiePose(
        value,
        pivot_x + float(centre[0]),
        pivot_y + float(centre[1]),
        surface + float(centre[2]),
        tilt @ flat,
        "cocked",
        tilt_deg,
        support,
        surface,
    )


def draw_die(
    image: npt.NDArray[np.uint8],
    camera: Camera,
    pose: DiePose,
    orientation: board.Orientation,
    looks: CheckerSet,
    light: FloatArray,
) -> FloatArray:
    """Draws the die: rounded body, visible faces shaded by the light, pips; returns the hull."""
    cam = camera.position
    rings = _face_rings(pose, orientation)
    faces = []
    for value, (normal, u_w, v_w, face_centre, ring) in zip(FACE_NORMALS, rings, strict=True):
        if float(np.dot(normal, cam - face_centre)) > 0:
            distance = float(np.linalg.norm(cam - face_centre))
            faces.append((distance, value, normal, u_w, v_w, face_centre, ring))
    hull_px = cv2.convexHull(
        camera.project_undistorted(_outline_of(rings)).astype(np.float32)
    ).reshape(-1, 2)
    body = np.asarray(looks.die_body, dtype=np.float64)
    pip = np.asarray(looks.die_pip, dtype=np.float64)
    fill(image, hull_px.astype(np.float64), tuple(body * 0.7))
    for _, value, normal, u_w, v_w, face_centre, ring in sorted(faces, key=lambda f: -f[0]):
        light_dot = max(0.0, float(np.dot(normal, light)))
        shade = 0.5 + 0.55 * light_dot
        fill(image, camera.project_undistorted(ring), tuple(np.minimum(body * shade, 255)))
        facing = float(np.dot(normal, cam - face_centre)) / float(np.linalg.norm(cam - face_centre))
        if facing < 0.08:
            continue
        pip_colour = tuple(np.minimum(pip * (0.6 + 0.4 * shade), 255))
        circles = np.stack(
            [
                _pip_circle(face_centre, u_w, v_w, pu * PIP_OFFSET, pv * PIP_OFFSET)
                for pu, pv in PIP_LAYOUTS[value]
            ]
        )
        fill_many(image, list(camera.project_undistorted(circles)), pip_colour)
    return hull_px.astype(np.float64)


_FACE_AXES = {value: _face_axes(np.array(normal)) for value, normal in FACE_NORMALS.items()}
"""Each face's (u, v) axes in the die's own frame: fixed, so worked out once."""


def _face_rings(
    pose: DiePose, orientation: board.Orientation
) -> list[tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]]:
    """Per face (in :data:`FACE_NORMALS`' order), in the world: its outward normal, its (u, v)
    axes, its centre and the ring of its flat part (a rounded square)."""
    world_rotation = _world_rotation(orientation) @ pose.rotation
    wx, wy = orientation.to_world(pose.x, pose.y)
    centre = np.array([wx, wy, pose.height])
    half = SIZE / 2
    rounded = _rounded_square(half * FACE_INSET, half * 0.22)
    rings = []
    for value, normal_local in FACE_NORMALS.items():
        normal = world_rotation @ np.array(normal_local)
        u, v = _FACE_AXES[value]
        u_w, v_w = world_rotation @ u, world_rotation @ v
        face_centre = centre + normal * half
        ring = face_centre + rounded[:, :1] * u_w + rounded[:, 1:] * v_w
        rings.append((normal, u_w, v_w, face_centre, ring))
    return rings


def outline_world(pose: DiePose, orientation: board.Orientation) -> FloatArray:
    """World points (x, y, height) whose projection's convex hull is the die's outline in the
    image: every face's ring a little inside the rounded edge. Drawing and truth (how much of
    the die a hand hides) both take the outline from here."""
    return _outline_of(_face_rings(pose, orientation))


def _outline_of(
    rings: list[tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]],
) -> FloatArray:
    half = SIZE / 2
    return np.concatenate([ring - normal * half * 0.06 for normal, _, _, _, ring in rings])


def _world_rotation(orientation: board.Orientation) -> FloatArray:
    return np.diag([*orientation.to_world_direction(np.ones(2)), 1.0])


_PIP_ANGLES = np.linspace(0, 2 * math.pi, 14, endpoint=False)


def _pip_circle(
    centre: FloatArray, u: FloatArray, v: FloatArray, du: float, dv: float
) -> FloatArray:
    cu = du + PIP_RADIUS * np.cos(_PIP_ANGLES)
    cv = dv + PIP_RADIUS * np.sin(_PIP_ANGLES)
    return np.asarray(centre + cu[:, None] * u + cv[:, None] * v)


def _rounded_square(half: float, radius: float) -> FloatArray:
    points = []
    for cx, cy, start in (
        (half - radius, half - radius, 0.0),
        (-half + radius, half - radius, 0.5 * math.pi),
        (-half + radius, -half + radius, math.pi),
        (half - radius, -half + radius, 1.5 * math.pi),
    ):
        for t in np.linspace(start, start + 0.5 * math.pi, 4):
            points.append((cx + radius * math.cos(t), cy + radius * math.sin(t)))
    return np.array(points)


def shadow_outline(pose: DiePose, orientation: board.Orientation, light: FloatArray) -> FloatArray:
    """The die's corners cast along ``light`` onto the surface under it (world 3D)."""
    corners = pose.corners()
    world = orientation.to_world_array(corners[:, :2])
    return lighting.cast_shadow(
        np.column_stack([world, corners[:, 2]]), pose.on_surface, light, 0.2
    )

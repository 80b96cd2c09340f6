"""A pinhole camera looking down at the board, with optional radial lens distortion.

World coordinates are the board's world plane in millimetres (see :mod:`companion.sim.board`)
with a *height* above the playing surface. Internally a 3D point is ``(x, y, -height)`` so that
``x`` right, ``y`` toward the near edge and ``z`` into the table form a right-handed frame, the
same handedness as a camera's (``x`` right, ``y`` down, ``z`` forward).

The camera orbits the board's centre: ``tilt`` is the angle between its axis and the vertical
(0 = straight overhead), it leans back toward the image's bottom edge, and ``rotation`` turns
it about the vertical. Distortion follows OpenCV's radial model ``r_d = r (1 + k1 r^2 + k2 r^4)``
in units of the focal length, so ``cv2.undistortPoints`` with the truth's ``k1, k2`` inverts it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError
from companion.sim import board
from companion.sim.shape import CANONICAL_SHAPE, BoardShape

FloatArray = npt.NDArray[np.float64]


class InvalidCamera(CompanionError, ValueError):
    """Camera settings that no physical camera above a board could have."""


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """What a user chooses about the camera; ``focal=None`` fits the board in the frame."""

    tilt: float = 0.0
    rotation: float = 0.0
    height: float = 900.0
    focal: float | None = None
    k1: float = 0.0
    k2: float = 0.0
    size: tuple[int, int] = (1280, 720)
    fill: float = 0.9
    """With ``focal=None``: the share of the frame the whole board covers on its tighter axis."""

    def __post_init__(self) -> None:
        problems = []
        if not 0.0 <= self.tilt <= 60.0:
            problems.append(f"tilt {self.tilt} is outside 0-60 degrees")
        if not 200.0 <= self.height <= 5000.0:
            problems.append(f"height {self.height} mm is outside 200-5000 mm")
        if self.focal is not None and self.focal <= 0:
            problems.append(f"focal length {self.focal} px must be positive")
        if not (-0.5 <= self.k1 <= 0.5 and -0.5 <= self.k2 <= 0.5):
            problems.append("distortion k1, k2 must lie within -0.5..0.5")
        width, height = self.size
        if not (32 <= width <= 8192 and 32 <= height <= 8192):
            problems.append(f"image size {width}x{height} is outside 32-8192 pixels")
        if not 0.2 <= self.fill <= 1.5:
            problems.append(f"fill {self.fill} is outside 0.2-1.5")
        if problems:
            raise InvalidCamera("; ".join(problems))


@dataclass(frozen=True)
class Camera:
    """A posed camera: intrinsics ``K``, rotation ``R`` (world to camera) and centre ``C``."""

    spec: CameraSpec
    K: FloatArray = field(repr=False)
    R: FloatArray = field(repr=False)
    C: FloatArray = field(repr=False)

    @property
    def size(self) -> tuple[int, int]:
        return self.spec.size

    @property
    def focal(self) -> float:
        return float(self.K[0, 0])

    @property
    def position(self) -> FloatArray:
        """Camera centre as (x, y, height)."""
        return np.array([self.C[0], self.C[1], -self.C[2]])

    def to_camera(self, points: FloatArray) -> FloatArray:
        """(..., 3) points given as (x, y, height) to camera coordinates."""
        world = np.asarray(points, dtype=np.float64).copy()
        world[..., 2] = -world[..., 2]
        return np.asarray((world - self.C) @ self.R.T)

    def project(self, points: FloatArray) -> FloatArray:
        """(..., 3) points (x, y, height) in the world to (..., 2) pixels, with distortion."""
        cam = self.to_camera(points)
        z = np.maximum(cam[..., 2], 1e-6)
        x = cam[..., 0] / z
        y = cam[..., 1] / z
        if self.spec.k1 or self.spec.k2:
            r2 = x * x + y * y
            factor = 1 + self.spec.k1 * r2 + self.spec.k2 * r2 * r2
            x = x * factor
            y = y * factor
        u = self.K[0, 0] * x + self.K[0, 2]
        v = self.K[1, 1] * y + self.K[1, 2]
        return np.stack([u, v], axis=-1)

    def project_undistorted(self, points: FloatArray) -> FloatArray:
        """Like :meth:`project` but for the ideal (undistorted) image the renderer draws in."""
        cam = self.to_camera(points)
        z = np.maximum(cam[..., 2], 1e-6)
        u = self.K[0, 0] * cam[..., 0] / z + self.K[0, 2]
        v = self.K[1, 1] * cam[..., 1] / z + self.K[1, 2]
        return np.stack([u, v], axis=-1)

    def depth(self, points: FloatArray) -> FloatArray:
        """Distance along the camera axis of (..., 3) points; larger is farther."""
        return np.asarray(self.to_camera(points)[..., 2])

    def plane_homography(self, height: float) -> FloatArray:
        """3x3 homography from world-plane (x, y, 1) at ``height`` to undistorted pixels."""
        r1, r2, r3 = self.R[:, 0], self.R[:, 1], self.R[:, 2]
        t = -self.R @ self.C
        m = np.column_stack([r1, r2, t + (-height) * r3])
        return np.asarray(self.K @ m)

    @property
    def distorted(self) -> bool:
        return bool(self.spec.k1 or self.spec.k2)

    def fast_distortion_maps(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
        """Maps for ``cv2.remap`` that turn the ideal image into the distorted one, in OpenCV's
        fixed-point form: ``cv2.remap`` applies it about three times faster than float maps
        (positions to 1/32 pixel, far finer than the image needs)."""
        return _fast_distortion_maps(
            self.spec.size,
            (float(self.K[0, 0]), float(self.K[0, 2]), float(self.K[1, 2])),
            (self.spec.k1, self.spec.k2),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "tilt": self.spec.tilt,
            "rotation": self.spec.rotation,
            "height": self.spec.height,
            "focal": round(self.focal, 3),
            "principal_point": [float(self.K[0, 2]), float(self.K[1, 2])],
            "distortion": {"k1": self.spec.k1, "k2": self.spec.k2, "model": "opencv-radial"},
            "size": list(self.spec.size),
            "position_mm": [round(float(v), 2) for v in self.position],
        }


STEP = 8
"""Distortion maps are worked out on every 8th pixel and interpolated (they are smooth)."""


def _full_maps(
    size: tuple[int, int], intrinsics: tuple[float, float, float], k: tuple[float, float]
) -> npt.NDArray[np.float32]:
    """Ideal-image position (x, y) of every distorted pixel, (H, W, 2).

    Worked out on a coarse grid and enlarged with ``cv2.resize``, which puts coarse node ``i``
    at pixel ``8 i + 3.5`` (pixel centres aligned): so the nodes are placed there, from one
    node before the image, and the enlargement is cropped to the image. (Nodes taken at
    ``8 i`` shifted every distorted frame by 3.5 pixels against its truth.)
    """
    width, height = size
    f, cx, cy = intrinsics
    xs = np.arange(-1, width // STEP + 3, dtype=np.float64) * STEP + (STEP - 1) / 2
    ys = np.arange(-1, height // STEP + 3, dtype=np.float64) * STEP + (STEP - 1) / 2
    uu, vv = np.meshgrid(xs, ys)
    xd, yd = (uu - cx) / f, (vv - cy) / f
    x, y = xd.copy(), yd.copy()
    for _ in range(12):
        # fixed-point inversion of the radial model: converges for the mild k1, k2 we allow
        r2 = x * x + y * y
        factor = 1 + k[0] * r2 + k[1] * r2 * r2
        x, y = xd / factor, yd / factor
    grid = np.stack([x * f + cx, y * f + cy], axis=-1).astype(np.float32)
    full = cv2.resize(grid, None, fx=STEP, fy=STEP, interpolation=cv2.INTER_LINEAR)
    return np.asarray(full[STEP : STEP + height, STEP : STEP + width], np.float32)


@lru_cache(maxsize=4)
def _fast_distortion_maps(
    size: tuple[int, int], intrinsics: tuple[float, float, float], k: tuple[float, float]
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    # one two-channel map and no second one: OpenCV's documented form, missing from its stubs
    both = _full_maps(size, intrinsics, k)
    fixed, fraction = cv2.convertMaps(both, None, cv2.CV_16SC2)  # type: ignore[call-overload]
    return np.asarray(fixed, np.int16), np.asarray(fraction, np.uint16)


def _pose(spec: CameraSpec, shape: BoardShape) -> tuple[FloatArray, FloatArray]:
    """Rotation (world to camera) and centre for a camera orbiting the board's centre."""
    tilt = math.radians(spec.tilt)
    turn = math.radians(spec.rotation)
    right = np.array([math.cos(turn), math.sin(turn), 0.0])
    back = np.array([-math.sin(turn), math.cos(turn), 0.0])
    target = np.array([board.centre_x(shape), board.CENTRE_Y, 0.0])
    centre = target + spec.height * math.tan(tilt) * back + np.array([0.0, 0.0, -spec.height])
    forward = target - centre
    forward /= np.linalg.norm(forward)
    down = np.cross(forward, right)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    return np.stack([right, down, forward]), centre


def make_camera(spec: CameraSpec, shape: BoardShape = CANONICAL_SHAPE) -> Camera:
    """Poses the camera over a board of ``shape`` and, when ``spec.focal`` is None, picks the
    focal length that fits it."""
    rotation, centre = _pose(spec, shape)
    width, height = spec.size
    focal = spec.focal
    if focal is None:
        corners = np.array(
            [
                (x, y, h)
                for x in (board.OBJECT_LEFT, board.object_right(shape))
                for y in (board.OBJECT_TOP, board.OBJECT_BOTTOM)
                for h in (board.FRAMING_HEIGHT, board.TABLE_HEIGHT)
            ]
        )
        unit = Camera(spec, np.eye(3), rotation, centre).project_undistorted(corners)
        half_w = np.max(np.abs(unit[:, 0]))
        half_h = np.max(np.abs(unit[:, 1]))
        focal = spec.fill * min(width / (2 * half_w), height / (2 * half_h))
    k = np.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])
    return Camera(spec, k, rotation, centre)

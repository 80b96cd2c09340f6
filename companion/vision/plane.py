"""From camera pixels to the canonical board plane of :mod:`companion.geometry`, and back.

Conventions: the user (or the board finder) names the four outer corners of the playing area
clockwise from the top-left *as the image shows them*; ``white_home`` names the image quadrant
of white's home board. Those two facts fix the homography from the image to the plane, where
white always sits at the bottom and its home board is bottom-right. ``bottom-left`` and
``top-right`` are mirrored setups (home boards on white's left).

The warped view covers the playing area, the trays to its right and a margin all round (dice
may roll off the board), at ``scale`` pixels per millimetre: pixel ``(u, v)`` of the view is the
plane point ``(u / scale + VIEW_LEFT, v / scale + VIEW_TOP)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, cast

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g

WhiteHome = Literal["bottom-right", "bottom-left", "top-right", "top-left"]
WHITE_HOMES: tuple[WhiteHome, ...] = ("bottom-right", "bottom-left", "top-right", "top-left")

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
Corners = tuple[tuple[float, float], ...]

VIEW_MARGIN = 40.0
VIEW_LEFT = -VIEW_MARGIN
VIEW_TOP = -VIEW_MARGIN
VIEW_RIGHT = g.PLAY_WIDTH + g.TRAY_GAP + g.TRAY_WIDTH + VIEW_MARGIN
VIEW_BOTTOM = g.PLAY_HEIGHT + VIEW_MARGIN

_W, _H = g.PLAY_WIDTH, g.PLAY_HEIGHT
_PLANE_CORNERS: dict[WhiteHome, tuple[tuple[float, float], ...]] = {
    "bottom-right": ((0, 0), (_W, 0), (_W, _H), (0, _H)),
    "top-left": ((_W, _H), (0, _H), (0, 0), (_W, 0)),
    "bottom-left": ((_W, 0), (0, 0), (0, _H), (_W, _H)),
    "top-right": ((0, _H), (_W, _H), (_W, 0), (0, 0)),
}


def is_mirrored(white_home: WhiteHome) -> bool:
    """True when white's home board lies on white's left (``geometry.right_hand_half``)."""
    return white_home in ("bottom-left", "top-right")


def homography(corners_px: Corners, white_home: WhiteHome) -> Matrix:
    """The homography taking image pixels to plane millimetres for these corners."""
    source = np.array(corners_px, dtype=np.float64).reshape(4, 2)
    target = np.array(_PLANE_CORNERS[white_home], dtype=np.float64)
    matrix = cv2.getPerspectiveTransform(source.astype(np.float32), target.astype(np.float32))
    return cast(Matrix, matrix.astype(np.float64))


def view_size(scale: float) -> tuple[int, int]:
    """``(width, height)`` in pixels of the warped view at ``scale`` px/mm."""
    return (
        round((VIEW_RIGHT - VIEW_LEFT) * scale),
        round((VIEW_BOTTOM - VIEW_TOP) * scale),
    )


def view_column(x_mm: float, scale: float) -> int:
    """The column of the warped view that shows plane ``x_mm``."""
    return round((x_mm - VIEW_LEFT) * scale)


def view_row(y_mm: float, scale: float) -> int:
    """The row of the warped view that shows plane ``y_mm``."""
    return round((y_mm - VIEW_TOP) * scale)


def view_pixels(
    xs_mm: npt.NDArray[np.float64], ys_mm: npt.NDArray[np.float64], scale: float
) -> tuple[npt.NDArray[np.int_], npt.NDArray[np.int_]]:
    """:func:`view_column` and :func:`view_row` of many plane points at once."""
    columns = np.round((xs_mm - VIEW_LEFT) * scale).astype(int)
    rows = np.round((ys_mm - VIEW_TOP) * scale).astype(int)
    return columns, rows


def view_pixel(x_mm: float, y_mm: float, scale: float) -> tuple[int, int]:
    """``(column, row)`` of the warped view that shows plane point ``(x_mm, y_mm)``, as
    OpenCV's drawing functions take it."""
    return view_column(x_mm, scale), view_row(y_mm, scale)


def view_matrix(image_to_plane: Matrix, scale: float) -> Matrix:
    """The homography from image pixels to pixels of the warped view."""
    to_view = np.array(
        [[scale, 0.0, -VIEW_LEFT * scale], [0.0, scale, -VIEW_TOP * scale], [0.0, 0.0, 1.0]]
    )
    return cast(Matrix, to_view @ image_to_plane)


VIEW_HEIGHT = 7.0
"""The plane view shows the tops of checkers lying on the board (a checker is 7 mm thick), so
that a checker's rim is where the board geometry puts it whatever the camera's tilt."""


def view_homography(image_to_plane: Matrix, image_size: tuple[int, int]) -> Matrix:
    """The homography the plane view is warped with: the board plane at :data:`VIEW_HEIGHT`."""
    return camera_heights(image_to_plane, image_size).to_plane_matrix(VIEW_HEIGHT)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where one real board's two halves lie on the plane its corners map to, in mm.

    The canonical board has points 40 mm wide and a bar 50 mm wide. Real boards differ: a
    narrow bar, points a millimetre wider, a half that stops short of the frame. Six points
    wider by a millimetre each put the point beside the bar 6 mm off, where a stack read
    along the canonical axis is half missed. So calibration measures each half's ends
    (:mod:`companion.vision.proportions`), and the plane view is warped half by half onto the
    canonical plane: every reader keeps the canonical geometry.

    Many boards also leave a strip of field between the frame's long sides and the points'
    bases (:attr:`edge`): there every checker lies that much nearer the centre than on the
    canonical board, a fifth of a checker at 7 mm. Over the halves, the view then shifts the
    points and their stacks back onto the canonical ones and stretches the open field between
    the points' tips to make up the difference; the bar, whose checkers wait from the centre
    line outward, and the trays keep their places.
    """

    outer: tuple[float, float] = (0.0, g.BAR_LEFT)
    """The outer half's ends: at the frame, at the bar."""
    home: tuple[float, float] = (g.BAR_RIGHT, g.PLAY_WIDTH)
    """The home half's ends: at the bar, at the frame."""
    edge: float = 0.0
    """The strip (mm) between each long side of the frame and the points' bases."""

    @property
    def is_canonical(self) -> bool:
        return self == CANONICAL_LAYOUT

    @property
    def has_canonical_halves(self) -> bool:
        """Whether its halves and bar are the canonical ones (whatever strip lies along the
        frame's long sides)."""
        return self.outer == CANONICAL_LAYOUT.outer and self.home == CANONICAL_LAYOUT.home

    @property
    def point_widths(self) -> tuple[float, float]:
        """The points' width in the outer half and in the home half (mm)."""
        return (self.outer[1] - self.outer[0]) / 6, (self.home[1] - self.home[0]) / 6

    @property
    def bar_width(self) -> float:
        return self.home[0] - self.outer[1]

    def stretches(self) -> tuple[g.Stretch, ...]:
        """This board's :func:`companion.geometry.stretches`, left to right."""
        return g.stretches(self.outer, self.home)

    def to_canonical(self, xy: tuple[float, float]) -> tuple[float, float]:
        """The canonical plane point that shows this board's point ``xy``."""
        if self.is_canonical:
            return xy
        xs, ys = self.canonical_points(np.array([xy[0]]), np.array([xy[1]]))
        return (float(xs[0]), float(ys[0]))

    def canonical_points(
        self, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """:meth:`to_canonical` of many points (``xs``, ``ys`` on this board's plane) at once."""
        return self.canonical_xs(xs), self.canonical_ys(xs, ys)

    def half_of(self, xy: tuple[float, float]) -> g.Half:
        """Which part of this board a spot of its own plane lies on: the halves and the bar
        where this board has them, and the whole field up to the frame (a strip along the
        frame is the board's, though the view shifts it off the canonical playing area)."""
        return g.half_of(float(self.canonical_xs(np.array([xy[0]]))[0]), xy[1])

    def canonical_xs(self, xs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The ``x`` part of :meth:`to_canonical`, of many points at once."""
        if self.is_canonical:
            return xs
        return g.canonical_xs(xs, self.outer, self.home)

    def y_pieces(self) -> tuple[g.Stretch, ...]:
        """Over the halves, the pieces of the canonical plane along the points, top to bottom,
        as :data:`companion.geometry.Stretch` of ``y``: the top row's points and stacks, the
        open field between the tips, the bottom row's points and stacks."""
        e, length, height = self.edge, g.POINT_LENGTH, g.PLAY_HEIGHT
        middle = (height - 2 * e - 2 * length) / (height - 2 * length)
        return (
            (-math.inf, length, 1.0, e),
            (length, height - length, middle, e + length - middle * length),
            (height - length, math.inf, 1.0, -e),
        )

    def canonical_ys(
        self, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """The ``y`` part of :meth:`to_canonical`, of many points (``xs``, ``ys``, on this
        board's plane) at once."""
        if self.edge == 0.0:
            return ys
        over_halves = ((xs >= self.outer[0]) & (xs <= self.outer[1])) | (
            (xs >= self.home[0]) & (xs <= self.home[1])
        )
        return np.where(over_halves, g.undo_stretches(ys, self.y_pieces()), ys)


CANONICAL_LAYOUT = Layout()


def warp(
    image: Image, image_to_plane: Matrix, scale: float, layout: Layout = CANONICAL_LAYOUT
) -> Image:
    """The frame seen from straight above, white at the bottom, at ``scale`` px/mm; a board
    whose halves differ from the canonical ones is warped stretch by stretch onto them."""
    flags = cv2.INTER_AREA if scale < 1.5 else cv2.INTER_LINEAR
    width, height = view_size(scale)

    def part(matrix: Matrix, columns: int, rows: int = height) -> Image:
        return cast(
            Image,
            cv2.warpPerspective(
                image,
                matrix,
                (columns, rows),
                flags=flags,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(0, 0, 0),
            ),
        )

    if layout.is_canonical:
        return part(view_matrix(image_to_plane, scale), width)
    halves = (1, 3)  # the outer half's and the home half's stretches
    parts = []
    for index, (x0, x1, slope, offset) in enumerate(layout.stretches()):
        first = max(view_column(x0, scale), 0) if math.isfinite(x0) else 0
        last = min(view_column(x1, scale), width) if math.isfinite(x1) else width
        # this board's x = slope * canonical x + offset, so canonical = (x - offset) / slope
        # (and y piece by piece over the halves, :meth:`Layout.y_pieces`); each part's first
        # column and row are its output's 0
        pieces = (
            layout.y_pieces()
            if index in halves and layout.edge
            else ((-math.inf, math.inf, 1.0, 0.0),)
        )
        rows = []
        for y0, y1, y_slope, y_offset in pieces:
            top = max(view_row(y0, scale), 0) if math.isfinite(y0) else 0
            bottom = min(view_row(y1, scale), height) if math.isfinite(y1) else height
            to_canonical = np.array(
                [
                    [1.0 / slope, 0.0, -offset / slope],
                    [0.0, 1.0 / y_slope, -y_offset / y_slope],
                    [0.0, 0.0, 1.0],
                ]
            )
            shift = np.array([[1.0, 0.0, -first], [0.0, 1.0, -top], [0.0, 0.0, 1.0]])
            matrix = shift @ view_matrix(to_canonical @ image_to_plane, scale)
            rows.append(part(matrix, last - first, bottom - top))
        parts.append(np.vstack(rows))
    return cast(Image, np.hstack(parts))


def warp_patch(
    image: Image, image_to_plane: Matrix, centre_mm: tuple[float, float], size_mm: float, px: int
) -> Image:
    """A square of the plane ``size_mm`` across around ``centre_mm``, ``px`` pixels wide."""
    scale = px / size_mm
    to_patch = np.array(
        [
            [scale, 0.0, -(centre_mm[0] - size_mm / 2) * scale],
            [0.0, scale, -(centre_mm[1] - size_mm / 2) * scale],
            [0.0, 0.0, 1.0],
        ]
    )
    return cast(
        Image,
        cv2.warpPerspective(image, to_patch @ image_to_plane, (px, px), flags=cv2.INTER_LINEAR),
    )


def to_plane(image_to_plane: Matrix, xy: tuple[float, float]) -> tuple[float, float]:
    point = image_to_plane @ np.array([xy[0], xy[1], 1.0])
    return (float(point[0] / point[2]), float(point[1] / point[2]))


def to_image(image_to_plane: Matrix, xy: tuple[float, float]) -> tuple[float, float]:
    point = np.linalg.inv(image_to_plane) @ np.array([xy[0], xy[1], 1.0])
    return (float(point[0] / point[2]), float(point[1] / point[2]))


def plane_corners_px(image_to_plane: Matrix) -> Corners:
    """The playing area's corners in the image, clockwise from the plane's top-left."""
    return tuple(to_image(image_to_plane, xy) for xy in ((0, 0), (_W, 0), (_W, _H), (0, _H)))


def order_clockwise(points: npt.ArrayLike) -> Corners:
    """Four points ordered clockwise (on screen) starting from the one nearest the top-left."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(angles)]  # clockwise on screen (y grows down)
    start = int(np.argmin(ordered[:, 0] + ordered[:, 1]))
    ordered = np.roll(ordered, -start, axis=0)
    return tuple((float(x), float(y)) for x, y in ordered)


class CameraModel:
    """The camera recovered from the board's homography: lets the readers look at heights.

    Objects stand above the playing surface (a checker's top 7 mm up, a die's top 16 mm, a
    borne-off checker's top 36 mm); under the plane's homography they appear shifted away from
    the camera. Assuming square pixels and the principal point at the image centre, the focal
    length follows from the homography when the camera is tilted; for a camera nearly straight
    overhead it cannot, and a typical webcam's (``width`` pixels) is used.
    """

    def __init__(self, image_to_plane: Matrix, image_size: tuple[int, int]) -> None:
        width, height = image_size
        plane_to_image = np.linalg.inv(image_to_plane)
        h = plane_to_image / plane_to_image[2, 2]
        cx, cy = width / 2, height / 2
        u = h[0] - cx * h[2]
        v = h[1] - cy * h[2]
        z = h[2]
        estimates = []
        denominator = z[0] * z[1]
        if abs(denominator) > 1e-12:
            f2 = -(u[0] * u[1] + v[0] * v[1]) / denominator
            if f2 > 0:
                estimates.append(f2)
        denominator = z[1] ** 2 - z[0] ** 2
        if abs(denominator) > 1e-12:
            f2 = (u[0] ** 2 + v[0] ** 2 - u[1] ** 2 - v[1] ** 2) / denominator
            if f2 > 0:
                estimates.append(f2)
        focal = float(width)
        if estimates:
            guess = math.sqrt(float(np.median(estimates)))
            if 0.3 * width < guess < 5.0 * width:
                focal = guess
        self.focal = focal
        k = np.array([[focal, 0.0, cx], [0.0, focal, cy], [0.0, 0.0, 1.0]])
        m = np.linalg.inv(k) @ h
        scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
        if m[2, 2] * scale < 0:
            scale = -scale
        r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
        r3 = np.cross(r1, r2)
        self._k = k
        self._r1, self._r2, self._r3, self._t = r1, r2, r3, t
        rotation = np.column_stack([r1, r2, r3])
        self.position = -rotation.T @ t
        """Camera centre in plane millimetres; its height above the board is ``-position[2]``."""

    @property
    def height(self) -> float:
        return float(abs(self.position[2]))

    def image_to_plane_at(self, height_mm: float) -> Matrix:
        """Homography from image pixels to plane (x, y) for points ``height_mm`` above it."""
        up = -self._r3 if self.position[2] < 0 else self._r3
        plane_to_image = self._k @ np.column_stack([self._r1, self._r2, self._t + height_mm * up])
        return cast(Matrix, np.linalg.inv(plane_to_image))


class CameraHeights:
    """The camera's homographies from the image to the plane at each height something is
    looked at (a die's top, the plane view's, a borne-off checker's), and back, each made
    once: a frame looks at the same few heights dozens of times, and the frames of a game
    share one camera."""

    def __init__(self, camera: CameraModel) -> None:
        self.camera = camera
        self._to_plane: dict[float, Matrix] = {}
        self._to_image: dict[float, Matrix] = {}

    def to_plane_matrix(self, height: float) -> Matrix:
        """Image pixels to plane (x, y) for points ``height`` mm above the board."""
        if height not in self._to_plane:
            self._to_plane[height] = self.camera.image_to_plane_at(height)
        return self._to_plane[height]

    def to_image(self, xy: tuple[float, float], height: float) -> tuple[float, float]:
        """Where plane point ``xy``, ``height`` mm up, shows in the image."""
        if height not in self._to_image:
            self._to_image[height] = np.asarray(
                np.linalg.inv(self.to_plane_matrix(height)), dtype=np.float64
            )
        return to_plane(self._to_image[height], xy)  # the inverse homography, applied

    def to_plane(self, xy: tuple[float, float], height: float) -> tuple[float, float]:
        """The plane point, ``height`` mm up, that image pixel ``xy`` shows."""
        return to_plane(self.to_plane_matrix(height), xy)

    def seen_at(self, xy: tuple[float, float], height: float, other: float) -> tuple[float, float]:
        """The plane point at height ``other`` that shows where the point ``xy`` at ``height``
        does (the camera's ray through both)."""
        return self.to_plane(self.to_image(xy, height), other)


def camera_heights(image_to_plane: Matrix, image_size: tuple[int, int]) -> CameraHeights:
    """The :class:`CameraHeights` of a board's homography and frame size, made once per
    camera (the frames of a game share it; a nudged board makes a new one)."""
    matrix = np.asarray(image_to_plane, dtype=np.float64)
    return _camera_heights(matrix.tobytes(), image_size)


@lru_cache(maxsize=4)
def _camera_heights(image_to_plane: bytes, image_size: tuple[int, int]) -> CameraHeights:
    matrix = np.frombuffer(image_to_plane, dtype=np.float64).reshape(3, 3)
    return CameraHeights(CameraModel(matrix, image_size))

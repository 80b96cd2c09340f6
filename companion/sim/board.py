"""The physical board: its solid shape around the canonical plane, and its flat painted texture.

Coordinates are the canonical plane of :mod:`companion.geometry` in millimetres (``x`` right,
``y`` toward white's seat) plus a *height* above the playing surface. The playing area and the
trays lie at height 0; the frame and the bar stand ``FRAME_HEIGHT`` above them (checkers on the
bar rest on top of it); the table is ``BOX_DEPTH`` below.

The board can stand in four ways relative to the camera (``white_home``: the image quadrant of
white's home board). The whole solid board is placed in the *world* by :class:`Orientation`, a
flip of the plane about the board's centre, so a mirrored setup (home boards on white's left)
is simply the board with every checker drawn where a mirrored player puts it.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim.shape import CANONICAL_FIELD, CANONICAL_SHAPE, NO_MARGINS, BoardShape, Field
from companion.sim.styles import BGR, BOARD_STYLES, EXTRA_BOARD_STYLES, BoardStyle, Surface

FRAME_HEIGHT = 15.0
"""How far the frame and bar stand above the playing surface: 15-30 mm on real boards, so a
tilted camera sees the walls' inner faces and a lamp casts their shadow onto the field. (The
low end of that: at 18 mm the vision code already lost the trays at the end of the demo game.)"""
FRAMING_HEIGHT = 8.0
"""The frame's height when the camera's framing and the table's things were first fitted to the
case; they still are, so that a seed's camera and table stay where they were (the taller frame
still fits: the fill leaves a margin of 5-22%)."""
BOX_DEPTH = 30.0
"""How far the table lies below the playing surface."""
TABLE_HEIGHT = -BOX_DEPTH
"""Height of the table top the case stands on (the playing surface is height 0)."""
TRAY_DIVIDER = 10.0
"""The strip of frame between the two trays."""
TEXTURE_PX_PER_MM = 2.5

OBJECT_LEFT = -g.FRAME_WIDTH
OBJECT_TOP = -g.FRAME_WIDTH
OBJECT_RIGHT = g.PLAY_WIDTH + g.TRAY_GAP + g.TRAY_WIDTH + g.FRAME_WIDTH
"""The canonical board's right edge; a shaped board's is :func:`object_right`."""
OBJECT_BOTTOM = g.PLAY_HEIGHT + g.FRAME_WIDTH
CENTRE_X = (OBJECT_LEFT + OBJECT_RIGHT) / 2
"""The canonical board's middle; a shaped board's is :func:`centre_x`."""
CENTRE_Y = (OBJECT_TOP + OBJECT_BOTTOM) / 2


def object_right(shape: BoardShape = CANONICAL_SHAPE) -> float:
    """The right edge of the case of a board of ``shape``: past its trays and their frame."""
    return shape.width + g.TRAY_GAP + g.TRAY_WIDTH + g.FRAME_WIDTH


def centre_x(shape: BoardShape = CANONICAL_SHAPE) -> float:
    """The middle of the case of a board of ``shape``, which the camera looks at."""
    return (OBJECT_LEFT + object_right(shape)) / 2


WhiteHome = Literal["bottom-right", "bottom-left", "top-right", "top-left"]
WHITE_HOMES: tuple[WhiteHome, ...] = ("bottom-right", "bottom-left", "top-right", "top-left")

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Orientation:
    """Where the canonical board stands in the world: flips about the board's centre.

    ``white_home`` names the image quadrant of white's home board for a camera at rotation 0
    (the image's top is the world's top). ``bottom-left`` and ``top-right`` are mirrored setups.
    """

    white_home: WhiteHome = "bottom-right"
    shape: BoardShape = CANONICAL_SHAPE
    """The board's proportions: a flip turns the case about its own middle."""

    @property
    def flip_x(self) -> bool:
        return self.white_home in ("bottom-left", "top-left")

    @property
    def flip_y(self) -> bool:
        return self.white_home in ("top-right", "top-left")

    @property
    def mirrored(self) -> bool:
        """True when the home boards lie on white's left (as ``geometry.right_hand_half`` means)."""
        return self.flip_x != self.flip_y

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        return (
            2 * centre_x(self.shape) - x if self.flip_x else x,
            2 * CENTRE_Y - y if self.flip_y else y,
        )

    def to_world_array(self, xy: FloatArray) -> FloatArray:
        """Canonical points (..., 2) or (..., 3) in the world: only x and y move (a height
        stays as it is)."""
        out = xy.astype(np.float64, copy=True)
        if self.flip_x:
            out[..., 0] = 2 * centre_x(self.shape) - out[..., 0]
        if self.flip_y:
            out[..., 1] = 2 * CENTRE_Y - out[..., 1]
        return out

    def to_world_direction(self, direction: FloatArray) -> FloatArray:
        """A canonical direction (..., 2) or (..., 3) in the world: a flip turns it about
        its axis, with no centre to turn about (a wall's facing, a die's axes)."""
        out = direction.astype(np.float64, copy=True)
        if self.flip_x:
            out[..., 0] = -out[..., 0]
        if self.flip_y:
            out[..., 1] = -out[..., 1]
        return out

    def to_canonical(self, x: float, y: float) -> tuple[float, float]:
        """The inverse of :meth:`to_world` (a flip is its own inverse)."""
        return self.to_world(x, y)


PLAYING_HOLES = 2
"""The first holes (:func:`holes`) are the playing area's two halves; the trays follow."""
WALLS_PER_HOLE = 4
"""Each hole's walls (:func:`walls`), in order round it."""


def holes(shape: BoardShape = CANONICAL_SHAPE) -> list[g.Rect]:
    """The sunken parts of the board (height 0): both halves of the playing area
    (:data:`PLAYING_HOLES`), then both trays."""
    return [
        (0.0, 0.0, shape.bar_left, g.PLAY_HEIGHT),
        (shape.bar_right, 0.0, shape.width, g.PLAY_HEIGHT),
        shape.tray_rect("black"),
        shape.tray_rect("white"),
    ]


def _inside(rect: g.Rect, x: float, y: float) -> bool:
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


def surface_height(x: float, y: float, shape: BoardShape = CANONICAL_SHAPE) -> float:
    """Height of whatever a small object resting at canonical ``(x, y)`` stands on."""
    if not (OBJECT_LEFT <= x <= object_right(shape) and OBJECT_TOP <= y <= OBJECT_BOTTOM):
        return TABLE_HEIGHT
    if any(_inside(rect, x, y) for rect in holes(shape)):
        return 0.0
    return FRAME_HEIGHT


def outline(shape: BoardShape = CANONICAL_SHAPE) -> FloatArray:
    """The board's outer outline on the canonical plane, clockwise from the top-left."""
    right = object_right(shape)
    return np.array(
        [
            (OBJECT_LEFT, OBJECT_TOP),
            (right, OBJECT_TOP),
            (right, OBJECT_BOTTOM),
            (OBJECT_LEFT, OBJECT_BOTTOM),
        ],
        dtype=np.float64,
    )


def frame_strips(shape: BoardShape = CANONICAL_SHAPE) -> list[g.Rect]:
    """The raised frame and bar as rectangles that together cover outline minus holes."""
    tray = shape.tray_rect("black")
    right = object_right(shape)
    return [
        (OBJECT_LEFT, OBJECT_TOP, right, 0.0),
        (OBJECT_LEFT, g.PLAY_HEIGHT, right, OBJECT_BOTTOM),
        (OBJECT_LEFT, 0.0, 0.0, g.PLAY_HEIGHT),
        (shape.bar_left, 0.0, shape.bar_right, g.PLAY_HEIGHT),
        (shape.width, 0.0, tray[0], g.PLAY_HEIGHT),
        (tray[0], tray[3], tray[2], shape.tray_rect("white")[1]),
        (tray[2], 0.0, right, g.PLAY_HEIGHT),
    ]


def frame_tops(orientation: Orientation, shape: BoardShape = CANONICAL_SHAPE) -> list[FloatArray]:
    """The raised frame and bar's tops (:func:`frame_strips`) as world quads (4, 3) at the
    frame's height, clockwise from the top-left on the canonical plane: the case draws its
    tops on them and the shadow maps keep the walls' shadows off them."""
    tops = []
    for x0, y0, x1, y1 in frame_strips(shape):
        corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
        tops.append(
            np.column_stack([orientation.to_world_array(corners), np.full(4, FRAME_HEIGHT)])
        )
    return tops


def walls(shape: BoardShape = CANONICAL_SHAPE) -> Iterator[tuple[FloatArray, tuple[float, float]]]:
    """The inner walls around every hole: quads (canonical x, y, height) and their normals.

    The normal is the horizontal direction the wall faces, into the hole.
    """
    for x0, y0, x1, y1 in holes(shape):
        edges = [
            ((x0, y0), (x1, y0), (0.0, 1.0)),
            ((x1, y0), (x1, y1), (-1.0, 0.0)),
            ((x1, y1), (x0, y1), (0.0, -1.0)),
            ((x0, y1), (x0, y0), (1.0, 0.0)),
        ]
        for a, b, normal in edges:
            quad = np.array(
                [
                    (a[0], a[1], 0.0),
                    (b[0], b[1], 0.0),
                    (b[0], b[1], FRAME_HEIGHT),
                    (a[0], a[1], FRAME_HEIGHT),
                ]
            )
            yield quad, normal


# -- the painted texture ----------------------------------------------------------------------


def texture_to_canonical() -> FloatArray:
    """3x3 matrix taking texture pixel coordinates to canonical millimetres."""
    s = 1.0 / TEXTURE_PX_PER_MM
    return np.array([[s, 0.0, OBJECT_LEFT], [0.0, s, OBJECT_TOP], [0.0, 0.0, 1.0]])


def texture_size(shape: BoardShape = CANONICAL_SHAPE) -> tuple[int, int]:
    """(width, height) of the board texture in pixels."""
    return (
        round((object_right(shape) - OBJECT_LEFT) * TEXTURE_PX_PER_MM),
        round((OBJECT_BOTTOM - OBJECT_TOP) * TEXTURE_PX_PER_MM),
    )


def _px(x: float, y: float) -> tuple[float, float]:
    return ((x - OBJECT_LEFT) * TEXTURE_PX_PER_MM, (y - OBJECT_TOP) * TEXTURE_PX_PER_MM)


def _grain(
    rng: np.random.Generator, shape: tuple[int, int], surface: Surface, horizontal: bool = True
) -> npt.NDArray[np.float32]:
    """A multiplicative brightness pattern (about 1.0) that makes a surface look like a material."""
    h, w = shape
    if surface == "wood":
        # growth rings bent by slow noise, fine pores along the grain, and plank-wide tone
        bend: npt.NDArray[Any] = rng.standard_normal((max(h // 60, 3), max(w // 200, 3)))
        bend = cv2.resize(bend.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        rows = np.arange(h, dtype=np.float32)[:, None] / max(h, 1)
        rings = np.sin((rows * 90.0 + bend * 2.2) * np.float32(math.pi))
        pores: npt.NDArray[Any] = rng.standard_normal((h, max(w // 6, 4))).astype(np.float32)
        pores = cv2.resize(pores, (w, h), interpolation=cv2.INTER_LINEAR)
        tone: npt.NDArray[Any] = rng.standard_normal((max(h // 120, 2), 3)).astype(np.float32)
        tone = cv2.resize(tone, (w, h), interpolation=cv2.INTER_CUBIC)
        pattern: npt.NDArray[Any] = 0.05 * rings + 0.035 * pores + 0.04 * tone
        if not horizontal:
            pattern = cv2.resize(pattern.T.copy(), (w, h))
        return np.asarray(1.0 + pattern, dtype=np.float32)
    if surface == "felt":
        fine = _smooth_noise(rng, (h, w), (h, w), 0.8)
        blotch = _smooth_noise(rng, (h, w), (max(h // 60, 2), max(w // 60, 2)), 0.0)
        return np.asarray(1.0 + 0.06 * fine + 0.025 * blotch, dtype=np.float32)
    if surface == "leather":
        # a pebbled grain (bright little bumps parted by dark creases) over a faint unevenness;
        # real boards are tanned evenly, so the large-scale part stays slight
        fine = _smooth_noise(rng, (h, w), (h, w), 1.2)
        pebbles = np.abs(_smooth_noise(rng, (h, w), (h, w), 2.0))
        pebbles = pebbles / max(float(pebbles.mean()), 1e-6) - 1.0
        blotch = _smooth_noise(rng, (h, w), (max(h // 80, 2), max(w // 80, 2)), 0.0)
        return np.asarray(1.0 + 0.02 * fine + 0.015 * pebbles + 0.008 * blotch, dtype=np.float32)
    fine = _smooth_noise(rng, (h, w), (h, w), 1.0)
    return np.asarray(1.0 + 0.015 * fine, dtype=np.float32)


def _smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int], blur: float
) -> npt.NDArray[np.float32]:
    """Gaussian noise drawn on a ``cells`` grid, scaled up to ``shape`` and blurred."""
    noise: npt.NDArray[Any] = rng.standard_normal(cells, dtype=np.float32)
    if cells != shape:
        noise = cv2.resize(noise, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    if blur > 0:
        noise = cv2.GaussianBlur(noise, (0, 0), blur)
    return np.asarray(noise, dtype=np.float32)


def _paint(
    canvas: npt.NDArray[np.float32],
    mask: npt.NDArray[np.uint8],
    colour: BGR,
    pattern: npt.NDArray[np.float32],
) -> None:
    """Fills ``mask`` (0-255, antialiased) with ``colour`` modulated by ``pattern``."""
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    paint = np.asarray(colour, dtype=np.float32)[None, None, :] * pattern[..., None]
    canvas *= 1.0 - alpha
    canvas += alpha * paint


def _poly_mask(
    shape: tuple[int, int], polygons: list[list[tuple[float, float]]]
) -> npt.NDArray[np.uint8]:
    mask = np.zeros(shape, dtype=np.uint8)
    pts = [
        np.round(np.array([_px(x, y) for x, y in poly]) * 16).astype(np.int32) for poly in polygons
    ]
    cv2.fillPoly(mask, pts, 255, lineType=cv2.LINE_AA, shift=4)
    return mask


Box = tuple[slice, slice]
"""Rows and columns of a texture."""


def _triangle_mask(
    triangle: tuple[tuple[float, float], ...], size: tuple[int, int]
) -> tuple[Box, npt.NDArray[np.uint8]]:
    """A point's ``triangle`` (mm) on a texture of ``size`` (rows, columns): the box around
    it and its antialiased mask (0-255) in that box, the very pixels :func:`_poly_mask` gives
    there. Painting each of 24 points through a whole texture's mask would be 24 times the
    work."""
    h, w = size
    corners = np.array([_px(x, y) for x, y in triangle])
    fixed = np.round(corners * 16).astype(np.int32)
    left, top = (int(v) for v in np.maximum(np.floor(corners.min(axis=0)) - 2, 0))
    right, bottom = (int(v) for v in np.minimum(np.ceil(corners.max(axis=0)) + 3, (w, h)))
    mask = np.zeros((bottom - top, right - left), np.uint8)
    local = fixed - np.array([left * 16, top * 16], np.int32)
    cv2.fillPoly(mask, [local], 255, lineType=cv2.LINE_AA, shift=4)
    return (slice(top, bottom), slice(left, right)), mask


@lru_cache(maxsize=24)
def board_texture(
    style: BoardStyle,
    white_home: WhiteHome = "bottom-right",
    field: Field = CANONICAL_FIELD,
) -> Image:
    """The flat painted board (field, points, frame top, trays) seen from straight above.

    The points are painted where ``field`` puts them (the scene passes its own, with the
    margins asked for or its style's: see :class:`companion.sim.shape.Field`). Cached: every
    frame of a style warps the same texture. Texture pixels map to the *world* plane (after
    the orientation flip), see :func:`texture_to_canonical` and :class:`Orientation`.
    """
    shape = field.shape
    if shape.is_canonical and field.margins == NO_MARGINS:
        texture = _standard_board(style)
    else:
        base, point_grain, tones = _painted(style)
        if not shape.is_canonical:
            base = _reshaped(base, shape)
            point_grain = _reshaped(point_grain, shape)
        texture = _paint_points(base, style, field, point_grain, tones)
    orientation = Orientation(white_home, shape)
    if orientation.flip_x:
        texture = texture[:, ::-1]
    if orientation.flip_y:
        texture = texture[::-1, :]
    return np.ascontiguousarray(texture)


Painted = tuple[Image, npt.NDArray[np.float32], npt.NDArray[np.float64]]
STYLE_COUNT = len(BOARD_STYLES) + len(EXTRA_BOARD_STYLES)
"""How many board styles there are: the painted boards' caches hold each of them."""


@lru_cache(maxsize=STYLE_COUNT)
def _standard_board(style: BoardStyle) -> Image:
    """The standard board painted in ``style`` with its points, pixel for pixel as before
    boards had margins. Only the painted board is kept: nothing paints points on it again,
    and the points' grain is 8 MB a style."""
    return _paint_board(style, with_points=True)[0]


@lru_cache(maxsize=STYLE_COUNT)
def _painted(style: BoardStyle) -> Painted:
    """The standard board painted in ``style`` without points, with the grain and the tones
    :func:`_paint_points` paints the points of a board of any shape and margins in."""
    return _paint_board(style, with_points=False)


def _paint_board(style: BoardStyle, with_points: bool) -> Painted:
    """The standard board painted in ``style``, with the grain and the tones (one per point:
    printed or inlaid on its own, each differs a little from its neighbours) its points are
    painted in. ``with_points`` paints the standard board's points; either way the grain and
    tones are drawn, as the later draws of the style's generator (the hinge's metal) follow
    them."""
    shape = CANONICAL_SHAPE
    w, h = texture_size(shape)
    rng = np.random.default_rng(zlib.crc32(style.name.encode()))
    canvas = np.zeros((h, w, 3), dtype=np.float32)
    # frame everywhere, then the field in the holes (the points come later)
    frame_grain = _grain(rng, (h, w), style.frame_surface)
    _paint(canvas, np.full((h, w), 255, np.uint8), style.frame, frame_grain)
    field_grain = _grain(rng, (h, w), style.field_surface)
    hole_polys = [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in holes(shape)]
    holes_mask = _poly_mask((h, w), hole_polys)
    _paint(canvas, holes_mask, style.field, field_grain)
    point_grain = _grain(rng, (h, w), style.point_surface)
    tones = 1.0 + 0.03 * np.clip(rng.standard_normal(24), -2.0, 2.0)
    if with_points:
        for colour, parity in ((style.point_a, 0), (style.point_b, 1)):
            for number in range(1, 25):
                if number % 2 != parity:
                    continue
                box, mask = _triangle_mask(shape.point(number).triangle(), (h, w))
                grain = point_grain[box] * np.float32(tones[number - 1])
                _paint(canvas[box], mask, colour, grain)
    # a thin inlay line around the field and the hinge along the bar, as on real cases
    inlay = np.zeros((h, w), np.uint8)
    for x0, y0, x1, y1 in holes(shape)[:2]:
        a, b = _px(x0 - 3, y0 - 3), _px(x1 + 3, y1 + 3)
        cv2.rectangle(
            inlay,
            (round(a[0] * 16), round(a[1] * 16)),
            (round(b[0] * 16), round(b[1] * 16)),
            255,
            2,
            cv2.LINE_AA,
            4,
        )
    inlay_colour = tuple(int(min(255, c * 1.5 + 25)) for c in style.frame)
    _paint(canvas, inlay, inlay_colour, np.ones((h, w), np.float32))  # type: ignore[arg-type]
    hinge_x = shape.middle("bar")
    hinge = np.zeros((h, w), np.uint8)
    a, b = _px(hinge_x, OBJECT_TOP), _px(hinge_x, OBJECT_BOTTOM)
    cv2.line(hinge, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), 255, 2, cv2.LINE_AA)
    dark = tuple(int(c * 0.45) for c in style.frame)
    _paint(canvas, hinge, dark, np.ones((h, w), np.float32))  # type: ignore[arg-type]
    metal = np.zeros((h, w), np.uint8)
    for y_hinge in (g.PLAY_HEIGHT * 0.2, g.PLAY_HEIGHT * 0.8):
        a, b = _px(hinge_x - 6, y_hinge - 14), _px(hinge_x + 6, y_hinge + 14)
        cv2.rectangle(
            metal, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), 255, -1, cv2.LINE_AA
        )
    _paint(canvas, metal, (175, 180, 185), _grain(rng, (h, w), "plain"))
    canvas *= _relief_light(holes_mask)[..., None]
    base = np.clip(canvas, 0, 255).astype(np.uint8)
    for array in (base, point_grain, tones):
        array.setflags(write=False)
    return base, point_grain, tones


def _paint_points(
    base: Image,
    style: BoardStyle,
    field: Field,
    grain: npt.NDArray[np.float32],
    tones: npt.NDArray[np.float64],
) -> Image:
    """``base`` (a painted board without points) with the 24 points painted where ``field``
    puts them, each in its colour, tone and the points' grain."""
    canvas = base.copy()
    h, w = canvas.shape[:2]
    for number in range(1, 25):
        colour = style.point_a if number % 2 == 0 else style.point_b
        box, mask = _triangle_mask(field.point(number).triangle(), (h, w))
        region = canvas[box]
        patch = region.astype(np.float32)
        _paint(patch, mask, colour, grain[box] * np.float32(tones[number - 1]))
        region[...] = np.clip(patch, 0, 255).astype(np.uint8)
    return canvas


def _reshaped(texture: npt.NDArray[Any], shape: BoardShape) -> npt.NDArray[Any]:
    """The standard board's painted texture (or a grain) with its halves and bar moved to
    ``shape``'s, in the texture's own type.

    Each stretch between the halves' ends (the frame, the outer half, the bar, the home
    half, the frame and trays beyond) is stretched on its own by
    :func:`companion.geometry.canonical_xs` (the map the vision code reads such a board
    through), so the grain and tones stay the style's; the points are painted afterwards,
    where the shape and its margins put them. Painting a board anew costs half a second; this
    costs a few tens of milliseconds, so a set where every frame has its own proportions
    renders nearly as fast as one of standard boards.
    """
    width, height = texture_size(shape)
    columns = np.arange(width, dtype=np.float64) / TEXTURE_PX_PER_MM + OBJECT_LEFT
    canonical = g.canonical_xs(columns, shape.outer, shape.home)
    source = (canonical - OBJECT_LEFT) * TEXTURE_PX_PER_MM
    map_x = np.ascontiguousarray(np.broadcast_to(source.astype(np.float32), (height, width)))
    map_y = np.ascontiguousarray(
        np.broadcast_to(np.arange(height, dtype=np.float32)[:, None], (height, width))
    )
    return np.asarray(
        cv2.remap(texture, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
        dtype=texture.dtype,
    )


def _relief_light(holes_mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Brightness (about 1.0) of what the frame's rounded edges do to light from any direction.

    They catch a thin line of light along each hole and along the outer rim, as in every
    photo of a board; that holds for any lamp, so it is baked into the cached texture and
    costs nothing per frame. (The field itself is left alone: a soft dark margin along the
    walls, true as it is, moves the field's edge where the vision code finds it.)
    """
    outside = (holes_mask <= 127).astype(np.uint8)
    mm = 1.0 / TEXTURE_PX_PER_MM
    to_hole = cv2.distanceTransform(outside, cv2.DIST_L2, 5) * mm
    h, w = holes_mask.shape
    rows = np.minimum(np.arange(h, dtype=np.float32), np.arange(h, dtype=np.float32)[::-1])
    cols = np.minimum(np.arange(w, dtype=np.float32), np.arange(w, dtype=np.float32)[::-1])
    to_rim = np.minimum(rows[:, None], cols[None, :]) * np.float32(mm)
    edge = 0.13 * np.exp(-(((to_hole - 1.0) / 0.9) ** 2)) + 0.1 * np.exp(
        -(((to_rim - 1.5) / 1.2) ** 2)
    )
    return np.asarray(1.0 + edge * outside, np.float32)


def _cloth_folds(rng: np.random.Generator, shape: tuple[int, int]) -> npt.NDArray[np.float32]:
    """Soft undulations of a cloth laid on a table (about 1.0): a few broad folds, each a
    ridge lit on one side and shaded on the other, bent by slow noise."""
    h, w = shape
    rows = np.arange(h, dtype=np.float32)[:, None] / max(w, 1)
    cols = np.arange(w, dtype=np.float32)[None, :] / max(w, 1)
    bend = _smooth_noise(rng, (h, w), (4, 6), 0.0)
    folds = np.zeros((h, w), np.float32)
    for _ in range(3):
        angle = float(rng.uniform(0, math.pi))
        wavelength = float(rng.uniform(0.15, 0.4))
        phase = float(rng.uniform(0, 2 * math.pi))
        across = cols * np.float32(math.cos(angle)) + rows * np.float32(math.sin(angle))
        wave = np.sin(across * np.float32(2 * math.pi / wavelength) + bend * 1.5 + phase)
        folds += np.float32(rng.uniform(0.015, 0.035)) * wave.astype(np.float32)
    return np.asarray(1.0 + folds, np.float32)


SEAM_DEPTH = 0.15
"""How much darker a wooden table is along the seams between its planks (relative)."""


def _weave(shape: tuple[int, int], period: float) -> npt.NDArray[np.float32]:
    """A cloth's faint regular weave (about 0), threads ``period`` pixels apart."""
    h, w = shape
    rows = np.arange(h, dtype=np.float32)[:, None]
    cols = np.arange(w, dtype=np.float32)[None, :]
    weave = np.sin(rows * (2 * math.pi / period)) * np.sin(cols * (2 * math.pi / period))
    return np.asarray(np.float32(0.02) * weave, np.float32)


def _table_wood(rng: np.random.Generator, shape: tuple[int, int]) -> npt.NDArray[np.float32]:
    """A wooden table top (about 1.0): planks side by side, each of its own tone and its own
    grain (growth lines of uneven spacing, sharper than a sine's, bent and drifting along the
    plank, and fine fibres), parted by dark seams. A board's inlay (:func:`_grain`) is one
    piece; a table seen whole shows its planks, and grain as even as a sine's gave it away."""
    h, w = shape
    pattern = np.empty((h, w), np.float32)
    cols = np.arange(w, dtype=np.float32)[None, :]
    top = -int(rng.integers(0, 120))
    while top < h:
        width = int(rng.integers(110, 190))
        rows = slice(max(top, 0), min(top + width, h))
        n = rows.stop - rows.start
        if n > 0:
            local = np.arange(rows.start - top, rows.stop - top, dtype=np.float32)[:, None]
            bend = _smooth_noise(rng, (n, w), (3, max(w // 160, 3)), 0.0)
            drift = np.float32(rng.uniform(-0.02, 0.02)) * cols
            spacing = float(rng.uniform(5.0, 11.0))
            phase = local / spacing + bend * 2.5 + drift / spacing
            lines = (0.5 + 0.5 * np.cos(phase * np.float32(2 * math.pi))) ** 6
            fibres = _smooth_noise(rng, (n, w), (n, max(w // 25, 4)), 0.0)
            tone = np.float32(rng.normal(0.0, 0.05))
            plank = 1.0 + tone - 0.09 * lines + 0.025 * fibres
            # a seam: the plank's edges fall into a thin dark groove
            edge = np.minimum(local, width - 1 - local)
            plank = plank * (1.0 - SEAM_DEPTH * np.exp(-(edge**2) / 1.5))
            pattern[rows] = plank
        top += width
    return pattern


@lru_cache(maxsize=8)
def table_texture(
    colour: BGR, surface: Surface, size: tuple[int, int], photo: bool = False
) -> Image:
    """The table around the board, filling a whole frame of ``size`` (width, height).

    ``photo``: the table as a photograph shows it (a photo look, ``Scene.photo``): a wooden one
    in planks (:func:`_table_wood`) rather than one even grain, a cloth with its weave."""
    w, h = size
    rng = np.random.default_rng(7 + sum(colour))
    if surface == "wood" and photo:
        pattern = _table_wood(rng, (h, w))
    else:
        pattern = _grain(rng, (h, w), surface)
    if surface in ("felt", "plain"):  # a cloth on the table lies in soft folds
        if photo:  # woven
            pattern = pattern + _weave((h, w), 3.0)
        pattern = pattern * _cloth_folds(rng, (h, w))
    base = np.asarray(colour, np.float32)[None, None, :] * pattern[..., None]
    return np.asarray(np.clip(base, 0, 255), dtype=np.uint8)


@lru_cache(maxsize=12)
def table_pattern(
    surface: Surface, size: tuple[int, int], variant: int, photo: bool = False
) -> Image:
    """A table's material without its colour: brightness (H, W) in units of 1/128.

    A varied frame (``Scene.vary``) colours one of a few cached patterns per surface, which is
    far cheaper than growing a new grain for every frame. ``photo``: a wooden table shows its
    planks (a photo look, as in :func:`table_texture`), running across or along the frame.
    """
    w, h = size
    rng = np.random.default_rng([variant, 17, len(surface)])
    if surface == "wood" and photo:
        if variant % 2:
            pattern = _table_wood(rng, (h, w))
        else:  # planks running up the frame
            pattern = np.ascontiguousarray(_table_wood(rng, (w, h)).T)
    else:
        pattern = _grain(rng, (h, w), surface, horizontal=bool(variant % 2))
        if surface == "wood":
            # a table seen whole: its grain is finer and fainter than a board's inlay
            pattern = 1.0 + (pattern - 1.0) * np.float32(0.5)
    if surface in ("felt", "plain"):
        # a woven cloth: a faint regular weave under the fibres
        pattern = (pattern + _weave((h, w), 3.0 + variant)) * _cloth_folds(rng, (h, w))
    return np.asarray(np.clip(pattern * 128.0, 0, 255), dtype=np.uint8)

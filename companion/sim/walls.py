"""The inner walls of the case: what a tilted camera sees of a raised frame, and its shadow.

A real board's frame and bar stand 15-30 mm above the playing surface, so a camera that is
not straight overhead sees the inner face of the walls across from it, and a lamp that is off
to one side leaves the walls on its own side in shade and casts their shadow a little way onto
the field (and on whatever stands there). Each wall face is the frame's own material (the
strip of frame texture along its top edge, folded down), lit by the lamp like any vertical
surface, a little darker toward its foot where the corner keeps light out.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim import board, lighting
from companion.sim.board import Orientation
from companion.sim.camera import Camera
from companion.sim.drawing import blend, fill, pixel_box
from companion.sim.shape import BoardShape

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

WALL_AMBIENT = 0.42
"""The light a wall facing away from the lamp still gets (from the room, the table, the field)."""
WALL_DIRECT = 0.5
"""How much more a wall facing the lamp squarely gets."""
FOOT_SHADE = 0.72
"""Brightness at a wall's foot relative to its top: the corner with the field is darker."""
SLIVER_PX = 2.0
"""A wall thinner than this in the picture is filled with one colour: no grain to show."""
STRIP_PX_PER_MM = 1.5
"""Resolution of a wall's picture before it is put in place: about a photo's at 1280x720."""
CONTACT_MM = 5.0
"""How far the soft darkening of the corner reaches onto the field (mm); it is blurred as much
(a band as thin as a pixel or two of the shadow map would show its stair steps)."""
CONTACT_STRENGTH = 0.12
SHEEN = 26.0
"""Grey levels a wall's varnish or leather reflects of the bright field and room across from
it: lost on a light frame, it is what keeps a black frame's walls from being a black band."""
EDGE_GLINT = 40.0
"""Grey levels the rounded top edge of a wall adds where it catches the light (a thin bright
line along the frame's inner edge, as on real boards)."""
EDGE_MM = 1.2
"""How far down from its top a wall's rounded edge reaches (mm)."""
HALF_WALLS = board.PLAYING_HOLES * board.WALLS_PER_HOLE
"""The walls of the two playing halves come first in :func:`companion.sim.board.walls`."""


Wall = tuple[FloatArray, FloatArray]
"""An inner wall in the world: its quad (foot a, foot b, top b, top a; x, y, height mm) and
the horizontal direction (x, y) its face looks, into its hole."""


def _walls_in_world(orientation: Orientation, shape: BoardShape) -> list[Wall]:
    """Every inner wall of the case as it stands in the world."""
    return [
        (orientation.to_world_array(quad), orientation.to_world_direction(np.array(normal)))
        for quad, normal in board.walls(shape)
    ]


def _faces_camera(wall: Wall, camera_at: FloatArray) -> bool:
    """Whether the camera (world position) sees the wall's face rather than its back."""
    quad, normal = wall
    return float(np.dot(normal, camera_at[:2] - quad.mean(axis=0)[:2])) > 0


def draw_walls(
    image: Image,
    camera: Camera,
    orientation: Orientation,
    shape: BoardShape,
    texture: Image,
    light: lighting.Light,
    frame_colour: FloatArray,
    gloss: bool = False,
) -> None:
    """Paints the inner walls that face the camera, each with the frame's grain and lit as a
    vertical face: brighter toward the lamp, darker at its foot. ``frame_colour`` (BGR) paints
    the walls seen edge-on. ``gloss`` (a photo look) gives every wall, the trays' as the
    playing halves', its finish's sheen and a rounded top edge that catches the light
    (:data:`SHEEN`, :data:`EDGE_GLINT`): on a black board a tray's wall without them is a
    black band no photograph shows."""
    cam = camera.position
    size = camera.size
    to_texture = np.linalg.inv(board.texture_to_canonical())
    shine = 1.0 if gloss else 0.0
    for wall in _walls_in_world(orientation, shape):
        if not _faces_camera(wall, cam):
            continue
        world, wn = wall
        middle = world.mean(axis=0)
        pts = camera.project_undistorted(world)
        box = pixel_box(pts, size)
        if box is None:
            continue
        facing = _facing(wn, light, middle)
        brightness = WALL_AMBIENT + WALL_DIRECT * facing
        if _thickness(pts) < SLIVER_PX:
            # seen almost edge-on: a line of the frame's colour in shade is all there is to see
            shaded = frame_colour * brightness * FOOT_SHADE
            fill(image, pts, tuple(np.minimum(shaded + shine * _sheen(shaded), 255)))
            continue
        # the strip of frame top along the wall's edge, folded down over the wall: rows from
        # the top edge (row 0) to the foot
        length = float(np.hypot(*(world[1, :2] - world[0, :2])))
        cols = max(round(length * STRIP_PX_PER_MM), 2)
        rows = max(round(board.FRAME_HEIGHT * STRIP_PX_PER_MM), 2)
        # (the texture is painted in the world's layout: the strip lies behind the world edge)
        a, b = world[0, :2], world[1, :2]
        behind_a, behind_b = a - wn * board.FRAME_HEIGHT, b - wn * board.FRAME_HEIGHT
        source = np.array([a, b, behind_b, behind_a], np.float64)
        source_px = (np.column_stack([source, np.ones(4)]) @ to_texture.T)[:, :2]
        strip_corners = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float32)
        # (the texture's grain at the strip's coarser scale: INTER_AREA-like enough for a wall
        # that is mostly in shade)
        grab = cv2.getPerspectiveTransform(source_px.astype(np.float32), strip_corners)
        strip = cv2.warpPerspective(
            texture, grab, (cols, rows), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        fall = np.linspace(1.0, FOOT_SHADE, rows, dtype=np.float32) ** 1.5 * brightness
        lit = strip.astype(np.float32) * fall[:, None, None]
        if shine:
            lit += _sheen(lit)
            # the rounded top edge catches the light, more on walls facing the lamp
            rows_down = np.arange(rows, dtype=np.float32)
            edge = np.clip(1.0 - rows_down / (EDGE_MM * STRIP_PX_PER_MM), 0, 1)
            lit += (EDGE_GLINT * (0.35 + 0.65 * facing) * edge)[:, None, None]
        strip = np.clip(lit, 0, 255).astype(np.uint8)
        # the wall's corners in the image, in the strip's order: top a, top b, foot b, foot a
        target = np.array([pts[3], pts[2], pts[1], pts[0]], np.float32)
        left, top, right, bottom = box
        place = cv2.getPerspectiveTransform(
            strip_corners, target - np.array([left, top], np.float32)
        )
        roi_size = (right - left, bottom - top)
        warped = cv2.warpPerspective(
            strip, place, roi_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        mask = np.zeros((roi_size[1], roi_size[0]), np.uint8)
        fill(mask, pts - [left, top], 255)
        # blended by the antialiased mask: a wall seen nearly edge-on is a sliver a pixel or two
        # wide, whose edges would otherwise step
        blend(image[top:bottom, left:right], warped, cv2.cvtColor(mask, cv2.COLOR_GRAY2BGR))


RIM_SHARE = 0.7
"""How much of :data:`EDGE_GLINT` the rounded edge of a wall the camera sees no face of shows
(the edge's upper part, turned to the room: a little less than a wall seen face on)."""


def draw_rim_glints(
    image: Image, camera: Camera, orientation: Orientation, shape: BoardShape, light: lighting.Light
) -> None:
    """The rounded inner edges of the frame catching the light (a photo look): all round every
    hole (halves and trays) where :func:`draw_walls` drew no glint, along walls turned from
    the camera (their top edge is the frame's edge seen from above) and walls seen nearly
    edge-on. On a dark board they draw the thin light outlines real boards show round each
    hole; without them its trays were black holes in a black frame. Call it after the frame's
    top is drawn.

    (The case's outer top edge catches the light too, but drawn so it made the board finder
    refuse a green-felt board it finds without it: 5057 tilted 22 degrees, turned 60, of
    tests/test_vision_board_light.py.)"""
    cam = camera.position
    for wall in _walls_in_world(orientation, shape):
        world, wn = wall
        if _faces_camera(wall, cam) and _thickness(camera.project_undistorted(world)) >= SLIVER_PX:
            continue  # the wall's own picture has its lit top edge
        _glint_line(image, camera, world[2:], wn, light)


def _facing(normal: FloatArray, light: lighting.Light, at: FloatArray) -> float:
    """How squarely (0-1) a wall's side looking along ``normal`` (world x, y) turns to the
    lamp's light, seen at the world point ``at``."""
    towards = light.direction_at(*at)
    return max(0.0, float(np.dot(normal, towards[:2])))


def _glint_line(
    image: Image, camera: Camera, top: FloatArray, normal: FloatArray, light: lighting.Light
) -> None:
    """A rounded edge (its two ends in the world) whose side looks along ``normal`` (world x,
    y): a thin line lighter by :data:`RIM_SHARE` of :data:`EDGE_GLINT`, more toward the lamp."""
    ends_px = camera.project_undistorted(top)
    box = pixel_box(ends_px, camera.size, margin=2)
    if box is None:
        return
    facing = _facing(normal, light, top.mean(axis=0))
    glint = EDGE_GLINT * RIM_SHARE * (0.35 + 0.65 * facing)
    left, top_px, right, bottom = box
    line = np.zeros((bottom - top_px, right - left), np.uint8)
    ends = np.round((ends_px - [left, top_px]) * 16).astype(np.int32)
    cv2.line(line, tuple(ends[0]), tuple(ends[1]), 255, 1, cv2.LINE_AA, 4)
    lit = cv2.convertScaleAbs(cv2.cvtColor(line, cv2.COLOR_GRAY2BGR), alpha=glint / 255)
    roi = image[top_px:bottom, left:right]
    cv2.add(roi, lit, dst=roi)


def _sheen(colour: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """What a wall of ``colour`` (BGR, any shape) reflects: :data:`SHEEN` on black, fading to
    nothing on white."""
    grey = colour.mean(axis=-1, keepdims=True)
    return np.asarray(SHEEN * np.clip(1.0 - grey / 160.0, 0.0, 1.0), np.float32)


def _thickness(pts: FloatArray) -> float:
    """How thick a wall (its image corners: foot a, foot b, top b, top a) looks, in pixels:
    the distance of its top edge's middle from the line of its foot."""
    along = pts[1] - pts[0]
    along = along / (float(np.hypot(*along)) + 1e-9)
    rise = (pts[2] + pts[3]) / 2 - (pts[0] + pts[1]) / 2
    return float(abs(rise[0] * along[1] - rise[1] * along[0]))


def frame_shadow(
    camera: Camera, orientation: Orientation, shape: BoardShape, light: lighting.Light
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Shadow coverage (1/4 resolution, as :func:`lighting.shadow_map`) of the walls on the
    field: the lamp's shadow of the walls on its own side, and the soft darkening of every
    corner where a wall meets the field; both kept off the frame and the walls themselves."""
    cast_outlines: list[FloatArray] = []
    corner_outlines: list[FloatArray] = []
    case_walls = _walls_in_world(orientation, shape)
    for world, wn in case_walls:
        foot = world[:2]
        inward = np.array([wn[0], wn[1], 0.0]) * CONTACT_MM
        corner_outlines.append(np.concatenate([foot, foot + inward]))
        towards = light.direction_at(*world.mean(axis=0))
        if float(np.dot(wn, towards[:2])) >= 0:
            continue  # the lamp shines on this wall's face: its shadow falls behind it
        top = world[2:]
        cast = lighting.cast_shadow(top, 0.0, towards, 0.3)
        cast_outlines.append(np.concatenate([foot, cast]))
    cast_cover = lighting.shadow_map(camera, cast_outlines, light.shadow_blur_mm * 0.5)
    corner = lighting.shadow_map(camera, corner_outlines, CONTACT_MM)
    solid = _solid_mask(camera, board.frame_tops(orientation, shape), case_walls, cast_cover.shape)
    keep = 1.0 - solid
    return (
        np.asarray(cast_cover * keep, np.float32),
        np.asarray(corner * keep, np.float32),
    )


def _solid_mask(
    camera: Camera,
    frame_tops: list[FloatArray],
    case_walls: list[Wall],
    small: tuple[int, ...],
) -> npt.NDArray[np.float32]:
    """Where the frame's top and its walls are seen (1), at the shadow maps' resolution."""
    mask: npt.NDArray[Any] = np.zeros(small, np.uint8)  # bytes: OpenCV antialiases only those
    scale = lighting.SHADOW_SCALE
    for top in frame_tops:
        fill(mask, camera.project_undistorted(top) / scale, 255)
    for wall in case_walls:
        if _faces_camera(wall, camera.position):
            fill(mask, camera.project_undistorted(wall[0]) / scale, 255)
    return np.asarray(mask, np.float32) / np.float32(255)

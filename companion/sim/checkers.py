"""Checkers: where each one stands (from a board in absolute colours) and how to draw it.

A checker is a disc ``geometry.CHECKER_DIAMETER`` across and :data:`THICKNESS` thick. On a
point it lies flat at ``geometry.stack_centres`` (moved in by the field's margins); on the bar
it lies on top of the raised bar; borne off it stands on edge in its tray
(``geometry.tray_slots``), so that only its rim shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim import board, lighting
from companion.sim.camera import Camera
from companion.sim.drawing import blend, fill, pixel_box, shade
from companion.sim.shape import CANONICAL_FIELD, Field
from companion.sim.styles import BGR, CheckerLook, CheckerSet

THICKNESS = 7.0
RADIUS = g.CHECKER_DIAMETER / 2
FloatArray = npt.NDArray[np.float64]
ColourName = Literal["white", "black"]
Place = Literal["point", "bar", "off"]
_CIRCLE = np.linspace(0, 2 * math.pi, 48, endpoint=False)


@dataclass(frozen=True, slots=True)
class CheckerPlacement:
    """One checker in the scene, in canonical millimetres."""

    colour: ColourName
    place: Place
    point: int
    """White's point number 1-24 for checkers on a point, 0 elsewhere."""
    x: float
    y: float
    base: float
    """Height of the checker's underside."""
    layer: int
    on_edge: bool = False
    radius: float = RADIUS
    """A set's checkers may be a little smaller or larger than the standard (``vary``)."""
    variant: int = 0
    """Which of the look's patterns this checker shows (:data:`LOOK_VARIANTS`)."""


JITTER = 1.2
"""Most a hand-placed checker strays sideways from the middle of its point, in mm."""


@lru_cache(maxsize=4096)
def _jitter(seed: int | None, point: int, index: int) -> float:
    """Remembered: every frame of a sequence asks again for the same checkers' strays."""
    if seed is None:
        return 0.0
    return float(np.random.default_rng([seed, point, index]).uniform(-JITTER, JITTER))


def place_checkers(
    points: Sequence[int],
    bar: Mapping[str, int],
    off: Mapping[str, int],
    style: g.StackStyle,
    jitter_seed: int | None = None,
    radius: float = RADIUS,
    unevenness: float = 0.0,
    field: Field = CANONICAL_FIELD,
) -> list[CheckerPlacement]:
    """Every checker of a board (24 signed counts in white's numbering, bar and off), on
    ``field``: each stack on its own point's axis (moved in by the field's margins, see
    :class:`companion.sim.shape.Field`), the bar's checkers on the bar's. The field is passed
    whole, never rebuilt from its drawn margins, which would scale squeezed margins twice.

    With ``jitter_seed``, checkers on points stray a little sideways, as placed by hand; the
    same seed gives the same strays, so a checker keeps its spot from frame to frame.
    ``unevenness`` (0-1, with a seed) makes the strays larger and leaves small gaps along a
    stack, as hurried hands do; ``radius`` sizes every checker.
    """
    placements: list[CheckerPlacement] = []
    shape = field.shape
    for index, value in enumerate(points):
        if value == 0:
            continue
        colour: ColourName = "white" if value > 0 else "black"
        centres = field.stack_centres(index + 1, abs(value), style)
        gaps = _gaps(jitter_seed, index + 1, len(centres), unevenness, style, radius)
        direction = field.point(index + 1).direction
        for slot, (x, y, layer) in enumerate(centres):
            x += _jitter(jitter_seed, index + 1, slot) * (1.0 + 2.0 * unevenness)
            y += direction * gaps[slot]
            placements.append(
                CheckerPlacement(
                    colour,
                    "point",
                    index + 1,
                    x,
                    y,
                    layer * THICKNESS,
                    layer,
                    radius=radius,
                    variant=(7 * index + 3 * slot) % LOOK_VARIANTS,
                )
            )
    for colour in ("white", "black"):
        for slot, (x, y, _) in enumerate(shape.bar_centres(colour, int(bar.get(colour, 0)))):
            placements.append(
                CheckerPlacement(
                    colour,
                    "bar",
                    0,
                    x,
                    y,
                    board.FRAME_HEIGHT,
                    0,
                    radius=radius,
                    variant=(slot + 1) % LOOK_VARIANTS,
                )
            )
        for x0, y0, x1, y1 in shape.tray_slots(colour, int(off.get(colour, 0))):
            placements.append(
                CheckerPlacement(colour, "off", 0, (x0 + x1) / 2, (y0 + y1) / 2, 0.0, 0, True)
            )
    return placements


def _gaps(
    seed: int | None,
    point: int,
    count: int,
    unevenness: float,
    style: g.StackStyle,
    radius: float = RADIUS,
) -> list[float]:
    """How far each checker of a stack sits beyond its neat spot (mm, toward the centre).

    Checkers smaller or larger than the standard still start at the edge and touch along the
    stack. Only stacks that fit in one row get random gaps (a longer line is already squeezed
    to fit the point), and the gaps add up to at most a few millimetres.
    """
    grow = radius - RADIUS
    squeezed = style == "line" and count > 5
    shifts = [grow * (1 if squeezed else 1 + 2 * (slot % 5)) for slot in range(count)]
    if seed is None or unevenness <= 0 or squeezed:
        return shifts
    rng = np.random.default_rng([seed, point, 99])
    steps = rng.uniform(0.0, 1.0 * unevenness, size=min(count, 5))
    row = np.concatenate([[0.0], np.cumsum(steps)[:-1]])
    return [shifts[slot] + float(row[slot % 5]) for slot in range(count)]


def top_height(checker: CheckerPlacement) -> float:
    return checker.base + (g.CHECKER_DIAMETER if checker.on_edge else THICKNESS)


def checker_outline_3d(
    checker: CheckerPlacement, orientation: board.Orientation
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(bottom, top) rims of the checker as (48, 3) world points (x, y, height)."""
    wx, wy = orientation.to_world(checker.x, checker.y)
    if checker.on_edge:
        # standing on edge across the tray: a disc in a vertical plane along world x
        cx = RADIUS * np.cos(_CIRCLE)
        ch = RADIUS * np.sin(_CIRCLE) + RADIUS + checker.base
        half = (g.TRAY_SLOT - 1.0) / 2
        near = np.stack([wx + cx, np.full_like(cx, wy + half), ch], axis=-1)
        far = np.stack([wx + cx, np.full_like(cx, wy - half), ch], axis=-1)
        return far, near
    cx = wx + checker.radius * np.cos(_CIRCLE)
    cy = wy + checker.radius * np.sin(_CIRCLE)
    bottom = np.stack([cx, cy, np.full_like(cx, checker.base)], axis=-1)
    top = np.stack([cx, cy, np.full_like(cx, checker.base + THICKNESS)], axis=-1)
    return bottom, top


SPRITE = 64
"""Side of a checker-face sprite in pixels (it spans the checker's diameter)."""


AZIMUTH_BINS = 12


LOOK_VARIANTS = 4
"""Each checker look comes in this many patterns (marbling, the logo's turn), so that
neighbouring checkers differ as real ones do; a checker's own is fixed by where it stands."""


@lru_cache(maxsize=2048)
def face_sprite(
    face: BGR,
    rim: BGR,
    gloss: float,
    azimuth_bin: int,
    elevation_bin: int,
    look: CheckerLook = "plain",
    variant: int = 0,
    photo: bool = False,
) -> npt.NDArray[np.uint8]:
    """A checker's top face lit from one direction: (SPRITE, SPRITE, 3) colour and alpha.

    The face is modelled as a height field (a bevelled rim, the look's grooves, a slight
    dome), lit by Lambert plus a Blinn highlight, so the rim catches the light on one side and
    falls into shade on the other as on a real turned checker. On it lies the look's pattern
    (:func:`_pattern`: an inlaid band, marbling, a logo) in a second colour made from the face.
    The light is binned (azimuth in twelfths of a turn, elevation in 10-degree steps) so
    sprites are reused. ``photo``: the bevel catches the light all round (a photo look,
    ``Scene.photo``; see :data:`BEVEL_CATCH`). Returns BGRA.
    """
    bevel, groove, shade, sheen, alpha = _relief(look, azimuth_bin, elevation_bin, photo)
    if look == "plain":
        # the very arithmetic every plain checker was drawn with (the committed fixtures; the
        # photo look's bevel catching the light is in ``sheen``)
        albedo = np.asarray(face, np.float32)[None, None, :] * (1 - bevel[..., None] * 0.35)
        albedo += np.asarray(rim, np.float32)[None, None, :] * (bevel[..., None] * 0.35)
        colour = albedo * shade[..., None] + (255 * gloss * sheen)[..., None]
        colour *= (1 - 0.18 * groove)[..., None]
        return np.dstack([np.clip(colour, 0, 255), alpha]).astype(np.uint8)
    own, second, edge, lit = _weights(look, variant, azimuth_bin, elevation_bin, photo)
    other = _second_colour(face, look)
    channels = [
        own * np.float32(face[c]) + second * np.float32(other[c]) + edge * np.float32(rim[c])
        for c in range(3)
    ]
    gleam = lit * np.float32(gloss)
    out = np.empty((SPRITE, SPRITE, 4), np.uint8)
    for c, channel in enumerate(channels):
        out[..., c] = np.clip(channel + gleam, 0, 255)
    out[..., 3] = alpha
    return out


@lru_cache(maxsize=512)
def _weights(
    look: CheckerLook, variant: int, azimuth_bin: int, elevation_bin: int, photo: bool = False
) -> tuple[npt.NDArray[np.float32], ...]:
    """How much of the face colour, the pattern's second colour, the rim colour and the
    lamp's white (per unit of gloss) each pixel of a patterned sprite shows: the colour-free
    part of :func:`face_sprite`, so a sprite of new colours (``vary``) costs a few
    multiplications."""
    bevel, groove, shade, sheen, _ = _relief(look, azimuth_bin, elevation_bin, photo)
    mix = _pattern(look, variant)
    kept = (1 - 0.18 * groove).astype(np.float32)
    lit = shade * kept
    body = (1 - bevel * 0.35) * lit
    weights = (
        (1 - mix) * body,
        mix * body,
        bevel * 0.35 * lit,
        255 * sheen * kept,
    )
    out = tuple(np.asarray(w, np.float32) for w in weights)
    for array in out:
        array.setflags(write=False)
    return out


def _second_colour(face: BGR, look: CheckerLook) -> tuple[float, float, float]:
    """The colour of a look's pattern on a face of ``face``: a grey band on a light checker and
    a silver one on a dark one (rings), pale veins in a dark resin and beige ones in a light
    one (marbled), a dark engraving on a light checker and a gold inlay on a dark one (logo)."""
    b, g_, r = (float(c) for c in face)
    light = 0.114 * b + 0.587 * g_ + 0.299 * r > 110
    if look == "rings":
        return (
            (b * 0.68, g_ * 0.68, r * 0.7)
            if light
            else (b * 0.3 + 150, g_ * 0.3 + 152, r * 0.3 + 155)
        )
    if look == "marbled":
        if light:
            return (b * 0.72, g_ * 0.8, r * 0.86)
        return (b * 0.3 + 165, g_ * 0.3 + 168, r * 0.3 + 172)
    if look == "logo":
        return (
            (b * 0.45, g_ * 0.45, r * 0.47)
            if light
            else (b * 0.2 + 50, g_ * 0.2 + 130, r * 0.2 + 170)
        )
    return (b, g_, r)


Relief = tuple[
    npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]
]

GROOVES: dict[str, tuple[float, ...]] = {
    "plain": (0.66,),
    "rings": (0.42, 0.6, 0.9),
    "marbled": (),
    "logo": (0.4, 0.7),
}
"""Where each look's turned grooves run, as fractions of the radius."""
DOME: dict[str, float] = {"plain": 0.06, "rings": 0.03, "marbled": 0.22, "logo": 0.05}
"""How far (radians at its edge) each look's face domes: polished resin is the roundest."""


BEVEL_CATCH = 0.15
"""How much of the lamp's white (per unit of the set's gloss) a checker's bevel turned toward
the light mirrors in the photo look; turned away from a low lamp it mirrors none."""


@lru_cache(maxsize=AZIMUTH_BINS * 9 * 4 * 2)
def _relief(look: CheckerLook, azimuth_bin: int, elevation_bin: int, photo: bool = False) -> Relief:
    """The colour-free part of :func:`face_sprite` for one look and light: bevel, grooves,
    shading, sheen and alpha. Cached apart, so checkers of many colours (``vary``) cost little.
    ``photo``: the bevel catches the light (:data:`BEVEL_CATCH`)."""
    azimuth = azimuth_bin * 2 * math.pi / AZIMUTH_BINS
    elevation = math.radians(10 * elevation_bin + 5)
    light = np.array(
        [
            math.cos(azimuth) * math.cos(elevation),
            math.sin(azimuth) * math.cos(elevation),
            math.sin(elevation),
        ]
    )
    half_vector = light + np.array([0.0, 0.0, 1.0])
    half_vector /= np.linalg.norm(half_vector)
    coords = (np.arange(SPRITE, dtype=np.float32) + 0.5) / SPRITE * 2 - 1
    xx, yy = np.meshgrid(coords, coords)
    r = np.sqrt(xx * xx + yy * yy) * RADIUS
    phi = np.arctan2(yy, xx)
    # slope (radians) of the surface along the radius at each ring
    slope = np.full_like(r, 0.0)
    slope += np.where(r < RADIUS * 0.62, DOME[look] * r / (RADIUS * 0.62), 0.0)
    if look == "marbled":  # a polished dome right out to the bevel
        slope = DOME[look] * np.clip(r / (RADIUS - 2.2), 0, 1)
    groove = np.zeros_like(r)
    for where in GROOVES[look]:
        ring = np.exp(-(((r - RADIUS * where) / 0.55) ** 2))
        slope += ring * np.sign(r - RADIUS * where) * 0.5
        groove += ring
    bevel = np.clip((r - (RADIUS - 2.2)) / 2.2, 0, 1)
    slope += bevel**1.5 * 1.0
    nx = np.sin(slope) * np.cos(phi)
    ny = np.sin(slope) * np.sin(phi)
    nz = np.cos(slope)
    lambert = np.clip(nx * light[0] + ny * light[1] + nz * light[2], 0, 1)
    facing = np.clip(nx * half_vector[0] + ny * half_vector[1] + nz * half_vector[2], 0, 1)
    spec = facing**60
    shade = 0.55 + 0.5 * lambert / max(light[2], 0.3)
    # a flat face mirrors a broad lamp evenly (a faint sheen); the curved rim and grooves show
    # the lamp as a crisp highlight
    curved = np.clip(bevel + groove, 0, 1)
    sheen = spec * (0.12 + 0.6 * curved)
    if look == "marbled":  # polished resin: the lamp's soft reflection on the dome
        sheen = sheen + 0.35 * facing**25 * (1 - bevel)
    if photo:
        # the bevel catches the light: a turned edge mirrors the bright room all round (a thin
        # light line, never a dark outline) and the lamp broadly on its side; only the side
        # turned from a low lamp falls into shade
        toward = np.cos(phi - azimuth) * math.cos(elevation)
        sheen = sheen + BEVEL_CATCH * bevel * np.clip(0.45 + 0.8 * toward, 0, 1)
    alpha = np.clip((RADIUS - r) / (RADIUS * 2 / SPRITE) + 0.5, 0, 1) * 255
    groove = np.clip(groove, 0, 1)
    for array in (bevel, groove, shade, sheen, alpha):
        array.setflags(write=False)
    return bevel, groove, shade, sheen, alpha


@lru_cache(maxsize=len(GROOVES) * LOOK_VARIANTS)
def _pattern(look: CheckerLook, variant: int) -> npt.NDArray[np.float32]:
    """How much of the look's second colour shows at each pixel of the face, (SPRITE, SPRITE)
    in 0-1: nothing (plain), an inlaid band near the rim (rings), veins and clouds of a second
    resin swirled through the first (marbled), a star in a ring in the middle (logo).
    ``variant`` turns the logo and picks the marbling."""
    coords = (np.arange(SPRITE, dtype=np.float32) + 0.5) / SPRITE * 2 - 1
    xx, yy = np.meshgrid(coords, coords)
    r = np.sqrt(xx * xx + yy * yy)
    mix: npt.NDArray[Any] = np.zeros((SPRITE, SPRITE), np.float32)
    if look == "rings":
        mix = np.clip(1 - np.abs(r - 0.8) / 0.05, 0, 1) ** 0.7
    elif look == "marbled":
        rng = np.random.default_rng([variant, 23])
        coarse = cv2.resize(
            rng.standard_normal((5, 5)).astype(np.float32),
            (SPRITE, SPRITE),
            interpolation=cv2.INTER_CUBIC,
        )
        fine = cv2.resize(
            rng.standard_normal((12, 12)).astype(np.float32),
            (SPRITE, SPRITE),
            interpolation=cv2.INTER_CUBIC,
        )
        angle = float(rng.uniform(0, math.pi))
        along = xx * math.cos(angle) + yy * math.sin(angle)
        swirl = along * 2.2 + 0.9 * coarse + 0.25 * fine
        veins = (1 - np.abs(np.sin(swirl * math.pi))) ** 5
        clouds = np.clip(0.5 + 0.5 * coarse, 0, 1) * 0.35
        mix = np.clip(0.85 * veins + clouds, 0, 0.9)
    elif look == "logo":
        mix = _logo(variant)
    mix = np.asarray(mix, np.float32)
    mix.setflags(write=False)
    return mix


def _logo(variant: int) -> npt.NDArray[np.float32]:
    """A five-pointed star inside a thin ring, turned by ``variant``, antialiased."""
    scale = 4
    big = SPRITE * scale
    canvas = np.zeros((big, big), np.uint8)
    centre = big / 2
    turn = variant * 2 * math.pi / (5 * LOOK_VARIANTS) - math.pi / 2
    star = []
    for k in range(10):
        radius = (0.3 if k % 2 == 0 else 0.13) * centre
        angle = turn + k * math.pi / 5
        star.append((centre + radius * math.cos(angle), centre + radius * math.sin(angle)))
    cv2.fillPoly(canvas, [np.round(np.array(star)).astype(np.int32)], 255)
    cv2.circle(canvas, (round(centre), round(centre)), round(0.36 * centre), 255, round(0.03 * big))
    small = cv2.resize(canvas, (SPRITE, SPRITE), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32) / 255.0


def _sprite_for(
    looks: CheckerSet,
    colour: ColourName,
    light: npt.NDArray[np.float64],
    variant: int = 0,
    photo: bool = False,
) -> npt.NDArray[np.uint8]:
    azimuth = math.atan2(light[1], light[0]) % (2 * math.pi)
    elevation = math.degrees(math.asin(max(-1.0, min(1.0, float(light[2])))))
    face = looks.white if colour == "white" else looks.black
    rim = looks.white_rim if colour == "white" else looks.black_rim
    return face_sprite(
        face,
        rim,
        looks.gloss,
        round(azimuth / (2 * math.pi) * AZIMUTH_BINS) % AZIMUTH_BINS,
        min(8, int(elevation // 10)),
        looks.look,
        variant % LOOK_VARIANTS if looks.look in ("marbled", "logo") else 0,
        photo,
    )


def _paste(
    image: npt.NDArray[np.uint8],
    sprite: npt.NDArray[np.uint8],
    affine: npt.NDArray[np.float64],
    corners: npt.NDArray[np.float64],
) -> None:
    """Warps a sprite by ``affine`` (sprite px -> image px) and blends it by its alpha."""
    height, width = image.shape[:2]
    box = pixel_box(corners, (width, height))
    if box is None:
        return
    x0, y0, x1, y1 = box
    shifted = affine.copy()
    shifted[0, 2] -= x0
    shifted[1, 2] -= y0
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpAffine(sprite, shifted, size, flags=cv2.INTER_LINEAR)
    blend(image[y0:y1, x0:x1], warped[..., :3], cv2.merge([warped[..., 3]] * 3))


def draw_checker(
    image: npt.NDArray[np.uint8],
    camera: Camera,
    checker: CheckerPlacement,
    orientation: board.Orientation,
    looks: CheckerSet,
    light: npt.NDArray[np.float64],
    projected: FloatArray | None = None,
    photo: bool = False,
) -> npt.NDArray[np.float64]:
    """Draws one checker (side band, then its lit face); returns its outline in pixels.

    ``light`` is the unit direction toward the main light (world x, y, height); ``projected``
    is the checker's :func:`key_points` in pixels when the caller projected them in bulk.
    ``photo``: its edge as a photograph shows it (a photo look, ``Scene.photo``): the side lit
    by the room all round and the bevel catching the light, no dark outline.
    """
    face = looks.white if checker.colour == "white" else looks.black
    rim = looks.white_rim if checker.colour == "white" else looks.black_rim
    if projected is None:
        projected = camera.project_undistorted(key_points(checker, orientation))
    rims = projected[: 2 * len(_CIRCLE)]
    pb, pt = rims[: len(_CIRCLE)], rims[len(_CIRCLE) :]
    hull = cv2.convexHull(rims.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    flat = max(0.0, float(np.hypot(light[0], light[1])))
    if checker.on_edge:
        if photo:
            _draw_on_edge(image, hull, pt, pb, face, rim, light)
            return hull
        fill(image, hull, shade(rim, 0.45 + 0.35 * flat))
        # the rim seen from above is the band between the two faces
        fill(image, np.concatenate([pt, pb[::-1]]), shade(rim, 0.9))
        fill(image, pt, shade(face, 0.8))
        return hull
    _draw_side(image, rim, hull, pt, pb, light, flat, PHOTO_SIDE if photo else PLAIN_SIDE)
    dst = projected[2 * len(_CIRCLE) :].astype(np.float32)
    affine = cv2.getAffineTransform(_SPRITE_ANCHORS, dst)
    _paste(
        image,
        _sprite_for(looks, checker.colour, light, checker.variant, photo),
        np.asarray(affine, np.float64),
        pt,
    )
    return hull


class SideTones(NamedTuple):
    """How bright a checker's side band is drawn, as shares of the rim's colour (each tone
    ``base + gain * flat``, ``flat`` how low the lamp stands)."""

    body: tuple[float, float]
    """The whole band, turned from the lamp."""
    lit: tuple[tuple[float, float, float], ...]
    """The steps lit toward the lamp: (least light on the arc, base, gain)."""
    edge: float
    """Its lower edge where it meets the surface under it."""
    shadow: float | None
    """The lower edge again on the side away from the lamp, where its own shadow begins."""


PLAIN_SIDE = SideTones((0.36, 0.12), ((0.0, 0.5, 0.3), (0.7, 0.6, 0.5)), 0.3, None)
"""The side as the default look draws it: a dark outline round the checker."""
CREVICE = 0.4
"""The brightness of the crevice where a checker's side meets what it stands on, in the photo
look (a share of the rim's colour)."""
SIDE_IN_SHADE = 0.55
"""The brightness of a checker's side band turned from the lamp, lit by the room alone, in the
photo look (a share of the rim's colour)."""
PHOTO_SIDE = SideTones((SIDE_IN_SHADE, 0.08), ((0.0, 0.7, 0.25), (0.7, 0.82, 0.35)), CREVICE, 0.35)
"""The side as a photograph shows it: lit by the room all round (a real checker's edge is
light, not a dark outline), a faint crevice where it meets the surface under it (what it
touches keeps the room's light out), dark only on the side away from the lamp."""


EDGE_ROOM = 0.5
"""The light a borne-off checker's rim gets from the room (a share of its colour), in the photo
look; the lamp adds up to :data:`EDGE_LAMP` where the rim faces it squarely."""
EDGE_LAMP = 0.5
EDGE_FACE = (0.6, 0.3)
"""A borne-off checker's face, upright, as a share of its colour: the room's light and up to
this much more from a lamp that shines on it."""


def _draw_on_edge(
    image: npt.NDArray[np.uint8],
    hull: FloatArray,
    pt: FloatArray,
    pb: FloatArray,
    face: BGR,
    rim: BGR,
    light: npt.NDArray[np.float64],
) -> None:
    """A checker standing on edge in its tray as a photograph shows it (the photo look): its rim
    a cylinder lying on its side, lit strip by strip as each turns to the lamp (one flat grey,
    the borne-off checkers had looked like a drawing of a stack of tins), and its face toward
    the camera lit as an upright disc. ``pt``, ``pb``: the near and far faces' rims in
    pixels (see :func:`checker_outline_3d`)."""
    fill(image, hull, shade(rim, EDGE_ROOM * 0.8))
    count = len(_CIRCLE)
    # the rim's upper half, the part the camera sees from above (its normal at angle t is
    # (cos t, 0, sin t) in the world: along x and up)
    facing = np.cos(_CIRCLE) * light[0] + np.sin(_CIRCLE) * light[2]
    # (strips of 7.5 degrees: twice as wide showed as facets)
    for i in range(count):
        j = (i + 1) % count
        if min(math.sin(_CIRCLE[i]), math.sin(_CIRCLE[j])) < -0.2:
            continue  # underneath, out of sight
        lit = EDGE_ROOM + EDGE_LAMP * max(0.0, float(facing[i] + facing[j]) / 2)
        fill(image, np.array([pt[i], pt[j], pb[j], pb[i]]), shade(rim, lit))
    fill(image, pt, shade(face, EDGE_FACE[0] + EDGE_FACE[1] * max(0.0, float(light[1]))))


def _draw_side(
    image: npt.NDArray[np.uint8],
    rim: BGR,
    hull: FloatArray,
    pt: FloatArray,
    pb: FloatArray,
    light: npt.NDArray[np.float64],
    flat: float,
    tones: SideTones,
) -> None:
    """A checker's side band: a cylinder, darker where it turns from the lamp and lit in two
    steps toward it. ``pt``, ``pb``: its top and bottom rims in pixels."""
    fill(image, hull, shade(rim, tones.body[0] + tones.body[1] * flat))
    azimuth = round(math.atan2(light[1], light[0]) / (2 * math.pi) * 96) % 96
    if flat > 0.05:
        for least, base, gain in tones.lit:
            arc = _lit_arc(azimuth, least)
            if len(arc) > 1:
                fill(
                    image, np.concatenate([pt[arc], pb[arc[::-1]]]), shade(rim, base + gain * flat)
                )
    bottom = np.round(pb * 16).astype(np.int32)
    cv2.polylines(image, [bottom], True, shade(rim, tones.edge), 1, cv2.LINE_AA, 4)
    if tones.shadow is not None and flat > 0.05:
        dark = _lit_arc((azimuth + 48) % 96, 0.2)
        if len(dark) > 1:
            cv2.polylines(image, [bottom[dark]], False, shade(rim, tones.shadow), 1, cv2.LINE_AA, 4)


_SPRITE_ANCHORS = (
    np.array([(SPRITE / 2, SPRITE / 2), (SPRITE, SPRITE / 2), (SPRITE / 2, SPRITE)], np.float32)
    - 0.5
)
"""The sprite's centre and two rim points, matched to the face's (see :func:`key_points`)."""


def key_points(checker: CheckerPlacement, orientation: board.Orientation) -> FloatArray:
    """The world points a checker is drawn from: bottom rim, top rim, then the top face's
    centre and its rim points along world x and y (the sprite's anchors), (99, 3)."""
    bottom, top = checker_outline_3d(checker, orientation)
    wx, wy = orientation.to_world(checker.x, checker.y)
    h, r = checker.base + THICKNESS, checker.radius
    anchors = np.array([(wx, wy, h), (wx + r, wy, h), (wx, wy + r, h)])
    return np.concatenate([bottom, top, anchors])


def all_key_points(
    placed: Sequence[CheckerPlacement], orientation: board.Orientation
) -> FloatArray:
    """:func:`key_points` of every checker, (N, 99, 3): projected in one call, they are the
    projection :func:`draw_checker` makes one checker at a time, far cheaper in bulk."""
    if not placed:
        return np.zeros((0, 2 * len(_CIRCLE) + 3, 3))
    return np.stack([key_points(checker, orientation) for checker in placed])


def shadow_outlines(
    placed: Sequence[CheckerPlacement], points: FloatArray, lamp: FloatArray
) -> FloatArray:
    """Every checker's rims cast away from the lamp onto the surface it stands on, (N, 96, 3)
    world points, from their :func:`all_key_points` and the lamp (world x, y, height)."""
    rims = points[:, : 2 * len(_CIRCLE)]
    ground = np.array([checker.base for checker in placed], np.float64)[:, None]
    centres = points[:, 2 * len(_CIRCLE), :2]
    towards = lamp - np.column_stack([centres, np.zeros(len(placed))])
    towards /= np.linalg.norm(towards, axis=1, keepdims=True)
    return lighting.cast_shadow(rims, ground, towards[:, None, :], 0.2)


@lru_cache(maxsize=256)
def _lit_arc(azimuth: int, least: float) -> npt.NDArray[np.intp]:
    """Indices, in order around the rim, of the run of points that face the light (from
    ``azimuth`` 96ths of a turn) by more than ``least`` (the cosine of the angle between)."""
    facing = np.cos(_CIRCLE - azimuth * 2 * math.pi / 96)
    lit = facing > least
    if not lit.any():
        return np.zeros(0, np.intp)
    start = int(np.argmin(facing))  # the darkest point is never in the run
    order = (np.arange(len(facing)) + start) % len(facing)
    run = np.asarray(order[lit[order]], np.intp)
    run.setflags(write=False)  # shared by every caller through the cache
    return run

"""Light and the camera's imperfections: shading, shadows, glare, colour cast, noise, blur, JPEG.

Every effect takes its randomness from the frame's ``numpy.random.Generator``, so a seed fixes
the pixels. The lights are physical enough to agree with the geometry: shadows fall away from
the lamp, and the glare spot sits where the lamp's mirror image would be seen on the board.

The camera is modelled in the order a real one works: light falls off and vignettes, the lens
distorts and softens, the camera sharpens, the sensor adds noise, the tone curve gives the
deep blacks, bright whites and middle contrast of a photo, and JPEG compresses. (A linear,
lifted-black response with heavy grain is what made earlier frames look grey and drawn.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim import board
from companion.sim.camera import Camera
from companion.sim.styles import Lighting

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Surround:
    """The table round a board is lit less the farther it lies from the board: the light a
    player hangs or turns toward the board covers it, and the room beyond gets what spills.
    In a photograph the table fades toward the frame's edges; drawn evenly lit, it looked
    like a backdrop (a photo look: ``Scene.photo``)."""

    board: tuple[float, float, float, float]
    """The board's outline in the world: least x, least y, greatest x, greatest y (mm)."""
    depth: float
    """How much darker the table is far from the board (0-1)."""
    reach_mm: float
    """How far from the board's edge the table has lost about two-thirds of ``depth``."""

    def brightness(self, wx: FloatArray, wy: FloatArray) -> FloatArray:
        """The share of the light left at world points (x, y) on the table: 1 on the board."""
        x0, y0, x1, y1 = self.board
        dx = np.maximum(np.maximum(x0 - wx, wx - x1), 0.0)
        dy = np.maximum(np.maximum(y0 - wy, wy - y1), 0.0)
        away = np.hypot(dx, dy) / self.reach_mm
        return np.asarray(1.0 - self.depth * (1.0 - np.exp(-away * away)))

    def to_json(self) -> dict[str, object]:
        """What a user of a frame's truth needs to know of the table's light: the board's box
        it is measured from, how much darker the table gets far from it, and how fast."""
        return {
            "board_mm": [round(float(v), 1) for v in self.board],
            "depth": round(self.depth, 3),
            "reach_mm": round(self.reach_mm, 1),
        }


def random_surround(
    rng: np.random.Generator, board_outline: tuple[float, float, float, float]
) -> Surround:
    """A table's fall-off round ``board_outline`` (world least x, y, greatest x, y), drawn from
    a generator of its own (the light's other draws stay as they were)."""
    return Surround(board_outline, float(rng.uniform(0.2, 0.45)), float(rng.uniform(150.0, 320.0)))


@dataclass(frozen=True)
class Light:
    """One frame's light: a lamp position (world x, y, height) and how the camera responds."""

    kind: Lighting
    lamp: FloatArray
    exposure: float
    falloff: float
    """0 for an even light; up to 1 for a lamp whose brightness falls off across the board."""
    warmth: float
    """Colour cast toward orange (positive) or blue (negative), about -0.1..0.15."""
    cast: tuple[float, float, float]
    """Per-channel (B, G, R) gains of a slightly wrong white balance."""
    shadow_strength: float
    shadow_blur_mm: float
    glare: float
    noise: float
    """Standard deviation of sensor noise in grey levels."""
    blur: float
    """Gaussian defocus sigma in pixels."""
    vignette: float
    punch: float = 0.25
    """Middle contrast the camera's tone curve adds (see :func:`tone_curve`): a property of the
    camera's settings, so it stays the same for every frame of a sequence."""
    aim: tuple[float, float] | None = None
    """Where a shaded lamp points (world x, y), or ``None`` for a light with no shade. A desk
    lamp's shade throws a pool of light there that fades toward the board's far corners
    (:data:`POOL_DEPTH`, :data:`POOL_RADIUS_MM`), beyond the plain fall-off with distance."""
    surround: Surround | None = None
    """How the light falls off over the table around the board (``None``: it does not)."""

    def direction_at(self, x: float, y: float, height: float = 0.0) -> FloatArray:
        """Unit vector (world) from a point toward the lamp."""
        d = self.lamp - np.array([x, y, height])
        return np.asarray(d / np.linalg.norm(d))

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "lamp_mm": [round(float(v), 1) for v in self.lamp],
            "exposure": round(self.exposure, 3),
            "warmth": round(self.warmth, 3),
            "cast": [round(c, 3) for c in self.cast],
            "glare": round(self.glare, 3),
            "noise": round(self.noise, 2),
            "blur": round(self.blur, 2),
            "punch": round(self.punch, 3),
            # the photo looks' light only (a default frame's truth stays as it was)
            **({} if self.aim is None else {"pool": self._pool_json(self.aim)}),
            **({} if self.surround is None else {"surround": self.surround.to_json()}),
        }

    @staticmethod
    def _pool_json(aim: tuple[float, float]) -> dict[str, object]:
        """A shaded lamp's pool of light: where it points and how it fades (see
        :func:`gain_field`)."""
        return {
            "aim_mm": [round(aim[0], 1), round(aim[1], 1)],
            "depth": POOL_DEPTH,
            "radius_mm": POOL_RADIUS_MM,
        }


def make_light(
    kind: Lighting,
    rng: np.random.Generator,
    centre: tuple[float, float] = (board.CENTRE_X, board.CENTRE_Y),
    shaded: bool = False,
) -> Light:
    """A random light of the given kind, hung around ``centre`` (world x, y): the middle of
    the board actually drawn (:func:`companion.sim.board.centre_x`), so the lamp's falloff
    and the glare spot follow a board of any proportions. The draws do not depend on
    ``centre``: a seed gives the same light around any board.

    ``shaded`` makes a ``lamp`` a real desk lamp: a shade throwing a pool of light on the
    board's middle, and one small bulb's dark, hard-edged shadows (the same draws, read into
    other ranges, so every other choice of the seed stays)."""
    angle = rng.uniform(0, 2 * math.pi)
    cx, cy = centre
    cast = (
        float(rng.uniform(0.95, 1.05)),
        float(rng.uniform(0.97, 1.03)),
        float(rng.uniform(0.95, 1.05)),
    )
    if kind == "even":
        distance = rng.uniform(0, 300)
        return Light(
            kind,
            np.array([cx + distance * math.cos(angle), cy + distance * math.sin(angle), 1800.0]),
            exposure=float(rng.uniform(0.95, 1.08)),
            falloff=0.1,
            warmth=float(rng.uniform(-0.03, 0.04)),
            cast=cast,
            shadow_strength=float(rng.uniform(0.18, 0.3)),
            shadow_blur_mm=9.0,
            glare=0.0,
            noise=float(rng.uniform(0.8, 1.8)),
            blur=float(rng.uniform(0.3, 0.8)),
            vignette=float(rng.uniform(0.05, 0.15)),
            punch=float(rng.uniform(0.15, 0.3)),
        )
    if kind == "lamp":
        distance = rng.uniform(350, 650)
        return Light(
            kind,
            np.array([cx + distance * math.cos(angle), cy + distance * math.sin(angle), 650.0]),
            exposure=float(rng.uniform(0.95, 1.1)),
            falloff=float(rng.uniform(0.5, 0.9)),
            warmth=float(rng.uniform(0.06, 0.14)),
            cast=cast,
            # one small bulb: dark shadows with hard edges (its penumbra is a millimetre or so)
            shadow_strength=float(rng.uniform(0.48, 0.62) if shaded else rng.uniform(0.35, 0.5)),
            shadow_blur_mm=LAMP_SHADOW_BLUR_MM if shaded else 4.0,
            glare=0.0,
            noise=float(rng.uniform(1.0, 2.2)),
            blur=float(rng.uniform(0.3, 0.9)),
            vignette=float(rng.uniform(0.1, 0.25)),
            punch=float(rng.uniform(0.15, 0.3)),
            aim=(float(cx), float(cy)) if shaded else None,
        )
    if kind == "dim":
        distance = rng.uniform(100, 500)
        return Light(
            kind,
            np.array([cx + distance * math.cos(angle), cy + distance * math.sin(angle), 1200.0]),
            exposure=float(rng.uniform(0.42, 0.6)),
            falloff=0.4,
            warmth=float(rng.uniform(0.02, 0.1)),
            cast=cast,
            shadow_strength=float(rng.uniform(0.2, 0.35)),
            shadow_blur_mm=7.0,
            glare=0.0,
            noise=float(rng.uniform(3.0, 5.5)),
            blur=float(rng.uniform(0.6, 1.2)),
            vignette=float(rng.uniform(0.2, 0.35)),
            punch=float(rng.uniform(0.15, 0.3)),
        )
    distance = rng.uniform(150, 320)
    return Light(
        kind,
        np.array([cx + distance * math.cos(angle), cy + distance * math.sin(angle), 900.0]),
        exposure=float(rng.uniform(0.95, 1.05)),
        falloff=0.3,
        warmth=float(rng.uniform(-0.02, 0.06)),
        cast=cast,
        shadow_strength=float(rng.uniform(0.3, 0.45)),
        shadow_blur_mm=5.0,
        glare=float(rng.uniform(0.6, 1.0)),
        noise=float(rng.uniform(1.0, 2.2)),
        blur=float(rng.uniform(0.3, 0.8)),
        vignette=float(rng.uniform(0.05, 0.15)),
        punch=float(rng.uniform(0.15, 0.3)),
    )


LAMP_SHADOW_BLUR_MM = 1.2
"""How soft a desk lamp's shadows are (mm): a bulb a few centimetres across, well over half a
metre up, leaves a penumbra of about a millimetre at a die's or checker's height. (Soft
shadows everywhere were what most gave lamp-lit frames away as renders.)"""
POOL_DEPTH = 0.3
"""How much darker than the middle of a lamp's pool the table is far outside it."""
POOL_RADIUS_MM = 420.0
"""The radius (mm, on the table) of a shaded lamp's pool of light."""

GAIN_UNIT = 128.0
"""Gains are stored as bytes, ``128`` meaning 1.0, so they apply in one saturating multiply."""


def gain_field(light: Light, camera: Camera) -> Image:
    """Per-pixel brightness (H, W, 3) from the lamp's falloff, vignetting, warmth and exposure.

    Bytes in units of 1/128 (see :data:`GAIN_UNIT`): up to twice the light the scene was drawn in.
    """
    width, height = camera.size
    small_w, small_h = 64, 36
    us = (np.arange(small_w) + 0.5) * width / small_w
    vs = (np.arange(small_h) + 0.5) * height / small_h
    uu, vv = np.meshgrid(us, vs)
    # where each pixel's ray meets the table plane (height 0): invert the plane homography
    inverse = np.linalg.inv(camera.plane_homography(0.0))
    rays = np.stack([uu, vv, np.ones_like(uu)], axis=-1) @ inverse.T
    wx = rays[..., 0] / rays[..., 2]
    wy = rays[..., 1] / rays[..., 2]
    dx, dy, dz = light.lamp[0] - wx, light.lamp[1] - wy, light.lamp[2]
    r2 = dx * dx + dy * dy + dz * dz
    irradiance = dz / np.sqrt(r2) / r2
    irradiance = irradiance / irradiance.max()
    brightness = (1 - light.falloff) + light.falloff * irradiance**0.7
    if light.aim is not None:
        # the shade's pool: full light where the lamp points, fading smoothly outside it
        off2 = ((wx - light.aim[0]) ** 2 + (wy - light.aim[1]) ** 2) / POOL_RADIUS_MM**2
        brightness = brightness * (1 - POOL_DEPTH + POOL_DEPTH * np.exp(-off2))
    if light.surround is not None:
        brightness = brightness * light.surround.brightness(wx, wy)
    radius2 = ((uu - width / 2) / (width / 2)) ** 2 + ((vv - height / 2) / (height / 2)) ** 2
    brightness = brightness * (1 - light.vignette * radius2 / 2)
    gains = (
        np.stack(
            [
                brightness * light.cast[0] * (1 - light.warmth),
                brightness * light.cast[1] * (1 + light.warmth * 0.1),
                brightness * light.cast[2] * (1 + light.warmth * 0.8),
            ],
            axis=-1,
        )
        * light.exposure
    )
    small = np.clip(np.round(gains * GAIN_UNIT), 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR))


def glare_spot(
    light: Light, camera: Camera, rng: np.random.Generator
) -> npt.NDArray[np.float32] | None:
    """Glare strength (H, W, 0-1) where the lamp's reflection on the glossy board meets the eye.

    Applied as a screen blend toward the lamp's white: colours wash out rather than glow.
    """
    if light.glare <= 0:
        return None
    cam = camera.position
    lamp = light.lamp
    # mirror point on the plane: where the straight line lamp-mirror -> camera crosses height 0
    t = lamp[2] / (lamp[2] + cam[2])
    spot = lamp[:2] + (cam[:2] - lamp[:2]) * t
    centre = camera.project_undistorted(np.array([spot[0], spot[1], 0.0]))
    width, height = camera.size
    small = 4
    sw, sh = width // small, height // small
    uu, vv = np.meshgrid(np.arange(sw) * small, np.arange(sh) * small)
    radius = float(rng.uniform(0.05, 0.11)) * width
    aspect = float(rng.uniform(0.6, 1.0))
    d2 = ((uu - centre[0]) / radius) ** 2 + ((vv - centre[1]) / (radius * aspect)) ** 2
    core = np.exp(-d2 * 1.6) * 0.75 + np.exp(-d2 * 0.3) * 0.25
    field = (light.glare * 0.8 * core).astype(np.float32)
    return np.asarray(cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR))


def add_sensor_noise(image: npt.NDArray[Any], grain: tuple[Image, Image], sigma: float) -> Image:
    """Adds sensor noise of deviation about ``sigma`` grey levels, stronger in the shadows.

    A camera's 8-bit output shows more noise in dark and middle tones than in bright ones:
    the sensor's read noise and the tone curve's steep toe lift it in the shadows, and near
    white the curve flattens it. ``grain`` is the noise's positive and negative parts (bytes
    ``|16 N|``, see :func:`sensor_noise`); a lookup table turns each pixel's brightness into
    its noise strength, and the parts are added and subtracted with saturation (only one of
    them is non-zero at a pixel).
    """
    levels = np.arange(256, dtype=np.float64) / 255
    strength = (1.3 - 0.75 * levels**1.5) * (sigma / NOISE_UNIT) * NOISE_GAIN_UNIT
    table = np.clip(np.round(strength), 0, 255).astype(np.uint8)
    strength_bytes = cv2.LUT(image, table)
    rise, fall = grain
    lifted = cv2.add(image, cv2.multiply(rise, strength_bytes, scale=1 / NOISE_GAIN_UNIT))
    return np.asarray(
        cv2.subtract(lifted, cv2.multiply(fall, strength_bytes, scale=1 / NOISE_GAIN_UNIT)),
        np.uint8,
    )


NOISE_GAIN_UNIT = 64.0
"""Noise strengths are bytes, ``64`` meaning 1.0 (up to about four times the base noise)."""
NOISE_MARGIN = 96
NOISE_UNIT = 16.0
"""The noise slab stores ``16 * N(0, 1)`` (its positive and negative parts) as bytes."""


@lru_cache(maxsize=2)
def _noise_bank(width: int, height: int) -> tuple[Image, Image]:
    """A fixed slab of sensor-like noise; frames take random windows of it (fast, seeded).

    A real sensor's noise, once demosaiced and denoised by the camera, is not independent per
    pixel and channel: grains span a pixel or two, and most of it is in brightness with a
    weaker, blotchier colour part. So the slab mixes a luma grain (shared by the channels,
    slightly blurred) with a coarser chroma grain, scaled back to unit deviation. Returned as
    its positive and negative parts.
    """
    rng = np.random.default_rng(20240531)
    shape = (height + NOISE_MARGIN, width + NOISE_MARGIN)
    luma: npt.NDArray[Any] = rng.standard_normal(shape, dtype=np.float32)
    luma = cv2.GaussianBlur(luma, (0, 0), 0.6)
    luma = luma / float(luma.std())
    chroma: npt.NDArray[Any] = rng.standard_normal((*shape, 3), dtype=np.float32)
    chroma = cv2.GaussianBlur(chroma, (0, 0), 1.3)
    chroma = chroma / float(chroma.std())
    noise: npt.NDArray[Any] = 0.85 * luma[..., None] + 0.5 * chroma
    noise = np.round(noise / float(noise.std()) * NOISE_UNIT)
    rise = np.clip(noise, 0, 255).astype(np.uint8)
    fall = np.clip(-noise, 0, 255).astype(np.uint8)
    return rise, fall


def sensor_noise(shape: tuple[int, int], rng: np.random.Generator) -> tuple[Image, Image]:
    """(H, W, 3) noise bytes: the positive and negative parts of ``16 N(0, 1)``; which window
    of the slab is chosen by ``rng``."""
    height, width = shape
    rise, fall = _noise_bank(width, height)
    dy, dx = int(rng.integers(0, NOISE_MARGIN)), int(rng.integers(0, NOISE_MARGIN))
    return rise[dy : dy + height, dx : dx + width], fall[dy : dy + height, dx : dx + width]


@lru_cache(maxsize=64)
def tone_curve(punch_percent: int) -> Image:
    """A camera's S-shaped tone curve as a 256-entry lookup table.

    ``x - a sin(2 pi x) / 2 pi``: black and white stay put, middle tones get ``1 + a`` times
    the contrast and the ends roll off with slope ``1 - a``, so shadows deepen and highlights
    brighten without clipping hard. Phone cameras and webcams all deliver such a curve; a flat
    linear response is what makes a render look grey and computer-drawn.
    """
    a = punch_percent / 100
    x = np.arange(256, dtype=np.float64) / 255
    y = x - a * np.sin(2 * math.pi * x) / (2 * math.pi)
    return np.clip(np.round(y * 255), 0, 255).astype(np.uint8)


@lru_cache(maxsize=64)
def optics_kernel(blur_percent: int, sharpen_percent: int) -> npt.NDArray[np.float32]:
    """One axis of the lens's softness followed by the camera's sharpening (5 taps).

    A real frame is slightly defocused by the lens and then sharpened by the camera, which
    leaves crisp edges with faint light and dark fringes (halos). Both are linear filters, so
    they fold into one kernel; applied along each axis it costs no more than the blur alone.
    """
    taps = np.arange(-4, 5, dtype=np.float64)
    sigma = max(blur_percent / 100, 0.05)
    lens = np.exp(-0.5 * (taps / sigma) ** 2)
    lens /= lens.sum()
    surround = np.exp(-0.5 * (taps / 0.7) ** 2)
    surround /= surround.sum()
    amount = sharpen_percent / 100
    unsharp = -amount * surround
    unsharp[4] += 1 + amount
    kernel = np.convolve(lens, unsharp)[6:11]
    return np.asarray(kernel / kernel.sum(), np.float32).reshape(-1, 1)


def finish(
    image: Image,
    light: Light,
    camera: Camera,
    rng: np.random.Generator,
    jpeg_quality: int | None,
    noise_scale: float = 1.0,
    above: npt.NDArray[np.uint8] | None = None,
) -> Image:
    """Applies light, glare, lens distortion and softness, the camera's sharpening, sensor
    noise, its tone curve and JPEG, in the order a camera does. ``above`` (H, W, 0-255, the
    undistorted picture's) is what stands between the board and the camera (a hand): the
    glare is the lamp mirrored in the board's gloss, so it never lies on a hand over it."""
    out: npt.NDArray[Any] = cv2.multiply(image, gain_field(light, camera), scale=1 / GAIN_UNIT)
    glare = glare_spot(light, camera, rng)
    if glare is not None:
        # a screen blend toward the lamp's white: colours wash out rather than glow
        weight = np.clip(glare, 0, 0.92).astype(np.float32)
        if above is not None:
            # matte skin and cloth over the board hide the reflection (under glare, hands
            # had looked washed out, as no photograph shows them)
            weight = weight * (np.float32(1.0) - above.astype(np.float32) / np.float32(255))
        white = np.full_like(out, 250)
        out = cv2.blendLinear(white, out, weight, np.float32(1.0) - weight)
    if camera.distorted:
        fixed, fraction = camera.fast_distortion_maps()
        out = cv2.remap(out, fixed, fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # sharpening fades as the lens softens: a camera cannot restore what defocus took
    sharpen = max(0.0, 0.25 - 0.25 * light.blur)
    kernel = optics_kernel(round(light.blur * 100), round(sharpen * 100))
    out = cv2.sepFilter2D(out, -1, kernel, kernel, borderType=cv2.BORDER_REPLICATE)
    sigma = light.noise * noise_scale
    if sigma > 0:
        out = add_sensor_noise(out, sensor_noise(image.shape[:2], rng), sigma)
    # the camera's tone curve, with more middle contrast than the scene (applied last, after
    # the noise, as in a camera); it also makes colours a little more saturated
    out = cv2.LUT(out, tone_curve(round(light.punch * 100)))
    if jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    return np.asarray(out, dtype=np.uint8)


def cast_shadow(
    points: FloatArray,
    ground: float | FloatArray,
    direction: FloatArray,
    least_height: float,
) -> FloatArray:
    """``points`` (..., 3, world) cast away from the lamp along ``direction`` onto ``ground``.

    ``direction`` points toward the lamp (one vector, or one per leading row of ``points`` with
    room to broadcast, e.g. (N, 1, 3) for (N, K, 3) points). Its height is held at least
    ``least_height`` so a low lamp casts a long shadow rather than an endless one.
    """
    lift = points[..., 2] - ground
    reach = direction[..., :2] / np.maximum(direction[..., 2:], least_height)
    cast = points.copy()
    cast[..., :2] -= reach * lift[..., None]
    cast[..., 2] = ground
    return cast


SHADOW_SCALE = 4
"""Shadows are drawn at 1/4 of the frame's resolution: they are soft, so nothing is lost."""


def shadow_map(
    camera: Camera,
    outlines: list[FloatArray],
    blur_mm: float,
    keep_out: FloatArray | None = None,
) -> npt.NDArray[np.float32]:
    """Soft shadow coverage (0-1, at 1/4 resolution) cast by convex ``outlines`` (world 3D).

    ``keep_out`` (pixel polygon) is a surface the shadow does not fall on, e.g. the board's top
    for the shadow the board casts on the table.
    """
    width, height = camera.size
    small: npt.NDArray[Any] = np.zeros((height // SHADOW_SCALE, width // SHADOW_SCALE), np.float32)
    px_per_mm = camera.focal / max(float(camera.position[2]), 1.0)
    hulls = []
    for outline in outlines:
        pts = camera.project_undistorted(outline) / SHADOW_SCALE
        hull = cv2.convexHull(pts.astype(np.float32))
        cv2.fillConvexPoly(small, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        hulls.append(hull.reshape(-1, 2))
    blur = max(0.6, blur_mm * px_per_mm / SHADOW_SCALE)
    if hulls:
        # blur only around the shadows: beyond three deviations the blur adds nothing
        every = np.concatenate(hulls)
        reach = math.ceil(3 * blur) + 2
        rows, cols = small.shape
        x0, y0 = (max(int(v) - reach, 0) for v in np.floor(every.min(axis=0)))
        x1 = min(int(np.ceil(every[:, 0].max())) + reach, cols)
        y1 = min(int(np.ceil(every[:, 1].max())) + reach, rows)
        if x1 > x0 and y1 > y0:
            box = small[y0:y1, x0:x1]
            box[:] = cv2.GaussianBlur(box, (0, 0), blur, borderType=cv2.BORDER_CONSTANT)
    np.minimum(small, 1.0, out=small)
    if keep_out is not None:
        pts = np.round(keep_out / SHADOW_SCALE * 16).astype(np.int32)
        cv2.fillPoly(small, [pts], 0.0, cv2.LINE_AA, 4)
    return np.asarray(small, dtype=np.float32)


def darken(image: Image, camera: Camera, maps: list[tuple[npt.NDArray[np.float32], float]]) -> None:
    """Darkens ``image`` in place by shadow maps (coverage, strength), only where they fall."""
    factor = np.ones_like(maps[0][0])
    for coverage, strength in maps:
        factor *= 1.0 - strength * coverage
    rows = np.flatnonzero(factor.min(axis=1) < 0.996)
    cols = np.flatnonzero(factor.min(axis=0) < 0.996)
    if not len(rows):
        return
    height, width = image.shape[:2]
    r0, r1 = max(int(rows[0]) - 1, 0), min(int(rows[-1]) + 2, factor.shape[0])
    c0, c1 = max(int(cols[0]) - 1, 0), min(int(cols[-1]) + 2, factor.shape[1])
    y0, y1 = r0 * SHADOW_SCALE, min(r1 * SHADOW_SCALE, height)
    x0, x1 = c0 * SHADOW_SCALE, min(c1 * SHADOW_SCALE, width)
    small = np.round(factor[r0:r1, c0:c1] * 255).astype(np.uint8)
    full = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    roi = image[y0:y1, x0:x1]
    cv2.multiply(roi, cv2.merge([full, full, full]), dst=roi, scale=1 / 255)

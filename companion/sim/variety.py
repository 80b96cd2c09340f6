"""Appearance variety: each frame's board, checkers, table and light jittered around its style.

Vision accuracy measured on a handful of exact palettes says little about boards never seen, so
a scene with ``vary=True`` draws a :class:`Variation` from its light seed (one look for a whole
recorded game, a new look for every frame of an evaluation set):

* the board's colours through a random colour matrix near the identity (so the field, the
  points and the frame shift in hue, saturation and brightness, each differently);
* the table: a colour from the kinds of tables boards stand on (wood, cloth, laminate), on a
  random material (felt, woven cloth, wood, plain);
* the checkers: colours, rims and gloss jittered around the set, their size a few per cent
  larger or smaller, and stacks set down less evenly (sideways strays and small gaps);
* the light: colour temperature from cold daylight to a warm bulb, a stronger white-balance
  error, and exposure.

Nothing here changes the truth: counts, dice and geometry are as the scene says. The draws are
recorded in the truth (``variation``) so a failing frame can be reproduced and explained.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim import board
from companion.sim.checkers import RADIUS
from companion.sim.lighting import Light
from companion.sim.styles import BGR, CheckerSet, Surface

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

TABLE_COLOURS: tuple[BGR, ...] = (
    (40, 70, 110),  # oak
    (30, 45, 70),  # walnut
    (120, 80, 40),  # blue cloth
    (70, 110, 60),  # green cloth
    (150, 150, 150),  # grey laminate
    (225, 228, 230),  # white laminate
    (35, 35, 38),  # black
    (60, 60, 140),  # red cloth
)
TABLE_SURFACES: tuple[Surface, ...] = ("felt", "plain", "wood", "leather")
PATTERN_VARIANTS = 3
COLOUR_STEP = 6
"""Jittered checker colours are rounded to this step, so their lit sprites can be cached."""


@dataclass(frozen=True)
class Variation:
    """One frame's departures from its style (see the module docstring)."""

    board_matrix: npt.NDArray[np.float32]
    """3x4 colour transform (BGR in, BGR out, plus offset) for the board and its case."""
    table: BGR
    table_surface: Surface
    table_variant: int
    looks: CheckerSet
    radius: float
    unevenness: float
    """0 (neatly stacked) to 1 (set down in a hurry): how far checkers stray."""
    warmth: float
    cast: tuple[float, float, float]
    exposure: float

    def board_colour(self, colour: tuple[float, ...] | BGR) -> FloatArray:
        """``colour`` as the varied board shows it (for the parts drawn as flat polygons)."""
        bgr = np.asarray(colour, np.float64)[:3]
        out = self.board_matrix[:, :3].astype(np.float64) @ bgr + self.board_matrix[:, 3]
        return np.asarray(np.clip(out, 0, 255))

    def board_texture(self, texture: Image) -> Image:
        return np.asarray(cv2.transform(texture, self.board_matrix), dtype=np.uint8)

    def table_image(self, size: tuple[int, int], photo: bool = False) -> Image:
        """The table filling a frame of ``size``; ``photo``: as a photograph shows it (a wooden
        one in planks, see :func:`board.table_pattern`)."""
        pattern = board.table_pattern(self.table_surface, size, self.table_variant, photo)
        gains = np.array([[c / 128.0] for c in self.table], np.float32)
        return np.asarray(cv2.transform(pattern, gains), dtype=np.uint8)

    def relight(self, light: Light) -> Light:
        cast = tuple(a * b for a, b in zip(light.cast, self.cast, strict=True))
        return replace(
            light,
            warmth=self.warmth,
            cast=(cast[0], cast[1], cast[2]),
            exposure=light.exposure * self.exposure,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "board_matrix": [[round(float(v), 3) for v in row] for row in self.board_matrix],
            "table": list(self.table),
            "table_surface": self.table_surface,
            "checkers": {
                "white": list(self.looks.white),
                "black": list(self.looks.black),
                "gloss": self.looks.gloss,
            },
            "checker_diameter_mm": round(2 * self.radius, 2),
            "unevenness": round(self.unevenness, 3),
            "warmth": round(self.warmth, 3),
        }


def _jitter_colour(rng: np.random.Generator, colour: BGR, spread: float) -> BGR:
    scale = float(rng.uniform(0.88, 1.06))
    out = np.asarray(colour, np.float64) * scale + rng.normal(0, spread, 3)
    stepped = np.round(np.clip(out, 0, 255) / COLOUR_STEP) * COLOUR_STEP
    b, g, r = (int(min(v, 255)) for v in stepped)
    return (b, g, r)


def _follow(rim: BGR, face: BGR, new_face: BGR) -> BGR:
    """The rim keeps its relation to the face it belongs to."""
    out = []
    for r, f, n in zip(rim, face, new_face, strict=True):
        value = n * (r + 1) / (f + 1)
        out.append(int(min(255, round(value / COLOUR_STEP) * COLOUR_STEP)))
    return (out[0], out[1], out[2])


def draw_variation(rng: np.random.Generator, looks: CheckerSet) -> Variation:
    """A random departure from a style and a checker set."""
    gains = rng.uniform(0.86, 1.14, 3)
    matrix = np.diag(gains) + rng.normal(0, 0.045, (3, 3))
    matrix *= float(rng.uniform(0.88, 1.08))
    offset = rng.uniform(-12, 12, 3)
    board_matrix = np.column_stack([matrix, offset]).astype(np.float32)
    table = TABLE_COLOURS[int(rng.integers(0, len(TABLE_COLOURS)))]
    table_bgr = _jitter_colour(rng, table, 10.0)
    white = _jitter_colour(rng, looks.white, 8.0)
    black = _jitter_colour(rng, looks.black, 8.0)
    varied_looks = replace(
        looks,
        white=white,
        black=black,
        white_rim=_follow(looks.white_rim, looks.white, white),
        black_rim=_follow(looks.black_rim, looks.black, black),
        gloss=round(float(np.clip(looks.gloss + rng.uniform(-0.3, 0.2), 0.2, 1.0)), 1),
    )
    return Variation(
        board_matrix=board_matrix,
        table=table_bgr,
        table_surface=TABLE_SURFACES[int(rng.integers(0, len(TABLE_SURFACES)))],
        table_variant=int(rng.integers(0, PATTERN_VARIANTS)),
        looks=varied_looks,
        radius=RADIUS * float(rng.uniform(0.9, 1.02)),
        unevenness=float(rng.uniform(0.3, 1.0)),
        warmth=float(rng.uniform(-0.12, 0.2)),
        cast=(
            float(rng.uniform(0.92, 1.08)),
            float(rng.uniform(0.96, 1.04)),
            float(rng.uniform(0.92, 1.08)),
        ),
        exposure=float(rng.uniform(0.88, 1.12)),
    )

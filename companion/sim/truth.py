"""The ground truth of a frame, in the Reading JSON of ``DESIGN.md`` plus what made the frame.

Everything here is derived from the same placements the renderer draws (checker placements,
die poses, the camera), so the truth and the pixels cannot disagree.

A frame's truth holds:

* ``readable`` (false when a hand covers any part of the playing area, bar or trays),
  ``points``, ``bar``, ``off``: the Reading;
* ``dice``: per die ``value`` (``None`` while rolling), ``flat``, ``half`` (``half_of`` the
  die's resting spot), ``center_px`` (its centre projected), ``cocked_angle``, ``on_checker``,
  ``leaning_on`` (``"checker"``, ``"frame"`` or ``None``), ``moving``, ``center_mm`` (canonical
  x, y and height of the centre), ``hidden`` (the share of its outline in the frame a hand
  covers, 0.0 with no hand over it);
* ``on_roll``, ``dice_valid`` and ``reason`` when the roller is known (``opening_roll`` when
  the dice are the opening roll, one per player);
* ``board_corners_px``: the image positions of the playing area's corners (0, 0), (W, 0),
  (W, H), (0, H), lens distortion included (``W`` is the shape's width);
  ``board_shape``: the board's proportions (:meth:`companion.geometry.BoardShape.to_json`:
  bar and point widths, each half's ends in mm, and where they lie on the plane of the
  corners, as calibration's ``Layout`` measures them); ``orientation``: the image quadrant of
  each quarter of the board and whether the setup is mirrored;
* ``camera``, ``style``, ``lighting``, ``jpeg_quality``, ``occluders`` (hand outlines in
  pixels), ``cube`` (value, owner, ``center_px``) and ``seed``. With the photo looks
  (``Scene.photo``) ``lighting`` also holds ``surround``, how the table's light falls off away
  from the board (``board_mm``: the board's world box it is measured from; ``depth``: how much
  darker the table is far away, 0-1; ``reach_mm``: how far from the board's edge about
  two-thirds of that is lost), and, under a shaded lamp, ``pool``, the pool of light its shade
  throws (``aim_mm``: the world point it is aimed at; ``depth``, ``radius_mm``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.sim import board, dice
from companion.sim.camera import Camera
from companion.sim.drawing import fill

QUADRANT_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


def board_corners_px(camera: Camera, orientation: board.Orientation) -> list[list[float]]:
    """Image positions of the playing area's corners (0,0), (W,0), (W,H), (0,H), ``W`` the
    width of the board's shape (the canonical ``geometry.PLAY_WIDTH`` unless shaped)."""
    width = orientation.shape.width
    corners = [(0.0, 0.0), (width, 0.0), (width, g.PLAY_HEIGHT), (0.0, g.PLAY_HEIGHT)]
    world = np.array([(*orientation.to_world(x, y), 0.0) for x, y in corners])
    return [[round(float(u), 2), round(float(v), 2)] for u, v in camera.project(world)]


def _quadrant_of(camera: Camera, orientation: board.Orientation, x: float, y: float) -> str:
    centre = camera.project(
        np.array([[*orientation.to_world(orientation.shape.width / 2, g.PLAY_HEIGHT / 2), 0.0]])
    )[0]
    spot = camera.project(np.array([[*orientation.to_world(x, y), 0.0]]))[0]
    vertical = "bottom" if spot[1] > centre[1] else "top"
    horizontal = "right" if spot[0] > centre[0] else "left"
    return f"{vertical}-{horizontal}"


def quadrants(camera: Camera, orientation: board.Orientation) -> dict[str, object]:
    """Which image quadrant shows each quarter of the board, as the camera actually sees it."""
    shape = orientation.shape
    quarter_x = {half: shape.middle(half) for half in ("home", "outer")}
    quarter_y = {"white": g.PLAY_HEIGHT * 0.75, "black": g.PLAY_HEIGHT * 0.25}
    seen = {
        _quadrant_of(camera, orientation, quarter_x[half], quarter_y[colour]): f"{colour} {half}"
        for colour in ("white", "black")
        for half in ("home", "outer")
    }
    return {
        "white_home": next(q for q, name in seen.items() if name == "white home"),
        "mirrored": orientation.mirrored,
        "quadrants": {q: seen.get(q, "") for q in QUADRANT_NAMES},
    }


def hidden_share(
    pose: dice.DiePose,
    camera: Camera,
    orientation: board.Orientation,
    hand_mask: npt.NDArray[np.uint8] | None,
) -> float:
    """The share (0-1, two decimals) of the die's outline in the frame (its top and the sides
    the camera sees) that the hand, arm or sleeve covers: a benchmark counts the values of the
    dice in view, and a die mostly under a hand is not. ``hand_mask`` is the frame's (lens
    distortion included), ``None`` when nothing is over the board. A die outside the frame
    counts by the part inside it."""
    if hand_mask is None:
        return 0.0
    outline = camera.project(dice.outline_world(pose, orientation))
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    height, width = hand_mask.shape
    x0, y0 = np.floor(hull.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(hull.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    die = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fill(die, hull.astype(np.float64) - (x0, y0), 255)
    inside = die > 0
    area = int(np.count_nonzero(inside))
    if not area:
        return 0.0
    covered = int(np.count_nonzero(inside & (hand_mask[y0:y1, x0:x1] > 127)))
    return round(covered / area, 2)


def die_truth(
    pose: dice.DiePose,
    camera: Camera,
    orientation: board.Orientation,
    moving: bool = False,
    hand_mask: npt.NDArray[np.uint8] | None = None,
) -> dict[str, object]:
    """One die as the Reading JSON writes it, plus how it rests and how much a hand hides
    (``hidden``, see :func:`hidden_share`; ``hand_mask`` is the frame's hand, if any)."""
    world = (*orientation.to_world(pose.x, pose.y), pose.height)
    centre_px = camera.project(np.array([world]))[0]
    # the resting spot judged by half_of is the centre of the die's footprint on the table
    foot = pose.footprint().mean(axis=0)
    return {
        "value": None if moving else pose.value,
        "flat": False if moving else pose.flat,
        "half": orientation.shape.half_of(float(foot[0]), float(foot[1])),
        "center_px": [round(float(centre_px[0]), 2), round(float(centre_px[1]), 2)],
        "cocked_angle": round(pose.tilt, 2),
        "on_checker": pose.rest == "on_checker",
        "leaning_on": pose.support,
        "moving": moving,
        "center_mm": [round(pose.x, 2), round(pose.y, 2), round(pose.height, 2)],
        "hidden": hidden_share(pose, camera, orientation, hand_mask),
    }


def dice_validity(
    dice_truths: Sequence[Mapping[str, object]], roller: str, mirrored: bool
) -> tuple[bool, str | None]:
    """Whether the roll counts (the traditional rule: a die on a checker is cocked), and why not.

    Reasons use the words of the vision issue: "only one die", "cocked", "off the board",
    "on the bar", "wrong side"; plus "dice moving" while they still roll.
    """
    if any(d.get("moving") for d in dice_truths):
        return False, "dice moving"
    if len(dice_truths) != 2:
        return False, "only one die" if len(dice_truths) == 1 else "no dice"
    if any(not d["flat"] or d["on_checker"] for d in dice_truths):
        return False, "cocked"
    if any(d["half"] == "outside" for d in dice_truths):
        return False, "off the board"
    if any(d["half"] == "bar" for d in dice_truths):
        return False, "on the bar"
    right = g.right_hand_half("white" if roller == "white" else "black", mirrored)
    if any(d["half"] != right for d in dice_truths):
        return False, "wrong side"
    return True, None


def opening_validity(
    dice_truths: Sequence[Mapping[str, object]], mirrored: bool
) -> tuple[bool, str | None]:
    """The opening roll: white's die (first) and black's (second) each in its own right half."""
    if any(d.get("moving") for d in dice_truths):
        return False, "dice moving"
    if len(dice_truths) != 2:
        return False, "only one die"
    for die, roller in zip(dice_truths, ("white", "black"), strict=True):
        valid, reason = dice_validity([die, die], roller, mirrored)
        if not valid:
            return False, reason
    return True, None


def is_settled(truth: Mapping[str, Any]) -> bool:
    """A frame a referee judges: nothing over the board and no die still rolling."""
    return bool(
        truth["readable"]
        and not truth["occluders"]
        and not any(die.get("moving") for die in truth["dice"])
    )

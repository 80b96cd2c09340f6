"""The calibration profile: what one camera over one board has learned, as a small JSON file.

A profile holds the image size it was made for, the playing area's corners in that image, the
homography from the image to the canonical plane (:mod:`companion.geometry`, white at the
bottom), the orientation (``white_home``, ``mirrored``) and the colours learned from the
calibration frame (CIE L*a*b*, OpenCV's 0-255 scaling): both checker colours, the field and the
two point colours of the empty board, and the dice when they were on the board.

The file is versioned (``version``) and meant to be read by a person; loading checks every
field and says what is wrong and what to do (usually: calibrate again).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from companion.errors import CompanionError
from companion.vision.plane import (
    CANONICAL_LAYOUT,
    WHITE_HOMES,
    Corners,
    Layout,
    Matrix,
    WhiteHome,
    homography,
    is_mirrored,
)

PROFILE_FORMAT = "backgammon-companion calibration profile"
PROFILE_VERSION = 1
VIEW_SCALE = 1.0
"""Pixels per millimetre of the plane view the readers work on (and of the reference)."""
Lab = tuple[float, float, float]


class ProfileError(CompanionError, ValueError):
    """A profile file that is missing, malformed, of another version, or for another camera."""


class ProfileFileError(CompanionError, OSError):
    """A profile that cannot be read or written (missing file, permissions)."""


@dataclass(frozen=True, slots=True)
class Colours:
    """Colours learned at calibration, in L*a*b* (0-255 each, as OpenCV scales them)."""

    white: Lab
    black: Lab
    field: Lab
    point_a: Lab
    """Colour of the odd-numbered points (white's numbering)."""
    point_b: Lab
    """Colour of the even-numbered points."""
    dice: tuple[Lab, ...] = ()
    """Body colours of the dice seen at calibration (none when no dice were on the board)."""

    def to_json(self) -> dict[str, object]:
        def rounded(lab: Lab) -> list[float]:
            return [round(v, 1) for v in lab]

        return {
            "white": rounded(self.white),
            "black": rounded(self.black),
            "field": rounded(self.field),
            "point_a": rounded(self.point_a),
            "point_b": rounded(self.point_b),
            "dice": [rounded(d) for d in self.dice],
        }

    @classmethod
    def from_json(cls, data: object) -> Colours:
        if not isinstance(data, Mapping):
            raise ProfileError("profile: 'colours' must be an object; calibrate again")
        dice = data.get("dice", [])
        if not isinstance(dice, Sequence):
            raise ProfileError("profile: 'colours.dice' must be a list of L*a*b* triples")
        return cls(
            white=_lab(data.get("white"), "white"),
            black=_lab(data.get("black"), "black"),
            field=_lab(data.get("field"), "field"),
            point_a=_lab(data.get("point_a"), "point_a"),
            point_b=_lab(data.get("point_b"), "point_b"),
            dice=tuple(_lab(d, "dice") for d in dice),
        )


@dataclass(frozen=True, slots=True)
class Profile:
    """One camera over one board; pure data (loading and saving are the functions below)."""

    image_size: tuple[int, int]
    """``(width, height)`` of the frames this profile was made for."""
    corners_px: Corners
    """Playing-area corners clockwise from the top-left as the image shows them."""
    white_home: WhiteHome
    colours: Colours
    source: str = ""
    """Where the calibration frame came from (a file name or ``camera:0``), for people."""
    notes: tuple[str, ...] = field(default=())
    """What calibration noticed (e.g. "corners given by the user")."""
    reference: str = field(default="", repr=False)
    """The empty board on the plane view at ``VIEW_SCALE``, as base64 JPEG (last in the file)."""
    bar_hidden: bool = False
    """Checkers lay on the bar of the calibration frame, so its empty look was never seen: the
    bar is read as unsure (it would otherwise read empty, surely, with checkers on it)."""
    layout: Layout = CANONICAL_LAYOUT
    """Where this board's halves lie on the plane of its corners (real boards are not all
    proportioned like the canonical one); the plane view is warped onto the canonical board."""

    @property
    def mirrored(self) -> bool:
        return is_mirrored(self.white_home)

    @property
    def image_to_plane(self) -> Matrix:
        return homography(self.corners_px, self.white_home)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROFILE_FORMAT,
            "version": PROFILE_VERSION,
            "image_size": list(self.image_size),
            "corners_px": [[round(x, 2), round(y, 2)] for x, y in self.corners_px],
            "white_home": self.white_home,
            "mirrored": self.mirrored,
            "homography": [[float(f"{v:.8g}") for v in row] for row in self.image_to_plane],
            "colours": self.colours.to_json(),
            "source": self.source,
            "notes": list(self.notes),
            "bar_hidden": self.bar_hidden,
            "halves_mm": {
                "outer": [round(x, 1) for x in self.layout.outer],
                "home": [round(x, 1) for x in self.layout.home],
                "edge": round(self.layout.edge, 1),
            },
            "view_scale": VIEW_SCALE,
            "reference_image_base64": self.reference,
        }

    @classmethod
    def from_json(cls, data: object) -> Profile:
        """Checks every field; raises :class:`ProfileError` saying what is wrong."""
        if not isinstance(data, Mapping) or data.get("format") != PROFILE_FORMAT:
            raise ProfileError(
                "this is not a calibration profile (no 'format' line); make one with "
                "'companion calibrate IMAGE -o PROFILE'"
            )
        version = data.get("version")
        if version != PROFILE_VERSION:
            raise ProfileError(
                f"profile version {version!r} is not supported (this program reads version "
                f"{PROFILE_VERSION}); calibrate again with 'companion calibrate'"
            )
        size = data.get("image_size")
        if (
            not isinstance(size, Sequence)
            or len(size) != 2
            or not all(isinstance(v, int) and v > 0 for v in size)
        ):
            raise ProfileError("profile: 'image_size' must be [width, height]; calibrate again")
        corners = data.get("corners_px")
        if not isinstance(corners, Sequence) or len(corners) != 4:
            raise ProfileError("profile: 'corners_px' must list four [x, y] corners")
        try:
            corner_tuple = tuple((float(c[0]), float(c[1])) for c in corners)
        except (TypeError, ValueError, IndexError) as error:
            raise ProfileError("profile: 'corners_px' must list four [x, y] corners") from error
        white_home = data.get("white_home")
        if white_home not in WHITE_HOMES:
            raise ProfileError(f"profile: 'white_home' must be one of {', '.join(WHITE_HOMES)}")
        notes = data.get("notes", [])
        if data.get("view_scale") != VIEW_SCALE:
            raise ProfileError(
                f"profile: 'view_scale' must be {VIEW_SCALE}; calibrate again with this version"
            )
        bar_hidden = data.get("bar_hidden", False)
        if not isinstance(bar_hidden, bool):
            raise ProfileError("profile: 'bar_hidden' must be true or false; calibrate again")
        layout = _layout(data.get("halves_mm"))
        reference = data.get("reference_image_base64")
        if not isinstance(reference, str) or not reference:
            raise ProfileError("profile: the empty-board reference is missing; calibrate again")
        profile = cls(
            image_size=(int(size[0]), int(size[1])),
            corners_px=corner_tuple,
            white_home=cast(WhiteHome, white_home),
            colours=Colours.from_json(data.get("colours")),
            source=str(data.get("source", "")),
            notes=tuple(str(n) for n in notes) if isinstance(notes, Sequence) else (),
            reference=reference,
            bar_hidden=bar_hidden,
            layout=layout,
        )
        if not np.all(np.isfinite(profile.image_to_plane)):
            raise ProfileError("profile: the corners do not make a board; calibrate again")
        return profile

    def check_frame(self, width: int, height: int) -> None:
        """Raises :class:`ProfileError` when a frame comes from another camera or size."""
        if (width, height) != self.image_size:
            raise ProfileError(
                f"the frame is {width}x{height} but the profile was made for "
                f"{self.image_size[0]}x{self.image_size[1]} frames (another camera or size); "
                "calibrate this camera with 'companion calibrate'"
            )


def load_profile(path: str | os.PathLike[str]) -> Profile:
    """Reads a profile file; :class:`ProfileFileError` or :class:`ProfileError` when it fails."""
    location = Path(path)
    try:
        text = location.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ProfileFileError(
            f"no profile at {location}; make one with 'companion calibrate IMAGE -o {location}'"
        ) from error
    except OSError as error:
        raise ProfileFileError(
            f"cannot read the profile {location}: {error.strerror}; name the .json file that "
            "'companion calibrate' wrote"
        ) from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(
            f"{location} is not JSON (line {error.lineno}): calibrate again"
        ) from error
    return Profile.from_json(data)


def save_profile(profile: Profile, path: str | os.PathLike[str]) -> None:
    """Writes the profile as indented JSON (creating the folder), atomically."""
    location = Path(path)
    try:
        location.parent.mkdir(parents=True, exist_ok=True)
        temporary = location.with_name(location.name + ".tmp")
        temporary.write_text(json.dumps(profile.to_json(), indent=2) + "\n", encoding="utf-8")
        temporary.replace(location)
    except OSError as error:
        raise ProfileFileError(
            f"cannot write the profile {location}: {error.strerror}; choose a path in a folder "
            "you can write to with -o FILE"
        ) from error


def _lab(value: object, name: str) -> Lab:
    if (
        not isinstance(value, Sequence)
        or len(value) != 3
        or not all(isinstance(v, int | float) and 0 <= v <= 255 for v in value)
    ):
        raise ProfileError(f"profile: colour {name!r} must be an L*a*b* triple in 0-255")
    return (float(value[0]), float(value[1]), float(value[2]))


def _layout(value: object) -> Layout:
    """The halves' ends and the strip along the frame's long sides (absent in profiles made
    before boards were measured: canonical; the strip absent in those made before it was)."""
    if value is None:
        return CANONICAL_LAYOUT
    problem = (
        "profile: 'halves_mm' must give the ends of the outer and the home half in mm, left "
        "to right, each half 200-300 mm long; calibrate again"
    )
    if not isinstance(value, Mapping):
        raise ProfileError(problem)
    ends = [value.get("outer"), value.get("home")]
    if not all(
        isinstance(pair, Sequence)
        and len(pair) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in pair)
        for pair in ends
    ):
        raise ProfileError(problem)
    (a, b), (c, d) = (cast(Sequence[float], pair) for pair in ends)
    if not (a < b < c < d and 200.0 <= b - a <= 300.0 and 200.0 <= d - c <= 300.0):
        raise ProfileError(problem)
    edge = value.get("edge", 0.0)
    if isinstance(edge, bool) or not isinstance(edge, int | float) or not 0.0 <= edge <= 30.0:
        raise ProfileError(
            "profile: 'halves_mm' 'edge' must be the strip between the frame and the points' "
            "bases in mm (0-30); calibrate again"
        )
    return Layout(outer=(float(a), float(b)), home=(float(c), float(d)), edge=float(edge))

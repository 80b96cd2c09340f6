"""The Reading: what the camera saw in one frame, in the JSON of ``DESIGN.md``.

Conventions: ``points[i]`` is white's point ``i + 1`` (``+n`` white checkers, ``-n`` black), bar
and off count each colour. Every region carries a confidence in 0-1; when any region falls
below the threshold the whole reading is ``readable = False`` and ``unreadable`` names the
regions to blame, so a caller can tell the players what to move out of the way. The referee and
the simulator's truth files use the same JSON keys, so a Reading round-trips through
:meth:`Reading.to_json` and :meth:`Reading.from_json`.

>>> reading = Reading.empty_unreadable(("board not found",))
>>> Reading.from_json(reading.to_json()) == reading
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from companion.errors import InvalidFormat
from companion.geometry import Half

Colour = Literal["white", "black"]
HALVES: tuple[Half, ...] = ("home", "outer", "bar", "outside")
DICE_REASONS = ("cocked", "wrong side", "on the bar", "off the board", "only one die")
"""Why a roll is not valid, in the words of the rule book (most important first)."""


@dataclass(frozen=True, slots=True)
class Counts:
    """Checkers of each colour in one place (the bar or the trays)."""

    white: int = 0
    black: int = 0

    def to_json(self) -> dict[str, int]:
        return {"white": self.white, "black": self.black}

    @classmethod
    def from_json(cls, data: object, name: str) -> Counts:
        if not isinstance(data, Mapping):
            raise InvalidFormat(f"reading: {name!r} must be {{'white': n, 'black': n}}")
        return cls(
            _count(data.get("white", 0), f"{name}.white"),
            _count(data.get("black", 0), f"{name}.black"),
        )


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die as seen: its top face, whether it rests flat, and where.

    ``center_px`` is the centre of the top face in the camera image; ``half`` is judged on the
    board plane; ``on_checker`` marks a die resting on top of a checker (cocked by default).
    """

    value: int
    flat: bool
    half: Half
    center_px: tuple[float, float]
    confidence: float = 1.0
    on_checker: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "flat": self.flat,
            "half": self.half,
            "center_px": [round(self.center_px[0], 1), round(self.center_px[1], 1)],
            "confidence": round(self.confidence, 3),
            "on_checker": self.on_checker,
        }

    @classmethod
    def from_json(cls, data: object) -> DieReading:
        if not isinstance(data, Mapping):
            raise InvalidFormat("reading: each die must be an object with value, flat, half")
        value = _count(data.get("value"), "die value")
        if not 1 <= value <= 6:
            raise InvalidFormat(f"reading: a die shows {value}; dice show 1-6")
        half = data.get("half", "outside")
        if half not in HALVES:
            raise InvalidFormat(f"reading: die half {half!r} is not one of {', '.join(HALVES)}")
        centre = data.get("center_px", (0.0, 0.0))
        if not isinstance(centre, Sequence) or len(centre) != 2:
            raise InvalidFormat("reading: a die's center_px must be [x, y]")
        return cls(
            value=value,
            flat=bool(data.get("flat", True)),
            half=cast(Half, half),
            center_px=(float(centre[0]), float(centre[1])),
            confidence=float(data.get("confidence", 1.0)),
            on_checker=bool(data.get("on_checker", False)),
        )


@dataclass(frozen=True, slots=True)
class Reading:
    """Everything read from one frame; ``readable`` is False whenever any region is unsure."""

    readable: bool
    points: tuple[int, ...] = (0,) * 24
    bar: Counts = Counts()
    off: Counts = Counts()
    dice: tuple[DieReading, ...] = ()
    dice_valid: bool | None = None
    dice_reason: str | None = None
    """Why the roll does not stand (JSON key ``reason``, as in the simulator's truth)."""
    unreadable: tuple[str, ...] = ()
    """Names of the regions that could not be read (``"point 13"``, ``"board not found"``)."""
    confidence: Mapping[str, float] = field(default_factory=dict, compare=False, hash=False)
    """Confidence of each region: ``"point 1"`` .. ``"point 24"``, ``"bar"``, ``"off"``,
    ``"dice"``."""

    @classmethod
    def empty_unreadable(cls, regions: Sequence[str]) -> Reading:
        """A reading that says only what could not be seen."""
        return cls(readable=False, unreadable=tuple(regions))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "readable": self.readable,
            "points": list(self.points),
            "bar": self.bar.to_json(),
            "off": self.off.to_json(),
            "dice": [die.to_json() for die in self.dice],
        }
        if self.dice_valid is not None:
            data["dice_valid"] = self.dice_valid
            if self.dice_reason:
                data["reason"] = self.dice_reason
        data["unreadable"] = list(self.unreadable)
        data["confidence"] = {name: round(value, 3) for name, value in self.confidence.items()}
        return data

    @classmethod
    def from_json(cls, data: object) -> Reading:
        """Parses a Reading (or a simulator truth file: extra keys are ignored).

        Raises :class:`~companion.errors.InvalidFormat` naming the first key that is wrong.
        """
        if not isinstance(data, Mapping):
            raise InvalidFormat("reading: expected a JSON object")
        points = data.get("points", [0] * 24)
        if not isinstance(points, Sequence) or len(points) != 24:
            raise InvalidFormat("reading: 'points' must list 24 signed counts (white's numbering)")
        dice = data.get("dice", [])
        if not isinstance(dice, Sequence):
            raise InvalidFormat("reading: 'dice' must be a list")
        valid = data.get("dice_valid")
        confidence = data.get("confidence", {})
        unreadable = data.get("unreadable", [])
        return cls(
            readable=bool(data.get("readable", True)),
            points=tuple(_signed(p, f"point {i + 1}") for i, p in enumerate(points)),
            bar=Counts.from_json(data.get("bar", {}), "bar"),
            off=Counts.from_json(data.get("off", {}), "off"),
            dice=tuple(DieReading.from_json(die) for die in dice),
            dice_valid=None if valid is None else bool(valid),
            dice_reason=cast("str | None", data.get("reason", data.get("dice_reason"))),
            unreadable=tuple(str(r) for r in unreadable)
            if isinstance(unreadable, Sequence)
            else (),
            confidence=(
                {str(k): float(v) for k, v in confidence.items()}
                if isinstance(confidence, Mapping)
                else {}
            ),
        )

    def board_equals(self, other: Reading) -> bool:
        """Same checkers everywhere (points, bar and off), whatever the dice."""
        return (self.points, self.bar, self.off) == (other.points, other.bar, other.off)


def judge_dice(
    dice: Sequence[DieReading], roller: Colour, right_half: Half
) -> tuple[bool, str | None]:
    """Whether a roll stands: both dice flat in ``right_half``; else the rule-book reason.

    ``right_half`` is the roller's right-hand side (:func:`companion.geometry.right_hand_half`).
    A die on a checker counts as cocked (the traditional rule).
    """
    del roller  # the half already encodes the roller's seat
    if len(dice) < 2:
        return False, "only one die"
    reasons = []
    for die in dice:
        if not die.flat or die.on_checker:
            reasons.append("cocked")
        elif die.half == "bar":
            reasons.append("on the bar")
        elif die.half == "outside":
            reasons.append("off the board")
        elif die.half != right_half:
            reasons.append("wrong side")
    if not reasons:
        return True, None
    return False, min(reasons, key=DICE_REASONS.index)


def _count(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidFormat(f"reading: {name} must be a whole number >= 0, got {value!r}")
    return value


def _signed(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -15 <= value <= 15:
        raise InvalidFormat(f"reading: {name} must be a signed count -15..15, got {value!r}")
    return value

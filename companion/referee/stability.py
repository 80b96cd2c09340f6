"""The stability window: a board counts only once it has been read the same for a while.

A camera sees hands, half-moved checkers and dice still rolling. The referee must judge only
what the players have finished doing, so every reading passes through :class:`StabilityFilter`
first: frames with ``readable = False`` (a hand over the board, a glare) are ignored outright,
and a state is reported once, when it has been read identically over at least ``frames``
consecutive readable frames *and* ``seconds`` of time. "Identically" means the same checkers
everywhere and the same dice (value, flat or not, which half, on a checker or not); a die's
pixel position is left out, so the jitter of a resting die does not restart the window.

Frames unreadable only because of the dice (an awkward die, two dice touching, one die hidden)
are ignored too, but they are not nothing: :class:`DiceDoubt` notices when the camera has been
unsure of the dice alone, over a still board, for a while, so that the referee can ask the
players to set the dice where the camera can read them instead of waiting in silence.

>>> from companion.vision.reading import Reading
>>> still = StabilityFilter(frames=3, seconds=0.2)
>>> board = Reading(readable=True)
>>> [still.feed(board, t) is not None for t in (0.0, 0.1, 0.2, 0.3)]
[False, False, True, False]
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError
from companion.vision.reading import Reading

StateKey = tuple[object, ...]


class InvalidSettings(CompanionError, ValueError):
    """A referee setting out of range (a negative window, a non-positive frame count)."""


DiceKey = tuple[tuple[int, bool, str, bool], ...]
"""The dice as the filter compares them: (value, flat, half, on a checker), sorted."""


def dice_key(reading: Reading) -> DiceKey:
    """The dice of a reading without their pixel positions (which jitter while at rest)."""
    return tuple(sorted((d.value, d.flat, str(d.half), d.on_checker) for d in reading.dice))


def state_key(reading: Reading) -> StateKey:
    """What must stay the same for a reading to count as stable (pixels of the dice excluded)."""
    return (reading.points, reading.bar, reading.off, dice_key(reading))


def unsure_of_dice_only(reading: Reading) -> bool:
    """Whether the camera read everything but the dice: each region it names as unreadable is
    the dice's (``"the dice"``, ``"the dice (only one die seen)"``, ...). A die still rolling
    (``"dice rolling"``) or a hand over the board is not this."""
    return (
        not reading.readable
        and bool(reading.unreadable)
        and all(name.startswith("the dice") for name in reading.unreadable)
    )


@dataclass
class StabilityFilter:
    """Reports each new stable state once; see the module docstring for the rule.

    ``frames`` counts readable frames in a row showing the same state; ``seconds`` is the least
    time between the first and the last of them. Both must be met.
    """

    frames: int = 3
    seconds: float = 0.25

    def __post_init__(self) -> None:
        if self.frames < 1:
            raise InvalidSettings(f"the stability window needs at least 1 frame, not {self.frames}")
        if self.seconds < 0:
            raise InvalidSettings(f"the stability window cannot be negative ({self.seconds} s)")
        self._candidate: StateKey | None = None
        self._since = 0.0
        self._count = 0
        self._stable: StateKey | None = None

    def feed(self, reading: Reading, now: float) -> Reading | None:
        """The reading when its state has just become stable, else ``None``."""
        if not reading.readable:
            return None
        key = state_key(reading)
        if key != self._candidate:
            self._candidate, self._since, self._count = key, now, 0
        self._count += 1
        if key == self._stable:
            return None
        if self._count >= self.frames and now - self._since >= self.seconds:
            self._stable = key
            return reading
        return None

    @property
    def settling(self) -> bool:
        """True while a changed state is being watched but is not yet stable."""
        return self._candidate is not None and self._candidate != self._stable

    def reset(self) -> None:
        """Forgets the stable state, so that the next stable reading is reported again."""
        self._candidate = None
        self._stable = None
        self._count = 0


@dataclass
class DiceDoubt:
    """Reports once when the camera has been unsure of the dice alone for a while.

    A doubt counts once ``frames`` frames in a row have been unreadable only because of the
    dice (:func:`unsure_of_dice_only`), over the same board, for at least ``seconds``; any
    other frame (a clear one, a hand) starts the count again. It is reported once, and again
    only after the camera has read ``frames`` clear frames in a row: a die the camera keeps
    failing on is not announced over and over.
    """

    frames: int = 3
    seconds: float = 1.0

    def __post_init__(self) -> None:
        StabilityFilter(self.frames, self.seconds)  # the same limits as the window
        self._last: Reading | None = None
        self._since = 0.0
        self._count = 0
        self._clear = 0
        self._told = False

    def feed(self, reading: Reading, now: float) -> Reading | None:
        """The reading when the doubt has just lasted long enough, else ``None``."""
        if not unsure_of_dice_only(reading):
            self._last = None
            if reading.readable:
                self._clear += 1
                if self._clear >= self.frames:
                    self._told = False
            return None
        self._clear = 0
        if self._last is None or not reading.board_equals(self._last):
            self._since, self._count = now, 0
        self._last = reading
        self._count += 1
        if self._told or self._count < self.frames or now - self._since < self.seconds:
            return None
        self._told = True
        return reading

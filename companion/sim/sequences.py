"""A whole game as a camera over the table records it: frames, their truth, and the turn events.

One camera, board, light and cube spot for the whole game (chosen from the seed); the cube
starts in the centre. Each turn is a short script of frames:

1. before rolling, now and then, the player on roll **doubles** (when the cube is theirs to
   turn): the opponent first picks up their dice (a hand over them, then the board without
   them, held still), the doubler's hand turns the cube, and the opponent either **takes** (their
   hand carries the cube to their edge of the table) or **drops** and the game ends;
2. the dice tumbling into the roller's right-hand half (motion-blurred, ``moving`` in the truth);
3. the dice settled, held still for ``stable_frames`` frames (what a referee's stability window
   needs); now and then a die comes to rest **cocked** (leaning on a checker or the frame) or
   lands in the roller's **left-hand half**: the roll is void, it is held still just as long,
   the roller's hand picks the dice up and they are rolled again;
4. the roller's hand reaching over the checkers, lifting them (the board without the lifted
   checkers) and placing them: all unreadable;
5. the settled board after the play, dice still lying where they fell (``stable_frames``).

The game begins with the opening roll: each player rolls one die into their own right-hand
half; ties roll again; the higher die moves first with both dice where they lie. Plays are
chosen at random among the legal plays (``companion.rules.moves.generate_plays``). Everything
comes from the seed.

Events are JSON-ready dicts with the ``frame`` where they become visible (a button's event is on
the frame when the button is pressed; a driver sends its ``control`` before feeding that frame),
in the shapes of :mod:`companion.sim.demo`'s events:

* ``opening_roll``: ``white``, ``black``;
* ``reroll``: ``colour``, ``dice`` (as they lie), ``reason`` (``"cocked"`` or ``"wrong side"``),
  ``die`` (1 or 2, in the order of the truth's ``dice``);
* ``roll``: ``colour``, ``dice``;
* ``play``: ``colour``, ``dice``, ``play`` (GNU notation), ``position_id`` (after the play, from
  the mover's side); ``no_play``: ``colour``, ``dice``;
* ``pickup``: ``colour``, ``play`` (the dice are picked up before the opponent doubles);
* ``double``: ``colour`` (the doubler), ``cube`` (the value offered), ``control`` (``"double"``);
* ``take``: ``colour`` (the taker), ``cube``, ``control`` (``"take"``);
* ``drop``: ``colour`` (the player who drops), ``control`` (``"drop"``);
* ``game_end``: ``winner``, ``points`` (cube included), ``result`` (``"single"``, ``"gammon"``,
  ``"backgammon"`` or ``"drop"``).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from companion import geometry as g
from companion.rules import position_id
from companion.rules.match import CubeState, game_result
from companion.rules.moves import LegalPlay, generate_plays
from companion.rules.position import Colour, Position
from companion.sim import checkers as checker_model
from companion.sim import occluders
from companion.sim.cube import CubeSpec, place_cube
from companion.sim.layout import GAP, DieSpec, ImpossibleScene, place_dice
from companion.sim.scene import Checkers, Frame, InvalidScene, Scene, random_scene, render
from companion.sim.shape import (
    CANONICAL_FIELD,
    CANONICAL_SHAPE,
    NO_MARGINS,
    BoardShape,
    Field,
)
from companion.sim.styles import board_style

DEFAULT_TURNS = 4
STABLE_FRAMES = 3
"""Frames each settled state is held by default: long enough for a referee's window."""
REROLL_CHANCE = 0.12
"""How often a roll comes to rest void (cocked, or a die in the roller's left-hand half)."""
COCKED_SHARE = 0.6
"""Of the void rolls, the share with a cocked die (the rest land on the wrong side)."""
DOUBLE_CHANCE = 0.12
"""How often the player on roll doubles, when the cube is theirs to turn."""
FIRST_DOUBLE_TURN = 3
"""No one doubles in the first turns after the opening roll (the game has barely begun)."""
TAKE_CHANCE = 0.75
"""How often a double is taken (else it is dropped and the game ends)."""
HIGHEST_DOUBLE = 8
"""Random games turn the cube no higher than this."""


@dataclass(frozen=True)
class GameFrame:
    """One frame of a recorded game, with the events first visible in it."""

    index: int
    frame: Frame
    events: tuple[dict[str, object], ...]


def _board_of(position: Position, on_roll: Colour) -> Checkers:
    absolute = position.to_absolute(on_roll)
    return Checkers(absolute.points, dict(absolute.bar), dict(absolute.off))


def _side(colour: Colour) -> Literal["white", "black"]:
    return "white" if colour is Colour.WHITE else "black"


def _lifted(before: Checkers, after: Checkers, mover: str) -> Checkers:
    """The board while the mover holds the checkers being moved: the mover's checkers that
    stay, and the opponent's as they are after the play (a hit checker is already on the bar)."""
    sign = 1 if mover == "white" else -1
    points = []
    for was, now in zip(before.points, after.points, strict=True):
        mine_before = max(was * sign, 0)
        mine_after = max(now * sign, 0)
        if mine_before or mine_after:
            points.append(sign * min(mine_before, mine_after))
        else:
            points.append(now)
    bar = dict(after.bar)
    bar[mover] = min(before.bar[mover], after.bar[mover])
    off = dict(after.off)
    off[mover] = min(before.off[mover], after.off[mover])
    return Checkers(tuple(points), bar, off)


def _changed_spots(
    before: Checkers, after: Checkers, mover: str, board: BoardShape = CANONICAL_SHAPE
) -> list[tuple[float, float]]:
    """Spots (on ``board``'s plane) where the mover's checkers left or arrived (for the hand
    to reach)."""
    sign = 1 if mover == "white" else -1
    spots = []
    for index, (was, now) in enumerate(zip(before.points, after.points, strict=True)):
        if max(was * sign, 0) != max(now * sign, 0):
            shape = board.point(index + 1)
            spots.append((shape.base_x, (shape.base_y + shape.tip_y) / 2))
    if before.bar[mover] != after.bar[mover]:
        spots.append((board.middle("bar"), g.PLAY_HEIGHT / 2))
    if before.off[mover] != after.off[mover]:
        x0, y0, x1, y1 = board.tray_rect("white" if mover == "white" else "black")
        spots.append(((x0 + x1) / 2, (y0 + y1) / 2))
    return spots or [(board.width / 2, g.PLAY_HEIGHT / 2)]


def _hand_at(rng: np.random.Generator, spot: tuple[float, float], mover: str) -> occluders.Hand:
    """The mover's hand reaching from their seat to a spot where checkers leave or land."""
    seat_y = g.PLAY_HEIGHT + 500.0 if mover == "white" else -500.0
    template = occluders.random_hand(rng, True)
    x = spot[0] + float(rng.uniform(-10, 10))
    y = spot[1] + float(rng.uniform(-10, 10))
    return replace(
        template,
        x=x,
        y=y,
        from_x=x + float(rng.uniform(-200, 200)),
        from_y=seat_y,
        height=float(rng.uniform(40, 70)),
    )


class _Recorder:
    def __init__(self, base: Scene, seed: int) -> None:
        self.base = base
        self.seed = seed
        self.count = 0
        self.pending: list[dict[str, object]] = []

    def event(self, **fields: object) -> None:
        self.pending.append(dict(fields))

    def shoot(self, **changes: object) -> GameFrame:
        scene = replace(self.base, seed=self.seed * 10_000 + self.count, **changes)  # type: ignore[arg-type]
        frame = render(scene)
        events = tuple({"frame": self.count, **e} for e in self.pending)
        self.pending = []
        result = GameFrame(self.count, frame, events)
        self.count += 1
        return result


def cube_spot(base: Scene, seed: int, spec: CubeSpec | None = None) -> tuple[float, float]:
    """Where ``render`` places the cube of ``base`` (or ``spec`` in its stead), canonical mm:
    the spot a hand reaches for to turn or take it."""
    pose = place_cube(
        spec or base.cube or CubeSpec(),
        np.random.default_rng([base.cube_seed if base.cube_seed is not None else seed, 5]),
        base.shape,
    )
    return pose.x, pose.y


def _settled_dice(
    rng: np.random.Generator,
    values: list[int],
    boards: list[Checkers],
    where: Sequence[str],
    stack: g.StackStyle,
    jitter_seed: int,
    cocked: int | None = None,
    free_gap: float = GAP,
    cocked_tilt: float | None = None,
    field: Field = CANONICAL_FIELD,
) -> list[DieSpec]:
    """Resting poses clear of the checkers of every board the dice will lie among.

    On a crowded board the dice may find no spot clear of both the board before the play and
    the board after it; they then only keep clear of the board they land on.
    """
    specs = [
        DieSpec(
            value,
            "cocked" if index == cocked else "flat",
            where[index],  # type: ignore[arg-type]
            tilt=cocked_tilt if index == cocked else None,
        )
        for index, value in enumerate(values)
    ]
    for count in range(len(boards), 0, -1):
        placed: list[checker_model.CheckerPlacement] = []
        for board in boards[:count]:
            placed += checker_model.place_checkers(
                board.points, board.bar, board.off, stack, jitter_seed, field=field
            )
        try:
            poses = place_dice(specs, placed, "home", rng, free_gap, field.shape)
        except ImpossibleScene:
            if count == 1:
                raise
            continue
        break
    return [replace(spec, pose=pose) for spec, pose in zip(specs, poses, strict=True)]


def _choose(
    rng: np.random.Generator, position: Position, dice_values: tuple[int, int]
) -> LegalPlay | None:
    """A random legal play of the roll, or ``None`` when the roll cannot be played at all."""
    plays = generate_plays(position, dice_values)
    if not plays or not plays[0].dice_used:
        return None
    return plays[int(rng.integers(0, len(plays)))]


def render_game(
    seed: int,
    turns: int | None = DEFAULT_TURNS,
    size: tuple[int, int] = (1280, 720),
    *,
    stable_frames: int = STABLE_FRAMES,
    **look: object,
) -> Iterator[GameFrame]:
    """The frames of one game from the opening roll, for ``turns`` turns (``None``: to the end).

    ``stable_frames`` (1-10) is how many frames each settled state is shown. ``look`` fixes
    any :func:`companion.sim.scene.random_scene` choice (style, tilt, lighting, ...); the rest
    comes from ``seed``. A fixed ``cube`` must be centred or ``"none"`` (a game starts with the
    cube in the middle). Frames are yielded as they are rendered. Raises
    :class:`companion.sim.scene.InvalidScene` for a bad option.
    """
    if turns is not None and turns < 0:
        raise InvalidScene(f"turns must be 0 or more (or None for a whole game), not {turns}")
    if not 1 <= stable_frames <= 10:
        raise InvalidScene(f"stable_frames must be 1-10, not {stable_frames}")
    if seed < 0:
        raise InvalidScene(f"the seed must be a non-negative integer, not {seed}")
    cube = look.get("cube") or CubeSpec()
    if isinstance(cube, CubeSpec) and cube.owner != "centre":
        raise InvalidScene(
            "a game starts with the cube in the centre: leave the cube out, or make it "
            "'centre' (or 'none' to keep it out of view)"
        )
    look["cube"] = cube
    return _Game(seed, turns, size, stable_frames, look).frames()


class _Game:
    """The film of one random game; its methods yield the frames of each part of a turn."""

    def __init__(
        self,
        seed: int,
        turns: int | None,
        size: tuple[int, int],
        stable_frames: int,
        look: dict[str, object],
    ) -> None:
        self.rng = np.random.default_rng([seed, 7])
        self.seed = seed
        self.turns = turns
        self.hold = stable_frames
        look.setdefault("cube_seed", seed)
        # a game's dice keep clear of the checkers where they are drawn, so margins change
        # where throws land and with them the story a seed tells: a game has margins only
        # when asked (``margins=...``), and every seed plays the game it always played
        if look.get("margins") is None:
            look["margins"] = NO_MARGINS
        board = _board_of(Position.opening(), Colour.WHITE)
        base = random_scene(seed, board, size=size, light_seed=seed, hand=None, **look)
        self.recorder = _Recorder(replace(base, dice=(), on_roll=None), seed)
        self.stack = base.stack or board_style(base.style).stack
        self.mirrored = base.white_home in ("bottom-left", "top-right")
        self.shape = base.shape
        self.field = base.field
        self.cube = CubeState()

    def hold_still(self, **scene: object) -> Iterator[GameFrame]:
        for _ in range(self.hold):
            yield self.recorder.shoot(**scene)

    def event(self, **fields: object) -> None:
        self.recorder.event(**fields)

    def frames(self) -> Iterator[GameFrame]:
        position, on_roll, dice_values, dice_specs, chosen = yield from self.opening_roll()
        turn = 0
        last: tuple[LegalPlay, Checkers, list[DieSpec], Colour] | None = None
        while self.turns is None or turn < self.turns:
            mover = on_roll.value
            board = _board_of(position, on_roll)
            if turn > 0:
                if turn >= FIRST_DOUBLE_TURN and last and self.wants_to_double(on_roll):
                    dropped = yield from self.double(position, on_roll, last)
                    if dropped:
                        return
                dice_values, dice_specs, chosen = yield from self.roll(position, on_roll)
            when = {"opening_roll": True} if turn == 0 else {"on_roll": mover}
            if chosen is None:
                self.event(type="no_play", colour=mover, dice=list(dice_values))
                yield self.recorder.shoot(board=board, dice=tuple(dice_specs), **when)
                last = None
            else:
                after = _board_of(chosen.after, on_roll)
                yield from self.move(board, after, mover, dice=tuple(dice_specs), **when)
                self.event(
                    type="play",
                    colour=mover,
                    dice=list(dice_values),
                    play=str(chosen.play),
                    position_id=position_id.encode(chosen.after),
                )
                yield from self.hold_still(board=after, dice=tuple(dice_specs), **when)
                result = game_result(chosen.after)
                if result is not None:
                    self.event(
                        type="game_end",
                        winner=mover,
                        points=int(result) * self.cube.value,
                        result=result.name.lower(),
                    )
                    yield self.recorder.shoot(board=after, dice=())
                    return
                position = chosen.after
                last = (chosen, after, dice_specs, on_roll)
            position = position.flip()
            on_roll = on_roll.opponent
            turn += 1

    def opening_roll(
        self,
    ) -> Generator[
        GameFrame, None, tuple[Position, Colour, tuple[int, int], list[DieSpec], LegalPlay | None]
    ]:
        """One die each, into each player's own right-hand half; ties roll again."""
        rng = self.rng
        board = _board_of(Position.opening(), Colour.WHITE)
        halves = [
            g.right_hand_half("white", self.mirrored),
            g.right_hand_half("black", self.mirrored),
        ]
        while True:
            white_die, black_die = (int(v) for v in rng.integers(1, 7, size=2))
            on_roll = Colour.WHITE if white_die > black_die else Colour.BLACK
            values = (white_die, black_die) if on_roll is Colour.WHITE else (black_die, white_die)
            position = Position.opening()
            chosen = _choose(rng, position, values) if white_die != black_die else None
            avoid = [board] + ([_board_of(chosen.after, on_roll)] if chosen else [])
            specs = _settled_dice(
                rng,
                [white_die, black_die],
                avoid,
                halves,
                self.stack,
                self.seed,
                field=self.field,
            )
            rolling = tuple(replace(spec, rolling=True) for spec in specs)
            yield self.recorder.shoot(board=board, dice=rolling, opening_roll=True)
            self.event(type="opening_roll", white=white_die, black=black_die)
            yield from self.hold_still(board=board, dice=tuple(specs), opening_roll=True)
            if white_die != black_die:
                return position, on_roll, values, specs, chosen

    def roll(
        self, position: Position, on_roll: Colour
    ) -> Generator[GameFrame, None, tuple[tuple[int, int], list[DieSpec], LegalPlay | None]]:
        """Frames of one roll, rolled again while it is void; returns the roll, the dice as
        they lie, and the play that will be made (chosen first, so the dice lie clear of it)."""
        rng = self.rng
        mover = on_roll.value
        board = _board_of(position, on_roll)
        right = g.right_hand_half(_side(on_roll), self.mirrored)
        left = g.right_hand_half(_side(on_roll.opponent), self.mirrored)
        while True:
            values = [int(v) for v in rng.integers(1, 7, size=2)]
            cocked = wrong = None
            if rng.uniform() < REROLL_CHANCE:
                die = int(rng.integers(0, 2))
                if rng.uniform() < COCKED_SHARE:
                    cocked = die
                else:
                    wrong = die
            void = cocked is not None or wrong is not None
            chosen = None if void else _choose(rng, position, (values[0], values[1]))
            avoid = [board] + ([_board_of(chosen.after, on_roll)] if chosen else [])
            where = [left if index == wrong else right for index in range(2)]
            specs = _settled_dice(
                rng,
                values,
                avoid,
                where,
                self.stack,
                self.seed,
                cocked,
                field=self.field,
            )
            rolling = tuple(replace(spec, rolling=True) for spec in specs)
            yield self.recorder.shoot(board=board, dice=rolling, on_roll=mover)
            if not void:
                self.event(type="roll", colour=mover, dice=values)
                yield from self.hold_still(board=board, dice=tuple(specs), on_roll=mover)
                return (values[0], values[1]), specs, chosen
            self.event(
                type="reroll",
                colour=mover,
                dice=values,
                reason="cocked" if cocked is not None else "wrong side",
                die=(cocked if cocked is not None else wrong or 0) + 1,
            )
            yield from self.hold_still(board=board, dice=tuple(specs), on_roll=mover)
            yield self.pick_up(board, specs, mover, on_roll=mover)

    def move(
        self, before: Checkers, after: Checkers, mover: str, **scene: object
    ) -> Iterator[GameFrame]:
        """The mover's hand over the board: reaching in, lifting checkers, setting them down."""
        spots = _changed_spots(before, after, mover, self.shape)
        lifted = _lifted(before, after, mover)
        stages = ((before, spots[0], False), (lifted, spots[0], True), (after, spots[-1], True))
        for board, spot, holding in stages:
            hand = _hand_at(self.rng, spot, mover)
            if holding:  # a checker between finger and thumb
                hand = replace(hand, pose="checker", held="white" if mover == "white" else "black")
            yield self.recorder.shoot(board=board, hand=hand, **scene)

    def pick_up(
        self, board: Checkers, dice: Sequence[DieSpec], mover: str, **scene: object
    ) -> GameFrame:
        """A hand over the dice, taking them off the board."""
        pose = dice[0].pose
        middle = (self.shape.width / 2, g.PLAY_HEIGHT / 2)
        spot = (pose.x, pose.y) if pose is not None else middle
        hand = _hand_at(self.rng, spot, mover)
        return self.recorder.shoot(board=board, dice=tuple(dice), hand=hand, **scene)

    def wants_to_double(self, player: Colour) -> bool:
        """Whether ``player`` doubles now (only when the cube is theirs to turn, up to a limit)."""
        if self.cube.double_refusal(player) or self.cube.value * 2 > HIGHEST_DOUBLE:
            return False
        return bool(self.rng.uniform() < DOUBLE_CHANCE)

    def double(
        self,
        position: Position,
        doubler: Colour,
        last: tuple[LegalPlay, Checkers, list[DieSpec], Colour],
    ) -> Generator[GameFrame, None, bool]:
        """The opponent picks up their dice, the doubler turns the cube, the opponent takes or
        drops; returns whether the game ended with a drop."""
        played, shown, dice, previous = last
        taker = doubler.opponent
        yield self.pick_up(shown, dice, previous.value, on_roll=previous.value)
        self.event(type="pickup", colour=previous.value, play=str(played.play))
        board = _board_of(position, doubler)
        yield from self.hold_still(board=board, on_roll=doubler.value)
        value = self.cube.value * 2
        cube_spot = self.cube_spot()
        hand = _hand_at(self.rng, cube_spot, doubler.value)
        self.event(type="double", colour=doubler.value, cube=value, control="double")
        yield self.recorder.shoot(board=board, hand=hand, on_roll=doubler.value)
        if self.rng.uniform() >= TAKE_CHANCE:
            self.event(type="drop", colour=taker.value, control="drop")
            self.event(type="game_end", winner=doubler.value, points=self.cube.value, result="drop")
            yield from self.hold_still(board=board, on_roll=doubler.value)
            return True
        self.cube = self.cube.double(doubler).take(taker)
        if self.recorder.base.cube is not None:
            owned = CubeSpec(value, "white" if taker is Colour.WHITE else "black")
            self.recorder.base = replace(self.recorder.base, cube=owned)
        hand = _hand_at(self.rng, self.cube_spot(), taker.value)
        self.event(type="take", colour=taker.value, cube=value, control="take")
        yield self.recorder.shoot(board=board, hand=hand, on_roll=doubler.value)
        yield from self.hold_still(board=board, on_roll=doubler.value)
        return False

    def cube_spot(self) -> tuple[float, float]:
        """Where the cube lies now (canonical mm), for the hand that turns or takes it."""
        return cube_spot(self.recorder.base, self.seed)

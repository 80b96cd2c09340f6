"""A whole game as a camera over the table records it: frames, their truth, and the turn events.

One camera, board, light and cube spot for the whole game (chosen from the seed). Each turn is
a short script of frames:

1. the dice tumbling into the roller's right-hand half (motion-blurred, ``moving`` in the truth);
2. the dice settled (two frames, as a referee waits for them to stay still); now and then a
   die comes to rest cocked, the roll is void and the dice are rolled again;
3. the roller's hand reaching over the checkers to move (unreadable), lifting them (the board
   without the lifted checkers, unreadable), and placing them (unreadable);
4. the settled board after the play, dice still lying where they fell (two frames).

The game begins with the opening roll: each player rolls one die into their own right-hand
half; ties roll again; the higher die moves first with both dice where they lie. Plays are
chosen at random among the legal plays (``companion.rules.moves.generate_plays``).

Events are dicts with the frame index where they become visible: ``opening_roll``, ``roll``,
``cocked`` (a void roll), ``play`` (GNU notation, ``position_id`` after it, from the mover's
side), ``no_play`` and ``game_end``.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion import geometry as g
from companion.rules import position_id
from companion.rules.match import game_result
from companion.rules.moves import LegalPlay, generate_plays
from companion.rules.position import Colour, Position
from companion.sim import checkers as checker_model
from companion.sim import occluders
from companion.sim.layout import GAP, DieSpec, ImpossibleScene, place_dice
from companion.sim.scene import Checkers, Frame, Scene, random_scene, render
from companion.sim.styles import board_style

DEFAULT_TURNS = 4
COCKED_CHANCE = 0.08


@dataclass(frozen=True)
class GameFrame:
    """One frame of a recorded game, with the events first visible in it."""

    index: int
    frame: Frame
    events: tuple[dict[str, object], ...]


def _board_of(position: Position, on_roll: Colour) -> Checkers:
    absolute = position.to_absolute(on_roll)
    return Checkers(absolute.points, dict(absolute.bar), dict(absolute.off))


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


def _changed_spots(before: Checkers, after: Checkers, mover: str) -> list[tuple[float, float]]:
    """Canonical spots where the mover's checkers left or arrived (for the hand to reach)."""
    sign = 1 if mover == "white" else -1
    spots = []
    for index, (was, now) in enumerate(zip(before.points, after.points, strict=True)):
        if max(was * sign, 0) != max(now * sign, 0):
            shape = g.point_shape(index + 1)
            spots.append((shape.base_x, (shape.base_y + shape.tip_y) / 2))
    if before.bar[mover] != after.bar[mover]:
        spots.append(((g.BAR_LEFT + g.BAR_RIGHT) / 2, g.PLAY_HEIGHT / 2))
    if before.off[mover] != after.off[mover]:
        x0, y0, x1, y1 = g.tray_rect("white" if mover == "white" else "black")
        spots.append(((x0 + x1) / 2, (y0 + y1) / 2))
    return spots or [(g.PLAY_WIDTH / 2, g.PLAY_HEIGHT / 2)]


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
                board.points, board.bar, board.off, stack, jitter_seed
            )
        try:
            poses = place_dice(specs, placed, "home", rng, free_gap)
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
    **look: object,
) -> Iterator[GameFrame]:
    """The frames of one game from the opening roll, for ``turns`` turns (``None``: to the end).

    ``look`` fixes any :func:`companion.sim.scene.random_scene` choice (style, tilt, lighting,
    ...); the rest comes from ``seed``. Frames are yielded as they are rendered.
    """
    if turns is not None and turns < 0:
        raise ValueError(f"turns must be 0 or more (or None for a whole game), not {turns}")
    rng = np.random.default_rng([seed, 7])
    board = _board_of(Position.opening(), Colour.WHITE)
    look.setdefault("cube_seed", seed)
    base = random_scene(seed, board, size=size, light_seed=seed, hand=None, **look)
    base = replace(base, dice=(), on_roll=None)
    stack = base.stack or board_style(base.style).stack
    recorder = _Recorder(base, seed)
    mirrored = base.white_home in ("bottom-left", "top-right")

    # the opening roll: one die each, into each player's own right-hand half; ties roll again
    while True:
        white_die, black_die = (int(v) for v in rng.integers(1, 7, size=2))
        on_roll = Colour.WHITE if white_die > black_die else Colour.BLACK
        dice_values = (white_die, black_die) if on_roll is Colour.WHITE else (black_die, white_die)
        position = Position.opening()
        chosen = _choose(rng, position, dice_values) if white_die != black_die else None
        avoid = [board] + ([_board_of(chosen.after, on_roll)] if chosen else [])
        halves = [g.right_hand_half("white", mirrored), g.right_hand_half("black", mirrored)]
        dice_specs = _settled_dice(rng, [white_die, black_die], avoid, halves, stack, seed)
        rolling = tuple(replace(spec, rolling=True) for spec in dice_specs)
        yield recorder.shoot(board=board, dice=rolling, opening_roll=True)
        recorder.event(type="opening_roll", white=white_die, black=black_die)
        for _ in range(2):
            yield recorder.shoot(board=board, dice=tuple(dice_specs), opening_roll=True)
        if white_die != black_die:
            break
    turn = 0
    while turns is None or turn < turns:
        mover = on_roll.value
        board = _board_of(position, on_roll)
        if turn > 0:
            dice_values, dice_specs, chosen = yield from _roll(
                recorder, rng, position, on_roll, mirrored, stack, seed
            )
        when = {"opening_roll": True} if turn == 0 else {"on_roll": mover}
        if chosen is None:
            recorder.event(type="no_play", colour=mover, dice=list(dice_values))
            yield recorder.shoot(board=board, dice=tuple(dice_specs), **when)
        else:
            after = _board_of(chosen.after, on_roll)
            spots = _changed_spots(board, after, mover)
            lifted = _lifted(board, after, mover)
            dice_tuple = tuple(dice_specs)
            for stage_board, spot in ((board, spots[0]), (lifted, spots[0]), (after, spots[-1])):
                hand = _hand_at(rng, spot, mover)
                yield recorder.shoot(board=stage_board, dice=dice_tuple, hand=hand, **when)
            recorder.event(
                type="play",
                colour=mover,
                dice=list(dice_values),
                play=str(chosen.play),
                position_id=position_id.encode(chosen.after),
            )
            for _ in range(2):
                yield recorder.shoot(board=after, dice=dice_tuple, **when)
            result = game_result(chosen.after)
            if result is not None:
                recorder.event(
                    type="game_end", winner=mover, points=int(result), result=result.name.lower()
                )
                yield recorder.shoot(board=after, dice=())
                return
            position = chosen.after
        position = position.flip()
        on_roll = on_roll.opponent
        turn += 1


def _roll(
    recorder: _Recorder,
    rng: np.random.Generator,
    position: Position,
    on_roll: Colour,
    mirrored: bool,
    stack: g.StackStyle,
    seed: int,
) -> Generator[GameFrame, None, tuple[tuple[int, int], list[DieSpec], LegalPlay | None]]:
    """Frames of one roll (rolled again while a die is cocked); returns the roll, the dice as
    they lie, and the play that will be made (chosen first, so the dice can lie clear of it)."""
    mover = on_roll.value
    board = _board_of(position, on_roll)
    half = g.right_hand_half("white" if mover == "white" else "black", mirrored)
    while True:
        values = [int(v) for v in rng.integers(1, 7, size=2)]
        cocked = int(rng.integers(0, 2)) if rng.uniform() < COCKED_CHANCE else None
        chosen = None if cocked is not None else _choose(rng, position, (values[0], values[1]))
        avoid = [board] + ([_board_of(chosen.after, on_roll)] if chosen else [])
        specs = _settled_dice(rng, values, avoid, [half, half], stack, seed, cocked)
        rolling = tuple(replace(spec, rolling=True) for spec in specs)
        yield recorder.shoot(board=board, dice=rolling, on_roll=mover)
        if cocked is not None:
            recorder.event(type="cocked", colour=mover, dice=values, die=cocked + 1)
            yield recorder.shoot(board=board, dice=tuple(specs), on_roll=mover)
            continue
        recorder.event(type="roll", colour=mover, dice=values)
        for _ in range(2):
            yield recorder.shoot(board=board, dice=tuple(specs), on_roll=mover)
        return (values[0], values[1]), specs, chosen

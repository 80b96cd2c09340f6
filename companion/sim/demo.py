"""The demo game: a whole game from the opening to the last checker borne off, in which every
episode a referee handles happens once, recorded as a camera over the table would record it.

``render_demo_game(seed)`` shows the board set up for the opening (no dice, no hand: the frame
to calibrate from), then plays four scripted turns and races to the end (the rolls and plays
come from the seed; the episodes are fixed):

1. the opening roll (one die each, into each player's own right-hand half); the starter leaves
   an **illegal play** on the board (one checker a pip off a legal play), takes the hand away,
   the board settles, then the hand **corrects** it to the legal play; the dice are picked up;
2. the other player's roll comes to rest with a **cocked die** (the one showing more pips,
   leaning on a checker, or on the frame when no checker is there to lean on): it is picked up
   and rolled again, then played;
3. the starter rolls a die onto the **wrong side** (the roller's left-hand half): re-rolled,
   then a legal play is made, **taken back** (the checkers return to where they stood) and
   replaced by another legal play before the dice are picked up;
4. the other player **doubles** before rolling: the cube is turned to 2 and the opponent
   **takes** it to their side of the table (``cube_action="take"``), and the doubler rolls and
   plays; or the opponent **drops** (``cube_action="drop"``) and the game ends there;
5. after a take the players **race home**: each turn is a roll and one of the two plays that
   bring the farthest checkers in and bear off the most, hitting nothing (a roll that cannot
   be played is shown, announced as forfeited and picked up), until a play bears off the
   fifteenth checker: the **game ends**, single, gammon or backgammon, times the cube.

Every settled state is shown for ``stable_frames`` frames (what a referee's stability window
needs); moving hands make their frames unreadable; a rolling die is drawn motion-blurred and
marked ``moving`` in the truth, with the roller's hand and dice cup over the board (so that
frame is unreadable too). A turn ends when the roller picks up the dice: a hand over the
dice, then the board without them. The race is filmed shorter: one frame of the hand carrying
the checkers instead of reaching, lifting and setting down, and no hand over the dice as they
are picked up. The game (rolls, plays) is drawn
apart from the film's details (hands, where dice rest), so it does not depend on them nor on
the picture size.

Events (``GameFrame.events``, JSON-ready dicts) carry ``frame`` (the first frame that shows the
new state; a referee whose window is N frames can announce it on ``frame + N - 1``), ``type``,
``announce`` (what a referee should say, in words) and ``verdict`` (the kind of announcement:
``waiting``, ``reroll``, ``illegal``, ``legal``, ``info``, ``game_over``). Types and their fields:

* ``setup``: the board shows the opening position, ready for the opening roll;
* ``opening_roll``: ``white``, ``black`` (each player's die), ``starter``, ``dice`` [high, low];
* ``reroll``: ``colour``, ``dice`` (as they lie), ``reason`` (``"cocked"``, ``"wrong side"``),
  ``die`` (1 or 2: the offending die, in the order of the truth's ``dice``);
* ``roll``: ``colour``, ``dice``;
* ``illegal``: ``colour``, ``dice``, ``play`` (the slip in notation), ``rule`` and ``reason``
  (from ``companion.rules.judge``),
  ``closest`` (legal plays nearest the board), ``points`` (the board as shown);
* ``play``: ``colour``, ``dice``, ``play`` (GNU notation), ``position_id`` (after the play, from
  the mover's side), ``corrects`` (the illegal play it replaces, or absent) and ``replaces``
  (the play taken back before it, or absent);
* ``takeback``: ``colour``, ``play`` (the play taken back; the board is as before the turn);
* ``pickup``: ``colour`` (the roller picks up the dice: the turn ends, the play stands),
  ``play``;
* ``double``: ``colour`` (the doubler), ``cube`` (2), ``control`` (``"double"``);
* ``take``: ``colour`` (the taker), ``cube`` (2), ``control`` (``"take"``);
* ``drop``: ``colour`` (the player who drops), ``control`` (``"drop"``);
* ``no_play``: ``colour``, ``dice`` (a roll with no legal play, shown with its ``roll``);
* ``game_end``: ``winner``, ``points`` (times the cube), ``result`` (``"single"``,
  ``"gammon"``, ``"backgammon"``: shown with the last ``play``; ``"drop"``: announced with the
  drop);
* ``next_game``: after a game won by bearing off, the winner has picked up the dice and the
  board still shows the end of the game: the referee asks for the next game's set-up.

:func:`expected_record` gives the ``.mat`` record the film's events must leave.

An event with ``control`` is a player's button or key: a driver sends it to the referee when
that frame arrives, before feeding the frame.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any, Literal

import numpy as np

from companion import geometry as g
from companion.formats.mat import Action, Ending, GameRecord, MatchRecord
from companion.rules import position_id
from companion.rules.judge import IMPOSSIBLE_RULES, Verdict, judge
from companion.rules.match import game_result, result_name
from companion.rules.moves import LegalPlay, Move, Play, generate_plays
from companion.rules.position import Colour, Position
from companion.sim import checkers as checker_model
from companion.sim import dice as dice_model
from companion.sim import layout, occluders
from companion.sim.cube import CubeSpec
from companion.sim.layout import DieSpec
from companion.sim.scene import Checkers, InvalidScene, random_scene
from companion.sim.sequences import (
    GameFrame,
    _board_of,
    _changed_spots,
    _hand_at,
    _lifted,
    _Recorder,
    _settled_dice,
    cube_spot,
)
from companion.sim.shape import NO_MARGINS, Field
from companion.sim.styles import board_style

FREE_GAP = 12.0
"""Room (mm) the demo's dice keep from checkers: the players roll into open spaces, as most
do, so that each settled roll is plain to see; the cocked die still leans on something."""
COCKED_TILT = 30.0
"""The demo's cocked die leans clearly on a checker, and it is the die showing more pips: its
top face, squashed by the lean, shows plainly (a die barely off flat, or a lone pip tilted,
is a matter for the camera's doubt, shown elsewhere, not for the story)."""
OPEN_BAND = (g.POINT_LENGTH + 12.0, g.PLAY_HEIGHT - g.POINT_LENGTH - 12.0)
"""Canonical y (mm) between the point tips of the near and far sides: the open middle."""
OPEN_TRIES = 200
"""Throws tried per die in the open band before the dice may land anywhere in their half."""
DEFAULT_SEED = 365
"""The demo's own game: every episode, then a short race (35 turns in all) that the loser
leaves with few checkers borne off."""
DEMO_LOOK: dict[str, object] = {
    "style": "tournament-red",
    "checker_set": "white-black",
    "lighting": "even",
    "tilt": 0.0,
    "rotation": 0.0,
    "k1": 0.0,
    "height": 900.0,
    "fill": 0.9,
    "light_seed": 15,
    "jpeg_quality": 85,
    "margins": NO_MARGINS,
    "checker_look": "plain",
}
"""The table a user following ``calibration/README.md`` sets up: even light (one lamp well above
the board), the camera straight above it, the board filling most of the picture, a decent
camera's compression. The same table for every seed (the seed makes the game); the demo shows
the referee at work, not the reader's limits: its points reach the frame and its checkers are
plain (the vision code does not yet read every board with margins of field, nor every game of
ringed, marbled or logo checkers). Any of it can be changed through ``look``."""
CubeAction = Literal["take", "drop"]
CUBE_ACTIONS: tuple[CubeAction, ...] = ("take", "drop")

Frames = Generator[GameFrame, None, None]


def _dice_text(dice: tuple[int, int] | list[int]) -> str:
    return f"{max(dice)}-{min(dice)}"


def _misplaced(
    position: Position, dice: tuple[int, int], play: LegalPlay
) -> tuple[Position, Verdict, str]:
    """The board of ``play`` with one checker set a pip short of (or past) where it belongs,
    the judge's verdict on it, and the slip written as a play.

    Prefers a board that the judge's ordinary rules refuse (as a player's slip is) to one that
    no play of the roll could leave at all.
    """
    after = play.after
    moves = play.play.moves
    sources = {m.source for m in moves}
    found: list[tuple[bool, Position, Verdict, str]] = []
    for index, move in enumerate(moves):
        if move.hit or not 1 <= move.destination <= 24 or move.destination in sources:
            continue
        for landing in (move.destination + 1, move.destination - 1):
            if not 1 <= landing <= 24 or landing == move.source or after.opponent[25 - landing]:
                continue
            mover = list(after.mover)
            mover[move.destination] -= 1
            mover[landing] += 1
            board = Position.trusted(tuple(mover), after.opponent)
            verdict = judge(position, dice, (board.mover, board.opponent))
            if not verdict.legal:
                slipped = list(moves)
                slipped[index] = Move(move.source, landing)
                text = str(Play(tuple(slipped)))
                found.append((verdict.rule in IMPOSSIBLE_RULES, board, verdict, text))
    if not found:
        raise InvalidScene("no slip of one pip makes this play illegal")
    found.sort(key=lambda item: item[0])
    return found[0][1], found[0][2], found[0][3]


def render_demo_game(
    seed: int = DEFAULT_SEED,
    size: tuple[int, int] = (1280, 720),
    *,
    stable_frames: int = 3,
    cube_action: CubeAction = "take",
    whole_game: bool = True,
    **look: object,
) -> Iterator[GameFrame]:
    """The frames of the demo game (see the module docstring), yielded as they are rendered.

    ``stable_frames`` (1-10) is how many frames each settled state is shown; ``cube_action``
    is ``"take"`` (the game goes on) or ``"drop"`` (the game ends at the double); with
    ``whole_game=False`` the film stops after the scripted turns (the take and the doubler's
    play, about 90 frames: a quick look, and what tests of single episodes need). ``look``
    fixes any :func:`companion.sim.scene.random_scene` choice (style, tilt, lighting, vary,
    ...) over :data:`DEMO_LOOK` (and ``fill``, the share of the picture the board fills); the
    rest comes from ``seed``. The default game is 434 frames with a take and 77 with a drop at
    the default window; frame 0 shows the set-up board. Raises
    :class:`companion.sim.scene.InvalidScene` (or ``UnknownStyle``) for a bad option.
    """
    if not 1 <= stable_frames <= 10:
        raise InvalidScene(f"stable_frames must be 1-10, not {stable_frames}")
    if cube_action not in CUBE_ACTIONS:
        raise InvalidScene(f"cube_action must be 'take' or 'drop', not {cube_action!r}")
    if seed < 0:
        raise InvalidScene(f"the seed must be a non-negative integer, not {seed}")
    return _Demo(seed, size, stable_frames, cube_action, look).frames(whole_game)


class _Demo:
    """The script of the demo game; one object per rendering, its methods yield the frames."""

    def __init__(
        self,
        seed: int,
        size: tuple[int, int],
        stable_frames: int,
        cube_action: CubeAction,
        look: dict[str, object],
    ) -> None:
        self.story = np.random.default_rng([seed, 13])
        """The game: rolls and plays (apart from the film's details, so that a change in how
        hands or dice are drawn never changes what happens)."""
        self.rng = np.random.default_rng([seed, 11])
        """The film's details: hands, where dice come to rest."""
        self.seed = seed
        self.hold = stable_frames
        self.cube_action = cube_action
        opening = _board_of(Position.opening(), Colour.WHITE)
        fixed: dict[str, object] = {**DEMO_LOOK, "cube": CubeSpec(), "cube_seed": seed}
        fixed.update(look)
        fill = fixed.pop("fill", None)
        light_seed = fixed.pop("light_seed", seed)
        if not isinstance(light_seed, int) or light_seed < 0:
            raise InvalidScene(f"light_seed must be a non-negative integer, not {light_seed!r}")
        base = random_scene(seed, opening, size=size, light_seed=light_seed, hand=None, **fixed)
        if fill is not None:  # how much of the picture the board fills (the camera's zoom)
            if not isinstance(fill, int | float):
                raise InvalidScene(f"fill must be a number (0.2-1.5), not {fill!r}")
            base = replace(base, camera=replace(base.camera, fill=float(fill)))
        self.recorder = _Recorder(replace(base, dice=(), on_roll=None), seed)
        self.stack = base.stack or board_style(base.style).stack
        self.mirrored = base.white_home in ("bottom-left", "top-right")
        self.shape = base.shape
        self.field = base.field
        self.position = Position.opening()
        """The position at the start of the next turn, seen from the player on roll."""
        self.cube = 1
        """The cube's value: what a game won by bearing off is multiplied by."""

    # -- small pieces of film ------------------------------------------------------------------

    def hold_still(self, **scene: object) -> Frames:
        """A settled state, shown for the whole stability window.

        The camera and everything under it are still, so the state is filmed once and the
        picture held: a real camera's frames would differ by sensor noise alone, which a
        reader's change gate ignores anyway (and rendering them all would make the whole
        demo a third longer).
        """
        shot = self.recorder.shoot(**scene)
        yield shot
        for _ in range(self.hold - 1):
            yield GameFrame(self.recorder.count, shot.frame, ())
            self.recorder.count += 1

    def move(self, before: Checkers, after: Checkers, mover: str, **scene: object) -> Frames:
        """The mover's hand over the board: reaching in, lifting checkers, setting them down."""
        spots = _changed_spots(before, after, mover, self.shape)
        yield self.hand_frame(before, spots[0], mover, False, **scene)
        yield from self.carry(before, after, mover, **scene)
        yield self.hand_frame(after, spots[-1], mover, True, **scene)

    def carry(self, before: Checkers, after: Checkers, mover: str, **scene: object) -> Frames:
        """The mover's hand carrying the checkers it lifted (the race is filmed this short)."""
        spot = _changed_spots(before, after, mover, self.shape)[0]
        yield self.hand_frame(_lifted(before, after, mover), spot, mover, True, **scene)

    def hand_frame(
        self,
        board: Checkers,
        spot: tuple[float, float],
        mover: str,
        holding: bool,
        **scene: object,
    ) -> GameFrame:
        hand = _hand_at(self.rng, spot, mover)
        if holding:  # a checker between finger and thumb
            hand = replace(hand, pose="checker", held="white" if mover == "white" else "black")
        return self.recorder.shoot(board=board, hand=hand, **scene)

    def pick_up(
        self, board: Checkers, dice: tuple[DieSpec, ...], mover: str, **scene: object
    ) -> Frames:
        """A hand over the dice, taking them off the board."""
        pose = dice[0].pose
        middle = (self.shape.width / 2, g.PLAY_HEIGHT / 2)
        spot = (pose.x, pose.y) if pose is not None else middle
        hand = _hand_at(self.rng, spot, mover)
        yield self.recorder.shoot(board=board, dice=dice, hand=hand, **scene)

    def roll(
        self,
        values: list[int],
        boards: list[Checkers],
        mover: str,
        cocked: int | None = None,
        wrong: int | None = None,
    ) -> Generator[GameFrame, None, tuple[DieSpec, ...]]:
        """The dice tumbling in, then coming to rest; returns them as they lie."""
        right = g.right_hand_half("white" if mover == "white" else "black", self.mirrored)
        left = g.right_hand_half("black" if mover == "white" else "white", self.mirrored)
        where = [left if index == wrong else right for index in range(2)]
        specs = self.settle(values, boards, where, cocked)
        rolling = tuple(replace(spec, rolling=True) for spec in specs)
        cup = self.cup_hand(mover, right)
        yield self.recorder.shoot(board=boards[0], dice=rolling, on_roll=mover, hand=cup)
        return tuple(specs)

    def settle(
        self,
        values: list[int],
        boards: list[Checkers],
        where: list[g.Half],
        cocked: int | None = None,
    ) -> list[DieSpec]:
        """Where the dice come to rest, clear of the checkers of every board they will lie
        among: flat dice in the open middle of their half when there is room (the cocked die
        leans on a checker or the frame)."""
        if cocked is None:
            found = _open_dice(self.rng, values, boards, where, self.stack, self.seed, self.field)
            if found is not None:
                return found
        else:
            specs = [
                DieSpec(value, "flat", where[index])
                if index != cocked
                else DieSpec(value, "cocked", where[index], tilt=COCKED_TILT, support="checker")
                for index, value in enumerate(values)
            ]
            board = boards[0]
            placed = checker_model.place_checkers(
                board.points,
                board.bar,
                board.off,
                self.stack,
                self.seed,
                field=self.field,
            )
            try:
                poses = layout.place_dice(
                    specs, placed, "home", self.rng, FREE_GAP, shape=self.shape
                )
            except layout.ImpossibleScene:
                pass  # no checker to lean on in that half: the frame will do
            else:
                return [replace(spec, pose=pose) for spec, pose in zip(specs, poses, strict=True)]
        return _settled_dice(
            self.rng,
            values,
            boards,
            where,
            self.stack,
            self.seed,
            cocked,
            free_gap=FREE_GAP,
            cocked_tilt=COCKED_TILT if cocked is not None else None,
            field=self.field,
        )

    def cup_hand(self, mover: str, half: str) -> occluders.Hand:
        """The roller's hand with the dice cup, just emptied over their right-hand half."""
        middle = self.shape.middle("outer" if half == "outer" else "home")
        near = g.PLAY_HEIGHT - 70.0 if mover == "white" else 70.0
        spot = (middle + float(self.rng.uniform(-40, 40)), near)
        hand = _hand_at(self.rng, spot, mover)
        return replace(hand, pose="cup", height=float(self.rng.uniform(95, 130)))

    def event(self, **fields: object) -> None:
        self.recorder.event(**fields)

    def plays(self, position: Position, dice: tuple[int, int]) -> list[LegalPlay]:
        return [p for p in generate_plays(position, dice) if p.dice_used]

    def pick(self, plays: list[LegalPlay], best: int = 3) -> LegalPlay:
        """One of the ``best`` most natural plays, so the demo reads like a real game."""
        ranked = sorted(plays, key=_naturalness, reverse=True)[:best]
        return ranked[int(self.story.integers(0, len(ranked)))]

    def roll_values(self) -> list[int]:
        return [int(v) for v in self.story.integers(1, 7, size=2)]

    # -- the game ------------------------------------------------------------------------------

    def frames(self, whole_game: bool = True) -> Iterator[GameFrame]:
        opening = _board_of(Position.opening(), Colour.WHITE)
        self.event(type="setup", announce="game 1: roll one die each", verdict="info")
        yield from self.hold_still(board=opening)
        starter = yield from self.opening_turn()
        other = starter.opponent
        yield from self.cocked_turn(self.position, other)
        yield from self.takeback_turn(self.position, starter)
        over = yield from self.cube_turn(self.position, other)
        mover = starter
        while whole_game and not over:
            over = yield from self.plain_turn(self.position, mover, self.race_pick)
            mover = mover.opponent

    def finish_turn(
        self,
        played: LegalPlay,
        board: Checkers,
        dice: tuple[DieSpec, ...],
        mover: Colour,
        quick: bool = False,
        **when: object,
    ) -> Frames:
        """The roller picks up the dice: the turn ends with ``played`` on the board. ``quick``
        (the race, filmed shorter): the hand is too fast for the camera, the dice just go."""
        if not quick:
            yield from self.pick_up(board, dice, mover.value, **when)
        self.event(
            type="pickup",
            colour=mover.value,
            play=str(played.play),
            announce=f"{mover.opponent} to roll ({mover} played {played.play})",
            verdict="waiting",
        )
        yield from self.hold_still(board=board, dice=(), on_roll=mover.opponent.value)
        self.position = played.after.flip()

    def opening_turn(self) -> Generator[GameFrame, None, Colour]:
        """The opening roll; the starter's illegal play, corrected; the dice picked up."""
        position = Position.opening()
        board = _board_of(position, Colour.WHITE)
        while True:
            white, black = self.roll_values()
            if white == black:
                continue
            starter = Colour.WHITE if white > black else Colour.BLACK
            dice = (max(white, black), min(white, black))
            played = self.pick(self.plays(position, dice), best=1)
            try:
                slip, verdict, slip_text = _misplaced(position, dice, played)
            except InvalidScene:
                continue
            break
        mover = starter.value
        after = _board_of(played.after, starter)
        wrong = _board_of(slip, starter)
        halves = [
            g.right_hand_half("white", self.mirrored),
            g.right_hand_half("black", self.mirrored),
        ]
        specs = tuple(self.settle([white, black], [board, wrong, after], halves))
        rolling = tuple(replace(spec, rolling=True) for spec in specs)
        cup = self.cup_hand("white", halves[0])
        yield self.recorder.shoot(board=board, dice=rolling, opening_roll=True, hand=cup)
        self.event(
            type="opening_roll",
            white=white,
            black=black,
            starter=mover,
            dice=list(dice),
            announce=f"{mover} starts with {_dice_text(dice)}",
            verdict="waiting",
        )
        when: dict[str, object] = {"dice": specs, "opening_roll": True}
        yield from self.hold_still(board=board, **when)
        yield from self.move(board, wrong, mover, **when)
        self.event(
            type="illegal",
            colour=mover,
            dice=list(dice),
            play=slip_text,
            rule=verdict.rule,
            reason=verdict.reason,
            closest=list(verdict.closest),
            points=list(wrong.points),
            announce=f"illegal: {verdict.reason}",
            verdict="illegal",
        )
        yield from self.hold_still(board=wrong, **when)
        yield from self.move(wrong, after, mover, **when)
        self.play_event(starter, list(dice), played, corrects=slip_text)
        yield from self.hold_still(board=after, **when)
        yield from self.finish_turn(played, after, specs, starter, opening_roll=True)
        return starter

    def rolled(
        self,
        mover: Colour,
        values: list[int],
        boards: list[Checkers],
        reason: str,
        cocked: int | None = None,
        wrong: int | None = None,
    ) -> Frames:
        """A roll that does not count: settled, announced, picked up."""
        board = boards[0]
        specs = yield from self.roll(values, boards, mover.value, cocked=cocked, wrong=wrong)
        side = g.right_hand_half(mover.value, self.mirrored)
        self.event(
            type="reroll",
            colour=mover.value,
            dice=values,
            reason=reason,
            die=(cocked if cocked is not None else wrong or 0) + 1,
            announce=f"re-roll: {reason} ({mover} rolls both dice flat into the {side} half)",
            verdict="reroll",
        )
        yield from self.hold_still(board=board, dice=specs, on_roll=mover.value)
        yield from self.pick_up(board, specs, mover.value, on_roll=mover.value)

    def good_roll(
        self, mover: Colour, values: list[int], boards: list[Checkers], forfeited: bool = False
    ) -> Generator[GameFrame, None, tuple[DieSpec, ...]]:
        specs = yield from self.roll(values, boards, mover.value)
        self.event(
            type="roll",
            colour=mover.value,
            dice=values,
            announce=f"{mover} rolled {_dice_text(values)}",
            verdict="waiting",
        )
        if forfeited:
            self.event(
                type="no_play",
                colour=mover.value,
                dice=values,
                announce=f"{mover} cannot move with {_dice_text(values)}: the roll is forfeited "
                "(pick up the dice)",
                verdict="info",
            )
        yield from self.hold_still(board=boards[0], dice=specs, on_roll=mover.value)
        return specs

    def play_event(self, mover: Colour, dice: list[int], played: LegalPlay, **extra: str) -> None:
        moves = sorted(played.play.moves, key=lambda m: (-m.source, -m.destination))
        self.event(
            type="play",
            colour=mover.value,
            dice=dice,
            play=str(played.play),
            moves=[[m.source, m.destination, m.hit] for m in moves],
            position_id=position_id.encode(played.after),
            **extra,
            announce=f"{mover} plays {played.play}",
            verdict="legal",
        )

    def cocked_turn(self, position: Position, mover: Colour) -> Frames:
        board = _board_of(position, mover)
        values = self.roll_values()
        cocked = int(self.story.integers(0, 2))
        if values[cocked] < values[1 - cocked]:
            values.reverse()  # the die with more pips is the one that leans
        yield from self.rolled(mover, values, [board], "cocked", cocked=cocked)
        yield from self.plain_turn(position, mover)

    def plain_turn(
        self,
        position: Position,
        mover: Colour,
        choose: Callable[[list[LegalPlay]], LegalPlay] | None = None,
    ) -> Generator[GameFrame, None, bool]:
        """A roll, its play (or a roll that cannot be played) and the dice picked up; returns
        whether the play bore off the fifteenth checker (the game is over).

        Without ``choose`` the roll is drawn again until it can be played and the play is a
        natural one (the scripted opening turns); with it every roll counts.
        """
        board = _board_of(position, mover)
        while True:
            values = self.roll_values()
            plays = self.plays(position, (values[0], values[1]))
            if plays or choose is not None:
                break
        if not plays:
            yield from self.forfeited_turn(position, mover, values)
            return False
        played = choose(plays) if choose is not None else self.pick(plays)
        after = _board_of(played.after, mover)
        specs = yield from self.good_roll(mover, values, [board, after])
        when: dict[str, object] = {"dice": specs, "on_roll": mover.value}
        if choose is None:
            yield from self.move(board, after, mover.value, **when)
        else:
            yield from self.carry(board, after, mover.value, **when)
        self.play_event(mover, values, played)
        result = game_result(played.after)
        if result is not None:
            points = int(result) * self.cube
            name = result_name(result)
            self.event(
                type="game_end",
                winner=mover.value,
                points=points,
                result=result.name.lower(),
                announce=f"{mover} wins a {name}: {points} point{'s' if points != 1 else ''}",
                verdict="game_over",
            )
            yield from self.hold_still(board=after, **when)
            # the winner picks up the dice: the referee, between games now, asks for the next
            yield from self.pick_up(after, specs, mover.value, on_roll=mover.value)
            self.event(
                type="next_game",
                announce="set up the board for game 2",
                verdict="waiting",
            )
            yield from self.hold_still(board=after)
            return True
        yield from self.hold_still(board=after, **when)
        quick = choose is not None
        yield from self.finish_turn(played, after, specs, mover, quick, on_roll=mover.value)
        return False

    def forfeited_turn(self, position: Position, mover: Colour, values: list[int]) -> Frames:
        """A roll with no legal play: shown, announced as forfeited, picked up."""
        board = _board_of(position, mover)
        specs = yield from self.good_roll(mover, values, [board], forfeited=True)
        nothing = LegalPlay((), position, ())
        yield from self.finish_turn(nothing, board, specs, mover, True, on_roll=mover.value)

    def race_pick(self, plays: list[LegalPlay]) -> LegalPlay:
        """After the scripted turns the players race home: one of the two plays that bring
        the farthest checkers in, bear off the most and hit nothing (a hit sends a checker
        round again and only makes the film longer)."""
        ranked = sorted(plays, key=_progress, reverse=True)[:2]
        return ranked[int(self.story.integers(0, len(ranked)))]

    def takeback_turn(self, position: Position, mover: Colour) -> Frames:
        board = _board_of(position, mover)
        values = self.roll_values()
        wrong = int(self.story.integers(0, 2))
        yield from self.rolled(mover, values, [board], "wrong side", wrong=wrong)
        while True:
            values = self.roll_values()
            plays = self.plays(position, (values[0], values[1]))
            if len(plays) >= 2:
                break
        # the player first makes a weaker play, then thinks better of it
        second = self.pick(plays, best=1)
        first = self.pick([p for p in plays if p is not second], best=6)
        first_board = _board_of(first.after, mover)
        after = _board_of(second.after, mover)
        specs = yield from self.good_roll(mover, values, [board, first_board, after])
        when: dict[str, object] = {"dice": specs, "on_roll": mover.value}
        yield from self.move(board, first_board, mover.value, **when)
        self.play_event(mover, values, first)
        yield from self.hold_still(board=first_board, **when)
        yield from self.move(first_board, board, mover.value, **when)
        self.event(
            type="takeback",
            colour=mover.value,
            play=str(first.play),
            announce=f"takeback: {mover}'s {first.play} is taken back",
            verdict="info",
        )
        yield from self.hold_still(board=board, **when)
        yield from self.move(board, after, mover.value, **when)
        self.play_event(mover, values, second, replaces=str(first.play))
        yield from self.hold_still(board=after, **when)
        yield from self.finish_turn(second, after, specs, mover, on_roll=mover.value)

    def cube_turn(self, position: Position, doubler: Colour) -> Generator[GameFrame, None, bool]:
        """The doubler turns the cube to 2 and offers it; the taker takes it (and the doubler
        rolls and plays) or drops. Returns whether the game is over (a drop)."""
        board = _board_of(position, doubler)
        taker = doubler.opponent
        hand = _hand_at(
            self.rng, cube_spot(self.recorder.base, self.seed, CubeSpec()), doubler.value
        )
        self.event(
            type="double",
            colour=doubler.value,
            cube=2,
            control="double",
            announce=f"{doubler} doubles to 2 ({taker}: take or drop)",
            verdict="waiting",
        )
        yield self.recorder.shoot(board=board, hand=hand, on_roll=doubler.value)
        if self.cube_action == "drop":
            self.event(
                type="drop",
                colour=taker.value,
                control="drop",
                announce=f"{taker} drops: {doubler} wins 1 point",
                verdict="game_over",
            )
            self.event(
                type="game_end",
                winner=doubler.value,
                points=1,
                result="drop",
                announce=f"{doubler} wins 1 point",
                verdict="game_over",
            )
            yield from self.hold_still(board=board)
            return True
        self.cube = 2
        owned = CubeSpec(2, "white" if taker is Colour.WHITE else "black")
        self.recorder.base = replace(self.recorder.base, cube=owned)
        hand = _hand_at(self.rng, cube_spot(self.recorder.base, self.seed), taker.value)
        self.event(
            type="take",
            colour=taker.value,
            cube=2,
            control="take",
            announce=f"{taker} takes: the cube is at 2, {taker} owns it",
            verdict="info",
        )
        yield self.recorder.shoot(board=board, hand=hand, on_roll=doubler.value)
        yield from self.hold_still(board=board, on_roll=doubler.value)
        return (yield from self.plain_turn(position, doubler))


def _open_dice(
    rng: np.random.Generator,
    values: list[int],
    boards: list[Checkers],
    where: list[g.Half],
    stack: g.StackStyle,
    jitter_seed: int,
    field: Field,
) -> list[DieSpec] | None:
    """Flat dice in the open band between the point tips of their halves (where dice thrown
    from a cup mostly end up), :data:`FREE_GAP` from every checker of ``boards`` and twice
    that from each other; ``None`` when a die finds no room in :data:`OPEN_TRIES` throws."""
    placed = [
        checker
        for board in boards
        for checker in checker_model.place_checkers(
            board.points, board.bar, board.off, stack, jitter_seed, field=field
        )
    ]
    outlines = [(layout.checker_polygon(c), (c.x, c.y)) for c in placed]
    margin = FREE_GAP + g.DIE_SIZE
    poses: list[dice_model.DiePose] = []
    shape = field.shape
    for value, half in zip(values, where, strict=True):
        left, right = shape.outer if half == "outer" else shape.home
        for _ in range(OPEN_TRIES):
            x = float(rng.uniform(left + margin, right - margin))
            y = float(rng.uniform(*OPEN_BAND))
            pose = dice_model.flat_pose(value, x, y, float(rng.uniform(0, 2 * np.pi)), 0.0)
            outline = pose.footprint()
            near = [o for o, centre in outlines if np.hypot(centre[0] - x, centre[1] - y) < 60]
            if all(layout.clearance(outline, o) >= FREE_GAP for o in near) and all(
                layout.clearance(outline, other.footprint()) >= 2 * FREE_GAP for other in poses
            ):
                poses.append(pose)
                break
        else:
            return None
    return [
        DieSpec(value, "flat", half, pose=pose)
        for value, half, pose in zip(values, where, poses, strict=True)
    ]


def expected_record(
    events: Iterable[Mapping[str, Any]],
    length: int,
    players: tuple[str, str] = ("white", "black"),
    date: str = "",
) -> MatchRecord:
    """The match record that a referee seeing every frame of the film right must leave: each
    turn's play as it stood when the dice were picked up (or the game's last play), the cube
    actions and the result. ``events`` are the film's events in order (``GameFrame.events``);
    ``players`` are white's and black's names."""
    actions: list[Action] = []
    standing: Mapping[str, Any] = {}
    winner: Colour | None = None
    points = 0
    ending: Ending = ""
    for event in events:
        kind = event["type"]
        if kind in ("play", "no_play"):
            standing = event  # on the board; it stands when the dice are picked up
        elif kind == "pickup" or (kind == "game_end" and event["result"] != "drop"):
            actions.append(_move_action(standing))
        if kind in ("double", "take", "drop"):
            cube = int(event["cube"]) if kind == "double" else 0
            actions.append(Action(kind, Colour(event["colour"]), cube=cube))
        elif kind == "game_end":
            winner, points = Colour(event["winner"]), int(event["points"])
            ending = "drop" if event["result"] == "drop" else "bearoff"
    game = GameRecord(0, 0, tuple(actions), winner, points, ending)
    return MatchRecord(length, players[0], players[1], (game,), date)


def _move_action(play: Mapping[str, Any]) -> Action:
    dice = [int(value) for value in play["dice"]]
    steps = tuple(
        (int(source), int(destination), bool(hit))
        for source, destination, hit in play.get("moves", [])
    )
    return Action("move", Colour(play["colour"]), (max(dice), min(dice)), steps)


def _naturalness(play: LegalPlay) -> int:
    """A rough score of the board a play leaves: points made and hits, less blots left."""
    mover, opponent = play.after.mover, play.after.opponent
    made = sum(1 for point in range(1, 25) if mover[point] >= 2)
    blots = sum(1 for point in range(1, 25) if mover[point] == 1)
    return 2 * made - 2 * blots + 3 * opponent[25]


def _progress(play: LegalPlay) -> int:
    """How far a play gets a racing player: checkers borne off first, then the farthest
    checkers brought in (the sum of squared distances from home falls most), and no hits."""
    mover, opponent = play.after.mover, play.after.opponent
    spread = sum(count * point * point for point, count in enumerate(mover))
    return 1000 * mover[0] - spread - 10_000 * opponent[25]

"""The judge: was the play from one position to another legal, and if not, which rule broke?

A camera sees the board before and after a turn, so the judge compares end positions: a play
is legal exactly when the board after it is one that some legal play of the roll leaves. When
it is not, the judge names the rule in words a player accepts, with the points involved, and
lists the legal plays that leave the board closest to what was played.

Points in messages are the mover's (the player on roll names the points from their own side).
Boards that cannot exist (sixteen checkers, both colours on one point) are accepted as raw
arrays so that the judge can say what is wrong with them instead of refusing to look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise, permutations

from companion.errors import InvalidPlay
from companion.rules.moves import LegalPlay, check_dice, generate_plays
from companion.rules.notation import TypedMove, parse_play, point_name
from companion.rules.position import BAR, CHECKERS_PER_SIDE, OFF, Colour, Position

RawBoard = tuple[tuple[int, ...], tuple[int, ...]]
"""``(mover, opponent)``: a board that may break the physical rules."""

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's answer: legal (with the play's notation) or illegal (with the rule).

    ``rule`` is a short stable name for programs (``"bar_first"``, ``"blocked"``, ...);
    ``reason`` is the sentence for players; ``closest`` the nearest legal plays.
    """

    legal: bool
    play: str = ""
    reason: str = ""
    rule: str = ""
    closest: tuple[str, ...] = ()
    after: Position | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.legal:
            return f"legal: {self.play}" if self.play else f"legal: {self.reason}"
        return f"illegal: {self.reason}"

    def to_json(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "play": self.play,
            "reason": self.reason,
            "rule": self.rule,
            "closest": list(self.closest),
        }


@dataclass(frozen=True, slots=True)
class _Names:
    mover: str
    opponent: str
    mover_colour: str
    opponent_colour: str

    @classmethod
    def for_colour(cls, on_roll: Colour | None) -> _Names:
        if on_roll is None:
            return cls("the player on roll", "the opponent", "the player on roll's", "opposing")
        return cls(on_roll.value, on_roll.opponent.value, on_roll.value, on_roll.opponent.value)


def judge(
    position: Position,
    dice: Sequence[int],
    played: Position | RawBoard | str,
    *,
    on_roll: Colour | None = None,
) -> Verdict:
    """Judges a play given as the board after it or as typed notation.

    ``on_roll`` only changes the words ("white has 16" instead of "the player on roll has 16").
    Raises :class:`companion.errors.InvalidDice` for a bad roll and
    :class:`companion.errors.InvalidPlay` for play text that cannot be read.

    >>> opening = Position.opening()
    >>> str(judge(opening, (6, 3), "24/18 13/10"))
    'legal: 24/18 13/10'
    >>> str(judge(opening, (6, 3), "24/18"))
    'illegal: both dice can be played: 24/18 13/10 is legal'
    """
    roll = check_dice(dice)
    plays = generate_plays(position, roll)
    names = _Names.for_colour(on_roll)
    if isinstance(played, str):
        return _judge_text(position, roll, plays, played, names)
    after = _raw(played)
    return _judge_board(position, roll, plays, after, names)


def _raw(board: Position | RawBoard) -> RawBoard:
    if isinstance(board, Position):
        return board.mover, board.opponent
    mover, opponent = board
    if len(mover) != 26 or len(opponent) != 26:
        raise InvalidPlay("a board needs two 26-entry arrays (off, points 1-24, bar)")
    return tuple(mover), tuple(opponent)


def _judge_text(
    position: Position,
    roll: tuple[int, int],
    plays: list[LegalPlay],
    text: str,
    names: _Names,
) -> Verdict:
    typed = parse_play(text)
    before: RawBoard = (position.mover, position.opponent)
    for move in typed:
        if move.source != BAR and move.source > 24:
            raise InvalidPlay(f"{move} starts on no point", text=text, part=str(move))
    missing = _missing_checkers(before, typed)
    if missing:
        return Verdict(
            legal=False,
            reason=missing,
            rule="no_checker",
            closest=_closest(before, plays),
        )
    results = {(p.after.mover, p.after.opponent): p for p in plays}
    candidates = _realize(before, roll, typed)
    for after in candidates:
        if after in results:
            play = results[after]
            return Verdict(legal=True, play=str(play.play), after=play.after)
    blocked = _blocked_landings(before, roll, typed)
    if blocked:
        return Verdict(legal=False, reason=blocked, rule="blocked", closest=_closest(before, plays))
    naive = _apply(before, [step for move in typed for step in _steps(move)])
    if candidates:
        if naive not in candidates:
            # The runs fit the dice but not legally; judge the first way of cutting them.
            naive = candidates[0]
        return _judge_board(position, roll, plays, naive, names)
    verdict = _judge_board(position, roll, plays, naive, names)
    if verdict.rule in _BOARD_RULES:
        return verdict
    distances = ", ".join(
        f"{move} {'bears off' if move.destination == OFF else 'moves'} "
        f"{move.source - move.destination}"
        for move in typed
    )
    return Verdict(
        legal=False,
        reason=f"the moves do not fit the dice {_roll_text(roll)}: {distances}",
        rule="dice_mismatch",
        closest=verdict.closest,
    )


_BOARD_RULES = frozenset(
    {
        "checker_count",
        "wrong_side",
        "blocked",
        "not_hit",
        "backward",
        "bar_first",
        "bear_off_not_home",
    }
)


def _blocked_landings(before: RawBoard, roll: tuple[int, int], typed: list[TypedMove]) -> str:
    """Names the blocked points when every way of cutting a run into dice lands on one."""
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    opponent = before[1]
    for move in typed:
        ways = _cut_run(move, dice)
        if not ways:
            continue
        stops_per_way = [[d for _, d in steps if d != OFF] for steps, _ in ways]
        blocked_ways = [[p for p in stops if opponent[25 - p] >= 2] for stops in stops_per_way]
        if all(blocked_ways):
            points = sorted({p for way in blocked_ways for p in way}, reverse=True)
            listed = " and the ".join(f"{p}-point" for p in points)
            verb = "is" if len(points) == 1 else "are"
            return f"{move} cannot be played: the {listed} {verb} blocked"
    return ""


def _missing_checkers(before: RawBoard, typed: list[TypedMove]) -> str:
    """Says which typed move starts where the player has no checker left to move."""
    mover = list(before[0])
    for move in typed:
        if mover[move.source] == 0:
            if move.source == BAR:
                return f"{move} moves a checker from the bar, but none of yours is on the bar"
            return f"{move} moves a checker from the {move.source}-point, where you have none"
        mover[move.source] -= 1
        mover[move.destination] += 1
    return ""


def _steps(move: TypedMove) -> list[tuple[int, int]]:
    points = (move.source, *move.via, move.destination)
    return [(points[i], points[i + 1]) for i in range(len(points) - 1)]


def _apply(before: RawBoard, steps: Sequence[tuple[int, int]]) -> RawBoard:
    """Moves checkers as told, hitting any blot landed on; checks nothing else."""
    mover = list(before[0])
    opponent = list(before[1])
    for source, destination in steps:
        mover[source] -= 1
        mover[destination] += 1
        if destination != OFF and opponent[25 - destination] == 1:
            opponent[25 - destination] = 0
            opponent[BAR] += 1
    return tuple(mover), tuple(opponent)


def _realize(before: RawBoard, roll: tuple[int, int], typed: list[TypedMove]) -> list[RawBoard]:
    """Every board the typed runs can leave when each run is cut into whole dice.

    ``13/4`` with 6-3 may go by the 7-point or the 10-point; a player who writes no ``*`` may
    still have hit on the way. Each way is a candidate; the judge accepts the play when any
    candidate is a legal result.
    """
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    found: list[RawBoard] = []
    seen: set[RawBoard] = set()

    def walk(index: int, remaining: list[int], steps: list[tuple[int, int]]) -> None:
        if index == len(typed):
            board = _apply(before, steps)
            if board not in seen:
                seen.add(board)
                found.append(board)
            return
        for segment_steps, left in _cut_run(typed[index], remaining):
            walk(index + 1, left, steps + segment_steps)

    walk(0, dice, [])
    return found


def _cut_run(move: TypedMove, dice: list[int]) -> list[tuple[list[tuple[int, int]], list[int]]]:
    """Ways to cover one run with some of the dice, each die landing on a point on the way."""
    points = (move.source, *move.via, move.destination)
    ways: list[tuple[list[tuple[int, int]], list[int]]] = [([], dice)]
    for start, end in pairwise(points):
        next_ways = []
        for steps, left in ways:
            for count in range(1, len(left) + 1):
                for chosen in set(permutations(left, count)):
                    landing = start
                    segment = []
                    ok = True
                    for position_in_run, die in enumerate(chosen):
                        target = landing - die
                        last = position_in_run == count - 1
                        if end == OFF and last and target <= 0:
                            target = OFF
                        elif (
                            target <= 0 or (last and target != end) or (not last and target <= end)
                        ):
                            ok = False
                            break
                        segment.append((landing, target))
                        landing = target
                    if ok and landing == end:
                        rest = list(left)
                        for die in chosen:
                            rest.remove(die)
                        next_ways.append((steps + segment, rest))
        ways = next_ways
    return ways


def _judge_board(
    position: Position,
    roll: tuple[int, int],
    plays: list[LegalPlay],
    after: RawBoard,
    names: _Names,
) -> Verdict:
    before: RawBoard = (position.mover, position.opponent)
    for play in plays:
        if (play.after.mover, play.after.opponent) == after:
            return Verdict(legal=True, play=str(play.play), after=play.after)
    if not plays and after == before:
        return Verdict(
            legal=True,
            reason=f"no legal move with {_roll_text(roll)}: the roll is forfeited",
            rule="forfeit",
            after=position,
        )
    closest = _closest(after, plays, before=before)
    reason, rule = _explain(before, roll, plays, after, names)
    return Verdict(legal=False, reason=reason, rule=rule, closest=closest)


def _closest(
    after: RawBoard, plays: list[LegalPlay], limit: int = 3, before: RawBoard | None = None
) -> tuple[str, ...]:
    """The legal plays whose boards differ from ``after`` in the fewest checkers."""

    def distance(play: LegalPlay) -> tuple[int, int]:
        mover, opponent = play.after.mover, play.after.opponent
        differing = sum(abs(a - b) for a, b in zip(mover, after[0], strict=True)) + sum(
            abs(a - b) for a, b in zip(opponent, after[1], strict=True)
        )
        # Among equally near plays, prefer those that keep checkers where the player put them.
        kept = 0
        if before is not None:
            for point in range(26):
                placed = after[0][point] - before[0][point]
                if placed > 0:
                    kept += min(placed, max(mover[point] - before[0][point], 0))
        return differing, -kept

    if not plays:
        return ()
    keyed = [(distance(play), play) for play in plays]
    cutoff = sorted(key for key, _ in keyed)[min(limit, len(keyed)) - 1]
    # Notation is built only for the few plays that can make the list (ties by notation).
    near = [(key, str(play.play)) for key, play in keyed if key <= cutoff]
    ranked = sorted(near)
    return tuple(text for _, text in ranked[:limit])


def _roll_text(roll: tuple[int, int]) -> str:
    return f"{max(roll)}-{min(roll)}"


def _count(n: int, noun: str) -> str:
    word = NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


def _explain(
    before: RawBoard,
    roll: tuple[int, int],
    plays: list[LegalPlay],
    after: RawBoard,
    names: _Names,
) -> tuple[str, str]:
    """The first broken rule, in the order a referee at the table would check them."""
    b_mover, b_opponent = before
    a_mover, a_opponent = after

    # 1. Physical facts: fifteen checkers a side, nothing negative.
    for side, name in ((a_mover, names.mover), (a_opponent, names.opponent)):
        if any(count < 0 for count in side):
            return f"checkers appeared or vanished: {name} has a negative count", "checker_count"
        total = sum(side)
        if total != CHECKERS_PER_SIDE:
            return (
                f"checkers appeared or vanished: {name} has {total} checkers, not 15",
                "checker_count",
            )

    # 2. Only the player on roll moves; the opponent's checkers change only by being hit.
    opponent_moved = _opponent_moved(b_opponent, a_opponent, a_mover)
    mover_changed = a_mover != b_mover
    if opponent_moved:
        if not mover_changed:
            return (
                f"the wrong side moved: {names.opponent}'s checkers moved, but it is "
                f"{names.mover}'s turn ({opponent_moved})",
                "wrong_side",
            )
        return (
            f"{names.opponent}'s checkers moved, and only {names.mover} moves this turn "
            f"({opponent_moved})",
            "wrong_side",
        )

    if not plays:
        return (
            f"no checker can move with {_roll_text(roll)}: the roll is forfeited and the board "
            "must stay as it was",
            "forfeit",
        )

    # 3. A point belongs to one side: landing on two or more opposing checkers is not allowed.
    for point in range(1, 25):
        theirs_before = b_opponent[25 - point]
        if a_mover[point] and a_opponent[25 - point]:
            if theirs_before >= 2:
                held = _count(theirs_before, f"{names.opponent_colour} checker")
                return (f"the {point}-point is blocked ({held})", "blocked")
            return (
                f"a checker landed on the blot on the {point}-point but did not hit it: a hit "
                f"checker goes to the bar",
                "not_hit",
            )

    if not mover_changed:
        if plays:
            return (
                f"no checker moved, but {_roll_text(roll)} can be played: {plays_example(plays)} "
                "is legal",
                "no_move",
            )

    # 4. Checkers move toward home only.
    for point in range(25, 0, -1):
        if sum(a_mover[point:26]) > sum(b_mover[point:26]):
            return (
                f"a checker moved backward, onto the {point_name(point)}"
                f"{'-point' if point not in (BAR, OFF) else ''}: checkers move from higher to "
                "lower points",
                "backward",
            )

    # 5. The bar comes first.
    if b_mover[BAR]:
        entered = b_mover[BAR] - a_mover[BAR]
        moved_others = any(a_mover[p] < b_mover[p] for p in range(1, 25))
        beyond_entry = (
            any(a_mover[p] > b_mover[p] for p in range(1, 19)) or a_mover[OFF] > b_mover[OFF]
        )
        if a_mover[BAR] and (moved_others or beyond_entry):
            return (
                "a checker on the bar must enter before any other checker moves",
                "bar_first",
            )
        if entered == 0 and moved_others:
            return (
                "a checker on the bar must enter before any other checker moves",
                "bar_first",
            )

    # 6. Bearing off needs all fifteen home.
    if a_mover[OFF] > b_mover[OFF]:
        outside = [p for p in range(25, 6, -1) if a_mover[p]]
        if outside:
            where = (
                "a checker is on the bar"
                if outside[0] == BAR
                else f"a checker stands on the {outside[0]}-point"
            )
            return (f"bearing off is not allowed while {where}", "bear_off_not_home")

    # 7. The dice: the pips moved must add up to what the roll allows.
    used = sum(i * n for i, n in enumerate(b_mover)) - sum(i * n for i, n in enumerate(a_mover))
    high, low = max(roll), min(roll)
    doubles = high == low
    allowed = {high * k for k in range(1, 5)} if doubles else {high, low, high + low}
    bore_off = a_mover[OFF] - b_mover[OFF]
    most = high * 4 if doubles else high + low
    if (not bore_off and used not in allowed) or used > most:
        return (
            f"the move used {used} pips but the dice show {_roll_text(roll)}",
            "pips",
        )

    # 8. Use as many dice as possible; with one, the higher if it can be played.
    dice_possible = max((len(p.dice_used) for p in plays), default=0)
    if not bore_off:
        dice_made = used // high if doubles else (2 if used == high + low else 1)
        if dice_made < dice_possible:
            example = plays_example(plays, after, before)
            if doubles:
                return (
                    f"{_count(dice_possible, str(high))} can be played: {example} is legal",
                    "use_all_dice",
                )
            return (f"both dice can be played: {example} is legal", "use_both_dice")
        if not doubles and dice_possible == 1 and used == low and high != low:
            if any(p.dice_used == (high,) for p in plays):
                return (
                    f"only one die can be played, and it must be the higher one ({high})",
                    "higher_die",
                )

    # 9. A die larger than needed bears off only from the highest point: an overshoot while a
    # higher point is still held afterwards broke that rule.
    if bore_off and used < most:
        vacated = [p for p in range(1, 7) if a_mover[p] < b_mover[p]]
        still_held = [p for p in range(6, 0, -1) if a_mover[p]]
        if vacated and still_held and still_held[0] > min(vacated):
            return (
                "a checker may be borne off from a lower point only when no checker stands on "
                f"a higher point, and one stands on the {still_held[0]}-point",
                "bear_off_higher_point",
            )

    return (
        f"no legal play of {_roll_text(roll)} leaves this board: the checkers cannot get there "
        "by the dice (a point on the way is blocked, or the dice do not fit the moves)",
        "unreachable",
    )


def plays_example(
    plays: list[LegalPlay], near: RawBoard | None = None, before: RawBoard | None = None
) -> str:
    """One legal play to quote in a message: the one closest to what was played."""
    if near is not None:
        return _closest(near, plays, limit=1, before=before)[0]
    return str(sorted(plays, key=lambda p: str(p.play))[0].play)


def _opponent_moved(before: tuple[int, ...], after: tuple[int, ...], mover: tuple[int, ...]) -> str:
    """Describes an opponent change that hits cannot explain ("" when there is none)."""
    sent_to_bar = after[BAR] - before[BAR]
    lost = 0
    for point in range(1, 25):
        change = after[point] - before[point]
        if change > 0:
            return f"a checker appeared on their {point}-point"
        if change < 0:
            if before[point] != 1 or not mover[25 - point]:
                return f"a checker left their {point}-point"
            lost += 1
    if after[OFF] != before[OFF]:
        return "their borne-off count changed"
    if sent_to_bar != lost:
        return "their bar changed without a hit"
    return ""

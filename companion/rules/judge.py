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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, permutations
from operator import sub
from types import MappingProxyType

from companion.errors import InvalidPlay
from companion.rules.moves import LegalPlay, check_dice, generate_plays
from companion.rules.notation import TypedMove, parse_play, point_name
from companion.rules.position import BAR, CHECKERS_PER_SIDE, OFF, Colour, Position

RawBoard = tuple[tuple[int, ...], tuple[int, ...]]
"""``(mover, opponent)``: a board that may break the physical rules."""

RULES: Mapping[str, str] = MappingProxyType(
    {
        "": "a legal play (the verdict names it)",
        "forfeit": "no legal play: legal when nothing moved, illegal when something did",
        "checker_count": "checkers appeared or vanished: not fifteen a side, or a negative count",
        "hit_not_on_bar": "a hit checker went into the tray or off the board instead of the bar",
        "wrong_side": "the opponent's checkers moved (other than by being hit)",
        "blocked": "a checker landed on or entered a point held by two or more opposing checkers",
        "bar_without_hit": "a checker was put on the bar when no hit sent it there",
        "not_hit": "a checker stopped on a blot (at the end or on the way) and the blot stayed",
        "no_move": "nothing moved although the roll can be played",
        "backward": "a checker moved away from home, or a borne-off checker came back",
        "bar_first": "a checker moved while one of the same side was still on the bar",
        "bear_off_not_home": "a checker was borne off while another was outside the home board",
        "too_far": "the checkers moved more pips than the dice allow: no play can do it",
        "pips": "the checkers moved a number of pips that no use of the dice gives",
        "dice_mismatch": "the moves cannot be cut into the dice (e.g. 24/21 6/3 with 6-3)",
        "no_checker": "a typed move starts where the player has no checker",
        "bear_off_higher_point": "a die larger than needed bore off while a higher point was held",
        "use_both_dice": "only one die was played although both can be",
        "use_all_dice": "fewer moves of a double were played than can be",
        "higher_die": "the lower die was played when only one can be and the higher one could",
        "unreachable": "no legal play leaves this board, for a reason none of the above names",
    }
)
"""Every ``Verdict.rule``, with what it means; programs may rely on these names."""

IMPOSSIBLE_RULES = frozenset({"checker_count", "wrong_side", "too_far"})
"""Rules whose boards cannot follow from the previous one by any play of the roll."""

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's answer: legal (with the play's notation) or illegal (with the rule).

    ``reason`` is the sentence for players; ``closest`` the nearest legal plays (up to three,
    empty when the roll has none); ``after`` the board a legal play leaves.

    ``rule`` is a short stable name for programs, one of :data:`RULES` (which says what each
    means). They are checked in the order a referee at the table looks, and the first broken
    one is reported:

    1. ``""`` (legal) or ``forfeit`` (the roll has no legal play: legal when nothing moved).
    2. What no board can show: ``checker_count`` (a negative count, or not fifteen a side;
       ``hit_not_on_bar`` first when a hit blot went into the tray or vanished).
    3. Who moved: ``wrong_side`` when the opponent played this very roll.
    4. The mover's checkers: ``bar_without_hit`` (one put on the bar), ``backward``.
    5. ``blocked``: a checker landed on or entered a point held by two or more opponents.
    6. The opponent's checkers: ``bar_without_hit`` (put on the bar where nothing stopped),
       ``wrong_side`` (any other change than a hit), ``not_hit`` (a blot left under a checker).
    7. ``forfeit`` (something moved, nothing could), ``no_move`` (nothing moved, something
       could).
    8. The dice and the order of play: ``too_far`` (more pips than the roll gives: no play at
       all leaves this board), ``bar_first``, ``bear_off_not_home``, ``pips`` (a count of pips
       no use of the dice gives), ``dice_mismatch`` (the moves cannot be cut into the dice).
    9. Each way the checkers could have moved by the dice is then checked step by step, and
       the most lenient reading is reported: ``bar_first``, ``blocked`` (every way stops on a
       blocked point), ``bear_off_not_home``, ``bear_off_higher_point``, ``not_hit`` (a blot
       hit on the way left standing), ``bar_without_hit``, ``use_both_dice``,
       ``use_all_dice`` (a double), ``higher_die``.

    Typed plays add ``no_checker`` (a move starts where the player has no checker) and report
    ``blocked`` and ``dice_mismatch`` from the runs as written. ``unreachable`` is a safety net
    that no board reaches (the random tests check it): a way that breaks none of the rules
    above is a legal play.

    :data:`IMPOSSIBLE_RULES` are those whose board cannot follow from the previous one by any
    play of the roll (checkers appearing, the wrong side moving, checkers teleported).
    """

    legal: bool
    play: str = ""
    reason: str = ""
    rule: str = ""
    closest: tuple[str, ...] = ()
    after: Position | None = field(default=None, compare=False)

    @property
    def impossible(self) -> bool:
        """Whether no play of the roll at all leads to the board judged (see IMPOSSIBLE_RULES)."""
        return self.rule in IMPOSSIBLE_RULES

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
            "impossible": self.impossible,
            "closest": list(self.closest),
        }


@dataclass(frozen=True, slots=True)
class _Names:
    """How a verdict names the sides: by colour when the caller knows who is on roll."""

    mover: str
    opponent: str
    opponent_colour: str

    @classmethod
    def for_colour(cls, on_roll: Colour | None) -> _Names:
        if on_roll is None:
            return cls("the player on roll", "the opponent", "opposing")
        return cls(on_roll.value, on_roll.opponent.value, on_roll.opponent.value)


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
    # The board as typed, hitting any blot a written point lands on; checks nothing else.
    naive = _apply(before, [step for move in typed for step in _steps(move)])
    missing = _missing_checkers(before, typed)
    if missing:
        return Verdict(
            legal=False,
            reason=missing,
            rule="no_checker",
            closest=_closest(naive, plays, before=before),
        )
    results = {(p.after.mover, p.after.opponent): p for p in plays}
    candidates = _realize(before, roll, typed)
    for after in candidates:
        if after in results:
            play = results[after]
            return Verdict(legal=True, play=str(play.play), after=play.after)
    if naive in results:
        # The points written on the way are not stops of the dice ("5/4/off" for 5/1/off), but
        # the board is one a legal play leaves: the play stands, written as it should be.
        play = results[naive]
        return Verdict(legal=True, play=str(play.play), after=play.after)
    blocked = _blocked_landings(before, roll, typed, names)
    if blocked:
        closest = _closest(naive, plays, before=before)
        return Verdict(legal=False, reason=blocked, rule="blocked", closest=closest)
    if candidates:
        if naive not in candidates:
            # The runs fit the dice but not legally; judge the first way of cutting them.
            naive = candidates[0]
        return _judge_board(position, roll, plays, naive, names)
    verdict = _judge_board(position, roll, plays, naive, names)
    if verdict.rule in _BOARD_RULES:
        return verdict
    too_many = _too_many_moves(typed, roll)
    if too_many:
        return Verdict(legal=False, reason=too_many, rule="dice_mismatch", closest=verdict.closest)
    # Each written piece with its length: "13/8/4" shows as "13/8 moves 5, 8/4 moves 4".
    distances = ", ".join(
        f"{point_name(start)}/{point_name(end)} {'bears off' if end == OFF else 'moves'} "
        f"{start - end}"
        for move in typed
        for start, end in _steps(move)
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


def _too_many_moves(typed: list[TypedMove], roll: tuple[int, int]) -> str:
    """Says so when the typed runs need more moves than the roll gives ("" otherwise)."""
    high, low = max(roll), min(roll)
    available = 4 if high == low else 2
    needed = 0
    for move in typed:
        for start, end in pairwise((move.source, *move.via, move.destination)):
            if high == low:
                needed += max(1, -(-(start - end) // high))
            else:
                one_die = start - end in (high, low) or (end == OFF and start <= high)
                needed += 1 if one_die else 2
    if needed <= available:
        return ""
    gives = "four moves" if high == low else "two moves, one for each die"
    return f"the play needs at least {_count(needed, 'move')}, and {_roll_text(roll)} gives {gives}"


def _blocked_landings(
    before: RawBoard, roll: tuple[int, int], typed: list[TypedMove], names: _Names
) -> str:
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
            if len(points) == 1:
                held = _count(opponent[25 - points[0]], f"{names.opponent_colour} checker")
                return f"{move} cannot be played: the {points[0]}-point is blocked ({held})"
            listed = " and the ".join(f"{p}-point" for p in points)
            return f"{move} cannot be played: the {listed} are blocked"
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
    return _apply_with_hits(before, steps)[0]


def _apply_with_hits(
    before: RawBoard, steps: Sequence[tuple[int, int]]
) -> tuple[RawBoard, list[int]]:
    """:func:`_apply`, also telling the points where a blot was hit."""
    mover = list(before[0])
    opponent = list(before[1])
    hits = []
    for source, destination in steps:
        mover[source] -= 1
        mover[destination] += 1
        if destination != OFF and opponent[25 - destination] == 1:
            opponent[25 - destination] = 0
            opponent[BAR] += 1
            hits.append(destination)
    return (tuple(mover), tuple(opponent)), hits


def _realize(before: RawBoard, roll: tuple[int, int], typed: list[TypedMove]) -> list[RawBoard]:
    """Every board the typed runs can leave when each run is cut into whole dice.

    ``13/4`` with 6-3 may go by the 7-point or the 10-point; a player who writes no ``*`` may
    still have hit on the way. Each way is a candidate; the judge accepts the play when any
    candidate is a legal result.
    """
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    marked = sorted(point for move in typed for point in move.hits)
    found: dict[RawBoard, int] = {}

    def walk(index: int, remaining: list[int], steps: list[tuple[int, int]]) -> None:
        if index == len(typed):
            board, hits = _apply_with_hits(before, steps)
            # How far the hits made differ from the hits marked with "*".
            mismatch = len(set(hits) ^ set(marked)) + abs(len(hits) - len(marked))
            found[board] = min(mismatch, found.get(board, mismatch))
            return
        for segment_steps, left in _cut_run(typed[index], remaining):
            walk(index + 1, left, steps + segment_steps)

    walk(0, dice, [])
    # "12/3" names the way that hits nothing when both ways are legal, as GNU Backgammon
    # writes it; an unmarked hit is accepted only when no way matches the marks better.
    return sorted(found, key=found.__getitem__)


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


_MOST_TIES = 12
"""How many equally near legal plays :func:`_closest` compares by their notation."""


def _closest(
    after: RawBoard, plays: list[LegalPlay], limit: int = 3, before: RawBoard | None = None
) -> tuple[str, ...]:
    """The legal plays whose boards differ from ``after`` in the fewest checkers."""
    a_mover, a_opponent = after
    # Among equally near plays, prefer those that keep checkers where the player put them.
    placed = (
        [
            (p, a_mover[p] - before[0][p], before[0][p])
            for p in range(26)
            if a_mover[p] > before[0][p]
        ]
        if before is not None
        else []
    )

    def distance(play: LegalPlay) -> tuple[int, int]:
        mover, opponent = play.after.mover, play.after.opponent
        differing = sum(map(abs, map(sub, mover, a_mover)))
        if opponent != a_opponent:  # most plays hit nothing: skip the opponent's side then
            differing += sum(map(abs, map(sub, opponent, a_opponent)))
        kept = 0
        for point, gained, was in placed:
            kept += min(gained, max(mover[point] - was, 0))
        return differing, -kept

    if not plays:
        return ()
    keyed = [(distance(play), play) for play in plays]
    cutoff = sorted(key for key, _ in keyed)[min(limit, len(keyed)) - 1]
    # Notation is built only for the few plays that can make the list, ties broken by it; a
    # far-fetched board can tie with hundreds of plays of a double, and writing them all would
    # cost milliseconds, so only the first dozen ties (in the generator's order) compete.
    nearer = [(key, play) for key, play in keyed if key < cutoff]
    tied = [(key, play) for key, play in keyed if key == cutoff][:_MOST_TIES]
    ranked = sorted((key, str(play.play)) for key, play in nearer + tied)
    return tuple(text for _, text in ranked[:limit])


def _roll_text(roll: tuple[int, int]) -> str:
    return f"{max(roll)}-{min(roll)}"


def _count(n: int, noun: str) -> str:
    word = NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


Step = tuple[int, int, int]
"""``(from, to, die)``: one checker moved by one die, in the mover's numbering."""

_MOST_WAYS = 64
"""How many ways of making a board's moves the judge weighs (a handful is usual)."""


def _explain(
    before: RawBoard,
    roll: tuple[int, int],
    plays: list[LegalPlay],
    after: RawBoard,
    names: _Names,
) -> tuple[str, str]:
    """The first broken rule, in the order a referee at the table checks them.

    First what no board can show (checkers appearing, vanishing, a hit checker not on the bar),
    then who moved (only the player on roll; the opponent's checkers change only by being hit),
    then where the mover's checkers stand (blocked points, blots, the bar, backward moves,
    bearing off), then the dice: the pips, and every way the checkers could have moved by
    them, judged by the most lenient way (a referee gives the player the benefit of the doubt).
    """
    b_mover, b_opponent = before
    a_mover, a_opponent = after
    roll_text = _roll_text(roll)

    # 1. Physical facts: fifteen checkers a side, nothing negative, hit checkers on the bar.
    for side, name, own in ((a_mover, names.mover, True), (a_opponent, names.opponent, False)):
        for index, count in enumerate(side):
            if count < 0:
                place = _place(index if own else _their(index))
                return (
                    f"checkers appeared or vanished: {name} has a negative count ({count}) {place}",
                    "checker_count",
                )
    hit_astray = _hit_not_on_bar(before, roll, after, names)
    if hit_astray:
        return hit_astray, "hit_not_on_bar"
    for side, name in ((a_mover, names.mover), (a_opponent, names.opponent)):
        total = sum(side)
        if total != CHECKERS_PER_SIDE:
            return (
                f"checkers appeared or vanished: {name} has {total} checkers, not 15",
                "checker_count",
            )

    # 2. The wrong side played the roll.
    their_play = _opponent_played(before, roll, after)
    if their_play:
        return (
            f"the wrong side moved: {names.opponent} played {their_play} (counted from "
            f"{names.opponent}'s side), but it is {names.mover}'s turn to play {roll_text}",
            "wrong_side",
        )

    # 3. The mover's checkers go toward home, and never onto the bar by themselves.
    if a_mover[BAR] > b_mover[BAR]:
        return (
            f"one of {names.mover}'s checkers was put on the bar, but only a hit sends a checker "
            "there",
            "bar_without_hit",
        )
    if a_mover[OFF] < b_mover[OFF]:
        return (
            "a borne-off checker came back onto the board: checkers once borne off stay off",
            "backward",
        )
    beyond_after = a_mover[BAR]
    beyond_before = b_mover[BAR]
    for point in range(24, 0, -1):
        # More checkers at or beyond this point than before: one came from nearer home.
        beyond_after += a_mover[point]
        beyond_before += b_mover[point]
        if beyond_after > beyond_before:
            return (
                f"a checker moved backward, onto the {point}-point: checkers move from higher "
                "to lower points",
                "backward",
            )

    # 4. A point with two or more opposing checkers is closed.
    for point in range(1, 25):
        theirs_before = b_opponent[25 - point]
        if a_mover[point] > b_mover[point] and theirs_before >= 2:
            entering = point >= 19 and a_mover[BAR] < b_mover[BAR]
            text = _blocked_text(point, theirs_before, entering=entering, names=names)
            return text, "blocked"

    # 5. The opponent's checkers change only by being hit, and a hit blot goes on the bar.
    mover_changed = a_mover != b_mover
    bar_text = _opponent_bar_without_hit(before, after, names)
    if bar_text and not mover_changed:
        return bar_text, "bar_without_hit"
    opponent_moved = "" if bar_text else _opponent_moved(b_opponent, a_opponent, a_mover, names)
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
    for point in range(1, 25):
        if a_mover[point] and a_opponent[25 - point]:
            return (
                f"a checker landed on the blot on the {point}-point but did not hit it: a hit "
                "checker goes on the bar",
                "not_hit",
            )

    # 6. Something must move when something can, and nothing when nothing can.
    if not plays:
        return (
            f"no checker can move with {roll_text}: the roll is forfeited and the board must "
            "stay as it was",
            "forfeit",
        )
    if not mover_changed:
        return (
            f"no checker moved, but {roll_text} can be played: {plays_example(plays)} is legal",
            "no_move",
        )

    # 7. No play moves more pips than the dice show.
    high, low = max(roll), min(roll)
    doubles = high == low
    used = _pips(b_mover) - _pips(a_mover)
    most = high * 4 if doubles else high + low
    if used > most:
        return (
            f"this board cannot follow from any play of {roll_text}: the checkers moved "
            f"{used} pips ({_moves_text(b_mover, a_mover)}), and {roll_text} moves at most "
            f"{most}",
            "too_far",
        )

    # 8. The bar comes first.
    if b_mover[BAR] and a_mover[BAR]:
        moved_others = any(a_mover[p] < b_mover[p] for p in range(1, 25))
        beyond_entry = (
            any(a_mover[p] > b_mover[p] for p in range(1, 19)) or a_mover[OFF] > b_mover[OFF]
        )
        if moved_others or beyond_entry:
            return (
                "a checker on the bar must enter before any other checker moves",
                "bar_first",
            )

    # 9. Bearing off needs all fifteen home.
    if a_mover[OFF] > b_mover[OFF]:
        outside = [p for p in range(25, 6, -1) if a_mover[p]]
        if outside:
            return _not_home_text(outside[0]), "bear_off_not_home"

    # 10. The dice: the pips, then every way the checkers could have moved by them.
    allowed = {high * k for k in range(1, 5)} if doubles else {high, low, high + low}
    if a_mover[OFF] == b_mover[OFF] and used not in allowed:
        return f"the move used {used} pips but the dice show {roll_text}", "pips"
    ways = _ways(b_mover, a_mover, roll)
    if bar_text:
        # An opposing checker on the bar is explained only by a way that stops on its point.
        sent = [p for p in range(1, 25) if a_opponent[25 - p] < b_opponent[25 - p]]
        if not any(set(sent) <= {step[1] for step in way} for way in ways):
            return bar_text, "bar_without_hit"
    if not ways:
        return (
            f"the moves do not fit the dice {roll_text}: {_moves_text(b_mover, a_mover, True)}",
            "dice_mismatch",
        )
    judged = [_judge_way(before, after, way, roll, plays, names) for way in ways]
    rank, _, reason, rule = max(judged, key=lambda item: (item[0], -item[1]))
    if rule == "blocked":
        # Every way stops on a blocked point: name them all.
        points = sorted({p for r, p, _, _ in judged if r == rank}, reverse=True)
        if len(points) > 1:
            listed = " and the ".join(f"{p}-point" for p in points)
            reason = f"the {listed} are blocked: every way to make these moves stops on one"
    return reason, rule


# The explanations a way of moving can earn, from the least to the most lenient.
_WAY_RANKS = (
    "bar_first",
    "blocked",
    "bear_off_not_home",
    "bear_off_higher_point",
    "not_hit",
    "bar_without_hit",
    "use_all_dice",
    "higher_die",
    "unreachable",
)


def _judge_way(
    before: RawBoard,
    after: RawBoard,
    way: tuple[Step, ...],
    roll: tuple[int, int],
    plays: list[LegalPlay],
    names: _Names,
) -> tuple[int, int, str, str]:
    """``(rank, point, reason, rule)``: the first rule one way of moving breaks."""
    mover = list(before[0])
    opponent = list(before[1])
    hits: list[int] = []

    def broke(rule: str, point: int, reason: str) -> tuple[int, int, str, str]:
        rank = _WAY_RANKS.index("use_all_dice" if rule == "use_both_dice" else rule)
        return rank, point, reason, rule

    for source, destination, die in way:
        if mover[BAR] and source != BAR:
            return broke(
                "bar_first", 0, "a checker on the bar must enter before any other checker moves"
            )
        if destination == OFF:
            outside = [p for p in range(25, 6, -1) if mover[p]]
            if outside:
                return broke("bear_off_not_home", outside[0], _not_home_text(outside[0]))
            higher = [p for p in range(6, source, -1) if mover[p]]
            if source < die and higher:
                return broke(
                    "bear_off_higher_point",
                    higher[0],
                    f"a {die} bears off from the {source}-point only when no checker stands on "
                    f"a higher point, and one stands on the {higher[0]}-point",
                )
        elif opponent[25 - destination] >= 2:
            return broke(
                "blocked",
                destination,
                _blocked_text(
                    destination, opponent[25 - destination], entering=source == BAR, names=names
                ),
            )
        elif opponent[25 - destination] == 1:
            opponent[25 - destination] = 0
            opponent[BAR] += 1
            hits.append(destination)
        mover[source] -= 1
        mover[destination] += 1
    missed = [p for p in hits if after[1][25 - p]]
    if missed:
        return broke(
            "not_hit",
            missed[0],
            f"the checker that stopped on the {missed[0]}-point on its way hit the blot there, "
            "and a hit checker goes on the bar",
        )
    if tuple(opponent) != after[1]:
        return broke(
            "bar_without_hit",
            0,
            _opponent_bar_without_hit(before, after, names)
            or f"{names.opponent}'s checkers changed in a way no hit explains",
        )
    high, low = max(roll), min(roll)
    dice_possible = max(len(p.dice_used) for p in plays)
    if len(way) < dice_possible:
        example = plays_example(plays, after, before)
        if high == low:
            return broke(
                "use_all_dice",
                0,
                f"{_count(dice_possible, str(high))} can be played: {example} is legal",
            )
        return broke("use_both_dice", 0, f"both dice can be played: {example} is legal")
    if (
        high != low
        and dice_possible == 1
        and way[0][2] == low
        and any(p.dice_used == (high,) for p in plays)
    ):
        return broke(
            "higher_die",
            0,
            f"only one die can be played, and it must be the higher one ({high})",
        )
    return broke(
        "unreachable",
        0,
        f"no legal play of {_roll_text(roll)} leaves this board",
    )


def _ways(
    before: tuple[int, ...], after: tuple[int, ...], roll: tuple[int, int]
) -> list[tuple[Step, ...]]:
    """Every way (up to a few dozen) the mover's checkers get from ``before`` to ``after``.

    Only the mover's own checkers and the dice count here, not the opponent nor the rules: the
    judge then asks of each way which rule it breaks. A checker moves only from a point that
    holds more than it will at the end, which keeps the search to the checkers that moved.
    """
    high, low = max(roll), min(roll)
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    current = list(before)
    target = tuple(after)
    found: list[tuple[Step, ...]] = []
    seen: set[tuple[Step, ...]] = set()

    def walk(dice: tuple[int, ...], gap: int, steps: tuple[Step, ...]) -> None:
        if gap == 0 and tuple(current) == target:
            if steps and steps not in seen:
                seen.add(steps)
                found.append(steps)
            return
        if not dice or len(found) >= _MOST_WAYS:
            return
        die = dice[0]
        for source in range(BAR, 0, -1):
            if current[source] <= target[source]:
                continue
            destination = source - die if source > die else OFF
            pips = source - destination
            if pips > gap:
                continue
            current[source] -= 1
            current[destination] += 1
            walk(dice[1:], gap - pips, (*steps, (source, destination, die)))
            current[source] += 1
            current[destination] -= 1

    gap = _pips(before) - _pips(after)
    for order in orders:
        walk(order, gap, ())
    return found


def _pips(side: Sequence[int]) -> int:
    return sum(index * count for index, count in enumerate(side))


def _their(index: int) -> int:
    """An index of the opponent's own array as the mover names the place."""
    return index if index in (BAR, OFF) else 25 - index


def _place(point: int) -> str:
    if point == BAR:
        return "on the bar"
    if point == OFF:
        return "among the borne-off checkers"
    return f"on the {point}-point"


def _blocked_text(point: int, held: int, *, entering: bool, names: _Names) -> str:
    checkers = _count(held, f"{names.opponent_colour} checker")
    if entering:
        return f"a checker on the bar cannot enter on the {point}-point: it is blocked ({checkers})"
    return f"the {point}-point is blocked ({checkers})"


def _not_home_text(point: int) -> str:
    # A checker on the bar is reported as "bar_first" before this rule is reached.
    return f"bearing off is not allowed while a checker stands on the {point}-point"


def _moves_text(before: tuple[int, ...], after: tuple[int, ...], distances: bool = False) -> str:
    """The mover's changes written as moves, pairing the farthest start with the farthest end."""
    starts = [p for p in range(BAR, -1, -1) for _ in range(max(before[p] - after[p], 0))]
    ends = [p for p in range(BAR, -1, -1) for _ in range(max(after[p] - before[p], 0))]
    texts = []
    for start, end in zip(starts, ends, strict=False):
        text = f"{point_name(start)}/{point_name(end)}"
        if distances:
            verb = "bears off" if end == OFF else "moves"
            text += f" {verb} {start - end}"
        texts.append(text)
    return (", " if distances else " ").join(texts)


def _hit_not_on_bar(before: RawBoard, roll: tuple[int, int], after: RawBoard, names: _Names) -> str:
    """Names blots the mover hit that went into the tray or vanished instead of the bar."""
    b_mover, b_opponent = before
    a_mover, a_opponent = after
    # A blot can be hit where a checker stands now or where one stopped on its way down.
    high, low = max(roll), min(roll)
    runs = [high * k for k in range(1, 4)] if high == low else [high, low]
    stops = {p for p in range(1, 25) if a_mover[p] > b_mover[p]}
    for source in range(1, BAR + 1):
        if a_mover[source] < b_mover[source]:
            stops.update(source - run for run in runs)
    hit = [p for p in sorted(stops) if 0 < p < 25 and b_opponent[25 - p] == 1]
    hit = [p for p in hit if a_opponent[25 - p] == 0]
    if not hit:
        return ""
    expected = list(b_opponent)
    for point in hit:
        expected[25 - point] = 0
        expected[BAR] += 1
    short = expected[BAR] - a_opponent[BAR]
    in_tray = a_opponent[OFF] - expected[OFF]
    if short <= 0 or in_tray not in (0, short) or a_opponent[1:25] != tuple(expected[1:25]):
        return ""
    where = "put with the borne-off checkers" if in_tray else "taken off the board"
    shown = hit[:short]
    listed = " and the ".join(f"{p}-point" for p in shown)
    noun = f"{names.opponent_colour} checker" + ("s" if len(shown) > 1 else "")
    verb = "were" if len(shown) > 1 else "was"
    return f"a hit checker goes on the bar, but the {noun} hit on the {listed} {verb} {where}"


def _opponent_played(before: RawBoard, roll: tuple[int, int], after: RawBoard) -> str:
    """The opponent's play of this roll that leaves ``after``, if the wrong side played it."""
    if after[1] == before[1] or after[0][OFF] != before[0][OFF]:
        return ""
    if any(a > b for a, b in zip(after[0][1:25], before[0][1:25], strict=True)):
        return ""  # the player on roll's checkers moved: not the opponent's play alone
    theirs = Position.trusted(before[1], before[0])
    for play in generate_plays(theirs, roll):
        if play.after.mover == after[1] and play.after.opponent == after[0]:
            return str(play.play)
    return ""


def _opponent_bar_without_hit(before: RawBoard, after: RawBoard, names: _Names) -> str:
    """Names opposing checkers put on the bar from points where nothing hit them."""
    b_opponent = before[1]
    a_mover, a_opponent = after
    hit = {
        p
        for p in range(1, 25)
        if b_opponent[25 - p] == 1 and a_opponent[25 - p] == 0 and a_mover[p] > 0
    }
    extra = a_opponent[BAR] - b_opponent[BAR] - len(hit)
    if extra <= 0 or a_opponent[OFF] != b_opponent[OFF]:
        return ""
    left: list[int] = []
    for point in range(1, 25):
        change = a_opponent[25 - point] - b_opponent[25 - point]
        if change > 0:
            return ""
        if change < 0 and point not in hit:
            left += [point] * -change
    if len(left) != extra:
        return ""
    listed = " and the ".join(f"{p}-point" for p in sorted(set(left), reverse=True))
    noun = _count(extra, f"{names.opponent_colour} checker")
    if extra == 1:
        noun = "an opposing checker" if names.opponent_colour == "opposing" else f"a {noun[4:]}"
    verb = "was" if extra == 1 else "were"
    return (
        f"{noun} {verb} put on the bar from the {listed}, but no checker hit "
        f"{'it' if extra == 1 else 'them'}: only a hit sends a checker to the bar"
    )


def plays_example(
    plays: list[LegalPlay], near: RawBoard | None = None, before: RawBoard | None = None
) -> str:
    """One legal play to quote in a message: the one closest to what was played."""
    if near is not None:
        return _closest(near, plays, limit=1, before=before)[0]
    return str(sorted(plays, key=lambda p: str(p.play))[0].play)


def _opponent_moved(
    before: tuple[int, ...], after: tuple[int, ...], mover: tuple[int, ...], names: _Names
) -> str:
    """Describes an opponent change that hits cannot explain ("" when there is none).

    Points are named as the mover names them, like every point in a verdict.
    """
    sent_to_bar = after[BAR] - before[BAR]
    lost = 0
    checker = (
        "an opposing checker"
        if names.opponent_colour == "opposing"
        else f"a {names.opponent_colour} checker"
    )
    left: list[int] = []
    appeared: list[int] = []
    for index in range(24, 0, -1):
        point = 25 - index
        change = after[index] - before[index]
        if change > 0:
            appeared.append(point)
        elif change < 0:
            if before[index] != 1 or not mover[point]:
                left.append(point)
            else:
                lost += 1
    if len(left) == 1 and len(appeared) == 1:
        return f"{checker} moved from the {left[0]}-point to the {appeared[0]}-point"
    if left:
        return f"{checker} left the {left[0]}-point"
    if appeared:
        return f"{checker} appeared on the {appeared[0]}-point"
    if after[OFF] != before[OFF]:
        return f"{names.opponent}'s borne-off count changed"
    if sent_to_bar != lost:
        return f"{names.opponent}'s bar changed without a hit"
    return ""

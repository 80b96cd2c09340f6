"""Games, the doubling cube and matches: who won what, and which cube actions are allowed.

Pure values: :class:`CubeState` and :class:`MatchState` are frozen, and every action returns a
new state or raises :class:`~companion.errors.IllegalAction` with the rule in plain words.

* A game ends when a player has borne off all fifteen checkers. It is a gammon when the loser
  has borne off none, and a backgammon when, besides, a loser's checker is still on the bar or
  in the winner's home board (:func:`game_result`). The winner scores the result (1, 2 or 3)
  times the cube.
* The cube starts centred at 1. The player on roll may double before rolling if the cube is
  centred or theirs; the other player takes (and owns the cube at twice the value) or passes
  (and loses the game at the value before the double). Money games may allow beavers (the
  doubled player takes and at once redoubles, keeping the cube) and the Jacoby rule (gammons
  and backgammons count as single games while the cube has not been turned).
* A match is played to N points. The game right after a player first reaches N-1 is the
  Crawford game, in which nobody may double; the games after it are post-Crawford.
* The opening roll: each player rolls one die; the higher starts and plays both numbers; ties
  roll again (:func:`opening_roll`).

>>> match = MatchState.new_match(3).start_game(white_die=5, black_die=2)
>>> match.on_roll, match.dice
(<Colour.WHITE: 'white'>, (5, 2))
>>> match = match.end_turn().double(Colour.BLACK).take(Colour.WHITE)
>>> match.cube
CubeState(value=2, owner=<Colour.WHITE: 'white'>, offered_by=None)
>>> match = match.finish_game(Colour.WHITE, GameResult.SINGLE)
>>> match.white_score, match.crawford
(2, True)
>>> match.start_game(3, 1).double(Colour.WHITE)
Traceback (most recent call last):
...
companion.errors.IllegalAction: no doubling in the Crawford game
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum

from companion.errors import IllegalAction, InvalidFormat
from companion.rules import match_id
from companion.rules.match_id import (
    COLOUR_OF_PLAYER,
    PLAYER_OF_COLOUR,
    GameState,
    MatchIdState,
    Resignation,
)
from companion.rules.moves import check_dice
from companion.rules.position import BAR, CHECKERS_PER_SIDE, OFF, Colour, Position

MAX_CUBE = 1 << match_id.MAX_CUBE_LOG2  # the highest cube a Match ID can record


class GameResult(IntEnum):
    """How a game was won; the value is how many times the cube the winner scores."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


def result_name(result: GameResult) -> str:
    """The players' name of a result ("black wins a gammon")."""
    return {
        GameResult.SINGLE: "single game",
        GameResult.GAMMON: "gammon",
        GameResult.BACKGAMMON: "backgammon",
    }[result]


def game_result(position: Position) -> GameResult | None:
    """The result for the side that has borne off all fifteen, or ``None`` while play goes on.

    Usually called on the position right after the winning play, still seen from the winner;
    a position already flipped to the loser gives the same answer.

    >>> game_result(Position.from_points({}, {1: 14}))  # the loser has borne one off
    <GameResult.SINGLE: 1>
    >>> game_result(Position.from_points({}, {1: 15}))
    <GameResult.GAMMON: 2>
    >>> game_result(Position.from_points({}, {1: 14, 20: 1}))  # the winner's 5-point
    <GameResult.BACKGAMMON: 3>
    >>> game_result(Position.opening()) is None
    True
    """
    for winner, loser in ((position.mover, position.opponent), (position.opponent, position.mover)):
        if winner[OFF] == CHECKERS_PER_SIDE:
            if loser[OFF]:
                return GameResult.SINGLE
            # The winner's home board (their points 1-6) is the loser's points 19-24.
            if any(loser[point] for point in range(19, BAR + 1)):
                return GameResult.BACKGAMMON
            return GameResult.GAMMON
    return None


def opening_roll(white_die: int, black_die: int) -> Colour | None:
    """Who starts after each player rolls one die: the higher die, or ``None`` on a tie."""
    check_dice((white_die, black_die))
    if white_die == black_die:
        return None
    return Colour.WHITE if white_die > black_die else Colour.BLACK


@dataclass(frozen=True, slots=True)
class CubeState:
    """The doubling cube: its value, who owns it (``None`` = centred), and a pending double."""

    value: int = 1
    owner: Colour | None = None
    offered_by: Colour | None = None

    @property
    def is_centred(self) -> bool:
        return self.owner is None

    @property
    def was_turned(self) -> bool:
        """Whether anyone has doubled yet this game (what the Jacoby rule asks)."""
        return self.value > 1

    def double_refusal(self, player: Colour) -> str | None:
        """Why ``player`` may not double as far as the cube alone goes, or ``None``."""
        if self.offered_by is not None:
            return f"a double by {self.offered_by} is already waiting for a take or a pass"
        if self.owner is not None and self.owner is not player:
            return f"only the player who owns the cube may double, and {self.owner} owns it"
        if self.value * 2 > MAX_CUBE:
            return f"the cube cannot go past {MAX_CUBE}"
        return None

    def double(self, player: Colour) -> CubeState:
        reason = self.double_refusal(player)
        if reason:
            raise IllegalAction(reason)
        return replace(self, offered_by=player)

    def take(self, player: Colour) -> CubeState:
        """``player`` accepts the double: the cube doubles and is theirs."""
        self._check_answer(player, "take")
        return CubeState(value=self.value * 2, owner=player)

    def beaver(self, player: Colour) -> CubeState:
        """``player`` takes and at once redoubles: the cube is worth four times and stays theirs."""
        self._check_answer(player, "beaver")
        return CubeState(value=self.value * 4, owner=player)

    def _check_answer(self, player: Colour, action: str) -> None:
        if self.offered_by is None:
            raise IllegalAction(f"there is no double to {action}")
        if player is self.offered_by:
            raise IllegalAction(
                f"{player} offered the double, so only {player.opponent} may {action} it"
            )


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match (or a money session, ``length`` 0) between games or during one.

    ``on_roll`` is ``None`` between games, before the opening roll. ``dice`` is the roll of the
    player on roll, ``None`` before they roll. ``crawford`` says the current (or next) game is
    the Crawford game; ``post_crawford`` that the Crawford game has been played. ``jacoby`` and
    ``beavers`` are money-game options. ``games_played`` counts finished games.
    """

    length: int = 0
    white_score: int = 0
    black_score: int = 0
    crawford: bool = False
    post_crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube: CubeState = field(default_factory=CubeState)
    on_roll: Colour | None = None
    dice: tuple[int, int] | None = None
    games_played: int = 0

    def __post_init__(self) -> None:
        if self.length < 0 or self.white_score < 0 or self.black_score < 0:
            raise IllegalAction("the match length and the scores cannot be negative")
        if self.on_roll is None and (self.dice is not None or self.cube != CubeState()):
            raise IllegalAction("between games nobody has dice and the cube is centred at 1")
        if self.dice is not None and self.cube.offered_by is not None:
            raise IllegalAction("a double comes before the roll, not after it")
        if self.length and (self.jacoby or self.beavers):
            raise IllegalAction(
                "the Jacoby rule and beavers are for money games; a match has neither"
            )
        if not self.length and (self.crawford or self.post_crawford):
            raise IllegalAction("a money game has no Crawford game")
        at_match_point = self.length > 1 and self.length - 1 in (self.white_score, self.black_score)
        if at_match_point and not self.is_over and not (self.crawford or self.post_crawford):
            raise IllegalAction(
                f"at {self.white_score}-{self.black_score} in a {self.length}-point match a "
                "player is at match point, so this is the Crawford game or a game after it: "
                "set crawford or post_crawford"
            )
        if self.crawford and not at_match_point:
            raise IllegalAction("the Crawford game needs a player one point from winning")

    # -- starting ----------------------------------------------------------------------------

    @classmethod
    def new_match(cls, length: int) -> MatchState:
        """A match to ``length`` points at 0-0, before the first opening roll."""
        if length < 1:
            raise IllegalAction(f"a match is played to at least 1 point, not {length}")
        return cls(length=length)

    @classmethod
    def new_money_game(cls, *, jacoby: bool = True, beavers: bool = False) -> MatchState:
        """A money session: games without end, each scored on its own."""
        return cls(length=0, jacoby=jacoby, beavers=beavers)

    def start_game(self, white_die: int, black_die: int) -> MatchState:
        """The opening roll: the higher die starts and plays both numbers.

        Raises :class:`IllegalAction` on a tie (both roll again), during a game, or after the
        match is over.
        """
        if self.is_over:
            raise IllegalAction(f"the match is over: {self.winner} won it")
        if self.in_game:
            raise IllegalAction("a game is going on: finish it before the next opening roll")
        starter = opening_roll(white_die, black_die)
        if starter is None:
            raise IllegalAction(
                f"the opening roll is a tie ({white_die}-{black_die}): both players roll again"
            )
        roll = (max(white_die, black_die), min(white_die, black_die))
        return replace(self, cube=CubeState(), on_roll=starter, dice=roll)

    # -- questions ---------------------------------------------------------------------------

    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def in_game(self) -> bool:
        return self.on_roll is not None

    @property
    def winner(self) -> Colour | None:
        """The winner of the match once one player has reached the length."""
        if self.is_money:
            return None
        if self.white_score >= self.length:
            return Colour.WHITE
        if self.black_score >= self.length:
            return Colour.BLACK
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def score(self, player: Colour) -> int:
        return self.white_score if player is Colour.WHITE else self.black_score

    def away(self, player: Colour) -> int:
        """Points ``player`` still needs to win the match (0 in money play)."""
        return max(self.length - self.score(player), 0) if self.length else 0

    def double_refusal(self, player: Colour) -> str | None:
        """Why ``player`` may not double now, in plain words, or ``None`` when they may."""
        if self.is_over:
            return f"the match is over: {self.winner} won it"
        if self.on_roll is None:
            return "no game is going on: the opening roll comes first, and it cannot be doubled"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.cube.offered_by is None and player is not self.on_roll:
            return f"only the player on roll may double, and {self.on_roll} is on roll"
        if self.cube.offered_by is None and self.dice is not None:
            return "a double must come before rolling, and the dice are already rolled"
        return self.cube.double_refusal(player)

    def can_double(self, player: Colour) -> bool:
        return self.double_refusal(player) is None

    def points_for(self, result: GameResult) -> int:
        """What winning the current game with ``result`` scores, cube and Jacoby rule included."""
        if self.is_money and self.jacoby and not self.cube.was_turned:
            return self.cube.value
        return int(result) * self.cube.value

    # -- actions during a game ---------------------------------------------------------------

    def roll(self, dice: tuple[int, int]) -> MatchState:
        """The player on roll rolls ``dice``."""
        if self.on_roll is None:
            raise IllegalAction("no game is going on: the opening roll comes first")
        if self.cube.offered_by is not None:
            raise IllegalAction("the double must be taken or passed before anyone rolls")
        if self.dice is not None:
            raise IllegalAction(f"{self.on_roll} has already rolled {self.dice[0]}-{self.dice[1]}")
        return replace(self, dice=check_dice(dice))

    def end_turn(self) -> MatchState:
        """The player on roll has played their roll: the turn passes."""
        if self.on_roll is None or self.dice is None:
            raise IllegalAction("the turn can pass only after the player on roll has rolled")
        return replace(self, on_roll=self.on_roll.opponent, dice=None)

    def double(self, player: Colour) -> MatchState:
        reason = self.double_refusal(player)
        if reason:
            raise IllegalAction(reason)
        return replace(self, cube=self.cube.double(player))

    def take(self, player: Colour) -> MatchState:
        return replace(self, cube=self.cube.take(player))

    def beaver(self, player: Colour) -> MatchState:
        if not (self.is_money and self.beavers):
            raise IllegalAction("beavers are allowed only in money games played with beavers")
        return replace(self, cube=self.cube.beaver(player))

    def pass_double(self, player: Colour) -> MatchState:
        """``player`` passes (drops) the double and loses the game at the cube's current value."""
        offered_by = self.cube.offered_by
        if offered_by is None:
            raise IllegalAction("there is no double to pass")
        if player is offered_by:
            raise IllegalAction(
                f"{player} offered the double, so only {player.opponent} may pass it"
            )
        points = self.cube.value
        return self._after_game(offered_by, points)

    def finish_game(self, winner: Colour, result: GameResult) -> MatchState:
        """``winner`` bore off all fifteen for ``result``: score it, set up the next game."""
        if self.on_roll is None:
            raise IllegalAction("no game is going on, so none can be won")
        if self.cube.offered_by is not None:
            raise IllegalAction("the double must be taken or passed before the game can end")
        return self._after_game(winner, self.points_for(result))

    def _after_game(self, winner: Colour, points: int) -> MatchState:
        white = self.white_score + (points if winner is Colour.WHITE else 0)
        black = self.black_score + (points if winner is Colour.BLACK else 0)
        crawford, post_crawford = False, self.post_crawford or self.crawford
        if self.length and not post_crawford:
            # The game after a player first reaches match point (N-1) is the Crawford game.
            crawford = self.length - 1 in (white, black) and max(white, black) < self.length
        return replace(
            self,
            white_score=white,
            black_score=black,
            crawford=crawford,
            post_crawford=post_crawford,
            cube=CubeState(),
            on_roll=None,
            dice=None,
            games_played=self.games_played + 1,
        )


def to_match_id(state: MatchState) -> str:
    """The GNU Backgammon Match ID of ``state`` (white is GNU Backgammon's player 1).

    Scores past the match length (a gammon won at match point) are written as the length, the
    most a Match ID allows. In a match the Jacoby bit is written as GNU Backgammon's default
    (on), which has no meaning there.

    >>> to_match_id(MatchState.new_match(9))
    'MAAgAQAAAAAA'
    >>> match_id.decode(to_match_id(MatchState.new_match(9))).match_length
    9
    """
    cube = state.cube
    mover = state.on_roll if state.on_roll is not None else Colour.BLACK
    turn = cube.offered_by.opponent if cube.offered_by is not None else mover
    if state.is_over:
        game = GameState.OVER
    elif state.in_game:
        game = GameState.PLAYING
    else:
        game = GameState.NONE

    def capped(points: int) -> int:
        return min(points, state.length) if state.length else points

    return match_id.encode(
        MatchIdState(
            cube_value=cube.value,
            cube_owner=None if cube.owner is None else PLAYER_OF_COLOUR[cube.owner],
            player_on_roll=PLAYER_OF_COLOUR[mover],
            crawford=state.crawford,
            game_state=game,
            turn=PLAYER_OF_COLOUR[turn],
            double_offered=cube.offered_by is not None,
            dice=state.dice if state.dice is not None else (0, 0),
            match_length=state.length,
            score=(capped(state.black_score), capped(state.white_score)),
            jacoby=state.jacoby if state.is_money else True,
        )
    )


def from_match_id(text: str) -> MatchState:
    """The match a GNU Backgammon Match ID describes (white is GNU Backgammon's player 1).

    A pending resignation cannot be followed here and raises :class:`InvalidFormat`; a game
    ended by a resignation or a drop reads as the time between games. Beavers are not recorded
    in a Match ID and read as off. Post-Crawford is read as GNU Backgammon reads it: not the
    Crawford game while a player stands at match point.

    >>> from_match_id("QYkqASAAIAAA").cube
    CubeState(value=2, owner=<Colour.BLACK: 'black'>, offered_by=None)
    >>> to_match_id(from_match_id("QYkqASAAIAAA"))
    'QYkqASAAIAAA'
    """
    state = match_id.decode(text)
    if state.resignation is not Resignation.NONE:
        raise InvalidFormat(
            f"Match ID {text.strip()!r} has a resignation waiting for an answer, which this "
            "program does not follow: answer it in GNU Backgammon and copy the ID again"
        )
    playing = state.game_state is GameState.PLAYING
    mover = COLOUR_OF_PLAYER[state.player_on_roll]
    owner = None if state.cube_owner is None else COLOUR_OF_PLAYER[state.cube_owner]
    length = state.match_length
    black, white = state.score
    at_match_point = length > 1 and length - 1 in (white, black)
    return MatchState(
        length=length,
        white_score=white,
        black_score=black,
        crawford=state.crawford,
        post_crawford=not state.crawford and at_match_point,
        jacoby=state.jacoby and not length,
        cube=CubeState(
            value=state.cube_value,
            owner=owner,
            offered_by=mover if playing and state.double_offered else None,
        ),
        on_roll=mover if playing else None,
        dice=state.dice if playing and state.dice != (0, 0) else None,
    )

"""How boards, checkers and dice look: named styles a render picks from.

Colours are BGR tuples (OpenCV's order) in 0-255. A board style says what the playing surface,
the points, the frame and the table around the board look like; a checker set says what the two
colours of checkers and the dice look like. Styles and sets combine freely.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.errors import CompanionError
from companion.sim.shape import NO_MARGINS, Margins

BGR = tuple[int, int, int]
Surface = Literal["plain", "felt", "wood", "leather"]
CheckerLook = Literal["plain", "rings", "marbled", "logo"]
CHECKER_LOOKS: tuple[CheckerLook, ...] = ("plain", "rings", "marbled", "logo")
"""What is on a checker's top, as real sets come: a plain turned face with one groove;
concentric rings with a contrasting inlaid band (tournament checkers); marbled resin, polished;
an engraved logo or inlay in the middle."""


class UnknownStyle(CompanionError, ValueError):
    """A board style, checker set or lighting name the simulator does not know."""


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """The look of one board: field, the two point colours, frame, and the table it stands on."""

    name: str
    field: BGR
    field_surface: Surface
    point_a: BGR
    point_b: BGR
    point_surface: Surface
    frame: BGR
    frame_surface: Surface
    table: BGR
    table_surface: Surface
    stack: Literal["line", "layers"]
    """How players on this board usually stack more than five checkers."""
    margins: Margins = NO_MARGINS
    """The strips of field its maker left between the frame (and bar) and the points."""


@dataclass(frozen=True, slots=True)
class CheckerSet:
    """The two colours of checkers and the dice that come with them."""

    name: str
    white: BGR
    black: BGR
    white_rim: BGR
    black_rim: BGR
    die_body: BGR
    die_pip: BGR
    gloss: float
    """0 (matte) to 1 (polished): how strongly checkers and dice catch the light."""
    look: CheckerLook = "plain"
    """What is on the checkers' tops (see :data:`CHECKER_LOOKS`); a scene may ask for another."""


BOARD_STYLES: dict[str, BoardStyle] = {
    style.name: style
    for style in (
        BoardStyle(
            name="tournament-red",
            field=(222, 236, 240),
            field_surface="leather",
            point_a=(40, 34, 196),
            point_b=(32, 30, 30),
            point_surface="leather",
            frame=(28, 26, 26),
            frame_surface="leather",
            table=(120, 98, 70),
            table_surface="felt",
            stack="line",
            margins=Margins(frame=4.0, bar=3.0, edge=0.0),
        ),
        BoardStyle(
            name="tournament-cream",
            field=(206, 226, 234),
            field_surface="leather",
            point_a=(60, 90, 130),
            point_b=(44, 40, 40),
            point_surface="leather",
            frame=(40, 44, 52),
            frame_surface="leather",
            table=(70, 90, 110),
            table_surface="wood",
            stack="layers",
            margins=Margins(frame=10.0, bar=6.0, edge=5.0),
        ),
        BoardStyle(
            name="green-felt",
            field=(68, 118, 52),
            field_surface="felt",
            point_a=(70, 100, 190),
            point_b=(200, 210, 214),
            point_surface="felt",
            frame=(40, 80, 120),
            frame_surface="wood",
            table=(150, 150, 155),
            table_surface="plain",
            stack="layers",
            margins=Margins(frame=12.0, bar=8.0, edge=10.0),
        ),
        BoardStyle(
            name="wood",
            field=(52, 104, 158),
            field_surface="wood",
            point_a=(214, 226, 232),
            point_b=(26, 24, 24),
            point_surface="plain",
            frame=(26, 62, 104),
            frame_surface="wood",
            table=(190, 196, 200),
            table_surface="plain",
            stack="line",
            margins=Margins(frame=6.0, bar=4.0, edge=4.0),
        ),
        BoardStyle(
            name="black-red",
            field=(38, 36, 36),
            field_surface="leather",
            point_a=(44, 44, 170),
            point_b=(190, 196, 200),
            point_surface="leather",
            frame=(30, 30, 32),
            frame_surface="leather",
            table=(96, 120, 140),
            table_surface="wood",
            stack="line",
        ),
    )
}

CHECKER_SETS: dict[str, CheckerSet] = {
    checkers.name: checkers
    for checkers in (
        CheckerSet(
            name="white-black",
            white=(236, 238, 240),
            black=(34, 32, 32),
            white_rim=(205, 208, 212),
            black_rim=(60, 58, 58),
            die_body=(238, 240, 242),
            die_pip=(25, 25, 25),
            gloss=0.7,
            look="rings",
        ),
        CheckerSet(
            name="ivory-red",
            white=(196, 226, 238),
            black=(34, 26, 132),
            white_rim=(168, 200, 216),
            black_rim=(24, 18, 96),
            die_body=(40, 36, 170),
            die_pip=(235, 238, 240),
            gloss=0.8,
            look="marbled",
        ),
        CheckerSet(
            name="gold-white",
            white=(240, 242, 244),
            black=(46, 146, 196),
            white_rim=(210, 214, 218),
            black_rim=(28, 110, 160),
            die_body=(236, 238, 240),
            die_pip=(30, 30, 30),
            gloss=0.9,
            look="rings",
        ),
    )
}

EXTRA_BOARD_STYLES: dict[str, BoardStyle] = {
    style.name: style
    for style in (
        BoardStyle(
            name="olive-felt",
            field=(96, 150, 150),
            field_surface="felt",
            point_a=(40, 40, 40),
            point_b=(200, 210, 215),
            point_surface="felt",
            frame=(60, 110, 150),
            frame_surface="wood",
            table=(90, 70, 60),
            table_surface="felt",
            stack="line",
            margins=Margins(frame=12.0, bar=8.0, edge=8.0),
        ),
        BoardStyle(
            name="beige-brown",
            field=(176, 200, 208),
            field_surface="leather",
            point_a=(30, 30, 30),
            point_b=(80, 120, 150),
            point_surface="leather",
            frame=(40, 56, 70),
            frame_surface="leather",
            table=(120, 70, 50),
            table_surface="felt",
            stack="layers",
            margins=Margins(frame=8.0, bar=6.0, edge=4.0),
        ),
        BoardStyle(
            name="walnut",
            field=(36, 70, 120),
            field_surface="wood",
            point_a=(150, 190, 215),
            point_b=(20, 34, 60),
            point_surface="wood",
            frame=(24, 50, 90),
            frame_surface="wood",
            table=(235, 238, 240),
            table_surface="plain",
            stack="line",
            margins=Margins(frame=5.0, bar=5.0, edge=3.0),
        ),
        BoardStyle(
            name="grey-blue",
            field=(150, 150, 145),
            field_surface="leather",
            point_a=(140, 80, 40),
            point_b=(230, 232, 235),
            point_surface="leather",
            frame=(50, 50, 52),
            frame_surface="leather",
            table=(60, 100, 60),
            table_surface="felt",
            stack="line",
            margins=Margins(frame=15.0, bar=10.0, edge=12.0),
        ),
    )
}
"""More boards, drawn only when a scene asks for variety (``vary=True``) or names one: kept
apart from :data:`BOARD_STYLES` so that a seed picks the same style as it always has."""

EXTRA_CHECKER_SETS: dict[str, CheckerSet] = {
    checkers.name: checkers
    for checkers in (
        CheckerSet(
            name="red-black",
            white=(44, 44, 190),
            black=(30, 28, 28),
            white_rim=(30, 30, 150),
            black_rim=(56, 54, 54),
            die_body=(236, 238, 240),
            die_pip=(30, 30, 30),
            gloss=0.6,
            look="marbled",
        ),
        CheckerSet(
            name="cream-brown",
            white=(190, 222, 236),
            black=(36, 62, 104),
            white_rim=(160, 196, 214),
            black_rim=(24, 44, 78),
            die_body=(230, 236, 240),
            die_pip=(40, 30, 30),
            gloss=0.5,
            look="logo",
        ),
    )
}
"""Checker sets drawn only with ``vary=True`` or when named."""

LIGHTINGS = ("even", "lamp", "dim", "glare")
Lighting = Literal["even", "lamp", "dim", "glare"]


def board_style(name: str) -> BoardStyle:
    """The board style called ``name``; raises :class:`UnknownStyle` listing the choices."""
    try:
        return BOARD_STYLES[name] if name in BOARD_STYLES else EXTRA_BOARD_STYLES[name]
    except KeyError:
        names = ", ".join([*BOARD_STYLES, *EXTRA_BOARD_STYLES])
        raise UnknownStyle(f"unknown board style {name!r}: choose one of {names}") from None


def checker_set(name: str) -> CheckerSet:
    """The checker set called ``name``; raises :class:`UnknownStyle` listing the choices."""
    try:
        return CHECKER_SETS[name] if name in CHECKER_SETS else EXTRA_CHECKER_SETS[name]
    except KeyError:
        names = ", ".join([*CHECKER_SETS, *EXTRA_CHECKER_SETS])
        raise UnknownStyle(f"unknown checker set {name!r}: choose one of {names}") from None


def check_lighting(name: str) -> Lighting:
    """``name`` as a lighting, or :class:`UnknownStyle` listing the choices."""
    for lighting in LIGHTINGS:
        if name == lighting:
            return lighting  # type: ignore[return-value]
    raise UnknownStyle(f"unknown lighting {name!r}: choose one of {', '.join(LIGHTINGS)}")


def check_checker_look(name: str) -> CheckerLook:
    """``name`` as a checker look, or :class:`UnknownStyle` listing the choices."""
    for look in CHECKER_LOOKS:
        if name == look:
            return look
    raise UnknownStyle(f"unknown checker look {name!r}: choose one of {', '.join(CHECKER_LOOKS)}")

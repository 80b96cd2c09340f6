"""What gave frames away as renders, checked one by one: soft shadows under a desk lamp, no
pool of light, black frames whose walls were a black band, a forearm pushed into its sleeve,
and the board's outline stepped into stairs against the table. All but the sleeve are the
photo looks (``Scene.photo``), off by default until the board finder reads them."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import Frame, lighting, occluders, random_scene, render, walls
from companion.sim import board as board_model
from companion.sim.board import Orientation
from companion.sim.camera import CameraSpec, make_camera
from companion.sim.scene import PHOTO_LOOKS, Scene
from companion.sim.shape import CANONICAL_SHAPE
from tests.sim_helpers import EMPTY


def _ramp_px(light: lighting.Light) -> int:
    """How many shadow-map pixels lie in the soft edge (10-90% coverage) of the shadow a
    16 mm box standing in the middle of the board casts under ``light``."""
    camera = make_camera(CameraSpec(size=(1280, 720)))
    x, y = board_model.CENTRE_X, board_model.CENTRE_Y
    top = np.array([(x + dx, y + dy, 16.0) for dx in (-8, 8) for dy in (-8, 8)])
    foot = top.copy()
    foot[:, 2] = 0.0
    cast = lighting.cast_shadow(top, 0.0, light.direction_at(x, y), 0.3)
    coverage = lighting.shadow_map(camera, [np.concatenate([foot, cast])], light.shadow_blur_mm)
    return int(np.count_nonzero((coverage > 0.1) & (coverage < 0.9)))


def test_a_desk_lamps_shadows_are_dark_and_hard_edged() -> None:
    """One small bulb leaves a penumbra of a millimetre or so; an even room light a wide one."""
    for seed in range(4):
        lamp = lighting.make_light("lamp", np.random.default_rng(seed), shaded=True)
        even = lighting.make_light("even", np.random.default_rng(seed), shaded=True)
        assert _ramp_px(lamp) < 0.6 * _ramp_px(even)
        assert lamp.shadow_strength > even.shadow_strength + 0.15
        # a hand keeps off more light than a checker: its shadow is darker still
        assert occluders.shadow_strength(lamp.shadow_strength) > lamp.shadow_strength + 0.1


def test_a_shaded_lamp_throws_a_pool_of_light_on_the_board() -> None:
    """Under a desk lamp the board's middle is lit and its far corners fall into dusk, more
    than the plain fall-off with distance from the bulb gives; an even light has no pool."""
    camera = make_camera(CameraSpec(size=(640, 360)))
    centre = (board_model.CENTRE_X, board_model.CENTRE_Y)
    lamp = lighting.make_light("lamp", np.random.default_rng(5), centre, shaded=True)
    assert lamp.aim == centre
    assert lighting.make_light("even", np.random.default_rng(5), centre, shaded=True).aim is None
    corners = camera.project_undistorted(
        np.column_stack([board_model.outline(CANONICAL_SHAPE), np.zeros(4)])
    )
    middle = camera.project_undistorted(np.array([[*centre, 0.0]]))[0]

    def darkest_corner_ratio(light: lighting.Light) -> float:
        gains = lighting.gain_field(light, camera).astype(float).mean(axis=2)
        at_middle = float(gains[round(middle[1]), round(middle[0])])
        return min(float(gains[round(v), round(u)]) for u, v in corners) / at_middle

    no_shade = replace(lamp, aim=None)
    assert darkest_corner_ratio(lamp) < darkest_corner_ratio(no_shade) - 0.05


def _black_board_lit_evenly(camera: CameraSpec, seed: int = 0) -> tuple[Frame, Orientation]:
    """An empty black-framed board with the photo looks, in even light and without noise."""
    scene = Scene(
        EMPTY,
        camera=camera,
        lighting="even",
        noise=0.0,
        style="tournament-red",
        seed=seed,
        photo=True,
    )
    return render(scene), Orientation(scene.white_home, CANONICAL_SHAPE)


def test_a_black_frames_walls_show_their_sheen_and_a_lit_top_edge() -> None:
    """A black board's walls reflect the room: seen from a tilted camera they are lighter than
    the black frame's top, and their rounded top edge is lighter than their middle."""
    frame, orientation = _black_board_lit_evenly(CameraSpec(tilt=30, size=(1280, 720)))
    assert _shining_walls(frame, orientation, range(walls.HALF_WALLS)) >= 1


def test_a_black_boards_trays_have_walls_that_shine_as_the_playing_halves_do() -> None:
    """The trays' walls are the same leather or wood as the halves': on a black board they
    were a black band no photograph shows, now they show the sheen and the lit top edge."""
    frame, orientation = _black_board_lit_evenly(CameraSpec(tilt=30, size=(1280, 720)))
    trays = range(walls.HALF_WALLS, len(walls._walls_in_world(orientation, CANONICAL_SHAPE)))
    assert _shining_walls(frame, orientation, trays) >= 1


def _rim_lift(photo: bool) -> list[float]:
    """On an empty black board (black field in a black frame) seen from a tilted camera in even
    light, for each end wall (across the board) turned from the camera, how much lighter the
    frame's inner edge above it is than the frame's top 8 mm behind it and the field 8 mm in
    front of it."""
    scene = Scene(
        EMPTY,
        camera=CameraSpec(tilt=30, size=(1280, 720)),
        lighting="even",
        noise=0.0,
        style="black-red",
        seed=0,
        photo=photo,
    )
    frame = render(scene)
    orientation = Orientation(scene.white_home, CANONICAL_SHAPE)
    image = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(float)

    def around(world: np.ndarray, size: int) -> np.ndarray:
        u, v = frame.camera.project_undistorted(np.array([world]))[0]
        return image[round(v) - size : round(v) + size + 1, round(u) - size : round(u) + size + 1]

    lifts = []
    for wall in walls._walls_in_world(orientation, CANONICAL_SHAPE):
        world, normal = wall
        if walls._faces_camera(wall, frame.camera.position) or abs(normal[0]) < 0.9:
            continue  # (the long walls have the points' bases in front of them)
        middle = world[:, :2].mean(axis=0)
        edge = float(around(np.array([*middle, board_model.FRAME_HEIGHT]), 1).max())
        lid = around(np.array([*(middle - normal * 8.0), board_model.FRAME_HEIGHT]), 1).mean()
        field = around(np.array([*(middle + normal * 8.0), 0.0]), 1).mean()
        lifts.append(edge - max(float(lid), float(field)))
    return lifts


def test_the_frames_inner_edges_catch_the_light_round_every_hole() -> None:
    """The frame's rounded inner edge shows as a thin light line round each half and tray,
    also where the camera sees no wall below it (the wall is turned away): on a black board
    the holes are outlined as on real ones. Without the photo look the edge is as dark as the
    frame and the field beside it."""
    lifts = _rim_lift(photo=True)
    assert len(lifts) >= 3
    assert min(lifts) > 5.0
    assert max(_rim_lift(photo=False)) < 3.0


def _shining_walls(frame: Frame, orientation: Orientation, which: range) -> int:
    """How many of the walls ``which`` (indices in :func:`walls._walls_in_world`) that face
    the camera squarely enough to sample were seen lighter than the black frame's top beside
    them, with a rounded top edge lighter still; fails at the first that was not."""
    image = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(float)
    seen = 0
    for index, wall in enumerate(walls._walls_in_world(orientation, CANONICAL_SHAPE)):
        world, normal = wall
        if index not in which or not walls._faces_camera(wall, frame.camera.position):
            continue
        middle = world[:, :2].mean(axis=0)
        top, foot = frame.camera.project_undistorted(
            np.array([[*middle, board_model.FRAME_HEIGHT], [*middle, 0.0]])
        )
        if abs(normal[1]) < 0.9 or foot[1] - top[1] < 8.0:
            continue  # a side wall, or seen nearly edge-on: too thin to sample
        seen += 1
        column = image[round(top[1]) : round(foot[1]) + 1, round(top[0])]
        upper, lower = column[: len(column) // 3], column[len(column) // 3 :]
        behind = middle - normal * 8.0
        (u, v) = frame.camera.project_undistorted(np.array([[*behind, board_model.FRAME_HEIGHT]]))[
            0
        ]
        lid = float(image[round(v) - 1 : round(v) + 2, round(u) - 1 : round(u) + 2].mean())
        assert float(np.median(lower)) > lid + 3.0, index
        assert float(upper.max()) > float(np.median(lower)) + 6.0, index
    return seen


def _outline_2d(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    angles = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    points = np.concatenate([c[:2] + r * ring for c, r in zip(centres, radii, strict=True)])
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)


def test_the_forearm_comes_out_of_the_sleeve() -> None:
    """The sleeve is drawn over the forearm and its rounded opening bulges toward the hand:
    along the arm's middle the cloth reaches nearer the wrist than at its sides (a forearm's
    round end drawn over the sleeve looked pushed into it)."""
    hand = occluders.Hand(
        x=250.0,
        y=200.0,
        from_x=250.0,
        from_y=g.PLAY_HEIGHT + 500.0,
        height=60.0,
        skin=occluders.SKIN_TONES[1],
        sleeve=occluders.SLEEVES[0],
        spread=0.04,
    )
    parts = occluders.parts(hand)
    colours = [colour for _, _, colour in parts]
    forearm, sleeve = colours.index(hand.skin), colours.index(hand.sleeve)
    assert forearm < sleeve  # drawn first, so the sleeve covers it
    outline = _outline_2d(*parts[sleeve][:2])
    width = float(parts[forearm][1].min())

    def cloth_starts(offset: float) -> float:
        """How far from the fingertips (mm, toward the shoulder) the sleeve begins at
        ``offset`` mm across the arm."""
        for distance in np.arange(0.0, 600.0, 0.5):
            point = (hand.x + offset, hand.y + distance)
            if cv2.pointPolygonTest(outline, point, False) >= 0:
                return float(distance)
        raise AssertionError("no sleeve along the arm")

    assert cloth_starts(0.0) < cloth_starts(0.6 * width) - 3.0
    assert cloth_starts(0.0) < cloth_starts(-0.6 * width) - 3.0


def test_the_boards_outline_is_smooth_against_the_table() -> None:
    """The far edge of a slightly turned board crosses the pixel rows smoothly (antialiased),
    not in stairs: where the edge crosses each column lies on a straight line to a small
    fraction of a pixel."""
    frame, orientation = _black_board_lit_evenly(CameraSpec(rotation=2.0, size=(1280, 720)), seed=1)
    outline = orientation.to_world_array(board_model.outline(CANONICAL_SHAPE))
    rim = frame.camera.project_undistorted(
        np.column_stack([outline, np.full(4, board_model.FRAME_HEIGHT)])
    )
    top = sorted(rim, key=lambda p: p[1])[:2]
    (u0, v0), (u1, v1) = sorted(top, key=lambda p: p[0])
    image = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(float)
    columns, crossings = [], []
    for u in range(round(u0) + 60, round(u1) - 60, 3):
        v = v0 + (v1 - v0) * (u - u0) / (u1 - u0)
        rows = np.arange(round(v) - 6, round(v) + 7)
        profile = image[rows, u]
        outside, inside = profile[:3].mean(), profile[-3:].mean()
        if abs(outside - inside) < 30:
            continue  # not enough contrast here (the table's texture)
        level = (outside + inside) / 2
        for i in range(len(rows) - 1):
            a, b = profile[i] - level, profile[i + 1] - level
            if a * b <= 0 and a != b:
                columns.append(u)
                crossings.append(rows[i] + a / (a - b))
                break
    assert len(columns) > 100
    fit = np.polyfit(columns, crossings, 1)
    residual = np.array(crossings) - np.polyval(fit, columns)
    assert float(np.std(residual)) < 0.15


def test_the_photo_looks_change_nothing_else_and_are_off_by_default() -> None:
    """A scene that does not ask for the photo looks is drawn as before them (the light's
    draws are the same either way, so every other choice of a seed stays), and asking for
    them changes the pixels but not the truth, beyond the light's pool and fall-off it
    records."""
    board = Position.opening().to_absolute("white")
    plain = render(random_scene(11, board, lighting="lamp", tilt=25, size=(640, 360)))
    photo = render(random_scene(11, board, lighting="lamp", tilt=25, size=(640, 360), photo=True))
    assert PHOTO_LOOKS is False
    photo_light = dict(photo.truth["lighting"])  # type: ignore[call-overload]
    assert min(photo_light.pop("pool")["depth"], photo_light.pop("surround")["depth"]) > 0
    assert {**photo.truth, "lighting": photo_light} == plain.truth
    assert not np.array_equal(plain.image, photo.image)
    for kind in ("even", "lamp", "dim", "glare"):
        a = lighting.make_light(kind, np.random.default_rng(3))  # type: ignore[arg-type]
        b = lighting.make_light(kind, np.random.default_rng(3), shaded=True)  # type: ignore[arg-type]
        assert (a.lamp == b.lamp).all() and a.exposure == b.exposure and a.noise == b.noise

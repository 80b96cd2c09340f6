"""Details that gave frames away as renders, checked one by one: checkers outlined in dark
(a real checker's edge is its bevel catching the light), tables of one even colour (real ones
show planks or a cloth's weave, and fall off in light away from the board), hands washed out
by the board's glare, and skin without veins or hairs.

All are photo looks (``Scene.photo``, ``companion render --photo``): default frames keep the
old look, so no reading of the vision code moves; each test shows the default too."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from companion.sim import CameraSpec, Checkers, Scene, lighting, occluders, render
from companion.sim import board as board_model
from companion.sim.board import Orientation
from companion.sim.camera import make_camera
from companion.sim.checkers import RADIUS, THICKNESS, CheckerPlacement, _relief, draw_checker
from companion.sim.shape import CANONICAL_SHAPE
from companion.sim.styles import CHECKER_SETS
from tests.sim_helpers import EMPTY

ONE_WHITE = Checkers(
    (0,) * 12 + (1,) + (0,) * 11, {"white": 0, "black": 0}, {"white": 14, "black": 15}
)
"""One white checker on white's 13-point, the rest borne off: a checker alone."""


def _edge_to_face(photo: bool) -> float:
    """How bright a lone white checker's outermost ring (95-100% of its radius) is against its
    face (inside 50%), straight overhead under an even light."""
    scene = Scene(
        ONE_WHITE,
        camera=CameraSpec(tilt=0, size=(1280, 720)),
        lighting="even",
        noise=0.0,
        style="tournament-red",
        checker_look="plain",
        seed=4,
        photo=photo,
    )
    frame = render(scene)
    checker = next(c for c in frame.checkers if c.point == 13)
    orientation = Orientation(scene.white_home, scene.shape)
    wx, wy = orientation.to_world(checker.x, checker.y)
    top = checker.base + THICKNESS
    centre, rim = frame.camera.project(np.array([[wx, wy, top], [wx + RADIUS, wy, top]]))
    radius_px = float(np.hypot(*(rim - centre)))
    grey = frame.image.astype(float).mean(axis=2)
    rows, cols = np.mgrid[0 : grey.shape[0], 0 : grey.shape[1]]
    r = np.hypot(cols - centre[0], rows - centre[1])
    ring = grey[(r > 0.95 * radius_px) & (r <= radius_px)]
    face = grey[r < 0.5 * radius_px]
    return float(ring.mean() / face.mean())


def test_a_white_checkers_edge_is_no_dark_outline_in_the_photo_look() -> None:
    """Under an even light a white checker's edge (bevel and the band of its side) is nearly
    as bright as its face in the photo look; the default keeps the grey ring round every
    checker that the vision code was tuned on."""
    assert _edge_to_face(photo=True) > 0.82
    assert _edge_to_face(photo=False) < 0.8


def _rim_across(photo: bool) -> tuple[float, float]:
    """A white checker standing on edge, as in the tray, right under a camera looking straight
    down, lit from nearly overhead: the brightness of its rim on top (where it faces up) and
    on a flank (20 degrees above the surface it stands on)."""
    camera = make_camera(CameraSpec(tilt=0, size=(640, 360), focal=4000.0))  # close up
    orientation = Orientation("bottom-right", CANONICAL_SHAPE)
    x, y = board_model.CENTRE_X, board_model.CENTRE_Y
    checker = CheckerPlacement("white", "off", 0, x, y, 0.0, 0, on_edge=True)
    image = np.full((360, 640, 3), 90, np.uint8)
    light = np.array([0.2, 0.1, 1.0]) / np.linalg.norm([0.2, 0.1, 1.0])
    draw_checker(
        image, camera, checker, orientation, CHECKER_SETS["white-black"], light, None, photo
    )
    wx, wy = orientation.to_world(x, y)
    angles = np.radians([90.0, 20.0])
    world = np.column_stack(
        [wx + RADIUS * np.cos(angles), np.full(2, wy), RADIUS + RADIUS * np.sin(angles)]
    )
    grey = image.astype(float).mean(axis=2)
    (top_u, top_v), (flank_u, flank_v) = camera.project(world)
    return float(grey[round(top_v), round(top_u)]), float(grey[round(flank_v), round(flank_u)])


def test_a_borne_off_checkers_rim_is_lit_as_a_cylinder_in_the_photo_look() -> None:
    """A checker standing on edge in the tray shows a rounded rim: brightest on top, where it
    faces the light from above, darker down its flanks. The default draws it in flat greys
    that know nothing of the light (no brighter on top)."""
    top, flank = _rim_across(photo=True)
    assert top > 1.15 * flank
    top, flank = _rim_across(photo=False)
    assert top < 1.05 * flank


def _bevel_sides(elevation_bin: int, photo: bool) -> tuple[float, float, float]:
    """The bevel's brightness toward a lamp at +x and away from it, and the face's."""
    bevel, _, shade, sheen, _ = _relief("plain", 0, elevation_bin, photo)
    middle = bevel.shape[0] // 2
    lit = (shade * 200 + sheen * 255)[middle]
    on_bevel = lit[bevel[middle] > 0.5]
    half = len(on_bevel) // 2
    return float(on_bevel[half:].mean()), float(on_bevel[:half].mean()), float(lit[middle])


def test_a_checkers_bevel_catches_the_light_in_the_photo_look() -> None:
    """Lit from nearly overhead, a checker's bevel all round is nearly as bright as its face
    (it mirrors the bright room); under a low lamp the side away from it still falls into
    shade. Without the photo look the bevel is darker than that all round."""
    toward, away, face = _bevel_sides(8, photo=True)
    assert min(toward, away) > 0.795 * face
    toward, away, face = _bevel_sides(8, photo=False)
    assert min(toward, away) < 0.78 * face
    toward, away, _ = _bevel_sides(3, photo=True)
    assert toward > away + 100


def _seams(photo: bool) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """The rows where a wooden table (colour of the ``wood`` style's) has a seam: a row darker
    than the rows a few pixels either side of it."""
    table = board_model.table_texture((70, 90, 110), "wood", (640, 720), photo=photo)
    rows = table.astype(float).mean(axis=(1, 2))
    around = np.array([np.median(rows[max(i - 8, 0) : i + 9]) for i in range(len(rows))])
    seams = np.nonzero(rows < 0.93 * around)[0]
    return seams[np.diff(np.concatenate([[-10], seams])) > 3], rows


def test_a_wooden_table_shows_planks_in_the_photo_look() -> None:
    """A wooden table seen whole is planks of their own tones parted by dark seams, 110-190
    pixels apart, not one piece of even grain (which the default keeps)."""
    starts, rows = _seams(photo=True)
    assert len(starts) >= 3
    assert np.all(np.diff(starts) >= 100) and np.all(np.diff(starts) <= 200)
    planks = [rows[a + 10 : b - 10].mean() for a, b in itertools.pairwise(starts)]
    assert max(planks) - min(planks) > 1.0
    assert len(_seams(photo=False)[0]) == 0


def test_varied_wooden_tables_show_planks_across_or_along_the_frame() -> None:
    """A varied frame's wooden table (``Scene.vary``'s cached patterns) shows planks too in the
    photo look: across the frame for odd variants, along it for even ones."""
    across = board_model.table_pattern("wood", (320, 480), 1, True).astype(float)
    along = board_model.table_pattern("wood", (320, 480), 0, True).astype(float)
    # planks make one direction's averages vary far more than the other's
    assert across.mean(axis=1).std() > 2 * across.mean(axis=0).std()
    assert along.mean(axis=0).std() > 2 * along.mean(axis=1).std()
    plain = board_model.table_pattern("wood", (320, 480), 1).astype(float)
    assert plain.mean(axis=1).std() < across.mean(axis=1).std() / 2


def _weave_strength(photo: bool) -> float:
    cloth = board_model.table_texture((150, 150, 155), "plain", (300, 300), photo=photo)
    line = cloth[100, :, 1].astype(float)
    spectrum = np.abs(np.fft.rfft(line - line.mean()))
    return float(spectrum[round(300 / 3)] / np.median(spectrum[20:]))


def test_a_cloth_on_the_table_shows_its_weave_in_the_photo_look() -> None:
    """A tablecloth has a fine regular weave: its brightness repeats every 3 pixels."""
    assert _weave_strength(photo=True) > 3
    assert _weave_strength(photo=False) < 2


def test_the_table_falls_off_in_light_away_from_the_board() -> None:
    """The table by the board is lit as the board; far from it, darker by the fall-off drawn
    from the light's seed."""
    outline = board_model.outline()
    board_box = (outline[0, 0], outline[0, 1], outline[2, 0], outline[2, 1])
    surround = lighting.random_surround(np.random.default_rng([8, 19]), board_box)
    assert surround == lighting.random_surround(np.random.default_rng([8, 19]), board_box)
    assert 0.2 <= surround.depth <= 0.45
    camera = make_camera(CameraSpec(tilt=0, size=(1280, 720), height=1400))
    made = lighting.make_light("even", np.random.default_rng([8, 3]))
    plain = lighting.gain_field(made, camera).astype(float).mean(axis=2)
    fading = lighting.gain_field(replace(made, surround=surround), camera).astype(float)
    ratio = fading.mean(axis=2) / plain
    board_px = camera.project(np.array([[*outline.mean(axis=0), 0.0]]))[0]
    assert ratio[round(board_px[1]), round(board_px[0])] == pytest.approx(1.0, abs=0.02)
    assert ratio[5, 5] < 0.9 and ratio[-5, -5] < 0.9


def _lights_and_covers(monkeypatch: pytest.MonkeyPatch, *scenes: Scene) -> list[Any]:
    """The light and the hand's cover (``above``) each scene's render hands the camera."""
    seen: list[Any] = []
    finish = lighting.finish

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append((args[1], kwargs.get("above")))
        return finish(*args, **kwargs)

    monkeypatch.setattr(lighting, "finish", spy)
    for scene in scenes:
        render(scene)
    return seen


def test_a_photo_frames_table_falls_off_as_its_light_seed_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fall-off is a photo look drawn from the light's seed (``TABLE_KEY``): the same light
    seed gives the same fall-off (a sequence keeps it), and a default frame has none."""
    small = CameraSpec(tilt=0, size=(320, 180))
    (photo, _), (again, _), (other, _), (default, _) = _lights_and_covers(
        monkeypatch,
        Scene(EMPTY, camera=small, seed=3, light_seed=8, photo=True),
        Scene(EMPTY, camera=small, seed=4, light_seed=8, photo=True),
        Scene(EMPTY, camera=small, seed=3, light_seed=9, photo=True),
        Scene(EMPTY, camera=small, seed=3, light_seed=8),
    )
    assert photo.surround is not None and 0.2 <= photo.surround.depth <= 0.45
    assert 150 <= photo.surround.reach_mm <= 320
    assert again.surround == photo.surround != other.surround
    assert default.surround is None
    assert replace(photo, surround=None).to_json() == default.to_json()


def test_a_photo_frames_truth_tells_how_its_light_falls_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The truth of a photo frame records the table's fall-off and the shaded lamp's pool of
    light, enough to rebuild the very light the frame was drawn in; a default frame's truth
    has neither (it stays as it was)."""
    small = CameraSpec(tilt=0, size=(320, 180))
    scenes = [
        Scene(EMPTY, camera=small, seed=3, lighting=kind, photo=photo)  # type: ignore[arg-type]
        for kind in ("lamp", "even")
        for photo in (True, False)
    ]
    lights = [light for light, _ in _lights_and_covers(monkeypatch, *scenes)]
    truths = [render(scene).truth["lighting"] for scene in scenes]
    lamp_photo, lamp_default, even_photo, even_default = truths
    for light, told in ((lights[0], lamp_photo), (lights[2], even_photo)):
        surround, drawn = told["surround"], light.surround  # type: ignore[index]
        assert surround["board_mm"] == pytest.approx(drawn.board, abs=0.05)
        assert surround["depth"] == pytest.approx(drawn.depth, abs=5e-4)
        assert surround["reach_mm"] == pytest.approx(drawn.reach_mm, abs=0.05)
    assert lamp_photo["pool"] == {  # type: ignore[index]
        "aim_mm": [round(v, 1) for v in lights[0].aim],
        "depth": lighting.POOL_DEPTH,
        "radius_mm": lighting.POOL_RADIUS_MM,
    }
    assert "pool" not in even_photo  # an even light has no shade
    for default in (lamp_default, even_default):
        assert "surround" not in default and "pool" not in default  # type: ignore[operator]


def test_the_boards_glare_never_lies_on_a_hand_over_it() -> None:
    """The glare is the lamp mirrored in the board's gloss: where a hand covers the board,
    the camera sees the hand as it would without the glare."""
    camera = make_camera(CameraSpec(size=(320, 180)))
    glare = lighting.make_light("glare", np.random.default_rng(2))
    image = np.full((180, 320, 3), 120, np.uint8)
    above = np.zeros((180, 320), np.uint8)
    above[40:140, 100:220] = 255
    shone = lighting.finish(image, glare, camera, np.random.default_rng(1), None, 0.0)
    covered = lighting.finish(image, glare, camera, np.random.default_rng(1), None, 0.0, above)
    bare = lighting.finish(
        image, replace(glare, glare=0.0), camera, np.random.default_rng(1), None, 0.0
    )
    inside = (slice(50, 130), slice(110, 210))
    assert np.abs(covered[inside].astype(int) - bare[inside].astype(int)).max() <= 1
    assert shone[inside].mean() > bare[inside].mean() + 5
    assert np.array_equal(covered[:30], shone[:30])


@pytest.mark.parametrize("photo", [True, False])
def test_a_photo_frame_keeps_the_glare_off_its_hand(
    photo: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A photo frame hands the camera how much the hand covers each pixel (full on the hand,
    nothing far from it); a default frame draws the glare as before, over everything."""
    scene = Scene(
        EMPTY,
        camera=CameraSpec(size=(320, 180)),
        lighting="glare",
        hand="over",
        seed=5,
        photo=photo,
    )
    ((_, above),) = _lights_and_covers(monkeypatch, scene)
    frame = render(scene)
    if not photo:
        assert above is None
        return
    assert frame.hand_mask is not None and not frame.camera.distorted
    assert above.shape == frame.hand_mask.shape
    assert np.count_nonzero(above == 255) > 100
    # the hand's edge is soft: a pixel or two beyond its mask it still covers a little
    near = cv2.dilate(frame.hand_mask, np.ones((7, 7), np.uint8))
    assert np.all(above[near == 0] == 0)


def _reaching_hand() -> tuple[occluders.Hand, Any, Orientation]:
    camera = make_camera(CameraSpec(size=(1280, 720)))
    orientation = Orientation("bottom-right", CANONICAL_SHAPE)
    hand = occluders.Hand(
        200.0, 60.0, 200.0, 900.0, 50.0, occluders.SKIN_TONES[0], occluders.SLEEVES[0], 0.03
    )
    return hand, camera, orientation


def test_a_bare_forearm_shows_fine_hairs_and_fewer_past_the_wrist() -> None:
    """Short dark streaks lie on the forearm, a quarter as many on the back of the hand."""
    hand, camera, orientation = _reaching_hand()
    grid = occluders._ShadingGrid((720, 1280), camera, orientation, (0, 0), 1)
    hairs = occluders._hairs(grid, hand)
    assert hairs.max() <= 1.0 and hairs.min() < 1.0 - 0.5 * occluders.HAIR_DARKNESS
    tip, wrist = camera.project_undistorted(
        np.array([[*orientation.to_world(200.0, y), 50.0] for y in (60.0, 240.0)])
    )
    # the arm runs down or up the picture from the fingertips: rows past the wrist are arm
    if wrist[1] > tip[1]:
        ahead, behind = hairs[round(tip[1]) : round(wrist[1])], hairs[round(wrist[1]) :]
    else:
        ahead, behind = hairs[round(wrist[1]) : round(tip[1])], hairs[: round(wrist[1])]
    per_row_ahead = np.count_nonzero(ahead < 0.99) / max(len(ahead), 1)
    per_row_behind = np.count_nonzero(behind < 0.99) / max(len(behind), 1)
    assert per_row_behind > 2 * per_row_ahead > 0


def test_veins_run_over_the_back_of_the_hand_between_its_tendons() -> None:
    """A reaching hand's veins (a raised, bluish line on the shading grid) lie between the
    wrist and the knuckles, not on the fingers."""
    hand, camera, orientation = _reaching_hand()
    shapes = occluders.shape_hand(hand, orientation)
    grid = occluders._ShadingGrid((720, 1280), camera, orientation, (0, 0), 1)
    veins = occluders._veins(grid, list(shapes.digits), hand)
    rows, _ = np.nonzero(veins > 0.2 * veins.max())
    assert len(rows)
    knuckles, wrist = camera.project_undistorted(
        np.array([[*orientation.to_world(200.0, y), 50.0] for y in (60.0 + 74.0, 60.0 + 166.0)])
    )
    low, high = sorted((knuckles[1], wrist[1]))
    assert low - 5 <= rows.min() and rows.max() <= high + 5


def test_a_photo_hand_shows_its_veins_and_hairs_and_a_default_one_does_not() -> None:
    """Drawn in the photo look a hand's skin differs from the default's (veins, hairs) while
    its outline stays the same; the default hand is the one the vision code was tuned on."""
    hand, camera, orientation = _reaching_hand()
    shapes = occluders.shape_hand(hand, orientation)
    lamp = np.array([0.0, 0.0, 1.0])
    canvases = [np.full((720, 1280, 3), 90, np.uint8) for _ in range(3)]
    photo = occluders.draw_hand(canvases[0], camera, shapes, lamp, photo=True)
    default = occluders.draw_hand(canvases[1], camera, shapes, lamp)
    again = occluders.draw_hand(canvases[2], camera, shapes, lamp, photo=False)
    assert np.array_equal(photo[0], default[0]) and np.array_equal(photo[1], default[1])
    assert np.array_equal(canvases[1], canvases[2]) and np.array_equal(default[0], again[0])
    skin = default[1] == 255
    changed = np.abs(canvases[0].astype(int) - canvases[1].astype(int)).max(axis=2)
    assert np.count_nonzero(changed[skin] >= 3) > 0.01 * np.count_nonzero(skin)
    assert np.all(changed[default[1] == 0] == 0)

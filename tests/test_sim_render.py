"""The simulator's frames against its own truth: what is drawn is what the truth says."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import (
    CameraSpec,
    Checkers,
    DieSpec,
    InvalidScene,
    Scene,
    clutter,
    lighting,
    occluders,
    render,
)
from companion.sim.board import Orientation
from companion.sim.camera import InvalidCamera, _full_maps, make_camera
from companion.sim.checkers import (
    RADIUS,
    THICKNESS,
    CheckerPlacement,
    checker_outline_3d,
    draw_checker,
    top_height,
)
from companion.sim.cube import CubeSpec, InvalidCube
from companion.sim.layout import CONTACT, checker_polygon, clearance
from companion.sim.scene import readable_region_mask
from companion.sim.styles import UnknownStyle, checker_set
from tests.sim_helpers import EMPTY

SMALL = (640, 360)


def opening() -> Checkers:
    return Checkers.of(Position.opening().to_absolute("white"))


def busy_board() -> Checkers:
    """Tall stacks on both sides, checkers on the bar and in both trays (14 + 15 checkers)."""
    points = [0] * 24
    points[5] = 8  # white's 6-point: 8
    points[12] = 3  # white's 13-point
    points[18] = -6  # black's 6-point (white's 19)
    points[23] = -1
    points[0] = -2
    return Checkers(tuple(points), {"white": 1, "black": 2}, {"white": 2, "black": 4})


def clean(board: Checkers, **fields: object) -> Scene:
    """A scene without noise or JPEG, so pixel comparisons measure the drawing only."""
    camera = fields.pop("camera", CameraSpec(size=SMALL))
    return Scene(
        board=board,
        camera=camera,  # type: ignore[arg-type]
        lighting="even",
        noise=0.0,
        **fields,  # type: ignore[arg-type]
    )


def canonical_to_px(truth: dict[str, object]) -> np.ndarray:
    """The homography the vision code would use: canonical mm -> image px from the truth."""
    corners = np.array(truth["board_corners_px"], dtype=np.float32)
    plane = np.array(
        [(0, 0), (g.PLAY_WIDTH, 0), (g.PLAY_WIDTH, g.PLAY_HEIGHT), (0, g.PLAY_HEIGHT)],
        dtype=np.float32,
    )
    return cv2.getPerspectiveTransform(plane, corners)


def to_px(homography: np.ndarray, x: float, y: float) -> tuple[int, int]:
    u, v, w = homography @ np.array([x, y, 1.0])
    return round(u / w), round(v / w)


class TestDeterminism:
    def test_same_seed_gives_the_same_pixels_and_truth(self) -> None:
        scene = Scene(
            opening(),
            dice=(DieSpec(6), DieSpec(3)),
            camera=CameraSpec(size=SMALL),
            lighting="lamp",
            hand="near",
            jpeg_quality=80,
            seed=11,
        )
        first, second = render(scene), render(scene)
        assert np.array_equal(first.image, second.image)
        assert first.truth == second.truth

    def test_another_seed_gives_another_frame(self) -> None:
        scene = Scene(opening(), dice=(DieSpec(6), DieSpec(3)), camera=CameraSpec(size=SMALL))
        other = Scene(
            opening(), dice=(DieSpec(6), DieSpec(3)), camera=CameraSpec(size=SMALL), seed=1
        )
        assert not np.array_equal(render(scene).image, render(other).image)


CAMERAS = [
    pytest.param("bottom-right", CameraSpec(size=SMALL), "line", id="overhead"),
    pytest.param(
        "bottom-left", CameraSpec(tilt=30, rotation=8, size=SMALL), "layers", id="tilted-mirrored"
    ),
    pytest.param(
        "top-left", CameraSpec(tilt=20, rotation=-5, k1=-0.1, size=SMALL), "line", id="distorted"
    ),
    pytest.param("top-right", CameraSpec(tilt=35, height=700, size=SMALL), "layers", id="steep"),
]


class TestCheckersDrawnAreTheTruth:
    """Render each board with and without its checkers; the difference is what was drawn."""

    @pytest.mark.parametrize(("white_home", "camera", "stack"), CAMERAS)
    def test_every_checker_in_the_truth_is_drawn_and_nothing_else(
        self, white_home: str, camera: CameraSpec, stack: str
    ) -> None:
        board = busy_board()
        full = render(clean(board, camera=camera, white_home=white_home, stack=stack, seed=3))
        bare = render(clean(EMPTY, camera=camera, white_home=white_home, stack=stack, seed=3))
        diff = cv2.absdiff(full.image, bare.image).max(axis=2)
        homography = canonical_to_px(full.truth)
        assert full.truth["points"] == list(board.points)
        assert full.truth["bar"] == dict(board.bar) and full.truth["off"] == dict(board.off)
        # every drawn checker sits where the truth's geometry puts it
        for checker in full.checkers:
            u, v = to_px(homography, checker.x, checker.y)
            patch = diff[v - 2 : v + 3, u - 2 : u + 3]
            assert patch.mean() > 10, f"no checker drawn at {checker}"
        # and nothing is drawn anywhere else (beyond a checker's reach plus its soft shadow)
        inverse = np.linalg.inv(homography)
        ys, xs = np.nonzero(diff > 40)
        pts = np.stack([xs, ys, np.ones_like(xs)]).astype(np.float64)
        plane = inverse @ pts
        plane = (plane[:2] / plane[2]).T
        centres = np.array([(c.x, c.y) for c in full.checkers])
        # a checker reaches its radius, plus the parallax of its top at up to ~50 degrees off
        # the vertical, plus a soft shadow's edge
        reach = np.array([RADIUS + 1.2 * top_height(c) + 4.0 for c in full.checkers])
        distance = np.linalg.norm(plane[:, None, :] - centres[None], axis=2)
        outside = np.all(distance > reach[None, :], axis=1)
        assert np.mean(outside) < 0.002, "pixels changed far from every checker"

    @pytest.mark.parametrize("stack", ["line", "layers"])
    def test_stacks_up_to_fifteen_are_counted(self, stack: str) -> None:
        for count in (1, 5, 6, 10, 11, 15):
            points = [0] * 24
            points[7] = count
            points[16] = -(15 - count) if count < 15 else -1
            board = Checkers.of(
                type(
                    "B",
                    (),
                    {"points": points, "bar": {}, "off": {"black": 14 if count == 15 else 0}},
                )()
            )
            frame = render(clean(board, stack=stack))
            on_eight = [c for c in frame.checkers if c.point == 8]
            assert len(on_eight) == count
            assert all(c.colour == "white" for c in on_eight)
            assert frame.truth["points"][7] == count
            drawn = {p: 0 for p in range(1, 25)}
            for c in frame.checkers:
                if c.place == "point":
                    drawn[c.point] += 1 if c.colour == "white" else -1
            assert [drawn[p] for p in range(1, 25)] == frame.truth["points"]

    def test_bar_and_tray_checkers_are_drawn_on_the_bar_and_in_the_trays(self) -> None:
        frame = render(clean(busy_board()))
        bar = [c for c in frame.checkers if c.place == "bar"]
        off = [c for c in frame.checkers if c.place == "off"]
        assert sorted(c.colour for c in bar) == ["black", "black", "white"]
        assert all(g.half_of(c.x, c.y) == "bar" for c in bar)
        assert sum(c.colour == "black" for c in off) == 4
        for c in off:
            x0, y0, x1, y1 = g.tray_rect(c.colour)
            assert x0 <= c.x <= x1 and y0 <= c.y <= y1


def count_pips(image: np.ndarray, centre: tuple[float, float], radius_px: float) -> int:
    """Dark blobs within ``radius_px`` of a die's centre: the pips of its top face."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mask = np.zeros_like(grey)
    cv2.circle(mask, (round(centre[0]), round(centre[1])), round(radius_px), 255, -1)
    dark = ((grey < 110) & (mask > 0)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for label in range(1, count) if stats[label, cv2.CC_STAT_AREA] >= 2)


class TestDice:
    @pytest.mark.parametrize("values", [(1, 2), (3, 4), (5, 6)])
    def test_drawn_pips_match_the_value(self, values: tuple[int, int]) -> None:
        scene = Scene(
            EMPTY,
            dice=(DieSpec(values[0]), DieSpec(values[1])),
            style="green-felt",
            checker_set="white-black",
            camera=CameraSpec(size=(1280, 720), fill=1.0),
            lighting="even",
            noise=0.0,
            seed=sum(values),
        )
        frame = render(scene)
        px_per_mm = (
            np.linalg.norm(
                np.subtract(frame.truth["board_corners_px"][1], frame.truth["board_corners_px"][0])
            )
            / g.PLAY_WIDTH
        )
        for die, pose in zip(frame.truth["dice"], frame.dice, strict=True):
            # the top face's middle: off the image centre it is not where the die's centre is
            top = frame.camera.project(np.array([[pose.x, pose.y, pose.height + 8.0]]))[0]
            assert count_pips(frame.image, top, 7.0 * px_per_mm) == die["value"]

    def test_opposite_faces_sum_to_seven(self) -> None:
        from companion.sim.dice import FACE_NORMALS, PIP_LAYOUTS

        for value, normal in FACE_NORMALS.items():
            opposite = next(
                v for v, n in FACE_NORMALS.items() if np.allclose(n, np.negative(normal))
            )
            assert value + opposite == 7
            assert len(PIP_LAYOUTS[value]) == value

    @pytest.mark.parametrize("where", ["home", "outer", "bar", "outside"])
    def test_dice_land_where_asked(self, where: str) -> None:
        for seed in range(3):
            frame = render(
                clean(opening(), dice=(DieSpec(2, where=where), DieSpec(5, where=where)), seed=seed)
            )
            assert [d["half"] for d in frame.truth["dice"]] == [where, where]
            assert all(d["flat"] for d in frame.truth["dice"])

    def test_dice_on_the_roller_right_hand_side_are_valid(self) -> None:
        frame = render(clean(opening(), dice=(DieSpec(4), DieSpec(1)), on_roll="white"))
        assert frame.truth["dice_valid"] is True and "reason" not in frame.truth
        frame = render(clean(opening(), dice=(DieSpec(4), DieSpec(1)), on_roll="black"))
        assert [d["half"] for d in frame.truth["dice"]] == ["outer", "outer"]
        assert frame.truth["dice_valid"] is True
        mirrored = render(
            clean(
                opening(), dice=(DieSpec(4), DieSpec(1)), on_roll="white", white_home="bottom-left"
            )
        )
        assert [d["half"] for d in mirrored.truth["dice"]] == ["outer", "outer"]
        assert mirrored.truth["dice_valid"] is True

    @pytest.mark.parametrize(
        ("where", "reason"),
        [("home", "wrong side"), ("bar", "on the bar"), ("outside", "off the board")],
    )
    def test_dice_elsewhere_are_invalid_with_the_reason(self, where: str, reason: str) -> None:
        frame = render(
            clean(
                opening(), dice=(DieSpec(3, where=where), DieSpec(3, where=where)), on_roll="black"
            )
        )
        assert frame.truth["dice_valid"] is False
        assert frame.truth["reason"] == reason

    @pytest.mark.parametrize("target", ["die", "checker"])
    def test_touching_dice_touch(self, target: str) -> None:
        for seed in range(3):
            frame = render(
                clean(opening(), dice=(DieSpec(6), DieSpec(6, touching=target)), seed=seed)
            )
            die = frame.dice[1].footprint()
            if target == "die":
                gap = clearance(die, frame.dice[0].footprint())
            else:
                gap = min(clearance(die, checker_polygon(c)) for c in frame.checkers)
            assert -0.05 <= gap <= CONTACT + 0.05

    @pytest.mark.parametrize("support", ["checker", "frame"])
    def test_cocked_die_leans_on_its_support(self, support: str) -> None:
        for seed in range(4):
            frame = render(
                clean(
                    opening(),
                    dice=(DieSpec(5, "cocked", support=support), DieSpec(2)),
                    on_roll="white",
                    seed=seed,
                )
            )
            pose = frame.dice[0]
            die = frame.truth["dice"][0]
            assert 10 <= die["cocked_angle"] <= 45 and die["flat"] is False
            assert die["leaning_on"] == support
            corners = pose.corners()
            assert abs(corners[:, 2].min()) < 1e-6, "the lower edge rests on the playing surface"
            # the raised side is held up: it neither floats nor sinks into the support
            lowest_two = np.sort(corners[:, 2])[:2]
            assert np.allclose(lowest_two, 0.0, atol=1e-6)
            assert frame.truth["dice_valid"] is False and frame.truth["reason"] == "cocked"
            if support == "checker":
                contacts = [
                    c
                    for c in frame.checkers
                    if math.dist((c.x, c.y), (pose.x, pose.y)) < RADIUS + 16
                ]
                assert contacts, "a checker is next to the die"

    def test_die_on_a_checker_is_level_but_counts_as_cocked(self) -> None:
        frame = render(
            clean(opening(), dice=(DieSpec(4, "on_checker"), DieSpec(4)), on_roll="white")
        )
        die = frame.truth["dice"][0]
        assert die["flat"] is True and die["on_checker"] is True
        assert die["center_mm"][2] == pytest.approx(THICKNESS + 8.0)
        assert frame.truth["dice_valid"] is False and frame.truth["reason"] == "cocked"

    def test_tilted_camera_shows_side_faces_and_the_truth_centre_is_on_the_die(self) -> None:
        scene = Scene(
            EMPTY,
            dice=(DieSpec(6), DieSpec(6)),
            style="green-felt",
            camera=CameraSpec(tilt=30, size=SMALL),
            noise=0.0,
        )
        frame = render(scene)
        bare = render(
            Scene(EMPTY, style="green-felt", camera=CameraSpec(tilt=30, size=SMALL), noise=0.0)
        )
        diff = cv2.absdiff(frame.image, bare.image).max(axis=2)
        for die in frame.truth["dice"]:
            u, v = (round(c) for c in die["center_px"])
            assert diff[v - 1 : v + 2, u - 1 : u + 2].mean() > 40


class TestOrientationAndHands:
    @pytest.mark.parametrize("white_home", ["bottom-right", "bottom-left", "top-right", "top-left"])
    def test_white_home_lands_in_the_asked_quadrant(self, white_home: str) -> None:
        frame = render(
            clean(opening(), white_home=white_home, camera=CameraSpec(tilt=15, size=(320, 180)))
        )
        orientation = frame.truth["orientation"]
        assert orientation["white_home"] == white_home
        assert orientation["mirrored"] == (white_home in ("bottom-left", "top-right"))
        assert orientation["quadrants"][white_home] == "white home"

    def test_hand_over_the_board_makes_the_frame_unreadable(self) -> None:
        for seed in range(3):
            frame = render(clean(opening(), hand="over", seed=seed))
            assert frame.truth["readable"] is False
            occluder = frame.truth["occluders"][0]
            assert occluder["covers_board"] and occluder["polygons_px"]

    def test_hand_beside_the_board_leaves_it_readable(self) -> None:
        frame = render(clean(opening(), hand="near", camera=CameraSpec(size=SMALL, fill=0.7)))
        assert frame.truth["readable"] is True
        assert frame.truth["occluders"][0]["covers_board"] is False
        assert frame.hand_mask is not None and frame.hand_mask.any()

    @pytest.mark.parametrize("motion", [0.0, 25.0])
    def test_every_pixel_the_hand_paints_is_in_its_mask(
        self, motion: float, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The truth's outline holds the whole hand: its soft edge, and a moving hand's smear."""
        monkeypatch.setattr(occluders, "shadow_outlines", lambda *_: [])  # shadows fall outside
        hand = replace(occluders.random_hand(np.random.default_rng(4), True), motion=motion)
        with_hand = render(clean(opening(), hand=hand, seed=2))
        without = render(clean(opening(), seed=2))
        assert with_hand.truth["occluders"][0]["motion_mm"] == motion
        painted = np.abs(with_hand.image.astype(int) - without.image.astype(int)).max(axis=2) > 6
        assert with_hand.hand_mask is not None
        edge = cv2.dilate(with_hand.hand_mask, np.ones((5, 5), np.uint8)) > 0
        assert painted.any()
        assert not (painted & ~edge).any()
        if motion:
            still = render(clean(opening(), hand=replace(hand, motion=0.0), seed=2))
            assert still.hand_mask is not None
            assert np.count_nonzero(with_hand.hand_mask) > np.count_nonzero(still.hand_mask)

    def test_a_hand_is_shaded_round_not_flat(self) -> None:
        hand = occluders.random_hand(np.random.default_rng(4), True)
        frame = render(clean(opening(), hand=replace(hand, motion=0.0), seed=2))
        assert frame.hand_mask is not None
        inside = cv2.erode(frame.hand_mask, np.ones((7, 7), np.uint8)) > 0
        grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)[inside].astype(float)
        assert np.percentile(grey, 95) - np.percentile(grey, 5) > 25


class TestCameraNoise:
    def test_sensor_noise_is_stronger_in_the_shadows_and_unbiased(self) -> None:
        ramp = np.tile(np.linspace(0, 255, 640).astype(np.uint8)[None, :, None], (360, 1, 3))
        grain = lighting.sensor_noise((360, 640), np.random.default_rng(1))
        noise = lighting.add_sensor_noise(ramp, grain, 4.0).astype(float) - ramp
        shadows, highlights, middle = noise[:, 80:160], noise[:, 540:600], noise[:, 280:360]
        assert 3.0 < shadows.std() and shadows.std() > 1.4 * highlights.std()
        assert abs(middle.mean()) < 0.3

    def test_sensor_noise_grains_are_shared_by_neighbours_and_channels(self) -> None:
        rise, fall = lighting.sensor_noise((360, 640), np.random.default_rng(1))
        noise = rise.astype(float) - fall
        across = np.corrcoef(noise[:, :-1, 0].ravel(), noise[:, 1:, 0].ravel())[0, 1]
        channels = np.corrcoef(noise[..., 0].ravel(), noise[..., 2].ravel())[0, 1]
        assert 0.2 < across < 0.9
        assert 0.4 < channels < 0.95


class TestBadInput:
    def test_too_many_checkers(self) -> None:
        points = [0] * 24
        points[0] = 16
        with pytest.raises(InvalidScene, match="16 checkers"):
            Checkers.of(type("B", (), {"points": points, "bar": {}, "off": {}})())

    def test_unknown_style_names_the_choices(self) -> None:
        with pytest.raises(UnknownStyle, match="tournament-red"):
            Scene(opening(), style="plaid")

    def test_impossible_camera(self) -> None:
        with pytest.raises(InvalidCamera, match="tilt"):
            CameraSpec(tilt=80)

    def test_no_checker_to_rest_a_die_on(self) -> None:
        with pytest.raises(InvalidScene, match="no checker"):
            render(clean(EMPTY, dice=(DieSpec(3, "on_checker"), DieSpec(2))))


class TestDoublingCube:
    @pytest.mark.parametrize(
        "cube", [CubeSpec(), CubeSpec(8, "white"), CubeSpec(32, "black")], ids=str
    )
    def test_cube_lies_beside_the_board_and_shows_its_number(self, cube: CubeSpec) -> None:
        frame = render(clean(opening(), cube=cube, camera=CameraSpec(size=(1280, 720), fill=0.8)))
        truth = frame.truth["cube"]
        assert truth["value"] == cube.value and truth["owner"] == cube.owner
        assert truth["face_up"] == (64 if cube.value == 1 else cube.value)
        u, v = (round(c) for c in truth["center_px"])
        region = readable_region_mask(frame.camera, Orientation())
        assert region[v, u] == 0, "the cube never covers the playing area or the trays"
        grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)[v - 6 : v + 7, u - 6 : u + 7]
        assert grey.max() > 170 and grey.min() < 110, "a light face with dark numbers"

    def test_a_cube_that_cannot_be(self) -> None:
        with pytest.raises(InvalidCube):
            CubeSpec(3, "white")
        with pytest.raises(InvalidCube):
            CubeSpec(1, "black")


class TestCameraLook:
    def test_the_tone_curve_keeps_black_and_white_and_adds_middle_contrast(self) -> None:
        curve = lighting.tone_curve(30).astype(int)
        assert curve[0] == 0 and curve[255] == 255
        assert np.all(np.diff(curve) >= 0)
        assert curve[160] - curve[96] > 1.2 * (160 - 96)  # steeper in the middle
        assert curve[30] < 30 and curve[225] > 225  # deeper shadows, brighter highlights

    def test_the_lens_and_sharpening_keep_flat_areas_and_ring_at_edges(self) -> None:
        kernel = lighting.optics_kernel(40, 25).ravel()
        assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
        assert kernel.min() < 0  # the sharpening's dark and light fringes
        soft = lighting.optics_kernel(120, 0).ravel()
        assert soft.min() >= 0 and soft[2] < kernel[2]  # a soft lens, no sharpening

    def test_distortion_maps_agree_with_the_projection_to_a_hundredth_of_a_pixel(self) -> None:
        camera = make_camera(CameraSpec(tilt=25, k1=-0.12, k2=0.01, size=SMALL))
        # the float maps the fast ones are converted from
        intrinsics = (float(camera.K[0, 0]), float(camera.K[0, 2]), float(camera.K[1, 2]))
        full = _full_maps(SMALL, intrinsics, (-0.12, 0.01))
        map_x, map_y = full[..., 0], full[..., 1]
        fixed, fraction = camera.fast_distortion_maps()
        rng = np.random.default_rng(3)
        world = np.column_stack(
            [rng.uniform(-60, 700, 40), rng.uniform(-60, 500, 40), rng.uniform(-30, 20, 40)]
        )
        distorted, ideal = camera.project(world), camera.project_undistorted(world)
        for (u, v), expected in zip(distorted, ideal, strict=True):
            if not (1 <= u < SMALL[0] - 2 and 1 <= v < SMALL[1] - 2):
                continue
            x0, y0, fx, fy = int(u), int(v), u - int(u), v - int(v)
            for plane, want in ((map_x, expected[0]), (map_y, expected[1])):
                near = plane[y0 : y0 + 2, x0 : x0 + 2]
                got = (near[0, 0] * (1 - fx) + near[0, 1] * fx) * (1 - fy) + (
                    near[1, 0] * (1 - fx) + near[1, 1] * fx
                ) * fy
                assert got == pytest.approx(want, abs=0.01)
        # the fast (fixed-point) maps move an image as the float maps do
        image = cv2.GaussianBlur(rng.integers(0, 255, (*SMALL[::-1], 3), dtype=np.uint8), (0, 0), 2)
        exact = cv2.remap(image, full, None, cv2.INTER_LINEAR).astype(int)
        fast = cv2.remap(image, fixed, fraction, cv2.INTER_LINEAR).astype(int)
        error = np.abs(exact - fast)[2:-2, 2:-2]
        assert error.max() <= 4 and error.mean() < 0.3

    def test_a_checker_side_is_lit_toward_the_lamp(self) -> None:
        camera = make_camera(CameraSpec(tilt=35, size=SMALL, fill=1.4))
        orientation = Orientation()
        checker = CheckerPlacement("white", "point", 12, 270.0, 200.0, 0.0, 0)
        looks = checker_set("white-black")
        sides = {}
        for name, east in (("east", 1.0), ("west", -1.0)):
            light = np.array([east * 0.8, 0.0, 0.6])
            image = np.zeros((SMALL[1], SMALL[0], 3), np.uint8)
            hull = draw_checker(image, camera, checker, orientation, looks, light)
            band = np.zeros(SMALL[::-1], np.uint8)
            cv2.fillPoly(band, [np.round(hull).astype(np.int32)], 255)
            top = camera.project_undistorted(checker_outline_3d(checker, orientation)[1])
            cv2.fillPoly(band, [np.round(top).astype(np.int32)], 0)
            band = cv2.erode(band, np.ones((3, 3), np.uint8))
            ys, xs = np.nonzero(band)
            middle = np.median(xs)
            grey = image.astype(float).mean(axis=2)
            sides[name] = (
                grey[ys[xs > middle], xs[xs > middle]].mean(),
                grey[ys[xs < middle], xs[xs < middle]].mean(),
            )
        assert sides["east"][0] > sides["east"][1] + 15  # the right (east) half brighter
        assert sides["west"][1] > sides["west"][0] + 15


class TestTableClutter:
    def test_items_never_cover_the_board_and_are_in_view(self) -> None:
        for seed in range(40):
            spec = CameraSpec(tilt=seed % 36, rotation=seed * 9.0, height=650 + seed * 16.0)
            camera = make_camera(spec)
            items = clutter.random_items(np.random.default_rng([seed, 11]), camera)
            board_hull = clutter._board_hull(camera)
            frame = np.array([(0, 0), (1280, 0), (1280, 720), (0, 720)], np.float32)
            for item in items:
                hull = clutter._hull(camera, clutter._solid(item))
                assert cv2.intersectConvexConvex(hull, board_hull)[0] == 0
                assert cv2.intersectConvexConvex(hull, frame)[0] > 0

    def test_items_change_only_the_table_and_stay_put_in_a_sequence(self) -> None:
        camera = CameraSpec(tilt=20, fill=0.7, size=(1280, 720))
        base = clean(opening(), camera=camera, seed=5, light_seed=9)
        bare = render(base)
        cluttered = [render(replace(base, clutter=True, seed=s, light_seed=9)) for s in (5, 6)]
        assert cluttered[0].truth["table_items"], "this scene should have something on the table"
        assert cluttered[0].truth["table_items"] == cluttered[1].truth["table_items"]
        # the camera's tone (like the light) belongs to the sequence, not to the frame
        assert cluttered[0].truth["lighting"] == cluttered[1].truth["lighting"]
        changed = np.abs(cluttered[0].image.astype(int) - bare.image.astype(int)).max(axis=2) > 0
        region = readable_region_mask(bare.camera, Orientation(base.white_home)) > 0
        # only an item's shadow may reach the board, and a shadow only darkens
        board_changes = changed & region
        darker = cluttered[0].image.astype(int).sum(axis=2) <= bare.image.astype(int).sum(axis=2)
        assert np.all(darker[board_changes])
        for key in ("points", "bar", "off", "dice", "board_corners_px", "readable"):
            assert cluttered[0].truth[key] == bare.truth[key]

"""The pure pieces of the vision code: the Reading codec, the board plane, profiles, pips."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.errors import InvalidFormat
from companion.vision import checkers, pips, reader
from companion.vision import maps as maps_module
from companion.vision import reference as reference_module
from companion.vision.maps import PlaneMaps
from companion.vision.plane import (
    VIEW_LEFT,
    VIEW_TOP,
    WHITE_HOMES,
    CameraModel,
    homography,
    is_mirrored,
    order_clockwise,
    to_plane,
    view_size,
)
from companion.vision.profile import (
    Colours,
    Profile,
    ProfileError,
    ProfileFileError,
    load_profile,
    save_profile,
)
from companion.vision.reading import Counts, DieReading, Reading, judge_dice

CORNERS = ((200.0, 100.0), (1000.0, 110.0), (1020.0, 640.0), (190.0, 630.0))


def die(
    value: int = 3, flat: bool = True, half: str = "home", on_checker: bool = False
) -> DieReading:
    return DieReading(value, flat, half, (10.0, 20.0), 0.9, on_checker)  # type: ignore[arg-type]


class TestReading:
    def test_round_trips_through_json(self) -> None:
        reading = Reading(
            readable=True,
            points=tuple(range(-12, 12)),
            bar=Counts(1, 2),
            off=Counts(3, 0),
            dice=(die(6), die(1, flat=False, half="outer")),
            dice_valid=False,
            dice_reason="cocked",
            confidence={"point 1": 0.75},
        )
        again = Reading.from_json(json.loads(json.dumps(reading.to_json())))
        assert again == reading
        assert again.confidence == {"point 1": 0.75}

    def test_reads_simulator_truth_keys(self) -> None:
        truth = {
            "readable": True,
            "points": [0] * 23 + [2],
            "bar": {"white": 0, "black": 1},
            "off": {"white": 0, "black": 0},
            "dice": [
                {"value": 5, "flat": True, "half": "home", "center_px": [1, 2], "moving": False}
            ],
            "board_corners_px": [[0, 0]] * 4,
        }
        reading = Reading.from_json(truth)
        assert reading.points[23] == 2 and reading.bar == Counts(0, 1)
        assert reading.dice[0].value == 5

    def test_rejects_a_die_showing_seven(self) -> None:
        with pytest.raises(InvalidFormat, match="1-6"):
            Reading.from_json({"points": [0] * 24, "dice": [{"value": 7}]})

    def test_rejects_a_short_board(self) -> None:
        with pytest.raises(InvalidFormat, match="24"):
            Reading.from_json({"points": [0] * 23})


class TestDiceRules:
    def test_two_flat_dice_on_the_right_half_stand(self) -> None:
        assert judge_dice([die(), die(4)], "white", "home") == (True, None)

    def test_a_cocked_die_is_rerolled(self) -> None:
        assert judge_dice([die(), die(flat=False)], "white", "home") == (False, "cocked")

    def test_a_die_on_a_checker_counts_as_cocked(self) -> None:
        assert judge_dice([die(), die(on_checker=True)], "white", "home") == (False, "cocked")

    def test_a_die_in_the_wrong_half(self) -> None:
        assert judge_dice([die(), die(half="outer")], "white", "home") == (False, "wrong side")

    def test_a_die_on_the_bar_and_off_the_board(self) -> None:
        assert judge_dice([die(half="bar"), die()], "black", "home") == (False, "on the bar")
        assert judge_dice([die(half="outside"), die()], "black", "home") == (
            False,
            "off the board",
        )

    def test_one_die_is_not_a_roll(self) -> None:
        assert judge_dice([die()], "white", "home") == (False, "only one die")


class TestPlane:
    @pytest.mark.parametrize("white_home", WHITE_HOMES)
    def test_white_home_quadrant_lands_bottom_right(self, white_home: str) -> None:
        matrix = homography(CORNERS, white_home)  # type: ignore[arg-type]
        quadrant = {
            "bottom-right": CORNERS[2],
            "bottom-left": CORNERS[3],
            "top-right": CORNERS[1],
            "top-left": CORNERS[0],
        }[white_home]
        x, y = to_plane(matrix, quadrant)
        assert math.isclose(x, g.PLAY_WIDTH, abs_tol=1e-6)
        assert math.isclose(y, g.PLAY_HEIGHT, abs_tol=1e-6)

    def test_mirrored_setups(self) -> None:
        assert [is_mirrored(w) for w in WHITE_HOMES] == [False, True, True, False]

    def test_orders_corners_clockwise_from_top_left(self) -> None:
        shuffled = [CORNERS[2], CORNERS[0], CORNERS[3], CORNERS[1]]
        assert order_clockwise(shuffled) == CORNERS

    def test_recovers_the_camera_from_a_tilted_view(self) -> None:
        focal, tilt = 1000.0, math.radians(25)
        k = np.array([[focal, 0, 640], [0, focal, 360], [0, 0, 1]])
        rotation = np.array(
            [[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]]
        )
        translation = np.array([-265.0, -150.0, 900.0])
        plane_to_image = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
        camera = CameraModel(np.linalg.inv(plane_to_image), (1280, 720))
        assert camera.focal == pytest.approx(focal, rel=0.01)
        # a point 16 mm up is seen where the model says
        top = np.array([100.0, 200.0, -16.0])
        seen = k @ (rotation @ top + translation)
        back = to_plane(camera.image_to_plane_at(16.0), (seen[0] / seen[2], seen[1] / seen[2]))
        assert back == pytest.approx((100.0, 200.0), abs=0.2)


def a_profile(size: tuple[int, int] = (1280, 720)) -> Profile:
    lab = (128.0, 128.0, 128.0)
    return Profile(
        image_size=size,
        corners_px=CORNERS,
        white_home="bottom-right",
        colours=Colours(lab, lab, lab, lab, lab),
        reference="iVBORw0KGgo=",
    )


class TestProfile:
    def test_round_trips_through_a_file(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        path = tmp_path / "calibration" / "p.json"
        save_profile(a_profile(), path)
        assert load_profile(path) == a_profile()
        assert json.loads(path.read_text())["version"] == 1

    def test_a_bar_never_seen_empty_is_remembered(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        path = tmp_path / "p.json"
        save_profile(replace(a_profile(), bar_hidden=True), path)
        assert load_profile(path).bar_hidden
        data = a_profile().to_json()
        del data["bar_hidden"]  # a profile written before the field existed
        assert not Profile.from_json(data).bar_hidden
        data["bar_hidden"] = "yes"
        with pytest.raises(ProfileError, match="bar_hidden"):
            Profile.from_json(data)

    def test_a_missing_file_says_how_to_make_one(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(ProfileFileError, match="companion calibrate") as info:
            load_profile(tmp_path / "none.json")
        assert isinstance(info.value, OSError)

    def test_another_version_is_refused(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        data = a_profile().to_json()
        data["version"] = 99
        path = tmp_path / "p.json"
        path.write_text(json.dumps(data))
        with pytest.raises(ProfileError, match="version 99"):
            load_profile(path)

    def test_a_file_that_is_not_a_profile(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        path = tmp_path / "p.json"
        path.write_text("{not json")
        with pytest.raises(ProfileError, match="not JSON"):
            load_profile(path)
        path.write_text("{}")
        with pytest.raises(ProfileError, match="not a calibration profile"):
            load_profile(path)

    def test_a_frame_from_another_camera_is_refused(self) -> None:
        with pytest.raises(ProfileError, match="640x480"):
            a_profile().check_frame(640, 480)


def draw_die(value: int, turn_degrees: float, body=(235, 235, 235), pip=(20, 20, 20)) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A die seen from above at 4 px/mm on a grey cloth, like the plane patches."""
    px = 160
    image = np.full((px, px, 3), (90, 110, 100), np.uint8)
    scale = 4.0
    half = g.DIE_SIZE / 2 * scale
    c, s = math.cos(math.radians(turn_degrees)), math.sin(math.radians(turn_degrees))

    def at(u: float, v: float) -> tuple[int, int]:
        return (round(80 + u * c - v * s), round(80 + u * s + v * c))

    square = np.array([at(-half, -half), at(half, -half), at(half, half), at(-half, half)])
    cv2.fillConvexPoly(image, square, body, cv2.LINE_AA)
    step = 0.27 * g.DIE_SIZE * scale
    for a, b in pips._LAYOUTS[value]:
        cv2.circle(
            image, at(a * step, b * step), int(0.085 * g.DIE_SIZE * scale), pip, -1, cv2.LINE_AA
        )
    return image


class TestPips:
    @pytest.mark.parametrize("value", range(1, 7))
    @pytest.mark.parametrize("turn", [0.0, 17.0, 45.0, 71.0])
    def test_reads_every_face_at_any_turn(self, value: int, turn: float) -> None:
        image = draw_die(value, turn)
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
        step = 0.27 * g.DIE_SIZE * 4.0
        spots = pips.round_spots(pips.find_spots(pips.pip_contrast(lab, step), step, 14.0))
        fit = pips.fit_grid(spots, step, (80.0, 80.0), 40.0)
        assert fit is not None and len(fit.cells) == value
        assert pips.face_consistency(lab, fit, step) > 1.0

    def test_white_pips_on_a_red_die(self) -> None:
        image = draw_die(5, 30.0, body=(40, 36, 170), pip=(235, 238, 240))
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
        step = 0.27 * g.DIE_SIZE * 4.0
        fit = pips.fit_grid(
            pips.round_spots(pips.find_spots(pips.pip_contrast(lab, step), step, 14.0)),
            step,
            (80.0, 80.0),
            40.0,
        )
        assert fit is not None and len(fit.cells) == 5

    def test_a_bare_surface_has_no_face(self) -> None:
        lab = np.full((160, 160, 3), 120.0, np.float32)
        assert len(pips.find_spots(pips.pip_contrast(lab, 17.0), 17.0, 14.0)) == 0


class TestStackCounting:
    @pytest.mark.parametrize("count", range(0, 7))
    def test_clean_profiles_count_exactly(self, count: int) -> None:
        occupancy = checkers._expected_occupancy(count, "line")
        seams = checkers._expected_seams(count, "line") if count >= 2 else np.zeros(220)
        found, confidence, _ = checkers.count_stack(occupancy, seams)
        assert found == count and confidence > 0.5

    @staticmethod
    def strips_finding(best: int, worse_by: float) -> np.ndarray:
        """Synthesis errors (one per hypothesis) of strips that find ``best`` checkers best
        and every other count ``worse_by`` worse."""
        counts = checkers._hypotheses()[0]
        return np.where(counts == best, 0.1, 0.1 + worse_by)

    @pytest.mark.parametrize(("strips_best", "worse_by", "sure"), [
        (3, 0.05, True),  # the strips agree
        (2, 0.01, True),  # they prefer another count, but barely
        (2, 0.05, False),  # they clearly prefer another count: one of the two is fooled
        (4, 0.05, False),
    ])  # fmt: skip
    def test_a_count_the_whole_strips_clearly_disagree_with_is_unsure(
        self, strips_best: int, worse_by: float, sure: bool
    ) -> None:
        occupancy = checkers._expected_occupancy(3, "line")
        seams = checkers._expected_seams(3, "line")
        synthesis = self.strips_finding(strips_best, worse_by)
        found, confidence, _ = checkers.count_stack(occupancy, seams, synthesis)
        assert found == 3
        assert (confidence >= 0.5) == sure

    @staticmethod
    def read_empty_with(humps: list[tuple[int, int]]) -> checkers.RegionReading:
        """A point's reading from an axis showing nothing but ``humps`` (start, length in
        mm) of plain occupancy, as a dark checker's logo shows on a dark point."""
        occupancy = np.zeros(checkers.AXIS_LENGTH)
        for start, length in humps:
            occupancy[start : start + length] = 0.85
        seams = np.zeros(checkers.AXIS_LENGTH)
        counted = checkers.count_stack(occupancy, seams)
        zeros = np.zeros(checkers.AXIS_LENGTH)
        return checkers._reading(counted, occupancy, zeros, zeros)

    def test_a_point_read_empty_where_logos_show_is_unsure(self) -> None:
        # two black checkers on a black point in a dim light (development 5420): only their
        # gold logos show, 12 mm across, a checker's pitch apart
        reading = self.read_empty_with([(12, 12), (48, 12)])
        assert reading.count == 0 and reading.confidence < 0.5

    def test_a_glint_on_an_empty_point_leaves_it_sure(self) -> None:
        reading = self.read_empty_with([(40, 4), (120, 5)])
        assert reading.count == 0 and reading.confidence >= 0.5

    @staticmethod
    def read_white_five(last_place_whiteness: float) -> checkers.RegionReading:
        """A white line of five, its fifth place showing ``last_place_whiteness`` of a white
        checker's colour."""
        occupancy = checkers._expected_occupancy(5, "line").astype(np.float64)
        seams = checkers._expected_seams(5, "line")
        whiteness = occupancy * 0.5
        last = slice(int(4 * g.CHECKER_PITCH), int(5 * g.CHECKER_PITCH))
        whiteness[last] *= last_place_whiteness
        counted = checkers.count_stack(occupancy, seams)
        return checkers._reading(counted, occupancy, np.zeros_like(occupancy), whiteness)

    def test_a_last_checker_showing_none_of_its_stack_s_colour_is_in_doubt(self) -> None:
        # its last counted place shows no white: on development frames the last place of
        # fives by the bar read as six showed only the frame's shadow there (5189, 5424)
        assert self.read_white_five(0.0).count == 5
        assert self.read_white_five(0.0).confidence < 0.5
        assert self.read_white_five(1.0).confidence >= 0.5

    def test_a_half_covered_point_is_unsure(self) -> None:
        occupancy = np.full(checkers.AXIS_LENGTH, 0.45)
        _, confidence, _ = checkers.count_stack(occupancy, np.zeros(checkers.AXIS_LENGTH))
        assert confidence < 0.5


class TestStripSynthesis:
    """Counting by the whole strip: a checker is judged where it would differ from the board."""

    @staticmethod
    def strips(count: int, visible: float) -> tuple[np.ndarray, np.ndarray]:
        masks = checkers._strip_hypotheses()
        counts = checkers._hypotheses()[0]
        row = masks[int(np.flatnonzero(counts == count)[0])]
        visibility = np.full((2, 24, masks.shape[1]), visible)
        foreground = np.tile(row * visible, (24, 1))
        return foreground, visibility

    @pytest.mark.parametrize("count", [0, 1, 3, 5])
    def test_the_drawn_count_explains_its_strip_best(self, count: int) -> None:
        foreground, visibility = self.strips(count, 1.0)
        errors = checkers.synthesis_errors(foreground, visibility)
        counts = checkers._hypotheses()[0]
        assert counts[int(np.argmin(errors[0]))] == count

    def test_checkers_that_cannot_show_leave_every_count_equal(self) -> None:
        # a black checker on a black point shows no change; no count may win by it
        foreground, visibility = self.strips(3, 0.0)
        errors = checkers.synthesis_errors(foreground, visibility)
        assert np.ptp(errors[0]) < 1e-9

    def test_dice_hide_what_they_cover(self) -> None:
        foreground, visibility = self.strips(2, 1.0)
        errors = checkers.synthesis_errors(foreground, visibility, np.ones_like(foreground))
        assert np.allclose(errors[0], errors[0][0])


class TestRegionNames:
    @pytest.mark.parametrize(
        ("x", "y", "name"),
        [
            (g.PLAY_WIDTH - 20.0, g.PLAY_HEIGHT - 30.0, "point 1"),
            (20.0, g.PLAY_HEIGHT - 30.0, "point 12"),
            (20.0, 30.0, "point 13"),
            (g.PLAY_WIDTH - 20.0, 30.0, "point 24"),
            ((g.BAR_LEFT + g.BAR_RIGHT) / 2, 100.0, "the bar"),
            (g.PLAY_WIDTH + 30.0, 100.0, "the trays"),
            (-20.0, 100.0, "the board"),
        ],
    )
    def test_a_spot_is_named_as_players_name_it(self, x: float, y: float, name: str) -> None:
        scale = 1.0
        width, height = view_size(scale)
        mask = np.zeros((height, width), bool)
        mask[round(y - VIEW_TOP), round(x - VIEW_LEFT)] = True
        assert reader._names_under(mask, scale) == {name}


class TestBarePlaces:
    """An empty point on a triangle of a checker's colour is proven empty only where a checker
    would have shown beside the triangle and nothing did."""

    samples = checkers._strip_hypotheses().shape[1]

    def test_a_place_seen_bare_where_a_checker_would_show_is_empty(self) -> None:
        visibility = np.ones((2, self.samples))
        assert checkers.next_place_bare(0, np.zeros(self.samples), visibility, None)

    def test_a_place_where_no_checker_could_show_proves_nothing(self) -> None:
        visibility = np.zeros((2, self.samples))
        assert not checkers.next_place_bare(0, np.zeros(self.samples), visibility, None)

    def test_an_empty_point_needs_both_colours_to_show(self) -> None:
        visibility = np.stack([np.ones(self.samples), np.zeros(self.samples)])
        assert not checkers.next_place_bare(0, np.zeros(self.samples), visibility, None)
        # beyond a white stack only the next white checker matters
        assert checkers.next_place_bare(2, np.zeros(self.samples), visibility, None)

    def test_something_seen_there_is_no_bare_place(self) -> None:
        visibility = np.ones((2, self.samples))
        assert not checkers.next_place_bare(0, np.ones(self.samples), visibility, None)

    def test_a_die_over_the_place_hides_it(self) -> None:
        visibility = np.ones((2, self.samples))
        covered = np.ones(self.samples)
        assert not checkers.next_place_bare(0, np.zeros(self.samples), visibility, covered)


class TestTrays:
    """Borne-off checkers stand on edge in a row from the tray's closed end."""

    @staticmethod
    def maps(colour: str, length_mm: float, stripes: bool = False, edges: float = 0.0) -> PlaneMaps:
        width, height = view_size(1.0)
        foreground = np.zeros((height, width), np.float32)
        x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
        cols = slice(round(x0 - VIEW_LEFT), round(x1 - VIEW_LEFT))
        if colour == "white":  # white's row grows up from the bottom of its tray
            rows = slice(round(y1 - length_mm - VIEW_TOP), round(y1 - VIEW_TOP))
        else:
            rows = slice(round(y0 - VIEW_TOP), round(y0 + length_mm - VIEW_TOP))
        foreground[rows, cols] = 1.0
        if stripes:  # only thin stripes show: shaded faces in a tray of their own colour
            foreground[rows, cols] = 0.0
            foreground[rows.start : rows.stop : 14, cols] = 0.5
        edge_map = np.full((height, width), edges, np.float32)
        blank = np.zeros((height, width), np.float32)
        lab = np.zeros((height, width, 3), np.float32)
        return PlaneMaps(1.0, lab, foreground, blank, blank, edge_map, foreground)

    @pytest.mark.parametrize("colour", ["white", "black"])
    @pytest.mark.parametrize("count", [0, 1, 4, 8, 15])
    def test_counts_a_row_seen_a_little_longer_than_its_slots(
        self, colour: str, count: int
    ) -> None:
        reach = 5.0 if count else 0.0  # the far checker's face and top show past its foot
        length = min(count * g.TRAY_SLOT + reach, g.tray_rect("white")[3] - g.tray_rect("white")[1])
        reading = checkers.read_tray(self.maps(colour, length), colour, smear=10.0)  # type: ignore[arg-type]
        assert reading.count == count and reading.confidence >= 0.5

    def test_a_row_in_a_tray_of_its_own_colour_is_unsure(self) -> None:
        reading = checkers.read_tray(self.maps("white", 4 * g.TRAY_SLOT + 5), "white", visible=0.1)
        assert reading.count == 4 and reading.confidence < 0.5

    def test_an_empty_tray_of_the_checkers_colour_is_empty_only_without_edges(self) -> None:
        bare = checkers.read_tray(self.maps("black", 0.0), "black", visible=0.1)
        assert bare.count == 0 and bare.confidence >= 0.5
        seams = checkers.read_tray(self.maps("black", 0.0, edges=1.0), "black", visible=0.1)
        assert seams.confidence < 0.5

    def test_thin_stripes_are_no_empty_tray(self) -> None:
        reading = checkers.read_tray(self.maps("white", 60.0, stripes=True), "white")
        assert not (reading.count == 0 and reading.confidence >= 0.5)


class TestEmptyBoardComparison:
    """What differs from the empty board: not a triangle's edge a pixel off, but a checker."""

    @staticmethod
    def board_with_triangle(shift: int = 0) -> np.ndarray:
        lab = np.full((120, 120, 3), (200.0, 128.0, 140.0), np.float32)  # cream field
        triangle = np.array([[20 + shift, 100], [60 + shift, 100], [40 + shift, 10]], np.int32)
        cv2.fillPoly(lab, [triangle], (60.0, 128.0, 128.0))  # a dark point
        return lab

    def test_a_frame_a_pixel_off_shows_nothing_new(self) -> None:
        reference = self.board_with_triangle()
        low, high = maps_module.reference_envelope(reference)
        nudged = self.board_with_triangle(shift=1)
        plain = maps_module.colour_distance(nudged, reference)
        tolerant = maps_module.distance_to_range(nudged, low, high)
        assert plain.max() > 40 and tolerant.max() < 5

    def test_a_checker_still_shows(self) -> None:
        reference = self.board_with_triangle()
        low, high = maps_module.reference_envelope(reference)
        frame = reference.copy()
        cv2.circle(frame, (90, 60), 18, (240.0, 128.0, 128.0), -1)
        assert maps_module.distance_to_range(frame, low, high)[60, 90] > 20

    def test_a_borrowed_point_takes_on_its_own_light(self) -> None:
        own = np.full((220, 40, 3), (150.0, 128.0, 140.0), np.float32)
        sibling = own + np.float32(25.0) * np.array([1, 0, 0], np.float32)  # under the lamp
        relit = reference_module._relit(sibling, own, reach=190, scale=1.0)
        assert np.allclose(relit, own, atol=0.5)

    def test_a_wall_s_shade_over_the_point_is_its_light(self) -> None:
        own = np.full((220, 40, 3), (100.0, 128.0, 140.0), np.float32)  # in the wall's shade
        sibling = own.copy()
        sibling[..., 0] = 160.0
        relit = reference_module._relit(sibling, own, reach=60, scale=1.0)
        assert np.allclose(relit, own, atol=0.5)

    def test_a_pool_of_light_on_the_sibling_s_far_end_is_no_shade(self) -> None:
        """Lit brighter toward the centre line (a lamp's pool), the sibling's far end makes
        the point seem in shade; darkened by it, the strip under the checkers would differ
        from the point's empty look everywhere (a white triangle turned grey)."""
        own = np.full((220, 40, 3), (150.0, 128.0, 140.0), np.float32)
        sibling = own.copy()
        sibling[120:, :, 0] = 230.0
        relit = reference_module._relit(sibling, own, reach=60, scale=1.0)
        assert np.allclose(relit[:90], own[:90], atol=0.5)


class TestMissedDiceLeftOver:
    """A die whose face matches the board shows only its pips; it must not pass unseen."""

    @staticmethod
    def blank() -> np.ndarray:
        return np.zeros((200, 200), np.uint8)

    def test_pips_of_a_face_are_something_die_sized(self) -> None:
        left = self.blank()
        for dx in (0, 10):  # a six: two columns of three pips
            for dy in (0, 5, 10):
                cv2.circle(left, (100 + dx, 100 + dy), 2, 1, -1)
        assert reader._pip_cluster(left, self.blank(), 1.0)

    def test_a_line_is_no_die(self) -> None:
        left = self.blank()
        left[50:80, 100:103] = 1  # a triangle's edge a pixel off
        assert not reader._pip_cluster(left, self.blank(), 1.0)

    def test_bits_beside_a_checker_are_its_side_or_shadow(self) -> None:
        left = self.blank()
        left[100:112, 100:112] = 1
        beside = self.blank()
        beside[95:105, 95:105] = 1
        assert not reader._pip_cluster(left, beside, 1.0)

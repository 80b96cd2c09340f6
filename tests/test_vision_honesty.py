"""The reader's rules for saying "unsure" instead of guessing, each on a small made-up case.

These are the general causes of confident-but-wrong readings found on the simulator: a checker
the colour of the board beneath it, a die missed, unsure counts that cancel out in the total of
fifteen, a stray spot beside a die, a die leaning on nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from companion import geometry as g
from companion.vision import checkers, dice, reader, reference
from companion.vision.maps import PlaneMaps
from companion.vision.plane import VIEW_BOTTOM, VIEW_LEFT, VIEW_RIGHT, VIEW_TOP
from companion.vision.reading import Counts, DieReading

AXIS = checkers.AXIS_LENGTH


def region(count: int, confidence: float = 1.0, *alternatives: int) -> checkers.RegionReading:
    return checkers.RegionReading(count, confidence, alternatives=alternatives)


def found_die(
    x: float, y: float, value: int = 4, face: float = 1.0, rest: float | None = None
) -> dice.FoundDie:
    """A flat die read at ``(x, y)`` (mm), its face as sure as ``face``, its rest as ``rest``
    (by default as its face)."""
    reading = DieReading(value, True, g.half_of(x, y), (0.0, 0.0), face if rest is None else rest)
    return dice.FoundDie(reading, (x, y), g.DIE_SIZE, (x, y), face, (x, y))


def empty_points() -> list[checkers.RegionReading]:
    return [region(0) for _ in range(24)]


class TestCamouflage:
    def test_a_bare_look_where_checkers_match_the_board_is_unsure(self) -> None:
        hiding = np.ones(AXIS)  # black checkers on black points in dim light
        doubted = checkers._doubt_camouflage(region(0), hiding, np.zeros(AXIS))
        assert doubted.confidence < 0.5 and doubted.count == 0

    def test_a_rim_seen_there_settles_it(self) -> None:
        hiding = np.ones(AXIS)
        kept = checkers._doubt_camouflage(region(2), hiding, np.ones(AXIS))
        assert kept.confidence == 1.0

    def test_a_board_unlike_the_checkers_needs_no_rim(self) -> None:
        kept = checkers._doubt_camouflage(region(3), np.zeros(AXIS), np.zeros(AXIS))
        assert kept.confidence == 1.0

    def test_a_stack_can_only_hide_more_of_its_own_colour(self) -> None:
        """A white stack on a dark point where black checkers blend in: the next checker
        there is white and would show; an empty point could hide a black one."""
        camouflage = np.stack([np.zeros(AXIS), np.ones(AXIS)])
        white_next = checkers._hiding_next(2, camouflage)
        kept = checkers._doubt_camouflage(region(2), white_next, np.zeros(AXIS))
        assert kept.confidence == 1.0
        either_next = checkers._hiding_next(0, camouflage)
        doubted = checkers._doubt_camouflage(region(0), either_next, np.zeros(AXIS))
        assert doubted.confidence < 0.5
        black_next = checkers._hiding_next(-2, camouflage)
        assert checkers._doubt_camouflage(region(-2), black_next, np.zeros(AXIS)).confidence < 0.5

    def test_only_the_place_of_one_more_checker_matters(self) -> None:
        hiding = np.zeros(AXIS)
        hiding[: 3 * 36] = 1.0  # camouflage under the three checkers read, none beyond
        kept = checkers._doubt_camouflage(region(3), hiding, np.zeros(AXIS))
        assert kept.confidence == 1.0


class TestSeams:
    def test_one_checker_pays_for_a_seam_it_cannot_explain(self) -> None:
        occupancy = checkers._expected_occupancy(2, "line")
        seams = checkers._expected_seams(2, "line")
        found, confidence, _ = checkers.count_stack(occupancy, seams)
        assert found == 2 and confidence > 0.5

    def test_every_point_at_once_matches_one_at_a_time(self) -> None:
        rng = np.random.default_rng(3)
        lightness = rng.uniform(20, 200, (24, AXIS))
        together = checkers._seam_profile(lightness)
        alone = checkers._seam_profile(lightness[5])
        assert np.allclose(together[5], alone)


class TestFifteen:
    def test_a_lone_doubt_is_settled_by_the_total(self) -> None:
        regions = empty_points()
        regions[0] = region(15)
        regions[23] = region(-14, 0.2, -15)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert settled[23].count == -15 and settled[23].confidence >= 0.5

    def test_a_checker_seen_is_never_taken_away_to_make_fifteen(self) -> None:
        """Black's stack counted one too many, surely, and a lone black checker read unsurely
        (development 5049): the total would take the lone checker away, and the frame would
        pass with two points wrong. It stays in doubt."""
        regions = empty_points()
        regions[0] = region(15)
        regions[18] = region(-15)
        regions[2] = region(-1, 0.0, 0)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert settled[2].count == -1 and settled[2].confidence < 0.5
        # its count the total agrees with is confirmed
        regions[18] = region(-14)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert settled[2].count == -1 and settled[2].confidence >= 0.5

    def test_two_counts_changed_to_fit_are_not_trusted(self) -> None:
        regions = empty_points()
        regions[0] = region(14, 0.2, 15)
        regions[23] = region(-14, 0.2, -15)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert settled[0].confidence < 0.5 and settled[23].confidence < 0.5

    def test_a_tray_seen_empty_is_never_filled_to_make_fifteen(self) -> None:
        """Black's stack read one short (surely) and black's empty tray in doubt: the total
        would put the missing checker in the tray, and the frame would pass, wrong."""
        regions = empty_points()
        regions[0] = region(15)
        regions[23] = region(-14)
        trays = [region(0), region(0, 0.2, -1)]
        settled = reader.resolve_by_fifteen(regions + trays, Counts(0, 0), 0.5)
        assert settled[25].count == 0 and settled[25].confidence < 0.5
        # a tray's count the total agrees with is confirmed
        regions[23] = region(-15)
        settled = reader.resolve_by_fifteen(regions + trays, Counts(0, 0), 0.5)
        assert settled[25].count == 0 and settled[25].confidence >= 0.5

    def test_a_tray_seen_holding_checkers_is_corrected_by_the_total(self) -> None:
        """A row of standing checkers whose length lies between two counts (white's tray
        in the demo's bear-off, two read as one) is settled by the total."""
        regions = empty_points()
        regions[0] = region(13)
        regions[23] = region(-15)
        trays = [region(1, 0.0, 0, 2, 3), region(0)]
        settled = reader.resolve_by_fifteen(regions + trays, Counts(0, 0), 0.5)
        assert settled[24].count == 2 and settled[24].confidence >= 0.5

    def test_points_in_doubt_read_empty_are_seen_empty_when_the_rest_counts_fifteen(
        self,
    ) -> None:
        """Dark points where a dark checker could hide, eight of them: with fifteen checkers
        a side counted surely elsewhere, none can hide there."""
        regions = empty_points()
        regions[0] = region(15)
        regions[23] = region(-15)
        doubted = (2, 4, 6, 8, 10, 14, 16, 18)
        for index in doubted:
            regions[index] = region(0, 0.2)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert all(settled[i].count == 0 and settled[i].confidence >= 0.5 for i in doubted)
        # one checker short: it may hide on any of them, and none is seen empty
        regions[23] = region(-14)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert all(settled[i].confidence < 0.5 for i in doubted)

    def test_a_point_in_doubt_read_empty_may_hide_what_a_stack_read_unsurely_lacks(
        self,
    ) -> None:
        """A stack read as two (or one) unsurely and an empty point in doubt: fifteen with the
        two, and fifteen with one and a checker hidden on the empty point. Neither is sure."""
        regions = empty_points()
        regions[0] = region(13)
        regions[23] = region(-15)
        regions[5] = region(2, 0.2, 1)
        alone = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert alone[5].count == 2 and alone[5].confidence >= 0.5
        regions[7] = region(0, 0.2)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert settled[5].confidence < 0.5 and settled[7].confidence < 0.5

    def test_many_doubts_are_left_unsure(self) -> None:
        regions = empty_points()
        regions[0] = region(10)
        regions[23] = region(-10)
        for index in (2, 4, 6, 8, 10):
            regions[index] = region(1, 0.2)
        for index in (13, 15, 17, 19, 21):
            regions[index] = region(-1, 0.2)
        settled = reader.resolve_by_fifteen(regions, Counts(0, 0), 0.5)
        assert all(r.confidence < 0.5 for r in settled if abs(r.count) == 1)


class TestDiceLeaning:
    def test_a_die_in_the_open_leans_on_nothing(self) -> None:
        die = found_die(120.0, g.PLAY_HEIGHT / 2)
        assert reader.leans_on_nothing(die, empty_points(), Counts(0, 0), [die])

    def test_a_die_beside_a_checker_may_lean_on_it(self) -> None:
        x, y, _ = g.stack_centres(20, 1)[0]
        die = found_die(x, y + g.CHECKER_DIAMETER / 2 + 10.0)
        points = empty_points()
        points[19] = region(1)
        assert not reader.leans_on_nothing(die, points, Counts(0, 0), [die])

    def test_a_die_by_the_wall_or_the_other_die_may_lean(self) -> None:
        by_wall = found_die(8.0, g.PLAY_HEIGHT / 2)
        assert not reader.leans_on_nothing(by_wall, empty_points(), Counts(0, 0), [by_wall])
        one, two = found_die(120.0, 220.0), found_die(140.0, 220.0)
        assert not reader.leans_on_nothing(one, empty_points(), Counts(0, 0), [one, two])

    def test_the_other_die_holds_one_up_only_within_a_corner_s_reach(self) -> None:
        """A die leans on the other only where the other's nearest corner is within reach:
        centres about 28 mm apart at most."""
        one, near, apart = found_die(120.0, 220.0), found_die(145.0, 220.0), found_die(154.0, 220.0)
        assert not reader.leans_on_nothing(one, empty_points(), Counts(0, 0), [one, near])
        assert reader.leans_on_nothing(one, empty_points(), Counts(0, 0), [one, apart])

    def test_a_point_in_doubt_may_hold_a_whole_line_to_lean_on(self) -> None:
        """Dark checkers on a dark point, read as one in doubt: the die beside where the fifth
        would lie may lean on it, although no alternative count reaches it."""
        x, y, _ = g.stack_centres(20, 5)[4]
        die = found_die(x, y + g.CHECKER_DIAMETER / 2 + 10.0)
        points = empty_points()
        points[19] = region(1, 0.2, 0, 2)
        assert not reader.leans_on_nothing(die, points, Counts(0, 0), [die])
        # read surely, the point holds one checker, far from the die
        points[19] = region(1)
        assert reader.leans_on_nothing(die, points, Counts(0, 0), [die])

    def test_a_point_in_doubt_holds_a_line_or_one_more_than_its_tallest_reading(self) -> None:
        assert reader.tallest(region(2)) == 2
        assert reader.tallest(region(2, 1.0, 3)) == 3
        assert reader.tallest(region(2, 0.2, 3)) == reader.UNSURE_LINE
        assert reader.tallest(region(-7, 0.2, -8)) == 9

    def test_a_die_seen_alone_by_a_counted_checker_is_left_unsure(self) -> None:
        """The dice reader called it flat surely for nothing showing beside it
        (``FoundDie.alone``); a checker the colour of the board beneath it shows nothing, but
        the reader counted one 2 mm from the die's corners. 14 mm away, the die stays sure."""
        x, y, _ = g.stack_centres(20, 1)[0]
        corner = g.CHECKER_DIAMETER / 2 + dice.HALF_DIAGONAL
        points = empty_points()
        points[19] = region(1)
        near = replace(found_die(x, y + corner + 2.0), alone=True)
        settled = reader.settle_free_dice([near], points, Counts(0, 0))
        assert settled[0].reading.flat and settled[0].reading.confidence < 0.5
        far = replace(found_die(x, y + corner + 14.0), alone=True)
        settled = reader.settle_free_dice([far], points, Counts(0, 0))
        assert settled[0].reading.confidence >= 0.5

    def test_a_die_seen_alone_by_a_point_read_empty_in_doubt_is_left_unsure(self) -> None:
        """A point the reader doubts may hold a line of checkers: under a shaded lamp gold
        checkers a die leaned on were read as none, in doubt, and the die flat surely."""
        x, y, _ = g.stack_centres(20, 4)[3]
        corner = g.CHECKER_DIAMETER / 2 + dice.HALF_DIAGONAL
        points = empty_points()
        points[19] = region(0, 0.0)
        near = replace(found_die(x, y + corner + 2.0), alone=True)
        settled = reader.settle_free_dice([near], points, Counts(0, 0))
        assert settled[0].reading.flat and settled[0].reading.confidence < 0.5
        points[19] = region(0)  # seen empty surely: the die stays sure
        settled = reader.settle_free_dice([near], points, Counts(0, 0))
        assert settled[0].reading.confidence >= 0.5

    def test_free_dice_are_settled_flat_as_surely_as_their_face(self) -> None:
        die = found_die(120.0, g.PLAY_HEIGHT / 2)
        unsure = dice.FoundDie(
            DieReading(4, True, "outer", (0.0, 0.0), 0.3), die.centre_mm, g.DIE_SIZE,
            die.view_mm, 0.9, die.footprint_mm,
        )  # fmt: skip
        settled = reader.settle_free_dice([unsure], empty_points(), Counts(0, 0))
        assert settled[0].reading.flat and settled[0].reading.confidence == 0.9

    def test_a_die_the_frame_shows_cocked_at_all_stays_unsure(self) -> None:
        """However faint the tilt, "nothing near to lean on" rests on the checkers read, and
        the one a die leans on is the one it hides: its rest stays in doubt."""
        die = found_die(120.0, g.PLAY_HEIGHT / 2)
        for sureness in (0.1, 0.3, 0.9, 1.0):
            cocked = dice.FoundDie(
                DieReading(4, False, "outer", (0.0, 0.0), sureness), die.centre_mm,
                g.DIE_SIZE, die.view_mm, 0.9, die.footprint_mm,
            )  # fmt: skip
            settled = reader.settle_free_dice([cocked], empty_points(), Counts(0, 0))
            assert not settled[0].reading.flat
            assert settled[0].reading.confidence <= dice.UNSURE_REST

    @staticmethod
    def unclear_rest(x: float, y: float) -> dice.FoundDie:
        """A die seen flat with checker colour on part of the ring round it: left unsure, as
        the dice reader leaves it, with its reading were it plainly beside (sure and flat)."""
        beside = found_die(x, y)
        unsure = replace(beside.reading, confidence=dice.UNSURE_REST)
        return replace(beside, reading=unsure, beside=beside, raised_mm=(x, y))

    def test_a_die_no_checker_read_could_hold_is_judged_beside_them(self) -> None:
        """Touching a stack's second checker from the side, checker colour on part of the
        ring round it: no checker read lies under its middle, so it rests on the board, and
        its rest is judged so."""
        x, y, _ = g.stack_centres(20, 2)[1]
        between = x + g.CHECKER_DIAMETER / 2 + g.DIE_SIZE / 2 + 0.5
        points = empty_points()
        points[19] = region(2)
        die = self.unclear_rest(between, y)
        settled = reader.settle_free_dice([die], points, Counts(0, 0))
        assert settled[0].reading.flat and settled[0].reading.confidence == 1.0

    def test_a_die_judged_flat_beside_only_for_nothing_showing_there_stays_unsure(
        self,
    ) -> None:
        """By the frame's wall, no checker read anywhere near: judged plainly beside, it was
        flat only for the frame's colours showing nothing to lean on (``alone``), where its
        ring showed something. The two disagree (development 6258: leaning 19 degrees on
        the frame)."""
        die = self.unclear_rest(g.PLAY_WIDTH - g.DIE_SIZE / 2 - 1.0, 220.0)
        assert die.beside is not None
        die = replace(die, beside=replace(die.beside, alone=True))
        settled = reader.settle_free_dice([die], empty_points(), Counts(0, 0))
        assert settled[0].reading.confidence <= dice.UNSURE_REST

    def test_a_die_whose_middle_a_checker_read_may_hold_stays_unsure(self) -> None:
        """A level die on a checker counts as cocked: where a checker read (or one a point in
        doubt may hold) lies under its middle, whether it rests on it stays a guess."""
        x, y, _ = g.stack_centres(20, 2)[1]
        off_centre = x + g.CHECKER_DIAMETER / 2 + reader.ON_A_CHECKER_SLACK - 1.0
        points = empty_points()
        points[19] = region(2)
        settled = reader.settle_free_dice([self.unclear_rest(off_centre, y)], points, Counts(0, 0))
        assert settled[0].reading.confidence <= dice.UNSURE_REST
        # the second checker's place, on a point read as one checker in doubt
        points[19] = region(1, 0.2)
        settled = reader.settle_free_dice([self.unclear_rest(x, y)], points, Counts(0, 0))
        assert settled[0].reading.confidence <= dice.UNSURE_REST


class TestWhereADieMayRest:
    """A die cannot lie flat where two checkers of a stack touch (the gap between them looks
    like a pip); only a count read surely says where they touch."""

    @staticmethod
    def at_the_seam(
        number: int, count: int, value: int = 1, face: float = 1.0, rest: float | None = None
    ) -> dice.FoundDie:
        """A die seen where the last two checkers touch: by default a one, as the gap
        between them reads."""
        (x, y0, _), (_, y1, _) = g.stack_centres(number, count)[count - 2 : count]
        return found_die(x, (y0 + y1) / 2, value, face, rest)

    def test_a_die_where_two_checkers_of_a_sure_stack_touch_is_their_seam(self) -> None:
        points = empty_points()
        points[3] = region(3)
        assert not reader.could_rest_there(self.at_the_seam(4, 3), points)

    def test_a_die_clear_of_the_checkers_or_on_one_s_middle_may_rest(self) -> None:
        points = empty_points()
        points[3] = region(3)
        x, y, _ = g.stack_centres(4, 3)[2]
        assert reader.could_rest_there(found_die(x, y), points)
        assert reader.could_rest_there(found_die(120.0, g.PLAY_HEIGHT / 2), points)

    @staticmethod
    def reads(
        stack_under_die: int,
        stack_without: int,
        die: dice.FoundDie,
        number: int = 4,
        confidence: float = 0.2,
    ) -> tuple[
        Callable[[list[dice.FoundDie]], list[checkers.RegionReading]], list[list[dice.FoundDie]]
    ]:
        """Points read with the given dice masked: the stack on ``number`` reads
        ``stack_under_die`` while ``die`` is masked, ``stack_without`` when it is not."""
        calls: list[list[dice.FoundDie]] = []

        def read_round(lying: list[dice.FoundDie]) -> list[checkers.RegionReading]:
            calls.append(list(lying))
            points = empty_points()
            count = stack_under_die if die in lying else stack_without
            points[number - 1] = region(count, confidence)
            return points

        return read_round, calls

    def test_a_die_beside_a_stack_that_reaches_it_only_under_its_mask_stays(self) -> None:
        # development seed 5084: a 5 lying beside a one-checker stack was dropped as the seam
        # of the two checkers the stack read with the die hidden (it may go on under a die)
        x, y, _ = g.stack_centres(4, 2)[1]
        die = found_die(x + 14.0, y - 8.0, value=5, face=0.8)
        assert not reader.could_rest_there(
            die, [*empty_points()[:3], region(2), *empty_points()[4:]]
        )
        read_round, calls = self.reads(2, 1, die)
        lying, points = reader.dice_clear_of_seams([die], read_round)
        assert lying == [die]
        assert points[3].count == 2  # read, in the end, with the die masked
        assert calls == [[die], []]  # read with it, without it, and no more

    def test_a_seam_read_the_same_without_the_die_is_dropped(self) -> None:
        ghost = self.at_the_seam(4, 3)
        other = found_die(120.0, g.PLAY_HEIGHT / 2, value=6)
        read_round, calls = self.reads(3, 3, ghost)
        lying, points = reader.dice_clear_of_seams([ghost, other], read_round)
        assert lying == [other]
        assert points[3].count == 3
        assert calls == [[ghost, other], [other]]

    def test_a_faint_face_or_a_doubtful_rest_at_a_seam_is_dropped_too(self) -> None:
        # real photographs: a hinge's six screws by a stack, read surely as a six leaning on it
        for face, rest in ((0.8, 0.8), (1.0, dice.UNSURE_REST)):
            ghost = self.at_the_seam(4, 3, value=6, face=face, rest=rest)
            read_round, _ = self.reads(3, 3, ghost, confidence=1.0)
            lying, points = reader.dice_clear_of_seams([ghost], read_round)
            assert lying == [] and points[3] == region(3)

    def test_a_face_read_on_a_checker_at_a_seam_is_dropped(self) -> None:
        # the demo: a line of four read surely as a three resting on its third checker
        seam = self.at_the_seam(4, 4, value=3)
        ghost = replace(seam, reading=replace(seam.reading, on_checker=True))
        read_round, _ = self.reads(4, 4, ghost, confidence=1.0)
        lying, points = reader.dice_clear_of_seams([ghost], read_round)
        assert lying == [] and points[3] == region(4)

    def test_a_face_read_plainly_is_no_seam_and_the_stack_reaching_it_is_in_doubt(self) -> None:
        # development seed 5067: a 2 beside three gold checkers, read as their fourth, was
        # dropped as a seam of four, and the four then read surely
        for value in (2, 4, 6):
            die = self.at_the_seam(4, 4, value=value)
            read_round, calls = self.reads(4, 4, die, confidence=1.0)
            lying, points = reader.dice_clear_of_seams([die], read_round)
            assert lying == [die]
            assert calls == [[die]]
            assert points[3].count == 4
            assert points[3].confidence < 0.5
            assert 3 in points[3].alternatives  # the die taken for the stack's last checker

    @staticmethod
    def beyond_the_end(
        number: int,
        count: int,
        top_shift: float,
        face: float = 1.0,
        foot_out: float = 27.0,
    ) -> dice.FoundDie:
        """A one touching the end of a stack of ``count`` (its footprint ``foot_out`` mm beyond
        the last checker's centre), its top read ``top_shift`` mm back toward the stack, as a
        camera from the far side sees it; its rest in doubt, as a die touching a checker is."""
        (x, y0, _), (_, y1, _) = g.stack_centres(number, count)[count - 2 : count]
        out = 1.0 if y1 > y0 else -1.0
        foot = (x, y1 + out * foot_out)
        top = (x, foot[1] - out * top_shift)
        reading = DieReading(1, True, g.half_of(*foot), (0.0, 0.0), dice.UNSURE_REST)
        return dice.FoundDie(reading, top, g.DIE_SIZE, top, face, foot)

    def test_a_die_whose_footprint_lies_clear_of_the_stack_it_touches_stays(self) -> None:
        # development frames of cocked dice: a die touching a stack's end from the camera's
        # far side shows its top over the stack's end, and was dropped as the seam of the
        # stack read with it unmasked one longer; its footprint lies beyond the stack
        die = self.beyond_the_end(4, 3, top_shift=7.0)
        three = [*empty_points()[:3], region(3), *empty_points()[4:]]
        assert not reader.could_rest_there(die, three) and reader.footing_clear(die, three)
        read_round, _ = self.reads(3, 4, die)
        lying, points = reader.dice_clear_of_seams([die], read_round)
        assert lying == [die]
        assert points[3].confidence < 0.5 and 2 in points[3].alternatives

    def test_a_faint_face_over_a_stack_s_end_is_dropped_whatever_its_footprint(self) -> None:
        die = self.beyond_the_end(4, 3, top_shift=7.0, face=0.8)
        read_round, _ = self.reads(3, 4, die)
        lying, points = reader.dice_clear_of_seams([die], read_round)
        assert lying == [] and points[3] == region(4, 0.2)

    @staticmethod
    def board(bare: bool) -> PlaneMaps:
        """A frame's maps at 1 px/mm, the board bare everywhere or covered everywhere."""
        shape = (round(VIEW_BOTTOM - VIEW_TOP), round(VIEW_RIGHT - VIEW_LEFT))
        cover = np.full(shape, 0.0 if bare else 1.0, np.float32)
        lab = np.zeros((*shape, 3), np.float32)
        return PlaneMaps(1.0, lab, cover, cover, cover, cover, cover)

    def test_a_stack_s_last_checker_seen_bare_beyond_the_die_was_the_die(self) -> None:
        # a die whose footprint lies within the reach of the checker a stack read where the
        # die lies (its face not read surely): the rest of that checker's place is bare
        die = self.beyond_the_end(4, 3, top_shift=0.0, face=0.8, foot_out=24.0)
        four = [*empty_points()[:3], region(4), *empty_points()[4:]]
        assert not reader.footing_clear(die, four)
        assert reader.taken_for_the_next_checker(die, four, self.board(bare=True))
        assert not reader.taken_for_the_next_checker(die, four, self.board(bare=False))
        read_round, _ = self.reads(4, 4, die)
        lying, points = reader.dice_clear_of_seams([die], read_round, self.board(bare=True))
        assert lying == [die]
        assert points[3].confidence < 0.5 and 3 in points[3].alternatives
        lying, _ = reader.dice_clear_of_seams([die], read_round, self.board(bare=False))
        assert lying == []

    def test_a_die_on_the_place_a_stack_read_is_no_checker_taken_for_it(self) -> None:
        # seen within the reach of a die lying on that checker, the die's rest there is
        # for the rules of dice on checkers; and no stack would be doubted for it
        die = self.beyond_the_end(4, 3, top_shift=0.0, face=0.8, foot_out=30.0)
        four = [*empty_points()[:3], region(4), *empty_points()[4:]]
        assert not reader.taken_for_the_next_checker(die, four, self.board(bare=True))

    def test_a_seam_between_two_checkers_seen_is_no_die_however_bare_the_board(self) -> None:
        ghost = self.at_the_seam(4, 3)
        three = [*empty_points()[:3], region(3), *empty_points()[4:]]
        assert not reader.taken_for_the_next_checker(ghost, three, self.board(bare=True))

    def test_a_black_stack_reaching_a_die_may_be_one_shorter(self) -> None:
        die = self.at_the_seam(20, 3, value=6)
        points = empty_points()
        points[19] = region(-3)
        assert reader.doubt_stacks_under_dice([die], points)[19].alternatives == (-2,)

    def test_stacks_clear_of_every_die_keep_their_confidence(self) -> None:
        points = empty_points()
        points[3] = region(3)
        points[19] = region(-2)
        die = found_die(120.0, g.PLAY_HEIGHT / 2, value=6)
        assert reader.doubt_stacks_under_dice([die], points) == points


class TestBorneOff:
    """The tops of checkers borne off, standing on edge in a tray, are no die."""

    @staticmethod
    def in_tray(colour: str, slots_in: float) -> dice.FoundDie:
        x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
        along = slots_in * g.TRAY_SLOT
        return found_die((x0 + x1) / 2, y1 - along if colour == "white" else y0 + along)

    def test_a_die_among_the_standing_checkers_is_their_tops(self) -> None:
        for colour in ("white", "black"):
            die = self.in_tray(colour, 2.0)
            assert reader.among_borne_off(die, colour, 3, 0.0)  # type: ignore[arg-type]

    def test_a_die_in_the_tray_beyond_the_row_or_an_empty_tray_is_not(self) -> None:
        die = self.in_tray("black", 8.0)
        assert not reader.among_borne_off(die, "black", 3, 5.0)
        assert not reader.among_borne_off(self.in_tray("black", 1.0), "black", 0, 5.0)

    def test_the_tops_a_tilted_camera_sees_beyond_the_row_count(self) -> None:
        die = self.in_tray("white", 4.0)
        assert not reader.among_borne_off(die, "white", 3, 0.0)
        assert reader.among_borne_off(die, "white", 3, g.TRAY_SLOT)

    def test_a_die_beside_the_tray_is_not(self) -> None:
        x0, y0, _, _ = g.tray_rect("black")
        assert not reader.among_borne_off(found_die(x0 - 12.0, y0 + 10.0), "black", 5, 0.0)


class TestEmptyBoard:
    def test_a_point_keeps_its_own_look_beyond_its_checkers(self) -> None:
        sibling = np.full((220, 40, 3), (120.0, 128.0, 128.0), np.float32)
        own = sibling + np.float32(3.0)  # the same board in slightly different shade
        own[:72] = (40.0, 128.0, 128.0)  # two checkers from the base
        reach = reference._stack_reach(own, sibling, 1.0)
        assert 72 <= reach <= 72 + reference.STACK_MARGIN + 1

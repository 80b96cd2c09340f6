"""Vision benchmark: accuracy on simulator frames from unseen seeds, real photos, and speed.

Run: ``python benchmarks/vision.py`` (500 frames, several minutes) or ``--frames 60`` for a
quick look. Seeds start at 900000, far from every seed used while developing (0-10000).

Each frame is one setup (board style, checkers, light, camera from the seed) calibrated from
its own opening frame with the corners the renderer reports (the board finder is scored apart,
on the same setups); then a random position of that setup is read. Frames are of four kinds
in turn: plain (two flat dice), a cocked die, a die in the wrong half, a hand over the board.

Prints every figure of issue 4: whole-board exact on readable frames, die values exact, cocked
dice caught, flat dice called cocked, wrong-side dice caught, hands called unreadable, confident
but wrong readings, read and calibration times (cv2.setNumThreads(1)), peak memory; and on the
real photographs in ../shared/real-photos/ (skipped when absent): die values on the 172
labelled dice, the board found on board frames, and frames with hands called unreadable.

Measured on the 500 frames (2 cores, cv2 on one thread), session 1 -> 2 -> 3 (session 3's
frames come from a renderer that looks more like a camera's, so they are not the same frames):
confident but wrong 0.0% -> 0.2% -> 0.0% (session 2's frame: unsure places of one colour
settled together by the total of fifteen; the total no longer fills a tray seen empty);
readable 6.6% -> 8.2% -> 10.4% (exact among them 100% -> 97.6% -> 100%); die values 80.4% ->
92.1% -> 92.7%; cocked caught 74.4% -> 76.0% -> 79.2%; flat called cocked 6.7% -> 8.8% ->
8.8%; wrong side caught 97.6% -> 99.2% -> 100%; hands unreadable 100%; board found 42% -> 94%
-> 96%; read median 74 -> 75 -> 48 ms; a reading process peaks at 128 MB (125 MB).
Session 4 (same frames as session 3): confident but wrong 0.0%; readable 11.6% (all exact);
die values 92.9%; cocked caught 75.2%, flat called cocked 3.4% (surely: 0.8% / 0.0%); board
found 97%; read median 49 ms; real dice 57.0% -> 81.4% right; real boards found 5 -> 9 of 17.
Boards of other proportions (new, seeds from 950000), 100: proportions measured on 79 (ends a
median 0.7 mm off), 17 readable and all exact, none confidently wrong.
Session 5 (its frames show the simulator's new checker looks -- rings, marbling, logos -- on 7
seeds in 8, so they are not the same frames): confident but wrong 0.0%; readable 11.6% (all
exact); die values 93.3%; cocked caught 76.8%, flat called cocked 3.3% (surely: 0.8% / 0.0%);
board found 95% (3 wrong); read median 44.0 ms (49.6 on a busier machine). Boards of other
proportions: 78 measured, 17 readable, all exact, 1 of 2124 sure points wrong. Boards with
strips by frame and bar (new, seeds from 960000): strips along the frame on 60 of 100,
measured a median 0.3 mm off (worst 5.0); 17 readable, all exact; 7 of 2119 sure points wrong;
the board finder on them: 35 found, 37 wrong, 28 refused.

Calibration with no corners given (new in session 6, seeds from 970000): what a new user gets
from ``companion calibrate IMAGE`` alone, on standard boards and boards of other proportions in
turn, each read with the profile made from the finder's corners and, for comparison, with one
made from the renderer's. Session 5's code on 50 setups: standard 24 of 25 calibrated (all
within 10 px), 3 readable (as many as with the renderer's corners); other proportions 18 of 25
calibrated, 5 of them with corners 10 px or more off, 3 readable (as many), none confidently
wrong. Session 6 (its simulator's frame stands 15 mm high and its hands are new, so the frames
differ again): standard 25 of 25 calibrated (1 off), 3 readable; other proportions 24 of 25
calibrated (7 off), 2 readable (as many as with the renderer's corners); none confidently
wrong; sure points wrong 5 of 542 and 5 of 498 (3 and 2 with the renderer's corners).
Session 6 on the 500 frames: confident but wrong 0.2% (seed 900469: the board read exactly, a
cocked die let stand surely, so the roll was judged valid), readable 12.0% (all
boards exact), die values 92.8%, cocked caught 76.0%, flat called cocked 4.7% (surely: 3.2% /
0.0%), board found 95% (4% wrong), read median 48.1 ms. Boards with strips: the finder 38
found, 45 wrong, 17 refused; 1 confidently wrong reading of 100.
Session 7 (the same frames but those with a hand, whose hands are new): confident but wrong
0.0% (a die by a point in doubt may lean on a whole line there; a die shown cocked at all is
never settled flat), readable 12.6% (all exact), die values 92.6%, cocked caught 77.6%, flat
called cocked 6.7% (surely: 0.0% / 0.0%; dice left unsure 37.4% -> 33.2%), board found 94%
(5% wrong), read median 51.5 ms (43.4 ms CPU in benchmarks/read_speed.py; the machine was
busy). Boards with strips: the finder 45 found, 25 wrong, 30 refused; 19 readable (18 exact,
1 confidently wrong), 8 of 2140 sure points wrong; their halves measured on 96 (boards within
2.5 mm of the standard one are read as it, not within 6 mm).
Session 8 (the same frames): confident but wrong 0.0%, readable 12.6% (all exact); points read
surely but wrongly on the frames without a hand (a new figure: those frames stay unreadable
for other doubts) 29 of 8,129; die values 93.3% (a die beside a stack is no seam of it; flat
dice against a wall read surely), 95.0% of the dice in view; cocked caught 77.6%, flat called
cocked 7.1% (surely: 0.0% / 0.0%); board found 94% (5% wrong); read median 50.0 ms (busy).
Boards with strips: 20 readable (19 exact, 1 confidently wrong), 8 of 2,136 sure points wrong.
Session 9 (the same frames): confident but wrong 0.0%, readable 12.0% (all exact; 6 frames
readable before are now unsure of a point, a tray or a die, 3 others became readable: the
camouflage proof no longer takes a stack's outline against a point of the other colour for a
rim, and a die the colours show alone beside a checker counted there is unsure, while places
in doubt read empty are settled when the rest makes fifteen a side); points read surely but
wrongly on frames without a hand 28 of 8,215; die values 93.3% (95.0% in view); cocked caught
77.6%, flat called cocked 7.1% (surely: 0.0% / 0.0%); board found 95% (4% wrong); read median
47.0 ms (busy). Boards with strips: 19 readable, all exact, none confidently wrong (1 before),
8 of 2,175 sure points wrong; the finder 46 found, 24 wrong, 30 refused.
Session 10 (the same frames): confident but wrong 0.0%, readable 12.2% (all exact; a die read
surely beside a stack is kept, the stack in doubt); sure points wrong 28 of 8,216; die values
93.5% (95.2% in view); cocked caught 77.6%, flat called cocked 7.1% (surely: 0.0% / 0.0%);
board found 95% (4% wrong); read median 37.6 ms (busy; 32.7 ms warm CPU in read_speed.py).
The same seeds with --photo: confident but wrong 0.0%, readable 10.8% (all exact), sure points
wrong 33 of 8,095, die values 93.6%, cocked caught 75.2%, flat called cocked 7.3% (surely:
0.0% / 0.1%), board found 94% (6% wrong). Boards with strips and of other proportions as in
session 9.
Session 11 (the same frames): confident but wrong 0.2% (seed 900449: its cocked die, caught
surely now, had kept it unreadable; the roll is judged right, but two points are read surely
wrong and cancel in the total of fifteen), readable 12.8% (63 of 64 exact); sure points wrong
20 of 8,208 (a count the strips clearly disagree with is unsure); die values 93.8% (95.5% in
view); cocked caught 80.8% (a steep top measured on its own pips), flat called cocked 7.2%
(surely: 0.0% / 0.0%); board found 95% (4% wrong); read median 44.7 ms on a slower machine.
With --photo: readable 11.4%, the same frame confidently wrong, sure points wrong 24 of 8,079,
die values 93.7%, cocked caught 79.2%, flat called cocked 7.3% (surely 0.0% / 0.1%). Boards of
other proportions: 20 readable, all exact, 2 of 2,147 sure points wrong; with strips: 19, all
exact, 8 of 2,173.
Session 12 (the same frames): confident but wrong 0.2% (900449, as in session 11), readable
13.6% (67 of 68 exact: a flat die touching something is read flat surely where no lean of its
top would show this camera square, companion/vision/lean.py); sure points wrong 14 of 8,149 (the
total of fifteen never empties a place read holding checkers; a point read empty where its
middle shows something, and a stack whose last checker shows none of its colour, are unsure);
die values 93.8% (95.5% in view); cocked caught 80.8%, flat
called cocked 6.7% (surely: 0.0% / 0.0%); dice left unsure 35.9% (38.7%); board found 95% (4%
wrong); read median 46.5 ms (busy, slower machine). With --photo: readable 12.0% (59 of 60
exact, the same frame confidently wrong), sure points wrong 13 of 8,000, die values 93.7%,
cocked caught 80.0%, flat called cocked 6.9% (surely 0.0% / 0.1%), dice left unsure 37.6%.
Boards of other proportions: 21 readable, all exact, none of 2,134 sure points wrong; with
strips: 19, all exact, 7 of 2,151.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.allocator import keep_freed_buffers  # noqa: E402
from companion.rules.position import Position  # noqa: E402
from companion.sim import Checkers, DieSpec, InvalidScene, random_scene, render  # noqa: E402
from companion.sim import scene as scene_module  # noqa: E402
from companion.vision.board import BoardNotFound, find_board  # noqa: E402
from companion.vision.calibrate import CalibrationError, calibrate  # noqa: E402
from companion.vision.dice import read_die_in_box  # noqa: E402
from companion.vision.plane import order_clockwise  # noqa: E402
from companion.vision.profile import VIEW_SCALE, save_profile  # noqa: E402
from companion.vision.proportions import SNAP_MM  # noqa: E402
from companion.vision.reader import read_frame  # noqa: E402

FIRST_SEED = 900_000
SIMULATOR_TOLERANCE_PX = 10.0
"""A board found on a rendered frame whose corners all lie within this of the truth's."""
REAL = ROOT.parent / "shared" / "real-photos"
BOARD_PHOTOS = REAL / "christiancorro-BackgammonCV" / "images"
DICE_PHOTOS = REAL / "nell-byler-dice_detection"

# Judged by eye: which real board frames show a hand or arm over the board.
HAND_FRAMES = {
    "data__images__test__frame2.jpg": "arm reaching across the home board",
    "data__images__test__frame3.jpg": "arm over the bar and outer board",
    "data__images__test__frame4.jpg": "hand lifting checkers",
    "data__images__test__frame5.jpg": "hand over the board",
    "data__images__test__dices6.jpg": "arm over the board",
    "tests__hough_disk_detection__test5.png": "hand on the board",
}


def same_board(reading: object, truth: dict[str, object]) -> bool:
    return (
        list(reading.points) == truth["points"]  # type: ignore[attr-defined]
        and reading.bar.to_json() == truth["bar"]  # type: ignore[attr-defined]
        and reading.off.to_json() == truth["off"]  # type: ignore[attr-defined]
    )


def corners_off(frame: Any, corners_px: Any) -> float:
    """How far (px) the farthest of four corners lies from a rendered frame's true ones."""
    truth = np.array(order_clockwise(frame.truth["board_corners_px"]), dtype=float)
    return float(np.max(np.linalg.norm(np.array(corners_px, dtype=float) - truth, axis=1)))


def finder_outcome(frame: Any) -> str:
    """What the board finder makes of a rendered frame: "found" (every corner within
    :data:`SIMULATOR_TOLERANCE_PX` of the truth's), "wrong" or "refused"."""
    try:
        found = find_board(frame.image).corners_px
    except BoardNotFound:
        return "refused"
    return "found" if corners_off(frame, found) < SIMULATOR_TOLERANCE_PX else "wrong"


def sure_points(reading: Any) -> list[int]:
    """Indices of the points a reading counted surely."""
    return [n for n in range(24) if reading.confidence[f"point {n + 1}"] >= 0.5]


def tally_reading(counts: dict[str, int], reading: Any, truth: dict[str, Any]) -> None:
    """Counts a reading of a rendered frame in: readable, exact or confidently wrong, and how
    many points it read surely, wrongly."""
    exact = same_board(reading, truth)
    counts["readable"] += reading.readable
    counts["exact"] += reading.readable and exact
    counts["confident_wrong"] += reading.readable and not exact
    tally_sure(counts, reading, truth)


def tally_sure(counts: dict[str, int], reading: Any, truth: dict[str, Any]) -> None:
    """Counts in how many points a reading read surely, and how many of them wrongly."""
    sure = sure_points(reading)
    counts["sure"] += len(sure)
    counts["sure_wrong"] += sum(reading.points[n] != truth["points"][n] for n in sure)


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} = {100.0 * part / whole:.1f}%" if whole else "n/a (none)"


def simulator(frames: int, first_seed: int = FIRST_SEED) -> None:
    rng = np.random.default_rng(first_seed)
    opening = Position.opening().to_absolute("white")
    counts = {
        "frames": 0, "readable": 0, "board_exact": 0, "confident_wrong": 0,
        "dice": 0, "dice_exact": 0, "dice_in_view": 0, "dice_in_view_exact": 0,
        "cocked": 0, "cocked_caught": 0,
        "flat": 0, "flat_called_cocked": 0, "wrong_side": 0, "wrong_side_caught": 0,
        "hands": 0, "hands_unreadable": 0, "calibration_failed": 0,
        "board_found": 0, "board_tried": 0, "board_wrong": 0, "board_refused": 0,
        "cocked_let_stand": 0, "flat_voided": 0, "rest_unsure": 0, "sure": 0, "sure_wrong": 0,
    }  # fmt: skip
    read_times: list[float] = []
    first_times: list[float] = []
    last_setup: list[np.ndarray] = []
    last_profile = None
    calibrate_times: list[float] = []
    for index in range(frames):
        seed = first_seed + index
        kind = ("plain", "cocked", "wrong side", "hand")[index % 4]
        try:
            calibration = render(random_scene(seed, opening))
        except InvalidScene:
            continue
        start = time.perf_counter()
        try:
            profile = calibrate(calibration.image, corners=calibration.truth["board_corners_px"])
        except CalibrationError:
            counts["calibration_failed"] += 1
            continue
        calibrate_times.append(time.perf_counter() - start)
        if index % 5 == 0:
            counts["board_tried"] += 1
            counts[f"board_{finder_outcome(calibration)}"] += 1
        dice = (DieSpec(int(rng.integers(1, 7))), DieSpec(int(rng.integers(1, 7))))
        hand = None
        if kind == "cocked":
            dice = (DieSpec(int(rng.integers(1, 7)), rest="cocked"), dice[1])
        elif kind == "wrong side":
            dice = (DieSpec(int(rng.integers(1, 7)), where="outer"), dice[1])
        elif kind == "hand":
            hand = "over"
        try:
            scene = random_scene(seed, Checkers.random(rng), dice=dice, on_roll="white", hand=hand)
            frame = render(scene)
        except InvalidScene:
            continue
        # the first read with a profile decodes its empty board once (as a live game's first
        # frame does); the target is the time per frame after that
        start = time.perf_counter()
        read_frame(calibration.image, profile, "white")
        first_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        reading = read_frame(frame.image, profile, "white")
        read_times.append(time.perf_counter() - start)
        last_setup, last_profile = [calibration.image, frame.image], profile
        truth = frame.truth
        counts["frames"] += 1
        if kind == "hand" and not truth["readable"]:
            counts["hands"] += 1
            counts["hands_unreadable"] += not reading.readable
        if truth["readable"]:
            # what an unreadable frame still read surely: the next doubt lifted shows it
            tally_sure(counts, reading, truth)
        if reading.readable:
            counts["readable"] += 1
            exact = same_board(reading, truth) and truth["readable"]
            counts["board_exact"] += exact
            valid_right = reading.dice_valid == truth.get("dice_valid")
            counts["confident_wrong"] += not (exact and valid_right)
            if not (exact and valid_right):
                print(
                    f"  CONFIDENT BUT WRONG: seed {seed} ({kind}): read {list(reading.points)} "
                    f"bar {reading.bar} off {reading.off} dice valid {reading.dice_valid}; truth "
                    f"{truth['points']} bar {truth['bar']} off {truth['off']} dice valid "
                    f"{truth.get('dice_valid')}",
                    file=sys.stderr,
                )
        for die in truth["dice"]:
            if die.get("moving"):
                continue
            # the reading nearest the die (two dice can lie closer than the 30 px limit)
            near = sorted(
                (d for d in reading.dice if math.dist(d.center_px, die["center_px"]) < 30),
                key=lambda d: math.dist(d.center_px, die["center_px"]),
            )
            counts["dice"] += 1
            exact = bool(near) and near[0].value == die["value"]
            counts["dice_exact"] += exact
            # a die a hand hides (half its outline or more) cannot be read by anyone
            if die["hidden"] < 0.5:
                counts["dice_in_view"] += 1
                counts["dice_in_view_exact"] += exact
            sure = bool(near) and near[0].confidence >= 0.5
            counts["rest_unsure"] += bool(near) and not sure
            if die["flat"] and not die["on_checker"]:
                counts["flat"] += 1
                counts["flat_called_cocked"] += bool(near) and not near[0].flat
                counts["flat_voided"] += sure and not near[0].flat
            elif not die["flat"]:
                counts["cocked"] += 1
                counts["cocked_caught"] += not (near and near[0].flat)
                counts["cocked_let_stand"] += sure and near[0].flat
        if kind == "wrong side" and truth.get("reason") == "wrong side":
            counts["wrong_side"] += 1
            counts["wrong_side_caught"] += reading.dice_valid is False
        if (index + 1) % 50 == 0:
            print(f"  ... {index + 1} frames", file=sys.stderr)
    c = counts
    print(f"simulator frames read: {c['frames']} (seeds from {first_seed})")
    print(f"  calibration failed on: {c['calibration_failed']}")
    show("readable frames", c["readable"], c["frames"])
    show("whole board exact on readable frames", c["board_exact"], c["readable"], ">= 99.5%")
    show("confident but wrong (board or roll)", c["confident_wrong"], c["frames"], "<= 0.1%")
    show("  points read surely but wrongly (frames with no hand)", c["sure_wrong"], c["sure"])
    show("die values exact", c["dice_exact"], c["dice"], ">= 99.5%")
    show("  of dice in view (no hand over half of one)", c["dice_in_view_exact"], c["dice_in_view"])
    show("cocked dice caught", c["cocked_caught"], c["cocked"], ">= 97%")
    show("flat dice called cocked", c["flat_called_cocked"], c["flat"], "<= 1%")
    show("wrong-side dice caught", c["wrong_side_caught"], c["wrong_side"], ">= 99%")
    # what a referee acts on: a rest read surely (a doubtful one makes the frame unreadable)
    show("  cocked dice let stand surely", c["cocked_let_stand"], c["cocked"])
    show("  flat dice voided surely", c["flat_voided"], c["flat"])
    show("  dice whose rest (or value) was left unsure", c["rest_unsure"], c["dice"])
    show("hands over the board called unreadable", c["hands_unreadable"], c["hands"], ">= 99%")
    show("board found automatically (within 10 px)", c["board_found"], c["board_tried"])
    show("  a wrong board reported (10 px or more off)", c["board_wrong"], c["board_tried"])
    show("  no board reported", c["board_refused"], c["board_tried"])
    if read_times:
        median = 1000 * statistics.median(read_times)
        print(f"  read: median {median:.1f} ms per 1280x720 frame (target <= 15 ms)")
        first = 1000 * statistics.median(first_times)
        print(f"  first read with a new profile: median {first:.1f} ms (decodes its empty board)")
    if calibrate_times:
        median = statistics.median(calibrate_times)
        print(f"  calibration: median {median:.2f} s (target <= 2 s)")
    if last_profile is not None:
        frames_read = last_setup * 5
        peak = reader_memory(frames_read, last_profile)
        count = len(frames_read)
        print(f"  peak memory of a reading process ({count} frames): {peak} MB (target <= 300 MB)")


READER = """
import sys
from pathlib import Path
import cv2
from companion.allocator import keep_freed_buffers
from companion.vision.profile import load_profile
from companion.vision.reader import read_frame
cv2.setNumThreads(1)
keep_freed_buffers()
folder = Path(sys.argv[1])
profile = load_profile(folder / "profile.json")
for path in sorted(folder.glob("*.png")):
    read_frame(cv2.imread(str(path)), profile, "white")
# the high-water mark of this process's own memory (ru_maxrss would count the parent's,
# which it carries across exec)
status = Path("/proc/self/status").read_text().splitlines()
print(int(next(line for line in status if line.startswith("VmHWM")).split()[1]) // 1024)
"""


def reader_memory(frames: list[np.ndarray], profile: object) -> int:
    """Peak memory (MB) of a process that does what a live game does: load a profile and read
    frames (the renderer, which this benchmark also runs, is no part of it)."""
    with tempfile.TemporaryDirectory() as folder:
        save_profile(profile, Path(folder) / "profile.json")  # type: ignore[arg-type]
        for index, image in enumerate(frames):
            cv2.imwrite(str(Path(folder) / f"{index:03d}.png"), image)
        done = subprocess.run(
            [sys.executable, "-c", READER, folder],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    return int(done.stdout.strip())


def show(name: str, part: int, whole: int, target: str = "") -> None:
    aim = f"  (target {target})" if target else ""
    print(f"  {name}: {percent(part, whole)}{aim}")


def real_dice() -> None:
    labels_file = DICE_PHOTOS / "labels.json"
    if not labels_file.exists():
        print("real dice photos: skipped (../shared/real-photos absent)")
        return
    labels = json.loads(labels_file.read_text())["images"]
    total = right = read = confident_wrong = 0
    for name, entry in labels.items():
        image = cv2.imread(str(DICE_PHOTOS / "images" / name))
        height, width = image.shape[:2]
        for die in entry["dice"]:
            x0, y0, x1, y1 = die["bbox_xyxy_norm"]
            face = read_die_in_box(image, (x0 * width, y0 * height, x1 * width, y1 * height))
            total += 1
            if face is None:
                continue
            read += 1
            right += face.value == die["value"]
            confident_wrong += face.value != die["value"] and face.confidence >= 0.5
    print("real dice (nell-byler, 172 labelled dice):")
    show("read at all", read, total)
    show("value right", right, total)
    show("confidently wrong", confident_wrong, total)


def real_boards() -> None:
    if not BOARD_PHOTOS.exists():
        print("real board photos: skipped (../shared/real-photos absent)")
        return
    photos = json.loads(BOARD_LABELS.read_text())["photos"]
    found = wrong = refused = 0
    times: list[float] = []
    for photo in photos:
        name, truth = photo["file"], photo["corners"]
        image = cv2.imread(str(BOARD_PHOTOS / name))
        start = time.perf_counter()
        try:
            corners = np.array(find_board(image).corners_px)
        except BoardNotFound:
            corners = None
        times.append(time.perf_counter() - start)
        if corners is None:
            refused += 1
            outcome = "not found" + ("" if truth is None else " (a board is in view)")
        elif truth is None:
            wrong += 1
            outcome = "a board reported, but the playing area is not fully in view"
        else:
            error = float(np.max(np.linalg.norm(corners - np.array(truth, float), axis=1)))
            found += error <= REAL_TOLERANCE_PX
            wrong += error > REAL_TOLERANCE_PX
            outcome = f"corners off by {error:.0f} px"
        hand = f"  [hand: {HAND_FRAMES[name]}]" if name in HAND_FRAMES else ""
        print(f"  {name}: {outcome}{hand}")
    labelled = sum(photo["corners"] is not None for photo in photos)
    print(f"real boards (corners labelled by eye in {BOARD_LABELS.name}):")
    show(f"board found within {REAL_TOLERANCE_PX:.0f} px", found, labelled)
    show("a wrong board reported (off by more, or not fully in view)", wrong, len(photos))
    show("no board reported", refused, len(photos))
    print(f"  board finder: median {statistics.median(times):.2f} s per photo")
    real_hands()


BOARD_LABELS = ROOT / "benchmarks" / "real_boards.json"
REAL_TOLERANCE_PX = 15.0

SAME_CAMERA = [f"data__images__test__frame{n}.jpg" for n in range(6)]
"""Six frames of one broadcast camera: 0 and 1 without hands, 2-5 with an arm or a hand."""


def real_hands() -> None:
    """Hands over a real board: calibrate on the first frame of one camera (its playing area's
    corners as labelled by eye in real_boards.json; it is no opening, so the orientation is
    given) and read the camera's other frames. Frames without hands are read too: a hand
    called unreadable means little while the bare frames are not read either."""
    if not BOARD_LABELS.exists():
        print("real frames with hands: skipped (benchmarks/real_boards.json absent)")
        return
    labels = {p["file"]: p for p in json.loads(BOARD_LABELS.read_text())["photos"]}
    first = SAME_CAMERA[0]
    image = cv2.imread(str(BOARD_PHOTOS / first))
    try:
        profile = calibrate(image, corners=labels[first]["corners"], white_home="bottom-right")
    except CalibrationError as error:
        print(f"real frames with hands: calibration on {first} failed: {error}")
        return
    hands = bare = hands_unreadable = bare_readable = 0
    for name in SAME_CAMERA:
        reading = read_frame(cv2.imread(str(BOARD_PHOTOS / name)), profile)
        if name in HAND_FRAMES:
            hands += 1
            hands_unreadable += not reading.readable
        else:
            bare += 1
            bare_readable += reading.readable
    print(f"real frames of one camera, calibrated on {first} with its labelled corners:")
    show("frames with hands called unreadable", hands_unreadable, hands)
    show("frames without hands read (readable)", bare_readable, bare)


MARGINS_SEED = 960_000
"""Boards with strips of field (and of other proportions), never used while developing."""
SHAPED_SEED = 950_000
"""Seeds of the boards of other proportions, far from the development seeds and from
:data:`FIRST_SEED`'s 500."""


def shaped_boards(frames: int, first_seed: int = SHAPED_SEED, margins: bool = False) -> None:
    """Boards proportioned as real ones come (bar 28-50 mm, points 38-43 mm per half) and, with
    ``margins``, leaving strips of field between the frame or the bar and the points as their
    style's maker drew them (a style without strips keeps none): each calibrated from its own
    opening with the corners the renderer reports, its measured halves (and strip along the
    frame) compared with the drawn ones, then a random position with two flat dice read."""
    rng = np.random.default_rng(first_seed)
    opening = Position.opening().to_absolute("white")
    look: dict[str, object] = {"varied_shape": True}
    if margins:
        look["margins"] = "style"
    errors: list[float] = []
    edge_errors: list[float] = []
    counts = {"boards": 0, "measured": 0, "standard": 0, "not_measured": 0, "failed": 0}
    counts |= {"readable": 0, "exact": 0, "confident_wrong": 0, "sure": 0, "sure_wrong": 0}
    counts |= {"strips": 0, "board_found": 0, "board_wrong": 0, "board_refused": 0}
    for index in range(frames):
        seed = first_seed + index
        try:
            calibration = render(random_scene(seed, opening, **look))
        except InvalidScene:
            continue
        try:
            profile = calibrate(calibration.image, corners=calibration.truth["board_corners_px"])
        except CalibrationError:
            counts["failed"] += 1
            continue
        counts["boards"] += 1
        if margins:
            # the board finder on the same opening frame
            counts[f"board_{finder_outcome(calibration)}"] += 1
        field = calibration.truth.get("field_margins")
        drawn = (field or calibration.truth["board_shape"])["on_corners_plane"]
        layout = profile.layout
        if field is not None:
            counts["strips"] += field["edge"] > 0
            edge_errors.append(abs(layout.edge - field["edge"]))
        if not layout.has_canonical_halves:
            counts["measured"] += 1
            ends = np.array([*layout.outer, *layout.home]) - [*drawn["outer"], *drawn["home"]]
            errors.append(float(np.max(np.abs(ends))))
        elif any("did not show" in note for note in profile.notes):
            counts["not_measured"] += 1
        else:
            counts["standard"] += 1
        dice = (DieSpec(int(rng.integers(1, 7))), DieSpec(int(rng.integers(1, 7))))
        try:
            scene = random_scene(seed, Checkers.random(rng), dice=dice, on_roll="white", **look)
            frame = render(scene)
        except InvalidScene:
            continue
        tally_reading(counts, read_frame(frame.image, profile, "white"), frame.truth)
    boards = counts["boards"]
    kind = "with strips of field by frame and bar" if margins else "of other proportions"
    print(f"boards {kind}: {boards} (seeds from {first_seed})")
    show("halves measured", counts["measured"], boards)
    if errors:
        print(
            f"    their ends off the drawn ones: median {statistics.median(errors):.1f} mm, "
            f"worst {max(errors):.1f} mm"
        )
    show(f"read as a standard board (within {SNAP_MM} mm of it)", counts["standard"], boards)
    show("points too faint to measure (read as standard)", counts["not_measured"], boards)
    if margins and edge_errors:
        show("boards with a strip along the frame", counts["strips"], boards)
        print(
            f"    strip measured off the drawn one: median {statistics.median(edge_errors):.1f}"
            f" mm, worst {max(edge_errors):.1f} mm"
        )
    if margins:
        within = f"within {SIMULATOR_TOLERANCE_PX:.0f} px"
        show(f"board found by the finder ({within})", counts["board_found"], boards)
        show("    a wrong board reported", counts["board_wrong"], boards)
        show("    no board reported", counts["board_refused"], boards)
    show("calibration failed", counts["failed"], boards + counts["failed"])
    show("readable frames", counts["readable"], boards)
    show("whole board exact on readable frames", counts["exact"], counts["readable"])
    show("confident but wrong", counts["confident_wrong"], boards, "<= 0.1%")
    show("points read surely but wrongly", counts["sure_wrong"], counts["sure"])


AUTOMATIC_SEED = 970_000
"""Setups calibrated with no corners given, never used while developing."""


def automatic_calibration(boards: int, first_seed: int = AUTOMATIC_SEED) -> None:
    """What a new user gets from ``companion calibrate IMAGE`` without ``--corners``: each
    setup's opening frame calibrated with the board finder's corners (every other setup a board
    of other proportions), then a random position of the same setup read with that profile and,
    for comparison, with a profile made from the renderer's corners. A wrong calibration that
    reads confidently is the failure that matters; one that refuses asks the user for corners."""
    rng = np.random.default_rng(first_seed)
    opening = Position.opening().to_absolute("white")
    kinds = ("standard", "other proportions")
    keys = ("setups", "calibrated", "corners_wrong", "refused", "readable", "exact")
    keys += ("confident_wrong", "sure", "sure_wrong", "given_readable", "given_exact")
    keys += ("given_confident_wrong", "given_sure", "given_sure_wrong")
    counts = {kind: dict.fromkeys(keys, 0) for kind in kinds}
    for index in range(boards):
        seed = first_seed + index
        kind = kinds[index % 2]
        look = {"varied_shape": kind != "standard"}
        try:
            opening_frame = render(random_scene(seed, opening, **look))
            dice = (DieSpec(int(rng.integers(1, 7))), DieSpec(int(rng.integers(1, 7))))
            scene = random_scene(seed, Checkers.random(rng), dice=dice, on_roll="white", **look)
            frame = render(scene)
        except InvalidScene:
            continue
        tally = counts[kind]
        tally["setups"] += 1
        try:
            profile = calibrate(opening_frame.image)
        except (BoardNotFound, CalibrationError):
            tally["refused"] += 1
            continue
        tally["calibrated"] += 1
        off = corners_off(opening_frame, profile.corners_px)
        tally["corners_wrong"] += off >= SIMULATOR_TOLERANCE_PX
        given = calibrate(opening_frame.image, corners=opening_frame.truth["board_corners_px"])
        tally_reading(tally, read_frame(frame.image, profile, "white"), frame.truth)
        with_given = dict.fromkeys(
            ("readable", "exact", "confident_wrong", "sure", "sure_wrong"), 0
        )
        tally_reading(with_given, read_frame(frame.image, given, "white"), frame.truth)
        for key, value in with_given.items():
            tally[f"given_{key}"] += value
    print(f"calibration with no corners given (seeds from {first_seed}):")
    for kind in kinds:
        tally = counts[kind]
        setups, calibrated = tally["setups"], tally["calibrated"]
        print(f"  {kind} boards: {setups}")
        show("calibrated", calibrated, setups)
        show(
            f"    corners off by {SIMULATOR_TOLERANCE_PX:.0f} px or more",
            tally["corners_wrong"],
            calibrated,
        )
        show("refused (the user is asked for corners)", tally["refused"], setups)
        show("readable frames (of the calibrated)", tally["readable"], calibrated)
        show("    with the renderer's corners instead", tally["given_readable"], calibrated)
        show("confident but wrong", tally["confident_wrong"], calibrated, "<= 0.1%")
        show("points read surely but wrongly", tally["sure_wrong"], tally["sure"])
        show(
            "    with the renderer's corners instead",
            tally["given_sure_wrong"],
            tally["given_sure"],
        )


def real_positions() -> None:
    """Real photos whose checkers were counted by eye, each calibrated on itself (its labelled
    corners and orientation): how many points read right, how many surely, how many surely
    but wrongly. Every photo with labelled corners also shows the proportions calibration
    measured (point widths per half, the bar), or that the points did not show plainly."""
    if not BOARD_PHOTOS.exists() or not BOARD_LABELS.exists():
        print("real board positions: skipped (../shared/real-photos absent)")
        return
    print("real boards calibrated on themselves (labelled corners):")
    for photo in json.loads(BOARD_LABELS.read_text())["photos"]:
        if photo["corners"] is None:
            continue
        truth = photo.get("position")
        white_home = truth["white_home"] if truth else "bottom-right"
        image = cv2.imread(str(BOARD_PHOTOS / photo["file"]))
        try:
            profile = calibrate(image, corners=photo["corners"], white_home=white_home)
        except CalibrationError as error:
            print(f"  {photo['file']}: calibration failed: {error}")
            continue
        layout = profile.layout
        if not layout.has_canonical_halves:
            outer, home = layout.point_widths
            shape = f"points {outer:.1f} / {home:.1f} mm, bar {layout.bar_width:.0f} mm"
        elif any("did not show" in note for note in profile.notes):
            shape = "not measured"
        else:
            shape = "standard"
        line = f"  {photo['file']}: {shape}"
        if truth:
            reading = read_frame(image, profile, "white")
            sure = sure_points(reading)
            right = [n for n in range(24) if reading.points[n] == truth["points"][n]]
            sure_wrong = [n for n in sure if n not in right]
            line += (
                f"; points right {len(right)}/24, sure {len(sure)}/24, "
                f"sure but wrong {len(sure_wrong)}"
            )
        print(line)


PARTS = ("simulator", "shaped", "margins", "automatic", "real")
"""The benchmark's parts, in the order they run: the simulator's frames, boards of other
proportions, boards with strips of field, calibration with no corners given, real photos."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500, help="simulator frames (500)")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=FIRST_SEED,
        help=f"the simulator part's first seed ({FIRST_SEED}, never used while developing; "
        "a development run takes seeds from 0-10000)",
    )
    parser.add_argument(
        "--photo",
        action="store_true",
        help="draw every scene with the simulator's photo looks (companion.sim.scene."
        "PHOTO_LOOKS): a lamp's pool of light, a table of planks or cloth fading off, ...",
    )
    parser.add_argument(
        "--only",
        choices=PARTS,
        action="append",
        help="run only this part (repeat for more); every part by default",
    )
    args = parser.parse_args()
    if args.first_seed < 0:
        parser.error(f"--first-seed must be a non-negative integer, not {args.first_seed}")
    parts = set(args.only or PARTS)
    if args.photo:
        # scenes that do not say which looks they want take the module's switch
        scene_module.PHOTO_LOOKS = True
        print("simulator frames drawn with the photo looks (PHOTO_LOOKS = True)")
    cv2.setNumThreads(1)
    keep_freed_buffers()  # as the companion command does
    print(f"plane view: {VIEW_SCALE} px/mm")
    if "simulator" in parts:
        simulator(args.frames, args.first_seed)
    if "shaped" in parts:
        shaped_boards(max(args.frames // 5, 20))
    if "margins" in parts:
        shaped_boards(max(args.frames // 5, 20), MARGINS_SEED, margins=True)
    if "automatic" in parts:
        automatic_calibration(max(args.frames // 10, 20))
    if "real" in parts:
        real_dice()
        real_boards()
        real_positions()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this whole benchmark, renderer included: {peak:.0f} MB")


if __name__ == "__main__":
    main()

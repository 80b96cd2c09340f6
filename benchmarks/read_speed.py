"""Where a frame's read time goes: per-stage medians of ``read_frame`` on simulator frames.

Run: ``python benchmarks/read_speed.py`` (20 setups, about a minute) or ``--frames 40``.

Each setup (seeds from 900000, as benchmarks/vision.py) is calibrated from its own opening
frame; then one random position of it is read twice. The first read is *cold*: it also builds
what is made once per profile (the empty board decoded, its edges, camouflage and visibility
along the points, ...). The second is *warm*, as every later frame of a game. Times are CPU
times of this process (``time.process_time``) with OpenCV on one thread and glibc's allocator
tuned as the companion command tunes it: the machine is shared, and CPU time is what another
process's load disturbs least.

Stages are the reader's steps as ``companion.vision.reader`` names them (each timed wherever
it is called, nested ones included in their callers: the per-profile steps are timed on the
reads that make them). A stage the reader no longer has is left out.

Measured (2 cores, this script's 20 setups, median CPU ms, best of 3 each, run in turn on
copies of one tree; cold / warm). Session 9's code: 55.2 / 39.4 on a quiet machine (62.2 /
44.4 on a busy one, as the figures measured here before). Then 49.2 / 32.7, readings
identical on 133 frames and profiles (the maps, the point evidence and the counts bit for bit
on 30 frames): the plane maps made strip by strip of 64 rows, so that each strip's
intermediates stay in the processor's cache, and the exact foreground, which only the dice
finder reads, in a few windows, made only there (plane maps 8.1 -> 5.5; the dice pay some
0.3 for their windows); the view's components labelled with 16-bit labels, three times as
fast, and the masks round them made by OpenCV in one pass each (occluders 1.6 -> 0.7,
unexplained 1.5 -> 1.1); the bands along the points gathered map by map through fixed-point
tables and their means summed in order, where OpenCV's reduce over a three-channel band took
ten times as long (point evidence 2.7 -> 1.6); every count's misfits in one buffer, a count's
two styles compared in one step, and single numbers clamped and averaged without numpy's
checks (points 3.1 -> 2.1). Where the warm read's time goes now: dice 13.9 (spots about 3.5,
reading about 3.5 a candidate, how each rests about 1 a die), plane maps 5.5, warp and
L*a*b* 4.1, board motion 3.0, points 2.1, point evidence 1.6, unexplained 1.1; the warp, the
colour conversion and the motion fit are single OpenCV calls.
Session 11, on a machine about a third slower (every stage, the single OpenCV calls too):
session 10's code 67.2 / 44.7, this session's 64.4 / 42.6, readings of the speed work identical
on 390 development frames (a face's bare spread sorted per pattern, a die's four sides looked
at in one lookup, the exact foreground of a window made only where the outline does not
decide, grid fits on contiguous arrays): dice 18.7 -> 16.9 warm.
Session 12, the same machine, best of 3 run in turn: session 11's code 63.2 / 41.5, this
session's 65.0 / 43.6: a die's top measured against every lean (companion/vision/lean.py) and
judged beside the checkers round it cost the dice about 0.6 ms a frame (16.7 -> 17.3 warm), a
point read empty looked at for what shows on it 0.1; the rest is these runs' noise (1.5 ms).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.allocator import keep_freed_buffers  # noqa: E402
from companion.rules.position import Position  # noqa: E402
from companion.sim import Checkers, DieSpec, InvalidScene, random_scene, render  # noqa: E402
from companion.vision import checkers, dice, nudge, reader  # noqa: E402
from companion.vision.calibrate import CalibrationError, calibrate  # noqa: E402
from companion.vision.profile import Profile  # noqa: E402

FIRST_SEED = 900_000

# (module, function name, label): the steps of read_frame, per frame then per profile
STAGES: tuple[tuple[Any, str, str], ...] = (
    (reader, "_plane_view", "warp + L*a*b*"),
    (nudge, "board_motion", "board motion (ECC)"),
    (reader, "plane_maps", "plane maps"),
    (reader, "find_occluders", "occluders"),
    (dice, "find_dice", "dice"),
    (checkers, "point_evidence", "point evidence"),
    (checkers, "read_points", "points"),
    (checkers, "read_bar", "bar"),
    (checkers, "tray_changes", "tray changes"),
    (checkers, "read_tray", "trays"),
    (reader, "unexplained", "unexplained"),
    (reader, "_reference", "profile: empty board decoded"),
    (reader, "_small_reference", "profile: small lightness"),
    (reader, "_envelope", "profile: envelope"),
    (reader, "_grown_edges", "profile: grown edges"),
    (reader, "_camouflage", "profile: camouflage"),
    (reader, "_visibility", "profile: visibility"),
    (reader, "_rim_contrast", "profile: rim contrast"),
    (reader, "_tray_visibility", "profile: tray visibility"),
)


def timed(function: Callable[..., Any], label: str, spent: dict[str, float]) -> Callable[..., Any]:
    """``function``, adding the CPU time of every call to ``spent[label]``."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start

    wrapper.__wrapped__ = function  # type: ignore[attr-defined]
    return wrapper


def setups(count: int) -> list[tuple[np.ndarray, Profile]]:
    """``count`` (frame, profile) pairs: each setup calibrated on its opening frame."""
    rng = np.random.default_rng(FIRST_SEED)
    opening = Position.opening().to_absolute("white")
    found: list[tuple[np.ndarray, Profile]] = []
    seed = FIRST_SEED
    while len(found) < count:
        seed += 1
        try:
            calibration = render(random_scene(seed, opening))
            dice = (DieSpec(int(rng.integers(1, 7))), DieSpec(int(rng.integers(1, 7))))
            scene = random_scene(seed, Checkers.random(rng), dice=dice, on_roll="white")
            frame = render(scene)
            corners = calibration.truth["board_corners_px"]
            profile = calibrate(calibration.image, corners=corners)  # type: ignore[arg-type]
        except (InvalidScene, CalibrationError):
            continue
        found.append((frame.image, profile))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="setups to read (default 20)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    keep_freed_buffers()
    print(f"rendering and calibrating {args.frames} setups ...", flush=True)
    pairs = setups(args.frames)
    spent: dict[str, float] = collections.defaultdict(float)
    for module, name, label in STAGES:
        if hasattr(module, name):
            setattr(module, name, timed(getattr(module, name), label, spent))
    samples: dict[str, dict[str, list[float]]] = {"cold": {}, "warm": {}}
    for image, profile in pairs:
        for kind in ("cold", "warm"):
            spent.clear()
            start = time.process_time()
            reader.read_frame(image, profile, "white")
            spent["TOTAL read_frame"] = time.process_time() - start
            for label, seconds in spent.items():
                samples[kind].setdefault(label, []).append(seconds)

    def median_ms(kind: str, label: str) -> float:
        values = samples[kind].get(label, [])
        values = values + [0.0] * (len(pairs) - len(values))  # not called: no time
        return 1000.0 * statistics.median(values)

    seen = set(samples["cold"]) | set(samples["warm"])
    labels = ["TOTAL read_frame"] + [label for _m, _n, label in STAGES if label in seen]
    print(f"median CPU ms over {len(pairs)} frames    cold    warm")
    for label in labels:
        print(f"  {label:30s} {median_ms('cold', label):7.2f} {median_ms('warm', label):7.2f}")


if __name__ == "__main__":
    main()

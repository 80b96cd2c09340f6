"""How fast the simulator renders labelled 1280x720 frames.

Renders a varied set (random positions from real play, every style, light and angle, dice
flat, cocked or on a checker, hands now and then, things on the table, JPEG) and prints the
median time per frame and the frames per second it means. Target on the 2-core reference
machine: >= 20 frames/s, so that a 1,000-frame evaluation set renders in under a minute. A
frame's first use of a style builds cached textures; the warm-up pass pays for those.

With ``--vary`` every frame also gets its own look (``Scene.vary``: jittered board, table,
checkers and light, and hands in varied poses), as an honest evaluation set is rendered. With
``--photo`` every frame is drawn with the photo looks (``Scene.photo``: a desk lamp's pool of
light, walls and edges that catch the light, a table of planks or cloth fading away, ...).

Run: .venv/bin/python benchmarks/sim.py [--frames N] [--size 1280x720] [--vary] [--photo]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from companion.rules.moves import generate_plays
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.sim import scene as scene_module
from companion.sim.scene import Scene
from companion.sim.styles import BOARD_STYLES, EXTRA_BOARD_STYLES


def positions(count: int, seed: int) -> list[Checkers]:
    """Positions reached by random legal play from the opening (absolute colours)."""
    rng = np.random.default_rng(seed)
    boards = []
    position = Position.opening()
    white = True
    for _ in range(count):
        dice = tuple(int(v) for v in rng.integers(1, 7, size=2))
        plays = generate_plays(position, dice)
        if plays and plays[0].dice_used:
            position = plays[int(rng.integers(0, len(plays)))].after
        absolute = position.to_absolute("white" if white else "black")
        boards.append(Checkers(absolute.points, dict(absolute.bar), dict(absolute.off)))
        if absolute.off["white"] == 15 or absolute.off["black"] == 15:
            position, white = Position.opening(), True
            continue
        position = position.flip()
        white = not white
    return boards


def scenes(count: int, size: tuple[int, int], seed: int, vary: bool = False) -> list[Scene]:
    rng = np.random.default_rng(seed)
    result = []
    for index, board in enumerate(positions(count, seed)):
        rest = ("flat", "flat", "cocked", "on_checker")[int(rng.integers(0, 4))]
        dice = (DieSpec(int(rng.integers(1, 7)), rest), DieSpec(int(rng.integers(1, 7))))  # type: ignore[arg-type]
        hand = ("over", "near", None, None, None)[int(rng.integers(0, 5))]
        result.append(
            random_scene(seed * 100_000 + index, board, dice=dice, size=size, hand=hand, vary=vary)
        )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=120, help="timed frames")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT")
    parser.add_argument("--vary", action="store_true", help="a new look for every frame")
    parser.add_argument("--photo", action="store_true", help="every frame with the photo looks")
    args = parser.parse_args()
    if args.photo:
        # scenes that do not say which looks they want take the module's switch
        scene_module.PHOTO_LOOKS = True
    width, height = (int(v) for v in args.size.split("x"))
    styles = [*BOARD_STYLES, *(EXTRA_BOARD_STYLES if args.vary else ())]
    warm = [
        random_scene(i, positions(1, i)[0], size=(width, height), style=style, vary=args.vary)
        for i, style in enumerate(styles)
    ]
    for scene in warm:
        render(scene)
    timed = scenes(args.frames, (width, height), seed=1, vary=args.vary)
    load_before = os.getloadavg()[0]
    times, cpu = [], []
    skipped = 0
    for scene in timed:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            render(scene)
        except ValueError:
            skipped += 1  # no room for the dice in a crowded position: not a frame
            continue
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    median = statistics.median(times)
    mean, slowest = statistics.fmean(times) * 1000, max(times) * 1000
    look = "a new look each (--vary)" if args.vary else "named styles"
    if args.photo:
        look += ", the photo looks (--photo)"
    print(
        f"frames rendered: {len(times)} at {width}x{height}, {look};"
        f" {skipped} without room for dice"
    )
    print(f"median per frame: {median * 1000:.1f} ms -> {1 / median:.1f} frames/s (target >= 20)")
    print(f"mean per frame: {mean:.1f} ms; slowest {slowest:.1f} ms")
    print(f"median CPU time per frame (all threads): {statistics.median(cpu) * 1000:.1f} ms")
    if load_before > 1.0:
        print(
            f"note: load average was {load_before:.1f} when timing began; other processes "
            "share the cores, so the wall-clock figures above are pessimistic"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

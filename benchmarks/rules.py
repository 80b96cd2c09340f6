"""How fast the rules engine answers, on GNU Backgammon's reference cases.

Prints the median and 99th-percentile time to generate every legal play of one (position, roll)
over all cases in ../shared/oracle, and the median time to judge one move (a legal board and an
illegal typed play). Targets on the 2-core reference machine: median <= 15 us, p99 <= 0.5 ms,
judge <= 1 ms.

Run: .venv/bin/python benchmarks/rules.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from companion.rules import Position, generate_plays, judge

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "cases.jsonl"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="timed passes over the cases")
    args = parser.parse_args()
    if not ORACLE.exists():
        print(f"benchmarks/rules.py: {ORACLE} is missing: the shared cases sit beside the project")
        return 2
    cases = [json.loads(line) for line in ORACLE.open(encoding="utf-8")]
    items = [(Position(tuple(c["mover"]), tuple(c["opponent"])), tuple(c["dice"])) for c in cases]
    for position, dice in items:  # warm-up pass
        generate_plays(position, dice)
    per_case: list[list[float]] = [[] for _ in items]
    for _ in range(args.repeat):
        for index, (position, dice) in enumerate(items):
            start = time.perf_counter()
            generate_plays(position, dice)
            per_case[index].append(time.perf_counter() - start)
    # Each case's own median over the passes removes one-off hiccups from other processes.
    generation = [statistics.median(times) for times in per_case]

    judge_legal: list[float] = []
    judge_illegal: list[float] = []
    for position, dice in items:
        plays = generate_plays(position, dice)
        if not plays:
            continue
        after = plays[len(plays) // 2].after
        start = time.perf_counter()
        judge(position, dice, after)
        judge_legal.append(time.perf_counter() - start)
        wrong = list(after.mover)
        source = next((p for p in range(25, 0, -1) if wrong[p]), None)
        if source is None:  # the play bore off the last checker
            continue
        wrong[source] -= 1
        wrong[0] += 1
        start = time.perf_counter()
        judge(position, dice, (tuple(wrong), after.opponent))
        judge_illegal.append(time.perf_counter() - start)

    us = 1e6
    print(f"cases: {len(items)}  passes: {args.repeat}  python {sys.version.split()[0]}")
    print(
        f"legal plays per (position, roll): median {statistics.median(generation) * us:.1f} us, "
        f"p99 {percentile(generation, 0.99) * us:.1f} us, max {max(generation) * us:.1f} us"
    )
    print(
        f"judge a legal board: median {statistics.median(judge_legal) * us:.1f} us, "
        f"p99 {percentile(judge_legal, 0.99) * us:.1f} us"
    )
    print(
        f"judge an illegal board: median {statistics.median(judge_illegal) * us:.1f} us, "
        f"p99 {percentile(judge_illegal, 0.99) * us:.1f} us"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

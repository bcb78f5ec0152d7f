"""Benchmark: how long ``companion serve`` takes to stop on SIGTERM (issue #34, point 6: the
stop times that tests/test_serve_stop_bots.py and tests/test_serve_process.py once asserted).

    python benchmarks/stops.py [--tries 20] [--workers 1]

Each try starts ``companion serve`` on a fresh data directory, sets it up as the tests do and
sends SIGTERM, in turn: to the process group or to the main process alone, with a bot's and
a hint's workers idle or a strong bot in its search (``tests/test_serve_stop_bots.py``); and
with three event streams open (``tests/test_serve_process.py``). Printed: each try's time
from the signal to the process's end, then per case the fastest, median and slowest
(goal: under 3 s every time, issue #33).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_serve_process import Companion, free_port, next_version, open_events  # noqa: E402
from test_serve_stop_bots import CASES, bots_at_work, group_alive  # noqa: E402

GOAL_SECONDS = 3.0


def one_stop(scratch: Path, attempt: int, case: tuple[str, str], workers: int) -> float:
    target, state = case
    config = scratch / "config.toml"
    config.write_text(f"[bots]\nstrong_seconds = 60\npause_seconds = 0\nworkers = {workers}\n")
    server = Companion(scratch / f"data{attempt}", free_port(), scratch / "serve.log", config=config, own_group=True)
    try:
        if state == "streams":
            streams = [open_events(server.port) for _ in range(3)]
            for stream in streams:
                next_version(stream)
        else:
            bots_at_work(server, state)
        began = time.monotonic()
        if target == "group":
            os.killpg(server.process.pid, signal.SIGTERM)
        else:
            server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=60)
        return time.monotonic() - began
    finally:
        if group_alive(server.process.pid):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.stop(signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20, help="tries of every case")
    parser.add_argument("--workers", type=int, default=1, help="[bots] workers: processes a bot searches on (default 1)")
    args = parser.parse_args()
    cases = [*CASES, ("main", "streams")]
    times: dict[tuple[str, str], list[float]] = {case: [] for case in cases}
    with tempfile.TemporaryDirectory() as scratch:
        for attempt in range(args.tries * len(cases)):
            case = cases[attempt % len(cases)]
            took = one_stop(Path(scratch), attempt, case, args.workers)
            times[case].append(took)
            print(f"try {attempt + 1}: SIGTERM to the {case[0]} process(es), {case[1]}: stopped in {took:.2f} s", flush=True)
    for (target, state), taken in times.items():
        print(f"{target:>5} {state:<9} min {min(taken):.2f} s, median {statistics.median(taken):.2f} s, "
              f"max {max(taken):.2f} s over {len(taken)} tries")
    slowest = max(max(taken) for taken in times.values())
    print(f"slowest {slowest:.2f} s (goal: under {GOAL_SECONDS} s every time)")
    return 0 if slowest < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: what the turn clock (issue 36) adds to a move, and what reading it costs.

    python benchmarks/turn_clock.py [--moves 300] [--rounds 5]

Plays the same random SWAP 5 moves through two tables in one process, one with a
``TurnClock`` and one without, interleaved round by round, and prints
the process's CPU time per move (``Table.act``: the engine, the SQLite transaction, and with
the clock its turn rows and saved state) for each, and the CPU time of one ``TurnClock.view``
(what every view answer and every panel frame reads). The database is in RAM (/dev/shm where
there is one), so the figures are the companion's own work, not the disk's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.clock import TurnClock  # noqa: E402
from companion.table import Table  # noqa: E402

MEMORY = Path("/dev/shm") if Path("/dev/shm").is_dir() else None


def moves_cpu(with_clock: bool, moves: int, seed: int) -> tuple[float, float | None]:
    """CPU seconds per move over ``moves`` SWAP 5 moves (new games as needed), and per clock view."""
    with tempfile.TemporaryDirectory(dir=MEMORY) as data:
        table = Table(data)
        clock = TurnClock(table) if with_clock else None
        chooser = random.Random(seed)
        spent, made = 0.0, 0
        while made < moves:
            table.start_game("swap5", 2, seed=chooser.randrange(1000))
            if not table.names()[0]:
                table.join(0, "Aki")
                table.join(1, "Ben")
            while made < moves and not table.view(None)["over"]:
                seat = table.view(None)["waiting_for"][0]
                view = table.view(seat)
                action = chooser.choice(view["actions"])
                started = time.process_time()
                table.act(seat, action, view["version"])
                spent += time.process_time() - started
                made += 1
        viewing = None
        if clock is not None:
            started = time.process_time()
            for _ in range(1000):
                clock.view()
            viewing = (time.process_time() - started) / 1000
        table.close()
    return spent / moves, viewing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    without, with_, views = [], [], []
    for round_ in range(args.rounds):
        without.append(moves_cpu(False, args.moves, round_)[0])
        per_move, per_view = moves_cpu(True, args.moves, round_)
        with_.append(per_move)
        views.append(per_view)
    median = statistics.median
    print(f"a move without the clock: CPU {median(without) * 1000:.2f} ms (median of {args.rounds} rounds of {args.moves})")
    print(f"a move with the clock:    CPU {median(with_) * 1000:.2f} ms")
    print(f"one TurnClock.view():     CPU {median(views) * 1e6:.1f} µs")


if __name__ == "__main__":
    main()

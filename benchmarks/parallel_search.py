"""Speed benchmark: how many iterations a decision gets on 1, 2 and 3 workers (issue #35).

    python benchmarks/parallel_search.py [--seconds 0.55] [--positions 3] [--workers 1,2,3]

For each game (Lion Square and Meow Oracle with 3 players, SWAP 5 with 4: the games whose
bots search with playouts) and ``--positions`` positions of a game played by first moves,
one search from the seat to act with a wall-clock deadline of ``--seconds`` on a
:class:`companion.bots.parallel.ProcessPool` of each size (helpers started and ready
beforehand, as in the bot worker); prints the median of the summed root visits per
decision and their ratio to one worker's. On a Pi's four cores three workers make about
three times one's; on a machine whose cores are busy with other work, fewer: the load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion import games  # noqa: E402
from companion.bots.budget import Budget  # noqa: E402
from companion.bots.parallel import ProcessPool  # noqa: E402
from companion.games.rng import Rng  # noqa: E402

GAMES = (("lion-square", 3), ("meow-oracle", 3), ("swap5", 4))


def positions(game_id: str, players: int, count: int) -> list[dict]:
    """Views of the seat to act, every 7th move of a game played by each seat's first action."""
    game = games.get(game_id)
    state, found, moves = game.setup(players, 1), [], 0
    while len(found) < count and not game.is_over(state):
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if moves % 7 == 3 and len(actions) > 1:
            found.append(game.view(state, seat) | {"actions": actions})
        state = game.apply(state, seat, actions[0])
        moves += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.55, help="wall-clock seconds a decision (default 0.55)")
    parser.add_argument("--positions", type=int, default=3, help="positions a game (default 3)")
    parser.add_argument("--workers", default="1,2,3", help="pool sizes, comma-separated (default 1,2,3)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.workers.split(",")]
    pools = {size: ProcessPool(size) for size in sizes}
    try:
        for pool in pools.values():
            pool.start()
            pool.search(games.get("swap5"), positions("swap5", 4, 1)[0], Rng.from_seed(0),
                        Budget.iterations(1))  # waits until every helper is ready
        print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}; {args.seconds:g} s a decision")
        print(f"{'game':<16}" + "".join(f"{f'{size} worker(s)':>14}" for size in sizes))
        for game_id, players in GAMES:
            game = games.get(game_id)
            visits = {size: [] for size in sizes}
            for number, view in enumerate(positions(game_id, players, args.positions)):
                for size, pool in pools.items():
                    edges = pool.search(game, view, Rng.from_seed(number), Budget.seconds(args.seconds).start())
                    visits[size].append(sum(edge.visits for edge in edges))
            one = statistics.median(visits[sizes[0]])
            print(f"{f'{game_id} {players}p':<16}" + "".join(
                f"{statistics.median(visits[size]):8g} ({statistics.median(visits[size]) / one:.1f}x)"
                for size in sizes))
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        for pool in pools.values():
            pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

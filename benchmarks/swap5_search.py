"""How long the two-player SWAP 5 search takes to read a position in full.

    python benchmarks/swap5_search.py [--games 3] [--deeper 0 8 40]

The positions are every seventh one of the first 60 moves of ``--games`` games of two
greedy players (``companion.bots.greedy``), dealt from seeds 0, 1, ... For each number of
moves read a ply deeper (``--deeper``: 0 is ``normal``'s two plies over every move, 8 is
``strong``'s, 40 is every move three plies deep), this prints the processor time of
``Search.run`` with no deadline, its median and its longest, over those positions.
benchmarks/strength.md ("Profile of the two-ply search") reads it.
"""

import argparse
import statistics
import time

from companion import games
from companion.games.swap5 import search as swap5_search
from companion.bots.greedy import greedy_action
from companion.bots.sampling import bare_view
from companion.games.rng import Rng


def positions(count: int) -> list[dict]:
    """Bare views of the player to move, every seventh move of greedy games' first 60."""
    game = games.get("swap5")
    found = []
    for seed in range(count):
        rng = Rng.from_seed(seed)
        state = game.setup(2, seed)
        for move in range(60):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            view = game.view(state, seat) | {"actions": game.legal_actions(state, seat)}
            if move % 7 == 3:
                found.append(bare_view(view))
            state = game.apply(state, seat, greedy_action(game, view, rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--deeper", type=int, nargs="+", default=[0, 8, 40])
    args = parser.parse_args()
    views = positions(args.games)
    print(f"{len(views)} positions")
    for deeper in args.deeper:
        times = []
        for view in views:
            start = time.process_time()
            swap5_search.Search(view).run(None, None, None, deeper, Rng.from_seed(1))
            times.append(time.process_time() - start)
        print(f"{deeper} moves a ply deeper: median {statistics.median(times) * 1000:.0f} ms, "
              f"longest {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()

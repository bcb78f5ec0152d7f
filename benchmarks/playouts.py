"""Random-playout speed of every game: the figure bots and hints will live on.

    python benchmarks/playouts.py [--games 300] [GAME ...]

Prints, per game and player count, the median and 90th-percentile time of one whole
random game (setup, legal_actions and apply at every step) and games per second.
The time is the process's CPU time, not the wall clock: on a machine shared with other
work the wall clock also counts the waits for a free core. Goal (issue #11): a median of
1.0 ms or less for every engine; figures and profiles in benchmarks/README.md.
"""

import argparse
import statistics
import time

from companion import games
from companion.simulate import random_playout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="*", help="game ids (default: all)")
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    args = parser.parse_args()
    print(f"{'game':<22}{'players':>8}{'median ms':>11}{'p90 ms':>9}{'games/s':>10}{'actions':>9}")
    for game_id in args.game or games.ids():
        game = games.get(game_id)
        for players in game.player_counts:
            times, lengths = [], []
            for seed in range(args.games):
                started = time.process_time()
                _, actions = random_playout(game, players, seed)
                times.append(time.process_time() - started)
                lengths.append(len(actions))
            times.sort()
            print(
                f"{game_id:<22}{players:>8}{statistics.median(times) * 1e3:>11.2f}"
                f"{times[int(len(times) * 0.9)] * 1e3:>9.2f}{len(times) / sum(times):>10.0f}"
                f"{statistics.mean(lengths):>9.1f}"
            )


if __name__ == "__main__":
    main()

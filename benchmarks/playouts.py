"""Random-playout speed of every game: the figure bots and hints will live on.

    python benchmarks/playouts.py [--games 300] [--wrappers] [--logged] [GAME ...]

Prints, per game and player count, the median and 90th-percentile time of one whole
random game (setup, then ``to_act``, ``random_action`` and ``apply_listed`` at every
step) and games per second. The games are played as a search plays them, on unlogged
states (``Game.unlogged``: no move worded); ``--logged`` plays them as the table does,
every move worded in the log.
``--wrappers`` also plays the same games through the engine's own hooks, past the base's
public methods, and prints what share of the time those wrappers take.
The time is the process's CPU time, not the wall clock: on a machine shared with other
work the wall clock also counts the waits for a free core. Goal (issue #11): a median of
1.0 ms or less for every engine; figures and profiles in benchmarks/README.md.
"""

import argparse
import random
import statistics
import time

from companion import games
from companion.games.rng import Rng
from companion.simulate import random_playout

WARM_UP_GAMES = 20
"""Games played untimed first: engines fill some tables as they meet new positions."""


def hooks_playout(game, players, seed, logged):
    """random_playout's game, played through the engine's hooks (``_to_act``, ``_copy``,
    ``_apply``) instead of the base's public methods: no seat or turn checks, no wrappers.
    Only to measure what the wrappers cost."""
    chooser = random.Random(seed)
    state = game.setup(players, seed)
    if not logged:
        state = game.unlogged(state)
    while state["result"] is None:
        seat = chooser.choice(game._to_act(state))
        action = game.random_action(state, seat, chooser.randrange)  # no wrapper to pass by
        state = game._copy(state)
        state["version"] += 1
        rng = Rng(state["rng"])
        game._apply(state, seat, action, rng)
        state["rng"] = rng.state
    return state


def timed_games(playouts, game, players, seeds: int) -> list[tuple[list[float], list[int]]]:
    """For each playout function, the CPU time of each of ``seeds`` games, sorted, and the
    number of actions of each. The functions take turns game by game, in an order that
    turns round every game, so that neither a change of load on the machine nor an engine's
    cache of the boards it has just seen favours one."""
    times = [[] for _ in playouts]
    lengths = [[] for _ in playouts]
    for seed in range(seeds):
        order = list(enumerate(playouts))
        for number, playout in order[seed % len(order) :] + order[: seed % len(order)]:
            started = time.process_time()
            state = playout(game, players, seed)
            times[number].append(time.process_time() - started)
            lengths[number].append(state["version"])
    return [(sorted(spent), length) for spent, length in zip(times, lengths)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="*", help="game ids (default: all)")
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--wrappers", action="store_true", help="also measure the share of the base's wrappers")
    parser.add_argument("--logged", action="store_true", help="word every move in the log, as the table does")
    args = parser.parse_args()
    print(
        f"{'game':<22}{'players':>8}{'median ms':>11}{'p90 ms':>9}{'games/s':>10}{'actions':>9}"
        + (f"{'hooks ms':>10}{'wrappers':>10}" if args.wrappers else "")
    )
    for game_id in args.game or games.ids():
        game = games.get(game_id)
        for players in game.player_counts:
            for seed in range(WARM_UP_GAMES):  # seeds not timed below: fills the engines' tables only
                random_playout(game, players, 1_000_000 + seed, logged=args.logged)
            playouts = [lambda game, players, seed: random_playout(game, players, seed, logged=args.logged)[0]]
            if args.wrappers:
                playouts.append(lambda game, players, seed: hooks_playout(game, players, seed, args.logged))
            (times, lengths), *hooks = timed_games(playouts, game, players, args.games)
            line = (
                f"{game_id:<22}{players:>8}{statistics.median(times) * 1e3:>11.2f}"
                f"{times[int(len(times) * 0.9)] * 1e3:>9.2f}{len(times) / sum(times):>10.0f}"
                f"{statistics.mean(lengths):>9.1f}"
            )
            if hooks:
                bare = statistics.median(hooks[0][0])
                line += f"{bare * 1e3:>10.2f}{1 - bare / statistics.median(times):>10.0%}"
            print(line)


if __name__ == "__main__":
    main()

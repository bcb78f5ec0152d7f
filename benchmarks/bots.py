"""Bot speed: ISMCTS iterations per second, per game and player count.

    python benchmarks/bots.py [--positions 6] [--iterations 40] [GAME ...]

For each full game and player count, the bot searches from positions met along a seeded
random game (one every few moves, so that early, middle and late positions all count)
and the total is divided by the processor time spent (time.process_time, so a busy
shared machine does not distort it). A Raspberry Pi Zero 2 W runs Python about ten
times slower than a laptop core: its figure is printed as a tenth, and the seconds a
level gets (see [bots] in the configuration) times that figure is how many iterations
the level makes there. The strength measured with those budgets is in docs/bots.md.
"""

import argparse
import time

from companion import games
from companion.bots import supported
from companion.bots.budget import Budget
from companion.bots.ismcts import search
from companion.games.rng import Rng

PI_ZERO_2_W = 0.1
"""A Pi Zero 2 W core's Python speed relative to this machine's (pyperformance-type figure)."""


def positions(game, players: int, count: int, seed: int) -> list[dict]:
    """``count`` views of the seat to act, spread over one or more seeded random games."""
    rng = Rng.from_seed(seed)
    found, game_seed = [], seed
    while len(found) < count:
        state = game.setup(players, game_seed)
        game_seed += 1
        step = 0
        while not game.is_over(state) and len(found) < count:
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            if step % 9 == 4 and len(actions) > 1:
                found.append(game.view(state, seat))
            state = game.apply(state, seat, rng.choice(actions))
            step += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="*", help="game ids (default: every game with a bot)")
    parser.add_argument("--positions", type=int, default=6, help="positions per player count")
    parser.add_argument("--iterations", type=int, default=40, help="iterations per position")
    args = parser.parse_args()
    levels = ("easy", "normal", "strong")
    print(f"{'game':<13}{'players':>8}{'it/s here':>11}{'it/s Pi Zero 2 W':>18}   iterations on the Pi: "
          + ", ".join(f"{level} ({Budget.for_level(level).amount:g} s)" for level in levels))
    for game_id in args.game or [g for g in games.ids() if supported(g)]:
        game = games.get(game_id)
        for players in game.player_counts:
            views = positions(game, players, args.positions, seed=players)
            started = time.process_time()
            for number, view in enumerate(views):
                search(game, view, Rng.from_seed(number), Budget.iterations(args.iterations))
            rate = len(views) * args.iterations / (time.process_time() - started)
            pi = rate * PI_ZERO_2_W
            on_pi = ", ".join(f"{pi * Budget.for_level(level).amount:.0f}" for level in levels)
            print(f"{game_id:<13}{players:>8}{rate:>11.0f}{pi:>18.1f}   {on_pi}")


if __name__ == "__main__":
    main()

"""Which card a Lion Square player should pass in the hand adjustment.

    python benchmarks/lion_square_passes.py [--games 600] [--seed 50000] [--passes lowest,highest,random]

Three players, every one the arena's ``ahead`` player (``companion.bots.ahead``: the greedy
player's margin with the others' damage weighed 1.5 times, and its own pass, the highest
card of the colour it holds most). In one seat (seat ``n % 3`` in game ``n``, dealt from
``seed + n``) its passes are replaced by the pass named; every other move is the ``ahead``
player's. Each pass is played on the same deals. For each this prints that seat's share of
the wins (ties shared) and its mean final herd less the mean of the others' herds.

The passes (each among the cards the engine offers: the colours held most):
``lowest`` (the first in hand order among equals), ``highest`` (the ``ahead`` player's own),
``second`` (the second lowest), ``random``. Issue #35 tried the lowest as the bot's pass: it
won the bot no games the arena could see (docs/bots.md, "Lion Square's passes").
A few seconds of processor time per 100 games; docs/bots.md ("Lion Square's passes") reads it.
"""

import argparse

from companion import games
from companion.bots.ahead import ahead_action
from companion.games.lion_square.rules import CARD_VALUE
from companion.games.rng import Rng


def _by_number(actions: list[dict]) -> list[dict]:
    return sorted(actions, key=lambda action: CARD_VALUE[action["card"]])  # stable: hand order among equals


PASSES = {
    "lowest": lambda actions, rng: _by_number(actions)[0],
    "highest": lambda actions, rng: _by_number(actions)[-1],
    "second": lambda actions, rng: _by_number(actions)[min(1, len(actions) - 1)],
    "random": lambda actions, rng: actions[rng.randbelow(len(actions))],
}


def play(pass_name: str, games_count: int, seed: int) -> tuple[float, float]:
    """The passing seat's share of the wins and its mean herd margin over ``games_count`` games."""
    game = games.get("lion-square")
    choose_pass = PASSES[pass_name]
    wins = margin = 0.0
    for number in range(games_count):
        rng = Rng.from_seed(seed + number)
        state = game.setup(3, seed + number)
        me = number % 3
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            if seat == me and state["step"] == "pass":
                action = choose_pass(actions, rng)
            else:
                action = ahead_action(game, game.view(state, seat) | {"actions": actions}, rng)
            state = game.apply(state, seat, action)
        winners = game.result(state)["winners"]
        if me in winners:
            wins += 1 / len(winners)
        herds = state["herds"]
        margin += herds[me] - (sum(herds) - herds[me]) / (len(herds) - 1)
    return wins / games_count, margin / games_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--passes", default="lowest,highest,second,random",
                        help=f"comma-separated, of: {', '.join(PASSES)}")
    args = parser.parse_args()
    names = args.passes.split(",")
    unknown = [name for name in names if name not in PASSES]
    if unknown:
        parser.error(f"unknown pass {', '.join(unknown)} (passes: {', '.join(PASSES)})")
    print(f"lion-square, 3 players, {args.games} games from seed {args.seed}: one seat's pass, the others `ahead`")
    for name in names:
        share, margin = play(name, args.games, args.seed)
        print(f"  {name:<8} won {100 * share:5.1f}%   herd against the others' mean {margin:+.2f}", flush=True)


if __name__ == "__main__":
    main()

"""The greedy player: the yardstick the bots are measured against (``companion arena``).

It is the simplest sensible player, seeing only its own seat's view, like a phone: of the
actions it may take, it plays the one that leaves its own score margin highest by the
game's own scoring, right after the move (ties broken at random). What the margin is for
each game is that game's knowledge (``greedy_values`` in ``companion/games/<game>/bot.py``).

It is a yardstick, not a level: nobody can seat it at the table.
"""

from __future__ import annotations

from ..games import Game
from ..games.knowledge import WON
from ..games.rng import Rng
from .sampling import bare_view

__all__ = ["WON", "best_action", "greedy_action", "greedy_values"]


def greedy_action(game: Game, view: dict, rng: Rng) -> dict:
    """The greedy player's choice among ``view["actions"]`` (the seat's view with its
    actions, as :func:`companion.bots.choose` takes it)."""
    return best_action(view["actions"], lambda actions: greedy_values(game, bare_view(view), actions, rng), rng)


def best_action(actions: list[dict], values, rng: Rng) -> dict:
    """The action of highest value (``values(actions)``, asked only when there is a choice),
    ties broken by ``rng``."""
    if len(actions) == 1:
        return actions[0]
    worth = values(actions)
    best = max(worth)
    ties = [action for action, value in zip(actions, worth) if value == best]
    return ties[rng.randbelow(len(ties))]


def greedy_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """The greedy player's value of each of ``actions`` from the bare ``view`` (higher is
    better; ``rng`` samples the hidden cards where the game plays a move through)."""
    return game.bot.greedy_values(game, view, actions, rng)

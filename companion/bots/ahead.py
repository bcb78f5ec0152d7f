"""Greedy players that think ahead: the stronger yardsticks of ``companion arena`` (``ahead``).

Like the greedy player (:mod:`.greedy`) each plays one move deep from its own seat's view
alone, as a phone sees the game, but each weighs what is still to come, as its game knows
(``ahead_values`` in ``companion/games/<game>/bot.py``: Meow Oracle's expected round points,
Lion Square's weighted margin and deliberate pass, SWAP 5's careful last trump card).

They are yardsticks, not levels: nobody can seat them at the table.
"""

from __future__ import annotations

from ..games import Game
from ..games.rng import Rng
from .greedy import best_action
from .sampling import bare_view


def ahead_action(game: Game, view: dict, rng: Rng) -> dict:
    """The choice among ``view["actions"]`` of the greedy player that thinks ahead (the seat's
    view with its actions, as :func:`companion.bots.choose` takes it)."""
    return best_action(view["actions"], lambda actions: ahead_values(game, bare_view(view), actions, rng), rng)


def ahead_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """Its value of each of ``actions`` from the bare ``view`` (higher is better)."""
    return game.bot.ahead_values(game, view, actions, rng)

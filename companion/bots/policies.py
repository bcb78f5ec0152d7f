"""What the search asks of a game's bot knowledge (:mod:`companion.games.knowledge`): the
playout player, the cut-off, the move values, the moves weighed and the root's values.
Each game's own are in its home, ``companion/games/<game>/bot.py``."""

from __future__ import annotations

from ..games import Game
from ..games.knowledge import uniform
from ..games.rng import Rng

__all__ = ["cutoff", "narrowed", "policy", "root_values", "uniform", "values"]


def policy(game: Game):
    """The playout policy of ``game``: ``(game, state, seat, rng) -> action`` for a seat
    from ``to_act``, one of ``game.listed_actions(state, seat)`` (the search applies it
    without checking it again)."""
    return game.bot.policy


def cutoff(game: Game):
    """``(begun, state) -> rewards or None``: where a playout of ``game`` that began at
    ``begun`` may stop and be judged; None for a game played out to its end."""
    return game.bot.cutoff


def values(game: Game):
    """``(state, seat, actions) -> a value per action`` (higher is tried first), or None
    when the game has no such knowledge and untried moves are picked at random."""
    return game.bot.move_values


def root_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """What each of the root's ``actions`` is worth before the search (higher is tried first),
    from the bare ``view``."""
    return game.bot.root_values(game, view, actions, rng)


def narrowed(game: Game, view: dict, actions: list[dict]) -> list[dict]:
    """The view's actions the bot chooses among (a bare view: its ``version`` is the
    game's): all of them, except where the game's knowledge says otherwise."""
    return game.bot.narrowed(view, actions)

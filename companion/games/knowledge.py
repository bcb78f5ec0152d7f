"""What a bot knows of a game: the one contract between a game's home and ``companion.bots``.

A full game's home holds a ``bot.py`` whose ``BOT`` is a :class:`BotKnowledge` (the game
names it with ``bot_module``; :attr:`companion.games.Game.bot` loads it). The bots' machinery
(``companion.bots``: the search, the greedy yardsticks, the arena) asks it and nothing
else; a game's knowledge never imports the bots. What a bot does with each part, and how
well it plays: ``docs/bots.md``.

Every part has a default, so a new game gets a bot from its rules alone (uniformly random
playouts to the end, random untried moves): its home overrides what it knows better.
How the unseen cards are dealt again is the engine's :meth:`~companion.games.Game.resample`.
"""

from __future__ import annotations

from typing import Any

from .base import Game
from .rng import Rng

WON = 1000.0
"""The greedy players' value of a finished game won (shared wins divide it); a lost one is
its negative: far above any score margin."""


def finished_value(game: Game, state: dict, seat: int) -> float:
    """:data:`WON` shared among the winners of a finished ``state``, or its negative for ``seat``."""
    winners = game.result(state)["winners"]
    return WON / len(winners) if seat in winners else -WON


def shares_of_lead(standings: list) -> list[float]:
    """1/k for each of the k seats with the most, 0 for the others: a cut-off's rewards."""
    most = max(standings)
    leaders = standings.count(most)
    return [1.0 / leaders if standing == most else 0.0 for standing in standings]


def uniform(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    """A playout player that picks uniformly at random (what ``rng.choice`` of the list picks)."""
    return game.random_action(state, seat, rng.randbelow)


class BotKnowledge:
    """What a bot knows of one game. Subclass it in the game's ``bot.py``; every part has a
    default that knows nothing."""

    root_margin: float | None = None
    """Where :meth:`root_values` judge better than the playouts: the search weighs only the
    root's moves worth at most this much less than the best (None: every move)."""

    cutoff = None
    """None (playouts run to the end), or a method ``(begun, state) -> rewards or None``:
    each seat's reward where a playout that began at ``begun`` may stop at ``state`` and be
    judged, None to play on."""

    move_values = None
    """None (the search's tree tries untried moves at random), or a method ``(state, seat,
    actions) -> a value per action`` on a full state: higher is tried first."""

    def policy(self, game: Game, state: dict, seat: int, rng: Rng) -> dict:
        """The playout player's move for ``seat`` (from ``to_act``) on a full ``state``: one
        of ``game.listed_actions(state, seat)``, which the search applies unchecked.
        Uniformly at random by default."""
        return uniform(game, state, seat, rng)

    def narrowed(self, view: dict, actions: list[dict]) -> list[dict]:
        """The actions of a bare ``view`` the bot chooses among: all of them by default."""
        return actions

    def greedy_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        """The greedy player's value of each of ``actions`` from the bare ``view`` (higher is
        better): the move that leaves its own score margin highest right after it
        (``companion arena``'s yardstick, and the order the bot's root tries its moves in).
        Every move alike by default: the greedy player then plays at random."""
        return [0.0] * len(actions)

    def ahead_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        """The values of the greedy player that thinks ahead (the stronger yardstick): the
        greedy player's unless the game knows better."""
        return self.greedy_values(game, view, actions, rng)

    def root_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        """What each of the root's ``actions`` is worth before the search (higher is tried
        first): the greedy player's values unless the game knows better."""
        return self.greedy_values(game, view, actions, rng)

    def own_search(self, view: dict, level: str) -> Any | None:
        """The game's own search for this bare ``view`` at ``level``, in place of the tree
        search with playouts, or None (the default). It answers ``narrowed(game, view,
        actions)`` and ``Search(view, notes).run(keys, action_key, deadline, clock, deeper,
        rng)`` (SWAP 5's ``search.py``)."""
        return None

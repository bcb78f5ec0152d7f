"""The games: full rules engines and the trackers that follow a physical game.

Each box has one home, ``companion/games/<game>/``: its rules (``rules.py``), what a bot
knows of it (``bot.py``, see :mod:`.knowledge`), and the tracker that follows the physical
game where there is one. This module is the registry: the one place that lists them
(``docs/adding-a-game.md``).

Every game meets the contract of :class:`companion.games.base.Game`::

    game = companion.games.get("lion-square")
    state = game.setup(players=3, seed=42)
    seat = game.to_act(state)[0]
    state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    game.view(state, seat)      # what that seat may see; view(state, None) is the table
"""

from importlib import import_module

from .base import Box, Game, IllegalAction, Option, render_text, seat_ref

__all__ = ["Box", "Game", "IllegalAction", "Option", "get", "ids", "register", "render_text", "seat_ref", "unregister"]

# game id -> module holding its GAME object. Modules load on first use, so a table that
# only ever plays one game never imports the others.
_MODULES = {
    "lion-square": f"{__name__}.lion_square.rules",
    "lion-square-ledger": f"{__name__}.lion_square.ledger",
    "meow-oracle": f"{__name__}.meow_oracle.rules",
    "meow-oracle-scorer": f"{__name__}.meow_oracle.scorer",
    "swap5": f"{__name__}.swap5.rules",
    "pig-house": f"{__name__}.pig_house.rules",
    "score-pad": f"{__name__}.score_pad.rules",
}


def ids() -> list[str]:
    """The ids of every game the companion can run."""
    return list(_MODULES)


def get(game_id: str) -> Game:
    """The game object for ``game_id``; ValueError naming the known ids otherwise."""
    if not isinstance(game_id, str) or game_id not in _MODULES:
        raise ValueError(f"unknown game {game_id!r} (known games: {', '.join(_MODULES)})")
    return import_module(_MODULES[game_id]).GAME


def register(game_id: str, module: str) -> None:
    """Offer a game from outside this package: ``module`` (a dotted name) holds its ``GAME``.
    The tests try a toy game so; the games that ship are listed in ``_MODULES`` above."""
    if game_id in _MODULES:
        raise ValueError(f"there is already a game {game_id!r}")
    _MODULES[game_id] = module


def unregister(game_id: str) -> None:
    """Withdraw a game :func:`register` offered."""
    del _MODULES[game_id]

"""The games: full rules engines and the trackers that follow a physical game.

Every game meets the contract of :class:`companion.games.base.Game`::

    game = companion.games.get("lion-square")
    state = game.setup(players=3, seed=42)
    seat = game.to_act(state)[0]
    state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    game.view(state, seat)      # what that seat may see; view(state, None) is the table
"""

from importlib import import_module

from .base import Game, IllegalAction, Option, render_text, seat_ref

__all__ = ["Game", "IllegalAction", "Option", "get", "ids", "render_text", "seat_ref"]

# game id -> module holding its GAME object. Modules load on first use, so a table that
# only ever plays one game never imports the others.
_MODULES = {
    "lion-square": "lion_square",
    "lion-square-ledger": "lion_square_ledger",
    "meow-oracle": "meow_oracle",
    "meow-oracle-scorer": "meow_oracle_scorer",
    "swap5": "swap5",
    "pig-house": "pig_house",
}


def ids() -> list[str]:
    """The ids of every game the companion can run."""
    return list(_MODULES)


def get(game_id: str) -> Game:
    """The game object for ``game_id``; ValueError naming the known ids otherwise."""
    if not isinstance(game_id, str) or game_id not in _MODULES:
        raise ValueError(f"unknown game {game_id!r} (known games: {', '.join(_MODULES)})")
    return import_module(f"{__name__}.{_MODULES[game_id]}").GAME

"""Determinization: a full game state drawn at random among those a seat's view allows.

ISMCTS searches over states it cannot see. Each iteration asks :func:`sample_state` for
one: the game's own :meth:`~companion.games.Game.resample` deals every card the seat cannot
see at random among the places it could be (other hands, the face-down piles, the deck),
keeping every count the view shows, and copies the rest from the view. The seat's own view
of the sample equals the view it was given, public part and private part alike (the
contract test checks it for every game and seat, ``tests/bots/test_sampling.py`` over many
positions of a bot's games), so a bot never knows more than its phone shows.
"""

from __future__ import annotations

from .. import games
from ..games import Game
from ..games.rng import Rng


class NoBot(ValueError):
    """The game has no bot, or the view is not one a bot can play from."""


def bare_view(view: dict) -> dict:
    """``view`` without the table's envelope (see Table._envelope): the game's own view,
    with the game's version in ``version``. A bare ``game.view`` comes back unchanged."""
    bare = {key: value for key, value in view.items() if key not in ("game_version", "title", "names", "actions")}
    if "game_version" in view:
        bare["version"] = view["game_version"]
    return bare


def supported(game_id: str) -> bool:
    """Whether the game ``game_id`` has a bot (see Game.has_bot: its knowledge is not loaded)."""
    return games.get(game_id).has_bot


def sample_state(game: Game, view: dict, rng: Rng) -> dict:
    """A full state of ``game`` whose view for ``view["seat"]`` is ``view`` (envelope
    aside), the unseen cards dealt at random by ``rng``. NoBot for a game without a bot,
    or a view that does not add up."""
    if not game.has_bot:
        with_bots = ", ".join(game_id for game_id in games.ids() if supported(game_id))
        raise NoBot(f"{game.title['en']} has no bot (bots play {with_bots})")
    try:
        return game.resample(bare_view(view), rng)
    except ValueError as error:
        raise NoBot(str(error)) from None

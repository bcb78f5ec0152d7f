"""Bots for the full games: they take an empty seat or give a hint.

One entry, :func:`choose`. A bot receives the seat's *view* -- exactly what that seat's
phone receives (the table's envelope included, or a bare ``game.view(state, seat)`` with
``"actions"`` added) -- never the state, and answers one of ``view["actions"]``. It plays
by Information Set Monte Carlo Tree Search (:mod:`.ismcts`) over states sampled from the
view (:mod:`.sampling`). The trackers follow physical games and have no bot. How strong
and how fast they are: ``docs/bots.md``.
"""

from __future__ import annotations

import secrets

from ..games import Game
from ..games.rng import Rng
from ..games.knowledge import WON
from .budget import ITERATIONS, LEVELS, Budget
from .ismcts import action_key, search
from .parallel import InProcessPool, ProcessPool
from .policies import narrowed, root_values
from .sampling import NoBot, bare_view, supported

__all__ = ["LEVELS", "Budget", "NoBot", "choose", "supported"]

STRONG_DEEPER = 8
"""How many of its best moves ``strong`` weighs again one ply deeper where its game reads
the position with a search of its own (SWAP 5 with two players), as its budget allows."""

EASY_SECOND_BEST_PERCENT = 50
"""How often ``easy`` plays its second-best move instead of its best: half the time, so
that a newcomer beats it. At 25% it still won more Lion Square games (35% of 24) than
either of two greedy players (23% and 17%); at 50% 26% of 48, the greedy players 30% and
21% (docs/bots.md, "Against the greedy player")."""


def choose(
    game: Game,
    view: dict,
    *,
    budget: Budget | None = None,
    seed: int | None = None,
    level: str = "normal",
    notes: dict | None = None,
    pool: InProcessPool | ProcessPool | None = None,
) -> dict:
    """The action the bot plays from ``view``: one of ``view["actions"]``.

    ``budget`` (:class:`.budget.Budget`) is what the decision may spend: seconds of
    wall-clock time, a number of iterations or seconds of this process's processor time;
    None: the level's seconds in the built-in configuration. With iterations and ``seed``
    the choice is the same every time (a game with a search of its own, two-player SWAP 5 at
    ``normal`` and ``strong``, reads the game two plies deep instead of searching with
    playouts: ``companion/games/swap5/search.py``; there the iterations are how many moves
    ``strong`` reads a ply deeper). The budget starts
    (its deadline is set) when the choosing begins. ``level`` is ``easy`` (which sometimes
    plays its second-best move), ``normal`` or ``strong``. ``notes`` is what the bot
    remembers of the play between its decisions, as a person at the table remembers how
    the others play: the caller keeps one dict per play and seat (empty at first) and hands
    it to every decision of that seat; None, and the bot notices only what this view shows. Two-player
    SWAP 5 notes the last trump cards the other passed over (``Search.notice`` in its ``search.py``).
    ``pool`` runs the tree search on several workers, their root statistics summed
    (:mod:`.parallel`); None, or a pool of one worker, searches here as alone.
    Bad input raises ValueError (NoBot for a game or view a bot cannot play) saying what is
    wrong.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    if budget is not None and not isinstance(budget, Budget):
        raise ValueError(f"the budget must be a Budget (companion.bots.budget), not {budget!r}")
    if seed is not None and type(seed) is not int:
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if notes is not None and type(notes) is not dict:
        raise ValueError(f"the notes must be a dict kept by the caller, not {notes!r}")
    offered_all = _checked_actions(game, view)
    own = game.bot.own_search(bare_view(view), level)
    actions = (own.narrowed if own is not None else narrowed)(game, bare_view(view), offered_all)
    if len(actions) == 1:
        return actions[0]
    budget = (Budget.for_level(level) if budget is None else budget).start()
    rng = Rng.from_seed(secrets.randbits(63) if seed is None else seed)
    offered = {action_key(action): action for action in actions}
    if own is not None:
        # Two-player SWAP 5 is read two plies deep instead of searched with playouts
        # (companion/games/swap5/search.py; docs/bots.md says why). It has no randomness.
        # With iterations, strong weighs that many of its best moves deeper (at most
        # STRONG_DEEPER), and normal ignores them: its search always ends.
        deeper = 0 if level == "normal" else STRONG_DEEPER
        if budget.unit == ITERATIONS:
            deeper = min(deeper, budget.amount)
        found = own.Search(bare_view(view), notes).run(set(offered), action_key, budget, deeper, rng)
        return offered[action_key(found)]
    # The greedy player's values order the root (progressive bias): a small budget then
    # weighs the moves a sensible player would make first, and the search can only improve
    # on them. They are computed within the budget.
    # Not for easy, which is meant to be beatable by a newcomer: it searches alone, with
    # uniformly random playouts (with the knowledge of normal's playouts and no greedy
    # values, it still won 10 of 24 Meow Oracle games against two greedy players).
    prior = None if level == "easy" else dict(zip(offered, root_values(game, bare_view(view), actions, rng)))
    # A move the greedy player sees lose the game by force (SWAP 5: a last trump card that
    # the other's best reply, seen by everyone, answers with a win) is not weighed at all,
    # unless every move loses: a few noisy playouts must not talk the bot into it.
    safe = [action for key, action in offered.items() if prior is not None and prior[key] > -WON]
    if safe and len(safe) < len(actions):
        if len(safe) == 1:
            return safe[0]
        actions = safe
        offered = {action_key(action): action for action in actions}
    margin = game.bot.root_margin
    if prior is not None and margin is not None:
        # Where the playouts judge worse than the root's values (see BotKnowledge.root_margin),
        # the search only chooses among the moves those values call nearly as good as the best.
        best = max(prior[key] for key in offered)
        close = [action for key, action in offered.items() if prior[key] >= best - margin]
        if len(close) == 1:
            return close[0]
        if len(close) < len(actions):
            actions = close
            offered = {action_key(action): action for action in actions}
    searcher = search if pool is None else pool.search  # several workers: their root statistics summed
    edges = [edge for edge in searcher(game, bare_view(view), rng, budget,
                                    only=None if len(actions) == len(offered_all) else actions, prior=prior,
                                    light=level == "easy")
             if action_key(edge.action) in offered]
    if not edges:
        raise NoBot("the sampled positions offered none of the view's actions; the view and the game disagree")
    ranked = sorted(edges, key=lambda edge: -edge.visits)  # sorted is stable: the first tried wins ties
    blunder = level == "easy" and len(ranked) > 1 and rng.randbelow(100) < EASY_SECOND_BEST_PERCENT
    pick = ranked[1] if blunder else ranked[0]
    return offered[action_key(pick.action)]


def _checked_actions(game: Game, view: dict) -> list[dict]:
    """``view["actions"]``, after checking that ``view`` is a seat's view a bot can play from."""
    if not isinstance(game, Game):
        raise ValueError(f"choose needs a game object from companion.games.get, not {game!r}")
    if not supported(game.id):
        raise NoBot(f"{game.title['en']} has no bot: it follows a game played with the real components")
    if not isinstance(view, dict) or view.get("game") != game.id:
        raise NoBot(f"that is not a {game.id} view")
    if type(view.get("seat")) is not int:
        raise NoBot("that is the public table's view; a bot plays from one seat's view")
    if view.get("over"):
        raise NoBot("the game is over: there is nothing to choose")
    actions = view.get("actions")
    if not isinstance(actions, list):
        raise NoBot('the view has no "actions": add game.legal_actions(state, seat) to a bare view')
    if not actions:
        raise NoBot(f"seat {view['seat'] + 1} has nothing to do now")
    return actions

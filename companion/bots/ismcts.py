"""Single-observer Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012).

One tree, seen from the observing seat: a node is the sequence of actions taken since the
view, edges are keyed by the action. Each iteration

1. samples a full state consistent with the view (:func:`sampling.sample_state`),
2. walks down the tree, at each node choosing among the actions *legal in that sample*
   by UCT with availability counts (the "subset-armed bandit": an edge's exploration term
   counts the iterations in which it was available, not the parent's visits),
3. adds one new edge for an untried legal action: where the game has a move value (see
   :mod:`.policies`) the best untried one, and only while the node has fewer edges than
   :func:`widening` allows for its visits ("progressive unpruning", Chaslot et al. 2008),
   so that a small budget compares a few good moves by their playouts instead of trying
   every move once; elsewhere a random untried one, at once,
4. plays the game out with the game's playout policy (:mod:`.policies`), to its end or
   to the game's cut-off (Meow Oracle and Lion Square: the end of the round being played), and
5. backs up every seat's reward along the path: its share of the win (ties shared, 0 when
   nobody wins, e.g. Lion Square's lions); each edge adds the reward of the seat that took it.

Opponents' nodes use the same UCT over their own rewards. Moves the observer cannot see
(another seat's hidden pass) are branched on as if seen, as SO-ISMCTS does. With a fixed
number of iterations and a seed, everything is deterministic: the RNG is the engines' own
SplitMix64, actions are tried in the order the engine lists them, and ties go to the first.
"""

from __future__ import annotations

import json
import math
from typing import Callable

from ..games import Game
from ..games.rng import Rng
from .budget import Budget
from .policies import cutoff, policy, uniform, values
from .sampling import sample_state

EXPLORATION = 0.7
"""The UCT constant for rewards in [0, 1] (about 1/sqrt(2), Kocsis & Szepesvári's choice)."""


class Edge:
    """An action taken from a node: who took it, how often, how well it did for them."""

    __slots__ = ("action", "seat", "visits", "reward", "available", "children")
    # visits: iterations through this edge, i.e. visits of the node it leads to

    def __init__(self, action: dict, seat: int):
        self.action = action
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[str, Edge] = {}  # the node this edge leads to


def action_key(action: dict) -> str:
    """An action as a dict key (actions are JSON dicts, some holding lists)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def rewards(game: Game, state: dict) -> list[float]:
    """Each seat's share of the win of a finished game: 1/k for each of k winners."""
    winners = game.result(state)["winners"]
    shares = [0.0] * state["players"]
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def playout(game: Game, state: dict, rng: Rng, light: bool = False) -> list[float]:
    """Each seat's reward (see :func:`rewards`) of a game played on with the game's playout
    policy, to its end or to the game's cut-off (see policies.py); ``light``: uniformly at
    random to the end."""
    choose_move = uniform if light else policy(game)
    judge = None if light else cutoff(game)
    begun = state
    while not game.is_over(state):
        if judge is not None and (shares := judge(begun, state)) is not None:
            return shares
        seat = game.to_act(state)[0]
        # Every policy returns one of the seat's listed actions: no need to check it again.
        state = game.apply_listed(state, seat, choose_move(game, state, seat, rng))
    return rewards(game, state)


def search(
    game: Game,
    view: dict,
    rng: Rng,
    budget: Budget,
    *,
    only: list[dict] | None = None,
    prior: dict[str, float] | None = None,
    light: bool = False,
    stop: Callable[[], bool] | None = None,
) -> list[Edge]:
    """Run ISMCTS from ``view`` (the observer is ``view["seat"]``) while ``budget`` (started:
    :meth:`.budget.Budget.start`) has time left; return the root's edges, in the order the
    actions were first tried. With ``only``, the root weighs those of its actions alone (see
    policies.narrowed). With ``prior`` (a value per root action, by its key: the greedy
    player's), the root tries its actions in that order and widens progressively, as
    nodes with move values do. ``light`` playouts are uniformly random (see :func:`playout`).
    ``stop``, asked before each iteration after the first, ends the search early when it
    answers True (a worker of :mod:`.parallel` told to stop). At least one iteration always runs."""
    me = view["seat"]
    root = Edge({}, me)
    keep = None if only is None else {action_key(action) for action in only}
    done = 0
    while done == 0 or budget.left(done) and (stop is None or not stop()):
        _iterate(game, game.unlogged(sample_state(game, view, rng)), me, root, rng, keep, prior, light)
        root.visits += 1
        done += 1
    return list(root.children.values())


def _iterate(
    game: Game,
    state: dict,
    me: int,
    root: Edge,
    rng: Rng,
    keep: set[str] | None,
    prior: dict[str, float] | None,
    light: bool,
) -> None:
    node, path = root, []
    game_values = values(game)
    while not game.is_over(state):
        # The root is the observer's own decision, even when others choose at the same time.
        seat = me if node is root else game.to_act(state)[0]
        # The seat is to act: from to_act, or the observer, whose view of every sample is
        # the view it chose from, actions included.
        legal = game.listed_actions(state, seat)
        keys = [action_key(action) for action in legal]
        if node is root and keep is not None:
            legal, keys = [a for a, k in zip(legal, keys) if k in keep], [k for k in keys if k in keep]
        untried = [i for i, key in enumerate(keys) if key not in node.children]
        tried = len(keys) - len(untried)
        for key in keys:
            if key in node.children:
                node.children[key].available += 1
        ordered = prior is not None and node is root
        value_of = game_values
        if ordered:
            value_of = lambda _state, _seat, actions: [prior.get(action_key(action), 0.0) for action in actions]
        if untried and (value_of is None or tried == 0 or len(node.children) < widening(node.visits)):
            if value_of is None:
                index = untried[rng.randbelow(len(untried))]
            else:
                worth = value_of(state, seat, [legal[i] for i in untried])
                index = untried[worth.index(max(worth))]
            edge = node.children[keys[index]] = Edge(legal[index], seat)
            edge.available = 1
            path.append(edge)
            state = game.apply_listed(state, seat, legal[index])
            break
        edge = max((node.children[key] for key in keys if key in node.children), key=_uct)  # keeps the first of equals
        path.append(edge)
        state = game.apply_listed(state, seat, edge.action)  # its key is among this sample's listed actions
        node = edge
    shares = playout(game, state, rng, light)
    for edge in path:
        edge.visits += 1
        edge.reward += shares[edge.seat]


def widening(visits: int) -> int:
    """How many edges a node with move values may have after ``visits`` visits: 2 after
    the first, 4 after 9, 6 after 25 (the square root), so edges get several visits each."""
    return 1 + math.isqrt(visits)


def _uct(edge: Edge) -> float:
    return edge.reward / edge.visits + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)

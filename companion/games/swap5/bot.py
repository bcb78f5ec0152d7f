"""What a bot knows of SWAP 5 (see :mod:`companion.games.knowledge`; how it plays: docs/bots.md).

Uniform random play is a poor judge of SWAP 5: random players almost never line up five
pieces, so nearly every playout ends with the last trump card and a tie broken by turn
order, whatever the first move was. So a move is valued by how far it puts the mover's
colours ahead on points (scored with the engine's own :func:`~.rules.seat_scores`): the
playout player weighs a few random legal moves and keeps the best, and the tree tries
untried moves best first. With the budgets a Raspberry Pi affords (fewer iterations than
SWAP 5 has moves) the order is what makes a bot take a win in one or block a five.

The game also ends when a player plays their last trump card (after one more lap), and the
tie then goes against that player; a player ahead on points wants that, a player level or
behind does not. Moves valued by points alone almost never play a trump card (a row swap
seldom scores), so two such bots played on for hundreds of moves and their playouts rarely
ended. So a trump card that leaves its player strictly ahead of everyone is worth a little
more than any move to the same lead, and one that does not a little less, and the playout
player always weighs its trump cards besides the random candidates: the leader plays its
cards out and ends the game while ahead, as a person would.

With two players, ``normal`` and ``strong`` do not search with playouts at all: they read
the game two plies deep (:mod:`.search`).

The greedy player (the yardstick): two plies, its move, then the reply of the next player
that is best for that player among the replies everybody can see (swaps and moves; their
trump cards are secret), weighed by its score minus the best other score, and a finished
game by who won (a win above every margin, a loss below). The engine plays both plies, on a
state resampled from the view, so every way the game can end counts. The greedy player that
thinks ahead is the same, except that its last trump card is weighed at the worst hand the
other may hold (its trump cards too, not only the replies it can see), so it never walks
into the trap of a card the other holds (benchmarks/strength.md, "Against a more careful player").
"""

from __future__ import annotations

import itertools
import math

from ..base import Game
from ..knowledge import BotKnowledge, finished_value
from ..rng import Rng
from . import search
from .rules import TRUMP_CARDS, board_after, seat_scores

CANDIDATES = 4
"""How many random legal moves a playout player weighs per turn (besides its trump cards):
enough to take most scoring moves, few enough to keep a playout cheap."""

PATIENCE = 150
"""After this many moves of a game the bot plays its trump cards, ending the game one lap
after its last. A player behind whose every threat is undone at once (a greedy player swaps
the same two pieces back) has no reason to stop making threats, and the two went on for
thousands of moves, one position again and again; a person would stop and play their cards
out. Games that are going somewhere end well before (median about 50 moves against the
greedy player)."""

TRUMP_WHILE_AHEAD = 0.5
"""What a trump card that leaves its player strictly ahead adds to the lead it gives (and
one that does not takes off): less than a point, so a move that scores still comes first."""


def move_values(state: dict, seat: int, actions: list[dict]) -> list[float]:
    """How far each action puts ``seat`` ahead on points (its points minus everyone
    else's), a trump card adjusted by :data:`TRUMP_WHILE_AHEAD`."""
    found = []
    for action in actions:
        scores = seat_scores(board_after(state["board"], action), state["players"])
        mine, others = scores[seat], scores[:seat] + scores[seat + 1 :]
        value = mine - sum(others)
        if action["type"] == "trump":
            value += TRUMP_WHILE_AHEAD if mine > max(others) else -TRUMP_WHILE_AHEAD
        found.append(value)
    return found


def _margin(game: Game, state: dict, seat: int) -> float:
    if game.is_over(state):
        return finished_value(game, state, seat)
    scores = seat_scores(state["board"], state["players"])
    return scores[seat] - max(scores[:seat] + scores[seat + 1:])


def margin_after_reply(game: Game, after: dict, me: int, replies: list[dict]) -> float:
    """``me``'s margin after the one of the next player's ``replies`` that leaves that
    player's own margin highest (of equals, the worst for ``me``); with no reply, as it is."""
    other = game.to_act(after)[0]
    best_for_them, mine = -math.inf, math.inf
    for reply in replies:
        answered = game.apply_listed(after, other, reply)
        theirs = _margin(game, answered, other)
        if theirs > best_for_them or theirs == best_for_them and _margin(game, answered, me) < mine:
            best_for_them, mine = theirs, _margin(game, answered, me)
    return mine if replies else _margin(game, after, me)


def _margin_after_any_reply(game: Game, after: dict, me: int) -> float:
    """The greedy player's margin after the other's best reply, its trump cards included."""
    return margin_after_reply(game, after, me, game.listed_actions(after, game.to_act(after)[0]))


class Swap5Knowledge(BotKnowledge):
    def policy(self, game: Game, state: dict, seat: int, rng: Rng) -> dict:
        """A few random legal moves and every trump card, the best by :func:`move_values`."""
        legal = game.listed_actions(state, seat)
        candidates = [legal[rng.randbelow(len(legal))] for _ in range(CANDIDATES)]
        candidates += [action for action in legal if action["type"] == "trump"]
        values = move_values(state, seat, candidates)
        return candidates[values.index(max(values))]

    move_values = staticmethod(move_values)

    def narrowed(self, view: dict, actions: list[dict]) -> list[dict]:
        """After :data:`PATIENCE` moves only its trump cards (while it holds one), so that
        every game it plays ends."""
        if view["version"] < PATIENCE:
            return actions
        return [action for action in actions if action["type"] == "trump"] or actions

    def greedy_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        me = view["seat"]
        state = game.unlogged(game.resample(view, rng))
        worth = []
        for action in actions:
            after = game.apply_listed(state, me, action)
            if game.is_over(after):
                worth.append(finished_value(game, after, me))
                continue
            other = game.to_act(after)[0]
            # The replies everybody can see: the other's trump cards are secret (and only sampled here).
            replies = [reply for reply in game.listed_actions(after, other) if reply["type"] != "trump"]
            worth.append(margin_after_reply(game, after, me, replies))
        return worth

    def ahead_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        """The greedy player's values, its last trump card weighed at the worst hand the
        other may hold (two players)."""
        worth = self.greedy_values(game, view, actions, rng)
        me, hand = view["seat"], view["private"]["hand"]
        if len(hand) != 1 or view["players"] != 2:
            return worth
        state = game.unlogged(game.resample(view, rng))
        other = str(1 - me)
        played = {entry["card"] for entry in view["public"]["trumps_played"]}
        unseen = sorted(card for card in TRUMP_CARDS if card not in played and card not in hand)
        for index, action in enumerate(actions):
            if action["type"] != "trump":
                continue
            after = game.apply_listed(state, me, action)
            if game.is_over(after):
                continue
            worth[index] = min(_margin_after_any_reply(game, dict(after, hands=dict(after["hands"], **{other: list(dealt)}),
                                                                  out=[card for card in unseen if card not in dealt]), me)
                               for dealt in itertools.combinations(unseen, len(after["hands"][other])))
        return worth

    def own_search(self, view: dict, level: str):
        """Two players at ``normal`` and ``strong``: read two plies deep (:mod:`.search`)."""
        return search if view["players"] == 2 and level != "easy" else None


BOT = Swap5Knowledge()

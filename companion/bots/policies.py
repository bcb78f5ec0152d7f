"""Game knowledge for the search: playout policies and the order in which moves are tried.

Uniform random play is a poor judge of SWAP 5: random players almost never line up five
pieces, so nearly every playout ends with the last trump card and a tie broken by turn
order, whatever the first move was. So for SWAP 5 a move is valued by how far it puts the
mover's colours ahead on points (scored with the engine's own :func:`swap5.seat_scores`):
the playout player weighs a few random legal moves and keeps the best, and the tree tries
untried moves best first. With the budgets a Raspberry Pi affords (fewer iterations than
SWAP 5 has moves) the order is what makes a bot take a win in one or block a five.

The game also ends when a player plays their last trump card (after one more lap), and the
tie then goes against that player; a player ahead on points wants that, a player level or
behind does not. Moves valued by points alone almost never play a trump card (a row swap
seldom scores), so two such bots played on for hundreds of moves and their playouts rarely
ended. So a trump card that leaves its player strictly ahead of everyone is worth a little
more than any move to the same lead, and one that does not a little less, and the playout
player always weighs its trump cards besides the random candidates: the leader plays its
cards out and ends the game while ahead, as a person would. The other games play out and
expand uniformly at random.
"""

from __future__ import annotations

from ..games import Game
from ..games import swap5
from ..games.rng import Rng

SWAP5_CANDIDATES = 4
"""How many random legal moves a SWAP 5 playout player weighs per turn (besides its trump
cards): enough to take most scoring moves, few enough to keep a playout cheap."""

TRUMP_WHILE_AHEAD = 0.5
"""What a trump card that leaves its player strictly ahead adds to the lead it gives (and
one that does not takes off): less than a point, so a move that scores still comes first."""


def uniform(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    return game.random_action(state, seat, rng.randbelow)  # what rng.choice of the list picks


def swap5_best_of_few(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    legal = game.listed_actions(state, seat)
    candidates = [legal[rng.randbelow(len(legal))] for _ in range(SWAP5_CANDIDATES)]
    candidates += [action for action in legal if action["type"] == "trump"]
    values = swap5_values(state, seat, candidates)
    return candidates[values.index(max(values))]


def swap5_values(state: dict, seat: int, actions: list[dict]) -> list[float]:
    """How far each action puts ``seat`` ahead on points (its points minus everyone
    else's), a trump card adjusted by :data:`TRUMP_WHILE_AHEAD`."""
    found = []
    for action in actions:
        scores = swap5.seat_scores(_swap5_board_after(state["board"], action), state["players"])
        mine, others = scores[seat], scores[:seat] + scores[seat + 1 :]
        value = mine - sum(others)
        if action["type"] == "trump":
            value += TRUMP_WHILE_AHEAD if mine > max(others) else -TRUMP_WHILE_AHEAD
        found.append(value)
    return found


def _swap5_board_after(board: str, action: dict) -> str:
    """The board after ``action`` (the engine's swap and trump, on the board string)."""
    if action["type"] == "trump":
        return "".join(board[i] for i in swap5.TRUMP_CARDS[action["card"]])
    cells = list(board)
    a, b = swap5.CELL_INDEX[action["from"]], swap5.CELL_INDEX[action["to"]]
    cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


POLICIES = {"swap5": swap5_best_of_few}
VALUES = {"swap5": swap5_values}


def policy(game: Game):
    """The playout policy of ``game``: ``(game, state, seat, rng) -> action`` for a seat
    from ``to_act``, one of ``game.listed_actions(state, seat)`` (the search applies it
    without checking it again)."""
    return POLICIES.get(game.id, uniform)


def values(game: Game):
    """``(state, seat, actions) -> a value per action`` (higher is tried first), or None
    when the game has no such knowledge and untried moves are picked at random."""
    return VALUES.get(game.id)

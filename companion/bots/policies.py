"""Game knowledge for the search: playout policies and the order in which moves are tried.

Uniform random play is a poor judge of SWAP 5: random players almost never line up five
pieces, so nearly every playout ends with the last trump card and a tie broken by turn
order, whatever the first move was. So for SWAP 5 a move is valued by how far it puts the
mover's colours ahead on points (scored with the engine's own public
:func:`swap5.score_board`): the playout player weighs a few random legal moves and keeps
the best, and the tree tries untried moves best first. With the budgets a Raspberry Pi
affords (fewer iterations than SWAP 5 has moves) the order is what makes a bot take a win
in one or block a five. The other games play out and expand uniformly at random.
"""

from __future__ import annotations

from ..games import Game
from ..games import swap5
from ..games.rng import Rng

SWAP5_CANDIDATES = 4
"""How many random legal moves a SWAP 5 playout player weighs per turn: enough to take
most scoring moves, few enough to keep a playout about twice the cost of a random one."""


def uniform(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    return rng.choice(game.legal_actions(state, seat))


def swap5_best_of_few(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    legal = game.legal_actions(state, seat)
    candidates = [legal[rng.randbelow(len(legal))] for _ in range(SWAP5_CANDIDATES)]
    values = swap5_values(state, seat, candidates)
    return candidates[values.index(max(values))]


def swap5_values(state: dict, seat: int, actions: list[dict]) -> list[int]:
    """How far each action puts ``seat``'s colours ahead on points."""
    mine = swap5.OWNED_COLOURS[state["players"]][seat]
    return [_swap5_lead(_swap5_board_after(state["board"], action), mine) for action in actions]


def _swap5_board_after(board: str, action: dict) -> str:
    """The board after ``action`` (the engine's swap and trump, on the board string)."""
    if action["type"] == "trump":
        return "".join(board[i] for i in swap5.TRUMP_CARDS[action["card"]])
    cells = list(board)
    a, b = swap5.CELL_INDEX[action["from"]], swap5.CELL_INDEX[action["to"]]
    cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


def _swap5_lead(board: str, mine: tuple[str, ...]) -> int:
    """The mover's colours' points minus everyone else's; a run of five outweighs all."""
    scores = swap5.score_board([board[r * swap5.SIZE : (r + 1) * swap5.SIZE] for r in range(swap5.SIZE)])
    return sum(points if colour in mine else -points for colour, points in scores.items())


POLICIES = {"swap5": swap5_best_of_few}
VALUES = {"swap5": swap5_values}


def policy(game: Game):
    """The playout policy of ``game``: ``(game, state, seat, rng) -> action``."""
    return POLICIES.get(game.id, uniform)


def values(game: Game):
    """``(state, seat, actions) -> a value per action`` (higher is tried first), or None
    when the game has no such knowledge and untried moves are picked at random."""
    return VALUES.get(game.id)

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
cards out and ends the game while ahead, as a person would. Meow Oracle and Lion Square
have playout players of their own below, and their playouts stop at the end of the round
(see the cut-offs); their trees expand uniformly at random.
"""

from __future__ import annotations

from ..games import Game
from ..games import meow_oracle, swap5
from ..games.rng import Rng
from .ahead import meow_expected_values
from .greedy import greedy_values, lion_margin_after

SWAP5_CANDIDATES = 4
"""How many random legal moves a SWAP 5 playout player weighs per turn (besides its trump
cards): enough to take most scoring moves, few enough to keep a playout cheap."""

SWAP5_PATIENCE = 150
"""After this many moves of a SWAP 5 game the bot plays its trump cards, ending the game
one lap after its last. A player behind whose every threat is undone at once (a greedy
player swaps the same two pieces back) has no reason to stop making threats, and the
two went on for thousands of moves, one position again and again; a person would stop
and play their cards out. Games that are going somewhere end well before (median about
50 moves against the greedy player)."""

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
        scores = swap5.seat_scores(swap5.board_after(state["board"], action), state["players"])
        mine, others = scores[seat], scores[:seat] + scores[seat + 1 :]
        value = mine - sum(others)
        if action["type"] == "trump":
            value += TRUMP_WHILE_AHEAD if mine > max(others) else -TRUMP_WHILE_AHEAD
        found.append(value)
    return found


def swap5_patient(view: dict, actions: list[dict]) -> list[dict]:
    """The actions the bot weighs: after :data:`SWAP5_PATIENCE` moves only its trump cards
    (while it holds one), so that every game it plays ends."""
    if view["version"] < SWAP5_PATIENCE:
        return actions
    return [action for action in actions if action["type"] == "trump"] or actions


MEOW_RANDOM_PERCENT = 20
"""How often a Meow Oracle playout player hands out or places a card at random instead of
where it fits best: some randomness, so that playouts differ."""

_MEOW_SNAKE_PLACE = [meow_oracle.SNAKE.index(cell) for cell in range(meow_oracle.CELLS)]
_MEOW_LINES_THROUGH = [[(b, c) for line in meow_oracle.LINES if cell in line for b, c in [tuple(x for x in line if x != cell)]]
                       for cell in range(meow_oracle.CELLS)]
_MEOW_STEP = meow_oracle.HIGHEST / (meow_oracle.CELLS - 1)  # the number that suits each place of the snake


def meow_fit(up: list, card: str, cell: int) -> float:
    """How well ``card`` suits ``cell`` of an area whose face-up cards are ``up`` (ids or
    None), as a player filling it would judge: near the number its place on the snake
    wants (0 first, 10 last, so the run can go on), and sharing a colour with the face-up
    cards of the lines through it (a line of one colour scores 2)."""
    number, bits = meow_oracle.CARD_NUMBER[card], meow_oracle.CARD_COLOUR_BITS[card]
    fit = -abs(number - _MEOW_STEP * _MEOW_SNAKE_PLACE[cell])
    for b, c in _MEOW_LINES_THROUGH[cell]:
        first, second = up[b], up[c]
        shared = bits
        if first is not None:
            shared &= meow_oracle.CARD_COLOUR_BITS[first]
        if second is not None:
            shared &= meow_oracle.CARD_COLOUR_BITS[second]
        if shared and (first is not None or second is not None):
            fit += 2.0 if first is not None and second is not None else 1.0
        elif not shared:
            fit -= 0.5
    return fit


def _meow_best_place(up: list, card: str) -> tuple[float, int]:
    return max((meow_fit(up, card, cell), -cell) for cell in range(meow_oracle.CELLS) if up[cell] is None)


def meow_fitting(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    """A Meow Oracle playout player: reveals blindly (nobody can do better), places a card
    where it fits best (:func:`meow_fit`) and keeps the card that fits it best, handing the
    others out at random; one time in five it does any of these at random."""
    step = state["step"]
    if step == "reveal" or rng.randbelow(100) < MEOW_RANDOM_PERCENT:
        return game.random_action(state, seat, rng.randbelow)
    if step == "place":
        card = state["to_place"][seat][0]
        cell = -_meow_best_place(state["up"][seat], card)[1]
        return {"type": "place", "card": card, "cell": [cell // 3, cell % 3]}
    # Giving: the card that fits the giver best goes to the giver while they are owed one.
    revealed, owed = state["revealed"], state["owed"]
    if seat in owed:
        mine = max(revealed, key=lambda card: _meow_best_place(state["up"][seat], card))
        return {"type": "give", "card": mine, "to": seat}
    return game.random_action(state, seat, rng.randbelow)


LION_CANDIDATES = 3
"""How many random legal moves a Lion Square playout player weighs per turn."""


def lion_best_of_few(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    """A Lion Square playout player: passes at random (a pass changes no score), and
    otherwise weighs a few random legal moves by the greedy player's margin (the damage
    the round would do if it ended now: the others' average minus its own) and plays
    the best. A take is weighed alone, its placement being the next move."""
    if state["step"] == "pass":
        return game.random_action(state, seat, rng.randbelow)
    candidates = [game.random_action(state, seat, rng.randbelow) for _ in range(LION_CANDIDATES)]
    worth = [lion_margin_after(state, seat, action) for action in candidates]
    return candidates[worth.index(max(worth))]


POLICIES = {"swap5": swap5_best_of_few, "meow-oracle": meow_fitting, "lion-square": lion_best_of_few}


def meow_round_over(begun: dict, state: dict) -> list[float] | None:
    """Meow Oracle's cut-off: once the round a playout began in is over, each seat's share
    of the lead in wins (ties shared). The next round is dealt afresh, so playing it out
    at random would add only noise, at the cost of a second round."""
    return None if state["round"] == begun["round"] else _shares_of_lead(state["wins"])


def lion_round_over(begun: dict, state: dict) -> list[float] | None:
    """Lion Square's cut-off: once the round a playout began in is over (and the game
    goes on), each seat's share of the lead in herds (ties shared), judged by the
    engine's own damage, which has just been taken. The next round is dealt afresh, so
    playing it out would add mostly noise, at the cost of a round or two more."""
    return None if state["round"] == begun["round"] else _shares_of_lead(state["herds"])


def _shares_of_lead(standings: list) -> list[float]:
    """1/k for each of the k seats with the most, 0 for the others."""
    most = max(standings)
    leaders = standings.count(most)
    return [1.0 / leaders if standing == most else 0.0 for standing in standings]


CUTOFFS = {"meow-oracle": meow_round_over, "lion-square": lion_round_over}
VALUES = {"swap5": swap5_values}
NARROWERS = {"swap5": swap5_patient}


def policy(game: Game):
    """The playout policy of ``game``: ``(game, state, seat, rng) -> action`` for a seat
    from ``to_act``, one of ``game.listed_actions(state, seat)`` (the search applies it
    without checking it again)."""
    return POLICIES.get(game.id, uniform)


def cutoff(game: Game):
    """``(begun, state) -> rewards or None``: where a playout of ``game`` that began at
    ``begun`` may stop and be judged; None for a game played out to its end."""
    return CUTOFFS.get(game.id)


def values(game: Game):
    """``(state, seat, actions) -> a value per action`` (higher is tried first), or None
    when the game has no such knowledge and untried moves are picked at random."""
    return VALUES.get(game.id)


MEOW_ROOT_COMPLETIONS = 64
"""How many completions of each area weigh the Meow Oracle root's moves: four times the
yardstick's 16, for a few milliseconds of the budget (the moves' values are less noisy)."""


def _meow_root_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    return meow_expected_values(view, actions, rng, MEOW_ROOT_COMPLETIONS)


ROOT_VALUES = {"meow-oracle": _meow_root_values}


ROOT_MARGIN = {"meow-oracle": 0.5}
"""Where the root's values judge better than the playouts: the search weighs only the moves
worth at most this much less than the best by :func:`root_values` (Meow Oracle: half a
round point; with only the best three moves weighed, the bot still lost to the greedy player
that thinks ahead as often as with every move, docs/bots.md)."""


def root_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """What each of the root's ``actions`` is worth before the search (higher is tried first),
    from the bare ``view``: the greedy player's values, or where it is blind those of the
    greedy player that thinks ahead (:mod:`.ahead`: Meow Oracle's expected round points)."""
    return ROOT_VALUES.get(game.id, greedy_values)(game, view, actions, rng)


def narrowed(game: Game, view: dict, actions: list[dict]) -> list[dict]:
    """The view's actions the bot chooses among (a bare view: its ``version`` is the
    game's): all of them, except where the game's knowledge says otherwise."""
    narrower = NARROWERS.get(game.id)
    return actions if narrower is None else narrower(view, actions)

"""The greedy player: the yardstick the bots are measured against (``companion arena``).

It is the simplest sensible player, seeing only its own seat's view, like a phone: of the
actions it may take, it plays the one that leaves its own score margin highest by the
game's own scoring, right after the move (ties broken at random):

* **Lion Square**: the margin is the damage the round would do if it ended now (the
  nearest card of each line running away from a side, half the taken cards rounded up,
  and for itself the gazelles in hand: :func:`lion_square.damage`), the others' average
  minus its own. A take is weighed together with its best placement, since the two make
  one turn. The hand adjustment changes no score: a random legal pass.
* **Meow Oracle**: the margin is its round points minus the best of its neighbours',
  each area scored by the engine's rules over its face-up cards (a run stops at the first
  card not yet face up, a line counts once its three cards are up). A card handed to a
  player is weighed where that player would put it best for themselves. Reveals are blind
  picks and change no score: a random one.
* **SWAP 5**: two plies: its move, then the reply of the next player that is best for
  that player among the replies everybody can see (swaps and moves; their trump cards
  are secret), weighed by its score minus the best other score, and a finished game by
  who won (a win above every margin, a loss below). The engine plays both plies, on a
  state sampled from the view (:mod:`.sampling`), so every way the game can end counts.

It is a yardstick, not a level: nobody can seat it at the table.
"""

from __future__ import annotations

import math

from ..games import Game
from ..games import lion_square, meow_oracle
from ..games.swap5 import seat_scores
from ..games.rng import Rng
from .sampling import bare_view, sample_state

WON = 1000.0
"""The value of a finished game won (shared wins divide it); a lost one is its negative."""


def greedy_action(game: Game, view: dict, rng: Rng) -> dict:
    """The greedy player's choice among ``view["actions"]`` (the seat's view with its
    actions, as :func:`companion.bots.choose` takes it)."""
    return best_action(view["actions"], lambda actions: greedy_values(game, bare_view(view), actions, rng), rng)


def best_action(actions: list[dict], values, rng: Rng) -> dict:
    """The action of highest value (``values(actions)``, asked only when there is a choice),
    ties broken by ``rng``."""
    if len(actions) == 1:
        return actions[0]
    worth = values(actions)
    best = max(worth)
    ties = [action for action, value in zip(actions, worth) if value == best]
    return ties[rng.randbelow(len(ties))]


def greedy_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """The greedy player's value of each of ``actions`` from the bare ``view`` (higher is
    better; ``rng`` samples the hidden cards where the engine plays a move through)."""
    return _VALUES[game.id](game, view, actions, rng)


def _finished(game: Game, state: dict, seat: int) -> float:
    winners = game.result(state)["winners"]
    return WON / len(winners) if seat in winners else -WON


# --------------------------------------------------------------------------- Lion Square

def _lion_losses(field: list, taken: list[int], me: int, my_gazelles: int) -> list[int]:
    """Each seat's damage (the engine's :func:`~companion.games.lion_square.damage`) were
    the round to end with ``field`` (``[row, column, card]`` entries) and ``taken`` cards
    taken; only ``me``'s gazelles in hand are known.

    The playouts ask this three times a move, so it reads the field directly instead of
    laying it out as a grid: the card nearest to a side on a line is the one furthest
    towards that side (south: the highest row of its column), wherever the box lies."""
    # Each line's nearest card to each side: (row or column, value), by column or by row.
    south: dict = {}
    north: dict = {}
    west: dict = {}
    east: dict = {}
    for r, c, card in field:
        value = _LION_VALUE[card]
        got = south.get(c)
        if got is None or r > got[0]:
            south[c] = (r, value)
        got = north.get(c)
        if got is None or r < got[0]:
            north[c] = (r, value)
        got = west.get(r)
        if got is None or c < got[0]:
            west[r] = (c, value)
        got = east.get(r)
        if got is None or c > got[0]:
            east[r] = (c, value)
    nearest = {"S": south, "W": west, "N": north, "E": east}
    losses = []
    for seat, count in enumerate(taken):
        loss = sum(value for _, value in nearest[lion_square.SIDES[seat]].values()) + (count + 1) // 2
        losses.append(loss + my_gazelles if seat == me else loss)
    return losses


_LION_GAZELLES = frozenset(lion_square.GAZELLES)
_LION_VALUE = lion_square.CARD_VALUE


def _lion_margin(losses: list[int], me: int, others_weight: float = 1.0) -> float:
    """The others' mean damage (times ``others_weight``) less ``me``'s own."""
    others = losses[:me] + losses[me + 1:]
    return others_weight * sum(others) / len(others) - losses[me]


def lion_margin_after(state: dict, seat: int, action: dict) -> float:
    """:func:`_lion_margin` right after ``seat`` plays, places or takes with ``action`` on a
    full ``state`` (a playout's: a take is weighed without the placement that follows)."""
    gazelles = sum(card in _LION_GAZELLES for card in state["hands"][seat])
    return _lion_margin_with(state["field"], [len(cards) for cards in state["taken"]], seat, gazelles, action)


def _lion_margin_with(field: list, taken: list[int], seat: int, gazelles: int, action: dict,
                      others_weight: float = 1.0) -> float:
    if action["type"] == "take":
        line, index = (0, action["row"]) if "row" in action else (1, action["column"])
        kept = [entry for entry in field if entry[line] != index]
        taken = taken[:seat] + [taken[seat] + len(field) - len(kept)] + taken[seat + 1:]
        return _lion_margin(_lion_losses(kept, taken, seat, gazelles), seat, others_weight)
    played = [*field, [action["cell"][0], action["cell"][1], action["card"]]]
    return _lion_margin(_lion_losses(played, taken, seat, gazelles - (action["card"] in _LION_GAZELLES)), seat,
                        others_weight)


def _lion_square_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    return lion_square_margins(game, view, actions, rng)


def lion_square_margins(game: Game, view: dict, actions: list[dict], rng: Rng, others_weight: float = 1.0) -> list[float]:
    """Each play, placement or take's margin (the others' mean damage times ``others_weight``
    less its own), a take weighed with its best placement; a pass is worth 0."""
    public, me = view["public"], view["seat"]
    if public["step"] == "pass":
        return [0.0] * len(actions)  # an adjustment changes no score
    field = [[entry["cell"][0], entry["cell"][1], entry["card"]] for entry in public["field"]]
    taken = list(public["taken"])
    hand = view["private"]["hand"]
    gazelles = sum((card in lion_square.GAZELLES) for card in hand)
    sample = None
    worth = []
    for action in actions:
        if action["type"] != "take":
            worth.append(_lion_margin_with(field, taken, me, gazelles, action, others_weight))
            continue
        # A take and the placement that must follow it are one turn: weigh the best placement.
        if sample is None:
            sample = game.unlogged(sample_state(game, view, rng))
        after = game.apply_listed(sample, me, action)
        kept = [list(entry) for entry in after["field"]]
        now_taken = [len(cards) for cards in after["taken"]]
        # Only the cards in hand: a card the sample drew after taking three is not known yet.
        places = [place for place in game.listed_actions(after, me) if place["card"] in hand]
        worth.append(max(_lion_margin_with(kept, now_taken, me, gazelles, place, others_weight) for place in places)
                     if places else _lion_margin(_lion_losses(kept, now_taken, me, gazelles), me, others_weight))
    return worth


# --------------------------------------------------------------------------- Meow Oracle


def meow_points(area: list[str | None]) -> int:
    """The round points of an area's face-up cards (nine card ids or None, row by row) by
    the game's scoring: the run counts from the first card while the cards are face up
    and do not drop; a line scores when its three cards are face up and share a colour."""
    numbers = [None if card is None else meow_oracle.CARD_NUMBER[card] for card in area]
    length = 0
    previous = -1
    for cell in meow_oracle.SNAKE:
        number = numbers[cell]
        if number is None or number < previous:
            break
        previous = number
        length += 1
    points = meow_oracle.RUN_BONUS.get(length, length)
    bits = [0 if card is None else meow_oracle.CARD_COLOUR_BITS[card] for card in area]
    for a, b, c in meow_oracle.LINES:
        if bits[a] & bits[b] & bits[c]:
            points += meow_oracle.POINTS_PER_LINE
    return points


def meow_neighbours(seat: int, players: int) -> set[int]:
    """The seats whose round points ``seat``'s are compared with (RULINGS §2)."""
    return {(seat - 1) % players, (seat + 1) % players} - {seat}


def _meow_margin(areas: list[list], me: int) -> float:
    points = [meow_points(area) for area in areas]
    return points[me] - max(points[seat] for seat in meow_neighbours(me, len(areas)))


def _meow_best_cell(area: list, card: str) -> int:
    """The free cell where ``card`` scores its receiver most (the first of equals)."""
    free = [cell for cell in range(meow_oracle.CELLS) if area[cell] is None]
    return max(free, key=lambda cell: meow_points(area[:cell] + [card] + area[cell + 1:]))


def _meow_oracle_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    public, me = view["public"], view["seat"]
    areas = [[cell["id"] if cell and cell["face"] == "up" else None for row in area for cell in row]
             for area in public["areas"]]
    worth = []
    for action in actions:
        if action["type"] == "reveal":
            worth.append(0.0)  # a blind pick changes no score
            continue
        if action["type"] == "place":
            seat, cell = me, action["cell"][0] * 3 + action["cell"][1]
        else:
            seat = action["to"]
            cell = _meow_best_cell(areas[seat], action["card"])
        after = list(areas)
        after[seat] = areas[seat][:cell] + [action["card"]] + areas[seat][cell + 1:]
        worth.append(_meow_margin(after, me))
    return worth


# --------------------------------------------------------------------------- SWAP 5


def _swap5_margin(game: Game, state: dict, seat: int) -> float:
    if game.is_over(state):
        return _finished(game, state, seat)
    scores = seat_scores(state["board"], state["players"])
    return scores[seat] - max(scores[:seat] + scores[seat + 1:])


def _swap5_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    me = view["seat"]
    state = game.unlogged(sample_state(game, view, rng))
    worth = []
    for action in actions:
        after = game.apply_listed(state, me, action)
        if game.is_over(after):
            worth.append(_finished(game, after, me))
            continue
        other = game.to_act(after)[0]
        # The replies everybody can see: the other's trump cards are secret (and only sampled here).
        replies = [reply for reply in game.listed_actions(after, other) if reply["type"] != "trump"]
        worth.append(swap5_margin_after_reply(game, after, me, replies))
    return worth


def swap5_margin_after_reply(game: Game, after: dict, me: int, replies: list[dict]) -> float:
    """``me``'s SWAP 5 margin after the one of the next player's ``replies`` that leaves that
    player's own margin highest (of equals, the worst for ``me``); with no reply, as it is."""
    other = game.to_act(after)[0]
    best_for_them, mine = -math.inf, math.inf
    for reply in replies:
        answered = game.apply_listed(after, other, reply)
        theirs = _swap5_margin(game, answered, other)
        if theirs > best_for_them or theirs == best_for_them and _swap5_margin(game, answered, me) < mine:
            best_for_them, mine = theirs, _swap5_margin(game, answered, me)
    return mine if replies else _swap5_margin(game, after, me)


_VALUES = {
    "lion-square": _lion_square_values,
    "meow-oracle": _meow_oracle_values,
    "swap5": _swap5_values,
}

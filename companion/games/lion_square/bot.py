"""What a bot knows of Lion Square (see :mod:`companion.games.knowledge`; how it plays: docs/bots.md).

The playout player passes at random and otherwise plays the best of a few random moves by
the greedy player's margin; playouts stop at the end of the round being played
(:meth:`LionSquareKnowledge.cutoff`).

The greedy player (the yardstick): the margin is the damage the round would do if it ended
now (the nearest card of each line running away from a side, half the taken cards rounded
up, and for itself the gazelles in hand: :func:`~.rules.damage`), the others' average minus
its own. A take is weighed together with its best placement, since the two make one turn.
The hand adjustment changes no score: a random legal pass.

The greedy player that thinks ahead: the greedy player's margin, the others' damage weighed
:data:`LION_OTHERS_WEIGHT` times its own (pushing the carnivores onto the others counts for
more than keeping them off itself), and a deliberate pass: the highest card of the colour it
holds most goes to the left.
"""

from __future__ import annotations

from ..base import Game
from ..knowledge import BotKnowledge, shares_of_lead
from ..rng import Rng
from .rules import CARD_VALUE, GAZELLES, SIDES

LION_OTHERS_WEIGHT = 1.5
"""How much more the others' damage weighs than the player's own in Lion Square."""


def _lion_losses(field: list, taken: list[int], me: int, my_gazelles: int) -> list[int]:
    """Each seat's damage (the engine's :func:`~.rules.damage`) were
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
        loss = sum(value for _, value in nearest[SIDES[seat]].values()) + (count + 1) // 2
        losses.append(loss + my_gazelles if seat == me else loss)
    return losses


_LION_GAZELLES = frozenset(GAZELLES)
_LION_VALUE = CARD_VALUE


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


def lion_square_margins(game: Game, view: dict, actions: list[dict], rng: Rng, others_weight: float = 1.0) -> list[float]:
    """Each play, placement or take's margin (the others' mean damage times ``others_weight``
    less its own), a take weighed with its best placement; a pass is worth 0."""
    public, me = view["public"], view["seat"]
    if public["step"] == "pass":
        return [0.0] * len(actions)  # an adjustment changes no score
    field = [[entry["cell"][0], entry["cell"][1], entry["card"]] for entry in public["field"]]
    taken = list(public["taken"])
    hand = view["private"]["hand"]
    gazelles = sum((card in GAZELLES) for card in hand)
    sample = None
    worth = []
    for action in actions:
        if action["type"] != "take":
            worth.append(_lion_margin_with(field, taken, me, gazelles, action, others_weight))
            continue
        # A take and the placement that must follow it are one turn: weigh the best placement.
        if sample is None:
            sample = game.unlogged(game.resample(view, rng))
        after = game.apply_listed(sample, me, action)
        kept = [list(entry) for entry in after["field"]]
        now_taken = [len(cards) for cards in after["taken"]]
        # Only the cards in hand: a card the sample drew after taking three is not known yet.
        places = [place for place in game.listed_actions(after, me) if place["card"] in hand]
        worth.append(max(_lion_margin_with(kept, now_taken, me, gazelles, place, others_weight) for place in places)
                     if places else _lion_margin(_lion_losses(kept, now_taken, me, gazelles), me, others_weight))
    return worth


def lion_pass_values(actions: list[dict]) -> list[float]:
    """A deliberate pass: the highest card (of the colour held most: the engine offers only
    those) is worth most, so that it leaves the hand."""
    return [float(CARD_VALUE[action["card"]]) for action in actions]


LION_CANDIDATES = 3
"""How many random legal moves a Lion Square playout player weighs per turn."""


def _best_of_few(game: Game, state: dict, seat: int, rng: Rng) -> dict:
    """A Lion Square playout player: passes at random (a pass changes no score), and
    otherwise weighs a few random legal moves by the greedy player's margin (the damage
    the round would do if it ended now: the others' average minus its own) and plays
    the best. A take is weighed alone, its placement being the next move."""
    if state["step"] == "pass":
        return game.random_action(state, seat, rng.randbelow)
    candidates = [game.random_action(state, seat, rng.randbelow) for _ in range(LION_CANDIDATES)]
    worth = [lion_margin_after(state, seat, action) for action in candidates]
    return candidates[worth.index(max(worth))]


class LionSquareKnowledge(BotKnowledge):
    policy = staticmethod(_best_of_few)

    @staticmethod
    def cutoff(begun: dict, state: dict) -> list[float] | None:
        """Lion Square's cut-off: once the round a playout began in is over (and the game
        goes on), each seat's share of the lead in herds (ties shared), judged by the
        engine's own damage, which has just been taken. The next round is dealt afresh, so
        playing it out would add mostly noise, at the cost of a round or two more."""
        return None if state["round"] == begun["round"] else shares_of_lead(state["herds"])

    def greedy_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        return lion_square_margins(game, view, actions, rng)

    def ahead_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        if view["public"]["step"] == "pass":
            return lion_pass_values(actions)
        return lion_square_margins(game, view, actions, rng, LION_OTHERS_WEIGHT)


BOT = LionSquareKnowledge()

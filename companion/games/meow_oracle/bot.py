"""What a bot knows of Meow Oracle (see :mod:`companion.games.knowledge`; how it plays: docs/bots.md).

The playout player reveals blindly, places a card where it fits best and keeps the card that
fits it best (:func:`meow_fit`), and playouts stop at the end of the round being played
(:meth:`MeowOracleKnowledge.cutoff`). The root's moves are weighed by expected round points.

The greedy player (the yardstick): the margin is its round points minus the best of its
neighbours', each area scored by the engine's rules over its face-up cards (a run stops at
the first card not yet face up, a line counts once its three cards are up). A card handed to
a player is weighed where that player would put it best for themselves. Reveals are blind
picks and change no score: a random one.

The greedy player that thinks ahead: a placement is worth the round points its area is
*expected* to score: the area's empty cells are completed :data:`MEOW_COMPLETIONS` times
from the cards nobody can see (every card not face up, not revealed and not waiting to be
placed, drawn without replacement, the same draws for every move weighed), each completion
scored by the game's rules and the scores averaged. A hand-out is worth its giver's expected
gain less the gains it hands the seats it feeds: every way of handing the revealed cards to
the seats owed them is weighed, each card where its receiver would place it best, and a
card given is worth the best of the ways that give it so. Reveals are blind: a random one.
"""

from __future__ import annotations

import itertools

from ..base import Game
from ..knowledge import BotKnowledge, shares_of_lead
from ..rng import Rng
from . import rules as meow_oracle

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


def _fitting(game: Game, state: dict, seat: int, rng: Rng) -> dict:
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


# --------------------------------------------------------------------------- the greedy player


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


def _greedy_values(view: dict, actions: list[dict]) -> list[float]:
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


# --------------------------------------------------------------------------- thinking ahead

MEOW_COMPLETIONS = 16
"""How many times a Meow Oracle area's empty cells are completed to weigh a move."""

_NUMBER = meow_oracle.CARD_NUMBER
_BITS = meow_oracle.CARD_COLOUR_BITS
_SNAKE_PAIRS = tuple(zip(meow_oracle.SNAKE, meow_oracle.SNAKE[1:]))


def meow_round_points(area: list[str | None]) -> int:
    """An area's round points (nine card ids, row by row) by the game's scoring
    (:func:`~.rules.score_area`, checked against it in the tests), without building a
    grid: it is asked hundreds of times a move. A cell left empty (None) scores nothing and
    stops the run."""
    first = area[meow_oracle.SNAKE[0]]
    length = 0
    if first is not None:
        length = 1
        for before, cell in _SNAKE_PAIRS:
            card = area[cell]
            if card is None or _NUMBER[card] < _NUMBER[area[before]]:
                break
            length += 1
    points = meow_oracle.RUN_BONUS.get(length, length)
    bits = [0 if card is None else _BITS[card] for card in area]
    for a, b, c in meow_oracle.LINES:
        if bits[a] & bits[b] & bits[c]:
            points += meow_oracle.POINTS_PER_LINE
    return points


class MeowExpectation:
    """Expected round points of Meow Oracle areas, seen from one view: every completion
    draws from the cards that view cannot see, the same draws for every area weighed."""

    def __init__(self, public: dict, rng: Rng, completions: int = MEOW_COMPLETIONS):
        self.areas = [[cell["id"] if cell and cell["face"] == "up" else None for row in area for cell in row]
                      for area in public["areas"]]
        seen = {card for area in self.areas for card in area if card is not None}
        seen.update(card["id"] for card in public["revealed"])
        seen.update(card["id"] for cards in public["to_place"] for card in cards)
        unseen = [card for card in meow_oracle.DECK if card not in seen]
        self.draws = []
        for _ in range(completions):
            rng.shuffle(unseen)
            self.draws.append(tuple(unseen))

    def points(self, area: list[str | None]) -> float:
        """The mean round points of ``area`` (ids or None) over the completions of its empty
        cells (when the unseen cards are fewer than its empty cells, those left empty score
        nothing)."""
        empty = [cell for cell in range(meow_oracle.CELLS) if area[cell] is None]
        if not empty:
            return float(meow_round_points(area))
        total = 0
        filled = list(area)
        for drawn in self.draws:
            for cell, card in zip(empty, drawn):
                filled[cell] = card
            total += meow_round_points(filled)
        return total / len(self.draws)

    def placed(self, seat: int, card: str, cell: int) -> float:
        """:meth:`points` of ``seat``'s area with ``card`` face up on ``cell``."""
        area = self.areas[seat]
        return self.points(area[:cell] + [card] + area[cell + 1:])

    def gain(self, seat: int, card: str) -> float:
        """What ``card`` adds to ``seat``'s expected points, placed where it adds most."""
        area = self.areas[seat]
        return max(self.placed(seat, card, cell) for cell in range(meow_oracle.CELLS) if area[cell] is None) \
            - self.points(area)


def meow_expected_values(view: dict, actions: list[dict], rng: Rng, completions: int = MEOW_COMPLETIONS) -> list[float]:
    """Each Meow Oracle action's worth by expected round points (see the module's
    description) from the bare ``view``: a placement its area's expected points, a hand-out
    the best giver's gain less the gains handed out that gives the card so; a reveal 0."""
    public, me = view["public"], view["seat"]
    kinds = {action["type"] for action in actions}
    if kinds == {"reveal"}:
        return [0.0] * len(actions)
    expected = MeowExpectation(public, rng, completions)
    if kinds == {"place"}:
        return [expected.placed(me, action["card"], action["cell"][0] * 3 + action["cell"][1]) for action in actions]
    # Handing out: weigh every way of giving the revealed cards to the seats owed them.
    cards = [card["id"] for card in public["revealed"]]
    owed = [seat for seat, count in enumerate(public["owed"]) for _ in range(count)]
    gains = {(card, seat): expected.gain(seat, card) for card in cards for seat in set(owed)}
    best: dict[tuple[str, int], float] = {}
    for receivers in set(itertools.permutations(owed, len(cards))):
        worth = sum(gains[card, seat] if seat == me else -gains[card, seat] for card, seat in zip(cards, receivers))
        for given in zip(cards, receivers):
            best[given] = max(best.get(given, worth), worth)
    return [best.get((action["card"], action["to"]), float("-inf")) for action in actions]


MEOW_ROOT_COMPLETIONS = 64
"""How many completions of each area weigh the Meow Oracle root's moves: four times the
yardstick's 16, for a few milliseconds of the budget (the moves' values are less noisy)."""


ROOT_MARGIN = 0.5
"""Where the root's values judge better than the playouts: the search weighs only the moves
worth at most half a round point less than the best (with only the best three moves weighed,
the bot still lost to the greedy player that thinks ahead as often as with every move,
docs/bots.md)."""


class MeowOracleKnowledge(BotKnowledge):
    root_margin = ROOT_MARGIN
    policy = staticmethod(_fitting)

    @staticmethod
    def cutoff(begun: dict, state: dict) -> list[float] | None:
        """Meow Oracle's cut-off: once the round a playout began in is over, each seat's share
        of the lead in wins (ties shared). The next round is dealt afresh, so playing it out
        at random would add only noise, at the cost of a second round."""
        return None if state["round"] == begun["round"] else shares_of_lead(state["wins"])

    def greedy_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        return _greedy_values(view, actions)

    def ahead_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        return meow_expected_values(view, actions, rng)

    def root_values(self, game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
        return meow_expected_values(view, actions, rng, MEOW_ROOT_COMPLETIONS)


BOT = MeowOracleKnowledge()

"""Greedy players that think ahead: the stronger yardsticks of ``companion arena`` (``ahead``).

Like the greedy player (:mod:`.greedy`) each plays one move deep from its own seat's view
alone, as a phone sees the game, but each weighs what is still to come:

* **Meow Oracle**: a placement is worth the round points its area is *expected* to score:
  the area's empty cells are completed :data:`MEOW_COMPLETIONS` times from the cards nobody
  can see (every card not face up, not revealed and not waiting to be placed, drawn without
  replacement, the same draws for every move weighed), each completion scored by the
  game's rules and the scores averaged. A hand-out is worth its giver's expected gain less
  the gains it hands the seats it feeds: every way of handing the revealed cards to the
  seats owed them is weighed, each card where its receiver would place it best, and a card
  given is worth the best of the ways that give it so. Reveals are blind: a random one.
* **Lion Square**: the greedy player's margin, the others' damage weighed
  :data:`LION_OTHERS_WEIGHT` times its own (pushing the carnivores onto the others counts
  for more than keeping them off itself), and a deliberate pass: the highest card of the
  colour it holds most goes to the left.
* **SWAP 5**: the greedy player, except that its last trump card is weighed at the worst hand
  the other may hold (its trump cards too, not only the replies it can see), so it never
  walks into the trap of a card the other holds (docs/bots.md, "Against a more careful
  player").

They are yardsticks, not levels: nobody can seat them at the table.
"""

from __future__ import annotations

import itertools

from ..games import Game
from ..games import lion_square, meow_oracle
from ..games.rng import Rng
from ..games.swap5 import TRUMP_CARDS
from .greedy import best_action, greedy_values, lion_square_margins, swap5_margin_after_reply
from .sampling import bare_view, sample_state

MEOW_COMPLETIONS = 16
"""How many times a Meow Oracle area's empty cells are completed to weigh a move."""

LION_OTHERS_WEIGHT = 1.5
"""How much more the others' damage weighs than the player's own in Lion Square."""


def ahead_action(game: Game, view: dict, rng: Rng) -> dict:
    """The choice among ``view["actions"]`` of the greedy player that thinks ahead (the seat's
    view with its actions, as :func:`companion.bots.choose` takes it)."""
    return best_action(view["actions"], lambda actions: ahead_values(game, bare_view(view), actions, rng), rng)


def ahead_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """Its value of each of ``actions`` from the bare ``view`` (higher is better)."""
    return _VALUES[game.id](game, view, actions, rng)


# --------------------------------------------------------------------------- Meow Oracle

_NUMBER = meow_oracle.CARD_NUMBER
_BITS = meow_oracle.CARD_COLOUR_BITS
_SNAKE_PAIRS = tuple(zip(meow_oracle.SNAKE, meow_oracle.SNAKE[1:]))


def meow_round_points(area: list[str | None]) -> int:
    """An area's round points (nine card ids, row by row) by the game's scoring
    (:func:`meow_oracle.score_area`, checked against it in the tests), without building a
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


def _meow_oracle_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    return meow_expected_values(view, actions, rng)


# --------------------------------------------------------------------------- Lion Square


def lion_pass_values(actions: list[dict]) -> list[float]:
    """A deliberate pass: the highest card (of the colour held most: the engine offers only
    those) is worth most, so that it leaves the hand."""
    return [float(lion_square.CARD_VALUE[action["card"]]) for action in actions]


def _lion_square_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    if view["public"]["step"] == "pass":
        return lion_pass_values(actions)
    return lion_square_margins(game, view, actions, rng, LION_OTHERS_WEIGHT)


# --------------------------------------------------------------------------- SWAP 5


def _margin_after_any_reply(game: Game, after: dict, me: int) -> float:
    """The greedy player's margin after the other's best reply, its trump cards included."""
    return swap5_margin_after_reply(game, after, me, game.listed_actions(after, game.to_act(after)[0]))


def careful_values(game: Game, view: dict, actions: list[dict], rng: Rng) -> list[float]:
    """The greedy player's SWAP 5 values, its last trump card weighed at the worst hand the
    other may hold (two players)."""
    worth = greedy_values(game, view, actions, rng)
    me, hand = view["seat"], view["private"]["hand"]
    if len(hand) != 1 or view["players"] != 2:
        return worth
    state = game.unlogged(sample_state(game, view, rng))
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


_VALUES = {
    "lion-square": _lion_square_values,
    "meow-oracle": _meow_oracle_values,
    "swap5": careful_values,
}

"""The bots never see more than their seat: sampled states agree with the view and with
nothing else.

Seeded random games visit many positions of every full game and player count. At each,
for each seat that may act, states are sampled from that seat's view and

* the seat's view of every sample equals the view it was given (public and private parts,
  log included), and so do its legal actions and the components in play;
* over all samples, the hidden cards land where they truly are no more often than chance:
  for every hidden place (another seat's hand, a face-down cell, a pile), the overlap of the
  sampled cards with the true ones averages |place| * |place| / |unseen cards|, as for a
  uniform deal. A sampler that peeked would overlap far more. The cards a Lion Square seat
  passed this round are left out of that count: the seat knows where they went;
* those passed cards are never sampled into the Square pile, and the latest one, until the
  round's first card is down, is in the left neighbour's hand.
"""

import random

import pytest

from companion import games
from companion.bots.sampling import NoBot, sample_state
from companion.games.rng import Rng

CASES = [("swap5", 2), ("swap5", 4), ("lion-square", 3), ("lion-square", 4), ("meow-oracle", 2),
         ("meow-oracle", 3), ("meow-oracle", 4)]


def positions(game, players, count, seed):
    """``(state, seat)`` pairs from seeded random games: ``count`` positions, every seat to act."""
    chooser = random.Random(seed)
    found = []
    game_seed = seed
    while len(found) < count:
        state = game.setup(players, game_seed)
        game_seed += 1
        while not game.is_over(state) and len(found) < count:
            if chooser.random() < 0.3:
                found.extend((state, seat) for seat in game.to_act(state))
            seat = chooser.choice(game.to_act(state))
            state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    return found


def hidden_places(game, state, seat):
    """The card groups ``seat`` cannot see, each a list of card ids: the engine's own
    declaration of its hidden places (Game.hidden), read from ``state``."""
    found = []
    for group in game.hidden(state, seat):
        if group.cards is None:
            continue  # a secret that is no component (a herd, a record): no card to guess
        for place in group.places:
            held = state
            for key in place.path:
                held = held[key]
            found.append(held if isinstance(held, list) else [held])
    return found


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_samples_agree_with_the_view_and_guess_hidden_cards_no_better_than_chance(game_id, players):
    game = games.get(game_id)
    rng = Rng.from_seed(7)
    overlap = expected = 0.0
    for state, seat in positions(game, players, 60, seed=players):
        view = game.view(state, seat)
        known = set(view["private"]["passed"]) if game_id == "lion-square" else set()
        truth = hidden_places(game, state, seat)
        unseen = sum(len(set(cards) - known) for cards in truth)
        for _ in range(5):
            sample = sample_state(game, view, rng)
            assert game.view(sample, seat) == view
            assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
            assert game.components(sample) == game.components(state)
            if known:
                _assert_passes_placed_honestly(state, sample, seat, view)
            for guessed, true in zip(hidden_places(game, sample, seat), truth, strict=True):
                assert len(guessed) == len(true)
                guessed, true = set(guessed) - known, set(true) - known
                overlap += len(guessed & true)
                expected += len(guessed) * len(true) / unseen if unseen else 0
    assert expected > 50, "too few hidden cards to judge"
    assert 0.85 < overlap / expected < 1.15


def _assert_passes_placed_honestly(state, sample, seat, view):
    passed = view["private"]["passed"]
    assert not set(passed) & set(sample["pile"]), "a card this seat passed was sampled into the Square pile"
    latest = passed[-1]
    left = (seat + 1) % state["players"]
    if state["step"] in ("pass", "start") and latest in state["hands"][left]:
        assert latest in sample["hands"][left] or latest == sample["passes"][left]


def test_lion_square_samples_put_the_last_card_passed_with_the_left_neighbour():
    game = games.get("lion-square")
    state = game.setup(3, 4)
    for _ in range(3):  # one hand adjustment, every seat passing its first choice
        for seat in range(3):
            state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    view = game.view(state, 0)
    assert len(view["private"]["passed"]) == 3 and len(view["private"]["received"]) == 3
    rng = Rng.from_seed(3)
    for _ in range(20):
        sample = sample_state(game, view, rng)
        assert view["private"]["passed"][-1] in sample["hands"][1]
        assert game.view(sample, 0) == view


def test_a_view_from_another_version_of_the_game_is_refused_plainly():
    game = games.get("swap5")
    state = game.setup(2, 1)
    view = game.view(state, 0)
    view["public"]["trumps_out_of_game"] += 1  # one card more hidden than there are cards
    with pytest.raises(NoBot, match="does not add up"):
        sample_state(game, view, Rng.from_seed(1))


def test_trackers_have_no_sampler():
    game = games.get("pig-house")
    state = game.setup(2, 1)
    with pytest.raises(NoBot, match="has no bot"):
        sample_state(game, game.view(state, 0), Rng.from_seed(1))

"""The yardsticks that think ahead (companion/bots/ahead.py, the arena's ``ahead``, each game's
``ahead_values`` in its home): legal
moves from their own seat's view only, the same choice for the same seed, the knowledge
each is meant to have, and stronger than random play."""

import json

import pytest

from companion import games
from companion.bots.ahead import ahead_action, ahead_values
from companion.bots.arena import arena
from companion.bots.greedy import greedy_values
from companion.bots.sampling import bare_view
from companion.games.lion_square.bot import lion_pass_values, lion_square_margins
from companion.games.meow_oracle import rules as meow_oracle
from companion.games.meow_oracle.bot import MeowExpectation, meow_expected_values, meow_points, meow_round_points
from companion.games.swap5.bot import BOT as SWAP5
from companion.games.rng import Rng


def seat_view(game, state, seat):
    return game.view(state, seat) | {"actions": game.legal_actions(state, seat)}


@pytest.mark.parametrize(("game_id", "players"), [("swap5", 2), ("swap5", 4), ("lion-square", 3),
                                                  ("lion-square", 4), ("meow-oracle", 2), ("meow-oracle", 3)])
def test_it_plays_legal_moves_from_its_seats_view_only(game_id, players):
    """It is handed what a phone gets (a JSON copy: nothing of the state can ride along)
    and nothing else; with one seed it chooses alike."""
    game = games.get(game_id)
    state = game.setup(players, 4)
    for _ in range(80):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        view = json.loads(json.dumps(seat_view(game, state, seat)))
        action = ahead_action(game, view, Rng.from_seed(state["version"]))
        assert action in view["actions"]
        assert ahead_action(game, json.loads(json.dumps(view)), Rng.from_seed(state["version"])) == action
        state = game.apply(state, seat, action)


def test_meow_round_points_are_the_engines_scoring():
    """Every full area scored as the engine's score_area does; a partial one as the greedy
    player's face-up scoring (an empty cell stops the run, a line needs its three cards)."""
    rng = Rng.from_seed(3)
    deck = list(meow_oracle.DECK)
    for _ in range(2000):
        rng.shuffle(deck)
        area = deck[:9]
        grid = [[meow_oracle.CARD[area[row * 3 + column]] for column in range(3)] for row in range(3)]
        assert meow_round_points(area) == meow_oracle.score_area(grid)["total"]
        partial = [None if rng.randbelow(3) == 0 else card for card in area]
        assert meow_round_points(partial) == meow_points(partial)


def _meow_view_at(step, seed=5, players=3):
    game = games.get("meow-oracle")
    state = game.setup(players, seed)
    rng = Rng.from_seed(seed)
    while True:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if state["step"] == step and state["turns"][seat] >= 2:
            return bare_view(seat_view(game, state, seat)), actions
        state = game.apply(state, seat, actions[rng.randbelow(len(actions))])


def test_meow_completions_draw_only_the_cards_nobody_can_see():
    view, _ = _meow_view_at("place")
    public = view["public"]
    expected = MeowExpectation(public, Rng.from_seed(1))
    seen = {card for area in expected.areas for card in area if card}
    seen |= {card["id"] for card in public["revealed"]} | {card["id"] for cards in public["to_place"] for card in cards}
    assert len(expected.draws) == 16
    for drawn in expected.draws:
        assert sorted(drawn) == sorted(set(meow_oracle.DECK) - seen)
    full = list(meow_oracle.DECK[:9])
    assert expected.points(full) == meow_round_points(full)  # nothing left to complete


def test_meow_placements_are_worth_their_areas_expected_points():
    view, actions = _meow_view_at("place")
    worth = meow_expected_values(view, actions, Rng.from_seed(2))
    expected = MeowExpectation(view["public"], Rng.from_seed(2))
    me = view["seat"]
    for action, value in zip(actions, worth):
        cell = action["cell"][0] * 3 + action["cell"][1]
        area = list(expected.areas[me])
        area[cell] = action["card"]
        assert value == pytest.approx(expected.points(area))


def test_meow_hand_outs_weigh_the_givers_gain_against_what_it_gives():
    """A card handed out is worth the best way of handing out every revealed card that gives
    it so: the giver's expected gain less the gains of the seats it feeds."""
    view, actions = _meow_view_at("give")
    me, public = view["seat"], view["public"]
    worth = meow_expected_values(view, actions, Rng.from_seed(8))
    expected = MeowExpectation(public, Rng.from_seed(8))
    cards = [card["id"] for card in public["revealed"]]
    owed = [seat for seat, count in enumerate(public["owed"]) for _ in range(count)]
    assert len(cards) == 3 and sorted(owed) == [0, 1, 2]
    for action, value in zip(actions, worth):
        others = [card for card in cards if card != action["card"]]
        rest = [seat for seat in owed if seat != action["to"]]
        ways = [[(action["card"], action["to"]), (others[0], rest[0]), (others[1], rest[1])],
                [(action["card"], action["to"]), (others[0], rest[1]), (others[1], rest[0])]]
        best = max(sum(expected.gain(seat, card) * (1 if seat == me else -1) for card, seat in way) for way in ways)
        assert value == pytest.approx(best)


def test_lion_square_weighs_the_others_damage_half_as_much_again_and_passes_its_highest_card():
    game = games.get("lion-square")
    state = game.setup(3, 6)
    seat = game.to_act(state)[0]
    view = bare_view(seat_view(game, state, seat))
    passes = game.legal_actions(state, seat)
    assert state["step"] == "pass" and len(passes) > 1
    action = ahead_action(game, seat_view(game, state, seat), Rng.from_seed(1))
    assert lion_pass_values(passes) == [float(pass_["card"].split("-")[1]) for pass_ in passes]
    assert int(action["card"].split("-")[1]) == max(int(pass_["card"].split("-")[1]) for pass_ in passes)
    rng = Rng.from_seed(2)
    weighed = 0
    while not game.is_over(state) and weighed < 30:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if state["step"] != "pass":
            view = bare_view(seat_view(game, state, seat))
            plain = lion_square_margins(game, view, actions, Rng.from_seed(9))
            assert plain == greedy_values(game, view, actions, Rng.from_seed(9))
            mine = lion_square_margins(game, view, actions, Rng.from_seed(9), others_weight=0.0)
            weighted = ahead_values(game, view, actions, Rng.from_seed(9))
            for action, value, margin, own in zip(actions, weighted, plain, mine):
                if action["type"] != "take":  # a take is worth its best placement's: no sum of maxima
                    assert value == pytest.approx(own + 1.5 * (margin - own))
            weighed += 1
        state = game.apply(state, seat, actions[rng.randbelow(len(actions))])
    assert weighed == 30


def test_swap5s_careful_player_is_the_greedy_one_until_its_last_trump_card():
    game = games.get("swap5")
    state = game.setup(2, 3)
    seat = game.to_act(state)[0]
    view = bare_view(seat_view(game, state, seat))
    actions = game.legal_actions(state, seat)
    assert len(view["private"]["hand"]) > 1
    assert SWAP5.ahead_values(game, view, actions, Rng.from_seed(4)) == greedy_values(game, view, actions, Rng.from_seed(4))


@pytest.mark.parametrize(("game_id", "seats", "games_played"), [("meow-oracle", ["ahead", "random", "random"], 6),
                                                                ("lion-square", ["ahead", "random", "random"], 24),
                                                                ("swap5", ["ahead", "random"], 4)])
def test_it_beats_random_players(game_id, seats, games_played):
    """Fixed seeds and no clock: the same games every run. (Lion Square's lions win many of
    these games: pushing carnivores onto random players brings every herd down, its own too.)"""
    result = arena(games.get(game_id), seats, games_played, seed=1)
    assert result.wins[0] > max(result.wins[1:])
    assert result == arena(games.get(game_id), seats, games_played, seed=1)

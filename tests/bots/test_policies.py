"""The games' knowledge for the search (companion/games/<game>/bot.py, asked through
companion/bots/policies.py) and the progressive
unpruning of the tree: trump cards valued as a player would, games that end."""

import json

import pytest

from companion import games
from companion.bots import choose
from companion.bots import policies
from companion.bots.budget import Budget
from companion.bots.ismcts import playout, search, widening
from companion.bots.policies import policy
from companion.games.lion_square.bot import BOT as LION_SQUARE
from companion.games.meow_oracle.bot import BOT as MEOW_ORACLE, MEOW_ROOT_COMPLETIONS, meow_fit
from companion.games.swap5.bot import PATIENCE as SWAP5_PATIENCE, TRUMP_WHILE_AHEAD, move_values as swap5_values

lion_round_over = LION_SQUARE.cutoff
meow_round_over = MEOW_ORACLE.cutoff
from companion.games.rng import Rng

# Seat 0 (red + yellow) has a run of three reds in row 1, one point; seat 1 (green + blue) none.
RED_AHEAD = "RRRGG/BYBGY/.YB.R/GBY.G/RYB.."
KEEPS_ROW_1 = {"type": "trump", "card": "row-4-5"}
QUIET = {"type": "move", "from": "A5", "to": "A3"}  # red A5 up: no run made or broken, for anyone


def red_ahead(players=2):
    game = games.get("swap5")
    state = game.setup(players, 1, {"layout": "typed", "typed_layout": RED_AHEAD})
    scores = game.view(state, 0)["public"]["scores"]
    assert scores["0"] == 1 and all(scores[str(seat)] == 0 for seat in range(1, players))
    return game, state


def test_a_trump_card_is_worth_more_to_a_player_it_leaves_ahead():
    game, state = red_ahead()
    quiet, trump = swap5_values(state, 0, [QUIET, KEEPS_ROW_1])
    assert quiet == 1 and trump == 1 + TRUMP_WHILE_AHEAD


def test_a_trump_card_is_worth_less_to_a_player_it_leaves_level_or_behind():
    game, state = red_ahead()
    assert swap5_values(state, 1, [KEEPS_ROW_1]) == [-1 - TRUMP_WHILE_AHEAD]


def test_the_tree_widens_with_visits_where_the_game_has_move_values():
    assert [widening(visits) for visits in (0, 1, 3, 4, 9, 15, 25)] == [1, 2, 2, 3, 4, 4, 6]
    game = games.get("swap5")
    state = game.setup(2, 3)
    edges = search(game, game.view(state, 0), Rng.from_seed(1), Budget.iterations(15))
    assert len(edges) == widening(15) and sum(edge.visits for edge in edges) == 15
    meow = games.get("meow-oracle")  # no move values: every iteration tries a new move while there is one
    state = meow.setup(3, 3)
    seat = meow.to_act(state)[0]
    edges = search(meow, meow.view(state, seat), Rng.from_seed(1), Budget.iterations(3))
    assert len(meow.legal_actions(state, seat)) > 3 and len(edges) == 3


@pytest.mark.parametrize("seed", [1, 2])
def test_two_normal_swap5_bots_end_their_game(seed):
    """Bots valuing points alone never played a trump card and swapped runs on and off for
    hundreds of moves (400 without an end with these seeds); now the game ends."""
    game = games.get("swap5")
    state = game.setup(2, seed)
    rng = Rng.from_seed(seed)
    moves = 0
    while not game.is_over(state) and moves < 300:
        seat = game.to_act(state)[0]
        view = game.view(state, seat) | {"actions": game.legal_actions(state, seat)}
        state = game.apply(state, seat, choose(game, view, budget=Budget.iterations(5), seed=rng.next64() >> 1))
        moves += 1
    assert game.is_over(state), f"still playing after {moves} moves"


@pytest.mark.parametrize("game_id, players", [("swap5", 2), ("swap5", 4), ("lion-square", 3), ("lion-square", 4),
                                              ("meow-oracle", 2), ("meow-oracle", 3)])
def test_every_playout_move_is_one_the_seat_may_take(game_id, players):
    """The search applies playout moves without checking them (apply_listed): each must be
    one of the mover's listed actions, trump cards included."""
    game = games.get(game_id)
    choose_move, rng = policy(game), Rng.from_seed(5)
    for seed in range(3):
        state = game.setup(players, seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = choose_move(game, state, seat, rng)
            assert action in game.legal_actions(state, seat)
            state = game.apply(state, seat, action)


def test_after_its_patience_a_swap5_bot_plays_its_trump_cards_so_every_game_ends():
    """Behind, with every threat undone at once, a bot once made threats for thousands of
    moves; after SWAP5_PATIENCE moves it plays its cards, so a game with a bot ends at most
    a lap after its second card (and one it has no card left for has already ended). Four
    players: with two, normal and strong read the game instead (test_swap5_search.py)."""
    game, state = red_ahead(4)
    state = dict(state, turn=1)  # a seat behind is to move
    view = game.view(state, 1) | {"actions": game.legal_actions(state, 1)}
    assert choose(game, view, budget=Budget.iterations(10), seed=1)["type"] != "trump"  # behind: it keeps its cards
    late = dict(view, version=SWAP5_PATIENCE)
    assert choose(game, late, budget=Budget.iterations(10), seed=1)["type"] == "trump"
    state = dict(state, version=SWAP5_PATIENCE)
    rng = Rng.from_seed(3)
    for moves in range(2 * 4 + 3):  # two turns of every seat, then the others' last lap
        seat = game.to_act(state)[0]
        view = game.view(state, seat) | {"actions": game.legal_actions(state, seat)}
        state = game.apply(state, seat, choose(game, view, budget=Budget.iterations(5), seed=rng.next64() >> 1))
        if game.is_over(state):
            break
    assert game.is_over(state)


def test_meow_oracle_playouts_stop_at_the_end_of_their_round_and_share_the_lead_in_wins():
    meow = games.get("meow-oracle")
    begun = meow.setup(3, 2)
    assert meow_round_over(begun, begun) is None
    assert meow_round_over(begun, dict(begun, round=2, wins=[2, 2, 0])) == [0.5, 0.5, 0.0]


def test_lion_square_playouts_stop_at_the_end_of_their_round_and_share_the_lead_in_herds():
    lion = games.get("lion-square")
    begun = lion.setup(3, 2)
    assert lion_round_over(begun, begun) is None
    assert lion_round_over(begun, dict(begun, round=2, herds=[12, 15, 15])) == [0.0, 0.5, 0.5]
    assert lion_round_over(begun, dict(begun, round=3, herds=[9, 4, 2])) == [1.0, 0.0, 0.0]


def test_a_lion_square_playout_ends_with_its_round_and_is_judged_by_the_damage_taken():
    """From a round-1 position a playout never plays round 2: it returns the lead in herds
    right after the engine takes the round's damage."""
    lion = games.get("lion-square")
    state = lion.unlogged(lion.setup(3, 7))
    ended = []
    real_cutoff = LION_SQUARE.cutoff

    def watching(begun, now):
        shares = real_cutoff(begun, now)
        if shares is not None:
            ended.append(now)
        return shares

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LION_SQUARE, "cutoff", watching)
        shares = playout(lion, state, Rng.from_seed(3))
    assert len(ended) == 1 and ended[0]["round"] == 2 and ended[0]["step"] == "pass"
    herds = ended[0]["herds"]
    assert shares == lion_round_over(state, ended[0]) and sum(shares) == 1.0 and max(herds) < 20


def test_a_meow_oracle_card_fits_where_its_number_and_colour_belong():
    """Low numbers early on the snake, high ones late; a colour shared with its line."""
    empty = [None] * 9
    assert meow_fit(empty, "red-0", 0) > meow_fit(empty, "red-0", 8)
    assert meow_fit(empty, "red-10", 8) > meow_fit(empty, "red-10", 0)
    reds = ["red-1", "red-2"] + [None] * 7
    assert meow_fit(reds, "red-2", 2) > meow_fit(reds, "blue-2", 2)


def test_the_roots_values_are_the_greedy_players_where_it_sees_and_expected_points_in_meow_oracle():
    from companion.bots.greedy import greedy_values
    from companion.games.meow_oracle.bot import meow_expected_values
    from companion.bots.sampling import bare_view

    for game_id, players in (("meow-oracle", 3), ("lion-square", 3), ("swap5", 4)):
        game = games.get(game_id)
        state = game.setup(players, 2)
        rng = Rng.from_seed(players)
        while game_id == "meow-oracle" and state["step"] != "give":
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            state = game.apply(state, seat, actions[rng.randbelow(len(actions))])
        seat = game.to_act(state)[0]
        view, actions = bare_view(game.view(state, seat)), game.legal_actions(state, seat)
        if game_id == "meow-oracle":
            expected = meow_expected_values(view, actions, Rng.from_seed(3), MEOW_ROOT_COMPLETIONS)
        else:
            expected = greedy_values(game, view, actions, Rng.from_seed(3))
        assert policies.root_values(game, view, actions, Rng.from_seed(3)) == expected


def test_meow_oracles_search_chooses_only_among_the_moves_nearly_as_good_by_expected_points(monkeypatch):
    """The root's values pick the moves within the game's root_margin of the best; the search
    chooses among those, and a move alone there is played without a search."""
    import companion.bots as bots

    game = games.get("meow-oracle")
    state = game.setup(3, 5)
    rng = Rng.from_seed(5)
    while state["step"] != "place":
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        state = game.apply(state, seat, actions[rng.randbelow(len(actions))])
    seat = game.to_act(state)[0]
    view = game.view(state, seat) | {"actions": game.legal_actions(state, seat)}
    assert len(view["actions"]) > 3
    best, close = view["actions"][-1], view["actions"][-2]  # listed last: only their values put them first
    near = 1.0 - MEOW_ORACLE.root_margin
    worth = lambda g, v, actions, rng: [1.0 if a == best else near if a == close else near - 0.01 for a in actions]
    monkeypatch.setattr(bots, "root_values", worth)
    assert {json.dumps(choose(game, view, budget=Budget.iterations(30), seed=seed)) for seed in range(6)} <= {json.dumps(best),
                                                                                               json.dumps(close)}

    def no_search(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr(bots, "root_values", lambda g, v, actions, rng: [1.0 if a == best else 0.0 for a in actions])
    monkeypatch.setattr(bots, "search", no_search)
    assert choose(game, view, budget=Budget.iterations(30), seed=1) == best

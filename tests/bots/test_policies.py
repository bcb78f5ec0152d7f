"""SWAP 5 knowledge for the search (companion/bots/policies.py) and the progressive
unpruning of the tree: trump cards valued as a player would, games that end, and strong's
look at how the game ends."""

import pytest

from companion import games
from companion.bots import choose
from companion.bots.ismcts import search, widening
from companion.bots.policies import GAME_WON, TRUMP_WHILE_AHEAD, policy, swap5_values, values
from companion.games.rng import Rng
from companion.games.swap5 import TRUMP_CARDS

# Seat 0 (red + yellow) has a run of three reds in row 1, one point; seat 1 (green + blue) none.
RED_AHEAD = "RRRGG/BYBGY/.YB.R/GBY.G/RYB.."
KEEPS_ROW_1 = {"type": "trump", "card": "row-4-5"}
QUIET = {"type": "move", "from": "A5", "to": "A3"}  # red A5 up: no run made or broken, for anyone


def red_ahead():
    game = games.get("swap5")
    state = game.setup(2, 1, {"layout": "typed", "typed_layout": RED_AHEAD})
    assert game.view(state, 0)["public"]["scores"] == {"0": 1, "1": 0}
    return game, state


def holding_one_card_each(layout: str) -> tuple:
    """SWAP 5 from ``layout``, seat 0 to move holding only row-4-5 (row-1-2 played), seat 1
    row-2-3 and col-B-C (neither of which helps it below), the other six cards out of the game."""
    game = games.get("swap5")
    state = game.setup(2, 1, {"layout": "typed", "typed_layout": layout})
    held = {"0": [KEEPS_ROW_1["card"]], "1": ["col-B-C", "row-2-3"]}
    played = [{"seat": 0, "card": "row-1-2"}]
    out = sorted(set(TRUMP_CARDS) - {card for hand in held.values() for card in hand} - {"row-1-2"})
    return game, state | {"hands": held, "played": played, "out": out}


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
    edges = search(game, game.view(state, 0), Rng.from_seed(1), iterations=15, deadline=None)
    assert len(edges) == widening(15) and sum(edge.visits for edge in edges) == 15
    meow = games.get("meow-oracle")  # no move values: every iteration tries a new move while there is one
    state = meow.setup(3, 3)
    seat = meow.to_act(state)[0]
    edges = search(meow, meow.view(state, seat), Rng.from_seed(1), iterations=3, deadline=None)
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
        state = game.apply(state, seat, choose(game, view, iterations=5, seed=rng.next64() >> 1))
        moves += 1
    assert game.is_over(state), f"still playing after {moves} moves"


@pytest.mark.parametrize("game_id, players", [("swap5", 2), ("swap5", 4), ("lion-square", 3), ("meow-oracle", 3)])
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


def test_strong_values_the_last_trump_card_by_the_other_players_last_answer():
    """Red's one point (row 1) stays through row-4-5, so a one-move view likes the card; but
    it is seat 0's last, and seat 1 levels the points in its last turn (D1 with C1 breaks
    row 1, for one), and the tie goes against the player who ended the game. Worth a loss
    to strong. From a layout where row-4-5 also makes a yellow run, no one move of seat 1
    breaks both runs: worth a win."""
    game, state = holding_one_card_each(RED_AHEAD)
    assert swap5_values(state, 0, [KEEPS_ROW_1]) == [1 + TRUMP_WHILE_AHEAD]
    assert values(game, lookahead=True)(state, 0, [KEEPS_ROW_1, QUIET]) == [-GAME_WON, 1]
    game, state = holding_one_card_each("RRRGG/BYBGB/.YY.R/GBY.G/RYB..")
    assert game.view(game.apply(state, 0, KEEPS_ROW_1), 0)["public"]["scores"] == {"0": 2, "1": 0}
    assert values(game, lookahead=True)(state, 0, [KEEPS_ROW_1]) == [GAME_WON]


def test_strong_is_deterministic_and_sees_the_view_only():
    """Two deals that differ only in cards seat 0 cannot see give seat 0 the same view, and
    strong then plays the same move: it has nothing else to go by."""
    game, state = holding_one_card_each(RED_AHEAD)
    other = state | {"hands": {"0": state["hands"]["0"], "1": ["col-A-B", "col-E-A"]},
                     "out": sorted(set(state["out"]) - {"col-A-B", "col-E-A"} | {"col-B-C", "row-2-3"})}
    views = [game.view(deal, 0) | {"actions": game.legal_actions(deal, 0)} for deal in (state, other)]
    assert views[0] == views[1]
    chosen = [choose(game, view, iterations=30, seed=4, level="strong") for view in views * 2]
    assert chosen == [chosen[0]] * 4

"""The greedy yardstick (companion/bots/greedy.py): legal moves from its own seat's view,
the move its own score margin prefers, and a seeded arena that plays the same games."""

import json

import pytest

from companion import games
from companion.bots.arena import arena
from companion.bots.greedy import greedy_action
from companion.games.lion_square import rules as lion_square
from companion.games.lion_square.bot import lion_margin_after
from companion.games.meow_oracle import rules as meow_oracle
from companion.games.meow_oracle.bot import meow_points
from companion.games.rng import Rng


def seat_view(game, state, seat):
    return game.view(state, seat) | {"actions": game.legal_actions(state, seat)}


@pytest.mark.parametrize(("game_id", "players"), [("swap5", 2), ("swap5", 4), ("lion-square", 3),
                                                  ("lion-square", 4), ("meow-oracle", 2), ("meow-oracle", 3)])
def test_greedy_plays_legal_moves_from_its_seats_view_only(game_id, players):
    """It is handed what a phone gets and nothing else; with one seed it chooses alike."""
    game = games.get(game_id)
    state = game.setup(players, 4)
    for _ in range(60):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        view = seat_view(game, state, seat)
        action = greedy_action(game, view, Rng.from_seed(state["version"]))
        assert action in view["actions"]
        assert greedy_action(game, json.loads(json.dumps(view)), Rng.from_seed(state["version"])) == action
        state = game.apply(state, seat, action)


def _public_damage(field, side, taken, gazelles):
    """The engine's checked damage of a field of ``[row, column, card]`` entries, laid out as
    its documentation asks: 3 × 3 seen from the south, the box in the top-left corner."""
    grid = [[None] * 3 for _ in range(3)]
    if field:
        top, left = min(r for r, _, _ in field), min(c for _, c, _ in field)
        for r, c, card in field:
            kind, number = card.split("-")
            grid[r - top][c - left] = {"gazelle": True} if kind == "gazelle" else {"color": kind, "n": int(number)}
    return lion_square.damage(grid, side, taken, gazelles)


@pytest.mark.parametrize("players", [3, 4])
def test_the_lion_square_margin_is_the_engines_damage(players):
    """The margin the greedy player and the playouts weigh (it reads the field without laying
    out a grid) is the engine's own damage, after every listed move of random games (plays,
    placements, takes of every line, gazelles): the others' mean less one's own."""
    game = games.get("lion-square")
    rng = Rng.from_seed(players)
    compared = 0
    for seed in range(6):
        state = game.unlogged(game.setup(players, seed))
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            actions = game.listed_actions(state, seat)
            if state["step"] != "pass":
                for action in actions:
                    field, taken = [list(entry) for entry in state["field"]], [len(cards) for cards in state["taken"]]
                    gazelles = sum(card.startswith("gazelle") for card in state["hands"][seat])
                    if action["type"] == "take":
                        line, index = (0, action["row"]) if "row" in action else (1, action["column"])
                        kept = [entry for entry in field if entry[line] != index]
                        taken[seat] += len(field) - len(kept)
                        field = kept
                    else:
                        field.append([*action["cell"], action["card"]])
                        gazelles -= action["card"].startswith("gazelle")
                    losses = [_public_damage(field, lion_square.SIDES[other], count, gazelles if other == seat else 0)
                              for other, count in enumerate(taken)]
                    others = losses[:seat] + losses[seat + 1:]
                    assert lion_margin_after(state, seat, action) == pytest.approx(sum(others) / len(others) - losses[seat])
                    compared += 1
            state = game.apply_listed(state, seat, actions[rng.randbelow(len(actions))])
    assert compared > 1000


def test_meow_points_score_face_up_cards_by_the_books_rules():
    """The book's example scores 12 in full; a run stops at the first card not yet face up."""
    example = ["blue-0", "red-1", "green-3", "green-8", "wild-5", "blue-5", "green-3", "red-8", "blue-4"]
    full = meow_oracle.score_area([[meow_oracle.CARD[card] for card in example[row * 3:row * 3 + 3]] for row in range(3)])
    assert full == {"run": 6, "lines": 6, "total": 12} and meow_points(example) == 12
    assert meow_points([None] + example[1:]) == 4  # no run, and the blue diagonal is not up
    assert meow_points(example[:3] + [None] * 6) == 3


def test_greedy_takes_a_swap5_win_in_one():
    """Red (seat 0) completes a run of five in one swap: the win outweighs every margin."""
    game = games.get("swap5")
    state = game.setup(2, 1, {"layout": "typed", "typed_layout": "RRRR./GYBGR/BG.YB/YB.GY/GYB.."})
    after = game.apply(state, 0, greedy_action(game, seat_view(game, state, 0), Rng.from_seed(1)))
    assert game.result(after)["winners"] == [0]


def test_greedy_meow_oracle_puts_its_card_where_it_scores():
    """Its first face-up card goes on the first cell of the snake, where a run starts."""
    game = games.get("meow-oracle")
    state = game.setup(3, 6)
    rng = Rng.from_seed(2)
    while not (state["step"] == "place" and 0 in game.to_act(state)):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, greedy_action(game, seat_view(game, state, seat), rng))
    assert greedy_action(game, seat_view(game, state, 0), rng)["cell"] == [0, 0]


def test_greedy_beats_random_players():
    """A fast sanity check; the measured figures are in docs/bots.md."""
    assert arena(games.get("swap5"), ["greedy", "random"], 4, seed=3).wins == [4, 0]
    meow = arena(games.get("meow-oracle"), ["greedy", "random", "random"], 6, seed=3)
    assert meow.wins[0] > max(meow.wins[1:])

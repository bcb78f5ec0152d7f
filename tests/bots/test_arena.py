"""The arena: bots against bots, seats rotating, wins counted; and its command."""

import json

import pytest

from companion import games
from companion.bots.arena import arena, played_games
from companion.bots.budget import Budget
from companion.cli import main
from companion.config import BotsConfig
from companion.games.rng import Rng


def test_the_arena_rotates_seats_and_counts_every_game():
    result = arena(games.get("swap5"), ["random", "random"], 6, seed=1)
    assert sum(result.wins) == 6 and result.lions == 0
    assert result.as_json() == {"game": "swap5", "seats": ["random", "random"], "games": 6,
                                "wins": result.wins, "lions": 0, "moves": result.moves, "slowest": [None, None]}
    assert len(result.moves) == 6 and all(moves > 0 for moves in result.moves)
    assert f"longest {max(result.moves)}" in result.report()
    assert arena(games.get("swap5"), ["random", "random"], 6, seed=1) == result


def test_the_arenas_games_one_by_one_are_its_deals_seats_and_moves():
    """played_games, which arena() counts: game n is dealt from seed + n, the entries turn
    one seat a game, and its moves played again on that deal give the finished game."""
    game = games.get("meow-oracle")
    run = list(played_games(game, ["easy", "random", "greedy"], 3, seed=4, budget=Budget.iterations(2)))
    assert [played.entries for played in run] == [["easy", "random", "greedy"], ["greedy", "easy", "random"],
                                                  ["random", "greedy", "easy"]]
    for played in run:
        state = game.setup(3, 4 + played.number)
        for seat, action in played.moves:
            state = game.apply(state, seat, action)
        assert state == played.state and game.is_over(state)
        assert list(played.slowest) == [played.entries.index("easy")]
    again = arena(game, ["easy", "random", "greedy"], 3, seed=4, budget=Budget.iterations(2))
    assert again.moves == [len(p.moves) for p in run]


def test_normal_beats_random_at_swap5():
    """A fast sanity check of strength; the measured figures are in docs/bots.md."""
    result = arena(games.get("swap5"), ["normal", "random"], 4, seed=11, budget=Budget.iterations(5))
    assert result.wins[0] == 4


@pytest.mark.parametrize(
    ("seats", "kwargs", "message"),
    [
        (["normal", "bogus"], {}, "unknown seat 'bogus'"),
        (["normal", "random", "random"], {}, "for 2, 4 players"),
        (["normal", "random"], {"games": 0}, "whole number of 1 or more"),
        (["normal", "greedy"], {"scale": 0}, "scale must be a positive number"),
        (["random", "greedy"], {"scale": -1}, "scale must be a positive number"),  # checked with no bot seated too
        (["normal", "greedy"], {"scale": 0.1, "budget": Budget.iterations(5)}, "not both"),
    ],
)
def test_the_arena_refuses_bad_requests(seats, kwargs, message):
    with pytest.raises(ValueError, match=message):
        arena(games.get("swap5"), seats, kwargs.pop("games", 1), seed=0, **kwargs)


@pytest.mark.parametrize(("game_id", "seats"), [("swap5", ["normal", "greedy"]),
                                                ("lion-square", ["easy", "greedy", "random"]),
                                                ("meow-oracle", ["strong", "greedy", "greedy"])])
def test_a_seeded_arena_with_greedy_players_plays_the_same_games_again(game_id, seats):
    game = games.get(game_id)
    first = arena(game, seats, len(seats), seed=7, budget=Budget.iterations(3))
    assert first == arena(game, seats, len(seats), seed=7, budget=Budget.iterations(3))
    assert sum(first.wins) + first.lions == len(seats)
    assert first.slowest[0] > 0 and first.slowest[1:] == [None] * (len(seats) - 1)  # only bot levels are timed


def test_a_scaled_bot_stops_thinking_at_its_processor_time():
    """No figure is asserted: a decision's longest time is the budget plus one iteration."""
    result = arena(games.get("swap5"), ["normal", "greedy"], 2, seed=5, scale=0.02)
    assert 0 < result.slowest[0]
    assert "normal's longest decision" in result.report()


@pytest.mark.parametrize(("options", "expected"), [
    ({"budget": Budget.iterations(30)}, {"strong": ("iterations", 150), "normal": ("iterations", 30),
                                         "easy": ("iterations", 10)}),
    ({"budget": Budget.seconds(1.2)}, {"strong": ("seconds", 6.0), "normal": ("seconds", 1.2), "easy": ("seconds", 0.4)}),
    ({"scale": 0.1}, {"strong": ("processor seconds", 0.3), "normal": ("processor seconds", 0.06),
                      "easy": ("processor seconds", 0.02)}),
    ({}, {"strong": ("seconds", 3.0), "normal": ("seconds", 0.6), "easy": ("seconds", 0.2)}),
])
def test_each_level_thinks_for_its_share_of_normals_budget_or_its_scaled_seconds(monkeypatch, options, expected):
    """The arena's budget is normal's, the other levels keep the ratio of their configured
    seconds to it; a scale gives each level that share of its seconds in processor time."""
    from companion.bots import arena as arena_module

    config = BotsConfig(easy_seconds=0.2, normal_seconds=0.6, strong_seconds=3.0)
    given = {}

    def plays_at_random(game, view, *, budget, seed, level, notes, pool):
        given[level] = (budget.unit, budget.amount)
        return Rng.from_seed(seed).choice(view["actions"])

    monkeypatch.setattr(arena_module, "choose", plays_at_random)
    arena(games.get("meow-oracle"), ["strong", "normal", "easy"], 1, seed=3, config=config, **options)
    assert given == {level: (unit, pytest.approx(amount)) for level, (unit, amount) in expected.items()}


def test_the_arena_command_prints_one_json_object(capsys):
    assert main(["arena", "swap5", "--seats", "random,random", "--games", "3", "--seed", "2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == arena(games.get("swap5"), ["random", "random"], 3, seed=2).as_json()


def test_the_arena_command_takes_greedy_seats_and_a_scale(capsys):
    assert main(["arena", "meow-oracle", "--seats", "easy,greedy,greedy", "--games", "1", "--scale", "0.01",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seats"] == ["easy", "greedy", "greedy"] and sum(printed["wins"]) == 1
    with pytest.raises(SystemExit):
        main(["arena", "swap5", "--seats", "normal,greedy", "--scale", "0.1", "--iterations", "3"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_the_arena_command_refuses_a_tracker(capsys):
    assert main(["arena", "pig-house", "--seats", "random,random", "--games", "1"]) == 2
    assert "has no bots (an arena needs one of the full games)" in capsys.readouterr().err


def test_the_wilson_interval_is_the_textbook_one():
    from companion.bots.arena import wilson

    low, high = wilson(48, 96)  # 50%: 40.2 – 59.8%
    assert round(low, 3) == 0.402 and round(high, 3) == 0.598
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == 1


def test_the_arena_command_takes_the_yardsticks_that_think_ahead(capsys):
    assert main(["arena", "lion-square", "--seats", "normal,ahead,ahead", "--games", "1", "--iterations", "2",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seats"] == ["normal", "ahead", "ahead"] and sum(printed["wins"]) + printed["lions"] == 1
    assert printed["slowest"][1:] == [None, None]  # a yardstick, not a bot level

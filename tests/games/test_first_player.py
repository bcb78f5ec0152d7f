"""The first_player option every game takes (companion.games.base.FIRST_PLAYER): the seat that
takes the first turn, which the first-player draw sets."""

import random

import pytest

from companion import games
from companion.games.base import FIRST_PLAYER, SetupError

SEED = 1234


def _players(game) -> int:
    return game.player_counts[-1]


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_drawn_seat_is_the_plays_start_player(game_id, first):
    game = games.get(game_id)
    state = game.setup(_players(game), SEED, {FIRST_PLAYER: first})
    assert game.start_player(state) == first
    assert state["options"][FIRST_PLAYER] == first


@pytest.mark.parametrize("game_id", ["meow-oracle", "swap5", "pig-house"])
def test_the_first_turn_is_the_drawn_seats(game_id):
    game = games.get(game_id)
    for first in range(_players(game)):
        assert game.to_act(game.setup(_players(game), SEED, {FIRST_PLAYER: first})) == [first]


def test_lion_square_starts_its_first_round_with_the_drawn_seat():
    """The hand adjustment is everyone's at once; the start player then opens the field."""
    game = games.get("lion-square")
    state = game.setup(4, SEED, {FIRST_PLAYER: 2})
    while state["step"] == "pass":
        seat = next(seat for seat in game.to_act(state) if game.legal_actions(state, seat))
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert game.to_act(state) == [2]


def test_the_meow_oracle_scorer_skips_naming_a_drawn_start_player():
    game = games.get("meow-oracle-scorer")
    state = game.setup(3, SEED, {FIRST_PLAYER: 1})
    assert game.view(state, None)["public"]["step"] == "entering"
    assert state["log"][-1]["text"]["en"] == "{s1} starts round 1"


@pytest.mark.parametrize("game_id", games.ids())
def test_the_deal_does_not_depend_on_who_starts(game_id):
    """The draw may come after everyone has looked at their cards: the table keeps the seed,
    so the hands stay as they were and only the start moves."""
    game = games.get(game_id)
    players = _players(game)
    plain, drawn = game.setup(players, SEED), game.setup(players, SEED, {FIRST_PLAYER: 1})
    for seat in range(players):
        assert game.view(plain, seat)["private"] == game.view(drawn, seat)["private"]


@pytest.mark.parametrize("game_id", games.ids())
def test_without_a_draw_the_options_are_as_before(game_id):
    game = games.get(game_id)
    state = game.setup(_players(game), SEED)
    assert FIRST_PLAYER not in state["options"]
    assert game.first_seat(state) == 0


@pytest.mark.parametrize("bad", [-1, 4, 1.0, True, "1", [1]])
def test_a_first_player_that_is_no_seat_is_refused_in_plain_words(bad):
    game = games.get("swap5")
    with pytest.raises(SetupError, match="the first player must be a seat number from 0 to 3") as refused:
        game.setup(4, SEED, {FIRST_PLAYER: bad})
    assert "最初の手番" in refused.value.ja


@pytest.mark.parametrize("game_id", games.ids())
def test_whole_random_games_from_a_drawn_seat_keep_it_as_start_player(game_id):
    """Played to the end by random legal moves, from another seat than the first: the start
    player stays the drawn one and a saved state loads back the same at every step."""
    game = games.get(game_id)
    players = _players(game)
    for first in (1, players - 1):
        state = game.setup(players, SEED + first, {FIRST_PLAYER: first})
        chooser = random.Random(first)
        for _ in range(5000):
            if game.is_over(state):
                break
            seat = chooser.choice(game.to_act(state))
            state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            assert game.start_player(state) == first
            assert game.load(game.dump(state)) == state
        assert game.is_over(state), f"{game_id} from seat {first} did not end in 5000 moves"

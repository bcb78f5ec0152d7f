"""Who starts: the fair draw among the game's seats (companion/first_player.py), on the start
form, before the first move or again on "play again", and the table setting the drawn seat
first (Table.set_first_player)."""

import random
import secrets
import threading
from collections import Counter

import pytest

from companion import games
from companion.first_player import draw, draw_first_player, drawn, rematch, start_with_draw
from companion.games.base import FIRST_PLAYER
from companion.table import Conflict, NotFound, Table, TableError


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


def seated_table(table, game_id="lion-square", names=("Aki", "Bo", "Chi", "Dai"), seed=7):
    table.start_game(game_id, len(names), seed=seed)
    for seat, name in enumerate(names):
        if name:
            table.join(seat, name)
    return table


# ---------------------------------------------------------------- the draw


def test_each_value_of_the_rng_gives_a_different_seat_so_the_draw_is_uniform():
    """Given randbelow(n) uniform on [0, n), the draw is a one-to-one map onto the game's
    seats: each is drawn with probability 1/n, and no other value ever is."""
    asked = []

    def fixed(value):
        def randbelow(n):
            asked.append(n)
            return value
        return randbelow

    assert [draw(3, fixed(value)) for value in range(3)] == [0, 1, 2]
    assert asked == [3, 3, 3]


def test_the_systems_randomness_draws_every_seat_and_no_other():
    """The support, with the default randomness: 600 draws over 3 seats miss one with
    probability 3 * (2/3)^600, below 1e-100."""
    counts = Counter(draw(3) for _ in range(600))
    assert set(counts) == {0, 1, 2}


def test_secrets_randbelow_is_the_default_randomness():
    assert draw.__defaults__ == (secrets.randbelow,)


def test_a_game_without_seats_has_nothing_to_draw():
    with pytest.raises(ValueError, match="at least one seat"):
        draw(0)


# ---------------------------------------------------------------- the table


def test_the_drawn_player_starts_and_keeps_their_cards(table):
    seated_table(table)
    hands = {seat: table.view(seat)["private"] for seat in range(4)}
    version = table.version
    seat = draw_first_player(table, randbelow=lambda n: 2)
    assert seat == 2 and drawn(table) == 2
    assert games.get("lion-square").start_player(table.state()) == 2
    assert table.view(None)["public"]["start_player"] == 2
    assert {seat: table.view(seat)["private"] for seat in range(4)} == hands  # the same deal
    assert table.version == version + 1
    note = table.view(None)["log"][-1]
    assert note["kind"] == "first-player"
    assert note["text"]["en"] == "{s2} starts (drawn at random among 4 players)"


def test_the_first_turn_is_the_drawn_players(table):
    seated_table(table, "swap5", ("Aki", "Bo", "Chi", "Dai"))
    draw_first_player(table, randbelow=lambda n: 3)
    assert table.view(None)["to_act"] == [3]


def test_a_second_draw_is_refused(table):
    seated_table(table)
    draw_first_player(table, randbelow=lambda n: 0)
    with pytest.raises(Conflict, match="who starts is settled already: seat 1"):
        draw_first_player(table, randbelow=lambda n: 2)
    assert drawn(table) == 0


def test_two_draws_at_the_same_moment_set_one_first_player(table):
    seated_table(table)
    outcomes, start = [], threading.Barrier(2)

    def tap(value):
        start.wait()
        try:
            outcomes.append(draw_first_player(table, randbelow=lambda n: value))
        except Conflict as refused:
            outcomes.append(refused)

    threads = [threading.Thread(target=tap, args=(value,)) for value in (0, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    drawn_seats = [outcome for outcome in outcomes if isinstance(outcome, int)]
    assert len(drawn_seats) == 1 and drawn(table) == drawn_seats[0]
    assert sum(entry.get("kind") == "first-player" for entry in table.log(None)) == 1


def test_after_a_move_who_starts_is_settled(table):
    seated_table(table, "swap5", ("Aki", "Bo", "Chi", "Dai"))
    view = table.view(0)
    table.act(0, view["actions"][0], view["version"])
    table.undo()  # even taken back: the play has begun
    version = table.version
    with pytest.raises(Conflict, match="a move has been made"):
        draw_first_player(table)
    assert table.version == version and drawn(table) is None


def test_without_a_game_nothing_is_drawn(table):
    with pytest.raises(NotFound, match="no game has been started"):
        draw_first_player(table)


def test_free_seats_take_part_in_the_draw_for_whoever_sits_there_next(table):
    """Nobody waits for friends still joining: the draw is among the game's seats."""
    seated_table(table, names=("Aki", None, "Chi", None))
    assert draw_first_player(table, randbelow=lambda n: 3) == 3
    assert drawn(table) == 3
    assert table.view(None)["log"][-1]["text"]["en"] == "{s3} starts (drawn at random among 4 players)"
    assert games.get("lion-square").start_player(table.state()) == 3


def test_a_seat_outside_the_game_cannot_be_set_first(table):
    seated_table(table, names=("Aki", "Bo", "Chi"))
    with pytest.raises(NotFound, match="there is no seat 3"):
        table.set_first_player(3, {"en": "x", "ja": "x"})
    assert drawn(table) is None


# ---------------------------------------------------------------- drawn on the start form


def test_a_game_started_with_the_draw_is_dealt_with_the_drawn_seat_first(table, tmp_path):
    start_with_draw(table, "swap5", 4, seed=5, randbelow=lambda n: 2)
    assert drawn(table) == 2 and table.view(None)["to_act"] == [2]
    note = table.view(None)["log"][-1]
    assert note["kind"] == "first-player"
    assert note["text"]["en"] == "{s2} starts (drawn at random among 4 players)"
    chosen = Table(tmp_path / "chosen")  # the same deal as that seat chosen on the start form
    try:
        chosen.start_game("swap5", 4, seed=5, options={FIRST_PLAYER: 2})
        assert chosen.state()["options"] == table.state()["options"]
        assert [chosen.view(seat)["private"] for seat in range(4)] == [table.view(seat)["private"] for seat in range(4)]
    finally:
        chosen.close()


def test_the_draw_on_the_start_form_is_in_the_one_start_so_a_bot_never_moves_before_it(tmp_path):
    """The game is set up with the drawn seat first: the table's first version already
    names them, so nothing (a bot's worker included) ever sees the game without the draw."""
    table = Table(tmp_path)
    seen = []
    table.subscribe(lambda version: seen.append(table.state()["options"].get(FIRST_PLAYER, "none")))
    try:
        start_with_draw(table, "lion-square", 3, randbelow=lambda n: 1)
        assert seen and set(seen) == {1}
    finally:
        table.close()


def test_the_start_form_draws_or_chooses_not_both(table):
    with pytest.raises(Conflict, match="draw or choose, not both"):
        start_with_draw(table, "swap5", 2, options={FIRST_PLAYER: 1})
    assert table.game_id is None


def test_a_bad_player_count_is_refused_by_the_game_in_plain_words(table):
    with pytest.raises(TableError, match="the number of players"):
        start_with_draw(table, "swap5", "two")
    assert table.game_id is None


def test_the_draw_survives_a_restart(tmp_path):
    table = seated_table(Table(tmp_path))
    draw_first_player(table, randbelow=lambda n: 2)
    log, state = table.log(None), table.state()
    table.close()
    again = Table(tmp_path)
    try:
        assert drawn(again) == 2 and again.state() == state and again.log(None) == log
        view = again.view(0)
        again.act(0, view["actions"][0], view["version"])  # the game plays on from the drawn start
    finally:
        again.close()


def play_out(table):
    game, chooser = games.get(table.game_id), random.Random(0)
    while not game.is_over(table.state()):
        seat = game.to_act(table.state())[0]
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)


def test_play_again_after_a_drawn_start_draws_anew(table):
    seated_table(table, "swap5", ("Aki", "Bo"))
    draw_first_player(table, randbelow=lambda n: 1)
    play_out(table)
    rematch(table, randbelow=lambda n: 0)
    assert drawn(table) == 0 and table.view(None)["to_act"] == [0]
    assert table.view(None)["log"][-1]["kind"] == "first-player"


def test_play_again_without_a_draw_leaves_who_starts_open(table):
    seated_table(table, "swap5", ("Aki", "Bo"))
    play_out(table)
    rematch(table, randbelow=lambda n: pytest.fail("nothing to draw"))
    assert FIRST_PLAYER not in table.state()["options"] and drawn(table) is None
    assert draw_first_player(table, randbelow=lambda n: 1) == 1

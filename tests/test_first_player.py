"""Who starts: the fair draw among the seated players (companion/first_player.py) and the
table setting the drawn player first (Table.set_first_player)."""

import random
import secrets
import threading
from collections import Counter

import pytest

from companion import games
from companion.first_player import draw, draw_first_player, drawn
from companion.games.base import FIRST_PLAYER
from companion.table import Conflict, NotFound, Table


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


def test_each_value_of_the_rng_gives_a_different_seated_seat_so_the_draw_is_uniform():
    """Given randbelow(n) uniform on [0, n), the draw is a one-to-one map onto the seated
    seats: each is drawn with probability 1/n, and nobody else ever is."""
    seated = [0, 2, 3]
    asked = []

    def fixed(value):
        def randbelow(n):
            asked.append(n)
            return value
        return randbelow

    assert [draw(seated, fixed(value)) for value in range(len(seated))] == seated
    assert asked == [3, 3, 3]


def test_the_systems_randomness_draws_every_seated_seat_and_no_other():
    """The support, with the default randomness: 600 draws over 3 seated seats miss one with
    probability 3 * (2/3)^600, below 1e-100; an empty seat never comes."""
    counts = Counter(draw([1, 2, 4]) for _ in range(600))
    assert set(counts) == {1, 2, 4}


def test_secrets_randbelow_is_the_default_randomness():
    assert draw.__defaults__ == (secrets.randbelow,)


def test_nobody_seated_is_refused_in_plain_words():
    with pytest.raises(Conflict, match="nobody is seated yet") as refused:
        draw([])
    assert "まだ誰も席に着いていません" in refused.value.ja


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


def test_without_a_game_or_anyone_seated_nothing_is_drawn(table):
    with pytest.raises(NotFound, match="no game has been started"):
        draw_first_player(table)
    table.start_game("swap5", 2)
    with pytest.raises(Conflict, match="nobody is seated yet"):
        draw_first_player(table)


def test_the_draw_waits_until_everyone_is_seated(table):
    """A seat still free would leave out whoever sits there next."""
    seated_table(table, names=("Aki", None, "Chi", None))
    version = table.version
    with pytest.raises(Conflict, match="seat 2, 4 is free: who starts is drawn once everyone is seated") as refused:
        draw_first_player(table)
    assert "2, 4番の席が空いています" in refused.value.ja
    assert table.version == version and drawn(table) is None
    table.join(1, "Bo")
    table.join(3, "Dai")
    assert draw_first_player(table, randbelow=lambda n: 3) == 3


def test_a_free_seat_cannot_be_set_first(table):
    seated_table(table, names=("Aki", None, "Chi", "Dai"))
    with pytest.raises(Conflict, match="seat 2 is free"):
        table.set_first_player(1, {"en": "x", "ja": "x"})


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


def test_a_rematch_draws_anew(table):
    seated_table(table, "swap5", ("Aki", "Bo"))
    draw_first_player(table, randbelow=lambda n: 1)
    game, chooser = games.get("swap5"), random.Random(0)
    while not game.is_over(table.state()):
        seat = game.to_act(table.state())[0]
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
    table.rematch()
    assert FIRST_PLAYER not in table.state()["options"] and drawn(table) is None
    assert draw_first_player(table, randbelow=lambda n: 0) == 0

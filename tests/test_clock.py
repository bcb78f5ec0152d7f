"""The turn clock (companion/clock.py): per player, counting up, paused by anyone and by
itself, each turn's time kept with the move that ends it. Time from a fake clock."""

import threading

import pytest

from companion.clock import TurnClock
from companion.table import StorageError, Table, TableError


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def tick(self, seconds):
        self.now += seconds


@pytest.fixture
def time():
    return FakeClock()


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


def swap5_for_two(table):
    table.start_game("swap5", 2, seed=42)
    table.join(0, "Aki")
    table.join(1, "Dai")


def move(table, seat=None):
    """The seat waited for (or ``seat``) makes its first legal move."""
    seat = table.view(None)["waiting_for"][0] if seat is None else seat
    view = table.view(seat)
    table.act(seat, view["actions"][0], view["version"])
    return seat


def turn(clock, seat):
    return clock.view()["seats"][seat]["turn"]


def recorded(table):
    game_id = table.game_change().game_id
    return table.read_alongside(lambda store: store.turns([game_id]))[game_id]


def test_the_seat_waited_for_counts_up_and_its_turn_is_kept_with_its_move(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    time.tick(12.5)
    assert turn(clock, first) == 12.5 and clock.view()["running"] and clock.view()["why"] is None
    assert turn(clock, 1 - first) is None
    move(table)
    time.tick(3)
    assert turn(clock, 1 - first) == 3 and turn(clock, first) is None
    assert recorded(table) == [{"seat": first, "seconds": 12.5, "action": 1, "undone": False}]
    assert clock.view()["seats"][first]["total"] == 12.5


def test_anyone_pauses_and_resumes_and_two_pauses_at_once_change_nothing_more(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    time.tick(5)
    version = table.version
    clock.pause()
    assert table.version == version + 1  # every screen redraws
    clock.pause()  # a second phone's tap at the same moment
    assert table.version == version + 1
    time.tick(60)
    assert turn(clock, first) == 5 and clock.view()["why"] == "paused" and clock.view()["paused"]
    clock.resume()
    time.tick(2)
    assert turn(clock, first) == 7 and not clock.view()["paused"]


def test_it_pauses_by_itself_for_an_empty_seat_a_question_and_the_end(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    table.free_seat(first)
    time.tick(30)
    assert turn(clock, first) == 0 and clock.view()["why"] == "empty"
    table.join(first, "Emi")
    time.tick(4)
    assert turn(clock, first) == 4
    clock.ask("phone")
    time.tick(50)
    assert clock.view()["why"] == "question" and turn(clock, first) == 4
    clock.answered("phone")
    time.tick(1)
    assert turn(clock, first) == 5
    clock.ask("phone")
    clock.resume()  # anyone's resume ends a question left open
    time.tick(1)
    assert turn(clock, first) == 6


def ledger_for_three(table):
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat, name in enumerate(["Aki", "Dai", "Emi"]):
        table.join(seat, name)


def enter_loss(table, seat, loss):
    table.act(seat, {"type": "loss", "loss": loss}, table.version)


def test_it_stops_at_the_end_of_the_game(table, time):
    ledger_for_three(table)
    clock = TurnClock(table, clock=time)
    for seat in range(3):
        time.tick(2)
        enter_loss(table, seat, 33)  # every herd is gone: the game ends
    time.tick(9)
    assert table.view(None)["over"]
    assert clock.view()["why"] == "over" and not clock.view()["running"]
    assert all(seat["turn"] is None for seat in clock.view()["seats"])
    assert [(t["seat"], t["seconds"]) for t in recorded(table)] == [(0, 2), (1, 4), (2, 6)]


def test_the_target_only_marks_the_turn(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    clock.set_target(30)
    time.tick(29)
    assert not clock.view()["seats"][first]["over_target"]
    time.tick(2)
    seat = clock.view()["seats"][first]
    assert seat["over_target"] and seat["running"] and clock.view()["target"] == 30
    assert table.view(None)["waiting_for"] == [first]  # never ends a turn
    with pytest.raises(TableError, match="target"):
        clock.set_target(7)
    for wrong in (True, 30.0, "30"):
        with pytest.raises(TableError):
            clock.set_target(wrong)
    clock.set_target(None)
    assert clock.view()["target"] is None


def test_an_undo_gives_the_turn_back_with_its_time_and_takes_its_record_back(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    time.tick(10)
    first = move(table)
    time.tick(4)
    table.undo()
    time.tick(1)
    assert turn(clock, first) == 11 and turn(clock, 1 - first) is None
    turns = recorded(table)
    assert [(t["seat"], t["seconds"], t["undone"]) for t in turns] == [(first, 10, True), (1 - first, 4, True)]
    assert clock.view()["seats"][first]["total"] == 11  # the turns taken back count no more


def test_a_restart_mid_turn_goes_on_from_the_saved_time(tmp_path, time):
    table = Table(tmp_path)
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    time.tick(8)
    first = move(table)
    time.tick(6)
    clock.set_target(60)
    clock.close()  # the server stops
    table.close()
    time.tick(500)  # the machine is off: nobody is timed
    table = Table(tmp_path)
    clock = TurnClock(table, clock=time)
    time.tick(1)
    assert turn(clock, 1 - first) == 7 and clock.view()["target"] == 60
    assert clock.view()["seats"][first]["total"] == 8
    assert recorded(table)[0]["seconds"] == 8
    table.close()


def test_a_power_cut_keeps_every_ended_turn_and_the_time_saved_at_the_last_change(tmp_path, time):
    table = Table(tmp_path)
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    time.tick(8)
    first = move(table)
    time.tick(3)
    clock.pause()  # saved with the running turn's 3 s
    clock.resume()
    time.tick(20)  # then the plug is pulled: no close
    table = Table(tmp_path)
    clock = TurnClock(table, clock=time)
    assert turn(clock, 1 - first) == 3 and recorded(table)[0]["seconds"] == 8
    table.close()


def test_a_paused_clock_stays_paused_after_a_restart(tmp_path, time):
    table = Table(tmp_path)
    swap5_for_two(table)
    TurnClock(table, clock=time).pause()
    table.close()
    table = Table(tmp_path)
    clock = TurnClock(table, clock=time)
    time.tick(9)
    assert clock.view()["why"] == "paused" and not clock.view()["running"]
    table.close()


def test_a_new_game_ends_the_old_ones_turns_and_starts_unpaused(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    old = table.game_change().game_id
    time.tick(5)
    clock.pause()
    table.start_game("swap5", 2, seed=7)
    assert table.read_alongside(lambda store: store.turns([old]))[old] == [
        {"seat": first, "seconds": 5, "action": None, "undone": False}]
    assert not clock.view()["paused"] and clock.view()["running"]


def test_several_seats_waited_for_at_once_each_have_their_turn(table, time):
    ledger_for_three(table)
    clock = TurnClock(table, clock=time)
    assert table.view(None)["waiting_for"] == [0, 1, 2]
    time.tick(10)
    enter_loss(table, 1, 5)
    time.tick(5)
    assert [turn(clock, seat) for seat in range(3)] == [15, None, 15]
    assert [(t["seat"], t["seconds"]) for t in recorded(table)] == [(1, 10)]


def test_a_turn_not_saved_is_not_kept_and_the_clock_stays_as_it_was(table, time, full_disk):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    time.tick(5)
    table._store._db = disk = full_disk(table._store._db)
    with pytest.raises(StorageError):
        move(table)
    with pytest.raises(StorageError):
        clock.pause()
    assert turn(clock, first) == 5 and clock.view()["running"]
    disk.full = False
    move(table)
    assert recorded(table) == [{"seat": first, "seconds": 5, "action": 1, "undone": False}]


def test_two_pauses_at_the_same_moment_make_one_change(table, time):
    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    version = table.version
    taps = [threading.Thread(target=clock.pause) for _ in range(8)]
    for tap in taps:
        tap.start()
    for tap in taps:
        tap.join()
    assert clock.view()["paused"] and table.version == version + 1


def test_drawing_who_starts_begins_the_drawn_players_turn_afresh(table, time):
    from companion.first_player import draw_first_player

    swap5_for_two(table)
    clock = TurnClock(table, clock=time)
    first = table.view(None)["waiting_for"][0]
    time.tick(20)  # the players settle who starts
    draw_first_player(table, randbelow=lambda n: 1 - first)  # the other seat starts
    time.tick(3)
    assert turn(clock, 1 - first) == 3 and turn(clock, first) is None
    assert recorded(table) == [], "the time before the draw is nobody's turn"

"""Each turn's time in the records: the play, the statistics, the replay, the CSV and the
export keep what the turn clock measured, a restart mid-turn loses none of it."""

from __future__ import annotations

import csv
import io
from datetime import timezone

from companion.cli import main
from companion.clock import TurnClock
from companion.records.exports import CSV_COLUMNS, plays_csv
from companion.records.plays import Records
from companion.records.stats import stats
from companion.table import Table


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def enter(table, seat, loss):
    table.act(seat, {"type": "loss", "loss": loss}, table.version)


def ledger_played_with_a_clock(data_dir, restart_mid_turn=False):
    """A Lion Square ledger for three, timed: Aki 10 s, Ben 20 s, Cy 30 s in round one (each
    counted from the round's start, the entries being simultaneous), then everyone loses their
    herd in round two (Aki takes 45 s, with a restart of the companion in the middle)."""
    time = FakeClock()
    table = Table(data_dir)
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat, name in enumerate(["Aki", "Ben", "Cy"]):
        table.join(seat, name)
    clock = TurnClock(table, clock=time)
    for seat, at in ((0, 10), (1, 20), (2, 30)):
        time.now = at
        enter(table, seat, 1)
    time.now = 40  # a round end waits for nobody: no turn runs until the next round
    table.act(0, {"type": "next-round"}, table.version)
    enter(table, 1, 33)
    enter(table, 2, 33)
    if restart_mid_turn:
        time.now = 60
        clock.close()
        table.close()
        time.now = 1000  # switched off for a while: not Aki's time
        table = Table(data_dir)
        clock = TurnClock(table, clock=time)
        time.now = 1025
    else:
        time.now = 85
    enter(table, 0, 33)
    assert table.view(None)["over"]
    table.close()


def test_a_play_keeps_each_turn_and_each_player_its_time(data_dir):
    ledger_played_with_a_clock(data_dir)
    records = Records(data_dir)
    (listed,) = records.plays()
    assert [p["turn_time"] for p in listed["players"]] == [
        {"turns": 2, "seconds": 55.0, "longest": 45.0},
        {"turns": 2, "seconds": 20.0, "longest": 20.0},
        {"turns": 2, "seconds": 30.0, "longest": 30.0}]
    play = records.play(listed["id"])
    assert [(t["name"], t["seconds"]) for t in play["turns"]] == [
        ("Aki", 10), ("Ben", 20), ("Cy", 30), ("Ben", 0), ("Cy", 0), ("Aki", 45)]
    records.close()


def test_a_restart_mid_turn_keeps_the_times(data_dir):
    ledger_played_with_a_clock(data_dir, restart_mid_turn=True)
    records = Records(data_dir)
    (listed,) = records.plays()
    assert listed["players"][0]["turn_time"] == {"turns": 2, "seconds": 55.0, "longest": 45.0}
    records.close()


def test_the_statistics_give_time_per_turn_by_player_and_the_longest_turn(data_dir):
    ledger_played_with_a_clock(data_dir)
    records = Records(data_dir)
    answer = stats(records.outcomes())
    by_name = {player["name"]: player["turn_time"] for player in answer["players"]}
    assert by_name == {"Aki": {"turns": 2, "mean": 27.5, "longest": 45.0},
                       "Ben": {"turns": 2, "mean": 10.0, "longest": 20.0},
                       "Cy": {"turns": 2, "mean": 15.0, "longest": 30.0}}
    longest = answer["longest_turn"]
    assert (longest["name"], longest["seconds"], longest["game"]) == ("Aki", 45.0, "lion-square-ledger")
    records.close()


def test_the_replay_shows_the_time_taken_up_to_each_move(data_dir):
    ledger_played_with_a_clock(data_dir)
    records = Records(data_dir)
    (listed,) = records.plays()
    assert records.replay(listed["id"], 0)["clock"] == {"totals": [0, 0, 0], "ended": []}
    assert records.replay(listed["id"], 2)["clock"] == {"totals": [10, 20, 0], "ended": [{"seat": 1, "seconds": 20}]}
    last = records.replay(listed["id"], 7)
    assert last["steps"] == 7 and last["clock"] == {"totals": [55, 20, 30], "ended": [{"seat": 0, "seconds": 45}]}
    records.close()


def test_the_csv_has_each_players_turns(data_dir):
    ledger_played_with_a_clock(data_dir)
    records = Records(data_dir)
    rows = list(csv.DictReader(io.StringIO(plays_csv(records.plays(), timezone.utc).lstrip("\ufeff"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["player"], r["turns"], r["turn_seconds"], r["longest_turn_seconds"]) for r in rows] == [
        ("Aki", "2", "55.0", "45.0"), ("Ben", "2", "20.0", "20.0"), ("Cy", "2", "30.0", "30.0")]
    records.close()


def test_an_undone_turn_is_left_out(data_dir):
    time = FakeClock()
    table = Table(data_dir)
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat, name in enumerate(["Aki", "Ben", "Cy"]):
        table.join(seat, name)
    TurnClock(table, clock=time)
    time.now = 10
    enter(table, 0, 33)
    table.undo()  # Aki's turn comes back with its 10 s
    time.now = 12
    for seat in range(3):
        enter(table, seat, 33)
    table.close()
    records = Records(data_dir)
    (listed,) = records.plays()
    assert listed["players"][0]["turn_time"] == {"turns": 1, "seconds": 12.0, "longest": 12.0}
    turns = records.play(listed["id"])["turns"]
    assert [(t["seat"], t["seconds"], t["undone"]) for t in turns] == [(0, 10, True), (0, 12, False), (1, 12, False),
                                                                       (2, 12, False)]
    records.close()


def test_the_export_carries_the_turns_to_another_card(data_dir, tmp_path, capsys):
    ledger_played_with_a_clock(data_dir)
    backup, fresh = tmp_path / "plays.json", tmp_path / "fresh"
    assert main(["export", str(backup), "--data", str(data_dir)]) == 0
    assert main(["import", str(backup), "--data", str(fresh)]) == 0
    before, after = Records(data_dir), Records(fresh)
    (one,), (other,) = before.plays(), after.plays()
    assert before.play(one["id"])["turns"] == after.play(other["id"])["turns"]
    before.close()
    after.close()

"""Seeds (issue 23 point 5): drawn with 63 bits; a game started with a chosen seed says so in
every view (whoever chose it may know every hand) and in its play record, across a restart,
an export and an import."""

from __future__ import annotations

import json

from companion.cli import main
from companion.table import Table

from .conftest import play


def test_a_seed_nobody_chose_has_63_bits(table):
    seeds = []
    for _ in range(6):
        table.start_game("swap5", 2)
        seeds.append(table._current.record.seed)
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert max(seeds) >= 2**31  # 31 bits before: six draws all below 2^31 happen once in 2^192


def test_a_chosen_seed_is_said_in_every_view_and_the_play_record(client, table, host, data_dir):
    answer = client.post("/api/game", json={"game": "swap5", "players": 2, "seed": 7}, headers=host)
    assert answer.status_code == 200, answer.get_json()
    for seat, name in enumerate(["Aki", "Ben"]):
        table.join(seat, name)
    assert table.view(None)["seed_chosen"] is True and table.view(0)["seed_chosen"] is True
    assert client.get("/api/table").get_json()["game"]["seed_chosen"] is True
    table.close()
    reopened = Table(data_dir)  # a restart keeps it
    try:
        assert reopened.view(1)["seed_chosen"] is True
    finally:
        reopened.close()


def test_a_rematch_and_a_random_seed_are_not_chosen(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=3)  # the helper chooses its seed, as a host may
    (chosen,) = records.plays()
    assert records.play(chosen["id"])["seed_chosen"] is True
    table.rematch()
    assert table.view(None)["seed_chosen"] is False
    table.start_game("swap5", 2)
    assert table.view(0)["seed_chosen"] is False


def test_export_and_import_keep_a_chosen_seed(table, records, data_dir, tmp_path):
    play(table, "swap5", ["Aki", "Ben"], seed=3)
    table.start_game("swap5", 2)
    backup, fresh = tmp_path / "plays.json", tmp_path / "fresh"
    assert main(["export", str(backup), "--data", str(data_dir)]) == 0
    assert [p["seed_chosen"] for p in json.loads(backup.read_text(encoding="utf-8"))["plays"]] == [True]
    assert main(["import", str(backup), "--data", str(fresh)]) == 0
    from companion.records.plays import Records

    imported = Records(fresh)
    try:
        (only,) = imported.plays()
        assert imported.play(only["id"])["seed_chosen"] is True
    finally:
        imported.close()

"""Seeds (issue 23 point 5): drawn with 63 bits; a game started with a chosen seed says so in
every view (whoever chose it may know every hand) and in its play record, across a restart,
an export and an import."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.store import Store
from companion.table import Table

from .conftest import play


def test_a_seed_nobody_chose_has_63_bits(table):
    for _ in range(6):
        table.start_game("swap5", 2)
    store = Store(table.data_dir)  # the plays as kept
    seeds = [store.game(play).seed for play in range(1, 7)]
    store.close()
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


LARGEST_SEED = 2**63 - 1


@pytest.mark.parametrize("seed", [str(LARGEST_SEED), LARGEST_SEED, "9007199254740993", "0", 12])
def test_a_chosen_seed_arrives_exactly_as_digits_or_as_a_number(client, table, host, seed):
    """Pages send a typed seed as its digits: a JavaScript number would round 2^53 + 1 and
    every 19-digit seed (63 bits) to another seed, and so another deal."""
    answer = client.post("/api/game", json={"game": "swap5", "players": 2, "seed": seed}, headers=host)
    assert answer.status_code == 200, answer.get_json()
    assert table.state()["seed"] == int(seed) and table.view(None)["seed_chosen"] is True


@pytest.mark.parametrize("seed", [str(LARGEST_SEED + 1), LARGEST_SEED + 1, "-1", -1, "1e5", "12.0", 12.0, " 12", "",
                                  "１２", "0x1f", "1" * 5000, True, [12], {"seed": 12}])
def test_a_seed_that_is_no_whole_number_in_range_is_refused_in_both_languages_and_changes_nothing(client, table, host, seed):
    client.post("/api/game", json={"game": "swap5", "players": 2, "seed": 5}, headers=host)
    version, state = table.version, table.state()
    refused = client.post("/api/game", json={"game": "lion-square", "players": 3, "seed": seed}, headers=host)
    assert refused.status_code == 400
    body = refused.get_json()
    assert f"from 0 to {LARGEST_SEED}" in body["error"] and "シード" in body["error_ja"] and len(body["error"]) < 200
    assert table.version == version and table.state() == state


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

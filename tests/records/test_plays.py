"""Plays: recorded with their players for finished and abandoned games, read back, renamed, deleted."""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.bots.seats import bot_name
from companion.records.plays import player_key
from companion.table import Conflict, NotFound, TableError

from .conftest import play, play_on


def test_a_finished_game_is_a_play_with_its_players_as_they_sat(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=3)
    table.free_all_seats()  # the play keeps the names it was played under
    (recorded,) = records.plays()
    result = games.get("swap5").result(_final_state("swap5", 2, 3))
    assert recorded["game"] == "swap5" and recorded["title"] == games.get("swap5").title
    assert recorded["abandoned"] is False and recorded["ended_at"] >= recorded["started_at"]
    assert [p["name"] for p in recorded["players"]] == ["Aki", "Ben"]
    assert [p["winner"] for p in recorded["players"]] == [s in result["winners"] for s in (0, 1)]
    assert [p["score"] for p in recorded["players"]] == [result["scores"]["0"], result["scores"]["1"]]
    assert [p["start_player"] for p in recorded["players"]] == [True, False]
    winner = result["winners"][0]
    assert recorded["players"][winner]["rank"] == 1 and recorded["players"][1 - winner]["rank"] == 2
    assert "Aki" in recorded["summary"]["en"] or "Ben" in recorded["summary"]["en"]
    assert "{s" not in recorded["summary"]["en"] + recorded["summary"]["ja"]


def test_an_abandoned_game_counts_only_after_a_move(table, records):
    play(table, "meow-oracle", ["Aki", "Ben"], moves=0)
    play(table, "meow-oracle", ["Aki", "Ben"], moves=2)
    table.start_game("swap5", 2)  # abandons the second
    (recorded,) = records.plays()
    assert recorded["abandoned"] is True and recorded["summary"]["en"] == "Abandoned before the end."
    assert [p["name"] for p in recorded["players"]] == ["Aki", "Ben"]
    assert all(p["rank"] is None and not p["winner"] for p in recorded["players"])


def test_the_lions_win_ranks_nobody_first_and_says_so(table, records):
    play(table, "lion-square", ["Aki", "Ben", "Cy"], seed=3)  # seed 3: every herd is gone
    (recorded,) = records.plays()
    assert recorded["lions_win"] is True
    assert sorted(p["rank"] for p in recorded["players"]) == [2, 3, 4]
    assert "lions" in recorded["summary"]["en"] and "ライオン" in recorded["summary"]["ja"]


def test_plays_are_newest_first_filtered_by_game_and_paged(table, records):
    for seed, game_id in enumerate(["swap5", "pig-house", "swap5"]):
        play(table, game_id, ["Aki", "Ben"], seed=seed)
    ids = [p["id"] for p in records.plays()]
    assert ids == sorted(ids, reverse=True) and len(ids) == 3
    assert [p["game"] for p in records.plays(game="swap5")] == ["swap5", "swap5"]
    assert [p["id"] for p in records.plays(limit=1, before=ids[0])] == [ids[1]]


@pytest.mark.parametrize("kwargs", [{"game": "chess"}, {"limit": 0}, {"before": -1}, {"limit": "2"}, {"before": 2**70}])
def test_bad_listing_arguments_are_refused(records, kwargs):
    with pytest.raises(TableError):
        records.plays(**kwargs)


def test_bots_are_known_by_their_seat_and_level_not_by_their_name(table, records):
    table.start_game("swap5", 2, seed=3)
    table.join(0, bot_name(1, "easy"))  # a person who types a bot's name is a person
    table.join(1, bot_name(1, "easy"), bot="easy")
    play_on(table)
    players = records.plays()[0]["players"]
    assert [(p["bot"], p["bot_level"]) for p in players] == [(False, None), (True, "easy")]


def test_one_play_carries_its_whole_action_log_with_undone_moves(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=3, moves=2)
    table.undo()
    play_on(table)
    recorded = records.play(records.plays()[0]["id"])
    assert [a["undone"] for a in recorded["actions"]][:2] == [False, True]
    assert all(a["name"] in ("Aki", "Ben") and a["at"] > 0 for a in recorded["actions"] if a["seat"] < 2)
    assert any(a["text"] for a in recorded["actions"])
    for missing in (999, 0, 2**70, "1"):
        with pytest.raises(NotFound):
            records.play(missing)


def test_names_match_after_nfkc_and_case_folding():
    assert player_key("ＡＫＩ") == player_key("aki") == player_key("Aki")
    assert player_key("あき") != player_key("アキ")


def test_a_rename_changes_every_play_of_that_player(table, records):
    play(table, "swap5", ["ＡＫＩ", "Ben"], seed=1)
    play(table, "swap5", ["Ben", "aki"], seed=2)
    play(table, "swap5", ["あき", "Ben"], seed=3)
    assert records.rename("Aki", "Akiko") == 2
    assert [[p["name"] for p in r["players"]] for r in records.plays()] == [["あき", "Ben"], ["Ben", "Akiko"], ["Akiko", "Ben"]]


@pytest.mark.parametrize("old, new, refusal", [("Nobody", "X", NotFound), ("Ben", " ", TableError), (3, "X", TableError)])
def test_a_bad_rename_is_refused_and_changes_nothing(table, records, old, new, refusal):
    play(table, "swap5", ["Aki", "Ben"], seed=1)
    before = records.plays()
    with pytest.raises(refusal):
        records.rename(old, new)
    assert records.plays() == before


def test_the_host_deletes_a_play_but_not_the_current_game(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=1)
    play(table, "swap5", ["Aki", "Ben"], seed=2)
    newest, older = (p["id"] for p in records.plays())
    records.delete(older)
    assert [p["id"] for p in records.plays()] == [newest]
    with pytest.raises(Conflict):
        records.delete(newest)  # still on the table
    with pytest.raises(NotFound):
        records.delete(older)
    assert [p["id"] for p in records.plays()] == [newest]


def _final_state(game_id: str, players: int, seed: int) -> dict:
    """The end of the same random game ``play`` plays (same seed, same choices)."""
    game = games.get(game_id)
    chooser = random.Random(seed)
    state = game.setup(players, seed, None)
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    return state

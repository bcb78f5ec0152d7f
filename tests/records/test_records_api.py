"""The records' routes: listing, one play, renaming and deleting (the host's), and their refusals."""

from __future__ import annotations

import pytest

from .conftest import CSRF, play


@pytest.fixture
def three_plays(table):
    play(table, "swap5", ["ＡＫＩ", "Ben"], seed=1)
    play(table, "pig-house", ["Ben", "aki"], seed=2)
    play(table, "swap5", ["あき", "Ben"], seed=3)
    table.free_all_seats()
    table.start_game("swap5", 2)  # none of them is the current game any more


def test_plays_newest_first_filtered_and_paged(client, three_plays):
    plays = client.get("/api/plays").get_json()["plays"]
    assert [p["game"] for p in plays] == ["swap5", "pig-house", "swap5"]
    assert plays[0]["players"][0]["name"] == "あき"
    assert [p["id"] for p in client.get("/api/plays?game=swap5").get_json()["plays"]] == [plays[0]["id"], plays[2]["id"]]
    paged = client.get(f"/api/plays?limit=1&before={plays[0]['id']}").get_json()["plays"]
    assert [p["id"] for p in paged] == [plays[1]["id"]]
    assert client.get("/api/plays").headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("query, status", [("game=chess", 404), ("limit=x", 400), ("limit=0", 400), ("before=-2", 400),
                                           ("limit=%EF%BC%93", 400)])
def test_bad_listing_queries_are_refused(client, query, status):
    assert client.get(f"/api/plays?{query}").status_code == status


def test_one_play_with_its_action_log(client, three_plays):
    newest = client.get("/api/plays").get_json()["plays"][0]
    answer = client.get(f"/api/plays/{newest['id']}").get_json()
    assert {k: v for k, v in answer.items() if k not in ("actions", "turns", "corrections", "bgstats_url")} == newest
    assert answer["bgstats_url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    assert answer["actions"] and all({"n", "seat", "name", "action", "at", "undone", "text"} <= set(a) for a in answer["actions"])
    assert client.get("/api/plays/9999").status_code == 404


def test_the_host_renames_a_player_in_every_play(client, host, three_plays):
    answer = client.post("/api/players/rename", json={"old": "Aki", "new": "Akiko"}, headers=host)
    assert answer.status_code == 200 and answer.get_json() == {"renamed": 2}
    names = [[p["name"] for p in play["players"]] for play in client.get("/api/plays").get_json()["plays"]]
    assert names == [["あき", "Ben"], ["Ben", "Akiko"], ["Akiko", "Ben"]]


def test_renaming_is_the_hosts_and_refusals_change_nothing(client, table, host, three_plays):
    before = client.get("/api/plays").get_json()
    assert client.post("/api/players/rename", json={"old": "Ben", "new": "B"}, headers=CSRF).status_code == 401
    assert client.post("/api/players/rename", json={"old": "Ben", "new": "B"},
                       headers={"Authorization": f"Bearer {table.join(0, 'Cy')}", **CSRF}).status_code == 403
    assert client.post("/api/players/rename", json={"old": "Ben", "new": "B"},
                       headers={"Authorization": host["Authorization"]}).status_code == 403  # no CSRF header
    assert client.post("/api/players/rename", json={"old": "Nobody", "new": "B"}, headers=host).status_code == 404
    assert client.post("/api/players/rename", json={"old": "Ben", "new": "\n"}, headers=host).status_code == 400
    assert client.post("/api/players/rename", json={"old": "Ben"}, headers=host).status_code == 400
    assert client.get("/api/plays").get_json() == before


def test_the_host_deletes_a_play(client, host, three_plays):
    first, second, third = (p["id"] for p in client.get("/api/plays").get_json()["plays"])
    assert client.delete(f"/api/plays/{second}", headers=CSRF).status_code == 401
    assert client.delete(f"/api/plays/{second}", headers=host).get_json() == {"deleted": second}
    assert [p["id"] for p in client.get("/api/plays").get_json()["plays"]] == [first, third]
    assert client.delete(f"/api/plays/{second}", headers=host).status_code == 404


def test_the_csv_export(client, three_plays):
    answer = client.get("/api/plays.csv?game=swap5")
    assert answer.mimetype == "text/csv" and answer.headers["Content-Disposition"] == 'attachment; filename="plays.csv"'
    lines = answer.get_data().decode("utf-8").splitlines()
    assert lines[0] == ("\ufeffplay_id,date,game,duration_min,player,seat,start_player,score,rank,winner,bot,occupants,"
                        "turns,turn_seconds,longest_turn_seconds")
    assert len(lines) == 1 + 4 and {line.split(",")[4] for line in lines[1:]} == {"ＡＫＩ", "あき", "Ben"}
    assert client.get("/api/plays.csv?game=chess").status_code == 404


def test_an_abandoned_play_has_no_bgstats_link(client, table):
    play(table, "swap5", ["Aki", "Ben"], seed=1, moves=1)
    table.start_game("swap5", 2)
    (abandoned,) = client.get("/api/plays").get_json()["plays"]
    assert client.get(f"/api/plays/{abandoned['id']}").get_json()["bgstats_url"] is None

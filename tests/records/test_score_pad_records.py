"""The score pad's plays in the records (issue 36, point 2): kept under the game the players
named, not "Score pad", in the plays, the statistics and BG Stats; every correction kept
with who made it and when; undo as for any game; the names used before offered back."""

from __future__ import annotations

from datetime import timezone

import pytest

from companion.records.exports import bgstats_payload, plays_csv
from companion.records.stats import stats
from companion.table import Conflict

CATAN = {"name": "Catan", "wins": "highest"}


def add(seat, points):
    return {"type": "add", "seat": seat, "points": points}


def act(table, seat, action):
    table.act(seat, action, table.version)


def pad(table, names, options=CATAN, scores=((0, 10), (1, 5))):
    """A score pad for ``names`` naming ``options``' game, round 1 scored as ``scores``."""
    if any(table.names()):
        table.free_all_seats()
    table.start_game("score-pad", len(names), seed=1, options=dict(options))
    for seat, name in enumerate(names):
        table.join(seat, name)
    for seat, points in scores:
        act(table, 0, add(seat, points))


def test_a_play_is_kept_under_the_game_named_with_its_totals_and_winner(table, records):
    pad(table, ["Aki", "Ben"])
    act(table, 1, {"type": "next-round"})
    act(table, 1, add(1, 10))
    act(table, 1, {"type": "finish"})
    (kept,) = records.plays()
    assert kept["game"] == "score-pad" and kept["title"] == {"en": "Catan", "ja": "Catan"}
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in kept["players"]] == [
        ("Aki", 10, 2, False), ("Ben", 15, 1, True)]
    assert kept["players"][0]["start_player"] and not kept["players"][1]["start_player"]
    assert kept["summary"]["en"] == "Ben wins with 15 points after 2 rounds (highest total wins)."
    assert "Catan" in plays_csv(records.plays(), timezone.utc)
    assert table.public()["history"][0]["title"]["en"] == "Catan"


def test_bgstats_gets_the_game_named_and_which_way_it_counts(table, records):
    pad(table, ["Aki", "Ben"], {"name": "Ｃａｔａｎ", "wins": "lowest"})
    act(table, 0, {"type": "finish"})
    payload = bgstats_payload(records.plays()[0], timezone.utc)
    assert payload["game"] == {"name": "Ｃａｔａｎ", "sourceGameId": "score-pad:catan", "highestWins": False,
                               "noPoints": False}
    assert [(p["name"], p["score"], p["winner"]) for p in payload["players"]] == [("Aki", 10, False), ("Ben", 5, True)]


def test_the_statistics_count_each_game_named_as_a_board_game_of_its_own(table, records):
    pad(table, ["Aki", "Ben"])
    act(table, 0, {"type": "finish"})
    pad(table, ["Aki", "Ben"], {"name": "CATAN", "wins": "highest"})  # the same game, typed otherwise
    act(table, 0, {"type": "finish"})
    pad(table, ["Aki", "Ben"], {"name": "Hanabi", "wins": "highest"})
    act(table, 0, {"type": "finish"})
    counted = stats(records.outcomes())
    by_box = {entry["box"]: entry for entry in counted["games"]}
    assert set(by_box) == {"score-pad:catan", "score-pad:hanabi"}
    assert by_box["score-pad:catan"]["plays"] == 2 and by_box["score-pad:catan"]["title"]["en"] == "CATAN"
    assert by_box["score-pad:hanabi"]["plays"] == 1
    assert counted["h_index"] == 1  # two board games, played 2 and 1 times
    aki = next(player for player in counted["players"] if player["name"] == "Aki")
    assert aki["plays"] == 3 and aki["wins"] == 3 and aki["h_index"] == 1


def test_every_correction_is_kept_with_who_made_it_and_when(table, records):
    pad(table, ["Aki", "Ben", "Cy"])
    act(table, 0, {"type": "next-round"})
    act(table, 2, {"type": "open", "round": 0})
    act(table, 2, add(1, 5))
    act(table, 2, add(1, 1))
    act(table, 0, add(1, -1))
    act(table, 0, {"type": "finish"})
    play = records.play(records.plays()[0]["id"])
    corrections = [(c["round"], c["seat"], c["old"], c["new"], c["by"], c["name"]) for c in play["corrections"]]
    assert corrections == [(0, 1, 5, 11, 2, "Cy"), (0, 1, 11, 10, 0, "Aki")]
    times = {a["n"]: a["at"] for a in play["actions"]}
    assert play["corrections"][0]["at"] == times[6] and play["corrections"][1]["at"] == times[7]
    texts = [text["en"] for action in play["actions"] for text in action["text"]]
    assert "Cy corrects Ben's round 1: 5 → 11" in texts and "Aki corrects Ben's round 1: 11 → 10" in texts


def test_a_correction_taken_back_is_no_longer_kept(table, records):
    pad(table, ["Aki", "Ben"])
    act(table, 0, {"type": "next-round"})
    act(table, 1, {"type": "open", "round": 0})
    act(table, 1, add(0, -5))
    table.undo()
    assert table.view(None)["public"]["corrections"] == [] and table.view(None)["public"]["rounds"][0] == [10, 5]
    act(table, 1, add(0, -1))
    act(table, 1, {"type": "finish"})
    play = records.play(records.plays()[0]["id"])
    assert [(c["old"], c["new"]) for c in play["corrections"]] == [(10, 9)]
    in_force = [a for a in play["actions"] if not a["undone"]]
    assert play["corrections"][0]["at"] == in_force[play["corrections"][0]["v"] - 1]["at"]


def test_the_end_is_taken_back_as_in_any_game(table):
    pad(table, ["Aki", "Ben"])
    act(table, 0, {"type": "finish"})
    table.undo()
    assert not table.view(None)["over"]
    act(table, 0, add(1, 10))
    act(table, 0, {"type": "finish"})
    assert table.view(None)["result"]["winners"] == [1]


def test_the_names_used_before_come_back_most_recent_first(table, records):
    assert records.used_before() == {"players": [], "options": {}}
    pad(table, ["Aki", "Ben"])
    act(table, 0, {"type": "finish"})
    pad(table, ["Cy", "aki"], {"name": "Hanabi", "wins": "highest"})
    act(table, 0, {"type": "finish"})
    pad(table, ["Dee", "Eve"], {"name": "", "wins": "highest"})  # unnamed: no name to offer
    act(table, 0, {"type": "finish"})
    table.start_game("swap5", 2)  # a play of another game, abandoned with no move: not a play
    used = records.used_before()
    assert used["players"] == ["Dee", "Eve", "Cy", "aki", "Ben"]
    assert used["options"] == {"score-pad": {"name": ["Hanabi", "Catan"]}}


def test_a_bot_is_never_offered_as_a_name(table, records):
    table.start_game("swap5", 2, seed=1)
    table.join(0, "Aki")
    table.join(1, "Bot", bot="normal")
    table.act(0, table.view(0)["actions"][0], table.version)
    table.start_game("swap5", 2)  # abandons it after a move: a play
    assert records.used_before()["players"] == ["Aki"]


def test_a_finished_game_whose_moves_were_shown_cannot_be_taken_back(table, records):
    pad(table, ["Aki", "Ben"])
    act(table, 0, {"type": "finish"})
    records.play(records.plays()[0]["id"])
    with pytest.raises(Conflict):
        table.undo()


def test_the_turn_marker_times_each_turn_and_the_records_keep_it(table, records):
    """In a game the companion does not know, a tap on "Next player" ends a turn: the turn
    clock follows the pad's turn marker, and the play keeps each turn's time."""
    from companion.clock import TurnClock

    class Time:
        now = 0.0

        def __call__(self):
            return self.now

    time = Time()
    pad(table, ["Aki", "Ben"], scores=())
    clock = TurnClock(table, clock=time)
    time.now = 30
    act(table, 1, add(0, 5))  # a score written meanwhile ends nobody's turn
    assert [seat["turn"] for seat in clock.view()["seats"]] == [30.0, None]
    act(table, 1, {"type": "pass"})  # Aki's turn ends, Ben's begins
    time.now = 50
    act(table, 0, {"type": "pass"})
    time.now = 55
    act(table, 0, {"type": "finish"})
    played = records.plays()[0]["players"]
    assert [p["turn_time"] for p in played] == [{"turns": 2, "seconds": 35.0, "longest": 30.0},
                                                {"turns": 1, "seconds": 20.0, "longest": 20.0}]


def test_offered_and_kept_everywhere_a_game_is_under_the_name_typed(client, table):
    """As the fifth game of tests/test_a_fifth_game.py is: started from a phone with its name
    typed, played through the API, then in the plays, the statistics, the CSV and BG Stats
    under that name; the name comes back, one tap the next time; a bad one is refused."""
    import csv
    import io
    import json
    from urllib.parse import unquote

    from .conftest import CSRF

    offered = {game["id"]: game for game in client.get("/api/table").get_json()["offered_games"]}
    asked = {option["name"]: option["asked"] for option in offered["score-pad"]["options"]}
    assert asked == {"name": True, "wins": True}
    started = client.post("/api/game", json={"game": "score-pad", "players": 2,
                                             "options": {"name": "Azul", "wins": "highest"}}, headers=CSRF)
    assert started.status_code == 200, started.get_json()
    assert client.post("/api/seats/0/join", json={"name": "Aki"}, headers=CSRF).status_code == 200
    table.join(1, "Ben")
    for action in ({"type": "add", "seat": 0, "points": 10}, {"type": "pass"}, {"type": "finish"}):
        answer = client.post("/api/actions", json={"action": action, "version": table.version}, headers=CSRF)
        assert answer.status_code == 200, answer.get_json()
    plays = client.get("/api/plays?game=score-pad").get_json()["plays"]
    assert len(plays) == 1 and plays[0]["title"] == {"en": "Azul", "ja": "Azul"}
    stats = client.get("/api/stats").get_json()
    assert [(entry["game"], entry["box"], entry["title"]["en"]) for entry in stats["games"]] == [
        ("score-pad", "score-pad:azul", "Azul")]
    rows = list(csv.DictReader(io.StringIO(client.get("/api/plays.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert {row["game"] for row in rows} == {"Azul"} and [row["score"] for row in rows] == ["10", "0"]
    link = client.get(f"/api/plays/{plays[0]['id']}").get_json()["bgstats_url"]
    payload = json.loads(unquote(link.split("data=", 1)[1]))
    assert payload["game"]["name"] == "Azul" and payload["game"]["sourceGameId"] == "score-pad:azul"
    assert client.get("/api/used-before").get_json() == {"players": ["Aki", "Ben"],
                                                        "options": {"score-pad": {"name": ["Azul"]}}}
    refused = client.post("/api/game", json={"game": "score-pad", "players": 2, "options": {"name": " Azul"}},
                          headers=CSRF)
    assert refused.status_code == 400 and "must not begin or end with a space" in refused.get_json()["error"]
    assert refused.get_json()["error_ja"] == "ゲーム名の最初と最後に空白は入れられません"

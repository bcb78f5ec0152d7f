"""Replays: the stored log replayed with the engine equals what the table showed live, at every step."""

from __future__ import annotations

import random

import pytest

from companion import games


MOVES = 40
"""Moves played per game: enough to deal, play, score and take back (a whole random game
can run to hundreds of saved moves); a game still going is then abandoned, still a play."""


@pytest.mark.parametrize("game_id", games.ids())
def test_every_step_of_a_replay_equals_the_live_views(table, records, game_id):
    game = games.get(game_id)
    players = game.player_counts[0]
    table.start_game(game_id, players, seed=5)
    for seat in range(players):
        table.join(seat, f"P{seat}")
    chooser = random.Random(5)

    def seen() -> tuple[dict, dict]:
        state = table.state()
        return game.view(state, None), {str(s): game.view(state, s)["private"] for s in range(players)}

    live, undone = [seen()], False
    while not game.is_over(table.state()) and len(live) <= MOVES:
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
        live.append(seen())
        if len(live) == 3 and not undone:  # a move taken back is not replayed
            table.undo()
            live.pop()
            undone = True
    if not game.is_over(table.state()):
        table.start_game("swap5", 2)  # abandoned after its moves: a play too
    (recorded,) = records.plays()
    for step, (view, hands) in enumerate(live):
        replayed = records.replay(recorded["id"], step)
        assert (replayed["view"], replayed["hands"]) == (view, hands), step
        assert replayed["steps"] == len(live) - 1 and replayed["names"] == [f"P{s}" for s in range(players)]


def test_the_replay_route_and_its_refusals(client, table):
    from .conftest import play

    play(table, "swap5", ["Aki", "Ben"], seed=3)
    play_id = client.get("/api/plays").get_json()["plays"][0]["id"]
    last = client.get(f"/api/plays/{play_id}/replay").get_json()["steps"]
    answer = client.get(f"/api/plays/{play_id}/replay?step={last}").get_json()
    assert answer["step"] == last and answer["view"]["over"] is True and set(answer["hands"]) == {"0", "1"}
    for bad in (last + 1, "x", "-1"):
        assert client.get(f"/api/plays/{play_id}/replay?step={bad}").status_code == 400
    assert client.get("/api/plays/999/replay?step=0").status_code == 404


@pytest.mark.parametrize("opened", ["/api/plays/{id}/replay?step=0", "/api/plays/{id}", "/replay/{id}"])
def test_a_finished_game_whose_hands_were_served_cannot_be_reopened(client, table, host, opened):
    """Issue 23 point 4: once the replay (or the moves) of the table's finished game was served,
    an undo would make what everyone may have seen secret again; it is refused, in both languages."""
    from .conftest import play, play_on

    play(table, "swap5", ["Aki", "Ben"], seed=3)
    play_id = client.get("/api/plays").get_json()["plays"][0]["id"]
    assert client.post("/api/undo", json={}, headers=host).status_code == 200  # nobody has looked yet: reopened
    assert client.get(f"/api/plays/{play_id}/replay").status_code == 404  # a game being played has no replay
    play_on(table)
    assert client.get(opened.format(id=play_id)).status_code == 200
    refused = client.post("/api/undo", json={}, headers=host)
    assert refused.status_code == 409
    body = refused.get_json()
    assert "replay" in body["error"] and "リプレイ" in body["error_ja"]
    assert games.get("swap5").is_over(table.state())
    assert client.get(f"/api/plays/{play_id}/replay").status_code == 200  # still a play, its hands as they were


def test_a_result_shown_with_its_bg_stats_link_leaves_the_end_undoable(client, table, host):
    """What a phone showing the result asks (the play without its moves, its BG Stats link) and
    the records' list give no hand away: the host can still take the last move back, and the
    next end has a link of its own. Only the replay (or the moves) then closes the undo."""
    from .conftest import play, play_on

    play(table, "swap5", ["Aki", "Ben"], seed=3)
    play_id = table.view(None)["play_id"]
    shown = client.get(f"/api/plays/{play_id}/result").get_json()
    assert "actions" not in shown and shown["bgstats_url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert shown["players"] == client.get("/api/plays").get_json()["plays"][0]["players"]
    assert client.get("/records").status_code == 200
    assert client.post("/api/undo", json={}, headers=host).status_code == 200
    assert client.get(f"/api/plays/{play_id}/result").status_code == 404  # being played again: no result
    play_on(table)
    again = client.get(f"/api/plays/{play_id}/result").get_json()
    scores = table.view(None)["result"]["scores"]
    assert [player["score"] for player in again["players"]] == [scores["0"], scores["1"]]
    assert client.post("/api/undo", json={}, headers=host).status_code == 200  # asked twice, still undoable
    play_on(table)
    assert client.get(f"/api/plays/{play_id}/replay").status_code == 200
    assert client.post("/api/undo", json={}, headers=host).status_code == 409


def test_a_reopened_game_serves_no_replay(client, table, host):
    """The other order: the undo came first, so the game is being played again and nothing is served."""
    from .conftest import play

    play(table, "swap5", ["Aki", "Ben"], seed=4)
    play_id = client.get("/api/plays").get_json()["plays"][0]["id"]
    assert client.post("/api/undo", json={}, headers=host).status_code == 200
    for route in (f"/api/plays/{play_id}/replay", f"/api/plays/{play_id}"):
        assert client.get(route).status_code == 404



def test_a_persons_move_taken_back_with_the_bots_replies_is_not_replayed(table, records):
    """Issue 33: one undo takes back Aki's move and the three bots' replies; the replay skips all four."""
    game = games.get("swap5")
    table.start_game("swap5", 4, seed=1)
    table.join(0, "Aki")
    for seat in (1, 2, 3):
        table.join(seat, f"Bot {seat + 1} (Normal)", bot="normal")

    def move():
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)

    live = [game.view(table.state(), None)]
    for _ in range(4):
        move()
        live.append(game.view(table.state(), None))
    for _ in range(4):
        move()
    table.undo(by=0)
    assert sum(a["undone"] for a in table.action_log()) == 4
    move()
    live.append(game.view(table.state(), None))
    table.start_game("swap5", 2)  # abandoned after its moves: a play
    (recorded,) = records.plays()
    assert records.replay(recorded["id"], 0)["steps"] == len(live) - 1
    for step, view in enumerate(live):
        assert records.replay(recorded["id"], step)["view"] == view, step

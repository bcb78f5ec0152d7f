"""Issue 10 through the API: rematch, leaving a seat, freeing every seat, the whole log with
undo's entry, a freed phone told why, and refusals in both languages."""

from __future__ import annotations

import random

from companion.games import IllegalAction


def refused(response, status, reason=None):
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    body = response.json
    assert body["error"] and body["error_ja"]
    if reason:
        assert body.get("reason") == reason, body
    return body


def play_to_the_end(table, seed=4):
    chooser = random.Random(seed)
    while not table.view(None)["over"]:
        seat = chooser.choice(table.view(None)["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)


def test_a_rematch_is_the_hosts_and_only_of_a_finished_game(api, table, seated):
    host, tokens = seated
    version = table.version
    refused(api.post("/api/rematch", {}, token=tokens[0]), 403)
    refused(api.post("/api/rematch", {}, token=host), 409)
    assert table.version == version
    play_to_the_end(table)
    old_seed = table.state()["seed"]
    answer = api.post("/api/rematch", {}, token=host)
    assert answer.status_code == 200, answer.json
    assert answer.json["game"]["id"] == "swap5" and not answer.json["game"]["over"] and answer.json["join_url"]
    assert answer.json["history"][0]["result"] is not None
    assert table.state()["seed"] != old_seed
    for seat, token in enumerate(tokens):
        assert api.get("/api/view", token=token).json["seat"] == seat
    assert api.get("/api/me", token=host).json["host"] is True


def test_a_player_leaves_their_own_seat_only(api, table, seated):
    host, tokens = seated
    refused(api.post("/api/seats/1/leave", {}, token=tokens[0]), 403)
    refused(api.post("/api/seats/1/leave", {}), 401)
    refused(api.post("/api/seats/1/leave", {}, token=host), 403)
    answer = api.post("/api/seats/1/leave", {}, token=tokens[1])
    assert answer.status_code == 200 and answer.json["seats"][1]["taken"] is False
    assert table.names() == ["Aki", None]
    refused(api.get("/api/view", token=tokens[1]), 401, "seat_freed")


def test_leaving_by_cookie_drops_the_seat_cookie_but_a_host_keeps_hosting(api, client, table):
    api.post("/api/game", {"game": "swap5", "players": 2, "seed": 4})  # the cookie client hosts
    api.post("/api/seats/0/join", {"name": "Aki"})
    host_token = client.get_cookie("host_token").value
    seat_token = client.get_cookie("seat_token").value
    table.hand_over_host(0)  # now the seat token is the host token
    assert api.post("/api/seats/0/leave", {}).status_code == 200
    assert client.get_cookie("seat_token") is None and client.get_cookie("host_token").value == seat_token
    assert table.is_host(seat_token) and not table.is_host(host_token)
    assert api.get("/api/me").json["host"] is True
    assert api.get("/api/view").json["seat"] is None


def test_the_host_frees_every_seat_and_keeps_hosting(api, table, seated):
    host, tokens = seated
    refused(api.post("/api/seats/free-all", {}, token=tokens[0]), 403)
    answer = api.post("/api/seats/free-all", {}, token=host)
    assert answer.status_code == 200 and not any(seat["taken"] for seat in answer.json["seats"])
    for token in tokens:
        refused(api.get("/api/view", token=token), 401, "seat_freed")
    refused(api.post("/api/seats/free-all", {}, token=host), 409)
    assert api.get("/api/me", token=host).json["host"] is True


def test_a_freed_seat_cookie_is_told_seat_freed_and_a_visitor_is_not(api, client, table, seated):
    host, tokens = seated
    client.set_cookie("seat_token", tokens[0])
    assert api.get("/api/view").json["seat"] == 0
    table.free_seat(0)
    body = refused(api.get("/api/view"), 401, "seat_freed")
    assert body["error_ja"] != body["error"]
    refused(api.get("/api/log"), 401, "seat_freed")
    client.delete_cookie("seat_token")
    assert api.get("/api/view").json["seat"] is None  # no cookie at all: the public view


def test_the_whole_log_answers_by_the_seat_and_undo_names_the_hosts_seat(api, client, table, seated):
    host, tokens = seated
    table.hand_over_host(1)
    seat = table.view(None)["to_act"][0]
    move = next(a for a in table.view(seat)["actions"] if a["type"] == "swap")
    assert api.post("/api/actions", {"action": move, "version": table.version}, token=tokens[seat]).status_code == 200
    assert api.post("/api/undo", {}, token=tokens[1]).status_code == 200
    whole = api.get("/api/log", token=tokens[0]).json["log"]
    assert whole == table.log(0)
    undone, undo = whole[-2:]
    assert undone["undone"] is True and undo["kind"] == "undo"
    assert undo["text"]["en"] == "{s1} took back: " + undone["text"]["en"]
    assert api.get("/api/view", token=tokens[0]).json["log"] == whole[-15:]
    assert api.get("/api/log").json["log"] == table.log(None)
    refused(api.get("/api/log", token="forged-" + "x" * 40), 401)


def test_the_log_of_an_idle_table_is_not_found(api):
    assert "no game has been started" in refused(api.get("/api/log"), 404)["error"]


def test_an_engine_refusal_names_seats_and_carries_both_texts(api, table, seated, monkeypatch):
    """Engines name seats with placeholders in refusals too, in both languages."""
    host, tokens = seated
    refusal = IllegalAction("{s0} chooses first", "{s0}が先に選びます")

    def refuse(*_):
        raise refusal
    monkeypatch.setattr(table, "act", refuse)
    body = refused(api.post("/api/actions", {"action": {"type": "pass"}, "version": table.version}, token=tokens[1]), 422)
    assert body["error"] == "Aki chooses first"
    assert body["error_ja"] == "Akiが先に選びます"

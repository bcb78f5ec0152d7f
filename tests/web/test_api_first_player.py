"""POST /api/first-player: who starts, drawn by a seated player or the host, refused in both
languages to a stranger, a second time and after the first move."""

from __future__ import annotations


def test_a_seated_player_draws_and_the_answer_names_who_starts(api, table, seated):
    _, tokens = seated
    answer = api.post("/api/first-player", {}, token=tokens[1])
    assert answer.status_code == 200, answer.json
    first = answer.json["options"]["first_player"]
    assert first in (0, 1) and answer.json["seat"] == 1
    assert answer.json["to_act"] == [first]
    assert answer.json["log"][-1]["kind"] == "first-player"
    assert api.get("/api/view", token=tokens[0]).json["public"]["start_seat"] == first


def test_the_host_without_a_seat_may_draw(api, table, seated):
    host, _ = seated
    answer = api.post("/api/first-player", {}, token=host)
    assert answer.status_code == 200 and answer.json["seat"] is None


def test_a_stranger_is_refused(api, table, seated):
    answer = api.post("/api/first-player", {})
    assert answer.status_code == 401
    assert "first_player" not in table.state()["options"]


def test_a_second_draw_and_a_draw_after_a_move_are_refused_in_both_languages(api, table, seated):
    _, tokens = seated
    api.post("/api/first-player", {}, token=tokens[0])
    again = api.post("/api/first-player", {}, token=tokens[1])
    assert again.status_code == 409 and again.json["error"].startswith("who starts is settled already")
    assert again.json["error_ja"].startswith("最初の手番はもう決まっています")

    table.start_game("swap5", 2, seed=4)  # the same seats play on
    view = table.view(0)
    table.act(0, view["actions"][0], view["version"])
    late = api.post("/api/first-player", {}, token=tokens[0])
    assert late.status_code == 409 and "a move has been made" in late.json["error"]


def test_a_body_with_fields_is_refused(api, table, seated):
    _, tokens = seated
    assert api.post("/api/first-player", {"seat": 0}, token=tokens[0]).status_code == 400
    assert "first_player" not in table.state()["options"]

"""POST /api/first-player: who starts, drawn by a seated player or the host, refused in both
languages to a stranger, a second time and after the first move."""

from __future__ import annotations

import random


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


# ---------------------------------------------------------------- drawn on the start form


def test_a_game_started_with_the_draw_names_who_starts_from_its_first_version(api, table):
    """A bot on the drawn seat (or on seat 1) can only ever see the game with the draw made."""
    answer = api.post("/api/game", {"game": "swap5", "players": 4, "first_player": "draw"})
    assert answer.status_code == 200, answer.json
    first = table.state()["options"]["first_player"]
    assert first in range(4)
    view = api.get("/api/view").json
    assert view["to_act"] == [first] and view["log"][-1]["kind"] == "first-player"


def test_the_start_forms_draw_takes_only_draw_and_not_beside_a_chosen_seat(api, table):
    wrong = api.post("/api/game", {"game": "swap5", "players": 2, "first_player": 1})
    assert wrong.status_code == 400 and 'a chosen seat goes in "options"' in wrong.json["error"]
    both = api.post("/api/game", {"game": "swap5", "players": 2, "first_player": "draw", "options": {"first_player": 1}})
    assert both.status_code == 409 and "draw or choose, not both" in both.json["error"]
    assert table.game_id is None


def test_play_again_after_a_drawn_start_draws_again(api, table):
    host = api.post("/api/game", {"game": "swap5", "players": 2, "seed": 4, "first_player": "draw"}).json["host_token"]
    chooser = random.Random(0)  # the first action each time can go round in circles
    while not table.view(None)["over"]:
        seat = table.view(None)["to_act"][0]
        view = table.view(seat)
        table.act(seat, chooser.choice(view["actions"]), view["version"])
    again = api.post("/api/rematch", {}, token=host)
    assert again.status_code == 200, again.json
    assert "first_player" in table.state()["options"]
    assert api.get("/api/view").json["log"][-1]["kind"] == "first-player"


def test_a_draw_with_options_that_are_no_object_is_refused_by_the_game(api, table):
    answer = api.post("/api/game", {"game": "swap5", "players": 2, "first_player": "draw", "options": "first_player"})
    assert answer.status_code == 400 and "draw or choose" not in answer.json["error"]
    assert table.game_id is None

"""The turn clock's routes: every view carries the clock; anyone at the table pauses, resumes
and sets the target; the host's phone holds it while asking a question; bad requests change nothing."""

from __future__ import annotations


def swap5_with_two_players(api, table):
    host = table.claim_host()
    table.start_game("swap5", 2, seed=42)
    return host, table.join(0, "Aki"), table.join(1, "Ben")


def test_every_view_carries_the_clock(api, table):
    _, aki, _ = swap5_with_two_players(api, table)
    waited = table.view(None)["waiting_for"][0]
    for answer in (api.get("/api/view", token=aki).json, api.get("/api/table").json["view"]):
        clock = answer["clock"]
        assert clock["running"] and clock["why"] is None and clock["target"] is None
        assert [seat["turn"] is not None for seat in clock["seats"]] == [seat == waited for seat in range(2)]
    view = api.get("/api/view", token=aki).json
    if waited == 0:
        moved = api.post("/api/actions", {"action": view["actions"][0], "version": view["version"]}, token=aki).json
        assert moved["clock"]["seats"][0]["turn"] is None and moved["clock"]["seats"][1]["turn"] is not None


def test_a_seated_player_pauses_and_another_resumes(api, table):
    _, aki, ben = swap5_with_two_players(api, table)
    version = table.version
    answer = api.post("/api/clock", {"paused": True}, token=aki)
    assert answer.status_code == 200 and answer.json["clock"]["why"] == "paused"
    assert table.version == version + 1
    assert api.post("/api/clock", {"paused": True}, token=ben).json["clock"]["paused"]  # at once: still paused
    assert table.version == version + 1
    answer = api.post("/api/clock", {"paused": False}, token=ben).json["clock"]
    assert not answer["paused"] and answer["running"]


def test_the_target_is_set_by_anyone_at_the_table(api, table):
    _, aki, _ = swap5_with_two_players(api, table)
    assert api.post("/api/clock", {"target": 60}, token=aki).json["clock"]["target"] == 60
    assert api.post("/api/clock", {"target": None}, token=aki).json["clock"]["target"] is None


def test_bad_clock_requests_are_refused_and_change_nothing(api, table):
    _, aki, _ = swap5_with_two_players(api, table)
    api.forget_cookies()
    version = table.version
    assert api.post("/api/clock", {"paused": True}).status_code == 401  # a visitor is not at the table
    assert api.post("/api/clock", {"paused": "yes"}, token=aki).status_code == 400
    assert api.post("/api/clock", {}, token=aki).status_code == 400
    assert api.post("/api/clock", {"target": 45}, token=aki).status_code == 400
    assert api.post("/api/clock", {"target": 30, "paused": 1}, token=aki).status_code == 400
    assert api.post("/api/clock", {"speed": 2}, token=aki).status_code == 400
    assert table.version == version
    assert api.get("/api/view", token=aki).json["clock"]["target"] is None


def test_the_hosts_question_holds_the_clock_until_answered(api, table):
    host, aki, _ = swap5_with_two_players(api, table)
    assert api.post("/api/clock/question", {"open": True}, token=aki).status_code == 403  # the host's question
    assert api.post("/api/clock/question", {"open": True}, token=host).json["clock"]["why"] == "question"
    assert api.get("/api/view", token=aki).json["clock"]["why"] == "question"
    assert api.post("/api/clock/question", {"open": False}, token=host).json["clock"]["running"]
    assert api.post("/api/clock/question", {"open": "no"}, token=host).status_code == 400

"""Hosting never lapses while its holder is there, whatever happens to their seat."""

import pytest


@pytest.fixture
def browsers(app, api):
    """Three phones, each with its own cookies: the first host, Bea (who gets hosting), a stranger.
    Each speaks like a page, as the ``api`` fixture does."""
    return [api, type(api)(app.test_client()), type(api)(app.test_client())]


def test_a_handed_over_host_keeps_hosting_through_a_smaller_game_a_freed_seat_and_a_new_seat(browsers):
    first, bea, stranger = browsers
    assert first.post("/api/game", {"game": "meow-oracle", "players": 3, "seed": 1}).status_code == 200
    assert bea.post("/api/seats/2/join", {"name": "Bea"}).status_code == 200
    assert first.post("/api/seats/0/join", {"name": "Ann"}).status_code == 200
    assert first.post("/api/host/hand-over", {"seat": 2}).json["host"] == {"exists": True, "seat": 2, "present": True}

    assert bea.post("/api/game", {"game": "meow-oracle", "players": 2, "seed": 1}).status_code == 200
    table = stranger.get("/api/table").json
    assert table["host"] == {"exists": True, "seat": None, "present": True} and [s["taken"] for s in table["seats"]] == [True, False]
    assert stranger.post("/api/host/claim").status_code == 403
    assert stranger.post("/api/seats/0/free").status_code == 401
    assert first.post("/api/seats/1/free").status_code == 403, "the old host's rights are gone"
    assert bea.get("/api/me").json["host"] is True

    assert bea.post("/api/seats/1/join", {"name": "Bea"}).status_code == 200  # her old seat token leaves the seat cookie
    me = bea.get("/api/me").json
    assert me["seat"] == 1 and me["host"] is True
    assert bea.post("/api/seats/1/free").status_code == 200, "a host may free their own seat"
    assert bea.get("/api/me").json["host"] is True
    assert bea.post("/api/seats/0/free").status_code == 200


# ---------------------------------------------------------------- issue 33: never without a host


class Clock:
    """The clock presence is judged by (companion/presence.py): moved by hand."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def people_and_a_bot(api, table):
    """Aki hosts on seat 0, Bo sits on seat 1, a bot on seat 2: the tokens of Aki and Bo."""
    aki_host = api.post("/api/game", {"game": "lion-square", "players": 3, "seed": 1}).json["host_token"]
    aki = api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
    api.forget_cookies()
    bo = api.post("/api/seats/1/join", {"name": "Bo"}).json["token"]
    api.forget_cookies()
    table.join(2, "Bot 3 (Normal)", bot="normal")
    assert api.post("/api/host/hand-over", {"seat": 0}, token=aki_host).status_code == 200
    return aki, bo


def test_hosting_handed_to_a_bot_is_refused_in_plain_words(api, table):
    aki, _ = people_and_a_bot(api, table)
    version = table.version
    response = api.post("/api/host/hand-over", {"seat": 2}, token=aki)
    assert response.status_code == 409 and response.json["error"] == "seat 3 is a bot: hosting can only go to a person"
    assert response.json["error_ja"] == "3番の席はボットです。ホストは人にしか譲れません"
    assert table.version == version and table.is_host(aki)


@pytest.fixture
def clocked(table, api):
    """An app whose presence runs on a clock the test moves, with a client speaking like a
    page (the ``api`` fixture's kind: ``tests/hardware`` has a conftest of its own to import)."""
    from web import create_app

    clock = Clock()
    app = create_app(table, keepalive_seconds=0.2, stream_seconds=2.0, clock=clock)
    yield type(api)(app.test_client()), app.extensions["companion"].presence, clock
    app.extensions["companion"].events.stop()


def test_a_seated_person_takes_hosting_in_one_tap_when_the_host_is_gone(clocked, table):
    api, presence, clock = clocked
    aki, bo = people_and_a_bot(api, table)
    presence.arrive([aki])
    clock.now += 120
    response = api.post("/api/host/claim", token=bo)
    assert response.status_code == 409 and "the host is here" in response.json["error"]
    assert api.get("/api/view", token=bo).json["host"] == {"exists": True, "seat": 0, "present": True}
    presence.leave([aki])
    clock.now += 60
    assert api.get("/api/view", token=bo).json["host"] == {"exists": True, "seat": 0, "present": False}
    response = api.post("/api/host/claim", token=bo)
    assert response.status_code == 200 and response.json["host_token"] == bo
    assert table.is_host(bo) and not table.is_host(aki)
    assert api.get("/api/view", token=bo).json["host"]["seat"] == 1
    assert api.post("/api/host/claim", token=bo).status_code == 409, "Bo hosts already"


def test_a_host_who_leaves_their_seat_hands_hosting_to_a_person_present(clocked, table):
    api, presence, clock = clocked
    aki, bo = people_and_a_bot(api, table)
    presence.arrive([bo])
    assert api.post("/api/seats/0/leave", token=aki).status_code == 200
    assert table.is_host(bo) and table.host_seat == 1


def test_a_host_who_frees_their_own_seat_with_nobody_present_stays_host(clocked, table):
    api, presence, clock = clocked
    aki, bo = people_and_a_bot(api, table)
    assert api.post("/api/seats/0/free", token=aki).status_code == 200
    assert table.is_host(aki) and table.host_seat is None, "nobody's phone follows the table: nobody to give it to"

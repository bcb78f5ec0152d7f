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
    assert first.post("/api/host/hand-over", {"seat": 2}).json["host"] == {"exists": True, "seat": 2}

    assert bea.post("/api/game", {"game": "meow-oracle", "players": 2, "seed": 1}).status_code == 200
    table = stranger.get("/api/table").json
    assert table["host"] == {"exists": True, "seat": None} and [s["taken"] for s in table["seats"]] == [True, False]
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

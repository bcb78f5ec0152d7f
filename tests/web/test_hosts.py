"""Requests for another host name (DNS rebinding) are refused, and seat numbers in paths
are ASCII digits only.

A rebinding page of ``evil.example`` reaches the companion with ``Host`` and ``Origin`` both
``evil.example:8000``, so the Origin check alone lets it through; the Host check must not.
"""

from __future__ import annotations

import pytest

from companion.serve import host_names
from web import create_app
from web.auth import host_allowed

CSRF = {"X-Requested-With": "companion"}
EVIL = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
GAME = {"game": "lion-square", "players": 3, "seed": 7}


def test_a_rebinding_page_cannot_start_a_game_on_a_hostless_table(client, table):
    response = client.post("/api/game", json=GAME, headers={**CSRF, **EVIL})
    assert response.status_code == 400
    assert "another host name" in response.json["error"] and response.json["error_ja"]
    assert table.game_id is None and not table.has_host


def test_a_rebinding_page_cannot_take_a_free_seat(client, table):
    table.start_game("lion-square", 3, seed=1)
    version = table.version
    response = client.post("/api/seats/0/join", json={"name": "Eve"}, headers={**CSRF, **EVIL})
    assert response.status_code == 400
    assert table.version == version and not any(table.names())


def test_a_rebinding_page_reads_nothing_either(client):
    for url in ("/api/table", "/api/view", "/api/events"):
        assert client.get(url, headers=EVIL).status_code == 400


def test_pages_for_another_host_get_a_plain_400_page(client):
    response = client.get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert "another host name" in response.get_data(as_text=True)


def test_the_same_post_by_the_companions_own_name_passes(table):
    app = create_app(table, host_names=["tabletop", "tabletop.local", "localhost"])
    try:
        own = {"Host": "tabletop.local:8000", "Origin": "http://tabletop.local:8000"}
        response = app.test_client().post("/api/game", json=GAME, headers={**CSRF, **own})
        assert response.status_code == 200, response.json
    finally:
        app.extensions["companion"].events.stop()


@pytest.mark.parametrize("host", [
    "tabletop", "tabletop.local", "TableTop.Local:8000", "tabletop.local.", "localhost:80",
    "192.168.1.20", "192.168.1.20:8000", "127.0.0.1", "[::1]:8000", "[fe80::1]",
])
def test_own_names_and_any_ip_address_are_allowed(host):
    assert host_allowed(host, frozenset({"tabletop", "tabletop.local", "localhost"}))


@pytest.mark.parametrize("host", [
    "evil.example", "evil.example:8000", "tabletop.evil.example", "localhost.evil.example", "tabletop.local.evil",
    "192.168.1.20.nip.io", "", "waitress.invalid",
])
def test_other_names_are_refused(host):
    assert not host_allowed(host, frozenset({"tabletop", "tabletop.local", "localhost"}))


def test_serve_gives_the_app_the_machines_names_and_the_public_urls_host(monkeypatch):
    monkeypatch.setattr("socket.gethostname", lambda: "Tabletop.lan")
    names = host_names("0.0.0.0", "http://192.168.1.20:8000/")
    assert {"localhost", "tabletop.lan", "tabletop", "tabletop.local"} <= names
    assert "companion.home" in host_names("companion.home", "http://companion.home:8000/")


@pytest.mark.parametrize("seat", ["１", "١", "¹", "0x1", "+1", "1.0"])
def test_seat_numbers_in_paths_are_ascii_digits_only(client, table, seat):
    table.start_game("lion-square", 3, seed=1)
    response = client.post(f"/api/seats/{seat}/join", json={"name": "Aki"}, headers=CSRF)
    assert response.status_code == 404 and response.json["error"] == "there is no such API route"
    assert not any(table.names())

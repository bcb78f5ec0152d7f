"""The JSON API through Flask's test client: every route, and every way to get it wrong.

Each refusal is checked for its status, its plain-words reason and, where it matters,
that nothing changed (the table's version stays put).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.store import Store
from web import auth


GAME = {"game": "lion-square", "players": 3, "seed": 7}


@pytest.fixture
def host(api):
    """A started 3-player Lion Square; returns the host token."""
    response = api.post("/api/game", GAME)
    assert response.status_code == 200, response.json
    api.forget_cookies()
    return response.json["host_token"]


@pytest.fixture
def seats(api, host):
    """Every seat joined; returns the seat tokens in seat order."""
    tokens = [api.post(f"/api/seats/{n}/join", {"name": f"P{n}"}).json["token"] for n in range(3)]
    api.forget_cookies()
    return tokens


def refused(response, status, *words):
    """Assert a JSON refusal with ``status`` whose reason contains every one of ``words``."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    for word in words:
        assert word in response.json["error"], response.json["error"]
    return response.json


# ---------------------------------------------------------------- reading


def test_ping_is_the_cheapest_answer(api):
    assert api.get("/api/ping").json == {"ok": True}


def test_idle_table_shows_join_url_and_no_game(api, table):
    info = api.get("/api/table").json
    assert info["game"] is None and info["seats"] == [] and info["version"] == table.version
    assert info["join_url"] == f"http://localhost/J/{table.join_code}"
    assert {g["id"] for g in info["offered_games"]} == set(table.offered_games)


def test_public_url_given_to_the_app_is_used_for_join_links(table):
    from web import create_app

    app = create_app(table, public_url="http://192.168.1.20:8000/")
    try:
        assert app.test_client().get("/api/table").json["join_url"] == f"http://192.168.1.20:8000/J/{table.join_code}"
    finally:
        app.extensions["companion"].events.stop()


def test_every_api_answer_forbids_caching_and_referrers(api):
    response = api.get("/api/ping")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert api.get("/api/nowhere").headers["Referrer-Policy"] == "no-referrer"


def test_unknown_route_and_wrong_method_are_json(api):
    refused(api.get("/api/nowhere"), 404, "no such API route")
    refused(api.get("/api/actions"), 405, "method")


def test_view_before_any_game_says_so(api):
    refused(api.get("/api/view"), 404, "no game has been started")


# ---------------------------------------------------------------- starting a game, hosting


def test_starting_on_an_idle_table_makes_the_caller_host_with_a_safe_cookie(api, table):
    response = api.post("/api/game", GAME)
    assert response.status_code == 200
    info = response.json
    assert info["game"]["id"] == "lion-square" and len(info["seats"]) == 3
    assert table.is_host(info["host_token"]) and len(info["host_token"]) >= 40
    assert info["rejoin_url"] == "http://localhost/R/" + info["host_token"]
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"host_token={info['host_token']};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Max-Age=2592000" in cookie and "Secure" not in cookie


def test_only_the_host_starts_a_game_once_there_is_one(api, table, host, seats):
    version = table.version
    refused(api.post("/api/game", GAME), 401, "no token")
    refused(api.post("/api/game", GAME, token=seats[1]), 403, "only the host")
    assert table.version == version
    again = api.post("/api/game", {"game": "lion-square", "players": 4}, token=host)
    assert again.status_code == 200 and "host_token" not in again.json
    assert again.json["game"]["players"] == 4


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "players": 2}, 404, ["does not offer the game 'chess'"]),
        ({"game": "lion-square", "players": 99}, 400, ["3 to", "not 99"]),
        ({"game": "lion-square", "players": "3"}, 400, ["whole number"]),
        ({"game": "lion-square", "players": 3, "seed": -1}, 400, ["seed"]),
        ({"game": "lion-square", "players": 3, "seed": True}, 400, ["seed"]),
        ({"game": "lion-square", "players": 3, "options": {"colour": "red"}}, 400, ["no option 'colour'"]),
        ({"game": "lion-square", "players": 3, "options": [1]}, 400, ["options"]),
        ({"game": ["lion-square"], "players": 3}, 404, ["does not offer"]),
        ({"players": 3}, 400, ["lacks the field game"]),
        ({"game": "lion-square", "players": 3, "host": True}, 400, ["unknown field 'host'"]),
    ],
)
def test_a_refused_start_changes_nothing_not_even_the_host(api, table, body, status, words):
    version = table.version
    refused(api.post("/api/game", body), status, *words)
    assert table.version == version and not table.has_host and table.game_id is None


def test_refused_start_by_the_host_keeps_the_running_game(api, table, host):
    version = table.version
    refused(api.post("/api/game", {"game": "lion-square", "players": 1}, token=host), 400, "not 1")
    assert table.version == version and table.players == 3


def test_claiming_an_idle_table_and_only_once(api, table):
    response = api.post("/api/host/claim")
    assert response.status_code == 200 and table.is_host(response.json["host_token"])
    assert "host_token=" in response.headers["Set-Cookie"]
    refused(api.post("/api/host/claim"), 403, "already has a host")


def test_host_cookie_alone_gives_host_rights(api, table):
    api.post("/api/game", GAME)  # the test client keeps the cookie, like a browser
    assert api.post("/api/game", GAME).status_code == 200


def test_hand_over_moves_host_rights_to_a_seat(api, table, host, seats):
    refused(api.post("/api/host/hand-over", {"seat": 1}, token=seats[0]), 403, "only the host")
    response = api.post("/api/host/hand-over", {"seat": 1}, token=host)
    assert response.status_code == 200 and response.json["host"] == {"exists": True, "seat": 1, "present": True}
    refused(api.post("/api/undo", token=host), 403, "only the host")
    refused(api.post("/api/undo", token=seats[1]), 409, "nothing to undo")  # host now, nothing done yet


def test_hand_over_to_a_free_or_missing_seat_is_refused(api, table, host, seats):
    api.post("/api/seats/2/free", token=host)
    version = table.version
    refused(api.post("/api/host/hand-over", {"seat": 2}, token=host), 409, "seat 3 is free")
    refused(api.post("/api/host/hand-over", {"seat": 7}, token=host), 404, "no seat 7")
    refused(api.post("/api/host/hand-over", {"seat": "1"}, token=host), 400, "a seat is a number")
    assert table.version == version


# ---------------------------------------------------------------- seats


def test_join_gives_a_token_cookie_and_rejoin_link(api, table, host):
    response = api.post("/api/seats/1/join", {"name": "Aki"})
    assert response.status_code == 200
    token = response.json["token"]
    assert response.json["seat"] == 1 and table.seat_of(token) == 1
    assert response.json["rejoin_url"] == f"http://localhost/R/{token}"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"seat_token={token};") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert table.names() == [None, "Aki", None]


def test_a_taken_seat_cannot_be_taken(api, table, host, seats):
    version = table.version
    refused(api.post("/api/seats/0/join", {"name": "Thief"}), 409, "seat 1 is taken by P0")
    assert table.version == version and table.seat_of(seats[0]) == 0


@pytest.mark.parametrize(
    ("url", "body", "status", "words"),
    [
        ("/api/seats/3/join", {"name": "Aki"}, 404, ["no seat 3"]),
        ("/api/seats/0/join", {"name": ""}, 400, ["enter a name"]),
        ("/api/seats/0/join", {"name": "x" * 25}, 400, ["at most 24"]),
        ("/api/seats/0/join", {"name": 5}, 400, ["must be text"]),
        ("/api/seats/0/join", {"name": "a\u200bb"}, 400, ["invisible"]),
        ("/api/seats/0/join", {}, 400, ["lacks the field name"]),
        ("/api/seats/0/join", {"name": "Aki", "seat": 2}, 400, ["unknown field 'seat'"]),
        ("/api/seats/-1/join", {"name": "Aki"}, 404, ["no such API route"]),
    ],
)
def test_bad_joins_are_refused(api, table, host, url, body, status, words):
    version = table.version
    refused(api.post(url, body), status, *words)
    assert table.version == version and table.names() == [None, None, None]


def test_joining_before_any_game_says_so(api):
    refused(api.post("/api/seats/0/join", {"name": "Aki"}), 404, "no game")


def test_japanese_and_markup_names_come_back_verbatim_as_json(api, table, host):
    api.post("/api/seats/0/join", {"name": "あき"})
    api.post("/api/seats/1/join", {"name": "<b>&\"x\"</b>"})
    response = api.get("/api/table")
    assert response.mimetype == "application/json"  # never HTML: pages insert names as text
    assert [s["name"] for s in response.json["seats"]] == ["あき", "<b>&\"x\"</b>", None]
    assert "あき" in response.get_data(as_text=True)  # UTF-8, not \\u escapes


def test_only_the_host_frees_a_seat_and_its_token_then_dies(api, table, host, seats):
    refused(api.post("/api/seats/0/free"), 401, "no token")
    refused(api.post("/api/seats/0/free", token=seats[1]), 403, "only the host")
    assert table.seat_of(seats[0]) == 0
    response = api.post("/api/seats/0/free", token=host)
    assert response.status_code == 200 and response.json["seats"][0] == {"seat": 0, "name": None, "taken": False, "bot": None, "trouble": None}
    refused(api.get("/api/view", token=seats[0]), 401, "does not open anything")
    refused(api.post("/api/seats/0/free", token=host), 409, "already free")
    assert api.post("/api/seats/0/join", {"name": "New"}).status_code == 200


# ---------------------------------------------------------------- views


def test_a_seat_sees_its_own_private_view_and_actions(api, table, seats):
    view = api.get("/api/view", token=seats[1]).json
    assert view["seat"] == 1 and view["private"] == table.view(1)["private"]
    assert view["actions"] == table.view(1)["actions"] and view["actions"]
    assert view["version"] == table.version and view["names"] == ["P0", "P1", "P2"]


def test_the_seat_cookie_works_like_the_bearer_token(api, table, host):
    api.post("/api/seats/2/join", {"name": "Aki"})  # the client keeps the seat cookie
    assert api.get("/api/view").json["seat"] == 2


def test_the_bearer_header_wins_over_cookies(api, client, table, host, seats):
    client.set_cookie("seat_token", seats[0])
    assert api.get("/api/view", token=seats[2]).json["seat"] == 2


def test_a_forged_bearer_token_is_refused_even_beside_valid_cookies(api, client, table, host, seats):
    """The Bearer header alone speaks for the request: a forged one is not helped by cookies."""
    forged = "forged-" + "x" * 40
    client.set_cookie("seat_token", seats[0])
    client.set_cookie("host_token", host)
    refused(api.get("/api/view", token=forged), 401, "does not open anything")
    version = table.version
    refused(api.post("/api/seats/1/free", token=forged), 403, "only the host")
    assert table.version == version


def test_a_seats_bearer_token_with_the_hosts_cookie_gives_no_host_rights(api, client, table, host, seats):
    client.set_cookie("host_token", host)
    me = api.get("/api/me", token=seats[1]).json
    assert me["seat"] == 1 and me["host"] is False
    version = table.version
    refused(api.post("/api/seats/0/free", token=seats[1]), 403, "only the host")
    refused(api.post("/api/undo", token=seats[1]), 403, "only the host")
    assert table.version == version and table.names()[0] == "P0"


@pytest.mark.parametrize("scheme", ["Basic", "Token", "Bearer:", "Bearerx"])
def test_only_the_bearer_scheme_carries_a_token(api, table, seats, scheme):
    header = {"Authorization": f"{scheme} {seats[0]}"}
    assert api.get("/api/view", headers=header).json["seat"] is None
    view = api.get("/api/view", token=seats[0]).json
    action = {"action": view["actions"][0], "version": view["version"]}
    refused(api.post("/api/actions", action, headers=header), 401, "join a seat first")
    assert table.version == view["version"]


def test_visitors_and_a_seatless_host_see_the_public_view(api, table, host, seats):
    for token in (None, host):
        view = api.get("/api/view", token=token).json
        assert view["seat"] is None and view["private"] is None and view["actions"] == []
        assert view["public"] == table.view(0)["public"]


def test_a_token_that_opens_nothing_is_refused(api, host):
    refused(api.get("/api/view", token="forged-" + "x" * 40), 401, "does not open anything")


def test_me_tells_who_the_caller_is(api, table, host, seats):
    assert api.get("/api/me").json == {"seat": None, "host": False, "name": None, "rejoin_url": None}
    assert api.get("/api/me", token=host).json == {
        "seat": None, "host": True, "name": None, "rejoin_url": f"http://localhost/R/{host}"}
    assert api.get("/api/me", token=seats[2]).json == {
        "seat": 2, "host": False, "name": "P2", "rejoin_url": f"http://localhost/R/{seats[2]}"}


# ---------------------------------------------------------------- actions


def _act(api, token, action, version):
    return api.post("/api/actions", {"action": action, "version": version}, token=token)


def test_a_legal_action_answers_with_the_new_view(api, table, seats):
    view = api.get("/api/view", token=seats[0]).json
    response = _act(api, seats[0], view["actions"][0], view["version"])
    assert response.status_code == 200
    assert response.json["version"] == view["version"] + 1 and response.json["seat"] == 0
    assert response.json["private"]["passing"] == view["actions"][0]["card"]
    assert table.action_log()[-1]["action"] == view["actions"][0]


def test_acting_needs_a_seat_token(api, table, host, seats):
    action = table.view(0)["actions"][0]
    version = table.version
    refused(_act(api, None, action, version), 401, "join a seat first")
    refused(_act(api, "forged-" + "x" * 40, action, version), 401, "does not open anything")
    refused(_act(api, host, action, version), 403, "hold no seat")
    assert table.version == version


def test_the_seat_comes_from_the_token_never_from_the_body(api, table, seats):
    seat0_card = table.view(0)["actions"][0]
    version = table.version
    # Seat 1 sends seat 0's card: seat 1 does not hold it, so the rules refuse it for seat 1.
    species, number = seat0_card["card"].split("-")
    refused(_act(api, seats[1], seat0_card, version), 422, f"you do not hold {species.capitalize()} {number}")
    refused(api.post("/api/actions", {"action": seat0_card, "version": version, "seat": 0}, token=seats[1]),
            400, "unknown field 'seat'")
    assert table.version == version and table.state()["passes"] == [None, None, None]


def test_out_of_turn_illegal_stale_and_future_actions_are_refused_with_reasons(api, table, seats):
    first = api.get("/api/view", token=seats[0]).json
    assert _act(api, seats[0], first["actions"][0], first["version"]).status_code == 200
    version = table.version
    refused(_act(api, seats[0], first["actions"][1], version), 422, "not your turn", "waiting for P1 and P2")
    refused(_act(api, seats[1], {"type": "fly"}, version), 422, "fly")
    refused(_act(api, seats[1], "pass", version), 422, '"type"')
    refused(_act(api, seats[1], table.view(1)["actions"][0], version + 5), 409, "from the future")
    refused(_act(api, seats[1], table.view(1)["actions"][0], "latest"), 400, "version")
    refused(api.post("/api/actions", {"action": table.view(1)["actions"][0]}, token=seats[1]), 400,
            "lacks the field version")
    assert table.version == version


def test_an_action_from_a_view_that_changed_is_stale(api, table, host, seats):
    everyone = [api.get("/api/view", token=t).json for t in seats]
    for seat in range(3):  # all pass: the hands change, so the old views are stale
        assert _act(api, seats[seat], everyone[seat]["actions"][0], everyone[seat]["version"]).status_code == 200
    version = table.version
    old = everyone[0]
    refused(_act(api, seats[0], old["actions"][0], old["version"]), 409, "changed since your view")
    assert table.version == version


# ---------------------------------------------------------------- undo


def test_undo_is_the_hosts_and_needs_something_to_undo(api, table, host, seats):
    refused(api.post("/api/undo", token=host), 409, "nothing to undo")
    view = api.get("/api/view", token=seats[0]).json
    _act(api, seats[0], view["actions"][0], view["version"])
    version = table.version
    refused(api.post("/api/undo"), 401, "no token")
    refused(api.post("/api/undo", token=seats[0]), 403, "only the host")
    assert table.version == version
    response = api.post("/api/undo", token=host)
    assert response.status_code == 200 and response.json["seat"] is None
    assert table.version == version + 1 and table.state()["passes"] == [None, None, None]
    assert table.action_log()[-1]["undone"] is True


# ---------------------------------------------------------------- cross-site requests and bodies

POST_ROUTES = [
    ("/api/game", GAME),
    ("/api/seats/0/join", {"name": "Aki"}),
    ("/api/seats/0/free", None),
    ("/api/actions", {"action": {"type": "pass"}, "version": 0}),
    ("/api/undo", None),
    ("/api/host/claim", None),
    ("/api/host/hand-over", {"seat": 0}),
]


@pytest.mark.parametrize(("url", "body"), POST_ROUTES)
def test_every_post_needs_the_csrf_header(client, table, host, url, body):
    version = table.version
    refused(client.post(url, json=body, headers={"Authorization": f"Bearer {host}"}), 403, "X-Requested-With")
    refused(client.post(url, json=body, headers={"X-Requested-With": "XMLHttpRequest"}), 403, "X-Requested-With")
    assert table.version == version


@pytest.mark.parametrize(("url", "body"), POST_ROUTES)
@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://localhost.evil.example", "file://",
                                    "ftp://localhost", "http://localhost:8000", "localhost"])
def test_every_post_from_another_origin_is_refused(api, table, host, url, body, origin):
    version = table.version
    refused(api.post(url, body, token=host, headers={"Origin": origin}), 403, "another website")
    assert table.version == version


@pytest.mark.parametrize("origin", ["http://localhost", "HTTP://LOCALHOST", "https://localhost"])
def test_a_post_from_our_own_origin_passes(api, table, origin):
    response = api.post("/api/game", GAME, headers={"Origin": origin})
    assert response.status_code == 200


@pytest.mark.parametrize(("url", "body"), [r for r in POST_ROUTES if r[1] is not None])
def test_bodies_must_be_json_objects(client, table, host, url, body):
    version = table.version
    auth_csrf = {"X-Requested-With": "companion", "Authorization": f"Bearer {host}"}
    refused(client.post(url, data=json.dumps(body), headers=auth_csrf, content_type="text/plain"), 415, "JSON")
    refused(client.post(url, data={"name": "Aki"}, headers=auth_csrf), 415, "JSON")
    refused(client.post(url, data="{", headers=auth_csrf, content_type="application/json"), 400, "not valid JSON")
    refused(client.post(url, data=b"\xff\xfe{", headers=auth_csrf, content_type="application/json"), 400, "not valid JSON")
    refused(client.post(url, data='{"version": NaN}', headers=auth_csrf, content_type="application/json"), 400,
            "not valid JSON")
    refused(client.post(url, data="[" * 5000 + "]" * 5000, headers=auth_csrf, content_type="application/json"), 400,
            "not valid JSON")
    refused(client.post(url, data="[1]", headers=auth_csrf, content_type="application/json"), 400, "JSON object")
    refused(client.post(url, data="", headers=auth_csrf, content_type="application/json"), 400, "not valid JSON")
    assert table.version == version


@pytest.mark.parametrize(("url", "body"), POST_ROUTES)
def test_bodies_over_16_kib_are_refused(api, table, host, url, body):
    version = table.version
    huge = {"name": "x" * (17 * 1024)}
    refused(api.post(url, huge, token=host), 413, "too large")
    assert table.version == version


def test_bodiless_routes_take_an_empty_object_too(api, table, host):
    assert api.post("/api/seats/0/join", {"name": "Aki"}).status_code == 200
    assert api.post("/api/seats/0/free", {}, token=host).status_code == 200


# ---------------------------------------------------------------- the disk refusing


def test_a_storage_failure_is_503_and_changes_nothing(api, table, seats):
    """The disk refuses (simulated by a SQLite trigger, so the real write path fails)."""
    spoiler = sqlite3.connect(table.data_dir / Store.FILENAME)
    spoiler.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk is full'); END")
    spoiler.commit()
    spoiler.close()
    before = api.get("/api/view", token=seats[0]).json
    response = _act(api, seats[0], before["actions"][0], before["version"])
    body = refused(response, 503, "nothing was changed", "disk is full")
    assert body["error_ja"]
    assert api.get("/api/view", token=seats[0]).json == before
    assert table.action_log() == []


# ---------------------------------------------------------------- QR codes


def test_join_qr_is_an_svg_of_the_upper_case_join_url(api, table):
    response = api.get("/api/join-qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith("<svg")


def test_rejoin_qr_needs_a_token_and_is_personal(api, table, host, seats):
    refused(api.get("/api/rejoin-qr.svg"), 401, "join a seat first")
    refused(api.get("/api/rejoin-qr.svg", token="forged-" + "x" * 40), 401, "does not open anything")
    mine = api.get("/api/rejoin-qr.svg", token=seats[0])
    theirs = api.get("/api/rejoin-qr.svg", token=seats[1])
    assert mine.status_code == theirs.status_code == 200 and mine.data != theirs.data


def test_qr_routes_take_no_url_from_the_caller(api):
    """No open QR generator: a url parameter changes nothing."""
    assert api.get("/api/join-qr.svg?url=http://evil.example").data == api.get("/api/join-qr.svg").data


# ---------------------------------------------------------------- rejoin helper (used by the /R/ page)


def test_rejoin_response_sets_the_right_cookie_and_leaves_a_clean_address(app, table, host, seats):
    with app.test_request_context("/R/x"):
        seat = auth.rejoin_response(table, seats[1])
        hosting = auth.rejoin_response(table, host)
        assert auth.rejoin_response(table, "forged") is None
    assert seat.status_code == 303 and seat.headers["Location"] == "/play"
    assert seat.headers["Set-Cookie"].startswith(f"seat_token={seats[1]};")
    assert hosting.status_code == 303 and hosting.headers["Location"] == "/"
    assert hosting.headers["Set-Cookie"].startswith(f"host_token={host};")

"""Junk thrown at every API route: a client's mistake is never answered with a 500.

Seeded, so a failure reproduces. Routes are read from the app's URL map, so a route
added later is fuzzed without anyone remembering to list it.
"""

from __future__ import annotations

import json
import random

import pytest

from companion import games

FIELDS = ["action", "version", "name", "seat", "game", "players", "seed", "options", "type", "card", "cell"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"]


def junk_value(rng: random.Random, depth: int = 0):
    """A random JSON value, biased towards the shapes and names the API expects."""
    kinds = ["int", "bigint", "float", "bool", "null", "str", "game"] + (["list", "dict"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-3, 10)
    if kind == "bigint":
        return rng.choice([2**64, -(2**63), 10**30])
    if kind == "float":
        return rng.choice([0.5, -1.0, 1e308, 3.0])
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "null":
        return None
    if kind == "str":
        return rng.choice(["", "x" * 30, "<script>", "あき", "\u0000", "{s1}", "lion-3", "pass", "play", "take"])
    if kind == "game":
        return rng.choice(games.ids())
    if kind == "list":
        return [junk_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(FIELDS): junk_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def junk_body(rng: random.Random) -> tuple[bytes, str | None]:
    choice = rng.randrange(6)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))), "application/json"
    if choice == 1:
        return b"", rng.choice([None, "application/json", "text/plain"])
    if choice == 2:
        return json.dumps(junk_value(rng)).encode(), rng.choice(["application/json", "text/plain", "multipart/form-data"])
    body = {name: junk_value(rng) for name in rng.sample(FIELDS, rng.randint(0, 4))}
    return json.dumps(body).encode(), "application/json; charset=utf-8"


def concrete_urls(app, rng: random.Random) -> list[str]:
    urls = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        url = rule.rule
        for argument in rule.arguments:
            url = url.replace(f"<int:{argument}>", str(rng.choice([0, 1, 3, 99, 2**70])))
        urls.append(url)
    return urls + ["/api/", "/api/seats/x/join", "/api/seats/-1/free", "/api/%ff", "/api/view/../table"]


@pytest.mark.parametrize("state", ["idle", "playing"])
def test_junk_at_every_route_never_gets_a_500(app, api, table, state):
    rng = random.Random(f"fuzz-{state}")
    tokens = [None, "", "x" * 43, "Bearer", "\u00e9" * 10]
    if state == "playing":
        host = api.post("/api/game", {"game": "lion-square", "players": 3}).json["host_token"]
        seat = api.post("/api/seats/0/join", {"name": "Aki"}, token=host).json["token"]
        api.forget_cookies()
        tokens += [host, seat]
    urls = concrete_urls(app, rng)
    for _ in range(600):
        url = rng.choice(urls)
        method = rng.choice(METHODS)
        body, content_type = junk_body(rng)
        headers = {}
        if rng.random() < 0.8:
            headers["X-Requested-With"] = "companion"
        if rng.random() < 0.2:
            headers["Origin"] = rng.choice(["http://localhost", "null", "http://evil.example", "::"])
        if rng.random() < 0.2:
            headers["Last-Event-ID"] = rng.choice(["3", "-1", "x", "99999999999999999999", ""])
        token = rng.choice(tokens)
        if token is not None:
            headers["Authorization"] = rng.choice(["Bearer ", "bearer ", "Basic ", ""]) + token
        response = api.client.open(url, method=method, data=body, content_type=content_type, headers=headers,
                                   buffered=False)
        try:
            assert response.status_code < 500, (method, url, body, headers, response.get_data(as_text=True)[:300])
            if response.mimetype == "application/json" and response.status_code >= 400:
                assert response.json["error"]
        finally:
            response.close()


@pytest.mark.parametrize("game_id", games.ids())
def test_mangled_actions_are_refused_with_a_reason_never_a_500(api, table, game_id):
    """Legal actions with one field swapped for junk reach the engines' explanations."""
    rng = random.Random(game_id)
    game = games.get(game_id)
    host = api.post("/api/game", {"game": game_id, "players": game.min_players}).json["host_token"]
    tokens = [api.post(f"/api/seats/{s}/join", {"name": f"P{s}"}, token=host).json["token"]
              for s in range(game.min_players)]
    for _ in range(40):
        seat = rng.choice(table.view(None)["to_act"] or [0])
        view = api.get("/api/view", token=tokens[seat]).json
        if view["over"]:
            break
        action = dict(rng.choice(view["actions"]))
        mangled = dict(action)
        mangled[rng.choice(list(action) + ["extra"])] = junk_value(rng)
        response = api.post("/api/actions", {"action": mangled, "version": view["version"]}, token=tokens[seat])
        listed = {json.dumps(a, sort_keys=True) for a in view["actions"]}
        if json.dumps(mangled, sort_keys=True) in listed:  # types count: true is not 1
            assert response.status_code == 200
        else:
            assert response.status_code == 422, (mangled, response.json)
            assert response.json["error"]
        api.post("/api/actions", {"action": action, "version": table.version}, token=tokens[seat])

"""Fixtures shared by the web tests: a table on a temporary directory, the app, its Flask
client, and ``api``: the client speaking like a page (JSON with the CSRF header, an
optional Bearer token).

(``tests/web`` has no ``__init__.py`` on purpose: as a package it would be named ``web``
and hide the real ``web`` package from the tests.)
"""

from __future__ import annotations

import pytest
from flask import request

from companion.table import Table
from web import create_app

CSRF = {"X-Requested-With": "companion"}


@pytest.fixture
def table(tmp_path):
    """A fresh table (in RAM where there is one: tests/conftest.py)."""
    table = Table(tmp_path / "data")
    yield table
    table.close()


@pytest.fixture
def refusals():
    """Every 4xx answer under /api a test provokes, as ``(status, body)``."""
    return []


@pytest.fixture
def app(table, refusals):
    """The app. Every refusal any web test provokes must say why in English and Japanese
    (issue 10): checked here, after each test, so a new refusal path cannot forget it."""
    app = create_app(table, keepalive_seconds=0.2, stream_seconds=2.0)

    @app.after_request
    def note_refusal(response):
        if request.path.startswith("/api/") and 400 <= response.status_code < 500:
            refusals.append((response.status_code, response.get_json(silent=True)))
        return response

    yield app
    app.extensions["companion"].events.stop()
    for status, body in refusals:
        assert body_is_bilingual(status, body), (status, body)


def body_is_bilingual(status: int, body) -> bool:
    """Whether a refusal's JSON has both texts, the Japanese one in its own words. Only an
    engine's refusal (422) from an engine not yet worded in Japanese repeats the English."""
    if not isinstance(body, dict):
        return False
    en, ja = body.get("error"), body.get("error_ja")
    if not (isinstance(en, str) and en and isinstance(ja, str) and ja):
        return False
    return ja != en or status == 422


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """The test client sending what the pages send."""

    def __init__(self, client):
        self.client = client

    def post(self, url, body=None, token=None, headers=None):
        """POST ``body`` as JSON with the CSRF header, and ``token`` as a Bearer header if given."""
        sent = dict(CSRF)
        if token:
            sent["Authorization"] = f"Bearer {token}"
        sent.update(headers or {})
        return self.client.post(url, json=body, headers=sent)

    def forget_cookies(self):
        """Drop the token cookies, so that the next request is a stranger's."""
        for name in ("seat_token", "host_token"):
            self.client.delete_cookie(name)

    def get(self, url, token=None, headers=None):
        sent = {"Authorization": f"Bearer {token}"} if token else {}
        sent.update(headers or {})
        return self.client.get(url, headers=sent)


@pytest.fixture
def api(client):
    return Api(client)


@pytest.fixture
def seated(api, table):
    """A 2-player SWAP 5 with a host (no seat) and both seats joined: (host, [seat tokens])."""
    host = api.post("/api/game", {"game": "swap5", "players": 2, "seed": 4}).json["host_token"]
    tokens = [api.post(f"/api/seats/{n}/join", {"name": name}).json["token"] for n, name in enumerate(("Aki", "Bo"))]
    api.forget_cookies()
    return host, tokens

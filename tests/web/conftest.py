"""Fixtures shared by the web tests: a table on a temporary directory, the app, its Flask
client, and ``api``: the client speaking like a page (JSON with the CSRF header, an
optional Bearer token).

(``tests/web`` has no ``__init__.py`` on purpose: as a package it would be named ``web``
and hide the real ``web`` package from the tests.)
"""

from __future__ import annotations

import pytest

from companion.table import Table
from web import create_app

CSRF = {"X-Requested-With": "companion"}


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path / "data")
    yield table
    table.close()


@pytest.fixture
def app(table):
    app = create_app(table, keepalive_seconds=0.2, stream_seconds=2.0)
    yield app
    app.extensions["companion"].events.stop()


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

"""Fixtures shared by the web tests: a table on a temporary directory and a Flask client.

``post(client, url, body)`` sends what a page sends: JSON with the CSRF header.
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


def post(client, url, body=None, token=None, headers=None):
    """POST ``body`` as JSON the way the pages do (with the CSRF header), with an optional Bearer token."""
    sent = dict(CSRF)
    if token:
        sent["Authorization"] = f"Bearer {token}"
    sent.update(headers or {})
    return client.post(url, json=body, headers=sent)


def get(client, url, token=None, headers=None):
    sent = {"Authorization": f"Bearer {token}"} if token else {}
    sent.update(headers or {})
    return client.get(url, headers=sent)

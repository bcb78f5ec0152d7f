"""Fixtures of the play-record tests: a table and its records on one data directory, and
games played to the end (or abandoned) through the table, as phones would play them."""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.records.plays import Records
from companion.table import Table


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def table(data_dir):
    table = Table(data_dir)
    yield table
    table.close()


@pytest.fixture
def records(table, data_dir):
    records = Records(data_dir)
    yield records
    records.close()


def play(table: Table, game_id: str, names: list[str], seed: int = 1, moves: int | None = None,
         bots: dict[int, str] | None = None) -> None:
    """Start ``game_id`` with ``names`` seated (``bots``: {seat: level} of the bots among them)
    and make random legal moves: all of them to the end, or only ``moves`` of them."""
    if any(table.names()):  # the names of an earlier game: seats stay held across games
        table.free_all_seats()
    table.start_game(game_id, len(names), seed=seed)
    for seat, name in enumerate(names):
        table.join(seat, name, bot=(bots or {}).get(seat))
    chooser = random.Random(seed)
    game = games.get(game_id)
    made = 0
    while not game.is_over(table.state()) and (moves is None or made < moves):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
        made += 1


def play_on(table) -> None:
    """Finish the table's game with random legal moves."""
    game, chooser = games.get(table.game_id), random.Random(0)
    while not game.is_over(table.state()):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)


CSRF = {"X-Requested-With": "companion"}


@pytest.fixture
def app(table):
    """The web app on ``table``; every 4xx answer under /api must say why in both languages."""
    from flask import request

    from web import create_app

    app = create_app(table, keepalive_seconds=0.2, stream_seconds=2.0)
    refusals = []

    @app.after_request
    def note_refusal(response):
        if request.path.startswith("/api/") and 400 <= response.status_code < 500:
            refusals.append(response.get_json(silent=True))
        return response

    yield app
    app.extensions["companion"].events.stop()
    app.extensions["records"].close()
    for body in refusals:
        assert body["error"] and body["error_ja"] and body["error"] != body["error_ja"], body


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def host(table):
    """The headers of the host's requests (its token and the CSRF header)."""
    return {"Authorization": f"Bearer {table.claim_host()}", **CSRF}

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


def play(table: Table, game_id: str, names: list[str], seed: int = 1, moves: int | None = None) -> None:
    """Start ``game_id`` with ``names`` seated and make random legal moves: all of them to
    the end, or only ``moves`` of them."""
    if any(table.names()):  # the names of an earlier game: seats stay held across games
        table.free_all_seats()
    table.start_game(game_id, len(names), seed=seed)
    for seat, name in enumerate(names):
        table.join(seat, name)
    chooser = random.Random(seed)
    game = games.get(game_id)
    made = 0
    while not game.is_over(table.state()) and (moves is None or made < moves):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
        made += 1

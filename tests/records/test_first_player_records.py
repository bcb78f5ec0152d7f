"""The drawn first player is the play's start player: in the records, the statistics, the
CSV, BG Stats, the replay, and the export read back in."""

from __future__ import annotations

import random

from companion import games
from companion.first_player import draw_first_player
from companion.records.backup import export_plays, import_plays
from companion.records.exports import bgstats_payload, plays_csv
from companion.records.plays import Records
from companion.records.stats import stats


def drawn_play(table, seat=1, seed=2):
    """A 2-player SWAP 5 whose draw gives ``seat``, played to the end with random moves."""
    table.start_game("swap5", 2, seed=seed)
    table.join(0, "Aki")
    table.join(1, "Bo")
    draw_first_player(table, randbelow=lambda n: seat)
    game, chooser = games.get("swap5"), random.Random(seed)
    while not game.is_over(table.state()):
        who = game.to_act(table.state())[0]
        table.act(who, chooser.choice(game.legal_actions(table.state(), who)), table.version)
    return table.view(None)["play_id"]


def test_the_drawn_player_is_the_plays_start_player_everywhere(table, records):
    play_id = drawn_play(table)
    (play,) = records.plays()
    assert play["id"] == play_id
    assert [player["start_player"] for player in play["players"]] == [False, True]
    assert [player["startPlayer"] for player in bgstats_payload(play)["players"]] == [False, True]
    rows = plays_csv([play]).splitlines()[1:]
    assert [row.split(",")[6] for row in rows] == ["0", "1"]
    assert records.play(play_id)["actions"][0]["seat"] == 1  # Bo made the first move
    assert records.replay(play_id, 0)["view"]["to_act"] == [1]  # the replay starts with Bo too
    # Bo started: a win by Bo counts for the first position in turn order.
    ((positions,),) = [entry["seats"] for entry in stats(records.outcomes())["games"]]
    winner = next(player["seat"] for player in play["players"] if player["winner"])
    assert positions["positions"][0 if winner == 1 else 1]["wins"] == 1


def test_an_exported_play_with_a_drawn_start_reads_back_in(table, records, tmp_path):
    drawn_play(table)
    document = export_plays(table.data_dir)
    assert document["plays"][0]["options"]["first_player"] == 1
    other = tmp_path / "other"
    assert import_plays(other, document)[0] == 1
    again = Records(other)
    try:
        assert [player["start_player"] for player in again.plays()[0]["players"]] == [False, True]
    finally:
        again.close()

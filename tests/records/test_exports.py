"""The CSV export and the BG Stats link, against golden files (``UPDATE_GOLDEN=1`` rewrites them)."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import timezone
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion.bots.seats import bot_name
from companion.records.exports import BGSTATS_URL, bgstats_payload, bgstats_url, plays_csv

from .conftest import play

GOLDEN = Path(__file__).parent / "golden"
START = 1795000000.0  # 2026-11-18 11:06:40 UTC: fixed times, so the files never change


@pytest.fixture
def fixed_plays(table, records):
    """A finished SWAP 5 with a Japanese name and a bot, and an abandoned Meow Oracle, at fixed times."""
    play(table, "swap5", ["ＡＫＩ", bot_name(1, "normal")], seed=3, bots={1: "normal"})
    play(table, "meow-oracle", ["あき", "Ben", "Cy"], seed=2, moves=5)
    table.start_game("swap5", 2)  # abandons the Meow Oracle
    plays = records.plays()
    for index, recorded in enumerate(plays):
        recorded["started_at"], recorded["ended_at"] = START + 3600 * index, START + 3600 * index + 1500
        recorded["duration_min"] = 25.0
    return plays


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(text.encode("utf-8"))
    assert text.encode("utf-8") == path.read_bytes()


def test_the_csv_has_one_row_per_player_per_play(fixed_plays):
    text = plays_csv(fixed_plays, timezone.utc)
    assert text.startswith("\ufeffplay_id,date,game,duration_min,player,seat,start_player,score,rank,winner,bot,occupants,turns,turn_seconds,longest_turn_seconds\r\n")
    check_golden("plays.csv", text)


def test_the_bgstats_payload_of_a_finished_play(fixed_plays):
    finished = next(p for p in fixed_plays if not p["abandoned"])
    check_golden("bgstats.json", json.dumps(bgstats_payload(finished, timezone.utc), ensure_ascii=False, indent=1) + "\n")


def test_bgstats_knows_a_bot_by_its_level_and_names_it_in_the_pages_language(fixed_plays):
    finished = next(p for p in fixed_plays if not p["abandoned"])
    bot = bgstats_payload(finished, timezone.utc, bot_names={"normal": "ボット（ふつう）"})["players"][1]
    assert (bot["name"], bot["sourcePlayerId"]) == ("ボット（ふつう）", "bot:normal")


def test_the_bgstats_link_carries_the_payload_url_encoded(fixed_plays):
    finished = next(p for p in fixed_plays if not p["abandoned"])
    url = bgstats_url(finished, timezone.utc)
    assert url.startswith(BGSTATS_URL) and " " not in url and "&" not in url[len(BGSTATS_URL):]
    assert json.loads(unquote(url[len(BGSTATS_URL):])) == bgstats_payload(finished, timezone.utc)


@pytest.mark.parametrize("name", ['=HYPERLINK("//x.io")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"])
def test_a_name_a_spreadsheet_would_run_as_a_formula_is_neutralised(client, table, name):
    """Issue 23 point 7 (OWASP, CSV Injection): a typed name starting with = + - @ gets a quote."""
    play(table, "swap5", [name, "Ben"], seed=3)
    lines = client.get("/api/plays.csv").get_data(as_text=True).splitlines()
    cells = next(csv.reader([lines[1]]))
    assert cells[4] == "'" + name and next(csv.reader([lines[2]]))[4] == "Ben"


@pytest.mark.parametrize("name", ["\tcmd", "\r=1+1"])
def test_tab_and_carriage_return_starts_are_neutralised_but_numbers_are_not(fixed_plays, name):
    """A name can arrive by an import too; negative scores (Lion Square herds) stay numbers."""
    fixed_plays[0]["players"][0].update(name=name, score=-5)
    rows = list(csv.reader(io.StringIO(plays_csv(fixed_plays, timezone.utc).lstrip("\ufeff"), newline="")))
    assert rows[1][4] == "'" + name and rows[1][7] == "-5"

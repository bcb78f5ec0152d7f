"""The CSV export and the BG Stats link, against golden files (``UPDATE_GOLDEN=1`` rewrites them)."""

from __future__ import annotations

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
    assert text.startswith("\ufeffplay_id,date,game,duration_min,player,seat,start_player,score,rank,winner,bot\r\n")
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

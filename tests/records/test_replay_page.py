"""The replay page (/replay/<id>): every game id in both languages, the friendly not-found
page, an abandoned play, and the play id the finished game's phone links with."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from companion import games

from .conftest import play

LANGS = ("en", "ja")
TEXTS = {lang: json.loads((Path(__file__).parents[2] / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
         for lang in LANGS}


def _names(game_id: str) -> list[str]:
    return ["Aki", "<b>Ben</b>", "ちえ", "Dan", "Emi", "Fumi"][:games.get(game_id).player_counts[0]]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", games.ids())
def test_a_finished_play_of_every_game_has_its_page(client, table, game_id, lang):
    play(table, game_id, _names(game_id), seed=3)
    answer = client.get("/api/plays").get_json()["plays"][0]
    steps = sum(not action["undone"] for action in client.get(f"/api/plays/{answer['id']}").get_json()["actions"])

    page = client.get(f"/replay/{answer['id']}?lang={lang}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert f'<html lang="{lang}">' in html
    assert TEXTS[lang]["replay.title"].format(game=answer["title"][lang]) in html
    assert unescape(re.search(r'data-testid="summary">([^<]*)<', html).group(1)) == answer["summary"][lang]
    assert "&lt;b&gt;Ben&lt;/b&gt;" in html and "<b>Ben</b>" not in html  # names as typed, never as HTML
    assert f'max="{steps}"' in html and steps > 0
    assert TEXTS[lang]["replay.first"] in html and TEXTS[lang]["replay.hands"] in html
    assert "replay.js" in html and 'data-testid="abandoned"' not in html


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path, status", [("/replay/999", 404), ("/replay/0", 404), ("/replay/abc", 404),
                                          ("/replay/%EF%BC%91", 404), ("/replay/" + "9" * 30, 400),
                                          ("/replay/" + "9" * 5000, 400)])
def test_an_unknown_play_gets_the_friendly_page_in_both_languages(client, table, path, status, lang):
    """An id longer than any play's (19 digits) is a bad address: 400, the same page."""
    play(table, "swap5", ["Aki", "Ben"], seed=1)  # play 1 exists: "１" (full width) is still not its address
    page = client.get(f"{path}?lang={lang}")
    html = page.get_data(as_text=True)
    assert page.status_code == status and page.mimetype == "text/html"
    assert TEXTS[lang]["missing.title.play"] in html and TEXTS[lang]["missing.explain.play"] in html


def test_the_game_on_the_table_is_no_play_until_it_ends(client, table):
    """A game still going has secret hands: it has no replay page (nor replay) before its end."""
    play(table, "lion-square", ["Aki", "Ben", "Chie"], seed=2, moves=5)
    game_id = table.view(None)["play_id"]
    assert client.get(f"/replay/{game_id}").status_code == 404
    assert client.get(f"/api/plays/{game_id}/replay?step=0").status_code == 404


def test_an_abandoned_play_says_so(client, table):
    play(table, "swap5", ["Aki", "Ben"], seed=1, moves=3)
    abandoned = table.view(None)["play_id"]
    table.start_game("pig-house", 2)  # abandons the SWAP 5 game: it becomes a play
    html = client.get(f"/replay/{abandoned}?lang=ja").get_data(as_text=True)
    assert TEXTS["ja"]["replay.abandoned"] in html and 'max="3"' in html


def test_the_view_names_the_play_of_its_game(client, table):
    """The finished game's phone links to its play (BG Stats, the replay) by the view's play_id."""
    play(table, "pig-house", ["Aki", "Ben"], seed=4)
    newest = client.get("/api/plays").get_json()["plays"][0]
    assert client.get("/api/view").get_json()["play_id"] == newest["id"]
    assert table.view(1)["play_id"] == newest["id"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_bot_is_named_in_the_readers_language_on_the_records_and_replay_pages(client, table, lang):
    """A bot's seat is kept as "Bot 2 (Normal)"; its moves, the summaries and the players name it
    as the live phone does, in the page's language ("ボット2（ふつう）"), never in the kept English."""
    from companion.bots.seats import bot_name

    play(table, "swap5", ["Aki", bot_name(1, "normal")], seed=3, bots={1: "normal"})
    kept, spoken = bot_name(1, "normal"), TEXTS[lang]["bot.name.normal"].format(n=2)
    listed = client.get(f"/api/plays?lang={lang}").get_json()["plays"][0]
    assert spoken in listed["summary"][lang] and kept not in listed["summary"][lang]
    words = [text[lang] for action in client.get(f"/api/plays/{listed['id']}").get_json()["actions"] for text in action["text"]]
    assert any(line.startswith(spoken) for line in words) and not any(kept in line for line in words)
    for page in (f"/replay/{listed['id']}?lang={lang}", f"/records?lang={lang}"):
        html = client.get(page).get_data(as_text=True)
        assert spoken in html and kept not in html, page

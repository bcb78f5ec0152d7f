"""Issue 24 point 11 on the server-made pages: the records' "Games h-index" in words people
use, singular for one; every singular text (``<key>.one``) has its plural beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"


def finish_swap5(table):
    table.start_game("swap5", 2, seed=4)
    table.join(0, "Aki")
    table.join(1, "Bo")
    while not table.view(None)["over"]:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["1 play, ", "Games played often: 1.", "1 game has been played at least once"]),
    ("ja", ["よく遊んだゲーム: 1", "1種類のゲームを1回以上遊びました"]),
])
def test_the_records_say_how_often_games_are_played_in_plain_words(client, table, lang, words):
    finish_swap5(table)
    body = client.get(f"/records?lang={lang}").get_data(as_text=True)
    for text in words:
        assert text in body
    shown = body.replace('class="records-h-index"', "")  # the class name is no word on the page
    assert "h-index" not in shown and "h指数" not in shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_singular_text_has_its_plural(lang):
    texts = json.loads((I18N / f"{lang}.json").read_text())
    singular = [key for key in texts if key.endswith(".one")]
    assert singular and all(key.removesuffix(".one") in texts for key in singular)
    assert all("{n}" not in texts[key] for key in singular if "{n}" in texts[key.removesuffix(".one")])

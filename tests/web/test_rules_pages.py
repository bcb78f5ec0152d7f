"""The rules pages (web/rules.py, texts in web/rulebook/): every game id in both languages,
the anchors a hint can link to, the assumption badges, the links from the game pages, the
404 page, and the worked examples checked against the engines."""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser

import pytest

from companion import games
from companion.games.lion_square.rules import damage
from companion.games.meow_oracle.rules import score_area
from web.rules import RULEBOOK

LANGS = ("en", "ja")
SECTIONS = ("setup", "turn", "scoring", "scoring-example", "end", "companion")
TRACKERS = ("lion-square-ledger", "meow-oracle-scorer", "pig-house", "score-pad")
BADGE = {"en": ("assumed", "our reading"), "ja": ("推定", "解釈")}


class _Page(HTMLParser):
    """The ids, the badges' words and the tables' cells of a page."""

    def __init__(self, html: str):
        super().__init__()
        self.ids: list[str] = []
        self.badges: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._badge = self._cell = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "strong" and "rules-badge" in (attrs.get("class") or ""):
            self._badge = ""
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self.tables[-1].append([])
        if tag in ("td", "th"):
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "strong" and self._badge is not None:
            self.badges.append(self._badge)
            self._badge = None
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self._cell.strip())
            self._cell = None

    def handle_data(self, data):
        if self._badge is not None:
            self._badge += data
        if self._cell is not None:
            self._cell += data


def rules_page(client, game_id, lang) -> tuple[str, _Page]:
    response = client.get(f"/rules/{game_id}?lang={lang}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    return html, _Page(html)


@pytest.mark.parametrize("game_id, lang, said", [
    ("pig-house", "en", "put a ground chip on the card"),  # the book: 地面チップをカードに置き
    ("pig-house", "ja", "地面チップをカードに置き、目印にします"),
    ("lion-square", "en", "do the hand adjustment three times again"),  # rounds 2 and 3 have it too
])
def test_the_rules_pages_say_what_the_book_says(client, game_id, lang, said):
    """Issue 23 point 11: where the ground chip of a Dig goes, and that every round adjusts hands."""
    html, _ = rules_page(client, game_id, lang)
    assert said in " ".join(html.split())  # the Markdown's line breaks read as spaces


def test_every_game_id_has_rules():
    """Each game's box (Game.box) has its rule book in both languages."""
    for game_id in games.ids():
        for lang in LANGS:
            assert (RULEBOOK / f"{games.get(game_id).box.id}.{lang}.md").is_file(), (game_id, lang)
            assert (RULEBOOK / "with-companion" / f"{game_id}.{lang}.md").is_file(), (game_id, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(games.ids()))
def test_rules_page_in_each_language(client, game_id, lang):
    html, page = rules_page(client, game_id, lang)
    assert f'<html lang="{lang}">' in html
    assert games.get(game_id).title[lang] in html
    for anchor in SECTIONS:
        assert anchor in page.ids, f"#{anchor} missing"
        assert f'href="#{anchor}"' in html or anchor.startswith("scoring-"), f"#{anchor} not in the contents"
    assert len(page.ids) == len(set(page.ids)), "an anchor is used twice"
    assert BADGE[lang][0] in page.badges, "no assumption is marked"
    assert set(page.badges) <= set(BADGE[lang])
    assert ("tracker" in page.ids) == (game_id in TRACKERS)
    assert "{:" not in html and "{#" not in html, "Markdown attributes left in the text"


@pytest.mark.parametrize("game_id", sorted(games.ids()))
def test_both_languages_have_the_same_anchors(client, game_id):
    """A hint links to #an-anchor whatever the reader's language."""
    assert rules_page(client, game_id, "en")[1].ids == rules_page(client, game_id, "ja")[1].ids


def test_japanese_paragraphs_have_no_line_breaks(client):
    """A line break inside Japanese text shows as a space between the characters."""
    for game_id in games.ids():
        html, _ = rules_page(client, game_id, "ja")
        assert not re.search(r"[\u3000-\u9fff\uff00-\uffef]\n[\u3000-\u9fff\uff00-\uffef]", html), game_id


def test_a_tracker_page_has_its_games_rules_once(client):
    ledger, _ = rules_page(client, "lion-square-ledger", "en")
    game, _ = rules_page(client, "lion-square", "en")
    rules = game[game.index('<h2 id="components">'):game.index('<h2 id="companion">')]
    assert ledger.count(rules) == 1


def test_language_follows_the_browser_without_lang(client):
    response = client.get("/rules/swap5", headers={"Accept-Language": "ja"})
    assert "推定" in response.get_data(as_text=True)


def test_unknown_game_is_a_plain_404_listing_the_games(client):
    response = client.get("/rules/<b>chess")
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert "no game called “&lt;b&gt;chess”" in html
    for game_id in games.ids():
        assert f'href="/rules/{game_id}"' in html


def test_index_lists_every_game(client):
    html = client.get("/rules?lang=ja").get_data(as_text=True)
    for game_id in games.ids():
        assert games.get(game_id).title["ja"] in html


def test_current_rules_follow_the_table(client, table):
    assert client.get("/rules/current").headers["Location"] == "/rules"
    table.start_game("meow-oracle-scorer", 3)
    response = client.get("/rules/current?lang=ja")
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules/meow-oracle-scorer?lang=ja"


@pytest.mark.parametrize("path", ["/", "/play", "/table"])
def test_game_pages_link_to_the_rules(client, path):
    assert 'href="/rules/current"' in client.get(path).get_data(as_text=True)


def _example_table(page: _Page) -> list[list[str]]:
    """The worked example's 3 × 3 grid (the first table of the page, headings dropped)."""
    return [row[1:] for row in page.tables[0][1:]]


def test_lion_square_example_matches_the_engine(client):
    html, page = rules_page(client, "lion-square", "en")
    field = [[None if cell == "—" else {"color": cell.split()[0].lower(), "n": int(cell.split()[1])}
              for cell in row] for row in _example_table(page)]
    field_south = damage(field, "S", 0, 0)
    assert f"= <strong>{field_south}</strong>" in html
    assert f"<strong>{math.ceil(3 / 2)}</strong>" in html
    assert f"<strong>{damage(field, 'S', 3, 1)}</strong>: her herd goes from" in html
    assert f"= <strong>{damage(field, 'W', 0, 0)}</strong> for the field" in html
    assert f"<strong>{damage(field, 'N', 0, 0)}</strong> for the field" in html


def test_meow_oracle_example_matches_the_engine(client):
    html, page = rules_page(client, "meow-oracle", "en")
    colours = {"R": "red", "B": "blue", "G": "green", "★": "wild"}
    grid = [[{"color": colours[cell.split()[0]], "n": int(cell.split()[1])} for cell in row]
            for row in _example_table(page)]
    points = score_area(grid)
    assert f"<strong>{points['run']} points</strong>" in html
    assert f"<strong>{points['lines']} points</strong>" in html
    assert f"<strong>Total: {points['total']}.</strong>" in html

"""The HTML pages with Flask's client: routes, language choice, join and rejoin links,
the QR code, escaping, and that every game id has its texts and a way to be drawn."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion import games

WEB = Path(__file__).resolve().parents[2] / "web"


def page_data(response) -> dict:
    """The JSON the server hands to the page's scripts."""
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', response.get_data(as_text=True), re.S)
    assert match, "the page carries no page-data"
    return json.loads(match.group(1))


def test_every_page_answers_and_names_its_script(client, table):
    table.start_game("lion-square", 3, seed=1)
    for path, script in [("/", "home.js"), (f"/J/{table.join_code}", "join.js"), ("/play", "play.js"), ("/table", "play.js")]:
        response = client.get(path)
        assert response.status_code == 200, path
        assert f"/static/{script}" in response.get_data(as_text=True)
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "no-referrer"


def test_static_files_are_served_locally(client):
    for name in ("app.js", "picker.js", "play.js", "style.css", "games/generic.js"):
        assert client.get(f"/static/{name}").status_code == 200, name
    for page in ("/", "/table"):
        assert "https://" not in client.get(page).get_data(as_text=True), "no CDN, no external resources"


def test_home_shows_the_upper_case_join_url_its_code_and_its_qr_code(client, table):
    body = client.get("/", base_url="http://192.168.1.20:8080").get_data(as_text=True)
    url = f"HTTP://192.168.1.20:8080/J/{table.join_code}"
    assert url in body
    assert f">{table.join_code}<" in body
    assert "<svg" in body and 'class="qr"' in body


def test_the_qr_codes_scale_to_their_box(client, table):
    """A QR code drawn at a fixed size sat small in the corner of its box: it has a viewBox
    and no width or height of its own, so the stylesheet scales and centres it."""
    table.start_game("lion-square", 3, seed=1)
    client.set_cookie("seat_token", table.join(0, "Ann"))
    for path in ("/", "/play"):
        svgs = re.findall(r"<svg [^>]*>", client.get(path).get_data(as_text=True))
        assert svgs, path
        for tag in svgs:
            assert "viewBox=" in tag and "width=" not in tag and "height=" not in tag, (path, tag)


def test_the_favicon_is_served_and_named_by_every_page(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/vnd.microsoft.icon"
    assert response.data[:4] == b"\x00\x00\x01\x00"  # the ICO signature
    assert '<link rel="icon" href="/favicon.ico">' in client.get("/").get_data(as_text=True)


def test_the_phone_page_offers_a_seated_player_to_leave_and_a_watcher_not(client, table):
    table.start_game("lion-square", 3, seed=1)
    assert 'data-testid="leave"' not in client.get("/play").get_data(as_text=True)
    client.set_cookie("seat_token", table.join(1, "Bo"))
    assert 'data-testid="leave"' in client.get("/play").get_data(as_text=True)


def test_the_configured_public_url_goes_into_the_join_url(table):
    from web import create_app

    app = create_app(table, public_url="http://companion.local/")
    try:
        body = app.test_client().get("/").get_data(as_text=True)
    finally:
        app.extensions["companion"].events.stop()
    assert f"HTTP://COMPANION.LOCAL/J/{table.join_code}" in body


def test_the_join_code_works_in_any_case_and_a_wrong_one_gets_a_friendly_404(client, table):
    table.start_game("swap5", 2)
    assert client.get(f"/J/{table.join_code.lower()}").status_code == 200
    response = client.get("/J/WRONG")
    assert response.status_code == 404
    assert "This join code is not right" in response.get_data(as_text=True)


def test_the_first_scan_of_an_idle_table_leads_to_the_start_form_first(client, table):
    answer = client.get(f"/J/{table.join_code}")
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert home.index('id="start-form"') < home.index('class="join-qr"'), "Start a game is not first"
    table.claim_host()  # someone leads already: the join page says the host is choosing
    assert client.get(f"/J/{table.join_code}").status_code == 200


def test_a_typed_join_code_leads_to_its_join_page_in_any_case(client, table):
    answer = client.get(f"/J?code=+{table.join_code.lower()}+")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/J/{table.join_code}"
    assert client.get("/J?code=").headers["Location"] == "/"
    assert 'action="/J"' in client.get("/").get_data(as_text=True)


def test_language_follows_the_switch_then_the_cookie_then_the_browser(client):
    assert page_data(client.get("/", headers={"Accept-Language": "ja,en;q=0.5"}))["lang"] == "ja"
    assert page_data(client.get("/", headers={"Accept-Language": "fr"}))["lang"] == "en"
    response = client.get("/?lang=ja", headers={"Accept-Language": "en"})
    assert page_data(response)["lang"] == "ja"
    assert "lang=ja" in response.headers["Set-Cookie"]
    # The cookie now wins over the browser's language...
    later = client.get("/", headers={"Accept-Language": "en"})
    assert page_data(later)["lang"] == "ja" and '<html lang="ja">' in later.get_data(as_text=True)
    # ...and an unknown ?lang= changes nothing.
    assert page_data(client.get("/?lang=xx", headers={"Accept-Language": "en"}))["lang"] == "ja"


def test_the_language_switch_shows_the_same_page_with_its_query_kept(client):
    body = client.get("/records?game=swap5&lang=en").get_data(as_text=True)
    assert 'class="lang-switch" href="?game=swap5&amp;lang=ja"' in body
    body = client.get("/rules?lang=ja").get_data(as_text=True)
    assert 'class="lang-switch" href="?lang=en"' in body


def test_a_configured_language_wins_over_the_browser_but_not_over_the_switch(table):
    from web import create_app

    app = create_app(table, language="ja")
    client = app.test_client()
    try:
        assert page_data(client.get("/"))["lang"] == "ja"
        assert page_data(client.get("/", headers={"Accept-Language": "en-US"}))["lang"] == "ja"
        assert page_data(client.get("/?lang=en", headers={"Accept-Language": "en-US"}))["lang"] == "en"
    finally:
        app.extensions["companion"].events.stop()


def test_rejoin_link_sets_the_seat_cookie_and_leaves_the_address_bar(client, table):
    table.start_game("meow-oracle", 2, seed=1)
    token = table.join(1, "Ada")
    response = client.get(f"/R/{token}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/play")
    cookie = response.headers["Set-Cookie"]
    assert f"seat_token={token}" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"  # the answer sets a token: no cache may keep it
    # The phone page now knows the seat and offers the phone its own rejoin link.
    play = client.get("/play")
    assert page_data(play)["seat"] == 1
    assert f"/R/{token}" in play.get_data(as_text=True)


def test_rejoin_link_of_the_host_leads_home_and_opens_the_host_tools(client, table):
    token = table.claim_host()
    response = client.get(f"/R/{token}")
    assert response.status_code == 303 and response.headers["Location"].endswith("/")
    assert f"host_token={token}" in response.headers["Set-Cookie"]
    assert response.headers["Cache-Control"] == "no-store"
    assert client.get("/host").status_code == 200


def test_an_unknown_rejoin_token_gets_a_friendly_404_and_no_cookie(client):
    response = client.get("/R/not-a-token")
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers
    assert "This link no longer works" in response.get_data(as_text=True)


def test_host_tools_are_for_the_host_only(client, table):
    table.start_game("lion-square", 3, seed=1)
    client.set_cookie("seat_token", table.join(0, "Ann"))
    response = client.get("/host")
    assert response.status_code == 403
    assert "Only the host can open this page" in response.get_data(as_text=True)


def test_the_start_form_is_offered_on_an_idle_table_and_then_only_to_the_host(client, table):
    assert 'id="start-form"' in client.get("/").get_data(as_text=True)
    table.claim_host()
    assert 'id="start-form"' not in client.get("/").get_data(as_text=True)


def test_names_are_escaped_in_pages(client, table):
    """Names reach pages only through the API and textContent; the one place a page
    holds server data, page-data, must not break out of its script element."""
    table.start_game("lion-square", 3, seed=1)
    token = table.join(0, "</script><b>x")
    client.set_cookie("seat_token", token)
    body = client.get("/play").get_data(as_text=True)
    assert "</script><b>" not in body


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_both_languages_have_the_same_keys_and_no_empty_text(lang):
    texts = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    other = json.loads((WEB / "i18n" / f"{'ja' if lang == 'en' else 'en'}.json").read_text(encoding="utf-8"))
    assert texts.keys() == other.keys()
    assert all(isinstance(v, str) and v.strip() for v in texts.values())


def test_every_text_key_the_templates_use_exists():
    texts = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    used = set()
    for template in (WEB / "templates").glob("*.html"):
        used |= set(re.findall(r"tr\['([\w.-]+)'\]", template.read_text(encoding="utf-8")))
    for reason in ("join", "rejoin", "host", "play"):
        used |= {f"missing.title.{reason}", f"missing.explain.{reason}"}
    assert used and used <= texts.keys(), sorted(used - texts.keys())


def test_every_plain_text_key_the_scripts_use_exists():
    texts = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    used = set()
    for script in (WEB / "static").rglob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.-]+)"', script.read_text(encoding="utf-8")))
    assert used and used <= texts.keys(), sorted(used - texts.keys())


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_has_step_texts_in_both_languages(game_id, client, table):
    """Each game's steps are named in the page's words; a game without a renderer of its
    own is drawn by the generic one, which the page is told about."""
    texts = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")}
    game = games.get(game_id)
    table.start_game(game_id, game.min_players, seed=1)
    step = table.view(None)["public"].get("step")
    if step is not None:
        for lang in ("en", "ja"):
            assert f"step.{game_id}.{step}" in texts[lang], f"{lang}: no text for {game_id}'s step {step!r}"
    renderers = page_data(client.get("/play"))["renderers"]
    assert set(renderers) <= set(games.ids()), "a renderer for an unknown game"


def test_a_table_that_cannot_save_says_so_on_every_page(client, table):
    table._store.problem = "the companion cannot save its data in /var/lib (read-only file system)"
    for path in ("/", "/table", "/play"):
        text = client.get(path).get_data(as_text=True)
        assert 'role="alert"' in text and "read-only file system" in text, path
    assert client.get("/api/table").json["problem"] == table.problem

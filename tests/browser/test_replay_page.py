"""The replay page (/replay/<id>) in real headless Chromium at the phones' sizes, and the
finished game's links on the phone (BG Stats, the replay).

Every wait is on an event (the step on screen, ``data-step``; an element's text or
attribute), never a sleep. The plays are made through the table in this process with seeded
random legal moves; the pages are compared with the records' own answers.
"""

from __future__ import annotations

import json
import random
import urllib.request
import warnings
from pathlib import Path

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)
from test_pages_browser import join_by_url  # noqa: E402
from browser_support import shows_current  # noqa: E402

from companion import games  # noqa: E402

SIZES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}
NAMES = ["Aki", "ベン", "Chie", "Dan", "Emi", "Fumi"]


def finish(table, game_id: str, seed: int = 3) -> int:
    """Play ``game_id`` to its end on ``table`` with seeded random legal moves (seats joined
    by name as phones would); return its play id."""
    game = games.get(game_id)
    players = game.player_counts[0]
    if any(table.names()):
        table.free_all_seats()
    table.start_game(game_id, players, seed=seed)
    for seat in range(players):
        table.join(seat, NAMES[seat])
    return play_on(table, seed)


def play_on(table, seed: int = 3) -> int:
    """Finish the table's game with seeded random legal moves; return its play id."""
    game, chooser = games.get(table.game_id), random.Random(seed)
    while not game.is_over(table.state()):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
    return table.view(None)["play_id"]


def answer(live, path: str) -> dict:
    with urllib.request.urlopen(live.url + path) as response:
        return json.load(response)


def on_step(page, step: int) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
    assert page.url.endswith(f"?step={step}")


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


@pytest.mark.parametrize("size", SIZES)
def test_stepping_through_a_play_with_buttons_slider_and_keys(live, new_phone, size):
    play_id = finish(live.table, "lion-square")
    moves = [action for action in answer(live, f"/api/plays/{play_id}")["actions"] if not action["undone"]]
    page = new_phone(viewport=SIZES[size])
    errors = watch_errors(page)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.split("?")[-1]) if "/replay?" in request.url else None)
    page.goto(f"{live.url}/replay/{play_id}")
    on_step(page, 0)
    expect(page.get_by_test_id("step-count")).to_have_text(f"Move 0 / {len(moves)}")
    expect(page.get_by_test_id("move")).to_have_text("The start: nobody has moved yet.")
    expect(page.get_by_test_id("back")).to_be_disabled()

    page.get_by_test_id("forward").click()
    on_step(page, 1)
    expect(page.get_by_test_id("move")).to_have_text(" ".join(text["en"] for text in moves[0]["text"]))
    page.get_by_test_id("forward").click()
    on_step(page, 2)
    page.get_by_test_id("back").click()
    on_step(page, 1)
    page.get_by_test_id("last").click()
    on_step(page, len(moves))
    expect(page.get_by_test_id("forward")).to_be_disabled()
    page.get_by_test_id("first").click()
    on_step(page, 0)
    assert asked == ["step=0", "step=1", "step=2", f"step={len(moves)}"], "a step already seen is fetched again"

    page.get_by_test_id("slider").fill("10")
    on_step(page, 10)
    page.locator("h1").click()  # the keys step wherever the page has the focus, off the slider too
    page.keyboard.press("ArrowRight")
    on_step(page, 11)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    on_step(page, 9)
    expect(page.get_by_test_id("slider")).to_have_value("9")

    # Every hand, as the replay answers it: each seat's cards, under its name.
    hands = answer(live, f"/api/plays/{play_id}/replay?step=9")["hands"]
    for seat, name in enumerate(NAMES[:3]):
        hand = page.locator(f'.hand-of[data-seat="{seat}"]')
        expect(hand.locator("h3")).to_have_text(name)
        expect(hand.locator("[data-card]")).to_have_count(len(hands[str(seat)]["hand"]))
        assert [card.get_attribute("data-card") for card in hand.locator("[data-card]").all()] == hands[str(seat)]["hand"]
    expect(page.locator(".hand-of").first).to_contain_text("Hand")
    assert "Your" not in page.locator("#hands").inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page is wider than the phone"
    assert not errors, errors


def test_a_link_shows_a_moment_and_a_step_the_play_lacks_is_said(live, new_phone):
    play_id = finish(live.table, "swap5")
    steps = answer(live, f"/api/plays/{play_id}/replay?step=0")["steps"]
    page = new_phone(viewport=SIZES["360x640"])
    page.goto(f"{live.url}/replay/{play_id}#7")
    on_step(page, 7)
    expect(page.get_by_test_id("step-count")).to_have_text(f"Move 7 / {steps}")
    page.goto(f"{live.url}/replay/{play_id}?step=3&lang=ja")
    on_step(page, 3)
    expect(page.get_by_test_id("step-count")).to_have_text(f"3手目 / 全{steps}手")
    page.locator('[data-go="forward"]').click()
    on_step(page, 4)
    page.locator(".lang-switch").click()  # the other language, at the same moment
    on_step(page, 4)
    expect(page.get_by_test_id("step-count")).to_have_text(f"Move 4 / {steps}")
    page.goto(f"{live.url}/replay/{play_id}?step=9999&lang=en")
    on_step(page, 0)
    expect(page.locator("#status")).to_have_text(f"This play has no move 9999 (it has {steps}): showing the start.")


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_replays_from_start_to_end(live, new_phone, game_id):
    """The trackers too: each step drawn by the game's renderer without an error."""
    play_id = finish(live.table, game_id)
    steps = answer(live, f"/api/plays/{play_id}/replay?step=0")["steps"]
    page = new_phone(viewport=SIZES["390x844"])
    errors = watch_errors(page)
    page.goto(f"{live.url}/replay/{play_id}")
    on_step(page, 0)
    page.get_by_test_id("slider").fill(str(steps // 2))
    on_step(page, steps // 2)
    page.get_by_test_id("last").click()
    on_step(page, steps)
    expect(page.locator("#step-view .board")).not_to_be_empty()
    secret = any(answer(live, f"/api/plays/{play_id}/replay?step={steps}")["hands"].values())
    expect(page.locator(".hand-of")).to_have_count(games.get(game_id).player_counts[0] if secret else 0)
    if not secret:
        expect(page.locator(".no-hands")).to_be_visible()
    assert not errors, errors


def test_an_abandoned_play_replays_and_says_so(live, new_phone):
    table = live.table
    table.start_game("swap5", 2, seed=1)
    table.join(0, "Aki")
    table.join(1, "Ben")
    for _ in range(4):
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    play_id = table.view(None)["play_id"]
    table.start_game("pig-house", 2)  # abandons the SWAP 5 game
    page = new_phone(viewport=SIZES["360x640"])
    page.goto(f"{live.url}/replay/{play_id}?step=4")
    on_step(page, 4)
    expect(page.get_by_test_id("abandoned")).to_be_visible()
    expect(page.locator(".hand-of")).to_have_count(2)


@pytest.mark.parametrize("lang, words", [("en", ("Send to BG Stats", "Watch the replay")), ("ja", ("BG Statsに記録", "リプレイを見る"))])
def test_the_finished_games_phone_links_to_bg_stats_and_the_replay(live, new_phone, lang, words):
    table = live.table
    table.start_game("pig-house", 2, seed=4)
    phones = [new_phone(), new_phone()]
    for seat, page in enumerate(phones):
        join_by_url(page, live, seat, NAMES[seat])
        page.goto(f"{live.url}/play?lang={lang}")
    play_id = play_on(table, seed=4)
    for page in phones:
        shows_current(page, live.table)
        expect(page.get_by_test_id("result")).to_be_visible()
        link = page.get_by_test_id("bgstats")
        expect(link).to_have_text(words[0])
        expect(link).to_have_attribute("href", answer(live, f"/api/plays/{play_id}")["bgstats_url"])
        expect(link).to_have_attribute("target", "_blank")
        expect(link).to_have_attribute("rel", "noopener")
        expect(page.get_by_test_id("replay")).to_have_text(words[1])
    phones[0].get_by_test_id("replay").click()
    phones[0].wait_for_url(f"**/replay/{play_id}")
    on_step(phones[0], 0)


def test_phones_showing_the_result_leave_the_last_move_undoable_until_a_replay(live, new_phone):
    """Phones at game over show the BG Stats link without asking for the moves, so the host
    can still take the game-ending move back (from the host page, after the phones showed the
    result); the next end brings its own link. Once a phone opens the replay, the host page's
    undo is refused and says why."""
    table = live.table
    host_token = table.start_game("swap5", 2, seed=4, claim_host=True)
    phones = [new_phone(), new_phone()]
    for seat, page in enumerate(phones):
        join_by_url(page, live, seat, NAMES[seat])
    host = new_phone()
    host.goto(f"{live.url}/R/{host_token}")
    host.wait_for_url(f"{live.url}/")
    host.goto(f"{live.url}/host")
    play_id = play_on(table, seed=4)
    for page in phones:
        shows_current(page, table)
        expect(page.get_by_test_id("bgstats")).to_have_attribute("href", answer(live, f"/api/plays/{play_id}/result")["bgstats_url"])

    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#undo").click()
    expect(host.locator("#status")).to_have_text("The last move was taken back.")
    assert not games.get("swap5").is_over(table.state())
    for page in phones:
        shows_current(page, table)
        expect(page.get_by_test_id("result")).to_have_count(0)

    play_on(table, seed=5)
    ended = answer(live, f"/api/plays/{play_id}/result")["bgstats_url"]
    for page in phones:
        shows_current(page, table)
        expect(page.get_by_test_id("bgstats")).to_have_attribute("href", ended)
    phones[0].get_by_test_id("replay").click()
    on_step(phones[0], 0)
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#undo").click()
    expect(host.locator("#status")).to_contain_text("its replay or moves have been opened")
    assert games.get("swap5").is_over(table.state())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_replay_names_a_bot_in_the_pages_language(live, new_phone, lang):
    """The bot's move, the players and the summary say "ボット2（ふつう）" on a Japanese page and
    "Bot 2 (normal)" on an English one, as the live phone does, never the kept "Bot 2 (Normal)"."""
    from companion.bots.seats import bot_name

    table = live.table
    table.start_game("swap5", 2, seed=3)
    table.join(0, "Aki")
    table.join(1, bot_name(1, "normal"), bot="normal")
    play_id = play_on(table, seed=3)
    texts = json.loads((Path(__file__).parents[2] / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    spoken, kept = texts["bot.name.normal"].format(n=2), bot_name(1, "normal")
    moves = [action for action in answer(live, f"/api/plays/{play_id}")["actions"] if not action["undone"]]
    step = next(k for k, move in enumerate(moves, start=1) if move["seat"] == 1)
    page = new_phone(locale="ja-JP" if lang == "ja" else "en-GB")
    page.goto(f"{live.url}/replay/{play_id}?step={step}&lang={lang}")
    on_step(page, step)
    expect(page.get_by_test_id("move")).to_contain_text(spoken)
    expect(page.get_by_test_id("players")).to_contain_text(spoken)
    expect(page.get_by_test_id("summary")).to_contain_text(spoken)
    expect(page.locator("main")).not_to_contain_text(kept)

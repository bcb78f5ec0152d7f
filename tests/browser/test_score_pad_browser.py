"""The score pad (issue 36, point 2) on phones at 360x640 in real Chromium: a returning group
starts it and sits without typing (the game's name and each player's name one tap each);
every score, the turn passed, a new round, a correction and the end take at most two taps,
each on the first screen; the correction is kept and shown on every phone."""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing, seated_phone, shows_current

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

SMALL = {"viewport": {"width": 360, "height": 640}}


def tap(page, locator, table):
    """One tap on ``locator``, first on the screen as it is (no scrolling), then wait until the
    page has drawn whatever the tap changed."""
    expect(locator).to_be_in_viewport()
    before = table.version
    locator.click()
    return before


def changed(page, table, before):
    """Wait until the table moved past ``before`` and ``page`` shows it."""
    assert table.wait(before, 60) > before
    shows_current(page, table)
    expect(page.locator("#game")).to_have_attribute("aria-busy", "false")


def finished_pad(table, names, name):
    """A score pad of ``name`` played to its end by ``names`` (through the table, as phones would)."""
    table.start_game("score-pad", len(names), seed=1, options={"name": name, "wins": "highest"})
    for seat, player in enumerate(names):
        table.join(seat, player)
    table.act(0, {"type": "add", "seat": 0, "points": 1}, table.version)
    table.act(0, {"type": "finish"}, table.version)
    table.free_all_seats()


def test_a_returning_group_starts_the_pad_and_sits_without_typing(live, new_phone):
    table = live.table
    finished_pad(table, ["Aki", "Ben"], "Catan")

    host = new_phone(**SMALL)
    host.goto(live.url)
    host.locator("#start-game").select_option("score-pad")  # the game: a list, as for every game
    chip = host.get_by_test_id("used-name").filter(has_text="Catan")
    chip.click()  # one tap: the game's name used before
    expect(host.locator("#option-name")).to_have_value("Catan")
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(host.get_by_test_id("start")).to_be_visible()
    host.get_by_test_id("start").click()
    host.wait_for_url("**/J/*")
    assert table.state()["options"]["name"] == "Catan" and table.game_id == "score-pad"

    for seat, name in enumerate(["Aki", "Ben"]):
        phone = new_phone(**SMALL)
        phone.goto(f"{live.url}/J/{table.join_code}")
        used = phone.get_by_test_id("used-name").filter(has_text=name)
        expect(used).to_be_in_viewport()
        used.click()  # tap 1: the name, never typed
        expect(phone.locator("#name")).to_have_value(name)
        sit = phone.get_by_test_id(f"sit-{seat}")
        expect(sit).to_be_in_viewport()
        sit.click()  # tap 2: the seat
        phone.wait_for_url("**/play")
        shows_current(phone, table)
        expect(phone.locator("h1")).to_have_text("Catan")  # the page's title: the game named
    assert table.names() == ["Aki", "Ben"]
    # A name already at the table is not offered again.
    late = new_phone(**SMALL)
    late.goto(f"{live.url}/J/{table.join_code}")
    expect(late.locator("#seats")).to_contain_text("Ben")
    expect(late.get_by_test_id("used-name")).to_have_count(0)


def test_scores_turns_rounds_a_correction_and_the_end_in_two_taps_each(live, new_phone):
    table = live.table
    table.start_game("score-pad", 3, seed=1, options={"name": "Catan", "wins": "highest"})
    aki, ben = (seated_phone(live, new_phone, seat, name, **SMALL) for seat, name in enumerate(["Aki", "Ben"]))
    table.join(2, "Cy")
    shows_current(aki, table)

    # A score: the player's row (selects only), then a step (sends).
    before = tap(aki, aki.get_by_test_id("pad-player-1"), table)
    assert table.version == before  # the first tap only selects
    expect(aki.get_by_test_id("pad-player-1")).to_have_attribute("aria-pressed", "true")
    before = tap(aki, aki.get_by_test_id("step-5"), table)
    changed(aki, table, before)
    assert table.state()["rounds"] == [[0, 5, 0]]
    # Ben stays chosen: his next step is one tap.
    before = tap(aki, aki.get_by_test_id("step-10"), table)
    changed(aki, table, before)
    expect(aki.get_by_test_id("pad-points-1")).to_have_text("15")
    shows_current(ben, table)
    expect(ben.get_by_test_id("pad-total-1")).to_contain_text("15")
    expect(ben.get_by_test_id("pad-total-1")).to_contain_text("leads")  # the leader in words, not colour alone

    # The turn marker: one tap passes the turn (the turn clock follows it).
    expect(aki.get_by_test_id("pad-row-0")).to_contain_text("▶ Aki")
    before = tap(aki, aki.get_by_test_id("pass"), table)
    changed(ben, table, before)
    assert table.view(None)["waiting_for"] == [1]
    expect(ben.get_by_test_id("turn")).to_have_text("Your turn!")

    # A new round: selected, then confirmed.
    before = tap(ben, ben.get_by_test_id("next-round"), table)
    assert table.version == before
    before = tap(ben, ben.get_by_test_id("confirm"), table)
    changed(ben, table, before)
    assert table.state()["rounds"] == [[0, 15, 0], [0, 0, 0]]

    # A correction of round 1: the round (one tap opens it), then Ben's row and a step.
    before = tap(aki, aki.get_by_test_id("round-0"), table)
    changed(aki, table, before)
    expect(aki.get_by_test_id("correcting")).to_contain_text("Correcting round 1")
    tap(aki, aki.get_by_test_id("pad-player-1"), table)
    before = tap(aki, aki.get_by_test_id("step--1"), table)
    changed(ben, table, before)
    assert table.state()["rounds"][0] == [0, 14, 0]
    for phone in (aki, ben):
        shows_current(phone, table)
        expect(phone.get_by_test_id("corrections")).to_have_text("Round 1: Ben 15 → 14 · by Aki, during round 2")
    before = tap(aki, aki.get_by_test_id("back-to-newest"), table)
    changed(aki, table, before)
    assert table.state()["open"] == 1

    # The end: selected, then confirmed; the ranking on every phone.
    before = tap(aki, aki.get_by_test_id("finish"), table)
    expect(aki.get_by_test_id("confirm")).to_contain_text("Finish the game now (Ben ahead)")
    assert table.version == before
    before = tap(aki, aki.get_by_test_id("confirm"), table)
    changed(ben, table, before)
    assert table.view(None)["result"]["winners"] == [1]
    expect(ben.get_by_test_id("ranking")).to_contain_text("1. Ben: 14 points ★ wins")


def test_the_table_screen_shows_the_pad_without_controls(live, new_phone):
    table = live.table
    table.start_game("score-pad", 2, seed=1, options={"name": "ごきぶりポーカー", "wins": "lowest"})
    table.join(0, "Aki")
    table.join(1, "Ben")
    table.act(0, {"type": "add", "seat": 1, "points": 5}, table.version)
    screen = new_phone(**SMALL)
    screen.goto(f"{live.url}/table")
    shows_current(screen, table)
    expect(screen.locator("h1")).to_have_text("ごきぶりポーカー")
    expect(screen.locator("#game")).to_contain_text("lowest total wins")  # the status line
    expect(screen.get_by_test_id("pad-points-1")).to_have_text("5")
    expect(screen.get_by_test_id("step-5")).to_have_count(0)
    expect(screen.get_by_test_id("pass")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_six_players_score_and_move_on_without_a_scroll_and_the_next_tap_said_once(live, new_phone, lang):
    """The most seats at 360x640: every player's row, the chosen player's steps, *Next round*,
    *Finish* and their confirm button are all on the first screen (while correcting: the note,
    *Back to round N*, the rows and the steps), and what to tap next is said once."""
    table = live.table
    table.start_game("score-pad", 6, seed=1, options={"name": "7 Wonders", "wins": "highest"})
    names = ["Aki", "Ben", "Cy", "Dai", "Emi", "Fumi"]
    phone = seated_phone(live, new_phone, 0, names[0], locale="ja-JP" if lang == "ja" else "en-US", **SMALL)
    for seat, name in enumerate(names[1:], start=1):
        table.join(seat, name)
    shows_current(phone, table)
    prompt = {"en": "Tap a player, then the points", "ja": "プレイヤーをタップしてから"}[lang]
    expect(phone.get_by_text(prompt)).to_have_count(1)
    expect(phone.get_by_text(prompt)).to_be_in_viewport(ratio=1)
    for seat in range(6):
        expect(phone.get_by_test_id(f"pad-player-{seat}")).to_be_in_viewport(ratio=1)
    tap(phone, phone.get_by_test_id("pad-player-5"), table)
    for control in ["step--10", "step--1", "step-1", "step-10", "next-round", "finish", "pass"]:
        expect(phone.get_by_test_id(control)).to_be_in_viewport(ratio=1)  # whole, not a sliver
    before = tap(phone, phone.get_by_test_id("step-10"), table)
    changed(phone, table, before)
    assert table.state()["rounds"] == [[0, 0, 0, 0, 0, 10]]
    expect(phone.get_by_test_id("next-round")).to_be_in_viewport(ratio=1)
    expect(phone.get_by_text(prompt)).to_have_count(0)  # Fumi stays chosen: the prompt is now the steps'
    tap(phone, phone.get_by_test_id("next-round"), table)
    before = tap(phone, phone.get_by_test_id("confirm"), table)  # the second tap, on the same screen
    changed(phone, table, before)
    before = tap(phone, phone.get_by_test_id("round-0"), table)  # correcting round 1
    changed(phone, table, before)
    tap(phone, phone.get_by_test_id("pad-player-5"), table)
    for control in ["correcting", "back-to-newest", "pad-player-0", "step--10", "step-10"]:
        expect(phone.get_by_test_id(control)).to_be_in_viewport(ratio=1)
    before = tap(phone, phone.get_by_test_id("back-to-newest"), table)
    changed(phone, table, before)
    tap(phone, phone.get_by_test_id("finish"), table)
    expect(phone.get_by_test_id("confirm")).to_be_in_viewport(ratio=1)

"""The trackers' entry forms in real headless Chromium: phones join and enter by taps.

Like ``test_pages_browser.py``: every wait is on an event (an element's text or attribute,
the table's version), never a sleep; the table runs in this process, so the tests read its
state to check what the taps did, and compare the pages with the engine's own views.
"""

from __future__ import annotations

import json
import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)
from test_pages_browser import after, join_by_url  # noqa: E402
from browser_support import shows_current  # noqa: E402


def action_json(action: dict) -> str:
    """An action as the pages write it in ``data-action`` (JavaScript's JSON.stringify)."""
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False)


def tap(page, live, phones, action: dict, *, confirm: bool = False) -> None:
    """Tap the button of ``action`` on ``page`` (then the confirm button when it asks for
    one) and wait until the table and every phone have moved on."""
    before = live.table.version
    open_tab_of(page, action)
    page.locator(f"[data-action='{action_json(action)}']").click()
    if confirm:
        assert live.table.version == before, "this move must wait for its confirm button"
        page.get_by_test_id("confirm").click()
    after(live, phones, before)


def open_tab_of(page, action: dict) -> None:
    """An entry form shows one question at a time (tabs.js): tap the tab of ``action``'s
    button first when another tab is open."""
    panel = page.locator(f"[role=tabpanel]:has([data-action='{action_json(action)}'])")
    if panel.count() and panel.is_hidden():
        page.locator(f"[role=tab][aria-controls='{panel.get_attribute('id')}']").click()
        expect(panel).to_be_visible()


def confirm(page, live, phones, text: str) -> None:
    """Tap the action bar's big button (the only move, or a move to confirm), checking its words."""
    before = live.table.version
    expect(page.get_by_test_id("confirm")).to_contain_text(text)
    page.get_by_test_id("confirm").click()
    after(live, phones, before)


def join_all(live, new_phone, names):
    phones = [new_phone() for _ in names]
    for seat, (page, name) in enumerate(zip(phones, names)):
        join_by_url(page, live, seat, name)
    return phones


# ------------------------------------------------------------------ Lion Square ledger


def test_ledger_a_round_with_a_typed_loss_a_helper_entry_and_a_correction(live, new_phone):
    table = live.table
    table.start_game("lion-square-ledger", 3, seed=1)
    phones = join_all(live, new_phone, ["Aiko", "Ben", "Chie"])
    for page in phones:
        expect(page.get_by_test_id("herd")).to_have_text("20")

    # Aiko types 7: not the last entry, so it goes at once, and can still be corrected.
    tap(phones[0], live, phones, {"type": "loss", "loss": 7})
    expect(phones[0].get_by_test_id("entry")).to_contain_text("you lose 7")
    expect(phones[0].get_by_test_id("entry")).to_contain_text("change it")
    expect(phones[1].get_by_test_id("waiting")).to_have_text("Still to enter: Ben, Chie")
    expect(phones[1].locator(".seats li").nth(0)).to_contain_text("✓ entered")
    # A typed loss closes the helper until it is cleared; its tab stays open.
    expect(phones[0].locator('[data-action*="nearest"]')).to_have_count(0)
    expect(phones[0].locator("[role=tab][aria-selected=true]")).to_have_attribute("data-tab", "typed")
    expect(phones[0].locator("[role=tab][data-tab=typed]")).to_contain_text("7")

    # Ben uses the helper, one question at a time: nearest 5, empty line, 3; 3 taken; 1 gazelle.
    # Each answer opens the next question's tab, and its own tab names the answer.
    for action, then in (({"type": "nearest", "line": 0, "n": 5}, "middle"), ({"type": "nearest", "line": 1, "n": 0}, "right"),
                         ({"type": "nearest", "line": 2, "n": 3}, "taken"), ({"type": "taken", "count": 3}, "gazelles")):
        expect(phones[1].locator(f"[role=tabpanel]:has([data-action='{action_json(action)}'])")).to_be_visible()
        tap(phones[1], live, phones, action)
        expect(phones[1].get_by_test_id("entry")).to_have_text("Not entered")
        expect(phones[1].locator("[role=tab][aria-selected=true]")).to_have_attribute("data-tab", then)
    expect(phones[1].locator("[role=tab][data-tab=left]")).to_contain_text("5")
    tap(phones[1], live, phones, {"type": "gazelles", "count": 1})
    expect(phones[1].get_by_test_id("entry")).to_contain_text("you lose 11")  # 5 + 0 + 3 + ⌈3/2⌉ + 1
    assert table.view(1)["private"]["entry"]["loss"] == 11

    # Aiko corrects her typed loss: the current answer moves, the entry follows.
    tap(phones[0], live, phones, {"type": "loss", "loss": 4})
    expect(phones[0].get_by_test_id("entry")).to_contain_text("you lose 4")
    expect(phones[0].locator(f"[data-action='{action_json({'type': 'loss', 'loss': 4})}']")).to_have_class("tr-number current")
    # Nobody else's page carries the secret numbers.
    assert "lose 4" not in phones[2].locator("#game").inner_text()

    # Chie is last: her entry ends the round, so it asks to confirm first.
    expect(phones[2].get_by_test_id("waiting")).to_have_text("Still to enter: Chie")
    before = table.version
    open_tab_of(phones[2], {"type": "loss", "loss": 2})
    phones[2].locator(f"[data-action='{action_json({'type': 'loss', 'loss': 2})}']").click()
    expect(phones[2].get_by_test_id("confirm")).to_have_text("Enter a loss of 2 (you are the last: this ends the round)")
    assert table.version == before
    phones[2].get_by_test_id("confirm").click()
    after(live, phones, before)

    for page, herd in zip(phones, (16, 9, 18)):
        expect(page.get_by_test_id("herd")).to_have_text(str(herd))
    assert [table.view(seat)["private"]["herd"] for seat in range(3)] == [16, 9, 18]
    expect(phones[1].locator(".tr-herd")).to_contain_text("round 1 −11")

    # Any phone starts the next round.
    confirm(phones[1], live, phones, "Next round")
    assert table.view(None)["public"]["round"] == 2
    expect(phones[0].locator(".game-status")).to_contain_text("Round 2 of 3")
    expect(phones[0].get_by_test_id("waiting")).to_have_text("Still to enter: Aiko, Ben, Chie")


# ------------------------------------------------------------------ Meow Oracle scorer

CARDS = [("red", 1), ("red", 2), ("red", 3), ("blue", 4), ("wild", 5), ("blue", 6), ("green", 7), ("green", 8), ("green", 9)]


def test_scorer_a_nine_card_entry_and_a_typed_total(live, new_phone):
    table = live.table
    table.start_game("meow-oracle-scorer", 2, seed=1)
    phones = join_all(live, new_phone, ["Aiko", "Ben"])

    # Naming the start player asks to confirm.
    tap(phones[0], live, phones, {"type": "start-player", "seat": 1}, confirm=True)
    expect(phones[1].locator(".tr-hint").first).to_have_text("Ben starts round 1")

    # Aiko enters her nine cards: a colour, then a number; each fills the next cell.
    for index, (colour, n) in enumerate(CARDS):
        phones[0].locator(f'.tr-colours [data-color="{colour}"]').click()
        tap(phones[0], live, phones, {"type": "card", "color": colour, "n": n})
        row, col = divmod(index, 3)
        cell = phones[1].locator(f'.mo-area[data-seat="0"] [data-cell="[{row},{col}]"]')
        expect(cell).to_contain_text(f"{'★' if colour == 'wild' else colour[0].upper()}{n}")
        if index == 1:
            # A wrong card is cleared by tapping it; the next card fills that cell again.
            tap(phones[0], live, phones, {"type": "clear", "row": 0, "col": 1})
            expect(phones[0].locator('.mo-area.own [data-cell="[0,1]"] .tr-next')).to_have_count(1)
            phones[0].locator('.tr-colours [data-color="red"]').click()
            tap(phones[0], live, phones, {"type": "card", "color": "red", "n": 2})
    # A card entered is not offered to anyone again (every card exists once).
    phones[1].locator('.tr-colours [data-color="red"]').click()
    expect(phones[1].locator(f"[data-action='{action_json({'type': 'card', 'color': 'red', 'n': 1})}']")).to_have_count(0)
    expect(phones[1].locator(f"[data-action='{action_json({'type': 'card', 'color': 'red', 'n': 4})}']")).to_have_count(1)
    assert table.view(None)["public"]["entered"] == [True, False]

    # Ben types his total (its tab first); he is the last, so it asks to confirm, then the round is scored.
    tap(phones[1], live, phones, {"type": "total", "total": 6}, confirm=True)
    record = table.view(None)["public"]["results"][0]
    for page in phones:
        rows = page.locator('.tr-results[data-round="1"] tbody tr')
        for seat, name in enumerate(("Aiko", "Ben")):
            cells = rows.nth(seat).locator("td")
            expect(rows.nth(seat).locator("th")).to_have_text(name)
            expect(cells.nth(2)).to_have_text(str(record["totals"][seat]))
            expect(cells.nth(3)).to_have_text(str(record["wins"][seat]))
        expect(rows.nth(1).locator("td").nth(0)).to_have_text("typed")
        expect(page.locator('.tr-results[data-round="1"] .tr-hint')).to_have_text(
            f"{['Aiko', 'Ben'][record['next_start_player']]} starts round 2 (lowest total).")
    confirm(phones[0], live, phones, "Next round")
    expect(phones[1].locator(".game-status")).to_contain_text("Round 2 of 2")


# ------------------------------------------------------------------ Pig House


def test_pig_house_a_scouting_turn_then_a_building_turn_with_the_die_and_an_attack(live, new_phone):
    table = live.table
    table.start_game("pig-house", 3, seed=4)
    phones = join_all(live, new_phone, ["Aiko", "Ben", "Chie"])
    expect(phones[0].locator(".game-status")).to_contain_text("Scouting")

    # Scouting, seat 0: one pig action, then the wolf moves (the only move: one big button).
    expect(phones[1].get_by_test_id("controls")).to_have_count(0)
    tap(phones[0], live, phones, {"type": "pig_action", "kind": "tile"})
    confirm(phones[0], live, phones, "Move the wolves")
    public = table.view(None)["public"]
    wolf = public["wolves"][0]
    for page in phones:
        expect(page.locator(f'.ph-square[data-square="{wolf["square"]}"] .ph-wolf')).to_have_text("W★")  # a wolf piece, not its id
        expect(page.locator(".ph-chip").last).to_contain_text(public["schedule"][-1]["card"]["name"]["en"])

    # The other scouting turns are played at the table itself, the same way.
    while table.view(None)["public"]["phase"] == "scouting":
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    public = table.view(None)["public"]
    seat = public["seat"]
    assert (public["step"], seat) == ("roll", 1)
    for page in phones:
        shows_current(page, live.table)
        expect(page.locator(".game-status")).to_contain_text("Chaotic building")

    # Chaotic building: Ben rolls; the face shows big on every phone.
    confirm(phones[1], live, phones, "Roll the die")
    die = table.view(None)["public"]["die"]
    assert die["pot"], "this seed must roll a pot"
    for page in phones:
        expect(page.get_by_test_id("die")).to_contain_text(f"{die['pigs']} pig actions + pot")
    tap(phones[1], live, phones, {"type": "pot", "action": "place"})
    expect(phones[1].get_by_test_id("pig-actions-left")).to_have_text(f"Pig actions left: {die['pigs']}")
    tap(phones[1], live, phones, {"type": "pig_action", "kind": "tile"})
    tap(phones[1], live, phones, {"type": "pig_action", "kind": "move"})
    expect(phones[1].get_by_test_id("pig-actions-left")).to_have_count(0)
    confirm(phones[1], live, phones, "Move the wolves")

    # The attack: off-turn, Chie reports a pig lost and Aiko uses her invincibility
    # (each asks to confirm); then Ben, whose turn it is, ends the attack.
    attack = table.view(None)["public"]["attack"]
    expect(phones[0].get_by_test_id("attack")).to_contain_text(attack["card"]["name"]["en"])
    tap(phones[2], live, phones, {"type": "pig_lost"}, confirm=True)
    expect(phones[1].get_by_test_id("attack")).to_contain_text("Chie lost 1")
    expect(phones[2].get_by_test_id("my-pigs")).to_contain_text("Your pigs: 2")
    tap(phones[0], live, phones, {"type": "invincible"}, confirm=True)
    expect(phones[2].locator(".seats li").nth(0)).to_contain_text("invincible now")
    expect(phones[0].locator(f"[data-action='{action_json({'type': 'invincible'})}']")).to_have_count(0)
    tap(phones[1], live, phones, {"type": "attack_done"}, confirm=True)

    public = table.view(None)["public"]
    assert public["pigs"] == [3, 3, 2] and public["invincibility_used"] == [True, False, False]
    assert public["seat"] == 2 and public["step"] == "roll"
    expect(phones[2].locator(".turn")).to_have_text("Your turn!")


def test_pig_house_attack_done_as_the_only_move_asks_to_confirm_and_the_attack_says_what_happened(live, new_phone):
    """Issue #33, point 3: "Attack done" as the turn player's only move is selected by one tap
    and sent by a second, as on the panel, so others can still enter their lost pigs; and the
    attack box never shows a seat invincible beside that seat's losses."""
    table = live.table
    table.start_game("pig-house", 3, seed=4)
    while True:  # at the table itself: to an attack where the turn player has only "Attack done" left
        view = table.view(None)
        public, seat = view["public"], view["to_act"][0]
        actions = table.view(seat)["actions"]
        if public["step"] == "attack" and not public["invincibility_used"][public["seat"]]:
            seat = public["seat"]
            table.act(seat, {"type": "invincible"}, table.version)
            if table.view(seat)["actions"] == [{"type": "attack_done"}]:
                break
            actions = [{"type": "attack_done"}]
        skip = [action for action in actions if action == {"type": "pot", "action": "skip"}]
        table.act(seat, (skip or actions)[0], table.version)
    turn, other = seat, (seat + 1) % 3
    names = ["Aiko", "Ben", "Chie"]
    phones = join_all(live, new_phone, names)
    page = phones[turn]
    expect(page.get_by_test_id("confirm")).to_have_count(0)
    lone = page.get_by_test_id("choose-only")
    expect(lone).to_have_text("Attack done")
    before = table.version
    lone.click()  # selects only
    expect(page.get_by_test_id("confirm")).to_contain_text("Attack done")
    expect(page.get_by_test_id("cancel")).to_be_visible()
    assert table.version == before and table.view(None)["public"]["step"] == "attack"

    # Meanwhile another player enters a lost pig; the attack box says who lost what, and who was invincible.
    tap(phones[other], live, phones, {"type": "pig_lost"}, confirm=True)
    box = phones[other].get_by_test_id("attack")
    expect(box).to_contain_text(f"Invincible, so no pig lost to this attack: {names[turn]}")
    expect(box).to_contain_text(f"{names[other]} lost 1 pig to this attack")
    expect(box).not_to_contain_text(f"{names[turn]} lost")

    # The selection survived the redraw: the second, deliberate tap sends.
    confirm(page, live, phones, "Attack done")
    assert table.view(None)["public"]["step"] != "attack"


def test_pig_house_names_a_potted_wolf_by_its_square(live, new_phone, pig_house_to_a_potted_wolf):
    table = live.table
    seat = pig_house_to_a_potted_wolf(table)
    wolves = table.view(None)["public"]["wolves"]
    assert len({wolf["square"] for wolf in wolves}) == 2
    phones = join_all(live, new_phone, ["Aiko", "Ben"])
    page = phones[seat]
    attack = table.view(None)["public"]["attack"]
    attackers = [next(wolf["square"] for wolf in wolves if wolf["id"] == wolf_id) for wolf_id in attack["attackers"]]
    expect(page.get_by_test_id("attack")).to_contain_text(
        "Attacking: " + ", ".join(f"the wolf on square {square}" for square in attackers))
    for wolf in wolves:
        button = page.locator(f"[data-action='{action_json({'type': 'wolf_potted', 'wolf': wolf['id']})}']")
        expect(button).to_have_text(f"The wolf on square {wolf['square']} fell in a pot")
    button.click()
    expect(page.get_by_test_id("confirm")).to_contain_text(f"The wolf on square {wolf['square']} fell in a pot")

    # Wolves sharing a square (a happening can add one where another stands) still differ.
    shared = [{"id": 2, "square": 17}, {"id": 4, "square": 12}, {"id": 5, "square": 17}]
    labels = page.evaluate("""async (wolves) => {
        const [{ default: pigHouse }, { t }] = await Promise.all([import("/static/games/pig-house.js"), import("/static/app.js")]);
        const ctx = { t, view: { public: { wolves } } };
        return wolves.map((wolf) => pigHouse.describe(ctx, { type: "wolf_potted", wolf: wolf.id }));
    }""", shared)
    assert labels == ["Wolf 1 of 2 on square 17 fell in a pot", "The wolf on square 12 fell in a pot",
                      "Wolf 2 of 2 on square 17 fell in a pot"]

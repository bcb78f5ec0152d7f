"""The phone at two common sizes (360 x 640 and 390 x 844), each game mid-game on the
acting phone: nothing fixed covers a control, no sideways scrolling, no console errors,
a typical turn fits on one screen, and one tap on a card, piece or cell sends no move.

Every wait is on an event or on the table's state, never a sleep.
"""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing
from phone_states import TYPICAL_TURNS, play_to_typical_turn

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

SIZES = {"360x640": (360, 640), "390x844": (390, 844)}

# What a typical turn needs on one screen (CSS selectors on the acting phone).
TURN_PARTS = {
    "lion-square": [".ls-field", ".ls-hand", ".ls-field .handle:not(.none)"],
    "meow-oracle": [".mo-revealed", ".mo-area.own"],
    "swap5": [".s5-board", ".s5-trumps"],
    "pig-house": ["[data-testid=controls]"],
}

# Every control of the page, and whether it is the element at its own centre.
UNCOVERED = """() => {
  const controls = [...document.querySelectorAll('button, a[href], input, select, summary, [data-pick]')]
    .filter((node) => node.checkVisibility({visibilityProperty: true}));  // not inside a closed <details>
  const covered = [];
  for (const node of controls) {
    node.scrollIntoView({block: 'center', inline: 'center'});
    const box = node.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!(top && (top === node || node.contains(top)))) covered.push(node.outerHTML.slice(0, 120));
  }
  window.scrollTo(0, 0);
  return {count: controls.length, covered};
}"""

# The height taken by fixed and sticky parts.
PINNED_HEIGHT = """() => [...document.querySelectorAll('body *')]
  .filter((node) => ['fixed', 'sticky'].includes(getComputedStyle(node).position))
  .reduce((sum, node) => sum + node.getBoundingClientRect().height, 0)"""

# The top of the first and the bottom of the last of the turn's parts, at the top of the page.
TURN_SPAN = """(selectors) => {
  window.scrollTo(0, 0);
  const boxes = selectors.flatMap((s) => [...document.querySelectorAll(s)]).map((n) => n.getBoundingClientRect());
  return {found: selectors.map((s) => document.querySelectorAll(s).length), bottom: Math.max(...boxes.map((b) => b.bottom))};
}"""


def open_acting_phone(live, new_phone, game_id, size):
    seat = play_to_typical_turn(live.table, game_id)
    token = live.table.join(seat, "Aki")
    for other in range(live.table.players):
        if other != seat:
            live.table.join(other, ["Bo", "Chika", "Dai", "Emi"][other])
    width, height = SIZES[size]
    phone = new_phone(viewport={"width": width, "height": height})
    problems = []
    phone.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    phone.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
             if message.type in ("error", "warning") else None)
    posts = []
    phone.on("request", lambda request: posts.append(request.url)
             if request.method == "POST" and request.url.endswith("/api/actions") else None)
    phone.goto(f"{live.url}/R/{token}")
    expect(phone.locator("#game")).to_have_attribute("data-version", str(live.table.version))
    return phone, problems, posts


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game_id", TYPICAL_TURNS)
def test_the_acting_phone_shows_every_control_uncovered_and_no_sideways_scrolling(live, new_phone, game_id, size):
    phone, problems, _ = open_acting_phone(live, new_phone, game_id, size)
    height = SIZES[size][1]

    assert phone.evaluate(PINNED_HEIGHT) <= height / 4
    assert phone.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    controls = phone.evaluate(UNCOVERED)
    assert controls["count"] > 5 and controls["covered"] == []
    if size == "390x844":
        span = phone.evaluate(TURN_SPAN, TURN_PARTS[game_id])
        assert all(span["found"]), f"a part of the turn is missing: {span}"
        assert span["bottom"] <= height, f"the turn needs scrolling: its last part ends at {span['bottom']} px"
    assert problems == []


@pytest.mark.parametrize("game_id", TYPICAL_TURNS)
def test_one_tap_on_a_card_piece_or_cell_sends_no_move(live, new_phone, game_id):
    phone, problems, posts = open_acting_phone(live, new_phone, game_id, "390x844")
    version = live.table.version
    picks = phone.locator("[data-pick]")
    count = picks.count()
    assert count > 0 or game_id == "pig-house"
    for index in range(count):
        pick = picks.nth(index)
        # A greyed-out choice (aria-disabled) still answers a tap, saying why it cannot be used
        # now; Playwright would wait for it to be enabled.
        pick.click(force=pick.get_attribute("aria-disabled") == "true")
        # Every selection can be cancelled; an element that selects nothing leaves nothing to cancel.
        cancel = phone.locator("[data-testid=cancel]")
        if cancel.count():
            cancel.click()
            expect(cancel).to_have_count(0)
    phone.evaluate("fetch('/api/ping')")  # any POST a tap started is sent before this returns
    assert posts == [] and live.table.version == version
    assert problems == []

"""The pages in real headless Chromium: phones join by the join URL and play through taps.

Every wait is on an event (an element's text or attribute, a URL, the table's version),
never a sleep. The table runs in this process, so the tests read its state to know whose
turn it is and which taps are legal, and then tap like a player would.
"""

from __future__ import annotations

import json
import re
import warnings

import pytest

from browser_support import chromium_missing, shows_current
from companion import games

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

WAIT_SECONDS = 10


def cell_json(cell) -> str:
    """A cell as the pages write it in ``data-cell`` (JavaScript's JSON.stringify)."""
    return json.dumps(cell, separators=(",", ":"))


def join_by_url(page, live, seat: int, name: str) -> None:
    """Open the home page, follow its join URL (as a QR scan would), sit on ``seat``."""
    page.goto(live.url + "/")
    join_url = page.get_by_test_id("join-url").inner_text()
    assert join_url == f"{live.url}/J/{live.table.join_code}".upper()
    page.goto(join_url)
    page.fill("#name", name)
    page.get_by_test_id(f"sit-{seat}").click()
    page.wait_for_url("**/play")
    expect(page.locator(".seats .me .seat-name")).to_have_text(name)



def after(live, phones, before: int) -> None:
    """Wait for the table to pass version ``before``, then for every phone to show it."""
    assert live.table.wait(before, WAIT_SECONDS) > before, "the action did not reach the table"
    for page in phones:
        shows_current(page, live.table)


# ------------------------------------------------------------------ seats


def test_a_taken_seat_cannot_be_taken_by_another_phone(live, new_phone):
    live.table.start_game("meow-oracle", 3, seed=1)
    first, second = new_phone(), new_phone()
    second.goto(f"{live.url}/J/{live.table.join_code}")
    expect(second.get_by_test_id("sit-0")).to_be_visible()

    join_by_url(first, live, 0, "Aiko <b>")

    # The second phone's open seat picker updates by itself: seat 1 is shown taken, by name, as text.
    taken = second.locator('.seat-list li[data-seat="0"]')
    expect(taken.locator(".seat-name")).to_have_text("Aiko <b>")
    expect(taken.get_by_role("button")).to_be_disabled()
    # Forcing the request anyway (as a stale page would) is refused, and gives no seat.
    status = second.evaluate("""async () => (await fetch('/api/seats/0/join', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-Requested-With': 'companion'},
        body: JSON.stringify({name: 'Bo'})})).status""")
    assert status == 409
    assert live.table.names()[0] == "Aiko <b>"
    assert second.evaluate("async () => (await (await fetch('/api/me')).json()).seat") is None


def test_a_phone_keeps_its_seat_through_a_reload_and_through_its_rejoin_link(live, new_phone):
    live.table.start_game("lion-square", 3, seed=3)
    phone = new_phone()
    join_by_url(phone, live, 2, "たろう")
    hand = sorted(live.table.state()["hands"][2])
    expect(phone.locator(".hand [data-card]")).to_have_count(len(hand))

    phone.reload()
    expect(phone.locator(".seats .me .seat-name")).to_have_text("たろう")
    assert sorted(phone.locator(".hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")) == hand

    # A swapped phone (no cookies) gets the seat back through the rejoin link, which
    # leaves the address bar at once.
    link = phone.locator(".rejoin-link").get_attribute("href")
    other = new_phone()
    other.goto(link)
    other.wait_for_url(f"{live.url}/play")
    expect(other.locator(".seats .me .seat-name")).to_have_text("たろう")
    expect(other.locator(".hand [data-card]")).to_have_count(len(hand))


# ------------------------------------------------------------------ Lion Square


def test_lion_square_start_from_the_home_page_pass_hands_and_play(live, new_phone):
    table = live.table
    phones = [new_phone() for _ in range(3)]

    # The first phone starts the game on the idle table (and so becomes host), then sits.
    phones[0].goto(live.url + "/")
    phones[0].select_option("#start-game", "lion-square")
    phones[0].select_option("#start-players", "3")
    phones[0].locator(".start-form summary").click()
    phones[0].fill("#start-seed", "11")
    phones[0].get_by_test_id("start").click()
    phones[0].wait_for_url(f"**/J/{table.join_code}")
    assert table.game_id == "lion-square" and table.players == 3
    for seat, page in enumerate(phones):
        join_by_url(page, live, seat, f"Player {seat + 1}")

    # Hand adjustment: three times, everyone at once taps a card to pass to the left.
    for adjustment in range(3):
        passed = {}
        for seat, page in enumerate(phones):
            shows_current(page, live.table)
            card = table.view(seat)["actions"][0]["card"]
            passed[seat] = card
            before = table.version
            # A tap on a card only selects it; the confirm button names the move and sends it.
            page.locator(f'.hand button[data-card="{card}"]').click()
            left = f"Player {(seat + 1) % 3 + 1}"
            expect(page.get_by_test_id("confirm")).to_have_text(re.compile(rf"^Pass .+ to {left}$"))
            assert table.version == before
            page.get_by_test_id("confirm").click()
            after(live, phones, before)
            if seat == 0 and adjustment == 0:
                # Who has chosen is public, what they chose is not.
                expect(phones[1].locator(".seats li").nth(0)).to_contain_text("✓ chosen")
                expect(phones[1].locator(".seats li").nth(2)).to_contain_text("… choosing")
        for seat, card in passed.items():
            receiver = phones[(seat + 1) % 3]
            expect(receiver.locator(f'.hand [data-card="{card}"]')).to_have_count(1)

    # The start player puts down any card: on the empty field there is one cell, so the card's
    # tap completes the move, which then waits for the confirm button.
    view = table.view(None)
    assert view["public"]["step"] == "start"
    starter = view["to_act"][0]
    action = table.view(starter)["actions"][0]
    assert {json.dumps(a["cell"]) for a in table.view(starter)["actions"]} == {json.dumps(action["cell"])}
    before = table.version
    phones[starter].locator(f'.hand button[data-card="{action["card"]}"]').click()
    phones[starter].get_by_test_id("confirm").click()
    after(live, phones, before)

    # The next player plays a card beside it, tapping the card, then the cell.
    player = table.view(None)["to_act"][0]
    plays = [a for a in table.view(player)["actions"] if a["type"] == "play"]
    assert plays, "this seed must give the second player a legal play"
    play = plays[0]
    expect(phones[player].locator(".turn")).to_have_text("Your turn!")
    before = table.version
    phones[player].locator(f'.hand button[data-card="{play["card"]}"]').click()
    phones[player].locator(f'.ls-field button[data-cell="{cell_json(play["cell"])}"]').click()
    after(live, phones, before)
    for page in phones:
        expect(page.locator(f'.ls-field [data-card="{play["card"]}"]')).to_have_count(1)
        expect(page.locator(f'.ls-field [data-card="{action["card"]}"]')).to_have_count(1)
    assert [card for _, _, card in table.state()["field"]] == [action["card"], play["card"]]


# ------------------------------------------------------------------ Meow Oracle


def meow_move(page, live, seat: int) -> None:
    """Take ``seat``'s next Meow Oracle move by tapping, as a player would."""
    actions = live.table.view(seat)["actions"]
    step = live.table.view(None)["public"]["step"]
    if len(actions) == 1:
        page.get_by_test_id("confirm").click()
        return
    cards = {a.get("card") for a in actions}
    if step == "reveal":
        # A tap on a face-down card selects it; the confirm button reveals it.
        cell = next(a["cell"] for a in actions if "cell" in a)
        page.locator(f'.mo-area.own button[data-cell="{cell_json(cell)}"]').click()
        page.get_by_test_id("confirm").click()
    elif step == "give":
        if len(cards) > 1:
            page.locator(f'.mo-revealed button[data-card="{actions[0]["card"]}"]').click()
        if len({a["to"] for a in actions}) > 1:
            page.locator(".actions button.choice").first.click()  # its label names the card and the player
        else:
            page.get_by_test_id("confirm").click()
    else:
        if len(cards) > 1:
            page.locator(f'.mo-to-place button[data-card="{actions[0]["card"]}"]').click()
        page.locator(f'.mo-area.own button[data-cell="{cell_json(actions[0]["cell"])}"]').click()
        if len(cards) == 1:  # the cell was the first tap: it waits for the confirm
            page.get_by_test_id("confirm").click()


def test_meow_oracle_three_phones_join_and_play_a_full_round(live, new_phone):
    table = live.table
    table.start_game("meow-oracle", 3, seed=5)
    phones = [new_phone() for _ in range(3)]
    for seat, page in enumerate(phones):
        join_by_url(page, live, seat, ["Aiko", "Ben", "ちえ"][seat])

    moves = 0
    while table.state()["round"] == 1:
        seat = table.view(None)["to_act"][0]
        shows_current(phones[seat], live.table)
        before = table.version
        meow_move(phones[seat], live, seat)
        after(live, phones, before)
        moves += 1
        assert moves < 200, "the round does not end"

    # Every card of the round was revealed, handed out and placed through the pages.
    record = table.state()["history"][0]
    assert [sum(card is not None for card in area) for area in record["areas"]] == [9, 9, 9]
    for seat, page in enumerate(phones):
        expect(page.locator(".game-status")).to_contain_text("Round 2 of 2")
        expect(page.locator(".mo-history summary")).to_have_text("Round 1 points")
        for other in range(3):
            wins = record["wins"][other]
            expect(page.locator(".seats li").nth(other)).to_contain_text(f"Wins: {wins}")


# The answer to the first move reaches the page's script only once the test lets it through,
# as on a slow phone: the server has taken the move, and the event stream runs on meanwhile.
HOLD_THE_FIRST_MOVES_ANSWER = """
  const fetchNow = window.fetch.bind(window);
  let letThrough;
  const lateAnswer = new Promise((resolve) => { letThrough = resolve; });
  window.letTheAnswerThrough = () => letThrough();
  window.fetch = async (path, options) => {
    const response = await fetchNow(path, options);
    if (path === "/api/actions") {
      window.answerHeld = true;
      await lateAnswer;
    }
    return response;
  };
"""


def test_a_choice_made_before_the_last_moves_answer_arrives_is_kept(live, new_phone):
    """The event stream may bring the new view before the answer to the move that made it
    (a loaded phone or server), and the player may already choose the next move on it: the
    late answer must neither drop that choice nor leave its confirm greyed out."""
    table = live.table
    table.start_game("meow-oracle", 3, seed=5)  # seat 0 reveals three cards in a row
    phone = new_phone()
    phone.add_init_script(HOLD_THE_FIRST_MOVES_ANSWER)
    join_by_url(phone, live, 0, "Aiko")
    first, second = [action["cell"] for action in table.view(0)["actions"][:2]]

    phone.locator(f'.mo-area.own button[data-cell="{cell_json(first)}"]').click()
    phone.get_by_test_id("confirm").click()
    phone.wait_for_function("window.answerHeld === true")
    shows_current(phone, live.table)  # the new view, from the event stream
    expect(phone.locator(f'.mo-area.own button[data-cell="{cell_json(first)}"]')).to_have_count(0)

    phone.locator(f'.mo-area.own button[data-cell="{cell_json(second)}"]').click()
    confirm = phone.get_by_test_id("confirm")
    naming_second = f"Reveal the card at row {second[0] + 1}, column {second[1] + 1}"
    expect(confirm).to_have_text(naming_second)
    phone.evaluate("window.letTheAnswerThrough()")
    expect(confirm).to_be_enabled()
    expect(confirm).to_have_text(naming_second)

    before = table.version
    confirm.click()
    assert table.wait(before, WAIT_SECONDS) > before, "the move did not reach the table"
    assert table.action_log()[-1]["action"] == {"type": "reveal", "cell": second}


# ------------------------------------------------------------------ every game draws


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_draws_on_a_phone_and_on_the_table_screen_without_script_errors(live, new_phone, game_id):
    game = games.get(game_id)
    live.table.start_game(game_id, game.min_players, seed=2)
    token = live.table.join(0, "Ann")
    errors = []
    phone = new_phone()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{live.url}/R/{token}")
    shows_current(phone, live.table)
    expect(phone.locator(".headline h1")).to_have_text(game.title["en"])
    if live.table.view(0)["actions"]:
        expect(phone.locator(".actions .prompt, .actions .confirm").first).to_be_visible()
    screen = new_phone()
    screen.on("pageerror", lambda error: errors.append(str(error)))
    screen.goto(f"{live.url}/table")
    shows_current(screen, live.table)
    assert errors == []


def test_swap5_tap_a_piece_then_a_neighbour(live, new_phone):
    table = live.table
    table.start_game("swap5", 2, seed=4)
    phones = [new_phone(), new_phone()]
    for seat, page in enumerate(phones):
        join_by_url(page, live, seat, f"P{seat + 1}")
    seat = table.view(None)["to_act"][0]
    move = next(a for a in table.view(seat)["actions"] if a["type"] in ("swap", "move"))
    before = table.version
    phones[seat].locator(f'.s5-board button[data-cell="{move["from"]}"]').click()
    expect(phones[seat].locator(f'.s5-board button[data-cell="{move["to"]}"]')).to_have_class(re.compile("fits"))
    phones[seat].locator(f'.s5-board button[data-cell="{move["to"]}"]').click()
    after(live, phones, before)
    assert table.state()["last_move"] is not None
    assert table.action_log()[-1]["action"] == move


def test_the_table_screen_shows_no_hand_even_in_a_browser_that_holds_a_seat(live, new_phone):
    """The host's laptop on a TV: it holds a seat, and /table must still show only the public view."""
    live.table.start_game("swap5", 2, seed=5)
    token = live.table.join(0, "Ann")
    page = new_phone()
    page.goto(f"{live.url}/R/{token}")  # this browser now holds seat 0's cookie
    shows_current(page, live.table)
    hand = live.table.view(0)["private"]["hand"]
    assert hand and all(card in page.content() for card in hand), "the phone page shows the hand"
    page.goto(f"{live.url}/table")
    shows_current(page, live.table)
    content = page.content()
    assert not any(card in content for card in hand), "the table screen showed a seat's trump cards"

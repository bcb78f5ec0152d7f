"""What just happened (issue 24, point 8), in real Chromium: on a phone's turn, every card the
other seats put down since its own last move is marked (✦ and a dashed ring) in Lion Square
and Meow Oracle, and the turn line names those moves ("Since your last move: P2 plays
Hyena 3; P3 …"). The phone follows every version (the test waits on ``data-version``), as a
phone on the table does.
"""

from __future__ import annotations

import random
import re
import warnings

import pytest

from browser_support import chromium_missing, shows_current

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402



def names_filled(text: str) -> str:
    return re.sub(r"\{s(\d)\}", lambda m: f"P{int(m.group(1)) + 1}", text)


def play_round_back_to_seat_0(table, phone, choose) -> tuple[int, dict]:
    """Moves by every seat (seat 0's too) until seat 0 is waited for again after the others
    moved; the phone shows each version. Returns the log seq of seat 0's last move and the
    public view right after it."""
    mine_seq = after_mine = None
    others_moved = False
    while True:
        public = table.view(None)
        waiting = public.get("waiting_for") or public["to_act"]
        if 0 in waiting and mine_seq is not None and others_moved:
            return mine_seq, after_mine
        seat = 0 if 0 in waiting else waiting[0]
        table.act(seat, choose.choice(table.view(seat)["actions"]), table.version)
        if seat == 0:
            mine_seq, after_mine, others_moved = table.view(None)["log"][-1]["seq"], table.view(None)["public"], False
        else:
            others_moved = True
        shows_current(phone, table)


@pytest.mark.parametrize(("game_id", "changed"), [
    ("lion-square", lambda before, after: {(tuple(c["cell"]), c["card"]) for c in after["field"]}
     - {(tuple(c["cell"]), c["card"]) for c in before["field"]}),
    ("meow-oracle", lambda before, after: {(s, r, c) for s, area in enumerate(after["areas"]) for r, row in enumerate(area)
                                            for c, cell in enumerate(row) if cell is not None and cell != before["areas"][s][r][c]}),
])
def test_my_turn_marks_and_names_the_others_moves_since_mine(live, new_phone, game_id, changed):
    table = live.table
    table.start_game(game_id, 3, seed=5)
    tokens = [table.join(seat, f"P{seat + 1}") for seat in range(3)]
    phone = new_phone()
    phone.goto(f"{live.url}/R/{tokens[0]}")
    shows_current(phone, table)
    choose = random.Random(2)
    for rounds in range(1, 13):  # round the table until the others changed the board since my move
        mine, before = play_round_back_to_seat_0(table, phone, choose)
        log = table.log(0)
        at_mine = next(i for i, entry in enumerate(log) if entry["seq"] == mine)
        others = [names_filled(e["text"]["en"]) for e in log[at_mine + 1:] if not e["text"]["en"].startswith("{s0}")]
        since = phone.get_by_test_id("since")
        expect(since).to_contain_text("Since your last move:")
        expect(since).to_contain_text(others[-1])
        # The marks: exactly the cards that changed since seat 0's last move.
        expected = changed(before, table.view(0)["public"])
        # (Lion Square: two cards on the field at least, so a turned field would show a wrong mark.)
        if rounds >= 2 and expected and len(table.view(None)["public"].get("field", "many")) >= 2:
            break
    assert expected, "the others never changed the board: pick another seed"
    expect(phone.locator(".cell.last")).to_have_count(len(expected))
    assert phone.evaluate("getComputedStyle(document.querySelector('.cell.last'), '::after').content") == '"✦"'

    # A phone opened now marks nothing (nothing happened since it looked), whichever side of
    # the field it sees from (Lion Square turns the field for seats 2 and 3).
    for seat in (1, 2):
        late = new_phone()
        late.goto(f"{live.url}/R/{tokens[seat]}")
        shows_current(late, table)
        expect(late.locator(".cell")).not_to_have_count(0)
        expect(late.locator(".cell.last")).to_have_count(0)

    # Once I move, the marks go (nothing is new since my own move).
    while 0 in (table.view(None).get("waiting_for") or []):
        table.act(0, choose.choice(table.view(0)["actions"]), table.version)
    shows_current(phone, table)
    expect(phone.locator(".cell.last")).to_have_count(0)
    expect(phone.get_by_test_id("since")).to_have_count(0)

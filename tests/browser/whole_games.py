"""Whole games played by taps on phones in real Chromium, counting the taps and scrolls each
step needs (issue 24, point 6; the figures go in docs/phone.md).

Every seat has its own phone. At each step the seat the table waits for picks a seeded random
legal action, and the driver makes it the way a player would: starting from the top of the
page (the first screen), it taps what the page offers for that action: the card, piece, cell
or handle itself (``data-pick`` with ``data-field`` / ``data-value``), else the choice button
the page asks for next (the action bar's ``data-next``), a button naming a whole or partial
action (``data-action``), then the confirm button when the page asks for one. A button in a
folded part (``details``) or a closed tab (a hidden ``tabpanel``) takes a tap on its summary
or its tab first. A tap on something not entirely
on the screen first scrolls it into view, and that counts as one scroll. The step ends when
the page has sent the move and shows the table's new version; the move sent must be the one
chosen.

(A module of its own, not ``conftest``, for the reason given in ``browser_support``.)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from playwright.sync_api import expect

SIZES = [(360, 640), (390, 844), (412, 915)]

# game id -> (players, seed): one whole game each.
WHOLE_GAMES = {
    "lion-square": (3, 11),
    "meow-oracle": (3, 11),
    "swap5": (2, 11),
    "pig-house": (3, 11),
    "lion-square-ledger": (3, 11),
    "meow-oracle-scorer": (3, 11),
}

COUNT_SENDS = """
window.__sends = 0;
const realFetch = window.fetch;
window.fetch = function (input, init) {
  if (init && init.method === "POST") window.__sends += 1;
  return realFetch.apply(this, arguments);
};
"""

# Marks (data-drive) the element to tap next for `target`, or returns null. `tapped` lists
# the fields and data-action texts tapped so far in this step (tapping one again would undo it).
MARK_NEXT_TAP = """
([target, tapped]) => {
  const game = document.getElementById("game");
  for (const old of game.querySelectorAll("[data-drive]")) old.removeAttribute("data-drive");
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const shapeOf = (a) => [a.type, ...Object.keys(a).filter((k) => k !== "type")].join("|");
  const wanted = (field) => (field === "shape" ? shapeOf(target) : target[field]);
  const folded = (e) => e.closest("details:not([open])");
  const closedTab = (e) => e.closest('[role="tabpanel"][hidden]');
  const usable = (e) => !e.disabled && (e.getClientRects().length > 0 || folded(e) || closedTab(e));
  const mark = (e) => {
    // Something inside a folded part or a closed tab: the tap that opens it comes first.
    if (folded(e)) { folded(e).querySelector("summary").setAttribute("data-drive", "1"); return "unfold"; }
    if (closedTab(e)) {
      game.querySelector(`[role="tab"][aria-controls="${closedTab(e).id}"]`).setAttribute("data-drive", "1");
      return "unfold";
    }
    e.setAttribute("data-drive", "1");
    return e.dataset.field || e.dataset.action || "confirm";
  };
  const confirm = game.querySelector('[data-testid="confirm"]');
  if (confirm && usable(confirm)) return mark(confirm);
  const next = game.querySelector(".actions")?.dataset.next;
  const fields = [...game.querySelectorAll("[data-field][data-value]")].filter(usable).filter((e) =>
    !tapped.includes(e.dataset.field) && (e.dataset.field === "shape" || e.dataset.field in target)
    && same(JSON.parse(e.dataset.value), wanted(e.dataset.field)));
  // A player taps the card, piece or cell itself rather than a button asking which kind of move.
  const drawn = fields.filter((e) => e.dataset.pick && e.dataset.field !== "shape" && e.dataset.field !== "type");
  const first = drawn.find((e) => e.dataset.field === next) || drawn[0];
  if (first) return mark(first);
  const byNext = fields.find((e) => e.dataset.field === next);
  if (byNext) return mark(byNext);
  const actions = [...game.querySelectorAll("[data-action]")].filter(usable).filter((e) =>
    !tapped.includes(e.dataset.action)
    && Object.entries(JSON.parse(e.dataset.action)).every(([k, v]) => same(target[k], v)));
  const whole = actions.find((e) => same(JSON.parse(e.dataset.action), target));
  if (whole) return mark(whole);
  if (actions.length) return mark(actions[0]);
  if (fields.length) return mark(fields[0]);
  return null;
}
"""


@dataclass
class Step:
    game: str
    size: tuple[int, int]
    step: str
    kind: str
    taps: int
    scrolls: int


def seat_phones(live, new_phone, game_id, size):
    """Start ``game_id`` and seat one phone per seat; returns the phones by seat."""
    players, seed = WHOLE_GAMES[game_id]
    live.table.start_game(game_id, players, seed=seed)
    phones = []
    for seat in range(players):
        token = live.table.join(seat, f"P{seat + 1}")
        page = new_phone(viewport={"width": size[0], "height": size[1]})
        page.add_init_script(COUNT_SENDS)
        page.goto(f"{live.url}/R/{token}")
        phones.append(page)
    return phones


def make_move(page, table, target: dict, height: int) -> tuple[int, int]:
    """Make ``target`` on ``page`` by taps from the first screen; returns (taps, scrolls)."""
    expect(page.locator("#game")).to_have_attribute("data-version", str(table.version))
    page.evaluate("window.scrollTo(0, 0)")
    before, sends = table.version, page.evaluate("window.__sends")
    taps = scrolls = 0
    tapped: list[str] = []
    while page.evaluate("window.__sends") == sends:
        what = page.evaluate(MARK_NEXT_TAP, [target, tapped])
        assert what is not None, f"nothing on the page makes {target} (tapped so far: {tapped})"
        assert taps < 8, f"{target}: still not sent after {taps} taps ({tapped})"
        element = page.locator("[data-drive]")
        box = element.bounding_box()
        if box["y"] < 0 or box["y"] + box["height"] > height:
            scrolls += 1
            element.scroll_into_view_if_needed()
        element.click()
        taps += 1
        if what not in ("confirm", "unfold"):
            tapped.append(what)
    # Until the answer is drawn: the event stream may draw the new version first, and the
    # answer's redraw would then take away the next step's mark.
    expect(page.locator("#game")).to_have_attribute("aria-busy", "false")
    assert table.version > before, f"{target} was sent but the table did not move"
    assert table.action_log()[-1]["action"] == target
    return taps, scrolls


def play_whole_game(live, new_phone, game_id: str, size: tuple[int, int], max_steps: int = 400) -> list[Step]:
    """One whole game of ``game_id`` at ``size``, every step by taps; its steps' counts."""
    table = live.table
    phones = seat_phones(live, new_phone, game_id, size)
    choose = random.Random(WHOLE_GAMES[game_id][1])
    steps: list[Step] = []
    while not table.public()["game"]["over"]:
        assert len(steps) < max_steps, f"{game_id}: not over after {max_steps} steps"
        public = table.view(None)
        seat = (public.get("waiting_for") or public["to_act"])[0]
        target = choose.choice(table.view(seat)["actions"])
        taps, scrolls = make_move(phones[seat], table, target, size[1])
        steps.append(Step(game_id, size, str(public["public"].get("step")), target["type"], taps, scrolls))
    return steps


def summary(steps: list[Step]) -> dict:
    """Per (step, kind): how many steps, the most taps, the most scrolls, the steps that scrolled."""
    rows: dict[tuple[str, str], dict] = {}
    for s in steps:
        row = rows.setdefault((s.step, s.kind), {"steps": 0, "max_taps": 0, "max_scrolls": 0, "scrolled": 0, "taps": 0})
        row["steps"] += 1
        row["taps"] += s.taps
        row["max_taps"] = max(row["max_taps"], s.taps)
        row["max_scrolls"] = max(row["max_scrolls"], s.scrolls)
        row["scrolled"] += s.scrolls > 0
    return {f"{step}/{kind}": row for (step, kind), row in rows.items()}


def dump(steps: list[Step]) -> str:
    return json.dumps(summary(steps), indent=1)

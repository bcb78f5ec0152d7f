"""Presses per panel action, counted by driving the panel through gpiozero's mock pins from
the status screen, each action checked done on the table; docs/panel.md's table must say the
same counts (issue 24: "presses per panel action")."""

from __future__ import annotations

import concurrent.futures
import re
from pathlib import Path

import pytest
from panel_helpers import selected, short_press, status_of

from companion.bots.seats import BotSeats
from companion.config import BotsConfig

DOCS = Path(__file__).resolve().parents[2] / "docs" / "panel.md"


class Counter:
    """Presses buttons and counts them; ``to(label)`` moves to a menu line the short way
    round (the lists wrap) and chooses it; ``yes()`` answers a question "Yes"."""

    def __init__(self, panel):
        self.panel, self.count, self.pressed = panel, 0, []

    def press(self, *names):
        for name in names:
            short_press(self.panel, name)
            self.count += 1
            self.pressed.append(name)

    def to(self, label: str):
        items = [item.label for item in self.panel.page.items()]  # the whole list, shown or not
        target = next(index for index, item in enumerate(items) if item.startswith(label))
        here = self.panel.page.selected
        down, up = (target - here) % len(items), (here - target) % len(items)
        self.press(*(["down"] * down if down <= up else ["up"] * up), "ok")

    def yes(self):
        assert selected(self.panel) in ("No", "Yes")
        if selected(self.panel) == "No":
            self.press("down")
        self.press("ok")


def documented() -> dict[str, int]:
    """The "| action | presses |" rows of docs/panel.md: the first number of each count."""
    rows = re.findall(r"^\| (.+?) \| (\d+)\b.*\|$", DOCS.read_text(), re.MULTILINE)
    return {action: int(count) for action, count in rows}


def record(action: str, counter: Counter) -> None:
    pressed = counter.pressed[-counter.count:]
    assert documented().get(action) == counter.count, (action, pressed, documented().get(action))


def pig_house(table, step, options=None, players=2, seed=1):
    """Pig House played with the first listed actions until ``step`` (seed 2 meets a happening)."""
    table.start_game("pig-house", players, seed=seed, options=options)
    for seat, name in enumerate(["Aki", "Ben", "Cy"][:players]):
        table.join(seat, name)
    while table.public()["view"]["public"]["step"] != step:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)


def test_show_the_join_code(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    counter = Counter(make_panel())
    counter.press("back")
    assert counter.panel.text_lines()[-1].startswith("[QR ")
    record("Show the join QR code (from any status screen)", counter)


@pytest.mark.parametrize(("step", "action", "options"), [
    ("roll", "Pig House: roll the die (virtual die)", None),
    ("wolf_move", "Pig House: move the wolves (virtual deck)", None),
    ("happening", "Pig House: happenings done", None),
])
def test_pig_house_steps_in_two(make_panel, table, step, action, options):
    pig_house(table, step, options, seed=2)
    version = table.version
    counter = Counter(make_panel())
    counter.press("ok", "ok")
    assert table.version == version + 1
    record(action, counter)


@pytest.mark.parametrize(("step", "action", "options"), [
    ("roll", "Pig House: key in a die face (physical die)", {"die": "physical"}),
    ("key_wolf_card", "Pig House: key in a wolf card (physical deck)", {"wolf_deck": "physical"}),
])
def test_keyed_in_values_ask_first(make_panel, table, step, action, options):
    pig_house(table, step, options)
    version = table.version
    counter = Counter(make_panel())
    counter.press("ok", "ok")  # the first value; one "down" more per value before the one wanted
    counter.yes()
    assert table.version == version + 1
    record(action, counter)


def test_a_pig_lost_and_the_end_of_an_attack(make_panel, table):
    pig_house(table, "attack")
    pigs = table.public()["view"]["public"]["pigs"]
    counter = Counter(make_panel())
    counter.press("ok")
    counter.to("Aki: pig lost")
    counter.yes()
    assert table.public()["view"]["public"]["pigs"][0] == pigs[0] - 1
    record("Pig House: a pig lost (the first player's)", counter)
    counter.count = 0
    counter.press("ok")
    counter.to("Attack done")
    counter.yes()
    assert table.public()["view"]["public"]["step"] != "attack"
    record("Pig House: attack done (2 players)", counter)


def test_the_scorers_start_player_and_next_round(make_panel, table):
    table.start_game("meow-oracle-scorer", 2, seed=1)
    table.join(0, "Aki")
    table.join(1, "Ben")
    panel = make_panel()
    counter = Counter(panel)
    counter.press("ok")
    counter.to("Start player: Aki")
    counter.yes()
    assert table.public()["view"]["public"]["step"] == "entering"
    record("Meow Oracle scorer: start player (the first seat)", counter)
    table.act(0, {"type": "total", "total": 10}, table.version)
    table.act(1, {"type": "total", "total": 7}, table.version)
    assert panel.settle()
    counter.count = 0
    counter.press("ok", "ok")
    assert table.public()["view"]["public"]["round"] == 2
    record("Meow Oracle scorer, Lion Square ledger: next round", counter)


def test_undo_and_play_again(make_panel, table):
    table.start_game("swap5", 2, seed=4)
    while not table.public()["game"]["over"]:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)
    version = table.version
    panel = make_panel()
    counter = Counter(panel)
    counter.press("ok")
    counter.to("Undo last action")
    counter.yes()
    assert table.version == version + 1 and not table.public()["game"]["over"]
    record("Undo last action", counter)
    table.act(table.view(None)["to_act"][0], table.view(table.view(None)["to_act"][0])["actions"][-1], table.version)
    assert panel.settle() and table.public()["game"]["over"]
    counter.count = 0
    counter.press("ok")
    counter.to("Play again")
    counter.yes()
    assert not table.public()["game"]["over"]
    record("Play again (game over)", counter)


class Pondering:
    """A bot thinker that never answers: the seat's bot keeps the table waiting, so the menus
    stay as they are while the presses are counted (once a bot has moved, the game waits for
    seat 3 too and its "add a bot" goes first in the game menu: that count is the row above)."""

    def __init__(self):
        self.thoughts: list[concurrent.futures.Future] = []

    def think(self, game_id, view, **budget):
        self.thoughts.append(concurrent.futures.Future())
        return self.thoughts[-1]

    def close(self):
        for thought in self.thoughts:
            thought.cancel()  # as the worker's thinker ends its searches: the bots' thread stops waiting


def test_seat_and_remove_bots(make_panel, table, tmp_path):
    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=Pondering())
    bots.start()
    try:
        table.start_game("meow-oracle", 3, seed=3)
        table.join(1, "Aki")
        panel = make_panel(bots=bots)
        assert panel.screen.headline.startswith("Seat 1 is empty")
        counter = Counter(panel)
        counter.press("ok", "ok", "ok")  # its bot is the game menu's first item; "Normal" highlighted
        assert bots.levels() == {0: "normal"} and status_of(panel) is not None
        record("Seat a \"normal\" bot on the empty seat the game waits for", counter)
        counter.count = 0
        counter.press("ok")
        counter.to("Bots…")
        counter.to("Seat 3: add a bot")
        counter.press("ok")
        assert set(bots.levels()) == {0, 2}
        record("Seat a \"normal\" bot on another free seat", counter)
        counter.count = 0
        counter.press("back", "back")  # home from the bots' list
        counter.count = 0
        counter.press("ok")
        counter.to("Bots…")
        counter.to("Seat 1: remove bot")
        counter.yes()
        assert set(bots.levels()) == {2}
        record("Remove a bot (the first bot's seat)", counter)
    finally:
        bots.stop()

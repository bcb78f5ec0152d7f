"""A screen reader can play (issue #33, point 9): whole games of Lion Square and Meow Oracle
played on a phone through Chromium's accessibility tree alone, in English and in Japanese,
bots on the other seats.

The player here is blind to the drawing: at each step it reads the tree (the DevTools
protocol's ``Accessibility.getFullAXTree``, what a screen reader is given), takes the buttons
of the table and of "Your move" that are neither greyed out (``aria-disabled``) nor already
chosen (``aria-pressed``), taps one by its name (``get_by_role("button", name=...)``) at random,
and goes on until its move is sent. It never looks at a CSS class or a data attribute to
choose (``#game``'s ``aria-busy`` only says when the page is done drawing).

Every move sent is then held against the engine: the names tapped said the truth, in the
page's language (the card by its full name, a free cell by its row and column on the drawing
and the card beside it, a line by the cards in it), the greyed-out cards of the hand are
exactly the ones that cannot be used, and a tap that only selects shows as pressed.

SWAP 5 and Pig House are read at a typical turn: the board's cells and pieces, the trump
cards, the pig actions and the die by their names, and their states.
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402
from phone_states import play_to_typical_turn  # noqa: E402
from test_bots_browser import serving  # noqa: E402

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")}
PLAYER = "Aki"


def say(words: dict, key: str, **values) -> str:
    """A text of the language file with its ``{placeholders}`` filled, as the page's ``t``."""
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), words[key])


def pattern(words: dict, key: str) -> re.Pattern:
    """A text of the language file as a pattern whose placeholders are named groups (greedy:
    the last one holds no comma)."""
    parts = re.split(r"\{(\w+)\}", words[key])
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+)" for i, p in enumerate(parts)) + "$")


@dataclass(frozen=True)
class Control:
    name: str
    region: str | None  # the name of the nearest region (landmark) around it
    pressed: bool
    disabled: bool


def accessibility_tree(page) -> tuple[list[Control], list[dict]]:
    """The buttons of Chromium's accessibility tree and all its (not ignored) nodes."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    by_id = {node["nodeId"]: node for node in nodes}

    def region(node):
        while node.get("parentId") in by_id:
            node = by_id[node["parentId"]]
            if (node.get("role") or {}).get("value") == "region":
                return node["name"]["value"]
        return None

    shown = [node for node in nodes if not node.get("ignored")]
    buttons = []
    for node in shown:
        if (node.get("role") or {}).get("value") != "button":
            continue
        states = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        buttons.append(Control(node["name"]["value"], region(node), states.get("pressed") in ("true", True),
                               bool(states.get("disabled"))))
    return buttons, shown


def names_of(nodes: list[dict], role: str) -> list[str]:
    return [node["name"]["value"] for node in nodes if (node.get("role") or {}).get("value") == role]


class RandomMoves:
    """A bot thinker that answers at once with a seeded random legal move."""

    def __init__(self, seed: int):
        self._random = random.Random(seed)

    def think(self, game_id, view, *, level, budget):
        future = concurrent.futures.Future()
        future.set_result(self._random.choice(view["actions"]))
        return future

    def close(self):
        pass


# ------------------------------------------------------------------------ what names say

def lion_card(words, card: str) -> str:
    species, number = card.split("-")
    return words["lion-square.gazelle"] if species == "gazelle" else f"{words[f'lion-square.species.{species}']} {number}"


def meow_card(words, card: dict) -> str:
    return f"{words['meow-oracle.colour.' + card['color']]} {card['n']}"


# The phone turns Lion Square's field so that its own side is at the bottom (lion-square.js).
TURNS = {"S": lambda r, c: (r, c), "N": lambda r, c: (-r, -c), "W": lambda r, c: (-c, r), "E": lambda r, c: (c, -r)}
BESIDE = {"left": (0, 1), "right": (0, -1), "above": (1, 0), "below": (-1, 0)}


def check_lion_square(words, before: dict, action: dict, tapped: list[str]) -> None:
    """The names tapped for ``action`` described it truly (``before``: seat 0's view then)."""
    field = before["public"]["field"]
    turn = TURNS[before["private"]["side"]]
    shown = {turn(*entry["cell"]): entry["card"] for entry in field}
    if "card" in action:  # the card tapped, or named by the move confirmed
        card = lion_card(words, action["card"])
        confirmed = [m for m in (pattern(words, f"lion-square.do.{action['type']}").match(name) for name in tapped) if m]
        assert card in tapped or card in [m["card"] for m in confirmed], (action, tapped)
    cells = [name for name in tapped if pattern(words, "lion-square.open_cell").match(name) or name == words["lion-square.first_cell"]]
    if "cell" in action and not cells:  # the only cell it could go to: the move was confirmed by its name
        assert card in [m["card"] for m in confirmed], (action, tapped)
    elif "cell" in action and not field:
        assert cells[-1] == words["lion-square.first_cell"], (action, tapped)  # a round's first card
    elif "cell" in action:
        spots = set(shown) | {turn(*a["cell"]) for a in before["actions"] if "cell" in a}
        top, left = min(r for r, _ in spots), min(c for _, c in spots)
        cell_name = cells[-1]
        found = pattern(words, "lion-square.open_cell").match(cell_name)
        r, c = turn(*action["cell"])
        assert found["position"] == say(words, "cell.row_column", row=r - top + 1, column=c - left + 1), (action, cell_name)
        for where, (dr, dc) in BESIDE.items():
            beside = pattern(words, f"lion-square.beside.{where}").match(found["beside"])
            if beside:
                assert lion_card(words, shown[(r + dr, c + dc)]) == beside["card"], (action, cell_name)
                break
        else:
            raise AssertionError(f"{cell_name!r} names no card beside the cell")
    if "row" in action or "column" in action:
        kind = "row" if "row" in action else "column"
        in_line = sorted(lion_card(words, e["card"]) for e in field if e["cell"][0 if kind == "row" else 1] == action[kind])
        takes = [m for m in (pattern(words, key).match(name) for name in tapped
                             for key in ("lion-square.take_row", "lion-square.take_column")) if m]
        assert len(takes) == 1, tapped
        assert sorted(takes[0]["cards"].split(words["list.separator"])) == in_line, (action, tapped)


def check_meow_oracle(words, before: dict, action: dict, tapped: list[str]) -> None:
    public = before["public"]
    cards = {card["id"]: card for card in public["revealed"] + [c for cs in public["to_place"] for c in cs]}
    # What the moves confirmed by their names said (a choice that left one move: its name).
    said = [m.groupdict() for m in (pattern(words, key).match(name) for name in tapped
                                    for key in ("meow-oracle.do.place", "meow-oracle.do.reveal", "meow-oracle.give_to")) if m]
    if "card" in action:
        card = meow_card(words, cards[action["card"]])
        assert card in tapped or card in [entry.get("card") for entry in said], (action, tapped)
    if "cell" in action:
        r, c = action["cell"]
        here = public["areas"][0][r][c]
        what = (words["meow-oracle.empty_cell"] if here is None else
                words["meow-oracle.face_down"] if here["face"] == "down" else meow_card(words, here))
        position = say(words, "cell.row_column", row=r + 1, column=c + 1)
        only = [a for a in before["actions"] if a["type"] == action["type"] and "cell" in a] == [action]
        assert say(words, "meow-oracle.cell", what=what, position=position) in tapped \
            or position in [entry.get("cell") for entry in said] \
            or (only and words["meow-oracle.from_area"] in tapped), (action, tapped)  # the only face-down card
    if action["type"] == "give":
        who = words["meow-oracle.to_yourself"] if action["to"] == 0 else say(words, "bot.name.normal", n=action["to"] + 1)
        assert say(words, "meow-oracle.give_to", card=meow_card(words, cards[action["card"]]), name=who) in tapped
    if action.get("from") == "aside":
        assert say(words, "meow-oracle.from_aside", n=public["aside"][0]) in tapped


def check_lion_square_greyed(words, before: dict, buttons: list[Control]) -> None:
    """With nothing chosen: the hand's cards that cannot be used now are the greyed-out ones."""
    usable = {lion_card(words, a["card"]) for a in before["actions"] if "card" in a}
    hand = {lion_card(words, card) for card in before["private"]["hand"]}
    named = {b.name: b for b in buttons if b.name in hand}
    assert set(named) == hand, (named, hand)
    assert {name for name, b in named.items() if not b.disabled} == usable


CHECKS = {"lion-square": (check_lion_square, check_lion_square_greyed), "meow-oracle": (check_meow_oracle, None)}


# ------------------------------------------------------------------------------ the games

def my_moves(table) -> int:
    return sum(entry["seat"] == 0 and not entry["undone"] for entry in table.action_log())


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", ["lion-square", "meow-oracle"])
def test_a_whole_game_played_by_the_names_a_screen_reader_hears(tmp_path, browser, new_phone, game_id, lang):
    words = WORDS[lang]
    check_move, check_greyed = CHECKS[game_id]
    choose = random.Random(3)
    with serving(tmp_path, RandomMoves(7)) as (url, table, bots):
        table.start_game(game_id, 3, seed=11)
        token = table.join(0, PLAYER)
        phone = new_phone(viewport={"width": 360, "height": 640})
        phone.goto(f"{url}/R/{token}")
        phone.goto(f"{url}/play?lang={lang}")
        bots.seat(1, "normal")
        bots.seat(2, "normal")
        busy = phone.locator("#game")
        mine = phone.get_by_text(words["turn.yours"], exact=True)
        over = phone.get_by_role("heading", name=words["result.title"], exact=True)
        moves = 0
        while True:
            expect(mine.or_(over).first).to_be_visible()
            expect(busy).to_have_attribute("aria-busy", "false")
            if over.is_visible():
                break
            assert moves < 200, f"{game_id}: not over after {moves} moves of seat 0"
            before, sent, tapped = table.view(0), my_moves(table), []
            while my_moves(table) == sent:
                buttons, _ = accessibility_tree(phone)
                if check_greyed and not any(b.pressed for b in buttons) and not tapped:
                    check_greyed(words, before, buttons)
                moving = [b for b in buttons if b.region in (words["board.public"], words["actions.title"])
                          and not b.disabled and not b.pressed
                          and b.name not in (words["suggest.button"], words["actions.clear"])]
                assert moving, f"nothing to tap, though it is my turn (tapped so far: {tapped})"
                # As a player would: what "Your move" offers once something is chosen (the
                # move named in full, the player to hand a card to) before choosing anew.
                offered = [b for b in moving if b.region == words["actions.title"]]
                moving = offered if tapped and offered else moving
                assert len(tapped) < 8, f"not sent after {len(tapped)} taps: {tapped}"
                name = choose.choice(moving).name
                phone.get_by_role("button", name=name, exact=True).first.click()
                tapped.append(name)
                expect(busy).to_have_attribute("aria-busy", "false")
                if my_moves(table) == sent:
                    # Only selected: the button (where it stays) says it is the one chosen now.
                    after, _ = accessibility_tree(phone)
                    assert all(b.pressed for b in after if b.name == name), f"{name!r} tapped, not shown as chosen"
            action = [e for e in table.action_log() if e["seat"] == 0 and not e["undone"]][-1]["action"]
            check_move(words, before, action, tapped)
            moves += 1
        assert table.public()["game"]["over"]
        assert moves >= 5


# ---------------------------------------------------------------- SWAP 5 and Pig House read

def phone_at_typical_turn(live, new_phone, game_id, lang):
    seat = play_to_typical_turn(live.table, game_id)
    tokens = [live.table.join(s, f"P{s + 1}") for s in range(live.table.players)]
    page = new_phone()
    page.goto(f"{live.url}/R/{tokens[seat]}")
    page.goto(f"{live.url}/play?lang={lang}")
    expect(page.locator("#game")).to_have_attribute("data-version", str(live.table.version))
    return page, seat, tokens


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_swap5_reads_every_cell_and_piece_and_their_states(live, new_phone, lang):
    words = WORDS[lang]
    page, seat, _ = phone_at_typical_turn(live, new_phone, "swap5", lang)
    view = live.table.view(seat)
    colours = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}

    def cell_name(cell, piece):
        what = words["swap5.empty"] if piece == "." else say(words, "swap5.piece", colour=words[f"swap5.colour.{colours[piece]}"])
        return say(words, "swap5.cell", cell=cell, what=what)

    buttons, nodes = accessibility_tree(page)
    by_name = {b.name: b for b in buttons}
    seen = set(by_name) | set(names_of(nodes, "image"))
    movable = {a["from"] for a in view["actions"] if "from" in a}
    for r, row in enumerate(view["public"]["board"]):
        for c, piece in enumerate(row):
            cell = f"{'ABCDE'[c]}{r + 1}"
            assert cell_name(cell, piece) in seen, cell_name(cell, piece)
            if piece != "." and piece not in view["private"]["colours"]:
                assert by_name[cell_name(cell, piece)].disabled  # another's piece: greyed out, a tap says why
            if cell in movable:
                assert not by_name[cell_name(cell, piece)].disabled and not by_name[cell_name(cell, piece)].pressed
    for card in view["private"]["hand"]:
        kind, a, b = card.split("-")
        name = say(words, "swap5.trump.rows" if kind == "row" else "swap5.trump.columns", a=a, b=b)
        assert name in by_name, name
    # A piece tapped is pressed; its targets become buttons named by what lies there.
    origin = sorted(movable)[0]
    board = view["public"]["board"]
    piece = board[int(origin[1]) - 1]["ABCDE".index(origin[0])]
    page.get_by_role("button", name=cell_name(origin, piece), exact=True).click()
    buttons, _ = accessibility_tree(page)
    by_name = {b.name: b for b in buttons}
    assert by_name[cell_name(origin, piece)].pressed
    for target in {a["to"] for a in view["actions"] if a.get("from") == origin}:
        there = board[int(target[1]) - 1]["ABCDE".index(target[0])]
        assert not by_name[cell_name(target, there)].disabled


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pig_house_reads_its_actions_and_die_by_words_and_the_chosen_one_as_pressed(live, new_phone, lang):
    words = WORDS[lang]
    page, seat, tokens = phone_at_typical_turn(live, new_phone, "pig-house", lang)
    view = live.table.view(seat)
    buttons, nodes = accessibility_tree(page)
    kinds = [a["kind"] for a in view["actions"] if a["type"] == "pig_action"]
    named = {b.name: b for b in buttons}
    for kind in kinds:
        assert words[f"pig-house.do.{kind}"] in named and not named[words[f"pig-house.do.{kind}"]].pressed
    # The drawn symbols (pips, pots, pigs) are not read out, and no button or mark is named by
    # one; the track's marks are read by their names (an image's inside is not read).
    by_id = {node["nodeId"]: node for node in nodes}

    def in_image(node):
        while node.get("parentId") in by_id:
            node = by_id[node["parentId"]]
            if node["role"]["value"] == "image":
                return True
        return False

    symbols = re.compile(r"[●⚱♣▣☑W★!\s]+")
    read = [node["name"]["value"] for node in nodes if node["role"]["value"] == "StaticText" and not in_image(node)]
    assert not [text for text in read if text.strip() and symbols.fullmatch(text)], "a symbol read out instead of words"
    assert not [b.name for b in buttons if re.search("[●⚱]", b.name)]
    marks = names_of(nodes, "image")
    assert words["pig-house.forest"] in marks and not [name for name in marks if symbols.fullmatch(name)]
    # A pig action goes at once; a lost pig asks to confirm: its first tap shows it chosen.
    table, choose = live.table, random.Random(7)
    while True:
        at = [s for s in table.view(None)["to_act"] if {a["type"] for a in table.view(s)["actions"]} >= {"pig_lost", "invincible"}]
        if at:
            break
        mover = table.view(None)["to_act"][0]
        table.act(mover, choose.choice(table.view(mover)["actions"]), table.version)
    page.goto(f"{live.url}/R/{tokens[at[0]]}")
    page.goto(f"{live.url}/play?lang={lang}")
    lost = page.get_by_role("button", name=words["action.pig_lost"], exact=True)
    expect(page.locator("#game")).to_have_attribute("data-version", str(table.version))
    version = table.version
    assert not [b for b in accessibility_tree(page)[0] if b.name == words["action.pig_lost"]][0].pressed
    lost.click()
    expect(page.locator("#game")).to_have_attribute("aria-busy", "false")
    assert [b for b in accessibility_tree(page)[0] if b.name == words["action.pig_lost"]][0].pressed
    assert table.version == version  # the first tap sent nothing

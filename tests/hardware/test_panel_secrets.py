"""No panel screen ever shows a secret: random games of every game id through the table,
every screen the panel can show checked at every step in two ways:

- no text of any seat's private view (a card id, a trump card) appears on a screen;
- no screen changes when everything hidden from the public is shuffled (the engine's own
  ``scramble_hidden``): that catches numbers too (a Lion Square herd), which a search for
  text cannot, since a herd of 12 looks like any other 12 on the screen.
"""

from __future__ import annotations

import json
import queue
import random

import pytest

from companion import games
from hardware import actions as panel_actions
from hardware import screens
from hardware.display import Display
from hardware.menus import GAME_MENU, MAIN_MENU, open_menu
from hardware.pages import ConfirmPage, HomePage, JoinPage
from hardware.panel import Panel
from hardware.words import WORDS

GAMES_PER_ID = 3


def leaves(value) -> set[str]:
    """Every text inside a JSON value (dict keys excluded)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return set()


def secrets_of(table) -> set[str]:
    """Texts some seat sees privately that the public view does not show (card ids,
    trump cards, pending choices...). Single letters are too common to count."""
    public = leaves(table.public()["view"])
    found = set()
    for seat in range(table.players):
        found |= {text for text in leaves(table.view(seat)["private"]) if len(text) > 1} - public
    return found


def every_screen(panel: Panel) -> list[str]:
    """The text of every screen the panel can show now (all lines, scrolled or not)."""
    panel.public = panel.table.public()
    pages = [HomePage(), JoinPage(), open_menu(panel, MAIN_MENU), ConfirmPage("Undo", "Take back?", lambda: None)]
    if panel.public["game"]:
        pages.append(open_menu(panel, GAME_MENU))
    texts = []
    for page in pages:
        screen = page.screen(panel)
        texts += [screen.title, *screen.lines]
        texts += screens.text_lines(screen, panel.width, panel.height)
    return texts


def leaked(panel) -> list[str]:
    shown = "\n".join(every_screen(panel))
    return sorted(secret for secret in secrets_of(panel.table) if secret in shown)


def screens_if_hidden_were_shuffled(panel, seed: int) -> list[str]:
    """:func:`every_screen` of the same table with everything the public cannot see (herds,
    hands, piles, the RNG) shuffled among itself, for whoever reads the game through the
    table (its views or its full state)."""
    table = panel.table
    game = games.get(table.game_id)
    scrambled = game.scramble_hidden(table.state(), None, seed)
    real_view = game.view
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game, "view", lambda state, seat: real_view(scrambled, seat))
        patch.setattr(table, "state", lambda: scrambled)
        return every_screen(panel)


def depends_on_hidden(panel, seeds=range(3)) -> bool:
    """Whether some screen changes when what is hidden changes (a few shuffles, since one may
    happen to change nothing: three herds of 20 shuffle into three herds of 20)."""
    shown = every_screen(panel)
    return any(screens_if_hidden_were_shuffled(panel, seed) != shown for seed in seeds)


@pytest.fixture
def panel(table):
    return Panel(table, Display(None), None, queue.Queue(), public_url="http://10.0.0.2/", lan_address="10.0.0.2")


@pytest.mark.parametrize("game_id", games.ids())
def test_no_screen_shows_a_secret_in_random_games(panel, table, game_id):
    game = games.get(game_id)
    chooser = random.Random(game_id)
    checked = 0
    counts = game.player_counts
    for number in range(GAMES_PER_ID):
        players = counts[number % len(counts)]
        table.start_game(game_id, players, seed=number)
        for seat in range(players):
            if table.names()[seat] is None:
                table.join(seat, f"Player {seat + 1}")
        while not table.public()["game"]["over"]:
            assert leaked(panel) == []
            assert not depends_on_hidden(panel, [chooser.randrange(1 << 30)])
            checked += 1
            seat = chooser.choice(table.public()["view"]["to_act"])
            table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
        assert leaked(panel) == []
    assert checked > 10


def test_the_check_finds_a_secret_when_a_screen_shows_one(panel, table, monkeypatch):
    """The check bites: a status screen that shows seat 0's hand is caught."""
    table.start_game("lion-square", 3, seed=1)
    assert secrets_of(table)  # there are secrets to find
    hand = table.view(0)["private"]["hand"]

    real = screens.STATUS_BUILDERS["lion-square"]

    def leaky(info):
        scores, lines, die = real(info)
        return scores, [*lines, "hand: " + " ".join(hand)], die

    monkeypatch.setitem(screens.STATUS_BUILDERS, "lion-square", leaky)
    assert leaked(panel) == sorted(set(hand) & secrets_of(table))
    assert leaked(panel)


def test_the_check_finds_a_secret_in_an_action_label(panel, table, monkeypatch):
    """... and a game whose legal actions show a hand, were it offered on the panel."""
    table.start_game("lion-square", 3, seed=1)
    monkeypatch.setitem(WORDS, "action.pass", {"en": "Pass {card}", "ja": "{card}を渡す"})
    kinds = {"pass": panel_actions.ActionKind("action.pass", personal=True)}
    monkeypatch.setitem(panel_actions.OFFERED, "lion-square", kinds)
    monkeypatch.setattr("hardware.menus.OFFERED", panel_actions.OFFERED)
    assert leaked(panel)
    assert json.dumps(leaked(panel))


def test_the_check_finds_a_secret_number_when_a_screen_shows_one(panel, table, monkeypatch):
    """A status screen that shows seat 0's herd: a number, which the text search misses and
    the shuffle catches."""
    table.start_game("lion-square", 3, seed=1)
    for seat in range(3):
        table.join(seat, f"Player {seat + 1}")
    chooser = random.Random(1)
    while len({table.view(seat)["private"]["herd"] for seat in range(3)}) == 1:  # the first round
        seat = chooser.choice(table.public()["view"]["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
    assert not depends_on_hidden(panel)  # the real screens pass

    real = screens.STATUS_BUILDERS["lion-square"]

    def leaky(info):
        scores, lines, die = real(info)
        return scores, [*lines, f"herd {table.view(0)['private']['herd']}"], die

    monkeypatch.setitem(screens.STATUS_BUILDERS, "lion-square", leaky)
    assert leaked(panel) == []  # what the text search alone let through
    assert depends_on_hidden(panel)

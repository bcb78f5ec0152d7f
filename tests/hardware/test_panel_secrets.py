"""No panel screen ever shows a secret: random games of every game id through the table,
every screen the panel can show checked against every seat's private view at every step."""

from __future__ import annotations

import json
import queue
import random

import pytest

from companion import games
from hardware import actions as panel_actions
from hardware import screens
from hardware.display import Display
from hardware.panel import ConfirmPage, HomePage, JoinPage, Panel

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
    pages = [HomePage(), JoinPage(), panel.main_menu(), ConfirmPage("Undo", "Take back?", lambda: None)]
    if panel.public["game"]:
        pages.append(panel.game_menu())
    texts = []
    for page in pages:
        screen = page.screen(panel)
        texts += [screen.title, *screen.lines]
        texts += screens.text_lines(screen, panel.width, panel.height)
    return texts


def leaked(panel) -> list[str]:
    shown = "\n".join(every_screen(panel))
    return sorted(secret for secret in secrets_of(panel.table) if secret in shown)


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

    def leaky(info):
        lines, die = screens._lion_square(info)
        return [*lines, "hand: " + " ".join(hand)], die

    monkeypatch.setitem(screens.STATUS_BUILDERS, "lion-square", leaky)
    assert leaked(panel) == sorted(set(hand) & secrets_of(table))
    assert leaked(panel)


def test_the_check_finds_a_secret_in_an_action_label(panel, table, monkeypatch):
    """... and a game whose legal actions show a hand, were it offered on the panel."""
    table.start_game("lion-square", 3, seed=1)
    kinds = {"pass": panel_actions.ActionKind("Pass {card}", "{card}を渡す", personal=True)}
    monkeypatch.setitem(panel_actions.OFFERED, "lion-square", kinds)
    monkeypatch.setattr("hardware.panel.OFFERED", panel_actions.OFFERED)
    assert leaked(panel)
    assert json.dumps(leaked(panel))

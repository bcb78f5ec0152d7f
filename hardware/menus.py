"""The panel's menus as data: what each lists, in which order, when an item shows, and what
choosing it does.

As in PiFinder's ``menu_structure.py``, a menu is a title and its entries, read top to
bottom. An :class:`Entry` is one item: its word (a key of ``hardware/words.py``), the command
it runs (``hardware/commands.py``, or opening another page) and when it is shown. The lists
that follow the table — the offered games, a step's actions, the seats for bots — are
:class:`Listed` entries, their items built from the table's public information each time
the menu is drawn. :func:`open_menu` makes a menu a page (``hardware/pages.py``).

A new menu item is one line here and its word in ``hardware/words.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.bots import LEVELS as BOT_LEVELS
from companion.bots import supported as has_bots
from companion.games.base import FIRST_PLAYER

from . import commands
from .actions import OFFERED, STEPPED, offered_actions
from .pages import JoinPage, MenuItem, MenuPage, Panel, StepPage
from .screens import choice_word, seat_names
from .words import word


def always(panel: Panel) -> bool:
    return True


@dataclass(frozen=True)
class Entry:
    """One item: ``label`` a key of the word list, ``choose`` what choosing it does, shown
    only while ``shown(panel)`` is true."""

    label: str
    choose: Callable[[Panel], None]
    shown: Callable[[Panel], bool] = always

    def items(self, panel: Panel) -> list[MenuItem]:
        if not self.shown(panel):
            return []
        return [MenuItem(word(self.label, panel.language), lambda: self.choose(panel))]


@dataclass(frozen=True)
class Listed:
    """Items built from the table each time the menu is drawn."""

    items: Callable[[Panel], list[MenuItem]]


@dataclass(frozen=True)
class Menu:
    """``title``: a key of the word list, or a function of the panel (a game's title)."""

    title: str | Callable[[Panel], str]
    entries: tuple[Entry | Listed, ...]


def open_menu(panel: Panel, menu: Menu) -> MenuPage:
    """``menu`` as a page on ``panel``: its items follow the table, rebuilt on every draw."""
    title = word(menu.title, panel.language) if isinstance(menu.title, str) else menu.title(panel)
    return MenuPage(title, lambda: [item for entry in menu.entries for item in entry.items(panel)])


def opens(menu: Menu) -> Callable[[Panel], None]:
    """A command that opens ``menu`` on top of the page shown."""
    return lambda panel: panel.push(open_menu(panel, menu))


# ============================================================================ the menus


def game_on_table(panel: Panel) -> bool:
    return bool(panel.public["game"])


def game_over(panel: Panel) -> bool:
    return panel.public["game"]["over"]


def first_player_drawable(panel: Panel) -> bool:
    """Before a game's first move, while who starts is not drawn (free seats take part)."""
    game, view = panel.public["game"], panel.public["view"]
    return not game["over"] and view["game_version"] == 0 and FIRST_PLAYER not in view["options"]


def game_title(panel: Panel) -> str:
    return panel.public["game"]["title"][panel.language]


MAIN_MENU = Menu("menu", (
    Entry("start_a_game", lambda panel: panel.push(game_list(panel))),
    Entry("new_game_same", commands.ask_new_game, shown=game_on_table),
    Entry("undo_last", commands.ask_undo, shown=game_on_table),
    Entry("show_join_code", lambda panel: panel.push(JoinPage())),
    Entry("show_address", commands.show_address),
))
"""``ok`` held anywhere, ``ok`` on the idle screen, or "Menu…" in the game menu."""


def bot_items(panel: Panel) -> list[MenuItem]:
    """In a full game with bots: per free seat "add a bot", per bot's seat "remove the bot"."""
    game = panel.public.get("game")
    if panel.bots is None or not game or game["over"] or not has_bots(game["id"]):
        return []
    levels = panel.bots.levels()
    items = []
    for seat in panel.public["seats"]:
        number = seat["seat"]
        if not seat["taken"]:
            items.append(MenuItem(word("add_bot", panel.language, number=number + 1),
                                  lambda number=number: panel.push(bot_levels(panel, number))))
        elif number in levels:
            items.append(MenuItem(word("remove_bot_item", panel.language, number=number + 1),
                                  lambda number=number, level=levels[number]:
                                  commands.ask_remove_bot(panel, number, level)))
    return items


BOTS_MENU = Menu("bots", (Listed(bot_items),))
"""The game menu's "Bots…": a bot for each free seat, each bot's seat freed."""


def awaited_bot_items(panel: Panel) -> list[MenuItem]:
    """"Seat 4: add a bot" for each free seat the game waits for, first in the game menu:
    the status screen's "add a bot (ok)" is then ok, ok, and ok for the level."""
    if not bot_items(panel):
        return []
    view = panel.public["view"]
    waiting = set(view.get("waiting_for", view["to_act"]))
    return [MenuItem(word("add_bot", panel.language, number=seat["seat"] + 1),
                     lambda number=seat["seat"]: panel.push(bot_levels(panel, number, home=True)))
            for seat in panel.public["seats"] if not seat["taken"] and seat["seat"] in waiting]


def action_items(panel: Panel, ending: bool = False) -> list[MenuItem]:
    """The actions the buttons may take for the acting seats (the trackers only): those that
    end a step (``ending``: attack done, the score pad's finish) apart, listed after the rest."""
    version = panel.public["version"]  # what the listed actions were read from
    return [MenuItem(action.label, lambda action=action: commands.choose_action(panel, action, version))
            for action in panel_actions(panel) if action.ends_step == ending]


def step_items(panel: Panel) -> list[MenuItem]:
    """In a game whose numbers the buttons step (the score pad, :data:`STEPPED`): per seat its
    number in the open round ("Aki: 12"), which opens the page where up and down step it."""
    game, view = panel.public["game"], panel.public["view"]
    if not view or game["over"] or game["id"] not in STEPPED:
        return []
    names = seat_names(panel.public, panel.language)
    public = view["public"]
    return [MenuItem(word("score_item", panel.language, name=names[seat], points=public["rounds"][public["open"]][seat]),
                     lambda seat=seat: panel.push(step_page(panel, seat)))
            for seat in range(len(names))]


def step_page(panel: Panel, seat: int) -> StepPage:
    """Seat ``seat``'s points in the open round, stepped by up and down (each press a move,
    made as that seat: the panel cannot tell who pressed)."""
    kind = STEPPED[panel.public["game"]["id"]]

    def read() -> tuple[str, tuple[str, ...]]:
        public = panel.public["view"]["public"]
        names = seat_names(panel.public, panel.language)
        in_play = public["open"] == len(public["rounds"]) - 1
        points = word("score_points" if in_play else "score_correcting", panel.language,
                      number=public["open"] + 1, points=public["rounds"][public["open"]][seat])
        return names[seat], (points, word("score_total", panel.language, total=public["totals"][seat]),
                             word("score_keys", panel.language))

    return StepPage(read, lambda points: commands.step(panel, seat, {"type": kind, "seat": seat, "points": points}))


def panel_actions(panel: Panel):
    view = panel.public["view"]
    game = panel.public["game"]
    if not view or game["over"]:
        return []
    names = seat_names(panel.public, panel.language)
    # A seat's legal actions: read only for the trackers listed in hardware/actions.py,
    # whose actions reveal nothing secret; they are never drawn for any other game.
    if game["id"] not in OFFERED:
        return []
    actions = {seat: panel.table.view(seat)["actions"] for seat in view["to_act"]}
    return offered_actions(game["id"], actions, view["public"], names, panel.language)


GAME_MENU = Menu(game_title, (
    Listed(awaited_bot_items),
    Listed(action_items),
    Listed(step_items),
    Listed(lambda panel: action_items(panel, ending=True)),
    Entry("play_again", commands.ask_rematch, shown=game_over),
    Entry("bots_more", opens(BOTS_MENU), shown=lambda panel: bool(bot_items(panel))),
    # Before the first move; after a tracker's actions and the bots, so their presses stay as they were.
    Entry("who_starts", commands.draw_first_player, shown=first_player_drawable),
    Entry("menu_more", lambda panel: panel.replace(open_menu(panel, MAIN_MENU))),
    # Last, never highlighted first: taking a move back is never a run of ok presses.
    Entry("undo_last", commands.ask_undo),
))
"""``ok`` on a status screen."""


def home_menu(panel: Panel) -> MenuPage:
    """What ``ok`` on the home page opens: the game's menu, or the main menu without one."""
    return open_menu(panel, GAME_MENU if panel.public["game"] else MAIN_MENU)


# ============================================================================ pickers


def game_list(panel: Panel) -> MenuPage:
    """Start a game: the offered games, then :func:`player_count`."""
    def items() -> list[MenuItem]:
        return [MenuItem(game["title"][panel.language], lambda game=game: panel.push(player_count(panel, game)))
                for game in panel.public["offered_games"]]

    return MenuPage(word("choose_game", panel.language), items)


def player_count(panel: Panel, game: dict) -> MenuPage:
    def items() -> list[MenuItem]:
        return [MenuItem(word("players", panel.language, count=count),
                         lambda count=count: choose_options(panel, game, count, {}))
                for count in game["player_counts"]]

    return MenuPage(game["title"][panel.language], items)


def choose_options(panel: Panel, game: dict, players: int, chosen: dict) -> None:
    """Ask each option that has a list of choices, one page each (its default highlighted),
    then confirm."""
    for option in game["options"]:
        if option["name"] not in chosen and option.get("choices"):
            choices = list(option["choices"])

            def items(name=option["name"], choices=choices) -> list[MenuItem]:
                return [MenuItem(choice_word(value, panel.language),
                                 lambda value=value: choose_options(panel, game, players, chosen | {name: value}))
                        for value in choices]

            default = choices.index(option["default"]) if option["default"] in choices else 0
            panel.push(MenuPage(option["label"][panel.language], items, selected=default))
            return
    for option in game["options"]:
        values = typed_before(panel, game, option) if option["name"] not in chosen else []
        if values:  # the panel cannot type: a text used before, or none (the default)

            def typed(name=option["name"], values=values) -> list[MenuItem]:
                return [MenuItem(value or word("none_typed", panel.language),
                                 lambda value=value: choose_options(panel, game, players, chosen | {name: value}))
                        for value in [*values, option["default"]]]

            panel.push(MenuPage(option["label"][panel.language], typed))
            return
    commands.ask_start(panel, game, players, chosen)


def typed_before(panel: Panel, game: dict, option: dict) -> list:
    """The values given before to an option asked at the start and typed (no choices), the
    most recent first: none without the records, or for any other option."""
    if option.get("choices") or not option.get("asked") or panel.used_before is None:
        return []
    return panel.used_before()["options"].get(game["id"], {}).get(option["name"], [])


def bot_levels(panel: Panel, seat: int, home: bool = False) -> MenuPage:
    """How strong the bot for ``seat`` plays; "normal" highlighted first. Seating needs
    no "Yes": removing the bot undoes it, and its moves can be taken back. Then back to the
    bots (the next seat may want one too), or ``home`` (the seat the game waited for)."""
    def items() -> list[MenuItem]:
        return [MenuItem(words[panel.language], lambda level=level: commands.seat_bot(panel, seat, level, home))
                for level, words in BOT_LEVELS.items()]

    return MenuPage(word("bot_for_seat", panel.language, number=seat + 1), items,
                    selected=list(BOT_LEVELS).index("normal"))

"""The panel: the OLED's screens and what the buttons do, run by one thread.

Everything arrives as an event on one queue — button edges from gpiozero's callbacks,
"the table changed" from :meth:`companion.table.Table.subscribe`, stop — and one thread
handles them in order, so no two presses ever race and a slow draw never loses a press.
When nothing happens the thread blocks on the queue without a timeout: no CPU at all.

Redraw policy: after each batch of events the panel builds the current :class:`Screen`;
only if it differs from the one on the glass is it rendered and pushed, and never more
often than every ``frame_seconds`` (a change that comes sooner is drawn when that time is
up). The panel draws from ``table.public()`` — the same public view a table screen gets —
reading a seat's legal actions (``table.view(seat)``) only in the trackers, whose actions
reveal nothing secret; it acts through ``table.start_game``/``act``/``undo``/``rematch``/
``free_seat`` and the bots' ``BotSeats.seat``, the very methods the web uses, so phones and
buttons never disagree.

Buttons (``docs/panel.md`` has the full table): ``up``/``down`` move and scroll, and
repeat every ``repeat_seconds`` once held for ``hold_seconds``; ``ok`` chooses, ``back``
goes back; holding ``ok`` opens the menu from anywhere, holding ``back`` goes home.
``left`` and ``right`` (joystick boards) work as ``back`` and ``ok``.

The web's ``/display`` mirror uses only these members (duck-typed: the web never imports
``hardware``): ``is_mock``, ``button_names``, ``frame_number``, ``frame_png()``,
``text_lines()``, ``press(name, kind)``, ``buttons_problem`` (why there are no buttons, or None).
"""

from __future__ import annotations

import io
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from PIL import Image

from companion.bots import LEVELS as BOT_LEVELS
from companion.bots import supported as has_bots
from companion.games import render_text
from companion.network import wifi_qr_payload
from companion.table import StorageError, Table, TableError

from .actions import OFFERED, PLAYS_EVERY_STEP, offered_actions
from .buttons import ButtonEvent, Buttons, ButtonsProblem
from .display import Display
from .fonts import text_width, wrap
from .screens import (
    PAGE_BAR,
    ROW,
    Screen,
    choice_word,
    qr_text_room,
    render,
    seat_names,
    status_body_rows,
    stopped_screen,
    status_headline_rows,
    status_screen,
    text_lines,
    word,
)

log = logging.getLogger(__name__)

FRAME_SECONDS = 0.2
"""At most five frames a second: enough for a button's answer to feel immediate, and a
full 128 × 64 I2C frame takes 23 ms at 400 kHz, so the bus stays mostly free."""

FIRST_FRAME_SECONDS = 5.0
"""How long :meth:`Panel.start` waits for the first frame (a display that hangs longer is
a fault the panel logs; it goes on regardless)."""

REPEATING = ("up", "down")
"""Buttons that repeat while held (moving through a list); the others act once."""

ALIASES = {"left": "back", "right": "ok"}
"""Joystick sideways presses work as back and ok."""


class _Stop:
    """The event that ends the panel thread."""


@dataclass
class _Sync:
    """An event that is answered once everything before it is handled and drawn (tests)."""

    done: threading.Event = field(default_factory=threading.Event)


_TABLE_CHANGED = "table changed"
_NETWORK_CHANGED = "network changed"  # only redraws: the screens read the network when built

JOIN_STEP_SECONDS = 8.0
"""While the companion's own Wi-Fi is up, the idle screen shows its QR code, its name and
password in words, and the join QR code in turn, this long each."""

QUESTION_PAGE_SECONDS = 3.0
"""A question too long for the rows above its answers shows its rows a page at a time, this
long each: time enough to read three rows."""

JOIN_TURNS = ("wifi-qr", "wifi-words", "join")
"""The join screen's turns while the companion's own Wi-Fi is up, in the order a newcomer
needs them."""


def address_rows(address: str, room: float) -> list[str]:
    """``address`` in rows of at most ``room`` pixels, broken after the host's dots, before
    its port and before the path where it can be (``192.168.`` / ``1.20`` / ``:8000`` /
    ``/J/L5KTW``), inside a part only when one is longer than a row. No spaces are added: it
    is typed as shown."""
    host, slash, path = address.partition("/")
    parts, part = [], ""
    for char in host:
        if char == ":" and part:
            parts.append(part)
            part = ""
        part += char
        if char == ".":
            parts.append(part)
            part = ""
    parts += [part, slash + path]
    rows, row = [], ""
    for part in filter(None, parts):
        if text_width(row + part) <= room:
            row += part
            continue
        if row:
            rows.append(row)
        row = ""
        for char in part:
            if row and text_width(row + char) > room:
                rows.append(row)
                row = ""
            row += char
    return [*rows, row] if row else rows


class Page:
    def screen(self, panel: Panel) -> Screen:
        raise NotImplementedError

    def key(self, panel: Panel, key: str) -> None:
        """A short press of ``up``, ``down``, ``ok`` or ``back``."""
        if key == "back":
            panel.pop()


class HomePage(Page):
    """The status of the game on the table, or the join screen when there is none.

    On a status screen up/down turn the pages of what does not fit, ``ok`` opens the game
    menu and ``back`` shows the join QR code (and the Wi-Fi one): one press for a latecomer."""

    def __init__(self):
        self.scroll = 0
        self.page_rows = 1  # body rows of the last status screen drawn: one page

    def screen(self, panel: Panel) -> Screen:
        info = panel.public
        if info["game"] is None:
            screen = panel.join_screen()
        else:
            screen = status_screen(info, panel.language, self.scroll, panel.height, panel.empty_seat_help())
            self.page_rows = status_body_rows(screen, panel.height)
            self.scroll = min(self.scroll, max(0, len(screen.lines) - self.page_rows))
            screen = replace(screen, scroll=self.scroll)
        # Say what is wrong where everyone looks: a read-only or full SD card first (moves are
        # refused), else buttons that could not be opened (the panel only shows; play on phones).
        if info.get("problem"):
            screen = _flagged(screen, word("cannot_save", panel.language))
        elif panel.buttons_problem is not None:
            screen = _flagged(screen, panel._t("NO BUTTONS", "ボタンなし"))
        return screen

    def key(self, panel: Panel, key: str) -> None:
        if key == "up":
            self.scroll = max(0, self.scroll - self.page_rows)
        elif key == "down":
            self.scroll += self.page_rows
        elif key == "ok":
            panel.push(panel.game_menu() if panel.public["game"] else panel.main_menu())
        elif key == "back" and panel.public["game"]:
            panel.push(JoinPage())


def _flagged(screen: Screen, flag: str) -> Screen:
    """``screen`` with ``flag`` as its title, or, on a screen without a title bar, as its
    headline (the headline goes below)."""
    if screen.big:
        return replace(screen, headline=flag, lines=(*status_headline_rows(screen.headline or "", False), *screen.lines),
                       die=None)
    return replace(screen, title=flag)


@dataclass
class MenuItem:
    label: str
    choose: Callable[[], None]


class MenuPage(Page):
    """A list: up/down move the highlight, ok chooses, back returns."""

    def __init__(self, title: str, items: Callable[[], list[MenuItem]]):
        self.title = title
        self._items = items  # rebuilt on every draw: the list follows the table
        self._shown: list[MenuItem] | None = None  # the items of the last screen drawn
        self.selected = 0

    def items(self) -> list[MenuItem]:
        return self._items()

    def screen(self, panel: Panel) -> Screen:
        self._shown = self.items()
        labels = tuple(item.label for item in self._shown)
        self.selected = min(self.selected, max(0, len(labels) - 1))
        return Screen("menu", self.title, labels, selected=self.selected if labels else None)

    def key(self, panel: Panel, key: str) -> None:
        # The keys act on what the glass shows, even if the table moved on since it was
        # drawn: a button must never do what the player did not see.
        items = self._shown if self._shown is not None else self.items()
        if key == "up" and items:
            self.selected = (self.selected - 1) % len(items)
        elif key == "down" and items:
            self.selected = (self.selected + 1) % len(items)
        elif key == "ok" and items:
            items[min(self.selected, len(items) - 1)].choose()
        elif key == "back":
            panel.pop()


class ConfirmPage(Page):
    """A question with two answers, "Yes" and "No": up/down move, ok answers, back is "No".

    ``default`` is the answer highlighted first: "Yes" for harmless steps (starting a game),
    "No" for one that loses something (undo), so a run of ok presses never does it. A
    question longer than the rows above the answers shows them in turns, a page every
    QUESTION_PAGE_SECONDS (the buttons keep choosing the answer)."""

    def __init__(self, title: str, question: str, then: Callable[[], None], default: bool = True):
        self.title, self.question, self.then = title, question, then
        self.yes = default
        self.opened = time.monotonic()

    def pages(self, panel: Panel) -> tuple[list[str], int]:
        """The question's rows and how many fit above the answers (as the layout wraps them:
        short of the page bar when they do not all fit)."""
        rows, room = wrap(self.question, panel.width), max(1, panel.height // ROW - 1)
        return (rows if len(rows) <= room else wrap(self.question, panel.width - PAGE_BAR)), room

    def until_next_page(self, panel: Panel) -> float | None:
        """Seconds until the question turns its page (None: it fits, it never does)."""
        rows, room = self.pages(panel)
        if len(rows) <= room:
            return None
        return QUESTION_PAGE_SECONDS - (time.monotonic() - self.opened) % QUESTION_PAGE_SECONDS

    def screen(self, panel: Panel) -> Screen:
        question, room = self.pages(panel)
        count = -(-len(question) // room)
        page = int((time.monotonic() - self.opened) // QUESTION_PAGE_SECONDS) % count
        answers = (panel._t("Yes", "はい"), panel._t("No", "いいえ"))
        return Screen("confirm", self.title, (self.question, *answers), scroll=page * room, selected=2 - self.yes)

    def key(self, panel: Panel, key: str) -> None:
        if key in ("up", "down"):
            self.yes = not self.yes
        elif key == "ok" and self.yes:
            panel.pop()
            self.then()
        elif key in ("ok", "back"):
            panel.pop()


class InfoPage(Page):
    """Words to read (the IP address, a refusal); up/down scroll, ok or back close it."""

    def __init__(self, title: str, text: str, kind: str = "info"):
        self.title, self.text, self.kind, self.scroll = title, text, kind, 0

    def screen(self, panel: Panel) -> Screen:
        return Screen(self.kind, self.title, tuple(wrap(self.text, panel.width)), scroll=self.scroll)

    def key(self, panel: Panel, key: str) -> None:
        if key == "up":
            self.scroll = max(0, self.scroll - 1)
        elif key == "down":
            self.scroll += 1
        else:
            panel.pop()


class JoinPage(Page):
    """The join screen shown from the menu or by ``back`` on a status screen (ok or back
    return). While the companion's own Wi-Fi is up it takes turns with the Wi-Fi's QR code
    and its words, as the idle screen does; up/down show the next or the previous one at
    once (and stop the turns)."""

    def __init__(self):
        self.turn: int | None = None  # which of JOIN_TURNS; None: by the clock
        self.opened = time.monotonic()

    def clock(self) -> float:
        """Seconds since the page opened: the turns start with the Wi-Fi code, the first step."""
        return time.monotonic() - self.opened

    def screen(self, panel: Panel) -> Screen:
        return panel.join_screen(now=self.clock(), turn=self.turn)

    def key(self, panel: Panel, key: str) -> None:
        if key in ("up", "down"):
            shown = panel.join_turn(now=self.clock(), turn=self.turn)
            self.turn = (shown + (1 if key == "down" else -1)) % len(JOIN_TURNS)
        elif key in ("ok", "back"):
            panel.pop()


# ============================================================================ the panel


class Panel:
    """The OLED panel of one table. Build it, :meth:`start` it, :meth:`stop` it on shutdown."""

    def __init__(
        self,
        table: Table,
        display: Display,
        buttons: Buttons | None,
        events: queue.Queue,
        *,
        size: tuple[int, int] = (128, 64),
        public_url: str = "",
        lan_address: str = "",
        network=None,
        bots=None,
        language: str = "en",
        hold_seconds: float = 0.8,
        repeat_seconds: float = 0.15,
        frame_seconds: float = FRAME_SECONDS,
        buttons_problem: ButtonsProblem | None = None,
    ):
        self.table = table
        self.bots = bots  # companion.bots.seats.BotSeats: seat and remove bots from the game menu; or None
        self.display = display
        self.buttons = buttons
        self.buttons_problem = buttons_problem  # why ``buttons`` is None, when they could not be opened
        self.width, self.height = size
        self.public_url = public_url
        self.lan_address = lan_address
        self.network = network  # companion.network.NetworkStatus, or None
        self.language = language
        self.hold_seconds = hold_seconds
        self.repeat_seconds = repeat_seconds
        self.frame_seconds = frame_seconds
        self._events = events
        self._pages: list[Page] = [HomePage()]
        self._pressed_at: dict[str, float] = {}
        self._long_done: set[str] = set()
        self._repeating: str | None = None
        self._next_repeat = 0.0
        self._shown: Screen | None = None
        self._drawn_at = float("-inf")
        self._dirty = False  # a changed screen waits for the next allowed frame
        self._frame_lock = threading.Condition()
        self._image = render(Screen("idle", ""), self.width, self.height)
        self._png: bytes | None = None
        self.frame_number = 0
        self.draw_seconds: list[float] = []  # render+push time of each frame (benchmark)
        self.public: dict = {}
        self._thread: threading.Thread | None = None
        self._first_frame = threading.Event()
        self._unsubscribe: Callable[[], None] | None = None
        self._unsubscribe_network: Callable[[], None] | None = None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        self._unsubscribe = self.table.subscribe(lambda version: self._events.put(_TABLE_CHANGED))
        if self.network is not None:
            self._unsubscribe_network = self.network.subscribe(lambda state: self._events.put(_NETWORK_CHANGED))
        self._thread = threading.Thread(target=self._run, name="panel", daemon=True)
        self._thread.start()
        # Until the first frame is drawn the panel has no text: the web, which starts serving
        # right after this, would answer /api/display.txt with nothing.
        if not self._first_frame.wait(FIRST_FRAME_SECONDS):
            log.warning("the panel drew no first frame within %.0f s", FIRST_FRAME_SECONDS)

    def stop(self, timeout: float = 4.0) -> None:
        """Show "stopped" on the display (and leave it there), then end the thread and
        release the pins. Safe to call twice."""
        if self._thread is None:
            if self.buttons:
                self.buttons.close()
            return
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unsubscribe_network:
            self._unsubscribe_network()
            self._unsubscribe_network = None
        self._events.put(_Stop())
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("the panel thread did not stop within %.0f s", timeout)
        self._thread = None
        if self.buttons:
            self.buttons.close()

    def settle(self, timeout: float = 5.0) -> bool:
        """Wait until every event queued so far is handled and its frame drawn (tests)."""
        sync = _Sync()
        self._events.put(sync)
        return sync.done.wait(timeout)

    # ------------------------------------------------------------------ for the web

    @property
    def is_mock(self) -> bool:
        return bool(self.buttons and self.buttons.is_mock)

    @property
    def button_names(self) -> list[str]:
        return self.buttons.names if self.buttons else []

    def press(self, name: str, kind: str = "short") -> None:
        """Press a button through its mock pin (mock mode only; see :meth:`Buttons.press`)."""
        if self.buttons is None:
            raise PermissionError("this panel has no buttons")
        self.buttons.press(name, kind)

    def frame_png(self) -> bytes:
        """The current frame as a PNG (its real size: scale it up to look at it)."""
        with self._frame_lock:
            if self._png is None:
                buffer = io.BytesIO()
                self._image.convert("L").save(buffer, "PNG")
                self._png = buffer.getvalue()
            return self._png

    def frame_image(self):
        with self._frame_lock:
            return self._image.copy()

    def text_lines(self) -> list[str]:
        """The lines of text the current frame shows."""
        with self._frame_lock:
            return text_lines(self._shown, self.width, self.height) if self._shown else []

    def wait_frame(self, after: int, timeout: float = 5.0) -> int:
        """Block until a frame newer than number ``after`` is drawn; returns the frame number."""
        with self._frame_lock:
            self._frame_lock.wait_for(lambda: self.frame_number > after, timeout)
            return self.frame_number

    # ------------------------------------------------------------------ pages

    def push(self, page: Page) -> None:
        self._pages.append(page)

    def pop(self) -> None:
        if len(self._pages) > 1:
            self._pages.pop()

    def home(self) -> None:
        del self._pages[1:]

    def _say(self, words: dict) -> str:
        return words[self.language]

    def _access_point(self):
        """The network's state while the companion's own Wi-Fi is up, else None."""
        state = self.network.state if self.network is not None else None
        return state if state is not None and state.access_point else None

    def _base_url(self) -> str:
        """The address phones use, ending in "/": the access point's while it is up."""
        access_point = self.network.join_base_url() if self._access_point() else None
        return access_point + "/" if access_point else self.public_url

    def _showing_join_steps(self) -> bool:
        """Whether the glass takes turns between the Wi-Fi and the join QR codes."""
        if self._access_point() is None:
            return False
        top = self._pages[-1]
        return (len(self._pages) == 1 and not self.public.get("game")) or (isinstance(top, JoinPage) and top.turn is None)

    def join_turn(self, now: float | None = None, turn: int | None = None) -> int:
        """Which of JOIN_TURNS the join screen shows: ``turn`` if given, else by the clock
        (the monotonic one, or ``now``) while the companion's own Wi-Fi is up, else the join
        code's."""
        if self._access_point() is None:
            return JOIN_TURNS.index("join")
        if turn is not None:
            return turn
        return int((time.monotonic() if now is None else now) // JOIN_STEP_SECONDS) % len(JOIN_TURNS)

    def join_screen(self, now: float | None = None, turn: int | None = None) -> Screen:
        """The join QR code with the address to type; while the companion's own Wi-Fi is up,
        taking turns every JOIN_STEP_SECONDS (see :meth:`join_turn`) with the Wi-Fi's QR code
        and its name and password in words, each labelled as a step.

        Beside a QR code a row holds 7 or 8 characters: the address to type is the join
        link itself (``192.168.1.20:8000/J/L5KTW``: no code to type twice), broken after its
        dots and before its colon and slashes."""
        access_point = self._access_point()
        shown = JOIN_TURNS[self.join_turn(now, turn)]
        if access_point is not None and shown == "wifi-qr":
            payload = wifi_qr_payload(access_point.ssid, access_point.password)
            room = qr_text_room(payload, self.width, self.height)
            return Screen("idle", "", tuple(wrap(self._t("1. Join the Wi-Fi", "1. Wi-Fiに接続"), room)), qr=payload)
        if access_point is not None and shown == "wifi-words":
            return Screen("idle", self._t("1. Join the Wi-Fi", "1. Wi-Fiに接続"),
                          (access_point.ssid, self._t("Password:", "パスワード:"), access_point.password))
        code = self.table.join_code
        base = self._base_url()
        url = f"{base}J/{code}" if base else ""
        typed = url.split("://", 1)[-1]  # what a person types
        heading = self._t("2. Join", "2. 参加") if access_point else ""
        if self.height >= 64 and self.width >= 128 and url:
            room = qr_text_room(url.upper(), self.width, self.height)
            lines = address_rows(typed, room)
            return Screen("idle", heading if len(lines) < self.height // ROW else "", tuple(lines), qr=url.upper())
        lines = address_rows(typed, self.width) if typed else [f"{word('code', self.language)} {code}"]
        return Screen("idle", heading, tuple(lines))

    def empty_seat_help(self) -> str | None:
        """What the status screen tells to do about an awaited free seat (see
        :func:`hardware.screens.status_screen`): nothing where the panel plays every step."""
        game = self.public.get("game")
        if not game or game["id"] in PLAYS_EVERY_STEP:
            return None
        return "bot" if self.bots is not None and has_bots(game["id"]) else "join"

    def main_menu(self) -> MenuPage:
        def items() -> list[MenuItem]:
            entries = [MenuItem(self._t("Start a game", "ゲームを始める"), lambda: self.push(self._game_list()))]
            game = self.public["game"]
            if game:
                entries.append(MenuItem(self._t("New game (same again)", "同じゲームをもう一度"), self._ask_new_game))
                entries.append(MenuItem(self._t("Undo last action", "一手戻す"), self._ask_undo))
            entries.append(MenuItem(self._t("Show join code", "参加コードを表示"), lambda: self.push(JoinPage())))
            entries.append(MenuItem(self._t("Show IP address", "IPアドレスを表示"), self._show_address))
            return entries

        return MenuPage(word("menu", self.language), items)

    def game_menu(self) -> MenuPage:
        """The menu of a running game: the button actions it offers, undo, the main menu."""

        def items() -> list[MenuItem]:
            version = self.public["version"]  # what the listed actions were read from
            entries = self._awaited_bot_items()
            entries += [MenuItem(a.label, lambda a=a: self._choose_action(a, version)) for a in self._panel_actions()]
            if self.public["game"]["over"]:
                entries.append(MenuItem(self._t("Play again", "もう一度遊ぶ"), self._ask_rematch))
            elif self._bot_items():
                entries.append(MenuItem(self._t("Bots…", "ボット…"), lambda: self.push(self._bot_menu())))
            entries.append(MenuItem(self._t("Menu…", "メニュー…"), lambda: self._replace(self.main_menu())))
            # Last, never highlighted first: taking a move back is never a run of ok presses.
            entries.append(MenuItem(self._t("Undo last action", "一手戻す"), self._ask_undo))
            return entries

        return MenuPage(self.public["game"]["title"][self.language], items)

    def _t(self, en: str, ja: str) -> str:
        return ja if self.language == "ja" else en

    def _replace(self, page: Page) -> None:
        self.pop()
        self.push(page)

    def _panel_actions(self):
        view = self.public["view"]
        game = self.public["game"]
        if not view or game["over"]:
            return []
        names = seat_names(self.public, self.language)
        # A seat's legal actions: read only for the trackers listed in hardware/actions.py,
        # whose actions reveal nothing secret; they are never drawn for any other game.
        if game["id"] not in OFFERED:
            return []
        actions = {seat: self.table.view(seat)["actions"] for seat in view["to_act"]}
        return offered_actions(game["id"], actions, view["public"], names, self.language)

    # ------------------------------------------------------------------ bots

    def _bot_items(self) -> list[MenuItem]:
        """In a full game with bots: per free seat "add a bot", per bot's seat "remove the bot"."""
        game = self.public.get("game")
        if self.bots is None or not game or game["over"] or not has_bots(game["id"]):
            return []
        levels = self.bots.levels()
        items = []
        for seat in self.public["seats"]:
            number = seat["seat"]
            if not seat["taken"]:
                items.append(MenuItem(self._t(f"Seat {number + 1}: add a bot", f"{number + 1}番: ボットを入れる"),
                                      lambda number=number: self.push(self._bot_levels(number))))
            elif number in levels:
                items.append(MenuItem(self._t(f"Seat {number + 1}: remove bot", f"{number + 1}番: ボットを外す"),
                                      lambda number=number, level=levels[number]: self._ask_remove_bot(number, level)))
        return items

    def _awaited_bot_items(self) -> list[MenuItem]:
        """"Seat 4: add a bot" for each free seat the game waits for, first in the game menu:
        the status screen's "add a bot (ok)" is then ok, ok, and ok for the level."""
        if not self._bot_items():
            return []
        view = self.public["view"]
        waiting = set(view.get("waiting_for", view["to_act"]))
        return [MenuItem(self._t(f"Seat {seat['seat'] + 1}: add a bot", f"{seat['seat'] + 1}番: ボットを入れる"),
                         lambda number=seat["seat"]: self.push(self._bot_levels(number, home=True)))
                for seat in self.public["seats"] if not seat["taken"] and seat["seat"] in waiting]

    def _bot_menu(self) -> MenuPage:
        return MenuPage(self._t("Bots", "ボット"), self._bot_items)

    def _bot_levels(self, seat: int, home: bool = False) -> MenuPage:
        """How strong the bot for ``seat`` plays; "normal" highlighted first. Seating needs
        no "Yes": removing the bot undoes it, and its moves can be taken back. Then back to the
        bots (the next seat may want one too), or ``home`` (the seat the game waited for)."""
        page = MenuPage(self._t(f"Bot for seat {seat + 1}", f"{seat + 1}番の席のボット"),
                        lambda: [MenuItem(words[self.language], lambda level=level: self._seat_bot(seat, level, home))
                                 for level, words in BOT_LEVELS.items()])
        page.selected = list(BOT_LEVELS).index("normal")
        return page

    def _seat_bot(self, seat: int, level: str, home: bool = False) -> None:
        try:
            self.bots.seat(seat, level)
        except (TableError, ValueError, StorageError) as error:  # taken meanwhile, a full disk...
            self.push(InfoPage(self._t("Not seated", "座れません"), self._refusal(error), "error"))
            return
        if home:
            self.home()
        else:
            self.pop()

    def _ask_remove_bot(self, seat: int, level: str) -> None:
        """Ask first ("No" highlighted): the bot leaves the game and its seat waits for someone."""
        words = BOT_LEVELS[level][self.language]
        question = self._t(f"Remove the {words} bot from seat {seat + 1}? The seat waits for a player.",
                           f"{seat + 1}番の席のボット（{words}）を外しますか? 席は空席になります。")
        self.push(ConfirmPage(self._t("Remove bot", "ボットを外す"), question, lambda: self._remove_bot(seat), default=False))

    def _remove_bot(self, seat: int) -> None:
        try:
            self.table.free_seat(seat)
        except (TableError, StorageError) as error:
            self.push(InfoPage(self._t("Not removed", "外せません"), self._refusal(error), "error"))

    def _game_list(self) -> MenuPage:
        def items() -> list[MenuItem]:
            return [MenuItem(g["title"][self.language], lambda g=g: self.push(self._player_count(g)))
                    for g in self.public["offered_games"]]

        return MenuPage(self._t("Choose a game", "ゲームを選ぶ"), items)

    def _player_count(self, game: dict) -> MenuPage:
        def items() -> list[MenuItem]:
            return [MenuItem(self._t(f"{n} players", f"{n}人"), lambda n=n: self._choose_options(game, n, {}))
                    for n in game["player_counts"]]

        return MenuPage(game["title"][self.language], items)

    def _choose_options(self, game: dict, players: int, chosen: dict) -> None:
        """Ask each option that has a list of choices, one page each, then confirm."""
        for option in game["options"]:
            if option["name"] not in chosen and option.get("choices"):
                def pick(value, option=option):
                    self._choose_options(game, players, chosen | {option["name"]: value})

                page = MenuPage(option["label"][self.language],
                                lambda option=option, pick=pick: [MenuItem(choice_word(c, self.language), lambda c=c: pick(c)) for c in option["choices"]])
                page.selected = list(option["choices"]).index(option["default"]) if option["default"] in option["choices"] else 0
                self.push(page)
                return
        title = game["title"][self.language]
        question = self._t(f"Start {title} for {players} players?", f"{title}を{players}人で始めますか?")
        self.push(self._confirm_start(self._t("Start", "開始"), question, lambda: self._start(game["id"], players, chosen)))

    def _confirm_start(self, title: str, question: str, then: Callable[[], None]) -> ConfirmPage:
        """The question before a new game: over a game still running it says that game ends,
        and starts on "No", as the phones ask before abandoning one."""
        running = self.public.get("game")
        if running and not running["over"]:
            question = self._t(f"The game in progress ends. {question}", f"進行中のゲームは終わります。{question}")
            return ConfirmPage(title, question, then, default=False)
        return ConfirmPage(title, question, then)

    def _start(self, game_id: str, players: int, options: dict) -> None:
        try:
            self.table.start_game(game_id, players, options=options or None)
        except (TableError, ValueError, StorageError) as error:
            self.push(InfoPage(self._t("Not started", "開始できません"), self._refusal(error), "error"))
            return
        self.home()

    def _ask_new_game(self) -> None:
        game = self.public["game"]
        title = game["title"][self.language]
        question = self._t(f"Start {title} again for {game['players']} players?",
                           f"{title}を{game['players']}人でもう一度始めますか?")
        self.push(self._confirm_start(self._t("New game", "新しいゲーム"), question,
                                      lambda: self._start(game["id"], game["players"], dict(game["options"]))))

    def _ask_undo(self) -> None:
        """Ask first, naming what the undo takes back (the table's ``undo``: the last person's
        move, with the bots' replies after it); the question starts on "No"."""
        undo = self.public.get("undo") or {}
        last = self._undone_move(undo).rstrip(".。")  # the question adds its own "?": "…a tile?", not "…a tile.?"
        replies = undo.get("moves", 1) - 1
        if last and replies:
            question = self._t(f"Take back {last}, with the bots' {replies} {'reply' if replies == 1 else 'replies'} after it?",
                               f"最後の人の手と、その後のボットの{replies}手を取り消しますか: {last}")
        elif last:
            question = self._t(f"Take back the last move: {last}?", f"最後の一手を取り消しますか: {last}")
        else:
            question = self._t("Take back the last action?", "最後の一手を取り消しますか?")
        self.push(ConfirmPage(self._t("Undo", "一手戻す"), question, self._undo, default=False))

    def _undone_move(self, undo: dict) -> str:
        return render_text(undo["move"][self.language], seat_names(self.public, self.language)) if undo.get("move") else ""

    def _undo(self) -> None:
        try:
            self.table.undo()
        except (TableError, StorageError) as error:
            self.push(InfoPage(self._t("Cannot undo", "戻せません"), self._refusal(error), "error"))
            return
        self.home()

    def _ask_rematch(self) -> None:
        # "No" first: a run of ok presses at the end must not deal a new game over the result.
        question = self._t("Play again with the same players on the same seats?", "同じ席の同じメンバーでもう一度遊びますか?")
        self.push(ConfirmPage(self._t("Play again", "もう一度遊ぶ"), question, self._rematch, default=False))

    def _rematch(self) -> None:
        """The finished game again: same game, options, players and seats, a new seed."""
        try:
            self.table.rematch()
        except (TableError, StorageError) as error:
            self.push(InfoPage(self._t("Not started", "開始できません"), self._refusal(error), "error"))
            return
        self.home()

    def _refusal(self, error: Exception) -> str:
        """A refusal in the panel's language (the table's and engines' refusals carry ``ja``),
        its seat placeholders replaced by names."""
        japanese = getattr(error, "ja", None) if self.language == "ja" else None
        return render_text(japanese or str(error), seat_names(self.public, self.language))

    def _choose_action(self, offered, version: int) -> None:
        """Do a game menu's action; one the phones ask to confirm asks here too, "No" first."""
        if not offered.confirm:
            self._act(offered.seat, offered.action, version)
            return
        question = self._t(f"{offered.label}?", f"「{offered.label}」でよろしいですか?")
        self.push(ConfirmPage(self.public["game"]["title"][self.language], question,
                              lambda: self._act(offered.seat, offered.action, version), default=False))

    def _act(self, seat: int, action: dict, version: int) -> None:
        """Act for ``seat`` with an action read at table ``version``: if what that seat may
        do changed since, the table refuses it as stale rather than doing something else."""
        try:
            self.table.act(seat, action, version)
        except (TableError, ValueError, StorageError) as error:  # IllegalAction is a ValueError
            self.push(InfoPage(self._t("Refused", "できません"), self._refusal(error), "error"))
            return
        self.pop()

    def _show_address(self) -> None:
        access_point = self._access_point()
        if access_point is not None:
            text = f"IP {access_point.address}\nWi-Fi {access_point.ssid}\n{self._base_url()}"
        else:
            text = f"IP {self.lan_address}\n{self.public_url}" if self.public_url else f"IP {self.lan_address}"
        self.push(InfoPage(self._t("IP address", "IPアドレス"), text))

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        self.public = self.table.public()
        self._draw(force=True)
        self._first_frame.set()
        while True:
            try:
                event = self._events.get(timeout=self._timeout())
            except queue.Empty:
                event = None
            syncs = []
            stop = False
            while True:  # handle every event already waiting before drawing once
                if isinstance(event, _Stop):
                    stop = True
                elif isinstance(event, _Sync):
                    syncs.append(event)
                elif event is not None:
                    self._handle(event)
                try:
                    event = self._events.get_nowait()
                except queue.Empty:
                    break
            try:
                self._repeat_if_due()
            except Exception:  # as in _handle: a bug must not kill the panel
                log.exception("the panel failed to repeat a held button")
            if stop:
                break
            self._draw(force=bool(syncs))
            for sync in syncs:
                sync.done.set()
        self._show_stopped()

    def _timeout(self) -> float | None:
        """How long the thread may sleep: forever, unless a frame, a repeat or a retry is due."""
        now = time.monotonic()
        waits = []
        if self._shown is not None and self._dirty:
            waits.append(self._drawn_at + self.frame_seconds - now)
        if self._repeating:
            waits.append(self._next_repeat - now)
        retry = self.display.retry_in()
        if retry is not None:
            waits.append(retry)
        if self._showing_join_steps():
            top = self._pages[-1]
            clock = top.clock() if isinstance(top, JoinPage) else now
            waits.append(JOIN_STEP_SECONDS - clock % JOIN_STEP_SECONDS)
        if isinstance(self._pages[-1], ConfirmPage):
            turn = self._pages[-1].until_next_page(self)
            if turn is not None:
                waits.append(turn)
        return max(0.0, min(waits)) if waits else None

    def _handle(self, event) -> None:
        try:
            if event == _TABLE_CHANGED:
                self.public = self.table.public()
            elif isinstance(event, ButtonEvent):
                self._button(event)
        except Exception:  # a bug must not kill the panel: log it and keep serving buttons
            log.exception("the panel failed to handle %r", event)

    def _button(self, event: ButtonEvent) -> None:
        name = event.button
        now = time.monotonic()
        if name in REPEATING:
            if event.edge == "pressed":
                self._key(name)
            elif event.edge == "held":
                self._repeating, self._next_repeat = name, now + self.repeat_seconds
            elif event.edge == "released" and self._repeating == name:
                self._repeating = None
            return
        key = ALIASES.get(name, name)
        if event.edge == "pressed":
            self._long_done.discard(name)
        elif event.edge == "held" and name not in ALIASES:
            self._long_done.add(name)
            self._long(key)
        elif event.edge == "released" and name not in self._long_done:
            self._key(key)

    def _repeat_if_due(self) -> None:
        if self._repeating and time.monotonic() >= self._next_repeat:
            if self.buttons and self.buttons.is_pressed(self._repeating):
                self._key(self._repeating)
                self._next_repeat = time.monotonic() + self.repeat_seconds
            else:
                self._repeating = None

    def _key(self, key: str) -> None:
        self._pages[-1].key(self, key)

    def _long(self, key: str) -> None:
        if key == "ok":
            self.home()
            self.push(self.main_menu())
        elif key == "back":
            self.home()

    def _draw(self, force: bool = False) -> None:
        """Draw the current screen if it changed (and a frame is allowed yet), and push a
        frame again to a display that has come back."""
        try:
            screen = self._pages[-1].screen(self)
        except Exception:
            log.exception("the panel could not build its screen; going home")
            self.home()
            try:
                screen = self._pages[-1].screen(self)
            except Exception:  # the home screen itself fails: say so rather than die
                log.exception("the panel could not build its home screen either")
                screen = self._error_screen()
        changed = screen != self._shown
        display_due = self.display.retry_in() == 0.0
        if not changed and not display_due:
            self._dirty = False
            return
        if changed and not force and time.monotonic() - self._drawn_at < self.frame_seconds:
            self._dirty = True
            return
        started = time.perf_counter()
        if changed:
            screen, image = self._render(screen)
            with self._frame_lock:
                self._shown, self._image, self._png = screen, image, None
        self.display.show(self._image)
        self.draw_seconds.append(time.perf_counter() - started)
        del self.draw_seconds[:-1000]
        self._drawn_at = time.monotonic()
        self._dirty = False
        if changed:
            with self._frame_lock:
                self.frame_number += 1
                self._frame_lock.notify_all()

    def _render(self, screen: Screen) -> tuple[Screen, Image.Image]:
        """``screen`` and its image, or the error screen and its image if drawing fails. No text
        should make it fail (``fonts.fit`` makes every line drawable), but should a bug do so,
        the glass says so instead of freezing on an old frame, and the panel thread lives on."""
        try:
            return screen, render(screen, self.width, self.height)
        except Exception:
            log.exception("the panel could not draw its screen")
            error = self._error_screen()
            return error, render(error, self.width, self.height)

    def _error_screen(self) -> Screen:
        return Screen("info", word("screen_error", self.language), (word("see_log", self.language),))

    def _show_stopped(self) -> None:
        screen = stopped_screen(self.language, self.width)
        image = render(screen, self.width, self.height)
        with self._frame_lock:
            self._shown, self._image, self._png = screen, image, None
            self.frame_number += 1
            self._frame_lock.notify_all()
        if self.display.show(image):
            self.display.keep_last_frame()

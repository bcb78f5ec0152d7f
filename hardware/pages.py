"""The kinds of page the panel shows, one on top of another: what each draws, and what the
buttons do on it.

A page builds its :class:`~hardware.screens.Screen` from the panel it is shown on (the table's
public information, the panel's language and size) and answers the short presses of ``up``,
``down``, ``ok`` and ``back``; the panel (``hardware/panel.py``) keeps the stack, the thread
and the drawing. The menus themselves, which pages open what, are data in
``hardware/menus.py``; every word comes from ``hardware/words.py``.

The kinds: :class:`HomePage` (the status of the game, or the join screen), :class:`MenuPage`
(a list), :class:`ConfirmPage` (a question, "Yes" or "No"), :class:`InfoPage` (words to read)
and :class:`JoinPage` (the join QR code, in turns with the Wi-Fi's while the companion's own
Wi-Fi is up).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from companion.bots import supported as has_bots
from companion.network import NetworkStatus, wifi_qr_payload
from companion.table import StorageError, Table

from .actions import PLAYS_EVERY_STEP
from .buttons import ButtonsProblem
from .fonts import text_width, wrap
from .screens import PAGE_BAR, ROW, Screen, qr_text_room, status_body_rows, status_headline_rows, status_screen
from .words import word

if TYPE_CHECKING:  # the bots' machinery and the turn clock are only named here
    from companion.bots.seats import BotSeats
    from companion.clock import TurnClock

JOIN_STEP_SECONDS = 8.0
"""While the companion's own Wi-Fi is up, the idle screen shows its QR code, its name and
password in words, and the join QR code in turn, this long each."""

QUESTION_PAGE_SECONDS = 3.0
"""A question too long for the rows above its answers shows its rows a page at a time, this
long each: time enough to read three rows."""

JOIN_TURNS = ("wifi-qr", "wifi-words", "join")
"""The join screen's turns while the companion's own Wi-Fi is up, in the order a newcomer
needs them."""


class Panel(Protocol):
    """The panel as its pages, menus and commands see it (``hardware.panel.Panel`` is one):
    what it shows from, and its stack of pages. They are handed the panel they run on and
    never import it, so the panel's module stands above them all."""

    table: Table
    bots: BotSeats | None
    turn_clock: TurnClock | None
    used_before: Callable[[], dict] | None
    network: NetworkStatus | None
    public: dict  # table.public() as last read
    language: str
    width: int
    height: int
    public_url: str
    lan_address: str
    buttons_problem: ButtonsProblem | None

    def push(self, page: Page) -> None: ...

    def pop(self) -> None: ...

    def home(self) -> None: ...

    def replace(self, page: Page) -> None: ...

    def open_menu(self) -> None: ...


class Page:
    def screen(self, panel: Panel) -> Screen:
        raise NotImplementedError

    def key(self, panel: Panel, key: str) -> None:
        """A short press of ``up``, ``down``, ``ok`` or ``back``."""
        if key == "back":
            panel.pop()

    def changes_in(self, panel: Panel) -> float | None:
        """Seconds until the page's screen changes by itself (None: only a press or the table
        changes it): the panel's thread wakes then to draw it."""
        return None

    def enter(self, panel: Panel) -> None:
        """The page is put on the panel."""

    def leave(self, panel: Panel) -> None:
        """The page is taken off the panel (answered, gone back from, or the panel went home)."""


class HomePage(Page):
    """The status of the game on the table, or the join screen when there is none.

    On a status screen up/down turn the pages of what does not fit, ``ok`` opens the game
    menu and ``back`` shows the join QR code (and the Wi-Fi one): one press for a latecomer.
    ``up`` on the first page pauses the turn clock, or resumes it: one press for anyone."""

    def __init__(self):
        self.scroll = 0
        self.page_rows = 1  # body rows of the last status screen drawn: one page

    def screen(self, panel: Panel) -> Screen:
        info = panel.public
        if info["game"] is None:
            screen = join_screen(panel)
        else:
            clock = panel.turn_clock.view() if panel.turn_clock is not None else None
            screen = status_screen(info, panel.language, self.scroll, panel.height, empty_seat_help(panel), clock)
            self.page_rows = status_body_rows(screen, panel.height)
            self.scroll = min(self.scroll, max(0, len(screen.lines) - self.page_rows))
            screen = replace(screen, scroll=self.scroll)
        # Say what is wrong where everyone looks: a read-only or full SD card first (moves are
        # refused), else buttons that could not be opened (the panel only shows; play on phones).
        if info.get("problem"):
            screen = flagged(screen, word("cannot_save", panel.language))
        elif panel.buttons_problem is not None:
            screen = flagged(screen, word("no_buttons", panel.language))
        return screen

    def key(self, panel: Panel, key: str) -> None:
        if key == "up" and self.scroll == 0 and panel.public["game"] and panel.turn_clock is not None:
            toggle_clock(panel)
        elif key == "up":
            self.scroll = max(0, self.scroll - self.page_rows)
        elif key == "down":
            self.scroll += self.page_rows
        elif key == "ok":
            panel.open_menu()
        elif key == "back" and panel.public["game"]:
            panel.push(JoinPage())

    def changes_in(self, panel: Panel) -> float | None:
        if panel.public.get("game"):
            return clock_ticks_in(panel)
        if access_point(panel) is None:
            return None
        return JOIN_STEP_SECONDS - time.monotonic() % JOIN_STEP_SECONDS  # the idle screen's turns


def toggle_clock(panel: Panel) -> None:
    """Pause the turn clock, or resume it when paused (or held by a question left open)."""
    clock = panel.turn_clock.view()
    try:
        if clock["paused"] or clock["why"] == "question":
            panel.turn_clock.resume()
        else:
            panel.turn_clock.pause()
    except StorageError as error:  # a full SD card: the clock stays as it was, and the glass says why
        panel.push(InfoPage(word("refused", panel.language), str(error), "error"))


def clock_ticks_in(panel: Panel) -> float | None:
    """Seconds until the shown turn's time reaches its next whole second (None: it stands still)."""
    if panel.turn_clock is None:
        return None
    running = [seat["turn"] for seat in panel.turn_clock.view()["seats"] if seat["running"]]
    if not running:
        return None
    return max(0.05, 1.0 - running[0] % 1.0)


def flagged(screen: Screen, flag: str) -> Screen:
    """``screen`` with ``flag`` as its title, or, on a screen without a title bar, as its
    headline (the headline goes below)."""
    if screen.big:
        return replace(screen, headline=flag, lines=(*status_headline_rows(screen.headline or "", False), *screen.lines),
                       die=None)
    return replace(screen, title=flag)


def empty_seat_help(panel: Panel) -> str | None:
    """What the status screen tells to do about an awaited free seat (see
    :func:`hardware.screens.status_screen`): nothing where the panel plays every step."""
    game = panel.public.get("game")
    if not game or game["id"] in PLAYS_EVERY_STEP:
        return None
    return "bot" if panel.bots is not None and has_bots(game["id"]) else "join"


@dataclass
class MenuItem:
    label: str
    choose: Callable[[], None]


class MenuPage(Page):
    """A list: up/down move the highlight, ok chooses, back returns."""

    def __init__(self, title: str, items: Callable[[], list[MenuItem]], selected: int = 0):
        self.title = title
        self._items = items  # rebuilt on every draw: the list follows the table
        self._shown: list[MenuItem] | None = None  # the items of the last screen drawn
        self.selected = selected

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

    def __init__(self, title: str, question: str, then: Callable[[], None], default: bool = True,
                 holds_clock: bool = False):
        self.title, self.question, self.then = title, question, then
        self.yes = default
        self.opened = time.monotonic()
        self.holds_clock = holds_clock  # the table waits for nobody while it is asked: the turn clock stops

    def pages(self, panel: Panel) -> tuple[list[str], int]:
        """The question's rows and how many fit above the answers (as the layout wraps them:
        short of the page bar when they do not all fit)."""
        rows, room = wrap(self.question, panel.width), max(1, panel.height // ROW - 1)
        return (rows if len(rows) <= room else wrap(self.question, panel.width - PAGE_BAR)), room

    def changes_in(self, panel: Panel) -> float | None:
        """Seconds until the question turns its page (None: it fits, it never does)."""
        rows, room = self.pages(panel)
        if len(rows) <= room:
            return None
        return QUESTION_PAGE_SECONDS - (time.monotonic() - self.opened) % QUESTION_PAGE_SECONDS

    def screen(self, panel: Panel) -> Screen:
        question, room = self.pages(panel)
        count = -(-len(question) // room)
        page = int((time.monotonic() - self.opened) // QUESTION_PAGE_SECONDS) % count
        answers = (word("yes", panel.language), word("no", panel.language))
        return Screen("confirm", self.title, (self.question, *answers), scroll=page * room, selected=2 - self.yes)

    def enter(self, panel: Panel) -> None:
        """The question is put on the panel: one that holds the table stops the turn clock."""
        if self.holds_clock and panel.turn_clock is not None:
            hold_clock(panel, True)

    def leave(self, panel: Panel) -> None:
        if self.holds_clock and panel.turn_clock is not None:
            hold_clock(panel, False)

    def key(self, panel: Panel, key: str) -> None:
        if key in ("up", "down"):
            self.yes = not self.yes
        elif key == "ok" and self.yes:
            panel.pop()
            self.then()
        elif key in ("ok", "back"):
            panel.pop()


class StepPage(Page):
    """A seat's number stepped by the buttons (the score pad's points in the open round):
    ``up`` adds 1 and ``down`` takes 1 away, each press one move of the table (so every phone
    shows it, and undo takes a press back); ``ok`` or ``back`` return. ``read()`` gives the
    title and the rows as the table stands now; ``step(points)`` makes the move."""

    def __init__(self, read: Callable[[], tuple[str, tuple[str, ...]]], step: Callable[[int], None]):
        self.read, self.step = read, step

    def screen(self, panel: Panel) -> Screen:
        title, rows = self.read()
        return Screen("info", title, rows)

    def key(self, panel: Panel, key: str) -> None:
        if key == "up":
            self.step(1)
        elif key == "down":
            self.step(-1)
        else:
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
        return join_screen(panel, now=self.clock(), turn=self.turn)

    def key(self, panel: Panel, key: str) -> None:
        if key in ("up", "down"):
            shown = join_turn(panel, now=self.clock(), turn=self.turn)
            self.turn = (shown + (1 if key == "down" else -1)) % len(JOIN_TURNS)
        elif key in ("ok", "back"):
            panel.pop()

    def changes_in(self, panel: Panel) -> float | None:
        if self.turn is not None or access_point(panel) is None:
            return None
        return JOIN_STEP_SECONDS - self.clock() % JOIN_STEP_SECONDS


def hold_clock(panel: Panel, asking: bool) -> None:
    """The panel asks a question that holds the table (``asking``), or it was answered. A clock
    that cannot save this (a full SD card) goes on as it was: the question matters more."""
    try:
        if asking:
            panel.turn_clock.ask("panel")
        else:
            panel.turn_clock.answered("panel")
    except StorageError:
        pass


# ============================================================================ the join screen


def access_point(panel: Panel):
    """The network's state while the companion's own Wi-Fi is up, else None."""
    state = panel.network.state if panel.network is not None else None
    return state if state is not None and state.access_point else None


def base_url(panel: Panel) -> str:
    """The address phones use, ending in "/": the access point's while it is up."""
    access_point_url = panel.network.join_base_url() if access_point(panel) else None
    return access_point_url + "/" if access_point_url else panel.public_url


def join_turn(panel: Panel, now: float | None = None, turn: int | None = None) -> int:
    """Which of JOIN_TURNS the join screen shows: ``turn`` if given, else by the clock
    (the monotonic one, or ``now``) while the companion's own Wi-Fi is up, else the join
    code's."""
    if access_point(panel) is None:
        return JOIN_TURNS.index("join")
    if turn is not None:
        return turn
    return int((time.monotonic() if now is None else now) // JOIN_STEP_SECONDS) % len(JOIN_TURNS)


def join_screen(panel: Panel, now: float | None = None, turn: int | None = None) -> Screen:
    """The join QR code with the address to type; while the companion's own Wi-Fi is up,
    taking turns every JOIN_STEP_SECONDS (see :func:`join_turn`) with the Wi-Fi's QR code
    and its name and password in words, each labelled as a step.

    Beside a QR code a row holds 7 or 8 characters: the address to type is the join
    link itself (``192.168.1.20:8000/J/L5KTW``: no code to type twice), broken after its
    dots and before its colon and slashes."""
    language, width, height = panel.language, panel.width, panel.height
    wifi = access_point(panel)
    shown = JOIN_TURNS[join_turn(panel, now, turn)]
    if wifi is not None and shown == "wifi-qr":
        payload = wifi_qr_payload(wifi.ssid, wifi.password)
        room = qr_text_room(payload, width, height)
        return Screen("idle", "", tuple(wrap(word("join_wifi", language), room)), qr=payload)
    if wifi is not None and shown == "wifi-words":
        return Screen("idle", word("join_wifi", language), (wifi.ssid, word("password", language), wifi.password))
    code = panel.table.join_code
    base = base_url(panel)
    url = f"{base}J/{code}" if base else ""
    typed = url.split("://", 1)[-1]  # what a person types
    heading = word("join_step", language) if wifi else ""
    if height >= 64 and width >= 128 and url:
        room = qr_text_room(url.upper(), width, height)
        lines = address_rows(typed, room)
        return Screen("idle", heading if len(lines) < height // ROW else "", tuple(lines), qr=url.upper())
    lines = address_rows(typed, width) if typed else [f"{word('code', language)} {code}"]
    return Screen("idle", heading, tuple(lines))


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

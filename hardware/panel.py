"""The panel: the thread that runs the OLED and the buttons, the drawing, and the web's mirror.

What the panel shows and does is data beside it: the kinds of page (``pages.py``), the menus
(``menus.py``) and what their items do (``commands.py``), every word (``words.py``), the screens
and their drawing (``screens.py``). This module keeps the stack of pages, the loop, the redraw
policy and the members the web reads.

Everything arrives as an event on one queue — button edges from gpiozero's callbacks,
"the table changed" from :meth:`companion.table.Table.subscribe`, stop — and one thread
handles them in order, so no two presses ever race and a slow draw never loses a press.
When nothing happens the thread blocks on the queue without a timeout: no CPU at all.

Redraw policy: after each batch of events the panel builds the current :class:`Screen`;
only if it differs from the one on the glass is it rendered and pushed, and never more
often than every ``frame_seconds`` (a change that comes sooner is drawn when that time is
up). The panel draws from ``table.public()`` — the same public view a table screen gets —
reading a seat's legal actions (``table.view(seat)``) only in the trackers, whose actions
reveal nothing secret; it acts through ``table.start_game``/``act``/``undo``/``free_seat``,
``first_player``'s draw and rematch, the turn clock's pause and resume and the bots'
``BotSeats.seat``, the very methods the web uses, so phones and buttons never disagree.

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
from dataclasses import dataclass, field

from PIL import Image

from companion.table import Table

from .buttons import ButtonEvent, Buttons, ButtonsProblem
from .display import Display
from .menus import MAIN_MENU, home_menu, open_menu
from .pages import HomePage, Page
from .screens import Screen, render, stopped_screen, text_lines
from .words import word

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
        turn_clock=None,
        used_before=None,
        language: str = "en",
        hold_seconds: float = 0.8,
        repeat_seconds: float = 0.15,
        frame_seconds: float = FRAME_SECONDS,
        buttons_problem: ButtonsProblem | None = None,
    ):
        self.table = table
        self.bots = bots  # companion.bots.seats.BotSeats: seat and remove bots from the game menu; or None
        self.turn_clock = turn_clock  # companion.clock.TurnClock: shown on the status screen, paused by up; or None
        self.used_before = used_before  # () -> Records.used_before(): typed options offered back at a start; or None
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

    @property
    def page(self) -> Page:
        """The page on top: the one the buttons act on."""
        return self._pages[-1]

    @property
    def pages(self) -> tuple[Page, ...]:
        """Every page open, the home page first."""
        return tuple(self._pages)

    @property
    def screen(self) -> Screen | None:
        """The screen on the glass (None before the first frame)."""
        with self._frame_lock:
            return self._shown

    def push(self, page: Page) -> None:
        self._pages.append(page)
        page.enter(self)

    def pop(self) -> None:
        if len(self._pages) > 1:
            self._pages.pop().leave(self)

    def home(self) -> None:
        while len(self._pages) > 1:
            self.pop()

    def replace(self, page: Page) -> None:
        """``page`` in place of the page shown."""
        self.pop()
        self.push(page)

    def open_menu(self) -> None:
        """What ``ok`` on the home page opens: the game's menu, or the main menu without a game."""
        self.push(home_menu(self))

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        self.public = self.table.public()
        self._draw(force=True)
        self._first_frame.set()
        while True:
            try:
                event = self._events.get(timeout=self.wakes_in)
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

    @property
    def wakes_in(self) -> float | None:
        """How long the thread may sleep now (None: until an event comes): forever, unless a
        frame, a repeat, a retry or a page's own change (:meth:`Page.changes_in`) is due."""
        now = time.monotonic()
        waits = []
        if self._shown is not None and self._dirty:
            waits.append(self._drawn_at + self.frame_seconds - now)
        if self._repeating:
            waits.append(self._next_repeat - now)
        retry = self.display.retry_in()
        if retry is not None:
            waits.append(retry)
        changes = self._pages[-1].changes_in(self)
        if changes is not None:
            waits.append(changes)
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
            self.push(open_menu(self, MAIN_MENU))
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

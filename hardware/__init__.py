"""The appliance's own face: the OLED panel and its buttons (luma.oled and gpiozero).

Depends on the core (``companion``), never on ``web``; the composition root
(``companion/serve.py``) builds the panel with :func:`create_panel` and hands it to the web,
which mirrors it at ``/display`` through the panel's duck-typed methods.

- ``display.py`` — the luma device and its faults (missing, failing, back again);
- ``buttons.py`` — gpiozero buttons feeding one queue, the pin factory, mock presses;
- ``screens.py`` — the screens as text models and their drawing;
- ``words.py``   — every word the panel shows, English and Japanese side by side;
- ``pages.py``   — the kinds of page (status, list, question, text, join) and their keys;
- ``menus.py``   — the menus as data: their items, in order, and when each shows;
- ``commands.py`` — what the menus' items do: questions first, then the table's methods;
- ``actions.py`` — which game actions the buttons offer, and their labels;
- ``panel.py``   — the panel thread: the stack of pages, buttons, redraw policy, the web's mirror;
- ``doctor.py``  — ``companion doctor``: checks of the platform and the hardware.
"""

from __future__ import annotations

import queue

from companion.config import Config, is_raspberry_pi

from .buttons import open_buttons
from .display import Display, device_factory
from .panel import Panel

__all__ = ["Panel", "create_panel", "uses_mock"]


def uses_mock(config: Config) -> bool:
    """Whether the hardware is emulated: asked for, or ``auto`` away from a Raspberry Pi."""
    return config.hardware == "mock" or (config.hardware == "auto" and not is_raspberry_pi())


def panel_language(config: Config) -> str:
    """The panel speaks Japanese when the configuration says so, else English (``auto``
    follows each browser, and the panel has no browser)."""
    return "ja" if config.language == "ja" else "en"


def create_panel(config: Config, table, *, public_url: str = "", lan_address: str = "", network=None,
                 bots=None, turn_clock=None, used_before=None) -> Panel:
    """The panel for ``table`` with the configured display and buttons (not started yet).

    Neither missing hardware stops it: a display that does not answer is retried in the
    background; buttons that cannot be opened (no pin library, a GPIO only root may open)
    leave the panel without buttons, saying why (``Panel.buttons_problem``) on its glass, on
    the pages and in the log: the phones play on. ``network`` is the
    companion's own Wi-Fi (``companion.network.NetworkStatus``), for the idle screen's QR codes;
    ``bots`` the table's bots (``companion.bots.seats.BotSeats``), seated from the game menu;
    ``turn_clock`` the table's turn clock (``companion.clock.TurnClock``), shown on the status
    screen and paused or resumed by ``up``; ``used_before`` answers the names used before
    (``Records.used_before``), offered when a game asks a typed option at its start (the score
    pad's game name: the panel cannot type).

    In mock mode (``--hardware mock``: gpiozero's mock pins, luma's dummy display) the
    buttons are pressed from software and the frame read as text, as ``/display`` does::

        >>> import tempfile
        >>> from companion.config import load_config
        >>> from companion.table import Table
        >>> from hardware import create_panel
        >>> config = load_config(None, {"hardware": "mock", "data_dir": tempfile.mkdtemp()})
        >>> table = Table(config.data_dir)
        >>> _ = table.start_game("swap5", players=2, seed=42)
        >>> _ = table.join(0, "Taro")
        >>> panel = create_panel(config, table, public_url="http://192.168.1.20:8000/")
        >>> panel.start()  # returns once the first frame is drawn
        >>> panel.text_lines()[:4]  # the headline, then every seat's score
        ["Taro's turn", 'Points', 'Taro          0', 'Seat 2        0']
        >>> panel.press("ok")  # a short press of ok: the game menu
        >>> panel.settle()  # True once the press is handled and its frame drawn
        True
        >>> panel.text_lines()  # before the first move: who starts, drawn with one more press
        ['SWAP 5', '> Who starts? Draw', 'Menu…', 'Undo last action']
        >>> panel.stop()  # the display shows "stopped"; the pins are released
        >>> table.close()
    """
    mock = uses_mock(config)
    display_config = config.display
    size = (display_config.width, display_config.height)
    if display_config.rotation % 2:
        size = size[::-1]
    events: queue.Queue = queue.Queue()
    buttons, buttons_problem = open_buttons(config.buttons, config.pin_factory, mock, events)
    return Panel(
        table,
        Display(device_factory(display_config, mock)),
        buttons,
        events,
        buttons_problem=buttons_problem,
        size=size,
        public_url=public_url,
        lan_address=lan_address,
        network=network,
        bots=bots,
        turn_clock=turn_clock,
        used_before=used_before,
        language=panel_language(config),
        hold_seconds=config.buttons.hold_seconds,
        repeat_seconds=config.buttons.repeat_seconds,
    )

"""The web face of the table: a JSON API for phones and a public page for a shared screen.

:func:`create_app` builds the Flask application around one :class:`companion.table.Table`.
The table lives in this one process (it holds the game in memory and the SQLite log),
so the app is served by one multi-threaded process: see ``docs/server.md``.

Blueprints:

- ``web.api``   -- ``/api/...``: the JSON API and the event stream (``docs/api.md``);
- ``web.pages`` -- the HTML pages (join, rejoin, phone, table screen, host tools);
- ``web.rules`` -- ``/rules/...``: the rules for players (``docs/phone.md``);
- ``web.probes`` -- the phones' connectivity probes, so they stay on the companion's Wi-Fi;
- ``web.display`` -- the OLED panel's mirror, only when a panel is given.

``web.auth`` holds what both use to turn cookies and tokens into a seat or host right.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from flask import Flask, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from companion.clock import TurnClock
from companion.presence import Presence
from companion.table import Table

from .auth import ForeignHost, host_allowed
from .events import EventHub

MAX_BODY_BYTES = 16 * 1024
"""No request body may be larger: every legitimate one (an action, a name) is far smaller."""

KEEPALIVE_SECONDS = 2.0
"""How often an idle event stream sends its heartbeat: it keeps the connection open, and a
page that misses two in a row (5 s of silence) knows its network dropped without its browser
noticing (issue 33, point 5)."""

STREAM_SECONDS = 60.0
"""How long one event stream lives before the browser is asked to reconnect (it does so
within a second, resuming with Last-Event-ID). A phone that vanished without closing its
connection (walked out of Wi-Fi range) thus frees its server thread within a minute, even
while the kernel still accepts writes for it."""


class AsciiIntegerConverter(IntegerConverter):
    """``<int:...>`` with ASCII digits only: Werkzeug's ``\\d`` also matches full-width
    and other Unicode digits (``/api/seats/３/join`` would reach seat 3)."""

    regex = r"[0-9]+"


@dataclass
class Companion:
    """What the blueprints need besides Flask, kept in ``app.extensions["companion"]``."""

    table: Table
    events: EventHub
    presence: Presence
    panel: object | None
    language: str
    public_url: str | None
    network: object | None = None  # companion.network.NetworkStatus: the own Wi-Fi, when up
    bots: object | None = None  # companion.bots.seats.BotSeats: bot seats and hints, when given
    turn_clock: TurnClock | None = None  # the table's turn clock (companion/clock.py)


def create_app(
    table: Table,
    *,
    panel: object | None = None,
    language: str = "auto",
    public_url: str | None = None,
    network: object | None = None,
    host_names: Iterable[str] = ("localhost",),
    bots: object | None = None,
    turn_clock: TurnClock | None = None,
    keepalive_seconds: float = KEEPALIVE_SECONDS,
    stream_seconds: float = STREAM_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> Flask:
    """The Flask app serving ``table``.

    ``panel``: the OLED panel object, whose ``/display`` routes are then registered;
    ``language``: ``"auto"`` (the browser's), ``"en"`` or ``"ja"``, the pages' default;
    ``public_url``: the address phones should use (e.g. ``http://192.168.1.20``), for the
    join QR code; None uses the address each request came to.
    ``network``: the companion's own Wi-Fi (``companion.network.NetworkStatus``): while its
    access point is up, the join address is the access point's and the pages add a Wi-Fi QR code.
    ``host_names``: the names this companion answers to besides its IP addresses (any IP
    literal is accepted, see :func:`web.auth.host_allowed`); requests for other names get a 400.
    ``bots``: the table's bots (``companion.bots.seats.BotSeats``), for ``POST /api/seats/<n>/bot``
    and ``GET /api/hint``; without them those routes answer 404.
    ``turn_clock``: the table's turn clock (``companion.clock.TurnClock``), shared with the
    panel; without it the app makes its own (one per table: each keeps the turns it times).
    ``keepalive_seconds``/``stream_seconds``: the event stream's timing (tests shorten them).
    ``clock``: what tells whether a phone has been gone long enough to pass hosting on
    (``companion.presence``), and the time of the turn clock the app makes (tests give theirs).

    Call ``app.extensions["companion"].events.stop()`` when the server stops, so that
    open event streams end instead of holding the server's threads.

    A phone starting a game, taking a seat and moving, through Flask's test client (the
    JSON API: ``docs/api.md``)::

        >>> import tempfile
        >>> from companion.table import Table
        >>> from web import create_app
        >>> table = Table(tempfile.mkdtemp())
        >>> app = create_app(table)
        >>> phone = app.test_client()  # one phone: it keeps its cookies (its seat and host tokens)
        >>> sent = {"X-Requested-With": "companion"}  # every change must carry it (web.auth, against CSRF)
        >>> started = phone.post("/api/game", json={"game": "swap5", "players": 2, "seed": 42}, headers=sent)
        >>> "host_token" in started.json  # the first to start a game at a table without a host hosts it
        True
        >>> phone.post("/api/seats/0/join", json={"name": "Taro"}, headers=sent).json["seat"]
        0
        >>> view = phone.get("/api/view").json  # seat 0's own view, with its actions
        >>> move = {"action": view["actions"][0], "version": view["version"]}
        >>> phone.post("/api/actions", json=move, headers=sent).json["log"][-1]["text"]["en"]
        '{s0} moved red B1 to A1.'
        >>> phone.post("/api/actions", json=move, headers=sent).status_code  # the same tap again: refused
        409
        >>> app.extensions["companion"].events.stop()
        >>> table.close()
    """
    app = Flask(__name__)
    app.url_map.converters["int"] = AsciiIntegerConverter
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.ensure_ascii = False  # Japanese names travel as UTF-8, not \\u escapes
    app.json.sort_keys = False
    presence = Presence(table, clock=clock)
    events = EventHub(table, keepalive_seconds=keepalive_seconds, stream_seconds=stream_seconds, presence=presence)
    turn_clock = turn_clock or TurnClock(table, clock=clock)
    app.extensions["companion"] = Companion(table, events, presence, panel, language, public_url, network, bots,
                                            turn_clock)

    own_names = frozenset(name.lower().rstrip(".") for name in host_names)

    @app.before_request
    def _refuse_foreign_host():
        # Runs before every blueprint's checks (the CSRF check compares Origin with Host).
        # The phones' connectivity probes come for the vendors' names (captive.apple.com,
        # connectivitycheck.gstatic.com...), which the access point's DNS sends here; they
        # read and change nothing, so they are answered whatever the Host.
        if request.blueprint == "probes":
            return
        if not host_allowed(request.host, own_names):
            raise ForeignHost()

    from . import api

    app.register_blueprint(api.blueprint)

    from . import pages

    app.register_blueprint(pages.blueprint)
    from . import rules

    app.register_blueprint(rules.blueprint)

    from . import probes

    app.register_blueprint(probes.blueprint)
    from . import records

    app.register_blueprint(records.blueprint)

    if panel is not None:
        from . import display

        app.register_blueprint(display.blueprint)

    @app.after_request
    def _security_headers(response):
        # A rejoin link carries a seat token: never leak the address to another site.
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException):
        """Under /api every error is JSON ``{"error": ...}``; pages keep Flask's own
        (or their blueprint's) error pages."""
        if request.path.startswith("/api/"):
            return api.error_response(error)
        return error

    return app

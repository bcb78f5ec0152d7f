"""``companion serve``: the composition root that puts the appliance together.

    Config -> Table -> panel (hardware) -> Flask app (web) -> waitress WSGI server

It is the one module of the core that imports ``web`` and ``hardware`` (lazily, so the
rest of the core never pulls them in). Under systemd it says when it is ready and feeds
the watchdog while it really works (``companion/systemd.py``). Why waitress, and why one
process with many threads: ``docs/server.md``.
"""

from __future__ import annotations

import gc
import json
import logging
import signal
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import BadRequest
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher

from . import network, systemd
from .config import Config
from .bots.seats import BotSeats
from .clock import TurnClock
from .network import NetworkStatus
from .table import Table

log = logging.getLogger(__name__)

REQUEST_THREADS = 8
"""Worker threads kept for ordinary requests on top of one per event stream the app allows
(``EventHub.max_streams``): however many streams are open, a move is answered at once."""

CONNECTIONS_PER_ADDRESS = 16
"""Open connections one client address may hold; the next is closed at once. A browser
opens at most 6 per server, plus its event stream: one device, however it misbehaves,
cannot take the connections every other phone needs. The machine itself is not capped
(``web.events.THIS_MACHINE``)."""

CONNECTION_LIMIT = 400
"""Open connections in all (waitress's ``connection_limit``; it stops accepting beyond).
Each costs one file descriptor, well under the usual limit of 1024."""

REQUEST_SECONDS = 10.0
"""A request's line, headers and body must all arrive within this time of its first byte;
a connection that trickles them in more slowly is closed."""

STOP_SECONDS = 4.0
"""How long stopping waits for requests in progress (systemd allows 15 s; we promise 5)."""


def build_app(table: Table, config: Config, url: str, panel: object | None = None,
              network: NetworkStatus | None = None, bots: BotSeats | None = None,
              turn_clock: TurnClock | None = None) -> Flask:
    """The web app for ``table``: the one place that decides what the web is given."""
    from web import create_app  # the core never imports the web at module level

    return create_app(table, panel=panel, language=config.language, public_url=url, network=network, bots=bots,
                      turn_clock=turn_clock, host_names=host_names(config.host, url))


def host_names(listen_host: str, url: str) -> set[str]:
    """The names phones may use for this companion (its IP addresses are always accepted):
    localhost, the machine's hostname, short and with ``.local`` (mDNS), the name it
    listens on and the public URL's host, when those are names."""
    hostname = socket.gethostname().lower()
    short = hostname.partition(".")[0]
    names = {"localhost", hostname, short, short + ".local", urlsplit(url).hostname or ""}
    if listen_host not in ("0.0.0.0", "::", ""):
        names.add(listen_host.lower())
    return {name for name in names if name}


def build_panel(table: Table, config: Config, url: str, address: str, network: NetworkStatus | None = None,
                bots: BotSeats | None = None, turn_clock: TurnClock | None = None):
    """The OLED panel and its buttons (emulated away from a Pi), not started yet."""
    from hardware import create_panel  # the core never imports the hardware at module level

    return create_panel(config, table, public_url=url, lan_address=address, network=network, bots=bots,
                        turn_clock=turn_clock, used_before=lambda: used_before(table.data_dir))


def used_before(data_dir: Path) -> dict:
    """The names used before in the plays kept in ``data_dir`` (``Records.used_before``), read
    when the panel starts a game that asks a typed option (rare: the records stay closed)."""
    from .records.plays import Records

    records = Records(data_dir)
    try:
        return records.used_before()
    finally:
        records.close()


def lan_address() -> str:
    """This machine's address on the local network, as phones on the same Wi-Fi reach it.

    Asks the kernel which interface would carry traffic to an outside address (a UDP
    "connect" sends no packet), so it works without internet; 127.0.0.1 with no network.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never contacted
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_url(host: str, port: int, lan: str) -> str:
    """The address to print and to put in the join QR code: the LAN address ``lan`` when
    the server listens on every interface, else the address it listens on."""
    address = lan if host in ("0.0.0.0", "::", "") else host
    if ":" in address:
        address = f"[{address}]"
    return f"http://{address}/" if port == 80 else f"http://{address}:{port}/"


REFUSAL_LOG_SECONDS = 10.0
"""At most one log line per this many seconds about malformed requests (a device sending
garbage in a loop must not fill the SD card with its log)."""


class RefusalLog:
    """One short line for a malformed request, then silence for ``seconds``; the next line
    says how many were left out. ``clock``: monotonic seconds (tests move their own)."""

    def __init__(self, seconds: float = REFUSAL_LOG_SECONDS, clock=time.monotonic):
        self.seconds, self._next, self._left_out = seconds, 0.0, 0
        self._clock = clock
        self._lock = threading.Lock()

    def note(self, address: str, reason: str) -> None:
        with self._lock:
            now = self._clock()
            if now < self._next:
                self._left_out += 1
                return
            left_out, self._left_out, self._next = self._left_out, 0, now + self.seconds
        more = f" ({left_out} more not logged)" if left_out else ""
        log.warning("refused a malformed request from %s: %s%s", address, reason[:80], more)


refusals = RefusalLog()

LOG_LINE_CHARS = 200
"""waitress logs a request's path in some lines ("Client disconnected while serving ..."):
a path of 5,000 characters must not become a log line of 5,000 characters."""


class ShortLines(logging.Filter):
    """Cuts a log line longer than LOG_LINE_CHARS (waitress's, on the server's logger)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if len(message) > LOG_LINE_CHARS:
            record.msg, record.args = message[:LOG_LINE_CHARS] + "…", None
        return True


short_lines = ShortLines()


class _ApiErrorTask(ErrorTask):
    """waitress's own refusals (a body over the limit, a malformed request: a header line
    without a colon, a NUL, a TLS hello) as the JSON the API answers everywhere else under
    ``/api``; plain text elsewhere, as waitress writes it. A request that broke off before
    its path has none: it gets the plain answer. Each refusal is logged in one short,
    rate-limited line (:class:`RefusalLog`)."""

    def execute(self):
        error = self.request.error
        refusals.note(self.channel.addr[0] if self.channel.addr else "?", f"{error.code} {error.reason}: {error.body}")
        if not (getattr(self.request, "path", None) or "").startswith("/api/"):
            return super().execute()
        from web.api import http_error_body  # the core never imports the web at module level

        body = json.dumps(http_error_body(error.code, f"{error.reason}: {error.body}"), ensure_ascii=False).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


TLS_HANDSHAKE = b"\x16"
"""The first byte of a TLS record carrying a handshake (a browser trying https://)."""


class _Parser(HTTPRequestParser):
    """waitress's parser, which refuses a TLS hello at once: otherwise it waits for the end of
    headers that never come (the hello holds no blank line) until the time limit."""

    path = ""  # until the request line is read: waitress names it when a client leaves mid-answer

    def received(self, data):
        if not self.header_plus and not self.header_bytes_received and data[:1] == TLS_HANDSHAKE:
            self.parse_header(b"GET / HTTP/1.0\r\n")  # as waitress does for its own early refusals
            self.error = BadRequest("a TLS handshake: this companion speaks plain HTTP (http://, not https://)")
            self.completed = True
            return len(data)
        return super().received(data)


class _Channel(HTTPChannel):
    """A connection that notes when its current request began, for :class:`_WsgiServer`."""

    error_task_class = _ApiErrorTask
    parser_class = _Parser
    request_began = 0.0

    def received(self, data):
        if self.request is None:  # the first bytes of a new request
            self.request_began = time.monotonic()
        return super().received(data)


class _WsgiServer(TcpWSGIServer):
    """waitress's server with two limits it lacks: open connections per client address,
    and a time limit for a request to arrive (``docs/server.md``)."""

    channel_class = _Channel

    def __init__(self, *args, per_address: int, uncapped: frozenset[str], request_seconds: float, **kw):
        self.per_address, self.uncapped, self.request_seconds = per_address, uncapped, request_seconds
        self._warned: set[str] = set()  # addresses refused since the last maintenance
        super().__init__(*args, **kw)

    def handle_accept(self):
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        address = addr[0]
        if address not in self.uncapped and sum(
            1 for c in self.active_channels.values() if c.addr[0] == address
        ) >= self.per_address:
            if address not in self._warned:
                self._warned.add(address)
                log.warning("%s holds %d connections: refusing more from it", address, self.per_address)
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:  # the client has gone already
            conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now):
        super().maintenance(now)  # closes connections idle for channel_timeout
        self._warned.clear()
        too_old = time.monotonic() - self.request_seconds
        for channel in self.active_channels.values():
            if channel.request is not None and channel.request_began < too_old:
                channel.will_close = True


class Server:
    """waitress serving ``app``, stoppable from a signal handler or from any thread.

    SSE through waitress: since waitress 3.0 ``send_bytes`` is 1, so every chunk the
    event stream yields goes to the socket at once (older versions held output back until
    18000 bytes piled up, which would have delayed events for minutes).

    ``channel_request_lookahead=1`` keeps reading a connection while its request runs, so
    waitress notices a client that closed its event stream and the stream ends within a
    second (``web.events``). The request body limit is the app's ``MAX_CONTENT_LENGTH``,
    enforced by waitress as the headers arrive: a larger declared body is refused before a
    byte of it is read, a chunked one is cut off at the limit, nothing is spooled to disk.
    """

    def __init__(self, app: Flask, host: str, port: int, *, per_address: int = CONNECTIONS_PER_ADDRESS,
                 connection_limit: int = CONNECTION_LIMIT, request_seconds: float = REQUEST_SECONDS):
        self.app = app
        logging.getLogger("waitress").addFilter(short_lines)  # added once however many servers
        self._map: dict = {}  # waitress's socket map: ours, so stop() can empty it
        from web.events import THIS_MACHINE  # the core never imports the web at module level

        threads = app.extensions["companion"].events.max_streams + REQUEST_THREADS
        adjustments = Adjustments(
            host=host,
            port=port,
            threads=threads,
            ident="tabletop-companion",
            asyncore_use_poll=True,  # select() cannot watch file descriptors above 1023
            connection_limit=connection_limit,
            channel_request_lookahead=1,
            # waitress refuses a body of max_request_body_size bytes or more; the app allows MAX_CONTENT_LENGTH.
            max_request_body_size=app.config["MAX_CONTENT_LENGTH"] + 1,
            cleanup_interval=max(1, int(request_seconds / 2)),  # how often the time limits are checked
        )
        dispatcher = ThreadedTaskDispatcher()
        dispatcher.set_thread_count(threads)
        self._waitress = _WsgiServer(app, self._map, dispatcher=dispatcher, adj=adjustments,
                                     sockinfo=adjustments.listen[0], per_address=per_address,
                                     uncapped=THIS_MACHINE, request_seconds=request_seconds)
        self._stopped = threading.Event()
        self._orphans: list = []  # sockets left to close when the wake-up pipe failed (see stop)

    @property
    def port(self) -> int:
        """The port listened on (the one the OS chose when 0 was asked for)."""
        return self._waitress.effective_port

    @property
    def busy_threads(self) -> int:
        """How many of the server's worker threads handle a request (an event stream
        included) now; the others wait for work. Read-only."""
        return self._waitress.task_dispatcher.active_count

    def serve_forever(self) -> None:
        """Serve until :meth:`stop` has run."""
        try:
            self._waitress.run()
        finally:
            try:
                for channel in self._orphans:
                    if channel is self._waitress:
                        # Its own close() closes the wake-up pipe too, whose descriptors stay
                        # alone (see stop): close only the listening socket.
                        wasyncore.dispatcher.close(channel)
                    else:
                        channel.close()
            finally:
                self._stopped.set()

    def stop(self) -> None:
        """Stop serving, within about STOP_SECONDS.

        First the event streams end, hints are refused (those being thought too), and the
        worker threads finish what they are doing
        (their last writes still need the sockets and waitress's wake-up pipe); then every
        socket is closed from inside waitress's own loop, whose thread owns the socket map,
        which makes :meth:`serve_forever` return.
        """
        companion = self.app.extensions["companion"]
        companion.events.stop()
        if companion.bots is not None:  # a hint being thought answers "stopping" now, not when thought
            companion.bots.stop_hints()
        self._waitress.task_dispatcher.shutdown(cancel_pending=True, timeout=STOP_SECONDS)
        try:
            self._waitress.trigger.pull_trigger(lambda: wasyncore.close_all(self._map))
        except OSError as error:
            # The wake-up pipe is unusable (seen once in a test run, cause unknown). Empty the
            # map instead: the loop ends by itself within its poll timeout, and serve_forever
            # closes the sockets in the loop's own thread. The pipe's descriptors are left
            # alone: whoever broke them may have handed their numbers to someone else.
            log.warning("waitress's wake-up pipe failed (%s): stopping at the next poll instead", error)
            self._orphans = [c for c in self._map.values() if c is not self._waitress.trigger]
            self._map.clear()

    def wait_stopped(self, timeout: float | None = None) -> bool:
        return self._stopped.wait(timeout)


def serve(config: Config) -> int:
    """Run the appliance until SIGTERM or SIGINT; returns the exit status."""
    logging.basicConfig(level=config.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    table = Table(config.data_dir, offered_games=config.games)
    if table.problem:
        log.error("%s: the table is shown as last saved and every change is refused", table.problem)
    panel = heartbeat = supervisor = bots = None
    turn_clock = TurnClock(table)  # one per table: the web and the panel show and pause the same
    try:
        address = lan_address()
        url = public_url(config.host, config.port, address)
        # The web and the panel read the network's state (the access point's join address
        # and Wi-Fi QR code) from this one object, which the supervisor keeps up to date.
        network_status = NetworkStatus(config.port)
        bots = BotSeats(table, config.data_dir, config.bots)  # its worker process starts with the first move or hint
        panel = build_panel(table, config, url, address, network_status, bots, turn_clock)  # the panel seats bots too
        app = build_app(table, config, url, panel, network_status, bots, turn_clock)
        supervisor = network.start_supervisor(config, network_status)
        server = Server(app, config.host, config.port)
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda number, frame: _stop(server, supervisor, number))
        log.info("data directory: %s (table version %d)", config.data_dir, table.version)
        print(f"Tabletop Companion is ready: open {url} (players join at {url}J/{table.join_code})", flush=True)
        panel.start()
        bots.start()
        systemd.notify(f"READY=1\nSTATUS=serving {url}")
        timeout = systemd.watchdog_seconds()
        if timeout:
            heartbeat = systemd.Heartbeat(_local_url(config.host, server.port), timeout)
            heartbeat.start()
        server.serve_forever()
        systemd.notify("STOPPING=1")
        log.info("stopped")
    finally:
        if supervisor is not None:
            supervisor.stop()
        if heartbeat is not None:
            heartbeat.stop()
        if bots is not None:
            bots.stop()  # before the table closes: a bot may be about to move
        if panel is not None:
            panel.stop()  # the display shows that the companion stopped
        turn_clock.close()  # the running turns' seconds so far, for the restart
        table.close()
    # All is closed: what is left is the interpreter's own teardown, whose garbage collection
    # passes over every object took most of a stop (0.2 to 1 s on this 2-core machine under
    # load, more on a Pi Zero). Frozen objects are skipped by those passes; the memory goes
    # back to the system with the process anyway, and the exit handlers still run.
    gc.freeze()
    return 0


def _local_url(host: str, port: int) -> str:
    """How the companion reaches its own server (for the watchdog's health check)."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _stop(server: Server, supervisor: network.Supervisor | None, signum: int) -> None:
    log.info("%s received: stopping", signal.Signals(signum).name)
    if supervisor is not None:
        # First, so its nmcli call under way ends as asked rather than failing under it.
        supervisor.stop()
    server.stop()

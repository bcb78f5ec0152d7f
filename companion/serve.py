"""``companion serve``: the composition root that puts the appliance together.

    Config -> Table -> panel (hardware) -> Flask app (web) -> waitress WSGI server

It is the one module of the core that imports ``web`` and ``hardware`` (lazily, so the
rest of the core never pulls them in). Under systemd it says when it is ready and feeds
the watchdog while it really works (``companion/systemd.py``). Why waitress, and why one
process with many threads: ``docs/server.md``.
"""

from __future__ import annotations

import logging
import signal
import socket
import threading

import waitress
from flask import Flask
from waitress import wasyncore

from . import network, systemd
from .config import Config
from .bots.seats import BotSeats
from .network import NetworkStatus
from .table import Table

log = logging.getLogger(__name__)

THREADS = 32
"""Worker threads. Every open event stream holds one: 8 phones and a table screen, each
perhaps with a stream its phone dropped without closing (kept until the stream's own
time limit), and still free threads to answer actions at once."""

STOP_SECONDS = 4.0
"""How long stopping waits for requests in progress (systemd allows 15 s; we promise 5)."""


def build_app(table: Table, config: Config, url: str, panel: object | None = None,
              network: NetworkStatus | None = None, bots: BotSeats | None = None) -> Flask:
    """The web app for ``table``: the one place that decides what the web is given."""
    from web import create_app  # the core never imports the web at module level

    return create_app(table, panel=panel, language=config.language, public_url=url, network=network, bots=bots)


def build_panel(table: Table, config: Config, url: str, address: str, network: NetworkStatus | None = None):
    """The OLED panel and its buttons (emulated away from a Pi), not started yet."""
    from hardware import create_panel  # the core never imports the hardware at module level

    return create_panel(config, table, public_url=url, lan_address=address, network=network)


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


class Server:
    """waitress serving ``app``, stoppable from a signal handler or from any thread.

    SSE through waitress: since waitress 3.0 ``send_bytes`` is 1, so every chunk the
    event stream yields goes to the socket at once (older versions held output back until
    18000 bytes piled up, which would have delayed events for minutes).
    """

    def __init__(self, app: Flask, host: str, port: int, threads: int = THREADS):
        self.app = app
        self._map: dict = {}  # waitress's socket map: ours, so stop() can empty it
        self._waitress = waitress.create_server(
            app,
            map=self._map,
            host=host,
            port=port,
            threads=threads,
            ident="tabletop-companion",
            asyncore_use_poll=True,  # select() cannot watch file descriptors above 1023
        )
        self._stopped = threading.Event()
        self._orphans: list = []  # sockets left to close when the wake-up pipe failed (see stop)

    @property
    def port(self) -> int:
        """The port listened on (the one the OS chose when 0 was asked for)."""
        return self._waitress.effective_port

    def serve_forever(self) -> None:
        """Serve until :meth:`stop` has run."""
        try:
            self._waitress.run()
        finally:
            for channel in self._orphans:
                channel.close()
            self._stopped.set()

    def stop(self) -> None:
        """Stop serving, within about STOP_SECONDS.

        First the event streams end, and the worker threads finish what they are doing
        (their last writes still need the sockets and waitress's wake-up pipe); then every
        socket is closed from inside waitress's own loop, whose thread owns the socket map,
        which makes :meth:`serve_forever` return.
        """
        self.app.extensions["companion"].events.stop()
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
    try:
        address = lan_address()
        url = public_url(config.host, config.port, address)
        # The web and the panel read the network's state (the access point's join address
        # and Wi-Fi QR code) from this one object, which the supervisor keeps up to date.
        network_status = NetworkStatus(config.port)
        panel = build_panel(table, config, url, address, network_status)
        bots = BotSeats(table, config.data_dir, config.bots)  # its worker process starts with the first move or hint
        app = build_app(table, config, url, panel, network_status, bots)
        supervisor = network.start_supervisor(config, network_status)
        server = Server(app, config.host, config.port)
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda number, frame: _stop(server, number))
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
        table.close()
    return 0


def _local_url(host: str, port: int) -> str:
    """How the companion reaches its own server (for the watchdog's health check)."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _stop(server: Server, signum: int) -> None:
    log.info("%s received: stopping", signal.Signals(signum).name)
    server.stop()

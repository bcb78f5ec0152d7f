"""``companion serve`` as a real process: events flow at once through the WSGI server,
a SIGKILL mid-game loses nothing, and SIGTERM stops it even with streams open.

The server listens on a free loopback port; every wait is bounded (bounds far above what a
run takes: they catch a hang, they are not speed claims; the figures: benchmarks/).
"""

from __future__ import annotations

import http.client
import json
import random
import signal
import socket
from pathlib import Path

import pytest
from serving import ServeProcess, serve_command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Companion:
    """One ``companion serve`` process and a tiny JSON client for it."""

    def __init__(self, data: Path, port: int, log: Path, config: Path | None = None, own_group: bool = False):
        """``config``: a settings file; ``own_group``: the process leads a process group of
        its own (as a service's control group, which ``systemctl stop`` signals whole).
        Returns once the process has said it is ready (tests/serving.py)."""
        self.port = port
        self._log = open(log, "ab")
        try:
            self._started = ServeProcess(
                serve_command("--data", str(data), "--host", "127.0.0.1", "--port", str(port), "--hardware", "mock",
                              "--log-level", "warning", *([] if config is None else ["--config", str(config)])),
                stdout=self._log, stderr=self._log, start_new_session=own_group)
        except AssertionError as error:
            self._log.close()
            raise AssertionError(f"{error}: see {log}") from None
        self.process = self._started.process

    def request(self, method: str, path: str, body=None, token=None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"X-Requested-With": "companion"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            connection.request(method, path, None if body is None else json.dumps(body), headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def ok(self, method: str, path: str, body=None, token=None) -> dict:
        status, answer = self.request(method, path, body, token)
        assert status == 200, (method, path, body, answer)
        return answer

    def stop(self, signum: int) -> int:
        self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=60)
        finally:
            self._started.close()
            self._log.close()


@pytest.fixture
def log_file(tmp_path):
    return tmp_path / "serve.log"


def open_events(port: int) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    return response


def next_version(events: http.client.HTTPResponse) -> int:
    """Read the stream up to its next version event (past heartbeats); return the version it carries."""
    while True:
        line = events.readline().decode()
        assert line, "the event stream ended"
        if line.startswith("data: ") and "version" in (data := json.loads(line[len("data: "):])):
            return data["version"]


def everything_seen(server: Companion, tokens: list[str]) -> tuple[dict, list[float]]:
    """Every view, with the turn clock's running seconds taken out (they count on while the
    companion is up): whose turns are timed; and apart, each seat's time in the turns already
    ended, as each view gives it (compared within a rounding, see ``ENDED_ROUNDING``)."""
    table = server.ok("GET", "/api/table")
    views = [table["view"], server.ok("GET", "/api/view"),
             *(server.ok("GET", "/api/view", token=token) for token in tokens)]
    seen = {"table": {**table, "view": timeless(views[0])}, "public": timeless(views[1]),
            "seats": [timeless(view) for view in views[2:]]}
    ended = [seat["total"] - (seat["turn"] or 0.0) for view in views for seat in view["clock"]["seats"]]
    return seen, ended


ENDED_ROUNDING = 0.25
"""A view gives a turn's and a total's seconds to a tenth each, so the ended turns' seconds read
from one view can differ from another's by up to two tenths (a whole second, once rounded, when
they lie near a half: seen at a load of 11, where the turns last seconds). Here the turns last
milliseconds; that the ended turns' seconds are kept, to the tenth, is tests/test_clock.py's
(an injected clock) and the browser's restart test's (tests/browser/test_turn_clock_browser.py)."""


def timeless(view: dict) -> dict:
    clock = view["clock"]
    seats = [{"seat": seat["seat"], "timed": seat["turn"] is not None, "running": seat["running"]}
             for seat in clock["seats"]]
    return {**view, "clock": {**clock, "seats": seats}}


def test_sigkill_mid_game_then_restart_finds_the_same_table(tmp_path, log_file):
    data, port = tmp_path / "data", free_port()
    server = Companion(data, port, log_file)
    try:
        host = server.ok("POST", "/api/game", {"game": "lion-square", "players": 3, "seed": 11})["host_token"]
        tokens = [server.ok("POST", f"/api/seats/{s}/join", {"name": name}, token=host)["token"]
                  for s, name in enumerate(["Aki", "ベン", "Cleo"])]
        events = open_events(port)
        assert next_version(events) == server.ok("GET", "/api/table")["version"]
        pick = random.Random(3)
        for _ in range(12):
            seat = pick.choice(server.ok("GET", "/api/view")["to_act"])
            view = server.ok("GET", "/api/view", token=tokens[seat])
            server.ok("POST", "/api/actions", {"action": pick.choice(view["actions"]), "version": view["version"]},
                      token=tokens[seat])
            # The event must come through the WSGI server at once, not when some buffer fills
            # (the stream's read times out first); how soon: benchmarks/server_latency.py.
            assert next_version(events) == view["version"] + 1
        server.ok("POST", "/api/undo", token=host)
        before, ended_before = everything_seen(server, tokens)
        assert before["seats"][0]["game_version"] == 11  # twelve moves, one undone
    finally:
        server.stop(signal.SIGKILL)

    server = Companion(data, port, log_file)
    try:
        seen, ended = everything_seen(server, tokens)
        assert seen == before
        assert ended == pytest.approx(ended_before, abs=ENDED_ROUNDING), "the ended turns' seconds were not kept"
        assert server.request("GET", "/api/me", token=host)[1]["host"] is True
    finally:
        server.stop(signal.SIGKILL)


def test_sigterm_stops_promptly_even_with_event_streams_open(tmp_path, log_file):
    server = Companion(tmp_path / "data", free_port(), log_file)
    streams = [open_events(server.port) for _ in range(3)]
    for stream in streams:
        next_version(stream)
    assert server.stop(signal.SIGTERM) == 0  # how soon: benchmarks/stops.py
    for stream in streams:
        # The rest of the event's blank line, then a clean end: a stream cut off without
        # its chunked terminator would raise http.client.IncompleteRead here instead.
        assert stream.read() == b"\n"

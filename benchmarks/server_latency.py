"""HTTP benchmark: the real ``companion serve`` on loopback, with 8 phones holding event streams.

    python benchmarks/server_latency.py [--game lion-square] [--players 4] [--requests 300] [--data DIR]

Measures, one request at a time on a kept-alive connection (the latency a phone feels):

- ``GET /api/ping``: the cheapest route, the ceiling of what the server stack can do;
- ``GET /api/view``: a seat's view with its legal actions;
- ``POST /api/actions``: a random legal move, written to SQLite (``synchronous=FULL``)
  before the answer;

and, for every action, how long after its answer each of the 8 phones' event streams
delivers the new version (negative: the event beat the answer). Random games are played
to their end and restarted as needed. Everything is bounded by ``--requests`` and a
time limit; nothing listens beyond 127.0.0.1.

The data directory defaults to a fresh temporary directory: on a tmpfs (``/tmp`` on
many systems) that leaves out the disk's fsync, on an SD card it includes it; pass
``--data`` to choose.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHONES = 8
START_SECONDS = 30.0
EVENT_WAIT_SECONDS = 2.0


class Client:
    """One kept-alive HTTP/1.1 connection speaking JSON, like one phone's page."""

    def __init__(self, port: int, token: str | None = None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.token = token

    def call(self, method: str, path: str, body=None) -> tuple[int, dict, float]:
        """(status, answer, seconds taken)."""
        headers = {"X-Requested-With": "companion"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        started = time.perf_counter()
        self.connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        return response.status, answer, time.perf_counter() - started

    def ok(self, method: str, path: str, body=None) -> dict:
        status, answer, _ = self.call(method, path, body)
        if status != 200:
            raise RuntimeError(f"{method} {path} {body}: {status} {answer}")
        return answer


class Phone(threading.Thread):
    """Holds ``/api/events`` open and notes when each version arrives."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.arrivals: dict[int, float] = {}
        self.connected = threading.Event()
        self.stop = False

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/api/events")
        stream = connection.getresponse()
        self.connected.set()
        while not self.stop:
            line = stream.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                self.arrivals[json.loads(line[6:])["version"]] = time.perf_counter()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(data: Path, port: int, *extra: str) -> subprocess.Popen:
    """``companion serve`` on 127.0.0.1:``port`` with mocked hardware (``extra``: more of its
    arguments, e.g. ``--config FILE``), once it answers."""
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--data", str(data), "--host", "127.0.0.1", "--port", str(port),
         "--hardware", "mock", "--log-level", "warning", *extra],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            if Client(port).call("GET", "/api/ping")[0] == 200:
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not answer within {START_SECONDS} s")


@contextlib.contextmanager
def bot_server(**bots):
    """A fresh ``companion serve`` whose ``[bots]`` settings are ``bots`` (``pause_seconds = 0``
    unless given: bots move at once), on a free port of loopback: yields ``(server, port)``,
    the process and its port, and stops it afterwards."""
    settings = {"pause_seconds": 0, **bots}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as scratch:
        config = Path(scratch) / "config.toml"
        config.write_text("[bots]\n" + "".join(f"{key} = {value}\n" for key, value in settings.items()),
                          encoding="utf-8")
        port = free_port()
        server = start_server(Path(scratch) / "data", port, "--config", str(config))
        try:
            yield server, port
        finally:
            server.terminate()
            server.wait(timeout=15)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def row(name: str, seconds: list[float], wall: float | None = None) -> str:
    rate = f"{len(seconds) / wall:8.0f}" if wall else " " * 8
    return (f"{name:<34}{len(seconds):>6}  {rate}  {statistics.median(seconds) * 1000:7.2f}  "
            f"{percentile(seconds, 0.99) * 1000:7.2f}  {max(seconds) * 1000:7.2f}")


def timed_loop(requests: int, limit: float, step) -> tuple[list[float], float]:
    """Run ``step()`` (returning the seconds of its timed request) ``requests`` times or until
    ``limit`` seconds pass; returns the samples and the wall time."""
    samples = []
    started = time.perf_counter()
    while len(samples) < requests and time.perf_counter() - started < limit:
        samples.append(step())
    return samples, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="lion-square")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--requests", type=int, default=300, help="requests per measured route (default 300)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit per measured route (default 30)")
    parser.add_argument("--data", help="data directory (default: a new temporary directory)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as scratch:
        data = Path(args.data) if args.data else Path(scratch)
        port = free_port()
        server = start_server(data, port)
        try:
            return run(port, args)
        finally:
            server.terminate()
            server.wait(timeout=10)


def run(port: int, args) -> int:
    host = Client(port)
    status, claimed, _ = host.call("POST", "/api/host/claim")
    if status != 200:
        raise SystemExit(f"use an empty --data directory: this table already has a host ({claimed['error']})")
    host.token = claimed["host_token"]
    host.ok("POST", "/api/game", {"game": args.game, "players": args.players, "seed": 1})
    seats = [Client(port, host.ok("POST", f"/api/seats/{s}/join", {"name": f"P{s}"})["token"])
             for s in range(args.players)]

    phones = [Phone(port) for _ in range(PHONES)]
    for phone in phones:
        phone.start()
        phone.connected.wait(5)
    pick = random.Random(1)

    ping = Client(port)
    ping_times, ping_wall = timed_loop(args.requests, args.seconds, lambda: ping.call("GET", "/api/ping")[2])
    view_times, view_wall = timed_loop(args.requests, args.seconds, lambda: pick.choice(seats).call("GET", "/api/view")[2])

    answered: dict[int, float] = {}

    def one_action() -> float:
        public = host.ok("GET", "/api/view")
        if public["over"]:
            host.ok("POST", "/api/game", {"game": args.game, "players": args.players, "seed": pick.randrange(10**6)})
            public = host.ok("GET", "/api/view")
        seat = seats[pick.choice(public["to_act"])]
        view = seat.ok("GET", "/api/view")
        status, answer, seconds = seat.call("POST", "/api/actions",
                                            {"action": pick.choice(view["actions"]), "version": view["version"]})
        if status != 200:
            raise RuntimeError(f"an action was refused: {answer}")
        answered[answer["version"]] = time.perf_counter()
        return seconds

    action_times, action_wall = timed_loop(args.requests, args.seconds, one_action)
    time.sleep(EVENT_WAIT_SECONDS if any(v not in p.arrivals for p in phones for v in answered) else 0)
    delays, missed = [], 0
    for version, at in answered.items():
        for phone in phones:
            # Events coalesce: a phone that was busy may get a later version in its place.
            seen = [arrived for v, arrived in phone.arrivals.items() if v >= version]
            if seen:
                delays.append(min(seen) - at)
            else:
                missed += 1
    for phone in phones:
        phone.stop = True

    print(f"companion serve on 127.0.0.1, {PHONES} phones holding /api/events open; "
          f"{args.game}, {args.players} players; one request at a time")
    print(f"{'':<34}{'n':>6}  {'req/s':>8}  {'p50 ms':>7}  {'p99 ms':>7}  {'max ms':>7}")
    print(row("GET /api/ping (ceiling)", ping_times, ping_wall))
    print(row("GET /api/view", view_times, view_wall))
    print(row("POST /api/actions", action_times, sum(action_times)))
    print(row("event after the action's answer", delays))
    ratio = statistics.median(action_times) / statistics.median(ping_times)
    print(f"actions p50 = {ratio:.1f} x the ceiling's p50; phones that missed an event: {missed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

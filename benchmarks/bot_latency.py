"""HTTP benchmark: does a thinking bot slow the pages? The real ``companion serve`` on loopback.

    python benchmarks/bot_latency.py [--game meow-oracle] [--requests 300] [--think 20] [--workers 1]

A person on seat 0 and a ``normal`` bot on seat 1 (given ``--think`` seconds per move, pause
0). Measures ``GET /api/view`` of seat 0, one request at a time on a kept-alive connection
(the latency a phone feels):

- **idle**: on the person's turn, while the bot waits (after the bot's first turn, which
  starts its worker and the worker's search helpers);
- **while the bot thinks**: on the bot's turns, while it searches in its worker process and
  its ``--workers - 1`` search helpers (``[bots] workers``), in chunks of 50 requests, each
  kept only if the bot did not move during it (some of its actions need no search).

Issue #11 asks that the second stay within 2x the first, issue #35 within 1.5x with two
workers (docs/bots.md). The game is Meow
Oracle, whose bot searches for all the seconds it is given: two-player SWAP 5's bot reads a
few plies and answers within a fraction of a second whatever its budget, so it cannot keep
the worker busy for a measurement. Nothing listens
beyond 127.0.0.1; the data directory is a fresh temporary one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_latency import Client, bot_server, row, timed_loop  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="meow-oracle", help="a 2-player game whose bot searches its whole budget "
                        "(default meow-oracle)")
    parser.add_argument("--requests", type=int, default=300, help="requests per measurement (default 300)")
    parser.add_argument("--think", type=float, default=20.0, help="the bot's seconds per move (default 20)")
    parser.add_argument("--workers", type=int, default=1, help="processes the bot searches on, [bots] workers (default 1)")
    args = parser.parse_args()
    with bot_server(normal_seconds=args.think, workers=args.workers) as (_, port):
        return run(port, args)


CHUNK = 50
"""Requests measured between two reads of the table's version while the bot thinks."""


def run(port: int, args) -> int:
    host = Client(port)
    host.token = host.ok("POST", "/api/game", {"game": args.game, "players": 2, "seed": 1})["host_token"]
    person = Client(port, host.ok("POST", "/api/seats/0/join", {"name": "P0"})["token"])
    host.ok("POST", "/api/seats/1/bot", {"level": "normal"})
    limit = args.think * 0.8  # stay inside one move's thinking

    # The person plays until the bot is awaited, and the bot's first move starts its worker
    # (and the worker's search helpers, ready for the next move): not measured.
    play_until_the_bot_thinks(person)
    while not person.ok("GET", "/api/view")["actions"]:  # the bot's actions, until the person's turn
        time.sleep(0.2)
    idle, idle_wall = timed_loop(args.requests, limit, lambda: person.call("GET", "/api/view")[2])

    # While the bot thinks: chunks of CHUNK requests between two reads of the table's version,
    # kept only when the bot made no move meanwhile (some of its actions need no search:
    # Meow Oracle's reveals are all as blind), until enough are kept.
    play_until_the_bot_thinks(person)
    thinking, thinking_wall, dropped = [], 0.0, 0
    began = time.perf_counter()
    while len(thinking) < args.requests and time.perf_counter() - began < 10 * args.think:
        view = person.ok("GET", "/api/view")
        if view["over"]:
            raise SystemExit("the game ended before the measurement did: lower --requests")
        if view["actions"]:  # the bot has done its part: play on until it is awaited again
            play_until_the_bot_thinks(person)
            continue
        chunk, wall = timed_loop(CHUNK, args.think, lambda: person.call("GET", "/api/view")[2])
        if person.ok("GET", "/api/view")["version"] == view["version"]:
            thinking += chunk
            thinking_wall += wall
        else:
            dropped += 1

    print(f"companion serve on 127.0.0.1; {args.game}: a person on seat 0, a normal bot on seat 1 "
          f"thinking {args.think:g} s per move on {args.workers} worker(s); one request at a time; "
          f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    print(f"{'':<34}{'n':>6}  {'req/s':>8}  {'p50 ms':>7}  {'p99 ms':>7}  {'max ms':>7}")
    print(row("GET /api/view, bot idle", idle, idle_wall))
    print(row("GET /api/view, bot thinking", thinking, thinking_wall))
    print(f"(chunks of {CHUNK} requests dropped because the bot moved during them: {dropped})")
    ratio = statistics.median(thinking) / statistics.median(idle)
    print(f"thinking p50 = {ratio:.2f} x idle p50 (the goals: at most 2, issue #11; with two workers at most 1.5, "
          f"issue #35)")
    return 0


def play_until_the_bot_thinks(person: Client) -> int:
    """The person's first action until the bot is awaited (Meow Oracle: reveals, then hands
    cards out); returns the table's version then."""
    while (view := person.ok("GET", "/api/view"))["actions"]:
        person.ok("POST", "/api/actions", {"action": view["actions"][0], "version": view["version"]})
    return view["version"]


if __name__ == "__main__":
    sys.exit(main())

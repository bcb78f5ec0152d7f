"""Benchmark: how soon a phone notices a network drop its browser does not, and how soon it is
current again once the network returns (issue 33, point 5).

    python benchmarks/silent_drop.py [--trials 5] [--outage 10]

The real server with its shipped timing (a heartbeat every 2 s, streams of 60 s), headless
Chromium playing one phone of a two-seat SWAP 5, and between them the test's dropping network
(``tests/browser/silent_network.py``). Each trial waits a random part of a heartbeat, cuts the
network (``stall``: everything hangs; ``fail``: every connection is reset), lets the other
player move, restores the network after ``--outage`` seconds and reads the page every 20 ms:

- noticed: from the cut to the page's banner saying it hears nothing (``data-state="silent"``);
- current: from the network's return to the page showing the table's version (``data-version``).

Goals: noticed within 5 s, current within 2 s. Needs Playwright and Chromium (as the browser tests).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from browser_support import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from silent_network import DroppingNetwork  # noqa: E402

from companion.serve import Server  # noqa: E402
from companion.table import Table  # noqa: E402
from web import KEEPALIVE_SECONDS, create_app  # noqa: E402

POLL_MS = 20
SILENT = "() => { const b = document.getElementById('connection'); return b && !b.hidden && b.dataset.state === 'silent'; }"
SHOWS = "(version) => document.getElementById('game').dataset.version === String(version)"


def a_move(table, seat):
    return next(a for a in table.view(seat)["actions"] if a["type"] in ("swap", "move"))


def seconds_until(page, condition, arg=None) -> float:
    started = time.monotonic()
    page.wait_for_function(condition, arg=arg, polling=POLL_MS, timeout=60_000)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=5, help="drops of each kind (default 5)")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the network stays down (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        table = Table(Path(data))
        server = Server(create_app(table), "127.0.0.1", 0)  # the shipped heartbeat and stream life
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        network = DroppingNetwork(server.port)
        try:
            table.start_game("swap5", 2, seed=4)
            tokens = [table.join(seat, f"P{seat + 1}") for seat in range(2)]
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            print(f"heartbeat every {KEEPALIVE_SECONDS} s; outage {args.outage} s; {args.trials} drops of each kind", flush=True)
            for drop in ("stall", "fail"):
                noticed, current = [], []
                for _ in range(args.trials):
                    if table.view(None)["over"]:
                        table.start_game("swap5", 2, seed=rng.randrange(1000))
                    mine = 1 - table.view(None)["to_act"][0]  # this phone waits; the other seat moves
                    page.goto(f"{network.url}/R/{tokens[mine]}")
                    seconds_until(page, SHOWS, table.version)
                    time.sleep(rng.uniform(0, KEEPALIVE_SECONDS))  # the drop falls anywhere between heartbeats
                    getattr(network, drop)()
                    noticed.append(seconds_until(page, SILENT))
                    mover = 1 - mine
                    table.act(mover, a_move(table, mover), table.version)
                    time.sleep(max(0.0, args.outage - noticed[-1]))
                    network.restore()
                    current.append(seconds_until(page, SHOWS, table.version))
                    print(f"  {drop}: noticed after {noticed[-1]:.2f} s, current {current[-1]:.2f} s after the return", flush=True)
                for name, figures in (("noticed", noticed), ("current", current)):
                    print(f"{drop:5} {name}: median {statistics.median(figures):.2f} s, "
                          f"max {max(figures):.2f} s ({', '.join(f'{f:.2f}' for f in figures)})")
        finally:
            network.close()
            server.stop()
            server.wait_stopped(10)
            table.close()
            browser.close()


if __name__ == "__main__":
    main()

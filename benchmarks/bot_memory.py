"""Memory benchmark: the whole service while a bot thinks on several workers (issue #35).

    python benchmarks/bot_memory.py [--game meow-oracle] [--workers 3] [--think 2.75] [--moves 3]

The real ``companion serve`` (mock hardware) on loopback, ``[bots] workers`` set; a person on
seat 0 and a ``strong`` bot on seat 1 given ``--think`` seconds a move (pause 0). A hint is
asked first, so that the hint worker runs too: every process the service can have is there.
Then the person plays its first moves, and for ``--moves`` of the bot's turns the service's
processes (the main one and all its descendants: the bot worker, its search helpers, the
hint worker) are read from /proc every 0.1 s while the bot thinks.

Prints, per process and summed over the service: RSS (every page a process maps, shared
ones counted in each: what "150 MB RSS" bounds) and PSS (shared pages split among their
users: what the service costs the machine), the largest seen idle and while thinking.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_latency import Client, bot_server  # noqa: E402

SAMPLE_SECONDS = 0.1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="meow-oracle", help="a 2-player game whose bot searches its whole budget")
    parser.add_argument("--workers", type=int, default=3, help="[bots] workers (default 3, a Pi's)")
    parser.add_argument("--think", type=float, default=2.75, help="the strong bot's seconds a move (default 2.75)")
    parser.add_argument("--moves", type=int, default=3, help="the bot's moves measured (default 3)")
    args = parser.parse_args()
    with bot_server(strong_seconds=args.think, workers=args.workers) as (server, port):
        return run(server.pid, port, args)


def run(pid: int, port: int, args) -> int:
    host = Client(port)
    host.token = host.ok("POST", "/api/game", {"game": args.game, "players": 2, "seed": 1})["host_token"]
    person = Client(port, host.ok("POST", "/api/seats/0/join", {"name": "P0"})["token"])
    host.ok("POST", "/api/seats/1/bot", {"level": "strong"})
    person.ok("GET", "/api/hint?seconds=0.1")  # the hint worker starts
    idle = sample(pid)
    thinking: dict[int, tuple[str, int, int]] = {}
    most = (0, 0)
    turns = 0
    while turns < args.moves:
        view = person.ok("GET", "/api/view")
        if view["over"]:
            break
        if view["actions"]:  # the person's turn (Meow Oracle: a reveal, then a placement)
            person.ok("POST", "/api/actions", {"action": view["actions"][0], "version": view["version"]})
            continue
        while person.ok("GET", "/api/view")["version"] == view["version"]:  # the bot's turn: it thinks
            now = sample(pid)
            most = max(most[0], sum(rss for _, rss, _ in now.values())), max(most[1], sum(p for *_, p in now.values()))
            for child, (name, rss, pss) in now.items():
                old = thinking.get(child, (name, 0, 0))
                thinking[child] = (name, max(old[1], rss), max(old[2], pss))
            time.sleep(SAMPLE_SECONDS)
        turns += 1
    print(f"companion serve, {args.game}, a strong bot thinking {args.think:g} s a move on {args.workers} "
          f"worker(s); {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    print(f"{'process':<34}{'idle RSS MB':>12}{'PSS MB':>8}{'thinking RSS MB':>17}{'PSS MB':>8}")
    for child in sorted(set(idle) | set(thinking)):
        name = (idle.get(child) or thinking[child])[0]
        rss0, pss0 = idle.get(child, (name, 0, 0))[1:]
        rss1, pss1 = thinking.get(child, (name, 0, 0))[1:]
        print(f"{name:<34}{rss0 / 1024:12.1f}{pss0 / 1024:8.1f}{rss1 / 1024:17.1f}{pss1 / 1024:8.1f}")
    print(f"{'the service (largest sum)':<34}{sum(r for _, r, _ in idle.values()) / 1024:12.1f}"
          f"{sum(p for *_, p in idle.values()) / 1024:8.1f}{most[0] / 1024:17.1f}{most[1] / 1024:8.1f}")
    return 0


def sample(root: int) -> dict[int, tuple[str, int, int]]:
    """{pid: (what it is, RSS kB, PSS kB)} of ``root`` and every process below it."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
    family, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    found = {}
    for pid in family:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        memory = {line.split(":")[0]: int(line.split()[1]) for line in rollup.splitlines()[1:]}
        found[pid] = (_what(command, pid == root), memory["Rss"], memory["Pss"])
    return found


def _what(command: str, main: bool) -> str:
    if main:
        return "companion serve (main)"
    for module, name in (("companion.bots.helper", "search helper"), ("companion.bots.worker", "worker")):
        if module in command:
            return f"{name} ({command.split(module)[1].strip() or '1'})" if name == "worker" else name
    return command[:34]


if __name__ == "__main__":
    sys.exit(main())

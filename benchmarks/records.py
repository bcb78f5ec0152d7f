"""Benchmark: the statistics of 1,000 stored plays, ``GET /api/stats`` (issue #12: under 200 ms).

    python benchmarks/records.py [--plays 1000] [--repeats 40] [--profile]

How the plays are stored, all through the real store: first one game per game id and player
count is played through the table with random legal moves (and one of each game left after
a few moves, so abandoned plays are in the mix); then those games are exported
(``companion.records.backup``) and imported again as ``--plays`` plays with their own start
times, 2 to 4 players of a pool of 14 names in several spellings ("Aki", "ＡＫＩ", "aki"),
and a bot in one seat out of ten. The import replays every play with its engine, as
``companion import`` does.

Then the app (``web.create_app`` on that data directory) answers ``GET /api/stats`` and
``GET /api/stats?game=lion-square`` through Flask's test client, ``--repeats`` times each:
the whole route (reading every play from SQLite, the statistics, the JSON), without the
network. ``GET /records`` (the page with its charts) is timed the same way. Both the wall clock and
the process's CPU time are printed; the goal (p99 under 200 ms) is checked on the CPU time,
since on the shared development machine the wall clock mostly counts the waits for a core.
With ``--profile``, cProfile's top functions of the stats route are printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import games  # noqa: E402
from companion.bots.seats import bot_name  # noqa: E402
from companion.records.backup import export_plays, import_plays  # noqa: E402
from companion.table import Table  # noqa: E402

NAMES = ["Aki", "ＡＫＩ", "aki", "Ben", "BEN", "Cy", "Dee", "Emi", "えみ", "Fumi", "ふみ", "Gen", "Hana", "はな"]
GOAL_MS = 200.0


def play_seed_games(data_dir: Path) -> None:
    """One finished game per game id and player count, and one abandoned per game id."""
    table = Table(data_dir)
    try:
        seed = 0
        for game_id in games.ids():
            game = games.get(game_id)
            for players in game.player_counts:
                for moves in (None, 3) if players == game.player_counts[0] else (None,):
                    seed += 1
                    _play(table, game, players, seed, moves)
        table.free_all_seats()
        table.start_game("swap5", 2)  # the last game, if unfinished, becomes a play too
    finally:
        table.close()


def _play(table: Table, game, players: int, seed: int, moves: int | None) -> None:
    if any(table.names()):
        table.free_all_seats()
    table.start_game(game.id, players, seed=seed)
    for seat in range(players):
        table.join(seat, f"P{seat}")
    chooser = random.Random(seed)
    made = 0
    while not game.is_over(table.state()) and (moves is None or made < moves):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
        made += 1


def many_plays(document: dict, count: int) -> dict:
    """``count`` plays made of the document's, one an hour, with names drawn from :data:`NAMES`."""
    chooser = random.Random(12)
    start = time.time() - count * 3600
    plays = []
    for index in range(count):
        original = document["plays"][index % len(document["plays"])]
        shift = start + index * 3600 - original["started_at"]
        names = chooser.sample(NAMES, original["players"])
        bot_seat = chooser.randrange(original["players"]) if chooser.random() < 0.1 else None
        seating = [dict(seat, name=bot_name(seat["seat"], "normal") if seat["seat"] == bot_seat else names[seat["seat"]],
                        bot=int(seat["seat"] == bot_seat), bot_level="normal" if seat["seat"] == bot_seat else None)
                   for seat in original["seating"]]
        plays.append(dict(original, id=index + 1, started_at=original["started_at"] + shift,
                          ended_at=original["ended_at"] + shift, seating=seating,
                          actions=[dict(a, at=a["at"] + shift, undone_at=a["undone_at"] and a["undone_at"] + shift)
                                   for a in original["actions"]]))
    return dict(document, plays=plays)


def timed(client, path: str, repeats: int) -> tuple[list[float], list[float]]:
    """Milliseconds per answer of ``path``, ``repeats`` times (after one warm-up): the wall
    clock's, and this process's CPU time (what the answer costs when the machine is not
    shared: on a loaded machine the wall clock also counts the waits for a core)."""
    assert client.get(path).status_code == 200
    wall, cpu = [], []
    for _ in range(repeats):
        wall_began, cpu_began = time.perf_counter(), time.process_time()
        answer = client.get(path)
        cpu.append((time.process_time() - cpu_began) * 1000)
        wall.append((time.perf_counter() - wall_began) * 1000)
        assert answer.status_code == 200
    return wall, cpu


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    from web import create_app

    with tempfile.TemporaryDirectory() as scratch:
        seeds, data = Path(scratch) / "seeds", Path(scratch) / "data"
        began = time.perf_counter()
        play_seed_games(seeds)
        document = export_plays(seeds)
        added, _ = import_plays(data, many_plays(document, args.plays))
        print(f"stored {added} plays ({len(document['plays'])} played through the table, the rest imported) "
              f"in {time.perf_counter() - began:.1f} s")

        table = Table(data)
        app = create_app(table)
        client = app.test_client()
        failed = False
        try:
            print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; milliseconds, n = {args.repeats}")
            for path in ("/api/stats", "/api/stats?game=lion-square", "/records?lang=ja"):
                wall, cpu = timed(client, path, args.repeats)
                cpu_p99 = percentile(cpu, 0.99)
                verdict = "" if not path.startswith("/api/stats") else ("  goal met" if cpu_p99 < GOAL_MS else "  GOAL MISSED")
                failed |= verdict == "  GOAL MISSED"
                print(f"GET {path:30} wall p50 {statistics.median(wall):6.1f} p99 {percentile(wall, 0.99):6.1f}   "
                      f"CPU p50 {statistics.median(cpu):6.1f} p99 {cpu_p99:6.1f}{verdict}")
            if args.profile:
                profile = cProfile.Profile()
                profile.runcall(lambda: [client.get("/api/stats") for _ in range(10)])
                pstats.Stats(profile).sort_stats("tottime").print_stats(12)
        finally:
            app.extensions["companion"].events.stop()
            app.extensions["records"].close()
            table.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

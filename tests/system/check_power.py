"""Pull the plug: the companion loses no acknowledged move to a power cut.

Random cuts (power.py says what they model and why):

* **Random cuts.** A person plays over the API, each move sent as soon as the last is
  acknowledged, against a bot; the virtual Pi loses its power at a random moment (QEMU
  killed): while the bot is to move, during an import, during the boot, and at random in
  play. After each cut: the file system is clean once its journal is replayed (e2fsck on the
  host, before the boot), the Pi boots to READY, ``PRAGMA integrity_check`` is ok, every
  acknowledged move is in the database, and the game goes on. ``TABLETOP_POWER_CUTS=N`` adds
  N more cuts of every kind drawn at random (``tests/system/power-campaign`` runs 200).
* **Every flush point** is flush_points.py's (run by name, not collected with the checks: see
  there; ``.ci/run`` runs it after these cuts, in the same virtual Pi).

It leaves the Pi as it found it: the service READY on its usual data directory.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import power
import vm
from check_service import Table, table_of, wait_ready

STATE = "/var/lib/tabletop-companion"
COMPANION = "/opt/tabletop-companion/venv/bin/companion"
EXTRA_CUTS = int(os.environ.get("TABLETOP_POWER_CUTS", "0"))
RANDOM = random.Random(os.environ.get("TABLETOP_POWER_SEED", "20261127"))

NETWORK_ERRORS = (OSError, http.client.HTTPException)
"""What a request meets when the power goes while it is under way: it was not acknowledged."""


@dataclass
class Acknowledged:
    """The moves (and undos) the companion acknowledged to the phones, in order, per game:
    ``moves[game][seat]`` lists the actions as the store writes them; ``log_bytes`` pairs
    each acknowledgement with the write log's length when it arrived (the flush check's)."""

    moves: dict[int, dict[int, list[str]]] = field(default_factory=dict)
    log_bytes: list[tuple[int, str, int, int, int]] = field(default_factory=list)

    def add(self, game: int, seat: int, action: dict, log_length: int = 0) -> None:
        made = self.moves.setdefault(game, {}).setdefault(seat, [])
        made.append(power.canonical(action))
        self.log_bytes.append((log_length, "move", game, seat, len(made) - 1))


class Person:
    """A phone that plays every move its seat is offered, each as soon as the last was
    acknowledged, until told to stop or until the power goes (its requests then fail)."""

    def __init__(self, table: Table, seat: int, game: int, acknowledged: Acknowledged, log: Path | None = None):
        self.table, self.seat, self.game = table, seat, game
        self.acknowledged, self.log = acknowledged, log
        self.bot_to_move = threading.Event()
        """Set after each acknowledged move: the other (a bot) is to move."""

    def play(self, stop: threading.Event, moves: int | None = None, patience: float = 600) -> None:
        made = 0
        pi, token = self.table.pi, self.table.seats[self.seat]
        deadline = time.monotonic() + patience
        while not stop.is_set() and (moves is None or made < moves):
            assert time.monotonic() < deadline, f"seat {self.seat + 1} was offered no move for {patience:.0f} s"
            try:
                status, view = pi.http("GET", "/api/view", token=token, timeout=10)
                if status != 200 or not view["actions"]:
                    if status == 200 and game_over(pi):
                        return
                    stop.wait(0.1)  # the bot is thinking: look again shortly
                    continue
                action = view["actions"][0]
                status, _ = pi.http("POST", "/api/actions", {"action": action, "version": view["version"]},
                                    token=token, timeout=10)
            except NETWORK_ERRORS:
                return  # the power went
            if status == 200:
                self.acknowledged.add(self.game, self.seat, action, self.log.stat().st_size if self.log else 0)
                made += 1
                deadline = time.monotonic() + patience
                self.bot_to_move.set()


def guest_database(pi) -> dict:
    """The companion's database read in the guest: integrity_check and every action row."""
    script = (
        "import json, sqlite3; db = sqlite3.connect('file:" + STATE + "/companion.sqlite3?mode=ro', uri=True); "
        "print(json.dumps({'integrity': db.execute('PRAGMA integrity_check').fetchone()[0], "
        "'games': [r[0] for r in db.execute('SELECT id FROM games ORDER BY id')], "
        "'actions': db.execute('SELECT game_id, n, seat, action, undone_at IS NOT NULL FROM actions ORDER BY game_id, n').fetchall()}))"
    )
    return json.loads(pi.run(f'python3 -c "{script}"').out)


def game_over(pi) -> bool:
    status, table = pi.http("GET", "/api/table", timeout=10)
    return status == 200 and bool(table["game"] and table["game"]["over"])


def lost_moves(acknowledged: Acknowledged, actions: list) -> list[str]:
    """The acknowledged moves the database does not hold, each said in words. A seat's
    acknowledged moves must all be among its moves in the database, in order; the database
    may hold more: a move sent as the power went may have been committed without its answer
    reaching the phone (a cut between the commit and the answer), and the phone then moves on
    from there."""
    rows: dict[tuple[int, int], list[str]] = {}
    for game, _, seat, action, _ in actions:
        rows.setdefault((game, seat), []).append(action)
    lost = []
    for game, seats in acknowledged.moves.items():
        for seat, made in seats.items():
            lost += [f"game {game}, seat {seat + 1}, its move {index + 1}: {made[index]}"
                     for index in _not_in_order(made, rows.get((game, seat), []))]
    return lost


def _not_in_order(wanted: list[str], held: list[str]) -> list[int]:
    """The fewest indices of ``wanted`` to leave out so that the rest appear in ``held`` in
    order (a longest common subsequence): the acknowledged moves that are missing."""
    # longest[i][j]: the longest common subsequence of wanted[i:] and held[j:].
    longest = [[0] * (len(held) + 1) for _ in range(len(wanted) + 1)]
    for i in range(len(wanted) - 1, -1, -1):
        for j in range(len(held) - 1, -1, -1):
            longest[i][j] = (longest[i + 1][j + 1] + 1 if wanted[i] == held[j]
                             else max(longest[i + 1][j], longest[i][j + 1]))
    missing, i, j = [], 0, 0
    while i < len(wanted):
        if j < len(held) and wanted[i] == held[j] and longest[i][j] == longest[i + 1][j + 1] + 1:
            i, j = i + 1, j + 1
        elif j < len(held) and longest[i][j + 1] == longest[i][j]:
            j += 1
        else:
            missing.append(i)
            i += 1
    return missing


@pytest.fixture(scope="module")
def import_file(installed, tmp_path_factory) -> str:
    """A records file of 60 plays the Pi does not have, in the share for the guest."""
    sys.path.insert(0, str(vm.PROJECT))
    from benchmarks.records import many_plays, play_seed_games
    from companion.records.backup import export_plays

    folder = tmp_path_factory.mktemp("plays")
    play_seed_games(folder)
    document = many_plays(export_plays(folder), 60)
    target = installed.pi.share / "out" / "plays-to-import.json"
    target.write_text(json.dumps(document))
    return "/mnt/host/out/plays-to-import.json"


class Cuts:
    """Cuts the power one way or another and checks what the Pi comes back with."""

    def __init__(self, pi):
        self.pi = pi
        self.table = table_of(pi)
        self.acknowledged = Acknowledged()
        self.results: list[dict] = []
        self.boot_seconds = 120.0  # from power on to READY; measured at each recovery

    def new_game(self) -> Person:
        wait_ready(self.pi)
        self.table.new_game("swap5", players=2, bots={1: "normal"})
        return Person(self.table, 0, self.table.views()[0]["play_id"], self.acknowledged)

    def while_playing(self, person: Person, kind: str) -> float:
        """Cut while the person plays: at random, or while the bot is to move."""
        stop = threading.Event()
        player = threading.Thread(target=person.play, args=(stop,), daemon=True)
        player.start()
        if kind == "bot":
            person.bot_to_move.clear()
            assert person.bot_to_move.wait(300), "the person's move was never acknowledged"
            delay = RANDOM.uniform(0, 1.5)  # the bot's pause and its thinking
        else:
            delay = RANDOM.uniform(1, 20)
        time.sleep(delay)  # the random moment is the point of the check, not a wait for an event
        self.pi.cut_power()
        stop.set()
        player.join(30)
        return delay

    def during_import(self, path: str) -> float:
        """Cut once the import has written its first play (its checks come before any write)."""
        before = len(guest_database(self.pi)["games"])
        self.pi.run(f"systemd-run --quiet --unit=power-cut-import --uid=tabletop-companion --gid=tabletop-companion "
                    f"--property=WorkingDirectory={STATE} {COMPANION} import {path} --data {STATE}")
        started = time.monotonic()
        self.pi.wait_until(f"[ \"$(python3 -c \"import sqlite3; print(sqlite3.connect('file:{STATE}/companion.sqlite3?mode=ro', "
                           f"uri=True).execute('SELECT COUNT(*) FROM games').fetchone()[0])\")\" -gt {before} ]",
                           1200, "the import to write its first play")
        delay = time.monotonic() - started
        self.pi.cut_power()
        return delay

    def during_boot(self) -> float:
        """Cut the running Pi's power, power it on, and cut again at a random moment before READY."""
        self.pi.cut_power()
        delay = RANDOM.uniform(1, self.boot_seconds)
        self.pi.start(wait=False)
        time.sleep(delay)  # a random moment of the boot
        self.pi.cut_power()
        return delay

    def recover(self, kind: str, delay: float) -> dict:
        """After a cut: the disk's file system, the boot to READY, the database, the game."""
        file_system = power.check_file_system(self.pi.disk)
        started = time.monotonic()
        self.pi.start()
        wait_ready(self.pi)
        self.boot_seconds = time.monotonic() - started
        database = guest_database(self.pi)
        lost = lost_moves(self.acknowledged, database["actions"])
        moves = sum(len(made) for seats in self.acknowledged.moves.values() for made in seats.values())
        result = {"cut": kind, "after_s": round(delay, 2), "file_system": file_system or "clean",
                  "integrity": database["integrity"], "acknowledged_moves": moves, "lost": lost,
                  "ready_s": round(self.boot_seconds)}
        vm.log(f"power cut {len(self.results) + 1} ({kind}, {delay:.1f} s in): {json.dumps(result)}")
        self.results.append(result)
        assert file_system is None, f"the file system was not clean after the cut ({kind}):\n{file_system}"
        assert database["integrity"] == "ok", f"integrity_check after the cut ({kind}): {database['integrity']}"
        assert not lost, f"acknowledged moves lost to the cut ({kind}):\n" + "\n".join(lost)
        return result


def test_random_power_cuts_lose_no_acknowledged_move(installed, import_file, phases):
    pi = installed.pi
    # What the checks before this one set up (the hardware check's lgpio, pip's cache) is the
    # rig's, not the companion's: on a Pi it would have reached the disk long before anyone
    # pulled the plug (the kernel writes dirty pages back within 30 s). Cut into it and the
    # checks after this one find half-written files that no Pi owner would have.
    pi.run("sync", timeout=300)
    cuts = Cuts(pi)
    kinds = ["bot", "import", "boot", "play", "play"] + [RANDOM.choice(["bot", "import", "boot", "play"])
                                                          for _ in range(EXTRA_CUTS)]
    person = None
    with phases(f"power cuts ({len(kinds)})"):
        for kind in kinds:
            if kind == "import":
                delay = cuts.during_import(import_file)
            elif kind == "boot":
                delay = cuts.during_boot()
            else:
                if person is None or game_over(pi):  # a long campaign plays games to their end
                    person = cuts.new_game()
                delay = cuts.while_playing(person, kind)
            cuts.recover(kind, delay)
            if person is not None and not game_over(pi):
                # The game goes on from where the cut left it.
                person.bot_to_move.clear()
                person.play(threading.Event(), moves=1)
                assert person.bot_to_move.is_set() or game_over(pi), "the game could not go on after the cut"
        # The import cut short adds the rest when run again, as docs/records.md says.
        pi.run(f"runuser -u tabletop-companion -- {COMPANION} import {import_file} --data {STATE}", timeout=1800)
    summary = {"cuts": len(cuts.results), "lost": sum(len(r["lost"]) for r in cuts.results),
               "integrity_failures": sum(r["integrity"] != "ok" for r in cuts.results),
               "unclean_file_systems": sum(r["file_system"] != "clean" for r in cuts.results),
               "ready": sum(1 for _ in cuts.results), "results": cuts.results}
    (pi.share / "out" / "power-cuts.json").write_text(json.dumps(summary, indent=1))
    vm.log(f"power cuts: {summary['cuts']} cuts, {summary['lost']} acknowledged moves lost, "
           f"{summary['integrity_failures']} integrity failures, {summary['ready']} boots to READY")

"""Every flush point: the data folder's disk holds, at every flush it was given, every move
and undo acknowledged before that flush (issue 32, point 3; power.py says what it models).

Not a ``check_*`` file, so ``tests/system/run`` leaves it out of its checks: it moves the data
folder to a disk of its own, and the checks play on one table in one virtual Pi. It runs in a
virtual Pi of its own, by name, or last in a run (``.ci/run`` runs it after the power cuts):

    tests/system/run flush_points.py -v
    tests/system/run check_power.py flush_points.py -v

The data folder is moved, for this check only, to a 64 MB ext4 disk of its own behind QEMU's
``blklogwrites`` driver, which logs every write and flush the guest makes in the kernel's
dm-log-writes format; a short session is played (a person's moves against a bot, the bot's
answers, the host's undo, a two-player game to its end, its rematch); each acknowledgement is
stamped with the log's length when it arrived, and kept in the run's share/out/acknowledged.json
with the log, so that the replay can be run again. Then the log is replayed onto the disk's
first image, and at every flush the image is checked as the next boot would find it: journal
replayed, ``e2fsck -fn`` clean, the database copied out with ``debugfs``, ``integrity_check``
ok, every acknowledgement made before that flush was logged in place.
"""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import power
import vm
from check_power import STATE, Acknowledged, Person
from check_service import UNIT, Table, wait_ready

DATA_LABEL = "companion-data"
ENDLESS = 200
"""More moves than a short game takes: the people's game has gone wrong."""


def test_every_flush_point_holds_every_acknowledged_move(installed, phases, tmp_path):
    pi = installed.pi
    wait_ready(pi)
    owner = pi.run(f"stat -c '%u:%g' {STATE}").out.strip()
    pi.run(f"printf 'LABEL={DATA_LABEL}\\t{STATE}\\text4\\tdefaults,noatime\\t0\\t2\\n' >>/etc/fstab")
    pi.stop()
    data, base, write_log = pi.workdir / "data.raw", pi.workdir / "data-base.raw", pi.workdir / "data.log"
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-b", "4096", "-L", DATA_LABEL, "-E", f"root_owner={owner}",
                    str(data), "64M"], check=True)
    subprocess.run(["cp", str(data), str(base)], check=True)
    write_log.write_bytes(b"")
    pi.start(extra=(
        "-blockdev", f"driver=file,filename={data},node-name=data-file",
        "-blockdev", f"driver=file,filename={write_log},node-name=data-log",
        "-blockdev", "driver=blklogwrites,node-name=data,file=data-file,log=data-log,log-sector-size=512",
        # A PCI slot after the root disk's, so that the root stays /dev/vda (the kernel's root=).
        "-device", "virtio-blk-pci,drive=data,addr=0x10",
    ))
    acknowledged = Acknowledged()
    undos: list[tuple[int, int]] = []  # (log length when acknowledged, game)
    try:
        assert pi.run(f"findmnt -n -o SOURCE {STATE}").out.strip().endswith("vdb"), "the data disk is not mounted"
        with phases("flush points: the game played"):
            wait_ready(pi)
            # A new data disk holds a new table, claimed here: not the run's usual one
            # (check_service.table_of), whose host token the checks before hold.
            table = Table(pi)
            # A person against a bot: the person's moves, the bot's answers, an undo.
            table.new_game("swap5", players=2, bots={1: "normal"})
            person = Person(table, 0, 0, acknowledged, write_log)
            person.play(threading.Event(), moves=4)
            status, _ = pi.http("POST", "/api/undo", {}, token=table.host_token)
            assert status == 200, "the host's undo was refused"
            undos.append((write_log.stat().st_size, 0))
            person.play(threading.Event(), moves=2)
            # Two people to the end of a short game, then its rematch.
            table.new_game("meow-oracle-scorer", players=2)
            play_people(table, acknowledged, 1, write_log)
            table.call("POST", "/api/rematch", {}, token=table.host_token)
            play_people(table, acknowledged, 2, write_log, moves=3)
            pi.run(f"systemctl stop {UNIT}")
    finally:
        pi.run(f"sed -i '/^LABEL={DATA_LABEL}/d' /etc/fstab", check=False)
        pi.stop()
    final = power.inspect(data)
    assert final.fsck is None and final.integrity == "ok", f"the data disk after a clean stop: {final}"
    games = sorted(final.games)
    assert len(games) == 3, f"expected the 3 games played on the data disk, found {games}"
    rows = _rows_by_seat(final.actions)
    # Each acknowledged move's row, found in the final database: the k-th move a seat made
    # in a game is that seat's k-th row there (no move of theirs was refused after a write).
    expected = []
    for log_length, _, game, seat, index in acknowledged.log_bytes:
        key = rows[(games[game], seat)][index]
        assert final.actions[key][1] == acknowledged.moves[game][seat][index]
        expected.append((log_length, "move", key))
    for log_length, game in undos:
        undone = [key for key in final.actions if key[0] == games[game] and final.actions[key][2]]
        assert undone, "the acknowledged undo left no move undone"
        expected += [(log_length, "undo", key) for key in undone]
    (pi.share / "out" / "acknowledged.json").write_text(json.dumps(expected))  # to replay again by hand
    with phases("flush points: every one replayed and checked"):
        marks, inspected, failures, state = 0, 0, [], None
        for marks, flush, image, changed in power.images_at_flushes(base, write_log, tmp_path):
            # Acknowledged before this flush was logged: the flush that made it durable came earlier.
            due = [(kind, key) for log_length, kind, key in expected if log_length <= flush.at]
            if changed or state is None:  # the same image as at the last flush reads the same
                state = power.inspect(image)
                inspected += 1
            problems = []
            if state.fsck:
                problems.append(state.fsck)
            if due and state.integrity != "ok":
                problems.append(f"integrity_check: {state.integrity}")
            for kind, key in due:
                row = state.actions.get(key)
                if row is None or row[1] != final.actions[key][1]:
                    problems.append(f"the acknowledged move {key} is missing")
                elif kind == "undo" and not row[2]:
                    problems.append(f"the acknowledged undo of {key} is missing")
            if problems:
                failures.append(f"flush {marks} (log byte {flush.at}): " + "; ".join(problems))
    summary = {"flush_marks": marks, "images_inspected": inspected, "failures": len(failures), "acknowledged": len(expected),
               "log_bytes": write_log.stat().st_size}
    (pi.share / "out" / "flush-points.json").write_text(json.dumps(summary, indent=1))
    vm.log(f"flush points: {marks} replayed ({inspected} distinct images inspected), {len(failures)} failed, "
           f"{len(expected)} acknowledgements checked")
    pi.start()
    wait_ready(pi)
    assert marks > 0, "the write log holds no flush: nothing was checked"
    assert not failures, "\n".join(failures[:20])


def play_people(table: Table, acknowledged: Acknowledged, game: int, write_log: Path, moves: int | None = None) -> None:
    """The people seated play the first move offered to the seat :meth:`Table.next_move`
    names, until none is offered (the game is over) or ``moves`` were made."""
    made = 0
    while moves is None or made < moves:
        chosen = table.next_move()
        if chosen is None:
            return
        seat, view = chosen
        assert made < ENDLESS, f"the game did not end after {made} moves"
        table.call("POST", "/api/actions", {"action": view["actions"][0], "version": view["version"]}, token=table.seats[seat])
        acknowledged.add(game, seat, view["actions"][0], write_log.stat().st_size)
        made += 1


def _rows_by_seat(actions: dict) -> dict[tuple[int, int], list[tuple[int, int]]]:
    rows: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (game, n), (seat, _, _) in sorted(actions.items()):
        rows.setdefault((game, seat), []).append((game, n))
    return rows

"""Stopping ``companion serve`` with bots seated never hangs: SIGTERM to the whole process
group (as ``systemctl stop`` signals the service's control group, worker processes
included) or to the main process alone ends it, with the bots' and hints' workers idle
after a move and a hint, or in the middle of a long search. No process of the service
outlives its main process. A worker killed under a bot is replaced and the bot moves.

How soon (goal: under 3 s, 20 of 20 tries): ``benchmarks/stops.py``, which runs these
cases again and again; the waits here are bounded far above that, to catch a hang."""

from __future__ import annotations

import os
import select
import signal
from pathlib import Path

import pytest
from test_serve_process import Companion, free_port, log_file, next_version, open_events  # noqa: F401 - log_file is a fixture
from waiting import BOUND_SECONDS, poll_until

SEARCHING_CPU_SECONDS = 0.6
"""Processor time a bot worker has surely spent past its start (about 0.25 s here), in its search."""
CASES = [("group", "idle"), ("main", "idle"), ("group", "thinking"), ("main", "thinking")]


def children(pid: int) -> list[int]:
    """The worker processes ``pid`` started (Linux's /proc), none when it has ended."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):  # a child is listed under the thread that started it
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return sorted(child for child in found if "companion.bots.worker" in _command(child))


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def until_the_server(server: Companion, condition):
    """Wait until ``condition()`` is true (returning what it returned), looking again at each
    new version the server's event stream announces (the stream ends within a minute)."""
    events = open_events(server.port)
    try:
        next_version(events)  # the first event: the stream is open, no later change is missed
        while not (found := condition()):
            next_version(events)
        return found
    finally:
        events.close()


def cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used (user and system, Linux's /proc), 0 once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until_ended(pid: int) -> None:
    """Wait for process ``pid`` (not ours to reap) to end."""
    try:
        ended = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        assert select.select([ended], [], [], BOUND_SECONDS)[0], f"process {pid} did not end"
    finally:
        os.close(ended)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def config(tmp_path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text("[bots]\nstrong_seconds = 60\npause_seconds = 0\n")  # a strong bot searches for a minute
    return path


def bots_at_work(server: Companion, state: str) -> None:
    """Meow Oracle for two: a bot on seat 0 (which starts), Aki on seat 1. ``idle``: the bot
    has moved and Aki has had a hint, so both workers wait, idle; ``thinking``: a strong bot
    searches (its minute in full: SWAP 5's strong bot, once used here, answers its first moves
    at once, so the stop never met a search)."""
    level = "strong" if state == "thinking" else "easy"
    host = server.ok("POST", "/api/game", {"game": "meow-oracle", "players": 2, "seed": 1,
                                           "bots": [{"seat": 0, "level": level}]})["host_token"]
    aki = server.ok("POST", "/api/seats/1/join", {"name": "Aki"}, token=host)["token"]
    if state == "idle":
        until_the_server(server, lambda: server.ok("GET", "/api/view", token=aki)["actions"])  # the bot's move
        assert "action" in server.ok("GET", "/api/hint?seconds=0.1", token=aki)
        assert len(children(server.process.pid)) == 2  # the bot worker and the hint worker
    else:  # a process's children and its processor time announce nothing: looked at every 10 ms
        [worker] = poll_until(lambda: children(server.process.pid), what="the bot worker")
        # It has started (a second of processor time at most) and searches.
        poll_until(lambda: cpu_seconds(worker) >= SEARCHING_CPU_SECONDS, what="the worker's search")


@pytest.mark.parametrize("target, state", CASES)
def test_sigterm_ends_the_service_with_bots_seated(tmp_path, config, log_file, target, state):
    server = Companion(tmp_path / "data", free_port(), log_file, config=config, own_group=True)
    try:
        bots_at_work(server, state)
        stop_and_leave_nothing(server, target, log_file)
    finally:
        kill_what_is_left(server)


def stop_and_leave_nothing(server: Companion, target: str, log_file: Path) -> None:
    """SIGTERM to the service's process ``group`` (as systemd's KillMode=mixed sends it) or its
    ``main`` process alone: it ends cleanly, and nothing of it outlives its main process
    (systemd would kill what did; multiprocessing's resource tracker did, at every stop)."""
    if target == "group":
        os.killpg(server.process.pid, signal.SIGTERM)
    else:
        server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=BOUND_SECONDS) == 0, f"see {log_file}"
    assert not group_alive(server.process.pid), _group(server.process.pid)


def kill_what_is_left(server: Companion) -> None:
    if group_alive(server.process.pid):
        os.killpg(server.process.pid, signal.SIGKILL)
    server.stop(signal.SIGKILL)


def helpers(pid: int) -> list[int]:
    """The search helpers of ``pid``'s bot workers (companion/bots/parallel.py)."""
    found = []
    for worker in children(pid):
        for task in Path(f"/proc/{worker}/task").glob("*"):
            try:
                found += [int(child) for child in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError):
                continue
    return sorted(child for child in found if "companion.bots.helper" in _command(child))


@pytest.mark.parametrize("target", ["group", "main"])
def test_sigterm_ends_the_service_whose_bot_searches_on_three_workers(tmp_path, log_file, target):
    """The bot worker and its two search helpers all thinking: the stop ends the worker, the
    worker its helpers (and waits for them), and none outlives the main process."""
    config = tmp_path / "config.toml"
    config.write_text("[bots]\nstrong_seconds = 60\npause_seconds = 0\nworkers = 3\n")
    server = Companion(tmp_path / "data", free_port(), log_file, config=config, own_group=True)
    try:
        bots_at_work(server, "thinking")
        poll_until(lambda: len(helpers(server.process.pid)) == 2, what="the bot worker's two helpers")
        stop_and_leave_nothing(server, target, log_file)
    finally:
        kill_what_is_left(server)


def _group(pgid: int) -> list[str]:
    """The processes of process group ``pgid``, as ``pid command`` lines."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[2]) == pgid:
            found.append(f"{stat.parent.name} {_command(int(stat.parent.name))!r}")
    return found


def test_a_killed_worker_is_replaced_and_its_bot_moves(tmp_path, log_file):
    config = tmp_path / "config.toml"
    config.write_text("[bots]\nnormal_seconds = 0.3\npause_seconds = 0\n")
    server = Companion(tmp_path / "data", free_port(), log_file, config=config)

    def moves() -> int:
        return server.ok("GET", "/api/view")["game_version"]

    def aki_to_move() -> dict:
        return until_the_server(server, lambda: (view := server.ok("GET", "/api/view", token=aki))["actions"] and view)

    try:
        host = server.ok("POST", "/api/game", {"game": "swap5", "players": 2, "seed": 1,
                                               "bots": [{"seat": 0, "level": "normal"}]})["host_token"]
        aki = server.ok("POST", "/api/seats/1/join", {"name": "Aki"}, token=host)["token"]
        view = aki_to_move()  # the bot has moved: its worker waits, idle
        [worker] = children(server.process.pid)
        os.kill(worker, signal.SIGKILL)
        until_ended(worker)
        poll_until(lambda: worker not in children(server.process.pid), what="the killed worker to be reaped")
        server.ok("POST", "/api/actions", {"action": view["actions"][0], "version": view["version"]}, token=aki)
        [replacement] = poll_until(lambda: children(server.process.pid), what="the replacement worker")
        until_the_server(server, lambda: moves() == 3)  # the bot's move

        # Killed just as the bot's turn comes, mid-question: it asks again at once, and moves.
        view = aki_to_move()
        server.ok("POST", "/api/actions", {"action": view["actions"][0], "version": view["version"]}, token=aki)
        os.kill(replacement, signal.SIGKILL)
        until_the_server(server, lambda: moves() == 5)  # the bot's move after its worker was killed
    finally:
        server.stop(signal.SIGKILL)

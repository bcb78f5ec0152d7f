"""Start-up cost: the processor time ``companion serve`` spends until it tells systemd it is
ready (``READY=1`` on ``$NOTIFY_SOCKET``, ``companion/systemd.py``), with the hardware mocked.

    python benchmarks/startup.py [--runs 5] [--from-source] [--importtime FILE]

Each run starts a fresh ``python -m companion serve --hardware mock`` on an empty data folder
with ``NOTIFY_SOCKET`` naming a socket this script listens on; when ``READY=1`` arrives the
service's user and system time are read from ``/proc/PID/stat`` (what systemd's
``CPUUsageNSec`` counts for the unit: the service has no child process yet), then it is
stopped. Goal (issue 32, point 4): at most 1.5 s here, about 15 s on a Pi Zero 2 W.

Python's bytecode: the installer's ``pip install`` compiles every module once, so the service
never compiles at start. Here the runs read bytecode from a temporary cache
(``PYTHONPYCACHEPREFIX``) that a first, unmeasured start fills; ``--from-source`` measures
instead a start that compiles every module of the worktree (as with
``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__``). ``--importtime FILE`` also writes one
run's ``python -X importtime`` report to FILE.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
READY_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def processor_seconds(pid: int) -> tuple[float, float]:
    """User and system seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS  # utime, stime (fields 14 and 15)


def one_start(bytecode: str | None, python_options: list[str] | None = None, stderr=subprocess.DEVNULL) -> dict:
    """Start the service once, with its bytecode cached in folder ``bytecode`` (None: compiled
    from source); its processor and wall time until READY=1."""
    with tempfile.TemporaryDirectory() as folder:
        notify_path = os.path.join(folder, "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(notify_path)
            notify.settimeout(READY_SECONDS)
            env = {k: v for k, v in os.environ.items()
                   if k not in ("COMPANION_CONFIG", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
            env["NOTIFY_SOCKET"] = notify_path
            if bytecode is None:
                env["PYTHONDONTWRITEBYTECODE"] = "1"
                env["PYTHONPYCACHEPREFIX"] = folder  # empty: nothing of the worktree's is found compiled
            else:
                env["PYTHONPYCACHEPREFIX"] = bytecode
            began = time.perf_counter()
            process = subprocess.Popen(
                [sys.executable, *(python_options or []), "-m", "companion", "serve", "--data",
                 os.path.join(folder, "data"), "--host", "127.0.0.1", "--port", str(free_port()),
                 "--hardware", "mock", "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
            )
            try:
                while b"READY=1" not in notify.recv(4096):
                    pass
                wall = time.perf_counter() - began
                user, system = processor_seconds(process.pid)
            finally:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    return {"user": user, "system": system, "cpu": user + system, "wall": wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--from-source", action="store_true", help="compile every module at each start")
    parser.add_argument("--importtime", help="write one run's `python -X importtime` report to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        bytecode = None if args.from_source else cache
        one_start(bytecode)  # fills the bytecode cache, and the page cache: not measured
        runs = [one_start(bytecode) for _ in range(args.runs)]
        if args.importtime:
            with open(args.importtime, "w") as report:
                one_start(bytecode, ["-X", "importtime"], stderr=report)
    for number, run in enumerate(runs, 1):
        print(f"run {number}: processor {run['cpu']:.2f} s (user {run['user']:.2f}, system {run['system']:.2f}), "
              f"wall {run['wall']:.2f} s")
    cpu = [run["cpu"] for run in runs]
    print(f"{'compiled from source' if args.from_source else 'with bytecode'}: processor time until READY: median {statistics.median(cpu):.2f} s, min {min(cpu):.2f}, max {max(cpu):.2f} "
          f"(goal <= 1.5 s); wall median {statistics.median(run['wall'] for run in runs):.2f} s")
    if args.importtime:
        print(f"import times: {args.importtime}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

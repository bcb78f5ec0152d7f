"""Benchmark: how long ``companion serve`` takes to stop while a hint is being thought (issue #33,
point 11: "under 3 s every time, the hint answering 503 at once").

    python benchmarks/stop_with_hint.py [--tries 8]

Each try starts ``companion serve`` on a fresh data directory, starts Meow Oracle for two (whose
hints think their whole budget), asks one short hint for the seat to move (so the hint worker
has started), then asks a hint of 5 s and,
1 s into its thinking, sends SIGTERM to the service. Printed: the time from the signal to the
process's end, and how the hint's request was answered (status and how long after the signal).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 3.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port: int, method: str, path: str, body=None, token=None, timeout: float = 30) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"X-Requested-With": "companion"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def one_try(scratch: Path, attempt: int) -> tuple[float, str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    with open(scratch / "serve.log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--data", str(scratch / f"data{attempt}"), "--host", "127.0.0.1",
             "--port", str(port), "--hardware", "mock", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(port, "GET", "/api/ping")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("companion serve did not start")
            time.sleep(0.1)
        status, game = request(port, "POST", "/api/game", {"game": "meow-oracle", "players": 2, "seed": 1})
        tokens = [request(port, "POST", f"/api/seats/{seat}/join", {"name": name}, token=game["host_token"])[1]["token"]
                  for seat, name in enumerate(["Aki", "Ben"])]
        aki = next(token for token in tokens if request(port, "GET", "/api/view", token=token)[1]["actions"])
        assert request(port, "GET", "/api/hint?seconds=0.1", token=aki)[0] == 200  # the hint worker is up
        answer = {}

        def ask():
            try:
                answer["status"] = request(port, "GET", "/api/hint?seconds=5", token=aki)[0]
            except OSError as error:
                answer["status"] = f"no answer ({type(error).__name__})"
            answer["at"] = time.monotonic()

        asking = threading.Thread(target=ask)
        asking.start()
        time.sleep(1.0)  # the hint is being thought
        began = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        took = time.monotonic() - began
        asking.join(timeout=30)
        return took, f"{answer.get('status')} after {answer['at'] - began:.2f} s" if "at" in answer else "no answer"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=8)
    args = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as scratch:
        for attempt in range(args.tries):
            took, hint = one_try(Path(scratch), attempt)
            times.append(took)
            print(f"try {attempt + 1}: stopped in {took:.2f} s; the hint answered {hint}", flush=True)
    print(f"stops: {', '.join(f'{t:.2f}' for t in sorted(times))} s; slowest {max(times):.2f} s (goal: under {GOAL_SECONDS} s)")
    return 0 if max(times) < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())

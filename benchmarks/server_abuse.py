"""HTTP benchmark: is a phone still answered while other clients hog the server?

    python benchmarks/server_abuse.py [--requests 200]

Runs the real ``companion serve`` on loopback (see ``server_latency.py``) and measures
``GET /api/ping`` on a new connection from 127.0.0.1 (a phone waking up) while:

1. nothing else happens (the baseline);
2. one device (127.0.0.2) holds 100 idle connections and tries to open 40 event streams,
   another (127.0.0.3) tries 40 streams alone;
3. ten devices (127.0.1.1-10) together hold 100 idle connections and try 40 streams each;
4. nine phones reload their page over and over: close their stream, open a new one.

For each it prints the latency (p50, p99, max) and how many connections and streams the
server accepted. Linux routes all of 127/8 to the loopback interface, which gives the
"devices" their own addresses.
"""

from __future__ import annotations

import argparse
import re
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from server_latency import free_port, percentile, start_server

IDLE = 100
STREAMS = 40


def connect(port: int, source: str) -> socket.socket | None:
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    except OSError:
        return None


def alive(sock: socket.socket) -> bool:
    """Whether the server has kept this connection open (a closed one reads as EOF at once)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def open_stream(port: int, source: str) -> tuple[socket.socket | None, bool]:
    """A stream from ``source``: (its socket, whether the server accepted it)."""
    sock = connect(port, source)
    if sock is None:
        return None, False
    try:
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while not re.search(rb"retry: \d+\n\n", received):
            chunk = sock.recv(4096)
            if not chunk:
                return sock, False
            received += chunk
        return sock, b"retry: 1000" in received
    except OSError:
        return sock, False


def ping_times(port: int, requests: int) -> list[float]:
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.0.1", 0)) as sock:
            sock.sendall(b"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            while sock.recv(4096):
                pass
        times.append(time.perf_counter() - started)
    return times


def report(name: str, times: list[float], note: str = "") -> None:
    print(f"{name:<44}{percentile(times, 0.5) * 1000:8.2f}{percentile(times, 0.99) * 1000:8.2f}"
          f"{max(times) * 1000:9.2f}  {note}")


def hog(port: int, sources: list[str], idle: int = IDLE) -> tuple[list[socket.socket], str]:
    """``idle`` connections, then STREAMS streams from each of ``sources``; what the server accepted."""
    held, streams_kept = [], 0
    for n in range(idle):
        sock = connect(port, sources[n % len(sources)])
        if sock is not None:
            held.append(sock)
    time.sleep(0.5)  # let the server accept (or refuse) them all
    idle_kept = sum(alive(sock) for sock in held)
    for source in sources:
        for _ in range(STREAMS):
            sock, accepted = open_stream(port, source)
            if sock is not None:
                held.append(sock)
            streams_kept += accepted
    return held, f"idle kept {idle_kept}/{idle}, streams accepted {streams_kept}/{STREAMS * len(sources)}"


def reloading_phones(port: int, stop: threading.Event, counts: dict) -> None:
    """Nine phones, each closing its stream and opening a new one as fast as it can."""
    def phone(source: str) -> None:
        sock = None
        while not stop.is_set():
            if sock is not None:
                sock.close()
            sock, accepted = open_stream(port, source)
            counts["accepted" if accepted else "refused"] += 1
            time.sleep(0.2)
        if sock is not None:
            sock.close()

    for n in range(9):
        threading.Thread(target=phone, args=(f"127.0.2.{n + 1}",), daemon=True).start()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="pings per measurement (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as data:
        port = free_port()
        server = start_server(Path(data), port)
        try:
            print(f"GET /api/ping from 127.0.0.1 on a new connection; {args.requests} requests per line")
            print(f"{'':<44}{'p50 ms':>8}{'p99 ms':>8}{'max ms':>9}")
            report("nothing else", ping_times(port, args.requests))
            held, note = hog(port, ["127.0.0.2"])
            report("one device: 100 idle + 40 streams", ping_times(port, args.requests), note)
            streams, note = hog(port, ["127.0.0.3"], idle=0)
            report("one device: 40 streams", ping_times(port, args.requests), note)
            held += streams
            held2, note = hog(port, [f"127.0.1.{n}" for n in range(1, 11)])
            report("ten devices: 100 idle + 40 streams each", ping_times(port, args.requests), note)
            for sock in held + held2:
                sock.close()
            time.sleep(2)  # closed streams free their threads within a second or so
            stop, counts = threading.Event(), {"accepted": 0, "refused": 0}
            reloading_phones(port, stop, counts)
            times = ping_times(port, args.requests)
            stop.set()
            report("nine phones reloading every 0.2 s", times,
                   f"streams accepted {counts['accepted']}, refused {counts['refused']}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

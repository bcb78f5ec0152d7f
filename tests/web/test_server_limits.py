"""The real server (waitress, as ``companion serve`` runs it) under abuse from one device.

No number of idle connections, slow senders or event streams from one address keeps
another phone's request from being answered within a second; a closed stream frees its
thread within two; an oversized body is refused before it is read.

The abusers connect from other loopback addresses (127.0.0.2 ...: Linux routes all of
127/8 to the loopback interface), the phone that must still be served from 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time

import pytest

from companion.serve import CONNECTIONS_PER_ADDRESS, Server
from web import create_app
from web.events import MAX_STREAMS, STREAMS_PER_ADDRESS

ABUSER = "127.0.0.2"
ANSWER_SECONDS = 1.0
REQUEST_SECONDS = 1.0  # the slow-sender limit, shortened for the test


@pytest.fixture
def server(table):
    # Keep-alives as in production (20 s), so only noticing the closed connection frees a stream.
    app = create_app(table, stream_seconds=60.0)
    server = Server(app, "127.0.0.1", 0, request_seconds=REQUEST_SECONDS)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.stop()
    assert server.wait_stopped(timeout=10)
    thread.join(timeout=10)


def connect(server: Server, source: str = ABUSER) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))


def ping_seconds(server: Server) -> float:
    """How long a phone at 127.0.0.1 waits for ``GET /api/ping`` on a new connection."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=("127.0.0.1", 0))
    started = time.perf_counter()
    try:
        connection.request("GET", "/api/ping")
        response = connection.getresponse()
        assert response.status == 200 and json.loads(response.read()) == {"ok": True}
        return time.perf_counter() - started
    finally:
        connection.close()


def closed_by_server(sockets: list[socket.socket], timeout: float, enough: int) -> list[socket.socket]:
    """The sockets the server closes (each reads as end-of-file or reset) within ``timeout``,
    or by the time ``enough`` of them are."""
    closed, waiting = [], list(sockets)
    deadline = time.monotonic() + timeout
    while waiting and len(closed) < enough and time.monotonic() < deadline:
        readable, _, _ = select.select(waiting, [], [], deadline - time.monotonic())
        for sock in readable:
            try:
                data = sock.recv(1024)
            except ConnectionError:
                data = b""
            if not data:
                closed.append(sock)
            waiting.remove(sock)
    return closed


def wait_for(condition, timeout: float) -> bool:
    """Whether ``condition()`` comes true within ``timeout`` seconds (checked every 20 ms)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    received = b""
    while marker not in received:
        chunk = sock.recv(4096)
        if not chunk:
            raise AssertionError(f"the server closed the connection before {marker!r}: {received!r}")
        received += chunk
    return received


def open_stream(server: Server, source: str) -> tuple[socket.socket, bool]:
    """An event stream from ``source``; True when it was accepted, False when the server
    answered "come back in 5 s" (``retry: 5000``) and ended it."""
    sock = connect(server, source)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = read_until(sock, b"\n\n")
    assert b" 200 " in received.split(b"\r\n", 1)[0] and b"text/event-stream" in received
    return sock, b"retry: 1000\n\n" in received


def test_idle_connections_from_one_address_leave_other_phones_served(server):
    idle = [connect(server) for _ in range(120)]
    try:
        # Everything beyond the per-address cap is closed at once, not left queueing.
        refused = len(idle) - CONNECTIONS_PER_ADDRESS
        assert len(closed_by_server(idle, timeout=2, enough=refused + 1)) == refused
        assert ping_seconds(server) < ANSWER_SECONDS
    finally:
        for sock in idle:
            sock.close()


def test_a_slow_sender_is_cut_off_and_an_idle_connection_is_not(server):
    slow, idle = connect(server), connect(server)
    try:
        slow.sendall(b"GET /api/pi")  # ... and nothing more
        started = time.monotonic()
        assert closed_by_server([slow, idle], timeout=REQUEST_SECONDS + 4, enough=1) == [slow]
        assert time.monotonic() - started >= REQUEST_SECONDS
        idle.sendall(b"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in read_until(idle, b'{"ok":true}')
    finally:
        slow.close()
        idle.close()


@pytest.mark.parametrize("declared", [16 * 1024 + 1, 1_000_000_000])
def test_a_body_declared_over_the_limit_is_refused_before_it_is_read(server, declared):
    sock = connect(server, "127.0.0.1")
    try:
        sock.sendall(b"POST /api/seats/0/join HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Requested-With: companion\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % declared)
        started = time.perf_counter()
        answer = read_until(sock, b"}")
        assert time.perf_counter() - started < ANSWER_SECONDS
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413 ") and b"application/json" in head
        assert "too large" in json.loads(body)["error"]
    finally:
        sock.close()


def test_a_chunked_body_is_cut_off_at_the_limit(server, table):
    sock = connect(server, "127.0.0.1")
    try:
        sock.sendall(b"POST /api/host/claim HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Requested-With: companion\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"1000\r\n" + b" " * 4096 + b"\r\n"
        for _ in range(5):  # 20 KiB and no last chunk: the server must not wait for the rest
            sock.sendall(chunk)
        answer = read_until(sock, b"}")
        assert answer.startswith(b"HTTP/1.1 413 ")
        assert closed_by_server([sock], timeout=2, enough=1) == [sock]
        assert not table.has_host
    finally:
        sock.close()


def test_streams_are_capped_per_address_and_in_all_and_requests_still_answered(server):
    streams = []
    try:
        from_one = [open_stream(server, ABUSER) for _ in range(STREAMS_PER_ADDRESS + 4)]
        streams += [sock for sock, _ in from_one]
        assert [accepted for _, accepted in from_one] == [True] * STREAMS_PER_ADDRESS + [False] * 4
        assert ping_seconds(server) < ANSWER_SECONDS
        # Many addresses together cannot take every thread either.
        many = [open_stream(server, f"127.0.1.{n}") for n in range(1, 11) for _ in range(STREAMS_PER_ADDRESS)]
        streams += [sock for sock, _ in many]
        assert server.app.extensions["companion"].events.open_streams == MAX_STREAMS
        assert ping_seconds(server) < ANSWER_SECONDS
    finally:
        for sock in streams:
            sock.close()


def test_a_stream_the_client_closed_frees_its_thread_within_two_seconds(server):
    threads = server._waitress.task_dispatcher  # counts the worker threads not waiting for work
    assert wait_for(lambda: threads.active_count == 0, timeout=5)  # all started and idle
    sock, accepted = open_stream(server, ABUSER)
    assert accepted and threads.active_count == 1
    sock.close()
    closed_at = time.monotonic()
    assert wait_for(lambda: threads.active_count == 0, timeout=5)
    assert time.monotonic() - closed_at < 2.0
    assert server.app.extensions["companion"].events.open_streams == 0

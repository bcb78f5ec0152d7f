"""The real server (waitress, as ``companion serve`` runs it) under abuse from one device.

No number of idle connections, slow senders or event streams from one address keeps
another phone's request from being answered; a closed stream frees its thread; an
oversized body is refused before it is read. How soon: benchmarks/server_abuse.py (the
waits here are bounded well under the streams' 60 s, which would free every thread).

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
from waiting import poll_until

from companion.serve import CONNECTIONS_PER_ADDRESS, Server
from web import create_app
from web.events import MAX_STREAMS, STREAMS_PER_ADDRESS

ABUSER = "127.0.0.2"
ANSWER_SECONDS = 30.0
"""A phone's request held longer waits for a stream's end (60 s): the server has no thread for it."""
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


def phone_answered(server: Server) -> bool:
    """Whether a phone at 127.0.0.1 gets ``GET /api/ping`` answered on a new connection
    (within ANSWER_SECONDS: beyond, no thread of the server was free for it)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_SECONDS,
                                            source_address=("127.0.0.1", 0))
    try:
        connection.request("GET", "/api/ping")
        response = connection.getresponse()
        return response.status == 200 and json.loads(response.read()) == {"ok": True}
    finally:
        connection.close()


def closed_by_server(sockets: list[socket.socket], timeout: float, enough: int) -> list[socket.socket]:
    """The sockets the server closes (each reads as end-of-file or reset) within ``timeout``,
    or by the time ``enough`` of them are."""
    closed, waiting = [], list(sockets)
    deadline = time.monotonic() + timeout
    while waiting and len(closed) < enough:
        readable, _, _ = select.select(waiting, [], [], max(0.0, deadline - time.monotonic()))
        if not readable:
            break
        for sock in readable:
            try:
                data = sock.recv(1024)
            except ConnectionError:
                data = b""
            if not data:
                closed.append(sock)
            waiting.remove(sock)
    return closed


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
        closed = closed_by_server(idle, timeout=ANSWER_SECONDS, enough=refused)
        assert len(closed) == refused
        # ... and those within the cap are kept: none has been closed by now.
        assert closed_by_server([sock for sock in idle if sock not in closed], timeout=0, enough=1) == []
        assert phone_answered(server)
    finally:
        for sock in idle:
            sock.close()


def test_a_slow_sender_is_cut_off_and_an_idle_connection_is_not(server):
    slow, idle = connect(server), connect(server)
    try:
        slow.sendall(b"GET /api/pi")  # ... and nothing more
        started = time.monotonic()
        assert closed_by_server([slow, idle], timeout=REQUEST_SECONDS + ANSWER_SECONDS, enough=1) == [slow]
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
        answer = read_until(sock, b"}")  # at once: a server waiting for the body would cut the slow sender off
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
        assert closed_by_server([sock], timeout=ANSWER_SECONDS, enough=1) == [sock]
        assert not table.has_host
    finally:
        sock.close()


def test_streams_are_capped_per_address_and_in_all_and_requests_still_answered(server):
    streams = []
    try:
        from_one = [open_stream(server, ABUSER) for _ in range(STREAMS_PER_ADDRESS + 4)]
        streams += [sock for sock, _ in from_one]
        assert [accepted for _, accepted in from_one] == [True] * STREAMS_PER_ADDRESS + [False] * 4
        assert phone_answered(server)
        # Many addresses together cannot take every thread either.
        many = [open_stream(server, f"127.0.1.{n}") for n in range(1, 11) for _ in range(STREAMS_PER_ADDRESS)]
        streams += [sock for sock, _ in many]
        assert server.app.extensions["companion"].events.open_streams == MAX_STREAMS
        assert phone_answered(server)
    finally:
        for sock in streams:
            sock.close()


def test_a_stream_the_client_closed_frees_its_thread(server):
    # A thread's return to the pool announces nothing: looked at every 10 ms, until well
    # before the stream's own end (60 s) would free it anyway.
    poll_until(lambda: server.busy_threads == 0, seconds=ANSWER_SECONDS, what="the threads to start")
    sock, accepted = open_stream(server, ABUSER)
    assert accepted and server.busy_threads == 1
    sock.close()
    poll_until(lambda: server.busy_threads == 0, seconds=ANSWER_SECONDS, what="the stream's thread to be freed")
    assert server.app.extensions["companion"].events.open_streams == 0

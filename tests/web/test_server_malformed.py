"""Malformed requests against the real server (waitress, as ``companion serve`` runs it), over
raw sockets: each is answered 400, and the log gets at most one short line, rate-limited
(issue 23 point 13: before, the error handler crashed with two tracebacks and no answer, and
numbers over 4,300 digits answered 500 with a traceback)."""

from __future__ import annotations

import logging
import socket
import ssl
import threading

import pytest

from companion import serve
from companion.serve import Server
from web import create_app

HUGE = "9" * 5000


def tls_hello() -> bytes:
    """The first bytes a browser sends to an https:// address."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    client = context.wrap_bio(incoming, outgoing, server_hostname="localhost")
    with pytest.raises(ssl.SSLWantReadError):
        client.do_handshake()
    return outgoing.read()


def request(path: str, *headers: bytes) -> bytes:
    return b"\r\n".join([f"GET {path} HTTP/1.1".encode(), b"Host: localhost", *headers, b"", b""])


MALFORMED = {
    "header without a colon": request("/api/ping", b"NoColonHere"),
    "header without a colon, not under /api": request("/", b"NoColonHere"),
    "NUL in a header": request("/api/ping", b"X-Name: a\x00b"),
    "TLS hello": tls_hello(),
    "limit of 5,000 digits": request(f"/api/plays?limit={HUGE}"),
    "before of 5,000 digits": request(f"/api/plays?before={HUGE}"),
    "step of 5,000 digits": request(f"/api/plays/1/replay?step={HUGE}"),
    "replay page of a 5,000-digit id": request(f"/replay/{HUGE}"),
}


@pytest.fixture
def server(table):
    server = Server(create_app(table), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.stop()
    assert server.wait_stopped(timeout=10)
    thread.join(timeout=10)


def answer(server: Server, payload: bytes) -> bytes:
    """The whole answer to ``payload`` (the server closes the connection after a refusal;
    a well-formed request is answered and the connection kept, so read up to the body)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
        connection.sendall(payload)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        return received


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_request_is_answered_400_with_one_short_line(server, caplog, monkeypatch, name):
    monkeypatch.setattr(serve, "refusals", serve.RefusalLog())  # this test's own rate limit
    caplog.set_level(logging.INFO)
    received = answer(server, MALFORMED[name])
    assert received.split(b"\r\n", 1)[0] in (b"HTTP/1.0 400 Bad Request", b"HTTP/1.1 400 BAD REQUEST"), received[:200]
    # waitress warns "Task queue depth is 1" when a request arrives before a worker thread is
    # back to waiting, as can happen just after the server starts: a line about load, not about
    # this request, so it is not counted.
    about_the_request = [record for record in caplog.records if record.name != "waitress.queue"]
    assert not any(record.exc_info for record in caplog.records), caplog.text
    assert len(about_the_request) <= 1 and all(len(record.getMessage()) <= 250 for record in about_the_request), caplog.text


class Clock:
    """Monotonic seconds the test moves."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_refusals_are_logged_once_per_period_with_the_count_left_out(server, caplog, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(serve, "refusals", serve.RefusalLog(seconds=3600, clock=clock))
    caplog.set_level(logging.INFO)
    for _ in range(20):
        assert answer(server, MALFORMED["NUL in a header"]).startswith(b"HTTP/1.0 400")
    refused = [record for record in caplog.records if "malformed" in record.getMessage()]
    assert len(refused) == 1 and not any(record.exc_info for record in caplog.records)
    clock.now += 3600  # the period is over
    answer(server, MALFORMED["TLS hello"])
    assert "19 more not logged" in caplog.records[-1].getMessage()


def test_a_long_path_is_logged_short(caplog):
    caplog.set_level(logging.INFO)
    logging.getLogger("waitress").addFilter(serve.short_lines)
    logging.getLogger("waitress").info("Client disconnected while serving %s", "/replay/" + HUGE)
    assert len(caplog.records[-1].getMessage()) <= serve.LOG_LINE_CHARS + 1

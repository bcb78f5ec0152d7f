"""The event stream ``GET /api/events`` through Flask's test client.

The stream is read chunk by chunk (the app's generator runs as we pull), so these tests
see exactly what a browser's EventSource would, in order. The app fixture sets a 0.2 s
heartbeat and a 2 s stream life.
"""

from __future__ import annotations

import time

import pytest
from waiting import BOUND_SECONDS

from web import create_app


def open_stream(client, last_event_id=None):
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    response = client.get("/api/events", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 1000\n\n"
    assert next(chunks) == heartbeat(0.2), "a page learns at once how often to expect a word"
    return response, chunks


def heartbeat(every):
    return f'event: heartbeat\ndata: {{"every": {every}}}\n\n'.encode()


def event(version):
    return f'id: {version}\ndata: {{"version": {version}}}\n\n'.encode()


def test_a_new_stream_gets_the_current_version_at_once(client, table):
    response, chunks = open_stream(client)
    assert next(chunks) == event(table.version)
    response.close()


def test_a_change_is_announced_with_the_version_only(api, table):
    response, chunks = open_stream(api.client)
    next(chunks)
    api.post("/api/host/claim")  # a change: the version moves
    assert next(chunks) == event(table.version)
    response.close()


def test_a_stream_resumed_at_the_current_version_waits_with_heartbeats(client, table):
    response, chunks = open_stream(client, last_event_id=table.version)
    started = time.monotonic()
    assert next(chunks) == heartbeat(0.2)
    assert next(chunks) == heartbeat(0.2)
    assert time.monotonic() - started >= 0.3, "heartbeats come every 0.2 s, not back to back"
    response.close()


@pytest.mark.parametrize("missed", [1, -3])
def test_a_resumed_stream_that_missed_a_change_or_is_from_elsewhere_gets_the_version(api, table, missed):
    api.post("/api/host/claim")
    response, chunks = open_stream(api.client, last_event_id=table.version - missed)
    assert next(chunks) == event(table.version)
    response.close()


def test_versions_coalesce_for_a_stream_that_fell_behind(api, table):
    response, chunks = open_stream(api.client)
    next(chunks)
    host = api.post("/api/game", {"game": "lion-square", "players": 3}).json["host_token"]
    api.post("/api/seats/0/join", {"name": "Aki"}, token=host)
    assert next(chunks) == event(table.version)  # one event for the three changes
    response.close()


def test_a_malformed_last_event_id_is_refused(client):
    response = client.get("/api/events", headers={"Last-Event-ID": "seven"})
    assert response.status_code == 400 and "Last-Event-ID" in response.json["error"]


def test_streams_end_when_the_server_stops_and_new_ones_are_refused(app, client):
    response, chunks = open_stream(client)
    next(chunks)
    app.extensions["companion"].events.stop()
    assert list(chunks) == []
    refused = client.get("/api/events")
    assert refused.status_code == 503 and "shutting down" in refused.json["error"]
    response.close()


def test_a_stream_ends_after_its_life_so_the_browser_reconnects(table):
    app = create_app(table, keepalive_seconds=0.05, stream_seconds=0.3)
    try:
        response = app.test_client().get("/api/events", buffered=False)
        chunks = list(response.response)  # returns: the stream ended by itself
        assert chunks[:3] == [b"retry: 1000\n\n", heartbeat(0.05), event(table.version)]
        assert set(chunks[3:]) == {heartbeat(0.05)}
    finally:
        app.extensions["companion"].events.stop()


def test_a_stream_over_the_per_address_cap_is_told_to_come_back_later(app):
    hub = app.extensions["companion"].events
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.168.1.29"
    opened = [open_stream(client) for _ in range(hub.streams_per_address)]
    busy = client.get("/api/events", buffered=False)
    assert busy.status_code == 200 and busy.mimetype == "text/event-stream"  # EventSource retries only after a 200
    # and ends at once, promising a word within 5 s: the page does not take the wait for a drop
    assert list(busy.response) == [b"retry: 5000\n\n", heartbeat(5.0)]
    other = app.test_client().get("/api/events", buffered=False, environ_base={"REMOTE_ADDR": "192.168.1.30"})
    assert next(iter(other.response)) == b"retry: 1000\n\n"  # another phone still gets its stream
    other.close()
    opened[0][0].close()  # closing a stream gives its place back
    response, _ = open_stream(client)
    response.close()
    for response, _ in opened[1:]:
        response.close()
    assert hub.open_streams == 0


def test_a_stream_ends_soon_after_its_client_has_gone(table):
    from web.events import EventHub

    # Ten minutes between heartbeats and to the stream's end: only the check of the client
    # (every CLIENT_CHECK_SECONDS) can end it within the bound below (a hang guard, far above
    # the check's half second, not a speed figure).
    hub = EventHub(table, keepalive_seconds=600, stream_seconds=600)
    gone = False
    chunks = hub.stream(table.version, "192.168.1.30", lambda: gone)
    assert next(chunks) == "retry: 1000\n\n" and hub.open_streams == 1
    assert next(chunks) == heartbeat(600).decode()
    gone = True
    started = time.monotonic()
    assert list(chunks) == []
    assert time.monotonic() - started < BOUND_SECONDS
    assert hub.open_streams == 0
    hub.stop()


def test_the_machine_itself_has_no_per_address_cap_but_the_total_holds(app, client):
    """A browser on the Pi (and the tests' browsers playing several phones) come from 127.0.0.1."""
    hub = app.extensions["companion"].events
    opened = [open_stream(client) for _ in range(hub.max_streams)]
    busy = client.get("/api/events", buffered=False)
    assert list(busy.response) == [b"retry: 5000\n\n", heartbeat(5.0)]
    for response, _ in opened:
        response.close()


def test_a_stream_makes_its_phone_present_and_passes_hosting_when_the_host_is_gone(table):
    """The stream feeds companion.presence with its page's tokens, and every stream keeps a host."""
    from companion.presence import GONE_SECONDS, Presence
    from web.events import EventHub

    now = [0.0]
    presence = Presence(table, clock=lambda: now[0])
    hub = EventHub(table, keepalive_seconds=60, stream_seconds=60, presence=presence)
    table.start_game("meow-oracle", 2, seed=1)
    aki, bo = table.join(0, "Aki"), table.join(1, "Bo")
    table.hand_over_host(0)
    gone = {"aki": False, "bo": False}
    aki_stream = hub.stream(table.version, "192.168.1.30", lambda: gone["aki"], (aki,))
    bo_stream = hub.stream(table.version, "192.168.1.31", lambda: gone["bo"], (bo,))
    next(aki_stream), next(bo_stream)  # retry
    next(aki_stream), next(bo_stream)  # heartbeat
    assert presence.present_people() == [0, 1]
    gone["aki"] = True
    assert list(aki_stream) == []  # Aki's phone closed: its stream ends
    now[0] += 2 * GONE_SECONDS
    assert presence.present_people() == [1] and table.is_host(aki)
    version = table.version
    assert next(bo_stream) == f"id: {version + 1}\ndata: {{\"version\": {version + 1}}}\n\n", \
        "Bo's stream woke, passed hosting and told of it"
    assert table.is_host(bo) and table.host_seat == 1
    gone["bo"] = True
    list(bo_stream)
    hub.stop()

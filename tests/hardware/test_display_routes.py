"""The web's mirror of the panel: /display, the frame as PNG and text, mock button presses."""

from __future__ import annotations

import io
import signal
import socket
import subprocess
import urllib.request

import pytest
from PIL import Image
from serving import serve_command, serving

from web import create_app

CSRF = {"X-Requested-With": "companion"}


@pytest.fixture
def client(make_panel, table):
    panel = make_panel()
    app = create_app(table, panel=panel)
    yield app.test_client(), panel
    app.extensions["companion"].events.stop()


def test_the_display_page_has_the_frame_and_the_mock_buttons(client):
    web, panel = client
    page = web.get("/display").get_data(as_text=True)
    assert 'src="/api/display.png"' in page
    for name in panel.button_names:
        assert f'data-button="{name}"' in page


def test_the_frame_is_a_png_of_the_display_and_unchanged_frames_cost_a_304(client):
    web, panel = client
    answer = web.get("/api/display.png")
    image = Image.open(io.BytesIO(answer.data))
    assert answer.mimetype == "image/png" and image.size == (128, 64)
    assert web.get("/api/display.png", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304


def test_a_pressed_button_changes_the_frame_and_its_text(client):
    web, panel = client
    before = web.get("/api/display.png").headers["ETag"]
    answer = web.post("/api/buttons/ok", json={"press": "short"}, headers=CSRF)
    assert answer.status_code == 200 and answer.json["pressed"] == "ok"
    assert panel.settle()
    assert web.get("/api/display.txt").get_data(as_text=True).splitlines()[0] == "Menu"
    assert web.get("/api/display.png").headers["ETag"] != before
    assert web.post("/api/buttons/back", json={"press": "long"}, headers=CSRF).status_code == 200
    assert panel.settle()
    assert web.get("/api/display.txt").get_data(as_text=True).splitlines()[0] == "192.168."  # the join link


@pytest.mark.parametrize("name, body, headers, status, words", [
    ("fire", {"press": "short"}, CSRF, 404, "there is no 'fire' button"),
    ("ok", {"press": "double"}, CSRF, 400, '"press" must be "short" or "long"'),
    ("ok", {"press": "short", "times": 2}, CSRF, 400, "unknown field 'times'"),
    ("ok", ["short"], CSRF, 400, "must be a JSON object"),
    ("ok", {"press": "short"}, {}, 403, "X-Requested-With"),
])
def test_bad_presses_are_refused_and_press_nothing(client, name, body, headers, status, words):
    web, panel = client
    frame = panel.frame_number
    answer = web.post(f"/api/buttons/{name}", json=body, headers=headers)
    assert answer.status_code == status and words in answer.json["error"]
    assert answer.json["error_ja"] and answer.json["error_ja"] != answer.json["error"]
    assert panel.settle() and panel.frame_number == frame


def test_real_buttons_cannot_be_pressed_from_the_web(table):
    class RealPanel:
        is_mock = False
        button_names = ["up", "down", "ok", "back"]
        frame_number = 1

        def press(self, name, kind):
            raise AssertionError("a real panel must not be pressed")

    app = create_app(table, panel=RealPanel())
    answer = app.test_client().post("/api/buttons/ok", json={"press": "short"}, headers=CSRF)
    assert answer.status_code == 409 and "mock" in answer.json["error"]
    app.extensions["companion"].events.stop()


def test_without_a_panel_there_is_no_display_route(table):
    app = create_app(table)
    assert app.test_client().get("/api/display.png").status_code == 404
    app.extensions["companion"].events.stop()


def test_serve_runs_the_panel_and_sigterm_stops_it(tmp_path):
    """How long the stop takes: benchmarks/stops.py (a wait bounded here, not a speed claim)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = serve_command("--data", str(tmp_path), "--host", "127.0.0.1", "--port", str(port), "--hardware", "mock",
                            "--log-level", "info")
    with serving(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/display.txt", timeout=30).read().decode()
        assert "/J/" in text  # the idle screen's join link
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert "SIGTERM received" in process.stdout.read().decode()


def test_only_the_host_presses_the_buttons_from_another_device(client, table):
    """The buttons can undo and start games: from another phone only the host may press them."""
    web, panel = client
    host = table.start_game("pig-house", 2, seed=1, claim_host=True)
    seat = table.join(0, "Ann")
    away = {"REMOTE_ADDR": "192.168.1.30"}
    answer = web.post("/api/buttons/ok", json={"press": "short"}, headers=CSRF, environ_base=away)
    assert answer.status_code == 403 and "only the host" in answer.json["error"]
    answer = web.post("/api/buttons/ok", json={"press": "short"}, environ_base=away,
                      headers={**CSRF, "Authorization": f"Bearer {seat}"})
    assert answer.status_code == 403
    answer = web.post("/api/buttons/ok", json={"press": "short"}, environ_base=away,
                      headers={**CSRF, "Authorization": f"Bearer {host}"})
    assert answer.status_code == 200
    assert web.post("/api/buttons/back", json={"press": "short"}, headers=CSRF).status_code == 200  # this machine

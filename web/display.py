"""The OLED panel's mirror in the browser: ``/display`` and its ``/api`` routes.

Registered by :func:`web.create_app` only when it is given a panel. The web never imports
``hardware``: it uses the panel object through these members alone (``hardware/panel.py``
provides them)::

    panel.is_mock          True when the buttons are gpiozero mock pins (no Pi)
    panel.button_names     the buttons it has, e.g. ["up", "down", "ok", "back"]
    panel.frame_number     grows with every new frame
    panel.frame_png()      the current frame as PNG bytes (the display's own size)
    panel.text_lines()     the lines of text the frame shows
    panel.press(name, kind)  press a button through its mock pin: kind "short" or "long"
    panel.buttons_problem  why the buttons could not be opened (its ``en``/``ja``), or None;
                           read by ``web.pages`` for this page and the host's

Routes:

- ``GET /display`` -- the frame at 4x, with buttons that press the mock pins (mock mode);
  the arrow keys, Enter and Escape press up/down/left/right, ok and back;
- ``GET /api/display.png`` -- the current frame (``ETag`` is the frame number, so polling
  an unchanged display costs a 304);
- ``GET /api/display.txt`` -- its text, one line per line;
- ``POST /api/buttons/<name>`` with ``{"press": "short"}`` or ``{"press": "long"}`` -- mock
  mode only (409 otherwise); like every state-changing API call it needs the header
  ``X-Requested-With: companion``.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from . import auth
from .pages import render_page

blueprint = Blueprint("display", __name__)

PRESS_KINDS = ("short", "long")


def _panel():
    return current_app.extensions["companion"].panel


def _from_this_machine() -> bool:
    return request.remote_addr in ("127.0.0.1", "::1")


def _refuse(status: int, en: str, ja: str) -> Response:
    """A refusal in both languages, as every ``/api`` route answers (``docs/api.md``)."""
    response = jsonify({"error": en, "error_ja": ja})
    response.status_code = status
    return response


@blueprint.get("/display")
def display_page():
    panel = _panel()
    return render_page("display.html", mode="display", mock=panel.is_mock, buttons=panel.button_names)


@blueprint.get("/api/display.png")
def display_png():
    panel = _panel()
    etag = f'"frame-{panel.frame_number}"'
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers={"ETag": etag})
    return Response(panel.frame_png(), mimetype="image/png", headers={"ETag": etag, "Cache-Control": "no-cache"})


@blueprint.get("/api/display.txt")
def display_txt():
    body = "\n".join(_panel().text_lines()) + "\n"
    return Response(body, mimetype="text/plain; charset=utf-8", headers={"Cache-Control": "no-store"})


@blueprint.post("/api/buttons/<name>")
def press_button(name: str):
    panel = _panel()
    problem = auth.csrf_problem(request)
    if problem:
        return _refuse(403, problem, "このリクエストは他のサイトから送られた可能性があるため拒否しました")
    missing = getattr(panel, "buttons_problem", None)
    if missing is not None:
        return _refuse(409, missing.en, missing.ja)
    if not panel.is_mock:
        return _refuse(409, "buttons can be pressed from the web only when the hardware is mocked (hardware = \"mock\")",
                       "ウェブからボタンを押せるのは、ハードウェアを模擬しているとき（hardware = \"mock\"）だけです")
    # The panel's buttons have the host's powers (undo, new game, acting for a seat), so only
    # the host may press them, or anyone before there is one, or someone at this machine.
    table = current_app.extensions["companion"].table
    if table.has_host and not auth.is_host(table, request) and not _from_this_machine():
        return _refuse(403, "only the host may press the panel's buttons from another device",
                       "ほかの端末からパネルのボタンを押せるのはホストだけです")
    if name not in panel.button_names:
        buttons = ", ".join(panel.button_names)
        return _refuse(404, f"there is no {name!r} button (buttons: {buttons})", f"{name!r} というボタンはありません（ボタン: {buttons}）")
    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        return _refuse(400, 'the body must be a JSON object such as {"press": "short"}',
                       '本文は {"press": "short"} のような JSON オブジェクトにしてください')
    kind = body.get("press", "short")
    if kind not in PRESS_KINDS:
        return _refuse(400, f'"press" must be "short" or "long" (got {kind!r})',
                       f'"press" は "short" か "long" にしてください（{kind!r} が送られました）')
    unknown = sorted(set(body) - {"press"})
    if unknown:
        return _refuse(400, f"unknown field {unknown[0]!r} (only \"press\" is allowed)",
                       f"{unknown[0]!r} という項目は使えません（使えるのは \"press\" だけです）")
    panel.press(name, kind)
    return jsonify({"pressed": name, "press": kind, "frame": panel.frame_number})

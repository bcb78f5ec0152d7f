"""``/api/plays...``, ``/api/players/rename``: the play records (``docs/records.md``);
``/replay/<id>``: a play's replay page.

Reading is open to everyone at the table; renaming a player and deleting a play are the
host's. Refusals are JSON in English and Japanese, as everywhere under ``/api``.
"""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, Response, current_app, jsonify, request

from companion.records.exports import bgstats_url, plays_csv
from companion.records.plays import Records
from companion.table import NotFound

from . import api, pages

blueprint = Blueprint("records", __name__)


@blueprint.record_once
def _open_records(state) -> None:
    """One :class:`Records` per app, on the table's data directory."""
    state.app.extensions["records"] = Records(state.app.extensions["companion"].table.data_dir)


def _records() -> Records:
    return current_app.extensions["records"]


# Refusals, the cross-site check and no caching, as on every API route.
api.guard_like_the_api(blueprint)


def _whole_number(name: str) -> int | None:
    """The query argument ``name`` as a whole number, None when absent."""
    text = request.args.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()):
        raise api.ApiError(400, f"{name} must be a whole number, not {text!r}", f"{name} は整数にしてください（{text!r} は使えません）")
    return int(text)


@blueprint.get("/api/plays")
def plays():
    return jsonify({"plays": _records().plays(request.args.get("game"), _whole_number("limit"), _whole_number("before"))})


@blueprint.get("/api/plays.csv")
def plays_as_csv():
    text = plays_csv(_records().plays(request.args.get("game")))
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": 'attachment; filename="plays.csv"'})


@blueprint.get("/api/plays/<int:play_id>")
def play(play_id: int):
    """One play with its action log and, when it was finished, its "Send to BG Stats" link."""
    answer = _records().play(play_id)
    answer["bgstats_url"] = None if answer["abandoned"] else bgstats_url(answer)
    return jsonify(answer)


@blueprint.get("/api/plays/<int:play_id>/replay")
def replay(play_id: int):
    step = _whole_number("step")
    return jsonify(_records().replay(play_id, 0 if step is None else step))


@blueprint.delete("/api/plays/<int:play_id>")
def delete_play(play_id: int):
    api.require_host(api.current_table())
    _records().delete(play_id)
    return jsonify({"deleted": play_id})


@blueprint.post("/api/players/rename")
def rename_player():
    api.require_host(api.current_table())
    body = api.json_body(required=("old", "new"))
    changed = _records().rename(body["old"], body["new"])
    return jsonify({"renamed": changed})


# ------------------------------------------------------------------ the replay page

@blueprint.get("/replay/<play_id>")
def replay_page(play_id: str):
    """A play step by step: the page draws what never changes (title, date, players, the
    result); ``static/replay.js`` fetches each step from ``/api/plays/<id>/replay``."""
    try:
        play = _records().play(int(play_id)) if play_id.isascii() and play_id.isdigit() else None
    except NotFound:
        play = None
    if play is None:
        return pages.render_page("not_found.html", status=404, mode="missing", reason="play")
    lang = pages.choose_language()
    return pages.render_page("replay.html", mode="replay", play=play, title=play["title"][lang],
                             date=datetime.fromtimestamp(play["started_at"]).astimezone().strftime("%Y-%m-%d %H:%M"),
                             steps=sum(not action["undone"] for action in play["actions"]))

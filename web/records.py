"""``/api/plays...``, ``/api/players/rename``: the play records (``docs/records.md``);
``/replay/<id>``: a play's replay page.

Reading is open to everyone at the table; renaming a player and deleting a play are the
host's. Refusals are JSON in English and Japanese, as everywhere under ``/api``.
"""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, Response, current_app, jsonify, request

from companion import games
from companion.bots import LEVELS as BOT_LEVELS
from companion.records.exports import bgstats_url, plays_csv
from companion.records.plays import LARGEST_ID, Records
from companion.records.stats import stats
from companion.table import NotFound

from . import api, pages

blueprint = Blueprint("records", __name__)


@blueprint.record_once
def _open_records(state) -> None:
    """One :class:`Records` per app, on the table's data directory, naming bots as the pages do."""
    state.app.extensions["records"] = Records(state.app.extensions["companion"].table.data_dir, bot_name=_bot_seat_name)


def _records() -> Records:
    return current_app.extensions["records"]


# Refusals, the cross-site check and no caching, as on every API route.
api.guard_like_the_api(blueprint)


ID_DIGITS = len(str(LARGEST_ID))
"""Digits of the largest play id: a longer number is no play id, step or count."""


def _whole_number(name: str) -> int | None:
    """The query argument ``name`` as a whole number, None when absent."""
    text = request.args.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()):
        raise api.ApiError(400, f"{name} must be a whole number, not {text!r}", f"{name} は整数にしてください（{text!r} は使えません）")
    if len(text) > ID_DIGITS:  # before int(): Python refuses to convert more than 4,300 digits
        raise api.ApiError(400, f"{name} is too large (at most {ID_DIGITS} digits)", f"{name} が大きすぎます（{ID_DIGITS}桁まで）")
    return int(text)


@blueprint.get("/api/plays")
def plays():
    return jsonify({"plays": _records().plays(request.args.get("game"), _whole_number("limit"), _whole_number("before"))})


@blueprint.get("/api/used-before")
def used_before():
    """The names a returning group picks instead of typing: players, and typed options (a score pad's game)."""
    return jsonify(_records().used_before())


@blueprint.get("/api/plays.csv")
def plays_as_csv():
    text = plays_csv(_records().plays(request.args.get("game")))
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": 'attachment; filename="plays.csv"'})


@blueprint.get("/api/plays/<int:play_id>")
def play(play_id: int):
    """One play with its action log and, when it was finished, its "Send to BG Stats" link.
    Its moves are served: the table's finished game can no longer be taken back."""
    return jsonify(_with_bgstats(_records().play(play_id)))


@blueprint.get("/api/plays/<int:play_id>/result")
def play_result(play_id: int):
    """One play without its moves, with its "Send to BG Stats" link: what a phone showing
    the result needs. It does not stop the host from taking the last move back."""
    return jsonify(_with_bgstats(_records().result(play_id)))


def _with_bgstats(play: dict) -> dict:
    """``play`` with its ``bgstats_url`` in the reader's language (None when abandoned)."""
    play["bgstats_url"] = None if play["abandoned"] else bgstats_url(play, bot_names=_bot_names(pages.choose_language()))
    return play


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


# ---------------------------------------------------------------- statistics and the /records page (issue #12)

RECENT_PLAYS = 20
"""How many plays the /records page lists (the newest; /api/plays has them all)."""


@blueprint.get("/api/stats")
def play_stats():
    """The statistics of every play, or of one ``game``'s (``docs/records.md``, *Statistics*)."""
    unknown = sorted(set(request.args) - {"game"})
    if unknown:
        raise api.ApiError(400, f"unknown argument {', '.join(unknown)} (this route takes: game)",
                           f"不明な引数 {', '.join(unknown)} があります（使える引数: game）")
    if len(request.args.getlist("game")) > 1:
        raise api.ApiError(400, "give one game, or none for every game", "ゲームは1つだけ指定してください（すべてなら指定なし）")
    return jsonify(stats(_records().outcomes(request.args.get("game"))))


@blueprint.get("/records")
def records_page():
    """The statistics drawn as charts (inline SVG, drawn here: readable without scripts),
    the newest plays with their replay and "Send to BG Stats" links, and a game filter."""
    lang = pages.choose_language()
    choices = [{"id": game_id, "title": games.get(game_id).title[lang]} for game_id in games.ids()]
    game = request.args.get("game") or None  # the filter's "every game" sends an empty game=
    if game is not None and game not in games.ids():
        return pages.render_page("records.html", status=404, mode="records", games=choices, game=None, unknown=game)
    bot_names = _bot_names(lang)
    recent = [{**play, "when": _local_time(play["started_at"]),
               "bgstats_url": None if play["abandoned"] else bgstats_url(play, bot_names=bot_names)}
              for play in _records().plays(game, limit=RECENT_PLAYS)]
    return pages.render_page("records.html", mode="records", games=choices, game=game, unknown=None,
                       stats=stats(_records().outcomes(game)), recent=recent, local_time=_local_time,
                       seat_history=lambda player: seat_history(player, lang))


def seat_history(player: dict, lang: str) -> str | None:
    """Who played a play's seat, in order, with their moves and who finished it ("Seat 1:
    Aki (9 moves), then Dai (14 moves, to the end)."), when more than the player the
    statistics count played it; else None."""
    occupants = player.get("occupants") or []
    if len(occupants) < 2 and all(o["name"] == player["name"] and o["bot_level"] == player["bot_level"] for o in occupants):
        return None
    words = pages.texts(lang)

    def turn(occupant: dict) -> str:
        key = "seat.history.finished" if occupant["finished"] else "seat.history.turn"
        text = words.get(f"{key}.one") if occupant["moves"] == 1 else None
        level = occupant["bot_level"]
        name = words[f"bot.name.{level}"].format(n=player["seat"] + 1) if f"bot.name.{level}" in words else occupant["name"]
        return (text or words[key]).format(name=name, n=occupant["moves"])

    return words["seat.history"].format(seat=player["seat"] + 1, turns=words["seat.history.then"].join(turn(o) for o in occupants))


def _bot_seat_name(seat: int, level: str, lang: str) -> str | None:
    """The bot of ``level`` on ``seat`` named in ``lang`` as the live phone names it ("ボット2（ふつう）");
    None for a level these pages do not know (an imported play's): then its recorded name."""
    words = pages.texts(lang).get(f"bot.name.{level}")
    return None if words is None else words.format(n=seat + 1)


def _bot_names(lang: str) -> dict[str, str]:
    """Each bot level's player name in ``lang`` (one player per level in the records)."""
    words = pages.texts(lang)
    return {level: words[f"bot.player.{level}"] for level in BOT_LEVELS}


def _local_time(unix_seconds: float) -> str:
    """A moment in the companion's local time, as the CSV writes it."""
    return datetime.fromtimestamp(unix_seconds).strftime("%Y-%m-%d %H:%M")


# ------------------------------------------------------------------ the replay page

@blueprint.get("/replay/<play_id>")
def replay_page(play_id: str):
    """A play step by step: the page draws what never changes (title, date, players, the
    result); ``static/replay.js`` fetches each step from ``/api/plays/<id>/replay``."""
    is_number = play_id.isascii() and play_id.isdigit()
    if is_number and len(play_id) > ID_DIGITS:  # no play id is that long; int() would refuse 4,300 digits
        return pages.render_page("not_found.html", status=400, mode="missing", reason="play")
    try:
        play = _records().play(int(play_id)) if is_number else None
    except NotFound:
        play = None
    if play is None:
        return pages.render_page("not_found.html", status=404, mode="missing", reason="play")
    lang = pages.choose_language()
    return pages.render_page("replay.html", mode="replay", play=play, title=play["title"][lang],
                             seat_history=lambda player: seat_history(player, lang),
                             date=datetime.fromtimestamp(play["started_at"]).astimezone().strftime("%Y-%m-%d %H:%M"),
                             steps=sum(not action["undone"] for action in play["actions"]))

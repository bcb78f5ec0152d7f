"""The JSON API under ``/api`` (documented in ``docs/api.md``).

Every answer is JSON; every refusal is a 4xx ``{"error": "<plain words>", "error_ja":
"<the same in Japanese>"}`` (an engine refusal not yet worded in Japanese repeats the
English) and changes nothing; some add a machine-readable ``"reason"``.
How refusals map to statuses:

=====  ==========================================================================
400    a malformed request (bad JSON, missing or unknown fields, a bad name, players,
       seed or options); a ``Host`` that is not one of the companion's names
401    no token, or a token that opens nothing here (any more)
403    not allowed: only the host may; a cross-site request
404    no such route, seat, game or join code
405    wrong method
409    the table is not in a state that allows it (seat taken, stale view, nothing to undo,
       hosting offered to a bot or taken while the host is here)
413    a body larger than 16 KiB
415    a body that is not ``application/json``
422    an action the rules do not allow now (out of turn, illegal: the reason names the rule)
503    the disk refused to save the change (nothing was changed)
=====  ==========================================================================
"""

from __future__ import annotations

import io
import json
from concurrent.futures import CancelledError

import segno
from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion import first_player
from companion.bots import LEVELS as BOT_LEVELS
from companion.bots import NoBot
from companion.bots import supported as bot_games_supported
from companion.bots.seats import HINT_SECONDS_RANGE, HintAbandoned, WorkerDied
from companion.games.base import LARGEST_SEED, render_text
from companion.table import Conflict, Forbidden, IllegalAction, NotFound, StorageError, Table, TableError

from . import auth

blueprint = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    """A refusal worded by the web layer itself, in English and Japanese, with a
    machine-readable ``reason`` where a page acts on it."""

    def __init__(self, status: int, en: str, ja: str, reason: str | None = None):
        super().__init__(en)
        self.status, self.en, self.ja, self.reason = status, en, ja, reason


# The web layer's own refusals; the table's and the engines' carry their own words.
NEED_TOKEN = ApiError(401, "join a seat first: this request needs your seat token",
                      "先に席に着いてください（この操作には席のトークンが必要です）")
TOKEN_DEAD = ApiError(401, "your token does not open anything at this table any more (was your seat freed?): join again",
                      "このトークンはもう使えません（席が解放されたかもしれません）。もう一度参加してください")
SEAT_FREED = ApiError(401, "your token does not open anything at this table any more (your seat was freed, or you left it): join again",
                      "この席のトークンはもう使えません（席が解放されたか、席を離れました）。もう一度参加してください",
                      reason="seat_freed")
NOT_YOUR_SEAT = ApiError(403, "you can only leave your own seat", "離れられるのは自分の席だけです")
HOST_ONLY = ApiError(403, "only the host can do that", "それはホストだけができます")
HOST_HAS_NO_SEAT = ApiError(403, "you are the host but hold no seat: only seated players make moves",
                            "あなたはホストですが席がありません。手番の操作は席に着いたプレイヤーだけです")
NOT_JSON = ApiError(415, "the body must be JSON, sent with Content-Type: application/json",
                    "本文は JSON で、Content-Type: application/json を付けて送ってください")
BAD_JSON = ApiError(400, "the body is not valid JSON", "本文が正しい JSON ではありません")
NOT_OBJECT = ApiError(400, "the body must be a JSON object, such as {\"name\": \"Aki\"}",
                      "本文は {\"name\": \"Aki\"} のような JSON オブジェクトにしてください")
STOPPING = ApiError(503, "the companion is shutting down: try again in a moment",
                    "コンパニオンは停止中です。少し待ってからもう一度どうぞ")

_CSRF_JA = "このリクエストは他のサイトから送られた可能性があるため拒否しました"
_STORAGE_JA = "ディスクに保存できませんでした。何も変更されていません"
_FOREIGN_HOST_JA = "このコンパニオンは別のホスト名へのリクエストには答えません（コンパニオン自身のアドレスで開いてください）"

_HTTP_ERRORS = {
    404: ("there is no such API route", "そのような API はありません"),
    405: ("this route does not accept that method", "この API はそのメソッドを受け付けません"),
    413: ("the request body is too large (at most 16 KiB)", "リクエストの本文が大きすぎます（16 KiB まで）"),
}


def error_response(error: HTTPException) -> Response:
    """An HTTP error raised by Flask or Werkzeug (no such route, body too large...) as JSON."""
    status = error.code or 500
    if isinstance(error, auth.ForeignHost):
        return _refusal(status, error.description, _FOREIGN_HOST_JA)
    body = http_error_body(status, error.description or error.name)
    return _refusal(status, body["error"], body["error_ja"])


def http_error_body(status: int, description: str) -> dict:
    """The JSON body of an HTTP error with ``status`` (the server's own refusals use it too,
    ``companion/serve.py``); ``description`` is the wording when this module has none."""
    if status >= 500:
        en, ja = "something went wrong inside the companion (its log says what)", "コンパニオン内部でエラーが起きました（詳細はログにあります）"
    else:
        en, ja = _HTTP_ERRORS.get(status, (description, f"リクエストを受け付けられませんでした（{description}）"))
    return {"error": en, "error_ja": ja}


def _refusal(status: int, en: str, ja: str, reason: str | None = None) -> Response:
    body = {"error": en, "error_ja": ja}
    if reason:
        body["reason"] = reason
    response = jsonify(body)
    response.status_code = status
    return response


def _api_error(error: ApiError):
    return _refusal(error.status, error.en, error.ja, error.reason)


def _illegal(error: IllegalAction):
    # Engines name seats with {sN} placeholders, as in their log texts.
    names = current_table().names()
    return _refusal(422, render_text(error.en, names), render_text(error.ja, names))


def _table_error(error: TableError):
    status = 404 if isinstance(error, NotFound) else 403 if isinstance(error, Forbidden) else 409 if isinstance(error, Conflict) else 400
    return _refusal(status, error.en, error.ja)


def _storage_error(error: StorageError):
    # Not logged here: the store logs a disk problem once when it starts and once when it ends.
    return _refusal(503, f"the companion could not save this, so nothing was changed ({error})", _STORAGE_JA)


# ---------------------------------------------------------------- request helpers


def current_table() -> Table:
    """The table this app serves."""
    return current_app.extensions["companion"].table


def _join_url(table: Table) -> str:
    return auth.base_url() + "/J/" + table.join_code


def _presence():
    return current_app.extensions["companion"].presence


def _with_presence(answer: dict) -> dict:
    """Add to a view's or the table's ``host`` whether the host's phone is present: when it
    is not, a seated person's phone offers to take hosting (``POST /api/host/claim``)."""
    answer["host"]["present"] = _presence().host_present()
    return answer


def _table_answer(table: Table) -> dict:
    """The public table with its join URL: the answer of /api/table and of the routes that
    change the whole table."""
    info = _with_presence(table.public())
    info["join_url"] = _join_url(table)
    if info["view"] is not None:
        _with_clock(info["view"])
    return info


def _turn_clock():
    return current_app.extensions["companion"].turn_clock


def _with_clock(view: dict) -> dict:
    """Add the turn clock to a view (``companion.clock.TurnClock.view``), as of this answer."""
    view["clock"] = _turn_clock().view()
    return view


def _refuse_cross_site():
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        problem = auth.csrf_problem(request)
        if problem:
            return _refusal(403, problem, _CSRF_JA)
    return None


def _no_store(response: Response) -> Response:
    # Views hold a seat's secrets: no browser or proxy cache may keep them.
    response.headers["Cache-Control"] = "no-store"
    return response


def guard_like_the_api(routes: Blueprint) -> None:
    """Give ``routes`` (another ``/api`` blueprint, e.g. ``web.records``) what every API route
    has: the refusals as JSON in both languages, the cross-site check on every request that
    changes something, and no caching."""
    routes.register_error_handler(ApiError, _api_error)
    routes.register_error_handler(IllegalAction, _illegal)
    routes.register_error_handler(TableError, _table_error)
    routes.register_error_handler(StorageError, _storage_error)
    routes.before_request(_refuse_cross_site)
    routes.after_request(_no_store)


guard_like_the_api(blueprint)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def json_body(required: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> dict:
    """The request's JSON object, with exactly the ``required`` fields and maybe the
    ``optional`` ones. A route without fields also takes an empty body."""
    raw = request.get_data(cache=True)  # over 16 KiB: Werkzeug raises 413 here
    if not raw and not required:
        return {}
    if request.mimetype != "application/json":
        raise NOT_JSON
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError too
        raise BAD_JSON from None
    if not isinstance(body, dict):
        raise NOT_OBJECT
    missing = [name for name in required if name not in body]
    if missing:
        raise ApiError(400, f"the body lacks the field {', '.join(missing)}", f"本文に {', '.join(missing)} がありません")
    unknown = [name for name in body if name not in required + optional]
    if unknown:
        allowed = ", ".join(required + optional) or "none"
        raise ApiError(400, f"unknown field {', '.join(map(repr, unknown))} (this route takes: {allowed})",
                       f"不明な項目 {', '.join(map(repr, unknown))} があります（使える項目: {allowed}）")
    return body


def _require_seat(table: Table) -> int:
    seat = auth.seat_of(table, request)
    if seat is None:
        if not auth.candidate_tokens(request):
            raise NEED_TOKEN
        if auth.is_host(table, request):
            raise HOST_HAS_NO_SEAT
        raise TOKEN_DEAD
    return seat


def _require_own_seat(table: Table, seat: int) -> None:
    """The request's token must hold ``seat`` itself."""
    if _require_seat(table) != seat:
        raise NOT_YOUR_SEAT


def require_host(table: Table) -> None:
    if not auth.is_host(table, request):
        if not auth.candidate_tokens(request):
            raise ApiError(401, "only the host can do that, and this request carries no token",
                           "それはホストだけができます（トークンがありません）")
        raise HOST_ONLY


def _visible_seat(table: Table) -> int | None:
    """The seat whose view the caller may read: its own, or None (the public view) for the
    host without a seat and for visitors. A seat token that opens no seat (any more) is
    refused with the reason "seat_freed", so the phone says so instead of quietly showing
    the public view; so is any other token that opens nothing."""
    seat = auth.seat_of(table, request)
    if seat is not None:
        return seat
    bearer = auth.bearer_token(request)
    if bearer is not None:
        if table.is_host(bearer):
            return None
        raise SEAT_FREED
    if request.cookies.get(auth.SEAT_COOKIE):  # a freed host's seat token still hosts, but opens no seat
        raise SEAT_FREED
    if auth.candidate_tokens(request) and not auth.is_host(table, request):
        raise TOKEN_DEAD
    return None


def _svg(text: str) -> Response:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=8, border=2, xmldecl=False, svgns=True)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


# ---------------------------------------------------------------- routes


@blueprint.get("/ping")
def ping():
    """The cheapest route: the ceiling the benchmark compares the others with."""
    return {"ok": True}


@blueprint.get("/table")
def table_info():
    """The public table: seats, host, offered games, the public view, recent games."""
    return _table_answer(current_table())


@blueprint.post("/game")
def start_game():
    """Start a game. On a table without a host the caller becomes host; then only the host may."""
    table = current_table()
    body = json_body(required=("game", "players"), optional=("seed", "options", "bots", "first_player"))
    game_id, players, options = body["game"], body["players"], body.get("options")
    if body.get("first_player", "draw") != "draw":
        raise ApiError(400, f'"first_player" is "draw" (who starts, drawn at random), not {body["first_player"]!r}; '
                       'a chosen seat goes in "options"',
                       f'"first_player" は "draw"（ランダムに選ぶ）だけです（{body["first_player"]!r} は使えません）。'
                       '席を指定するときは "options" に入れてください')
    claim = not table.has_host
    if not claim:
        require_host(table)
    seed = _chosen_seed(body.get("seed"))
    # Checked in full before the game starts: a bad bot request starts nothing.
    bots = _requested_bots(table, game_id, players, body["bots"]) if "bots" in body else {}
    # On a table without a host the caller becomes host in the same step, so a refused start claims nothing.
    if "first_player" in body:
        host_token = first_player.start_with_draw(table, game_id, players, seed, options, claim_host=claim)
    else:
        host_token = table.start_game(game_id, players, seed, options, claim_host=claim)
    not_seated = _seat_bots(bots)
    info = _table_answer(table)
    if not_seated:
        info["bots_not_seated"] = not_seated
    if host_token is None:
        return info
    info["host_token"] = host_token
    info["rejoin_url"] = auth.rejoin_url(auth.base_url(), host_token)
    response = jsonify(info)
    auth.set_token_cookie(response, "host", host_token)
    return response


def _chosen_seed(value):
    """A chosen seed as the engine takes it: a string of digits (pages send the digits typed,
    since a JavaScript number loses digits past 2^53) becomes its number; anything else goes
    as it came, and the engine refuses what is no whole number in its range, in plain words."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= len(str(LARGEST_SEED)):
        return int(value)  # short enough: int() never meets Python's 4,300-digit limit
    return value


@blueprint.post("/seats/<int:seat>/join")
def join(seat: int):
    """Take a free seat under a name; the answer carries the seat token (and sets its cookie)."""
    table = current_table()
    body = json_body(required=("name",))
    token = table.join(seat, body["name"])
    response = jsonify({"seat": seat, "token": token, "rejoin_url": auth.rejoin_url(auth.base_url(), token)})
    old_seat_token = request.cookies.get(auth.SEAT_COOKIE)
    if old_seat_token and table.is_host(old_seat_token):
        # A host's seat token carries hosting even after that seat is gone: the new seat's
        # cookie replaces it, so it moves to the host cookie and hosting stays on this phone.
        auth.set_token_cookie(response, "host", old_seat_token)
    auth.set_token_cookie(response, "seat", token)
    return response


@blueprint.post("/seats/<int:seat>/free")
def free_seat(seat: int):
    """The host frees a seat: its token stops working, its cards stay in play."""
    table = current_table()
    json_body()
    require_host(table)
    hosts_seat = table.host_seat == seat
    table.free_seat(seat)
    if hosts_seat:  # the host freed their own seat: hosting passes to a person here, if any
        _presence().pass_on()
    return _table_answer(table)


@blueprint.post("/seats/<int:seat>/leave")
def leave(seat: int):
    """A player frees their own seat (its token stops opening it; a host's token keeps hosting)."""
    table = current_table()
    json_body()
    _require_own_seat(table, seat)
    token = auth.own_token(table, request)[1]
    table.free_seat(seat)
    if table.is_host(token):  # the host left the table: hosting passes to a person here, if any
        _presence().pass_on()
    response = jsonify(_table_answer(table))
    if request.cookies.get(auth.SEAT_COOKIE) == token:
        response.delete_cookie(auth.SEAT_COOKIE, path="/")
        if table.is_host(token):  # nobody here to take it: hosting stays on this phone, under the host cookie
            auth.set_token_cookie(response, "host", token)
    return response


@blueprint.post("/seats/free-all")
def free_all_seats():
    """The host frees every seat at once; hosting stays with the host's token."""
    table = current_table()
    json_body()
    require_host(table)
    table.free_all_seats()
    return _table_answer(table)


@blueprint.post("/rematch")
def rematch():
    """The host plays the finished game again: same game, options, players and seats, a new
    seed; who starts is drawn again if it was drawn for the finished play."""
    table = current_table()
    json_body()
    require_host(table)
    first_player.rematch(table)
    return _table_answer(table)


@blueprint.get("/view")
def view():
    """The caller's view with its legal actions; the public view for the seatless. ``is_host``
    says whether the caller holds host rights, so a page follows a hand-over without a reload."""
    table = current_table()
    answer = _with_clock(_with_presence(table.view(_visible_seat(table))))
    answer["is_host"] = auth.is_host(table, request)
    return answer


@blueprint.get("/log")
def whole_log():
    """The whole game's log as the caller may read it (same rights as /api/view)."""
    table = current_table()
    return {"log": table.log(_visible_seat(table))}


@blueprint.post("/actions")
def act():
    """Make a move: ``{"action": <one of the view's actions>, "version": <the view's version>}``."""
    table = current_table()
    body = json_body(required=("action", "version"))
    seat = _require_seat(table)
    table.act(seat, body["action"], body["version"])
    return _with_clock(table.view(seat))


@blueprint.post("/undo")
def undo():
    """The host takes back the last move; the answer is the caller's new view."""
    table = current_table()
    json_body()
    require_host(table)
    table.undo(by=auth.seat_of(table, request))
    return _with_clock(table.view(auth.seat_of(table, request)))


@blueprint.post("/clock")
def set_clock():
    """Anyone at the table (a seat or the host) pauses or resumes the turn clock, or sets its
    per-turn target: ``{"paused": true|false}``, ``{"target": seconds|null}``, or both. The
    answer is the clock; every phone hears of it as of any change."""
    table = current_table()
    body = json_body(optional=("paused", "target"))
    if auth.seat_of(table, request) is None:
        require_host(table)
    if not body:
        raise ApiError(400, 'say what to change: "paused" (true or false) or "target" (seconds, or null)',
                       '変えることを指定してください: "paused"（true か false）か "target"（秒数か null）')
    paused = body.get("paused")
    if "paused" in body and not isinstance(paused, bool):
        raise ApiError(400, f'"paused" is true or false, not {paused!r}', f'"paused" は true か false です（{paused!r} は使えません）')
    turn_clock = _turn_clock()
    if "target" in body:
        turn_clock.set_target(body["target"])
    if paused is True:
        turn_clock.pause()
    elif paused is False:
        turn_clock.resume()
    return {"clock": turn_clock.view()}


@blueprint.post("/clock/question")
def clock_question():
    """The host's phone asks a question that holds the table (undo?): ``{"open": true}`` before
    asking stops the turn clock, ``{"open": false}`` once answered lets it run again."""
    table = current_table()
    body = json_body(required=("open",))
    require_host(table)
    if not isinstance(body["open"], bool):
        raise ApiError(400, f'"open" is true or false, not {body["open"]!r}', f'"open" は true か false です（{body["open"]!r} は使えません）')
    if body["open"]:
        _turn_clock().ask("phone")
    else:
        _turn_clock().answered("phone")
    return {"clock": _turn_clock().view()}


@blueprint.post("/first-player")
def draw_first_player():
    """Draw who starts, among the game's seats, before the first move (a seated player or
    the host); the answer is the caller's new view, which names them (docs/phone.md)."""
    table = current_table()
    json_body()
    if not auth.is_host(table, request):
        _require_seat(table)
    first_player.draw_first_player(table)
    return table.view(auth.seat_of(table, request))


@blueprint.post("/host/claim")
def claim_host():
    """Become host: of a table that has none, or, for a seated person, of one whose host is
    not here (``companion.presence``); the answer carries the token that now hosts."""
    table = current_table()
    json_body()
    seat = auth.seat_of(table, request)
    if seat is not None:
        if auth.is_host(table, request):
            raise ApiError(409, "you are the host already", "あなたはもうホストです")
        _presence().take(seat)  # refused while the host is here; a bot's seat never hosts
        token = auth.own_token(table, request)[1]
        return {"host_token": token, "rejoin_url": auth.rejoin_url(auth.base_url(), token)}
    token = table.claim_host()
    response = jsonify({"host_token": token, "rejoin_url": auth.rejoin_url(auth.base_url(), token)})
    auth.set_token_cookie(response, "host", token)
    return response


@blueprint.post("/host/hand-over")
def hand_over():
    """The host gives hosting to a seated player; the old host token stops working."""
    table = current_table()
    body = json_body(required=("seat",))
    require_host(table)
    table.hand_over_host(body["seat"])  # a bot's seat is refused (409)
    return _table_answer(table)


@blueprint.get("/me")
def me():
    """Who the caller is: ``{"seat", "host", "name", "rejoin_url"}``."""
    table = current_table()
    held = auth.own_token(table, request)
    seat = auth.seat_of(table, request)
    return {
        "seat": seat,
        "host": auth.is_host(table, request),
        "name": None if seat is None else table.names()[seat],
        "rejoin_url": None if held is None else auth.rejoin_url(auth.base_url(), held[1]),
    }


@blueprint.get("/join-qr.svg")
def join_qr():
    """The join URL as a QR code. Upper case, so the code uses QR's compact alphanumeric mode
    (scheme, host and the /J/ route are all case-insensitive)."""
    return _svg(_join_url(current_table()).upper())


@blueprint.get("/rejoin-qr.svg")
def rejoin_qr():
    """The caller's own rejoin link as a QR code, to carry the seat to another phone."""
    table = current_table()
    held = auth.own_token(table, request)
    if held is None:
        raise NEED_TOKEN if not auth.candidate_tokens(request) else TOKEN_DEAD
    return _svg(auth.rejoin_url(auth.base_url(), held[1]))


@blueprint.get("/events")
def events():
    """Server-Sent Events with the table's version (see ``web.events``)."""
    hub = current_app.extensions["companion"].events
    if hub.stopping:
        raise STOPPING
    header = request.headers.get("Last-Event-ID")
    last_seen = None
    if header is not None:
        try:
            last_seen = int(header)
        except ValueError:
            raise ApiError(400, "Last-Event-ID must be a version number", "Last-Event-ID はバージョン番号にしてください") from None
    # waitress tells whether the client has closed the connection (see companion/serve.py).
    client_gone = request.environ.get("waitress.client_disconnected", lambda: False)
    tokens = tuple(auth.candidate_tokens(request))  # whose phone this is: its player is present while it follows
    response = Response(hub.stream(last_seen, request.remote_addr, client_gone, tokens), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"
    return response


# ---------------------------------------------------------------- bots (docs/bots.md)

NO_BOTS = ApiError(404, "this companion runs without bots", "このコンパニオンではボットを使えません")
GAME_HAS_NO_BOTS = ApiError(409, "this game has no bots or hints: it follows a game played with the real components",
                            "このゲームにはボットもヒントもありません（実物で遊ぶゲームを記録するためのものです）")
NOTHING_TO_HINT = ApiError(409, "you have nothing to do now, so there is nothing to hint",
                           "いまはあなたの番ではないので、ヒントはありません")
HINT_TOO_SLOW = ApiError(503, "the bot did not answer in time: try again", "ボットが時間内に答えませんでした。もう一度どうぞ")


def _bots():
    bots = current_app.extensions["companion"].bots
    if bots is None:
        raise NO_BOTS
    return bots


def _require_game_with_bots(table: Table) -> None:
    if table.game_id is None:
        raise NotFound("no game has been started at this table yet", "このテーブルではまだゲームが始まっていません")
    if not bot_games_supported(table.game_id):
        raise GAME_HAS_NO_BOTS


def _checked_level(level) -> str:
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise ApiError(400, f"the level must be one of {', '.join(BOT_LEVELS)}, not {level!r}",
                       f"レベルは {', '.join(BOT_LEVELS)} のどれかにしてください")
    return level


@blueprint.post("/seats/<int:seat>/bot")
def seat_bot(seat: int):
    """The host seats a bot of a level on a free seat; the answer is the public table."""
    table = current_table()
    body = json_body(required=("level",))
    require_host(table)
    bots = _bots()
    _require_game_with_bots(table)
    bots.seat(seat, _checked_level(body["level"]))
    return table.public()


BOTS_FIELD_SHAPE = ApiError(400, 'bots must be a list such as [{"seat": 2, "level": "normal"}]',
                            'bots は [{"seat": 2, "level": "normal"}] のようなリストにしてください')


def _requested_bots(table: Table, game_id, players, requested) -> dict[int, str]:
    """The ``bots`` field of a new-game request, checked before the game starts: {seat: level}.

    Each bot takes a seat of the new game that will be free when it starts (the seats below
    the new player count stay held, so a seated person keeps theirs). A game id or player
    count that is itself wrong is left to the table, which refuses the start in its words."""
    if not isinstance(requested, list) or not all(isinstance(item, dict) and set(item) == {"seat", "level"}
                                                  for item in requested):
        raise BOTS_FIELD_SHAPE
    if not requested:
        return {}
    _bots()  # a companion without bots refuses (404), as the bot route does
    if game_id in table.offered_games and not bot_games_supported(game_id):
        raise GAME_HAS_NO_BOTS
    seats_now = table.public()["seats"]
    chosen: dict[int, str] = {}
    for item in requested:
        seat, level = item["seat"], _checked_level(item["level"])
        if type(seat) is not int or seat < 0:
            raise ApiError(400, f"a bot's seat must be a seat number (0 is the first seat), not {seat!r}",
                           f"ボットの席は席番号（最初の席が 0）にしてください（{seat!r} は使えません）")
        if type(players) is int and seat >= players:
            raise ApiError(400, f"seat {seat + 1} is not part of a game for {players} players",
                           f"{players}人のゲームに{seat + 1}番の席はありません")
        if seat in chosen:
            raise ApiError(400, f"seat {seat + 1} is given two bots", f"{seat + 1}番の席にボットが2人指定されています")
        if seat < len(seats_now) and seats_now[seat]["taken"]:
            name = seats_now[seat]["name"]
            raise Conflict(f"seat {seat + 1} is taken by {name} and stays so in the new game: free it first",
                           f"{seat + 1}番の席には{name}さんが着いていて、新しいゲームでもそのままです。先に席を空けてください")
        chosen[seat] = level
    return chosen


def _seat_bots(bots: dict[int, str]) -> list[dict]:
    """Seat the bots of a game just started, through the same BotSeats.seat as the bot route.
    Returns the seats it could not take, each with why (a phone that joined the seat in the
    same instant, a full disk): the game has started, so that is said, not refused."""
    not_seated = []
    for seat, level in sorted(bots.items()):
        try:
            _bots().seat(seat, level)
        except (TableError, StorageError) as error:
            not_seated.append({"seat": seat, "error": str(error),
                               "error_ja": getattr(error, "ja", None) or f"{seat + 1}番の席にボットを座らせられませんでした（{error}）"})
    return not_seated


@blueprint.get("/hint")
def hint():
    """The bot's suggestion for the caller's seat: ``{"action": <one of its view's actions>}``."""
    table = current_table()
    seat = _require_seat(table)
    bots = _bots()
    _require_game_with_bots(table)
    seconds = request.args.get("seconds")
    if seconds is not None:
        low, high = HINT_SECONDS_RANGE
        try:
            seconds = float(seconds)
        except ValueError:
            seconds = None
        if seconds is None or not low <= seconds <= high:
            raise ApiError(400, f"seconds must be a number from {low} to {high}",
                           f"seconds は {low} から {high} までの数にしてください")
    # waitress tells whether the phone has given up (see companion/serve.py): its hint is then dropped.
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    try:
        return {"action": bots.hint(seat, seconds, gone=gone)}
    except (HintAbandoned, WorkerDied):  # nobody reads this answer; or its worker died (a new one starts)
        raise HINT_TOO_SLOW from None
    except NoBot:
        raise NOTHING_TO_HINT from None
    except TimeoutError:
        raise HINT_TOO_SLOW from None
    except CancelledError:  # the companion is stopping
        raise STOPPING from None

"""The HTML pages: home, join, rejoin, the phone page, the shared table screen, host tools.

The pages are thin: Jinja draws the frame and the texts in the reader's language, and
the JavaScript modules in ``static/`` fetch everything that changes from the JSON API
(``web/api.py``) and redraw on each event. So a page never holds a secret the API
would not give that same browser, and the API's checks are the only ones.

Routes:

``/``          join QR code, short URL and code; the seats; a start-game form when the
               table is idle or the caller is the host
``/J/<code>``  the join link (the QR code's target): pick a free seat and a name; on an idle
               table without a host, the home page and its start form (first arrival leads)
``/J?code=``   the home page's typed join code, to its ``/J/<code>``
``/R/<token>`` a rejoin link: trades the token for its cookie, then 303 to a clean URL
``/play``      the phone: this seat's view and its moves
``/table``     the public view for a shared screen, with the join QR code
``/favicon.ico`` the pages' icon

While the companion's own Wi-Fi is up, the join QR code alternates with a Wi-Fi QR code
(``_join_qr.html``), and the join address is the access point's.
``/host``      host tools: undo, free a seat, hand hosting over, start a new game

Language: ``?lang=en|ja`` switches and is kept in a ``lang`` cookie; otherwise the
browser's Accept-Language, otherwise the language configured for the app.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode

import segno
from flask import Blueprint, current_app, make_response, redirect, render_template, request, send_from_directory
from markupsafe import Markup

from companion.bots import supported as bot_games_supported
from companion.table import NAME_MAX

from . import auth

blueprint = Blueprint("pages", __name__)
# Templates and /static are the app's own (web/templates, web/static): create_app's Flask is named "web".

LANGUAGES = ("en", "ja")
LANG_COOKIE = "lang"
LANG_COOKIE_SECONDS = 365 * 24 * 3600
_I18N = Path(__file__).parent / "i18n"
_GAME_RENDERERS = Path(__file__).parent / "static" / "games"


@lru_cache(maxsize=None)
def texts(lang: str) -> dict[str, str]:
    """The page texts of ``lang`` (flat keys), read once from ``web/i18n/<lang>.json``."""
    return json.loads((_I18N / f"{lang}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def renderers() -> list[str]:
    """The game ids that have their own renderer in ``static/games`` (others get the generic one)."""
    return sorted(p.stem for p in _GAME_RENDERERS.glob("*.js") if p.stem != "generic")


def _companion():
    return current_app.extensions["companion"]


def choose_language() -> str:
    """``?lang=`` if valid, else the ``lang`` cookie (the reader's own switch), else the
    configured language, and only when that is ``auto`` the browser's choice (else English)."""
    for wanted in (request.args.get("lang"), request.cookies.get(LANG_COOKIE)):
        if wanted in LANGUAGES:
            return wanted
    configured = _companion().language
    if configured in LANGUAGES:
        return configured
    return request.accept_languages.best_match(LANGUAGES) or "en"


def language_switch_href(other: str) -> str:
    """The link that shows this same page in ``other``: the page's own query (a filter, a
    replay's step) kept, only ``lang`` changed."""
    kept = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
    return "?" + urlencode([*kept, ("lang", other)])


def join_url() -> str:
    """The address the join QR code carries: upper case (``HTTP://HOST:PORT/J/CODE``), so
    the QR code can use its compact alphanumeric mode and stays small."""
    return f"{auth.base_url()}/J/{_companion().table.join_code}".upper()


QR_OPTIONS = {"error": "m", "eci": True}
"""How the pages make QR codes. ``eci``: text that is not ISO 8859-1 (a Japanese SSID in the
Wi-Fi code) says it is UTF-8; without it readers guess, and many guess Shift_JIS."""


@lru_cache(maxsize=64)  # the join code's QR is on most pages; drawing one costs milliseconds on a Pi
def qr_svg(url: str, label: str) -> Markup:
    """``url`` as an inline SVG QR code (segno writes only path data: nothing to escape).
    It has a viewBox and no fixed size, so the page's stylesheet scales it to its box."""
    svg = segno.make(url, **QR_OPTIONS).svg_inline(scale=5, border=2, dark="#000", light="#fff",
                                                svgclass="qr", title=None, omitsize=True)
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="{Markup.escape(label)}" ', 1))


def wifi_join() -> dict | None:
    """While the companion's own Wi-Fi is up: its name, password and Wi-Fi QR code (which the
    join QR code then alternates with), else None."""
    network = _companion().network
    state = network.state if network else None
    if state is None or not state.access_point:
        return None
    from companion.network import wifi_qr_payload

    label = texts(choose_language())["wifi.qr"]
    return {"ssid": state.ssid, "password": state.password, "qr": qr_svg(wifi_qr_payload(state.ssid, state.password), label)}


def _rejoin() -> dict:
    """The caller's own rejoin link and its QR code, for a phone that loses its cookie."""
    own = auth.own_token(_companion().table, request)
    if own is None:
        return {"rejoin_url": None, "rejoin_qr": None}
    url = auth.rejoin_url(auth.base_url(), own[1])
    return {"rejoin_url": url, "rejoin_qr": qr_svg(url, texts(choose_language())["rejoin.title"])}


def buttons_problem(lang: str) -> str | None:
    """Why the panel has no buttons, in ``lang`` (the panel's ``buttons_problem``), or None."""
    panel = _companion().panel
    problem = getattr(panel, "buttons_problem", None) if panel is not None else None
    return None if problem is None else getattr(problem, lang)


def render_page(template: str, status: int = 200, **data):
    """Render ``template`` in the reader's language with ``data``; its ``mode``, ``seat``
    and ``host`` also go to the page's scripts, as JSON (``page-data``)."""
    lang = choose_language()
    table = _companion().table
    page_data = {
        "lang": lang,
        "texts": texts(lang),
        "renderers": renderers(),
        "join_path": f"/J/{table.join_code}",
        # The games whose phones offer a hint and whose host may seat bots (none without bots).
        "bot_games": [game for game in table.offered_games if bot_games_supported(game)] if _companion().bots else [],
        **{key: data[key] for key in ("mode", "seat", "host") if key in data},
    }
    body = render_template(template, lang=lang, tr=texts(lang), page_data=page_data, join_url=join_url(),
                           switch_href=language_switch_href("en" if lang == "ja" else "ja"),
                           join_code=table.join_code, join_qr=qr_svg(join_url(), texts(lang)["join.qr"]),
                           problem=table.problem, wifi=wifi_join(), buttons_problem=buttons_problem(lang), **data)
    response = make_response(body, status)
    if request.args.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_SECONDS, samesite="Lax", httponly=True)
    response.headers["Cache-Control"] = "no-store"  # pages show who you are: never from a cache
    return response


def _caller() -> tuple[int | None, bool]:
    """The caller's seat (or None) and whether they are the host, from their cookies."""
    table = _companion().table
    return auth.seat_of(table, request), auth.is_host(table, request)


@blueprint.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every page; without it every page logs a 404."""
    return send_from_directory(current_app.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400)


@blueprint.get("/")
def home():
    seat, host = _caller()
    table = _companion().table
    return render_page("home.html", mode="home", seat=seat, host=host, may_start=host or not table.has_host,
                       idle=table.game_id is None)


@blueprint.get("/J")
def join_typed():
    """The home page's "type the join code" form: the code typed (any case, spaces trimmed)
    leads to its join page; nothing typed, to the home page."""
    code = "".join(request.args.get("code", "").split())
    return redirect(f"/J/{code.upper()}" if code else "/", code=303)


@blueprint.get("/J/<code>")
def join(code: str):
    table = _companion().table
    if code.upper() != table.join_code:
        return render_page("not_found.html", status=404, mode="missing", reason="join")
    if table.game_id is None and not table.has_host:
        # The first scan of an idle table: whoever arrives first leads, so to the start form.
        return redirect("/", code=303)
    seat, _ = _caller()
    return render_page("join.html", mode="join", seat=seat, name_max=NAME_MAX)


@blueprint.get("/R/<token>")
def rejoin(token: str):
    """Trade a rejoin link's token for its cookie, then send the browser to a clean
    address so the token leaves the address bar and the history."""
    response = auth.rejoin_response(_companion().table, token)
    if response is None:
        return render_page("not_found.html", status=404, mode="missing", reason="rejoin")
    return response


@blueprint.get("/play")
def play():
    seat, host = _caller()
    return render_page("play.html", mode="play", seat=seat, host=host, **_rejoin())


@blueprint.get("/table")
def table_screen():
    return render_page("table.html", mode="table")


@blueprint.get("/host")
def host_tools():
    seat, host = _caller()
    if not host:
        return render_page("not_found.html", status=403, mode="missing", reason="host")
    return render_page("host.html", mode="host", seat=seat, host=host, **_rejoin())

"""Who is asking: seat and host tokens from cookies or a Bearer header, and the CSRF rule.

Tokens are long random strings made by the table (``secrets.token_urlsafe(32)``) and
kept there only as hashes, compared in constant time (:meth:`Table.seat_of`,
:meth:`Table.is_host`). The seat a request acts for always comes from its token, never
from its body.

A browser carries its tokens in two cookies, ``seat_token`` and ``host_token``:
HttpOnly (page scripts cannot read them), SameSite=Lax (other sites' pages do not send
them with their requests), not Secure (the appliance speaks plain HTTP on the LAN), for
30 days, so a phone that slept through a three-hour game still holds its seat. Other
clients send ``Authorization: Bearer <token>`` instead; when that header is present the
cookies are ignored.

Cross-site requests: every state-changing request (POST) must carry the header
``X-Requested-With: companion`` (a plain HTML form on another site cannot send a custom
header, and a script on another site cannot either without our CORS consent, which we
never give) and, when the browser sends an ``Origin``, it must be this server's own. A
header, unlike a CSRF token, never expires: it stays valid through a three-hour game.

Other host names: every request whose ``Host`` is not one of the companion's own names or
an IP address is refused (:func:`host_allowed`), which defeats DNS rebinding, where another
site's name is made to resolve to the companion and its Origin then matches its Host.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import Request, Response, current_app, redirect, request
from werkzeug.exceptions import BadRequest

from companion.table import Table

SEAT_COOKIE = "seat_token"
HOST_COOKIE = "host_token"
COOKIE_MAX_AGE = 30 * 24 * 3600
CSRF_HEADER = "X-Requested-With"
CSRF_VALUE = "companion"
REJOIN_PREFIX = "/R/"


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def candidate_tokens(request: Request) -> list[str]:
    """The tokens a request presents: its Bearer token alone, or else its cookies."""
    bearer = bearer_token(request)
    if bearer is not None:
        return [bearer]
    return [t for t in (request.cookies.get(SEAT_COOKIE), request.cookies.get(HOST_COOKIE)) if t]


def seat_of(table: Table, request: Request) -> int | None:
    """The seat the request's token holds, or None."""
    for token in candidate_tokens(request):
        seat = table.seat_of(token)
        if seat is not None:
            return seat
    return None


def is_host(table: Table, request: Request) -> bool:
    """Whether the request carries host rights (the host token, or the host seat's token)."""
    return any(table.is_host(token) for token in candidate_tokens(request))


def own_token(table: Table, request: Request) -> tuple[str, str] | None:
    """``("seat" | "host", token)`` for the token that gives this request its rights:
    the seat token when it holds a seat, else a valid host token; None for a visitor."""
    tokens = candidate_tokens(request)
    for token in tokens:
        if table.seat_of(token) is not None:
            return "seat", token
    for token in tokens:
        if table.is_host(token):
            return "host", token
    return None


def csrf_problem(request: Request) -> str | None:
    """Why a state-changing request may come from another site, or None when it is safe."""
    if request.headers.get(CSRF_HEADER) != CSRF_VALUE:
        return f"this request must carry the header {CSRF_HEADER}: {CSRF_VALUE} (it protects against other websites)"
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != request.host.lower():
            return "this request comes from another website, which may not act at this table"
    return None


class ForeignHost(BadRequest):
    """A request whose ``Host`` is not one of this companion's names: see :func:`host_allowed`."""

    description = "this companion does not answer requests for another host name (open it by its own address)"


def host_allowed(host_header: str, names: frozenset[str]) -> bool:
    """Whether ``host_header`` (``name`` or ``name:port``) names this companion.

    Against DNS rebinding: a page of another site whose name resolves to us reaches us
    with its own name in ``Host``, so that name must be refused. An IP address literal is
    always accepted: a browser sends one only when the page's own address is that IP, and
    if that IP reaches us the page is ours. This keeps working when the LAN address
    changes (DHCP) or the Pi has several interfaces. Ports are not compared: the browser
    reached us on that port anyway, and a port forward (80 to 8000) changes it.
    """
    name = host_header.strip().lower()
    if name.startswith("["):  # an IPv6 literal, "[::1]:8000"
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")  # "tabletop.local." is the same name
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name in names


def set_token_cookie(response: Response, kind: str, token: str) -> None:
    """Give the browser its ``kind`` ("seat" or "host") token as an HttpOnly cookie."""
    name = SEAT_COOKIE if kind == "seat" else HOST_COOKIE
    response.set_cookie(name, token, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="Lax", secure=False)


def base_url() -> str:
    """This server's address as phones reach it, without a trailing slash: the access point's
    while the companion's own Wi-Fi is up, else the public URL ``companion serve`` worked out
    (the LAN address), else the address the request came to."""
    companion = current_app.extensions["companion"]
    access_point = companion.network.join_base_url() if companion.network else None
    return (access_point or companion.public_url or request.host_url).rstrip("/")


def rejoin_url(base_url: str, token: str) -> str:
    """The personal link that gives a token back to a phone that lost its cookie."""
    return base_url.rstrip("/") + REJOIN_PREFIX + token


def rejoin_response(table: Table, token: str) -> Response | None:
    """For ``/R/<token>``: a 303 redirect that sets the token's cookie and leads to a clean
    address (``/play`` for a seat, ``/`` for the host), so the token leaves the address bar.
    None when the token opens nothing (the page then says so)."""
    if table.seat_of(token) is not None:
        response = redirect("/play", code=303)
        set_token_cookie(response, "seat", token)
    elif table.is_host(token):
        response = redirect("/", code=303)
        set_token_cookie(response, "host", token)
    else:
        return None
    response.headers["Cache-Control"] = "no-store"
    return response

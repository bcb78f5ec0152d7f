"""The connectivity probes of phones and laptops, answered as the internet would answer them.

A phone that joins a Wi-Fi network asks a well-known address whether the internet is there.
On the companion's own network there is none, and the phone would then either drop the network
(Android switches back to mobile data) or show the page in a captive-portal sheet that forgets
its cookies (iOS): the player would lose their seat. So the installer's dnsmasq drop-in sends
the probe hosts (``companion.network.PROBE_HOSTS``) to the companion, and these routes give
each operating system the answer it expects from the internet:

- Apple (iOS, macOS): ``/hotspot-detect.html`` and ``/library/test/success.html``: a "Success" page;
- Android and ChromeOS: ``/generate_204`` and ``/gen_204``: 204 No Content;
- Windows: ``/connecttest.txt`` ("Microsoft Connect Test") and ``/ncsi.txt`` ("Microsoft NCSI").

They answer on every network (they reveal nothing) and are never cached.
"""

from __future__ import annotations

from flask import Blueprint, Response

blueprint = Blueprint("probes", __name__)

APPLE_SUCCESS = "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"


def _answer(body: str, status: int = 200, mimetype: str = "text/plain") -> Response:
    response = Response(body, status=status, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-store"  # a phone must ask again on the next network
    return response


@blueprint.get("/hotspot-detect.html")
@blueprint.get("/library/test/success.html")
def apple():
    return _answer(APPLE_SUCCESS, mimetype="text/html")


@blueprint.get("/generate_204")
@blueprint.get("/gen_204")
def android():
    return _answer("", status=204)


@blueprint.get("/connecttest.txt")
def windows():
    return _answer("Microsoft Connect Test")


@blueprint.get("/ncsi.txt")
def windows_legacy():
    return _answer("Microsoft NCSI")

"""The rules pages: ``/rules``, ``/rules/<game-id>`` and ``/rules/current``.

The texts are Markdown files in ``web/rulebook/``, one per game and language, written for
players at the table (``docs/phone.md``, *Rules pages*):

- ``<box>.<lang>.md``: the rules of the box (setup, a turn, scoring, the end), one file per
  box (the game's ``box.id``) even when two game ids play it (Lion Square and its ledger);
- ``with-companion/<game-id>.<lang>.md``: what the companion does in that game id, and for a
  tracker what the players enter.

A page is the two rendered one after the other. Each is rendered once per process and kept
(they never change while the server runs), with Python-Markdown and two of its own extensions:
``attr_list`` gives headings and steps their stable anchors (``{#setup}``, ``{: #setup-deal }``)
so a hint can link to a step, and ``tables``. One small tree processor of ours turns a block
marked ``{: .assumed }`` or ``{: .reading }`` into one that opens with a visible badge
("assumed" / 「推定」, "our reading" / 「解釈」), and collects the sections for the contents.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, redirect, request
from markupsafe import Markup

from companion import games

from .pages import LANGUAGES, choose_language, render_page, texts

blueprint = Blueprint("rules", __name__)

RULEBOOK = Path(__file__).parent / "rulebook"

BADGES = ("assumed", "reading")
"""Block classes that get a badge; its words are the page text ``rules.badge.<class>``."""


@dataclass(frozen=True)
class RulesText:
    html: Markup
    sections: tuple[tuple[str, str], ...]
    """(anchor id, heading) of each ``##`` section, for the contents."""


@lru_cache(maxsize=None)
def rules_text(path: Path, lang: str) -> RulesText:
    """``path`` rendered to HTML for a ``lang`` page (the badges' words), read once."""
    # Python-Markdown only when a rules page is first asked for: importing it is a twentieth
    # of the service's start-up (benchmarks/startup.py), and most evenings nobody reads the rules.
    from .rules_markdown import render

    html, sections = render(path.read_text(encoding="utf-8"), {kind: texts(lang)[f"rules.badge.{kind}"] for kind in BADGES})
    return RulesText(Markup(html), tuple(sections))


def page_parts(game_id: str, lang: str) -> list[RulesText]:
    """The texts making up ``game_id``'s rules page in ``lang``: the box game's rules, then
    what the companion does in this game id."""
    return [
        rules_text(RULEBOOK / f"{games.get(game_id).box.id}.{lang}.md", lang),
        rules_text(RULEBOOK / "with-companion" / f"{game_id}.{lang}.md", lang),
    ]


def _game_list(lang: str) -> list[dict]:
    return [{"id": game_id, "title": games.get(game_id).title[lang]} for game_id in games.ids()]


@blueprint.get("/rules")
def index():
    return render_page("rules_index.html", mode="rules", games=_game_list(choose_language()), unknown=None)


@blueprint.get("/rules/current")
def current():
    """The rules of the game on the table now (the game pages link here, so the link stays
    right when the host starts another game while the page is open), else the list."""
    game_id = current_app.extensions["companion"].table.game_id
    target = f"/rules/{game_id}" if game_id in games.ids() else "/rules"
    if request.args.get("lang") in LANGUAGES:
        target += f"?lang={request.args['lang']}"
    return redirect(target, code=303)


@blueprint.get("/rules/<game_id>")
def game_rules(game_id: str):
    lang = choose_language()
    if game_id not in games.ids():
        return render_page("rules_index.html", status=404, mode="rules", games=_game_list(lang), unknown=game_id)
    parts = page_parts(game_id, lang)
    return render_page("rules.html", mode="rules", game_id=game_id, title=games.get(game_id).title[lang],
                       parts=parts, sections=[section for part in parts for section in part.sections])

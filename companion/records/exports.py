"""Plays as other programs read them: a CSV for spreadsheets and BG Stats' import link."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timezone, tzinfo
from urllib.parse import quote

from .. import games
from .plays import player_key

CSV_COLUMNS = ("play_id", "date", "game", "duration_min", "player", "seat", "start_player", "score", "rank", "winner", "bot",
               "occupants", "turns", "turn_seconds", "longest_turn_seconds")
"""One row per seat: ``player`` is the one the statistics count; ``occupants`` everyone who
played the seat, in order ("Aki > Dai"; empty for plays from before they were kept); the
seat's turns in force, their seconds in all and the longest's (the turn clock; empty for
plays from before turns were kept)."""

BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="
"""BG Stats' documented import address: the play follows as URL-encoded JSON."""

SOURCE_NAME = "Tabletop Companion"



def player_name(player: dict, bot_names: dict[str, str] | None = None) -> str | None:
    """The name a play's player is exported under: a person's name as recorded; a bot's, one
    per level whatever seat it took (``bot_names[level]``, else ``Bot (Normal)``), so other
    programs count each level's bot as one player."""
    level = player.get("bot_level")
    if not level:
        return player["name"]
    return (bot_names or {}).get(level) or f"Bot ({level.capitalize()})"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet recognises a formula (OWASP, *CSV Injection*): a text cell starting so
gets a single quote in front, which the spreadsheet shows as text."""


def _cell(text: str) -> str:
    """A text cell that no spreadsheet runs as a formula (a name typed as =HYPERLINK(...))."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def plays_csv(plays: list[dict], zone: tzinfo | None = None) -> str:
    """One row per player per play (columns :data:`CSV_COLUMNS`), dates in ``zone`` (None:
    this machine's), starting with a byte order mark so spreadsheets read it as UTF-8.
    Text cells are neutralised (:func:`_cell`); numbers, negative scores included, are
    written by us and stay numbers."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        date = _when(play["started_at"], zone).strftime("%Y-%m-%d %H:%M")
        for player in play["players"]:
            writer.writerow([
                play["id"], date, _cell(play["title"]["en"]), play["duration_min"], _cell(player_name(player) or ""), player["seat"] + 1,
                _flag(player["start_player"]), "" if player["score"] is None else player["score"],
                "" if player["rank"] is None else player["rank"], _flag(player["winner"]), _flag(player["bot"]),
                _cell(" > ".join(player_name(occupant) for occupant in player.get("occupants", []))),
                *_turn_cells(player.get("turn_time")),
            ])
    return out.getvalue()


def _turn_cells(turn_time: dict | None) -> list:
    if turn_time is None:
        return ["", "", ""]
    return [turn_time["turns"], turn_time["seconds"], turn_time["longest"]]


def bgstats_payload(play: dict, zone: tzinfo | None = None, bot_names: dict[str, str] | None = None) -> dict:
    """A finished play in BG Stats' push format; a bot is named by :func:`player_name`
    (``bot_names``: the words of the page that sends it) and known by its level."""
    # The board game in the box (Game.box_of), as BG Stats gets it: a full game and its tracker
    # are one board game there, played with the app or the real cards; a score pad's play is
    # of the game its players named. In all four the highest score (herd, wins, points, safe
    # pigs) wins; on a score pad, as the group chose.
    box = games.get(play["game"]).box_of(play["options"])
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(play["id"]),
        "playDate": _when(play["started_at"], zone).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": round(play["duration_min"]),
        "game": {"name": box.name, "sourceGameId": box.id, "highestWins": box.highest_wins, "noPoints": False},
        "players": [
            {"name": player_name(player, bot_names), "score": player["score"], "winner": player["winner"],
             "startPlayer": player["start_player"],
             "sourcePlayerId": f"bot:{player['bot_level']}" if player.get("bot_level") else player_key(player["name"])}
            for player in play["players"] if player["name"] is not None
        ],
    }


def bgstats_url(play: dict, zone: tzinfo | None = None, bot_names: dict[str, str] | None = None) -> str:
    """The link that opens BG Stats with ``play`` filled in (the phone follows it with its own network)."""
    payload = json.dumps(bgstats_payload(play, zone, bot_names), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_URL + quote(payload, safe="")


def _when(timestamp: float, zone: tzinfo | None) -> datetime:
    return datetime.fromtimestamp(timestamp, timezone.utc).astimezone(zone)


def _flag(value: bool) -> int:
    return 1 if value else 0

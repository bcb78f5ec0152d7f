"""Statistics over the plays: what ``GET /api/stats`` answers and the ``/records`` page draws.

Pure computation over the plays as :meth:`~.plays.Records.outcomes` lists them (no storage,
no clock). The decisions, also in ``docs/records.md`` ("Statistics"):

- **plays** count finished plays only; an abandoned play has no winner and no score, so it
  counts in ``abandoned`` and in ``hours`` (the time was spent at the table) and nowhere else;
- **a shared win is a win for each tied winner** (as BG Stats counts it), so the win rates
  of one game's seats can add up to more than 1;
- **the lions' win** (Lion Square) is nobody's: no player wins, the play counts in each
  player's plays, and the game's ``lions_wins`` says how often it happened;
- players are matched with :func:`~.plays.player_key` and shown under their most recent
  spelling; bots are players too, marked ``bot``, one per level whatever seat it took
  (the seat's ``bot_level``; pages name it in their language), so two bots of a level in one
  play are two of its plays;
- **seat positions** are counted in the play's turn order from the player who started (1 =
  started; ``Game.turn_order``: a counterclockwise SWAP 5 goes down the seat numbers),
  per game and player count; a play whose start player is not known (the Lion Square ledger
  does not track it) is left out there;
- **the h-index of games played**: the largest h such that h board games were each played at
  least h times (a full game and its tracker are one board game, as for BG Stats);
- **time per turn** (the turn clock, ``companion/clock.py``): each player's turns in force in
  every play, finished or abandoned (the time was spent), counted for the player the play
  credits the seat to; ``longest_turn`` is the longest of all, with whose and in which play.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict

from .. import games
from .plays import player_key


def stats(plays: list[dict]) -> dict:
    """The statistics of ``plays`` (newest first, as :meth:`Records.outcomes` lists them)."""
    finished = [play for play in plays if not play["abandoned"]]
    return {
        "plays": len(finished),
        "abandoned": len(plays) - len(finished),
        "hours": _hours(plays),
        "h_index": h_index(Counter(_box(play).id for play in finished).values()),
        "games": _games(plays),
        "players": _players(plays),
        "longest_turn": _longest_turn(plays),
    }


def h_index(counts) -> int:
    """The largest h such that h of ``counts`` are each at least h."""
    ordered = sorted(counts, reverse=True)
    return sum(1 for index, count in enumerate(ordered, start=1) if count >= index)


def _hours(plays: list[dict]) -> float:
    return round(sum(play["duration_min"] for play in plays) / 60, 2)


def _box(play: dict) -> games.Box:
    """The board game ``play`` is of (a score pad's play: the game its players named)."""
    return games.get(play["game"]).box_of(play["options"])


def _games(plays: list[dict]) -> list[dict]:
    """Per game id with at least one play, most played first; a score pad's plays per game
    they named (``box``: the board game's id, as ``h_index`` counts them)."""
    by_game: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for play in plays:
        by_game[play["game"], _box(play).id].append(play)
    answer = []
    for (game_id, box_id), its_plays in by_game.items():
        finished = [play for play in its_plays if not play["abandoned"]]
        answer.append({
            "game": game_id,
            "box": box_id,
            "title": games.get(game_id).title_of(its_plays[0]["options"]),  # newest first: the latest spelling
            "plays": len(finished),
            "abandoned": len(its_plays) - len(finished),
            "hours": _hours(its_plays),
            "lions_wins": sum(1 for play in finished if play["lions_win"]),
            "scores": spread([player["score"] for play in finished for player in play["players"]
                              if player["score"] is not None]),
            "seats": _seat_positions(finished),
        })
    return sorted(answer, key=lambda entry: (-entry["plays"], -entry["abandoned"], games.ids().index(entry["game"]),
                                             entry["box"]))


def spread(scores: list[float]) -> dict | None:
    """``{n, min, q1, median, q3, max}`` of ``scores`` (quartiles by the inclusive method:
    the scores are the whole population of plays, not a sample); None without scores."""
    if not scores:
        return None
    ordered = sorted(scores)
    # statistics.quantiles wants two values at least; one value is its own quartiles.
    q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else ordered * 3
    return {"n": len(ordered), "min": ordered[0], "q1": q1, "median": median, "q3": q3, "max": ordered[-1]}


def _seat_positions(finished: list[dict]) -> list[dict]:
    """Per player count: how often each position in turn order won, of ``n`` plays whose
    start player is known."""
    counted: dict[int, list[dict]] = defaultdict(list)
    for play in finished:
        if any(player["start_player"] for player in play["players"]):
            counted[len(play["players"])].append(play)
    answer = []
    for players, its_plays in sorted(counted.items()):
        wins = [0] * players
        for play in its_plays:
            start = next(player["seat"] for player in play["players"] if player["start_player"])
            order = games.get(play["game"]).turn_order(players, start, play["options"])
            for player in play["players"]:
                if player["winner"]:
                    wins[order.index(player["seat"])] += 1
        answer.append({"players": players, "n": len(its_plays), "positions": [
            {"position": position + 1, "wins": won, "share": round(won / len(its_plays), 4)}
            for position, won in enumerate(wins)]})
    return answer


def _players(plays: list[dict]) -> list[dict]:
    """Per player (matched by :func:`player_key`), most plays first, then most wins."""
    found: dict[tuple, dict] = {}  # (bot level or None, key) -> the player: nobody's name is a level's bot
    board_games: dict[tuple, Counter] = defaultdict(Counter)
    keys: dict[str, str] = {}  # name -> player_key(name): a few names, met a thousand times
    turns: dict[tuple, list[float]] = defaultdict(list)
    for play in plays:  # newest first: the first name met is the most recent spelling
        for seat in play["players"]:
            if seat["name"] is None:
                continue
            level = seat.get("bot_level")
            if level:
                name, key = None, f"bot:{level}"
            else:  # a person, or a bot recorded before levels were kept: by its name
                name = seat["name"]
                key = keys.get(name) or keys.setdefault(name, player_key(name))
            key = (level, key)
            player = found.setdefault(key, {"name": name, "key": key[1], "bot": seat["bot"], "bot_level": level,
                                            "plays": 0, "wins": 0, "win_rate": None, "abandoned": 0,
                                            "last_played": play["ended_at"], "h_index": 0, "turn_time": None})
            turns[key] += seat.get("turns", [])
            if play["abandoned"]:
                player["abandoned"] += 1
                continue
            player["plays"] += 1
            player["wins"] += seat["winner"]
            board_games[key][_box(play).id] += 1
    for key, player in found.items():
        if player["plays"]:
            player["win_rate"] = round(player["wins"] / player["plays"], 4)
        player["h_index"] = h_index(board_games[key].values())
        player["turn_time"] = time_per_turn(turns[key])
    return sorted(found.values(), key=lambda p: (-p["plays"], -p["wins"], -p["abandoned"], p["key"]))


def time_per_turn(seconds: list[float]) -> dict | None:
    """``{turns, mean, longest}`` of a player's turn times in seconds; None without any."""
    if not seconds:
        return None
    return {"turns": len(seconds), "mean": round(sum(seconds) / len(seconds), 1), "longest": round(max(seconds), 1)}


def _longest_turn(plays: list[dict]) -> dict | None:
    """The longest turn of all: ``{seconds, name, bot_level, game, play}`` (the first met, the
    newest play, of equals); None when no play kept its turns."""
    longest = None  # (seconds, the seat's player, its play)
    for play in plays:
        for seat in play["players"]:
            for seconds in seat.get("turns", []):
                if longest is None or seconds > longest[0]:
                    longest = (seconds, seat, play)
    if longest is None:
        return None
    seconds, seat, play = longest
    return {"seconds": round(seconds, 1), "name": seat["name"], "bot_level": seat.get("bot_level"),
            "game": play["game"], "play": play["id"]}

"""Reading the plays, matching their players by name, renaming players and deleting plays."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path

from .. import games
from ..games.base import render_text
from ..store import GameRecord, Store, mover
from ..table import Conflict, NotFound, TableError, clean_name

LARGEST_ID = 2**63 - 1
"""SQLite's largest integer: a larger number is no play, and SQLite cannot even compare it."""

LANGUAGES = ("en", "ja")

RECENT_PLAYS = 200
"""How many of the latest plays :meth:`Records.used_before` offers names from."""

BotName = Callable[[int, str, str], str | None]
"""How pages name the bot of a level on a seat in a language: (seat, level, language) -> its
name, or None for a level they do not know (then the name its seat was kept under)."""


def player_key(name: str) -> str:
    """The form under which two names are one player: Unicode NFKC, then case folding
    ("ＡＫＩ" and "aki" are one player; "あき" and "アキ" stay two)."""
    return unicodedata.normalize("NFKC", name).casefold()


class Records:
    """The plays kept in a data directory. Thread-safe (one lock around its own connection).

    Texts (summaries, the moves' words) name each player in each language; a bot is named by
    ``bot_name`` (the pages' words, as the live phone names it), else by the name its seat was
    kept under (``Bot 2 (Normal)``)."""

    def __init__(self, data_dir: str | Path, bot_name: BotName | None = None):
        self._store = Store(data_dir)
        self._lock = threading.Lock()
        self._bot_name = bot_name

    def close(self) -> None:
        with self._lock:
            self._store.close()

    # ------------------------------------------------------------------ reading

    def plays(self, game: str | None = None, limit: int | None = None, before: int | None = None) -> list[dict]:
        """The plays, newest first: of one ``game`` id, the ``limit`` newest with an id below ``before``."""
        _require_game(game)
        for name, value in (("limit", limit), ("before", before)):
            if value is not None and (not isinstance(value, int) or not 1 <= value <= LARGEST_ID):
                raise TableError(f"{name} must be a whole number of 1 or more, not {value!r}",
                                 f"{name} は1以上の整数にしてください（{value!r} は使えません）")
        with self._lock:
            records = self._store.plays(game, -1 if limit is None else limit, before)
            ids = [record.id for record in records]
            seating, occupants, chosen = self._store.seating(ids), self._store.occupants(ids), self._store.chosen_seeds(ids)
            turns = self._store.turns(ids)
        return [{**self._as_play(record, seating[record.id], occupants[record.id], turns[record.id]),
                 "seed_chosen": record.id in chosen}
                for record in records]

    def outcomes(self, game: str | None = None) -> list[dict]:
        """What the statistics read of every play (of one ``game`` id), newest first: its
        ``id``, ``game``, ``options``, ``ended_at``, ``duration_min``, ``abandoned``, ``lions_win`` and ``players``
        ``[{seat, name, bot, start_player, score, winner, turns}]`` (``turns``: the seconds of
        each of the seat's turns in force). :meth:`plays` without the words (titles,
        summaries) and ranks, which cost more than the statistics themselves."""
        _require_game(game)
        with self._lock:
            records = self._store.plays(game)
            ids = [record.id for record in records]
            seating, turns = self._store.seating(ids), self._store.turns(ids)
        return [_outcome(record, seating[record.id], turns[record.id]) for record in records]

    def used_before(self) -> dict:
        """What a returning group picks instead of typing, from the last :data:`RECENT_PLAYS`
        plays, the most recently used first, each once (matched as :func:`player_key` matches
        players, in its latest spelling): ``players``, the people's names (no bot); and
        ``options``, per game id and option without a list of choices (the score pad's game
        name), the values given (an empty one left out)."""
        with self._lock:
            records = self._store.plays(limit=RECENT_PLAYS)
            seating = self._store.seating([record.id for record in records])
        players = _distinct(seat["name"] for record in records for seat in seating[record.id]
                            if seat["name"] is not None and not seat["bot"])
        options: dict[str, dict[str, list]] = {}
        for game_id in games.ids():
            typed = [option.name for option in games.get(game_id).options if option.choices is None]
            for name in typed:
                values = _distinct(record.options.get(name) for record in records if record.game == game_id
                                   and isinstance(record.options.get(name), str) and record.options[name])
                if values:
                    options.setdefault(game_id, {})[name] = values
        return {"players": players, "options": options}

    def result(self, play_id: int) -> dict:
        """One play as :meth:`plays` lists it, without its moves: what a finished game's phone
        shows and links (the result, BG Stats). The game-over view showed all of it already,
        so serving it is not noted as shown: the host may still take the last move back."""
        with self._lock:
            record = self._require_play(play_id)
            seating = self._store.seating([play_id])[play_id]
            occupants = self._store.occupants([play_id])[play_id]
            seed_chosen = self._store.seed_chosen(play_id)
            turns = self._store.turns([play_id])[play_id]
        return {**self._as_play(record, seating, occupants, turns), "seed_chosen": seed_chosen}

    def play(self, play_id: int) -> dict:
        """One play with its whole action log: who moved, what, when, and whether it was taken back."""
        with self._lock:
            record = self._require_shown_play(play_id)
            seating = self._store.seating([play_id])[play_id]
            occupants = self._store.occupants([play_id])[play_id]
            since = self._store.occupant_starts(play_id)
            actions = self._store.action_log(play_id)
            seed_chosen = self._store.seed_chosen(play_id)
            turns = self._store.turns([play_id])[play_id]
            texts: dict[int, list[dict]] = {}
            for _, action, entry, _ in self._store.log_entries(play_id):
                if action is not None and entry.get("text"):
                    texts.setdefault(action, []).append(entry["text"])
        play = {**self._as_play(record, seating, occupants, turns), "seed_chosen": seed_chosen}
        names = [seat["name"] for seat in seating]
        spoken = self._names(seating)

        def mover_name(seat: int, n: int) -> str | None:
            """Who made action ``n`` of ``seat``: its occupant then (the seat's player in plays from before occupants were kept)."""
            owner = mover(since.get(seat, []), n)
            if owner is not None:
                return occupants[seat][owner]["name"]
            return names[seat] if seat < len(names) else None

        play["actions"] = [
            {"n": a["n"], "seat": a["seat"], "name": mover_name(a["seat"], a["n"]),
             "action": a["action"], "at": a["at"], "undone": a["undone"],
             "text": [{language: render_text(text[language] or text["en"], spoken[language]) for language in LANGUAGES}
                      for text in texts.get(a["n"], [])]}
            for a in actions
        ]
        in_force = [a for a in actions if not a["undone"]]
        # A correction (the score pad's) names the game version it was made at: the move in
        # force of that number, whose clock time says when.
        play["corrections"] = [{**correction, "at": in_force[correction["v"] - 1]["at"],
                                "name": mover_name(correction["by"], in_force[correction["v"] - 1]["n"])}
                               for correction in (record.result or {}).get("corrections", [])]
        last = max((a["n"] for a in actions), default=0)
        play["turns"] = [{"seat": turn["seat"], "name": mover_name(turn["seat"], turn["action"] or last + 1),
                          "seconds": turn["seconds"], "action": turn["action"], "undone": turn["undone"]}
                         for turn in turns]
        return play

    def replay(self, play_id: int, step: int) -> dict:
        """The play after its first ``step`` moves in force, rebuilt by replaying the stored
        log with the engine: the public view, and every hand (each seat's private view; the
        play is over, so nothing is secret any more). ``steps`` is the number of moves in force."""
        with self._lock:
            record = self._require_shown_play(play_id)
            actions = self._store.applied_actions(play_id)
            seating = self._store.seating([play_id])[play_id]
            turns = self._store.turns([play_id])[play_id]
            names = [seat["name"] for seat in seating]
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(actions):
            raise TableError(f"step must be a whole number from 0 to {len(actions)}, not {step!r}",
                             f"step は0から{len(actions)}までの整数にしてください（{step!r} は使えません）")
        game = games.get(record.game)
        state = game.setup(record.players, record.seed, record.options)
        for _, seat, action in actions[:step]:
            state = game.apply(state, seat, action)
        return {"id": play_id, "game": record.game, "title": game.title_of(record.options), "names": names,
                "bots": [seat["bot_level"] for seat in seating], "step": step,
                "steps": len(actions), "view": game.view(state, None),
                "clock": _clock_at(record.players, turns, [n for n, _, _ in actions], step),
                "hands": {str(seat): game.view(state, seat)["private"] for seat in range(record.players)}}

    # ------------------------------------------------------------------ changing (the host's)

    def rename(self, old: str, new: str) -> int:
        """Rename a player in every play: every seat whose name matches ``old`` (see
        :func:`player_key`) gets ``new``. Returns how many seats changed."""
        if not isinstance(old, str):
            raise TableError("the old name must be text", "元の名前は文字で入力してください")
        new = clean_name(new)
        with self._lock:
            matching = [name for name in self._store.seated_names() if player_key(name) == player_key(old)]
            if not matching:
                raise NotFound(f"no play has a player named {old!r}", f"{old!r} という名前のプレイヤーの記録はありません")
            with self._store.transaction():
                return self._store.rename_seated(matching, new)

    def delete(self, play_id: int) -> None:
        """Delete a play, its moves and its log. The table's current game is refused: its
        table still shows it (start another game first)."""
        with self._lock:
            self._require_play(play_id)
            if self._store.get_meta("current_game") == play_id:
                raise Conflict("this play is the table's current game: start another game before deleting it",
                               "この記録はテーブルで今のゲームです。別のゲームを始めてから削除してください")
            with self._store.transaction():
                self._store.delete_game(play_id)

    # ------------------------------------------------------------------ inside

    def _as_play(self, record: GameRecord, seating: list[dict], occupants: dict[int, list[dict]],
                 turns: list[dict]) -> dict:
        return _play(record, seating, occupants, self._names(seating), turns)

    def _names(self, seating: list[dict]) -> dict[str, list[str | None]]:
        """language -> each seat's name as texts say it: a bot's in that language (by its level)."""
        return {language: [(self._bot_name and seat["bot_level"] and self._bot_name(seat["seat"], seat["bot_level"], language))
                           or seat["name"] for seat in seating]
                for language in LANGUAGES}

    def _require_shown_play(self, play_id) -> GameRecord:
        """:meth:`_require_play` for a play whose moves or hands are about to be served. The
        table's current game, once over, can still be reopened by an undo: it is checked
        and noted as shown in one transaction, so either the undo came first (and this is
        no play any more) or the table refuses to reopen it from now on."""
        if self._store.get_meta("current_game") != play_id:
            return self._require_play(play_id)
        with self._store.transaction():
            record = self._require_play(play_id)
            self._store.note_shown(play_id)
        return record

    def _require_play(self, play_id) -> GameRecord:
        if (not isinstance(play_id, int) or isinstance(play_id, bool) or not 1 <= play_id <= LARGEST_ID
                or not self._store.is_play(play_id)):
            raise NotFound(f"there is no play {play_id!r}", f"記録 {play_id!r} はありません")
        return self._store.game(play_id)


def _play(record: GameRecord, seating: list[dict], occupants: dict[int, list[dict]],
          spoken: dict[str, list[str | None]], turns: list[dict]) -> dict:
    """A stored game as a play: its players with their names then, scores, ranks and winners,
    and their ``turn_time`` (:func:`turn_time`);
    its summary says each name as ``spoken`` in each language. Each player's ``occupants``
    are everyone who played the seat, in order (``{name, bot_level, moves, finished}``: those
    who made a move in force or were there at the end; empty for plays from before they were
    kept); the player's own ``name`` is the one the statistics count (docs/records.md)."""
    result = record.result or {}
    winners = set(result.get("winners", []))
    scores = result.get("scores", {})
    ranks = _ranks(record.players, result)
    return {
        "id": record.id,
        "game": record.game,
        "title": games.get(record.game).title_of(record.options),
        "options": record.options,
        "started_at": record.started_at,
        "ended_at": record.ended_at,
        "duration_min": round((record.ended_at - record.started_at) / 60, 1),
        "abandoned": record.abandoned,
        "lions_win": bool(result.get("lions_win")),
        "summary": _summary(record, result, spoken),
        "players": [
            {"seat": seat["seat"], "name": seat["name"], "bot": seat["bot"], "bot_level": seat["bot_level"],
             "start_player": seat["start_player"],
             "score": scores.get(str(seat["seat"])), "rank": ranks.get(seat["seat"]), "winner": seat["seat"] in winners,
             "turn_time": turn_time(_seat_turns(turns, seat["seat"])),
             "occupants": [occupant for occupant in occupants.get(seat["seat"], []) if occupant["moves"] or occupant["finished"]]}
            for seat in seating
        ],
    }


def _distinct(names) -> list[str]:
    """``names`` once each as :func:`player_key` matches them, in their first spelling and order."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(player_key(name), name)
    return list(seen.values())


def _require_game(game: str | None) -> None:
    """Refuse a ``game`` that is no game id (None: every game)."""
    if game is not None and game not in games.ids():
        raise NotFound(f"there is no game {game!r} (games: {', '.join(games.ids())})",
                       f"{game!r} というゲームはありません（ゲーム: {', '.join(games.ids())}）")


def _seat_turns(turns: list[dict], seat: int) -> list[float]:
    """The seconds of ``seat``'s turns in force."""
    return [turn["seconds"] for turn in turns if turn["seat"] == seat and not turn["undone"]]


def turn_time(seconds: list[float]) -> dict | None:
    """A player's turns in a play: ``{turns, seconds, longest}`` (how many, their seconds in
    all, the longest's), or None when the play kept none (played before the turn clock)."""
    if not seconds:
        return None
    return {"turns": len(seconds), "seconds": round(sum(seconds), 1), "longest": round(max(seconds), 1)}


def _clock_at(players: int, turns: list[dict], moves: list[int], step: int) -> dict:
    """The turn clock of a replay after its first ``step`` moves in force (``moves``: their
    numbers, in order): each seat's time in the turns they ended (``totals``), and the turns
    the ``step``-th move ended (``ended``: ``[{seat, seconds}]``)."""
    done = set(moves[:step])
    last = moves[step - 1] if step else None
    totals = [0.0] * players
    ended = []
    for turn in turns:
        if turn["action"] in done and not turn["undone"]:
            totals[turn["seat"]] += turn["seconds"]
            if turn["action"] == last:
                ended.append({"seat": turn["seat"], "seconds": round(turn["seconds"], 1)})
    return {"totals": [round(total, 1) for total in totals], "ended": ended}


def _outcome(record: GameRecord, seating: list[dict], turns: list[dict]) -> dict:
    """A stored game as :meth:`Records.outcomes` lists it."""
    result = record.result or {}
    winners = set(result.get("winners", []))
    scores = result.get("scores", {})
    return {
        "id": record.id,
        "game": record.game,
        "options": record.options,  # the turn order may depend on them (SWAP 5's direction)
        "ended_at": record.ended_at,
        "duration_min": round((record.ended_at - record.started_at) / 60, 1),
        "abandoned": record.abandoned,
        "lions_win": bool(result.get("lions_win")),
        "players": [{**seat, "score": scores.get(str(seat["seat"])), "winner": seat["seat"] in winners,
                     "turns": _seat_turns(turns, seat["seat"])} for seat in seating],
    }


def _ranks(players: int, result: dict) -> dict[int, int]:
    """seat -> rank (ties share one, the next rank skips: 1, 2, 2, 4). The game's own
    ranking where it has one; else the winners first, the others by score, highest first.
    When the lions win, they are first: the players rank from 2. No result: no ranks."""
    if not result:
        return {}
    if "ranking" in result:
        return {entry["seat"]: entry["place"] for entry in result["ranking"]}
    winners = result.get("winners", [])
    scores = result.get("scores", {})
    ranks = {seat: 1 for seat in winners}
    others = sorted((seat for seat in range(players) if seat not in ranks), key=lambda s: -scores.get(str(s), 0))
    first = 2 if result.get("lions_win") else len(winners) + 1
    for index, seat in enumerate(others):
        before = others[index - 1] if index else None
        tied = before is not None and scores.get(str(before)) == scores.get(str(seat))
        ranks[seat] = ranks[before] if tied else first + index
    return ranks


def _summary(record: GameRecord, result: dict, spoken: dict[str, list[str | None]]) -> dict:
    """The play in a sentence, both languages (names as ``spoken`` in each): the result's own
    words where the game has them, else the winners named; the lions' win and an abandoned
    play say so."""
    if record.abandoned:
        return {"en": "Abandoned before the end.", "ja": "途中で中断されました。"}
    if "summary" in result:
        return {language: render_text(result["summary"][language], spoken[language]) for language in LANGUAGES}
    if result.get("lions_win"):
        return {"en": "The lions win: no player does.", "ja": "ライオンの勝ち: 勝ったプレイヤーはいません。"}
    who = {language: [render_text("{s%d}" % seat, spoken[language]) for seat in result.get("winners", [])]
           for language in LANGUAGES}
    return {"en": f"{' & '.join(who['en'])} {'wins' if len(who['en']) == 1 else 'share the win'}.",
            "ja": f"{'・'.join(who['ja'])}の勝ち。"}

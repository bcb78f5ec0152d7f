"""SQLite persistence for the table: every change is committed before anyone is told.

The database is the table's memory across power cuts. It is opened in WAL mode with
``synchronous=FULL`` (``EXTRA`` should WAL be refused; see ``_open_for_writing``), so a
change whose transaction returned is on the disk even if the plug is pulled the next
instant; a transaction cut short leaves no trace.

What is stored (see SCHEMA): the table's own keys (version, join code, host, when it was
last opened), the games played (id, players, options, seed, result), the seats, every
action in order, undone ones flagged rather than deleted, everyone who sat on a seat during
each game (``occupants``: from which action on, and whether they were still there at its end),
each turn's time (``turns``, kept by the turn clock, ``companion/clock.py``: the seat, the
seconds its clock ran, and the action whose change ended the turn, so a turn ended by a move
that is taken back counts as taken back too), and each game's whole log (the
entries its setup and each action wrote, as the engine wrote them, and the table's own). A game's state is never the source of truth: it is
recomputed by replaying the seed and the actions, from a periodic snapshot when there
is one (snapshots only save time; deleting them changes nothing).
"""

from __future__ import annotations

import bisect
import json
import logging
import sqlite3
import time
from urllib.parse import quote
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id         INTEGER PRIMARY KEY,
    game       TEXT    NOT NULL,
    players    INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    options    TEXT    NOT NULL,
    started_at REAL    NOT NULL,
    ended_at   REAL,
    result     TEXT,
    abandoned  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    seat       INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    joined_at  REAL    NOT NULL,
    bot        TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    n         INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    action    TEXT    NOT NULL,
    at        REAL    NOT NULL,
    undone_at REAL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    action  INTEGER,
    entry   TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS seating (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seat         INTEGER NOT NULL,
    name         TEXT,
    bot          INTEGER NOT NULL DEFAULT 0,
    start_player INTEGER NOT NULL DEFAULT 0,
    bot_level    TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS occupants (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    since     INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    bot_level TEXT,
    finished  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS occupants_by_game ON occupants (game_id, seat, id);
CREATE TABLE IF NOT EXISTS chosen_seeds (
    game_id INTEGER PRIMARY KEY REFERENCES games(id)
);
CREATE TABLE IF NOT EXISTS turns (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    seconds REAL    NOT NULL,
    action  INTEGER,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    applied INTEGER NOT NULL,
    state   TEXT    NOT NULL,
    PRIMARY KEY (game_id, applied)
);
"""


ADDED_COLUMNS = (("seats", "bot", "TEXT"), ("seating", "bot_level", "TEXT"))
"""Columns added since schema 1 (a bot's level on a seat and in a play's seating): a
database without them gets them when opened, with NULL (a person, or a level not known)."""


def _add_columns(db: sqlite3.Connection) -> None:
    for table, column, kind in ADDED_COLUMNS:
        if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


_IS_PLAY = ("ended_at IS NOT NULL AND (abandoned = 0 OR EXISTS "
            "(SELECT 1 FROM actions WHERE actions.game_id = games.id AND undone_at IS NULL))")
"""SQL: a game counts as a play when it ended, or was abandoned after a move still in force."""


class StorageError(RuntimeError):
    """The database refused a write (disk full, read-only, corrupt). Nothing was changed."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    seed: int
    options: dict
    started_at: float
    ended_at: float | None
    result: dict | None
    abandoned: bool


class Store:
    """The table's SQLite database. Not thread-safe by itself: the Table serialises calls."""

    FILENAME = "companion.sqlite3"

    def __init__(self, data_dir: str | Path):
        self.path = Path(data_dir) / self.FILENAME
        self.problem: str | None = None
        """Why nothing can be saved (a read-only or full SD card), or None when all is well.
        It is shown to everyone, so it never names the data directory (the log does)."""
        self._retry_writes = False
        """Whether the problem came from a failed write: then every change still tries, and
        the first that succeeds clears it (someone made room on the card)."""
        try:
            self._db = self._open_for_writing()
        except (sqlite3.Error, OSError) as error:
            # Crashing would only make systemd restart us into the same wall. Instead the
            # table shows what was saved last and refuses every change with this reason.
            reason = error.strerror if isinstance(error, OSError) else str(error)  # an OSError's text names the path
            self.problem = f"the companion cannot save its data ({reason})"
            log.error("cannot open %s for writing, so every change is refused until a restart: %s", self.path, error)
            self._db = self._open_read_only()
        else:
            self._check_writable()
        stored = self.get_meta("schema")
        if stored is not None and int(stored) != SCHEMA_VERSION:
            raise StorageError(f"{self.path} has schema {stored}; this companion reads schema {SCHEMA_VERSION}")

    def _open_for_writing(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            # Durability (sqlite.org/pragma.html#pragma_synchronous): a move is acknowledged once
            # its COMMIT returns, so that commit must survive a power cut. In WAL mode a commit
            # is appended to the log, and synchronous=FULL syncs the log at every commit;
            # NORMAL would sync only at checkpoints, keeping the database whole but able to
            # lose its last acknowledged moves. Should WAL be refused (the pragma then answers
            # the mode kept, e.g. "delete"), a commit is the journal's removal, which reaches
            # the disk only when its folder is synced: EXTRA does that, FULL does not.
            journal = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if journal == "wal":
                db.execute("PRAGMA synchronous=FULL")
            else:
                log.warning("%s: SQLite kept journal mode %r instead of WAL; synchronous=EXTRA keeps "
                            "every commit through a power cut", self.path, journal)
                db.execute("PRAGMA synchronous=EXTRA")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("BEGIN IMMEDIATE")
            for statement in _statements(SCHEMA):
                db.execute(statement)
            _add_columns(db)
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (json.dumps(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        return db

    def _open_read_only(self) -> sqlite3.Connection:
        """The saved database as it is, never written; an empty one if it cannot be read.

        Read-only mode first: it still reads the write-ahead log, which holds the last
        commits before a power cut. On a read-only card SQLite may be unable to set up the
        log's shared memory; then ``immutable``, which reads the main file alone."""
        if self.path.is_file():
            location = quote(str(self.path.resolve()))
            for mode in ("mode=ro", "immutable=1"):
                try:
                    db = sqlite3.connect(f"file:{location}?{mode}", uri=True, isolation_level=None,
                                         check_same_thread=False)
                    db.execute("SELECT COUNT(*) FROM meta").fetchone()  # connecting alone reads nothing
                    if any(column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                           for table, column, _ in ADDED_COLUMNS):
                        # Saved by an older version, and read-only: read a copy in memory that has them.
                        copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                        db.backup(copy)
                        db.close()
                        _add_columns(copy)
                        db = copy
                    return db
                except sqlite3.Error:
                    continue
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        for statement in _statements(SCHEMA):
            db.execute(statement)
        return db

    def _check_writable(self) -> None:
        """Opening writes nothing, so a full card would go unnoticed until the first change:
        one real write (the time the table was opened) finds out at once."""
        try:
            with self.transaction():
                self._set_meta("opened_at", time.time())
        except StorageError:
            pass  # the problem is set and logged, and the next change tries again

    def close(self) -> None:
        self._db.close()

    # -------------------------------------------------------------- transactions

    def transaction(self):
        if self.problem and not self._retry_writes:
            raise StorageError(self.problem)
        return _Transaction(self)

    def _write_failed(self, error: sqlite3.Error) -> None:
        """A write failed. A failure of the disk (full, I/O, read-only) becomes the problem
        the table shows, logged once per episode; a refused statement is a bug, not a state."""
        if isinstance(error, sqlite3.OperationalError) and self.problem is None:
            self.problem, self._retry_writes = f"the companion cannot save its data ({error})", True
            log.error("cannot write to %s (%s): every change is refused until a write succeeds again", self.path, error)

    def _write_succeeded(self) -> None:
        if self._retry_writes:
            self.problem, self._retry_writes = None, False
            log.warning("%s can be written again: changes are saved again", self.path)

    # -------------------------------------------------------------- meta

    def get_meta(self, key: str, default=None):
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def _set_meta(self, key: str, value) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def set_meta(self, key: str, value) -> None:
        """Set a table key (inside a transaction)."""
        self._set_meta(key, value)

    # -------------------------------------------------------------- games

    def add_game(self, game: str, players: int, seed: int, options: dict) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (game, players, seed, options, started_at) VALUES (?, ?, ?, ?, ?)",
            (game, players, seed, json.dumps(options, sort_keys=True), time.time()),
        )
        return cursor.lastrowid

    def game(self, game_id: int) -> GameRecord | None:
        row = self._db.execute(
            "SELECT id, game, players, seed, options, started_at, ended_at, result, abandoned FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else _game_record(row)

    def finished_games(self, limit: int) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT id, game, players, seed, options, started_at, ended_at, result, abandoned FROM games "
            "WHERE ended_at IS NOT NULL ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [_game_record(row) for row in rows]

    def set_options(self, game_id: int, options: dict) -> None:
        """Replace a game's options (before its first move: who starts was drawn)."""
        self._db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options, sort_keys=True), game_id))

    def end_game(self, game_id: int, result: dict | None, abandoned: bool) -> None:
        self._db.execute(
            "UPDATE games SET ended_at = ?, result = ?, abandoned = ? WHERE id = ?",
            (time.time(), None if result is None else json.dumps(result), int(abandoned), game_id),
        )

    def choose_seed(self, game_id: int) -> None:
        """Note that game ``game_id`` was started with a seed someone chose (inside a transaction)."""
        self._db.execute("INSERT OR IGNORE INTO chosen_seeds (game_id) VALUES (?)", (game_id,))

    def seed_chosen(self, game_id: int) -> bool:
        """Whether game ``game_id`` was started with a chosen seed: whoever chose it may know every hand."""
        return game_id in self.chosen_seeds([game_id])

    def chosen_seeds(self, game_ids: list[int]) -> set[int]:
        """Which of ``game_ids`` were started with a chosen seed. (A database saved before
        chosen seeds were noted and opened read-only has no such table: none was.)"""
        found: set[int] = set()
        for start in range(0, len(game_ids), 500):  # SQLite caps the parameters of one statement
            chunk = game_ids[start:start + 500]
            try:
                rows = self._db.execute(f"SELECT game_id FROM chosen_seeds WHERE game_id IN ({','.join('?' * len(chunk))})",
                                        chunk).fetchall()
            except sqlite3.OperationalError:  # an old database opened read-only: none was chosen
                return set()
            found.update(game_id for (game_id,) in rows)
        return found

    def reopen_game(self, game_id: int) -> None:
        """An undo took back a game's last action: it is being played again."""
        self._db.execute("UPDATE games SET ended_at = NULL, result = NULL WHERE id = ?", (game_id,))

    def note_shown(self, game_id: int) -> None:
        """Someone may have seen every hand of the finished game ``game_id`` (its replay or
        its moves were served): if it is the table's current game, note it (inside a
        transaction), so that the table refuses to reopen it (:meth:`shown_after_end`)."""
        if self.get_meta("current_game") == game_id:
            self._set_meta("shown_after_end", game_id)

    def shown_after_end(self, game_id: int) -> bool:
        """Whether the finished game ``game_id``'s hands may have been seen by anyone."""
        return self.get_meta("shown_after_end") == game_id

    # -------------------------------------------------------------- seats

    def seats(self) -> dict[int, tuple[str, str, str | None]]:
        """seat -> (name, token hash, bot level or None for a person)."""
        rows = self._db.execute("SELECT seat, name, token_hash, bot FROM seats").fetchall()
        return {seat: (name, token_hash, bot) for seat, name, token_hash, bot in rows}

    def add_seat(self, seat: int, name: str, token_hash: str, bot: str | None = None) -> None:
        self._db.execute(
            "INSERT INTO seats (seat, name, token_hash, joined_at, bot) VALUES (?, ?, ?, ?, ?)",
            (seat, name, token_hash, time.time(), bot),
        )

    def remove_seat(self, seat: int) -> None:
        self._db.execute("DELETE FROM seats WHERE seat = ?", (seat,))

    def remove_seats_from(self, first: int) -> None:
        self._db.execute("DELETE FROM seats WHERE seat >= ?", (first,))

    # -------------------------------------------------------------- actions

    def add_action(self, game_id: int, n: int, seat: int, action: dict) -> None:
        self._db.execute(
            "INSERT INTO actions (game_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, n, seat, json.dumps(action, sort_keys=True, ensure_ascii=False), time.time()),
        )

    def applied_actions(self, game_id: int, after: int = 0, upto: int | None = None) -> list[tuple[int, int, dict]]:
        """The actions still in force, in order, as (n, seat, action): from the one after
        the first ``after`` (those a snapshot already holds) up to the ``upto``-th."""
        limit = -1 if upto is None else max(upto - after, 0)
        rows = self._db.execute(
            "SELECT n, seat, action FROM actions WHERE game_id = ? AND undone_at IS NULL ORDER BY n LIMIT ? OFFSET ?",
            (game_id, limit, after),
        ).fetchall()
        return [(n, seat, json.loads(action)) for n, seat, action in rows]

    def last_action_number(self, game_id: int) -> int:
        row = self._db.execute("SELECT MAX(n) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    def undo_actions_from(self, game_id: int, first: int) -> int:
        """Flag every action in force from number ``first`` on as undone (one undo: a person's
        move and the bots' replies after it); return how many were."""
        return self._db.execute("UPDATE actions SET undone_at = ? WHERE game_id = ? AND n >= ? AND undone_at IS NULL",
                                (time.time(), game_id, first)).rowcount

    def action_log(self, game_id: int) -> list[dict]:
        """The whole log of a game, undone actions included (for export and audits)."""
        rows = self._db.execute(
            "SELECT n, seat, action, at, undone_at FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
        return [
            {"n": n, "seat": seat, "action": json.loads(action), "at": at, "undone": undone_at is not None}
            for n, seat, action, at, undone_at in rows
        ]

    def last_applied_actions(self, game_id: int, limit: int) -> list[tuple[int, int]]:
        """``(n, seat)`` of the last ``limit`` actions in force, the last one first."""
        return self._db.execute(
            "SELECT n, seat FROM actions WHERE game_id = ? AND undone_at IS NULL ORDER BY n DESC LIMIT ?",
            (game_id, limit)).fetchall()

    # -------------------------------------------------------------- log

    def add_log_entries(self, game_id: int, action: int | None, entries: list[dict]) -> list[int]:
        """Append log entries written by action number ``action`` (None: by the setup or the
        table itself); return their places in the game's log."""
        row = self._db.execute("SELECT MAX(seq) FROM log WHERE game_id = ?", (game_id,)).fetchone()
        first = (row[0] or 0) + 1
        self._db.executemany(
            "INSERT INTO log (game_id, seq, action, entry) VALUES (?, ?, ?, ?)",
            [(game_id, first + i, action, json.dumps(entry, sort_keys=True, ensure_ascii=False))
             for i, entry in enumerate(entries)],
        )
        return list(range(first, first + len(entries)))

    def drop_log_entries(self, game_id: int) -> None:
        """Delete a game's whole log (before its first move, to write its setup's again)."""
        self._db.execute("DELETE FROM log WHERE game_id = ?", (game_id,))

    def log_entries(self, game_id: int) -> list[tuple[int, int | None, dict, bool]]:
        """A game's whole log in order, as ``(seq, action, entry, undone)``: ``undone`` says
        whether the action that wrote the entry was taken back."""
        try:
            rows = self._db.execute(
                "SELECT log.seq, log.action, log.entry, actions.undone_at IS NOT NULL FROM log "
                "LEFT JOIN actions ON actions.game_id = log.game_id AND actions.n = log.action "
                "WHERE log.game_id = ? ORDER BY log.seq",
                (game_id,),
            ).fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):  # a database from before logs were kept, opened read-only
                return []
            raise
        return [(seq, action, json.loads(entry), bool(undone)) for seq, action, entry, undone in rows]

    # -------------------------------------------------------------- turns

    def add_turns(self, game_id: int, action: int | None, turns: list[tuple[int, float]]) -> None:
        """Keep the turns that ended with one change of game ``game_id`` (inside its
        transaction), as ``(seat, seconds)``: ``action`` is the number of the action applied or
        taken back by that change, or None when no action ended them (the game abandoned)."""
        row = self._db.execute("SELECT MAX(seq) FROM turns WHERE game_id = ?", (game_id,)).fetchone()
        first = (row[0] or 0) + 1
        self._db.executemany("INSERT INTO turns (game_id, seq, seat, seconds, action) VALUES (?, ?, ?, ?, ?)",
                             [(game_id, first + i, seat, seconds, action) for i, (seat, seconds) in enumerate(turns)])

    def turns(self, game_ids: list[int]) -> dict[int, list[dict]]:
        """game id -> its turns in order, ``{seat, seconds, action, undone}``: ``undone`` when
        the action that ended the turn was taken back. (A database saved before turns were
        kept, opened read-only, has no such table: no game has any.)"""
        found: dict[int, list[dict]] = {game_id: [] for game_id in game_ids}
        for start in range(0, len(game_ids), 500):  # SQLite caps the parameters of one statement
            chunk = game_ids[start:start + 500]
            try:
                rows = self._db.execute(
                    "SELECT turns.game_id, turns.seat, turns.seconds, turns.action, actions.undone_at IS NOT NULL "
                    "FROM turns LEFT JOIN actions ON actions.game_id = turns.game_id AND actions.n = turns.action "
                    f"WHERE turns.game_id IN ({','.join('?' * len(chunk))}) ORDER BY turns.game_id, turns.seq",
                    chunk).fetchall()
            except sqlite3.OperationalError:
                return found
            for game_id, seat, seconds, action, undone in rows:
                found[game_id].append({"seat": seat, "seconds": seconds, "action": action, "undone": bool(undone)})
        return found

    # -------------------------------------------------------------- play records
    # The records (companion/records) read finished games through these and keep who sat
    # where at the end of each game (names change and seats are freed afterwards).

    def record_seating(self, game_id: int, seats: list[dict]) -> None:
        """Keep who sat where when game ``game_id`` ended (inside a transaction): one
        ``{seat, name, bot, start_player}`` per seat, ``name`` None for a free seat, ``bot``
        the level of the bot that sat there or None for a person."""
        self._db.execute("DELETE FROM seating WHERE game_id = ?", (game_id,))
        self._db.executemany(
            "INSERT INTO seating (game_id, seat, name, bot, start_player, bot_level) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s["seat"], s["name"], int(s["bot"] is not None), int(s["start_player"]), s["bot"]) for s in seats],
        )

    def add_occupant(self, game_id: int, seat: int, name: str, bot_level: str | None) -> None:
        """Note that ``name`` (a bot of ``bot_level``, or a person) sat on ``seat`` of game
        ``game_id`` now: the game's actions numbered after the last one so far are theirs
        (inside a transaction), until the next occupant of that seat."""
        self._db.execute("INSERT INTO occupants (game_id, seat, since, name, bot_level) VALUES (?, ?, ?, ?, ?)",
                         (game_id, seat, self.last_action_number(game_id), name, bot_level))

    def record_finishers(self, game_id: int, seats: list[int]) -> None:
        """Mark the last occupant of each of ``seats`` (those taken as game ``game_id`` ends)
        as having finished the seat, and nobody else (inside a transaction)."""
        self._db.execute("UPDATE occupants SET finished = 0 WHERE game_id = ?", (game_id,))
        self._db.executemany(
            "UPDATE occupants SET finished = 1 WHERE id = (SELECT MAX(id) FROM occupants WHERE game_id = ? AND seat = ?)",
            [(game_id, seat) for seat in seats])

    def occupant_starts(self, game_id: int) -> dict[int, list[int]]:
        """seat -> the ``since`` of each of its occupants in game ``game_id``, in order (see :func:`mover`)."""
        starts: dict[int, list[int]] = {}
        for seat, since in self._db.execute("SELECT seat, since FROM occupants WHERE game_id = ? ORDER BY seat, id", (game_id,)):
            starts.setdefault(seat, []).append(since)
        return starts

    def occupants(self, game_ids: list[int]) -> dict[int, dict[int, list[dict]]]:
        """game id -> seat -> everyone who sat there, in order: ``{name, bot_level, moves,
        finished}``, ``moves`` counting their moves still in force. Games played before
        occupants were kept have none."""
        found: dict[int, dict[int, list[dict]]] = {game_id: {} for game_id in game_ids}
        for start in range(0, len(game_ids), 500):  # SQLite caps the parameters of one statement
            chunk = game_ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            since: dict[tuple[int, int], list[int]] = {}
            for game_id, seat, begins, name, bot_level, finished in self._db.execute(
                    f"SELECT game_id, seat, since, name, bot_level, finished FROM occupants WHERE game_id IN ({marks}) "
                    "ORDER BY game_id, seat, id", chunk):
                found[game_id].setdefault(seat, []).append(
                    {"name": name, "bot_level": bot_level, "moves": 0, "finished": bool(finished)})
                since.setdefault((game_id, seat), []).append(begins)
            for game_id, seat, n in self._db.execute(
                    f"SELECT game_id, seat, n FROM actions WHERE game_id IN ({marks}) AND undone_at IS NULL", chunk):
                owner = mover(since.get((game_id, seat), []), n)
                if owner is not None:
                    found[game_id][seat][owner]["moves"] += 1
        return found

    def plays(self, game: str | None = None, limit: int = -1, before: int | None = None) -> list[GameRecord]:
        """The games that count as plays, newest first: every finished game, and every
        abandoned one with at least one move in force. ``game`` filters by game id,
        ``before`` keeps ids below it, ``limit`` (-1: all) caps the count."""
        rows = self._db.execute(
            "SELECT id, game, players, seed, options, started_at, ended_at, result, abandoned FROM games "
            f"WHERE {_IS_PLAY} AND (? IS NULL OR game = ?) AND (? IS NULL OR id < ?) ORDER BY id DESC LIMIT ?",
            (game, game, before, before, limit),
        ).fetchall()
        return [_game_record(row) for row in rows]

    def is_play(self, game_id: int) -> bool:
        """Whether game ``game_id`` exists and counts as a play (see :meth:`plays`)."""
        return self._db.execute(f"SELECT 1 FROM games WHERE id = ? AND {_IS_PLAY}", (game_id,)).fetchone() is not None

    def seating(self, game_ids: list[int]) -> dict[int, list[dict]]:
        """game id -> its recorded seats in order (``{seat, name, bot, bot_level, start_player}``;
        ``bot_level`` None for a person, and for a bot recorded before levels were kept)."""
        found: dict[int, list[dict]] = {game_id: [] for game_id in game_ids}
        for start in range(0, len(game_ids), 500):  # SQLite caps the parameters of one statement
            chunk = game_ids[start:start + 500]
            rows = self._db.execute(
                f"SELECT game_id, seat, name, bot, bot_level, start_player FROM seating WHERE game_id IN "
                f"({','.join('?' * len(chunk))}) ORDER BY game_id, seat", chunk).fetchall()
            for game_id, seat, name, bot, bot_level, start_player in rows:
                found[game_id].append({"seat": seat, "name": name, "bot": bool(bot), "bot_level": bot_level,
                                       "start_player": bool(start_player)})
        return found

    def seated_names(self) -> list[str]:
        """Every distinct name in the recorded seating and among the seats' occupants."""
        return [row[0] for row in self._db.execute(
            "SELECT name FROM seating WHERE name IS NOT NULL UNION SELECT name FROM occupants")]

    def rename_seated(self, old_names: list[str], new_name: str) -> int:
        """Rename every recorded seat holding one of ``old_names`` (inside a transaction);
        return how many seats changed."""
        changed = 0
        for old in old_names:
            changed += self._db.execute("UPDATE seating SET name = ? WHERE name = ?", (new_name, old)).rowcount
            self._db.execute("UPDATE occupants SET name = ? WHERE name = ?", (new_name, old))
        return changed

    def delete_game(self, game_id: int) -> None:
        """Delete a game and everything kept about it (inside a transaction)."""
        for table in ("seating", "occupants", "turns", "snapshots", "log", "actions", "chosen_seeds"):
            self._db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
        self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def game_rows(self, game_id: int) -> dict:
        """Everything kept about a game, as stored (for backups): its row, seating, occupants, actions and log."""
        def rows(sql: str) -> list[dict]:
            cursor = self._db.execute(sql, (game_id,))
            names = [column[0] for column in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]

        (game,) = rows("SELECT id, game, players, seed, options, started_at, ended_at, result, abandoned FROM games WHERE id = ?")
        game["seating"] = rows("SELECT seat, name, bot, start_player, bot_level FROM seating WHERE game_id = ? ORDER BY seat")
        game["occupants"] = rows("SELECT seat, since, name, bot_level, finished FROM occupants WHERE game_id = ? ORDER BY id")
        game["actions"] = rows("SELECT n, seat, action, at, undone_at FROM actions WHERE game_id = ? ORDER BY n")
        game["log"] = rows("SELECT seq, action, entry FROM log WHERE game_id = ? ORDER BY seq")
        game["turns"] = rows("SELECT seq, seat, seconds, action FROM turns WHERE game_id = ? ORDER BY seq")
        game["seed_chosen"] = self.seed_chosen(game_id)
        return game

    def find_game(self, game: str, seed: int, started_at: float) -> int | None:
        """The id of the game of ``game`` with this seed and start time (a game's identity across copies), or None."""
        row = self._db.execute("SELECT id FROM games WHERE game = ? AND seed = ? AND started_at = ?",
                               (game, seed, started_at)).fetchone()
        return None if row is None else row[0]

    def add_game_rows(self, game: dict, keep_id_below: int) -> int:
        """Add a game given as :meth:`game_rows` gives it (inside a transaction), under its
        own id when that is free and below ``keep_id_below``, else a new one; return the id it got."""
        taken = game["id"] >= keep_id_below or self.game(game["id"]) is not None
        columns = ("game", "players", "seed", "options", "started_at", "ended_at", "result", "abandoned")
        values = [game[column] for column in columns]
        if taken:
            cursor = self._db.execute(f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * 8)})", values)
        else:
            cursor = self._db.execute(f"INSERT INTO games (id, {', '.join(columns)}) VALUES ({', '.join('?' * 9)})",
                                      [game["id"], *values])
        game_id = cursor.lastrowid
        self._db.executemany("INSERT INTO seating (game_id, seat, name, bot, start_player, bot_level) VALUES (?, ?, ?, ?, ?, ?)",
                             [(game_id, s["seat"], s["name"], s["bot"], s["start_player"], s.get("bot_level"))
                              for s in game["seating"]])
        # Files exported before occupants were kept have none: the play then shows its seating alone.
        self._db.executemany("INSERT INTO occupants (game_id, seat, since, name, bot_level, finished) VALUES (?, ?, ?, ?, ?, ?)",
                             [(game_id, o["seat"], o["since"], o["name"], o["bot_level"], o["finished"])
                              for o in game.get("occupants", [])])
        self._db.executemany("INSERT INTO actions (game_id, n, seat, action, at, undone_at) VALUES (?, ?, ?, ?, ?, ?)",
                             [(game_id, a["n"], a["seat"], a["action"], a["at"], a["undone_at"]) for a in game["actions"]])
        self._db.executemany("INSERT INTO log (game_id, seq, action, entry) VALUES (?, ?, ?, ?)",
                             [(game_id, e["seq"], e["action"], e["entry"]) for e in game["log"]])
        # Files exported before turns were kept have none: the play then has no turn times.
        self._db.executemany("INSERT INTO turns (game_id, seq, seat, seconds, action) VALUES (?, ?, ?, ?, ?)",
                             [(game_id, t["seq"], t["seat"], t["seconds"], t["action"]) for t in game.get("turns", [])])
        if game.get("seed_chosen"):  # absent from files exported before chosen seeds were noted
            self.choose_seed(game_id)
        return game_id

    # -------------------------------------------------------------- snapshots

    def add_snapshot(self, game_id: int, applied: int, state_text: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, applied, state) VALUES (?, ?, ?)",
            (game_id, applied, state_text),
        )

    def latest_snapshot(self, game_id: int, at_most: int | None = None) -> tuple[int, str] | None:
        """The newest snapshot, or the newest taken after no more than ``at_most`` actions."""
        return self._db.execute(
            "SELECT applied, state FROM snapshots WHERE game_id = ? AND applied <= ? ORDER BY applied DESC LIMIT 1",
            (game_id, 2**62 if at_most is None else at_most),
        ).fetchone()

    def drop_snapshots_after(self, game_id: int, applied: int) -> None:
        self._db.execute("DELETE FROM snapshots WHERE game_id = ? AND applied > ?", (game_id, applied))

    def integrity_check(self) -> str:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    @property
    def durability(self) -> tuple[str, int]:
        """The connection's journal mode and ``synchronous`` level as SQLite reports them:
        ``("wal", 2)`` (FULL) syncs every commit. Read-only; the tests check it."""
        return durability(self._db)


def durability(db: sqlite3.Connection) -> tuple[str, int]:
    """``(journal mode, synchronous level)`` of a connection: ``("wal", 2)`` for WAL with FULL."""
    return db.execute("PRAGMA journal_mode").fetchone()[0], db.execute("PRAGMA synchronous").fetchone()[0]


class _Transaction:
    """``with store.transaction():`` — all or nothing; sqlite errors become StorageError,
    and the store learns whether the disk took the write (see Store.problem)."""

    def __init__(self, store: Store):
        self._store = store
        self._db = store._db

    def __enter__(self):
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            self._store._write_failed(error)
            raise StorageError(f"the database cannot start a write: {error}") from None
        return self

    def __exit__(self, kind, error, traceback):
        if kind is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as commit_error:
                self._rollback()
                self._store._write_failed(commit_error)
                raise StorageError(f"the database refused to save: {commit_error}") from None
            self._store._write_succeeded()
            return False
        self._rollback()
        if isinstance(error, sqlite3.Error):
            self._store._write_failed(error)
            raise StorageError(f"the database refused to save: {error}") from None
        return False


    def _rollback(self) -> None:
        # Some errors (a full disk among them) make SQLite roll back by itself.
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")


def mover(since: list[int], n: int) -> int | None:
    """Which of a seat's occupants (their ``since`` in order) made its action number ``n``:
    the last who sat before it was made; None when nobody had (a play from before occupants
    were kept)."""
    owner = bisect.bisect_left(since, n) - 1  # the last occupant whose since is below n
    return owner if owner >= 0 else None


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _game_record(row) -> GameRecord:
    id_, game, players, seed, options, started_at, ended_at, result, abandoned = row
    return GameRecord(
        id=id_,
        game=game,
        players=players,
        seed=seed,
        options=json.loads(options),
        started_at=started_at,
        ended_at=ended_at,
        result=None if result is None else json.loads(result),
        abandoned=bool(abandoned),
    )

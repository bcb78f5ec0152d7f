"""The table: one game at a time, its seats and host, the action log, undo and change events.

Everything that changes the table goes through one of its methods, which

1. checks the request (raising a :class:`TableError` saying why, and changing nothing),
2. writes the change to SQLite and commits (so it survives a pulled plug),
3. only then swaps in the new state, bumps :attr:`Table.version` and wakes the listeners.

The web and the panel both drive the table through these methods, so phones and
buttons can never disagree. The table does not authenticate: the web turns a token
into a seat or host right (:meth:`seat_of`, :meth:`is_host`) before calling it; the
panel sits on the table itself and is trusted like the host.

``version`` is the table's own counter. It grows with every change (a join, a start,
an action, an undo), and never goes back, not even on undo, so a phone that holds a
view of version 12 knows for sure whether it is current. (One step is never saved: the
one that shows a full disk, see ``_change``; a restart may come back below it.)
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import logging
import secrets
import threading
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from . import games
from .games import Game, IllegalAction
from .games.base import FIRST_PLAYER, LARGEST_SEED, LOG_SHOWN, seat_ref
from .store import GameRecord, StorageError, Store

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100
"""Store the game state every this many actions, so a restart replays at most that many."""

NAME_MAX = 24
JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud without doubt
JOIN_CODE_LENGTH = 5
HISTORY_SHOWN = 10
UNDO_REACH = 100
"""How far back an undo looks for a person's move among the bots' (see Table.undo)."""

__all__ = [
    "Conflict",
    "Forbidden",
    "GameChange",
    "NothingToChange",
    "IllegalAction",
    "NotFound",
    "StorageError",
    "Table",
    "TableError",
]


class TableError(ValueError):
    """A request the table refuses, saying why in plain words: ``.en`` in English (also
    ``str()``) and ``.ja`` in Japanese, so every screen can show it in its language."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en, self.ja = en, ja


class NotFound(TableError):
    """There is nothing of that kind (no game running, no such seat)."""


class Forbidden(TableError):
    """The caller may not do that (only the host may)."""


class Conflict(TableError):
    """The table is not in a state that allows it (seat taken, stale view, nothing to undo)."""


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a copied database gives nobody a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class _Seat:
    name: str
    token_hash: str
    bot: str | None = None  # the level of the bot on the seat; None: a person


@dataclass
class _LogLine:
    """One entry of a game's whole log: as its engine wrote it (``text``, maybe ``to`` with
    a seat's own wording), or the table's own (``kind``), and whether its move was taken back."""

    seq: int
    action: int | None  # the number of the action that wrote it; None: the setup or the table
    entry: dict
    undone: bool = False

    def shown_to(self, seat: int | None) -> dict | None:
        """The entry as ``seat`` (None: everyone) may read it, or None when it says nothing to it."""
        text = _wording(self.entry, seat)
        if text is None:
            return None
        shown = {"seq": self.seq, "text": text}
        for key in ("v", "kind"):
            if key in self.entry:
                shown[key] = self.entry[key]
        if self.undone:
            shown["undone"] = True
        return shown


@dataclass(frozen=True)
class GameChange:
    """The game in play as one change of the table left it, told to the rooms that keep their
    own rows in the same transaction (:meth:`Table.keep_alongside`; the turn clock)."""

    game_id: int
    players: int
    waiting_for: tuple[int, ...]  # the seats whose input the game needs now (Game.waiting_for); () once over
    taken: frozenset[int]  # the seats someone (a person or a bot) holds now
    over: bool
    action: int | None = None  # the number of the action this change applied, or None
    undone: frozenset[int] = frozenset()  # the numbers of the actions this change took back
    dealt_again: bool = False  # the game was set up again before its first move (who starts was drawn)


Keeper = Callable[[Store, "GameChange | None"], "Callable[[], None] | None"]
"""A room's writes in a change's transaction: called with the store and the game as the change
left it (None: a change of the room's own, :meth:`Table.change_alongside`); it may return what
to do once the change is committed (update its memory), which never runs when the save failed."""


class NothingToChange(Exception):
    """Raised by a room's write (:meth:`Table.change_alongside`) that finds, under the table's
    lock, nothing to change: nothing is saved and the version stays."""


@dataclass
class _Changing:
    """What the body of one change tells its keepers (the game as the change leaves it), and
    what they asked to do once it is committed."""

    game: GameChange | None = None
    after: list = field(default_factory=list)


@dataclass
class _Current:
    """The game being played (or just finished) and what is derived from it."""

    record: GameRecord
    game: Game
    state: dict
    applied: int  # actions in force
    fingerprints: dict[int, str] = field(default_factory=dict)  # seat -> hash of its options and secrets
    changed_at: dict[int, int] = field(default_factory=dict)  # seat -> version of its oldest view still current
    log: list[_LogLine] = field(default_factory=list)  # the whole game's log, oldest first
    seed_chosen: bool = False  # started with a seed someone chose: they may know every hand


class Table:
    """The one table this appliance runs. Thread-safe: every method may be called from any thread.

    A game from start to undo, as the web does it for the phones (``data_dir`` holds the
    SQLite database; a new table there is empty, one reopened carries on where it stopped)::

        >>> import tempfile
        >>> from companion.table import Table
        >>> table = Table(tempfile.mkdtemp())
        >>> host = table.start_game("swap5", players=2, seed=42, claim_host=True)  # the host token
        >>> taro = table.join(0, "Taro")  # the seat token: the phone's key to seat 0
        >>> table.seat_of(taro), table.is_host(host), table.names()
        (0, True, ['Taro', None])
        >>> view = table.view(0)  # what seat 0 may see, with its legal actions
        >>> view["actions"][0]
        {'type': 'move', 'from': 'B1', 'to': 'A1'}
        >>> table.act(0, view["actions"][0], view["version"])  # on the disk before anyone hears of it
        >>> table.act(0, view["actions"][0], view["version"])  # the same tap again: refused, nothing changes
        Traceback (most recent call last):
        companion.table.Conflict: the table changed since your view (your moves are different now): look again and choose again
        >>> table.undoable()["moves"]
        1
        >>> table.undo()  # the host's power; the version still grows
        >>> table.version
        4
        >>> table.close()
    """

    def __init__(self, data_dir: str | Path, offered_games: Iterable[str] | None = None):
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Callable[[int], None]] = []
        self.offered_games = tuple(offered_games) if offered_games is not None else tuple(games.ids())
        # Unknown ids fail here, at start, not when someone picks one; the descriptions never
        # change, so they are made once (public() is called on every page and heartbeat).
        self._offered = [_describe(games.get(game_id)) for game_id in self.offered_games]
        self.data_dir = Path(data_dir)  # the play records (companion/records) read the same database
        self._store = Store(data_dir)
        self._troubles: dict[int, dict] = {}  # seat -> why its player (a bot) cannot move now, in both languages
        self._keepers: list[Keeper] = []
        self._restore()

    # ================================================================ reading

    @property
    def version(self) -> int:
        return self._version

    @property
    def problem(self) -> str | None:
        """Why the table cannot save anything now (a read-only or full SD card), or None.
        While it is set the table shows what was saved last and refuses every change; after
        a failed write each change still tries, and the first one saved clears it."""
        return self._store.problem

    @property
    def join_code(self) -> str:
        return self._join_code

    @property
    def game_id(self) -> str | None:
        return self._current.game.id if self._current else None

    @property
    def players(self) -> int:
        return self._current.record.players if self._current else 0

    def names(self) -> list[str | None]:
        """Each seat's player name, None for a free seat."""
        with self._lock:
            return [self._seats[s].name if s in self._seats else None for s in range(self.players)]

    def bots(self) -> list[str | None]:
        """Each seat's bot level, None for a person or a free seat (pages name a bot in their language)."""
        with self._lock:
            return [self._seats[s].bot if s in self._seats else None for s in range(self.players)]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None. Constant-time in the token."""
        if not token:
            return None
        wanted = hash_token(token)
        found = None
        with self._lock:
            for seat, held in self._seats.items():
                if hmac.compare_digest(held.token_hash, wanted):
                    found = seat
        return found

    def is_host(self, token: str | None) -> bool:
        """Whether a token carries host rights. Constant-time in the token.

        Hosting belongs to one token, never to a seat: the token made by claiming, or
        after a hand-over the receiving player's seat token. So it never lapses while its
        holder is there: freeing that seat, or starting a game without it, leaves hosting
        with the same phone, whose token then opens hosting alone."""
        if not token:
            return False
        with self._lock:
            return self._host_hash is not None and hmac.compare_digest(self._host_hash, hash_token(token))

    @property
    def has_host(self) -> bool:
        return self._host_hash is not None

    @property
    def host_seat(self) -> int | None:
        """The seat whose token carries host rights, or None (a host without a seat, or no host)."""
        with self._lock:
            return next((s for s, held in self._seats.items() if held.token_hash == self._host_hash), None)

    def public(self) -> dict:
        """The table as anyone may see it: seats, the public game view, recent games."""
        with self._lock:
            current = self._current
            names = self.names()
            info = {
                "version": self._version,
                "join_code": self._join_code,
                "problem": self.problem,
                "offered_games": copy.deepcopy(self._offered),
                "host": {"exists": self.has_host, "seat": self.host_seat},
                "game": None,
                "seats": [{"seat": s, "name": n, "taken": n is not None, "bot": bot, "trouble": self._troubles.get(s)}
                          for (s, n), bot in zip(enumerate(names), self.bots())],
                "view": None,
                "undo": self.undoable(),  # what the host's undo would take back: its question names it
                "history": [self._history_entry(r) for r in self._store.finished_games(HISTORY_SHOWN)],
            }
            if current:
                info["game"] = {
                    "id": current.game.id,
                    "title": current.game.title_of(current.record.options),  # a score pad's: the game named
                    "players": current.record.players,
                    "options": current.record.options,
                    "over": current.game.is_over(current.state),
                    "seed_chosen": current.seed_chosen,
                }
                info["view"] = self._envelope(current, current.game.view(current.state, None), None)
            return info

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see, with its legal actions; ``None`` is the public table."""
        with self._lock:
            current = self._require_game()
            if seat is not None:
                self._require_seat_number(seat)
            return self._envelope(current, current.game.view(current.state, seat), seat)

    def state(self) -> dict | None:
        """The current game's full state (secrets included): for the core and tests only."""
        return self._current.state if self._current else None

    def log(self, seat: int | None) -> list[dict]:
        """The whole game's log as ``seat`` (None: everyone) may read it, oldest first; moves
        taken back marked ``undone``. A view holds the last LOG_SHOWN of these."""
        with self._lock:
            current = self._require_game()
            if seat is not None:
                self._require_seat_number(seat)
            return _readable(current.log, seat)

    def action_log(self) -> list[dict]:
        with self._lock:
            return self._store.action_log(self._require_game().record.id)

    # ================================================================ changing

    def start_game(
        self, game_id: str, players: int, seed: int | None = None, options: dict | None = None, claim_host: bool = False,
        first_player_note: dict | None = None,
    ) -> str | None:
        """Start a new game (abandoning an unfinished one). Seats below the new player
        count stay held, so a group can play on without joining again.

        With ``claim_host`` the caller also becomes the host of a table that has none, in
        the same transaction (so a refused start claims nothing); the host token is returned.
        ``first_player_note`` (``{"en", "ja"}``, as :meth:`set_first_player` takes it) goes in
        the log after the setup's own words when who starts was drawn for the start.
        """
        if game_id not in self.offered_games:
            known = ", ".join(self.offered_games)
            raise NotFound(f"this table does not offer the game {game_id!r} (it offers: {known})",
                           f"このテーブルでは {game_id!r} は遊べません（遊べるゲーム: {known}）")
        game = games.get(game_id)
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(LARGEST_SEED + 1)  # 63 bits: no search through the seeds finds the deal
        try:
            state = game.setup(players, seed, options)
        except ValueError as error:  # the engine says what is wrong with the players, seed or options
            raise TableError(str(error), getattr(error, "ja", None) or f"この設定ではゲームを始められません: {error}") from None
        fingerprints = _fingerprints(game, state)
        with self._lock:
            host_token, host_hash = self._new_host_token() if claim_host else (None, None)
            with self._change() as changing:
                if host_hash:
                    self._store.set_meta("host_token_hash", host_hash)
                if self._current and not self._current.game.is_over(self._current.state):
                    self._store.end_game(self._current.record.id, None, abandoned=True)
                    self._record_seating(self._current)
                record_id = self._store.add_game(game_id, players, seed, state["options"])
                if seed_chosen:
                    self._store.choose_seed(record_id)
                setup_entries = [*state["log"], *_first_player_entries(first_player_note)]  # a first round begins...
                seqs = self._store.add_log_entries(record_id, None, setup_entries)
                self._store.remove_seats_from(players)
                for seat_number, seat in self._seats.items():  # who plays on keeps the seat: its first occupant
                    if seat_number < players:
                        self._store.add_occupant(record_id, seat_number, seat.name, seat.bot)
                self._store.set_meta("current_game", record_id)
                changing.game = _game_change(record_id, game, state, {s for s in self._seats if s < players})
            self._seats = {s: seat for s, seat in self._seats.items() if s < players}
            self._troubles.clear()  # a new game: every player starts afresh
            if host_hash:
                self._host_hash = host_hash
            self._current = _Current(self._store.game(record_id), game, state, 0,
                                     log=[_LogLine(seq, None, entry) for seq, entry in zip(seqs, setup_entries)],
                                     seed_chosen=seed_chosen)
            self._note_changes(self._current, fingerprints, everyone_changed=True)
        self._notify()
        return host_token

    def rematch(self, first_player: int | None = None, first_player_note: dict | None = None) -> None:
        """Play the finished game again: the same game, options and players on the same
        seats (their tokens and the host stay as they are), a new seed. The finished game
        stays in the history. An unfinished game is refused: starting a new one abandons it,
        which is :meth:`start_game`'s to do, asked for as such. Who starts is not carried
        over (a new play, a new draw): ``first_player`` and ``first_player_note`` set it anew, as
        ``companion/first_player.py`` does when the last play's start was drawn."""
        with self._lock:  # re-entered by start_game: nobody undoes the last move in between
            current = self._require_game()
            if not current.game.is_over(current.state):
                raise Conflict("this game is not over yet: to play again now, start a new game (it abandons this one)",
                               "このゲームはまだ終わっていません。今すぐやり直すには新しいゲームを始めてください（このゲームは中断になります）")
            record = current.record
            options = {name: value for name, value in record.options.items() if name != FIRST_PLAYER}
            if first_player is not None:
                options[FIRST_PLAYER] = first_player
            self.start_game(record.game, record.players, options=options, first_player_note=first_player_note)

    def set_first_player(self, seat: int, note: dict) -> None:
        """Make the player on ``seat`` (taken or still free) take the first turn of a game
        nobody has moved in yet (the first-player draw, ``companion/first_player.py``, decides
        who). The game is set up again from its own seed with that seat first (the
        :data:`FIRST_PLAYER` option), so every hand stays as dealt; ``note`` (``{"en", "ja"}``,
        seats as placeholders) goes in its log saying so. Refused once the first player is set
        (checked under the lock: two draws at the same moment set it once), and once a move
        has been made (even one taken back): from then on the start is part of the play."""
        with self._lock:
            current = self._require_game()
            self._require_seat_number(seat)
            record = current.record
            if FIRST_PLAYER in record.options:
                settled = record.options[FIRST_PLAYER]
                raise Conflict(f"who starts is settled already: seat {settled + 1}",
                               f"最初の手番はもう決まっています（{settled + 1}番の席）")
            if self._store.last_action_number(record.id):
                raise Conflict("a move has been made in this game, so who starts is settled",
                               "このゲームではもう手が指されたので、最初の手番は決まっています")
            state = current.game.setup(record.players, record.seed, {**record.options, FIRST_PLAYER: seat})
            entries = [*state["log"], *_first_player_entries(note)]
            with self._change() as changing:
                self._store.set_options(record.id, state["options"])
                self._store.drop_log_entries(record.id)  # the setup's words name the old start
                seqs = self._store.add_log_entries(record.id, None, entries)
                changing.game = _game_change(record.id, current.game, state, set(self._seats), dealt_again=True)
            current.record, current.state = self._store.game(record.id), state
            current.log = [_LogLine(seq, None, entry) for seq, entry in zip(seqs, entries)]
            self._note_changes(current, _fingerprints(current.game, state), everyone_changed=True)
        self._notify()

    def claim_host(self) -> str:
        """Make the caller the host of a table that has none; returns the host token."""
        with self._lock:
            token, token_hash = self._new_host_token()
            with self._change():
                self._store.set_meta("host_token_hash", token_hash)
            self._host_hash = token_hash
        self._notify()
        return token

    def _new_host_token(self) -> tuple[str, str]:
        """A host token and its hash for a table that has no host (the lock is held)."""
        if self.has_host:
            raise Forbidden("this table already has a host: ask them, or ask them to hand hosting over",
                            "このテーブルにはもうホストがいます。ホストに頼むか、ホストを譲ってもらってください")
        token = _new_token()
        return token, hash_token(token)

    def hand_over_host(self, seat: int) -> None:
        """Give host rights to the person on ``seat``: its seat token becomes the host token
        (it keeps them whatever happens to the seat later); the old host token stops working.
        A bot's seat is refused: a bot has no phone to host with. (When hosting passes by
        itself, a host gone or leaving, is decided by ``companion.presence``.)"""
        with self._lock:
            self._require_seat_number(seat)
            if seat not in self._seats:
                raise Conflict(f"seat {seat + 1} is free: hosting can only go to a seated player",
                               f"{seat + 1}番の席は空いています。ホストは席に着いたプレイヤーにしか譲れません")
            if self._seats[seat].bot is not None:
                raise Conflict(f"seat {seat + 1} is a bot: hosting can only go to a person",
                               f"{seat + 1}番の席はボットです。ホストは人にしか譲れません")
            token_hash = self._seats[seat].token_hash
            with self._change():
                self._store.set_meta("host_token_hash", token_hash)
            self._host_hash = token_hash
        self._notify()

    def join(self, seat: int, name: str, *, bot: str | None = None) -> str:
        """Take a free seat under ``name``; returns the seat token (the phone's key to it).
        ``bot``: the level of the bot taking it (kept with the seat and in the play's record;
        the table attaches no meaning to it), None for a person."""
        name = clean_name(name)
        if bot is not None and not (isinstance(bot, str) and bot.isascii() and bot.isalpha()):
            raise TableError(f"a bot level is a word, not {bot!r}", f"ボットのレベルは単語で指定してください（{bot!r} は使えません）")
        with self._lock:
            self._require_game()
            self._require_seat_number(seat)
            if seat in self._seats:
                taken_by = self._seats[seat].name
                raise Conflict(f"seat {seat + 1} is taken by {taken_by}", f"{seat + 1}番の席には{taken_by}さんが着いています")
            if bot is None:  # two people of one name could not tell whose turn it is
                for other, taken in self._seats.items():
                    if same_name(taken.name, name):
                        raise Conflict(f"{taken.name} is already at the table (seat {other + 1}): please choose another name",
                                       f"{taken.name}さんはもう{other + 1}番の席に着いています。別の名前にしてください")
            token = _new_token()
            with self._change() as changing:
                self._store.add_seat(seat, name, hash_token(token), bot)
                if not self._current.game.is_over(self._current.state):  # the play keeps everyone who played a seat
                    self._store.add_occupant(self._current.record.id, seat, name, bot)
                changing.game = self._change_of(self._current, taken=set(self._seats) | {seat})
            self._seats[seat] = _Seat(name, hash_token(token), bot)
        self._notify()
        return token

    def free_seat(self, seat: int) -> None:
        """Free a seat (the host's power): its token stops opening it; its cards stay in play.
        A host's own seat token keeps its host rights (see :meth:`is_host`)."""
        with self._lock:
            self._require_seat_number(seat)
            if seat not in self._seats:
                raise Conflict(f"seat {seat + 1} is already free", f"{seat + 1}番の席はもう空いています")
            with self._change() as changing:
                self._store.remove_seat(seat)
                changing.game = self._change_of(self._current, taken=set(self._seats) - {seat})
            del self._seats[seat]
            self._troubles.pop(seat, None)
        self._notify()

    def free_all_seats(self) -> None:
        """Free every seat at once (the host's power), as :meth:`free_seat` frees one."""
        with self._lock:
            if not self._seats:
                raise Conflict("every seat is already free", "席はもう全部空いています")
            with self._change() as changing:
                self._store.remove_seats_from(0)
                if self._current:
                    changing.game = self._change_of(self._current, taken=set())
            self._seats = {}
            self._troubles.clear()
        self._notify()

    def act(self, seat: int, action: dict, version: int) -> None:
        """Apply ``seat``'s action, chosen from a view of table ``version``.

        The action is stale, and refused, when what that seat could do or could see
        privately has changed since then, or when the seat itself has moved since then:
        the same request sent twice (a retry, a double tap, a second tab) is applied once,
        even when the move leaves the seat's options as they were. Changes that leave all
        that alone (another player choosing in a simultaneous step, someone joining) do
        not make it stale, so players choosing at once do not trip over each other.
        """
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError('an action must carry the "version" of the view it was chosen from',
                             '手には、それを選んだ画面の "version" を付けてください')
        with self._lock:
            current = self._require_game()
            self._require_seat_number(seat)
            if version > self._version:
                raise Conflict(f"version {version} is from the future: this table is at version {self._version}",
                               f"バージョン {version} はまだありません（このテーブルはバージョン {self._version} です）")
            if version < current.changed_at.get(seat, 0):
                raise Conflict(
                    "the table changed since your view (your moves are different now): look again and choose again",
                    "画面を見た後にテーブルが変わりました（選べる手が変わっています）。もう一度見て選び直してください",
                )
            new_state = current.game.apply(current.state, seat, action)  # IllegalAction says why
            fingerprints = _fingerprints(current.game, new_state)
            n = self._store.last_action_number(current.record.id) + 1
            written = [entry for entry in new_state["log"] if entry["v"] == new_state["version"]]
            with self._change() as changing:
                self._store.add_action(current.record.id, n, seat, action)
                seqs = self._store.add_log_entries(current.record.id, n, written)
                applied = current.applied + 1
                if applied % SNAPSHOT_EVERY == 0:
                    self._store.add_snapshot(current.record.id, applied, current.game.dump(new_state))
                if current.game.is_over(new_state):
                    self._store.end_game(current.record.id, current.game.result(new_state), abandoned=False)
                    self._record_seating(current, new_state)
                changing.game = _game_change(current.record.id, current.game, new_state, set(self._seats), action=n)
            current.state, current.applied = new_state, applied
            current.log += [_LogLine(seq, n, entry) for seq, entry in zip(seqs, written)]
            self._note_changes(current, fingerprints)
            current.changed_at[seat] = self._version  # its own move: views before it are stale for it
        self._notify()

    def undo(self, by: int | None = None) -> None:
        """Take back the last move made by a person, together with the bots' replies after it
        (the host's power; :meth:`undoable` says what that is now): one confirmation takes the
        table back to just before that move, so the bots do not have to be undone one by one.
        When only bots have moved (no person's move among the last ``UNDO_REACH``), the last
        move alone. A bot is a seat held by a bot now.

        The moves stay in the action log flagged as undone, their log entries stay marked
        ``undone``, and one new entry of kind "undo" says who took back what: the player on
        seat ``by``, or (None) the host without a seat or the panel. The RNG is part of the
        state, so doing the same again gives the same cards or dice: undo cannot re-roll.

        A finished game whose replay or moves the records have served (every hand shown to
        whoever asked) is refused: what everyone may have seen cannot become secret again
        (``docs/records.md``, *Replays and undo*)."""
        with self._lock:
            current = self._require_game()
            taken = self._moves_to_take_back(current)
            if not taken:
                raise Conflict("there is nothing to undo in this game", "このゲームには取り消せる手がありません")
            if by is not None:
                self._require_seat_number(by)
            first, mover = taken[-1]
            numbers = {n for n, _ in taken}
            if len(taken) == 1:
                entry = _undo_entry(by, mover, [line for line in current.log if line.action == first], current.record.players)
            else:
                entry = _undo_entry_many(by, len(taken))
            was_over = current.game.is_over(current.state)
            kept = current.applied - len(taken)
            state, applied = self._replay(current.record, current.game, upto=kept)
            fingerprints = _fingerprints(current.game, state)
            with self._change() as changing:
                if was_over and self._store.shown_after_end(current.record.id):  # checked where the records write it
                    raise Conflict(
                        "this game is over and its replay or moves have been opened, so every hand may have been "
                        "seen: it can no longer be taken back past its end (start a new game or a rematch)",
                        "このゲームは終わり、リプレイか手の記録が開かれたので、全員の手札が見られたかもしれません。"
                        "終わった後の手はもう取り消せません（新しいゲームか再戦を始めてください）")
                self._store.undo_actions_from(current.record.id, first)
                (seq,) = self._store.add_log_entries(current.record.id, None, [entry])
                self._store.drop_snapshots_after(current.record.id, kept)
                if was_over:
                    self._store.reopen_game(current.record.id)
                changing.game = _game_change(current.record.id, current.game, state, set(self._seats),
                                             undone=frozenset(numbers))
            current.state, current.applied = state, applied
            for line in current.log:
                if line.action in numbers:
                    line.undone = True
            current.log.append(_LogLine(seq, None, entry))
            self._note_changes(current, fingerprints)
        self._notify()

    def undoable(self) -> dict | None:
        """What :meth:`undo` would take back now, for the question that asks first: ``{"moves":
        how many, "seat": whose move it goes back to, "move": that move's public log text or
        None}``; None when there is nothing to undo (or no game)."""
        with self._lock:
            if self._current is None:
                return None
            taken = self._moves_to_take_back(self._current)
            if not taken:
                return None
            first, mover = taken[-1]
            text = next((line.entry["text"] for line in self._current.log if line.action == first), None)
            return {"moves": len(taken), "seat": mover, "move": copy.deepcopy(text)}

    def _moves_to_take_back(self, current: _Current) -> list[tuple[int, int]]:
        """``(n, seat)`` of the moves one undo takes back, the last first: back to the last
        person's move (bots' moves after it included), or the last move alone when the last
        ``UNDO_REACH`` were all bots'."""
        last = self._store.last_applied_actions(current.record.id, UNDO_REACH)
        for count, (_, seat) in enumerate(last, start=1):
            if not (seat in self._seats and self._seats[seat].bot is not None):
                return last[:count]
        return last[:1]

    def report_trouble(self, seat: int, trouble: dict | None) -> None:
        """Say on every screen why the player on ``seat`` cannot move now (``{"en", "ja"}``:
        a bot whose search failed, which tries again), or (None) that it can again. It is
        kept in memory only: after a restart the player tries afresh. The version grows
        (as for any change everyone sees) only when the words change."""
        with self._lock:
            self._require_seat_number(seat)
            if self._troubles.get(seat) == trouble:
                return
            with self._change():
                pass  # nothing of the game changes; the version does, so every screen redraws
            if trouble is None:
                del self._troubles[seat]
            else:
                self._troubles[seat] = dict(trouble)
        self._notify()

    # ================================================================ rooms alongside

    def keep_alongside(self, keeper: Keeper) -> None:
        """Call ``keeper`` in the transaction of every change of the game in play (a start, a
        move, an undo, a seat taken or freed), after the table's own writes, so that what it
        writes is saved with the change or not at all (the turn clock keeps each turn's time
        so, like a move). It runs under the table's lock: it must not wait for anything."""
        with self._lock:
            self._keepers.append(keeper)

    def change_alongside(self, write: Keeper) -> None:
        """A change of a room of its own (the turn clock paused) made as a change of the table:
        ``write(store, None)`` in one transaction with a new version, and every screen hears of
        it as of any change; a ``write`` that raises :class:`NothingToChange` (two phones pausing
        at once: the second finds it paused) saves nothing. Raises StorageError, changing
        nothing, when it cannot be saved."""
        with self._lock:
            try:
                with self._change() as changing:
                    changing.after.append(write(self._store, None))
            except NothingToChange:
                return
        self._notify()

    def game_change(self) -> GameChange | None:
        """The game in play now, as a change would tell it (no action), or None with no game."""
        with self._lock:
            return self._change_of(self._current, set(self._seats)) if self._current else None

    def read_alongside(self, read: Callable[[Store], object]) -> object:
        """What ``read(store)`` answers, under the table's lock (a room reading its own rows)."""
        with self._lock:
            return read(self._store)

    def _change_of(self, current: _Current, taken: set[int]) -> GameChange:
        return _game_change(current.record.id, current.game, current.state, taken)

    # ================================================================ events

    def wait(self, after_version: int, timeout: float) -> int:
        """Block until the version passes ``after_version`` or ``timeout`` seconds pass;
        return the version then. (For event streams.)"""
        with self._changed:
            self._changed.wait_for(lambda: self._version > after_version, timeout=timeout)
            return self._version

    def subscribe(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """Call ``listener(version)`` after every change, from the changing thread; keep
        it quick (put an event on a queue). Returns a function that unsubscribes."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def close(self) -> None:
        with self._lock:  # not in the middle of someone's transaction
            self._store.close()

    # ================================================================ inside

    @contextmanager
    def _change(self):
        """One change of the table: its writes and the new version commit together, and
        the version in memory moves only once the disk has it.

        One exception: when this change is the write that finds the disk full, the table
        now shows that :attr:`problem`, so the version moves in memory alone (it cannot be
        saved) and the listeners hear it, as pages and the panel redraw on a new version.
        The next change saved goes on from there, so the saved version still only grows."""
        had_problem = self._store.problem
        changing = _Changing()
        try:
            with self._store.transaction():
                yield changing
                if changing.game is not None:
                    changing.after += [keeper(self._store, changing.game) for keeper in self._keepers]
                self._store.set_meta("version", self._version + 1)
        except StorageError:
            if self._store.problem != had_problem:
                self._version += 1
                self._notify()  # under the lock: listeners only note the version (see subscribe)
            raise
        self._version += 1
        for after in changing.after:
            if after is not None:
                after()

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()
            version, listeners = self._version, list(self._listeners)
        for listener in listeners:
            listener(version)

    def _record_seating(self, current: _Current, state: dict | None = None) -> None:
        """Keep with the play who sat where as it ends (or is abandoned), in the same
        transaction, so a play is never stored without its players: each seat's one player
        (:func:`_credited`; names change and seats are freed afterwards), its bot's level, and
        whether it started (the game says so: ``Game.start_player``); and, among everyone
        who sat on a seat, who was still there at the end."""
        starter = current.game.start_player(current.state if state is None else state)
        bots, names = self.bots(), self.names()
        occupants = self._store.occupants([current.record.id])[current.record.id]
        self._store.record_seating(current.record.id, [
            {"seat": seat, **_credited(occupants.get(seat, []), name, bots[seat]), "start_player": seat == starter}
            for seat, name in enumerate(names)])
        self._store.record_finishers(current.record.id, [seat for seat, name in enumerate(names) if name is not None])

    def _restore(self) -> None:
        store = self._store
        self._version = store.get_meta("version", 0)
        self._join_code = store.get_meta("join_code")
        if self._join_code is None:
            self._join_code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
            if not store.problem:  # with nothing saved, the code lasts until the next start
                with store.transaction():
                    store.set_meta("join_code", self._join_code)
        self._seats = {seat: _Seat(name, token_hash, bot) for seat, (name, token_hash, bot) in store.seats().items()}
        self._host_hash = store.get_meta("host_token_hash")
        legacy_host_seat = store.get_meta("host_seat")  # saved before hosting moved to tokens
        if legacy_host_seat is not None:
            self._host_hash = self._seats[legacy_host_seat].token_hash if legacy_host_seat in self._seats else None
            if not store.problem:
                with store.transaction():
                    store.set_meta("host_token_hash", self._host_hash)
                    store.set_meta("host_seat", None)
        self._repair_a_bot_host()
        self._current = None
        record_id = store.get_meta("current_game")
        record = None if record_id is None else store.game(record_id)
        if record is not None:
            try:
                game = games.get(record.game)
                state, applied = self._replay(record, game)
            except ValueError as error:
                # A game this version cannot replay (its id is gone, or a rule changed so that a
                # logged move is now refused). Refusing to start would take the whole appliance
                # down for one old game: set it aside, keep its log, and start idle.
                log.error("the saved game %d (%s) cannot be restored, so it is set aside: %s",
                          record.id, record.game, error)
                if not store.problem:
                    with store.transaction():
                        store.end_game(record.id, None, abandoned=True)
                        store.set_meta("current_game", None)
                return
            log_lines = [_LogLine(*row) for row in store.log_entries(record.id)]
            self._current = _Current(record, game, state, applied, log=log_lines, seed_chosen=store.seed_chosen(record.id))
            self._note_changes(self._current, _fingerprints(game, state), everyone_changed=True)

    def _repair_a_bot_host(self) -> None:
        """A database saved while hosting could be handed to a bot (issue 33) may have a bot
        as host, which locks every host tool for good: hosting goes to the first seated
        person, or to nobody (then anyone may claim it)."""
        host_seat = self.host_seat
        if host_seat is None or self._seats[host_seat].bot is None:
            return
        people = sorted(seat for seat, held in self._seats.items() if held.bot is None)
        self._host_hash = self._seats[people[0]].token_hash if people else None
        log.warning("the host was the bot on seat %d: hosting goes to %s", host_seat + 1,
                    f"seat {people[0] + 1}" if people else "nobody (anyone may claim it)")
        if not self._store.problem:
            with self._store.transaction():
                self._store.set_meta("host_token_hash", self._host_hash)

    def _replay(self, record: GameRecord, game: Game, upto: int | None = None) -> tuple[dict, int]:
        """The state after the actions in force (only the first ``upto`` of them, if given):
        from the latest snapshot that is not past them, or from the seed."""
        snapshot = self._store.latest_snapshot(record.id, at_most=upto)
        if snapshot:
            applied, text = snapshot
            state = game.load(text)
        else:
            applied, state = 0, game.setup(record.players, record.seed, record.options)
        for _, seat, action in self._store.applied_actions(record.id, after=applied, upto=upto):
            state = game.apply(state, seat, action)
            applied += 1
        return state, applied

    def _note_changes(self, current: _Current, fingerprints: dict[int, str], everyone_changed: bool = False) -> None:
        """Note, per seat, the version at which its legal actions or private view last changed."""
        for seat, fingerprint in fingerprints.items():
            if everyone_changed or current.fingerprints.get(seat) != fingerprint:
                current.changed_at[seat] = self._version
        current.fingerprints = fingerprints

    def _envelope(self, current: _Current, view: dict, seat: int | None) -> dict:
        view["game_version"] = view["version"]
        view["version"] = self._version
        view["title"] = current.game.title_of(current.record.options)
        view["play_id"] = current.record.id  # once the game is over, its play in the records (a finished result's links)
        view["names"] = self.names()
        view["host"] = {"exists": self.has_host, "seat": self.host_seat}  # phones say so when hosting moves
        view["bots"] = self.bots()  # a bot's level on its seat: pages name it in their own language
        view["problem"] = self.problem  # so every screen can say at once that nothing is saved
        view["troubles"] = {str(seat): dict(words) for seat, words in sorted(self._troubles.items())}
        view["seed_chosen"] = current.seed_chosen  # every phone says so: whoever chose it may know every hand
        view["actions"] = [] if seat is None else current.game.legal_actions(current.state, seat)
        view["log"] = _readable(current.log, seat, last=LOG_SHOWN)  # the table's log: undone moves too
        return view

    def _require_game(self) -> _Current:
        if self._current is None:
            raise NotFound("no game has been started at this table yet", "このテーブルではまだゲームが始まっていません")
        return self._current

    def _require_seat_number(self, seat) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TableError(f"a seat is a number, not {seat!r}", f"席は番号で指定してください（{seat!r} は使えません）")
        if not 0 <= seat < self.players:
            raise NotFound(f"there is no seat {seat!r} at this table (seats 0 to {self.players - 1})",
                           f"このテーブルに席 {seat!r} はありません（席は 0 から {self.players - 1} まで）")

    def _history_entry(self, record: GameRecord) -> dict:
        return {
            "game": record.game,
            "title": games.get(record.game).title_of(record.options),
            "players": record.players,
            "started_at": record.started_at,
            "ended_at": record.ended_at,
            "abandoned": record.abandoned,
            "result": record.result,
        }


def _first_player_entries(note: dict | None) -> list[dict]:
    """The log's entry saying who starts was drawn (``note``: its words), or none."""
    return [{"kind": "first-player", "text": dict(note)}] if note else []


def _game_change(game_id: int, game: Game, state: dict, taken: set[int], action: int | None = None,
                 undone: frozenset[int] = frozenset(), dealt_again: bool = False) -> GameChange:
    return GameChange(game_id, state["players"], tuple(game.waiting_for(state)), frozenset(taken), game.is_over(state),
                      action, undone, dealt_again)


def _describe(game: Game) -> dict:
    """A game as the start forms need it."""
    return {
        "id": game.id,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "player_counts": list(game.player_counts),
        "options": game.describe_options(),
    }


def _wording(entry: dict, seat: int | None) -> dict | None:
    """A log entry's text as ``seat`` reads it: its own wording when it has one, else the
    public one (None: the entry says nothing to that seat)."""
    if seat is not None and str(seat) in entry.get("to", {}):
        return entry["to"][str(seat)]
    return entry["text"]


def _readable(lines: list[_LogLine], seat: int | None, last: int | None = None) -> list[dict]:
    """The log entries ``seat`` may read, oldest first: all of them, or the ``last`` few."""
    shown = []
    for line in reversed(lines):
        if last is not None and len(shown) == last:
            break
        entry = line.shown_to(seat)
        if entry is not None:
            shown.append(entry)
    shown.reverse()
    return shown


def _undo_entry(by: int | None, mover: int, lines: list[_LogLine], players: int) -> dict:
    """The log entry of an undo: who took back what, worded for everyone and, where the move
    read differently to a seat (its own card, say), for that seat alone."""
    who_en, who_ja = ("The host", "ホスト") if by is None else (seat_ref(by), f"{seat_ref(by)}さん")

    def words(seat: int | None) -> dict:
        move = next((text for text in (_wording(line.entry, seat) for line in lines) if text is not None), None)
        if move is None:
            return {"en": f"{who_en} took back a move by {seat_ref(mover)}",
                    "ja": f"{who_ja}が{seat_ref(mover)}の手を取り消しました"}
        return {"en": f"{who_en} took back: {move['en']}", "ja": f"{who_ja}が取り消しました: {move['ja'] or move['en']}"}

    public = words(None)
    entry = {"kind": "undo", "text": public}
    by_seat = {str(seat): words(seat) for seat in range(players)}
    own = {seat: text for seat, text in by_seat.items() if text != public}
    if own:
        entry["to"] = own
    return entry


def _undo_entry_many(by: int | None, moves: int) -> dict:
    """The log entry of an undo that took back several moves (a person's and the bots' replies)."""
    if by is None:
        return {"kind": "undo", "text": {"en": f"The host took back {moves} moves", "ja": f"ホストが{moves}手戻しました"}}
    return {"kind": "undo", "text": {"en": f"{seat_ref(by)} took back {moves} moves",
                                     "ja": f"{seat_ref(by)}さんが{moves}手戻しました"}}


def _credited(occupants: list[dict], name: str | None, bot: str | None) -> dict:
    """The one player a seat counts for in the statistics and BG Stats (docs/records.md): of
    everyone who sat there, the one who made the most of its moves in force (the later of
    equals), so a friend who played most of a game and left keeps it, and a seat freed before
    the end still names who played it; when nobody moved, whoever sits there now (``name``,
    ``bot``: None when the seat is free)."""
    played = [occupant for occupant in occupants if occupant["moves"]]
    if not played:
        return {"name": name, "bot": bot}
    most = max(reversed(played), key=lambda occupant: occupant["moves"])  # max keeps the first: the latest
    return {"name": most["name"], "bot": most["bot_level"]}


def _fingerprints(game: Game, state: dict) -> dict[int, str]:
    """Per seat, a hash of what it may do and what only it may see (see Table.act)."""
    return {seat: game.seat_digest(state, seat) for seat in range(state["players"])}


INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Characters that show nothing though they are letters, marks or symbols: the Hangul fillers,
the braille blank, the combining grapheme joiner and Khmer's inherent vowels. Together with the
format characters (category Cf) and unassigned code points, which :func:`clean_name` refuses
anyway, they cover Unicode's Default_Ignorable_Code_Point property (which Python's
``unicodedata`` does not offer) but for the variation selectors, which it treats as marks."""

ZERO_WIDTH_JOINER = "\u200d"


def same_name(one: str, other: str) -> bool:
    """Whether two names read as the same at the table: compared without case and width
    ("dai", "DAI" and full-width "Ｄａｉ" are "Dai"; NFKC, then casefold)."""
    return unicodedata.normalize("NFKC", one).casefold() == unicodedata.normalize("NFKC", other).casefold()


def clean_name(name) -> str:
    """A player name as shown: one line of 1 to NAME_MAX visible characters.

    - Normalised to NFC; every kind of space (the ideographic space a Japanese keyboard
      types, a no-break space) becomes a plain space; spaces at the ends are trimmed.
    - Refused: control characters and line or paragraph separators; unassigned, private-use
      and broken (lone surrogate) characters; invisible characters (format characters such as
      zero-width spaces and direction marks, and :data:`INVISIBLE`); a combining mark with
      nothing to combine with (at the start or after a space).
    - Welcome: any script, Japanese and Korean (Hangul syllables and jamo) included;
      accents and variation selectors after what they modify; emoji, skin tones and emoji
      ZWJ sequences: a zero-width joiner is allowed between two symbols and nowhere else.
      The panel's font has no emoji (it draws each as a box); phones show them.

    Escaping is the web's job."""
    if not isinstance(name, str):
        raise TableError("a name must be text", "名前は文字で入力してください")
    name = "".join(" " if unicodedata.category(char) == "Zs" else char for char in unicodedata.normalize("NFC", name))
    name = name.strip()
    if not name:
        raise TableError("please enter a name", "名前を入力してください")
    if len(name) > NAME_MAX:
        raise TableError(f"a name can have at most {NAME_MAX} characters", f"名前は{NAME_MAX}文字までです")
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            raise TableError(f"a name must be one line, without control characters ({_named(char)})",
                             f"名前は1行で、制御文字は使えません（{_named(char)}）")
        if category in ("Cs", "Co", "Cn"):
            raise TableError(f"a name cannot contain unassigned, private-use or broken characters ({_named(char)})",
                             f"名前に未定義・私用・壊れた文字は使えません（{_named(char)}）")
        if (category == "Cf" and not _joins_symbols(name, index)) or char in INVISIBLE:
            raise TableError(f"a name cannot contain invisible characters ({_named(char)})",
                             f"名前に見えない文字は使えません（{_named(char)}）")
        if category.startswith("M") and (index == 0 or name[index - 1] == " "):
            raise TableError(f"a combining mark must follow a letter ({_named(char)})",
                             f"結合文字は文字の後ろにしか置けません（{_named(char)}）")
    return name


def _joins_symbols(name: str, index: int) -> bool:
    """Whether ``name[index]`` is a zero-width joiner between two symbols, as in the emoji
    ZWJ sequence 👩🏽‍💻 (woman, skin tone, joiner, laptop): marks (variation selectors) and
    modifiers (skin tones) may follow the first symbol."""
    if name[index] != ZERO_WIDTH_JOINER or index in (0, len(name) - 1):
        return False
    before = index - 1
    while before > 0 and unicodedata.category(name[before]) in ("Mn", "Mc", "Me", "Sk"):
        before -= 1
    return unicodedata.category(name[before]) == unicodedata.category(name[index + 1]) == "So"


def _named(char: str) -> str:
    """A character as an error message names it: ``U+3164 HANGUL FILLER``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"

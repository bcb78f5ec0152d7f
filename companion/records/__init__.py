"""Play records: every finished game, and every game abandoned after a move, as a play.

- :mod:`.seating` -- the hook the table calls when a game ends: who sat where;
- :mod:`.plays` -- :class:`~.plays.Records`: reading, renaming and deleting plays.

The records read the table's SQLite database through the store's play-record methods
(``companion/store.py``); they never touch the table itself. ``docs/records.md`` says more.
"""

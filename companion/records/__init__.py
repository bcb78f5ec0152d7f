"""Play records: every finished game, and every game abandoned after a move, as a play.

- :mod:`.plays` -- :class:`~.plays.Records`: reading, renaming and deleting plays;
- :mod:`.stats`, :mod:`.exports`, :mod:`.backup` -- statistics, CSV and BG Stats, export and import.

The records read the table's SQLite database through the store's play-record methods
(``companion/store.py``); they never touch the table itself, and the table never calls them
(it keeps who sat where itself as a game ends). ``docs/records.md`` says more.
"""

"""The score pad's home: a tracker for any game the companion does not know (:mod:`.rules`).
The players play with their own box; the pad keeps every round's scores, every correction
and whose turn it is. Nothing is imported here, so it loads only when it is used."""

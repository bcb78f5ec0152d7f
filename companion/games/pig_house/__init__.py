"""Pig House's home: its rules (:mod:`.rules`) and the edition it is played with
(``edition.json``). It has no bot."""

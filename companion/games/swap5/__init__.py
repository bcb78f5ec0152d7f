"""SWAP 5's home: its rules (:mod:`.rules`), what a bot knows of it (:mod:`.bot`) and the
two-player search its bots read the game with (:mod:`.search`). Nothing is imported here, so
each loads only when it is used."""

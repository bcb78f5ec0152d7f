"""Lion Square's home: its rules (:mod:`.rules`), what a bot knows of it (:mod:`.bot`) and the
ledger that follows a game played with the real cards (:mod:`.ledger`). Nothing is imported
here, so each loads only when it is used."""

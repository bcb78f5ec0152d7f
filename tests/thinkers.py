"""A bot thinker for the tests of what surrounds a bot (seats, pages, the panel), not of its
search (``tests/bots/`` test that): it answers at once, so nothing waits on a search."""

from __future__ import annotations

import concurrent.futures


class FirstAction:
    """Answers each view it is given with the view's first action, at once, and keeps the
    views (``views``) so a test can check what a bot was shown."""

    def __init__(self):
        self.views = []

    def think(self, game_id, view, *, level, budget):
        self.views.append(view)
        future = concurrent.futures.Future()
        future.set_result(view["actions"][0])
        return future

    def close(self):
        pass

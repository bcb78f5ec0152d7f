"""The Japanese the engines write (issue 23 point 12): no space between a word and the
particle after it (「あき が5点で…」 read as a foreign name pasted in), and the Pig House
summary in the grammatical order 「無事なこぶたが最も多い(3匹)あきが1位です。」. Every
engine's summaries and log lines over random games to the end are read."""

from __future__ import annotations

import random
import re

import pytest

from companion import games
from companion.games.base import render_text

SPACE_BEFORE_PARTICLE = re.compile(r"[^\s、。(（:：]\s+(?:が|を|に|へ|から|まで|より|の(?!\d))")
"""A word, a space, then a particle: 「あき が」, 「E2 の」. (A space after a colon or a bracket
is punctuation; 「の」 before a digit never follows a word here.)"""


def japanese_of(game_id: str, seed: int) -> list[str]:
    """Every Japanese text of a random game to its end: each seat's log and the summary, with
    names filled in as the phones show them."""
    game = games.get(game_id)
    players = game.player_counts[-1]
    state = game.setup(players, seed)
    chooser = random.Random(seed)
    names = ["あき", "ベン", "Chie", "だい"][:players]
    texts = []
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        for viewer in (None, *range(players)):
            texts += [entry["text"]["ja"] for entry in game.view(state, viewer)["log"] if entry["text"]["ja"]]
    texts.append(game.result(state)["summary"]["ja"])
    return [render_text(text, names) for text in texts]


@pytest.mark.parametrize("game_id", games.ids())
def test_no_space_before_a_particle(game_id):
    for seed in range(3):
        for text in japanese_of(game_id, seed):
            assert not SPACE_BEFORE_PARTICLE.search(text), text


def test_the_pig_house_summary_reads_in_japanese_order():
    summaries = {japanese_of("pig-house", seed)[-1] for seed in range(20)}
    alone = [text for text in summaries if text.startswith("無事なこぶたが最も多い(")]
    assert alone and all(re.fullmatch(r"無事なこぶたが最も多い\(\d匹\)\S+が1位です。", text) for text in alone)
    assert not any("こぶたの最も多い" in text for text in summaries)

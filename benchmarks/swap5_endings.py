"""How two-player SWAP 5 games of a bot level against the greedy player end.

    python benchmarks/swap5_endings.py [--level normal] [--games 48] [--seed 3000] [--scale 0.1] [--careful | --plain]

The games are the arena's own (``companion.bots.arena.played_games``, as ``companion arena
swap5 --seats LEVEL greedy --scale S`` plays them: game ``n`` is dealt from ``seed + n``,
the bot sits at seat ``n % 2``, each level gets ``scale`` times its configured seconds of
processor time), and for each one this prints who won, after
how many moves, the scores, and the moves where each side played a trump card. Then a
summary: the bot's wins among the games that ended before the bots' last call (move 240,
``search.LAST_CALL``) and among those that reached it, and the points it trailed by
at the end of those. benchmarks/strength.md ("Where the games are lost") reads it.

``--careful`` plays the arena's ``ahead`` player instead (``companion.bots.ahead``), more
careful than the issue's: before it plays its last trump card, it weighs the bot's replies
under every hand the bot may hold (its trump cards too), not only the replies it can see,
so it never walks into the trap of a card the bot holds (benchmarks/strength.md, "Against a
more careful player"). Everything else it does as the greedy player (``greedy_values`` in
``companion/games/swap5/bot.py``).

``--plain`` reads the issue's words another way, as a greedy player written independently
might: a finished game counts by its points margin, like a game going on, not as won or
lost (so that it plays its last trump card only where no other move leaves a higher
margin, and does not see the tie-break).
"""

import argparse
import json

from companion import games
from companion.bots.arena import AHEAD, GREEDY, played_games, wilson
from companion.games.swap5 import bot as swap5_bot
from companion.games.swap5.search import LAST_CALL


def _finished_by_margin(game, state: dict, seat: int) -> float:
    """A finished game's worth to ``seat`` as the --plain greedy player sees it: its points margin."""
    scores = game.result(state)["scores"]
    mine = scores.pop(str(seat))
    return mine - max(scores.values())


def ending(played, level: str, seed: int) -> dict:
    """A game of the run: its result, length, scores and the moves where trump cards went."""
    bot = played.entries.index(level)
    result = games.get("swap5").result(played.state)
    cards = {"bot": [], "greedy": []}
    for move, (seat, action) in enumerate(played.moves, start=1):
        if action["type"] == "trump":
            cards["bot" if seat == bot else "greedy"].append(move)
    return {"seed": seed + played.number, "bot_won": bot in result["winners"], "moves": len(played.moves),
            "bot": result["scores"][str(bot)], "greedy": result["scores"][str(1 - bot)],
            "ending": result["ending"], "trump_cards_at": cards}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "strong"))
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--scale", type=float, default=0.1, help="share of the level's seconds, in processor time")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--careful", action="store_true", help="a greedy player that never walks into a trap")
    kind.add_argument("--plain", action="store_true", help="a greedy player that counts a finished game by its margin")
    args = parser.parse_args()
    if args.plain:
        swap5_bot.finished_value = _finished_by_margin
    played = []
    opponent = AHEAD if args.careful else GREEDY
    for game in played_games(games.get("swap5"), [args.level, opponent], args.games, args.seed, scale=args.scale):
        played.append(ending(game, args.level, args.seed))
        print(json.dumps(played[-1]), flush=True)
    short = [game for game in played if game["moves"] < LAST_CALL]
    long = [game for game in played if game["moves"] >= LAST_CALL]
    wins = sum(game["bot_won"] for game in played)
    low, high = wilson(wins, len(played))
    print(f"{args.level} against greedy, {len(played)} games: {wins} won ({100 * low:.0f} – {100 * high:.0f}%)")
    print(f"  ended before move {LAST_CALL}: {len(short)}, the bot won {sum(game['bot_won'] for game in short)}")
    print(f"  reached it: {len(long)}, the bot won {sum(game['bot_won'] for game in long)}; "
          f"its lead at their end: {sorted(game['bot'] - game['greedy'] for game in long)}")


if __name__ == "__main__":
    main()

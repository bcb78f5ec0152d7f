"""A tiny deterministic random number generator whose whole state is one integer.

Engines keep their randomness inside the game state (so that the same seed and the
same actions replay the same game, and so that undo cannot be used to re-roll). The
standard library's Mersenne Twister carries 625 words of state, which would make
every copy and every dump of a game state slow; SplitMix64 carries 64 bits and passes
BigCrush, which is plenty for shuffling cards.

Use it like this::

    rng = Rng(state["rng"])
    rng.shuffle(deck)
    state["rng"] = rng.state      # write the advanced state back
"""

_TWO64 = 1 << 64
_MASK = _TWO64 - 1
_LIMITS = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(257))
"""Bound n -> the largest multiple of n up to 2**64: a draw at or above it is drawn again,
so that ``draw % n`` favours no number. Worked out once for the bounds games use."""


class Rng:
    """SplitMix64 (Steele, Lea & Flood 2014). ``state`` is a plain int in [0, 2**64)."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> "Rng":
        """Spread a small seed (0, 1, 2 ...) over the whole state space."""
        rng = cls(seed)
        rng.next64()
        return rng

    def next64(self) -> int:
        """The next 64 random bits: ``randbelow(2**64)``, whose every draw is below the bound."""
        return self.randbelow(_TWO64)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _LIMITS[n] if n < len(_LIMITS) else _TWO64 - _TWO64 % n
        while True:
            # SplitMix64's step, the only copy: a playout draws at every move, and a call
            # to a method of its own here cost a tenth of the draw.
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def choice(self, items):
        return items[self.randbelow(len(items))]

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        below = self.randbelow
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

"""The broadcast delay's one decision, pure: how much of a game the public sees.

The API reads the clock and the store (recorder/live/audience.py) and asks this.
"""

from __future__ import annotations


def public_horizon(delay: int, finished_public: bool, finished: bool, aged: int) -> int | None:
    """The last event of a game the public may see, None for all of them.

    ``delay``: the tournament's delay in seconds; ``finished``: the game is over now;
    ``aged``: its last event recorded at least ``delay`` seconds ago (0: none). The
    setup (event 1) is always shown: the pairing that made the game is public."""
    if delay == 0 or (finished and finished_public):
        return None
    return max(aged, 1)

"""When a finished tournament finished (pure): the moment its categories are decided at.

A tournament finishes with the result that completes its last round (docs/tournaments.md).
From then on nothing of it or of its boards' games changes but through the admin's
corrections, each recorded first (``correction_recorded``). So it finished at the latest
of: the pairing of a round, a forfeit, a result change of a board's game, each recorded
before its first correction. Times are the store's ``recorded_at`` (UTC text, which sorts
as time, and never goes backwards in a store).
"""

from __future__ import annotations

from collections.abc import Sequence

FINISHING = ("round_paired", "board_result_recorded")  # what may complete a tournament's rounds
CORRECTION = "correction_recorded"


def first_correction(events: Sequence[tuple[str, str]]) -> str | None:
    """When the admin recorded the tournament's first correction; None: it has none.
    ``events``: the tournament's stored events as (type, recorded_at), in order."""
    return next((moment for kind, moment in events if kind == CORRECTION), None)


def finished_at(events: Sequence[tuple[str, str]], latest_game_result: str | None) -> str | None:
    """The moment the tournament finished, from its stored events (as ``first_correction``
    takes them) and the last result change of its board games recorded before its first
    correction (None: none)."""
    moments = [latest_game_result] if latest_game_result is not None else []
    for kind, moment in events:
        if kind == CORRECTION:
            break
        if kind in FINISHING:
            moments.append(moment)
    return max(moments, default=None)

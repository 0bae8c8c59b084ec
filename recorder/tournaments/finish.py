"""Finishing a tournament, and when a finished tournament finished (pure).

Finishing: its arbiter or the admin says it is over, once every paired round has its
results; from then on its arbiters' rights have ended exactly as for a tournament that
played all its planned rounds (recorder/auth/policy.py), and no round is paired after it.
Refused, and nothing stored: a tournament with no round paired (nothing was played: a
tournament that will not take place is simply left), a board of a paired round without a
result (its game unfinished, or no result entered: the standings would count it as
nothing), and a tournament finished already (explicitly, or by its last planned round).

When it finished (the moment its categories are decided at): with the result that
completes its last round, or with its ``tournament_finished`` event. From then on nothing
of it or of its boards' games changes but through the admin's corrections, each recorded
first (``correction_recorded``). So it finished at the latest of: the pairing of a round,
a forfeit or result entered, the finish, a result change of a board's game, each recorded
before its first correction. Times are the store's ``recorded_at`` (UTC text, which sorts
as time, and never goes backwards in a store).
"""

from __future__ import annotations

from collections.abc import Sequence

from recorder.errors import AlreadyExists, InvalidRecord

from .events import TournamentFinished
from .fold import Tournament
from .standings import is_finished

# what may complete a tournament's rounds, or end it (a lot may decide a knock-out's final)
FINISHING = ("round_paired", "board_result_recorded", "tournament_finished", "lot_drawn")
CORRECTION = "correction_recorded"


def decide_finish(t: Tournament, outcomes: dict, body: dict, principal: dict) -> list[TournamentFinished]:
    if is_finished(t, outcomes):
        raise AlreadyExists(f"tournament {t.tournament_id} is already finished")
    if not t.rounds:
        raise InvalidRecord("no round is paired: there is nothing to finish", field="round")
    missing = [(r.number, b.board) for r in t.rounds for b in r.boards if (r.number, b.board) not in outcomes]
    if missing:
        listed = ", ".join(f"round {r} board {b}" for r, b in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise InvalidRecord(f"every paired board needs its result first: {listed}{more} has no result", field="round")
    note = " ".join((body.get("note") or "").split()) or None
    return [TournamentFinished(principal=principal, note=note)]


def check_open(t: Tournament) -> None:
    """No round is paired after the tournament was finished."""
    if t.finished_explicitly:
        raise InvalidRecord(f"tournament {t.tournament_id} is finished: no round is paired after it", field="round")


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

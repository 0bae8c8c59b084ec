"""Finishing a tournament (pure): its arbiter or the admin says it is over, once every
paired round has its results; from then on its arbiters' rights have ended exactly as for
a tournament that played all its planned rounds (recorder/auth/policy.py), and no round
is paired after it.

Refused, and nothing stored: a tournament with no round paired (nothing was played: a
tournament that will not take place is simply left), a board of a paired round without a
result (its game unfinished, or no result entered: the standings would count it as
nothing), and a tournament finished already (explicitly, or by its last planned round).
"""

from __future__ import annotations

from recorder.errors import AlreadyExists, InvalidRecord

from .events import TournamentFinished
from .fold import Tournament
from .standings import is_finished


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

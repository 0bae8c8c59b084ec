"""The pairing checker (pure): every stored Swiss round paired again from the history
before it, by the tournament's own rules, and compared with what was stored; every
round of a round robin compared with the Berger table in the order the tournament
recorded at its creation (berger_order: older double round robins play the cycle twice
as it stands, newer ones reverse the first cycle's last two rounds, C.05 Annex 1).

What an arbiter shows an appeals committee: for each round, whether the stored pairing
is the rules' (pairs, seats, the pairing-allocated bye), and if not, how it differs. A
round paired by hand is named as such, and so is every board decided by forfeit (it
counts as no game for colours and floats in the rounds after it). Players the stored
round did not pair (a requested bye, an absence) are left out of the re-pairing too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from recorder.errors import InvalidRecord

from . import TEAM_ROUND_ROBIN, TEAM_SWISS, team_swiss
from .decide import annex_order, round_robin_field, swiss_pairing
from .fold import Round, Tournament, bye_kind
from .pairing import NoPairing, round_robin_round
from .teams import lineup_round, round_lineups

SAME, DIFFERS, NO_PAIRING, NOT_SWISS = "same", "differs", "no_pairing", "not_swiss"


@dataclass(frozen=True)
class RoundCheck:
    round: int
    method: str  # how the stored round was made: swiss, manual, imported, berger
    status: str  # same, differs, no_pairing, not_swiss
    stored: tuple  # (south, north) in board order
    stored_bye: int | None
    expected: tuple = ()  # what the rules give, (south, north) in board order
    expected_bye: int | None = None
    forfeits: tuple = ()  # (board, result) decided without a game
    detail: str = ""

    @property
    def order_differs(self) -> bool:
        """Same seated pairs and bye, boards in another order."""
        return self.status == SAME and self.stored != self.expected


def before(t: Tournament, outcomes: dict, round_number: int) -> tuple[Tournament, dict]:
    """The tournament and its results as they stood when ``round_number`` was paired."""
    kept = {k: v for k, v in t.forfeits.items() if k[0] < round_number}
    earlier = replace(t, rounds=t.rounds[: round_number - 1], forfeits=kept)
    return earlier, {k: v for k, v in outcomes.items() if k[0] < round_number}


def pairing_allocated_bye(rnd: Round) -> int | None:
    return next((b.player for b in rnd.byes if bye_kind(rnd, b) == "pab"), None)


def check_round(t: Tournament, outcomes: dict, rnd: Round) -> RoundCheck:
    stored = tuple(b.players() for b in rnd.boards)
    bye = pairing_allocated_bye(rnd)
    forfeits = tuple(
        (board, t.forfeits[(rnd.number, board)].result)
        for board in (b.board for b in rnd.boards)
        if (rnd.number, board) in t.forfeits and t.forfeits[(rnd.number, board)].reason != "played"
    )
    base = RoundCheck(rnd.number, rnd.method, NOT_SWISS, stored, bye, forfeits=forfeits)
    if t.is_round_robin:
        return check_berger_round(t, rnd, base)
    if t.format == TEAM_ROUND_ROBIN:
        return check_team_round(t, rnd, base)
    if t.format == TEAM_SWISS:
        return check_team_swiss_round(t, outcomes, rnd, base)
    if t.format != "swiss":
        return replace(base, detail=f"a {t.format.replace('_', ' ')} tournament is not paired by the Dutch system")
    earlier, known = before(t, outcomes, rnd.number)
    placed = {p for pair in stored for p in pair} | ({bye} if bye is not None else set())
    absent = frozenset(e.number for e in earlier.active_in(rnd.number) if e.number not in placed)
    try:
        expected = swiss_pairing(earlier, known, rnd.number, absent)
    except NoPairing as error:
        return replace(base, status=NO_PAIRING, detail=str(error))
    found = replace(base, expected=expected.boards, expected_bye=expected.bye)
    if set(stored) == set(expected.boards) and bye == expected.bye:
        return replace(found, status=SAME)
    return replace(found, status=DIFFERS, detail=difference(stored, bye, expected.boards, expected.bye))


def check_berger_round(t: Tournament, rnd: Round, base: RoundCheck) -> RoundCheck:
    """A round robin's round against its Berger table; the round off is its bye."""
    field = round_robin_field(t)
    if len(field) < 2:
        return replace(base, detail="a round robin needs at least two players for a Berger table")
    pairs, off = round_robin_round(len(field), rnd.number, t.format == "double_round_robin", annex_order(t))
    # A declared absence takes its board out of the table (both players have a bye of a kind).
    away = {b.player for b in rnd.byes if b.kind is not None}
    table = ((field[s - 1].number, field[n - 1].number) for s, n in pairs)
    expected = tuple(pair for pair in table if not set(pair) & away)
    expected_bye = field[off - 1].number if off and field[off - 1].number not in away else None
    stored_bye = next((b.player for b in rnd.byes if b.kind is None), None)
    found = replace(base, stored_bye=stored_bye, expected=expected, expected_bye=expected_bye)
    if set(base.stored) == set(expected) and stored_bye == expected_bye:
        return replace(found, status=SAME)
    return replace(found, status=DIFFERS, detail=difference(base.stored, stored_bye, expected, expected_bye))


def check_team_round(t: Tournament, rnd: Round, base: RoundCheck) -> RoundCheck:
    """A team round robin's round against the Berger table over its teams, each match's
    boards laid out from the line-ups handed in before it (a team without one: its first
    boards), the boards left empty among them (teams.py)."""
    if len(t.teams) < 2:
        return replace(base, detail="a team round robin needs at least two teams for a Berger table")
    laid, empty = lineup_round(round_lineups(t, rnd.number), rnd.number, t.team_boards or 1)
    expected = tuple((b.south, b.north) for b in laid.boards)
    found = replace(base, expected=expected, expected_bye=None)
    if base.stored == expected and tuple(empty) == rnd.empty:
        return replace(found, status=SAME)
    if base.stored == expected:
        return replace(found, status=DIFFERS, detail="the boards left empty are not the line-ups' empty boards")
    return replace(found, status=DIFFERS, detail=difference(base.stored, None, expected, None))


def check_team_swiss_round(t: Tournament, outcomes: dict, rnd: Round, base: RoundCheck) -> RoundCheck:
    """A team Swiss's round against C.04.6's pairing of it from the rounds before it, each
    match's boards laid out from the line-ups handed in before it (team_swiss.py)."""
    try:
        pairing = team_swiss.pairing_of(t, outcomes, rnd.number)
    except InvalidRecord as error:
        return replace(base, status=NO_PAIRING, detail=str(error))
    laid, empty = team_swiss.laid_round(t, pairing, rnd.number)
    expected = tuple((b.south, b.north) for b in laid.boards)
    found = replace(base, expected=expected, expected_bye=None)
    if base.stored == expected and tuple(empty) == rnd.empty:
        return replace(found, status=SAME)
    if base.stored == expected:
        return replace(found, status=DIFFERS, detail="the boards left empty are not the line-ups' empty boards")
    return replace(found, status=DIFFERS, detail=difference(base.stored, None, expected, None))


def difference(stored: tuple, bye: int | None, expected: tuple, expected_bye: int | None) -> str:
    pairs = {frozenset(p) for p in stored}
    wanted = {frozenset(p) for p in expected}
    parts = []
    if bye != expected_bye:
        parts.append(f"the bye went to {bye or 'nobody'}, the rules give it to {expected_bye or 'nobody'}")
    extra = sorted(tuple(sorted(p)) for p in pairs - wanted)
    if extra:
        parts.append("pairs not in the rules' pairing: " + ", ".join(f"{a}-{b}" for a, b in extra))
    seats = sorted(p for p in stored if frozenset(p) in wanted and p not in expected)
    if seats:
        parts.append("seats swapped: " + ", ".join(f"{s} south against {n}" for s, n in seats))
    return "; ".join(parts)


def check_tournament(t: Tournament, outcomes: dict) -> list[RoundCheck]:
    """Every stored round, checked in order."""
    return [check_round(t, outcomes, rnd) for rnd in t.rounds]

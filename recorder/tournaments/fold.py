"""The one fold of a tournament: its stored events -> a ``Tournament`` value.

The fold trusts its input (``decide`` validated every event before it was stored).
Results of games are not part of the fold: ``standings`` joins them in at read time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .events import (
    BERGER_CYCLES,
    DEFAULT_ABSENCE_POINTS,
    KNOCKOUT_EVENTS,
    OLD_DUTCH,
    AbsenceCancelled,
    AbsenceDeclared,
    BoardResultRecorded,
    BroadcastSet,
    CategoriesSet,
    CorrectionRecorded,
    EntrantLinked,
    EntrantRegistered,
    LineupSubmitted,
    PairingForbidden,
    PlayerCheckedIn,
    PlayerWithdrew,
    PrizesSet,
    RoundPaired,
    TeamEntered,
    TiebreaksChosen,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
)


@dataclass(frozen=True)
class Entrant:
    """A registered player. ``entered_round``: the first round he can be paired in."""

    number: int
    name: str
    federation: str | None
    rating: int | None
    entered_round: int
    withdrawn_after: int | None = None  # the last round paired before he withdrew
    player_id: str | None = None  # the registry player, once the entry names one

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None

    def is_active_in(self, round_number: int) -> bool:
        """May be paired in this round: entered by then and not withdrawn before it."""
        if round_number < self.entered_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


@dataclass(frozen=True)
class PairedBoard:
    """A round's board as paired: its number and who plays whom (entrant numbers), not the
    rules' ``Board`` of holes."""

    board: int
    south: int
    north: int

    def players(self) -> tuple[int, int]:
        return self.south, self.north


@dataclass(frozen=True)
class Bye:
    player: int
    points: float
    kind: str | None = None  # pab, full, half, zero (BYE_KINDS); absent: by the round's method (bye_kind)


@dataclass(frozen=True)
class EmptyBoard:
    """A team match's board a line-up left empty: no game is played on it. A seat None is
    the empty one; ``teams`` (South's, North's) says whose seats they are all the same."""

    board: int
    south: int | None
    north: int | None
    teams: tuple[int, int]

    @property
    def result(self) -> str:
        """The side that sits wins by forfeit; both seats empty, a double forfeit."""
        if self.south is None and self.north is None:
            return "double_forfeit"
        return "north_wins" if self.south is None else "south_wins"


@dataclass(frozen=True)
class Round:
    number: int
    method: str
    boards: tuple[PairedBoard, ...]
    byes: tuple[Bye, ...]
    empty: tuple[EmptyBoard, ...] = ()  # a team event's boards left empty (teams.py)

    def board(self, number: int) -> PairedBoard | None:
        return next((b for b in self.boards if b.board == number), None)


@dataclass(frozen=True)
class Forfeit:
    """A board result recorded in the tournament (no game decides it)."""

    result: str
    reason: str
    note: str | None = None


@dataclass(frozen=True)
class ForbiddenGroup:
    """Players no two of whom may meet in rounds first..last (last None: to the end)."""

    players: tuple[int, ...]
    first_round: int
    last_round: int | None

    def applies_to(self, round_number: int) -> bool:
        return self.first_round <= round_number and (self.last_round is None or round_number <= self.last_round)


@dataclass(frozen=True)
class Absence:
    """A round a player said he would miss, and the points of its bye."""

    player: int
    round: int
    points: float


@dataclass(frozen=True)
class Correction:
    """A board of a finished tournament the admin corrected (the event's seq), and why."""

    round: int
    board: int
    reason: str
    principal: dict
    seq: int


@dataclass(frozen=True)
class Tournament:
    tournament_id: str
    name: str
    variant: str
    options: dict
    format: str
    planned: int | None
    tiebreaks: tuple[str, ...]
    bye_points: float
    site: str | None = None
    start_date: str | None = None
    end_date: str | None = None
    rated: bool = False
    pairing_rules: str = OLD_DUTCH
    berger_order: str = BERGER_CYCLES  # a double round robin's (events.py)
    initial_colour: str = "white"
    forbidden: tuple[ForbiddenGroup, ...] = ()
    acceleration: str | None = None
    broadcast_delay: int = 0  # seconds; 0: the public sees each move at once
    finished_public: bool = True
    time_control: dict | None = None  # core.clocks: the time control of every game of it
    absence_points: float = DEFAULT_ABSENCE_POINTS  # the bye of a declared absence
    lots_seed: str | None = None  # the drawing of lots' seed as recorded; None: the tournament's id
    absences: tuple[Absence, ...] = ()  # declared, not taken back
    check_ins: tuple[tuple[int, int], ...] = ()  # (round, player): present, by his own sign-in
    require_confirmation: bool = False  # a game's result counts once both players confirmed it
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    forfeits: dict = field(default_factory=dict)  # (round, board) -> Forfeit; never mutated
    corrections: tuple[Correction, ...] = ()  # the admin's, after the tournament finished
    categories: tuple[dict, ...] = ()  # as stored (categories.py); never mutated
    prizes: tuple[dict, ...] = ()  # the prize list as stored (PrizesSet)
    prize_sharing: str = "none"
    currency: str | None = None
    knockout: dict | None = None  # a knock-out's settings (knockout.py)
    knockout_events: tuple = ()  # its bracket and lots, in order (knockout.py reads them)
    team_boards: int | None = None  # a team event's boards a match (teams.py)
    team_primary_score: str | None = None  # a team Swiss's primary score (team_swiss.py); None: match points
    team_colour_preferences: str | None = None  # a team Swiss's colour preferences; None: type A
    team_tiebreaks: tuple[str, ...] | None = None  # a team event's ranking order as created; None: the default
    teams: tuple[TeamEntered, ...] = ()  # a team event's teams as entered, team 1 first
    lineups: dict = field(default_factory=dict)  # (round, team) -> its line-up's players, the last; never mutated
    finished_explicitly: bool = False  # a tournament_finished event: finished whatever its planned rounds
    version: int = 0

    @property
    def is_round_robin(self) -> bool:
        return self.format in ("round_robin", "double_round_robin")

    @property
    def planned_rounds(self) -> int | None:
        """Round robins: one cycle has n-1 rounds (n if n is odd), doubled for a double;
        a team round robin's cycle is its teams'."""
        if self.format == "team_round_robin":
            n = len(self.teams)
            return (n - 1 if n % 2 == 0 else n) if n > 1 else None
        if not self.is_round_robin:  # a Swiss, a team Swiss, a manual event: as created
            return self.planned
        n = sum(1 for e in self.entrants if e.is_active_in(1))  # the field of the Berger table
        cycle = n - 1 if n % 2 == 0 else n
        return max(cycle, 0) * (2 if self.format == "double_round_robin" else 1)

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def entrant(self, number: int) -> Entrant | None:
        return self.entrants[number - 1] if 1 <= number <= len(self.entrants) else None

    def seated(self, number: int) -> Entrant:
        """An entrant a board or the log names, who therefore exists."""
        entrant = self.entrant(number)
        if entrant is None:
            raise KeyError(f"no player {number} in {self.tournament_id}")
        return entrant

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None

    def active_in(self, round_number: int) -> list[Entrant]:
        return [e for e in self.entrants if e.is_active_in(round_number)]

    @property
    def draw_seed(self) -> str:
        """What the drawing of lots is seeded by: the recorded seed, else the id."""
        return self.lots_seed or self.tournament_id

    def absence(self, player: int, round_number: int) -> Absence | None:
        return next((a for a in self.absences if (a.player, a.round) == (player, round_number)), None)

    def absent_from(self, round_number: int) -> dict[int, float]:
        """Player -> the points of his bye, for the active players who declared they would
        miss this round (a withdrawal since leaves him out anyway)."""
        active = {e.number for e in self.active_in(round_number)}
        return {a.player: a.points for a in self.absences if a.round == round_number and a.player in active}

    def corrected(self, round_number: int, board: int) -> bool:
        """Has the admin recorded a correction of this board (so his commands to its game may follow)?"""
        return any((c.round, c.board) == (round_number, board) for c in self.corrections)


def bye_kind(rnd: Round, bye: Bye) -> str:
    """A bye's kind: as recorded, else the pairing-allocated bye of a Swiss round, the
    round off of a Berger table (zero), and a manual bye by its points."""
    if bye.kind is not None:
        return bye.kind
    if rnd.method == "swiss":
        return "pab"
    return {1: "full", 0.5: "half"}.get(bye.points, "zero")


def start(tournament_id: str, event: TournamentCreated) -> Tournament:
    return Tournament(
        tournament_id=tournament_id,
        name=event.name,
        variant=event.variant,
        options=dict(event.options),
        format=event.format,
        planned=event.rounds,
        tiebreaks=tuple(event.tiebreaks),
        bye_points=event.bye_points,
        site=event.site,
        start_date=event.start_date,
        end_date=event.end_date,
        rated=bool(event.rated),
        pairing_rules=event.pairing_rules or OLD_DUTCH,
        berger_order=event.berger_order or BERGER_CYCLES,
        initial_colour=event.initial_colour or "white",
        acceleration=event.acceleration,
        broadcast_delay=event.broadcast_delay or 0,
        finished_public=event.finished_public is not False,
        time_control=event.time_control,
        knockout=event.knockout,
        team_boards=event.team_boards,
        team_primary_score=event.team_primary_score,
        team_colour_preferences=event.team_colour_preferences,
        team_tiebreaks=tuple(event.team_tiebreaks) if event.team_tiebreaks else None,
        absence_points=DEFAULT_ABSENCE_POINTS if event.absence_points is None else event.absence_points,
        lots_seed=event.lots_seed,
        require_confirmation=bool(event.require_confirmation),
        version=1,
    )


def apply(t: Tournament, event: TournamentEvent, seq: int) -> Tournament:
    """The reducer: the tournament after one more stored event."""
    change = CHANGES.get(type(event))
    if change is None:
        raise TypeError(f"unexpected tournament event {event!r}")
    return change(replace(t, version=seq), event)


def _tiebreaks_chosen(t: Tournament, event: Any) -> Tournament:
    return replace(t, tiebreaks=tuple(event.tiebreaks))


def _player_registered(t: Tournament, event: Any) -> Tournament:
    entrant = Entrant(
        event.number,
        event.name,
        event.federation,
        event.rating,
        entered_round=t.next_round,
        player_id=event.player_id,
    )
    return replace(t, entrants=t.entrants + (entrant,))


def _entrant_linked(t: Tournament, event: Any) -> Tournament:
    entrants = tuple(replace(e, player_id=event.player_id) if e.number == event.number else e for e in t.entrants)
    return replace(t, entrants=entrants)


def _player_withdrew(t: Tournament, event: Any) -> Tournament:
    entrants = tuple(replace(e, withdrawn_after=len(t.rounds)) if e.number == event.number else e for e in t.entrants)
    return replace(t, entrants=entrants)


def _pairing_forbidden(t: Tournament, event: Any) -> Tournament:
    group = ForbiddenGroup(tuple(event.players), event.first_round, event.last_round)
    return replace(t, forbidden=t.forbidden + (group,))


def _absence_declared(t: Tournament, event: Any) -> Tournament:
    return replace(t, absences=t.absences + (Absence(event.player, event.round, event.points),))


def _player_checked_in(t: Tournament, event: Any) -> Tournament:
    return replace(t, check_ins=t.check_ins + ((event.round, event.player),))


def _absence_cancelled(t: Tournament, event: Any) -> Tournament:
    kept = tuple(a for a in t.absences if (a.player, a.round) != (event.player, event.round))
    return replace(t, absences=kept)


def _round_paired(t: Tournament, event: Any) -> Tournament:
    return replace(t, rounds=t.rounds + (round_from_event(event),))


def _broadcast_set(t: Tournament, event: Any) -> Tournament:
    return replace(t, broadcast_delay=event.broadcast_delay, finished_public=event.finished_public)


def _correction_recorded(t: Tournament, event: Any) -> Tournament:
    # `apply` has stamped the tournament with this event's seq already.
    correction = Correction(event.round, event.board, event.reason, dict(event.principal), t.version)
    return replace(t, corrections=t.corrections + (correction,))


def _board_result_recorded(t: Tournament, event: Any) -> Tournament:
    forfeit = Forfeit(event.result, event.reason, event.note)
    return replace(t, forfeits={**t.forfeits, (event.round, event.board): forfeit})


def _categories_set(t: Tournament, event: Any) -> Tournament:
    return replace(t, categories=tuple(event.categories))


def _prizes_set(t: Tournament, event: Any) -> Tournament:
    return replace(t, prizes=tuple(event.prizes), prize_sharing=event.sharing, currency=event.currency)


def _tournament_finished(t: Tournament, event: Any) -> Tournament:
    return replace(t, finished_explicitly=True)


def _team_entered(t: Tournament, event: Any) -> Tournament:
    return replace(t, teams=t.teams + (event,))


def _lineup_submitted(t: Tournament, event: Any) -> Tournament:
    return replace(t, lineups={**t.lineups, (event.round, event.team): tuple(event.players)})


def _knockout_event(t: Tournament, event: Any) -> Tournament:
    return replace(t, knockout_events=t.knockout_events + (event,))


# What each stored event changes; `apply` stamps the version first.
CHANGES: dict[type, Callable[[Tournament, Any], Tournament]] = {
    TiebreaksChosen: _tiebreaks_chosen,
    EntrantRegistered: _player_registered,
    EntrantLinked: _entrant_linked,
    PlayerWithdrew: _player_withdrew,
    PairingForbidden: _pairing_forbidden,
    AbsenceDeclared: _absence_declared,
    AbsenceCancelled: _absence_cancelled,
    PlayerCheckedIn: _player_checked_in,
    RoundPaired: _round_paired,
    BroadcastSet: _broadcast_set,
    CorrectionRecorded: _correction_recorded,
    BoardResultRecorded: _board_result_recorded,
    CategoriesSet: _categories_set,
    PrizesSet: _prizes_set,
    TournamentFinished: _tournament_finished,
    **{kind: _knockout_event for kind in KNOCKOUT_EVENTS},
    TeamEntered: _team_entered,
    LineupSubmitted: _lineup_submitted,
}


def round_from_event(event: RoundPaired) -> Round:
    boards = tuple(PairedBoard(b["board"], b["south"], b["north"]) for b in event.boards)
    byes = tuple(Bye(b["player"], b["points"], b.get("kind")) for b in event.byes)
    empty = tuple(EmptyBoard(b["board"], b["south"], b["north"], tuple(b["teams"])) for b in event.empty or ())
    return Round(event.round, event.method, boards, byes, empty)


def replay(tournament_id: str, events: Iterable[tuple[int, TournamentEvent]]) -> Tournament:
    """Fold a tournament's events in order, from its creation (seq 1)."""
    t = None
    for seq, event in events:
        if t is None:
            if not isinstance(event, TournamentCreated):
                raise ValueError("a tournament starts with its creation event")
            t = start(tournament_id, event)
        else:
            t = apply(t, event, seq)
    if t is None:
        raise ValueError("a tournament needs its creation event")
    return t

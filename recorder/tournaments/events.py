"""Tournament events: frozen, past-tense facts, stored in the tournament's stream.

Pairings are stored as made (a later change to the pairing code never rewrites
history). Game results are NOT copied here: standings read them from the games.
Only a result without a game here (a forfeit, a game recorded on paper) is a tournament event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from recorder.core.events import Event

OLD_DUTCH = "dutch-2017"  # C.04.3 as approved in 2016/2017, in force until 30 June 2025
DUTCH_2026 = "dutch-2026"  # C.04.3 applied from 1 February 2026
PAIRING_RULES = (OLD_DUTCH, DUTCH_2026)
BERGER_CYCLES = "berger-cycles"  # a double round robin plays the cycle twice as it stands
BERGER_ANNEX_1 = "c05-annex1"  # ... its first cycle's last two rounds reversed (FIDE C.05 Annex 1)
BYE_KINDS = ("pab", "full", "half", "zero")
ABSENCE_POINTS = (0, 0.5)  # a tournament's rule for a round a player said he would miss
DEFAULT_ABSENCE_POINTS = 0.5  # FIDE opens' usual half-point bye; absent from the creation event: this


@dataclass(frozen=True)
class TournamentEvent(Event):
    """A fact of a tournament's stream; the same shape as a game's events."""


@dataclass(frozen=True)
class TournamentCreated(TournamentEvent):
    """The event's identity and the rules every game of it uses."""

    type: ClassVar[str] = "tournament_created"
    name: str
    variant: str
    options: dict
    format: str
    rounds: int | None = None  # planned rounds (Swiss, manual); round robins derive theirs
    tiebreaks: list = field(default_factory=list)
    bye_points: float = 1.0
    site: str | None = None
    start_date: str | None = None
    end_date: str | None = None
    # Added later, so absent from older events; a payload leaves them out when unset.
    # pairing_rules: absent is the Dutch text of 2017 (OLD_DUTCH), under which every
    # tournament stored before it was paired; new tournaments name DUTCH_2026.
    rated: bool | None = None  # True: its finished games count in the registry's rating lists
    pairing_rules: str | None = None
    initial_colour: str | None = None  # "black": the top player is north in round 1 (E.5); absent: south
    acceleration: str | None = None  # "baku": C.04.5's accelerated rounds
    broadcast_delay: int | None = None  # seconds a move waits before the public sees it (docs/tournaments.md)
    finished_public: bool | None = None  # False: a finished game waits for the delay too
    # berger_order: a double round robin's order of rounds; absent is BERGER_CYCLES, the
    # order every double round robin stored before it was paired by.
    berger_order: str | None = None
    time_control: dict | None = None  # every game's (core.clocks), given to each board's game
    knockout: dict | None = None  # a knock-out's match_games, playoff_games, playoff_time_control (knockout.py)
    team_boards: int | None = None  # a team event's boards a match (teams.py)
    team_primary_score: str | None = None  # a team Swiss ranked on game points first; absent: match points
    team_colour_preferences: str | None = None  # a team Swiss's type_b or none (C.04.6 1.7); absent: type_a
    # a team event's ranking order, its primary score first (team_tiebreaks.py); absent:
    # C07_TEAM_ROUND_ROBIN, the order every team event stored before it was ranked by
    team_tiebreaks: list | None = None
    absence_points: float | None = None  # a declared absence's bye: 0 or 0.5; absent: DEFAULT_ABSENCE_POINTS
    lots_seed: str | None = None  # the drawing of lots' seed (LOTS); absent: the tournament's id
    require_confirmation: bool | None = None  # True: a game's result counts once both players confirmed it

    def payload(self) -> dict[str, Any]:
        body = super().payload()
        return {k: v for k, v in body.items() if k not in LATER_FIELDS or v is not None}


LATER_FIELDS = (
    "rated",
    "pairing_rules",
    "initial_colour",
    "acceleration",
    "broadcast_delay",
    "finished_public",
    "berger_order",
    "time_control",
    "knockout",
    "team_boards",
    "team_tiebreaks",
    "team_primary_score",
    "team_colour_preferences",
    "absence_points",
    "lots_seed",
    "require_confirmation",
)


@dataclass(frozen=True)
class TiebreaksChosen(TournamentEvent):
    """The organiser's order of tiebreaks, fixed before round 1 is paired."""

    type: ClassVar[str] = "tiebreaks_chosen"
    tiebreaks: list


@dataclass(frozen=True)
class EntrantRegistered(TournamentEvent):
    """A player entered; ``number`` is the starting number (registration order). Stored as
    ``player_registered``, as it always was; the registry's own event of that type name is
    another stream's (recorder/players/events.py), so the two never meet in one fold."""

    type: ClassVar[str] = "player_registered"
    number: int
    name: str
    federation: str | None = None
    rating: int | None = None
    player_id: str | None = None  # the registry player, when the entry names one


@dataclass(frozen=True)
class PlayerWithdrew(TournamentEvent):
    """A player leaves; he is not paired in any round paired after this event."""

    type: ClassVar[str] = "player_withdrew"
    number: int
    reason: str | None = None


@dataclass(frozen=True)
class PairingForbidden(TournamentEvent):
    """No two of ``players`` may be paired together in rounds ``first_round``..``last_round``
    (family members, team-mates: the TRF's 260 record)."""

    type: ClassVar[str] = "pairing_forbidden"
    players: list
    first_round: int = 1
    last_round: int | None = None  # None: to the end


@dataclass(frozen=True)
class AbsenceDeclared(TournamentEvent):
    """A player will miss a round not yet paired: the pairing leaves him out of it and
    gives him a bye of ``points`` (the tournament's rule; from a TRF's 240, its type)."""

    type: ClassVar[str] = "absence_declared"
    player: int
    round: int
    points: float


@dataclass(frozen=True)
class PlayerCheckedIn(TournamentEvent):
    """A player said, with his own sign-in, that he is present for a round (his absence
    for it is an ``absence_declared``, the same decision as the arbiter's)."""

    type: ClassVar[str] = "player_checked_in"
    player: int
    round: int


@dataclass(frozen=True)
class AbsenceCancelled(TournamentEvent):
    """A declared absence taken back before its round was paired."""

    type: ClassVar[str] = "absence_cancelled"
    player: int
    round: int


@dataclass(frozen=True)
class RoundPaired(TournamentEvent):
    """A round's boards ``[{board, south, north}]`` and byes ``[{player, points}]``."""

    type: ClassVar[str] = "round_paired"
    round: int
    method: str  # berger, swiss or manual
    boards: list
    byes: list = field(default_factory=list)
    # A team event's boards left empty by a line-up ``[{board, south, north}]``, the empty
    # seat null: no game, the side that sits wins by forfeit. Absent when there is none.
    empty: list | None = None

    def payload(self) -> dict[str, Any]:
        body = super().payload()
        return {k: v for k, v in body.items() if k != "empty" or v is not None}


@dataclass(frozen=True)
class BoardResultRecorded(TournamentEvent):
    """A result of a board without a game here: a forfeit (or a double forfeit), a game
    played on the board and recorded on paper or elsewhere (reason ``played``), or one of
    less than a move (``short_game``, from a TRF). A later one on the same board corrects it."""

    type: ClassVar[str] = "board_result_recorded"
    round: int
    board: int
    result: str  # south_wins, north_wins, draw, double_forfeit
    reason: str = "forfeit"  # forfeit, played, short_game
    note: str | None = None


@dataclass(frozen=True)
class BroadcastSet(TournamentEvent):
    """The public's delay from now on, and whether a finished game is public at once."""

    type: ClassVar[str] = "broadcast_set"
    broadcast_delay: int
    finished_public: bool = True


@dataclass(frozen=True)
class EntrantLinked(TournamentEvent):
    """An entrant named by his name alone is this registry player (``recorder players link``)."""

    type: ClassVar[str] = "entrant_linked"
    number: int
    player_id: str


@dataclass(frozen=True)
class CorrectionRecorded(TournamentEvent):
    """The admin corrects a board of a finished tournament, and says why: his commands to
    the board's game follow (the game's own events record them). From this event on the
    tournament is closed to its arbiter, even while the corrected game is unfinished."""

    type: ClassVar[str] = "correction_recorded"
    round: int
    board: int
    reason: str
    principal: dict = field(default_factory=dict)  # who corrected: {"kind": "admin"}


@dataclass(frozen=True)
class CategoriesSet(TournamentEvent):
    """The tournament's categories from now on, the whole list (categories.py): each with
    its code, kind and what decides its members (an age's birth-year bound worked out)."""

    type: ClassVar[str] = "categories_set"
    categories: list


@dataclass(frozen=True)
class PrizesSet(TournamentEvent):
    """The prize list from now on, the whole of it: ``prizes`` ``[{place, amount, category?}]``
    (no category: the overall list), shared by the Hort system or not (prizes.py)."""

    type: ClassVar[str] = "prizes_set"
    prizes: list
    sharing: str = "none"
    currency: str | None = None


@dataclass(frozen=True)
class BracketSeeded(TournamentEvent):
    """A knock-out's bracket: ``seeds`` the entrant numbers, seed 1 first (knockout.py places
    them). ``by`` rating, or standings: the hand-over from ``source`` (a finished stage),
    whose places ``source_places`` the seeds held there."""

    type: ClassVar[str] = "bracket_seeded"
    seeds: list
    by: str = "rating"
    source: str | None = None
    source_places: list | None = None


@dataclass(frozen=True)
class LotDrawn(TournamentEvent):
    """The winner of a knock-out match still level after its play-off games, by lot."""

    type: ClassVar[str] = "lot_drawn"
    stage: int  # the bracket's round: 1 the first, the final last
    match: int  # its match, top of the bracket first
    winner: int
    note: str | None = None


@dataclass(frozen=True)
class StageFollowed(TournamentEvent):
    """A finished stage's players were handed over to the knock-out ``stage`` (its id and
    name): recorded in the stage before, so its page names the stage that follows."""

    type: ClassVar[str] = "stage_followed"
    stage: str
    name: str


KNOCKOUT_EVENTS = (BracketSeeded, LotDrawn, StageFollowed)


@dataclass(frozen=True)
class TeamEntered(TournamentEvent):
    """Registry team ``team_id`` entered as team ``number``: its names as they read then, its
    ``players`` (entrant numbers, registered just before) in board order and ``reserves``."""

    type: ClassVar[str] = "team_entered"
    number: int
    team_id: str
    name: str
    name_geez: str
    players: list
    reserves: list = field(default_factory=list)


@dataclass(frozen=True)
class LineupSubmitted(TournamentEvent):
    """Team ``team``'s line-up for round ``round``, handed in before the round is paired:
    ``players`` one a board, board 1 first, entrant numbers of its board players and reserves
    in the team's order, null for a board left empty (the last boards). A later one for the
    same round replaces it (teams.py)."""

    type: ClassVar[str] = "lineup_submitted"
    round: int
    team: int
    players: list


@dataclass(frozen=True)
class TournamentFinished(TournamentEvent):
    """Its arbiter (or the admin) finished the tournament, every paired round having its
    results: from this event on its arbiters' rights have ended (finish.py)."""

    type: ClassVar[str] = "tournament_finished"
    principal: dict = field(default_factory=dict)  # who finished it: {"kind": "arbiter", "tournament_id": …}
    note: str | None = None


EVENT_TYPES: dict[str, type[TournamentEvent]] = {
    cls.type: cls
    for cls in (
        TournamentCreated,
        TiebreaksChosen,
        EntrantRegistered,
        PlayerWithdrew,
        PairingForbidden,
        AbsenceDeclared,
        AbsenceCancelled,
        PlayerCheckedIn,
        RoundPaired,
        BoardResultRecorded,
        EntrantLinked,
        BroadcastSet,
        CorrectionRecorded,
        CategoriesSet,
        PrizesSet,
        *KNOCKOUT_EVENTS,
        TeamEntered,
        LineupSubmitted,
        TournamentFinished,
    )
}


def event_from_record(event_type: str, payload: dict) -> TournamentEvent:
    return EVENT_TYPES[event_type](**payload)

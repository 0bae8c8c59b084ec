"""Tournament events: frozen, past-tense facts, stored in the tournament's stream.

Pairings are stored as made (a later change to the pairing code never rewrites
history). Game results are NOT copied here: standings read them from the games.
Only a result decided without a game (a forfeit) is a tournament event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from recorder.core.events import Event


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
    rated: bool = False  # its finished games count in the registry's rating lists
    broadcast_delay: int = 0  # seconds a move waits before the public sees it (docs/tournaments.md)
    finished_public: bool = True  # a finished game is public at once, whatever the delay


@dataclass(frozen=True)
class TiebreaksChosen(TournamentEvent):
    """The organiser's order of tiebreaks, fixed before round 1 is paired."""

    type: ClassVar[str] = "tiebreaks_chosen"
    tiebreaks: list


@dataclass(frozen=True)
class PlayerRegistered(TournamentEvent):
    """A player entered; ``number`` is the starting number (registration order)."""

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
class RoundPaired(TournamentEvent):
    """A round's boards ``[{board, south, north}]`` and byes ``[{player, points}]``."""

    type: ClassVar[str] = "round_paired"
    round: int
    method: str  # berger, swiss or manual
    boards: list
    byes: list = field(default_factory=list)


@dataclass(frozen=True)
class BoardResultRecorded(TournamentEvent):
    """A result decided without a game on the board: a forfeit (or a double forfeit)."""

    type: ClassVar[str] = "board_result_recorded"
    round: int
    board: int
    result: str  # south_wins, north_wins, draw, double_forfeit
    reason: str = "forfeit"
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


EVENT_TYPES: dict[str, type[TournamentEvent]] = {
    cls.type: cls
    for cls in (
        TournamentCreated,
        TiebreaksChosen,
        PlayerRegistered,
        PlayerWithdrew,
        RoundPaired,
        BoardResultRecorded,
        EntrantLinked,
        BroadcastSet,
    )
}


def event_from_record(event_type: str, payload: dict) -> TournamentEvent:
    return EVENT_TYPES[event_type](**payload)

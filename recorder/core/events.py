"""Recorded events: frozen, past-tense facts (GEN-22..GEN-28).

Only sowings and the decisions nothing on the board determines are ever recorded;
everything else is derived by the fold. Each event maps to a stored ``type`` string and
a JSON payload; ``event_from_record`` turns a stored record back into an event.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from recorder.rules.values import HoleName, OpeningChoice, PlayerName, ResultKind


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""

    def payload(self) -> dict[str, Any]:
        """The stored payload. A clock reading (TIME-2) is written only when the event has
        one, so a record without clocks keeps its payloads, and its hashes, as before."""
        payload = asdict(self)
        if "clock" in payload and payload["clock"] is None:
            del payload["clock"]
        return payload


# TIME-2: each player's remaining time in milliseconds just after the event, or None.
Clock = dict[str, int]


@dataclass(frozen=True)
class GameCreated(Event):
    """GEN-23, GEN-42: the setup. ``position`` is a custom start in the §8 state shape."""

    type: ClassVar[str] = "game_created"
    variant: str
    options: dict[str, Any]
    south: str
    north: str
    first_player: PlayerName | None = None
    position: dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Sowed(Event):
    """GEN-21: the hole lifted, by the player to move."""

    type: ClassVar[str] = "sowed"
    hole: HoleName
    player: PlayerName
    clock: Clock | None = None


@dataclass(frozen=True)
class RaceRecorded(Event):
    """GEN-24, GAB-2: the race's winner and the board after it."""

    type: ClassVar[str] = "race_recorded"
    winner: PlayerName
    holes: dict[str, int]
    clock: Clock | None = None


@dataclass(frozen=True)
class OpeningPlayed(Event):
    """GEN-25, TUZ-4: the first player's stylised opening."""

    type: ClassVar[str] = "opening_played"
    choice: OpeningChoice
    clock: Clock | None = None


@dataclass(frozen=True)
class LotDrawn(Event):
    """GEN-26: who receives the extra hole after a 2–2 count."""

    type: ClassVar[str] = "lot_drawn"
    winner: PlayerName
    clock: Clock | None = None


@dataclass(frozen=True)
class RoundStarted(Event):
    """GEN-27: the next round's first player and, optionally, its allocation of holes."""

    type: ClassVar[str] = "round_started"
    first_player: PlayerName
    allocation: dict[str, list[str]] | None = None
    clock: Clock | None = None


@dataclass(frozen=True)
class ResultRecorded(Event):
    """GEN-28: a result decided off the board."""

    type: ClassVar[str] = "result_recorded"
    kind: ResultKind
    winner: PlayerName | None
    note: str | None = None
    clock: Clock | None = None


@dataclass(frozen=True)
class MovesRetracted(Event):
    """A correction: the latest ``count`` effective moves are withdrawn, never erased."""

    type: ClassVar[str] = "moves_retracted"
    count: int
    reason: str


@dataclass(frozen=True)
class Annotated(Event):
    """A comment on the position as it stands."""

    type: ClassVar[str] = "annotated"
    text: str


@dataclass(frozen=True)
class ClocksPaused(Event):
    """The arbiter stopped both clocks; ``clock`` is their reading when stopped. Not a rule:
    like an annotation it changes nothing in the position (docs/notation.md, "Clocks")."""

    type: ClassVar[str] = "clocks_paused"
    clock: Clock


@dataclass(frozen=True)
class ClocksResumed(Event):
    """The arbiter started the clocks again, with their reading then if it changed."""

    type: ClassVar[str] = "clocks_resumed"
    clock: Clock | None = None


@dataclass(frozen=True)
class ResultConfirmed(Event):
    """A player confirmed the game's record as it stands with his own sign-in: ``upto`` is
    the seq of its last effective move, so a later correction leaves it standing for the
    record it confirmed only."""

    type: ClassVar[str] = "result_confirmed"
    side: PlayerName
    player: int  # his starting number in the tournament
    upto: int


@dataclass(frozen=True)
class ResultDisputed(Event):
    """A player disputed the record instead of confirming it: the moves (their seqs) and/or
    the result he disputes and why. ``appeal_of``: the decision he appeals to the committee."""

    type: ClassVar[str] = "result_disputed"
    side: PlayerName
    player: int
    moves: list[int]
    result: bool
    reason: str
    upto: int
    appeal_of: int | None = None


@dataclass(frozen=True)
class DisputeDecided(Event):
    """The arbiter's (or, on an appeal, the committee's) decision on a dispute: ``upheld``
    with the record unchanged, or ``corrected`` by the correction events recorded since."""

    type: ClassVar[str] = "dispute_decided"
    dispute: int  # the dispute's seq
    outcome: str  # DECISION_OUTCOMES
    by: str  # "arbiter", or "committee" on an appeal
    reason: str


DECISION_OUTCOMES = ("upheld", "corrected")

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        GameCreated,
        Sowed,
        RaceRecorded,
        OpeningPlayed,
        LotDrawn,
        RoundStarted,
        ResultRecorded,
        MovesRetracted,
        Annotated,
        ClocksPaused,
        ClocksResumed,
        ResultConfirmed,
        ResultDisputed,
        DisputeDecided,
    )
}

# The players' word on the record and the decisions on it: recorded, no move and no rule.
SIGNOFF_TYPES = frozenset((ResultConfirmed.type, ResultDisputed.type, DisputeDecided.type))

# The arbiter's stopping and starting of the clocks: recorded, but no move and no rule.
CLOCK_STOP_TYPES = frozenset((ClocksPaused.type, ClocksResumed.type))

# The events that change the board or the course of the game: what a retraction undoes.
MOVE_TYPES = frozenset(cls.type for cls in (Sowed, RaceRecorded, OpeningPlayed, LotDrawn, RoundStarted, ResultRecorded))


def setup_of(event: Event) -> GameCreated:
    """A game's first event, which is always its setup (GEN-23)."""
    if not isinstance(event, GameCreated):
        raise TypeError(f"a game starts with its setup, not {event.type}")
    return event


class NullReading(TypeError):
    """A stored payload with ``clock: null``: not an event's payload, like an unknown field,
    but one whose refusal can say why."""


def event_from_record(event_type: str, payload: dict[str, Any]) -> Event:
    if event_type == Sowed.type and len(payload) == 2:  # most of a record: the sowing shared, if made before
        hole, player = payload.get("hole"), payload.get("player")
        if type(hole) is str and type(player) is str:
            shared = _SOWINGS.get((hole, player))
            if shared is not None:
                return shared
    if "clock" in payload and payload["clock"] is None:  # only an event with a reading stores one
        raise NullReading("clock: null is no clock reading (TIME-2)")
    return EVENT_TYPES[event_type](**payload)


def shared_sowing(hole: HoleName, player: PlayerName) -> Sowed:
    """``Sowed(hole=hole, player=player)``, one instance per pair. Events are frozen values,
    and re-deciding a record makes each of its sowings twice (read back from its payload,
    then decided again): shared, the two are one object, made once and compared at once.
    Only the rules' own hole names come here (``commands.sowing`` names the hole it
    decided), so it holds a few dozen pairs; ``event_from_record`` only looks them up."""
    key = (hole, player)
    event = _SOWINGS.get(key)
    if event is None:
        event = _SOWINGS[key] = Sowed(hole=hole, player=player)
    return event


_SOWINGS: dict[tuple[str, str], Sowed] = {}

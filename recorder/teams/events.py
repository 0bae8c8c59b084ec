"""Team events: frozen, past-tense facts, stored in the team's stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from recorder.core.events import Event


@dataclass(frozen=True)
class TeamRegistered(Event):
    """A new team: its names in both scripts, federation or region, club, and its roster:
    ``players`` (registry ids) in board order, board 1 first, then its ``reserves``."""

    type: ClassVar[str] = "team_registered"
    name: str
    name_geez: str
    federation: str
    players: list
    reserves: list
    club: str | None = None


@dataclass(frozen=True)
class RosterSet(Event):
    """The whole roster from now on, in board order, and the reserves."""

    type: ClassVar[str] = "roster_set"
    players: list
    reserves: list


EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in (TeamRegistered, RosterSet)}


def event_from_record(event_type: str, payload: dict[str, Any]) -> Event:
    cls = EVENT_TYPES.get(event_type)
    if cls is None:
        raise ValueError(f"unknown team event type {event_type!r}")
    return cls(**payload)

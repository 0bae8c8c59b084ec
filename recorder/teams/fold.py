"""The one fold of a team: its stored events -> a ``Team`` value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from recorder.core.events import Event

from .events import RosterSet, TeamRegistered


@dataclass(frozen=True)
class Team:
    team_id: str
    name: str
    name_geez: str
    federation: str
    players: tuple[str, ...]  # board order, board 1 first
    reserves: tuple[str, ...]
    club: str | None = None
    version: int = 0


def start(team_id: str, event: TeamRegistered) -> Team:
    return Team(
        team_id,
        event.name,
        event.name_geez,
        event.federation,
        tuple(event.players),
        tuple(event.reserves),
        event.club,
        version=1,
    )


def apply(team: Team, event: Event, seq: int) -> Team:
    if isinstance(event, RosterSet):
        return replace(team, players=tuple(event.players), reserves=tuple(event.reserves), version=seq)
    raise TypeError(f"unexpected team event {event!r}")


def replay(team_id: str, events: Iterable[tuple[int, Event]]) -> Team:
    """Fold a team's events in order, from its registration (seq 1)."""
    team = None
    for seq, event in events:
        if team is None:
            if not isinstance(event, TeamRegistered):
                raise ValueError("a team starts with its registration event")
            team = start(team_id, event)
        else:
            team = apply(team, event, seq)
    if team is None:
        raise ValueError("a team has at least its registration event")
    return team

"""The one fold of a player: his stored events -> a ``RegisteredPlayer`` value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .events import (
    AffiliationChanged,
    GameLinked,
    MergeWithdrawn,
    ParticularsChanged,
    PlayerEvent,
    PlayerMerged,
    PlayerRegistered,
    PlayerRenamed,
)


@dataclass(frozen=True)
class RegisteredPlayer:
    """A person in the registry, as his events fold (a side of the board is the rules' ``Player``)."""

    player_id: str
    name: str
    federation: str
    name_geez: str | None = None
    club: str | None = None
    birth_year: int | None = None
    external_id: str | None = None
    sex: str | None = None  # "m" or "w" (decide.SEXES); None: not known
    merged_into: str | None = None  # the survivor's id while this record is merged
    linked_games: tuple[tuple[str, str], ...] = ()  # (game id, side) of games linked after the fact
    version: int = 0

    @property
    def merged(self) -> bool:
        return self.merged_into is not None


def start(player_id: str, event: PlayerRegistered) -> RegisteredPlayer:
    return RegisteredPlayer(
        player_id=player_id,
        name=event.name,
        federation=event.federation,
        name_geez=event.name_geez,
        club=event.club,
        birth_year=event.birth_year,
        external_id=event.external_id,
        sex=event.sex,
        version=1,
    )


def apply(p: RegisteredPlayer, event: PlayerEvent, seq: int) -> RegisteredPlayer:
    """The reducer: the player after one more stored event."""
    if isinstance(event, PlayerRenamed):
        return replace(p, name=event.name, name_geez=event.name_geez, version=seq)
    if isinstance(event, AffiliationChanged):
        return replace(p, federation=event.federation, club=event.club, version=seq)
    if isinstance(event, ParticularsChanged):
        return replace(p, sex=event.sex, birth_year=event.birth_year, version=seq)
    if isinstance(event, PlayerMerged):
        return replace(p, merged_into=event.into, version=seq)
    if isinstance(event, MergeWithdrawn):
        return replace(p, merged_into=None, version=seq)
    if isinstance(event, GameLinked):
        return replace(p, linked_games=p.linked_games + ((event.game_id, event.side),), version=seq)
    raise TypeError(f"unexpected player event {event!r}")


def replay(player_id: str, events: Iterable[tuple[int, PlayerEvent]]) -> RegisteredPlayer:
    """Fold a player's events in order, from his registration (seq 1)."""
    p = None
    for seq, event in events:
        if p is None:
            if not isinstance(event, PlayerRegistered):
                raise ValueError("a player starts with his registration")
            p = start(player_id, event)
        else:
            p = apply(p, event, seq)
    if p is None:
        raise ValueError("a player needs his registration event")
    return p

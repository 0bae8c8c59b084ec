"""Player events: frozen, past-tense facts, stored in the player's stream."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from recorder.core.events import Event


@dataclass(frozen=True)
class PlayerEvent(Event):
    """A fact of a player's stream; the same shape as a game's events.

    ``principal``: who made it, beyond the holder name the store records: ``{"kind":
    "admin"}`` or ``{"kind": "arbiter", "tournament_id": …}`` (the arbiter's one
    tournament, which decides his later rights over the record: recorder/auth/policy.py).
    Absent from events stored before it was kept, and from the command line's."""

    principal: dict | None = field(default=None, kw_only=True)

    def payload(self) -> dict[str, Any]:
        body = super().payload()
        if body["principal"] is None:
            del body["principal"]
        return body


@dataclass(frozen=True)
class PlayerRegistered(PlayerEvent):
    """A new record: the names, the affiliation, and what identifies the person."""

    type: ClassVar[str] = "player_registered"
    name: str
    federation: str
    name_geez: str | None = None
    club: str | None = None
    birth_year: int | None = None
    external_id: str | None = None
    sex: str | None = None  # "m" or "w", as FIDE's TRF; left out of the payload when unknown

    def payload(self) -> dict[str, Any]:
        body = super().payload()
        if body["sex"] is None:
            del body["sex"]
        return body


@dataclass(frozen=True)
class PlayerRenamed(PlayerEvent):
    """The names fixed (a misspelling, a name changed): both are given, as they now read."""

    type: ClassVar[str] = "player_renamed"
    name: str
    name_geez: str | None = None


@dataclass(frozen=True)
class AffiliationChanged(PlayerEvent):
    """Another federation or club, from this event on."""

    type: ClassVar[str] = "affiliation_changed"
    federation: str
    club: str | None = None


@dataclass(frozen=True)
class ParticularsChanged(PlayerEvent):
    """The sex and birth year as they now read (a correction, or what was not known)."""

    type: ClassVar[str] = "particulars_changed"
    sex: str | None = None
    birth_year: int | None = None


@dataclass(frozen=True)
class PlayerMerged(PlayerEvent):
    """This record is a duplicate of ``into``'s: from now on this id answers with it."""

    type: ClassVar[str] = "player_merged"
    into: str
    reason: str | None = None


@dataclass(frozen=True)
class MergeWithdrawn(PlayerEvent):
    """A wrong merge undone: this record stands on its own again."""

    type: ClassVar[str] = "merge_withdrawn"
    reason: str | None = None


@dataclass(frozen=True)
class GameLinked(PlayerEvent):
    """A game outside tournaments recorded before the registry: its ``side`` is this player
    (the game's own events are never touched: ``recorder players link``)."""

    type: ClassVar[str] = "game_linked"
    game_id: str
    side: str


EVENT_TYPES: dict[str, type[PlayerEvent]] = {
    cls.type: cls
    for cls in (
        PlayerRegistered,
        PlayerRenamed,
        AffiliationChanged,
        PlayerMerged,
        MergeWithdrawn,
        GameLinked,
        ParticularsChanged,
    )
}


def event_from_record(event_type: str, payload: dict) -> PlayerEvent:
    return EVENT_TYPES[event_type](**payload)

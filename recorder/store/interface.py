"""The event store's interface: the values it takes and gives, and the guarantees.

``EventStore`` holds no SQL, so a PostgreSQL backend can be added beside the SQLite one
without touching the rules or the API (see docs/deployment.md).
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from recorder.core import chain
from recorder.errors import ChainBroken

# Columns a caller may set in the games projection. created_at/updated_at are
# kept by the store; metadata is a JSON object stored as text.
SUMMARY_COLUMNS = (
    "variant",
    "south",
    "north",
    "event",
    "site",
    "date",
    "round",
    "tournament_id",
    "board",
    "status",
    "result",
    "metadata",
)


@dataclass(frozen=True)
class NewEvent:
    """An event the caller wants appended; the store assigns seq, time and hashes."""

    type: str
    payload: dict


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored. ``payload`` is the JSON round-tripped dict that was hashed."""

    game_id: str
    seq: int
    type: str
    payload: dict
    recorded_at: str
    recorded_by: str | None
    prev_hash: str
    hash: str

    def to_dict(self) -> dict:
        """A JSON-ready dict (a deep copy, so callers cannot alter the event)."""
        # Built by hand: dataclasses.asdict deep-copies through copy.deepcopy, which
        # was the costliest step of an append's response (issue 10).
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "type": self.type,
            "payload": _json_copy(self.payload),
            "recorded_at": self.recorded_at,
            "recorded_by": self.recorded_by,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


def _json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists and immutable scalars)."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


@dataclass(frozen=True)
class Idempotency:
    """An Idempotency-Key and the caller's fingerprint of method + path + body."""

    key: str
    fingerprint: str


@dataclass(frozen=True)
class AppendResult:
    """The appended events; ``replayed`` means a retry got the original events back."""

    events: tuple[StoredEvent, ...]
    replayed: bool


class EventStore(abc.ABC):
    """What every backend implements. No SQL here: backends differ, callers do not."""

    @abc.abstractmethod
    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        recorded_by: str | None = None,
        idempotency: Idempotency | None = None,
        summary: dict | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically after exactly ``expected_version`` events.

        Raises VersionConflict if the stream holds another number of events,
        IdempotencyMismatch if ``idempotency.key`` was used for a different
        request. ``summary`` columns are upserted into the game's projection row
        in the same transaction.
        """

    @abc.abstractmethod
    def replayed(self, game_id: str | None, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        """The events an earlier request with this key stored, None for a new key;
        IdempotencyMismatch when the key was used for a different request."""

    @abc.abstractmethod
    def read(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """Events with ``after < seq <= upto`` in seq order ([] for an unknown game)."""

    @abc.abstractmethod
    def version(self, game_id: str) -> int:
        """Number of events in the stream (its last seq); 0 if there are none."""

    @abc.abstractmethod
    def exists(self, game_id: str) -> bool:
        """True once the game has at least one event."""

    @abc.abstractmethod
    def list_games(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[dict]:
        """Projection rows, newest first; ``player`` matches south or north exactly."""

    @abc.abstractmethod
    def iter_game_ids(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        batch_size: int = 500,
        date_from: str | None = None,
        date_to: str | None = None,
        result: str | None = None,
        oldest_first: bool = False,
    ) -> Iterator[str]:
        """Game ids in list_games order, fetched in batches so memory stays flat.

        ``date_from``/``date_to`` bound the game's ``date`` (compared as text, so ISO
        dates sort; a game without a date never matches); ``result`` is a projection
        result (``south_wins``, ``north_wins``, ``draw``) or ``unfinished``;
        ``oldest_first`` reverses the order (archives list games as they were recorded)."""

    @abc.abstractmethod
    def append_verbatim(
        self, game_id: str, expected_version: int, events: Sequence[StoredEvent], *, summary: dict | None = None
    ) -> tuple[StoredEvent, ...]:
        """Append already-hashed events (an archive's) exactly as given: seq, time,
        recorder and hashes kept. All-or-nothing, after checking that they are this
        game's next events and extend its hash chain: ChainBroken if not,
        VersionConflict if the stream does not hold ``expected_version`` events."""

    def event_lines(self, game_id: str) -> list[str]:
        """Each stored event as one line of canonical JSON, exactly
        ``chain.canonical_json(event.to_dict())`` (NDJSON archives). Backends may render
        it without decoding payloads, which are stored canonical."""
        return [chain.canonical_json(event.to_dict()) for event in self.read(game_id)]

    @abc.abstractmethod
    def update_summary(self, game_id: str, fields: dict) -> None:
        """Upsert projection columns (e.g. status, result); UnknownGame if no events."""

    # Tournaments and who may write to them (recorder/tournaments). A tournament is an
    # ordinary stream whose id starts with "t-"; tokens are access records, not events.

    @abc.abstractmethod
    def list_streams(self, prefix: str, *, limit: int = 100, offset: int = 0) -> list[StoredEvent]:
        """The first event of every stream whose id starts with ``prefix``, newest first."""

    def stream_ids(self) -> Iterator[str]:
        """Every stream id in the events table, games and tournaments alike."""
        raise NotImplementedError

    # Tokens (recorder/auth): access records beside the events, never events themselves.

    @abc.abstractmethod
    def add_token(
        self, token_id: str, token_hash: str, kind: str, holder: str, tournament_id: str | None = None
    ) -> dict:
        """Store a token's digest (never the token itself); returns its row."""

    @abc.abstractmethod
    def find_token(self, token_hash: str) -> dict | None:
        """The row of the token with this digest, revoked or not; None if unknown."""

    @abc.abstractmethod
    def list_tokens(self, *, kind: str | None = None, tournament_id: str | None = None) -> list[dict]:
        """Token rows, oldest first, of one kind and/or tournament (digests are never returned)."""

    @abc.abstractmethod
    def revoke_token(self, token_id: str, *, tournament_id: str | None = None) -> dict | None:
        """Mark a token revoked (a second revocation changes nothing); None if unknown."""

    @abc.abstractmethod
    def admin_digest(self) -> str | None:
        """The digest of the first-run admin token, if one was created."""

    @abc.abstractmethod
    def set_admin_digest(self, digest: str) -> None:
        """Keep (or replace) the first-run admin token's digest."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release every connection the store opened."""

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def utc_now() -> str:
    """UTC ISO-8601 with microseconds and 'Z': sorts as text, parses everywhere."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _check_append(game_id: str, expected_version: int, events: Sequence[NewEvent | StoredEvent]) -> None:
    """Reject malformed calls before any lock is taken."""
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("game_id must be a non-empty string")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TypeError("expected_version must be an int")
    if not events:
        raise ValueError("append needs at least one event")
    for event in events:
        if not isinstance(event.type, str) or not event.type:
            raise ValueError("event type must be a non-empty string")
        if not isinstance(event.payload, dict):
            raise TypeError("event payload must be a dict")


def _summary_row(fields: dict) -> dict:
    """Validate projection columns (names go into SQL, so only known ones) and encode metadata."""
    if not isinstance(fields, dict):
        raise TypeError("summary must be a dict")
    unknown = sorted(set(fields) - set(SUMMARY_COLUMNS))
    if unknown:
        raise ValueError(f"unknown summary columns: {', '.join(map(str, unknown))}")
    row = dict(fields)
    if row.get("metadata") is not None:
        row["metadata"] = chain.canonical_json(row["metadata"])
    return row


def _verify_next_events(game_id: str, head: tuple[int, str], events: Sequence[StoredEvent]) -> None:
    """ChainBroken unless ``events`` are exactly this game's next links after ``head``."""
    seq, prev_hash = head
    for event in events:
        if event.game_id != game_id:
            raise ChainBroken(f"event {event.seq} belongs to game {event.game_id!r}, not {game_id!r}", seq=event.seq)
        if event.seq != seq + 1 or event.prev_hash != prev_hash:
            raise ChainBroken(f"event {event.seq} does not follow event {seq} of the chain", seq=event.seq)
        if chain.event_hash(event.prev_hash, chain.record_of(event)) != event.hash:
            raise ChainBroken(f"event {event.seq}'s hash does not match its content", seq=event.seq)
        seq, prev_hash = event.seq, event.hash


def _check_page(**values: int) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int")

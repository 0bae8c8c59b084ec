"""The event store's interface: the values it takes and gives, and the guarantees.

``EventStore`` holds no SQL, so a PostgreSQL backend can be added beside the SQLite one
without touching the rules or the API (see docs/deployment.md).
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, Self, overload

from recorder.core import chain
from recorder.core.frozen import made_at_once
from recorder.errors import ChainBroken

from .tables import Schema

# Stream types: what a stream is, fixed by its first append.
GAME, TOURNAMENT, PLAYER, TEAM = "game", "tournament", "player", "team"
STREAM_TYPES = (GAME, TOURNAMENT, PLAYER, TEAM)

# What a projection beside the store writes in the same transaction as an append (e.g.
# the games list's row): it gets the append's transaction handle and the stored events.
ProjectionWrite = Callable[["Tx", "Sequence[StoredEvent]"], None]


@dataclass(frozen=True)
class StreamText:
    """A stream's stored lines joined by newlines (no newline after the last), and how many."""

    stream_id: str
    events: int
    text: str


@dataclass(frozen=True)
class NewEvent:
    """An event the caller wants appended; the store assigns seq, time and hashes."""

    type: str
    payload: dict


@dataclass(frozen=True)
class StreamHead:
    """A stream of the streams table: its type, its recorded head (None: none recorded) and
    its events' last seq and hash (None: the events table holds none of its events)."""

    stream_id: str
    stream_type: str
    head_seq: int | None
    head_hash: str | None
    last_seq: int | None
    last_hash: str | None

    @property
    def agrees(self) -> bool:
        return self.last_seq is not None and (self.head_seq, self.head_hash) == (self.last_seq, self.last_hash)


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored. ``payload`` is the JSON round-tripped dict that was hashed.

    Its fields are its stored line's members, by the names the line, the events table and
    the hash chain keep (an event is made of its line's dict: ``of_fields``); ``game_id``
    is one of them, though it holds the id of any stream, a game's, a tournament's, a
    player's or a team's. Read it as ``stream_id``."""

    game_id: str  # the stored name of the stream's id: read stream_id
    seq: int
    type: str
    payload: dict
    recorded_at: str
    recorded_by: str | None
    prev_hash: str
    hash: str

    @classmethod
    def of_fields(cls, fields: dict[str, Any]) -> StoredEvent:
        """``StoredEvent(**fields)`` for a dict that holds exactly the eight fields, each of
        its type (an archive's line the reader checked, a row read from the store), made
        with its fields set at once (``core.frozen``), the dict kept as the event's own."""
        return made_at_once(cls, fields)

    @property
    def stream_id(self) -> str:
        """The id of the stream the event belongs to (a game, a tournament, a player, a team)."""
        return self.game_id

    def to_dict(self) -> dict:
        """A JSON-ready dict (a deep copy, so callers cannot alter the event)."""
        # Built by hand: dataclasses.asdict deep-copies through copy.deepcopy, which
        # was the costliest step of an append's response.
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


class CheckedChain(Sequence[StoredEvent]):
    """One stream's ``StoredEvent``s from its first (seq 1, after GENESIS) whose every hash
    was checked (``chain.checked_links``), held as the rows the events table stores
    (``event_row``: the columns, each payload's canonical text and the event's stored line).

    A backend may insert the rows into an empty stream as they are, without hashing them
    again or building a line; to any other backend, and to any reader, the chain is a
    sequence of StoredEvents, each made from its row when asked for, checked as always.
    The events' fields and links (one stream, seq 1, 2, 3…, each ``prev_hash`` the hash
    before it, GENESIS first) are checked when the chain is made, where an import makes
    it, before it waits for the write lock: the store's door then checks only that the
    stream is the one appended to, and empty (``_verify_next_events``)."""

    __slots__ = ("_rows",)
    _rows: tuple[tuple[Any, ...], ...]

    def __init__(self, events: Sequence[StoredEvent], texts: Sequence[str], lines: Sequence[str | None] = ()):
        if len(texts) != len(events) or (lines and len(lines) != len(events)):
            raise ValueError("a checked chain has one payload text (and stored line, if any) per event")
        rows = []
        for event, text, line in zip(
            events, texts, lines or [None] * len(events)
        ):  # _check_events' checks, in one pass
            if not isinstance(event, StoredEvent):
                raise TypeError("a checked chain holds StoredEvents")
            if not isinstance(event.type, str) or not event.type:
                raise ValueError("event type must be a non-empty string")
            if not isinstance(event.payload, dict):
                raise TypeError("event payload must be a dict")
            rows.append(event_row(event, text, line))
        self._rows = tuple(rows)
        _check_links(self.links())

    @property
    def rows(self) -> tuple[tuple[Any, ...], ...]:
        """The rows the events table stores, as the chain was made (read only)."""
        return self._rows

    @property
    def stream_id(self) -> str | None:
        """The stream the chain's events belong to (None for a chain of no event)."""
        return self._rows[0][0] if self._rows else None

    @property
    def texts(self) -> tuple[str, ...]:
        """Each payload's canonical text, the bytes its hash covers."""
        return tuple(row[3] for row in self._rows)

    def links(self) -> Iterator[tuple[str, int, str, str]]:
        """Each event's (stream id, seq, prev_hash, hash), read from its row."""
        return ((row[0], row[1], row[6], row[7]) for row in self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> StoredEvent: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[StoredEvent, ...]: ...

    def __getitem__(self, index: int | slice) -> StoredEvent | tuple[StoredEvent, ...]:
        if isinstance(index, slice):
            return tuple(event_of_row(row) for row in self._rows[index])
        return event_of_row(self._rows[index])

    def __iter__(self) -> Iterator[StoredEvent]:
        return (event_of_row(row) for row in self._rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CheckedChain) and other._rows == self._rows

    __hash__ = None  # type: ignore[assignment]


def event_row(event: StoredEvent, payload_text: str, line: str | None = None) -> tuple[Any, ...]:
    """An event's row as both SQL backends insert it: its columns (``sql._EVENT_COLUMNS``,
    the payload as its canonical text), then its stored line: ``line``, when the caller
    has it, the store's own spelling of this event with this very payload text (an
    archive's sowing, ``archive.ndjson.canonical_sowing``), else built here."""
    if line is None:
        line = stored_line(event, payload_text)
    return (
        event.stream_id,
        event.seq,
        event.type,
        payload_text,
        event.recorded_at,
        event.recorded_by,
        event.prev_hash,
        event.hash,
        line,
    )


def event_rows(events: Sequence[StoredEvent], texts: Sequence[str]) -> Sequence[tuple[Any, ...]]:
    """The rows of chained events: a checked chain's own, or each event's made now."""
    if isinstance(events, CheckedChain):
        return events.rows
    return [event_row(event, text) for event, text in zip(events, texts)]


def event_of_row(row: Sequence[Any]) -> StoredEvent:
    """The event of a row as the events table holds it (``event_row``'s columns, the
    payload as its canonical text; anything after them is ignored)."""
    game_id, seq, type_, text, recorded_at, recorded_by, prev_hash, hash_ = row[:8]
    return StoredEvent.of_fields(
        {
            "game_id": game_id,
            "seq": seq,
            "type": type_,
            "payload": chain.parse_json(text),
            "recorded_at": recorded_at,
            "recorded_by": recorded_by,
            "prev_hash": prev_hash,
            "hash": hash_,
        }
    )


class StoredEvents(list[StoredEvent]):
    """Events as read from a store, in seq order, with each payload's text as stored
    (``texts``: canonical JSON, the very bytes its hash covers), so a chain check hashes
    them without encoding the payloads again (``chain.first_broken_link``)."""

    texts: list[str]

    def __init__(self, rows: Iterable[Sequence[Any]] = ()):
        rows = list(rows)
        super().__init__(event_of_row(row) for row in rows)
        self.texts = [row[3] for row in rows]


def stored_line(event: StoredEvent, payload_text: str) -> str:
    """The event's stored line, as an NDJSON archive writes it: ``chain.event_text`` of it,
    linked, built around the payload's canonical text."""
    return chain.event_text(event, payload_text, linked=True)


@dataclass(frozen=True)
class Idempotency:
    """An Idempotency-Key and the caller's fingerprint of method + path + body."""

    key: str
    fingerprint: str


@dataclass(frozen=True)
class AppendResult:
    """The appended events; ``replayed`` means a retry got the original events back."""

    events: Sequence[StoredEvent]  # a tuple, or the CheckedChain an archive appended
    replayed: bool


class EventStore(abc.ABC):
    """What every backend implements: append and read, with versions and idempotency.

    Six verbs: ``append``, ``replayed``, ``read``, ``version``, ``stream_type``, ``close``.
    Streams have a type (``game``, ``tournament`` or ``player``, recorder/store/schema.py)
    fixed by their first append. Bulk reading, listing and syncing are ``BulkStore``'s; lists,
    notation and position caches are projections beside the store (recorder/games/games_list.py,
    caches.py), rebuilt from the events; access tokens are records beside it
    (recorder/auth/token_table.py), never events.
    """

    path: str  # where the store is, as ``backends.open_store`` opens it again: a SQLite file or a PostgreSQL URL

    @abc.abstractmethod
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent] | Sequence[StoredEvent],
        *,
        stream_type: str = GAME,
        recorded_by: str | None = None,
        idempotency: Idempotency | None = None,
        projection: ProjectionWrite | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically after exactly ``expected_version`` events.

        ``NewEvent``s are numbered, timed and hashed by the store. ``StoredEvent``s (an
        archive's) are stored exactly as given, seq, time, recorder and hashes kept,
        after checking they are this stream's next links (ChainBroken if not).
        Raises VersionConflict if the stream holds another number of events,
        IdempotencyMismatch if ``idempotency.key`` was used for a different request,
        UnknownGame if the stream exists with another type. ``projection`` runs in the
        same transaction, so a projection row never disagrees with committed events.
        """

    @abc.abstractmethod
    def replayed(self, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        """The events an earlier request with this key stored (in whichever stream), None for a new key;
        IdempotencyMismatch when the key was used for a different request."""

    @abc.abstractmethod
    def read(self, stream_id: str, *, after: int = 0, upto: int | None = None) -> StoredEvents:
        """Events with ``after < seq <= upto`` in seq order ([] for an unknown stream), with
        their payloads' texts as stored."""

    @abc.abstractmethod
    def version(self, stream_id: str, *, at: str | None = None) -> int:
        """Number of events in the stream (its last seq); 0 if there are none. With ``at``
        (a time as the store writes it), the number recorded at or before it (a
        tournament's broadcast delay)."""

    @abc.abstractmethod
    def stream_type(self, stream_id: str) -> str | None:
        """``game``, ``tournament`` or ``player``; None for a stream with no events."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release every connection the store opened."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class BulkStore(abc.ABC):
    """What archives, verification and listings need of a backend beyond ``EventStore``:
    streams listed and read in bulk, their stored lines, their recorded heads, and appends
    batched and synced."""

    @abc.abstractmethod
    def first_events(self, stream_type: str, *, limit: int = 100, offset: int = 0) -> list[StoredEvent]:
        """The first event of every stream of this type, newest first."""

    @abc.abstractmethod
    def stream_ids(self, stream_type: str, *, after: str | None = None, limit: int = 1000) -> list[str]:
        """Ids of the streams of this type in id order, ``limit`` at a time after ``after``
        (rebuilds and verification walk every stream with it, memory flat)."""

    @abc.abstractmethod
    def event_lines(self, stream_id: str) -> list[str]:
        """Each stored event as one line of canonical JSON, exactly
        ``chain.event_text(event, linked=True)`` (NDJSON archives). Backends keep the lines
        stored, so an export decodes nothing."""

    @abc.abstractmethod
    def event_texts(self, stream_ids: Iterable[str]) -> Iterator[StreamText]:
        """Each stream's ``event_lines`` joined by newlines, in the order the ids come,
        streams without events left out: what an NDJSON export writes, a stream at a time
        (SQL backends read a batch of streams per query, joined by the database)."""

    @abc.abstractmethod
    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Appends inside may share one transaction (bulk imports); each stays all-or-nothing.
        A backend may commit a batch without waiting for the disk: ``sync`` then makes every
        batch committed so far durable."""

    def sync(self) -> None:
        """Every batch committed so far made durable (a backend whose every commit is: nothing to do)."""
        return None

    @abc.abstractmethod
    def ids_in_events(self) -> Iterator[str]:
        """Every stream id in the events table itself, games and tournaments alike (what
        verification walks: no table beside the events can hide a stream from it)."""

    @abc.abstractmethod
    def stream_heads(self, stream_id: str | None = None) -> list[StreamHead]:
        """Each stream of the streams table (or the one named) whose recorded head (the
        seq and hash of its last event, written with every append) is not its events'
        last, with both; a stream named that is in the streams table comes back whatever
        its head. What ``recorder verify`` holds against the events (docs/security.md)."""

    @abc.abstractmethod
    def stream_count(self) -> int:
        """How many streams the streams table names."""

    def read_ahead(self) -> bool:
        """Ask for the whole store to be read into memory ahead of a walk over every
        stream (``recorder verify``), if the backend can; whether it asked. A hint:
        nothing waits for it. A server backend keeps its own cache: nothing to ask."""
        return False

    @abc.abstractmethod
    def read_streams(self, batch: int = 500) -> Iterator[tuple[str, list[StoredEvent]]]:
        """Every stream in the events table with its events, in id order (what ``recorder
        verify`` walks); SQL backends read a batch of streams per query."""

    @abc.abstractmethod
    def read_stream_range(self, after: str, last: str) -> Iterator[tuple[str, list[StoredEvent]]]:
        """The streams in the events table with ``after < id <= last`` and their events,
        in id order: a contiguous part of ``read_streams`` (what each worker of ``recorder
        verify --jobs`` reads); SQL backends read the range in one query."""


class Cursor(Protocol):
    """What a statement gives back: its rows, their columns, how many rows a write changed."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Tx(Protocol):
    """A backend's handle on its tables: statements in SQL both backends accept (upserts as
    ``ON CONFLICT``, ``IS NOT DISTINCT FROM``), parameters marked ``?`` (the PostgreSQL
    handle turns them into its paramstyle's ``%s``): what the tables beside the events read
    and write with, and what a projection write gets inside an append's transaction."""

    def execute(self, sql: str, params: Any = None, /) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...


class Tables(abc.ABC):
    """The tables beside the events (each feature's: the games list, caches, registry,
    tokens), created from the schema a feature hands over (``ensure``) and reached through
    this thread's typed handle."""

    @abc.abstractmethod
    def handle(self) -> Tx:
        """This thread's handle: for reads, and for writes inside ``transaction``."""

    @abc.abstractmethod
    def transaction(self) -> contextlib.AbstractContextManager[Tx]:
        """A write transaction on this thread's handle, which it yields: committed at its
        end, rolled back on any exception (inside a ``batch``, a savepoint)."""

    @abc.abstractmethod
    def ensure(self, schema: Schema) -> None:
        """A feature's tables (``tables.Schema``) created where missing, from their
        descriptions, an older SQLite file's data brought up to date with them; once per
        store and schema (later calls return at once). On PostgreSQL a database whose
        tables are whole is only read (an application role may not create)."""

    def release_connection(self) -> None:
        """Let go of the connection this thread holds, if any (the next call opens or takes
        one again). A live stream calls it before it waits for minutes: under an
        event-driven server each stream is a greenlet, so a connection kept per "thread"
        would be one per open stream. A backend that keeps none has nothing to do."""
        return None


class StoreBackend(EventStore, BulkStore, Tables):
    """A backend: the event store, its bulk side and its tables (``backends.open_store`` opens one)."""

    # The protective triggers (immutable events, heads moving forward) found taken away,
    # and created again, when this store opened: ``recorder verify`` names them.
    protections_restored: tuple[str, ...] = ()

    @abc.abstractmethod
    def missing_protections(self) -> list[str]:
        """What the protective triggers lack now, one line each; empty when they are whole."""


def every_stream_id(store: BulkStore, stream_type: str, page: int = 1000) -> Iterator[str]:
    """Every stream id of a type in id order, read a page at a time (memory stays flat)."""
    after = None
    while batch := store.stream_ids(stream_type, after=after, limit=page):
        yield from batch
        after = batch[-1]


def utc_now() -> str:
    """UTC ISO-8601 with microseconds and 'Z': sorts as text, parses everywhere."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _check_append(
    game_id: str, expected_version: int, events: Sequence[NewEvent] | Sequence[StoredEvent], stream_type: str = GAME
) -> None:
    """Reject malformed calls before any lock is taken."""
    if stream_type not in STREAM_TYPES:
        raise ValueError(f"stream_type must be one of {', '.join(STREAM_TYPES)}")
    if not isinstance(game_id, str) or not game_id:
        raise ValueError("game_id must be a non-empty string")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TypeError("expected_version must be an int")
    if not events:
        raise ValueError("append needs at least one event")
    if not isinstance(events, CheckedChain):  # a checked chain's events were checked when it was made
        _check_events(events)


def _check_events(events: Sequence[NewEvent] | Sequence[StoredEvent]) -> None:
    """An append's events are all NewEvents or all StoredEvents, each with a type and a dict payload."""
    if not (all(isinstance(e, NewEvent) for e in events) or all(isinstance(e, StoredEvent) for e in events)):
        raise TypeError("append takes NewEvents or StoredEvents, not a mixture")
    for event in events:
        if not isinstance(event.type, str) or not event.type:
            raise ValueError("event type must be a non-empty string")
        if not isinstance(event.payload, dict):
            raise TypeError("event payload must be a dict")


def _verify_next_events(
    game_id: str, head: tuple[int, str], events: Sequence[StoredEvent], texts: Sequence[str] | None = None
) -> None:
    """ChainBroken unless ``events`` are exactly this game's next links after ``head``.
    A ``CheckedChain`` checked its hashes and links when it was made, from GENESIS: it is
    this game's next links when it is this game's chain and the game has no event yet."""
    if isinstance(events, CheckedChain):
        if events.stream_id != game_id:
            raise ChainBroken(f"event 1 belongs to game {events.stream_id!r}, not {game_id!r}", seq=1)
        if head != chain.START:
            raise ChainBroken(f"event 1 does not follow event {head[0]} of the chain", seq=1)
        return
    for index, event in enumerate(events):
        number, digest = event.seq, event.hash
        if event.stream_id != game_id:
            raise ChainBroken(f"event {number} belongs to game {event.stream_id!r}, not {game_id!r}", seq=number)
        if not chain.follows(head, number, event.prev_hash):
            raise ChainBroken(f"event {number} does not follow event {head[0]} of the chain", seq=number)
        if chain.stored_hash(event, texts[index] if texts is not None else None) != digest:
            raise ChainBroken(f"event {number}'s hash does not match its content", seq=number)
        head = (number, digest)


def _check_links(links: Iterable[tuple[str, int, str, str]]) -> None:
    """ChainBroken unless the links (stream id, seq, prev_hash, hash) are one stream's
    events from its first: seq 1, 2, 3…, each ``prev_hash`` the hash before it, GENESIS first."""
    first: str | None = None
    head = chain.START
    for stream_id, number, previous, digest in links:
        first = stream_id if first is None else first
        if stream_id != first:
            raise ChainBroken(f"event {number} belongs to game {stream_id!r}, not {first!r}", seq=number)
        if not chain.follows(head, number, previous):
            raise ChainBroken(f"event {number} does not follow event {head[0]} of the chain", seq=number)
        head = (number, digest)


def _check_page(**values: int) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int")

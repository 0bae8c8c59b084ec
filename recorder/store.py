"""The event store: every move of every game is an immutable, hash-chained event.

``EventStore`` is the small interface the rest of the service talks to; it holds
no SQL so a PostgreSQL backend can be added beside ``SQLiteEventStore``.

Guarantees every backend gives:
- per game, sequence numbers are 1, 2, 3... with no gaps and no forks: an append
  names the version it expects and is refused (VersionConflict) when it is stale;
- an append is all-or-nothing, including its idempotency key and games summary;
- an idempotent retry returns the originally stored events and stores nothing;
- each event links to the previous one by hash (see recorder.chain).

The ``games`` table is a projection derived from the events (listing and
filtering); it can be rebuilt, the events cannot.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterator, Sequence

from sqlite_utils import Database

from recorder import chain
from recorder.writer_lock import writer_lock_for
from recorder.errors import ChainBroken, IdempotencyMismatch, UnknownGame, VersionConflict

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
    def replayed(self, game_id: str, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
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

    @abc.abstractmethod
    def add_token(self, token_id: str, token_hash: str, tournament_id: str, holder: str) -> dict:
        """Store a token's digest (never the token itself); returns its row."""

    @abc.abstractmethod
    def find_token(self, token_hash: str) -> dict | None:
        """The row of the token with this digest, revoked or not; None if unknown."""

    @abc.abstractmethod
    def list_tokens(self, tournament_id: str) -> list[dict]:
        """A tournament's token rows, oldest first (digests are never returned)."""

    @abc.abstractmethod
    def revoke_token(self, tournament_id: str, token_id: str) -> dict | None:
        """Mark a token revoked (a second revocation changes nothing); None if unknown."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release every connection the store opened."""

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# --------------------------------------------------------------------------- helpers


def utc_now() -> str:
    """UTC ISO-8601 with microseconds and 'Z': sorts as text, parses everywhere."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _check_append(game_id: str, expected_version: int, events: Sequence[NewEvent]) -> None:
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


def _game_filters(
    variant: str | None, player: str | None, tournament: str | None, **archive_filters: str | None
) -> tuple[list[str], list]:
    """WHERE clauses and parameters shared by list_games and iter_game_ids."""
    clauses, params = _archive_filters(**archive_filters)
    if variant is not None:
        clauses.append("variant = ?")
        params.append(variant)
    if player is not None:
        clauses.append("(south = ? OR north = ?)")
        params += [player, player]
    if tournament is not None:
        clauses.append("tournament_id = ?")
        params.append(tournament)
    return clauses, params


def _archive_filters(
    date_from: str | None = None, date_to: str | None = None, result: str | None = None
) -> tuple[list[str], list]:
    """The export filters (recorder/archive.py): a date range and a result."""
    clauses: list[str] = []
    params: list = []
    for bound, operator in ((date_from, ">="), (date_to, "<=")):
        if bound is not None:
            clauses.append(f"date {operator} ?")
            params.append(bound)
    if result == "unfinished":
        clauses.append("result IS NULL")
    elif result is not None:
        clauses.append("result = ?")
        params.append(result)
    return clauses, params


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


def _where(clauses: list[str]) -> str:
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""


def _check_page(**values: int) -> None:
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int")


# --------------------------------------------------------------------------- SQLite

_TRIGGERS = f"""
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;

CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;

-- INSERT OR REPLACE deletes without firing DELETE triggers (recursive_triggers is
-- off on plain connections), so inserts must also extend the chain exactly.
CREATE TRIGGER IF NOT EXISTS events_append_only BEFORE INSERT ON events
WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE(
       (SELECT hash FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq - 1),
       '{chain.GENESIS}')
BEGIN SELECT RAISE(ABORT, 'events are immutable: append only, extending the hash chain'); END;
"""

_EVENT_COLUMNS = "game_id, seq, type, payload, recorded_at, recorded_by, prev_hash, hash"
_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
# An event as canonical JSON (keys sorted), built by SQLite from the stored canonical payload
# text: json_quote escapes as Python's json.dumps(ensure_ascii=False) does (tests/test_store.py).
_EVENT_LINE = (
    """SELECT '{"game_id":' || json_quote(game_id) || ',"hash":' || json_quote(hash) || ',"payload":' || payload"""
    """ || ',"prev_hash":' || json_quote(prev_hash) || ',"recorded_at":' || json_quote(recorded_at)"""
    """ || ',"recorded_by":' || json_quote(recorded_by) || ',"seq":' || seq || ',"type":' || json_quote(type) || '}'"""
    " FROM events WHERE game_id = ? ORDER BY seq"
)


@contextlib.contextmanager
def _write_transaction(db: Database) -> Iterator[Database]:
    """BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception.

    IMMEDIATE takes the write lock up front, so the version read inside the
    transaction cannot go stale before the insert: racing writers queue on the
    busy timeout instead of forking the stream. Writers of this store first
    queue on its WriterLock (recorder/writer_lock.py), so they rarely poll.
    """
    lock = getattr(db, "writer_lock", None)  # set by SQLiteEventStore._connect (issue 10)
    with lock.held() if lock is not None else contextlib.nullcontext():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            # A failed COMMIT can leave the transaction open; never leak it into
            # this thread's next call.
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise


def _event_from_row(row: tuple) -> StoredEvent:
    game_id, seq, type_, payload, recorded_at, recorded_by, prev_hash, hash_ = row
    return StoredEvent(game_id, seq, type_, json.loads(payload), recorded_at, recorded_by, prev_hash, hash_)


_TOKEN_COLUMNS = "token_id, tournament_id, holder, created_at, revoked_at"


def _create_token_table(db: Database) -> None:
    """Arbiter tokens: only the SHA-256 digest is kept (recorder/tournaments/tokens.py)."""
    tokens = db.table("tokens").create(
        {"token_id": str, "token_hash": str, "tournament_id": str, "holder": str, "created_at": str, "revoked_at": str},
        pk="token_id",
        not_null=["token_id", "token_hash", "tournament_id", "holder", "created_at"],
        if_not_exists=True,
    )
    tokens.create_index(["token_hash"], unique=True, if_not_exists=True)
    tokens.create_index(["tournament_id"], if_not_exists=True)


def _token_row(row: tuple | None) -> dict | None:
    return None if row is None else dict(zip(_TOKEN_COLUMNS.split(", "), row))


def _prefix_end(prefix: str) -> str:
    """The smallest string after every string starting with ``prefix`` (an index range)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


class SQLiteEventStore(EventStore):
    """EventStore on one SQLite file, WAL mode, one reused connection per thread."""

    def __init__(self, path: str):
        self.path = str(path)
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[tuple[threading.Thread, Database]] = []
        self._closed = False
        self._writer_lock = writer_lock_for(self.path)
        self.init_schema()

    # ---- connections

    def _db(self) -> Database:
        """This thread's connection, opened on first use and then reused."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        if self._pid != os.getpid():
            self._forget_inherited_connections()
        db = getattr(self._local, "db", None)
        return db if db is not None else self._connect()

    def _connect(self) -> Database:
        # isolation_level=None: the sqlite3 module opens no implicit
        # transactions; we issue BEGIN IMMEDIATE ourselves. check_same_thread is
        # off only so close() can close every thread's connection; each
        # connection is still used by the thread that opened it.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 10000")  # wait up to 10 s for the write lock
            conn.execute("PRAGMA journal_mode = WAL")  # readers never block the writer
            conn.execute("PRAGMA synchronous = FULL")  # an acknowledged append survives kill -9 / power loss
            db = Database(conn)
            db.writer_lock = self._writer_lock  # _write_transaction queues on it
        except BaseException:
            conn.close()
            raise
        with self._lock:
            if self._closed:  # close() ran while we were connecting
                db.close()
                raise RuntimeError("the event store is closed")
            self._close_dead_threads_connections()
            self._connections.append((threading.current_thread(), db))
        self._local.db = db
        return db

    def _close_dead_threads_connections(self) -> None:
        """Servers that spawn a thread per request would otherwise leak a connection each."""
        alive = []
        for thread, db in self._connections:
            if thread.is_alive():
                alive.append((thread, db))
            else:
                db.close()
        self._connections = alive

    def _forget_inherited_connections(self) -> None:
        """After fork (gunicorn --preload) never touch the parent's SQLite handles."""
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections = []

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for _, db in connections:
            db.close()
        if self._writer_lock is not None:
            self._writer_lock.close()

    # ---- schema

    def init_schema(self) -> None:
        """Create tables, indexes and immutability triggers if missing (idempotent)."""
        db = self._db()
        with _write_transaction(db):
            db.table("events").create(
                {
                    "game_id": str,
                    "seq": int,
                    "type": str,
                    "payload": str,
                    "recorded_at": str,
                    "recorded_by": str,
                    "prev_hash": str,
                    "hash": str,
                },
                pk=("game_id", "seq"),
                not_null=["game_id", "seq", "type", "payload", "recorded_at", "prev_hash", "hash"],
                if_not_exists=True,
            )
            db.table("idempotency_keys").create(
                {
                    "key": str,
                    "fingerprint": str,
                    "game_id": str,
                    "first_seq": int,
                    "last_seq": int,
                    "created_at": str,
                },
                pk="key",
                not_null=["key", "fingerprint", "game_id", "first_seq", "last_seq", "created_at"],
                if_not_exists=True,
            )
            games = db.table("games").create(
                {"game_id": str, **{c: str for c in SUMMARY_COLUMNS[:-1]}, "created_at": str, "updated_at": str, "metadata": str},
                pk="game_id",
                not_null=["game_id", "created_at", "updated_at"],
                if_not_exists=True,
            )
            for columns in (["variant"], ["south"], ["north"], ["tournament_id"], ["created_at", "game_id"]):
                games.create_index(columns, if_not_exists=True)
            _create_token_table(db)
            db.executescript(_TRIGGERS)

    # ---- writes

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
        events = tuple(events)  # a generator would be empty after validation
        _check_append(game_id, expected_version, events)
        # Serialise outside the write lock; hash the round-tripped payload so the
        # returned events equal what read() will return.
        texts = [chain.canonical_json(e.payload) for e in events]
        payloads = [json.loads(t) for t in texts]
        summary_row = _summary_row(summary) if summary is not None else None
        db = self._db()
        with _write_transaction(db):
            if idempotency is not None:
                original = self._replay(db, game_id, idempotency)
                if original is not None:
                    return AppendResult(original, replayed=True)
            now = utc_now()  # inside the lock, so recorded_at never goes backwards
            stored = self._insert_events(db, game_id, expected_version, events, texts, payloads, now, recorded_by)
            if idempotency is not None:
                db.execute(
                    "INSERT INTO idempotency_keys (key, fingerprint, game_id, first_seq, last_seq, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (idempotency.key, idempotency.fingerprint, game_id, stored[0].seq, stored[-1].seq, now),
                )
            if summary_row is not None:
                self._upsert_summary(db, game_id, summary_row, now)
        return AppendResult(stored, replayed=False)

    def _replay(self, db: Database, game_id: str, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        """The events a previous request with this key stored, or None if the key is new."""
        row = db.execute(
            "SELECT fingerprint, game_id, first_seq, last_seq FROM idempotency_keys WHERE key = ?",
            (idempotency.key,),
        ).fetchone()
        if row is None:
            return None
        fingerprint, original_game, first_seq, last_seq = row
        if fingerprint != idempotency.fingerprint:
            raise IdempotencyMismatch("this Idempotency-Key was already used for a different request")
        # The same request: its events, even if a concurrent retry chose another new game id.
        return tuple(self._select(db, original_game, first_seq - 1, last_seq))

    def replayed(self, game_id: str, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        return self._replay(self._db(), game_id, idempotency)

    def append_verbatim(
        self, game_id: str, expected_version: int, events: Sequence[StoredEvent], *, summary: dict | None = None
    ) -> tuple[StoredEvent, ...]:
        events = tuple(events)
        _check_append(game_id, expected_version, events)
        texts = [chain.canonical_json(e.payload) for e in events]
        summary_row = _summary_row(summary) if summary is not None else None
        db = self._db()
        with _write_transaction(db):
            last = db.execute(
                "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            head = last if last is not None else (0, chain.GENESIS)
            if head[0] != expected_version:
                raise VersionConflict(
                    f"game {game_id!r} has {head[0]} events, the archive expected {expected_version}",
                    expected=expected_version,
                    actual=head[0],
                )
            _verify_next_events(game_id, head, events)
            db.conn.executemany(
                _INSERT_EVENT,
                [
                    (e.game_id, e.seq, e.type, text, e.recorded_at, e.recorded_by, e.prev_hash, e.hash)
                    for e, text in zip(events, texts)
                ],
            )
            if summary_row is not None:
                self._upsert_summary(db, game_id, summary_row, utc_now())
        return events

    def _insert_events(
        self,
        db: Database,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        texts: list[str],
        payloads: list[dict],
        now: str,
        recorded_by: str | None,
    ) -> tuple[StoredEvent, ...]:
        """Check the version inside the transaction, then chain and insert the events."""
        last = db.execute(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        actual, prev_hash = last if last is not None else (0, chain.GENESIS)
        if actual != expected_version:
            raise VersionConflict(
                f"game {game_id!r} has {actual} events, the request expected {expected_version}",
                expected=expected_version,
                actual=actual,
            )
        stored = []
        for seq, event, payload in zip(range(actual + 1, actual + 1 + len(events)), events, payloads):
            record = {
                "game_id": game_id,
                "seq": seq,
                "type": event.type,
                "payload": payload,
                "recorded_at": now,
                "recorded_by": recorded_by,
            }
            digest = chain.event_hash(prev_hash, record)
            stored.append(StoredEvent(**record, prev_hash=prev_hash, hash=digest))
            prev_hash = digest
        db.conn.executemany(
            _INSERT_EVENT,
            [
                (e.game_id, e.seq, e.type, text, e.recorded_at, e.recorded_by, e.prev_hash, e.hash)
                for e, text in zip(stored, texts)
            ],
        )
        return tuple(stored)

    def _upsert_summary(self, db: Database, game_id: str, row: dict, now: str) -> None:
        """Insert or update the game's projection row.

        created_at is the game's first event time (so a rebuilt projection gets
        the same value) and is never overwritten; updated_at is now.
        """
        if self._touch_unchanged_summary(db, game_id, row, now):
            return
        columns = list(row)  # validated against SUMMARY_COLUMNS, safe to quote into SQL
        names = ", ".join(["game_id", *(f'"{c}"' for c in columns), "created_at", "updated_at"])
        values = ", ".join(
            ["?"] * (1 + len(columns))
            + ["COALESCE((SELECT recorded_at FROM events WHERE game_id = ? AND seq = 1), ?)", "?"]
        )
        updates = ", ".join([*(f'"{c}" = excluded."{c}"' for c in columns), "updated_at = excluded.updated_at"])
        db.execute(
            f"INSERT INTO games ({names}) VALUES ({values}) ON CONFLICT (game_id) DO UPDATE SET {updates}",
            [game_id, *row.values(), game_id, now, now],
        )

    @staticmethod
    def _touch_unchanged_summary(db: Database, game_id: str, row: dict, now: str) -> bool:
        """Most appends change no summary column: then set updated_at alone.

        An UPDATE of that one (unindexed) column rewrites no index page, so the commit
        writes and fsyncs fewer pages while holding the write lock (issue 10). False
        when the row is missing or any column differs: the caller upserts it whole.
        """
        same = "".join(f' AND "{c}" IS ?' for c in row)  # columns validated by _summary_row
        cursor = db.execute(
            f"UPDATE games SET updated_at = ? WHERE game_id = ?{same}", [now, game_id, *row.values()]
        )
        return cursor.rowcount == 1

    def update_summary(self, game_id: str, fields: dict) -> None:
        row = _summary_row(fields)
        db = self._db()
        with _write_transaction(db):
            if not self._exists(db, game_id):
                raise UnknownGame(f"no game {game_id!r}")
            self._upsert_summary(db, game_id, row, utc_now())

    # ---- reads

    def _select(self, db: Database, game_id: str, after: int, upto: int | None) -> list[StoredEvent]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        return [_event_from_row(r) for r in db.execute(sql + " ORDER BY seq", params).fetchall()]

    def read(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        return self._select(self._db(), game_id, after, upto)

    def event_lines(self, game_id: str) -> list[str]:
        return [row[0] for row in self._db().execute(_EVENT_LINE, (game_id,)).fetchall()]

    def version(self, game_id: str) -> int:
        row = self._db().execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    @staticmethod
    def _exists(db: Database, game_id: str) -> bool:
        return db.execute("SELECT 1 FROM events WHERE game_id = ? LIMIT 1", (game_id,)).fetchone() is not None

    def exists(self, game_id: str) -> bool:
        return self._exists(self._db(), game_id)

    def list_games(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[dict]:
        _check_page(limit=limit, offset=offset)
        clauses, params = _game_filters(variant, player, tournament)
        cursor = self._db().execute(
            f"SELECT * FROM games{_where(clauses)} ORDER BY created_at DESC, game_id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        names = [d[0] for d in cursor.description]
        games = [dict(zip(names, r)) for r in cursor.fetchall()]
        for game in games:
            if game["metadata"] is not None:
                game["metadata"] = json.loads(game["metadata"])
        return games

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
        _check_page(batch_size=batch_size)
        if batch_size == 0:
            raise ValueError("batch_size must be positive")
        filters = _game_filters(variant, player, tournament, date_from=date_from, date_to=date_to, result=result)
        return self._game_id_batches(filters, batch_size, oldest_first)

    def _game_id_batches(
        self, filters: tuple[list[str], list], batch_size: int, oldest_first: bool = False
    ) -> Iterator[str]:
        """Keyset pagination: each batch is one short query, no read transaction or
        cursor stays open between batches (a slow consumer never pins the WAL),
        and the cost per batch does not grow with the position as OFFSET would."""
        clauses, params = filters
        direction = "ASC" if oldest_first else "DESC"
        last: tuple[str, str] | None = None
        while True:
            page_clauses, page_params = list(clauses), list(params)
            if last is not None:
                page_clauses.append(f"(created_at, game_id) {'>' if oldest_first else '<'} (?, ?)")
                page_params += last
            rows = self._db().execute(
                f"SELECT created_at, game_id FROM games{_where(page_clauses)}"
                f" ORDER BY created_at {direction}, game_id {direction} LIMIT ?",
                [*page_params, batch_size],
            ).fetchall()
            yield from (game_id for _, game_id in rows)
            if len(rows) < batch_size:
                return
            last = rows[-1]

    # ---- tournaments and tokens (recorder/tournaments)

    def list_streams(self, prefix: str, *, limit: int = 100, offset: int = 0) -> list[StoredEvent]:
        if not isinstance(prefix, str) or not prefix:
            raise ValueError("prefix must be a non-empty string")
        _check_page(limit=limit, offset=offset)
        rows = self._db().execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id >= ? AND game_id < ? AND seq = 1"
            " ORDER BY recorded_at DESC, game_id DESC LIMIT ? OFFSET ?",
            (prefix, _prefix_end(prefix), limit, offset),
        ).fetchall()
        return [_event_from_row(r) for r in rows]

    def add_token(self, token_id: str, token_hash: str, tournament_id: str, holder: str) -> dict:
        row = (token_id, token_hash, tournament_id, holder, utc_now())
        db = self._db()
        with _write_transaction(db):
            db.execute(
                "INSERT INTO tokens (token_id, token_hash, tournament_id, holder, created_at) VALUES (?, ?, ?, ?, ?)",
                row,
            )
        return {"token_id": token_id, "tournament_id": tournament_id, "holder": holder, "created_at": row[-1],
                "revoked_at": None}  # fmt: skip

    def find_token(self, token_hash: str) -> dict | None:
        row = self._db().execute(f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return _token_row(row)

    def list_tokens(self, tournament_id: str) -> list[dict]:
        rows = self._db().execute(
            f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE tournament_id = ? ORDER BY created_at, token_id",
            (tournament_id,),
        ).fetchall()
        return [_token_row(r) for r in rows]

    def revoke_token(self, tournament_id: str, token_id: str) -> dict | None:
        db = self._db()
        with _write_transaction(db):
            db.execute(
                "UPDATE tokens SET revoked_at = ? WHERE token_id = ? AND tournament_id = ? AND revoked_at IS NULL",
                (utc_now(), token_id, tournament_id),
            )
            row = db.execute(
                f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE token_id = ? AND tournament_id = ?",
                (token_id, tournament_id),
            ).fetchone()
        return _token_row(row)

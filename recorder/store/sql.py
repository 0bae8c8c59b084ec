"""SQL the SQLite backend shares: the schema's triggers, filters, rows and transactions."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from sqlite_utils import Database

from recorder.core import chain

from .interface import StoredEvent
from .writer_lock import WriterLock


class LockedDatabase(Database):
    """A connection whose writers first queue on the store's WriterLock (set by
    SQLiteEventStore._connect; _write_transaction takes it)."""

    writer_lock: WriterLock | None = None


def _game_filters(
    variant: str | None, player: str | None, tournament: str | None, **archive_filters: str | None
) -> tuple[list[str], list]:
    """WHERE clauses and parameters shared by GamesList.list and GamesList.iter_ids."""
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
    date_from: str | None = None, date_to: str | None = None, result: str | None = None, event: str | None = None
) -> tuple[list[str], list]:
    """The export filters (recorder/archive/transfer.py): a date range, a result, an event."""
    clauses: list[str] = []
    params: list = []
    if event is not None:
        clauses.append("event = ?")
        params.append(event)
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


def _where(clauses: list[str]) -> str:
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""


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


_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}, line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"


# An event as canonical JSON (keys sorted): the stored line, or for rows stored before lines
# were, built by SQLite from the stored canonical payload text (json_quote escapes as Python's
# json.dumps(ensure_ascii=False) does: tests/test_store.py).
_EVENT_LINE_TEXT = (
    """COALESCE(line, '{"game_id":' || json_quote(game_id) || ',"hash":' || json_quote(hash)"""
    """ || ',"payload":' || payload || ',"prev_hash":' || json_quote(prev_hash)"""
    """ || ',"recorded_at":' || json_quote(recorded_at) || ',"recorded_by":' || json_quote(recorded_by)"""
    """ || ',"seq":' || seq || ',"type":' || json_quote(type) || '}')"""
)
_EVENT_LINE = f"SELECT {_EVENT_LINE_TEXT} FROM events WHERE game_id = ? ORDER BY seq"
_STORED_LINES = "SELECT line FROM events WHERE game_id = ? ORDER BY seq"


@contextlib.contextmanager
def _write_transaction(db: Database) -> Iterator[Database]:
    """BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception.

    IMMEDIATE takes the write lock up front, so the version read inside the
    transaction cannot go stale before the insert: racing writers queue on the
    busy timeout instead of forking the stream. Writers of this store first
    queue on its WriterLock (recorder/store/writer_lock.py), so they rarely poll.
    """
    if getattr(db, "in_batch", False):  # inside SQLiteEventStore.batch(): this append is a savepoint
        yield from _savepoint(db)
        return
    lock = db.writer_lock if isinstance(db, LockedDatabase) else None
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


def _savepoint(db: Database) -> Iterator[Database]:
    """One append inside a batch: undone alone if it fails, committed with the batch."""
    db.execute("SAVEPOINT append")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK TO append")
        db.execute("RELEASE append")
        raise
    db.execute("RELEASE append")


def _event_from_row(row: tuple) -> StoredEvent:
    game_id, seq, type_, payload, recorded_at, recorded_by, prev_hash, hash_ = row
    return StoredEvent(game_id, seq, type_, json.loads(payload), recorded_at, recorded_by, prev_hash, hash_)


def ids_in_events(connection: Callable[[], Any]) -> Iterator[str]:
    """Every stream in the events table itself (games and tournaments), by id, in batches of
    500: what ``recorder verify`` walks, so no table beside the events (the streams, the
    games list) can hide a stream from it. ``connection`` gives the backend's handle."""
    after = ""
    while True:
        query = "SELECT DISTINCT game_id FROM events WHERE game_id > ? ORDER BY game_id LIMIT 500"
        rows = connection().execute(query, (after,)).fetchall()
        if not rows:
            return
        yield from (row[0] for row in rows)
        after = rows[-1][0]

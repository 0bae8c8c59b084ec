"""One repository for the event-sourced records: the write loop and the folds kept, written once.

``Repository`` serves the records beside games (players, tournaments, teams); the games'
service (recorder/games/service.py) writes through the same loop (``append_retrying``)
and keeps its folds in the same cache (``Folds``), bringing a kept fold up to date by the
events after it, since a game's stream is long and grows one move at a time.

Each record is a stream of one type folded into a frozen value. A write goes: load (the
latest fold) -> decide -> append at the version decided on, so a stale decision is a
conflict, never a fork; a client that named no version has its command decided again on
the newer state (``append_retrying``), and a request repeated with its idempotency key is
answered with what the first one stored. What differs per record is a parameter: its
stream type and noun (the words of its errors), which ids may be its own, its fold, and
the projection written in the append's transaction (a player's registry rows, a
tournament's registry entries).

Reads reuse folds: each repository keeps the latest fold of the streams it read, per
process, and reuses one only while the stream's version (one indexed look) is the fold's.
A write through another process grows the version, so the next load folds again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from recorder.errors import NotFound, VersionConflict
from recorder.store import EventStore, Idempotency, NewEvent, ProjectionWrite, StoredEvent

FOLDS_KEPT = 1024  # folds kept per repository (LRU): see docs/decisions.md, "One repository"
RETRIES_WITHOUT_VERSION = 5  # a write that named no version is decided again on the newer state


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


T = TypeVar("T", bound=Versioned)
R = TypeVar("R")

Fold = Callable[[str, Sequence[StoredEvent]], T]
Decide = Callable[[T], list]
Projection = Callable[[T, list], ProjectionWrite | None]  # the fold decided on, the events decided


@dataclass(frozen=True)
class Saved(Generic[T]):
    """What a write stored (none when the decision was to store nothing) and the record after it."""

    events: Sequence[StoredEvent]
    record: T
    replayed: bool = False


class Folds(Generic[T]):
    """The latest folds, the least recently used evicted past ``bound``; safe across threads."""

    def __init__(self, bound: int):
        self.bound = bound
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def at(self, stream_id: str, version: int) -> T | None:
        """The fold kept of this stream when it is at ``version``; None otherwise."""
        with self._lock:
            kept = self._kept.get(stream_id)
            if kept is None or kept.version != version:
                return None
            self._kept.move_to_end(stream_id)
            return kept

    def keep(self, stream_id: str, record: T) -> None:
        with self._lock:
            kept = self._kept.get(stream_id)
            if kept is not None and kept.version > record.version:
                return  # another thread folded a later version meanwhile
            self._kept[stream_id] = record
            self._kept.move_to_end(stream_id)
            while len(self._kept) > self.bound:
                self._kept.popitem(last=False)

    def latest(self, stream_id: str) -> T | None:
        """The fold kept of this stream, whatever its version (a caller that can bring it
        up to date by the events after it, as the games' service does)."""
        with self._lock:
            kept = self._kept.get(stream_id)
            if kept is not None:
                self._kept.move_to_end(stream_id)
            return kept

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)


def append_retrying(attempt: Callable[[], R], replayed: Callable[[], R | None], expected_version: int | None) -> R:
    """Run ``attempt`` (load, decide, append at the version loaded) until no concurrent
    write beats it. A client that named its version gets the conflict at once; one that
    did not has its command decided again on the newer state, up to
    RETRIES_WITHOUT_VERSION times. A copy of this very request that won the race in the
    meantime is answered with its original (``replayed``), never with a 409."""
    tries = 1 if expected_version is not None else RETRIES_WITHOUT_VERSION
    return _retrying(attempt, replayed, tries)


def _retrying(attempt: Callable[[], R], replayed: Callable[[], R | None], tries: int) -> R:
    try:
        return attempt()
    except VersionConflict:
        original = replayed()
        if original is not None:
            return original
        if tries <= 1:
            raise
    return _retrying(attempt, replayed, tries - 1)


def no_projection(_record: object, _events: list) -> None:
    return None


class Repository(Generic[T]):
    """The records of one stream type: ``noun`` names them in errors ("no team 't-…'",
    "the team is at version 3, not 2"), ``owns`` tells an id that may be one of them
    before the store is asked, ``fold(stream_id, events)`` makes the record, and
    ``projection(record, events)`` is what an ``execute`` writes in its append's
    transaction beside the events decided on the record."""

    def __init__(
        self,
        store: EventStore,
        stream_type: str,
        fold: Fold[T],
        *,
        noun: str,
        owns: Callable[[str], bool] = lambda _stream_id: True,
        projection: Projection[T] = no_projection,
        kept: int = FOLDS_KEPT,
    ):
        self.store = store
        self.stream_type = stream_type
        self.fold = fold
        self.noun = noun
        self.owns = owns
        self.projection = projection
        self.folds: Folds[T] = Folds(kept)

    # -- Reading --------------------------------------------------------------------

    def events(self, stream_id: str) -> list[StoredEvent]:
        """Every event of the record (NotFound when there is no such record)."""
        mine = self.owns(stream_id) and self.store.stream_type(stream_id) == self.stream_type
        events = self.store.read(stream_id) if mine else []
        if not events:
            raise NotFound(f"no {self.noun} {stream_id!r}", **{f"{self.noun}_id": stream_id})
        return events

    def load(self, stream_id: str, version: int | None = None) -> T:
        """The record as it stands: the fold kept when the stream is still at its version
        (``version`` when the caller has just read it, else one look), else folded again."""
        if version is None:
            version = self.store.version(stream_id) if self.owns(stream_id) else 0
        kept = self.folds.at(stream_id, version) if version else None
        if kept is not None:
            return kept
        record = self.fold(stream_id, self.events(stream_id))
        self.folds.keep(stream_id, record)
        return record

    # -- Writing --------------------------------------------------------------------

    def replayed(self, idempotency: Idempotency | None) -> Saved[T] | None:
        """What an earlier request with this key stored, and the record it wrote to."""
        if idempotency is None:
            return None
        events = self.store.replayed(idempotency)
        if not events:
            return None
        return Saved(events, self.load(events[0].stream_id), replayed=True)

    def create(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        recorded_by: str,
        idempotency: Idempotency | None = None,
        projection: ProjectionWrite | None = None,
    ) -> Saved[T]:
        """A new record's first events under ``stream_id`` (VersionConflict when it exists)."""
        result = self.store.append(
            stream_id,
            0,
            events,
            stream_type=self.stream_type,
            recorded_by=recorded_by,
            idempotency=idempotency,
            projection=projection,
        )
        return Saved(result.events, self.load(result.events[0].stream_id), result.replayed)

    def execute(
        self,
        stream_id: str,
        decide: Decide[T],
        *,
        expected_version: int | None = None,
        recorded_by: str,
        idempotency: Idempotency | None = None,
    ) -> Saved[T]:
        """Decide on the latest fold and append at its version; an empty decision stores nothing."""
        original = self.replayed(idempotency)
        if original is not None:
            return original

        def attempt() -> Saved[T]:
            record = self.load(stream_id)
            self._check_version(record, expected_version)
            events = decide(record)
            if not events:
                return Saved([], record)
            result = self.store.append(
                stream_id,
                record.version,
                [NewEvent(e.type, e.payload()) for e in events],
                stream_type=self.stream_type,
                recorded_by=recorded_by,
                idempotency=idempotency,
                projection=self.projection(record, events),
            )
            return Saved(result.events, self.load(stream_id), result.replayed)

        return append_retrying(attempt, lambda: self.replayed(idempotency), expected_version)

    def _check_version(self, record: T, expected_version: int | None) -> None:
        if expected_version is not None and expected_version != record.version:
            raise VersionConflict(
                f"the {self.noun} is at version {record.version}, not {expected_version}",
                expected=expected_version,
                actual=record.version,
            )

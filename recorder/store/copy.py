"""Moving every stream from one store to another (``recorder copy``), through the interface only.

Events are appended verbatim (``append`` with StoredEvents): seq, time, recorder and
hashes kept, each chain checked link by link as it lands. At the end every stream's
stored lines are compared byte for byte with the source's and every chain is verified
again, so a copy either is the source or says where it is not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from recorder.core import chain

from .interface import STREAM_TYPES, StoreBackend

PAGE = 500


class TargetNotEmpty(Exception):
    """The target store already holds streams: copying would mix two histories."""


def all_streams(store: StoreBackend) -> Iterator[tuple[str, str]]:
    """(stream type, stream id) of every stream, a page at a time."""
    for stream_type in STREAM_TYPES:
        after = None
        while ids := store.stream_ids(stream_type, after=after, limit=PAGE):
            yield from ((stream_type, stream_id) for stream_id in ids)
            after = ids[-1]


def copy_streams(source: StoreBackend, target: StoreBackend, progress: Callable[[int], None] = lambda n: None) -> int:
    """Append every stream of ``source`` to the empty ``target``; returns the number of events."""
    if any(target.stream_ids(stream_type, limit=1) for stream_type in STREAM_TYPES):
        raise TargetNotEmpty("the target already holds streams; copy only into an empty database")
    total = 0
    for stream_type, stream_id in all_streams(source):
        events = source.read(stream_id)
        target.append(stream_id, 0, events, stream_type=stream_type)
        total += len(events)
        progress(1)
    return total


def differences(source: StoreBackend, target: StoreBackend) -> Iterator[str]:
    """One line per stream whose copy differs from its source or whose chain breaks (none: a true copy)."""
    seen = set()
    for stream_type, stream_id in all_streams(source):
        seen.add(stream_id)
        if target.stream_type(stream_id) != stream_type:
            yield f"{stream_id}: missing from the target, or of another type"
        elif target.event_lines(stream_id) != source.event_lines(stream_id):
            yield f"{stream_id}: its events differ from the source's"
        elif (broken := _first_broken_link(target, stream_id)) is not None:
            yield f"{stream_id}: the chain breaks at event {broken}"
    extra = [stream_id for _, stream_id in all_streams(target) if stream_id not in seen]
    yield from (f"{stream_id}: in the target only" for stream_id in extra)


def _first_broken_link(store: StoreBackend, stream_id: str) -> int | None:
    events = store.read(stream_id)
    return chain.first_broken_link(events, events.texts)

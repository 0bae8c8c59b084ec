"""The per-game hash chain that makes the event log tamper-evident.

Every stored event carries ``prev_hash`` (the hash of the game's previous event,
or GENESIS for seq 1) and ``hash`` = SHA-256 over ``prev_hash`` plus the canonical
JSON of the event's record. Changing, removing or reordering any stored event
therefore breaks a link that anyone can recompute from the data alone.

Pure standard library, so verifiers and other backends can use it without the
store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

GENESIS = "0" * 64

# The fields of an event that the hash covers. prev_hash and hash themselves are
# excluded: prev_hash enters as the prefix, hash is the output.
RECORD_FIELDS = ("game_id", "seq", "type", "payload", "recorded_at", "recorded_by")


def canonical_json(obj: Any) -> str:
    """One byte-exact JSON text per value: sorted keys, no whitespace, raw UTF-8.

    The store also writes payloads in this form, so reading a payload back and
    re-serialising it reproduces the hashed bytes.
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(prev_hash: str, record: dict[str, Any]) -> str:
    """SHA-256 hex of ``prev_hash + canonical_json(record)`` (UTF-8)."""
    return hashlib.sha256((prev_hash + canonical_json(record)).encode("utf-8")).hexdigest()


def record_of(event: Any) -> dict[str, Any]:
    """The hashed record of a stored event (anything with StoredEvent's attributes).

    Duck-typed so this module does not import the store (which imports it).
    """
    return {field: getattr(event, field) for field in RECORD_FIELDS}


def first_broken_link(events: Iterable[Any]) -> int | None:
    """Seq of the first event that breaks the game's chain, or None if it is intact.

    ``events`` are one game's stored events in seq order, starting at seq 1.
    A link is broken when the seq is not previous + 1 (a gap or reorder), when
    prev_hash is not the previous event's stored hash (GENESIS for the first),
    or when the event's own hash does not recompute (its content was changed).
    """
    prev_seq, prev_hash = 0, GENESIS
    for event in events:
        if (
            event.seq != prev_seq + 1
            or event.prev_hash != prev_hash
            or event_hash(event.prev_hash, record_of(event)) != event.hash
        ):
            return int(event.seq)
        prev_seq, prev_hash = event.seq, event.hash
    return None

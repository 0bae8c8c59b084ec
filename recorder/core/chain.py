"""The per-game hash chain that makes the event log tamper-evident.

Every stored event carries ``prev_hash`` (the hash of the game's previous event,
or GENESIS for seq 1) and ``hash`` = SHA-256 over ``prev_hash`` plus the canonical
JSON of the event's record. Changing, removing or reordering any stored event
therefore breaks a link that anyone can recompute from the data alone.

Everything the chain's text is made of lives here, so it is spelled once: the record and
the line (``event_text``, ``line_text``), the hash (``event_hash``, ``stored_hash``, and
``new_links`` for events being appended), the link (``follows``, ``unlinked``) and the
templates an archive reader's pattern is made from (``LINE_TEMPLATE``, ``LINE_KEYS``).
tests/test_chain_text.py holds every other module to it.

Pure standard library, so verifiers and other backends can use it without the
store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

GENESIS = "0" * 64
START = (0, GENESIS)  # a chain's head before its first event: (the last seq, the last hash)

# The fields of an event that the hash covers. prev_hash and hash themselves are
# excluded: prev_hash enters as the prefix, hash is the output.
RECORD_FIELDS = ("game_id", "seq", "type", "payload", "recorded_at", "recorded_by")


def canonical_json(obj: Any) -> str:
    """One byte-exact JSON text per value: sorted keys, no whitespace, raw UTF-8.

    The store also writes payloads in this form, so reading a payload back and
    re-serialising it reproduces the hashed bytes.
    """
    return _CANONICAL.encode(obj)


# What json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) builds on
# every call, built once: the encoder holds no state between calls.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(prev_hash: str, record: dict[str, Any]) -> str:
    """SHA-256 hex of ``prev_hash + canonical_json(record)`` (UTF-8)."""
    return text_hash(prev_hash, canonical_json(record))


def text_hash(prev_hash: str, record_text: str) -> str:
    """``event_hash`` of a record already written as its canonical JSON text."""
    return hashlib.sha256((prev_hash + record_text).encode("utf-8")).hexdigest()


def parse_json(text: str) -> Any:
    """``json.loads(text)``, cheaper for canonical text (a stored payload, an archive's
    line): ``raw_decode`` reads it without ``loads``' two scans for white space around
    it, which canonical text has none of; any other text goes through
    ``json.loads``, its errors included."""
    try:
        value, end = _DECODER.raw_decode(text)
    except ValueError:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


_DECODER = json.JSONDecoder()

# A str as JSON text, as json.dumps(ensure_ascii=False) writes it.
json_string = json.encoder.encode_basestring

# The members of an event's stored line (an NDJSON archive's line): its record and its links.
LINE_FIELDS = (*RECORD_FIELDS, "prev_hash", "hash")


def object_keys(keys: Iterable[str]) -> tuple[str, ...]:
    """The order ``canonical_json`` writes an object's keys in (sorted), which is the order
    ``object_template`` takes their values in."""
    return tuple(sorted(keys))


def object_template(keys: Iterable[str]) -> str:
    """The canonical JSON of an object with these keys, each value a ``%s`` to fill with
    the value's canonical text, in ``object_keys`` order (``canonical_json``'s order)."""
    return "{" + ",".join(json_string(key) + ":%s" for key in object_keys(keys)) + "}"


# The record's and the line's canonical text, their values left to fill: what an archive
# reader's pattern is made from, and what ``spelled`` writes out.
RECORD_TEMPLATE = object_template(RECORD_FIELDS)
LINE_TEMPLATE = object_template(LINE_FIELDS)
LINE_KEYS = object_keys(LINE_FIELDS)  # the order LINE_TEMPLATE takes the line's values in


def event_text(event: Any, payload_text: str | None = None, *, linked: bool = False) -> str:
    """The one encoder of an event's text: ``canonical_json`` of its hashed record, or with
    ``linked`` of its stored line (the record with ``prev_hash`` and ``hash``), as the store
    keeps it and an NDJSON archive writes it. Built around the payload's canonical text
    (``payload_text``, when the caller has it), so the payload is serialised once; a field
    not of its plain JSON type (a tampered row) is encoded by ``canonical_json`` itself."""
    text = payload_text if payload_text is not None else canonical_json(event.payload)
    links = (event.prev_hash, event.hash) if linked else None
    fast = spelled(event.game_id, event.seq, event.type, text, event.recorded_at, event.recorded_by, links)
    if fast is not None:
        return fast
    return canonical_json(line_of(event) if linked else record_of(event))


def record_text(event: Any, payload_text: str) -> str | None:
    """``event_text`` of the record, None when a field is not of its plain JSON type (where
    only ``canonical_json`` is exact)."""
    return spelled(event.game_id, event.seq, event.type, payload_text, event.recorded_at, event.recorded_by)


def spelled(
    stream_id: Any,
    seq: Any,
    type_: Any,
    payload_text: str,
    recorded_at: Any,
    recorded_by: Any,
    links: tuple[Any, Any] | None = None,
) -> str | None:
    """The record's template (with ``links``, ``(prev_hash, hash)``: the line's) filled with
    each field's JSON text (``json_string``, the very quoting ``canonical_json`` does), in the
    template's sorted key order; None when a field is not of its plain JSON type: the fast
    spelling of ``event_text``, held to ``canonical_json`` over hostile events."""
    if not (
        type(stream_id) is str
        and type(seq) is int
        and type(type_) is str
        and type(recorded_at) is str
        and (recorded_by is None or type(recorded_by) is str)
    ):
        return None
    quote = json_string
    by = "null" if recorded_by is None else quote(recorded_by)
    # RECORD_TEMPLATE and LINE_TEMPLATE filled, written out: an f-string builds the text in
    # one step, where ``%`` parses its template on every call (a cost on every event hashed,
    # stored or read). tests/test_chain_text.py holds both spellings to json.dumps and to
    # the templates.
    if links is None:
        return (
            f'{{"game_id":{quote(stream_id)},"payload":{payload_text},"recorded_at":{quote(recorded_at)},'
            f'"recorded_by":{by},"seq":{seq},"type":{quote(type_)}}}'
        )
    prev_hash, hash_ = links
    if not (type(prev_hash) is str and type(hash_) is str):
        return None
    return (
        f'{{"game_id":{quote(stream_id)},"hash":{quote(hash_)},"payload":{payload_text},"prev_hash":{quote(prev_hash)},'
        f'"recorded_at":{quote(recorded_at)},"recorded_by":{by},"seq":{seq},"type":{quote(type_)}}}'
    )


def stored_hash(event: Any, payload_text: str | None = None) -> str:
    """The hash an event's content gives after its ``prev_hash``: ``event_hash`` of its
    record, the payload serialised once (``payload_text``, if the caller has it)."""
    text = record_text(event, payload_text if payload_text is not None else canonical_json(event.payload))
    if text is None:
        return event_hash(event.prev_hash, record_of(event))
    return text_hash(event.prev_hash, text)


def follows(head: tuple[int, str], seq: Any, prev_hash: Any) -> bool:
    """Whether an event numbered ``seq`` and linked to ``prev_hash`` is the next link after
    ``head`` (the previous event's seq and hash; ``START`` before the first): the one link
    check, for a stored chain, a chain to append and an archive's."""
    return unlinked(head, seq, prev_hash) is None


def unlinked(head: tuple[int, str], seq: Any, prev_hash: Any) -> str | None:
    """What breaks the link after ``head``: "seq" (not the next number: an event missing or
    out of order), "prev_hash" (not the previous event's hash: cut or re-linked), or None."""
    if seq != head[0] + 1:
        return "seq"
    return None if prev_hash == head[1] else "prev_hash"


def new_links(
    stream_id: str, head: tuple[int, str], entries: Iterable[tuple[str, str]], recorded_at: str, recorded_by: str | None
) -> Iterator[tuple[int, str, str]]:
    """Number and link new events after ``head``: for each entry, (type, the payload's
    canonical text), its (seq, prev_hash, hash), the record hashed as the encoder spells it
    (``event_text``), the payload never serialised again. What the store's append and a
    bench's made-up log both chain with."""
    seq, prev_hash = head
    for type_, payload_text in entries:
        seq += 1
        text = spelled(stream_id, seq, type_, payload_text, recorded_at, recorded_by)
        if text is None:  # a field not of its plain JSON type: canonical_json is exact
            fields = (stream_id, seq, type_, parse_json(payload_text), recorded_at, recorded_by)
            text = canonical_json(dict(zip(RECORD_FIELDS, fields)))
        digest = text_hash(prev_hash, text)
        yield seq, prev_hash, digest
        prev_hash = digest


def line_text(
    stream_id: str,
    seq: int,
    type_: str,
    payload_text: str,
    recorded_at: str,
    recorded_by: str | None,
    prev_hash: str,
    hash_: str,
) -> str:
    """``event_text`` of a line given by its fields (an event not yet stored, a bench's)."""
    text = spelled(stream_id, seq, type_, payload_text, recorded_at, recorded_by, (prev_hash, hash_))
    if text is not None:
        return text
    fields = (stream_id, seq, type_, parse_json(payload_text), recorded_at, recorded_by, prev_hash, hash_)
    return canonical_json(dict(zip(LINE_FIELDS, fields)))


def record_of(event: Any) -> dict[str, Any]:
    """The hashed record of a stored event (anything with StoredEvent's attributes).

    Duck-typed so this module does not import the store (which imports it).
    """
    return {field: getattr(event, field) for field in RECORD_FIELDS}


def line_of(event: Any) -> dict[str, Any]:
    """The stored line's members of a stored event: its record, ``prev_hash`` and ``hash``."""
    return {field: getattr(event, field) for field in LINE_FIELDS}


def first_broken_link(events: Iterable[Any], texts: Sequence[str | None] | None = None) -> int | None:
    """Seq of the first event that breaks the game's chain, or None if it is intact.

    ``events`` are one game's stored events in seq order, starting at seq 1.
    A link is broken when the seq is not previous + 1 (a gap or reorder), when
    prev_hash is not the previous event's stored hash (GENESIS for the first),
    or when the event's own hash does not recompute (its content was changed).
    ``texts``: each payload's text as the store holds it, when the caller read them.
    """
    return checked_links(events, texts)[0]


def checked_links(
    events: Iterable[Any],
    known: Sequence[str | None] | None = None,
    records: Sequence[str | None] | None = None,
) -> tuple[int | None, list[str]]:
    """``first_broken_link``, and the canonical payload text of every event up to it:
    a caller that stores the events next (an import) serialises each payload once.
    ``known``: each payload's text as read (None where it is not known); ``records``: each
    record's text as read (``record_text`` of an archive's line written as the store writes it)."""
    head, texts = START, list[str]()
    for index, event in enumerate(events):
        if not follows(head, event.seq, event.prev_hash):
            return int(event.seq), texts
        stored = known[index] if known is not None else None
        text = _hashed_text(event, stored, records[index] if records is not None else None)
        if text is None:
            return int(event.seq), texts
        texts.append(text)
        head = (event.seq, event.hash)
    return None, texts


def _hashed_text(event: Any, stored: str | None, record: str | None) -> str | None:
    """The payload's canonical text when the event's hash recomputes from it, else None.

    An event read from a store comes with the text it stored (``stored``): the very bytes
    that were hashed, so when they give the stored hash the payload need not be encoded
    again (a verification's commonest step). So does an archive's sowing written as the
    store writes it (``archive.ndjson.canonical_sowing``), whose text is canonical by the
    pattern that read it (an import's commonest line), with its record's text (``record``)
    filled in by the encoder. Any other text, or none, is checked by encoding the payload."""
    if stored is not None and record is not None:  # the record's text, cut from the line it was read from
        if text_hash(event.prev_hash, record) == event.hash:
            return stored
    elif stored is not None and stored_hash(event, stored) == event.hash:
        return stored
    text = canonical_json(event.payload)
    return text if text != stored and stored_hash(event, text) == event.hash else None

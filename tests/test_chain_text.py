"""One encoder of an event's text (``chain.event_text``): the record the hash chain covers
and the line the store keeps and an archive writes are ``canonical_json`` of the event's
fields, whatever those fields hold. Its fast spelling (templates filled around the
payload's text), the store's lines and the archive reader's pattern are all held to
``canonical_json`` here, over events with hostile strings."""

import ast
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.archive.ndjson import canonical_sowing, read_event
from recorder.core import chain
from recorder.store import NewEvent, SQLiteEventStore, StoredEvent
from recorder.store.interface import stored_line

# Quotes, backslashes, control characters, line and paragraph separators, non-Latin
# scripts, astral characters, a lone surrogate, and plain letters.
HOSTILE = ['"', "\\", "\x00", "\x1f", "\x7f", "\u2028", "\u2029", "\u0085", "é", "ግ", "ዝ", "𝄞", "\ud800", "a", "/", " "]
hostile_text = st.text(alphabet=st.sampled_from(HOSTILE), max_size=12) | st.text(max_size=12)
# A very long text (up to 12,000 characters) in the game id or the recorder's name, or both
# (hypothesis refuses to show an example of more than 30,000).
long_text = st.builds(lambda piece, times: piece * times, hostile_text.filter(bool), st.integers(100, 1000))
texts = hostile_text
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
events = st.builds(
    StoredEvent,
    game_id=texts | long_text,
    seq=st.integers(-(2**70), 2**70),
    type=texts,
    payload=st.dictionaries(texts, json_values, max_size=5),
    recorded_at=texts,
    recorded_by=st.none() | texts | long_text,
    prev_hash=texts,
    hash=texts,
)


def test_the_templates_are_the_canonical_json_of_the_fields_in_sorted_order():
    """The templates (what the archive reader's pattern is made from) are what
    json.dumps writes of the record and of the line, every value standing for itself."""
    for template, fields in ((chain.RECORD_TEMPLATE, chain.RECORD_FIELDS), (chain.LINE_TEMPLATE, chain.LINE_FIELDS)):
        marks = {name: f"<{name}>" for name in fields}
        written = json.dumps(marks, sort_keys=True, separators=(",", ":"))
        assert template % tuple(f"<{name}>" for name in sorted(fields)) == written.replace('"<', "<").replace('>"', ">")


def _expected(event: StoredEvent, linked: bool) -> str:
    """What json.dumps itself writes, keys sorted, no white space, raw UTF-8."""
    fields = chain.LINE_FIELDS if linked else chain.RECORD_FIELDS
    members = {name: getattr(event, name) for name in fields}
    return json.dumps(members, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=400)
@given(event=events)
def test_the_event_text_is_the_canonical_json_of_its_record_and_of_its_line(event):
    payload_text = chain.canonical_json(event.payload)
    record = chain.event_text(event, payload_text)
    line = chain.event_text(event, payload_text, linked=True)
    assert record == _expected(event, False) == chain.canonical_json(chain.record_of(event))
    assert line == _expected(event, True) == stored_line(event, payload_text)
    assert chain.record_text(event, payload_text) == record
    assert json.loads(line) == event.to_dict()


@settings(max_examples=400)
@given(
    event=events,
    hole=texts,
    player=st.sampled_from(["south", "north"]),
    seq=st.integers(1, 10**18 - 1),
)
def test_a_sowing_the_pattern_reads_has_the_encoders_record_and_line(event, hole, player, seq):
    sowing = StoredEvent(
        event.game_id, seq, "sowed", {"hole": hole, "player": player}, event.recorded_at, event.recorded_by, "", ""
    )
    sowing = StoredEvent(**{**sowing.to_dict(), "prev_hash": event.prev_hash, "hash": event.hash})
    line = chain.event_text(sowing, linked=True)
    read = canonical_sowing(line)
    if read is None:
        return
    fast, payload_text, record_text = read
    assert fast == read_event(line) == sowing
    assert payload_text == chain.canonical_json(sowing.payload)
    assert record_text == chain.event_text(sowing) == _expected(sowing, False)


@settings(max_examples=60, deadline=None)
@given(
    game_id=hostile_text.filter(lambda text: text and "\x00" not in text and "\ud800" not in text),
    recorded_by=st.none() | hostile_text.filter(lambda text: "\ud800" not in text),
    payload=st.dictionaries(texts.filter(lambda text: "\ud800" not in text), st.integers() | st.none(), max_size=3),
)
def test_the_store_keeps_the_encoders_line_and_hashes_its_record(tmp_path_factory, game_id, recorded_by, payload):
    with SQLiteEventStore(str(tmp_path_factory.mktemp("store") / "events.sqlite3")) as store:
        stored = store.append(game_id, 0, [NewEvent("note", payload)], recorded_by=recorded_by).events
        (event,) = store.read(game_id)
        assert store.event_lines(game_id) == [_expected(event, True)]
        assert event.hash == chain.text_hash(chain.GENESIS, _expected(event, False)) == stored[0].hash


def _outside_the_chain_module():
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "recorder").rglob("*.py")):
        if path != root / "recorder" / "core" / "chain.py":
            yield path.relative_to(root), ast.parse(path.read_text())


def test_the_record_the_line_the_hash_and_the_link_come_from_the_chain_module_alone():
    """No other module hashes a record it built (``event_hash``), spells a line from
    ``StoredEvent.to_dict`` or checks a link against GENESIS by hand: the append path, the
    projections' check, the archive reader and the bench all go through core/chain.py
    (``new_links``, ``event_text``, ``line_text``, ``follows``, ``unlinked``). GENESIS is
    still written into the SQL triggers' text, which check links inside the database."""
    found = []
    for path, tree in _outside_the_chain_module():
        in_sql_text = {id(node) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for node in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "event_hash":
                found.append(f"{path}:{node.lineno} hashes a record of its own")
            if isinstance(node, ast.Attribute) and node.attr == "GENESIS" and id(node) not in in_sql_text:
                found.append(f"{path}:{node.lineno} checks a link by hand")
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", None) == "canonical_json"
                and any(getattr(getattr(a, "func", None), "attr", None) == "to_dict" for a in node.args)
            ):
                found.append(f"{path}:{node.lineno} spells a line from to_dict")
    assert not found, "\n".join(found)

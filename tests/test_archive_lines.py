"""An archive's line is one stored event, whichever way it is read.

Most lines of an export are sowings written exactly as the store writes them; the reader
takes those by one pattern (``ndjson.canonical_sowing``) and every other line as JSON
(``ndjson.read_event``). These tests hold the pattern to the JSON reading: on any line
it reads, it gives the very event the JSON reading gives, with the payload's canonical
text, and the line is the one the store would write for it.
"""

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from recorder.archive.ndjson import _BadLine, canonical_sowing, read_event
from recorder.core import chain
from recorder.store import StoredEvent
from recorder.store.interface import stored_line

# Plain letters, and every kind of character that JSON escapes or that a reader might trip on.
ODD = ["a", "Z", "1", "-", " ", '"', "\\", "/", "\x00", "\x1f", "\x7f", "\u2028", "\u0085", "é", "\ud800", "𝄞"]
texts = st.text(alphabet="ab1-", min_size=1, max_size=4) | st.text(alphabet=st.sampled_from(ODD), max_size=6)
HASH = "ab" * 32


def _line(game_id, hole, player, recorded_at, recorded_by, seq, kind="sowed", hash_=HASH, clock=None) -> str:
    payload = {"hole": hole} if player is None else {"hole": hole, "player": player}
    if clock is not None:
        payload["clock"] = clock
    event = StoredEvent(game_id, seq, kind, payload, recorded_at, recorded_by, HASH, hash_)
    return stored_line(event, chain.canonical_json(payload))


def _read(line: str) -> StoredEvent | str:
    try:
        return read_event(line)
    except _BadLine as bad:
        return f"refused: {bad.detail}"


# Ways a line can differ from the store's own writing: white space, escapes, key order (and one not JSON).
RESPELLINGS = [
    lambda line: line,
    lambda line: line.replace(",", ", ", 1),  # white space
    lambda line: line.replace('"hole":"', '"hole":"\\u0061', 1),  # an escape where none is needed
    lambda line: line.replace('"seq":', '"seq":0', 1),  # a leading zero: not JSON
    lambda line: line.replace('"type":"sowed"}', '"type":"sowed","type":"sowed"}'),  # a key twice
    lambda line: line + " ",
    lambda line: line.replace('{"hole"', '{"player":"south","hole"', 1),  # another key order
]


@settings(max_examples=500)
@given(
    game_id=texts,
    hole=texts,
    player=st.sampled_from(["south", "north", "south", "north", "east", None]),
    recorded_at=texts,
    recorded_by=st.none() | texts,
    seq=st.integers(1, 99) | st.integers(-3, 2**64),
    kind=st.sampled_from(["sowed", "sowed", "sowed", "annotated"]),
    hash_=st.sampled_from([HASH, HASH, HASH, "", "ABC", "x\\y"]),
    respell=st.sampled_from([RESPELLINGS[0]] * len(RESPELLINGS) + RESPELLINGS),
    clock=st.none()
    | st.fixed_dictionaries({"south": st.integers(0, 10**18), "north": st.integers(-2, 10**18)})
    | st.sampled_from([{"south": 1}, {"south": 1, "north": 2, "east": 3}, {"south": 1.5, "north": 0}]),
)
def test_a_line_the_pattern_reads_is_the_event_json_reads(
    game_id, hole, player, recorded_at, recorded_by, seq, kind, hash_, respell, clock
):
    line = respell(_line(game_id, hole, player, recorded_at, recorded_by, seq, kind, hash_, clock))
    sowing = canonical_sowing(line)
    event("read by the pattern" if sowing is not None else "left to the JSON reading")
    if sowing is None:
        return
    fast, payload_text, record_text = sowing  # what the reading kept of the line's text, beside the event
    read = _read(line)
    assert isinstance(read, StoredEvent), read
    assert fast == read and repr(fast) == repr(read)
    assert vars(fast) == vars(read)
    assert payload_text == chain.canonical_json(read.payload)
    assert stored_line(fast, payload_text) == line  # the line is what the store writes
    assert record_text == chain.record_text(fast, payload_text)  # the text the hash covers


@given(
    game_id=st.text(alphabet="abcdef0123456789-", min_size=1, max_size=20),
    hole=st.sampled_from(["a1", "f3", "zz"]),
    player=st.sampled_from(["south", "north"]),
    recorded_by=st.none() | st.text(alphabet="abé 𝄞", max_size=8),
    seq=st.integers(1, 10**18 - 1),
)
def test_a_sowing_as_the_store_writes_it_is_read_by_the_pattern(game_id, hole, player, recorded_by, seq):
    line = _line(game_id, hole, player, "2026-11-25T03:00:00.000000Z", recorded_by, seq)
    sowing = canonical_sowing(line)
    assert sowing is not None and sowing[0] == read_event(line)


@pytest.mark.parametrize(
    "line",
    [
        _line("", "a1", "south", "t", "by", 3),  # an empty game id: refused by the JSON reading
        _line("g", "a1", "south", "", "by", 3),
        _line("g", "a1", "south", "t", "by", 0),
        _line("g", "a1", "south", "t", "by", 10**18),  # past what the pattern takes: read as JSON
        _line("g", "a1", "south", "t", "b\\y", 3),
        _line("g", "a1", "south", "t", "by", 3, hash_=""),
    ],
)
def test_lines_the_pattern_leaves_to_the_json_reading(line):
    assert canonical_sowing(line) is None


def test_time_2_a_sowing_with_a_clock_reading_as_the_store_writes_it_is_read_by_the_pattern():
    payload = {"hole": "c1", "player": "south", "clock": {"south": 5_321_000, "north": 0}}
    stored = StoredEvent("g", 3, "sowed", payload, "2026-11-25T03:00:00.000000Z", "by", HASH, HASH)
    line = stored_line(stored, chain.canonical_json(payload))
    assert '"payload":{"clock":{"north":0,"south":5321000},"hole":"c1","player":"south"}' in line
    sowing = canonical_sowing(line)
    assert sowing is not None and sowing[0] == read_event(line) == stored
    assert repr(sowing[0]) == repr(read_event(line))  # the payload's keys in the JSON reading's order


@pytest.mark.parametrize(
    "clock",
    [{"south": -1, "north": 0}, {"south": 1}, {"south": 1.5, "north": 0}, {"south": 10**18, "north": 0}],
)
def test_time_2_a_reading_the_pattern_does_not_take_is_left_to_the_json_reading(clock):
    assert canonical_sowing(_line("g", "c1", "south", "t", "by", 3, clock=clock)) is None

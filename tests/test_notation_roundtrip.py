"""Round trips: export -> import -> export is byte-identical, and the imported game's state
equals the original's at every event, for every fixture and for random playouts of every
variant (effective line and full history, NDJSON event logs too)."""

import json

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from support.archives import event_logs
from support.playouts import random_record

from recorder.archive.transfer import Archive
from recorder.core.game import history
from recorder.games.service import Recorder, stored_pairs
from recorder.notation.writer import effective_events
from recorder.rules import VARIANTS
from recorder.store import SQLiteEventStore

NOTATION_FILES = sorted((FIXTURES / "notation").glob("*.mn"))
JSON_FIXTURES = sorted((FIXTURES / "games").glob("*.json"))


def memory_archive() -> Archive:
    return Archive(SQLiteEventStore(":memory:"), recorded_by="test", restore=True)


def imported_ids(archive: Archive, text: str) -> list[str]:
    reports = list(archive.import_notation(text, "round-trip"))
    assert [r.status for r in reports] == ["imported"] * len(reports), [r.error for r in reports]
    return [str(r.game_id) for r in reports]


def export(archive: Archive, game_ids, full_history: bool = False) -> str:
    return "".join(archive.export_notation(game_ids, full_history=full_history))


def states(archive: Archive, game_id: str, *, effective: bool = False) -> list:
    pairs = list(stored_pairs(archive.store.read(game_id)))
    if effective:
        pairs = effective_events(pairs)
    return [game.state for game in history(game_id, pairs)]


def record(recorder: Recorder, setup: dict, commands: list[dict]) -> str:
    game = recorder.create_game(setup, recorded_by="test").game
    for command in commands:
        game = recorder.record(game.game_id, command, expected_version=game.version, recorded_by="test").game
    return game.game_id


@pytest.mark.parametrize("path", NOTATION_FILES, ids=lambda p: p.name)
def test_every_notation_fixture_round_trips_byte_identically(path):
    text = path.read_text()
    archive = memory_archive()
    game_ids = imported_ids(archive, text)
    assert export(archive, game_ids, full_history=True) == text
    assert export(archive, archive.select(), full_history=True) == text  # oldest first: the file's order
    if "{retract" not in text:
        assert export(archive, game_ids) == text


@pytest.mark.parametrize("path", JSON_FIXTURES, ids=lambda p: p.stem)
def test_regression_a_json_fixture_and_its_notation_record_the_same_events(path):
    fixture = json.loads(path.read_text())
    recorder = Recorder(SQLiteEventStore(":memory:"))
    original = record(recorder, fixture["setup"], fixture["commands"])
    archive = Archive(recorder.store, recorded_by="test", restore=True)
    text = export(archive, [original])
    assert text == (FIXTURES / "notation" / f"{path.stem}.mn").read_text()
    target = memory_archive()  # into the same database, the import would find the original (docs/notation.md)
    (copy,) = imported_ids(target, text)
    payloads = [(e.type, e.payload) for e in recorder.store.read(original)]
    assert [(e.type, e.payload) for e in target.store.read(copy)] == payloads
    assert states(target, copy) == states(archive, original)
    assert Recorder(target.store).game(copy).state.outcome.name == fixture["expect"]["result"]


def round_trip(variant: str, seed: int, **chances) -> None:
    """Record a random game live, then check both exports' round trips and states."""
    played = random_record(variant, seed, max_events=90, metadata=seed % 2 == 0, **chances)
    recorder = Recorder(SQLiteEventStore(":memory:"))
    original = record(recorder, played.setup, played.commands)
    source = Archive(recorder.store, recorded_by="test", restore=True)
    for full_history in (False, True):
        text = export(source, [original], full_history)
        target = memory_archive()
        (copy,) = imported_ids(target, text)
        assert export(target, [copy], full_history) == text
        expected = states(source, original, effective=not full_history)
        assert states(target, copy) == expected


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(derandomize=True, max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_playouts_round_trip_with_equal_states_at_every_event(variant, seed):
    round_trip(variant, seed)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(derandomize=True, max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_playouts_with_notes_retractions_and_results_round_trip(variant, seed):
    round_trip(variant, seed, notes=0.1, retractions=0.05, results=0.02)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(derandomize=True, max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_ndjson_round_trip_keeps_ids_times_and_hashes(variant, seed):
    played = random_record(variant, seed, max_events=60, notes=0.1, retractions=0.05)
    recorder = Recorder(SQLiteEventStore(":memory:"))
    original = record(recorder, played.setup, played.commands)
    lines = event_logs(Archive(recorder.store), [original])
    target = memory_archive()
    (report,) = target.import_ndjson(lines.splitlines(), "log.ndjson")
    assert (report.status, report.game_id) == ("imported", original)
    assert target.store.read(original) == recorder.store.read(original)
    assert event_logs(target, [original]) == lines


# str.splitlines() splits at them and JSON writes them raw. U+0085 (NEL) splits lines too,
# but it is a C1 control character, refused in names and text wherever they enter
# (docs/security.md), so no record can hold one: see the test after this one.
LINE_BREAKS_OUTSIDE_JSON = ["\u2028", "\u2029"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(derandomize=True, max_examples=3, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    breaks=st.lists(st.sampled_from(LINE_BREAKS_OUTSIDE_JSON), min_size=3, max_size=3),
)
def test_notes_with_unicode_line_separators_round_trip_in_both_formats(variant, seed, breaks):
    """Names hold no line separator (recorder.core.names: refused wherever they enter,
    tests/test_name_characters.py); notes may, and every format keeps them."""
    played = random_record(variant, seed, max_events=40, metadata=True)
    setup = {**played.setup, "south": "Abeba Kidane", "north": "ሰላም", "event": "Open"}
    notes = [{"type": "annotate", "text": text} for text in (f"a{breaks[0]}b", f"ሰላም{breaks[1]}", f"c{breaks[2]}")]
    recorder = Recorder(SQLiteEventStore(":memory:"))
    original = record(recorder, setup, [*played.commands, *notes])
    source = Archive(recorder.store)
    ndjson = "".join(source.ndjson_archive([original]))
    target = memory_archive()
    (report,) = target.import_ndjson_text(ndjson, "names.ndjson")
    assert (report.status, report.game_id) == ("imported", original), report.error
    assert target.store.read(original) == recorder.store.read(original)
    assert "".join(target.ndjson_archive([original])) == ndjson
    notation = "".join(source.notation_archive([original], full_history=True))
    again = memory_archive()
    (copy,) = [r.game_id for r in again.import_notation(notation, "names.mn")]
    assert "".join(again.notation_archive([copy], full_history=True)) == notation
    assert states(again, copy) == states(source, original)


def test_a_name_holding_the_c1_control_nel_is_refused_on_import_not_split():
    played = random_record("qelat", 7, max_events=10)
    recorder = Recorder(SQLiteEventStore(":memory:"))
    original = record(recorder, {**played.setup, "south": "Abeba\x85Kidane"}, played.commands)
    ndjson = "".join(Archive(recorder.store).ndjson_archive([original]))
    (report,) = memory_archive().import_ndjson_text(ndjson, "nel.ndjson")
    assert report.status == "refused" and "no control characters" in report.error["detail"]

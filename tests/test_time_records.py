"""Clock readings (TIME-2) and time controls in the records: the NDJSON log and the
notation keep every reading through an export and an import, ``verify`` passes a timed
record, and a forged reading is refused by name."""

import json

import pytest
from click.testing import CliRunner
from conftest import Api, make_app
from support.archives import event_logs

from recorder import Game
from recorder.api.archive import schema_check
from recorder.archive.transfer import Archive
from recorder.cli.main import main
from recorder.core import chain
from recorder.notation.writer import write_game
from recorder.store import SQLiteEventStore

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
CONTROL = {"stages": [{"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000}, {"base_ms": 1_800_000}]}
SOWINGS = [  # (hole, South's clock, North's clock) just after each sowing
    ("c1", 5_398_250, 5_400_000),
    ("b2", 5_398_250, 5_371_001),
    ("d1", 5_300_000, 5_371_001),
    ("a2", 5_300_000, 5_402_000),  # an increment can put a clock above where it was
]


def timed_game(api: Api) -> str:
    game = api.create(**QELAT, event="Asmara Open", time_control=CONTROL)["id"]
    for hole, south, north in SOWINGS:
        api.command(game, type="sow", hole=hole, clock={"south": south, "north": north})
    api.command(game, type="sow", hole="e1")  # a sowing recorded without a reading
    api.command(game, type="result", kind="time", winner="south", clock={"south": 1_000, "north": 0})
    return game


def readings(events: list[dict]) -> list:
    return [event["payload"].get("clock") for event in events]


def unframed(archive: str) -> str:
    lines = archive.split("\n")
    return "".join(line + "\n" for line in lines[1:-2])


def fresh() -> Archive:
    return Archive(SQLiteEventStore(":memory:"), recorded_by="test", check_command=schema_check, restore=True)


def test_time_2_an_ndjson_log_keeps_every_reading_through_export_and_import(api: Api, client):
    game = timed_game(api)
    exported = unframed(client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True))
    archive = fresh()
    (report,) = archive.import_ndjson(exported.splitlines(), "timed.ndjson")
    assert report.status == "imported", report.to_json()
    assert event_logs(archive, archive.select()) == exported
    stored = [event.to_dict() for event in archive.store.read(game)]
    assert readings(stored) == readings(api.events(game))
    expected = [{"south": s, "north": n} for _, s, n in SOWINGS] + [None, {"south": 1_000, "north": 0}]
    assert readings(stored)[1:] == expected
    assert stored[0]["payload"]["metadata"]["time_control"] == CONTROL


def rehashed(events: list[dict]) -> list[dict]:
    """The events linked again from GENESIS: a forgery whose chain is intact."""
    prev = chain.GENESIS
    for event in events:
        event["prev_hash"] = prev
        event["hash"] = prev = chain.event_hash(prev, {k: event[k] for k in chain.RECORD_FIELDS})
    return events


@pytest.mark.parametrize(
    "clock",
    [{"south": -1, "north": 0}, {"south": 1}, {"south": 1.5, "north": 0}, {"south": True, "north": 0}, None],
    ids=["negative", "a-key-missing", "a-float", "a-boolean", "null"],
)
def test_time_2_a_forged_reading_in_an_ndjson_log_is_refused_and_stores_nothing(api: Api, client, clock):
    timed_game(api)
    exported = unframed(client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True))
    events = [json.loads(line) for line in exported.splitlines()]
    events[2]["payload"]["clock"] = clock
    lines = [chain.canonical_json(event) for event in rehashed(events)]
    archive = fresh()
    (report,) = archive.import_ndjson(lines, "forged.ndjson")
    assert report.status == "refused" and report.error is not None
    assert "clock" in report.error["detail"], report.error
    assert list(archive.select()) == []


def test_time_2_verify_passes_a_timed_record(app, api: Api, client):
    game = timed_game(api)
    report = client.get(f"/api/games/{game}/verify").get_json()
    assert report["ok"] and report["replay_valid"] and report["result"] == "south_wins"
    result = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"]])
    assert result.exit_code == 0 and f"ok      {game}:" in result.output


# -- The notation ------------------------------------------------------------------

TIMED_NOTATION = """[Event "Asmara Open"]
[South "Abeba"]
[North "Berhane"]
[Result "1-0"]
[Variant "qelat"]
[mazagebh_no_return "true"]
[FirstPlayer "south"]
[TimeControl "40/5400+30:1800+30"]

1. S c1 {[%clk 1:29:58.250 1:30:00]} 2. N b2 {[%clk 1:29:58.250 1:29:31.001]}
3. S d1 {[%clk 1:28:20 1:29:31.001]} 4. N a2 {[%clk 1:28:20 1:30:02]} 5. S e1
{result time south} {[%clk 0:00:01 0:00:00]} 1-0
"""


def notation_archive() -> Archive:
    return fresh()


def test_time_2_the_notation_round_trip_of_a_timed_game_is_byte_identical():
    archive = notation_archive()
    (report,) = archive.import_notation(TIMED_NOTATION, "timed.mn")
    assert report.status == "imported", report.to_json()
    assert "".join(archive.export_notation([str(report.game_id)])) == TIMED_NOTATION


def test_time_2_a_game_recorded_with_readings_exports_them_and_reads_them_back(api: Api, client):
    game = timed_game(api)
    text = client.get(f"/api/games/{game}/notation").get_data(as_text=True)
    assert '[TimeControl "40/5400+30:1800"]' in text and "{[%clk 1:29:58.250 1:30:00]}" in text
    archive = notation_archive()
    (report,) = archive.import_notation(text, "timed.mn")
    assert report.status == "imported", report.to_json()
    stored = [event.to_dict() for event in archive.store.read(str(report.game_id))]
    assert readings(stored) == readings(api.events(game))
    assert stored[0]["payload"]["metadata"]["time_control"] == CONTROL
    assert "".join(archive.export_notation([str(report.game_id)])) == text


@pytest.mark.parametrize(
    "change, detail",
    [
        (("5. S e1\n", "5. S e1 {[%clk 1:00 0:00:00]}\n"), "'1:00' is not a time"),
        (("5. S e1\n", "5. S e1 {[%clk 0:61:00 0:00:00]}\n"), "'0:61:00' is not a time"),
        (("5. S e1\n", "5. S e1 {[%clk 0:00:01]}\n"), "two times"),
        (("5. S e1\n", "5. S e1 {note} {[%clk 0:00:01 0:00:02]}\n"), "follows the sowing or decision"),
        (("1. S c1 {[%clk", "1. S {[%clk"), "follows the sowing or decision"),
        (("40/5400+30:1800+30", "40/5400+30:0"), "gives no time"),
        (("40/5400+30:1800+30", "0/5400+30:1800"), "not a time control"),
        (("40/5400+30:1800+30", "90 minutes"), "not a time control"),
    ],
)
def test_time_2_a_bad_reading_or_time_control_in_the_notation_is_refused_by_name(change, detail):
    archive = notation_archive()
    (report,) = archive.import_notation(TIMED_NOTATION.replace(*change), "bad.mn")
    assert report.status == "refused" and report.error is not None
    assert detail in report.error["detail"], report.error
    assert list(archive.select()) == []


def test_time_2_a_comment_that_looks_like_a_reading_is_written_quoted():
    game = Game("qelat", first_player="south")
    game.annotate("[%clk 1:00:00 1:00:00]")
    text = write_game(list(enumerate(game.events, start=1)))
    assert '{"[%clk 1:00:00 1:00:00]"}' in text


def test_time_2_the_move_list_gives_each_moves_reading(api: Api, client):
    game = timed_game(api)
    moves = client.get(f"/api/games/{game}/moves").get_json()["moves"]
    assert [move.get("clock") for move in moves] == readings(api.events(game))[1:]
    assert "clock" not in moves[4] and moves[0]["notation"] == "1. S c1"


def test_the_replay_command_shows_the_time_control_and_the_latest_reading(app, api: Api):
    game = timed_game(api)
    db = app.config["DATABASE"]
    latest = CliRunner().invoke(main, ["replay", game, "--db", db])
    assert latest.exit_code == 0, latest.output
    assert "time control: 40/5400+30:1800" in latest.output
    assert "clock: south 0:00:01, north 0:00:00 (event 7)" in latest.output
    sixth = CliRunner().invoke(main, ["replay", game, "--at", "6", "--db", db])  # after e1, sown without a reading
    assert "clock: south 1:28:20, north 1:30:02 (event 5)" in sixth.output
    first = CliRunner().invoke(main, ["replay", game, "--at", "1", "--db", db])
    assert "clock:" not in first.output


def test_time_2_readings_are_stored_and_verified_alike_on_either_backend(database):
    client = make_app(database).test_client()
    api = Api(client)
    game = timed_game(api)
    assert readings(api.events(game))[1:5] == [{"south": s, "north": n} for _, s, n in SOWINGS]
    report = client.get(f"/api/games/{game}/verify").get_json()
    assert report["ok"] and report["replay_valid"]

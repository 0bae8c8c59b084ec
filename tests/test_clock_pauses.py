"""The arbiter's pause and resume of the clocks (``clocks_paused``, ``clocks_resumed``) and
the clock face every view reads (``core.clocks.clock_face``): refused by name when they
cannot be, carried through the chain, verify, NDJSON and the notation, left standing by a
retraction, and shown in ``GET /api/games/{id}``."""

from datetime import datetime, timedelta

import pytest
from conftest import Api
from hypothesis import given, settings
from hypothesis import strategies as st
from support.archives import event_logs

from recorder import Game
from recorder.api.archive import schema_check
from recorder.archive.transfer import Archive
from recorder.core.clocks import clock_face
from recorder.errors import IllegalMove, InvalidRecord
from recorder.store import SQLiteEventStore

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
CONTROL = {"stages": [{"base_ms": 600_000, "increment_ms": 5_000}]}
AFTER_C1 = {"south": 598_000, "north": 600_000}
STOPPED = {"south": 598_000, "north": 571_500}
BAD_READINGS = [
    pytest.param({"south": 1}, id="a-key-missing"),
    pytest.param({"south": 1, "north": 2, "east": 3}, id="a-key-extra"),
    pytest.param({"south": -1, "north": 2}, id="negative"),
    pytest.param({"south": 1.5, "north": 2}, id="a-float"),
    pytest.param({"south": True, "north": 2}, id="a-boolean"),
    pytest.param({"south": "1", "north": 2}, id="a-string"),
    pytest.param(None, id="null"),
    pytest.param([1, 2], id="a-list"),
]


def timed(api: Api, **more) -> str:
    game = api.create(**QELAT, time_control=CONTROL, **more)["id"]
    api.command(game, type="sow", hole="c1", clock=AFTER_C1)
    return game


def count_events(api: Api, game: str) -> int:
    return len(api.events(game))


def assert_refused(api: Api, game: str, field: str, words: str, **command) -> None:
    before = count_events(api, game)
    problem = api.command(game, expect=422, **command)
    named = problem.get("field") == field or field in problem.get("errors", {})
    assert named and (words in problem["detail"] or field in problem.get("errors", {})), problem
    assert count_events(api, game) == before


# -- The commands ------------------------------------------------------------------------


def test_pausing_and_resuming_record_their_readings_in_the_games_stream(api: Api):
    game = timed(api)
    paused = api.command(game, type="pause_clocks", clock=STOPPED)
    assert paused["event"]["type"] == "clocks_paused" and paused["event"]["payload"] == {"clock": STOPPED}
    resumed = api.command(game, type="resume_clocks")
    assert resumed["event"]["type"] == "clocks_resumed" and resumed["event"]["payload"] == {}
    again = api.command(game, type="pause_clocks", clock=STOPPED)
    positions = [{**body["state"], "version": None} for body in (paused, resumed, again)]
    assert positions[0] == positions[1] == positions[2] and again["version"] == 5
    changed = api.command(game, type="resume_clocks", clock={"south": 600_000, "north": 571_500})
    assert changed["event"]["payload"] == {"clock": {"south": 600_000, "north": 571_500}}


def test_a_pause_in_a_game_without_a_time_control_is_refused_and_stores_nothing(api: Api):
    game = api.create(**QELAT)["id"]
    api.command(game, type="sow", hole="c1", clock=AFTER_C1)  # a reading alone gives no clocks to stop
    assert_refused(api, game, "type", "no time control", type="pause_clocks", clock=STOPPED)
    assert_refused(api, game, "type", "no time control", type="resume_clocks")


def test_pausing_paused_clocks_or_resuming_running_ones_is_refused_and_stores_nothing(api: Api):
    game = timed(api)
    assert_refused(api, game, "type", "not paused", type="resume_clocks")
    api.command(game, type="pause_clocks", clock=STOPPED)
    assert_refused(api, game, "type", "already paused", type="pause_clocks", clock=STOPPED)


def test_a_pause_or_resume_after_the_end_is_refused_and_stores_nothing(api: Api):
    game = timed(api)
    api.command(game, type="pause_clocks", clock=STOPPED)
    api.command(game, type="result", kind="adjudication", winner=None)
    assert_refused(api, game, "type", "game is over", type="resume_clocks")
    other = timed(api)
    api.command(other, type="result", kind="time", winner="south", clock={"south": 5, "north": 0})
    assert_refused(api, other, "type", "game is over", type="pause_clocks", clock=STOPPED)


@pytest.mark.parametrize("clock", BAD_READINGS)
def test_a_malformed_reading_on_a_pause_or_resume_is_refused_by_name(api: Api, clock):
    game = timed(api)
    assert_refused(api, game, "clock", "clock", type="pause_clocks", clock=clock)
    api.command(game, type="pause_clocks", clock=STOPPED)
    assert_refused(api, game, "clock", "clock", type="resume_clocks", clock=clock)


def test_a_pause_without_its_reading_is_refused_by_name(api: Api):
    game = timed(api)
    assert_refused(api, game, "clock", "clock", type="pause_clocks")
    with pytest.raises(InvalidRecord, match="clock is required"):
        Game("qelat", first_player="south", time_control=CONTROL).play({"type": "pause_clocks"})


def test_a_pause_asks_the_same_right_as_recording_a_move(api: Api, anon):
    """Without a token, a pause is refused as a move is, and stores nothing."""
    game = timed(api)
    url, match = f"/api/games/{game}/commands", {"If-Match": '"2"'}
    sow = anon.post(url, json={"type": "sow", "hole": "b2"}, headers=match)
    pause = anon.post(url, json={"type": "pause_clocks", "clock": STOPPED}, headers=match)
    assert pause.status_code == sow.status_code == 401
    assert count_events(api, game) == 2


def test_a_pause_may_come_while_a_decision_is_awaited_and_moves_go_on_while_paused():
    game = Game("qelat", first_player="south", time_control=CONTROL)
    game.pause_clocks(STOPPED)
    game.sow("c1", clock=AFTER_C1)  # a move recorded while paused is the record's to keep
    game.resume_clocks()
    assert [event.type for event in game.events[1:]] == ["clocks_paused", "sowed", "clocks_resumed"]


# -- The record ----------------------------------------------------------------------------


def paused_game() -> Game:
    game = Game("qelat", first_player="south", south="Abeba", north="Berhane", time_control=CONTROL)
    game.sow("c1", clock=AFTER_C1)
    game.pause_clocks(STOPPED)
    game.annotate("a spectator fainted")
    game.resume_clocks()
    game.sow("b2", clock={"south": 598_000, "north": 560_000})
    game.pause_clocks({"south": 580_250, "north": 560_000})
    game.resume_clocks({"south": 640_250, "north": 560_000})  # two minutes added, a penalty
    game.sow("d1")
    return game


def test_a_retraction_withdraws_moves_and_leaves_the_pauses_standing():
    game = paused_game()
    game.pause_clocks({"south": 1_000, "north": 2_000})
    game.retract(2, "d1 was misheard, and b2")
    assert [event.type for event in game.events[-2:]] == ["clocks_paused", "moves_retracted"]
    face = clock_face(game._game, lambda seq: f"at {seq}")
    assert face == {"south": 1_000, "north": 2_000, "running": None, "paused": True, "at": "at 10", "seq": 10}
    with pytest.raises(InvalidRecord, match="already paused"):
        game.pause_clocks(STOPPED)


def test_a_record_with_pauses_replays_and_verifies(api: Api, client):
    game = timed(api)
    api.command(game, type="pause_clocks", clock=STOPPED)
    api.command(game, type="resume_clocks")
    api.command(game, type="sow", hole="b2", clock=STOPPED)
    report = client.get(f"/api/games/{game}/verify").get_json()
    assert report["ok"] and report["replay_valid"], report
    replayed = Game.replay([{"type": e["type"], "payload": e["payload"]} for e in api.events(game)])
    assert [e.type for e in replayed.events][2:4] == ["clocks_paused", "clocks_resumed"]


def fresh() -> Archive:
    return Archive(SQLiteEventStore(":memory:"), recorded_by="test", check_command=schema_check, restore=True)


def test_an_ndjson_log_keeps_every_pause_and_resume_through_export_and_import(api: Api, client):
    game = timed(api)
    api.command(game, type="pause_clocks", clock=STOPPED)
    api.command(game, type="resume_clocks", clock=AFTER_C1)
    lines = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True).split("\n")
    exported = "".join(line + "\n" for line in lines[1:-2])
    archive = fresh()
    (report,) = archive.import_ndjson(exported.splitlines(), "paused.ndjson")
    assert report.status == "imported", report.to_json()
    assert event_logs(archive, archive.select()) == exported


PAUSED_NOTATION = """[South "Abeba"]
[North "Berhane"]
[Result "*"]
[Variant "qelat"]
[mazagebh_no_return "true"]
[FirstPlayer "south"]
[TimeControl "600+5"]

1. S c1 {[%clk 0:09:58 0:10:00]} {[%pause 0:09:58 0:09:31.500]}
{a spectator fainted} {[%resume]} 2. N b2 {[%clk 0:09:58 0:09:20]}
{[%pause 0:09:40.250 0:09:20]} {[%resume 0:10:40.250 0:09:20]} 3. S d1 *
"""


def test_the_notation_writes_pauses_and_resumes_and_reads_them_back_byte_identical():
    game = paused_game()
    from recorder.notation.writer import write_game

    assert write_game(list(enumerate(game.events, start=1))) == PAUSED_NOTATION
    archive = fresh()
    (report,) = archive.import_notation(PAUSED_NOTATION, "paused.mn")
    assert report.status == "imported", report.to_json()
    stored = [(e.type, e.payload) for e in archive.store.read(str(report.game_id))]
    assert stored[1:] == [(event.type, event.payload()) for event in game.events[1:]]
    assert "".join(archive.export_notation([str(report.game_id)])) == PAUSED_NOTATION


def test_the_notation_writes_a_comment_that_looks_like_a_pause_quoted():
    from recorder.notation.writer import write_game

    game = Game("qelat", first_player="south")
    game.annotate("[%pause 1:00:00 1:00:00]")
    game.annotate("[%resume]")
    text = write_game(list(enumerate(game.events, start=1)))
    assert '{"[%pause 1:00:00 1:00:00]"} {"[%resume]"}' in text


@pytest.mark.parametrize(
    "change, detail",
    [
        ("{[%pause 0:09:58]}", "a pause holds the two clocks' times"),
        ("{[%pause]}", "a pause holds the two clocks' times"),
        ("{[%pause 0:09:58 0:09:31 0:00:01 0:00:02]}", "a pause holds the two clocks' times"),
        ("{[%pause " + "0:00:01 " * 10_000 + "]}", "a pause holds the two clocks' times"),
        ("{[%pause 0:09:58 0:61:00]}", "'0:61:00' is not a time"),
        ("{[%resume 0:09:58]}", "a resume none or both"),
        ("{[%resume]}", "not paused"),
    ],
)
def test_a_bad_pause_in_the_notation_is_refused_by_name(change, detail):
    text = PAUSED_NOTATION.replace("{[%pause 0:09:58 0:09:31.500]}", change)
    (report,) = fresh().import_notation(text, "bad.mn")
    assert report.status == "refused" and report.error is not None
    assert detail in report.error["detail"], report.error


def test_the_move_list_and_the_trace_pass_over_pauses(api: Api, client):
    game = timed(api)
    api.command(game, type="pause_clocks", clock=STOPPED)
    api.command(game, type="resume_clocks")
    moves = client.get(f"/api/games/{game}/moves").get_json()["moves"]
    assert [move["type"] for move in moves] == ["sowed"]


# -- The clock face ----------------------------------------------------------------------------


def face(game: Game) -> dict | None:
    return clock_face(game._game, lambda seq: f"at {seq}")


def test_the_face_is_null_without_a_time_control_or_a_reading():
    assert face(Game("qelat", first_player="south")) is None
    game = Game("qelat", first_player="south")
    game.sow("c1", clock=AFTER_C1)
    assert face(game) == {**AFTER_C1, "running": "north", "paused": False, "at": "at 2", "seq": 2}


def test_the_face_holds_the_base_time_and_no_running_clock_before_the_first_move():
    game = Game("qelat", first_player="south", time_control=CONTROL)
    assert face(game) == {"south": 600_000, "north": 600_000, "running": None, "paused": False, "at": "at 1", "seq": 1}


def test_the_face_runs_the_clock_of_the_player_to_move_from_the_latest_reading():
    game = paused_game()
    # d1 (event 9) carried no reading: the latest is the resume's (event 8); North is to move.
    assert face(game) == {
        "south": 640_250,
        "north": 560_000,
        "running": "north",
        "paused": False,
        "at": "at 8",
        "seq": 8,
    }


def test_the_face_stops_both_clocks_while_paused_and_when_the_game_is_over():
    game = Game("qelat", first_player="south", time_control=CONTROL)
    game.sow("c1", clock=AFTER_C1)
    game.pause_clocks(STOPPED)
    assert face(game) == {**STOPPED, "running": None, "paused": True, "at": "at 3", "seq": 3}
    game.resume_clocks()
    assert face(game) == {**STOPPED, "running": "north", "paused": False, "at": "at 4", "seq": 4}
    game.result("time", "south", clock={"south": 1, "north": 0})
    assert face(game) == {"south": 1, "north": 0, "running": None, "paused": False, "at": "at 5", "seq": 5}


def test_the_games_json_carries_the_face_with_the_time_its_reading_was_recorded(api: Api, client):
    plain = api.create(**QELAT)
    assert plain["clock"] is None and client.get(f"/api/games/{plain['id']}").get_json()["clock"] is None
    created = api.create(**QELAT, time_control=CONTROL)
    assert created["clock"] == {
        "south": 600_000,
        "north": 600_000,
        "running": None,
        "paused": False,
        "at": created["created_at"],
        "seq": 1,
    }
    game = created["id"]
    api.command(game, type="sow", hole="c1", clock=AFTER_C1)
    paused = api.command(game, type="pause_clocks", clock=STOPPED)["event"]
    shown = client.get(f"/api/games/{game}").get_json()["clock"]
    assert shown == {**STOPPED, "running": None, "paused": True, "at": paused["recorded_at"], "seq": 3}
    resumed = api.command(game, type="resume_clocks")["event"]
    shown = client.get(f"/api/games/{game}").get_json()["clock"]
    assert shown == {**STOPPED, "running": "north", "paused": False, "at": resumed["recorded_at"], "seq": 4}


def test_a_delayed_broadcast_ticks_its_clocks_as_late_as_it_shows_the_moves(app, client, anon):
    """A public reader of a tournament that holds moves back sees each reading's ``at``
    later by the delay, so the running clock ticks on the reader's timeline, not ahead of
    it; the tournament's own readers see the hall's time."""
    body = {"name": "Axum Open", "variant": "qelat", "options": {"mazagebh_no_return": True}}
    tournament = client.post("/api/tournaments", json={**body, "format": "round_robin", "broadcast_delay": 900})
    t = tournament.get_json()["id"]
    for name in ("Abeba", "Berhane"):
        client.post(f"/api/tournaments/{t}/players", json={"name": name})
    client.post(f"/api/tournaments/{t}/rounds", json={})
    game = client.post(f"/api/tournaments/{t}/rounds/1/boards/1/game", json={"first_player": "south"}).get_json()["id"]
    sowed = Api(client).command(game, type="sow", hole="c1", clock=AFTER_C1)["event"]
    recorded = datetime.fromisoformat(sowed["recorded_at"].replace("Z", "+00:00"))
    app.config["CLOCK"] = lambda: recorded + timedelta(seconds=900)
    public = anon.get(f"/api/games/{game}").get_json()["clock"]
    later = (recorded + timedelta(seconds=900)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert public == {**AFTER_C1, "running": "north", "paused": False, "at": later, "seq": 2}
    assert client.get(f"/api/games/{game}").get_json()["clock"]["at"] == sowed["recorded_at"]


def test_the_face_takes_the_reading_of_the_latest_effective_move_once_a_retraction_withdrew_one():
    game = Game("qelat", first_player="south")
    game.sow("c1", clock=AFTER_C1)
    game.sow("b2")
    game.sow("d1", clock={"south": 1, "north": 2})
    assert face(game)["seq"] == 4
    game.retract(2, "d1 and b2 were misread")
    assert face(game) == {**AFTER_C1, "running": "north", "paused": False, "at": "at 2", "seq": 2}
    game.retract(1, "c1 too")
    assert face(game) is None


def test_the_openapi_document_shows_the_pause_and_resume_commands_and_the_face(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert schemas["PauseClocksCommand"]["required"] == ["clock", "type"]
    assert "clock" in schemas["ResumeClocksCommand"]["properties"]
    assert "clock" in schemas["Game"]["properties"]


# -- Any mix of moves, pauses, resumes and retractions ----------------------------------------

READING = st.fixed_dictionaries({"south": st.integers(0, 10**7), "north": st.integers(0, 10**7)})
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("sow"), st.integers(0, 5), st.none() | READING),
        st.tuples(st.just("pause"), READING),
        st.tuples(st.just("resume"), st.none() | READING),
        st.tuples(st.just("retract"), st.integers(1, 2)),
    ),
    max_size=24,
)


def played(steps) -> Game:
    """The steps a game allows, in order; the rest refused (and so not recorded)."""
    game = Game("qelat", first_player="south", south="Abeba", north="Berhane", time_control=CONTROL)
    for step in steps:
        try:
            if step[0] == "sow" and game.legal_moves():
                game.sow(game.legal_moves()[step[1] % len(game.legal_moves())], clock=step[2])
            elif step[0] == "pause":
                game.pause_clocks(step[1])
            elif step[0] == "resume":
                game.resume_clocks(step[1])
            elif step[0] == "retract":
                game.retract(step[1], "misread")
        except (InvalidRecord, IllegalMove):
            pass
    return game


@settings(max_examples=40, deadline=None, derandomize=True)
@given(STEPS)
def test_any_record_of_pauses_replays_to_the_same_face_and_its_notation_reads_back_the_same(steps):
    game = played(steps)
    stops = [event.type for event in game.events if event.type in ("clocks_paused", "clocks_resumed")]
    assert face(game)["paused"] == (bool(stops) and stops[-1] == "clocks_paused")
    assert all(a != b for a, b in zip(stops, stops[1:]))  # a pause, a resume, a pause...: never twice running
    replayed = Game.replay([{"type": e.type, "payload": e.payload()} for e in game.events])
    assert replayed.events == game.events and face(replayed) == face(game)
    from recorder.notation.writer import write_game

    for full_history in (True, False):  # every event, or the effective line with every pause
        text = write_game(list(enumerate(game.events, start=1)), full_history=full_history)
        archive = fresh()
        (report,) = archive.import_notation(text, "any.mn")
        assert report.status == "imported", (text, report.to_json())
        assert "".join(archive.export_notation([str(report.game_id)], full_history=full_history)) == text

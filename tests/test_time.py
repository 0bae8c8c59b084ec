"""Time (rules/README.md §10): the ``time`` result (TIME-1), clock readings on sowings and
decisions (TIME-2), and a game's time control (its metadata), through the rules, the
API, and a record read back."""

import pytest
from conftest import Api
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder import Game
from recorder.core.chain import GENESIS, canonical_json, event_hash
from recorder.core.events import ResultRecorded, Sowed, event_from_record, setup_of
from recorder.errors import InvalidRecord
from recorder.rules.values import MAX_STORED_INT

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
CLOCK = {"south": 5_321_000, "north": 5_400_000}
BAD_CLOCKS = [
    pytest.param({"south": 1}, id="a-key-missing"),
    pytest.param({"south": 1, "north": 2, "east": 3}, id="a-key-extra"),
    pytest.param({"south": 1, "west": 2}, id="a-wrong-key"),
    pytest.param({"south": -1, "north": 2}, id="negative"),
    pytest.param({"south": 1.0, "north": 2}, id="a-float"),
    pytest.param({"south": True, "north": 2}, id="a-boolean"),
    pytest.param({"south": "1", "north": 2}, id="a-string"),
    pytest.param({"south": None, "north": 2}, id="a-null-reading"),
    pytest.param(None, id="null"),
    pytest.param([1, 2], id="a-list"),
    pytest.param(5400000, id="a-number"),
    pytest.param({"south": MAX_STORED_INT + 1, "north": 0}, id="past-64-bits"),
]


def qelat() -> Game:
    return Game("qelat", first_player="south")


# -- TIME-1 ------------------------------------------------------------------------


@pytest.mark.parametrize("winner", ["south", "north", None])
def test_time_1_a_flag_fallen_ends_the_game_with_a_winner_or_a_draw(winner):
    game = qelat()
    game.sow("c1")
    game.result("time", winner)
    assert game.is_over and game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (winner, "time")
    assert game.state_json()["result"] == {"south": "south_wins", "north": "north_wins", None: "draw"}[winner]


def test_time_1_leaves_the_board_as_it_is_and_nothing_follows_it():
    game = qelat()
    game.sow("c1")
    holes = game.state_json()["holes"]
    game.result("time", "north")
    assert game.state_json()["holes"] == holes and game.to_move is None
    with pytest.raises(Exception, match="over"):
        game.sow("d1")


def test_time_1_ends_a_whole_match_at_once():
    game = Game("tuz", first_player="south")
    game.opening("plain")
    game.result("time", None)
    assert game.is_over and game.outcome is not None and game.outcome.reason == "time"


def test_gen_28_a_resignation_is_still_never_a_draw():
    with pytest.raises(InvalidRecord, match="time can be a draw"):
        qelat().result("resignation", None)


# -- TIME-2 ------------------------------------------------------------------------


def test_time_2_a_reading_changes_nothing_in_the_state():
    timed, plain = qelat(), qelat()
    for hole, reading in (("c1", CLOCK), ("b2", {"south": 5_321_000, "north": 5_377_500})):
        timed.play({"type": "sow", "hole": hole, "clock": reading})
        plain.sow(hole)
    assert timed.state == plain.state
    assert timed.events[1] == Sowed("c1", "south", CLOCK)
    assert timed.events[1].payload() == {"hole": "c1", "player": "south", "clock": CLOCK}


def test_time_2_every_decision_may_carry_a_reading():
    game = Game("tuz", first_player="south")
    game.play({"type": "opening", "choice": "plain", "clock": CLOCK})
    game.play({"type": "result", "kind": "time", "winner": "south", "clock": {"south": 1, "north": 0}})
    assert [event.payload().get("clock") for event in game.events[1:]] == [CLOCK, {"south": 1, "north": 0}]
    assert Game.replay([{"type": e.type, "payload": e.payload()} for e in game.events]).state == game.state


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_time_2_a_reading_of_any_other_shape_makes_the_event_invalid(clock):
    for command in ({"type": "sow", "hole": "c1"}, {"type": "result", "kind": "time", "winner": "north"}):
        game = qelat()
        with pytest.raises(InvalidRecord) as refused:
            game.play({**command, "clock": clock})
        assert refused.value.extra.get("field") == "clock"
        assert len(game.events) == 1


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_time_2_a_stored_record_with_a_bad_reading_is_refused_on_replay(clock):
    setup = qelat().events[0]
    records = [setup, {"type": "sowed", "payload": {"hole": "c1", "player": "south", "clock": clock}}]
    with pytest.raises((InvalidRecord, TypeError)):
        Game.replay(records)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, MAX_STORED_INT), st.integers(0, MAX_STORED_INT)), min_size=4, max_size=4))
def test_time_2_any_two_integers_at_least_zero_are_valid_in_any_order(readings):
    game = qelat()
    for hole, (south, north) in zip(("c1", "b2", "d1", "a2"), readings, strict=True):
        legal = game.legal_moves()
        hole = hole if hole in legal else legal[0]
        game.play({"type": "sow", "hole": hole, "clock": {"south": south, "north": north}})
    replayed = Game.replay([{"type": e.type, "payload": e.payload()} for e in game.events])
    assert replayed.events == game.events


def test_time_2_a_record_without_readings_keeps_its_canonical_text_and_hashes():
    """The payloads (and so the hashes) of events without a reading are what they were
    before readings existed: the texts below are those of the record service until then."""
    assert canonical_json(Sowed("c1", "south").payload()) == '{"hole":"c1","player":"south"}'
    result = ResultRecorded("resignation", "north")
    assert canonical_json(result.payload()) == '{"kind":"resignation","note":null,"winner":"north"}'
    record = {
        "game_id": "g",
        "seq": 2,
        "type": "sowed",
        "payload": Sowed("c1", "south").payload(),
        "recorded_at": "2026-12-07T00:00:00Z",
        "recorded_by": None,
    }
    assert event_hash(GENESIS, record) == "44d0826db49ca0cd724c17bb7b25e0fb314a695ce0888dee327adc97ba9d731b"


def test_time_2_clock_null_in_a_stored_record_is_no_reading():
    with pytest.raises(TypeError, match="TIME-2"):
        event_from_record("sowed", {"hole": "c1", "player": "south", "clock": None})


# -- The API -----------------------------------------------------------------------


def test_time_2_a_command_carries_its_reading_into_the_stored_event(api: Api):
    game = api.create(**QELAT)
    body = api.command(game["id"], type="sow", hole="c1", clock=CLOCK)
    assert body["event"]["payload"] == {"hole": "c1", "player": "south", "clock": CLOCK}
    result = api.command(game["id"], type="result", kind="time", winner=None, clock={"south": 0, "north": 0})
    assert result["state"]["result"] == "draw" and result["state"]["result_reason"] == "time"


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_time_2_a_bad_reading_is_a_422_naming_clock_and_stores_nothing(api: Api, client, clock):
    game = api.create(**QELAT)
    for command in ({"type": "sow", "hole": "c1"}, {"type": "result", "kind": "time", "winner": "north"}):
        response = client.post(
            f"/api/games/{game['id']}/commands", json={**command, "clock": clock}, headers={"If-Match": '"1"'}
        )
        assert response.status_code == 422, response.get_json()
        assert "clock" in response.get_json()["detail"] or "clock" in response.get_json().get("errors", {})
    assert len(api.events(game["id"])) == 1


@pytest.mark.parametrize("kind", ["retract", "annotate"])
def test_time_2_only_sowings_and_decisions_carry_a_reading(api: Api, kind):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="c1")
    by_kind: dict[str, dict] = {"retract": {"count": 1, "reason": "misread"}, "annotate": {"text": "ok"}}
    fields = by_kind[kind]
    api.command(game["id"], expect=422, type=kind, clock=CLOCK, **fields)
    assert len(api.events(game["id"])) == 2


FISCHER = {"stages": [{"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000}, {"base_ms": 1_800_000}]}
BRONSTEIN = {"stages": [{"base_ms": 0, "delay_ms": 5_000}]}


@pytest.mark.parametrize("control", [FISCHER, BRONSTEIN], ids=["fischer-stages", "bronstein"])
def test_a_time_control_is_kept_in_the_games_metadata(api: Api, client, control):
    game = api.create(**QELAT, time_control=control)
    assert game["metadata"]["time_control"] == control
    assert client.get(f"/api/games/{game['id']}").get_json()["metadata"]["time_control"] == control
    assert setup_of(Game.replay(api_events(api, game["id"])).events[0]).metadata["time_control"] == control


def api_events(api: Api, game_id: str) -> list[dict]:
    return [{"type": e["type"], "payload": e["payload"]} for e in api.events(game_id)]


IMPOSSIBLE_CONTROLS = [
    pytest.param({"stages": [{"base_ms": -1}]}, id="negative-base"),
    pytest.param({"stages": [{"base_ms": 60_000, "increment_ms": -5}]}, id="negative-increment"),
    pytest.param({"stages": [{"base_ms": 0}]}, id="zero-base-no-increment"),
    pytest.param({"stages": [{"moves": 0, "base_ms": 60_000}, {"base_ms": 60_000}]}, id="a-stage-of-zero-moves"),
    pytest.param({"stages": [{"base_ms": 60_000}, {"base_ms": 60_000}]}, id="a-first-stage-without-moves"),
    pytest.param({"stages": [{"moves": 40, "base_ms": 60_000}]}, id="a-last-stage-with-moves"),
    pytest.param({"stages": [{"base_ms": 60_000, "increment_ms": 1, "delay_ms": 1}]}, id="increment-and-delay"),
    pytest.param({"stages": []}, id="no-stage"),
    pytest.param({"stages": [{"base_ms": 60_000, "bonus": 1}]}, id="an-unknown-key"),
    pytest.param({"stages": [{"base_ms": 1.5}]}, id="a-float"),
    pytest.param({"stages": [{"base_ms": True}]}, id="a-boolean"),
    pytest.param({"base_ms": 60_000}, id="no-stages"),
    pytest.param("90+30", id="a-string"),
]


@pytest.mark.parametrize("control", IMPOSSIBLE_CONTROLS)
def test_a_time_control_that_cannot_exist_is_a_422_naming_it_and_stores_nothing(api: Api, client, control):
    before = len(client.get("/api/games").get_json()["games"])
    problem = api.create(expect=422, **QELAT, time_control=control)
    named = problem.get("field") == "time_control" and "time_control" in problem["detail"]
    assert named or "time_control" in problem.get("errors", {}), problem
    assert len(client.get("/api/games").get_json()["games"]) == before


def test_the_openapi_document_shows_the_reading_and_the_time_control(client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    for command in ("SowCommand", "RaceCommand", "OpeningCommand", "LotCommand", "NextRoundCommand", "ResultCommand"):
        assert "clock" in schemas[command]["properties"], command
    for command in ("RetractCommand", "AnnotateCommand"):
        assert "clock" not in schemas[command]["properties"]
    assert "time" in schemas["ResultCommand"]["properties"]["kind"]["enum"]
    assert "time_control" in schemas["GameCreate"]["properties"]


def test_the_game_facade_takes_a_time_control_and_readings():
    game = Game("qelat", first_player="south", time_control=BRONSTEIN)
    game.sow("c1", clock=CLOCK)
    game.result("time", "south", clock={"south": 1, "north": 0})
    assert setup_of(game.events[0]).metadata == {"time_control": BRONSTEIN}
    assert [event.payload().get("clock") for event in game.events[1:]] == [CLOCK, {"south": 1, "north": 0}]
    with pytest.raises(InvalidRecord, match="time_control"):
        Game("qelat", first_player="south", time_control={"stages": [{"base_ms": 0}]})

"""A player's sign-in (kind ``player``): issued per entrant for his badge, it checks him in
for a round (present, or absent through the arbiter's absence decision) and confirms or
disputes the record of his own game, each an event attributed to him; 403 everywhere
else. Confirmations, disputes and decisions are events in the game's stream, covered by
the chain; a tournament that requires confirmation counts a result only once both
players confirmed it."""

import json
import sqlite3
from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_support import ADMIN_TOKEN, Organiser, bearer, fixture_commands, make_app

from recorder.api.archive import schema_check, without_signoffs
from recorder.audit import dossier
from recorder.audit.checkpoints import SigningKey
from recorder.audit.dossier_check import check
from recorder.cli.main import main
from recorder.core.chain import canonical_json, event_text, first_broken_link, stored_hash
from recorder.errors import InvalidRecord
from recorder.store.sqlite import SQLiteEventStore


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


class Hall:
    """A manual tournament of four, round 1 paired on two boards, its arbiter's token and
    every player's sign-in."""

    def __init__(self, client, **settings):
        self.client = client
        self.admin = Organiser(client)
        self.t = self.admin.create(name="Hall", variant="gabata", format="manual", rounds=2, **settings)["id"]
        self.admin.add_players(self.t, *[f"Player {n}" for n in range(1, 5)])
        self.admin.pair(self.t, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])
        self.arbiter = self.admin.issue_token(self.t, "Chief arbiter")["token"]
        issued = self.post("/players/signins", token=self.arbiter)
        assert issued.status_code == 201, issued.get_json()
        assert issued.headers["Cache-Control"] == "no-store"
        self.badges = {s["player"]: s for s in issued.get_json()["signins"]}
        self.players = {n: badge["token"] for n, badge in self.badges.items()}
        self.game = f"{self.t[2:]}-r1-b1"

    def post(self, path: str, body: dict | None = None, token: str | None = None):
        auth = bearer(token) if token else {}
        return self.client.post(f"/api/tournaments/{self.t}{path}", json=body or {}, headers=auth)

    def version(self, game_id: str | None = None) -> int:
        return self.client.get(f"/api/games/{game_id or self.game}").get_json().get("version", 1)  # 1: no game yet

    def sign(self, what: str, token: str, body: dict | None = None, game_id: str | None = None):
        game_id = game_id or self.game
        body = {**(body or {}), "expected_version": self.version(game_id)}
        return self.client.post(f"/api/games/{game_id}/{what}", json=body, headers=bearer(token))

    def play_and_resign(self, sowings: int = 4, board: int = 1):
        game_id = f"{self.t[2:]}-r1-b{board}"
        self.admin.start(self.t, 1, board)
        self.admin.play(game_id, fixture_commands("gabata-default")[:sowings])
        self.admin.command(game_id, type="result", kind="resignation", winner="south")
        return game_id

    def events(self, game_id: str | None = None) -> list[dict]:
        return self.client.get(f"/api/games/{game_id or self.game}/events").get_json()["events"]


def test_a_players_sign_in_is_issued_once_per_player_for_his_badge(app, client):
    hall = Hall(client)
    assert sorted(hall.badges) == [1, 2, 3, 4]
    one = hall.badges[1]
    assert (one["kind"], one["name"], one["holder"]) == ("player", "Player 1", "Player 1")
    assert one["address"] == f"http://localhost/sign-in#token={one['token']}&next=/tournaments/{hall.t}"
    assert one["qr_svg"].startswith("<svg")
    again = hall.post("/players/signins", {"players": [1]}, token=hall.arbiter).get_json()["signins"]
    assert [s["player"] for s in again] == [1]
    assert hall.sign("confirmations", one["token"]).status_code == 401  # the reprinted badge revoked it
    listed = client.get(f"/api/tournaments/{hall.t}/players/signins", headers=bearer(hall.arbiter)).get_json()
    assert [(s["player"], s["revoked_at"] is None) for s in listed["signins"]] == [
        (1, False),
        (2, True),
        (3, True),
        (4, True),
        (1, True),
    ]
    assert all("token" not in s for s in listed["signins"])
    hall.admin.start(hall.t, 1, 1)
    self_answer = client.get(f"/api/tokens/self?game={hall.game}", headers=bearer(hall.players[2])).get_json()
    assert (self_answer["kind"], self_answer["player"], self_answer["may_sign"]) == ("player", 2, True)


def test_a_player_checks_in_present_or_absent_through_the_absence_decision(client):
    hall = Hall(client)
    present = hall.post("/rounds/2/check-in", {"present": True}, token=hall.players[1])
    assert present.status_code == 201, present.get_json()
    assert present.get_json()["check_ins"] == [{"round": 2, "player": 1}]
    assert hall.post("/rounds/2/check-in", {"present": True}, token=hall.players[1]).status_code == 409
    absent = hall.post("/rounds/2/check-in", {"present": False}, token=hall.players[3])
    assert absent.status_code == 201, absent.get_json()
    assert absent.get_json()["absences"] == [{"player": 3, "round": 2, "points": 0.5}]
    stream = client.get(f"/api/tournaments/{hall.t}/events").get_json()["events"]
    assert [(e["type"], e["recorded_by"]) for e in stream[-2:]] == [
        ("player_checked_in", "Player 1"),
        ("absence_declared", "Player 3"),
    ]
    # the absence is the arbiter's decision: a round already paired is refused, nothing stored
    assert hall.post("/rounds/1/check-in", {"present": False}, token=hall.players[2]).status_code == 422
    assert hall.post("/rounds/2/check-in", {"present": True}, token=hall.players[3]).status_code == 422
    # a check-in is the player's own
    assert hall.post("/rounds/2/check-in", {"present": True}, token=hall.arbiter).status_code == 403
    assert hall.post("/rounds/2/check-in", {"present": True}, token=ADMIN_TOKEN).status_code == 422


def test_a_players_sign_in_is_refused_by_every_other_write(client):
    hall = Hall(client)
    token = hall.players[1]
    other = f"{hall.t[2:]}-r1-b2"
    hall.play_and_resign(board=2)
    hall.admin.start(hall.t, 1, 1)
    writes = [
        ("POST", "/api/games", {"variant": "gabata", "south": "A", "north": "B"}),
        ("POST", f"/api/games/{other}/commands", {"type": "annotate", "text": "x", "expected_version": 1}),
        ("POST", f"/api/games/{hall.game}/commands", {"type": "annotate", "text": "x", "expected_version": 1}),
        ("POST", f"/api/games/{other}/confirmations", {"expected_version": hall.version(other)}),
        ("POST", f"/api/games/{other}/disputes", {"result": True, "reason": "no", "expected_version": 1}),
        ("POST", f"/api/games/{hall.game}/decisions", {"dispute": 2, "outcome": "upheld", "reason": "x"}),
        ("POST", "/api/tournaments", {"name": "X", "variant": "gabata", "format": "manual"}),
        ("POST", f"/api/tournaments/{hall.t}/players", {"name": "Intruder"}),
        ("POST", f"/api/tournaments/{hall.t}/absences", {"player": 2, "round": 2}),
        ("DELETE", f"/api/tournaments/{hall.t}/absences/2/1", None),
        ("POST", f"/api/tournaments/{hall.t}/players/1/withdrawal", {}),
        ("PUT", f"/api/tournaments/{hall.t}/tiebreaks", {"tiebreaks": []}),
        ("PUT", f"/api/tournaments/{hall.t}/broadcast", {"delay": 0}),
        ("POST", f"/api/tournaments/{hall.t}/rounds", {}),
        ("POST", f"/api/tournaments/{hall.t}/rounds/1/boards/1/game", {}),
        ("POST", f"/api/tournaments/{hall.t}/rounds/1/boards/1/result", {"result": "1-0"}),
        ("POST", f"/api/tournaments/{hall.t}/rounds/1/signins", {}),
        ("GET", f"/api/tournaments/{hall.t}/rounds/1/signins", None),
        ("POST", f"/api/tournaments/{hall.t}/players/signins", {}),
        ("GET", f"/api/tournaments/{hall.t}/players/signins", None),
        ("GET", f"/api/tournaments/{hall.t}/disputes", None),
        ("POST", f"/api/tournaments/{hall.t}/finish", {}),
        ("POST", f"/api/tournaments/{hall.t}/tokens", {"holder": "Me"}),
        ("POST", "/api/tokens", {"holder": "Me"}),
        ("POST", "/api/players", {"name": "Someone"}),
        ("POST", "/api/import", None),
    ]
    before = client.get(f"/api/tournaments/{hall.t}").get_json()["version"], hall.version(other)
    for method, path, body in writes:
        response = client.open(path, method=method, json=body, headers=bearer(token))
        assert response.status_code == 403, (method, path, response.get_json())
        assert "player 1 of tournament" in response.get_json()["detail"]
    assert (client.get(f"/api/tournaments/{hall.t}").get_json()["version"], hall.version(other)) == before


def test_a_board_sign_in_an_arbiter_and_a_recorder_cannot_confirm_or_dispute_for_a_player(client):
    hall = Hall(client)
    hall.play_and_resign()
    board = hall.post("/rounds/1/signins", token=hall.arbiter).get_json()["signins"]
    recorder = client.post("/api/tokens", json={"holder": "Scribe"}, headers=bearer(ADMIN_TOKEN)).get_json()["token"]
    for token in (hall.arbiter, recorder, *(s["token"] for s in board)):
        for what, body in (("confirmations", {}), ("disputes", {"result": True, "reason": "no"})):
            assert hall.sign(what, token, body).status_code == 403, (token, what)
    assert hall.sign("confirmations", ADMIN_TOKEN).status_code == 422  # the admin is no player
    assert [e["type"] for e in hall.events()][-1] == "result_recorded"


def test_confirmations_are_events_of_the_game_attributed_to_each_player_and_chained(app, client):
    hall = Hall(client)
    assert hall.sign("confirmations", hall.players[1]).status_code == 404  # no game yet
    hall.admin.start(hall.t, 1, 1)
    assert hall.sign("confirmations", hall.players[1]).status_code == 422  # not over
    hall.admin.play(hall.game, fixture_commands("gabata-default")[:4])
    hall.admin.command(hall.game, type="result", kind="resignation", winner="south")
    north = hall.sign("confirmations", hall.players[2])
    assert north.status_code == 201, north.get_json()
    assert north.get_json()["signoffs"]["confirmed_by"] == ["north"]
    assert hall.sign("confirmations", hall.players[2]).status_code == 409
    assert hall.sign("confirmations", hall.players[1]).get_json()["signoffs"]["confirmed"] is True
    last = hall.events()[-2:]
    assert [(e["type"], e["recorded_by"], e["payload"]["side"], e["payload"]["player"]) for e in last] == [
        ("result_confirmed", "Player 2", "north", 2),
        ("result_confirmed", "Player 1", "south", 1),
    ]
    store = app.extensions["recorder"].store
    assert first_broken_link(store.read(hall.game)) is None
    assert client.get(f"/api/games/{hall.game}/verify").get_json()["ok"] is True


def test_a_dispute_names_moves_of_the_record_and_says_why_in_any_script(client):
    hall = Hall(client)
    hall.play_and_resign()
    moves = [e["seq"] for e in hall.events() if e["type"] == "sowed"]
    assert hall.sign("disputes", hall.players[1], {"moves": [1], "reason": "x"}).status_code == 422
    assert hall.sign("disputes", hall.players[1], {"reason": "no"}).status_code == 422  # names nothing
    assert hall.sign("disputes", hall.players[1], {"moves": [moves[0]], "reason": "  "}).status_code == 422
    reason = "ጠጠር ተሳሰተ — the third sowing skipped a hole"
    disputed = hall.sign("disputes", hall.players[1], {"moves": [moves[2]], "reason": reason})
    assert disputed.status_code == 201, disputed.get_json()
    event = hall.events()[-1]
    assert (event["type"], event["recorded_by"]) == ("result_disputed", "Player 1")
    assert event["payload"] == {
        "side": "south",
        "player": 1,
        "moves": [moves[2]],
        "result": False,
        "reason": reason,
        "upto": hall.events()[-2]["seq"],
        "appeal_of": None,
    }
    assert hall.sign("disputes", hall.players[1], {"result": True, "reason": "again"}).status_code == 409
    assert hall.sign("confirmations", hall.players[1]).status_code == 422  # his dispute is open
    listed = client.get(f"/api/tournaments/{hall.t}/disputes", headers=bearer(hall.arbiter)).get_json()["disputes"]
    assert [(d["round"], d["board"], d["seq"], d["reason"]) for d in listed] == [(1, 1, event["seq"], reason)]


def test_the_arbiter_decides_a_dispute_upheld_or_corrected_and_an_appeal_is_the_committees(client):
    hall = Hall(client)
    hall.play_and_resign()
    dispute = hall.sign("disputes", hall.players[2], {"result": True, "reason": "I did not resign"}).get_json()
    seq = dispute["event"]["seq"]
    body = {"dispute": seq, "outcome": "corrected", "reason": "x"}
    assert hall.sign("decisions", hall.arbiter, body).status_code == 422  # nothing corrected
    upheld = hall.sign("decisions", hall.arbiter, {"dispute": seq, "outcome": "upheld", "reason": "He resigned"})
    assert upheld.status_code == 201, upheld.get_json()
    decision = upheld.get_json()["event"]
    assert (decision["payload"]["by"], decision["recorded_by"]) == ("arbiter", "Chief arbiter")
    assert hall.sign("decisions", hall.arbiter, {"dispute": seq, "outcome": "upheld", "reason": "x"}).status_code == 409
    appeal = hall.sign("disputes", hall.players[2], {"result": True, "reason": "Appeal", "appeal_of": decision["seq"]})
    assert appeal.status_code == 201, appeal.get_json()
    appeal_seq = appeal.get_json()["event"]["seq"]
    again = {"result": True, "reason": "Appeal again", "appeal_of": decision["seq"]}
    assert hall.sign("disputes", hall.players[1], again).status_code == 409  # one appeal of a decision
    body = {"dispute": appeal_seq, "outcome": "upheld", "reason": "The committee saw the scoresheet"}
    assert hall.sign("decisions", hall.arbiter, body).status_code == 403
    committee = hall.sign("decisions", ADMIN_TOKEN, body)
    assert committee.status_code == 201 and committee.get_json()["event"]["payload"]["by"] == "committee"
    final = {"result": True, "reason": "Again", "appeal_of": committee.get_json()["event"]["seq"]}
    assert hall.sign("disputes", hall.players[2], final).status_code == 422


def test_a_tournament_that_requires_confirmation_counts_a_result_once_both_confirmed_the_corrected_record(client):
    hall = Hall(client, require_confirmation=True)
    hall.play_and_resign()

    def counted() -> tuple[bool, list]:
        t = client.get(f"/api/tournaments/{hall.t}").get_json()
        board = t["rounds"][0]["boards"][0]
        points = {s["number"]: s["points"] for s in hall.admin.standings(hall.t)["standings"]}
        return board["unconfirmed"], [board["result"], points[1], points[2]]

    assert counted() == (True, [None, 0, 0])
    assert hall.sign("confirmations", hall.players[1]).status_code == 201
    moves = [e["seq"] for e in hall.events() if e["type"] == "sowed"]
    disputed = hall.sign("disputes", hall.players[2], {"moves": [moves[-1]], "reason": "the last sowing was not his"})
    assert counted() == (True, [None, 0, 0])
    # the correction: the result and the disputed sowing retracted, the record ended again
    hall.admin.command(hall.game, type="retract", count=2, reason="the last sowing was recorded wrongly")
    hall.admin.command(hall.game, type="result", kind="resignation", winner="north")
    seq = disputed.get_json()["event"]["seq"]
    decided = hall.sign("decisions", hall.arbiter, {"dispute": seq, "outcome": "corrected", "reason": "sowing fixed"})
    assert decided.status_code == 201, decided.get_json()
    assert hall.sign("confirmations", hall.players[2]).status_code == 201
    assert counted() == (True, [None, 0, 0])  # south's confirmation was of the record before
    assert hall.sign("confirmations", hall.players[1]).status_code == 201
    assert counted() == (False, ["north_wins", 0, 1])


def test_without_the_requirement_a_result_counts_at_once_and_shows_no_board_unconfirmed(client):
    hall = Hall(client)
    hall.play_and_resign()
    board = client.get(f"/api/tournaments/{hall.t}").get_json()["rounds"][0]["boards"][0]
    assert (board["result"], board["unconfirmed"]) == ("south_wins", False)


def test_a_players_rights_end_with_his_tournament(client):
    hall = Hall(client)
    hall.play_and_resign(board=1)
    hall.play_and_resign(board=2)
    assert hall.post("/finish", token=hall.arbiter).status_code == 201
    refused = hall.sign("confirmations", hall.players[1])
    assert refused.status_code == 403 and "finished" in refused.get_json()["detail"]


def played_out_dispute(client) -> Hall:
    """A tournament that requires confirmation: South confirms, North disputes the last
    sowing, the arbiter corrects it, both confirm the corrected record."""
    hall = Hall(client, require_confirmation=True)
    hall.play_and_resign()
    assert hall.sign("confirmations", hall.players[1]).status_code == 201
    last = [e["seq"] for e in hall.events() if e["type"] == "sowed"][-1]
    disputed = hall.sign("disputes", hall.players[2], {"moves": [last], "reason": "ያ ዘር አልተዘራም"}).get_json()
    hall.admin.command(hall.game, type="retract", count=2, reason="the last sowing was recorded wrongly")
    hall.admin.command(hall.game, type="result", kind="resignation", winner="north")
    body = {"dispute": disputed["event"]["seq"], "outcome": "corrected", "reason": "sowing fixed"}
    assert hall.sign("decisions", hall.arbiter, body).status_code == 201
    for number in (2, 1):
        assert hall.sign("confirmations", hall.players[number]).status_code == 201
    return hall


def test_a_games_dossier_carries_its_confirmations_disputes_and_decisions_and_traces_the_disputed_moves(
    app, client, tmp_path
):
    hall = played_out_dispute(client)
    events = hall.events()
    disputed = next(e for e in events if e["type"] == "result_disputed")
    data = client.get(f"/api/games/{hall.game}/dossier").get_data()
    body = json.loads(data.split(b"\n")[1])
    assert [t["seq"] for t in body["traces"]] == disputed["payload"]["moves"]  # no moves= asked: the dispute's
    signoffs = body["signoffs"]
    assert (signoffs["confirmed"], signoffs["confirmed_by"]) == (True, ["south", "north"])
    assert [c["side"] for c in signoffs["confirmations"]] == ["south", "north", "south"]
    (dispute,) = signoffs["disputes"]
    assert (dispute["reason"], dispute["open"], dispute["decision"]["outcome"]) == ("ያ ዘር አልተዘራም", False, "corrected")
    path = tmp_path / "appeal.dossier"
    path.write_bytes(data)
    runner = CliRunner(env={"RECORDER_DB": str(tmp_path / "absent.sqlite3"), "RECORDER_KEY_FILE": None})
    result = runner.invoke(main, ["verify", "--dossier", str(path)])
    assert result.exit_code == 0, result.output
    assert "ok      signoffs: 3 confirmations, 1 disputes derived again" in result.output
    # the body's account of the disputes changed and the file signed again: the events disagree
    key = SigningKey.load(app.config["DATABASE"] + ".ed25519")
    body["signoffs"]["disputes"][0]["decision"]["outcome"] = "upheld"
    findings = {f.part: f.ok for f in check(dossier.sign(key, body))}
    assert findings["signoffs"] is False and findings["signature"] is True


def test_a_stored_confirmation_of_another_record_fails_verification_even_relinked(app, client):
    """Someone with the file rewrites the last confirmation to name the record before the
    correction, its hash and line recomputed so the chain holds: deciding it again fails."""
    hall = played_out_dispute(client)
    store = app.extensions["recorder"].store
    last = store.read(hall.game)[-1]
    assert last.type == "result_confirmed"
    forged = replace(last, payload={**last.payload, "upto": last.payload["upto"] - 1})
    digest = stored_hash(forged)
    line = event_text(replace(forged, hash=digest), linked=True)
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        for trigger in ("events_no_update", "events_no_delete", "events_extend_chain"):
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute(
            "UPDATE events SET payload = ?, hash = ?, line = ? WHERE game_id = ? AND seq = ?",
            (canonical_json(forged.payload), digest, line, hall.game, last.seq),
        )
    conn.close()
    SQLiteEventStore(app.config["DATABASE"]).close()
    report = client.get(f"/api/games/{hall.game}/verify").get_json()
    assert (report["ok"], report["chain_intact"], report["replay_valid"]) == (False, True, False), report
    assert report["detail"].endswith("result_confirmed is not valid here: the record's last move is at seq 10")


def test_an_admins_restore_carries_the_players_word_and_no_other_import_may(app, client, tmp_path):
    hall = played_out_dispute(client)
    archive = client.get(f"/api/export?tournament={hall.t}", headers={"Accept": "application/x-ndjson"})
    assert archive.status_code == 200, archive.get_data(as_text=True)[:300]
    (tmp_path / "restored").mkdir()
    fresh = make_app(tmp_path / "restored")
    try:
        restored = fresh.test_client().post(
            "/api/import", data=archive.get_data(), content_type="application/x-ndjson", headers=bearer(ADMIN_TOKEN)
        )
        assert restored.status_code == 201, restored.get_json()
        events = fresh.test_client().get(f"/api/games/{hall.game}/events").get_json()["events"]
        assert [e["hash"] for e in events] == [e["hash"] for e in hall.events()]
        assert fresh.test_client().get(f"/api/games/{hall.game}/signoffs").get_json()["confirmed"] is True
    finally:
        fresh.extensions["recorder"].store.close()
    confirmation = {"type": "confirm", "side": "south", "player": 1, "upto": 6}
    assert schema_check(confirmation) == confirmation
    with pytest.raises(InvalidRecord, match="only the admin's restore carries one"):
        without_signoffs(confirmation)
    with pytest.raises(InvalidRecord):
        schema_check({**confirmation, "side": "east"})


@pytest.fixture
def disputed(client) -> Hall:
    return played_out_dispute(client)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["moves", "result", "reason", "appeal_of", "dispute", "outcome", "present", "expected_version"]
)
BODIES = st.dictionaries(FIELDS, JSON_VALUES, max_size=5) | JSON_VALUES


@settings(max_examples=60, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES, where=st.sampled_from(["confirmations", "disputes", "decisions", "check-in"]))
def test_any_body_a_player_or_the_arbiter_sends_is_answered_without_a_server_error_and_a_refusal_stores_nothing(
    client, disputed, body, where
):
    hall = disputed
    before = hall.events(), client.get(f"/api/tournaments/{hall.t}/events").get_json()["events"]
    path = f"/api/tournaments/{hall.t}/rounds/2/check-in" if where == "check-in" else f"/api/games/{hall.game}/{where}"
    for token in (hall.players[1], hall.arbiter):
        response = client.post(path, json=body, headers=bearer(token))
        assert response.status_code < 500, response.get_json()
        if response.status_code >= 400:
            after = hall.events(), client.get(f"/api/tournaments/{hall.t}/events").get_json()["events"]
            assert after == before
        before = hall.events(), client.get(f"/api/tournaments/{hall.t}/events").get_json()["events"]


def test_a_result_entered_in_a_tournament_that_requires_confirmation_counts_at_once(client):
    hall = Hall(client, require_confirmation=True)
    hall.admin.forfeit(hall.t, 1, 2, "south_wins")
    board = client.get(f"/api/tournaments/{hall.t}").get_json()["rounds"][0]["boards"][1]
    assert (board["result"], board["unconfirmed"]) == ("south_wins", False)
    assert {s["number"]: s["points"] for s in hall.admin.standings(hall.t)["standings"]}[3] == 1


def test_recorder_tournament_badges_issues_a_players_sign_in_once_and_lists_them(app, client):
    hall = Hall(client)
    runner, db = CliRunner(), ["--db", app.config["DATABASE"]]
    issued = runner.invoke(main, ["tournament", "badges", hall.t, "--site", "http://hall:5000/", "--player", "2", *db])
    assert issued.exit_code == 0, issued.output
    (line,) = issued.output.splitlines()
    number, token_id, address = line.split(" ")[1:4] if line.startswith("player 2:") else ("", "", "")
    assert (number, token_id.startswith("ply-p2-")) == ("2:", True)
    token = address.split("#token=")[1].split("&")[0]
    assert address == f"http://hall:5000/sign-in#token={token}&next=/tournaments/{hall.t}"
    assert client.get("/api/tokens/self", headers=bearer(token)).get_json()["player"] == 2
    listed = runner.invoke(main, ["tournament", "badges", hall.t, *db]).output.splitlines()
    assert listed[-1] == f"{token_id}  Player 2  valid"
    refused = runner.invoke(main, ["tournament", "badges", hall.t, "--site", "http://hall", "--player", "9", *db])
    assert refused.exit_code == 1 and "no player still in with the starting number 9" in refused.output

"""Tamper evidence: hash chain, replay with full validation, signed checkpoints."""

import base64
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from recorder.app import create_app
from recorder.cli.main import main
from recorder.core.chain import event_hash
from recorder.store.sqlite import SQLiteEventStore


def finished_game(api) -> str:
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="sow", hole="a2")
    api.command(game, type="result", kind="resignation", winner="south")
    return game


def behind_the_services_back(app, sql: str, params=()) -> None:
    """Change the events table through a plain connection, with the immutability triggers
    dropped; the store's next open creates them again, as the service's would (so a verify
    judges the records, not the triggers: tests/test_store_postgres_triggers.py has those)."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        for trigger in ("events_no_update", "events_no_delete", "events_extend_chain"):
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.execute(sql, params)
    conn.close()
    SQLiteEventStore(app.config["DATABASE"]).close()


def verify(client, game):
    response = client.get(f"/api/games/{game}/verify")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def run(app, *args):
    return CliRunner().invoke(main, [*args, "--db", app.config["DATABASE"]])


def test_an_intact_record_verifies(api, client):
    game = finished_game(api)
    report = verify(client, game)
    assert report["ok"] is True and report["first_broken_link"] is None
    assert report["chain_intact"] and report["replay_valid"] and report["result"] == "south_wins"
    assert report["version"] == 4 and report["head_hash"] == api.events(game)[-1]["hash"]


def test_an_event_byte_changed_behind_the_services_back_is_caught_and_named(app, api, client):
    game = finished_game(api)
    behind_the_services_back(
        app, "UPDATE events SET payload = replace(payload, '\"a2\"', '\"b2\"') WHERE game_id = ? AND seq = 3", (game,)
    )
    report = verify(client, game)
    assert report["ok"] is False and report["chain_intact"] is False
    assert report["first_broken_link"] == 3
    assert report["problems"][0] == {
        "seq": 3,
        "check": "chain",
        "detail": "its hash does not recompute from its content: the stored event was changed",
    }
    assert report["detail"].startswith("event 3: ")


def test_a_payload_stored_in_another_json_spelling_still_verifies_by_its_content(app, api, client):
    """The chain covers the payload's canonical JSON, not the stored spelling: the stored
    text is hashed first (it is canonical when the service wrote it), and a text that
    is not is encoded again before the chain is called broken."""
    game = finished_game(api)
    behind_the_services_back(
        app, "UPDATE events SET payload = replace(payload, ',', ' , ') WHERE game_id = ? AND seq = 3", (game,)
    )
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        (payload,) = conn.execute("SELECT payload FROM events WHERE game_id = ? AND seq = 3", (game,)).fetchone()
    conn.close()
    assert payload == '{"hole":"a2" , "player":"north"}'  # the premise: the stored bytes differ
    assert verify(client, game)["ok"] is True
    assert run(app, "verify", game).exit_code == 0


def test_a_rechained_forgery_is_caught_by_the_replay(app, api, client):
    """Rewrite a move and recompute every hash after it: the chain holds, full validation does not."""
    game = finished_game(api)
    events = api.events(game)
    forged = {**events[1]["payload"], "hole": "b2"}  # South may not sow North's b2 (QEL-4, GEN-21)
    prev = events[0]["hash"]
    for event in events[1:]:
        payload = forged if event["seq"] == 2 else event["payload"]
        record = {k: event[k] for k in ("game_id", "seq", "type", "recorded_at", "recorded_by")}
        digest = event_hash(prev, {**record, "payload": payload})
        behind_the_services_back(
            app,
            "UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
            (json.dumps(payload, sort_keys=True, separators=(",", ":")), prev, digest, game, event["seq"]),
        )
        prev = digest
    report = verify(client, game)
    assert report["chain_intact"] is True and report["replay_valid"] is False
    assert report["first_broken_link"] == 2 and report["problems"][0]["check"] == "replay"
    assert "b2" in report["detail"]


def test_a_missing_event_breaks_the_chain_at_the_gap(app, api, client):
    game = finished_game(api)
    behind_the_services_back(app, "DELETE FROM events WHERE game_id = ? AND seq = 2", (game,))
    report = verify(client, game)
    assert report["first_broken_link"] == 3 and "missing or out of order" in report["detail"]


def test_cli_verify_exits_non_zero_and_names_the_broken_game(app, api):
    good, bad = finished_game(api), finished_game(api)
    assert run(app, "verify").exit_code == 0
    behind_the_services_back(app, "UPDATE events SET recorded_by = 'mallory' WHERE game_id = ? AND seq = 2", (bad,))
    result = run(app, "verify")
    assert result.exit_code == 1
    assert f"BROKEN  {bad}: event 2:" in result.output and f"ok      {good}:" in result.output
    assert run(app, "verify", good).exit_code == 0
    assert run(app, "verify", "nope").exit_code == 1


# -- Checkpoints ---------------------------------------------------------------------


def checkpoint(client, game, expect=200):
    response = client.get(f"/api/games/{game}/checkpoint")
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def check(client, game, text):
    response = client.post(f"/api/games/{game}/verify", json={"checkpoint": text})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_finished_games_checkpoint_is_signed_with_the_served_public_key(api, client):
    game = finished_game(api)
    issued = checkpoint(client, game)
    assert issued["version"] == 4 and issued["result"] == "south_wins"
    assert issued["head_hash"] == api.events(game)[-1]["hash"]
    public = client.get("/api/keys/public").get_json()
    assert public["algorithm"] == "Ed25519" and issued["key_id"] == public["key_id"]
    assert public["pem"].startswith("-----BEGIN PUBLIC KEY-----")
    # The signed message, as docs/auditing.md documents it.
    body = {"game_id": game, "version": 4, "head_hash": issued["head_hash"], "result": "south_wins"}
    message = ("mancala-checkpoint/1\n" + json.dumps(body, sort_keys=True, separators=(",", ":"))).encode()
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public["public_key"]))
    key.verify(base64.urlsafe_b64decode(issued["signature"] + "=="), message)  # raises if invalid
    assert checkpoint(client, game) == issued  # Ed25519 is deterministic: nothing is stored


def test_a_valid_checkpoint_is_accepted_and_later_events_are_listed(api, client):
    game = finished_game(api)
    text = checkpoint(client, game)["text"]
    accepted = check(client, game, text)
    assert accepted["ok"] is True and accepted["checkpoint"]["valid"] is True
    api.command(game, type="annotate", text="scoresheet signed by both players")
    later = check(client, game, text)["checkpoint"]
    assert later["valid"] is True and later["later_events"] == [{"seq": 5, "type": "annotated"}]


@pytest.mark.parametrize(
    "forge",
    [
        lambda text: text.replace("result=south_wins", "result=north_wins"),
        lambda text: text.replace("version=4", "version=3"),
        lambda text: text[:-6] + ("AAAAAA" if not text.endswith("AAAAAA") else "BBBBBB"),
    ],
    ids=["result", "version", "signature"],
)
def test_a_forged_checkpoint_is_refused(api, client, forge):
    game = finished_game(api)
    refused = check(client, game, forge(checkpoint(client, game)["text"]))
    assert refused["ok"] is False and refused["checkpoint"]["valid"] is False
    assert "forged" in refused["checkpoint"]["detail"]


def test_a_checkpoint_signed_by_another_key_is_refused(api, client):
    game = finished_game(api)
    issued = checkpoint(client, game)
    other = Ed25519PrivateKey.generate()
    body = {"game_id": game, "version": 4, "head_hash": issued["head_hash"], "result": "south_wins"}
    message = ("mancala-checkpoint/1\n" + json.dumps(body, sort_keys=True, separators=(",", ":"))).encode()
    signature = base64.urlsafe_b64encode(other.sign(message)).decode().rstrip("=")
    forged = issued["text"].replace(issued["signature"], signature)
    assert "forged" in check(client, game, forged)["checkpoint"]["detail"]


def test_a_checkpoint_does_not_vouch_for_a_changed_or_truncated_record(app, api, client):
    game = finished_game(api)
    text = checkpoint(client, game)["text"]
    behind_the_services_back(app, "DELETE FROM events WHERE game_id = ? AND seq = 4", (game,))
    shorter = verify(client, game)  # a shorter chain is still a chain, but not the recorded head...
    assert shorter["ok"] is False and "its recorded head is event 4, the events end at event 3" in shorter["detail"]
    refused = check(client, game, text)["checkpoint"]  # ...nor the one that was signed
    assert refused["valid"] is False and "holds 3 events, not 4" in refused["detail"]


def test_checkpoints_only_for_finished_intact_games(app, api, client):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    assert checkpoint(client, game, expect=404)["title"] == "Not found"
    finished = finished_game(api)
    behind_the_services_back(app, "UPDATE events SET recorded_at = 'x' WHERE game_id = ? AND seq = 1", (finished,))
    problem = checkpoint(client, finished, expect=409)
    assert problem["first_broken_link"] == 1


def test_checkpoint_refusals_for_malformed_text_and_another_game(api, client):
    game, other = finished_game(api), finished_game(api)
    response = client.post(f"/api/games/{game}/verify", json={"checkpoint": "not a checkpoint"})
    assert response.status_code == 422 and response.get_json()["title"] == "Invalid record"
    refused = check(client, game, checkpoint(client, other)["text"])["checkpoint"]
    assert refused["valid"] is False and f"for game {other}" in refused["detail"]


def test_the_key_file_is_created_0600_next_to_the_database(app, api, client):
    client.get("/api/keys/public")
    path = app.config["DATABASE"] + ".ed25519"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Path(path).read_text().startswith("-----BEGIN PRIVATE KEY-----")


def test_recorder_key_config_and_environment_choose_the_key_file(tmp_path, monkeypatch):
    configured = create_app({"TESTING": True, "DATABASE": str(tmp_path / "a.db"), "RECORDER_KEY": str(tmp_path / "k1")})
    configured.test_client().get("/api/keys/public")
    configured.extensions["recorder"].store.close()
    assert (tmp_path / "k1").exists() and not (tmp_path / "a.db.ed25519").exists()
    monkeypatch.setenv("RECORDER_KEY_FILE", str(tmp_path / "k2"))
    from_env = create_app({"TESTING": True, "DATABASE": str(tmp_path / "b.db")})
    from_env.test_client().get("/api/keys/public")
    from_env.extensions["recorder"].store.close()
    assert (tmp_path / "k2").exists()


def test_cli_checkpoint_and_verify_share_the_services_key(app, api, client):
    game = finished_game(api)
    printed = run(app, "checkpoint", game)
    assert printed.exit_code == 0 and printed.output.strip() == checkpoint(client, game)["text"]
    assert run(app, "verify", "--checkpoint", printed.output.strip()).exit_code == 0
    forged = printed.output.strip().replace("result=south_wins", "result=draw")
    refused = run(app, "verify", "--checkpoint", forged)
    assert refused.exit_code == 1 and "REFUSED" in refused.output
    public = run(app, "public-key")
    assert public.exit_code == 0 and client.get("/api/keys/public").get_json()["public_key"] in public.output


@pytest.mark.parametrize("name", ["selus-single-7", "lahemay_walida-threes-lot", "gabata-default"])
def test_whole_recorded_games_with_corrections_verify(api, client, name):
    """Fixture games, decisions included, plus a retraction and an annotation, re-decide cleanly."""
    record = json.loads((FIXTURES / "games" / f"{name}.json").read_text())
    game = api.create(**record["setup"])["id"]
    for command in record["commands"][:-1]:
        api.command(game, **command)
    api.command(game, type="annotate", text="the last move is disputed")
    api.command(game, **record["commands"][-1])
    api.command(game, type="retract", count=1, reason="recorded before the arbiter arrived")
    api.command(game, **record["commands"][-1])
    report = verify(client, game)
    assert report["ok"] is True and report["version"] == len(record["commands"]) + 4
    assert report["result"] == record["expect"]["result"]


def test_a_log_that_no_longer_folds_is_still_listed_and_verify_names_the_event(app, api, client):
    game = finished_game(api)
    api.command(game, type="retract", count=1, reason="the resignation was for table 4")
    behind_the_services_back(
        app, 'UPDATE events SET payload = \'{"count":7,"reason":"x"}\' WHERE game_id = ? AND seq = 5', (game,)
    )
    listed = client.get(f"/api/games/{game}/events")
    assert listed.status_code == 200 and len(listed.get_json()["events"]) == 5
    report = verify(client, game)
    assert report["first_broken_link"] == 5 and {p["check"] for p in report["problems"]} == {"chain", "replay"}
    assert client.get("/api/games/nope/verify").status_code == 404


def test_a_game_stored_with_a_date_no_calendar_has_still_verifies(app, client, tmp_path):
    """Dates are held to the calendar since a later release; a game stored before with
    ``2026-13`` (stored here as that release stored it, straight through the store) is
    not broken: verify re-decides its setup and moves, not its metadata. Its NDJSON log
    is refused on import, as a new setup with that date is."""
    from recorder.archive.transfer import Archive
    from recorder.core.commands import decide_create
    from recorder.store import NewEvent, SQLiteEventStore

    setup = decide_create({"variant": "qelat", "south": "A", "north": "B", "first_player": "south", "date": "2026-13"})
    assert setup.metadata == {"date": "2026-13"}  # the setup's own decision never looked at the date
    with SQLiteEventStore(app.config["DATABASE"]) as store:
        store.append("old_date", 0, [NewEvent(setup.type, setup.payload())], recorded_by="arbiter")
        log = "".join(Archive(store).ndjson_archive(["old_date"]))
    assert verify(client, "old_date")["ok"] is True
    assert run(app, "verify", "old_date").exit_code == 0
    with SQLiteEventStore(str(tmp_path / "other.sqlite3")) as other:
        [report] = Archive(other, recorded_by="archivist", restore=True).import_ndjson_text(log)
    assert report.status == "refused" and "date must be YYYY" in report.error["detail"]


def test_a_stream_under_an_id_no_game_may_have_fails_verification_over_http_as_on_the_command_line(app, client):
    """An id outside the game id pattern can only come from a write behind the service's
    back (every route and import refuses it): both verifications say so, not only the
    command line's walk."""
    from recorder.core.commands import decide_create
    from recorder.store import NewEvent, SQLiteEventStore

    setup = decide_create({"variant": "qelat", "south": "A", "north": "B", "first_player": "south"})
    with SQLiteEventStore(app.config["DATABASE"]) as store:
        store.append("look-alike", 0, [NewEvent(setup.type, setup.payload())], recorded_by="arbiter")
    report = verify(client, "look-alike")
    assert report["ok"] is False and report["detail"] == "the id is not a game id (docs/security.md)"
    assert report["chain_intact"] and report["replay_valid"]  # the events themselves are sound
    walked = run(app, "verify", "look-alike")
    assert walked.exit_code == 1 and "the id is not a game id" in walked.output

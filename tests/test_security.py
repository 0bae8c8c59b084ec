"""Trust: every write authenticated and attributed, and bad input never a 5xx.

Each test is one way in that an attacker, a careless client or a broken disk might try
(docs/security.md): it is refused with a 4xx or 503 problem and the database is unchanged.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import sqlite3
import stat

import pytest
from browser import LiveServer
from click.testing import CliRunner
from conftest import ADMIN_TOKEN, bearer, make_app

from recorder.auth.service import token_file
from recorder.cli.main import main
from recorder.core import chain

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
ANONYMOUS = {"Authorization": ""}  # the admin client then sends no token


def dump(app) -> list[str]:
    """Everything stored: a full SQL dump of the database file."""
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return list(conn.iterdump())


def issue(client, holder: str) -> dict:
    response = client.post("/api/tokens", json={"holder": holder})
    assert response.status_code == 201, response.get_json()
    return bearer(response.get_json()["token"])


def create(client, headers=None) -> str:
    response = client.post("/api/games", json=QELAT, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def sow(client, game_id: str, hole: str, version: int, headers=None):
    body = {"type": "sow", "hole": hole}
    return client.post(
        f"/api/games/{game_id}/commands", json=body, headers={"If-Match": f'"{version}"', **(headers or {})}
    )


# -- Who may write ---------------------------------------------------------------------------


def test_anonymous_writes_are_401_and_store_nothing(app, client):
    game_id = create(client)
    before = dump(app)
    for response in (
        client.post("/api/games", json=QELAT, headers=ANONYMOUS),
        sow(client, game_id, "f1", 1, ANONYMOUS),
    ):
        assert response.status_code == 401 and response.mimetype == "application/problem+json"
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert dump(app) == before


def test_a_recorder_writes_the_games_it_created_and_no_other(app, client):
    selam, yonas = issue(client, "Selam"), issue(client, "Yonas")
    mine = create(client, selam)
    theirs = create(client, yonas)
    before = dump(app)
    assert sow(client, theirs, "f1", 1, selam).status_code == 403
    assert dump(app) == before
    assert sow(client, mine, "f1", 1, selam).status_code == 201
    assert sow(client, mine, "b2", 2).status_code == 201  # the admin may write any game
    recorded_by = [e["recorded_by"] for e in client.get(f"/api/games/{mine}/events").get_json()["events"]]
    assert recorded_by == ["Selam", "Selam", "admin"]


def test_a_revoked_recorder_token_writes_nothing(app, client):
    issued = client.post("/api/tokens", json={"holder": "Selam"}).get_json()
    token = bearer(issued["token"])
    game_id = create(client, token)
    assert client.delete(f"/api/tokens/{issued['id']}").status_code == 200
    before = dump(app)
    assert sow(client, game_id, "f1", 1, token).status_code == 401
    assert dump(app) == before


def test_token_holders_are_one_printable_line_and_not_a_reserved_principal(client):
    for holder in ("Se\x00lam", "Selam\n", " Selam", "admin", "anonymous (open mode)", "\x1b[31mred"):
        assert client.post("/api/tokens", json={"holder": holder}).status_code == 422, holder


def test_every_stored_event_names_its_recorder(app, client):
    game_id = create(client, issue(client, "Selam"))
    sow(client, game_id, "f1", 1)
    another = QELAT_NOTATION.replace("[Variant", '[Site "Keren"]\n[Variant', 1)  # not the game recorded above
    assert client.post("/api/import", data=another, content_type="text/x-mancala-notation").status_code == 201
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] > 2
        assert (
            conn.execute("SELECT COUNT(*) FROM events WHERE recorded_by IS NULL OR recorded_by = ''").fetchone()[0] == 0
        )


QELAT_NOTATION = """[Variant "qelat"]
[South "Abeba"]
[North "Berhane"]
[FirstPlayer "south"]
[Result "*"]

1. S f1 *
"""


# -- No blind or cross-site writes ----------------------------------------------------------


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_json_writes_in_any_other_media_type_are_415(app, client, content_type):
    game_id = create(client)
    before = dump(app)
    body = json.dumps(QELAT)
    for url, data in (("/api/games", body), (f"/api/games/{game_id}/commands", '{"type":"sow","hole":"f1"}')):
        response = client.post(url, data=data, content_type=content_type, headers={"If-Match": '"1"'})
        assert response.status_code == 415, (url, response.get_json())
    assert dump(app) == before


def test_no_cors_headers_are_sent(client):
    game_id = create(client)
    origin = {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
    for response in (
        client.options(f"/api/games/{game_id}/commands", headers=origin),
        client.get("/api/games", headers=origin),
        sow(client, game_id, "f1", 1, origin),
    ):
        assert not [h for h in response.headers.keys() if h.lower().startswith("access-control-")]


def test_a_command_without_a_version_is_428_and_stores_nothing(app, client):
    game_id = create(client)
    before = dump(app)
    url = f"/api/games/{game_id}/commands"
    for headers in ({}, {"If-Match": "*"}):
        response = client.post(url, json={"type": "sow", "hole": "f1"}, headers=headers)
        assert response.status_code == 428 and response.mimetype == "application/problem+json"
    assert dump(app) == before


def test_someone_elses_idempotency_key_neither_blocks_nor_replays(app, client):
    selam, yonas = issue(client, "Selam"), issue(client, "Yonas")
    first, second = create(client, selam), create(client, yonas)
    key = {"Idempotency-Key": "tablet-1"}
    mine = sow(client, first, "f1", 1, {**selam, **key})
    theirs = sow(client, second, "f1", 1, {**yonas, **key})  # same key, other principal and game
    assert mine.status_code == theirs.status_code == 201
    assert theirs.get_json()["event"]["game_id"] == second
    again = sow(client, first, "f1", 1, {**selam, **key})  # a true retry still replays
    assert again.status_code == 201 and again.get_json() == mine.get_json()
    # the same key from the admin on the same game is the admin's own, not Selam's retry
    admin_retry = client.post(
        f"/api/games/{first}/commands", json={"type": "sow", "hole": "f1"}, headers={"If-Match": '"1"', **key}
    )
    assert admin_retry.status_code == 409


# -- Imports ---------------------------------------------------------------------------------


def exported_log(client) -> list[dict]:
    game_id = create(client, issue(client, "Original Recorder"))
    sow(client, game_id, "f1", 1)
    text = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    return [json.loads(line) for line in text.splitlines() if json.loads(line).get("game_id") == game_id]


def forged(events: list[dict], **changes) -> str:
    """The log with ``changes`` on every event, re-hashed so its chain verifies."""
    previous, out = chain.GENESIS, []
    for event in events:
        record = {**event, **changes, "prev_hash": previous}
        record.pop("hash")
        digest = chain.event_hash(
            previous, {k: record[k] for k in ("game_id", "seq", "type", "payload", "recorded_at", "recorded_by")}
        )
        out.append({**record, "hash": digest})
        previous = digest
    return "\n".join(json.dumps(e) for e in out) + "\n"


def test_an_import_claiming_recorded_by_is_attributed_to_the_importer_with_its_claims_kept(app, client):
    events = exported_log(client)
    log = forged(events, game_id="f00d00000001", recorded_by="Chief Arbiter", recorded_at="2020-01-01T00:00:00Z")
    importer = issue(client, "Importer")
    response = client.post("/api/import", data=log, content_type="application/x-ndjson", headers=importer)
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["games"][0]["game_id"]  # a copy: the id its content gives (docs/security.md)
    assert game_id != "f00d00000001" and client.get("/api/games/f00d00000001").status_code == 404
    stored = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert {e["recorded_by"] for e in stored} == {"Importer"}
    assert all(not e["recorded_at"].startswith("2020") for e in stored)
    claims = client.get(f"/api/games/{game_id}").get_json()["metadata"]["import_claims"]
    assert claims["recorded_by"] == ["Chief Arbiter"] and claims["recorded_at"][0].startswith("2020")
    assert claims["game_id"] == "f00d00000001" and "claims" in claims["note"]
    assert CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"], game_id]).exit_code == 0


def test_the_admins_import_is_a_restore_kept_verbatim(client):
    events = exported_log(client)
    log = forged(events, game_id="f00d00000002", recorded_by="Chief Arbiter")
    assert client.post("/api/import", data=log, content_type="application/x-ndjson").status_code == 201
    stored = client.get("/api/games/f00d00000002/events").get_json()["events"]
    assert [e["hash"] for e in stored] == [json.loads(line)["hash"] for line in log.splitlines()]
    assert {e["recorded_by"] for e in stored} == {"Chief Arbiter"}


@pytest.mark.parametrize(
    "game_id",
    [
        "abc123def456\n",
        "abc123def456 ",
        " abc123def456",
        "ABC123-r1-b1",
        "abc123-r01-b1",
        "abc123-r1-b1\n",
        "abc-r1-b1-x",
        "t-abc",
    ],
)
def test_an_imported_id_that_is_not_exactly_an_id_is_refused(app, client, game_id):
    log = forged(exported_log(client), game_id=game_id)
    before = dump(app)
    response = client.post("/api/import", data=log, content_type="application/x-ndjson")
    assert response.status_code == 422
    assert response.get_json()["games"][0]["status"] == "refused"
    assert dump(app) == before


# -- Bad input: never a 5xx, never truncated ---------------------------------------------------


def post_chunked(url: str, path: str, body: bytes, headers: dict) -> tuple[int, dict]:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        chunks = (body[i : i + 65536] for i in range(0, len(body), 65536))
        connection.request("POST", path, body=chunks, headers=headers, encode_chunked=True)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def test_a_chunked_body_over_the_limit_is_413_and_stores_nothing(app):
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {ADMIN_TOKEN}"}
    limit = app.config["MAX_CONTENT_LENGTH"]
    with LiveServer(app) as server:
        before = dump(app)
        big = json.dumps({**QELAT, "event": "x" * 100, "site": "y" * (limit + 10)}).encode()
        status, problem = post_chunked(server.url, "/api/games", big, headers)
        assert status == 413 and problem["status"] == 413
        notation = (QELAT_NOTATION + "\n") * (limit // len(QELAT_NOTATION) + 5)
        headers["Content-Type"] = "text/x-mancala-notation"
        status, _ = post_chunked(server.url, "/api/import", notation.encode(), headers)
        assert status == 413
        assert dump(app) == before
        headers["Content-Type"] = "application/json"
        status, game = post_chunked(server.url, "/api/games", json.dumps(QELAT).encode(), headers)
        assert status == 201 and game["south"] == "Abeba"  # a chunked body within the limit is whole


@pytest.mark.parametrize(
    "raw",
    [
        b'{"variant": "qelat", "south": "\\ud800", "north": "B", "first_player": "south"}',
        b'{"variant": "qelat", "south": "A", "north": "B", "first_player": "south", "event": "x\\udfffy"}',
        b'{"variant": "qelat", "south": "A\\u0000B", "north": "B", "first_player": "south"}',
        b'{"variant": "qelat", "south": "A\\u001b[2J", "north": "B", "first_player": "south"}',
        b'{"variant": "qelat", "south": "A", "north": "B\\u0085", "first_player": "south"}',
        b'{"variant": "qelat", "south": "A", "north": "B\\n", "first_player": "south"}',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    ],
    ids=[
        "lone high surrogate",
        "lone low surrogate",
        "NUL",
        "escape",
        "C1 control",
        "newline in a name",
        "deep list",
        "deep object",
    ],
)
def test_strings_and_nesting_no_record_should_hold_are_4xx(app, client, raw):
    before = dump(app)
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert 400 <= response.status_code < 500 and response.mimetype == "application/problem+json"
    assert dump(app) == before


def test_control_characters_in_tournament_and_player_names_are_refused(app, client):
    assert (
        client.post(
            "/api/tournaments", json={"name": "Open\x00", "variant": "qelat", "format": "swiss", "rounds": 3}
        ).status_code
        == 422
    )
    tid = client.post(
        "/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 3}
    ).get_json()["id"]
    before = dump(app)
    assert client.post(f"/api/tournaments/{tid}/players", json={"name": "Abeba\x07"}).status_code == 422
    assert dump(app) == before


def test_control_characters_in_imported_names_are_refused(app, client):
    before = dump(app)
    text = QELAT_NOTATION.replace("Abeba", "Ab\x00eba")
    assert client.post("/api/import", data=text, content_type="text/x-mancala-notation").status_code == 422
    assert dump(app) == before


@pytest.mark.parametrize(
    "url",
    [
        "/api/games?offset={big}",
        "/api/games?limit={big}",
        "/api/games/{game}/state?at={big}",
        "/api/games/{game}/board.svg?at={big}",
        "/api/tournaments?offset={big}",
        "/api/games?offset=-{big}",
    ],
)
def test_integer_query_values_past_64_bits_are_422(client, url):
    game_id = create(client)
    response = client.get(url.format(big=2**64, game=game_id))
    assert response.status_code == 422, response.get_data(as_text=True)


# -- The database: full, locked, replaced ------------------------------------------------------


def test_a_full_disk_is_503_with_retry_after_and_nothing_half_written(app, client):
    game_id = create(client)
    store = app.extensions["recorder"].store
    db = store._db()  # this thread's connection: the test client runs the app in this thread
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    before = dump(app)
    big = {**QELAT, "event": "e" * 190, "site": "s" * 190}
    responses = [client.post("/api/games", json=big) for _ in range(40)]
    full = [r for r in responses if r.status_code == 503]
    assert full, [r.status_code for r in responses]
    assert full[0].headers["Retry-After"].isdigit() and full[0].mimetype == "application/problem+json"
    db.execute(f"PRAGMA max_page_count = {2**30}")
    stored = {r.get_json()["id"] for r in responses if r.status_code == 201}
    listed = {g["id"] for g in client.get("/api/games?limit=1000").get_json()["games"]} - {game_id}
    assert listed == stored  # each game whole or absent
    assert len(dump(app)) >= len(before)


def test_a_database_locked_by_another_process_is_503_with_retry_after(app, client):
    game_id = create(client)
    app.extensions["recorder"].store._writer_lock.wait_seconds = 0.2
    import fcntl

    other = os.open(app.config["DATABASE"] + "-writer.lock", os.O_RDWR)  # another process's queue position
    try:
        fcntl.flock(other, fcntl.LOCK_EX)
        before = dump(app)
        response = sow(client, game_id, "f1", 1)
        assert response.status_code == 503 and response.headers["Retry-After"].isdigit()
        assert dump(app) == before
    finally:
        os.close(other)
    assert sow(client, game_id, "f1", 1).status_code == 201


def test_sqlite_busy_past_the_timeout_is_503(app, client):
    game_id = create(client)
    app.extensions["recorder"].store._db().execute("PRAGMA busy_timeout = 50")
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"], isolation_level=None)) as shell:
        shell.execute("BEGIN IMMEDIATE")  # the sqlite3 shell of an impatient operator
        response = sow(client, game_id, "f1", 1)
        shell.execute("ROLLBACK")
    assert response.status_code == 503 and response.headers["Retry-After"].isdigit()


def test_the_writer_lock_file_is_private(app, client):
    create(client)
    mode = stat.S_IMODE(os.stat(app.config["DATABASE"] + "-writer.lock").st_mode)
    assert mode == 0o600


def test_a_database_replaced_under_the_server_refuses_writes(app, client, tmp_path):
    game_id = create(client)
    path = app.config["DATABASE"]
    with (
        contextlib.closing(sqlite3.connect(path)) as source,
        contextlib.closing(sqlite3.connect(tmp_path / "copy.sqlite3")) as copy,
    ):
        source.backup(copy)
    os.replace(tmp_path / "copy.sqlite3", path)
    response = sow(client, game_id, "f1", 1)
    assert response.status_code == 503 and "replaced" in response.get_json()["detail"]
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0] == 1


# -- First run, open mode, no admin configured ---------------------------------------------------


def test_first_run_token_lives_beside_the_database_and_only_its_digest_inside(tmp_path, monkeypatch):
    monkeypatch.delenv("RECORDER_ADMIN_TOKEN", raising=False)
    app = make_app(tmp_path / "first.sqlite3", ADMIN_TOKEN=None)
    try:
        auth = app.extensions["auth"]
        token = auth.first_run_token(app.config["DATABASE"])
        assert auth.first_run_token(app.config["DATABASE"]) == token  # the same on the next start
        path = token_file(app.config["DATABASE"])
        assert path.read_text().strip() == token and stat.S_IMODE(path.stat().st_mode) == 0o600
        assert token not in "\n".join(dump(app))
        client = app.test_client()
        assert client.post("/api/games", json=QELAT, headers=bearer(token)).status_code == 201
        assert client.post("/api/games", json=QELAT, headers=bearer("rt_guess")).status_code == 401
    finally:
        app.extensions["recorder"].store.close()


def test_a_configured_admin_token_replaces_the_first_run_one(tmp_path):
    path = tmp_path / "both.sqlite3"
    first = make_app(path, ADMIN_TOKEN=None)
    token = first.extensions["auth"].first_run_token(str(path))
    first.extensions["recorder"].store.close()
    app = make_app(path)  # RECORDER_ADMIN_TOKEN set
    try:
        assert app.extensions["auth"].first_run_token(str(path)) is None
        assert app.test_client().post("/api/games", json=QELAT, headers=bearer(token)).status_code == 401
    finally:
        app.extensions["recorder"].store.close()


def test_without_any_admin_token_writes_are_refused_saying_how_to_set_one(tmp_path, monkeypatch):
    monkeypatch.delenv("RECORDER_ADMIN_TOKEN", raising=False)
    app = make_app(tmp_path / "gunicorn.sqlite3", ADMIN_TOKEN=None)  # as gunicorn wsgi:app starts
    try:
        response = app.test_client().post("/api/games", json=QELAT, headers=ANONYMOUS)
        assert response.status_code == 401 and "RECORDER_ADMIN_TOKEN" in response.get_json()["detail"]
        assert response.get_json()["title"] == "No admin token configured"
    finally:
        app.extensions["recorder"].store.close()


def test_open_mode_writes_games_outside_tournaments_as_a_named_anonymous_principal(tmp_path):
    app = make_app(tmp_path / "open.sqlite3", OPEN=True)
    try:
        client = app.test_client()
        game_id = create(client, ANONYMOUS)
        assert sow(client, game_id, "f1", 1, ANONYMOUS).status_code == 201
        events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
        assert {e["recorded_by"] for e in events} == {"anonymous (open mode)"}
        tournament = {"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 3}
        assert client.post("/api/tournaments", json=tournament, headers=ANONYMOUS).status_code == 401
        assert client.post("/api/tokens", json={"holder": "X"}, headers=ANONYMOUS).status_code == 401
        assert client.post("/api/games", json=QELAT, headers=bearer("rt_wrong")).status_code == 401
    finally:
        app.extensions["recorder"].store.close()


def test_recorder_token_issue_on_the_command_line_gives_a_working_recorder(app, client):
    result = CliRunner().invoke(main, ["token", "issue", "--holder", "Hagos", "--db", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    token_id, token = result.output.split()
    game_id = create(client, bearer(token))
    assert client.get(f"/api/games/{game_id}/events").get_json()["events"][0]["recorded_by"] == "Hagos"
    assert "Hagos" in CliRunner().invoke(main, ["token", "list", "--db", app.config["DATABASE"]]).output
    assert CliRunner().invoke(main, ["token", "revoke", token_id, "--db", app.config["DATABASE"]]).exit_code == 0
    assert client.post("/api/games", json=QELAT, headers=bearer(token)).status_code == 401


# -- verify walks every stream and escapes what it prints ------------------------------------------


def test_verify_reports_a_tampered_tournament_and_escapes_ids(app, client):
    tid = client.post(
        "/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 3}
    ).get_json()["id"]
    create(client)
    store = app.extensions["recorder"].store
    from recorder.store import NewEvent

    forged_id = "evil\nok      fake: 3 events\x1b[2J"
    store.append(forged_id, 0, [NewEvent("annotated", {"text": "x"})], recorded_by="shell")
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"], isolation_level=None)) as shell:
        shell.execute("DROP TRIGGER events_no_update")  # what someone with the file can do
        shell.execute("UPDATE events SET payload = replace(payload, 'Open', 'Shut') WHERE game_id = ?", (tid,))
    result = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"]])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.startswith("BROKEN") and tid in line for line in lines)
    assert not any(line.startswith("ok      fake") for line in lines)
    assert "\x1b" not in result.output and any("evil\\nok" in line for line in lines)
    assert sum(line.startswith("ok") for line in lines) == 1  # the one honest game


def test_a_route_that_does_not_exist_is_404_or_405_before_any_token_is_asked_for(client):
    game_id = create(client)
    assert client.post("/api/nothing-here", json={}, headers=ANONYMOUS).status_code == 404
    assert client.put(f"/api/games/{game_id}/commands", json={}, headers=ANONYMOUS).status_code == 405

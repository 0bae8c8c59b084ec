"""Attacks over HTTP that once worked (issue 35), kept as a standing suite: each test is
one way in, tried the way an outsider would, on loopback where it needs a real server,
and bounded in time.

- HEAD requests to a live stream took its listener slot for good (docs/security.md,
  *Live streams*);
- a game's stored bytes had no ceiling (*The byte ceiling per game*);
- DNS rebinding in open mode (*Host and Origin*);
- the sign-in address's token kept by the service worker and printed by the access log
  (*What the service worker keeps*);
- a command's ``type`` that is no string gave a 500;
- token holder names that imitate a reserved principal or break a line (*Holder names*).
"""

from __future__ import annotations

import contextlib
import gc
import http.client
import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest
from browser import LiveServer
from conftest import ADMIN_TOKEN, bearer, make_app

from recorder.bench.server import free_port

pytestmark = pytest.mark.timeout(120)

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
ANONYMOUS = {"Authorization": ""}  # the admin client then sends no token


def dump(app) -> list[str]:
    """Everything stored: a full SQL dump of the database file."""
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return list(conn.iterdump())


def create(client, headers=None) -> str:
    response = client.post("/api/games", json=QELAT, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


# -- A real `recorder serve` on a free loopback port ------------------------------------------


class Served:
    """`recorder serve` as an operator starts it, its output kept for the tests to read."""

    def __init__(self, folder, **env: str):
        self.port = free_port()
        self.output = folder / "serve.log"
        command = [sys.executable, "-c", "from recorder.cli.main import main; main()", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", str(folder / "served.sqlite3")]
        environment = {**os.environ, "RECORDER_ADMIN_TOKEN": ADMIN_TOKEN, **env}
        with open(self.output, "w") as log:
            self.process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if self.request("GET", "/api/variants")[0] == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"recorder serve did not answer: {self.log()}")

    def request(self, method: str, path: str, body: bytes | None = None, headers=None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, b"" if method == "HEAD" else response.read()
        finally:
            connection.close()

    def first_live_message(self, path: str) -> tuple[int, bytes]:
        """The status of a live stream and its first bytes; the connection is then dropped."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read(64) if response.status == 200 else response.read()
        finally:
            connection.close()

    def log(self) -> str:
        return self.output.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("serve"), RECORDER_LIVE_LISTENERS="2")
    yield server
    server.stop()


def served_game(served: Served) -> str:
    body = b'{"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}'
    headers = {"Content-Type": "application/json", **bearer(ADMIN_TOKEN)}
    status, answer = served.request("POST", "/api/games", body, headers)
    assert status == 201, answer
    return json.loads(answer)["id"]


def served_tournament(served: Served) -> str:
    body = b'{"name": "Hall cup", "variant": "qelat", "format": "swiss", "rounds": 3}'
    headers = {"Content-Type": "application/json", **bearer(ADMIN_TOKEN)}
    status, answer = served.request("POST", "/api/tournaments", body, headers)
    assert status == 201, answer
    return json.loads(answer)["id"]


# -- 1. Live slots -------------------------------------------------------------------------


def test_head_requests_to_live_streams_take_no_listener_slot(served):
    game_id, tournament_id = served_game(served), served_tournament(served)
    for _ in range(10):  # five times the slots this server has
        assert served.request("HEAD", f"/api/games/{game_id}/live")[0] == 200
        assert served.request("HEAD", f"/api/tournaments/{tournament_id}/live")[0] == 200
    for path in (f"/api/games/{game_id}/live", f"/api/tournaments/{tournament_id}/live"):
        status, first = served.first_live_message(path)
        assert status == 200, first
        assert first.startswith(b"retry: ")


def test_head_requests_take_no_listener_slot_under_gunicorn(tmp_path, monkeypatch):
    from recorder.bench import server as gunicorn

    monkeypatch.setenv("RECORDER_LIVE_LISTENERS", "2")
    config = gunicorn.GunicornConfig(workers=1, threads=4, worker_class="gthread")
    with gunicorn.served(str(tmp_path / "g.sqlite3"), config) as server:
        connection = http.client.HTTPConnection(gunicorn.HOST, server.port, timeout=10)
        admin = {"Content-Type": "application/json", "Authorization": f"Bearer {gunicorn.BENCH_TOKEN}"}
        connection.request("POST", "/api/games", body=json.dumps(QELAT), headers=admin)
        game_id = json.loads(connection.getresponse().read())["id"]
        for _ in range(10):
            connection.request("HEAD", f"/api/games/{game_id}/live")
            head = connection.getresponse()
            head.read()
            assert head.status == 200
        connection.request("GET", f"/api/games/{game_id}/live")
        stream = connection.getresponse()
        assert stream.status == 200 and stream.read(7) == b"retry: "
        connection.close()


def opened_stream(app, path: str):
    """A stream as a WSGI server holds it after the app answered: its body not yet read."""
    from werkzeug.test import EnvironBuilder

    statuses: list[str] = []
    body = app(EnvironBuilder(path=path).get_environ(), lambda status, headers, exc_info=None: statuses.append(status))
    return statuses, body


def test_a_stream_never_read_frees_its_slot_when_closed_or_dropped(tmp_path):
    app = make_app(tmp_path / "slots.sqlite3", LIVE_LISTENERS=1)
    game_id = create(app.test_client())
    listeners = app.extensions["live"]
    statuses, closed = opened_stream(app, f"/api/games/{game_id}/live")
    assert statuses == ["200 OK"] and listeners.open == 1
    closed.close()  # the client went before a byte was sent
    assert listeners.open == 0
    statuses, dropped = opened_stream(app, f"/api/games/{game_id}/live")
    assert statuses == ["200 OK"] and listeners.open == 1
    del dropped  # neither read nor closed: the server lost it
    gc.collect()
    assert listeners.open == 0
    statuses, read = opened_stream(app, f"/api/games/{game_id}/live")
    assert statuses == ["200 OK"] and next(iter(read)).startswith(b"retry: ")
    read.close()  # the client went in the middle of the stream
    assert listeners.open == 0


# -- 6. The sign-in token is never printed nor cached --------------------------------------


def test_the_access_log_of_recorder_serve_never_prints_a_token(served):
    token = "rt_" + "s3cret" * 7
    assert served.request("GET", f"/?token={token}")[0] == 200
    assert served.request("GET", f"/?lang=en&token={token}&x=1")[0] == 200
    deadline = time.monotonic() + 5
    while "lang=en" not in served.log() and time.monotonic() < deadline:
        time.sleep(0.05)  # the log line is written after the answer
    log = served.log()
    assert "lang=en" in log, log  # the request was logged, only the token left out
    assert token not in log and "s3cret" not in log


# -- 7. A command whose type is no string ---------------------------------------------------


@pytest.mark.parametrize("kind", [[], {}, ["sow"], {"sow": 1}, 1, None, True])
def test_a_command_type_that_is_no_string_is_422_naming_the_field(app, client, kind):
    game_id = create(client)
    before = dump(app)
    response = client.post(f"/api/games/{game_id}/commands", json={"type": kind}, headers={"If-Match": '"1"'})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert "type" in response.get_json()["errors"]
    assert dump(app) == before


ODD_VALUES: tuple[object, ...] = ([], {}, [[]], {"a": {}}, None, 1.5, True)


def test_no_field_of_any_write_given_a_list_or_an_object_is_a_5xx(app, client):
    game_id = create(client)
    tournament = client.post(
        "/api/tournaments", json={"name": "Cup", "variant": "qelat", "format": "swiss", "rounds": 3}
    )
    tournament_id = tournament.get_json()["id"]
    writes = {
        "/api/games": dict(QELAT, options={}, metadata={}),
        f"/api/games/{game_id}/commands": {"type": "sow", "hole": "f1", "player": "south", "expected_version": 1},
        "/api/tokens": {"holder": "Selam"},
        "/api/tournaments": {"name": "Cup", "variant": "qelat", "format": "swiss", "rounds": 3},
        f"/api/tournaments/{tournament_id}/players": {"name": "Abeba"},
        f"/api/tournaments/{tournament_id}/tokens": {"holder": "Hagos"},
        f"/api/games/{game_id}/claims": {"seq": 1, "position": {}},
        f"/api/games/{game_id}/what-if": {"at": 1, "commands": []},
    }
    manual = client.post("/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "manual", "rounds": 2})
    manual_id = manual.get_json()["id"]
    for name in ("Abeba", "Berhane", "Chaltu"):
        assert client.post(f"/api/tournaments/{manual_id}/players", json={"name": name}).status_code == 201
    writes |= {
        f"/api/tournaments/{manual_id}/rounds": {
            "boards": [{"south": 1, "north": 2}],
            "byes": [{"player": 3, "points": 1}],
        },
        f"/api/tournaments/{manual_id}/rounds/1/boards/1/game": {"first_player": "south", "date": "2026-11-27"},
        f"/api/tournaments/{manual_id}/rounds/1/boards/1/result": {"result": "double_forfeit", "note": "late"},
        f"/api/tournaments/{manual_id}/players/1/withdrawal": {"reason": "ill"},
    }
    for path, body in writes.items():
        for field in body:
            for value in ODD_VALUES:
                response = client.post(path, json={**body, field: value})
                assert response.status_code < 500, (path, field, value, response.get_data(as_text=True))
    for nested in ([{"south": [], "north": {}}], [{}], [[]], [None]):
        response = client.post(f"/api/tournaments/{manual_id}/rounds", json={"boards": nested, "byes": nested})
        assert response.status_code < 500, (nested, response.get_data(as_text=True))
    for value in ODD_VALUES + ([[]], [{}]):
        response = client.put(f"/api/tournaments/{manual_id}/tiebreaks", json={"tiebreaks": value})
        assert response.status_code < 500, (value, response.get_data(as_text=True))
    for kind in ("sow", "race", "opening", "lot", "next_round", "result", "retract", "annotate"):
        for value in ODD_VALUES:
            for field in ("type", "hole", "player", "winner", "holes", "choice", "kind", "count", "text"):
                body = {"type": kind, field: value} if field != "type" else {"type": value}
                response = client.post(f"/api/games/{game_id}/commands", json=body, headers={"If-Match": '"1"'})
                assert response.status_code < 500, (kind, field, value, response.get_data(as_text=True))


# -- 12. Token holder names -------------------------------------------------------------------

IMITATIONS = [
    "\u202enimda",  # right-to-left override: shows as "admin"
    "adm\u200bin",  # a zero-width space inside
    "\u0430dmin",  # Cyrillic а
    "Selam\u2028admin",  # a line separator: a second line reading "admin"
    "Selam\u2029admin",  # a paragraph separator
    "ad\u2066min\u2069",  # bidi isolates
    "admin\ufeff",  # a zero-width no-break space
    "ADMIN",
    "\uff41\uff44\uff4d\uff49\uff4e",  # fullwidth letters: NFKC makes them "admin"
    "\u0391dmin",  # Greek Α
    "\u0430\u0501m\u0456n",  # Cyrillic а, ԁ, і
    "adm1n",
    "anonymous\u00a0(open mode)",  # a no-break space
    "anonymous  (open mode)",
    "\u0430nonymous (\u043epen mode)",
    "Selam\u00adTesfay",  # a soft hyphen: invisible
]


@pytest.mark.parametrize("holder", IMITATIONS)
def test_holder_names_that_imitate_a_principal_or_break_a_line_are_422(app, client, holder):
    before = dump(app)
    for path in ("/api/tokens",):
        response = client.post(path, json={"holder": holder})
        assert response.status_code == 422, (holder, response.get_json())
        assert response.get_json()["field"] == "holder" or "holder" in response.get_json().get("errors", {})
    assert dump(app) == before


def test_holder_names_that_imitate_a_principal_are_refused_for_arbiters_and_on_the_command_line(app, client):
    from recorder.cli.main import main

    tournament = client.post(
        "/api/tournaments", json={"name": "Cup", "variant": "qelat", "format": "swiss", "rounds": 3}
    )
    tournament_id = tournament.get_json()["id"]
    response = client.post(f"/api/tournaments/{tournament_id}/tokens", json={"holder": "\u0430dmin"})
    assert response.status_code == 422, response.get_json()
    result = app.test_cli_runner().invoke(
        main, ["token", "issue", "--holder", "adm\u200bin", "--db", app.config["DATABASE"]]
    )
    assert result.exit_code != 0 and "holder" in result.output


@pytest.mark.parametrize(
    "holder", ["Selam", "Abebe Bikila", "ሰላም ተስፋዬ", "Ἀλέξανδρος", "Мария", "José-María", "Admiral"]
)
def test_ordinary_names_in_any_script_still_hold_tokens(client, holder):
    response = client.post("/api/tokens", json={"holder": holder})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["holder"] == holder


# -- 5. Host and Origin ---------------------------------------------------------------------


@pytest.fixture
def open_app(tmp_path):
    return make_app(tmp_path / "open.sqlite3", OPEN=True)


def test_a_write_under_a_foreign_host_is_refused_in_open_mode(open_app):
    client = open_app.test_client()
    before = dump(open_app)
    rebound = {"Host": "attacker.example:8080", "Origin": "http://attacker.example:8080", **ANONYMOUS}
    response = client.post("/api/games", json=QELAT, headers=rebound)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert "attacker.example" in response.get_json()["detail"]
    assert "RECORDER_ALLOWED_HOSTS" in response.get_json()["detail"]
    assert client.get("/api/games", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert dump(open_app) == before


def test_a_write_whose_origin_is_not_the_host_is_refused(open_app):
    client = open_app.test_client()
    before = dump(open_app)
    for origin in ("http://attacker.example", "null", "http://127.0.0.1:9", "http://localhost.attacker.example"):
        headers = {"Host": "127.0.0.1:5000", "Origin": origin, **ANONYMOUS}
        response = client.post("/api/games", json=QELAT, headers=headers)
        assert response.status_code == 403, (origin, response.get_data(as_text=True))
        assert response.mimetype == "application/problem+json"
    assert dump(open_app) == before


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:5000", "127.0.0.1:5000", "[::1]:5000", "192.168.1.20:5000", "recorder.localhost"],
)
def test_loopback_names_and_addresses_are_served(open_app, host):
    client = open_app.test_client()
    origin = {"Origin": f"http://{host}"}
    response = client.post("/api/games", json=QELAT, headers={"Host": host, **origin, **ANONYMOUS})
    assert response.status_code == 201, response.get_data(as_text=True)


def test_a_configured_public_host_name_is_served(tmp_path, monkeypatch):
    monkeypatch.setenv("RECORDER_ALLOWED_HOSTS", "records.example.org, hall.lan")
    app = make_app(tmp_path / "proxied.sqlite3")
    client = app.test_client()
    for host in ("records.example.org", "hall.lan:8000", "localhost"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/games", headers={"Host": "example.org"}).status_code == 400
    headers = {"Host": "records.example.org", "Origin": "https://records.example.org"}
    assert client.post("/api/games", json=QELAT, headers=headers).status_code == 201


def test_recorder_serve_answers_to_the_name_it_is_given(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from recorder.cli import serving
    from recorder.cli.main import main

    served_apps: list = []
    monkeypatch.setattr(serving, "patch_process", lambda: None)  # gevent patches a real server's process only
    monkeypatch.setattr(serving, "serve_forever", lambda app, *where: served_apps.append(app))
    monkeypatch.setenv("RECORDER_ADMIN_TOKEN", ADMIN_TOKEN)
    arguments = ["serve", "--host", "Hall-Laptop.local", "--db", str(tmp_path / "named.sqlite3")]
    assert CliRunner().invoke(main, arguments).exit_code == 0
    client = served_apps[0].test_client()
    try:
        assert client.get("/api/games", headers={"Host": "hall-laptop.local:5000"}).status_code == 200
        assert client.get("/api/games", headers={"Host": "other.local:5000"}).status_code == 400
    finally:
        served_apps[0].extensions["recorder"].store.close()


@pytest.mark.parametrize("configured", ["hall.lan, .example.org", ("Hall.lan", ".example.org")])
def test_public_host_names_in_the_app_config(tmp_path, configured):
    client = make_app(tmp_path / "config.sqlite3", ALLOWED_HOSTS=configured).test_client()
    for host, status in (("hall.lan", 200), ("records.example.org", 200), ("example.org", 400), ("lan", 400)):
        assert client.get("/api/games", headers={"Host": host}).status_code == status, host


def test_a_real_server_refuses_a_rebound_host(served):
    status, body = served.request("GET", "/api/games", headers={"Host": "attacker.example:8080"})
    assert status == 400 and b"RECORDER_ALLOWED_HOSTS" in body


# -- 4. Bytes per game ----------------------------------------------------------------------


def annotate(client, game_id: str, version: int, text: str, headers=None):
    return client.post(
        f"/api/games/{game_id}/commands",
        json={"type": "annotate", "text": text},
        headers={"If-Match": f'"{version}"', **(headers or {})},
    )


def test_a_game_over_the_byte_ceiling_is_422_naming_it_and_stores_nothing(tmp_path):
    app = make_app(tmp_path / "bytes.sqlite3", MAX_BYTES_PER_GAME=40_000)
    client = app.test_client()
    game_id = create(client)
    note = "n" * 5000
    version = 1
    while (response := annotate(client, game_id, version, note)).status_code == 201:
        version = response.get_json()["version"]
        assert version < 20, "the ceiling never refused"
    assert version == 8  # seven notes of ~5 KB fit under 40,000 bytes with the setup; the eighth does not
    problem = response.get_json()
    assert response.status_code == 422, problem
    assert problem["limit"] == "bytes_per_game" and problem["maximum"] == 40_000 and problem["actual"] > 40_000
    assert "MAX_BYTES_PER_GAME" in problem["detail"]
    before = dump(app)
    assert annotate(client, game_id, version, note).status_code == 422
    assert dump(app) == before
    anonymous = client.get(f"/api/games/{game_id}/events", headers=ANONYMOUS)
    assert len(anonymous.get_data()) < 40_000 + version * 400  # the ceiling, and a bounded envelope per event


def test_the_byte_ceiling_has_a_default_and_is_set_from_the_environment(tmp_path, monkeypatch):
    from recorder import limits

    app = make_app(tmp_path / "default.sqlite3")
    assert app.config["MAX_BYTES_PER_GAME"] == limits.BYTES_PER_GAME == 4 * 1024 * 1024
    monkeypatch.setenv("RECORDER_MAX_BYTES_PER_GAME", "12000")
    app = make_app(tmp_path / "env.sqlite3")
    client = app.test_client()
    game_id = create(client)
    assert annotate(client, game_id, 1, "n" * 5000).status_code == 201
    assert annotate(client, game_id, 2, "n" * 5000).status_code == 201
    refused = annotate(client, game_id, 3, "n" * 5000)
    assert refused.status_code == 422 and refused.get_json()["limit"] == "bytes_per_game"


def test_the_byte_ceiling_counts_what_another_worker_stored(tmp_path):
    database = tmp_path / "two.sqlite3"
    first = make_app(database, MAX_BYTES_PER_GAME=12_000).test_client()
    second = make_app(database, MAX_BYTES_PER_GAME=12_000).test_client()
    game_id = create(first)
    assert annotate(first, game_id, 1, "n" * 5000).status_code == 201
    assert annotate(second, game_id, 2, "n" * 5000).status_code == 201
    assert annotate(first, game_id, 3, "n" * 5000).status_code == 422


@pytest.mark.parametrize("kind", ["application/x-ndjson", "text/x-mancala-notation"])
@pytest.mark.parametrize("who", ["admin", "recorder"])
def test_an_import_over_the_byte_ceiling_is_refused(tmp_path, kind, who):
    app = make_app(tmp_path / "import.sqlite3", MAX_BYTES_PER_GAME=12_000)
    client = app.test_client()
    source = make_app(tmp_path / "source.sqlite3").test_client()
    game_id = create(source)
    for version in range(1, 4):
        assert annotate(source, game_id, version, "n" * 5000).status_code == 201
    exported = source.get("/api/export", headers={"Accept": kind}).get_data()
    headers = {} if who == "admin" else bearer(client.post("/api/tokens", json={"holder": "Selam"}).get_json()["token"])
    before = client.get("/api/games").get_json()
    response = client.post("/api/import", data=exported, content_type=kind, headers=headers)
    games = response.get_json()["games"]
    assert [game["status"] for game in games] == ["refused"], games
    assert "(MAX_BYTES_PER_GAME)" in games[0]["error"]["detail"], games
    assert client.get("/api/games").get_json() == before


# -- 6. The service worker keeps no token ----------------------------------------------------


def test_the_service_worker_never_caches_the_sign_in_token_and_pages_show_hidden_characters(tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    from browser import CHROMIUM, launch_chromium

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    app = make_app(tmp_path / "sw.sqlite3")
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_context(base_url=server.url).new_page()
            page.goto(f"/?token={ADMIN_TOKEN}")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
            page.goto(f"/?token={ADMIN_TOKEN}")  # now through the worker
            page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
            page.wait_for_function("async () => (await (await caches.open('recorder-pages')).keys()).length > 0")
            kept = page.evaluate(
                """async () => {
                  const seen = [];
                  for (const name of await caches.keys()) {
                    const cache = await caches.open(name);
                    for (const request of await cache.keys()) {
                      seen.push(request.url, (await cache.match(request)).url);
                      for (const [header, value] of request.headers) seen.push(header + ': ' + value);
                    }
                  }
                  return seen;
                }"""
            )
            shown = page.evaluate(
                "async () => (await import('/web-static/js/site.js')).visible('\\u202enimda, Selam\\u2028admin')"
            )
        finally:
            browser.close()
    assert shown == "<U+202E>nimda, Selam<U+2028>admin"  # a page shows who recorded, never acts on it
    assert any(url.endswith("/") for url in kept), kept  # the home page is still kept for offline use
    assert not any(ADMIN_TOKEN in entry or "token=" in entry for entry in kept), kept

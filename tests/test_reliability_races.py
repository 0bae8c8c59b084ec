"""Races and retries against the real server: gunicorn, 2 worker processes, one database
(a SQLite file, then a PostgreSQL database: each test runs on both backends).

Many clients append to one game at one version at the same instant: exactly one wins
(201), every other gets 409, and the log never forks. Many copies of one request with
one Idempotency-Key race: one event (or game) is stored and every copy gets it back.
"""

from __future__ import annotations

import pytest
from support.races import race

from recorder.bench.loadgen import Connection
from recorder.bench.server import GunicornConfig, start
from recorder.core import chain
from recorder.games.service import Recorder, fingerprint
from recorder.store import Idempotency
from recorder.store.backends import open_store

pytestmark = pytest.mark.timeout(90)

RACERS = 16
ROUNDS = 6
QELAT = {"variant": "qelat", "south": "Racer S", "north": "Racer N", "first_player": "south"}


@pytest.fixture(scope="module")
def server(module_database):
    server = start(module_database, GunicornConfig(workers=2))
    yield server
    server.stop()


def all_at_once(port: int, count: int, request) -> list:
    """Run ``request(index, connection)`` in ``count`` threads released together."""
    return race([port] * count, request)


@pytest.fixture
def conn(server):
    connection = Connection(server.port, timeout=20)
    yield connection
    connection.close()


def stored_events(server, game_id: str):
    store = open_store(server.db_path)
    try:
        return store.read(game_id)
    finally:
        store.close()


def assert_one_unforked_chain(server, conn, game_id: str, version: int) -> None:
    served = conn.call("GET", f"/api/games/{game_id}/events").body["events"]
    assert [e["seq"] for e in served] == list(range(1, version + 1))
    stored = stored_events(server, game_id)
    assert [e.hash for e in stored] == [e["hash"] for e in served]
    assert chain.first_broken_link(stored) is None


def new_game(conn, **extra) -> dict:
    reply = conn.call("POST", "/api/games", {**QELAT, **extra})
    assert reply.status == 201, reply.body
    return reply.body


def test_racing_appends_at_one_version_one_wins_the_others_get_409_and_no_fork(server, conn):
    game = new_game(conn)
    game_id, version, legal = game["id"], game["version"], game["state"]["legal_moves"]
    url = f"/api/games/{game_id}/commands"
    for round_number in range(ROUNDS):

        def append(index: int, connection: Connection, legal=legal, version=version):
            command = {"type": "sow", "hole": legal[index % len(legal)]}
            if index % 2:  # half name the version in the body, half in If-Match
                return connection.call("POST", url, {**command, "expected_version": version})
            return connection.call("POST", url, command, {"If-Match": f'"{version}"'})

        replies = all_at_once(server.port, RACERS, append)
        statuses = sorted(reply.status for reply in replies)
        assert statuses == [201] + [409] * (RACERS - 1), f"round {round_number}: {statuses}"
        winner = next(reply for reply in replies if reply.status == 201)
        assert all(r.headers["Content-Type"] == "application/problem+json" for r in replies if r.status == 409)
        version, legal = winner.body["version"], winner.body["state"]["legal_moves"]
        assert version == 2 + round_number
    assert_one_unforked_chain(server, conn, game_id, 1 + ROUNDS)


def test_racing_retries_of_one_command_with_one_idempotency_key_store_one_event(server, conn):
    game_id = new_game(conn)["id"]
    for attempt in range(2):  # a command names its version (a version-less one is 428)
        version = conn.call("GET", f"/api/games/{game_id}/state").body["version"]
        key = f"retry-{game_id}-{attempt}"
        headers = {"Idempotency-Key": key, "If-Match": f'"{version}"'}
        body = {"type": "annotate", "text": f"retried {key}"}
        url = f"/api/games/{game_id}/commands"

        def retry(index: int, connection: Connection, url=url, body=body, headers=headers):
            return connection.call("POST", url, body, headers)

        replies = all_at_once(server.port, RACERS, retry)
        assert {reply.status for reply in replies} == {201}, [r.body for r in replies if r.status != 201]
        assert {reply.body["event"]["hash"] for reply in replies} == {replies[0].body["event"]["hash"]}
        assert replies[0].body["event"]["seq"] == version + 1
    assert_one_unforked_chain(server, conn, game_id, 3)


def test_racing_game_creations_with_one_idempotency_key_store_one_game(server, conn):
    body = {**QELAT, "south": "Idempotent South", "north": "Idempotent North"}
    headers = {"Idempotency-Key": "create-once"}
    replies = all_at_once(server.port, RACERS, lambda i, c: c.call("POST", "/api/games", body, headers))
    assert {reply.status for reply in replies} == {201}
    assert len({reply.body["id"] for reply in replies}) == 1
    listed = conn.call("GET", "/api/games?player=Idempotent%20South").body["games"]
    assert [game["id"] for game in listed] == [replies[0].body["id"]]
    assert_one_unforked_chain(server, conn, replies[0].body["id"], 1)


def test_a_retry_overtaken_by_its_own_original_gets_the_original_not_a_409(database):
    """The narrow window, made certain: the retry checks its key, then the original
    lands, then the retry finds the game a version further on. It must answer with the
    original event (a replay), not a 409, and store nothing."""
    store = open_store(database)
    recorder = Recorder(store)
    game_id = recorder.create_game(QELAT, recorded_by="test").game.game_id
    command = {"type": "sow", "hole": "d1"}
    key = Idempotency("the-key", fingerprint("POST", f"/api/games/{game_id}/commands", command))
    check_key, landed = store.replayed, {}

    def original_lands_after_the_check(idempotency):
        answer = check_key(idempotency)
        if "original" not in landed:
            landed["original"] = None  # the original's own key check must not land it again
            landed["original"] = Recorder(store).record(
                game_id, dict(command), expected_version=1, recorded_by="test", idempotency=key
            )
        return answer

    store.replayed = original_lands_after_the_check
    retry = recorder.record(game_id, dict(command), expected_version=1, recorded_by="test", idempotency=key)
    assert retry.replayed
    assert retry.events == landed["original"].events
    assert store.version(game_id) == 2
    store.close()

"""Several app servers, one PostgreSQL database: two gunicorn instances (2 workers each)
on different ports record the same games, racing on the same versions through both.

Each round, 16 clients (half on each server) append to one game at one version: exactly
one wins, the log never forks, and every worker of both servers then serves the same
state (each worker's state cache checks the stored version on every request).
"""

from __future__ import annotations

import pytest
from support.races import race

from recorder.bench.loadgen import Connection
from recorder.bench.server import GunicornConfig, start
from recorder.core import chain
from recorder.store.postgres import PostgresEventStore

pytestmark = pytest.mark.timeout(120)

RACERS = 16
ROUNDS = 5
GAMES = 3
QELAT = {"variant": "qelat", "south": "Two S", "north": "Two N", "first_player": "south"}


@pytest.fixture
def servers(postgres_url):
    first = start(postgres_url, GunicornConfig(workers=2))
    try:
        second = start(postgres_url, GunicornConfig(workers=2))
    except BaseException:
        first.stop()
        raise
    yield first, second
    second.stop()
    first.stop()


def test_two_app_servers_on_one_database_record_each_version_once(servers, postgres_url):
    ports = [server.port for server in servers]
    racing_ports = [ports[i % 2] for i in range(RACERS)]
    creator = Connection(ports[0], timeout=20)
    games = [creator.call("POST", "/api/games", {**QELAT, "round": str(i)}).body for i in range(GAMES)]
    creator.close()
    for game in games:
        version, legal = game["version"], game["state"]["legal_moves"]
        url = f"/api/games/{game['id']}/commands"
        for round_number in range(ROUNDS):

            def append(index: int, connection: Connection, legal=legal, version=version, url=url):
                command = {"type": "sow", "hole": legal[index % len(legal)]}
                return connection.call("POST", url, command, {"If-Match": f'"{version}"'})

            replies = race(racing_ports, append)
            statuses = sorted(reply.status for reply in replies)
            assert statuses == [201] + [409] * (RACERS - 1), f"round {round_number}: {statuses}"
            winner = next(reply for reply in replies if reply.status == 201)
            version, legal = winner.body["version"], winner.body["state"]["legal_moves"]
        assert version == 1 + ROUNDS
        assert_both_servers_serve_one_chain(ports, game["id"], version, postgres_url)


def test_one_idempotency_key_through_both_servers_stores_one_event(servers, postgres_url):
    ports = [server.port for server in servers]
    creator = Connection(ports[1], timeout=20)
    game_id = creator.call("POST", "/api/games", QELAT).body["id"]
    creator.close()
    headers = {"Idempotency-Key": f"both-{game_id}", "If-Match": '"1"'}
    body = {"type": "annotate", "text": "sent to both servers"}
    replies = race(
        [ports[i % 2] for i in range(RACERS)],
        lambda i, c: c.call("POST", f"/api/games/{game_id}/commands", body, headers),
    )
    assert {reply.status for reply in replies} == {201}
    assert len({reply.body["event"]["hash"] for reply in replies}) == 1
    assert_both_servers_serve_one_chain(ports, game_id, 2, postgres_url)


def assert_both_servers_serve_one_chain(ports: list[int], game_id: str, version: int, url: str) -> None:
    with PostgresEventStore(url) as store:
        stored = store.read(game_id)
    assert [e.seq for e in stored] == list(range(1, version + 1))
    assert chain.first_broken_link(stored) is None
    states = []
    for port in ports:
        for _ in range(4):  # a new connection each time lands on either worker: every cache is checked
            connection = Connection(port, timeout=20)
            served = connection.call("GET", f"/api/games/{game_id}/events").body["events"]
            assert [e["hash"] for e in served] == [e.hash for e in stored]
            states.append(connection.call("GET", f"/api/games/{game_id}/state").body)
            connection.close()
    assert all(state == states[0] for state in states) and states[0]["version"] == version

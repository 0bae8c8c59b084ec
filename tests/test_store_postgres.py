"""What only the PostgreSQL backend can show: its triggers, privileges, migrations, locks
and the primary key as the second wall, and the whole service on it.

The conformance suite (tests/test_store.py) runs on PostgreSQL too; these tests need the
server started by tests/conftest.py and are skipped, with the reason, without one.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from click.testing import CliRunner
from conftest import make_app
from pg_server import free_port  # nothing listens there: a connection is refused

from recorder.archive.frame import NDJSON_HEADER, ndjson_terminator
from recorder.cli import main
from recorder.core import chain
from recorder.errors import Unavailable, VersionConflict
from recorder.games.service import Recorder
from recorder.store import NewEvent
from recorder.store.pg_schema import LATEST, MIGRATIONS
from recorder.store.postgres import PostgresEventStore

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(postgres_url):
    with PostgresEventStore(postgres_url) as backend:
        yield backend


def moves(*pits: int) -> list[NewEvent]:
    return [NewEvent("sow", {"pit": pit}) for pit in pits]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{}'",
        "DELETE FROM events",
        "TRUNCATE events CASCADE",
        "UPDATE streams SET stream_type = 'tournament'",
        "DELETE FROM streams",
        "INSERT INTO events SELECT game_id, seq + 5, type, payload, recorded_at, recorded_by, prev_hash, hash, line"
        " FROM events WHERE seq = 1",  # a gap
        "INSERT INTO events SELECT game_id, 3, type, payload, recorded_at, recorded_by, 'forged', hash, line"
        " FROM events WHERE seq = 1",  # a broken link
    ],
)
def test_the_database_refuses_to_change_stored_events_even_for_their_owner(store, postgres_url, statement):
    store.append("g", 0, moves(1, 2))
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
            conn.execute(statement)
    assert chain.first_broken_link(store.read("g")) is None and store.version("g") == 2


def test_an_application_role_may_read_and_append_but_not_change(postgres_server, postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS recorder_app")
        conn.execute("CREATE ROLE recorder_app LOGIN")
    result = CliRunner().invoke(main, ["init-db", "--db", postgres_url, "--app-role", "recorder_app"])
    assert result.exit_code == 0, result.output
    as_app = postgres_url.replace("postgres@", "recorder_app@")
    with PostgresEventStore(as_app) as store:  # opens without DDL: the schema is current
        store.append("g", 0, moves(1, 2))
        assert store.version("g") == 2
        game = Recorder(store).create_game(QELAT, recorded_by=BY).game  # its projections: a game's number too
        assert Recorder(store).positions.of_game(game.game_id) != []
    with psycopg.connect(as_app, autocommit=True) as conn:
        for statement in ("UPDATE events SET type = 'x'", "DELETE FROM events", "TRUNCATE events"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DROP TRIGGER events_no_change ON events")


def test_init_db_applies_each_migration_once_and_records_it(postgres_server):
    url = postgres_server.create_database()
    for _ in range(2):
        result = CliRunner().invoke(main, ["init-db", "--db", url])
        assert result.exit_code == 0 and f"database ready: {url}" in result.output
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT version, name FROM recorder_migrations ORDER BY version").fetchall()
    assert rows == [(version, name) for version, name, _ in MIGRATIONS] and rows[-1][0] == LATEST


def test_the_primary_key_is_the_second_wall_when_a_writer_skips_the_lock(store, monkeypatch):
    """With the advisory lock taken out, racing appends at one version still store one
    event: the losers' inserts hit the primary key and are reported as VersionConflict."""
    store.append("g", 0, moves(1))
    from recorder.store.postgres import PgHandle

    execute = PgHandle.execute

    def without_the_lock(self, sql, params=None):
        if "pg_advisory_xact_lock" in sql:
            return execute(self, "SELECT pg_sleep(0.05)")  # keep the window open instead
        return execute(self, sql, params)

    monkeypatch.setattr(PgHandle, "execute", without_the_lock)
    barrier, outcomes = threading.Barrier(8), []

    def racer(pit: int) -> None:
        barrier.wait()
        try:
            outcomes.append(store.append("g", 1, moves(pit)))
        except Exception as error:  # asserted on below
            outcomes.append(error)

    threads = [threading.Thread(target=racer, args=(pit,)) for pit in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(outcomes) == 8 and sum(isinstance(o, VersionConflict) for o in outcomes) == 7, outcomes
    assert store.version("g") == 2 and chain.first_broken_link(store.read("g")) is None


def test_writers_of_one_game_queue_while_other_games_go_on(store, postgres_url):
    """The advisory lock is per stream: holding game a's blocks only a's appends."""
    store.append("a", 0, moves(1))
    holder = psycopg.connect(postgres_url)  # a transaction holding a's lock, as a slow writer would
    holder.execute("SELECT pg_advisory_xact_lock(hashtextextended('a', 0))")
    started = time.monotonic()
    store.append("b", 0, moves(1))
    assert time.monotonic() - started < 2  # another game: no wait
    done = threading.Event()
    waiter = threading.Thread(target=lambda: (store.append("a", 1, moves(2)), done.set()))
    waiter.start()
    assert not done.wait(0.5)  # game a's writer queues behind the lock
    holder.rollback()
    assert done.wait(10)
    waiter.join()
    holder.close()
    assert (store.version("a"), store.version("b")) == (2, 1)


BY = "Arbiter Hagos"  # every event names who recorded it
QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def test_the_service_records_lists_and_verifies_games_on_postgres(postgres_url):
    app = make_app(postgres_url)
    client = app.test_client()
    game = client.post("/api/games", json={**QELAT, "event": "Asmara Open"}).get_json()
    game_id, state = game["id"], game["state"]
    for _ in range(6):
        sow = {"type": "sow", "hole": state["legal_moves"][0], "expected_version": state["version"]}
        reply = client.post(f"/api/games/{game_id}/commands", json=sow)
        assert reply.status_code == 201, reply.get_json()
        state = reply.get_json()["state"]
    listed = client.get("/api/games?player=Abeba").get_json()["games"]
    assert [g["id"] for g in listed] == [game_id]
    assert client.get(f"/api/games/{game_id}/state").get_json()["version"] == 7
    ndjson = client.get("/api/export?player=Abeba", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    lines = app.extensions["recorder"].store.event_lines(game_id)
    assert ndjson == NDJSON_HEADER + "".join(line + "\n" for line in lines) + ndjson_terminator(1, 7)
    app.extensions["recorder"].store.close()
    for command in (["rebuild"], ["verify", "--projections"], ["verify"]):
        result = CliRunner().invoke(main, [*command, "--db", postgres_url])
        assert result.exit_code == 0, (command, result.output)
    assert "verified 1 streams, 7 events: 0 failed" in result.output


def test_a_request_that_finds_no_free_connection_is_told_to_retry_not_a_500(postgres_url, monkeypatch):
    """The pool waits 30 s for a connection, then raises PoolTimeout: the server went away,
    or every connection is busy. The request is told to retry later (503 with
    Retry-After), as when SQLite is locked; nothing was written."""
    from psycopg_pool import ConnectionPool, PoolTimeout

    app = make_app(postgres_url)
    client = app.test_client()
    game_id = client.post("/api/games", json=QELAT).get_json()["id"]

    def no_connection(pool, timeout=None):
        raise PoolTimeout("couldn't get a connection after 30.00 sec")

    monkeypatch.setattr(ConnectionPool, "getconn", no_connection)
    replies = []
    request = threading.Thread(target=lambda: replies.append(client.get(f"/api/games/{game_id}/state")))
    request.start()  # a thread of its own: this thread's connection is kept, a new one is asked for
    request.join()
    assert replies[0].status_code == 503 and replies[0].headers["Retry-After"] == "5"
    assert replies[0].get_json()["detail"].startswith("no connection to the PostgreSQL server is free")


def test_opening_a_store_on_a_server_that_refuses_names_the_reason():
    with pytest.raises(Unavailable, match="cannot reach the PostgreSQL server: .*refused"):
        PostgresEventStore(f"postgresql://arbiter:s3cret@127.0.0.1:{free_port()}/records")


def test_checkpoints_on_postgres_sign_with_the_key_file_every_app_server_shares(postgres_url, tmp_path, monkeypatch):
    from recorder.audit.checkpoints import key_path
    from recorder.errors import Unavailable

    monkeypatch.delenv("RECORDER_KEY_FILE", raising=False)
    with pytest.raises(Unavailable, match="RECORDER_KEY_FILE"):
        key_path(postgres_url)
    client = make_app(postgres_url).test_client()  # a server set up without it says so: 503, not 500
    game = client.post("/api/games", json={"variant": "qelat", "south": "A", "north": "B", "first_player": "south"})
    response = client.get(f"/api/games/{game.get_json()['id']}/checkpoint")
    assert response.status_code == 503 and "RECORDER_KEY_FILE" in response.get_json()["detail"]
    monkeypatch.setenv("RECORDER_KEY_FILE", str(tmp_path / "hall.ed25519"))
    assert key_path(postgres_url) == str(tmp_path / "hall.ed25519")


def test_an_append_on_one_app_server_wakes_listeners_on_another(postgres_url, monkeypatch):
    """Two stores on one database stand for two app servers: the NOTIFY sent in one's
    append wakes the other's waiters at once (their fallback reads are 60 s apart here)."""
    from recorder.store.notify import AppendListener, wait_for_append

    monkeypatch.setattr(AppendListener, "reread", 60.0)

    with PostgresEventStore(postgres_url) as first, PostgresEventStore(postgres_url) as second:
        first.append("g", 0, moves(1))
        second.append_listener()  # listening before the wait, as a live view's server would be
        woke: list = []
        waiters = [
            threading.Thread(target=lambda: woke.append((wait_for_append(second, "g", 1, 30), time.monotonic())))
            for _ in range(3)
        ]
        for waiter in waiters:
            waiter.start()
        time.sleep(0.5)
        assert not woke
        first.append("g", 1, moves(2))
        appended = time.monotonic()
        for waiter in waiters:
            waiter.join(timeout=30)
        assert [version for version, _ in woke] == [2, 2, 2]
        assert max(at for _, at in woke) - appended < 2


def test_a_string_holding_u0000_finds_nothing_instead_of_failing(store, postgres_url):
    """PostgreSQL text cannot hold U+0000: appends refuse it in ids, and reads asking for it
    find nothing (a 404 or an empty list, never a 500)."""
    from recorder.games.games_list import GamesList
    from recorder.store import GAME

    with pytest.raises(ValueError, match="U\\+0000"):
        store.append("a\x00b", 0, moves(1))
    assert (store.read("a\x00b"), store.version("a\x00b"), store.stream_type("a\x00b")) == ([], 0, None)
    assert store.event_lines("a\x00b") == [] and store.stream_ids(GAME, after="\x00") == []
    assert GamesList(store).page(player="\x00") == []
    app = make_app(postgres_url)
    client = app.test_client()
    assert client.get("/api/games/a%00b/state").status_code == 404
    listed = client.get("/api/games?player=%00")  # a control character: refused before any query
    assert listed.status_code == 422
    app.extensions["recorder"].store.close()


def test_the_position_index_and_notation_cache_work_and_rebuild_on_postgres(postgres_url):
    """The projections beside the store share their code with SQLite (one SQL, postgres.PgHandle): the
    position index is written with each append, searched, dropped and rebuilt."""
    from recorder.archive.transfer import Archive
    from recorder.games.caches import NotationCache
    from recorder.projections import check, derive, rebuild, search
    from recorder.rules.position_text import position_text

    start = "4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 1"
    with PostgresEventStore(postgres_url) as store:
        recorder = Recorder(store)
        first = recorder.create_game(QELAT, recorded_by=BY).game.game_id
        second = recorder.create_game(QELAT, recorded_by=BY).game.game_id
        for game_id in (first, second):
            recorder.record(game_id, {"type": "sow", "hole": "a1"}, expected_version=1, recorded_by=BY)
        after = recorder.game(first)
        hits = {
            (h["game_id"], h["seq"]) for h in search(recorder, position_text(after.rules, after.state))["occurrences"]
        }
        assert hits == {(first, 2), (second, 2)}
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("DELETE FROM positions")
            conn.execute("DELETE FROM games")
        assert any("position index" in line for line in check(recorder))
        assert rebuild(recorder) == 2 and list(check(recorder)) == []
        assert {(h["game_id"], h["seq"]) for h in search(recorder, start)["occurrences"]} == {(first, 1), (second, 1)}
        assert NotationCache(store).fresh(first) == derive(first, store.read(first)).notation  # type: ignore[arg-type]
        exported = "".join(Archive(store).export_notation([first, second]))
        assert all(derive(g, store.read(g)).notation in exported for g in (first, second))


def test_the_append_bench_runs_against_postgres(postgres_url):
    from recorder.bench import appends
    from recorder.bench.server import GunicornConfig

    figures = appends.measure(
        seconds=0.5, max_requests=40, config=GunicornConfig(workers=1), warmup_seconds=0, database=postgres_url
    )
    assert figures.tally.requests > 0 and figures.refused == 0
    with PostgresEventStore(postgres_url) as store:
        assert store.stream_ids("game")  # the games were recorded in PostgreSQL


def test_the_postgres_store_asks_for_nothing_to_be_read_ahead_of_a_walk(store):
    """The server keeps its own cache; ``recorder verify`` walks it as it is."""
    assert store.read_ahead() is False


def test_migration_3_rewrites_an_index_of_key_texts_as_the_digests_the_service_computes(postgres_server, monkeypatch):
    """A database whose position index held the keys' texts (migration 2) answers the same
    searches once migration 3 has rewritten it as digests and game numbers: PostgreSQL's
    SHA-256 in SQL gives the very integers ``key_digest`` gives."""
    from recorder.core.position_digest import key_digest
    from recorder.projections import search
    from recorder.store import pg_schema

    start = "4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 1"
    other = "0,5,5,5,5,4/4,4,4,4,4,4 - - 0-0 N 1"
    url = postgres_server.create_database()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:2])
    with psycopg.connect(url) as conn:
        pg_schema.migrate(conn)
        rows = [(start, "g1", 1), (start, "g2", 1), (other, "g2", 2), ("é ü", "g3", 4)]
        conn.cursor().executemany("INSERT INTO positions (position, game_id, seq) VALUES (%s, %s, %s)", rows)
        conn.commit()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:3])
    with psycopg.connect(url) as conn:
        assert pg_schema.migrate(conn) == [3]
        query = "SELECT key_high, key_low, game_id, seq FROM positions JOIN position_games USING (game) ORDER BY 3, 4"
        migrated = conn.execute(query).fetchall()
    assert migrated == [(*key_digest(key), game_id, seq) for key, game_id, seq in sorted(rows, key=lambda r: r[1:])]
    with PostgresEventStore(url) as store:
        assert [(hit["game_id"], hit["seq"]) for hit in search(Recorder(store), start)["occurrences"]] == [
            ("g1", 1),
            ("g2", 1),
        ]


def test_migration_4_gives_the_games_stored_before_it_their_players_search_keys(postgres_server, monkeypatch):
    """A games list from before searches ignored case: migration 4 derives the keys in SQL,
    and they are the keys ``player_key`` gives (a name in Ge'ez script included)."""
    from recorder.core.names import player_key
    from recorder.store import pg_schema

    url = postgres_server.create_database()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:3])
    names = [("  Selam   TESFAY ", "Berhane"), ("ሰላም ተስፋይ", "Ärmi Çelik")]
    with psycopg.connect(url) as conn:
        pg_schema.migrate(conn)
        conn.cursor().executemany(
            "INSERT INTO games (game_id, south, north, created_at, updated_at) VALUES (%s, %s, %s, 'x', 'x')",
            [(f"g{n}", south, north) for n, (south, north) in enumerate(names)],
        )
        conn.commit()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:4])
    with psycopg.connect(url) as conn:
        assert pg_schema.migrate(conn) == [4]
        keys = conn.execute("SELECT south_key, north_key FROM games ORDER BY game_id").fetchall()
    assert keys == [(player_key(south), player_key(north)) for south, north in names]


def test_migration_5_reads_each_streams_head_from_its_events(postgres_server, monkeypatch):
    """A database from before stream heads gets each stream's last seq and hash, and then
    every append moves its stream's head forward (docs/security.md, "What verify checks")."""
    from recorder.store import pg_schema

    url = postgres_server.create_database()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:5])
    with PostgresEventStore(url) as store:
        store.append("g", 0, [NewEvent("a", {"n": 1}), NewEvent("b", {"n": 2})], recorded_by="test")
        store.append("h", 0, [NewEvent("a", {"n": 3})], recorded_by="test")
    with psycopg.connect(url) as conn:
        conn.execute("DROP TABLE stream_heads")
        conn.execute("DROP FUNCTION recorder_head_forward()")
        conn.execute("DELETE FROM recorder_migrations WHERE version >= 5")
        conn.commit()
        assert pg_schema.migrate(conn) == [5]
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS)
    with PostgresEventStore(url) as store:
        assert store.stream_heads() == []  # every head agrees with its events
        (head,) = store.stream_heads("g")
        assert (head.head_seq, head.head_hash) == (2, store.read("g")[-1].hash)
        store.append("g", 2, [NewEvent("c", {"n": 4})], recorded_by="test")
        assert store.stream_heads("g")[0].head_seq == 3 and store.stream_heads() == []


def test_migration_6_adds_the_player_registry_to_a_database_with_records(postgres_server, monkeypatch):
    """A database of migration 5 with games and tournaments takes player streams and the
    registry's tables once migration 6 has run; what was there is unchanged."""
    from recorder.players.service import Players
    from recorder.store import pg_schema

    url = postgres_server.create_database()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:5])
    with PostgresEventStore(url) as store:
        game = Recorder(store).create_game(QELAT, recorded_by="Arbiter").game.game_id
        before = store.event_lines(game)
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:6])
    with psycopg.connect(url) as conn:
        assert pg_schema.migrate(conn) == [6]
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS)  # today's code writes to today's tables too
    with PostgresEventStore(url) as store:
        assert store.event_lines(game) == before
        written = Players(Recorder(store)).register({"name": "Abeba", "federation": "ERI"}, recorded_by="admin")
        assert store.stream_type(written.player.player_id) == "player"
        assert [r["player_id"] for r in Players(Recorder(store)).search("abe")] == [written.player.player_id]


def test_migration_7_gives_each_finished_game_its_result_as_the_lists_read_it(postgres_server, monkeypatch):
    """A database of migration 6 gets ``game_results``: each finished game's result at the
    event that ended it (an annotation after the end aside), nothing for a game in play;
    then every append that changes a result adds its row, and a rebuild agrees."""
    from recorder.games.results import GameResults
    from recorder.projections import check
    from recorder.store import pg_schema

    url = postgres_server.create_database()
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:6])
    result = {"type": "result", "kind": "resignation", "winner": "north"}
    with PostgresEventStore(url) as store:
        recorder = Recorder(store)
        monkeypatch.setattr(recorder.results, "write", lambda changes: lambda db, events: None)  # no table yet
        ended = recorder.create_game(QELAT, recorded_by=BY).game.game_id
        recorder.record(ended, result, expected_version=1, recorded_by=BY)
        recorder.record(ended, {"type": "annotate", "text": "well played"}, expected_version=2, recorded_by=BY)
        playing = recorder.create_game(QELAT, recorded_by=BY).game.game_id
        end = store.read(ended)[1]
    monkeypatch.setattr(pg_schema, "MIGRATIONS", MIGRATIONS[:7])
    with psycopg.connect(url) as conn:
        assert pg_schema.migrate(conn) == [7]
    with PostgresEventStore(url) as store:
        results, recorder = GameResults(store), Recorder(store)  # type: ignore[arg-type]
        assert results.of_game(ended) == [(2, end.recorded_at, "north_wins")] and results.of_game(playing) == []
        retract = {"type": "retract", "count": 1, "reason": "the wrong side resigned"}
        recorder.record(ended, retract, expected_version=3, recorded_by=BY)
        recorder.record(ended, {**result, "winner": "south"}, expected_version=4, recorded_by=BY)
        assert [(seq, won) for seq, _, won in results.of_game(ended)] == [
            (2, "north_wins"),
            (4, None),
            (5, "south_wins"),
        ]
        assert [line for line in check(recorder) if line.startswith("game results")] == []


def test_a_result_corrected_a_month_later_goes_in_the_next_list_on_postgres(postgres_url, monkeypatch):
    """The rating lists read the result changes on PostgreSQL as on SQLite: January's list
    stays as published, February's applies the correction and states it."""
    from recorder.projections import check, rebuild

    month = {"now": "2026-01"}
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: month["now"])
    monkeypatch.setattr("recorder.store.sql.utc_now", lambda: "2026-01-15T10:00:00.000000Z")
    app = make_app(postgres_url)
    client = app.test_client()
    ids = [
        client.post("/api/players", json={"name": n, "federation": "ETH"}).get_json()["id"] for n in ("Abeba", "Dawit")
    ]
    tid = client.post(
        "/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "round_robin", "rated": True}
    )
    tid = tid.get_json()["id"]
    for player_id in ids:
        assert client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}).status_code == 201
    (board,) = client.post(f"/api/tournaments/{tid}/rounds", json={}).get_json()["boards"]
    game = client.post(f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/game", json={}).get_json()["id"]
    won = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    assert client.post(f"/api/games/{game}/commands", json=won).status_code == 201
    month["now"] = "2026-02"
    recorder = app.extensions["recorder"]
    rebuild(recorder)
    january = client.get("/api/ratings/qelat?period=2026-01").get_json()
    monkeypatch.setattr("recorder.store.sql.utc_now", lambda: "2026-02-03T10:00:00.000000Z")
    retract = {"type": "retract", "count": 1, "reason": "the wrong side resigned", "expected_version": 2}
    # the tournament is finished: the admin's change is a correction, recorded first with its reason
    correction = {"reason": "the wrong side resigned"}
    url = f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/correction"
    assert client.post(url, json=correction).status_code == 201
    assert client.post(f"/api/games/{game}/commands", json=retract).status_code == 201
    lost = {**won, "winner": "north", "expected_version": 3}
    assert client.post(f"/api/games/{game}/commands", json=lost).status_code == 201
    month["now"] = "2026-03"
    rebuild(recorder)
    again = client.get("/api/ratings/qelat?period=2026-01").get_json()
    assert (again["players"], again["corrections"]) == (january["players"], [])
    february = client.get("/api/ratings/qelat?period=2026-02").get_json()
    assert february["corrections"] == [
        {"game_id": game, "period": "2026-01", "before": "south_wins", "after": "north_wins"}
    ]
    assert [e["id"] for e in february["players"]][0] != [e["id"] for e in january["players"]][0]
    assert [line for line in check(recorder) if line.startswith(("rating lists", "game results"))] == []


def test_a_finished_tournaments_categories_stand_as_the_registry_stood_at_its_finish_on_postgres(postgres_url):
    """The moment a tournament finished is read from its board games' result changes on
    PostgreSQL as on SQLite: a sex corrected after the finish moves nobody between its categories."""
    client = make_app(postgres_url).test_client()
    ids = [
        client.post("/api/players", json={"name": name, "federation": "ERI", "sex": sex}).get_json()["id"]
        for name, sex in (("Abeba", "w"), ("Berhane", "m"))
    ]
    tid = client.post("/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "round_robin"})
    tid = tid.get_json()["id"]
    for player_id in ids:
        assert client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}).status_code == 201
    women = {"categories": [{"code": "W", "kind": "sex", "sex": "w"}]}
    assert client.put(f"/api/tournaments/{tid}/categories", json=women).status_code == 200
    (board,) = client.post(f"/api/tournaments/{tid}/rounds", json={}).get_json()["boards"]
    game = client.post(f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/game", json={}).get_json()["id"]
    won = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    assert client.post(f"/api/games/{game}/commands", json=won).status_code == 201
    standings = f"/api/tournaments/{tid}/categories/W/standings"
    assert [s["number"] for s in client.get(standings).get_json()["standings"]] == [1]
    assert client.post(f"/api/players/{ids[0]}/particulars", json={"sex": "m"}).status_code == 201
    assert client.post(f"/api/players/{ids[1]}/particulars", json={"sex": "w"}).status_code == 201
    assert [s["number"] for s in client.get(standings).get_json()["standings"]] == [1]  # as at the finish


def test_a_database_created_from_the_descriptions_is_the_one_the_migrations_make(postgres_server):
    """A new database is created from the tables' descriptions (recorder/store/tables.py):
    the log's by the store, each feature's when it hands them over; one of an older release
    runs the migrations, and then lacks nothing described: both end with the same tables,
    columns, types, collations, keys, indexes, constraints and triggers."""
    from recorder.feature_tables import SCHEMAS
    from recorder.store import pg_schema

    tables = [table for schema in SCHEMAS for table in schema.tables]
    described, migrated = postgres_server.create_database(), postgres_server.create_database()
    with psycopg.connect(described, autocommit=True) as conn:
        assert pg_schema.migrate(conn) == [version for version, _, _ in MIGRATIONS]
        pg_schema.ensure_tables(conn, tables)
    with psycopg.connect(migrated, autocommit=True) as conn:
        assert pg_schema.migrate(conn, from_descriptions=False) == [version for version, _, _ in MIGRATIONS]
        assert pg_schema.lacking(conn.cursor(), tables) == []
    assert _catalogue(described) == _catalogue(migrated)


def _catalogue(url: str) -> dict[str, list]:
    queries = {
        "columns": "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, collation_name,"
        " is_identity FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
        "indexes": "SELECT tablename, regexp_replace(indexdef, 'INDEX \\S+_pkey ON', 'INDEX pkey ON') FROM pg_indexes"
        " WHERE schemaname = 'public' ORDER BY 1, 2",
        "constraints": "SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 3",
        "triggers": "SELECT tgrelid::regclass::text, tgname, tgtype, tgfoid::regproc::text FROM pg_trigger"
        " WHERE NOT tgisinternal ORDER BY 1, 2",
        "functions": "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
        "grants": "SELECT table_name, grantee, privilege_type FROM information_schema.role_table_grants"
        " WHERE table_schema = 'public' ORDER BY 1, 2, 3",
    }
    with psycopg.connect(url) as conn:
        return {name: conn.execute(query).fetchall() for name, query in queries.items()}

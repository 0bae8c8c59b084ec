"""Position text (recorder/rules/position_text.py) and position search over the index of
every position reached (``GET /api/positions``, ``recorder search``)."""

import contextlib
import sqlite3

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from support.playouts import random_record

from recorder.cli.main import main
from recorder.core.commands import decide, decide_create
from recorder.core.game import apply_event, start_game
from recorder.core.position_digest import key_digest
from recorder.errors import InvalidRecord
from recorder.games.caches import game_number
from recorder.games.service import Recorder
from recorder.projections import rebuild, search
from recorder.rules import VARIANTS, rules_for
from recorder.rules.position_text import key_of, position_json, position_text
from recorder.rules.positions import position_from_json
from recorder.store import SQLiteEventStore
from recorder.store.sql import _write_transaction

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
# QEL-1: 2x6 holes of 4 seeds, no stores; QEL-3: South named to move first.
QELAT_START = "4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 1"


def test_qel_1_the_start_is_written_row_by_row_with_empty_stores():
    game = start_game("g", decide_create(QELAT))
    assert position_text(game.rules, game.state) == QELAT_START + " first"


def test_sel_1_the_selus_start_has_three_rows_of_three():
    game = start_game("g", decide_create({**QELAT, "variant": "selus", "first_player": "north"}))
    assert position_text(game.rules, game.state).startswith("3,3,3,3,3,3/3,3,3,3,3,3/3,3,3,3,3,3 - - 0-0 N 1")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(derandomize=True, max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_gen_42_every_position_reached_reads_back_as_the_same_position(variant, seed):
    """Text -> JSON -> State -> text is the identity on every playable position of a playout."""
    played = random_record(variant, seed, max_events=150)
    game = start_game("g", decide_create(played.setup))
    for command in played.commands:
        for event in decide(game, command):
            game = apply_event(game, event, game.version + 1)
            if game.state.round_over or game.state.game_over:
                continue  # a finished round or game is no start position (the JSON form describes it)
            text = position_text(game.rules, game.state)
            assert position_text(game.rules, position_from_json(game.rules, position_json(game.rules, text))) == text


@pytest.mark.parametrize(
    "text, detail",
    [
        ("4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S", "6 or 7 fields"),
        ("4,4,4,4,4,4 - - 0-0 S 1", "2 rows"),
        ("4,4,4,4,4,x/4,4,4,4,4,4 - - 0-0 S 1", "6 counts"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 c2:X - 0-0 S 1", "hole:S or hole:N"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 - - 0:0 S 1", "south-north"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 W 1", "S, N or -"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 0", "from 1"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 1 fast", "unknown flag"),
    ],
)
def test_a_malformed_position_text_names_the_field(text, detail):
    with pytest.raises(InvalidRecord, match=detail):
        position_json(rules_for("qelat", {}), text)


def test_a_game_is_created_from_a_position_text_and_stores_the_json_shape(api):
    text = "0,5,5,5,4,4/4,4,4,4,4,5 - - 0-0 N 1"
    game = api.create(**{k: v for k, v in QELAT.items() if k != "first_player"}, position=text)
    assert game["position"]["holes"]["a1"] == 0 and game["position"]["to_move"] == "north"
    bad = api.create(expect=422, **{k: v for k, v in QELAT.items() if k != "first_player"}, position="4,4 - - 0-0 S 1")
    assert "position text" in bad["detail"]


def test_a_claim_may_be_a_position_text(api, client):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="a1")
    response = client.post(f"/api/games/{game['id']}/claims", json={"position": QELAT_START + " first"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["matches"][0]["seq"] == 1


# --------------------------------------------------------------------- the index and search


BY = "Arbiter Hagos"  # every event names who recorded it


def corpus(recorder: Recorder) -> dict:
    """Games with known repetitions: three Qelat games from the same start (South first),
    two of them opening with the same sowing; one whose retraction returns to the start;
    one with North first (another position); a Selus game (another board)."""
    ids = {}
    for name in ("plain", "same_opening", "retracted"):
        ids[name] = recorder.create_game(QELAT, recorded_by=BY).game.game_id

    def record(game_id: str, command: dict) -> None:
        recorder.record(game_id, command, expected_version=recorder.game(game_id).version, recorded_by=BY)

    record(ids["plain"], {"type": "sow", "hole": "a1"})
    record(ids["same_opening"], {"type": "sow", "hole": "a1"})
    record(ids["same_opening"], {"type": "sow", "hole": "a2"})
    record(ids["retracted"], {"type": "sow", "hole": "b1"})
    record(ids["retracted"], {"type": "retract", "count": 1, "reason": "a slip"})
    ids["north_first"] = recorder.create_game({**QELAT, "first_player": "north"}, recorded_by=BY).game.game_id
    ids["selus"] = recorder.create_game({**QELAT, "variant": "selus"}, recorded_by=BY).game.game_id
    return ids


@pytest.fixture
def indexed(tmp_path):
    store = SQLiteEventStore(str(tmp_path / "corpus.sqlite3"))
    recorder = Recorder(store)
    yield recorder, corpus(recorder)
    store.close()


def occurrences(recorder: Recorder, text: str) -> set:
    return {(hit["game_id"], hit["seq"]) for hit in search(recorder, text)["occurrences"]}


def test_search_finds_every_occurrence_of_a_position_and_nothing_else(indexed):
    recorder, ids = indexed
    start = {(ids[name], 1) for name in ("plain", "same_opening", "retracted")} | {(ids["retracted"], 3)}
    assert occurrences(recorder, QELAT_START) == start
    after_a1 = recorder.game_at(ids["plain"], 2)
    assert occurrences(recorder, position_text(after_a1.rules, after_a1.state)) == {
        (ids["plain"], 2),
        (ids["same_opening"], 2),
    }
    north = recorder.game(ids["north_first"])
    assert occurrences(recorder, position_text(north.rules, north.state)) == {(ids["north_first"], 1)}
    assert occurrences(recorder, "4,4,4,4,4,4/4,4,4,4,4,4 - - 9-9 S 1") == set()


def test_every_indexed_position_is_found_exactly_where_the_events_put_it(indexed):
    """Against a brute force: fold every game, group its positions by key."""
    recorder, ids = indexed
    expected: dict = {}
    for game_id in ids.values():
        for game in recorder.history(game_id):
            expected.setdefault(key_of(position_text(game.rules, game.state)), set()).add((game_id, game.version))
    for key, places in expected.items():
        assert occurrences(recorder, key) == places


def test_search_reports_variant_options_players_and_truncation(indexed):
    recorder, ids = indexed
    found = search(recorder, QELAT_START + " first", limit=2)
    assert found["truncated"] and len(found["occurrences"]) == 2
    hit = found["occurrences"][0]
    assert (hit["variant"], hit["south"], hit["north"]) == ("qelat", "Abeba", "Berhane")
    assert hit["options"] == rules_for("qelat", {}).options


def test_the_index_is_rebuilt_from_the_events(indexed, tmp_path):
    recorder, ids = indexed
    before = occurrences(recorder, QELAT_START)
    with sqlite3.connect(recorder.store.path) as conn:
        conn.execute("DELETE FROM positions")
    assert occurrences(recorder, QELAT_START) == set()
    result = CliRunner().invoke(main, ["verify", "--projections", "--db", recorder.store.path])
    assert result.exit_code == 1 and "position index" in result.output
    rebuild(recorder)
    assert occurrences(recorder, QELAT_START) == before


def test_imported_games_are_indexed(client):
    game = client.post("/api/games", json=QELAT).get_json()
    client.post(f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": "a1"})
    exported = client.get("/api/export").get_data(as_text=True)
    another = exported.replace("[Variant", '[Site "Keren"]\n[Variant', 1)  # not the same game: it is stored
    assert client.post("/api/import", data=another.encode(), content_type="text/x-mancala-notation").status_code == 201
    found = client.get("/api/positions", query_string={"fen": QELAT_START}).get_json()
    assert len(found["occurrences"]) == 2 and {hit["seq"] for hit in found["occurrences"]} == {1}


def test_get_positions_answers_with_occurrences_or_422(client):
    client.post("/api/games", json=QELAT)
    found = client.get("/api/positions", query_string={"fen": QELAT_START + " first"}).get_json()
    assert found["position"] == QELAT_START and found["occurrences"][0]["variant"] == "qelat"
    for query in ({"fen": "4,4 - -"}, {}, {"fen": QELAT_START, "limit": "0"}):
        response = client.get("/api/positions", query_string=query)
        assert response.status_code == 422 and response.mimetype == "application/problem+json"


def test_recorder_search_prints_the_games(indexed):
    recorder, ids = indexed
    result = CliRunner().invoke(main, ["search", QELAT_START, "--db", recorder.store.path])
    assert result.exit_code == 0
    assert f"{ids['retracted']}  after event 3  qelat" in result.output
    assert "4 occurrences" in result.output
    bad = CliRunner().invoke(main, ["search", "nonsense", "--db", recorder.store.path])
    assert bad.exit_code == 2 and "position text" in bad.output


def test_every_state_the_api_returns_carries_its_position_text(api):
    game = api.create(**QELAT)
    assert game["state"]["position_text"] == QELAT_START + " first"
    api.command(game["id"], type="sow", hole="a1")
    state = api.state(game["id"])
    described = position_json(rules_for("qelat", {}), state["position_text"])
    assert (described["holes"], described["to_move"]) == (state["holes"], state["to_move"])
    assert state["to_move"] == "north"  # QEL: the players alternate after a sowing that ends the turn


def exported_corpus(recorder: Recorder, path) -> None:
    """The corpus as an NDJSON archive file (what ``recorder import`` takes)."""
    from recorder.archive.transfer import Archive

    archive = Archive(recorder.store)
    path.write_text("".join(archive.ndjson_archive(archive.select())), encoding="utf-8")


def indexed_rows(path: str) -> list:
    """The index's rows as (key digest, game id, seq): a game's number is the file's own."""
    query = (
        "SELECT key_high, key_low, game_id, seq FROM positions JOIN position_games USING (game)"
        " ORDER BY key_high, key_low, game_id, seq"
    )
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return [((high, low), game_id, seq) for high, low, game_id, seq in conn.execute(query).fetchall()]


def test_a_bulk_import_queues_positions_and_indexes_them_all_at_its_end(indexed, tmp_path):
    """``recorder import`` indexes in key order at its end: the index is then row for row
    what recording the games live wrote, and nothing is left queued."""
    recorder, ids = indexed
    exported_corpus(recorder, tmp_path / "corpus.ndjson")
    target = str(tmp_path / "imported.sqlite3")
    result = CliRunner().invoke(main, ["import", "--db", target, str(tmp_path / "corpus.ndjson")])
    assert result.exit_code == 0 and "indexing positions" in result.stderr
    assert indexed_rows(target) == indexed_rows(recorder.store.path)
    with SQLiteEventStore(target) as store:
        assert not Recorder(store).positions.pending()


def test_queued_positions_are_found_reported_and_indexed_by_the_next_import_or_a_rebuild(indexed, tmp_path):
    """An import stopped before its end leaves positions queued: a search still finds them,
    ``verify --projections`` says they wait, and the next import (or a rebuild) indexes them."""
    from recorder.archive.ndjson import read_logs
    from recorder.archive.transfer import Archive

    recorder, ids = indexed
    exported_corpus(recorder, tmp_path / "corpus.ndjson")
    lines = [line for line in (tmp_path / "corpus.ndjson").read_text().split("\n") if '"game_id"' in line]
    target = str(tmp_path / "stopped.sqlite3")
    with SQLiteEventStore(target) as store:
        stopped = Archive(store, recorded_by="command line", restore=True, positions_later=True)
        assert all(stopped.import_log(log).status == "imported" for log in read_logs(lines))  # and nothing indexed
        queued = Recorder(store)
        assert queued.positions.pending() and indexed_rows(target) == []
        assert occurrences(queued, QELAT_START) == occurrences(recorder, QELAT_START)
    checked = CliRunner().invoke(main, ["verify", "--projections", "--db", target])
    assert checked.exit_code == 1 and "positions wait to be indexed" in checked.output
    again = CliRunner().invoke(main, ["import", "--db", target, str(tmp_path / "corpus.ndjson")])
    assert "existed already" in again.stdout and "indexing positions" in again.stderr  # the leftovers
    assert indexed_rows(target) == indexed_rows(recorder.store.path)
    assert CliRunner().invoke(main, ["verify", "--projections", "--db", target]).exit_code == 0
    with SQLiteEventStore(target) as store:
        with contextlib.closing(sqlite3.connect(target)) as conn, conn:  # queued again, as by a stopped import
            conn.execute("INSERT INTO positions_pending (key_high, key_low, game, seq) SELECT * FROM positions")
        rebuild(Recorder(store))
        assert not Recorder(store).positions.pending()
    assert indexed_rows(target) == indexed_rows(recorder.store.path)


def test_a_rebuild_leaves_positions_queued_after_it_began_for_their_import(indexed, monkeypatch):
    """A row queued while the rebuild runs (an import under way) is not the rebuild's to drop."""
    import recorder.projections as projections

    recorder, ids = indexed
    real = projections.game_ids

    def queue_meanwhile(recorder_):
        for batch in real(recorder_):
            yield batch
            queue(recorder.store.path, [("k", "later", 1)])

    monkeypatch.setattr(projections, "game_ids", queue_meanwhile)
    queue(recorder.store.path, [("k", "before", 1)])
    rebuild(recorder)
    with contextlib.closing(sqlite3.connect(recorder.store.path)) as conn:
        query = "SELECT game_id FROM positions_pending JOIN position_games USING (game)"
        assert conn.execute(query).fetchall() == [("later",)]


def by_key_index_exists(path: str) -> bool:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        query = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'positions_by_key'"
        return conn.execute(query).fetchone()[0] == 1


def queue(path: str, rows: list[tuple[str, str, int]]) -> None:
    """Queue (key, game id, seq) rows as a bulk import queues them: digests and game numbers."""
    with contextlib.closing(SQLiteEventStore(path)) as store:
        db = store._db()
        with _write_transaction(db):
            numbered = [(*key_digest(key), game_number(db, game_id), seq) for key, game_id, seq in rows]
            db.conn.executemany(
                "INSERT INTO positions_pending (key_high, key_low, game, seq) VALUES (?, ?, ?, ?)", numbered
            )


def index_pending_watching_by_key(store: SQLiteEventStore) -> list[bool]:
    """Whether ``positions_by_key`` existed as each chunk was indexed, then after the run."""
    seen: list[bool] = []
    Recorder(store).positions.index_pending(lambda n: seen.append(by_key_index_exists(store.path)))
    return [*seen, by_key_index_exists(store.path)]


def test_a_queue_as_large_as_the_index_is_indexed_without_the_by_key_index_then_creates_it(tmp_path):
    """The table is in game order, as the queue: its rows go to its end. Kept up row by row,
    the key B-tree takes a random page per row; a bulk load (the queue at least the index's
    size) creates it once, sorted, at its end. A search meanwhile still finds every row."""
    path = str(tmp_path / "bulk.sqlite3")
    with SQLiteEventStore(path) as store:
        queue(path, [(f"k{n % 7}", f"g{n // 3}", n % 3 + 1) for n in range(30)])
        found = []
        index = Recorder(store).positions
        index.index_pending(lambda n: found.append((by_key_index_exists(path), index.find("k5"))))
        assert found == [(False, [("g1", 3), ("g4", 1), ("g6", 2), ("g8", 3)])]
        assert by_key_index_exists(path)
        assert indexed_rows(path) == sorted((key_digest(f"k{n % 7}"), f"g{n // 3}", n % 3 + 1) for n in range(30))
        assert index.of_game("g4") == [(1, key_digest("k5")), (2, key_digest("k6")), (3, key_digest("k0"))]


def test_a_queue_smaller_than_the_index_keeps_the_by_key_index_throughout(tmp_path):
    """A small import into a large index leaves it as it is, and counts no more of it than
    it queued."""
    path = str(tmp_path / "small.sqlite3")
    with SQLiteEventStore(path) as store:
        queue(path, [(f"k{n}", "old", n) for n in range(1, 11)])
        Recorder(store).positions.index_pending()
        queue(path, [(f"k{n}", "new", n) for n in range(1, 10)])
        assert Recorder(store).positions._indexed_at_most(9) == 10  # of the 10 indexed: no more read
        assert index_pending_watching_by_key(store) == [True, True]
        assert len(indexed_rows(path)) == 19


def test_a_by_key_index_left_dropped_by_a_stopped_import_is_created_at_the_next_open(tmp_path):
    path = str(tmp_path / "stopped.sqlite3")
    SQLiteEventStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DROP INDEX positions_by_key")  # as index_pending leaves it when stopped mid-way
    SQLiteEventStore(path).close()
    assert by_key_index_exists(path)


def test_a_search_reads_the_key_b_tree_in_its_order_and_stops_at_its_limit(indexed):
    """The index's own order (games as it met them, then seq): ``limit`` rows read, no sort."""
    recorder, ids = indexed
    with contextlib.closing(sqlite3.connect(recorder.store.path)) as conn:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT game, seq FROM positions WHERE key_high = ? AND key_low = ?"
            " ORDER BY game, seq LIMIT 3",
            key_digest(QELAT_START),
        ).fetchall()
    assert any("positions_by_key" in row[-1] for row in plan)
    assert not any("TEMP B-TREE" in row[-1] for row in plan)  # no sort


def test_the_index_holds_each_key_as_the_first_128_bits_of_its_sha_256():
    """Two signed 64-bit integers, high half first (docs/notation.md, "The position index")."""
    import hashlib

    digest = hashlib.sha256(QELAT_START.encode("utf-8")).digest()
    assert key_digest(QELAT_START) == (
        int.from_bytes(digest[:8], "big", signed=True),
        int.from_bytes(digest[8:16], "big", signed=True),
    )


def test_a_file_whose_index_held_the_keys_texts_is_rewritten_as_digests_on_open(indexed, tmp_path):
    """An index from before digests (each key's text and the game's id) answers the same
    searches once the file is opened again; its queue keeps its rows, ids and sequence."""
    recorder, ids = indexed
    path = recorder.store.path
    before = {text: occurrences(recorder, text) for text in (QELAT_START, "4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 N 1")}
    texts = {}  # each game's positions as the old index held them: (text, game id, seq)
    for game_id in ids.values():
        for game in recorder.history(game_id):
            texts[(game_id, game.version)] = key_of(position_text(game.rules, game.state))
    recorder.store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(
            "DROP TABLE positions; DROP TABLE positions_pending; DROP TABLE position_games;"
            "CREATE TABLE positions (position TEXT NOT NULL, game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
            " PRIMARY KEY (position, game_id, seq)) WITHOUT ROWID;"
            "CREATE INDEX positions_by_game ON positions (game_id);"
            "CREATE TABLE positions_pending (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " position TEXT NOT NULL, game_id TEXT NOT NULL, seq INTEGER NOT NULL);"
        )
        conn.executemany(
            "INSERT INTO positions VALUES (?, ?, ?)", [(key, game, seq) for (game, seq), key in texts.items()]
        )
        conn.execute("INSERT INTO positions_pending VALUES (7, 'queued key', ?, 1)", (ids["plain"],))
        conn.execute("UPDATE sqlite_sequence SET seq = 9 WHERE name = 'positions_pending'")
    with SQLiteEventStore(path) as store:
        migrated = Recorder(store)
        assert {text: occurrences(migrated, text) for text in before} == before
        with contextlib.closing(sqlite3.connect(path)) as conn:
            queued = (
                "SELECT id, key_high, key_low, game_id, seq FROM positions_pending JOIN position_games USING (game)"
            )
            assert conn.execute(queued).fetchall() == [(7, *key_digest("queued key"), ids["plain"], 1)]
            sequence = "SELECT seq FROM sqlite_sequence WHERE name = 'positions_pending'"
            assert conn.execute(sequence).fetchall() == [(9,)]
        assert migrated.positions.of_game(ids["plain"]) == [
            (seq, key_digest(texts[(ids["plain"], seq)])) for seq in (1, 2)
        ]

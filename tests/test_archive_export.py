"""Exporting archives: filters, formats by Accept, streaming with flat memory, the CLI."""

import json
import tracemalloc
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from support.playouts import random_record

from recorder.archive import transfer
from recorder.archive.frame import NDJSON_HEADER, ndjson_terminator
from recorder.archive.transfer import Archive
from recorder.cli.main import main
from recorder.core.commands import decide, decide_create
from recorder.core.events import Event
from recorder.core.game import apply_event, start_game
from recorder.games.games_list import GamesList
from recorder.games.service import summary_of
from recorder.notation.grammar import parse
from recorder.store import NewEvent, SQLiteEventStore

NOTATION_TYPE = "text/x-mancala-notation"
NDJSON_TYPE = "application/x-ndjson"
MEMORY_BOUND = 1024 * 1024  # bytes of Python allocations while 10,000 games stream out


def create(api, south, north, variant="qelat", **extra):
    body = {"variant": variant, "south": south, "north": north, **extra}
    if variant != "gabata":
        body.setdefault("first_player", "south")
    return api.create(**body)["id"]


@pytest.fixture
def library(api):
    """Four games: two Qelat (one resigned), a Gabata, a Tuz; dated 2025 and 2026."""
    ids = {
        "q1": create(api, "Abeba", "Berhane", date="2025-06-01", event="Keren Open"),
        "q2": create(api, "Selam", "Abeba", date="2026-01-15"),
        "g1": create(api, "Yonas", "Mulu", variant="gabata", date="2026-03-02"),
        "t1": create(api, "Tesfay", "Selam", variant="tuz"),
    }
    api.command(ids["q2"], type="result", kind="resignation", winner="north")
    return ids


def exported_souths(client, query="", accept=NOTATION_TYPE) -> list[str]:
    response = client.get(f"/api/export{query}", headers={"Accept": accept})
    assert response.status_code == 200, response.get_data(as_text=True)
    return [game.required_tag("South").value for game in parse(response.get_data(as_text=True))]


@pytest.mark.parametrize(
    "query, souths",
    [
        ("", ["Abeba", "Selam", "Yonas", "Tesfay"]),  # oldest first
        ("?variant=qelat", ["Abeba", "Selam"]),
        ("?player=Abeba", ["Abeba", "Selam"]),  # South or North
        ("?date_from=2026-01-01", ["Selam", "Yonas"]),
        ("?date_from=2025&date_to=2026-02", ["Abeba", "Selam"]),
        ("?result=north_wins", ["Selam"]),
        ("?result=unfinished&variant=qelat", ["Abeba"]),
        ("?tournament=t-none", []),
    ],
)
def test_export_filters(client, library, query, souths):
    assert exported_souths(client, query) == souths


def test_export_format_follows_accept(client, library):
    for accept in (NOTATION_TYPE, "*/*", "text/*", None):
        response = client.get("/api/export", headers={"Accept": accept} if accept else {})
        assert response.mimetype == NOTATION_TYPE and response.is_streamed
        assert response.headers["Content-Disposition"] == 'attachment; filename="games.mn"'
        assert response.get_data(as_text=True).startswith('; mancala-recorder archive\n[Event "Keren Open"]')
    response = client.get("/api/export", headers={"Accept": NDJSON_TYPE})
    assert response.mimetype == NDJSON_TYPE
    lines = response.get_data(as_text=True).split("\n")
    assert len(lines) == 8  # the first line, four setups and one result, the terminator, "" after its newline
    assert lines[-2] == '{"end_of_archive":{"events":5,"games":4}}'
    response = client.get("/api/export", headers={"Accept": "application/json"})
    assert response.status_code == 406 and response.mimetype == "application/problem+json"


def test_export_serves_the_notation_as_text_plain_too(client, library):
    notation = client.get("/api/export", headers={"Accept": NOTATION_TYPE}).get_data(as_text=True)
    response = client.get("/api/export", headers={"Accept": "text/plain"})
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert response.mimetype_params["charset"] == "utf-8"
    assert response.headers["Content-Disposition"] == 'attachment; filename="games.mn"'
    assert response.get_data(as_text=True) == notation
    # Import takes it back under the notation's own media type (text/plain posts are refused:
    # a cross-site page may send one without asking, docs/security.md).
    imported = client.post("/api/import", data=notation.encode(), content_type=NOTATION_TYPE)
    assert imported.status_code in (200, 201)


@pytest.mark.parametrize("query", ["?variant=kalah", "?date_from=yesterday", "?result=won", "?history=all", "?x=1"])
def test_bad_export_filters_are_422(client, query):
    response = client.get(f"/api/export{query}")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"


def test_export_carries_the_effective_line_and_the_full_history_on_request(client, api):
    game = create(api, "Abeba", "Berhane")
    for hole in ("f1", "b2", "c1"):
        api.command(game, type="sow", hole=hole)
    api.command(game, type="retract", count=1, reason="c1 was a slip")
    api.command(game, type="sow", hole="d1")
    effective = client.get("/api/export").get_data(as_text=True)
    full = client.get("/api/export?history=full").get_data(as_text=True)
    assert "1. S f1 2. N b2 3. S d1 *" in effective and "retract" not in effective
    assert '1. S f1 2. N b2 3. S c1 {retract 1 "c1 was a slip"} 3. S d1 *' in full


def test_the_openapi_document_lists_import_and_export(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert {"post"} <= set(paths["/api/import"]) and {"get"} <= set(paths["/api/export"])


# --------------------------------------------------------------------------- memory


def template_events() -> tuple[list[NewEvent], dict[str, Any]]:
    """A short Qelat game, decided once; stored 10,000 times under new ids."""
    played = random_record("qelat", 7, max_events=5)
    game = start_game("template", decide_create(played.setup))
    events: list[Event] = [game.setup]
    for command in played.commands:
        for event in decide(game, command):
            game = apply_event(game, event, game.version + 1)
            events.append(event)
    return [NewEvent(e.type, e.payload()) for e in events], summary_of(game)


@pytest.fixture(scope="module")
def ten_thousand():
    """10,000 copies of a short game, in memory."""
    store = SQLiteEventStore(":memory:")
    listed = GamesList(store)
    events, summary = template_events()
    with store.batch():
        for number in range(10_000):
            store.append(f"game-{number:05d}", 0, events, projection=listed.write(summary))
    yield Archive(store)
    store.close()


@pytest.mark.parametrize("fmt", ["notation", "ndjson"])
def test_exporting_10000_games_stays_under_a_fixed_memory_bound(ten_thousand, fmt):
    archive = ten_thousand
    tracemalloc.start()
    try:
        size = games = 0
        if fmt == "notation":
            for chunk in archive.export_notation(archive.select()):  # one chunk per game
                size += len(chunk)
                games += 1
        else:
            for chunk in archive.ndjson_archive(archive.select()):  # chunks of many games, then the count
                size += len(chunk)
            games = json.loads(chunk)["end_of_archive"]["games"]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert games == 10_000
    assert size > MEMORY_BOUND  # the archive itself would not fit under the bound
    assert peak < MEMORY_BOUND, f"peak {peak:,} bytes"


def old_ndjson_archive(store, game_ids) -> str:
    """The NDJSON export as it was written before the lines were read a batch of games per
    query: each game's stored lines, read one game at a time, then the terminator."""
    logs = [store.event_lines(game_id) for game_id in game_ids]
    logs = [lines for lines in logs if lines]
    body = "".join(line + "\n" for lines in logs for line in lines)
    return NDJSON_HEADER + body + ndjson_terminator(len(logs), sum(map(len, logs)))


@pytest.mark.parametrize("chunk", [1, 5_000, transfer.WRITE_CHUNK])
def test_an_ndjson_export_is_byte_for_byte_each_chosen_games_stored_lines(client, library, monkeypatch, chunk):
    """Filtered by player, by event, by explicit ids in any order (an unknown id left out),
    whatever the size of the chunks handed on."""
    monkeypatch.setattr(transfer, "WRITE_CHUNK", chunk)
    archive = Archive(client.application.extensions["recorder"].store)
    ids = list(library.values())
    for chosen in (archive.select(), archive.select(player="Abeba"), archive.select(event="Keren Open")):
        chosen = list(chosen)
        assert "".join(archive.ndjson_archive(chosen)) == old_ndjson_archive(archive.store, chosen)
    mixed = [ids[2], "no-such-game", ids[0], ids[3], ids[0]]
    assert "".join(archive.ndjson_archive(mixed)) == old_ndjson_archive(archive.store, mixed)
    served = client.get("/api/export?player=Abeba", headers={"Accept": NDJSON_TYPE}).get_data(as_text=True)
    assert served == old_ndjson_archive(archive.store, [library["q1"], library["q2"]])


# --------------------------------------------------------------------------- the command line


def test_recorder_demo_then_export_round_trips_the_fixtures(tmp_path):
    db, out = str(tmp_path / "demo.sqlite3"), tmp_path / "all.mn"
    runner = CliRunner()
    loaded = runner.invoke(main, ["demo", "--db", db])
    assert loaded.exit_code == 0, loaded.output
    files = sorted((FIXTURES / "notation").glob("*.mn"))
    games = sum(1 for path in files for _ in parse(path.read_text()))
    assert f"imported {games} games, refused 0" in loaded.output
    exported = runner.invoke(main, ["export", "--db", db, "--full-history", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    games_text = "\n".join(path.read_text() for path in files)
    assert out.read_text() == f"; mancala-recorder archive\n{games_text}\n; end of archive: {games} games\n"


def test_recorder_export_filters_and_writes_ndjson_by_suffix(tmp_path):
    db = str(tmp_path / "demo.sqlite3")
    runner = CliRunner()
    runner.invoke(main, ["demo", "--db", db])
    result = runner.invoke(main, ["export", "--db", db, "--variant", "gabata"])
    assert result.exit_code == 0
    assert {game.tag("Variant").value for game in parse(result.stdout)} == {"gabata"}
    out = tmp_path / "tuz.ndjson"
    assert runner.invoke(main, ["export", "--db", db, "--variant", "tuz", "-o", str(out)]).exit_code == 0
    assert out.read_text().startswith('{"archive":"mancala-recorder"}\n{"game_id":')
    for bad_date in ("soon", "2026-13", "2026-02-30"):  # a filter no real date can meet is a typo, said so
        bad = runner.invoke(main, ["export", "--db", db, "--date-from", bad_date])
        assert bad.exit_code == 2 and "YYYY" in bad.output
    for option, value in (("--player", ""), ("--tournament", "t-1\n"), ("--player", "x" * 201)):
        bad = runner.invoke(main, ["export", "--db", db, option, value])  # GET /api/export refuses them too (422)
        assert bad.exit_code == 2 and f"Invalid value for '{option}'" in bad.output, (option, bad.output)
    nowhere = tmp_path / "no such folder" / "out.ndjson"
    unwritable = runner.invoke(main, ["export", "--db", db, "-o", str(nowhere)])
    assert unwritable.exit_code == 1 and f"cannot write {nowhere}: No such file or directory" in unwritable.output


def test_recorder_demo_suggests_serving_the_database_it_loaded(tmp_path):
    db = str(tmp_path / "my games.sqlite3")
    loaded = CliRunner().invoke(main, ["demo", "--db", db])
    assert loaded.exit_code == 0, loaded.output
    assert f"try: .venv/bin/recorder serve --db '{db}', then GET /api/games" in loaded.output


def test_recorder_demo_names_the_database_of_recorder_db_and_hides_a_password(tmp_path, monkeypatch):
    from recorder.cli.archive import _shown_database

    monkeypatch.setenv("RECORDER_DB", str(tmp_path / "env.sqlite3"))
    assert _shown_database(None) == str(tmp_path / "env.sqlite3")
    assert _shown_database("postgresql://ari:s3cret@db:5432/rec") == "'postgresql://ari:…@db:5432/rec'"

"""A game imported from the notation is identified by its content: importing it again
reports that it exists already instead of storing a copy; ``recorder demo`` is idempotent."""

from __future__ import annotations

import hashlib
import json

from click.testing import CliRunner
from conftest import FIXTURES, bearer

from recorder.cli.main import main
from recorder.games.games_list import GamesList
from recorder.store import SQLiteEventStore

NOTATION = FIXTURES / "notation"
QELAT = (NOTATION / "qelat-default.mn").read_text()
TUZ = (NOTATION / "tuz-plain-opening-seed0.mn").read_text()
NOTATION_TYPE = "text/x-mancala-notation"


def _import(client, text: str):
    return client.post("/api/import", data=text.encode(), content_type=NOTATION_TYPE)


def _game_ids(app) -> list[str]:
    return list(app.extensions["recorder"].games.iter_ids())


def test_a_repeated_import_reports_each_game_as_existing_and_stores_nothing(client, app):
    first = _import(client, QELAT + "\n" + TUZ).get_json()
    again = _import(client, QELAT + "\n" + TUZ)
    report = again.get_json()
    assert again.status_code == 200
    assert (report["imported"], report["existing"], report["refused"]) == (0, 2, 0)
    assert [game["status"] for game in report["games"]] == ["exists", "exists"]
    assert [game["game_id"] for game in report["games"]] == [game["game_id"] for game in first["games"]]
    assert all("exists already" in game["detail"] for game in report["games"])
    assert sorted(_game_ids(app)) == sorted(game["game_id"] for game in first["games"])


def test_an_archive_with_old_and_new_games_imports_only_the_new(client, app):
    _import(client, QELAT)
    response = _import(client, QELAT + "\n" + TUZ)
    report = response.get_json()
    assert response.status_code == 201 and (report["imported"], report["existing"]) == (1, 1)
    assert [game["status"] for game in report["games"]] == ["exists", "imported"]
    assert len(_game_ids(app)) == 2


def test_the_id_is_the_digest_of_the_canonical_record(client, app):
    # docs/notation.md: SHA-256 of the canonical JSON of [[type, payload], ...], 16 hex digits.
    game_id = _import(client, QELAT).get_json()["games"][0]["game_id"]
    events = app.extensions["recorder"].store.read(game_id)
    record = [[event.type, event.payload] for event in events]
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert game_id == hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def test_games_that_differ_in_any_tag_are_different_games(client, app):
    other = QELAT.replace('[South "', '[South "Dr. ', 1)
    assert other != QELAT
    ids = [_import(client, text).get_json()["games"][0]["game_id"] for text in (QELAT, other)]
    assert ids[0] != ids[1] and len(_game_ids(app)) == 2


def test_recorder_demo_run_twice_imports_nothing_the_second_time(tmp_path):
    db, runner = str(tmp_path / "demo.sqlite3"), CliRunner()
    first = runner.invoke(main, ["demo", "--db", db])
    assert first.exit_code == 0, first.output
    with SQLiteEventStore(db) as store:
        before = sorted(GamesList(store).iter_ids())
    second = runner.invoke(main, ["demo", "--db", db])
    assert second.exit_code == 0, second.output
    assert f"nothing imported: the {len(before)} demo games are in the database already" in second.output
    with SQLiteEventStore(db) as store:
        assert sorted(GamesList(store).iter_ids()) == before


def test_recorder_import_twice_says_the_games_existed_already(tmp_path):
    path, db = tmp_path / "two.mn", str(tmp_path / "db.sqlite3")
    path.write_text(QELAT + "\n" + TUZ)
    CliRunner().invoke(main, ["import", str(path), "--db", db])
    result = CliRunner().invoke(main, ["import", str(path), "--db", db])
    assert result.exit_code == 0
    assert "imported 0 games, refused 0; 2 games existed already (imported before), not stored again" in result.output


def _record_live(api, vector: str, *, retract_after: int | None = None) -> str:
    """A fixture game recorded move by move over the API: the live game's id is random."""
    record = json.loads((FIXTURES / "games" / vector).read_text())
    game_id = api.create(**record["setup"])["id"]
    for number, command in enumerate(record["commands"], start=1):
        api.command(game_id, **command)
        if number == retract_after:
            api.command(game_id, type="retract", count=1, reason="wrong hole read out")
            api.command(game_id, **command)
    return game_id


def _export(client, query: str = "") -> str:
    response = client.get(f"/api/export{query}", headers={"Accept": NOTATION_TYPE})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_an_export_imported_back_finds_the_games_recorded_live(client, app, api):
    live = _record_live(api, "qelat-default.json")
    response = _import(client, _export(client))
    report = response.get_json()
    assert response.status_code == 200, report
    assert (report["imported"], report["existing"], report["refused"]) == (0, 1, 0)
    assert report["games"][0]["game_id"] == live and "exists already" in report["games"][0]["detail"]
    assert _game_ids(app) == [live]


def test_a_full_history_export_of_a_corrected_game_is_the_same_game(client, app, api):
    live = _record_live(api, "tuz-plain-opening-seed0.json", retract_after=3)
    report = _import(client, _export(client, "?history=full")).get_json()
    assert (report["imported"], report["existing"]) == (0, 1)
    assert report["games"][0]["game_id"] == live
    assert _game_ids(app) == [live]


def test_a_live_game_with_other_moves_is_not_taken_for_a_copy(client, app, api):
    live = _record_live(api, "qelat-default.json")
    text = _export(client)
    moves = text.index("\n\n") + 2  # past the tags, where the move text begins
    annotated = text[:moves] + '{"the clock was stopped"} ' + text[moves:]  # a comment is content
    report = _import(client, annotated).get_json()
    assert (report["imported"], report["existing"]) == (1, 0), report
    assert report["games"][0]["game_id"] != live and len(_game_ids(app)) == 2


def test_an_ndjson_export_imported_back_finds_the_games_recorded_live(client, app, api):
    live = _record_live(api, "lahemay_walida-default.json")
    exported = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    response = client.post("/api/import", data=exported.encode(), content_type="application/x-ndjson")
    report = response.get_json()
    assert response.status_code == 200, report
    assert (report["imported"], report["existing"], report["refused"]) == (0, 1, 0)
    assert report["games"][0]["game_id"] == live
    assert _game_ids(app) == [live]


def test_a_recorder_importing_the_export_of_a_live_game_finds_it_too(client, app, api, anon):
    live = _record_live(api, "qelat-default.json")
    token = client.post("/api/tokens", json={"holder": "Selam"}).get_json()["token"]
    for accept in (NOTATION_TYPE, "application/x-ndjson"):
        exported = client.get("/api/export", headers={"Accept": accept}).get_data()
        response = anon.post("/api/import", data=exported, content_type=accept, headers=bearer(token))
        report = response.get_json()
        assert (report["imported"], report["existing"]) == (0, 1), (accept, report)
        assert report["games"][0]["game_id"] == live
    assert _game_ids(app) == [live]

"""Projections beside the store (games list, notation cache, stored lines): rebuilt from the
events by ``recorder rebuild``, checked against them by ``recorder verify --projections``."""

import sqlite3

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from recorder.archive.transfer import Archive
from recorder.cli.main import main
from recorder.games.caches import NotationCache
from recorder.games.service import Recorder
from recorder.projections import check, rebuild
from recorder.store import SQLiteEventStore

TWO_GAMES = (
    (FIXTURES / "notation" / "qelat-default.mn").read_text()
    + "\n"
    + (FIXTURES / "notation" / "gabata-default.mn").read_text()
)


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "p.sqlite3")
    with SQLiteEventStore(path) as store:
        reports = list(Archive(store, recorded_by="archivist").import_notation(TWO_GAMES, "two.mn"))
        assert [r.status for r in reports] == ["imported", "imported"]
    return path


def tamper(db: str, *statements: str) -> None:
    with sqlite3.connect(db) as conn:
        for statement in statements:
            conn.execute(statement)


def verify(db: str):
    return CliRunner().invoke(main, ["verify", "--projections", "--db", db])


def test_projections_of_recorded_games_agree_with_their_events(db):
    result = verify(db)
    assert result.exit_code == 0, result.output
    assert "projections: 0 mismatches\n" in result.output and "rebuild" not in result.output


def test_a_tampered_games_list_is_reported_then_repaired_by_rebuild(db):
    tamper(db, "UPDATE games SET south = 'Nobody', result = 'draw'", "INSERT INTO games VALUES" + GHOST)
    result = verify(db)
    assert result.exit_code == 1
    assert result.output.count("south is 'Nobody'") == 2 and "ghost: a row without a game" in result.output
    assert "projections: 5 mismatches; run recorder rebuild to repair" in result.output
    rebuilt = CliRunner().invoke(main, ["rebuild", "--db", db])
    assert rebuilt.exit_code == 0 and "rebuilt the projections of 2 games" in rebuilt.output
    assert verify(db).exit_code == 0


GHOST = " ('ghost', 'qelat', 'a', 'b', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'x', 'x', NULL, 'a', 'b')"


def test_a_lost_games_list_is_rebuilt_with_the_same_rows(db):
    with SQLiteEventStore(db) as store:
        before = Recorder(store).games.page()
    tamper(db, "DELETE FROM games")
    assert verify(db).exit_code == 1
    with SQLiteEventStore(db) as store:
        recorder = Recorder(store)
        assert rebuild(recorder) == 2
        assert recorder.games.page() == before  # created_at and updated_at are the events' times


def test_export_uses_the_notation_cache_only_at_the_games_current_version(db):
    with SQLiteEventStore(db) as store:
        archive = Archive(store, recorded_by="archivist", restore=True)
        uncached = "".join(archive.notation_archive(archive.select()))
        rebuild(Recorder(store))
        assert "".join(archive.notation_archive(archive.select())) == uncached
        game_id = next(archive.select())
        cache = NotationCache(store)
        assert cache.fresh(game_id) is not None
        recorder = Recorder(store)
        note = {"type": "annotate", "text": "a late note"}
        recorder.record(game_id, note, expected_version=store.version(game_id), recorded_by="archivist")
        assert cache.fresh(game_id) is None  # stale: the export writes this game from its events
        assert "a late note" in "".join(archive.notation_archive([game_id]))


def test_a_tampered_notation_cache_is_reported(db):
    with SQLiteEventStore(db) as store:
        rebuild(Recorder(store))
    tamper(db, "UPDATE notations SET text = 'forged'")
    result = verify(db)
    assert result.exit_code == 1 and result.output.count("notation cache:") == 2
    with SQLiteEventStore(db) as store:
        assert len(list(check(Recorder(store)))) == 2


def test_recorder_export_fills_the_notation_cache_and_the_next_export_is_the_same(db, tmp_path):
    first, second = tmp_path / "1.mn", tmp_path / "2.mn"
    assert CliRunner().invoke(main, ["export", "--db", db, "-o", str(first)]).exit_code == 0
    with SQLiteEventStore(db) as store:
        archive = Archive(store, recorded_by="archivist", restore=True)
        assert all(NotationCache(store).fresh(game_id) is not None for game_id in archive.select())
    assert CliRunner().invoke(main, ["export", "--db", db, "-o", str(second)]).exit_code == 0
    assert first.read_text() == second.read_text()
    assert verify(db).exit_code == 0

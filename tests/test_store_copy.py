"""``recorder copy`` between backends and ``recorder backup`` of the SQLite file."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from recorder.cli import main
from recorder.core import chain
from recorder.games.service import Recorder
from recorder.store import GAME, TOURNAMENT, NewEvent, SQLiteEventStore
from recorder.store.backends import open_store

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def record_games(path: str, count: int) -> list[str]:
    """``count`` qelat games of a few moves each, through the service, and a tournament stream."""
    with SQLiteEventStore(path) as store:
        recorder = Recorder(store)
        ids = []
        for i in range(count):
            game = recorder.create_game({**QELAT, "round": str(i)}, recorded_by="Arbiter Hagos").game
            for _ in range(i % 4):
                now = recorder.game(game.game_id)
                hole = now.rules.board.holes[sorted(now.rules.legal_moves(now.state))[0]]
                recorder.record(
                    game.game_id,
                    {"type": "sow", "hole": hole},
                    expected_version=now.version,
                    recorded_by="Arbiter Hagos",
                )
            ids.append(game.game_id)
        store.append("t-x", 0, [NewEvent("tournament_created", {"name": "é ✓ ሰላም\u2028"})], stream_type=TOURNAMENT)
    return ids


def test_copy_moves_every_stream_byte_for_byte_and_rebuilds_the_lists(tmp_path, postgres_url):
    source = str(tmp_path / "records.sqlite3")
    ids = record_games(source, 6)
    result = CliRunner().invoke(main, ["copy", "--from", f"sqlite:{source}", "--to", postgres_url])
    assert result.exit_code == 0, result.output
    assert "copied 7 streams" in result.output and "every chain verified" in result.output
    with SQLiteEventStore(source) as original, open_store(postgres_url) as copied:
        for stream_id in [*ids, "t-x"]:
            assert copied.event_lines(stream_id) == original.event_lines(stream_id)
            assert chain.first_broken_link(copied.read(stream_id)) is None
        assert copied.stream_type("t-x") == TOURNAMENT and sorted(copied.stream_ids(GAME)) == sorted(ids)
        listed = Recorder(copied).games.page(limit=100)
        assert sorted(row["game_id"] for row in listed) == sorted(ids)
    verified = CliRunner().invoke(main, ["verify", "--projections", "--db", postgres_url])
    assert verified.exit_code == 0, verified.output


def test_copy_refuses_a_target_that_holds_streams(tmp_path, postgres_url):
    source = str(tmp_path / "records.sqlite3")
    record_games(source, 1)
    with open_store(postgres_url) as target:
        target.append("already-here", 0, [NewEvent("sow", {"pit": 1})])
    result = CliRunner().invoke(main, ["copy", "--from", f"sqlite:{source}", "--to", postgres_url])
    assert result.exit_code == 1 and "copy only into an empty database" in result.output
    with open_store(postgres_url) as target:
        assert target.stream_ids(GAME) == ["already-here"]


def test_copy_goes_back_from_postgres_to_sqlite(tmp_path, postgres_url):
    first, back = str(tmp_path / "first.sqlite3"), str(tmp_path / "back.sqlite3")
    ids = record_games(first, 3)
    assert CliRunner().invoke(main, ["copy", "--from", first, "--to", postgres_url]).exit_code == 0
    result = CliRunner().invoke(main, ["copy", "--from", postgres_url, "--to", f"sqlite:{back}"])
    assert result.exit_code == 0, result.output
    with SQLiteEventStore(first) as original, SQLiteEventStore(back) as returned:
        assert all(returned.event_lines(i) == original.event_lines(i) for i in ids)


@pytest.mark.parametrize("side", ["from", "to"])
def test_copy_names_a_database_that_cannot_be_opened_in_one_line(tmp_path, side):
    source = str(tmp_path / "records.sqlite3")
    record_games(source, 1)
    (tmp_path / "a folder").mkdir()
    broken = f"sqlite:{tmp_path / 'a folder'}"
    ends = (
        {"from": broken, "to": f"sqlite:{tmp_path / 'copy.sqlite3'}"}
        if side == "from"
        else {
            "from": f"sqlite:{source}",
            "to": broken,
        }
    )
    result = CliRunner().invoke(main, ["copy", "--from", ends["from"], "--to", ends["to"]])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("error: cannot open the database ") and result.output.count("\n") == 1


def test_backup_copies_the_file_with_what_is_only_in_the_wal(tmp_path):
    path, copy = str(tmp_path / "records.sqlite3"), str(tmp_path / "backup.sqlite3")
    ids = record_games(path, 3)
    with SQLiteEventStore(path) as live:  # open: events still in the -wal file are copied too
        live.append(ids[0], live.version(ids[0]), [NewEvent("annotation", {"text": "late"})])
        result = CliRunner().invoke(main, ["backup", copy, "--db", path])
        assert result.exit_code == 0, result.output
        total = sum(live.version(i) for i in ids) + 1
        assert f"backed up {total} events" in result.output
        assert sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one whole file
        with SQLiteEventStore(copy) as backup:
            assert all(backup.event_lines(i) == live.event_lines(i) for i in ids)


@pytest.mark.parametrize("existing", [True, False])
def test_backup_never_overwrites_and_needs_a_source(tmp_path, existing):
    path, copy = str(tmp_path / "records.sqlite3"), tmp_path / "backup.sqlite3"
    record_games(path, 1)
    copy.write_text("keep me")
    source = path if existing else str(tmp_path / "missing.sqlite3")
    result = CliRunner().invoke(main, ["backup", str(copy), "--db", source])
    assert result.exit_code == 1 and copy.read_text() == "keep me"


@pytest.mark.parametrize("fault", ["source a folder", "source not SQLite", "destination in no folder"])
def test_backup_names_what_it_cannot_copy_in_one_line_and_leaves_no_partial_copy(tmp_path, fault):
    path, copy = tmp_path / "records.sqlite3", tmp_path / "backup.sqlite3"
    record_games(str(path), 1)
    if fault == "source a folder":
        path = tmp_path / "a folder"
        path.mkdir()
    elif fault == "source not SQLite":
        path = tmp_path / "notes.txt"
        path.write_text("plain text, not SQLite\n" * 100)
    else:
        copy = tmp_path / "no such folder" / "backup.sqlite3"
    result = CliRunner().invoke(main, ["backup", str(copy), "--db", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("Error: cannot back up ") and result.output.count("\n") == 1
    assert not copy.exists()

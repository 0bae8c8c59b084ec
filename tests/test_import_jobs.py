"""``recorder import --jobs``: NDJSON logs checked and stored by worker processes in turn,
with exactly the outcome of an import in one process."""

import contextlib
import sqlite3

import pytest
from click.testing import CliRunner

from recorder.archive import parallel, ranges
from recorder.archive.ndjson import read_logs
from recorder.archive.transfer import Archive
from recorder.bench.archive import check_ceiling
from recorder.bench.exports import recorded_templates
from recorder.cli.main import main
from recorder.store import SQLiteEventStore

GAMES = 60  # copies of the fixture games: several tasks per worker
TAMPERED, TAKEN = 31, 12  # a game whose log was edited; a game already stored in the target


def game_id(number: int) -> str:
    return f"g{number:04d}"


@pytest.fixture(scope="module")
def archive_file(tmp_path_factory):
    """An NDJSON export of ``GAMES`` games, one of them edited after it was exported."""
    folder = tmp_path_factory.mktemp("import-jobs")
    templates = recorded_templates(str(folder))
    with SQLiteEventStore(str(folder / "source.sqlite3")) as store:
        with store.batch():
            for number in range(GAMES):
                store.append(game_id(number), 0, templates[number % len(templates)][0], recorded_by="arbiter")
        text = "".join(Archive(store).ndjson_archive(game_id(n) for n in range(GAMES)))
    marker = f'"game_id":"{game_id(TAMPERED)}"'
    lines = text.split("\n")
    edited = [i for i, line in enumerate(lines) if marker in line and '"seq":3,' in line]
    assert len(edited) == 1  # the premise: the tampered game's third event is one line
    lines[edited[0]] = lines[edited[0]].replace('"recorded_by":"arbiter"', '"recorded_by":"mallory"')
    path = folder / "archive.ndjson"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def imported(tmp_path, archive_file, jobs: int):
    """The command's outcome, and what it stored: every line, position and games list row
    (but game TAKEN's lines and row, stored beforehand, at another time)."""
    tmp_path.mkdir()
    target = str(tmp_path / f"jobs-{jobs}.sqlite3")
    with SQLiteEventStore(target) as store:
        store.append(game_id(TAKEN), 0, recorded_templates(str(tmp_path))[0][0], recorded_by="arbiter")
    result = CliRunner().invoke(main, ["import", "--jobs", str(jobs), "--db", target, str(archive_file)])
    with SQLiteEventStore(target) as store:
        lines = [store.event_lines(game_id(n)) for n in range(GAMES) if n != TAKEN]
    with contextlib.closing(sqlite3.connect(target)) as conn:
        positions = conn.execute(
            "SELECT key_high, key_low, game_id, seq FROM positions JOIN position_games USING (game) ORDER BY 1, 2, 3, 4"
        ).fetchall()
        games = conn.execute("SELECT * FROM games WHERE game_id != ? ORDER BY 1", (game_id(TAKEN),)).fetchall()
        order = conn.execute("SELECT game_id FROM position_games ORDER BY game").fetchall()  # the order stored
    return result, lines, positions, games, order


def respelled(archive_file, tmp_path):
    """The archive with one line of game 25 respelled (a space after its first colon): not
    an export's spelling, so the file is plain up to that game's range, and read and
    grouped by the command from there on."""
    text = archive_file.read_text(encoding="utf-8")
    line = f'{{"game_id":"{game_id(25)}","hash"'
    assert line in text
    path = tmp_path / "respelled.ndjson"
    path.write_text(text.replace(line, line.replace(":", ": ", 1), 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("plain", [True, False], ids=["plain: ranges read by the workers", "read here"])
def test_an_import_with_two_jobs_stores_and_reports_what_one_job_does(tmp_path, archive_file, monkeypatch, plain):
    monkeypatch.setattr(parallel, "MIN_EVENTS", 1)  # the file is small: have it checked in workers all the same
    monkeypatch.setattr(ranges, "RANGE_BYTES", 20_000)  # a few games a range: many ranges
    monkeypatch.setattr(parallel, "TASK_EVENTS", 200)  # and many tasks of logs
    if not plain:
        archive_file = respelled(archive_file, tmp_path)
    started: list[str] = []  # the kinds of task handed to workers: ranges they read, or logs read here

    def counted(job, tasks, jobs, real=parallel.imported):
        return real(job, (started.append(type(task).__name__) or task for task in tasks), jobs)

    monkeypatch.setattr(parallel, "imported", counted)
    one = imported(tmp_path / "one", archive_file, 1)
    assert not started  # one job: checked in this process
    two = imported(tmp_path / "two", archive_file, 2)
    assert len(started) > 3 and started[0] == "FileRange"  # two jobs: checked in workers, in many tasks
    assert set(started) == ({"FileRange"} if plain else {"FileRange", "list"})  # the rest: read here
    assert one[0].exit_code == two[0].exit_code == 1
    refusals = [line for line in two[0].stderr.splitlines() if line.startswith("refused")]
    assert refusals == [line for line in one[0].stderr.splitlines() if line.startswith("refused")]
    assert len(refusals) == 2 and f"{game_id(TAKEN)}" in refusals[0] and "exists already" in refusals[0]
    assert f"game {TAMPERED + 1} ({game_id(TAMPERED)})" in refusals[1] and "hash chain breaks at event 3" in refusals[1]
    assert f"imported {GAMES - 2} games, refused 2" in two[0].stdout
    assert two[1:] == one[1:]  # the same events, positions and games list, byte for byte
    assert two[1][TAMPERED - 1] == [] and len(two[2]) > GAMES * 20 and len(two[3]) == GAMES - 2
    stored = [game_id(n) for n in range(GAMES) if n not in (TAMPERED, TAKEN)]
    assert [game for (game,) in two[4]] == stored  # in file order, whichever worker checked a game


def test_a_worker_that_cannot_open_the_database_stops_the_import_with_the_reason(tmp_path, archive_file):
    """A worker's failed start is raised by its first task (the pool would otherwise start
    another worker in its place, and another, and the import would wait for ever)."""
    from recorder.api.archive import schema_check
    from recorder.archive.importer import file_logs, importing_archive, ndjson_frame
    from recorder.errors import Unavailable

    with SQLiteEventStore(str(tmp_path / "here.sqlite3")) as store:
        settings = importing_archive(store, "command line", schema_check).settings
    job = parallel.ImportJob(str(tmp_path / "no such folder" / "there.sqlite3"), settings)
    logs = file_logs(str(archive_file), ndjson_frame(str(archive_file))[0])
    with pytest.raises(Unavailable, match="cannot open the database"):
        list(parallel.imported(job, parallel.log_tasks(logs), 2))


def test_a_log_goes_to_a_worker_as_text_and_a_broken_line_spoils_the_game_it_names(archive_file):
    """Lines are grouped by the game each names, unread; a log is read where it is checked.
    A line cut short after its game id spoils that game's log, not the one before it."""
    lines = [line for line in archive_file.read_text(encoding="utf-8").split("\n") if '"game_id"' in line]
    first, second = game_id(1), game_id(2)
    firsts = [line for line in lines if line.startswith(f'{{"game_id":"{first}"')]
    seconds = [line for line in lines if line.startswith(f'{{"game_id":"{second}"')]
    broken = seconds[0][: seconds[0].index(',"payload"')]  # its game id, then nothing it can be read as
    logs = list(read_logs([*firsts, broken, *seconds[1:]], "cut.ndjson"))
    assert [log.game_id for log in logs] == [first, second]
    assert all(log.raw for log in logs)  # nothing read yet: what a worker is sent is the text
    assert logs[0].error is None and len(logs[0].events) == len(firsts)
    assert logs[1].error is not None and f"line {len(firsts) + 1}, column" in logs[1].error.detail
    assert len(logs[1].events) == len(seconds) - 1


def test_the_bench_check_ceiling_checks_a_file_as_the_import_does_and_stores_nothing(
    tmp_path, archive_file, monkeypatch
):
    monkeypatch.setattr(parallel, "MIN_EVENTS", 1)  # the file is small: have it checked in workers all the same
    clean = tmp_path / "clean.ndjson"
    clean.write_text(archive_file.read_text().replace('"recorded_by":"mallory"', '"recorded_by":"arbiter"'))
    with SQLiteEventStore(str(tmp_path / "unread.sqlite3")) as store:
        seconds, processes = check_ceiling(store, str(clean), 2)
        assert seconds > 0 and processes == 2
        assert check_ceiling(store, str(clean), 1)[1] == 1  # one job: checked in this process
        with pytest.raises(RuntimeError, match="the check refused 1 of the exported archive's games"):
            check_ceiling(store, str(archive_file), 2)  # the tampered game, as the import refuses it
        assert store.version(game_id(0)) == 0  # nothing stored

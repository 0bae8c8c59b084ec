"""The ``recorder`` command: serve, init-db and replay."""

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_server import free_port  # nothing listens there: a connection is refused

from recorder.cli.main import main

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def test_init_db_creates_the_database(tmp_path):
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(main, ["init-db", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert db.exists()


def test_replay_prints_the_board_after_any_event(api, app):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="f1")
    db = app.config["DATABASE"]
    latest = CliRunner().invoke(main, ["replay", game["id"], "--db", db])
    assert latest.exit_code == 0, latest.output
    # After f1 (4) CCW: f2 e2 d2 c2 hold 5, f1 is empty; North to move.
    assert board_rows(latest.output) == {"2": [4, 4, 5, 5, 5, 5], "1": [4, 4, 4, 4, 4, 0]}
    assert "north to move" in latest.output
    first = CliRunner().invoke(main, ["replay", game["id"], "--at", "1", "--db", db])
    assert board_rows(first.output) == {"2": [4] * 6, "1": [4] * 6} and "south to move" in first.output


def board_rows(text: str) -> dict:
    """The seed counts of each printed row ("  2:  4  4 ..."), marks such as S, N or * dropped."""
    rows = {}
    for line in text.splitlines():
        label, _, cells = line.strip().partition(":")
        if label.isdigit() and cells:
            rows[label] = [int("".join(ch for ch in cell if ch.isdigit())) for cell in cells.split()]
    return rows


def test_replay_of_an_unknown_game_fails_clearly(tmp_path):
    db = str(tmp_path / "x.sqlite3")
    assert CliRunner().invoke(main, ["init-db", "--db", db]).exit_code == 0
    result = CliRunner().invoke(main, ["replay", "nope", "--db", db])
    assert result.exit_code == 1 and "no game 'nope'" in result.output


@pytest.mark.parametrize("at", ["99999999999999999999", "9223372036854775808", "0"])
def test_replay_at_an_event_number_no_store_holds_is_a_usage_error(tmp_path, at):
    result = CliRunner().invoke(main, ["replay", "nope", "--at", at, "--db", str(tmp_path / "x.sqlite3")])
    assert result.exit_code == 2 and "--at" in result.output and not isinstance(result.exception, OverflowError)


@pytest.mark.parametrize("where", ["no such folder/x.sqlite3", "a folder", "not a database"])
def test_a_database_that_cannot_be_opened_is_named_not_a_traceback(tmp_path, where):
    (tmp_path / "a folder").mkdir()
    (tmp_path / "not a database").write_text("plain text, not SQLite\n" * 100)
    db = str(tmp_path / where)
    result = CliRunner().invoke(main, ["replay", "nope", "--db", db])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert f"cannot open the database {db}" in result.output


@pytest.mark.parametrize("where", ["a folder", "postgresql"])
def test_serve_on_a_database_that_cannot_be_opened_says_so_in_one_line(tmp_path, where):
    (tmp_path / "a folder").mkdir()
    db = str(tmp_path / where) if where != "postgresql" else f"postgresql://a:s3cret@127.0.0.1:{free_port()}/r"
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", db])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("error: cannot ") and result.output.count("\n") == 1


def test_a_postgresql_server_that_cannot_be_reached_is_named_at_once_not_a_traceback():
    """Before, the pool retried for 30 s and the command ended in a PoolTimeout traceback.
    The reason is told; the URL's password is not."""
    url = f"postgresql://arbiter:s3cret@127.0.0.1:{free_port()}/records"
    started = time.monotonic()
    result = CliRunner().invoke(main, ["verify", "--db", url])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert time.monotonic() - started < 5  # told at once (0.1 s), where the pool's retries took 30 s
    assert "cannot reach the PostgreSQL server" in result.output and "refused" in result.output
    assert "s3cret" not in result.output and result.output.count("\n") == 1


@pytest.mark.parametrize("key", ["a folder", "not a key"])
def test_a_signing_key_that_cannot_be_used_is_named_not_a_traceback(tmp_path, key):
    (tmp_path / "a folder").mkdir()
    (tmp_path / "not a key").write_text("plain text, not a PEM key\n")
    path = str(tmp_path / key)
    result = CliRunner().invoke(main, ["public-key", "--key", path, "--db", str(tmp_path / "x.sqlite3")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert f"cannot use the signing key {path}" in result.output


@pytest.mark.parametrize("command", [["replay", "\udcff\udcfe"], ["tournament", "add-player", "t-x", "\udcff"]])
def test_an_argument_that_is_not_utf8_text_is_refused_before_any_command_runs(tmp_path, command):
    # The shell's $'\xff\xfe' reaches Python as the lone surrogates \udcff\udcfe (surrogateescape).
    result = CliRunner().invoke(main, [*command, "--db", str(tmp_path / "x.sqlite3")])
    assert result.exit_code == 2 and "an argument is not UTF-8 text: b'\\xff" in result.output
    assert not (tmp_path / "x.sqlite3").exists()  # refused before any database was opened


def test_serve_answers_http_on_the_given_port_and_database(tmp_path):
    port, db = free_port(), tmp_path / "served.sqlite3"
    recorder = Path(sys.executable).with_name("recorder")
    env = {k: v for k, v in os.environ.items() if k not in ("RECORDER_ADMIN_TOKEN", "RECORDER_OPEN")}
    env["RECORDER_ENGINE"] = "python"  # no first-start build of the engine here: tests/test_engine.py makes the one
    output = (tmp_path / "serve.out").open("w")
    process = subprocess.Popen(
        [str(recorder), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=output,
        stderr=subprocess.STDOUT,
        env={**env, "RECORDER_DB": str(tmp_path / "not-this-one.sqlite3")},
    )
    try:
        body = _get_when_up(f"http://127.0.0.1:{port}/api/variants")
        assert [v["name"] for v in body["variants"]] == ["selus", "gabata", "qelat", "lahemay_walida", "tuz"]
        # First run: a token in a private file beside the database, its sign-in address printed
        token_file = Path(str(db) + ".admin-token")
        token = token_file.read_text().strip()
        assert token_file.stat().st_mode & 0o777 == 0o600
        assert f"http://127.0.0.1:{port}/?token={token}" in (tmp_path / "serve.out").read_text()
        with contextlib.closing(sqlite3.connect(db)) as conn:
            assert token not in "\n".join(conn.iterdump())  # only its digest is stored
        assert _post(port, "/api/games", QELAT) == 401
        assert _post(port, "/api/games", QELAT, token) == 201
        assert db.exists() and not (tmp_path / "not-this-one.sqlite3").exists()
    finally:
        process.terminate()
        process.wait(timeout=10)
        output.close()


def _post(port: int, path: str, body: dict, token: str | None = None) -> int:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _get_when_up(url: str, seconds: float = 15.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return json.loads(response.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_serve_open_says_so_at_start_and_takes_anonymous_games(tmp_path):
    port, db = free_port(), tmp_path / "open.sqlite3"
    recorder = Path(sys.executable).with_name("recorder")
    env = {k: v for k, v in os.environ.items() if k not in ("RECORDER_ADMIN_TOKEN", "RECORDER_OPEN")}
    env["RECORDER_ENGINE"] = "python"  # no first-start build of the engine here: tests/test_engine.py makes the one
    output = (tmp_path / "serve.out").open("w")
    process = subprocess.Popen(
        [str(recorder), "serve", "--open", "--port", str(port), "--db", str(db)],
        stdout=output,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        _get_when_up(f"http://127.0.0.1:{port}/api/variants")
        assert "OPEN MODE" in (tmp_path / "serve.out").read_text()
        assert _post(port, "/api/games", QELAT) == 201
        tournament = {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3}
        assert _post(port, "/api/tournaments", tournament) == 401
    finally:
        process.terminate()
        process.wait(timeout=10)
        output.close()


@pytest.mark.parametrize(
    "command",
    [["verify"], ["verify", "--projections"], ["rebuild"], ["replay", "no-such-game"], ["token", "list"]],
    ids=" ".join,
)
def test_every_command_closes_the_store_it_opened_however_it_ends(tmp_path, monkeypatch, command):
    """A store left open would be closed by the garbage collector, at any time: a PostgreSQL
    pool then closes in one of its own threads, which cannot join itself."""
    from recorder.store import backends

    opened = []

    def open_store(path):
        opened.append(real_open(path))
        return opened[-1]

    real_open = backends.open_store
    db = str(tmp_path / "records.sqlite3")
    assert CliRunner().invoke(main, ["init-db", "--db", db]).exit_code == 0  # reading commands open only what is there
    monkeypatch.setattr(backends, "open_store", open_store)
    CliRunner().invoke(main, [*command, "--db", db])
    assert opened and all(store._closed for store in opened)


READING_COMMANDS = [
    ["verify"],
    ["verify", "some_game"],
    ["export"],
    ["search", "4,4,4,4,4,4/4,4,4,4,4,4 - - 0-0 S 1"],
    ["replay", "some_game"],
    ["rebuild"],
    ["trace", "some_game", "1"],
    ["checkpoint", "some_game"],
    ["what-if", "some_game", "--option", "serial_capture=false"],
]


@pytest.mark.parametrize("command", READING_COMMANDS, ids=" ".join)
def test_a_command_that_reads_a_database_that_is_not_there_says_so_and_creates_none(tmp_path, command):
    """A mistyped --db made an empty database there, and `recorder verify` then reported
    "0 failed" with exit status 0: an auditor's false assurance. A command that only reads
    (or rebuilds what is there) refuses a SQLite file that does not exist."""
    db = tmp_path / "recods.sqlite3"
    result = CliRunner().invoke(main, [*command, "--db", str(db)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert f"error: cannot open the database {db}: no such file" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == []


@pytest.mark.parametrize("port", ["99999", "65536", "-1"])
def test_serve_on_a_port_no_socket_has_is_a_usage_error_not_another_port(tmp_path, monkeypatch, port):
    """--port 99999 served on 34463 (the number cut to 16 bits) and -1 was a traceback:
    a port is 0 (any free one) to 65535, said before anything starts or any database is made."""
    monkeypatch.setattr("flask.Flask.run", lambda *args, **kwargs: pytest.fail("the server started"))
    db = tmp_path / "records.sqlite3"
    result = CliRunner().invoke(main, ["serve", "--port", port, "--db", str(db)])
    assert result.exit_code == 2 and "--port" in result.output and "0<=x<=65535" in result.output
    assert not db.exists()

"""``recorder tournament ...``: the command line over the same database as the API."""

import pytest
from click.testing import CliRunner

from recorder.cli.main import main
from recorder.core.names import display_width
from recorder.store import SQLiteEventStore


def run(db, *args, ok=True):
    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert (result.exit_code == 0) is ok, result.output
    return result.output.strip()


def test_cli_runs_a_small_round_robin_to_its_standings(tmp_path):
    db = tmp_path / "cli.sqlite3"
    tid = run(
        db,
        "create",
        "--name",
        "Dessie Open",
        "--variant",
        "qelat",
        "--format",
        "round_robin",
        "--start",
        "2026-12-01",
        "--tiebreak",
        "sonneborn_berger",
        "--tiebreak",
        "wins",
    )
    assert tid.startswith("t-")
    assert [run(db, "add-player", tid, name) for name in ("Abeba", "Berhane", "Chaltu", "Dawit")] == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert run(db, "pair", tid).splitlines() == [
        "round 1 (berger)",
        "  board 1: Abeba (south) - Dawit (north)",
        "  board 2: Berhane (south) - Chaltu (north)",
    ]
    game_id = run(db, "start-game", tid, "1", "1")
    assert game_id.endswith("-r1-b1")
    run(db, "forfeit", tid, "1", "1", "south_wins", ok=False)  # the board has a game
    run(db, "forfeit", tid, "1", "2", "north_wins")
    assert "Dessie Open" in run(db, "list")
    assert "board 2: Berhane - Chaltu  north_wins (forfeit)" in run(db, "show", tid)
    # Chaltu (3) has 1 point from the forfeit; everyone else 0 (board 1 still being played).
    lines = run(db, "standings", tid).splitlines()
    assert lines[0].split() == ["rank", "no", "name", "fed", "points", "sonneborn_berger", "wins"]
    assert lines[2].split() == ["1", "3", "Chaltu", "1", "1", "1"]
    # Places: 1 Chaltu, then the players on 0 by number: 2 Abeba, 3 Berhane, 4 Dawit.
    assert run(db, "crosstable", tid).splitlines()[2:] == [
        "1      Chaltu   x     +     1",  # beat place 3 (Berhane) by forfeit
        "2      Abeba       x     *  0",  # playing place 4 (Dawit)
        "3      Berhane  -     x     0",
        "4      Dawit       *     x  0",
    ]


def test_cli_issues_lists_and_revokes_tokens(tmp_path):
    db = tmp_path / "cli.sqlite3"
    tid = run(db, "create", "--name", "X", "--variant", "gabata", "--format", "swiss", "--rounds", "3")
    token_id, token = run(db, "issue-token", tid, "Arbiter Hagos").split()
    assert token.startswith("rt_") and token_id.startswith("tok-")
    assert "Arbiter Hagos" in run(db, "tokens", tid) and "active" in run(db, "tokens", tid)
    assert run(db, "revoke-token", tid, token_id).startswith(f"{token_id} revoked at ")
    assert "revoked" in run(db, "tokens", tid)
    run(db, "revoke-token", tid, "tok-nothing", ok=False)


def test_cli_refusals_are_one_line_errors(tmp_path):
    db = tmp_path / "cli.sqlite3"
    result = CliRunner().invoke(
        main, ["tournament", "create", "--name", "X", "--variant", "qelat", "--format", "swiss", "--db", str(db)]
    )
    assert result.exit_code == 1 and "needs its number of rounds" in result.output
    run(db, "standings", "t-000000000000", ok=False)


SWISS = ["create", "--name", "X", "--variant", "qelat", "--format", "swiss"]


def _version(db, tournament_id: str) -> int:
    with SQLiteEventStore(str(db)) as store:
        return store.version(tournament_id)


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        ([*SWISS, "--rounds", "500"], "rounds"),
        ([*SWISS[:2], "", *SWISS[3:], "--rounds", "3"], "name"),
        ([*SWISS, "--rounds", "3", "--bye-points", "7"], "bye_points"),
        ([*SWISS, "--rounds", "3", "--tiebreak", "luck"], "tiebreaks"),
        ([*SWISS, "--rounds", "3", "--site", "x" * 201], "site"),
    ],
)
def test_cli_create_is_held_to_what_the_api_accepts(tmp_path, args, fault):
    """The command line writes the same events as the API, so it takes only what the
    API's schema takes: a refusal names the field, and nothing is stored."""
    db = tmp_path / "cli.sqlite3"
    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"error: {fault}: ") and result.output.count("\n") == 1
    assert run(db, "list") == ""


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (["add-player", "{tid}", "Abeba", "--rating", "-3"], "rating"),
        (["add-player", "{tid}", ""], "name"),
        (["withdraw", "{tid}", "1", "--reason", "x" * 2001], "reason"),
        (["tiebreaks", "{tid}", "luck"], "tiebreaks"),
        (["pair", "{tid}", "--board", "0-1"], "boards"),
        (["pair", "{tid}", "--board", "1-2", "--bye", "3:2"], "byes"),
    ],
)
def test_cli_writes_to_a_tournament_are_held_to_what_the_api_accepts(tmp_path, args, fault):
    db = tmp_path / "cli.sqlite3"
    tid = run(db, *SWISS, "--rounds", "3")
    for name in ("Abeba", "Berhane", "Chaltu"):
        run(db, "add-player", tid, name)
    before = _version(db, tid)
    result = CliRunner().invoke(main, ["tournament", *(a.format(tid=tid) for a in args), "--db", str(db)])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"error: {fault}") and result.output.count("\n") == 1
    assert _version(db, tid) == before == 4  # created, three players: nothing more stored


# A name with a combining mark (U+135F, Ethiopic combining vowel length mark) is one column
# narrower than its count of characters; a CJK name two columns wider per character.
GEEZ_MARKED = "ሰላም\u135f ተስፋይ"
WIDE = "王芳"


def _starts_of_last_columns(line: str, count: int) -> list[int]:
    """Where the last ``count`` cells of a line begin, in display columns."""
    starts, end = [], len(line)
    for cell in reversed(line.split()[-count:]):
        end = line.rindex(cell, 0, end)
        starts.append(display_width(line[:end]))
    return starts


def test_show_and_crosstable_line_up_columns_after_names_in_geez_and_wide_scripts(tmp_path):
    db = tmp_path / "names.sqlite3"
    tid = run(db, "create", "--name", "Mekelle Open", "--variant", "qelat", "--format", "round_robin")
    for name, fed, rating in ((GEEZ_MARKED, "ETH", "1850"), (WIDE, "CHN", "1700"), ("Abeba", "ERI", "1600")):
        run(db, "add-player", tid, name, "--federation", fed, "--rating", rating)
    shown = run(db, "show", tid).splitlines()
    rows = [next(line for line in shown if name in line) for name in (GEEZ_MARKED, WIDE, "Abeba")]
    assert len({tuple(_starts_of_last_columns(row, 2)) for row in rows}) == 1, shown  # federation, rating
    run(db, "pair", tid)
    table = run(db, "crosstable", tid).splitlines()
    assert len({_starts_of_last_columns(line, 1)[0] for line in [table[0], *table[2:]]}) == 1, table  # points

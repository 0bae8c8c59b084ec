"""FIDE Tournament Report Files (recorder/tournaments/trf.py): TRF-2026 and TRF-16 written
and read, checked line by line, over the API and the command line.

Expected files come from an independent program: the pairing corpus's TRFs were written
by bbpPairings' random tournament generator (fixtures/pairings/README.md). What this
service writes for a tournament imported from one of them must be that file's player
records, column for column (only the rank, whose tiebreaks differ, is ours)."""

import json
import re

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.cli.main import main
from recorder.tournaments import trf
from recorder.tournaments.events import DUTCH_2026, TournamentCreated
from recorder.tournaments.fold import replay
from recorder.tournaments.results import result_of_forfeit

CORPUS = FIXTURES / "pairings"
CORPUS_NAMES = sorted(path.stem for path in CORPUS.glob("*.trf"))


def record(number: int, name: str, rating: str, points: str, *rounds: str, rank: str = "") -> str:
    """A 001 record laid out by the TRF-2026 columns: number 5-8, name 15-47, rating 49-52,
    points 81-84, rank 86-89, rounds from 92, ten columns each."""
    head = f"001 {number:>4}      {name:<33} {rating:>4} {'':3} {'':11} {'':10} {points:>4} {rank:>4}"
    return (head + "".join(f"  {r}" for r in rounds)).rstrip()


SMALL = (
    "\n".join(
        [
            "012 Dessie Open",
            "142 3",
            record(1, "Abeba", "1900", "1.5", "   2 w 1", "   3 b ="),
            record(2, "Berhane", "1800", "1.0", "   1 b 0", "0000 - U"),
            record(3, "Chaltu", "1700", "0.5", "0000 - Z", "   1 w ="),
        ]
    )
    + "\n"
)


def corpus_text(name: str) -> str:
    return (CORPUS / f"{name}.trf").read_text()


def imported(text: str):
    """The tournament a TRF becomes, folded from its events (no store: nothing is played here)."""
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format="swiss", tiebreaks=[], **fields)
    t = replay("t-trf", enumerate(trf.import_events(parsed, created), start=1))
    return t, {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def written(text: str, layout: str = "2026") -> str:
    t, outcomes = imported(text)
    return trf.write(t, outcomes, layout)


def player_records(text: str) -> list[str]:
    return [line for line in re.split(r"\r\n|\n", text) if line.startswith("001")]


def without_rank(record: str) -> str:
    return record[:85] + record[89:]


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_tournament_is_written_back_as_the_reference_program_wrote_it(name):
    text = corpus_text(name)
    ours = written(text)
    assert [without_rank(r) for r in player_records(ours)] == [without_rank(r) for r in player_records(text)]
    assert written(ours) == ours  # export, import, export: the same file


def test_written_file_has_cr_lf_line_ends_and_the_2026_records():
    text = written(SMALL)
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    lines = text.split("\r\n")
    assert lines[0] == "012 Dessie Open"
    assert "142 3" in lines and "152 W" in lines and "192 FIDE_DUTCH_2025" in lines
    assert lines[-4] == record(1, "Abeba", "1900", "1.5", "   2 w 1", "   3 b =", rank="1")


def test_trf16_layout_leaves_out_the_records_added_in_2026():
    tags = {line[:3] for line in written(SMALL, "16").split("\r\n") if line}
    assert tags <= {"012", "022", "042", "052", "062", "072", "092", "001"}
    assert player_records(written(SMALL, "16")) == player_records(written(SMALL))


def test_import_keeps_players_ratings_rounds_results_and_the_bye():
    t, outcomes = imported(SMALL)
    assert [(e.number, e.name, e.rating) for e in t.entrants] == [
        (1, "Abeba", 1900),
        (2, "Berhane", 1800),
        (3, "Chaltu", 1700),
    ]
    assert t.planned_rounds == 3 and t.pairing_rules == DUTCH_2026 and t.initial_colour == "white"
    first, second = t.rounds
    assert [(b.south, b.north) for b in first.boards] == [(1, 2)] and first.byes == ()  # 3 absent (Z)
    assert [(b.south, b.north) for b in second.boards] == [(3, 1)]
    assert [(b.player, b.points, b.kind) for b in second.byes] == [(2, 1, "pab")]
    assert outcomes[(1, 1)].result == "south_wins" and outcomes[(1, 1)].played
    assert outcomes[(2, 1)].result == "draw"


def test_initial_colour_black_is_read_from_152_or_from_round_one():
    assert imported(SMALL.replace("142 3\n", "142 3\n152 B\n"))[0].initial_colour == "black"
    swapped = SMALL.replace("   2 w 1", "   2 b 1").replace("   1 b 0", "   1 w 0")
    assert imported(swapped)[0].initial_colour == "black"
    assert "152 B" in written(swapped).split("\r\n")


def test_forfeits_short_games_and_requested_byes_are_kept():
    text = "\n".join(
        [
            "012 Byes",
            record(1, "A", "", "2.5", "   2 w +", "   3 b W", "0000 - H", rank="1"),
            record(2, "B", "", "1.0", "   1 b -", "0000 - F", "   3 w -", rank="2"),
            record(3, "C", "", "0.0", "0000 - Z", "   1 w L", "   2 b -", rank="3"),
        ]
    )
    t, outcomes = imported(text)
    assert outcomes[(1, 1)].result == "south_wins" and not outcomes[(1, 1)].played
    assert t.forfeits[(2, 1)].reason == "short_game" and outcomes[(2, 1)].result == "north_wins"
    assert outcomes[(3, 1)].result == "double_forfeit"
    assert [(b.player, b.kind, b.points) for b in t.rounds[1].byes] == [(2, "full", 1)]
    assert [(b.player, b.kind, b.points) for b in t.rounds[2].byes] == [(1, "half", 0.5)]
    assert player_records(written(text)) == player_records(text)


def test_prohibited_pairings_and_baku_acceleration_are_read_and_written():
    text = SMALL.replace("142 3\n", "142 3\n192 FIDE_DUTCH_2025_BAKU\n260 001 003    1    3\n")
    t, _ = imported(text)
    assert t.acceleration == "baku"
    assert [(f.players, f.first_round, f.last_round) for f in t.forbidden] == [((1, 3), 1, 3)]
    lines = written(text).split("\r\n")
    assert "192 FIDE_DUTCH_2025_BAKU" in lines and "260 001 003    1    3" in lines


@pytest.mark.parametrize(
    "change, line, column",
    [
        (("142 3", "142 x"), 2, 5),  # rounds not a number
        (("    1      Abeba", "    1  ZZZ Abeba"), 3, 11),  # not a title
        (("    1      Abeba", "    1     XAbeba"), 3, 14),  # the name starts in column 15
        (("1900", "19a0"), 3, 49),  # rating
        (("   2 w 1     3 b =", "   2 w 1     3 x ="), 3, 107),  # colour
        (("   2 w 1     3 b =", "   2 w 1     3 b ?"), 3, 109),  # result code
        (("   2 w 1     3 b =", "   2 w 1     4 b ="), 3, 102),  # no player 4
        (("   1 b 0  0000", "   1 w 0  0000"), 3, 97),  # both white (seen from player 1)
        (("   1 b 0  0000", "   1 b 1  0000"), 3, 99),  # both won (seen from player 1)
        ((" 1.5", " 2.5"), 3, 81),  # points that the rounds do not score
        (("001    3", "001    4"), 5, 5),  # starting numbers not 1..N
        (("0000 - Z", "0000 w Z"), 5, 97),  # a bye with a colour
        (("0000 - U", "0000 - 1"), 4, 109),  # a bye with a game's result
        (("142 3", "142 1"), 2, 5),  # fewer rounds planned than played
        (("142 3", "999 3"), 2, 1),  # unknown record
        (("142 3", "310 Team"), 2, 1),  # a team record not read here (013 is)
        (("142 3", "013 Team"), 2, 37),  # a team record without its players
        (("142 3", "192 FIDE_BURSTEIN"), 2, 5),  # a system not paired here
    ],
)
def test_bad_line_is_refused_naming_line_and_column(change, line, column):
    with pytest.raises(trf.TrfError) as refused:
        imported(SMALL.replace(*change, 1))
    assert (refused.value.extra["line"], refused.value.extra["column"]) == (line, column)
    assert refused.value.detail.startswith(f"line {line}, column {column}: ")


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789 wb-+=HUZF.\n\r001"), max_size=400))
def test_any_text_is_read_or_refused_with_a_line_never_a_crash(text):
    try:
        imported(text)
    except trf.TrfError as refused:
        assert refused.extra["line"] >= 1 and refused.extra["column"] >= 1


# --------------------------------------------------------------------------- over HTTP and the CLI


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def post_trf(client, text: str, query: str = "?variant=qelat", token=ADMIN_TOKEN):
    headers = {"Content-Type": "text/plain", **(bearer(token) if token else {})}
    return client.post(f"/api/tournaments/trf{query}", data=text.encode(), headers=headers)


def test_api_imports_a_corpus_tournament_and_exports_it_back(client):
    text = corpus_text("n021-1")
    response = post_trf(client, text)
    assert response.status_code == 201, response.get_json()
    tid = response.get_json()["id"]
    assert response.headers["Location"].endswith(f"/api/tournaments/{tid}")
    got = client.get(f"/api/tournaments/{tid}/trf")
    assert got.status_code == 200 and got.mimetype == "text/plain"
    exported = got.get_data(as_text=True)
    assert [without_rank(r) for r in player_records(exported)] == [without_rank(r) for r in player_records(text)]
    again = post_trf(client, exported).get_json()["id"]
    assert client.get(f"/api/tournaments/{again}/trf").get_data(as_text=True) == exported


def test_api_tournament_played_here_round_trips_through_trf(client):
    admin = Organiser(client)
    t = admin.create(
        name="Gondar Swiss", variant="qelat", format="swiss", rounds=3, site="Gondar", start_date="2026-12-01"
    )
    admin.add_players(t["id"], ("Abeba", 1900), ("Berhane", 1850), ("Chaltu", 1800), ("Dawit", 1700), "Eleni")
    admin.pair(t["id"])
    game = admin.start(t["id"], 1, 1)
    admin.command(game["id"], type="result", kind="resignation", winner="north")
    admin.forfeit(t["id"], 1, 2, "south_wins")
    admin.pair(t["id"])  # round 2, left pending
    exported = client.get(f"/api/tournaments/{t['id']}/trf").get_data(as_text=True)
    assert exported.split("\r\n")[:3] == ["012 Gondar Swiss", "022 Gondar", "042 2026/12/01"]
    copy = post_trf(client, exported).get_json()
    assert copy["status"] == "in_progress" and len(copy["rounds"]) == 2
    assert client.get(f"/api/tournaments/{copy['id']}/trf").get_data(as_text=True) == exported
    Organiser(client).start(copy["id"], 2, 1)  # the pending board's game goes on here


def test_api_bad_trf_is_422_naming_the_line_and_stores_nothing(client):
    response = post_trf(client, SMALL.replace(" 1.5", " 2.5"))
    body = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert (body["line"], body["column"]) == (3, 81) and "line 3, column 81" in body["detail"]
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


def test_api_import_needs_the_admin_token_and_text(client):
    assert post_trf(client, SMALL, token=None).status_code == 401
    assert post_trf(client, SMALL, query="").status_code == 422  # the variant is needed
    headers = {"Content-Type": "application/json", **bearer(ADMIN_TOKEN)}
    assert client.post("/api/tournaments/trf?variant=qelat", data=json.dumps(SMALL), headers=headers).status_code == 415
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


def test_api_trf16_on_request_and_unknown_layout_is_422(client):
    tid = post_trf(client, SMALL).get_json()["id"]
    old = client.get(f"/api/tournaments/{tid}/trf?layout=16").get_data(as_text=True)
    assert "142 3" not in old and player_records(old) == player_records(written(SMALL))
    assert client.get(f"/api/tournaments/{tid}/trf?layout=2006").status_code == 422
    assert client.get("/api/tournaments/t-000000000000/trf").status_code == 404


def run(db, *args, ok=True):
    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert (result.exit_code == 0) is ok, result.output
    return result.output


def test_cli_imports_and_prints_trf(tmp_path):
    db, source = tmp_path / "cli.sqlite3", tmp_path / "in.trf"
    source.write_text(corpus_text("n009-1"))
    tid = run(db, "import-trf", str(source), "--variant", "qelat").strip()
    printed = run(db, "trf", tid)
    assert [without_rank(r) for r in player_records(printed)] == [
        without_rank(r) for r in player_records(corpus_text("n009-1"))
    ]
    run(db, "trf", tid, "--layout", "16", "--output", str(tmp_path / "out.trf"))
    assert "142 " not in (tmp_path / "out.trf").read_text()


def test_cli_bad_trf_is_one_line_naming_the_line(tmp_path):
    source = tmp_path / "bad.trf"
    source.write_text(SMALL.replace("142 3", "142 x"))
    output = run(tmp_path / "cli.sqlite3", "import-trf", str(source), "--variant", "qelat", ok=False)
    assert "line 2, column 5" in output

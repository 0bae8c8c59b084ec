"""A round proposed, swapped by hand, checked and published: ``POST …/rounds/proposal``
answers the round the engine would store, ``POST …/rounds/check`` the checker's findings
on a round changed by hand (each naming the criterion it breaks); neither stores
anything, and publishing is ``POST …/rounds`` as before."""

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app, seats


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def post(client, url: str, body: dict | None = None, token: str = ADMIN_TOKEN, **headers):
    return client.post(url, json=body if body is not None else {}, headers={**bearer(token), **headers})


def version(client, tid: str) -> str:
    return client.get(f"/api/tournaments/{tid}").headers["ETag"]


def enter_on_paper(client, tid: str, round_number: int, results: list[str]) -> None:
    for board, result in enumerate(results, start=1):
        url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board}/result"
        assert post(client, url, {"result": result, "kind": "played"}).status_code == 201


def swiss(client, players: int) -> str:
    arbiter = Organiser(client)
    tid = arbiter.create(name="Open", variant="gabata", format="swiss", rounds=5)["id"]
    arbiter.add_players(tid, *[(f"Player {n:02d}", 2200 - 10 * n) for n in range(1, players + 1)])
    return tid


def boards_of(answer: dict) -> list[dict]:
    return [{"south": b["south"]["number"], "north": b["north"]["number"]} for b in answer["boards"]]


def codes(answer: dict) -> list[tuple]:
    return [(f["code"], f["criterion"], f["board"], tuple(f["players"])) for f in answer["findings"]]


def test_a_proposal_is_the_round_the_engine_would_store_and_stores_nothing(client):
    tid = swiss(client, 8)
    Organiser(client).pair(tid)
    enter_on_paper(client, tid, 1, ["south_wins", "draw", "north_wins", "south_wins"])
    before = version(client, tid)
    response = post(client, f"/api/tournaments/{tid}/rounds/proposal")
    assert response.status_code == 200, response.get_json()
    proposal = response.get_json()
    assert version(client, tid) == before == f'"{proposal["version"]}"'
    assert (proposal["round"], proposal["method"], proposal["findings"], proposal["breaks"]) == (2, "swiss", [], [])
    published = Organiser(client).pair(tid)
    assert seats(published) == [(b["south"], b["north"]) for b in boards_of(proposal)]


def test_a_proposal_is_refused_as_publishing_would_be(client):
    tid = swiss(client, 4)
    Organiser(client).pair(tid)
    response = post(client, f"/api/tournaments/{tid}/rounds/proposal")
    assert response.status_code == 422 and "round 1 is not finished" in response.get_json()["detail"]


def test_a_round_swapped_into_rematches_is_checked_naming_c1_and_stores_nothing(client):
    tid = swiss(client, 4)
    first = seats(Organiser(client).pair(tid))
    enter_on_paper(client, tid, 1, ["south_wins", "north_wins"])
    before = version(client, tid)
    again = [{"south": north, "north": south} for south, north in first]  # the same pairs, seats turned
    response = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": again})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert version(client, tid) == before
    assert ("rematch", "C.1", 1, (again[0]["south"], again[0]["north"])) in codes(answer)
    assert ("not_engine_pair", None, 2, (again[1]["south"], again[1]["north"])) in codes(answer)
    assert answer["breaks"] == ["C.1"] and answer["expected"]["boards"]
    assert "have met already (C.1)" in answer["findings"][0]["text"]
    # the organiser decides: the checked round is published as a manual round
    assert Organiser(client).pair(tid, boards=again)["method"] == "manual"


def test_the_engines_round_sent_back_unchanged_has_no_findings(client):
    tid = swiss(client, 6)
    Organiser(client).pair(tid)
    enter_on_paper(client, tid, 1, ["south_wins", "draw", "north_wins"])
    proposal = post(client, f"/api/tournaments/{tid}/rounds/proposal").get_json()
    answer = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": boards_of(proposal)}).get_json()
    assert answer["findings"] == []
    swapped = boards_of(proposal)
    swapped[0] = {"south": swapped[0]["north"], "north": swapped[0]["south"]}
    answer = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": swapped}).get_json()
    assert ("seats_swapped", None, 1, (swapped[0]["south"], swapped[0]["north"])) in codes(answer)


def manual(client, players: int = 4) -> str:
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=5)["id"]
    arbiter.add_players(tid, *[f"Player {n}" for n in range(1, players + 1)])
    return tid


def test_a_third_south_in_a_row_breaks_the_absolute_colour_criteria(client):
    tid = manual(client, 4)
    arbiter = Organiser(client)
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])
    enter_on_paper(client, tid, 1, ["draw", "draw"])
    arbiter.pair(tid, boards=[{"south": 1, "north": 3}, {"south": 2, "north": 4}])
    enter_on_paper(client, tid, 2, ["draw", "draw"])
    proposed = [{"south": 1, "north": 4}, {"south": 3, "north": 2}]
    answer = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": proposed}).get_json()
    assert answer["expected"] is None  # a manual tournament: no engine pairing to compare with
    assert codes(answer) == [
        ("colour_thrice", "C.3", 1, (1,)),
        ("colour_difference", "C.3", 1, (1,)),
        ("colour_thrice", "C.3", 1, (4,)),
        ("colour_difference", "C.3", 1, (4,)),
    ]


def test_a_bye_again_and_a_forbidden_pair_and_an_absence_are_named(client):
    tid = swiss(client, 5)
    arbiter = Organiser(client)
    first = arbiter.pair(tid)
    enter_on_paper(client, tid, 1, ["south_wins", "north_wins"])
    had_bye = first["byes"][0]["number"]
    others = [n for n in range(1, 6) if n != had_bye]
    arbiter._call("POST", f"/api/tournaments/{tid}/forbidden-pairs", 201, {"players": others[:2]})
    proposed = {"boards": [{"south": others[0], "north": others[1]}], "byes": [{"player": had_bye, "points": 1}]}
    answer = post(client, f"/api/tournaments/{tid}/rounds/check", proposed).get_json()
    found = codes(answer)
    assert ("forbidden", "C.1", 1, tuple(others[:2])) in found
    assert ("bye_again", "C.2", None, (had_bye,)) in found
    assert {("unpaired", None, None, (n,)) for n in others[2:]} <= set(found)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"boards": [{"south": 1, "north": 1}]}, "boards"),
        ({"boards": [{"south": 1, "north": 9}]}, "boards"),
        ({"boards": [{"south": 1, "north": "2"}]}, "boards"),
        ({"byes": [{"player": 1, "points": 2}]}, "byes"),
        ({}, "boards"),
    ],
)
def test_a_round_that_could_not_be_published_is_refused_by_the_check_too(client, body, field):
    tid = manual(client, 4)
    before = version(client, tid)
    response = post(client, f"/api/tournaments/{tid}/rounds/check", body)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == field and version(client, tid) == before


def test_proposals_and_checks_are_for_the_tournaments_arbiters(client):
    tid, other = manual(client), manual(client)
    token = Organiser(client).issue_token(other, "Another arbiter")["token"]
    for url in (f"/api/tournaments/{tid}/rounds/proposal", f"/api/tournaments/{tid}/rounds/check"):
        assert client.post(url, json={}).status_code == 401
        assert post(client, url, {}, token).status_code == 403


def test_a_finding_is_said_in_the_readers_language(client):
    tid = swiss(client, 4)
    first = seats(Organiser(client).pair(tid))
    enter_on_paper(client, tid, 1, ["south_wins", "north_wins"])
    again = [{"south": south, "north": north} for south, north in first]
    english = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": again}).get_json()["findings"][0]
    for language in ("ti", "am"):
        said = post(client, f"/api/tournaments/{tid}/rounds/check", {"boards": again}, **{"Accept-Language": language})
        finding = said.get_json()["findings"][0]
        assert finding["code"] == english["code"] and finding["text"] != english["text"]
        assert "Player 01" in finding["text"] and "C.1" in finding["text"]


# -- The command line ---------------------------------------------------------------------------


def cli(db, *args, code=0) -> str:
    from click.testing import CliRunner

    from recorder.cli.main import main

    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert result.exit_code == code, result.output
    return result.output.strip()


def test_the_command_line_proposes_and_checks_as_the_api_does(tmp_path):
    db = tmp_path / "cli.sqlite3"
    tid = cli(db, "create", "--name", "Open", "--variant", "gabata", "--format", "swiss", "--rounds", "3")
    for n in range(1, 5):
        cli(db, "add-player", tid, f"Player {n}")
    cli(db, "pair", tid)
    cli(db, "result", tid, "1", "1", "south_wins", "--played")
    cli(db, "result", tid, "1", "2", "north_wins", "--played")
    proposed = cli(db, "proposal", tid).splitlines()
    assert proposed[0] == "round 2 (swiss), proposed" and proposed[-1] == "0 finding(s)"
    first = [line for line in cli(db, "show", tid).splitlines() if "board 1:" in line][0]
    assert "Player 1" in first and "Player 3" in first  # round 1: 1-3, 4-2 (S1 against S2)
    report = cli(db, "check-proposal", tid, "--board", "1-3", "--board", "2-4", code=1)
    assert "  board 1: Player 1 and Player 3 have met already (C.1)" in report.splitlines()
    assert "error: a round needs at least one board or bye" in cli(db, "check-proposal", tid, code=1)
    assert len(cli(db, "show", tid).split("round 2")) == 1  # nothing stored


def test_a_proposal_published_after_a_change_is_a_conflict_not_another_round(client):
    tid = swiss(client, 4)
    proposal = post(client, f"/api/tournaments/{tid}/rounds/proposal")
    Organiser(client).add_players(tid, "Late Entry")
    stale = post(client, f"/api/tournaments/{tid}/rounds", {}, **{"If-Match": proposal.headers["ETag"]})
    assert stale.status_code == 409
    fresh = post(client, f"/api/tournaments/{tid}/rounds/proposal")
    assert post(client, f"/api/tournaments/{tid}/rounds", {}, **{"If-Match": fresh.headers["ETag"]}).status_code == 201

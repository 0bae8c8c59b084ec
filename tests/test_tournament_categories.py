"""Categories and prizes over the API: the registry's sex, a tournament's categories (age from
the birth year and the tournament's year, sex, region, rating group), category standings
and the prize list of a finished round robin; refusals name their field and store nothing."""

from __future__ import annotations

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

# name, sex, birth year, federation, club, rating
PLAYERS = [
    ("Abeba Tesfaye", "w", 2011, "ERI", "Asmara Mancala Club", 1900),
    ("Berhane Kidane", "m", 1970, "ETH", "Addis Club", 1850),
    ("Chaltu Bekele", "w", 1975, "ETH", None, 1700),
    ("Dawit Alemu", "m", 2012, "ERI", "Keren Club", 1650),
    ("Eden Haile", None, None, "ERI", None, 1500),
    ("Feven Gebre", "w", 1990, "ETH", "asmara  mancala club", None),
]
CATEGORIES: list[dict] = [
    {"code": "U16", "kind": "age", "under": 16},  # born 2010 or later (the tournament is in 2026)
    {"code": "S50", "kind": "age", "at_least": 50, "name": "Seniors"},  # born 1976 or earlier
    {"code": "W", "kind": "sex", "sex": "w"},
    {"code": "ERI", "kind": "region", "federations": ["eri"], "clubs": ["Asmara Mancala Club"]},
    {"code": "U1800", "kind": "rating", "max": 1799},
]
PRIZES = [
    {"place": 1, "amount": 1000},
    {"place": 2, "amount": 600},
    {"place": 1, "amount": 300, "category": "W"},
    {"place": 1, "amount": 200, "category": "U16"},
]


@pytest.fixture
def organiser(tmp_path):
    app = make_app(tmp_path)
    yield Organiser(app.test_client())
    app.extensions["recorder"].store.close()


def round_robin(organiser: Organiser, *, finish: bool = True) -> str:
    """The six players, registered in the registry at entry, every board won by South."""
    tid = organiser.create(name="Asmara Championship", variant="qelat", format="round_robin", start_date="2026-11-20")[
        "id"
    ]
    for name, sex, born, federation, club, rating in PLAYERS:
        entry = {"name": name, "federation": federation, "rating": rating, "register": True, "force": True}
        entry.update({k: v for k, v in {"sex": sex, "birth_year": born, "club": club}.items() if v})
        organiser._call("POST", f"/api/tournaments/{tid}/players", 201, entry)
    for _ in range(5 if finish else 1):
        rnd = organiser.pair(tid)
        for board in rnd["boards"]:
            organiser.forfeit(tid, rnd["round"], board["board"], "south_wins")
    return tid


def put(organiser: Organiser, tid: str, what: str, body: dict, expect: int = 200):
    return organiser._call("PUT", f"/api/tournaments/{tid}/{what}", expect, body)


def test_a_registry_player_has_a_sex_as_trf_writes_it_and_a_wrong_one_names_the_field(organiser):
    client = organiser.client
    refused = client.post("/api/players", json={"name": "Selam", "federation": "ERI", "sex": "x"}, **auth())
    assert refused.status_code == 422 and refused.get_json()["field"] == "sex"
    assert client.get("/api/players?q=selam").get_json()["players"] == []  # nothing stored
    made = client.post("/api/players", json={"name": "Selam", "federation": "ERI", "sex": "W"}, **auth())
    assert made.status_code == 201
    assert client.get(f"/api/players/{made.get_json()['id']}").get_json()["sex"] == "w"


def auth() -> dict:
    return {"headers": bearer(ADMIN_TOKEN)}


def members(organiser: Organiser, tid: str, code: str) -> list[tuple[int, int, int]]:
    rows = organiser.get(f"/api/tournaments/{tid}/categories/{code}/standings")["standings"]
    return [(row["rank"], row["overall_rank"], row["number"]) for row in rows]


def test_a_category_holds_the_players_its_kind_picks_from_the_registry_and_the_entry(organiser):
    tid = round_robin(organiser, finish=False)
    answer = put(organiser, tid, "categories", {"categories": CATEGORIES})
    stored = {c["code"]: c for c in answer["categories"]}
    assert stored["U16"]["born_from"] == 2010 and stored["S50"]["born_until"] == 1976
    numbers = {code: sorted(n for _, _, n in members(organiser, tid, code)) for code in stored}
    assert numbers == {
        "U16": [1, 4],  # 2011 and 2012; Eden's birth year is not known
        "S50": [2, 3],  # 1970 and 1975
        "W": [1, 3, 6],  # Eden's sex is not known
        "ERI": [1, 4, 5, 6],  # Feven by her club, spelt in other letters and spaces
        "U1800": [3, 4, 5],  # Feven is unrated
    }


def test_a_categorys_standings_place_its_players_by_the_overall_order(organiser):
    tid = round_robin(organiser)
    put(organiser, tid, "categories", {"categories": CATEGORIES}, expect=422)  # finished: too late
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    rows = members(organiser, tid, "W")
    overall = [rank for _, rank, _ in rows]
    assert overall == sorted(overall)
    assert [place for place, _, _ in rows] == [1 + sum(r < rank for r in overall) for rank in overall]
    assert organiser.client.get(f"/api/tournaments/{tid}/categories/NONE/standings").status_code == 404


def test_the_prize_list_of_a_finished_event_pays_each_player_one_prize_the_highest(organiser):
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    put(organiser, tid, "prizes", {"prizes": PRIZES, "sharing": "none", "currency": "ERN"})
    for rnd in range(2, 6):
        paired = organiser.pair(tid)
        for board in paired["boards"]:
            organiser.forfeit(tid, rnd, board["board"], "south_wins")
    answer = organiser.get(f"/api/tournaments/{tid}/prizes")
    standings = organiser.standings(tid)["standings"]
    order = [s["number"] for s in standings]
    assert answer["final"] and answer["currency"] == "ERN" and answer["sharing"] == "none"
    paid = {(a["category"], a["place"]): a["number"] for a in answer["awards"]}
    assert paid[(None, 1)] == order[0] and paid[(None, 2)] == order[1]
    women = [n for n in order if n in (1, 3, 6) and n not in order[:2]]
    juniors = [n for n in order if n in (1, 4) and n not in order[:2] and n != women[0]]
    assert paid[("W", 1)] == women[0] and paid[("U16", 1)] == juniors[0]
    assert len({a["number"] for a in answer["awards"]}) == len(answer["awards"]) == 4
    assert answer["paid"] == answer["offered"] == 2100
    put(organiser, tid, "prizes", {"prizes": PRIZES[:1]}, expect=422)  # finished: the list stays


@pytest.mark.parametrize(
    ("what", "body", "field"),
    [
        ("categories", {"categories": [{"code": "U16", "kind": "age"}]}, "categories"),
        ("categories", {"categories": [{"code": "X", "kind": "colour"}]}, "categories"),
        ("categories", {"categories": [{"code": "W", "kind": "sex", "sex": "f"}]}, "categories"),
        ("categories", {"categories": [{"code": "R", "kind": "rating", "min": 1800, "max": 1200}]}, "categories"),
        ("categories", {"categories": [{"code": "a b", "kind": "sex", "sex": "w"}]}, "categories"),
        ("prizes", {"prizes": [{"place": 1, "amount": 100, "category": "U20"}]}, "prizes"),
        ("prizes", {"prizes": [{"place": 2, "amount": 100}]}, "prizes"),
        ("prizes", {"prizes": [{"place": 1, "amount": 100}, {"place": 2, "amount": 200}]}, "prizes"),
        ("prizes", {"prizes": [{"place": 1, "amount": -5}]}, "prizes"),
        ("prizes", {"prizes": [], "sharing": "equal"}, "sharing"),
        ("prizes", {"prizes": [], "currency": "birr"}, "currency"),
    ],
)
def test_a_wrong_category_or_prize_list_is_refused_naming_its_field_and_stores_nothing(organiser, what, body, field):
    tid = organiser.create(name="Keren Open", variant="qelat", format="swiss", rounds=3)["id"]
    version = organiser.get(f"/api/tournaments/{tid}")["version"]
    answer = organiser.client.put(f"/api/tournaments/{tid}/{what}", json=body, **auth())
    assert answer.status_code == 422, answer.get_json()
    problem = answer.get_json()
    assert field in (problem.get("field"), *problem.get("errors", {}))
    assert organiser.get(f"/api/tournaments/{tid}")["version"] == version


def test_a_category_the_prize_list_names_cannot_be_taken_away(organiser):
    tid = organiser.create(name="Keren Open", variant="qelat", format="swiss", rounds=3)["id"]
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    put(organiser, tid, "prizes", {"prizes": PRIZES, "sharing": "hort"})
    refused = organiser.client.put(f"/api/tournaments/{tid}/categories", json={"categories": []}, **auth())
    assert refused.status_code == 422 and refused.get_json()["field"] == "categories"


def test_only_the_tournaments_own_arbiter_or_the_admin_sets_its_prizes(organiser):
    tid = organiser.create(name="Keren Open", variant="qelat", format="swiss", rounds=3)["id"]
    other = organiser.create(name="Massawa Open", variant="qelat", format="swiss", rounds=3)["id"]
    token = organiser.issue_token(other, "Arbiter Hagos")["token"]
    body = {"prizes": [{"place": 1, "amount": 100}]}
    assert organiser.client.put(f"/api/tournaments/{tid}/prizes", json=body).status_code == 401
    assert organiser.client.put(f"/api/tournaments/{tid}/prizes", json=body, headers=bearer(token)).status_code == 403
    mine = organiser.issue_token(tid, "Arbiter Selam")["token"]
    assert organiser.client.put(f"/api/tournaments/{tid}/prizes", json=body, headers=bearer(mine)).status_code == 200


def test_the_trf_player_records_carry_the_registrys_sex_and_birth_year(organiser):
    tid = round_robin(organiser, finish=False)
    text = organiser.client.get(f"/api/tournaments/{tid}/trf").get_data(as_text=True)
    records = {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}
    assert (records[1][9], records[1][69:79]) == ("w", "2011/00/00")  # columns 10 and 70-79
    assert (records[2][9], records[2][69:79]) == ("m", "1970/00/00")
    assert (records[5][9], records[5][69:79].strip()) == (" ", "")  # Eden: neither is known
    from recorder.tournaments import trf

    parsed = trf.parse(text)
    assert [(p.sex, p.birth) for p in parsed.players][:2] == [("w", "2011/00/00"), ("m", "1970/00/00")]


def test_the_command_line_sets_categories_and_prizes_and_prints_them(tmp_path):
    import json

    from click.testing import CliRunner

    from recorder.cli.main import main

    db = str(tmp_path / "cli.sqlite3")

    def run(*args, ok=True):
        result = CliRunner().invoke(main, [*args, "--db", db])
        assert (result.exit_code == 0) is ok, result.output
        return result.output.strip()

    tid = run("tournament", "create", "--name", "Dessie Open", "--variant", "qelat", "--format", "round_robin")
    for name, sex in (("Abeba", "w"), ("Berhane", "m"), ("Chaltu", "w"), ("Dawit", "m")):
        player_id = run("players", "register", "--name", name, "--federation", "ETH", "--sex", sex)
        run("tournament", "add-player", tid, name, "--player-id", player_id)
    assert "sex is m or w" in run(
        "players", "register", "--name", "Eden", "--federation", "ETH", "--sex", "x", ok=False
    )
    women = json.dumps({"categories": [{"code": "W", "kind": "sex", "sex": "w", "name": "Women"}]})
    assert run("tournament", "set-categories", tid, women) == "W"
    prize_list = {"prizes": [{"place": 1, "amount": 500}, {"place": 1, "amount": 100, "category": "W"}]}
    assert run("tournament", "set-prizes", tid, json.dumps(prize_list)) == "2 prizes, 600 in all, sharing none"
    assert "prizes: no category 'U20'" in run(
        "tournament", "set-prizes", tid, '{"prizes": [{"place": 1, "amount": 5, "category": "U20"}]}', ok=False
    )
    for _ in range(3):
        rnd = run("tournament", "pair", tid).splitlines()[0].split()[1]
        for board in (1, 2):
            run("tournament", "forfeit", tid, rnd, str(board), "south_wins")
    lines = run("tournament", "standings", tid, "--category", "W").splitlines()
    assert lines[0] == "W (Women)" and lines[1].split()[:4] == ["place", "rank", "no", "name"]
    assert sorted(line.split()[3] for line in lines[3:]) == ["Abeba", "Chaltu"]
    printed = run("tournament", "prizes", tid)
    assert printed.splitlines()[-1] == "offered 600, paid 600 (none; final)"
    found = json.loads(run("tournament", "prizes", tid, "--json"))
    assert sorted(a["amount"] for a in found["awards"]) == [100, 500]


def test_a_players_sex_and_birth_year_are_corrected_by_an_event_and_move_his_categories(organiser):
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    eden = organiser.get(f"/api/tournaments/{tid}")["players"][4]["player_id"]
    refused = organiser.client.post(f"/api/players/{eden}/particulars", json={"sex": "f"}, **auth())
    assert refused.status_code == 422 and refused.get_json()["field"] == "sex"
    future = organiser.client.post(f"/api/players/{eden}/particulars", json={"birth_year": 2999}, **auth())
    assert future.status_code == 422 and future.get_json()["field"] == "birth_year"
    assert [e["type"] for e in organiser.get(f"/api/players/{eden}/events")["events"]] == ["player_registered"]
    changed = organiser.client.post(f"/api/players/{eden}/particulars", json={"sex": "w", "birth_year": 2010}, **auth())
    assert changed.status_code == 201 and (changed.get_json()["sex"], changed.get_json()["birth_year"]) == ("w", 2010)
    assert 5 in [n for _, _, n in members(organiser, tid, "W")] and 5 in [
        n for _, _, n in members(organiser, tid, "U16")
    ]
    again = organiser.client.post(f"/api/players/{eden}/particulars", json={"sex": "w"}, **auth())
    assert again.status_code == 422  # nothing to change


def test_a_tournament_without_a_prize_list_answers_its_prizes_without_making_the_standings(organiser, monkeypatch):
    # The tournament page reads the prize list on every move it follows: for the many
    # tournaments without one, that read must not cost a second making of the standings.
    tid = round_robin(organiser, finish=False)
    from recorder.tournaments.service import View

    def refused(self):
        raise AssertionError("the standings were made")

    monkeypatch.setattr(View, "standings", refused)
    answer = organiser.get(f"/api/tournaments/{tid}/prizes")
    assert (answer["awards"], answer["offered"], answer["paid"], answer["final"]) == ([], 0, 0, False)


def in_each_category(organiser: Organiser, tid: str) -> dict[str, list[int]]:
    return {c["code"]: sorted(n for _, _, n in members(organiser, tid, c["code"])) for c in CATEGORIES}


def test_a_finished_events_categories_and_prizes_stand_as_the_registry_stood_when_it_finished(organiser):
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    put(organiser, tid, "prizes", {"prizes": PRIZES, "sharing": "none"})
    registry = [p["player_id"] for p in organiser.get(f"/api/tournaments/{tid}")["players"]]
    correct = lambda number, what, body: organiser.client.post(  # noqa: E731
        f"/api/players/{registry[number - 1]}/{what}", json=body, **auth()
    )
    # Before the finish a correction moves the player: Eden is a girl born in 2010.
    assert correct(5, "particulars", {"sex": "w", "birth_year": 2010}).status_code == 201
    assert 5 in in_each_category(organiser, tid)["W"] and 5 in in_each_category(organiser, tid)["U16"]
    for rnd in range(2, 6):
        for board in organiser.pair(tid)["boards"]:
            organiser.forfeit(tid, rnd, board["board"], "south_wins")
    finished = (in_each_category(organiser, tid), organiser.get(f"/api/tournaments/{tid}/prizes"))
    assert finished[1]["final"] and finished[1]["awards"]
    # After the closing ceremony: Abeba's birth year and sex, Chaltu's sex, Feven's club.
    assert correct(1, "particulars", {"sex": "m", "birth_year": 1960}).status_code == 201
    assert correct(3, "particulars", {"sex": "m"}).status_code == 201
    assert correct(6, "affiliation", {"federation": "ETH", "club": "Dessie Club"}).status_code == 201
    assert organiser.get(f"/api/players/{registry[0]}")["birth_year"] == 1960  # the registry says so now
    assert (in_each_category(organiser, tid), organiser.get(f"/api/tournaments/{tid}/prizes")) == finished


def test_a_results_correction_after_the_finish_moves_the_prizes_through_the_standings_alone(organiser):
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    put(organiser, tid, "prizes", {"prizes": PRIZES, "sharing": "none"})
    for rnd in range(2, 6):
        for board in organiser.pair(tid)["boards"]:
            if (rnd, board["board"]) != (5, 1):
                organiser.forfeit(tid, rnd, board["board"], "south_wins")
    game = organiser._call("POST", f"/api/tournaments/{tid}/rounds/5/boards/1/game", 201, {})["id"]
    command = lambda body: organiser._call(  # noqa: E731
        "POST",
        f"/api/games/{game}/commands",
        201,
        {**body, "expected_version": organiser.get(f"/api/games/{game}")["version"]},
    )
    command({"type": "result", "kind": "resignation", "winner": "south"})
    finished = in_each_category(organiser, tid)
    order = [s["number"] for s in organiser.standings(tid)["standings"]]
    registry = [p["player_id"] for p in organiser.get(f"/api/tournaments/{tid}")["players"]]
    for player_id in registry:  # everyone's particulars change after the finish...
        organiser._call("POST", f"/api/players/{player_id}/particulars", 201, {"sex": "m", "birth_year": 1940})
    organiser._call("POST", f"/api/tournaments/{tid}/rounds/5/boards/1/correction", 201, {"reason": "north won"})
    command({"type": "retract", "count": 1, "reason": "north won"})
    command({"type": "result", "kind": "resignation", "winner": "north"})
    corrected = [s["number"] for s in organiser.standings(tid)["standings"]]
    assert corrected != order  # ...then a result: the standings move
    assert in_each_category(organiser, tid) == finished  # the categories stay as they were at the finish
    paid = {(a["category"], a["place"]): a["number"] for a in organiser.get(f"/api/tournaments/{tid}/prizes")["awards"]}
    assert paid[(None, 1)] == corrected[0]
    assert paid[("W", 1)] == next(n for n in corrected if n in finished["W"] and n not in corrected[:2])


def test_a_tournament_finished_at_its_last_pairing_or_result_recorded_before_the_first_correction():
    from recorder.tournaments.finish import finished_at, first_correction

    at = lambda minute: f"2026-11-20T10:{minute:02d}:00.000000Z"  # noqa: E731
    events = [
        ("tournament_created", at(0)),
        ("round_paired", at(1)),
        ("board_result_recorded", at(2)),  # a forfeit
        ("round_paired", at(3)),
        ("correction_recorded", at(8)),
        ("board_result_recorded", at(9)),  # the admin's, after his correction
    ]
    assert first_correction(events) == at(8) and first_correction(events[:4]) is None
    assert finished_at(events, None) == at(3)  # the last round's boards were all forfeits, or byes
    assert finished_at(events, at(5)) == at(5)  # a board's game ended last
    assert finished_at(events[:1], None) is None


def test_a_tournament_its_arbiter_finished_early_keeps_its_categories_as_they_stood_at_the_finish(organiser):
    tid = round_robin(organiser, finish=False)
    put(organiser, tid, "categories", {"categories": CATEGORIES})
    registry = [p["player_id"] for p in organiser.get(f"/api/tournaments/{tid}")["players"]]
    for board in organiser.pair(tid)["boards"]:  # round 2 of 5, then the event is cut short
        organiser.forfeit(tid, 2, board["board"], "south_wins")
    before = in_each_category(organiser, tid)
    organiser._call("POST", f"/api/tournaments/{tid}/finish", 201, {"note": "the hall closed"})
    organiser._call("POST", f"/api/players/{registry[0]}/particulars", 201, {"sex": "m", "birth_year": 1960})
    assert in_each_category(organiser, tid) == before


def test_a_finish_recorded_by_the_arbiter_is_the_moment_the_tournament_finished():
    from recorder.tournaments.finish import finished_at

    at = lambda minute: f"2026-11-20T10:{minute:02d}:00.000000Z"  # noqa: E731
    events = [("round_paired", at(1)), ("board_result_recorded", at(2)), ("tournament_finished", at(5))]
    assert finished_at(events, latest_game_result=at(3)) == at(5)

"""A team Swiss through the API, from its creation to its final standings: twelve registry
teams of four boards and a reserve play five rounds paired by FIDE's Swiss Team Pairing
System (C.04.6), each match's boards by board order, the team with White (its board 1
player South, art. 1.6) first-named; the standings are held against values computed here
by hand from the results entered, on match points first (art. 1.2) or on game points when
the event says so; a bye for an odd number of teams is worth a drawn match (art. 1.4)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from click.testing import CliRunner
from tournament_support import ADMIN_TOKEN, Organiser, make_app

from recorder.cli.main import main

BOARDS = 4
RESULTS = ("south_wins", "north_wins", "draw")
POINTS: dict[str, tuple[Fraction, Fraction]] = {
    "south_wins": (Fraction(1), Fraction(0)),
    "north_wins": (Fraction(0), Fraction(1)),
    "draw": (Fraction(1, 2), Fraction(1, 2)),
}
VERIFY = (["verify", "--jobs", "1"], ["verify", "--projections"])


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def registry_team(admin, number: int) -> str:
    """A registry team of four board players and a reserve (names alike: registered with ``force``)."""
    ids = []
    for board in range(1, BOARDS + 2):
        body = {"name": f"Team {number} board {board}", "federation": "ERI", "force": True}
        ids.append(admin._call("POST", "/api/players", 201, body)["id"])
    names = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "Maekel"}
    return admin._call("POST", "/api/teams", 201, {**names, "players": ids[:BOARDS], "reserves": ids[BOARDS:]})["id"]


def team_swiss(admin, teams: int, rounds: int, **settings) -> str:
    t = admin.create(name="Cup", variant="qelat", format="team_swiss", rounds=rounds, team_boards=BOARDS, **settings)
    for number in range(1, teams + 1):
        admin._call("POST", f"/api/tournaments/{t['id']}/teams", 201, {"team_id": registry_team(admin, number)})
    return t["id"]


def team_of(event: dict) -> dict[int, int]:
    return {number: team["number"] for team in event["teams"] for number in team["players"] + team["reserves"]}


def matches_of(paired: dict, teams: dict[int, int]) -> list[tuple[int, int]]:
    """(the team with White, the other) of each match, read from its board 1."""
    boards = paired["boards"]
    return [(teams[b["south"]["number"]], teams[b["north"]["number"]]) for b in boards[::BOARDS]]


def assert_boards_follow_board_order_and_alternate_seats(paired: dict, event: dict) -> None:
    """C.04.6 art. 1.6: the team's colour is its board 1 player's; board k of a match seats
    each team's k-th player, the team with White South on the odd boards."""
    rosters = {team["number"]: team["players"] for team in event["teams"]}
    teams = team_of(event)
    for m, (white, black) in enumerate(matches_of(paired, teams)):
        for k in range(BOARDS):
            board = paired["boards"][m * BOARDS + k]
            seated = (board["south"]["number"], board["north"]["number"])
            home, away = rosters[white][k], rosters[black][k]
            assert board["board"] == m * BOARDS + k + 1
            assert seated == ((home, away) if k % 2 == 0 else (away, home))


def play(admin, t: str, paired: dict, draw: random.Random) -> dict[int, str]:
    results = {}
    for board in paired["boards"]:
        result = draw.choice(RESULTS)
        url = f"/api/tournaments/{t}/rounds/{paired['round']}/boards/{board['board']}/result"
        admin._call("POST", url, 201, {"result": result, "kind": "played"})
        results[board["board"]] = result
    return results


@dataclass
class Totals:
    match_points: int = 0
    game_points: Fraction = Fraction(0)
    played: int = 0


def by_hand(played: list, teams: int, bye_team: dict[int, int]) -> dict[int, Totals]:
    """Team -> [match points, game points, matches played], from the boards' results as
    entered: a match 2 to the team with more game points, 1 each when level (the bye a
    drawn match: 1 and half the boards)."""
    totals = {team: Totals() for team in range(1, teams + 1)}
    for number, (paired, results, teams_of) in enumerate(played, start=1):
        for m, (white, black) in enumerate(matches_of(paired, teams_of)):
            mine = theirs = Fraction(0)
            for k in range(BOARDS):
                board = paired["boards"][m * BOARDS + k]
                south, north = POINTS[results[board["board"]]]
                white_south = k % 2 == 0
                mine += south if white_south else north
                theirs += north if white_south else south
            for team, got, against in ((white, mine, theirs), (black, theirs, mine)):
                totals[team].match_points += 2 if got > against else 1 if got == against else 0
                totals[team].game_points += got
                totals[team].played += 1
        if number in bye_team:
            totals[bye_team[number]].match_points += 1
            totals[bye_team[number]].game_points += Fraction(BOARDS, 2)
    return totals


def ranked(totals: dict[int, Totals], primary: str) -> list[tuple]:
    def key(team: int) -> tuple:
        mp, gp = totals[team].match_points, totals[team].game_points
        return (-mp, -gp, team) if primary == "match_points" else (-gp, -mp, team)

    return [
        (team, totals[team].match_points, float(totals[team].game_points), totals[team].played)
        for team in sorted(totals, key=key)
    ]


def assert_standings_by_hand(table: dict, totals: dict[int, Totals], primary: str) -> None:
    """Every team's match points, game points and matches as worked out by hand, ranked by
    the primary score, then the other (the event's order breaks the ties left after them,
    its tie-breaks held to FIDE's calculator in tests/test_team_tiebreaks_reference.py)."""
    rows = [(s["team"]["number"], s["match_points"], s["game_points"], s["played"]) for s in table["standings"]]
    assert sorted(rows) == sorted(ranked(totals, primary))
    scores = [(mp, gp) if primary == "match_points" else (gp, mp) for _, mp, gp, _ in rows]
    assert scores == sorted(scores, reverse=True)


def run(admin, t: str, teams: int, rounds: int, seed: int) -> tuple[list, dict[int, int]]:
    draw = random.Random(seed)
    event = admin.get(f"/api/tournaments/{t}")
    teams_of = team_of(event)
    played: list = []
    met: set[frozenset[int]] = set()
    byes: dict[int, int] = {}
    for number in range(1, rounds + 1):
        paired = admin.pair(t)
        assert paired["round"] == number
        assert_boards_follow_board_order_and_alternate_seats(paired, event)
        matches = matches_of(paired, teams_of)
        pairs = {frozenset(m) for m in matches}
        assert not pairs & met, f"round {number}: a rematch"  # C.04.6 [C1]
        met |= pairs
        seated = {team for m in matches for team in m}
        off = set(range(1, teams + 1)) - seated
        assert len(off) == teams % 2
        if off:
            byes[number] = off.pop()
        played.append((paired, play(admin, t, paired, draw), teams_of))
    assert len(set(byes.values())) == len(byes)  # [C2]: a bye at most once
    return played, byes


def test_c04_6_twelve_teams_of_four_boards_play_a_team_swiss_of_five_rounds_through_the_api_to_standings_by_hand(
    tmp_path, client, admin
):
    t = team_swiss(admin, 12, 5)
    event = admin.get(f"/api/tournaments/{t}")
    assert event["format"] == "team_swiss" and event["team_primary_score"] == "match_points"
    assert len(event["players"]) == 12 * (BOARDS + 1)
    played, byes = run(admin, t, 12, 5, seed=20261207)
    assert byes == {}
    first = matches_of(played[0][0], played[0][2])  # art. 3.6 and 4.3.1: 1-7, 2-8, ... colours by TPN parity
    assert first == [(1, 7), (8, 2), (3, 9), (10, 4), (5, 11), (12, 6)]
    assert "all 5 rounds are paired" in admin.pair(t, expect=422)["detail"]
    table = admin.get(f"/api/tournaments/{t}/team-standings")
    assert table["status"] == "finished" and table["primary"] == "match_points"
    assert_standings_by_hand(table, by_hand(played, 12, byes), "match_points")
    report = admin.get(f"/api/tournaments/{t}/check")
    assert [r["status"] for r in report["rounds"]] == ["same"] * 5
    verified = [CliRunner().invoke(main, [*check, "--db", str(tmp_path / "tournament.sqlite3")]) for check in VERIFY]
    assert [result.exit_code for result in verified] == [0, 0], [result.output for result in verified]


def test_c04_6_art_1_2_a_team_swiss_on_game_points_ranks_and_pairs_on_them_first(client, admin):
    t = team_swiss(admin, 6, 3, team_primary_score="game_points")
    played, byes = run(admin, t, 6, 3, seed=3)
    table = admin.get(f"/api/tournaments/{t}/team-standings")
    assert table["primary"] == "game_points" and table["order"] == ["GPTS", "MPTS", "DE", "SB"]
    assert_standings_by_hand(table, by_hand(played, 6, byes), "game_points")
    assert [r["status"] for r in admin.get(f"/api/tournaments/{t}/check")["rounds"]] == ["same"] * 3


def test_c04_6_art_1_4_and_3_4_an_odd_number_of_teams_gives_the_bye_a_drawn_match_once_a_team(client, admin):
    t = team_swiss(admin, 5, 4)
    played, byes = run(admin, t, 5, 4, seed=11)
    assert sorted(byes) == [1, 2, 3, 4] and byes[1] == 5  # round 1: the largest TPN (3.4.4)
    table = admin.get(f"/api/tournaments/{t}/team-standings")
    assert_standings_by_hand(table, by_hand(played, 5, byes), "match_points")
    assert table["order"] == ["MPTS", "GPTS", "DE", "SB"]
    rows = table["standings"]  # the bye counts in the team's own points among its tie-breaks too
    assert all((s["tiebreaks"]["MPTS"], s["tiebreaks"]["GPTS"]) == (s["match_points"], s["game_points"]) for s in rows)
    assert [r["status"] for r in admin.get(f"/api/tournaments/{t}/check")["rounds"]] == ["same"] * 4


def test_a_team_swiss_refuses_bad_settings_naming_the_field_and_stores_nothing(client, admin):
    before = client.get("/api/tournaments").get_json()
    cases = [
        ({"format": "team_swiss", "team_boards": BOARDS}, "rounds"),
        ({"format": "team_swiss", "rounds": 5}, "team_boards"),
        (
            {"format": "team_swiss", "rounds": 5, "team_boards": BOARDS, "team_primary_score": "wins"},
            "team_primary_score",
        ),
        (
            {"format": "team_round_robin", "team_boards": BOARDS, "team_primary_score": "game_points"},
            "team_primary_score",
        ),
        ({"format": "swiss", "rounds": 5, "team_primary_score": "game_points"}, "team_primary_score"),
        ({"format": "team_swiss", "rounds": 5, "team_boards": BOARDS, "team_primary_score": 5}, "team_primary_score"),
        ({"format": "team_swiss", "rounds": 0, "team_boards": BOARDS}, "rounds"),
        ({"format": "team_swiss", "rounds": 5, "team_boards": BOARDS, "team_colour_preferences": "c"}, "team_colour"),
        ({"format": "team_round_robin", "team_boards": BOARDS, "team_colour_preferences": "none"}, "team_colour"),
        (
            {"format": "team_swiss", "rounds": 5, "team_boards": BOARDS, "team_primary_score": "game_points"}
            | {"team_tiebreaks": ["MPTS", "GPTS"]},
            "team_tiebreaks",
        ),
    ]
    for settings, field in cases:
        problem = admin.create(expect=422, name="Cup", variant="qelat", **settings)
        assert field in str(problem), (settings, problem)
    assert client.get("/api/tournaments").get_json() == before


def test_a_team_swiss_with_more_rounds_than_its_teams_can_meet_refuses_the_round_and_stores_nothing(client, admin):
    t = team_swiss(admin, 4, 4)
    draw = random.Random(5)
    for _ in range(3):
        play(admin, t, admin.pair(t), draw)
    version = admin.get(f"/api/tournaments/{t}")["version"]
    assert "C.04.6" in admin.pair(t, expect=422)["detail"]
    assert admin.get(f"/api/tournaments/{t}")["version"] == version


# --------------------------------------------------------------------------- its file (TRF)


def exported(client, t: str, layout: str = "2026") -> str:
    response = client.get(f"/api/tournaments/{t}/trf?layout={layout}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def seats_of(admin, t: str, number: int) -> list[tuple[int, int, int]]:
    return [
        (b["board"], b["south"]["number"], b["north"]["number"])
        for b in admin.get(f"/api/tournaments/{t}/rounds/{number}")["boards"]
    ]


def imported(client, text: str, query: str = "?variant=qelat"):
    headers = {"Content-Type": "text/plain", "Authorization": f"Bearer {ADMIN_TOKEN}"}
    return client.post(f"/api/tournaments/trf{query}", data=text.encode(), headers=headers)


@pytest.mark.parametrize(
    ("teams", "rounds", "primary", "colours"),
    [(12, 5, "match_points", "type_a"), (5, 4, "game_points", "type_b"), (8, 4, "match_points", "none")],
)
def test_a_team_swiss_trf_says_its_format_and_imports_back_into_a_team_swiss_whose_export_is_the_same_file(
    client, admin, teams, rounds, primary, colours
):
    t = team_swiss(admin, teams, rounds, team_primary_score=primary, team_colour_preferences=colours)
    run(admin, t, teams, rounds - 1, seed=teams)  # its last round still to pair
    text = exported(client, t)
    said = "" if colours == "type_a" else f',"team_colour_preferences":"{colours}"'  # type A goes unsaid
    told = f'XMR 0000 FORMAT    {{"format":"team_swiss","rounds":{rounds}{said},"team_primary_score":"{primary}"}}'
    assert told in text.split("\r\n")
    response = imported(client, text)
    assert response.status_code == 201, response.get_json()
    again = response.get_json()["id"]
    event = admin.get(f"/api/tournaments/{again}")
    settings = (event["format"], event["team_primary_score"], event["team_colour_preferences"], event["rounds_planned"])
    assert settings == ("team_swiss", primary, colours, rounds)
    assert exported(client, again) == text
    assert exported(client, again, "16") == exported(client, t, "16")
    for number in range(1, rounds):  # the same matches, listed in the same order
        assert seats_of(admin, again, number) == seats_of(admin, t, number)
    standings = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert admin.get(f"/api/tournaments/{again}/team-standings")["standings"] == standings
    assert [r["status"] for r in admin.get(f"/api/tournaments/{again}/check")["rounds"]] == ["same"] * (rounds - 1)
    admin.pair(again)
    admin.pair(t)
    assert seats_of(admin, again, rounds) == seats_of(admin, t, rounds)  # the last round paired alike


def test_a_team_swiss_trf_with_a_format_record_it_cannot_read_is_refused_naming_line_and_column(client, admin):
    t = team_swiss(admin, 4, 3)
    run(admin, t, 4, 1, seed=2)
    lines = exported(client, t).split("\r\n")
    at = next(i for i, line in enumerate(lines, start=1) if line.startswith("XMR 0000 FORMAT"))
    before = client.get("/api/tournaments").get_json()
    for wrong in ('{"format":"team_swiss"}', '{"format":"team_swiss","rounds":0,"team_primary_score":"match_points"}'):
        changed = "\r\n".join([*lines[: at - 1], f"XMR 0000 FORMAT    {wrong}", *lines[at:]])
        response = imported(client, changed)
        assert response.status_code == 422 and response.get_json()["detail"].startswith(f"line {at}, column 20:")
    response = imported(client, "\r\n".join(lines), "?variant=qelat&format=team_round_robin")
    assert response.status_code == 422 and "imported as a team_swiss" in response.get_json()["detail"]
    assert client.get("/api/tournaments").get_json() == before


def test_every_format_a_tournament_page_may_show_is_a_word_of_its_catalogs_in_tigrinya_and_amharic():
    """The tournament page shows the API's format through the catalogs (``TOURNAMENT_WORDS``):
    a team Swiss's reads in the reader's language like every other."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    from recorder.tournaments import FORMATS

    root = Path(__file__).resolve().parent.parent
    script = (root / "recorder/web/static/js/tournament.js").read_text(encoding="utf-8")
    words = script[script.index("TOURNAMENT_WORDS") : script.index("];", script.index("TOURNAMENT_WORDS"))]
    assert set(FORMATS) <= set(re.findall(r'_\("([a-z_]+)"\)', words))
    for language in ("ti", "am"):
        with open(root / f"recorder/web/translations/{language}/LC_MESSAGES/js.po", "rb") as po:
            catalog = read_po(po)
        assert all(catalog.get(name) is not None and catalog.get(name).string for name in FORMATS), language


def test_every_read_of_a_team_swiss_with_a_bye_answers(client, admin):
    t = team_swiss(admin, 3, 2)
    play(admin, t, admin.pair(t), random.Random(1))
    admin.pair(t)
    paths = ("", "/standings", "/crosstable", "/check", "/trf", "/prizes", "/rounds/1", "/team-standings", "/events")
    for path in paths:
        response = client.get(f"/api/tournaments/{t}{path}")
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:500])
    assert client.get(f"/api/tournaments/{t}/trf?layout=16").status_code == 200


def test_a_team_swiss_lays_its_boards_out_from_the_line_ups_a_board_left_empty_lost_by_forfeit(client, admin):
    """Team 1 rests its board 3 player, its reserve playing at the foot; team 2 leaves its
    last board empty: the pairing (C.04.6) names the teams, the line-ups seat the boards."""
    t = team_swiss(admin, 4, 3)
    members = {k: list(range(5 * k - 4, 5 * k + 1)) for k in range(1, 5)}  # 4 board players, then the reserve
    lineups = {1: [*members[1][:2], members[1][3], members[1][4]], 2: [*members[2][:3], None]}
    for team, players in lineups.items():
        admin._call("POST", f"/api/tournaments/{t}/rounds/1/lineups", 201, {"team": team, "players": players})
    paired = admin.pair(t)
    seated = {b["south"]["number"] for b in paired["boards"]} | {b["north"]["number"] for b in paired["boards"]}
    assert members[1][4] in seated and members[1][2] not in seated  # the reserve plays, the rested one does not
    stored = admin.get(f"/api/tournaments/{t}")["rounds"][0]
    assert len(paired["boards"]) == 2 * BOARDS - 1  # team 2's last board has no game
    draw = random.Random(4)
    for board in paired["boards"]:
        url = f"/api/tournaments/{t}/rounds/1/boards/{board['board']}/result"
        admin._call("POST", url, 201, {"result": draw.choice(RESULTS), "kind": "played"})
    table = {s["team"]["number"]: s for s in admin.get(f"/api/tournaments/{t}/team-standings")["standings"]}
    assert sum(row["game_points"] for row in table.values()) == 2 * BOARDS  # the empty board's point counted
    assert all(row["played"] == 1 for row in table.values()), stored
    assert [r["status"] for r in admin.get(f"/api/tournaments/{t}/check")["rounds"]] == ["same"]
    text = exported(client, t)
    response = imported(client, text)
    assert response.status_code == 201, response.get_json()
    assert exported(client, response.get_json()["id"]) == text
    assert exported(client, response.get_json()["id"], "16") == exported(client, t, "16")

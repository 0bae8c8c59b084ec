"""A team event's rounds as team matches (`GET …/team-matches`), what its public page shows:
each match's teams, score and boards (players, seats, result, game), agreeing with the
stored rounds and the team standings; a tournament not of teams has neither."""

from __future__ import annotations

import pytest
from test_tournament_team_lineups import line_up, result
from test_tournament_team_lineups import team_event as lineups_event
from test_tournament_team_trf import BOARDS, TEAMS, played_team_event, registry_team
from tournament_support import ADMIN_TOKEN, Organiser, make_app

POINTS = {"south_wins": (1, 0), "north_wins": (0, 1), "draw": (0.5, 0.5)}


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def test_each_match_lists_its_boards_in_board_order_with_the_first_named_team_south_on_the_odd_ones(admin):
    t = played_team_event(admin, seed=3, rounds=2)
    event = admin.get(f"/api/tournaments/{t}")
    players_of = {team["number"]: set(team["players"]) for team in event["teams"]}
    answer = admin.get(f"/api/tournaments/{t}/team-matches")
    assert (answer["team_boards"], answer["status"], len(answer["rounds"])) == (BOARDS, "in_progress", 2)
    for rnd, stored in zip(answer["rounds"], event["rounds"], strict=True):
        stored_boards = {b["board"]: b for b in stored["boards"]}
        assert len(rnd["matches"]) == TEAMS // 2 and rnd["off"] is None and rnd["complete"]
        for match in rnd["matches"]:
            assert [b["board_in_match"] for b in match["boards"]] == list(range(1, BOARDS + 1))
            for board in match["boards"]:
                first_seat = "south" if board["board_in_match"] % 2 else "north"
                second_seat = "north" if first_seat == "south" else "south"
                assert board["first_seat"] == first_seat
                assert board[first_seat]["number"] in players_of[match["first"]["number"]]
                assert board[second_seat]["number"] in players_of[match["second"]["number"]]
                assert board["result"] == stored_boards[board["board"]]["result"]
                assert board["game_id"] == stored_boards[board["board"]]["game_id"]
                south, north = POINTS[board["result"]]
                assert board["points"] == ([south, north] if first_seat == "south" else [north, south])


def test_the_match_points_of_the_complete_matches_are_the_team_standings(admin):
    t = played_team_event(admin, seed=5, rounds=3)
    answer = admin.get(f"/api/tournaments/{t}/team-matches")
    match_points, game_points = {}, {}
    for rnd in answer["rounds"]:
        for match in rnd["matches"]:
            assert match["score"] == [sum(b["points"][k] for b in match["boards"]) for k in (0, 1)]
            for side, team in enumerate((match["first"], match["second"])):
                match_points[team["number"]] = match_points.get(team["number"], 0) + match["match_points"][side]
                game_points[team["number"]] = game_points.get(team["number"], 0) + match["score"][side]
    standings = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert {s["team"]["number"]: s["match_points"] for s in standings} == match_points
    assert {s["team"]["number"]: s["game_points"] for s in standings} == game_points


def test_a_match_in_progress_scores_its_boards_so_far_and_has_no_match_points_yet(admin):
    t = admin.create(name="Trio", variant="qelat", format="team_round_robin", team_boards=BOARDS)["id"]
    for number in range(1, 4):
        admin._call("POST", f"/api/tournaments/{t}/teams", 201, {"team_id": registry_team(admin, number)})
    paired = admin.pair(t)
    url = f"/api/tournaments/{t}/rounds/1/boards/{paired['boards'][0]['board']}/result"
    admin._call("POST", url, 201, {"result": "south_wins", "kind": "played"})
    (rnd,) = admin.get(f"/api/tournaments/{t}/team-matches")["rounds"]
    (match,) = rnd["matches"]
    assert rnd["off"]["number"] not in (match["first"]["number"], match["second"]["number"])
    assert (match["score"], match["complete"], match["match_points"], rnd["complete"]) == ([1, 0], False, None, False)
    assert [b["points"] for b in match["boards"]] == [[1, 0], *[None] * (BOARDS - 1)]


def test_a_tournament_not_of_teams_has_no_team_standings_or_matches_even_once_paired(client, admin):
    t = admin.create(name="Open", variant="qelat", format="swiss", rounds=3)["id"]
    admin.add_players(t, "Abeba", "Berhane", "Chaltu", "Dawit")
    admin.pair(t)
    for endpoint in ("team-standings", "team-matches"):
        response = client.get(f"/api/tournaments/{t}/{endpoint}")
        assert response.status_code == 404, response.get_json()
        assert response.get_json()["detail"] == f"{t} is not a team event"


def test_a_board_a_line_up_left_empty_is_in_its_match_its_empty_seat_none_its_forfeit_scored(admin):
    # test_tournament_team_lineups.py's event: four teams of two boards, team 1 leaving its
    # board 2 against team 4 empty, team 2 not coming, team 3 fielding one player.
    t = lineups_event(admin)
    for team, players in ((1, [1, None]), (2, [None, None]), (3, [7, None])):
        line_up(admin, t, team, players)
    admin.pair(t)
    result(admin, t, 1, 1, "south_wins")
    (rnd,) = admin.get(f"/api/tournaments/{t}/team-matches")["rounds"]
    boards = {b["board"]: b for match in rnd["matches"] for b in match["boards"]}
    assert sorted(boards) == [1, 2, 3, 4] and [boards[n].get("empty", False) for n in (1, 2, 3, 4)] == [
        False,
        True,
        True,
        True,
    ]
    assert (boards[2]["north"], boards[2]["game_id"], boards[2]["result"]) == (None, None, "south_wins")
    assert [boards[n]["points"] for n in (1, 2, 3, 4)] == [[1, 0], [0, 1], [0, 1], [0, 0]]
    scores = {(m["first"]["number"], m["second"]["number"]): (m["score"], m["match_points"]) for m in rnd["matches"]}
    standings = {s["team"]["number"]: s for s in admin.get(f"/api/tournaments/{t}/team-standings")["standings"]}
    for (first, second), (score, match_points) in scores.items():
        assert (standings[first]["game_points"], standings[second]["game_points"]) == tuple(score)
        assert (standings[first]["match_points"], standings[second]["match_points"]) == tuple(match_points)

"""A team event ranks its teams by its own order of C.07's team tie-breaks, the primary score
first (a creation setting, `team_tiebreaks`, defaulting to the team round robin's list): the
expected orders are made from the calculator's values for the seeded team round robins
(fixtures/tiebreaks/teams/), never from this service's own."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import team_tournaments
from test_team_tiebreaks_reference import raw, without_registry_ids
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.tournaments import team_tiebreaks
from recorder.tournaments.team_tiebreaks import TEAM_TIEBREAKS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tiebreaks" / "teams"
ON_GAME_POINTS = {"BH", "SB"}


def calculated(name: str) -> dict[int, dict[str, float]]:
    """Each team's values as the calculator gave them, DE within the ties on match points."""
    values: dict[int, dict[str, float]] = {}
    for listed in (name, f"{name}.de"):
        kept = json.loads((FIXTURES / f"{listed}.json").read_text())
        codes = [
            tb["name"] + (":GP" if tb["name"] in ON_GAME_POINTS and tb["pointtype"] == "gpoints" else "")
            for tb in kept["tiebreaks"]
        ]
        for team, row in kept["teams"].items():
            values.setdefault(int(team), {}).update(zip(codes, row, strict=True))
    return values


def places(values: dict[int, dict[str, float]], order: list[str]) -> list[tuple[int, int]]:
    """(rank, team) by the order: higher first, DE's place within the tie lower first (0 for all
    of a tie it leaves level), teams level on all sharing the place, listed by number."""

    def key(team: int) -> tuple:
        return tuple(values[team][code] if code == "DE" else -values[team][code] for code in order)

    ranked = sorted(values, key=lambda team: (key(team), team))
    rows, rank = [], 0
    for place, team in enumerate(ranked, start=1):
        rank = rank if place > 1 and key(team) == key(ranked[place - 2]) else place
        rows.append((rank, team))
    return rows


# A hand-made event: four teams of two boards meet by the Berger table (R1 1-4 2-3, R2 4-3
# 1-2, R3 2-4 3-1), the first-named team South on board 1 and North on board 2. Each
# round's results board by board (South's side): teams 2 and 3 end level on match and game
# points (2 and 2), 3 having won their match 2-0 and 2 having the more Sonneborn-Berger.
HAND_MADE = {
    1: ["north_wins", "south_wins", "north_wins", "south_wins"],  # 1-4 0-2, 2-3 0-2
    2: ["south_wins", "north_wins", "south_wins", "south_wins"],  # 4-3 2-0, 1-2 1-1
    3: ["draw", "draw", "north_wins", "south_wins"],  # 2-4 1-1, 3-1 0-2
}


def hand_made_event(admin, **settings) -> str:
    t = admin.create(name="Hand-made", variant="qelat", format="team_round_robin", team_boards=2, **settings)["id"]
    for number in range(1, 5):
        ids = [
            admin._call("POST", "/api/players", 201, {"name": f"Team {number} board {k}", "federation": "ERI"})["id"]
            for k in (1, 2)
        ]
        body = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "Maekel", "players": ids}
        admin._call(
            "POST", f"/api/tournaments/{t}/teams", 201, {"team_id": admin._call("POST", "/api/teams", 201, body)["id"]}
        )
    for round_number, results in HAND_MADE.items():
        paired = admin.pair(t)
        for board, result in zip(paired["boards"], results, strict=True):
            url = f"/api/tournaments/{t}/rounds/{round_number}/boards/{board['board']}/result"
            admin._call("POST", url, 201, {"result": result, "kind": "played"})
    return t


def file_without_player_links(name: str) -> str:
    """The fixture's TRF less its players' registry links (a new registry knows none of them)."""
    with open(FIXTURES / f"{name}.trf", encoding="utf-8", newline="") as kept:
        lines = kept.read().split("\r\n")
    return "\r\n".join(line for line in lines if not (line.startswith("XMR") and "PLAYER" in line))


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def imported(client, name: str) -> str:
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    response = client.post("/api/tournaments/trf?variant=qelat", data=file_without_player_links(name), headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def calculated_ranks(name: str) -> dict[int, int]:
    return {int(team): rank for team, rank in json.loads((FIXTURES / f"{name}.json").read_text())["rank"].items()}


@pytest.mark.parametrize(
    ("order", "ranked_by_the_calculator"),
    [(None, "hand.default"), (["MPTS", "GPTS", "SB", "DE"], "hand.sb-first")],
    ids=["default", "sb-first"],
)
def test_a_hand_made_event_ranks_as_the_calculator_ranks_it_by_the_events_order(
    client, order, ranked_by_the_calculator
):
    # Teams 2 and 3 are level on match and game points: by default direct encounter puts 3
    # ahead (it won their match), with Sonneborn-Berger first 2 is ahead; the standings by
    # match points, game points and number alone had 2 ahead whatever the order.
    admin = Organiser(client, ADMIN_TOKEN)
    t = hand_made_event(admin, **({"team_tiebreaks": order} if order else {}))
    exported = client.get(f"/api/tournaments/{t}/trf").get_data(as_text=True)
    assert without_registry_ids(exported) == without_registry_ids(raw("hand.trf"))  # the file the calculator read
    rows = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert {row["team"]["number"]: row["rank"] for row in rows} == calculated_ranks(ranked_by_the_calculator)
    values = calculated("hand")
    assert {row["team"]["number"]: {code: row["tiebreaks"][code] for code in values[1]} for row in rows} == values
    expected = [2, 3] if order else [3, 2]
    assert [row["team"]["number"] for row in rows if row["match_points"] == 2] == expected


def test_team_standings_rank_by_the_default_list_where_match_and_game_points_leave_a_tie(client):
    # s002: teams 3 and 8 level on match and game points, 8 ahead by direct encounter; 2, 6
    # and 10 level on both with no direct encounter between them, split by Sonneborn-Berger.
    t = imported(client, "s002")
    answer = Organiser(client, ADMIN_TOKEN).get(f"/api/tournaments/{t}/team-standings")
    assert answer["primary"] == "match_points"
    assert answer["order"] == ["MPTS", "GPTS", "DE", "SB"]
    got = [(row["rank"], row["team"]["number"]) for row in answer["standings"]]
    assert got == places(calculated("s002"), ["MPTS", "GPTS", "DE", "SB"])
    assert got[:2] == [(1, 8), (2, 3)] and got[3:6] == [(4, 6), (5, 10), (6, 2)]


def test_teams_level_on_every_criterion_of_the_list_share_the_place():
    t = team_tournaments.tournament(2)
    order = ("MPTS", "GPTS", "DE")
    ranked = team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=order), team_tournaments.outcomes(t))
    got = [(s.rank, s.team) for s in ranked]
    assert got == places(calculated("s002"), list(order))
    assert got[3:6] == [(4, 2), (4, 6), (4, 10)]


@pytest.mark.parametrize(
    "order",
    [
        ("MPTS", "SB"),
        ("MPTS", "DE", "GPTS"),
        ("GPTS", "MPTS", "BH:GP"),
        ("GPTS", "EMGSB", "WIN"),
        ("MPTS", "PS", "SB:GP"),
        ("MPTS", "BH", "WIN", "GPTS"),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 5, 6, 9, 10])
def test_a_team_events_own_order_of_team_tiebreaks_ranks_as_the_calculators_values_say(seed, order):
    t = team_tournaments.tournament(seed)
    ranked = team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=order), team_tournaments.outcomes(t))
    assert [(s.rank, s.team) for s in ranked] == places(calculated(f"s{seed:03d}"), list(order))


def test_the_order_of_tiebreaks_changes_who_is_ahead_of_teams_level_on_match_points():
    # s001: teams 1 and 3 level on match points; 1 has more game points, 3 more Sonneborn-Berger.
    t = team_tournaments.tournament(1)
    by_game_points = team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=("MPTS", "GPTS")), {})
    outcomes = team_tournaments.outcomes(t)
    first = [s.team for s in team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=("MPTS", "GPTS")), outcomes)]
    second = [s.team for s in team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=("MPTS", "SB")), outcomes)]
    assert first.index(1) < first.index(3) and second.index(3) < second.index(1)
    assert all(s.rank == 1 for s in by_game_points)  # no result yet: all share the first place


def team_event(admin, expect=201, **settings):
    return admin.create(expect, name="League", variant="qelat", format="team_round_robin", team_boards=2, **settings)


def test_a_team_event_keeps_the_order_of_team_tiebreaks_it_is_created_with(client):
    admin = Organiser(client, ADMIN_TOKEN)
    t = team_event(admin, team_tiebreaks=["GPTS", "MPTS", "SB:GP"])["id"]
    assert admin.get(f"/api/tournaments/{t}")["team_tiebreaks"] == ["GPTS", "MPTS", "SB:GP"]
    answer = admin.get(f"/api/tournaments/{t}/team-standings")
    assert (answer["primary"], answer["order"]) == ("game_points", ["GPTS", "MPTS", "SB:GP"])
    default = team_event(admin)["id"]
    assert admin.get(f"/api/tournaments/{default}")["team_tiebreaks"] == ["MPTS", "GPTS", "DE", "SB"]


@pytest.mark.parametrize(
    "order",
    [
        ["SB", "MPTS"],  # the primary score first
        ["MPTS", "KS"],
        ["MPTS", "GPTS", "MPTS"],
        [],
        ["MPTS", 3],
        "MPTS",
        ["MPTS", *["GPTS"] * 40],
    ],
)
def test_a_team_tiebreak_order_out_of_the_list_is_refused_naming_the_field_and_nothing_is_stored(client, order):
    admin = Organiser(client, ADMIN_TOKEN)
    before = admin.get("/api/tournaments")
    problem = team_event(admin, 422, team_tiebreaks=order)
    assert "team_tiebreaks" in json.dumps(problem)
    assert admin.get("/api/tournaments") == before


def test_only_a_team_event_takes_an_order_of_team_tiebreaks(client):
    admin = Organiser(client, ADMIN_TOKEN)
    problem = admin.create(422, name="Open", variant="qelat", format="swiss", rounds=5, team_tiebreaks=["MPTS"])
    assert "team_tiebreaks" in json.dumps(problem)


ORDERS = st.lists(st.sampled_from([c for c in TEAM_TIEBREAKS if c not in ("MPTS", "GPTS")]), unique=True, max_size=5)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.sampled_from(list(team_tournaments.SEEDS)), primary=st.sampled_from(["MPTS", "GPTS"]), rest=ORDERS)
def test_any_order_ranks_best_first_and_shares_a_place_only_among_teams_level_on_its_every_value(seed, primary, rest):
    t = team_tournaments.tournament(seed)
    order = (primary, *rest)
    ranked = team_tiebreaks.ranked_standings(replace(t, team_tiebreaks=order), team_tournaments.outcomes(t))
    assert sorted(s.team for s in ranked) == list(range(1, len(t.teams) + 1))
    assert [s.rank for s in ranked] == sorted(s.rank for s in ranked)
    for place, s in enumerate(ranked, start=1):
        assert s.rank <= place
        if s.rank < place:  # sharing the place of the team above: level on every value but DE's
            above = ranked[place - 2]
            assert all(s.tiebreaks[code] == above.tiebreaks[code] for code in order if code != "DE")
    if "DE" in order:
        return  # direct encounter's places are within each tie the order leaves: pinned above
    for a, b in zip(ranked, ranked[1:]):
        differing = [code for code in order if a.tiebreaks[code] != b.tiebreaks[code]]
        assert (a.rank == b.rank) == (not differing)
        assert not differing or a.tiebreaks[differing[0]] > b.tiebreaks[differing[0]]

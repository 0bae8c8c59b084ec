"""Finding a registry team by its name: `GET /api/teams?q=` matches as the player search does
(from any word of the Latin or the Ge'ez name on; case, spacing, punctuation, the Ethiopic
word space and diacritics aside), and a team's id finds that team."""

from __future__ import annotations

import pytest
from test_teams_api import register_players, team_body
from tournament_support import ADMIN_TOKEN, Organiser, make_app

TEAMS = [
    ("Asmara Lions", "ኣስመራ ኣናብስ", "Maekel"),
    ("Keren Stars", "ከረን ኮኾብ", "Anseba"),
    ("Massawa Sea-Hawks", "ምጽዋዕ ዓሳ", "Semienawi Keyih Bahri"),
    ("Asmara Café Club", "ካፌ ኣስመራ", "Maekel"),
]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def registered(client) -> dict[str, str]:
    """Each team's Latin name -> its id."""
    admin = Organiser(client, ADMIN_TOKEN)
    ids = register_players(admin)
    return {
        name: admin._call("POST", "/api/teams", 201, team_body(ids, name=name, name_geez=geez, federation=region))["id"]
        for name, geez, region in TEAMS
    }


def found(client, query: str) -> list[str]:
    response = client.get("/api/teams", query_string={"q": query})
    assert response.status_code == 200, response.get_json()
    return [team["name"] for team in response.get_json()["teams"]]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("asmara", ["Asmara Café Club", "Asmara Lions"]),
        ("LIONS", ["Asmara Lions"]),
        ("asmaralions", ["Asmara Lions"]),
        ("Asmara  lions", ["Asmara Lions"]),
        ("cafe", ["Asmara Café Club"]),
        ("seahawks", ["Massawa Sea-Hawks"]),
        ("sea hawks", ["Massawa Sea-Hawks"]),
        ("hawk", ["Massawa Sea-Hawks"]),
        ("ኣስመራ", ["Asmara Café Club", "Asmara Lions"]),
        ("ኣናብስ", ["Asmara Lions"]),
        ("ኣስመራ፡ኣናብስ", ["Asmara Lions"]),
        ("ኮኾብ", ["Keren Stars"]),
        ("sterne", []),
        ("", []),
    ],
)
def test_the_team_search_matches_either_name_from_any_word_on_as_the_player_search_does(
    client, registered, query, names
):
    assert found(client, query) == names


def test_a_found_team_answers_with_its_names_region_club_and_roster_size(client, registered):
    (team,) = client.get("/api/teams", query_string={"q": "keren"}).get_json()["teams"]
    assert team == {
        "id": registered["Keren Stars"],
        "name": "Keren Stars",
        "name_geez": "ከረን ኮኾብ",
        "federation": "Anseba",
        "club": "Asmara Club",
        "players": 4,
        "reserves": 1,
    }


def test_a_teams_id_finds_that_team_and_an_unknown_id_finds_none(client, registered):
    assert found(client, registered["Massawa Sea-Hawks"]) == ["Massawa Sea-Hawks"]
    assert found(client, "tm-0000") == []


def test_the_team_search_stops_at_its_limit(client, registered):
    teams = client.get("/api/teams", query_string={"q": "a", "limit": 1}).get_json()["teams"]
    assert [team["name"] for team in teams] == ["Asmara Café Club"]


@pytest.mark.parametrize("query", [{"q": "a" * 201}, {"q": "a", "limit": 0}, {"q": "a", "limit": 101}, {"limit": "x"}])
def test_a_team_search_out_of_bounds_is_a_problem_naming_the_parameter(client, query):
    response = client.get("/api/teams", query_string=query)
    assert response.status_code == 422
    assert set(response.get_json()["errors"]) <= {"q", "limit"}

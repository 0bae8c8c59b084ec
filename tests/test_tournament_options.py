"""Tournament options users ask for: forbidden pairs (C.04.2: players who must not meet)
and Baku acceleration (C.04.5.1), over the API and the command line, worked by hand."""

import pytest
from click.testing import CliRunner
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app, seats

from recorder.cli.main import main

EIGHT = [(f"P{n}", 2100 - 50 * n) for n in range(1, 9)]  # ratings fall with the starting number


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def test_baku_acceleration_pairs_ga_apart_from_gb_in_the_first_rounds(client):
    """8 players, 5 rounds: GA = the first 2 * ceil(8 / 4) = 4 players; accelerated rounds
    ceil(5 / 2) = 3, GA holding 1 virtual point in rounds 1-2 and 0.5 in round 3. Round 1
    is then two score groups: 1-3 and 2-4 at 1 point, 5-7 and 6-8 at 0; E.5 gives the
    initial colour (south) to the higher player when his pairing number is odd. (bbpPairings,
    given the same field as a TRF with 192 FIDE_DUTCH_2025_BAKU, pairs round 1 the same.)"""
    admin = Organiser(client)
    t = admin.create(name="Baku Rapid", variant="qelat", format="swiss", rounds=5, acceleration="baku")
    assert t["acceleration"] == "baku"
    admin.add_players(t["id"], *EIGHT)
    assert seats(admin.pair(t["id"])) == [(1, 3), (4, 2), (5, 7), (8, 6)]


def test_without_acceleration_round_one_is_top_half_against_bottom_half(client):
    admin = Organiser(client)
    t = admin.create(name="Plain", variant="qelat", format="swiss", rounds=5)
    assert t["acceleration"] is None and t["pairing_rules"] == "dutch-2026"
    admin.add_players(t["id"], *EIGHT)
    assert seats(admin.pair(t["id"])) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_acceleration_is_for_a_swiss_only(client):
    admin = Organiser(client)
    admin.create(name="X", variant="qelat", format="round_robin", acceleration="baku", expect=422)
    admin.create(name="X", variant="qelat", format="swiss", rounds=3, acceleration="lightning", expect=422)


def test_forbidden_pair_is_never_paired_and_the_next_best_pairing_is_made(client):
    """Four players: round 1 is 1-3, 4-2 (S1[i] against S2[i]); with 1 and 3 forbidden the
    exchange gives 1-4 and 3-2 (E.5: 1 odd takes south, 2 even takes north)."""
    admin = Organiser(client)
    t = admin.create(name="Family", variant="qelat", format="swiss", rounds=3)
    admin.add_players(t["id"], *EIGHT[:4])
    response = client.post(
        f"/api/tournaments/{t['id']}/forbidden-pairs", json={"players": [1, 3]}, headers=bearer(ADMIN_TOKEN)
    )
    assert response.status_code == 201
    assert response.get_json()["forbidden_pairs"] == [{"players": [1, 3], "first_round": 1, "last_round": None}]
    assert seats(admin.pair(t["id"])) == [(1, 4), (3, 2)]
    assert "260 001 003    1    3" in client.get(f"/api/tournaments/{t['id']}/trf").get_data(as_text=True)


@pytest.mark.parametrize(
    "body, status",
    [
        ({"players": [1]}, 422),  # one player
        ({"players": [1, 1]}, 422),  # the same player twice
        ({"players": [1, 9]}, 404),  # no player 9
        ({"players": [1, 2], "first_round": 2, "last_round": 1}, 422),
        ({"players": ["1", 2]}, 422),
    ],
)
def test_bad_forbidden_pairs_are_refused_and_store_nothing(client, body, status):
    admin = Organiser(client)
    t = admin.create(name="Family", variant="qelat", format="swiss", rounds=3)
    admin.add_players(t["id"], *EIGHT[:4])
    url = f"/api/tournaments/{t['id']}/forbidden-pairs"
    assert client.post(url, json=body, headers=bearer(ADMIN_TOKEN)).status_code == status
    assert admin.get(f"/api/tournaments/{t['id']}")["forbidden_pairs"] == []


def test_forbidden_pairs_need_a_token_of_the_tournament(client):
    admin = Organiser(client)
    t = admin.create(name="Family", variant="qelat", format="swiss", rounds=3)
    admin.add_players(t["id"], *EIGHT[:4])
    assert client.post(f"/api/tournaments/{t['id']}/forbidden-pairs", json={"players": [1, 3]}).status_code == 401


def test_cli_forbid_and_accelerated_create(tmp_path):
    db = tmp_path / "options.sqlite3"

    def run(*args, ok=True):
        result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
        assert (result.exit_code == 0) is ok, result.output
        return result.output.strip()

    tid = run(
        "create", "--name", "B", "--variant", "qelat", "--format", "swiss", "--rounds", "5", "--acceleration", "baku"
    )
    for name, rating in EIGHT:
        run("add-player", tid, name, "--rating", str(rating))
    assert run("forbid", tid, "1", "3") == "1, 3 will not be paired together"
    assert "error" in run("forbid", tid, "1", ok=False)
    run("pair", tid)
    shown = run("show", tid)
    assert "board 1: P1 - P4" in shown  # 1-3 forbidden: 1 meets 4 in GA's bracket

"""The tournament API contract: validation, versions, idempotency, forfeits, withdrawals,
double round robins, manual pairings and the OpenAPI document."""

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app, seats

PLAYERS = ["Abeba", "Berhane", "Chaltu", "Dawit"]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture
def admin(client):
    return Organiser(client)


def post(client, url, body=None, **headers):
    return client.post(url, json=body, headers={**bearer(ADMIN_TOKEN), **headers})


def event_count(client, tournament_id):
    return len(client.get(f"/api/tournaments/{tournament_id}/events").get_json()["events"])


@pytest.mark.parametrize(
    "body",
    [
        {"name": "X", "variant": "qelat", "format": "swiss"},  # a Swiss needs its rounds
        {"name": "X", "variant": "qelat", "format": "round_robin", "rounds": 3},  # a round robin derives them
        {"name": "X", "variant": "qelat", "format": "scheveningen"},  # no such format
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "options": {"colour": "red"}},  # GEN-29
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "tiebreaks": ["coin_toss"]},
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "bye_points": 2},
        {
            "name": "X",
            "variant": "qelat",
            "format": "swiss",
            "rounds": 3,
            "start_date": "2026-12-02",
            "end_date": "2026-12-01",
        },
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "surprise": True},  # unknown field
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "start_date": "2020-99-99"},  # no such day
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "end_date": "2026-02-30"},  # no such day
        {"name": "X", "variant": "qelat", "format": "swiss", "rounds": 3, "start_date": "2026-W01-1"},  # not YYYY-MM-DD
    ],
)
def test_invalid_tournaments_are_422_and_store_nothing(client, body):
    response = post(client, "/api/tournaments", body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


def test_tournament_read_back_and_listed(client, admin):
    t = admin.create(
        name="Harar Open",
        variant="qelat",
        format="swiss",
        rounds=5,
        site="Harar",
        start_date="2026-12-01",
        options={"mazagebh_no_return": False},
    )
    assert t["options"] == {"mazagebh_no_return": False} and t["status"] == "registration"
    assert t["tiebreaks"] == ["BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"]  # FIDE's recommended Swiss list
    response = client.get(f"/api/tournaments/{t['id']}")
    assert response.headers["ETag"] == '"1"' and response.get_json()["name"] == "Harar Open"
    assert [x["id"] for x in client.get("/api/tournaments").get_json()["tournaments"]] == [t["id"]]


def test_unknown_tournaments_rounds_and_boards_are_404(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin")
    assert client.get("/api/tournaments/t-000000000000").status_code == 404
    assert client.get("/api/tournaments/nothing").status_code == 404
    assert client.get(f"/api/tournaments/{t['id']}/rounds/1").status_code == 404
    assert client.get(f"/api/games/{t['id']}").status_code == 404  # a tournament is not a game
    assert client.get(f"/api/games/{t['id']}/events").status_code == 404
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"])
    assert post(client, f"/api/tournaments/{t['id']}/rounds/1/boards/9/game", {}).status_code == 404


def test_duplicate_player_name_is_409(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin")
    admin.add_players(t["id"], "Abeba")
    assert post(client, f"/api/tournaments/{t['id']}/players", {"name": "abeba"}).status_code == 409
    assert event_count(client, t["id"]) == 2


def test_stale_if_match_is_409_and_idempotent_retry_stores_once(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin")
    url = f"/api/tournaments/{t['id']}/players"
    assert post(client, url, {"name": "Abeba"}, **{"If-Match": '"2"'}).status_code == 409
    first = post(client, url, {"name": "Abeba"}, **{"If-Match": '"1"', "Idempotency-Key": "reg-abeba"})
    again = post(client, url, {"name": "Abeba"}, **{"Idempotency-Key": "reg-abeba"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json() and event_count(client, t["id"]) == 2


def test_forfeit_and_game_exclude_each_other_on_a_board(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin")
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"])
    admin.start(t["id"], 1, 1)
    admin.forfeit(t["id"], 1, 1, "south_wins", expect=409)  # the game records its own result
    admin.forfeit(t["id"], 1, 2, "double_forfeit")
    admin.start(t["id"], 1, 2, expect=409)
    admin.forfeit(t["id"], 1, 2, "south_wins", expect=409)
    board = client.get(f"/api/tournaments/{t['id']}/rounds/1").get_json()["boards"][1]
    assert (board["result"], board["decided_by"]) == ("double_forfeit", "forfeit")


def test_round_robin_withdrawal_turns_the_remaining_games_into_forfeits(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin")
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"])
    for board in (1, 2):
        game = admin.start(t["id"], 1, board)
        admin.command(game["id"], type="result", kind="agreement", winner=None)
    assert post(client, f"/api/tournaments/{t['id']}/players/4/withdrawal", {}).status_code == 201
    assert post(client, f"/api/tournaments/{t['id']}/players", {"name": "Late"}).status_code == 422
    second = admin.pair(t["id"])
    # Round 2 of the Berger table: 4-3, 1-2. Dawit (4) has withdrawn: Chaltu wins by forfeit.
    assert seats(second) == [(4, 3), (1, 2)]
    assert (second["boards"][0]["result"], second["boards"][0]["decided_by"]) == ("north_wins", "forfeit")
    assert second["boards"][1]["result"] is None


def test_double_round_robin_plays_every_pairing_twice_with_seats_swapped(client, admin):
    t = admin.create(name="X", variant="qelat", format="double_round_robin")
    admin.add_players(t["id"], "A", "B", "C")
    shown = client.get(f"/api/tournaments/{t['id']}").get_json()
    assert shown["rounds_planned"] == 6 and shown["berger_order"] == "c05-annex1"
    rounds = []
    for number in range(1, 7):
        paired = admin.pair(t["id"])
        rounds.append((seats(paired), [b["number"] for b in paired["byes"]]))
        admin.forfeit(t["id"], number, 1, "south_wins")
    # Three players use the four-player table; whoever meets 4 has the round off (0 points).
    # The first cycle plays the table's last two rounds in reverse order (C.05 Annex 1).
    assert rounds[:3] == [([(2, 3)], [1]), ([(3, 1)], [2]), ([(1, 2)], [3])]
    assert rounds[3:] == [([(3, 2)], [1]), ([(2, 1)], [3]), ([(1, 3)], [2])]
    assert admin.standings(t["id"])["status"] == "finished"


def test_manual_pairing_validated_and_required_in_a_manual_event(client, admin):
    t = admin.create(name="X", variant="qelat", format="manual", rounds=2)
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"], expect=422)  # a manual event names its boards
    admin.pair(t["id"], boards=[{"south": 1, "north": 9}], expect=422)  # no player 9
    admin.pair(t["id"], boards=[{"south": 1, "north": 2}, {"south": 2, "north": 3}], expect=422)  # 2 twice
    paired = admin.pair(t["id"], boards=[{"south": 3, "north": 1}], byes=[{"player": 2, "points": 0.5}])
    assert paired["method"] == "manual" and seats(paired) == [(3, 1)]
    assert paired["byes"] == [{"number": 2, "name": "Berhane", "name_geez": None, "points": 0.5}]
    cells = {r["number"]: r["cells"][0]["kind"] for r in admin.crosstable(t["id"])["rows"]}
    assert cells == {1: "pending", 2: "bye", 3: "pending", 4: "absent"}


def test_tournament_game_takes_first_player_and_date_from_the_arbiter(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin", start_date="2026-12-01")
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"])
    game = admin.start(t["id"], 1, 1, first_player="north", date="2026-12-02")
    assert game["first_player"] == "north" and game["state"]["to_move"] == "north"
    assert game["metadata"]["date"] == "2026-12-02"
    assert admin.start(t["id"], 1, 2)["first_player"] == "south"  # the default: south moves first


def test_openapi_documents_every_tournament_route(client):
    spec = client.get("/api/openapi.json").get_json()
    routes = {
        str(rule).replace("<int:", "{").replace("<", "{").replace(">", "}")
        for rule in client.application.url_map.iter_rules()
        if str(rule).startswith("/api/tournaments")
    }
    assert routes <= set(spec["paths"])
    commands = spec["paths"]["/api/games/{game_id}/commands"]["post"]["responses"]
    assert {"401", "403"} <= set(commands)
    assert spec["paths"]["/api/tournaments"]["post"]["security"] == [{"bearerAuth": []}]

"""Who may write: every write endpoint x every kind of credential -> the expected status,
and nothing stored (the whole database is unchanged) when the request is refused.

Credentials: none, an arbiter token of another tournament, a revoked token of this
tournament, this tournament's arbiter token, the admin token (from configuration).
"""

import sqlite3

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

PLAYERS = ["Abeba", "Berhane", "Chaltu", "Dawit"]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


class World:
    """Two tournaments, T (the target) and U, and the tokens the matrix uses."""

    def __init__(self, client):
        self.client = client
        self.admin = Organiser(client)
        self.t = self.admin.create(name="Target Open", variant="qelat", format="round_robin")["id"]
        self.u = self.admin.create(name="Other Open", variant="qelat", format="round_robin")["id"]
        gone = self.admin.issue_token(self.t, "Former arbiter")
        revoked = client.delete(f"/api/tournaments/{self.t}/tokens/{gone['id']}", headers=bearer(ADMIN_TOKEN))
        assert revoked.status_code == 200 and revoked.get_json()["revoked_at"]
        self.tokens = {
            "none": None,
            "other": self.admin.issue_token(self.u, "Arbiter of U")["token"],
            "revoked": gone["token"],
            "right": self.admin.issue_token(self.t, "Arbiter of T")["token"],
            "admin": ADMIN_TOKEN,
        }

    def players(self):
        self.admin.add_players(self.t, *PLAYERS)

    def paired(self):
        self.players()
        self.admin.pair(self.t)

    def game(self) -> str:
        self.paired()
        return self.admin.start(self.t, 1, 1)["id"]


# Each endpoint: prepare T so that the right credential succeeds, then (method, url, body).
def create_tournament(w):
    return "POST", "/api/tournaments", {"name": "New Open", "variant": "qelat", "format": "swiss", "rounds": 3}


def register_player(w):
    return "POST", f"/api/tournaments/{w.t}/players", {"name": "Eleni"}


def withdraw_player(w):
    w.players()
    return "POST", f"/api/tournaments/{w.t}/players/2/withdrawal", {"reason": "ill"}


def choose_tiebreaks(w):
    return "PUT", f"/api/tournaments/{w.t}/tiebreaks", {"tiebreaks": ["wins", "sonneborn_berger"]}


def pair_round(w):
    w.players()
    return "POST", f"/api/tournaments/{w.t}/rounds", {}


def start_game(w):
    w.paired()
    return "POST", f"/api/tournaments/{w.t}/rounds/1/boards/1/game", {}


def record_forfeit(w):
    w.paired()
    return "POST", f"/api/tournaments/{w.t}/rounds/1/boards/2/result", {"result": "north_wins"}


def game_command(w):
    return "POST", f"/api/games/{w.game()}/commands", {"type": "sow", "hole": "f1", "expected_version": 1}


def list_tokens(w):
    return "GET", f"/api/tournaments/{w.t}/tokens", None


def issue_token(w):
    return "POST", f"/api/tournaments/{w.t}/tokens", {"holder": "Arbiter Three"}


def revoke_token(w):
    victim = w.admin.issue_token(w.t, "Arbiter Two")["id"]
    return "DELETE", f"/api/tournaments/{w.t}/tokens/{victim}", None


ARBITER_WRITES = {
    register_player: 201,
    withdraw_player: 201,
    choose_tiebreaks: 200,
    pair_round: 201,
    start_game: 201,
    record_forfeit: 201,
    game_command: 201,
}
ADMIN_ONLY = {create_tournament: 201, list_tokens: 200, issue_token: 201, revoke_token: 200}


def expected(endpoint, credential: str) -> int:
    if credential in ("none", "revoked"):
        return 401
    if endpoint in ADMIN_ONLY:
        return ADMIN_ONLY[endpoint] if credential == "admin" else 403
    return ARBITER_WRITES[endpoint] if credential in ("right", "admin") else 403


def database(app) -> list[str]:
    """Everything stored: a full SQL dump of the database file."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return list(conn.iterdump())


CASES = [
    pytest.param(endpoint, credential, id=f"{endpoint.__name__}-{credential}")
    for endpoint in (*ARBITER_WRITES, *ADMIN_ONLY)
    for credential in ("none", "other", "revoked", "right", "admin")
]


@pytest.mark.parametrize(("endpoint", "credential"), CASES)
def test_access_matrix(app, client, endpoint, credential):
    world = World(client)
    method, url, body = endpoint(world)
    token = world.tokens[credential]
    before = database(app)
    response = client.open(url, method=method, json=body, headers=bearer(token) if token else {})
    status = expected(endpoint, credential)
    assert response.status_code == status, response.get_json()
    if status in (401, 403):
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["status"] == status
        assert database(app) == before  # a refusal stores nothing
    if status == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_writes_name_the_token_holder_in_the_log(client):
    world = World(client)
    arbiter = Organiser(client, world.tokens["right"])
    arbiter.add_players(world.t, *PLAYERS)
    arbiter.pair(world.t)
    game = arbiter.start(world.t, 1, 1)
    arbiter.command(game["id"], type="sow", hole="f1")
    log = client.get(f"/api/tournaments/{world.t}/events").get_json()["events"]
    assert [e["recorded_by"] for e in log] == ["admin"] + ["Arbiter of T"] * 5
    moves = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
    assert [e["recorded_by"] for e in moves] == ["Arbiter of T", "Arbiter of T"]


def test_an_arbiter_token_does_not_reach_games_outside_its_tournament(client):
    world = World(client)
    setup = {"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}
    assert client.post("/api/games", json=setup).status_code == 401
    assert client.post("/api/games", json=setup, headers=bearer(world.tokens["other"])).status_code == 403
    game = client.post("/api/games", json=setup, headers=bearer(ADMIN_TOKEN)).get_json()
    command = {"type": "sow", "hole": "f1", "expected_version": 1}
    url = f"/api/games/{game['id']}/commands"
    assert client.post(url, json=command, headers=bearer(world.tokens["right"])).status_code == 403
    written = client.post(url, json=command, headers=bearer(ADMIN_TOKEN))
    assert written.status_code == 201 and written.get_json()["event"]["recorded_by"] == "admin"


def test_reads_are_public(client):
    world = World(client)
    world.paired()
    for url in (
        "",
        "/api/tournaments/{t}",
        "/api/tournaments/{t}/rounds/1",
        "/api/tournaments/{t}/standings",
        "/api/tournaments/{t}/crosstable",
        "/api/tournaments/{t}/events",
    ):
        assert client.get((url or "/api/tournaments").format(t=world.t)).status_code == 200


def test_a_token_that_is_not_bearer_counts_as_none(client):
    world = World(client)
    response = client.post(
        f"/api/tournaments/{world.t}/players",
        json={"name": "X"},
        headers={"Authorization": f"Basic {world.tokens['right']}"},
    )
    assert response.status_code == 401


def test_tokens_are_stored_hashed_and_listed_without_secrets(app, client):
    world = World(client)
    dump = "\n".join(database(app))
    for token in (world.tokens["right"], world.tokens["other"], world.tokens["revoked"]):
        assert token not in dump
    listed = client.get(f"/api/tournaments/{world.t}/tokens", headers=bearer(ADMIN_TOKEN)).get_json()["tokens"]
    assert [(t["holder"], t["revoked_at"] is None) for t in listed] == [
        ("Former arbiter", False),
        ("Arbiter of T", True),
    ]
    assert all("token" not in t for t in listed)


def test_without_a_configured_admin_token_nobody_is_admin(tmp_path, monkeypatch):
    from recorder.app import create_app

    monkeypatch.delenv("RECORDER_ADMIN_TOKEN", raising=False)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "noadmin.sqlite3")})
    try:
        response = app.test_client().post(
            "/api/tournaments",
            json={"name": "X", "variant": "qelat", "format": "swiss", "rounds": 1},
            headers=bearer("a-guess"),
        )
        assert response.status_code == 401
    finally:
        app.extensions["recorder"].store.close()

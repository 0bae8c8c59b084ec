"""Board sign-ins: a token that records one board's game of one round of one tournament
(start the game, send its commands: 403 elsewhere), issued per board by the round's
arbiter or the admin, each shown once with its sign-in address and QR code, listed,
revocable, and ended by its game's end or the tournament's finish."""

import sqlite3

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, fixture_commands, make_app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


class Hall:
    """A manual tournament of six, round 1 paired on three boards, its arbiter's token."""

    def __init__(self, client):
        self.client = client
        admin = Organiser(client)
        self.t = admin.create(name="Hall", variant="gabata", format="manual", rounds=2)["id"]
        admin.add_players(self.t, *[f"Player {n}" for n in range(1, 7)])
        admin.pair(self.t, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}, {"south": 5, "north": 6}])
        self.arbiter = admin.issue_token(self.t, "Chief arbiter")["token"]

    def post(self, path: str, body: dict | None = None, token: str | None = None, **headers):
        auth = bearer(token) if token else {}
        return self.client.post(f"/api/tournaments/{self.t}{path}", json=body or {}, headers={**auth, **headers})

    def issue(self, token: str | None = None) -> dict[int, dict]:
        response = self.post("/rounds/1/signins", token=token or self.arbiter)
        assert response.status_code == 201, response.get_json()
        assert response.headers["Cache-Control"] == "no-store"
        return {s["board"]: s for s in response.get_json()["signins"]}

    def command(self, game_id: str, token: str, command: dict):
        version = self.client.get(f"/api/games/{game_id}").get_json()["version"]
        return self.client.post(
            f"/api/games/{game_id}/commands", json={**command, "expected_version": version}, headers=bearer(token)
        )


def test_a_sign_in_per_board_is_issued_once_with_its_address_and_qr_code(app, client):
    hall = Hall(client)
    signins = hall.issue()
    assert sorted(signins) == [1, 2, 3]
    one = signins[1]
    assert (one["kind"], one["round"], one["game_id"], one["south"], one["north"]) == (
        "signin",
        1,
        f"{hall.t[2:]}-r1-b1",
        "Player 1",
        "Player 2",
    )
    assert one["address"] == f"http://localhost/sign-in#token={one['token']}&next=/games/{one['game_id']}"
    assert one["qr_svg"].startswith("<svg") and "viewBox" in one["qr_svg"]
    assert len({s["token"] for s in signins.values()}) == 3
    with sqlite3.connect(app.config["DATABASE"]) as db:
        dump = "\n".join(db.iterdump())
    assert not any(s["token"] in dump for s in signins.values())  # only digests are kept
    listed = client.get(f"/api/tournaments/{hall.t}/rounds/1/signins", headers=bearer(hall.arbiter)).get_json()
    assert [(s["board"], s["revoked_at"]) for s in listed["signins"]] == [(1, None), (2, None), (3, None)]
    assert all("token" not in s and "qr_svg" not in s for s in listed["signins"])


def test_a_sign_in_starts_its_boards_game_and_records_its_moves_and_nothing_else(client):
    hall = Hall(client)
    signins = hall.issue()
    token, game_id = signins[2]["token"], signins[2]["game_id"]
    assert hall.post("/rounds/1/boards/1/game", token=token).status_code == 403
    started = hall.post("/rounds/1/boards/2/game", token=token)
    assert started.status_code == 201 and started.get_json()["id"] == game_id
    first = fixture_commands("gabata-default")[0]
    assert hall.command(game_id, token, first).status_code == 201
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert events[-1]["recorded_by"] == "Board 2 of round 1"
    other = hall.post("/rounds/1/boards/3/game", token=hall.arbiter).get_json()["id"]
    refused = hall.command(other, token, first)
    assert refused.status_code == 403
    assert "records the game of board 2 of round 1" in refused.get_json()["detail"]


def test_a_sign_in_writes_nothing_of_the_tournament(client):
    hall = Hall(client)
    token = hall.issue()[1]["token"]
    writes = [
        ("/rounds/1/boards/1/result", {"result": "draw", "kind": "played"}),
        ("/players", {"name": "Intruder"}),
        ("/rounds/1/signins", {}),
        ("/rounds", {"boards": [{"south": 1, "north": 3}]}),
        ("/finish", {}),
        ("/rounds/check", {"boards": [{"south": 1, "north": 3}]}),
    ]
    for path, body in writes:
        assert hall.post(path, body, token).status_code == 403, path
    outside = client.post("/api/games", json={"variant": "gabata", "south": "A", "north": "B"}, headers=bearer(token))
    assert outside.status_code == 403
    listing = client.get(f"/api/tournaments/{hall.t}/rounds/1/signins", headers=bearer(token))
    assert listing.status_code == 403


def test_a_revoked_sign_in_and_one_issued_again_no_longer_sign_in(client):
    hall = Hall(client)
    first = hall.issue()
    gone = client.delete(f"/api/tournaments/{hall.t}/rounds/1/signins/{first[1]['id']}", headers=bearer(hall.arbiter))
    assert gone.status_code == 200 and gone.get_json()["revoked_at"] is not None
    assert hall.post("/rounds/1/boards/1/game", token=first[1]["token"]).status_code == 401
    again = hall.issue(ADMIN_TOKEN)  # a card lost: the board's earlier sign-in is revoked
    assert hall.post("/rounds/1/boards/2/game", token=first[2]["token"]).status_code == 401
    assert hall.post("/rounds/1/boards/2/game", token=again[2]["token"]).status_code == 201


def test_a_sign_in_ends_with_its_game(client):
    hall = Hall(client)
    token = hall.issue()[1]["token"]
    game_id = hall.post("/rounds/1/boards/1/game", token=token).get_json()["id"]
    over = hall.command(game_id, token, {"type": "result", "kind": "resignation", "winner": "south"})
    assert over.status_code == 201
    refused = hall.command(game_id, token, {"type": "comment", "text": "after the end"})
    assert refused.status_code == 403 and "is over" in refused.get_json()["detail"]


def test_a_board_with_a_result_gets_no_sign_in_and_every_sign_in_ends_with_the_tournament(client):
    hall = Hall(client)
    for board in (1, 2, 3):
        body = {"result": "draw", "kind": "played"} if board != 3 else {"result": "south_wins"}
        assert hall.post(f"/rounds/1/boards/{board}/result", body, hall.arbiter).status_code == 201
        if board == 1:
            assert sorted(hall.issue()) == [2, 3]
    token = hall.issue()
    assert token == {}
    listed = client.get(f"/api/tournaments/{hall.t}/rounds/1/signins", headers=bearer(hall.arbiter)).get_json()
    live = [s for s in listed["signins"] if s["revoked_at"] is None]
    assert [s["board"] for s in live] == [2, 3]


def test_a_sign_in_ends_with_the_tournaments_finish(client):
    hall = Hall(client)
    signins = hall.issue()
    game_id = hall.post("/rounds/1/boards/1/game", token=signins[1]["token"]).get_json()["id"]
    hall.command(game_id, hall.arbiter, {"type": "result", "kind": "agreement", "winner": None})
    for board in (2, 3):
        hall.post(f"/rounds/1/boards/{board}/result", {"result": "draw", "kind": "played"}, hall.arbiter)
    assert hall.post("/finish", token=hall.arbiter).status_code == 201
    refused = hall.post("/rounds/1/boards/2/game", token=signins[2]["token"])
    assert refused.status_code == 403 and "finished" in refused.get_json()["detail"]


def test_sign_ins_are_issued_by_the_rounds_arbiter_or_the_admin_only(client):
    hall = Hall(client)
    other = Organiser(client).create(name="Other", variant="gabata", format="manual", rounds=1)["id"]
    stranger = Organiser(client).issue_token(other, "Another arbiter")["token"]
    assert hall.post("/rounds/1/signins").status_code == 401
    assert hall.post("/rounds/1/signins", token=stranger).status_code == 403
    assert hall.post("/rounds/2/signins", token=hall.arbiter).status_code == 404
    unknown = client.delete(f"/api/tournaments/{hall.t}/rounds/1/signins/tok-0", headers=bearer(hall.arbiter))
    assert unknown.status_code == 404
    assert sorted(hall.issue(ADMIN_TOKEN)) == [1, 2, 3]


def test_what_a_sign_in_names_is_its_board(client):
    hall = Hall(client)
    signin = hall.issue()[3]
    me = client.get("/api/tokens/self", headers=bearer(signin["token"]), query_string={"game": signin["game_id"]})
    # the game is not started yet: the page learns who it is, and starts the game
    assert me.status_code in (200, 404)
    hall.post("/rounds/1/boards/3/game", token=signin["token"])
    me = client.get("/api/tokens/self", headers=bearer(signin["token"]), query_string={"game": signin["game_id"]})
    answer = me.get_json()
    assert (answer["kind"], answer["tournament_id"], answer["id"], answer["may_write"]) == (
        "signin",
        hall.t,
        signin["id"],
        True,
    )


@pytest.mark.parametrize(
    "language, heading, cards",
    [
        ("en", "Sign in to record a board", "Sign-in cards of round 1"),
        ("am", "ሰሌዳ ለመመዝገብ መግባት", "የዙር 1 የመግቢያ ካርዶች"),
        ("ti", "ሰሌዳ ንምምዝጋብ ምእታው", "ናይ ዙርያ 1 ናይ እቶ ካርድታት"),
    ],
)
def test_the_sign_in_page_and_the_printed_cards_speak_the_readers_language(client, language, heading, cards):
    hall = Hall(client)
    page = client.get("/sign-in", headers={"Accept-Language": language})
    assert page.status_code == 200 and heading in page.get_data(as_text=True)
    assert "js/sign-in.js" in page.get_data(as_text=True)
    assert page.headers["Referrer-Policy"] == "no-referrer"
    printed = client.get(f"/tournaments/{hall.t}/rounds/1/signin-cards", headers={"Accept-Language": language})
    assert printed.status_code == 200 and cards in printed.get_data(as_text=True)
    assert "js/signin-cards.js" in printed.get_data(as_text=True)


def test_the_command_line_issues_lists_and_revokes_a_rounds_sign_ins(tmp_path):
    from click.testing import CliRunner

    from recorder.cli.main import main

    db = str(tmp_path / "cli.sqlite3")

    def cli(*args, code=0) -> str:
        result = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert result.exit_code == code, result.output
        return result.output.strip()

    tid = cli("create", "--name", "Club", "--variant", "gabata", "--format", "manual", "--rounds", "1")
    for name in ("Abeba", "Berhane", "Chaltu", "Dawit"):
        cli("add-player", tid, name)
    cli("pair", tid, "--board", "1-2", "--board", "3-4")
    issued = cli("signins", tid, "1", "--site", "http://hall.local:5000/").splitlines()
    assert [line.split()[:2] for line in issued] == [["board", "1:"], ["board", "2:"]]
    first = issued[0].split()[2]
    assert issued[0].split()[3].startswith("http://hall.local:5000/sign-in#token=rt_")
    assert issued[0].endswith(f"&next=/games/{tid[2:]}-r1-b1")
    assert cli("signins", tid, "1", "--revoke", first) == f"{first}: revoked"
    listed = cli("signins", tid, "1").splitlines()
    assert [line.split("  ")[1:] for line in listed][1] == ["Board 2 of round 1", "valid"]
    assert "revoked" in listed[0]
    assert "has no sign-in" in cli("signins", tid, "1", "--revoke", "tok-1", code=1)
    assert "round 2 is not paired" in cli("signins", tid, "2", code=1)

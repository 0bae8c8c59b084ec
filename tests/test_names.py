"""Players' names: a blank one is refused wherever a name is taken, and a search by player
finds a game whatever the case and spacing of the name (recorder/core/names.py)."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from conftest import make_app

from recorder.cli.main import main
from recorder.core.names import display_width, pad, player_key

QELAT = {"variant": "qelat", "south": "Selam Tesfay", "north": "Berhane", "first_player": "south"}
BLANKS = ["   ", "\u3000", " \u00a0 "]  # spaces, an ideographic space, a no-break space


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize("seat", ["south", "north"])
def test_a_game_for_a_blank_player_name_is_refused_naming_the_field(client, seat, blank):
    response = client.post("/api/games", json={**QELAT, seat: blank})
    problem = response.get_json()
    assert response.status_code == 422 and problem["detail"].endswith(
        f"{seat}: must not be blank: spaces alone are no name"
    ), problem
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("blank", BLANKS)
def test_a_tournament_player_with_a_blank_name_is_refused_naming_the_field(client, blank):
    created = client.post(
        "/api/tournaments", json={"name": "Asmara Open", "variant": "qelat", "format": "swiss", "rounds": 5}
    )
    response = client.post(f"/api/tournaments/{created.get_json()['id']}/players", json={"name": blank})
    assert response.status_code == 422 and response.get_json()["detail"].endswith(
        "name: must not be blank: spaces alone are no name"
    )


def test_the_command_line_refuses_a_blank_tournament_player_too(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    created = CliRunner().invoke(
        main, ["tournament", "create", "--name", "X", "--variant", "qelat", "--format", "swiss", "--db", db]
    )
    result = CliRunner().invoke(main, ["tournament", "add-player", created.output.strip(), "   ", "--db", db])
    assert result.exit_code != 0 and "name: must not be blank" in result.output


def test_a_notation_game_with_a_blank_player_is_refused_by_name():
    from recorder import Game
    from recorder.errors import InvalidRecord

    with pytest.raises(InvalidRecord, match="north must not be blank"):
        Game("qelat", first_player="south", south="Abeba", north="  ")


def test_a_search_by_player_ignores_case_and_spacing_as_the_home_page_does(database):
    app = make_app(database)
    client = app.test_client()
    created = client.post("/api/games", json=QELAT).get_json()["id"]
    client.post("/api/games", json={**QELAT, "south": "Abeba"})
    for query in ("Selam Tesfay", "selam tesfay", "SELAM%20%20TESFAY", "%20selam%20tesfay%20", "berhane"):
        found = [g["id"] for g in client.get(f"/api/games?player={query}").get_json()["games"]]
        assert created in found, query
    assert client.get("/api/games?player=selam").get_json()["games"] == []  # a whole name, not a part
    app.extensions["recorder"].store.close()


def test_the_player_keys_are_a_projection_rebuilt_and_verified(tmp_path):
    db = str(tmp_path / "k.sqlite3")
    app = make_app(db)
    app.test_client().post("/api/games", json=QELAT)
    app.extensions["recorder"].store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT south_key, north_key FROM games").fetchall() == [("selam tesfay", "berhane")]
        conn.execute("UPDATE games SET south_key = 'someone else'")
    verified = CliRunner().invoke(main, ["verify", "--projections", "--db", db])
    assert verified.exit_code == 1 and "south_key is 'someone else', the events give 'selam tesfay'" in verified.output
    assert CliRunner().invoke(main, ["rebuild", "--db", db]).exit_code == 0
    assert CliRunner().invoke(main, ["verify", "--projections", "--db", db]).exit_code == 0


def test_a_games_list_from_before_the_keys_gets_them_when_the_file_opens(tmp_path):
    db = str(tmp_path / "old.sqlite3")
    app = make_app(db)
    app.test_client().post("/api/games", json=QELAT)
    app.extensions["recorder"].store.close()
    with sqlite3.connect(db) as conn:  # the games table as an older release left it
        conn.execute("DROP INDEX idx_games_south_key")
        conn.execute("DROP INDEX idx_games_north_key")
        conn.execute("ALTER TABLE games DROP COLUMN south_key")
        conn.execute("ALTER TABLE games DROP COLUMN north_key")
        conn.execute("CREATE INDEX idx_games_south ON games (south)")
    app = make_app(db)
    assert len(app.test_client().get("/api/games?player=SELAM TESFAY").get_json()["games"]) == 1
    app.extensions["recorder"].store.close()
    with sqlite3.connect(db) as conn:
        indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        plan = " ".join(
            str(row) for row in conn.execute("EXPLAIN QUERY PLAN SELECT * FROM games WHERE south_key = 'x'")
        )
    assert "idx_games_south" not in indexes and "idx_games_south_key" in plan


def test_player_key_and_display_width():
    assert player_key("  SELAM \t Tesfay ") == "selam tesfay" == player_key("selam tesfay")
    assert player_key("Straße") == player_key("STRASSE")  # case folding, not lowering
    assert display_width("ሰላም ተስፋይ") == 8 and display_width("ሰላም\u135f") == 3 and display_width("王芳") == 4
    assert pad("王", 4) + "|" == "王  |" and pad("7", 3, right=True) == "  7"


def test_a_tournament_refuses_a_second_player_of_the_same_name_case_and_spacing_aside(client):
    created = client.post("/api/tournaments", json={"name": "Keren", "variant": "qelat", "format": "round_robin"})
    url = f"/api/tournaments/{created.get_json()['id']}/players"
    assert client.post(url, json={"name": "Selam Tesfay"}).status_code == 201
    assert client.post(url, json={"name": " selam  TESFAY"}).status_code == 409


def test_export_by_player_matches_as_the_games_list_does(tmp_path):
    db = str(tmp_path / "e.sqlite3")
    app = make_app(db)
    app.test_client().post("/api/games", json=QELAT)
    app.extensions["recorder"].store.close()
    exported = CliRunner().invoke(main, ["export", "--db", db, "--player", "SELAM tesfay"])
    assert exported.exit_code == 0 and '[South "Selam Tesfay"]' in exported.output


def test_rebuild_writes_the_player_keys_that_verify_expects_on_either_backend(database):
    app = make_app(database)
    app.test_client().post("/api/games", json={**QELAT, "south": "  Straße  Eins "})
    app.extensions["recorder"].store.close()
    assert CliRunner().invoke(main, ["rebuild", "--db", database]).exit_code == 0
    verified = CliRunner().invoke(main, ["verify", "--projections", "--db", database])
    assert verified.exit_code == 0 and "projections: 0 mismatches\n" in verified.output, verified.output
    app = make_app(database)
    found = app.test_client().get("/api/games?player=STRASSE eins").get_json()["games"]
    assert [game["south"] for game in found] == ["  Straße  Eins "]
    app.extensions["recorder"].store.close()

"""``recorder players`` and ``recorder ratings`` on a database file, and the linking of
names already recorded (no hash chain changes)."""

import sqlite3

from click.testing import CliRunner

from recorder.cli.main import main


def run(db, *args, status=0):
    result = CliRunner().invoke(main, [*args, "--db", str(db)])
    assert result.exit_code == status, result.output
    return result.output.strip()


def events(db) -> list:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game_id, seq, hash FROM events ORDER BY game_id, seq").fetchall()


def test_register_search_rename_merge_and_unmerge(tmp_path):
    db = tmp_path / "cli.sqlite3"
    abeba = run(db, "players", "register", "--name", "Abeba Tesfaye", "--federation", "ERI", "--name-geez", "ኣበባ ተስፋይ")
    assert abeba.startswith("p-")
    refused = CliRunner().invoke(
        main, ["players", "register", "--name", "abeba  tesfaye", "--federation", "ETH", "--db", str(db)]
    )
    assert refused.exit_code == 1 and f"candidate: {abeba}" in refused.output
    bad = CliRunner().invoke(main, ["players", "register", "--name", "X", "--federation", "et", "--db", str(db)])
    assert bad.exit_code == 1 and "federation" in bad.output
    other = run(db, "players", "register", "--name", "Abeba Tesfay", "--federation", "ERI", "--force")
    assert abeba in run(db, "players", "search", "ተስፋይ")
    run(db, "players", "rename", other, "--name", "Abeba Tesfai")
    run(db, "players", "merge", other, abeba)
    assert f"merged into {abeba}" in run(db, "players", "show", other)
    run(db, "players", "unmerge", other)
    assert "merged" not in run(db, "players", "show", other)


def test_link_links_exact_names_lists_the_rest_and_changes_no_hash(tmp_path):
    db = tmp_path / "link.sqlite3"
    tid = run(
        db, "tournament", "create", "--name", "Old Open", "--variant", "qelat", "--format", "round_robin", "--rated"
    )
    for name in ("Abeba  Tesfaye", "Berhane", "Chaltu Bekele"):
        run(db, "tournament", "add-player", tid, name)
    abeba = run(db, "players", "register", "--name", "Abeba Tesfaye", "--federation", "ERI")
    run(db, "players", "register", "--name", "Chaltu Bekele", "--federation", "ETH")
    run(db, "players", "register", "--name", "Chaltu Bekele", "--federation", "ERI", "--force")
    before = events(db)
    output = run(db, "players", "link")
    assert f"LINKED   {tid} #1 Abeba  Tesfaye -> {abeba}" in output
    assert f"UNLINKED {tid} #2 Berhane: no candidate" in output
    assert f"UNLINKED {tid} #3 Chaltu Bekele: p-" in output  # two candidates: an arbiter decides
    after = events(db)
    assert set(before) <= set(after)  # nothing rewritten: every hash stands, one event added
    assert len(after) == len(before) + 1
    assert "LINKED" not in run(db, "players", "link").replace("UNLINKED", "")  # linked once only


def test_ratings_rebuild_list_and_explain(tmp_path):
    db = tmp_path / "ratings.sqlite3"
    assert "rebuilt the rating lists: 0 entries" in run(db, "ratings", "rebuild")
    header = run(db, "ratings", "list", "qelat", "--csv")
    assert header == "rank,id,name,federation,rating,rd,games,provisional"
    bad = CliRunner().invoke(main, ["ratings", "list", "qelat", "--period", "2026-13", "--db", str(db)])
    assert bad.exit_code == 1 and "period" in bad.output


def test_verify_projections_checks_the_registry_and_rebuild_repairs_it(tmp_path):
    db = tmp_path / "verify.sqlite3"
    player = run(db, "players", "register", "--name", "Selam Haile", "--federation", "ETH")
    assert "projections: 0 mismatches" in run(db, "verify", "--projections")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE players SET federation = 'ERI' WHERE player_id = ?", (player,))
    result = CliRunner().invoke(main, ["verify", "--projections", "--db", str(db)])
    assert result.exit_code == 1 and f"MISMATCH players: {player}" in result.output
    run(db, "rebuild")
    assert "projections: 0 mismatches" in run(db, "verify", "--projections")


def test_link_links_the_sides_of_games_outside_tournaments_by_events_on_the_players(tmp_path):
    from recorder.games.service import Recorder
    from recorder.players.service import Players
    from recorder.store import SQLiteEventStore

    db = tmp_path / "games.sqlite3"
    with SQLiteEventStore(str(db)) as store:
        game = (
            Recorder(store)
            .create_game(
                {"variant": "qelat", "south": "Selam  Haile", "north": "Guest", "first_player": "south"},
                recorded_by="r",
            )
            .game.game_id
        )
    selam = run(db, "players", "register", "--name", "Selam Haile", "--federation", "ETH")
    guest = run(db, "players", "register", "--name", "Guest Player", "--federation", "ETH")
    before = events(db)
    output = run(db, "players", "link")
    assert f"LINKED   {game} south Selam  Haile -> {selam}" in output
    assert f"UNLINKED {game} north Guest: no candidate" in output
    assert set(before) <= set(events(db)) and len(events(db)) == len(before) + 1
    assert "LINKED   " not in run(db, "players", "link")  # linked once only
    run(db, "players", "link-game", game, "north", guest)
    refused = CliRunner().invoke(main, ["players", "link-game", game, "north", selam, "--db", str(db)])
    assert refused.exit_code == 1 and "already" in refused.output
    with SQLiteEventStore(str(db)) as store:
        record = Players(Recorder(store)).tables.linked(selam)
    assert record == [(game, "south")]
    assert "projections: 0 mismatches" in run(db, "verify", "--projections")


def test_link_entrant_is_an_arbiters_decision_between_candidates(tmp_path):
    db = tmp_path / "entrant.sqlite3"
    tid = run(db, "tournament", "create", "--name", "Old Open", "--variant", "qelat", "--format", "round_robin")
    run(db, "tournament", "add-player", tid, "Chaltu Bekele")
    first = run(db, "players", "register", "--name", "Chaltu Bekele", "--federation", "ETH")
    run(db, "players", "register", "--name", "Chaltu Bekele", "--federation", "ERI", "--force")
    assert f"UNLINKED {tid} #1 Chaltu Bekele" in run(db, "players", "link")
    assert run(db, "players", "link-entrant", tid, "1", first) == f"{tid} #1 -> {first}"
    assert "UNLINKED" not in run(db, "players", "link")


def test_ratings_list_and_explain_a_players_month(tmp_path):
    from conftest import make_app

    from recorder.ratings.glicko2 import Rating, Result, rate

    db = tmp_path / "explain.sqlite3"
    client = make_app(db).test_client()
    ids = [
        client.post("/api/players", json={"name": name, "federation": "ETH"}).get_json()["id"]
        for name in ("Abeba Tesfaye", "Berhane Kidane")
    ]
    body = {"name": "Open", "variant": "qelat", "format": "round_robin", "rated": True}
    tid = client.post("/api/tournaments", json=body).get_json()["id"]
    for player_id in ids:
        client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id})
    client.post(f"/api/tournaments/{tid}/rounds", json={})
    game = client.post(f"/api/tournaments/{tid}/rounds/1/boards/1/game", json={}).get_json()
    result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    assert client.post(f"/api/games/{game['id']}/commands", json=result).status_code == 201
    winner = game["metadata"]["south_player"]
    listing = [line for line in run(db, "ratings", "list", "qelat").splitlines() if not line.startswith("(")]
    assert listing[0].split()[:2] == ["1", winner]
    explained = run(db, "ratings", "explain", "qelat", winner).splitlines()
    assert explained[0] == "before: 1500.00 (RD 350.00, volatility 0.060000)"
    assert explained[1].startswith(f"  {game['id']}: v {game['metadata']['north_player']} 1500.00 (RD 350.00)")
    assert explained[1].endswith("expected 0.5000  scored 1")
    after = rate(Rating(), [Result(Rating(), 1)])  # the formula Glickman's example pins (tests/test_glicko2.py)
    assert explained[2].startswith(f"after:  {after.rating:.2f} (RD {after.rd:.2f}")


def test_a_merge_of_two_entrants_of_one_tournament_needs_entered_twice(tmp_path):
    db = tmp_path / "cli.sqlite3"
    survivor = run(db, "players", "register", "--name", "Selam Tesfaye", "--federation", "ERI")
    duplicate = run(db, "players", "register", "--name", "Selam Tesfay", "--federation", "eri", "--force")
    from recorder.games.service import Recorder
    from recorder.players.service import Players
    from recorder.store.backends import open_store
    from recorder.tournaments.service import Tournaments

    with open_store(str(db)) as store:
        tournaments = Tournaments(Recorder(store))
        body = {"name": "Open", "variant": "qelat", "format": "round_robin"}
        tid = tournaments.create(body, recorded_by="admin").tournament.tournament_id
        for player_id, name in ((survivor, "Selam Tesfaye"), (duplicate, "Selam Tesfay")):
            tournaments.register(tid, {"name": name, "player_id": player_id}, recorded_by="admin")
        assert Players(Recorder(store)).shared_tournaments(duplicate, survivor) == [tid]
    refused = run(db, "players", "merge", duplicate, survivor, status=1)
    assert tid in refused and "--entered-twice" in refused
    assert f"merged into {survivor}" in run(db, "players", "merge", duplicate, survivor, "--entered-twice")

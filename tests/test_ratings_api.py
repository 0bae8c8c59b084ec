"""Rating lists from rated tournaments' games: the API, the CSV, rebuilds and checks."""

import csv
import io
import sqlite3

import pytest
from conftest import make_app

from recorder.projections import check, rebuild
from recorder.ratings.glicko2 import Rating, Result, rate
from recorder.ratings.lists import next_month
from recorder.ratings.service import this_month

NAMES = ["Abeba Tesfaye", "Berhane Kidane", "Chaltu Bekele", "Dawit Alemu"]


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path / "ratings.sqlite3")


def ok(response, status=(200, 201)):
    assert response.status_code in status, response.get_json()
    return response.get_json()


def played_tournament(client, *, rated: bool, winner: str = "south") -> tuple[str, list[str], list[dict]]:
    """A round robin of four registry players, round 1 played: each board won by ``winner``."""
    ids = []
    for name in NAMES:
        found = client.get("/api/players", query_string={"q": name}).get_json()["players"]
        ids.append(
            found[0]["id"] if found else ok(client.post("/api/players", json={"name": name, "federation": "ETH"}))["id"]
        )
    body = {"name": "Open", "variant": "qelat", "format": "round_robin", "rated": rated}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for player_id in ids:
        ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}))
    boards = ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]
    games = []
    for board in boards:
        game = ok(client.post(f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/game", json={}))
        result = {"type": "result", "kind": "resignation", "winner": winner, "expected_version": 1}
        ok(client.post(f"/api/games/{game['id']}/commands", json=result))
        games.append(game)
    return tid, ids, games


def registry_lines(lines) -> list[str]:
    return [line for line in lines if line.startswith(("players", "player entries", "rating lists"))]


def rating_table(app) -> list:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("SELECT * FROM rating_lists ORDER BY variant, period, player_id").fetchall()


def test_a_rated_tournaments_results_move_the_current_list_by_glicko2(app):
    client = app.test_client()
    _, ids, games = played_tournament(client, rated=True)
    listing = ok(client.get("/api/ratings/qelat"))
    assert listing["period"] == this_month() and listing["published"] is False
    fresh = Rating()
    won, lost = rate(fresh, [Result(fresh, 1)]), rate(fresh, [Result(fresh, 0)])
    by_id = {e["id"]: e for e in listing["players"]}
    assert len(by_id) == 4 and all(e["games"] == 1 and e["provisional"] for e in by_id.values())
    winners = {g["metadata"]["south_player"] for g in games}
    for player_id, entry in by_id.items():
        expected = won if player_id in winners else lost
        assert (entry["rating"], entry["rd"]) == (round(expected.rating, 2), round(expected.rd, 2))
        (game,) = entry["explanation"]["games"]
        assert game["expected"] == 0.5 and game["opponent_rating"] == 1500 and game["opponent_rd"] == 350
        assert game["score"] == (1.0 if player_id in winners else 0.0)
    assert [e["rank"] for e in listing["players"]] == [1, 1, 3, 3]  # equal ratings share a rank
    assert listing["players"][0]["name"] in NAMES and listing["players"][0]["federation"] == "ETH"


def test_an_unrated_tournament_counts_for_nothing(app):
    client = app.test_client()
    played_tournament(client, rated=False)
    assert ok(client.get("/api/ratings/qelat"))["players"] == []


def test_a_month_that_is_over_is_published_rebuilt_byte_for_byte_and_checked(app, monkeypatch):
    client = app.test_client()
    played_tournament(client, rated=True)
    recorder = app.extensions["recorder"]
    month = this_month()
    current = ok(client.get("/api/ratings/qelat"))["players"]
    later = next_month(month)
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: later)
    assert any(line.startswith("rating lists") for line in check(recorder))  # not published yet: rebuild
    rebuild(recorder)
    first = rating_table(app)
    rebuild(recorder)
    assert rating_table(app) == first and len(first) == 4
    assert registry_lines(check(recorder)) == []
    published = ok(client.get("/api/ratings/qelat", query_string={"period": month}))
    assert published["published"] is True and published["periods"] == [month]
    assert [(e["id"], e["rating"]) for e in published["players"]] == [(e["id"], e["rating"]) for e in current]
    following = ok(client.get("/api/ratings/qelat"))  # nobody played: the deviations grow
    assert [e["rd"] > p["rd"] for e, p in zip(following["players"], published["players"])] == [True] * 4


def test_the_list_filters_by_federation_and_exports_as_csv(app):
    client = app.test_client()
    _, ids, _ = played_tournament(client, rated=True)
    client.post(f"/api/players/{ids[0]}/affiliation", json={"federation": "ERI"})
    eritrea = ok(client.get("/api/ratings/qelat", query_string={"federation": "ERI"}))["players"]
    assert [e["id"] for e in eritrea] == [ids[0]]
    response = client.get("/api/ratings/qelat.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 4 and rows[0]["rank"] == "1" and {r["id"] for r in rows} == set(ids)


def test_bad_list_queries_are_4xx(app):
    client = app.test_client()
    assert client.get("/api/ratings/chess").status_code == 404
    bad = client.get("/api/ratings/qelat", query_string={"period": "2026-13"})
    assert bad.status_code == 422 and bad.get_json()["parameters"] == ["period"]


def test_a_player_page_shows_his_tournaments_games_and_ratings(app):
    client = app.test_client()
    tid, ids, games = played_tournament(client, rated=True)
    record = ok(client.get(f"/api/players/{ids[0]}"))
    assert [t["id"] for t in record["tournaments"]] == [tid]
    (game,) = record["games"]
    assert game["status"] == "finished" and game["score"] in (0.0, 1.0) and game["opponent"] in NAMES
    (entry,) = record["ratings"]["qelat"]
    assert entry["period"] == this_month() and entry["games"] == 1


def test_an_annotation_after_the_end_leaves_the_game_in_the_month_it_ended(app, monkeypatch):
    client = app.test_client()
    _, _, games = played_tournament(client, rated=True)
    month = this_month()
    later = next_month(month)
    with sqlite3.connect(app.config["DATABASE"]) as db:  # the end recorded a month before: as if it were so
        db.execute("DROP TRIGGER events_no_update")
        db.execute("UPDATE events SET recorded_at = '2000-01-15T00:00:00.000000Z'")
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: later)
    note = {"type": "annotate", "text": "a comment after the end", "expected_version": 2}
    ok(client.post(f"/api/games/{games[0]['id']}/commands", json=note))
    listing = ok(client.get("/api/ratings/qelat", query_string={"period": "2000-01"}))
    assert sum(e["games"] for e in listing["players"]) == 4  # both games, the annotated one too


def test_an_explanation_without_games_is_written_as_canonical_json_writes_it():
    import random

    from recorder.core import chain
    from recorder.ratings.service import explanation_text

    rng = random.Random(5)
    for _ in range(200):
        before = {"rating": round(rng.uniform(800, 2600), 2), "rd": round(rng.uniform(30, 350), 2)}
        explanation = {"before": {**before, "volatility": round(rng.uniform(0.03, 0.09), 6)}, "games": []}
        assert explanation_text(explanation) == chain.canonical_json(explanation)
    assert explanation_text({"before": {"rating": 1500.0, "rd": 350.0, "volatility": 0.06}, "games": []}) == (
        '{"before":{"rating":1500.0,"rd":350.0,"volatility":0.06},"games":[]}'
    )


def test_a_rated_tournament_seeds_a_registry_player_by_his_registry_rating(app):
    client = app.test_client()
    _, ids, _ = played_tournament(client, rated=True)
    current = {e["id"]: e["rating"] for e in ok(client.get("/api/ratings/qelat"))["players"]}
    body = {"name": "Next Open", "variant": "qelat", "format": "swiss", "rounds": 3, "rated": True}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    entered = ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": ids[0]}))
    assert entered["rating"] == round(current[ids[0]])
    given = ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": ids[1], "rating": 1234}))
    assert given["rating"] == 1234  # a rating the arbiter gives is kept
    unrated = ok(client.post("/api/tournaments", json={**body, "rated": False}))["id"]
    assert ok(client.post(f"/api/tournaments/{unrated}/players", json={"player_id": ids[0]}))["rating"] is None


def test_this_months_list_asked_for_from_many_threads_is_the_whole_computation(app):
    import threading

    from recorder.ratings.service import Ratings

    client = app.test_client()
    played_tournament(client, rated=True)
    ratings = app.extensions["ratings"]
    failures: list[BaseException] = []

    def ask() -> None:
        try:
            for _ in range(20):
                ratings.current("qelat")
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    played_tournament(client, rated=True)  # more results while they ask
    for thread in threads:
        thread.join()
    assert failures == []
    assert ratings.current("qelat") == Ratings(app.extensions["recorder"]).current("qelat")

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


def recorded_at(monkeypatch, when: str) -> None:
    """The store's clock from now on (events are stamped inside the store's append)."""
    monkeypatch.setattr("recorder.store.sql.utc_now", lambda: when)


def test_an_annotation_after_the_end_leaves_the_game_in_the_month_it_ended(app, monkeypatch):
    client = app.test_client()
    recorded_at(monkeypatch, "2000-01-15T00:00:00.000000Z")
    _, _, games = played_tournament(client, rated=True)
    recorded_at(monkeypatch, "2000-02-03T00:00:00.000000Z")
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: "2000-03")
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


def correct(client, game_id: str, version: int, winner: str | None) -> int:
    """Retract the game's result and, unless ``winner`` is None, record another; its new version."""
    retract = {"type": "retract", "count": 1, "reason": "the wrong result was entered", "expected_version": version}
    ok(client.post(f"/api/games/{game_id}/commands", json=retract))
    if winner is None:
        return version + 1
    result = {"type": "result", "kind": "resignation", "winner": winner, "expected_version": version + 1}
    ok(client.post(f"/api/games/{game_id}/commands", json=result))
    return version + 2


def list_of(client, period: str) -> dict:
    return ok(client.get("/api/ratings/qelat", query_string={"period": period}))


def as_if_always(games, period):
    """The list of ``period`` computed from these results as if each had always been so."""
    from recorder.ratings.lists import rating_lists

    return {e.player_id: e for e in next(p for p in rating_lists(games, period) if p.period == period).entries}


def test_a_result_corrected_after_its_month_leaves_its_list_and_is_applied_and_stated_next_month(app, monkeypatch):
    from recorder.ratings.lists import RatedGame

    client = app.test_client()
    month = {"now": "2026-01"}
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: month["now"])
    recorded_at(monkeypatch, "2026-01-15T10:00:00.000000Z")
    _, ids, games = played_tournament(client, rated=True)
    month["now"] = "2026-02"
    rebuild(app.extensions["recorder"])
    january = rating_table(app)
    january_list = list_of(client, "2026-01")
    assert january_list["published"] is True and january_list["corrections"] == []
    recorded_at(monkeypatch, "2026-02-10T10:00:00.000000Z")
    assert list_of(client, "2026-02")["corrections"] == []  # this month's list kept, then corrected
    corrected = games[0]
    correct(client, corrected["id"], 2, "north")
    pairs = [(g["metadata"]["south_player"], g["metadata"]["north_player"]) for g in games]
    right = [
        RatedGame(g["id"], "2026-01", s, n, "north_wins" if g is corrected else "south_wins")
        for g, (s, n) in zip(games, pairs)
    ]
    statement = [{"game_id": corrected["id"], "period": "2026-01", "before": "south_wins", "after": "north_wins"}]
    february = list_of(client, "2026-02")  # this month so far: the correction applied and stated
    assert february["published"] is False and february["corrections"] == statement
    expected = as_if_always(right, "2026-02")
    assert {e["id"]: (e["rating"], e["rd"]) for e in february["players"]} == {
        p: (round(e.rating.rating, 2), round(e.rating.rd, 2)) for p, e in expected.items()
    }
    assert list_of(client, "2026-01")["players"] == january_list["players"]
    month["now"] = "2026-03"
    rebuild(app.extensions["recorder"])
    assert [row for row in rating_table(app) if row[1] == "2026-01"] == january  # byte for byte the same
    published = list_of(client, "2026-02")
    assert published["published"] is True and published["corrections"] == statement
    assert published["players"] == february["players"]
    assert registry_lines(check(app.extensions["recorder"])) == []
    exported = client.get("/api/ratings/qelat.csv", query_string={"period": "2026-02"}).get_data(as_text=True)
    assert exported.endswith(f"\ngame_id,period,before,after\n{corrected['id']},2026-01,south_wins,north_wins\n")
    march = list_of(client, "2026-03")
    assert march["corrections"] == []


def test_a_correction_within_the_month_changes_nothing_but_that_months_list(app, monkeypatch):
    from recorder.ratings.lists import RatedGame

    client = app.test_client()
    month = {"now": "2026-01"}  # the clock's month: lists are published as months end
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: month["now"])
    recorded_at(monkeypatch, "2026-01-15T10:00:00.000000Z")
    _, _, games = played_tournament(client, rated=True)
    recorded_at(monkeypatch, "2026-01-20T10:00:00.000000Z")
    correct(client, games[0]["id"], 2, "north")
    month["now"] = "2026-02"
    january = list_of(client, "2026-01")
    right = [
        RatedGame(g["id"], "2026-01", g["metadata"]["south_player"], g["metadata"]["north_player"], w)
        for g, w in zip(games, ["north_wins", "south_wins"])
    ]
    expected = as_if_always(right, "2026-01")
    assert {e["id"]: e["rating"] for e in january["players"]} == {
        p: round(e.rating.rating, 2) for p, e in expected.items()
    }
    assert january["corrections"] == [] and list_of(client, "2026-02")["corrections"] == []


def test_a_withdrawn_result_counts_nowhere_until_it_is_given_again(app, monkeypatch):
    client = app.test_client()
    month = {"now": "2026-01"}
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: month["now"])
    recorded_at(monkeypatch, "2026-01-15T10:00:00.000000Z")
    _, _, games = played_tournament(client, rated=True)
    month["now"] = "2026-02"
    assert sum(e["games"] for e in list_of(client, "2026-01")["players"]) == 4
    recorded_at(monkeypatch, "2026-02-10T10:00:00.000000Z")
    version = correct(client, games[0]["id"], 2, None)
    february = list_of(client, "2026-02")
    assert february["corrections"] == [
        {"game_id": games[0]["id"], "period": "2026-01", "before": "south_wins", "after": None}
    ]
    counted = {e["id"] for e in february["players"]}
    assert counted == {games[1]["metadata"]["south_player"], games[1]["metadata"]["north_player"]}
    month["now"] = "2026-04"
    recorded_at(monkeypatch, "2026-04-02T10:00:00.000000Z")
    ok(
        client.post(
            f"/api/games/{games[0]['id']}/commands",
            json={"type": "result", "kind": "resignation", "winner": "north", "expected_version": version},
        )
    )
    april = list_of(client, "2026-04")
    assert april["corrections"] == [
        {"game_id": games[0]["id"], "period": "2026-01", "before": None, "after": "north_wins"}
    ]
    assert len(april["players"]) == 4 and list_of(client, "2026-03")["corrections"] == []
    assert len(list_of(client, "2026-03")["players"]) == 2
    rebuild(app.extensions["recorder"])
    assert registry_lines(check(app.extensions["recorder"])) == []


@pytest.mark.parametrize("seed", [3, 17])
def test_published_lists_never_change_when_corrections_come_later_and_rebuild_byte_for_byte(
    tmp_path, monkeypatch, seed
):
    import random

    rng = random.Random(seed)
    app = make_app(tmp_path / f"corrections-{seed}.sqlite3")
    client = app.test_client()
    recorder = app.extensions["recorder"]
    month = {"now": "2026-01"}
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: month["now"])
    recorded_at(monkeypatch, "2026-01-05T10:00:00.000000Z")
    versions = {}
    for _ in range(2):
        _, _, games = played_tournament(client, rated=True, winner=rng.choice(["south", "north"]))
        versions.update({g["id"]: 2 for g in games})
    finished = dict.fromkeys(versions, True)
    published: dict[str, list] = {}
    for now in ["2026-01", "2026-02", "2026-03", "2026-04"]:
        month["now"] = now
        for day in (10, 20):  # corrections at random times: withdrawn, given again, changed
            recorded_at(monkeypatch, f"{now}-{day}T10:00:00.000000Z")
            for game_id in rng.sample(sorted(versions), 2):
                if finished[game_id]:
                    winner = rng.choice(["south", "north", None])
                    versions[game_id] = correct(client, game_id, versions[game_id], winner)
                    finished[game_id] = winner is not None
                else:
                    body = {"type": "result", "kind": "resignation", "winner": rng.choice(["south", "north"])}
                    ok(
                        client.post(
                            f"/api/games/{game_id}/commands", json={**body, "expected_version": versions[game_id]}
                        )
                    )
                    versions[game_id], finished[game_id] = versions[game_id] + 1, True
        month["now"] = next_month(now)
        rebuild(recorder)
        table = rating_table(app)
        rebuild(recorder)
        assert rating_table(app) == table  # byte for byte
        for period, rows in published.items():  # the lists published before: as they were
            assert [row for row in table if row[1] == period] == rows
        published[now] = [row for row in table if row[1] == now]
        assert registry_lines(check(recorder)) == []
    assert any(list_of(client, period)["corrections"] for period in published)  # corrections were stated


def test_a_file_from_before_result_changes_gets_each_finished_games_result_at_its_end(tmp_path):
    from recorder.games.results import GameResults

    path = tmp_path / "older.sqlite3"
    app = make_app(path)
    _, _, games = played_tournament(app.test_client(), rated=True)
    results = GameResults(app.extensions["recorder"].store)
    written = {g["id"]: results.of_game(g["id"]) for g in games}
    app.extensions["recorder"].store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE game_results")
    reopened = make_app(path)
    results = GameResults(reopened.extensions["recorder"].store)
    assert {g["id"]: results.of_game(g["id"]) for g in games} == written
    assert all(len(rows) == 1 and rows[0][2] == "south_wins" for rows in written.values())

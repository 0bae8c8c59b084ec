"""A game restored with its past date changes the lists of its month and every month
after it, on the running server, without ``recorder ratings rebuild``
(recorder/ratings/service.py ``publish_due``; docs/security.md, "Imports").

The admin's NDJSON import keeps each event's ``recorded_at``: a rated game restored from
another server's log counts in the month it was recorded there, a month whose list the
server has published already.
"""

from __future__ import annotations

import json

import pytest
from conftest import make_app
from test_archive_import import lines_of, rehash
from test_ratings_api import ok, played_tournament

from recorder.games.results import GameResults
from recorder.ratings.lists import next_month
from recorder.ratings.service import this_month

pytestmark = pytest.mark.timeout(120)


def backdated_copy(client, game_id: str, recorded_at: str, winner: str) -> str:
    """The log of a board's game, as another server would have recorded it: another id, the
    other winner, each event recorded at ``recorded_at`` (the chain recomputed)."""
    exported = client.get("/api/export", headers={"Accept": "application/x-ndjson"})
    events = [json.loads(line) for line in exported.get_data(as_text=True).splitlines() if line.strip()]
    events = [event for event in events if event.get("game_id") == game_id]
    restored = "0123456789ab"  # the id the other server minted
    for event in events:
        event.update(game_id=restored, recorded_at=recorded_at)
        if event["type"] == "result":
            event["payload"] = {**event["payload"], "winner": winner}
    return "\n".join(lines_of(rehash(events))) + "\n"


def listed(client, period: str) -> dict[str, tuple[float, int]]:
    listing = ok(client.get("/api/ratings/qelat", query_string={"period": period}))
    return {entry["id"]: (entry["rating"], entry["games"]) for entry in listing["players"]}


def test_a_restored_backdated_rated_game_is_in_its_months_list_without_a_rebuild(database, monkeypatch):
    """On each backend (``database``): the mark is in the database, for every process."""
    app = make_app(database)
    client = app.test_client()
    month = this_month()
    _, ids, games = played_tournament(client, rated=True)  # round 1, each board won by South, this month
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: next_month(month))
    before = listed(client, month)  # the month is over: its list is published (stored) by this read
    assert sorted(games for _, games in before.values()) == [1, 1, 1, 1]
    following = listed(client, next_month(month))
    log = backdated_copy(client, games[0]["id"], f"{month}-01T00:00:00.000001Z", winner="north")
    restored = client.post("/api/import", data=log, content_type="application/x-ndjson")
    assert restored.status_code == 201, restored.get_json()
    after = listed(client, month)
    south, north = games[0]["metadata"]["south_player"], games[0]["metadata"]["north_player"]
    assert (after[south][1], after[north][1]) == (2, 2)  # the restored game counts in its month
    assert after != before and listed(client, next_month(month)) != following  # and in the month after it
    assert GameResults(app.extensions["recorder"].store).stale_lists("qelat") is None  # published once, not per read


def test_an_import_of_a_game_outside_tournaments_leaves_the_lists_as_published(tmp_path):
    app = make_app(tmp_path / "plain.sqlite3")
    client = app.test_client()
    game = ok(
        client.post(
            "/api/games", json={"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
        )
    )
    result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    ok(client.post(f"/api/games/{game['id']}/commands", json=result))
    log = backdated_copy(client, game["id"], f"{this_month()}-01T00:00:00.000001Z", winner="north")
    assert client.post("/api/import", data=log, content_type="application/x-ndjson").status_code == 201
    assert GameResults(app.extensions["recorder"].store).stale_lists("qelat") is None  # nothing it could rate

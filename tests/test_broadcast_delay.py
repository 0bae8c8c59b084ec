"""A tournament's broadcast delay (docs/tournaments.md, docs/security.md "Broadcast delay"):
no public read shows a move younger than the delay; the tournament's arbiters and the
admin see every move at once.

The moves are recorded now, at the store's own time; the reads' clock is the test's
(``app.config["CLOCK"]``): set to the time of event ``k`` plus the delay, a public
read must show the game exactly as it stood after event ``k``. "As it stood" is checked
against a twin: the same setup and the same first commands recorded outside any
tournament, read in full.
"""

from __future__ import annotations

import json
import queue
import re
import threading
from datetime import datetime, timedelta

import pytest
from browser import fixture_game, record
from conftest import ADMIN_TOKEN, bearer, make_app
from flask.testing import FlaskClient

from recorder.audit.dossier_check import check, failed
from recorder.tournaments.broadcast import public_horizon

pytestmark = pytest.mark.timeout(120)

DELAY = 15 * 60  # the example: fifteen minutes
SHOWN = 10  # the commands the public may see once the clock says so


class Hall:
    """A delayed tournament whose one board's game was played to its end (north wins)."""

    def __init__(self, app):
        self.app = app
        self.admin = app.test_client()
        self.public = FlaskClient(app, app.response_class)
        game = fixture_game("qelat-default.json")
        self.commands = game["commands"]
        self.t = self.tournament("Axum Open", broadcast_delay=DELAY, finished_public=False)
        other = self.tournament("Gondar Cup")
        self.arbiter = self.token(self.t)
        self.stranger = self.token(other)  # an arbiter, of another tournament
        for name in ("Abeba", "Berhane"):  # registry players too: their records list the game
            entry = {"name": name, "federation": "ETH", "register": True}
            assert self.admin.post(f"/api/tournaments/{self.t}/players", json=entry).status_code == 201
        assert self.admin.post(f"/api/tournaments/{self.t}/rounds", json={}).status_code == 201
        created = self.admin.post(f"/api/tournaments/{self.t}/rounds/1/boards/1/game", json={"first_player": "north"})
        assert created.status_code == 201, created.get_json()
        setup = created.get_json()
        self.game = setup["id"]
        self.versions = [1]
        for command in self.commands:
            response = self.admin.post(
                f"/api/games/{self.game}/commands", json={**command, "expected_version": self.versions[-1]}
            )
            assert response.status_code == 201, response.get_json()
            self.versions.append(response.get_json()["version"])
        self.events = self.admin.get(f"/api/games/{self.game}/events").get_json()["events"]
        self.k = self.versions[SHOWN]  # the last event the public sees at the clock set below
        assert self.events[self.k]["recorded_at"] > self.events[self.k - 1]["recorded_at"]
        twin_setup = {key: setup[key] for key in ("variant", "options", "south", "north", "first_player")}
        self.twin = record(self.admin, twin_setup, self.commands[:SHOWN])
        self.show_up_to(self.k)

    def tournament(self, name: str, **settings) -> str:
        body = {"name": name, "variant": "qelat", "options": {"mazagebh_no_return": True}, "format": "round_robin"}
        response = self.admin.post("/api/tournaments", json={**body, **settings})
        assert response.status_code == 201, response.get_json()
        return response.get_json()["id"]

    def token(self, tournament_id: str) -> dict:
        issued = self.admin.post(
            f"/api/tournaments/{tournament_id}/tokens", json={"holder": f"Arbiter {tournament_id}"}
        )
        return bearer(issued.get_json()["token"])

    def show_up_to(self, seq: int) -> None:
        """The reads' clock (a stream's too, as it runs): the delay after event ``seq`` was recorded."""
        recorded = datetime.fromisoformat(self.events[seq - 1]["recorded_at"].replace("Z", "+00:00"))
        self.now = recorded + timedelta(seconds=DELAY)
        self.app.config["CLOCK"] = lambda: self.now

    def get(self, path: str, who: dict | None = None, **kwargs):
        if who is None:
            return self.public.get(path, **kwargs)
        return self.public.get(path, headers={**who, **kwargs.pop("headers", {})}, **kwargs)

    @property
    def full(self) -> int:
        return self.versions[-1]

    @property
    def insiders(self) -> list[dict]:
        return [self.arbiter, bearer(ADMIN_TOKEN)]

    @property
    def outsiders(self) -> list[dict | None]:
        return [None, self.stranger]


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    app = make_app(
        tmp_path_factory.mktemp("broadcast") / "hall.sqlite3",
        LIVE_POLL_SECONDS=0.05,
        LIVE_MAX_SECONDS=3.0,
        LIVE_LISTENERS=8,
    )
    yield Hall(app)
    app.extensions["recorder"].store.close()


@pytest.fixture
def clock_at_k(hall):
    hall.show_up_to(hall.k)
    yield hall
    hall.show_up_to(hall.k)


# -- Each public read ends at the delay; the arbiter and the admin see it all ------------------


def test_game_json_of_a_delayed_game_ends_at_the_delay(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        response = hall.get(f"/api/games/{hall.game}", who)
        game = response.get_json()
        assert (game["version"], game["status"], game["result"]) == (hall.k, "in_progress", None)
        assert response.headers["ETag"] == f'"{hall.k}"'  # the true version is not told either
        assert game["state"] == hall.get(f"/api/games/{hall.twin}/state").get_json()
        assert "Authorization" in response.headers["Vary"]
    for who in hall.insiders:
        game = hall.get(f"/api/games/{hall.game}", who).get_json()
        assert (game["version"], game["status"], game["result"]) == (hall.full, "finished", "north_wins")


def test_state_of_a_delayed_game_ends_at_the_delay(clock_at_k):
    hall = clock_at_k
    twin = hall.get(f"/api/games/{hall.twin}/state").get_json()
    for who in hall.outsiders:
        response = hall.get(f"/api/games/{hall.game}/state", who)
        assert response.get_json() == twin and response.headers["ETag"] == f'"{hall.k}"'
        assert hall.get(f"/api/games/{hall.game}/state?at={hall.k}", who).get_json() == twin
        beyond = hall.get(f"/api/games/{hall.game}/state?at={hall.k + 1}", who)
        told = re.findall(r"\b\d+\b", beyond.get_json()["detail"])  # numbers standing alone, not in the game's id
        assert beyond.status_code == 404 and str(hall.full) not in told
    for who in hall.insiders:
        assert hall.get(f"/api/games/{hall.game}/state", who).get_json()["version"] == hall.full
        assert hall.get(f"/api/games/{hall.game}/state?at={hall.k + 1}", who).status_code == 200


def test_events_of_a_delayed_game_end_at_the_delay(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        events = hall.get(f"/api/games/{hall.game}/events", who).get_json()["events"]
        assert [e["seq"] for e in events] == list(range(1, hall.k + 1))
        assert [e["hash"] for e in events] == [e["hash"] for e in hall.events[: hall.k]]
    for who in hall.insiders:
        assert len(hall.get(f"/api/games/{hall.game}/events", who).get_json()["events"]) == hall.full


def test_moves_of_a_delayed_game_end_at_the_delay(clock_at_k):
    hall = clock_at_k
    twin = hall.get(f"/api/games/{hall.twin}/moves").get_json()["moves"]
    assert len(twin) == SHOWN
    for who in hall.outsiders:
        assert hall.get(f"/api/games/{hall.game}/moves", who).get_json()["moves"] == twin
    for who in hall.insiders:
        assert len(hall.get(f"/api/games/{hall.game}/moves", who).get_json()["moves"]) == len(hall.commands)


def move_text(notation: str) -> str:
    """The moves of a notation text: its tag, comment and blank lines left out."""
    return "\n".join(line for line in notation.splitlines() if line.strip() and line[0] not in "[;")


def test_notation_of_a_delayed_game_ends_at_the_delay(clock_at_k):
    hall = clock_at_k
    twin = move_text(hall.get(f"/api/games/{hall.twin}/notation").get_data(as_text=True))
    for history in ("", "?history=full"):
        twin = move_text(hall.get(f"/api/games/{hall.twin}/notation{history}").get_data(as_text=True))
        for who in hall.outsiders:
            text = hall.get(f"/api/games/{hall.game}/notation{history}", who).get_data(as_text=True)
            assert move_text(text) == twin
        for who in hall.insiders:
            text = hall.get(f"/api/games/{hall.game}/notation{history}", who).get_data(as_text=True)
            assert move_text(text) != twin and move_text(text).startswith(twin.rsplit(" ", 1)[0])


def test_svg_of_a_delayed_game_ends_at_the_delay(clock_at_k):
    hall = clock_at_k
    twin = hall.get(f"/api/games/{hall.twin}/board.svg").get_data(as_text=True).replace(hall.twin, hall.game)
    for who in hall.outsiders:
        assert hall.get(f"/api/games/{hall.game}/board.svg", who).get_data(as_text=True) == twin
        assert hall.get(f"/api/games/{hall.game}/board.svg?at={hall.k + 1}", who).status_code == 404
    for who in hall.insiders:
        assert hall.get(f"/api/games/{hall.game}/board.svg", who).get_data(as_text=True) != twin
        assert hall.get(f"/api/games/{hall.game}/board.svg?at={hall.k + 1}", who).status_code == 200


def exported_events(hall, who) -> list[dict]:
    response = hall.get(f"/api/export?tournament={hall.t}", who, headers={"Accept": "application/x-ndjson"})
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line.strip()]
    return [line for line in lines if line.get("game_id") == hall.game]


def test_export_of_a_delayed_game_ends_at_the_delay(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        assert [e["seq"] for e in exported_events(hall, who)] == list(range(1, hall.k + 1))
        text = hall.get(f"/api/export?tournament={hall.t}", who).get_data(as_text=True)
        assert move_text(text) == move_text(hall.get(f"/api/games/{hall.twin}/notation").get_data(as_text=True))
        assert "0-1" not in text and "1-0" not in text
    for who in hall.insiders:
        assert len(exported_events(hall, who)) == hall.full


def test_export_by_result_does_not_tell_a_held_back_result(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        assert exported_events_by(hall, who, "north_wins") == []
    for who in hall.insiders:
        assert len(exported_events_by(hall, who, "north_wins")) == hall.full


@pytest.mark.parametrize("query", ["", "?variant=qelat", "?player=Abeba"])
def test_export_of_the_whole_archive_and_by_its_other_filters_ends_at_the_delay(clock_at_k, query):
    """Not only a tournament's export: the whole archive and every other filter hold the
    delayed game back too, as NDJSON and as notation (its effective and full history)."""
    hall = clock_at_k
    setup = hall.get(f"/api/games/{hall.game}/events", bearer(ADMIN_TOKEN)).get_json()["events"][0]
    assert query != "?player=Abeba" or "Abeba" in json.dumps(setup)  # the filter does select the game
    for who in hall.outsiders:
        response = hall.get(f"/api/export{query}", who, headers={"Accept": "application/x-ndjson"})
        lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line.strip()]
        assert [line["seq"] for line in lines if line.get("game_id") == hall.game] == list(range(1, hall.k + 1))
        for history in ("effective", "full"):
            separator = "&" if query else "?"
            text = hall.get(f"/api/export{query}{separator}history={history}", who).get_data(as_text=True)
            twin = move_text(hall.get(f"/api/games/{hall.twin}/notation?history={history}").get_data(as_text=True))
            assert move_text(text) == f"{twin}\n{twin}"  # the delayed game as its twin, and the twin itself
    for who in hall.insiders:
        response = hall.get(f"/api/export{query}", who, headers={"Accept": "application/x-ndjson"})
        lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line.strip()]
        assert len([line for line in lines if line.get("game_id") == hall.game]) == hall.full


def test_position_search_finds_none_of_the_positions_younger_than_the_delay(clock_at_k):
    """Every position the game reached after the last public event (not only its last): none
    is found for the public; each is for its arbiter."""
    hall = clock_at_k
    admin = bearer(ADMIN_TOKEN)
    younger = {
        seq: hall.get(f"/api/games/{hall.game}/state?at={seq}", admin).get_json()["position_text"]
        for seq in range(hall.k + 1, hall.full + 1)
    }
    assert younger
    for seq, position in younger.items():
        for who in hall.outsiders:
            assert all(found <= hall.k for found in found_in(hall, position, who).get(hall.game, []))
        assert seq in found_in(hall, position, hall.arbiter)[hall.game]


def exported_events_by(hall, who, result: str) -> list[dict]:
    path = f"/api/export?tournament={hall.t}&result={result}"
    response = hall.get(path, who, headers={"Accept": "application/x-ndjson"})
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines() if line.strip()]
    return [line for line in lines if line.get("game_id") == hall.game]


def test_position_search_finds_no_position_younger_than_the_delay(clock_at_k):
    hall = clock_at_k
    final = hall.get(f"/api/games/{hall.game}/state", bearer(ADMIN_TOKEN)).get_json()["position_text"]
    shown = hall.get(f"/api/games/{hall.twin}/state").get_json()["position_text"]
    for who in hall.outsiders:
        assert hall.game not in found_in(hall, final, who)
        assert all(seq <= hall.k for seq in found_in(hall, shown, who).get(hall.game, [hall.k]))
        assert hall.k in found_in(hall, shown, who)[hall.game]
    for who in hall.insiders:
        assert hall.full in found_in(hall, final, who)[hall.game]


def found_in(hall, position: str, who) -> dict[str, list[int]]:
    response = hall.get("/api/positions", who, query_string={"fen": position})
    assert response.status_code == 200, response.get_json()
    found: dict[str, list[int]] = {}
    for hit in response.get_json()["occurrences"]:
        found.setdefault(hit["game_id"], []).append(hit["seq"])
    return found


def test_games_list_row_of_a_delayed_game_tells_neither_status_nor_result(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        row = list_row(hall, who)
        assert (row["status"], row["result"]) == ("in_progress", None)
        assert row["updated_at"] == hall.events[hall.k - 1]["recorded_at"]
    for who in hall.insiders:
        row = list_row(hall, who)
        assert (row["status"], row["result"], row["updated_at"]) == (
            "finished",
            "north_wins",
            hall.events[-1]["recorded_at"],
        )


def list_row(hall, who) -> dict:
    games = hall.get(f"/api/games?tournament={hall.t}", who).get_json()["games"]
    return next(g for g in games if g["id"] == hall.game)


def test_tournament_reads_hold_back_a_board_result_until_its_game_is_public(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        assert board_result(hall, who) is None
        standings = hall.get(f"/api/tournaments/{hall.t}/standings", who).get_json()
        assert all(row["points"] == 0 for row in standings["standings"])
    for who in hall.insiders:
        assert board_result(hall, who) == "north_wins"


def board_result(hall, who):
    """Board 1's result as the round and the tournament show it."""
    board = hall.get(f"/api/tournaments/{hall.t}/rounds/1", who).get_json()["boards"][0]
    assert hall.get(f"/api/tournaments/{hall.t}", who).get_json()["rounds"][0]["boards"][0] == board
    return board["result"]


def test_a_players_record_holds_back_a_delayed_games_result(clock_at_k):
    hall = clock_at_k
    players = hall.admin.get(f"/api/tournaments/{hall.t}").get_json()["players"]
    for player in players:
        for who in hall.outsiders:
            game = record_entry(hall, player["player_id"], who)
            assert (game["status"], game["result"], game["score"]) == ("in_progress", None, None)
        for who in hall.insiders:
            game = record_entry(hall, player["player_id"], who)
            assert (game["status"], game["result"]) == ("finished", "north_wins")


def record_entry(hall, player_id: str, who) -> dict:
    games = hall.get(f"/api/players/{player_id}", who).get_json()["games"]
    return next(g for g in games if g["game_id"] == hall.game)


# -- Live streams --------------------------------------------------------------------------


def sse(response) -> queue.Queue:
    heard: queue.Queue = queue.Queue()

    def read():
        for chunk in response.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            fields = dict(line.split(": ", 1) for line in text.strip().splitlines() if ": " in line and line[0] != ":")
            if "event" in fields:
                heard.put((fields["event"], fields.get("id"), json.loads(fields["data"])))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    READERS.append(reader)
    return heard


READERS: list[threading.Thread] = []


@pytest.fixture(autouse=True)
def streams_end_by_themselves():
    """Each stream ends after LIVE_MAX_SECONDS; its reader is waited for, not cut off."""
    yield
    while READERS:
        READERS.pop().join(timeout=10)


def drain(heard: queue.Queue, seconds: float) -> list:
    got = []
    try:
        while True:
            got.append(heard.get(timeout=seconds))
    except queue.Empty:
        return got


def test_live_stream_sends_a_public_move_only_once_it_is_older_than_the_delay(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        hall.show_up_to(hall.k)
        response = hall.get(f"/api/games/{hall.game}/live", who, headers={"Last-Event-ID": "1"}, buffered=False)
        heard = sse(response)
        assert heard.get(timeout=5) == ("version", None, {"game_id": hall.game, "version": hall.k})
        first = drain(heard, 0.5)
        assert [data["seq"] for kind, _, data in first if kind == "recorded"] == list(range(2, hall.k + 1))
        later = hall.versions[SHOWN + 3]
        hall.show_up_to(later)  # time passes: three more moves come of age
        more = drain(heard, 0.5)
        assert [data["seq"] for kind, _, data in more] == list(range(hall.k + 1, later + 1))


def test_live_stream_of_an_arbiter_or_the_admin_is_not_delayed(clock_at_k):
    hall = clock_at_k
    for who in hall.insiders:
        response = hall.get(f"/api/games/{hall.game}/live", who, buffered=False)
        assert sse(response).get(timeout=5) == ("version", None, {"game_id": hall.game, "version": hall.full})


def test_tournament_stream_shows_each_board_as_the_public_may_see_it(clock_at_k):
    hall = clock_at_k
    for who, version, status in [(None, hall.k, "in_progress"), (hall.arbiter, hall.full, "finished")]:
        response = hall.get(f"/api/tournaments/{hall.t}/live", who, buffered=False)
        kind, _, snapshot = sse(response).get(timeout=5)
        assert kind == "snapshot"
        board = snapshot["boards"][0]
        assert (board["version"], board["status"]) == (version, status)
        assert (board["result"] is None) == (status == "in_progress")


# -- The tournament's setting ----------------------------------------------------------------


def test_a_finished_game_is_public_at_once_unless_the_tournament_says_otherwise(tmp_path):
    app = make_app(tmp_path / "finished.sqlite3")
    admin, public = app.test_client(), FlaskClient(app, app.response_class)
    body = {"name": "Harar Open", "variant": "qelat", "options": {"mazagebh_no_return": True}, "format": "round_robin"}
    t = admin.post("/api/tournaments", json={**body, "broadcast_delay": DELAY}).get_json()
    assert (t["broadcast_delay"], t["finished_public"]) == (DELAY, True)
    for name in ("Abeba", "Berhane"):
        admin.post(f"/api/tournaments/{t['id']}/players", json={"name": name})
    admin.post(f"/api/tournaments/{t['id']}/rounds", json={})
    game = admin.post(f"/api/tournaments/{t['id']}/rounds/1/boards/1/game", json={"first_player": "north"}).get_json()
    commands = fixture_game("qelat-default.json")["commands"]
    version = 1
    for command in commands[:-1]:
        version = admin.post(
            f"/api/games/{game['id']}/commands", json={**command, "expected_version": version}
        ).get_json()["version"]
    assert public.get(f"/api/games/{game['id']}").get_json()["version"] == 1  # in play: held back
    admin.post(f"/api/games/{game['id']}/commands", json={**commands[-1], "expected_version": version})
    finished = public.get(f"/api/games/{game['id']}").get_json()
    assert (finished["status"], finished["result"]) == ("finished", "north_wins")  # over: public whole
    changed = admin.put(
        f"/api/tournaments/{t['id']}/broadcast", json={"broadcast_delay": DELAY, "finished_public": False}
    )
    assert changed.status_code == 200 and changed.get_json()["finished_public"] is False
    assert public.get(f"/api/games/{game['id']}").get_json()["version"] == 1
    assert admin.put(f"/api/tournaments/{t['id']}/broadcast", json={"broadcast_delay": 0}).status_code == 200
    assert public.get(f"/api/games/{game['id']}").get_json()["status"] == "finished"  # no delay: all at once


@pytest.mark.parametrize("delay", [-1, 86_401, 1.5, "900", True, None])
def test_broadcast_delay_is_whole_seconds_from_none_to_a_day(tmp_path, delay):
    app = make_app(tmp_path / "bad.sqlite3")
    admin = app.test_client()
    body = {"name": "Mekelle Open", "variant": "qelat", "format": "round_robin", "broadcast_delay": delay}
    refused = admin.post("/api/tournaments", json=body)
    assert refused.status_code == 422 and "broadcast_delay" in refused.get_json()["errors"]
    t = admin.post("/api/tournaments", json={**body, "broadcast_delay": 900}).get_json()["id"]
    refused = admin.put(f"/api/tournaments/{t}/broadcast", json={"broadcast_delay": delay})
    assert refused.status_code == 422 and "broadcast_delay" in refused.get_json()["errors"]
    assert admin.get(f"/api/tournaments/{t}").get_json()["broadcast_delay"] == 900  # nothing stored


def test_only_the_tournaments_arbiters_and_the_admin_set_its_delay(clock_at_k):
    hall = clock_at_k
    path = f"/api/tournaments/{hall.t}/broadcast"
    assert hall.public.put(path, json={"broadcast_delay": 0}).status_code == 401
    assert hall.public.put(path, json={"broadcast_delay": 0}, headers=hall.stranger).status_code == 403
    same = {"broadcast_delay": DELAY, "finished_public": False}
    assert hall.public.put(path, json=same, headers=bearer(ADMIN_TOKEN)).status_code == 200
    # the hall's one game is over, so its tournament is finished: its arbiter's rights ended with it
    assert hall.public.put(path, json=same, headers=hall.arbiter).status_code == 403


def test_public_horizon_is_the_last_aged_event_and_never_hides_the_setup():
    assert public_horizon(0, False, False, 3) is None  # no delay
    assert public_horizon(900, True, True, 3) is None  # finished and public at once
    assert public_horizon(900, False, True, 3) == 3
    assert public_horizon(900, True, False, 0) == 1  # the pairing is public: so is the setup
    assert re.fullmatch(r"\d+", str(public_horizon(60, False, False, 12)))


def test_audit_reads_of_a_delayed_game_work_on_its_visible_events(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        assert hall.get(f"/api/games/{hall.game}/events/{hall.k}/trace", who).status_code == 200
        assert hall.get(f"/api/games/{hall.game}/events/{hall.k + 1}/trace", who).status_code == 404
        report = hall.get(f"/api/games/{hall.game}/verify", who).get_json()
        assert (report["ok"], report["version"], report["result"]) == (True, hall.k, None)
        assert report["head_hash"] == hall.events[hall.k - 1]["hash"]
    for who in hall.insiders:
        assert hall.get(f"/api/games/{hall.game}/events/{hall.k + 1}/trace", who).status_code == 200
        report = hall.get(f"/api/games/{hall.game}/verify", who).get_json()
        assert (report["ok"], report["version"]) == (True, hall.full)


def test_a_delayed_games_dossier_holds_only_what_the_reader_may_see(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:
        response = hall.get(f"/api/games/{hall.game}/dossier?moves={hall.k}", who)
        body = json.loads(response.get_data().split(b"\n")[1])
        assert [e["seq"] for e in body["events"]] == list(range(1, hall.k + 1))
        assert body["final"]["result"] is None and body["checkpoint"] is None  # the end is not public yet
        assert body["pairing_check"]["round"]["round"] == 1 and body["pairing_check"]["tournament_id"] == hall.t
        assert all(r["seq"] <= hall.k for r in body["clock_readings"])
        assert not failed(check(response.get_data()))
        assert hall.get(f"/api/games/{hall.game}/dossier?moves={hall.k + 1}", who).status_code == 404
    for who in hall.insiders:
        body = json.loads(hall.get(f"/api/games/{hall.game}/dossier", who).get_data().split(b"\n")[1])
        assert len(body["events"]) == hall.full and body["checkpoint"]["result"] == "north_wins"


def test_trf_of_a_delayed_tournament_holds_back_a_result_until_its_game_is_public(clock_at_k):
    hall = clock_at_k
    inside = hall.get(f"/api/tournaments/{hall.t}/trf", hall.arbiter).get_data(as_text=True)
    for who in hall.outsiders:
        assert hall.get(f"/api/tournaments/{hall.t}/trf", who).get_data(as_text=True) != inside
    hall.show_up_to(hall.full)
    for who in hall.outsiders:
        assert hall.get(f"/api/tournaments/{hall.t}/trf", who).get_data(as_text=True) == inside


def test_scoresheet_checkpoint_of_a_delayed_game_waits_for_its_end_to_be_public(clock_at_k):
    hall = clock_at_k
    for who in hall.outsiders:  # the public sees the game unfinished: no checkpoint to print yet
        assert hall.get(f"/api/games/{hall.game}/checkpoint.svg", who).status_code in (404, 409)
    for who in hall.insiders:
        assert hall.get(f"/api/games/{hall.game}/checkpoint.svg", who).status_code == 200
    hall.show_up_to(hall.full)
    for who in hall.outsiders:
        assert hall.get(f"/api/games/{hall.game}/checkpoint.svg", who).status_code == 200

"""Helpers for the tournament tests: an app with an admin token, and an organiser that
drives the API and fails loudly."""

import json

from conftest import FIXTURES

from recorder.app import create_app

ADMIN_TOKEN = "admin-token-for-tests"


def make_app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "tournament.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def fixture_commands(name: str) -> list[dict]:
    return json.loads((FIXTURES / "games" / f"{name}.json").read_text())["commands"]


class Organiser:
    """Drives the tournament API with one token (the admin's unless told otherwise)."""

    def __init__(self, client, token: str = ADMIN_TOKEN):
        self.client = client
        self.token = token

    def _call(self, method: str, url: str, expect: int, body=None):
        response = self.client.open(url, method=method, json=body, headers=bearer(self.token))
        assert response.status_code == expect, (method, url, body, response.get_json())
        return response.get_json()

    def create(self, expect=201, **body):
        return self._call("POST", "/api/tournaments", expect, body)

    def add_players(self, tournament_id: str, *players):
        """Each player a name or (name, rating); returns their numbers."""
        numbers = []
        for player in players:
            name, rating = (player, None) if isinstance(player, str) else player
            numbers.append(
                self._call("POST", f"/api/tournaments/{tournament_id}/players", 201, {"name": name, "rating": rating})[
                    "number"
                ]
            )
        return numbers

    def pair(self, tournament_id: str, expect=201, **body):
        return self._call("POST", f"/api/tournaments/{tournament_id}/rounds", expect, body)

    def start(self, tournament_id: str, round_number: int, board: int, expect=201, **body):
        url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/game"
        return self._call("POST", url, expect, body)

    def command(self, game_id: str, expect=201, **command):
        """A command at the game's current version, unless the test names one."""
        if "expected_version" not in command:
            command["expected_version"] = self.client.get(f"/api/games/{game_id}").get_json()["version"]
        return self._call("POST", f"/api/games/{game_id}/commands", expect, command)

    def play(self, game_id: str, commands: list[dict]):
        for command in commands:
            self.command(game_id, **command)

    def forfeit(self, tournament_id: str, round_number: int, board: int, result: str, expect=201):
        url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/result"
        return self._call("POST", url, expect, {"result": result})

    def get(self, url: str):
        response = self.client.get(url)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def standings(self, tournament_id: str) -> dict:
        return self.get(f"/api/tournaments/{tournament_id}/standings")

    def crosstable(self, tournament_id: str) -> dict:
        return self.get(f"/api/tournaments/{tournament_id}/crosstable")

    def issue_token(self, tournament_id: str, holder: str) -> dict:
        return self._call("POST", f"/api/tournaments/{tournament_id}/tokens", 201, {"holder": holder})


def seats(round_json: dict) -> list[tuple[int, int]]:
    """A round's boards as (south number, north number)."""
    return [(b["south"]["number"], b["north"]["number"]) for b in round_json["boards"]]


def table(standings: dict, *fields) -> list[tuple]:
    """(rank, number, points, tiebreak values in the order given) per player."""
    return [(s["rank"], s["number"], s["points"], *(s["tiebreaks"][f] for f in fields)) for s in standings["standings"]]

"""Merging a duplicate and withdrawing the merge (property, hypothesis).

World A records some tournaments with a duplicate record D of person 0; world B records
the same tournaments with person 0 himself wherever A used D. Merging D into person 0
must make every game, tournament, player record and rating list of A read as B's (as if
the duplicate had never existed); withdrawing the merge must make A read as it did
before. Players are compared by the name of the record their id answers with (ids are
random in each world)."""

import tempfile
from pathlib import Path

from conftest import make_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PERSONS = ["Abeba Tesfaye", "Berhane Kidane", "Chaltu Bekele", "Dawit Alemu", "Eleni Gebre"]
DUPLICATE = "Abeba Tesfay"  # person 0's second record
OUTCOMES = ("south", "north", None)  # a win either way, or a draw by agreement

tournament_plans = st.fixed_dictionaries(
    {
        "seats": st.permutations(range(len(PERSONS))).map(lambda p: list(p[:4])),
        "with_duplicate": st.booleans(),
        "results": st.lists(st.sampled_from(OUTCOMES), min_size=2, max_size=6),
    }
)


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


class World:
    def __init__(self, folder: Path, name: str):
        self.client = make_app(folder / f"{name}.sqlite3").test_client()
        self.ids = [self.register(person) for person in PERSONS]
        self.duplicate = self.register(DUPLICATE)
        self.tournaments: list[str] = []

    def register(self, name: str) -> str:
        return ok(self.client.post("/api/players", json={"name": name, "federation": "ETH", "force": True}))["id"]

    def play(self, plan: dict, use_duplicate: bool) -> None:
        body = {"name": f"Open {len(self.tournaments)}", "variant": "qelat", "format": "round_robin", "rated": True}
        tid = ok(self.client.post("/api/tournaments", json=body))["id"]
        self.tournaments.append(tid)
        for seat in plan["seats"]:
            player = self.duplicate if seat == 0 and use_duplicate else self.ids[seat]
            ok(self.client.post(f"/api/tournaments/{tid}/players", json={"player_id": player}))
        results = iter(plan["results"])
        for round_number in (1, 2, 3):
            boards = ok(self.client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]
            for board in boards:
                winner = next(results, "stop")
                if winner == "stop":
                    return
                url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board['board']}/game"
                game = ok(self.client.post(url, json={}))
                kind = "resignation" if winner else "agreement"
                command = {"type": "result", "kind": kind, "winner": winner, "expected_version": 1}
                ok(self.client.post(f"/api/games/{game['id']}/commands", json=command))

    def name_of(self, player_id: str | None) -> str | None:
        """The name of the record a player id answers with (the survivor of any merge)."""
        if player_id is None:
            return None
        record = ok(self.client.get(f"/api/players/{player_id}"))
        return (record["survivor"] or record)["name"]

    def view(self) -> dict:
        """Everything the property compares, players by their survivor's name."""
        tournaments = []
        for tid in self.tournaments:
            t = ok(self.client.get(f"/api/tournaments/{tid}"))
            names = {p["number"]: self.name_of(p["player_id"]) for p in t["players"]}
            standings = ok(self.client.get(f"/api/tournaments/{tid}/standings"))["standings"]
            games = [
                (names[b["south"]["number"]], names[b["north"]["number"]], b.get("result"))
                for r in t["rounds"]
                for b in r["boards"]
            ]
            tournaments.append({"standings": [(names[s["number"]], s["points"]) for s in standings], "games": games})
        ratings = sorted(  # by name: the order of players of equal rating follows their random ids
            (self.name_of(e["id"]), e["rank"], e["rating"], e["rd"], e["volatility"], e["games"], e["provisional"])
            for e in ok(self.client.get("/api/ratings/qelat"))["players"]
        )
        person = ok(self.client.get(f"/api/players/{self.ids[0]}"))
        record = sorted((self.name_of(g["opponent_id"]), g["score"]) for g in person["games"])
        return {"tournaments": tournaments, "ratings": ratings, "person_0": (len(person["tournaments"]), record)}


@settings(derandomize=True, max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tournament_plans, min_size=1, max_size=3))
def test_a_merge_reads_as_if_the_duplicate_never_existed_and_its_withdrawal_as_before(plans):
    with tempfile.TemporaryDirectory() as folder:
        a, b = World(Path(folder), "a"), World(Path(folder), "b")
        for plan in plans:
            a.play(plan, use_duplicate=plan["with_duplicate"])
            b.play(plan, use_duplicate=False)
        before = a.view()
        ok(a.client.post(f"/api/players/{a.duplicate}/merge", json={"into": a.ids[0]}))
        assert a.view() == b.view()
        ok(a.client.post(f"/api/players/{a.duplicate}/merge/withdrawal", json={}))
        assert a.view() == before

"""A team round's proposal (POST …/rounds/proposal) shows the boards a line-up leaves empty as
the pairing will store them, so the console shows them with the pairing before it is published."""

from __future__ import annotations

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, make_app


@pytest.fixture
def admin(tmp_path):
    return Organiser(make_app(tmp_path).test_client(), ADMIN_TOKEN)


def test_a_team_rounds_proposal_names_its_empty_boards_as_the_pairing_stores_them(admin):
    t = admin.create(name="League", variant="qelat", format="team_round_robin", team_boards=2)["id"]
    for number in (1, 2):
        bodies = [{"name": f"Team {number} member {k}", "federation": "ERI"} for k in (1, 2)]
        ids = [admin._call("POST", "/api/players", 201, body)["id"] for body in bodies]
        team = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "ERI", "players": ids}
        admin._call(
            "POST", f"/api/tournaments/{t}/teams", 201, {"team_id": admin._call("POST", "/api/teams", 201, team)["id"]}
        )
    admin._call("POST", f"/api/tournaments/{t}/rounds/1/lineups", 201, {"team": 2, "players": [3, None]})
    proposed = admin._call("POST", f"/api/tournaments/{t}/rounds/proposal", 200, {})
    paired = admin._call("POST", f"/api/tournaments/{t}/rounds", 201, {})
    stored = admin.get(f"/api/tournaments/{t}/rounds/1")["empty_boards"]
    seats = lambda boards: [  # noqa: E731
        (e["board"], *(e[side] and e[side]["number"] for side in ("south", "north")), e["result"]) for e in boards
    ]
    assert seats(proposed["empty_boards"]) == seats(stored) and len(stored) == 1
    assert [b["board"] for b in proposed["boards"]] == [b["board"] for b in paired["boards"]]

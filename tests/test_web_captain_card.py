"""A team captain's card: the sign-in the console issues carries the address of the
captain's page (the token in its fragment, which no browser sends to a server) and that
address as a QR code, as a player's badge does; the page itself is served in every language."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, make_app


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def team_event(admin) -> str:
    t = admin.create(name="League", variant="qelat", format="team_round_robin", team_boards=2)["id"]
    for number in (1, 2):
        ids = [
            admin._call("POST", "/api/players", 201, {"name": f"Team {number} member {k}", "federation": "ERI"})["id"]
            for k in (1, 2)
        ]
        team = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "ERI", "players": ids}
        admin._call(
            "POST", f"/api/tournaments/{t}/teams", 201, {"team_id": admin._call("POST", "/api/teams", 201, team)["id"]}
        )
    return t


def test_a_captains_signin_carries_his_pages_address_with_the_token_in_its_fragment_and_its_qr(client):
    admin = Organiser(client, ADMIN_TOKEN)
    t = team_event(admin)
    signin = admin._call("POST", f"/api/tournaments/{t}/teams/2/captain-signin", 201, {})
    address = urlsplit(signin["address"])
    assert address.path == f"/tournaments/{t}/teams/2/captain" and address.query == ""
    assert address.fragment == f"token={signin['token']}"
    assert signin["qr_svg"].startswith("<svg") and "<script" not in signin["qr_svg"]


@pytest.mark.parametrize("language", ["ti", "am", "en"])
def test_the_captains_page_is_served_in_the_readers_language_for_his_team(client, language):
    page = client.get("/tournaments/t-1/teams/2/captain", headers={"Accept-Language": language})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'lang="{language}"' in html and 'data-team="2"' in html

"""Board sign-in cards in Chromium: the arbiter issues a round's cards on the printable
page, and a tablet that opens a card's address (its QR code) is signed in for that board,
starts its game and lands on it; the token travels in the address's fragment only."""

from __future__ import annotations

import json

import pytest
from browser import LiveServer, launch_chromium

playwright_api = pytest.importorskip("playwright.sync_api")

from conftest import ADMIN, make_app  # noqa: E402


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("cards") / "cards.sqlite3"))
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        server.client = app.test_client()
        server.browser = browser
        yield server
        browser.close()
    app.extensions["recorder"].store.close()


def hall(client) -> str:
    body = {"name": "Mekelle Club", "variant": "gabata", "format": "manual", "rounds": 1}
    tid = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for name in ("Abeba", "Berhane", "Chaltu", "Dawit"):
        assert client.post(f"/api/tournaments/{tid}/players", headers=ADMIN, json={"name": name}).status_code == 201
    pairing = {"boards": [{"south": 1, "north": 2}, {"south": 3, "north": 4}]}
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json=pairing).status_code == 201
    return tid


def signed_in_as(context, url: str, token: str):
    page = context.new_page()
    page.goto(url)
    page.evaluate("token => localStorage.setItem('recorder.token', token)", token)
    page.goto(url)
    return page


def test_cards_issued_on_the_page_sign_a_tablet_in_for_its_board_and_open_its_game(web):
    tid = hall(web.client)
    arbiter = web.browser.new_context(base_url=web.url)
    errors: list[str] = []
    page = signed_in_as(arbiter, f"/tournaments/{tid}/rounds/1/signin-cards", ADMIN["Authorization"][7:])
    page.on("pageerror", lambda error: errors.append(str(error)))
    with page.expect_response(lambda r: r.url.endswith("/rounds/1/signins") and r.request.method == "POST") as issued:
        page.click("#cards-issue")
    signins = json.loads(issued.value.text())["signins"]
    page.wait_for_selector(".signin-card >> nth=1")
    assert page.locator(".signin-card h2").all_inner_texts() == ["Board 1 · round 1", "Board 2 · round 1"]
    assert page.locator(".signin-card img.card-qr").count() == 2 and page.is_visible("#cards-print")
    assert errors == []

    card = signins[1]
    assert card["address"].startswith(f"{web.url}/sign-in#token=")
    tablet = web.browser.new_context(base_url=web.url)
    requested: list[str] = []
    tablet.on("request", lambda request: requested.append(request.url))
    opened = tablet.new_page()
    opened.goto(card["address"])
    opened.wait_for_url(f"**/games/{card['game_id']}", timeout=15_000)
    assert opened.evaluate("localStorage.getItem('recorder.token')") == card["token"]
    opened.wait_for_function("() => document.getElementById('signed-in').textContent.includes('board')")
    said = opened.inner_text("#signed-in")
    assert said == "Signed in: Board 2 of round 1 of Mekelle Club, to record that board's game only"
    assert web.client.get(f"/api/games/{card['game_id']}").status_code == 200  # started by the tablet
    events = web.client.get(f"/api/games/{card['game_id']}/events").get_json()["events"]
    assert events[0]["recorded_by"] == "Board 2 of round 1"
    assert not any(card["token"] in url for url in requested)  # the fragment is never sent
    tablet.close()
    arbiter.close()


@pytest.mark.parametrize("target", ["//example.com/", "/\t/example.com/", "https://example.com/", "/games/x/../../y"])
def test_a_sign_in_address_leads_to_no_other_site(web, target):
    tid = hall(web.client)
    signins = web.client.post(f"/api/tournaments/{tid}/rounds/1/signins", headers=ADMIN, json={}).get_json()
    token = signins["signins"][0]["token"]
    tablet = web.browser.new_context(base_url=web.url)
    page = tablet.new_page()
    page.goto(f"/sign-in#token={token}&next={target}")
    page.wait_for_url(f"{web.url}/", timeout=15_000)
    assert page.evaluate("localStorage.getItem('recorder.token')") == token
    tablet.close()


def test_an_unknown_sign_in_is_refused_and_nothing_kept(web):
    tablet = web.browser.new_context(base_url=web.url)
    page = tablet.new_page()
    page.goto("/sign-in#token=rt_unknown&next=/games/x")
    page.wait_for_function("() => document.getElementById('sign-in-status').textContent.includes('not valid')")
    assert page.evaluate("localStorage.getItem('recorder.token')") is None
    assert page.evaluate("window.location.hash") == ""  # taken out of the address bar at once
    tablet.close()

"""The bracket page in Chromium: a knock-out's tree that redraws itself when a result is
recorded on a match's board, in the reader's language, at a phone's and a desk's width."""

from __future__ import annotations

import os

import pytest
from browser import CHROMIUM, LiveServer, launch_chromium, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import make_app  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
PLAYERS = [("Abeba", 2300), ("Berhane", 2200), ("Chaltu", 2100), ("Dawit", 2000)]


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    database = str(tmp_path_factory.mktemp("bracket") / "bracket.sqlite3")
    app = make_app(database)  # its test client writes as the admin
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def post(client, url: str, body: dict) -> dict:
    response = client.post(url, json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def semi_finals(client) -> tuple[str, dict]:
    """A knock-out of four, its first games paired: (its id, the round)."""
    body = {"name": "Keren Cup", "variant": "qelat", "format": "knockout", "knockout": {"match_games": 2}}
    t = post(client, "/api/tournaments", body)["id"]
    for name, rating in PLAYERS:
        post(client, f"/api/tournaments/{t}/players", {"name": name, "rating": rating})
    return t, post(client, f"/api/tournaments/{t}/rounds", {})


def resign_south(client, t: str, board: int) -> None:
    game = post(client, f"/api/tournaments/{t}/rounds/1/boards/{board}/game", {})
    command = {"type": "result", "kind": "resignation", "winner": "north", "expected_version": game["version"]}
    post(client, f"/api/games/{game['id']}/commands", command)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390", "1280"])
def test_the_bracket_page_updates_live_when_a_match_games_result_is_recorded(web, viewport):
    t, paired = semi_finals(web.client)
    with watched_page(web.browser, viewport=viewport, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/bracket")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        assert page.text_content("#bracket-title") == "Keren Cup"
        stages = page.locator(".bracket-stage h3").all_inner_texts()
        assert stages == ["Semi-finals", "Final"]
        first = page.locator(".bracket-match[data-stage='1'][data-match='1']")
        assert first.locator(".name").all_inner_texts() == ["Abeba", "Dawit"]
        assert first.locator(".score").all_inner_texts() == ["", ""]
        page.wait_for_selector("#bracket-page[data-live=true]")  # what is recorded from now on is seen
        updates = int(page.get_attribute("#bracket-page", "data-updates"))

        resign_south(web.client, t, 1)  # Abeba, South in game 1, resigns to Dawit
        page.wait_for_function(f"() => Number(document.querySelector('#bracket-page').dataset.updates) > {updates}")
        game_link = "document.querySelector(\".bracket-match[data-match='1'] .bracket-games a\")"
        page.wait_for_function(f"() => {game_link}?.textContent.endsWith('0–1')")
        assert first.locator(".score").all_inner_texts() == ["0", "1"]
        assert first.locator(".bracket-games a").get_attribute("data-game") == paired["boards"][0]["game_id"]
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"]  # the tree scrolls inside its panel, never the page


def test_each_stage_links_the_other_the_swiss_its_knockout_and_the_knockout_its_swiss(web):
    swiss = post(
        web.client, "/api/tournaments", {"name": "Keren Swiss", "variant": "qelat", "format": "swiss", "rounds": 1}
    )
    for name, rating in PLAYERS:
        post(web.client, f"/api/tournaments/{swiss['id']}/players", {"name": name, "rating": rating})
    paired = post(web.client, f"/api/tournaments/{swiss['id']}/rounds", {})
    for board in paired["boards"]:
        post(web.client, f"/api/tournaments/{swiss['id']}/rounds/1/boards/{board['board']}/result", {"result": "draw"})
    ko = post(web.client, "/api/tournaments", {"name": "Keren Cup", "variant": "qelat", "format": "knockout"})["id"]
    post(web.client, f"/api/tournaments/{ko}/knockout/seeding", {"source": swiss["id"], "qualifiers": 4})
    with watched_page(web.browser, viewport=DESK, base_url=web.url) as page:
        page.goto(f"/tournaments/{ko}/bracket")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        assert page.text_content("#bracket-source-link") == "Keren Swiss"
        assert page.get_attribute("#bracket-source-link", "href") == f"/tournaments/{swiss['id']}"
        page.goto(f"/tournaments/{swiss['id']}")
        page.wait_for_selector("#tournament-page[data-ready=true]")
        page.click(f"#next-stages a[data-stage='{ko}']")  # the stage before names the next
        page.wait_for_selector("#bracket-page[data-ready=true]")
        page.goto(f"/tournaments/{ko}")
        page.wait_for_selector("#tournament-page[data-ready=true]")
        page.click("#bracket-link")
        page.wait_for_selector("#bracket-page[data-ready=true]")


@pytest.mark.parametrize("language", ["ti", "am"])
def test_the_bracket_page_speaks_tigrinya_and_amharic(web, language):
    t, _paired = semi_finals(web.client)
    with watched_page(web.browser, viewport=DESK, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/bracket?lang={language}")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        english = ["Semi-finals", "Final", "Playing its games", "Game 1", "Bye", "games a match"]
        text = page.inner_text("body")
        assert not [word for word in english if word in text], text


def test_the_embedded_bracket_may_be_framed_and_opens_its_games_in_a_new_tab(web):
    t, paired = semi_finals(web.client)
    response = web.client.get(f"/embed/tournaments/{t}/bracket")
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]
    with watched_page(web.browser, viewport=PHONE, base_url=web.url) as page:
        page.goto(f"/embed/tournaments/{t}/bracket")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        assert page.text_content("#bracket-title") == "Keren Cup"
        assert page.get_attribute("#bracket-title", "href") == f"/tournaments/{t}/bracket"
        page.wait_for_selector("#bracket-page[data-live=true]")
        resign_south(web.client, t, 2)
        link = page.locator(f"a[data-game='{paired['boards'][1]['game_id']}']")
        link.wait_for()
        assert link.get_attribute("target") == "_blank"
        assert page.locator("header, nav").count() == 0  # no site around it


def test_a_sixteen_player_bracket_prints_on_an_a4_page_width_without_cutting_a_stage(web):
    body = {"name": "Asmara Cup", "variant": "qelat", "format": "knockout"}
    t = post(web.client, "/api/tournaments", body)["id"]
    for i in range(16):
        post(web.client, f"/api/tournaments/{t}/players", {"name": f"Player {i + 1}", "rating": 2400 - i})
    post(web.client, f"/api/tournaments/{t}/rounds", {})
    a4 = {"width": 794, "height": 1123}  # A4 at 96 px an inch
    with watched_page(web.browser, viewport=a4, base_url=web.url) as page:
        page.emulate_media(media="print")
        page.goto(f"/tournaments/{t}/bracket")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        assert page.locator(".bracket-match").count() == 8 + 4 + 2 + 1
        edges = "[...document.querySelectorAll('.bracket-match')].map((m) => m.getBoundingClientRect().right)"
        rightmost = page.evaluate(f"() => Math.max(...{edges})")
        assert rightmost <= a4["width"]

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
        post(
            web.client,
            f"/api/tournaments/{swiss['id']}/rounds/1/boards/{board['board']}/result",
            {"result": "draw", "kind": "played"},
        )
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


# --------------------------------------------------------------------------- the check, whole


def play(client, t: str, paired: dict, winner_of) -> list[dict]:
    """Every board of a paired round: ``winner_of(south, north)`` names the winning entrant
    number (the loser resigns), or None for a draw agreed. The games as created."""
    games = []
    for board in paired["boards"]:
        game = post(client, f"/api/tournaments/{t}/rounds/{paired['round']}/boards/{board['board']}/game", {})
        south, north = board["south"]["number"], board["north"]["number"]
        won = winner_of(south, north)
        result = {"kind": "agreement", "winner": None}
        if won is not None:
            result = {"kind": "resignation", "winner": "south" if won == south else "north"}
        command = {"type": "result", **result, "expected_version": game["version"]}
        post(client, f"/api/games/{game['id']}/commands", command)
        games.append(game)
    return games


def swiss_of_sixteen(client) -> str:
    """A finished three-round Swiss of sixteen, the lower starting number winning every game."""
    body = {"name": "Massawa Open", "variant": "qelat", "format": "swiss", "rounds": 3}
    swiss = post(client, "/api/tournaments", body)["id"]
    for i in range(16):
        post(client, f"/api/tournaments/{swiss}/players", {"name": f"Entrant {chr(ord('A') + i)}", "rating": 2400 - i})
    for _ in range(3):
        play(client, swiss, post(client, f"/api/tournaments/{swiss}/rounds", {}), min)
    return swiss


def wait_for_match(page, stage: int, match: int, state: str) -> None:
    selector = f".bracket-match[data-stage='{stage}'][data-match='{match}'][data-state='{state}']"
    page.wait_for_selector(selector)


def test_a_sixteen_player_knockout_seeded_from_a_swiss_runs_to_its_champion_and_its_bracket_page_follows_live(web):
    """Two-game matches, play-offs at their own clocks and one lot, seeded from a Swiss stage,
    through the API to the champion, the bracket page open in Chromium from the knock-out's
    creation to its end and never reloaded."""
    client = web.client
    swiss = swiss_of_sixteen(client)
    standings = client.get(f"/api/tournaments/{swiss}/standings").get_json()["standings"]
    clocks = {"stages": [{"base_ms": 600_000, "increment_ms": 10_000}]}
    settings = {"match_games": 2, "playoff_games": 2, "playoff_time_control": clocks}
    body = {"name": "Massawa Cup", "variant": "qelat", "format": "knockout", "knockout": settings}
    ko = post(client, "/api/tournaments", body)["id"]
    with watched_page(web.browser, viewport=DESK, base_url=web.url) as page:
        page.goto(f"/tournaments/{ko}/bracket")
        page.wait_for_selector("#bracket-page[data-live=true]")
        page.evaluate("() => { window.neverReloaded = true; }")

        post(client, f"/api/tournaments/{ko}/knockout/seeding", {"source": swiss, "qualifiers": 16})
        page.wait_for_function("() => document.querySelectorAll(\".bracket-match[data-stage='1']\").length === 8")
        first = page.locator(".bracket-match[data-stage='1'][data-match='1'] .name").all_inner_texts()
        top, bottom = (s["number"] for s in (standings[0], standings[15]))
        players = client.get(f"/api/tournaments/{swiss}").get_json()["players"]
        assert first == [players[top - 1]["name"], players[bottom - 1]["name"]]  # 1 v 16, the Swiss's places
        # The stage's name is read after the tree is drawn: wait for it, not for the tree.
        page.wait_for_function("() => document.querySelector('#bracket-source-link').textContent === 'Massawa Open'")

        # Round of 16: each player wins his game as South, so every match is level 1-1.
        for _ in range(2):
            play(client, ko, post(client, f"/api/tournaments/{ko}/rounds", {}), lambda s, n: s)
        for match in range(1, 9):
            wait_for_match(page, 1, match, "playoff")
        # The play-offs: the higher seed (the lower number) wins both, but 8 v 9 is drawn twice.
        for _ in range(2):
            paired = post(client, f"/api/tournaments/{ko}/rounds", {})
            games = play(client, ko, paired, lambda s, n: None if {s, n} == {8, 9} else min(s, n))
            assert all(game["metadata"]["time_control"] == clocks for game in games)  # the play-off's clocks
        wait_for_match(page, 1, 2, "lot")
        post(client, f"/api/tournaments/{ko}/knockout/lots", {"stage": 1, "match": 2, "winner": 9})
        wait_for_match(page, 1, 2, "won")
        assert "Won by lot" in page.text_content(".bracket-match[data-stage='1'][data-match='2'] .match-state")

        # Quarter-finals to the final: the higher seed wins both games.
        while client.get(f"/api/tournaments/{ko}/bracket").get_json()["status"] != "finished":
            play(client, ko, post(client, f"/api/tournaments/{ko}/rounds", {}), min)
        champion = players[top - 1]["name"]
        page.wait_for_function(f"() => document.querySelector('#bracket-champion').textContent.includes('{champion}')")
        assert page.is_visible("#bracket-champion")
        wait_for_match(page, 4, 1, "won")
        quarter_finals = page.locator(".bracket-match[data-stage='2'] .seed").all_inner_texts()
        assert quarter_finals == ["1", "9", "4", "5", "2", "7", "3", "6"]  # seed 9 went through by lot
        assert page.evaluate("() => window.neverReloaded") is True  # every change came by the live stream


def test_the_bracket_page_names_a_registry_player_in_both_scripts(web):
    abeba = post(web.client, "/api/players", {"name": "Abeba Tesfaye", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI"})
    body = {"name": "Keren Cup", "variant": "qelat", "format": "knockout", "knockout": {"match_games": 1}}
    t = post(web.client, "/api/tournaments", body)["id"]
    post(web.client, f"/api/tournaments/{t}/players", {"player_id": abeba["id"]})
    post(web.client, f"/api/tournaments/{t}/players", {"name": "Dawit", "rating": 1900})
    paired = post(web.client, f"/api/tournaments/{t}/rounds", {})
    play(web.client, t, paired, lambda south, north: 1)  # Abeba, entrant 1, wins the final
    with watched_page(web.browser, viewport=PHONE, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/bracket")
        page.wait_for_selector("#bracket-page[data-ready=true]")
        names = page.locator(".bracket-match .name").all_inner_texts()
        assert names == ["Dawit", "Abeba Tesfaye (ኣበባ ተስፋይ)"]  # Dawit, rated, is seed 1
        assert page.get_attribute(".bracket-match .name-geez", "lang") == ""  # an English page: no known language
        assert page.text_content("#bracket-champion") == "Champion: Abeba Tesfaye (ኣበባ ተስፋይ)"

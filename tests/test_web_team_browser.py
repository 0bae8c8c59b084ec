"""A team event's public page, its printout and its embed in Chromium: the team standings
and each round's match sheets in Tigrinya, following a result recorded on a board without
a reload, at a phone's and a desk's width with nothing wider than the screen; the print to
PDF on A4 (the standings, the board prizes, then a page a round); the embedded team
standings, live."""

from __future__ import annotations

import os
import re

import pytest
from browser import CHROMIUM, served_with_chromium, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import make_app  # noqa: E402
from test_web_console_browser import scan  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
A4 = {"width": 794, "height": 1123}  # A4 at 96 px an inch
BOARDS = 2
TEAMS = [
    ("Asmara Lions", "ኣስመራ ኣናብስ", [("Abeba Tesfaye", "ኣበባ ተስፋይ"), ("Berhane Kidane", "ብርሃነ ኪዳነ")]),
    ("Keren Stars", "ከረን ኮኾብ", [("Chaltu Bekele", "ጫልቱ በቀለ"), ("Dawit Alemu", "ዳዊት ኣለሙ")]),
    ("Massawa Hawks", "ምጽዋዕ ስልማት", [("Eleni Gebre", "ኤለኒ ገብረ"), ("Fikre Woldu", "ፍቕረ ወልዱ")]),
    ("Mendefera United", "መንደፈራ ሕቡራት", [("Genet Haile", "ገነት ሃይለ"), ("Habtom Tekle", "ሃብቶም ተኽለ")]),
]
ROUND_1 = ["south_wins", "draw", "north_wins", "north_wins"]


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("teams") / "teams.sqlite3"))  # its test client writes as the admin
    with served_with_chromium(app) as server:
        yield server


def post(client, url: str, body: dict) -> dict:
    response = client.post(url, json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def enter_teams(client, t: str, teams) -> None:
    """Each team registered with its players, named in both scripts, and entered in event ``t``."""
    for name, geez, players in teams:
        ids = [
            post(client, "/api/players", {"name": n, "name_geez": g, "federation": "ERI", "force": True})["id"]
            for n, g in players
        ]
        team = post(client, "/api/teams", {"name": name, "name_geez": geez, "federation": "Maekel", "players": ids})
        post(client, f"/api/tournaments/{t}/teams", {"team_id": team["id"]})


def team_event(client) -> str:
    """Four registry teams of two boards, named in both scripts: round 1 played, round 2
    paired with no result yet."""
    t = post(client, "/api/tournaments", {"name": "ዋንጫ ጋንታታት", "variant": "qelat", "format": "team_round_robin",
                                          "team_boards": BOARDS})["id"]  # fmt: skip
    enter_teams(client, t, TEAMS)
    paired = post(client, f"/api/tournaments/{t}/rounds", {})
    for board, result in zip(paired["boards"], ROUND_1, strict=True):
        post(
            client,
            f"/api/tournaments/{t}/rounds/1/boards/{board['board']}/result",
            {"result": result, "kind": "played"},
        )
    post(client, f"/api/tournaments/{t}/rounds", {})
    return t


def resign(client, t: str, round_number: int, board: int, winner: str) -> str:
    """The board's game created and resigned: ``winner`` is the seat that wins. Its id."""
    game = post(client, f"/api/tournaments/{t}/rounds/{round_number}/boards/{board}/game", {})
    command = {"type": "result", "kind": "resignation", "winner": winner, "expected_version": game["version"]}
    post(client, f"/api/games/{game['id']}/commands", command)
    return game["id"]


def names(client, t: str) -> set[str]:
    """What the language scan leaves: the tournament's, teams' and players' Latin names."""
    event = client.get(f"/api/tournaments/{t}").get_json()
    return {t, event["name"], *(team["name"] for team in event["teams"]), *(p["name"] for p in event["players"])}


def shown_standings(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#team-standings tbody tr", "(rows) => rows.map((r) => [r.dataset.team, r.cells[0].textContent])"
    )


def expected_standings(client, t: str) -> list[list[str]]:
    rows = client.get(f"/api/tournaments/{t}/team-standings").get_json()["standings"]
    return [[str(row["team"]["number"]), str(row["rank"])] for row in rows]


BOARD_PRIZES_SHOWN = """() => [...document.querySelectorAll('.board-prize')].map((b) =>
  [...b.querySelectorAll('tbody tr')].map((r) => [Number(r.dataset.player), r.cells[0].textContent]))"""


def expected_board_prizes(client, t: str) -> list[list[list]]:
    boards = client.get(f"/api/tournaments/{t}/board-prizes").get_json()["boards"]
    return [[[p["number"], "" if p["rank"] is None else str(p["rank"])] for p in board["players"]] for board in boards]


def board_prizes_followed(page, client, t: str) -> None:
    """The board prizes shown are the API's: each board's players in its order, their ranks."""
    page.wait_for_function(
        f"(expected) => JSON.stringify(({BOARD_PRIZES_SHOWN})()) === JSON.stringify(expected)",
        arg=expected_board_prizes(client, t),
    )


def no_wider_than_the_screen(page, viewport: dict) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]


def updated_after(page, before: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#team-page').dataset.updates) > {before}")


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390", "1280"])
def test_the_team_page_in_tigrinya_follows_a_result_recorded_on_a_board_without_a_reload(web, viewport):
    client = web.client
    t = team_event(client)
    with watched_page(web.browser, viewport=viewport, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}")
        page.wait_for_selector("#tournament-page[data-ready=true]")
        page.click("#team-link")
        page.wait_for_selector("#team-page[data-ready=true]")
        page.goto(f"/tournaments/{t}/teams?lang=ti")
        page.wait_for_selector("#team-page[data-live=true]")
        assert page.text_content("#team-title") == "ዋንጫ ጋንታታት"
        assert shown_standings(page) == expected_standings(client, t)
        first = page.locator(".team-round[data-round='2'] .team-match[data-match='1']")
        assert first.get_attribute("data-complete") == "false"
        assert "ኣስመራ ኣናብስ" in page.inner_text("#team-standings")  # both scripts, as bothNames gives them
        assert page.locator(".team-round").count() == 2 and page.locator(".team-match").count() == 4
        board_prizes_followed(page, client, t)
        assert page.locator(".board-prize").count() == BOARDS
        scan(page, "ti", names(client, t))
        no_wider_than_the_screen(page, viewport)

        matches = client.get(f"/api/tournaments/{t}/team-matches").get_json()["rounds"][1]["matches"]
        boards = [board["board"] for board in matches[0]["boards"]]
        before = int(page.get_attribute("#team-page", "data-updates"))
        game_id = resign(client, t, 2, boards[0], "south")
        updated_after(page, before)
        link = first.locator(f"a[data-game='{game_id}']")
        link.wait_for()
        assert first.locator(f"tr[data-board='{boards[0]}'] td.result").inner_text() in ("1–0", "0–1")
        before = int(page.get_attribute("#team-page", "data-updates"))
        post(client, f"/api/tournaments/{t}/rounds/2/boards/{boards[1]}/result", {"result": "draw", "kind": "played"})
        updated_after(page, before)
        page.wait_for_selector(".team-round[data-round='2'] .team-match[data-match='1'][data-complete='true']")
        page.wait_for_function(
            "(expected) => JSON.stringify([...document.querySelectorAll('#team-standings tbody tr')]"
            ".map((r) => [r.dataset.team, r.cells[0].textContent])) === JSON.stringify(expected)",
            arg=expected_standings(client, t),
        )
        board_prizes_followed(page, client, t)  # the resigned game counts on its board
        scan(page, "ti", names(client, t))
        no_wider_than_the_screen(page, viewport)
        link.click()
        page.wait_for_url(f"**/games/{game_id}")


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_the_team_standings_the_board_prizes_and_a_match_sheet_a_round_print_to_a4(web, tmp_path):
    client = web.client
    t = team_event(client)
    with watched_page(web.browser, viewport=A4, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/teams?lang=ti")
        page.wait_for_selector("#team-page[data-ready=true]")
        page.emulate_media(media="print")
        assert page.is_hidden("#team-print") and page.is_hidden("header.site")
        widest = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('table')].map((t) => t.getBoundingClientRect().right))"
        )
        assert widest <= A4["width"]
        pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF")
    assert pdf_pages(pdf) == 1 + 1 + 2  # the standings, the board prizes, then a page a round's match sheets
    (tmp_path / "teams.pdf").write_bytes(pdf)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390", "1280"])
def test_the_embedded_team_standings_may_be_framed_follow_live_and_open_the_team_page_in_a_new_tab(web, viewport):
    client = web.client
    t = team_event(client)
    response = client.get(f"/embed/tournaments/{t}/team-standings")
    assert "frame-ancestors 'self'" in response.headers["Content-Security-Policy"]
    with watched_page(web.browser, viewport=viewport, base_url=web.url) as page:
        page.goto(f"/embed/tournaments/{t}/team-standings?lang=am")
        page.wait_for_selector("#team-page[data-live=true]")
        assert page.get_attribute("#team-title", "href") == f"/tournaments/{t}/teams"
        assert page.get_attribute("#team-title", "target") == "_blank"
        assert page.locator("header, nav, .team-round").count() == 0  # the standings alone, no site around them
        assert shown_standings(page) == expected_standings(client, t)
        scan(page, "am", names(client, t))
        no_wider_than_the_screen(page, viewport)
        matches = client.get(f"/api/tournaments/{t}/team-matches").get_json()["rounds"][1]["matches"]
        before = int(page.get_attribute("#team-page", "data-updates"))
        for board in matches[1]["boards"]:
            post(
                client,
                f"/api/tournaments/{t}/rounds/2/boards/{board['board']}/result",
                {"result": "south_wins", "kind": "played"},
            )
        updated_after(page, before)
        page.wait_for_function(
            "(played) => [...document.querySelectorAll('#team-standings tbody tr')]"
            ".some((r) => r.lastChild.textContent === played)",
            arg="2",
        )


def test_the_team_page_of_a_tournament_not_of_teams_says_so(web):
    t = post(web.client, "/api/tournaments", {"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 3})["id"]
    with watched_page(web.browser, viewport=DESK, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/teams")
        page.wait_for_selector("#team-page[data-ready=error]")
        assert page.text_content("#team-title") == f"There is no team event {t}"


def test_a_team_event_of_three_ranked_by_game_points_first_shows_its_order_and_the_team_with_the_round_off(web):
    client = web.client
    body = {"name": "ዋንጫ ሰለስተ", "variant": "qelat", "format": "team_round_robin", "team_boards": BOARDS}
    t = post(client, "/api/tournaments", {**body, "team_tiebreaks": ["GPTS", "MPTS", "SB:GP"]})["id"]
    enter_teams(client, t, TEAMS[:3])
    post(client, f"/api/tournaments/{t}/rounds", {})
    off_team = client.get(f"/api/tournaments/{t}/team-matches").get_json()["rounds"][0]["off"]
    with watched_page(web.browser, viewport=PHONE, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}/teams?lang=am")
        page.wait_for_selector("#team-page[data-ready=true]")
        codes = page.eval_on_selector_all(
            "#team-standings tbody tr:first-child td[data-code]", "(tds) => tds.map((td) => td.dataset.code)"
        )
        assert codes == ["GPTS", "MPTS", "SB:GP"]
        assert off_team["name_geez"] in page.inner_text(".team-round[data-round='1'] > p.hint")
        scan(page, "am", names(client, t))
        no_wider_than_the_screen(page, PHONE)


def test_a_team_swiss_links_its_team_page_whose_match_sheets_are_its_pairings(web):
    client = web.client
    body = {"name": "ስዊስ ጋንታታት", "variant": "qelat", "format": "team_swiss", "rounds": 3, "team_boards": BOARDS}
    t = post(client, "/api/tournaments", body)["id"]
    enter_teams(client, t, TEAMS)
    post(client, f"/api/tournaments/{t}/rounds", {})
    matches = client.get(f"/api/tournaments/{t}/team-matches").get_json()["rounds"][0]["matches"]
    with watched_page(web.browser, viewport=PHONE, base_url=web.url) as page:
        page.goto(f"/tournaments/{t}?lang=ti")
        page.wait_for_selector("#tournament-page[data-ready=true]")
        page.click("#team-link")
        page.wait_for_selector("#team-page[data-ready=true]")
        assert page.locator(".team-round[data-round='1'] .team-match").count() == len(matches) == 2
        scan(page, "ti", names(client, t))
        no_wider_than_the_screen(page, PHONE)

"""Print-ready lists (/tournaments/<id>/print): pairings, standings, crosstable printed to
PDF by Chromium: A4, one page per 40 rows, black on white."""

from __future__ import annotations

import re

import pytest
from browser import LiveServer, launch_chromium

playwright_api = pytest.importorskip("playwright.sync_api")

from conftest import ADMIN, make_app  # noqa: E402

PLAYERS = 90  # 45 boards: a full page of 40 and a second one


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("print") / "print.sqlite3"))
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        server.client = app.test_client()
        server.browser = browser
        server.tournament = make_swiss(server.client)
        yield server
        browser.close()
    app.extensions["recorder"].store.close()


def make_swiss(client) -> str:
    body = {"name": "Adama Open", "variant": "qelat", "format": "swiss", "rounds": 5, "site": "Adama"}
    tid = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for n in range(1, PLAYERS + 1):
        player = {"name": f"Player {n:02d}", "rating": 2400 - 5 * n, "federation": "ETH"}
        assert client.post(f"/api/tournaments/{tid}/players", headers=ADMIN, json=player).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json={}).status_code == 201
    for board in range(1, PLAYERS // 2 + 1):
        url = f"/api/tournaments/{tid}/rounds/1/boards/{board}/result"
        assert client.post(url, headers=ADMIN, json={"result": "south_wins"}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json={}).status_code == 201
    return tid


def printed(web, query: str) -> tuple[bytes, object]:
    context = web.browser.new_context(base_url=web.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/tournaments/{web.tournament}/print?{query}")
    page.wait_for_selector("#print-page[data-ready=true]", timeout=10_000)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True)
    return pdf, (page, context, errors)


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def close(handle) -> None:
    page, context, errors = handle
    context.close()
    assert errors == [], errors


def test_round_pairings_print_40_boards_a_page_black_on_white(web):
    pdf, handle = printed(web, "list=pairings&round=1")
    page = handle[0]
    assert pdf.startswith(b"%PDF") and page_count(pdf) == 2  # 45 boards: 40, then 5
    sheets = page.locator(".print-sheet")
    assert sheets.count() == 2
    assert sheets.nth(0).locator("tbody tr").count() == 40 and sheets.nth(1).locator("tbody tr").count() == 5
    first = sheets.nth(0).locator("tbody tr").first.inner_text().split("\t")
    assert first[:3] == ["1", "1", "Player 01"] and first[4] == "1–0"  # board 1: 1 against 46, won by South
    colours = page.evaluate(
        "() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor,"
        " getComputedStyle(document.querySelector('td')).borderTopColor]"
    )
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    close(handle)


def test_latest_round_by_default_with_its_header(web):
    pdf, handle = printed(web, "list=pairings")
    page = handle[0]
    assert page.text_content(".print-sheet h1") == "Adama Open — Round 2 pairings"
    assert page_count(pdf) == 2
    close(handle)


def test_standings_and_crosstable_print_40_players_a_page(web):
    for query in ("list=standings", "list=crosstable"):
        pdf, handle = printed(web, query)
        page = handle[0]
        assert page_count(pdf) == 3, query  # 90 players: 40, 40, 10
        assert page.locator(".print-sheet").nth(2).locator("tbody tr").count() == 10
        close(handle)
    pdf, handle = printed(web, "list=standings")
    header = handle[0].locator(".print-sheet thead th").all_inner_texts()[:6]
    assert header == ["Rank", "Name", "Fed", "Rating", "Pts", "BH/C1"]  # FIDE's recommended Swiss list, the default
    named = handle[0].locator(".print-tiebreaks").all_inner_texts()
    assert named == ["Tie-breaks, in order: BH/C1 · BH · SB · PS · DE · WIN · BWG"]  # the list named on the printout
    close(handle)


def test_an_unknown_list_is_404_and_an_unpaired_round_says_so(web):
    assert web.client.get(f"/tournaments/{web.tournament}/print?list=medals").status_code == 404
    context = web.browser.new_context(base_url=web.url)
    page = context.new_page()
    page.goto(f"/tournaments/{web.tournament}/print?list=pairings&round=9")
    page.wait_for_selector("#print-page[data-ready=error]", timeout=10_000)
    assert page.text_content("#print-status") == "Round 9 is not paired."
    context.close()


def test_the_printed_crosstable_gives_each_rounds_opponent_seat_and_result_as_the_screen(web):
    # Paper once showed only "1", "½", "*": an arbiter checking a Swiss needs whom each player
    # met and on which seat, "46s1" (place 46, South's seat, won), as the screen writes it.
    crosstable = web.client.get(f"/api/tournaments/{web.tournament}/crosstable").get_json()
    pdf, handle = printed(web, "list=crosstable")
    page = handle[0]
    for row in crosstable["rows"][:3]:
        printed_row = page.locator(f".print-sheet tbody tr[data-number='{row['number']}']").inner_text().split("\t")
        cell = row["cells"][0]
        assert printed_row[2] == f"{cell['opponent_place']}{cell['colour'][0]}{cell['mark']}"
    close(handle)


def test_a_withdrawn_player_is_marked_on_the_printed_lists(web):
    last = web.client.get(f"/api/tournaments/{web.tournament}").get_json()["players"][-1]
    url = f"/api/tournaments/{web.tournament}/players/{last['number']}/withdrawal"
    assert web.client.post(url, headers=ADMIN, json={}).status_code == 201
    for query in ("list=standings", "list=crosstable"):
        pdf, handle = printed(web, query)
        row = handle[0].locator(f".print-sheet tbody tr[data-number='{last['number']}']").inner_text()
        assert f"{last['name']} (withdrawn)" in row, (query, row)
        close(handle)


def test_the_crosstables_seats_are_written_in_the_readers_language(web):
    # Tigrinya: ደቡብ (South), ሰሜን (North); a seat is the first letter of its word, never Latin s/n.
    pages = {
        f"/tournaments/{web.tournament}?lang=ti": "#crosstable tbody tr",
        f"/tournaments/{web.tournament}/print?list=crosstable&lang=ti": ".print-sheet tbody tr",
    }
    for address, rows in pages.items():
        context = web.browser.new_context(base_url=web.url)
        page = context.new_page()
        page.goto(address)
        page.wait_for_selector("[data-ready=true]", timeout=10_000)
        cells = page.locator(rows).first.locator("td").all_inner_texts()
        marks = [text for text in cells if re.fullmatch(r"\d+\D+[\d½=*+-]+", text)]
        assert marks and all(re.fullmatch(r"\d+[ደሰ][\d½=*+-]+", text) for text in marks), (address, cells)
        context.close()

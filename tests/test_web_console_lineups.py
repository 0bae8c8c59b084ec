"""A team event's line-ups, captains' cards and board prizes in a real browser (Debian's
Chromium, Playwright), in Tigrinya: the arbiter hands a line-up in on the console (a reserve
on board 2, board 4 left empty) after a refusal shown beside its field, pairs the round and
sees the empty board as a forfeit; a captain's card is issued and printed, its page hands in
the team's line-up from a phone and a late one is refused in his language; the board prizes
print to PDF. Every page at 390×844 and 1280×800 with no horizontal overflow, every word
Tigrinya but names. The API is called to set the event up and to compare."""

from __future__ import annotations

import os
import random

import pytest
from browser import CHROMIUM, served_with_chromium

playwright_api = pytest.importorskip("playwright.sync_api")
pypdfium2 = pytest.importorskip("pypdfium2")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN_TOKEN, make_app  # noqa: E402
from test_i18n_browser import ALLOWED, READ_TEXTS, RULE_ID, WORD  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TEAMS = 4
BOARDS = 4
RESERVES = 2
EVENT = "ሊግ ኣስመራ"
SEED = 20261207
# Latin and Ge'ez names of the registry's players: team k's members are MEMBERS[(k-1)*6 : k*6].
FIRST = [("Abeba", "ኣበባ"), ("Berhane", "ብርሃነ"), ("Chaltu", "ጫልቱ"), ("Dawit", "ዳዊት"), ("Eden", "ኤደን"), ("Fikru", "ፍቕሩ")]
LAST = [("Tesfaye", "ተስፋይ"), ("Alemu", "ኣለሙ"), ("Bekele", "በቀለ"), ("Haile", "ሃይለ")]
MEMBERS = [(f"{f} {last}", f"{fg} {lg}") for last, lg in LAST for f, fg in FIRST]


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture
def web(tmp_path, request):
    """A team event (a round robin unless the test names its format) served beside Chromium."""
    app = make_app(str(tmp_path / "lineups.sqlite3"))
    with served_with_chromium(app) as server:
        server.tournament = team_event(server.client, getattr(request, "param", "team_round_robin"))
        yield server


def team_event(client, format_: str = "team_round_robin") -> str:
    """Four registry teams of four boards and two reserves entered in a team event (a round
    robin, or a team Swiss of three rounds): team k's entrants are 6k-5 .. 6k-2 (boards 1 to
    4), then 6k-1 and 6k (its reserves)."""
    body = {"name": EVENT, "variant": "qelat", "format": format_, "team_boards": BOARDS}
    if format_ == "team_swiss":
        body["rounds"] = TEAMS - 1
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for k in range(TEAMS):
        members = [
            ok(client.post("/api/players", json={"name": name, "name_geez": geez, "federation": "ERI"}))["id"]
            for name, geez in MEMBERS[k * 6 : k * 6 + 6]
        ]
        names = {"name": f"{FIRST[k][0]} club", "name_geez": f"ጋንታ {FIRST[k][1]}", "federation": "ERI"}
        team = ok(client.post("/api/teams", json={**names, "players": members[:BOARDS], "reserves": members[BOARDS:]}))
        ok(client.post(f"/api/tournaments/{tid}/teams", json={"team_id": team["id"]}))
    return tid


def open_page(web, path: str, viewport: dict, *, token: str | None = ADMIN_TOKEN):
    """A device in Tigrinya, signed in with ``token`` (the admin's) unless None."""
    context = web.browser.new_context(
        viewport=viewport, base_url=web.url, device_scale_factor=1, has_touch=viewport["width"] < 600
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/?lang=ti{f'&token={token}' if token else ''}")
    page.wait_for_function("() => !window.location.search.includes('token')")
    page.goto(path)
    page.wait_for_selector("[data-ready=true]")
    return context, page, errors


def names_of(web) -> set[str]:
    """What may stay Latin in a Tigrinya page: the registry's Latin names, the event's ids."""
    teams = ok(web.client.get(f"/api/tournaments/{web.tournament}"))["teams"]
    return {web.tournament, "ERI", *(name for name, _ in MEMBERS), *(t["name"] for t in teams)}


def english_left(texts: list[str], names: set[str]) -> list[str]:
    found = []
    for text in texts:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, "")
        found += [word for word in WORD.findall(RULE_ID.sub("", text)) if word not in ALLOWED]
    return found


def in_tigrinya_without_overflow(page, names: set[str]) -> None:
    """Every word Tigrinya but names, and nothing wider than the screen, at both sizes."""
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(100)
        assert page.evaluate("document.documentElement.lang") == "ti", page.url
        assert english_left(page.evaluate(READ_TEXTS), names) == [], (page.url, viewport)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], (page.url, viewport, width)


def updates(page) -> str:
    return page.get_attribute("#console-page", "data-updates") or "0"


def act(page, selector: str) -> None:
    """Tap a console control and wait until the console has read the event again."""
    before = updates(page)
    page.click(selector)
    page.wait_for_function(
        """(before) => { const p = document.getElementById('console-page');
             return p.dataset.updates !== before && p.dataset.busy !== 'true'; }""",
        arg=before,
    )


def lineups(web, round_number: int) -> dict[int, dict]:
    found = ok(web.client.get(f"/api/tournaments/{web.tournament}/rounds/{round_number}/lineups"))["lineups"]
    return {lineup["team"]: lineup for lineup in found}


def version(web) -> int:
    return ok(web.client.get(f"/api/tournaments/{web.tournament}"))["version"]


@pytest.mark.parametrize("web", ["team_round_robin", "team_swiss"], indirect=True)
def test_the_arbiter_hands_in_a_line_up_with_a_reserve_and_an_empty_board_and_the_pairing_forfeits_it(web):
    tid = web.tournament
    context, page, errors = open_page(web, f"/tournaments/{tid}/console", DESKTOP)
    try:
        team = page.locator(".lineup-team[data-team='1']")
        assert page.is_visible("#lineups-part") and page.locator(".lineup-team").count() == TEAMS
        assert team.get_attribute("data-handed-in") == "false"
        shown = team.locator("select").evaluate_all("(all) => all.map((s) => s.value)")
        assert shown == ["1", "2", "3", "4"]  # none handed in: the first boards
        assert team.locator("select[data-board='2'] option").count() == 1 + BOARDS + RESERVES  # "empty" and the six
        # Out of the team's board order: refused beside the boards, in Tigrinya, nothing stored.
        before = version(web)
        team.locator("select[data-board='2']").select_option("3")
        team.locator("select[data-board='3']").select_option("2")
        team.locator("[data-action=lineup]").click()
        refusal = team.locator("[data-problem]:not([hidden])")
        refusal.wait_for()
        assert refusal.get_attribute("data-field") == "players" and refusal.get_attribute("data-status") == "422"
        beside = team.locator("fieldset + .field-problem")
        assert beside.count() == 1 and WORD.search(beside.text_content()) is None  # the API's title, in Tigrinya
        assert version(web) == before and not lineups(web, 1)[1]["handed_in"]
        # A reserve on board 2 (board 2's player absent, the others moving up) and board 4 empty.
        for board, value in ((2, "5"), (3, "6"), (4, "")):
            team.locator(f"select[data-board='{board}']").select_option(value)
        act(page, ".lineup-team[data-team='1'] [data-action=lineup]")
        assert lineups(web, 1)[1] == {"team": 1, "name": "Abeba club", "players": [1, 5, 6, None], "handed_in": True}
        team = page.locator(".lineup-team[data-team='1']")
        assert team.get_attribute("data-handed-in") == "true"
        assert team.locator("select").evaluate_all("(all) => all.map((s) => s.value)") == ["1", "5", "6", ""]
        in_tigrinya_without_overflow(page, names_of(web))
        page.set_viewport_size(DESKTOP)
        # Paired: the proposal shows the empty board, and the published round its forfeit.
        act(page, "[data-action=pair-round]")
        proposed = page.eval_on_selector_all("#proposal-empty-boards li", "(all) => all.map((li) => li.dataset.board)")
        act(page, "[data-action=publish-round]")
        paired = ok(web.client.get(f"/api/tournaments/{tid}/rounds/1"))
        empty = paired["empty_boards"]
        assert proposed == [str(e["board"]) for e in empty] and len(empty) == 1
        seats = {side: empty[0][side] and empty[0][side]["number"] for side in ("south", "north")}
        team_one_sits = "south" if seats["south"] is None else "north"  # team 1's board 4, left empty
        assert seats[team_one_sits] is None and seats["north" if team_one_sits == "south" else "south"] is not None
        assert empty[0]["result"] == ("north_wins" if team_one_sits == "south" else "south_wins")
        item = page.locator(f"#round-empty-boards li[data-board='{empty[0]['board']}']")
        assert item.get_attribute("data-result") == empty[0]["result"]
        assert page.locator(f"#boards li[data-board='{empty[0]['board']}']").count() == 0  # no game on it
        assert page.is_visible("#lineups-part") and page.text_content("#lineups-title").find("2") >= 0  # round 2's next
        in_tigrinya_without_overflow(page, names_of(web))
    finally:
        context.close()
    assert errors == []


def test_a_captains_card_hands_in_his_teams_line_up_from_a_phone_and_a_late_one_is_refused_in_tigrinya(web):
    tid = web.tournament
    context, page, errors = open_page(web, f"/tournaments/{tid}/console", DESKTOP)
    try:
        page.click(".captain-card-link[data-team='2']")
        page.wait_for_selector("#captain-card-page[data-ready=true]")
        with page.expect_response(lambda r: r.url.endswith("/teams/2/captain-signin")) as issued:
            page.click("[data-action=issue-captain-card]")
        address = issued.value.json()["address"]
        page.wait_for_selector(".captain-card[data-team='2'] img.card-qr")
        assert page.is_visible("#captain-card-print")
        assert "ጋንታ ብርሃነ" in page.text_content(".captain-card h2")  # the team in both scripts
        in_tigrinya_without_overflow(page, names_of(web))
    finally:
        context.close()
    assert errors == []
    phone, captain, errors = open_page(web, address.replace(web.url, ""), PHONE, token=None)
    try:
        assert "token" not in captain.url  # taken out of the address bar at once
        captain.wait_for_selector("#signed-in[data-kind=captain]")  # the header says so, in Tigrinya
        assert WORD.search(captain.text_content("#signed-in").replace(EVENT, "")) is None
        form = captain.locator(".lineup-form[data-team='2']")
        assert form.get_attribute("data-round") == "1"
        form.locator("select[data-board='3']").select_option("11")  # a reserve for board 3 (9 absent)
        form.locator("select[data-board='4']").select_option("12")
        captain.click("[data-action=lineup]")
        captain.wait_for_function("() => document.getElementById('captain-page').dataset.handedIn")
        assert lineups(web, 1)[2]["players"] == [7, 8, 11, 12] and lineups(web, 1)[2]["handed_in"]
        in_tigrinya_without_overflow(captain, names_of(web))
        # Opened again on the same phone, the page shows what it handed in, not the first boards.
        captain.reload()
        captain.wait_for_selector("#captain-page[data-ready=true]")
        assert captain.get_attribute("#captain-page", "data-chosen") == "[7,8,11,12]"
        assert WORD.search(captain.text_content("#captain-status")) is None and captain.text_content("#captain-status")
        form = captain.locator(".lineup-form[data-team='2']")
        ok(web.client.post(f"/api/tournaments/{tid}/rounds", json={}))  # the arbiter pairs round 1
        before = version(web)
        captain.set_viewport_size(PHONE)
        form.locator("select[data-board='4']").select_option("")
        captain.click("[data-action=lineup]")
        refusal = form.locator("[data-problem]:not([hidden])")
        refusal.wait_for()
        assert refusal.get_attribute("data-status") == "422" and refusal.get_attribute("data-field") == "round"
        assert WORD.search(form.locator("output + .field-problem").text_content()) is None  # the title in Tigrinya
        captain.wait_for_function("() => document.getElementById('captain-status').textContent.includes('1')")
        assert version(web) == before
        boards = ok(web.client.get(f"/api/tournaments/{tid}/rounds/1"))["boards"]
        seated = {p for b in boards for p in (b["south"]["number"], b["north"]["number"])}
        assert {7, 8, 11, 12} <= seated and 9 not in seated
        in_tigrinya_without_overflow(captain, names_of(web))
    finally:
        phone.close()
    assert errors == []


def test_the_board_prizes_print_to_pdf_in_tigrinya_as_the_api_ranks_them(web):
    tid, rng = web.tournament, random.Random(SEED)
    for round_number in range(1, TEAMS):
        for board in ok(web.client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]:
            url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board['board']}/result"
            result = rng.choice(["south_wins", "draw", "north_wins"])
            ok(web.client.post(url, json={"result": result, "kind": "played"}))
    found = ok(web.client.get(f"/api/tournaments/{tid}/board-prizes"))
    assert found["status"] == "finished"
    context, page, errors = open_page(web, f"/tournaments/{tid}/console", DESKTOP)
    try:
        link = page.locator("#print-board-prizes")
        assert link.is_visible()
        page.goto(link.get_attribute("href"))
        page.wait_for_selector("#print-page[data-ready=true]")
        rows = page.eval_on_selector_all(
            "tbody tr",
            "(rows) => rows.map((r) => [Number(r.dataset.board), Number(r.dataset.number), r.cells[1].textContent])",
        )
        expected = [
            [b["board"], p["number"], str(p["rank"]) if p["qualified"] else "–"]
            for b in found["boards"]
            for p in b["players"]
        ]
        assert rows == expected
        first = found["boards"][0]["players"][0]
        geez = dict(MEMBERS)[first["name"]]
        assert (
            page.locator(f"tbody tr[data-number='{first['number']}'] td").nth(2).text_content()
            == f"{first['name']} ({geez})"
        )
        in_tigrinya_without_overflow(page, names_of(web))
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=True)
        assert pdf.startswith(b"%PDF")
        document = pypdfium2.PdfDocument(pdf)
        text = " ".join(" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document)))
        assert english_left([text], names_of(web)) == []
        assert all(p["name"] in text for b in found["boards"] for p in b["players"])
        width = document[0].get_size()[0]
        assert abs(width - 595.3) < 1.5  # A4 (210 mm), in points
    finally:
        context.close()
    assert errors == []

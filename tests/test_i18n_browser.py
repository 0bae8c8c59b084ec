"""Every page in English, Tigrinya and Amharic, in Chromium, on a phone and a laptop.

Each page is opened in each language at 390×844 (touch) and 1280×800, and every word it
shows (its text, its placeholders, labels and tooltips, its title) is scanned for Latin
letters: in Tigrinya and Amharic nothing English may be left but what is not language —
the players' and events' names (here in Ge'ez script, but for the registry's Latin
spelling of a player's name), identifiers and a federation's code, rule ids,
hole names (``a1``), code (``<code>``, ``translate="no"``) and the few names kept in
every language (ALLOWED). A game is then recorded in Tigrinya from the new-game form to
its first capture, the board read from the DOM against the API at each step.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from browser import CHROMIUM, LiveServer, launch_chromium, record

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN_TOKEN, make_app  # noqa: E402

from recorder.web import i18n  # noqa: E402

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LANGUAGES = i18n.languages()  # English and every catalog folder
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"

# Names that are the same in every language: a language's own name in the chooser, formats
# and programs named by their names, the rating system's name. (Keyboard keys are shown by
# their symbols, ⇱ and ⇲, not as "Home" and "End".)
ALLOWED = {"English", "JavaScript", "JSON", "API", "api", "SVG", "CSV", "QR", "Glicko", "TRF"}
RULE_ID = re.compile(r"\b[A-Z]{2,4}-\d+[a-z]?\b")  # SEL-7b, GEN-35, LW-6
WORD = re.compile(r"[A-Za-z]{2,}")

# Every text a person reads on the page, but code and what is marked not to translate
# (and <noscript>, whose words a page with scripts never shows: they are raw text here).
READ_TEXTS = """() => {
  const skipped = (el) => el.closest('script, style, noscript, code, [translate="no"]');
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (parent && !skipped(parent)) texts.push(walker.currentNode.textContent);
  }
  for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
    if (skipped(el)) continue;
    for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
      if (el.getAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  return texts;
}"""

# The registry keeps a player's name in Latin script and in Ge'ez: proper names, shown as
# they are in every language.
PLAYERS = {
    "Abeba Tesfaye": "ኣበባ ተስፋይ",
    "Berhane Kidane": "ብርሃነ ኪዳነ",
    "Chaltu Bekele": "ጫልቱ በቀለ",
    "Dawit Alemu": "ዳዊት ኣለሙ",
}
FEDERATION = "ERI"  # a federation's code, the same in every language
UNKNOWN = "no-such-game"
# A category of each kind (the organiser's name of one in Ge'ez, the others by their codes)
# and a prize list shared by the Hort system: the tournament page and the printed lists say
# what decides each and how ties share, in the reader's language.
CATEGORIES = [
    {"code": "W", "kind": "sex", "sex": "w", "name": "ደቂ ኣንስትዮ"},
    {"code": "U16", "kind": "age", "under": 16},
    {"code": "S50", "kind": "age", "at_least": 50},
    {"code": "R1", "kind": "region", "federations": [FEDERATION]},
    {"code": "R2", "kind": "rating", "min": 1000, "max": 2000},
]
PRIZES = [{"place": 1, "amount": 500}, {"place": 2, "amount": 300}, {"place": 1, "amount": 100, "category": "R1"}]
# Every game of the tournament's: two stages, an increment then a delay, so the pages that
# show it (tournament, projector, embeds, printed) say each word of a time control.
TIME_CONTROL = {
    "stages": [{"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000}, {"base_ms": 1_800_000, "delay_ms": 5_000}]
}


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def rated_tournament(client) -> tuple[str, str]:
    """A four-player Qelat round robin of registered players, with a time control, every game resigned or agreed:
    the tournament's id and its first player's."""
    ids = []
    for name, geez in PLAYERS.items():
        body = {"name": name, "name_geez": geez, "federation": FEDERATION}
        ids.append(client.post("/api/players", json=body).get_json()["id"])
    made = client.post(
        "/api/tournaments",
        json={
            "name": "ዋንጫ ኣስመራ",
            "variant": "qelat",
            "format": "round_robin",
            "site": "ኣስመራ",
            "rated": True,
            "time_control": TIME_CONTROL,
        },
    )
    tournament_id = made.get_json()["id"]
    for player_id in ids:
        client.post(f"/api/tournaments/{tournament_id}/players", json={"player_id": player_id})
    client.put(f"/api/tournaments/{tournament_id}/categories", json={"categories": CATEGORIES})
    client.put(f"/api/tournaments/{tournament_id}/prizes", json={"prizes": PRIZES, "sharing": "hort"})
    for round_number in (1, 2, 3):
        boards = client.post(f"/api/tournaments/{tournament_id}/rounds", json={}).get_json()["boards"]
        for board in boards:
            url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board['board']}/game"
            game_id = client.post(url, json={}).get_json()["id"]
            if round_number < 3:  # the last round stays under way, for the projector
                result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
                client.post(f"/api/games/{game_id}/commands", json=result)
    return tournament_id, ids[0]


def play_board(client, tournament_id: str, round_number: int, board: int, result: dict | None) -> None:
    """The board's game, ended by ``result`` (a result command's kind and winner) or left under way."""
    url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/game"
    game_id = client.post(url, json={}).get_json()["id"]
    if result is not None:
        client.post(f"/api/games/{game_id}/commands", json={"type": "result", **result, "expected_version": 1})


def knockout_stage(client, player_ids: list[str]) -> tuple[str, str]:
    """A one-round Swiss of the registered players handed over to a knock-out of one-game
    matches: the first semi-final won, the second level after its play-off game and decided
    by lot, the final under way. (the Swiss's id, the knock-out's)"""
    won = {"kind": "resignation", "winner": "south"}
    drawn = {"kind": "agreement", "winner": None}
    body = {"name": "ምድብ ኣስመራ", "variant": "qelat", "format": "swiss", "rounds": 1, "time_control": TIME_CONTROL}
    swiss = client.post("/api/tournaments", json=body).get_json()["id"]
    for player_id in player_ids:
        client.post(f"/api/tournaments/{swiss}/players", json={"player_id": player_id})
    for board in client.post(f"/api/tournaments/{swiss}/rounds", json={}).get_json()["boards"]:
        play_board(client, swiss, 1, board["board"], won)
    settings = {"match_games": 1, "playoff_games": 1, "playoff_time_control": TIME_CONTROL}
    body = {"name": "ዋንጫ ኣስመራ፡ ምውጻእ", "variant": "qelat", "format": "knockout", "knockout": settings}
    knockout = client.post("/api/tournaments", json=body).get_json()["id"]
    handed = client.post(f"/api/tournaments/{knockout}/knockout/seeding", json={"source": swiss, "qualifiers": 4})
    assert handed.status_code == 201, handed.get_json()
    for round_number, results in ((1, (won, drawn)), (2, (drawn,)), (3, (None,))):
        client.post(f"/api/tournaments/{knockout}/rounds", json={})
        for board, result in enumerate(results, start=1):
            play_board(client, knockout, round_number, board, result)
        if round_number == 2:  # the second semi-final is level after its play-off game
            level = client.get(f"/api/tournaments/{knockout}/bracket").get_json()["stages"][0]["matches"][1]
            lot = {"stage": 1, "match": 2, "winner": level["players"][1]["number"]}
            drawn_lot = client.post(f"/api/tournaments/{knockout}/knockout/lots", json=lot)
            assert drawn_lot.status_code == 201, drawn_lot.get_json()
    return swiss, knockout


TEAMS = {"Asmara Lions": "ኣስመራ ኣናብስ", "Keren Stars": "ከረን ኮኾብ"}


def team_event(client, player_ids: list[str]) -> str:
    """Two registry teams of two boards (the rated tournament's players), round 1 paired and
    one board's result in: the team page and its embed say every word in the reader's language."""
    body = {"name": "ዋንጫ ጋንታታት", "variant": "qelat", "format": "team_round_robin", "team_boards": 2}
    t = client.post("/api/tournaments", json=body).get_json()["id"]
    for k, (name, geez) in enumerate(TEAMS.items()):
        team = {"name": name, "name_geez": geez, "federation": "Maekel", "players": player_ids[2 * k : 2 * k + 2]}
        team_id = client.post("/api/teams", json=team).get_json()["id"]
        client.post(f"/api/tournaments/{t}/teams", json={"team_id": team_id})
    board = client.post(f"/api/tournaments/{t}/rounds", json={}).get_json()["boards"][0]["board"]
    client.post(f"/api/tournaments/{t}/rounds/1/boards/{board}/result", json={"result": "draw", "kind": "played"})
    return t


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("i18n") / "i18n.sqlite3"))
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        tournament_id, player_id = rated_tournament(server.client)
        selus = fixture("selus-rounds-1372.json")
        setup = {**selus["setup"], "south": "ሃብቶም", "north": "ሰናይት", "event": "ዋንጫ ኣስመራ", "site": "ኣስመራ"}
        game_id = record(server.client, {**setup, "date": "2026-11-21", "round": "3"}, selus["commands"][:12])
        gabata = fixture("gabata-default.json")  # its race, a decision, in the move list; its clocks
        timed = [
            {**command, "clock": {"south": 300_000 - k * 7_250, "north": 299_000}}
            for k, command in enumerate(gabata["commands"][:3])
        ]
        clock = {"time_control": {"stages": [{"base_ms": 300_000, "increment_ms": 2_000}]}}
        gabata_id = record(server.client, {**gabata["setup"], "south": "ሃብቶም", "north": "ሰናይት", **clock}, timed)
        entrants = server.client.get(f"/api/tournaments/{tournament_id}").get_json()["players"]
        swiss, knockout = knockout_stage(server.client, [entrant["player_id"] for entrant in entrants])
        teams = team_event(server.client, [entrant["player_id"] for entrant in entrants])
        server.pages = {
            "home": "/",
            "game": f"/games/{game_id}",
            "watch": f"/games/{game_id}/watch",
            "scoresheet": f"/games/{game_id}/scoresheet",
            "dossier": f"/games/{game_id}/dossier?moves=3",
            "tournament": f"/tournaments/{tournament_id}",
            "scoresheets": f"/tournaments/{tournament_id}/rounds/3/scoresheets",
            "badges": f"/tournaments/{tournament_id}/badges",
            "projector": f"/tournaments/{tournament_id}/projector",
            "pairings": f"/tournaments/{tournament_id}/print?list=pairings",
            "standings": f"/tournaments/{tournament_id}/print?list=standings",
            "crosstable": f"/tournaments/{tournament_id}/print?list=crosstable",
            "prizes": f"/tournaments/{tournament_id}/print?list=prizes",
            "category": f"/tournaments/{tournament_id}/print?list=standings&category=R1",
            "player": f"/players/{player_id}",
            "ratings": "/ratings/qelat",
            "embed-game": f"/embed/games/{game_id}",
            "embed-round": f"/embed/tournaments/{tournament_id}/rounds/3",
            "unknown-game": f"/games/{UNKNOWN}",  # a 404 page says so in the reader's language
            "unknown-address": f"/{UNKNOWN}",  # and so does an address no page has
            "gabata": f"/games/{gabata_id}",
            "console": "/console",
            "tournament-console": f"/tournaments/{tournament_id}/console",
            # a finished board game: the players' confirmation panel, its status in the reader's words
            "board-game": f"/games/{tournament_id[2:]}-r1-b1",
            "stage-before": f"/tournaments/{swiss}",  # it names the knock-out that follows it
            "bracket": f"/tournaments/{knockout}/bracket",
            "embed-bracket": f"/embed/tournaments/{knockout}/bracket",
            "team-event": f"/tournaments/{teams}",  # it links to its team page
            "team": f"/tournaments/{teams}/teams",
            "embed-team": f"/embed/tournaments/{teams}/team-standings",
            # its console's line-ups for round 2, a captain's card and page, the board prizes printed
            "team-console": f"/tournaments/{teams}/console",
            "captain-card": f"/tournaments/{teams}/teams/1/captain-card",
            "captain": f"/tournaments/{teams}/teams/1/captain",
            "board-prizes": f"/tournaments/{teams}/print?list=board-prizes",
        }
        identifiers = {
            swiss,
            knockout,
            teams,
            game_id,
            gabata_id,
            tournament_id,
            player_id,
            UNKNOWN,
            FEDERATION,
            *TEAMS,
        }
        server.identifiers = {*identifiers, *PLAYERS}
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def open_context(site, language: str, viewport: dict):
    context = site.browser.new_context(
        viewport=viewport, base_url=site.url, device_scale_factor=1, has_touch=viewport["width"] < 600
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/?token={ADMIN_TOKEN}&lang={language}")  # signed in, the language chosen
    page.wait_for_function("() => !window.location.search.includes('token')")
    return context, page


def english_left(site, texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        for identifier in site.identifiers:
            text = text.replace(identifier, "")
        found += [word for word in WORD.findall(RULE_ID.sub("", text)) if word not in ALLOWED]
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_in_the_chosen_language(site, language, viewport):
    context, page = open_context(site, language, VIEWPORTS[viewport])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for name, path in site.pages.items():
            page.goto(path)
            page.wait_for_selector("[data-ready=true]")
            page.wait_for_timeout(150)  # the move list's notation arrives after the board
            assert page.evaluate("document.documentElement.lang") == language, name
            assert page.evaluate("document.documentElement.dir") == "ltr", name
            texts = page.evaluate(READ_TEXTS)
            if language == "en":
                assert any(WORD.search(text) for text in texts), name  # the English page reads as English
            else:
                assert english_left(site, texts) == [], name
    finally:
        context.close()
    assert errors == []


def test_the_language_is_chosen_on_the_page_and_kept(site):
    context, page = open_context(site, "en", VIEWPORTS["desktop"])
    try:
        page.goto(site.pages["tournament"])
        page.wait_for_selector("[data-ready=true]")
        page.select_option("#language", "am")
        page.wait_for_function("() => document.documentElement.lang === 'am'")
        page.wait_for_selector("[data-ready=true]")
        assert page.text_content("#standings-title") == "ደረጃዎች"
        page.goto(site.pages["home"])  # the choice is kept for the next page
        assert page.evaluate("document.documentElement.lang") == "am"
    finally:
        context.close()


def test_offline_a_page_never_opened_says_so_in_the_readers_language(site):
    """The service worker's own page for an address it never kept: in the language chosen
    on the page (its cookie), else in the browser's languages (what it sends as
    Accept-Language)."""
    context = site.browser.new_context(base_url=site.url, locale="am", device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto("/?lang=ti")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        context.set_offline(True)
        page.goto("/players/never-opened")
        assert page.evaluate("[document.documentElement.lang, document.title]") == ["ti", "ካብ መርበብ ወጻኢ"]
        assert page.text_content("p").startswith("እዚ ገጽ መርበብ ከሎ ኣብዚ መሳርሒ ስለ ዘይተኸፍተ")
        context.clear_cookies()  # no choice made: the browser's language, Amharic
        page.goto("/players/never-opened-either")
        assert page.evaluate("[document.documentElement.lang, document.title]") == ["am", "ከመስመር ውጭ"]
        assert page.text_content("p").startswith("ይህ ገጽ አውታረ መረቡ በነበረበት ጊዜ")
        context.set_offline(False)
    finally:
        context.close()


# Published dates of the Ethiopian calendar: New Year (Meskerem 1) of 2000, 2016 (after a
# leap year's Pagume 6) and 2017; Genna (Tahsas 29); Timket (Tir 11) in 2024 and 2025;
# Adwa Victory Day (Yekatit 23); the last day of 2015, Pagume 6.
ETHIOPIAN_DATES = [
    ((2007, 9, 12), (2000, 1, 1)),
    ((2023, 9, 12), (2016, 1, 1)),
    ((2024, 9, 11), (2017, 1, 1)),
    ((2025, 1, 7), (2017, 4, 29)),
    ((2024, 1, 20), (2016, 5, 11)),
    ((2025, 1, 19), (2017, 5, 11)),
    ((2024, 3, 2), (2016, 6, 23)),
    ((2023, 9, 11), (2015, 13, 6)),
]


def test_dates_show_the_ethiopian_calendar_beside_the_gregorian(site):
    context, page = open_context(site, "ti", VIEWPORTS["desktop"])
    try:
        converted = page.evaluate(
            """async (dates) => {
              const { ethiopian } = await import('/web-static/js/i18n.js');
              return dates.map(([y, m, d]) => { const e = ethiopian(y, m, d); return [e.year, e.month, e.day]; });
            }""",
            [list(gregorian) for gregorian, _ in ETHIOPIAN_DATES],
        )
        assert converted == [list(ethiopian) for _, ethiopian in ETHIOPIAN_DATES]
        page.goto(site.pages["game"])
        page.wait_for_selector("[data-ready=true]")
        # 21 November 2026 is Hidar 12, 2019: Babel's Tigrinya month, then the Ethiopian date.
        assert "ሕዳር 21, 2026 (12 ሕዳር 2019 ዓ.ም.)" in page.text_content("#game-meta")
    finally:
        context.close()


def read_board(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.board [data-hole]')]
             .map((hole) => [hole.dataset.hole, Number(hole.dataset.count)]))"""
    )


def test_a_game_is_recorded_in_tigrinya_from_the_start_to_its_first_capture(site):
    """Lahemay Walida's fixture: South sows e1, North f2, whose last seed makes four (LW-7)."""
    game = fixture("lahemay_walida-default.json")
    context, page = open_context(site, "ti", VIEWPORTS["phone"])
    try:
        page.wait_for_selector("body[data-ready=true]")
        assert page.text_content("#new-game-title") == "ሓድሽ ጸወታ ጀምር"
        page.select_option("#variant", "lahemay_walida")
        page.fill("input[name=south]", "ሰላም")
        page.fill("input[name=north]", "ሙሉ")
        page.check("input[name=first_player][value=south]")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#game-page[data-ready=true]")
        game_id = page.get_attribute("#game-page", "data-game-id")
        assert page.text_content("#game-status") == "ተራ ደቡብ (ሰላም)"
        for version, command in enumerate(game["commands"][:2], start=2):
            page.click(f".board [data-hole='{command['hole']}']")
            page.wait_for_selector(f".board[data-version='{version}']")
            assert read_board(page) == site.client.get(f"/api/games/{game_id}/state").get_json()["holes"]
        page.wait_for_selector("#trace li[data-step=captured]")  # the explanation arrives after the board
        trace = page.text_content("#trace")
        assert "ሰሜን 4 ካብ" in trace and "ይበልዕ" in trace  # "North takes 4 from …"
        assert english_left(site, page.evaluate(READ_TEXTS)) == []
    finally:
        context.close()


# The median height of common Ge'ez letters and of a Latin capital, drawn in a font stack.
LETTER_HEIGHTS = """async (family) => {
  await document.fonts.load(`100px ${family}`, "ሀለ");
  const context = document.createElement("canvas").getContext("2d");
  context.font = `100px ${family}`;
  const heights = [..."ሀለሐመረሰቀበተነአከወዘየደገጠጰጸፈሁሉሙሩሱቁቡቱኑኩ"]
    .map((letter) => context.measureText(letter).actualBoundingBoxAscent).sort((a, b) => a - b);
  return { geez: heights[Math.floor(heights.length / 2)], capital: context.measureText("H").actualBoundingBoxAscent };
}"""


def test_geez_letters_are_drawn_as_tall_as_latin_capitals(site):
    context, page = open_context(site, "ti", VIEWPORTS["desktop"])
    try:
        page.goto(site.pages["tournament"])
        page.wait_for_selector("[data-ready=true]")
        body = page.evaluate("getComputedStyle(document.body).fontFamily")
        served = page.evaluate(LETTER_HEIGHTS, body)
        assert abs(served["geez"] / served["capital"] - 1) < 0.08, served
        # The system's Ethiopic font as it is, unscaled: noticeably smaller, as it was.
        plain = page.evaluate(LETTER_HEIGHTS, body.replace('"Recorder Ethiopic", ', ""))
        assert plain["geez"] / plain["capital"] < 0.9, plain
    finally:
        context.close()

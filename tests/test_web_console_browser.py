"""The tournament console in a real browser (Debian's Chromium, Playwright): an arbiter
runs a rated Swiss from an empty database to its final standings through the pages only,
on a laptop (1280×800) with the results entered from a phone (390×844). The test calls
the API only to compare: a twin tournament, fed the same players, absences, withdrawals
and results through the API, is paired by ``POST /api/tournaments/{id}/rounds`` after each
round, and each round the console paired must equal it."""

from __future__ import annotations

import os
import random
from fractions import Fraction
from pathlib import Path

import pytest
from browser import CHROMIUM, served_with_chromium

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN_TOKEN, make_app  # noqa: E402
from test_i18n_browser import ALLOWED, READ_TEXTS, RULE_ID, WORD  # noqa: E402
from test_tiebreaks_standings import reference_values  # noqa: E402

from recorder.tournaments import C07_SWISS, trf  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
ROUNDS = 7
# 29 players at the start and a late entrant before round 3: 30 in all.
FIRST_NAMES = ["Abeba", "Berhane", "Chaltu", "Dawit", "Eden", "Fikru", "Genet", "Habtom", "Iyasu", "Kidane"]
LAST_NAMES = ["Tesfaye", "Alemu", "Bekele"]
PLAYERS = [
    {"name": f"{first} {last}", "federation": "ERI" if k % 2 else "ETH", "rating": 2100 - 23 * k}
    for k, (last, first) in enumerate((last, first) for last in LAST_NAMES for first in FIRST_NAMES)
]
LATE_ENTRANT = PLAYERS[-1]
WITHDRAWN_AFTER_ROUND_4 = 6  # the entrant's number
ABSENT_IN_ROUND_5 = 11
TOURNAMENT_NAME = "ዋንጫ ኣስመራ"
SEED = 20261207
CALCULATED = Path(__file__).resolve().parent.parent / "fixtures" / "tiebreaks" / "console"


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture
def web(tmp_path):
    app = make_app(str(tmp_path / "console.sqlite3"))
    with served_with_chromium(app) as server:
        yield server


def open_page(web, viewport: dict, language: str):
    """A device signed in as the admin (the sign-in address), in ``language``."""
    context = web.browser.new_context(
        viewport=viewport, base_url=web.url, device_scale_factor=1, has_touch=viewport["width"] < 600
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/console?token={ADMIN_TOKEN}&lang={language}")
    page.wait_for_selector("#console-page[data-ready=true]")
    return context, page, errors


def updates(page) -> str:
    return page.get_attribute("#console-page", "data-updates") or "0"


# What the arbiter did, counted as he would: a tap on a control or a choice in a list,
# and a field typed.
DONE = {"taps": 0, "typed": 0}


def done_since(before: dict) -> tuple[int, int]:
    return DONE["taps"] - before["taps"], DONE["typed"] - before["typed"]


def choose(page, selector: str, value: str) -> None:
    if page.input_value(selector) != value:
        page.select_option(selector, value)
        DONE["taps"] += 1


def shown_problems(page) -> list[str]:
    return page.eval_on_selector_all("[data-problem]:not([hidden])", "(shown) => shown.map((p) => p.textContent)")


def act(page, selector: str) -> None:
    """Tap a console control and wait until the console has read the tournament again;
    a refusal it shows fails the run with the API's words (not a timeout)."""
    DONE["taps"] += 1
    before, problems = updates(page), shown_problems(page)
    page.click(selector)
    page.wait_for_function(
        """(before) => { const p = document.getElementById('console-page');
             const refused = document.querySelector('[data-problem]:not([hidden])');
             return (p.dataset.updates !== before || refused) && p.dataset.busy !== 'true'; }""",
        arg=before,
    )
    refused = [problem for problem in shown_problems(page) if problem not in problems]
    assert refused == [], (selector, refused)


def english_left(texts: list[str], names: set[str]) -> list[str]:
    found = []
    for text in texts:
        for name in names:
            text = text.replace(name, "")
        found += [word for word in WORD.findall(RULE_ID.sub("", text)) if word not in ALLOWED]
    return found


def scan(page, language: str, names: set[str]) -> None:
    """The language scan of every page (tests/test_i18n_browser.py): no English word left in
    Tigrinya or Amharic but names; an English page reads as English."""
    assert page.evaluate("document.documentElement.lang") == language, page.url
    texts = page.evaluate(READ_TEXTS)
    if language == "en":
        assert any(WORD.search(text) for text in texts), page.url
    else:
        assert english_left(texts, names) == [], page.url


def create_swiss(page) -> str:
    page.fill("#create-form [name=name]", TOURNAMENT_NAME)
    page.select_option("#create-form [name=variant]", "qelat")
    page.select_option("#create-form [name=format]", "swiss")
    page.fill("#create-form [name=rounds]", str(ROUNDS))
    page.check("#create-form [name=rated]")
    page.click("[data-action=create-tournament]")
    page.wait_for_selector("#console-page[data-tournament-id][data-ready=true]")
    return page.get_attribute("#console-page", "data-tournament-id")


def register(page, player: dict) -> None:
    page.locator("#register-details").evaluate("(d) => { d.open = true; }")
    page.fill("#register-form [name=name]", player["name"])
    page.fill("#register-form [name=federation]", player["federation"])
    page.fill("#register-form [name=rating]", str(player["rating"]))
    act(page, "#register-form [data-action=register-player]:not([data-force])")


def pairs(round_json: dict) -> tuple[list, list]:
    boards = [(b["south"]["number"], b["north"]["number"]) for b in round_json["boards"]]
    byes = [(b["number"], b["points"]) for b in round_json["byes"]]
    return boards, byes


def twin_result(client, twin: str, round_number: int, board: int, result: str) -> None:
    """The twin records every board as a game with its result, as a tablet's game ends."""
    url = f"/api/tournaments/{twin}/rounds/{round_number}/boards/{board}/game"
    game = ok(client.post(url, json={}))
    winner = {"south_wins": "south", "north_wins": "north", "draw": None}[result]
    command = {"type": "result", "kind": "adjudication", "winner": winner, "expected_version": game["version"]}
    ok(client.post(f"/api/games/{game['id']}/commands", json=command))


def met_before(client, tid: str, round_number: int) -> dict[int, set[int]]:
    """Each player's opponents in the rounds before ``round_number``."""
    met: dict[int, set[int]] = {}
    for earlier in range(1, round_number):
        for south, north in pairs(ok(client.get(f"/api/tournaments/{tid}/rounds/{earlier}")))[0]:
            met.setdefault(south, set()).add(north)
            met.setdefault(north, set()).add(south)
    return met


def proposal_shown(page) -> tuple[list, list]:
    """The round the console proposes, as its page shows it: each board's (South, North)
    and the players given a bye."""
    boards = page.eval_on_selector_all(
        "#proposal-boards li",
        "(items) => items.map((li) => [...li.querySelectorAll('[data-player]')].map((p) => Number(p.dataset.player)))",
    )
    byes = page.eval_on_selector_all("#proposal-byes li", "(items) => items.map((li) => Number(li.dataset.player))")
    return [tuple(board) for board in boards], byes


def swap_into_a_rematch(page, client, tid: str, round_number: int) -> list[dict]:
    """Swap board 1's South with a player his North has met: the checker must say C.1.
    Returns the boards as swapped and published."""
    proposal = proposal_shown(page)[0]
    south, north = proposal[0]
    met = met_before(client, tid, round_number)
    other = next(p for board in proposal[1:] for p in board if p in met.get(north, set()))
    choose(page, "#swap-first", str(south))
    choose(page, "#swap-second", str(other))
    act(page, "[data-action=swap-players]")
    assert page.get_attribute("#proposal", "data-changed") == "true"
    assert page.locator("#findings li[data-code=rematch][data-criterion='C.1']").count() >= 1
    assert "C.1" in page.text_content("#proposal-breaks")
    other_of = {south: other, other: south}
    return [{"south": other_of.get(s, s), "north": other_of.get(n, n)} for s, n in proposal]


def hand_out_the_tablets(page, language: str, names: set[str], boards: int) -> None:
    """The round's sign-in cards issued and shown, a QR code per board, then back to the console."""
    console = page.url
    page.click("#signin-cards")
    page.wait_for_url("**/signin-cards")
    page.wait_for_load_state("load")  # its script listens to the button once loaded: a tap before is lost
    page.click("[data-action=issue-board-signins]")
    page.wait_for_function("(n) => document.querySelectorAll('.signin-card img.card-qr').length === n", arg=boards)
    scan(page, language, names)
    page.goto(console)
    page.wait_for_selector("#console-page[data-ready=true]")


def enter_results(mobile, client, tid: str, twin: str, paired: dict, rng: random.Random, paper_share: float) -> set:
    """Each board's result tapped on the phone: on paper (the default way) or as the
    arbiter's decision on the board's game; the twin records each as a game."""
    paper = set()
    for board in paired["boards"]:
        result = rng.choices(["south_wins", "draw", "north_wins"], weights=[4, 2, 4])[0]
        on_paper = rng.random() < paper_share
        choose(mobile, "#result-way", "played" if on_paper else "adjudication")
        item = f"#boards li[data-board='{board['board']}']"
        act(mobile, f"{item} [data-action=enter-result][data-result={result}]")
        assert mobile.get_attribute(item, "data-state") == "finished", (paired["round"], board["board"])
        twin_result(client, twin, paired["round"], board["board"], result)
        if on_paper:
            paper.add((paired["round"], board["board"]))
    return paper


def run_the_swiss(web, language: str, *, paper_share: float, swap_round: int | None) -> dict:
    """The whole event through the pages; returns what it measured and which boards were on paper."""
    client, rng = web.client, random.Random(SEED)
    desk, page, desk_errors = open_page(web, DESKTOP, language)
    measured: dict = {"pair_and_publish": [], "results": [], "paper": set()}
    try:
        tid = create_swiss(page)
        names = {TOURNAMENT_NAME, tid, "ERI", "ETH", *(str(p["name"]) for p in PLAYERS)}
        scan(page, language, names)
        body = {"name": "twin", "variant": "qelat", "format": "swiss", "rounds": ROUNDS, "rated": True}
        twin = ok(client.post("/api/tournaments", json=body))["id"]
        for player in PLAYERS[:-1]:
            register(page, player)
            ok(client.post(f"/api/tournaments/{twin}/players", json=player))
        assert page.locator("#entrants tbody tr").count() == len(PLAYERS) - 1
        phone, mobile, phone_errors = open_page(web, PHONE, language)
        try:
            for round_number in range(1, ROUNDS + 1):
                if round_number == 3:
                    register(page, LATE_ENTRANT)
                    ok(client.post(f"/api/tournaments/{twin}/players", json=LATE_ENTRANT))
                if round_number == 5:
                    withdraw = f"#entrants tr[data-player='{WITHDRAWN_AFTER_ROUND_4}'] [data-action=withdraw-player]"
                    act(page, withdraw)
                    ok(client.post(f"/api/tournaments/{twin}/players/{WITHDRAWN_AFTER_ROUND_4}/withdrawal", json={}))
                    absent = (
                        f"#entrants tr[data-player='{ABSENT_IN_ROUND_5}'] [data-action=absent-player][data-round='5']"
                    )
                    act(page, absent)
                    absence = {"player": ABSENT_IN_ROUND_5, "round": 5}
                    ok(client.post(f"/api/tournaments/{twin}/absences", json=absence))
                before = dict(DONE)
                act(page, "[data-action=pair-round]")
                assert page.get_attribute("#proposal", "data-round") == str(round_number)
                scan(page, language, names)
                manual = None
                if round_number == swap_round:
                    # Before the swap the console proposes what the rules pair for the twin.
                    rules = ok(client.post(f"/api/tournaments/{twin}/rounds/proposal", json={}))
                    boards, byes = pairs(rules)
                    assert proposal_shown(page) == (boards, [number for number, _points in byes])
                    manual = swap_into_a_rematch(page, client, tid, round_number)
                    scan(page, language, names)  # the checker's findings in the reader's language
                act(page, "[data-action=publish-round]")
                measured["pair_and_publish"].append(done_since(before))
                paired = ok(client.get(f"/api/tournaments/{tid}/rounds/{round_number}"))
                if manual is None:
                    expected = ok(client.post(f"/api/tournaments/{twin}/rounds", json={}))
                    checker = page.get_attribute(f"#checker li[data-round='{round_number}']", "data-status")
                    assert checker == "same"
                else:
                    byes = [{"player": b["number"], "points": b["points"]} for b in paired["byes"]]
                    expected = ok(client.post(f"/api/tournaments/{twin}/rounds", json={"boards": manual, "byes": byes}))
                    assert pairs(paired)[0] == [(b["south"], b["north"]) for b in manual]
                assert pairs(paired) == pairs(expected), round_number
                if round_number == 1:
                    hand_out_the_tablets(page, language, names, len(paired["boards"]))
                if round_number == 1:  # then the phone keeps its page: each round arrives live
                    mobile.goto(f"/tournaments/{tid}/console#results-section")
                mobile.wait_for_selector(f"#console-page[data-ready=true] #boards[data-round='{round_number}']")
                before = dict(DONE)
                measured["paper"] |= enter_results(mobile, client, tid, twin, paired, rng, paper_share)
                measured["results"].append((*done_since(before), len(paired["boards"])))
                shown = mobile.text_content(f"#boards li[data-board='{paired['boards'][0]['board']}'] .board-state")
                assert shown.startswith(("1–0", "½–½", "0–1"))
                scan(mobile, language, names)
            standings = ok(client.get(f"/api/tournaments/{tid}/standings"))["standings"]
            twin_standings = ok(client.get(f"/api/tournaments/{twin}/standings"))["standings"]
            assert [(s["number"], s["points"]) for s in standings] == [
                (s["number"], s["points"]) for s in twin_standings
            ]
            page.reload()
            page.wait_for_selector("#console-page[data-ready=true]")
            shown = page.eval_on_selector_all(
                "#console-standings tbody tr", "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))"
            )
            assert shown == [[str(s["rank"]), s["name"], str(s["points"])] for s in standings]
            page.click("#print-crosstable")
            page.wait_for_selector("[data-ready=true]")
            crosstable = ok(client.get(f"/api/tournaments/{tid}/crosstable"))["rows"]
            printed = page.eval_on_selector_all(
                "tr[data-number]",
                "(rows) => rows.map((r) => [Number(r.dataset.number), r.cells[0].textContent, r.cells[1].textContent])",
            )
            # Every player in the crosstable's order with his place, and his name (the
            # withdrawn one's marked so)
            assert [(number, place) for number, place, _name in printed] == [
                (row["number"], str(row["place"])) for row in crosstable
            ]
            assert all(name.startswith(row["name"]) for (*_, name), row in zip(printed, crosstable))
            scan(page, language, names)
        finally:
            phone.close()
        assert phone_errors == []
    finally:
        desk.close()
    assert desk_errors == []
    measured["tournament"] = tid
    return measured


def test_a_rated_thirty_player_swiss_runs_from_the_console_alone_in_tigrinya(web):
    """A late entry before round 3, a withdrawal after round 4, an absence in round 5, and
    in round 6 a swap by hand into a rematch that the checker names (C.1) before it is
    published; every other round as the API pairs the twin."""
    measured = run_the_swiss(web, "ti", paper_share=0.0, swap_round=6)
    # Pair and publish: 2 taps and nothing typed; with the swap, 3 more (two choices and
    # the check; a choice already made is no tap). A board's result: 1 tap, and once the
    # way the games ended.
    swapped = measured["pair_and_publish"].pop(5)
    assert measured["pair_and_publish"] == [(2, 0)] * (ROUNDS - 1) and swapped in ((4, 0), (5, 0))
    # The phone keeps its page (the rounds arrive live), so the way is chosen once.
    assert [(taps, typed) for taps, typed, boards in measured["results"]] == [
        (boards + (k == 0), 0) for k, (taps, typed, boards) in enumerate(measured["results"])
    ]
    print("pair and publish (taps, typed):", measured["pair_and_publish"], "with the swap:", swapped)
    print("results of a round (taps, typed, boards):", measured["results"])


@pytest.mark.parametrize("language", ["am", "en"])
def test_games_played_on_paper_count_as_played_in_pairings_trf_and_ratings(web, language):
    """Half the boards entered as games played on paper, the twin recording every board as
    a game: the same pairings (so no two players meet twice and seats alternate as for
    recorded games), the TRF writes 1 0 = for them, and the rating list counts them. In
    Amharic and in English, each page passing the language scan."""
    measured = run_the_swiss(web, language, paper_share=0.5, swap_round=None)
    tid, paper = measured["tournament"], measured["paper"]
    assert 0 < len(paper)
    client = web.client
    rounds = [ok(client.get(f"/api/tournaments/{tid}/rounds/{r}")) for r in range(1, ROUNDS + 1)]
    meetings = [frozenset(pair) for r in rounds for pair in pairs(r)[0]]
    assert len(meetings) == len(set(meetings))
    assert all(b["entered_as"] == "played" for r in rounds for b in r["boards"] if (r["round"], b["board"]) in paper)
    trf = client.get(f"/api/tournaments/{tid}/trf").get_data(as_text=True)
    marks = trf_results(trf)
    for round_number, board in paper:
        seated = rounds[round_number - 1]["boards"][board - 1]
        assert marks[(seated["south"]["number"], round_number)] in ("1", "0", "=")
    listed = ok(client.get("/api/ratings/qelat"))["players"]
    assert sum(entry["games"] for entry in listed) == 2 * sum(len(r["boards"]) for r in rounds)
    # FIDE's calculator read this run's TRF once (fixtures/tiebreaks/README.md): the same
    # file again (but the registry's ids, new each run), and the same standings.
    assert without_registry_ids(trf) == without_registry_ids((CALCULATED / "paper-run.trf").read_text())
    want = reference_values(CALCULATED / "paper-run.json", round_robin=False)
    standings = ok(client.get(f"/api/tournaments/{tid}/standings"))
    assert standings["tiebreaks"] == list(C07_SWISS)
    for s in standings["standings"]:
        mine = {"PTS": s["points"], **s["tiebreaks"]}
        assert {code: Fraction(str(value)) for code, value in mine.items()} == want[s["number"]], s["number"]


def without_registry_ids(text: str) -> list[str]:
    return [line for line in text.splitlines() if not (line.startswith("XMR") and " PLAYER " in line)]


def trf_results(text: str) -> dict[tuple[int, int], str]:
    """Each player's result code in each round, as the service's TRF reader reads it."""
    return {
        (player.number, index): cell.code
        for player in trf.parse(text).players
        for index, cell in enumerate(player.rounds, start=1)
    }


def test_a_refusal_is_shown_in_the_readers_language_beside_its_field_and_stores_nothing(web):
    context, page, errors = open_page(web, PHONE, "ti")
    try:
        page.fill("#create-form [name=name]", TOURNAMENT_NAME)
        page.fill("#create-form [name=rounds]", "0")
        page.click("[data-action=create-tournament]")
        problem = page.wait_for_selector("#create-form [data-problem][data-field=rounds]:not([hidden])")
        assert problem.text_content().startswith("ዘይቅቡል ትሕዝቶ — ዙርያታት")  # "Invalid body — Rounds"
        assert page.get_attribute("#create-form [name=rounds]", "aria-invalid") == "true"
        assert page.text_content("#create-form .field-problem[data-field=rounds]") == "ዘይቅቡል ትሕዝቶ"
        assert english_left(page.evaluate(READ_TEXTS), {TOURNAMENT_NAME}) == []
        assert ok(web.client.get("/api/tournaments"))["tournaments"] == []
    finally:
        context.close()
    assert errors == []


REGISTRY = [
    {"name": "Abeba Tesfaye", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI"},
    {"name": "Berhane Kidane", "federation": "ERI"},
    {"name": "Chaltu Bekele", "federation": "ETH"},
]


def test_players_are_found_forgivingly_entered_and_a_duplicate_is_warned_before_registering(web):
    """The registry searched in Ge'ez and in Latin letters whatever their case, spacing and
    accents; a new player whose name the registry has already is not registered until the
    arbiter says he is another person, and can be entered as the one found instead."""
    for body in REGISTRY:
        ok(web.client.post("/api/players", json=body))
    tid = ok(
        web.client.post("/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "swiss", "rounds": 5})
    )["id"]
    context, page, errors = open_page(web, PHONE, "en")
    try:
        page.goto(f"/tournaments/{tid}/console")
        page.wait_for_selector("#console-page[data-ready=true]")
        for query in ("ኣበባ", "  abeba   TESFAYE ", "Abéba", "tesf"):
            page.fill("#player-search", query)
            page.click("#search-form button[type=submit]")
            page.wait_for_function(
                "(q) => document.getElementById('search-results').dataset.query === q", arg=query.strip()
            )
            assert page.locator("#search-results [data-action=enter-player]").count() == 1, query
        act(page, "#search-results [data-action=enter-player]")
        assert page.text_content("#entrants tr[data-player='1']").count("Abeba Tesfaye") == 1
        page.locator("#register-details").evaluate("(d) => { d.open = true; }")
        page.fill("#register-form [name=name]", "berhane  kidane")
        page.fill("#register-form [name=federation]", "ERI")
        page.click("#register-form [data-action=register-player]:not([data-force])")
        page.wait_for_selector("#duplicates:not([hidden]) #duplicates-list [data-action=enter-player]")
        assert len(ok(web.client.get("/api/players?q=berhane"))["players"]) == 1  # nobody registered
        act(page, "#duplicates-list [data-action=enter-player]")
        entrants = ok(web.client.get(f"/api/tournaments/{tid}"))["players"]
        assert [(e["number"], e["name"]) for e in entrants] == [(1, "Abeba Tesfaye"), (2, "Berhane Kidane")]
        page.fill("#register-form [name=name]", "Chaltu Bekele")
        page.fill("#register-form [name=federation]", "ETH")
        page.click("#register-form [data-action=register-player]:not([data-force])")
        page.wait_for_selector("#duplicates:not([hidden])")
        act(page, "#register-anyway")
        assert len(ok(web.client.get("/api/players?q=chaltu"))["players"]) == 2  # another person
        assert page.locator("#entrants tbody tr").count() == 3
    finally:
        context.close()
    assert errors == []


def test_the_console_corrects_an_entered_result_and_finishes_once_every_board_has_one(web):
    """A Swiss of five rounds stopped after its first: finishing is refused while a board
    has no result; a result entered on paper is corrected by a new event; then finished."""
    client = web.client
    body = {"name": TOURNAMENT_NAME, "variant": "qelat", "format": "swiss", "rounds": 5}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for player in PLAYERS[:4]:
        ok(client.post(f"/api/tournaments/{tid}/players", json=player))
    boards = ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]
    context, page, errors = open_page(web, PHONE, "ti")
    try:
        page.goto(f"/tournaments/{tid}/console#finish-section")
        page.wait_for_selector("#console-page[data-ready=true]")
        page.click("#finish-details summary")
        page.click("[data-action=finish-tournament]")
        page.wait_for_selector("#finish-form [data-problem]:not([hidden])")
        assert ok(client.get(f"/api/tournaments/{tid}"))["status"] == "in_progress"
        for board in boards:
            act(page, f"#boards li[data-board='{board['board']}'] [data-action=enter-result][data-result=draw]")
        first = f"#boards li[data-board='{boards[0]['board']}']"
        act(page, f"{first} [data-action=enter-result][data-corrects=true][data-result=south_wins]")
        assert ok(client.get(f"/api/tournaments/{tid}/rounds/1"))["boards"][0]["result"] == "south_wins"
        entered = [
            e
            for e in ok(client.get(f"/api/tournaments/{tid}/events"))["events"]
            if e["type"] == "board_result_recorded"
        ]
        assert len(entered) == len(boards) + 1  # the correction is an event of its own; the draw stays in the log
        act(page, "[data-action=finish-tournament]")
        assert page.is_visible("#finished-note") and page.is_hidden("#pair-form")
        assert ok(client.get(f"/api/tournaments/{tid}"))["status"] == "finished"
        names = {TOURNAMENT_NAME, tid, "ERI", "ETH", *(str(p["name"]) for p in PLAYERS)}
        assert english_left(page.evaluate(READ_TEXTS), names) == []
    finally:
        context.close()
    assert errors == []


def test_a_trf_uploaded_on_the_console_becomes_a_tournament_with_its_players_and_rounds(web):
    context, page, errors = open_page(web, DESKTOP, "en")
    try:
        page.select_option("#import-form [name=variant]", "qelat")
        page.set_input_files("#import-form [name=trf]", str(CALCULATED / "paper-run.trf"))
        page.click("#import-form button[type=submit]")  # its players are another registry's
        page.wait_for_selector("#import-form [data-problem][data-status='422']:not([hidden])")
        text = "\n".join(without_registry_ids((CALCULATED / "paper-run.trf").read_text())) + "\n"
        upload = {"name": "paper-run.trf", "mimeType": "text/plain", "buffer": text.encode()}
        page.set_input_files("#import-form [name=trf]", files=[upload])
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#console-page[data-tournament-id][data-ready=true]")
        tid = page.get_attribute("#console-page", "data-tournament-id")
        imported = ok(web.client.get(f"/api/tournaments/{tid}"))
        assert (len(imported["players"]), len(imported["rounds"])) == (30, ROUNDS)
        assert page.locator("#entrants tbody tr").count() == 30
    finally:
        context.close()
    assert errors == []


def test_a_tap_on_a_result_survives_a_live_update_arriving_mid_tap(web):
    """A tablet's result arrives (the console reads the tournament again) between the
    finger's touch and its lift on another board's button: the tap still enters that
    board's result. Drawing every board anew under the finger lost such a tap (the press
    and the lift on two different buttons make no click), and a live round brings
    updates all the time."""
    client = web.client
    body = {"name": TOURNAMENT_NAME, "variant": "qelat", "format": "swiss", "rounds": 3}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for player in PLAYERS[:4]:
        ok(client.post(f"/api/tournaments/{tid}/players", json=player))
    ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))
    context, page, errors = open_page(web, PHONE, "ti")
    try:
        page.goto(f"/tournaments/{tid}/console#results-section")
        page.wait_for_selector("#console-page[data-ready=true] #boards[data-round='1']")
        button = page.locator("#boards li[data-board='2'] [data-action=enter-result][data-result=north_wins]")
        box = button.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        before = updates(page)
        ok(client.post(f"/api/tournaments/{tid}/rounds/1/boards/1/result", json={"result": "draw", "kind": "played"}))
        page.wait_for_function(
            "(before) => document.getElementById('console-page').dataset.updates !== before", arg=before
        )
        page.mouse.up()
        page.wait_for_selector("#boards li[data-board='2'][data-state=finished]")
        assert ok(client.get(f"/api/tournaments/{tid}/rounds/1"))["boards"][1]["result"] == "north_wins"
    finally:
        context.close()
    assert errors == []


def test_the_console_names_a_registry_player_in_both_scripts_wherever_it_names_him(web):
    """As every page of the site (docs/web.md, *Players' names in both scripts*): the
    entrants, the proposed round and its swap lists, the round's boards and the standings
    give a registry player's Ge'ez name beside his Latin one."""
    client = web.client
    body = {"name": TOURNAMENT_NAME, "variant": "qelat", "format": "swiss", "rounds": 3}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    entries = [*REGISTRY, {"name": "Dawit Alemu", "name_geez": "ዳዊት ኣለሙ", "federation": "ERI"}]
    for k, entry in enumerate(entries):
        ok(client.post(f"/api/tournaments/{tid}/players", json={**entry, "register": True, "rating": 1900 - k}))
    ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))
    context, page, errors = open_page(web, DESKTOP, "ti")
    try:
        page.goto(f"/tournaments/{tid}/console")
        page.wait_for_selector("#console-page[data-ready=true]")
        for where in ("#entrants tr[data-player='1']", "#boards", "#console-standings"):
            assert "Abeba Tesfaye (ኣበባ ተስፋይ)" in page.text_content(where), where
        for board in ok(client.get(f"/api/tournaments/{tid}/rounds/1"))["boards"]:
            url = f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/result"
            ok(client.post(url, json={"result": "draw", "kind": "played"}))
        page.reload()
        page.wait_for_selector("#console-page[data-ready=true]")
        act(page, "[data-action=pair-round]")
        assert "Abeba Tesfaye (ኣበባ ተስፋይ)" in page.text_content("#proposal-boards")
        assert "Dawit Alemu (ዳዊት ኣለሙ)" in page.text_content("#proposal-boards")
        assert "Abeba Tesfaye (ኣበባ ተስፋይ)" in page.text_content("#swap-first")
        names = {TOURNAMENT_NAME, tid, "ERI", "ETH", *(entry["name"] for entry in entries)}
        assert english_left(page.evaluate(READ_TEXTS), names) == []
    finally:
        context.close()
    assert errors == []


def test_a_knock_out_opened_on_the_console_names_its_format_in_the_readers_language(web):
    clock = {"stages": [{"base_ms": 300_000, "increment_ms": 5_000}]}
    settings = {"match_games": 1, "playoff_games": 1, "playoff_time_control": clock}
    body = {"name": TOURNAMENT_NAME, "variant": "qelat", "format": "knockout", "knockout": settings}
    tid = ok(web.client.post("/api/tournaments", json=body))["id"]
    context, page, errors = open_page(web, PHONE, "ti")
    try:
        page.goto(f"/tournaments/{tid}/console")
        page.wait_for_selector("#console-page[data-ready=true]")
        assert page.text_content("#console-meta").startswith("ውድድር ምውጻእ")  # "Knock-out"
        scan(page, "ti", {TOURNAMENT_NAME, tid})
    finally:
        context.close()
    assert errors == []


def enter_on_the_console(page, board: int, result: str) -> None:
    act(page, f"#boards li[data-board='{board}'] [data-action=enter-result][data-result={result}]")


def test_a_four_player_knock_out_runs_from_the_console_with_a_lot_deciding_a_level_semi_final(web):
    """Created on the console with its settings (one game a match, one play-off game at
    faster clocks), four players entered and seeded by rating, each game's result entered
    as a board's, the semi-final left level after its play-off decided by the lot tapped on
    the console, the final played: the champion shown, the bracket page linked, every word
    in Tigrinya. A lot on a match that is not level is refused as the API refuses it."""
    client = web.client
    context, page, errors = open_page(web, DESKTOP, "ti")
    try:
        page.fill("#create-form [name=name]", TOURNAMENT_NAME)
        page.select_option("#create-form [name=variant]", "qelat")
        page.select_option("#create-form [name=format]", "knockout")
        page.click("#knockout-settings summary")
        page.fill("#create-form [name=match_games]", "1")
        page.fill("#create-form [name=playoff_games]", "1")
        page.fill("#create-form [name=playoff_minutes]", "5")
        page.fill("#create-form [name=playoff_increment_seconds]", "3")
        page.click("[data-action=create-tournament]")
        page.wait_for_selector("#console-page[data-tournament-id][data-ready=true]")
        tid = page.get_attribute("#console-page", "data-tournament-id")
        created = ok(client.get(f"/api/tournaments/{tid}/bracket"))
        assert (created["match_games"], created["playoff_games"]) == (1, 1)
        playoff_clock = created["playoff_time_control"]["stages"][0]
        assert (playoff_clock["base_ms"], playoff_clock["increment_ms"]) == (300_000, 3_000)
        assert page.is_visible("#knockout-section") and page.is_visible("#handover-details summary")
        for player in PLAYERS[:4]:
            register(page, player)
        assert page.is_hidden("#handover-details")  # players entered: seeded by rating, not handed over
        act(page, "[data-action=pair-round]")
        assert page.is_hidden("#swap-form")  # a knock-out is never paired by hand
        act(page, "[data-action=publish-round]")
        assert ok(client.get(f"/api/tournaments/{tid}/bracket"))["seeding"]["by"] == "rating"
        enter_on_the_console(page, 1, "south_wins")  # seed 1 beats seed 4
        enter_on_the_console(page, 2, "draw")  # seeds 2 and 3 level: a play-off game
        act(page, "[data-action=pair-round]")
        act(page, "[data-action=publish-round]")
        enter_on_the_console(page, 1, "draw")  # the play-off level too: the lot decides
        semi = "#matches li[data-stage='1'][data-match='2']"
        assert page.get_attribute(semi, "data-state") == "lot"
        assert page.locator("#matches li[data-stage='1'][data-match='1'] [data-action=record-lot]").count() == 0
        page.fill("#lots-form [name=note]", "ሳንቲም")
        act(page, f"{semi} [data-action=record-lot][data-winner='3']")
        events = ok(client.get(f"/api/tournaments/{tid}/events"))["events"]
        lots = [e["payload"] for e in events if e["type"] == "lot_drawn"]
        assert [(lot["stage"], lot["match"], lot["winner"], lot.get("note")) for lot in lots] == [(1, 2, 3, "ሳንቲም")]
        assert page.get_attribute(semi, "data-state") == "won"
        act(page, "[data-action=pair-round]")
        act(page, "[data-action=publish-round]")
        enter_on_the_console(page, 1, "north_wins")  # the final: seed 1 south, seed 3 north
        bracket = ok(client.get(f"/api/tournaments/{tid}/bracket"))
        assert (bracket["status"], bracket["champion"]["number"]) == ("finished", 3)
        assert page.is_visible("#champion") and PLAYERS[2]["name"] in page.text_content("#champion")
        assert page.get_attribute("#bracket-link", "href") == f"/tournaments/{tid}/bracket"
        scan(page, "ti", {TOURNAMENT_NAME, tid, "ERI", "ETH", "ሳንቲም", *(p["name"] for p in PLAYERS[:4])})
    finally:
        context.close()
    assert errors == []


def test_a_knock_out_is_seeded_on_the_console_from_a_finished_stage_and_refused_before_it_ends(web):
    """The hand-over: a round robin of four, then a knock-out of its top two seeded from
    its standings on the console; tapped before the round robin is finished it is refused
    in the reader's language and stores nothing."""
    client = web.client
    stage = ok(client.post("/api/tournaments", json={"name": "ቀዳማይ", "variant": "qelat", "format": "round_robin"}))
    for player in PLAYERS[:4]:
        ok(client.post(f"/api/tournaments/{stage['id']}/players", json=player))
    body = {"name": TOURNAMENT_NAME, "variant": "qelat", "format": "knockout", "knockout": {"match_games": 1}}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    context, page, errors = open_page(web, PHONE, "am")
    try:
        page.goto(f"/tournaments/{tid}/console#knockout-section")
        page.wait_for_selector("#console-page[data-ready=true]")
        page.click("#handover-details summary")
        page.select_option("#handover-source", stage["id"])
        page.fill("#handover-form [name=qualifiers]", "2")
        page.click("[data-action=seed-knockout]")
        page.wait_for_selector("#handover-form [data-problem]:not([hidden])")
        assert ok(client.get(f"/api/tournaments/{tid}/bracket"))["seeding"] is None
        scan(page, "am", {TOURNAMENT_NAME, tid, "ቀዳማይ"})
        for round_number in (1, 2, 3):
            paired = ok(client.post(f"/api/tournaments/{stage['id']}/rounds", json={}))
            for board in paired["boards"]:
                url = f"/api/tournaments/{stage['id']}/rounds/{round_number}/boards/{board['board']}/result"
                ok(client.post(url, json={"result": "south_wins", "kind": "played"}))
        assert ok(client.get(f"/api/tournaments/{stage['id']}"))["status"] == "finished"
        act(page, "[data-action=seed-knockout]")
        bracket = ok(client.get(f"/api/tournaments/{tid}/bracket"))
        assert (bracket["seeding"]["by"], bracket["seeding"]["source"]) == ("standings", stage["id"])
        assert page.is_hidden("#handover-details")
        assert page.locator("#entrants tbody tr").count() == 2
    finally:
        context.close()
    assert errors == []


def registry_teams(client, count: int, boards: int) -> list[dict]:
    """``count`` registry teams of ``boards`` players each, registered through the API."""
    teams = []
    for k in range(count):
        members = [
            ok(client.post("/api/players", json={"name": PLAYERS[k * boards + j]["name"], "federation": "ERI"}))["id"]
            for j in range(boards)
        ]
        body = {"name": f"{FIRST_NAMES[k]} club", "name_geez": f"ጋንታ {k + 1}", "federation": "ERI", "players": members}
        teams.append(ok(client.post("/api/teams", json=body)))
    return teams


TEAM_SWISS_SETTINGS = {"team_primary_score": "game_points", "team_colour_preferences": "type_b"}


def create_team_event(page, format_: str) -> str:
    """A team event of two boards a match created on the console; a team Swiss of three
    rounds on game points first, its colour preferences of type B and its own order."""
    page.fill("#create-form [name=name]", TOURNAMENT_NAME)
    page.select_option("#create-form [name=variant]", "qelat")
    page.select_option("#create-form [name=format]", format_)
    page.fill("#create-form [name=team_boards]", "2")
    if format_ == "team_swiss":
        page.fill("#create-form [name=rounds]", "3")
        page.locator("#team-settings").evaluate("(d) => { d.open = true; }")
        for name, value in TEAM_SWISS_SETTINGS.items():
            page.select_option(f"#create-form [name={name}]", value)
        page.fill("#create-form [name=team_tiebreaks]", "GPTS MPTS SB:GP")
    page.click("[data-action=create-tournament]")
    page.wait_for_selector("#console-page[data-tournament-id][data-ready=true]")
    return page.get_attribute("#console-page", "data-tournament-id")


@pytest.mark.parametrize("format_", ["team_round_robin", "team_swiss"])
def test_a_four_team_event_of_two_boards_runs_from_the_console_to_its_team_standings(web, format_):
    """Created on the console (two boards a match; a team Swiss with its scores, colours and
    order of tie-breaks), four registry teams found by the team search (by a Latin name typed
    carelessly, by the Ge'ez name; an unknown id finds none, said in the reader's language)
    and entered, three rounds paired and each board's result tapped: the team standings
    shown are the API's, and every word is Amharic."""
    client, rng = web.client, random.Random(SEED)
    teams = registry_teams(client, 4, 2)
    context, page, errors = open_page(web, DESKTOP, "am")
    try:
        tid = create_team_event(page, format_)
        created = ok(client.get(f"/api/tournaments/{tid}"))
        assert created["format"] == format_
        if format_ == "team_swiss":
            assert {k: created[k] for k in TEAM_SWISS_SETTINGS} == TEAM_SWISS_SETTINGS
            assert created["team_tiebreaks"] == ["GPTS", "MPTS", "SB:GP"] and created["rounds_planned"] == 3
        assert page.is_visible("#teams-section") and page.is_hidden("#search-form")
        page.fill("#team-search", "tm-0000")
        page.click("[data-action=find-team]")
        page.wait_for_selector("#team-results li.hint")
        for k, team in enumerate(teams):
            page.fill("#team-search", f"  {FIRST_NAMES[k].upper()}club" if k % 2 else team["name_geez"])
            page.click("[data-action=find-team]")
            found = f"#team-results [data-action=enter-team][data-team-id='{team['id']}']"
            page.wait_for_selector(found)
            assert page.locator("#team-results [data-action=enter-team]").count() == 1
            act(page, found)
            assert page.locator("#team-results li").count() == 0
        entered = ok(client.get(f"/api/tournaments/{tid}"))
        assert [t["id"] for t in entered["teams"]] == [t["id"] for t in teams]
        assert page.locator("#teams-entered li").count() == 4 and len(entered["players"]) == 8
        for round_number in (1, 2, 3):
            act(page, "[data-action=pair-round]")
            assert page.is_hidden("#swap-form")
            act(page, "[data-action=publish-round]")
            for board in ok(client.get(f"/api/tournaments/{tid}/rounds/{round_number}"))["boards"]:
                result = rng.choice(["south_wins", "draw", "north_wins"])
                enter_on_the_console(page, board["board"], result)
        standings = ok(client.get(f"/api/tournaments/{tid}/team-standings"))
        assert standings["status"] == "finished"
        shown = page.eval_on_selector_all(
            "#team-standings tbody tr",
            "(rows) => rows.map((r) => [Number(r.dataset.team), ...[...r.cells].map((c) => c.textContent)])",
        )
        expected = [
            [
                s["team"]["number"],
                str(s["rank"]),
                f"{s['team']['name']} ({s['team']['name_geez']})",
                str(s["match_points"]),
                str(s["game_points"]).removesuffix(".0"),
                str(s["played"]),
            ]
            for s in standings["standings"]
        ]
        assert shown == expected
        names = {TOURNAMENT_NAME, tid, "ERI", "ETH", *(p["name"] for p in PLAYERS[:8]), *(t["name"] for t in teams)}
        scan(page, "am", names)
    finally:
        context.close()
    assert errors == []

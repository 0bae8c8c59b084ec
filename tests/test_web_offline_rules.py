"""The rules on the device (Debian's Chromium via Playwright): while moves are queued
offline the game page folds them through the service's own Python rules in Pyodide
(recorder/web/runtime.py, js/rules.js), so the board, the side to move, the legal holes
and the decision due are those after the queue; a queued move the server refuses is
shown with its reason, and nothing behind it is lost.

Every expectation is read from the service's API after the queue has reached it (the
state at each version, ``GET …/state?at=N``), never from the page's JavaScript.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from browser import CHROMIUM, LiveServer, fixture_game, launch_chromium, record
from conftest import ADMIN_TOKEN, make_app

from recorder.audit.dossier_check import PARTS
from recorder.web import runtime

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(600)

TABLET = {"width": 1280, "height": 800}
RULES_LOAD_MS = 120_000  # Pyodide's first compile on a loaded machine; measured figures: docs/web.md
MOVES = 20
GAMES = {  # each game from its standard start, as its fixture sets it up
    "selus": "selus-single-7.json",
    "gabata": "gabata-default.json",
    "qelat": "qelat-default.json",
    "lahemay_walida": "lahemay_walida-default.json",
    "tuz": "tuz-end-turn-seed1.json",
}
SIDE = {"south": "South", "north": "North"}
WORD = re.compile(r"[A-Za-z]{2,}")  # a Latin word, in a page that should have none
READ_BOARD = """() => {
  const board = document.querySelector('.board');
  const holes = [...board.querySelectorAll('[data-hole]')];
  const store = (side) => Number(board.querySelector(`[data-store=${side}]`).dataset.count);
  return {
    to_move: board.dataset.toMove || null,
    awaiting: board.dataset.awaiting || null,
    holes: Object.fromEntries(holes.map((hole) => [hole.dataset.hole, Number(hole.dataset.count)])),
    owners: Object.fromEntries(holes.map((hole) => [hole.dataset.hole, hole.dataset.owner])),
    legal: holes.filter((hole) => !hole.disabled).map((hole) => hole.dataset.hole).sort(),
    stores: { south: store('south'), north: store('north') },
    status: document.getElementById('game-status').textContent,
    forms: ['opening-form', 'race-form', 'lot-form', 'next-round-form']
      .filter((id) => !document.getElementById(id).hidden),
  };
}"""
FORM_OF = {"opening": "opening-form", "race": "race-form", "lot": "lot-form", "next_round": "next-round-form"}
QUEUED_IN_THE_DATABASE = """() => new Promise((resolve) => {
  const open = indexedDB.open('recorder-offline');
  open.onsuccess = () => { const all = open.result.transaction('pending').objectStore('pending').getAll();
                           all.onsuccess = () => resolve(all.result.map((entry) => entry.command)); };
})"""


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    assert runtime.ensure_runtime(print), "Pyodide could not be fetched with npm (.ci/run installs npm)"
    database = str(tmp_path_factory.mktemp("rules") / "rules.sqlite3")
    app = make_app(database)  # its test client writes as the admin
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        server.variants = {v["name"]: v for v in server.client.get("/api/variants").get_json()["variants"]}
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def signed_in(web, errors: list[str], **options):
    """A page on a new device (browser context) signed in as the admin."""
    page = web.browser.new_context(viewport=TABLET, base_url=web.url, **options).new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/?token={ADMIN_TOKEN}")
    page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    return page


@pytest.fixture
def tablet(web):
    """One signed-in device; no uncaught JavaScript error allowed."""
    errors: list[str] = []
    page = signed_in(web, errors)
    yield page
    page.context.close()
    assert errors == [], errors


@pytest.fixture
def tablet_without_rules(web):
    """A device whose runtime cannot load: its addresses fail (no service worker, which
    would answer them past the browser's routing)."""
    errors: list[str] = []
    page = signed_in(web, errors, service_workers="block")
    page.context.route("**/web-runtime/**", lambda route: route.abort())
    yield page
    page.context.close()
    assert errors == [], errors


def open_offline_with_rules(page, game_id: str) -> int:
    """The game page, online until it has kept the runtime (no Pyodide started: only a
    download); then the network drops and the rules start. How long they took (ms)."""
    page.goto(f"/games/{game_id}")
    page.wait_for_selector("#game-page[data-ready=true][data-rules-state=standby]")
    assert page.inner_text("#rules-status").startswith("The rules are kept on this device")
    page.wait_for_selector("#game-page[data-rules-kept=true]", timeout=RULES_LOAD_MS)
    page.context.set_offline(True)
    page.wait_for_selector("#game-page[data-rules-state=ready]", timeout=RULES_LOAD_MS)
    assert "The rules run on this device" in page.inner_text("#rules-status")
    return int(page.get_attribute("#game-page", "data-rules-load-ms"))


def shown_after(page, queued: int) -> dict:
    """The page once it has drawn the position after ``queued`` moves (its rules' fold)."""
    if queued:
        page.wait_for_selector(f"#game-status[data-queued='{queued}']")
    return page.evaluate(READ_BOARD)


def server_states(web, game_id: str, first: int, count: int) -> list[dict]:
    """The service's state at versions first … first+count (one event per command)."""
    return [web.client.get(f"/api/games/{game_id}/state?at={first + k}").get_json() for k in range(count + 1)]


def expected_view(web, state: dict, names: dict) -> dict:
    variant = web.variants[state["variant"]]
    playing = not state.get("game_over") and not state.get("awaiting")
    return {
        "to_move": state["to_move"],
        "awaiting": None if state.get("game_over") else state.get("awaiting"),
        "holes": state["holes"],
        "owners": {hole: state["owners"].get(hole, owner) for hole, owner in variant["default_owners"].items()},
        "legal": sorted(state["legal_moves"]) if playing else [],
        "stores": state["stores"],
        "forms": [FORM_OF[state["awaiting"]]] if state.get("awaiting") and not state.get("game_over") else [],
        "status_ends": f"{SIDE[state['to_move']]} ({names[state['to_move']]}) to move" if playing else None,
    }


def assert_same(shown: dict, expected: dict, where: str) -> None:
    for key in ("to_move", "awaiting", "holes", "owners", "legal", "stores", "forms"):
        assert shown[key] == expected[key], (where, key, shown[key], expected[key])
    if expected["status_ends"]:  # the header names the side to move after the queue
        assert shown["status"].endswith(expected["status_ends"]), (where, shown["status"])


def decide(page, awaiting: str, rng: random.Random) -> None:
    """The decision due, through its form, as an arbiter fills it."""
    side = rng.choice(["south", "north"])
    if awaiting == "opening":
        page.click(f"#opening-form button[value={rng.choice(['tuz', 'plain'])}]")
    elif awaiting == "race":  # the race board as the form offers it (54 seeds), and its winner
        page.check(f"#race-form input[name=winner][value={side}]")
        page.click("#race-submit")
    elif awaiting == "lot":
        page.click(f"#lot-{side}")
    elif awaiting == "next_round":
        page.check(f"#next-round-form input[name=first_player][value={side}]")
        page.click("#next-round-submit")
    else:
        raise AssertionError(f"no form for {awaiting}")


def pending(page) -> int:
    return int(page.inner_text("#pending-count")) if page.is_visible("#pending") else 0


def no_illegal_tap(page, shown: dict, rng: random.Random, queued: int) -> None:
    """A hole the rules do not offer is disabled, and a tap on it queues nothing."""
    holes = [hole for hole in shown["holes"] if hole not in shown["legal"]]
    for hole in holes:
        assert page.get_attribute(f".board [data-hole='{hole}']", "disabled") is not None, hole
    if holes:
        page.click(f".board [data-hole='{rng.choice(holes)}']", force=True)
        page.wait_for_timeout(50)
        assert pending(page) == queued


@pytest.mark.parametrize("variant", GAMES)
def test_twenty_random_moves_offline_show_what_the_server_gives_after_they_sync(web, tablet, variant):
    game = fixture_game(GAMES[variant])
    names = {"south": game["setup"].get("south", "South"), "north": game["setup"].get("north", "North")}
    game_id = record(web.client, game["setup"], [])
    load_ms = open_offline_with_rules(tablet, game_id)  # offline from the first move
    print(f"{variant}: the rules loaded on the device in {load_ms} ms")
    rng = random.Random(f"offline-rules-{variant}")

    shown_steps = []
    for queued in range(MOVES):
        shown = shown_after(tablet, queued)
        shown_steps.append(shown)
        no_illegal_tap(tablet, shown, rng, queued)
        if shown["awaiting"]:
            decide(tablet, shown["awaiting"], rng)
        elif shown["legal"]:
            tablet.click(f".board [data-hole='{rng.choice(shown['legal'])}']")
        else:
            break  # the game is over: nothing more to record
        tablet.wait_for_selector(f"#pending-count:text-is('{queued + 1}')")
    else:
        shown_steps.append(shown_after(tablet, MOVES))
    recorded = len(shown_steps) - 1
    assert len(web.client.get(f"/api/games/{game_id}/events").get_json()["events"]) == 1  # all still on the device

    tablet.context.set_offline(False)
    tablet.wait_for_selector(f".board[data-version='{1 + recorded}']", timeout=60_000)
    tablet.wait_for_selector("#pending", state="hidden")
    for k, (shown, state) in enumerate(zip(shown_steps, server_states(web, game_id, 1, recorded), strict=True)):
        assert_same(shown, expected_view(web, state, names), f"{variant} after {k} queued")


def test_a_round_ends_offline_and_the_page_asks_for_the_lot_and_the_next_round(web, tablet):
    game = fixture_game("lahemay_walida-threes-lot.json")  # its lot and next round: commands 8 and 9
    names = {"south": game["setup"]["south"], "north": game["setup"]["north"]}
    game_id = record(web.client, game["setup"], game["commands"][:5])
    open_offline_with_rules(tablet, game_id)
    shown_steps = [shown_after(tablet, 0)]
    for queued, command in enumerate(game["commands"][5:12], start=1):
        if command["type"] == "sow":
            tablet.click(f".board [data-hole='{command['hole']}']")
        elif command["type"] == "lot":
            assert shown_steps[-1]["forms"] == ["lot-form"]
            tablet.click(f"#lot-{command['winner']}")
        else:
            assert command["type"] == "next_round" and shown_steps[-1]["forms"] == ["next-round-form"]
            tablet.check(f"#next-round-form input[name=first_player][value={command['first_player']}]")
            tablet.click("#next-round-submit")
        shown_steps.append(shown_after(tablet, queued))

    # A result the rules refuse (a draw by resignation) is not queued, and says why.
    tablet.click("#result-panel summary")
    tablet.select_option("#result-form select[name=winner]", "")
    tablet.click("#result-form button[type=submit]")
    tablet.wait_for_selector("#action-error:not([hidden])")
    assert tablet.inner_text("#action-error").startswith("Not queued: the rules on this device refuse it:")
    assert pending(tablet) == 7

    tablet.context.set_offline(False)
    tablet.wait_for_selector(".board[data-version='13']", timeout=60_000)
    for k, (shown, state) in enumerate(zip(shown_steps, server_states(web, game_id, 6, 7), strict=True)):
        assert_same(shown, expected_view(web, state, names), f"after {k} queued")


def test_a_move_queued_while_another_tablet_recorded_is_shown_refused_and_nothing_behind_it_is_lost(web, tablet):
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:4])
    open_offline_with_rules(tablet, game_id)
    mine = [command["hole"] for command in game["commands"][4:7]]
    for queued, hole in enumerate(mine, start=1):
        tablet.click(f".board [data-hole='{hole}']")
        shown_after(tablet, queued)
    # Meanwhile another tablet records a different sowing for the same turn.
    legal = web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"]
    theirs = next(hole for hole in legal if hole != mine[0])
    answer = web.client.post(
        f"/api/games/{game_id}/commands", json={"type": "sow", "hole": theirs, "expected_version": 5}
    )
    assert answer.status_code == 201

    tablet.context.set_offline(False)
    tablet.wait_for_selector("#conflict:not([hidden])")
    assert tablet.inner_text("#conflict-title") == "Another device recorded first"
    assert "expected the game at version 5" in tablet.inner_text("#conflict")
    assert tablet.get_attribute("#connection", "data-state") == "conflict"
    # The page's rules say whether the arbiter's choice would stand: theirs withdrawn, mine after.
    tablet.wait_for_selector("#conflict-check:not([hidden])")
    assert tablet.inner_text("#conflict-check") == "On this device's rules, your queued moves are legal after that."
    assert [t.split()[-1] for t in tablet.locator("#conflict-mine li").all_inner_texts()] == mine
    assert [c["hole"] for c in tablet.evaluate(QUEUED_IN_THE_DATABASE)] == mine  # nothing behind it lost
    assert len(web.client.get(f"/api/games/{game_id}/events").get_json()["events"]) == 6

    tablet.click("#replace-theirs")
    tablet.wait_for_selector(".board[data-version='10']")
    log = web.client.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert [e["payload"].get("hole") for e in log[-3:]] == mine


def offline_without_rules(web, tablet, query: str):
    """A Qelat game four moves in, open on a device whose rules cannot load, gone offline;
    with the first legal sowing, the same game on the server one sowing on (what the server
    will make of the moves queued after it), its state, and a hole it refuses then."""
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:4])
    tablet.goto(f"/games/{game_id}{query}")
    tablet.wait_for_selector("#game-page[data-ready=true]")
    tablet.context.set_offline(True)
    tablet.wait_for_selector("#game-page[data-rules-state=failed]", timeout=RULES_LOAD_MS)
    first = web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
    twin = record(web.client, game["setup"], [*game["commands"][:4], {"type": "sow", "hole": first}])
    after = web.client.get(f"/api/games/{twin}/state").get_json()
    illegal = next(hole for hole in after["holes"] if hole not in after["legal_moves"])
    return game_id, first, twin, after, illegal


def test_without_the_rules_the_page_says_so_and_a_move_the_server_refuses_is_named_with_what_to_do(
    web, tablet_without_rules
):
    """A device whose runtime cannot load (here: its addresses fail) records as before: after
    the first queued move, any hole, on the last recorded board. An illegal sowing queued
    that way is refused when the network returns; the page names it, why, and the choices,
    and keeps the move behind it."""
    tablet = tablet_without_rules
    game_id, first, _, after, illegal = offline_without_rules(web, tablet, "")
    assert tablet.inner_text("#rules-status").startswith("The rules are not loaded on this device")
    legal = after["legal_moves"][0]
    for queued, hole in enumerate([first, illegal, legal], start=1):
        tablet.click(f".board [data-hole='{hole}']")  # after the first, any hole: there are no rules here
        tablet.wait_for_selector(f"#pending-count:text-is('{queued}')")
    assert tablet.inner_text("#prompt").startswith("Moves are pending: tap the next hole played.")
    assert tablet.get_attribute(".board", "data-version") == "5"  # the last recorded board

    tablet.context.set_offline(False)
    tablet.wait_for_selector("#connection[data-state=refused]")
    assert tablet.inner_text("#connection") == f"Online: queued move 1 (sow {illegal}) was refused; choose below"
    help_text = tablet.inner_text("#rejected-help")
    assert help_text.startswith(f"Queued move 1, sow {illegal}, was refused by the server: ")
    assert "may not sow" in help_text and "The 1 move after it is kept on this device" in help_text
    assert tablet.inner_text("#discard-rejected") == "Discard it and the 1 move after it"
    assert [c["hole"] for c in tablet.evaluate(QUEUED_IN_THE_DATABASE)] == [illegal, legal]
    assert len(web.client.get(f"/api/games/{game_id}/events").get_json()["events"]) == 6  # the first only

    tablet.click("#discard-refused-only")  # the move behind it is sent
    tablet.wait_for_selector(".board[data-version='7']")
    tablet.wait_for_selector("#pending", state="hidden")
    assert web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]["payload"]["hole"] == legal


def test_the_rules_line_and_a_refused_queued_move_speak_the_readers_language(web, tablet_without_rules):
    """In Tigrinya the line about the rules on the device, the badge, the pending panel and
    the refused move's choices are Tigrinya: no Latin word is left but the hole's name
    (``a2``) and the engine's detail, which stays English (docs/i18n.md)."""
    tablet = tablet_without_rules
    _, first, twin, after, illegal = offline_without_rules(web, tablet, "?lang=ti")
    detail = web.client.post(
        f"/api/games/{twin}/commands", json={"type": "sow", "hole": illegal, "expected_version": 6}
    ).get_json()["detail"]
    for queued, hole in enumerate([first, illegal, after["legal_moves"][0]], start=1):
        tablet.click(f".board [data-hole='{hole}']")
        tablet.wait_for_selector(f"#pending-count:text-is('{queued}')")
    shown = [tablet.inner_text(selector) for selector in ("#rules-status", "#connection", "#pending-hint", "#prompt")]

    tablet.context.set_offline(False)
    tablet.wait_for_selector("#connection[data-state=refused]")
    shown += [tablet.inner_text(selector) for selector in ("#connection", "#rejected-help", "#rejected-actions")]
    words = [word for text in shown for word in WORD.findall(text.replace(detail, ""))]
    assert words == [], (words, shown)
    assert detail in tablet.inner_text("#rejected-help")


OFFERED = """() => [...document.querySelectorAll('.board [data-hole]')]
  .filter((h) => !h.disabled).map((h) => h.dataset.hole).sort()"""


def test_no_hole_the_rules_refuse_is_offered_at_any_moment_after_the_network_drops(web, tablet):
    """An arbiter taps at once when the network drops: the rules on the device then take
    seconds to start. The first sowing is offered from the service's own legal holes; after
    it, nothing is offered until the rules say which holes are legal after the queue (they
    once offered every hole of both rows meanwhile). The page is read every 20 ms from the
    moment the network drops until the rules run."""
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:4])
    recorded = web.client.get(f"/api/games/{game_id}/state").get_json()
    first = recorded["legal_moves"][0]
    twin = record(web.client, game["setup"], [*game["commands"][:4], {"type": "sow", "hole": first}])
    after = sorted(web.client.get(f"/api/games/{twin}/state").get_json()["legal_moves"])
    tablet.goto(f"/games/{game_id}")
    tablet.wait_for_selector("#game-page[data-ready=true][data-rules-state=standby]")
    tablet.wait_for_selector("#game-page[data-rules-kept=true]", timeout=RULES_LOAD_MS)
    tablet.context.set_offline(True)
    assert set(tablet.evaluate(OFFERED)) <= set(recorded["legal_moves"])
    tablet.click(f".board [data-hole='{first}']")  # at once: the rules are still starting
    samples = []
    while tablet.get_attribute("#game-page", "data-rules-state") != "ready":
        samples.append(tablet.evaluate(OFFERED))
        assert set(samples[-1]) <= set(after), samples[-1]
        tablet.wait_for_timeout(20)
    assert samples and samples[0] == []  # it was still starting: nothing was offered, and the page said why
    tablet.wait_for_function(f"() => ({OFFERED})().length === {len(after)}")
    assert tablet.evaluate(OFFERED) == after


def test_clocked_moves_a_pause_and_the_time_result_queued_offline_are_folded_as_the_server_records_them(web, tablet):
    """The device clock offline, with the rules on the device: each sowing is queued with its
    reading, a pause with the reading when stopped, then a resume and a `time` result; the
    rules here accept each and show the position after it, the game over at the end, and
    the server, when the network returns, records every one of them with its reading."""
    game = fixture_game("qelat-default.json")
    setup = {**game["setup"], "time_control": {"stages": [{"base_ms": 600_000, "increment_ms": 5_000}]}}
    names = {"south": setup["south"], "north": setup["north"]}
    game_id = record(web.client, setup, game["commands"][:4])
    open_offline_with_rules(tablet, game_id)
    tablet.click("#clock-start")
    shown = {0: shown_after(tablet, 0)}
    tablet.click(f".board [data-hole='{game['commands'][4]['hole']}']")
    shown[1] = shown_after(tablet, 1)
    tablet.click("#clock-pause")
    tablet.wait_for_selector("#pending-count:text-is('2')")
    tablet.click("#clock-resume")
    tablet.wait_for_selector("#pending-count:text-is('3')")
    tablet.click(f".board [data-hole='{game['commands'][5]['hole']}']")
    shown[4] = shown_after(tablet, 4)
    tablet.click("#result-panel summary")
    tablet.select_option("#result-form select[name=kind]", "time")
    tablet.select_option("#result-form select[name=winner]", "north")
    tablet.click("#result-form button[type=submit]")
    shown[5] = shown_after(tablet, 5)
    assert shown[5]["status"].startswith("Game over: North wins (time)")
    queued = tablet.evaluate(QUEUED_IN_THE_DATABASE)
    assert [command["type"] for command in queued] == ["sow", "pause_clocks", "resume_clocks", "sow", "result"]
    assert all("clock" in command for command in queued if command["type"] != "resume_clocks")
    listed = tablet.locator("#pending-list li").all_inner_texts()
    assert "Pause the clocks" in listed[1] and "Resume the clocks" in listed[2]  # words, not the command's type

    tablet.context.set_offline(False)
    tablet.wait_for_selector(".board[data-version='10']", timeout=60_000)
    log = web.client.get(f"/api/games/{game_id}/events").get_json()["events"][5:]
    assert [event["type"] for event in log] == ["sowed", "clocks_paused", "clocks_resumed", "sowed", "result_recorded"]
    assert [event["payload"].get("clock") for event in log] == [command.get("clock") for command in queued]
    assert log[-1]["payload"]["kind"] == "time" and log[-1]["payload"]["winner"] == "north"
    for queued_count, version in ((0, 5), (1, 6), (4, 9), (5, 10)):
        state = web.client.get(f"/api/games/{game_id}/state?at={version}").get_json()
        assert_same(shown[queued_count], expected_view(web, state, names), f"after {queued_count} queued")


def test_the_game_page_checks_a_dossier_file_offline_with_the_rules_on_the_device(web, tablet, tmp_path):
    """An appeal dossier saved from the service is checked on the game page with the network
    down, by the rules the page already runs (the same Python as `recorder verify --dossier`,
    its signatures by the browser's Ed25519): every part holds, in Tigrinya; a file with one
    byte changed fails, naming the parts that do not hold."""
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:6])
    data = web.client.get(f"/api/games/{game_id}/dossier?moves=3").get_data()
    intact, changed = tmp_path / "intact.dossier", tmp_path / "changed.dossier"
    intact.write_bytes(data)
    # The setup's time a microsecond later: the first event's hash no longer recomputes.
    changed.write_bytes(
        re.sub(rb'("recorded_at":"[^"]*)(\d)Z"', lambda m: m[1] + b'%dZ"' % ((int(m[2]) + 1) % 10), data, count=1)
    )
    assert changed.read_bytes() != data
    tablet.goto(f"/games/{game_id}?lang=ti")
    tablet.wait_for_selector("#game-page[data-ready=true][data-rules-kept=true]", timeout=RULES_LOAD_MS)
    tablet.context.set_offline(True)
    tablet.set_input_files("#dossier-input", str(intact))
    tablet.wait_for_selector("#dossier-check[data-result=passed]", timeout=RULES_LOAD_MS)
    parts = tablet.eval_on_selector_all("#dossier-findings li", "els => els.map((e) => [e.dataset.part, e.dataset.ok])")
    assert parts == [[part, "true"] for part in PARTS]
    verdicts = [tablet.inner_text(f"#dossier-findings li[data-part={part}] strong") for part in PARTS]
    words = [word for text in [tablet.inner_text("#dossier-verdict"), *verdicts] for word in WORD.findall(text)]
    assert words == [], words  # the reader's language; the checker's own details stay as it wrote them
    tablet.set_input_files("#dossier-input", str(changed))
    tablet.wait_for_selector("#dossier-check[data-result=failed]", timeout=RULES_LOAD_MS)
    failed = tablet.eval_on_selector_all("#dossier-findings li[data-ok=false]", "els => els.map((e) => e.dataset.part)")
    assert failed == ["signature", "chain"]

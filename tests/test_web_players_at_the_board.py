"""Players at the board in Chromium: two players check in by their badges' QR sign-ins,
their game is recorded, one confirms on the game page with his badge and the other
disputes a move, the arbiter corrects the record and decides on the page, both confirm
the corrected result, and the standings of a tournament that requires confirmation count
it only then. The game's dossier verifies with `recorder verify --dossier` and offline in
the page, its confirmations, dispute and decision included."""

from __future__ import annotations

import json
import os

import pytest
from browser import CHROMIUM, LiveServer, launch_chromium
from click.testing import CliRunner
from conftest import ADMIN, ADMIN_TOKEN, make_app
from tournament_support import fixture_commands

from recorder.audit.dossier_check import PARTS
from recorder.cli.main import main
from recorder.web import runtime

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(600)

RULES_LOAD_MS = 120_000  # Pyodide's first compile on a loaded machine (docs/web.md)


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    assert runtime.ensure_runtime(print), "Pyodide could not be fetched with npm (.ci/run installs npm)"
    app = make_app(str(tmp_path_factory.mktemp("players") / "players.sqlite3"))
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def device(web, errors: list[str]):
    page = web.browser.new_context(base_url=web.url, viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def command(client, game_id: str, body: dict) -> dict:
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    response = client.post(f"/api/games/{game_id}/commands", headers=ADMIN, json={**body, "expected_version": version})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def points(client, tid: str) -> dict[int, float]:
    return {s["number"]: s["points"] for s in client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]}


def test_two_players_confirm_and_dispute_at_the_board_and_the_result_counts_once_both_confirmed(web, tmp_path):
    client, errors = web.client, []
    body = {"name": "Adwa Open", "variant": "gabata", "format": "manual", "rounds": 1, "require_confirmation": True}
    tid = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for name in ("Abeba", "Berhane"):
        assert client.post(f"/api/tournaments/{tid}/players", headers=ADMIN, json={"name": name}).status_code == 201

    # The arbiter prints the badges; each player scans his own (its QR code: the address).
    arbiter = device(web, errors)
    arbiter.goto(f"/tournaments/{tid}/badges?token={ADMIN_TOKEN}")
    arbiter.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    with arbiter.expect_response(lambda r: r.url.endswith("/players/signins") and r.request.method == "POST") as issued:
        arbiter.click("#badges-issue")
    badges = {b["player"]: b for b in json.loads(issued.value.text())["signins"]}
    arbiter.wait_for_selector(".player-badge >> nth=1")
    assert arbiter.locator(".player-badge h2").all_inner_texts() == ["Abeba", "Berhane"]
    phones = {}
    for number, badge in badges.items():
        phone = device(web, errors)
        phone.goto(badge["address"])
        phone.wait_for_url(f"**/tournaments/{tid}", timeout=15_000)
        phone.wait_for_selector("#check-in:not([hidden])")
        phone.click("#check-in-present")
        phone.wait_for_function("() => document.getElementById('check-in-status').textContent.length > 0")
        phones[number] = phone
    stream = client.get(f"/api/tournaments/{tid}/events").get_json()["events"]
    assert [(e["type"], e["recorded_by"]) for e in stream[-2:]] == [
        ("player_checked_in", "Player 1"),
        ("player_checked_in", "Player 2"),
    ]

    # The round is paired and the game recorded; it ends, awaiting both confirmations.
    pairing = {"boards": [{"south": 1, "north": 2}]}
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json=pairing).status_code == 201
    game_id = client.post(f"/api/tournaments/{tid}/rounds/1/boards/1/game", headers=ADMIN, json={}).get_json()["id"]
    for sowing in fixture_commands("gabata-default")[:4]:
        command(client, game_id, sowing)
    command(client, game_id, {"type": "result", "kind": "resignation", "winner": "south"})
    assert points(client, tid) == {1: 0, 2: 0}

    # At the board: South confirms with his badge, North disputes the last sowing.
    board = device(web, errors)
    board.goto(f"/games/{game_id}")
    board.wait_for_selector("#signoffs:not([hidden])")
    board.fill("#player-code", badges[1]["address"])
    board.click("#confirm-result")
    board.wait_for_function("() => document.getElementById('signoffs-status').textContent.includes('South: confirmed')")
    disputed = [
        e["seq"] for e in client.get(f"/api/games/{game_id}/events").get_json()["events"] if e["type"] == "sowed"
    ][-1]
    board.fill("#player-code", badges[2]["token"])
    board.click("#dispute-panel summary")
    board.select_option("#dispute-moves", str(disputed))
    board.fill("#dispute-reason", "የመጨረሻው ዘር አልተዘራም")
    board.click("#dispute-send")
    board.wait_for_selector("#signoffs-disputes li[data-open=true]")
    dispute = client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]
    assert (dispute["type"], dispute["recorded_by"], dispute["payload"]["moves"]) == (
        "result_disputed",
        "Player 2",
        [disputed],
    )
    assert points(client, tid) == {1: 0, 2: 0}
    assert board.evaluate("localStorage.getItem('recorder.token')") is None  # the badges were kept nowhere

    # The arbiter sees the open dispute, corrects the record and decides on the game page.
    arbiter.goto(f"/tournaments/{tid}")
    arbiter.wait_for_selector(f"#open-disputes li[data-game='{game_id}']")
    arbiter.goto(f"/tournaments/{tid}/console")  # the console lists it too, beside the badges to print
    arbiter.wait_for_selector(f"#console-open-disputes li[data-game='{game_id}']")
    assert arbiter.get_attribute("#console-badges", "href") == f"/tournaments/{tid}/badges"
    command(client, game_id, {"type": "retract", "count": 2, "reason": "the last sowing was not played"})
    command(client, game_id, {"type": "result", "kind": "resignation", "winner": "north"})
    arbiter.goto(f"/games/{game_id}")
    arbiter.wait_for_selector("#signoffs-disputes .decision-form")
    arbiter.select_option(".decision-outcome", "corrected")
    arbiter.fill(".decision-reason", "The sowing was withdrawn; North won")
    arbiter.click(".decision-form button")
    arbiter.wait_for_selector("#signoffs-disputes li[data-open=false]")

    # Both confirm the corrected result: only then does it count.
    board.reload()
    for number in (2, 1):
        board.wait_for_selector("#signoffs:not([hidden])")
        board.fill("#player-code", badges[number]["address"])
        board.click("#confirm-result")
        board.wait_for_function(
            "text => document.getElementById('signoff-message').textContent === text", arg="Recorded."
        )
        if number == 2:
            assert points(client, tid) == {1: 0, 2: 0}
    board.wait_for_selector("#signoffs[data-confirmed=true]")
    assert points(client, tid) == {1: 0, 2: 1}
    phones[1].goto(f"/tournaments/{tid}")
    phones[1].wait_for_selector("#tournament-page[data-ready=true]")
    assert phones[1].inner_text("#tournament-rounds tr[data-board='1'] td:nth-child(4)") == "0–1"

    # The dossier: its confirmations, dispute and decision verify with no database and on the page.
    data = client.get(f"/api/games/{game_id}/dossier").get_data()
    path = tmp_path / "appeal.dossier"
    path.write_bytes(data)
    runner = CliRunner(env={"RECORDER_DB": str(tmp_path / "absent.sqlite3"), "RECORDER_KEY_FILE": None})
    result = runner.invoke(main, ["verify", "--dossier", str(path)])
    assert result.exit_code == 0, result.output
    assert "ok      signoffs: 3 confirmations, 1 disputes derived again" in result.output
    assert json.loads(data.split(b"\n")[1])["traces"][0]["seq"] == disputed
    board.goto(f"/games/{game_id}/dossier")  # the printable dossier shows the players' word
    board.wait_for_selector("#dossier-page[data-ready=true]")
    assert board.locator(".dossier-signoffs li").count() == 4
    assert "upheld" not in board.inner_text(".dossier-signoffs") and "corrected" in board.inner_text(
        ".dossier-signoffs"
    )
    board.goto(f"/games/{game_id}")
    board.wait_for_selector("#game-page[data-ready=true]")
    board.set_input_files("#dossier-input", str(path))
    board.wait_for_selector("#dossier-check[data-result=passed]", timeout=RULES_LOAD_MS)
    parts = board.eval_on_selector_all("#dossier-findings li", "els => els.map((e) => [e.dataset.part, e.dataset.ok])")
    assert parts == [[part, "true"] for part in PARTS]  # a reader's device: the rules fetched for the check
    arbiter.goto(f"/games/{game_id}")  # the arbiter's device has kept the rules: it checks with no network
    arbiter.wait_for_selector("#game-page[data-ready=true][data-rules-kept=true]", timeout=RULES_LOAD_MS)
    arbiter.context.set_offline(True)
    arbiter.set_input_files("#dossier-input", str(path))
    arbiter.wait_for_selector("#dossier-check[data-result=passed]", timeout=RULES_LOAD_MS)
    assert arbiter.inner_text("#dossier-findings li[data-part=signoffs] strong") == (
        "Confirmations, disputes and decisions: holds"
    )
    assert errors == [], errors

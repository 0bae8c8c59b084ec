"""Both clocks on the projector and in an embed (Debian's Chromium via Playwright, at
1280×800 and 1920×1080): the running clock ticks down on the device from the game's
clock face, a pause stops both, a flag at zero shows as fallen, the end stops them. Time
is Playwright's clock (``page.clock``): the tests move it, they never wait for it."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import pytest
from browser import CHROMIUM, served_with_chromium
from conftest import ADMIN, make_app
from test_web_projector import COUNT_SHARE_AT_TWELVE, assert_every_board_on_the_screen, measured

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

SCREENS = {"1280x800": {"width": 1280, "height": 800}, "1920x1080": {"width": 1920, "height": 1080}}
CONTROL = {"stages": [{"base_ms": 600_000, "increment_ms": 5_000}]}


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("clocks") / "hall.sqlite3"), LIVE_POLL_SECONDS=0.05)
    with served_with_chromium(app) as server:
        yield server


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def command(web, game_id: str, **body) -> dict:
    etag = web.client.get(f"/api/games/{game_id}").headers["ETag"]
    answer = web.client.post(f"/api/games/{game_id}/commands", headers={**ADMIN, "If-Match": etag}, json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def timed_board(web, name: str) -> tuple[str, str]:
    """A two-player round robin with a time control, board 1 started: (tournament, game)."""
    made = web.client.post(
        "/api/tournaments",
        headers=ADMIN,
        json={"name": name, "variant": "qelat", "format": "round_robin", "time_control": CONTROL},
    )
    tournament_id = made.get_json()["id"]
    for player in ("Abeba", "Berhane"):
        web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": player})
    web.client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    url = f"/api/tournaments/{tournament_id}/rounds/1/boards/1/game"
    return tournament_id, web.client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]


def opened(web, size: str, path: str, start: datetime):
    """A page on a new device whose clock starts at ``start`` and is then paused."""
    context = web.browser.new_context(viewport=SCREENS[size], base_url=web.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install(time=start)
    page.goto(path)
    page.wait_for_selector("[data-ready=true]")
    page.clock.pause_at(start + timedelta(seconds=2))
    page.errors = errors
    return page


def clocks(page, card: str) -> dict:
    return page.evaluate(
        """(card) => {
          const box = document.querySelector(`${card} .clocks`);
          if (box.hidden) return { hidden: true };
          const side = (name) => {
            const clock = box.querySelector(`.clock-${name}`);
            return { time: clock.querySelector(".clock-time").textContent, running: clock.dataset.running,
                     fallen: clock.dataset.fallen };
          };
          return { south: side("south"), north: side("north"), note: box.querySelector(".clock-note").textContent,
                   hidden: box.hidden };
        }""",
        card,
    )


@pytest.mark.parametrize("size", SCREENS)
def test_the_projectors_clocks_tick_on_the_device_and_stop_when_paused(web, size):
    tournament_id, game_id = timed_board(web, f"Axum Open {size}")
    sowed = command(web, game_id, type="sow", hole="c1", clock={"south": 598_000, "north": 600_000})["event"]
    page = opened(web, size, f"/tournaments/{tournament_id}/projector", when(sowed["recorded_at"]))
    card = f'.projector-card[data-game="{game_id}"]'
    shown = clocks(page, card)
    assert (shown["south"]["time"], shown["north"]["time"]) == ("0:09:58", "0:09:58")  # North's has run 2 s
    assert (shown["south"]["running"], shown["north"]["running"]) == ("false", "true") and not shown["hidden"]
    page.clock.run_for(61_000)
    assert clocks(page, card)["north"]["time"] == "0:08:57"

    command(web, game_id, type="pause_clocks", clock={"south": 598_000, "north": 537_250})
    page.wait_for_selector(f"{card}[data-version='3']")
    page.clock.run_for(120_000)
    paused = clocks(page, card)
    assert (paused["south"]["time"], paused["north"]["time"], paused["note"]) == ("0:09:58", "0:08:58", "Clocks paused")
    assert paused["north"]["running"] == "false"
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("size", SCREENS)
def test_an_embeds_clocks_tick_until_a_flag_falls_and_stop_at_the_end(web, size):
    _tournament, game_id = timed_board(web, f"Gondar Cup {size}")
    sowed = command(web, game_id, type="sow", hole="c1", clock={"south": 598_000, "north": 4_500})["event"]
    page = opened(web, size, f"/embed/games/{game_id}", when(sowed["recorded_at"]))
    card = f'.embed-card[data-game="{game_id}"]'
    assert clocks(page, card)["north"]["time"] == "0:00:03"  # 2.5 s left, shown rounded up
    page.clock.run_for(2_000)
    assert clocks(page, card)["north"] == {"time": "0:00:01", "running": "true", "fallen": "false"}
    page.clock.run_for(1_000)
    fallen = clocks(page, card)
    assert (
        fallen["north"] == {"time": "0:00:00", "running": "false", "fallen": "true"} and fallen["note"] == "Flag fallen"
    )
    assert fallen["south"]["time"] == "0:09:58"

    command(web, game_id, type="result", kind="time", winner="south", clock={"south": 598_000, "north": 0})
    page.wait_for_selector(f"{card}[data-version='3']")
    page.clock.run_for(60_000)
    over = clocks(page, card)
    assert (over["south"]["time"], over["north"]["time"]) == ("0:09:58", "0:00:00")
    assert over["south"]["running"] == over["north"]["running"] == "false"
    assert page.errors == []
    page.context.close()


def test_a_game_without_clocks_shows_none(web):
    game = web.client.post(
        "/api/games", headers=ADMIN, json={"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}
    ).get_json()["id"]
    page = opened(web, "1280x800", f"/embed/games/{game}", datetime.now().astimezone())
    assert clocks(page, f'.embed-card[data-game="{game}"]')["hidden"] is True
    page.context.close()


@pytest.mark.parametrize("size", SCREENS)
def test_twelve_boards_with_clocks_still_fit_one_screen_with_counts_at_the_stated_size(web, size):
    """docs/web.md, "The projector": the clocks take a line of each card; twelve boards
    still fit without scrolling, their counts at least 2.5 % of the screen's height."""
    made = web.client.post(
        "/api/tournaments",
        headers=ADMIN,
        json={"name": f"Twelve clocks {size}", "variant": "qelat", "format": "round_robin", "time_control": CONTROL},
    )
    tournament_id = made.get_json()["id"]
    for number in range(24):
        web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": f"Player {number}"})
    web.client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    for board in range(1, 13):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        game_id = web.client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]
        last = command(web, game_id, type="sow", hole="c1", clock={"south": 598_000, "north": 600_000})["event"]
    page = opened(web, size, f"/tournaments/{tournament_id}/projector", when(last["recorded_at"]))
    shown = measured(page)
    assert len(shown["cards"]) == 12
    assert_every_board_on_the_screen(shown)
    assert min(count["size"] for count in shown["counts"]) >= COUNT_SHARE_AT_TWELVE * shown["height"]
    sizes = "[...document.querySelectorAll('.clock-time')].map((t) => parseFloat(getComputedStyle(t).fontSize))"
    digits = page.evaluate(f"() => Math.min(...{sizes})")
    assert digits >= COUNT_SHARE_AT_TWELVE * shown["height"], digits
    assert page.locator(".projector-card .clock-time").count() == 24
    page.context.close()


def test_the_scoresheet_prints_each_sowings_clock_and_think_time(web):
    _tournament, game_id = timed_board(web, "Keren Cup clocks")
    command(web, game_id, type="sow", hole="c1", clock={"south": 588_500, "north": 600_000})
    command(web, game_id, type="sow", hole="b2", clock={"south": 588_500, "north": 542_000})
    command(web, game_id, type="sow", hole="d1")
    command(web, game_id, type="result", kind="time", winner="south", clock={"south": 580_000, "north": 0})
    context = web.browser.new_context(viewport=SCREENS["1280x800"], base_url=web.url)
    page = context.new_page()
    page.goto(f"/games/{game_id}/scoresheet")
    page.wait_for_selector("#scoresheet-page[data-ready=true]")
    lines = page.locator(".sheet-moves li").evaluate_all(
        "(items) => items.map((li) => li.querySelector('.sheet-clock')?.textContent ?? null)"
    )
    # c1: 600 - 588.5 + 5 (the increment) = 16.5 s, shown rounded up; b2: 600 - 542 + 5 = 63 s.
    assert lines == ["0:09:49 (0:00:17)", "0:09:02 (0:01:03)", None, "0:09:40 – 0:00:00"]
    legend = page.text_content(".sheet-clock-legend")
    assert legend.startswith("Under a sowing: its player's clock after it")
    context.close()


def test_clock_js_writes_times_as_a_clock_shows_them_and_runs_only_the_running_side(web):
    """js/clock.js's pure half, in the browser that runs it (another engineer's page may use it)."""
    context = web.browser.new_context(base_url=web.url)
    page = context.new_page()
    page.goto("/embed/games/none")  # any page of the service: its scripts' origin
    said = page.evaluate(
        """async () => {
          const { clockEventText, clockText, remainingAt } = await import("/web-static/js/clock.js");
          const face = { south: 60_000, north: 5_400_000, running: "north", paused: false,
                         at: "2026-12-07T06:00:00.123456Z", seq: 4 };
          return {
            texts: [0, 1, 999, 1_000, 59_001, 3_600_000, 36_000_000].map((ms) => clockText(ms)),
            exact: [1_500, 5_398_250, 0].map((ms) => clockText(ms, { exact: true })),
            running: remainingAt(face, Date.parse("2026-12-07T06:01:00.123Z")),
            before: remainingAt(face, Date.parse("2026-12-07T05:59:00Z")),
            stopped: remainingAt({ ...face, running: null }, Date.parse("2026-12-07T09:00:00Z")),
            fallen: remainingAt(face, Date.parse("2026-12-08T06:00:00Z")),
            events: [
              { type: "clocks_paused", payload: { clock: { south: 598_250, north: 571_000 } } },
              { type: "clocks_resumed", payload: {} },
              { type: "clocks_resumed", payload: { clock: { south: 658_250, north: 571_000 } } },
              { type: "sowed", payload: { hole: "c1", player: "south" } },
            ].map(clockEventText),
          };
        }"""
    )
    assert said["texts"] == ["0:00:00", "0:00:01", "0:00:01", "0:00:01", "0:01:00", "1:00:00", "10:00:00"]
    assert said["exact"] == ["0:00:01.500", "1:29:58.250", "0:00:00"]  # the notation's spelling
    assert said["running"] == {"south": 60_000, "north": 5_340_000}
    assert said["before"] == {"south": 60_000, "north": 5_400_000}  # a device behind the reading never adds time
    assert said["stopped"] == {"south": 60_000, "north": 5_400_000}
    assert said["fallen"] == {"south": 60_000, "north": 0}
    assert said["events"] == [
        "Clocks paused at 0:09:58.250 – 0:09:31",
        "Clocks resumed",
        "Clocks resumed at 0:10:58.250 – 0:09:31",
        None,
    ]
    context.close()

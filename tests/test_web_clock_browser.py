"""The game page as the clock (Debian's Chromium via Playwright, the page's time driven by
Playwright's clock control: no real waiting). The device clock runs the time of the
player to move, and each event's stored reading is what the controlled time makes it,
through a time the network is down and a reload; the flag falls when it should and the
arbiter records the ``time`` result; pausing is recorded; readings typed in from a
physical clock go with the move; the move list and the replay show the times.

Every expectation is worked out here from the controlled time (60 s + 1 s a sowing),
and every reading is read back from the service's API, never from the page.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest
from browser import CHROMIUM, LiveServer, fixture_game, launch_chromium, record
from conftest import ADMIN_TOKEN, make_app

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(300)

QELAT = fixture_game("qelat-default.json")  # north first, then the turns alternate
TABLET = {"width": 1280, "height": 800}
ONE_MINUTE_ONE_SECOND = {"stages": [{"base_ms": 60_000, "increment_ms": 1_000}]}


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("clock") / "clock.sqlite3"))  # its test client writes as the admin
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


@pytest.fixture
def tablet(web):
    """A signed-in device whose time stands still until the test moves it, and whose rules
    cannot load offline (so the moves queued offline are any holes, as the arbiter taps)."""
    context = web.browser.new_context(viewport=TABLET, base_url=web.url, service_workers="block")
    context.route("**/web-runtime/**", lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start = datetime.now(UTC)  # the service's clock stamps the events
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    page.goto(f"/?token={ADMIN_TOKEN}")
    page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    yield page
    context.close()
    assert errors == [], errors


def timed_game(web, commands=()) -> str:
    return record(web.client, {**QELAT["setup"], "time_control": ONE_MINUTE_ONE_SECOND}, list(commands))


def open_game(page, game_id: str) -> None:
    page.goto(f"/games/{game_id}")
    page.wait_for_selector("#game-page[data-ready=true]")


def events(web, game_id: str) -> list[dict]:
    return web.client.get(f"/api/games/{game_id}/events").get_json()["events"]


def reading(web, game_id: str, seq: int) -> dict | None:
    return events(web, game_id)[seq - 1]["payload"].get("clock")


def sow(page, hole: str, version: int) -> None:
    page.click(f".board [data-hole='{hole}']")
    page.wait_for_selector(f".board[data-version='{version}']")


def queue(page, hole: str, pending: int) -> None:
    page.click(f".board [data-hole='{hole}']")
    page.wait_for_selector(f"#pending-count:text-is('{pending}')")


def faces(page) -> dict:
    return {side: page.inner_text(f"#clock-{side}") for side in ("south", "north")}


def test_the_device_clock_records_each_readings_from_the_controlled_time_offline_and_across_a_reload(web, tablet):
    game_id = timed_game(web)
    holes = [command["hole"] for command in QELAT["commands"]]
    open_game(tablet, game_id)
    assert faces(tablet) == {"south": "0:01:00", "north": "0:01:00"}
    tablet.click("#clock-start")  # North, first to move, begins to think
    tablet.clock.run_for(5_000)
    assert faces(tablet) == {"south": "0:01:00", "north": "0:00:55"}
    sow(tablet, holes[0], 2)  # North after 5 s: 60 - 5 + 1
    assert reading(web, game_id, 2) == {"south": 60_000, "north": 56_000}
    tablet.clock.run_for(7_000)
    sow(tablet, holes[1], 3)  # South after 7 s
    assert reading(web, game_id, 3) == {"south": 54_000, "north": 56_000}

    # The network drops: the readings are queued with the moves, the clock runs on.
    tablet.context.set_offline(True)
    tablet.clock.run_for(3_000)
    queue(tablet, holes[2], 1)  # North after 3 s
    tablet.clock.run_for(4_000)
    queue(tablet, holes[3], 2)  # South after 4 s
    assert len(events(web, game_id)) == 3
    tablet.context.set_offline(False)
    tablet.wait_for_selector(".board[data-version='5']")
    assert reading(web, game_id, 4) == {"south": 54_000, "north": 54_000}
    assert reading(web, game_id, 5) == {"south": 51_000, "north": 54_000}

    # A reload loses no time: North has thought 2 s before it and 1 s after.
    tablet.clock.run_for(2_000)
    tablet.reload()
    tablet.wait_for_selector("#game-page[data-ready=true]")
    tablet.clock.run_for(1_000)
    assert faces(tablet) == {"south": "0:00:51", "north": "0:00:51"}
    sow(tablet, holes[4], 6)
    assert reading(web, game_id, 6) == {"south": 51_000, "north": 52_000}

    # South's 51 s run out: the flag falls at once, not a millisecond early; nothing is recorded by itself.
    tablet.clock.run_for(50_999)
    assert tablet.is_hidden("#clock-flag") and tablet.is_hidden("#clock-time-result")
    tablet.clock.run_for(1)
    tablet.wait_for_selector("#clock-flag:not([hidden])")
    assert tablet.inner_text("#clock-flag") == "South's flag has fallen."
    assert tablet.get_attribute(".clock-face[data-side=south]", "data-fallen") == "true"
    assert tablet.inner_text("#clock-time-result") == "Record the result: North wins on time"
    tablet.clock.run_for(30_000)
    assert len(events(web, game_id)) == 6
    tablet.click("#clock-time-result")
    tablet.wait_for_selector(".board[data-version='7']")
    result = events(web, game_id)[6]
    assert result["type"] == "result_recorded"
    assert result["payload"] == {
        "kind": "time",
        "winner": "north",
        "note": None,
        "clock": {"south": 0, "north": 52_000},
    }
    assert tablet.is_hidden("#clock-pause") and tablet.is_hidden("#clock-time-result")


def test_pausing_the_clocks_is_recorded_and_the_paused_time_is_nobodys(web, tablet):
    game_id = timed_game(web)
    holes = [command["hole"] for command in QELAT["commands"]]
    open_game(tablet, game_id)
    tablet.click("#clock-start")
    tablet.clock.run_for(2_000)
    tablet.click("#clock-pause")
    tablet.wait_for_selector("#clock-resume:not([hidden])")
    paused = events(web, game_id)[-1]
    assert paused["type"] == "clocks_paused" and paused["payload"]["clock"] == {"south": 60_000, "north": 58_000}
    assert tablet.inner_text("#clock-status") == "The clocks are paused."
    assert tablet.is_hidden(".clock-face[data-running=true]")
    tablet.clock.run_for(600_000)  # ten minutes' stop
    assert faces(tablet) == {"south": "0:01:00", "north": "0:00:58"}
    tablet.reload()  # still paused after a reload
    tablet.wait_for_selector("#game-page[data-ready=true]")
    tablet.wait_for_selector("#clock-resume:not([hidden])")
    tablet.click("#clock-resume")
    tablet.wait_for_selector("#clock-pause:not([hidden])")
    assert events(web, game_id)[-1]["type"] == "clocks_resumed"
    tablet.clock.run_for(3_000)
    sow(tablet, holes[0], 4)
    assert reading(web, game_id, 4) == {"south": 60_000, "north": 56_000}  # 58 - 3 + 1


def test_a_device_without_the_clock_shows_the_pause_recorded_and_resumes_it(web, tablet):
    game_id = timed_game(web, [{"type": "pause_clocks", "clock": {"south": 60_000, "north": 51_000}}])
    open_game(tablet, game_id)
    assert tablet.inner_text("#clock-status") == "The clocks are paused."
    assert faces(tablet) == {"south": "0:01:00", "north": "0:00:51"}
    assert tablet.is_hidden("#clock-start") and tablet.is_hidden("#clock-pause")  # not started over a pause
    tablet.click("#clock-resume")
    tablet.wait_for_selector("#clock-start:not([hidden])")
    assert [event["type"] for event in events(web, game_id)] == ["game_created", "clocks_paused", "clocks_resumed"]
    assert tablet.inner_text("#clock-status").startswith("The device clock has not started")


def test_readings_typed_from_a_physical_clock_go_with_the_next_move_and_a_mistyped_one_records_nothing(web, tablet):
    game_id = timed_game(web)
    holes = [command["hole"] for command in QELAT["commands"]]
    open_game(tablet, game_id)
    tablet.click("#clock-typed-panel summary")
    tablet.fill("#clock-typed-south", "1:00")
    tablet.fill("#clock-typed-north", "0:59:75")  # not a time: a minute has 60 seconds
    tablet.click(f".board [data-hole='{holes[0]}']")
    tablet.wait_for_selector("#action-error:not([hidden])")
    assert tablet.inner_text("#action-error").startswith("Type both clocks' readings as hours:minutes:seconds")
    assert len(events(web, game_id)) == 1
    tablet.fill("#clock-typed-north", "0:00:57.250")
    sow(tablet, holes[0], 2)
    assert reading(web, game_id, 2) == {"south": 60_000, "north": 57_250}
    assert tablet.input_value("#clock-typed-south") == "" and tablet.input_value("#clock-typed-north") == ""
    sow(tablet, holes[1], 3)  # no reading typed, no device clock: none recorded
    assert reading(web, game_id, 3) is None

    # With the device clock running, typed readings are recorded as typed and set it.
    tablet.click("#clock-start")
    tablet.clock.run_for(2_000)
    tablet.fill("#clock-typed-south", "0:00:40")
    tablet.fill("#clock-typed-north", "30")
    sow(tablet, holes[2], 4)
    assert reading(web, game_id, 4) == {"south": 40_000, "north": 30_000}
    tablet.clock.run_for(3_000)
    sow(tablet, holes[3], 5)  # South's 3 s from the typed 40 s, and his increment
    assert reading(web, game_id, 5) == {"south": 38_000, "north": 30_000}


def test_the_move_list_and_the_replay_show_each_moves_time_and_the_clocks_after_it(web, tablet):
    holes = [command["hole"] for command in QELAT["commands"]]
    readings = [
        {"south": 60_000, "north": 55_500},
        {"south": 48_000, "north": 55_500},
        {"south": 48_000, "north": 50_500},
    ]
    game_id = timed_game(web, [{"type": "sow", "hole": h, "clock": r} for h, r in zip(holes, readings, strict=False)])
    open_game(tablet, game_id)
    times = tablet.eval_on_selector_all("#moves .ply-time", "spans => spans.map((s) => [s.dataset.seq, s.textContent])")
    # North took 5.5 s (60 + 1 - 55.5), South 13 s (60 + 1 - 48), North 6 s (55.5 + 1 - 50.5).
    assert times == [["2", "0:05.5 0:00:55.500"], ["3", "0:13 0:00:48"], ["4", "0:06 0:00:50.500"]]
    assert "0:05.5" in tablet.get_attribute("#moves .ply-time[data-seq='2']", "title")
    tablet.click("#moves .ply[data-seq='2']")  # the replay: the clocks as they stood after that move
    tablet.wait_for_selector("#viewing:not([hidden])")
    assert faces(tablet) == {"south": "0:01:00", "north": "0:00:55.500"}


def test_a_spectator_sees_the_running_clock_tick_from_the_services_face(web):
    """No device clock here: the watch page ticks the player to move's time down from the
    service's face of the clocks (its latest reading and when it was taken)."""
    first = QELAT["commands"][0]["hole"]
    game_id = timed_game(web, [{"type": "sow", "hole": first, "clock": {"south": 60_000, "north": 42_000}}])
    face = web.client.get(f"/api/games/{game_id}").get_json()["clock"]
    assert face["running"] == "south"
    taken = datetime.fromisoformat(face["at"])
    context = web.browser.new_context(viewport=TABLET, base_url=web.url)
    try:
        page = context.new_page()
        page.clock.install(time=taken)
        page.clock.pause_at(taken + timedelta(seconds=10))
        page.goto(f"/games/{game_id}/watch")
        page.wait_for_selector("#game-page[data-ready=true]")
        assert faces(page) == {"south": "0:00:50", "north": "0:00:42"}
        page.clock.run_for(5_000)
        assert faces(page) == {"south": "0:00:45", "north": "0:00:42"}
        assert page.get_attribute(".clock-face[data-side=south]", "data-running") == "true"
        assert page.is_hidden("#clock-start") and page.is_hidden("#clock-pause")
    finally:
        context.close()

"""The browser tests' live server (tests/browser.py) stops only once the requests it is
answering have ended: a page closed at a test's end may leave a reread of a tournament
in flight, and the store closed under it was an error in whichever test ran then."""

from __future__ import annotations

import threading
import time
import urllib.request

from browser import LiveServer
from conftest import make_app


def test_a_request_still_being_answered_ends_before_the_server_stops_and_its_store_closes(tmp_path):
    app = make_app(tmp_path / "db.sqlite3")
    store = app.extensions["recorder"].store
    answering = threading.Event()

    def slow_read():
        answering.set()
        time.sleep(0.5)  # a tournament's checks on a busy machine
        return {"version": store.version("no-such-stream")}

    app.add_url_rule("/slow-read", view_func=slow_read)
    answers: list[int] = []

    def ask(url: str) -> None:
        with urllib.request.urlopen(f"{url}/slow-read", timeout=10) as response:
            answers.append(response.status)

    with LiveServer(app) as server:
        asking = threading.Thread(target=ask, args=(server.url,))
        asking.start()
        assert answering.wait(timeout=10)
    store.close()  # as served_with_chromium closes it
    asking.join(timeout=10)
    assert answers == [200]

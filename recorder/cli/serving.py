"""How ``recorder serve`` serves: one event-driven process (gevent), recording and live alike.

A live stream waits for minutes; under a threaded server each took a thread, so a few
dozen spectators could leave no thread to record a move. Here every request is a
greenlet: thousands of streams wait in one process at a few tens of kB each and never
hold what recording needs. The price is that the process must be patched by gevent
before it opens anything (sockets, threads, locks, the database): ``recorder``'s entry
point patches at once when the command is ``serve`` (recorder/__main__.py); a ``serve``
reached another way patches here, after checking that the database opens and before the
app opens it for good. SQLite and PostgreSQL calls then run in the one thread between
greenlet switches, each request on its own connection, given back as it ends
(recorder/api/live.py): an append is exactly as correct as under threads
(tests/test_live_server.py runs the store and live tests patched).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from recorder.auth.tokens import without_tokens


def patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def patch_process() -> None:
    """Make this process event-driven (a no-op once done)."""
    if patched():
        return
    from gevent import monkey

    monkey.patch_all()


def serve_forever(app, host: str, port: int, echo: Callable[[str], None]) -> None:
    """Serve ``app`` on ``host:port`` with gevent's WSGI server until Ctrl-C."""
    from gevent.pywsgi import WSGIServer

    server = WSGIServer((host, port), app, handler_class=_tokenless_handler())
    echo(f"event-driven server (gevent) on http://{host}:{port}/; Ctrl-C stops it")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.stop(timeout=1)


def _tokenless_handler():
    from gevent.pywsgi import WSGIHandler

    class TokenlessHandler(WSGIHandler):
        """The access log with every token left out: the sign-in address carries one
        (``/?token=rt_…``), and a log is read by more people than the admin."""

        def format_request(self) -> str:
            return without_tokens(super().format_request())

    return TokenlessHandler

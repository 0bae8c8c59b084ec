"""How ``recorder serve`` serves: an event-driven front for the streams, backends for the rest.

A live stream waits for minutes; under a threaded server each took a thread, so a few
dozen spectators could leave no thread to record a move. The front is one event-driven
process (gevent): every connection is a greenlet, so thousands of streams wait in it at
a few tens of kB each. But a greenlet is never preempted: a verify of a 20,000-event game
computed there held every append for seconds. So the front serves the live paths only
and relays every other request to two backend processes it starts and watches
(recorder/cli/relay.py, recorder/cli/backend.py): recording, and the heavy reads at idle
priority.

The front must be patched by gevent before it opens anything (sockets, threads, locks,
the database): ``recorder``'s entry point patches at once when the command is ``serve``
(recorder/__main__.py); a ``serve`` reached another way patches here, after checking that
the database opens and before the app opens it for good.

What the front holds is bounded by the files it may open: it raises its open-files
limit to the hard limit, accepts at most that many connections less a reserve (the
others wait in the kernel's backlog, not in an ``accept`` that fails with EMFILE), admits
streams up to ``recorder.live.streams.listener_limit`` (which follows the same limit) and
answers 503 with Retry-After beyond it. A client that opens a connection and sends its
request line and headers slowly, or not at all (slowloris), is closed after
``RECORDER_HEADER_TIMEOUT`` seconds (10), and at most a quarter of the connections may
wait for their headers at once: a new one sends the oldest waiting away.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable

from recorder.auth.tokens import without_tokens

HEADER_TIMEOUT_SECONDS = 10.0
FILES_KEPT_BACK = 80  # the database's files (3 a connection), the log, the listening socket, 2 x 16 relays
RELAYS_AT_ONCE = 16  # to each backend: each relay under way holds a socket (kept back above)


def patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def patch_process() -> None:
    """Make this process event-driven (a no-op once done)."""
    if patched():
        return
    from gevent import monkey

    monkey.patch_all()


def header_timeout() -> float:
    """``RECORDER_HEADER_TIMEOUT``: seconds a connection may take to send a request's line and headers."""
    configured = os.environ.get("RECORDER_HEADER_TIMEOUT")
    return float(configured) if configured else HEADER_TIMEOUT_SECONDS


def serve_forever(app, host: str, port: int, echo: Callable[[str], None]) -> None:
    """Start the backends, then serve on ``host:port`` until Ctrl-C or SIGTERM; stop them with it."""
    import gevent
    import gevent.event
    from gevent.pool import Pool
    from gevent.pywsgi import WSGIServer

    from .backend import HEAVY, RECORDING, Backend, BackendFailed, supervise
    from .relay import Backends, Front

    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]  # raised by the app's live module
    connections = max(16, files - FILES_KEPT_BACK)
    folder = tempfile.mkdtemp(prefix="recorder-serve-")  # mode 0700: only this user reaches the sockets
    config = {key: app.config[key] for key in ("DATABASE", "OPEN")}
    config["ALLOWED_HOSTS"] = list(app.config["ALLOWED_HOSTS"])
    backends = [Backend(kind, os.path.join(folder, f"{kind.name}.sock"), config) for kind in (RECORDING, HEAVY)]
    front = Front(app, Backends(*(b.socket_path for b in backends)), RELAYS_AT_ONCE)
    server = WSGIServer((host, port), front, spawn=Pool(connections), handler_class=_bounded_handler(connections))
    stopping = gevent.event.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C and a service manager's stop alike
        gevent.signal_handler(signal_number, stopping.set)
    watcher = None
    try:
        for backend in backends:
            backend.start()
        for backend in backends:
            backend.wait_until_ready(answers)
        if not backends[1].idle():
            echo("the heavy reads' backend stays in the normal scheduling class: the system refused the idle one")
        server.start()
        streams = app.extensions["live"].limit
        echo(f"event-driven front (gevent) on http://{host}:{port}/, {streams} live streams at most;")
        echo("    recording and heavy reads in processes of their own. Ctrl-C stops it")
        watcher = gevent.spawn(supervise, backends, answers, echo)
        watcher.link(lambda _: stopping.set())
        stopping.wait()
        if watcher.dead and watcher.exception is not None:
            raise watcher.exception
    except BackendFailed as failed:
        echo(str(failed))
        raise SystemExit(1) from None
    finally:
        if watcher is not None:
            watcher.kill()  # before the backends stop: their ends are no failure to restart
        server.stop(timeout=1)
        for backend in backends:
            backend.stop()
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def answers(socket_path: str) -> bool:
    """True once a backend accepts connections on its socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(1)
        sock.connect(socket_path)
        return True
    except OSError:
        return False
    finally:
        sock.close()


def _bounded_handler(connections: int):
    from gevent import get_hub
    from gevent.pywsgi import WSGIHandler

    waiting: OrderedDict[WSGIHandler, None] = OrderedDict()  # connections reading a request's head, oldest first
    most_waiting = max(4, connections // 4)
    seconds = header_timeout()

    class BoundedHandler(WSGIHandler):
        """The access log with every token left out (the sign-in address carries one,
        ``/?token=rt_…``, and a log is read by more people than the admin), and a
        request's line and headers bounded in time and in the connections waiting for
        them. A connection past either bound is cut off: its socket shut down, which
        ends the read it waits in, and nothing of its partial head is answered."""

        cut = False

        def handle_one_request(self):
            if len(waiting) >= most_waiting:
                next(iter(waiting)).cut_off()
            waiting[self] = None
            timer = get_hub().loop.timer(seconds)
            timer.start(self.cut_off)
            try:
                result = super().handle_one_request()
            finally:
                timer.close()
                waiting.pop(self, None)
            return None if self.cut else result

        def read_requestline(self):
            line = super().read_requestline()
            return "" if self.cut else line

        def read_request(self, raw_requestline):
            read = super().read_request(raw_requestline)
            if self.cut:
                raise HeadCutOff()
            waiting.pop(self, None)  # the head is in: the timer is harmless from here on
            return read

        def _handle_client_error(self, ex):
            return None if self.cut else super()._handle_client_error(ex)

        def cut_off(self) -> None:
            if self not in waiting:
                return
            waiting.pop(self)
            self.cut = True
            with contextlib.suppress(OSError, AttributeError):
                self.socket.shutdown(socket.SHUT_RDWR)

        def get_environ(self):
            environ = super().get_environ()
            environ["RAW_URI"] = self.path  # the target as sent, for the relay
            return environ

        def format_request(self) -> str:
            return without_tokens(super().format_request())

    return BoundedHandler


class HeadCutOff(ValueError):
    """A request's head cut off by the header timeout or by a newer connection's need."""

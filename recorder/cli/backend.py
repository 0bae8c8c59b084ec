"""The backends of ``recorder serve``: gunicorn on a Unix socket, started and watched by the front.

Two backends serve what the front relays (recorder/cli/relay.py), each gunicorn with the
documented configuration (recorder/gunicorn_conf.py) and one gthread worker:

- *recording*: writes and cheap reads, in the normal scheduling class;
- *heavy*: the costly per-game reads (verify, what-if, trace, the dossier, exports, imports, a long
  game's events...), in Linux's idle scheduling class (``SCHED_IDLE``): it runs on the
  CPU recording leaves, and a recording thread that wakes takes the core from it at
  once. A lowered niceness would not do this (the running task keeps its time slice).
  Where the system forbids the class, the heavy backend stays normal and the front
  says so.

Each is a process of its own: a thread beside the appends would hold the GIL for its
whole verify (a convoy), a process holds none of theirs. The front starts both before
it listens, restarts one that dies (the SQLite file is the only state they share), and
stops them as it stops; each also dies with the front should the front be killed
(``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .relay import CLIENT_HEADER

CONFIG_VARIABLE = "RECORDER_SERVE_CONFIG"  # the front's app config, as JSON, for the backends' apps
READY_SECONDS = 120.0  # a first start may compile the rules engine's loader; a later one takes a second or two
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Kind:
    name: str
    threads: int
    idle: bool


RECORDING = Kind("recording", threads=8, idle=False)
HEAVY = Kind("heavy", threads=1, idle=True)  # one costly read at a time (docs/decisions.md: the hall's ratio)


def create_app():
    """The backend's app: the front's configuration, and the client's address as the
    front saw it (nothing but the front reaches this socket)."""
    from recorder.app import create_app as create

    app = create(json.loads(os.environ[CONFIG_VARIABLE]))
    app.wsgi_app = ClientAddress(app.wsgi_app)  # type: ignore[method-assign]
    return app


class ClientAddress:
    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.key = "HTTP_" + CLIENT_HEADER.upper().replace("-", "_")

    def __call__(self, environ: dict, start_response):
        client = environ.pop(self.key, None)
        if client:
            environ["REMOTE_ADDR"] = client
        return self.wsgi_app(environ, start_response)


@dataclass
class Backend:
    """One backend process: its kind, its socket, and the gunicorn serving it."""

    kind: Kind
    socket_path: str
    config: dict
    process: subprocess.Popen | None = None
    started: float = 0.0
    restarts: list[float] = field(default_factory=list)

    def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)
        command = [sys.executable, "-m", "gunicorn", "--config", "python:recorder.gunicorn_conf"]
        command += ["--workers", "1", "--threads", str(self.kind.threads), "--worker-class", "gthread"]
        command += ["--bind", f"unix:{self.socket_path}", "--log-level", "warning"]
        command += ["recorder.cli.backend:create_app()"]
        env = {**os.environ, CONFIG_VARIABLE: json.dumps(self.config)}
        # A session of its own: Ctrl-C in the terminal reaches the front alone, which stops it.
        self.process = subprocess.Popen(command, env=env, preexec_fn=self._child_setup, start_new_session=True)
        self.started = time.monotonic()

    def _child_setup(self) -> None:
        """In the child, before gunicorn: die with the front, and idle if heavy."""
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if self.kind.idle and hasattr(os, "SCHED_IDLE"):
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    def idle(self) -> bool:
        """True when the backend runs in the idle class (the system may have refused it)."""
        if self.process is None or not hasattr(os, "SCHED_IDLE"):
            return False
        try:
            return os.sched_getscheduler(self.process.pid) == os.SCHED_IDLE
        except OSError:
            return False

    def wait_until_ready(self, ready: Callable[[str], bool]) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while not ready(self.socket_path):
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                raise BackendFailed(f"the {self.kind.name} backend ended as it started (exit status {code})")
            if time.monotonic() > deadline:
                raise BackendFailed(f"the {self.kind.name} backend did not answer within {READY_SECONDS:.0f} s")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)


class BackendFailed(Exception):
    """A backend that will not start, or keeps dying: ``recorder serve`` stops and says which."""


RESTARTS_ALLOWED = 3  # within RESTART_WINDOW_SECONDS; more and serve stops rather than flap
RESTART_WINDOW_SECONDS = 60.0


def supervise(backends: list[Backend], ready: Callable[[str], bool], echo: Callable[[str], None]) -> None:
    """Restart a backend that dies; raise ``BackendFailed`` if one keeps dying. Runs for
    as long as the front serves (a greenlet of its own)."""
    while True:
        for backend in backends:
            assert backend.process is not None
            code = backend.process.poll()
            if code is None:
                continue
            now = time.monotonic()
            backend.restarts = [t for t in backend.restarts if now - t < RESTART_WINDOW_SECONDS] + [now]
            if len(backend.restarts) > RESTARTS_ALLOWED:
                raise BackendFailed(f"the {backend.kind.name} backend keeps ending (exit status {code}); stopping")
            echo(f"the {backend.kind.name} backend ended (exit status {code}); starting it again")
            backend.start()
            backend.wait_until_ready(ready)
        time.sleep(0.5)

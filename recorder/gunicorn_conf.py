"""The documented gunicorn configuration (docs/deployment.md, *Serving with gunicorn*).

    gunicorn -c python:recorder.gunicorn_conf --bind 127.0.0.1:8000 'recorder.app:create_app()'

Command-line flags override these values. ``recorder bench`` serves the app with this
file (``bench.plan.SERVED``), so the figures it prints are this configuration's.

- gthread workers: a request holds one thread, not a whole process, so a long export
  or an expensive read leaves the worker's other threads recording; and the worker's
  heartbeat, which ``timeout`` watches, comes from its main loop, not from the request,
  so a stream that takes minutes is never killed mid-body (a sync worker's is).
- ``timeout`` therefore only restarts a worker whose main loop hangs: gunicorn's 30 s.
- ``graceful_timeout``: on a restart or reload, requests in flight (an export of a
  large archive) get two minutes to finish before the worker is stopped.
- the access log's format: no query string and no referrer, which can carry a token.
- ``on_starting`` logs which rules engine the workers run (docs/engine.md).
- the GIL switch interval: a thread that waits for the GIL (an append back from its
  fsync) waits up to this long while another thread computes; 1 ms instead of Python's
  5 ms keeps appends quick beside expensive reads in the same worker.
- the control socket (``gunicornc``) named after the process kind: gunicorn's default is
  one path per user, and the live process beside this one would take it over.
"""

from __future__ import annotations

import os
import sys

workers = 2
worker_class = "gthread"
threads = 12  # live streams take at most 8 per worker (RECORDER_LIVE_LISTENERS): 4 stay for recording
timeout = 30
graceful_timeout = 120
SWITCH_INTERVAL = 0.001  # seconds
# The access log (off unless --access-logfile) names the path without its query and no
# referrer: the sign-in address carries the admin token as ?token= (docs/security.md).
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'


def control_socket_path(kind: str) -> str:
    """Where the ``kind`` process (``recording``, ``live``) keeps its control socket:
    ``$RECORDER_CONTROL_DIR``, else the directory gunicorn itself would use
    (``$XDG_RUNTIME_DIR``, else ``~/.gunicorn``), one file per kind. Two processes of one
    kind on one host each take ``--control-socket PATH`` (a flag overrides this file)."""
    directory = os.environ.get("RECORDER_CONTROL_DIR") or _gunicorn_control_dir()
    return os.path.join(directory, f"recorder-{kind}.ctl")


def _gunicorn_control_dir() -> str:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return runtime
    return os.path.join(os.path.expanduser("~"), ".gunicorn")


control_socket = control_socket_path("recording")  # gunicorn before 25.1 has none and ignores the name


def post_worker_init(worker) -> None:
    sys.setswitchinterval(SWITCH_INTERVAL)


def on_starting(server) -> None:
    """One line in the master's log: the rules engine the workers will run. gunicorn never
    compiles it (each worker would): it runs the build a recorder command made, else the pure one."""
    from recorder import engine

    server.log.info("rules engine: %s", engine.current().describe())

"""The live process's gunicorn configuration (docs/deployment.md, *Live streams*).

    gunicorn -c python:recorder.live.gunicorn_conf --bind 127.0.0.1:8001 wsgi:app

The same app as the recording server (recorder/gunicorn_conf.py), served by one gevent
worker: a reverse proxy sends it the live paths (``/api/games/<id>/live``,
``/api/tournaments/<id>/live``) and everything else to the gthread workers. There each
open stream is a greenlet, not a thread: thousands wait in one process at a few tens of
kB each, and none of them is a thread that records moves.

- one worker: one watcher per live game serves every stream of the process, and the
  recording server keeps the other core. Past one process (or host), run more behind
  the proxy on PostgreSQL, whose NOTIFY wakes each one's watchers.
- ``worker_connections`` above the app's own bound on streams (``RECORDER_LIVE_LISTENERS``,
  10,000 here by default), so the app answers 503 with Retry-After beyond its bound
  rather than gunicorn leaving connections unaccepted.
- the open-files limit raised to its hard limit in the worker: a stream is a socket.
- the app's own objects (modules, functions, the rules' tables) frozen out of the cycle
  collector once loaded: with thousands of streams open a full collection pauses every
  stream of the process, and it need not walk what lives as long as the process.
- the worker in Linux's idle scheduling class (``SCHED_IDLE``) unless
  ``RECORDER_LIVE_PRIORITY=normal``: it runs on whatever CPU recording leaves, and a
  thread of the recording server that wakes (an append arrives, its fsync returns) takes
  the core from it at once. Spectators' moves wait while recording keeps every core
  busy; an arbiter's append should not wait for five thousand spectators'. Lowering a
  niceness does not do this: the kernel still lets the running task finish its time
  slice. Where the system forbids the class, the worker stays normal and logs a warning.
- ``timeout``: the gevent worker's heartbeat comes from its own greenlet, so a stream
  lasting minutes is never taken for a hung worker.
"""

from __future__ import annotations

import gc
import os
import resource

from recorder import gunicorn_conf
from recorder.gunicorn_conf import access_log_format, on_starting  # noqa: F401  (gunicorn reads them from here)

workers = 1
worker_class = "gevent"
worker_connections = 12_000
timeout = 30
graceful_timeout = 10  # streams are told to go; EventSource reconnects to the next process
backlog = 4096  # spectators arriving together at a round's start wait to be accepted, not refused
control_socket = gunicorn_conf.control_socket_path("live")  # not the recording server's (recorder/gunicorn_conf.py)


def post_worker_init(worker) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    gc.collect()
    gc.freeze()
    try:
        yield_to_recording()
    except OSError as error:  # a sandbox that forbids it: serve in the normal class rather than not at all
        worker.log.warning("the live worker stays in the normal scheduling class: %s", error)


PRIORITIES = ("idle", "normal")


def yield_to_recording() -> None:
    """Put the worker in the idle scheduling class, as ``RECORDER_LIVE_PRIORITY`` says
    (``idle``, the default, or ``normal``); nothing where the system has no such class."""
    priority = os.environ.get("RECORDER_LIVE_PRIORITY", "idle")
    if priority not in PRIORITIES:
        raise ValueError(f"RECORDER_LIVE_PRIORITY must be one of {', '.join(PRIORITIES)}, not {priority!r}")
    if priority == "idle" and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

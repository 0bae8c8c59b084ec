"""The two gunicorn processes of docs/deployment.md (the recording server and the live
process) run on one host; whatever gunicorn keeps on disk by default (its control socket,
which ``gunicornc`` talks to) must not be one path for both. Otherwise the process started
second takes the first one's socket over, ``gunicornc`` reaches only that one, and stopping
either removes the socket the other still serves.

The configurations are loaded the way gunicorn loads them (``-c python:…`` and flags), so
what is pinned is what gunicorn would use.
"""

from __future__ import annotations

import os
import sys

import pytest
from gunicorn.app.wsgiapp import WSGIApplication

RECORDING = "python:recorder.gunicorn_conf"
LIVE = "python:recorder.live.gunicorn_conf"


def loaded(monkeypatch: pytest.MonkeyPatch, config: str, *flags: str):
    """gunicorn's settings after reading ``config`` and ``flags``, as ``gunicorn -c config flags wsgi:app``."""
    for module in ("recorder.gunicorn_conf", "recorder.live.gunicorn_conf"):  # read afresh, as by a new process
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setattr("sys.argv", ["gunicorn", "-c", config, *flags, "wsgi:app"])
    return WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").cfg


@pytest.fixture
def runtime_dir(tmp_path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A private runtime directory, as systemd gives a service (XDG_RUNTIME_DIR)."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.delenv("RECORDER_CONTROL_DIR", raising=False)
    return str(tmp_path)


def test_recording_and_live_processes_have_control_sockets_of_their_own(monkeypatch, runtime_dir):
    recording = loaded(monkeypatch, RECORDING).control_socket
    live = loaded(monkeypatch, LIVE).control_socket
    assert recording != live
    assert os.path.dirname(recording) == os.path.dirname(live) == runtime_dir
    assert os.path.basename(recording) == "recorder-recording.ctl"
    assert os.path.basename(live) == "recorder-live.ctl"


def test_control_socket_directory_is_chosen_by_recorder_control_dir(monkeypatch, runtime_dir, tmp_path):
    chosen = tmp_path / "run"
    monkeypatch.setenv("RECORDER_CONTROL_DIR", str(chosen))
    assert loaded(monkeypatch, RECORDING).control_socket == str(chosen / "recorder-recording.ctl")
    assert loaded(monkeypatch, LIVE).control_socket == str(chosen / "recorder-live.ctl")


def test_control_socket_flag_overrides_the_configuration(monkeypatch, runtime_dir, tmp_path):
    """A second live process on the same host is given its own socket on the command line."""
    second = str(tmp_path / "recorder-live-2.ctl")
    assert loaded(monkeypatch, LIVE, "--control-socket", second).control_socket == second


def test_a_bench_server_keeps_its_control_socket_to_itself(tmp_path, monkeypatch):
    """``recorder bench`` (and the tests) serve the app with these configurations, often on
    the host that serves the hall: a bench server's control socket is its own, never the
    path of a recording server or live process running as the same user."""
    from recorder.bench.server import GunicornConfig, served

    runtime = tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.delenv("RECORDER_CONTROL_DIR", raising=False)
    config = GunicornConfig(workers=1, config=RECORDING)
    with served(str(tmp_path / "bench.sqlite3"), config) as server:
        assert os.listdir(runtime) == []  # the path a served process takes is left alone
        own = server.control_dir
        assert own is not None and os.path.exists(os.path.join(own, "recorder-recording.ctl"))
    assert not os.path.exists(own)  # the bench server's own went with it

"""Run the service under gunicorn as a child process, on loopback only.

Used by ``recorder bench`` and by the reliability tests (which kill it with SIGKILL).
The child runs in its own session, so ``kill`` can take the master and its workers
down together, the way a crash or a power cut would.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

BENCH_TOKEN = "rt_bench-" + secrets.token_hex(16)  # the admin token of the bench's own server
HOST = "127.0.0.1"  # loopback only: load and crash tests never leave the machine
APP = "recorder.app:create_app()"


@dataclass(frozen=True)
class GunicornConfig:
    """How the bench serves the app; ``threads`` > 1 selects the gthread worker."""

    workers: int = 2
    threads: int = 1
    worker_class: str | None = None  # None: sync, or gthread when threads > 1
    timeout: int | None = None  # None: gunicorn's default (30 s)
    graceful_timeout: int | None = None
    config: str | None = None  # a gunicorn config (-c), for its hooks; the flags above override its values

    def arguments(self) -> list[str]:
        args = ["--config", self.config] if self.config else []
        args += ["--workers", str(self.workers)]
        if self.worker_class:
            args += ["--worker-class", self.worker_class]
        if self.threads > 1:
            args += ["--threads", str(self.threads)]
        if self.timeout is not None:
            args += ["--timeout", str(self.timeout)]
        if self.graceful_timeout is not None:
            args += ["--graceful-timeout", str(self.graceful_timeout)]
        return args

    def describe(self) -> str:
        kind = self.worker_class or ("gthread" if self.threads > 1 else "sync")
        threads = f", {self.threads} threads each" if self.threads > 1 else ""
        timeout = f", --timeout {self.timeout}" if self.timeout is not None else ""
        return f"gunicorn, {self.workers} {kind} workers{threads}{timeout}"


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    db_path: str
    log_path: str
    # Its gunicorn control socket's folder (RECORDER_CONTROL_DIR, recorder/gunicorn_conf.py):
    # its own, so a bench on the hall's host never takes a served process's socket over.
    control_dir: str | None = None

    @property
    def host(self) -> str:
        return HOST

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the master and every worker at once (the child leads its own session)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """A graceful stop (SIGTERM), then SIGKILL if it has not gone within 10 s; the log goes."""
        if self.process.poll() is None:
            self.kill(signal.SIGTERM)
        if self.process.poll() is None:
            self.kill(signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.unlink(self.log_path)
        if self.control_dir is not None:
            shutil.rmtree(self.control_dir, ignore_errors=True)

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the master and its workers have used so far; None off Linux."""
        try:
            pids = [self.process.pid, *_children(self.process.pid)]
            return sum(_cpu_seconds(pid) for pid in pids)
        except OSError:
            return None

    def confine(self, cores: frozenset[int]) -> None:
        """Every thread of the master and its workers kept to ``cores``; threads and
        workers started later inherit it from the thread that starts them."""
        for pid in [self.process.pid, *_children(self.process.pid)]:
            with contextlib.suppress(FileNotFoundError):  # a worker that just ended
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with contextlib.suppress(ProcessLookupError):  # a thread that just ended
                        os.sched_setaffinity(int(thread), cores)

    def log(self) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except OSError:
            return "(no log)"


def _stat_fields(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        return handle.read().rsplit(")", 1)[1].split()  # the fields after "pid (name)"


def _children(pid: int) -> list[int]:
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if int(_stat_fields(int(entry))[1]) == pid:
                    children.append(int(entry))
    return children


def _cpu_seconds(pid: int) -> float:
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def free_port() -> int:
    """A port the kernel just gave out on loopback (free again once this socket closes)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start(db_path: str, config: GunicornConfig = GunicornConfig(), *, ready_timeout: float = 30.0) -> Server:
    """Start gunicorn on a free loopback port with ``RECORDER_DB=db_path``; wait until it answers."""
    port = free_port()
    log = tempfile.NamedTemporaryFile("w", prefix="recorder-gunicorn-", suffix=".log", delete=False)
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        *config.arguments(),
        "--bind",
        f"{HOST}:{port}",
        "--log-level",
        "warning",
        APP,
    ]
    control_dir = tempfile.mkdtemp(prefix="recorder-gunicorn-ctl-")
    env = {
        **os.environ,
        "RECORDER_DB": db_path,
        "RECORDER_ADMIN_TOKEN": BENCH_TOKEN,
        "RECORDER_CONTROL_DIR": control_dir,
    }
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    server = Server(process, port, db_path, log.name, control_dir)
    try:
        wait_until_ready(server, ready_timeout)
    except BaseException:
        server.stop()
        raise
    return server


def wait_until_ready(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.process.returncode}:\n{server.log()}")
        if answers(server.port):
            return
        time.sleep(0.05)
    raise TimeoutError(f"gunicorn did not answer within {timeout} s:\n{server.log()}")


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", "/api/variants")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


@contextlib.contextmanager
def served(db_path: str, config: GunicornConfig = GunicornConfig()) -> Iterator[Server]:
    """A server for the block; should it have ended by itself meanwhile, its log is
    printed before it goes (a bench that failed for it says why)."""
    server = start(db_path, config)
    try:
        yield server
    finally:
        if server.process.poll() is not None:
            print(f"gunicorn ended by itself with {server.process.returncode}:\n{server.log()}", file=sys.stderr)
        server.stop()

"""A throwaway PostgreSQL server for the tests: Debian's binaries, a temporary cluster, a free port.

PostgreSQL refuses to run as root (and the tests run as root in CI), so the cluster is
created and run as an unprivileged user with ``runuser``. When the binaries are missing
the tests that need the server are skipped with the reason, never passed.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

SERVER_USER = "nobody"  # owns the cluster's files and runs postgres when the tests run as root


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory holding initdb, pg_ctl and postgres."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if all(os.access(os.path.join(folder, tool), os.X_OK) for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and shutil.which("initdb") else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """initdb + pg_ctl start in a temporary directory; ``stop()`` removes it all."""

    def __init__(self, bin_dir: Path):
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="recorder-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # postgres will not run as root
            user = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", SERVER_USER, "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, cwd=self.root, timeout=120)

    def start(self, *, durable: bool = False) -> PostgresServer:
        """``durable``: fsync on, as in production (the bench); the tests kill apps, not the database."""
        self._run(
            str(self.bin_dir / "initdb"),
            "-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories=''"
            " -c max_connections=300" + ("" if durable else " -c fsync=off -c full_page_writes=off")
        )
        self._run(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip
        return self

    def url(self, database: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``); returns its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

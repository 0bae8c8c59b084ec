"""Compile the rules with mypyc into the virtualenv's cache (``recorder engine build``,
and the first start of any ``recorder`` command: recorder/engine/auto.py).

The sources are copied to a scratch folder and compiled there, so the repository never
holds a compiled module; the result is moved into ``cache_root()/<digest of the copy>``
in one rename, so a half-written build is never found. One build runs at a time per
cache (a lock file): a second process started meanwhile waits, then finds the first
one's build. mypyc ships with mypy (a dependency) and needs a C compiler and the Python
headers.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path

from . import COMPILED, MANIFEST, RULES_DIR, cache_root, digest, find_build, source_files


class BuildFailed(RuntimeError):
    """mypyc is missing or refused the sources; the pure-Python engine stays in use."""


KEPT_BUILDS = 3  # builds of other sources stay a while: a running server may still load from one


def build(echo: Callable[[str], None] = print, *, force: bool = False) -> Path:
    """The build folder of the sources on disk now, compiling them when none exists yet."""
    existing = find_build()
    if existing is not None and not force:
        echo(f"the compiled engine is up to date: {existing}")
        return existing
    problem = missing_toolchain()
    if problem is not None:
        raise BuildFailed(problem)
    with one_build_at_a_time(echo):
        existing = find_build()  # another process may have built these sources while this one waited
        if existing is not None and not force:
            echo(f"the compiled engine is up to date: {existing}")
            return existing
        return compile_and_publish(echo, force=force)


@contextmanager
def one_build_at_a_time(echo: Callable[[str], None]) -> Iterator[None]:
    """Hold the cache's lock file while compiling: two first starts compile once, not twice."""
    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock = open(root / ".lock", "w")  # held for the whole build, closed by the with below
    except OSError as error:
        raise BuildFailed(f"cannot write into {root}: {error}") from None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            echo("another process is building the compiled engine: waiting for it...")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def missing_toolchain() -> str | None:
    """What a build would lack, found in a moment (a failed mypyc run costs its whole type check), or None."""
    if find_spec("mypyc") is None:
        return "mypyc is not installed (pip install mypy)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"the Python headers are missing ({headers}: the python3-dev package)"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    try:
        works = subprocess.run([*compiler, "--version"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        works = False
    return None if works else f"no C compiler ({shlex.join(compiler)} --version failed)"


def compile_and_publish(echo: Callable[[str], None], *, force: bool) -> Path:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="recorder-engine-") as scratch:
        work = Path(scratch)
        rules = copy_sources(work)
        key = digest(rules)
        files = compile_rules(work, echo)
        try:
            return publish(files, key, replace=force, echo=echo, started=started)
        except OSError as error:
            raise BuildFailed(f"cannot write the build into {cache_root()}: {error}") from None


def copy_sources(work: Path) -> Path:
    """recorder/rules/*.py and recorder/errors.py under an empty ``recorder`` package."""
    rules = work / "recorder" / "rules"
    rules.mkdir(parents=True)
    (work / "recorder" / "__init__.py").write_text("")
    for path in source_files(RULES_DIR):
        shutil.copy2(path, (rules if path.parent == RULES_DIR else work / "recorder") / path.name)
    return rules


# How long the build takes, said once for the command, the README and docs/engine.md
# (the figures behind it: docs/engine.md).
COMPILE_TIME = "20 s to a minute"


def compile_rules(work: Path, echo: Callable[[str], None]) -> dict[str, Path]:
    """Run mypyc on the COMPILED modules; return {module name: extension file}."""
    targets = [f"recorder/rules/{name}.py" for name in COMPILED]
    echo(f"compiling the rules engine ({len(targets)} modules) with mypyc, once for these sources ({COMPILE_TIME})...")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "mypyc", *targets], cwd=work, capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise BuildFailed(f"cannot run mypyc: {error}") from None
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise BuildFailed(f"mypyc failed (is mypy installed, with gcc and the Python headers?):\n{tail}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = {f"recorder.rules.{name}": work / "recorder" / "rules" / f"{name}{suffix}" for name in COMPILED}
    for shared in work.glob(f"*__mypyc{suffix}"):  # mypyc's runtime for the group, a top-level module
        files[shared.name[: -len(suffix)]] = shared
    missing = [str(path) for path in files.values() if not path.is_file()]
    if missing:
        raise BuildFailed(f"mypyc produced no {', '.join(missing)}")
    return files


def publish(
    files: dict[str, Path], key: str, *, replace: bool = False, echo: Callable[[str], None] = print, started: float = 0
) -> Path:
    """Move the extensions into the cache under their digest in one rename, then drop the
    oldest builds. A build of the same sources already there is kept unless ``replace``."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
    for path in files.values():
        shutil.copy2(path, staging / path.name)
    manifest = {"digest": key, "files": {name: path.name for name, path in files.items()}}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    final = root / key
    if replace and final.exists():  # moved aside first: the rename below never meets a half-removed folder
        os.rename(final, tempfile.mkdtemp(prefix=f".old-{key}-", dir=root))
    try:
        os.rename(staging, final)
    except OSError:  # another build of the same sources finished first: keep that one
        shutil.rmtree(staging, ignore_errors=True)
        if not (final / MANIFEST).is_file():
            raise
    drop_old_builds(root, keep=final)
    echo(f"compiled engine built in {time.monotonic() - started:.0f} s: {final}")
    return final


def drop_old_builds(root: Path, keep: Path) -> None:
    """Leave ``keep`` and the newest other builds; remove older ones, and what a replaced or an
    interrupted build left (dot-folders: the lock is held, so no other build is staging)."""
    folders = [path for path in root.iterdir() if path.is_dir() and path != keep]
    others = sorted(
        (path for path in folders if not path.name.startswith(".")), key=lambda path: path.stat().st_mtime, reverse=True
    )
    leftovers = [path for path in folders if path.name.startswith(".")]
    for old in others[KEPT_BUILDS - 1 :] + leftovers:
        shutil.rmtree(old, ignore_errors=True)

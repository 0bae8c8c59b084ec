"""The rules in the browser: Pyodide, and the pure rules packages as one zip.

While moves are queued offline, the game page folds them through the very same
``recorder.rules`` / ``recorder.core`` code the service runs, in Pyodide (CPython
compiled to WebAssembly) inside a worker (static/js/rules-worker.js). Nothing is loaded
from outside the service: it serves both parts itself, and its service worker keeps them.

- **Pyodide** comes from the npm registry's ``pyodide`` package, pinned to one version
  and its published integrity (sha512). ``fetch_runtime`` runs ``npm pack`` for it,
  checks the tarball against that integrity, and unpacks only the files a page loads
  (``PYODIDE_FILES``) into a cache folder outside the repository:
  ``$RECORDER_PYODIDE_DIR``, else ``$XDG_CACHE_HOME/recorder/pyodide/<version>``
  (``~/.cache/...``). The first ``recorder serve`` does it when npm is there;
  ``recorder runtime fetch`` does it on demand. Without it the page records offline as
  before (the server judges the queue) and says so.
- **The rules** are zipped from the installed package's own source files
  (``rules_archive``): ``recorder/__init__.py``, ``errors.py``, ``engine/__init__.py``
  (which ``import recorder`` runs; it picks the pure modules there), ``rules/`` and
  ``core/``, and the audit modules an appeal dossier's check needs (``AUDIT_SOURCES``), all
  standard library only. One copy of the rules: the page imports the files the service
  imports.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

PYODIDE_VERSION = "314.0.7"
# npm's dist.integrity of pyodide@314.0.7 (`npm view pyodide@314.0.7 dist.integrity`).
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What loadPyodide() reads with no packages: its module, the interpreter, the standard
# library, and the (empty for us) package lock. The rest of the npm package (types,
# source maps, the console pages) is never served.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
NPM_TIMEOUT_S = 300
SCRATCH = ".fetching-"  # a fetch's scratch folder, beside the version folders
STALE_SCRATCH_S = 2 * NPM_TIMEOUT_S
# Kept gzipped beside the plain file too, served so to a browser that takes gzip: the
# interpreter and its glue shrink to a third. The standard library is a zip already.
GZIPPED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")

PACKAGE = Path(__file__).resolve().parent.parent  # recorder/
# The modules the page imports, relative to the folder holding recorder/.
RULES_SOURCES = ("recorder/__init__.py", "recorder/errors.py", "recorder/engine/__init__.py")
# The appeal dossier's check (docs/auditing.md) and the audit views it derives again: the
# same Python as `recorder verify --dossier`, with the standard library alone.
AUDIT_SOURCES = tuple(
    f"recorder/audit/{name}.py"
    for name in ("__init__", "claims", "dossier_body", "dossier_check", "signed_text", "trace", "verify", "whatif")
)
RULES_PACKAGES = ("recorder/rules", "recorder/core")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same sources give the same bytes and digest


class RuntimeUnavailable(Exception):
    """Pyodide could not be fetched (no npm, no network, a tarball that is not the pinned one)."""


def runtime_dir() -> Path:
    chosen = os.environ.get("RECORDER_PYODIDE_DIR")
    if chosen:
        return Path(chosen)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "recorder" / "pyodide" / PYODIDE_VERSION


def installed(folder: Path | None = None) -> bool:
    folder = folder or runtime_dir()
    return all((folder / name).is_file() for name in PYODIDE_FILES)


def runtime_size(folder: Path | None = None, gzipped: bool = False) -> int:
    """Bytes a page downloads for the runtime (the rules zip aside), plain or gzipped."""
    folder = folder or runtime_dir()
    return sum(served_file(folder, name, gzipped).stat().st_size for name in PYODIDE_FILES)


def served_file(folder: Path, name: str, gzipped: bool) -> Path:
    """The file sent for ``name``: its gzipped copy to a browser that takes gzip, when there is one."""
    packed = folder / f"{name}.gz"
    return packed if gzipped and name in GZIPPED and packed.is_file() else folder / name


def fetch_runtime(echo: Callable[[str], None], folder: Path | None = None, npm: str | None = None) -> Path:
    """Fetch the pinned Pyodide with npm, check it, and unpack what a page loads into ``folder``."""
    folder = folder or runtime_dir()
    npm = npm or shutil.which("npm")
    if npm is None:
        raise RuntimeUnavailable("npm is not installed (Debian: apt-get install npm)")
    folder.parent.mkdir(parents=True, exist_ok=True)
    forget_stale_fetches(folder.parent)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=SCRATCH) as scratch:
        tarball = packed(npm, Path(scratch))
        check_integrity(tarball.read_bytes())
        unpacked = Path(scratch) / "unpacked"
        unpack(tarball, unpacked)
        put_in_place(unpacked, folder)
    sizes = f"{runtime_size(folder) / 1e6:.1f} MB, {runtime_size(folder, gzipped=True) / 1e6:.1f} MB gzipped"
    echo(f"offline rules: Pyodide {PYODIDE_VERSION} in {folder} ({sizes})")
    return folder


def forget_stale_fetches(parent: Path) -> None:
    """A fetch cut short (a service stopped while it ran) leaves its scratch folder: gone
    once it is older than any fetch could be still running."""
    for scratch in parent.glob(f"{SCRATCH}*"):
        try:
            if time.time() - scratch.stat().st_mtime > STALE_SCRATCH_S:
                shutil.rmtree(scratch, ignore_errors=True)
        except OSError:
            pass


def put_in_place(unpacked: Path, folder: Path) -> None:
    """Rename the checked files into place; another start that got there first (the same
    pinned files) is as good, and a partial folder left by a crash is replaced."""
    if folder.exists() and not installed(folder):
        shutil.rmtree(folder)
    try:
        unpacked.rename(folder)
    except OSError:
        if not installed(folder):
            raise


def packed(npm: str, scratch: Path) -> Path:
    command = [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(scratch), "--silent"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=NPM_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeUnavailable(f"npm pack failed: {error}") from None
    if done.returncode != 0:
        raise RuntimeUnavailable(f"npm pack failed: {(done.stderr or done.stdout).strip()[-500:]}")
    tarballs = sorted(scratch.glob("*.tgz"))
    if len(tarballs) != 1:
        raise RuntimeUnavailable(f"npm pack left {len(tarballs)} tarballs, not one")
    return tarballs[0]


def check_integrity(data: bytes) -> None:
    """The tarball is the one pinned here, whatever the registry (or a mirror) says."""
    algorithm, _, expected = PYODIDE_INTEGRITY.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        raise RuntimeUnavailable(f"the tarball is not pyodide@{PYODIDE_VERSION} as pinned ({algorithm} differs)")


def unpack(tarball: Path, into: Path) -> None:
    """Only the named files, read as data: nothing the archive names elsewhere is written."""
    into.mkdir()
    with tarfile.open(tarball, "r:gz") as archive:
        for name in PYODIDE_FILES:
            try:
                member = archive.getmember(f"package/{name}")
            except KeyError:
                raise RuntimeUnavailable(f"the pyodide package has no {name}") from None
            source = archive.extractfile(member) if member.isfile() else None
            if source is None:
                raise RuntimeUnavailable(f"the pyodide package's {name} is not a file")
            data = source.read()
            (into / name).write_bytes(data)
            if name in GZIPPED:
                (into / f"{name}.gz").write_bytes(gzip.compress(data, mtime=0))


def ensure_runtime(echo: Callable[[str], None]) -> bool:
    """Fetch Pyodide on a first start when npm is there; one line when it cannot be."""
    if installed():
        return True
    echo(f"offline rules: fetching Pyodide {PYODIDE_VERSION} from the npm registry, once…")
    try:
        fetch_runtime(echo)
    except (RuntimeUnavailable, OSError) as error:
        echo(f"offline rules: not available ({error}); pages record offline without them (docs/web.md)")
        return False
    return True


def ensure_runtime_in_background(echo: Callable[[str], None]) -> threading.Thread | None:
    """``ensure_runtime`` beside the service, which starts at once: pages served before
    Pyodide is in place say the rules are not on the device, and the next load has them."""
    if installed():
        return None
    worker = threading.Thread(target=ensure_runtime, args=(echo,), name="fetch-pyodide", daemon=True)
    worker.start()
    return worker


# -- The rules, zipped --------------------------------------------------------------------


def rules_files() -> list[Path]:
    files = [PACKAGE.parent / name for name in (*RULES_SOURCES, *AUDIT_SOURCES)]
    for package in RULES_PACKAGES:
        files += sorted((PACKAGE.parent / package).glob("*.py"))
    return files


@lru_cache(maxsize=1)
def rules_archive() -> tuple[bytes, str]:
    """The pure rules' sources as a zip, and a digest of it (its address names the digest)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in rules_files():
            info = zipfile.ZipInfo(path.relative_to(PACKAGE.parent).as_posix(), date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]

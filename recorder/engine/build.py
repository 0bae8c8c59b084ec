"""``recorder engine build``: compile the rules with mypyc into the virtualenv's cache.

The sources are copied to a scratch folder and compiled there, so the repository never
holds a compiled module; the result is moved into ``cache_root()/<digest of the copy>``
in one rename, so a half-written build is never found. mypyc ships with mypy (the
``test`` extra, or ``pip install mypy``) and needs a C compiler and the Python headers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path

from . import COMPILED, MANIFEST, RULES_DIR, cache_root, digest, find_build, source_files


class BuildFailed(RuntimeError):
    """mypyc is missing or refused the sources; the pure-Python engine stays in use."""


def build(echo: Callable[[str], None] = print, *, force: bool = False) -> Path:
    """The build folder of the sources on disk now, compiling them when none exists yet."""
    existing = find_build()
    if existing is not None and not force:
        echo(f"the compiled engine is up to date: {existing}")
        return existing
    with tempfile.TemporaryDirectory(prefix="recorder-engine-") as scratch:
        work = Path(scratch)
        rules = copy_sources(work)
        key = digest(rules)
        files = compile_rules(work, echo)
        try:
            return publish(files, key, echo)
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


def compile_rules(work: Path, echo: Callable[[str], None]) -> dict[str, Path]:
    """Run mypyc on the COMPILED modules; return {module name: extension file}."""
    targets = [f"recorder/rules/{name}.py" for name in COMPILED]
    echo(f"compiling {len(targets)} rules modules with mypyc (a minute or so)...")
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


def publish(files: dict[str, Path], key: str, echo: Callable[[str], None]) -> Path:
    """Move the extensions into the cache under their digest, then drop older builds."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
    for path in files.values():
        shutil.copy2(path, staging / path.name)
    manifest = {"digest": key, "files": {name: path.name for name, path in files.items()}}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    final = root / key
    if final.exists():
        shutil.rmtree(final)
    try:
        os.rename(staging, final)
    except OSError:  # another build of the same sources finished first: keep that one
        shutil.rmtree(staging, ignore_errors=True)
        if not (final / MANIFEST).is_file():
            raise
    for old in root.iterdir():
        if old.is_dir() and old != final and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)
    echo(f"compiled engine built: {final}")
    return final

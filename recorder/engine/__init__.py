"""Which rules engine runs: the pure-Python modules, or the same source compiled by mypyc.

The first start of a ``recorder`` command (recorder/engine/auto.py), or ``recorder engine
build`` (recorder/engine/build.py), compiles the hot rules modules (``COMPILED``) into a
cache inside the virtualenv, one folder per digest of the sources it compiled:
``<sys.prefix>/lib/recorder-engine/<digest>/`` (``RECORDER_ENGINE_CACHE`` names another
folder). Nothing is ever written beside the ``.py`` files, so no build can shadow an
edit of the rules.

``install()`` (called once by ``import recorder``) hashes the rules sources on disk now
and, only when a build of exactly those bytes exists, loads the build's modules into
``sys.modules`` at once, each from its file, as ``recorder.rules.<name>``: no import hook
is left behind (``sys.meta_path`` is as it was), and later imports of the rules find the
compiled modules already loaded. Any edit changes the digest, finds no build, and the
pure modules run. ``RECORDER_ENGINE=python``
forces the pure modules; ``RECORDER_ENGINE=compiled`` refuses to start without a fresh
build (the equivalence test uses it). Standard library only; the rules never see this.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
# The modules a sowing runs through, the state it copies included; the position key; the
# random sowing of every random game (the engine bench's loop).
GAMES = ("selus", "gabata", "qelat", "lahemay_walida", "tuz")
COMPILED = ("state", "base", "board", "rounds", *GAMES, "position_text", "playout")
# COMPILED in the order they import each other (tests/test_engine.py checks it): a module
# is loaded from its file, with no finder to load the modules it imports on demand.
LOAD_ORDER = ("board", "state", "base", "rounds", *GAMES, "position_text", "playout")
RULES = "recorder.rules"
CHOICES = ("auto", "python", "compiled")
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Engine:
    """The engine this process runs, and why (printed by the bench and ``recorder engine status``)."""

    kind: str  # "compiled" or "python"
    reason: str
    build: Path | None = None

    def describe(self) -> str:
        return f"{self.kind} ({self.reason})"


_ENGINE = Engine("python", "not installed yet")


def cache_root() -> Path:
    """Builds live inside the virtualenv, never in the repository (or where RECORDER_ENGINE_CACHE says)."""
    chosen = os.environ.get("RECORDER_ENGINE_CACHE")
    return Path(chosen) if chosen else Path(sys.prefix) / "lib" / "recorder-engine"


def source_files(rules_dir: Path = RULES_DIR) -> list[Path]:
    """Every file the compiled code was type-checked against: all of rules/ and errors.py,
    compiled or not (the compiled code uses values.py's types, for one)."""
    return sorted(rules_dir.glob("*.py")) + [rules_dir.parent / "errors.py"]


def digest(rules_dir: Path = RULES_DIR) -> str:
    """The key of a build: the bytes of every source, the module list and the Python ABI."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')} {COMPILED}".encode())
    for path in source_files(rules_dir):
        h.update(f"\0{path.name}\0".encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def find_build(rules_dir: Path = RULES_DIR, root: Path | None = None) -> Path | None:
    """The build folder of exactly these sources, or None (then the pure modules run)."""
    folder = (root or cache_root()) / digest(rules_dir)
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return None
    recorded = json.loads(manifest.read_text())
    files = [folder / name for name in recorded["files"].values()]
    return folder if recorded.get("digest") == folder.name and all(path.is_file() for path in files) else None


def load(folder: Path) -> None:
    """Load a build into ``sys.modules`` as the import system would, without a finder:
    mypyc's shared library first (its modules import it by name), then the rules package
    registered but not yet run (a compiled module's own imports, ``values`` and ``errors``,
    are the pure modules beside it), each compiled module in ``LOAD_ORDER``, and last the
    package's ``__init__``, whose imports find the compiled modules loaded."""
    files = json.loads((folder / MANIFEST).read_text())["files"]
    shared = [name for name in files if not name.startswith(RULES + ".")]
    loaded = [*shared, RULES, *(f"{RULES}.{name}" for name in LOAD_ORDER)]
    try:
        for name in shared:
            sys.modules[name] = extension(name, folder / files[name])
        package = registered_package(RULES)
        for name in LOAD_ORDER:
            module = extension(f"{RULES}.{name}", folder / files[f"{RULES}.{name}"])
            sys.modules[module.__name__] = module
            setattr(package, name, module)
        run_package(package)
    except BaseException:
        for name in loaded:
            sys.modules.pop(name, None)
        raise


def extension(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def registered_package(name: str) -> ModuleType:
    """The package in ``sys.modules`` before its ``__init__`` runs, as while it is imported."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, name
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    return package


def run_package(package: ModuleType) -> None:
    assert package.__spec__ is not None and package.__spec__.loader is not None
    package.__spec__.loader.exec_module(package)
    parent, _, child = package.__name__.rpartition(".")
    setattr(sys.modules[parent], child, package)


def install() -> Engine:
    """Choose the engine once per process, before anything imports the rules."""
    global _ENGINE
    choice = os.environ.get("RECORDER_ENGINE", "auto")
    if choice not in CHOICES:
        raise RuntimeError(f"RECORDER_ENGINE must be one of {', '.join(CHOICES)}, not {choice!r}")
    if _ENGINE.kind == "compiled":
        return _ENGINE
    if choice == "python":
        _ENGINE = Engine("python", "RECORDER_ENGINE=python")
        return _ENGINE
    if "recorder.rules" in sys.modules:
        _ENGINE = Engine("python", "the rules were imported before the engine was chosen")
        return _ENGINE
    folder = find_build()
    if folder is None:
        if choice == "compiled":
            raise RuntimeError(
                "RECORDER_ENGINE=compiled, but no build matches the rules sources: recorder engine build"
            )
        _ENGINE = Engine("python", "no build of these sources yet: any recorder command builds it")
        return _ENGINE
    load(folder)
    _ENGINE = Engine("compiled", f"mypyc build {folder.name[:12]}", folder)
    return _ENGINE


def current() -> Engine:
    return _ENGINE


def explain(reason: str) -> Engine:
    """Say why the pure modules run (the automatic build could not make a build)."""
    global _ENGINE
    if _ENGINE.kind == "python":
        _ENGINE = Engine("python", reason)
    return _ENGINE


_announced = False


def announce(echo: Callable[[str], None]) -> None:
    """One line naming the engine this process runs, once per process: the automatic build's
    fallback says it first, and then ``recorder serve`` does not say it again."""
    global _announced
    if not _announced:
        _announced = True
        echo(f"rules engine: {_ENGINE.describe()}")

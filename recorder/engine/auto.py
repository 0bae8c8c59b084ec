"""The compiled engine by default: the first start of any ``recorder`` command builds it.

The console script (recorder/__main__.py) calls ``ensure()`` before the command imports
the rules. When ``RECORDER_ENGINE`` is ``auto`` and no build of the sources on disk
exists, it compiles them once (a progress line, then where the build went:
recorder/engine/build.py) and installs the build for this process; later starts find
the build and say nothing. Without mypyc, the Python headers or a C compiler, it says so
in one line and the pure modules run. A compile that fails anyway is remembered for
these sources (``.failed-<digest>`` in the cache), so later starts do not spend its type
check again; ``recorder engine build`` tries again. ``import recorder`` and gunicorn
never compile: they use the build that exists, else the pure modules.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from . import Engine, announce, cache_root, current, digest, explain, install
from .build import BuildFailed, build, missing_toolchain

NEEDS = "the compiled engine needs mypyc (a dependency), a C compiler and the Python headers: docs/engine.md"


def ensure(echo: Callable[[str], None]) -> Engine:
    """The engine this process runs, built first when it could be and is not yet."""
    ran = current()
    if ran.kind == "compiled" or os.environ.get("RECORDER_ENGINE", "auto") != "auto" or "recorder.rules" in sys.modules:
        return ran
    failed = failure_marker()
    problem = missing_toolchain()
    if problem is None and failed.is_file():
        problem = f"its build failed for these sources ({failed}; recorder engine build tries again)"
    if problem is not None:
        return fall_back(problem, echo)
    try:
        build(echo)
    except BuildFailed as error:
        remember(failed, str(error))
        return fall_back(f"its build failed ({str(error).splitlines()[0]}; {failed})", echo)
    return install()


def failure_marker() -> Path:
    return cache_root() / f".failed-{digest()}"


def remember(marker: Path, error: str) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(error + "\n")
    except OSError:
        pass  # an unwritable cache: the next start tries again, and says so again


def fall_back(problem: str, echo: Callable[[str], None]) -> Engine:
    ran = explain(f"{problem}; {NEEDS}")
    announce(echo)
    return ran

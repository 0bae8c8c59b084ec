"""The static checks run with the tests, so they can fail: mypy (strict on the rules, the
core and the pairing engine, default elsewhere), ruff's linter and formatter, all configured
in pyproject.toml and run from the project root exactly as a developer runs them, and
radon's complexity grades."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    """The tool installed beside this interpreter (the test extra), else one on PATH."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "command",
    [["mypy"], ["ruff", "check", "."], ["ruff", "format", "--check", "."]],
    ids=["mypy", "ruff-check", "ruff-format"],
)
def test_static_check_passes(command):
    result = subprocess.run([tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}"


def test_no_function_is_graded_d_or_worse_by_radon():
    """Every function a reader can hold in his head: radon's cyclomatic complexity below 21
    (grade C or better) everywhere in recorder/ (`radon cc -n D recorder` prints nothing)."""
    from radon.complexity import cc_rank, cc_visit

    too_complex = [
        f"{path.relative_to(ROOT)}:{block.lineno} {block.name} {cc_rank(block.complexity)} ({block.complexity})"
        for path in sorted((ROOT / "recorder").rglob("*.py"))
        for block in cc_visit(path.read_text())
        if cc_rank(block.complexity) not in "ABC"
    ]
    assert not too_complex, "\n".join(too_complex)

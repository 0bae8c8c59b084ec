"""The compiled engine (mypyc, docs/engine.md) is the pure one, faster: the same results on
seeded random games of every variant, and never a build of other sources than those on disk.

The build is made once (``recorder engine build``'s function; a minute or so on a loaded
machine) into the virtualenv's cache, keyed by the digest of the sources; later runs reuse it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from recorder import engine
from recorder.engine.build import build

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def compiled() -> Path:
    return build(lambda line: None)


def run_python(code_or_args: list[str], cwd: Path, choice: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RECORDER_ENGINE": choice}
    return subprocess.run([sys.executable, *code_or_args], cwd=cwd, env=env, capture_output=True, text=True)


def play(choice: str) -> dict:
    result = run_python([str(ROOT / "tests" / "support" / "engine_games.py"), "6", "600"], ROOT, choice)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compiled_and_pure_engines_give_identical_games_of_every_variant(compiled):
    pure, fast = play("python"), play("compiled")
    assert pure["engine"] == "python" and pure["qelat"].endswith(".py")
    assert fast["engine"] == "compiled" and fast["qelat"].endswith(SUFFIX) and fast["qelat"].startswith(str(compiled))
    assert len(pure["digests"]) == 66
    assert fast["digests"] == pure["digests"]


ASSIGN = """
from recorder.rules.qelat import Qelat
state = Qelat({}).start(None)
try:
    state.holes = ()
except AttributeError:
    print("refused")
"""


def test_a_compiled_state_refuses_an_assignment_to_any_field(compiled):
    result = run_python(["-c", ASSIGN], ROOT, "compiled")
    assert result.returncode == 0 and result.stdout == "refused\n", result.stderr


def test_the_type_check_refuses_an_assignment_to_a_state_field(tmp_path):
    """In the pure modules a field could be set: mypy (run on the project by the test suite) refuses it."""
    probe = tmp_path / "assign.py"
    probe.write_text("from recorder.rules.state import State\n\n\ndef f(state: State) -> None:\n    state.holes = ()\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", str(probe)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 1 and 'Cannot assign to final attribute "holes"' in result.stdout, result.stdout


PROBE = "import recorder.engine as e, recorder.rules.qelat as q; print(e.current().kind, q.__file__)"


@pytest.fixture
def copy(tmp_path) -> Path:
    """The recorder package copied elsewhere: the same bytes find the build wherever they are."""
    shutil.copytree(ROOT / "recorder", tmp_path / "recorder", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def probe(copy: Path, choice: str = "auto") -> tuple[str, str]:
    result = run_python(["-c", PROBE], copy, choice)
    assert result.returncode == 0, result.stderr
    kind, path = result.stdout.split()
    return kind, path


def test_a_copy_of_the_same_sources_loads_the_build(compiled, copy):
    assert probe(copy) == ("compiled", str(compiled / f"qelat{SUFFIX}"))


@pytest.mark.parametrize("edited", ["qelat.py", "state.py", "../errors.py"])
def test_an_edited_source_never_loads_a_stale_build(compiled, copy, edited):
    # state.py and errors.py are not compiled, but the compiled code was checked against them.
    path = copy / "recorder" / "rules" / edited
    path.write_text(path.read_text() + "\n# edited after the build\n")
    assert probe(copy) == ("python", str(copy / "recorder" / "rules" / "qelat.py"))
    result = run_python(["-c", PROBE], copy, "compiled")
    assert result.returncode != 0 and "no build matches the rules sources" in result.stderr


def test_recorder_engine_python_forces_the_pure_modules(compiled, copy):
    assert probe(copy, "python") == ("python", str(copy / "recorder" / "rules" / "qelat.py"))


def test_an_unknown_engine_choice_is_refused(copy):
    result = run_python(["-c", PROBE], copy, "fast")
    assert result.returncode != 0 and "RECORDER_ENGINE must be one of auto, python, compiled" in result.stderr


def test_the_digest_covers_every_rules_source_and_the_errors(tmp_path):
    rules = tmp_path / "recorder" / "rules"
    shutil.copytree(ROOT / "recorder" / "rules", rules, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "recorder" / "errors.py", tmp_path / "recorder" / "errors.py")
    assert engine.digest(rules) == engine.digest()
    for path in [*sorted(rules.glob("*.py")), tmp_path / "recorder" / "errors.py"]:
        before = engine.digest(rules)
        path.write_text(path.read_text() + "\n")
        assert engine.digest(rules) != before, path.name


def test_no_build_is_found_in_an_empty_cache(tmp_path):
    assert engine.find_build(root=tmp_path) is None


def test_engine_status_names_the_engine(runner):
    from recorder.cli.main import main

    result = runner.invoke(main, ["engine", "status"])
    assert result.exit_code == 0 and f"engine: {engine.current().kind}" in result.output
    assert engine.digest() in result.output

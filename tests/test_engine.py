"""The compiled engine (mypyc, docs/engine.md) is the pure one, faster: the same results on
seeded random games of every variant, and never a build of other sources than those on disk.
The first start of a ``recorder`` command builds it, once; without a C compiler the pure
one runs and says so in one line.

The one build of this module is made by two first starts at once (recorder/engine/auto.py;
a minute or so on a loaded machine) into a cache of its own (``RECORDER_ENGINE_CACHE``),
and every test that needs a build shares it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
from pg_server import free_port

from recorder import engine
from recorder.engine import build as building

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
RECORDER = Path(sys.executable).with_name("recorder")  # the console script the README's set-up installs
FALLBACK = "rules engine: python (no C compiler (false --version failed); the compiled engine needs"

pytestmark = pytest.mark.timeout(600)


def environment(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RECORDER_ENGINE", "RECORDER_ADMIN_TOKEN")}
    return {**env, "RECORDER_ENGINE_CACHE": str(cache), **extra}


def start(cache: Path, *args: str, cwd: Path = ROOT, **extra: str) -> subprocess.Popen:
    """A ``recorder`` command started as a user starts it (from ``cwd``: a copy of the package there runs)."""
    command = [str(RECORDER), *args] if cwd == ROOT else [sys.executable, "-m", "recorder", *args]
    env = environment(cache, **extra)
    return subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen) -> tuple[str, str]:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    return out, err


def builds_in(cache: Path) -> list[str]:
    return sorted(path.name for path in cache.iterdir() if path.is_dir() and not path.name.startswith("."))


@pytest.fixture(scope="module")
def first_starts(tmp_path_factory) -> dict:
    """Two ``recorder engine status`` started at once on an empty cache, then a third: the one build."""
    cache = tmp_path_factory.mktemp("engine-cache")
    both = [start(cache, "engine", "status"), start(cache, "engine", "status")]
    outputs = [finish(process) for process in both]
    later = finish(start(cache, "engine", "status"))
    (folder,) = builds_in(cache)
    return {"cache": cache, "build": cache / folder, "outputs": outputs, "later": later}


@pytest.fixture(scope="module")
def compiled(first_starts) -> Path:
    return first_starts["build"]


def test_the_first_start_of_a_command_builds_the_engine_once_and_later_starts_reuse_it(first_starts):
    build = first_starts["build"]
    assert build.name == engine.digest() and engine.find_build(root=first_starts["cache"]) == build
    errs = [err for _, err in first_starts["outputs"]]
    # One start compiled; the other, started meanwhile, waited for it and loaded the same build.
    assert sorted("compiling the rules engine" in err for err in errs) == [False, True], errs
    assert sorted("another process is building the compiled engine: waiting" in err for err in errs) == [False, True]
    compiling = next(err for err in errs if "compiling" in err).splitlines()
    assert compiling[0].startswith("compiling the rules engine (11 modules) with mypyc, once for these sources")
    assert compiling[1].startswith("compiled engine built in ") and compiling[1].endswith(f": {build}")
    for out, _ in first_starts["outputs"]:
        assert out.startswith(f"engine: compiled (mypyc build {build.name[:12]})"), out
    out, err = first_starts["later"]
    assert err == "" and out.startswith(f"engine: compiled (mypyc build {build.name[:12]})")


def run_python(code_or_args: list[str], cwd: Path, choice: str, cache: Path) -> subprocess.CompletedProcess:
    env = environment(cache, RECORDER_ENGINE=choice)
    return subprocess.run([sys.executable, *code_or_args], cwd=cwd, env=env, capture_output=True, text=True)


def play(choice: str, cache: Path) -> dict:
    result = run_python([str(ROOT / "tests" / "support" / "engine_games.py"), "6", "600"], ROOT, choice, cache)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compiled_and_pure_engines_give_identical_games_of_every_variant(compiled):
    pure, fast = play("python", compiled.parent), play("compiled", compiled.parent)
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
    result = run_python(["-c", ASSIGN], ROOT, "compiled", compiled.parent)
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


UNTOUCHED = (
    "import sys\n"
    "before = list(sys.meta_path)\n"
    "import recorder, recorder.engine as e, recorder.rules.qelat as q\n"
    "print(sys.meta_path == before, e.current().kind, q.__file__)"
)


def test_importing_recorder_loads_the_build_and_leaves_no_import_hook(compiled):
    """The compiled modules are loaded from their files at once; ``sys.meta_path`` is as it was
    (a finder put at its front stayed there for the life of the process)."""
    result = run_python(["-c", UNTOUCHED], ROOT, "auto", compiled.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "compiled", str(compiled / f"qelat{SUFFIX}")]


def test_importing_recorder_without_a_build_leaves_no_import_hook(tmp_path):
    result = run_python(["-c", UNTOUCHED], ROOT, "auto", tmp_path / "empty-cache")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "python", str(ROOT / "recorder" / "rules" / "qelat.py")]


def test_the_load_order_loads_each_compiled_module_after_the_compiled_modules_it_imports():
    """A build is loaded without a finder, so a compiled module must find every compiled
    module it imports already loaded."""
    import ast

    assert sorted(engine.LOAD_ORDER) == sorted(engine.COMPILED)
    for place, name in enumerate(engine.LOAD_ORDER):
        tree = ast.parse((ROOT / "recorder" / "rules" / f"{name}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}
        assert imported & set(engine.COMPILED) <= set(engine.LOAD_ORDER[:place]), name


@pytest.fixture
def copy(tmp_path) -> Path:
    """The recorder package copied elsewhere: the same bytes find the build wherever they are."""
    shutil.copytree(ROOT / "recorder", tmp_path / "recorder", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def probe(copy: Path, cache: Path, choice: str = "auto") -> tuple[str, str]:
    result = run_python(["-c", PROBE], copy, choice, cache)
    assert result.returncode == 0, result.stderr
    kind, path = result.stdout.split()
    return kind, path


def test_a_copy_of_the_same_sources_loads_the_build(compiled, copy):
    assert probe(copy, compiled.parent) == ("compiled", str(compiled / f"qelat{SUFFIX}"))


@pytest.mark.parametrize("edited", ["qelat.py", "state.py", "../errors.py"])
def test_an_edited_source_never_loads_a_stale_build(compiled, copy, edited):
    # state.py and errors.py are not compiled, but the compiled code was checked against them.
    path = copy / "recorder" / "rules" / edited
    path.write_text(path.read_text() + "\n# edited after the build\n")
    assert probe(copy, compiled.parent) == ("python", str(copy / "recorder" / "rules" / "qelat.py"))
    result = run_python(["-c", PROBE], copy, "compiled", compiled.parent)
    assert result.returncode != 0 and "no build matches the rules sources" in result.stderr


def test_recorder_engine_python_forces_the_pure_modules(compiled, copy):
    assert probe(copy, compiled.parent, "python") == ("python", str(copy / "recorder" / "rules" / "qelat.py"))


def test_an_unknown_engine_choice_is_refused(copy, tmp_path):
    result = run_python(["-c", PROBE], copy, "fast", tmp_path / "cache")
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


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def test_without_a_c_compiler_a_command_starts_on_the_pure_engine_and_says_so_in_one_line(tmp_path):
    cache = tmp_path / "cache"
    out, err = finish(start(cache, "engine", "status", CC="false"))
    assert len(lines_of(err)) == 1 and err.startswith(FALLBACK), err
    assert out.startswith("engine: python (no C compiler")
    assert not cache.exists() or builds_in(cache) == []


def answered(url: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                assert response.status == 200
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serve_until_up(cache: Path, tmp_path: Path, compiler: str | None = None) -> str:
    """``recorder serve`` started, asked for the variants once it answers, stopped: everything it printed."""
    port = free_port()
    args = ("serve", "--port", str(port), "--db", str(tmp_path / "served.sqlite3"))
    if compiler is None:
        process = start(cache, *args, PYTHONUNBUFFERED="1")
    else:
        process = start(cache, *args, PYTHONUNBUFFERED="1", CC=compiler)
    try:
        answered(f"http://127.0.0.1:{port}/api/variants")
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    return out + err


def test_without_a_c_compiler_the_service_starts_on_the_pure_engine_and_says_so_in_one_line(tmp_path):
    printed = serve_until_up(tmp_path / "cache", tmp_path, compiler="false")
    said = [line for line in lines_of(printed) if "rules engine" in line]
    assert len(said) == 1 and said[0].startswith(FALLBACK), printed


def test_serve_names_the_compiled_engine_it_runs(compiled, tmp_path):
    printed = serve_until_up(compiled.parent, tmp_path)
    assert [line for line in lines_of(printed) if "rules engine" in line] == [
        f"rules engine: compiled (mypyc build {compiled.name[:12]})"
    ]


def test_an_edited_copy_never_starts_on_the_old_build_even_when_it_cannot_compile(compiled, copy):
    path = copy / "recorder" / "rules" / "qelat.py"
    path.write_text(path.read_text() + "\n# edited after the build\n")
    out, err = finish(start(compiled.parent, "engine", "status", cwd=copy, CC="false"))
    assert len(lines_of(err)) == 1 and err.startswith(FALLBACK), err
    assert out.startswith("engine: python") and builds_in(compiled.parent) == [compiled.name]


def test_a_build_that_failed_for_these_sources_is_not_tried_at_every_start(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / f".failed-{engine.digest()}").write_text("mypyc failed\n")
    out, err = finish(start(cache, "engine", "status"))
    assert lines_of(err) == [
        f"rules engine: python (its build failed for these sources ({cache / f'.failed-{engine.digest()}'}; "
        "recorder engine build tries again); the compiled engine needs mypyc (a dependency), a C compiler and "
        "the Python headers: docs/engine.md)"
    ]
    assert out.startswith("engine: python (its build failed") and builds_in(cache) == []


def extension(tmp_path: Path, text: str) -> dict[str, Path]:
    folder = tmp_path / text
    folder.mkdir()
    (folder / f"qelat{SUFFIX}").write_text(text)
    return {"recorder.rules.qelat": folder / f"qelat{SUFFIX}"}


def test_a_build_of_the_same_sources_published_first_is_kept_unless_replaced(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("RECORDER_ENGINE_CACHE", str(cache))
    first = building.publish(extension(tmp_path, "first"), "k", echo=lambda line: None)
    assert building.publish(extension(tmp_path, "second"), "k", echo=lambda line: None) == first
    assert (first / f"qelat{SUFFIX}").read_text() == "first"
    assert building.publish(extension(tmp_path, "third"), "k", replace=True, echo=lambda line: None) == first
    assert (first / f"qelat{SUFFIX}").read_text() == "third"
    assert sorted(path.name for path in cache.iterdir()) == ["k"]  # nothing staged or set aside is left


def test_builds_of_other_sources_are_dropped_beyond_the_newest_few(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("RECORDER_ENGINE_CACHE", str(cache))
    for age, key in enumerate(["d", "c", "b", "a"]):
        published = building.publish(extension(tmp_path, key), key, echo=lambda line: None)
        os.utime(published, (1_000_000 + age * 1_000, 1_000_000 + age * 1_000))
    assert builds_in(cache) == ["a", "b", "c"][: building.KEPT_BUILDS]


def test_the_bench_measures_the_pure_engine_in_an_interpreter_of_its_own():
    from recorder.bench.pure import measure_pure

    figures = measure_pure("qelat", 0.2)
    assert figures.variant == "qelat" and figures.games >= 1 and figures.laps >= figures.sowings > 0


def test_gunicorns_master_logs_the_engine_its_workers_will_run():
    from types import SimpleNamespace

    from recorder import gunicorn_conf

    logged: list[str] = []
    log = SimpleNamespace(info=lambda message, *args: logged.append(message % args))
    gunicorn_conf.on_starting(SimpleNamespace(log=log))
    assert logged == [f"rules engine: {engine.current().describe()}"]


def test_the_readme_and_the_command_say_the_same_compile_time():
    # The command said "about a minute" while the README said "about half a minute".
    assert f"({building.COMPILE_TIME})..." in (ROOT / "docs" / "engine.md").read_text()
    assert f"after, {building.COMPILE_TIME}, then" in " ".join((ROOT / "README.md").read_text().split())

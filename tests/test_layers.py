"""The test layers are marked by what each test uses (tests/conftest.py), so that
``pytest -m "not slow"`` runs the fast layer alone and a new module needs no list: a test
that launches Chromium is ``browser``, one that runs against the PostgreSQL server is
``postgres``, and both are ``slow`` with the listed modules and tests that take seconds."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("test_web_print.py", "test_store_copy.py", "test_store.py", "test_tournament_pairing.py")


def layers_of(*modules: str) -> dict[str, set[str]]:
    """Each collected test's id and its layers, from one collection of ``modules``."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-p", "support.layers_probe"]
    command += [f"tests/{module}" for module in modules]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}  # where the probe plugin is
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    found = (line.split("\t")[1:] for line in result.stdout.splitlines() if line.startswith("LAYERS\t"))
    return {test: set(filter(None, marks.split(","))) for test, marks in found}


def test_each_test_is_marked_with_the_layers_of_what_it_uses():
    layers = layers_of(*MODULES)
    by_module = {module: {t: m for t, m in layers.items() if t.startswith(f"tests/{module}::")} for module in MODULES}
    assert all(by_module.values()), "every module collected"
    # Chromium, launched by the module's fixture: every test of the printed lists.
    assert all(marks == {"browser", "slow"} for marks in by_module["test_web_print.py"].values())
    # The PostgreSQL server, through the postgres_url fixture or a "postgres" parameter.
    assert any(marks == {"postgres", "slow"} for marks in by_module["test_store_copy.py"].values())
    for test, marks in by_module["test_store.py"].items():
        assert ("postgres" in marks) == ("[postgres" in test or "-postgres" in test), test
    # A listed slow test (the reference corpus), its module's other tests in the fast layer.
    pairing = by_module["test_tournament_pairing.py"]
    corpus = [m for t, m in pairing.items() if "reference_corpus_as_the_reference_engine" in t]
    assert corpus and all(marks == {"slow"} for marks in corpus)
    assert sum(not marks for marks in pairing.values()) > 50
    assert all("slow" in marks for marks in layers.values() if marks & {"browser", "postgres"})

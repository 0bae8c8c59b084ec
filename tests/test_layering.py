"""The layering holds: pure rules and views at the bottom, the store and schemas above
them, Flask and click at the top. Checked by parsing every module's imports."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ["recorder/variants/*.py", "recorder/render.py", "recorder/svg.py", "recorder/notation.py", "recorder/chain.py"]
PURE += ["recorder/tournaments/*.py"]  # issue 8: events, fold, decide, pairing, standings, views
PURE += [f"recorder/{name}.py" for name in ("audit", "claims", "whatif", "verify", "redecide", "move_list", "turns")]
PURE += [f"recorder/{name}.py" for name in ("notation_reader", "notation_writer", "ndjson")]
PURE += ["recorder/bench/engine.py", "recorder/writer_lock.py"]  # issue 10: engine bench, the writers' queue
IO_LIBRARIES = {"flask", "sqlite3", "sqlite_utils", "marshmallow", "werkzeug", "click", "requests", "apispec"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def modules(*patterns: str) -> list[Path]:
    return sorted(path for pattern in patterns for path in ROOT.glob(pattern))


@pytest.mark.parametrize("path", modules(*PURE), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_io_library(path):
    assert not imported_roots(path) & IO_LIBRARIES


def test_variants_use_the_standard_library_only():
    for path in modules("recorder/variants/*.py"):
        text = path.read_text()
        assert "from ..errors import" in text or "import" in text  # relative imports only below
        for root in imported_roots(path):
            assert root in {"__future__", "typing", "enum", "dataclasses", "functools", "json", "collections"}, (path, root)


def test_only_the_store_touches_sqlite():
    for path in modules("recorder/**/*.py", "schemas/*.py"):
        if path.name == "store.py" or path.parent.name == "store":
            continue
        assert not imported_roots(path) & {"sqlite3", "sqlite_utils"}, path


def test_only_the_api_cli_and_app_factory_touch_flask():
    allowed = ("recorder/api/", "recorder/web", "recorder/cli", "recorder/__init__.py")
    for path in modules("recorder/**/*.py"):
        relative = str(path.relative_to(ROOT))
        if relative.startswith(allowed):
            continue
        assert "flask" not in imported_roots(path), relative


def test_marshmallow_lives_in_schemas_and_the_api_that_uses_them():
    for path in modules("recorder/**/*.py"):
        if str(path.relative_to(ROOT)).startswith("recorder/api/"):
            continue
        assert "marshmallow" not in imported_roots(path), path

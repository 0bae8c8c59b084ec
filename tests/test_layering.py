"""The layering holds: pure rules and views at the bottom, the store and schemas above
them, Flask and click at the top.

The import graph is computed from every module's parsed imports, relative ones resolved
to their full names and imports inside functions included, so a lazy import cannot hide
an arrow. The packages' graph (``recorder.archive``, ``recorder.cli``, a top-level module
such as ``recorder.projections``, ``schemas``) has no circle either: no package imports one
above it, even where no two modules import each other. Each pure package is also imported
in a fresh interpreter, which catches what parsing cannot (an import through a re-export, a
library that loads another).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PURE_PACKAGES = [
    "recorder.rules",
    "recorder.core",
    "recorder.notation",
    "recorder.render",
    "recorder.tournaments.pairing",
]
PURE_MODULES = [
    "recorder.errors",
    *(f"recorder.audit.{name}" for name in ("trace", "claims", "whatif", "verify")),
    *(
        f"recorder.tournaments.{name}"
        for name in (
            "events",
            "fold",
            "decide",
            "results",
            "standings",
            "cell",
            "tiebreaks",
            "trf",
            "check",
            "broadcast",
            "prizes",
            "categories",
            "prize_views",
            "knockout",
            "finish",
            "proposal",
            "teams",
            "team_trf",
            "team_tiebreaks",
            "team_swiss",
        )
    ),
    *(f"recorder.tournaments.{name}" for name in ("views", "render")),
    "recorder.tournaments",
    "recorder.bench.engine",
    *(f"recorder.ratings.{name}" for name in ("glicko2", "lists")),
    *(f"recorder.players.{name}" for name in ("events", "fold", "decide", "geez")),
    "recorder.players",
    *(f"recorder.teams.{name}" for name in ("events", "fold", "decide")),
    "recorder.teams",
    "recorder.ratings",
]
IO_LIBRARIES = {"flask", "werkzeug", "click", "sqlite3", "sqlite_utils", "marshmallow", "apispec", "fcntl"}
RULES_MAY_IMPORT = {"__future__", "typing", "enum", "dataclasses", "functools", "json", "collections", "itertools"}
STORE_LIBRARIES = {"sqlite3", "sqlite_utils"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


MODULES = {module_name(path): path for path in sorted(ROOT.glob("recorder/**/*.py"))}
MODULES.update({module_name(path): path for path in sorted(ROOT.glob("schemas/*.py"))})


def resolve(importer: str, package: bool, node: ast.ImportFrom) -> str:
    """The full dotted name an ``ImportFrom`` names, relative levels resolved."""
    if not node.level:
        return node.module or ""
    base = importer.split(".") if package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str) -> set[str]:
    """Every module ``name`` imports: libraries by their root, our modules by full name."""
    path = MODULES[name]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = resolve(name, is_package(path), node)
            submodules = {f"{target}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined in the module itself
                found.add(target)
    return {ours_or_root(target) for target in found if target}


def ours_or_root(target: str) -> str:
    if target.split(".")[0] in {"recorder", "schemas"}:
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        return target
    return target.split(".")[0]


GRAPH = {name: imports_of(name) for name in MODULES}


def is_pure(name: str) -> bool:
    return name in PURE_MODULES or any(name == p or name.startswith(p + ".") for p in PURE_PACKAGES)


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """One circle of the graph, or [] when it has none (iterative depth-first search)."""
    state: dict[str, int] = {}
    for start in graph:
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph[start] & graph.keys())))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                return path[path.index(child) :] + [child]
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(graph[child] & graph.keys()))))
    return []


def package_of(name: str) -> str:
    """The package a module belongs to: ``recorder.cli.archive`` -> ``recorder.cli``; a
    module at the top of ``recorder`` is its own package."""
    return ".".join(name.split(".")[:2])


def packages_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the other packages its modules import."""
    packages: dict[str, set[str]] = {}
    for name, targets in graph.items():
        ours = {package_of(target) for target in targets if target in graph}
        packages.setdefault(package_of(name), set()).update(ours - {package_of(name)})
    return packages


def arrows_between(graph: dict[str, set[str]], importer: str, imported: str) -> list[tuple[str, str]]:
    """The module imports that make package ``importer`` import package ``imported``."""
    return sorted(
        (name, target)
        for name, targets in graph.items()
        if package_of(name) == importer
        for target in targets
        if target in graph and package_of(target) == imported
    )


def test_relative_imports_are_resolved():
    # recorder/core/game.py imports the rules through "..rules": the graph must see it.
    assert "recorder.rules" in GRAPH["recorder.core.game"] or any(
        target.startswith("recorder.rules") for target in GRAPH["recorder.core.game"]
    )


def test_the_import_graph_has_no_circle():
    assert cycle_in(GRAPH) == []


def test_no_package_imports_a_package_above_it():
    circle = cycle_in(packages_graph(GRAPH))
    assert circle == [], [arrows_between(GRAPH, a, b) for a, b in zip(circle, circle[1:], strict=False)]


def test_a_circle_between_packages_is_seen_where_the_modules_make_none():
    # bench.archive -> cli.archive, cli.main -> bench.plan: no module circle, a package one.
    graph = {"recorder.bench.archive": {"recorder.cli.archive"}, "recorder.cli.archive": set()}
    graph |= {"recorder.cli.main": {"recorder.bench.plan"}, "recorder.bench.plan": set()}
    assert cycle_in(graph) == []
    assert cycle_in(packages_graph(graph)) == ["recorder.bench", "recorder.cli", "recorder.bench"]


def test_cycle_finder_finds_a_circle():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if is_pure(n)))
def test_pure_modules_import_only_pure_modules_and_no_io_library(name):
    ours = {target for target in GRAPH[name] if target in MODULES}
    assert not {target for target in ours if not is_pure(target)}, name
    assert not GRAPH[name] & IO_LIBRARIES, name


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("recorder.rules")))
def test_rules_use_the_standard_library_only(name):
    libraries = {target for target in GRAPH[name] if target not in MODULES}
    assert libraries <= RULES_MAY_IMPORT, (name, libraries - RULES_MAY_IMPORT)


@pytest.mark.parametrize("package", [*PURE_PACKAGES, "recorder"])
def test_pure_packages_load_no_io_library_in_a_fresh_interpreter(package):
    probe = (
        f"import sys, {package}\n"
        "loaded = {'flask', 'click', 'sqlite3', 'sqlite_utils', 'marshmallow'} & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "[]", (package, result.stdout)


def test_only_the_store_touches_sqlite():
    for name, libraries in GRAPH.items():
        if name.startswith("recorder.store"):
            continue
        assert not libraries & STORE_LIBRARIES, name


def test_only_the_api_cli_web_and_app_factory_touch_flask():
    allowed = ("recorder.api", "recorder.web", "recorder.cli", "recorder.app")
    for name, libraries in GRAPH.items():
        if not name.startswith(allowed):
            assert not libraries & {"flask", "werkzeug"}, name


def test_marshmallow_lives_in_schemas_and_the_api_that_uses_them():
    for name, libraries in GRAPH.items():
        if not name.startswith(("schemas", "recorder.api", "recorder.cli")):
            assert "marshmallow" not in libraries, name

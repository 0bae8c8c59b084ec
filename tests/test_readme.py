"""The README's commands work as written in a fresh shell after its set-up.

The set-up installs ``recorder`` into ``.venv/bin`` and never activates the virtualenv,
so a bare ``recorder …`` is "command not found": every command must say
``.venv/bin/recorder``, and every sub-command it names must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
from click.testing import CliRunner

from recorder.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
PROGRAMS = ("recorder", "gunicorn", "pytest", "pip")
CODE = re.compile(r"```(?P<language>[a-z]*)\n(?P<block>.*?)```|`(?P<span>[^`\n]+)`", re.S)


def _code_lines() -> list[str]:
    """Every line of a shell code block and every inline code span: what a reader types
    (a Python block, such as the front door's example, is code, not a command)."""
    lines: list[str] = []
    for match in CODE.finditer(README.read_text()):
        if match.group("language") == "python":
            continue
        lines.extend((match.group("block") or match.group("span")).splitlines())
    return lines


def _commands(name: str) -> list[tuple[str, str]]:
    """(the path before the program, the words after it) for each use of the program."""
    found = []
    for line in _code_lines():
        words = line.split("#")[0].replace("$(", " ").replace("|", " ").split()
        for i, word in enumerate(words):
            if word.rpartition("/")[2] == name and (i == 0 or words[i - 1] not in ("from", "import")):
                found.append((word[: -len(name)], " ".join(words[i + 1 :])))
    return found


def test_readme_runs_every_installed_command_from_the_virtualenv():
    for name in PROGRAMS:
        found = _commands(name)
        assert found, name
        bare = [f"{path}{name} {rest}" for path, rest in found if path != ".venv/bin/"]
        assert bare == [], f"not on the PATH after the set-up: {bare}"


def test_readme_keeps_its_two_set_up_commands():
    text = README.read_text()
    serve = ".venv/bin/recorder serve --host 127.0.0.1 --port 5000"
    assert f"python3 -m venv .venv && .venv/bin/pip install -q -e . && {serve}" in text
    assert "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest" in text


def test_readme_names_only_sub_commands_that_exist():
    runner = CliRunner()
    for _, rest in _commands("recorder"):
        words = rest.split()
        command: click.Command = main
        path = []
        while words and isinstance(command, click.Group) and words[0] in command.commands:
            path.append(words.pop(0))
            command = command.commands[path[-1]]
        assert path or not rest, f"no such command: recorder {rest}"
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)

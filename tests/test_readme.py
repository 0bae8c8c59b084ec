"""The README's commands work as written in a fresh shell after its set-up.

The set-up installs ``recorder`` into ``.venv/bin`` and never activates the virtualenv,
so a bare ``recorder …`` is "command not found": every command must say
``.venv/bin/recorder``, and every sub-command it names must exist.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from pg_server import free_port

from recorder.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
FIXTURES = README.parent / "fixtures"
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


# --------------------------------------------------------------------------- the tour, live

SHELL_BLOCK = re.compile(r"```sh\n(?P<block>.*?)```", re.S)
# What the reader fills in: the ids and the arbiter token earlier answers gave.
PLACEHOLDERS = {"GAME": "game", "GABATA": "gabata", "T": "tournament"}
SUBSTITUTED = re.compile(r"(?<=/)(GAME|GABATA|T)(?=[/\s'?]|$)")
# Prints each answer's status on a line of its own after the body, without changing a line.
STATUS_SHIM = "curl() { command curl -w '\\n%{http_code}\\n' \"$@\"; }\n"


def _shell_commands() -> list[str]:
    """Each command of the README's shell blocks, as the shell reads it: lines joined by a
    trailing backslash or by a quote still open."""
    commands = []
    for match in SHELL_BLOCK.finditer(README.read_text()):
        pending = ""
        for line in match.group("block").splitlines():
            pending += line + "\n"
            try:
                shlex.split(pending, comments=True)
            except ValueError:  # a quotation still open
                continue
            if not line.rstrip().endswith("\\"):
                commands.append(pending.strip())
                pending = ""
    return commands


def _tour() -> list[str]:
    """The curl lines and the shell variables they use, in the README's order."""
    return [c for c in _shell_commands() if c.startswith(("curl ", "A="))]


@pytest.fixture
def served_as_the_readme_says(tmp_path):
    """``.venv/bin/recorder serve --host 127.0.0.1 --port P`` in a fresh folder, with no
    RECORDER_DB nor admin token set: the set-up's first start."""
    port = free_port()
    serve = next(c for c in _shell_commands() if ".venv/bin/recorder serve --host" in c).partition("&& ")[2]
    words = shlex.split(serve.rpartition("&& ")[2].replace("5000", str(port)))
    assert words[0] == ".venv/bin/recorder"
    hidden = ("RECORDER_DB", "RECORDER_ADMIN_TOKEN", "RECORDER_OPEN")
    env = {key: value for key, value in os.environ.items() if key not in hidden}
    with (tmp_path / "serve.out").open("w") as output:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("recorder")), *words[1:]],
            cwd=tmp_path,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            _wait_for(process, port, tmp_path / "serve.out")
            yield tmp_path, port
        finally:
            process.terminate()
            process.wait(timeout=10)


def _wait_for(process: subprocess.Popen, port: int, output: Path, seconds: float = 300.0) -> None:
    """Until the server answers. On a fresh machine this start is the venv's first, which
    compiles the rules engine first (recorder/engine/auto.py), so the wait is long; a
    server that ends or never answers fails the test with what it printed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=2):
                return
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"recorder serve ended ({process.returncode}) before answering:\n{output.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"recorder serve did not answer in {seconds:.0f} s:\n{output.read_text()}")
            time.sleep(0.1)


def test_readme_tour_runs_every_curl_line_as_written_against_a_live_server(served_as_the_readme_says):
    folder, port = served_as_the_readme_says
    shutil.copy(FIXTURES / "notation" / "mixed-archive.mn", folder / "games.mn")  # the file the import line sends
    found: dict[str, str] = {}
    variables = ""
    ran = 0
    for command in _tour():
        if command.startswith("A="):
            variables += command + "\n"
            continue
        line = SUBSTITUTED.sub(lambda m: found[PLACEHOLDERS[m.group()]], command)
        line = line.replace("ARBITER_TOKEN", found.get("arbiter", "ARBITER_TOKEN"))
        line = line.replace("localhost:5000", f"127.0.0.1:{port}")
        script = f"set -e\n{STATUS_SHIM}{variables}{line}\n"
        result = subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True, timeout=60)
        body, _, status = result.stdout.rstrip("\n").rpartition("\n")
        answered = status.isdigit() and int(status) < 400
        assert result.returncode == 0 and answered, (command, result.stdout, result.stderr)
        _remember(found, command, body)
        ran += 1
    assert ran == len([c for c in _tour() if c.startswith("curl ")]) >= 15


def _remember(found: dict[str, str], command: str, body: str) -> None:
    """The ids (and the arbiter's token) later lines use, from the answers that give them."""
    address = next(word for word in shlex.split(command, comments=True) if "localhost:5000/" in word)
    path = address.partition("localhost:5000")[2]
    if path not in ("/api/tournaments/T/tokens", "/api/tournaments", "/api/games"):
        return
    answer = json.loads(body)
    if path == "/api/tournaments/T/tokens":
        found["arbiter"] = answer["token"]
    elif path == "/api/tournaments":
        found["tournament"] = answer["id"]
    elif path == "/api/games":
        found["gabata" if answer["variant"] == "gabata" else "game"] = answer["id"]


def test_readme_says_serve_keeps_its_terminal_and_the_tour_runs_in_a_second():
    set_up = README.read_text().partition("## A short tour of the API")[0]
    assert "`serve` keeps the terminal" in set_up and "in a second terminal, in the same folder" in set_up

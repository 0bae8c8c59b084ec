"""When Chromium is missing the browser tests skip, and the run ends by saying so: what was
skipped, why, and the one command that installs it (tests/conftest.py's terminal summary)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINE = "SKIPPED the browser tests (tests/test_web_browser.py)"


def _pytest(*arguments: str, chromium: str | None = None) -> list[str]:
    env = {**os.environ, "RECORDER_TEST_CHROMIUM": chromium} if chromium else dict(os.environ)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result.stdout.splitlines()


def test_a_run_without_chromium_ends_with_the_line_that_names_the_skip_and_the_install(tmp_path):
    lines = _pytest("tests/test_web_browser.py", chromium=str(tmp_path / "no-chromium"))
    assert lines[-1].startswith("1 skipped")
    ours = [line for line in lines if line.startswith(LINE)]
    assert ours == [
        f"{LINE}: Chromium is not installed at {tmp_path / 'no-chromium'}; install it with: apt-get install chromium"
    ]
    assert lines.index(ours[0]) == len(lines) - 2  # just above the counts


def test_a_run_with_nothing_skipped_says_nothing_about_browsers():
    lines = _pytest("tests/test_readme.py")
    assert not any(line.startswith(LINE) for line in lines) and "passed" in lines[-1]

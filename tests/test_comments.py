"""Comments say why, not how fast (docs/decisions.md holds the figures).

A comment or docstring of the code outside the bench may not carry a timing: a duration
("4.6 µs", "1.2 s"), a rate ("88,900 events/s") or a speed-up ("three times faster", "a
fifth of the cost"). Such a figure is true of one machine on one day; the code says why
it is as it is, and the decision beside its figure lives in docs/decisions.md. A figure
that states a configured value (a timeout, an interval the code sets) is allowed, each
one by name below with its reason.
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_NUMBER = r"\d[\d,]*(?:\.\d+)?(?:\s*[-–]\s*\d[\d,]*(?:\.\d+)?)?"
_UNIT = r"(?:µs|us|ns|ms|s|secs?|seconds?|minutes?|min|hours?|h|[A-Za-z]+/s)"
_TIMES = r"(?:two|three|four|five|ten|several|\d+) times"
_HOW_MANY_TIMES = rf"(?:half|halves|a third|a quarter|a fifth|a tenth|twice|{_TIMES})"
TIMING = re.compile(
    rf"(?<![\w.]){_NUMBER}\s*{_UNIT}(?![\w/])"  # a duration or a rate
    rf"|{_NUMBER}\s*(?:x|×|%)\s*(?:faster|slower|quicker)"  # a measured speed-up
    rf"|\b{_HOW_MANY_TIMES}(?: [\w'-]+){{0,4}}? (?:cost|costs|time|fast|faster|slower|quicker)\b",
)

# Figures that state a configured value, not a measurement: (file, figure) -> why it stays.
CONFIGURED = {
    ("recorder/api/live.py", "0.1 s"): "LIVE_POLL_SECONDS, the interval the module sets",
    ("recorder/api/live.py", "300 s"): "LIVE_MAX_SECONDS, a stream's configured length",
    ("recorder/gunicorn_conf.py", "30 s"): "the worker timeout the file sets",
    ("recorder/gunicorn_conf.py", "1 ms"): "the GIL switch interval the file sets",
    ("recorder/gunicorn_conf.py", "5 ms"): "Python's default switch interval, which the file replaces",
    ("recorder/store/postgres.py", "30 s"): "the connection pool's timeout",
    ("recorder/store/sqlite.py", "10 s"): "the busy_timeout the store sets",
    ("recorder/store/writer_lock.py", "10 s"): "WAIT_SECONDS, the same as SQLite's busy timeout",
    ("recorder/store/writer_lock.py", "2 ms"): "the longest pause between two tries of the lock",
}


def sources() -> list[Path]:
    """The code whose comments are held: the package but its bench, the schemas, wsgi.py."""
    package = [p for p in (ROOT / "recorder").rglob("*.py") if "bench" not in p.relative_to(ROOT).parts]
    return sorted([*package, *(ROOT / "schemas").rglob("*.py"), ROOT / "wsgi.py"])


def commentary(source: str) -> list[tuple[int, str]]:
    """Each comment and docstring (a string standing alone as a statement), by its first line."""
    found, previous = [], tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
        elif token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            found.append((token.start[0], token.string))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return found


def timings(path: Path) -> list[str]:
    """``file:line: figure`` for each timing in the file's comments and docstrings that is
    not a configured value named in CONFIGURED."""
    name = path.relative_to(ROOT).as_posix()
    found = []
    for line, text in commentary(path.read_text(encoding="utf-8")):
        for match in TIMING.finditer(text):
            figure = " ".join(match.group(0).split())
            if (name, figure) not in CONFIGURED:
                found.append(f"{name}:{line + text.count(chr(10), 0, match.start())}: {figure}")
    return found


@pytest.mark.parametrize(
    "text",
    [
        "# took 4.6 µs with it, 3.3 µs without",
        "# 3,000 games' events took 9.0-11.5 µs per event",
        '"""a DISTINCT read every key (1.2 s for 2.6 M events, against 0.2 s)"""',
        "# verified at 88,900 events/s",
        "# 2.6 ms a task",
        '"""``json.loads(text)``, three times faster for canonical text"""',
        "# indexes them at a fifth of the cost of rows of texts",
        "# asdict's deep copy was a quarter of a what-if replay's time",
        "# this halves the time spent in commits",
        "# 20 % faster than before",
        "# twice as fast",
    ],
)
def test_a_timing_in_a_comment_or_docstring_is_found(text):
    assert [figure for _, comment in commentary(text + "\n") for figure in TIMING.findall(comment)]


@pytest.mark.parametrize(
    "text",
    [
        "# GEN-3: a1..f3 on the 3×6 board",
        "# 6 seeds move, 12 holes, 2 players",
        "# level M (15 % of the code may be damaged)",
        "# half-points: the maximum is 2 (r - 1)",
        "# no line is looked at twice",
        "# a retraction costs O(moves)",
        '"""Whole seconds the public waits for a move: 0 (none) to a day (86,400)."""',
        'x = "1.2 s"  # a value, not a comment',
    ],
)
def test_a_comment_without_a_timing_is_not_flagged(text):
    assert not [figure for _, comment in commentary(text + "\n") for figure in TIMING.findall(comment)]


def test_comments_and_docstrings_outside_the_bench_carry_no_timings():
    found = [hit for path in sources() for hit in timings(path)]
    assert not found, (
        "timings in comments or docstrings (say why instead; the figure goes in docs/decisions.md):\n"
        + "\n".join(found)
    )

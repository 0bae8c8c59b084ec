"""Complete or visibly incomplete: an export's first and last lines (docs/notation.md).

An export is framed: a first line says it is an archive, a last line (the terminator)
says what it holds. A notation export is framed by two remarks, which any notation
reader ignores::

    ; mancala-recorder archive
    ...the games, exactly as before...

    ; end of archive: 3 games

An NDJSON export by two JSON lines that are not events::

    {"archive":"mancala-recorder"}
    ...one event per line...
    {"end_of_archive":{"events":372,"games":3}}

Every line, the terminator's included, ends with a newline. An importer that finds the
first line requires the terminator, and the counts it states, before it stores
anything: an archive cut at any byte is refused, naming why. A text without the first
line is a hand-written file (or an export of an older release) and is read as before.
Pure: no I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from recorder.core.chain import canonical_json
from recorder.errors import NotationError

NOTATION_HEADER = "; mancala-recorder archive\n"
NDJSON_HEADER = canonical_json({"archive": "mancala-recorder"}) + "\n"
_NOTATION_END = re.compile(r"\n; end of archive: (?P<games>\d+) games?\n\Z")
_GAME_ID = re.compile(r'\{"game_id":("(?:[^"\\]|\\.)*")')


def notation_terminator(games: int) -> str:
    return f"; end of archive: {games} game{'s' * (games != 1)}\n"


def ndjson_terminator(games: int, events: int) -> str:
    return canonical_json({"end_of_archive": {"events": events, "games": games}}) + "\n"


def frame_notation(games: Iterable[str]) -> Iterator[str]:
    """The header, each game's chunk (as ``write_archive`` gives them), the terminator."""
    yield NOTATION_HEADER
    count = 0
    for count, chunk in enumerate(games, start=1):  # noqa: B007 (the count is the point)
        yield chunk
    yield ("\n" if count else "") + notation_terminator(count)


def _cut(source: str, detail: str) -> NotationError:
    return NotationError(f"{source}: {detail}; nothing was imported", source=source, expected="a complete archive")


def check_notation(text: str, source: str, games: int) -> None:
    """Refuse a framed notation text without its terminator, or whose terminator states
    another number of games than the ``games`` the parser found (the frame's two lines
    are remarks, so the parser reads the whole text, line numbers unchanged)."""
    text = text.removeprefix("\ufeff")
    if text and NOTATION_HEADER.startswith(text):
        raise _cut(source, "the archive is cut short inside its first line")
    if not text.startswith(NOTATION_HEADER):
        return
    end = _NOTATION_END.search(text)
    if end is None:
        raise _cut(source, "the archive is cut short: it does not end with its '; end of archive: N games' line")
    stated = int(end.group("games"))
    if stated != games:
        raise _cut(source, f"the archive's last line states {stated} games, it holds {games}")


def ndjson_lines(text: str, source: str) -> list[str]:
    """The lines of an NDJSON text, after checking its frame if it has one (the frame's
    lines are blanked, so line numbers stay those of the file).

    Lines are split at ``\n`` only: a name may hold U+2028, U+2029 or U+0085, which
    ``str.splitlines`` would split and JSON writes raw.
    """
    lines = text.split("\n")
    framed, _ = check_ndjson_frame(lines, source)
    return ["", *lines[1:-2], ""] if framed else lines


def check_ndjson_frame(lines: Iterable[str], source: str) -> tuple[bool, int]:
    """Whether an NDJSON text is framed, and how many events (non-blank lines between the
    frame's two) it holds; NotationError when it is framed and cut short. ``lines`` are
    the text's lines as ``text.split("\n")`` gives them, read once and never all held:
    a file of any size is checked a line at a time (``recorder import``)."""
    lines = iter(lines)
    first = next(lines, "")
    if first != NDJSON_HEADER[:-1]:
        if first and NDJSON_HEADER.startswith(first) and next(lines, None) is None:
            raise _cut(source, "the archive is cut short inside its first line")
        return False, (1 if first.strip() else 0) + sum(1 for line in lines if line.strip())
    tail: list[str] = []  # the last two lines read: a line that leaves it is one of the body's
    body = _Counts()
    for line in lines:
        tail.append(line)
        if len(tail) > 2:
            body.add(tail.pop(0))
    if not tail or tail == [""]:
        raise _cut(source, "the archive is cut short inside its first line")
    if len(tail) < 2 or tail[-1] != "":
        raise _cut(source, "the archive is cut short: its last line is missing or incomplete")
    stated = _stated_counts(tail[0])
    if stated is None:
        raise _cut(source, "the archive is cut short: it does not end with its end_of_archive line")
    if stated != (body.games, body.events):
        raise _cut(
            source,
            f"the archive's last line states {stated[0]} games and {stated[1]} events,"
            f" it holds {body.games} and {body.events}",
        )
    return True, body.events


def without_frame(lines: Iterable[str], framed: bool) -> Iterator[str]:
    """The lines of a text ``check_ndjson_frame`` passed, one at a time, with the frame's
    two lines blanked (so line numbers stay those of the file)."""
    if not framed:
        yield from lines
        return
    lines = iter(lines)
    next(lines)
    yield ""
    tail: list[str] = []
    for line in lines:
        tail.append(line)
        if len(tail) > 2:
            yield tail.pop(0)
    yield ""  # the terminator


def _stated_counts(line: str) -> tuple[int, int] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or set(record) != {"end_of_archive"}:
        return None
    counts = record["end_of_archive"]
    if not isinstance(counts, dict) or set(counts) != {"games", "events"}:
        return None
    if not all(type(counts[k]) is int for k in counts):
        return None
    return counts["games"], counts["events"]


class _Counts:
    """(games, events) of a body read a line at a time: events are the non-blank lines,
    games the runs of one game id (a canonical line starts with its game id, so no line
    need be decoded)."""

    def __init__(self) -> None:
        self.games, self.events = 0, 0
        self.current: str | None = None

    def add(self, line: str) -> None:
        if not line.strip():
            return
        self.events += 1
        found = _GAME_ID.match(line)
        game_id = found.group(1) if found else self.current
        if game_id != self.current or self.games == 0:
            self.games += 1
            self.current = game_id

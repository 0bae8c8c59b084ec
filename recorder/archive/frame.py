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
    if text and NDJSON_HEADER.startswith(text):
        raise _cut(source, "the archive is cut short inside its first line")
    if not text.startswith(NDJSON_HEADER):
        return lines
    if len(lines) < 3 or lines[-1] != "":
        raise _cut(source, "the archive is cut short: its last line is missing or incomplete")
    stated = _stated_counts(lines[-2])
    if stated is None:
        raise _cut(source, "the archive is cut short: it does not end with its end_of_archive line")
    found = _counts(lines[1:-2])
    if stated != found:
        raise _cut(
            source,
            f"the archive's last line states {stated[0]} games and {stated[1]} events,"
            f" it holds {found[0]} and {found[1]}",
        )
    return ["", *lines[1:-2], ""]


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


def _counts(body: list[str]) -> tuple[int, int]:
    """(games, events): events are the non-blank lines, games the runs of one game id
    (a canonical line starts with its game id, so no line need be decoded)."""
    games, events, current = 0, 0, None
    for line in body:
        if not line.strip():
            continue
        events += 1
        found = _GAME_ID.match(line)
        game_id = found.group(1) if found else current
        if game_id != current or games == 0:
            games += 1
            current = game_id
    return games, events

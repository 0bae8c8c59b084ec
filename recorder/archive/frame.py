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

import itertools
import json
import re
from collections.abc import Iterable, Iterator

from recorder.core.chain import canonical_json
from recorder.errors import NotationError

NOTATION_HEADER = "; mancala-recorder archive\n"
NDJSON_HEADER = canonical_json({"archive": "mancala-recorder"}) + "\n"
_NOTATION_END = re.compile(r"\n; end of archive: (?P<games>[0-9]{1,18}) games?\n\Z")  # int() reads it


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
    ``str.splitlines`` would split and JSON writes raw. A byte order mark before the text
    (an editor's) is ignored, as the notation's reader ignores it (RFC 8259 allows it).
    """
    text = text.removeprefix("\ufeff")
    framed, _ = check_ndjson_frame([text], source)
    lines = text.split("\n")
    return ["", *lines[1:-2], ""] if framed else lines


def check_ndjson_frame(blocks: Iterable[str], source: str) -> tuple[bool, int]:
    """Whether an NDJSON text is framed, and how many events (non-blank lines between the
    frame's two) it holds; NotationError when it is framed and cut short. ``blocks`` are
    the text in consecutive pieces cut anywhere, read once and never all held: a file of
    any size is checked a block at a time (``recorder import``), and each block's lines are
    counted by the regular expression engine, not one by one in Python, since nothing of
    an import can start before this pass ends."""
    text = _Lines(blocks)
    first = text.first_line()
    if first != NDJSON_HEADER[:-1]:
        if first is None and text.rest and NDJSON_HEADER.startswith(text.rest):
            raise _cut(source, "the archive is cut short inside its first line")
        counts = text.count_rest()
        return False, (1 if first is not None and first.strip() else 0) + counts.events
    counts = text.count_rest()
    last, rest = text.last_line, text.rest
    if last is None and not rest:
        raise _cut(source, "the archive is cut short inside its first line")
    if last is None or rest != "":
        raise _cut(source, "the archive is cut short: its last line is missing or incomplete")
    stated = _stated_counts(last)
    if stated is None:
        raise _cut(source, "the archive is cut short: it does not end with its end_of_archive line")
    # The terminator is a non-blank line naming no game: it was counted as one event, and
    # as a game only when it was the first non-blank line after the header.
    events = counts.events - 1
    body = (counts.games if events else 0, events)
    if stated != body:
        raise _cut(
            source,
            f"the archive's last line states {stated[0]} games and {stated[1]} events,"
            f" it holds {body[0]} and {body[1]}",
        )
    return True, events


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


class _Lines:
    """A text given in blocks, read once: its first line, then the counts of the lines
    after it (``count_rest``), its last complete line and what follows the last newline.
    A line longer than a block is gathered in parts, so each character is copied a
    bounded number of times however long the line."""

    def __init__(self, blocks: Iterable[str]):
        self.blocks = iter(blocks)
        self.rest = ""  # the text after the last newline read so far
        self.last_line: str | None = None  # the last complete line after the first

    def first_line(self) -> str | None:
        """The text's first line, or None when the whole text holds no newline (then ``rest``)."""
        parts: list[str] = []
        for block in self.blocks:
            end = block.find("\n")
            if end >= 0:
                self.rest = block[end + 1 :]
                return "".join(parts) + block[:end]
            parts.append(block)
        self.rest = "".join(parts)
        return None

    def count_rest(self) -> _Counts:
        """The counts of every line after the first, the incomplete last one included."""
        counts, parts = _Counts(), list[str]()
        for block in itertools.chain([self.rest], self.blocks):
            end = block.rfind("\n") + 1
            if not end:
                parts.append(block)
                continue
            parts.append(block[:end])
            complete = "".join(parts)
            self.last_line = complete[complete.rfind("\n", 0, len(complete) - 1) + 1 : -1]
            counts.add_lines(complete)
            parts = [block[end:]]
        self.rest = "".join(parts)
        counts.add_lines(self.rest + "\n")
        return counts


# Each line's game id and each blank line, found by the regular expression engine in a
# run of lines with a newline put before it. Starting at a newline, the patterns let it
# skip to the next one at once instead of trying every character.
_LINE_GAME_ID = re.compile(r'\n\{"game_id":("[^"\\\n]*(?:\\.[^"\\\n]*)*")')  # '"(?:[^"\\]|\\.)*"', unrolled
_BLANK_LINE = re.compile(r"\n[^\S\n]*(?=\n)")  # nothing but whitespace, as str.strip() sees it


class _Counts:
    """(games, events) of a body read in runs of whole lines: events are the non-blank
    lines, games the runs of one game id (a canonical line starts with its game id, so no
    line need be decoded). A non-blank line naming no game belongs to the game before it,
    or is the first game's when it comes first."""

    def __init__(self) -> None:
        self.games, self.events = 0, 0
        self.current: str | None = None

    def add_lines(self, text: str) -> None:
        """Count ``text``, whole lines each ending with a newline."""
        lines = "\n" + text
        count, ids = text.count("\n"), _LINE_GAME_ID.findall(lines)
        events = (
            count if len(ids) == count else count - len(_BLANK_LINE.findall(lines))
        )  # each line a game's: none blank
        if not events:
            return
        if not self.events and not _LINE_GAME_ID.match("\n" + _first_non_blank(text)):
            self.games = 1  # a first line naming no game starts the first game
        if ids:
            runs = sum(1 for _ in itertools.groupby(ids))
            self.games += runs - (ids[0] == self.current)
            self.current = ids[-1]
        self.events += events


def _first_non_blank(text: str) -> str:
    return next(line for line in text.split("\n") if line.strip())

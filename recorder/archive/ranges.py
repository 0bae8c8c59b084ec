"""An NDJSON file cut into ranges of whole games, which import workers read themselves.

``recorder import`` hands each worker a range of the file's bytes (recorder/archive/parallel.py)
instead of reading and grouping every line in its own process and sending the lines over:
the workers share the reading, and the command's process, which feeds them, never falls
behind. A range starts at the first line of a game and ends before the first line of
another, so its lines make the same logs ``ndjson.read_logs`` makes of the whole file, given
the number of its first line and the index of its first game.

That holds for a **plain** body: every line an event line as an export writes it (beginning
``{"game_id":"<id>"``, the id without escapes) or white space alone, and no carriage return
(which reading the file as text would take for a line's end). Grouping such lines is
comparing the ids at their starts, which is done here a range at a time by the regular
expression engine. From the first range that is not plain to the end of the file, the
import reads and groups the lines in its own process, as always (``Rest``). Pure: bytes
in, ranges out.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

_MARKER = b'\n{"game_id":"'  # a line's start, after the newline before it
_ID_LINE = re.compile(rb'\n\{"game_id":"([^"\\\n]+)"')
_BLANK_LINE = re.compile(rb"\n[ \t\x0b\x0c]*(?=\n)")  # ASCII white space alone (str.strip takes more: not plain)
RANGE_BYTES = 1 << 20  # about 3,000 events of an export


@dataclass(frozen=True)
class FileRange:
    """Whole games of a file: its bytes from ``start`` to ``end``, the number of their first
    line (the file's first line is 1), the index of their first game (the file's first game
    is 1), and how many events (non-blank lines) they hold."""

    path: str
    start: int
    end: int
    first_line: int
    first_game: int
    events: int


@dataclass(frozen=True)
class Rest:
    """The part of a file from the first range that is not plain to its end (at ``start``,
    where line ``first_line`` and game ``first_game`` begin): read and grouped line by line."""

    start: int
    first_line: int
    first_game: int


def plain_ranges(
    path: str, blocks: Iterable[bytes], start: int, first_line: int, range_bytes: int | None = None
) -> Iterator[FileRange | Rest]:
    """The body of the file at ``path``, given as ``blocks``: consecutive bytes from offset
    ``start``, where line ``first_line`` begins, to the body's end. Ranges of whole games of
    about ``range_bytes`` (``RANGE_BYTES``), as long as they are plain; then, if a range is
    not, the ``Rest`` from its start (and nothing more is read)."""
    cut = _Ranges(path, first_line, range_bytes or RANGE_BYTES)
    try:
        yield from cut.of(blocks, start)
    except _NotPlain as rest:
        yield Rest(rest.start, cut.line, cut.game)


class _NotPlain(Exception):
    def __init__(self, start: int):
        super().__init__(start)
        self.start = start


class _Ranges:
    """Cuts at the start of the last game a run of about ``range_bytes`` begins (the rest
    goes on into the next range), counting lines and games as it goes."""

    def __init__(self, path: str, first_line: int, range_bytes: int):
        self.path, self.range_bytes = path, range_bytes
        self.line, self.game = first_line, 1

    def of(self, blocks: Iterable[bytes], start: int) -> Iterator[FileRange]:
        pending = bytearray()
        run = _Run(0, None)  # what is known of pending's first lines, so no line is looked at twice
        for block in blocks:
            pending += block
            if len(pending) < self.range_bytes:
                continue
            cut, run = _last_game_start(pending, pending.rfind(b"\n") + 1, run)
            if cut:
                yield self._range(start, bytes(pending[:cut]))
                del pending[:cut]
                start += cut
        if pending:
            yield self._range(start, bytes(pending))

    def _range(self, start: int, text: bytes) -> FileRange:
        """The range of ``text``: whole lines, the body's last one maybe without its newline."""
        newlines = text.count(b"\n")
        whole = text.endswith(b"\n")
        lines = b"\n" + text + (b"" if whole else b"\n")
        ids = _ID_LINE.findall(lines)
        count = newlines + (not whole)
        if b"\r" in text or (len(ids) != count and len(ids) + len(_BLANK_LINE.findall(lines)) != count):
            raise _NotPlain(start)  # (every line a game's, none blank: no need to look for blank ones)
        found = FileRange(self.path, start, start + len(text), self.line, self.game, len(ids))
        self.line += newlines
        self.game += sum(1 for _ in itertools.groupby(ids))
        return found


@dataclass(frozen=True)
class _Run:
    """The first ``end`` bytes of the pending text are whole lines, and every one of them
    that names a game names ``game`` (None: no line names one)."""

    end: int
    game: bytes | None


def _last_game_start(text: bytearray, end: int, known: _Run) -> tuple[int, _Run]:
    """Where the last game of ``text[:end]`` (whole lines) begins: the offset of the first
    line of the last run of lines naming one game, 0 when they all name it (or none does);
    and what is then known of the text left after the cut. Only the lines after
    ``known.end`` are looked at: a game longer than many blocks is read once, not once a
    block."""
    first = _last_line_start(text, known.end, end)
    if first < 0:
        return 0, _Run(end, known.game)
    game = _id_at(text, first)
    while (before := _last_line_start(text, known.end, first)) >= 0:
        if _id_at(text, before) != game:
            return first, _Run(end - first, game)
        first = before
    if known.game is None or known.game == game:
        return 0, _Run(end, game)
    return first, _Run(end - first, game)


def _last_line_start(text: bytearray, low: int, high: int) -> int:
    """The offset of the last line beginning ``{"game_id":"`` at or after ``low`` and before
    ``high``; -1 if none."""
    # the marker is the newline before the line, then its start: a line at offset p has it at p - 1
    newline = text.rfind(_MARKER, max(low - 1, 0), high - 2 + len(_MARKER)) if high > 0 else -1
    if newline >= 0:
        return newline + 1
    return 0 if low == 0 and high > 0 and text.startswith(_MARKER[1:]) else -1


def _id_at(text: bytearray, line: int) -> bytes:
    start = line + len(_MARKER) - 1
    return bytes(text[start : text.find(b'"', start)])

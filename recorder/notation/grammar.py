"""The text notation for game records: its grammar, as a pure parser (docs/notation.md).

A file holds games; each game is PGN-style tag pairs, then movetext, then a result token::

    [South "Abeba"]
    [North "Berhane"]
    [Result "1-0"]
    [Variant "qelat"]
    [FirstPlayer "south"]

    1. S f1 2. N b2 3. S c1 {a good sowing} 4. N -- 5. S a1 ... 1-0

Turns are numbered (``12. S``) and followed by the holes sown in that turn, several for a
multi-sowing turn; ``--`` is a pass (checked, never recorded: GEN-20). Braces hold a
decision (``{race ...}``, ``{opening tuz}``, ``{lot south}``, ``{round 2 north}``,
``{result resignation south}``, ``{retract 1 "why"}``) or else a comment, which is an
annotation; ``;`` starts a remark that runs to the end of the line and is never recorded.

This module only reads syntax: ``parse(text)`` yields one ``ParsedGame`` per game, with a
``NotationError`` naming the file, game, line, column and what was expected when a game
does not parse. Whether the moves are legal is the reader's business (notation_reader).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from recorder.errors import NotationError
from recorder.rules.board import lowercase_hint
from recorder.rules.values import HOLE_NAMES

from .clock_text import CLOCK_FORM, CLOCK_OPENING, PAUSE_OPENING, RESUME_OPENING, STOP_FORM, time_ms
from .decisions import HOLE, Syntax, Word, decision

MEDIA_TYPE = "text/x-mancala-notation"
KEYWORDS = ("race", "opening", "lot", "round", "result", "retract")
RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", "*")
SIDES = {"S": "south", "N": "north"}

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_WORD = re.compile(r"[^\s\[\]{};]+")
_TURN = re.compile(r"(\d{1,9})\.")
_ITEM = re.compile(r'[^\s{}"]+')
_NOT_SPACE = re.compile(r"\S")  # white space is what str.isspace and str.strip take
_JSON = json.JSONDecoder()
# Why a string escaping half a surrogate pair is refused (here, and in an NDJSON log's events).
LONE_SURROGATE = "a lone surrogate (such as \\ud800) is not text UTF-8 can hold"


@dataclass(frozen=True)
class Token:
    """One element of movetext: ``turn`` (number, side), ``hole``, ``pass``, ``command``
    (a command dict, as recorded live), or ``result`` (the result token)."""

    kind: str
    value: Any
    line: int
    column: int
    round: int | None = None  # the round number a ``{round N ...}`` decision names
    clock: dict[str, int] | None = None  # the reading ``{[%clk ...]}`` after a sowing or decision (TIME-2)


@dataclass(frozen=True)
class Tag:
    name: str
    value: Any
    line: int
    column: int


@dataclass
class ParsedGame:
    index: int  # 1-based, in file order
    source: str
    tags: list[Tag] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    error: NotationError | None = None

    def tag(self, name: str) -> Tag | None:
        return next((tag for tag in self.tags if tag.name == name), None)

    def required_tag(self, name: str) -> Tag:
        """A tag the reader has already checked is present (REQUIRED_TAGS)."""
        tag = self.tag(name)
        if tag is None:
            raise KeyError(f"the {name} tag is missing")
        return tag

    def label(self) -> str:
        """How errors name the game: its index and players (and event, when known)."""
        names = {tag.name: tag.value for tag in self.tags if isinstance(tag.value, str)}
        label = f"game {self.index}"
        if "South" in names or "North" in names:
            label += f" ({names.get('South', '?')} v {names.get('North', '?')})"
        return label

    def fail(self, line: int, column: int, detail: str, expected: str | None = None) -> NotationError:
        where = f"{self.source}: {self.label()}: line {line}, column {column}: "
        return NotationError(
            where + detail,
            source=self.source,
            game=self.index,
            tags={t.name: t.value for t in self.tags if isinstance(t.value, str)},
            line=line,
            column=column,
            expected=expected,
        )


class _Text:
    """The text with offset -> (line, column) conversion."""

    def __init__(self, text: str):
        self.text = text.removeprefix("\ufeff")
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        self._close = (len(self.text) + 1, -1)  # (searched from, found): the last search for }

    def next_close(self, offset: int) -> int:
        """The first ``}`` at or after ``offset`` (-1: none), remembered: games that each
        open a comment and never close it would otherwise each search the rest of the text."""
        searched_from, found = self._close
        if not (searched_from <= offset and (found < 0 or found >= offset)):
            found = self.text.find("}", offset)
            self._close = (offset, found)
        return found

    def where(self, offset: int) -> tuple[int, int]:
        low, high = 0, len(self.line_starts) - 1
        while low < high:  # the last line start at or before offset
            middle = (low + high + 1) // 2
            if self.line_starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1, offset - self.line_starts[low] + 1

    def skip_space(self, offset: int) -> int:
        text = self.text
        while offset < len(text):
            if text[offset].isspace():
                offset += 1
            elif text[offset] == ";":  # a remark runs to the end of the line
                end = text.find("\n", offset)
                offset = len(text) if end < 0 else end + 1
            else:
                break
        return offset


def is_plain_comment(text: str) -> bool:
    """May ``text`` be written as ``{text}`` and read back unchanged? Otherwise it is
    written quoted, ``{"text"}``, with JSON string escapes."""
    if not text or text != text.strip() or text[0] == '"' or any(c in "{}\\" or c < " " for c in text):
        return False
    if text.startswith((CLOCK_OPENING, PAUSE_OPENING, RESUME_OPENING)):  # a reading's, a pause's, a resume's brace
        return False
    first = _WORD.match(text)
    return first is None or first.group() not in KEYWORDS


def quoted(text: str) -> str:
    """A JSON string: how tag values, notes and reasons are written."""
    return json.dumps(text, ensure_ascii=False)


def parse(text: str, source: str = "<text>") -> Iterator[ParsedGame]:
    """Every game in ``text``; a game that does not parse carries its error, and parsing
    resumes at the next line that starts with ``[`` (the next game's tags)."""
    doc = _Text(text)
    offset, index = doc.skip_space(0), 0
    while offset < len(doc.text):
        index += 1
        game, start = ParsedGame(index, source), offset
        try:
            offset = _parse_game(doc, offset, game)
        except Syntax as error:
            line, column = doc.where(error.offset)
            game.error = game.fail(line, column, error.detail, error.expected)
            offset = max(_resume(doc, error.offset), start + 1)  # always forward
        yield game
        offset = doc.skip_space(offset)


def _resume(doc: _Text, offset: int) -> int:
    """Where parsing resumes after an error: the next game's first tag, that is the next
    line starting with ``[`` that does not follow a tag line (so a bad tag does not make
    the rest of its own tag section look like another game). Each line from the error's
    on is looked at once, and nothing is copied: the cost is the lines skipped, so an
    import's broken games cost what they hold, not what follows them."""
    text, starts = doc.text, doc.line_starts
    if text.startswith("[", offset):  # the next game's tags came before a result token
        return offset
    line, _ = doc.where(offset)
    after_tag = text.startswith("[", _not_space(text, starts[line - 1], len(text)))
    for index in range(line, len(starts)):
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(text)
        first = _not_space(text, start, end)
        if first == end:
            continue
        if text.startswith("[", first) and not after_tag:
            return first
        after_tag = text.startswith("[", first)
    return len(text)


def _not_space(text: str, start: int, end: int) -> int:
    """The first character from ``start`` before ``end`` that is not white space (else ``end``)."""
    found = _NOT_SPACE.search(text, start, end)
    return end if found is None else found.start()


def _parse_game(doc: _Text, offset: int, game: ParsedGame) -> int:
    if doc.text[offset] != "[":
        raise Syntax(offset, "a game starts with its tags", 'a tag such as [Variant "qelat"]')
    names: set[str] = set()  # a set, not the list: a game may hold as many tags as its text
    while offset < len(doc.text) and doc.text[offset] == "[":
        tag, offset = _parse_tag(doc, offset)
        if tag.name in names:
            raise Syntax(offset - 1, f"the tag {tag.name} appears twice")
        names.add(tag.name)
        game.tags.append(tag)
        offset = doc.skip_space(offset)
    while True:
        if offset >= len(doc.text):
            raise Syntax(len(doc.text), "the game ends without a result token", "1-0, 0-1, 1/2-1/2 or *")
        token, offset = _parse_token(doc, offset)
        if _takes_a_reading(token):
            token, offset = _with_reading(doc, token, offset)
        game.tokens.append(token)
        if token.kind == "result":
            return offset
        offset = doc.skip_space(offset)


def _parse_tag(doc: _Text, offset: int) -> tuple[Tag, int]:
    line, column = doc.where(offset)
    match = _TAG_NAME.match(doc.text, offset + 1)
    if match is None:
        raise Syntax(offset + 1, "a tag needs a name", "a tag name such as Event")
    start = doc.skip_space(match.end())
    value, end = _json_value(
        doc, start, "a tag value: a quoted string (a number for Round and Board, a JSON object for Position)"
    )
    end = doc.skip_space(end)
    if doc.text[end : end + 1] != "]":
        raise Syntax(end, "a tag ends with ]", "]")
    return Tag(match.group(), value, line, column), end + 1


def _json_value(doc: _Text, offset: int, expected: str) -> tuple[Any, int]:
    if not doc.text[offset : offset + 1] or doc.text[offset] not in '"{0123456789':
        raise Syntax(offset, "expected a quoted string", expected)
    try:
        value, end = _JSON.raw_decode(doc.text, offset)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # a lone surrogate's escape reads, but is no UTF-8
    except UnicodeEncodeError:
        raise Syntax(offset, LONE_SURROGATE, expected) from None
    except ValueError as error:
        message = str(getattr(error, "msg", error)).removesuffix(" at")
        raise Syntax(getattr(error, "pos", offset), f"malformed JSON: {message}", expected) from None
    except RecursionError:
        raise Syntax(offset, "JSON nested too deeply", expected) from None
    return value, end


def _parse_token(doc: _Text, offset: int) -> tuple[Token, int]:
    line, column = doc.where(offset)
    char = doc.text[offset]
    if char == "{":
        return _parse_brace(doc, offset, line, column)
    if char == "[":
        raise Syntax(offset, "the next game's tags come before this game's result token", "1-0, 0-1, 1/2-1/2 or *")
    match = _WORD.match(doc.text, offset)
    if match is None:
        raise Syntax(offset, f"unexpected {char!r}", "a turn, a hole, a brace or a result")
    word, end = match.group(), match.end()
    if _TURN.fullmatch(word):
        return _parse_turn(doc, word, end, line, column)
    if HOLE.fullmatch(word):
        return Token("hole", word, line, column), end
    if word == "--":
        return Token("pass", None, line, column), end
    if word in RESULT_TOKENS:
        return Token("result", word, line, column), end
    hint = lowercase_hint(word, HOLE_NAMES)  # "F2": did you mean "f2"? (as the API says)
    raise Syntax(offset, f"unexpected {word!r}{hint}", "a turn number such as 12., a hole such as c1, -- or a result")


def _parse_turn(doc: _Text, word: str, end: int, line: int, column: int) -> tuple[Token, int]:
    side_at = doc.skip_space(end)
    match = _WORD.match(doc.text, side_at)
    if match is None or match.group() not in SIDES:
        raise Syntax(side_at, f"turn {word} needs its side", "S or N")
    return Token("turn", (int(word[:-1]), SIDES[match.group()]), line, column), match.end()


def _takes_a_reading(token: Token) -> bool:
    """A sowing or a decision: what a clock reading may follow (TIME-2)."""
    return token.kind == "hole" or (token.kind == "command" and token.value["type"] not in NO_READING_AFTER)


# The commands no ``{[%clk ...]}`` follows: no move, or a brace that holds its own reading.
NO_READING_AFTER = ("annotate", "retract", "pause_clocks", "resume_clocks")
# At most three words are taken (a pause holds two): a long brace is refused, not scanned word by word.
_STOP_BRACE = re.compile(r"\{\s*\[%(pause|resume)((?:\s+[^\s\]}]{1,40}){0,3})\s*\]\s*\}")


_CLOCK_BRACE = re.compile(r"\{\s*\[%clk\s+([^\s\]}]+)\s+([^\s\]}]+)\s*\]\s*\}")


def _is_clock_brace(doc: _Text, offset: int) -> bool:
    return doc.text.startswith("{", offset) and doc.text.startswith(CLOCK_OPENING, _blank(doc, offset + 1))


def _is_stop_brace(doc: _Text, offset: int) -> bool:
    return doc.text.startswith((PAUSE_OPENING, RESUME_OPENING), _blank(doc, offset + 1))


def _parse_stop(doc: _Text, offset: int, line: int, column: int) -> tuple[Token, int]:
    """``{[%pause H:MM:SS H:MM:SS]}`` or ``{[%resume]}`` (with a reading if it changed)."""
    match = _STOP_BRACE.match(doc.text, offset)
    words = match.group(2).split() if match is not None else []
    if match is None or len(words) not in ((2,) if match.group(1) == "pause" else (0, 2)):
        raise Syntax(offset, "a pause holds the two clocks' times, a resume none or both", STOP_FORM)
    command: dict[str, Any] = {"type": f"{match.group(1)}_clocks"}
    times = [_time_at(doc, match.start(2) + match.group(2).index(word), word) for word in words]
    if times:
        command["clock"] = {"south": times[0], "north": times[1]}
    return Token("command", command, line, column), match.end()


def _time_at(doc: _Text, offset: int, word: str) -> int:
    ms = time_ms(word)
    if ms is None:
        raise Syntax(offset, f"{word!r} is not a time", "H:MM:SS or H:MM:SS.mmm")
    return ms


def _with_reading(doc: _Text, token: Token, offset: int) -> tuple[Token, int]:
    """The token with the clock reading that follows it, if one does (``{[%clk ...]}``)."""
    start = doc.skip_space(offset)
    if not _is_clock_brace(doc, start):
        return token, offset
    match = _CLOCK_BRACE.match(doc.text, start)
    if match is None:
        raise Syntax(start, "a clock reading is two times in [%clk ...]", CLOCK_FORM)
    times = []
    for group in (1, 2):
        ms = time_ms(match.group(group))
        if ms is None:
            raise Syntax(match.start(group), f"{match.group(group)!r} is not a time", "H:MM:SS or H:MM:SS.mmm")
        times.append(ms)
    return replace(token, clock={"south": times[0], "north": times[1]}), match.end()


def _parse_brace(doc: _Text, offset: int, line: int, column: int) -> tuple[Token, int]:
    """A decision (first word a keyword), a quoted comment ``{"..."}`` or a plain comment."""
    if _is_clock_brace(doc, offset):
        raise Syntax(offset, "a clock reading follows the sowing or decision it was read after", "a hole or a decision")
    if _is_stop_brace(doc, offset):
        return _parse_stop(doc, offset, line, column)
    start = _blank(doc, offset + 1)
    word = _WORD.match(doc.text, start)
    if word is not None and word.group() in KEYWORDS:
        items, end = _brace_items(doc, word.end())
        command, round_number = decision(word.group(), items, word.start())
        return Token("command", command, line, column, round=round_number), end
    if doc.text[start : start + 1] == '"':
        text, after = _json_value(doc, start, "a quoted comment")
        close = _blank(doc, after)
        if doc.text[close : close + 1] != "}":
            raise Syntax(close, "a quoted comment ends with }", "}")
        return Token("command", {"type": "annotate", "text": text}, line, column), close + 1
    close = doc.next_close(offset)
    if close < 0:
        raise Syntax(offset, "the comment is never closed", "}")
    return Token("command", {"type": "annotate", "text": doc.text[offset + 1 : close].strip()}, line, column), close + 1


def _blank(doc: _Text, offset: int) -> int:
    while offset < len(doc.text) and doc.text[offset].isspace():
        offset += 1
    return offset


def _brace_items(doc: _Text, offset: int) -> tuple[list[tuple[int, Any]], int]:
    """The words and quoted strings of a decision, up to its closing brace."""
    items: list[tuple[int, Any]] = []
    while True:
        offset = _blank(doc, offset)
        char = doc.text[offset : offset + 1]
        if char == "}":
            return items, offset + 1
        if char == '"':
            value, offset = _json_value(doc, offset, "a quoted string")
            items.append((offset, value))
            continue
        match = _ITEM.match(doc.text, offset)
        if match is None:
            raise Syntax(offset, "the decision is never closed", "}")
        items.append((offset, Word(match.group())))
        offset = match.end()

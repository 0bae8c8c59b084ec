"""The arguments of the notation's decisions: ``{race ...}``, ``{round 2 north alloc ...}``,
``{result resignation south "note"}`` and the others (docs/notation.md). Pure.

``decision(keyword, items, at)`` reads the words and quoted strings of one brace into the
command live recording takes, and the round number a ``{round N ...}`` names; a
``Syntax`` error points at the offending item.
"""

from __future__ import annotations

import re
from typing import Any

from recorder.rules.values import OPENING_CHOICES, is_whole_number

HOLE = re.compile(r"[a-f][1-9]")
WINNER_WORDS = {"south": "south", "north": "north", "draw": None}


class Syntax(Exception):
    """A parse failure at an offset, turned into a NotationError by the parser."""

    def __init__(self, offset: int, detail: str, expected: str | None = None):
        super().__init__(detail)
        self.offset, self.detail, self.expected = offset, detail, expected


class Word(str):
    """A bare word inside a decision (as opposed to a quoted string)."""


class _Args:
    """The arguments of one decision, read left to right with precise errors."""

    def __init__(self, keyword: str, items: list, at: int):
        self.keyword, self.items, self.at, self.position = keyword, items, at, 0

    def _next(self, expected: str):
        if self.position >= len(self.items):
            raise Syntax(self.at, f"{{{self.keyword} ...}} is missing {expected}", expected)
        offset, value = self.items[self.position]
        self.position += 1
        return offset, value

    def word(self, expected: str, choices=None) -> str:
        offset, value = self._next(expected)
        if not isinstance(value, Word) or (choices is not None and value not in choices):
            raise Syntax(offset, f"{{{self.keyword} ...}} expected {expected}, found {value!r}", expected)
        return str(value)

    def number(self, expected: str) -> int:
        offset, value = self._next(expected)
        if not isinstance(value, Word) or not is_whole_number(value, 9):
            raise Syntax(offset, f"{{{self.keyword} ...}} expected {expected}, found {value!r}", expected)
        return int(value)

    def string(self, expected: str, optional: bool = False) -> str | None:
        if optional and self.position >= len(self.items):
            return None
        offset, value = self._next(expected)
        if isinstance(value, Word) or not isinstance(value, str):
            raise Syntax(offset, f"{{{self.keyword} ...}} expected {expected}, found {value!r}", expected)
        return value

    def remaining(self) -> list:
        rest = self.items[self.position :]
        self.position = len(self.items)
        return rest

    def finish(self) -> None:
        if self.position < len(self.items):
            offset, value = self.items[self.position]
            raise Syntax(offset, f"{{{self.keyword} ...}} does not take {value!r}", "}")


def _player_word(args: _Args, expected: str = "south or north") -> str:
    return args.word(expected, ("south", "north"))


def _race(args: _Args):
    winner, holes = _player_word(args, "the winner: south or north"), {}
    for offset, item in args.remaining():
        hole, _, count = str(item).partition("=")
        if not isinstance(item, Word) or not HOLE.fullmatch(hole) or not is_whole_number(count, 9):
            raise Syntax(offset, f"{{race ...}} expected hole=count, found {item!r}", "hole=count such as a1=3")
        if hole in holes:
            raise Syntax(offset, f"{{race ...}} names {hole} twice", "each hole once")
        holes[hole] = int(count)
    return {"type": "race", "winner": winner, "holes": holes}, None


def _opening(args: _Args):
    return {"type": "opening", "choice": args.word(" or ".join(OPENING_CHOICES), OPENING_CHOICES)}, None


def _lot(args: _Args):
    return {"type": "lot", "winner": _player_word(args, "the winner: south or north")}, None


def _round(args: _Args):
    number = args.number("the round number")
    command: dict[str, Any] = {
        "type": "next_round",
        "first_player": _player_word(args, "the first player: south or north"),
    }
    if args.position < len(args.items):
        args.word("alloc", ("alloc",))
        allocation = {}
        for offset, item in args.remaining():
            side, equals, holes = str(item).partition("=")
            if not isinstance(item, Word) or not equals or side not in ("south", "north") or side in allocation:
                raise Syntax(
                    offset, f"{{round ...}} expected south=... and north=..., found {item!r}", "south=a1,b1,..."
                )
            allocation[side] = holes.split(",") if holes else []
        if set(allocation) != {"south", "north"}:
            raise Syntax(args.at, "an allocation names the holes of both south and north", "south=... north=...")
        command["allocation"] = {"south": allocation["south"], "north": allocation["north"]}
    return command, number


def _result(args: _Args):
    kind = args.word("resignation, agreement, adjudication, forfeit or time")
    winner = args.word("the winner: south, north or draw", tuple(WINNER_WORDS))
    command = {"type": "result", "kind": kind, "winner": WINNER_WORDS[winner]}
    note = args.string("a quoted note", optional=True)
    if note is not None:
        command["note"] = note
    return command, None


def _retract(args: _Args):
    count = args.number("how many moves are retracted")
    return {"type": "retract", "count": count, "reason": args.string("a quoted reason")}, None


DECISIONS = {"race": _race, "opening": _opening, "lot": _lot, "round": _round, "result": _result, "retract": _retract}


def decision(keyword: str, items: list, at: int) -> tuple[dict, int | None]:
    """The command a decision records, and the round number it names (``{round N ...}``)."""
    args = _Args(keyword, items, at)
    command, round_number = DECISIONS[keyword](args)
    args.finish()
    return command, round_number

"""Players' names as people read and search them: blank or not, the key a search matches,
and how wide a name is drawn in a terminal's columns (Ge'ez script included).

One place for each, so the API, the games list, the command line and the tournament
tables agree on what "the same name" and "the width of a name" are.
"""

from __future__ import annotations

import unicodedata


def is_blank(name: str) -> bool:
    """Nothing but whitespace (or nothing): no name, though it is a string."""
    return not name.strip()


def player_key(name: str) -> str:
    """What a search by player matches: the name case-folded, its whitespace trimmed and
    runs of it made one space ("  SELAM   Tesfay " finds "Selam Tesfay")."""
    return " ".join(name.split()).casefold()


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: a wide or full-width character takes two,
    a combining mark or a zero-width character none (UAX #11; Ge'ez syllables are one
    column each, which a font draws wider than Latin but a terminal's grid does not)."""
    return sum(_char_width(char) for char in text)


def _char_width(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` display columns (``ljust``/``rjust`` count
    characters, which puts the columns after a name with combining marks out of line)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill

"""Players' names as people read and search them: what a name may hold, blank or not, the
key a search matches, how wide a name is drawn in a terminal's columns (Ge'ez script
included), and stored text made safe to print on one line.

One place for each, so the API, the imports, the command line and the tournament tables
agree on what a name is, what "the same name" and "the width of a name" are.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 200  # characters: longer than any person's, club's or tournament's name

# Characters that do not show as themselves, so no name may hold one: controls (Cc: NUL,
# BEL, ESC, the C1 controls), format characters (Cf: bidi overrides, embeddings, isolates
# and marks, zero-width spaces and joiners, the word joiner, the byte order mark, the soft
# hyphen), lone surrogates, private-use and unassigned code points, and the line and
# paragraph separators. "Abeba\u202eeyafseT" shows as "AbebaTesfaye". Letters, marks,
# digits, punctuation and spaces of every script stay names (Ge'ez included).
HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that does not show as itself (None: there is none)."""
    return next((char for char in text if unicodedata.category(char) in HIDDEN), None)


def code_point(char: str) -> str:
    """A character as people can read it whatever it is: ``U+202E (RIGHT-TO-LEFT OVERRIDE)``."""
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})"


def name_problem(value: object) -> str | None:
    """Why ``value`` cannot be a name (None when it can): the one rule for every name a
    person gives (players, clubs, tournaments, events, sites, game sides), at every way in
    (the API, the command line, imports of notation, NDJSON and TRF). Names are kept as
    sent, not normalised: an import keeps the text its hashes and content id cover."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME:
        return f"a name is 1 to {MAX_NAME} characters"
    return shown_problem(value)


def shown_problem(name: str) -> str | None:
    """Why ``name`` would not show as what it is (None when it would): a character that
    does not show as itself, or nothing but spaces."""
    hidden = hidden_character(name)
    if hidden is not None:
        return (
            f"{code_point(hidden)} does not show as itself: a name holds no control characters, "
            "no bidi, zero-width or separator characters, no private-use or unassigned ones"
        )
    if is_blank(name):
        return "must not be blank: spaces alone are no name"
    return None


def visible(name: str) -> str:
    """A stored name drawn for people (the board picture): each character that does not
    show as itself written as its code point, ``<U+202E>``, as the pages do (``visible``
    in ``recorder/web/static/js/dom.js``), so a name stored before the rule is shown, never
    acted on."""
    return "".join(f"<U+{ord(char):04X}>" if unicodedata.category(char) in HIDDEN else char for char in name)


def printable(text: object, *, backslashes: bool = True) -> str:
    """Text for one line of a report or a terminal: control characters, format characters
    (bidi, zero-width), line and paragraph separators escaped (as in a Python literal), so
    stored text cannot start a line, move the cursor, retitle the terminal or reverse what
    follows it. Backslashes are doubled too unless told not to, so that a report's reader
    can tell an escape from a name that holds one."""
    out = []
    for char in str(text):
        if char == "\\" and backslashes:
            out.append("\\\\")
        elif char.isprintable() and char not in "\u2028\u2029":
            out.append(char)
        else:
            out.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(out)


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

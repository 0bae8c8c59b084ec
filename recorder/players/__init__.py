"""The player registry: one stream per player, event-sourced like games and tournaments.

A player's stream (stream type ``player``, id ``p-`` and hex digits, never reused) holds
his registration, renamings, changes of affiliation, a merge into another player's
record and the withdrawal of that merge. Everything here except ``service.py`` is pure:
``events`` (past-tense facts), ``fold`` (the one fold of a player), ``decide`` (all
validation) and the names' search keys below. The definitions are in docs/players.md.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

PLAYER_PREFIX = "p-"
PLAYER_ID = re.compile(r"p-[0-9a-f]{1,64}")
FEDERATION = re.compile(r"[A-Z]{3}")
# Separators a search ignores besides white space: punctuation inside names (hyphens,
# apostrophes, dots) and the Ethiopic word space and full stop.
_SEPARATORS = re.compile(r"[\s\-‐-―'’`´.,·፡።፣፤]+")


def new_player_id() -> str:
    return PLAYER_PREFIX + secrets.token_hex(6)


def is_player_id(text: object) -> bool:
    return isinstance(text, str) and PLAYER_ID.fullmatch(text) is not None


def search_key(text: str) -> str:
    """A name as searches compare it: case folded, diacritics and separators dropped.
    Ge'ez syllables do not decompose, so they are kept whole; combining marks go."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SEPARATORS.sub("", unicodedata.normalize("NFC", bare))


def word_keys(text: str) -> list[str]:
    """The search keys of a name from each of its words on: "Abeba Tesfaye" gives
    ``abebatesfaye`` and ``tesfaye``, so a search by the family name finds him too."""
    words = [w for w in _SEPARATORS.split(text) if w]
    keys = [search_key("".join(words[i:])) for i in range(len(words))]
    return sorted({k for k in keys if k})

"""Teams in the registry: one stream per team, event-sourced like players and tournaments.

A team's stream (stream type ``team``, id ``tm-`` and hex digits, never reused) holds its
registration and each new roster. A team has a name in both scripts, a federation or a
region, a club, and a roster of registry players in board order (board 1 first) with its
reserves. Everything here but ``service.py`` is pure. The definitions: docs/tournaments.md,
"Teams".
"""

from __future__ import annotations

import re
import secrets

from recorder.players import search_key, word_keys

TEAM_PREFIX = "tm-"
TEAM_ID = re.compile(r"tm-[0-9a-f]{1,64}")


def new_team_id() -> str:
    return TEAM_PREFIX + secrets.token_hex(6)


def is_team_id(text: object) -> bool:
    return isinstance(text, str) and TEAM_ID.fullmatch(text) is not None


def name_matches(query: str, name: str, name_geez: str) -> bool:
    """A team found by a search: its Latin or Ge'ez name, from any of its words on, begins
    with the query, compared by the player search's keys (case, spacing, punctuation, the
    Ethiopic word space and diacritics aside)."""
    key = search_key(query)
    return bool(key) and any(k.startswith(key) for k in (*word_keys(name), *word_keys(name_geez)))

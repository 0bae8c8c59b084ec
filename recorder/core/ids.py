"""The exact shapes of ids (pure): every id that enters from outside is checked here.

Patterns are matched whole (``fullmatch``): a ``$`` would let a trailing newline through,
and an id with a trailing space or newline, or a board id that only looks like one
(``ABC-r01-b1``), would name a different stream than it appears to.

- a game: lower-case letters, digits and ``_`` (the service mints 12 hex digits; an
  import derives 16 from the game's content);
- a tournament: ``t-`` and hex digits;
- the game on a tournament's board: ``<tournament hex>-r<round>-b<board>``, numbers
  without leading zeros, so each board has exactly one id.
"""

from __future__ import annotations

import re

GAME_ID = re.compile(r"[0-9a-z_]{1,64}")
TOURNAMENT_ID = re.compile(r"t-[0-9a-f]{1,64}")
BOARD_GAME_ID = re.compile(r"(?P<tournament>[0-9a-f]{1,64})-r(?P<round>[1-9][0-9]{0,5})-b(?P<board>[1-9][0-9]{0,5})")
# The id an import gives a game from its content (archive/transfer.py, ``content_id``):
# 16 hex digits, where the service mints 12, so no game created over the API has one.
CONTENT_ID = re.compile(r"[0-9a-f]{16}")


def is_game_id(text: object) -> bool:
    return isinstance(text, str) and (GAME_ID.fullmatch(text) is not None or is_board_game_id(text))


def is_board_game_id(text: object) -> bool:
    return isinstance(text, str) and BOARD_GAME_ID.fullmatch(text) is not None


def is_tournament_id(text: object) -> bool:
    return isinstance(text, str) and TOURNAMENT_ID.fullmatch(text) is not None


def is_content_id(text: object) -> bool:
    """Is this the id an import derived from a game's content (not one the service minted)?"""
    return isinstance(text, str) and CONTENT_ID.fullmatch(text) is not None


def tournament_of_board(game_id: str) -> str | None:
    """The tournament a board's game id names; None for any other id."""
    match = BOARD_GAME_ID.fullmatch(game_id)
    return "t-" + match.group("tournament") if match else None


def board_of(game_id: str) -> tuple[int, int] | None:
    """The (round, board) a board's game id names; None for any other id."""
    match = BOARD_GAME_ID.fullmatch(game_id)
    return (int(match.group("round")), int(match.group("board"))) if match else None


def game_id_problem(text: object) -> str | None:
    """Why this is not a game id (None when it is), in words for a report."""
    if is_game_id(text):
        return None
    if isinstance(text, str) and text.startswith("t-"):
        return "ids starting with t- are tournaments"
    return (
        f"{text!r} is not a game id: lower-case letters, digits and _ (at most 64),"
        " or a board's id <tournament>-r<round>-b<board>"
    )

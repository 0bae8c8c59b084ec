"""Limits that say no early: how many events and bytes a game may hold, and how big one import may be.

A game's events are folded on every read, so a game is capped at ``events_per_game``
events (default 20,000: ten times the longest match recorded so far; configurable, see
docs/deployment.md). Every read of its events sends them all, so a game is also capped
at ``bytes_per_game`` stored bytes (default 4 MiB: the UTF-8 of its events' payloads as
stored; docs/security.md), which 20,000 events of long notes would otherwise pass many
times over. An import request is counted before anything is stored: its body
is parsed (cheap: no move is decided yet) and the number of games, the events of each
game and the events of all games together are held against ``ImportLimits``. Deciding
an event costs O(1) since the fold keeps the states of the effective moves
(``core.moves``), so the total number of events is the request's work. A refusal names
the limit it hit, and the whole request stores nothing; the CLI import
(``recorder import``, with a progress bar) is the way for archives larger than that.

Pure: no Flask, no SQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from recorder.errors import LimitExceeded

EVENTS_PER_GAME = 20_000
BYTES_PER_GAME = 4 * 1024 * 1024  # the stored bytes of a game's events (their payloads' JSON)
IMPORT_GAMES = 1_000
IMPORT_EVENTS = 25_000
# Notation tokens that are not events: turn numbers, passes (derived) and the result token.
NOT_EVENTS = ("turn", "pass", "result")


def from_environment(name: str, default: int) -> int:
    """``$RECORDER_<NAME>`` as a positive integer, else ``default``."""
    value = os.environ.get(f"RECORDER_{name}")
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise ValueError(f"RECORDER_{name} must be a positive integer, not {value!r}")
    return number


def events_per_game() -> int:
    return from_environment("MAX_EVENTS_PER_GAME", EVENTS_PER_GAME)


def bytes_per_game() -> int:
    return from_environment("MAX_BYTES_PER_GAME", BYTES_PER_GAME)


@dataclass(frozen=True)
class ImportLimits:
    games: int = IMPORT_GAMES  # games in one request
    events: int = IMPORT_EVENTS  # events of all its games together: the request's work
    events_per_game: int = EVENTS_PER_GAME
    bytes_per_game: int = BYTES_PER_GAME

    @classmethod
    def from_environment(cls) -> ImportLimits:
        return cls(
            from_environment("IMPORT_MAX_GAMES", IMPORT_GAMES),
            from_environment("IMPORT_MAX_EVENTS", IMPORT_EVENTS),
            events_per_game(),
            bytes_per_game(),
        )

    def check(self, counts: Iterable[int]) -> None:
        """``counts``: the events of each game, in order. LimitExceeded names the first limit passed."""
        counts = list(counts)
        if len(counts) > self.games:
            raise LimitExceeded(
                f"the import holds {len(counts)} games; one request takes at most {self.games} "
                "(import larger archives with the recorder import command, or in parts)",
                limit="import_games",
                maximum=self.games,
                actual=len(counts),
            )
        for index, count in enumerate(counts, start=1):
            check_game_events(count, self.events_per_game, game=index)
        total = sum(counts)
        if total > self.events:
            raise LimitExceeded(
                f"the import holds {total} events; one request takes at most {self.events} "
                "(import larger archives with the recorder import command, or in parts)",
                limit="import_events",
                maximum=self.events,
                actual=total,
            )


def check_game_events(count: int, maximum: int, *, game: int | str) -> None:
    """One game's events against the ceiling on events per game."""
    if count > maximum:
        raise LimitExceeded(
            f"game {game} would hold {count} events; a game holds at most {maximum} (MAX_EVENTS_PER_GAME)",
            limit="events_per_game",
            maximum=maximum,
            actual=count,
        )


def check_game_bytes(size: int, maximum: int, *, game: int | str) -> None:
    """One game's stored bytes (its events' payloads as stored: canonical JSON, UTF-8)
    against the ceiling on bytes per game."""
    if size > maximum:
        raise LimitExceeded(
            f"game {game} would hold {size} bytes of events; a game holds at most {maximum} (MAX_BYTES_PER_GAME)",
            limit="bytes_per_game",
            maximum=maximum,
            actual=size,
        )


def notation_events(tokens: Iterable) -> int:
    """The events a parsed notation game would store: its setup, sowings, decisions and notes."""
    return 1 + sum(1 for token in tokens if token.kind not in NOT_EVENTS)

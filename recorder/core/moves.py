"""The effective moves of a game as a persistent stack of (seq, event, state after it).

A retraction withdraws the latest ``count`` effective moves. Re-folding what
is left from the start would make every retraction cost the whole game, so a game with
many retractions would cost retractions x moves. Instead each entry keeps the state
its move produced (states are immutable values) and shares everything below it: a move
is pushed in O(1), a retraction pops ``count`` entries and finds the state to return to
on the new top, and every intermediate game of a fold shares one chain of entries.
The bottom entry holds the state before any move (the setup's).

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class Moves:
    """One entry of the stack, standing for all the effective moves up to it (oldest first)."""

    __slots__ = ("seq", "event", "state", "below", "depth", "timed")
    seq: int
    event: Any
    state: Any
    below: Moves | None
    depth: int
    timed: Moves | None

    def __init__(self, seq: int, event: Any, state: Any, below: Moves | None):
        self.seq = seq  # 0 for the bottom entry, which is no move
        self.event = event
        self.state = state  # the state after this move
        self.below = below
        self.depth = below.depth + 1 if below is not None else 0
        # The latest entry, this one or below, whose move carries a clock reading (TIME-2):
        # the clock face finds it at once, however long the game ran without readings.
        # Every move (``events.MOVE_TYPES``) has a ``clock`` field; the bottom entry is no move.
        if below is None:
            self.timed = None
        else:
            self.timed = self if event.clock is not None else below.timed

    @classmethod
    def start(cls, state: Any) -> Moves:
        """No effective move yet: the bottom of the stack, holding the starting state."""
        return cls(0, None, state, None)

    def push(self, seq: int, event: Any, state: Any) -> Moves:
        return Moves(seq, event, state, self)

    def pop(self, count: int) -> Moves:
        """The stack without its latest ``count`` moves: O(count), nothing re-folded."""
        if not 0 <= count <= self.depth:
            raise ValueError(f"there are {self.depth} moves to withdraw, not {count}")
        entry = self
        for _ in range(count):
            entry = entry.below  # type: ignore[assignment]  # depth guarantees an entry below
        return entry

    def latest(self, count: int) -> list[tuple[int, Any]]:
        """The latest ``count`` moves as (seq, event), oldest first: what a retraction of ``count`` withdraws."""
        entries = []
        entry = self
        for _ in range(min(count, self.depth)):
            entries.append((entry.seq, entry.event))
            entry = entry.below  # type: ignore[assignment]
        entries.reverse()
        return entries

    @property
    def latest_reading(self) -> tuple[int, Any] | None:
        """The latest effective move's clock reading with its seq, None if no move has one."""
        timed = self.timed
        return None if timed is None else (timed.seq, timed.event.clock)

    @property
    def top_seq(self) -> int | None:
        """The seq of the latest effective move; None before any move."""
        return self.seq if self.depth else None

    def __len__(self) -> int:
        return self.depth

    def __bool__(self) -> bool:
        return self.depth > 0

    def __reversed__(self) -> Iterator[tuple[int, Any]]:
        """Newest first, lazily: a reader after the last few moves walks only those."""
        entry = self
        while entry.depth:
            yield entry.seq, entry.event
            entry = entry.below  # type: ignore[assignment]

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        """Oldest first, as (seq, event): O(moves), so read it once per fold, not once per event."""
        return iter(self.latest(self.depth))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Moves):
            return self is other or list(self) == list(other)
        if isinstance(other, tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal by content, like the tuple it replaces

    def __repr__(self) -> str:
        return f"Moves({list(self)!r})"

"""Turns as the notation shows them: numbers, multi-sowing turns and passes (GEN-17..GEN-20).

Events record sowings, never turns or passes. The notation numbers turns so that a reader
sees who played and where one player sowed several times; the engine alone knows, after
each sowing, whether the same turn goes on (sow again, GEN-18), the other player moves,
or the other player passes and the mover starts a new turn (GEN-19). ``Line`` folds a
game's events through the one fold (``game.apply_event``) and says, for each one, what the
notation shows. The writer and the reader both use it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from recorder.core.events import (
    CLOCK_STOP_TYPES,
    SIGNOFF_TYPES,
    Annotated,
    Event,
    GameCreated,
    MovesRetracted,
    OpeningPlayed,
    Sowed,
)
from recorder.core.game import FoldedGame, apply_event, apply_move, start_game
from recorder.rules.base import Rules, Trace, mover_of
from recorder.rules.state import State

# Recorded, but neither a move nor a turn: the clocks' stops and the players' word on the record.
NO_TURN_TYPES = CLOCK_STOP_TYPES | SIGNOFF_TYPES

AGAIN, NEXT, PASS, END = "again", "next", "pass", "end"


def turn_end(rules: Rules, before: State, event: Event, after: State) -> str:
    """How a sowing (or the Tuz opening) ended: the same turn goes on (AGAIN), the other
    player moves (NEXT), the other player passed (PASS), or nobody is to move (END)."""
    mover = before.to_move
    if after.game_over or after.to_move is None or after.awaiting:
        return END
    if after.to_move != mover:
        return NEXT
    # The mover moves again: sow again or an automatic pass. Only the engine's trace
    # tells them apart, so replay this one move with a trace (rare, and cheap enough).
    trace: Trace = []
    if isinstance(event, Sowed):
        rules.play(before, rules.board.hole(event.hole), trace)
    elif isinstance(event, OpeningPlayed):
        rules.play_opening(before, event.choice, trace)
    return PASS if any(step["step"] == "passed" for step in trace) else AGAIN


@dataclass(frozen=True)
class Mark:
    """Where the notation stands: the last turn number written, and the side whose turn
    is still open (it sows again), if any."""

    turn: int = 0
    open: str | None = None


@dataclass(frozen=True)
class Step:
    """What the notation shows for one event."""

    event: Event
    new_turn: int | None = None  # a sowing that starts turn N
    side: str | None = None  # who sowed
    pass_turn: int | None = None  # after it, turn N is the opponent's pass
    passer: str | None = None
    round_ended: bool = False  # after it, a round of a match is over


class Line:
    """A game's events folded one by one, with the notation's marks kept per effective move
    so that a retraction restores them exactly as it restores the state.

    ``retractions=False`` promises that no retraction follows: the line then folds the
    states alone with ``game.apply_move`` (what ``apply_event`` does for a move, without
    rebuilding a ``FoldedGame`` each time), which is what makes exports fast."""

    def __init__(self, game_id: str, setup: GameCreated, *, retractions: bool = True):
        self.game: FoldedGame = start_game(game_id, setup)
        self.rules: Rules = self.game.rules
        self.state: State = self.game.state
        self.mark = Mark()
        self._marks: list[Mark] = []  # the mark before each effective move
        self._keeps_game = retractions

    def apply(self, seq: int, event: Event) -> Step:
        before, mark = self.state, self.mark
        self._fold(seq, event)
        if isinstance(event, Annotated) or event.type in NO_TURN_TYPES:  # neither opens nor closes a turn
            return Step(event)
        if isinstance(event, MovesRetracted):
            kept = len(self._marks) - event.count
            self.mark = self._marks[kept]
            del self._marks[kept:]
            return Step(event)
        self._marks.append(mark)  # every other event is an effective move
        if isinstance(event, (Sowed, OpeningPlayed)):
            return self._after_turn_move(before, event, mark)
        self.mark = Mark(mark.turn)  # a decision closes any open turn
        return Step(event, round_ended=self._round_ended(before))

    def _fold(self, seq: int, event: Event) -> None:
        if self._keeps_game:
            self.game = apply_event(self.game, event, seq)
            self.state = self.game.state
        elif isinstance(event, MovesRetracted):
            raise ValueError("this line was promised no retraction")
        elif not isinstance(event, Annotated) and event.type not in NO_TURN_TYPES:
            self.state = apply_move(self.rules, self.state, event)

    def _after_turn_move(self, before: State, event: Event, mark: Mark) -> Step:
        mover = mover_of(before)
        side = mover.json
        turn, new_turn = mark.turn, None
        if isinstance(event, Sowed) and mark.open != side:
            turn = new_turn = mark.turn + 1
        how = turn_end(self.rules, before, event, self.state)
        if how == AGAIN:
            self.mark = Mark(turn, side)
            return Step(event, new_turn, side)
        if how == PASS:
            self.mark = Mark(turn + 1)
            return Step(event, new_turn, side, pass_turn=turn + 1, passer=mover.opponent.json)
        self.mark = Mark(turn)
        return Step(event, new_turn, side, round_ended=self._round_ended(before))

    def _round_ended(self, before: State) -> bool:
        after = self.state
        return after.round_over and not before.round_over and self.rules.is_match

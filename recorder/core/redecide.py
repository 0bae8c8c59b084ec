"""Deciding stored events again: the full validation that verify and what-if replays need.

The fold (``game.apply_event``) trusts its input. To check a record, or to replay it
under other options, each stored event is turned back into the command that would
record it (``command_for``) and decided again by ``commands.decide`` on the game as
it then stood: exactly the validation an arbiter's command gets before it is stored.
"""

from __future__ import annotations

from dataclasses import fields

from recorder.errors import InvalidRecord

from . import commands
from .commands import Command
from .events import (
    Annotated,
    ClocksPaused,
    ClocksResumed,
    DisputeDecided,
    Event,
    GameCreated,
    LotDrawn,
    MovesRetracted,
    OpeningPlayed,
    RaceRecorded,
    ResultConfirmed,
    ResultDisputed,
    ResultRecorded,
    RoundStarted,
    Sowed,
)
from .game import FoldedGame, after_move, apply_event

# Stored event type -> the command type that records it.
COMMAND_TYPES = {
    Sowed.type: "sow",
    RaceRecorded.type: "race",
    OpeningPlayed.type: "opening",
    LotDrawn.type: "lot",
    RoundStarted.type: "next_round",
    ResultRecorded.type: "result",
    MovesRetracted.type: "retract",
    Annotated.type: "annotate",
    ClocksPaused.type: "pause_clocks",
    ClocksResumed.type: "resume_clocks",
    ResultConfirmed.type: "confirm",
    ResultDisputed.type: "dispute",
    DisputeDecided.type: "decide",
}


def command_for(event: Event) -> Command:
    """The command (as ``POST /commands`` takes it) that records ``event``.

    A ``sow`` names its player (GEN-21). An optional field left at its default (a
    result's note, a round's allocation) is omitted, as a client would omit it; a
    ``winner`` of None (a draw) is not optional and stays."""
    if isinstance(event, GameCreated):
        raise TypeError("a setup is decided by decide_create, not decide")
    # A shallow copy of the fields: decide only reads its command, so asdict's deep copy
    # would be work for nothing, paid once per event of every replay.
    command = {"type": COMMAND_TYPES[event.type], **vars(event)}
    for name in _optional(type(event)):
        if command[name] is None:
            del command[name]
    return command


def _optional(kind: type[Event]) -> tuple[str, ...]:
    """The fields of an event class that default to None (looked up once per class)."""
    names = _OPTIONAL.get(kind)
    if names is None:
        names = _OPTIONAL[kind] = tuple(f.name for f in fields(kind) if f.default is None)
    return names


_OPTIONAL: dict[type[Event], tuple[str, ...]] = {}


def setup_body(setup: GameCreated) -> Command:
    """The ``POST /api/games`` body that creates this setup (GEN-23, GEN-42).

    The metadata go first and the setup's own fields last, so a metadata key can never
    stand in for the variant, options, players or position."""
    body = {
        "variant": setup.variant,
        "options": setup.options,
        "south": setup.south,
        "north": setup.north,
        "first_player": setup.first_player,
        "position": setup.position,
    }
    return {**setup.metadata, **body}


def redecide_setup(setup: GameCreated) -> GameCreated:
    """The setup decided again; InvalidRecord when it is not what a valid setup stores."""
    decided = commands.decide_create(setup_body(setup))
    if decided != setup:
        raise InvalidRecord("the stored setup is not what its own setup command records", field="setup")
    return decided


def redecide(game: FoldedGame, event: Event) -> Event:
    """``event`` decided again on ``game``; a RecorderError if it is not valid there.

    The command must also produce exactly the stored event: a record that says South
    sowed when North was to move is refused, never silently re-attributed.
    """
    decided = commands.decide(game, command_for(event))
    _require_same(decided, event)
    return event


def redecide_folded(game: FoldedGame, event: Event, seq: int) -> FoldedGame:
    """``redecide`` and the fold in one step: the game after ``event`` (stored as ``seq``).

    Deciding a sowing plays it, so the state it gave is folded instead of being played a
    second time (``commands.execute``): verification and what-if replays sow once. A
    sowing is checked by ``commands.sowing`` straight from its fields, as its command
    would be."""
    if type(event) is Sowed:
        sowed, state = commands.sowing(game, event.hole, event.player, event.clock)
        if sowed != event:
            _require_same([sowed], event)  # raises, naming both
        return after_move(game, event, seq, state)
    decided, after = commands.execute(game, command_for(event))
    _require_same(decided, event)
    return after if after.version == seq else apply_event(game, event, seq)


def _require_same(decided: list[Event], event: Event) -> None:
    if decided != [event]:
        raise InvalidRecord(f"deciding {event.type} again gives {decided!r}, not the stored event", field="payload")

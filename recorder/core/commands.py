"""Commands decide: ``decide_*(game, command) -> [events]`` or a named error.

All validation lives here, before anything is stored (GEN-21, GEN-22, GEN-28..GEN-31,
GEN-37, GEN-38, GEN-42). Commands arrive as dicts whose JSON types the schemas have
already checked; these functions check them against the rules and the game's state.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any, TypeAlias

from recorder.errors import AlreadyExists, GameOver, IllegalMove, InvalidRecord, NotFound
from recorder.rules import rules_for
from recorder.rules.base import mover_of
from recorder.rules.position_text import position_json
from recorder.rules.positions import position_from_json, position_only
from recorder.rules.state import State
from recorder.rules.values import OPENING_CHOICES, RESULT_KINDS, PlayerName

from .clocks import checked_clock, checked_time_control, clock_of
from .events import (
    DECISION_OUTCOMES,
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
    shared_sowing,
)
from .game import FoldedGame, apply_event, initial_state
from .names import is_blank

Command: TypeAlias = dict[str, Any]  # a command body, its JSON types checked by the schemas

PLAYER_NAMES: tuple[PlayerName, PlayerName] = ("south", "north")
# GEN-28, TIME-1: the results that may be a draw (both flags fallen, or a win nobody could reach).
DRAWN_KINDS = ("agreement", "adjudication", "time")
# import_claims: what an NDJSON log imported by anyone but the admin said about who
# recorded it and when (recorder/archive/ndjson.py with_claims); POST /api/games cannot set it.
# south_player, north_player: the registry players (recorder/players) the game names.
METADATA_FIELDS = (
    "event",
    "site",
    "date",
    "round",
    "tournament_id",
    "board",
    "south_player",
    "north_player",
    "import_claims",
    "time_control",
)
# A game's date is known to the year, the month or the day. Every check of a date (the
# HTTP schemas, the notation reader, the CLI's filters) is ``is_date``: this pattern (ASCII
# digits: ``\d`` would take any script's), and a month and day the calendar has.
DATE_PATTERN = r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?"
DATE_FORMS = "YYYY, YYYY-MM or YYYY-MM-DD, a real date"
_DATE = re.compile(DATE_PATTERN)


def is_date(value: object) -> bool:
    """A date as far as it is known, and a real one: not 2026-13, not 2026-02-30."""
    if not isinstance(value, str) or _DATE.fullmatch(value) is None:
        return False
    year, month, day = (*(int(part) for part in value.split("-")), 1, 1)[:3]
    try:
        datetime.date(year, month, day)
    except ValueError:  # month 00 or 13, day 00 or past the month's end, year 0000
        return False
    return True


def decide_create(body: Command) -> GameCreated:
    """GEN-23, GEN-29, GEN-30, GEN-42: a valid setup, or InvalidRecord saying what is wrong."""
    rules = rules_for(body["variant"], body.get("options") or {})
    first, position = body.get("first_player"), body.get("position")
    if isinstance(position, str):  # a position text (docs/notation.md): stored in the JSON shape
        position = position_json(rules, position)
    if not rules.has_first_player and first is not None:
        raise InvalidRecord(f"{rules.name} names no first player: the race decides (GEN-30)", field="first_player")
    if position is not None and first is not None:
        raise InvalidRecord("a game from a position takes its player to move from it (GEN-42)", field="first_player")
    if rules.has_first_player and position is None and first is None:
        raise InvalidRecord("first_player is required (GEN-23)", field="first_player")
    for seat in PLAYER_NAMES:  # the schema refuses these too; a notation file or the front door meets them here
        if isinstance(body.get(seat), str) and is_blank(body[seat]):
            raise InvalidRecord(f"{seat} must not be blank: spaces alone are no name", field=seat)
    setup = GameCreated(
        variant=rules.name,
        options=dict(rules.options),  # a copy: the cached rules' own dict must never be shared
        south=body["south"],
        north=body["north"],
        first_player=first,
        position=position_only(position) if isinstance(position, dict) else position,
        metadata={k: body[k] for k in METADATA_FIELDS if body.get(k) is not None},
    )
    if body.get("time_control") is not None:
        checked_time_control(body["time_control"])
    if position is not None:
        position_from_json(rules, position)  # a rendered state's derived fields are checked here (GEN-42)
    initial_state(rules, setup)  # raises InvalidRecord for a bad position
    return setup


def decide(game: FoldedGame, command: Command) -> list[Event]:
    """Dispatch one command; raise a named error and store nothing if it is not valid."""
    _require_allowed(game, command["type"])
    return _DECIDERS[command["type"]](game, command)


def execute(game: FoldedGame, command: Command) -> tuple[list[Event], FoldedGame]:
    """Decide one command and fold its events: (the events, the game after them).

    Deciding a sowing means playing it (only playing it shows that it ends, GEN-16), so
    the state it gives is carried into the fold instead of being computed again."""
    if command["type"] == "sow":
        return executed_sowing(game, command["hole"], command.get("player"), clock_of(command))
    events = decide(game, command)
    after = game
    for offset, event in enumerate(events, start=1):
        after = apply_event(after, event, game.version + offset)
    return events, after


def executed_sowing(
    game: FoldedGame, hole: str, player: str | None, clock: dict[str, int] | None = None
) -> tuple[list[Event], FoldedGame]:
    """``execute`` of a sow command from its fields: the sowing decided, its state folded."""
    sowed, state = sowing(game, hole, player, clock)
    return [sowed], apply_event(game, sowed, game.version + 1, after=state)


# Commands that are no move: allowed whatever is awaited (a pause checks what it needs itself).
NOT_MOVES = ("retract", "annotate", "pause_clocks", "resume_clocks", "confirm", "dispute", "decide")


def _require_allowed(game: FoldedGame, kind: str) -> None:
    if kind not in NOT_MOVES:
        _require_open(game)
        _require_due(game, kind)


def decide_sow(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-21: the hole must be legal for the player to move, and the sowing must end (GEN-16)."""
    return [sowing(game, command["hole"], command.get("player"), clock_of(command))[0]]


def sowing(game: FoldedGame, hole: str, player: str | None, clock: dict[str, int] | None = None) -> tuple[Sowed, State]:
    """Every check of a sow command (``decide_sow``), and the state the sowing gives.

    Takes the command's fields rather than the command, so that re-deciding a stored
    sowing (``redecide``), most of any record, builds no command to check it. ``clock``:
    the reading it carries (TIME-2), checked here whoever passes it."""
    rules, state = game.rules, game.state
    if state.game_over or state.awaiting:  # else both checks pass: no call for most sowings
        _require_allowed(game, "sow")
    index = rules.board.index.get(hole) if type(hole) is str else None  # a record's hole may be any JSON value
    if index is None:
        raise _illegal(game, rules.board.unknown_hole(hole))
    mover = mover_of(state).json
    if player not in (None, mover):
        raise _illegal(game, f"{mover} is to move, not {player} (GEN-21)")
    if index not in rules.legal_moves(state):
        raise _illegal(game, f"{mover} may not sow {hole} now{_whose_hole(state, index, hole)}")
    name = rules.board.name_of(index)
    sowed = shared_sowing(name, mover) if clock is None else Sowed(name, mover, checked_clock(clock))
    # The lap cap raises EndlessSowing here (GEN-16, GEN-35).
    return sowed, rules.play(state, index)


def _whose_hole(state: State, index: int, hole: str) -> str:
    """Why a hole of the board is not the mover's to sow, when it is the opponent's (GEN-21)."""
    owner = state.owners[index]
    return "" if owner == state.to_move else f": {hole} is {owner.json.capitalize()}'s hole"


def decide_race(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-24, GEN-37, GAB-2: 18 holes, integers ≥ 0, 54 seeds; the engine checks nothing else."""
    problem = game.rules.race_board_problem(command["holes"])
    if problem is not None:
        raise InvalidRecord(f"{problem} (GEN-37)", field="holes")
    holes = command["holes"]
    return [
        RaceRecorded(
            winner=_player(command, "winner"),
            holes={name: holes[name] for name in game.rules.board.holes},
            clock=clock_of(command),
        )
    ]


def decide_opening(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-25, TUZ-4: ``tuz`` or ``plain``, by the first player, in round 1 only."""
    if command["choice"] not in OPENING_CHOICES:
        raise InvalidRecord(f"the opening choice is {' or '.join(OPENING_CHOICES)} (GEN-25)", field="choice")
    return [OpeningPlayed(choice=command["choice"], clock=clock_of(command))]


def decide_lot(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-26: the winner receives the extra hole."""
    return [LotDrawn(winner=_player(command, "winner"), clock=clock_of(command))]


def decide_next_round(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-27, GEN-38: an allocation names every hole once and gives each player his count."""
    allocation = command.get("allocation")
    if allocation is not None:
        _check_allocation(game, allocation)
    return [RoundStarted(first_player=_player(command, "first_player"), allocation=allocation, clock=clock_of(command))]


def _check_allocation(game: FoldedGame, allocation: Any) -> None:
    names, counts = game.rules.board.holes, game.state.hole_counts
    if counts is None:
        raise _illegal(game, "no next round is due (GEN-27)")
    if not isinstance(allocation, dict) or set(allocation) != set(PLAYER_NAMES):
        raise InvalidRecord("allocation has exactly the keys south and north (GEN-38)", field="allocation")
    listed = [hole for player in PLAYER_NAMES for hole in allocation[player]]
    for hole in listed:
        if type(hole) is not str or hole not in game.rules.board.index:
            raise InvalidRecord(game.rules.board.unknown_hole(hole), field="allocation")
    if sorted(listed) != sorted(names):
        raise InvalidRecord("the allocation must name every hole exactly once (GEN-38)", field="allocation")
    for index, player in enumerate(PLAYER_NAMES):
        if len(allocation[player]) != counts[index]:
            raise InvalidRecord(
                f"{player} owns {counts[index]} holes this round, not {len(allocation[player])} (GEN-27)",
                field="allocation",
            )


def decide_result(game: FoldedGame, command: Command) -> list[Event]:
    """GEN-28, TIME-1: a draw (winner null) only by agreement, adjudication or time."""
    kind, winner = command["kind"], command["winner"]
    if kind not in RESULT_KINDS:
        raise InvalidRecord(f"result kind must be one of {', '.join(RESULT_KINDS)} (GEN-28, TIME-1)", field="kind")
    if winner is None and kind not in DRAWN_KINDS:
        raise InvalidRecord("only an agreement, an adjudication or time can be a draw (GEN-28, TIME-1)", field="winner")
    if winner is not None and winner not in PLAYER_NAMES:
        raise InvalidRecord("winner is 'south', 'north' or null", field="winner")
    return [ResultRecorded(kind=kind, winner=winner, note=command.get("note"), clock=clock_of(command))]


def decide_retract(game: FoldedGame, command: Command) -> list[Event]:
    """Withdraw the latest effective moves; the log keeps them and says who and why."""
    count, reason = command["count"], command["reason"].strip()
    if count < 1 or count > len(game.moves):
        raise IllegalMove(f"there are {len(game.moves)} moves to retract, not {count}", moves=len(game.moves))
    if not reason:
        raise InvalidRecord("a retraction needs a reason", field="reason")
    return [MovesRetracted(count=count, reason=reason)]


def decide_annotate(game: FoldedGame, command: Command) -> list[Event]:
    text = command["text"].strip()
    if not text:
        raise InvalidRecord("an annotation needs text", field="text")
    return [Annotated(text=text)]


def decide_pause_clocks(game: FoldedGame, command: Command) -> list[Event]:
    """The arbiter stops both clocks, with their reading then (required)."""
    _require_clocks(game, "pause")
    if game.stops.paused:
        raise InvalidRecord("the clocks are already paused", field="type")
    if "clock" not in command:
        raise InvalidRecord("a pause records the clocks' reading when stopped: clock is required", field="clock")
    return [ClocksPaused(clock=checked_clock(command["clock"]))]


def decide_resume_clocks(game: FoldedGame, command: Command) -> list[Event]:
    """The arbiter starts the clocks again; a reading is needed only if it changed."""
    _require_clocks(game, "resume")
    if not game.stops.paused:
        raise InvalidRecord("the clocks are not paused", field="type")
    return [ClocksResumed(clock=clock_of(command))]


MAX_REASON = 2000  # characters of a dispute's or a decision's reason


def decide_confirm(game: FoldedGame, command: Command) -> list[Event]:
    """A player confirms the finished game's record as it stands (its last effective move
    named by ``upto``), once per record, and not while his own dispute is open."""
    side, upto = _signing_side(game, command, "confirm")
    if game.signoffs.confirmed_by(side, upto):
        raise AlreadyExists(f"{side} has already confirmed this record", field="side")
    if any(event.side == side for _, event in game.signoffs.open_disputes()):
        raise InvalidRecord(f"{side}'s dispute is open: the arbiter decides it first", field="side")
    return [ResultConfirmed(side=side, player=command["player"], upto=upto)]


def decide_dispute(game: FoldedGame, command: Command) -> list[Event]:
    """A player disputes the finished game's record instead of confirming it: moves of
    the record (their seqs) and/or its result, and why; or appeals a decision (``appeal_of``)."""
    side, upto = _signing_side(game, command, "dispute")
    moves, result = sorted(set(command.get("moves") or ())), bool(command.get("result"))
    effective = {seq for seq, _ in game.moves}
    strays = [seq for seq in moves if seq not in effective]
    if strays:
        raise InvalidRecord(f"moves {strays} are not moves of the record as it stands", field="moves")
    if not moves and not result:
        raise InvalidRecord("a dispute names the moves or the result it disputes", field="moves")
    if any(event.side == side for _, event in game.signoffs.open_disputes()):
        raise AlreadyExists(f"{side} has a dispute open already", field="side")
    appeal_of = _appealed(game, command.get("appeal_of"))
    reason = _reason(command)
    return [ResultDisputed(side, command["player"], moves, result, reason, upto, appeal_of)]


def decide_decision(game: FoldedGame, command: Command) -> list[Event]:
    """The decision on an open dispute: ``upheld`` with the record unchanged since it, or
    ``corrected`` by the correction events recorded since (a retraction, the moves again),
    the game over again. A dispute's decision is the arbiter's, an appeal's the committee's."""
    number = command["dispute"]
    dispute = game.signoffs.dispute(number)
    if dispute is None:
        raise NotFound(f"no dispute at seq {number}", field="dispute")
    if game.signoffs.decision(number) is not None:
        raise AlreadyExists(f"the dispute at seq {number} is decided already", field="dispute")
    outcome, changed = command["outcome"], game.record_end != dispute.upto
    if outcome not in DECISION_OUTCOMES:
        raise InvalidRecord(f"outcome is one of {', '.join(DECISION_OUTCOMES)}", field="outcome")
    if outcome == "upheld" and changed:
        raise InvalidRecord("the record changed since the dispute: the decision is a correction", field="outcome")
    if outcome == "corrected" and (not changed or not game.state.game_over):
        what = "record the correction first (retract, then record the moves)" if not changed else "finish the game"
        raise InvalidRecord(f"a correction changes the record and ends the game again: {what}", field="outcome")
    by = "committee" if dispute.appeal_of is not None else "arbiter"
    return [DisputeDecided(dispute=number, outcome=outcome, by=by, reason=_reason(command))]


def _signing_side(game: FoldedGame, command: Command, verb: str) -> tuple[PlayerName, int]:
    """The side a player signs for and the record he signs (its last effective move's seq),
    once the game is over; a re-decided event's ``upto`` must name that record."""
    side = command["side"]
    if side not in PLAYER_NAMES:
        raise InvalidRecord("side is 'south' or 'north'", field="side")
    if not game.state.game_over:
        raise InvalidRecord(f"the game is not over: there is no result to {verb}", field="type")
    upto = game.record_end
    if command.get("upto", upto) != upto:
        raise InvalidRecord(f"the record's last move is at seq {upto}", field="upto")
    return side, upto


def _appealed(game: FoldedGame, decision_seq: Any) -> int | None:
    """An appeal names a decision on a dispute (not on an appeal: the committee's is final)."""
    if decision_seq is None:
        return None
    decided = next((event for at, event in game.signoffs.decisions if at == decision_seq), None)
    if decided is None:
        raise NotFound(f"no decision at seq {decision_seq}", field="appeal_of")
    if decided.by == "committee":
        raise InvalidRecord("the committee's decision is final: it is not appealed", field="appeal_of")
    if any(event.appeal_of == decision_seq for _, event in game.signoffs.disputes):
        raise AlreadyExists(f"the decision at seq {decision_seq} is appealed already", field="appeal_of")
    return int(decision_seq)


def _reason(command: Command) -> str:
    reason = (command.get("reason") or "").strip()
    if not reason:
        raise InvalidRecord("say why: a reason is required", field="reason")
    if len(reason) > MAX_REASON:
        raise InvalidRecord(f"a reason has at most {MAX_REASON} characters", field="reason")
    return reason


def _require_clocks(game: FoldedGame, verb: str) -> None:
    """A pause or resume needs a game still going that is played with clocks."""
    if game.setup.metadata.get("time_control") is None:
        raise InvalidRecord(f"the game has no time control: there are no clocks to {verb}", field="type")
    if game.state.game_over:
        raise InvalidRecord(f"the game is over: there are no clocks to {verb}", field="type")


def _require_open(game: FoldedGame) -> None:
    if game.state.game_over:
        outcome = game.state.outcome
        result = outcome.name if outcome is not None else None
        raise GameOver("the game is over; no event is valid after it (GEN-28)", result=result)


def _require_due(game: FoldedGame, kind: str) -> None:
    """GEN-22: an awaited decision comes first; only a result may overtake it."""
    rules, awaiting = game.rules, game.state.awaiting
    if kind != "sow" and kind not in rules.DECISIONS:
        raise _illegal(game, f"{rules.name} has no {kind} decision")
    if kind == "result" or kind == awaiting:
        return
    if awaiting:
        raise _illegal(game, f"{awaiting} is awaited before anything else (GEN-22)")
    if kind != "sow":
        raise _illegal(game, f"no {kind} is due now")


def _illegal(game: FoldedGame, detail: str) -> IllegalMove:
    state = game.state
    return IllegalMove(
        detail,
        to_move=state.to_move.json if state.to_move is not None else None,
        awaiting=state.awaiting,
        legal_moves=sorted(game.rules.board.holes[i] for i in game.rules.legal_moves(state)),
    )


def _player(command: Command, field: str) -> PlayerName:
    for name in PLAYER_NAMES:
        if command.get(field) == name:
            return name
    raise InvalidRecord(f"{field} must be 'south' or 'north'", field=field)


_DECIDERS: dict[str, Callable[[FoldedGame, Command], list[Event]]] = {
    "sow": decide_sow,
    "race": decide_race,
    "opening": decide_opening,
    "lot": decide_lot,
    "next_round": decide_next_round,
    "result": decide_result,
    "retract": decide_retract,
    "annotate": decide_annotate,
    "pause_clocks": decide_pause_clocks,
    "resume_clocks": decide_resume_clocks,
    "confirm": decide_confirm,
    "dispute": decide_dispute,
    "decide": decide_decision,
}

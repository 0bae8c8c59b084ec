"""Auditing a record: who withdrew what, and how each event made its position.

Pure over the fold (``game.py``): no Flask, no SQL. Two views an arbiter needs when a
position is disputed:

- ``retraction_marks``: which retraction withdrew each move, and which moves each
  retraction withdrew. Nothing of this is stored; it is derived by folding the log.
- ``trace_event``: the ordered steps that produced the position after one event, each
  citing the spec rule that caused it. A sowing's steps come from the engine itself
  (``rules.play(..., trace=[])``); a decision's steps (GEN-23..GEN-28) are written here.
  ``explain`` wraps one event's trace with the positions before and after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from typing import Any

from recorder.core.events import (
    CLOCK_STOP_TYPES,
    MOVE_TYPES,
    SIGNOFF_TYPES,
    Annotated,
    Event,
    GameCreated,
    LotDrawn,
    MovesRetracted,
    OpeningPlayed,
    RaceRecorded,
    ResultRecorded,
    RoundStarted,
    Sowed,
    event_from_record,
)
from recorder.core.game import FoldedGame, history
from recorder.errors import NotFound
from recorder.rules.base import mover_of
from recorder.rules.rounds import MatchRules
from recorder.rules.state import pair, state_to_json

# The per-game rules a match decision follows: hole counts, default allocation, new board.
ROUND_RULES = {
    "selus": {"counts": "SEL-15", "allocation": "SEL-17", "reset": "SEL-18"},
    "lahemay_walida": {"counts": "LW-12", "allocation": "LW-14", "reset": "LW-15"},
    "tuz": {"counts": "TUZ-12", "allocation": "TUZ-14", "reset": "TUZ-15"},
}
GENERIC_ROUND_RULES = {"counts": "GEN-26", "allocation": "GEN-27", "reset": "GEN-27"}


# -- Corrections ---------------------------------------------------------------------


def retraction_marks(game_id: str, pairs: Iterable[tuple[int, Event]]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """``{move seq: retraction seq}`` and ``{retraction seq: [move seqs]}``, from the log.

    A retraction withdraws the latest effective moves (the fold's ``FoldedGame.moves``). Which
    moves those are depends only on the order of moves and retractions, not on the board,
    so this folds a stack of move numbers alone: no sowing is played again, and marking a
    log costs O(events) however many retractions it holds. A retraction of more moves
    than stand (a log altered behind the service's back) raises ValueError.
    """
    retracted_by: dict[int, int] = {}
    withdrew: dict[int, list[int]] = {}
    effective: list[int] = []  # the seqs of the effective moves, oldest first
    for seq, event in pairs:
        if isinstance(event, MovesRetracted):
            if not 0 < event.count <= len(effective):
                raise ValueError(f"{game_id}: event {seq} retracts {event.count} of {len(effective)} moves")
            withdrawn = effective[len(effective) - event.count :]
            del effective[len(effective) - event.count :]
            withdrew[seq] = withdrawn
            retracted_by.update((move_seq, seq) for move_seq in withdrawn)
        elif event.type in MOVE_TYPES:
            effective.append(seq)
    return retracted_by, withdrew


def mark_retractions(game_id: str, stored: list[dict]) -> list[dict]:
    """Event-list entries with ``retracted_by_seq`` on withdrawn moves and ``retracts`` on retractions.

    The log of a record altered behind the service's back may not fold; it is then listed
    unmarked, so the evidence stays readable (``verify`` names what is wrong).
    """
    try:
        pairs = [(entry["seq"], event_from_record(entry["type"], entry["payload"])) for entry in stored]
        retracted_by, withdrew = retraction_marks(game_id, pairs)
    except Exception:  # noqa: BLE001 - any failure to fold a corrupt log
        retracted_by, withdrew = {}, {}
    marked = []
    for entry in stored:
        entry = dict(entry)
        if entry["seq"] in retracted_by:
            entry["retracted_by_seq"] = retracted_by[entry["seq"]]
        if entry["seq"] in withdrew:
            entry["retracts"] = withdrew[entry["seq"]]
        marked.append(entry)
    return marked


def last_sowing(game: FoldedGame) -> str | None:
    """The hole the last effective sowing lifted, for diagrams; None once a decision followed it.

    A recorded result leaves the board as it was (GEN-32), so it does not hide the sowing.
    """
    for _, move in reversed(game.moves):
        if isinstance(move, Sowed):
            return move.hole
        if not isinstance(move, ResultRecorded):
            return None
    return None


# -- Traces --------------------------------------------------------------------------


def explain(game_id: str, stored: Sequence[Any], seq: int) -> dict:
    """Event ``seq`` of a game: what was recorded, the positions before and after, and the steps between."""
    return explain_all(game_id, stored, [seq])[0]


def explain_all(game_id: str, stored: Sequence[Any], seqs: Sequence[int]) -> list[dict]:
    """``explain`` of each of ``seqs``, in one fold up to the last of them (a dossier's
    disputed moves): only the positions around them are kept."""
    for seq in seqs:
        if not 1 <= seq <= len(stored):
            raise NotFound(f"game {game_id} has {len(stored)} events, not {seq}", version=len(stored))
    if not seqs:
        return []
    pairs = [(e.seq, event_from_record(e.type, e.payload)) for e in stored]
    around = {n for seq in seqs for n in (seq - 1, seq)}
    folded = islice(history(game_id, pairs), max(seqs))
    games = {index: game for index, game in enumerate(folded, start=1) if index in around}
    marks = retraction_marks(game_id, pairs)
    return [_explained(game_id, seq, stored[seq - 1], pairs[seq - 1][1], games, marks) for seq in seqs]


def _explained(game_id: str, seq: int, record: Any, event: Event, games: dict, marks: tuple[dict, dict]) -> dict:
    before, after = games.get(seq - 1), games[seq]
    explained = {
        "game_id": game_id,
        "seq": seq,
        "type": record.type,
        "payload": record.payload,
        "recorded_at": record.recorded_at,
        "recorded_by": record.recorded_by,
        "before": state_to_json(before.rules, before.state) if before is not None else None,
        "after": state_to_json(after.rules, after.state),
        "steps": trace_event(before, event, after),
    }
    retracted_by, withdrew = marks
    if seq in retracted_by:
        explained["retracted_by_seq"] = retracted_by[seq]
    if seq in withdrew:
        explained["retracts"] = withdrew[seq]
    return explained


def step(name: str, rule: str, **fields) -> dict:
    """One trace step in the engine's own shape: ``{"step", "rule", ...}``."""
    return {"step": name, "rule": rule, **fields}


def trace_event(before: FoldedGame | None, event: Event, after: FoldedGame) -> list[dict]:
    """The steps that took the game from ``before`` to ``after`` through ``event``.

    Corrections, annotations and the clocks' pauses apply no rule: their trace is empty, and what a
    retraction withdrew is in ``retraction_marks``.
    """
    if isinstance(event, GameCreated):
        return setup_trace(after)
    if isinstance(event, (MovesRetracted, Annotated)) or event.type in CLOCK_STOP_TYPES | SIGNOFF_TYPES:
        return []
    tracer = _DECISION_TRACES.get(type(event))
    if tracer is None or before is None:
        raise TypeError(f"no trace for {event!r}")
    return tracer(before, event, after)


def sowing_trace(before: FoldedGame, event: Sowed, after: FoldedGame) -> list[dict]:
    """The engine's own steps, replayed on the position the sowing was made in (GEN-11..GEN-19)."""
    steps: list[dict] = []
    rules = before.rules
    rules.play(before.state, rules.board.hole(event.hole), steps)
    return steps


def setup_trace(game: FoldedGame) -> list[dict]:
    """GEN-23, GEN-29, GEN-42: what the setup fixed and who, if anyone, moves first."""
    setup, rules, state = game.setup, game.rules, game.state
    steps = [
        step("setup", "GEN-23", variant=setup.variant, south=setup.south, north=setup.north),
        step("options", "GEN-29", options=dict(rules.options)),
    ]
    if setup.position is not None:
        steps.append(step("position", "GEN-42", round=state.round))
    else:
        steps.append(step("start", "GEN-23", seeds_per_hole=rules.seeds_per_hole))
    if state.awaiting == "race":
        steps.append(step("awaiting", "GEN-24", decision="race", why="the race decides who moves first"))
    elif state.awaiting == "opening":
        steps.append(step("awaiting", "GEN-25", decision="opening", player=mover_of(state).json))
    elif state.awaiting:
        steps.append(step("awaiting", "GEN-22", decision=state.awaiting))
    elif state.to_move is not None:
        steps.append(step("to_move", "GEN-42" if setup.position is not None else "GEN-23", player=state.to_move.json))
    return steps


def race_trace(before: FoldedGame, event: RaceRecorded, after: FoldedGame) -> list[dict]:
    """GEN-24, GAB-2: the recorded board and winner; GAB-8 may end the game at once."""
    steps = [step("race", "GEN-24", winner=event.winner), step("board_set", "GAB-2", holes=dict(event.holes))]
    return steps + _game_end_or_next(after, "GAB-8", step("to_move", "GAB-2", player=event.winner, why="won the race"))


def opening_trace(before: FoldedGame, event: OpeningPlayed, after: FoldedGame) -> list[dict]:
    """GEN-25 and the engine's own TUZ-4 steps."""
    steps = [step("opening_recorded", "GEN-25", choice=event.choice, player=mover_of(before.state).json)]
    before.rules.play_opening(before.state, event.choice, trace=steps)
    return steps


def lot_trace(before: FoldedGame, event: LotDrawn, after: FoldedGame) -> list[dict]:
    """GEN-26: the lot's winner gets the extra hole; then the match ends or a round is due."""
    rules, match = _round_rules(before), before.rules
    state = after.state
    assert isinstance(match, MatchRules) and state.takings is not None and state.hole_counts is not None  # GEN-26
    steps = [step("lot", "GEN-26", winner=event.winner, takings=pair(state.takings))]
    steps.append(step("hole_counts", rules["counts"], **pair(state.hole_counts)))
    next_round = step("awaiting", "GEN-27", decision="next_round")
    return steps + _game_end_or_next(after, match.match_end_rule, next_round)


def next_round_trace(before: FoldedGame, event: RoundStarted, after: FoldedGame) -> list[dict]:
    """GEN-27: the allocation (recorded, GEN-38, or the game's default) and a fresh board."""
    rules, board, state = _round_rules(before), before.rules.board, after.state
    steps = [step("next_round", "GEN-27", round=state.round, first_player=event.first_player)]
    changed = {board.holes[i]: o.json for i, o in enumerate(state.owners) if o != board.default_owners[i]}
    if event.allocation:
        steps.append(step("allocation", "GEN-38", recorded=True, owners_changed=changed))
    else:
        steps.append(step("allocation", rules["allocation"], recorded=False, owners_changed=changed))
    steps.append(step("board_reset", rules["reset"], seeds_per_hole=before.rules.seeds_per_hole))
    steps.append(step("to_move", "GEN-27", player=event.first_player))
    return steps


def result_trace(before: FoldedGame, event: ResultRecorded, after: FoldedGame) -> list[dict]:
    """GEN-28, GEN-32: a result decided off the board; the board stays as it was."""
    fields: dict[str, str | None] = {"kind": event.kind, "winner": event.winner}
    if event.note:
        fields["note"] = event.note
    return [
        step("result", "GEN-28", **fields),
        step("game_ended", "GEN-32", result=after.state.result.name, why="the board stays as it was"),
    ]


def _game_end_or_next(after: FoldedGame, end_rule: str, otherwise: dict) -> list[dict]:
    state = after.state
    if state.game_over:
        return [step("game_ended", end_rule, result=state.result.name, reason=state.result.reason)]
    return [otherwise]


def _round_rules(game: FoldedGame) -> dict:
    return ROUND_RULES.get(game.rules.name, GENERIC_ROUND_RULES)


_DECISION_TRACES: dict[type[Event], Callable[[FoldedGame, Any, FoldedGame], list[dict]]] = {
    Sowed: sowing_trace,
    RaceRecorded: race_trace,
    OpeningPlayed: opening_trace,
    LotDrawn: lot_trace,
    RoundStarted: next_round_trace,
    ResultRecorded: result_trace,
}

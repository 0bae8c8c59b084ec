"""What-if replays: the same recorded events under other option values (GEN-29).

When players dispute a position, the question is often whether the record is wrong
or whether they read a rule differently (Selus ``empty_wegue_landing``, SEL-A2). The
game's stored events are replayed twice, side by side: as recorded (the fold), and
under the other options, where every event is decided again with full validation
(``redecide``, i.e. ``commands.decide``). The report names the first event whose
position differs and the first event that becomes illegal, with both positions and
both traces, and both final results.

Pure over the fold: no Flask, no SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from recorder.core.events import Event, GameCreated, setup_of
from recorder.core.game import FoldedGame, history, start_game
from recorder.core.redecide import redecide_folded
from recorder.errors import RecorderError
from recorder.rules import rules_for
from recorder.rules.state import FIELDS, state_to_json

from .trace import trace_event

# Fields that differ by construction: the options themselves, and Selus's per-player
# first-turn bookkeeping, which exists only under one wegue_block reading (§8). What that
# bookkeeping changes shows up on the board, where it is compared.
IGNORED = ("options", "first_turn_pending")


def what_if(game_id: str, pairs: Iterable[tuple[int, Event]], options: dict) -> dict:
    """Replay under ``options`` (merged over the recorded ones); InvalidRecord for a bad option."""
    return replay_both(game_id, pairs, options)[0]


def replay_both(game_id: str, pairs: Iterable[tuple[int, Event]], options: dict) -> tuple[dict, dict]:
    """The report, and the games behind it for text views: ``difference`` (recorded, what-if
    after the first differing event, or None) and ``final`` (the two replays' last games)."""
    pairs = list(pairs)
    setup = setup_of(pairs[0][1])
    rules = rules_for(setup.variant, {**setup.options, **options})  # GEN-29, GEN-31: checked
    report = {
        "game_id": game_id,
        "recorded_options": dict(setup.options),
        "what_if_options": dict(rules.options),
        "events": len(pairs),
        "diverges": False,
        "first_difference": None,
        "first_illegal": None,
    }
    recorded = list(history(game_id, pairs))
    games: dict = {"difference": None}
    alternative = _replay(game_id, pairs, replace(setup, options=dict(rules.options)), recorded, report, games)
    report["recorded_final"] = final_view(recorded[-1])
    report["what_if_final"] = final_view(alternative) if alternative is not None else None
    report["replayed_to"] = alternative.version if alternative is not None else 0
    report["diverges"] = report["first_difference"] is not None or report["first_illegal"] is not None
    games["final"] = (recorded[-1], alternative)
    return report, games


def _replay(
    game_id: str, pairs: list, setup: GameCreated, recorded: list[FoldedGame], report: dict, games: dict
) -> FoldedGame | None:
    """Decide each event again under the new rules; fill the report's first difference and first illegal event."""
    try:
        game = start_game(game_id, setup)  # GEN-42: a position may be invalid under other options
    except RecorderError as error:
        report["first_illegal"] = _illegal(1, setup, error)
        return None
    memo: dict = {}  # legal moves and GEN-35 verdicts per (side, state): see _rules_view
    _compare(None, recorded[0], None, game, pairs[0], report, games, memo)
    for index in range(1, len(pairs)):
        seq, event = pairs[index]
        try:
            after = redecide_folded(game, event, seq)
        except RecorderError as error:
            report["first_illegal"] = _illegal(seq, event, error)
            return game
        _compare(recorded[index - 1], recorded[index], game, after, pairs[index], report, games, memo)
        game = after
    return game


def _compare(
    recorded_before,
    recorded_after: FoldedGame,
    before,
    after: FoldedGame,
    pair: tuple,
    report: dict,
    games: dict,
    memo: dict,
) -> None:
    if report["first_difference"] is not None or _same_state(recorded_after, after, memo):
        return
    recorded_view, what_if_view = position(recorded_after), position(after)
    if recorded_view == what_if_view:
        return
    games["difference"] = (recorded_after, after)
    seq, event = pair
    report["first_difference"] = {
        "seq": seq,
        "type": event.type,
        "payload": event.payload(),
        "recorded": recorded_view,
        "what_if": what_if_view,
        "recorded_trace": trace_event(recorded_before, event, recorded_after),
        "what_if_trace": trace_event(before, event, after),
    }


def _illegal(seq: int, event: Event, error: RecorderError) -> dict:
    return {"seq": seq, "type": event.type, "payload": event.payload(), "title": error.title, "detail": error.detail}


_COMPARED_FIELDS = [name for name in FIELDS if name not in IGNORED]


def _same_state(recorded: FoldedGame, what_if: FoldedGame, memo: dict) -> bool:
    """True when ``position`` would give the same view for both, found without building it.

    Building the view per event and side cost most of a what-if. Equal state values give
    equal views but for what the rules add: the legal moves and GEN-35's adjudication."""
    a, b = recorded.state, what_if.state
    if a != b and any(getattr(a, name) != getattr(b, name) for name in _COMPARED_FIELDS):
        return False  # the views may still agree: ``position`` decides
    return _rules_view(recorded, 0, memo) == _rules_view(what_if, 1, memo)


def _rules_view(game: FoldedGame, side: int, memo: dict) -> tuple:
    """What the rules add to a state's view: its legal moves and GEN-35's verdict (which
    plays a sowing). Asked once per (side, state): a retracted line returns to the same states."""
    key = (side, game.state)
    found = memo.get(key)
    if found is None:
        legal = tuple(sorted(game.rules.legal_moves(game.state)))
        found = memo[key] = (legal, bool(legal) and game.rules.needs_adjudication(game.state))
    return found


def position(game: FoldedGame) -> dict:
    """The whole state after an event, minus the options that differ by construction."""
    view = state_to_json(game.rules, game.state)
    for field in IGNORED:
        view.pop(field, None)
    return view


def final_view(game: FoldedGame) -> dict:
    """How the replay ended: the last event folded, the position and, if over, the result."""
    state = game.state
    return {
        "version": game.version,
        "game_over": state.game_over,
        "result": state.result.name if state.game_over else None,
        "result_reason": state.result.reason if state.game_over else None,
        "score": {"south": state.score[0], "north": state.score[1]} if state.score is not None else None,
        "position": position(game),
    }

"""The move list of one game in the notation (docs/notation.md), move by move (pure).

The game page lists the effective moves and lets a reader jump to any of them; each
entry is written exactly as the notation writes that move — ``12. S c1`` for a sowing
that starts turn 12, ``c3`` for a sowing that continues a turn (GEN-18), ``{lot north}``
for a decision — followed by a pass (``13. N --``) when one came after it (GEN-19). The
turn numbers come from ``turns.Line``, the same fold the notation writer uses, so the
list and an exported file can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from recorder.core.clocks import ThinkTimes
from recorder.core.events import CLOCK_STOP_TYPES, SIGNOFF_TYPES, Annotated, Event, MovesRetracted, Sowed, setup_of

from .turns import Line, Step
from .writer import decision_text, effective_events, side_letter


def move_list(game_id: str, events: Sequence[tuple[int, Event]]) -> list[dict]:
    """``[{"seq", "type", "notation", "player"?, "clock"?, "think_ms"?}]`` for each effective
    move after the setup; ``player`` for a sowing (who sowed), ``clock`` only for a move that
    carries a reading (TIME-2), ``think_ms`` for a sowing whose readings say what it cost
    its player's clock (``core.clocks.ThinkTimes``)."""
    kept = effective_events(list(events))
    setup = setup_of(kept[0][1])
    line, think = Line(game_id, setup), ThinkTimes(setup.metadata.get("time_control"))
    moves = []
    for seq, event in kept[1:]:
        step = line.apply(seq, event)
        used = think.after(event)
        if isinstance(event, (Annotated, MovesRetracted)) or event.type in CLOCK_STOP_TYPES | SIGNOFF_TYPES:
            continue  # comments and the clocks' pauses are not moves; the effective line holds no retraction
        move = {"seq": seq, "type": event.type, "notation": move_text(line, step)}
        if isinstance(event, Sowed):
            move["player"] = event.player
        clock = getattr(event, "clock", None)
        if clock is not None:
            move["clock"] = clock
        if used is not None:
            move["think_ms"] = used
        moves.append(move)
    return moves


def move_text(line: Line, step: Step) -> str:
    event = step.event
    if isinstance(event, Sowed):
        text = event.hole if step.new_turn is None else f"{step.new_turn}. {side_letter(step.side)} {event.hole}"
    else:
        text = "{" + decision_text(line, event) + "}"
    if step.pass_turn is not None:
        text += f" {step.pass_turn}. {side_letter(step.passer)} --"
    return text

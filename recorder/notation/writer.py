"""Games written in the notation (docs/notation.md): pure, from a game's events.

``write_game(events)`` gives one game's text: its tags, the effective line (what the
game's state is made of: retracted moves and the retractions themselves left out), and
the result token. With ``full_history=True`` it writes every recorded event, the
retracted moves and ``{retract N "reason"}`` included. The output is canonical: reading
it back and writing the result again gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from recorder.core.chain import canonical_json
from recorder.core.clocks import time_control_text
from recorder.core.events import (
    CLOCK_STOP_TYPES,
    SIGNOFF_TYPES,
    Annotated,
    ClocksPaused,
    Event,
    GameCreated,
    LotDrawn,
    MovesRetracted,
    OpeningPlayed,
    RaceRecorded,
    ResultRecorded,
    RoundStarted,
    Sowed,
    setup_of,
)
from recorder.core.game import history
from recorder.rules import find_variant
from recorder.rules.state import State

from .clock_text import clock_text, stop_text
from .grammar import is_plain_comment, quoted
from .turns import Line, Step

WIDTH = 79  # movetext lines are wrapped before this column, as in PGN
METADATA_TAGS = (("Event", "event"), ("Site", "site"), ("Date", "date"), ("Round", "round"))
LATE_METADATA_TAGS = (
    ("Tournament", "tournament_id"),
    ("Board", "board"),
    ("SouthPlayer", "south_player"),  # registry ids (recorder/players), when the game names them
    ("NorthPlayer", "north_player"),
)
SIDE_LETTERS = {"south": "S", "north": "N"}


def side_letter(side: str | None) -> str:
    """S or N for a turn mark; every mark the notation writes names its side."""
    if side is None:
        raise ValueError("a turn mark needs its side")
    return SIDE_LETTERS[side]


def result_token(state: State) -> str:
    """1-0 South won, 0-1 North won, 1/2-1/2 a draw, * not finished."""
    if not state.game_over:
        return "*"
    winner = state.result.winner
    return "1/2-1/2" if winner is None else ("1-0" if winner.json == "south" else "0-1")


def write_game(events: Sequence[tuple[int, Event]], *, full_history: bool = False) -> str:
    """One game's text, ending with a newline; ``events`` start with the setup (seq 1).
    The players' confirmations and disputes are no part of the notation: the game's log
    and its dossier carry them."""
    events = [(seq, event) for seq, event in events if event.type not in SIGNOFF_TYPES]
    kept = events if full_history else effective_events(events)
    setup = setup_of(kept[0][1])
    line = Line("export", setup, retractions=any(isinstance(event, MovesRetracted) for _, event in kept))
    units: list[str] = []
    for seq, event in kept[1:]:
        units.extend(_units(line, line.apply(seq, event)))
    result = result_token(line.state)
    return "\n".join(tag_lines(setup, result)) + "\n\n" + layout(units + [result]) + "\n"


def write_archive(games: Iterable[str]) -> Iterator[str]:
    """Games separated by one blank line: what a file of several games looks like."""
    for index, text in enumerate(games):
        yield text if index == 0 else "\n" + text


def effective_events(events: list[tuple[int, Event]]) -> list[tuple[int, Event]]:
    """The setup, the moves that were never retracted, the notes made on positions still
    on that line, and every pause and resume of the clocks (never withdrawn), in recorded
    order."""
    if not any(isinstance(event, MovesRetracted) for _, event in events):
        return events
    games = list(history("export", events))  # one fold: the games share their moves
    effective = {seq for seq, _ in games[-1].moves}
    kept = [events[0]]
    for (seq, event), before in zip(events[1:], games):
        # Every move below an effective one is effective: the latest one decides.
        top = before.moves.top_seq
        on_line = top is None or top in effective
        if seq in effective or (isinstance(event, Annotated) and on_line) or event.type in CLOCK_STOP_TYPES:
            kept.append((seq, event))
    return kept


def tag_lines(setup: GameCreated, result: str) -> list[str]:
    """The tag pairs, in a fixed order; optional metadata only when it is known."""
    meta = setup.metadata
    tags = [(name, meta[key]) for name, key in METADATA_TAGS if meta.get(key) is not None]
    tags += [("South", setup.south), ("North", setup.north), ("Result", result), ("Variant", setup.variant)]
    options = find_variant(setup.variant).OPTIONS
    tags += [(name, option_text(setup.options[name])) for name in options if name in setup.options]
    if setup.first_player is not None:
        tags.append(("FirstPlayer", setup.first_player))
    lines = [f"[{name} {tag_value(value)}]" for name, value in tags]
    if setup.position is not None:
        lines.append(f"[Position {canonical_json(setup.position)}]")
    lines += [f"[{name} {tag_value(meta[key])}]" for name, key in LATE_METADATA_TAGS if meta.get(key) is not None]
    if meta.get("time_control") is not None:
        lines.append(f"[TimeControl {quoted(time_control_text(meta['time_control']))}]")
    return lines


def tag_value(value) -> str:
    """A quoted string; the integers a tournament gives Round and Board stay integers."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else quoted(value)


def option_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _units(line: Line, step: Step) -> list[str]:
    event = step.event
    if event.type in CLOCK_STOP_TYPES:  # the brace holds its own reading
        return [stop_text(isinstance(event, ClocksPaused), getattr(event, "clock", None))]
    if isinstance(event, Sowed):
        units = [event.hole if step.new_turn is None else f"{step.new_turn}. {side_letter(step.side)} {event.hole}"]
    else:
        units = [_brace(line, event)]
    clock = getattr(event, "clock", None)  # TIME-2: a reading, right after its sowing or decision
    if clock is not None:
        units.append(clock_text(clock))
    if step.pass_turn is not None:
        units.append(f"{step.pass_turn}. {side_letter(step.passer)} --")
    if step.round_ended:
        units.append(_round_remark(line.state))
    return units


def _brace(line: Line, event: Event) -> str:
    if isinstance(event, Annotated):
        return "{" + (event.text if is_plain_comment(event.text) else quoted(event.text)) + "}"
    return "{" + decision_text(line, event) + "}"


def decision_text(line: Line, event: Event) -> str:
    if isinstance(event, RaceRecorded):
        holes = " ".join(f"{hole}={event.holes[hole]}" for hole in line.rules.board.holes)
        return f"race {event.winner} {holes}"
    if isinstance(event, OpeningPlayed):
        return f"opening {event.choice}"
    if isinstance(event, LotDrawn):
        return f"lot {event.winner}"
    if isinstance(event, RoundStarted):
        text = f"round {line.state.round} {event.first_player}"
        if event.allocation:
            text += " alloc " + " ".join(f"{side}={','.join(event.allocation[side])}" for side in ("south", "north"))
        return text
    if isinstance(event, ResultRecorded):
        text = f"result {event.kind} {event.winner or 'draw'}"
        return text if event.note is None else f"{text} {quoted(event.note)}"
    if isinstance(event, MovesRetracted):
        return f"retract {event.count} {quoted(event.reason)}"
    raise TypeError(f"not a decision: {event!r}")


def _round_remark(state: State) -> str:
    """A derived fact for readers (never read back): how the round just ended."""
    takings = state.takings
    assert takings is not None  # a round that is over has its takings
    text = f"; round {state.round} over: south took {takings[0]}, north {takings[1]}"
    if state.hole_counts is not None:
        text += f"; holes {state.hole_counts[0]}-{state.hole_counts[1]}"
    return text


def layout(units: list[str], width: int = WIDTH) -> str:
    """Units joined by spaces in lines shorter than ``width``; a remark ends its line."""
    lines: list[str] = []
    current: str | None = None
    for unit in units:
        if current is not None and len(current) + 1 + len(unit) > width:
            lines.append(current)
            current = None
        current = unit if current is None else f"{current} {unit}"
        if unit.startswith(";"):
            lines.append(current)
            current = None
    if current is not None:
        lines.append(current)
    return "\n".join(lines)

"""A what-if replay as text for people: what changed, where the replays part, and how each ends.

``recorder what-if`` prints this (``--json`` prints the report of ``whatif.what_if``).
It names the options that differ, the first event after which the two positions
differ (with both boards side by side, drawn by ``render.text.board_text``), the first
event that becomes illegal, and both outcomes. Pure: no Flask, no SQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from recorder.core.events import Event
from recorder.core.game import FoldedGame
from recorder.render.text import board_text

from .whatif import replay_both

GAP = 4


def what_if_text(game_id: str, pairs: Iterable[tuple[int, Event]], options: dict) -> str:
    """The readable comparison; InvalidRecord for a bad option, as ``what_if``."""
    report, games = replay_both(game_id, pairs, options)
    lines = [f"game {game_id}, replayed under {_changed(report)}"]
    lines.append(f"replayed {report['replayed_to']} of {report['events']} events")
    lines.append("")
    lines.extend(_difference(report, games["difference"]))
    lines.extend(_illegal(report))
    lines.append("outcomes:")
    recorded, alternative = games["final"]
    lines.append(f"  as recorded: {_outcome(recorded)}")
    lines.append(f"  what if:     {_outcome(alternative)}")
    return "\n".join(lines) + "\n"


def _changed(report: dict) -> str:
    before, after = report["recorded_options"], report["what_if_options"]
    changes = [
        f"{name} {json.dumps(before[name])} -> {json.dumps(after[name])}"
        for name in after
        if before[name] != after[name]
    ]
    return ", ".join(changes) if changes else "the recorded options (nothing changed)"


def _difference(report: dict, games: tuple[FoldedGame, FoldedGame] | None) -> list[str]:
    first = report["first_difference"]
    if first is None or games is None:
        return ["no event gives a different position under these options", ""]
    recorded, alternative = games
    lines = [f"first difference: after event {first['seq']}, {describe(first['type'], first['payload'])}"]
    recorded_board, alternative_board = _board(recorded), _board(alternative)
    lines.extend(side_by_side(recorded_board, alternative_board, "as recorded", "what if"))
    if recorded_board == alternative_board:  # the difference is off the board: say what it is
        lines.append("the boards are drawn alike; what differs:")
        lines.extend(_fields_that_differ(first["recorded"], first["what_if"]))
    return [*lines, ""]


def _fields_that_differ(recorded: dict, alternative: dict) -> list[str]:
    """Each field of the two positions that differs, as ``  legal moves: c2 d2 | a2 c2 d2``."""
    names = [name for name in {**recorded, **alternative} if recorded.get(name) != alternative.get(name)]
    return [
        f"  {name.replace('_', ' ')}: {_value(recorded.get(name))} | {_value(alternative.get(name))}" for name in names
    ]


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return " ".join(map(str, value)) or "none"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _illegal(report: dict) -> list[str]:
    illegal = report["first_illegal"]
    if illegal is None:
        return []
    what = describe(illegal["type"], illegal["payload"])
    return [f"first illegal event: {illegal['seq']}, {what}: {illegal['detail']}", ""]


def describe(kind: str, payload: dict) -> str:
    """An event in a few words: ``sow f3 (north)``, ``lot {"winner": "south"}``."""
    if kind == "sowed":
        return f"sow {payload['hole']} ({payload['player']})"
    return f"{kind} {json.dumps(payload, ensure_ascii=False)}" if payload else kind


def _board(game: FoldedGame) -> str:
    return board_text(game.rules, game.state)


def _outcome(game: FoldedGame | None) -> str:
    if game is None:
        return "no replay: the game cannot start under these options"
    state, outcome = game.state, game.state.outcome
    if outcome is None:
        return f"not over after event {game.version}"
    text = f"{outcome.name} ({outcome.reason})"
    if state.score is not None:
        text += f", score south {state.score[0]} north {state.score[1]}"
    return text


def side_by_side(left: str, right: str, left_title: str, right_title: str) -> list[str]:
    """Two text blocks in columns, each under its title."""
    left_lines, right_lines = [left_title, *left.splitlines()], [right_title, *right.splitlines()]
    width = max(len(line) for line in left_lines) + GAP
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    return [f"{a:<{width}}{b}".rstrip() for a, b in zip(left_lines, right_lines)]

"""Pure text views of a position: the board as the spec draws it (row 3/2 on top)."""

from __future__ import annotations

from recorder.rules.base import Rules, mover_of
from recorder.rules.state import State

SPECIAL_MARK = {"south": "S", "north": "N"}


def board_text(rules: Rules, state: State, last_hole: str | None = None) -> str:
    """The board with `4S`-style marks for special holes (owner's initial), stores and who moves.

    It shows what the SVG diagram shows (recorder/render/svg.py): the special holes with their
    kind and owner, the holes whose owner differs from the default, both stores, and the
    hole the last sowing lifted, marked ``*``.
    """
    board = rules.board
    lines = ["      " + "".join(f"{letter:>5}" for letter in "abcdef")]
    for row in range(board.rows, 0, -1):
        names = [f"{letter}{row}" for letter in "abcdef"]
        cells = [_cell(rules, state, board.index[name]) + ("*" if name == last_hole else "") for name in names]
        lines.append(f"  {row}:  " + "".join(f"{cell:>5}" for cell in cells))
    lines.append(f"  stores: south {state.stores[0]}  north {state.stores[1]}")
    lines.append("  " + _status(rules, state))
    owners = [f"{board.holes[i]}:{o.json}" for i, o in enumerate(state.owners) if o != board.default_owners[i]]
    if owners:
        lines.append("  owners changed: " + " ".join(owners))
    specials = [f"{board.holes[i]}:{o.json}" for i, o in enumerate(state.specials) if o is not None]
    if specials:
        lines.append(f"  {rules.special_kind}s: " + " ".join(specials))
    if last_hole is not None:
        lines.append(f"  last sowing: {last_hole} (*)")
    return "\n".join(lines)


def _cell(rules: Rules, state: State, index: int) -> str:
    owner = state.specials[index]
    return f"{state.holes[index]}{SPECIAL_MARK[owner.json]}" if owner is not None else str(state.holes[index])


def _status(rules: Rules, state: State) -> str:
    if state.game_over:
        return f"game over: {state.result.name} ({state.result.reason})"
    if state.awaiting:
        return f"round {state.round}: awaiting {state.awaiting}"
    return f"round {state.round}: {mover_of(state).json} to move"

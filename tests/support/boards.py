"""Board helpers the rule tests of every variant share.

- Diagrams as the spec draws them: rows of counts, columns a..f, a suffix ``S`` or ``N``
  marking a special hole (wegue, walda, tuz) and its owner; ``position`` builds the
  §8 state from them (GEN-42).
- Moves in the two forms the tests read: the spec's ``play`` items (examples.json: a
  hole name is a sowing, an object with ``decision`` a decision) and fixture commands
  (``{"type": ...}``). Both go through the fold's own ``apply_move``; a sowing must be
  legal and a decision awaited, as the deciders require.
- ``lot_awaited(south, north)``: a 2×6 round just ended with those takings, the lot due.
- ``spec_examples(variant)`` and ``fixture_paths(variant)``: the shared vectors and the
  recorded games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from recorder.core.events import Event, LotDrawn, OpeningPlayed, RaceRecorded, ResultRecorded, RoundStarted, Sowed
from recorder.core.game import apply_move
from recorder.rules.base import Rules
from recorder.rules.playout import random_sowing
from recorder.rules.positions import position_from_json
from recorder.rules.state import State, state_to_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "rules" / "examples.json"
FIXTURES = ROOT / "fixtures" / "games"
DECISIONS = {
    "race": RaceRecorded,
    "opening": OpeningPlayed,
    "lot": LotDrawn,
    "next_round": RoundStarted,
    "result": ResultRecorded,
}


# -- The spec's vectors and the recorded games ------------------------------------------


@cache
def _all_examples() -> tuple[dict, ...]:
    return tuple(json.loads(EXAMPLES.read_text()))


def spec_examples(variant: str) -> list[dict]:
    """The worked examples of ``variant`` in the shared rules' examples.json."""
    return [example for example in _all_examples() if example["variant"] == variant]


def fixture_paths(variant: str) -> list[Path]:
    return sorted(FIXTURES.glob(f"{variant}-*.json"))


# -- Diagrams and positions ---------------------------------------------------------------


def parse_rows(rows: Iterable[tuple[str, str]], kind: str) -> tuple[dict[str, int], dict[str, dict]]:
    """Counts and special holes from ``(row number, "0 2 3S ...")`` pairs, columns a..f."""
    holes: dict[str, int] = {}
    specials: dict[str, dict] = {}
    for row, text in rows:
        for letter, cell in zip("abcdef", text.split()):
            name = f"{letter}{row}"
            if cell[-1] in "SN":
                specials[name] = {"kind": kind, "owner": "south" if cell[-1] == "S" else "north"}
                cell = cell[:-1]
            holes[name] = int(cell)
    return holes, specials


def numbered_rows(text: str) -> list[tuple[str, str]]:
    """The rows of a three-row diagram drawn ``3: …`` / ``2: …`` / ``1: …``."""
    return [(row.strip(), cells) for row, cells in (line.split(":") for line in text.strip().splitlines())]


def position(
    rules: Rules,
    holes: dict[str, int],
    specials: dict[str, dict] | None = None,
    stores: tuple[int, int] = (0, 0),
    to_move: str = "south",
    first_turn: bool = False,
    **fields,
) -> State:
    """A §8 position (GEN-42) from named hole counts."""
    data = {
        "holes": holes,
        "specials": specials or {},
        "stores": {"south": stores[0], "north": stores[1]},
        "to_move": to_move,
        "first_turn_of_round": first_turn,
        **fields,
    }
    return position_from_json(rules, data)


def two_rows(state: State) -> tuple[str, str]:
    """A two-row board as (row 2, row 1), each a..f, special holes marked S or N."""
    cells = [f"{seeds}{'' if owner is None else 'SN'[owner]}" for seeds, owner in zip(state.holes, state.specials)]
    return " ".join(cells[6:]), " ".join(cells[:6])


def legal(rules: Rules, state: State) -> list[str]:
    return sorted(rules.board.holes[i] for i in rules.legal_moves(state))


# -- Moves ----------------------------------------------------------------------------------


def event_of(rules: Rules, state: State, item) -> Event:
    """The event a play item or a fixture command records, checked as the deciders check it."""
    if isinstance(item, str) or item.get("type") == "sow":
        name = item if isinstance(item, str) else item["hole"]
        assert state.to_move is not None and rules.board.hole(name) in rules.legal_moves(state), f"{name} is not legal"
        return Sowed(rules.board.holes[rules.board.hole(name)], state.to_move.json)
    kind = item["decision"] if "decision" in item else item["type"]
    assert kind == "result" or state.awaiting == kind, f"{kind} is not awaited"
    assert kind in rules.DECISIONS, f"{rules.name} has no {kind} decision"
    if kind == "race":
        assert rules.race_board_problem(item["holes"]) is None  # GEN-37
    fields = {k: v for k, v in item.items() if k not in ("decision", "type")}
    return DECISIONS[kind](**fields)


def play(rules: Rules, state: State, item) -> State:
    """One play item or fixture command applied to ``state``."""
    return apply_move(rules, state, event_of(rules, state, item))


def replay(rules: Rules, state: State, items: Iterable) -> State:
    for item in items:
        state = play(rules, state, item)
        assert state.seeds == rules.total_seeds
    return state


def sown_both_ways(rules: Rules, state: State, rng, trace: list) -> State | None:
    """A random legal sowing from ``state``, played traced (its steps into ``trace``) and
    untraced (replay's route, which ends most turns in one step: rules/base.py,
    ``turn_simply_ended``), the two held equal; the state after it, None when there is none."""
    sown = random_sowing(rules, state, rng, trace)
    if sown is None:
        return None
    hole, traced = sown
    assert rules.play(state, hole) == traced
    return traced


def sow(rules: Rules, state: State, *names: str, trace: list | None = None) -> State:
    """Legal sowings, one after another (a trace, if given, records them all)."""
    for name in names:
        assert rules.board.hole(name) in rules.legal_moves(state), f"{name} is not legal here"
        state = rules.play(state, rules.board.hole(name), trace)
    return state


def spec_view(rules: Rules, state: State, keep: Iterable[str] = ()) -> dict:
    """``state_to_json`` in the shape of examples.json's ``after``: without the fields it
    does not carry (but those in ``keep``), and legal moves only while someone is to move."""
    out = state_to_json(rules, state)
    for extra in {"variant", "options", "round", "rounds", "result_reason"} - set(keep):
        out.pop(extra, None)
    if not out["legal_moves"]:
        out.pop("legal_moves")
    return out


def lot_awaited(south: int, north: int) -> dict:
    """The §8 position of a 2×6 round that has just ended with these takings (every seed in
    the stores), awaiting the lot for the extra hole (GEN-26, LW-12, TUZ-12)."""
    return {
        "holes": {f"{c}{r}": 0 for r in (1, 2) for c in "abcdef"},
        "stores": {"south": south, "north": north},
        "to_move": None,
        "first_turn_of_round": False,
        "awaiting": "lot",
        "round_over": True,
        "takings": {"south": south, "north": north},
    }

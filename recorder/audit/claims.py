"""Position claims: did exactly this position ever stand in the game, and when?

A player disputes a position by claiming one in the state's §8 shape: ``holes``
(every hole), and optionally ``specials``, ``owners`` (differences from GEN-6 only),
``stores`` and ``to_move``. A field left out of the claim is not compared. The game is
folded event by event (``game.history``); every point where the claim equals the
position is listed, marked ``effective`` when that position is still on the record's
line of play (no later retraction withdrew a move that made it). When none matches,
the closest point is given with the holes (and other fields) that differ.

Pure over the fold: no Flask, no SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from recorder.core.events import Event
from recorder.core.game import FoldedGame, history
from recorder.errors import InvalidRecord
from recorder.rules.base import Rules
from recorder.rules.state import pair

COMPARED = ("specials", "owners", "stores", "to_move")


def check_claim(rules: Rules, claim: dict) -> None:
    """The claim names the game's holes exactly once (GEN-5) and special holes of its kind (GEN-8)."""
    names = set(rules.board.holes)
    if set(claim["holes"]) != names:
        raise InvalidRecord(f"a claim names every hole of the {rules.board.name} board once", field="holes")
    for field in ("specials", "owners"):
        unknown = sorted(set(claim.get(field) or {}) - names)
        if unknown:
            raise InvalidRecord(f"{unknown[0]!r} is not a hole of this board (GEN-5)", field=field)
    for special in (claim.get("specials") or {}).values():
        if special.get("kind") != rules.special_kind:
            raise InvalidRecord(f"{rules.name} has no {special.get('kind')!r} holes (GEN-8)", field="specials")


def find_position(game_id: str, pairs: Iterable[tuple[int, Event]], claim: dict) -> dict:
    """Every point where the claimed position stood, or the closest one and how it differs."""
    pairs = list(pairs)
    matches: list[tuple[dict, int | None]] = []
    closest: tuple[tuple, dict] | None = None
    game: FoldedGame | None = None
    claimed_holes = None
    for (seq, event), game in zip(pairs, history(game_id, pairs)):
        if claimed_holes is None:
            claimed_holes = tuple(claim["holes"].get(hole) for hole in game.rules.board.holes)
        if matches and game.state.holes != claimed_holes:
            continue  # no match, and the closest point only matters while nothing matches
        position = position_view(game, claim)
        differences = differences_from(claim, position)
        point = {"seq": seq, "type": event.type, "round": game.state.round}
        if not differences:
            matches.append((point, game.moves.top_seq))
        elif not matches:
            key = _distance(differences, seq)
            if closest is None or key < closest[0]:
                closest = (key, {**point, "differences": differences, "position": position_view(game)})
    # A point is on the final line when its latest effective move still is (the moves
    # below it are shared with it); before any move, every line passes through it.
    final = {move_seq for move_seq, _ in game.moves} if game is not None else set()
    listed = [{**point, "effective": top is None or top in final} for point, top in matches]
    return {
        "game_id": game_id,
        "claim": claim,
        "stood": bool(listed),
        "matches": listed,
        "closest": None if listed or closest is None else _closest(closest),
    }


def position_view(game: FoldedGame, claim: dict | None = None) -> dict:
    """The compared fields of the position after an event, in the §8 shape (as ``state_to_json``):
    the holes, and the other fields the claim names (all of them without a claim)."""
    board, state, kind = game.rules.board, game.state, game.rules.special_kind
    view: dict[str, Any] = {"holes": dict(zip(board.holes, state.holes))}
    wanted = COMPARED if claim is None else [field for field in COMPARED if field in claim]
    for field in wanted:  # only what is compared: a claim is checked against every event
        if field == "specials":
            view[field] = {
                board.holes[i]: {"kind": kind, "owner": o.json} for i, o in enumerate(state.specials) if o is not None
            }
        elif field == "owners":
            view[field] = {board.holes[i]: o.json for i, o in enumerate(state.owners) if o != board.default_owners[i]}
        elif field == "stores":
            view[field] = pair(state.stores)
        else:
            view[field] = state.to_move.json if state.to_move is not None else None
    return view


def differences_from(claim: dict, position: dict) -> dict:
    """``{field: ...}`` for every claimed field that differs; holes are listed one by one."""
    differences: dict[str, Any] = {}
    holes = {
        hole: {"claimed": count, "recorded": position["holes"][hole]}
        for hole, count in claim["holes"].items()
        if position["holes"][hole] != count
    }
    if holes:
        differences["holes"] = holes
    for field in COMPARED:
        if field in claim and claim[field] != position[field]:
            differences[field] = {"claimed": claim[field], "recorded": position[field]}
    return differences


def _distance(differences: dict, seq: int) -> tuple:
    """Fewest differing holes, then fewest seeds out of place, then fewest other fields, then earliest."""
    holes = differences.get("holes", {})
    seeds = sum(abs(d["claimed"] - d["recorded"]) for d in holes.values())
    return len(holes), seeds, len(differences) - (1 if holes else 0), seq


def _closest(found: tuple[tuple, dict]) -> dict:
    key, point = found
    return {**point, "holes_differing": key[0], "seeds_out_of_place": key[1]}

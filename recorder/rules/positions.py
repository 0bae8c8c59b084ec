"""Games that start from a given position (GEN-42): the §8 state shape, checked strictly.

Problems, test vectors and disputed positions start here instead of the standard
start. Every hole must be named once, counts are integers ≥ 0 adding up to the
variant's total, special holes only where the game has them, and the player to move
must be able to sow (passes are never recorded, GEN-20).
"""

from __future__ import annotations

from typing import Any

from recorder.errors import InvalidRecord

from .base import Rules
from .board import PLAYERS, Player
from .rounds import count_holes, counts_after_lot
from .state import RoundRecord, State, owned_counts
from .values import AWAITING_KINDS, Awaiting, Hole

FIELDS = {
    "holes",
    "specials",
    "owners",
    "stores",
    "to_move",
    "first_turn_of_round",
    "awaiting",
    "no_return",
    "first_turn_pending",
    "round",
    "round_over",
    "takings",
    "hole_counts",
}


# GEN-42: what the service renders beside the position (rules/state.py). A rendered state
# is accepted as it stands: the derived fields are checked against the position, the
# record's own (its version, its round table) describe how it got there and are dropped.
RENDERED = {"variant", "options", "legal_moves", "needs_adjudication", "rounds", "version", "position_text"}


def position_from_json(rules: Rules, data: Any) -> State:
    """Build the State a game starts from; InvalidRecord names the first thing wrong."""
    _require(isinstance(data, dict), "position must be an object")
    unknown = sorted(set(data) - FIELDS - RENDERED)
    _require(not unknown, f"unknown position field {unknown[:1]}; allowed: {', '.join(sorted(FIELDS))}")
    for name in ("holes", "stores", "to_move", "first_turn_of_round"):
        _require(name in data, f"position needs {name!r}")
    holes = _holes(rules, data["holes"])
    stores = _pair(data["stores"], "stores")
    _require(sum(holes) + sum(stores) == rules.total_seeds, f"seeds must add up to {rules.total_seeds}")
    round_number = data.get("round", 1)
    _require(_is_int(round_number) and round_number >= 1, "round must be an integer ≥ 1")
    state = State(
        holes=holes,
        owners=_owners(rules, data.get("owners", {}), round_number),
        specials=_specials(rules, data.get("specials", {})),
        stores=stores,
        to_move=_player_or_none(data["to_move"], "to_move"),
        first_turn_of_round=_bool(data["first_turn_of_round"], "first_turn_of_round"),
        round=round_number,
    )
    state = _decision_fields(rules, state, data)
    state = _check_playable(rules, state)
    _check_rendered(rules, state, data)
    return state


def position_only(data: dict[str, Any]) -> dict[str, Any]:
    """The position's own fields, without what a rendered state adds (stored at setup)."""
    return {name: value for name, value in data.items() if name in FIELDS}


def _check_rendered(rules: Rules, state: State, data: dict[str, Any]) -> None:
    """A rendered state's derived fields must say what this position derives."""
    _require(
        data.get("variant", rules.name) == rules.name, f"the position is of {data.get('variant')!r}, not {rules.name}"
    )
    _require(
        data.get("options", rules.options) == rules.options,
        f"the position's options are not the game's: {rules.options}",
    )
    if "legal_moves" in data:
        legal = sorted(rules.board.holes[i] for i in rules.legal_moves(state))
        _require(data["legal_moves"] == legal, f"legal_moves must be {legal} in this position")
    if "needs_adjudication" in data:
        _require(data["needs_adjudication"] is rules.needs_adjudication(state), "needs_adjudication does not hold here")
    _require(isinstance(data.get("rounds", []), list), "rounds must be a list")
    _require(_is_int(data.get("version", 1)), "version must be an integer")


def _decision_fields(rules: Rules, state: State, data: dict[str, Any]) -> State:
    awaiting = _awaiting(data.get("awaiting"))
    _require(awaiting is None or awaiting in rules.DECISIONS, f"{rules.name} never awaits {awaiting!r}")
    state = state._replace(awaiting=awaiting)
    if "no_return" in data and data["no_return"] is not None:
        _require(rules.name == "qelat", "no_return exists only in Qelat")
        state = state._replace(no_return=_hole(rules, data["no_return"]))
    state = state._replace(first_turn_pending=_pending(rules, state, data))
    lot_winner = None
    if data.get("round_over", False) or awaiting in ("lot", "next_round"):
        state, lot_winner = _round_over(rules, state, data)
    if rules.is_match:
        first = state.to_move if state.first_turn_of_round else None
        record = RoundRecord(state.round, first, owned_counts(state.owners), state.takings, lot_winner)
        state = state._replace(rounds=(record,))
    return state


def _awaiting(value: Any) -> Awaiting | None:
    for kind in AWAITING_KINDS:
        if value == kind and isinstance(value, str):
            return kind
    _require(value is None, f"unknown awaiting {value!r}")
    return None


def _round_over(rules: Rules, state: State, data: dict[str, Any]) -> tuple[State, Player | None]:
    _require(rules.is_match, f"{rules.name} has no rounds to be over")
    _require(state.awaiting in ("lot", "next_round"), "a finished round awaits a lot or next_round")
    _require(state.to_move is None, "to_move must be null while a decision is awaited")
    takings = _pair(data.get("takings"), "takings")
    _require(sum(takings) == rules.total_seeds, f"takings must add up to {rules.total_seeds}")
    counts = count_holes(takings, rules.seeds_per_hole)
    lot_winner = None
    if state.awaiting == "lot":
        _require(counts is None, "a lot is awaited only when the remainders tie (GEN-26)")
        _require(data.get("hole_counts") is None, "the hole counts are not known before the lot")
    elif counts is None:
        # GEN-26: after the lot, the counts it gave say who won it.
        lot_winner = _lot_winner(rules, takings, data.get("hole_counts"))
        counts = counts_after_lot(takings, rules.seeds_per_hole, lot_winner)
    elif data.get("hole_counts") is not None:
        _require(_pair(data["hole_counts"], "hole_counts") == counts, f"hole_counts must be {counts}")
    _require(counts is None or 0 not in counts, "a round that leaves a player no hole ends the match")
    return state._replace(round_over=True, takings=takings, hole_counts=counts), lot_winner


def _lot_winner(rules: Rules, takings: tuple[int, int], hole_counts: Any) -> Player:
    """The player whose extra hole ``hole_counts`` shows, when the remainders tied."""
    _require(hole_counts is not None, "tied remainders need the lot's hole_counts before next_round")
    given = _pair(hole_counts, "hole_counts")
    for player in PLAYERS:
        if counts_after_lot(takings, rules.seeds_per_hole, player) == given:
            return player
    _require(False, "hole_counts must give the extra hole to the lot's winner (GEN-26)")
    raise AssertionError("unreachable")


def _check_playable(rules: Rules, state: State) -> State:
    if state.awaiting in ("race", "lot", "next_round"):
        _require(state.to_move is None, f"to_move must be null while {state.awaiting} is awaited")
        return state
    mover = state.to_move
    if mover is None:
        raise InvalidRecord("to_move may be null only while race, lot or next_round is awaited", field="position")
    if state.awaiting == "opening":
        _require(state.round == 1, "the opening happens in round 1 only (TUZ-4)")
        return state
    _require(
        rules.legal_moves(state),
        f"{mover.json} cannot sow in this position; name the player who moves next (GEN-20)",
    )
    return state


def _holes(rules: Rules, holes: Any) -> tuple[int, ...]:
    _require(isinstance(holes, dict), "holes must be an object of hole: count")
    names = rules.board.holes
    _require(set(holes) == set(names), f"holes must name every hole exactly once: {' '.join(names)}")
    for name in names:
        _require(_is_int(holes[name]) and holes[name] >= 0, f"hole {name} must hold an integer ≥ 0")
    return tuple(holes[name] for name in names)


def _specials(rules: Rules, specials: Any) -> tuple[Player | None, ...]:
    _require(isinstance(specials, dict), "specials must be an object")
    _require(not specials or rules.special_kind, f"{rules.name} has no special holes")
    owners: list[Player | None] = [None] * rules.board.size
    for name, special in specials.items():
        _require(isinstance(special, dict) and set(special) == {"kind", "owner"}, "a special is {kind, owner}")
        _require(special["kind"] == rules.special_kind, f"special holes in {rules.name} are {rules.special_kind}s")
        owners[_hole(rules, name)] = _player(special["owner"], f"owner of {name}")
    return tuple(owners)


def _owners(rules: Rules, owners: Any, round_number: int) -> tuple[Player, ...]:
    _require(isinstance(owners, dict), "owners must be an object of hole: player")
    _require(not owners or (rules.is_match and round_number > 1), "ownership differs from GEN-6 only after round 1")
    if not owners:
        return rules.board.default_owners  # the same object, which the engine recognises quickly
    result = list(rules.board.default_owners)
    for name, owner in owners.items():
        result[_hole(rules, name)] = _player(owner, f"owner of {name}")
    return tuple(result)


def _pending(rules: Rules, state: State, data: dict[str, Any]) -> tuple[Player, ...]:
    if not rules.tracks_first_turns_per_player:
        _require("first_turn_pending" not in data, "first_turn_pending applies only to Selus first_turn_each_player")
        return ()
    if "first_turn_pending" not in data:
        return PLAYERS if state.first_turn_of_round else ()
    pending = data["first_turn_pending"]
    _require(isinstance(pending, list), "first_turn_pending must be a list of players")
    players = {_player(p, "first_turn_pending") for p in pending}
    return tuple(p for p in PLAYERS if p in players)


def _hole(rules: Rules, name: Any) -> Hole:
    _require(isinstance(name, str) and name in rules.board.index, rules.board.unknown_hole(name))
    return rules.board.index[name]


def _player(value: Any, what: str) -> Player:
    _require(value in ("south", "north"), f"{what} must be 'south' or 'north'")
    return Player.parse(value)


def _player_or_none(value: Any, what: str) -> Player | None:
    return None if value is None else _player(value, what)


def _pair(value: Any, what: str) -> tuple[int, int]:
    _require(isinstance(value, dict) and set(value) == {"south", "north"}, f"{what} must be {{south, north}}")
    _require(all(_is_int(v) and v >= 0 for v in value.values()), f"{what} must be integers ≥ 0")
    return value["south"], value["north"]


def _bool(value: Any, what: str) -> bool:
    _require(isinstance(value, bool), f"{what} must be true or false")
    return bool(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _require(condition: Any, message: str) -> None:
    if not condition:
        raise InvalidRecord(message, field="position")

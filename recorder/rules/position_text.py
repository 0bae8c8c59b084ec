"""A position in one line of text, as FEN is for chess (docs/notation.md, "Position text").

    4,4,4,4,4,4/4,4,4,4,4,4 c2:S - 10-6 N 1 first

Six fields and an optional seventh, separated by single spaces:

1. the holes' seeds, row 1 first (``a1,b1,…,f1/a2,…``: board order, GEN-5);
2. the special holes (wegues, waldas, tuzes) and their owners, ``c2:S,d3:N``, or ``-``;
3. the holes owned otherwise than at the start (GEN-6, after round 1), ``a1:N``, or ``-``;
4. the stores, South's then North's, ``10-6``;
5. the side to move, ``S`` or ``N``, or ``-`` while a decision is awaited;
6. the round, from 1;
7. optional flags: ``first`` (the first turn of the round), ``awaiting:race|opening|lot|next_round``,
   ``no_return:<hole>`` (Qelat), ``pending:S|N|SN|-`` (Selus first turns, when not the default).

The first six fields are the position's **key**: the index of positions reached
(``recorder search``, ``GET /api/positions``) matches on them. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from recorder.errors import InvalidRecord

from .base import Rules
from .board import PLAYERS, Player
from .state import State
from .values import is_whole_number

SIDES = {Player.SOUTH: "S", Player.NORTH: "N"}
PLAYER_OF = {"S": "south", "N": "north"}
AWAITED = ("race", "opening", "lot", "next_round")
# "{},{},{},{},{},{}/{},…": the seed counts of 2 or 3 rows of six in one format call.
_ROWS_FORMAT = {rows: "/".join([",".join(["{}"] * 6)] * rows) for rows in (2, 3)}


def position_text(rules: Rules, state: State) -> str:
    """The state's one-line text (canonical: the same state always gives the same text)."""
    flags = _flags(rules, state)
    return position_key(rules, state) + (f" {flags}" if flags else "")


def position_key(rules: Rules, state: State) -> str:
    """The first six fields: what the position index matches on. Import computes one per
    event, so the usual cases (no special hole, default owners) skip the per-hole scans."""
    board = rules.board
    rows = _ROWS_FORMAT[board.rows].format(*state.holes)
    specials = state.specials
    marks = "-"
    if specials.count(None) != len(specials):
        marks = ",".join([f"{board.holes[i]}:{SIDES[owner]}" for i, owner in enumerate(specials) if owner is not None])
    owners, moved = state.owners, "-"
    if owners != board.default_owners:
        defaults = board.default_owners
        moved = ",".join([f"{board.holes[i]}:{SIDES[owner]}" for i, owner in enumerate(owners) if owner != defaults[i]])
    side = SIDES[state.to_move] if state.to_move is not None else "-"
    return f"{rows} {marks} {moved} {state.stores[0]}-{state.stores[1]} {side} {state.round}"


def _flags(rules: Rules, state: State) -> str:
    flags = ["first"] if state.first_turn_of_round else []
    if state.awaiting is not None:
        flags.append(f"awaiting:{state.awaiting}")
    if state.no_return is not None:
        flags.append(f"no_return:{rules.board.holes[state.no_return]}")
    if rules.tracks_first_turns_per_player:
        default = PLAYERS if state.first_turn_of_round else ()
        if state.first_turn_pending != default:
            flags.append("pending:" + ("".join(SIDES[p] for p in state.first_turn_pending) or "-"))
    return ",".join(flags)


def key_of(text: str) -> str:
    """The key of a position text: its first six fields, white space normalised."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise _bad(f"a position text has 6 or 7 fields separated by spaces, not {len(fields)}")
    return " ".join(fields[:6])


def position_json(rules: Rules, text: Any) -> dict[str, Any]:
    """The §8 JSON shape of a position text (what ``positions.position_from_json`` takes);
    InvalidRecord names the first field that is wrong."""
    if not isinstance(text, str):
        raise _bad("a position text is a string")
    fields = text.split()
    key_of(text)
    holes_text, specials, owners, stores, side, round_text = fields[:6]
    out: dict[str, Any] = {
        "holes": _holes(rules, holes_text),
        "specials": {
            hole: {"kind": rules.special_kind, "owner": owner} for hole, owner in _marks(specials, "specials")
        },
        "owners": dict(_marks(owners, "owners")),
        "stores": _stores(stores),
        "to_move": _side(side),
        "round": _round(round_text),
        "first_turn_of_round": False,
    }
    for flag in fields[6].split(",") if len(fields) == 7 else []:
        _flag(out, flag)
    return out


def _holes(rules: Rules, text: str) -> dict[str, int]:
    rows = text.split("/")
    if len(rows) != rules.board.rows:
        raise _bad(f"{rules.name} has {rules.board.rows} rows of holes, separated by '/'")
    counts = [count for row in rows for count in row.split(",")]
    if len(counts) != rules.board.size or not all(is_whole_number(count) for count in counts):
        raise _bad(f"each row holds 6 counts separated by commas ({rules.board.size} holes)")
    return {name: int(count) for name, count in zip(rules.board.holes, counts)}


def _marks(text: str, what: str) -> list[tuple[str, str]]:
    if text == "-":
        return []
    marks = []
    for mark in text.split(","):
        hole, _, side = mark.partition(":")
        if side not in PLAYER_OF:
            raise _bad(f"{what} are written hole:S or hole:N, not {mark!r}")
        marks.append((hole, PLAYER_OF[side]))
    return marks


def _stores(text: str) -> dict[str, int]:
    south, _, north = text.partition("-")
    if not (is_whole_number(south) and is_whole_number(north)):
        raise _bad(f"stores are written south-north, e.g. 10-6, not {text!r}")
    return {"south": int(south), "north": int(north)}


def _side(text: str) -> str | None:
    if text == "-":
        return None
    if text not in PLAYER_OF:
        raise _bad(f"the side to move is S, N or -, not {text!r}")
    return PLAYER_OF[text]


def _round(text: str) -> int:
    if not is_whole_number(text) or int(text) < 1:
        raise _bad(f"the round is a number from 1, not {text!r}")
    return int(text)


def _flag(out: dict[str, Any], flag: str) -> None:
    name, _, value = flag.partition(":")
    if name == "first" and not value:
        out["first_turn_of_round"] = True
    elif name == "awaiting" and value in AWAITED:
        out["awaiting"] = value
    elif name == "no_return" and value:
        out["no_return"] = value
    elif name == "pending" and value in ("S", "N", "SN", "-"):
        out["first_turn_pending"] = [PLAYER_OF[c] for c in value if c != "-"]
    else:
        raise _bad(f"unknown flag {flag!r}; flags are first, awaiting:…, no_return:…, pending:…")


def _bad(detail: str) -> InvalidRecord:
    return InvalidRecord(f"position text: {detail}", field="position")


def reached(games: Any) -> list[tuple[int, str]]:
    """(seq, key) of every position in a game's history (``core.game.history`` or the
    folds an append made): what the position index holds for it."""
    return [(game.version, position_key(game.rules, game.state)) for game in games]

"""The appeal dossier's body, pure: its format, and the parts a verifier derives again from
the events (``derived``), with the same functions that built them. Standard library and the
project's rules, core and audit views only: ``dossier`` (the service) builds with it, and
``dossier_check`` (the command line, or the rules on a device) checks with it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from recorder.core.chain import canonical_json
from recorder.core.events import EVENT_TYPES, event_from_record
from recorder.core.signoffs import disputed_moves, signoffs_json

from . import claims, whatif
from .trace import explain_all
from .verify import replay_break

FORMAT = "mancala-dossier/1"
MEDIA_TYPE = "application/vnd.mancala-dossier"  # three lines of UTF-8 text (docs/auditing.md)


def derived(game_id: str, stored: Sequence[Any], moves: list[int], what_ifs: list[dict], claimed: list[dict]) -> dict:
    """What a verifier derives again from the events: the same function builds and checks it.
    The disputed moves traced are those asked for (``moves``) and every move a player's
    dispute event names; the confirmations, disputes and decisions are read from theirs."""
    pairs = [(e.seq, event_from_record(e.type, e.payload)) for e in stored if e.type in EVENT_TYPES]
    _, game = replay_break(game_id, [e for e in stored if e.type in EVENT_TYPES])
    if game is not None:
        moves = sorted(set(moves) | disputed_moves(game.signoffs))
    return plain(
        {
            "setup": stored[0].payload if stored else None,
            "final": whatif.final_view(game) if game is not None else None,
            "clock_readings": clock_readings(stored),
            "traces": explain_all(game_id, stored, moves),
            "what_ifs": [{"options": w, "report": whatif.what_if(game_id, pairs, w)} for w in what_ifs],
            "claims": [{"position": c, "report": claims.find_position(game_id, pairs, c)} for c in claimed],
            "signoffs": signoffs_json(game.signoffs, game.record_end) if game is not None else None,
        }
    )


def clock_readings(stored: Sequence[Any]) -> list[dict]:
    """Every clock reading the events carry (TIME-2), with the event that carries it."""
    return [
        {"seq": e.seq, "type": e.type, "recorded_at": e.recorded_at, "clock": e.payload["clock"]}
        for e in stored
        if isinstance(e.payload, dict) and e.payload.get("clock") is not None
    ]


def plain(value: Any) -> Any:
    """``value`` as the body's JSON reads back (tuples as lists): what a verifier compares."""
    return json.loads(canonical_json(value))


def signed_part(body: dict) -> bytes:
    """The bytes the signature covers: the format line and the body's canonical line."""
    return f"{FORMAT}\n{canonical_json(body)}\n".encode()

"""The appeal dossier: one signed file holding everything an appeals committee checks.

A dossier (``mancala-dossier/1``) is three lines of UTF-8 text::

    mancala-dossier/1
    <the body: canonical JSON, one line>
    <key id> <Ed25519 signature, base64url without padding>

The signature covers the exact bytes of the first two lines, newlines included, so a
change to any byte of the file is detected: in the signed lines by the signature, in the
last line by its strict spelling (one key id, one signature, each spelled exactly as the
service spells it). The body holds the game's whole stream (every event as stored, with
its links), the setup, the traces of the disputed moves, the claims and what-ifs with
their reports, the round's pairing check for a tournament board, the clock readings, the
final position and result, the service's public key and, for a finished game, the signed
checkpoint. ``recorder.audit.dossier_check`` verifies it with no database.

Pure apart from the signing key (the ``cryptography`` package's, as checkpoints').
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from recorder.core.chain import canonical_json, line_of
from recorder.core.events import EVENT_TYPES, event_from_record
from recorder.errors import NotFound, RecordBroken

from . import checkpoints, claims, whatif
from .checkpoints import SigningKey
from .trace import explain
from .verify import replay_break, verify_record

FORMAT = "mancala-dossier/1"
MEDIA_TYPE = "application/vnd.mancala-dossier"  # three lines of UTF-8 text: see the module's docstring
MAX_MOVES = 16  # traces folded per dossier: each folds the game up to its move
MAX_WHAT_IFS = 4  # what-if replays per dossier: each replays the whole game twice
MAX_CLAIMS = 4  # claims per dossier: each folds the whole game


def build(
    key: SigningKey,
    game_id: str,
    stored: Sequence[Any],
    *,
    moves: Iterable[int] = (),
    what_ifs: Iterable[dict] = (),
    claimed: Iterable[dict] = (),
    pairing_check: dict | None = None,
) -> bytes:
    """The signed dossier of a game whose record verifies (RecordBroken otherwise)."""
    report = verify_record(game_id, stored)
    if not report["ok"]:
        raise RecordBroken(
            f"the record fails verification: {report['detail']}", first_broken_link=report["first_broken_link"]
        )
    body = {
        "format": FORMAT,
        "game_id": game_id,
        "key": {"algorithm": "Ed25519", "key_id": key.key_id, "public_key": key.public_json()["public_key"]},
        "events": [line_of(event) for event in stored],
        **derived(game_id, stored, sorted(set(moves)), list(what_ifs), list(claimed)),
        "pairing_check": pairing_check,
        "checkpoint": _checkpoint(key, game_id, stored, report),
    }
    return sign(key, body)


def derived(game_id: str, stored: Sequence[Any], moves: list[int], what_ifs: list[dict], claimed: list[dict]) -> dict:
    """What a verifier derives again from the events: the same function builds and checks it."""
    pairs = [(e.seq, event_from_record(e.type, e.payload)) for e in stored if e.type in EVENT_TYPES]
    _, game = replay_break(game_id, [e for e in stored if e.type in EVENT_TYPES])
    return plain(
        {
            "setup": stored[0].payload if stored else None,
            "final": whatif.final_view(game) if game is not None else None,
            "clock_readings": clock_readings(stored),
            "traces": [explain(game_id, stored, seq) for seq in moves],
            "what_ifs": [{"options": w, "report": whatif.what_if(game_id, pairs, w)} for w in what_ifs],
            "claims": [{"position": c, "report": claims.find_position(game_id, pairs, c)} for c in claimed],
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
    import json

    return json.loads(canonical_json(value))


def signed_part(body: dict) -> bytes:
    """The bytes the signature covers: the format line and the body's canonical line."""
    return f"{FORMAT}\n{canonical_json(body)}\n".encode()


def sign(key: SigningKey, body: dict) -> bytes:
    signed = signed_part(body)
    return signed + f"{key.key_id} {checkpoints._b64url(key.sign(signed))}\n".encode()


def _checkpoint(key: SigningKey, game_id: str, stored: Sequence[Any], report: dict) -> dict | None:
    """The signed checkpoint of a finished game; None while it is not finished."""
    if report["result"] is None:
        return None
    try:
        issued = checkpoints.issue(key, game_id, stored)
    except NotFound:
        return None
    return {k: issued[k] for k in ("game_id", "version", "head_hash", "result", "key_id", "signature", "text")}

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

from recorder.core.chain import line_of
from recorder.errors import NotFound, RecordBroken

from . import checkpoints
from .checkpoints import SigningKey
from .dossier_body import FORMAT, derived, signed_part
from .signed_text import b64url
from .verify import verify_record


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


def sign(key: SigningKey, body: dict) -> bytes:
    signed = signed_part(body)
    return signed + f"{key.key_id} {b64url(key.sign(signed))}\n".encode()


def _checkpoint(key: SigningKey, game_id: str, stored: Sequence[Any], report: dict) -> dict | None:
    """The signed checkpoint of a finished game; None while it is not finished."""
    if report["result"] is None:
        return None
    try:
        issued = checkpoints.issue(key, game_id, stored)
    except NotFound:
        return None
    return {k: issued[k] for k in ("game_id", "version", "head_hash", "result", "key_id", "signature", "text")}

"""The signed texts' spelling, pure: what a checkpoint's signature covers, its printed line
and base64url without padding. ``checkpoints`` signs with them; a dossier's check (which
runs on a device, with the standard library alone) reads them.
"""

from __future__ import annotations

import base64

from recorder.core.chain import canonical_json

PREFIX = "mancala-checkpoint/1"
TEXT_FIELDS = ("game", "version", "result", "head", "key", "sig")


def message(game_id: str, version: int, head_hash: str, result: str) -> bytes:
    body = {"game_id": game_id, "version": version, "head_hash": head_hash, "result": result}
    return f"{PREFIX}\n{canonical_json(body)}".encode()


def checkpoint_text(checkpoint: dict) -> str:
    values = (checkpoint[k] for k in ("game_id", "version", "result", "head_hash", "key_id", "signature"))
    return " ".join([PREFIX] + [f"{name}={value}" for name, value in zip(TEXT_FIELDS, values)])


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
